/* Connects to 127.0.0.1:PORT (argv[1]); prints "connected" and exits 0, or
 * prints the error and exits 1. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) { printf("socket: %s\n", strerror(errno)); return 1; }
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(argv[1]));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) { printf("connect: %s\n", strerror(errno)); return 1; }
    printf("connected\n");
    close(s);
    return 0;
}
