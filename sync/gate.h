/* The coprocessor agent: each cycle, every thread's Wait Gate and frontend stages
 * (docs/architecture.md "The coprocessor agent"). */
#ifndef TENSIM_SYNC_GATE_H
#define TENSIM_SYNC_GATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct tile;
struct tt_form;
struct latched_wait;
struct tensix_thread;

void coproc_reset(struct tile *t);
/* Every unit's tick is called in the next cycle, whether or not it has work (a run starting:
 * its clock may have started again). */
void coproc_wake_ticks(struct tile *t);
/* The coprocessor's turn (core/tile.c): its cycles from t->coproc_wake while they are below
 * t->limit and no error is raised, each by coproc_step or, when exactly one thread is live and
 * nothing looks on, by the same cycle specialised to that case. */
void coproc_run(struct tile *t);
/* The earliest future cycle at which a unit changes observable state (CYCLE_NEVER if none). */
uint64_t coproc_next_event(const struct tile *t);
/* Add the cycles since the thread's last accounting change, up to `end`, to its counters. */
void coproc_account_interval(struct tile *t, unsigned th, uint64_t end);
/* tt_cfg_qstatus (busy = false) / tt_cfg_bstatus (busy = true) type bits of thread th. */
unsigned thread_status_bits(const struct tile *t, unsigned th, bool busy);
/* Thread th's hold cycles by reason (GS_COUNT of them, into held) as they would stand with its open accounting interval closed
 * at `end`, without closing it (regions read them mid-run). */
void gate_held_through(const struct tile *t, unsigned th, uint64_t end, uint64_t *held);
/* Close every thread's accounting interval at cycle `end`. */
void coproc_account_close(struct tile *t, uint64_t end);
/* Append why each thread is stuck to the error detail (deadlock / drain reports). */
void coproc_describe(struct tile *t);
/* Block bits (B0..B8) an instruction is caught by, and whether a latched wait catches it. */
bool gate_wait_catches(const struct tile *t, const struct latched_wait *w, const struct tt_form *f);
/* Conditions of a latched STALLWAIT that still say "wait" (arch bit numbering). */
unsigned gate_conditions_waiting(const struct tile *t, unsigned th, unsigned cond_mask);

#endif
