/* Ignores SIGXCPU and burns CPU: RLIMIT_CPU's hard limit ends it with SIGKILL. */
#include <signal.h>
int main(void) {
    signal(SIGXCPU, SIG_IGN);
    volatile unsigned long n = 0;
    for (;;) n++;
}
