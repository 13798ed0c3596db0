/* SPDX-License-Identifier: MIT */
/* Whole-buffer reads and writes on a file descriptor: a short read or write
 * goes on from where it stopped, and a signal that interrupts the call
 * (EINTR) restarts it. One pair for every caller: the output files, the
 * check worker's channel, the kernel file that check reads. */
#ifndef GS_IO_H
#define GS_IO_H

#include <stddef.h>
#include <sys/types.h>

/* Writes all n bytes of p; 0, or -1 with errno set (0 bytes written by the
 * system is an error, EIO). With nosignal set, fd is a socket and a peer that
 * has gone gives EPIPE instead of SIGPIPE (send with MSG_NOSIGNAL). */
int gs_write_full(int fd, const void *p, size_t n, int nosignal);

/* Reads until n bytes are in p or the file ends: the number read (less than n
 * only at the end of the file), or -1 with errno set. */
ssize_t gs_read_full(int fd, void *p, size_t n);

/* The folder of gridstride's caches of its own kernels (never a user's):
 * GRIDSTRIDE_CACHE (a folder, or "off"), else $XDG_CACHE_HOME/gridstride,
 * else $HOME/.cache/gridstride. 1 with the path in dir, 0 when there is none
 * (off, or no absolute folder to name). It need not exist. */
int gs_cache_dir(char *dir, size_t size);

#endif
