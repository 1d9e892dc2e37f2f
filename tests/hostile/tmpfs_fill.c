/* Fills each folder given with 1 MiB writes until a write fails (at most 4 GiB), then
 * prints "DIR: N MiB: <why it stopped>" per folder and exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static char block[1 << 20];
int main(int argc, char **argv) {
    memset(block, 'x', sizeof block);
    for (int i = 1; i < argc; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/fill", argv[i]);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) { printf("%s: 0 MiB: %s\n", argv[i], strerror(errno)); continue; }
        long mib = 0;
        const char *why = "4 GiB written";
        while (mib < 4096) {
            if (write(fd, block, sizeof block) != (ssize_t)sizeof block) { why = strerror(errno); break; }
            mib++;
        }
        close(fd);
        printf("%s: %ld MiB: %s\n", argv[i], mib, why);
        fflush(stdout);
    }
    return 0;
}
