/* SPDX-License-Identifier: MIT */
/* Turns for the timed launches of devices that run side by side.
 *
 * `check` runs every device's worker at once (each device in a thread of
 * the CLI): builds, cases and counts overlap, and their wall time is the
 * longest one's, not the sum. Timed launches never overlap anything: a
 * device's timed section (its speed pass and its counted launches) starts
 * once every device has finished its build, cases and count (or ended), and
 * once every device before it in the run's order has ended its timed
 * section. So a timed launch never shares the GPU with another API's
 * launches, nor the CPU with another worker's build or the parent's
 * verification of another device's output; and the sections run in a
 * fixed order, so a run's report does not depend on which build finished
 * first.
 *
 * Every function is a no-op on NULL (one device: nothing to wait for). */
#ifndef GS_TURNS_H
#define GS_TURNS_H

#include "gs_status.h"

struct gs_turns;

/* Turns for n devices, 0 to n-1 in the run's order. */
int gs_turns_open(struct gs_turns **t, int n, struct gs_err *e);
void gs_turns_close(struct gs_turns *t);

/* Device i has built, run its cases and counted. */
void gs_turns_ready(struct gs_turns *t, int i);

/* Wait until every device is ready or has ended, and every device before i
 * has ended its timed section. */
void gs_turns_wait(struct gs_turns *t, int i);

/* 1 when no timed section comes after device i's (i is the last, or t is
 * NULL): what it leaves running after its own cannot disturb another's. */
int gs_turns_last(const struct gs_turns *t, int i);

/* Device i's timed section is over, or it ends without one (also ready);
 * calling it again does nothing. */
void gs_turns_end(struct gs_turns *t, int i);

#endif
