/* SPDX-License-Identifier: MIT */
#include "gs_worker_msg.h"

#include <stdlib.h>
#include <string.h>

#include "gs_io.h"

/* ---- framing ------------------------------------------------------------- */

int gs_wk_send(int fd, uint32_t type, uint32_t seq, const void *body, size_t len,
               const char *const *strs, int nstrs)
{
    size_t total = len;
    for (int i = 0; i < nstrs; ++i)
        total += strlen(strs[i]) + 1;
    if (total > WK_MAX_PAYLOAD)
        return -1;
    const struct msg_head h = {WK_MAGIC, type, seq, (uint32_t)total};
    if (gs_write_full(fd, &h, sizeof h, 1) != 0 || (len && gs_write_full(fd, body, len, 1) != 0))
        return -1;
    for (int i = 0; i < nstrs; ++i)
        if (gs_write_full(fd, strs[i], strlen(strs[i]) + 1, 1) != 0)
            return -1;
    return 0;
}

char *gs_wk_read(int fd, struct msg_head *h)
{
    if (gs_read_full(fd, h, sizeof *h) != (ssize_t)sizeof *h || h->magic != WK_MAGIC || h->len > WK_MAX_PAYLOAD)
        return NULL;
    char *body = malloc((size_t)h->len + 1);
    if (!body || gs_read_full(fd, body, h->len) != (ssize_t)h->len) {
        free(body);
        return NULL;
    }
    body[h->len] = '\0';
    return body;
}

const char *gs_wk_string_at(const char *body, size_t len, size_t fixed, int index)
{
    size_t at = fixed;
    for (int i = 0; i < index && at < len; ++i)
        at += strnlen(body + at, len - at) + 1;
    return at < len ? body + at : "";
}
