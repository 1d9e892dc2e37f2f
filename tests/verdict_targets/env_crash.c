/* A correct answer only with a normal environment: it dereferences what getenv("TERM")
 * returns, as a program reading an uninitialised pointer would crash only in some
 * environments. Prints the seed sample's answer for any file. */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    (void)argv;
    if (argc != 2) { puts("usage: fillit file"); return 0; }
    const char *term = getenv("TERM");
    volatile char first = term[0];  /* NULL without TERM: SIGSEGV */
    (void)first;
    fputs("DDAA\nCDDA\nCCCA\nBBBB\n", stdout);
    return 0;
}
