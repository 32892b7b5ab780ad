/* The replay expander (sync/replay.c) driven cycle by cycle, and the MOP expander feeding it.
 * Expected words and cycles are worked out by hand from WH:REPLAY.md (functional model and
 * "Performance"), WH:MOPExpander.md and spec/sync-timing.md §1. Cycle 1 is the first step. */
#include <criterion/criterion.h>
#include <string.h>

#include "../sync/mop.h"
#include "../sync/replay.h"
#include "harness.h"
#include "tensix_ops.h"

/* Hand encoding (units/tensix.def): REPLAY Index[18:14] Count[9:4] Exec[1] Load[0]. */
#define REPLAY(idx, cnt, exec, load)                                                    \
    ((0x04u << 24) | ((uint32_t)(idx) << 14) | ((uint32_t)(cnt) << 4) |                 \
     ((uint32_t)(exec) << 1) | (uint32_t)(load))
#define MOP(t, c1, lo) ((0x01u << 24) | ((uint32_t)(t) << 23) | ((uint32_t)(c1) << 16) | (lo))
#define MOPCFG(hi) ((0x03u << 24) | (hi))
#define W(k) (0x40000000u | (k))

#define LOG_MAX 512

/* src -> in -> replay expander -> out -> sink. Before each step the source tops `in` up; after
 * it the sink takes one word from `out` when the cycle number is a multiple of sink_every
 * (0: sink off). */
struct rig {
    struct replay_expander r;
    struct tt_fifo in, out;
    const uint32_t *src;
    unsigned src_n, src_i;
    unsigned sink_every;
    uint64_t cycle;
    unsigned n;
    uint32_t word[LOG_MAX];
    uint64_t at[LOG_MAX];
    unsigned drained;
    uint32_t drain_log[LOG_MAX];
};

static void rig_init(struct rig *g, unsigned out_depth, const uint32_t *src, unsigned n)
{
    memset(g, 0, sizeof *g);
    replay_reset(&g->r, false); /* Wormhole's rule; skip_nops has its own tests below */
    tt_fifo_init(&g->in, 8, 0); /* FIFO2 is 8 deep */
    tt_fifo_init(&g->out, out_depth, 0);
    g->src = src;
    g->src_n = n;
    g->sink_every = 1;
}

static enum pipe_step cycle(struct rig *g)
{
    g->cycle++;
    while (g->src_i < g->src_n && tt_fifo_push(&g->in, &g->src[g->src_i], 1))
        g->src_i++;
    unsigned before = g->out.count;
    enum pipe_step res = replay_step(&g->r, &g->in, &g->out);
    cr_assert(g->out.count <= before + 1, "at most one word per cycle");
    if (g->out.count > before) {
        cr_assert(g->n < LOG_MAX);
        g->word[g->n] = tt_fifo_peek(&g->out, g->out.count - 1);
        g->at[g->n++] = g->cycle;
    }
    uint32_t w;
    if (g->sink_every && g->cycle % g->sink_every == 0 && tt_fifo_pop(&g->out, &w))
        g->drain_log[g->drained++] = w;
    return res;
}

/* Step until a cycle does nothing with the source used up; returns the busy cycles. */
static uint64_t run(struct rig *g, uint64_t limit)
{
    uint64_t start = g->cycle;
    while (g->cycle - start < limit) {
        enum pipe_step res = cycle(g);
        cr_assert_neq(res, PIPE_ERROR, "%s", g->r.err);
        if (res == PIPE_IDLE && g->src_i == g->src_n && !g->in.count)
            return g->cycle - start - 1;
    }
    cr_assert_fail("still busy after %llu cycles", (unsigned long long)limit);
    return 0;
}

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

Test(replay, encoding_matches_the_instruction_table)
{
    cr_expect_eq(REPLAY(31, 63, 1, 1), TT_OP_REPLAY(31, 63, 1, 1));
    cr_expect_eq(REPLAY(5, 0, 0, 1), TT_OP_REPLAY(5, 0, 0, 1));
    cr_expect_eq(REPLAY(17, 9, 1, 0), TT_OP_REPLAY(17, 9, 1, 0));
}

/* Everything but REPLAY goes straight through, one per cycle, MOP words included when not
 * recording. */
Test(replay, pass_through_one_per_cycle)
{
    const uint32_t src[] = {W(1), W(2), MOP(0, 0, 0), MOPCFG(1), W(5), W(6), W(7), W(8),
                            W(9), W(10)};
    struct rig g;
    rig_init(&g, 2, src, 10);
    cr_expect_eq(run(&g, 100), 10);
    cr_expect_eq(g.n, 10);
    expect_run(&g, 0, src, 10, 1);
    cr_expect_eq(g.r.ingested, 10);
    cr_expect_eq(g.r.emitted, 10);
    cr_expect_eq(g.r.replays, 0);
}

/* Load (Exec=0) of 4 at index 3: cycle 1 takes the REPLAY, 2-5 record a-d, nothing leaves.
 * Playback: cycle 6 takes the REPLAY and emits a; 7-9 emit b-d while X waits; X on 10. */
Test(replay, load_without_exec_then_playback)
{
    const uint32_t src[] = {REPLAY(3, 4, 0, 1), W(0xA), W(0xB), W(0xC), W(0xD),
                            REPLAY(3, 4, 0, 0), W(0x100)};
    struct rig g;
    rig_init(&g, 2, src, 7);
    for (unsigned c = 1; c <= 5; c++) {
        cr_expect_eq(cycle(&g), PIPE_PROGRESS, "cycle %u", c);
        cr_expect(replay_busy(&g.r) == (c < 5), "cycle %u", c);
    }
    cr_expect_eq(g.n, 0);
    cr_expect_eq(g.r.recorded, 4);
    cr_expect_eq(g.r.buf[3], W(0xA));
    cr_expect_eq(g.r.buf[6], W(0xD));
    for (unsigned c = 6; c <= 9; c++) {
        cr_expect_eq(cycle(&g), PIPE_PROGRESS, "cycle %u", c);
        cr_expect_eq(g.in.count, 1, "X not ingested during playback (cycle %u)", c);
        cr_expect(replay_busy(&g.r) == (c < 9), "cycle %u", c);
    }
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(g.in.count, 0);
    cr_expect_eq(cycle(&g), PIPE_IDLE);
    const uint32_t want[] = {W(0xA), W(0xB), W(0xC), W(0xD), W(0x100)};
    cr_expect_eq(g.n, 5);
    expect_run(&g, 0, want, 5, 6);
    cr_expect_eq(g.r.ingested, 7);
    cr_expect_eq(g.r.emitted, 5);
    cr_expect_eq(g.r.replays, 2);
}

#define NOPW 0x02000000u /* plain NOP (opcode 0x02) */

/* skip_nops (Blackhole, calibrated: sync/replay.h). Load of 6 at index 0: N N a N N b (cycles
 * 1-7, nothing leaves). Playback: cycle 8 takes the REPLAY, passes over the two NOPs and
 * emits a; cycle 9 emits b (the two NOPs before it passed over in cycle 8, after a); the
 * playback is over, so X is ingested and emitted in cycle 10: 3 cycles for 6 words, where
 * emitting the NOPs (Wormhole) takes 6 and X comes in cycle 14. */
static void nops_in_playback(bool skip, const uint32_t *want, unsigned nwant, uint64_t x_at)
{
    const uint32_t src[] = {REPLAY(0, 6, 0, 1), NOPW, NOPW, W(0xA), NOPW, NOPW, W(0xB),
                            REPLAY(0, 6, 0, 0), W(0x100)};
    struct rig g;
    rig_init(&g, 2, src, 9);
    replay_reset(&g.r, skip);
    run(&g, 100);
    cr_expect_eq(g.n, nwant);
    for (unsigned i = 0; i < nwant && i < g.n; i++)
        cr_expect_eq(g.word[i], want[i], "word %u", i);
    cr_expect_eq(g.at[g.n - 1], x_at, "X at %llu", (unsigned long long)g.at[g.n - 1]);
    cr_expect_eq(g.r.skipped, skip ? 4 : 0);
}

Test(replay, skip_nops_passes_over_them_in_playback)
{
    const uint32_t want[] = {W(0xA), W(0xB), W(0x100)};
    nops_in_playback(true, want, 3, 10);
}

/* Wormhole unchanged (WH:NOP.md): every NOP is emitted, one per cycle: 8..13, X at 14. */
Test(replay, nops_emitted_without_skip_nops)
{
    const uint32_t want[] = {NOPW, NOPW, W(0xA), NOPW, NOPW, W(0xB), W(0x100)};
    nops_in_playback(false, want, 7, 14);
}

/* A playback of NOPs only: the REPLAY is consumed in cycle 3 (after the load in 1-2), nothing
 * is emitted, and X follows in cycle 4. */
Test(replay, skip_nops_only_nops_takes_one_cycle)
{
    const uint32_t src[] = {REPLAY(4, 1, 0, 1), NOPW, REPLAY(4, 1, 0, 0), W(0x100)};
    struct rig g;
    rig_init(&g, 2, src, 4);
    replay_reset(&g.r, true);
    run(&g, 100);
    cr_expect_eq(g.n, 1);
    cr_expect_eq(g.word[0], W(0x100));
    cr_expect_eq(g.at[0], 4);
    cr_expect_eq(g.r.skipped, 1);
    cr_expect_not(replay_busy(&g.r));
}

/* Load+Exec: the REPLAY costs cycle 1, then each word is recorded and emitted as it arrives
 * (2-4); X on 5; playback of the last two on 6-7. */
Test(replay, load_with_exec)
{
    const uint32_t src[] = {REPLAY(0, 3, 1, 1), W(0xA), W(0xB), W(0xC), W(0x100),
                            REPLAY(1, 2, 0, 0)};
    struct rig g;
    rig_init(&g, 2, src, 6);
    cr_expect_eq(run(&g, 100), 7);
    const uint32_t want[] = {W(0xA), W(0xB), W(0xC), W(0x100), W(0xB), W(0xC)};
    cr_expect_eq(g.n, 6);
    expect_run(&g, 0, want, 6, 2);
    cr_expect_eq(g.r.recorded, 3);
}

/* Exec is ignored on playback (Load=0). */
Test(replay, playback_ignores_exec)
{
    const uint32_t src[] = {REPLAY(7, 1, 0, 1), W(0xA), REPLAY(7, 1, 1, 0)};
    struct rig g;
    rig_init(&g, 2, src, 3);
    run(&g, 100);
    cr_expect_eq(g.n, 1);
    cr_expect_eq(g.word[0], W(0xA));
    cr_expect_eq(g.at[0], 3);
}

/* Count 0 means 64. Loading 64 words from index 5 wraps the 32-entry buffer twice, so the
 * second 32 words overwrite the first: slot (5+i)%32 ends up with word 32+i. Load: cycles
 * 1-65. Playback of 64 from index 5: cycles 66-129, the second half again. */
Test(replay, count_zero_means_64)
{
    uint32_t src[66];
    src[0] = REPLAY(5, 0, 0, 1);
    for (unsigned i = 0; i < 64; i++)
        src[1 + i] = W(i);
    src[65] = REPLAY(5, 0, 0, 0);
    struct rig g;
    rig_init(&g, 2, src, 66);
    cr_expect_eq(run(&g, 1000), 65 + 64);
    cr_expect_eq(g.r.recorded, 64);
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(g.r.buf[(5 + i) % 32], W(32 + i), "slot %u", (5 + i) % 32);
    cr_expect_eq(g.n, 64);
    for (unsigned i = 0; i < 64; i++) {
        cr_expect_eq(g.word[i], W(32 + i % 32), "word %u", i);
        cr_expect_eq(g.at[i], 66 + i, "word %u", i);
    }
}

/* Slots run Index, Index+1, ... mod 32: a load at 30 fills 30, 31, 0, 1. */
Test(replay, index_wraps)
{
    const uint32_t src[] = {REPLAY(30, 4, 0, 1), W(0xA), W(0xB), W(0xC), W(0xD),
                            REPLAY(31, 3, 0, 0), REPLAY(0, 2, 0, 0)};
    struct rig g;
    rig_init(&g, 2, src, 7);
    run(&g, 100);
    cr_expect_eq(g.r.buf[30], W(0xA));
    cr_expect_eq(g.r.buf[31], W(0xB));
    cr_expect_eq(g.r.buf[0], W(0xC));
    cr_expect_eq(g.r.buf[1], W(0xD));
    const uint32_t want[] = {W(0xB), W(0xC), W(0xD), W(0xC), W(0xD)};
    cr_expect_eq(g.n, 5);
    expect_run(&g, 0, want, 5, 6); /* the second REPLAY follows with no penalty */
}

/* `out` holds one word and the sink takes one every second cycle: playback emits on odd cycles
 * only, X still waits its turn, nothing is lost or repeated.
 *   1 REPLAY  2-4 record  5 a  6 full  7 b  8 full  9 c  10 full  11 X */
Test(replay, playback_back_pressure)
{
    const uint32_t src[] = {REPLAY(0, 3, 0, 1), W(0xA), W(0xB), W(0xC), REPLAY(0, 3, 0, 0),
                            W(0x100)};
    struct rig g;
    rig_init(&g, 1, src, 6);
    g.sink_every = 2;
    const enum pipe_step want_r[] = {PIPE_PROGRESS, PIPE_PROGRESS, PIPE_PROGRESS, PIPE_PROGRESS,
                                     PIPE_PROGRESS, PIPE_IDLE,     PIPE_PROGRESS, PIPE_IDLE,
                                     PIPE_PROGRESS, PIPE_IDLE,     PIPE_PROGRESS, PIPE_IDLE};
    for (unsigned c = 1; c <= 12; c++) {
        cr_expect_eq(cycle(&g), want_r[c - 1], "cycle %u", c);
        if (c >= 5 && c <= 10)
            cr_expect_eq(g.in.count, 1, "X waits (cycle %u)", c);
    }
    const uint32_t want[] = {W(0xA), W(0xB), W(0xC), W(0x100)};
    const uint64_t want_at[] = {5, 7, 9, 11};
    cr_expect_eq(g.n, 4);
    cr_expect_eq(g.drained, 4);
    for (unsigned i = 0; i < 4; i++) {
        cr_expect_eq(g.word[i], want[i], "word %u", i);
        cr_expect_eq(g.at[i], want_at[i], "word %u", i);
        cr_expect_eq(g.drain_log[i], want[i], "drained %u", i);
    }
}

/* Load+Exec with a full `out` records nothing until there is room; plain Load does not need
 * room at all. */
Test(replay, recording_and_back_pressure)
{
    const uint32_t src[] = {REPLAY(0, 2, 0, 1), W(0xA), W(0xB), REPLAY(2, 1, 1, 1), W(0xC)};
    struct rig g;
    rig_init(&g, 1, src, 5);
    g.sink_every = 0;
    const uint32_t stuck = W(0xFFF);
    cr_assert(tt_fifo_push(&g.out, &stuck, 1));
    for (unsigned c = 1; c <= 4; c++)
        cr_expect_eq(cycle(&g), PIPE_PROGRESS, "cycle %u", c); /* REPLAY, a, b, REPLAY */
    cr_expect_eq(g.r.recorded, 2);
    cr_expect_eq(cycle(&g), PIPE_IDLE); /* c is blocked: it would be emitted */
    cr_expect_eq(g.in.count, 1);
    cr_expect(replay_busy(&g.r));
    g.sink_every = 1;
    cr_expect_eq(cycle(&g), PIPE_IDLE); /* still full during the step; drained after */
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(g.n, 1);
    cr_expect_eq(g.word[0], W(0xC));
    cr_expect_eq(g.at[0], 7);
    cr_expect_eq(g.r.buf[2], W(0xC));
    cr_expect_not(replay_busy(&g.r));
}

/* Gaps in the incoming stream just stretch a recording. */
Test(replay, recording_waits_for_input)
{
    struct rig g;
    rig_init(&g, 2, NULL, 0);
    const uint32_t rep = REPLAY(4, 2, 0, 1), a = W(0xA), b = W(0xB), x = W(0x100);
    tt_fifo_push(&g.in, &rep, 1);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    for (unsigned c = 2; c <= 4; c++) {
        cr_expect_eq(cycle(&g), PIPE_IDLE, "cycle %u", c);
        cr_expect(replay_busy(&g.r));
    }
    tt_fifo_push(&g.in, &a, 1);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(cycle(&g), PIPE_IDLE);
    tt_fifo_push(&g.in, &b, 1);
    tt_fifo_push(&g.in, &x, 1);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS); /* b recorded: done */
    cr_expect_not(replay_busy(&g.r));
    cr_expect_eq(g.n, 0);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS); /* x passes through */
    cr_expect_eq(g.n, 1);
    cr_expect_eq(g.word[0], W(0x100));
    cr_expect_eq(g.r.buf[4], W(0xA));
    cr_expect_eq(g.r.buf[5], W(0xB));
}

static void expect_recording_error(uint32_t bad, const char *text)
{
    const uint32_t src[] = {REPLAY(0, 3, 1, 1), W(0xA), bad, W(0xB)};
    struct rig g;
    rig_init(&g, 2, src, 4);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(cycle(&g), PIPE_PROGRESS);
    cr_expect_eq(cycle(&g), PIPE_ERROR);
    cr_expect(strstr(g.r.err, text) != NULL, "%s", g.r.err);
    cr_expect_eq(cycle(&g), PIPE_ERROR, "errors are sticky");
    cr_expect_eq(g.n, 1);
    cr_expect_eq(g.r.recorded, 1);
}

Test(replay, mop_while_recording_is_an_error)
{
    expect_recording_error(MOP(1, 0, 0), "MOP instruction inside a REPLAY recording");
    expect_recording_error(MOPCFG(3), "MOP instruction inside a REPLAY recording");
}

Test(replay, replay_while_recording_is_an_error)
{
    expect_recording_error(REPLAY(0, 1, 0, 0), "REPLAY inside a REPLAY recording");
}

/* The functional model starts the buffer at zero. */
Test(replay, reset_clears_buffer)
{
    const uint32_t src[] = {REPLAY(0, 1, 0, 1), W(0xA)};
    struct rig g;
    rig_init(&g, 2, src, 2);
    run(&g, 10);
    cr_expect_eq(g.r.buf[0], W(0xA));
    replay_reset(&g.r, false);
    cr_expect_eq(g.r.buf[0], 0);
    cr_expect_eq(g.r.ingested, 0);
    cr_expect_not(replay_busy(&g.r));
}

/* FIFO1 -> MOP expander -> FIFO2 (8) -> replay expander -> FIFO3 (2) -> sink. Stages step
 * downstream first, so each sees what the one before produced in the previous cycle. Returns
 * the cycle each of the first n words reached FIFO3. */
static void two_stages(uint32_t a0, const uint32_t *want, const uint64_t *want_at, unsigned n)
{
    struct mop_expander m;
    struct replay_expander r;
    struct tt_fifo f1, f2, f3;
    mop_reset(&m);
    replay_reset(&r, false);
    tt_fifo_init(&f1, 32, 0);
    tt_fifo_init(&f2, 8, 0);
    tt_fifo_init(&f3, 2, 0);
    mop_cfg_write(&m, 1, 0); /* template 0, no flags */
    mop_cfg_write(&m, 3, a0);
    const uint32_t src[] = {REPLAY(0, 2, 0, 1), W(0x1), W(0x2), MOP(0, 1, 0), W(0x100),
                            W(0x101)};
    for (unsigned i = 0; i < 6; i++)
        cr_assert(tt_fifo_push(&f1, &src[i], 1));
    unsigned got = 0;
    for (uint64_t c = 1; c <= 20; c++) {
        cr_assert_neq(replay_step(&r, &f2, &f3), PIPE_ERROR, "%s", r.err);
        cr_assert_neq(mop_step(&m, &f1, &f2), PIPE_ERROR, "%s", m.err);
        uint32_t w;
        if (tt_fifo_pop(&f3, &w)) {
            cr_assert(got < n, "extra word 0x%08X", w);
            cr_expect_eq(w, want[got], "word %u: 0x%08X", got, w);
            cr_expect_eq(c, want_at[got], "word %u at cycle %llu", got, (unsigned long long)c);
            got++;
        }
    }
    cr_expect_eq(got, n);
    cr_expect_eq(m.bubbles, 1);
}

/* A MOP whose expansion is REPLAYs of two instructions keeps one instruction per cycle flowing
 * past the replay expander in spite of the MOP bubble (WH:MOPExpander.md, "Performance").
 *   1 mop: REPLAY(load)   2 replay: takes it; mop: 1   3 records 1; mop: 2   4 records 2;
 *   mop: MOP -> R   5 R -> 1 out; mop: R   6 2 out; mop: bubble   7 R -> 1; mop: X
 *   8 2; mop: Y   9 X   10 Y */
Test(replay, replay_in_mop_hides_the_bubble)
{
    const uint32_t want[] = {W(0x1), W(0x2), W(0x1), W(0x2), W(0x100), W(0x101)};
    const uint64_t want_at[] = {5, 6, 7, 8, 9, 10};
    two_stages(REPLAY(0, 2, 0, 0), want, want_at, 6);
}

/* The same with a plain A0: the bubble shows as a gap at cycle 7. */
Test(replay, plain_mop_shows_the_bubble)
{
    const uint32_t want[] = {W(0xA0), W(0xA0), W(0x100), W(0x101)};
    const uint64_t want_at[] = {5, 6, 8, 9};
    two_stages(W(0xA0), want, want_at, 4);
}

/* The whole thread on a tile: REPLAY Load+Exec of NOP NOP DMANOP (the DMANOP issues at d1),
 * then a playback of the three. The recorded DMANOP leaves the replay expander in cycle r and
 * issues at r+1 = d1; the playback REPLAY is taken in r+1. With replay.skips_nops (off by
 * default, core/timing.def) the expander passes over the NOPs and emits the DMANOP in r+1: it
 * issues at d1 + 1. Without, it emits NOP, NOP, DMANOP in r+1 .. r+3 (WH:NOP.md: each NOP takes
 * the thread a cycle): d1 + 3, with nothing passed over. (The recording with Exec emits its
 * NOPs either way.) */
static void replayed_nops_on(enum arch_id arch, bool skip, uint64_t gap, uint64_t skipped)
{
    struct arch a = *arch_get(arch);
    a.replay.skips_nops = skip;
    struct tile *t = tile_create(&a);
    struct issue_log log;
    issue_log_attach(t, &log);
    const uint32_t w[] = {REPLAY(0, 3, 1, 1), NOPW, NOPW, TT_OP_DMANOP, REPLAY(0, 3, 0, 0)};
    cr_assert_eq(run_tensix(t, w, 5, 10000), ERR_NONE, "%s", t->err.text);
    uint64_t d1 = issue_log_cycle(&log, 0, TT_OP_DMANOP, 0);
    uint64_t d2 = issue_log_cycle(&log, 0, TT_OP_DMANOP, 1);
    cr_expect_eq(d2, d1 + gap, "%s: DMANOP at %llu then %llu", t->arch->name,
                 (unsigned long long)d1, (unsigned long long)d2);
    cr_expect_eq(t->thread[0].replay.skipped, skipped, "NOPs passed over in playback");
    tile_destroy(t);
}

Test(replay, skips_nops_passes_over_replayed_nops) { replayed_nops_on(ARCH_BLACKHOLE, true, 1, 2); }
Test(replay, blackhole_tile_issues_replayed_nops) { replayed_nops_on(ARCH_BLACKHOLE, false, 3, 0); }
Test(replay, wormhole_tile_issues_replayed_nops) { replayed_nops_on(ARCH_WORMHOLE, false, 3, 0); }

/* skip_nops keeps the NOP right after a WRCFG (BH:WRCFG.md "Instruction scheduling": the
 * documented NOP that keeps the next instruction off the configuration being written), and
 * still passes over a second one. Load of 5 at index 0: WRCFG N N a, then a NOP-led playback
 * after a WRCFG that came through in pass-through. Cycles: 1 takes the load REPLAY, 2-6
 * record (nothing leaves), 7 takes the playback of 4: emits WRCFG; 8 emits the first N; 9
 * passes over the second N and emits a; 10 passes WRCFG through; 11 takes REPLAY(2, 2): its N
 * follows a WRCFG, so it is emitted; 12 emits a. */
Test(replay, skip_nops_keeps_the_nop_after_a_wrcfg)
{
    const uint32_t wr = TT_OP_WRCFG(12, 0, 0x7C);
    const uint32_t src[] = {REPLAY(0, 5, 0, 1), wr, NOPW, NOPW, W(0xA), W(0xB),
                            REPLAY(0, 4, 0, 0), wr, REPLAY(2, 2, 0, 0)};
    const uint32_t want[] = {wr, NOPW, W(0xA), wr, NOPW, W(0xA)};
    const uint64_t want_at[] = {7, 8, 9, 10, 11, 12};
    struct rig g;
    rig_init(&g, 2, src, 9);
    replay_reset(&g.r, true);
    run(&g, 100);
    cr_expect_eq(g.n, 6);
    for (unsigned i = 0; i < 6 && i < g.n; i++) {
        cr_expect_eq(g.word[i], want[i], "word %u: 0x%08X", i, g.word[i]);
        cr_expect_eq(g.at[i], want_at[i], "word %u at %llu", i, (unsigned long long)g.at[i]);
    }
    cr_expect_eq(g.r.skipped, 1);
}
