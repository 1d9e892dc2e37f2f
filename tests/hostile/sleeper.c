/* Sleeps 60 s without using CPU. */
#include <unistd.h>
int main(void) { sleep(60); return 0; }
