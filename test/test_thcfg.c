/* The Configuration unit (units/thcfg.c): exact Config / ThreadConfig / GPR values for every
 * instruction, the pipeline timing of BH:ConfigurationUnit.md and the issue rules of
 * WH:ConfigurationUnit.md, and the RISC-V window at 0xFFEF0000.
 *
 * Kernels push .ttinsn words exactly as test/test_sync.c does: a TRISC push at cycle 0 reaches
 * the Wait Gate at cycle 3, then one word per cycle. Expected values are worked out by hand in
 * the comments. GPRs are preset directly (the Scalar unit that fills them is tested elsewhere). */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"

#define TTINSN(w) (((w) << 2) | ((w) >> 30))
#define NOP 0x02000000u
#define WRCFG(reg, is128, idx) (0xB0000000u | (reg) << 16 | (is128) << 15 | (idx))
#define RDCFG(reg, idx) (0xB1000000u | (reg) << 16 | (idx))
#define SETC16(idx, v) (0xB2000000u | (idx) << 16 | (v))
#define RMWCIB(lane, mask, nv, idx) ((0xB3u + (lane)) << 24 | (mask) << 16 | (nv) << 8 | (idx))
#define STREAMWRCFG(sel, reg, idx) (0xB7000000u | (sel) << 21 | (reg) << 11 | (idx))
#define CFGSHIFTMASK(mm, alu, width, rot, sidx, idx)                                              \
    (0xB8000000u | (mm) << 23 | (alu) << 20 | (width) << 15 | (rot) << 10 | (sidx) << 8 | (idx))
#define STALLWAIT_BH(block, cond) (0xA2000000u | (block) << 15 | (cond))

/* Blackhole: STATE_RESET_EN word 4, GLOBAL_CFGREG_BASE_ADDR32 180, SCRATCH_SEC0..2 209..211. */
enum { RESET_WORD = 4, GLOBAL_BH = 180, SCRATCH0 = 209, GLOBAL_WH = 152 };

/* What each issued instruction saw at the moment it issued: a watched Config word (bank 0),
 * a watched GPR and a watched ThreadConfig entry of its thread. */
struct issue {
    unsigned th;
    uint64_t cycle;
    uint32_t word;
    uint32_t cfg, gpr, thcfg;
};
static struct issue log_[128];
static unsigned nlog, watch_cfg, watch_gpr, watch_thcfg;

static void record(void *ctx, unsigned th, uint64_t cycle, uint32_t w)
{
    struct tile *tt = ctx;
    if (nlog < 128)
        log_[nlog++] = (struct issue){th, cycle, w, tt->cfg.cfg[0][watch_cfg],
                                      tt->gpr[th][watch_gpr], tt->cfg.thread[th][watch_thcfg]};
}

static const struct issue *issued(unsigned th, uint32_t w, unsigned nth)
{
    for (unsigned i = 0; i < nlog; i++)
        if (log_[i].th == th && log_[i].word == w && nth-- == 0)
            return &log_[i];
    cr_assert_fail("T%u never issued 0x%08x", th, w);
    return 0;
}

static uint64_t issued_at(unsigned th, uint32_t w, unsigned nth)
{
    return issued(th, w, nth)->cycle;
}

static struct tile *t;
static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};

static void setup_arch(enum arch_id a)
{
    t = test_tile(a);
    nlog = watch_cfg = watch_gpr = watch_thcfg = 0;
    t->on_issue = record;
    t->on_issue_ctx = t;
}
static void setup(void) { setup_arch(ARCH_BLACKHOLE); }
static void setup_wh(void) { setup_arch(ARCH_WORMHOLE); }
static void teardown(void) { tile_destroy(t); }
TestSuite(thcfg, .init = setup, .fini = teardown);
TestSuite(thcfg_wh, .init = setup_wh, .fini = teardown);

/* One program per thread: the words, then exit. Starts the other TRISCs, runs TRISC0. */
static enum err_kind run_threads(const uint32_t *w0, unsigned n0, const uint32_t *w1, unsigned n1,
                                 const uint32_t *w2, unsigned n2)
{
    const uint32_t *w[3] = {w0, w1, w2};
    unsigned n[3] = {n0, n1, n2};
    struct prog p[3];
    for (int i = 0; i < 3; i++) {
        p[i] = prog_at(t, base[i]);
        for (unsigned k = 0; k < n[i]; k++)
            emit(&p[i], TTINSN(w[i][k]));
        emit_exit(&p[i]);
        if (i && n[i])
            tile_start_core(t, i, base[i]);
    }
    return run_core(&p[0], CORE_TRISC0, 10000);
}
#define N(a) (sizeof(a) / sizeof(a)[0])
#define RUN1(a) run_threads(a, N(a), 0, 0, 0, 0)

/* ---- functional effects ---- */

Test(thcfg, wrcfg_32_and_128_bit)
{
    t->gpr[0][5] = 0xDEADBEEF;
    for (int k = 0; k < 4; k++)
        t->gpr[0][8 + k] = 0x11111111u * (uint32_t)(k + 1);
    /* 128-bit: InputReg 9 -> GPRs 8..11, CfgIndex 22 -> words 20..23 */
    const uint32_t w[] = {WRCFG(5, 0, 12), WRCFG(9, 1, 22)};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->cfg.cfg[0][12], 0xDEADBEEF);
    cr_expect_eq(t->cfg.cfg[0][20], 0x11111111);
    cr_expect_eq(t->cfg.cfg[0][21], 0x22222222);
    cr_expect_eq(t->cfg.cfg[0][22], 0x33333333);
    cr_expect_eq(t->cfg.cfg[0][23], 0x44444444);
    cr_expect_eq(t->cfg.cfg[0][24], 0);
    cr_expect_eq(t->cfg.cfg[1][12], 0, "bank 1 untouched");
    cr_expect_eq(t->cfg.cfg[1][20], 0);
    cr_expect_eq(issued_at(0, WRCFG(5, 0, 12), 0), 3);
    cr_expect_eq(issued_at(0, WRCFG(9, 1, 22), 0), 4, "fully pipelined");
}

Test(thcfg, bank_follows_each_threads_state_id)
{
    t->gpr[0][5] = 0xDEADBEEF;
    t->gpr[1][5] = 0x0000B0B0;
    t->cfg.cfg[1][30] = 0x9ABCDEF0;
    t->cfg.cfg[0][30] = 0x12345678;
    /* T0 switches itself to bank 1 (SETC16 at 3, visible at 4); T1 stays on bank 0 */
    const uint32_t w0[] = {SETC16(0, 1), WRCFG(5, 0, 12), RDCFG(7, 30)};
    const uint32_t w1[] = {WRCFG(5, 0, 12), NOP, RDCFG(7, 30)};
    cr_assert_eq(run_threads(w0, N(w0), w1, N(w1), 0, 0), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->cfg.thread[0][0], 1);
    cr_expect_eq(t->cfg.thread[1][0], 0);
    cr_expect_eq(t->cfg.cfg[1][12], 0xDEADBEEF);
    cr_expect_eq(t->cfg.cfg[0][12], 0x0000B0B0);
    cr_expect_eq(t->gpr[0][7], 0x9ABCDEF0);
    cr_expect_eq(t->gpr[1][7], 0x12345678);
    /* 3: T0 SETC16 (own group) and T1 WRCFG; 4: T0 WRCFG (stage -1 is free) */
    cr_expect_eq(issued_at(0, SETC16(0, 1), 0), 3);
    cr_expect_eq(issued_at(1, WRCFG(5, 0, 12), 0), 3);
    cr_expect_eq(issued_at(0, WRCFG(5, 0, 12), 0), 4);
}

Test(thcfg, global_words_reach_both_banks)
{
    t->gpr[0][5] = 0xCAFEF00D;
    t->gpr[0][6] = 0x00C0FFEE;
    const uint32_t w[] = {WRCFG(5, 0, 200), SETC16(0, 1), WRCFG(6, 0, 201),
                          RMWCIB(0, 0xFF, 0x5A, 202), WRCFG(6, 0, 179)};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    for (int b = 0; b < 2; b++) {
        cr_expect_eq(t->cfg.cfg[b][200], 0xCAFEF00D, "bank %d", b);
        cr_expect_eq(t->cfg.cfg[b][201], 0x00C0FFEE, "bank %d", b);
        cr_expect_eq(t->cfg.cfg[b][202], 0x5A, "bank %d", b);
    }
    cr_expect_eq(t->cfg.cfg[1][179], 0x00C0FFEE, "179 is below the global base");
    cr_expect_eq(t->cfg.cfg[0][179], 0);
}

static void fill_banks(void)
{
    for (unsigned k = 0; k < CFG_BH_WORDS; k++) {
        t->cfg.cfg[0][k] = 0x100 + k;
        t->cfg.cfg[1][k] = k < GLOBAL_BH ? 0x200 + k : 0x100 + k; /* global words are one value */
    }
}

Test(thcfg, state_reset_en_clears_the_bank_below_the_global_base)
{
    fill_banks();
    t->gpr[0][5] = 1;
    watch_cfg = RESET_WORD;
    /* RMWCIB never triggers the reset: word 4 = (0x104 & ~1) | 1 = 0x105 */
    const uint32_t w[] = {RMWCIB(0, 0x01, 0x01, RESET_WORD), NOP, NOP, WRCFG(5, 0, RESET_WORD)};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued(0, NOP, 0)->cfg, 0x105, "after RMWCIB: no reset");
    cr_expect_eq(issued(0, NOP, 1)->cfg, 0x105);
    for (unsigned k = 0; k < CFG_BH_WORDS; k++) {
        cr_expect_eq(t->cfg.cfg[0][k], k < GLOBAL_BH ? 0 : 0x100 + k, "bank 0 word %u", k);
        cr_expect_eq(t->cfg.cfg[1][k], k < GLOBAL_BH ? 0x200 + k : 0x100 + k, "bank 1 word %u", k);
    }
    cr_expect_eq(t->cfgu.st.state_resets, 1);
}

Test(thcfg, state_reset_en_in_a_128_bit_write_clears_its_other_words_too)
{
    fill_banks();
    for (int k = 0; k < 4; k++)
        t->gpr[0][4 + k] = 0xAAAA0000u + (uint32_t)k;
    const uint32_t w[] = {SETC16(0, 1), WRCFG(4, 1, 5)}; /* bank 1, words 4..7 */
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    for (unsigned k = 0; k < CFG_BH_WORDS; k++) {
        cr_expect_eq(t->cfg.cfg[1][k], k < GLOBAL_BH ? 0 : 0x100 + k, "bank 1 word %u", k);
        cr_expect_eq(t->cfg.cfg[0][k], 0x100 + k, "bank 0 word %u", k);
    }
}

Test(thcfg, rdcfg_reads_the_bank_into_a_gpr)
{
    t->cfg.cfg[0][30] = 0x12345678;
    t->cfg.cfg[1][30] = 0x9ABCDEF0;
    t->cfg.cfg[0][223] = t->cfg.cfg[1][223] = 0x0BADCAFE; /* last word of a bank */
    const uint32_t w[] = {RDCFG(7, 30), SETC16(0, 1), RDCFG(8, 30), RDCFG(63, 223)};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->gpr[0][7], 0x12345678);
    cr_expect_eq(t->gpr[0][8], 0x9ABCDEF0, "SETC16 at 4 is seen by the RDCFG at 5");
    cr_expect_eq(t->gpr[0][63], 0x0BADCAFE);
    cr_expect_eq(issued_at(0, RDCFG(8, 30), 0), 5);
    cr_expect_eq(issued_at(0, RDCFG(63, 223), 0), 6, "RDCFGs pipeline one per cycle");
}

Test(thcfg, setc16_writes_its_own_threads_threadconfig)
{
    const uint32_t w0[] = {SETC16(5, 0xBEEF)};
    const uint32_t w1[] = {SETC16(5, 0x0001)};
    const uint32_t w2[] = {SETC16(67, 0x1234)};
    cr_assert_eq(run_threads(w0, 1, w1, 1, w2, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->cfg.thread[0][5], 0xBEEF);
    cr_expect_eq(t->cfg.thread[1][5], 0x0001);
    cr_expect_eq(t->cfg.thread[2][5], 0);
    cr_expect_eq(t->cfg.thread[2][67], 0x1234);
    for (unsigned i = 0; i < 3; i++) {
        cr_expect_eq(log_[i].cycle, 3, "three SETC16 in one cycle");
        cr_expect_eq(t->thread[i].st.stall[GS_ARBITRATION], 0);
    }
}

Test(thcfg, rmwcib_replaces_the_masked_bits_of_one_byte_lane)
{
    t->cfg.cfg[0][30] = 0x11223344;
    watch_cfg = 30;
    const uint32_t w[] = {
        RMWCIB(0, 0x0F, 0xA5, 30), /* byte 0: (0xA5 & 0x0F) | (0x44 & 0xF0) = 0x45 */
        RMWCIB(1, 0xF0, 0x5A, 30), /* byte 1: (0x5A & 0xF0) | (0x33 & 0x0F) = 0x53 */
        RMWCIB(2, 0xFF, 0x00, 30), /* byte 2: 0x00 */
        RMWCIB(3, 0x00, 0xFF, 30), /* byte 3: mask 0, unchanged 0x11 */
        NOP};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->cfg.cfg[0][30], 0x11005345);
    /* one cycle each: every RMWCIB sees the one before it */
    cr_expect_eq(issued(0, RMWCIB(1, 0xF0, 0x5A, 30), 0)->cfg, 0x11223345);
    cr_expect_eq(issued(0, RMWCIB(2, 0xFF, 0x00, 30), 0)->cfg, 0x11225345);
    cr_expect_eq(issued(0, RMWCIB(3, 0x00, 0xFF, 30), 0)->cfg, 0x11005345);
    cr_expect_eq(issued_at(0, NOP, 0), 7, "3, 4, 5, 6: one per cycle");
}

Test(thcfg, cfgshiftmask_modes)
{
    uint32_t init[] = {0x12345678, 0x000000F0, 0x00000100, 0xFFFFFFFF, 0, 0x0F0F0F0F, 0x0F0F0F0F,
                       0xFFFFFFFF};
    for (unsigned k = 0; k < N(init); k++)
        t->cfg.cfg[0][40 + k] = init[k];
    for (int b = 0; b < 2; b++) {
        t->cfg.cfg[b][SCRATCH0] = 0x000000AB;
        t->cfg.cfg[b][SCRATCH0 + 1] = 0x0000F00F;
        t->cfg.cfg[b][SCRATCH0 + 2] = 0x80000001;
    }
    const uint32_t w0[] = {
        /* 40: bit-field insert: mask 0xFF, s = rotr(0xAB, 8) = 0xAB000000;
         * 0x12345678 & ~0xFF000000 | s = 0xAB345678 */
        CFGSHIFTMASK(0, 0, 7, 8, 0, 40),
        /* 41: add, no clearing: 0xF0 + 0xAB = 0x19B */
        CFGSHIFTMASK(1, 3, 7, 0, 0, 41),
        /* 42: subtract, mask 0xF: 0x100 - 0xB = 0xF5 */
        CFGSHIFTMASK(1, 7, 3, 0, 0, 42),
        /* 43: and-not with SCRATCH1, width 31, rot 4: s = rotr(0xF00F, 4) = 0xF0000F00;
         * 0xFFFFFFFF & ~s = 0x0FFFF0FF */
        CFGSHIFTMASK(1, 5, 31, 4, 1, 43),
        /* 44: or-not, mask 0xFFFF: 0 | ~0xF00F = 0xFFFF0FF0 */
        CFGSHIFTMASK(1, 4, 15, 0, 1, 44),
        /* 45: xor with SCRATCH2 rotated by 1: s = 0xC0000000; 0x0F0F0F0F ^ s = 0xCF0F0F0F */
        CFGSHIFTMASK(1, 2, 31, 1, 2, 45),
        /* 46: xnor, width 0 (mask 1): s = 1; 0x0F0F0F0F ^ 0xFFFFFFFE = 0xF0F0F0F1 */
        CFGSHIFTMASK(1, 6, 0, 0, 2, 46),
        /* 47: and, ScratchIndex 3 = this thread's (T0: SCRATCH0); s = rotr(0xAB, 28) = 0xAB0;
         * 0xFFFFFFFF & 0xAB0 = 0xAB0 */
        CFGSHIFTMASK(1, 1, 7, 28, 3, 47),
    };
    /* T2 with ScratchIndex 3 uses SCRATCH2: 0 | 0x80000001 */
    const uint32_t w2[] = {NOP, NOP, NOP, NOP, NOP, NOP, NOP, NOP, NOP, NOP, NOP, NOP, NOP, NOP,
                           NOP, NOP, CFGSHIFTMASK(1, 0, 31, 0, 3, 48)};
    cr_assert_eq(run_threads(w0, N(w0), 0, 0, w2, N(w2)), ERR_NONE, "%s", t->err.text);
    const uint32_t expect[] = {0xAB345678, 0x19B, 0xF5, 0x0FFFF0FF, 0xFFFF0FF0, 0xCF0F0F0F,
                               0xF0F0F0F1, 0xAB0, 0x80000001};
    for (unsigned k = 0; k < N(expect); k++)
        cr_expect_eq(t->cfg.cfg[0][40 + k], expect[k], "word %u: 0x%08x", 40 + k,
                     t->cfg.cfg[0][40 + k]);
    for (unsigned k = 0; k < N(w0); k++)
        cr_expect_eq(issued_at(0, w0[k], 0), 3 + 2 * k, "one CFGSHIFTMASK every other cycle");
}

/* ---- timing ---- */

Test(thcfg, a_consumer_right_after_a_write_sees_the_old_value)
{
    /* The NOPs stand for any consumer outside the Configuration unit: each records what it
     * would read at its issue cycle. */
    t->gpr[0][5] = 0xAAAA5555;
    t->cfg.cfg[0][12] = 0x0000000F;
    t->cfg.cfg[0][SCRATCH0] = t->cfg.cfg[1][SCRATCH0] = 0xF0;
    watch_cfg = 12;
    watch_gpr = 7;
    watch_thcfg = 9;
    const uint32_t w[] = {
        WRCFG(5, 0, 12), NOP, NOP,             /* 3: WRCFG; 4 sees 0xF; 5 sees 0xAAAA5555 */
        RDCFG(7, 12), NOP, NOP,                /* 6: RDCFG; 7 sees GPR 0; 8 sees 0xAAAA5555 */
        CFGSHIFTMASK(1, 0, 31, 0, 0, 12), NOP, NOP, /* 9; 10 old; 11: 0xAAAA55F5 */
        RMWCIB(0, 0xFF, 0x00, 12), NOP,        /* 12; 13 sees 0xAAAA5500 already */
        SETC16(9, 0x77), NOP,                  /* 14; 15 sees 0x77 already */
    };
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    const struct issue *n[10];
    for (unsigned k = 0; k < 8; k++)
        n[k] = issued(0, NOP, k);
    cr_expect_eq(n[0]->cycle, 4);
    cr_expect_eq(n[0]->cfg, 0x0000000F, "WRCFG: the next instruction reads the old word");
    cr_expect_eq(n[1]->cfg, 0xAAAA5555, "one instruction later the new one");
    cr_expect_eq(n[2]->cycle, 7);
    cr_expect_eq(n[2]->gpr, 0, "RDCFG: the next instruction reads the old GPR");
    cr_expect_eq(n[3]->gpr, 0xAAAA5555);
    cr_expect_eq(n[4]->cycle, 10);
    cr_expect_eq(n[4]->cfg, 0xAAAA5555, "CFGSHIFTMASK: the next instruction reads the old word");
    cr_expect_eq(n[5]->cfg, 0xAAAA55F5);
    cr_expect_eq(n[6]->cycle, 13);
    cr_expect_eq(n[6]->cfg, 0xAAAA5500, "RMWCIB takes one cycle");
    cr_expect_eq(n[7]->cycle, 15);
    cr_expect_eq(n[7]->thcfg, 0x77, "SETC16 takes one cycle");
    cr_expect_eq(t->thread[0].st.stall[GS_UNIT_BUSY], 0);
}

Test(thcfg, rdcfg_right_after_wrcfg_is_held_by_the_pipeline_not_stale)
{
    /* BH:ConfigurationUnit.md: RDCFG enters at stage 0, which WRCFG holds in its 2nd cycle; it
     * waits a cycle and reads the new word. The NOP of the second program costs nothing. */
    t->gpr[0][5] = 0x5EED5EED;
    const uint32_t w[] = {WRCFG(5, 0, 12), RDCFG(7, 12)};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, RDCFG(7, 12), 0), 5);
    cr_expect_eq(t->gpr[0][7], 0x5EED5EED);
    cr_expect_eq(t->thread[0].st.stall[GS_UNIT_BUSY], 1);
    cr_expect_eq(t->thread[0].st.stall_detail[GS_UNIT_BUSY][TT_UNIT_CFG], 1);

    tile_destroy(t);
    setup();
    t->gpr[0][5] = 0x5EED5EED;
    const uint32_t w2[] = {WRCFG(5, 0, 12), NOP, RDCFG(7, 12)};
    cr_assert_eq(RUN1(w2), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, RDCFG(7, 12), 0), 5);
    cr_expect_eq(t->gpr[0][7], 0x5EED5EED);
    cr_expect_eq(t->thread[0].st.stall[GS_UNIT_BUSY], 0);
}

Test(thcfg, stage_zero_decides_who_waits)
{
    const uint32_t w[] = {
        WRCFG(0, 0, 12),                  /* 3: stage -1, stage 0 at 4 */
        RMWCIB(0, 1, 1, 13),              /* 4 held (stage 0 busy) -> 5 */
        WRCFG(0, 0, 14),                  /* 6: stage -1 is free */
        CFGSHIFTMASK(1, 0, 0, 0, 0, 15),  /* 7 held by the WRCFG in stage 0 -> 8 (stages -1, 0) */
        CFGSHIFTMASK(1, 0, 0, 0, 0, 16),  /* 9 held: the first still writes in stage 0 -> 10 */
        WRCFG(0, 0, 17),                  /* 11: enters -1 during the 2nd cycle of the last */
        RDCFG(1, 12),                     /* 12 held by that WRCFG -> 13 */
        RDCFG(2, 12),                     /* 14: RDCFGs follow one per cycle */
        RMWCIB(1, 1, 1, 13),              /* 15 */
        WRCFG(0, 0, 18),                  /* 16 */
    };
    const uint64_t at[] = {3, 5, 6, 8, 10, 11, 13, 14, 15, 16};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    for (unsigned k = 0; k < N(w); k++)
        cr_expect_eq(issued_at(0, w[k], 0), at[k], "instruction %u", k);
    cr_expect_eq(t->thread[0].st.stall[GS_UNIT_BUSY], 4, "held at 4, 7, 9 and 12");
}

Test(thcfg, config_group_is_one_per_cycle_across_threads)
{
    for (unsigned i = 0; i < 3; i++)
        t->gpr[i][5] = 0x100 + i;
    const uint32_t w0[] = {WRCFG(5, 0, 12)}, w1[] = {WRCFG(5, 0, 13)}, w2[] = {WRCFG(5, 0, 14)};
    cr_assert_eq(run_threads(w0, 1, w1, 1, w2, 1), ERR_NONE, "%s", t->err.text);
    /* round robin from T0: 3, 4, 5 */
    for (unsigned i = 0; i < 3; i++) {
        cr_expect_eq(log_[i].th, i);
        cr_expect_eq(log_[i].cycle, 3 + i);
        cr_expect_eq(t->thread[i].st.stall[GS_ARBITRATION], i);
        cr_expect_eq(t->cfg.cfg[0][12 + i], 0x100 + i);
    }
}

Test(thcfg, round_robin_among_rdcfg_of_three_threads)
{
    t->cfg.cfg[0][50] = 0x50;
    const uint32_t w[] = {RDCFG(3, 50), RDCFG(4, 50)};
    cr_assert_eq(run_threads(w, 2, w, 2, w, 2), ERR_NONE, "%s", t->err.text);
    /* 3 T0, 4 T1, 5 T2, 6 T0, 7 T1, 8 T2: one per cycle, pipelined */
    for (unsigned k = 0; k < 6; k++) {
        cr_expect_eq(log_[k].cycle, 3 + k);
        cr_expect_eq(log_[k].th, k % 3);
    }
    for (unsigned i = 0; i < 3; i++)
        cr_expect(t->gpr[i][3] == 0x50 && t->gpr[i][4] == 0x50, "T%u", i);
}

Test(thcfg, stallwait_c12_waits_for_every_threads_config_instructions)
{
    /* T0 latches STALLWAIT(B7, C12) at 3; T1's WRCFGs issue at 3..6 and the last leaves the
     * pipeline at the end of 7. The gate sees it empty at 8 (release) and SETC16 issues at 9. */
    const uint32_t w0[] = {STALLWAIT_BH(0x80, 1u << 12), SETC16(1, 7)};
    const uint32_t w1[] = {WRCFG(0, 0, 12), WRCFG(0, 0, 13), WRCFG(0, 0, 14), WRCFG(0, 0, 15)};
    cr_assert_eq(run_threads(w0, 2, w1, 4, 0, 0), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(1, WRCFG(0, 0, 15), 0), 6);
    cr_expect_eq(issued_at(0, SETC16(1, 7), 0), 9);
    cr_expect_eq(t->thread[0].st.stall[GS_STALLWAIT], 4);
    cr_expect_eq(t->thread[0].st.stall_detail[GS_STALLWAIT][12], 4, "attributed to C12");
    cr_expect_eq(t->thread[0].st.stall[GS_WAIT_RELEASE], 1);
}

Test(thcfg, stallwait_c12_after_rdcfg_makes_the_gpr_safe)
{
    /* BH:RDCFG.md advice: RDCFG at 3 (GPR written in 4), STALLWAIT at 4, NOP caught (all block
     * bits) at 5: the pipeline is empty, release; the NOP issues at 6 and sees the GPR. */
    t->cfg.cfg[0][33] = 0x3333;
    watch_gpr = 9;
    const uint32_t w[] = {RDCFG(9, 33), STALLWAIT_BH(0x1FF, 1u << 12), NOP};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued(0, NOP, 0)->cycle, 6);
    cr_expect_eq(issued(0, NOP, 0)->gpr, 0x3333);
}

/* ---- errors ---- */

Test(thcfg, out_of_range_indices_are_undefined)
{
    const uint32_t w[] = {WRCFG(0, 0, 224)}; /* BH Config has 56 * 4 = 224 words */
    cr_assert_eq(RUN1(w), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text, "thread T0: WRCFG index 224 is outside Config (224 entries)");
}

Test(thcfg, setc16_past_threadconfig_is_undefined)
{
    const uint32_t w[] = {SETC16(68, 1)};
    cr_assert_eq(RUN1(w), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text,
                     "thread T0: SETC16 index 68 is outside ThreadConfig (68 entries)");
}

Test(thcfg, rmwcib_and_rdcfg_past_config_are_undefined)
{
    const uint32_t w[] = {RMWCIB(2, 1, 1, 230)};
    cr_assert_eq(RUN1(w), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text, "thread T0: RMWCIB index 230 is outside Config (224 entries)");
    tile_destroy(t);
    setup();
    const uint32_t w2[] = {RDCFG(1, 2047)};
    cr_assert_eq(RUN1(w2), ERR_UNDEF_BEHAVIOUR);
}

Test(thcfg, streamwrcfg_is_unimplemented)
{
    const uint32_t w[] = {STREAMWRCFG(1, 2, 3)};
    cr_assert_eq(RUN1(w), ERR_UNIMPLEMENTED);
    cr_expect_str_eq(t->err.text, "STREAMWRCFG (thread T0): NoC overlay streams are not modelled");
}

/* ---- RISC-V window ---- */

Test(thcfg, riscv_window_blackhole)
{
    t->cfg.thread[2][3] = 0x1234;
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(SETC16(5, 0xBEEF))); /* issues at 3 */
    emit_li(&p, 5, 0xFFEF0000);          /* Config[0] */
    emit_li(&p, 6, 0xFFEF0380);          /* Config[1] */
    emit_li(&p, 7, 0xFFEF0700);          /* ConfigDualWrite */
    emit_li(&p, 8, 0xFFEF0A80);          /* ThreadConfig[0][0] */
    emit_li(&p, 9, 0x11223344);
    E(&p, SW, 0, 5, 9, 48);              /* Config[0][12] */
    emit_li(&p, 9, 0x55667788);
    E(&p, SW, 0, 6, 9, 48);              /* Config[1][12] */
    emit_li(&p, 9, 0xA5A5A5A5);
    E(&p, SW, 0, 7, 9, 52);              /* Config[0][13] and Config[1][13] */
    emit_li(&p, 9, 0x8899AABB);
    E(&p, SW, 0, 5, 9, 56);              /* Config[0][14] */
    emit_li(&p, 9, 0x600DF00D);
    E(&p, SW, 0, 6, 9, 800);             /* Config[1][200]: global, both banks */
    E(&p, LW, 22, 5, 0, 48);             /* 0x11223344 */
    E(&p, LW, 11, 6, 0, 48);             /* 0x55667788 */
    E(&p, LW, 12, 7, 0, 48);             /* ConfigDualWrite reads bank 0: 0x11223344 */
    E(&p, LH, 13, 5, 0, 56);             /* 0xAABB -> 0xFFFFAABB */
    E(&p, LHU, 14, 5, 0, 58);            /* 0x8899 */
    E(&p, LB, 15, 5, 0, 57);             /* 0xAA -> 0xFFFFFFAA */
    E(&p, LBU, 16, 5, 0, 59);            /* 0x88 */
    E(&p, LW, 23, 8, 0, 20);             /* ThreadConfig[0][5] = 0xBEEF, padding 0 */
    E(&p, LH, 18, 8, 0, 20);             /* 0xFFFFBEEF */
    E(&p, LHU, 19, 8, 0, 22);            /* padding: 0 */
    E(&p, LW, 20, 8, 0, 4 * (68 * 2 + 3)); /* ThreadConfig[2][3] = 0x1234 */
    E(&p, LW, 21, 5, 0, 800);            /* 0x600DF00D in bank 0 too */
    E(&p, ADDI, 10, 0, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    const uint32_t *x = t->core[0].x;
    cr_expect_eq(x[22], 0x11223344);
    cr_expect_eq(x[11], 0x55667788);
    cr_expect_eq(x[12], 0x11223344);
    cr_expect_eq(x[13], 0xFFFFAABB);
    cr_expect_eq(x[14], 0x8899);
    cr_expect_eq(x[15], 0xFFFFFFAA);
    cr_expect_eq(x[16], 0x88);
    cr_expect_eq(x[23], 0xBEEF);
    cr_expect_eq(x[18], 0xFFFFBEEF);
    cr_expect_eq(x[19], 0);
    cr_expect_eq(x[20], 0x1234);
    cr_expect_eq(x[21], 0x600DF00D);
    cr_expect_eq(t->cfg.cfg[0][12], 0x11223344);
    cr_expect_eq(t->cfg.cfg[1][12], 0x55667788);
    cr_expect_eq(t->cfg.cfg[0][13], 0xA5A5A5A5);
    cr_expect_eq(t->cfg.cfg[1][13], 0xA5A5A5A5);
    cr_expect_eq(t->cfg.cfg[0][200], 0x600DF00D);
    cr_expect_eq(t->cfg.cfg[1][200], 0x600DF00D);
    cr_expect_eq(t->cfgu.st.riscv_writes, 5);
    cr_expect_eq(t->cfgu.st.riscv_reads, 12);
}

Test(thcfg, riscv_load_latency_is_four)
{
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 5, 0xFFEF0000);   /* lui: cycle 0 */
    E(&p, LW, 10, 5, 0, 0);       /* 1, result at 5 */
    E(&p, ADDI, 11, 10, 0, 1);    /* waits until 5 */
    emit_exit(&p);                /* 6, 7: halted at 8 */
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].halt_cycle, 8);
}

Test(thcfg, riscv_store_to_state_reset_en)
{
    fill_banks();
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 6, 0xFFEF0380);
    E(&p, SW, 0, 6, 0, 4 * RESET_WORD); /* Config[1][4]: bank 1 only */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    for (unsigned k = 0; k < CFG_BH_WORDS; k++) {
        cr_expect_eq(t->cfg.cfg[1][k], k < GLOBAL_BH ? 0 : 0x100 + k, "bank 1 word %u", k);
        cr_expect_eq(t->cfg.cfg[0][k], 0x100 + k, "bank 0 word %u", k);
    }
    tile_destroy(t);
    setup();
    fill_banks();
    p = prog_at(t, base[0]);
    emit_li(&p, 7, 0xFFEF0700);
    E(&p, SW, 0, 7, 0, 4 * RESET_WORD); /* ConfigDualWrite: both banks */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    for (unsigned k = 0; k < GLOBAL_BH; k++)
        cr_expect(t->cfg.cfg[0][k] == 0 && t->cfg.cfg[1][k] == 0, "word %u", k);
    cr_expect_eq(t->cfg.cfg[0][GLOBAL_BH], 0x100 + GLOBAL_BH);
    cr_expect_eq(t->cfgu.st.state_resets, 1);
}

Test(thcfg, riscv_load_is_ordered_after_issued_instructions)
{
    /* WRCFG pushed at 0 issues at 3 and writes in stage 0 at 4. A load at core cycle 2 is
     * handled at 3 (old value); one at 3 would be handled at 4, but stage 0 is the WRCFG's, so
     * at 5, after the write. */
    t->gpr[0][5] = 0xFEEDFACE;
    t->cfg.cfg[0][12] = 0x0DDBA11;
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(WRCFG(5, 0, 12))); /* 0 */
    E(&p, LUI, 5, 0, 0, (int32_t)0xFFEF0000); /* 1 */
    E(&p, LW, 10, 5, 0, 48);                  /* 2 */
    E(&p, LW, 11, 5, 0, 48);                  /* 3 */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, WRCFG(5, 0, 12), 0), 3);
    cr_expect_eq(t->core[0].x[10], 0x0DDBA11);
    cr_expect_eq(t->core[0].x[11], 0xFEEDFACE);
}

Test(thcfg, riscv_store_is_seen_by_a_later_rdcfg)
{
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 5, 0xFFEF0000);
    emit_li(&p, 6, 0x0A0B0C0D);
    E(&p, SW, 0, 5, 6, 4 * 77);
    emit(&p, TTINSN(RDCFG(2, 77)));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->gpr[0][2], 0x0A0B0C0D);
}

static enum err_kind run_one_access(uint32_t addr, enum rv_op op)
{
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 5, addr);
    E(&p, ADDI, 6, 0, 0, 1);
    if (op == RV_SW || op == RV_SH || op == RV_SB)
        emit(&p, rv_encode(op, 0, 5, 6, 0));
    else
        emit(&p, rv_encode(op, 10, 5, 0, 0));
    emit_exit(&p);
    return run_core(&p, CORE_TRISC0, 10000);
}

Test(thcfg, riscv_byte_store_is_undefined)
{
    cr_assert_eq(run_one_access(0xFFEF0010, RV_SB), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text,
                     "1-byte store to the configuration window 0xffef0010 (only sw writes Config)");
}

Test(thcfg, riscv_halfword_store_is_undefined)
{
    cr_assert_eq(run_one_access(0xFFEF0702, RV_SH), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "2-byte store") != NULL, "%s", t->err.text);
}

Test(thcfg, riscv_store_to_threadconfig_is_undefined)
{
    cr_assert_eq(run_one_access(0xFFEF0A80 + 4 * (68 + 2), RV_SW), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text, "store to ThreadConfig[1][2] (0xffef0b98): RISC-V cannot write "
                                  "ThreadConfig (push SETC16)");
    cr_expect_eq(t->cfg.thread[1][2], 0);
}

Test(thcfg, riscv_access_past_the_arrays_is_a_bad_access)
{
    cr_assert_eq(run_one_access(0xFFEF0DB0, RV_LW), ERR_BAD_ACCESS);
    cr_expect_str_eq(t->err.text, "load of 0xffef0db0: no configuration register there (the "
                                  "arrays end at 0xffef0daf)");
    tile_destroy(t);
    setup();
    cr_assert_eq(run_one_access(0xFFEFFFFC, RV_SW), ERR_BAD_ACCESS);
    cr_expect(strstr(t->err.text, "store of 0xffeffffc") != NULL, "%s", t->err.text);
}

/* ---- Wormhole B0 ---- */

Test(thcfg_wh, riscv_window_wormhole)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(SETC16(0, 1)));  /* ThreadConfig[0][0] */
    emit_li(&p, 5, 0xFFEF0000);
    emit_li(&p, 6, 0xFFEF02F0);      /* Config[1] */
    emit_li(&p, 8, 0xFFEF05E0);      /* ThreadConfig[0][0], 16-byte slots */
    emit_li(&p, 9, 0x13579BDF);
    E(&p, SW, 0, 6, 9, 0);           /* Config[1][0] */
    E(&p, SW, 0, 5, 9, 4 * GLOBAL_WH); /* global word: both banks */
    for (int i = 0; i < 8; i++)
        E(&p, ADDI, 0, 0, 0, 0);
    E(&p, LW, 22, 8, 0, 0);          /* 1 */
    E(&p, LW, 11, 8, 0, 4);          /* padding: 0 */
    E(&p, LW, 12, 6, 0, 0);          /* 0x13579BDF */
    E(&p, LW, 13, 5, 0, 0);          /* bank 0 untouched: 0 */
    E(&p, ADDI, 10, 0, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].x[22], 1);
    cr_expect_eq(t->core[0].x[11], 0);
    cr_expect_eq(t->core[0].x[12], 0x13579BDF);
    cr_expect_eq(t->core[0].x[13], 0);
    cr_expect_eq(t->cfg.cfg[0][GLOBAL_WH], 0x13579BDF);
    cr_expect_eq(t->cfg.cfg[1][GLOBAL_WH], 0x13579BDF);
    cr_expect_eq(t->cfg.thread[0][0], 1);
}

Test(thcfg_wh, no_dual_write_alias_on_wormhole)
{
    /* 0xFFEF0700 is ThreadConfig[0][18] on Wormhole: (0x700 - 0x5E0) / 16 */
    cr_assert_eq(run_one_access(0xFFEF0700, RV_SW), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "ThreadConfig[0][18]") != NULL, "%s", t->err.text);
}

Test(thcfg_wh, rmwcib_waits_a_cycle_after_wrcfg_or_rdcfg)
{
    /* WH:ConfigurationUnit.md: RMWCIB/RDCFG not in the cycle after a WRCFG or RDCFG; WRCFG one
     * per cycle */
    const uint32_t w[] = {WRCFG(0, 0, 12), RMWCIB(0, 1, 1, 13), WRCFG(0, 0, 14), WRCFG(0, 0, 15),
                          RMWCIB(0, 2, 2, 13)};
    const uint64_t at[] = {3, 5, 6, 7, 9};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    for (unsigned k = 0; k < N(w); k++)
        cr_expect_eq(issued_at(0, w[k], 0), at[k], "instruction %u", k);
    cr_expect_eq(t->cfg.cfg[0][13], 3);
}

Test(thcfg_wh, rdcfg_holds_its_thread_for_two_cycles)
{
    /* WH:RDCFG.md: the issuing thread is blocked for the whole (>= 2 cycle) RDCFG; its next
     * instruction sees the GPR. */
    t->cfg.cfg[0][40] = 0x4040;
    watch_gpr = 6;
    const uint32_t w[] = {RDCFG(6, 40), SETC16(2, 2), WRCFG(6, 0, 41)};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, SETC16(2, 2), 0), 5);
    cr_expect_eq(issued(0, SETC16(2, 2), 0)->gpr, 0x4040);
    cr_expect_eq(issued_at(0, WRCFG(6, 0, 41), 0), 6);
    cr_expect_eq(t->cfg.cfg[0][41], 0x4040);
}

Test(thcfg_wh, rdcfg_freezes_the_whole_thread)
{
    /* The freeze covers instructions of every unit, not only the Configuration unit's. */
    const uint32_t w[] = {RDCFG(6, 40), 0x02000000u /* NOP */};
    cr_assert_eq(RUN1(w), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, w[0], 0), 3);
    cr_expect_eq(issued_at(0, w[1], 0), 5);
    cr_expect_eq(t->thread[0].st.stall_detail[GS_UNIT_BUSY][TT_UNIT_CFG], 1);
}

Test(thcfg_wh, rdcfg_from_another_thread_waits_for_the_next_cycle_but_one)
{
    t->cfg.cfg[0][40] = 0x4040;
    const uint32_t w[] = {RDCFG(6, 40)};
    cr_assert_eq(run_threads(w, 1, w, 1, 0, 0), ERR_NONE, "%s", t->err.text);
    /* 3: T0 wins the slot; 4: T1 held (RDCFG in the previous cycle); 5: T1 */
    cr_expect_eq(issued_at(0, w[0], 0), 3);
    cr_expect_eq(issued_at(1, w[0], 0), 5);
    cr_expect_eq(t->thread[1].st.stall[GS_ARBITRATION], 1);
    cr_expect_eq(t->thread[1].st.stall[GS_UNIT_BUSY], 1);
    cr_expect_eq(t->gpr[1][6], 0x4040);
}

Test(thcfg_wh, cfgshiftmask_does_not_exist_on_wormhole)
{
    const uint32_t w[] = {CFGSHIFTMASK(1, 0, 0, 0, 0, 1)};
    cr_assert_eq(RUN1(w), ERR_UNDEF_INSN);
}
