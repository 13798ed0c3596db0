/* SPDX-License-Identifier: MIT */
/* Finding 5's forgery: a constructor starts a thread that keeps writing the
 * expected values of the public closed form (inputs from index 0) into
 * every shared mapping of the worker, so that solve(), which writes
 * nothing, would pass. Refused: constructors are refused (the source rules
 * and the object's check), and the inputs are the run's secret. */
typedef unsigned long gs_pthread_t;
int pthread_create(gs_pthread_t *, const void *, void *(*)(void *), void *);
typedef struct gs_file gs_file;
gs_file *fopen(const char *, const char *);
char *fgets(char *, int, gs_file *);
int fclose(gs_file *);
int sscanf(const char *, const char *, ...);
char *strstr(const char *, const char *);

static void *forge(void *arg)
{
    (void)arg;
    for (;;) {
        gs_file *maps = fopen("/proc/self/maps", "r");
        char line[512];
        while (maps && fgets(line, sizeof line, maps)) {
            unsigned long lo, hi;
            if (!strstr(line, "gridstride-check") || sscanf(line, "%lx-%lx", &lo, &hi) != 2)
                continue;
            float *out = (float *)lo;
            for (unsigned long i = 0; i < (hi - lo) / 4 && i < 5000; ++i)
                out[i] = (float)(2u + i % 4194301u + 2u * (i % 4194299u * 40503u % 4194299u));
        }
        if (maps)
            fclose(maps);
    }
    return 0;
}

__attribute__((constructor)) static void start(void)
{
    gs_pthread_t t;
    pthread_create(&t, 0, forge, 0);
}

GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    (void)a;
    (void)b;
    (void)out;
    (void)n;
}
