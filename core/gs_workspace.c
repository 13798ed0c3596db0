#include "gs_workspace.h"

#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_table.h"
#include "gs_verify.h"

int gs_workspace_open(struct gs_workspace *w, struct gs_device *dev, uint64_t n,
                      struct gs_err *e)
{
    const uint64_t bytes = gs_table_buffer_bytes(n);
    int rc;
    memset(w, 0, sizeof *w);
    w->dev = dev;
    w->n = n;
    w->a = malloc(bytes);
    w->b = malloc(bytes);
    w->sum = malloc(bytes);
    w->out = malloc(bytes);
    if (!w->a || !w->b || !w->sum || !w->out) {
        gs_workspace_close(w);
        return gs_err_set(e, GS_NOMEM, "cannot allocate 4 host buffers of %llu bytes",
                          (unsigned long long)bytes);
    }
    gs_fill_inputs(w->a, w->b, n + GS_GUARD_ELEMS);
    gs_fill_expected(GS_OP_ADD, w->a, w->b, w->sum, n);
    if ((rc = gs_dev_alloc(dev, bytes, &w->da, e)) != GS_OK ||
        (rc = gs_dev_alloc(dev, bytes, &w->db, e)) != GS_OK ||
        (rc = gs_dev_alloc(dev, bytes, &w->dout, e)) != GS_OK ||
        (rc = gs_dev_write(dev, w->da, w->a, bytes, e)) != GS_OK ||
        (rc = gs_dev_write(dev, w->db, w->b, bytes, e)) != GS_OK) {
        gs_workspace_close(w);
        return rc;
    }
    return GS_OK;
}

void gs_workspace_close(struct gs_workspace *w)
{
    if (w->dev) {
        gs_dev_free(w->dev, w->da);
        gs_dev_free(w->dev, w->db);
        gs_dev_free(w->dev, w->dout);
    }
    free(w->a);
    free(w->b);
    free(w->sum);
    free(w->out);
    memset(w, 0, sizeof *w);
}

void gs_workspace_bind(const struct gs_workspace *w, struct gs_launch *l)
{
    l->a = w->da;
    l->b = w->db;
    l->out = w->dout;
}

const float *gs_workspace_ref(const struct gs_workspace *w, enum gs_kernel_id k)
{
    return gs_kernel_info(k)->op == GS_OP_COPY ? w->a : w->sum;
}
