"""The files `grade --fuzz` draws: valid ones of 1-26 pieces that plain backtracking
answers quickly (so that a slow solver is not what the fuzzer finds), invalid ones of
every category, and each drawn file as a `Case` with the reference's answer.

    strategy = fuzz_inputs()      # hypothesis: bytes of a file
    case = fuzz_case(data, 3)     # fuzz/0003
"""
from __future__ import annotations

from hypothesis import strategies as st

from generators.cases import Case
from generators.invalid import INVALID_CATEGORIES
from generators.strategies import valid_files
from generators.text import spell_block
from generators.valid import placements, plain_tries
from reference.parser import parse
from reference.plain import min_side
from reference.shapes import SHAPES, Shape
from reference.solver import solve_text

# A valid fuzz file must be solved by plain backtracking within this many placement
# tries (a C solver does millions a second; the Python reference a few hundred thousand).
EASY_TRIES = 20_000


def is_easy(data: bytes) -> bool:
    """The file's pieces (a trailing empty line accepted) are quick for plain backtracking."""
    pieces = parse(data).pieces
    return not pieces or plain_tries(pieces, EASY_TRIES) is not None


@st.composite
def _packed_file(draw: st.DrawFn, min_pieces: int, max_pieces: int) -> bytes:
    """A file of up to 26 pieces that plain backtracking solves at once: each piece is
    drawn among the shapes that fit, first-fit, into the lower-bound square, preferring
    those that cover its first empty cell (few holes, like generators.valid.greedy_pieces).

    Built from hypothesis draws only (a count, then one index per piece), so a failing
    file shrinks: fewer pieces, earlier shapes, offset (0, 0).  A draw that fits nothing
    ends the file early.
    """
    n = draw(st.integers(min_pieces, max_pieces))
    side = min_side(n)
    grid = 0
    chosen: list[Shape] = []
    for _ in range(n):
        first_empty = ~grid & (grid + 1)
        fitting, covering = [], []
        for shape in SHAPES:
            mask = next((m for _, m in placements(shape, side) if not m & grid), None)
            if mask is not None:
                fitting.append((shape, mask))
                if mask & first_empty:
                    covering.append((shape, mask))
        if not fitting:
            break
        # Index 0 (where shrinking goes) and most others: cover the first empty cell.
        pool = covering if covering and draw(st.integers(0, 9)) < 9 else fitting
        shape, mask = pool[draw(st.integers(0, len(pool) - 1))]
        chosen.append(shape)
        grid |= mask
    offsets = [(draw(st.integers(0, 4 - s.height)), draw(st.integers(0, 4 - s.width))) for s in chosen]
    return "\n".join("".join(line + "\n" for line in spell_block(shape, row, col))
                     for shape, (row, col) in zip(chosen, offsets)).encode()


def fuzz_inputs() -> st.SearchStrategy[bytes]:
    """File contents for fuzzing, most of them small.

    Branches come in shrinking order (hypothesis' one_of shrinks toward the first), and
    every valid branch can shrink down to one piece within itself.  Small valid files
    are drawn three times as often as any other branch.
    """
    small = valid_files(1, 5).filter(is_easy)
    medium = valid_files(1, 10).filter(is_easy)
    large = _packed_file(1, 26).filter(is_easy)
    categories = sorted(INVALID_CATEGORIES)
    strict = st.sampled_from([c for c in categories if INVALID_CATEGORIES[c].disputed is None]).flatmap(
        lambda name: st.randoms(use_true_random=False).map(INVALID_CATEGORIES[name].build))
    disputed = st.one_of(*[
        st.randoms(use_true_random=False).map(INVALID_CATEGORIES[c].build).filter(is_easy)
        for c in categories if INVALID_CATEGORIES[c].disputed is not None
    ])
    return st.one_of(small, small, small, medium, large, strict, strict, disputed)


def fuzz_case(data: bytes, n: int) -> Case:
    """The graded case for one fuzz file: the reference's answer, disputed rules honoured."""
    parsed = parse(data)
    disputed = parsed.disputed[0] if parsed.disputed and not parsed.valid else None
    return Case(
        id=f"fuzz/{n}",
        category="fuzz",
        input=data,
        expected=solve_text(data),
        accepted=(solve_text(data, accept_disputed=True),) if disputed else (),
        disputed=disputed,
        rule=parsed.rejection.rule if parsed.rejection is not None else None,
        description="hypothesis-generated file",
    )
