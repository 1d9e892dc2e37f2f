"""The hard families (generators/hard.py), and the two fast engines agreeing on them."""
from __future__ import annotations

import math

import pytest

from generators.hard import (HARD_FAMILIES, RANDOM_FAMILIES, RESTRICTED_FILES, RESTRICTED_SLOWEST, build, decode,
                            encode, hard_corpus)
from generators.text import to_file
from reference.parser import parse
from reference.plain import min_side
from reference.shapes import SHAPES
from reference.solver import available_engines, solve

CORPUS = dict(hard_corpus(0))

# Files of hard_corpus(0) the pure-Python engine solves in well under a second here (its
# worst ones -- one random_20, one zero_spare of 25 pieces -- take minutes in Python).
PYTHON_FRIENDLY = [
    name for name in CORPUS
    if name.split("-")[0] in ("random_16", "dense_26", "larger_than_bound", "ivert23")
    or name.startswith("o13_ivert13")
    or (name.startswith("identical_") and name.split("_")[-1] not in ("0", "180"))
]


def test_every_shape_has_an_identical_family():
    assert {f"identical_{s.name}" for s in SHAPES} <= set(HARD_FAMILIES)


@pytest.mark.parametrize("family", sorted(HARD_FAMILIES))
def test_families_build_valid_reproducible_files(family):
    pieces = build(family, 7)
    assert 1 <= len(pieces) <= 26
    assert build(family, 7) == pieces
    parsed = parse(to_file(pieces))
    assert parsed.valid and list(parsed.pieces) == pieces


def test_random_families_vary_with_the_seed():
    assert len({tuple(build("random_20", seed)) for seed in range(5)}) == 5


def test_corpus_is_deterministic_and_named_uniquely():
    corpus = hard_corpus(3)
    assert corpus == hard_corpus(3)
    assert len({name for name, _ in corpus}) == len(corpus)
    assert sum(name.startswith("random_24") for name, _ in corpus) == 3
    assert RANDOM_FAMILIES and set(RANDOM_FAMILIES) <= set(HARD_FAMILIES)


@pytest.mark.parametrize("seed", range(4))
def test_zero_spare_fills_its_bound_square_exactly(seed):
    pieces = build("zero_spare", seed)
    assert math.isqrt(4 * len(pieces)) ** 2 == 4 * len(pieces)


@pytest.mark.parametrize("seed", range(4))
def test_larger_than_bound_is_larger_than_the_bound(seed):
    pieces = build("larger_than_bound", seed)
    assert solve(pieces).side > min_side(len(pieces))


@pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")
@pytest.mark.parametrize("name", PYTHON_FRIENDLY)
def test_c_engine_equals_python_engine(name):
    pieces = CORPUS[name]
    assert solve(pieces, engine="c") == solve(pieces, engine="python")


def test_restricted_files_are_few_shape_files_of_20_to_26_pieces():
    for name, code in {**RESTRICTED_FILES, **RESTRICTED_SLOWEST}.items():
        pieces = decode(code)
        assert encode(pieces) == code
        assert 20 <= len(pieces) <= 26 and len(set(pieces)) <= (4 if name in RESTRICTED_FILES else 8), name
        assert (name in HARD_FAMILIES) == (name in RESTRICTED_FILES)


@pytest.mark.parametrize("seed", range(4))
def test_restricted_skew_draws_s_and_z_only(seed):
    pieces = build("restricted_skew", seed)
    assert 20 <= len(pieces) <= 26 and {p.name[0] for p in pieces} <= {"S", "Z"}
