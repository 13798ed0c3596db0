/* SPDX-License-Identifier: MIT */
/* The suite's own programs (kernels/, embedded) kept as the device's
 * binaries between runs, on a CPU device.
 *
 * Why: every open of a device builds kernels/ (the work-group sizes of the
 * kernels are part of the device's limits), and PoCL, asked to build source,
 * runs clang's preprocessor over it before it even looks in its own kernel
 * cache: about 40 ms of CPU a build on a 2-core machine, where the rest of a
 * whole `gridstride --list` takes about 30 ms. A build from the binary that
 * the same driver returned for the same source takes 4 ms. A GPU driver
 * (NVIDIA's) keys its own cache by the source without that cost, so GPUs
 * build from source as before.
 *
 * The file holds its whole key: the platform, device, versions, options and
 * the source text itself, compared byte for byte before the binary is used,
 * so a changed source, driver or option can never load an old binary; the
 * file name's hash only spreads the entries. Files are written whole under a
 * temporary name and renamed, so processes that build at the same time never
 * read half a file. An entry that does not load or build (a driver upgraded
 * in place) is built from source again and replaced. The user's kernels of
 * `check` are never cached: this is for kernels/ only.
 *
 * Where: gs_cache_dir()'s folder, its opencl/ (GRIDSTRIDE_CACHE, a folder
 * or "off", else $XDG_CACHE_HOME/gridstride, else $HOME/.cache/gridstride);
 * a folder that cannot be made or written only means the build from source. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gs_io.h"
#include "gs_proc.h"
#include "gs_opencl_private.h"

#define CACHE_MAGIC "gridstride opencl program 1\n"

static uint64_t fnv1a(uint64_t h, const char *s, size_t len)
{
    for (size_t i = 0; i < len; ++i) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* mkdir -p of path, in place. 0 when it is a folder now. Folders made here
 * are 0755 and the cache's own two (gridstride's and opencl) are made so:
 * check's workers, each a user of its own, read the suite's built kernels
 * from here (never write: the folders are this user's), through a
 * descriptor of the cache's folder that check hands them. A built suite
 * kernel holds nothing secret. */
static int make_folder(char *path)
{
    for (char *p = path + 1; *p; ++p) {
        if (*p != '/')
            continue;
        *p = '\0';
        const int rc = mkdir(path, 0755);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    chmod(path, 0755);
    char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        *slash = '\0';
        chmod(path, 0755);
        *slash = '/';
    }
    return 0;
}

/* The cache's folder for this backend (made only when an entry is
 * written); 0 when there is none. */
static int cache_folder(char *dir, size_t size)
{
    if (!gs_cache_dir(dir, size))
        return 0;
    const size_t len = strlen(dir);
    return snprintf(dir + len, size - len, "/opencl") < (int)(size - len);
}

/* The key line: what the binary depends on besides the source. */
static void cache_key(const struct ocl_device *d, const char *options, char *key, size_t size)
{
    snprintf(key, size, "%s | %s | %s | %s | %s\n", d->base.platform, d->base.name,
             d->base.api_version, d->base.driver_version, options);
    for (char *p = key; *p && p[1]; ++p)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

/* The file's whole contents in a fresh buffer, NULL when unreadable. */
static char *read_all(const char *path, size_t *len)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    char *buf = NULL;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < (1ull << 30) && (buf = malloc((size_t)st.st_size))) {
        const ssize_t got = gs_read_full(fd, buf, (size_t)st.st_size);
        if (got != (ssize_t)st.st_size) {
            free(buf);
            buf = NULL;
        }
        *len = got > 0 ? (size_t)got : 0;
    }
    close(fd);
    return buf;
}

/* The program from the entry at path, built; NULL when the entry is absent,
 * belongs to another key or does not load. */
static cl_program load_entry(struct ocl_device *d, const char *path, const char *head,
                             size_t head_len, const char *options)
{
    size_t len = 0;
    char *buf = read_all(path, &len);
    cl_program program = NULL;
    if (!buf)
        return NULL;
    if (len > head_len && memcmp(buf, head, head_len) == 0) {
        const unsigned char *bin = (const unsigned char *)buf + head_len;
        size_t bin_len = len - head_len;
        cl_int rc = CL_SUCCESS, status = CL_SUCCESS;
        program = clCreateProgramWithBinary(d->context, 1, &d->id, &bin_len, &bin, &status, &rc);
        if (program && (rc != CL_SUCCESS || status != CL_SUCCESS ||
                        clBuildProgram(program, 1, &d->id, options, NULL, NULL) != CL_SUCCESS)) {
            clReleaseProgram(program);
            program = NULL;
        }
    }
    free(buf);
    return program;
}

/* The built program's binary into the entry at path; nothing on any failure. */
static void store_entry(cl_program program, const char *path,
                        const char *head, size_t head_len)
{
    size_t bin_len = 0;
    cl_uint devices = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices, NULL) !=
            CL_SUCCESS ||
        devices != 1 ||
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof bin_len, &bin_len, NULL) !=
            CL_SUCCESS ||
        bin_len == 0)
        return;
    unsigned char *bin = malloc(bin_len);
    char tmp[4200];
    if (!bin || clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) !=
                    CL_SUCCESS ||
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof tmp) {
        free(bin);
        return;
    }
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        fchmod(fd, 0644); /* whatever the umask: check's workers read it */
        const int bad = gs_write_full(fd, head, head_len, 0) || gs_write_full(fd, bin, bin_len, 0);
        if (close(fd) != 0 || bad || rename(tmp, path) != 0)
            unlink(tmp);
    }
    free(bin);
}

/* The build log's first lines, on one line, after e's message. */
static void append_build_log(struct ocl_device *d, cl_program program, const char *options,
                             struct gs_err *e)
{
    char *log = e ? ocl_build_log(program, d->id) : NULL;
    if (!log)
        return;
    for (char *p = log; *p; ++p)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    const size_t used = strlen(e->msg);
    snprintf(e->msg + used, sizeof e->msg - used, "; options \"%s\"; build log: %s", options,
             log);
    free(log);
}

int ocl_build(struct ocl_device *d, const char *src, const char *options, cl_program *out,
              struct gs_err *e)
{
    char dir[4096], path[4160], key[700];
    char *head = NULL;
    size_t head_len = 0;
    cl_int rc = CL_SUCCESS;
    int st;
    *out = NULL;
    if (!d->base.is_gpu && cache_folder(dir, sizeof dir)) {
        const size_t src_len = strlen(src);
        cache_key(d, options, key, sizeof key);
        char count[32];
        snprintf(count, sizeof count, "%zu\n", src_len);
        head_len = strlen(CACHE_MAGIC) + strlen(key) + strlen(count) + src_len;
        if ((head = malloc(head_len + 1))) {
            snprintf(head, head_len + 1, "%s%s%s%s", CACHE_MAGIC, key, count, src);
            const uint64_t h = fnv1a(14695981039346656037ull, head, head_len);
            snprintf(path, sizeof path, "%s/%016llx.bin", dir, (unsigned long long)h);
            if ((*out = load_entry(d, path, head, head_len, options))) {
                /* An entry of an older gridstride (0600, in folders of 0700):
                 * opened to check's workers by its owner, once; a hit on an
                 * entry others can read costs one stat. */
                struct stat entry;
                if (!gs_proc_in_worker() && stat(path, &entry) == 0 &&
                    (entry.st_mode & 0044) != 0044 && make_folder(dir) == 0)
                    chmod(path, 0644);
                free(head);
                return GS_OK;
            }
        }
    }
    if ((st = OCL(e, (*out = clCreateProgramWithSource(d->context, 1, &src, NULL, &rc), rc))) !=
        GS_OK) {
        free(head);
        return st;
    }
    if ((st = OCL(e, clBuildProgram(*out, 1, &d->id, options, NULL, NULL))) != GS_OK) {
        append_build_log(d, *out, options, e);
        clReleaseProgram(*out);
        *out = NULL;
    } else if (head && make_folder(dir) == 0)
        store_entry(*out, path, head, head_len);
    free(head);
    return st;
}
