/* fillit-jail-exec: the one privileged step between the harness and an untrusted program.
 *
 *   fillit-jail-exec [OPTION...] -- PROGRAM [ARG...]
 *
 * Run by the harness (root, or an ordinary user), it does, in this order, only what the
 * options ask for, then execs PROGRAM (usually bubblewrap, which builds the namespaces):
 *
 *   --status-fd N           protocol with the harness on fd N (see below); closed by exec
 *   --fd FROM TO            dup2(FROM, TO), then close FROM: an output the harness opened
 *                           (valgrind's log), at a number the command line can name
 *   --cgroup-procs FILE     join a cgroup: write our pid to FILE (repeatable: one per v1
 *                           hierarchy); done first, so everything we start is inside
 *   --stage DIR             private mount namespace (nothing below is visible to the
 *                           host) with a small tmpfs on DIR, mode 0755, for:
 *   --ro SRC NAME           SRC bind-mounted read-only at DIR/NAME (SRC is opened by us,
 *                           as root, before DIR is covered: no search permission needed)
 *   --rw SRC NAME           the same, writable
 *   --tmpfs NAME BYTES MODE a private tmpfs of BYTES at DIR/NAME, owned by --uid/--gid
 *   --uid N --gid N         drop every privilege: no groups, real/effective/saved ids
 *   --rlimit RES SOFT HARD  RES: cpu as fsize nproc nofile core stack (after the uid change)
 *   --no-new-privs          PR_SET_NO_NEW_PRIVS (always wanted; explicit for readability)
 *   --pdeathsig             SIGKILL when the harness dies (after the uid change, which
 *                           would clear it)
 *   --final                 PROGRAM is the untrusted program itself (not bubblewrap):
 *                           report "S" just before exec'ing it, "E" if that fails
 *   --inner                 (bubblewrap runs us again inside the jail) only the rlimits,
 *                           no_new_privs and the status; implies --final
 *
 * Status protocol on --status-fd (a pipe the harness reads once the run is over):
 *   "S"            PROGRAM is about to be exec'd (written by the last launcher in the chain)
 *   "X<message>\n" the jail could not be set up: the harness's fault, never the program's
 *   "E<message>\n" PROGRAM could not be executed (errno text)
 * The fd is close-on-exec only for the final exec, so it passes through bubblewrap to the
 * inner launcher. Exit status 125 accompanies X, 126/127 accompany E.
 *
 * Why a C program: Popen can only use vfork when it changes nothing itself, and no Python
 * may run between fork and exec in a threaded harness; one small static exec costs well
 * under a millisecond. Why not let bubblewrap do the mounts: unprivileged bubblewrap can
 * bind only what the run's uid can reach, and Debian 12's 0.8.0 cannot size a tmpfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_ITEMS 64

static int status_fd = -1;

static void say(char kind, const char *fmt, va_list ap) {
    char buf[1024];
    int n = vsnprintf(buf + 1, sizeof buf - 2, fmt, ap);
    if (n < 0) n = 0;
    if (n > (int)sizeof buf - 3) n = (int)sizeof buf - 3;
    buf[0] = kind;
    buf[n + 1] = '\n';
    if (status_fd >= 0 && write(status_fd, buf, (size_t)n + 2) < 0) { /* nothing more to do */ }
    fprintf(stderr, "fillit-jail-exec: %.*s", n + 1, buf + 1);
}

static void setup_failed(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    say('X', fmt, ap);
    va_end(ap);
    _exit(125);
}

static long long number(const char *s) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || end == s) setup_failed("not a number: %s", s);
    return v;
}

struct mount_item { char kind; const char *src; const char *name; long long size; long long mode; int fd; };
struct rlimit_item { int resource; long long soft, hard; };

static int resource_named(const char *name) {
    static const struct { const char *name; int resource; } table[] = {
        {"cpu", RLIMIT_CPU}, {"as", RLIMIT_AS}, {"fsize", RLIMIT_FSIZE}, {"nproc", RLIMIT_NPROC},
        {"nofile", RLIMIT_NOFILE}, {"core", RLIMIT_CORE}, {"stack", RLIMIT_STACK},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0) return table[i].resource;
    setup_failed("unknown rlimit %s", name);
    return -1;
}

static void write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) setup_failed("open %s: %s", path, strerror(errno));
    ssize_t len = (ssize_t)strlen(text);
    if (write(fd, text, (size_t)len) != len) setup_failed("write %s: %s", path, strerror(errno));
    close(fd);
}

static void stage(const char *dir, struct mount_item *items, int count, long long uid, long long gid) {
    if (unshare(CLONE_NEWNS) != 0) setup_failed("unshare(CLONE_NEWNS): %s", strerror(errno));
    if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        setup_failed("make mounts private: %s", strerror(errno));
    /* Open every source before the tmpfs covers DIR (a source below DIR would be hidden) and
       after unshare (a bind must come from a mount of our own namespace). Opened as root:
       the run's uid needs no search permission on the harness's private folders. */
    for (int i = 0; i < count; i++) {
        if (items[i].kind == 't') continue;
        items[i].fd = open(items[i].src, O_PATH | O_CLOEXEC | O_NOFOLLOW);
        if (items[i].fd < 0) setup_failed("open %s: %s", items[i].src, strerror(errno));
    }
    if (mount("fillit-stage", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=256,mode=0755") != 0)
        setup_failed("mount stage tmpfs on %s: %s", dir, strerror(errno));
    for (int i = 0; i < count; i++) {
        char target[4096], source[64], options[128];
        snprintf(target, sizeof target, "%s/%s", dir, items[i].name);
        if (items[i].kind == 't') {
            if (mkdir(target, 0700) != 0) setup_failed("mkdir %s: %s", target, strerror(errno));
            snprintf(options, sizeof options, "size=%lld,mode=%llo,uid=%lld,gid=%lld", items[i].size,
                     items[i].mode, uid < 0 ? 0 : uid, gid < 0 ? 0 : gid);
            if (mount("fillit-tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
                setup_failed("mount tmpfs %s: %s", target, strerror(errno));
            continue;
        }
        struct stat st;
        if (fstat(items[i].fd, &st) != 0) setup_failed("stat %s: %s", items[i].src, strerror(errno));
        if (S_ISDIR(st.st_mode)) {
            if (mkdir(target, 0700) != 0) setup_failed("mkdir %s: %s", target, strerror(errno));
        } else {
            int made = open(target, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
            if (made < 0) setup_failed("create %s: %s", target, strerror(errno));
            close(made);
        }
        snprintf(source, sizeof source, "/proc/self/fd/%d", items[i].fd);
        if (mount(source, target, NULL, MS_BIND, NULL) != 0)
            setup_failed("bind %s: %s", items[i].src, strerror(errno));
        unsigned long flags = MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV;
        if (items[i].kind == 'r') flags |= MS_RDONLY;
        if (mount(NULL, target, NULL, flags, NULL) != 0)
            setup_failed("remount %s: %s", items[i].src, strerror(errno));
        close(items[i].fd);
    }
    if (mount(NULL, dir, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0)
        setup_failed("remount stage read-only: %s", strerror(errno));
}

int main(int argc, char **argv) {
    const char *cgroups[MAX_ITEMS];
    struct mount_item mounts[MAX_ITEMS];
    struct rlimit_item limits[MAX_ITEMS];
    int n_cgroups = 0, n_mounts = 0, n_limits = 0, inner = 0, final = 0, pdeathsig = 0, no_new_privs = 0;
    long long uid = -1, gid = -1;
    const char *stage_dir = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *opt = argv[i];
        int left = argc - i - 1;
#define NEED(k) do { if (left < (k)) setup_failed("%s needs %d value(s)", opt, (k)); } while (0)
        if (strcmp(opt, "--status-fd") == 0) { NEED(1); status_fd = (int)number(argv[++i]); }
        else if (strcmp(opt, "--fd") == 0) {
            NEED(2);
            int from = (int)number(argv[i + 1]), to = (int)number(argv[i + 2]);
            if (to == status_fd) setup_failed("--fd %d: that is the status fd", to);
            if (dup2(from, to) < 0) setup_failed("dup2(%d, %d): %s", from, to, strerror(errno));
            if (from != to) close(from);
            i += 2;
        }
        else if (strcmp(opt, "--cgroup-procs") == 0) {
            NEED(1); if (n_cgroups == MAX_ITEMS) setup_failed("too many cgroups"); cgroups[n_cgroups++] = argv[++i];
        }
        else if (strcmp(opt, "--stage") == 0) { NEED(1); stage_dir = argv[++i]; }
        else if (strcmp(opt, "--ro") == 0 || strcmp(opt, "--rw") == 0) {
            NEED(2); if (n_mounts == MAX_ITEMS) setup_failed("too many mounts");
            mounts[n_mounts++] = (struct mount_item){opt[2] == 'r' && opt[3] == 'o' ? 'r' : 'w', argv[i + 1], argv[i + 2], 0, 0, -1};
            i += 2;
        }
        else if (strcmp(opt, "--tmpfs") == 0) {
            NEED(3); if (n_mounts == MAX_ITEMS) setup_failed("too many mounts");
            mounts[n_mounts++] = (struct mount_item){'t', NULL, argv[i + 1], number(argv[i + 2]),
                                                     strtoll(argv[i + 3], NULL, 8), -1};
            i += 3;
        }
        else if (strcmp(opt, "--uid") == 0) { NEED(1); uid = number(argv[++i]); }
        else if (strcmp(opt, "--gid") == 0) { NEED(1); gid = number(argv[++i]); }
        else if (strcmp(opt, "--rlimit") == 0) {
            NEED(3); if (n_limits == MAX_ITEMS) setup_failed("too many rlimits");
            limits[n_limits++] = (struct rlimit_item){resource_named(argv[i + 1]), number(argv[i + 2]), number(argv[i + 3])};
            i += 3;
        }
        else if (strcmp(opt, "--no-new-privs") == 0) no_new_privs = 1;
        else if (strcmp(opt, "--pdeathsig") == 0) pdeathsig = 1;
        else if (strcmp(opt, "--final") == 0) final = 1;
        else if (strcmp(opt, "--inner") == 0) inner = final = 1;
        else setup_failed("unknown option %s", opt);
    }
    if (i >= argc - 1) setup_failed("usage: fillit-jail-exec [OPTION...] -- PROGRAM [ARG...]");
    char **program = argv + i + 1;

    if (!inner) {
        char pid[32];
        snprintf(pid, sizeof pid, "%d\n", (int)getpid());
        for (int k = 0; k < n_cgroups; k++) write_file(cgroups[k], pid);
        if (stage_dir != NULL) stage(stage_dir, mounts, n_mounts, uid, gid);
        else if (n_mounts) setup_failed("--ro/--rw/--tmpfs need --stage");
        if (gid >= 0) {
            if (setgroups(0, NULL) != 0) setup_failed("setgroups: %s", strerror(errno));
            if (setresgid((gid_t)gid, (gid_t)gid, (gid_t)gid) != 0) setup_failed("setresgid: %s", strerror(errno));
        }
        if (uid >= 0 && setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) != 0)
            setup_failed("setresuid: %s", strerror(errno));
        if (pdeathsig) {
            if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) setup_failed("pdeathsig: %s", strerror(errno));
            if (getppid() == 1) setup_failed("the harness is gone");
        }
    }
    if (no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) setup_failed("no_new_privs: %s", strerror(errno));
    for (int k = 0; k < n_limits; k++) {
        struct rlimit r = {(rlim_t)limits[k].soft, (rlim_t)limits[k].hard};
        if (setrlimit(limits[k].resource, &r) != 0) setup_failed("setrlimit: %s", strerror(errno));
    }
    /* The last launcher of the chain (the inner one, or this one without bubblewrap) says
       the program starts; the status fd then closes on exec, so the harness sees EOF. */
    if (final && status_fd >= 0) {
        if (write(status_fd, "S", 1) != 1) setup_failed("status: %s", strerror(errno));
        if (fcntl(status_fd, F_SETFD, FD_CLOEXEC) != 0) setup_failed("status: %s", strerror(errno));
    }
    /* ETXTBSY: another thread of the harness forked while it was writing a private copy of
       the program; that child holds the write descriptor only until its own exec. */
    for (int tries = 0; tries < 400; tries++) {
        execv(program[0], program);
        if (errno != ETXTBSY) break;
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    int code = errno == ENOENT ? 127 : 126;
    if (final) {
        char buf[600];
        int n = snprintf(buf, sizeof buf, "E%s: %s\n", program[0], strerror(errno));
        if (status_fd >= 0 && n > 0 && write(status_fd, buf, (size_t)n) < 0) { /* reported below */ }
        fprintf(stderr, "%s: %s\n", program[0], strerror(errno));
        return code;
    }
    setup_failed("exec %s: %s", program[0], strerror(errno));
    return 125;
}
