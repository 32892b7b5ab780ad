/* The simulation context: options of one run and the tiles it owns, and how a run ends: the
 * exit status, the guest's exit code and the host-side failures after the run. Issue 2 builds
 * one tile; the multi-tile, multi-thread host side grows here. */
#ifndef TENSIM_CORE_SIM_H
#define TENSIM_CORE_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tile.h"

#define SIM_MAX_TILES 256 /* Blackhole has 140 Tensix tiles */
#define SIM_MAX_THREADS 64

#define SIM_MASK_WORDS (SIM_MAX_TILES / 64)

/* What the exchange between windows is given and gives back. The workers tell it which tiles
 * have anything for it, so that it looks at no other: a tile's state is in its worker's cache,
 * and reading it from another core costs a cache miss per line, every window. */
struct sim_exchange {
    uint64_t h;                          /* every tile stands at h */
    uint64_t sending[SIM_MASK_WORDS];    /* bit i: tile i ran in the window and its NIU outbox
                                          * holds requests */
    bool failed;                         /* a tile stopped with an error in the window */
    /* set by the exchange */
    uint64_t woken[SIM_MASK_WORDS];      /* bit i: tile i was given work (it may act earlier) */
    bool stop;                           /* end the whole run at h (the tiles still running stop
                                          * there: tile_end_at) */
};

/* A simulation: the tiles it owns, run on one clock. The command line runs one tile; sim_run
 * puts the tiles on host threads, each running its own tiles up to a common horizon per window
 * (shared/spec/parallel.md B.4; docs/architecture.md "Host threads"). */
struct sim {
    struct tile *tile[SIM_MAX_TILES];
    unsigned ntiles;
    uint64_t max_cycles; /* 0 = unlimited */
    unsigned threads;    /* host worker threads for sim_run: 0 or 1, the calling thread alone */
    bool pin;            /* pin worker i > 0 to physical core i (hwloc), when there are enough */
    /* What the last sim_run did, for the bench and the tests: worker threads it ran on (fewer
     * than `threads` when there are fewer tiles, or a thread could not be started), windows
     * run, and windows skipped because no tile had anything to do in them. */
    unsigned ran_threads;
    uint64_t windows, windows_skipped;
    /* Between windows (a chip, core/chip.c): called on one thread while every tile stands at
     * the window's end and no tile runs (struct sim_exchange). It may hand tiles work (their
     * NIU inboxes); a tile that had finished and now has something to do runs again. It returns
     * the earliest cycle at which something outside the tiles may need a window (CYCLE_NEVER:
     * nothing). NULL: none. */
    uint64_t (*exchange)(void *ctx, struct sim_exchange *e);
    void *exchange_ctx;
    uint64_t stopped_at; /* the h at which the exchange stopped the run, else CYCLE_NEVER */
    /* Set by a host that changed a tile between sim_advance calls (core/chip.c host accesses):
     * the next call looks for tiles it gave work. */
    bool host_wrote;
};

/* A new tile of architecture `arch` at power-on, owned by the sim; NULL when out of memory or
 * when the sim already holds SIM_MAX_TILES. */
struct tile *sim_add_tile(struct sim *s, const struct arch *arch);
/* Adds a tile made by tile_create (the sim owns it from now on); NULL when the sim already holds
 * SIM_MAX_TILES (the tile is then still the caller's). */
struct tile *sim_adopt_tile(struct sim *s, struct tile *t);
/* Frees every tile. */
void sim_destroy(struct sim *s);
/* Runs every tile to its end in windows of `window` cycles (> 0): each window, every tile still
 * running goes up to the window's end before any goes further. A window starts where the
 * previous one ended, or at the earliest cycle any tile has something to do, if that is later
 * (idle time is skipped whole). The tiles are split into `threads` contiguous ranges, one per
 * host thread; a thread runs only its own tiles, and the threads meet once per window. The
 * horizons do not depend on the thread count, so neither does anything a tile does: results,
 * stats and traces are the same at any count. A tile left running at max_cycles stops there
 * with the cycle-limit error. Each tile ends as tile_run would end it alone; returns the first
 * tile's error kind (in tile order) that is not ERR_NONE, else ERR_NONE. */
enum err_kind sim_run(struct sim *s, uint64_t window);

/* sim_run in steps, for a host that drives the simulation (the libttsim interface,
 * core/libttsim.c): sim_begin, then sim_advance as often as the host wants, then sim_end.
 * sim_advance runs windows (as sim_run does, on `threads` host threads started for the call and
 * joined before it returns) until every tile stands at `until`; a tile that has finished stays
 * idle, and runs again when something (the host's writes between calls, a NoC delivery) gives
 * it work. False when the exchange stopped the run (an error). The windows are cut at each
 * `until`, so they depend on the host's calls, never on the thread count. sim_end ends every
 * tile as sim_run does; with `stop_running`, a tile still running ends at the current horizon
 * with no error (the host is done with it) instead of being run to its end. */
struct sim_run_ctx;
struct sim_run_ctx *sim_begin(struct sim *s, uint64_t window); /* NULL: out of memory */
bool sim_advance(struct sim_run_ctx *x, uint64_t until, unsigned threads);
uint64_t sim_now(const struct sim_run_ctx *x); /* the horizon every tile has reached */
enum err_kind sim_end(struct sim_run_ctx *x, bool stop_running);

#define SIM_MAX_XFER 16     /* --load and --dump options, each */
#define SIM_MAX_HOST_ERRORS 8

/* --load FILE@ADDR and --dump ADDR:LEN:FILE */
struct sim_xfer {
    const char *file;
    uint64_t addr, len;
    bool written; /* dumps: the file was written completely */
};

/* Everything about how a run ended that the report and the stats show besides the tile. */
struct zones;

struct sim_outcome {
    int exit_status;  /* the first failure's code (docs/user-guide.md "Exit status"), else 0 */
    int guest_core;   /* the core whose non-zero exit code decided exit_status, or -1 */
    unsigned nhost_errors;
    char host_error[SIM_MAX_HOST_ERRORS][300]; /* "cannot write FILE: reason", in order */
    const struct sim_xfer *dumps;
    unsigned ndumps;
    const struct zones *zones; /* tt-llk's profiler zones (trace/zones.h), or NULL */
    /* The run description, when there was one: its file, boot mode, end condition ("" for
     * none) and whether the run ended because that condition held. */
    const char *run_file, *run_boot, *run_end;
    bool run_ended;
};

/* The exit status the run itself earns: the error's code if tensim stopped it, else the first
 * non-zero guest exit code in core order (TRISC0, TRISC1, TRISC2, BRISC), mapped by
 * guest_exit_status, else 0. */
void sim_outcome_init(struct sim_outcome *o, const struct tile *t);
/* Record a host-side failure after the run; it sets the exit status only if nothing failed
 * before it (the first failure wins), and is printed at once as "tensim: host error: ...". */
void sim_host_error(struct sim_outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "tensim: <category>: <where> pc=... cycle=...: <reason>" and the detail lines. */
void sim_print_error(const struct sim_error *e, FILE *f);
/* Print one line per core that exited non-zero: "tensim: guest exit: TRISC0 cycle=...: exit
 * code 7". */
void sim_print_guest_exits(const struct tile *t, FILE *f);

#endif
