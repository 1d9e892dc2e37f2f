/* Writes through a null pointer: SIGSEGV. */
#include <stdio.h>
int main(void) {
    printf("about to crash\n");
    fflush(stdout);
    *(volatile int *)0 = 42;
    return 0;
}
