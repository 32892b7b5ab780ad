/* The MOP expander of one Tensix thread: between FIFO1 and FIFO2 (spec/sync-timing.md §1).
 *
 * Sources: WH:MOPExpander.md (functional model, MopCfg table, performance), WH:MOP.md,
 * WH:MOP_CFG.md; BH:MOPExpander.md only points at the Wormhole page, so both architectures
 * share this model.
 *
 * Per cycle (mop_step):
 *  - not expanding: take at most one word from `in`.
 *      plain word:  moved to `out` (needs room in `out`);
 *      MOP_CFG:     consumed, MaskHi latched, nothing emitted (does not need room);
 *      MOP:         consumed and the first instruction of its expansion emitted in the same
 *                   cycle (needs room unless the expansion is empty);
 *  - expanding: emit the next instruction of the expansion (needs room), ingest nothing;
 *  - the cycle after the last instruction of an expansion (or after the MOP itself when its
 *    expansion is empty) is a transition cycle: if the head of `in` is a MOP it starts at
 *    once, otherwise the cycle passes with nothing ingested or emitted.
 * A full `out` stops every move; nothing is dropped or repeated.
 *
 * Nothing here allocates; the struct is plain data, copied or reset freely. */
#ifndef TENSIM_SYNC_MOP_H
#define TENSIM_SYNC_MOP_H

#include <stdbool.h>
#include <stdint.h>

#include "fifo.h"
#include "pipe_step.h"

#define MOP_CFG_WORDS 9
#define MOP_CFG_BASE 0xFFB80000u /* TENSIX_MOP_CFG_BASE: MopCfg[i] at base + 4*i, write-only */

enum mop_phase {
    MOP_PHASE_IDLE,       /* ingesting */
    MOP_PHASE_EXPANDING,  /* `next` holds the next instruction of the expansion */
    MOP_PHASE_TRANSITION, /* the cycle after an expansion */
};

/* Template-1 position inside one outer iteration: start op, inner loop, end op 0, end op 1. */
enum mop_t1_step { MOP_T1_START, MOP_T1_LOOP, MOP_T1_END0, MOP_T1_END1 };

/* Where the expansion of one MOP stands; the next instruction is found on demand. */
struct mop_gen {
    unsigned tmpl; /* 0 or 1 */
    /* template 0 */
    uint32_t mask;        /* remaining mask; bit 0 selects the current iteration's path */
    unsigned iter, iters; /* iteration number, Count1 + 1 */
    unsigned slot;        /* instructions already emitted in this iteration */
    /* template 1 */
    unsigned outer, outer_count;
    unsigned inner, inner_count; /* inner_count already doubled when LoopOp1 is used */
    unsigned step;               /* enum mop_t1_step */
    uint32_t loop_op, loop_flip;
};

struct mop_expander {
    uint32_t cfg[MOP_CFG_WORDS]; /* MopCfg, written by the thread's RISC-V core */
    uint32_t mask_hi;            /* latched by MOP_CFG; upper half of the template-0 mask */
    enum mop_phase phase;
    struct mop_gen gen;
    uint32_t next; /* valid while expanding */
    tt_origin origin; /* the expanding MOP's push: what its instructions carry (sync/origin.h) */

    bool failed;
    char err[PIPE_ERR_MAX];

    uint64_t ingested;   /* words taken from `in` (MOP and MOP_CFG included) */
    uint64_t emitted;    /* words put into `out` */
    uint64_t expansions; /* MOP instructions expanded */
    uint64_t bubbles;    /* transition cycles that held back a waiting non-MOP word */
};

void mop_reset(struct mop_expander *m);
/* Store to MOP_CFG_BASE + 4*index. Writing while an expansion is in progress (the documents
 * forbid it) or an index past 8 makes the next mop_step fail. */
void mop_cfg_write(struct mop_expander *m, unsigned index, uint32_t value);
enum pipe_step mop_step(struct mop_expander *m, struct tt_fifo *in, struct tt_fifo *out);

/* The next instruction of an expansion into *w; false when it has none left. */
bool mop_gen_next(struct mop_gen *g, const uint32_t *cfg, uint32_t *w);

/* One expanding cycle: with room in `out` the held instruction goes out and the next is found.
 * Inline, with the inner loop of template 1 (all but its last iteration emit LoopOp, or LoopOp
 * and LoopOp1 in turn) taken here, as mop_gen_next would take it: a busy expander spends most
 * of its cycles there. */
static inline enum pipe_step mop_expand_one(struct mop_expander *m, struct tt_fifo *out)
{
    if (!tt_fifo_has_room(out, 1))
        return PIPE_IDLE;
    tt_fifo_put(out, m->next, m->origin);
    m->emitted++;
    struct mop_gen *g = &m->gen;
    if (g->tmpl == 1 && g->step == MOP_T1_LOOP && g->inner + 1 < g->inner_count) {
        m->next = g->loop_op;
        g->loop_op ^= g->loop_flip;
        g->inner++;
    } else if (!mop_gen_next(g, m->cfg, &m->next)) {
        m->phase = MOP_PHASE_TRANSITION;
    }
    return PIPE_PROGRESS;
}

/* mop_step, with its expanding cycle (the step a busy expander takes almost every cycle) and
 * its idle cycle with nothing to take inline; a failed expander goes to mop_step, which
 * answers PIPE_ERROR. */
static inline enum pipe_step mop_step_inline(struct mop_expander *m, struct tt_fifo *in,
                                             struct tt_fifo *out)
{
    if (m->failed)
        return mop_step(m, in, out);
    if (m->phase == MOP_PHASE_EXPANDING)
        return mop_expand_one(m, out);
    return m->phase == MOP_PHASE_IDLE && !in->count ? PIPE_IDLE : mop_step(m, in, out);
}

/* An expansion is in progress (half of MOPExpanderDoneCheck; the other half is "no MOP in
 * FIFO1", which the caller checks). */
bool mop_busy(const struct mop_expander *m);

#endif
