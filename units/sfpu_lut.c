/* The vector unit's piecewise-linear table lookups on the MAD sub-unit: SFPLUT and SFPLUTFP32
 * (WH/BH:SFPLUT.md, WH:SFPLUTFP32.md, BH:SFPLUTFP32.md, functional models). Each lane picks
 * coefficients a, c by the magnitude of its LReg[3], computes a * |LReg[3]| + c on the MAD
 * datapath (sfpu_mad_fp32) and may give the result LReg[3]'s sign. */
#include <stdio.h>

#include "../core/tile.h"
#include "sfpu_lanes.h"

#define SIGN 0x80000000u
/* |LReg[3]| bounds, as FP32 bits: comparing the bits of a value without its sign orders it as
 * the float comparisons of the pages do, NaN included (above every bound, as "b < bound" is
 * false for NaN) and denormals (below 0.5). */
#define FP32_HALF 0x3F000000u
#define FP32_ONE 0x3F800000u
#define FP32_ONE_HALF 0x3FC00000u
#define FP32_TWO 0x40000000u
#define FP32_THREE 0x40400000u
#define FP32_FOUR 0x40800000u

enum { LUT_SGN_RETAIN = 4, LUT_INDIRECT_VD = 8 };                             /* SFPLUT.md */
/* SFPLUTFP32.md Mod1: FP32_3ENTRY is 0; FP16_3ENTRY (10) overlaps INDIRECT_VD (8), so that
 * mode always writes LReg[LReg[7] & 15] (the page's hardware bug) */
enum { LUTFP32_FP16_6ENTRY_TABLE1 = 2, LUTFP32_FP16_6ENTRY_TABLE2 = 3, LUTFP32_FP16_3ENTRY = 10,
       LUTFP32_SGN_RETAIN = 4, LUTFP32_INDIRECT_VD = 8 };

/* SFPLUT.md Lut8ToFp32: sign, a 3-bit exponent counted down from 2^0, 4 mantissa bits; 0xFF
 * is +0. */
static uint32_t lut8_to_fp32(uint32_t x)
{
    if (x == 0xFF)
        return 0;
    return (x >> 7) << 31 | (127 - (x >> 4 & 7)) << 23 | (x & 15) << 19;
}

/* SFPLUTFP32.md Lut16ToFp32: FP16's fields with the exponent rebiased by 112, except that
 * exponent 31 becomes 0 (so +-Inf and NaN read as +-0, and a non-zero mantissa as a denormal,
 * which the MAD datapath reads as zero too), and exponent 0 is not special. */
static uint32_t lut16_to_fp32(uint32_t x)
{
    const uint32_t e = x >> 10 & 0x1F;
    return (x >> 15) << 31 | (e == 0x1F ? 0 : 112 + e) << 23 | (x & 0x3FF) << 13;
}

/* The common tail: d, optionally with LReg[3]'s sign, to the MAD sub-unit's destination rule
 * (sfpu_mad_write). */
static void put(struct sfpu_state *s, unsigned vd, bool indirect, bool sign_retain, unsigned lane,
                uint32_t d)
{
    if (sign_retain)
        d = (d & ~SIGN) | (s->lreg[3][lane] & SIGN);
    sfpu_mad_write(s, vd, indirect, lane, d);
}

/* ---- SFPLUT ---- */

/* SFPLUT.md: LReg[0], [1] or [2] by |LReg[3]| < 1, < 2, else; its bits 15..8 are a, 7..0 c,
 * both Lut8. Mod0 bits 0 and 1 are not read. */
void sfpu_lut(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes, bool wh)
{
    const unsigned mod0 = TT_GET_SFPLUT_Mod0(w);
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t b = s->lreg[3][lane] & ~SIGN;
        const uint32_t coeffs = s->lreg[b < FP32_ONE ? 0 : b < FP32_TWO ? 1 : 2][lane];
        const uint32_t d = sfpu_mad_fp32(lut8_to_fp32(coeffs >> 8 & 0xFF), b,
                                         lut8_to_fp32(coeffs & 0xFF), wh);
        put(s, vd, (mod0 & LUT_INDIRECT_VD) != 0, (mod0 & LUT_SGN_RETAIN) != 0, lane, d);
    }
}

/* ---- SFPLUTFP32 ---- */

/* SFPLUTFP32.md, both arches (Blackhole's Mod1Mirror only steers its stall logic): i is 0, 1, 2
 * by |LReg[3]| < 1, < 2, else.
 *   Mod1 bit 1 clear (FP32_3ENTRY): a = LReg[i], c = LReg[4 + i] as FP32.
 *   bits 1 and 3 set (FP16_3ENTRY): a = Lut16(LReg[i] >> 16), c = Lut16(LReg[i] low half);
 *     bit 3 is also INDIRECT_VD, so the result goes to LReg[LReg[7] & 15].
 *   bit 1 set, bit 3 clear (FP16_6ENTRY_TABLE1/2): the halves of LReg[i] and LReg[4 + i], the
 *     low one in the lower half of each range i ([0, 0.5), [1, 1.5), [2, 3) or [2, 4) with bit
 *     0, TABLE2), the high one above.
 * Bit 2 gives the result LReg[3]'s sign. */
void sfpu_lutfp32(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes, bool wh)
{
    _Static_assert(TT_SAME_BITS(SFPLUTFP32_BH_Mod1, SFPLUTFP32_WH_Mod1),
                   "SFPLUTFP32's Mod1 is at the same bits on both arches");
    const unsigned mod1 = TT_GET_SFPLUTFP32_BH_Mod1(w);
    const bool fp16 = (mod1 & LUTFP32_FP16_6ENTRY_TABLE1) != 0;
    const bool three = (mod1 & LUTFP32_FP16_3ENTRY) == LUTFP32_FP16_3ENTRY;
    const uint32_t cut = (mod1 & LUTFP32_FP16_6ENTRY_TABLE2) == LUTFP32_FP16_6ENTRY_TABLE2
                             ? FP32_FOUR : FP32_THREE;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t b = s->lreg[3][lane] & ~SIGN;
        const unsigned i = b < FP32_ONE ? 0 : b < FP32_TWO ? 1 : 2;
        uint32_t a, c;
        if (!fp16) {
            a = s->lreg[i][lane];
            c = s->lreg[4 + i][lane];
        } else if (three) {
            a = lut16_to_fp32(s->lreg[i][lane] >> 16);
            c = lut16_to_fp32(s->lreg[i][lane] & 0xFFFF);
        } else {
            const uint32_t mid = i == 0 ? FP32_HALF : i == 1 ? FP32_ONE_HALF : cut;
            const unsigned j = b < mid ? 0 : 16;
            a = lut16_to_fp32(s->lreg[i][lane] >> j & 0xFFFF);
            c = lut16_to_fp32(s->lreg[4 + i][lane] >> j & 0xFFFF);
        }
        put(s, vd, (mod1 & LUTFP32_INDIRECT_VD) != 0, (mod1 & LUTFP32_SGN_RETAIN) != 0, lane,
            sfpu_mad_fp32(a, b, c, wh));
    }
}
