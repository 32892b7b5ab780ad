/* The Vector unit skeleton (units/sfpu.c): power-on state (LReg.md, VectorUnit.md), SFPENCC
 * (SFPENCC.md), SFPCONFIG (SFPCONFIG.md), SFPNOP, the one-per-cycle issue and the latencies of
 * VectorUnit.md's instruction table. */
#include <criterion/criterion.h>

#include "../units/sfpu.h"
#include "harness.h"
#include "tensix_ops.h"

static struct issue_log issues;
static struct tile *t;

static void setup(void)
{
    t = test_tile(ARCH_BLACKHOLE);
    issue_log_attach(t, &issues);
}
static void teardown(void) { tile_destroy(t); }
TestSuite(sfpu, .init = setup, .fini = teardown);

static void run(const uint32_t *w, unsigned n)
{
    cr_assert_eq(run_tensix(t, w, n, 100000), ERR_NONE, "%s", t->err.text);
}

/* SFPENCC Mod1: EC 1, EI 2, RI 8; Imm2: E 1, R 2 */
#define ENCC(imm2, vd, mod1) TT_OP_SFPENCC(imm2, vd, mod1)

Test(sfpu, power_on_constants_and_flags)
{
    const struct sfpu_state *s = &t->sfpu;
    for (unsigned lane = 0; lane < 32; lane++) {
        cr_expect_eq(s->lreg[8][lane], 0x3F56594Bu);  /* 0.8373 */
        cr_expect_eq(s->lreg[9][lane], 0);
        cr_expect_eq(s->lreg[10][lane], 0x3F800000u); /* 1.0 */
        cr_expect_eq(s->lreg[11][lane], 0xBF800000u); /* -1.0 */
        cr_expect_eq(s->lreg[12][lane], 0x37800000u); /* 1/65536 (BHT:SoftReset.md) */
        cr_expect_eq(s->lreg[15][lane], lane * 2);
        cr_expect(!s->use_lane_flags[lane] && !s->lane_flags[lane]);
        cr_expect(sfpu_lane_enabled(s, lane));
    }
}

Test(sfpu, sfpencc_sets_toggles_and_resets_the_flags)
{
    /* tt-llk's set-up: EI|RI with E=1 R=1, i.e. predication on, every lane's flag true */
    const uint32_t w[] = {ENCC(3, 0, 10)};
    run(w, 1);
    for (unsigned lane = 0; lane < 32; lane++)
        cr_expect(t->sfpu.use_lane_flags[lane] && t->sfpu.lane_flags[lane] && sfpu_lane_enabled(&t->sfpu, lane));
}

Test(sfpu, sfpencc_flag_false_disables_lanes_then_toggle)
{
    const uint32_t w[] = {ENCC(1, 0, 10)}; /* predication on, flags false: no lane enabled */
    run(w, 1);
    cr_expect(t->sfpu.use_lane_flags[5] && !t->sfpu.lane_flags[5]);
    cr_expect(!sfpu_lane_enabled(&t->sfpu, 5));
    tile_reset(t);
    const uint32_t w2[] = {ENCC(1, 0, 10), ENCC(0, 0, 1)}; /* then EC: toggle off, flags := true */
    run(w2, 2);
    cr_expect(!t->sfpu.use_lane_flags[5] && t->sfpu.lane_flags[5]);
    cr_expect(sfpu_lane_enabled(&t->sfpu, 31));
}

/* VD >= 12 with the backdoor enabled (the default): the word goes to InstructionTemplate[VD-12]
 * of every lane and the flags stay; with DISABLE_BACKDOOR_LOAD set the instruction acts. */
Test(sfpu, sfpencc_backdoor_writes_the_instruction_template)
{
    const uint32_t w[] = {ENCC(3, 13, 10)};
    run(w, 1);
    for (unsigned lane = 0; lane < 32; lane++) {
        cr_expect_eq(t->sfpu.macro[lane].instruction_template[1], ENCC(3, 13, 10));
        cr_expect(!t->sfpu.use_lane_flags[lane]);
    }
    tile_reset(t);
    /* LaneConfig := 2 (DISABLE_BACKDOOR_LOAD) from Imm16, then SFPNOP as SFPCONFIG.md asks */
    const uint32_t w2[] = {TT_OP_SFPCONFIG(2, 15, 1), TT_OP_SFPNOP, ENCC(3, 13, 10)};
    run(w2, 3);
    cr_expect_eq(t->sfpu.lane_config[9], 2);
    cr_expect_eq(t->sfpu.macro[9].instruction_template[1], 0);
    cr_expect(t->sfpu.use_lane_flags[9] && t->sfpu.lane_flags[9]);
}

Test(sfpu, sfpconfig_lane_config_ops_and_lane_mask)
{
    /* replace with 0x3011 in columns 0, 2 and 6 only (Imm16 lane mask, Mod1 9 = value | mask:
     * the mask reads bits 0, 4 and 12 of the same Imm16, column c at bit 2c); then OR 0x0100
     * everywhere, XOR 0x1000, AND 0xF1FF */
    const uint32_t w[] = {TT_OP_SFPCONFIG(0x3011, 15, 9), TT_OP_SFPCONFIG(0x0100, 15, 3),
                          TT_OP_SFPCONFIG(0x1000, 15, 7), TT_OP_SFPCONFIG(0xF1FF, 15, 5)};
    run(w, 4);
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned col = lane & 7;
        uint32_t v = (col == 0 || col == 2 || col == 6) ? 0x3011 : 0;
        v = ((v | 0x0100) ^ 0x1000) & 0xF1FF;
        cr_expect_eq(t->sfpu.lane_config[lane], v, "lane %u: 0x%x, want 0x%x", lane,
                     t->sfpu.lane_config[lane], v);
    }
    /* ROW_MASK bits 12..15 (0x2000 here: row 1) disable lanes 8..15 of columns 0, 2 and 6 */
    cr_expect(!sfpu_lane_enabled(&t->sfpu, 8) && !sfpu_lane_enabled(&t->sfpu, 10));
    cr_expect(sfpu_lane_enabled(&t->sfpu, 9) && sfpu_lane_enabled(&t->sfpu, 0));
}

Test(sfpu, sfpconfig_from_lreg0_broadcasts_columns_and_keeps_high_lane_config_bits)
{
    for (unsigned col = 0; col < 8; col++)
        t->sfpu.lreg[0][col] = 0x40000000u + col; /* lanes 0-7 of LReg[0] */
    t->sfpu.lreg[0][8] = 0xDEADBEEFu;            /* never read: rows are broadcast */
    for (unsigned lane = 0; lane < 32; lane++)
        t->sfpu.lreg[12][lane] = 0; /* so that the immediate write below shows */
    const uint32_t w[] = {TT_OP_SFPCONFIG(0, 11, 0),      /* LReg[11] := LReg[0] by column */
                          TT_OP_SFPCONFIG(0, 12, 1),      /* LReg[12] := the page's 1/65536 */
                          TT_OP_SFPCONFIG(0, 2, 0),       /* InstructionTemplate[2] := LReg[0] */
                          TT_OP_SFPCONFIG(0xABCD, 5, 1),  /* Sequence[1] := Imm16 */
                          TT_OP_SFPCONFIG(0xFFFF, 8, 1)}; /* Misc := Imm16, 12 bits */
    run(w, 5);
    for (unsigned lane = 0; lane < 32; lane++) {
        cr_expect_eq(t->sfpu.lreg[11][lane], 0x40000000u + (lane & 7));
        cr_expect_eq(t->sfpu.lreg[12][lane], 0x37800000u);
        cr_expect_eq(t->sfpu.macro[lane].instruction_template[2], 0x40000000u + (lane & 7));
        cr_expect_eq(t->sfpu.macro[lane].sequence[1], 0xABCD);
        cr_expect_eq(t->sfpu.macro[lane].misc, 0xFFF);
    }
    /* Imm16 cannot reach LaneConfig bits 16-17: an immediate write keeps them */
    tile_reset(t);
    t->sfpu.lreg[0][3] = 0x30001;
    const uint32_t w2[] = {TT_OP_SFPCONFIG(0, 15, 0), TT_OP_SFPCONFIG(0x0004, 15, 1)};
    run(w2, 2);
    cr_expect_eq(t->sfpu.lane_config[3], 0x30004);
    cr_expect_eq(t->sfpu.lane_config[4], 0x00004);
}

Test(sfpu, sfpconfig_skips_columns_whose_flag_is_false)
{
    const uint32_t w[] = {ENCC(1, 0, 10), TT_OP_SFPCONFIG(0x7, 15, 1)};
    run(w, 2);
    for (unsigned lane = 0; lane < 32; lane++)
        cr_expect_eq(t->sfpu.lane_config[lane], 0);
}

/* One instruction per cycle from all threads: T0 and T1 push SFPNOP in the same cycle, one
 * issues, the other loses the arbitration and issues the next cycle. */
Test(sfpu, one_instruction_per_cycle_across_threads)
{
    const uint32_t w[] = {TT_OP_SFPNOP};
    tensix_kernel(t, 1, w, 1);
    run(w, 1);
    uint64_t a = issue_log_cycle(&issues, 0, TT_OP_SFPNOP, 0), b = issue_log_cycle(&issues, 1, TT_OP_SFPNOP, 0);
    cr_expect_eq(a > b ? a - b : b - a, 1, "T0 at %llu, T1 at %llu", (unsigned long long)a,
                 (unsigned long long)b);
    cr_expect_eq(t->thread[0].st.stall[GS_ARBITRATION] + t->thread[1].st.stall[GS_ARBITRATION], 1);
    cr_expect_eq(t->sfpu.st.insns, 2);
}

/* The run ends when the last instruction's latency is over: SFPCONFIG of LReg[11..14] takes 1
 * cycle, of configuration up to 2 (tensim: 2). */
Test(sfpu, latency_sets_the_end_of_the_run)
{
    const uint32_t lreg[] = {TT_OP_SFPCONFIG(0, 11, 1)}, cfg[] = {TT_OP_SFPCONFIG(1, 15, 1)};
    run(lreg, 1);
    uint64_t c = issue_log_cycle(&issues, 0, lreg[0], 0);
    cr_expect_eq(t->cycles, c + 1);
    tile_reset(t);
    issues.n = 0;
    run(cfg, 1);
    c = issue_log_cycle(&issues, 0, cfg[0], 0);
    cr_expect_eq(t->cycles, c + 2);
    cr_expect_eq(t->sfpu.st.busy_cycles, 2);
}

/* STALLWAIT on the SFPU condition (C11 on Blackhole) holds a caught instruction while the
 * thread's SFPCONFIG is in flight: released in the cycle its latency ends, visible the next. */
Test(sfpu, stallwait_on_sfpu_busy)
{
    const uint32_t wait = TT_OP_STALLWAIT_BH(1u << 7, 1u << 11); /* B7: config instructions */
    const uint32_t w[] = {TT_OP_SFPCONFIG(1, 15, 1), wait, TT_OP_SETC16(0, 0)};
    run(w, 3);
    uint64_t c = issue_log_cycle(&issues, 0, w[0], 0);
    cr_expect_eq(issue_log_cycle(&issues, 0, wait, 0), c + 1);
    cr_expect_eq(issue_log_cycle(&issues, 0, w[2], 0), c + 3);
    cr_expect_eq(t->thread[0].st.stall[GS_WAIT_RELEASE], 1);
}
