/* `tensim bench`: regression benches (docs/bench.md). A manifest (JSON, core/bench_manifest.c)
 * lists runs and parameter sweeps; core/bench_pool.c runs them, each an independent in-process
 * simulation, on a pool of host threads; core/bench.c writes the results JSON in manifest order
 * and compares it with a baseline. */
#ifndef TENSIM_CORE_BENCH_H
#define TENSIM_CORE_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "../mem/elf.h"
#include "../riscv/region.h"
#include "arch.h"
#include "run_desc.h"
#include "sim.h"
#include "timing.h"

#define BENCH_VERSION 1       /* "tensim_bench" of a manifest, "tensim_bench_results" of results */
#define BENCH_MAX_RUNS 4096   /* after sweep expansion */
#define BENCH_MAX_AXES 4      /* sweep axes of one run */
#define BENCH_MAX_VALUES 256  /* values of one axis */
#define BENCH_MAX_EXPECT 16
#define BENCH_MAX_THREADS 256
#define BENCH_MAX_BUILD 8      /* build commands of one run */

/* An L1 range compared with a file's bytes after the run. */
struct bench_expect {
    uint32_t addr, len;
    char *file;
};

/* One run after sweep expansion: every ${name} already replaced by its value. */
struct bench_run {
    char *name;                /* "matmul", or "matmul[level=2]" for a sweep's run */
    unsigned naxes;
    char *axis[BENCH_MAX_AXES], *value[BENCH_MAX_AXES];
    const struct arch *arch;   /* the manifest's or the run description's; Blackhole if neither */
    char *program[NUM_CORES];  /* resolved against the manifest's folder; NULL: none */
    struct run_desc *rd;       /* "run": a run description, loaded and checked; NULL: none */
    enum elf_loader loader;
    uint64_t max_cycles;       /* 0: none */
    struct sim_xfer load[SIM_MAX_XFER];
    unsigned nload;
    struct bench_expect expect[BENCH_MAX_EXPECT];
    unsigned nexpect;
    struct timing_override timing[TIMING_MAX_OVERRIDES];
    char *timing_text[TIMING_MAX_OVERRIDES]; /* "KEY=VALUE", as the results record them */
    unsigned ntiming;
    char *build[BENCH_MAX_BUILD]; /* shell commands run before the bench, sweep values substituted */
    unsigned nbuild;
    bool per_core;             /* "measure" has "core_cycles" */
    bool regions;              /* "measure" has "regions" */
    bool stalls;               /* "measure" has "stalls" */
    bool zones;                /* "measure" has "zones" (a run description with a layout) */
    bool tol_cycles_given, tol_percent_given;
    uint64_t tol_cycles;       /* a slowdown of at most this many cycles ... */
    double tol_percent;        /* ... or this percent of the baseline is no regression */
};

struct bench_manifest {
    char *path;
    struct bench_run *run;
    unsigned nruns;
};

/* Parse and expand `path`, load every run description and check that every input file can be
 * read. Returns 0, or -1 with a message (no "tensim:" prefix) in err. */
int bench_manifest_load(struct bench_manifest *m, const char *path, char *err, unsigned errlen);
void bench_manifest_free(struct bench_manifest *m);

/* A region's figures as the results record them: ended regions only (one still open at the
 * end is not counted, as in the report). */
struct bench_region {
    uint64_t count, cycles, min, max;
    uint64_t stall[STALL_COUNT];   /* the core's stall cycles by reason, over the ended regions */
    uint64_t held[GS_COUNT];       /* a TRISC region's thread: Wait Gate hold cycles by reason */
};

/* The regions of one run: per core, the ids it began (bit per id) and their figures. */
struct bench_regions {
    uint64_t used[NUM_CORES];
    struct bench_region id[NUM_CORES][REGION_IDS];
};

/* tt-llk's profiler zones of one marker on one thread, over the run (closed zones only). */
struct bench_zone {
    unsigned thread;          /* 0 unpack, 1 math, 2 pack */
    char marker[64];          /* the zone's marker, or its id as "0x1234" without a name */
    uint64_t count, cycles, min, max;
};

/* What one run gave. */
struct bench_result {
    int exit_status;          /* as `tensim run` would exit (docs/user-guide.md "Exit status") */
    bool ok;                  /* exit status 0 and every expected output matched */
    char error[600];          /* why it failed, one line; "" when ok */
    uint64_t cycles;
    bool core_on[NUM_CORES];  /* the core ran */
    uint64_t core_cycles[NUM_CORES];
    struct bench_regions *regions; /* with "measure": ["regions"]: malloc'd, else NULL */
    struct bench_zone *zones;  /* with "measure": ["zones"]: malloc'd, thread then marker order */
    unsigned nzones;
    /* The report's "stall cycles" column per core and "T0 ... held:" line per thread, always
     * taken; the results record them with "measure": ["stalls"]. */
    uint64_t core_stall[NUM_CORES][STALL_COUNT];
    bool thread_on[NUM_THREADS];   /* the thread was pushed to (the report lists it) */
    uint64_t thread_held[NUM_THREADS][GS_COUNT];
    char *log;                /* what the run printed (errors, warnings), malloc'd or NULL */
    size_t loglen;
};

struct host_pin;
/* Run every run of m on `threads` host threads (the caller's is one of them); res[i] gets run
 * i's result whichever thread ran it. With `pin` (core/host_pin.h) and no more threads than
 * physical cores, worker i is pinned to core i. `stop` is the signal flag the tiles watch.
 * Returns 0, or -1 when fewer threads could be started (a note on stderr; every run still
 * runs). */
int bench_run_all(const struct bench_manifest *m, unsigned threads, struct host_pin *pin,
                  const volatile sig_atomic_t *stop, struct bench_result *res);
void bench_result_free(struct bench_result *r);

/* `tensim bench report RESULTS.json ...` (core/bench_report.c): argv[0] is "report". */
int bench_report_main(int argc, char **argv);

/* `tensim bench ...`: argv[0] is "bench". */
int bench_main(int argc, char **argv, const volatile sig_atomic_t *stop);

#endif
