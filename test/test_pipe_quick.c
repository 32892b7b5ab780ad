/* Differential random test of the quick cycles (sync/gate.c lone_step for one live thread,
 * quick_step for two or three; docs/architecture.md "Per-cycle cost"): random Tensix
 * instruction streams pushed by one to three TRISCs, each run with every coprocessor cycle by
 * coproc_step (t->pipe_general_only) and with the default, where a cycle with nothing else to
 * look at takes a specialised path. Both must end identically: the error and its cycle, the
 * tile's cycles, every thread's statistics and open accounting interval, the expanders'
 * counters, the semaphores, the Sync unit's counters, the GPRs, the address counters and how
 * every core ended.
 *
 * The streams mix SEMGET, SEMPOST, SEMINIT, NOP, DMANOP, SETDMAREG, the ADC instructions
 * (SETADCXY, INCADCXY, ADDRCRZW: the Miscellaneous unit), STALLWAIT and SEMWAIT,
 * mutex pairs, MOPs of both templates (MopCfg written at the start, with small counts), MOP_CFG,
 * REPLAY recordings (with and without Exec) and playbacks, a rare STREAMWAIT (the run's error
 * at its issue, with other threads at their gates), and delay loops between pushes, so
 * that threads go quiet and come back (a lone thread, then two or three, then one again). A
 * third of the cases push from one TRISC only. Seeds 1..SEEDS on each architecture (a fraction of
 * a second); by hand TENSIM_QUICK_SEEDS=n runs n, TENSIM_QUICK_VERBOSE=1 prints how each ended and
 * how many cycles the quick paths did. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../sync/mop.h"
#include "harness.h"
#include "tensix_ops.h"

#if defined(__SANITIZE_ADDRESS__)
#define SEEDS 100 /* the sanitizer build: 16 s per architecture with 400 under load */
#else
#define SEEDS 400
#endif
#define MAX_CYCLES 60000u
#define TTINSN(w) (((w) << 2) | ((w) >> 30))

/* A plain word: one a MOP may emit and a REPLAY may record. */
static uint32_t plain_word(uint32_t *s)
{
    switch (test_draw(s, 10)) {
    case 0: return TT_OP_SEMGET(1u << test_draw(s, 8));
    case 1: return TT_OP_SEMPOST(1u << test_draw(s, 8));
    case 2: return TT_OP_DMANOP;
    case 3: return TT_OP_SETDMAREG_IMM(test_draw(s, 0x10000), test_draw(s, 8));
    case 4: return TT_OP_SEMGET(0xFEu & (uint32_t)test_draw(s, 256)); /* several, or none */
    case 5: /* U0 and PK of this thread or (override) another: X0/Y1 with a random mask */
        return TT_OP_SETADCXY(1, 0, 1, test_draw(s, 4), test_draw(s, 8), 0, 0, test_draw(s, 8),
                              1, 0, 0, test_draw(s, 2));
    case 6:
        return test_draw(s, 2) ? TT_OP_INCADCXY(0, 1, 1, test_draw(s, 4), 1, 0, 0, test_draw(s, 8))
                               : TT_OP_ADDRCRZW(1, 1, 0, 0, 0, 0, test_draw(s, 8), 1, 0, 0, 1, 1);
    default: return TT_OP_NOP;
    }
}

/* One TRISC's program at 0x6000 + 0x4000 * core: MopCfg, then `items` pushes and delays. */
static void program(struct tile *t, unsigned core, uint32_t *s, unsigned items)
{
    struct prog p = prog_at(t, 0x6000 + 0x4000 * core);
    emit_li(&p, 5, MOP_CFG_BASE);
    for (unsigned i = 0; i < MOP_CFG_WORDS; i++) {
        /* slots 0 and 1: template 1's outer and inner counts, template 0's flags */
        uint32_t v = i == 0 ? test_draw(s, 4) : i == 1 ? test_draw(s, 7) : plain_word(s);
        emit_li(&p, 6, v);
        E(&p, SW, 0, 5, 6, (int32_t)(4 * i));
    }
    bool mutex_held = false;
    unsigned recordings = 0, rec_index[8], rec_count[8];
    unsigned mutex = 0;
    for (unsigned n = 0; n < items; n++) {
        const unsigned k = test_draw(s, 20);
        uint32_t w;
        if (!test_draw(s, 600)) {
            /* rarely, a word whose issue ends the run (BH: STREAMWAIT is not modelled, an
             * error in the Sync unit's accept; WH: not an instruction, an error at the gate),
             * so that an error with other threads at their gates is compared too */
            w = TT_OP_STREAMWAIT(1, 0, 0, 0);
        } else if (k < 6) {
            w = plain_word(s);
        } else if (k < 8) {
            w = TT_OP_MOP(1, 0, 0);
        } else if (k == 8) {
            w = TT_OP_MOP(0, test_draw(s, 6), test_draw(s, 0x10000));
        } else if (k == 9) {
            w = TT_OP_MOP_CFG(test_draw(s, 0x10000));
        } else if (k == 10) { /* a recording of the next few plain words */
            const unsigned count = 1 + test_draw(s, 4), index = test_draw(s, 32);
            emit(&p, TTINSN(TT_OP_REPLAY(index, count, test_draw(s, 2), 1)));
            if (recordings < 8) { /* it may overwrite an earlier one: played back as it is then */
                rec_index[recordings] = index;
                rec_count[recordings++] = count;
            }
            for (unsigned j = 0; j < count; j++) {
                const uint32_t r = plain_word(s); /* TTINSN reads its argument twice */
                emit(&p, TTINSN(r));
            }
            continue;
        } else if (k == 11) { /* a playback of part of an earlier recording */
            if (!recordings) {
                n--;
                continue;
            }
            const unsigned r = test_draw(s, recordings), skip = test_draw(s, rec_count[r]);
            w = TT_OP_REPLAY((rec_index[r] + skip) % 32, rec_count[r] - skip, 0, 0);
        } else if (k == 12) {
            w = TT_OP_SEMINIT(1 + test_draw(s, 15), test_draw(s, 2), 1u << test_draw(s, 8));
        } else if (k == 13) {
            /* block bits and the default or a random condition; the units are mostly idle */
            w = TT_OP_STALLWAIT_BH(test_draw(s, 0x200), test_draw(s, 3) ? 0 : test_draw(s, 0x80));
        } else if (k == 14) {
            /* a post, then a wait for a nonzero value: a get elsewhere in between holds it until
             * the next post */
            const uint32_t sem = 1u << test_draw(s, 8);
            emit(&p, TTINSN(TT_OP_SEMPOST(sem)));
            w = TT_OP_SEMWAIT(test_draw(s, 0x200), sem, 1);
        } else if (k == 15) {
            if (!mutex_held)
                mutex = test_draw(s, 2) ? 0 : 2; /* index 1 names no mutex */
            w = mutex_held ? TT_OP_ATRELM(mutex) : TT_OP_ATGETM(mutex);
            mutex_held = !mutex_held;
        } else { /* a delay: the thread's pipe runs dry and another thread may be alone */
            emit_li(&p, 7, 1 + test_draw(s, test_draw(s, 2) ? 8 : 200));
            E(&p, ADDI, 7, 7, 0, -1);
            E(&p, BNE, 0, 7, 0, -4);
            continue;
        }
        emit(&p, TTINSN(w));
    }
    if (mutex_held)
        emit(&p, TTINSN(TT_OP_ATRELM(mutex)));
    emit_exit(&p);
    tile_start_core(t, (int)core, p.base);
}

struct ending {
    enum err_kind err;
    uint64_t err_cycle, cycles;
    struct core_end core[3];
    struct thread_stats st[NUM_THREADS];
    uint64_t acct[NUM_THREADS][5];
    uint64_t mop[NUM_THREADS][4], replay[NUM_THREADS][5];
    struct sem_bank sem;
    struct sync_unit sync;
    uint32_t gpr[NUM_THREADS][NUM_GPRS];
    struct adc_thread adc[NUM_THREADS];
};

static struct ending *run_case(enum arch_id arch, uint32_t seed, bool general, uint64_t *quick)
{
    struct tile *t = test_tile(arch);
    t->pipe_general_only = general;
    uint32_t s = seed;
    const unsigned cores = test_draw(&s, 3) ? 1 + test_draw(&s, 3) : 1;
    for (unsigned c = 0; c < cores; c++)
        program(t, c, &s, 10 + test_draw(&s, 40));
    struct ending *e = calloc(1, sizeof *e);
    e->err = tile_run(t, MAX_CYCLES);
    e->err_cycle = t->err.cycle;
    if (getenv("TENSIM_QUICK_VERBOSE") && !general)
        fprintf(stderr, "seed %u: %s\n", seed, t->err.text);
    e->cycles = t->cycles;
    for (int c = 0; c < 3; c++)
        core_end_of(&e->core[c], t, c);
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        const struct tensix_thread *th = &t->thread[i];
        e->st[i] = th->st;
        e->acct[i][0] = th->acct_outcome, e->acct[i][1] = th->acct_reason;
        e->acct[i][2] = th->acct_detail, e->acct[i][3] = th->acct_since;
        e->acct[i][4] = th->acct_origin;
        e->mop[i][0] = th->mop.ingested, e->mop[i][1] = th->mop.emitted;
        e->mop[i][2] = th->mop.expansions, e->mop[i][3] = th->mop.bubbles;
        e->replay[i][0] = th->replay.ingested, e->replay[i][1] = th->replay.emitted;
        e->replay[i][2] = th->replay.replays, e->replay[i][3] = th->replay.recorded;
        e->replay[i][4] = th->replay.skipped;
    }
    e->sem = t->sem;
    e->sync = t->sync;
    memcpy(e->gpr, t->gpr, sizeof e->gpr);
    memcpy(e->adc, t->adc, sizeof e->adc);
    *quick += t->quick_cycles;
    cr_assert(!general || t->quick_cycles == 0);
    tile_destroy(t);
    return e;
}

static void compare(enum arch_id arch, uint32_t seed, uint64_t *quick)
{
    uint64_t none = 0;
    struct ending *g = run_case(arch, seed, true, &none), *f = run_case(arch, seed, false, quick);
    cr_expect_eq(f->err, g->err, "seed %u: error %d, general path %d", seed, f->err, g->err);
    cr_expect_eq(f->err_cycle, g->err_cycle, "seed %u: error cycle", seed);
    cr_expect_eq(f->cycles, g->cycles, "seed %u: %llu cycles, general path %llu", seed,
                 (unsigned long long)f->cycles, (unsigned long long)g->cycles);
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        cr_expect_eq(f->st[i].issued, g->st[i].issued, "seed %u: T%u issued", seed, i);
        cr_expect_eq(f->st[i].empty, g->st[i].empty, "seed %u: T%u empty", seed, i);
        cr_expect(!memcmp(&f->st[i], &g->st[i], sizeof f->st[i]), "seed %u: T%u statistics", seed, i);
    }
    cr_expect(!memcmp(f->acct, g->acct, sizeof f->acct), "seed %u: open intervals", seed);
    cr_expect(!memcmp(f->mop, g->mop, sizeof f->mop), "seed %u: MOP expanders", seed);
    cr_expect(!memcmp(f->replay, g->replay, sizeof f->replay), "seed %u: replay expanders", seed);
    cr_expect(!memcmp(&f->sem, &g->sem, sizeof f->sem), "seed %u: semaphores", seed);
    cr_expect(!memcmp(&f->sync, &g->sync, sizeof f->sync), "seed %u: Sync unit", seed);
    cr_expect(!memcmp(f->gpr, g->gpr, sizeof f->gpr), "seed %u: GPRs", seed);
    cr_expect(!memcmp(f->adc, g->adc, sizeof f->adc), "seed %u: address counters", seed);
    cr_expect(!memcmp(f->core, g->core, sizeof f->core), "seed %u: cores", seed);
    free(g);
    free(f);
}

static void fuzz(enum arch_id arch)
{
    const char *env = getenv("TENSIM_QUICK_SEEDS");
    const uint32_t seeds = env ? (uint32_t)atoi(env) : SEEDS;
    uint64_t quick = 0;
    for (uint32_t seed = 1; seed <= seeds; seed++)
        compare(arch, seed, &quick);
    if (getenv("TENSIM_QUICK_VERBOSE"))
        fprintf(stderr, "quick %llu\n", (unsigned long long)quick);
    cr_expect_gt(quick, 1000, "the quick cycles ran %llu times", (unsigned long long)quick);
}

Test(pipe_quick, same_as_the_general_cycle_blackhole) { fuzz(ARCH_BLACKHOLE); }
Test(pipe_quick, same_as_the_general_cycle_wormhole) { fuzz(ARCH_WORMHOLE); }

/* Three streams that do not stall (the pipe benchmark's shape, bench/pipe_speed.c): T0's SEMGETs
 * to the Sync unit, T1's SETADCXY and T2's INCADCXY to the Miscellaneous unit, each a template-1
 * MOP of 12 outer x 10 inner iterations with the word in every slot (12 x (2 x 10 + 3) = 276
 * words: two per inner iteration, three more per outer one, WH:MOPExpander.md), then the three
 * sharing the Sync slot (every thread SEMGET). The quick
 * cycle with three live threads takes nearly every cycle, and the end is the general cycle's:
 * exact cycles and issue counts, the address counters. */
static struct tile *streams(bool general, bool shared)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    t->pipe_general_only = general;
    const uint32_t word[3] = {TT_OP_SEMGET(0x80), TT_OP_SETADCXY(0, 0, 1, 0, 0, 0, 0, 5, 0, 0, 0, 1),
                              TT_OP_INCADCXY(0, 0, 1, 0, 0, 0, 1, 0)};
    for (unsigned c = 0; c < 3; c++) {
        struct prog p = prog_at(t, 0x6000 + 0x4000 * c);
        emit_li(&p, 5, MOP_CFG_BASE);
        for (unsigned i = 0; i < MOP_CFG_WORDS; i++) {
            emit_li(&p, 6, i == 0 ? 12 : i == 1 ? 10 : shared ? word[0] : word[c]);
            E(&p, SW, 0, 5, 6, (int32_t)(4 * i));
        }
        emit(&p, TTINSN(TT_OP_MOP(1, 0, 0)));
        emit_exit(&p);
        tile_start_core(t, (int)c, p.base);
    }
    cr_assert_eq(tile_run(t, MAX_CYCLES), ERR_NONE, "%s", t->err.text);
    return t;
}

static void streams_case(bool shared)
{
    struct tile *g = streams(true, shared), *q = streams(false, shared);
    cr_expect_eq(q->cycles, g->cycles);
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        cr_expect_eq(q->thread[i].st.issued, 276, "T%u issued %llu", i,
                     (unsigned long long)q->thread[i].st.issued);
        cr_expect(!memcmp(&q->thread[i].st, &g->thread[i].st, sizeof q->thread[i].st), "T%u", i);
    }
    cr_expect(!memcmp(q->adc, g->adc, sizeof q->adc));
    cr_expect(!memcmp(&q->sem, &g->sem, sizeof q->sem));
    /* thread 2's unpacker 0 Y0 went up by one per INCADCXY; thread 1's X0 was set to 5 */
    cr_expect_eq(q->adc[2].unpack[0].ch[0].v[ADC_Y], shared ? 0u : 276u);
    cr_expect_eq(q->adc[1].unpack[0].ch[0].v[ADC_X], shared ? 0u : 5u);
    /* 276 cycles of three streams (828 for the shared slot, one issue a cycle), nearly all quick */
    const uint64_t busy = shared ? 828 : 276;
    cr_expect_geq(q->quick_cycles, busy - 10, "%llu quick cycles", (unsigned long long)q->quick_cycles);
    cr_expect_eq(g->quick_cycles, 0);
    tile_destroy(g);
    tile_destroy(q);
}

Test(pipe_quick, three_streams_that_do_not_stall) { streams_case(false); }
Test(pipe_quick, three_threads_sharing_the_sync_slot) { streams_case(true); }
