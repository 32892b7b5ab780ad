/* The vector unit's MAD sub-unit (units/sfpu_mad.c, units/sfpu_lut.c): SFPMAD, SFPADD, SFPMUL,
 * SFPMULI, SFPADDI, SFPMUL24, SFPLUT, SFPLUTFP32 on Blackhole (suite sfpu_mad) and Wormhole B0
 * (sfpu_mad_wh).
 *
 * Expected bits are worked by hand next to each case. The MAD datapath (SFPMAD.md "IEEE754
 * conformance / divergence", Miscellaneous/FMA/README.md) in the terms used below: 1.0 is the
 * significand 2^26 in a frame whose exponent is the FP32 biased exponent; z's 24-bit
 * significand is shifted left 3; the exact 48-bit product P of the two 24-bit significands is
 * cut to P >> 20 with any non-zero bit of P's low 20 ORed into bit 0 (the "sticky" bit), at
 * exponent ex + ey - 127; the smaller is shifted right to the larger's exponent (bits shifted
 * out again kept as a sticky bit, unless nothing is left), the two added or subtracted, the
 * leading one brought to bit 26, the 23 bits below it kept and the 3 below those round to
 * nearest even. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../units/sfpu.h"
#include "harness.h"
#include "sfpu_test.h"
#include "tensix_ops.h"

TestSuite(sfpu_mad, .init = setup_bh, .fini = teardown);
TestSuite(sfpu_mad_wh, .init = setup_wh, .fini = teardown);

/* SFPENCC: predication on, every flag true; SFPSETCC Mod1 "!= 0" */
#define FLAGS_ON TT_OP_SFPENCC(3, 0, 10)
#define NE0 2

enum { NEG_VB = 1, NEG_VC = 2, IND_VA = 4, IND_VD = 8 };

#define ONE 0x3F800000u
#define TWO 0x40000000u
#define HALF 0x3F000000u
#define INF 0x7F800000u
#define QNAN 0x7FC00000u
#define NZERO 0x80000000u

static void expect_lane(unsigned r, unsigned l, uint32_t want)
{
    cr_expect_eq(t->sfpu.lreg[r][l], want, "%s LReg[%u] lane %u: 0x%08x, want 0x%08x",
                 wh ? "WH" : "BH", r, l, t->sfpu.lreg[r][l], want);
}
/* LReg[scratch] := 1 in the lanes of `mask`, 0 elsewhere: FLAGS_ON then SFPSETCC "!= 0" on it
 * leaves exactly those lanes enabled. */
static void enable_only(unsigned scratch, uint32_t mask)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[scratch][l] = mask >> l & 1;
}

/* ---- the arithmetic: SFPMAD LReg[4] = LReg[0] * LReg[1] + LReg[2], one case per lane ---- */

struct mad_case {
    uint32_t a, b, c, bh, wh;
};

static const struct mad_case arith[] = {
    /* 1.5 * 2 + 0.25 = 3.25; 3 * 5 + 0 = 15: exact */
    {0x3FC00000, TWO, 0x3E800000, 0x40500000, 0x40500000},
    {0x40400000, 0x40A00000, 0x00000000, 0x41700000, 0x41700000},
    /* (1 + 2^-23)^2 - (1 + 2^-22): exact 2^-46; a separate multiply rounds the product to
     * 1 + 2^-22 and gives 0; here P = 2^46 + 2^24 + 1, P >> 20 = 0x4000010 with bit 0 of the low
     * 20 set: 0x4000011; z = 0x800002 << 3 = 0x4000010; r = 1 at exponent 127, brought to bit
     * 26: exponent 127 - 26 = 101 -> 2^-26 = 0x32800000. The cut product's sticky bit is the
     * whole answer: not fused, not separate. */
    {0x3F800001, 0x3F800001, 0xBF800002, 0x32800000, 0x32800000},
    /* (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly: P = 2^46 + 2^35 + 2^22, P >> 20 =
     * 0x4008004 (nothing below), z 0x4008000: r = 4 -> exponent 127 - 24 = 103 = 0x33800000
     * (a separate multiply would round 1 + 2^-11 + 2^-24, a tie, to even and give 0) */
    {0x3F800800, 0x3F800800, 0xBF801000, 0x33800000, 0x33800000},
    /* rounding, z = 0: (1 + 2^-23) * 1.5: P >> 20 = 0x600000C, kept 0xC00001 (odd), below
     * 0b100: a tie, up to 0x3FC00002 */
    {0x3F800001, 0x3FC00000, 0, 0x3FC00002, 0x3FC00002},
    /* (1 + 3 * 2^-23) * 1.5: P >> 20 = 0x6000024, kept 0xC00004 (even), tie: stays */
    {0x3F800003, 0x3FC00000, 0, 0x3FC00004, 0x3FC00004},
    /* (1 + 2^-23) * 1.75: P >> 20 = 0x700000E, kept 0xE00001, below 0b110: up */
    {0x3F800001, 0x3FE00000, 0, 0x3FE00002, 0x3FE00002},
    /* (1.5 + 3 * 2^-23) * 1.75 + (1.5 + 5 * 2^-23): P >> 20 = 0xC00003 * 14 = 0xA80002A, z =
     * 0x6000028, sum 0x10800052: bit 28 leads, shift right 2 dropping 0b10 -> 0x4200014,
     * exponent 129, kept 0x840002 (0x40840002), below 0b100. Blackhole's sticky bit keeps the
     * dropped 0b10 (below 0b101: up, 0x40840003); Wormhole keeps only the lowest dropped bit
     * (0): a tie, even, stays (WH README, the hardware bug) */
    {0x3FC00003, 0x3FE00000, 0x3FC00005, 0x40840003, 0x40840002},
    /* NaN operands: Blackhole's canonical NaN; Wormhole's p_sign | 0x7F800001, from z's sign
     * for a NaN z (the sum then overflows the exponent, nothing more is added) */
    {QNAN, ONE, 0, QNAN, 0x7F800001},
    {0xFFC00000, ONE, 0, QNAN, 0xFF800001},
    {ONE, ONE, 0x7F800001, QNAN, 0x7F800001},
    {ONE, ONE, 0xFFC00000, QNAN, 0xFF800001},
    /* Inf * 2 + 1 = Inf; Inf + Inf = Inf; 1 * 1 - Inf = -Inf */
    {INF, TWO, ONE, INF, INF},
    {INF, ONE, INF, INF, INF},
    {ONE, ONE, 0xFF800000, 0xFF800000, 0xFF800000},
    /* Inf * 0 + 1.5: NaN; on Wormhole the zero product leaves z's sum, 1.5 = 0x3FC00000, whose
     * bits join the NaN's: 0x7F800001 | 0x3FC00000 = 0x7FC00001 */
    {INF, 0, 0x3FC00000, QNAN, 0x7FC00001},
    /* Inf * 1 - Inf: NaN (Wormhole: the sum cancels to 0, the NaN stays 0x7F800001) */
    {INF, ONE, 0xFF800000, QNAN, 0x7F800001},
    /* 2^127 * 4 - Inf: the finite product overflows (exponent 254 + 129 - 127 = 256);
     * Blackhole returns z, Wormhole treats it as Inf - Inf */
    {0x7F000000, 0x40800000, 0xFF800000, 0xFF800000, 0x7F800001},
    /* 2^127 * 2 - 1.5 * 2^127: exactly 2^126, but the product (exponent 255) overflows on its
     * own: +Inf */
    {0x7F000000, TWO, 0xFF400000, INF, INF},
    /* a denormal operand reads as zero: 2^-127 * 2^100 + 0 = +0; with a negative product and
     * z = -0, Blackhole's zero keeps IEEE's sign (-0 + -0 = -0), Wormhole's is +0 */
    {0x00400000, 0x71800000, 0, 0, 0},
    {0x00400000, 0xF1800000, NZERO, NZERO, 0},
    /* a denormal z reads as zero: 1 * 1 + denormal = 1 */
    {ONE, ONE, 0x007FFFFF, ONE, ONE},
    /* 1.5 * 2^-126 - 2^-126 = 2^-127, denormal: flushed (Blackhole: with the result's sign) */
    {0x00C00000, ONE, 0x80800000, 0, 0},
    {0x80C00000, ONE, 0x00800000, NZERO, 0},
    /* (2 - 2^-23) * 2^-126 * (1 + 2^-23) - (1.5 + 2^-23) * 2^-126 = (0.5 - 2^-46) * 2^-126:
     * P >> 20 = 0x7FFFFF8 + 0xF | 1 = 0x8000007 at exponent 1, z = 0xC00001 << 3 = 0x6000008,
     * r = 0x1FFFFFF: exponent 1 - 2 = -1. Blackhole keeps exponent field 0 and shifts as for
     * exponent 0: r << 1 = 0x3FFFFFE, kept 0x7FFFFF, below 0b110: rounds up into 2^-126
     * (0x00800000), though the value is below 2^-127 (the pages' model; docs/sfpu.md).
     * Wormhole flushes exponents below 0 before rounding: +0. */
    {0x00FFFFFF, 0x3F800001, 0x80C00001, 0x00800000, 0},
    /* (2 - 2^-23) * 2^-126 * 0.5 = 2^-126 - 2^-150: P >> 20 = 0x7FFFFF8 at exponent 0.
     * Blackhole shifts one place right for exponent 0: kept 0x7FFFFF, below 0b100, odd: up to
     * 2^-126 (as IEEE rounds it). Wormhole keeps exponent 0 unshifted: kept 0x7FFFFF, below 0:
     * stays denormal, flushed to +0 (WH README "rounding of denormals"). */
    {0x00FFFFFF, HALF, 0, 0x00800000, 0},
    /* ... but an exponent-0 sum is rounded before Wormhole's flush: (2 - 2^-22) * 2^-126 *
     * 0.5 * (1 + 2^-23): P = 0xFFFFFE * 0x800001 = 0x7FFFFFFFFFFE, P >> 20 = 0x7FFFFFF (bit 0
     * already set) at exponent 0. Wormhole, unshifted: kept 0x7FFFFF, below 0b111: up, carries
     * to 2^-126. Blackhole, one place right (sticky): 0x3FFFFFF, the same. */
    {0x00FFFFFE, 0x3F000001, 0, 0x00800000, 0x00800000},
    /* 3 * 5 - 15 = 0 exactly: +0; -0 * 1 + -0 = -0 on Blackhole, +0 on Wormhole; -0 + +0 = +0 */
    {0x40400000, 0x40A00000, 0xC1700000, 0, 0},
    {NZERO, ONE, NZERO, NZERO, 0},
    {NZERO, ONE, 0, 0, 0},
    /* max * 1 + 2^103: half an ulp of max, a tie on an odd significand: up, to +Inf */
    {0x7F7FFFFF, ONE, 0x73000000, INF, INF},
    /* 2^-100 * 2^-30 is below FP32's range: the product counts as exactly 0 (z = 1 stays; a
     * -0 z with the negative product gives -0 on Blackhole) */
    {0x0D800000, 0x30800000, ONE, ONE, ONE},
    {0x8D800000, 0x30800000, NZERO, NZERO, 0},
    /* (1 + 3 * 2^-23) * 1.5 + 2^-28 or + 2^-60: the product's tie (row 5) stays a tie: z,
     * shifted right by 28 or 60, leaves nothing, not even a sticky bit (IEEE would round up to
     * 0x3FC00005) */
    {0x3F800003, 0x3FC00000, 0x31800000, 0x3FC00004, 0x3FC00004},
    {0x3F800003, 0x3FC00000, 0x21800000, 0x3FC00004, 0x3FC00004},
};
#define ARITH_CASES (sizeof arith / sizeof arith[0])

/* 32 cases per run, one per lane (a short last run leaves its other lanes alone). */
static void arithmetic_cases(void)
{
    for (unsigned first = 0; first < ARITH_CASES; first += 32) {
        const unsigned n = ARITH_CASES - first < 32 ? ARITH_CASES - first : 32;
        for (unsigned l = 0; l < n; l++) {
            t->sfpu.lreg[0][l] = arith[first + l].a;
            t->sfpu.lreg[1][l] = arith[first + l].b;
            t->sfpu.lreg[2][l] = arith[first + l].c;
        }
        fill_old(4);
        RUN(TT_OP_SFPMAD(0, 1, 2, 4, 0));
        for (unsigned l = 0; l < n; l++)
            expect_lane(4, l, wh ? arith[first + l].wh : arith[first + l].bh);
    }
}
Test(sfpu_mad, arithmetic) { arithmetic_cases(); }
Test(sfpu_mad_wh, arithmetic) { arithmetic_cases(); }

/* The same datapath through the other opcodes: with VA = 10 (1.0) SFPADD is an add, with VC = 9
 * (+0) SFPMUL a multiply, and each is SFPMAD with any operands (its page: "Identical to
 * SFPMAD"). Row 3 of the table through SFPADD with VA = 0 gives row 3's answer. */
static void add_and_mul_are_mad(void)
{
    _Static_assert(ARITH_CASES >= 32, "a full run of cases");
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[0][l] = arith[l].a;
        t->sfpu.lreg[1][l] = arith[l].b;
        t->sfpu.lreg[2][l] = arith[l].c;
    }
    RUN(TT_OP_SFPADD(0, 1, 2, 4, 0), TT_OP_SFPNOP, TT_OP_SFPMUL(0, 1, 2, 5, 0), TT_OP_SFPNOP,
        TT_OP_SFPADD(10, 1, 2, 6, 0), TT_OP_SFPNOP, TT_OP_SFPMUL(0, 1, 9, 7, 0));
    for (unsigned l = 0; l < 32; l++) {
        expect_lane(4, l, wh ? arith[l].wh : arith[l].bh);
        expect_lane(5, l, wh ? arith[l].wh : arith[l].bh);
    }
    /* lane 0: 2 + 0.25 = 2.25; 1.5 * 2 + 0 = 3 */
    expect_lane(6, 0, 0x40100000);
    expect_lane(7, 0, 0x40400000);
    /* lane 2: (1 + 2^-23) + -(1 + 2^-22) = -2^-23 exactly; the product of the table alone is
     * 1 + 2^-22 + 2^-46, rounded: 1 + 2^-22 */
    expect_lane(6, 2, 0xB4000000);
    expect_lane(7, 2, 0x3F800002);
    /* lane 20: 2^-127 (denormal) * -2^100 + 0 reads as 0 * x + 0: +0 on both */
    expect_lane(7, 20, 0);
}
Test(sfpu_mad, add_and_mul_are_mad) { add_and_mul_are_mad(); }
Test(sfpu_mad_wh, add_and_mul_are_mad) { add_and_mul_are_mad(); }

/* ---- Mod1 ---- */

/* Blackhole (BH:SFPMAD.md): NEGATE_VB flips b, NEGATE_VC flips c. 2 * 3 + 1 with Mod1 0..3:
 * 7, -6 + 1 = -5, 6 - 1 = 5, -6 - 1 = -7. Through SFPADD and SFPMUL too. */
Test(sfpu_mad, negate_modifiers)
{
    fill(0, TWO);
    fill(1, 0x40400000);
    fill(2, ONE);
    RUN(TT_OP_SFPMAD(0, 1, 2, 3, 0), TT_OP_SFPMAD(0, 1, 2, 4, NEG_VB),
        TT_OP_SFPMAD(0, 1, 2, 5, NEG_VC), TT_OP_SFPMAD(0, 1, 2, 6, NEG_VB | NEG_VC),
        TT_OP_SFPADD(10, 1, 2, 7, NEG_VB | NEG_VC));
    expect_lane(3, 9, 0x40E00000);
    expect_lane(4, 9, 0xC0A00000);
    expect_lane(5, 9, 0x40A00000);
    expect_lane(6, 9, 0xC0E00000);
    expect_lane(7, 9, 0xC0800000); /* -3 - 1 */
    /* SFPMUL.md: -0 is addition's identity: 0 * -1 + (+0) = +0, + (-0) with NEGATE_VC = -0 */
    fill(0, 0);
    fill(1, 0xBF800000);
    fill_old(3);
    fill_old(4);
    RUN(TT_OP_SFPMUL(0, 1, 9, 3, 0), TT_OP_SFPMUL(0, 1, 9, 4, NEG_VC));
    expect_lane(3, 0, 0);
    expect_lane(4, 0, NZERO);
    /* NEGATE_VB on a NaN b, or on an infinite one: NaN stays canonical, -Inf * 2 = -Inf */
    fill(0, TWO);
    fill(1, 0x7FC00001);
    fill(5, INF);
    RUN(TT_OP_SFPMUL(0, 1, 9, 3, NEG_VB), TT_OP_SFPMUL(0, 5, 9, 4, NEG_VB));
    expect_lane(3, 31, QNAN);
    expect_lane(4, 31, 0xFF800000);
}

/* Wormhole's page reads only the INDIRECT bits: Mod1 1..3 compute 2 * 3 + 1 = 7. */
Test(sfpu_mad_wh, mod1_low_bits_are_not_read)
{
    fill(0, TWO);
    fill(1, 0x40400000);
    fill(2, ONE);
    fill(7, TWO);
    RUN(TT_OP_SFPMAD(0, 1, 2, 4, NEG_VB), TT_OP_SFPMAD(0, 1, 2, 5, NEG_VC),
        TT_OP_SFPMAD(0, 1, 2, 6, 3), TT_OP_SFPMULI(0x4040, 7, NEG_VC));
    expect_lane(4, 0, 0x40E00000);
    expect_lane(5, 0, 0x40E00000);
    expect_lane(6, 0, 0x40E00000);
    expect_lane(7, 0, 0x40C00000); /* 3 * 2 */
}

/* INDIRECT_VA: a comes from LReg[LReg[7] & 15] per lane, any of the 16 (the constants too).
 * 2 * a + 0 with lane l choosing a = LReg[l & 15] (LReg[7]'s bits above 3 are ignored). */
static uint32_t indirect_va_want(unsigned l)
{
    switch (l & 15) {
    case 0: return 0x40C00000;                 /* 3 -> 6 */
    case 1: return 0xBFC00000;                 /* -0.75 -> -1.5 */
    case 2: return 0x40800000;                 /* 2 -> 4 */
    case 3: return 0x40400000;                 /* 1.5 -> 3 */
    case 4: return INF;                        /* max * 2 overflows */
    case 5: return wh ? 0x7F800001 : QNAN;     /* NaN (0x7FC00000 * 2: Wormhole's exponent
                                                * overflows before any bit is added) */
    case 6: return 0;                          /* denormal -> 0 */
    case 7: return 0x40000007;                 /* LReg[7] itself, 1 + 7 * 2^-23 */
    case 8: return 0x3FD6594B;                 /* 0.8373 * 2 */
    case 9: return 0;                          /* 0 */
    case 10: return TWO;                       /* 1.0 */
    case 11: return 0xC0000000;                /* -1.0 */
    case 12: return 0x38000000;                /* 1/65536 */
    case 13: return 0xBFACC4C7;                /* -0.67487759 */
    case 14: return 0xBF308FF9;                /* -0.34484843 */
    default: return 0;                         /* lane * 2, an integer: denormal */
    }
}
static void indirect_va(void)
{
    fill(0, 0x40400000);
    fill(1, 0xBF400000);
    fill(2, TWO);
    fill(3, 0x3FC00000);
    fill(4, 0x7F7FFFFF);
    fill(5, QNAN);
    fill(6, 0x00400000);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = 0x3F800000u | (l & 15); /* a float, but only bits 3..0 count */
    RUN(TT_OP_SFPMAD(0, 2, 9, 7, IND_VA)); /* VA 0 is ignored; the result goes to LReg[7] */
    for (unsigned l = 0; l < 32; l++)
        expect_lane(7, l, indirect_va_want(l));
}
Test(sfpu_mad, indirect_va) { indirect_va(); }
Test(sfpu_mad_wh, indirect_va) { indirect_va(); }

/* INDIRECT_VD: the result goes to LReg[LReg[7] & 15], per lane; 8..15 take nothing. VD 3 in
 * the word is ignored. */
static void indirect_vd(uint32_t w)
{
    for (unsigned r = 0; r < 8; r++)
        fill_old(r);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = 0xFFFFFFF0u | (l & 15);
    fill(1, TWO);
    fill(2, ONE);
    const uint32_t ws[] = {w};
    cr_assert_eq(run_tensix(t, ws, 1, 100000), ERR_NONE, "%s", t->err.text);
    for (unsigned l = 0; l < 32; l++) {
        const unsigned d = l & 15;
        for (unsigned r = 0; r < 8; r++) {
            uint32_t want = r == 7 ? 0xFFFFFFF0u | d : r == 1 ? TWO : r == 2 ? ONE : old(r, l);
            if (r == d)
                want = 0x40400000; /* 1 * 2 + 1 = 3 (LReg[10] * LReg[1] + LReg[2]) */
            expect_lane(r, l, want);
        }
    }
}
Test(sfpu_mad, indirect_vd)
{
    indirect_vd(TT_OP_SFPMAD(10, 1, 2, 3, IND_VD));
    tile_reset(t);
    indirect_vd(TT_OP_SFPADD(10, 1, 2, 3, IND_VD));
}
Test(sfpu_mad_wh, indirect_vd) { indirect_vd(TT_OP_SFPMAD(10, 1, 2, 3, IND_VD)); }

/* ---- lanes, read-only registers, the backdoor ---- */

/* Disabled lanes keep LReg[VD]; VD 8..11 changes nothing; VD 12 with the backdoor on writes the
 * word into InstructionTemplate[0] on every lane and computes nothing, with it off (column 0
 * here) runs the model, which writes nothing for VD >= 8. */
static void lanes_and_destinations(void)
{
    fill(0, TWO);
    fill(1, TWO);
    fill(2, ONE);
    enable_only(5, 0x00FF00F0u);
    fill_old(4);
    const uint32_t mad = TT_OP_SFPMAD(0, 1, 2, 4, 0);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 5, 0, NE0), mad);
    for (unsigned l = 0; l < 32; l++)
        expect_lane(4, l, (0x00FF00F0u >> l & 1) ? 0x40A00000 : old(4, l));
    tile_reset(t);
    uint32_t before[SFPU_LREGS][SFPU_LANES];
    memcpy(before, t->sfpu.lreg, sizeof before);
    RUN(TT_OP_SFPMAD(10, 10, 10, 8, 0), TT_OP_SFPMAD(10, 10, 10, 11, 0),
        TT_OP_SFPMULI(0x4000, 9, 0), TT_OP_SFPADDI(0x4000, 10, 0));
    cr_expect(memcmp(before, t->sfpu.lreg, sizeof before) == 0, "VD 8..11 wrote a register");
    tile_reset(t);
    fill(0, TWO);
    memcpy(before, t->sfpu.lreg, sizeof before);
    const uint32_t backdoor = TT_OP_SFPMAD(0, 0, 0, 12, 0);
    RUN(TT_OP_SFPCONFIG(0x0003, 15, 9), TT_OP_SFPNOP, backdoor); /* column 0: DISABLE_BACKDOOR */
    cr_expect(memcmp(before, t->sfpu.lreg, sizeof before) == 0, "VD 12 wrote a register");
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.macro[l].instruction_template[0], (l & 7) ? backdoor : 0, "lane %u",
                     l);
}
Test(sfpu_mad, lanes_and_destinations) { lanes_and_destinations(); }
Test(sfpu_mad_wh, lanes_and_destinations) { lanes_and_destinations(); }

/* ---- SFPMULI, SFPADDI ---- */

/* BF16 immediate (Imm16 << 16). SFPMULI: VD = imm * VD + 0; SFPADDI: VD = imm * 1 + VD. */
static void mul_add_immediate(void)
{
    static const uint32_t v[6] = {0x40400000, NZERO, 0x3F800001, INF, 0x00400000, 0xC0000000};
    for (unsigned r = 0; r < 6; r++)
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[r][l] = v[(r + l) % 6];
    /* MULI 2.5 (0x4020) on 0..2, ADDI -1.5 (0xBFC0) on 3..5 */
    RUN(TT_OP_SFPMULI(0x4020, 0, 0), TT_OP_SFPMULI(0x4020, 1, 0), TT_OP_SFPMULI(0x4020, 2, 0),
        TT_OP_SFPADDI(0xBFC0, 3, 0), TT_OP_SFPADDI(0xBFC0, 4, 0), TT_OP_SFPADDI(0xBFC0, 5, 0));
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned r = 0; r < 6; r++) {
            const uint32_t x = v[(r + l) % 6];
            uint32_t want;
            if (r < 3) {
                switch (x) {
                case 0x40400000: want = 0x40F00000; break; /* 3 * 2.5 = 7.5 */
                case NZERO: want = 0; break;               /* -0 * 2.5 + 0 = +0 */
                /* 2.5 * (1 + 2^-23): P = 0xA00000 * 0x800001 = 0x500000A00000, P >> 20 =
                 * 0x500000A at exponent 128: kept 0x200001, below 0b010: down, 0x40200001
                 * (2.5 + 1.25 ulp) */
                case 0x3F800001: want = 0x40200001; break;
                case INF: want = INF; break;
                case 0x00400000: want = 0; break; /* denormal: 0 */
                default: want = 0xC0A00000; break; /* -2 * 2.5 = -5 */
                }
            } else {
                switch (x) {
                case 0x40400000: want = 0x3FC00000; break; /* 3 - 1.5 */
                case NZERO: want = 0xBFC00000; break;      /* -1.5 + -0 */
                /* (1 + 2^-23) - 1.5 = -0.5 + 2^-23: exact, 2^-1 * (1 - 2^-22) = 0xBEFFFFFC */
                case 0x3F800001: want = 0xBEFFFFFC; break;
                case INF: want = INF; break;
                case 0x00400000: want = 0xBFC00000; break; /* denormal reads as 0 */
                default: want = 0xC0600000; break;         /* -2 - 1.5 = -3.5 */
                }
            }
            expect_lane(r, l, want);
        }
    }
}
Test(sfpu_mad, mul_add_immediate) { mul_add_immediate(); }
Test(sfpu_mad_wh, mul_add_immediate) { mul_add_immediate(); }

/* Blackhole's NEGATE_VC flips LReg[VD] before use; INDIRECT_VD (both arches) sends the result
 * to LReg[LReg[7] & 15]. */
Test(sfpu_mad, mul_add_immediate_modifiers)
{
    fill(0, 0x40400000);
    fill(1, 0x40400000);
    RUN(TT_OP_SFPMULI(0x4000, 0, NEG_VC), TT_OP_SFPADDI(0x4000, 1, NEG_VC));
    expect_lane(0, 5, 0xC0C00000); /* 2 * -3 */
    expect_lane(1, 5, 0xBF800000); /* 2 - 3 */
    tile_reset(t);
    fill(2, 0x40400000);
    fill_old(5);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = l & 1 ? 5 : 12; /* odd lanes to LReg[5], even ones nowhere */
    RUN(TT_OP_SFPADDI(0x3F80, 2, IND_VD | NEG_VC));
    for (unsigned l = 0; l < 32; l++) {
        expect_lane(5, l, l & 1 ? 0xC0000000 : old(5, l)); /* 1 - 3 */
        expect_lane(2, l, 0x40400000);
    }
}
Test(sfpu_mad_wh, mul_add_immediate_indirect_vd)
{
    fill(2, 0x40400000);
    fill_old(5);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = l & 1 ? 5 : 12;
    RUN(TT_OP_SFPMULI(0x3F00, 2, IND_VD)); /* 0.5 * 3 */
    for (unsigned l = 0; l < 32; l++)
        expect_lane(5, l, l & 1 ? 0x3FC00000 : old(5, l));
}

/* ---- SFPMUL24 (Blackhole) ---- */

/* Low 23 bits of the product, or bits 45..23 of the product of the low 23 bits; VC = 9 leaves
 * it. Lane-varied: a, b from the table by lane % 4. */
Test(sfpu_mad, mul24_products)
{
    static const uint32_t a[4] = {0x00400001, 0xFFC00001, 0x007FFFFF, 0x12345678};
    static const uint32_t b[4] = {0x00000003, 0x00000003, 0x807FFFFF, 0x00000000};
    /* 0x400001 * 3 = 0xC00003: low 23 bits 0x400003, >> 23: 1; a's bits above 22 are not
     * read; (2^23 - 1)^2 = 2^46 - 2^24 + 1: low 0x000001, high 2^23 - 2 = 0x7FFFFE; * 0: 0 */
    static const uint32_t lo[4] = {0x400003, 0x400003, 0x000001, 0};
    static const uint32_t hi[4] = {1, 1, 0x7FFFFE, 0};
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[0][l] = a[l % 4];
        t->sfpu.lreg[1][l] = b[l % 4];
    }
    RUN(TT_OP_SFPMUL24(0, 1, 9, 2, 0), TT_OP_SFPMUL24(0, 1, 9, 3, 1));
    for (unsigned l = 0; l < 32; l++) {
        expect_lane(2, l, lo[l % 4]);
        expect_lane(3, l, hi[l % 4]);
    }
}

/* Mul24ShiftAdd (BH:SFPMUL24.md) with VC other than 9, on p = 0x400003 (low of 0x400001 * 3):
 * z's significand << 3 (zg) goes against exponent 129 (shifts taken mod 32):
 *   0.25 + 2^-25 (0x3E800001, exponent 125): zg = 0x4000008 >> 4 = 0x400000, 8 dropped (not
 *     above 0xFFFF): p + 0x400000 = 0x800003, cut to 23 bits: 0x000003;
 *   1.0 (exponent 127): 0x4000000 >> 2 = 0x1000000: cut, p unchanged;
 *   16.0 (exponent 131): p >> 2 = 0x100000, + 0x4000000 cut: 0x100000;
 *   exponent 109, mantissa all ones (0x36FFFFFF): zg = 0x7FFFFF8 >> 20 = 0x7F, 0xFFFF8
 *     dropped (above 0xFFFF): p + 0x7F + 0x10000 = 0x410082;
 *   exponent 97 + 2^-53 (0x30800001): shift (129 - 97) mod 32 = 0: p + 0x4000008 cut: p + 8;
 *   0 or a denormal (exponent 0): p. */
Test(sfpu_mad, mul24_shift_add)
{
    static const uint32_t z[6] = {0x3E800001, ONE, 0x41800000, 0x36FFFFFF, 0x30800001, 0x00400000};
    static const uint32_t want[6] = {0x000003, 0x400003, 0x100000, 0x410082, 0x40000B, 0x400003};
    fill(0, 0x00400001);
    fill(1, 3);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[2][l] = z[l % 6];
    RUN(TT_OP_SFPMUL24(0, 1, 2, 4, 0));
    for (unsigned l = 0; l < 32; l++)
        expect_lane(4, l, want[l % 6]);
}

/* Mul24ShiftAdd when z's exponent is 161 or more: p moves right by (exponent - 129) mod 32, not
 * by the full difference (which would leave 0 from 32 places on); z is not shifted. p = 0x400003:
 *   exponent 161 (0x50800000): p >> 0, + 0x4000000 cut: p unchanged;
 *   exponent 162 (0x51000000): p >> 1 = 0x200001, + 0x4000000 cut: 0x200001;
 *   exponent 162, mantissa all ones (0x517FFFFF): 0x200001 + 0x7FFFFF8 = 0x81FFFF9, cut: 0x1FFFF9;
 *   exponent 170 (0x55000000): p >> 9 = 0x2000, + 0x4000000 cut: 0x2000;
 *   exponent 160 (0x50000000): p >> 31 = 0, + 0x4000000 cut: 0;
 *   -Inf (0xFF800000, exponent 255): p >> 30 = 0, + 0x4000000 cut: 0 (the sign is not read);
 *   a NaN (0x7FC00001): p >> 30 = 0, + 0x6000008 cut: 8. */
Test(sfpu_mad, mul24_shift_add_large_exponents)
{
    static const uint32_t z[7] = {0x50800000, 0x51000000, 0x517FFFFF, 0x55000000,
                                  0x50000000, 0xFF800000, 0x7FC00001};
    static const uint32_t want[7] = {0x400003, 0x200001, 0x1FFFF9, 0x2000, 0, 0, 8};
    fill(0, 0x00400001);
    fill(1, 3);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[2][l] = z[l % 7];
    RUN(TT_OP_SFPMUL24(0, 1, 2, 4, 0));
    for (unsigned l = 0; l < 32; l++)
        expect_lane(4, l, want[l % 7]);
}

/* INDIRECT_VA / INDIRECT_VD from LReg[7]; disabled lanes and VD 8 keep everything. */
Test(sfpu_mad, mul24_indirect_and_lanes)
{
    fill(0, 5);
    fill(1, 7);
    fill(2, 11);
    fill_old(3);
    fill_old(4);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = l & 1 ? 0x10 : 0x21; /* a = LReg[0] (odd) or LReg[1] (even) */
    RUN(TT_OP_SFPMUL24(9, 2, 9, 3, 4)); /* VA 9 ignored */
    for (unsigned l = 0; l < 32; l++)
        expect_lane(3, l, l & 1 ? 55 : 77);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = l & 1 ? 4 : 9; /* odd lanes write LReg[4], even ones nowhere */
    enable_only(6, 0x0000FFFFu);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 6, 0, NE0), TT_OP_SFPMUL24(0, 2, 9, 1, 8 | 1),
        TT_OP_SFPMUL24(0, 2, 9, 8, 0));
    for (unsigned l = 0; l < 32; l++) {
        expect_lane(4, l, (l & 1) && l < 16 ? 0 : old(4, l)); /* 5 * 11 >> 23 = 0 */
        expect_lane(1, l, 7);
    }
}

/* ---- SFPLUT ---- */

/* Coefficients (SFPLUT.md Lut8ToFp32: sign, 3-bit exponent below 2^0, 4 mantissa bits; 0xFF =
 * 0): LReg[0] = 0xDEAD0010 (bits above 15 unread): a = lut8(0x00) = 1.0, c = lut8(0x10) = 0.5;
 * LReg[1] = 0x8020: a = lut8(0x80) = -1.0, c = lut8(0x20) = 0.25; LReg[2] = 0x11FF:
 * a = lut8(0x11) = 0.5 + 1/32 = 0x3F080000, c = lut8(0xFF) = 0. */
static const uint32_t lut_l3[16] = {
    0x3F000000, 0x3F7FFFFF, 0x3F800000, 0xBF800000, 0x3FFFFFFF, 0x40000000, INF,        QNAN,
    0x00400000, NZERO,      0xC0400000, 0x3E000000, 0xFF800000, 0xC0000000, 0x3FC00000, 0x7F7FFFFF,
};
static uint32_t lut_want(unsigned k, bool sign_retain)
{
    uint32_t d;
    switch (k) {
    case 0: d = ONE; break;        /* 0.5 + 0.5 */
    /* (1 - 2^-24) + 0.5: sum 0xBFFFFF8 at exponent 126, one right shift: kept 0x3FFFFF, below
     * 0b100 (a tie), odd: up, 1.5 */
    case 1: d = 0x3FC00000; break;
    case 2: d = 0xBF400000; break; /* 1.0 is in [1, 2): -1 + 0.25 */
    case 3: d = 0xBF400000; break; /* |-1.0| the same */
    case 4: d = 0xBFDFFFFF; break; /* -(2 - 2^-23) + 0.25 = -(1.75 - 2^-23), exact */
    case 5: d = 0x3F880000; break; /* 2.0 in [2, ...): 0.53125 * 2 */
    case 6: d = INF; break;
    /* NaN sorts above 2.0: 0.53125 * NaN. Wormhole: NaN bits 0x7F800001 and the product
     * 0x880000 * 0xC00000 >> 20 = 0x6600000 at exponent 126 + 255 - 127 = 254: 0x7F4C0000,
     * ORed in: 0x7FCC0001 */
    case 7: d = wh ? 0x7FCC0001 : QNAN; break;
    case 8: d = HALF; break;       /* a denormal |LReg[3]| is < 1, and reads as 0: c */
    case 9: d = HALF; break;       /* -0 */
    case 10: d = 0x3FCC0000; break; /* 0.53125 * 3 = 1.59375 */
    case 11: d = 0x3F200000; break; /* 0.125 + 0.5 = 0.625 */
    case 12: d = INF; break;        /* |-Inf| */
    case 13: d = 0x3F880000; break; /* |-2| */
    case 14: d = 0xBFA00000; break; /* -1.5 + 0.25 = -1.25 */
    /* max * 0.53125: P = 0xFFFFFF * 0x880000 = 0x87FFFF780000, P >> 20 = 0x87FFFF7 (low 20
     * bits non-zero: bit 0 set, already) at exponent 254 + 126 - 127 = 253; bit 27 leads:
     * shift 1 (dropping a 1: sticky) to 0x43FFFFB at 254, kept 0x07FFFF, below 0b011: down */
    default: d = 0x7F07FFFF; break;
    }
    if (sign_retain)
        d = (d & 0x7FFFFFFFu) | (lut_l3[k] & NZERO);
    return d;
}
static void lut_setup(void)
{
    fill(0, 0xDEAD0010);
    fill(1, 0x00008020);
    fill(2, 0x000011FF);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[3][l] = lut_l3[l % 16];
}
/* Each range boundary, the sign and every Mod0: 0 plain, 4 SGN_RETAIN; bits 0 and 1 unread. */
static void lut_ranges(void)
{
    lut_setup();
    RUN(TT_OP_SFPLUT(4, 0), TT_OP_SFPNOP, TT_OP_SFPLUT(5, 4), TT_OP_SFPNOP, TT_OP_SFPLUT(6, 3),
        TT_OP_SFPNOP, TT_OP_SFPLUT(7, 7));
    for (unsigned l = 0; l < 32; l++) {
        expect_lane(4, l, lut_want(l % 16, false));
        expect_lane(5, l, lut_want(l % 16, true));
        expect_lane(6, l, lut_want(l % 16, false));
        expect_lane(7, l, lut_want(l % 16, true));
    }
}
Test(sfpu_mad, lut_ranges) { lut_ranges(); }
Test(sfpu_mad_wh, lut_ranges) { lut_ranges(); }

/* INDIRECT_VD (Mod0 8), disabled lanes, VD 8..11 */
static void lut_destinations(void)
{
    lut_setup();
    fill_old(4);
    fill_old(5);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = l < 16 ? 4 : 13; /* lanes 16.. write nothing */
    enable_only(6, 0xFFFF00FFu);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 6, 0, NE0), TT_OP_SFPLUT(5, 8 | 4), TT_OP_SFPLUT(9, 0));
    for (unsigned l = 0; l < 32; l++) {
        expect_lane(4, l, l < 8 ? lut_want(l % 16, true) : old(4, l));
        expect_lane(5, l, old(5, l));
    }
    cr_expect_eq(t->sfpu.lreg[9][0], 0);
}
Test(sfpu_mad, lut_destinations) { lut_destinations(); }
Test(sfpu_mad_wh, lut_destinations) { lut_destinations(); }

/* SFPLUT's VD is bits 23..20: VD 12 writes InstructionTemplate[0] where the backdoor is on and
 * runs the model (nothing written, VD >= 8) where it is off; the dispatch reads SFPLUT's VD
 * from its own bits (sfpu_field_vd). */
static void lut_backdoor(void)
{
    lut_setup();
    const uint32_t w = TT_OP_SFPLUT(12, 4);
    uint32_t before[SFPU_LREGS][SFPU_LANES];
    memcpy(before, t->sfpu.lreg, sizeof before);
    RUN(TT_OP_SFPCONFIG(0x0003, 15, 9), TT_OP_SFPNOP, w); /* column 0: backdoor off */
    cr_expect(memcmp(before, t->sfpu.lreg, sizeof before) == 0);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.macro[l].instruction_template[0], (l & 7) ? w : 0, "lane %u", l);
    /* bits 7..4 are not SFPLUT's: 0xC (12 at SFPIADD's VD) neither makes a template nor stops */
    tile_reset(t);
    lut_setup();
    RUN(TT_OP_SFPLUT(4, 0) | 0xC0u);
    expect_lane(4, 0, ONE);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.macro[l].instruction_template[0], 0, "lane %u", l);
}
Test(sfpu_mad, lut_backdoor) { lut_backdoor(); }
Test(sfpu_mad_wh, lut_backdoor) { lut_backdoor(); }

/* Every Lut8 code, from the page's value table: (1 + Man/16) * 2^-Exp with the sign, 0xFF is 0
 * (0x7F is not: +0.0151367). With |LReg[3]| = 0 the result is c alone (a zero product leaves
 * z); with |LReg[3]| = 0.5 and c = 0xFF it is a / 2, exact. */
static uint32_t lut8_value(unsigned code)
{
    if (code == 0xFF)
        return 0;
    const float v = ldexpf(1.0f + (float)(code & 15) / 16.0f, -(int)(code >> 4 & 7));
    uint32_t bits;
    memcpy(&bits, &v, 4);
    return bits | (code >> 7) << 31;
}
static void lut8_codes(void)
{
    for (unsigned first = 0; first < 256; first += 32) {
        for (unsigned l = 0; l < 32; l++) {
            t->sfpu.lreg[0][l] = first + l;                 /* c */
            t->sfpu.lreg[1][l] = (first + l) << 8 | 0xFF;   /* a, c = 0 */
        }
        fill(3, 0);
        RUN(TT_OP_SFPLUT(4, 0));
        fill(3, 0x3F000000); /* 0.5 still selects LReg[0]: copy LReg[1] there */
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[0][l] = t->sfpu.lreg[1][l];
        RUN(TT_OP_SFPLUT(5, 0));
        for (unsigned l = 0; l < 32; l++) {
            const unsigned code = first + l;
            expect_lane(4, l, lut8_value(code));
            /* a / 2: the exponent less one; 0xFF * 0.5 + 0 = +0 */
            expect_lane(5, l, code == 0xFF ? 0 : lut8_value(code) - 0x00800000u);
        }
    }
}
Test(sfpu_mad, lut8_codes) { lut8_codes(); }
Test(sfpu_mad_wh, lut8_codes) { lut8_codes(); }

/* ---- SFPLUTFP32 ---- */

static uint32_t lutfp32(unsigned vd, unsigned mod1)
{
    return wh ? TT_OP_SFPLUTFP32_WH(vd, mod1) : TT_OP_SFPLUTFP32_BH(0, vd, mod1);
}

/* FP32_3ENTRY (Mod1 0; 1 too, bit 0 being unread without bit 1): a = LReg[i], c = LReg[4 + i]:
 * 2b + 1 below 1, 3 - b below 2, 0.5b - 0.5 above; SGN_RETAIN (4); INDIRECT_VD (8). */
static const uint32_t fp32_l3[8] = {HALF, 0xBF800000, 0x3FC00000, 0x40400000,
                                    QNAN, 0x3F7FFFFF, NZERO,      0x40000000};
static const uint32_t fp32_want[8] = {
    TWO,        /* 2 * 0.5 + 1 */
    TWO,        /* |-1| in [1, 2): 3 - 1 */
    0x3FC00000, /* 3 - 1.5 */
    ONE,        /* 0.5 * 3 - 0.5 */
    0,          /* NaN: above 2 (set per arch below) */
    /* 2 * (1 - 2^-24) + 1 = 3 - 2^-23: P >> 20 = 0x7FFFFF8 at 127, z 0x4000000 at 127: sum
     * 0xBFFFFF8, shift 1: kept 0x3FFFFF, below 0b100, odd: up to 3.0 */
    0x40400000,
    ONE,        /* -0: 0 + 1 */
    HALF,       /* 0.5 * 2 - 0.5 */
};
static void lutfp32_fp32(void)
{
    fill(4, ONE);
    fill(5, 0x40400000);
    fill(6, 0xBF000000);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = l < 16 ? 3 : 12; /* INDIRECT_VD: LReg[3] in lanes 0..15 */
    /* Mod1 0 into LReg[0], 1 into LReg[1], SGN_RETAIN into LReg[2], INDIRECT_VD (VD 5 ignored)
     * into LReg[3]: each from fresh tables, as each overwrites one */
    const uint32_t w[4] = {lutfp32(0, 0), lutfp32(1, 1), lutfp32(2, 4), lutfp32(5, 8)};
    for (unsigned k = 0; k < 4; k++) {
        fill(0, TWO);
        fill(1, 0xBF800000);
        fill(2, HALF);
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[3][l] = fp32_l3[l % 8];
        const uint32_t one[] = {w[k]};
        cr_assert_eq(run_tensix(t, one, 1, 100000), ERR_NONE, "%s", t->err.text);
        for (unsigned l = 0; l < 32; l++) {
            uint32_t d = fp32_want[l % 8];
            /* 0.5 * NaN - 0.5; Wormhole: 0x7F800001 | the product 0x6000000 at 254 (0x7F400000) */
            if (l % 8 == 4)
                d = wh ? 0x7FC00001 : QNAN;
            if (k == 2)
                d = (d & 0x7FFFFFFFu) | (fp32_l3[l % 8] & NZERO);
            if (k == 3 && l >= 16)
                d = fp32_l3[l % 8];
            expect_lane(k, l, d);
        }
        expect_lane(5, 0, 0x40400000);
    }
}
Test(sfpu_mad, lutfp32_fp32) { lutfp32_fp32(); }
Test(sfpu_mad_wh, lutfp32_fp32) { lutfp32_fp32(); }

/* FP16 tables (SFPLUTFP32.md Lut16ToFp32: exponent + 112, exponent 31 -> 0, exponent 0 not
 * special). Six entries: the low half of LReg[i] / LReg[4 + i] below the mid-point of range i
 * (0.5, 1.5, then 3.0 for TABLE1 or 4.0 for TABLE2), the high half above:
 *   [0, 0.5): a 1.0 (0x3C00), c +0 (0x7C00: Inf reads as 0)
 *   [0.5, 1): a 2.0 (0x4000), c -1.0 (0xBC00)
 *   [1, 1.5): a 0.5 (0x3800), c 2^-15 (0x0000: exponent 0 is 2^(0 + 112 - 127))
 *   [1.5, 2): a -1.0 (0xBC00), c 4.0 (0x4400)
 *   [2, mid): a 1.0 (0x3C00), c 0.25 (0x3400)
 *   [mid, ..): a -0 (0xFC00), c 8.0 (0x4800) */
static const uint32_t fp16_l3[12] = {0x3E800000, HALF, 0x3F400000, ONE, 0x3FC00000, TWO,
                                     0x40400000, 0x40600000, 0x40800000, 0x3EFFFFFF,
                                     0xBF400000, 0x3F7FFFFF};
static uint32_t fp16_want(unsigned k, bool table2)
{
    switch (k) {
    case 0: return 0x3E800000; /* 0.25 * 1 + 0 */
    case 1: return 0;          /* 0.5 * 2 - 1 = 0 exactly: +0 */
    case 2: return HALF;       /* 0.75 * 2 - 1 */
    /* 1 * 0.5 + 2^-15: z's 0x4000000 at exponent 112 shifted 14 to 0x1000: exact, 0x3F000200 */
    case 3: return 0x3F000200;
    case 4: return 0x40200000; /* -1.5 + 4 = 2.5 */
    case 5: return 0x40100000; /* 2 + 0.25 */
    case 6: return table2 ? 0x40500000 : 0x41000000; /* 3 + 0.25, or -0 * 3 + 8 */
    case 7: return table2 ? 0x40700000 : 0x41000000; /* 3.5 + 0.25, or 8 */
    case 8: return 0x41000000;                       /* 4: above both */
    case 9: return 0x3EFFFFFF;                       /* just below 0.5: b * 1 + 0 */
    case 10: return HALF;                            /* |-0.75| */
    /* just below 1: 2 * (1 - 2^-24) - 1 = 1 - 2^-23, exact: 0x3F7FFFFE */
    default: return 0x3F7FFFFE;
    }
}
static void fp16_setup(void)
{
    fill(0, 0x40003C00);
    fill(4, 0xBC007C00);
    fill(1, 0xBC003800);
    fill(5, 0x44000000);
    fill(2, 0xFC003C00);
    fill(6, 0x48003400);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[3][l] = fp16_l3[l % 12];
}
static void lutfp32_fp16_six(void)
{
    fp16_setup();
    fill_old(7);
    RUN(lutfp32(7, 2));
    for (unsigned l = 0; l < 32; l++)
        expect_lane(7, l, fp16_want(l % 12, false));
    fp16_setup();
    RUN(lutfp32(7, 3));
    for (unsigned l = 0; l < 32; l++)
        expect_lane(7, l, fp16_want(l % 12, true));
    fp16_setup();
    RUN(lutfp32(7, 6)); /* TABLE1 with SGN_RETAIN: lane 10 (-0.75) gets -0.5 */
    for (unsigned l = 0; l < 32; l++)
        expect_lane(7, l, l % 12 == 10 ? 0xBF000000 : fp16_want(l % 12, false));
}
Test(sfpu_mad, lutfp32_fp16_six_entries) { lutfp32_fp16_six(); }
Test(sfpu_mad_wh, lutfp32_fp16_six_entries) { lutfp32_fp16_six(); }

/* Lut16ToFp32 over every exponent with a few mantissas: (1 + Man/1024) * 2^(Exp - 15) for
 * exponents 0..30 (0 included: not FP16's denormals), and exponent 31 a zero or a denormal,
 * which the datapath reads as 0. FP16_3ENTRY with |LReg[3]| = 0: the result is c, the low half
 * of LReg[0] (a = the high half, 0x3C00, times 0); a zero c gives +0. */
static uint32_t lut16_value(unsigned code)
{
    const unsigned e = code >> 10 & 31, m = code & 0x3FF;
    if (e == 31)
        return 0;
    const float v = ldexpf(1.0f + (float)m / 1024.0f, (int)e - 15);
    uint32_t bits;
    memcpy(&bits, &v, 4);
    return bits | (code >> 15) << 31;
}
static void lut16_codes(void)
{
    static const unsigned man[4] = {0, 1, 0x200, 0x3FF};
    for (unsigned sign = 0; sign < 2; sign++)
        for (unsigned m = 0; m < 4; m++) {
            for (unsigned l = 0; l < 32; l++)
                t->sfpu.lreg[0][l] = 0x3C000000u | sign << 15 | l << 10 | man[m];
            fill(3, 0);
            fill(7, 4);
            RUN(lutfp32(4, 10));
            for (unsigned l = 0; l < 32; l++)
                expect_lane(4, l, lut16_value(sign << 15 | l << 10 | man[m]));
        }
}
Test(sfpu_mad, lut16_codes) { lut16_codes(); }
Test(sfpu_mad_wh, lut16_codes) { lut16_codes(); }

/* FP16_3ENTRY (Mod1 10, and 11: bit 0 unread): a, c from the halves of LReg[i] alone; its
 * value overlaps INDIRECT_VD, so it writes LReg[LReg[7] & 15], not LReg[VD] (the pages' hardware
 * bug, both arches). With the tables above: below 1: 2b + 1; below 2: -b + 0.5; above: -0 * b +
 * 1 = 1. LReg[7] = 4 in lanes 0..15, 9 (nothing) above; VD 6 is ignored. */
static void lutfp32_fp16_three(unsigned mod1)
{
    fp16_setup();
    fill_old(6);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[7][l] = l < 16 ? 4 : 9;
    const uint32_t w[] = {lutfp32(6, mod1)};
    cr_assert_eq(run_tensix(t, w, 1, 100000), ERR_NONE, "%s", t->err.text);
    static const uint32_t want[12] = {
        0x3FC00000, TWO, 0x40200000, /* 2 * 0.25 + 1, 2 * 0.5 + 1, 2 * 0.75 + 1 */
        0xBF000000, 0xBF800000,      /* -1 + 0.5, -1.5 + 0.5 */
        ONE, ONE, ONE, ONE,          /* 2, 3, 3.5, 4: 1 */
        /* 2 * (0.5 - 2^-25) + 1 = 2 - 2^-24: P >> 20 = 0x7FFFFF8 at exponent 126 (b's 125 + a's
         * 128 - 127), z 0x4000000 at 127: shift 1, 0x3FFFFFC; sum 0x7FFFFFC, kept 0x7FFFFF,
         * below 0b100, odd: up, 2.0 */
        TWO,
        0x40200000, /* |-0.75| */
        /* 2 * (1 - 2^-24) + 1 = 3 - 2^-23, rounds up to 3 (as in the FP32 table) */
        0x40400000,
    };
    for (unsigned l = 0; l < 32; l++) {
        uint32_t d = want[l % 12];
        if (mod1 & 4) /* SGN_RETAIN */
            d = (d & 0x7FFFFFFFu) | (fp16_l3[l % 12] & NZERO);
        expect_lane(4, l, l < 16 ? d : 0xBC007C00);
        expect_lane(6, l, old(6, l));
    }
}
Test(sfpu_mad, lutfp32_fp16_three_entries)
{
    lutfp32_fp16_three(10);
    tile_reset(t);
    lutfp32_fp16_three(11);
    tile_reset(t);
    lutfp32_fp16_three(14);
}
Test(sfpu_mad_wh, lutfp32_fp16_three_entries) { lutfp32_fp16_three(10); }

/* Lut16ToFp32's exponent 31 with a mantissa is a denormal, read as 0 by the datapath: a = 0x7C01
 * gives c alone. Blackhole's Mod1Mirror steers only the stall logic: 8 there with Mod1 0 still
 * writes LReg[VD]. Disabled lanes keep LReg[VD]. */
Test(sfpu_mad, lutfp32_fp16_specials_mirror_and_lanes)
{
    fill(0, 0x7C013C00); /* [0.5, 1): a = lut16(0x7C01) = 0x00002000 */
    fill(4, 0x3C003C00); /* c = 1.0 */
    fill(3, 0x3F400000);
    fill_old(5);
    enable_only(6, 0xF0F0F0F0u);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 6, 0, NE0), TT_OP_SFPLUTFP32_BH(8, 5, 2));
    for (unsigned l = 0; l < 32; l++)
        expect_lane(5, l, (0xF0F0F0F0u >> l & 1) ? ONE : old(5, l));
}
Test(sfpu_mad_wh, lutfp32_lanes)
{
    fill(0, ONE);
    fill(4, ONE);
    fill(3, HALF);
    fill_old(5);
    enable_only(6, 0x0F0F0F0Fu);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 6, 0, NE0), TT_OP_SFPLUTFP32_WH(5, 0));
    for (unsigned l = 0; l < 32; l++)
        expect_lane(5, l, (0x0F0F0F0Fu >> l & 1) ? 0x3FC00000 : old(5, l));
}
