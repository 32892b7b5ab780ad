/* Sleeping pollers (docs/architecture.md "Sleeping pollers"): a core going round a polling loop
 * (riscv/poll.h) whose rounds repeat exactly skips rounds in one step, as many as fit before the
 * next cycle at which another agent could change what it reads, and is charged for each of them
 * as if it had run it. Only with run-ahead on (tensim run --lockstep runs every round).
 *
 * A round repeats when the core comes back to the loop's top in the same state as the round
 * before (its registers, caches, branch history and configuration; no result, store or load
 * slot pending) and nothing was written anywhere meanwhile (t->epoch): then the next round reads
 * the same values at the same offsets and does exactly what the last did. Nothing changes those
 * values before the first cycle another agent acts, except a core that is itself repeating a
 * polling loop, which writes nothing: such cores do not bound each other (unless both load
 * through the same L1 port, where their bookings interleave). */
#ifndef TENSIM_RISCV_POLL_SLEEP_H
#define TENSIM_RISCV_POLL_SLEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"

struct tile;

/* The state a core had at its last round's start, to compare with the next. */
struct poll_sleep {
    bool have;             /* a round's start is recorded below */
    uint64_t at_instret;   /* the round start last looked at (once per round, stalls or not) */
    uint32_t lo;
    uint64_t wake, epoch;
    uint32_t x[32];
    uint32_t cfg0, pmacfg[2], scratch[4], tt_status[2];
    int64_t cycle_offset, instret_offset;
    struct l0_line l0[L0_MAX];
    unsigned l0_victim, sq_head;
    uint32_t rng;
    uint8_t last_stall;
    uint8_t bht[BHT_SIZE];
    uint32_t btb[BHT_SIZE];
    struct core_stats st;
};

/* Core c is at its polling loop's top at cycle `now`, going round (before the top instruction
 * issues, run-ahead on, not past the others). True: it skipped rounds (c->wake moved on, its
 * counters charged); the executor looks at the core afresh. */
bool poll_round(struct tile *t, struct rv_core *c, uint64_t now);

#endif
