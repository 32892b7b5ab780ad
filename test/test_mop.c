/* The MOP expander (sync/mop.c) driven cycle by cycle. Every expected sequence and cycle number
 * below is worked out by hand from WH:MOPExpander.md (functional model and "Performance") and
 * spec/sync-timing.md §1. Cycle 1 is the first call of mop_step. */
#include <criterion/criterion.h>
#include <string.h>

#include "../sync/mop.h"
#include "tensix_ops.h"

/* Hand encodings (units/tensix.def): MOP Template[23] Count1[22:16] MaskLo[15:0];
 * MOP_CFG MaskHi[15:0]; NOP is opcode 0x02 with no fields. */
#define MOP(t, c1, lo) ((0x01u << 24) | ((uint32_t)(t) << 23) | ((uint32_t)(c1) << 16) | (lo))
#define MOPCFG(hi) ((0x03u << 24) | (hi))
#define NOP 0x02000000u
#define DMANOP 0x60000000u /* a "no-op" the expander does not treat as NOP */
#define W(k) (0x40000000u | (k)) /* ordinary instructions, told apart by k */

#define LOG_MAX 512

/* in -> expander -> out -> sink. The sink (when on) takes one word from `out` after each step. */
struct rig {
    struct mop_expander m;
    struct tt_fifo in, out;
    bool sink;
    uint64_t cycle;
    unsigned n; /* words that entered `out` */
    uint32_t word[LOG_MAX];
    uint64_t at[LOG_MAX]; /* cycle each word entered `out` */
    uint32_t last_word;
    uint64_t last_at;
    unsigned drained;
    uint32_t drain_log[LOG_MAX];
};

static void rig_init(struct rig *g, unsigned out_depth)
{
    memset(g, 0, sizeof *g);
    mop_reset(&g->m);
    tt_fifo_init(&g->in, 32, 0);
    tt_fifo_init(&g->out, out_depth, 0);
    g->sink = true;
}

static void feed(struct rig *g, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        cr_assert(tt_fifo_push(&g->in, &w[i], 1));
}

static void cfg(struct rig *g, const uint32_t c[MOP_CFG_WORDS])
{
    for (unsigned i = 0; i < MOP_CFG_WORDS; i++)
        mop_cfg_write(&g->m, i, c[i]);
}

static enum pipe_step cycle(struct rig *g)
{
    g->cycle++;
    unsigned before = g->out.count;
    enum pipe_step r = mop_step(&g->m, &g->in, &g->out);
    cr_assert(g->out.count <= before + 1, "at most one word per cycle");
    if (g->out.count > before) {
        uint32_t w = tt_fifo_peek(&g->out, g->out.count - 1);
        if (g->n < LOG_MAX) {
            g->word[g->n] = w;
            g->at[g->n] = g->cycle;
        }
        g->n++;
        g->last_word = w;
        g->last_at = g->cycle;
    }
    uint32_t w;
    if (g->sink && tt_fifo_pop(&g->out, &w) && g->drained < LOG_MAX)
        g->drain_log[g->drained++] = w;
    return r;
}

/* Step until a cycle does nothing; returns the number of cycles that did something. */
static uint64_t run(struct rig *g, uint64_t limit)
{
    uint64_t start = g->cycle;
    while (g->cycle - start < limit) {
        enum pipe_step r = cycle(g);
        cr_assert_neq(r, PIPE_ERROR, "%s", g->m.err);
        if (r == PIPE_IDLE)
            return g->cycle - start - 1;
    }
    cr_assert_fail("still busy after %llu cycles", (unsigned long long)limit);
    return 0;
}

/* The first n logged words are `w`, entering `out` on consecutive cycles from `first`. */
static void expect_run(const struct rig *g, unsigned from, const uint32_t *w, unsigned n,
                       uint64_t first)
{
    for (unsigned i = 0; i < n; i++) {
        cr_expect_eq(g->word[from + i], w[i], "word %u: got 0x%08X want 0x%08X", from + i,
                     g->word[from + i], w[i]);
        cr_expect_eq(g->at[from + i], first + i, "word %u left on cycle %llu, want %llu", from + i,
                     (unsigned long long)g->at[from + i], (unsigned long long)(first + i));
    }
}

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

Test(mop, encodings_match_the_instruction_table)
{
    cr_expect_eq(MOP(1, 0x55, 0xBEEF), TT_OP_MOP(1, 0x55, 0xBEEF));
    cr_expect_eq(MOP(0, 0x7F, 0x1234), TT_OP_MOP(0, 0x7F, 0x1234));
    cr_expect_eq(MOPCFG(0xCAFE), TT_OP_MOP_CFG(0xCAFE));
    cr_expect_eq(NOP, TT_OP_NOP);
}

Test(mop, pass_through_one_per_cycle)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t in[] = {W(1), W(2), DMANOP, NOP, W(5)};
    feed(&g, in, 5);
    cr_expect_eq(run(&g, 100), 5);
    cr_expect_eq(g.n, 5);
    expect_run(&g, 0, in, 5, 1);
    cr_expect_eq(g.m.ingested, 5);
    cr_expect_eq(g.m.emitted, 5);
    cr_expect_eq(g.m.expansions, 0);
    cr_expect_eq(g.m.bubbles, 0);
}

/* Template 0, HasB and HasA123, Count1 = 3, mask 0b0110: iterations take A, skip, skip, A. The
 * MOP is consumed in cycle 1, which also emits the first instruction. */
Test(mop, template0_a_and_skip_paths)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {W(0xFF), 3, W(0xB), W(0xA0), W(0xA1), W(0xA2), W(0xA3), W(0x50),
                           W(0x5B)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(0, 3, 0x6)};
    feed(&g, in, 1);
    const uint32_t want[] = {W(0xA0), W(0xA1), W(0xA2), W(0xA3), W(0xB), /* bit 0 = 0 */
                             W(0x50), W(0x5B),                           /* bit 1 = 1 */
                             W(0x50), W(0x5B),                           /* bit 2 = 1 */
                             W(0xA0), W(0xA1), W(0xA2), W(0xA3), W(0xB)}; /* bit 3 = 0 */
    /* 14 emitting cycles plus the transition cycle (nothing waiting, so no bubble counted) */
    cr_expect_eq(run(&g, 100), 15);
    cr_expect_eq(g.n, 14);
    expect_run(&g, 0, want, 14, 1);
    cr_expect_eq(g.m.ingested, 1);
    cr_expect_eq(g.m.emitted, 14);
    cr_expect_eq(g.m.expansions, 1);
    cr_expect_eq(g.m.bubbles, 0);
}

/* No flags: one instruction per iteration, A0 or SkipA0; MopCfg[0], [2], [4..6], [8] unused. */
Test(mop, template0_without_flags)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {W(0xFF), 0, W(0xB), W(0xA0), W(0xA1), W(0xA2), W(0xA3), W(0x50),
                           W(0x5B)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(0, 4, 0x0A)}; /* 0b01010 over 5 iterations */
    feed(&g, in, 1);
    const uint32_t want[] = {W(0xA0), W(0x50), W(0xA0), W(0x50), W(0xA0)};
    run(&g, 100);
    cr_expect_eq(g.n, 5);
    expect_run(&g, 0, want, 5, 1);
}

/* HasB only. MOP_CFG supplies mask bits 31..16: mask 0x80010001 over 18 iterations skips
 * iterations 0 and 16. MOP_CFG takes cycle 1 and emits nothing. */
Test(mop, template0_mask_hi_from_mop_cfg)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 1, W(0xB), W(0xA0), W(0xA1), W(0xA2), W(0xA3), W(0x50), W(0x5B)};
    cfg(&g, c);
    const uint32_t in[] = {MOPCFG(0x8001), MOP(0, 17, 0x0001)};
    feed(&g, in, 2);
    uint32_t want[36];
    for (unsigned i = 0; i < 18; i++) {
        bool skip = i == 0 || i == 16;
        want[2 * i] = skip ? W(0x50) : W(0xA0);
        want[2 * i + 1] = skip ? W(0x5B) : W(0xB);
    }
    run(&g, 100);
    cr_expect_eq(g.m.mask_hi, 0x8001);
    cr_expect_eq(g.n, 36);
    expect_run(&g, 0, want, 36, 2);
    cr_expect_eq(g.m.ingested, 2);
}

/* MaskHi stays latched across MOPs, and iterations past 32 see a zero mask bit (A path). */
Test(mop, template0_mask_hi_persists_and_count_past_32)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t in[] = {MOPCFG(0xFFFF), MOP(0, 33, 0xFFFF), MOP(0, 16, 0x0000)};
    feed(&g, in, 3);
    run(&g, 200);
    cr_expect_eq(g.n, 34 + 17);
    /* first MOP: cycles 2..35, 32 skips then 2 A0 */
    for (unsigned i = 0; i < 34; i++) {
        cr_expect_eq(g.word[i], i < 32 ? W(0x50) : W(0xA0), "first MOP word %u", i);
        cr_expect_eq(g.at[i], 2 + i);
    }
    /* second MOP straight after (no bubble between MOPs): cycles 36..52, mask 0xFFFF0000 */
    for (unsigned i = 0; i < 17; i++) {
        cr_expect_eq(g.word[34 + i], i < 16 ? W(0xA0) : W(0x50), "second MOP word %u", i);
        cr_expect_eq(g.at[34 + i], 36 + i);
    }
    cr_expect_eq(g.m.bubbles, 0);
}

/* Template 1: OuterCount 2, InnerCount 3, StartOp, EndOp0, EndOp1, LoopOp1 = NOP. The last inner
 * iteration is Loop1Last, except in the last outer iteration where it is Loop0Last. */
Test(mop, template1_nested_loops)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {2, 3, W(0x51), W(0xE0), W(0xE1), W(0x10), NOP, W(0x70), W(0x71)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(1, 0x7F, 0xFFFF)}; /* Count1 and MaskLo are ignored */
    feed(&g, in, 1);
    const uint32_t want[] = {W(0x51), W(0x10), W(0x10), W(0x71), W(0xE0), W(0xE1),
                             W(0x51), W(0x10), W(0x10), W(0x70), W(0xE0), W(0xE1)};
    run(&g, 100);
    cr_expect_eq(g.n, 12);
    expect_run(&g, 0, want, 12, 1);
}

/* LoopOp1 set: the inner loop alternates LoopOp/LoopOp1 over 2*InnerCount iterations. StartOp
 * and EndOp0 are NOP, so EndOp1 is dropped as well. */
Test(mop, template1_loop_op1_alternates)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {2, 2, NOP, NOP, W(0xE1), W(0x10), W(0x11), W(0x70), W(0x71)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(1, 0, 0)};
    feed(&g, in, 1);
    const uint32_t want[] = {W(0x10), W(0x11), W(0x10), W(0x71),
                             W(0x10), W(0x11), W(0x10), W(0x70)};
    run(&g, 100);
    cr_expect_eq(g.n, 8);
    expect_run(&g, 0, want, 8, 1);
}

/* Only plain NOP means "absent": a DMANOP StartOp is emitted, which also keeps the 129-iteration
 * bug away. Only the low 7 bits of the counts count (0x81 -> 1). */
Test(mop, template1_only_plain_nop_is_absent)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0x81, 0x80, DMANOP, W(0xE0), NOP, W(0x10), NOP, W(0x70), W(0x71)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(1, 0, 0)};
    feed(&g, in, 1);
    const uint32_t want[] = {DMANOP, W(0xE0)};
    run(&g, 100);
    cr_expect_eq(g.n, 2);
    expect_run(&g, 0, want, 2, 1);
}

/* The documented bug: OuterCount 1, StartOp NOP, InnerCount 0, EndOp0 not NOP -> 129 outer
 * iterations, each EndOp0[, EndOp1]. */
Test(mop, template1_hw_bug_129_outer_iterations)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {1, 0, NOP, W(0xE0), W(0xE1), W(0x10), NOP, W(0x70), W(0x71)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(1, 0, 0)};
    feed(&g, in, 1);
    run(&g, 1000);
    cr_expect_eq(g.n, 258);
    for (unsigned i = 0; i < 258; i++) {
        cr_expect_eq(g.word[i], (i & 1) ? W(0xE1) : W(0xE0), "word %u", i);
        cr_expect_eq(g.at[i], 1 + i);
    }

    /* EndOp1 = NOP: 129 EndOp0 */
    rig_init(&g, 8);
    const uint32_t c2[9] = {1, 0, NOP, W(0xE0), NOP, W(0x10), NOP, W(0x70), W(0x71)};
    cfg(&g, c2);
    feed(&g, in, 1);
    run(&g, 1000);
    cr_expect_eq(g.n, 129);
    cr_expect_eq(g.last_word, W(0xE0));
    cr_expect_eq(g.last_at, 129);
}

/* Each condition of the bug matters: OuterCount 2, or InnerCount 1, gives the plain loop. */
Test(mop, template1_bug_needs_every_condition)
{
    struct rig g;
    const uint32_t in[] = {MOP(1, 0, 0)};

    rig_init(&g, 8);
    const uint32_t outer2[9] = {2, 0, NOP, W(0xE0), W(0xE1), W(0x10), NOP, W(0x70), W(0x71)};
    cfg(&g, outer2);
    feed(&g, in, 1);
    run(&g, 1000);
    const uint32_t want2[] = {W(0xE0), W(0xE1), W(0xE0), W(0xE1)};
    cr_expect_eq(g.n, 4);
    expect_run(&g, 0, want2, 4, 1);

    rig_init(&g, 8);
    const uint32_t inner1[9] = {1, 1, NOP, W(0xE0), W(0xE1), W(0x10), NOP, W(0x70), W(0x71)};
    cfg(&g, inner1);
    feed(&g, in, 1);
    run(&g, 1000);
    const uint32_t want3[] = {W(0x70), W(0xE0), W(0xE1)}; /* the only inner iteration is last */
    cr_expect_eq(g.n, 3);
    expect_run(&g, 0, want3, 3, 1);
}

/* 127 * (StartOp + 2*127 loop ops + EndOp0 + EndOp1) = 32639, the documented maximum, one per
 * cycle. */
Test(mop, template1_longest_expansion)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {127, 127, W(0x51), W(0xE0), W(0xE1), W(0x10), W(0x11), W(0x70),
                           W(0x71)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(1, 0, 0)};
    feed(&g, in, 1);
    run(&g, 40000);
    cr_expect_eq(g.n, 32639);
    cr_expect_eq(g.m.emitted, 32639);
    cr_expect_eq(g.last_word, W(0xE1));
    cr_expect_eq(g.last_at, 32639);
    /* first outer iteration: StartOp, 10 11 10 11 ... 10 Loop1Last, EndOp0, EndOp1 */
    cr_expect_eq(g.word[0], W(0x51));
    cr_expect_eq(g.word[1], W(0x10));
    cr_expect_eq(g.word[2], W(0x11));
    cr_expect_eq(g.word[253], W(0x10));
    cr_expect_eq(g.word[254], W(0x71));
    cr_expect_eq(g.word[255], W(0xE0));
    cr_expect_eq(g.word[256], W(0xE1));
    cr_expect_eq(g.word[257], W(0x51));
}

/* OuterCount 0: the MOP is consumed (cycle 1) and emits nothing; the transition cycle follows
 * (cycle 2, a bubble since X waits); X leaves on cycle 3. */
Test(mop, template1_empty_expansion)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 5, W(0x51), W(0xE0), W(0xE1), W(0x10), NOP, W(0x70), W(0x71)};
    cfg(&g, c);
    const uint32_t in[] = {MOP(1, 0, 0), W(1)};
    feed(&g, in, 2);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(g.in.count, 1);
    cr_expect_eq(g.n, 0);
    cr_expect_not(mop_busy(&g.m));
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(g.n, 0);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(g.n, 1);
    cr_expect_eq(g.at[0], 3);
    cr_expect_eq(g.m.expansions, 1);
    cr_expect_eq(g.m.bubbles, 1);
}

/* MOP (2 instrs, cycles 1-2), bubble on cycle 3, X on 4, Y on 5. */
Test(mop, bubble_after_expansion)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t in[] = {MOP(0, 1, 0), W(1), W(2)};
    feed(&g, in, 3);
    const enum pipe_step want_r[] = {PIPE_PROGRESS, PIPE_PROGRESS, PIPE_PROGRESS,
                                     PIPE_PROGRESS, PIPE_PROGRESS, PIPE_IDLE};
    const unsigned want_n[] = {1, 2, 2, 3, 4, 4};
    const unsigned want_in[] = {2, 2, 2, 1, 0, 0};
    for (unsigned i = 0; i < 6; i++) {
        cr_expect_eq(cycle(&g), want_r[i], "cycle %u", i + 1);
        cr_expect_eq(g.n, want_n[i], "cycle %u", i + 1);
        cr_expect_eq(g.in.count, want_in[i], "cycle %u", i + 1);
    }
    const uint32_t want[] = {W(0xA0), W(0xA0)};
    expect_run(&g, 0, want, 2, 1);
    const uint32_t after[] = {W(1), W(2)};
    expect_run(&g, 2, after, 2, 4);
    cr_expect_eq(g.m.bubbles, 1);
}

/* MOP, MOP, X: the second MOP follows on cycle 3 without a bubble; the bubble comes on cycle 5
 * before X (cycle 6). */
Test(mop, no_bubble_between_mops)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t in[] = {MOP(0, 1, 0x0), MOP(0, 1, 0x3), W(1)};
    feed(&g, in, 3);
    run(&g, 100);
    const uint32_t want[] = {W(0xA0), W(0xA0), W(0x50), W(0x50)};
    cr_expect_eq(g.n, 5);
    expect_run(&g, 0, want, 4, 1);
    cr_expect_eq(g.word[4], W(1));
    cr_expect_eq(g.at[4], 6);
    cr_expect_eq(g.m.bubbles, 1);
    cr_expect_eq(g.m.expansions, 2);
}

/* MOP_CFG is not a MOP: MOP (1-2), bubble (3), MOP_CFG (4), MOP (5-6), bubble (7), X (8). */
Test(mop, bubble_before_mop_cfg)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t in[] = {MOP(0, 1, 0), MOPCFG(0x1), MOP(0, 1, 0), W(1)};
    feed(&g, in, 4);
    run(&g, 100);
    cr_expect_eq(g.n, 5);
    const uint64_t want_at[] = {1, 2, 5, 6, 8};
    const uint32_t want[] = {W(0xA0), W(0xA0), W(0xA0), W(0xA0), W(1)};
    for (unsigned i = 0; i < 5; i++) {
        cr_expect_eq(g.word[i], want[i], "word %u", i);
        cr_expect_eq(g.at[i], want_at[i], "word %u", i);
    }
    cr_expect_eq(g.m.bubbles, 2);
}

/* With nothing waiting the transition cycle passes unnoticed: X arriving later goes straight
 * through. */
Test(mop, transition_hidden_by_empty_input)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t in[] = {MOP(0, 1, 0)};
    feed(&g, in, 1);
    for (unsigned i = 0; i < 9; i++)
        cycle(&g);
    const uint32_t x = W(1);
    feed(&g, &x, 1);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(g.n, 3);
    cr_expect_eq(g.at[2], 10);
    cr_expect_eq(g.m.bubbles, 0);
}

/* `out` holds 2 and nobody drains it until cycle 6: the expander stalls with nothing lost or
 * repeated, then resumes one per cycle.
 *   1 X0  2 MOP->A0  3-6 full  7 S0  8 A0  9 bubble  10 X1 */
Test(mop, back_pressure)
{
    struct rig g;
    rig_init(&g, 2);
    g.sink = false;
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t in[] = {W(0x100), MOP(0, 2, 0x2), W(0x101)};
    feed(&g, in, 3);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect(mop_busy(&g.m));
    for (unsigned i = 3; i <= 5; i++) {
        cr_expect_eq(cycle(&g), PIPE_IDLE, "cycle %u", i);
        cr_expect_eq(g.in.count, 1);
        cr_expect_eq(g.m.emitted, 2);
        cr_expect(mop_busy(&g.m));
    }
    g.sink = true;
    cr_expect_eq(cycle(&g), PIPE_IDLE); /* cycle 6: still full during the step */
    run(&g, 100);
    const uint32_t want[] = {W(0x100), W(0xA0), W(0x50), W(0xA0), W(0x101)};
    const uint64_t want_at[] = {1, 2, 7, 8, 10};
    cr_expect_eq(g.n, 5);
    for (unsigned i = 0; i < 5; i++) {
        cr_expect_eq(g.word[i], want[i], "word %u", i);
        cr_expect_eq(g.at[i], want_at[i], "word %u", i);
    }
    cr_expect_eq(g.drained, 5);
    for (unsigned i = 0; i < 5; i++)
        cr_expect_eq(g.drain_log[i], want[i], "drained word %u", i);
    cr_expect_eq(g.m.ingested, 3);
    cr_expect_eq(g.m.emitted, 5);
    cr_expect_eq(g.m.bubbles, 1);
}

/* A full `out` holds back a MOP (not consumed) and plain words; MOP_CFG, which emits nothing,
 * still goes. */
Test(mop, full_output_holds_mop_but_not_mop_cfg)
{
    struct rig g;
    rig_init(&g, 1);
    g.sink = false;
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t stuck = W(0xFFF);
    cr_assert(tt_fifo_push(&g.out, &stuck, 1));
    const uint32_t in[] = {MOPCFG(0x1234), MOP(0, 0, 0), W(1)};
    feed(&g, in, 3);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(g.m.mask_hi, 0x1234);
    cr_expect_eq(cycle(&g), PIPE_IDLE);
    cr_expect_eq(g.in.count, 2);
    cr_expect_eq(g.m.expansions, 0);
    cr_expect_not(mop_busy(&g.m));
    g.sink = true; /* drains `stuck` after this step */
    cr_expect_eq(cycle(&g), PIPE_IDLE);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS); /* MOP: A0 (one iteration) */
    cr_expect_eq(g.n, 1);
    cr_expect_eq(g.word[0], W(0xA0));
    cr_expect_eq(cycle(&g), PIPE_PROGRESS); /* bubble */
    cr_expect_eq(cycle(&g), PIPE_PROGRESS); /* X */
    cr_expect_eq(g.n, 2);
    cr_expect_eq(g.word[1], W(1));
    cr_expect_eq(g.at[1], 6);
}

/* busy from the MOP's cycle up to (not including) the cycle after its last instruction */
Test(mop, busy_only_while_expanding)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    cr_expect_not(mop_busy(&g.m));
    const uint32_t in[] = {MOP(0, 2, 0)};
    feed(&g, in, 1);
    cycle(&g);
    cr_expect(mop_busy(&g.m));
    cycle(&g);
    cr_expect(mop_busy(&g.m));
    cycle(&g); /* third and last instruction */
    cr_expect_not(mop_busy(&g.m));
    cr_expect_eq(g.n, 3);
}

Test(mop, cfg_write_during_expansion_is_an_error)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t c[9] = {0, 0, 0, W(0xA0), 0, 0, 0, W(0x50), 0};
    cfg(&g, c);
    const uint32_t in[] = {MOP(0, 2, 0)};
    feed(&g, in, 1);
    cycle(&g);
    mop_cfg_write(&g.m, 3, W(0xA1));
    cr_expect_eq(cycle(&g), PIPE_ERROR);
    cr_expect(strstr(g.m.err, "MopCfg written while an expansion") != NULL, "%s", g.m.err);
    cr_expect_eq(cycle(&g), PIPE_ERROR, "errors are sticky");
    cr_expect_eq(g.n, 1);
}

Test(mop, cfg_index_out_of_range_is_an_error)
{
    struct mop_expander m;
    struct tt_fifo in, out;
    mop_reset(&m);
    tt_fifo_init(&in, 8, 0);
    tt_fifo_init(&out, 8, 0);
    mop_cfg_write(&m, 9, 1);
    cr_expect_eq(mop_step(&m, &in, &out), PIPE_ERROR);
    cr_expect(strstr(m.err, "index") != NULL, "%s", m.err);
}

Test(mop, reset_clears_state)
{
    struct rig g;
    rig_init(&g, 8);
    const uint32_t in[] = {MOPCFG(0xFFFF), W(1)};
    feed(&g, in, 2);
    run(&g, 10);
    cr_expect_eq(g.m.mask_hi, 0xFFFF);
    mop_reset(&g.m);
    cr_expect_eq(g.m.mask_hi, 0);
    cr_expect_eq(g.m.ingested, 0);
    cr_expect_eq(g.m.emitted, 0);
    cr_expect_not(mop_busy(&g.m));
    cr_expect_not(g.m.failed);
}
