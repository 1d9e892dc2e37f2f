"""The standard suite's cases aimed at the coverage holes of issue 12 are there, say what
they claim, stay easy for plain backtracking, and come out byte-identical from the seed."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from generators.corpus import STANDARD_SEED, identical_case, quick_corpus
from generators.invalid import INVALID_CATEGORIES, invalid_file
from generators.targeted import (
    MIX_COPIES,
    MIX_MIN_TRIES,
    RUN_COPIES,
    above_bound_files,
    identical_mix,
    identical_run,
)
from generators.valid import EASY_BUDGET, first_fit, plain_tries
from reference.parser import parse
from reference.plain import min_side
from reference.shapes import SHAPE_BY_NAME, SHAPES
from reference.solver import solve, solve_text

SEEDS = range(12)


@pytest.fixture(scope="module")
def standard(standard_suite) -> dict[str, object]:
    return {case.id: case for case in standard_suite}


def _of(standard, prefix: str) -> list:
    return [case for case_id, case in standard.items() if case_id.split("/", 1)[1].startswith(prefix)]


# --- valid files ------------------------------------------------------------------------------

def test_every_shape_alone_in_the_bottom_right_corner(standard):
    alone = _of(standard, "alone-")
    assert sorted(case.id for case in alone) == sorted(f"valid/alone-{shape.name}" for shape in SHAPES)
    for case in alone:
        lines = case.input.decode().split("\n")[:4]
        assert "#" in lines[3] and any(line[3] == "#" for line in lines), case.id  # bottom and right edges
        assert parse(case.input).pieces == (SHAPE_BY_NAME[case.id.split("alone-")[1]],)
        assert case.expected == solve_text(case.input)


def test_squares_two_sides_above_the_bound(standard):
    # The reference finds exactly the one- and two-piece files made of I pieces.
    assert {tuple(shape.name for shape in pieces) for pieces in above_bound_files()} == {
        ("I_vertical",), ("I_horizontal",), ("I_vertical", "I_horizontal"), ("I_horizontal", "I_vertical")}
    above = _of(standard, "above-bound-")
    assert len(above) == 4
    for case in above:
        pieces = parse(case.input).pieces
        assert len(case.expected.splitlines()) >= min_side(len(pieces)) + 2, case.id
    single_i = standard["valid/alone-I_vertical"]
    assert single_i.expected == "A...\nA...\nA...\nA...\n"


def test_identical_runs_are_long_and_greedy(standard):
    runs = _of(standard, "identical-run-") + _of(standard, "identical-whole-")
    assert len(runs) == 8
    for case in runs:
        pieces = parse(case.input).pieces
        most = Counter(pieces).most_common(1)[0][1]
        assert most >= RUN_COPIES[0], case.id
        if "whole" in case.id:
            assert len(set(pieces)) == 1 and len(pieces) >= 13
        assert first_fit(pieces, min_side(len(pieces))) is not None, case.id  # plain never backtracks
        assert case.category == ("large" if len(pieces) >= 20 else "valid")


def test_identical_mixes_make_plain_search_backtrack_within_budget(standard):
    mixes = _of(standard, "identical-mix-")
    assert len(mixes) == 6
    for case in mixes:
        pieces = parse(case.input).pieces
        repeated = [count for count in Counter(pieces).values() if count >= MIX_COPIES[0]]
        assert len(repeated) >= 2 and max(repeated) <= MIX_COPIES[1] + 4, case.id  # fillers may add a few
        tries = plain_tries(pieces, EASY_BUDGET)
        assert tries is not None and tries >= MIX_MIN_TRIES, case.id


def test_identical_builders_are_reproducible():
    for seed in SEEDS:
        assert identical_run(random.Random(seed)) == identical_run(random.Random(seed))
        assert identical_mix(random.Random(seed)) == identical_mix(random.Random(seed))
    assert identical_case(STANDARD_SEED, "identical-mix", 2) == identical_case(STANDARD_SEED, "identical-mix", 2)
    runs = {tuple(identical_run(random.Random(seed))) for seed in SEEDS}
    assert len(runs) > len(SEEDS) // 2  # they vary with the seed (an all-I run may repeat)


def test_quick_suite_samples_the_new_cases():
    ids = {case.id for case in quick_corpus()}
    assert {"valid/alone-I_vertical", "invalid/bad_hash_letter-1", "usage/three-args", "errors/empty-path"} <= ids
    assert any("/identical-mix-" in case_id for case_id in ids)
    assert not any(case_id.startswith("speed/") for case_id in ids)


def test_reference_answers_match_solve(standard):
    for case in _of(standard, "identical-") + _of(standard, "above-bound-"):
        pieces = parse(case.input).pieces
        assert len(case.expected.splitlines()) == solve(pieces).side


# --- invalid files ----------------------------------------------------------------------------

BAD_HASH = [name for name in INVALID_CATEGORIES if name.startswith("bad_hash_")]


def test_a_hash_replaced_by_each_kind_of_bad_character(standard):
    kinds = {name.removeprefix("bad_char_") for name in INVALID_CATEGORIES if name.startswith("bad_char_")}
    assert {name.removeprefix("bad_hash_") for name in BAD_HASH} == kinds
    for name in BAD_HASH:
        assert len([c for c in standard.values() if c.id.startswith(f"invalid/{name}-")]) >= 2
        for seed in SEEDS:
            text = invalid_file(name, seed).decode("utf-8")
            bad = [ch for ch in text if ch not in "#.\n"]
            assert len(bad) == 1, (name, seed)
            blocks = text.split("\n\n")
            broken = next(block for block in blocks if bad[0] in block)
            assert broken.count("#") == 3, (name, seed)  # the bad character took a '#' away


@pytest.mark.parametrize("count, category", [(1, "one_line"), (2, "two_lines")])
def test_files_of_one_or_two_lines(count, category):
    for seed in SEEDS:
        data = invalid_file(category, seed)
        assert data.endswith(b"\n") and data.count(b"\n") == count and b"#" in data


def test_files_cut_mid_line():
    for seed in SEEDS:
        data = invalid_file("cut_mid_line", seed)
        *whole, last = data.split(b"\n")
        assert 1 <= len(last) <= 3 and all(len(line) in (0, 4) for line in whole), seed


@pytest.mark.parametrize("category, blank", [("newline_as_space", b" "), ("newline_as_tab", b"\t")])
def test_a_newline_turned_blank_keeps_the_block_at_20_bytes(category, blank):
    for seed in SEEDS:
        data = invalid_file(category, seed)
        at = data.index(blank)
        # Right where a line's newline belongs: after 4 cells that start a line.
        assert all(ch in b"#." for ch in data[at - 4:at]) and (at == 4 or data[at - 5] == ord("\n")), seed
        assert parse(data[:at] + b"\n" + data[at + 1:]).valid, seed


def _block_rules(data: bytes) -> list[str | None]:
    """The rule each block breaks on its own (None when it is a valid block)."""
    out = []
    for block in data.decode().rstrip("\n").split("\n\n"):
        rejection = parse((block + "\n").encode()).rejection
        out.append(rejection.rule if rejection else None)
    return out


def test_several_defects_in_one_file():
    for seed in SEEDS:
        blocks = [block.split(b"\n") for block in invalid_file("several_lines_3_and_5", seed).split(b"\n\n")]
        broken = [sorted(len(line) for line in block if line) for block in blocks
                  if any(len(line) != 4 for line in block if line)]
        assert broken == [[3, 4, 4, 5]], seed  # one block, still 16 cells (20 bytes)
        assert sorted(block.count(b"#") for block in invalid_file("several_hash_3_and_5", seed).split(b"\n\n")
                      if block.count(b"#") != 4) == [3, 5]
        rules = [rule for rule in _block_rules(invalid_file("several_broken_blocks", seed)) if rule]
        assert rules[0] == "connectivity" and len(rules) >= 2, (seed, rules)
