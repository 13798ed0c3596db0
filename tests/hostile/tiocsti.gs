/* SPDX-License-Identifier: MIT */
/* A right kernel that types a line into the grader's terminal: TIOCSTI on
 * /dev/tty and on every /dev/pts/N it can open. The runner starts check on a
 * pty it made and reads that pty's input afterwards: nothing may be there.
 * The calls fail (no controlling terminal, another user, the filter): ok. */
int open(const char *path, int flags, ...);
int ioctl(int fd, unsigned long request, ...);
int close(int fd);
static void push(int fd)
{
    const char *line = "echo gridstride-injected\n";
    for (const char *c = line; fd >= 0 && *c; ++c)
        ioctl(fd, 0x5412, c);
    if (fd >= 0)
        close(fd);
}
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    if (GS_GLOBAL_THREAD() == 0) {
        push(open("/dev/tty", 0));
        for (int i = 0; i < 100; ++i) {
            char path[16] = "/dev/pts/";
            int k = 9;
            if (i >= 10)
                path[k++] = (char)('0' + i / 10);
            path[k++] = (char)('0' + i % 10);
            path[k] = '\0';
            push(open(path, 0));
        }
    }
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
