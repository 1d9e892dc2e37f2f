"""Repository mode: build_repository and project_checks, jailed, on small real C
repositories written by the tests (a good one, and bad ones each breaking exactly one
rule)."""
from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from pathlib import Path

import psutil
import pytest

from harness.jail import detect_jail
from harness.jail.identity import UID_BASE, UID_COUNT
from harness.project import CHECK_NAMES, BuildResult, Workspace, build_repository, failure_line, project_checks
from harness.project.checks import author, norm
from harness.project.checks.common import CheckContext
from harness.project.checks.dry_run import CompileCommand, parse_listing
from harness.project.checks.flags import extra_flags, optimisation_flags

pytestmark = pytest.mark.skipif(shutil.which("make") is None or shutil.which("gcc") is None,
                                reason="make and gcc are needed to build repositories")

HAS_VALGRIND = shutil.which("valgrind") is not None
ROOT = Path(__file__).resolve().parent.parent
SAMPLE = b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n"

GOOD_MAKEFILE = """\
NAME = fillit
CC = gcc
CFLAGS = -Wall -Wextra -Werror
SRCS = main.c util.c
OBJS = $(SRCS:.c=.o)

all: $(NAME)

$(NAME): $(OBJS)
\t$(CC) $(CFLAGS) -o $(NAME) $(OBJS)

%.o: %.c fillit.h
\t$(CC) $(CFLAGS) -c $< -o $@

clean:
\trm -f $(OBJS)

fclean: clean
\trm -f $(NAME)

re: fclean all

.PHONY: all clean fclean re
"""

HEADER = """\
#ifndef FILLIT_H
# define FILLIT_H

void	ft_putstr(const char *s);
void	extra(void);

#endif
"""

GOOD_MAIN = """\
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "fillit.h"

static int	read_file(const char *path, char *buf)
{
	int	fd;
	int	n;

	fd = open(path, O_RDONLY);
	n = -1;
	if (fd >= 0)
	{
		n = read(fd, buf, 1024);
		close(fd);
	}
	return (n);
}

int	main(int argc, char **argv)
{
	char	*buf;
	int		n;

	if (argc != 2)
	{
		ft_putstr("usage: fillit file\\n");
		return (1);
	}
	buf = (char *)malloc(1024);
	if (!buf)
		exit(1);
	n = read_file(argv[1], buf);
	if (n > 0)
		write(1, buf, n);
	else
		ft_putstr("error\\n");
	free(buf);
	extra();
	return (0);
}
"""
GOOD_UTIL = """\
#include <unistd.h>
#include "fillit.h"

void	ft_putstr(const char *s)
{
	int	n;

	n = 0;
	while (s[n])
		n++;
	write(1, s, n);
}

void	extra(void)
{
}
"""


def header42(name: str) -> str:
    """The 42 header the Norm asks every source file to start with."""
    edge = "/* " + "*" * 74 + " */"
    blank = "/*" + " " * 76 + "*/"
    return "\n".join([
        edge, blank,
        "/*                                                        :::      ::::::::   */",
        f"/*   {name:<51}:+:      :+:    :+:   */",
        "/*                                                    +:+ +:+         +:+     */",
        "/*   By: jdoe <jdoe@student.42.fr>                  +#+  +:+       +#+        */",
        "/*                                                +#+#+#+#+#+   +#+           */",
        "/*   Created: 2024/01/08 10:00:00 by jdoe              #+#    #+#             */",
        "/*   Updated: 2024/01/08 10:00:00 by jdoe             ###   ########.fr       */",
        blank, edge, "", ""])


def write_repo(root: Path, *, makefile: str = GOOD_MAKEFILE, util: str = GOOD_UTIL,
               author: str | None = "jdoe\n", extra: dict[str, bytes | str] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes | str] = {"Makefile": makefile, "main.c": GOOD_MAIN, "util.c": util,
                                     "fillit.h": HEADER}
    if author is not None:
        files["author"] = author
    files.update(extra or {})
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = (header42(name) + content if name.endswith((".c", ".h")) else content).encode()
        path.write_bytes(content)
    return root


class Repos:
    """Writes repositories under tmp_path and opens workspaces, closed at the end of the test."""

    def __init__(self, tmp_path: Path, stack: contextlib.ExitStack) -> None:
        self.tmp_path, self.stack = tmp_path, stack

    def workspace(self) -> Workspace:
        return self.stack.enter_context(Workspace.create(detect_jail()))

    def build(self, name: str = "repo", *, lenient: bool = False, timeout_s: float = 120.0,
              **repo_kwargs) -> tuple[BuildResult, Workspace]:
        repo = write_repo(self.tmp_path / f"src-{name}", **repo_kwargs)
        ws = self.workspace()
        return build_repository(repo, ws, lenient=lenient, timeout_s=timeout_s), ws

    def build_and_check(self, name: str = "repo", **kwargs):
        build, ws = self.build(name, **kwargs)
        return build, by_name(project_checks(build, ws, sample_inputs=[SAMPLE], timeout_s=60))


@pytest.fixture
def repos(tmp_path):
    with contextlib.ExitStack() as stack:
        yield Repos(tmp_path, stack)


def by_name(checks) -> dict:
    assert [c.name for c in checks] == list(CHECK_NAMES)
    return {c.name: c for c in checks}


def assert_only_failing(checks: dict, failing: str) -> None:
    for name, check in checks.items():
        if name == failing:
            assert check.status == "fail", (name, check)
        elif name in ("leaks", "memory_errors") and not HAS_VALGRIND:
            assert check.status == "skip", check
        else:
            assert check.status == "pass", (name, check)


# ----------------------------------------------------------------- good repository

@pytest.fixture(scope="module")
def good(tmp_path_factory):
    with contextlib.ExitStack() as stack:
        yield Repos(tmp_path_factory.mktemp("good"), stack).build_and_check()


def test_good_repository_builds(good):
    build, _ = good
    assert build.ok, build.message
    assert build.binary is not None and build.binary.name == "fillit"
    assert build.command == "make" and build.lenient is False
    assert "\n" not in build.message
    assert "-Wall -Wextra -Werror -c main.c" in build.log


def test_good_repository_passes_every_check(good):
    _, checks = good
    assert_only_failing(checks, failing="")
    assert "close, exit, free, malloc, open, read, write" in checks["forbidden_functions"].message
    assert "norminette: 3 file(s) OK" == checks["norm"].message
    assert checks["flags"].message == "-Wall -Wextra -Werror and no other flag in all 2 compile command(s)"
    if HAS_VALGRIND:
        assert "no definite leak on 1 input" in checks["leaks"].message
        assert checks["memory_errors"].message == "no memory error on 1 input(s)"


def test_the_graded_binary_is_a_copy_the_checks_cannot_touch(good):
    build, _ = good
    # makefile_rules ran fclean/all/re in the tree; the graded copy lives outside it, root's.
    assert build.binary is not None and build.binary.read_bytes()[:4] == b"\x7fELF"
    info = build.binary.stat()
    assert info.st_uid == os.geteuid() and not info.st_mode & 0o022
    assert build.workdir not in build.binary.parents


# ----------------------------------------------------------------- bad repositories

RELINK_MAKEFILE = GOOD_MAKEFILE.replace(".PHONY: all clean fclean re", ".PHONY: all clean fclean re $(NAME)")
NO_RE_MAKEFILE = GOOD_MAKEFILE.replace("re: fclean all\n", "").replace(".PHONY: all clean fclean re",
                                                                      ".PHONY: all clean fclean")
NO_WERROR_MAKEFILE = GOOD_MAKEFILE.replace("CFLAGS = -Wall -Wextra -Werror", "CFLAGS = -Wall -Wextra")
CLEAN_NOOP_MAKEFILE = GOOD_MAKEFILE.replace("clean:\n\trm -f $(OBJS)", "clean:\n\t@echo nothing to clean")
PRINTF_UTIL = GOOD_UTIL.replace("#include <unistd.h>", "#include <stdio.h>\n#include <unistd.h>").replace(
    "void\textra(void)\n{\n}", 'void\textra(void)\n{\n\tprintf("%d pieces\\n", 4);\n}')
LEAK_UTIL = GOOD_UTIL.replace("#include <unistd.h>", "#include <stdlib.h>\n#include <unistd.h>").replace(
    "void\textra(void)\n{\n}",
    "void\textra(void)\n{\n\tchar\t*lost;\n\n\tlost = (char *)malloc(48);\n\tif (lost)\n\t\tlost[0] = 'x';\n}")


@pytest.mark.parametrize("case, kwargs, failing, fragments", [
    ("relink", {"makefile": RELINK_MAKEFILE}, "no_relink", ["relinked ./fillit"]),
    ("no_re", {"makefile": NO_RE_MAKEFILE}, "makefile_rules", ["no rule `re`"]),
    ("clean_noop", {"makefile": CLEAN_NOOP_MAKEFILE}, "makefile_rules",
     ["`make clean` left 2 object file(s)", "main.o"]),
    ("no_werror", {"makefile": NO_WERROR_MAKEFILE}, "flags", ["missing -Werror", "2 of 2"]),
    # at -O0 ft_putstr's loop stays a loop: no strlen (test_project_causes: -O3 adds it)
    ("printf", {"util": PRINTF_UTIL}, "forbidden_functions", ["forbidden function(s): printf (called in util.c)"]),
    ("no_author", {"author": None}, "author", ["no author file"]),
    pytest.param("leak", {"util": LEAK_UTIL}, "leaks", ["definitely lost 48 bytes", "input #1"],
                 marks=pytest.mark.skipif(not HAS_VALGRIND, reason="valgrind not installed")),
])
def test_bad_repository_fails_exactly_its_check(repos, case, kwargs, failing, fragments):
    build, checks = repos.build_and_check(case, **kwargs)
    assert build.ok, build.message
    assert_only_failing(checks, failing)
    message = checks[failing].message
    for fragment in fragments:
        assert fragment in message, message
    if case == "no_werror":
        assert "-Wall" not in message.split(" in ")[0]  # only the missing flag is named
    if case == "printf":
        assert message == "forbidden function(s): printf (called in util.c)"  # version suffix stripped, no strlen


def test_build_error_gives_one_line_naming_the_error(repos):
    broken = GOOD_UTIL.replace("n = 0;", "n = undeclared_counter;")
    build, ws = repos.build(util=broken)
    assert not build.ok and build.binary is None
    assert "\n" not in build.message
    assert build.message.startswith("make failed: ")
    assert "util.c:" in build.message and "error:" in build.message
    assert "undeclared_counter" in build.message
    assert "undeclared_counter" in build.log
    checks = by_name(project_checks(build, ws, sample_inputs=[SAMPLE], timeout_s=30))
    assert checks["binary_at_root"].status == "fail"
    for name in ("no_relink", "forbidden_functions", "leaks", "makefile_rules"):
        assert checks[name].status == "skip", checks[name]
    assert checks["author"].status == "pass"
    assert checks["flags"].status == "pass"  # make -n still shows the compile commands


def test_warning_only_build_passes_with_lenient(repos):
    warned = GOOD_UTIL.replace("\tint\tn;\n", "\tint\tn;\n\tint\tunused_thing;\n")
    strict, _ = repos.build("strict", util=warned)
    assert not strict.ok
    assert "unused_thing" in strict.message and "-Werror" in strict.message, strict.message
    assert strict.lenient is False

    lenient, ws = repos.build("lenient", util=warned, lenient=True)
    assert lenient.ok, lenient.message
    assert lenient.lenient is True
    assert lenient.command.startswith("make CC=") and lenient.command.endswith("/cc")
    assert lenient.binary is not None and lenient.binary.read_bytes()[:4] == b"\x7fELF"
    checks = by_name(project_checks(lenient, ws, sample_inputs=[SAMPLE], timeout_s=60))
    # The Makefile asks for -Werror: the flags rule is met even though the wrapper dropped it.
    assert_only_failing(checks, failing="")


def test_committed_binary_and_objects_are_not_graded(repos, tmp_path):
    stale_script = b"#!/bin/sh\necho stale\n"
    repo = write_repo(tmp_path / "src", extra={
        "fillit": stale_script,
        "main.o": b"not an object file",  # newer than main.c: would be linked if copied
        "lib/libjunk.a": b"junk",
        "lib/libjunk.so": b"junk",
        ".git/HEAD": "ref: refs/heads/main\n",
    })
    os.chmod(repo / "fillit", 0o755)
    later = time.time() + 100
    os.utime(repo / "main.o", (later, later))
    build = build_repository(repo, repos.workspace())
    assert build.ok, build.message
    assert build.binary.read_bytes()[:4] == b"\x7fELF"
    assert not (build.workdir / ".git").exists()
    assert not (build.workdir / "lib" / "libjunk.a").exists()
    assert not (build.workdir / "lib" / "libjunk.so").exists()
    assert "not copied" in build.log and "main.o" in build.log
    assert set(build.left_out) == {"fillit", "main.o", "lib/libjunk.a", "lib/libjunk.so"}
    # the student's repository itself is left alone
    assert (repo / "fillit").read_bytes() == stale_script
    assert (repo / "main.o").read_bytes() == b"not an object file"


def _processes_with_args(*wanted: list[str]) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if proc.info["cmdline"] in [list(w) for w in wanted]:
            found.append(proc)
    return found


@pytest.mark.slow
def test_endless_make_is_killed_with_everything_it_started(repos):
    makefile = ("all:\n"
                "\tsetsid sleep 1013 &\n"
                "\tenv -i setsid sleep 1014 &\n"
                "\tsleep 1015\n")
    limit = 3.0
    result: dict = {}

    def build() -> None:
        start = time.monotonic()
        result["build"], _ = repos.build(makefile=makefile, timeout_s=limit)
        result["elapsed"] = time.monotonic() - start

    worker = threading.Thread(target=build)
    worker.start()
    seen: set[str] = set()
    while worker.is_alive() and len(seen) < 3:
        for proc in _processes_with_args(["sleep", "1013"], ["sleep", "1014"], ["sleep", "1015"]):
            try:
                seen.add(proc.cmdline()[1])
            except psutil.Error:
                pass
        time.sleep(0.05)
    worker.join()
    assert seen == {"1013", "1014", "1015"}  # they all ran, two of them outside make's session
    build = result["build"]
    assert not build.ok and build.binary is None
    assert "timed out after 3 s" in build.message
    assert result["elapsed"] < 2 * limit + 5 + 20  # (the wall backstop) the 1000 s sleeps were not waited for
    assert _processes_with_args(["sleep", "1013"], ["sleep", "1014"], ["sleep", "1015"]) == []


def test_background_process_left_by_a_successful_make_is_killed(repos):
    makefile = GOOD_MAKEFILE.replace("all: $(NAME)\n", "all: $(NAME)\n\tsetsid sleep 1016 &\n")
    build, _ = repos.build(makefile=makefile)
    assert build.ok, build.message
    assert _processes_with_args(["sleep", "1016"]) == []


def test_build_runs_as_an_unprivileged_user(repos):
    makefile = GOOD_MAKEFILE.replace("all: $(NAME)\n", "all: $(NAME)\n\tid -u > uid.txt\n")
    build, ws = repos.build(makefile=makefile)
    assert build.ok, build.message
    uid = int((build.workdir / "uid.txt").read_text())
    if os.geteuid() != 0:
        assert uid == os.geteuid()
    else:
        # one pool uid for the whole workspace: the copy is its, never root's, never handed back
        assert UID_BASE <= uid < UID_BASE + UID_COUNT and uid == ws.who.uid
        assert {p.lstat().st_uid for p in [build.workdir, *build.workdir.rglob("*")]} == {uid}


def test_make_without_a_fillit_at_the_root(repos):
    makefile = GOOD_MAKEFILE.replace("NAME = fillit", "NAME = bin/fillit").replace(
        "\t$(CC) $(CFLAGS) -o $(NAME) $(OBJS)", "\tmkdir -p bin\n\t$(CC) $(CFLAGS) -o $(NAME) $(OBJS)")
    build, ws = repos.build(makefile=makefile)
    assert not build.ok
    assert build.message == "make succeeded but no ./fillit at the repository root"
    checks = by_name(project_checks(build, ws, timeout_s=30))
    assert checks["binary_at_root"].status == "fail"
    assert "no ./fillit" in checks["binary_at_root"].message


def test_repository_without_makefile(repos, tmp_path):
    repo = write_repo(tmp_path / "src")
    (repo / "Makefile").unlink()
    ws = repos.workspace()
    build = build_repository(repo, ws)
    assert not build.ok and "no Makefile" in build.message
    checks = by_name(project_checks(build, ws, timeout_s=30))
    assert checks["makefile_rules"].status == "fail"
    assert checks["flags"].status == "fail"


def test_project_checks_never_raise(repos):
    ws = repos.workspace()  # nothing was ever copied or built in it
    ghost = BuildResult(ok=True, binary=ws.graded_binary, workdir=ws.repo, command="make", lenient=False,
                        message="", log="")
    checks = by_name(project_checks(ghost, ws, sample_inputs=[SAMPLE], timeout_s=10))
    assert all(c.status in ("pass", "fail", "skip") and c.message for c in checks.values())
    assert checks["author"].status == "fail"


def test_leaks_without_sample_inputs_is_skipped(repos):
    build, ws = repos.build()
    checks = by_name(project_checks(build, ws, sample_inputs=(), timeout_s=60))
    assert checks["leaks"].status == "skip"


# ----------------------------------------------------------------- norm (the real norminette, jailed)

def _norm(build: BuildResult, ws: Workspace):
    return norm.check(CheckContext(build, ws, (), 60))


def test_norm_reports_norminette_errors(repos):
    spaced = GOOD_UTIL.replace("\tint\tn;", "    int n;")  # spaces where the Norm wants a tab
    build, ws = repos.build(util=spaced)
    assert build.ok, build.message
    check = _norm(build, ws)
    assert check.status == "fail", check
    assert "1 of 3 file(s) fail the Norm" in check.message
    assert "util.c: Error:" in check.message


def test_norm_passes_on_a_normed_repository(repos):
    build, ws = repos.build()
    check = _norm(build, ws)
    assert check.status == "pass" and check.message == "norminette: 3 file(s) OK"


def test_norm_skipped_without_norminette(repos, monkeypatch):
    build, ws = repos.build()

    def missing(name):
        raise norm.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(norm.importlib.metadata, "distribution", missing)
    check = _norm(build, ws)
    assert check.status == "skip"
    assert check.message == "norminette not installed (pip install norminette)"


def test_norminette_runs_from_its_own_package_not_the_harness_environment(repos):
    tool = norm.norminette_files()
    assert not isinstance(tool, str), tool
    assert [p.name for p in tool][0] == "norminette" and tool[1].name.endswith(".dist-info")


# ----------------------------------------------------------------- author

@pytest.mark.parametrize("content, status, fragment", [
    (b"jdoe\n", "pass", "1 login(s): jdoe"),
    (b"jdoe\nasmith\n", "pass", "2 login(s): jdoe, asmith"),
    (b"jdoe", "fail", "does not end with a newline"),
    (b"", "fail", "author is empty"),
    (b"john doe\n", "fail", "line 1 contains a space"),
    (b"jdoe\n\nasmith\n", "fail", "line 2 is empty"),
    (b"jdoe\r\n", "fail", "carriage return"),
    (b"jdoe\tx\n", "fail", "line 1 contains a space or tab"),
])
def test_author_file_rules(repos, content, status, fragment):
    ws = repos.workspace()
    ws.repo.mkdir()
    (ws.repo / "author").write_bytes(content)
    check = author.check(CheckContext(BuildResult(True, None, ws.repo, "make", False, "", ""), ws, (), 10))
    assert check.status == status, check
    assert fragment in check.message


def test_author_symlink_is_not_followed(repos):
    ws = repos.workspace()
    ws.repo.mkdir()
    (ws.repo / "author").symlink_to("/etc/hostname")
    check = author.check(CheckContext(BuildResult(True, None, ws.repo, "make", False, "", ""), ws, (), 10))
    assert check.status == "fail" and "symbolic link" in check.message


# ----------------------------------------------------------------- parsing helpers

def test_listing_finds_compile_commands_and_the_folder_they_run_in():
    output = "\n".join([
        "/usr/bin/make -C libft",
        "make[1]: Entering directory '/grade/repo/libft'",
        "gcc -Wall -Wextra -Werror -c ft_a.c -o ft_a.o",
        "ar rcs libft.a ft_a.o",
        "make[1]: Leaving directory '/grade/repo/libft'",
        "echo gcc is great",
        "/usr/bin/cc -Wall -c main.c",
        "gcc -Wall -Wextra -Werror -o fillit main.o -Llibft -lft",
        "CCACHE=1 clang-14 -Wall src/x.c -o x",
        "cd gnl && gcc -g -c get_next_line.c",
        "make -C printf CFLAGS=-g all",
        "cd tools && make",
        "make -C ../../outside",
    ])
    listing = parse_listing(output)
    assert [(c.folder, c.argv[0]) for c in listing.commands] == [
        ("libft", "gcc"), ("", "/usr/bin/cc"), ("", "clang-14"), ("gnl", "gcc")]
    assert listing.commands[0].argv[-1] == "ft_a.o"
    assert listing.entered == {"libft"}  # a recursive $(MAKE): listed already
    assert [(s.folder, s.args) for s in listing.sub_makes] == [
        ("libft", ()), ("printf", ("CFLAGS=-g", "all")), ("tools", ())]  # never outside the copy


def test_extra_flags_names_what_the_subject_does_not_allow():
    neutral = ("gcc -Wall -Wextra -Werror -Wshadow -pedantic -std=c99 -g -pipe -O0 -MMD -MP -MF x.d -I includes "
               "-I. -D BUFFER_SIZE=32 -DX -c main.c -o main.o").split()
    assert extra_flags(neutral) == []
    assert extra_flags("gcc -Wall -O3 -march=native -pipe -flto -c x.c -O3".split()) == ["-O3", "-march=native",
                                                                                        "-flto"]
    assert extra_flags("cc -w -Wno-unused -fsanitize=address -Wl,-z,now -c x.c".split()) == [
        "-w", "-Wno-unused", "-fsanitize=address", "-Wl,-z,now"]
    commands = [CompileCommand("", ("gcc", "-O2", "-c", "a.c")),
                CompileCommand("lib", ("gcc", "-O0", "-Os", "-c", "b.c"))]
    assert optimisation_flags(commands) == ["-O2", "-Os"]


def test_failure_line_prefers_the_compiler_error():
    log = ("gcc -c main.c\nmain.c: In function 'main':\n"
           "main.c:12:5: error: 'i' undeclared (first use in this function)\n"
           "make: *** [Makefile:9: main.o] Error 1\n")
    assert failure_line(log) == "main.c:12:5: error: 'i' undeclared (first use in this function)"
    assert failure_line("make: *** No rule to make target 'x.c'.  Stop.\n") == \
        "make: *** No rule to make target 'x.c'.  Stop."
    linker = ("/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x9): undefined reference to `foo'\n"
              "collect2: error: ld returned 1 exit status\n")
    assert "undefined reference to `foo'" in failure_line(linker)


# ----------------------------------------------------------------- the example repository

@pytest.mark.slow
def test_example_repository_passes(repos):
    ws = repos.workspace()
    build = build_repository(ROOT / "examples" / "fillit", ws)
    assert build.ok, build.message + "\n" + build.log
    checks = by_name(project_checks(build, ws, sample_inputs=[SAMPLE, (ROOT / "examples" / "sample.fillit").read_bytes()],
                                    timeout_s=120))
    assert_only_failing(checks, failing="")
