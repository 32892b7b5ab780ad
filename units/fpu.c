/* The matrix unit's interface to the Wait Gate, its decoding, RWCs and timing (units/fpu.h).
 *
 * Timing (docs/timing-model.md "Matrix unit (FPU)", WH:MatrixUnit.md): one instruction per
 * cycle from all threads together (RES_FPU); latency 5 for the computing instructions, 4 for
 * MOVA2D/MOVDBGA2D/MOVB2D/MOVB2A/MOVD2B, 2 for MOVD2A and SHIFTXB, 1 for the rest. An instruction
 * waits at the gate (with the reason charged to its thread) while
 *  - a restriction left by the previous MOV / SHIFTXB still applies (`hazard`, detail FPU),
 *  - it needs SrcA/SrcB and the matrix unit does not own the bank (`src_not_valid`, 0 A / 1 B),
 *  - it reads an 8-row block of Dst written fewer than `latency` cycles ago (`dest_hazard`,
 *    detail: the DstBits block, physical row / 8). */
#include "fpu_internal.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../trace/trace.h"

/* ---- decoding ---- */

/* Each form's fields through its own accessors (units/tensix.def). Blackhole widens AddrMod to
 * [16:14] (tt-llk shift 14) except in GMPOOL, GAPOOL and the pooling legacy forms, which keep
 * [16:15]; Blackhole's ZEROACC and MOVB2D lay their mode bits out differently
 * (spec/instructions.md). The macros below take a form name and read the fields a family of
 * forms has in common; PAIR decodes the _BH and _WH forms of one instruction alike. */
#define MATH(form)                                                                                \
    (in->addr_mod = TT_GET_##form##_AddrMod(w), in->dst_row = TT_GET_##form##_DstRow(w),         \
     in->flip_a = TT_GET_##form##_FlipSrcA(w), in->flip_b = TT_GET_##form##_FlipSrcB(w))
#define ELW(form)                                                                                 \
    (MATH(form), in->bcast_row = TT_GET_##form##_BroadcastSrcBRow(w),                             \
     in->bcast_col0 = TT_GET_##form##_BroadcastSrcBCol0(w))
#define ELW_ADD(form) (ELW(form), in->add_dst = TT_GET_##form##_AddDst(w))
#define MVMUL(form) (MATH(form), in->bcast_row = TT_GET_##form##_BroadcastSrcBRow(w))
#define MOVE(form)                                                                                \
    (in->addr_mod = TT_GET_##form##_AddrMod(w), in->dst_row = TT_GET_##form##_DstRow(w),         \
     in->src_row = TT_GET_##form##_SrcRow(w), in->use_dst32_lo = TT_GET_##form##_UseDst32bLo(w))
#define MOVE4(form) (MOVE(form), in->rows = TT_GET_##form##_Move4Rows(w) ? 4 : 1)
#define MOVE8(form) (MOVE(form), in->rows = TT_GET_##form##_Move8Rows(w) ? 8 : 1)
#define MOVB2A(form)                                                                              \
    (in->addr_mod = TT_GET_##form##_AddrMod(w), in->src_row = TT_GET_##form##_SrcARow(w),        \
     in->srcb_row = TT_GET_##form##_SrcBRow(w), in->rows = TT_GET_##form##_Move4Rows(w) ? 4 : 1)
#define SHIFTXB(form)                                                                             \
    (in->addr_mod = TT_GET_##form##_AddrMod(w), in->src_row = TT_GET_##form##_SrcRow(w),         \
     in->shift_in_zero = TT_GET_##form##_ShiftInZero(w))
#define CONV(form) (in->addr_mod = TT_GET_##form##_addr_mode(w))
#define PAIR(kind_, dec, name)                                                                    \
    case TT_FORM_##name##_BH: in->kind = kind_, dec(name##_BH); break;                            \
    case TT_FORM_##name##_WH: in->kind = kind_, dec(name##_WH); break
/* The pooling legacy forms' 7-bit addr_mode is tt-llk's upper bound: tensim takes its low two
 * bits as the ADDR_MOD index, where GMPOOL and GAPOOL have their AddrMod [16:15]. */
#define POOL(form) (in->addr_mod = TT_GET_##form##_addr_mode(w) & 3u)
_Static_assert(TT_LO_MPOOL3S1_addr_mode == TT_LO_GMPOOL_AddrMod &&
                   TT_HI_GMPOOL_AddrMod - TT_LO_GMPOOL_AddrMod == 1,
               "pooling addr_mode starts where GMPOOL's 2-bit AddrMod is");

static void decode(uint32_t w, const struct tt_form *f, struct fpu_insn *in)
{
    memset(in, 0, sizeof *in);
    in->word = w;
    switch ((enum tt_form_id)(f - tt_forms)) {
    PAIR(FK_MVMUL, MVMUL, MVMUL);
    PAIR(FK_DOTPV, MATH, DOTPV);
    case TT_FORM_GAPOOL: in->kind = FK_GAPOOL, MATH(GAPOOL); break;
    case TT_FORM_GMPOOL:
        in->kind = FK_GMPOOL, MATH(GMPOOL);
        in->argmax = TT_GET_GMPOOL_ArgMax(w);
        break;
    PAIR(FK_ELWMUL, ELW, ELWMUL);
    PAIR(FK_ELWADD, ELW_ADD, ELWADD);
    PAIR(FK_ELWSUB, ELW_ADD, ELWSUB);
    PAIR(FK_MOVD2A, MOVE4, MOVD2A);
    PAIR(FK_MOVD2B, MOVE4, MOVD2B);
    PAIR(FK_MOVA2D, MOVE8, MOVA2D);
    PAIR(FK_MOVDBGA2D, MOVE8, MOVDBGA2D);
    PAIR(FK_MOVB2A, MOVB2A, MOVB2A);
    case TT_FORM_MOVB2D_WH:
        in->kind = FK_MOVB2D, MOVE(MOVB2D_WH);
        in->bcast_col0 = TT_GET_MOVB2D_WH_BroadcastCol0(w);
        in->bcast_row = TT_GET_MOVB2D_WH_Broadcast1RowTo8(w);
        in->rows = in->bcast_row ? 8 : TT_GET_MOVB2D_WH_Move4Rows(w) ? 4 : 1;
        break;
    case TT_FORM_MOVB2D_BH: { /* tt-llk: Mode [13:11] holds WH's bits [14:12] */
        in->kind = FK_MOVB2D, MOVE(MOVB2D_BH);
        unsigned mode = TT_GET_MOVB2D_BH_Mode(w);
        in->bcast_col0 = mode & 1;
        in->rows = mode & 2 ? 8 : mode & 4 ? 4 : 1;
        in->bcast_row = (mode & 2) != 0; /* Broadcast1RowTo8 */
        break;
    }
    case TT_FORM_ZEROACC_WH:
        in->kind = FK_ZEROACC;
        in->addr_mod = TT_GET_ZEROACC_WH_AddrMod(w);
        in->dst_row = TT_GET_ZEROACC_WH_Imm10(w);
        in->za_dst32 = TT_GET_ZEROACC_WH_UseDst32b(w);
        in->za_mode = TT_GET_ZEROACC_WH_Mode(w);
        in->za_revert = TT_GET_ZEROACC_WH_Revert(w);
        break;
    case TT_FORM_ZEROACC_BH: /* tt-llk's fields; units/fpu_move.c zeroacc_bh */
        in->kind = FK_ZEROACC;
        in->addr_mod = TT_GET_ZEROACC_BH_addr_mode(w);
        in->dst_row = TT_GET_ZEROACC_BH_where(w);
        in->za_mode = TT_GET_ZEROACC_BH_clear_mode(w);
        in->za_dst32 = TT_GET_ZEROACC_BH_use_32_bit_mode(w);
        in->za_revert = TT_GET_ZEROACC_BH_clear_zero_flags(w);
        break;
    case TT_FORM_ZEROSRC: in->kind = FK_ZEROSRC; break;
    case TT_FORM_TRNSPSRCB: in->kind = FK_TRNSPSRCB; break;
    case TT_FORM_SHIFTXA:
        in->kind = FK_SHIFTXA;
        in->direction = TT_GET_SHIFTXA_Direction(w);
        break;
    PAIR(FK_SHIFTXB, SHIFTXB, SHIFTXB);
    case TT_FORM_SETRWC:
        in->kind = FK_SETRWC;
        in->flip_a = TT_GET_SETRWC_FlipSrcA(w), in->flip_b = TT_GET_SETRWC_FlipSrcB(w);
        break;
    case TT_FORM_INCRWC: in->kind = FK_INCRWC; break;
    case TT_FORM_CLEARDVALID:
        in->kind = FK_CLEARDVALID;
        in->flip_a = TT_GET_CLEARDVALID_FlipSrcA(w), in->flip_b = TT_GET_CLEARDVALID_FlipSrcB(w);
        break;
    case TT_FORM_CLREXPHIST: in->kind = FK_CLREXPHIST; break;
    case TT_FORM_GATESRCRST: in->kind = FK_GATESRCRST; break;
    PAIR(FK_LEGACY, CONV, CONV3S1);
    PAIR(FK_LEGACY, CONV, CONV3S2);
    PAIR(FK_LEGACY, CONV, MFCONV3S1);
    case TT_FORM_MPOOL3S1: in->kind = FK_LEGACY, POOL(MPOOL3S1); break;
    case TT_FORM_MPOOL3S2: in->kind = FK_LEGACY, POOL(MPOOL3S2); break;
    case TT_FORM_APOOL3S1: in->kind = FK_LEGACY, POOL(APOOL3S1); break;
    case TT_FORM_APOOL3S2: in->kind = FK_LEGACY, POOL(APOOL3S2); break;
    default: in->kind = FK_LEGACY; break;
    }
}

/* ---- configuration ---- */

/* read_cfg's reads of Config and ThreadConfig, each noted in the memo (fpu.h) being built. */
struct cfg_reader {
    const struct tile *t;
    unsigned th;
    struct fpu_cfg_memo *m;
};

/* The slot of the word at byte offset `at` in one of the memo's lists (ats, *n entries): the
 * one that has it, else a new one; -1 when the list is full, which makes the memo unable to
 * serve (valid false). */
static int memo_slot(struct fpu_cfg_memo *m, uint32_t *ats, uint8_t *n, uint32_t at)
{
    for (unsigned i = 0; i < *n; i++)
        if (ats[i] == at)
            return (int)i;
    if (*n == FPU_MEMO_WORDS) {
        m->valid = false;
        return -1;
    }
    ats[*n] = at;
    return (*n)++;
}

static void note_cfg(struct cfg_reader *r, unsigned bank, unsigned index)
{
    struct fpu_cfg_memo *m = r->m;
    const int k = memo_slot(m, m->cfg_at, &m->ncfg,
                            (uint32_t)(offsetof(struct tt_config, cfg) +
                                       (bank * CFG_WORDS_MAX + index) * sizeof(uint32_t)));
    if (k >= 0)
        m->cfg_value[k] = r->t->cfg.cfg[bank][index];
}

static void note_thcfg(struct cfg_reader *r, unsigned index)
{
    struct fpu_cfg_memo *m = r->m;
    const int k = memo_slot(m, m->th_at, &m->nth,
                            (uint32_t)(offsetof(struct tt_config, thread) +
                                       (r->th * THCFG_WORDS_MAX + index) * sizeof(uint16_t)));
    if (k >= 0)
        m->th_value[k] = r->t->cfg.thread[r->th][index];
}

static uint32_t rd_cfg(struct cfg_reader *r, unsigned bank, const struct cfg_field_desc *f)
{
    note_cfg(r, bank, f->word);
    return cfg_get(&r->t->cfg, bank, f);
}

static uint32_t rd_thcfg(struct cfg_reader *r, const struct cfg_field_desc *f)
{
    note_thcfg(r, f->word);
    return thcfg_get(&r->t->cfg, r->th, f);
}

/* The configuration as read_cfg computes it, the words it reads noted in r->m. */
static struct fpu_cfg compute_cfg(struct cfg_reader *r)
{
    const struct tile *t = r->t;
    const unsigned ab = tile_arch_bit(t);
    const bool wh = tile_is_wormhole(t);
    struct fpu_cfg k;
    k.bank = rd_thcfg(r, THCFG_DESC(ab, CFG_STATE_ID_StateID));
    k.srca_fmt = rd_cfg(r, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG_SrcA_override))
                     ? rd_cfg(r, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG_SrcA_val))
                     : rd_cfg(r, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcA));
    k.srcb_fmt = rd_cfg(r, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG1_SrcB));
    k.srcb_side_fmt = k.srca_fmt;
    k.srca_cfg_fmt = k.srca_fmt;
    k.srcb_cfg_fmt = k.srcb_fmt;
    if (!wh) {
        const struct src_regs *s = &t->src;
        if (!rd_thcfg(r, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCA_FMT_Base])) {
            k.srca_fmt = s->implied_fmt[0][s->fpu_bank[0]];
            k.srcb_side_fmt = s->implied_fmt[1][s->fpu_bank[1]];
        }
        if (!rd_thcfg(r, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCB_FMT_Base]))
            k.srcb_fmt = s->implied_fmt[1][s->fpu_bank[1]];
    }
    k.fp16a_force = rd_thcfg(r, THCFG_DESC(ab, FP16A_FORCE_Enable));
    k.int8_math = rd_cfg(r, k.bank, CFG_DESC(ab, ALU_ACC_CTRL_INT8_math_enabled));
    k.fp32_enabled = rd_cfg(r, k.bank, CFG_DESC(ab, ALU_ACC_CTRL_Fp32_enabled));
    k.zero_flag_disabled_src = rd_cfg(r, k.bank, CFG_DESC(ab, ALU_ACC_CTRL_Zero_Flag_disabled_src));
    k.math_offset = rd_thcfg(r, THCFG_DESC(ab, DEST_TARGET_REG_CFG_MATH_Offset));
    k.regw_base = rd_cfg(r, k.bank, CFG_DESC(ab, DEST_REGW_BASE_Base));
    k.fidelity_base = rd_thcfg(r, THCFG_DESC(ab, FIDELITY_BASE_Phase));
    k.clr_dvalid_disable[0] = rd_thcfg(r, THCFG_DESC(ab, CLR_DVALID_SrcA_Disable));
    k.clr_dvalid_disable[1] = rd_thcfg(r, THCFG_DESC(ab, CLR_DVALID_SrcB_Disable));
    /* dest_map_of(t), its two Config fields read here (Wormhole has neither) */
    k.dst_map.hi16 = t->dest.dst16_on_hi32;
    k.dst_map.remap = !wh && rd_cfg(r, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_remap_addrs]);
    k.dst_map.swizzle = !wh && rd_cfg(r, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_swizzle_32b]);
    k.zeroacc_absolute = !wh && rd_cfg(r, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_zeroacc_absolute_tile_mode]);
    return k;
}

/* The bank formats the matrix unit's banks imply now (the memo's other inputs). */
static void implied_now(const struct tile *t, uint8_t v[2])
{
    const struct src_regs *s = &t->src;
    v[0] = s->implied_fmt[0][s->fpu_bank[0]];
    v[1] = s->implied_fmt[1][s->fpu_bank[1]];
}

/* Fill the unused entries with copies of the first (compute_cfg always reads a ThreadConfig
 * word and a Config word): memo_holds compares them all. */
static void memo_pad(struct fpu_cfg_memo *m)
{
    if (!m->nth || !m->ncfg) {
        m->valid = false;
        return;
    }
    for (unsigned i = m->nth; i < FPU_MEMO_WORDS; i++)
        m->th_at[i] = m->th_at[0], m->th_value[i] = m->th_value[0];
    for (unsigned i = m->ncfg; i < FPU_MEMO_WORDS; i++)
        m->cfg_at[i] = m->cfg_at[0], m->cfg_value[i] = m->cfg_value[0];
}

/* Whether every word the memo noted is unchanged: all entries, unused ones copies of the first
 * (memo_pad), a fixed count without branches. */
static inline bool memo_words_hold(const struct tile *t, const struct fpu_cfg_memo *m)
{
    uint32_t diff = 0;
    const char *c = (const char *)&t->cfg;
#pragma GCC unroll 8
    for (unsigned i = 0; i < FPU_MEMO_WORDS; i++)
        diff |= (uint32_t)(*(const uint16_t *)(c + m->th_at[i]) ^ m->th_value[i]);
#pragma GCC unroll 8
    for (unsigned i = 0; i < FPU_MEMO_WORDS; i++)
        diff |= *(const uint32_t *)(c + m->cfg_at[i]) ^ m->cfg_value[i];
    return diff == 0;
}

/* Whether thread th's memo still holds: every word it noted, and the other inputs, unchanged.
 * The words are unchanged while nothing wrote the configuration since they were last compared
 * (its write count); else they are compared, and the count noted when they hold (a cache of a
 * function of the state, as read_cfg's memo). */
static inline bool memo_holds(const struct tile *t, unsigned th, const struct fpu_cfg_memo *m)
{
    if (!m->valid || m->hi16 != t->dest.dst16_on_hi32)
        return false;
    uint8_t imp[2];
    implied_now(t, imp);
    if (imp[0] != m->implied[0] || imp[1] != m->implied[1])
        return false;
    (void)th; /* the memo's offsets name thread th's words */
    if (m->gen == t->cfg.gen) {
#ifdef TENSIM_TICK_CHECK
        if (!memo_words_hold(t, m)) { /* the sanitizer build: a write that did not count */
            tile_error((struct tile *)t, ERR_UNIMPLEMENTED, -1, 0,
                       "internal: a configuration word changed without struct tt_config's write "
                       "count (units/cfg.h gen)");
            return false;
        }
#endif
        return true;
    }
    if (!memo_words_hold(t, m))
        return false;
    ((struct fpu_cfg_memo *)m)->gen = t->cfg.gen;
    return true;
}

/* The configuration instructions of thread th read now (struct fpu_cfg), from the memo while it
 * holds. Called from can_accept too, which sees the tile as const: the memo is a cache of a
 * function of the state, not state (nothing reads it but this function). */
static struct fpu_cfg read_cfg(const struct tile *t, unsigned th)
{
    struct fpu_cfg_memo *m = &((struct tile *)t)->fpu.cfg_memo[th];
    if (memo_holds(t, th, m))
        return m->cfg;
    m->valid = true;
    m->serial++;
    m->nth = m->ncfg = 0;
    struct cfg_reader r = {t, th, m};
    m->cfg = compute_cfg(&r);
    memo_pad(m);
    m->hi16 = t->dest.dst16_on_hi32;
    implied_now(t, m->implied);
    m->gen = t->cfg.gen;
    return m->cfg;
}

/* ---- shared helpers (fpu_internal.h) ---- */

unsigned fpu_dst_base(const struct fpu_exec *x, unsigned field)
{
    return field + x->cfg.math_offset + x->t->fpu.rwc[x->th].dst + x->cfg.regw_base;
}

enum fpu_style fpu_fmt_style(unsigned f)
{
    switch (f) {
    case DF_FP32: case DF_BF16: case DF_BFP8: case DF_BFP4: case DF_BFP2: case DF_INT32:
    case DF_INT16:
        return FPU_STYLE_BF16;
    case DF_FP16: case DF_FP8: case DF_BFP8A: case DF_BFP4A: case DF_BFP2A: case DF_INT8:
        return FPU_STYLE_FP16;
    default: /* TF32 (and the two codes that name no format) */
        return FPU_STYLE_TF32;
    }
}

void fpu_math_style(const struct fpu_exec *x, enum fpu_style *style, bool *dst32)
{
    if (x->cfg.fp16a_force) {
        *style = FPU_STYLE_FP16, *dst32 = false;
    } else if (x->cfg.int8_math) {
        *style = FPU_STYLE_INT8, *dst32 = true;
    } else {
        *style = fpu_fmt_style(x->cfg.srca_fmt);
        *dst32 = x->cfg.fp32_enabled;
    }
}

unsigned fpu_phase(const struct fpu_exec *x)
{
    return (x->t->fpu.rwc[x->th].fidelity + x->cfg.fidelity_base) & 3;
}

void fpu_flip(struct fpu_exec *x, bool flip_a, bool flip_b)
{
    struct src_regs *s = &x->t->src;
    for (unsigned k = 0; k < 2; k++) {
        if (!(k ? flip_b : flip_a))
            continue;
        if (!x->cfg.clr_dvalid_disable[k])
            s->bank[k][s->fpu_bank[k]].client = SRC_CLIENT_UNPACKERS;
        s->fpu_bank[k] ^= 1;
    }
}

/* ThreadConfig ADDR_MOD_{AB,DST,BIAS}_SEC<i>: the same word layouts on both architectures (the
 * words differ; units/cfg_*.def). The three words' indices of slot i. */
static void addr_mod_words(const struct tile *t, unsigned i, uint16_t words[3])
{
    const unsigned ab = tile_arch_bit(t);
    const struct cfg_field_desc *fa, *fd, *fb;
    switch (i) {
#define SLOT(n)                                                                     \
    case n:                                                                         \
        fa = THCFG_DESC(ab, ADDR_MOD_AB_SEC##n##_SrcAIncr);                         \
        fd = THCFG_DESC(ab, ADDR_MOD_DST_SEC##n##_DestIncr);                        \
        fb = THCFG_DESC(ab, ADDR_MOD_BIAS_SEC##n##_BiasIncr);                       \
        break;
        SLOT(0) SLOT(1) SLOT(2) SLOT(3) SLOT(4) SLOT(5) SLOT(6) default: SLOT(7)
#undef SLOT
    }
    words[0] = (uint16_t)fa->word, words[1] = (uint16_t)fd->word, words[2] = (uint16_t)fb->word;
}

/* An RWC step (WH:RWCs.md): the counter += incr, or via its checkpoint: Cr += incr and the
 * counter = Cr; both wrap at `mask`. */
static void rwc_step(uint16_t *v, uint16_t *cr, unsigned incr, bool via_cr, unsigned mask)
{
    if (via_cr)
        *v = *cr = (uint16_t)((*cr + incr) & mask);
    else
        *v = (uint16_t)((*v + incr) & mask);
}

static inline void apply_slot(struct fpu_rwc *r, uint32_t a, uint32_t d, uint32_t b, bool update_fidelity);

/* WH:RWCs.md ApplyAddrMod; UpdateFidelityPhase false is ApplyPartialAddrMod (SFPLOAD, SFPSTORE). */
static void apply_addr_mod(struct tile *t, unsigned th, unsigned addr_mod, bool update_fidelity)
{
    struct fpu_rwc *r = &t->fpu.rwc[th];
    unsigned index = addr_mod;
    if (tile_is_wormhole(t)) {
        /* WH:RWCs.md: two AddrMod bits, the upper half through ExtraAddrModBit or
         * ADDR_MOD_SET_Base. Blackhole's three bits name the slot directly. */
        if (r->extra_addr_mod_bit || thcfg_get(&t->cfg, th, &thcfg_fields_wh[THCFGF_WH_ADDR_MOD_SET_Base]))
            index += 4;
    }
    uint16_t words[3];
    addr_mod_words(t, index & 7, words);
    const uint16_t *thw = t->cfg.thread[th]; /* read each time: SETC16 may change them */
    apply_slot(r, thw[words[0]], thw[words[1]], thw[words[2]], update_fidelity);
}

/* The RWC updates of ApplyAddrMod with the slot's ThreadConfig words a (AB: SrcAIncr[5:0]
 * SrcACR[6] SrcAClear[7] SrcBIncr[13:8] SrcBCR[14] SrcBClear[15]), d (DST: DestIncr[9:0]
 * DestCR[10] DestClear[11] DestCToCR[12] FidelityIncr[14:13] FidelityClear[15]) and b (BIAS:
 * BiasIncr[3:0] BiasClear[4]); the same word layouts on both architectures. */
static inline void apply_slot(struct fpu_rwc *r, uint32_t a, uint32_t d, uint32_t b, bool update_fidelity)
{
    if (a >> 7 & 1) r->srca = r->srca_cr = 0;
    else rwc_step(&r->srca, &r->srca_cr, a & 0x3F, a >> 6 & 1, 0x3F);
    if (a >> 15 & 1) r->srcb = r->srcb_cr = 0;
    else rwc_step(&r->srcb, &r->srcb_cr, a >> 8 & 0x3F, a >> 14 & 1, 0x3F);
    const unsigned d_incr = d & 0x3FF;
    if (d >> 11 & 1) r->dst = r->dst_cr = 0;
    else if (d >> 12 & 1) r->dst = (r->dst + d_incr) & 0x3FF, r->dst_cr = r->dst;
    else rwc_step(&r->dst, &r->dst_cr, d_incr, d >> 10 & 1, 0x3FF);
    if (update_fidelity) {
        if (d >> 15 & 1) r->fidelity = 0;
        else r->fidelity = (r->fidelity + (d >> 13 & 3)) & 3;
    }
    if (b >> 4 & 1) r->extra_addr_mod_bit = 0;
    else if (b & 3) r->extra_addr_mod_bit ^= 1; /* BiasIncr & 3 */
}

void fpu_apply_addr_mod(struct fpu_exec *x, unsigned addr_mod)
{
    apply_addr_mod(x->t, x->th, addr_mod, true);
}

/* The vector unit's SFPLOAD/SFPSTORE read RWC.Dst and advance the RWCs, which live here. */
static void fpu_signal(struct tile *t, enum unit_signal s, unsigned a, unsigned b)
{
    if (s == SIG_PARTIAL_ADDR_MOD)
        apply_addr_mod(t, a, b, false);
}

static bool fpu_query(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4])
{
    (void)b;
    if (q == Q_PERF_FPU_BUSY) {
        unit_perf_answer(v, t->fpu.st.busy_cycles, t->fpu.busy_until);
        return true;
    }
    if (q != Q_RWC_DST)
        return false;
    v[0] = t->fpu.rwc[a].dst;
    return true;
}

bool fpu_undef(struct fpu_exec *x, const char *what)
{
    return tile_error(x->t, ERR_UNDEF_BEHAVIOUR, -1, 0, "matrix unit, thread T%u: %s", x->th, what);
}

/* ---- Dst with valid bits ---- */

/* a 10-bit index (WH:Dst.md Adj16 / Adj32) */
static unsigned phys32(const struct fpu_cfg *c, unsigned row) { return dest_phys(c->dst_map, true, row & 0x3FF); }
static unsigned phys16(const struct fpu_cfg *c, unsigned row) { return dest_phys(c->dst_map, false, row & 0x3FF); }

uint32_t fpu_dst_get(const struct fpu_exec *x, bool dst32, unsigned row, unsigned col,
                     uint32_t identity)
{
    const struct dest *d = &x->t->dest;
    if (dst32) {
        unsigned p = phys32(&x->cfg, row);
        if (!d->row_valid[p])
            return identity;
        return dest_get32_at(d, p, col);
    }
    unsigned p = phys16(&x->cfg, row);
    return d->row_valid[p] ? d->bits[p][col] : identity & 0xFFFF;
}

static void mark_written(struct fpu_exec *x, unsigned phys) { fpu_mark_written(x, phys); }

unsigned fpu_dst_phys(const struct fpu_exec *x, bool dst32, unsigned row)
{
    return dst32 ? phys32(&x->cfg, row) : phys16(&x->cfg, row);
}

/* The row becomes defined once its last column is written: instructions write whole rows a
 * column at a time, and one that reads the row back while writing it (GMPOOL, ELWMUL and
 * accumulating ELWADD/ELWSUB, MOVB2D into the low halves) must see an undefined row as
 * undefined in every column, not its stale bits from column 1 on (ttsim's
 * set_valid_on_last_column_only; tt-llk's block max reduce after a matmul shows it). */
void fpu_dst_put(struct fpu_exec *x, bool dst32, unsigned row, unsigned col, uint32_t v)
{
    struct dest *d = &x->t->dest;
    const unsigned p = fpu_dst_phys(x, dst32, row);
    if (dst32)
        dest_put32_at(d, p, col, v);
    else
        d->bits[p][col] = (uint16_t)v;
    if (col == 15) {
        fpu_dst_row_written(x, dst32, p);
    } else {
        mark_written(x, p);
        if (dst32)
            mark_written(x, p + 8);
    }
}

void fpu_dst_mark(struct fpu_exec *x, bool dst32, unsigned row, bool valid)
{
    struct dest *d = &x->t->dest;
    if (dst32) {
        unsigned p = phys32(&x->cfg, row);
        d->row_valid[p] = d->row_valid[p + 8] = valid;
    } else {
        d->row_valid[phys16(&x->cfg, row)] = valid;
    }
}

/* ---- timing ---- */

static unsigned latency(enum fpu_kind k)
{
    switch (k) {
    case FK_MVMUL: case FK_DOTPV: case FK_GAPOOL: case FK_GMPOOL: case FK_ELWMUL:
    case FK_ELWADD: case FK_ELWSUB: case FK_LEGACY:
        return 5;
    case FK_MOVA2D: case FK_MOVDBGA2D: case FK_MOVB2D: case FK_MOVB2A: case FK_MOVD2B:
        return 4;
    case FK_MOVD2A: case FK_SHIFTXB:
        return 2;
    default:
        return 1;
    }
}

/* Which banks the instruction waits for at the Wait Gate (bit 0 SrcA, bit 1 SrcB): the pages
 * with a "spend time waiting at the Wait Gate" paragraph. */
static unsigned needs_banks(enum fpu_kind k)
{
    switch (k) {
    case FK_MVMUL: case FK_DOTPV: case FK_GAPOOL: case FK_GMPOOL: case FK_ELWMUL:
    case FK_ELWADD: case FK_ELWSUB:
        return 3;
    case FK_MOVA2D: case FK_SHIFTXA:
        return 1;
    case FK_MOVB2D: case FK_MOVB2A: case FK_SHIFTXB: case FK_TRNSPSRCB:
        return 2;
    default:
        return 0;
    }
}

/* The instructions MOVA2D/MOVB2D hold back for three cycles (WH:MOVA2D.md). */
static bool held_by_mov2d(enum fpu_kind k)
{
    switch (k) {
    case FK_MOVD2A: case FK_MOVD2B: case FK_ELWMUL: case FK_MVMUL: case FK_DOTPV: case FK_GMPOOL:
    case FK_GAPOOL: case FK_LEGACY:
        return true;
    default:
        return false;
    }
}

static void dst_span(const struct fpu_exec *x, struct fpu_dst_span *s)
{
    memset(s, 0, sizeof *s);
    switch (x->in.kind) {
    case FK_MVMUL: case FK_DOTPV: case FK_GAPOOL: case FK_GMPOOL: case FK_ELWMUL:
    case FK_ELWADD: case FK_ELWSUB:
        fpu_math_span(x, s);
        break;
    case FK_MOVD2A: case FK_MOVD2B:
        fpu_move_span(x, s);
        break;
    default:
        break;
    }
}


/* Thread th's plan for the MVMUL word w of form f, made now (plan_for's slow path). */
static __attribute__((noinline)) const struct fpu_plan *plan_make(const struct tile *t, unsigned th, uint32_t w,
                                                                  const struct tt_form *f)
{
    struct fpu_state *u = &((struct tile *)t)->fpu;
    struct fpu_plan *p = &u->plan[th];
    const struct fpu_cfg_memo *m = &u->cfg_memo[th];
    const enum tt_form_id id = (enum tt_form_id)(f - tt_forms);
    struct fpu_exec x = {.t = (struct tile *)t, .th = th};
    decode(w, f, &x.in);
    x.cfg = read_cfg(t, th);
    p->valid = m->valid;
    if (!p->valid)
        return NULL;
    fpu_mvmul_plan(&x, p);
    const unsigned lo = id == TT_FORM_MVMUL_BH ? TT_LO_MVMUL_BH_DstRow : TT_LO_MVMUL_WH_DstRow,
                   hi = id == TT_FORM_MVMUL_BH ? TT_HI_MVMUL_BH_DstRow : TT_HI_MVMUL_WH_DstRow;
    p->dst_lo = (uint8_t)lo, p->dst_field = (uint16_t)((1u << (hi - lo + 1)) - 1);
    p->key_mask = ~((uint32_t)p->dst_field << lo);
    p->key = w & p->key_mask, p->serial = m->serial;
    p->am_fixed = !tile_is_wormhole(t); /* apply_addr_mod's slot */
    addr_mod_words(t, p->addr_mod & 7, p->am_words);
    return p;
}

/* Thread th's plan (fpu.h) for the word w of form f, made now if it does not hold; NULL when w
 * is not an MVMUL or read_cfg's memo cannot serve. Like read_cfg, called from can_accept too:
 * the plan is a cache of a function of the state, not state. */
static inline __attribute__((always_inline)) const struct fpu_plan *
plan_for(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    const struct fpu_plan *p = &t->fpu.plan[th];
    const struct fpu_cfg_memo *m = &t->fpu.cfg_memo[th];
    if (p->valid && (w & p->key_mask) == p->key) { /* only MVMUL words have plans */
        if (memo_holds(t, th, m) && p->serial == m->serial)
            return p;
    } else {
        const enum tt_form_id id = (enum tt_form_id)(f - tt_forms);
        if (id != TT_FORM_MVMUL_BH && id != TT_FORM_MVMUL_WH)
            return NULL;
    }
    return plan_make(t, th, w, f);
}

/* can_accept for an MVMUL with its plan: the general path's tests in its order, the Dst rows
 * from the plan, and the hazard check on their one or two blocks where they lie in one. */
static enum gate_stall can_accept_mvmul(const struct tile *t, unsigned th, const struct fpu_plan *p,
                                        uint32_t w, uint32_t *detail)
{
    const struct fpu_state *u = &t->fpu;
    const uint64_t now = t->now;
    if (now < u->shiftxb_until || now < u->movx2a_until || now < u->movd2b_until || now < u->mov2d_until) {
        *detail = TT_UNIT_FPU;
        return GS_HAZARD;
    }
    const struct src_regs *s = &t->src;
    for (unsigned b = 0; b < 2; b++)
        if (s->bank[b][s->fpu_bank[b]].client != SRC_CLIENT_MATRIX) {
            *detail = b;
            return GS_SRC_NOT_VALID;
        }
    const struct fpu_cfg_memo *m = &u->cfg_memo[th];
    const unsigned row0 = ((w >> p->dst_lo & p->dst_field) + p->dst_off + u->rwc[th].dst) & p->dst_mask; /* rows_of */
    int blk;
    if (p->one_block) { /* dest_first_blocked: every row's block is row0's (and the next) */
        const unsigned b0 = dest_phys(m->cfg.dst_map, p->d32, row0) / 8;
        blk = t->dest.block_ready[b0] > now                ? (int)b0
              : p->d32 && t->dest.block_ready[b0 + 1] > now ? (int)b0 + 1
                                                            : -1;
    } else {
        blk = dest_first_blocked(&t->dest, m->cfg.dst_map, p->d32, row0, p->nrows, now);
    }
    if (blk >= 0) {
        *detail = (uint32_t)blk;
        return GS_DEST_HAZARD;
    }
    return GS_NONE;
}

static bool holds(const struct tile *t, unsigned th, unsigned i)
{
    (void)i;
    return t->fpu.thread_busy_until[th] > t->now;
}

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    const struct fpu_plan *p = plan_for(t, th, w, f);
    if (p)
        return can_accept_mvmul(t, th, p, w, detail);
    const struct fpu_state *u = &t->fpu;
    const uint64_t now = t->now;
    struct fpu_exec x = {.t = (struct tile *)t, .th = th};
    decode(w, f, &x.in);
    const enum fpu_kind k = x.in.kind;
    /* Follow-up restrictions of the data movement instructions */
    if (now < u->shiftxb_until || (now < u->movx2a_until && k != FK_MOVD2A && k != FK_MOVB2A) ||
        (now < u->movd2b_until && k != FK_MOVD2B) || (now < u->mov2d_until && held_by_mov2d(k))) {
        *detail = TT_UNIT_FPU;
        return GS_HAZARD;
    }
    const struct src_regs *s = &t->src;
    unsigned banks = needs_banks(k);
    for (unsigned b = 0; b < 2; b++)
        if ((banks >> b & 1) && s->bank[b][s->fpu_bank[b]].client != SRC_CLIENT_MATRIX) {
            *detail = b;
            return GS_SRC_NOT_VALID;
        }
    x.cfg = read_cfg(t, th);
    struct fpu_dst_span sp;
    dst_span(&x, &sp);
    const struct dest_map m = x.cfg.dst_map;
    int blk = dest_first_blocked(&t->dest, m, sp.dst32, sp.row0, sp.n, now);
    if (blk >= 0) {
        *detail = (uint32_t)blk;
        return GS_DEST_HAZARD;
    }
    return GS_NONE;
}

static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w, (void)f;
    return RES_FPU;
}

static bool exec_other(struct fpu_exec *x, uint32_t w)
{
    struct tile *t = x->t;
    struct fpu_rwc *r = &t->fpu.rwc[x->th];
    struct src_regs *s = &t->src;
    switch (x->in.kind) {
    case FK_SETRWC: { /* WH:SETRWC.md */
        unsigned a_val = TT_GET_SETRWC_SrcAVal(w), b_val = TT_GET_SETRWC_SrcBVal(w),
                 d_val = TT_GET_SETRWC_DstVal(w);
        if (TT_GET_SETRWC_SrcA(w)) {
            if (TT_GET_SETRWC_SrcACr(w))
                a_val += r->srca_cr;
            r->srca = r->srca_cr = (uint8_t)(a_val & 0x3F);
        }
        if (TT_GET_SETRWC_SrcB(w)) {
            if (TT_GET_SETRWC_SrcBCr(w))
                b_val += r->srcb_cr;
            r->srcb = r->srcb_cr = (uint8_t)(b_val & 0x3F);
        }
        if (TT_GET_SETRWC_Dst(w) || TT_GET_SETRWC_DstCtoCr(w)) {
            if (TT_GET_SETRWC_DstCtoCr(w))
                d_val += r->dst;
            else if (TT_GET_SETRWC_DstCr(w))
                d_val += r->dst_cr;
            r->dst = r->dst_cr = (uint16_t)(d_val & 0x3FF);
        }
        if (TT_GET_SETRWC_Fidelity(w))
            r->fidelity = 0;
        fpu_flip(x, x->in.flip_a, x->in.flip_b);
        return true;
    }
    case FK_INCRWC: { /* WH:INCRWC.md */
        unsigned a = TT_GET_INCRWC_SrcAInc(w), b = TT_GET_INCRWC_SrcBInc(w),
                 d = TT_GET_INCRWC_DstInc(w);
        rwc_step(&r->srca, &r->srca_cr, a, TT_GET_INCRWC_SrcACr(w), 0x3F);
        rwc_step(&r->srcb, &r->srcb_cr, b, TT_GET_INCRWC_SrcBCr(w), 0x3F);
        rwc_step(&r->dst, &r->dst_cr, d, TT_GET_INCRWC_DstCr(w), 0x3FF);
        return true;
    }
    case FK_CLEARDVALID: /* WH:CLEARDVALID.md */
        if (TT_GET_CLEARDVALID_Reset(w)) {
            s->fpu_bank[0] = s->fpu_bank[1] = s->unpack_bank[0] = s->unpack_bank[1] = 0;
            for (unsigned k = 0; k < 2; k++)
                s->bank[k][0].client = s->bank[k][1].client = SRC_CLIENT_UNPACKERS;
            return true;
        }
        for (unsigned k = 0; k < 2; k++) {
            if (!(k ? x->in.flip_b : x->in.flip_a))
                continue;
            s->bank[k][s->fpu_bank[k]].client = SRC_CLIENT_UNPACKERS;
            if (!TT_GET_CLEARDVALID_KeepReadingSameSrc(w))
                s->fpu_bank[k] ^= 1;
        }
        return true;
    case FK_CLREXPHIST: /* WH:CLREXPHIST.md */
        tile_signal(t, SIG_CLEAR_EXP_HISTOGRAMS, 0, 0);
        return true;
    case FK_GATESRCRST: /* the SrcB operand cache is not modelled: nothing to invalidate */
        return true;
    case FK_LEGACY: /* WH:MatrixUnit.md "Legacy instructions"; docs/fpu.md */
        if (tt_opcode(w) == TT_OPC_MPOOL3S1 || tt_opcode(w) == TT_OPC_MPOOL3S2)
            return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                              "%s (thread T%u): documented only as \"similar to GMPOOL with SrcA "
                              "all zero\"", tt_opcode(w) == TT_OPC_MPOOL3S1 ? "MPOOL3S1" : "MPOOL3S2",
                              x->th);
        t->fpu.last_srca_row = r->srca; /* SHIFTXA's input block: the SrcA RWC (our choice) */
        fpu_apply_addr_mod(x, x->in.addr_mod);
        return true;
    default:
        return fpu_exec_move(x);
    }
}

/* Blackhole: a bank handed over by SETDVALID has an unpredictable implied format
 * (BH:SETDVALID.md); an instruction that reads it stops (docs/numerics.md), unless the run
 * accepts unpredictable values (--unpredictable=warn, for builds such as tt-llk's MATH_ISOLATE
 * perf runs that hand over banks on purpose and discard the results): then the Config format
 * stands in for it, with one warning. Timing does not depend on it. */
static bool formats_known(struct fpu_exec *x)
{
    const enum fpu_kind k = x->in.kind;
    const bool math = k == FK_MVMUL || k == FK_DOTPV || k == FK_GAPOOL || k == FK_GMPOOL ||
                      k == FK_ELWMUL || k == FK_ELWADD || k == FK_ELWSUB;
    const bool a = math || k == FK_MOVA2D || k == FK_MOVDBGA2D || k == FK_MOVD2A;
    const bool side = k == FK_MOVD2B || k == FK_MOVB2D;
    const char *which = a && x->cfg.srca_fmt == SRC_FMT_UNKNOWN        ? "SrcA"
                        : (math || k == FK_MOVB2D) && x->cfg.srcb_fmt == SRC_FMT_UNKNOWN ? "SrcB"
                        : side && x->cfg.srcb_side_fmt == SRC_FMT_UNKNOWN ? "SrcB"
                                                                         : 0;
    if (!which)
        return true;
    if (x->t->unpredictable_warn) {
        if (!x->t->fpu.warned_implied) {
            x->t->fpu.warned_implied = true;
            tile_warning(x->t, "thread T%u cycle %llu: the implied %s format of a bank handed over "
                         "by SETDVALID is unpredictable on Blackhole; the Config format stands in "
                         "for it here and wherever else it happens (--unpredictable=warn)",
                         x->th, (unsigned long long)x->t->now, which);
        }
        if (x->cfg.srca_fmt == SRC_FMT_UNKNOWN)
            x->cfg.srca_fmt = x->cfg.srca_cfg_fmt;
        if (x->cfg.srcb_fmt == SRC_FMT_UNKNOWN)
            x->cfg.srcb_fmt = x->cfg.srcb_cfg_fmt;
        if (x->cfg.srcb_side_fmt == SRC_FMT_UNKNOWN)
            x->cfg.srcb_side_fmt = x->cfg.srca_cfg_fmt;
        return true;
    }
    char why[240];
    const struct tt_form *f = tt_decode(tile_arch_bit(x->t), x->in.word);
    snprintf(why, sizeof why, "%s: the implied %s format of a bank handed over by SETDVALID is "
             "unpredictable on Blackhole (use UNPACR_NOP SETDVALID, or set DISABLE_IMPLIED_%s_FMT)",
             f ? f->mnemonic : "?", which, which[3] == 'A' ? "SRCA" : "SRCB");
    return fpu_undef(x, why);
}

static bool issued(struct tile *t, unsigned th, const struct fpu_exec *x, enum fpu_kind k,
                   const struct tt_form *f);

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    const struct fpu_plan *p = plan_for(t, th, w, f);
    if (p && p->fast) { /* fpu_exec_math's MVMUL from the plan: x.in is not read */
        struct fpu_exec x;
        x.t = t, x.th = th, x.written[0] = x.written[1] = 0;
        x.cfg = t->fpu.cfg_memo[th].cfg;
        fpu_exec_mvmul(&x, p, w);
        if (p->am_fixed) /* apply_addr_mod with the slot's words known */
            apply_slot(&t->fpu.rwc[th], t->cfg.thread[th][p->am_words[0]], t->cfg.thread[th][p->am_words[1]],
                       t->cfg.thread[th][p->am_words[2]], true);
        else
            apply_addr_mod(t, th, p->addr_mod, true);
        return issued(t, th, &x, FK_MVMUL, f);
    }
    struct fpu_exec x = {.t = t, .th = th};
    decode(w, f, &x.in);
    x.cfg = read_cfg(t, th);
    const enum fpu_kind k = x.in.kind;
    if (!formats_known(&x))
        return false;
    bool ok;
    switch (k) {
    case FK_MVMUL: case FK_DOTPV: case FK_GAPOOL: case FK_GMPOOL: case FK_ELWMUL:
    case FK_ELWADD: case FK_ELWSUB:
        ok = fpu_exec_math(&x);
        break;
    default:
        ok = exec_other(&x, w);
        break;
    }
    if (!ok)
        return false;
    return issued(t, th, &x, k, f);
}

/* What follows an instruction of kind k that thread th issued (x: its execution): its Dst
 * blocks' hazard, the restrictions it leaves, busy cycles and statistics. */
static bool issued(struct tile *t, unsigned th, const struct fpu_exec *x, enum fpu_kind k,
                   const struct tt_form *f)
{
    struct fpu_state *u = &t->fpu;
    const uint64_t now = t->now;
    const unsigned lat = latency(k);
    for (unsigned w64 = 0; w64 < 2; w64++)
        for (uint64_t m = x->written[w64]; m; m &= m - 1)
            dest_block_written(&t->dest, w64 * 64 + (unsigned)__builtin_ctzll(m), now + lat);
    switch (k) {
    case FK_SHIFTXB: u->shiftxb_until = now + 2; break;
    case FK_MOVD2A: case FK_MOVB2A: u->movx2a_until = now + 2; break;
    case FK_MOVD2B: u->movd2b_until = now + 4; break;
    case FK_MOVA2D: case FK_MOVDBGA2D: case FK_MOVB2D: u->mov2d_until = now + 4; break;
    default: break;
    }
    if (now + lat > u->busy_until) {
        u->st.busy_cycles += now + lat - (u->busy_until > now ? u->busy_until : now);
        u->busy_until = now + lat;
    }
    if (now + lat > u->thread_busy_until[th])
        u->thread_busy_until[th] = now + lat;
    u->st.issued++;
    if (t->tracer)
        trace_unit(t->tracer, &fpu_unit_desc, 0, f->mnemonic, th, now, now + lat);
    return true;
}

/* The pipeline drains by itself: its last busy cycle counts towards the run (tile_finish,
 * where every thread has drained, so that no instruction is still in it). The unit has no
 * tick: nothing happens in it after issue that another unit or the gate does not find by
 * cycle (next_event wakes the coprocessor for those), so that a stream of its instructions
 * can take the gate's lone-thread cycle (sync/gate.c lone_step, which needs every tick
 * asleep). */
static uint64_t next_event(const struct tile *t)
{
    const struct fpu_state *u = &t->fpu;
    uint64_t next = CYCLE_NEVER;
    /* a thread's busy flag drops (STALLWAIT, TTSync), a restriction or a Dst block frees up */
    for (unsigned i = 0; i < NUM_THREADS; i++)
        if (u->thread_busy_until[i] > t->now && u->thread_busy_until[i] < next)
            next = u->thread_busy_until[i];
    const uint64_t r[4] = {u->shiftxb_until, u->movx2a_until, u->movd2b_until, u->mov2d_until};
    for (unsigned i = 0; i < 4; i++)
        if (r[i] > t->now && r[i] < next)
            next = r[i];
    if (u->busy_until > t->now) { /* every Dst block frees by then */
        uint64_t d = dest_next_ready(&t->dest, t->now);
        if (d < next)
            next = d;
    }
    return next;
}

static void reset(struct tile *t)
{
    tile_zero(t, &t->fpu, sizeof t->fpu);
    t->fpu.simd = dp_simd_best();
}

static uint64_t last_busy(const struct tile *t) { return t->fpu.busy_until; }

static void report(const struct tile *t, FILE *f)
{
    if (t->fpu.st.issued)
        fprintf(f, "matrix unit: %" PRIu64 " instructions, busy %" PRIu64 " cycles\n",
                t->fpu.st.issued, t->fpu.st.busy_cycles);
}

static void stats_json(const struct tile *t, FILE *f)
{
    fprintf(f, ", \"busy_cycles\": %" PRIu64 ", \"mul_by_fidelity_phase\": [%" PRIu64 ", %" PRIu64
               ", %" PRIu64 ", %" PRIu64 "]",
            t->fpu.st.busy_cycles, t->fpu.st.mul_phase[0], t->fpu.st.mul_phase[1],
            t->fpu.st.mul_phase[2], t->fpu.st.mul_phase[3]);
}

const struct unit_desc fpu_unit_desc = {
    .name = "fpu", .reset = reset, .can_accept = can_accept, .resource = resource,
    .accept = accept, .next_event = next_event, .last_busy = last_busy,
    .holds = holds, .report = report, .stats_json = stats_json,
    .signal = fpu_signal, .query = fpu_query,
};
