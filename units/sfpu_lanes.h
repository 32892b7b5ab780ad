/* Inside the vector unit (units/sfpu.c, sfpu_cc.c, sfpu_simple.c): lane masks and the
 * instructions' functional models. Not for other units.
 *
 * Every instruction gets `lanes`, the lanes that run its functional model: all of them, less
 * those where VD >= 12 sent the word to LoadMacroConfig.InstructionTemplate[VD - 12] instead
 * (SFPCONFIG.md "LaneConfig", DISABLE_BACKDOOR_LOAD). Which of those are also LaneEnabled
 * (VectorUnit.md "Lane Predication Masks") each model decides, as its page says: the flag
 * instructions act on every lane, the others only on enabled ones. */
#ifndef TENSIM_UNITS_SFPU_LANES_H
#define TENSIM_UNITS_SFPU_LANES_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"
#include "sfpu.h"

#define SFPU_ALL_LANES 0xFFFFFFFFu

/* Lanes of `lanes` that are LaneEnabled, read before the instruction changes anything. */
static inline uint32_t sfpu_enabled_lanes(const struct sfpu_state *s, uint32_t lanes)
{
    uint32_t m = 0;
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)
        if ((lanes >> lane & 1) && sfpu_lane_enabled(s, lane))
            m |= 1u << lane;
    return m;
}

/* The body that follows runs once for each lane set in mask `en`, lowest first. */
#define SFPU_FOR_EACH_LANE(lane, en)                                                               \
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)                                             \
        if ((en) >> lane & 1)

/* The pages write LReg[VD] only "if (VD < 8 || VD == 16)" (LReg.md): LReg[8..15] are read-only
 * to the instructions, so VD 8..11 (and 12..15 with the backdoor disabled) change nothing. 16 has
 * no 4-bit encoding: only SFPLOADMACRO's redirect reaches it (sfpu_mad_write). */
static inline bool sfpu_vd_writable(unsigned vd) { return vd < 8; }

/* An instruction that the pages leave undefined, or that tensim does not model, stops the run:
 * kind ERR_UNDEF_BEHAVIOUR or ERR_UNIMPLEMENTED with a reason; ERR_NONE when it ran. A model
 * that can fault checks every lane before it changes anything. */
struct sfpu_fault {
    enum err_kind kind;
    char why[96];
};

/* AdvancePRNG(Lane) (VectorUnit.md "PRNG"): the state's bits, then a shift right taking in the
 * complement of the parity of taps 31, 21, 1 and 0. */
static inline uint32_t sfpu_prng_step(uint32_t x)
{
    return (uint32_t)~__builtin_popcount(x & 0x80200003u) << 31 | x >> 1;
}
static inline uint32_t sfpu_prng_advance(struct sfpu_state *s, unsigned lane)
{
    uint32_t x = s->prng[lane];
    s->prng[lane] = sfpu_prng_step(x);
    return x;
}

/* SignMagIsSmaller (BH:SFPLE.md, SFPSWAP.md): c < d read as sign-magnitude integers, which for
 * FP32 is the total order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. A negative value's
 * magnitude bits are inverted so that it orders as two's complement (-0 as -1, the largest
 * magnitude as -2^31). Used by SFPLE, SFPGT (sfpu_cc.c) and SFPSWAP (sfpu_move.c). */
static inline bool sfpu_sign_mag_smaller(uint32_t c, uint32_t d)
{
    if (c & 0x80000000u)
        c ^= 0x7FFFFFFFu;
    if (d & 0x80000000u)
        d ^= 0x7FFFFFFFu;
    return (int32_t)c < (int32_t)d;
}

/* Two's complement to sign-magnitude (WH:SFPSTORE.md ToSignMag, BH:SFPCAST_IntInt.md): -2^31
 * has no magnitude and becomes -0. The way back is fmt_sm32_value (units/formats.h). */
static inline uint32_t sfpu_twos_to_sm(uint32_t x)
{
    return x & 0x80000000u ? 0x80000000u | (0u - x) : x;
}

/* Condition codes (sfpu_cc.c). `wh`: the Wormhole B0 page where the two differ. */
void sfpu_setcc(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_encc(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_pushc(struct sfpu_state *s, unsigned mod1, uint32_t lanes, struct sfpu_fault *f);
void sfpu_popc(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh, struct sfpu_fault *f);
void sfpu_compc(struct sfpu_state *s, uint32_t lanes);
/* Blackhole's SFPLE (gt false) and SFPGT (gt true): comparisons into LReg, flags, stack top. */
void sfpu_cmp(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool gt);

/* Moves, immediates, integer and bit operations (sfpu_simple.c). */
void sfpu_loadi(struct sfpu_state *s, uint32_t w, struct sfpu_fault *f);
void sfpu_mov(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_not(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_and_or(struct sfpu_state *s, unsigned vb, unsigned vc, unsigned vd, bool is_or,
                 uint32_t lanes);
void sfpu_xor(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_iadd(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_shft(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh);
void sfpu_setsgn(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_abs(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_setexp(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_setman(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_exexp(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_exman(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_lz(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_divp2(struct sfpu_state *s, uint32_t w, uint32_t lanes);

/* The MAD sub-unit (sfpu_mad.c). */
/* x * y + z on FP32 bits as the MAD datapath computes it (SFPMAD.md "IEEE754 conformance"):
 * Blackhole's, or Wormhole B0's when `wh`. The instructions below take `vd`, the word's VD, or 16
 * for a macro-scheduled instance redirected to LReg[16] (SFPLOADMACRO.md). */
uint32_t sfpu_mad_fp32(uint32_t x, uint32_t y, uint32_t z, bool wh);
/* SFPMAD, SFPADD and SFPMUL (one layout) */
void sfpu_mad(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes, bool wh);
/* SFPMULI (add false) and SFPADDI (add true) */
void sfpu_mad_imm(struct sfpu_state *s, uint32_t w, unsigned vd, bool add, uint32_t lanes,
                  bool wh);
void sfpu_mul24(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes); /* Blackhole */
/* A MAD sub-unit result v of one lane into LReg[vd], or LReg[LReg[7] & 15] when `indirect` and
 * vd is not 16; only LReg[0..7] and LReg[16] take it. */
void sfpu_mad_write(struct sfpu_state *s, unsigned vd, bool indirect, unsigned lane, uint32_t v);
/* SFPLUT and SFPLUTFP32 (sfpu_lut.c). SFPLUT's VD is in bits 23..20: the dispatch reads it
 * with sfpu_field_vd for the VD >= 12 backdoor like any other form's. */
void sfpu_lut(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes, bool wh);
void sfpu_lutfp32(struct sfpu_state *s, uint32_t w, unsigned vd, uint32_t lanes, bool wh);

/* Rounding and conversions (sfpu_round.c). */
/* `wh`: the Wormhole B0 page. */
void sfpu_stochrnd(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh);
void sfpu_cast(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh);
void sfpu_arecip(struct sfpu_state *s, uint32_t w, uint32_t lanes); /* Blackhole only */

/* Lane movement (sfpu_move.c). */
/* SFPSWAP, SFPTRANSP (both arches alike) and SFPSHFT2 (`wh`: Wormhole's SHFLSHR1 bug). */
void sfpu_swap(struct sfpu_state *s, uint32_t w, uint32_t lanes);
void sfpu_transp(struct sfpu_state *s, uint32_t lanes);
void sfpu_shft2(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh, struct sfpu_fault *f);

/* Dst <-> LReg (sfpu_ldst.c). `wh`: the Wormhole B0 page. They advance the thread's RWCs. */
struct tile;
void sfpu_load(struct tile *t, unsigned th, uint32_t w, bool wh, struct sfpu_fault *f);
void sfpu_store(struct tile *t, unsigned th, uint32_t w, uint32_t lanes, bool wh, uint64_t ready,
                struct sfpu_fault *f);
/* SFPLOADMACRO's load part (returns its Dst address) and its scheduled SFPSTORE. */
unsigned sfpu_load_fields(struct tile *t, unsigned th, unsigned vd, unsigned mod0, unsigned addr_mod,
                          unsigned imm10, bool wh, struct sfpu_fault *f);
void sfpu_store_at(struct tile *t, unsigned th, unsigned vd, unsigned mod0, unsigned addr,
                   uint32_t lanes, bool wh, uint64_t ready, struct sfpu_fault *f);

#endif
