"""fillit's fuzzing hooks (harness.grading.exercise: `fuzz_inputs`, `fuzz_case`, `shrink`):
the files `grade --fuzz` draws (valid ones of 1-26 pieces that plain backtracking answers
quickly, so that a slow solver is not what the fuzzer finds, and invalid ones of every
category), each drawn file as a `Case` with the reference's answer, and the block-wise
shrinker of a failing file.

    strategy = fuzz_inputs()                 # hypothesis: bytes of a file
    case = fuzz_case(data, 3)                # fuzz/3
    describe_file(data)                      # "valid file of 3 piece(s), 62 bytes"
    smaller = shrink_blocks(data, fails)     # whole pieces dropped, moved to (0, 0)
"""
from __future__ import annotations

from collections.abc import Callable

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


def describe_file(data: bytes) -> str:
    """One line about a file: its pieces, or the rule it breaks."""
    parsed = parse(data)
    if parsed.valid:
        return f"valid file of {len(parsed.pieces)} piece(s), {len(data)} bytes"
    note = " (disputed: the seed accepts it)" if parsed.disputed else ""
    return f"invalid file, {len(data)} bytes: {parsed.rejection}{note}"


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


def shrink_blocks(data: bytes, fails: Callable[[bytes], bool]) -> bytes:
    """A last, fillit-aware shrinking pass over a failing valid file.

    Hypothesis shrinks choice sequences, and a file built from a packing (the larger
    valid files) can get stuck well above the smallest failing file, e.g. when dropping
    any one block leaves a file too hard to be a fuzz file.  Here the blocks go through
    ddmin (delta debugging) until no single block can be dropped, then each block is
    moved to offset (0, 0) if the file still fails.
    Candidates that are not easy for plain backtracking are not tried.  Invalid files are
    returned unchanged.
    """
    parsed = parse(data)
    if not parsed.valid:
        return data
    blocks = [data[21 * i:21 * i + 20] for i in range(len(parsed.pieces))]

    def still_fails(candidate: list[bytes]) -> bool:
        text = b"\n".join(candidate)
        return is_easy(text) and fails(text)

    # ddmin (Zeller): split into n runs; keep one run alone, or drop one run, if the file
    # still fails; else split finer.  It ends 1-minimal: no single block can be dropped.
    # Runs kept alone matter here: they are small, hence easy, where dropping one block
    # of a large file often leaves a file too hard to be tried.
    n = 2
    while len(blocks) >= 2:
        bounds = [len(blocks) * k // n for k in range(n + 1)]
        runs = [blocks[bounds[k]:bounds[k + 1]] for k in range(n)]
        kept = next((run for run in runs if run and still_fails(run)), None)
        if kept is not None:
            blocks, n = kept, 2
            continue
        rests = ([b for j, run in enumerate(runs) if j != k for b in run] for k in range(n))
        rest = next((rest for rest in rests if rest and still_fails(rest)), None)
        if rest is not None:
            blocks, n = rest, max(n - 1, 2)
            continue
        if n >= len(blocks):
            break
        n = min(len(blocks), 2 * n)
    for i, shape in enumerate(parse(b"\n".join(blocks)).pieces):
        top_left = "".join(line + "\n" for line in spell_block(shape)).encode()
        if blocks[i] != top_left and still_fails(blocks[:i] + [top_left] + blocks[i + 1:]):
            blocks[i] = top_left
    return b"\n".join(blocks)
