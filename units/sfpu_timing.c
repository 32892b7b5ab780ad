/* The vector unit's timing rules (units/sfpu_timing.h; docs/sfpu.md "SFPLOADMACRO and timing",
 * docs/timing-model.md). Every SFPU form has one TT_SFPU row in units/tensix.def: sub-unit,
 * latency, operand pattern. The rules that constrain the cycle after an instruction come from
 * the pages' "Instruction scheduling" sections:
 *  - MAD class (BH/WH:SFPMAD.md and the pages that refer to it): the result is two cycles away.
 *    Blackhole holds a regular instruction that reads it for one cycle (an interlock with
 *    documented holes, and none for SFPLOADMACRO's scheduled instructions); Wormhole leaves it
 *    to software. Reading it the next cycle without the interlock breaks a software rule.
 *  - SFPSWAP (both): the next cycle accepts only SFPNOP (the hardware holds the others).
 *  - SFPSHFT2's lane shuffles (Mod1 2, 3, 4): Blackhole as SFPSWAP; Wormhole lists what the next
 *    cycle must not do (WH:SFPSHFT2.md).
 * A consumer that reads too early sees the new value (tensim computes results at issue); the
 * hazard stops the run unless the run accepts unpredictable values (--unpredictable=warn). */
#include "sfpu_timing.h"

#include <stdarg.h>
#include <stdio.h>

#include "../core/rules.h"
#include "../core/tile.h"

static const struct sfpu_form_timing rows[TT_FORM_COUNT] = {
#define TT_INSN(...)
#define TT_FIELD(...)
#define TT_SFPU(form, sub, lat, ops) [TT_FORM_##form] = {SFPU_SUB_##sub, lat, SFPU_OPS_##ops},
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
#undef TT_SFPU
};

const struct sfpu_form_timing *sfpu_form_timing(unsigned form) { return &rows[form]; }

#define R(r) (1u << (r))
#define ALL_LREGS 0x1FFFFu /* LReg[0..16] */

/* Operand fields: VA [19:16], VB [15:12], VC [11:8], VD [7:4] in every SFPU form that has them,
 * except VD [23:20] of SFPLOAD, SFPLOADI, SFPSTORE and SFPLUT (units/tensix.def). */
_Static_assert(TT_SAME_BITS(SFPMAD_VA, SFPMUL24_VA) && TT_SAME_BITS(SFPMAD_VB, SFPAND_BH_VB) &&
               TT_SAME_BITS(SFPMAD_VB, SFPSTOCHRND_BH_VB) && TT_SAME_BITS(SFPMAD_VB, SFPARECIP_VB) &&
               TT_SAME_BITS(SFPMAD_VC, SFPIADD_VC) && TT_SAME_BITS(SFPMAD_VD, SFPIADD_VD) &&
               TT_SAME_BITS(SFPMULI_VD, SFPIADD_VD) && TT_SAME_BITS(SFPSWAP_VC, SFPIADD_VC) &&
               TT_SAME_BITS(SFPSWAP_VD, SFPIADD_VD) && TT_SAME_BITS(SFPSHFT2_VD, SFPIADD_VD) &&
               TT_SAME_BITS(SFPSHFT2_VC, SFPIADD_VC) && TT_SAME_BITS(SFPCONFIG_VD, SFPIADD_VD) &&
               TT_SAME_BITS(SFPLUTFP32_BH_VD, SFPIADD_VD) && TT_SAME_BITS(SFPTRANSP_VD, SFPIADD_VD) &&
               TT_SAME_BITS(SFPSTORE_WH_VD, SFPSTORE_BH_VD) && TT_SAME_BITS(SFPLOAD_BH_VD, SFPSTORE_BH_VD) &&
               TT_SAME_BITS(SFPLOADI_VD, SFPSTORE_BH_VD) && TT_SAME_BITS(SFPLUT_VD, SFPSTORE_BH_VD) &&
               TT_SAME_BITS(SFPLOADMACRO_BH_VDLo, SFPLOADMACRO_WH_VDLo) &&
               TT_SAME_BITS(SFPLOADMACRO_BH_VDHi, SFPLOADMACRO_WH_VDHi) &&
               TT_SAME_BITS(SFPSTOCHRND_BH_Mod1, SFPSTOCHRND_WH_Mod1) &&
               TT_SAME_BITS(SFPSTOCHRND_BH_UseImm5, SFPSTOCHRND_WH_UseImm5),
               "SFPU operand fields where units/sfpu_timing.c reads them");

unsigned sfpu_field_vd(unsigned form, uint32_t w)
{
    switch (form) {
    case TT_FORM_SFPLOAD_BH: case TT_FORM_SFPLOAD_WH: case TT_FORM_SFPLOADI:
    case TT_FORM_SFPSTORE_BH: case TT_FORM_SFPSTORE_WH: case TT_FORM_SFPLUT:
        return TT_GET_SFPSTORE_BH_VD(w);
    case TT_FORM_SFPLOADMACRO_BH: case TT_FORM_SFPLOADMACRO_WH:
        return TT_GET_SFPLOADMACRO_BH_VDHi(w) << 2 | TT_GET_SFPLOADMACRO_BH_VDLo(w);
    default:
        return TT_GET_SFPIADD_VD(w);
    }
}
uint32_t sfpu_field_set_vd(unsigned form, uint32_t w, unsigned v)
{
    return form == TT_FORM_SFPLUT ? TT_SET_SFPLUT_VD(w, v) : TT_SET_SFPIADD_VD(w, v);
}
static unsigned field_va(uint32_t w) { return TT_GET_SFPMAD_VA(w); }
static unsigned field_vb(uint32_t w) { return TT_GET_SFPMAD_VB(w); }
static unsigned field_vc(uint32_t w) { return TT_GET_SFPMAD_VC(w); }
static unsigned mod1(uint32_t w) { return TT_GET_SFPIADD_Mod1(w); }
_Static_assert(TT_SAME_BITS(SFPIADD_Mod1, SFPMAD_Mod1) && TT_SAME_BITS(SFPIADD_Mod1, SFPSHFT2_Mod1) &&
               TT_SAME_BITS(SFPIADD_Mod1, SFPSWAP_Mod1) && TT_SAME_BITS(SFPIADD_Mod1, SFPCONFIG_Mod1) &&
               TT_SAME_BITS(SFPIADD_Mod1, SFPLUTFP32_BH_Mod1) && TT_SAME_BITS(SFPIADD_Mod1, SFPMULI_Mod1),
               "Mod1 at [3:0]");

/* SFPSHFT2 Mod1 (SFPSHFT2.md): 2 SUBVEC_SHFLROR1_AND_COPY4, 3 SUBVEC_SHFLROR1, 4 SUBVEC_SHFLSHR1
 * are the lane shuffles; 5 SHFT_LREG, 6 SHFT_IMM. Its VB is Imm12's low four bits. */
enum { SHFT2_CHAINED_COPY4 = 1, SHFT2_ROR_COPY4 = 2, SHFT2_ROR = 3, SHFT2_SHR = 4, SHFT2_LREG = 5,
       SHFT2_IMM = 6 };
bool sfpu_shft2_shuffle(uint32_t w)
{
    const unsigned m = mod1(w);
    return m == SHFT2_ROR_COPY4 || m == SHFT2_ROR || m == SHFT2_SHR;
}
unsigned sfpu_shft2_vb(uint32_t w) { return TT_GET_SFPSHFT2_Imm12(w) & 15; }

unsigned sfpu_latency(unsigned form, uint32_t w)
{
    if (form == TT_FORM_SFPCONFIG) { /* "<= 2"; writing LReg[11..14]: 1 (VectorUnit.md) */
        const unsigned vd = TT_GET_SFPCONFIG_VD(w);
        return vd >= 11 && vd <= 14 ? 1 : 2;
    }
    if (form == TT_FORM_SFPSHFT2 && sfpu_shft2_shuffle(w))
        return 2; /* VectorUnit.md: the lane rotations and shifts take 2 cycles */
    return rows[form].latency;
}

bool sfpu_sub_can_execute(unsigned sub, unsigned form)
{
    if (form == TT_FORM_SFPNOP)
        return sub != SFPU_SUB_STORE;
    return rows[form].latency && rows[form].sub == sub;
}

/* LReg[LReg[7] & 15] of every lane: the INDIRECT_VA / INDIRECT_VD registers. */
static uint32_t indirect(const struct sfpu_state *s)
{
    uint32_t m = 0;
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)
        m |= R(s->lreg[7][lane] & 15);
    return m;
}
static bool any_lane_config(const struct sfpu_state *s, uint32_t bits)
{
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)
        if ((s->lane_config[lane] & bits) == bits)
            return true;
    return false;
}
static uint32_t writes(unsigned vd) { return vd < 8 || vd == 16 ? R(vd) : 0; }

/* The model's reads of VB for the "VB = VD" instructions (each page's Mod1 that uses it). */
static bool cdd_reads_vd(unsigned form, unsigned m, bool wh)
{
    switch (form) {
    case TT_FORM_SFPIADD: case TT_FORM_SFPSETSGN: case TT_FORM_SFPSETEXP: case TT_FORM_SFPSETMAN:
        return !(m & 1); /* ARG_IMM */
    case TT_FORM_SFPSHFT: /* the immediate shifts VD, or VC with ARG_IMM_USE_VC (BH only) */
        return wh || !(m & 1) || !(m & 4);
    default:
        return true; /* SFPXOR, Wormhole's SFPAND and SFPOR, SFPLE, SFPGT */
    }
}
static bool cdd_reads_vc(unsigned form, unsigned m, bool wh)
{
    if (form == TT_FORM_SFPSHFT) /* the amount, or Blackhole's ARG_IMM_USE_VC value */
        return !(m & 1) || (!wh && (m & 4));
    return true;
}

/* The LRegs the functional model reads and writes (its page's model, per mode). */
struct sfpu_regs sfpu_regs_of(const struct sfpu_state *s, unsigned form, uint32_t w, bool wh)
{
    struct sfpu_regs r = {0, 0};
    const unsigned vd = sfpu_field_vd(form, w), m = mod1(w);
    switch (rows[form].ops) {
    case SFPU_OPS_NONE:
        break;
    case SFPU_OPS_C: /* SFPSETCC: CLEAR and IMM_BIT0 read nothing */
        r.rd = (m & 9) ? 0 : R(field_vc(w));
        break;
    case SFPU_OPS_CD:
        r.rd = form == TT_FORM_SFPMOV && (m & 8) ? 0 : R(field_vc(w)); /* FROM_SPECIAL */
        r.wr = writes(vd);
        break;
    case SFPU_OPS_CDD:
        r.rd = (cdd_reads_vc(form, m, wh) ? R(field_vc(w)) : 0) | (cdd_reads_vd(form, m, wh) ? R(vd) : 0);
        r.wr = (form == TT_FORM_SFPLE || form == TT_FORM_SFPGT) && !(m & 8) ? 0 : writes(vd);
        break;
    case SFPU_OPS_BCD:
        r.rd = R(field_vc(w));
        if (form == TT_FORM_SFPAND_BH || form == TT_FORM_SFPOR_BH)
            r.rd |= R((m & 1) ? field_vb(w) : vd); /* USE_VB */
        else if (form == TT_FORM_SFPARECIP ? m == 1 /* COND_RECIP */
                                           : (TT_GET_SFPSTOCHRND_BH_Mod1(w) == 4 ||
                                              TT_GET_SFPSTOCHRND_BH_Mod1(w) == 5) &&
                                                 !TT_GET_SFPSTOCHRND_BH_UseImm5(w))
            r.rd |= R(field_vb(w)); /* SFPSTOCHRND INT32_TO_(U)INT8 shifts by VB */
        r.wr = writes(vd);
        break;
    case SFPU_OPS_ABCD:
        r.rd = ((m & 4) ? indirect(s) | R(7) : R(field_va(w))) | R(field_vb(w)) | R(field_vc(w));
        r.wr = (m & 8) && vd != 16 ? (indirect(s) & 0x100FFu) : writes(vd);
        if (m & 8)
            r.rd |= R(7);
        break;
    case SFPU_OPS_DD: /* SFPMULI, SFPADDI: VC = VD */
        r.rd = R(vd) | ((m & 8) ? R(7) : 0);
        r.wr = (m & 8) ? indirect(s) & 0x100FFu : writes(vd);
        break;
    case SFPU_OPS_LUT: {
        const unsigned ind = form == TT_FORM_SFPLUT ? TT_GET_SFPLUT_Mod0(w) & 8 : m & 8;
        const bool three = form != TT_FORM_SFPLUT && (m & 10) == 10; /* FP16_3ENTRY_TABLE */
        r.rd = form == TT_FORM_SFPLUT || three ? 0xFu : 0x7Fu; /* LReg[0..3]; LReg[0..6] */
        if (ind)
            r.rd |= R(7);
        r.wr = ind ? indirect(s) & 0x100FFu : writes(vd);
        break;
    }
    case SFPU_OPS_SWAP: {
        const unsigned vc = field_vc(w);
        r.rd = R(vc) | R(vd);
        r.wr = (vc < 8 ? R(vc) : 0) | (vd < 8 ? R(vd) : 0);
        if (any_lane_config(s, SFPU_LC_ENABLE_DEST_INDEX)) /* the paired index registers */
            r.rd |= R(4 + (vc & 3)) | R(4 + (vd & 3)), r.wr |= R(4 + (vc & 3)) | R(4 + (vd & 3));
        break;
    }
    case SFPU_OPS_TRANSP:
        r.rd = r.wr = 0xFFu;
        break;
    case SFPU_OPS_SHFT2:
        switch (m) {
        case 0: case SHFT2_CHAINED_COPY4: r.rd = 0xFu, r.wr = 0xFu; break;
        case SHFT2_ROR_COPY4: r.rd = 0xFu | R(field_vc(w)), r.wr = 0xFu; break;
        case SHFT2_ROR: case SHFT2_SHR: r.rd = R(field_vc(w)), r.wr = writes(vd); break;
        case SHFT2_LREG: r.rd = R(sfpu_shft2_vb(w)) | R(field_vc(w)), r.wr = writes(vd); break;
        case SHFT2_IMM: r.rd = R(sfpu_shft2_vb(w)), r.wr = writes(vd); break;
        default: break; /* Mod1 7..15: no case in the page's model */
        }
        break;
    case SFPU_OPS_CONFIG: /* LReg[0] unless the value is Imm16; templates always from LReg[0] */
        r.rd = vd <= 3 || !(m & 1) ? R(0) : 0;
        r.wr = vd >= 11 && vd <= 14 ? R(vd) : 0;
        break;
    case SFPU_OPS_LOAD:
        r.wr = vd < 8 ? R(vd) : 0;
        if (vd < 4 && any_lane_config(s, SFPU_LC_ENABLE_DEST_INDEX | SFPU_LC_CAPTURE_DEFAULT_DEST_INDEX))
            r.wr |= R(vd + 4);
        break;
    case SFPU_OPS_LOADI: { /* Mod0 8 and 10 keep half of LReg[VD] */
        const unsigned mod0 = TT_GET_SFPLOADI_Mod0(w);
        r.wr = vd < 8 ? R(vd) : 0;
        r.rd = vd < 8 && (mod0 == 8 || mod0 == 10) ? R(vd) : 0;
        break;
    }
    case SFPU_OPS_STORE:
        r.rd = R(vd);
        break;
    case SFPU_OPS_LOADMACRO:
        r.wr = R(vd);
        break;
    }
    return r;
}

/* What Blackhole's interlock sees a consumer read (BH:SFPMAD.md "Instruction scheduling", its
 * list of cases the stalling logic does not detect), given what it really reads. */
static uint32_t stall_view_rd(unsigned form, uint32_t w, uint32_t rd)
{
    const unsigned vd = sfpu_field_vd(form, w), m = mod1(w);
    switch (form) {
    case TT_FORM_SFPAND_BH: case TT_FORM_SFPOR_BH: /* USE_VB ignored: VD, never VB */
        return R(field_vc(w)) | R(vd);
    case TT_FORM_SFPIADD: case TT_FORM_SFPSHFT: /* the read of VD is missed */
        return cdd_reads_vc(form, m, false) ? R(field_vc(w)) : 0;
    case TT_FORM_SFPCONFIG: /* the read of LReg[0] is missed */
        return 0;
    case TT_FORM_SFPSWAP: /* the first cycle's reads of the compare modes are missed */
        return m == 0 ? rd : 0;
    case TT_FORM_SFPSHFT2:
        if (sfpu_shft2_shuffle(w))
            return 0;
        if (m == SHFT2_LREG)
            return R(vd) | R(field_vc(w)); /* VD instead of VB */
        if (m == SHFT2_IMM)
            return R(vd);
        return rd;
    case TT_FORM_SFPLUTFP32_BH: /* by Mod1Mirror's INDIRECT_VD: every LReg, else all but LReg[7] */
        return TT_GET_SFPLUTFP32_BH_Mod1Mirror(w) & 8 ? ALL_LREGS : ALL_LREGS & ~R(7);
    case TT_FORM_SFPMAD: case TT_FORM_SFPADD: case TT_FORM_SFPMUL: case TT_FORM_SFPMUL24:
        return (m & 4) ? ALL_LREGS : rd; /* INDIRECT_VA: every LReg */
    default:
        return rd;
    }
}
/* ... and what it sees a MAD-class instruction write. */
static uint32_t stall_view_wr(unsigned form, uint32_t w, uint32_t wr)
{
    if (form == TT_FORM_SFPLUTFP32_BH)
        return TT_GET_SFPLUTFP32_BH_Mod1Mirror(w) & 8 ? ALL_LREGS : writes(sfpu_field_vd(form, w));
    if (form == TT_FORM_SFPLUT)
        return TT_GET_SFPLUT_Mod0(w) & 8 ? ALL_LREGS : wr;
    return mod1(w) & 8 ? ALL_LREGS : wr; /* INDIRECT_VD: every LReg */
}

/* ---- phase 1: the interlocks ---- */

static bool just_before(const struct sfpu_last *l, uint64_t now)
{
    return l->set && l->cycle + 1 == now;
}

enum gate_stall sfpu_interlock(const struct tile *t, unsigned form, uint32_t w, uint32_t *detail)
{
    const struct sfpu_state *s = &t->sfpu;
    const struct sfpu_timing *tm = &s->tm;
    const bool wh = tile_is_wormhole(t);
    *detail = TT_UNIT_SFPU;
    /* SFPSWAP.md (both), BH:SFPSHFT2.md: the next cycle accepts only SFPNOP */
    if (form != TT_FORM_SFPNOP && ((just_before(&tm->swap, t->now) && !tm->swap.macro) ||
                                   (!wh && just_before(&tm->shuffle, t->now) && !tm->shuffle.macro)))
        return GS_UNIT_BUSY;
    /* BH:SFPMAD.md: a regular MAD-class result, read the next cycle as the interlock sees it */
    if (!wh && just_before(&tm->mad, t->now) && !tm->mad.macro) {
        const uint32_t rd = sfpu_regs_of(s, form, w, wh).rd;
        if (stall_view_rd(form, w, rd) & tm->mad.wr_view)
            return GS_HAZARD;
    }
    return GS_NONE;
}

/* ---- hazards ---- */

static const char *const hazard_keys[SFPU_HZ_COUNT] = {
#define X(name, key) [name] = key,
    SFPU_HAZARDS(X)
#undef X
};
const char *sfpu_hazard_key(enum sfpu_hazard h) { return hazard_keys[h]; }

bool sfpu_hazard(struct tile *t, enum sfpu_hazard h, bool warn_only, const char *fmt, ...)
{
    struct sfpu_timing *tm = &t->sfpu.tm;
    /* --lint takes the undefined hazards through the rule funnel: counted, recorded, and the
     * run goes on with the new value as --unpredictable=warn does */
    static const enum rule_id rule_of[SFPU_HZ_COUNT] = {
        [SFPU_HZ_MAD_RESULT] = RULE_SFPU_MAD_RESULT, [SFPU_HZ_SHUFFLE] = RULE_SFPU_SHUFFLE,
        [SFPU_HZ_SWAP] = RULE_SFPU_MACRO_SWAP, [SFPU_HZ_SIMPLE_ROUND] = RULE_SFPU_SIMPLE_ROUND};
    if (!warn_only && t->lint) {
        char msg[320];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        tm->st.hazards[h]++;
        return rule_broken(t, rule_of[h], rule_site_tensix(t, tm->chk_th, tm->chk_w), "%s", msg);
    }
    const bool stop = !warn_only && !t->unpredictable_warn;
    if (!stop && tm->warned[h]) {
        tm->st.hazards[h]++;
        return true;
    }
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (stop) /* the funnel stops the run as undefined behaviour (no core: a Tensix site) */
        return rule_broken(t, rule_of[h], (struct rule_site){.core = -1, .thread = 0}, "%s", msg);
    tm->st.hazards[h]++;
    tm->warned[h] = true;
    tile_warning(t, "%s%s (counted as \"%s\" in the stats; later ones are not reported)", msg,
                 warn_only ? "" : "; --unpredictable=warn: tensim goes on with the new value",
                 hazard_keys[h]);
    return true;
}

/* ---- per cycle: the rules between instructions ---- */

static const char *mn(unsigned form) { return tt_forms[form].mnemonic; }
static const char *how(bool macro) { return macro ? "scheduled by SFPLOADMACRO" : "issued"; }

/* What ran in the current cycle so far (scheduled instructions, then the regular one). */
static void cur_start(struct sfpu_timing *tm, uint64_t now)
{
    if (!tm->cur_valid || tm->cur_cycle != now) {
        tm->cur_valid = 1;
        tm->cur_cycle = now;
        tm->cur_subs = tm->cur_vd16 = 0;
    }
}

void sfpu_timing_tick(struct tile *t)
{
    struct sfpu_timing *tm = &t->sfpu.tm;
    tm->cur_valid = 0;
    /* a record from a later cycle: a new run on the same tile started its clock again */
    /* three plain tests: this runs every coprocessor cycle */
    if (tm->mad.set && tm->mad.cycle >= t->now)
        tm->mad.set = false;
    if (tm->swap.set && tm->swap.cycle >= t->now)
        tm->swap.set = false;
    if (tm->shuffle.set && tm->shuffle.cycle >= t->now)
        tm->shuffle.set = false;
    if (tm->backdoor_set && tm->backdoor_cycle >= t->now)
        tm->backdoor_set = false;
}

/* WH:SFPSHFT2.md: what may not run in the cycle after a lane shuffle. */
static bool wh_after_shuffle_banned(unsigned form, uint32_t w)
{
    switch (form) {
    case TT_FORM_SFPABS: case TT_FORM_SFPAND_WH: case TT_FORM_SFPCAST: case TT_FORM_SFPDIVP2:
    case TT_FORM_SFPEXEXP: case TT_FORM_SFPEXMAN: case TT_FORM_SFPIADD: case TT_FORM_SFPLZ:
    case TT_FORM_SFPMOV: case TT_FORM_SFPNOT: case TT_FORM_SFPOR_WH: case TT_FORM_SFPSETEXP:
    case TT_FORM_SFPSETMAN: case TT_FORM_SFPSETSGN: case TT_FORM_SFPSHFT: case TT_FORM_SFPSTOCHRND_WH:
    case TT_FORM_SFPXOR:
        return true;
    case TT_FORM_SFPSHFT2:
        return !sfpu_shft2_shuffle(w);
    default:
        return false;
    }
}

bool sfpu_check(struct tile *t, unsigned th, unsigned form, uint32_t w, bool macro, unsigned sub,
                struct sfpu_regs rg, bool vd16, bool *discard)
{
    struct sfpu_state *s = &t->sfpu;
    struct sfpu_timing *tm = &s->tm;
    const uint64_t now = t->now;
    const bool wh = tile_is_wormhole(t), nop = form == TT_FORM_SFPNOP;
    *discard = false;
    tm->chk_th = (uint8_t)th, tm->chk_w = w;
    cur_start(tm, now);
    /* SFPLOADMACRO.md: a scheduled instruction wins its sub-unit; the regular one is dropped */
    if (!macro && sub < SFPU_SUB_LOAD && (tm->cur_subs >> sub & 1)) {
        *discard = true;
        return sfpu_hazard(t, SFPU_HZ_DISCARDED, true,
                           "thread T%u cycle %llu: %s is discarded: %s scheduled by SFPLOADMACRO "
                           "takes the same sub-unit in that cycle (SFPLOADMACRO.md)",
                           th, (unsigned long long)now, mn(form), mn(tm->cur_form[sub]));
    }
    /* a MAD-class result read the next cycle, where no interlock held the reader */
    if (just_before(&tm->mad, now) && (rg.rd & tm->mad.wr)) {
        const char *why = tm->mad.macro || macro
                              ? "no interlock covers instructions scheduled by SFPLOADMACRO; software "
                                "must leave a cycle (BH/WH:SFPMAD.md)"
                          : wh ? "Wormhole leaves the gap to software (WH:SFPMAD.md)"
                               : "Blackhole's interlock misses this read (BH:SFPMAD.md)";
        if (!sfpu_hazard(t, SFPU_HZ_MAD_RESULT, false,
                         "%s (thread T%u, cycle %llu, %s) writes LRegs 0x%x; %s (thread T%u, cycle "
                         "%llu, %s) reads 0x%x of them the next cycle: %s",
                         mn(tm->mad.form), tm->mad.th, (unsigned long long)tm->mad.cycle,
                         how(tm->mad.macro), tm->mad.wr, mn(form), th, (unsigned long long)now,
                         how(macro), rg.rd & tm->mad.wr, why))
            return false;
    }
    /* SFPSWAP's second cycle: regular instructions are held (sfpu_interlock) but scheduled
     * ones are not; after a scheduled SFPSWAP nothing is held. SFPLOADMACRO.md: simple and
     * round idle (or SFPNOP) the next cycle. */
    if (just_before(&tm->swap, now) && !nop && (sub == SFPU_SUB_SIMPLE || sub == SFPU_SUB_ROUND) &&
        (macro || tm->swap.macro)) {
        if (!sfpu_hazard(t, SFPU_HZ_SWAP, false,
                         "%s (thread T%u, cycle %llu, %s) runs for two cycles; %s (thread T%u, %s) "
                         "takes the %s sub-unit in its second (SFPSWAP.md, SFPLOADMACRO.md)",
                         mn(tm->swap.form), tm->swap.th, (unsigned long long)tm->swap.cycle,
                         how(tm->swap.macro), mn(form), th, how(macro),
                         sub == SFPU_SUB_SIMPLE ? "simple" : "round"))
            return false;
    }
    /* ... and the MAD sub-unit idle (or SFPNOP) in the cycle of a scheduled SFPSWAP */
    if (!nop && ((sub == SFPU_SUB_MAD && (tm->cur_subs & R(SFPU_SUB_SIMPLE)) &&
                  tm->cur_form[SFPU_SUB_SIMPLE] == TT_FORM_SFPSWAP) ||
                 (form == TT_FORM_SFPSWAP && macro && (tm->cur_subs & R(SFPU_SUB_MAD)) &&
                  tm->cur_form[SFPU_SUB_MAD] != TT_FORM_SFPNOP))) {
        if (!sfpu_hazard(t, SFPU_HZ_SWAP, false,
                         "cycle %llu: SFPSWAP scheduled by SFPLOADMACRO needs the MAD sub-unit idle "
                         "(or SFPNOP), but %s runs there (thread T%u, %s; SFPLOADMACRO.md)",
                         (unsigned long long)now,
                         mn(form == TT_FORM_SFPSWAP ? tm->cur_form[SFPU_SUB_MAD] : form), th,
                         how(macro)))
            return false;
    }
    /* the cycle after an SFPSHFT2 lane shuffle */
    if (just_before(&tm->shuffle, now) && !nop) {
        const unsigned sm = mod1(tm->shuffle.word), svd = sfpu_field_vd(TT_FORM_SFPSHFT2, tm->shuffle.word);
        const char *bad = NULL;
        if (wh) { /* WH:SFPSHFT2.md "Instruction scheduling" */
            if (sm == SHFT2_ROR_COPY4 && (rg.rd & 0xFu))
                bad = "reads LReg[0..3]";
            else if (sm == SHFT2_ROR_COPY4 && (rg.wr & 0xEu))
                bad = "writes LReg[1..3]";
            else if (sm != SHFT2_ROR_COPY4 && svd < 8 && (rg.rd & R(svd)))
                bad = "reads its VD";
            else if (wh_after_shuffle_banned(form, w))
                bad = "is on the page's list of instructions it excludes";
        } else if (macro || tm->shuffle.macro) { /* BH:SFPSHFT2.md: an idle cycle after it */
            bad = "runs in the cycle that must stay idle";
        }
        if (bad && !sfpu_hazard(t, SFPU_HZ_SHUFFLE, false,
                                "SFPSHFT2 Mod1 %u (thread T%u, cycle %llu, %s) is a lane shuffle; %s "
                                "(thread T%u, %s) %s the next cycle (%s:SFPSHFT2.md)",
                                sm, tm->shuffle.th, (unsigned long long)tm->shuffle.cycle,
                                how(tm->shuffle.macro), mn(form), th, how(macro), bad,
                                wh ? "WH" : "BH"))
            return false;
    }
    /* SFPLOADMACRO.md (†): a simple and a round instruction in one cycle need exactly one of
     * them to write LReg[16] */
    if (!nop && (sub == SFPU_SUB_SIMPLE || sub == SFPU_SUB_ROUND)) {
        const unsigned other = sub == SFPU_SUB_SIMPLE ? SFPU_SUB_ROUND : SFPU_SUB_SIMPLE;
        if ((tm->cur_subs & R(other)) && tm->cur_form[other] != TT_FORM_SFPNOP &&
            ((tm->cur_vd16 >> other & 1) == vd16) &&
            !sfpu_hazard(t, SFPU_HZ_SIMPLE_ROUND, false,
                         "cycle %llu: %s (simple) and %s (round) run together and %s write "
                         "LReg[16]; exactly one must (SFPLOADMACRO.md)",
                         (unsigned long long)now, mn(sub == SFPU_SUB_SIMPLE ? form : tm->cur_form[other]),
                         mn(sub == SFPU_SUB_SIMPLE ? tm->cur_form[other] : form), vd16 ? "both" : "neither"))
            return false;
    }
    /* SFPCONFIG.md: after a change of DISABLE_BACKDOOR_LOAD the next instruction may see either
     * value; tensim's sees the new one */
    if (!macro && tm->backdoor_set && tm->backdoor_cycle + 1 == now && sfpu_has_backdoor(form) &&
        sfpu_field_vd(form, w) >= 12 &&
        !sfpu_hazard(t, SFPU_HZ_BACKDOOR, true,
                     "thread T%u cycle %llu: %s with VD %u right after an SFPCONFIG changed "
                     "LaneConfig.DISABLE_BACKDOOR_LOAD may see either value; tensim uses the new "
                     "one (SFPCONFIG.md: insert SFPNOP)",
                     th, (unsigned long long)now, mn(form), sfpu_field_vd(form, w)))
        return false;
    if (sub < SFPU_SUB_LOAD) {
        tm->cur_subs |= (uint8_t)R(sub);
        tm->cur_form[sub] = (uint16_t)form;
        if (vd16)
            tm->cur_vd16 |= (uint8_t)R(sub);
        else
            tm->cur_vd16 &= (uint8_t)~R(sub);
    }
    return true;
}

/* SFPU forms with the VD >= 12 backdoor into LoadMacroConfig (SFPCONFIG.md): all but the
 * load-style ones. */
bool sfpu_has_backdoor(unsigned form)
{
    return rows[form].latency && rows[form].sub != SFPU_SUB_LOAD && form != TT_FORM_SFPCONFIG;
}

void sfpu_note(struct tile *t, unsigned th, unsigned form, uint32_t w, bool macro, struct sfpu_regs rg)
{
    struct sfpu_timing *tm = &t->sfpu.tm;
    struct sfpu_last *l = NULL;
    if (rows[form].sub == SFPU_SUB_MAD && form != TT_FORM_SFPNOP)
        l = &tm->mad;
    else if (form == TT_FORM_SFPSWAP)
        l = &tm->swap;
    else if (form == TT_FORM_SFPSHFT2 && sfpu_shft2_shuffle(w))
        l = &tm->shuffle;
    if (!l)
        return;
    *l = (struct sfpu_last){.cycle = t->now, .word = w, .wr = rg.wr,
                            .wr_view = macro ? 0 : stall_view_wr(form, w, rg.wr),
                            .form = (uint16_t)form, .th = (uint8_t)th, .set = true, .macro = macro};
}
