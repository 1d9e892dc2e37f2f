/* A correct answer (the seed sample's) after burning about 0.5 s of CPU: slow, but well
 * inside a 2 s CPU limit however busy the machine is. */
#include <stdio.h>
#include <time.h>
int main(int argc, char **argv) {
    (void)argv;
    if (argc != 2) { puts("usage: fillit file"); return 0; }
    volatile unsigned long n = 0;
    while (clock() < CLOCKS_PER_SEC / 2) n++;
    fputs("DDAA\nCDDA\nCCCA\nBBBB\n", stdout);
    return 0;
}
