/* Prints "cwd=<its folder>", then tries to create each path given (e.g. /tmp/x
 * and ../escape): prints "NAME: created" or "NAME: <error>" per path, exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    char cwd[4096];
    printf("cwd=%s\n", getcwd(cwd, sizeof cwd) ? cwd : "?");
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd < 0) { printf("%s: %s\n", argv[i], strerror(errno)); continue; }
        if (write(fd, "escaped\n", 8) != 8) printf("%s: short write\n", argv[i]);
        close(fd);
        printf("%s: created\n", argv[i]);
    }
    return 0;
}
