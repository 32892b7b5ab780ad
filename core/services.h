/* Tile services: what units, pipes, cores and device owners may call on their tile (built in
 * core/services.c, apart from the scheduler): report an error, wake an agent, and reach the other
 * units without naming them (docs/architecture.md "Layers and owners"). L1 writes have their own
 * rule (mem/l1.h, tile_code_written in core/tile.h). */
#ifndef TENSIM_CORE_SERVICES_H
#define TENSIM_CORE_SERVICES_H

#include <stdbool.h>
#include <stdint.h>

#include "../units/unit.h"
#include "error.h"

struct tile;

/* Raise an error (first one wins). `core` may be -1. Returns 0 so callers can `return`. */
int tile_error(struct tile *t, enum err_kind kind, int core, uint32_t pc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A warning on the tile's error stream ("tensim: warning: ..."); the run goes on. */
void tile_warning(struct tile *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append a line to the error's detail text. */
void tile_error_detail(struct tile *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Which of the STALLWAIT conditions in cond_mask (the architecture's bit numbering) still say
 * "wait" for thread th (FLUSHDMA asks, as a latched STALLWAIT would). */
unsigned tile_conditions_waiting(const struct tile *t, unsigned th, unsigned cond_mask);
/* Hand signal s (enum unit_signal) with its arguments to every unit that takes signals. */
void tile_signal(struct tile *t, enum unit_signal s, unsigned a, unsigned b);
/* Ask the units query q (enum unit_query); false (and v unchanged) when none answers. */
bool tile_query(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4]);
/* Wake the coprocessor at `cycle` (a push, a semaphore write, a config write ...). */
void tile_wake_coproc(struct tile *t, uint64_t cycle);
/* Make a blocked core runnable at `cycle`, stopping the running agent in time. */
void tile_wake_core(struct tile *t, int id, uint64_t cycle);
/* Let cores blocked pushing into thread th's FIFO1 retry this cycle. */
void tile_unblock_pushers(struct tile *t, unsigned th);

#endif
