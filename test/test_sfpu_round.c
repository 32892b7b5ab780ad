/* The vector unit's rounding and conversions (units/sfpu_round.c): SFPSTOCHRND, SFPCAST and
 * Blackhole's SFPARECIP, on Blackhole (suite sfpu_round) and Wormhole B0 (sfpu_round_wh).
 * Expected bits are worked out by hand from the pages' definitions (the tables give the
 * reasoning in their comments); the stochastic cases compute the PRNG states with this file's
 * own LFSR step and decide each lane with a rule stated differently from the model's. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../units/sfpu.h"
#include "harness.h"
#include "sfpu_test.h"
#include "tensix_ops.h"

TestSuite(sfpu_round, .init = setup_bh, .fini = teardown);
TestSuite(sfpu_round_wh, .init = setup_wh, .fini = teardown);

/* SFPSTOCHRND Mod1 */
enum { TF32 = 0, BF16 = 1, F_UINT8 = 2, F_INT8 = 3, I_UINT8 = 4, I_INT8 = 5, F_UINT16 = 6,
       F_INT16 = 7 };
/* rounding: Blackhole's RoundingMode; Wormhole's StochasticRounding bit takes 0 and 1 */
enum { NEAREST = 0, STOCH = 1, TO_ZERO = 2, MODE3 = 3 };

/* SFPSTOCHRND on the suite's architecture. */
static uint32_t rnd(unsigned rounding, unsigned imm5, unsigned vb, unsigned vc, unsigned vd,
                    unsigned use_imm5, unsigned mod1)
{
    return wh ? TT_OP_SFPSTOCHRND_WH(rounding, imm5, vb, vc, vd, use_imm5, mod1)
              : TT_OP_SFPSTOCHRND_BH(rounding, imm5, vb, vc, vd, use_imm5, mod1);
}
/* LReg[1] := rounded LReg[0] */
static uint32_t rnd01(unsigned rounding, unsigned mod1) { return rnd(rounding, 0, 0, 0, 1, 0, mod1); }

struct pair {
    uint32_t in, want;
};

/* Runs `w` (reading LReg[0], writing LReg[1]) over the inputs, 32 lanes at a time on a fresh
 * tile, and checks LReg[1] of every lane that had an input. */
static void check_pairs(uint32_t w, const struct pair *p, unsigned n, const char *what)
{
    for (unsigned base = 0; base < n; base += 32) {
        tile_reset(t);
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[0][l] = p[base + l < n ? base + l : base].in;
        RUN(w);
        for (unsigned l = 0; l < 32 && base + l < n; l++)
            cr_expect_eq(t->sfpu.lreg[1][l], p[base + l].want, "%s: 0x%08x gave 0x%08x, want 0x%08x",
                         what, p[base + l].in, t->sfpu.lreg[1][l], p[base + l].want);
    }
}
#define CHECK(w, table) check_pairs(w, table, N(table), #table)

/* ---- the PRNG (VectorUnit.md "PRNG") ---- */

/* AdvancePRNG's next state, worked out bit by bit: the complement of the parity of bits 31, 21,
 * 1 and 0 comes in at the top as the state shifts right. */
static uint32_t prng_next(uint32_t x)
{
    unsigned parity = ((x >> 31) ^ (x >> 21) ^ (x >> 1) ^ x) & 1;
    return (parity ? 0u : 0x80000000u) | x >> 1;
}

/* Each lane's state after Config.PRNG_SEED is written with `seed` (docs/sfpu.md: 32 steps, then
 * lanes 31 down to 0 take every second state), and the unit seeded so. */
static void seed(uint32_t seed, uint32_t state[32])
{
    uint32_t x = seed;
    for (unsigned i = 0; i < 32; i++)
        x = prng_next(x);
    for (unsigned i = 0; i < 32; i++) {
        x = prng_next(prng_next(x));
        state[31 - i] = x;
    }
    tile_signal(t, SIG_PRNG_SEED, seed, 0);
    for (unsigned l = 0; l < 32; l++)
        cr_assert_eq(t->sfpu.prng[l], state[l], "lane %u seeded", l);
}

/* The PRNG's 23 bits a rounding compares with. */
static uint32_t p23(uint32_t state) { return state & 0x7FFFFF; }

/* ======================= SFPSTOCHRND, round to nearest (both arches) ======================= */

/* FP32 -> BF16 precision (Mod1 1): the low 16 bits go; 0x8000 and more of them round the
 * magnitude up (ties away from zero, not to even); zero and denormals of either sign -> +0,
 * Inf and NaN -> Inf of the sign. */
static const struct pair bf16_nearest[] = {
    {0x3F808000, 0x3F810000}, /* tie: up */
    {0xBF808000, 0xBF810000}, /* tie, negative: magnitude up */
    {0x3F818000, 0x3F820000}, /* tie with an odd kept bit: still up, no ties-to-even */
    {0x3F807FFF, 0x3F800000}, {0x3F80FFFF, 0x3F810000},
    {0x3FFFFFFF, 0x40000000}, /* the carry runs into the exponent */
    {0x7F7FFFFF, 0x7F800000}, /* the largest finite value rounds to Inf */
    {0xFF7F8000, 0xFF800000}, {0x7F7F7FFF, 0x7F7F0000},
    {0x40490FDB, 0x40490000}, {0xC0490FDB, 0xC0490000}, {0x3F800000, 0x3F800000},
    {0x00000000, 0}, {0x80000000, 0}, /* -0 -> +0 */
    {0x00000001, 0}, {0x807FFFFF, 0}, {0x00400000, 0}, /* denormals -> +0 */
    {0x00800000, 0x00800000}, {0x00808000, 0x00810000},
    {0x7F800000, 0x7F800000}, {0xFF800000, 0xFF800000},
    {0x7FC00000, 0x7F800000}, {0x7F800001, 0x7F800000}, /* NaN -> Inf */
    {0xFFFFFFFF, 0xFF800000}, {0xFFC12345, 0xFF800000},
};
/* FP32 -> TF32 precision (Mod1 0): the low 13 bits go, 0x1000 and more round up. */
static const struct pair tf32_nearest[] = {
    {0x3F801000, 0x3F802000}, {0x3F800FFF, 0x3F800000},
    {0xBF803000, 0xBF804000}, /* 0x1000 discarded, kept bit odd: up anyway */
    {0x3F7FF000, 0x3F800000}, /* into the exponent */
    {0x7F7FFFFF, 0x7F800000}, {0x7F7FEFFF, 0x7F7FE000},
    {0x40490FDB, 0x40490000}, {0x40491FDB, 0x40492000},
    {0x00000123, 0}, {0x80000000, 0}, {0x807FFFFF, 0},
    {0x7FC00000, 0x7F800000}, {0xFF800001, 0xFF800000}, {0x7F800000, 0x7F800000},
};

static void float_float_nearest(void)
{
    CHECK(rnd01(NEAREST, BF16), bf16_nearest);
    CHECK(rnd01(NEAREST, TF32), tf32_nearest);
}
Test(sfpu_round, float_float_nearest_ties_away_and_specials) { float_float_nearest(); }
Test(sfpu_round_wh, float_float_nearest_ties_away_and_specials) { float_float_nearest(); }

/* FP32 -> sign-magnitude INT8 (Mod1 3): |x| < 0.5 -> 0 (sign dropped), ties away from zero,
 * clamp to 127 keeping the sign; 2^16 and up, Inf and NaN -> 127 with the sign. */
static const struct pair f_int8_nearest[] = {
    {0x3F000000, 1},          /* 0.5: a tie, away from zero */
    {0xBF000000, 0x80000001}, /* -0.5 -> -1 */
    {0x3EFFFFFF, 0}, {0xBEFFFFFF, 0}, /* just under 0.5: 0, no -0 */
    {0x3F7FFFFF, 1}, {0x3F800000, 1}, {0xBF800000, 0x80000001},
    {0x3FC00000, 2}, {0x40200000, 3}, {0xC0200000, 0x80000003}, /* 1.5, 2.5, -2.5 */
    {0x40300000, 3}, {0x40100000, 2}, /* 2.75, 2.25 */
    {0x42FD0000, 127}, {0x42FF0000, 127}, /* 126.5 -> 127; 127.5 -> 128, clamped */
    {0x43480000, 127}, {0xC3480000, 0x8000007F}, /* +-200 */
    {0x477FFFFF, 127}, {0x47800000, 127}, {0xC7800000, 0x8000007F},
    {0x7F800000, 127}, {0xFF800000, 0x8000007F}, {0x7FC00000, 127}, {0xFFC00000, 0x8000007F},
    {0x80000000, 0}, {0x00000001, 0}, {0x807FFFFF, 0},
};
/* FP32 -> UINT8 (Mod1 2): the same on |x|, clamped to 255. */
static const struct pair f_uint8_nearest[] = {
    {0xC0400000, 3}, {0x437E8000, 255}, {0x437F8000, 255}, {0x437F0000, 255}, /* -3, 254.5, 255.5, 255 */
    {0x437E0000, 254}, {0x437E7FFF, 254}, {0xBF000000, 1}, {0xBEFFFFFF, 0}, {0x80000000, 0},
    {0x47800000, 255}, {0xFF800000, 255}, {0xFFC00000, 255}, {0xC3480000, 200},
};
/* FP32 -> INT16 (Mod1 7), clamp 32767; FP32 -> UINT16 (Mod1 6), clamp 65535. */
static const struct pair f_int16_nearest[] = {
    {0x46FFFD00, 32767}, {0x46FFFF00, 32767}, {0xC6FFFF00, 0x80007FFF}, /* 32766.5, +-32767.5 */
    {0x4640E600, 12346}, {0xC640E600, 0x8000303A}, /* +-12345.5 */
    {0x46FFFE00, 32767}, {0x46FFFC00, 32766}, {0x47800000, 32767}, {0xFF800000, 0x80007FFF},
    {0x3EFFFFFF, 0}, {0x7FC00000, 32767}, {0x80000000, 0},
};
static const struct pair f_uint16_nearest[] = {
    {0x477FFE80, 65535}, {0x477FFF80, 65535}, {0x477FFF00, 65535}, {0x477FFE00, 65534},
    {0x477FFE7F, 65534}, /* 65534.496 */
    {0xBFC00000, 2}, {0x477FFFFF, 65535}, {0x7FC00000, 65535}, {0xC7800000, 65535},
    {0x3EFFFFFF, 0},
};

static void float_int_nearest(void)
{
    CHECK(rnd01(NEAREST, F_INT8), f_int8_nearest);
    CHECK(rnd01(NEAREST, F_UINT8), f_uint8_nearest);
    CHECK(rnd01(NEAREST, F_INT16), f_int16_nearest);
    CHECK(rnd01(NEAREST, F_UINT16), f_uint16_nearest);
}
Test(sfpu_round, float_int_nearest_clamps_and_specials) { float_int_nearest(); }
Test(sfpu_round_wh, float_int_nearest_clamps_and_specials) { float_int_nearest(); }

/* Sign-magnitude integer >> Imm5, rounded to nearest (ties away), INT8 (Mod1 5) clamps to 127
 * keeping the sign, UINT8 (Mod1 4) drops the sign and clamps to 255. */
static const struct pair i_int8_shift2[] = {
    {0x00000180, 96}, {0x00000182, 97}, {0x80000182, 0x80000061}, /* 384/4; +-386/4 = 96.5 */
    {0x00000181, 96}, {0x80000001, 0}, /* 0.25: zero without its sign */
    {0x00000002, 1}, {0x80000002, 0x80000001}, /* 0.5 -> 1 */
    {0x00000200, 127}, {0x800001FE, 0x8000007F}, /* 128; -127.5 -> -128, clamped */
    {0x7FFFFFFF, 127}, {0xFFFFFFFF, 0x8000007F}, {0x80000000, 0},
};
static const struct pair i_uint8_shift2[] = {
    {0x80000300, 192}, {0x000003FE, 255}, {0x000003FD, 255}, {0x000003F9, 254},
    {0x800003FA, 255}, /* -254.5 -> 255 without the sign */
    {0x80000001, 0}, {0x7FFFFFFF, 255},
};
static const struct pair i_int8_shift0[] = {{0x0000007F, 127}, {0x80000080, 0x8000007F}, {5, 5}};
/* shifting by 31 leaves only 0 or 1: 0x40000000 >> 31 is exactly 0.5 */
static const struct pair i_int8_shift31[] = {{0x7FFFFFFF, 1}, {0x40000000, 1}, {0x3FFFFFFF, 0},
                                             {0xC0000000, 0x80000001}};

static void int_int_nearest(void)
{
    CHECK(rnd(NEAREST, 2, 0, 0, 1, 1, I_INT8), i_int8_shift2);
    CHECK(rnd(NEAREST, 2, 0, 0, 1, 1, I_UINT8), i_uint8_shift2);
    CHECK(rnd(NEAREST, 0, 0, 0, 1, 1, I_INT8), i_int8_shift0);
    CHECK(rnd(NEAREST, 31, 0, 0, 1, 1, I_INT8), i_int8_shift31);
}
Test(sfpu_round, int_descale_by_imm5) { int_int_nearest(); }
Test(sfpu_round_wh, int_descale_by_imm5) { int_int_nearest(); }

/* Without UseImm5 the shift is LReg[VB] & 31 per lane (Imm5 ignored), VB any register: a
 * general one, or LReg[15] (lane * 2). */
static void int_int_shift_from_vb(void)
{
    static const uint32_t shift[4] = {33, 0xFFFFFFE2u, 0, 35};
    static const unsigned low5[4] = {1, 2, 0, 3}; /* & 31 */
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[0][l] = 0x80000000u | (1000 + l);
        t->sfpu.lreg[2][l] = shift[l & 3];
    }
    RUN(rnd(NEAREST, 7, 2, 0, 1, 0, I_UINT8), rnd(NEAREST, 7, 15, 0, 3, 0, I_INT8));
    for (unsigned l = 0; l < 32; l++) {
        const unsigned v = 1000 + l, s = low5[l & 3];
        /* v / 2^s to nearest, ties up: (v + half) >> s */
        unsigned want = s ? (v + (1u << (s - 1))) >> s : v;
        cr_expect_eq(t->sfpu.lreg[1][l], want > 255 ? 255 : want, "lane %u", l);
        const unsigned s15 = (2 * l) & 31;
        unsigned q = s15 ? (v + (1u << (s15 - 1))) >> s15 : v;
        q = q > 127 ? 127 : q;
        cr_expect_eq(t->sfpu.lreg[3][l], q ? 0x80000000u | q : 0, "lane %u (LReg[15])", l);
    }
}
Test(sfpu_round, int_descale_by_vb) { int_int_shift_from_vb(); }
Test(sfpu_round_wh, int_descale_by_vb) { int_int_shift_from_vb(); }

/* ============ Blackhole's round to zero (RoundingMode 2), with its documented bugs ============ */

/* The threshold is all ones, so a discarded part of all ones still rounds up
 * (BH:SFPSTOCHRND_FloatFloat.md, _FloatInt.md's three values, _IntInt.md past 22 bits). */
static const struct pair bf16_zero[] = {
    {0x3F80FFFE, 0x3F800000}, {0x3F808000, 0x3F800000}, {0xC0490FDB, 0xC0490000},
    {0x3F80FFFF, 0x3F810000}, {0xBF80FFFF, 0xBF810000}, /* the bug: away from zero */
    {0x7F7FFFFF, 0x7F800000},                           /* ... even to Inf */
    {0x80000000, 0}, {0xFFC00000, 0xFF800000},
};
static const struct pair tf32_zero[] = {
    {0x3F801FFE, 0x3F800000}, {0x3F801000, 0x3F800000}, {0x3F801FFF, 0x3F802000},
};
static const struct pair f_int8_zero[] = {
    {0x3F7FFFFE, 1}, {0x3F7FFFFF, 1}, {0x3FFFFFFF, 2}, /* the page's three values */
    {0x3F7FFFFD, 0}, {0x3FFFFFFE, 1}, {0x407FFFFF, 3},
    {0x40300000, 2}, {0xC0300000, 0x80000002}, {0x3F000000, 0}, /* 2.75, -2.75, 0.5 */
    {0x42FF0000, 127}, {0x40800000, 4}, {0xFF800000, 0x8000007F},
    {0xBF400000, 0}, /* -0.75 -> 0, without a sign */
};
static const struct pair i_int8_zero_shift23[] = {
    {0x007FFFFF, 1}, {0x00FFFFFF, 2}, /* the bug: 23 discarded ones round up */
    {0x007FFFFE, 0}, {0x00800000, 1}, {0x80FFFFFE, 0x80000001},
};
static const struct pair i_int8_zero_shift22[] = {{0x003FFFFF, 0}, {0x007FFFFF, 1}, {0x00400000, 1}};
/* past 23 the lowest bits fall off before the compare: 0xFFFFFE >> 24 keeps 23 ones too */
static const struct pair i_int8_zero_shift24[] = {{0x00FFFFFF, 1}, {0x00FFFFFE, 1}, {0x00FFFFFC, 0}};

Test(sfpu_round, round_to_zero_and_its_bugs)
{
    CHECK(rnd01(TO_ZERO, BF16), bf16_zero);
    CHECK(rnd01(TO_ZERO, TF32), tf32_zero);
    CHECK(rnd01(TO_ZERO, F_INT8), f_int8_zero);
    CHECK(rnd(TO_ZERO, 23, 0, 0, 1, 1, I_INT8), i_int8_zero_shift23);
    CHECK(rnd(TO_ZERO, 22, 0, 0, 1, 1, I_INT8), i_int8_zero_shift22);
    CHECK(rnd(TO_ZERO, 24, 0, 0, 1, 1, I_INT8), i_int8_zero_shift24);
}

/* On Wormhole bit 22 is not part of the encoding: nearest whatever it holds. */
Test(sfpu_round_wh, bit_22_is_ignored)
{
    CHECK(TT_OP_SFPSTOCHRND_WH(0, 0, 0, 0, 1, 0, BF16) | 1u << 22, bf16_nearest);
}

/* ===================== stochastic rounding with the per-lane PRNG ===================== */

/* BF16 precision: lane l's discarded 16 bits D (a fraction D / 2^16) round the magnitude up
 * when the PRNG's 23-bit fraction P lies below the top of D's step: P < (D + 1) * 2^7. Two
 * instructions in a row take each lane's seeded state, then the next one. */
static void bf16_stochastic(unsigned mode)
{
    uint32_t st[32];
    seed(0x0BADCAFEu, st);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[0][l] = (l & 1 ? 0xC0A00000u : 0x3F800000u) | (l * 2048 + 1000);
    RUN(rnd01(mode, BF16), rnd(mode, 0, 0, 0, 2, 0, BF16));
    unsigned ups = 0, downs = 0;
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t in = t->sfpu.lreg[0][l], d = in & 0xFFFF, kept = in - d;
        const uint32_t p1 = p23(st[l]), p2 = p23(prng_next(st[l]));
        const bool up1 = p1 < (d + 1) << 7, up2 = p2 < (d + 1) << 7;
        ups += up1 + up2, downs += !up1 + !up2;
        cr_expect_eq(t->sfpu.lreg[1][l], kept + (up1 ? 0x10000u : 0), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], kept + (up2 ? 0x10000u : 0), "lane %u, second", l);
        cr_expect_eq(t->sfpu.prng[l], prng_next(prng_next(st[l])), "lane %u", l);
    }
    cr_expect(ups && downs, "the inputs should round both ways (%u up, %u down)", ups, downs);
}
Test(sfpu_round, bf16_stochastic) { bf16_stochastic(STOCH); }
/* RoundingMode 3 has no name: the page's switch leaves the PRNG's bits in place */
Test(sfpu_round, rounding_mode_3_is_stochastic) { bf16_stochastic(MODE3); }
Test(sfpu_round_wh, bf16_stochastic) { bf16_stochastic(STOCH); }

/* TF32 precision: 13 bits D, up when P < (D + 1) * 2^10. */
static void tf32_stochastic(void)
{
    uint32_t st[32];
    seed(0x600DF00Du, st);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[0][l] = 0x42000000u | (l * 0x100 + 0x40);
    RUN(rnd01(STOCH, TF32));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t in = t->sfpu.lreg[0][l], d = in & 0x1FFF;
        const bool up = p23(st[l]) < (d + 1) << 10;
        cr_expect_eq(t->sfpu.lreg[1][l], in - d + (up ? 0x2000u : 0), "lane %u", l);
    }
}
Test(sfpu_round, tf32_stochastic) { tf32_stochastic(); }
Test(sfpu_round_wh, tf32_stochastic) { tf32_stochastic(); }

/* FP32 -> INT16 stochastic: -(100 + f), f = l / 32 + 1 / 64 (exact in FP32); the magnitude
 * rounds up when f, as 23 bits of fraction, is >= P, and keeps its sign. Lanes 0..3 hold 0.4
 * instead: |x| < 0.5 is 0 however the PRNG falls. */
static void float_int_stochastic(void)
{
    uint32_t st[32];
    seed(0x13579BDFu, st);
    for (unsigned l = 0; l < 32; l++) {
        const float v = l < 4 ? 0.4f : -(100.0f + (float)l / 32 + 1.0f / 64);
        memcpy(&t->sfpu.lreg[0][l], &v, 4);
    }
    RUN(rnd01(STOCH, F_INT16));
    unsigned ups = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (l < 4) {
            cr_expect_eq(t->sfpu.lreg[1][l], 0, "lane %u", l);
            continue;
        }
        const uint32_t f23 = (uint32_t)(((double)l / 32 + 1.0 / 64) * 8388608.0);
        const bool up = f23 >= p23(st[l]);
        ups += up;
        cr_expect_eq(t->sfpu.lreg[1][l], 0x80000000u | (up ? 101 : 100), "lane %u", l);
    }
    cr_expect(ups > 0 && ups < 28, "%u of 28 rounded up", ups);
}
Test(sfpu_round, float_int_stochastic) { float_int_stochastic(); }
Test(sfpu_round_wh, float_int_stochastic) { float_int_stochastic(); }

/* Integer descale by 4 (Imm5) stochastically: c = 16 q + r, up when r * 2^19 >= P. */
static void int_int_stochastic(void)
{
    uint32_t st[32];
    seed(0xFEEDBEEFu, st);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[0][l] = 16 * 7 + (l & 15) + (l >= 16 ? 0x80000000u : 0);
    RUN(rnd(STOCH, 4, 0, 0, 1, 1, I_INT8));
    for (unsigned l = 0; l < 32; l++) {
        const bool up = (l & 15) << 19 >= p23(st[l]);
        cr_expect_eq(t->sfpu.lreg[1][l], (l >= 16 ? 0x80000000u : 0) | (up ? 8 : 7), "lane %u", l);
    }
}
Test(sfpu_round, int_int_stochastic) { int_int_stochastic(); }
Test(sfpu_round_wh, int_int_stochastic) { int_int_stochastic(); }

/* The documented bias: ">=" against PRNG bits that are all zero rounds even exact values up.
 * Each instruction takes the next state, whose low 23 bits are the previous state's bits 23..1:
 * states 0xAA000000 (bits 24..0 zero) give 0 to all three instructions; 0xAA000087 gives
 * 0x87, 0x43, 0x21 (BF16 compares bits 22..7, so 0x87 is its 1), and exact values stay. */
static void stochastic_bias_on_each_form(void)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.prng[l] = l & 1 ? 0xAA000087u : 0xAA000000u;
    fill(0, 0x3F800000u);
    fill(2, 0x40000000u);
    fill(3, 32);
    RUN(rnd(STOCH, 0, 0, 0, 1, 0, BF16), rnd(STOCH, 0, 0, 2, 4, 0, F_INT8),
        rnd(STOCH, 4, 0, 3, 5, 1, I_UINT8));
    for (unsigned l = 0; l < 32; l++) {
        const bool zero = !(l & 1);
        cr_expect_eq(t->sfpu.lreg[1][l], zero ? 0x3F810000u : 0x3F800000u, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[4][l], zero ? 3u : 2u, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[5][l], zero ? 3u : 2u, "lane %u", l);
    }
}
Test(sfpu_round, stochastic_bias_on_each_form) { stochastic_bias_on_each_form(); }
Test(sfpu_round_wh, stochastic_bias_on_each_form) { stochastic_bias_on_each_form(); }

/* Every enabled lane steps its PRNG once per SFPSTOCHRND in every rounding mode and whatever
 * VD (8..11 write nothing); SFPCAST only in its stochastic mode; SFPARECIP never. Disabled
 * lanes (ROW_MASK here) keep their state and registers. */
static void prng_steps(void)
{
    uint32_t st[32];
    seed(0x2468ACE0u, st);
    t->sfpu.lane_config[1] = 1u << (SFPU_LC_ROW_MASK_SHIFT + 2); /* column 1, row 2: lane 17 */
    fill(0, 0x3F808000u);
    fill_old(1);
    fill_old(2);
    RUN(rnd(NEAREST, 0, 0, 0, 9, 0, BF16), rnd(NEAREST, 0, 0, 0, 1, 0, BF16),
        rnd(NEAREST, 0, 0, 0, 8, 0, F_INT8), TT_OP_SFPCAST(0, 2, 0), TT_OP_SFPCAST(0, 10, 1));
    if (!wh) /* the VD 10 one writes nothing */
        RUN(TT_OP_SFPARECIP(0, 0, 2, 0), TT_OP_SFPARECIP(0, 0, 2, 2), TT_OP_SFPARECIP(0, 0, 10, 2));
    for (unsigned l = 0; l < 32; l++) {
        const bool off = l == 17;
        const uint32_t four = prng_next(prng_next(prng_next(prng_next(st[l]))));
        cr_expect_eq(t->sfpu.prng[l], off ? st[l] : four, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[1][l], off ? old(1, l) : 0x3F810000u, "lane %u", l);
        /* last written by SFPARECIP's exp of 0x3F808000 (table byte 45, low bits kept) on
         * Blackhole, by SFPCAST of its integer 1065385984 (exact) on Wormhole */
        cr_expect_eq(t->sfpu.lreg[2][l], off ? old(2, l) : wh ? 0x4E7E0200u : 0x402D8000u, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[8][l], 0x3F56594Bu);
        cr_expect_eq(t->sfpu.lreg[10][l], 0x3F800000u);
    }
}
Test(sfpu_round, prng_steps_once_per_lane_and_instruction) { prng_steps(); }
Test(sfpu_round_wh, prng_steps_once_per_lane_and_instruction) { prng_steps(); }

/* ================================ SFPCAST: int -> FP32 ================================ */

/* Sign-magnitude to FP32, round to nearest, ties to even (Mod1 0). */
static const struct pair cast_rne[] = {
    {0, 0}, {0x80000000, 0x80000000}, /* +-0 keep their sign */
    {1, 0x3F800000}, {0x80000001, 0xBF800000}, {2, 0x40000000}, {3, 0x40400000},
    {0x80000080, 0xC3000000}, /* -128 */
    {0x00FFFFFF, 0x4B7FFFFF}, {0x01000000, 0x4B800000}, /* exact up to 2^24 */
    {0x01000001, 0x4B800000}, /* 2^24 + 1: a tie, to even (down) */
    {0x01000003, 0x4B800002}, /* 2^24 + 3: a tie, to even (up) */
    {0x01000002, 0x4B800001}, {0x81000003, 0xCB800002},
    {0x02000005, 0x4C000001}, /* 2^25 + 5: 5/4 is nearer 1 */
    {0x7FFFFFFF, 0x4F000000}, /* rounds up into 2^31 */
    {0x7FFFFFC0, 0x4F000000}, /* a tie with an odd kept bit: up */
    {0x7FFFFF80, 0x4EFFFFFF}, {0x7FFFFF40, 0x4EFFFFFE}, /* exact; a tie, even: down */
    {0x7FFFFF41, 0x4EFFFFFF}, /* just above the tie */
    {0x12345678, 0x4D91A2B4}, /* 305419896 -> 305419904 */
    {0xFFFFFFFF, 0xCF000000},
};
static void cast_nearest(void) { CHECK(TT_OP_SFPCAST(0, 1, 0), cast_rne); }
Test(sfpu_round, cast_round_to_nearest_even) { cast_nearest(); }
Test(sfpu_round_wh, cast_round_to_nearest_even) { cast_nearest(); }

/* Stochastic (Mod1 1) on magnitudes 2^30..2^31 - 1: the float keeps bits 30..7 (so the value
 * truncated is 0x4E800000 + (mag >> 7) - 2^23), and bits 6..0 round it up when they exceed PRNG
 * bits 16..10. Lanes 28..31 hold exact values (bits 6..0 zero) and zero, which never round up
 * here (strictly greater), yet advance the PRNG. */
static void cast_stochastic(void)
{
    uint32_t st[32];
    seed(0x31415926u, st);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[0][l] = l < 28 ? 0x40000000u | (l * 0x0123456Bu & 0x3FFFFFFFu) | (l & 1) << 31
                             : l < 30 ? 0x40000080u : l == 30 ? 0 : 0x80000000u;
    RUN(TT_OP_SFPCAST(0, 1, 1));
    unsigned ups = 0;
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t c = t->sfpu.lreg[0][l], mag = c & 0x7FFFFFFFu;
        uint32_t want;
        if (!mag) {
            want = c;
        } else {
            const bool up = (mag & 0x7F) > (st[l] >> 10 & 0x7F);
            ups += up;
            want = (c & 0x80000000u) + 0x4E800000u + (mag >> 7) - 0x800000u + up;
        }
        cr_expect_eq(t->sfpu.lreg[1][l], want, "lane %u: 0x%08x", l, c);
        cr_expect_eq(t->sfpu.prng[l], prng_next(st[l]), "lane %u", l);
    }
    cr_expect(ups > 0 && ups < 28, "%u rounded up", ups);
}
Test(sfpu_round, cast_stochastic) { cast_stochastic(); }
Test(sfpu_round_wh, cast_stochastic) { cast_stochastic(); }

/* Stochastic rounding up needs the dropped bits 7..1 strictly above PRNG bits 16..10: equal
 * stays (states set directly: bits 16..10 = 0x35 in every lane). */
static void cast_stochastic_strictly_greater(void)
{
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.prng[l] = 0x35u << 10 | (l & 1 ? 0x3FFu : 0) | 0xF0000000u;
        /* 2^30 + k: dropped bits 6..0 of the magnitude are k */
        t->sfpu.lreg[0][l] = 0x40000000u | (l < 16 ? 0x35 : l < 24 ? 0x36 : 0x34);
    }
    RUN(TT_OP_SFPCAST(0, 1, 1));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[1][l], l < 16 || l >= 24 ? 0x4E800000u : 0x4E800001u, "lane %u", l);
}
Test(sfpu_round, cast_stochastic_strictly_greater) { cast_stochastic_strictly_greater(); }
Test(sfpu_round_wh, cast_stochastic_strictly_greater) { cast_stochastic_strictly_greater(); }

/* Blackhole's integer modes: Mod1 3 swaps sign-magnitude and two's complement (-0 <-> -2^31),
 * Mod1 2 is a two's complement abs (-2^31 stays). Mod1 bits 2 and 3 are not read. */
static const struct pair cast_sm_twos[] = {
    {5, 5}, {0x80000005, 0xFFFFFFFB}, {0xFFFFFFFB, 0x80000005}, {0x80000000, 0x80000000},
    {0, 0}, {0x7FFFFFFF, 0x7FFFFFFF}, {0x80000001, 0xFFFFFFFF}, {0xFFFFFFFF, 0x80000001},
};
static const struct pair cast_abs[] = {
    {0xFFFFFFFB, 5}, {5, 5}, {0x80000000, 0x80000000}, {0x80000001, 0x7FFFFFFF}, {0, 0},
    {0xBF800000, 0x40800000},
};
Test(sfpu_round, cast_integer_modes)
{
    CHECK(TT_OP_SFPCAST(0, 1, 3), cast_sm_twos);
    CHECK(TT_OP_SFPCAST(0, 1, 7), cast_sm_twos);
    CHECK(TT_OP_SFPCAST(0, 1, 15), cast_sm_twos);
    CHECK(TT_OP_SFPCAST(0, 1, 2), cast_abs);
    CHECK(TT_OP_SFPCAST(0, 1, 14), cast_abs);
    CHECK(TT_OP_SFPCAST(0, 1, 4), cast_rne);
    CHECK(TT_OP_SFPCAST(0, 1, 12), cast_rne);
}
/* Wormhole reads Mod1 bit 0 only: 2 and 14 are round to nearest, 3 stochastic. */
Test(sfpu_round_wh, cast_reads_mod1_bit_0_only)
{
    CHECK(TT_OP_SFPCAST(0, 1, 2), cast_rne);
    CHECK(TT_OP_SFPCAST(0, 1, 14), cast_rne);
    uint32_t st[32];
    tile_reset(t);
    seed(0x31415926u, st);
    fill(0, 0x40000041u);
    RUN(TT_OP_SFPCAST(0, 1, 3));
    for (unsigned l = 0; l < 32; l++) {
        const bool up = 0x41 > (st[l] >> 10 & 0x7F);
        cr_expect_eq(t->sfpu.lreg[1][l], 0x4E800000u + up, "lane %u", l);
        cr_expect_eq(t->sfpu.prng[l], prng_next(st[l]));
    }
}

/* ============================== SFPARECIP (Blackhole) ============================== */

/* Reciprocal (Mod1 0): sign * ApproxRecip(|x|). */
static const struct pair recip[] = {
    {0x3F800000, 0x3F7F0000}, {0xBF800000, 0xBF7F0000}, /* +-1 -> +-0.99609375 (the page) */
    {0x3F80FFFF, 0x3F7F0000},                           /* mantissa bits 15..0 are not read */
    {0x40000000, 0x3EFF0000}, {0x40400000, 0x3EAA0000}, /* 2 -> 0.498; 3 -> 0.33203125 */
    {0x3FFFFFFF, 0x3F000000},
    {0x00000000, 0x7F800000}, {0x80000000, 0xFF800000}, /* +-0 -> +-Inf */
    {0x00000001, 0x7F800000}, {0x807FFFFF, 0xFF800000}, /* denormals too */
    {0x00800000, 0x7E7F0000},                           /* 2^-126 -> 2^125 * 1.99 */
    {0x7E7FFFFF, 0x00800000},                           /* just under 2^126 -> 2^-126 */
    {0x7E800000, 0}, {0xFE800000, 0x80000000},          /* 2^126 and up -> +-0 */
    {0x7F800000, 0}, {0xFF800000, 0x80000000}, {0x7FC00000, 0}, {0xFFC00000, 0x80000000},
};
Test(sfpu_round, arecip_values_and_specials) { CHECK(TT_OP_SFPARECIP(0, 0, 1, 0), recip); }

/* Every table entry at several exponents: the result's exponent is 253 - e and its 7 mantissa
 * bits round(2^15 / (128.5 + i)) - 128 for mantissa bucket i (2/m at the bucket's middle; this
 * formula matches all 128 entries of the page's table), within the page's stated bounds
 * 0.9944 / x < r < 1.0054 / x. */
Test(sfpu_round, arecip_every_table_entry_within_the_bounds)
{
    static const uint32_t exps[] = {1, 60, 127, 200, 252};
    for (unsigned e = 0; e < N(exps); e++) {
        for (unsigned base = 0; base < 128; base += 32) {
            tile_reset(t);
            for (unsigned l = 0; l < 32; l++)
                t->sfpu.lreg[0][l] = exps[e] << 23 | (base + l) << 16 | (l * 0x9E37u & 0xFFFF);
            RUN(TT_OP_SFPARECIP(0, 0, 1, 0));
            for (unsigned l = 0; l < 32; l++) {
                const unsigned i = base + l, den = 257 + 2 * i;
                const uint32_t man = (2 * 65536 + den) / (2 * den) - 128;
                const uint32_t want = (253 - exps[e]) << 23 | man << 16;
                cr_expect_eq(t->sfpu.lreg[1][l], want, "exp %u entry %u: 0x%08x", exps[e], i,
                             t->sfpu.lreg[1][l]);
                float x, r;
                memcpy(&x, &t->sfpu.lreg[0][l], 4);
                memcpy(&r, &t->sfpu.lreg[1][l], 4);
                cr_expect(0.9944 / x < r && r < 1.0054 / x, "1/%g: %g", x, r);
            }
        }
    }
}

/* Conditional reciprocal (Mod1 1): where LReg[VB] is negative as an integer (-0.0 counts),
 * ApproxRecip(|x|) without the sign; elsewhere x itself. */
Test(sfpu_round, arecip_conditional)
{
    static const uint32_t vb[4] = {0xFFFFFFFFu, 0x80000000u, 0, 1};
    static const uint32_t x[8] = {0xC0000000u, 0x40000000u, 0x80000000u, 0x7FC00000u,
                                  0x3F800000u, 0xFF800000u, 0x00000001u, 0xBF800000u};
    static const uint32_t recip_abs[8] = {0x3EFF0000u, 0x3EFF0000u, 0x7F800000u, 0,
                                          0x3F7F0000u, 0, 0x7F800000u, 0x3F7F0000u};
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[0][l] = x[l & 7];
        t->sfpu.lreg[2][l] = vb[l >> 3];
    }
    RUN(TT_OP_SFPARECIP(2, 0, 1, 1));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[1][l], l < 16 ? recip_abs[l & 7] : x[l & 7], "lane %u", l);
}

/* Exponential (Mod1 2 and every value above): sign * ApproxExp(|x|). Table bytes from the
 * page: index 0 (2^-6) 2, 128 (2^-5) 4, 512 (0.25) 36, 640 (0.5) 83, 689 127, 690 0,
 * 768 (1.0) 45, 783 (0x3F8F) 67, 895 (0x3FFF) 234. */
static const struct pair exp_values[] = {
    {0x3F800000, 0x402D0000}, {0xBF800000, 0xC02D0000}, /* +-1 -> +-2.703125 (the page) */
    {0x00000000, 0x3F800000}, {0x80000000, 0xBF800000}, {0x00000001, 0x3F800000},
    {0x807FFFFF, 0xBF800000},
    {0x3C000000, 0x3F810000}, {0x3C00ABCD, 0x3F81ABCD}, {0x3C7FFFFF, 0x3F81FFFF}, /* < 2^-6 */
    {0x3C800000, 0x3F820000}, {0x3D000000, 0x3F840000}, {0x3E800000, 0x3FA40000},
    {0x3F000000, 0x3FD30000}, {0x3F00BEEF, 0x3FD3BEEF},
    {0x3F310000, 0x3FFF0000}, {0x3F320000, 0x40000000}, /* either side of 0.6953125 */
    {0x3F8F1234, 0x40431234},
    {0x3FFF0000, 0x40EA0000}, /* byte 234 sets the exponent's low bit: 7.3125 */
    {0x40000000, 0x40800000}, {0x7F800000, 0x40800000}, /* 2 and up: 4.0 | low bits */
    {0x7FC00001, 0x40800001}, {0xFFC00001, 0xC0800001}, {0x4B00ABCD, 0x4080ABCD},
};
Test(sfpu_round, arecip_exp_values)
{
    CHECK(TT_OP_SFPARECIP(0, 0, 1, 2), exp_values);
    CHECK(TT_OP_SFPARECIP(0, 0, 1, 3), exp_values);
    CHECK(TT_OP_SFPARECIP(0, 0, 1, 15), exp_values);
}

/* Every bucket of the exp table, x = its top 16 bits with low bits 0, 0x8000 and 0xFFFF, and
 * below 2^-6: within the page's bound 0.9922 e^x < ApproxExp(x) < 1.016 e^x; the table bytes
 * (the result less 1.0 or 2.0, >> 16) never fall within a segment; and they add up, 64 at a
 * time, to the sums of the page's table (worked from the page, so a wrong entry shows). */
Test(sfpu_round, arecip_exp_table_bounds_order_and_sums)
{
    static const unsigned sums[14] = {130, 195, 295, 428, 632, 911, 1352,
                                      1968, 2966, 4459, 5246, 1608, 6064, 11828};
    unsigned sum[14] = {0}, prev = 0;
    for (uint32_t top = 0x3C00; top < 0x4000; top += 32) {
        tile_reset(t);
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[0][l] = (top + l) << 16 | (l % 3 == 0 ? 0 : l % 3 == 1 ? 0x8000 : 0xFFFF);
        RUN(TT_OP_SFPARECIP(0, 0, 1, 2));
        for (unsigned l = 0; l < 32; l++) {
            const uint32_t xb = t->sfpu.lreg[0][l], rb = t->sfpu.lreg[1][l];
            float x, r;
            memcpy(&x, &xb, 4);
            memcpy(&r, &rb, 4);
            const double e = exp((double)x);
            cr_expect(0.9922 * e < r && r < 1.016 * e, "e^%.9g: %.9g", x, r);
            cr_expect_eq(rb & 0xFFFF, xb & 0xFFFF, "x's low bits carried: 0x%08x", xb);
            const unsigned i = (xb >> 16) - 0x3C80;
            if (xb < 0x3C800000u)
                continue;
            const unsigned byte = (rb - (xb < 0x3F320000u ? 0x3F800000u : 0x40000000u)) >> 16;
            if (i != 690) /* the second segment starts again from 0 */
                cr_expect_geq(byte, prev, "entry %u", i);
            prev = byte;
            sum[i / 64] += byte; /* each top appears once, with one of the low patterns */
        }
    }
    for (unsigned k = 0; k < 14; k++)
        cr_expect_eq(sum[k], sums[k], "entries %u..%u add up to %u", 64 * k, 64 * k + 63, sum[k]);
}

/* SFPARECIP is Blackhole's: not an instruction on Wormhole. */
Test(sfpu_round_wh, arecip_is_not_a_wormhole_instruction)
{
    RUN_FAILS(ERR_UNDEF_INSN, TT_OP_SFPARECIP(0, 0, 1, 0));
}

/* =============================== lanes and registers =============================== */

/* Lanes whose flags are false keep LReg[VD] and their PRNG; constants are readable sources
 * (LReg[10] = 1.0, LReg[15] = lane * 2). */
static void lanes_and_constants(void)
{
    uint32_t st[32];
    seed(0x0F0F0F0Fu, st);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[5][l] = l % 3 ? 1 : 0; /* flag true where != 0 */
    for (unsigned r = 1; r < 5; r++)
        fill_old(r);
    RUN(TT_OP_SFPENCC(3, 0, 10), TT_OP_SFPSETCC(0, 5, 0, 2), rnd(STOCH, 0, 0, 10, 1, 0, F_INT8),
        TT_OP_SFPCAST(15, 2, 0), rnd(NEAREST, 0, 0, 15, 3, 0, BF16), TT_OP_SFPCAST(10, 4, 0),
        rnd(STOCH, 0, 0, 10, 9, 0, BF16));
    for (unsigned l = 0; l < 32; l++) {
        const bool on = l % 3 != 0;
        /* 1.0 is exact: 1 unless the PRNG's 23 bits are zero (the bias), which they are not */
        cr_assert_neq(p23(st[l]), 0);
        cr_expect_eq(t->sfpu.lreg[1][l], on ? 1u : old(1, l), "lane %u", l);
        float f = (float)(2 * l);
        uint32_t b;
        memcpy(&b, &f, 4);
        cr_expect_eq(t->sfpu.lreg[2][l], on ? b : old(2, l), "lane %u", l);
        /* lane * 2 as FP32 bits is zero or a denormal: +0 */
        cr_expect_eq(t->sfpu.lreg[3][l], on ? 0 : old(3, l), "lane %u", l);
        /* 1.0's bits 0x3F800000 as an integer, 1065353216 = 2^29 * 1.984375, exact */
        cr_expect_eq(t->sfpu.lreg[4][l], on ? 0x4E7E0000u : old(4, l), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[9][l], 0); /* VD 9: nothing written, the PRNG still steps */
        cr_expect_eq(t->sfpu.prng[l], on ? prng_next(prng_next(prng_next(st[l]))) : st[l], "lane %u", l);
    }
}
Test(sfpu_round, disabled_lanes_and_constant_sources) { lanes_and_constants(); }
Test(sfpu_round_wh, disabled_lanes_and_constant_sources) { lanes_and_constants(); }

/* VD 12..15: every lane takes the word into InstructionTemplate[VD - 12] instead (no PRNG step,
 * no register change); lanes with DISABLE_BACKDOOR_LOAD run the model (the PRNG steps) and
 * LReg[12..15] stay read-only. */
static void backdoor(void)
{
    const uint32_t r13 = rnd(STOCH, 0, 0, 0, 13, 0, BF16), c14 = TT_OP_SFPCAST(0, 14, 1);
    const uint32_t a15 = TT_OP_SFPARECIP(0, 0, 15, 0);
    for (unsigned pass = 0; pass < 2; pass++) {
        uint32_t st[32];
        tile_reset(t);
        seed(0x55AA55AAu, st);
        fill(0, 0x3F808000u);
        /* pass 1: LaneConfig := 0x57 (DISABLE_BACKDOOR_LOAD is bit 1) in columns 0..3 (Mod1 9:
         * Imm16 bits 0, 2, 4 and 6 are also the column mask) */
        if (pass)
            RUN(TT_OP_SFPCONFIG(0x57, 15, 9), TT_OP_SFPNOP, r13, c14);
        else
            RUN(r13, c14);
        if (!wh)
            RUN(a15);
        for (unsigned l = 0; l < 32; l++) {
            const bool model = pass && (l & 7) < 4;
            const struct sfpu_macro_config *m = &t->sfpu.macro[l];
            cr_expect_eq(m->instruction_template[1], model ? 0 : r13, "pass %u lane %u", pass, l);
            cr_expect_eq(m->instruction_template[2], model ? 0 : c14, "pass %u lane %u", pass, l);
            cr_expect_eq(m->instruction_template[3], model || wh ? 0 : a15, "pass %u lane %u", pass, l);
            cr_expect_eq(t->sfpu.prng[l], model ? prng_next(prng_next(st[l])) : st[l], "lane %u", l);
            cr_expect_eq(t->sfpu.lreg[13][l], 0xBF2CC4C7u);
            cr_expect_eq(t->sfpu.lreg[14][l], 0xBEB08FF9u);
            cr_expect_eq(t->sfpu.lreg[15][l], 2 * l);
        }
    }
}
Test(sfpu_round, vd_12_to_15_write_the_template_unless_disabled) { backdoor(); }
Test(sfpu_round_wh, vd_12_to_15_write_the_template_unless_disabled) { backdoor(); }
