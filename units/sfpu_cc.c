/* The vector unit's condition codes: SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC, and
 * Blackhole's comparisons SFPLE and SFPGT, on
 * LaneFlags, UseLaneFlagsForLaneEnable and the 8-deep per-lane flag stack (VectorUnit.md "Lane
 * Predication Masks"; each instruction's page, functional model). */
#include <stdio.h>

#include "../core/error.h"
#include "../core/tile.h"
#include "sfpu_lanes.h"

/* SFPSETCC Mod1 (SFPSETCC.md "Supporting definitions") */
enum { SETCC_IMM_BIT0 = 1, SETCC_CLEAR = 8, SETCC_LT0 = 0, SETCC_NE0 = 2, SETCC_GTE0 = 4,
       SETCC_EQ0 = 6 };
/* SFPENCC Mod1 and Imm2 bits (SFPENCC.md "Supporting definitions") */
enum { ENCC_MOD1_EC = 1, ENCC_MOD1_EI = 2, ENCC_MOD1_RI = 8, ENCC_IMM2_E = 1, ENCC_IMM2_R = 2 };
/* SFPPUSHC/SFPPOPC Mod1: 0 push/pop, 1..12 BooleanOp, 13 invert, 14 and 15 constants */
enum { STACK_PLAIN = 0, STACK_BOOL_LAST = 12, STACK_INVERT = 13, STACK_TRUE = 14,
       STACK_FALSE = 15 };

/* SFPSETCC.md: on enabled lanes only. Without flags in use it clears LaneFlags; otherwise
 * CLEAR, then the immediate, then a sign or zero test of LReg[VC] as a two's complement
 * integer (so FP -0.0 is "< 0" and "!= 0"). */
void sfpu_setcc(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned mod1 = TT_GET_SFPSETCC_Mod1(w), vc = TT_GET_SFPSETCC_VC(w);
    const bool imm = TT_GET_SFPSETCC_Imm1(w) != 0;
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, en) {
        const int32_t c = (int32_t)s->lreg[vc][lane];
        bool f;
        if (!s->use_lane_flags[lane] || (mod1 & SETCC_CLEAR))
            f = false;
        else if (mod1 & SETCC_IMM_BIT0)
            f = imm;
        else if (mod1 == SETCC_LT0)
            f = c < 0;
        else if (mod1 == SETCC_NE0)
            f = c != 0;
        else if (mod1 == SETCC_GTE0)
            f = c >= 0;
        else /* SETCC_EQ0: the four values left without bits 0 and 3 */
            f = c == 0;
        s->lane_flags[lane] = f;
    }
}

/* SFPENCC.md: every lane, whether enabled or not. */
void sfpu_encc(struct sfpu_state *s, uint32_t w, uint32_t lanes)
{
    const unsigned imm2 = TT_GET_SFPENCC_Imm2(w), mod1 = TT_GET_SFPENCC_Mod1(w);
    SFPU_FOR_EACH_LANE(lane, lanes) {
        if (mod1 & ENCC_MOD1_EI)
            s->use_lane_flags[lane] = (imm2 & ENCC_IMM2_E) != 0;
        else if (mod1 & ENCC_MOD1_EC)
            s->use_lane_flags[lane] = !s->use_lane_flags[lane];
        s->lane_flags[lane] = (mod1 & ENCC_MOD1_RI) ? (imm2 & ENCC_IMM2_R) != 0 : true;
    }
}

/* BooleanOp of SFPPUSHC.md / SFPPOPC.md, Mod1 1..12. */
static bool boolean_op(unsigned mod1, bool a, bool b)
{
    switch (mod1) {
    case 1: return b;
    case 2: return !b;
    case 3: return a && b;
    case 4: return a || b;
    case 5: return a && !b;
    case 6: return a || !b;
    case 7: return !a && b;
    case 8: return !a || b;
    case 9: return !a && !b;
    case 10: return !a || !b;
    case 11: return a != b;
    default: return a == b; /* 12 */
    }
}

/* The first lane of `lanes` whose stack holds `depth` entries, or -1: the check the pages'
 * UndefinedBehaviour() cases need before anything changes. */
static int lane_at_depth(const struct sfpu_state *s, uint32_t lanes, unsigned depth)
{
    SFPU_FOR_EACH_LANE(lane, lanes)
        if (s->flag_depth[lane] == depth)
            return (int)lane;
    return -1;
}

static void fault(struct sfpu_fault *f, int lane, const char *what)
{
    f->kind = ERR_UNDEF_BEHAVIOUR;
    snprintf(f->why, sizeof f->why, "%s (lane %d)", what, lane);
}

/* SFPPUSHC.md, every lane: Mod1 0 pushes {LaneFlags, UseLaneFlagsForLaneEnable} (undefined on
 * a full stack); Blackhole's Mod1 1..15 rewrite the top instead (undefined on an empty one).
 * Wormhole's encoding has no Mod1 (always 0). */
void sfpu_pushc(struct sfpu_state *s, unsigned mod1, uint32_t lanes, struct sfpu_fault *f)
{
    int bad = mod1 == STACK_PLAIN ? lane_at_depth(s, lanes, SFPU_FLAG_STACK)
                                  : lane_at_depth(s, lanes, 0);
    if (bad >= 0) {
        fault(f, bad, mod1 == STACK_PLAIN ? "SFPPUSHC on a full flag stack"
                                          : "SFPPUSHC Mod1 != 0 on an empty flag stack");
        return;
    }
    SFPU_FOR_EACH_LANE(lane, lanes) {
        if (mod1 == STACK_PLAIN) {
            unsigned d = s->flag_depth[lane]++;
            s->flag_stack[lane][d].lane_flags = s->lane_flags[lane];
            s->flag_stack[lane][d].use_lane_flags = s->use_lane_flags[lane];
            continue;
        }
        struct sfpu_flag_entry *top = &s->flag_stack[lane][s->flag_depth[lane] - 1];
        if (mod1 == STACK_INVERT)
            s->lane_flags[lane] = !s->lane_flags[lane];
        if (mod1 <= STACK_INVERT) {
            top->use_lane_flags = s->use_lane_flags[lane];
            top->lane_flags = mod1 == STACK_INVERT ? s->lane_flags[lane]
                                                   : boolean_op(mod1, top->lane_flags, s->lane_flags[lane]);
        } else {
            top->use_lane_flags = true;
            top->lane_flags = mod1 == STACK_TRUE;
        }
    }
}

/* SFPPOPC.md, every lane: Mod1 0 pops into the current state (undefined on an empty stack);
 * other values peek at the top (an empty stack reads {false, false}) and combine it with the
 * current state. On Wormhole a Mod1 other than 0 with a full stack also copies the top over the
 * bottom entry (WH:SFPPOPC.md, a hardware bug Blackhole fixed). */
void sfpu_popc(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool wh, struct sfpu_fault *f)
{
    const unsigned mod1 = TT_GET_SFPPOPC_Mod1(w);
    int bad = mod1 == STACK_PLAIN ? lane_at_depth(s, lanes, 0) : -1;
    if (bad >= 0) {
        fault(f, bad, "SFPPOPC on an empty flag stack");
        return;
    }
    SFPU_FOR_EACH_LANE(lane, lanes) {
        const unsigned depth = s->flag_depth[lane];
        struct sfpu_flag_entry top = {false, false};
        if (depth)
            top = s->flag_stack[lane][depth - 1];
        if (mod1 == STACK_PLAIN)
            s->flag_depth[lane]--;
        else if (wh && depth == SFPU_FLAG_STACK)
            s->flag_stack[lane][0] = top;
        bool *lf = &s->lane_flags[lane], *use = &s->use_lane_flags[lane];
        if (mod1 == STACK_PLAIN) {
            *use = top.use_lane_flags;
            *lf = top.lane_flags;
        } else if (mod1 <= STACK_BOOL_LAST) {
            *use = top.use_lane_flags;
            *lf = boolean_op(mod1, *lf, top.lane_flags);
        } else if (mod1 == STACK_INVERT) {
            *lf = !*lf;
        } else {
            *use = true;
            *lf = mod1 == STACK_TRUE;
        }
    }
}

/* SFPCOMPC.md ("else"), every lane: LaneFlags := top.LaneFlags && !LaneFlags when both the top
 * and the current state use flags, else false; an empty stack reads {true, true}. */
void sfpu_compc(struct sfpu_state *s, uint32_t lanes)
{
    SFPU_FOR_EACH_LANE(lane, lanes) {
        struct sfpu_flag_entry top = {true, true};
        if (s->flag_depth[lane])
            top = s->flag_stack[lane][s->flag_depth[lane] - 1];
        if (top.use_lane_flags && s->use_lane_flags[lane])
            s->lane_flags[lane] = top.lane_flags && !s->lane_flags[lane];
        else
            s->lane_flags[lane] = false;
    }
}

/* ---- Blackhole's SFPLE and SFPGT ---- */

/* SFPLE Mod1 (BH:SFPLE.md; SFPGT.md the same values) */
enum { CMP_SET_CC = 1, CMP_MUTATE_STACK = 2, CMP_MUTATE_OR = 4, CMP_SET_VD = 8 };
_Static_assert(TT_SAME_BITS(SFPLE_VC, SFPGT_VC) && TT_SAME_BITS(SFPLE_VD, SFPGT_VD) &&
               TT_SAME_BITS(SFPLE_Mod1, SFPGT_Mod1), "SFPLE and SFPGT share their layout");

/* BH:SFPLE.md (gt false: VD <= VC, i.e. !(VC < VD)) and BH:SFPGT.md (gt: VD > VC, i.e. VC < VD),
 * VB being VD. On enabled lanes SET_VD writes -1 or 0 to LReg[VD] (VD < 8 only) and SET_CC sets
 * LaneFlags; MUTATE_STACK ANDs (or with MUTATE_OR, ORs) the result into the top entry's
 * LaneFlags on every lane of `lanes`, enabled or not, and does nothing on an empty stack. */
void sfpu_cmp(struct sfpu_state *s, uint32_t w, uint32_t lanes, bool gt)
{
    const unsigned vc = TT_GET_SFPLE_VC(w), vd = TT_GET_SFPLE_VD(w), mod1 = TT_GET_SFPLE_Mod1(w);
    const uint32_t en = sfpu_enabled_lanes(s, lanes);
    SFPU_FOR_EACH_LANE(lane, lanes) {
        const bool smaller = sfpu_sign_mag_smaller(s->lreg[vc][lane], s->lreg[vd][lane]);
        const bool r = gt ? smaller : !smaller;
        if (en >> lane & 1) {
            if ((mod1 & CMP_SET_VD) && sfpu_vd_writable(vd))
                s->lreg[vd][lane] = r ? 0xFFFFFFFFu : 0;
            if (mod1 & CMP_SET_CC)
                s->lane_flags[lane] = r;
        }
        if ((mod1 & CMP_MUTATE_STACK) && s->flag_depth[lane]) {
            bool *top = &s->flag_stack[lane][s->flag_depth[lane] - 1].lane_flags;
            *top = (mod1 & CMP_MUTATE_OR) ? (*top || r) : (*top && r);
        }
    }
}
