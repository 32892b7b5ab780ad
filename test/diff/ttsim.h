/* The differential test's ttsim side: a case run on a ttsim library in a child process
 * (test/diff/ttsim.c). */
#ifndef TENSIM_TEST_DIFF_TTSIM_H
#define TENSIM_TEST_DIFF_TTSIM_H

#include "cases.h"

/* What the child hands back. */
struct dt_ttsim_shared {
    int ok;
    char why[300];
    uint8_t out[DT_MAX_OUT];
};

/* Runs the inputs on the ttsim library `lib`, which must be for the architecture asked. */
void dt_run_ttsim(const char *lib, bool wormhole, const char *elf, const struct dt_inputs *in,
                  struct dt_result *r);

#endif
