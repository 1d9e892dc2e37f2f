"""Hypothesis strategies for fillit inputs: for the harness's fuzz mode and users' property tests.

Everything is built from primitive draws so that hypothesis shrinks a failing example to few
pieces, the first shapes of `reference.shapes.SHAPES` (I_vertical first) and offset (0, 0).
Invalid files reuse the seeded builders of `generators.invalid`, driven by `st.randoms()`
whose draws hypothesis records and shrinks like any other.

    from hypothesis import given
    from generators.strategies import valid_files, invalid_files

    @given(valid_files(max_pieces=8))
    def test_my_solver(data): ...
"""
from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from generators.invalid import INVALID_CATEGORIES, STRICT_CATEGORIES
from generators.text import spell_block
from reference.parser import MAX_PIECES
from reference.shapes import SHAPES, Shape


def pieces(min_size: int = 1, max_size: int = MAX_PIECES,
           shapes: Sequence[Shape] = SHAPES) -> st.SearchStrategy[list[Shape]]:
    """Lists of shapes (the pieces of a valid file, in file order)."""
    return st.lists(st.sampled_from(tuple(shapes)), min_size=min_size, max_size=max_size)


@st.composite
def _placed_block(draw: st.DrawFn, shape: Shape) -> str:
    row = draw(st.integers(0, 4 - shape.height))
    col = draw(st.integers(0, 4 - shape.width))
    return "".join(line + "\n" for line in spell_block(shape, row, col))


@st.composite
def _valid_file(draw: st.DrawFn, min_pieces: int, max_pieces: int, shapes: tuple[Shape, ...]) -> bytes:
    chosen = draw(pieces(min_pieces, max_pieces, shapes))
    return "\n".join(draw(_placed_block(shape)) for shape in chosen).encode()


def valid_files(min_pieces: int = 1, max_pieces: int = MAX_PIECES,
                shapes: Sequence[Shape] = SHAPES) -> st.SearchStrategy[bytes]:
    """Valid fillit files (bytes) of min_pieces..max_pieces pieces, each at a random offset.

    Note: random files of many pieces can be slow for a plain backtracking solver.
    """
    if not 1 <= min_pieces <= max_pieces <= MAX_PIECES:
        raise ValueError(f"need 1 <= min_pieces <= max_pieces <= {MAX_PIECES}")
    return _valid_file(min_pieces, max_pieces, tuple(shapes))


def _category_file(name: str) -> st.SearchStrategy[bytes]:
    build = INVALID_CATEGORIES[name].build
    return st.randoms(use_true_random=False).map(build)


def invalid_files(category: str | None = None) -> st.SearchStrategy:
    """Invalid fillit files.

    With `category` (a name of generators.invalid.INVALID_CATEGORIES, the disputed one
    included): bytes of that category.  Without: (category, bytes) pairs over every category
    that is invalid for all implementations (the disputed one is left out).
    """
    if category is not None:
        if category not in INVALID_CATEGORIES:
            raise ValueError(f"unknown invalid category {category!r}")
        return _category_file(category)
    return st.sampled_from(STRICT_CATEGORIES).flatmap(
        lambda name: _category_file(name).map(lambda data: (name, data)))
