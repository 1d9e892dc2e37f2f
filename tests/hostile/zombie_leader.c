/* The leader that plays dead: a setsid'd grandchild whose main thread calls
 * pthread_exit while another thread keeps running. Its /proc state reads "Z" (the
 * thread-group leader is a zombie) although the process lives on. The program itself
 * prints "leader gone" and exits 0 at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void *keep_running(void *unused) {
    (void)unused;
    for (;;) sleep(1);
    return NULL;
}
int main(void) {
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            pthread_t thread;
            pthread_create(&thread, NULL, keep_running, NULL);
            pthread_exit(NULL);
        }
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    usleep(100 * 1000);
    printf("leader gone\n");
    return 0;
}
