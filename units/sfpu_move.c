/* The vector unit's lane movement: SFPSWAP (swap, min/max, argmin/argmax), SFPTRANSP (4x4
 * transposes down each column) and SFPSHFT2 (register shuffles, lane rotate/shift within rows,
 * bit shifts), Blackhole and Wormhole B0 (each instruction's page, functional model).
 *
 * Every register and lane an instruction reads is read before it writes any: the pages take
 * whole-vector copies of the sources that move across lanes ("auto vc = LReg[VC]"), and the
 * lanewise parts read a lane's registers before writing that lane's. Only the lanes of `lanes`
 * (those not taking the word as a template, units/sfpu_lanes.h) that are LaneEnabled write. */
#include <stdio.h>
#include <string.h>

#include "../core/error.h"
#include "../core/tile.h"
#include "sfpu_lanes.h"

/* LaneConfig bits SFPSWAP reads (SFPCONFIG.md "LaneConfig"; sfpu.h names bits 0-7) */
enum { LC_EXCHANGE_SRCB_SRCC = 1u << 8 };

/* SFPSWAP Mod1 (SFPSWAP.md): 0 swaps; 1 puts the minimum in VD everywhere; 2..8 in the rows
 * named by the mode, the maximum elsewhere; 9..15 the maximum everywhere. */
enum { SWAP_UNCONDITIONAL = 0, SWAP_VEC_MIN_MAX = 1, SWAP_SUBVEC_FIRST = 2, SWAP_SUBVEC_LAST = 8 };

/* SFPSHFT2 Mod1 (SFPSHFT2.md) */
enum { SHFT2_COPY4 = 0, SHFT2_CHAINED_COPY4 = 1, SHFT2_SHFLROR1_AND_COPY4 = 2, SHFT2_SHFLROR1 = 3,
       SHFT2_SHFLSHR1 = 4, SHFT2_SHFT_LREG = 5, SHFT2_SHFT_IMM = 6 };

#define LANES_PER_ROW 8

static bool has(uint32_t mask, unsigned lane) { return mask >> lane & 1; }

/* ---- SFPSWAP ---- */

/* Lanes where VD is to receive the minimum (SFPSWAP.md "VDGetsMin"): a mode 2..8 names rows
 * (8 lanes each) by the digits of its name: MIN01_MAX23, MIN02_MAX13, MIN03_MAX12, MIN0_MAX123,
 * MIN1_MAX023, MIN2_MAX013, MIN3_MAX012. Mod1 9..15 (the page's default case) none. */
static uint32_t vd_gets_min(unsigned mod1)
{
    static const uint8_t min_rows[SWAP_SUBVEC_LAST - SWAP_SUBVEC_FIRST + 1] = {
        0x3, 0x5, 0x9, 0x1, 0x2, 0x4, 0x8};
    if (mod1 == SWAP_VEC_MIN_MAX)
        return SFPU_ALL_LANES;
    if (mod1 < SWAP_SUBVEC_FIRST || mod1 > SWAP_SUBVEC_LAST)
        return 0;
    uint32_t m = 0;
    for (unsigned row = 0; row < 4; row++)
        if (min_rows[mod1 - SWAP_SUBVEC_FIRST] >> row & 1)
            m |= 0xFFu << (row * LANES_PER_ROW);
    return m;
}

/* SFPSWAP.md, both arches. Per enabled lane: Mod1 0 swaps LReg[VC] and LReg[VD]; other modes
 * swap them when they are out of order (VD should get the minimum where vd_gets_min says so,
 * the maximum elsewhere), so equal values are left alone when VD wants the minimum but swapped
 * when it wants the maximum; LaneConfig.EXCHANGE_SRCB_SRCC inverts the decision. A swap writes
 * only the registers below 8. With LaneConfig.ENABLE_DEST_INDEX it writes only those below 4,
 * and the same decision also swaps the index registers LReg[4 + (VC & 3)] and
 * LReg[4 + (VD & 3)] (argmin / argmax), even where VC or VD is 4 or more. */
void sfpu_swap(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned vc = TT_GET_SFPSWAP_VC(w), vd = TT_GET_SFPSWAP_VD(w), mod1 = TT_GET_SFPSWAP_Mod1(w);
    const uint32_t min_lanes = vd_gets_min(mod1);
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const uint32_t c = s->lreg[vc][lane], d = s->lreg[vd][lane];
        const uint32_t lc = s->lane_config[lane];
        bool swap = true;
        if (mod1 != SWAP_UNCONDITIONAL) {
            const bool c_smaller = sfpu_sign_mag_smaller(c, d);
            swap = has(min_lanes, lane) ? c_smaller : !c_smaller;
            if (lc & LC_EXCHANGE_SRCB_SRCC)
                swap = !swap;
        }
        if (!swap)
            continue;
        if (lc & SFPU_LC_ENABLE_DEST_INDEX) {
            if (vc < 4)
                s->lreg[vc][lane] = d;
            if (vd < 4)
                s->lreg[vd][lane] = c;
            const unsigned ic = 4 + (vc & 3), id = 4 + (vd & 3);
            const uint32_t ci = s->lreg[ic][lane], di = s->lreg[id][lane];
            s->lreg[ic][lane] = di;
            s->lreg[id][lane] = ci;
        } else {
            if (sfpu_vd_writable(vc))
                s->lreg[vc][lane] = d;
            if (sfpu_vd_writable(vd))
                s->lreg[vd][lane] = c;
        }
    }
}

/* ---- SFPTRANSP ---- */

/* SFPTRANSP.md, both arches: LReg[0..3] stacked are 16 rows of 8 columns; within each column
 * the 16 values, read as a 4x4 matrix (register i, row j), are transposed, and likewise
 * LReg[4..7]. So LReg[b + i] row j takes the old LReg[b + j] row i; a destination lane that is
 * not enabled keeps its value (the page gates each write by the lane it lands in), even when
 * the lane it would have sent its value to is enabled. VD selects nothing but the backdoor. */
void sfpu_transp(struct sfpu_state *s, uint32_t lanes)
{
    uint32_t old[8][SFPU_LANES];
    memcpy(old, s->lreg, sizeof old);
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    for (unsigned base = 0; base < 8; base += 4)
        for (unsigned i = 0; i < 4; i++)
            SFPU_FOR_EACH_LANE(lane, en) {
                const unsigned row = lane / LANES_PER_ROW, col = lane % LANES_PER_ROW;
                s->lreg[base + i][lane] = old[base + row][i * LANES_PER_ROW + col];
            }
}

/* ---- SFPSHFT2 ---- */

/* What a rotate right by one lane within each row of 8 delivers into `lane`: the value of the
 * lane to its left, the row's last lane for its first. */
static unsigned ror1_source(unsigned lane)
{
    return lane % LANES_PER_ROW ? lane - 1 : lane + LANES_PER_ROW - 1;
}

/* LReg[0] := LReg[1], [1] := [2], [2] := [3], [3] := `l3` on one lane. */
static void copy4_lane(struct sfpu_state *s, unsigned lane, uint32_t l3)
{
    s->lreg[0][lane] = s->lreg[1][lane];
    s->lreg[1][lane] = s->lreg[2][lane];
    s->lreg[2][lane] = s->lreg[3][lane];
    s->lreg[3][lane] = l3;
}

/* LReg[vb] shifted left by `amount` when it is >= 0, right (logically) by -amount otherwise,
 * modulo 32 either way. */
static uint32_t shift_by(uint32_t x, int32_t amount)
{
    return amount >= 0 ? x << ((uint32_t)amount & 31) : x >> ((0u - (uint32_t)amount) & 31);
}

static int32_t sign_extend12(uint32_t x) { return (int32_t)((x ^ 0x800u) - 0x800u); }

/* SFPSHFT2.md, modes 0..6; the pages name no mode 7..15 (their switch has no case for them):
 * those stop the run as undefined, as ttsim does, when some lane runs the model. */
void sfpu_shft2(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh, struct sfpu_fault *f)
{
    const unsigned vc = TT_GET_SFPSHFT2_VC(w), vd = TT_GET_SFPSHFT2_VD(w);
    const unsigned mod1 = TT_GET_SFPSHFT2_Mod1(w);
    const uint32_t imm12 = TT_GET_SFPSHFT2_Imm12(w);
    const unsigned vb = imm12 & 0xF; /* the register modes' VB is the low 4 bits of Imm12 */
    if (mod1 > SHFT2_SHFT_IMM) {
        if (lanes) {
            f->kind = ERR_UNDEF_BEHAVIOUR;
            snprintf(f->why, sizeof f->why, "SFPSHFT2 Mod1 %u (the page defines 0-6)", mod1);
        }
        return;
    }
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    uint32_t src[SFPU_LANES]; /* the whole-vector copy the cross-lane modes read */
    switch (mod1) {
    case SHFT2_COPY4:
        SFPU_FOR_EACH_LANE(lane, en)
            copy4_lane(s, lane, 0);
        break;
    case SHFT2_CHAINED_COPY4: /* LReg[3] takes the original LReg[0] of the row below */
        memcpy(src, s->lreg[0], sizeof src);
        SFPU_FOR_EACH_LANE(lane, en)
            copy4_lane(s, lane, lane + LANES_PER_ROW < SFPU_LANES ? src[lane + LANES_PER_ROW] : 0);
        break;
    case SHFT2_SHFLROR1_AND_COPY4:
    case SHFT2_SHFLROR1:
        /* Wormhole's SHFLSHR1 reuses what the last of these rotated into each lane (below):
         * every lane that runs the model latches it, enabled or not, even with VD 8..15 */
        memcpy(src, s->lreg[vc], sizeof src);
        SFPU_FOR_EACH_LANE(lane, lanes)
            s->shfl_ror1_latch[lane] = src[ror1_source(lane)];
        if (mod1 == SHFT2_SHFLROR1_AND_COPY4) {
            SFPU_FOR_EACH_LANE(lane, en)
                copy4_lane(s, lane, src[ror1_source(lane)]);
        } else if (sfpu_vd_writable(vd)) {
            SFPU_FOR_EACH_LANE(lane, en)
                s->lreg[vd][lane] = src[ror1_source(lane)];
        }
        break;
    case SHFT2_SHFLSHR1:
        /* Each row's first lane should take 0. WH:SFPSHFT2.md: a hardware bug gives it instead
         * what the last SHFLROR1 / SHFLROR1_AND_COPY4 rotated into it (0 from reset in
         * tensim, the page giving no initial value); Blackhole fixed it. */
        if (!sfpu_vd_writable(vd))
            break;
        memcpy(src, s->lreg[vc], sizeof src);
        SFPU_FOR_EACH_LANE(lane, en)
            s->lreg[vd][lane] = lane % LANES_PER_ROW ? src[lane - 1]
                                : wh                  ? s->shfl_ror1_latch[lane]
                                                      : 0;
        break;
    case SHFT2_SHFT_LREG: /* LReg[VB] shifted by the signed integer in LReg[VC] */
        if (!sfpu_vd_writable(vd))
            break;
        SFPU_FOR_EACH_LANE(lane, en)
            s->lreg[vd][lane] = shift_by(s->lreg[vb][lane], (int32_t)s->lreg[vc][lane]);
        break;
    case SHFT2_SHFT_IMM: { /* LReg[Imm12 & 15] shifted by the signed Imm12 itself */
        if (!sfpu_vd_writable(vd))
            break;
        const int32_t amount = sign_extend12(imm12);
        SFPU_FOR_EACH_LANE(lane, en)
            s->lreg[vd][lane] = shift_by(s->lreg[vb][lane], amount);
        break;
    }
    }
}
