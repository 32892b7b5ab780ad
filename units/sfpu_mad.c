/* The vector unit's MAD sub-unit: its FP32 multiply-then-add datapath (sfpu_mad_fp32) and the
 * instructions that use it directly: SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI and Blackhole's
 * SFPMUL24 (each instruction's page, functional model). The table lookups SFPLUT and
 * SFPLUTFP32 are in sfpu_lut.c. All are lanewise on enabled lanes and write LReg[vd] only for
 * vd < 8 or vd == 16.
 *
 * The datapath is neither IEEE754 nor a separate multiply and add (SFPMAD.md "IEEE754
 * conformance / divergence", both arches): the product keeps more bits than FP32 but not all
 * 48, then one round to nearest even. The bit-exact behaviour is the one the pages point to
 * (tt-isa-documentation Miscellaneous/FMA, fma_model_bh and fma_model_wh) and ttsim uses; the
 * steps below reproduce it (docs/sfpu.md "The MAD sub-unit" says how that was checked). */
#include "../core/tile.h"
#include "sfpu_lanes.h"

#define SIGN 0x80000000u
#define MAN 0x007FFFFFu
#define HIDDEN 0x00800000u
#define INF 0x7F800000u
#define FP32_ONE 0x3F800000u
#define CANONICAL_NAN 0x7FC00000u /* BH:SFPMAD.md: every NaN result */
/* WH:SFPMAD.md: a NaN result has at least the exponent and the mantissa's lowest bit set */
#define WH_NAN_BITS 0x7F800001u
#define EXP_MAX 255

/* Mod1 of SFPMAD, SFPADD, SFPMUL, SFPMULI, SFPADDI (SFPMAD.md; NEGATE_* Blackhole only) and of
 * SFPMUL24 (BH:SFPMUL24.md) */
enum { MAD_NEGATE_VB = 1, MAD_NEGATE_VC = 2, MAD_INDIRECT_VA = 4, MAD_INDIRECT_VD = 8 };
enum { MUL24_UPPER = 1, MUL24_INDIRECT_VA = 4, MUL24_INDIRECT_VD = 8 };

static unsigned exp_field(uint32_t v) { return v >> 23 & 0xFF; }

/* The significand with its hidden bit; a zero exponent field (zero or denormal) reads as zero
 * ("Denormal inputs are treated as if they were zero"). Exponent 255 keeps its hidden bit too. */
static uint32_t significand(uint32_t v) { return exp_field(v) ? HIDDEN | (v & MAN) : 0; }

/* v >> s where the bits shifted out are remembered in bit 0, unless nothing is left: then the
 * datapath keeps no trace of v at all (its value becomes exactly 0). */
static uint32_t shift_out(uint32_t v, int s)
{
    if (s <= 0)
        return v;
    if (s >= 32)
        return 0;
    const uint32_t kept = v >> s;
    return kept && (v & ((1u << s) - 1)) ? kept | 1 : kept;
}

/* Round to nearest, ties to even, on three bits below the result's last place: up when they are
 * above a half (5..7), or exactly a half (4) and the last place is odd. */
static uint32_t round_nearest_even(uint32_t bits, unsigned below)
{
    return bits + (below > 4 || (below == 4 && (bits & 1)));
}

/* x * y + z as the MAD sub-unit computes it, on FP32 bit patterns; `wh` selects Wormhole B0's
 * datapath, otherwise Blackhole's (the two pages' "IEEE754 conformance / divergence" sections
 * and Miscellaneous/FMA/README.md list where they differ).
 *
 * Values are kept as a significand and a biased exponent in one frame: a significand s with
 * exponent e stands for s * 2^(e - 127 - 26), i.e. 1.0 is s = 1 << 26 at e = 127. z's
 * significand takes three bits below its 24 (guard, round, sticky); the exact 48-bit product
 * is cut to the same frame: its top 28 bits, with any bit below them ORed into the lowest. */
uint32_t sfpu_mad_fp32(uint32_t x, uint32_t y, uint32_t z, bool wh)
{
    const unsigned ex = exp_field(x), ey = exp_field(y), ez = exp_field(z);
    const uint32_t mx = significand(x), my = significand(y), mz = significand(z);
    const uint32_t p_sign = (x ^ y) & SIGN, z_sign = z & SIGN;
    const uint64_t exact = (uint64_t)mx * my; /* 0, or in [2^46, 2^48) */
    uint32_t p = (uint32_t)(exact >> 20) | ((exact & 0xFFFFF) != 0);
    int p_exp = (int)(ex + ey) - 127;
    uint32_t q = mz << 3;

    /* Inf or NaN operands, or a product that overflows on its own (even when z would bring it
     * back: the product is not kept beyond FP32's range). */
    uint32_t nan = 0; /* Wormhole: the NaN being built, whose bits the sum may still add to */
    if (ex == EXP_MAX || ey == EXP_MAX || ez == EXP_MAX || p_exp >= EXP_MAX) {
        const bool x_nan_or_inf_by_0 = ex == EXP_MAX && ((x & MAN) || my == 0);
        const bool y_nan_or_inf_by_0 = ey == EXP_MAX && ((y & MAN) || mx == 0);
        const bool z_nan = ez == EXP_MAX && (z & MAN), z_inf = ez == EXP_MAX && !(z & MAN);
        /* Blackhole: Inf - Inf only when x or y is infinite; Wormhole also when the product
         * overflowed from finite operands (WH README "opposite sign infinity") */
        const bool p_inf = ex == EXP_MAX || ey == EXP_MAX || (wh && p_exp >= EXP_MAX);
        const bool inf_minus_inf = z_inf && p_inf && z_sign != p_sign;
        if (!wh) {
            if (x_nan_or_inf_by_0 || y_nan_or_inf_by_0 || z_nan || inf_minus_inf)
                return CANONICAL_NAN;
            return z_inf ? z : p_sign | INF;
        }
        if (x_nan_or_inf_by_0 || y_nan_or_inf_by_0 || inf_minus_inf)
            nan = p_sign | WH_NAN_BITS;
        else if (z_nan)
            nan = z_sign | WH_NAN_BITS;
        else
            return z_inf ? z : p_sign | INF;
        if (p_exp > EXP_MAX)
            p_exp = EXP_MAX;
    }

    /* A zero product, or one below FP32's range on its own, counts as exactly zero: the result
     * is z (a denormal z as a zero). Blackhole keeps IEEE's sign for 0 + 0; Wormhole's zeros are
     * all +0 (WH:SFPMAD.md "flushed to positive zero"). */
    if (p == 0 || p_exp < 0) {
        if (!nan)
            return mz ? z : wh ? 0 : z_sign & p_sign;
        p = 0, p_exp = 0;
    }

    /* Align to the larger exponent, then add or subtract magnitudes; the sign is the larger
     * one's (p's on a tie, which then cancels to zero). */
    int r_exp = p_exp > (int)ez ? p_exp : (int)ez;
    p = shift_out(p, r_exp - p_exp);
    q = shift_out(q, r_exp - (int)ez);
    const uint32_t r_sign = p >= q ? p_sign : z_sign;
    uint32_t r = p_sign == z_sign ? p + q : p >= q ? p - q : q - p;
    if (r == 0)
        return nan ? nan : wh ? 0 : z_sign & p_sign;

    /* Normalise the leading one to bit 26 (the sum is below 2^29: it moves right by at most
     * two places). */
    int n = 31 - __builtin_clz(r) - 26;
    r_exp += n;
    if (r_exp >= EXP_MAX)
        return nan ? nan : r_sign | INF;
    if (!wh && r_exp <= 0) {
        /* Blackhole: below the normal range the exponent field becomes 0 and the significand
         * moves one more place right (as for a denormal of exponent 1), however far below the
         * range the value is: only a round up to 2^-126 survives the flush below, and that
         * happens for a significand of 24 ones rounding up even when the value is 2^-127 or
         * less (docs/sfpu.md). The sum cannot have moved right here, so n ends at most 1. */
        n += 1;
        r_exp = 0;
    } else if (wh && r_exp < 0) {
        return nan; /* Wormhole flushes before rounding (+0, or the NaN) */
    }
    if (n <= 0) {
        r <<= -n;
    } else {
        /* The bits shifted out go into the sticky bit: all of them on Blackhole, only the lowest
         * on Wormhole (a hardware bug, Miscellaneous/FMA/README.md: of a shift by two, the
         * higher bit is lost). */
        const uint32_t sticky = wh ? 1u : (1u << n) - 1;
        r = (r >> n) | ((r & sticky) != 0);
    }

    uint32_t bits = round_nearest_even(((uint32_t)r_exp << 23) + ((r >> 3) & MAN), r & 7);
    if (bits < HIDDEN) /* a denormal after rounding: flushed (Blackhole keeps the sign) */
        return wh ? nan : r_sign;
    return (nan ? nan : r_sign) | bits;
}

/* ---- SFPMAD, SFPADD, SFPMUL ---- */

/* The 4-bit index that INDIRECT_VA / INDIRECT_VD take from the lane's LReg[7]. */
static unsigned lreg7_index(const struct sfpu_state *s, unsigned lane)
{
    return s->lreg[7][lane] & 15;
}

/* The pages' destination rule (SFPMAD.md, SFPMUL24.md, SFPLUT.md, SFPLUTFP32.md): INDIRECT_VD
 * takes the lane's LReg[7] unless the instruction targets LReg[16] (SFPLOADMACRO); only
 * LReg[0..7] and LReg[16] take a result. */
void sfpu_mad_write(struct sfpu_state *s, unsigned vd, bool indirect, unsigned lane, uint32_t v)
{
    const unsigned d = indirect && vd != 16 ? lreg7_index(s, lane) : vd;
    if (sfpu_vd_writable(d) || d == 16)
        s->lreg[d][lane] = v;
}

/* SFPMAD.md (SFPADD.md and SFPMUL.md: "Identical to SFPMAD"): LReg[va] * LReg[VB] + LReg[VC];
 * Blackhole's NEGATE_VB / NEGATE_VC flip the sign of b / c first. Wormhole's page reads only
 * the INDIRECT bits. */
void sfpu_mad(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes, bool wh)
{
    const unsigned va = TT_GET_SFPMAD_VA(w), vb = TT_GET_SFPMAD_VB(w), vc = TT_GET_SFPMAD_VC(w);
    const unsigned mod1 = TT_GET_SFPMAD_Mod1(w);
    const uint32_t neg_b = !wh && (mod1 & MAD_NEGATE_VB) ? SIGN : 0;
    const uint32_t neg_c = !wh && (mod1 & MAD_NEGATE_VC) ? SIGN : 0;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const unsigned a = (mod1 & MAD_INDIRECT_VA) ? lreg7_index(s, lane) : va;
        const uint32_t d = sfpu_mad_fp32(s->lreg[a][lane], s->lreg[vb][lane] ^ neg_b,
                                         s->lreg[vc][lane] ^ neg_c, wh);
        sfpu_mad_write(s, vd, (mod1 & MAD_INDIRECT_VD) != 0, lane, d);
    }
}

/* ---- SFPMULI, SFPADDI ---- */

/* SFPMULI.md: BF16ToFP32(Imm16) * LReg[VD] + 0.0 (the + 0.0 turns -0 into +0); SFPADDI.md:
 * BF16ToFP32(Imm16) * 1.0 + LReg[VD]. Blackhole's NEGATE_VC flips LReg[VD]'s sign first; both
 * arches have INDIRECT_VD. The two share their layout (checked in sfpu.c). */
void sfpu_mad_imm(struct sfpu_state *s, uint32_t w, unsigned vd, bool add, uint32_t lanes,
                  bool wh)
{
    const uint32_t imm = TT_GET_SFPMULI_Imm16(w) << 16;
    const unsigned mod1 = TT_GET_SFPMULI_Mod1(w), vc = TT_GET_SFPMULI_VD(w);
    const uint32_t neg_c = !wh && (mod1 & MAD_NEGATE_VC) ? SIGN : 0;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t c = s->lreg[vc][lane] ^ neg_c;
        const uint32_t d = add ? sfpu_mad_fp32(imm, FP32_ONE, c, wh) : sfpu_mad_fp32(imm, c, 0, wh);
        sfpu_mad_write(s, vd, (mod1 & MAD_INDIRECT_VD) != 0, lane, d);
    }
}

/* ---- SFPMUL24 (Blackhole) ---- */

/* BH:SFPMUL24.md Mul24ShiftAdd: what the floating-point adder does to the 23-bit product p
 * when LReg[VC] is not 0 (software is told to use VC = 9, the constant 0, which leaves p as it
 * is). p sits at exponent 129; z's significand with three guard bits is aligned to the larger
 * exponent (shift amounts taken mod 32 as the hardware's), added to p, and 1 << 16 is added too
 * when more than the low 16 bits' worth was shifted out of z; the sum is cut to 23 bits. */
static uint32_t mul24_shift_add(uint32_t p, uint32_t z)
{
    const unsigned ez = exp_field(z);
    if (ez == 0)
        return p;
    const unsigned e = ez > 129 ? ez : 129;
    const unsigned s = (e - ez) & 31;
    const uint32_t zg = (HIDDEN | (z & MAN)) << 3;
    p >>= (e - 129) & 31;
    const uint32_t za = zg >> s;
    if (za) {
        const uint32_t lost = zg ^ (za << s); /* the bits of zg that the shift dropped */
        p += za + (lost > 0xFFFF ? 1u << 16 : 0);
        p &= MAN;
    }
    return p;
}

/* BH:SFPMUL24.md: the low 23 bits of LReg[va] * LReg[VB] (UPPER clear), or bits 45..23 of the
 * product of their low 23 bits (UPPER), through Mul24ShiftAdd with LReg[VC]; integers, so
 * nothing is flushed. */
void sfpu_mul24(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes)
{
    const unsigned va = TT_GET_SFPMUL24_VA(w), vb = TT_GET_SFPMUL24_VB(w);
    const unsigned vc = TT_GET_SFPMUL24_VC(w);
    const unsigned mod1 = TT_GET_SFPMUL24_Mod1(w);
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const unsigned ia = (mod1 & MUL24_INDIRECT_VA) ? lreg7_index(s, lane) : va;
        const uint32_t a = s->lreg[ia][lane] & MAN, b = s->lreg[vb][lane] & MAN;
        const uint64_t prod = (uint64_t)a * b;
        const uint32_t p = (mod1 & MUL24_UPPER) ? (uint32_t)(prod >> 23) : (uint32_t)prod & MAN;
        sfpu_mad_write(s, vd, (mod1 & MUL24_INDIRECT_VD) != 0, lane,
                     mul24_shift_add(p, s->lreg[vc][lane]));
    }
}
