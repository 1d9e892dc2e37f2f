"""Repository mode: build_repository and project_checks on small real C repositories
written by the tests (a good one, and bad ones each breaking exactly one rule)."""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import psutil
import pytest

from harness.project import (
    CHECK_ORDER,
    BuildResult,
    build_repository,
    check_author,
    check_norm,
    compile_commands,
    failure_line,
    project_checks,
)

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

int	main(int argc, char **argv)
{
	char	*buf;
	int		fd;
	int		n;

	if (argc != 2)
	{
		ft_putstr("usage: fillit file\\n");
		return (1);
	}
	buf = (char *)malloc(1024);
	if (!buf)
		exit(1);
	fd = open(argv[1], O_RDONLY);
	n = -1;
	if (fd >= 0)
	{
		n = read(fd, buf, 1024);
		close(fd);
	}
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
            content = content.encode()
        path.write_bytes(content)
    return root


def make_scratch() -> Path:
    # Not pytest's tmp_path: its parents are 0700, and the build runs as another user.
    d = Path(tempfile.mkdtemp(prefix="fm-project-test-"))
    os.chmod(d, 0o711)
    return d


@pytest.fixture
def scratch():
    d = make_scratch()
    yield d
    shutil.rmtree(d, ignore_errors=True)


def by_name(checks) -> dict:
    assert [c.name for c in checks] == list(CHECK_ORDER)
    return {c.name: c for c in checks}


def build_and_check(scratch: Path, name: str = "repo", *, lenient: bool = False, **repo_kwargs):
    repo = write_repo(scratch / f"src-{name}", **repo_kwargs)
    build = build_repository(repo, scratch / f"work-{name}", lenient=lenient)
    checks = by_name(project_checks(build, sample_inputs=[SAMPLE], timeout_s=60))
    return build, checks


def assert_only_failing(checks: dict, failing: str) -> None:
    for name, check in checks.items():
        if name == failing:
            assert check.status == "fail", (name, check)
        elif name == "norm":
            assert check.status in ("pass", "skip"), check
        elif name == "leaks" and not HAS_VALGRIND:
            assert check.status == "skip", check
        else:
            assert check.status == "pass", (name, check)


# ----------------------------------------------------------------- good repository

@pytest.fixture(scope="module")
def good():
    d = make_scratch()
    build, checks = build_and_check(d)
    yield build, checks
    shutil.rmtree(d, ignore_errors=True)


def test_good_repository_builds(good):
    build, _ = good
    assert build.ok, build.message
    assert build.binary == build.workdir / "fillit"
    assert build.command == "make" and build.lenient is False
    assert "\n" not in build.message
    assert "-Wall -Wextra -Werror -c main.c" in build.log


def test_good_repository_passes_every_check(good):
    _, checks = good
    assert_only_failing(checks, failing="")
    assert "close, exit, free, malloc, open, read, write" in checks["forbidden_functions"].message
    if HAS_VALGRIND:
        assert "no definite leak on 1 input" in checks["leaks"].message


def test_graded_binary_survives_the_checks(good):
    build, _ = good
    # makefile_rules ran fclean/all/re: the graded binary is back and still runs.
    assert build.binary.is_file() and os.access(build.binary, os.X_OK)
    assert build.binary.read_bytes()[:4] == b"\x7fELF"


# ----------------------------------------------------------------- bad repositories

RELINK_MAKEFILE = GOOD_MAKEFILE.replace(".PHONY: all clean fclean re", ".PHONY: all clean fclean re $(NAME)")
NO_RE_MAKEFILE = GOOD_MAKEFILE.replace("re: fclean all\n", "").replace(".PHONY: all clean fclean re",
                                                                      ".PHONY: all clean fclean")
NO_WERROR_MAKEFILE = GOOD_MAKEFILE.replace("CFLAGS = -Wall -Wextra -Werror", "CFLAGS = -Wall -Wextra")
CLEAN_NOOP_MAKEFILE = GOOD_MAKEFILE.replace("clean:\n\trm -f $(OBJS)", "clean:\n\t@echo nothing to clean")
PRINTF_UTIL = GOOD_UTIL.replace("#include <unistd.h>", "#include <stdio.h>\n#include <unistd.h>").replace(
    "void\textra(void)\n{\n}", 'void\textra(void)\n{\n\tprintf("%d pieces\\n", 4 + (int)sizeof(long));\n}')
LEAK_UTIL = GOOD_UTIL.replace("#include <unistd.h>", "#include <stdlib.h>\n#include <unistd.h>").replace(
    "void\textra(void)\n{\n}",
    "void\textra(void)\n{\n\tchar\t*lost;\n\n\tlost = (char *)malloc(48);\n\tif (lost)\n\t\tlost[0] = 'x';\n}")


@pytest.mark.parametrize("case, kwargs, failing, fragments", [
    ("relink", {"makefile": RELINK_MAKEFILE}, "no_relink", ["relinked ./fillit"]),
    ("no_re", {"makefile": NO_RE_MAKEFILE}, "makefile_rules", ["no rule `re`"]),
    ("clean_noop", {"makefile": CLEAN_NOOP_MAKEFILE}, "makefile_rules",
     ["`make clean` left 2 object file(s)", "main.o"]),
    ("no_werror", {"makefile": NO_WERROR_MAKEFILE}, "flags", ["missing -Werror", "2 of 2"]),
    ("printf", {"util": PRINTF_UTIL}, "forbidden_functions", ["printf"]),
    ("no_author", {"author": None}, "author", ["no author file"]),
    pytest.param("leak", {"util": LEAK_UTIL}, "leaks", ["definitely lost 48 bytes", "input #1"],
                 marks=pytest.mark.skipif(not HAS_VALGRIND, reason="valgrind not installed")),
])
def test_bad_repository_fails_exactly_its_check(scratch, case, kwargs, failing, fragments):
    build, checks = build_and_check(scratch, case, **kwargs)
    assert build.ok, build.message
    assert_only_failing(checks, failing)
    message = checks[failing].message
    for fragment in fragments:
        assert fragment in message, message
    if case == "no_werror":
        assert "-Wall" not in message.split(" in ")[0]  # only the missing flag is named
    if case == "printf":
        assert "@" not in message  # version suffix stripped


def test_build_error_gives_one_line_naming_the_error(scratch):
    broken = GOOD_UTIL.replace("n = 0;", "n = undeclared_counter;")
    repo = write_repo(scratch / "src", util=broken)
    build = build_repository(repo, scratch / "work")
    assert not build.ok and build.binary is None
    assert "\n" not in build.message
    assert build.message.startswith("make failed: ")
    assert "util.c:" in build.message and "error:" in build.message
    assert "undeclared_counter" in build.message
    assert "undeclared_counter" in build.log
    checks = by_name(project_checks(build, sample_inputs=[SAMPLE], timeout_s=30))
    assert checks["binary_at_root"].status == "fail"
    for name in ("no_relink", "forbidden_functions", "leaks", "makefile_rules"):
        assert checks[name].status == "skip", checks[name]
    assert checks["author"].status == "pass"
    assert checks["flags"].status == "pass"  # make -n still shows the compile commands


def test_warning_only_build_passes_with_lenient(scratch):
    warned = GOOD_UTIL.replace("\tint\tn;\n", "\tint\tn;\n\tint\tunused_thing;\n")
    repo = write_repo(scratch / "src", util=warned)
    strict = build_repository(repo, scratch / "strict")
    assert not strict.ok
    assert "unused_thing" in strict.message and "-Werror" in strict.message, strict.message
    assert strict.lenient is False

    lenient = build_repository(repo, scratch / "lenient", lenient=True)
    assert lenient.ok, lenient.message
    assert lenient.lenient is True
    assert lenient.command.startswith("make CC=") and lenient.command.endswith("/cc")
    assert lenient.binary is not None and lenient.binary.read_bytes()[:4] == b"\x7fELF"
    checks = by_name(project_checks(lenient, sample_inputs=[SAMPLE], timeout_s=60))
    # The Makefile asks for -Werror: the flags rule is met even though the wrapper dropped it.
    assert_only_failing(checks, failing="")


def test_committed_binary_and_objects_are_not_graded(scratch):
    stale_script = b"#!/bin/sh\necho stale\n"
    repo = write_repo(scratch / "src", extra={
        "fillit": stale_script,
        "main.o": b"not an object file",  # newer than main.c: would be linked if copied
        "lib/libjunk.a": b"junk",
        "lib/libjunk.so": b"junk",
        ".git/HEAD": "ref: refs/heads/main\n",
    })
    os.chmod(repo / "fillit", 0o755)
    later = time.time() + 100
    os.utime(repo / "main.o", (later, later))
    build = build_repository(repo, scratch / "work")
    assert build.ok, build.message
    assert build.binary.read_bytes()[:4] == b"\x7fELF"
    assert not (build.workdir / ".git").exists()
    assert not (build.workdir / "lib" / "libjunk.a").exists()
    assert not (build.workdir / "lib" / "libjunk.so").exists()
    assert "not copied" in build.log and "main.o" in build.log
    # the student's repository itself is left alone
    assert (repo / "fillit").read_bytes() == stale_script
    assert (repo / "main.o").read_bytes() == b"not an object file"


def _processes_with_args(*wanted: list[str]) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if proc.info["cmdline"] in [list(w) for w in wanted]:
            found.append(proc)
    return found


def test_endless_make_is_killed_with_everything_it_started(scratch):
    makefile = ("all:\n"
                "\tsetsid sleep 1013 &\n"
                "\tenv -i setsid sleep 1014 &\n"
                "\tsleep 1015\n")
    repo = write_repo(scratch / "src", makefile=makefile)
    limit = 3.0
    result: dict = {}

    def build() -> None:
        start = time.monotonic()
        result["build"] = build_repository(repo, scratch / "work", timeout_s=limit)
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
    assert result["elapsed"] < limit + 20  # the 1000 s sleeps were not waited for
    assert _processes_with_args(["sleep", "1013"], ["sleep", "1014"], ["sleep", "1015"]) == []


def test_background_process_left_by_a_successful_make_is_killed(scratch):
    makefile = GOOD_MAKEFILE.replace("all: $(NAME)\n", "all: $(NAME)\n\tsetsid sleep 1016 & echo $$! > bg.pid\n")
    repo = write_repo(scratch / "src", makefile=makefile)
    build = build_repository(repo, scratch / "work")
    assert build.ok, build.message
    pid = int((build.workdir / "bg.pid").read_text())
    try:
        alive = psutil.Process(pid).cmdline() == ["sleep", "1016"]
    except psutil.Error:
        alive = False
    assert not alive
    assert _processes_with_args(["sleep", "1016"]) == []


def test_build_runs_as_an_unprivileged_user(scratch):
    makefile = GOOD_MAKEFILE.replace("all: $(NAME)\n", "all: $(NAME)\n\tid -u > uid.txt\n")
    repo = write_repo(scratch / "src", makefile=makefile)
    build = build_repository(repo, scratch / "work")
    assert build.ok, build.message
    uid = int((build.workdir / "uid.txt").read_text())
    assert uid != 0
    if os.geteuid() != 0:
        assert uid == os.geteuid()
    else:
        # the build's uid is lent to later runs: it must not keep the copy (nor the binary)
        owners = {p.lstat().st_uid for p in [build.workdir, *build.workdir.rglob("*")]}
        assert owners == {0}


def test_make_without_a_fillit_at_the_root(scratch):
    makefile = GOOD_MAKEFILE.replace("NAME = fillit", "NAME = bin/fillit").replace(
        "\t$(CC) $(CFLAGS) -o $(NAME) $(OBJS)", "\tmkdir -p bin\n\t$(CC) $(CFLAGS) -o $(NAME) $(OBJS)")
    build = build_repository(write_repo(scratch / "src", makefile=makefile), scratch / "work")
    assert not build.ok
    assert build.message == "make succeeded but no ./fillit at the repository root"
    checks = by_name(project_checks(build, timeout_s=30))
    assert checks["binary_at_root"].status == "fail"
    assert "no ./fillit" in checks["binary_at_root"].message


def test_repository_without_makefile(scratch):
    repo = write_repo(scratch / "src")
    (repo / "Makefile").unlink()
    build = build_repository(repo, scratch / "work")
    assert not build.ok and "no Makefile" in build.message
    checks = by_name(project_checks(build, timeout_s=30))
    assert checks["makefile_rules"].status == "fail"
    assert checks["flags"].status == "fail"


def test_project_checks_never_raise(scratch):
    ghost = BuildResult(ok=True, binary=scratch / "nowhere" / "repo" / "fillit",
                        workdir=scratch / "nowhere" / "repo", command="make", lenient=False,
                        message="", log="")
    checks = by_name(project_checks(ghost, sample_inputs=[SAMPLE], timeout_s=10))
    assert all(c.status in ("pass", "fail", "skip") and c.message for c in checks.values())
    assert checks["author"].status == "fail"


def test_leaks_without_sample_inputs_is_skipped(good):
    build, _ = good
    checks = by_name(project_checks(build, sample_inputs=(), timeout_s=60))
    assert checks["leaks"].status == "skip"


# ----------------------------------------------------------------- norm

def _fake_norminette(scratch: Path, output: str, status: int) -> Path:
    bindir = scratch / "fakebin"
    bindir.mkdir(mode=0o755)
    script = bindir / "norminette"
    script.write_text(f"#!/bin/sh\ncat <<'EOF'\n{output}EOF\nexit {status}\n")
    os.chmod(script, 0o755)
    return bindir


def test_norm_reports_norminette_errors(scratch, monkeypatch):
    build = build_repository(write_repo(scratch / "src"), scratch / "work")
    assert build.ok, build.message
    bindir = _fake_norminette(scratch, "fillit.h: OK!\nmain.c: Error!\n"
                              "Error: SPACE_REPLACE_TAB    (line:   3, col:   5):\tFound space when expecting tab\n"
                              "util.c: OK!\n", 1)
    monkeypatch.setenv("PATH", f"{bindir}:{os.environ['PATH']}")
    check = check_norm(build, 30)
    assert check.status == "fail"
    assert "1 of 3 file(s) fail the Norm" in check.message
    assert "main.c: Error: SPACE_REPLACE_TAB" in check.message


def test_norm_passes_when_norminette_is_happy(scratch, monkeypatch):
    build = build_repository(write_repo(scratch / "src"), scratch / "work")
    bindir = _fake_norminette(scratch, "fillit.h: OK!\nmain.c: OK!\nutil.c: OK!\n", 0)
    monkeypatch.setenv("PATH", f"{bindir}:{os.environ['PATH']}")
    check = check_norm(build, 30)
    assert check.status == "pass" and "3 file(s) OK" in check.message


def test_norm_skipped_without_norminette(scratch, monkeypatch):
    build = build_repository(write_repo(scratch / "src"), scratch / "work")
    empty = scratch / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    check = check_norm(build, 30)
    assert check.status == "skip"
    assert check.message == "norminette not installed (pip install norminette)"


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
def test_author_file_rules(scratch, content, status, fragment):
    repo = scratch / "repo"
    repo.mkdir()
    (repo / "author").write_bytes(content)
    check = check_author(BuildResult(True, None, repo, "make", False, "", ""))
    assert check.status == status, check
    assert fragment in check.message


def test_author_symlink_is_not_followed(scratch):
    repo = scratch / "repo"
    repo.mkdir()
    (repo / "author").symlink_to("/etc/hostname")
    check = check_author(BuildResult(True, None, repo, "make", False, "", ""))
    assert check.status == "fail" and "symbolic link" in check.message


# ----------------------------------------------------------------- parsing helpers

def test_compile_commands_finds_compiler_invocations():
    output = "\n".join([
        "make -C libft",
        "make[1]: Entering directory '/x/libft'",
        "cd libft && gcc -Wall -Wextra -Werror -c ft_a.c -o ft_a.o",
        "ar rcs libft.a ft_a.o",
        "echo gcc is great",
        "/usr/bin/cc -Wall -c main.c",
        "gcc -Wall -Wextra -Werror -o fillit main.o -Llibft -lft",
        "CCACHE=1 clang-14 -Wall src/x.c -o x",
    ])
    commands = compile_commands(output)
    assert [c[0] for c in commands] == ["gcc", "/usr/bin/cc", "clang-14"]
    assert commands[0][-1] == "ft_a.o"


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

def test_example_repository_passes(scratch):
    example = ROOT / "examples" / "fillit"
    if not (example / "Makefile").is_file():
        pytest.skip("examples/fillit is not there yet")
    build = build_repository(example, scratch / "work")
    assert build.ok, build.message + "\n" + build.log
    checks = by_name(project_checks(build, sample_inputs=[SAMPLE, (ROOT / "examples" / "sample.fillit").read_bytes()],
                                    timeout_s=120))
    assert_only_failing(checks, failing="")
