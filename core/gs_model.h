/* The prediction model: before a launch, what should come back.
 *
 * Coverage is a property of the kernel (gs_catalog.h's rule) and the launch's
 * total thread count T; launch validity is a property of the API and device,
 * which the backend answers from what the device reports. A run fails when
 * an observation differs from the prediction in either direction. */
#ifndef GS_MODEL_H
#define GS_MODEL_H

#include "gs_backend.h"
#include "gs_verify.h"

enum gs_outcome {
    GS_OUT_OK,      /* accepted, every element right */
    GS_OUT_WRONG,   /* accepted, some element wrong or a guard overwritten */
    GS_OUT_REFUSED  /* the API refused the launch */
};

struct gs_prediction {
    enum gs_outcome outcome;
    uint64_t first_wrong; /* GS_OUT_WRONG: the first element no thread owns */
    uint64_t wrong;       /* GS_OUT_WRONG: how many elements stay unwritten */
    char why[200];        /* the rule behind the prediction, in words */
    /* What the kernel computes when an API runs this launch (GS_OUT_OK or
     * GS_OUT_WRONG, from the index owner map), even when the API's rule says
     * it must refuse: a deviation is judged against it. */
    struct {
        enum gs_outcome outcome;
        uint64_t first_wrong, wrong;
    } as_run;
};

/* How an observation compares with its prediction (struct gs_case's held).
 * Non-zero: every prediction about the kernels held.
 *
 * The rule for an implementation that deviates from the API version it
 * claims: the model predicts the API's answer from the version the device
 * reports, never from its name. When the API runs a launch that version
 * refuses, and the buffers hold exactly what that launch computes (guard
 * intact), the case is GS_HELD_DEVIATION: a finding about the implementation,
 * reported as such, and no failed prediction about the kernels. A launch
 * refused that the claimed version must run is a failure (GS_HELD_NO): the
 * work was not done. */
enum gs_held {
    GS_HELD_NO = 0,
    GS_HELD_YES = 1,
    GS_HELD_DEVIATION = 2
};

/* Predict the outcome of launch l of kernel k on dev. */
void gs_predict(const struct gs_device *dev, const struct gs_launch *l,
                struct gs_prediction *p);

/* Whether an observation (API answer + verdict) matches a prediction: an
 * enum gs_held. When it is not GS_HELD_YES, `why` says how they differ. */
int gs_prediction_holds(const struct gs_prediction *p, const struct gs_launch_result *r,
                        const struct gs_verdict *v, char *why, unsigned why_size);

/* The outcome that was observed. */
enum gs_outcome gs_observed(const struct gs_launch_result *r, const struct gs_verdict *v);

#endif
