/* The vector unit's rounding and conversions: SFPSTOCHRND (round sub-unit), SFPCAST and
 * Blackhole's SFPARECIP (simple sub-unit), each as its page's functional model defines it
 * (WH/BH:SFPSTOCHRND_FloatFloat.md, _FloatInt.md, _IntInt.md; WH:SFPCAST.md,
 * BH:SFPCAST_IntFloat.md, _IntInt.md, _IntAbs.md; BH:SFPARECIP.md). All are lanewise on enabled
 * lanes and write LReg[VD] only for VD < 8; SFPSTOCHRND, and SFPCAST's stochastic mode, advance
 * the PRNG of every lane that runs the model, whatever VD is. Every encoding has a defined
 * meaning on these pages: nothing here faults. */
#include <stdbool.h>
#include <stdint.h>

#include "sfpu_lanes.h"
#include "tensix_isa.h"

/* SFPSTOCHRND Mod1 (the three SFPSTOCHRND pages' "Supporting definitions"): FP16A keeps 10
 * mantissa bits (TF32 precision), FP16B 7 (BF16). */
enum { RND_FP32_TO_FP16A = 0, RND_FP32_TO_FP16B = 1, RND_FP32_TO_UINT8 = 2, RND_FP32_TO_INT8 = 3,
       RND_INT32_TO_UINT8 = 4, RND_INT32_TO_INT8 = 5, RND_FP32_TO_UINT16 = 6,
       RND_FP32_TO_INT16 = 7 };
/* Blackhole's RoundingMode; 3 is not named and takes the PRNG's bits like RND_STOCH */
enum { RND_NEAREST = 0, RND_STOCH = 1, RND_ZERO = 2 };
/* SFPCAST Mod1 & 3 on Blackhole (BH:SFPCAST_*.md); Wormhole reads bit 0 only (WH:SFPCAST.md) */
enum { CAST_SM32_TO_FP32_RNE = 0, CAST_SM32_TO_FP32_RNS = 1, CAST_INT32_ABS = 2,
       CAST_INT32_SM32 = 3 };
/* SFPARECIP Mod1 (BH:SFPARECIP.md); 2 and every value above it is EXP */
enum { ARECIP_RECIP = 0, ARECIP_COND_RECIP = 1 };

#define SIGN 0x80000000u
#define FRAC23 0x7FFFFFu   /* the 23 bits below the binary point the rounding compares */
#define HALF23 0x400000u   /* 0.5 in those bits: round to nearest, ties away from zero */

/* ---- SFPSTOCHRND ---- */

/* The value the discarded fraction (as 23 bits) is compared with: the magnitude rounds up when
 * the fraction is >= it. The PRNG's low 23 bits, or the fixed 0.5 for round to nearest; the
 * round-to-zero threshold is the largest 23-bit fraction, so a fraction of all ones still rounds
 * up (the bug BH:SFPSTOCHRND_FloatInt.md lists for 0.99999988, 0.99999994 and 1.99999988).
 * Wormhole has one bit, StochasticRounding. */
static uint32_t threshold(uint32_t prng, uint32_t w, bool wh)
{
    if (wh)
        return TT_GET_SFPSTOCHRND_WH_StochasticRounding(w) ? prng & FRAC23 : HALF23;
    switch (TT_GET_SFPSTOCHRND_BH_RoundingMode(w)) {
    case RND_NEAREST: return HALF23;
    case RND_ZERO: return FRAC23;
    default: return prng & FRAC23; /* RND_STOCH, and 3 which the page's switch leaves alone */
    }
}

/* SFPSTOCHRND_FloatFloat.md: FP32 cut to 23 - `drop` mantissa bits (drop 13: 10 bits, 16: 7
 * bits). Zero and denormals of either sign become +0; Inf and NaN become the Inf of their sign;
 * the rest rounds its magnitude, a carry running into the exponent (so the largest finite values
 * can round to Inf). The threshold's top `drop` bits decide. */
static uint32_t fp32_reduce(uint32_t x, unsigned drop, uint32_t thr)
{
    const uint32_t exp = x >> 23 & 0xFF;
    if (exp == 0)
        return 0;
    if (exp == 0xFF)
        return x & 0xFF800000u;
    const uint32_t unit = 1u << drop, discarded = x & (unit - 1);
    return x - discarded + (discarded >= thr >> (23 - drop) ? unit : 0);
}

/* SFPSTOCHRND_FloatInt.md: FP32 to a sign-magnitude integer of at most `max`. |x| < 0.5 is 0
 * whatever the rounding; |x| >= 2^16, Inf and NaN give `max` (with the sign when kept). Else the
 * significand is lined up with 23 bits of fraction (for 0.5 <= |x| < 1 its lowest bit falls off,
 * as on the page), rounded, then clamped. A zero result has no sign. */
static uint32_t fp32_to_int(uint32_t x, bool keep_sign, uint32_t max, uint32_t thr)
{
    const int exp = (int)(x >> 23 & 0xFF) - 127;
    const uint32_t sign = keep_sign ? x & SIGN : 0;
    if (exp < -1)
        return 0;
    if (exp >= 16)
        return sign | max;
    uint64_t m = 0x800000u | (x & 0x7FFFFFu);
    m = exp >= 0 ? m << exp : m >> 1;
    uint64_t mag = (m >> 23) + ((m & FRAC23) >= thr);
    if (mag > max)
        mag = max;
    return mag ? sign | (uint32_t)mag : 0;
}

/* SFPSTOCHRND_IntInt.md: a sign-magnitude integer's magnitude shifted right by `shift` (0..31)
 * and rounded on the 23 bits below it (bits shifted further than that are lost, which is how
 * round to zero goes wrong past 22 bits), then clamped to 127 keeping the sign (INT8) or to 255
 * without it (UINT8). */
static uint32_t int_descale(uint32_t c, unsigned shift, bool keep_sign, uint32_t thr)
{
    const uint64_t m = ((uint64_t)(c & ~SIGN) << 23) >> shift;
    const uint32_t max = keep_sign ? 127 : 255;
    uint64_t mag = (m >> 23) + ((m & FRAC23) >= thr);
    if (mag > max)
        mag = max;
    return mag && keep_sign ? (c & SIGN) | (uint32_t)mag : (uint32_t)mag;
}

/* The SFPSTOCHRND pages: every enabled lane takes AdvancePRNG() first, in every rounding mode
 * (nearest and round to zero then ignore the bits) and whatever VD is. Mod1 is 3 bits, each
 * value one mode of the three pages; FloatFloat and FloatInt do not read VB, Imm5 or UseImm5. */
void sfpu_stochrnd(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh)
{
    const unsigned mod1 = TT_GET_SFPSTOCHRND_BH_Mod1(w), vc = TT_GET_SFPSTOCHRND_BH_VC(w);
    const unsigned vd = TT_GET_SFPSTOCHRND_BH_VD(w), vb = TT_GET_SFPSTOCHRND_BH_VB(w);
    const bool use_imm5 = TT_GET_SFPSTOCHRND_BH_UseImm5(w) != 0;
    const unsigned imm5 = TT_GET_SFPSTOCHRND_BH_Imm5(w);
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t thr = threshold(sfpu_prng_advance(s, lane), w, wh);
        const uint32_t c = s->lreg[vc][lane];
        uint32_t r;
        switch (mod1) {
        case RND_FP32_TO_FP16A: r = fp32_reduce(c, 13, thr); break;
        case RND_FP32_TO_FP16B: r = fp32_reduce(c, 16, thr); break;
        case RND_FP32_TO_UINT8: r = fp32_to_int(c, false, 255, thr); break;
        case RND_FP32_TO_INT8: r = fp32_to_int(c, true, 127, thr); break;
        case RND_FP32_TO_UINT16: r = fp32_to_int(c, false, 65535, thr); break;
        case RND_FP32_TO_INT16: r = fp32_to_int(c, true, 32767, thr); break;
        default: { /* RND_INT32_TO_UINT8, RND_INT32_TO_INT8 */
            const unsigned shift = use_imm5 ? imm5 : s->lreg[vb][lane] & 31;
            r = int_descale(c, shift, mod1 == RND_INT32_TO_INT8, thr);
            break;
        }
        }
        if (sfpu_vd_writable(vd))
            s->lreg[vd][lane] = r;
    }
}
_Static_assert(TT_SAME_BITS(SFPSTOCHRND_BH_Mod1, SFPSTOCHRND_WH_Mod1) &&
               TT_SAME_BITS(SFPSTOCHRND_BH_VC, SFPSTOCHRND_WH_VC) &&
               TT_SAME_BITS(SFPSTOCHRND_BH_VD, SFPSTOCHRND_WH_VD) &&
               TT_SAME_BITS(SFPSTOCHRND_BH_VB, SFPSTOCHRND_WH_VB) &&
               TT_SAME_BITS(SFPSTOCHRND_BH_UseImm5, SFPSTOCHRND_WH_UseImm5) &&
               TT_SAME_BITS(SFPSTOCHRND_BH_Imm5, SFPSTOCHRND_WH_Imm5),
               "SFPSTOCHRND's two encodings differ only in the rounding field");

/* ---- SFPCAST ---- */

/* SFPCAST_IntFloat.md: a sign-magnitude integer to FP32. The magnitude is shifted until its top
 * bit is bit 31; bits 31..8 become the significand and the exponent 127 + (31 - leading zeros),
 * written as 157 - lz because the significand's leading one lands on the exponent's lowest
 * bit. Bits 7..0 are rounded off: to nearest, ties to even (bit 7 set and any of bits 6..0 or
 * bit 8), or stochastically, bits 7..1 against PRNG bits 16..10 (bit 0 takes no part), rounding
 * up when strictly greater. A carry runs into the exponent. +-0 keep their sign; the PRNG
 * advances in the stochastic mode even then. */
static uint32_t sm32_to_fp32(uint32_t c, bool stochastic, uint32_t prng)
{
    const uint32_t sign = c & SIGN, mag = c & ~SIGN;
    const unsigned lz = mag ? (unsigned)__builtin_clz(mag) : 0;
    const uint32_t norm = mag << lz;
    uint32_t d = mag ? sign + ((157u - lz) << 23) + (norm >> 8) : sign;
    const bool up = stochastic ? (norm & 0xFE) > (prng >> 9 & 0xFE)
                               : (norm & 0x80) && (norm & 0x17F);
    return d + up;
}

/* SFPCAST: Wormhole has the integer-to-float conversion only, Mod1 bit 0 choosing stochastic
 * rounding (WH:SFPCAST.md reads no other bit). Blackhole reads Mod1 & 3: 0 and 1 as Wormhole;
 * 3 swaps sign-magnitude and two's complement (the same operation both ways, -0 <-> -2^31);
 * 2 is a two's complement absolute value, -2^31 staying as it is (BH:SFPCAST_IntAbs.md: a
 * hardware bug made it so). */
void sfpu_cast(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh)
{
    const unsigned vc = TT_GET_SFPCAST_VC(w), vd = TT_GET_SFPCAST_VD(w);
    const unsigned mode = TT_GET_SFPCAST_Mod1(w) & (wh ? 1u : 3u);
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t c = s->lreg[vc][lane];
        uint32_t r;
        switch (mode) {
        case CAST_SM32_TO_FP32_RNS: r = sm32_to_fp32(c, true, sfpu_prng_advance(s, lane)); break;
        case CAST_INT32_ABS: r = c & SIGN ? 0u - c : c; break;
        case CAST_INT32_SM32: r = sfpu_twos_to_sm(c); break;
        default: r = sm32_to_fp32(c, false, 0); break;
        }
        if (sfpu_vd_writable(vd))
            s->lreg[vd][lane] = r;
    }
}

/* ---- SFPARECIP (Blackhole) ---- */

/* BH:SFPARECIP.md ApproxRecip's table: 7 mantissa bits of 2/m for the significands m in
 * [1, 2) whose top 7 mantissa bits are the index. */
static const uint8_t recip_lut[128] = {
    /*   0 */ 127, 125, 123, 121, 119, 117, 116, 114, 112, 110, 109, 107, 105, 104, 102, 100,
    /*  16 */  99,  97,  96,  94,  93,  91,  90,  88,  87,  85,  84,  83,  81,  80,  79,  77,
    /*  32 */  76,  75,  74,  72,  71,  70,  69,  68,  66,  65,  64,  63,  62,  61,  60,  59,
    /*  48 */  58,  57,  56,  55,  54,  53,  52,  51,  50,  49,  48,  47,  46,  45,  44,  43,
    /*  64 */  42,  41,  40,  40,  39,  38,  37,  36,  35,  35,  34,  33,  32,  31,  31,  30,
    /*  80 */  29,  28,  28,  27,  26,  25,  25,  24,  23,  23,  22,  21,  21,  20,  19,  19,
    /*  96 */  18,  17,  17,  16,  15,  15,  14,  14,  13,  12,  12,  11,  11,  10,   9,   9,
    /* 112 */   8,   8,   7,   7,   6,   5,   5,   4,   4,   3,   3,   2,   2,   1,   1,   0,
};

/* BH:SFPARECIP.md ApproxExp's table: bits 23..16 of the result, indexed by x's top 16 bits
 * (a BF16 value) less 0x3C80, for 2^-6 <= x < 2. The row comments give the first index's top 16
 * bits. */
static const uint8_t exp_lut[896] = {
    /* 0x3C80 */   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,
    /* 0x3C90 */   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,
    /* 0x3CA0 */   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,
    /* 0x3CB0 */   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   2,   3,   3,
    /* 0x3CC0 */   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,
    /* 0x3CD0 */   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,
    /* 0x3CE0 */   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,
    /* 0x3CF0 */   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   3,   4,   4,   4,
    /* 0x3D00 */   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,
    /* 0x3D10 */   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   5,   5,   5,
    /* 0x3D20 */   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,
    /* 0x3D30 */   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   5,   6,   6,   6,   6,
    /* 0x3D40 */   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,
    /* 0x3D50 */   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   7,   7,   7,   7,   7,
    /* 0x3D60 */   7,   7,   7,   7,   7,   7,   7,   7,   7,   7,   7,   7,   7,   7,   7,   7,
    /* 0x3D70 */   7,   7,   7,   7,   7,   7,   7,   7,   7,   8,   8,   8,   8,   8,   8,   8,
    /* 0x3D80 */   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   9,   9,   9,   9,
    /* 0x3D90 */   9,   9,   9,   9,   9,   9,   9,   9,   9,   9,   9,  10,  10,  10,  10,  10,
    /* 0x3DA0 */  10,  10,  10,  10,  10,  10,  10,  10,  10,  11,  11,  11,  11,  11,  11,  11,
    /* 0x3DB0 */  11,  11,  11,  11,  11,  11,  11,  11,  12,  12,  12,  12,  12,  12,  12,  12,
    /* 0x3DC0 */  12,  12,  12,  12,  12,  12,  12,  13,  13,  13,  13,  13,  13,  13,  13,  13,
    /* 0x3DD0 */  13,  13,  13,  13,  13,  14,  14,  14,  14,  14,  14,  14,  14,  14,  14,  14,
    /* 0x3DE0 */  14,  14,  14,  15,  15,  15,  15,  15,  15,  15,  15,  15,  15,  15,  15,  15,
    /* 0x3DF0 */  15,  15,  16,  16,  16,  16,  16,  16,  16,  16,  16,  16,  16,  16,  16,  16,
    /* 0x3E00 */  17,  17,  17,  17,  17,  17,  17,  18,  18,  18,  18,  18,  18,  18,  19,  19,
    /* 0x3E10 */  19,  19,  19,  19,  19,  20,  20,  20,  20,  20,  20,  20,  21,  21,  21,  21,
    /* 0x3E20 */  21,  21,  21,  22,  22,  22,  22,  22,  22,  22,  23,  23,  23,  23,  23,  23,
    /* 0x3E30 */  24,  24,  24,  24,  24,  24,  24,  25,  25,  25,  25,  25,  25,  25,  26,  26,
    /* 0x3E40 */  26,  26,  26,  26,  27,  27,  27,  27,  27,  27,  27,  28,  28,  28,  28,  28,
    /* 0x3E50 */  28,  28,  29,  29,  29,  29,  29,  29,  30,  30,  30,  30,  30,  30,  30,  31,
    /* 0x3E60 */  31,  31,  31,  31,  31,  32,  32,  32,  32,  32,  32,  33,  33,  33,  33,  33,
    /* 0x3E70 */  33,  33,  34,  34,  34,  34,  34,  34,  35,  35,  35,  35,  35,  35,  36,  36,
    /* 0x3E80 */  36,  36,  36,  37,  37,  37,  38,  38,  38,  39,  39,  39,  40,  40,  40,  41,
    /* 0x3E90 */  41,  41,  42,  42,  42,  43,  43,  43,  44,  44,  44,  45,  45,  45,  46,  46,
    /* 0x3EA0 */  46,  47,  47,  47,  48,  48,  49,  49,  49,  50,  50,  50,  51,  51,  51,  52,
    /* 0x3EB0 */  52,  52,  53,  53,  53,  54,  54,  54,  55,  55,  56,  56,  56,  57,  57,  57,
    /* 0x3EC0 */  58,  58,  58,  59,  59,  60,  60,  60,  61,  61,  61,  62,  62,  63,  63,  63,
    /* 0x3ED0 */  64,  64,  64,  65,  65,  66,  66,  66,  67,  67,  67,  68,  68,  69,  69,  69,
    /* 0x3EE0 */  70,  70,  71,  71,  71,  72,  72,  72,  73,  73,  74,  74,  74,  75,  75,  76,
    /* 0x3EF0 */  76,  76,  77,  77,  78,  78,  78,  79,  79,  80,  80,  80,  81,  81,  82,  82,
    /* 0x3F00 */  83,  83,  84,  85,  86,  87,  88,  88,  89,  90,  91,  92,  93,  94,  94,  95,
    /* 0x3F10 */  96,  97,  98,  99, 100, 101, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
    /* 0x3F20 */ 111, 112, 113, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125,
    /* 0x3F30 */ 126, 127,   0,   0,   1,   1,   2,   2,   3,   3,   4,   4,   5,   5,   6,   6,
    /* 0x3F40 */   7,   8,   8,   9,   9,  10,  10,  11,  11,  12,  12,  13,  13,  14,  15,  15,
    /* 0x3F50 */  16,  16,  17,  17,  18,  19,  19,  20,  20,  21,  21,  22,  23,  23,  24,  24,
    /* 0x3F60 */  25,  26,  26,  27,  27,  28,  29,  29,  30,  31,  31,  32,  32,  33,  34,  34,
    /* 0x3F70 */  35,  36,  36,  37,  38,  38,  39,  39,  40,  41,  41,  42,  43,  43,  44,  45,
    /* 0x3F80 */  45,  47,  48,  50,  51,  52,  54,  55,  57,  58,  60,  61,  63,  64,  66,  67,
    /* 0x3F90 */  69,  70,  72,  73,  75,  76,  78,  80,  81,  83,  85,  86,  88,  90,  91,  93,
    /* 0x3FA0 */  95,  97,  98, 100, 102, 104, 106, 107, 109, 111, 113, 115, 117, 119, 121, 123,
    /* 0x3FB0 */ 125, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 139, 140, 141, 142,
    /* 0x3FC0 */ 143, 144, 145, 146, 147, 149, 150, 151, 152, 153, 155, 156, 157, 158, 159, 161,
    /* 0x3FD0 */ 162, 163, 165, 166, 167, 168, 170, 171, 172, 174, 175, 177, 178, 179, 181, 182,
    /* 0x3FE0 */ 184, 185, 187, 188, 189, 191, 192, 194, 196, 197, 199, 200, 202, 203, 205, 207,
    /* 0x3FF0 */ 208, 210, 211, 213, 215, 216, 218, 220, 222, 223, 225, 227, 229, 230, 232, 234,
};

/* ApproxRecip (BH:SFPARECIP.md) of a non-negative x = 2^(e - 127) * m: zero and denormals give
 * +Inf; below 2^126, 1/x = 2^(126 - (e - 127)) * 2/m, so the biased exponent 253 - e with the
 * table's 7 bits of 2/m (which never reaches 2: ApproxRecip(1.0) is 0.99609375), the low 16
 * bits zero; 2^126 and up, Inf and NaN give +0. */
static uint32_t approx_recip(uint32_t x)
{
    if (x < 0x00800000u)
        return 0x7F800000u;
    if (x < 0x7E800000u)
        return (253u - (x >> 23)) << 23 | (uint32_t)recip_lut[x >> 16 & 0x7F] << 16;
    return 0;
}

/* ApproxExp (BH:SFPARECIP.md) of a non-negative x: zero and denormals give 1.0; below 2^-6,
 * 1 + 2^-7 with x's low 16 bits carried over; below 2, the table's byte ORed in at bit 16 of
 * 1.0 (x < 0.6953125) or 2.0, x's low 16 bits again carried over (bytes of 128 and up set the
 * exponent's low bit: 2.0 becomes 4.0 and up, as e^x needs near 2); from 2 up (Inf and NaN too)
 * 4.0 with x's low 16 bits: no useful value, as the page says. */
static uint32_t approx_exp(uint32_t x)
{
    const uint32_t low = x & 0xFFFFu;
    if (x < 0x00800000u)
        return 0x3F800000u;
    if (x < 0x3C800000u)
        return 0x3F810000u | low;
    if (x < 0x40000000u) {
        const uint32_t base = x < 0x3F320000u ? 0x3F800000u : 0x40000000u;
        return base | (uint32_t)exp_lut[(x >> 16) - 0x3C80u] << 16 | low;
    }
    return 0x40800000u | low;
}

/* BH:SFPARECIP.md: RECIP is sign * ApproxRecip(|x|); COND_RECIP gives ApproxRecip(|x|) without
 * the sign where LReg[VB] is negative as a two's complement integer (so -0.0 counts, +0 does
 * not) and LReg[VC] unchanged elsewhere; EXP (Mod1 2 and above) is sign * ApproxExp(|x|). */
void sfpu_arecip(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned vb = TT_GET_SFPARECIP_VB(w), vc = TT_GET_SFPARECIP_VC(w);
    const unsigned vd = TT_GET_SFPARECIP_VD(w), mod1 = TT_GET_SFPARECIP_Mod1(w);
    if (!sfpu_vd_writable(vd))
        return;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t x = s->lreg[vc][lane], sign = x & SIGN;
        uint32_t r;
        if (mod1 == ARECIP_RECIP)
            r = sign | approx_recip(x & ~SIGN);
        else if (mod1 == ARECIP_COND_RECIP)
            r = (s->lreg[vb][lane] & SIGN) ? approx_recip(x & ~SIGN) : x;
        else
            r = sign | approx_exp(x & ~SIGN);
        s->lreg[vd][lane] = r;
    }
}
