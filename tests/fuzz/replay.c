/* SPDX-License-Identifier: MIT */
/* Replays fuzz inputs through the libFuzzer entry point without libFuzzer,
 * so every build (any compiler) checks the committed corpus as a ctest
 * entry: fuzz_replay FILE_OR_DIR...
 *
 * A broken invariant aborts inside the entry point; this driver fails too
 * when it finds nothing to replay, so an empty or missing corpus cannot pass. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *more = realloc(data, cap);
            if (!more) {
                free(data);
                fclose(f);
                return -1;
            }
            data = more;
        }
        got = fread(data + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 1;
}

/* The files of a directory, or the path itself; returns how many ran. */
static int replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return -1;
    }
    int n = 0;
    struct dirent *ent;
    char file[4096];
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        snprintf(file, sizeof file, "%s/%s", path, ent->d_name);
        const int k = replay_file(file);
        if (k < 0) {
            n = -1;
            break;
        }
        n += k;
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    int total = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_replay FILE_OR_DIR...\n");
        return 2;
    }
    for (int i = 1; i < argc; ++i) {
        const int n = replay_path(argv[i]);
        if (n < 0)
            return 1;
        total += n;
    }
    printf("fuzz_replay: %d inputs replayed, every invariant held\n", total);
    return total > 0 ? 0 : 1;
}
