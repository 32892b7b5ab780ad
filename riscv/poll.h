/* Polling loops: a core reading something until it changes and doing nothing else
 * (docs/user-guide.md "Polling loops" states the rule). One rule serves both the run, which
 * charges the cycles a core spends going round such a loop to the `polling` stall, and the
 * profile's list of polling loops (riscv/profile.c).
 *
 * The rule looks at the code once, when the loop's closing branch is first decoded: it marks
 * the loop's instructions in the tile's predecode cache (struct rv_insn.poll), so the run pays
 * one test of that decoded flag per instruction. */
#ifndef TENSIM_RISCV_POLL_H
#define TENSIM_RISCV_POLL_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"

struct tile;

/* The marks, in the tile's predecode cache only (rv_decode never sets them). RV_POLL_MARK, or-ed
 * into a slot's op: an instruction of a polling loop, its closing branch included (every op is
 * below 0x80). RV_POLL_CLOSING, or-ed into a marked branch's imm (branch offsets are even, so
 * bit 0 is free): the branch that closes the loop. The executor takes both off its copy of the
 * slot; the plain fields keep the slot at 8 bytes and its copy one load. */
enum {
    POLL_MAX_BODY = 32, /* instructions in a loop, its closing branch included */
    RV_POLL_MARK = 0x80,
    RV_POLL_CLOSING = 1,
};

/* A predecode slot's operation without its polling mark. */
static inline enum rv_op rv_slot_op(const struct rv_insn *slot)
{
    return (enum rv_op)(slot->op & (uint8_t)~RV_POLL_MARK);
}

/* Is the instruction at `branch` in l1 (l1_size bytes) the closing branch of a polling loop?
 * Then *target is the loop's first instruction. Reads the words themselves, not the cache. */
bool rv_poll_loop(const uint8_t *l1, uint32_t l1_size, uint32_t branch, uint32_t *target);

/* Fills the predecode slot of pc (pc < L1 size, word aligned) and, when it is the closing
 * branch of a polling loop, marks the loop's instructions (decoding those not decoded yet). */
struct rv_insn *rv_predecode(struct tile *t, uint32_t pc);

#endif
