/* Sleeps 0.1 s, prints "done" and exits 0: a slow, harmless program. */
#include <stdio.h>
#include <unistd.h>
int main(void) { usleep(100 * 1000); printf("done\n"); return 0; }
