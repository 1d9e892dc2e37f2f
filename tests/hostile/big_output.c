/* Writes 2 GB to stdout. */
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 'x', sizeof buf);
    for (long i = 0; i < (2L << 30) / (long)sizeof buf; i++)
        if (write(1, buf, sizeof buf) < 0) return 1;
    return 0;
}
