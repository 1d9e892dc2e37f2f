/* setsid double fork: the grandchild keeps stdout open and sleeps 60 s; the
 * program itself prints "parent done" and exits 0 at once. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            printf("daemon up\n");
            fflush(stdout);
            sleep(60);
            printf("daemon still here\n");
            _exit(0);
        }
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    printf("parent done\n");
    return 0;
}
