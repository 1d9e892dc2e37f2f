/* Reports what the program can see: for each path given, "PATH: exists" or
 * "PATH: <error>"; then the number of processes in its /proc. */
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        struct stat st;
        printf("%s: %s\n", argv[i], stat(argv[i], &st) == 0 ? "exists" : strerror(errno));
    }
    int processes = 0;
    DIR *proc = opendir("/proc");
    struct dirent *e;
    while (proc && (e = readdir(proc)))
        if (isdigit((unsigned char)e->d_name[0])) processes++;
    printf("processes: %d\n", processes);
    return 0;
}
