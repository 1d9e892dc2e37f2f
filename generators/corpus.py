"""The graded corpora: quick, standard and full lists of `Case`, deterministic from a seed.

Every case carries its expected output, computed by the reference (`solve_text`).  Each case
draws from its own `random.Random` seeded by (suite seed, case id), so a case's bytes depend
only on the seed and its id: adding or removing a case never changes the others, and the
quick suite's cases are byte-identical to the standard cases of the same id.

Every valid file of the standard corpus is answered by a correct PLAIN backtracking solver
(the seed's algorithm) in well under a second: greedy-feasible, `easy` (generators.valid) or
aimed at one bug (generators.targeted).  The exception is its "speed" category: a few files
plain search cannot answer within the moulinette's timeout (generators.speed), scored apart.
The full corpus adds files that need real pruning.
"""
from __future__ import annotations

import importlib
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from generators.cases import SPEED, USAGE, Case, Category
from generators.invalid import INVALID_CATEGORIES, STRICT_CATEGORIES, invalid_file
from generators.speed import SPEED_FILES, speed_pieces
from generators.targeted import above_bound_files, alone, identical_mix, identical_run, whole_identical_run
from generators.text import to_file, to_file_at
from generators.valid import EASY_BUDGET, MAX_PIECES, plain_tries, valid_pieces
from reference.parser import DISPUTED_TRAILING_EMPTY_LINE, parse
from reference.shapes import SHAPES, Shape
from reference.solver import solve_text

STANDARD_SEED = 20240601

ERROR = "error\n"
LARGE_FROM = 20  # valid files of 20..26 pieces are scored as "large"

# The four-piece example of seeds/000 (SPEC.md "Output"): a known answer in every suite.
SEED_SAMPLE = b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n\n#...\n###.\n....\n....\n\n....\n##..\n.##.\n....\n"

_GREEDY_PER_SIZE = 3
_EASY_PER_SIZE = 2
_INVALID_PER_CATEGORY = 4
# ~1 MiB each: fewer of them keeps the corpus folder small.
_FEWER = {"huge_file": 2}
_DISPUTED_CASES = 3
_LARGE_RANDOM_PER_SIZE = 2
_IDENTICAL_RUNS = 6  # 9-12 copies of one shape among others
_WHOLE_IDENTICAL_RUNS = 2  # one shape only, 13-25 copies
_IDENTICAL_MIXES = 6
# A few cases are run twice, to catch output that changes from run to run.
_RUN_TWICE = {"valid/easy-06-1", "valid/greedy-13-1", "large/greedy-26-1", "valid/seed-sample"}

# One category per parser rule (and a few classics) for the quick suite.
_QUICK_INVALID = (
    "empty_file", "bad_char_letter", "bad_hash_letter", "bad_char_utf8", "crlf", "missing_final_newline",
    "leading_empty_line", "separator_double", "trailing_empty_lines", "separator_missing",
    "line_5_chars", "hash_3", "disconnected_diagonal", "disconnected_line_wrap", "too_many_pieces_27",
)
# One identical mix, for the identical-piece bugs that only show after a backtrack.
_QUICK_IDENTICAL = ("identical-mix", 3)
_QUICK_VALID = ((1, "greedy"), (2, "easy"), (4, "greedy"), (7, "easy"), (10, "greedy"),
                (13, "easy"), (16, "greedy"), (19, "easy"), (22, "greedy"), (26, "greedy"))


def _rng(seed: int, case_id: str) -> random.Random:
    # A str seed is hashed with SHA-512 by `random`: stable across runs and Python versions.
    return random.Random(f"{seed}:{case_id}")


def _group(n: int) -> Category:
    return "large" if n >= LARGE_FROM else "valid"


# --- one builder per kind of case -------------------------------------------------------------

def valid_case(seed: int, n: int, family: str, index: int) -> Case:
    """Valid file number `index` of `n` pieces from `family` (see generators.valid)."""
    case_id = f"{_group(n)}/{family}-{n:02d}-{index}"
    rng = _rng(seed, case_id)
    pieces = valid_pieces(n, rng, family)
    return _solved_case(case_id, _group(n), to_file(pieces, rng), f"{n} pieces, {family} family")


def _solved_case(case_id: str, category: Category, data: bytes, description: str) -> Case:
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
        Case("usage/three-args", "usage", small, USAGE, invocation="three_args",
             description="three arguments: a usage line"),
        Case("errors/missing-file", "errors", None, ERROR, invocation="missing_file",
             description="the file does not exist"),
        Case("errors/empty-path", "errors", None, ERROR, invocation="empty_path",
             description="one argument, the empty string (fillit \"\"): no such file"),
        Case("errors/directory", "errors", None, ERROR, invocation="directory",
             description="the argument is a directory"),
        Case("errors/unreadable", "errors", small, ERROR, invocation="unreadable",
             description="the file exists but cannot be read (mode 000)"),
    ]


def seed_sample_case() -> Case:
    return _solved_case("valid/seed-sample", "valid", SEED_SAMPLE, "the 4-piece example of the subject")


def alone_cases(seed: int) -> list[Case]:
    """Each of the 19 shapes alone, pushed into the bottom-right corner of its block."""
    return [_solved_case(f"valid/alone-{shape.name}", "valid", to_file_at(alone(shape)),
                         f"{shape.name} alone, in the bottom-right corner of its block")
            for shape in SHAPES]


def above_bound_cases(seed: int) -> list[Case]:
    """The files whose square is ceil(sqrt(4n)) + 2 or more (one or two I pieces)."""
    cases = []
    for pieces in above_bound_files():
        case_id = f"valid/above-bound-{'-'.join(shape.name for shape in pieces)}"
        cases.append(_solved_case(case_id, "valid", to_file(pieces, _rng(seed, case_id)),
                                  f"{len(pieces)} I piece(s): the square is 2 sides above ceil(sqrt(4n))"))
    return cases


# family -> (files in the standard corpus, builder): generators.targeted
_IDENTICAL_FAMILIES: dict[str, tuple[int, Callable[[random.Random], list[Shape]]]] = {
    "identical-run": (_IDENTICAL_RUNS, identical_run),
    "identical-whole": (_WHOLE_IDENTICAL_RUNS, whole_identical_run),
    "identical-mix": (_IDENTICAL_MIXES, identical_mix),
}


def identical_case(seed: int, family: str, index: int) -> Case:
    """File `index` of an identical-pieces family; its id's group depends on the piece
    count, so the random draws are keyed by the family and index only."""
    rng = _rng(seed, f"{family}-{index}")
    pieces = _IDENTICAL_FAMILIES[family][1](rng)
    group = _group(len(pieces))
    return _solved_case(f"{group}/{family}-{index}", group, to_file(pieces, rng), _repeats(pieces))


def identical_cases(seed: int) -> list[Case]:
    """Runs of 9 to 25 identical pieces (greedy-feasible) and mixes of 4 to 12 copies of
    several shapes that make plain search backtrack."""
    return [identical_case(seed, family, index)
            for family, (count, _) in _IDENTICAL_FAMILIES.items() for index in range(1, count + 1)]


def _repeats(pieces: Sequence[Shape]) -> str:
    """"13 pieces: 7 T_up, 4 O and 2 others": the shapes that come 4 times or more."""
    counts = Counter(pieces)
    repeated = [f"{counts[shape]} {shape.name}" for shape in sorted(counts, key=lambda s: -counts[s])
                if counts[shape] >= 4]
    others = sum(count for count in counts.values() if count < 4)
    tail = f" and {others} other{'s' if others > 1 else ''}" if others else ""
    return f"{len(pieces)} pieces: {', '.join(repeated)}{tail}"


def speed_cases(seed: int) -> list[Case]:
    """The speed files (generators.speed): plain backtracking is far too slow for them."""
    cases = []
    for name, (description, _) in SPEED_FILES.items():
        case_id = f"speed/{name}"
        data = to_file(speed_pieces(name), _rng(seed, case_id))
        cases.append(_solved_case(case_id, SPEED, data, f"{description}; a TIMEOUT here means correct, "
                                  "but too slow for the moulinette's timeout"))
    return cases


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
            category: Category = "large" if plain_tries(pieces, EASY_BUDGET) is not None else "hard"
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
    and easy), every shape alone, squares above the bound, identical pieces, the speed files,
    the disputed case, usage and error invocations."""
    cases = invocation_cases(seed) + [seed_sample_case()]
    for n in range(1, MAX_PIECES + 1):
        cases += [valid_case(seed, n, "greedy", i) for i in range(1, _GREEDY_PER_SIZE + 1)]
        cases += [valid_case(seed, n, "easy", i) for i in range(1, _EASY_PER_SIZE + 1)]
    cases += alone_cases(seed) + above_bound_cases(seed) + identical_cases(seed) + speed_cases(seed)
    for category in STRICT_CATEGORIES:
        count = _FEWER.get(category, _INVALID_PER_CATEGORY)
        cases += [invalid_case(seed, category, i) for i in range(1, count + 1)]
    cases += [disputed_case(seed, i) for i in range(1, _DISPUTED_CASES + 1)]
    return _checked(cases)


def quick_corpus(seed: int = STANDARD_SEED) -> list[Case]:
    """About 30 cases: every parser rule, sizes 1..26 sampled, usage, errors, the disputed case."""
    cases = invocation_cases(seed) + [seed_sample_case()]
    cases += [valid_case(seed, n, family, 1) for n, family in _QUICK_VALID]
    cases += [case for case in alone_cases(seed) if case.id == "valid/alone-I_vertical"]
    cases.append(identical_case(seed, *_QUICK_IDENTICAL))
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


def write_corpus(cases: Iterable[Case], directory: Path, suite: str, seed: int, input_suffix: str = ".fillit") -> Path:
    """Each case's input as <stem><input_suffix> (.fillit), its expected output as
    <stem>.expected, and a manifest.json describing them all; returns the manifest path.
    Same cases, same bytes."""

    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for case in cases:
        stem = case_filename(case.id)
        input_name = None
        if case.input is not None:
            input_name = f"{stem}{input_suffix}"
            (directory / input_name).write_bytes(case.input)
        expected_name = f"{stem}.expected"
        (directory / expected_name).write_bytes(str(case.expected).encode())
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
