/* Burns argv[1] milliseconds of CPU time, prints "done" and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
    long ms = argc > 1 ? atol(argv[1]) : 100;
    volatile unsigned long n = 0;
    while (clock() < (clock_t)(ms * (CLOCKS_PER_SEC / 1000))) n++;
    printf("done\n");
    return 0;
}
