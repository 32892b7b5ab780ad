/* A checker of the --trace format rules (docs/user-guide.md "The trace format"): what Perfetto
 * and chrome://tracing need to draw a trace right, and what tensim promises on top. */
#ifndef TENSIM_TEST_TRACE_CHECK_H
#define TENSIM_TEST_TRACE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

struct trace_summary {
    unsigned slices, instants, counters, metadata;
    unsigned tracks, lanes;     /* named tracks; those named "... lane k" */
    unsigned core_slices, core_stalls; /* slices on the RISC-V cores' tracks; not "running" */
    unsigned long long first_ts, last_end; /* over slices and instants */
    unsigned flows;             /* flow arrows (an s and its f) */
};

/* Checks `text` (a whole trace) against the rules: valid JSON with a traceEvents array; the time
 * unit in otherData and no displayTimeUnit; every X event with name, ts, dur >= 0, pid and tid;
 * every i event with ts, pid, tid; every C event with name, ts, pid and numeric args; metadata
 * naming every process and (pid, tid) used; on each (pid, tid) slices in non-decreasing ts order,
 * disjoint or perfectly nested; each counter's samples in ts order, each a change; flow events
 * ("s" then "f" with "bp":"e", name, cat, numeric ts and an integer id): ids unique, every f
 * matching an s of the same id, name and cat and every s one f, no f before its s, and both
 * ends strictly inside a slice on their own (pid, tid). False with the first broken rule in
 * `why`. */
bool trace_check(const char *text, struct trace_summary *s, char *why, size_t n);

#endif
