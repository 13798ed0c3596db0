/* SPDX-License-Identifier: MIT */
#include "gs_counters_report.h"

#include <stdio.h>

const char *gs_counters_line(const struct gs_counters *c, const char *fallback)
{
    if (c->state == GS_CTRS_READ)
        return c->words;
    return c->why[0] ? c->why : fallback;
}

int gs_counters_lesson(const struct gs_counters *c)
{
    return c->state == GS_CTRS_READ && (c->cls == GS_CTRS_REPEATED || c->cls == GS_CTRS_SCATTERED);
}

static uint64_t min_st(const struct gs_counters *c)
{
    return (c->n + 31) / 32;
}

static uint64_t min_ld(const struct gs_counters *c)
{
    return (2 * c->n + 31) / 32;
}

static double per(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0;
}

/* One row of the table; `k` NULL: the minimum. */
static void row(struct gs_str *o, const char *prefix, const char *who,
                const struct gs_counters *c, const struct gs_counters_kernel *k)
{
    if (!k) {
        gs_str_printf(o, "%s%-30s %12llu %12s %8.1f %12llu %12s %8.1f %11.2f\n", prefix, who,
                      (unsigned long long)min_ld(c), "", 4.0, (unsigned long long)min_st(c), "",
                      4.0, 1.0);
        return;
    }
    gs_str_printf(o, "%s%-30s %12llu %12llu %8.1f %12llu %12llu %8.1f %11.2f\n", prefix, who,
                  (unsigned long long)k->ld_req, (unsigned long long)k->ld_sec,
                  per(k->ld_sec, k->ld_req), (unsigned long long)k->st_req,
                  (unsigned long long)k->st_sec, per(k->st_sec, k->st_req),
                  per(k->st_req, min_st(c)));
}

static void table(const struct gs_counters *c, const char *prefix, struct gs_str *o)
{
    gs_str_printf(o, "%s%-30s %12s %12s %8s %12s %12s %8s %11s\n", prefix, "", "load req",
                  "load sect", "sect/req", "store req", "store sect", "sect/req", "stores/elem");
    row(o, prefix, "your kernel", c, &c->user);
    row(o, prefix, "the suite's grid-stride loop", c, &c->suite);
    row(o, prefix, "minimum (floats)", c, NULL);
}

void gs_counters_text(const struct gs_counters *c, const char *fallback, int verbose,
                      struct gs_str *o)
{
    if (c->state != GS_CTRS_READ) {
        gs_str_printf(o, "  counters: %s\n", gs_counters_line(c, fallback));
        return;
    }
    gs_str_printf(o, "  counters (%s) at n = %llu <<<%llu, %llu>>>, one launch each, global "
                     "memory requests and 32-byte sectors:\n",
                  c->source, (unsigned long long)c->n, (unsigned long long)c->grid,
                  (unsigned long long)c->block);
    table(c, "    ", o);
    gs_str_printf(o, "  counters: %s\n", c->words);
    if (verbose)
        gs_str_printf(o, "  (rule: %s)\n", c->rule);
}

void gs_counters_md(const struct gs_counters *c, const char *fallback, struct gs_str *o)
{
    gs_str_printf(o, "- counters: %s\n", gs_counters_line(c, fallback));
    if (c->state != GS_CTRS_READ)
        return;
    gs_str_printf(o, "\n%s at n = %llu `<<<%llu, %llu>>>`, one launch each (rule: %s):\n\n"
                     "```text\n",
                  c->source, (unsigned long long)c->n, (unsigned long long)c->grid,
                  (unsigned long long)c->block, c->rule);
    table(c, "", o);
    gs_str_printf(o, "```\n");
}

static void json_kernel(struct gs_jw *w, const char *key, const struct gs_counters_kernel *k)
{
    gs_jw_space(w, "\n        ");
    gs_jw_object(w, key);
    gs_jw_str(w, "name", k->name);
    gs_jw_u64(w, "grid", k->grid);
    gs_jw_u64(w, "block", k->block);
    gs_jw_u64(w, "load_requests", k->ld_req);
    gs_jw_u64(w, "load_sectors", k->ld_sec);
    gs_jw_u64(w, "store_requests", k->st_req);
    gs_jw_u64(w, "store_sectors", k->st_sec);
    if (k->have & GS_CTR_DRAM_RD)
        gs_jw_u64(w, "dram_bytes_read", k->dram_read);
    else
        gs_jw_null(w, "dram_bytes_read");
    if (k->have & GS_CTR_DRAM_WR)
        gs_jw_u64(w, "dram_bytes_write", k->dram_write);
    else
        gs_jw_null(w, "dram_bytes_write");
    if (k->have & GS_CTR_TIME)
        gs_jw_u64(w, "gpu_time_ns", k->time_ns);
    else
        gs_jw_null(w, "gpu_time_ns");
    gs_jw_end(w, "");
}

void gs_counters_json(struct gs_jw *w, const struct gs_counters *c, const char *fallback)
{
    const int read = c->state == GS_CTRS_READ;
    gs_jw_space(w, "\n      ");
    gs_jw_object(w, "counters");
    gs_jw_bool(w, "read", read);
    gs_jw_str(w, "why", read ? "" : gs_counters_line(c, fallback));
    gs_jw_str(w, "class", gs_counters_class_name(read ? c->cls : GS_CTRS_NONE));
    if (read) {
        gs_jw_str(w, "words", c->words);
        gs_jw_str(w, "rule", c->rule);
        gs_jw_str(w, "source", c->source);
        gs_jw_u64(w, "n", c->n);
        gs_jw_u64(w, "grid", c->grid);
        gs_jw_u64(w, "block", c->block);
        gs_jw_u64(w, "min_load_requests", min_ld(c));
        gs_jw_u64(w, "min_store_requests", min_st(c));
        gs_jw_fixed(w, "stores_per_element", 3, c->st_per_elem);
        gs_jw_fixed(w, "loads_per_element", 3, c->ld_per_elem);
        gs_jw_fixed(w, "load_sectors_per_request", 3, c->ld_spr);
        gs_jw_fixed(w, "store_sectors_per_request", 3, c->st_spr);
        gs_jw_fixed(w, "suite_stores_per_element", 3, c->suite_st_per_elem);
        gs_jw_fixed(w, "suite_load_sectors_per_request", 3, c->suite_ld_spr);
        gs_jw_fixed(w, "suite_store_sectors_per_request", 3, c->suite_st_spr);
        gs_jw_u64(w, "chunk", c->chunk);
        json_kernel(w, "user", &c->user);
        json_kernel(w, "suite", &c->suite);
    }
    gs_jw_end(w, read ? "\n      " : "");
}
