/* MOP expander (WH:MOPExpander.md; BH:MOPExpander.md defers to it). See mop.h for the cycle
 * rules. */
#include "mop.h"

#include <stdio.h>
#include <string.h>

#include "../units/tensix_isa.h"

/* MopCfg slots, template 0 / template 1 (WH:MOPExpander.md, "Configuration"). */
enum {
    CFG_OUTER_COUNT = 0, /* t1, low 7 bits */
    CFG_FLAGS = 1,       /* t0: bit 0 HasB, bit 1 HasA123 */
    CFG_INNER_COUNT = 1, /* t1, low 7 bits */
    CFG_INSN_B = 2,
    CFG_START_OP = 2,
    CFG_INSN_A0 = 3,
    CFG_END_OP0 = 3,
    CFG_INSN_A1 = 4, /* A2, A3 follow */
    CFG_END_OP1 = 4,
    CFG_LOOP_OP = 5,
    CFG_LOOP_OP1 = 6,
    CFG_SKIP_A0 = 7,
    CFG_LOOP0_LAST = 7, /* last inner iteration of the last outer iteration */
    CFG_SKIP_B = 8,
    CFG_LOOP1_LAST = 8, /* last inner iteration of the other outer iterations */
};

/* The expander treats an instruction as absent only when its opcode is plain NOP; DMANOP,
 * SFPNOP and friends are real instructions to it (WH:MOPExpander.md, IsNop). */
static bool is_nop(uint32_t w)
{
    return tt_opcode(w) == TT_OPC_NOP;
}

static void fail(struct mop_expander *m, const char *what, uint32_t value)
{
    if (m->failed)
        return;
    m->failed = true;
    snprintf(m->err, sizeof m->err, "MOP expander: %s (0x%08X)", what, (unsigned)value);
}

void mop_reset(struct mop_expander *m)
{
    memset(m, 0, sizeof *m);
    m->phase = MOP_PHASE_IDLE;
}

void mop_cfg_write(struct mop_expander *m, unsigned index, uint32_t value)
{
    if (index >= MOP_CFG_WORDS) {
        fail(m, "MopCfg index past 8", index);
        return;
    }
    /* Hardware reads MopCfg while it expands, so a write now would change the running
     * expansion in ways the documents do not pin down (WH:MOPExpander.md, "Configuration"). */
    if (mop_busy(m))
        fail(m, "MopCfg written while an expansion is in progress; wait with "
                "MOPExpanderDoneCheck first", value);
    m->cfg[index] = value;
}

bool mop_busy(const struct mop_expander *m)
{
    return m->phase == MOP_PHASE_EXPANDING;
}

static void gen_init(struct mop_gen *g, const uint32_t *cfg, uint32_t mask_hi, uint32_t mop)
{
    memset(g, 0, sizeof *g);
    g->tmpl = TT_GET_MOP_Template(mop);
    if (g->tmpl == 0) {
        g->mask = (mask_hi << 16) | TT_GET_MOP_MaskLo(mop);
        g->iters = TT_GET_MOP_Count1(mop) + 1;
        return;
    }
    g->outer_count = cfg[CFG_OUTER_COUNT] & 0x7Fu;
    g->inner_count = cfg[CFG_INNER_COUNT] & 0x7Fu;
    g->loop_op = cfg[CFG_LOOP_OP];
    /* With a second loop op the inner loop alternates LoopOp, LoopOp1 for twice the count. */
    if (!is_nop(cfg[CFG_LOOP_OP1])) {
        g->loop_flip = cfg[CFG_LOOP_OP] ^ cfg[CFG_LOOP_OP1];
        g->inner_count *= 2;
    }
    /* Documented hardware bug: this one configuration runs the outer loop 128 extra times. */
    if (g->outer_count == 1 && is_nop(cfg[CFG_START_OP]) && g->inner_count == 0 &&
        !is_nop(cfg[CFG_END_OP0]))
        g->outer_count += 128;
    g->step = MOP_T1_START;
}

/* Template 0: Count1+1 iterations; mask bit 0 clear takes A0[,A1,A2,A3][,B], set takes
 * SkipA0[,SkipB]; the mask shifts right once per iteration (zeros after 32). */
static bool gen_next_t0(struct mop_gen *g, const uint32_t *cfg, uint32_t *w)
{
    bool has_b = cfg[CFG_FLAGS] & 1u, has_a123 = cfg[CFG_FLAGS] & 2u;
    while (g->iter < g->iters) {
        unsigned k = g->slot++;
        if (!(g->mask & 1u)) {
            unsigned b_slot = has_a123 ? 4 : 1;
            if (k == 0) {
                *w = cfg[CFG_INSN_A0];
                return true;
            }
            if (has_a123 && k <= 3) {
                *w = cfg[CFG_INSN_A1 + k - 1];
                return true;
            }
            if (has_b && k == b_slot) {
                *w = cfg[CFG_INSN_B];
                return true;
            }
        } else {
            if (k == 0) {
                *w = cfg[CFG_SKIP_A0];
                return true;
            }
            if (has_b && k == 1) {
                *w = cfg[CFG_SKIP_B];
                return true;
            }
        }
        g->slot = 0;
        g->iter++;
        g->mask >>= 1;
    }
    return false;
}

/* Template 1: for each outer iteration, StartOp, the inner loop, EndOp0, EndOp1; NOP entries
 * are left out (EndOp1 also when EndOp0 is NOP). The last inner iteration emits Loop1Last, or
 * Loop0Last in the last outer iteration. */
static bool gen_next_t1(struct mop_gen *g, const uint32_t *cfg, uint32_t *w)
{
    while (g->outer < g->outer_count) {
        switch (g->step) {
        case MOP_T1_START:
            g->step = MOP_T1_LOOP;
            g->inner = 0;
            if (!is_nop(cfg[CFG_START_OP])) {
                *w = cfg[CFG_START_OP];
                return true;
            }
            break;
        case MOP_T1_LOOP:
            if (g->inner < g->inner_count) {
                if (g->inner != g->inner_count - 1)
                    *w = g->loop_op;
                else if (g->outer != g->outer_count - 1)
                    *w = cfg[CFG_LOOP1_LAST];
                else
                    *w = cfg[CFG_LOOP0_LAST];
                g->loop_op ^= g->loop_flip;
                g->inner++;
                return true;
            }
            g->step = MOP_T1_END0;
            break;
        case MOP_T1_END0:
            if (!is_nop(cfg[CFG_END_OP0])) {
                g->step = MOP_T1_END1;
                *w = cfg[CFG_END_OP0];
                return true;
            }
            g->step = MOP_T1_START;
            g->outer++;
            break;
        default: /* MOP_T1_END1 */
            g->step = MOP_T1_START;
            g->outer++;
            if (!is_nop(cfg[CFG_END_OP1])) {
                *w = cfg[CFG_END_OP1];
                return true;
            }
            break;
        }
    }
    return false;
}

/* Control flow between two emitted instructions costs nothing (WH:MOPExpander.md,
 * "Performance"), so this runs to the next instruction within the cycle. */
bool mop_gen_next(struct mop_gen *g, const uint32_t *cfg, uint32_t *w)
{
    return g->tmpl == 0 ? gen_next_t0(g, cfg, w) : gen_next_t1(g, cfg, w);
}

static void push1(struct tt_fifo *out, uint32_t w, tt_origin o)
{
    tt_fifo_put(out, w, o); /* callers checked tt_fifo_has_room */
}

/* The MOP at the head of `in` starts: it is consumed and its first instruction goes out in the
 * same cycle. With a full `out` nothing happens (unless the expansion is empty). */
static enum pipe_step start_mop(struct mop_expander *m, struct tt_fifo *in, struct tt_fifo *out)
{
    uint32_t mop = tt_fifo_peek(in, 0), first;
    struct mop_gen g;
    gen_init(&g, m->cfg, m->mask_hi, mop);
    bool any = mop_gen_next(&g, m->cfg, &first);
    if (any && !tt_fifo_has_room(out, 1))
        return PIPE_IDLE;
    tt_fifo_take(in, &mop, &m->origin);
    m->ingested++;
    m->expansions++;
    m->gen = g;
    if (!any) {
        /* Template 1 with OuterCount 0 (or only NOPs): the MOP vanishes. We still count the
         * transition cycle after it, as after any expansion. */
        m->phase = MOP_PHASE_TRANSITION;
        return PIPE_PROGRESS;
    }
    /* the first instruction of the expansion carries the push's arrow, the rest its origin */
    push1(out, first, m->origin);
    m->origin = origin_follow(m->origin);
    m->emitted++;
    m->phase = mop_gen_next(&m->gen, m->cfg, &m->next) ? MOP_PHASE_EXPANDING : MOP_PHASE_TRANSITION;
    return PIPE_PROGRESS;
}

enum pipe_step mop_step(struct mop_expander *m, struct tt_fifo *in, struct tt_fifo *out)
{
    if (m->failed)
        return PIPE_ERROR;

    switch (m->phase) {
    case MOP_PHASE_EXPANDING:
        return mop_expand_one(m, out);

    case MOP_PHASE_TRANSITION:
        /* One cycle with no ingest and no emit unless the next instruction is another MOP
         * (WH:MOPExpander.md, "Performance"). A MOP that cannot start for lack of room simply
         * starts later from the idle state, which has no penalty either. With nothing waiting
         * the cycle passes unnoticed (not counted as a bubble). */
        if (in->count && tt_opcode(tt_fifo_peek(in, 0)) == TT_OPC_MOP) {
            enum pipe_step r = start_mop(m, in, out);
            if (r == PIPE_PROGRESS)
                return r;
        } else if (in->count) {
            m->bubbles++;
        }
        m->phase = MOP_PHASE_IDLE;
        return PIPE_PROGRESS;

    default: /* MOP_PHASE_IDLE */
        break;
    }

    if (!in->count)
        return PIPE_IDLE;
    uint32_t w = tt_fifo_peek(in, 0);
    switch (tt_opcode(w)) {
    case TT_OPC_MOP:
        return start_mop(m, in, out);
    case TT_OPC_MOP_CFG:
        /* Consumed here, never forwarded (WH:MOP_CFG.md); emits nothing, so `out` being full
         * does not hold it back. */
        tt_fifo_pop(in, &w);
        m->mask_hi = TT_GET_MOP_CFG_MaskHi(w);
        m->ingested++;
        return PIPE_PROGRESS;
    default:
        if (!tt_fifo_has_room(out, 1))
            return PIPE_IDLE;
        tt_origin o;
        tt_fifo_take(in, &w, &o);
        push1(out, w, o);
        m->ingested++;
        m->emitted++;
        return PIPE_PROGRESS;
    }
}
