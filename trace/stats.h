/* End-of-run report (text) and statistics (JSON, schema in docs/stats-schema.md). Formatting
 * happens only here, after the run; the hot path only increments counters. */
#ifndef TENSIM_TRACE_STATS_H
#define TENSIM_TRACE_STATS_H

#include <stdio.h>

struct tile;

void stats_report(const struct tile *t, FILE *f);
void stats_json(const struct tile *t, FILE *f);

#endif
