/* Allocates and touches up to 4 GB in 64 MB blocks; exits 3 when malloc fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    size_t block = 64UL << 20, got = 0;
    while (got < (4UL << 30)) {
        char *p = malloc(block);
        if (!p) { printf("malloc failed after %zu MB\n", got >> 20); return 3; }
        memset(p, 1, block);
        got += block;
    }
    printf("got %zu MB\n", got >> 20);
    return 0;
}
