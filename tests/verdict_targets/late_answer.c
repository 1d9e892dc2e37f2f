/* Answers `error` after 6 s of sleeping (no CPU): past the first run's wall backstop at a
 * 1 s CPU limit (3 x 1 + 2 = 5 s), within the confirming run's (4 x 5 = 20 s). */
#include <stdio.h>
#include <unistd.h>
int main(void) { sleep(6); fputs("error\n", stdout); return 0; }
