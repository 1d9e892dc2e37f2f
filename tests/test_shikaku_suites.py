"""Shikaku's suites: sizes, categories, reproducibility, and the registered exercise."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings

from harness.grading.exercise import exercise_named
from exercises.shikaku import EXERCISE, WEIGHTS
from exercises.shikaku.invalid import DISPUTED_CATEGORIES, INVALID_CATEGORIES
from exercises.shikaku.puzzle import parse
from exercises.shikaku.render import answer_lines, input_lines
from exercises.shikaku.solver import answer_text
from exercises.shikaku.strategies import fuzz_inputs
from exercises.shikaku.valid import SEED_EXAMPLE


def test_the_exercise_is_registered():
    assert exercise_named("shikaku") is EXERCISE
    assert EXERCISE.invocation == "stdin" and EXERCISE.input_suffix == ".txt"
    assert set(EXERCISE.suites) == {"quick", "standard", "full"}
    assert sum(WEIGHTS.values()) == 100


def test_suite_sizes_and_categories():
    quick, standard = EXERCISE.suite("quick"), EXERCISE.suite("standard")
    assert 20 <= len(quick) <= 30 and 100 <= len(standard) <= 150
    assert set(Counter(case.category for case in quick)) == {"valid", "large", "invalid", "disputed"}
    assert set(Counter(case.category for case in standard)) == {"valid", "large", "invalid", "disputed", "hard"}
    invalid = {case.id.split("/")[1].rsplit("-", 1)[0] for case in standard if case.category == "invalid"}
    assert invalid == set(INVALID_CATEGORIES)
    assert {case.disputed for case in standard if case.disputed} == set(DISPUTED_CATEGORIES)
    assert all(case.category in WEIGHTS for case in standard)
    assert any(case.runs == 2 for case in quick)


def test_suites_are_reproducible_and_quick_is_part_of_standard():
    from exercises.shikaku import suites
    quick = EXERCISE.suite("quick")
    assert suites._quick.__wrapped__(EXERCISE.fixed_seed) == tuple(quick)  # built anew, same bytes
    standard = {case.id: case for case in EXERCISE.suite("standard")}
    for case in quick:
        assert standard[case.id] == case
    other = EXERCISE.suite("quick", seed=7)
    assert [c.id for c in other] == [c.id for c in quick]
    assert sum(a.input != b.input for a, b in zip(other, quick)) > len(quick) // 2


def test_expected_outputs_come_from_the_reference():
    for case in EXERCISE.suite("quick"):
        assert case.expected == answer_text(case.input)
        if case.category in ("valid", "large"):
            count = int(case.expected.split("\n")[0])
            assert f"{count} solution" in case.description


def test_the_seed_example_is_in_every_suite():
    for name in ("quick", "standard"):
        seed = next(case for case in EXERCISE.suite(name) if case.id == "valid/seed-example")
        assert seed.input == SEED_EXAMPLE and seed.expected.startswith("1\nAAAABBBCCC\n")


@given(fuzz_inputs())
@settings(max_examples=25, deadline=None)
def test_fuzz_inputs_are_valid_or_invalid_never_disputed(data: bytes):
    parsed = parse(data)
    assert parsed.disputed == ()
    expected = answer_text(data)
    if parsed.puzzle is None:
        assert expected == "error\n"
    else:
        assert expected.split("\n")[0].isdigit()


def test_render_draws_the_puzzle_and_shows_invisible_characters():
    lines = input_lines(SEED_EXAMPLE)
    assert lines[0] == "10 x 10, 12 numbers"
    assert lines[1] == " .  .  .  .  .  .  .  .  9  ."
    assert lines[4] == " . 20  .  .  8  .  .  .  6  ."
    assert input_lines(b"2 2\r\n2\t0\n0 2 \n") == ["2 2\\r", "2\\t0", "0 2·"]
    assert input_lines(b"") == ["(empty input)"]
    assert answer_lines("1\nAB\nAB") == ["1", "AB", "AB  (no newline at the end)"]
    assert answer_lines("") == ["(nothing printed)"]
    assert parse(b"2 2\n2 0\n0 2\n").puzzle is not None and input_lines(b"2 2\n2 0\n0 2\n")[1:] == ["2 .", ". 2"]
