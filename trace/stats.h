/* End-of-run report (text) and statistics (JSON, schema in docs/stats-schema.md). Formatting
 * happens only here, after the run; the hot path only increments counters. */
#ifndef TENSIM_TRACE_STATS_H
#define TENSIM_TRACE_STATS_H

#include <stdio.h>

struct tile;
struct sim_outcome;

void stats_report(const struct tile *t, FILE *f);
/* The JSON statistics; `o` (may be NULL) adds how the run ended: exit status, the guest exit that
 * decided it, host-side errors before the stats were written, and the --dump files. */
void stats_json(const struct tile *t, const struct sim_outcome *o, FILE *f);
/* An error's members ("category", "exit_code", "where", "pc", "cycle", "message"), without the
 * braces: the tile's stats and the chip's (which add the tile's place) share them. */
struct sim_error;
void stats_json_error_fields(const struct sim_error *e, FILE *f);
/* The `"host_errors": [...]` member (no comma after it), for the chip's stats too. */
void stats_json_host_errors(const struct sim_outcome *o, FILE *f);

#endif
