/* SPDX-License-Identifier: MIT */
/* The worker's system-call filter alone (core/base/gs_seccomp.c), in
 * children of this test: a thread started before the filter is installed is
 * under it too (TSYNC); a call of another architecture (x32's numbers,
 * i386's int 0x80) kills the process at once; TIOCSTI on a pty this test
 * made pushes nothing; the RUNTIME form still kills sockets. Each case runs
 * in a child, whose end (signal or status) is the result. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "gs_seccomp.h"
#include "gs_status.h"

static int install(enum gs_seccomp_profile p)
{
    char why[300];
    const int fds[] = {1, 2};
    if (gs_seccomp_install(p, fds, 2, why, sizeof why) != GS_OK) {
        fprintf(stderr, "install: %s\n", why);
        _exit(90);
    }
    return 0;
}

static volatile int go;

static void *late_socket(void *arg)
{
    (void)arg;
    while (!go)
        usleep(1000);
    socket(AF_INET, SOCK_STREAM, 0); /* SIGSYS here when the filter reached this thread */
    _exit(0);
}

static void thread_before(void)
{
    pthread_t t;
    pthread_create(&t, NULL, late_socket, NULL);
    install(GS_SECCOMP_LOADER);
    go = 1;
    pthread_join(t, NULL);
    _exit(0);
}

static void x32_call(void)
{
    install(GS_SECCOMP_LOADER);
    syscall(0x40000000L | SYS_getpid);
    _exit(0);
}

static void int80_call(void)
{
    install(GS_SECCOMP_LOADER);
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory"); /* i386 getpid */
    _exit(0);
}

static void runtime_socket(void)
{
    install(GS_SECCOMP_RUNTIME);
    socket(AF_INET, SOCK_STREAM, 0);
    _exit(0);
}

static int pty_slave = -1;

static void tiocsti(void)
{
    install(GS_SECCOMP_RUNTIME);
    const char c = 'x';
    const int rc = ioctl(pty_slave, TIOCSTI, &c);
    _exit(rc == -1 && errno == EPERM ? 0 : 3);
}

/* The child's end: "SIGSYS", "exit N". */
static void run(const char *name, void (*fn)(void), const char *want, int *failed)
{
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        fn();
    }
    int st = 0;
    waitpid(pid, &st, 0);
    char got[32];
    if (WIFSIGNALED(st))
        snprintf(got, sizeof got, "%s", WTERMSIG(st) == SIGSYS ? "SIGSYS" : strsignal(WTERMSIG(st)));
    else
        snprintf(got, sizeof got, "exit %d", WEXITSTATUS(st));
    const int ok = strcmp(got, want) == 0;
    printf("%s %s: %s (want %s)\n", ok ? "ok" : "FAIL", name, got, want);
    *failed |= !ok;
}

int main(void)
{
    if (!gs_seccomp_available()) {
        printf("SKIPPED: no libseccomp in this build\n");
        return 77;
    }
    int failed = 0, master = -1;
    if (openpty(&master, &pty_slave, NULL, NULL, NULL) != 0) {
        perror("openpty");
        return 1;
    }
    struct termios raw;
    tcgetattr(pty_slave, &raw);
    cfmakeraw(&raw);
    tcsetattr(pty_slave, TCSANOW, &raw);
    run("a thread started before the filter", thread_before, "SIGSYS", &failed);
    run("an x32 system call", x32_call, "SIGSYS", &failed);
    run("an i386 int 0x80", int80_call, "SIGSYS", &failed);
    run("a socket under the runtime filter", runtime_socket, "SIGSYS", &failed);
    run("TIOCSTI on a pty", tiocsti, "exit 0", &failed);
    /* Nothing reached the pty's input. */
    fcntl(pty_slave, F_SETFL, O_NONBLOCK);
    char buf[16];
    const ssize_t got = read(pty_slave, buf, sizeof buf);
    printf("%s nothing reached the pty (%zd bytes)\n", got > 0 ? "FAIL" : "ok", got > 0 ? got : 0);
    failed |= got > 0;
    return failed;
}
