/* What-if timing: `tensim run --timing KEY=VALUE` changes a row of core/timing.def for one run,
 * and the stats JSON records every row's value (docs/timing-model.md "Timing parameters"). */
#ifndef TENSIM_CORE_TIMING_H
#define TENSIM_CORE_TIMING_H

#include <stdbool.h>
#include <stdio.h>

#include "arch.h"

#define TIMING_MAX_OVERRIDES 32

struct timing_override {
    unsigned row; /* index into the table */
    unsigned value;
};

/* Parses "KEY=VALUE" (KEY as "rv.load_l1"). 0 on success; otherwise a message in err. */
int timing_parse(const char *text, struct timing_override *o, char *err, size_t n);

/* A copy of `base` with the overrides applied, in *out. */
void timing_apply(const struct arch *base, const struct timing_override *o, unsigned n,
                  struct arch *out);

/* Every row as JSON object members ("rv.load_l1": 8, ...), for the stats file. */
void timing_json(const struct arch *a, FILE *f);

/* One line naming every row whose value differs from the model's (nothing when none does), for
 * the end-of-run report: a what-if result must not pass for the model's. */
void timing_report(const struct arch *a, FILE *f);

/* The table as text, one "KEY  BH  WH  max  source" line per row (tensim run --timing=list). */
void timing_list(FILE *f);

#endif
