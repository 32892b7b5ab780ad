/* Timeline traces in the Chrome trace-event JSON format (opens in Perfetto and
 * chrome://tracing). One track per Tensix thread (what held it, and every issued instruction) and
 * one per core (the cycles it was blocked on the coprocessor), and one per backend unit that
 * holds instructions over time (the unpackers: start-up, bank waits, fetches; the matrix unit:
 * each instruction from issue to the end of its latency; the vector unit: one track per sub-unit,
 * a one-cycle slice for each instruction it ran, SFPLOADMACRO's scheduled ones included). Timestamps are cycles: one
 * microsecond in the viewer is one simulated cycle. Tracing is off unless a tracer is attached;
 * the simulator then only tests a pointer. */
#ifndef TENSIM_TRACE_TRACE_H
#define TENSIM_TRACE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tile;
struct unit_desc;

struct tracer {
    FILE *f;
    unsigned events;
    bool host_named, zones_named; /* their tracks are named when first used */
};

void trace_begin(struct tracer *tr, FILE *f, const struct tile *t);
void trace_end(struct tracer *tr);

/* An instruction passed thread th's Wait Gate. */
void trace_issue(struct tracer *tr, const struct tile *t, unsigned th, uint64_t cycle, uint32_t word);
/* Thread th was held for [start, end) for `reason` (gate_stall key) with `detail`. */
void trace_held(struct tracer *tr, unsigned th, const char *reason, uint32_t detail, uint64_t start,
                uint64_t end);
/* Instance i of backend unit `u` was doing `what` for thread th during [start, end); the unit's
 * row in units/registry.h gives its tracks. */
void trace_unit(struct tracer *tr, const struct unit_desc *u, unsigned i, const char *what, unsigned th,
                uint64_t start, uint64_t end);
/* Core `core` was blocked for [start, end) (`why`: a core stall key). */
void trace_blocked(struct tracer *tr, int core, const char *why, uint64_t start, uint64_t end);
/* What the host of a run description did at `cycle` (an instant on the "Host" track). */
void trace_host(struct tracer *tr, const char *what, uint64_t cycle);
/* A tt-llk profiler zone of thread th (0 unpack, 1 math, 2 pack) over [start, end). */
void trace_zone(struct tracer *tr, unsigned th, const char *name, uint64_t start, uint64_t end);

#endif
