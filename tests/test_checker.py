"""The checker tells apart every kind of wrong answer SPEC.md names."""
import random

import pytest

from generators.cases import USAGE, Case
from generators.text import to_file
from harness.grading.checker import check
from harness.runner import RunResult
from reference import SHAPES, parse, solve_text
from reference.shapes import SHAPE_BY_NAME

SAMPLE = b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n\n#...\n###.\n....\n....\n\n....\n##..\n.##.\n....\n"
ANSWER = "DDAA\nCDDA\nCCCA\nBBBB\n"


def result(stdout: str | bytes = b"", stderr: bytes = b"", signal=None, limit=None, exit_code=0) -> RunResult:
    if isinstance(stdout, str):
        stdout = stdout.encode()
    return RunResult(stdout=stdout, stderr=stderr, exit_code=None if signal else exit_code, signal=signal,
                     wall_s=0.01, cpu_s=0.01, max_rss_kb=1000, limit=limit, isolation="rlimits")


def valid_case(data: bytes = SAMPLE) -> Case:
    return Case(id="valid/sample", category="valid", input=data, expected=solve_text(data))


def verdict_of(case: Case, stdout, **kw):
    v = check(case, [result(stdout, **kw)])
    return v.verdict, v.diagnosis, v


def test_exact_match_is_ok():
    assert verdict_of(valid_case(), ANSWER)[:2] == ("OK", None)


def all_packings(pieces, side):
    """Each legal packing of `pieces` in a side x side square, as rendered squares, in plain search order."""
    def place(index, grid):
        if index == len(pieces):
            yield "".join("".join(line) + "\n" for line in grid)
            return
        piece = pieces[index]
        for row in range(side - piece.height + 1):
            for col in range(side - piece.width + 1):
                if all(grid[row + r][col + c] == "." for r, c in piece.cells):
                    for r, c in piece.cells:
                        grid[row + r][col + c] = chr(ord("A") + index)
                    yield from place(index + 1, grid)
                    for r, c in piece.cells:
                        grid[row + r][col + c] = "."
    return place(0, [["."] * side for _ in range(side)])


def test_not_upper_left_names_first_differing_piece():
    packings = list(all_packings(parse(SAMPLE).pieces, 4))
    assert packings[0] == ANSWER and len(packings) > 1
    for other in packings[1:]:
        name, diagnosis, v = verdict_of(valid_case(), other)
        assert (name, diagnosis) == ("WRONG", "not_upper_left")
        letter = v.details["piece"]
        assert f"piece {letter} is at row" in v.message
        # Every piece before the named one is where the answer has it; the named one is later.
        assert tuple(v.details["actual"]) > tuple(v.details["expected"])


def test_not_upper_left_counts_rows_and_columns_from_1():
    """Messages, details and reports share one convention: the top-left cell is row 1, column 1."""
    pieces = parse(SAMPLE).pieces
    for other in list(all_packings(pieces, 4))[1:]:
        v = verdict_of(valid_case(), other)[2]
        letter = v.details["piece"]
        for square, where in ((other, v.details["actual"]), (ANSWER, v.details["expected"])):
            cells = [(r, c) for r, row in enumerate(square.splitlines()) for c, ch in enumerate(row) if ch == letter]
            assert where == [min(r for r, _ in cells) + 1, min(c for _, c in cells) + 1]
        (row, col), (want_row, want_col) = v.details["actual"], v.details["expected"]
        assert v.message == (f"piece {letter} is at row {row}, column {col}; the upper-left answer has it at "
                             f"row {want_row}, column {want_col}")
        assert min(row, col, want_row, want_col) >= 1


def test_not_minimal_gives_both_sides():
    big = next(all_packings(parse(SAMPLE).pieces, 5))
    name, diagnosis, v = verdict_of(valid_case(), big)
    assert (name, diagnosis) == ("WRONG", "not_minimal")
    assert v.details == {"actual_side": 5, "expected_side": 4}


@pytest.mark.parametrize("stdout, defects", [
    (ANSWER[:-1], ["missing final newline"]),
    (ANSWER.replace("\n", " \n"), ["trailing spaces at the end of lines"]),
    (ANSWER + "\n", ["one extra empty line after the square"]),
    (ANSWER + "\n\n\n", ["3 extra empty lines after the square"]),
    ("\n" + ANSWER, ["one extra empty line before the square"]),
    (ANSWER.replace("\n", "\n\n", 1), ["one extra empty line between rows of the square"]),
    (ANSWER.replace("\n", "\r\n"), ["carriage returns ('\\r') in the output"]),
    ("".join(" ".join(row) + "\n" for row in ANSWER.splitlines()), ["spaces between cells"]),
    # Each distinct defect is named on its own, in the order a reader meets them.
    ("\n" + ANSWER.replace("\n", " \n") + "\n", ["trailing spaces at the end of lines",
                                                "one extra empty line before the square",
                                                "one extra empty line after the square"]),
    # A line of only spaces is an empty line with trailing spaces, not leading ones too.
    (ANSWER.replace("\n", "\n  \n", 1), ["trailing spaces at the end of lines",
                                         "one extra empty line between rows of the square"]),
])
def test_format_defects_are_named(stdout, defects):
    name, diagnosis, v = verdict_of(valid_case(), stdout)
    assert (name, diagnosis) == ("WRONG", "format")
    assert v.details["defects"] == defects
    assert v.message == f"the square is right but the layout is not: {'; '.join(defects)}"
    assert "blank lines in the square" not in v.message


def test_tabs_between_cells_are_not_repaired():
    """Only spaces between cells are a layout defect; a tab makes the output no square."""
    name, diagnosis, v = verdict_of(valid_case(), ANSWER.replace("DD", "D\tD"))
    assert (name, diagnosis) == ("WRONG", "format")
    assert v.message.startswith("the output is not a square of '.' and letters")


def test_a_speed_timeout_says_correct_but_too_slow():
    speed = Case(id="speed/x", category="speed", input=SAMPLE, expected=ANSWER)
    name, diagnosis, v = verdict_of(speed, "", limit="wall")
    assert (name, diagnosis) == ("TIMEOUT", "wall")
    assert v.message.startswith("the program exceeded the wall-clock time limit")
    assert "correct, but too slow for the moulinette's timeout" in v.message
    # Elsewhere a TIMEOUT keeps its plain words, and a wrong speed answer is just wrong.
    assert "too slow" not in verdict_of(valid_case(), "", limit="wall")[2].message
    assert verdict_of(speed, "AA\nAA\n")[0] == "WRONG"


@pytest.mark.parametrize("stdout, fragment", [
    (ANSWER.replace("D", "E"), "missing letter(s) D"),
    (ANSWER.replace("A", "a"), "unexpected symbol"),
    ("DDAA\nCDDA\nCCCA\nBBB.\n", "piece B shows 3 cells"),
    ("DDA.\nCDDA\nCCCA\nBBBB\n", "piece A shows 3 cells"),
])
def test_bad_pieces(stdout, fragment):
    name, diagnosis, v = verdict_of(valid_case(), stdout)
    assert (name, diagnosis) == ("WRONG", "bad_pieces")
    assert fragment in v.message


def test_changed_shape_is_bad_pieces():
    # A vertical bar drawn horizontally: four cells, wrong shape.
    case = valid_case(to_file([SHAPE_BY_NAME["I_vertical"]]))
    name, diagnosis, v = verdict_of(case, "AAAA\n....\n....\n....\n")
    assert (name, diagnosis) == ("WRONG", "bad_pieces")
    assert "does not have its shape" in v.message


def test_false_and_missed_error():
    assert verdict_of(valid_case(), "error\n")[1] == "false_error"
    bad = Case(id="invalid/x", category="invalid", input=SAMPLE[:-1], expected="error\n", rule="final_newline")
    name, diagnosis, v = verdict_of(bad, ANSWER)
    assert (name, diagnosis) == ("WRONG", "missed_error")
    assert "final newline" in v.message or "last line" in v.message
    assert "stdout" in verdict_of(bad, "", stderr=b"error\n")[2].message
    assert verdict_of(bad, "Error\n")[1] == "format"


def test_usage_is_lenient_but_must_be_one_usage_line():
    case = Case(id="usage/no-args", category="usage", input=None, expected=USAGE, invocation="no_args")
    assert verdict_of(case, "usage: fillit file\n")[0] == "OK"
    assert verdict_of(case, "Usage: ./fillit source_file\n")[0] == "OK"
    assert verdict_of(case, "")[1] == "bad_usage"
    assert verdict_of(case, "error\n")[1] == "bad_usage"


def test_runner_outcomes_come_first():
    case = valid_case()
    assert verdict_of(case, ANSWER, signal="SIGSEGV")[:2] == ("CRASH", "SIGSEGV")
    assert verdict_of(case, "", limit="wall")[:2] == ("TIMEOUT", "wall")
    assert verdict_of(case, "", limit="cpu")[:2] == ("TIMEOUT", "cpu")
    assert verdict_of(case, "A" * 100, limit="output")[:2] == ("OUTPUT_LIMIT", "output")


def test_nondeterministic_output():
    case = valid_case()
    v = check(case, [result(ANSWER), result("DDAA\nCDDA\nCCCA\nBBB.\n")])
    assert (v.verdict, v.diagnosis) == ("WRONG", "nondeterministic")


def test_disputed_profiles():
    data = SAMPLE + b"\n"
    square = solve_text(data, accept_disputed=True)
    case = Case(id="disputed/trailing", category="disputed", input=data, expected="error\n",
                accepted=(square,), disputed="trailing_empty_line")
    assert check(case, [result("error\n")]).verdict == "DISPUTED"
    assert check(case, [result(square)]).verdict == "DISPUTED"
    assert check(case, [result("error\n")], strict=True).verdict == "DISPUTED"
    assert check(case, [result(square)], strict=True).diagnosis == "missed_error"
    assert check(case, [result("garbage\n")]).verdict == "WRONG"


def test_every_legal_other_packing_is_diagnosed_as_not_upper_left_or_not_minimal():
    """Random valid inputs, answers shifted by moving the last piece: never 'OK', never 'format'."""
    rng = random.Random(7)
    seen = set()
    for _ in range(40):
        pieces = [rng.choice(SHAPES) for _ in range(rng.randint(1, 5))]
        data = to_file(pieces, rng)
        expected = solve_text(data)
        side = len(expected.splitlines())
        grid = [list(line) for line in expected.splitlines()]
        letter = chr(ord("A") + len(pieces) - 1)
        cells = [(r, c) for r in range(side) for c in range(side) if grid[r][c] == letter]
        for r, c in cells:
            grid[r][c] = "."
        shape = pieces[-1]
        # Move the last piece to the last free position in the same square, if any differs.
        spots = [(row, col) for row in range(side - shape.height + 1) for col in range(side - shape.width + 1)
                 if all(grid[row + r][col + c] == "." for r, c in shape.cells)]
        spot = spots[-1]
        for r, c in shape.cells:
            grid[spot[0] + r][spot[1] + c] = letter
        moved = "".join("".join(line) + "\n" for line in grid)
        v = check(valid_case(data), [result(moved)])
        if moved == expected:
            assert v.verdict == "OK"
        else:
            assert (v.verdict, v.diagnosis) == ("WRONG", "not_upper_left")
            assert v.details["piece"] == letter
            seen.add(v.diagnosis)
    assert seen == {"not_upper_left"}
