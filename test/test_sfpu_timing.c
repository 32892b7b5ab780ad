/* The vector unit's timing (units/sfpu_timing.c) on Blackhole (suite sfpu_timing) and Wormhole
 * B0 (sfpu_timing_wh): the sub-unit and latency of every form, Blackhole's one-cycle interlock
 * after a MAD-class instruction and its documented holes, Wormhole's software rule, the cycle
 * after SFPSWAP and SFPSHFT2's lane shuffles, SFPCONFIG's DISABLE_BACKDOOR_LOAD change, and the
 * measured rates (shared/spec/sfpu.md A.8). Cycles are worked out here from the pages' rules. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../units/dest.h"
#include "../units/registry.h"
#include "../units/sfpu.h"
#include "../units/sfpu_timing.h"
#include "harness.h"
#include "sfpu_test.h"
#include "tensix_ops.h"

TestSuite(sfpu_timing, .init = setup_bh, .fini = teardown);
TestSuite(sfpu_timing_wh, .init = setup_wh, .fini = teardown);

#define MAD(va, vb, vc, vd, m) TT_OP_SFPMAD(va, vb, vc, vd, m)
#define MOV(vc, vd) TT_OP_SFPMOV(vc, vd, 0)
#define F2 0x40000000u /* 2.0 */
#define F3 0x40400000u /* 3.0 */
#define F6 0x40C00000u /* 6.0 */

/* LReg[1] = 2.0, LReg[2] = 3.0: MAD(1, 2, 9, d) writes 6.0 into LReg[d] */
static void operands(void)
{
    fill(1, F2);
    fill(2, F3);
}
static uint64_t at(uint32_t w, unsigned nth) { return issue_log_cycle(&issues, 0, w, nth); }
static uint64_t held(unsigned th, enum gate_stall r) { return t->thread[th].st.stall[r]; }
static uint64_t held_sfpu(unsigned th, enum gate_stall r)
{
    return t->thread[th].st.stall_detail[r][TT_UNIT_SFPU];
}
/* What tile_warning wrote while `body` ran. */
#define WARNINGS(buf, body)                                                                        \
    do {                                                                                           \
        FILE *e_ = tmpfile();                                                                      \
        t->errout = e_;                                                                            \
        body;                                                                                      \
        rewind(e_);                                                                                \
        size_t n_ = fread(buf, 1, sizeof buf - 1, e_);                                             \
        buf[n_] = 0;                                                                               \
        fclose(e_);                                                                                \
        t->errout = stderr;                                                                        \
    } while (0)

/* ---- the table: every form's sub-unit and latency ---- */

/* SFPLOADMACRO.md's columns (Blackhole's lists; Wormhole lacks the four new instructions),
 * "load-style" for SFPLOAD/SFPLOADI/SFPLOADMACRO/SFPNOP, the store sub-unit for SFPSTORE; the
 * latencies of VectorUnit.md's table (SFPCONFIG "<= 2": 2). */
static const struct { const char *mn; unsigned sub, latency; } expected[] = {
    {"SFPLOAD", SFPU_SUB_LOAD, 1}, {"SFPLOADI", SFPU_SUB_LOAD, 1}, {"SFPLOADMACRO", SFPU_SUB_LOAD, 1},
    {"SFPNOP", SFPU_SUB_LOAD, 1}, {"SFPSTORE", SFPU_SUB_STORE, 1},
    {"SFPABS", SFPU_SUB_SIMPLE, 1}, {"SFPAND", SFPU_SUB_SIMPLE, 1}, {"SFPARECIP", SFPU_SUB_SIMPLE, 1},
    {"SFPCAST", SFPU_SUB_SIMPLE, 1}, {"SFPCOMPC", SFPU_SUB_SIMPLE, 1}, {"SFPCONFIG", SFPU_SUB_SIMPLE, 2},
    {"SFPDIVP2", SFPU_SUB_SIMPLE, 1}, {"SFPENCC", SFPU_SUB_SIMPLE, 1}, {"SFPEXEXP", SFPU_SUB_SIMPLE, 1},
    {"SFPEXMAN", SFPU_SUB_SIMPLE, 1}, {"SFPGT", SFPU_SUB_SIMPLE, 1}, {"SFPIADD", SFPU_SUB_SIMPLE, 1},
    {"SFPLE", SFPU_SUB_SIMPLE, 1}, {"SFPLZ", SFPU_SUB_SIMPLE, 1}, {"SFPMOV", SFPU_SUB_SIMPLE, 1},
    {"SFPNOT", SFPU_SUB_SIMPLE, 1}, {"SFPOR", SFPU_SUB_SIMPLE, 1}, {"SFPPOPC", SFPU_SUB_SIMPLE, 1},
    {"SFPPUSHC", SFPU_SUB_SIMPLE, 1}, {"SFPSETCC", SFPU_SUB_SIMPLE, 1}, {"SFPSETEXP", SFPU_SUB_SIMPLE, 1},
    {"SFPSETMAN", SFPU_SUB_SIMPLE, 1}, {"SFPSETSGN", SFPU_SUB_SIMPLE, 1}, {"SFPSHFT", SFPU_SUB_SIMPLE, 1},
    {"SFPSWAP", SFPU_SUB_SIMPLE, 2}, {"SFPTRANSP", SFPU_SUB_SIMPLE, 1}, {"SFPXOR", SFPU_SUB_SIMPLE, 1},
    {"SFPADD", SFPU_SUB_MAD, 2}, {"SFPADDI", SFPU_SUB_MAD, 2}, {"SFPLUT", SFPU_SUB_MAD, 2},
    {"SFPLUTFP32", SFPU_SUB_MAD, 2}, {"SFPMAD", SFPU_SUB_MAD, 2}, {"SFPMUL", SFPU_SUB_MAD, 2},
    {"SFPMULI", SFPU_SUB_MAD, 2}, {"SFPMUL24", SFPU_SUB_MAD, 2},
    {"SFPSHFT2", SFPU_SUB_ROUND, 1}, {"SFPSTOCHRND", SFPU_SUB_ROUND, 1},
};

Test(sfpu_timing, every_sfpu_form_has_its_sub_unit_and_latency)
{
    unsigned n = 0;
    for (unsigned form = 0; form < TT_FORM_COUNT; form++) {
        if (tt_forms[form].unit != TT_UNIT_SFPU)
            continue;
        n++;
        const struct sfpu_form_timing *r = sfpu_form_timing(form);
        unsigned k = 0;
        while (k < N(expected) && strcmp(expected[k].mn, tt_forms[form].mnemonic))
            k++;
        cr_assert(k < N(expected), "%s is not in the test's list", tt_forms[form].name);
        cr_expect_eq(r->sub, expected[k].sub, "%s sub-unit %u", tt_forms[form].name, r->sub);
        cr_expect_eq(r->latency, expected[k].latency, "%s latency %u", tt_forms[form].name, r->latency);
    }
    cr_expect_eq(n, 50, "SFPU forms: %u", n); /* 42 Blackhole and 38 Wormhole opcodes in 50 forms */
}

static bool has_field(unsigned form, const char *name)
{
    for (unsigned i = 0; i < tt_forms[form].nfields; i++)
        if (!strcmp(tt_forms[form].field[i].name, name))
            return true;
    return false;
}

/* The TT_SFPU operand letters restate which operand fields the form's encoding has (A: VA,
 * B: VB, C: VC, D: VD; DD reads VD as VC and has no VC field); units/sfpu_macro.c rewrites the
 * fields they name, so a letter that disagrees with the form's TT_FIELD rows is a defect. */
Test(sfpu_timing, operand_letters_match_the_encoded_fields)
{
    for (unsigned form = 0; form < TT_FORM_COUNT; form++) {
        if (tt_forms[form].unit != TT_UNIT_SFPU)
            continue;
        const unsigned ops = sfpu_form_timing(form)->ops;
        const char *nm = tt_forms[form].name;
        const bool a = ops == SFPU_OPS_ABCD, b = a || ops == SFPU_OPS_BCD;
        const bool c = b || ops == SFPU_OPS_C || ops == SFPU_OPS_CD || ops == SFPU_OPS_CDD;
        const bool d = c && ops != SFPU_OPS_C;
        cr_expect_eq(has_field(form, "VA"), a, "%s VA", nm);
        if (form != TT_FORM_SFPSHFT2) /* SFPSHFT2's VB is Imm12's low bits (SFPSHFT2.md) */
            cr_expect_eq(has_field(form, "VB"), b, "%s VB", nm);
        if (c)
            cr_expect(has_field(form, "VC"), "%s VC", nm);
        if (ops == SFPU_OPS_DD)
            cr_expect(!has_field(form, "VC") && has_field(form, "VD"), "%s VC = VD", nm);
        if (d)
            cr_expect(has_field(form, "VD"), "%s VD", nm);
    }
}

/* Modes that change the latency: SFPCONFIG of LReg[11..14] takes 1 (VectorUnit.md); SFPSHFT2's
 * lane rotations and shifts (Mod1 2, 3, 4) take 2, its others 1. */
Test(sfpu_timing, latency_by_mode)
{
    cr_expect_eq(sfpu_latency(TT_FORM_SFPCONFIG, TT_OP_SFPCONFIG(0, 11, 0)), 1);
    cr_expect_eq(sfpu_latency(TT_FORM_SFPCONFIG, TT_OP_SFPCONFIG(0, 14, 1)), 1);
    cr_expect_eq(sfpu_latency(TT_FORM_SFPCONFIG, TT_OP_SFPCONFIG(0, 15, 1)), 2);
    cr_expect_eq(sfpu_latency(TT_FORM_SFPCONFIG, TT_OP_SFPCONFIG(0, 4, 0)), 2);
    for (unsigned m = 0; m < 7; m++)
        cr_expect_eq(sfpu_latency(TT_FORM_SFPSHFT2, TT_OP_SFPSHFT2(0, 1, 2, m)), m >= 2 && m <= 4 ? 2 : 1,
                     "Mod1 %u", m);
}

/* ---- Blackhole's MAD-class interlock ---- */

/* A reader of the result in the next cycle is held one cycle (BH:SFPMAD.md), counted as a
 * "hazard" hold of the vector unit; the value it reads is the MAD's. */
Test(sfpu_timing, mad_result_holds_the_reader_one_cycle)
{
    operands();
    RUN(MAD(1, 2, 9, 3, 0), MOV(3, 4));
    cr_expect_eq(at(MOV(3, 4), 0), at(MAD(1, 2, 9, 3, 0), 0) + 2);
    cr_expect_eq(held(0, GS_HAZARD), 1);
    cr_expect_eq(held_sfpu(0, GS_HAZARD), 1);
    cr_expect_eq(t->sfpu.lreg[4][17], F6);
    /* an unrelated reader goes at once; after an SFPNOP the reader is not held either */
    tile_reset(t);
    issues.n = 0;
    operands();
    RUN(MAD(1, 2, 9, 3, 0), MOV(5, 4), TT_OP_SFPNOP, MAD(1, 2, 9, 5, 0), TT_OP_SFPNOP, MOV(5, 6));
    const uint64_t c = at(MAD(1, 2, 9, 3, 0), 0);
    cr_expect_eq(at(MOV(5, 4), 0), c + 1);
    cr_expect_eq(at(MOV(5, 6), 0), c + 5);
    cr_expect_eq(held(0, GS_HAZARD), 0);
    cr_expect_eq(t->sfpu.lreg[6][0], F6);
}

/* A dependent chain runs at two cycles per instruction (blackhole-py test_dst_bandwidth:
 * "dependent MAD 2 cycles/instruction"). */
Test(sfpu_timing, dependent_mad_chain_two_cycles_each)
{
    operands();
    const uint32_t acc = MAD(1, 2, 3, 3, 0); /* LReg[3] += 6 */
    RUN(acc, acc, acc, acc, acc, acc, acc, acc);
    const uint64_t c = at(acc, 0);
    for (unsigned k = 1; k < 8; k++)
        cr_expect_eq(at(acc, k), c + 2 * k);
    cr_expect_eq(t->sfpu.lreg[3][0], 0x42400000u); /* 48.0 */
    cr_expect_eq(held(0, GS_HAZARD), 7);
    cr_expect_eq(t->sfpu.busy_until, c + 14 + 2);
}

/* The interlock holds any thread's reader: T1's SFPMOV loses the arbitration to T0's SFPMAD, then
 * waits out the interlock. */
Test(sfpu_timing, mad_interlock_holds_other_threads)
{
    operands();
    const uint32_t t1[] = {MOV(3, 4)};
    tensix_kernel(t, 1, t1, 1);
    RUN(MAD(1, 2, 9, 3, 0));
    cr_expect_eq(issue_log_cycle(&issues, 1, MOV(3, 4), 0), at(MAD(1, 2, 9, 3, 0), 0) + 2);
    cr_expect_eq(held(1, GS_ARBITRATION), 1);
    cr_expect_eq(held(1, GS_HAZARD), 1);
    cr_expect_eq(t->sfpu.lreg[4][0], F6);
}

/* INDIRECT_VA makes the interlock assume the reader reads every LReg; INDIRECT_VD makes it
 * assume the MAD wrote every LReg (BH:SFPMAD.md). */
Test(sfpu_timing, indirect_modes_widen_the_interlock)
{
    operands();
    RUN(MAD(1, 2, 9, 3, 0), MAD(1, 5, 6, 7, 4)); /* reads LReg[LReg[7]] = LReg[0], 5, 6 */
    cr_expect_eq(held(0, GS_HAZARD), 1);
    tile_reset(t);
    operands();
    RUN(MAD(1, 2, 9, 3, 8), MOV(5, 4)); /* writes LReg[LReg[7] & 15] = LReg[0] */
    cr_expect_eq(held(0, GS_HAZARD), 1);
    cr_expect_eq(t->sfpu.lreg[0][0], F6);
}

/* The documented holes: the interlock misses these reads, so the reader runs the next cycle and
 * breaks the software rule: the run stops, naming both instructions. */
static const uint32_t holes[][2] = {
    {MAD(1, 2, 9, 3, 0), TT_OP_SFPIADD(0, 5, 3, 4)},    /* SFPIADD's read of VD */
    {MAD(1, 2, 9, 3, 0), TT_OP_SFPSHFT(0, 5, 3, 0)},    /* SFPSHFT's read of VD */
    {MAD(1, 2, 9, 3, 0), TT_OP_SFPAND_BH(3, 5, 4, 1)},  /* SFPAND USE_VB: VB unseen */
    {MAD(1, 2, 9, 3, 0), TT_OP_SFPOR_BH(3, 5, 4, 1)},   /* SFPOR USE_VB */
    {MAD(1, 2, 9, 0, 0), TT_OP_SFPCONFIG(0, 11, 0)},    /* SFPCONFIG's LReg[0] */
};
Test(sfpu_timing, interlock_holes_break_the_software_rule)
{
    for (unsigned i = 0; i < N(holes); i++) {
        operands();
        RUN_FAILS(ERR_UNDEF_BEHAVIOUR, holes[i][0], holes[i][1]);
        char want[160];
        snprintf(want, sizeof want, "reads 0x%x of them the next cycle: Blackhole's interlock misses this read",
                 i == 4 ? 1 : 8);
        cr_expect(strstr(t->err.text, "SFPMAD (thread T0, cycle ") && strstr(t->err.text, want) &&
                      strstr(t->err.text, tt_decode(TT_ARCH_BH, holes[i][1])->mnemonic),
                  "case %u: %s", i, t->err.text);
        cr_expect_eq(held(0, GS_HAZARD), 0, "case %u: not held", i);
        tile_reset(t);
    }
}

/* With --unpredictable=warn the reader goes on with the new value, once warned, every time
 * counted. */
Test(sfpu_timing, interlock_hole_with_warn_reads_the_new_value)
{
    operands();
    fill(5, 1);
    t->unpredictable_warn = true;
    char buf[1024];
    const uint32_t iadd = TT_OP_SFPIADD(0, 5, 3, 4); /* LReg[3] = LReg[5] + LReg[3] */
    WARNINGS(buf, RUN(MAD(1, 2, 9, 3, 0), iadd, MAD(1, 2, 9, 3, 0), iadd));
    cr_expect_eq(at(iadd, 0), at(MAD(1, 2, 9, 3, 0), 0) + 1);
    cr_expect_eq(t->sfpu.lreg[3][9], F6 + 1);
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_MAD_RESULT], 2);
    cr_expect(strstr(buf, "tensim: warning: SFPMAD (thread T0, cycle ") &&
                  strstr(buf, "--unpredictable=warn: tensim goes on with the new value (counted as "
                              "\"mad_result\" in the stats; later ones are not reported)"),
              "%s", buf);
    cr_expect_eq(strstr(strstr(buf, "warning") + 1, "warning"), NULL, "one warning: %s", buf);
}

/* Latency 2 holds STALLWAIT's "SFPU busy" (C11) for two cycles. */
Test(sfpu_timing, mad_latency_and_stallwait)
{
    operands();
    const uint32_t wait = TT_OP_STALLWAIT_BH(1u << 7, 1u << 11);
    RUN(MAD(1, 2, 9, 3, 0), wait, TT_OP_SETC16(0, 0));
    cr_expect_eq(at(TT_OP_SETC16(0, 0), 0), at(MAD(1, 2, 9, 3, 0), 0) + 3);
}

/* ---- Wormhole's software rule ---- */

/* No interlock: the reader goes the next cycle, which the page forbids: the run stops. */
Test(sfpu_timing_wh, mad_result_read_next_cycle_is_undefined)
{
    operands();
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, MAD(1, 2, 9, 3, 0), MOV(3, 4));
    cr_expect(strstr(t->err.text, "SFPMAD (thread T0, cycle ") &&
                  strstr(t->err.text, "SFPMOV (thread T0, cycle ") &&
                  strstr(t->err.text, "reads 0x8 of them the next cycle: Wormhole leaves the gap to "
                                      "software (WH:SFPMAD.md)"),
              "%s", t->err.text);
    /* one SFPNOP between: two cycles per dependent step, as software writes it */
    tile_reset(t);
    issues.n = 0;
    operands();
    const uint32_t acc = MAD(1, 2, 3, 3, 0);
    RUN(acc, TT_OP_SFPNOP, acc, TT_OP_SFPNOP, acc, MOV(5, 6), MOV(3, 4));
    cr_expect_eq(at(acc, 2), at(acc, 0) + 4);
    cr_expect_eq(t->sfpu.lreg[4][0], 0x41900000u); /* 18.0 */
    cr_expect_eq(held(0, GS_HAZARD), 0);
}

Test(sfpu_timing_wh, warn_goes_on_with_the_new_value)
{
    operands();
    t->unpredictable_warn = true;
    char buf[1024];
    WARNINGS(buf, RUN(MAD(1, 2, 9, 3, 0), MOV(3, 4)));
    cr_expect_eq(at(MOV(3, 4), 0), at(MAD(1, 2, 9, 3, 0), 0) + 1);
    cr_expect_eq(t->sfpu.lreg[4][0], F6);
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_MAD_RESULT], 1);
    cr_expect(strstr(buf, "Wormhole leaves the gap to software"), "%s", buf);
}

/* ---- SFPCONFIG and DISABLE_BACKDOOR_LOAD ---- */

/* The instruction right after a change of DISABLE_BACKDOOR_LOAD may see either value
 * (SFPCONFIG.md): a VD >= 12 there is warned about and sees the new one (here: the backdoor off,
 * so no template is written); with SFPNOP between, nothing to warn about. */
static void backdoor_change(void)
{
    char buf[1024];
    const uint32_t iadd = TT_OP_SFPIADD(1, 0, 13, 5);
    WARNINGS(buf, RUN(TT_OP_SFPCONFIG(2, 15, 1), iadd));
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_BACKDOOR], 1);
    cr_expect_eq(t->sfpu.macro[0].instruction_template[1], 0);
    cr_expect(strstr(buf, "SFPIADD with VD 13 right after an SFPCONFIG changed "
                          "LaneConfig.DISABLE_BACKDOOR_LOAD may see either value"), "%s", buf);
    tile_reset(t);
    RUN(TT_OP_SFPCONFIG(2, 15, 1), TT_OP_SFPNOP, iadd, TT_OP_SFPCONFIG(2, 15, 1), iadd);
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_BACKDOOR], 0, "no change the second time");
}
Test(sfpu_timing, backdoor_change) { backdoor_change(); }
Test(sfpu_timing_wh, backdoor_change) { backdoor_change(); }

/* ---- statistics ---- */

Test(sfpu_timing, stats_json_only_when_the_unit_worked)
{
    char buf[1024] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    unit_rows[UNIT_SFPU].desc->stats_json(t, f);
    fclose(f);
    cr_expect_str_eq(buf, "");
    operands();
    RUN(MAD(1, 2, 9, 3, 0), MOV(3, 4));
    f = fmemopen(buf, sizeof buf, "w");
    unit_rows[UNIT_SFPU].desc->stats_json(t, f);
    fclose(f);
    cr_expect_str_eq(buf, ", \"busy_cycles\": 3, \"loadmacros\": 0, \"macro_ops\": {\"simple\": 0, \"mad\": 0, "
                          "\"round\": 0, \"store\": 0}, \"macro_ops_max_per_cycle\": 0, "
                          "\"macro_ops_pending\": 0, \"hazards\": {\"mad_result\": 0, \"shuffle_next\": 0, "
                          "\"macro_swap\": 0, \"simple_round_vd\": 0, \"discarded\": 0, \"backdoor_change\": 0}");
}

/* ---- SFPSWAP and SFPSHFT2's lane shuffles ---- */

#define SWAP(vc, vd, m) TT_OP_SFPSWAP(vc, vd, m)
#define SHFT2(imm12, vc, vd, m) TT_OP_SFPSHFT2(imm12, vc, vd, m)

/* SFPSWAP.md (both): the next cycle accepts only SFPNOP; another instruction is held a cycle
 * ("unit busy", the vector unit), so SFPSWAP + SFPNOP take two cycles and SFPSWAP + X three. */
static void swap_next_cycle_only_nop(void)
{
    fill(1, F2);
    fill(2, F3);
    RUN(SWAP(1, 2, 0), MOV(5, 6));
    const uint64_t c = at(SWAP(1, 2, 0), 0);
    cr_expect_eq(at(MOV(5, 6), 0), c + 2);
    cr_expect_eq(held(0, GS_UNIT_BUSY), 1);
    cr_expect_eq(held_sfpu(0, GS_UNIT_BUSY), 1);
    cr_expect_eq(t->sfpu.lreg[1][0], F3);
    cr_expect_eq(t->sfpu.lreg[2][0], F2);
    tile_reset(t);
    issues.n = 0;
    RUN(SWAP(1, 2, 0), TT_OP_SFPNOP, MOV(5, 6));
    cr_expect_eq(at(TT_OP_SFPNOP, 0), at(SWAP(1, 2, 0), 0) + 1);
    cr_expect_eq(at(MOV(5, 6), 0), at(SWAP(1, 2, 0), 0) + 2);
    cr_expect_eq(held(0, GS_UNIT_BUSY), 0);
    /* latency 2 */
    cr_expect_eq(t->sfpu.busy_until, at(SWAP(1, 2, 0), 0) + 3);
}
Test(sfpu_timing, swap_next_cycle_only_nop) { swap_next_cycle_only_nop(); }
Test(sfpu_timing_wh, swap_next_cycle_only_nop) { swap_next_cycle_only_nop(); }

/* Blackhole: SFPSWAP's swap mode is seen by the MAD interlock; its compare modes read in their
 * first cycle unseen (a hole: the run stops). */
Test(sfpu_timing, swap_after_mad)
{
    operands();
    RUN(MAD(1, 2, 9, 3, 0), SWAP(3, 4, 0));
    cr_expect_eq(held(0, GS_HAZARD), 1);
    cr_expect_eq(t->sfpu.lreg[4][0], F6);
    tile_reset(t);
    operands();
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, MAD(1, 2, 9, 3, 0), SWAP(3, 4, 1));
    cr_expect(strstr(t->err.text, "SFPSWAP (thread T0") && strstr(t->err.text, "misses this read"), "%s",
              t->err.text);
}

/* Blackhole: after a lane shuffle (SFPSHFT2 Mod1 2, 3, 4) only SFPNOP is accepted the next cycle;
 * the other modes hold nothing. Latency 2 for the shuffles. */
Test(sfpu_timing, shft2_shuffle_next_cycle_only_nop)
{
    for (unsigned m = 0; m < 7; m++) {
        issues.n = 0;
        const uint32_t s2 = SHFT2(m == 6 ? 1 : 0, 5, 6, m);
        RUN(s2, MOV(7, 7));
        const bool shuffle = m >= 2 && m <= 4;
        cr_expect_eq(at(MOV(7, 7), 0), at(s2, 0) + (shuffle ? 2 : 1), "Mod1 %u", m);
        cr_expect_eq(held(0, GS_UNIT_BUSY), shuffle, "Mod1 %u", m);
        tile_reset(t);
    }
    RUN(SHFT2(0, 5, 6, 3), TT_OP_SFPNOP, MOV(7, 7));
    cr_expect_eq(held(0, GS_UNIT_BUSY), 0);
}

/* Blackhole's SFPSHFT2 holes: the interlock thinks SHFT_LREG / SHFT_IMM read VD instead of VB
 * (a read of VB is missed; a VD it does not read holds it anyway), and misses the shuffles'
 * reads. */
Test(sfpu_timing, shft2_and_the_mad_interlock)
{
    operands();
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, MAD(1, 2, 9, 3, 0), SHFT2(3, 5, 6, 5)); /* VB 3 unseen */
    tile_reset(t);
    operands();
    RUN(MAD(1, 2, 9, 3, 0), SHFT2(5, 4, 3, 5)); /* VD 3 seen, though only written */
    cr_expect_eq(held(0, GS_HAZARD), 1);
    tile_reset(t);
    operands();
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, MAD(1, 2, 9, 3, 0), SHFT2(0, 3, 6, 3)); /* a shuffle of VC 3 */
}

/* Wormhole's rules after a lane shuffle (WH:SFPSHFT2.md): no hold; the next cycle must not read
 * LReg[0..3] or write LReg[1..3] (Mod1 2), read the shuffle's VD (Mod1 3, 4), or be one of the
 * listed instructions. Others may go; SFPNOP satisfies all. */
Test(sfpu_timing_wh, shft2_shuffle_software_rules)
{
    static const struct { uint32_t shuffle, next; bool ok; const char *why; } cases[] = {
        {SHFT2(0, 5, 6, 2), MOV(2, 7), false, "reads LReg[0..3]"},
        {SHFT2(0, 5, 6, 2), TT_OP_SFPLOADI(1, 2, 7), false, "writes LReg[1..3]"},
        {SHFT2(0, 5, 6, 2), TT_OP_SFPLOADI(0, 2, 7), true, NULL}, /* LReg[0]: allowed */
        {SHFT2(0, 5, 6, 3), MAD(6, 1, 9, 7, 0), false, "reads its VD"},
        {SHFT2(0, 5, 6, 4), TT_OP_SFPIADD(1, 7, 7, 5), false, "is on the page's list"},
        {SHFT2(0, 5, 6, 3), MAD(5, 1, 9, 7, 0), true, NULL},
        {SHFT2(0, 5, 6, 3), SHFT2(0, 7, 7, 3), true, NULL}, /* another shuffle is not listed */
        {SHFT2(0, 5, 6, 3), SHFT2(7, 4, 7, 5), false, "is on the page's list"},
        {SHFT2(0, 5, 6, 5), MOV(6, 7), true, NULL}, /* not a shuffle */
    };
    for (unsigned i = 0; i < N(cases); i++) {
        operands();
        const uint32_t w[] = {cases[i].shuffle, cases[i].next};
        const enum err_kind k = run_tensix(t, w, 2, 100000);
        cr_expect_eq(k, cases[i].ok ? ERR_NONE : ERR_UNDEF_BEHAVIOUR, "case %u: %s", i, t->err.text);
        if (!cases[i].ok)
            cr_expect(strstr(t->err.text, cases[i].why) && strstr(t->err.text, "(WH:SFPSHFT2.md)"),
                      "case %u: %s", i, t->err.text);
        tile_reset(t);
        const uint32_t w2[] = {cases[i].shuffle, TT_OP_SFPNOP, cases[i].next};
        cr_expect_eq(run_tensix(t, w2, 3, 100000), ERR_NONE, "case %u with SFPNOP: %s", i, t->err.text);
        tile_reset(t);
    }
}

/* STALLWAIT with block bit B8 (SFPU instructions) on "SFPU busy" (C11 BH, C14 WH): the SFPMOV
 * after it waits for the SFPMAD's two cycles, then the release cycle. */
static void stallwait_b8_on_sfpu_busy(void)
{
    operands();
    const uint32_t wait = wh ? TT_OP_STALLWAIT_WH(1u << 8, 1u << 14) : TT_OP_STALLWAIT_BH(1u << 8, 1u << 11);
    RUN(MAD(1, 2, 9, 3, 0), wait, MOV(3, 4));
    const uint64_t c = at(MAD(1, 2, 9, 3, 0), 0);
    cr_expect_eq(at(wait, 0), c + 1);
    cr_expect_eq(at(MOV(3, 4), 0), c + 3);
    cr_expect_eq(held(0, GS_WAIT_RELEASE), 1);
    cr_expect_eq(held(0, GS_HAZARD), 0);
    cr_expect_eq(t->sfpu.lreg[4][0], F6);
}
Test(sfpu_timing, stallwait_b8_on_sfpu_busy) { stallwait_b8_on_sfpu_busy(); }
Test(sfpu_timing_wh, stallwait_b8_on_sfpu_busy) { stallwait_b8_on_sfpu_busy(); }
