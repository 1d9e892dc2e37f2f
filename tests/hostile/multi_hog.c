/* Four processes (the program and three children) each touch 700 MB: every one is
 * under a 1 GiB per-process limit, together they are far above it. Prints "all done"
 * only when every process got and touched its memory. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#define SIZE (700L * 1024 * 1024)
static int hog(void) {
    volatile char *p = malloc(SIZE);  /* volatile: the stores must happen (no malloc elision) */
    if (!p) return 3;
    for (long i = 0; i < SIZE; i += 4096) p[i] = 1;
    return 0;
}
int main(void) {
    pid_t kids[3];
    for (int i = 0; i < 3; i++) {
        kids[i] = fork();
        if (kids[i] == 0) { int code = hog(); sleep(2); _exit(code); }
    }
    int failed = hog();
    for (int i = 0; i < 3; i++) {
        int status;
        waitpid(kids[i], &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
    }
    printf(failed ? "some failed\n" : "all done\n");
    return 0;
}
