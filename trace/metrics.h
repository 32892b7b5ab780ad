/* Tenstorrent's performance-counter metrics (tt-metal's perf_metrics_common.py catalogue, the
 * same names and formulas), computed from tensim's counter signals (core/perf_counters.h) for
 * the whole run and per region, plus a few figures silicon's counters cannot see. */
#ifndef TENSIM_TRACE_METRICS_H
#define TENSIM_TRACE_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/perf_counters.h"

struct tile;

struct metric_def {
    const char *name;
    bool ratio;    /* an unbounded *_ratio, not a *_pct */
    bool ours;     /* tensim's own: no silicon counter behind it */
};

extern const struct metric_def metric_defs[];
extern const unsigned metric_count;

/* The metrics of a span of `cycles` cycles whose signals changed by d: val[i] (a percentage
 * for *_pct) and ok[i] (false: N/A, a zero denominator). */
void metrics_compute(const struct tile *t, const struct perf_signals *d, uint64_t cycles,
                     double *val, bool *ok);
/* Report lines of a span's non-zero metrics, per_line to a line (0: all on one), each line
 * begun with prefix[0] (Tenstorrent's) or prefix[1] (tensim's own). */
void metrics_lines(const struct tile *t, const struct perf_signals *d, uint64_t cycles, FILE *f,
                   const char *const prefix[2], unsigned per_line);
/* The report's metrics lines: the whole run's non-zero metrics. */
void metrics_report(const struct tile *t, FILE *f);
/* "perf_metrics": {...} and "tensim_metrics": {...} members for a span (indent: leading
 * spaces, sep: what goes between the two members). */
void metrics_json(const struct tile *t, const struct perf_signals *d, uint64_t cycles, FILE *f,
                  const char *indent);
/* Both members for the whole run, with the stats JSON's layout. */
void metrics_run_json(const struct tile *t, FILE *f);

#endif
