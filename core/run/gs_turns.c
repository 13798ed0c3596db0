/* SPDX-License-Identifier: MIT */
#include "gs_turns.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct gs_turns {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int n;
    unsigned char *ready, *ended;
};

int gs_turns_open(struct gs_turns **out, int n, struct gs_err *e)
{
    struct gs_turns *t = calloc(1, sizeof *t);
    *out = NULL;
    if (t)
        t->ready = calloc((size_t)(n > 0 ? n : 1), 2);
    if (!t || !t->ready) {
        free(t);
        return gs_err_set(e, GS_NOMEM, "out of memory");
    }
    t->ended = t->ready + n;
    t->n = n;
    if (pthread_mutex_init(&t->mu, NULL) != 0) {
        free(t->ready);
        free(t);
        return gs_err_set(e, GS_NOMEM, "cannot make a mutex for the devices' turns");
    }
    if (pthread_cond_init(&t->cv, NULL) != 0) {
        pthread_mutex_destroy(&t->mu);
        free(t->ready);
        free(t);
        return gs_err_set(e, GS_NOMEM, "cannot make a condition for the devices' turns");
    }
    *out = t;
    return GS_OK;
}

void gs_turns_close(struct gs_turns *t)
{
    if (!t)
        return;
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    free(t->ready);
    free(t);
}

static void mark(struct gs_turns *t, int i, int ended)
{
    if (!t || i < 0 || i >= t->n)
        return;
    pthread_mutex_lock(&t->mu);
    t->ready[i] = 1;
    if (ended)
        t->ended[i] = 1;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

void gs_turns_ready(struct gs_turns *t, int i)
{
    mark(t, i, 0);
}

void gs_turns_end(struct gs_turns *t, int i)
{
    mark(t, i, 1);
}

int gs_turns_last(const struct gs_turns *t, int i)
{
    return !t || i >= t->n - 1;
}

static int my_turn(const struct gs_turns *t, int i)
{
    for (int k = 0; k < t->n; ++k)
        if (!t->ready[k] || (k < i && !t->ended[k]))
            return 0;
    return 1;
}

void gs_turns_wait(struct gs_turns *t, int i)
{
    if (!t || i < 0 || i >= t->n)
        return;
    pthread_mutex_lock(&t->mu);
    while (!my_turn(t, i))
        pthread_cond_wait(&t->cv, &t->mu);
    pthread_mutex_unlock(&t->mu);
}
