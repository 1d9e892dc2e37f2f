"""The fast reference solver gives exactly the plain seed backtracking's answer.

Oracle sizes: plain Python backtracking is exponential when the lower-bound square is
infeasible.  Measured here, random files of up to 8 pieces take milliseconds, 9 to 11
pieces up to ~1.5 s, and 12 pieces (1 spare cell at side 7) often minutes.  So the oracle
comparison draws 1-8 pieces freely; 9-11 pieces are compared with the same algorithm in C
(reference/plain_fillit.c, itself compared with the Python one on 1-8 pieces here); bigger
inputs are checked by the C engine against the Python engine and by packing legality.

Oracle inputs are drawn uniformly from a seed rather than by hypothesis' list strategy:
hypothesis favours repeated elements, and 8 identical vertical bars alone keep the plain
search busy for minutes (it tries every order of the bars).  Identical pieces get their
own test, with at most 6 of them.
"""
from __future__ import annotations

import itertools
import random
import subprocess
import tempfile
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontends.ref import main as fillit_ref
from reference import solver
from generators.text import to_file
from reference.plain import min_side, solve_plain
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import Solution, available_engines, render, solve, solve_text

SAMPLE = b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n\n#...\n###.\n....\n....\n\n....\n##..\n.##.\n....\n"
FAST_ENGINES = [e for e in ("c", "python") if e in available_engines()]


def pieces_strategy(min_size: int, max_size: int) -> st.SearchStrategy[list[Shape]]:
    """Files of min_size..max_size pieces, each uniform over the 19 shapes."""
    def draw(seed_and_size: tuple[int, int]) -> list[Shape]:
        seed, size = seed_and_size
        rng = random.Random(seed)
        return [rng.choice(SHAPES) for _ in range(size)]

    return st.tuples(st.integers(0, 2**32), st.integers(min_size, max_size)).map(draw)


def assert_legal_packing(pieces: Sequence[Shape], solution: Solution) -> None:
    """Every piece, its exact shape, inside the square, no two pieces sharing a cell."""
    assert len(solution.positions) == len(pieces)
    taken: set[tuple[int, int]] = set()
    for piece, (row, col) in zip(pieces, solution.positions):
        cells = {(row + r, col + c) for r, c in piece.cells}
        assert all(0 <= r < solution.side and 0 <= c < solution.side for r, c in cells)
        assert not cells & taken
        taken |= cells
    # The printed square shows the same thing: 4 letters per piece, the rest dots.
    text = render(pieces, solution)
    for index in range(len(pieces)):
        assert text.count(chr(ord("A") + index)) == 4


def fits_anywhere(pieces: Sequence[Shape], side: int) -> bool:
    """Brute force, independent of both solvers: try every tuple of positions at once."""
    per_piece = [
        [{(row + r, col + c) for r, c in p.cells} for row in range(side - p.height + 1)
         for col in range(side - p.width + 1)]
        for p in pieces
    ]
    return any(len(set().union(*choice)) == 4 * len(pieces) for choice in itertools.product(*per_piece))


def test_seed_sample_prints_the_seed_answer():
    assert solve_text(SAMPLE) == "DDAA\nCDDA\nCCCA\nBBBB\n"


def test_the_c_core_is_built():
    # setup.py builds it at `pip install -e .`; without it the reference is far slower.
    assert "c" in available_engines()


@pytest.mark.parametrize("engine", FAST_ENGINES)
@settings(max_examples=150, deadline=None)
@given(pieces=pieces_strategy(1, 8))
def test_fast_engines_match_plain_on_small_files(engine, pieces):
    side, positions = solve_plain(pieces)
    assert solve(pieces, engine=engine) == Solution(side, positions)


def plain_c_answer(plain_c, pieces: Sequence[Shape]) -> str:
    """What the seed's algorithm in C prints for `pieces` (a file written for it)."""
    with tempfile.NamedTemporaryFile(suffix=".fillit") as handle:
        handle.write(to_file(pieces))
        handle.flush()
        return subprocess.run([plain_c, handle.name], capture_output=True, text=True, check=True, timeout=120).stdout


@settings(max_examples=60, deadline=None)
@given(pieces=pieces_strategy(1, 8))
def test_plain_in_c_matches_plain_in_python(pieces, plain_c):
    side, positions = solve_plain(pieces)
    assert plain_c_answer(plain_c, pieces) == render(pieces, Solution(side, positions))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=pieces_strategy(9, 11))
def test_fast_engine_matches_plain_on_medium_files(pieces, plain_c):
    assert solve_text(to_file(pieces)) == plain_c_answer(plain_c, pieces)


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(SHAPES), count=st.integers(1, 6))
def test_identical_pieces_match_plain(shape, count):
    pieces = [shape] * count
    side, positions = solve_plain(pieces)
    assert solve(pieces) == Solution(side, positions)
    assert list(positions) == sorted(positions)  # identical pieces come in reading order


@settings(max_examples=40, deadline=None)
@given(pieces=pieces_strategy(1, 26))
def test_every_answer_is_a_legal_packing(pieces):
    solution = solve(pieces)
    assert solution.side >= min_side(len(pieces))
    assert_legal_packing(pieces, solution)


@settings(max_examples=60, deadline=None)
@given(pieces=pieces_strategy(1, 4))
def test_the_square_is_minimal(pieces):
    solution = solve(pieces)
    assert fits_anywhere(pieces, solution.side)
    assert solution.side == min_side(len(pieces)) or not fits_anywhere(pieces, solution.side - 1)


@pytest.mark.parametrize(
    "pieces, side",
    [
        ([SHAPE_BY_NAME["I_vertical"]], 4),  # bound 2: one bar needs 4 rows
        ([SHAPE_BY_NAME["O"]] * 26, 12),  # 5 x 5 = 25 squares fit in 11
        ([SHAPE_BY_NAME["I_vertical"]] * 23, 12),  # two bars per column up to side 11
        ([SHAPE_BY_NAME["I_horizontal"]] * 26, 12),
    ],
)
def test_known_sides(pieces, side):
    assert solve(pieces).side == side


def test_empty_piece_list():
    assert solve([]) == Solution(2, ())


def test_plain_engine_is_the_oracle():
    assert solve(SHAPES[:5], engine="plain") == Solution(*solve_plain(SHAPES[:5]))


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError):
        solve(SHAPES[:2], engine="quantum")  # type: ignore[arg-type]


def test_fillit_ref_uses_the_fast_solver(tmp_path, monkeypatch, capsys):
    """26 vertical bars take the plain search tens of seconds; the CLI must not call it."""
    def refuse(_pieces):
        raise AssertionError("the plain search was called")

    monkeypatch.setattr(solver, "solve_plain", refuse)
    pieces = [SHAPE_BY_NAME["I_vertical"]] * 26
    path = tmp_path / "bars.fillit"
    path.write_bytes(b"\n".join([b"#...\n#...\n#...\n#...\n"] * 26))
    assert fillit_ref([str(path)]) == 0
    assert capsys.readouterr().out == render(pieces, solve(pieces))
