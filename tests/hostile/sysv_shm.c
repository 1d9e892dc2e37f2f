/* Creates a SysV shared memory segment with the key given (hex), touches it, and
 * leaves it behind: it would outlive the run in the host's IPC namespace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
int main(int argc, char **argv) {
    if (argc != 2) return 2;
    key_t key = (key_t)strtol(argv[1], NULL, 16);
    int id = shmget(key, 1 << 20, IPC_CREAT | 0666);
    if (id < 0) { perror("shmget"); return 1; }
    char *p = shmat(id, NULL, 0);
    if (p == (void *)-1) { perror("shmat"); return 1; }
    memset(p, 1, 1 << 20);
    shmdt(p);
    printf("segment %d\n", id);
    return 0;
}
