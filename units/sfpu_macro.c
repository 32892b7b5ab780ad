/* SFPLOADMACRO (WH/BH:SFPLOADMACRO.md; shared/spec/sfpu.md A.6): an SFPLOAD, then up to four
 * instructions scheduled for the simple, MAD, round and store sub-units from the lane's
 * LoadMacroConfig, each after its own delay. docs/sfpu.md "SFPLOADMACRO and timing".
 *
 * Scheduled instructions wait in a small queue per sub-unit with their delay counters; the
 * counters move every cycle, or, while any waiting instruction asks for it (UnitDelayKind), only
 * when a thread issues an SFPU instruction. Once a counter reaches zero the instruction runs the
 * next cycle, at the start of that cycle (before any regular instruction of the cycle), through
 * the same functional models as regular instructions. SFPLOADMACRO gives them other operands
 * than their template's fields (VB or VC the loaded register, VD it or LReg[16]); the models
 * read their operands from the word, so the word is rewritten, and where a field cannot say it
 * (LReg[16], or the model reading "VB = VD" from another register than it writes) the register
 * the model names is lent the value for the one instruction and put back. */
#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "sfpu_timing.h"

/* A Sequence byte (SFPLOADMACRO.md): selector, delay, LReg[16], VB/VC choice (store: keep VD). */
enum { SEQ_SEL = 7, SEQ_DELAY_SHIFT = 3, SEQ_VD16 = 0x40, SEQ_USE_VB = 0x80 };
enum { SEL_NONE, SEL_UB, SEL_NOP, SEL_STORE, SEL_TEMPLATE0 };
/* Misc: StoreMod0 [3:0], UsesLoadMod0ForStore [7:4] (per macro), UnitDelayKind [11:8] (per
 * sub-unit: 1 counts SFPU-issued instructions) */
enum { MISC_STORE_MOD0 = 15, MISC_LOAD_MOD0_SHIFT = 4, MISC_DELAY_KIND_SHIFT = 8 };

static const char *const sub_name[SFPU_SUBS] = {"simple", "MAD", "round", "store", "load"};
#define NO_REG 255u
#define R(r) (1u << (r))

/* ---- the queues ---- */

/* The counters all move by instructions while a waiting (not yet armed) instruction asks so. */
static bool by_insns(const struct sfpu_timing *tm) { return tm->nby_insns != 0; }

/* A live instruction's counter reached zero: it runs at cycle `at`. */
static void arm(struct sfpu_timing *tm, struct sfpu_macro_op *op, uint64_t at)
{
    if (op->by_insns)
        tm->nby_insns--;
    op->armed = true;
    op->count = 0;
    op->at = at;
}

/* Counting by cycles: bring the counters to cycle `now` (each cycle from the last sync on took
 * one off; an instruction whose counter reached zero in cycle c runs in c + 1). */
static void sync(struct sfpu_timing *tm, uint64_t now)
{
    if (now <= tm->q_synced)
        return;
    if (tm->nlive && !by_insns(tm)) {
        const uint64_t k = now - tm->q_synced;
        for (unsigned u = 0; u < SFPU_SUB_LOAD; u++)
            for (unsigned i = 0; i < SFPU_MACRO_QUEUE; i++) {
                struct sfpu_macro_op *op = &tm->q[u][i];
                if (!op->live || op->armed)
                    continue;
                if (op->count <= k)
                    arm(tm, op, tm->q_synced + op->count + 1);
                else
                    op->count = (uint8_t)(op->count - k);
            }
    }
    tm->q_synced = now;
}

void sfpu_macro_issued(struct tile *t)
{
    struct sfpu_timing *tm = &t->sfpu.tm;
    sync(tm, t->now);
    if (!tm->nlive || !by_insns(tm))
        return;
    for (unsigned u = 0; u < SFPU_SUB_LOAD; u++)
        for (unsigned i = 0; i < SFPU_MACRO_QUEUE; i++) {
            struct sfpu_macro_op *op = &tm->q[u][i];
            if (op->live && !op->armed && --op->count == 0)
                arm(tm, op, t->now + 1);
        }
}

uint64_t sfpu_macro_next(const struct tile *t)
{
    const struct sfpu_timing *tm = &t->sfpu.tm;
    if (!tm->nlive)
        return CYCLE_NEVER;
    const bool insns = by_insns(tm);
    uint64_t next = CYCLE_NEVER;
    for (unsigned u = 0; u < SFPU_SUB_LOAD; u++)
        for (unsigned i = 0; i < SFPU_MACRO_QUEUE; i++) {
            const struct sfpu_macro_op *op = &tm->q[u][i];
            uint64_t at = CYCLE_NEVER;
            if (op->live && op->armed)
                at = op->at;
            else if (op->live && !insns)
                at = tm->q_synced + op->count + 1;
            if (at < next)
                next = at;
        }
    return next;
}

bool sfpu_macro_holds(const struct tile *t, unsigned th)
{
    const struct sfpu_timing *tm = &t->sfpu.tm;
    if (!tm->nlive)
        return false;
    const bool insns = by_insns(tm);
    for (unsigned u = 0; u < SFPU_SUB_LOAD; u++)
        for (unsigned i = 0; i < SFPU_MACRO_QUEUE; i++) {
            const struct sfpu_macro_op *op = &tm->q[u][i];
            if (op->live && op->th == th && (op->armed || !insns))
                return true;
        }
    return false;
}

unsigned sfpu_macro_pending(const struct tile *t) { return t->sfpu.tm.nlive; }

/* The waiting instruction of sub-unit u that would run at the same time as one scheduled now
 * with `delay` (SFPLOADMACRO.md "ForgetFutureInstructionWhoseDelayIs"), or NULL. */
static struct sfpu_macro_op *same_time(struct sfpu_timing *tm, unsigned u, unsigned delay, uint64_t now)
{
    for (unsigned i = 0; i < SFPU_MACRO_QUEUE; i++) {
        struct sfpu_macro_op *op = &tm->q[u][i];
        if (op->live && (delay == 0 ? op->armed && op->at == now + 1 : !op->armed && op->count == delay))
            return op;
    }
    return NULL;
}

/* ---- operands (SFPLOADMACRO.md "Override some instruction fields") ---- */

/* Where a functional model takes VB and VC: an encoded field, VD (the page's "unsigned VB = VD"
 * or "VC = VD"), or SFPSHFT2 SHFT_IMM's Imm12. */
enum role { ROLE_NONE, ROLE_FIELD, ROLE_VD, ROLE_IMM };

static unsigned mod1(uint32_t w) { return TT_GET_SFPIADD_Mod1(w); }

static enum role vb_role(unsigned form, uint32_t w)
{
    switch (sfpu_form_timing(form)->ops) {
    case SFPU_OPS_CDD:
        return ROLE_VD;
    case SFPU_OPS_BCD: /* Blackhole's SFPAND and SFPOR: VB only with USE_VB */
        return (form == TT_FORM_SFPAND_BH || form == TT_FORM_SFPOR_BH) && !(mod1(w) & 1) ? ROLE_VD
                                                                                       : ROLE_FIELD;
    case SFPU_OPS_ABCD:
        return ROLE_FIELD;
    case SFPU_OPS_SHFT2:
        return mod1(w) == 6 ? ROLE_IMM : mod1(w) == 5 ? ROLE_FIELD : ROLE_NONE;
    default:
        return ROLE_NONE;
    }
}
static enum role vc_role(unsigned form, uint32_t w)
{
    switch (sfpu_form_timing(form)->ops) {
    case SFPU_OPS_DD:
        return ROLE_VD;
    case SFPU_OPS_C: case SFPU_OPS_CD: case SFPU_OPS_CDD: case SFPU_OPS_BCD: case SFPU_OPS_ABCD:
    case SFPU_OPS_SWAP:
        return ROLE_FIELD;
    case SFPU_OPS_SHFT2:
        return mod1(w) == 6 ? ROLE_NONE : ROLE_FIELD;
    default:
        return ROLE_NONE;
    }
}
/* "Insn.VB is None", "Insn.VC is None": the encoding has no such field. */
static bool has_vb_field(unsigned form, uint32_t w)
{
    const unsigned ops = sfpu_form_timing(form)->ops;
    return ops == SFPU_OPS_BCD || ops == SFPU_OPS_ABCD || (ops == SFPU_OPS_SHFT2 && mod1(w) != 6);
}
static bool has_vc_field(unsigned form, uint32_t w) { return vc_role(form, w) == ROLE_FIELD; }
static unsigned field_vb(unsigned form, uint32_t w)
{
    return form == TT_FORM_SFPSHFT2 ? sfpu_shft2_vb(w) : TT_GET_SFPMAD_VB(w);
}
static uint32_t set_vb(unsigned form, uint32_t w, unsigned v)
{
    if (form == TT_FORM_SFPSHFT2)
        return TT_SET_SFPSHFT2_Imm12(w, (TT_GET_SFPSHFT2_Imm12(w) & ~15u) | v);
    return TT_SET_SFPMAD_VB(w, v);
}

/* INDIRECT_VD (SFPMAD.md and the pages like it; SFPLUT's is in Mod0): the result goes to
 * LReg[LReg[7] & 15], unless VD is 16. */
static bool indirect_vd(unsigned form, uint32_t w)
{
    switch (sfpu_form_timing(form)->ops) {
    case SFPU_OPS_ABCD: case SFPU_OPS_DD: return mod1(w) & 8;
    case SFPU_OPS_LUT: return form == TT_FORM_SFPLUT ? TT_GET_SFPLUT_Mod0(w) & 8 : mod1(w) & 8;
    default: return false;
    }
}
static uint32_t clear_indirect_vd(unsigned form, uint32_t w)
{
    if (form == TT_FORM_SFPLUT)
        return TT_SET_SFPLUT_Mod0(w, TT_GET_SFPLUT_Mod0(w) & ~8u);
    return TT_SET_SFPIADD_Mod1(w, mod1(w) & ~8u);
}
_Static_assert(TT_SAME_BITS(SFPMAD_VB, SFPSTOCHRND_BH_VB) && TT_SAME_BITS(SFPMAD_VC, SFPIADD_VC) &&
               TT_SAME_BITS(SFPIADD_Mod1, SFPMAD_Mod1) && TT_SAME_BITS(SFPIADD_Mod1, SFPLUTFP32_BH_Mod1),
               "operand fields as units/sfpu_timing.c has them");

/* ---- SFPLOADMACRO ---- */

/* LoadMacroConfig may differ between lanes (SFPLOADMACRO.md, "not encouraged"); tensim schedules
 * one instruction per sub-unit for all lanes, so what this SFPLOADMACRO uses must agree. */
static bool lanes_agree(const struct sfpu_state *s, unsigned macro, struct sfpu_fault *f)
{
    const struct sfpu_macro_config *c0 = &s->macro[0];
    const uint32_t seq = c0->sequence[macro];
    for (unsigned lane = 1; lane < SFPU_LANES; lane++) {
        const struct sfpu_macro_config *c = &s->macro[lane];
        bool same = c->sequence[macro] == seq && c->misc == c0->misc;
        for (unsigned i = 0; i < 4 && same; i++) {
            const unsigned sel = seq >> (8 * i) & SEQ_SEL;
            if (sel >= SEL_TEMPLATE0)
                same = c->instruction_template[sel - SEL_TEMPLATE0] ==
                       c0->instruction_template[sel - SEL_TEMPLATE0];
        }
        if (!same) {
            f->kind = ERR_UNIMPLEMENTED;
            snprintf(f->why, sizeof f->why, "LoadMacroConfig of lane %u is not lane 0's (Sequence[%u], Misc "
                     "or a template)", lane, macro);
            return false;
        }
    }
    return true;
}

/* What one Sequence byte schedules, worked out before the load runs so that a fault changes
 * nothing. */
struct plan {
    bool on;
    struct sfpu_macro_op op;
    unsigned delay;
};

static bool plan_byte(struct tile *t, unsigned th, unsigned u, uint32_t byte, unsigned macro,
                      unsigned vd, unsigned mod0, struct plan *p, struct sfpu_fault *f)
{
    struct sfpu_state *s = &t->sfpu;
    const unsigned sel = byte & SEQ_SEL;
    memset(p, 0, sizeof *p);
    if (sel == SEL_NONE)
        return true;
    if (sel == SEL_UB) {
        f->kind = ERR_UNDEF_BEHAVIOUR;
        snprintf(f->why, sizeof f->why, "Sequence[%u] selects 1 (undefined) for the %s sub-unit", macro,
                 sub_name[u]);
        return false;
    }
    struct sfpu_macro_op *op = &p->op;
    const bool wh = tile_is_wormhole(t);
    op->form = TT_FORM_SFPNOP;
    if (sel == SEL_STORE) {
        op->form = wh ? TT_FORM_SFPSTORE_WH : TT_FORM_SFPSTORE_BH;
    } else if (sel >= SEL_TEMPLATE0) {
        op->word = s->macro[0].instruction_template[sel - SEL_TEMPLATE0];
        const struct tt_form *tf = tt_decode(tile_arch_bit(t), op->word);
        if (!tf) {
            f->kind = ERR_UNDEF_BEHAVIOUR;
            snprintf(f->why, sizeof f->why, "InstructionTemplate[%u] (0x%08x, for the %s sub-unit) is "
                     "not an instruction", sel - SEL_TEMPLATE0, op->word, sub_name[u]);
            return false;
        }
        op->form = (uint16_t)(tf - tt_forms);
    }
    /* "if (!SubUnit.CanExecuteOpcode(Insn.Opcode)) Insn.Opcode = SFPNOP", which the store
     * sub-unit cannot take */
    if (!sfpu_sub_can_execute(u, op->form))
        op->form = TT_FORM_SFPNOP;
    if (u == SFPU_SUB_STORE && op->form == TT_FORM_SFPNOP) {
        f->kind = ERR_UNDEF_BEHAVIOUR;
        snprintf(f->why, sizeof f->why, "Sequence[%u] gives the store sub-unit no SFPSTORE (selector %u)",
                 macro, sel);
        return false;
    }
    op->vd = (uint8_t)vd;
    if (u == SFPU_SUB_STORE) {
        if (byte & SEQ_VD16)
            op->vd = 16;
        else if (byte & SEQ_USE_VB) /* keep the template's VD (selector 3: 0) */
            op->vd = (uint8_t)(sel == SEL_STORE ? 0 : sfpu_field_vd(op->form, op->word));
        const uint32_t misc = s->macro[0].misc;
        op->mod0 = (uint8_t)(misc >> (MISC_LOAD_MOD0_SHIFT + macro) & 1 ? mod0 : misc & MISC_STORE_MOD0);
    } else if (op->form != TT_FORM_SFPNOP) {
        const unsigned tvd = sfpu_field_vd(op->form, op->word);
        if (byte & SEQ_USE_VB) {
            op->vb = (uint8_t)vd;
            op->vc = (uint8_t)(has_vc_field(op->form, op->word) ? TT_GET_SFPMAD_VC(op->word) : tvd);
        } else {
            op->vc = (uint8_t)vd;
            op->vb = (uint8_t)(has_vb_field(op->form, op->word) ? field_vb(op->form, op->word) : tvd);
        }
        if (byte & SEQ_VD16)
            op->vd = 16;
        if (op->form == TT_FORM_SFPCONFIG && op->vd == 16) {
            f->kind = ERR_UNIMPLEMENTED;
            snprintf(f->why, sizeof f->why, "SFPCONFIG scheduled with VD 16 (Sequence[%u])", macro);
            return false;
        }
    }
    op->live = true;
    op->th = (uint8_t)th;
    op->lm_cycle = t->now;
    op->by_insns = s->macro[0].misc >> (MISC_DELAY_KIND_SHIFT + u) & 1;
    op->use_vb = (byte & SEQ_USE_VB) != 0;
    p->delay = byte >> SEQ_DELAY_SHIFT & 7;
    p->on = true;
    /* A delay of 7 forgets nothing, yet never meets another instruction at 7: every counter has
     * moved on by the time another SFPLOADMACRO issues (a cycle passed, or this issue counted). */
    return true;
}

bool sfpu_loadmacro(struct tile *t, unsigned th, uint32_t w, bool wh, struct sfpu_fault *f)
{
    struct sfpu_state *s = &t->sfpu;
    struct sfpu_timing *tm = &s->tm;
    const unsigned macro = TT_GET_SFPLOADMACRO_BH_MacroIndex(w);
    const unsigned vdhi = TT_GET_SFPLOADMACRO_BH_VDHi(w);
    const unsigned vd = vdhi << 2 | TT_GET_SFPLOADMACRO_BH_VDLo(w);
    const unsigned mod0 = TT_GET_SFPLOADMACRO_BH_Mod0(w);
    const unsigned addr_mod = wh ? TT_GET_SFPLOADMACRO_WH_AddrMod(w) : TT_GET_SFPLOADMACRO_BH_AddrMod(w);
    const unsigned imm10 = TT_GET_SFPLOADMACRO_BH_Imm9(w) << 1 | vdhi;
    /* With nothing scheduled the unit's tick is not called (units/unit.h `active`): bring the
     * counters' clock to now as that idle tick would have. */
    if (!tm->nlive)
        tm->q_synced = t->now;
    if (!lanes_agree(s, macro, f))
        return false;
    struct plan p[SFPU_SUB_LOAD];
    const uint32_t seq = s->macro[0].sequence[macro];
    for (unsigned u = 0; u < SFPU_SUB_LOAD; u++)
        if (!plan_byte(t, th, u, seq >> (8 * u) & 0xFF, macro, vd, mod0, &p[u], f))
            return false;
    const unsigned addr = sfpu_load_fields(t, th, vd, mod0, addr_mod, imm10, wh, f);
    if (f->kind != ERR_NONE)
        return false;
    tm->st.loadmacros++;
    for (unsigned u = 0; u < SFPU_SUB_LOAD; u++) {
        if (!p[u].on)
            continue;
        struct sfpu_macro_op *old = p[u].delay != 7 ? same_time(tm, u, p[u].delay, t->now) : NULL;
        if (old) {
            old->live = false;
            tm->nlive--;
            if (!old->armed && old->by_insns)
                tm->nby_insns--;
        }
        struct sfpu_macro_op *slot = NULL;
        for (unsigned i = 0; i < SFPU_MACRO_QUEUE && !slot; i++)
            if (!tm->q[u][i].live)
                slot = &tm->q[u][i];
        if (!slot) { /* eight counters 0..7 and the armed one cover every delay: cannot happen */
            f->kind = ERR_UNIMPLEMENTED;
            snprintf(f->why, sizeof f->why, "more than %u instructions waiting for the %s sub-unit",
                     SFPU_MACRO_QUEUE, sub_name[u]);
            return false;
        }
        *slot = p[u].op;
        slot->addr = (uint16_t)addr;
        tm->nlive++;
        if (slot->by_insns)
            tm->nby_insns++;
        if (p[u].delay == 0)
            arm(tm, slot, t->now + 1);
        else
            slot->count = (uint8_t)p[u].delay;
    }
    return true;
}

/* ---- running a scheduled instruction ---- */

static bool fail(struct tile *t, const struct sfpu_macro_op *op, struct sfpu_fault *f)
{
    return tile_error(t, f->kind, -1, 0, "%s scheduled by SFPLOADMACRO (thread T%u, cycle %llu): %s",
                      tt_forms[op->form].mnemonic, op->th, (unsigned long long)op->lm_cycle, f->why);
}

/* A register of LReg[0..7] the instruction neither reads nor writes besides through VD, nor in
 * `avoid` (bit r: LReg[r]), to lend a value to (the model names it in VD), or NO_REG. */
static unsigned free_reg(const struct sfpu_state *s, unsigned form, uint32_t w, bool wh, uint32_t avoid)
{
    const struct sfpu_regs r = sfpu_regs_of(s, form, sfpu_field_set_vd(form, w, 8), wh);
    const uint32_t used = (r.rd | r.wr | avoid) & 0xFFu;
    for (unsigned x = 8; x-- > 0;)
        if (!(used >> x & 1))
            return x;
    return NO_REG;
}

static bool run_store(struct tile *t, struct sfpu_macro_op *op, bool wh)
{
    struct sfpu_state *s = &t->sfpu;
    struct sfpu_fault f = {ERR_NONE, ""};
    bool discard;
    const struct sfpu_regs rg = {R(op->vd), 0};
    if (!sfpu_check(t, op->th, op->form, 0, true, SFPU_SUB_STORE, rg, false, &discard))
        return false;
    /* DISABLE_BACKDOOR_LOAD taken as true: every lane runs the model */
    sfpu_store_at(t, op->th, op->vd, op->mod0, op->addr, SFPU_ALL_LANES, wh,
                  t->now + SFPU_STORE_DST_BUSY, &f);
    if (f.kind != ERR_NONE)
        return fail(t, op, &f);
    s->dest_blocked_until = t->now + SFPU_STORE_DST_BUSY;
    sfpu_busy(t, op->th, 1);
    sfpu_trace(t, op->th, op->form, SFPU_SUB_STORE);
    return true;
}

/* A scheduled SFPSWAP takes its VD operand, read and written, from Insn.VB: the template's VD
 * (bit 7 clear) or the loaded register (bit 7 set), and its VC from Insn.VC; Insn.VD is not used.
 * SFPLOADMACRO.md read literally makes VC and VD both the loaded register when bit 7 is clear,
 * so the SFPSWAP would compare a register with itself. tensim reads it as the other simple
 * instructions, whose VD operand is read through VB (SFPLOADMACRO.md: their "VB = VD" is
 * skipped), because tt-llk's Blackhole exponential sanitises its inputs with exactly that
 * schedule, SFPSWAP(VC 0, VD 14 = -88.5, VEC_MIN_MAX): the loaded register (VC) gets
 * max(x, -88.5) and LReg[14], read-only, is not written. docs/sfpu.md. */
static bool run_swap(struct tile *t, struct sfpu_macro_op *op, unsigned u, uint32_t w)
{
    struct sfpu_fault f = {ERR_NONE, ""};
    const bool wh = tile_is_wormhole(t);
    bool discard;
    w = sfpu_field_set_vd(TT_FORM_SFPSWAP, TT_SET_SFPMAD_VC(w, op->vc), op->vb);
    const struct sfpu_regs rg = sfpu_regs_of(&t->sfpu, TT_FORM_SFPSWAP, w, wh);
    if (!sfpu_check(t, op->th, TT_FORM_SFPSWAP, w, true, u, rg, false, &discard))
        return false;
    /* DISABLE_BACKDOOR_LOAD taken as true: every lane runs the model */
    if (!sfpu_run(t, op->th, TT_FORM_SFPSWAP, w, SFPU_ALL_LANES, &f) || f.kind != ERR_NONE)
        return fail(t, op, &f);
    sfpu_note(t, op->th, TT_FORM_SFPSWAP, w, true, rg);
    sfpu_busy(t, op->th, sfpu_latency(TT_FORM_SFPSWAP, w));
    sfpu_trace(t, op->th, TT_FORM_SFPSWAP, u);
    return true;
}
_Static_assert(TT_SAME_BITS(SFPMAD_VC, SFPSWAP_VC), "SFPSWAP's VC where SFPMAD's is");

/* A simple, MAD or round instruction with the operands SFPLOADMACRO gave it. */
static bool run_template(struct tile *t, struct sfpu_macro_op *op, unsigned u, bool wh)
{
    struct sfpu_state *s = &t->sfpu;
    struct sfpu_fault f = {ERR_NONE, ""};
    const unsigned form = op->form;
    bool discard;
    if (form == TT_FORM_SFPNOP) {
        if (!sfpu_check(t, op->th, form, 0, true, u, (struct sfpu_regs){0, 0}, false, &discard))
            return false;
        sfpu_busy(t, op->th, 1);
        sfpu_trace(t, op->th, form, u);
        return true;
    }
    uint32_t w = op->word;
    if (form == TT_FORM_SFPSWAP)
        return run_swap(t, op, u, w);
    const enum role vbr = vb_role(form, w), vcr = vc_role(form, w);
    if (vcr == ROLE_FIELD)
        w = TT_SET_SFPMAD_VC(w, op->vc);
    if (vbr == ROLE_FIELD)
        w = set_vb(form, w, op->vb);
    bool ind = indirect_vd(form, w);
    if (ind && op->vd == 16) { /* the pages: no indirection when VD is 16 */
        w = clear_indirect_vd(form, w);
        ind = false;
    }
    /* The register the model's VD names: it reads "VB = VD" / "VC = VD" from it (src) and
     * writes it. */
    const unsigned src = vbr == ROLE_VD ? op->vb : vcr == ROLE_VD ? op->vc : NO_REG;
    /* SFPSHFT2 SHFT_IMM with the loaded register as VB: Imm12 & 15 names it */
    unsigned imm_vb = NO_REG;
    if (vbr == ROLE_IMM && op->use_vb && sfpu_shft2_vb(w) != op->vb)
        imm_vb = sfpu_shft2_vb(w);
    unsigned d = NO_REG, lend_from = NO_REG;
    if (src != NO_REG && (src == op->vd || src < 8)) {
        d = src; /* reads its own value; a write goes to op->vd */
    } else if (src == NO_REG && op->vd < 8) {
        d = op->vd;
    } else {
        /* not op->vd: lent there, its lanes the model leaves would keep the lent value */
        d = free_reg(s, form, w, wh, (imm_vb < 8 ? R(imm_vb) : 0) | (op->vd < 8 ? R(op->vd) : 0));
        lend_from = src != NO_REG ? src : 16;
    }
    if (d == NO_REG || (imm_vb != NO_REG && imm_vb == d)) {
        f.kind = ERR_UNIMPLEMENTED;
        snprintf(f.why, sizeof f.why, "no LReg to carry VD %u for a template that uses LReg[0..7] "
                 "besides", op->vd);
        return fail(t, op, &f);
    }
    w = sfpu_field_set_vd(form, w, d);
    const bool divert = d != op->vd;
    /* the real registers, for the rules between instructions */
    struct sfpu_regs rg = sfpu_regs_of(s, form, w, wh);
    const uint32_t wrote_d = rg.wr >> d & 1;
    if (lend_from != NO_REG && (rg.rd >> d & 1))
        rg.rd = (rg.rd & ~R(d)) | R(lend_from);
    if (imm_vb != NO_REG && (rg.rd >> imm_vb & 1))
        rg.rd = (rg.rd & ~R(imm_vb)) | R(op->vb);
    const bool writes_vd16 = op->vd == 16 && form != TT_FORM_SFPSWAP; /* SFPSWAP writes VD < 8 only */
    if (divert && !ind && wrote_d)
        rg.wr = (rg.wr & ~R(d)) | (op->vd < 8 || writes_vd16 ? R(op->vd) : 0);
    if (!sfpu_check(t, op->th, form, w, true, u, rg, op->vd == 16 && writes_vd16, &discard))
        return false;
    /* lend, run, give back */
    const uint32_t en = sfpu_enabled_lanes(s, SFPU_ALL_LANES);
    uint32_t keep_d[SFPU_LANES], old_out[SFPU_LANES], keep_imm[SFPU_LANES];
    if (divert) { /* only a diverted result needs them back */
        memcpy(old_out, s->lreg[op->vd], sizeof old_out);
        memcpy(keep_d, s->lreg[d], sizeof keep_d);
    }
    if (lend_from != NO_REG)
        memcpy(s->lreg[d], s->lreg[lend_from], sizeof s->lreg[d]);
    if (imm_vb != NO_REG) {
        memcpy(keep_imm, s->lreg[imm_vb], sizeof keep_imm);
        memcpy(s->lreg[imm_vb], s->lreg[op->vb], sizeof keep_imm);
    }
    /* DISABLE_BACKDOOR_LOAD taken as true: every lane runs the model */
    const bool ok = sfpu_run(t, op->th, form, w, SFPU_ALL_LANES, &f);
    if (imm_vb != NO_REG)
        memcpy(s->lreg[imm_vb], keep_imm, sizeof keep_imm);
    if (divert) {
        uint32_t out[SFPU_LANES];
        for (unsigned lane = 0; lane < SFPU_LANES; lane++) {
            if (ind)
                out[lane] = s->lreg[op->vd][lane]; /* the model wrote LReg[LReg[7] & 15] itself */
            else if (src == NO_REG)
                out[lane] = writes_vd16 ? s->lreg[d][lane] : old_out[lane]; /* d held LReg[16] */
            else
                out[lane] = wrote_d && (en >> lane & 1) ? s->lreg[d][lane] : old_out[lane];
        }
        if (!ind || lend_from != NO_REG)
            memcpy(s->lreg[d], keep_d, sizeof keep_d);
        memcpy(s->lreg[op->vd], out, sizeof out);
    }
    if (!ok || f.kind != ERR_NONE) {
        if (f.kind == ERR_NONE) /* every SFPU form has a model; kept for a form added later */
            f.kind = ERR_UNIMPLEMENTED, snprintf(f.why, sizeof f.why, "no functional model");
        return fail(t, op, &f);
    }
    sfpu_note(t, op->th, form, w, true, rg);
    sfpu_busy(t, op->th, sfpu_latency(form, w));
    sfpu_trace(t, op->th, form, u);
    return true;
}

void sfpu_macro_tick(struct tile *t)
{
    struct sfpu_timing *tm = &t->sfpu.tm;
    sfpu_timing_tick(t);
    if (tm->q_synced > t->now) /* a new run on the same tile (tests): its clock starts again */
        tm->q_synced = t->now;
    sync(tm, t->now);
    if (!tm->nlive)
        return;
    const bool wh = tile_is_wormhole(t);
    /* the state as the cycle began, once, and only in a cycle where a scheduled one runs */
    bool due = false;
    for (unsigned u = 0; u < SFPU_SUB_LOAD && !due; u++)
        for (unsigned i = 0; i < SFPU_MACRO_QUEUE && !due; i++) {
            const struct sfpu_macro_op *op = &tm->q[u][i];
            due = op->live && op->armed && op->at <= t->now;
        }
    if (due && tm->cycle_start_at != t->now + 1) {
        memcpy(t->sfpu.cycle_start, &t->sfpu, SFPU_ARCH_BYTES);
        tm->cycle_start_at = t->now + 1;
    }
    /* SFPSTORE first (it reads what the cycle before left), then simple, MAD, round */
    static const unsigned order[SFPU_SUB_LOAD] = {SFPU_SUB_STORE, SFPU_SUB_SIMPLE, SFPU_SUB_MAD,
                                                 SFPU_SUB_ROUND};
    unsigned ran = 0;
    for (unsigned k = 0; k < SFPU_SUB_LOAD; k++) {
        const unsigned u = order[k];
        for (unsigned i = 0; i < SFPU_MACRO_QUEUE; i++) {
            struct sfpu_macro_op *op = &tm->q[u][i];
            if (!op->live || !op->armed || op->at > t->now)
                continue;
            struct sfpu_macro_op x = *op;
            op->live = false;
            tm->nlive--;
            tm->st.macro_ops[u]++;
            ran++;
            if (!(u == SFPU_SUB_STORE ? run_store(t, &x, wh) : run_template(t, &x, u, wh)))
                return;
        }
    }
    if (ran > tm->st.macro_max_per_cycle)
        tm->st.macro_max_per_cycle = ran;
}

/* ---- one cycle, two phases ----
 *
 * Every sub-unit reads its operands as the cycle began and writes at its end, so a regular
 * instruction does not see what the scheduled instructions of its own cycle wrote, nor they
 * what it writes. tt-llk's Blackhole `where` relies on it: its SFPLOAD runs in the cycle of a
 * scheduled SFPENCC and must load under the lane enables the SFPSETCC of the cycle before set
 * (SFPLOADMACRO.md's sub-units working side by side). Scheduled instructions run first, at the
 * start of the cycle; a regular instruction of that cycle runs on the state they started from,
 * and each byte takes the regular instruction's value where it changed it, the scheduled
 * ones' elsewhere. Both writing the same register is a sub-unit conflict (counted there). */

bool sfpu_macro_rewind(struct tile *t, uint8_t after[SFPU_ARCH_BYTES])
{
    struct sfpu_state *s = &t->sfpu;
    if (s->tm.cycle_start_at != t->now + 1)
        return false;
    memcpy(after, s, SFPU_ARCH_BYTES);
    memcpy(s, s->cycle_start, SFPU_ARCH_BYTES);
    return true;
}

void sfpu_macro_merge(struct tile *t, const uint8_t after[SFPU_ARCH_BYTES])
{
    uint8_t *cur = (uint8_t *)&t->sfpu;
    const uint8_t *start = t->sfpu.cycle_start;
    for (size_t i = 0; i < SFPU_ARCH_BYTES; i++)
        if (cur[i] == start[i])
            cur[i] = after[i];
}
