/* SPDX-License-Identifier: MIT */
#include "gs_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int gs_write_full(int fd, const void *p, size_t n, int nosignal)
{
    const char *c = p;
    while (n > 0) {
        const ssize_t w = nosignal ? send(fd, c, n, MSG_NOSIGNAL) : write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        if (w == 0) {
            errno = EIO;
            return -1;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

ssize_t gs_read_full(int fd, void *p, size_t n)
{
    char *c = p;
    size_t got = 0;
    while (got < n) {
        const ssize_t r = read(fd, c + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

int gs_cache_dir(char *dir, size_t size)
{
    const char *set = getenv("GRIDSTRIDE_CACHE");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (set && *set) {
        if (strcmp(set, "off") == 0)
            return 0;
        n = snprintf(dir, size, "%s", set);
    } else if (xdg && *xdg == '/')
        n = snprintf(dir, size, "%s/gridstride", xdg);
    else if (home && *home == '/')
        n = snprintf(dir, size, "%s/.cache/gridstride", home);
    else
        return 0;
    return n > 0 && (size_t)n < size;
}
