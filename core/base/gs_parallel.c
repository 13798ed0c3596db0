/* SPDX-License-Identifier: MIT */
#include "gs_parallel.h"

#include <pthread.h>
#include <stdlib.h>

#include "gs_sysmem.h"

#define GS_POOL_MAX 64u

struct gs_pool {
    pthread_mutex_t lock;
    pthread_cond_t work;  /* a job started, or shutdown */
    pthread_cond_t done;  /* the last part of a job finished */
    pthread_t threads[GS_POOL_MAX];
    unsigned nthreads;
    gs_part_fn fn;
    void *ctx;
    unsigned parts, next, finished;
    int busy;     /* a job was started and not waited for */
    int shutdown;
};

static void *worker(void *arg)
{
    struct gs_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->shutdown && p->next >= p->parts)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->shutdown)
            break;
        const unsigned part = p->next++;
        gs_part_fn fn = p->fn;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->lock);
        fn(ctx, part);
        pthread_mutex_lock(&p->lock);
        if (++p->finished == p->parts)
            pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int gs_pool_open(struct gs_pool **pool, unsigned threads, struct gs_err *e)
{
    struct gs_pool *p = calloc(1, sizeof *p);
    *pool = NULL;
    if (!p)
        return gs_err_set(e, GS_NOMEM, "out of memory for a thread pool");
    if (threads == 0)
        threads = gs_host_cpus();
    if (threads > GS_POOL_MAX)
        threads = GS_POOL_MAX;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    for (; p->nthreads < threads; ++p->nthreads)
        if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) != 0)
            break;
    if (p->nthreads == 0) {
        gs_pool_close(p);
        return gs_err_set(e, GS_NOMEM, "cannot start a worker thread");
    }
    *pool = p;
    return GS_OK;
}

void gs_pool_close(struct gs_pool *p)
{
    if (!p)
        return;
    gs_pool_wait(p);
    pthread_mutex_lock(&p->lock);
    p->shutdown = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->nthreads; ++i)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

unsigned gs_pool_threads(const struct gs_pool *p)
{
    return p->nthreads;
}

void gs_pool_start(struct gs_pool *p, gs_part_fn fn, void *ctx, unsigned parts)
{
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->parts = parts;
    p->next = 0;
    p->finished = 0;
    p->busy = parts > 0;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
}

void gs_pool_wait(struct gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->busy && p->finished < p->parts)
        pthread_cond_wait(&p->done, &p->lock);
    p->busy = 0;
    pthread_mutex_unlock(&p->lock);
}

void gs_pool_run(struct gs_pool *p, gs_part_fn fn, void *ctx, unsigned parts)
{
    gs_pool_start(p, fn, ctx, parts);
    gs_pool_wait(p);
}
