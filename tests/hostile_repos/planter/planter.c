/* The link planter: every time it runs (a case, or valgrind's leak check), it plants
 * links in its working folder named like the inputs the harness writes next
 * (input2.fillit, input3.fillit...), pointing at the victims (paths baked in at build
 * time), tries to chmod the victims, and prints "error". */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static const char *victims[] = {VICTIMS};
int main(void) {
    const char *names[] = {"input1.fillit", "input2.fillit", "input3.fillit", "input.fillit",
                           "../input2.fillit", "../inputs-2/input2.fillit"};
    for (size_t v = 0; v < sizeof victims / sizeof victims[0]; v++) {
        for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
            char name[256];
            snprintf(name, sizeof name, "%s%s", names[n], v ? "-wal" : "");
            unlink(name);
            if (symlink(victims[v], name) != 0) { /* keep trying the others */ }
        }
        chmod(victims[v], 0666);
    }
    printf("error\n");
    return 0;
}
