/* SPDX-License-Identifier: MIT */
/* MAP_ANONYMOUS (user kernels' shared output) is not POSIX. */
#define _DEFAULT_SOURCE

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_common.h"
#include "gs_elf.h"
#include "gs_host_kernels.h"
#include "gs_host_private.h"
#include "gs_proc.h"

/* ---- user kernels -------------------------------------------------------- */

/* `gridstride check` on the host, for the portable dialect only: the file is
 * compiled after prelude_host.h by the system C compiler (GRIDSTRIDE_CC, else
 * CC, else cc) into a shared object that is loaded with dlopen(). This is
 * optional: without a compiler the host backend says so and runs no user
 * kernel. Every launch runs in a child process that writes the output into
 * shared memory, so that a kernel that faults ends the child, not gridstride,
 * and is reported as faulted, as on a GPU. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern const char gs_host_prelude[]; /* kernels/prelude_host.h, embedded */
extern char **environ;

typedef void (*host_user_fn)(const struct gs_host_thread *, const float *, const float *, float *,
                             gs_size);

struct gs_user_kernel {
    void *lib;
    host_user_fn fn;
};

/* After the prelude: user kernels are exported, and the build hides every
 * other symbol, so that dlsym() finds kernels only. With GS_USER_ENTRY
 * defined, the file compiles only when the entry has the contract's type. */
static const char host_user_head[] =
    "\n#undef GS_KERNEL\n#define GS_KERNEL __attribute__((visibility(\"default\")))\n";
static const char host_user_tail[] =
    "#ifdef GS_USER_ENTRY\n"
    "typedef void gs_user_fn(const struct gs_host_thread *, const float *, const float *, "
    "float *, gs_size);\n"
    "_Static_assert(_Generic(&GS_USER_ENTRY, gs_user_fn *: 1, default: 0), \"signature\");\n"
    "#endif\n";

struct host_build {
    char dir[PATH_MAX];
    char src[PATH_MAX + 16], so[PATH_MAX + 16], log[PATH_MAX + 16];
    const char *cc;
};

static const char *host_cc(void)
{
    const char *cc = getenv("GRIDSTRIDE_CC");
    if (!cc || !*cc)
        cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

/* Run argv with stdout and stderr into hb->log; *code is its exit status.
 * GS_UNSUPPORTED when the program cannot be started at all. */
static int host_tool(const struct host_build *hb, char *const argv[], int *code, struct gs_err *e)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status = 0;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, hb->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    /* CC may be a command with options, as make takes it ("gcc -O0"): its
     * words, split at blanks (no quoting), come first. */
    char words[512], *args[64], *save = NULL;
    int n = 0;
    gs_strlcpy(words, argv[0], sizeof words);
    for (char *w = strtok_r(words, " \t", &save); w && n < 32; w = strtok_r(NULL, " \t", &save))
        args[n++] = w;
    for (int i = 1; argv[i] && n < 63; ++i)
        args[n++] = argv[i];
    args[n] = NULL;
    const int rc = n && args[0] ? posix_spawnp(&pid, args[0], &fa, NULL, args, environ) : ENOENT;
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return gs_err_set(e, GS_UNSUPPORTED,
                          "host: no C compiler to build portable kernels at run time ('%.*s%s': "
                          "%s); install gcc, or name one with CC or GRIDSTRIDE_CC",
                          GS_ECHO(n ? args[0] : argv[0]), strerror(rc));
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return GS_OK;
}

static char *host_read_log(const struct host_build *hb)
{
    FILE *f = fopen(hb->log, "r");
    char *text = calloc(1, 65536);
    if (f && text)
        text[fread(text, 1, 65535, f)] = '\0';
    if (f)
        fclose(f);
    return text;
}

/* The prelude, the file and the signature check, into hb->src. */
static int host_write_source(const struct host_build *hb, const struct gs_user_source *src,
                             struct gs_err *e)
{
    char *prelude = malloc(strlen(gs_host_prelude) + sizeof host_user_head);
    char *text = NULL;
    if (prelude) {
        strcpy(prelude, gs_host_prelude);
        strcat(prelude, host_user_head);
        text = gs_user_text(src, prelude);
    }
    FILE *f = text ? fopen(hb->src, "w") : NULL;
    const int ok = f && fputs(text, f) >= 0 && fputs(host_user_tail, f) >= 0;
    const int closed = f && fclose(f) == 0;
    free(prelude);
    free(text);
    if (!text)
        return gs_err_set(e, GS_NOMEM, "host: out of memory");
    if (!ok || !closed)
        return gs_err_set(e, GS_IO, "host: cannot write %s: %s", hb->src, strerror(errno));
    return GS_OK;
}

/* `cc --version`'s first line names the compiler in reports. */
static int host_compiler_name(const struct host_build *hb, struct gs_build_info *info,
                              struct gs_err *e)
{
    char *argv[] = {(char *)hb->cc, "--version", NULL};
    int code = 0;
    int st = host_tool(hb, argv, &code, e);
    if (st != GS_OK)
        return st;
    char *text = host_read_log(hb);
    if (text)
        text[strcspn(text, "\n")] = '\0';
    snprintf(info->compiler, sizeof info->compiler, "%s -std=c11 -O2 [%s], %s", hb->cc,
             text && *text ? text : "version unknown",
             gs_proc_in_worker() ? "run in check's sandboxed worker"
                                 : "each launch in a child process");
    free(text);
    return GS_OK;
}

/* The file into hb->so; with the entry's name defined, the signature check
 * of host_user_tail is compiled in. *code is the compiler's exit status. */
static int host_compile(const struct host_build *hb, const struct gs_user_source *src,
                        int with_entry, int *code, struct gs_build_info *info,
                        struct gs_err *e)
{
    char define[160];
    snprintf(define, sizeof define, "-DGS_USER_ENTRY=%s", src->entry);
    /* -nostartfiles: no crt object adds its own initialisers, so that any
     * the object has are the file's (host_load_time_code). */
    char *argv[] = {(char *)hb->cc, "-std=c11", "-O2", "-fPIC", "-shared",
                    "-nostartfiles", "-fvisibility=hidden", "-o", (char *)hb->so,
                    (char *)hb->src, with_entry ? define : NULL, NULL};
    int st = host_tool(hb, argv, code, e);
    if (st != GS_OK)
        return st;
    info->log = host_read_log(hb);
    if (*code != 0 && !with_entry)
        return gs_err_set(e, GS_BUILD, "%s does not compile as C11 with the portable prelude",
                          src->path);
    return GS_OK;
}

/* The object is read before it is loaded: code that the loader would run by
 * itself (a constructor, a destructor, an IFUNC resolver) runs before any
 * launch, beside the worker's channel; refused. The source rules refuse the
 * attributes that make it; this holds whatever the compiler was given. */
#define HOST_MAX_OBJECT (64u << 20)

static int host_load_time_code(const struct host_build *hb, const struct gs_user_source *src,
                               struct gs_err *e)
{
    FILE *f = fopen(hb->so, "rb");
    unsigned char *obj = malloc(HOST_MAX_OBJECT);
    const size_t len = f && obj ? fread(obj, 1, HOST_MAX_OBJECT, f) : 0;
    char why[200] = "";
    int r = -1;
    if (f)
        fclose(f);
    if (!obj)
        return gs_err_set(e, GS_NOMEM, "host: out of memory");
    if (len > 0 && len < HOST_MAX_OBJECT)
        r = gs_elf_load_time_code(obj, len, why, sizeof why);
    free(obj);
    if (r > 0)
        return gs_err_set(e, GS_USAGE, "%s: the compiled kernel is not loaded: %s; a kernel "
                                       "file holds the kernel and what it calls, nothing that "
                                       "runs by itself", src->path, why);
    if (r < 0)
        return gs_err_set(e, GS_API, "host: the compiled kernel cannot be read before it is "
                                     "loaded (%s)", len ? why : "empty or over 64 MiB");
    return GS_OK;
}

/* typed: the object was built with the entry's type check of
 * host_user_tail in. Where it was not (the file compiled only without it),
 * the entry has another type, or is missing: that answer comes after the
 * entry's (dlsym), as a missing entry also fails the typed build. */
static int host_load(const struct host_build *hb, const struct gs_user_source *src, int typed,
                     struct gs_user_kernel *k, struct gs_err *e)
{
    char why[400] = "";
    const int st = host_load_time_code(hb, src, e);
    if (st != GS_OK)
        return st;
    if (gs_proc_before_user_code(why, sizeof why) != GS_OK)
        return gs_err_set(e, GS_UNSUPPORTED, "host: the kernel is not loaded: %s", why);
    k->lib = dlopen(hb->so, RTLD_NOW | RTLD_LOCAL);
    if (!k->lib)
        return gs_err_set(e, GS_API, "host: dlopen of the compiled kernel failed: %s", dlerror());
    void *sym = dlsym(k->lib, src->entry);
    if (!sym)
        return gs_user_no_entry(src, NULL, e);
    memcpy(&k->fn, &sym, sizeof k->fn); /* POSIX: a function's address as void * */
    return typed ? GS_OK : gs_user_bad_params(src, -1, -1, e);
}

void host_user_free(struct gs_device *dev, struct gs_user_kernel *k)
{
    (void)dev;
    if (k && k->lib)
        dlclose(k->lib);
    free(k);
}

int host_user_build(struct gs_device *dev, const struct gs_user_source *src,
                           struct gs_user_kernel **out, struct gs_build_info *info,
                           struct gs_err *e)
{
    struct host_build hb = {.cc = host_cc()};
    const char *tmp = getenv("TMPDIR");
    if (src->dialect != GS_DIALECT_PORTABLE)
        return gs_err_set(e, GS_UNSUPPORTED, "host runs the portable dialect (.gs) only");
    if ((size_t)snprintf(hb.dir, sizeof hb.dir, "%s/gridstride-XXXXXX",
                         tmp && *tmp ? tmp : "/tmp") >= sizeof hb.dir)
        return gs_err_set(e, GS_USAGE, "host: TMPDIR is longer than %u bytes; point it at a "
                                       "shorter folder", (unsigned)sizeof hb.dir - 20);
    if (!mkdtemp(hb.dir))
        return gs_err_set(e, GS_IO, "host: cannot create a folder for the build: %s",
                          strerror(errno));
    snprintf(hb.src, sizeof hb.src, "%s/kernel.c", hb.dir);
    snprintf(hb.so, sizeof hb.so, "%s/kernel.so", hb.dir);
    snprintf(hb.log, sizeof hb.log, "%s/log.txt", hb.dir);
    struct gs_user_kernel *k = calloc(1, sizeof *k);
    int st = k ? GS_OK : gs_err_set(e, GS_NOMEM, "host: out of memory");
    /* One compile with the entry's type check in, for a file that is
     * right; where that fails, the file alone, to tell its own errors from
     * a missing entry or one of another type (host_load). */
    int code = 0;
    if (st == GS_OK && (st = host_write_source(&hb, src, e)) == GS_OK &&
        (st = host_compiler_name(&hb, info, e)) == GS_OK &&
        (st = host_compile(&hb, src, 1, &code, info, e)) == GS_OK) {
        if (code == 0) {
            st = host_load(&hb, src, 1, k, e);
        } else {
            free(info->log);
            info->log = NULL;
            if ((st = host_compile(&hb, src, 0, &code, info, e)) == GS_OK)
                st = host_load(&hb, src, 0, k, e);
        }
    }
    unlink(hb.src);
    unlink(hb.so); /* a loaded object stays mapped */
    unlink(hb.log);
    rmdir(hb.dir);
    if (st != GS_OK) {
        host_user_free(dev, k);
        return st;
    }
    *out = k;
    return GS_OK;
}

/* The child: every thread of the launch, one after another. */
static void host_user_run(const struct gs_launch *l, float *out, pid_t parent)
{
    struct gs_host_thread t = {0, (unsigned)l->block, (unsigned)l->grid, 0, 0};
    const uint64_t threads = l->grid * l->block;
    const struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core); /* a fault is reported, not dumped */
#ifdef __linux__
    /* A kernel that never finishes must not outlive gridstride when it is
     * stopped (Ctrl-C reaches the child too; kill or a timeout do not). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
#else
    (void)parent;
#endif
    for (uint64_t g = 0; g < threads; ++g) {
        t.block_idx = (unsigned)(g / l->block);
        t.thread_idx = (unsigned)(g % l->block);
        l->user->fn(&t, view_of(l->a), view_of(l->b), (float *)((char *)out + l->out->front), l->n);
    }
}

static int host_user_wait(pid_t pid, struct gs_err *e)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status))
        return gs_err_set(e, GS_FAULT,
                          "host: the kernel's process was killed by signal %d (%s): it touched "
                          "memory outside its buffers, or was stopped",
                          WTERMSIG(status), strsignal(WTERMSIG(status)));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return gs_err_set(e, GS_FAULT, "host: the kernel's process ended with status %d",
                          WEXITSTATUS(status));
    return GS_OK;
}

/* The poison of the count: a NaN that no sum of the inputs is. */
#define HOST_COUNT_POISON 0x7FC0DEADu

int host_user_count(struct gs_device *dev, const struct gs_launch *l, uint32_t *count,
                    uint32_t *first, uint32_t *last, struct gs_err *e)
{
    char why[160];
    if (!host_predicts_accept(dev, l, why, sizeof why))
        return gs_err_set(e, GS_USAGE, "host: the count's launch is refused: %s", why);
    if (!gs_proc_sandboxed())
        return gs_err_set(e, GS_UNSUPPORTED, "host: a user kernel's writes are counted only in "
                                             "check's sandboxed worker");
    uint32_t *out = view_of(l->out);
    struct gs_host_thread t = {0, (unsigned)l->block, (unsigned)l->grid, 0, 0};
    memset(count, 0, (size_t)l->n * sizeof *count);
    for (uint64_t g = 0; g < l->grid * l->block; ++g) {
        for (uint64_t i = 0; i < l->n; ++i)
            out[i] = HOST_COUNT_POISON;
        t.block_idx = (unsigned)(g / l->block);
        t.thread_idx = (unsigned)(g % l->block);
        l->user->fn(&t, view_of(l->a), view_of(l->b), view_of(l->out), l->n);
        for (uint64_t i = 0; i < l->n; ++i) {
            if (out[i] == HOST_COUNT_POISON)
                continue;
            if (count[i]++ == 0)
                first[i] = (uint32_t)g;
            last[i] = (uint32_t)g;
        }
    }
    return GS_OK;
}

int host_user_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                            struct gs_launch_result *r, struct gs_err *e)
{
    char why[160];
    if (!host_predicts_accept(dev, l, why, sizeof why)) {
        r->api_code = -1;
        gs_strlcpy(r->api_error, "host: invalid launch", sizeof r->api_error);
        gs_strlcpy(r->api_message, why, sizeof r->api_message);
        return GS_OK;
    }
    /* Timed by the clock of host_launch(), around the threads' work only. */
    if (gs_proc_sandboxed()) {
        /* check's worker is the sandbox: the kernel runs in it, and a fault
         * ends it, which check reports. */
        struct gs_host_thread t = {0, (unsigned)l->block, (unsigned)l->grid, 0, 0};
        const double t0 = timed ? gs_common_clock_ms() : 0.0;
        for (uint64_t g = 0; g < l->grid * l->block; ++g) {
            t.block_idx = (unsigned)(g / l->block);
            t.thread_idx = (unsigned)(g % l->block);
            l->user->fn(&t, view_of(l->a), view_of(l->b), view_of(l->out), l->n);
        }
        r->ms = timed ? gs_common_clock_ms() - t0 : 0.0;
        r->accepted = 1;
        return GS_OK;
    }
    const size_t bytes = l->out->bytes ? (size_t)l->out->bytes : 1;
    float *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED)
        return gs_err_set(e, GS_NOMEM, "host: cannot map %zu bytes: %s", bytes, strerror(errno));
    memcpy(shared, data_of(l->out), (size_t)l->out->bytes);
    const pid_t parent = getpid();
    const double t0 = timed ? gs_common_clock_ms() : 0.0;
    const pid_t pid = fork();
    if (pid == 0) {
        host_user_run(l, shared, parent);
        _exit(0);
    }
    int st = pid < 0 ? gs_err_set(e, GS_API, "host: fork: %s", strerror(errno))
                     : host_user_wait(pid, e);
    if (st == GS_OK) {
        r->ms = timed ? gs_common_clock_ms() - t0 : 0.0; /* with the fork, unlike launch() */
        memcpy(data_of(l->out), shared, (size_t)l->out->bytes);
        r->accepted = 1;
    }
    munmap(shared, bytes);
    return st;
}

