/* The vector unit's moves, immediates, integer and bit operations: SFPLOADI, SFPMOV, SFPNOT,
 * SFPAND, SFPOR, SFPXOR, SFPIADD, SFPSHFT, SFPSETSGN, SFPABS, SFPSETEXP, SFPSETMAN, SFPEXEXP,
 * SFPEXMAN, SFPLZ, SFPDIVP2 (each instruction's page, functional model). All are lanewise on
 * enabled lanes. */
#include <stdio.h>

#include "../core/error.h"
#include "../core/tile.h"
#include "sfpu_lanes.h"

/* SFPLOADI Mod0 (SFPLOADI.md) */
enum { LOADI_FLOATB = 0, LOADI_FLOATA = 1, LOADI_USHORT = 2, LOADI_SHORT = 4, LOADI_UPPER = 8,
       LOADI_LOWER = 10 };
/* SFPMOV Mod1 (SFPMOV.md) */
enum { MOV_NEGATE = 1, MOV_ALL_LANES_ENABLED = 2, MOV_FROM_SPECIAL = 8, MOV_SPECIAL_PRNG = 9,
       MOV_SPECIAL_LANE_CONFIG = 15 };
enum { AND_OR_USE_VB = 1 };                                  /* BH:SFPAND.md, BH:SFPOR.md */
enum { IADD_ARG_IMM = 1, IADD_2SCOMP = 2, IADD_CC_NONE = 4, IADD_CC_GTE0 = 8 }; /* SFPIADD.md */
enum { SHFT_ARG_IMM = 1, SHFT_ARITHMETIC = 2, SHFT_IMM_USE_VC = 4 }; /* BH:SFPSHFT.md */
enum { SETSGN_ARG_IMM = 1 };                                 /* SFPSETSGN.md */
enum { ABS_FLOAT = 1 };                                      /* SFPABS.md */
enum { SETEXP_ARG_IMM = 1, SETEXP_ARG_EXPONENT = 2 };        /* SFPSETEXP.md */
enum { SETMAN_ARG_IMM = 1 };                                 /* SFPSETMAN.md */
enum { EXEXP_NODEBIAS = 1, EXEXP_CC_SGN = 2, EXEXP_CC_COMP = 8 }; /* SFPEXEXP.md */
enum { EXMAN_PAD9 = 1 };                                     /* SFPEXMAN.md */
enum { LZ_CC_NE0 = 2, LZ_NOSGN_MASK = 4, LZ_CC_COMP = 8 };   /* SFPLZ.md */
enum { DIVP2_ADD = 1 };                                      /* SFPDIVP2.md */

#define FP32_SIGN 0x80000000u
#define FP32_EXP 0x7F800000u
#define FP32_MAN 0x007FFFFFu

static int32_t sign_extend(uint32_t x, unsigned bits)
{
    const uint32_t m = 1u << (bits - 1);
    return (int32_t)((x ^ m) - m);
}

/* One lane's result of an instruction whose only effect is writing LReg[VD]. */
typedef uint32_t lane_fn(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane);

static void lanewise(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes, lane_fn *fn)
{
    if (!sfpu_vd_writable(vd))
        return;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en)
            s->lreg[vd][lane] = fn(s, w, vd, lane);
}

/* ---- SFPLOADI ---- */

/* SFPLOADI.md FP16toFP32: widen the exponent from 5 to 8 bits by adding 112; no special case
 * for zero, denormals, infinities or NaN (ttsim does the same). */
static uint32_t fp16_to_fp32(uint32_t x)
{
    return (x >> 15) << 31 | (((x >> 10) & 0x1F) + 112) << 23 | (x & 0x3FF) << 13;
}

/* SFPLOADI.md: only VD < 8, on enabled lanes; no backdoor (its page has none: VD >= 8 writes
 * nothing). A Mod0 the page does not list is undefined. */
void sfpu_loadi(struct sfpu_state *s, uint32_t w, struct sfpu_fault *f)
{
    const unsigned vd = TT_GET_SFPLOADI_VD(w), mod0 = TT_GET_SFPLOADI_Mod0(w);
    const uint32_t imm = TT_GET_SFPLOADI_Imm16(w);
    const uint32_t en = sfpu_enabled_lanes(s, SFPU_ALL_LANES);
    if (!sfpu_vd_writable(vd) || !en)
        return;
    uint32_t keep = 0, v;
    switch (mod0) {
    case LOADI_FLOATB: v = imm << 16; break;
    case LOADI_FLOATA: v = fp16_to_fp32(imm); break;
    case LOADI_USHORT: v = imm; break;
    case LOADI_SHORT: v = (uint32_t)sign_extend(imm, 16); break;
    case LOADI_UPPER: v = imm << 16, keep = 0x0000FFFFu; break;
    case LOADI_LOWER: v = imm, keep = 0xFFFF0000u; break;
    default:
        f->kind = ERR_UNDEF_BEHAVIOUR;
        snprintf(f->why, sizeof f->why, "SFPLOADI Mod0 %u", mod0);
        return;
    }
    SFPU_FOR_EACH_LANE(lane, en)
            s->lreg[vd][lane] = (s->lreg[vd][lane] & keep) | v;
}

/* ---- SFPMOV ---- */

/* SFPMOV.md FROM_SPECIAL: VC read as SFPCONFIG reads VD (9, the PRNG, is sfpu_mov's). */
static uint32_t mov_special(const struct sfpu_state *s, unsigned vc, unsigned lane)
{
    const struct sfpu_macro_config *m = &s->macro[lane];
    if (vc < 4)
        return m->instruction_template[vc];
    if (vc < 8)
        return m->sequence[vc - 4];
    if (vc == 8)
        return m->misc;
    if (vc == MOV_SPECIAL_LANE_CONFIG)
        return s->lane_config[lane];
    return 0;
}

/* SFPMOV.md: Mod1 exactly ALL_LANES_ENABLED (2) runs on every lane of `lanes`, enabled or not;
 * NEGATE flips bit 31 of an LReg source. */
void sfpu_mov(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned vc = TT_GET_SFPMOV_VC(w), vd = TT_GET_SFPMOV_VD(w), mod1 = TT_GET_SFPMOV_Mod1(w);
    const bool special = (mod1 & MOV_FROM_SPECIAL) != 0;
    const uint32_t en = mod1 == MOV_ALL_LANES_ENABLED ? lanes : sfpu_enabled_lanes(s, lanes);
    if (special && vc == MOV_SPECIAL_PRNG) { /* every lane that runs advances its PRNG */
        SFPU_FOR_EACH_LANE(lane, en) {
            uint32_t x = sfpu_prng_advance(s, lane);
            if (sfpu_vd_writable(vd))
                s->lreg[vd][lane] = x;
        }
        return;
    }
    if (!sfpu_vd_writable(vd))
        return;
    SFPU_FOR_EACH_LANE(lane, en) {
        uint32_t x = special ? mov_special(s, vc, lane) : s->lreg[vc][lane];
        if (!special && (mod1 & MOV_NEGATE))
            x ^= FP32_SIGN; /* FP32 or sign-magnitude negation */
        s->lreg[vd][lane] = x;
    }
}

/* ---- bitwise ---- */

static uint32_t not_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    (void)vd;
    return ~s->lreg[TT_GET_SFPNOT_VC(w)][lane];
}
void sfpu_not(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPNOT_VD(w), lanes, not_lane);
}

/* SFPAND.md / SFPOR.md: LReg[VD] = LReg[VB] op LReg[VC]; VB is VD unless Blackhole's USE_VB
 * (the caller resolves it: Wormhole's encoding has no VB or Mod1). */
void sfpu_and_or(struct sfpu_state *s, unsigned vb, unsigned vc, unsigned vd, bool is_or,
                 uint32_t lanes)
{
    if (!sfpu_vd_writable(vd))
        return;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en)
            s->lreg[vd][lane] = is_or ? s->lreg[vb][lane] | s->lreg[vc][lane]
                                      : s->lreg[vb][lane] & s->lreg[vc][lane];
}

static uint32_t xor_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    return s->lreg[vd][lane] ^ s->lreg[TT_GET_SFPXOR_VC(w)][lane];
}
void sfpu_xor(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPXOR_VD(w), lanes, xor_lane);
}

/* ---- SFPIADD ---- */

/* SFPIADD.md: VC + VD, VC - VD, or VC + signed Imm12, wrapping. With VD < 8 it then sets
 * LaneFlags to "result < 0" unless CC_NONE, and inverts LaneFlags with CC_GTE0 (so CC_NONE |
 * CC_GTE0 just inverts them). */
void sfpu_iadd(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned vc = TT_GET_SFPIADD_VC(w), vd = TT_GET_SFPIADD_VD(w), mod1 = TT_GET_SFPIADD_Mod1(w);
    const uint32_t imm = (uint32_t)sign_extend(TT_GET_SFPIADD_Imm12(w), 12);
    if (!sfpu_vd_writable(vd))
        return;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t c = s->lreg[vc][lane], b = s->lreg[vd][lane];
        const uint32_t r = (mod1 & IADD_ARG_IMM) ? c + imm : (mod1 & IADD_2SCOMP) ? c - b : c + b;
        s->lreg[vd][lane] = r;
        if (!(mod1 & IADD_CC_NONE))
            s->lane_flags[lane] = (r & FP32_SIGN) != 0;
        if (mod1 & IADD_CC_GTE0)
            s->lane_flags[lane] = !s->lane_flags[lane];
    }
}

/* ---- SFPSHFT ---- */

/* SFPSHFT.md: shift LReg[VD] by LReg[VC] or the signed Imm12, left when >= 0 and right
 * otherwise, by the amount mod 32. Blackhole adds ARITHMETIC (right shifts keep the sign) and
 * IMM_USE_VC (with ARG_IMM, shift LReg[VC] instead of LReg[VD]); Wormhole's page reads only
 * ARG_IMM. */
void sfpu_shft(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh)
{
    const unsigned vc = TT_GET_SFPSHFT_VC(w), vd = TT_GET_SFPSHFT_VD(w);
    const unsigned mod1 = TT_GET_SFPSHFT_Mod1(w) & (wh ? SHFT_ARG_IMM : 0xF);
    const int32_t imm = sign_extend(TT_GET_SFPSHFT_Imm12(w), 12);
    if (!sfpu_vd_writable(vd))
        return;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        uint32_t x = s->lreg[vd][lane];
        int32_t amount = (int32_t)s->lreg[vc][lane];
        if (mod1 & SHFT_ARG_IMM) {
            if (mod1 & SHFT_IMM_USE_VC)
                x = (uint32_t)amount;
            amount = imm;
        }
        const unsigned n = (amount >= 0 ? (uint32_t)amount : 0u - (uint32_t)amount) & 31;
        if (amount >= 0)
            x <<= n;
        else if (mod1 & SHFT_ARITHMETIC)
            x = (x >> n) | (x & FP32_SIGN ? ~(0xFFFFFFFFu >> n) : 0);
        else
            x >>= n;
        s->lreg[vd][lane] = x;
    }
}

/* ---- FP32 fields ---- */

/* SFPSETSGN.md: LReg[VC] with the sign of LReg[VD] or Imm1. */
static uint32_t setsgn_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    const uint32_t sign = (TT_GET_SFPSETSGN_Mod1(w) & SETSGN_ARG_IMM)
                              ? TT_GET_SFPSETSGN_Imm1(w) << 31 : s->lreg[vd][lane] & FP32_SIGN;
    return sign | (s->lreg[TT_GET_SFPSETSGN_VC(w)][lane] & ~FP32_SIGN);
}
void sfpu_setsgn(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPSETSGN_VD(w), lanes, setsgn_lane);
}

/* SFPABS.md: FLOAT clears the sign bit except of -NaN (> 0xFF800000); otherwise two's
 * complement negation of negative values, 0x80000000 staying as it is. */
static uint32_t abs_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    (void)vd;
    const uint32_t x = s->lreg[TT_GET_SFPABS_VC(w)][lane];
    if (!(x & FP32_SIGN))
        return x;
    if (TT_GET_SFPABS_Mod1(w) & ABS_FLOAT)
        return x > 0xFF800000u ? x : x & ~FP32_SIGN;
    return 0u - x;
}
void sfpu_abs(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPABS_VD(w), lanes, abs_lane);
}

/* SFPSETEXP.md: LReg[VC] with its exponent from Imm8, from LReg[VD]'s exponent, or from
 * LReg[VD]'s low 8 bits. */
static uint32_t setexp_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    const unsigned mod1 = TT_GET_SFPSETEXP_Mod1(w);
    const uint32_t b = s->lreg[vd][lane];
    const uint32_t exp = (mod1 & SETEXP_ARG_IMM) ? TT_GET_SFPSETEXP_Imm8(w)
                         : (mod1 & SETEXP_ARG_EXPONENT) ? (b >> 23) & 0xFF : b & 0xFF;
    return (s->lreg[TT_GET_SFPSETEXP_VC(w)][lane] & ~FP32_EXP) | exp << 23;
}
void sfpu_setexp(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPSETEXP_VD(w), lanes, setexp_lane);
}

/* SFPSETMAN.md: LReg[VC] with its mantissa from Imm12 << 11 or from LReg[VD]'s low 23 bits. */
static uint32_t setman_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    const uint32_t man = (TT_GET_SFPSETMAN_Mod1(w) & SETMAN_ARG_IMM)
                             ? TT_GET_SFPSETMAN_Imm12(w) << 11 : s->lreg[vd][lane] & FP32_MAN;
    return (s->lreg[TT_GET_SFPSETMAN_VC(w)][lane] & ~FP32_MAN) | man;
}
void sfpu_setman(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPSETMAN_VD(w), lanes, setman_lane);
}

/* SFPEXEXP.md: the exponent field of LReg[VC], less 127 unless NODEBIAS, as a two's complement
 * integer. With VD < 8, SET_CC_SGN_EXP sets LaneFlags to "result < 0" and SET_CC_COMP_EXP then
 * inverts LaneFlags (alone, it just inverts them). */
void sfpu_exexp(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned vc = TT_GET_SFPEXEXP_VC(w), vd = TT_GET_SFPEXEXP_VD(w), mod1 = TT_GET_SFPEXEXP_Mod1(w);
    const int32_t bias = (mod1 & EXEXP_NODEBIAS) ? 0 : 127;
    if (!sfpu_vd_writable(vd))
        return;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const int32_t r = (int32_t)((s->lreg[vc][lane] >> 23) & 0xFF) - bias;
        s->lreg[vd][lane] = (uint32_t)r;
        if (mod1 & EXEXP_CC_SGN)
            s->lane_flags[lane] = r < 0;
        if (mod1 & EXEXP_CC_COMP)
            s->lane_flags[lane] = !s->lane_flags[lane];
    }
}

/* SFPEXMAN.md: the mantissa of LReg[VC], with the hidden bit (bit 23) set unless PAD9. */
static uint32_t exman_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    (void)vd;
    const uint32_t hidden = (TT_GET_SFPEXMAN_Mod1(w) & EXMAN_PAD9) ? 0 : 1u << 23;
    return hidden | (s->lreg[TT_GET_SFPEXMAN_VC(w)][lane] & FP32_MAN);
}
void sfpu_exman(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPEXMAN_VD(w), lanes, exman_lane);
}

/* ---- SFPLZ, SFPDIVP2 ---- */

/* SFPLZ.md: leading zeros of LReg[VC] (of its magnitude with NOSGN_MASK), 32 for zero. With
 * VD < 8, CC_NE0 sets LaneFlags to "the counted value != 0" and CC_COMP then inverts LaneFlags
 * (alone, it just inverts them). Mod1 bit 0 is not read. */
void sfpu_lz(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned vc = TT_GET_SFPLZ_VC(w), vd = TT_GET_SFPLZ_VD(w), mod1 = TT_GET_SFPLZ_Mod1(w);
    if (!sfpu_vd_writable(vd))
        return;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        uint32_t c = s->lreg[vc][lane];
        if (mod1 & LZ_NOSGN_MASK)
            c &= ~FP32_SIGN;
        s->lreg[vd][lane] = c ? (uint32_t)__builtin_clz(c) : 32;
        if (mod1 & LZ_CC_NE0)
            s->lane_flags[lane] = c != 0;
        if (mod1 & LZ_CC_COMP)
            s->lane_flags[lane] = !s->lane_flags[lane];
    }
}

/* SFPDIVP2.md: LReg[VC] with its exponent set to Imm8, or with ADD, Imm8 added to it modulo 256
 * unless it is 255 (Inf and NaN kept). Sign and mantissa unchanged, so zeros and denormals
 * (exponent 0) take the new exponent like any other value. Mod1 bits 1-3 are not read. */
static uint32_t divp2_lane(const struct sfpu_state *s, uint32_t w, unsigned vd, unsigned lane)
{
    (void)vd;
    const uint32_t c = s->lreg[TT_GET_SFPDIVP2_VC(w)][lane], imm = TT_GET_SFPDIVP2_Imm8(w);
    uint32_t exp = (c >> 23) & 0xFF;
    if (!(TT_GET_SFPDIVP2_Mod1(w) & DIVP2_ADD))
        exp = imm;
    else if (exp != 0xFF)
        exp = (exp + imm) & 0xFF;
    return (c & ~FP32_EXP) | exp << 23;
}
void sfpu_divp2(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    lanewise(s, w, TT_GET_SFPDIVP2_VD(w), lanes, divp2_lane);
}
