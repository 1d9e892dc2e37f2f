/* Stops itself with SIGSTOP. */
#include <signal.h>
#include <stdio.h>
int main(void) {
    printf("stopping\n");
    fflush(stdout);
    raise(SIGSTOP);
    printf("resumed\n");
    return 0;
}
