"""Generators: invalid files break exactly their rule, valid files are valid and reproducible,
greedy files are solved by first-fit, and the corpora keep their promises."""
from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.cases import USAGE
from generators.corpus import (
    SEED_SAMPLE,
    STANDARD_SEED,
    quick_corpus,
    standard_corpus,
)
from generators.invalid import INVALID_CATEGORIES, STRICT_CATEGORIES, invalid_file
from generators.text import to_file
from generators import valid
from generators.valid import (
    EASY_BUDGET,
    VALID_FAMILIES,
    easy_pieces,
    first_fit,
    greedy_pieces,
    parse_shapes,
    plain_tries,
    plain_tries_python,
    random_pieces,
    valid_file,
)
from reference.parser import RULES, parse
from reference.plain import min_side, solve_plain
from reference.shapes import SHAPE_BY_NAME
from reference.solver import solve_text

SEEDS = range(20)


def _seeds(category: str) -> range:
    return range(3) if category == "huge_file" else SEEDS  # ~1 MiB each: a few suffice


# --- invalid files ------------------------------------------------------------------------------

def test_at_least_20_categories_covering_every_rule():
    assert len(STRICT_CATEGORIES) >= 20
    assert {INVALID_CATEGORIES[name].rule for name in STRICT_CATEGORIES} == set(RULES)
    assert all(INVALID_CATEGORIES[name].rule in RULES for name in INVALID_CATEGORIES)


@pytest.mark.slow
@pytest.mark.parametrize("category", STRICT_CATEGORIES)
def test_invalid_file_rejected_for_its_rule(category):
    rule = INVALID_CATEGORIES[category].rule
    for seed in _seeds(category):
        parsed = parse(invalid_file(category, seed))
        assert parsed.rejection is not None, (category, seed)
        assert parsed.rejection.rule == rule, (category, seed, parsed.rejection.message)
        assert parsed.disputed == ()
        assert solve_text(invalid_file(category, seed)) == "error\n"


def test_disputed_category_is_disputed_and_solvable_by_the_seed():
    category = INVALID_CATEGORIES["trailing_empty_line_single"]
    assert category.disputed == "trailing_empty_line"
    assert "trailing_empty_line_single" not in STRICT_CATEGORIES
    for seed in SEEDS:
        data = invalid_file(category.name, seed)
        parsed = parse(data)
        assert parsed.rejection.rule == "trailing_empty_line"
        assert parsed.disputed == ("trailing_empty_line",)
        assert parse(data[:-1]).valid  # without the extra empty line: a valid file


@pytest.mark.parametrize("category", list(INVALID_CATEGORIES))
def test_invalid_files_are_reproducible_and_vary_with_the_seed(category):
    assert invalid_file(category, 7) == invalid_file(category, 7)
    distinct = {invalid_file(category, seed) for seed in _seeds(category)}
    assert len(distinct) == 1 if category == "empty_file" else len(distinct) > 1


def _replace_bad_chars(by: str) -> Callable[[bytes], bytes]:
    return lambda data: re.sub(r"[^#.\n]", by, data.decode("utf-8")).encode()


# Undo the one break: what remains must be a valid file, so nothing else was broken.
REPAIRS = {
    **{name: _replace_bad_chars(".") for name in STRICT_CATEGORIES if name.startswith("bad_char_")},
    # The bad character stood for a '#', the blank for a line's newline.
    **{name: _replace_bad_chars("#") for name in STRICT_CATEGORIES if name.startswith("bad_hash_")},
    "newline_as_space": lambda d: d.replace(b" ", b"\n"),
    "newline_as_tab": lambda d: d.replace(b"\t", b"\n"),
    "crlf": lambda d: d.replace(b"\r\n", b"\n"),
    "crlf_one_line": lambda d: d.replace(b"\r\n", b"\n"),
    "missing_final_newline": lambda d: d + b"\n",
    "leading_empty_line": lambda d: d[1:],
    "trailing_empty_lines": lambda d: d.rstrip(b"\n") + b"\n",
    "separator_double": lambda d: d.replace(b"\n\n\n", b"\n\n"),
    "line_5_chars": lambda d: re.sub(rb"^([#.]{4})\.$", rb"\1", d, flags=re.M),
    "line_very_long": lambda d: re.sub(rb"^([#.]{4})\.+$", rb"\1", d, flags=re.M),
    "line_3_chars": lambda d: re.sub(rb"^([#.]{3})$", rb"\1.", d, flags=re.M),
}


@pytest.mark.parametrize("category", list(REPAIRS))
def test_only_one_rule_is_broken(category):
    for seed in SEEDS:
        repaired = REPAIRS[category](invalid_file(category, seed))
        assert parse(repaired).valid, (category, seed)


def test_block_level_breaks_keep_other_blocks_valid():
    # Each break sits in one block: the parser must point at that block, after valid ones.
    for category in ("block_5_lines", "hash_3", "hash_5", "disconnected_diagonal", "line_5_chars"):
        blocks_seen = set()
        for seed in SEEDS:
            rejection = parse(invalid_file(category, seed)).rejection
            blocks_seen.add(rejection.block)
        assert len(blocks_seen) > 1, category  # the broken block's place varies with the seed


def test_huge_file_is_about_a_mebibyte():
    data = invalid_file("huge_file", 1)
    assert 1 << 20 <= len(data) < (1 << 20) + 64


# --- valid files ----------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("family", list(VALID_FAMILIES))
def test_valid_files_parse_with_the_requested_count(family):
    for n in range(1, 27):
        for seed in range(3):
            data = valid_file(n, seed, family)
            parsed = parse(data)
            assert parsed.valid, (family, n, seed, parsed.rejection)
            assert len(parsed.pieces) == n
            assert data == valid_file(n, seed, family)


def test_pieces_count_out_of_range_is_refused():
    for n in (0, 27):
        with pytest.raises(ValueError):
            random_pieces(n, random.Random(0))


def test_random_files_use_every_shape_and_offset():
    rng = random.Random(3)
    shapes = Counter(shape.name for _ in range(40) for shape in random_pieces(26, rng))
    assert set(shapes) == set(SHAPE_BY_NAME)
    # An O block can sit at 9 offsets in its 4x4 block: all of them appear.
    offsets = {valid_file(1, seed, shapes=[SHAPE_BY_NAME["O"]]) for seed in range(200)}
    assert len(offsets) == 9


def test_chosen_shapes_only():
    chosen = parse_shapes("O,T_up")
    for seed in range(10):
        parsed = parse(valid_file(12, seed, "random", chosen))
        assert {shape.name for shape in parsed.pieces} <= {"O", "T_up"}
    with pytest.raises(ValueError):
        parse_shapes("O,nope")


def test_greedy_answer_is_the_exact_answer():
    # First-fit at the lower bound is the plain search's first path: its answer, unchanged.
    for n in range(1, 27):
        for seed in range(4):
            pieces = greedy_pieces(n, random.Random(seed))
            positions = first_fit(pieces, min_side(n))
            assert positions is not None, (n, seed)
            assert solve_plain(pieces) == (min_side(n), positions)


def test_greedy_files_rendered_by_the_reference():
    for n in (1, 9, 16, 25, 26):
        rng = random.Random(n)
        pieces = greedy_pieces(n, rng)
        positions = first_fit(pieces, min_side(n))
        side = min_side(n)
        grid = [["."] * side for _ in range(side)]
        for letter, (shape, (row, col)) in enumerate(zip(pieces, positions)):
            for r, c in shape.cells:
                grid[row + r][col + c] = chr(ord("A") + letter)
        assert solve_text(to_file(pieces, rng)) == "".join("".join(line) + "\n" for line in grid)


def test_greedy_refuses_impossible_shape_sets():
    with pytest.raises(ValueError):
        greedy_pieces(5, random.Random(0), [SHAPE_BY_NAME["O"]])  # 5 O's never fit a 5x5 square


def test_easy_files_are_easy_for_plain_backtracking():
    for n in range(1, 27):
        pieces = easy_pieces(n, random.Random(n))
        assert plain_tries(pieces, EASY_BUDGET) is not None


def test_plain_tries_counts_and_gives_up():
    pieces = [SHAPE_BY_NAME["I_horizontal"], SHAPE_BY_NAME["O"]]
    tries = plain_tries(pieces, 10_000)
    assert tries is not None and tries >= len(pieces)
    assert plain_tries(pieces, tries) == tries
    assert plain_tries(pieces, tries - 1) is None
    # 16 random pieces with no spare cell: exhausting the 8x8 square is far over a small budget.
    assert plain_tries(random_pieces(16, random.Random(0)), 1_000) is None


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(1, 14),
       budget=st.one_of(st.integers(0, 200), st.sampled_from([1_000, 10_000, EASY_BUDGET])))
def test_the_compiled_count_of_plain_tries_is_the_python_one(seed, count, budget):
    """Every count and every give-up equal (the suites keep a file by this count); with a
    budget as small as the count itself, the boundary where the search gives up is hit."""
    assert valid._plain_tries_c is not None, "reference._plaincount is not built (pip install -e . needs gcc)"
    pieces = random_pieces(count, random.Random(seed))
    assert plain_tries(pieces, budget) == plain_tries_python(pieces, budget)
    exact = plain_tries_python(pieces, EASY_BUDGET)
    if exact is not None:
        assert plain_tries(pieces, exact) == exact and plain_tries(pieces, exact - 1) is None


# --- the corpora ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def standard(standard_suite):
    return standard_suite


@pytest.mark.slow
def test_standard_corpus_regenerates_identically(standard):
    again = standard_corpus(STANDARD_SEED)
    assert [c.id for c in again] == [c.id for c in standard]
    assert again == standard  # every field, input bytes included
    other = standard_corpus(STANDARD_SEED + 1)
    assert [c.input for c in other] != [c.input for c in standard]


def test_standard_corpus_shape(standard):
    assert len(standard) >= 300
    ids = [case.id for case in standard]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z]+/[A-Za-z0-9_.-]+", case_id) for case_id in ids)
    assert {case.category for case in standard} == {"valid", "invalid", "usage", "errors", "disputed", "large",
                                                     "speed"}
    per_category = Counter(case.id.split("/")[1].rsplit("-", 1)[0] for case in standard
                           if case.category == "invalid")
    for category in STRICT_CATEGORIES:
        assert per_category[category] >= 2, category
    sizes = Counter(len(parse(case.input).pieces) for case in standard if case.category in ("valid", "large"))
    assert all(sizes[n] >= 3 for n in range(1, 27)), sizes
    assert all(case.category == "large" for case in standard
               if case.category in ("valid", "large") and len(parse(case.input).pieces) >= 20)
    assert any(case.runs == 2 for case in standard)


def test_standard_corpus_invocations(standard):
    by_id = {case.id: case for case in standard}
    for case_id, invocation in (("usage/no-args", "no_args"), ("usage/two-args", "two_args"),
                                ("usage/three-args", "three_args")):
        assert by_id[case_id].invocation == invocation and by_id[case_id].expected == USAGE
        assert by_id[case_id].category == "usage"
    for case_id, invocation in (("errors/missing-file", "missing_file"), ("errors/directory", "directory"),
                                ("errors/unreadable", "unreadable"), ("errors/empty-path", "empty_path")):
        assert by_id[case_id].invocation == invocation and by_id[case_id].expected == "error\n"
        assert by_id[case_id].category == "errors"
    assert by_id["usage/no-args"].input is None
    assert parse(by_id["usage/two-args"].input).valid and parse(by_id["usage/three-args"].input).valid
    assert by_id["errors/empty-path"].input is None
    assert parse(by_id["errors/unreadable"].input).valid
    assert by_id["valid/seed-sample"].input == SEED_SAMPLE
    assert by_id["valid/seed-sample"].expected == "DDAA\nCDDA\nCCCA\nBBBB\n"


@pytest.mark.slow
def test_every_expected_output_is_the_reference_output(standard):
    for case in standard:
        if case.invocation != "file":
            continue
        assert case.expected == solve_text(case.input), case.id
        if case.category == "invalid":
            assert case.expected == "error\n" and parse(case.input).rejection.rule == case.rule
        if case.category == "disputed":
            assert case.expected == "error\n"
            assert case.disputed == "trailing_empty_line" and case.rule == "trailing_empty_line"
            assert case.accepted == (solve_text(case.input, accept_disputed=True),)
            assert case.accepted[0] != "error\n"


def test_standard_corpus_is_easy_for_plain_backtracking_but_for_speed(standard):
    speed = [case for case in standard if case.category == "speed"]
    assert 3 <= len(speed) <= 5
    for case in standard:
        parsed = parse(case.input) if case.input is not None else None
        if parsed is not None and parsed.valid_under(accept_disputed=True):
            easy = plain_tries(parsed.pieces, EASY_BUDGET) is not None
            assert easy == (case.category != "speed"), case.id


def test_quick_corpus(standard):
    quick = quick_corpus()
    assert 25 <= len(quick) <= 40
    assert quick == quick_corpus()
    assert {case.rule for case in quick if case.rule} == set(RULES)
    assert {"usage", "errors", "disputed", "valid", "large"} <= {case.category for case in quick}
    sizes = {len(parse(case.input).pieces) for case in quick if case.category in ("valid", "large")}
    assert {1, 26} <= sizes and len(sizes) >= 8
    # A quick case is the standard case of the same id.
    by_id = {case.id: case for case in standard}
    assert all(by_id[case.id] == case for case in quick)


@pytest.mark.slow
def test_full_corpus(standard):
    from generators.corpus import full_corpus, hard_cases, hard_families, large_random_cases

    full = full_corpus()
    assert full[: len(standard)] == standard
    extra = full[len(standard):]
    # Regenerated identically: the standard part is (test_standard_corpus_regenerates_identically,
    # and it is `standard` above); the rest again, alone, every field.
    assert hard_cases(STANDARD_SEED) + large_random_cases(STANDARD_SEED) == extra
    assert len({case.id for case in full}) == len(full)
    randoms = [case for case in extra if "/random-" in case.id]
    assert len(randoms) == 14
    for case in extra:
        parsed = parse(case.input)
        # (the expected square is the reference's, as for every suite case: the reference's own
        # exactness is tests/test_solver*.py's; solving all 81 again here proved nothing more)
        assert parsed.valid and case.expected.endswith("\n"), case.id
        if case in randoms:
            assert 20 <= len(parsed.pieces) <= 26
            # "large" only when plain backtracking is known to be quick; else "hard".
            easy = plain_tries(parsed.pieces, EASY_BUDGET) is not None
            assert case.category == ("large" if easy else "hard"), case.id
    hard_ids = [case.id for case in extra if case not in randoms]
    if hard_families():
        assert hard_ids and all(case_id.startswith("hard/") for case_id in hard_ids)
    else:
        assert hard_ids == []
