/* Timeline traces in the Chrome trace-event JSON format (opens in Perfetto and chrome://tracing;
 * docs/user-guide.md "The trace format").
 *
 * Processes and tracks: "RISC-V cores" (one track per core: "running" and each stall reason of
 * riscv/core.h as slices, merged into runs of consecutive cycles), "Tensix threads" (per thread:
 * what held it at its Wait Gate, and every issued instruction), "Backend units" (one track per
 * instance of a unit the registry gives tracks), the host of a run description (instants) and
 * tt-llk's profiler zones. Counters ("ph":"C"): the instruction FIFOs of each thread and the
 * cores' L1 ports, emitted when their value changes.
 *
 * Timestamps are cycles: one microsecond in the viewer is one simulated cycle (otherData says so;
 * no displayTimeUnit contradicts it).
 *
 * Validity: viewers need the slices of one track disjoint or perfectly nested. Events are kept in
 * memory while the run goes (only with a tracer attached: the simulator otherwise tests a
 * pointer), then sorted and written at trace_end: a track whose slices overlap (the matrix unit's
 * pipelined instructions) is spread over numbered lanes, extra tracks "<track> lane k", each slice
 * on the lowest lane free at its start. Events are written in a fixed order (process, track,
 * start, longest first, then the order they were recorded), so equal runs give equal bytes. */
#ifndef TENSIM_TRACE_TRACE_H
#define TENSIM_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/arch.h"
#include "../riscv/region.h"
#include "../sync/origin.h"

struct tile;
struct unit_desc;

#define TRACE_NO_END UINT64_MAX

struct trace_ev; /* trace/trace.c */

/* A chip's trace: one document that several tiles' tracers write their parts into, in turn,
 * after the run (trace_doc_begin, trace_end of each part, trace_doc_end). */
struct trace_doc {
    FILE *f;
    unsigned count;  /* events written so far (the separators) */
    size_t flows;    /* flow ids used so far */
};

struct tracer {
    FILE *f;
    const struct tile *t;
    unsigned arch_bit;
    uint64_t from, to;      /* the window: events overlapping [from, to), clipped to it */
    struct trace_ev *ev;    /* recorded events */
    size_t n, cap;
    char **strs;            /* copies of names that do not outlive the call (host, zones) */
    size_t nstrs, capstrs;
    bool oom;               /* an event could not be recorded: trace_end fails */
    /* the open run of each core: its state (trace_core), -1 for none */
    int core_state[NUM_CORES];
    uint64_t core_start[NUM_CORES], core_end[NUM_CORES];
    unsigned fifo_last[NUM_THREADS][2]; /* last recorded occupancy of FIFO1 and FIFO2 */
    const char *region_name[REGION_IDS]; /* "region N", kept once per id */
    size_t flow_open;       /* the flow of the instruction being accepted (trace_issue), or SIZE_MAX */
    /* One tile's part of a chip's trace (trace_part): its processes' ids start at pid_base + 1
     * and their names at `prefix`; separators and flow ids continue the document's counts. */
    struct trace_doc *doc; /* &own for a trace of its own */
    struct trace_doc own;
    int pid_base;
    char prefix[32];
};

void trace_doc_begin(struct trace_doc *d, FILE *f);
void trace_doc_end(struct trace_doc *d);
/* Make tr, after trace_begin, tile number `index`'s part of d: its processes are named
 * "<prefix> <name>" ("tile (1, 2) RISC-V cores"). */
void trace_part(struct tracer *tr, struct trace_doc *d, unsigned index, const char *prefix);
/* The document's own processes, after its parts (a chip's NoC links): the first pid no part of
 * `nparts` uses, a process and its tracks' metadata, and complete slices [start, end). */
int trace_doc_pid_after(unsigned nparts);
void trace_doc_process(struct trace_doc *d, int pid, const char *name);
void trace_doc_track(struct trace_doc *d, int pid, unsigned tid, const char *name);
void trace_doc_slice(struct trace_doc *d, int pid, unsigned tid, const char *name, const char *cat,
                     uint64_t start, uint64_t end);
/* A NoC packet this tile's NIU sent (rx false: at its command) or applied (rx true: at its
 * arrival), an instant on the "NoC" process's "sent" or "received" track. */
void trace_noc(struct tracer *tr, bool rx, const char *what, uint64_t cycle);

void trace_begin(struct tracer *tr, FILE *f, const struct tile *t);
/* Keep only events overlapping [from, to) (TRACE_NO_END: no end), clipped to it. Before the run. */
void trace_window(struct tracer *tr, uint64_t from, uint64_t to);
/* Writes the trace; false if it could not be held in memory (the file then holds no events). */
bool trace_end(struct tracer *tr);

/* An instruction passed thread th's Wait Gate; `origin` is its push (sync/origin.h). The first
 * instruction of a push gets a flow arrow from the push on its core's track to the slice of the
 * unit that executes it: the slice a unit records for thread th at `cycle` while the instruction
 * is accepted (trace_unit before trace_issued), else the issue slice on the thread's track. */
void trace_issue(struct tracer *tr, const struct tile *t, unsigned th, uint64_t cycle, uint32_t word,
                 tt_origin origin);
/* The unit has accepted the instruction of the last trace_issue. */
static inline void trace_issued(struct tracer *tr) { tr->flow_open = SIZE_MAX; }
/* Thread th was held for [start, end) for `reason` (gate_stall key) with `detail`. */
void trace_held(struct tracer *tr, unsigned th, const char *reason, uint32_t detail, uint64_t start,
                uint64_t end);
/* Instance i of backend unit `u` was doing `what` for thread th during [start, end); the unit's
 * row in units/registry.h gives its tracks. */
void trace_unit(struct tracer *tr, const struct unit_desc *u, unsigned i, const char *what, unsigned th,
                uint64_t start, uint64_t end);
#define TRACE_CORE_RUNNING 255u
/* Core `core` spent [start, end) in `state` (enum core_stall, or TRACE_CORE_RUNNING: issuing).
 * Consecutive spans of one state merge into one slice. */
void trace_core(struct tracer *tr, int core, unsigned state, uint64_t start, uint64_t end);
/* One instruction of core `core` issued at `now` and held EX1 `cost` cycles (the extra ones
 * charged to stall `why`). */
static inline void trace_core_issue(struct tracer *tr, int core, uint64_t now, unsigned cost, unsigned why)
{
    trace_core(tr, core, TRACE_CORE_RUNNING, now, now + 1);
    if (cost > 1)
        trace_core(tr, core, why, now + 1, now + cost);
}
/* The occupancy of every thread's instruction FIFOs, from cycle `cycle` on (recorded when changed). */
void trace_fifos(struct tracer *tr, const struct tile *t, uint64_t cycle);
/* L1 port `port` was booked for [start, end). */
void trace_l1_port(struct tracer *tr, unsigned port, uint64_t start, uint64_t end);
/* What the host of a run description did at `cycle` (an instant on the "Host" track). */
void trace_host(struct tracer *tr, const char *what, uint64_t cycle);
/* A tt-llk profiler zone of thread th (0 unpack, 1 math, 2 pack) over [start, end). */
void trace_zone(struct tracer *tr, unsigned th, const char *name, uint64_t start, uint64_t end);
/* Region `id` of core `core` (riscv/region.h) over [start, end), on the "Regions" track. */
void trace_region(struct tracer *tr, int core, unsigned id, uint64_t start, uint64_t end);

#endif
