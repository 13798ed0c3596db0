/* SPDX-License-Identifier: MIT */
/* The long form of check's verdict property (tests/test_check_verdicts.c):
 * each input names generated outputs (eight bytes a seed), and a verdict
 * that disagrees with the oracle (tests/verdict_oracle.c), an ok for a wrong
 * element above all, aborts. CI runs a million of them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict_oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[600];
    for (size_t at = 0; at < size || at == 0; at += 8) {
        uint64_t seed = 0;
        memcpy(&seed, data + at, size - at < 8 ? size - at : 8);
        if (gs_oracle_case(seed, why, sizeof why) != 0) {
            fprintf(stderr, "invariant broken: %s\n", why);
            abort();
        }
        if (size == 0)
            break;
    }
    return 0;
}
