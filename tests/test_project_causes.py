"""Project checks name the real cause (issue 12): flags beyond -Wall -Wextra -Werror named,
sub-makes inspected, forbidden functions attributed to the source or to the compiler, a
failed build's first real error line, committed build products listed in the reports.
Real repositories, built with gcc and make in the jail (helpers: test_project)."""
from __future__ import annotations

import contextlib
import json

import jsonschema
import pytest

from harness.grading.model import GradeReport
from harness.limits import Limits
from harness.project import build_repository, project_checks
from harness.project.checks import flags
from harness.project.checks.common import CheckContext
from reports import html as html_report
from reports import json_report
from reports.terminal import plain_lines
from test_project import (GOOD_MAIN, GOOD_MAKEFILE, GOOD_UTIL, HEADER, PRINTF_UTIL, SAMPLE, Repos,
                          write_repo)
from test_reports import SCHEMA

# ----------------------------------------------------------------- -O3: the flags and the strlen gcc inserts

O3_MAKEFILE = GOOD_MAKEFILE.replace("CFLAGS = -Wall -Wextra -Werror",
                                    "CFLAGS = -Wall -Wextra -Werror -O3 -march=native -pipe -flto")


@pytest.fixture(scope="module")
def optimised(tmp_path_factory):
    """printf called in util.c; ft_putstr's byte-counting loop, which gcc turns into strlen."""
    with contextlib.ExitStack() as stack:
        yield Repos(tmp_path_factory.mktemp("o3"), stack).build_and_check(makefile=O3_MAKEFILE, util=PRINTF_UTIL)


def test_optimisation_flags_are_named(optimised):
    build, checks = optimised
    assert build.ok, build.message
    check = checks["flags"]
    assert check.status == "fail"
    assert "flag(s) the subject does not allow: -O3 -march=native -flto in 2 of 2 compile command(s)" in check.message
    assert "-pipe" not in check.message.split(" in ")[0]  # neutral: it changes nothing in the output
    assert "only -Wall -Wextra -Werror are allowed" in check.message


def test_forbidden_functions_called_or_inserted_by_the_compiler(optimised):
    _, checks = optimised
    check = checks["forbidden_functions"]
    assert check.status == "fail"
    assert check.message == ("forbidden function(s): printf (called in util.c); "
                             "strlen (not in your sources: inserted by the compiler because of -O3)")


# ----------------------------------------------------------------- sub-makes

ROOT_LINKS_ONLY = """\
NAME = fillit

all: $(NAME)

$(NAME):
\tmake -C src
\t$(MAKE) -s -C extra
\tgcc -o $(NAME) src/main.o src/util.o extra/libextra.a

clean:
\tmake -C src clean
\t$(MAKE) -C extra clean

fclean: clean
\trm -f $(NAME)

re: fclean all

.PHONY: all clean fclean re
"""
SRC_MAKEFILE = """\
CFLAGS = -g

all: main.o util.o

clean:
\trm -f main.o util.o
"""
EXTRA_MAKEFILE = """\
CFLAGS = -Wall -Wextra -Werror -O2

libextra.a: nothing.o
\tar rcs libextra.a nothing.o

clean:
\trm -f nothing.o libextra.a
"""
NOTHING = "int\tft_nothing(void)\n{\n\treturn (0);\n}\n"


def test_sub_makes_are_inspected_plain_and_recursive(repos):
    """The root compiles nothing: `make -C src` (plain: not run by make -n) compiles with
    CFLAGS = -g, `$(MAKE) -s -C extra` (recursive, run by make -n, silent: no "Entering
    directory" line says where its commands run) with -O2. Both are named, each command
    counted once, not "no compiler command"."""
    build, ws = repos.build(makefile=ROOT_LINKS_ONLY, extra={
        "src/Makefile": SRC_MAKEFILE, "src/main.c": GOOD_MAIN, "src/util.c": GOOD_UTIL, "src/fillit.h": HEADER,
        "extra/Makefile": EXTRA_MAKEFILE, "extra/nothing.c": NOTHING})
    assert build.ok, build.message + build.log
    check = flags.check(CheckContext(build, ws, (), 60))
    assert check.status == "fail", check
    assert "no compiler command" not in check.message
    assert ("missing -Wall -Wextra -Werror in 2 of 3 compile command(s) (sub-make src/: `cc -g -c -o main.o main.c`)"
            in check.message), check.message
    assert "the subject does not allow: -O2 in 1 of 3 compile command(s) (sub-make extra/:" in check.message


def test_a_sub_make_outside_the_repository_is_never_listed(repos, tmp_path):
    makefile = GOOD_MAKEFILE.replace("$(NAME): $(OBJS)\n", "$(NAME): $(OBJS)\n\tmake -C missing\n\tmake -C link\n"
                                     "\tmake -C /etc\n\tmake -C ../..\n")
    repo = write_repo(tmp_path / "src", makefile=makefile)
    (repo / "link").symlink_to("/")
    ws = repos.workspace()
    build = build_repository(repo, ws)
    assert not build.ok  # `make -C missing` fails; the copy is there to read
    check = flags.check(CheckContext(build, ws, (), 60))
    assert check.status == "pass", check
    assert check.message == ("-Wall -Wextra -Werror and no other flag in all 2 compile command(s); "
                             "`make -C missing`: missing is not a folder of the repository; "
                             "`make -C link`: link is not a folder of the repository")


# ----------------------------------------------------------------- a failed build's reason

def test_make_typo_gives_the_line_saying_why(repos):
    typo = GOOD_MAKEFILE.replace("$(NAME): $(OBJS)\n", "$(NAME): $(OBJS)\n\tMake -C libft\n")
    build, _ = repos.build(makefile=typo, extra={"libft/Makefile": "all:\n\t@true\n"})
    assert not build.ok
    # make runs a simple command itself: it says "make: Make: No such file or directory"
    # (through a shell it would be "/bin/sh: 1: Make: not found"), never "Error 127".
    assert build.message in ("make failed: make: Make: No such file or directory",
                             "make failed: /bin/sh: 1: Make: not found"), build.message
    assert "Error 127" in build.log


def test_failure_line_skips_what_make_says_after_the_cause():
    from harness.project import failure_line

    shell = ("Make -C libft && cp libft/libft.a .\n/bin/sh: 1: Make: not found\n"
             "make: *** [Makefile:23: fillit] Error 127\n")
    assert failure_line(shell) == "/bin/sh: 1: Make: not found"
    nested = ("make -C libft\nmake[1]: Entering directory '/grade/repo/libft'\ngcc -c ft_a.c\n"
              "ft_a.c:3:1: error: expected ';' before '}' token\nmake[1]: *** [Makefile:4: ft_a.o] Error 1\n"
              "make[1]: Leaving directory '/grade/repo/libft'\nmake: *** [Makefile:9: all] Error 2\n")
    assert failure_line(nested) == "ft_a.c:3:1: error: expected ';' before '}' token"
    assert failure_line("false\nmake: *** [Makefile:2: all] Error 1\n") == "make: *** [Makefile:2: all] Error 1"
    assert failure_line("Makefile:3: *** missing separator.  Stop.\n") == "Makefile:3: *** missing separator.  Stop."
    assert failure_line("gcc -o fillit main.o -lft\n/usr/bin/ld: cannot find -lft: No such file or directory\n"
                        "collect2: error: ld returned 1 exit status\nmake: *** [Makefile:5: fillit] Error 1\n") \
        == "/usr/bin/ld: cannot find -lft: No such file or directory"


# ----------------------------------------------------------------- committed build products, in every report

def test_committed_binary_is_listed_in_every_report(repos, tmp_path):
    repo = write_repo(tmp_path / "src", extra={"fillit": b"#!/bin/sh\necho stale\n", "obj/main.o": b"junk"})
    ws = repos.workspace()
    build = build_repository(repo, ws)
    assert build.ok, build.message
    assert build.left_out == ("fillit", "obj/main.o")
    report = GradeReport(target=str(repo), suite="none", seed=0, profile="default", limits=Limits(),
                         isolation=ws.jail.mode, results=[], checks=project_checks(build, ws, sample_inputs=[SAMPLE],
                                                                                    timeout_s=60),
                         build=build.summary())
    expected = ("left out of the copy, not graded (committed build products; the sources are built instead): "
                "fillit, obj/main.o")
    assert expected in plain_lines(report)
    assert expected in html_report.render_html(report)
    data = json.loads(json_report.dumps(report))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert data["build"]["left_out"] == ["fillit", "obj/main.o"]


def test_schema_rejects_an_unknown_build_field():
    report = GradeReport(target="x", suite="none", seed=0, profile="default", limits=Limits(), isolation="jail",
                         results=[], build={"command": "make", "left_out": ["fillit"], "surprise": 1})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(json_report.dumps(report)))


@pytest.fixture
def repos(tmp_path):
    with contextlib.ExitStack() as stack:
        yield Repos(tmp_path, stack)
