/* SPDX-License-Identifier: MIT */
#include "gs_session.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gs_registry.h"

/* One line for stderr; a backend's notice may carry a driver's control
 * characters, escaped here as in every message. */
static void note(struct gs_session *s, const char *fmt, const char *a, const char *b)
{
    char line[700];
    snprintf(line, sizeof line, fmt, a, b); /* a, b may point into *s */
    if (s->nnotes < (int)(sizeof s->notes / sizeof s->notes[0]))
        gs_escape_controls(s->notes[s->nnotes++], sizeof line, line);
}

/* The registered backends --backend names, in the order named. */
static int choose_backends(const char *list, const struct gs_backend **out, int *n,
                           int *explicit_names, struct gs_err *e)
{
    char buf[256], names[128], *items[GS_MAX_BACKENDS * 2];
    int count = 0;
    *n = 0;
    *explicit_names = strcmp(list, "all") != 0;
    if (!*explicit_names) {
        for (int i = 0; i < gs_registry_count() && *n < GS_MAX_BACKENDS; ++i)
            out[(*n)++] = gs_registry_at(i);
        return GS_OK;
    }
    gs_registry_names(names, sizeof names, 1);
    char wanted[160];
    snprintf(wanted, sizeof wanted, "one of %s, a comma list, or all", names);
    int rc = gs_split_list(list, "--backend", wanted, buf, sizeof buf, items,
                           (int)(sizeof items / sizeof items[0]), &count, e);
    for (int i = 0; i < count && rc == GS_OK; ++i) {
        rc = gs_backend_name_check(items[i], "--backend", e);
        const struct gs_backend *b = gs_registry_find(items[i]);
        int dup = 0;
        for (int k = 0; k < *n; ++k)
            dup |= out[k] == b;
        if (rc == GS_OK && !dup && *n < GS_MAX_BACKENDS)
            out[(*n)++] = b;
    }
    return rc;
}

int gs_session_check(const struct gs_cli *cli, struct gs_err *e)
{
    const struct gs_backend *chosen[GS_MAX_BACKENDS];
    int nchosen, explicit_names;
    int rc = gs_require_check(e);
    if (rc == GS_OK)
        rc = choose_backends(cli->backend, chosen, &nchosen, &explicit_names, e);
    if (rc == GS_OK)
        rc = gs_device_selector_check(cli->device, e);
    return rc;
}

/* The backends that allow it (open_any_thread) open in threads of their
 * own, beside the others, which open here one after another: an API's start
 * (a driver's, a platform's) takes a tenth of a second to seconds. A thread
 * that cannot start opens its backend here. */
struct opening {
    const struct gs_backend *b;
    struct gs_opened *o;
};

static void *open_one(void *arg)
{
    const struct opening *op = arg;
    gs_open_backend(op->b, op->o);
    return NULL;
}

static void open_side_by_side(const struct gs_backend **b, struct gs_opened *o, int n)
{
    pthread_t threads[GS_MAX_BACKENDS];
    struct opening ops[GS_MAX_BACKENDS];
    int started[GS_MAX_BACKENDS];
    for (int i = 0; i < n; ++i) {
        ops[i] = (struct opening){b[i], &o[i]};
        started[i] = n > 1 && b[i]->open_any_thread &&
                     pthread_create(&threads[i], NULL, open_one, &ops[i]) == 0;
    }
    for (int i = 0; i < n; ++i)
        if (!started[i])
            open_one(&ops[i]);
    for (int i = 0; i < n; ++i)
        if (started[i])
            pthread_join(threads[i], NULL);
}

int gs_session_open(const struct gs_cli *cli, int want_devices, gs_session_wants wants,
                    const void *wants_ctx, struct gs_session *s, struct gs_err *e)
{
    const struct gs_backend *chosen[GS_MAX_BACKENDS];
    int nchosen, explicit_names;
    memset(s, 0, sizeof *s);
    int rc = gs_session_check(cli, e);
    if (rc == GS_OK)
        rc = choose_backends(cli->backend, chosen, &nchosen, &explicit_names, e);
    if (rc != GS_OK)
        return rc;
    int turned_down = 0;
    const struct gs_backend *open[GS_MAX_BACKENDS];
    for (int i = 0; i < nchosen; ++i) {
        if (!explicit_names && wants && !wants(wants_ctx, chosen[i]) &&
            !gs_backend_required(chosen[i]->name))
            turned_down = 1;
        else
            open[s->nopened++] = chosen[i];
    }
    open_side_by_side(open, s->opened, s->nopened);
    for (int i = 0; i < s->nopened; ++i) {
        struct gs_opened *o = &s->opened[i];
        if (o->notice[0])
            note(s, "%s: %s", o->backend->name, o->notice);
        if (o->status == GS_OK)
            continue;
        if (explicit_names || gs_backend_required(o->backend->name))
            return gs_err_set(e, GS_NO_DEVICE, "%s%s", o->err.msg,
                              explicit_names ? "" : " (GRIDSTRIDE_REQUIRE names it)");
        if (cli->verbose) {
            note(s, "%s skipped: %s", o->backend->name, o->err.msg);
        } else {
            char brief[GS_NOTE_BRIEF];
            gs_session_brief(o->err.msg, brief, sizeof brief - strlen(o->backend->name));
            note(s, "%s skipped: %s", o->backend->name, brief);
        }
    }
    if (!want_devices)
        return GS_OK;
    struct gs_err first = {0};
    const int notes_before = s->nnotes;
    for (int i = 0; i < s->nopened; ++i) {
        struct gs_opened *o = &s->opened[i];
        int n = 0;
        struct gs_err sel_err = {0};
        if (o->status != GS_OK)
            continue;
        rc = gs_select_devices(o, cli->device, s->devs + s->ndevs, GS_MAX_DEVICES - s->ndevs, &n,
                               &sel_err);
        if (rc != GS_OK) {
            /* --device naming one backend's device: the others are skipped. */
            if (!first.msg[0])
                first = sel_err;
            note(s, "%s skipped: %s", o->backend->name, sel_err.msg);
            continue;
        }
        s->ndevs += n;
    }
    if (s->ndevs == 0 && turned_down && !first.msg[0])
        return GS_OK; /* the command that chose the backends says why none runs */
    if (s->ndevs == 0) {
        s->nnotes = notes_before; /* the error below says it all */
        return gs_err_set(e, first.msg[0] ? first.status : GS_NO_DEVICE, "%s",
                          first.msg[0] ? first.msg : "no backend has a usable device");
    }
    return GS_OK;
}

/* The reason's first clause (up to its first ':', ';' or " ("), cut to fit,
 * and where to find the rest. */
void gs_session_brief(const char *why, char *buf, size_t size)
{
    static const char more[] = " (--verbose: why)";
    size_t n = strcspn(why, ":;");
    const char *paren = strstr(why, " (");
    if (paren && (size_t)(paren - why) < n)
        n = (size_t)(paren - why);
    if (size <= sizeof more + 4) {
        gs_strlcpy(buf, "", size);
        return;
    }
    const size_t room = size - sizeof more;
    if (n > room)
        snprintf(buf, size, "%.*s...%s", (int)(room - 3), why, more);
    else
        snprintf(buf, size, "%.*s%s", (int)n, why, n < strlen(why) ? more : "");
}

void gs_session_note(struct gs_session *s, const char *fmt, ...)
{
    va_list ap;
    if (s->nnotes >= (int)(sizeof s->notes / sizeof s->notes[0]))
        return;
    va_start(ap, fmt);
    vsnprintf(s->notes[s->nnotes++], sizeof s->notes[0], fmt, ap);
    va_end(ap);
}

void gs_session_close(struct gs_session *s)
{
    for (int i = 0; i < s->nopened; ++i)
        gs_close_backend(&s->opened[i]);
    s->nopened = 0;
    s->ndevs = 0;
}
