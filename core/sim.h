/* The simulation context: options of one run and the tiles it owns, and how a run ends: the
 * exit status, the guest's exit code and the host-side failures after the run. Issue 2 builds
 * one tile; the multi-tile, multi-thread host side grows here. */
#ifndef TENSIM_CORE_SIM_H
#define TENSIM_CORE_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tile.h"

struct sim {
    struct tile *tile;
    uint64_t max_cycles; /* 0 = unlimited */
};

#define SIM_MAX_XFER 16     /* --load and --dump options, each */
#define SIM_MAX_HOST_ERRORS 8

/* --load FILE@ADDR and --dump ADDR:LEN:FILE */
struct sim_xfer {
    const char *file;
    uint64_t addr, len;
    bool written; /* dumps: the file was written completely */
};

/* Everything about how a run ended that the report and the stats show besides the tile. */
struct sim_outcome {
    int exit_status;  /* the first failure's code (docs/user-guide.md "Exit status"), else 0 */
    int guest_core;   /* the core whose non-zero exit code decided exit_status, or -1 */
    unsigned nhost_errors;
    char host_error[SIM_MAX_HOST_ERRORS][300]; /* "cannot write FILE: reason", in order */
    const struct sim_xfer *dumps;
    unsigned ndumps;
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
