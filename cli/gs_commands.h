/* The commands of the CLI. Each returns an exit code (0, 1 or 2) and writes
 * a one-line message into e when it returns 2. */
#ifndef GS_COMMANDS_H
#define GS_COMMANDS_H

#include "gs_cli.h"
#include "gs_session.h"

int gs_cmd_table(const struct gs_cli *cli, struct gs_session *s, const char *command,
                 struct gs_err *e);
int gs_cmd_list(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e);
/* `gridstride compare`: no backend is opened. */
int gs_cmd_compare(const struct gs_cli *cli, struct gs_err *e);
/* --list --format ctest-resources: CTest's resource spec of the GPUs. */
int gs_cmd_ctest_resources(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e);
int gs_cmd_bandwidth(const struct gs_cli *cli, struct gs_session *s, const char *command,
                     struct gs_err *e);

/* The version, from CMake's project(). */
#ifndef GS_VERSION
#error "GS_VERSION must be defined by the build"
#endif
#define GS_VERSION_STRING GS_VERSION

/* Device limits the command line must respect (block, grid, shapes),
 * checked before any launch: GS_USAGE with a message naming the option. */
int gs_check_limits(const struct gs_device *d, unsigned block, uint64_t grid,
                    const struct gs_shape *shapes, int nshapes, struct gs_err *e);

#endif
