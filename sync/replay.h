/* The replay expander of one Tensix thread: between FIFO2 and FIFO3 (spec/sync-timing.md §1).
 *
 * Source: WH:REPLAY.md (functional model and performance). The BlackholeA0 tree has no REPLAY
 * page, so both architectures share this model (skip_nops below is a what-if, off by default).
 *
 * REPLAY fields: Index [18:14], Count [9:4] (0 means 64), Exec [1], Load [0]. Buffer slots are
 * Index, Index+1, ... modulo 32.
 *
 * Per cycle (replay_step):
 *  - passing through: take at most one word from `in`;
 *      plain word:           moved to `out` (needs room);
 *      REPLAY, Load=0:       consumed and buffer[Index] emitted in the same cycle (needs room);
 *                            the next Count-1 cycles emit the rest and ingest nothing;
 *      REPLAY, Load=1:       consumed, nothing emitted (does not need room); the next Count
 *                            words are recorded one per cycle as they arrive, and with Exec=1
 *                            each is also emitted in the cycle it is recorded (needs room);
 *  - no extra cycles when switching modes;
 *  - with skip_nops (`--timing replay.skips_nops=1`; off by default on both architectures),
 *    playback passes over plain NOPs (opcode 0x02, not DMANOP or SFPNOP) in the buffer without
 *    emitting them or spending a cycle on them, as the MOP expander does with its NOP slots
 *    (WH:MOPExpander.md IsNop); a playback of NOPs only takes the one cycle that consumes the
 *    REPLAY. One reading of silicon's matmul tile-K figures (shared/calibration.md
 *    "Whole-kernel figures": the MOP whose replays hold 64 NOPs besides the 32 MVMULs costs 54
 *    cycles, 5 more than without them) asks for it; WH:NOP.md (a NOP delays its thread's next
 *    instruction by one cycle) and tt-llk's throttle levels, which are replayed NOPs documented
 *    to slow the MVMUL rate, ask against it, and win (core/timing.def, docs/timing-model.md).
 *    Except the NOP right after a WRCFG or CFGSHIFTMASK (the last word this expander put out,
 *    in any mode): it is emitted and takes its cycle at the gate. BH:WRCFG.md and
 *    BH:CFGSHIFTMASK.md "Instruction scheduling": the instruction immediately after must not
 *    consume the configuration written (visible from issue + 2), and "a NOP instruction can be
 *    inserted to ensure this (any kind of Tensix NOP suffices, though plain NOP is
 *    conventional)". tt-llk's matmul unpack replays exactly WRCFG(base address), NOP, UNPACR;
 *    passing over that NOP let the UNPACR read the old address (a silent wrong answer that
 *    depended on timing when skip_nops was on by default).
 * A full `out` stops every move that emits; nothing is dropped or repeated.
 *
 * Undefined cases (PIPE_ERROR): a MOP, MOP_CFG or REPLAY word arriving while recording. The
 * expansion of a REPLAY may not contain MOP (WH:MOPExpander.md), and nothing downstream of the
 * replay expander handles MOP, MOP_CFG or REPLAY (they never reach the Wait Gate,
 * WH:STALLWAIT.md), so a recorded one could only misbehave on playback. MOP and MOP_CFG words
 * met while passing through are forwarded untouched, as the functional model does; whoever
 * receives them decides. */
#ifndef TENSIM_SYNC_REPLAY_H
#define TENSIM_SYNC_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../units/tensix_isa.h"
#include "fifo.h"
#include "pipe_step.h"

#define REPLAY_BUF_WORDS 32

enum replay_phase {
    REPLAY_PHASE_PASS,   /* ingesting */
    REPLAY_PHASE_RECORD, /* `remaining` words still to record at `index` */
    REPLAY_PHASE_PLAY,   /* `remaining` words still to emit from `index` */
};

struct replay_expander {
    uint32_t buf[REPLAY_BUF_WORDS]; /* zero after reset, as in the functional model */
    enum replay_phase phase;
    unsigned index;     /* next buffer slot, 0..31 */
    unsigned remaining; /* words left in the current record or playback */
    bool exec;          /* recording also emits */
    tt_origin origin;   /* the playing REPLAY's push: what its playback carries (sync/origin.h) */
    bool skip_nops;     /* configuration (core/timing.def replay.skips_nops), kept across resets */
    bool after_cfg_write; /* the last word put out was a WRCFG or CFGSHIFTMASK: the NOP that
                           * follows it is emitted (BH:WRCFG.md "Instruction scheduling") */

    bool failed;
    char err[PIPE_ERR_MAX];

    uint64_t ingested; /* words taken from `in` (REPLAY words included) */
    uint64_t emitted;  /* words put into `out` */
    uint64_t replays;  /* REPLAY instructions consumed */
    uint64_t recorded; /* words written to the buffer */
    uint64_t skipped;  /* NOPs passed over in playback (skip_nops) */
};

/* Power-on state; skip_nops as given. */
void replay_reset(struct replay_expander *r, bool skip_nops);
enum pipe_step replay_step(struct replay_expander *r, struct tt_fifo *in, struct tt_fifo *out);

/* Pass-through of the plain word w at the head of `in`, which has room after it (no REPLAY:
 * that one starts a playback or a recording). Inline: in pass-through the expander does this
 * almost every cycle it moves. */
static inline void replay_pass_word(struct replay_expander *r, struct tt_fifo *in,
                                    struct tt_fifo *out, uint32_t w)
{
    const tt_origin o = tt_fifo_origin(in, 0);
    tt_fifo_drop(in);
    tt_fifo_put(out, w, o);
    const unsigned op = tt_opcode(w);
    r->after_cfg_write = op == TT_OPC_WRCFG || op == TT_OPC_CFGSHIFTMASK;
    r->ingested++;
    r->emitted++;
}

/* replay_step, with pass-through inline: nothing to take, no room for a plain word, or the
 * plain word passed. */
static inline enum pipe_step replay_step_inline(struct replay_expander *r, struct tt_fifo *in,
                                                struct tt_fifo *out)
{
    if (r->phase != REPLAY_PHASE_PASS || r->failed)
        return replay_step(r, in, out);
    if (!in->count)
        return PIPE_IDLE;
    const uint32_t w = tt_fifo_peek(in, 0);
    if (tt_opcode(w) == TT_OPC_REPLAY) /* may move without room (Load) */
        return replay_step(r, in, out);
    if (!tt_fifo_has_room(out, 1))
        return PIPE_IDLE;
    replay_pass_word(r, in, out, w);
    return PIPE_PROGRESS;
}

/* A playback or a recording is in progress. */
bool replay_busy(const struct replay_expander *r);

#endif
