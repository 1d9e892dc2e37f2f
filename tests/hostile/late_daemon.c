/* Waits 0.6 s (the test meanwhile moves the kernel's next pid far below this run's
 * first pid), then starts a setsid'd daemon that sleeps 60 s, waits 0.5 s (so that the
 * test sees it), and exits 0: the daemon's pid "wrapped" below every pid of the run. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    usleep(600 * 1000);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() == 0) { sleep(60); _exit(0); }
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    usleep(500 * 1000);
    printf("daemon started\n");
    return 0;
}
