"""The memory_errors project check (issue 12): valgrind memcheck's errors other than leaks,
counted and shown with the first error's stack, on a real binary built in the jail whose
input picks the bug (helpers: test_project)."""
from __future__ import annotations

import contextlib
import re

import pytest

from harness.project.checks import leaks, memory_errors
from harness.project.checks.common import CheckContext
from harness.grading.memcheck import compact_error, parse_log
from harness.project.checks.memory_errors import NO_DEBUG_INFO
from test_project import HAS_VALGRIND, Repos

pytestmark = pytest.mark.skipif(not HAS_VALGRIND, reason="valgrind not installed")

BUGGY_MAIN = """\
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static void	overflow(char *board)
{
	int	i;

	i = 0;
	while (i <= 16)
		board[i++] = '.';
}

static void	uninitialised(char *board)
{
	if (board[3] == '#')
		write(1, "#\\n", 2);
}

static void	poke(char *where)
{
	where[0] = 'x';
}

static void	run(char bug, char *board)
{
	if (bug == 'o')
		overflow(board);
	if (bug == 'u')
		uninitialised(board);
	if (bug == 'd')
		free(board);
	if (bug == 'c')
		poke(0);
	if (bug != 'l')
		free(board);
}

int	main(int argc, char **argv)
{
	char	*board;
	char	bug;
	int		fd;

	bug = 0;
	fd = open(argv[argc - 1], O_RDONLY);
	if (fd < 0 || read(fd, &bug, 1) != 1)
		return (1);
	close(fd);
	board = (char *)malloc(16);
	if (!board)
		exit(1);
	run(bug, board);
	write(1, "ok\\n", 3);
	return (0);
}
"""
MAKEFILE = """\
NAME = fillit
CFLAGS = -Wall -Wextra -Werror{debug}

all: $(NAME)

$(NAME): main.c
\tgcc $(CFLAGS) -o $(NAME) main.c

clean:

fclean: clean
\trm -f $(NAME)

re: fclean all
"""
INPUTS = {"overflow": b"o", "uninitialised": b"u", "double_free": b"d", "crash": b"c", "leak": b"l", "clean": b"-"}


def _build(repos: Repos, debug: str):
    build, ws = repos.build(makefile=MAKEFILE.format(debug=debug), extra={"main.c": BUGGY_MAIN})
    assert build.ok, build.message + build.log
    return build, ws


@pytest.fixture(scope="module")
def with_g(tmp_path_factory):
    with contextlib.ExitStack() as stack:
        yield _build(Repos(tmp_path_factory.mktemp("memory-g"), stack), " -g")


@pytest.fixture(scope="module")
def without_g(tmp_path_factory):
    with contextlib.ExitStack() as stack:
        yield _build(Repos(tmp_path_factory.mktemp("memory"), stack), "")


def _checks(built, bug: str):
    build, ws = built
    ctx = CheckContext(build, ws, (INPUTS[bug],), 60)  # one context: leaks reuses memory_errors' run
    return memory_errors.check(ctx), leaks.check(ctx)


@pytest.mark.parametrize("bug, first", [
    ("overflow", r"Invalid write of size 1 at overflow \(main\.c:\d+\) by run \(main\.c:\d+\) by main \(main\.c:\d+\); "
                 r"Address 0x\w+ is 0 bytes after a block of size 16 alloc'd at malloc by main \(main\.c:\d+\)"),
    ("uninitialised", r"Conditional jump or move depends on uninitialised value\(s\) at uninitialised \(main\.c:\d+\)"
                      r" by run \(main\.c:\d+\)"),
    ("double_free", r"Invalid free\(\) / delete / delete\[\] / realloc\(\) at free by run \(main\.c:\d+\) by main "
                    r"\(main\.c:\d+\); Address 0x\w+ is 0 bytes inside a block of size 16 free'd at free by run "
                    r"\(main\.c:\d+\) by main \(main\.c:\d+\); Block was alloc'd at malloc by main"),
])
def test_memory_errors_caught_with_the_first_stack(with_g, bug, first):
    check, leak_check = _checks(with_g, bug)
    assert check.status == "fail", check
    assert check.message.startswith("1 memory error(s) on input #1; first: "), check.message
    assert re.search(first, check.message), check.message
    assert NO_DEBUG_INFO not in check.message
    assert "\n" not in check.message
    assert leak_check.status == "pass", leak_check  # a memory error is not a leak


def test_a_crash_under_valgrind_still_shows_the_error_before_it(with_g):
    check, _ = _checks(with_g, "crash")
    assert check.status == "fail", check
    assert re.search(r"first: Invalid write of size 1 at poke \(main\.c:\d+\) by run", check.message), check.message
    assert "Address 0x0 is not stack'd, malloc'd or (recently) free'd" in check.message
    assert "the program did not end normally under valgrind (it died with SIGSEGV)" in check.message


def test_a_leak_is_not_a_memory_error(with_g):
    check, leak_check = _checks(with_g, "leak")
    assert check.status == "pass" and check.message == "no memory error on 1 input(s)", check
    assert leak_check.status == "fail" and "definitely lost 16 bytes in 1 block(s)" in leak_check.message


def test_without_debug_information_the_message_says_how_to_get_source_lines(without_g):
    check, _ = _checks(without_g, "overflow")
    assert check.status == "fail", check
    assert "first: Invalid write of size 1 at overflow by run by main;" in check.message, check.message
    assert check.message.endswith(NO_DEBUG_INFO)


def test_clean_run_passes(without_g):
    check, leak_check = _checks(without_g, "clean")
    assert check.status == "pass" and leak_check.status == "pass", (check, leak_check)


# ----------------------------------------------------------------- parsing valgrind's log

LOG = """\
==31== Memcheck, a memory error detector
==31== Command: ./fillit input1.fillit
==31==
==31== Invalid write of size 1
==31==    at 0x10918F: main (in /grade/work/fillit)
==31==  Address 0x4a4004a is 0 bytes after a block of size 10 alloc'd
==31==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==31==    by 0x109171: main (in /grade/work/fillit)
==31==
==31== Conditional jump or move depends on uninitialised value(s)
==31==    at 0x1091B7: main (in /grade/work/fillit)
==31==
==31== 48 bytes in 1 blocks are definitely lost in loss record 1 of 1
==31==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==31==    by 0x1091F3: main (in /grade/work/fillit)
==31==
==31== LEAK SUMMARY:
==31==    definitely lost: 48 bytes in 1 blocks
==31== ERROR SUMMARY: 5 errors from 3 contexts (suppressed: 0 from 0)
"""


def test_memory_errors_are_counted_without_the_leaks_the_summary_includes():
    status, facts = parse_log(LOG, killed=False)
    assert status == "ok"
    assert (facts.errors, facts.contexts, facts.lost_bytes) == (4, 2, 48)  # 3 writes + 1 jump; the leak is not one
    assert facts.first_error[0] == "Invalid write of size 1"
    text, without_lines = compact_error(facts.first_error, "/grade/work/fillit")
    assert text == ("Invalid write of size 1 at main; Address 0x4a4004a is 0 bytes after a block of size 10 "
                    "alloc'd at malloc by main")
    assert without_lines


def test_a_killed_run_keeps_its_errors_but_no_leak_facts():
    status, facts = parse_log(LOG, killed=True)
    assert status == "killed"
    assert facts.contexts == 2 and facts.first_error[0] == "Invalid write of size 1" and facts.lost_bytes == 0
