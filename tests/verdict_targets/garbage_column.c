/* Prints the seed sample's answer with a garbage column of random bytes on each line, as
 * a program printing an uninitialised buffer would: different on every run. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    (void)argv;
    if (argc != 2) { puts("usage: fillit file"); return 0; }
    const char *rows[] = {"DDAA", "CDDA", "CCCA", "BBBB"};
    unsigned char noise[4] = {0};
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0 && read(fd, noise, sizeof noise) < 0) noise[0] = 1;
    for (int i = 0; i < 4; i++) printf("%s%c\n", rows[i], 'a' + noise[i] % 26);
    return 0;
}
