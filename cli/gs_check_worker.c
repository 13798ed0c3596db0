/* SPDX-License-Identifier: MIT */
/* The hidden worker mode of `gridstride check` (core/run/gs_worker.h): run
 * only by check itself, with its channel on descriptor 3 and shared memory on
 * descriptor 4; without them it is an unknown command like any other. */
#include <stdio.h>
#include <sys/stat.h>

#include "gs_check_cmd.h"
#include "gs_counters_run.h"
#include "gs_registry.h"
#include "gs_worker.h"

int gs_check_worker_main(int argc, char **argv)
{
    struct stat chan, shm;
    const struct gs_backend *b = argc == 3 ? gs_registry_find(argv[2]) : NULL;
    if (!b || fstat(3, &chan) != 0 || !S_ISSOCK(chan.st_mode) || fstat(4, &shm) != 0 ||
        !S_ISREG(shm.st_mode)) {
        fprintf(stderr, "gridstride: unknown command '%s'; see gridstride --help\n", argv[1]);
        return 2;
    }
    return gs_worker_serve(b);
}

/* check --compile-only's worker (core/run/gs_worker_compile.c): run only by
 * check, its channel on descriptor 3. */
int gs_check_compile_main(int argc, char **argv)
{
    struct stat chan;
    const struct gs_backend *b = argc == 3 ? gs_registry_find(argv[2]) : NULL;
    if (!b || fstat(3, &chan) != 0 || !S_ISSOCK(chan.st_mode)) {
        fprintf(stderr, "gridstride: unknown command '%s'; see gridstride --help\n", argv[1]);
        return 2;
    }
    return gs_compile_serve(b);
}

/* The counted launch, under CUPTI or Nsight Compute (core/run/gs_counters_run.h):
 * nothing is printed, the exit status says how far it came. */
int gs_check_counters_main(int argc, char **argv)
{
    return gs_counters_worker(argc > 2 ? gs_registry_find(argv[2]) : NULL, argc, argv);
}
