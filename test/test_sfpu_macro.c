/* SFPLOADMACRO (units/sfpu_macro.c) on Blackhole (suite sfpu_macro) and Wormhole B0
 * (sfpu_macro_wh): the load part, the Sequence bytes (selector, delay and its cancel rule,
 * LReg[16], the VB/VC choice, the store's keep-VD bit), Misc (StoreMod0, UsesLoadMod0ForStore,
 * UnitDelayKind), the scheduled SFPSTORE's address, conflicts with regular instructions, the
 * undefined configurations, and the cycles. Expected values are worked out here from
 * SFPLOADMACRO.md and the templates' pages. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../units/cfg.h"
#include "../units/dest.h"
#include "../units/registry.h"
#include "../units/sfpu.h"
#include "harness.h"
#include "sfpu_test.h"
#include "tensix_ops.h"

TestSuite(sfpu_macro, .init = setup_bh, .fini = teardown);
TestSuite(sfpu_macro_wh, .init = setup_wh, .fini = teardown);

/* Mod0 (SFPLOAD.md) */
enum { FP32 = 3, INT32 = 4 };
/* A Sequence byte (SFPLOADMACRO.md): selector [2:0], delay [5:3], LReg[16] [6], VB / keep VD [7] */
#define SEQ(sel, delay, flags) ((uint32_t)((sel) | (delay) << 3 | (flags)))
enum { NONE = 0, UB = 1, NOP = 2, STORE = 3, TMPL0 = 4, TMPL1 = 5, TMPL2 = 6, TMPL3 = 7 };
enum { VD16 = 0x40, USE_VB = 0x80, KEEP_VD = 0x80 };
/* the bytes of a Sequence: simple, MAD, round, store */
#define SEQUENCE(simple, mad, round, store) ((simple) | (mad) << 8 | (round) << 16 | (uint32_t)(store) << 24)
/* Misc: StoreMod0 [3:0], UsesLoadMod0ForStore [7:4], UnitDelayKind [11:8] (simple, MAD, round, store) */
#define MISC(store_mod0, load_mod0_bits, kind_bits) ((store_mod0) | (load_mod0_bits) << 4 | (kind_bits) << 8)

/* SFPLOADMACRO: VD is VDHi:VDLo, and Imm10 = Imm9 << 1 | VDHi, so an address's bit 0 is VD's bit
 * 2 (SFPLOADMACRO.md functional model). */
static uint32_t lm(unsigned macro, unsigned vd, unsigned mod0, unsigned am, unsigned imm10)
{
    cr_assert_eq(imm10 & 1, vd >> 2, "address bit 0 is VD bit 2");
    return wh ? TT_OP_SFPLOADMACRO_WH(macro, vd & 3, mod0, am, imm10 >> 1, vd >> 2)
              : TT_OP_SFPLOADMACRO_BH(macro, vd & 3, mod0, am, imm10 >> 1, vd >> 2);
}
static uint32_t ld(unsigned vd, unsigned mod0, unsigned am, unsigned imm)
{
    return wh ? TT_OP_SFPLOAD_WH(vd, mod0, am, imm) : TT_OP_SFPLOAD_BH(vd, mod0, am, imm);
}
static uint32_t st(unsigned vd, unsigned mod0, unsigned am, unsigned imm)
{
    return wh ? TT_OP_SFPSTORE_WH(vd, mod0, am, imm) : TT_OP_SFPSTORE_BH(vd, mod0, am, imm);
}
/* LReg[vd] += 1 (SFPIADD ARG_IMM | CC_NONE: flags untouched) */
#define INC(vd) TT_OP_SFPIADD(1, vd, vd, 5)
#define MOV_(vc, vd) TT_OP_SFPMOV(vc, vd, 0)
static uint64_t at_cycle(uint32_t w, unsigned nth) { return issue_log_cycle(&issues, 0, w, nth); }

/* FP32 and INT32 Dst cells hold the BF16 shuffle (Sign, Man7, Exp8) on their high half
 * (WH:Dst.md); written out here. */
static uint32_t cell32(uint32_t v)
{
    const uint32_t hi = v >> 16;
    return ((hi & 0x8000) | (hi & 0x7F) << 8 | (hi >> 7 & 0xFF)) << 16 | (v & 0xFFFF);
}
static uint32_t uncell32(uint32_t c)
{
    const uint32_t hi = c >> 16;
    return ((hi & 0x8000) | (hi & 0xFF) << 7 | (hi >> 8 & 0x7F)) << 16 | (c & 0xFFFF);
}
/* Lane L of an access at Addr: Dst row (Addr & ~3) + L / 8, column 2 (L & 7) + (Addr bit 1). */
static unsigned row_of(unsigned addr, unsigned l) { return (addr & ~3u) + l / 8; }
static unsigned col_of(unsigned addr, unsigned l) { return 2 * (l & 7) + (addr >> 1 & 1); }
/* Dst rows 0..63 valid, holding a value per cell that names it: 0x10000 * k + row * 16 + col */
static uint32_t dval(unsigned r, unsigned c) { return 0x5A000000u | r << 8 | c; }
static void fill_dst(void)
{
    memset(t->dest.row_valid, 1, sizeof t->dest.row_valid);
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write32(t, r, c, cell32(dval(r, c)));
}
static uint32_t dget(unsigned addr, unsigned l) { return uncell32(dest_read32(t, row_of(addr, l), col_of(addr, l))); }

/* LoadMacroConfig of every lane */
static void config(unsigned macro, uint32_t seq, uint32_t misc)
{
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.macro[l].sequence[macro] = seq;
        t->sfpu.macro[l].misc = misc;
    }
}
static void tmpl(unsigned i, uint32_t w)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.macro[l].instruction_template[i] = w;
}
/* LReg[r] lane l := base + l */
static void ramp(unsigned r, uint32_t base)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[r][l] = base + l;
}

/* ---- the load part ---- */

/* It is SFPLOAD with VD = VDHi:VDLo and Imm10 = Imm9 << 1 | VDHi; Sequence 0 schedules nothing. */
static void load_part(void)
{
    fill_dst();
    config(2, 0, 0);
    RUN(lm(2, 5, INT32, 0, 7), lm(2, 2, INT32, 0, 8));
    for (unsigned l = 0; l < 32; l++) {
        /* Imm10 7: rows 4-7, odd columns (bit 1); bit 0 (VDHi) unused by the address */
        cr_expect_eq(t->sfpu.lreg[5][l], dval(4 + l / 8, 2 * (l & 7) + 1), "VD 5 lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], dval(8 + l / 8, 2 * (l & 7)), "VD 2 lane %u", l);
    }
    cr_expect_eq(t->sfpu.tm.st.loadmacros, 2);
    cr_expect_eq(t->sfpu.tm.nlive, 0);
}
Test(sfpu_macro, load_part_is_sfpload) { load_part(); }
Test(sfpu_macro_wh, load_part_is_sfpload) { load_part(); }

/* ---- the scheduled SFPSTORE ---- */

/* Delay d (cycles): the store runs in cycle LM + 1 + d, before a regular instruction of that
 * cycle. One SFPIADD per cycle after the SFPLOADMACRO adds 1 to L0: the store sees d of them. */
static void store_delay_in_cycles(void)
{
    for (unsigned d = 0; d < 8; d++) {
        fill_dst();
        config(1, SEQUENCE(0, 0, 0, SEQ(STORE, d, 0)), MISC(INT32, 0, 0));
        issues.n = 0;
        RUN(lm(1, 0, INT32, 0, 8), INC(0), INC(0), INC(0), INC(0), INC(0), INC(0), INC(0), INC(0), INC(0));
        const uint64_t c = issue_log_cycle(&issues, 0, lm(1, 0, INT32, 0, 8), 0);
        for (unsigned k = 0; k < 9; k++) /* back to back */
            cr_assert_eq(issue_log_cycle(&issues, 0, INC(0), k), c + 1 + k);
        for (unsigned l = 0; l < 32; l++) {
            cr_expect_eq(dget(8, l), dval(row_of(8, l), col_of(8, l)) + d, "delay %u lane %u", d, l);
            cr_expect_eq(t->sfpu.lreg[0][l], dval(row_of(8, l), col_of(8, l)) + 9);
        }
        tile_reset(t);
    }
}
Test(sfpu_macro, store_delay_in_cycles) { store_delay_in_cycles(); }
Test(sfpu_macro_wh, store_delay_in_cycles) { store_delay_in_cycles(); }

/* UnitDelayKind 1: the counter moves only when a thread issues an SFPU instruction. Three
 * Tensix NOPs (not SFPU) pass, then three SFPIADDs: delay 2 stores after the second. */
static void store_delay_in_instructions(void)
{
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 2, 0)), MISC(INT32, 0, 8));
    RUN(lm(0, 3, INT32, 0, 4), TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, INC(3), INC(3), INC(3));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dget(4, l), dval(row_of(4, l), col_of(4, l)) + 2, "lane %u", l);
    /* by cycles the same delay stores before any increment */
    tile_reset(t);
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 2, 0)), MISC(INT32, 0, 0));
    RUN(lm(0, 3, INT32, 0, 4), TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, INC(3), INC(3), INC(3));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dget(4, l), dval(row_of(4, l), col_of(4, l)), "lane %u", l);
}
Test(sfpu_macro, store_delay_in_instructions) { store_delay_in_instructions(); }
Test(sfpu_macro_wh, store_delay_in_instructions) { store_delay_in_instructions(); }

/* The store goes to the SFPLOADMACRO's address whatever the RWCs did since, and moves no RWC;
 * the load part applied its AddrMod (slot 1: Dst + 2). */
static void store_keeps_the_load_address(void)
{
    fill_dst();
    thcfg_set(&t->cfg, 0, THCFG_DESC(wh ? TT_ARCH_WH : TT_ARCH_BH, ADDR_MOD_DST_SEC1_DestIncr), 2);
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 2, 0)), MISC(INT32, 0, 0));
    RUN(lm(0, 1, INT32, 1, 16), ld(2, INT32, 1, 0), INC(1));
    /* RWC.Dst: 0 at the SFPLOADMACRO, 2 at the SFPLOAD (rows 0-3, odd), 4 after */
    cr_expect_eq(t->fpu.rwc[0].dst, 4);
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[2][l], dval(row_of(2, l), col_of(2, l)));
        cr_expect_eq(dget(16, l), dval(row_of(16, l), col_of(16, l)) + 1, "lane %u", l);
        cr_expect_eq(dget(20, l), dval(row_of(20, l), col_of(20, l)), "lane %u: a regular store's place", l);
    }
}
Test(sfpu_macro, store_keeps_the_load_address) { store_keeps_the_load_address(); }
Test(sfpu_macro_wh, store_keeps_the_load_address) { store_keeps_the_load_address(); }

/* Store Mod0: Misc.StoreMod0, or the load's Mod0 when UsesLoadMod0ForStore has the macro's bit;
 * the keep-VD bit stores the template's VD (selector 3: LReg[0]); bit 6 LReg[16]. */
static void store_mod0_and_register(void)
{
    fill_dst();
    ramp(0, 0x11110000);
    ramp(6, 0x66660000);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[16][l] = 0x16160000 + l;
    tmpl(2, st(6, 0, 0, 0)); /* a store template naming LReg[6] */
    /* macro 3 loads FP32 and stores with StoreMod0 INT32 (the same bits either way), keeping VD:
     * selector 3 gives LReg[0] */
    config(3, SEQUENCE(0, 0, 0, SEQ(STORE, 0, KEEP_VD)), MISC(INT32, 0, 0));
    RUN(lm(3, 2, FP32, 0, 24));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dget(24, l), 0x11110000u + l, "selector 3 keeps VD 0, lane %u", l);
    config(3, SEQUENCE(0, 0, 0, SEQ(TMPL2, 0, KEEP_VD)), MISC(INT32, 0, 0));
    RUN(lm(3, 2, FP32, 0, 26));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dget(26, l), 0x66660000u + l, "template VD 6, lane %u", l);
    config(3, SEQUENCE(0, 0, 0, SEQ(TMPL2, 0, VD16)), MISC(INT32, 0, 0));
    RUN(lm(3, 2, FP32, 0, 28));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dget(28, l), 0x16160000u + l, "LReg[16], lane %u", l);
    /* DISABLE_BACKDOOR_LOAD is taken as true: a kept VD of 13 stores LReg[13] (-0.67487759)
     * rather than writing InstructionTemplate[1] */
    tmpl(1, st(13, 0, 0, 0));
    config(3, SEQUENCE(0, 0, 0, SEQ(TMPL1, 0, KEEP_VD)), MISC(INT32, 0, 0));
    RUN(lm(3, 2, FP32, 0, 30));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(dget(30, l), 0xBF2CC4C7u, "LReg[13], lane %u", l);
        cr_expect_eq(t->sfpu.macro[l].instruction_template[1], st(13, 0, 0, 0));
    }
    /* UsesLoadMod0ForStore bit 3: the load's Mod0 (INT32, from L2 as loaded), not StoreMod0 (a
     * 16-bit mode that would write the Dst16b view) */
    config(3, SEQUENCE(0, 0, 0, SEQ(STORE, 1, 0)), MISC(6 /* UINT16 */, 8, 0));
    RUN(lm(3, 2, INT32, 0, 32), INC(2));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dget(32, l), dval(row_of(32, l), col_of(32, l)) + 1, "load Mod0, lane %u", l);
}
Test(sfpu_macro, store_mod0_and_register) { store_mod0_and_register(); }
Test(sfpu_macro_wh, store_mod0_and_register) { store_mod0_and_register(); }

/* "Forget any pre-existing scheduled instruction which would execute at the same point in time":
 * macro 0 stores after 2, macro 1 one cycle later after 1: the first store is forgotten. Delay 7
 * forgets nothing. */
static void delay_replaces_the_one_due_then(void)
{
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 2, 0)), MISC(INT32, 0, 0));
    config(1, SEQUENCE(0, 0, 0, SEQ(STORE, 1, 0)), MISC(INT32, 0, 0));
    RUN(lm(0, 0, INT32, 0, 8), lm(1, 1, INT32, 0, 12), INC(0), INC(1), INC(0), INC(1));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(dget(8, l), dval(row_of(8, l), col_of(8, l)), "forgotten, lane %u", l);
        cr_expect_eq(dget(12, l), dval(row_of(12, l), col_of(12, l)) + 0, "lane %u", l);
    }
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_STORE], 1);
    /* delay 1 then delay 0 a cycle later: both due in the same cycle, the second wins */
    tile_reset(t);
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 1, 0)), MISC(INT32, 0, 0));
    config(1, SEQUENCE(0, 0, 0, SEQ(STORE, 0, 0)), MISC(INT32, 0, 0));
    RUN(lm(0, 0, INT32, 0, 8), lm(1, 1, INT32, 0, 12));
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_STORE], 1);
    cr_expect_eq(dget(12, 0), dval(12, 0));
    /* delay 7 after delay 7: six cycles apart in time, both run */
    tile_reset(t);
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 7, 0)), MISC(INT32, 0, 0));
    config(1, SEQUENCE(0, 0, 0, SEQ(STORE, 7, 0)), MISC(INT32, 0, 0));
    RUN(lm(0, 0, INT32, 0, 8), lm(1, 1, INT32, 0, 12));
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_STORE], 2);
}
Test(sfpu_macro, delay_replaces_the_one_due_then) { delay_replaces_the_one_due_then(); }
Test(sfpu_macro_wh, delay_replaces_the_one_due_then) { delay_replaces_the_one_due_then(); }

/* ---- templates and their operands ---- */

/* bit 7 clear: VC = the loaded register, VB = the template's VB, or its VD without one ("unsigned
 * VB = VD" models); VD = the loaded register (bit 6: LReg[16]). SFPIADD's VB is its VD: a
 * template with VD 13 adds LReg[13] (a constant) to the loaded value. */
static void operands_vc_loaded(void)
{
    fill_dst();
    ramp(2, 0x20000); /* the template's VC field, replaced: never read */
    tmpl(1, TT_OP_SFPIADD(0, 2, 13, 4)); /* LReg[VD] = LReg[VC] + LReg[VB], flags untouched */
    config(0, SEQUENCE(SEQ(TMPL1, 0, 0), 0, 0, 0), 0);
    RUN(lm(0, 1, INT32, 0, 8));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t v = dval(row_of(8, l), col_of(8, l));
        cr_expect_eq(t->sfpu.lreg[1][l], v + 0xBF2CC4C7u, "lane %u", l); /* LReg[13]: -0.67487759 */
        cr_expect_eq(t->sfpu.lreg[2][l], 0x20000u + l);
        cr_expect_eq(t->sfpu.lreg[13][l], 0xBF2CC4C7u);
    }
    /* with bit 6 the sum goes to LReg[16], the loaded register keeps the load */
    config(0, SEQUENCE(SEQ(TMPL1, 0, VD16), 0, 0, 0), 0);
    RUN(lm(0, 1, INT32, 0, 10));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t v = dval(row_of(10, l), col_of(10, l));
        cr_expect_eq(t->sfpu.lreg[16][l], v + 0xBF2CC4C7u, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[1][l], v, "lane %u", l);
    }
    /* a template whose VD is a writable register: VB = LReg[3], not the loaded one */
    ramp(3, 0x300);
    tmpl(1, TT_OP_SFPIADD(0, 2, 3, 6)); /* Mod1 2: LReg[VC] - LReg[VB] */
    config(0, SEQUENCE(SEQ(TMPL1, 0, 0), 0, 0, 0), 0);
    RUN(lm(0, 1, INT32, 0, 12));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t want = dval(row_of(12, l), col_of(12, l)) - (0x300u + l);
        cr_expect_eq(t->sfpu.lreg[1][l], want, "lane %u: 0x%08x want 0x%08x", l, t->sfpu.lreg[1][l], want);
        cr_expect_eq(t->sfpu.lreg[3][l], 0x300u + l, "lane %u: 0x%08x", l, t->sfpu.lreg[3][l]);
    }
}
Test(sfpu_macro, operands_vc_loaded) { operands_vc_loaded(); }
Test(sfpu_macro_wh, operands_vc_loaded) { operands_vc_loaded(); }

/* bit 7 set: VB = the loaded register, VC the template's (its VD without one). SFPSETSGN takes
 * the sign from VB and the rest from VC: the pattern tt-llk's exponential uses, writing
 * LReg[16] for a delayed store. */
static void operands_vb_loaded(void)
{
    fill_dst();
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[4][l] = (l & 1 ? 0x80000000u : 0) | (0x3F800000u + l); /* either sign */
    tmpl(3, TT_OP_SFPSETSGN(0, 4, 15, 0));
    config(0, SEQUENCE(SEQ(TMPL3, 0, USE_VB | VD16), 0, 0, SEQ(STORE, 1, VD16)), MISC(INT32, 0, 0));
    for (unsigned l = 0; l < 8; l++) /* signs in the Dst values: columns 2l and 2l+1 of row 17 */
        dest_write32(t, 17, 2 * l, cell32(l & 2 ? 0x80000001u : 1u));
    RUN(lm(0, 0, INT32, 0, 16));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t v = dval(row_of(16, l), col_of(16, l));
        const uint32_t loaded = l / 8 == 1 ? ((l & 7) & 2 ? 0x80000001u : 1u) : v;
        const uint32_t want = (loaded & 0x80000000u) | ((0x3F800000u + l) & 0x7FFFFFFFu);
        cr_expect_eq(t->sfpu.lreg[16][l], want, "lane %u: 0x%08x want 0x%08x", l, t->sfpu.lreg[16][l], want);
        cr_expect_eq(t->sfpu.lreg[0][l], loaded, "lane %u", l);
        cr_expect_eq(dget(16, l), want, "stored, lane %u", l);
    }
}
Test(sfpu_macro, operands_vb_loaded) { operands_vb_loaded(); }
Test(sfpu_macro_wh, operands_vb_loaded) { operands_vb_loaded(); }

/* Scheduled instructions run on enabled lanes as their pages say; the backdoor is off for them
 * (DISABLE_BACKDOOR_LOAD taken as true), so a template whose VD is 12..15 does not write a
 * template. */
static void templates_respect_lanes_and_skip_the_backdoor(void)
{
    fill_dst();
    ramp(1, 0);
    tmpl(0, TT_OP_SFPMOV(2, 12, 0)); /* LReg[VD] = LReg[VC]; VC replaced by the loaded register */
    config(0, SEQUENCE(SEQ(TMPL0, 0, VD16), 0, 0, 0), 0);
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[16][l] = 0xAAAA0000u + l;
        t->sfpu.use_lane_flags[l] = true;
        t->sfpu.lane_flags[l] = l % 3 == 0;
    }
    RUN(lm(0, 1, INT32, 0, 8));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t want = l % 3 == 0 ? dval(row_of(8, l), col_of(8, l)) : 0xAAAA0000u + l;
        cr_expect_eq(t->sfpu.lreg[16][l], want, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[1][l], l % 3 == 0 ? dval(row_of(8, l), col_of(8, l)) : (uint32_t)l,
                     "the load part, lane %u", l);
        cr_expect_eq(t->sfpu.macro[l].instruction_template[0], TT_OP_SFPMOV(2, 12, 0));
    }
}
Test(sfpu_macro, templates_respect_lanes_and_skip_the_backdoor) { templates_respect_lanes_and_skip_the_backdoor(); }
Test(sfpu_macro_wh, templates_respect_lanes_and_skip_the_backdoor) { templates_respect_lanes_and_skip_the_backdoor(); }

/* An instruction a sub-unit cannot execute becomes SFPNOP (SFPLOADMACRO.md "CanExecuteOpcode"):
 * SFPIADD given to the MAD sub-unit changes nothing. */
static void wrong_sub_unit_is_a_nop(void)
{
    fill_dst();
    ramp(5, 0x500);
    tmpl(0, TT_OP_SFPIADD(1, 5, 5, 5));
    config(0, SEQUENCE(0, SEQ(TMPL0, 0, 0), 0, 0), 0);
    RUN(lm(0, 5, INT32, 0, 9));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[5][l], dval(row_of(9, l), col_of(9, l)), "lane %u", l);
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_MAD], 1);
}
Test(sfpu_macro, wrong_sub_unit_is_a_nop) { wrong_sub_unit_is_a_nop(); }
Test(sfpu_macro_wh, wrong_sub_unit_is_a_nop) { wrong_sub_unit_is_a_nop(); }

/* SFPCONFIG and the backdoor program it as tt-llk does: a template from LReg[0] (VD 0..3) and
 * through VD 12..15, the Sequence from LReg[0], Misc from Imm16. */
static void programmed_through_sfpconfig(void)
{
    fill_dst();
    const uint32_t seq = SEQUENCE(SEQ(TMPL1, 0, 0), 0, 0, SEQ(STORE, 1, 0));
    RUN(TT_OP_SFPIADD(1, 0, 13, 5),                            /* backdoor: template 1 */
        TT_OP_SFPLOADI(0, 10, seq & 0xFFFF), TT_OP_SFPLOADI(0, 8, seq >> 16),
        TT_OP_SFPCONFIG(0, 4, 0),                              /* Sequence[0] := LReg[0] */
        TT_OP_SFPCONFIG(MISC(INT32, 0, 0), 8, 1),              /* Misc := Imm16 */
        lm(0, 2, INT32, 0, 8));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.macro[l].instruction_template[1], TT_OP_SFPIADD(1, 0, 13, 5));
        cr_expect_eq(t->sfpu.lreg[2][l], dval(row_of(8, l), col_of(8, l)) + 1, "lane %u", l);
        cr_expect_eq(dget(8, l), dval(row_of(8, l), col_of(8, l)) + 1, "lane %u", l);
    }
}
Test(sfpu_macro, programmed_through_sfpconfig) { programmed_through_sfpconfig(); }
Test(sfpu_macro_wh, programmed_through_sfpconfig) { programmed_through_sfpconfig(); }

/* ---- conflicts ---- */

/* A scheduled instruction and a regular one reach the simple sub-unit in the same cycle: the
 * regular one is discarded, with a warning, and counted. */
static void regular_instruction_loses_its_sub_unit(void)
{
    fill_dst();
    ramp(6, 0x600);
    tmpl(0, TT_OP_SFPIADD(1, 0, 0, 5));
    config(0, SEQUENCE(SEQ(TMPL0, 0, 0), 0, 0, 0), 0);
    FILE *err = tmpfile();
    t->errout = err;
    RUN(lm(0, 1, INT32, 0, 8), INC(6), INC(6));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[1][l], dval(row_of(8, l), col_of(8, l)) + 1, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[6][l], 0x601u + l, "one of two increments, lane %u", l);
    }
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_DISCARDED], 1);
    char buf[512] = "";
    rewind(err);
    fread(buf, 1, sizeof buf - 1, err);
    fclose(err);
    t->errout = stderr;
    cr_expect(strstr(buf, "SFPIADD is discarded: SFPIADD scheduled by SFPLOADMACRO takes the same sub-unit"),
              "%s", buf);
}
Test(sfpu_macro, regular_instruction_loses_its_sub_unit) { regular_instruction_loses_its_sub_unit(); }
Test(sfpu_macro_wh, regular_instruction_loses_its_sub_unit) { regular_instruction_loses_its_sub_unit(); }

/* ---- undefined and unmodelled configurations: the run stops, nothing changes ---- */

static void bad_configurations(void)
{
    fill_dst();
    ramp(1, 0x100);
    config(0, SEQUENCE(0, SEQ(UB, 0, 0), 0, 0), 0);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8));
    cr_expect(strstr(t->err.text, "Sequence[0] selects 1 (undefined) for the MAD sub-unit"), "%s", t->err.text);
    cr_expect_eq(t->sfpu.lreg[1][0], 0x100u, "the load did not run");
    tile_reset(t);
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(NOP, 0, 0)), 0);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8));
    cr_expect(strstr(t->err.text, "gives the store sub-unit no SFPSTORE"), "%s", t->err.text);
    tile_reset(t);
    fill_dst();
    tmpl(1, TT_OP_SFPIADD(1, 0, 0, 5)); /* not a store: SFPNOP, which the store cannot take */
    config(0, SEQUENCE(0, 0, 0, SEQ(TMPL1, 0, 0)), 0);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8));
    tile_reset(t);
    fill_dst();
    tmpl(2, 0xFF000000u); /* no instruction */
    config(0, SEQUENCE(SEQ(TMPL2, 0, 0), 0, 0, 0), 0);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8));
    cr_expect(strstr(t->err.text, "InstructionTemplate[2] (0xff000000, for the simple sub-unit) is not an instruction"),
              "%s", t->err.text);
    /* lanes that disagree */
    tile_reset(t);
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 0, 0)), 0);
    t->sfpu.macro[13].sequence[0] = 0;
    RUN_FAILS(ERR_UNIMPLEMENTED, lm(0, 1, INT32, 0, 8));
    cr_expect(strstr(t->err.text, "LoadMacroConfig of lane 13 is not lane 0's"), "%s", t->err.text);
}
Test(sfpu_macro, bad_configurations) { bad_configurations(); }
Test(sfpu_macro_wh, bad_configurations) { bad_configurations(); }

/* ---- cycles ---- */

/* Up to five per cycle: each SFPLOADMACRO loads and schedules an SFPIADD (simple), SFPNOPs for
 * MAD and round, and a store, all with delay 0: sixteen of them take sixteen cycles, plus one
 * for the last scheduled group. */
static void five_per_cycle(void)
{
    fill_dst();
    tmpl(0, TT_OP_SFPIADD(1, 0, 0, 5));
    config(0, SEQUENCE(SEQ(TMPL0, 0, 0), SEQ(NOP, 0, 0), SEQ(NOP, 0, 0), SEQ(STORE, 1, 0)),
           MISC(INT32, 0, 0));
    uint32_t w[16];
    for (unsigned i = 0; i < 16; i++)
        w[i] = lm(0, i & 3, INT32, 0, 2 * i);
    cr_assert_eq(run_tensix(t, w, 16, 100000), ERR_NONE, "%s", t->err.text);
    const uint64_t c0 = issue_log_cycle(&issues, 0, w[0], 0);
    for (unsigned i = 1; i < 16; i++)
        cr_expect_eq(issue_log_cycle(&issues, 0, w[i], 0), c0 + i);
    /* the last store runs at c0 + 15 + 2; it takes 1 cycle */
    cr_expect_eq(t->sfpu.busy_until, c0 + 18);
    cr_expect_eq(t->sfpu.tm.st.macro_max_per_cycle, 4);
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_SIMPLE], 16);
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_STORE], 16);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned l = 0; l < 32; l++)
            cr_expect_eq(dget(2 * i, l), dval(row_of(2 * i, l), col_of(2 * i, l)) + 1, "vector %u lane %u", i, l);
}
Test(sfpu_macro, five_per_cycle) { five_per_cycle(); }
Test(sfpu_macro_wh, five_per_cycle) { five_per_cycle(); }

/* STALLWAIT on "SFPU busy" waits for the thread's scheduled instructions counted in cycles, and
 * the run ends after them. */
static void stallwait_waits_for_scheduled_work(void)
{
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 6, 0)), MISC(INT32, 0, 0));
    const uint32_t wait = wh ? TT_OP_STALLWAIT_WH(1u << 7, 1u << 14) : TT_OP_STALLWAIT_BH(1u << 7, 1u << 11);
    const uint32_t w[] = {lm(0, 0, INT32, 0, 8), wait, TT_OP_SETC16(0, 0)};
    RUN(w[0], w[1], w[2]);
    const uint64_t c = issue_log_cycle(&issues, 0, w[0], 0);
    /* the store runs at c + 7 and is done at c + 8: the wait sees it clear at c + 8 and lets the
     * next instruction go at c + 9 */
    cr_expect_eq(issue_log_cycle(&issues, 0, w[2], 0), c + 9);
    cr_expect_eq(t->sfpu.busy_until, c + 8);
}
Test(sfpu_macro, stallwait_waits_for_scheduled_work) { stallwait_waits_for_scheduled_work(); }
Test(sfpu_macro_wh, stallwait_waits_for_scheduled_work) { stallwait_waits_for_scheduled_work(); }

/* An instruction waiting for SFPU instructions that never come does not hold the thread: the
 * run ends, the report names it, and it never ran. */
static void waiting_for_instructions_does_not_hold(void)
{
    fill_dst();
    config(0, SEQUENCE(0, 0, 0, SEQ(STORE, 3, 0)), MISC(INT32, 0, 8));
    RUN(lm(0, 0, INT32, 0, 8), INC(0));
    cr_expect_eq(t->sfpu.tm.nlive, 1);
    cr_expect_eq(dget(8, 5), dval(row_of(8, 5), col_of(8, 5)));
    char buf[1024] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    unit_rows[UNIT_SFPU].desc->report(t, f);
    fclose(f);
    cr_expect(strstr(buf, "vector unit: 2 instructions, busy 2 cycles; 1 SFPLOADMACRO scheduled 0 simple, "
                          "0 MAD, 0 round, 0 store (up to 0 in a cycle); 1 still scheduled (waiting "
                          "for SFPU instructions)"), "%s", buf);
}
Test(sfpu_macro, waiting_for_instructions_does_not_hold) { waiting_for_instructions_does_not_hold(); }
Test(sfpu_macro_wh, waiting_for_instructions_does_not_hold) { waiting_for_instructions_does_not_hold(); }

/* ---- with the MAD sub-unit ---- */

#define F2 0x40000000u /* 2.0 */
/* The MAD template of blackhole-py's probe (tests/compute/sfpu/test_loadmacro_pipeline.py):
 * SFPMUL LReg[6] (2.0) * VB + LReg[9] (0), VD 12 so that the backdoor makes it template 0; the
 * Sequence runs it at t + 1 with the loaded register as VB, and stores at t + 3. */
#define SCALE_MUL TT_OP_SFPMUL(6, 0, 9, 12, 0)
#define SCALE_SEQ SEQUENCE(0, SEQ(TMPL0, 0, USE_VB), 0, SEQ(STORE, 2, 0))

/* 256 vectors of FP32 (Dst rows 0..511): value i * 16 + c + 0.125, every third negative */
static uint32_t probe_val(unsigned r, unsigned c)
{
    const unsigned i = r * 16 + c;
    const float f = (float)(i % 257) + 0.125f;
    uint32_t u;
    memcpy(&u, &f, 4);
    return i % 3 ? u | 0x80000000u : u;
}
static void probe_fill(void)
{
    memset(t->dest.row_valid, 1, sizeof t->dest.row_valid);
    for (unsigned r = 0; r < 512; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write32(t, r, c, cell32(probe_val(r, c)));
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[6][l] = F2;
}
static void probe_check(void)
{
    for (unsigned r = 0; r < 512; r++)
        for (unsigned c = 0; c < 16; c++) {
            const uint32_t v = probe_val(r, c);
            const uint32_t want = v + (1u << 23); /* doubling: exponent + 1, exact for these */
            const uint32_t got = uncell32(dest_read32(t, r, c));
            if (got != want)
                cr_assert_fail("row %u col %u: 0x%08x want 0x%08x", r, c, got, want);
        }
}

/* Four rotating registers, one SFPLOADMACRO per cycle: 256 cycles of loads, the last store two
 * cycles after the last MAD. From the first SFPLOADMACRO to the end of the four closing SFPNOPs:
 * 260 cycles (silicon, with the probe's synchronisation around it: 306). */
static void probe_pipelined(void)
{
    probe_fill();
    RUN(SCALE_MUL, TT_OP_SFPCONFIG(3, 8, 1));
    config(0, SCALE_SEQ, MISC(FP32, 0, 0));
    static uint32_t w[260];
    for (unsigned i = 0; i < 256; i++)
        w[i] = lm(0, i % 4, FP32, 0, 2 * i);
    for (unsigned i = 256; i < 260; i++)
        w[i] = TT_OP_SFPNOP;
    issues.n = 0;
    cr_assert_eq(run_tensix(t, w, 260, 100000), ERR_NONE, "%s", t->err.text);
    const uint64_t c0 = at_cycle(w[0], 0);
    cr_expect_eq(at_cycle(w[255], 0), c0 + 255, "one SFPLOADMACRO per cycle");
    cr_expect_eq(t->sfpu.busy_until - c0, 260);
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_MAD], 256);
    cr_expect_eq(t->sfpu.tm.st.macro_ops[SFPU_SUB_STORE], 256);
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_MAD_RESULT], 0);
    probe_check();
}
Test(sfpu_macro, probe_pipelined) { probe_pipelined(); }
Test(sfpu_macro_wh, probe_pipelined) { probe_pipelined(); }

/* The explicit loop SFPLOAD, SFPMUL, SFPNOP, SFPSTORE: four cycles a vector, 1028 to the end of
 * the closing SFPNOPs (silicon: 1,054). */
static void probe_explicit(void)
{
    probe_fill();
    static uint32_t w[1028];
    for (unsigned i = 0; i < 256; i++) {
        const unsigned r = i % 4;
        w[4 * i] = ld(r, FP32, 0, 2 * i);
        w[4 * i + 1] = TT_OP_SFPMUL(6, r, 9, r, 0);
        w[4 * i + 2] = TT_OP_SFPNOP;
        w[4 * i + 3] = st(r, FP32, 0, 2 * i);
    }
    for (unsigned i = 1024; i < 1028; i++)
        w[i] = TT_OP_SFPNOP;
    issues.n = 0;
    cr_assert_eq(run_tensix(t, w, 1028, 100000), ERR_NONE, "%s", t->err.text);
    const uint64_t c0 = at_cycle(w[0], 0);
    cr_expect_eq(t->sfpu.busy_until - c0, 1028);
    probe_check();
}
Test(sfpu_macro, probe_explicit) { probe_explicit(); }
Test(sfpu_macro_wh, probe_explicit) { probe_explicit(); }

/* Blackhole: without the SFPNOP the interlock holds each SFPSTORE a cycle: still four a vector. */
Test(sfpu_macro, probe_explicit_interlocked)
{
    probe_fill();
    static uint32_t w[768];
    for (unsigned i = 0; i < 256; i++) {
        const unsigned r = i % 4;
        w[3 * i] = ld(r, FP32, 0, 2 * i);
        w[3 * i + 1] = TT_OP_SFPMUL(6, r, 9, r, 0);
        w[3 * i + 2] = st(r, FP32, 0, 2 * i);
    }
    issues.n = 0;
    cr_assert_eq(run_tensix(t, w, 768, 100000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->sfpu.busy_until - at_cycle(w[0], 0), 1024);
    cr_expect_eq(t->thread[0].st.stall[GS_HAZARD], 256);
    probe_check();
}

/* SFPLOADMACRO followed by three SFPNOPs: four cycles a vector (silicon: 1,164 in all). */
static void probe_serial(void)
{
    probe_fill();
    RUN(SCALE_MUL, TT_OP_SFPCONFIG(3, 8, 1));
    config(0, SCALE_SEQ, MISC(FP32, 0, 0));
    static uint32_t w[1028];
    for (unsigned i = 0; i < 256; i++) {
        w[4 * i] = lm(0, i % 4, FP32, 0, 2 * i);
        w[4 * i + 1] = w[4 * i + 2] = w[4 * i + 3] = TT_OP_SFPNOP;
    }
    for (unsigned i = 1024; i < 1028; i++)
        w[i] = TT_OP_SFPNOP;
    issues.n = 0;
    cr_assert_eq(run_tensix(t, w, 1028, 100000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->sfpu.busy_until - at_cycle(w[0], 0), 1028);
    probe_check();
}
Test(sfpu_macro, probe_serial) { probe_serial(); }
Test(sfpu_macro_wh, probe_serial) { probe_serial(); }

/* No interlock for scheduled instructions (SFPMAD.md): a store one cycle after the scheduled MAD
 * reads its result too early, which the run stops on (or, with --unpredictable=warn, counts and
 * stores the new value); a store in the MAD's own cycle reads the loaded value, before it. */
static void macro_mad_has_no_interlock(void)
{
    probe_fill();
    RUN(SCALE_MUL, TT_OP_SFPCONFIG(3, 8, 1));
    config(0, SEQUENCE(0, SEQ(TMPL0, 0, USE_VB), 0, SEQ(STORE, 1, 0)), MISC(FP32, 0, 0));
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, FP32, 0, 8));
    cr_expect(strstr(t->err.text, "SFPMUL (thread T0, cycle ") &&
                  strstr(t->err.text, "scheduled by SFPLOADMACRO) writes LRegs 0x2; SFPSTORE") &&
                  strstr(t->err.text, "no interlock covers instructions scheduled by SFPLOADMACRO"),
              "%s", t->err.text);
    tile_reset(t);
    probe_fill();
    t->unpredictable_warn = true;
    t->errout = NULL;
    RUN(SCALE_MUL, TT_OP_SFPCONFIG(3, 8, 1));
    config(0, SEQUENCE(0, SEQ(TMPL0, 0, USE_VB), 0, SEQ(STORE, 1, 0)), MISC(FP32, 0, 0));
    config(1, SEQUENCE(0, SEQ(TMPL0, 0, USE_VB), 0, SEQ(STORE, 0, 0)), MISC(FP32, 0, 0));
    RUN(lm(0, 1, FP32, 0, 8), TT_OP_SFPNOP, TT_OP_SFPNOP, lm(1, 2, FP32, 0, 12));
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_MAD_RESULT], 1);
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(dget(8, l), probe_val(row_of(8, l), col_of(8, l)) + (1u << 23), "new value, lane %u", l);
        cr_expect_eq(dget(12, l), probe_val(row_of(12, l), col_of(12, l)), "before the MAD, lane %u", l);
    }
    /* a regular reader the cycle after a scheduled MAD is not held either */
    tile_reset(t);
    t->unpredictable_warn = false;
    t->errout = stderr;
    probe_fill();
    RUN(SCALE_MUL, TT_OP_SFPCONFIG(3, 8, 1));
    config(0, SEQUENCE(0, SEQ(TMPL0, 0, USE_VB), 0, 0), 0);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, FP32, 0, 8), TT_OP_SFPNOP, MOV_(1, 4));
}
Test(sfpu_macro, macro_mad_has_no_interlock) { macro_mad_has_no_interlock(); }
Test(sfpu_macro_wh, macro_mad_has_no_interlock) { macro_mad_has_no_interlock(); }

/* A MAD template writing LReg[16], stored from there: the loaded register keeps the load. */
static void mad_into_lreg16(void)
{
    probe_fill();
    RUN(SCALE_MUL);
    config(0, SEQUENCE(0, SEQ(TMPL0, 0, USE_VB | VD16), 0, SEQ(STORE, 2, VD16)), MISC(FP32, 0, 0));
    RUN(lm(0, 3, FP32, 0, 16));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t v = probe_val(row_of(16, l), col_of(16, l));
        cr_expect_eq(t->sfpu.lreg[3][l], v);
        cr_expect_eq(t->sfpu.lreg[16][l], v + (1u << 23));
        cr_expect_eq(dget(16, l), v + (1u << 23));
    }
}
Test(sfpu_macro, mad_into_lreg16) { mad_into_lreg16(); }
Test(sfpu_macro_wh, mad_into_lreg16) { mad_into_lreg16(); }

/* ---- rules between scheduled instructions ---- */

static uint32_t stochrnd(unsigned vc, unsigned vd, unsigned mod1) /* FP32 to integer, nearest */
{
    return wh ? TT_OP_SFPSTOCHRND_WH(0, 0, 0, vc, vd, 0, mod1) : TT_OP_SFPSTOCHRND_BH(0, 0, 0, vc, vd, 0, mod1);
}

/* SFPLOADMACRO.md (†): a simple and a round instruction in one cycle need exactly one of them to
 * write LReg[16]. */
static void sr_setup(uint32_t seq)
{
    tile_reset(t);
    fill_dst();
    tmpl(0, TT_OP_SFPSETSGN(0, 4, 15, 0));
    tmpl(1, stochrnd(0, 14, 2));
    config(0, seq, 0);
}
static void simple_and_round_share_a_cycle(void)
{
    sr_setup(SEQUENCE(SEQ(TMPL0, 1, 0), 0, SEQ(TMPL1, 1, 0), 0));
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8));
    cr_expect(strstr(t->err.text, "SFPSETSGN (simple) and SFPSTOCHRND (round) run together and neither "
                                  "write LReg[16]; exactly one must (SFPLOADMACRO.md)"), "%s", t->err.text);
    sr_setup(SEQUENCE(SEQ(TMPL0, 1, VD16), 0, SEQ(TMPL1, 1, VD16), 0));
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8));
    cr_expect(strstr(t->err.text, "run together and both write LReg[16]"), "%s", t->err.text);
    sr_setup(SEQUENCE(SEQ(TMPL0, 1, VD16), 0, SEQ(TMPL1, 1, 0), 0));
    RUN(lm(0, 1, INT32, 0, 8));
    /* a regular round instruction meeting a scheduled simple one that writes a loaded register */
    sr_setup(SEQUENCE(SEQ(TMPL0, 0, 0), 0, 0, 0));
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8), stochrnd(5, 6, 2));
}
Test(sfpu_macro, simple_and_round_share_a_cycle) { simple_and_round_share_a_cycle(); }
Test(sfpu_macro_wh, simple_and_round_share_a_cycle) { simple_and_round_share_a_cycle(); }

/* SFPLOADMACRO.md (‡): a scheduled SFPSWAP needs the MAD sub-unit idle in its cycle, and the
 * simple and round sub-units idle (or SFPNOP) in the next; nothing holds a regular instruction
 * after it. */
static void swap_setup(uint32_t seq)
{
    tile_reset(t);
    fill_dst();
    tmpl(0, TT_OP_SFPSWAP(0, 14, 1));
    tmpl(1, TT_OP_SFPMUL(6, 0, 9, 12, 0));
    config(0, seq, 0);
}
static void scheduled_swap_slots(void)
{
    swap_setup(SEQUENCE(SEQ(TMPL0, 0, 0), SEQ(TMPL1, 0, USE_VB), 0, 0));
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8));
    cr_expect(strstr(t->err.text, "SFPSWAP scheduled by SFPLOADMACRO needs the MAD sub-unit idle (or "
                                  "SFPNOP), but SFPMUL runs there"), "%s", t->err.text);
    swap_setup(SEQUENCE(SEQ(TMPL0, 0, 0), SEQ(NOP, 0, 0), 0, 0));
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, lm(0, 1, INT32, 0, 8), TT_OP_SFPNOP, INC(5));
    cr_expect(strstr(t->err.text, "runs for two cycles; SFPIADD (thread T0, issued) takes the simple "
                                  "sub-unit in its second"), "%s", t->err.text);
    swap_setup(SEQUENCE(SEQ(TMPL0, 0, 0), SEQ(NOP, 0, 0), 0, 0));
    RUN(lm(0, 1, INT32, 0, 8), TT_OP_SFPNOP, TT_OP_SFPNOP, INC(5));
    RUN(lm(0, 1, INT32, 0, 8), TT_OP_SFPNOP, lm(0, 2, INT32, 0, 10), TT_OP_SFPNOP);
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_SWAP], 0);
}
Test(sfpu_macro, scheduled_swap_slots) { scheduled_swap_slots(); }
Test(sfpu_macro_wh, scheduled_swap_slots) { scheduled_swap_slots(); }

/* ---- tt-llk's schedules run without a broken rule ---- */

/* Blackhole tt-llk ckernel_sfpu_exp.h (FAST_APPROX, CLAMP_NEGATIVE): eight "sanitize"
 * SFPLOADMACROs (SFPSWAP against LReg[14], store after 2) with SFPNOPs between, then eight
 * "compute" ones (MAD at 0, SFPSTOCHRND at 2, SFPSHFT into LReg[16] at 3, store from LReg[16] at
 * 4), one per cycle, and a closing SFPNOP. Every scheduled instruction runs, none breaks a rule.
 * (The values: swap_clamps_against_template_vd.) */
static void tt_llk_exp_clamped(void)
{
    fill_dst();
    tmpl(0, TT_OP_SFPSWAP(0, 14, 1));
    tmpl(1, TT_OP_SFPMAD(12, 0, 13, 13, 0));
    tmpl(2, wh ? TT_OP_SFPSTOCHRND_WH(0, 0, 0, 0, 14, 1, 6) : TT_OP_SFPSTOCHRND_BH(0, 0, 0, 0, 14, 1, 6));
    tmpl(3, TT_OP_SFPSHFT(15, 0, 15, 1));
    config(1, 0x13000004u, 0);
    config(0, 0x631685DFu, 0);
    uint32_t w[32];
    unsigned n = 0;
    for (unsigned k = 0; k < 8; k++) {
        w[n++] = lm(1, k % 4, FP32, 0, 2 * k);
        if (k < 7)
            w[n++] = TT_OP_SFPNOP;
    }
    for (unsigned k = 0; k < 8; k++)
        w[n++] = lm(0, k % 4, FP32, 0, 2 * k);
    w[n++] = TT_OP_SFPNOP;
    cr_assert_eq(run_tensix(t, w, n, 100000), ERR_NONE, "%s", t->err.text);
    const struct sfpu_timing *tm = &t->sfpu.tm;
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_SIMPLE], 16);
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_MAD], 8);
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_ROUND], 8);
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_STORE], 16);
    cr_expect_eq(tm->nlive, 0);
    for (unsigned h = 0; h < SFPU_HZ_COUNT; h++)
        cr_expect_eq(tm->st.hazards[h], 0, "hazard %u", h);
    /* one per cycle: 23 instructions, the last store five cycles after the last SFPLOADMACRO */
    const uint64_t c0 = at_cycle(w[0], 0);
    cr_expect_eq(at_cycle(w[n - 2], 0), c0 + 22);
    cr_expect_eq(t->sfpu.busy_until, c0 + 22 + 6);
}
Test(sfpu_macro, tt_llk_exp_clamped) { tt_llk_exp_clamped(); }

/* The sanitising schedule of that exponential alone, with values: SFPSWAP(VC 0, VD 14, Mod1 1)
 * scheduled with bit 7 clear compares the loaded register (VC) with LReg[14] (the template's VD,
 * read through VB) and leaves the maximum in the loaded register, which the store writes back:
 * Dst = max(x, LReg[14]) in the sign-magnitude order. LReg[14] itself is not written
 * (docs/sfpu.md, "a scheduled SFPSWAP"). */
static void swap_clamps_against_template_vd(void)
{
    static const uint32_t in[8] = {0xC2B10000u /* -88.5 */, 0xC2C80000u /* -100 */, 0x3F800000u,
                                   0xFF800000u /* -Inf */, 0x80000000u /* -0 */, 0xC2B20000u /* -89 */,
                                   0x7F800000u /* +Inf */, 0xC2B00000u /* -88 */};
    memset(t->dest.row_valid, 1, sizeof t->dest.row_valid);
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write32(t, r, c, cell32(in[(r * 8 + c / 2) % 8]));
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[14][l] = 0xC2B10000u;
    tmpl(0, TT_OP_SFPSWAP(0, 14, 1));
    config(1, SEQUENCE(SEQ(TMPL0, 0, 0), 0, 0, SEQ(STORE, 2, 0)), 0);
    RUN(lm(1, 0, FP32, 0, 0), TT_OP_SFPNOP, TT_OP_SFPNOP, TT_OP_SFPNOP, TT_OP_SFPNOP);
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t x = in[(row_of(0, l) * 8 + col_of(0, l) / 2) % 8];
        /* x < -88.5 in sign-magnitude order: negative with a larger magnitude */
        const bool below = (x >> 31) && (x & 0x7FFFFFFFu) > 0x42B10000u;
        cr_expect_eq(dget(0, l), below ? 0xC2B10000u : x, "lane %u: x 0x%08x", l, x);
        cr_expect_eq(t->sfpu.lreg[14][l], 0xC2B10000u, "LReg[14] lane %u", l);
    }
}
Test(sfpu_macro, swap_clamps_against_template_vd) { swap_clamps_against_template_vd(); }
Test(sfpu_macro_wh, swap_clamps_against_template_vd) { swap_clamps_against_template_vd(); }

/* One cycle, two phases: a regular instruction reads the state its cycle began with, not what
 * the scheduled instructions of the same cycle wrote, and they do not see its writes. A select
 * shaped like tt-llk's `where`, one row group every 4 cycles: cycle 0 loads the condition into
 * LReg[0] (macro 1 schedules SFPSETCC EQ0 of it for cycle 1); cycle 1 loads b into LReg[0]
 * while that SFPSETCC reads the condition (macro 2 schedules SFPENCC for cycle 2); cycle 2's
 * regular SFPLOAD of c runs under the flags SFPSETCC set, beside the SFPENCC that sets them all
 * true again; cycle 3 stores LReg[0]: cond == 0 ? c : b. */
static void regular_beside_scheduled_sees_cycle_start(void)
{
    memset(t->dest.row_valid, 1, sizeof t->dest.row_valid);
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 16; c++) {
            const unsigned k = r * 16 + c;
            dest_write32(t, r, c, cell32(k % 3 ? 0 : 0x100 + k)); /* cond */
            dest_write32(t, 8 + r, c, cell32(0xB0000 + k));       /* b */
            dest_write32(t, 16 + r, c, cell32(0xC0000 + k));      /* c */
        }
    tmpl(0, TT_OP_SFPSETCC(0, 0, 0, 6)); /* LaneFlags := LReg[VC] == 0 */
    tmpl(1, TT_OP_SFPENCC(0, 0, 0));     /* LaneFlags := true */
    config(1, SEQUENCE(SEQ(TMPL0, 0, 0), 0, 0, 0), 0);
    config(2, SEQUENCE(SEQ(TMPL1, 0, 0), 0, 0, 0), 0);
    RUN(TT_OP_SFPENCC(3, 0, 10), lm(1, 0, INT32, 0, 0), lm(2, 0, INT32, 0, 8), ld(0, INT32, 0, 16),
        st(0, INT32, 0, 24));
    cr_expect_eq(at_cycle(st(0, INT32, 0, 24), 0), at_cycle(lm(1, 0, INT32, 0, 0), 0) + 3);
    for (unsigned l = 0; l < 32; l++) {
        const unsigned k = row_of(0, l) * 16 + col_of(0, l);
        const uint32_t want = k % 3 ? 0xC0000 + k : 0xB0000 + k;
        cr_expect_eq(uncell32(dest_read32(t, 24 + l / 8, col_of(0, l))), want, "lane %u", l);
        cr_expect(t->sfpu.lane_flags[l], "SFPENCC left lane %u's flag true", l);
    }
}
Test(sfpu_macro, regular_beside_scheduled_sees_cycle_start) { regular_beside_scheduled_sees_cycle_start(); }
Test(sfpu_macro_wh, regular_beside_scheduled_sees_cycle_start) { regular_beside_scheduled_sees_cycle_start(); }

/* tt-llk ckernel_sfpu_exp.h (FAST_APPROX, not clamped): MAD at 0, SFPSTOCHRND at 3, SFPSETSGN
 * into LReg[16] at 5 and the store from LReg[16] at 6, counted in issued instructions
 * (UnitDelayKind 0xF), each SFPLOADMACRO followed by an explicit SFPSHFT2 bit shift; sixteen
 * pairs and an SFPNOP. The last SFPLOADMACROs' later instructions wait for more instructions:
 * LM 15 leaves its round, simple and store, LM 14 its simple and store (5 waiting). */
static void tt_llk_exp_replay(void)
{
    fill_dst();
    tmpl(1, TT_OP_SFPMAD(12, 0, 13, 13, 0));
    tmpl(2, wh ? TT_OP_SFPSTOCHRND_WH(0, 0, 0, 0, 14, 0, 7) : TT_OP_SFPSTOCHRND_BH(0, 0, 0, 0, 14, 0, 7));
    tmpl(3, TT_OP_SFPSETSGN(0, 4, 15, 0));
    config(0, 0x731E85EFu, 0xF00);
    uint32_t w[33];
    unsigned n = 0;
    for (unsigned k = 0; k < 16; k++) {
        w[n++] = lm(0, k % 4, FP32, 0, 2 * k);
        w[n++] = TT_OP_SFPSHFT2((k + 2) % 4, 14, 4, 5);
    }
    w[n++] = TT_OP_SFPNOP;
    cr_assert_eq(run_tensix(t, w, n, 100000), ERR_NONE, "%s", t->err.text);
    const struct sfpu_timing *tm = &t->sfpu.tm;
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_MAD], 16);
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_ROUND], 15);
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_SIMPLE], 14);
    cr_expect_eq(tm->st.macro_ops[SFPU_SUB_STORE], 14);
    cr_expect_eq(tm->nlive, 5);
    for (unsigned h = 0; h < SFPU_HZ_COUNT; h++)
        cr_expect_eq(tm->st.hazards[h], 0, "hazard %u", h);
    cr_expect_eq(at_cycle(w[n - 1], 0), at_cycle(w[0], 0) + 32);
}
Test(sfpu_macro, tt_llk_exp_replay) { tt_llk_exp_replay(); }
Test(sfpu_macro_wh, tt_llk_exp_replay) { tt_llk_exp_replay(); }

/* Special values through the scheduled MAD and store (BH:SFPMAD.md "IEEE754 conformance": NaN in,
 * canonical NaN out; infinities kept; overflow to Inf; a denormal input reads as zero), and a
 * disabled lane keeps its register and its Dst cell. */
Test(sfpu_macro, special_values_through_a_scheduled_mad)
{
    static const uint32_t in[8] = {0x7F800000, 0xFF800000, 0x7FC00001, 0x7F7FFFFF,
                                   0x00000001, 0x3F800000, 0xC0000000, 0x00800000};
    static const uint32_t out[8] = {0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800000,
                                    0x00000000, 0x40000000, 0xC0800000, 0x01000000};
    probe_fill();
    for (unsigned c = 0; c < 16; c++)
        dest_write32(t, 40, c, cell32(in[c / 2]));
    RUN(SCALE_MUL);
    config(0, SCALE_SEQ, MISC(FP32, 0, 0));
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.use_lane_flags[l] = true;
        t->sfpu.lane_flags[l] = l != 3;
        t->sfpu.lreg[2][l] = 0x12345678;
    }
    RUN(lm(0, 2, FP32, 0, 40));
    for (unsigned l = 0; l < 8; l++) {
        cr_expect_eq(dget(40, l), l == 3 ? in[3] : out[l], "lane %u: 0x%08x", l, dget(40, l));
        cr_expect_eq(t->sfpu.lreg[2][l], l == 3 ? 0x12345678u : out[l], "lane %u", l);
    }
}

/* bit 7 set on a template whose model reads "VC = VD" (SFPMULI): VC is the template's VD
 * (LReg[10] = 1.0), the result goes to the loaded register; a disabled lane's loaded register
 * keeps its value (neither the load nor the SFPMULI writes it), not LReg[10]'s. */
static void vb_loaded_vc_from_template_vd_keeps_disabled_lanes(void)
{
    fill_dst();
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.use_lane_flags[l] = true;
        t->sfpu.lane_flags[l] = !(l & 1);
        t->sfpu.lreg[7][l] = 0x11110000u + l;
    }
    tmpl(0, TT_OP_SFPMULI(0x4000, 10, 0)); /* LReg[VD] * 2.0 (BF16 0x4000) */
    config(0, SEQUENCE(0, SEQ(TMPL0, 0, USE_VB), 0, 0), MISC(FP32, 0, 0));
    RUN(lm(0, 7, FP32, 0, 16 | 1));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t want = l & 1 ? 0x11110000u + l : 0x40000000u; /* 1.0 * 2.0 */
        cr_expect_eq(t->sfpu.lreg[7][l], want, "lane %u: 0x%08x want 0x%08x", l, t->sfpu.lreg[7][l], want);
        cr_expect_eq(t->sfpu.lreg[10][l], 0x3F800000u, "LReg[10] lane %u", l);
    }
}
Test(sfpu_macro, vb_loaded_vc_from_template_vd_keeps_disabled_lanes)
{
    vb_loaded_vc_from_template_vd_keeps_disabled_lanes();
}
Test(sfpu_macro_wh, vb_loaded_vc_from_template_vd_keeps_disabled_lanes)
{
    vb_loaded_vc_from_template_vd_keeps_disabled_lanes();
}
