"""`fillit-gen`: write fillit input files, or a whole corpus into a folder.

    fillit-gen [--pieces N] [--seed N] [--shapes NAME,...] [--family F] [-o PATH]   one valid file
    fillit-gen --invalid CATEGORY [--seed N] [-o PATH]                              one invalid file
    fillit-gen --hard FAMILY [--seed N] [-o PATH]                                   one hard file
    fillit-gen --list                                       every category and family, one a line
    fillit-gen corpus DIR [--suite quick|standard|full] [--seed N]
    fillit-gen case CASE_ID [--suite NAME] [--seed N] [-o PATH]     the input file of one graded case
    fillit-gen --exercise NAME corpus|case ...     the same for another exercise (grade --list-exercises)
    fillit-gen --version

Same arguments, same bytes.  A bad option prints one line on stderr and exits with 2.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import click

from generators.corpus import hard_families, write_corpus
from generators.invalid import INVALID_CATEGORIES, invalid_file
from generators.text import to_file
from generators.valid import MAX_PIECES, VALID_FAMILIES, parse_shapes, valid_pieces
from harness.grading.exercise import DEFAULT_EXERCISE, Exercise, UnknownExercise, exercise_named
from reference.shapes import SHAPES
from reference.version import PACKAGE, VERSION_MESSAGE

SUITE_NAMES = ("quick", "standard", "full")  # every exercise's (a test checks it)
EXIT_BAD_USAGE = 2


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name=PACKAGE, prog_name="fillit-gen", message=VERSION_MESSAGE)
@click.option("--pieces", type=click.IntRange(1, MAX_PIECES), default=None,
              help=f"number of pieces, 1..{MAX_PIECES} (default: drawn from the seed)")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the random draws")
@click.option("--shapes", default=None, metavar="NAME,...", help="draw only these shapes (see --list)")
@click.option("--family", type=click.Choice(list(VALID_FAMILIES)), default="random", show_default=True,
              help="valid family (see --list)")
@click.option("--invalid", "invalid", default=None, metavar="CATEGORY", help="write an invalid file")
@click.option("--hard", default=None, metavar="FAMILY", help="write a file of a hard family")
@click.option("--list", "list_", is_flag=True, help="name every invalid category, hard and valid family")
@click.option("--exercise", default=DEFAULT_EXERCISE, show_default=True, metavar="NAME",
              help="the exercise of `corpus` and `case` (grade --list-exercises); one file of a kind is fillit's")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="write here instead of stdout")
@click.pass_context
def cli(ctx: click.Context, pieces: int | None, seed: int, shapes: str | None, family: str,
        invalid: str | None, hard: str | None, list_: bool, exercise: str, output: Path | None) -> None:
    """Write fillit input files: valid, invalid or hard, reproducible from --seed."""
    given = _given_options(ctx)
    if ctx.invoked_subcommand is not None:
        shared = {"--seed", "--exercise"}
        if given - shared:
            raise click.UsageError(
                f"{', '.join(sorted(given - shared))} cannot be used with '{ctx.invoked_subcommand}'")
        try:
            chosen = exercise_named(exercise)
        except UnknownExercise as unknown:
            raise click.BadParameter(str(unknown), param_hint="'--exercise'") from None
        # `fillit-gen --seed N corpus DIR` means the same as `fillit-gen corpus DIR --seed N`.
        ctx.obj = {"exercise": chosen, **({"seed": seed} if "--seed" in given else {})}
        return
    if exercise != DEFAULT_EXERCISE:
        raise click.UsageError(f"--exercise {exercise}: only the corpus and case commands take it "
                               "(fillit-gen --exercise NAME corpus DIR)")
    if list_:
        _refuse_with("--list", given - {"--list"})
        _print_list()
        return
    if invalid is not None:
        _refuse_with("--invalid", given & {"--pieces", "--shapes", "--family", "--hard"})
        if invalid not in INVALID_CATEGORIES:
            raise click.BadParameter(f"unknown category {invalid!r} (see fillit-gen --list)",
                                     param_hint="'--invalid'")
        data = invalid_file(invalid, seed)
    elif hard is not None:
        _refuse_with("--hard", given & {"--pieces", "--shapes", "--family"})
        data = _hard_file(hard, seed)
    else:
        data = _valid_file(pieces, seed, shapes, family)
    _write(data, output)


def _exercise_and_seed(obj: dict | None, seed: int | None) -> tuple[Exercise, int]:
    """The group's --exercise, and --seed as given here, or to the group, or the suites' fixed one."""
    exercise: Exercise = (obj or {}).get("exercise") or exercise_named()
    return exercise, exercise.suite_seed(seed if seed is not None else (obj or {}).get("seed"))


@cli.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--suite", type=click.Choice(SUITE_NAMES), default="standard", show_default=True)
@click.option("--seed", type=int, default=None, help="seed of the suite  [default: the exercise's fixed seed]")
@click.pass_obj
def corpus(obj: dict | None, directory: Path, suite: str, seed: int | None) -> None:
    """Write every case of a suite into DIRECTORY: <id>.fillit, <id>.expected, manifest.json."""
    exercise, seed = _exercise_and_seed(obj, seed)
    cases = exercise.suite(suite, seed)
    manifest = write_corpus(cases, directory, suite, seed, exercise.input_suffix)
    click.echo(f"wrote {len(cases)} cases ({exercise.name} {suite}, seed {seed}) to {manifest}")


@cli.command("case")
@click.argument("case_id")
@click.option("--suite", type=click.Choice(SUITE_NAMES), default=None,
              help="the suite holding the case  [default: the first of quick, standard, full that has it]")
@click.option("--seed", type=int, default=None, help="seed of the suite  [default: the exercise's fixed seed]")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="write here instead of stdout")
@click.pass_obj
def case_command(obj: dict | None, case_id: str, suite: str | None, seed: int | None, output: Path | None) -> None:
    """Write the input file of the case CASE_ID (an id as `grade` prints it, e.g. valid/easy-07-1)."""
    exercise, seed = _exercise_and_seed(obj, seed)
    if case_id.startswith("own/"):
        raise click.UsageError(f"{case_id} is one of your own files (grade --cases DIR): it is in DIR already")
    # quick's cases are standard's, and standard's are full's: look in the cheapest suite first.
    for name in [suite] if suite is not None else SUITE_NAMES:
        found = next((case for case in exercise.suite(name, seed) if case.id == case_id), None)
        if found is not None:
            break
    else:
        where = f"suite {suite}" if suite is not None else "any suite"
        raise click.UsageError(f"no case {case_id!r} in {where} with seed {seed} "
                               "(grade --suite NAME --collect-only lists them)")
    if found.input is None:
        raise click.UsageError(f"case {case_id} runs without an input file ({found.invocation.replace('_', ' ')})")
    _write(found.input, output)


def _given_options(ctx: click.Context) -> set[str]:
    """The group options set on the command line (not defaults)."""
    names = {"pieces": "--pieces", "seed": "--seed", "shapes": "--shapes", "family": "--family",
             "invalid": "--invalid", "hard": "--hard", "list_": "--list", "exercise": "--exercise", "output": "-o"}
    return {flag for name, flag in names.items()
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE}


def _refuse_with(option: str, others: set[str]) -> None:
    if others:
        raise click.UsageError(f"{option} cannot be combined with {', '.join(sorted(others))}")


def _valid_file(pieces: int | None, seed: int, shapes: str | None, family: str) -> bytes:
    rng = random.Random(seed)
    try:
        chosen = parse_shapes(shapes) if shapes is not None else list(SHAPES)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--shapes'") from None
    count = pieces if pieces is not None else rng.randint(1, MAX_PIECES)
    try:
        return to_file(valid_pieces(count, rng, family, chosen), rng)
    except ValueError as error:  # e.g. no greedy-feasible file with these shapes
        raise click.UsageError(str(error)) from None


def _hard_file(family: str, seed: int) -> bytes:
    families = hard_families()
    if family not in families:
        known = ", ".join(families) or "none available"
        raise click.BadParameter(f"unknown hard family {family!r} (known: {known})", param_hint="'--hard'")
    rng = random.Random(seed)
    return to_file(families[family][1](rng), rng)


def _print_list() -> None:
    rows = []
    for category in INVALID_CATEGORIES.values():
        kind = "disputed" if category.disputed else "invalid"
        rows.append((kind, category.name, f"{category.description} [rule: {category.rule}]"))
    for name, (description, _) in hard_families().items():
        rows.append(("hard", name, description))
    for name, (description, _) in VALID_FAMILIES.items():
        rows.append(("valid", name, description))
    width = max(len(name) for _, name, _ in rows)
    for kind, name, description in rows:
        click.echo(f"{kind:<8}  {name:<{width}}  {description}")


def _write(data: bytes, output: Path | None) -> None:
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        output.write_bytes(data)


def _fail(message: str) -> int:
    click.echo(f"fillit-gen: {' '.join(message.split())}", err=True)
    return EXIT_BAD_USAGE


def main(argv: list[str] | None = None) -> int:
    try:
        code = cli.main(args=argv, prog_name="fillit-gen", standalone_mode=False)
    except click.ClickException as error:
        return _fail(error.format_message())
    except click.exceptions.Abort:
        return _fail("aborted")
    except BrokenPipeError:
        # The reader went away (fillit-gen | head): nothing to report, and keep Python's
        # final flush of stdout from complaining.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:  # unwritable -o PATH or corpus folder
        where = f" {error.filename}" if error.filename else ""
        return _fail(f"cannot write{where}: {error.strerror or error}")
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    raise SystemExit(main())
