/* SPDX-License-Identifier: MIT */
/* The prediction model: before a launch, what should come back.
 *
 * Coverage is a property of the kernel (gs_catalog.h's rule) and the launch's
 * total thread count T; launch validity is a property of the API and device,
 * which the backend answers from what the device reports. A run fails when
 * an observation differs from the prediction in either direction.
 *
 * The model also predicts whether a launch can finish: a grid-stride loop
 * steps by T as the kernel computes it, and a stride that wraps to 0 (T a
 * multiple of 2^32 in 32-bit arithmetic) never ends; a stride far below T
 * takes more trips than any run can wait for. Such a launch is never made:
 * it is predicted, and shown, as "not launched". On a GPU without a watchdog
 * an endless kernel holds the device until the process is killed.
 *
 * Deviations. The prediction of a refusal comes from what the device reports
 * (its limits, its OpenCL version). When the API accepts such a launch and
 * the output is exactly what the coverage rule predicts for it, the driver
 * has gone beyond its own report: a measured fact about that driver, shown
 * as a deviation, which does not fail the run. Every other disagreement does. */
#ifndef GS_MODEL_H
#define GS_MODEL_H

#include "gs_backend.h"
#include "gs_verify.h"

enum gs_outcome {
    GS_OUT_OK,          /* accepted, every element right */
    GS_OUT_WRONG,       /* accepted, some element wrong or a guard overwritten */
    GS_OUT_REFUSED,     /* the API refused the launch */
    GS_OUT_NOT_LAUNCHED, /* never sent: it could not finish, or a cap of the suite's */
    GS_OUT_UNDEFINED     /* predicted only: undefined behaviour, recorded, never judged */
};

struct gs_prediction {
    enum gs_outcome outcome;
    uint64_t first_wrong; /* GS_OUT_WRONG: the first element no thread owns */
    uint64_t wrong;       /* GS_OUT_WRONG: how many elements stay unwritten */
    /* What coverage predicts should the API accept the launch anyway (the
     * same as above unless outcome is GS_OUT_REFUSED). */
    enum gs_outcome if_accepted;
    uint64_t if_first_wrong, if_wrong;
    /* The launch it was made for: for a granted launch (gs_dev_grant), the
     * grant measured before it, which the API must then report it ran. */
    uint64_t grid, block;
    char why[240];        /* the rule behind the prediction, in words */
};

/* Whether an observation matched its prediction. */
enum gs_holds {
    GS_FAILED = 0,   /* it did not: the run fails */
    GS_HELD = 1,     /* it did */
    GS_DEVIATION = 2 /* predicted refused from the device's report; the API accepted, and
                        the output is exactly what coverage predicts */
};

/* Predict the outcome of launch l on dev. */
void gs_predict(const struct gs_device *dev, const struct gs_launch *l,
                struct gs_prediction *p);

/* Whether an observation (API answer + verdict) matches a prediction: an
 * enum gs_holds. When it does not, or is a deviation, `why` says how. */
int gs_prediction_holds(const struct gs_prediction *p, const struct gs_launch_result *r,
                        const struct gs_verdict *v, char *why, unsigned why_size);

/* gs_prediction_holds, as a case records it: *held (held or a deviation),
 * *deviation, and how it differed in why. */
void gs_judge(const struct gs_prediction *p, const struct gs_launch_result *r,
              const struct gs_verdict *v, int *held, int *deviation, char *why,
              unsigned why_size);

/* A launch's shape as a user reads it: "<<<3, 256>>>", "<<<(1, 65536), 32>>>",
 * or, for a granted launch, "<<<3, 256>>> granted 3 x 28". */
void gs_launch_shape(const struct gs_launch *l, char *buf, unsigned size);

/* "ok", "wrong", "refused", "not launched": how every report names an outcome. */
const char *gs_outcome_name(enum gs_outcome o);

/* The outcome that was observed. */
enum gs_outcome gs_observed(const struct gs_launch_result *r, const struct gs_verdict *v);

/* ---- the arithmetic of strides, exposed for the tests ---- */

/* The stride a loop steps by when it computes T in `bits`-bit unsigned
 * arithmetic (64: the suite's preludes; 32: a product without the cast). */
uint64_t gs_model_stride(unsigned bits, uint64_t T);
/* Loop trips of all threads together, for a grid-stride loop over n elements
 * on T threads stepping by s: n when s == T; UINT64_MAX when some thread
 * never leaves the loop (s == 0) or the count passes 2^64. */
uint64_t gs_model_trips(uint64_t n, uint64_t T, uint64_t s);
/* The width in which dev's kernels compute T: 64 unless the grid probe
 * measured the prelude's T wrong (then 32). */
unsigned gs_model_t_bits(const struct gs_device *dev);
/* How many times launch l writes element i (i < l->n), by its kernel's
 * rule, on a device whose kernels compute T in t_bits bits, into *count;
 * returns the end of the run from i on (i < the end <= `end`) whose
 * elements all have that count: the prediction the count build is checked
 * against, a run at a time, so that checking billions of counters is a
 * scan of each run against one value. */
uint64_t gs_model_count_run(const struct gs_launch *l, unsigned t_bits, uint64_t i,
                            uint64_t end, uint64_t *count);
/* Element i's count alone (gs_model_count_run over [i, i + 1)). */
uint64_t gs_model_count(const struct gs_launch *l, unsigned t_bits, uint64_t i);
/* The most loop trips the suite waits for on dev. */
uint64_t gs_model_trip_budget(const struct gs_device *dev);

#endif
