"""The graded corpora: quick, standard and full lists of `Case`, deterministic from a seed.

Every case carries its expected output, computed by the reference (`solve_text`).  Each case
draws from its own `random.Random` seeded by (suite seed, case id), so a case's bytes depend
only on the seed and its id: adding or removing a case never changes the others, and the
quick suite's cases are byte-identical to the standard cases of the same id.

The standard corpus is passable by a correct PLAIN backtracking solver (the seed's algorithm)
in well under a second per case: its valid files are greedy-feasible or `easy`
(see generators.valid).  Only the full corpus adds files that need real pruning.
"""
from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path

from generators.cases import USAGE, Case
from generators.invalid import INVALID_CATEGORIES, STRICT_CATEGORIES, invalid_file
from generators.text import to_file
from generators.valid import EASY_BUDGET, MAX_PIECES, plain_tries, valid_pieces
from reference.parser import DISPUTED_TRAILING_EMPTY_LINE, parse
from reference.shapes import Shape
from reference.solver import solve_text

STANDARD_SEED = 20240601

ERROR = "error\n"
LARGE_FROM = 20  # valid files of 20..26 pieces are scored as "large"

# The four-piece example of seeds/000 (SPEC.md "Output"): a known answer in every suite.
SEED_SAMPLE = b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n\n#...\n###.\n....\n....\n\n....\n##..\n.##.\n....\n"

_GREEDY_PER_SIZE = 3
_EASY_PER_SIZE = 2
_INVALID_PER_CATEGORY = 5
# ~1 MiB each: fewer of them keeps the corpus folder small.
_FEWER = {"huge_file": 2}
_DISPUTED_CASES = 3
_LARGE_RANDOM_PER_SIZE = 2
# A few cases are run twice, to catch output that changes from run to run.
_RUN_TWICE = {"valid/easy-06-1", "valid/greedy-13-1", "large/greedy-26-1", "valid/seed-sample"}

# One category per parser rule (and a few classics) for the quick suite.
_QUICK_INVALID = (
    "empty_file", "bad_char_letter", "bad_char_utf8", "crlf", "missing_final_newline",
    "leading_empty_line", "separator_double", "trailing_empty_lines", "separator_missing",
    "line_5_chars", "hash_3", "disconnected_diagonal", "disconnected_line_wrap", "too_many_pieces_27",
)
_QUICK_VALID = ((1, "greedy"), (2, "easy"), (4, "greedy"), (7, "easy"), (10, "greedy"),
                (13, "easy"), (16, "greedy"), (19, "easy"), (22, "greedy"), (26, "greedy"))


def _rng(seed: int, case_id: str) -> random.Random:
    # A str seed is hashed with SHA-512 by `random`: stable across runs and Python versions.
    return random.Random(f"{seed}:{case_id}")


def _group(n: int) -> str:
    return "large" if n >= LARGE_FROM else "valid"


# --- one builder per kind of case -------------------------------------------------------------

def valid_case(seed: int, n: int, family: str, index: int) -> Case:
    """Valid file number `index` of `n` pieces from `family` (see generators.valid)."""
    case_id = f"{_group(n)}/{family}-{n:02d}-{index}"
    rng = _rng(seed, case_id)
    pieces = valid_pieces(n, rng, family)
    return _solved_case(case_id, _group(n), to_file(pieces, rng), f"{n} pieces, {family} family")


def _solved_case(case_id: str, category: str, data: bytes, description: str) -> Case:
    return Case(id=case_id, category=category, input=data, expected=solve_text(data),
                description=description, runs=2 if case_id in _RUN_TWICE else 1)


def invalid_case(seed: int, category: str, index: int) -> Case:
    spec = INVALID_CATEGORIES[category]
    if spec.disputed:
        return disputed_case(seed, index)
    case_id = f"invalid/{category}-{index}"
    data = invalid_file(category, f"{seed}:{case_id}")
    return Case(id=case_id, category="invalid", input=data, expected=ERROR, rule=spec.rule,
                description=spec.description)


def disputed_case(seed: int, index: int) -> Case:
    """A single empty line after the last block: error for 42, the square for the seed."""
    case_id = f"disputed/trailing_empty_line-{index}"
    data = invalid_file("trailing_empty_line_single", f"{seed}:{case_id}")
    return Case(id=case_id, category="disputed", input=data, expected=solve_text(data),
                accepted=(solve_text(data, accept_disputed=True),),
                disputed=DISPUTED_TRAILING_EMPTY_LINE, rule="trailing_empty_line",
                description=INVALID_CATEGORIES["trailing_empty_line_single"].description)


def invocation_cases(seed: int) -> list[Case]:
    """Wrong argument counts and unusable files."""
    small = to_file(valid_pieces(4, _rng(seed, "invocations"), "greedy"), _rng(seed, "invocations"))
    return [
        Case("usage/no-args", "usage", None, USAGE, invocation="no_args",
             description="no argument: a usage line"),
        Case("usage/two-args", "usage", small, USAGE, invocation="two_args",
             description="two arguments: a usage line"),
        Case("errors/missing-file", "errors", None, ERROR, invocation="missing_file",
             description="the file does not exist"),
        Case("errors/directory", "errors", None, ERROR, invocation="directory",
             description="the argument is a directory"),
        Case("errors/unreadable", "errors", small, ERROR, invocation="unreadable",
             description="the file exists but cannot be read (mode 000)"),
    ]


def seed_sample_case() -> Case:
    return _solved_case("valid/seed-sample", "valid", SEED_SAMPLE, "the 4-piece example of the subject")


def hard_cases(seed: int) -> list[Case]:
    """The hard families of generators.hard (none while that module does not exist)."""
    hard = _hard_module()
    if hard is None:
        return []
    cases = []
    seen: set[str] = set()
    for name, pieces in hard.hard_corpus(seed):
        case_id = _unique(f"hard/{name}", seen)
        data = to_file(pieces, _rng(seed, case_id))
        cases.append(_solved_case(case_id, "hard", data, f"{len(pieces)} pieces, hard family"))
    return cases


def large_random_cases(seed: int) -> list[Case]:
    """Uniform random files of 20..26 pieces: "large" when easy for plain backtracking,
    "hard" otherwise (it may take a plain solver minutes)."""
    cases = []
    for n in range(LARGE_FROM, MAX_PIECES + 1):
        for index in range(1, _LARGE_RANDOM_PER_SIZE + 1):
            rng = _rng(seed, f"random-{n:02d}-{index}")
            pieces = valid_pieces(n, rng, "random")
            category = "large" if plain_tries(pieces, EASY_BUDGET) is not None else "hard"
            cases.append(_solved_case(f"{category}/random-{n:02d}-{index}", category,
                                      to_file(pieces, rng), f"{n} pieces, uniform random"))
    return cases


def _hard_module():  # -> module | None
    try:
        return importlib.import_module("generators.hard")
    except ModuleNotFoundError as error:
        if error.name != "generators.hard":
            raise
        return None


def hard_families() -> dict[str, tuple[str, Callable[[random.Random], list[Shape]]]]:
    """name -> (description, builder) from generators.hard; empty while it does not exist."""
    hard = _hard_module()
    return dict(hard.HARD_FAMILIES) if hard is not None else {}


def _unique(case_id: str, seen: set[str]) -> str:
    candidate, k = case_id, 2
    while candidate in seen:
        candidate, k = f"{case_id}-{k}", k + 1
    seen.add(candidate)
    return candidate


# --- the suites -------------------------------------------------------------------------------

def standard_corpus(seed: int = STANDARD_SEED) -> list[Case]:
    """Every invalid category (several seeds each), valid files of every size 1..26 (greedy
    and easy), the disputed case, usage and error invocations."""
    cases = invocation_cases(seed) + [seed_sample_case()]
    for n in range(1, MAX_PIECES + 1):
        cases += [valid_case(seed, n, "greedy", i) for i in range(1, _GREEDY_PER_SIZE + 1)]
        cases += [valid_case(seed, n, "easy", i) for i in range(1, _EASY_PER_SIZE + 1)]
    for category in STRICT_CATEGORIES:
        count = _FEWER.get(category, _INVALID_PER_CATEGORY)
        cases += [invalid_case(seed, category, i) for i in range(1, count + 1)]
    cases += [disputed_case(seed, i) for i in range(1, _DISPUTED_CASES + 1)]
    return _checked(cases)


def quick_corpus(seed: int = STANDARD_SEED) -> list[Case]:
    """About 30 cases: every parser rule, sizes 1..26 sampled, usage, errors, the disputed case."""
    cases = invocation_cases(seed) + [seed_sample_case()]
    cases += [valid_case(seed, n, family, 1) for n, family in _QUICK_VALID]
    cases += [invalid_case(seed, category, 1) for category in _QUICK_INVALID]
    cases.append(disputed_case(seed, 1))
    return _checked(cases)


def full_corpus(seed: int = STANDARD_SEED) -> list[Case]:
    """The standard corpus, the hard families and uniform random large files.

    Unlike the standard corpus, this one needs a solver with real pruning for some cases."""
    return _checked(standard_corpus(seed) + hard_cases(seed) + large_random_cases(seed))


def _checked(cases: Iterable[Case]) -> list[Case]:
    """Guard the corpus' own promises: unique ids, invalid inputs rejected for their rule."""
    out = list(cases)
    ids = [case.id for case in out]
    if len(ids) != len(set(ids)):
        raise AssertionError("duplicate case ids in corpus")
    for case in out:
        if case.rule is not None and case.input is not None:
            rejection = parse(case.input).rejection
            if rejection is None or rejection.rule != case.rule:
                raise AssertionError(f"{case.id}: not rejected for {case.rule}: {rejection}")
    return out


def case_filename(case_id: str) -> str:
    """File stem of a case in a corpus folder: its id with '/' replaced."""
    return case_id.replace("/", "__")


def write_corpus(cases: Iterable[Case], directory: Path, suite: str, seed: int) -> Path:
    """Each case's input as <stem>.fillit, its expected output as <stem>.expected, and a
    manifest.json describing them all; returns the manifest path.  Same cases, same bytes."""

    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for case in cases:
        stem = case_filename(case.id)
        input_name = None
        if case.input is not None:
            input_name = f"{stem}.fillit"
            (directory / input_name).write_bytes(case.input)
        expected_name = f"{stem}.expected"
        (directory / expected_name).write_bytes(case.expected.encode())
        entries.append({
            "id": case.id,
            "category": case.category,
            "invocation": case.invocation,
            "input": input_name,
            "expected": expected_name,
            "accepted": list(case.accepted),
            "rule": case.rule,
            "disputed": case.disputed,
            "runs": case.runs,
            "description": case.description,
        })
    manifest = directory / "manifest.json"
    text = json.dumps({"suite": suite, "seed": seed, "count": len(entries), "cases": entries},
                      indent=1, ensure_ascii=False)
    manifest.write_text(text + "\n", encoding="utf-8")
    return manifest
