/* A well-behaved program: for each argument prints a file's content, or
 *   -l  the names in the current folder, one a line (unsorted)
 *   -c  the current folder
 *   -u  its uid
 * A file it cannot open prints "cannot open NAME" and makes it exit 1. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-l")) {
            DIR *d = opendir(".");
            struct dirent *e;
            while (d && (e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                    printf("%s\n", e->d_name);
            if (d) closedir(d);
        } else if (!strcmp(argv[i], "-c")) {
            char buf[4096];
            printf("%s\n", getcwd(buf, sizeof buf) ? buf : "?");
        } else if (!strcmp(argv[i], "-u")) {
            printf("uid=%d euid=%d\n", (int)getuid(), (int)geteuid());
        } else {
            FILE *f = fopen(argv[i], "rb");
            if (!f) { printf("cannot open %s\n", argv[i]); status = 1; continue; }
            char buf[4096];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stdout);
            fclose(f);
        }
    }
    return status;
}
