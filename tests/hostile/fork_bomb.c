/* A bounded fork bomb: 200 children that sleep 60 s; prints how many forks worked. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int made = 0;
    for (int i = 0; i < 200; i++) {
        pid_t pid = fork();
        if (pid == 0) { sleep(60); _exit(0); }
        if (pid > 0) made++;
    }
    printf("forked %d\n", made);
    fflush(stdout);
    sleep(60);
    return 0;
}
