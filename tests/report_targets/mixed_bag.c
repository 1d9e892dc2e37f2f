/* A fillit that fails in several ways at once, for the report tests:
 *   wrong argument count       prints nothing                  (WRONG bad_usage)
 *   an empty file              dereferences NULL               (CRASH SIGSEGV)
 *   a file over 500 bytes      sleeps 30 s                     (TIMEOUT wall: 24 pieces or more;
 *                                                              few, as each one costs its backstop twice)
 *   any other file             prints "error" on stdout and a note on stderr
 *                              (OK for invalid files, WRONG false_error for valid ones)
 * A missing or unreadable file gets "error" too. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t size;
	int fd;

	if (argc != 2)
		return (1);
	fd = open(argv[1], O_RDONLY);
	size = fd < 0 ? -1 : read(fd, buf, sizeof buf);
	if (size == 0)
		return (*(volatile int *)0);
	if (size > 500)
		sleep(30);
	fprintf(stderr, "mixed_bag: read %zd bytes\n", size);
	write(1, "error\n", 6);
	return (0);
}
