/* The simulation context: options of one run and the tiles it owns. Issue 2 builds one tile;
 * the multi-tile, multi-thread host side grows here. */
#ifndef TENSIM_CORE_SIM_H
#define TENSIM_CORE_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "tile.h"

struct sim {
    struct tile *tile;
    uint64_t max_cycles; /* 0 = unlimited */
};

/* Print "tensim: <category>: <where> pc=... cycle=...: <reason>" and the detail lines. */
void sim_print_error(const struct sim_error *e, FILE *f);

#endif
