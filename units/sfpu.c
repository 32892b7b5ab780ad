/* The Vector unit (SFPU): state, the backdoor, SFPNOP, SFPCONFIG, the dispatch of the
 * instructions built so far (sfpu_cc.c, sfpu_simple.c) and the unit interface (units/sfpu.h). */
#include "sfpu.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "../trace/trace.h"
#include "dest.h"
#include "sfpu_lanes.h"
#include "sfpu_timing.h"

/* SFPCONFIG Mod1 bits (SFPCONFIG.md "Supporting definitions") */
enum { CFG_MOD1_IMM16_IS_VALUE = 1, CFG_MOD1_OP = 6, CFG_MOD1_OR = 2, CFG_MOD1_AND = 4,
       CFG_MOD1_XOR = 6, CFG_MOD1_IMM16_IS_LANE_MASK = 8 };

/* FP32 bits of the constant registers (LReg.md): LReg[8] 0.8373, LReg[9] 0, LReg[10] 1.0;
 * LReg[15] is lane * 2. */
#define LREG8_0_8373 0x3F56594Bu
#define FP32_ONE 0x3F800000u

/* LReg[11..14] on leaving reset (BHT:SoftReset.md "Vector Unit (SFPU) soft reset") and after
 * SFPCONFIG's immediate mode (SFPCONFIG.md): -1.0, 1/65536, -0.67487759, -0.34484843. ttsim
 * starts LReg[12] at 1/512 instead; tensim follows the pages (docs/sfpu.md). */
static const uint32_t lreg_default[4] = {0xBF800000u, 0x37800000u, 0xBF2CC4C7u, 0xBEB08FF9u};

bool sfpu_lane_enabled(const struct sfpu_state *s, unsigned lane)
{
    if (s->lane_config[lane & 7] >> (SFPU_LC_ROW_MASK_SHIFT + lane / 8) & 1)
        return false;
    return s->use_lane_flags[lane] ? s->lane_flags[lane] : true;
}

void sfpu_lane_view(const struct tile *t, unsigned lane, struct sfpu_lane_view *v)
{
    const struct sfpu_state *s = &t->sfpu;
    for (unsigned r = 0; r < SFPU_LREGS; r++)
        v->lreg[r] = s->lreg[r][lane];
    v->flag = s->lane_flags[lane];
    v->use_flag = s->use_lane_flags[lane];
    v->enabled = sfpu_lane_enabled(s, lane);
    v->depth = s->flag_depth[lane];
    v->lane_config = s->lane_config[lane & 7];
}

/* ---- the instructions ---- */

/* SFPU instructions with VD >= 12 write their own encoding into the lane's
 * LoadMacroConfig.InstructionTemplate[VD - 12] instead, unless LaneConfig.DISABLE_BACKDOOR_LOAD
 * (SFPCONFIG.md "LaneConfig"; the "VD < 12 || DISABLE_BACKDOOR_LOAD" of SFPENCC.md and the other
 * flag pages), on every lane, enabled or not. The lanes that run the functional model: */
static uint32_t model_lanes(const struct sfpu_state *s, unsigned vd)
{
    if (vd < 12)
        return SFPU_ALL_LANES;
    uint32_t model = 0;
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)
        if (s->lane_config[lane] & SFPU_LC_DISABLE_BACKDOOR_LOAD)
            model |= 1u << lane;
    return model;
}

/* ... and the others take the word as a template (once the instruction has not faulted). */
static void write_templates(struct sfpu_state *s, unsigned vd, uint32_t w, uint32_t model)
{
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)
        if (!(model >> lane & 1))
            s->macro[lane].instruction_template[vd - 12] = w;
}

static uint32_t combine(uint32_t old, uint32_t v, unsigned mod1)
{
    switch (mod1 & CFG_MOD1_OP) {
    case CFG_MOD1_OR: return old | v;
    case CFG_MOD1_AND: return old & v;
    case CFG_MOD1_XOR: return old ^ v;
    default: return v;
    }
}

/* SFPCONFIG.md: the value comes from Imm16 or from LReg[0] of the lane's column (lanes 0-7
 * broadcast down the four rows). Lanes are skipped by the Imm16 lane mask and by LaneFlags of
 * their column when flags are in use; ROW_MASK does not apply. */
static void sfpconfig(struct sfpu_state *s, uint32_t w)
{
    const uint32_t imm16 = TT_GET_SFPCONFIG_Imm16(w);
    const unsigned vd = TT_GET_SFPCONFIG_VD(w), mod1 = TT_GET_SFPCONFIG_Mod1(w);
    for (unsigned lane = 0; lane < SFPU_LANES; lane++) {
        const unsigned col = lane & 7;
        if ((mod1 & CFG_MOD1_IMM16_IS_LANE_MASK) && !(imm16 >> (col * 2) & 1))
            continue;
        if (s->use_lane_flags[col] && !s->lane_flags[col])
            continue;
        const uint32_t lreg0 = s->lreg[0][col];
        const uint32_t v = (mod1 & CFG_MOD1_IMM16_IS_VALUE) ? imm16 : lreg0;
        struct sfpu_macro_config *m = &s->macro[lane];
        switch (vd) {
        case 0: case 1: case 2: case 3:
            m->instruction_template[vd] = lreg0; /* Imm16 is too short: always LReg[0] */
            break;
        case 4: case 5: case 6: case 7:
            m->sequence[vd - 4] = v;
            break;
        case 8:
            m->misc = combine(m->misc, v, mod1) & 0xFFFu; /* 12 bits */
            break;
        case 11: case 12: case 13: case 14:
            s->lreg[vd][lane] = (mod1 & CFG_MOD1_IMM16_IS_VALUE) ? lreg_default[vd - 11] : lreg0;
            break;
        case 15: {
            const uint32_t old = s->lane_config[lane];
            uint32_t lc = combine(old, v, mod1) & ((1u << SFPU_LC_BITS) - 1);
            if (mod1 & CFG_MOD1_IMM16_IS_VALUE) /* Imm16 cannot reach bits 16-17: keep them */
                lc = (lc & 0xFFFFu) | (old & ~0xFFFFu);
            s->lane_config[lane] = lc;
            break;
        }
        default: /* 9, 10: no effect */
            break;
        }
    }
}

/* ---- the unit interface ---- */

/* One instruction per cycle from all threads (VectorUnit.md "Sub-units": the resource
 * arbitrates), less the cycles an interlock holds (units/sfpu_timing.c). */
static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    (void)th;
    return sfpu_interlock(t, (unsigned)(f - tt_forms), w, detail);
}

static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w, (void)f;
    return RES_SFPU;
}

/* Every form dispatched below but SFPLOADI, SFPNOP and SFPCONFIG has VD at the bits of
 * SFPIADD's, so one accessor reads it for the backdoor. */
#define SAME_VD(form) TT_SAME_BITS(form##_VD, SFPIADD_VD)
_Static_assert(SAME_VD(SFPEXEXP) && SAME_VD(SFPEXMAN) && SAME_VD(SFPSHFT) && SAME_VD(SFPSETCC) &&
               SAME_VD(SFPMOV) && SAME_VD(SFPABS) && SAME_VD(SFPAND_BH) && SAME_VD(SFPAND_WH) &&
               SAME_VD(SFPOR_BH) && SAME_VD(SFPOR_WH) && SAME_VD(SFPNOT) && SAME_VD(SFPSETEXP) &&
               SAME_VD(SFPSETMAN) && SAME_VD(SFPPUSHC_BH) && SAME_VD(SFPPUSHC_WH) &&
               SAME_VD(SFPPOPC) && SAME_VD(SFPSETSGN) && SAME_VD(SFPENCC) && SAME_VD(SFPCOMPC) &&
               SAME_VD(SFPXOR) && SAME_VD(SFPLZ) && SAME_VD(SFPDIVP2) && SAME_VD(SFPLE) &&
               SAME_VD(SFPGT),
               "SFPU forms with VD elsewhere");

/* Runs one instruction of the ones built; false for the others. */
static bool execute(struct sfpu_state *s, unsigned form, uint32_t w, uint32_t lanes, bool wh,
                    struct sfpu_fault *fault)
{
    switch (form) {
    case TT_FORM_SFPSETCC: sfpu_setcc(s, w, lanes); break;
    case TT_FORM_SFPENCC: sfpu_encc(s, w, lanes); break;
    case TT_FORM_SFPPUSHC_BH: sfpu_pushc(s, TT_GET_SFPPUSHC_BH_Mod1(w), lanes, fault); break;
    case TT_FORM_SFPPUSHC_WH: sfpu_pushc(s, 0, lanes, fault); break; /* no Mod1 on Wormhole */
    case TT_FORM_SFPPOPC: sfpu_popc(s, w, lanes, wh, fault); break;
    case TT_FORM_SFPCOMPC: sfpu_compc(s, lanes); break;
    case TT_FORM_SFPMOV: sfpu_mov(s, w, lanes); break;
    case TT_FORM_SFPNOT: sfpu_not(s, w, lanes); break;
    case TT_FORM_SFPAND_BH: case TT_FORM_SFPOR_BH: {
        const unsigned vd = TT_GET_SFPAND_BH_VD(w);
        const unsigned vb = (TT_GET_SFPAND_BH_Mod1(w) & 1) ? TT_GET_SFPAND_BH_VB(w) : vd; /* USE_VB */
        sfpu_and_or(s, vb, TT_GET_SFPAND_BH_VC(w), vd, form == TT_FORM_SFPOR_BH, lanes);
        break;
    }
    case TT_FORM_SFPAND_WH: case TT_FORM_SFPOR_WH: {
        const unsigned vd = TT_GET_SFPAND_WH_VD(w);
        sfpu_and_or(s, vd, TT_GET_SFPAND_WH_VC(w), vd, form == TT_FORM_SFPOR_WH, lanes);
        break;
    }
    case TT_FORM_SFPXOR: sfpu_xor(s, w, lanes); break;
    case TT_FORM_SFPIADD: sfpu_iadd(s, w, lanes); break;
    case TT_FORM_SFPSHFT: sfpu_shft(s, w, lanes, wh); break;
    case TT_FORM_SFPSETSGN: sfpu_setsgn(s, w, lanes); break;
    case TT_FORM_SFPABS: sfpu_abs(s, w, lanes); break;
    case TT_FORM_SFPSETEXP: sfpu_setexp(s, w, lanes); break;
    case TT_FORM_SFPSETMAN: sfpu_setman(s, w, lanes); break;
    case TT_FORM_SFPEXEXP: sfpu_exexp(s, w, lanes); break;
    case TT_FORM_SFPEXMAN: sfpu_exman(s, w, lanes); break;
    case TT_FORM_SFPLZ: sfpu_lz(s, w, lanes); break;
    case TT_FORM_SFPDIVP2: sfpu_divp2(s, w, lanes); break;
    case TT_FORM_SFPLE: sfpu_cmp(s, w, lanes, false); break;
    case TT_FORM_SFPGT: sfpu_cmp(s, w, lanes, true); break;

    /* the MAD sub-unit (sfpu_mad.c) */
    /* The MAD sub-unit's forms: VD where the backdoor reads it (SFPLUT's is elsewhere and handled
     * in sfpu_lut.c), and one layout read through SFPMAD's / SFPMULI's / SFPLUTFP32_BH's fields. */
    _Static_assert(SAME_VD(SFPMAD) && SAME_VD(SFPADD) && SAME_VD(SFPMUL) && SAME_VD(SFPMULI) &&
                   SAME_VD(SFPADDI) && SAME_VD(SFPMUL24) && SAME_VD(SFPLUTFP32_BH) &&
                   SAME_VD(SFPLUTFP32_WH) &&
                   TT_SAME_BITS(SFPADD_VA, SFPMAD_VA) && TT_SAME_BITS(SFPMUL_VA, SFPMAD_VA) &&
                   TT_SAME_BITS(SFPADD_VB, SFPMAD_VB) && TT_SAME_BITS(SFPMUL_VB, SFPMAD_VB) &&
                   TT_SAME_BITS(SFPADD_VC, SFPMAD_VC) && TT_SAME_BITS(SFPMUL_VC, SFPMAD_VC) &&
                   TT_SAME_BITS(SFPADD_Mod1, SFPMAD_Mod1) &&
                   TT_SAME_BITS(SFPMUL_Mod1, SFPMAD_Mod1) &&
                   TT_SAME_BITS(SFPADDI_Imm16, SFPMULI_Imm16) &&
                   TT_SAME_BITS(SFPADDI_Mod1, SFPMULI_Mod1),
                   "MAD sub-unit forms share their layout");
    case TT_FORM_SFPMAD: case TT_FORM_SFPADD: case TT_FORM_SFPMUL:
        sfpu_mad(s, w, TT_GET_SFPMAD_VD(w), lanes, wh);
        break;
    case TT_FORM_SFPMULI: case TT_FORM_SFPADDI:
        sfpu_mad_imm(s, w, TT_GET_SFPMULI_VD(w), form == TT_FORM_SFPADDI, lanes, wh);
        break;
    case TT_FORM_SFPMUL24: sfpu_mul24(s, w, TT_GET_SFPMUL24_VD(w), lanes); break;
    case TT_FORM_SFPLUT: sfpu_lut(s, w, TT_GET_SFPLUT_VD(w), lanes, wh); break;
    case TT_FORM_SFPLUTFP32_BH: case TT_FORM_SFPLUTFP32_WH:
        sfpu_lutfp32(s, w, TT_GET_SFPLUTFP32_BH_VD(w), lanes, wh);
        break;

    /* rounding and conversions (sfpu_round.c) */
    _Static_assert(SAME_VD(SFPSTOCHRND_BH) && SAME_VD(SFPSTOCHRND_WH) && SAME_VD(SFPCAST) &&
                   SAME_VD(SFPARECIP), "SFPU rounding forms with VD elsewhere");
    case TT_FORM_SFPSTOCHRND_BH: case TT_FORM_SFPSTOCHRND_WH: sfpu_stochrnd(s, w, lanes, wh); break;
    case TT_FORM_SFPCAST: sfpu_cast(s, w, lanes, wh); break;
    case TT_FORM_SFPARECIP: sfpu_arecip(s, w, lanes); break;

    /* lane movement (sfpu_move.c) */
    case TT_FORM_SFPSWAP: sfpu_swap(s, w, lanes); break;
    case TT_FORM_SFPTRANSP: sfpu_transp(s, lanes); break;
    case TT_FORM_SFPSHFT2: sfpu_shft2(s, w, lanes, wh, fault); break;
    _Static_assert(TT_SAME_BITS(SFPSWAP_VD, SFPIADD_VD) && TT_SAME_BITS(SFPTRANSP_VD, SFPIADD_VD) &&
                   TT_SAME_BITS(SFPSHFT2_VD, SFPIADD_VD), "lane-movement forms with VD elsewhere");

    default: return false;
    }
    return true;
}
_Static_assert(TT_SAME_BITS(SFPAND_BH_VB, SFPOR_BH_VB) && TT_SAME_BITS(SFPAND_BH_VC, SFPOR_BH_VC) &&
               TT_SAME_BITS(SFPAND_BH_Mod1, SFPOR_BH_Mod1) && TT_SAME_BITS(SFPAND_WH_VC, SFPOR_WH_VC),
               "SFPAND and SFPOR share their layout");

/* SFPCONFIG, noting a change of some lane's DISABLE_BACKDOOR_LOAD: the next instruction may see
 * either value (SFPCONFIG.md "Instruction scheduling"). */
static void sfpconfig_noting(struct tile *t, uint32_t w)
{
    struct sfpu_state *s = &t->sfpu;
    uint32_t before[SFPU_LANES];
    memcpy(before, s->lane_config, sizeof before);
    sfpconfig(s, w);
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)
        if ((before[lane] ^ s->lane_config[lane]) & SFPU_LC_DISABLE_BACKDOOR_LOAD) {
            s->tm.backdoor_set = true;
            s->tm.backdoor_cycle = t->now;
            break;
        }
}

/* The compute path shared with SFPLOADMACRO's scheduled instructions (units/sfpu_timing.h). */
bool sfpu_run(struct tile *t, unsigned th, unsigned form, uint32_t w, uint32_t lanes,
              struct sfpu_fault *f)
{
    (void)th;
    if (form == TT_FORM_SFPNOP) /* SFPNOP.md: no effect */
        return true;
    if (form == TT_FORM_SFPCONFIG) {
        sfpconfig_noting(t, w);
        return true;
    }
    return execute(&t->sfpu, form, w, lanes, tile_is_wormhole(t), f);
}

void sfpu_busy(struct tile *t, unsigned th, unsigned latency)
{
    struct sfpu_state *s = &t->sfpu;
    const uint64_t done = t->now + latency;
    if (s->busy_until <= t->now)
        s->st.busy_cycles += done - t->now;
    else if (done > s->busy_until)
        s->st.busy_cycles += done - s->busy_until;
    if (done > s->busy_until)
        s->busy_until = done;
    if (done > s->thread_busy_until[th])
        s->thread_busy_until[th] = done;
}

void sfpu_trace(struct tile *t, unsigned th, unsigned form, unsigned sub)
{
    if (t->tracer)
        trace_unit(t->tracer, &sfpu_unit_desc, sub, tt_forms[form].mnemonic, th, t->now, t->now + 1);
}

/* One track per sub-unit (VectorUnit.md "Sub-units"), in enum sfpu_sub's order. */
static const char *track_label(unsigned i)
{
    static const char *const name[SFPU_SUBS] = {"vector unit: simple", "vector unit: MAD",
                                                "vector unit: round", "vector unit: store",
                                                "vector unit: load"};
    return i < SFPU_SUBS ? name[i] : "vector unit";
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct sfpu_state *s = &t->sfpu;
    const unsigned form = (unsigned)(f - tt_forms);
    const bool wh = tile_is_wormhole(t);
    struct sfpu_fault fault = {ERR_NONE, ""};
    /* SFPLOADMACRO.md: counters of the WaitForElapsedInstructions kind move on every issue */
    sfpu_macro_issued(t);
    const struct sfpu_regs rg = sfpu_regs_of(s, form, w, wh);
    bool discard;
    if (!sfpu_check(t, th, form, w, false, sfpu_form_timing(form)->sub, rg, false, &discard))
        return false;
    if (discard) { /* a scheduled instruction took its sub-unit (SFPLOADMACRO.md) */
        sfpu_busy(t, th, 1);
        s->st.insns++;
        return true;
    }
    uint8_t after[SFPU_ARCH_BYTES];
    const bool two_phase = sfpu_macro_rewind(t, after);
    if (form == TT_FORM_SFPNOP) {
        /* SFPNOP.md: no effect */
    } else if (form == TT_FORM_SFPCONFIG) {
        sfpconfig_noting(t, w);
    } else if (form == TT_FORM_SFPLOADI) {
        sfpu_loadi(s, w, &fault);
    } else if (form == TT_FORM_SFPLOAD_BH || form == TT_FORM_SFPLOAD_WH) {
        sfpu_load(t, th, w, wh, &fault);
    } else if (form == TT_FORM_SFPLOADMACRO_BH || form == TT_FORM_SFPLOADMACRO_WH) {
        sfpu_loadmacro(t, th, w, wh, &fault);
    } else if (form == TT_FORM_SFPSTORE_BH || form == TT_FORM_SFPSTORE_WH) {
        const unsigned vd = TT_GET_SFPSTORE_BH_VD(w);
        const uint32_t lanes = model_lanes(s, vd);
        sfpu_store(t, th, w, lanes, wh, t->now + SFPU_STORE_DST_BUSY, &fault);
        s->dest_blocked_until = t->now + SFPU_STORE_DST_BUSY;
        if (fault.kind == ERR_NONE && lanes != SFPU_ALL_LANES)
            write_templates(s, vd, w, lanes);
    } else {
        const unsigned vd = sfpu_field_vd(form, w); /* SFPLUT's is not at SFPIADD's bits */
        const uint32_t lanes = model_lanes(s, vd);
        if (!execute(s, form, w, lanes, wh, &fault))
            return tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "%s (sfpu), thread T%u", f->mnemonic, th);
        if (fault.kind == ERR_NONE && lanes != SFPU_ALL_LANES)
            write_templates(s, vd, w, lanes);
    }
    if (two_phase)
        sfpu_macro_merge(t, after);
    if (fault.kind != ERR_NONE)
        return tile_error(t, fault.kind, -1, 0, "%s (sfpu), thread T%u: %s", f->mnemonic, th, fault.why);
    sfpu_note(t, th, form, w, false, rg);
    sfpu_busy(t, th, sfpu_latency(form, w));
    sfpu_trace(t, th, form, sfpu_form_timing(form)->sub);
    s->st.insns++;
    return true;
}

/* Start of a cycle: SFPLOADMACRO's scheduled instructions due now run before any regular one. */
/* Every coprocessor cycle. With no SFPLOADMACRO instruction queued, sfpu_macro_tick only
 * clears the per-cycle records (sfpu_timing_tick) and brings q_synced to now; that much here,
 * without the rest of its work. */
static void tick(struct tile *t)
{
    struct sfpu_timing *tm = &t->sfpu.tm;
    if (!tm->nlive) {
        sfpu_timing_tick(t);
        tm->q_synced = t->now;
        return;
    }
    sfpu_macro_tick(t);
}

/* Only SFPLOADMACRO's scheduled instructions need the tick; the per-cycle records it clears
 * are also checked against the cycle where they are read (sfpu_timing.c cur_start). */
static bool active(const struct tile *t) { return t->sfpu.tm.nlive != 0; }

static uint64_t next_event(const struct tile *t)
{
    uint64_t next = sfpu_macro_next(t);
    for (unsigned i = 0; i < NUM_THREADS; i++)
        if (t->sfpu.thread_busy_until[i] > t->now && t->sfpu.thread_busy_until[i] < next)
            next = t->sfpu.thread_busy_until[i];
    /* a Dst block an SFPSTORE wrote frees up: a matrix-unit or PACR reader may be waiting */
    if (t->sfpu.dest_blocked_until > t->now) {
        const uint64_t d = dest_next_ready(&t->dest, t->now);
        if (d < next)
            next = d;
    }
    return next;
}

/* The coprocessor wakes at every thread's busy-until cycle and every scheduled instruction's
 * (next_event), so by the end of a run it has reached the last one. */
static uint64_t last_busy(const struct tile *t) { return t->sfpu.busy_until; }

/* "SFPU busy" (STALLWAIT C11 BH, C14 WH; drain): an instruction of the thread within its latency,
 * or one its SFPLOADMACRO scheduled that will run without further SFPU instructions (one
 * waiting for instructions to be issued would hold the thread for ever). */
static bool holds(const struct tile *t, unsigned th, unsigned i)
{
    (void)i;
    return t->sfpu.thread_busy_until[th] > t->now || sfpu_macro_holds(t, th);
}

/* Leaving reset (BHT:SoftReset.md, VectorUnit.md, LReg.md): flags false and unconditional,
 * LaneConfig and LoadMacroConfig zero, LReg[0..7] zero, the constants above. */
static void reset(struct tile *t)
{
    struct sfpu_state *s = &t->sfpu;
    tile_zero(t, s, sizeof *s);
    for (unsigned lane = 0; lane < SFPU_LANES; lane++) {
        s->lreg[8][lane] = LREG8_0_8373;
        s->lreg[10][lane] = FP32_ONE;
        for (unsigned k = 0; k < 4; k++)
            s->lreg[11 + k][lane] = lreg_default[k];
        s->lreg[15][lane] = lane * 2;
    }
}

/* Config.PRNG_SEED_Seed_Val written: the page says the value re-seeds every PRNG but not how;
 * ttsim (v1.10.0 seed_prng) steps the seed 32 times, then gives lanes 31 down to 0 every second
 * state, which tensim follows. */
static void on_signal(struct tile *t, enum unit_signal sig, unsigned a, unsigned b)
{
    (void)b;
    if (sig != SIG_PRNG_SEED)
        return;
    uint32_t x = a;
    for (unsigned i = 0; i < 32; i++)
        x = sfpu_prng_step(x);
    for (unsigned i = 0; i < SFPU_LANES; i++) {
        x = sfpu_prng_step(sfpu_prng_step(x));
        t->sfpu.prng[SFPU_LANES - 1 - i] = x;
    }
}

static void report(const struct tile *t, FILE *f)
{
    const struct sfpu_state *s = &t->sfpu;
    const struct sfpu_timing *tm = &s->tm;
    if (!s->st.insns)
        return;
    fprintf(f, "vector unit: %" PRIu64 " instructions, busy %" PRIu64 " cycles", s->st.insns,
            s->st.busy_cycles);
    if (tm->st.loadmacros)
        fprintf(f, "; %" PRIu64 " SFPLOADMACRO scheduled %" PRIu64 " simple, %" PRIu64 " MAD, %" PRIu64
                " round, %" PRIu64 " store (up to %" PRIu64 " in a cycle)",
                tm->st.loadmacros, tm->st.macro_ops[SFPU_SUB_SIMPLE], tm->st.macro_ops[SFPU_SUB_MAD],
                tm->st.macro_ops[SFPU_SUB_ROUND], tm->st.macro_ops[SFPU_SUB_STORE],
                tm->st.macro_max_per_cycle);
    if (tm->nlive)
        fprintf(f, "; %u still scheduled (waiting for SFPU instructions)", tm->nlive);
    fprintf(f, "\n");
    for (unsigned h = 0; h < SFPU_HZ_COUNT; h++)
        if (tm->st.hazards[h])
            fprintf(f, "vector unit hazard %s: %" PRIu64 "\n", sfpu_hazard_key(h), tm->st.hazards[h]);
}

/* Only when the unit issued anything, so that runs without it keep their statistics. */
static void stats_json(const struct tile *t, FILE *f)
{
    const struct sfpu_state *s = &t->sfpu;
    const struct sfpu_timing *tm = &s->tm;
    if (!s->st.insns)
        return;
    fprintf(f, ", \"busy_cycles\": %" PRIu64 ", \"loadmacros\": %" PRIu64
               ", \"macro_ops\": {\"simple\": %" PRIu64 ", \"mad\": %" PRIu64 ", \"round\": %" PRIu64
               ", \"store\": %" PRIu64 "}, \"macro_ops_max_per_cycle\": %" PRIu64
               ", \"macro_ops_pending\": %u, \"hazards\": {",
            s->st.busy_cycles, tm->st.loadmacros, tm->st.macro_ops[SFPU_SUB_SIMPLE],
            tm->st.macro_ops[SFPU_SUB_MAD], tm->st.macro_ops[SFPU_SUB_ROUND],
            tm->st.macro_ops[SFPU_SUB_STORE], tm->st.macro_max_per_cycle, tm->nlive);
    for (unsigned h = 0; h < SFPU_HZ_COUNT; h++)
        fprintf(f, "%s\"%s\": %" PRIu64, h ? ", " : "", sfpu_hazard_key(h), tm->st.hazards[h]);
    fprintf(f, "}");
}

/* The performance counters' busy cycles (Q_PERF_SFPU_BUSY). */
static bool query(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4])
{
    (void)a, (void)b;
    if (q != Q_PERF_SFPU_BUSY)
        return false;
    unit_perf_answer(v, t->sfpu.st.busy_cycles, t->sfpu.busy_until);
    return true;
}

const struct unit_desc sfpu_unit_desc = {
    .name = "sfpu", .reset = reset, .can_accept = can_accept, .resource = resource,
    .accept = accept, .tick = tick, .active = active, .next_event = next_event, .last_busy = last_busy,
    .track_label = track_label, .holds = holds, .report = report, .signal = on_signal,
    .stats_json = stats_json, .query = query,
};
