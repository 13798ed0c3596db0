/* SPDX-License-Identifier: MIT */
/* check's verdicts against an oracle written apart from gs_verify.c.
 *
 * One case is made from a 64-bit seed: a right output of n elements (the
 * inputs' public generator, summed here in float, element by element) with
 * the guards on both sides, then damage of one to three kinds (a prefix or a
 * tail left unwritten from any index, holes, a stride of holes, single wrong
 * values, NaNs a GPU or a CPU would make of the poison, guard writes before
 * and after, `+=` seen through a second, finite-poisoned run). The oracle
 * classes it with a plain loop and a few ifs; gs_verify, gs_verify_front,
 * gs_verify_accumulate and gs_check_classify class it too. A case passes when
 * both give the same class, the same counts and the same first wrong index,
 * and never ok when an element differs. Used by test_check_verdicts (the
 * short form in ctest) and fuzz_verdict (the long form). */
#ifndef GS_VERDICT_ORACLE_H
#define GS_VERDICT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

/* Run the case of `seed`; 0 when gridstride agrees with the oracle, else 1
 * with what differs in why. */
int gs_oracle_case(uint64_t seed, char *why, size_t why_size);

#endif
