/* Writes far past a 16-byte heap block, then dies: valgrind's first error says where. */
#include <stdlib.h>
#include <string.h>
static void smash(char *block) {
    memset(block, 'x', 1 << 20);
}
int main(int argc, char **argv) {
    (void)argc; (void)argv;
    char *block = malloc(16);
    smash(block);
    return block[0];
}
