"""Hypothesis strategies produce what they claim, and shrink to simple examples."""
from __future__ import annotations

from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from generators.invalid import INVALID_CATEGORIES
from generators.strategies import invalid_files, pieces, valid_files
from reference.parser import parse
from reference.shapes import SHAPES, Shape

# Parsing a ~1 MiB huge_file example takes a while on a loaded machine: no deadline.
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(pieces())
def test_pieces_are_lists_of_shapes(drawn):
    assert 1 <= len(drawn) <= 26
    assert all(isinstance(shape, Shape) and shape in SHAPES for shape in drawn)


@FAST
@given(st.data())
def test_valid_files_parse_valid_within_bounds(data):
    low = data.draw(st.integers(1, 26))
    high = data.draw(st.integers(low, 26))
    drawn = data.draw(valid_files(low, high))
    parsed = parse(drawn)
    assert parsed.valid, parsed.rejection
    assert low <= len(parsed.pieces) <= high


@FAST
@given(invalid_files())
def test_invalid_files_rejected_for_their_category_rule(drawn):
    category, data = drawn
    parsed = parse(data)
    assert parsed.rejection is not None
    assert parsed.rejection.rule == INVALID_CATEGORIES[category].rule
    assert not parsed.disputed


@FAST
@given(invalid_files("disconnected_line_wrap"))
def test_invalid_files_of_one_category(data):
    assert parse(data).rejection.rule == "connectivity"


@FAST
@given(invalid_files("trailing_empty_line_single"))
def test_disputed_files(data):
    assert parse(data).disputed == ("trailing_empty_line",)


def test_valid_files_shrink_to_few_simple_pieces():
    smallest = find(valid_files(), lambda data: len(parse(data).pieces) >= 3,
                    settings=settings(database=None, max_examples=500))
    # Three pieces of the first shape (I_vertical), each at offset (0, 0).
    assert smallest == b"\n".join([b"#...\n#...\n#...\n#...\n"] * 3)


def test_invalid_files_shrink_to_one_block():
    smallest = find(invalid_files("hash_3"), lambda data: True, settings=settings(database=None))
    assert parse(smallest).rejection.block == 1
    assert smallest.count(b"\n\n") == 0  # a single block: nothing else left to confuse
