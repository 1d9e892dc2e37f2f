/* Prints a line, closes stdout, works a little longer, then exits 0. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    printf("before close\n");
    fflush(stdout);
    close(1);
    usleep(300000);
    fprintf(stderr, "still running after close\n");
    return 0;
}
