/* The commands of the CLI. Each returns an exit code (0, 1 or 2) and writes
 * a one-line message into e when it returns 2. */
#ifndef GS_COMMANDS_H
#define GS_COMMANDS_H

#include "gs_cli.h"
#include "gs_session.h"

int gs_cmd_table(const struct gs_cli *cli, struct gs_session *s, const char *command,
                 struct gs_err *e);
int gs_cmd_list(const struct gs_cli *cli, struct gs_session *s, struct gs_err *e);
int gs_cmd_bandwidth(const struct gs_cli *cli, struct gs_session *s, const char *command,
                     struct gs_err *e);

/* The version, from CMake's project(). */
#ifndef GS_VERSION
#error "GS_VERSION must be defined by the build"
#endif
#define GS_VERSION_STRING GS_VERSION

/* Bytes of host memory, 0 when unknown. */
uint64_t gs_host_memory(void);

#endif
