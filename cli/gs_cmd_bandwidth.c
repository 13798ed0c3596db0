/* `gridstride bandwidth`: see core/gs_bench.h. */
#include "gs_commands.h"

int gs_cmd_bandwidth(const struct gs_cli *cli, struct gs_session *s, const char *command,
                     struct gs_err *e)
{
    (void)cli;
    (void)s;
    (void)command;
    gs_err_set(e, GS_UNSUPPORTED, "bandwidth: not built yet");
    return 2;
}
