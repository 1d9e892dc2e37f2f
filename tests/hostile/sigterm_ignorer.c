/* Ignores SIGTERM (and SIGINT, SIGHUP) and sleeps forever. */
#include <signal.h>
#include <unistd.h>
int main(void) {
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    for (;;) pause();
}
