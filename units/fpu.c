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
#include <stdio.h>
#include <string.h>

#include "../trace/trace.h"

enum {
    OPC_MOVD2A = 0x08, OPC_MOVDBGA2D, OPC_MOVD2B, OPC_MOVB2A,
    OPC_ZEROACC = 0x10, OPC_ZEROSRC, OPC_MOVA2D, OPC_MOVB2D,
    OPC_TRNSPSRCB = 0x16, OPC_SHIFTXA, OPC_SHIFTXB,
    OPC_CLREXPHIST = 0x21, OPC_CONV3S1, OPC_CONV3S2, OPC_MPOOL3S1, OPC_APOOL3S1,
    OPC_MVMUL, OPC_ELWMUL, OPC_ELWADD, OPC_DOTPV,
    OPC_ELWSUB = 0x30, OPC_MPOOL3S2, OPC_APOOL3S2, OPC_GMPOOL, OPC_GAPOOL, OPC_GATESRCRST,
    OPC_CLEARDVALID, OPC_SETRWC, OPC_INCRWC, OPC_MFCONV3S1 = 0x3A,
};

/* ---- decoding ---- */

static enum fpu_kind kind_of(unsigned opcode)
{
    switch (opcode) {
    case OPC_MVMUL: return FK_MVMUL;
    case OPC_DOTPV: return FK_DOTPV;
    case OPC_GAPOOL: return FK_GAPOOL;
    case OPC_GMPOOL: return FK_GMPOOL;
    case OPC_ELWMUL: return FK_ELWMUL;
    case OPC_ELWADD: return FK_ELWADD;
    case OPC_ELWSUB: return FK_ELWSUB;
    case OPC_MOVD2A: return FK_MOVD2A;
    case OPC_MOVD2B: return FK_MOVD2B;
    case OPC_MOVA2D: return FK_MOVA2D;
    case OPC_MOVDBGA2D: return FK_MOVDBGA2D;
    case OPC_MOVB2D: return FK_MOVB2D;
    case OPC_MOVB2A: return FK_MOVB2A;
    case OPC_ZEROACC: return FK_ZEROACC;
    case OPC_ZEROSRC: return FK_ZEROSRC;
    case OPC_TRNSPSRCB: return FK_TRNSPSRCB;
    case OPC_SHIFTXA: return FK_SHIFTXA;
    case OPC_SHIFTXB: return FK_SHIFTXB;
    case OPC_SETRWC: return FK_SETRWC;
    case OPC_INCRWC: return FK_INCRWC;
    case OPC_CLEARDVALID: return FK_CLEARDVALID;
    case OPC_CLREXPHIST: return FK_CLREXPHIST;
    case OPC_GATESRCRST: return FK_GATESRCRST;
    default: return FK_LEGACY;
    }
}

/* Field positions from units/tensix.def: Blackhole widens AddrMod to [16:14] (tt-llk shift 14)
 * except in GMPOOL, GAPOOL and the pooling legacy forms, which keep [16:15]; Blackhole's
 * ZEROACC and MOVB2D lay their mode bits out differently (spec/instructions.md). */
static void decode(const struct tile *t, uint32_t w, const struct tt_form *f, struct fpu_insn *in)
{
    const bool wh = tile_is_wormhole(t);
    memset(in, 0, sizeof *in);
    in->word = w;
    in->kind = kind_of(f->opcode);
    bool narrow = wh || in->kind == FK_GMPOOL || in->kind == FK_GAPOOL ||
                  f->opcode == OPC_MPOOL3S1 || f->opcode == OPC_MPOOL3S2 ||
                  f->opcode == OPC_APOOL3S1 || f->opcode == OPC_APOOL3S2;
    in->addr_mod = narrow ? tt_bits(w, 16, 15) : tt_bits(w, 16, 14);
    in->dst_row = tt_bits(w, 9, 0);
    in->flip_b = tt_bits(w, 23, 23);
    in->flip_a = tt_bits(w, 22, 22);
    in->use_dst32_lo = tt_bits(w, 23, 23);
    in->src_row = tt_bits(w, 22, 17);
    switch (in->kind) {
    case FK_MVMUL:
        in->bcast_row = tt_bits(w, 19, 19);
        break;
    case FK_ELWADD: case FK_ELWSUB:
        in->add_dst = tt_bits(w, 21, 21);
        /* fall through */
    case FK_ELWMUL:
        in->bcast_row = tt_bits(w, 20, 20);
        in->bcast_col0 = tt_bits(w, 19, 19);
        break;
    case FK_GMPOOL:
        in->argmax = tt_bits(w, 14, 14);
        break;
    case FK_MOVD2A: case FK_MOVD2B: case FK_MOVB2A:
        in->rows = tt_bits(w, 13, 13) ? 4 : 1;
        in->srcb_row = tt_bits(w, 5, 0);
        break;
    case FK_MOVA2D: case FK_MOVDBGA2D:
        in->rows = tt_bits(w, 13, 13) ? 8 : 1;
        break;
    case FK_MOVB2D: {
        unsigned mode = wh ? tt_bits(w, 14, 12) : tt_bits(w, 13, 11);
        in->bcast_col0 = mode & 1;
        in->rows = mode & 2 ? 8 : mode & 4 ? 4 : 1;
        in->bcast_row = (mode & 2) != 0; /* Broadcast1RowTo8 */
        break;
    }
    case FK_ZEROACC:
        if (wh) {
            in->za_dst32 = tt_bits(w, 21, 21);
            in->za_mode = tt_bits(w, 20, 19);
            in->za_revert = tt_bits(w, 18, 18);
        } else {
            /* tt-llk: clear_mode[23:19], use_32_bit_mode[18]; modes 0..3 as on Wormhole */
            in->za_mode = tt_bits(w, 23, 19);
            in->za_dst32 = tt_bits(w, 18, 18);
        }
        break;
    case FK_SHIFTXA:
        in->direction = tt_bits(w, 1, 0);
        break;
    case FK_SHIFTXB:
        in->shift_in_zero = tt_bits(w, 10, 10);
        in->src_row = tt_bits(w, 5, 0);
        break;
    default:
        break;
    }
}

/* ---- configuration ---- */

static struct fpu_cfg read_cfg(const struct tile *t, unsigned th)
{
    const unsigned ab = tile_arch_bit(t);
    const struct tt_config *c = &t->cfg;
    struct fpu_cfg k;
    k.bank = thcfg_get(c, th, THCFG_DESC(ab, CFG_STATE_ID_StateID));
    k.srca_fmt = cfg_get(c, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG_SrcA_override))
                     ? cfg_get(c, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG_SrcA_val))
                     : cfg_get(c, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcA));
    k.srcb_fmt = cfg_get(c, k.bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG1_SrcB));
    k.srcb_side_fmt = k.srca_fmt;
    if (!tile_is_wormhole(t)) {
        const struct src_regs *s = &t->src;
        if (!thcfg_get(c, th, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCA_FMT_Base])) {
            k.srca_fmt = s->implied_fmt[0][s->fpu_bank[0]];
            k.srcb_side_fmt = s->implied_fmt[1][s->fpu_bank[1]];
        }
        if (!thcfg_get(c, th, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCB_FMT_Base]))
            k.srcb_fmt = s->implied_fmt[1][s->fpu_bank[1]];
    }
    k.fp16a_force = thcfg_get(c, th, THCFG_DESC(ab, FP16A_FORCE_Enable));
    k.int8_math = cfg_get(c, k.bank, CFG_DESC(ab, ALU_ACC_CTRL_INT8_math_enabled));
    k.fp32_enabled = cfg_get(c, k.bank, CFG_DESC(ab, ALU_ACC_CTRL_Fp32_enabled));
    k.zero_flag_disabled_src = cfg_get(c, k.bank, CFG_DESC(ab, ALU_ACC_CTRL_Zero_Flag_disabled_src));
    k.math_offset = thcfg_get(c, th, THCFG_DESC(ab, DEST_TARGET_REG_CFG_MATH_Offset));
    k.regw_base = cfg_get(c, k.bank, CFG_DESC(ab, DEST_REGW_BASE_Base));
    k.fidelity_base = thcfg_get(c, th, THCFG_DESC(ab, FIDELITY_BASE_Phase));
    k.clr_dvalid_disable[0] = thcfg_get(c, th, THCFG_DESC(ab, CLR_DVALID_SrcA_Disable));
    k.clr_dvalid_disable[1] = thcfg_get(c, th, THCFG_DESC(ab, CLR_DVALID_SrcB_Disable));
    k.remap = dest_remap_addrs(t);
    k.swizzle = dest_swizzle_32b(t);
    return k;
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

/* The ADDR_MOD slot fields, read from ThreadConfig each time (SETC16 may change them). */
struct addr_mod {
    unsigned a_incr, b_incr, d_incr, f_incr, bias_incr;
    bool a_cr, a_clr, b_cr, b_clr, d_cr, d_clr, d_c2cr, f_clr, bias_clr;
};

/* ThreadConfig ADDR_MOD_{AB,DST,BIAS}_SEC<i>: the same word layouts on both architectures (the
 * words differ; units/cfg_*.def). Reads the three words once. */
static struct addr_mod addr_mod_slot(const struct tile *t, unsigned th, unsigned i)
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
    uint32_t a = t->cfg.thread[th][fa->word], d = t->cfg.thread[th][fd->word],
             b = t->cfg.thread[th][fb->word];
    /* AB: SrcAIncr[5:0] SrcACR[6] SrcAClear[7] SrcBIncr[13:8] SrcBCR[14] SrcBClear[15];
     * DST: DestIncr[9:0] DestCR[10] DestClear[11] DestCToCR[12] FidelityIncr[14:13]
     * FidelityClear[15]; BIAS: BiasIncr[3:0] BiasClear[4] */
    return (struct addr_mod){
        .a_incr = a & 0x3F, .a_cr = a >> 6 & 1, .a_clr = a >> 7 & 1,
        .b_incr = a >> 8 & 0x3F, .b_cr = a >> 14 & 1, .b_clr = a >> 15 & 1,
        .d_incr = d & 0x3FF, .d_cr = d >> 10 & 1, .d_clr = d >> 11 & 1, .d_c2cr = d >> 12 & 1,
        .f_incr = d >> 13 & 3, .f_clr = d >> 15 & 1,
        .bias_incr = b & 0xF, .bias_clr = b >> 4 & 1,
    };
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

void fpu_apply_addr_mod(struct fpu_exec *x, unsigned addr_mod)
{
    struct tile *t = x->t;
    struct fpu_rwc *r = &t->fpu.rwc[x->th];
    unsigned index = addr_mod;
    if (tile_is_wormhole(t)) {
        /* WH:RWCs.md: two AddrMod bits, the upper half through ExtraAddrModBit or
         * ADDR_MOD_SET_Base. Blackhole's three bits name the slot directly. */
        if (r->extra_addr_mod_bit || thcfg_get(&t->cfg, x->th, &thcfg_fields_wh[THCFGF_WH_ADDR_MOD_SET_Base]))
            index += 4;
    }
    struct addr_mod m = addr_mod_slot(t, x->th, index & 7);
    if (m.a_clr) r->srca = r->srca_cr = 0;
    else rwc_step(&r->srca, &r->srca_cr, m.a_incr, m.a_cr, 0x3F);
    if (m.b_clr) r->srcb = r->srcb_cr = 0;
    else rwc_step(&r->srcb, &r->srcb_cr, m.b_incr, m.b_cr, 0x3F);
    if (m.d_clr) r->dst = r->dst_cr = 0;
    else if (m.d_c2cr) r->dst = (r->dst + m.d_incr) & 0x3FF, r->dst_cr = r->dst;
    else rwc_step(&r->dst, &r->dst_cr, m.d_incr, m.d_cr, 0x3FF);
    if (m.f_clr) r->fidelity = 0;
    else r->fidelity = (r->fidelity + m.f_incr) & 3;
    if (m.bias_clr) r->extra_addr_mod_bit = 0;
    else if (m.bias_incr & 3) r->extra_addr_mod_bit ^= 1;
}

bool fpu_undef(struct fpu_exec *x, const char *what)
{
    return tile_error(x->t, ERR_UNDEF_BEHAVIOUR, -1, 0, "matrix unit, thread T%u: %s", x->th, what);
}

/* ---- Dst with valid bits ---- */

static unsigned phys16(const struct fpu_cfg *c, unsigned row) { return dest_adj16(row & 0x3FF, c->remap); }
static unsigned phys32(const struct fpu_cfg *c, unsigned row)
{
    return dest_adj32(row & 0x3FF, c->remap, c->swizzle); /* a 10-bit index (WH:Dst.md Adj32) */
}

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

static void mark_written(struct fpu_exec *x, unsigned phys)
{
    x->written[phys / 8 / 64] |= 1ull << (phys / 8 % 64);
}

unsigned fpu_dst_phys(const struct fpu_exec *x, bool dst32, unsigned row)
{
    return dst32 ? phys32(&x->cfg, row) : phys16(&x->cfg, row);
}

void fpu_dst_row_written(struct fpu_exec *x, bool dst32, unsigned p)
{
    struct dest *d = &x->t->dest;
    d->row_valid[p] = true;
    mark_written(x, p);
    if (dst32) {
        d->row_valid[p + 8] = true;
        mark_written(x, p + 8);
    }
}

void fpu_dst_put(struct fpu_exec *x, bool dst32, unsigned row, unsigned col, uint32_t v)
{
    struct dest *d = &x->t->dest;
    const unsigned p = fpu_dst_phys(x, dst32, row);
    if (dst32)
        dest_put32_at(d, p, col, v);
    else
        d->bits[p][col] = (uint16_t)v;
    fpu_dst_row_written(x, dst32, p);
}

void fpu_dst_undefine(struct fpu_exec *x, bool dst32, unsigned row)
{
    struct dest *d = &x->t->dest;
    if (dst32) {
        unsigned p = phys32(&x->cfg, row);
        d->row_valid[p] = d->row_valid[p + 8] = false;
    } else {
        d->row_valid[phys16(&x->cfg, row)] = false;
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


static bool holds(const struct tile *t, unsigned th, unsigned i)
{
    (void)i;
    return t->fpu.thread_busy_until[th] > t->now;
}

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    const struct fpu_state *u = &t->fpu;
    const uint64_t now = t->now;
    struct fpu_exec x = {.t = (struct tile *)t, .th = th};
    decode(t, w, f, &x.in);
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
    const struct dest_map m = {x.cfg.remap, x.cfg.swizzle};
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
        unsigned a_val = tt_bits(w, 9, 6), b_val = tt_bits(w, 13, 10), d_val = tt_bits(w, 17, 14);
        if (tt_bits(w, 0, 0)) {
            if (tt_bits(w, 18, 18))
                a_val += r->srca_cr;
            r->srca = r->srca_cr = (uint8_t)(a_val & 0x3F);
        }
        if (tt_bits(w, 1, 1)) {
            if (tt_bits(w, 19, 19))
                b_val += r->srcb_cr;
            r->srcb = r->srcb_cr = (uint8_t)(b_val & 0x3F);
        }
        if (tt_bits(w, 2, 2) || tt_bits(w, 21, 21)) {
            if (tt_bits(w, 21, 21))
                d_val += r->dst;
            else if (tt_bits(w, 20, 20))
                d_val += r->dst_cr;
            r->dst = r->dst_cr = (uint16_t)(d_val & 0x3FF);
        }
        if (tt_bits(w, 3, 3))
            r->fidelity = 0;
        fpu_flip(x, x->in.flip_a, x->in.flip_b);
        return true;
    }
    case FK_INCRWC: { /* WH:INCRWC.md */
        unsigned a = tt_bits(w, 9, 6), b = tt_bits(w, 13, 10), d = tt_bits(w, 17, 14);
        rwc_step(&r->srca, &r->srca_cr, a, tt_bits(w, 18, 18), 0x3F);
        rwc_step(&r->srcb, &r->srcb_cr, b, tt_bits(w, 19, 19), 0x3F);
        rwc_step(&r->dst, &r->dst_cr, d, tt_bits(w, 20, 20), 0x3FF);
        return true;
    }
    case FK_CLEARDVALID: /* WH:CLEARDVALID.md */
        if (tt_bits(w, 0, 0)) {
            s->fpu_bank[0] = s->fpu_bank[1] = s->unpack_bank[0] = s->unpack_bank[1] = 0;
            for (unsigned k = 0; k < 2; k++)
                s->bank[k][0].client = s->bank[k][1].client = SRC_CLIENT_UNPACKERS;
            return true;
        }
        for (unsigned k = 0; k < 2; k++) {
            if (!(k ? x->in.flip_b : x->in.flip_a))
                continue;
            s->bank[k][s->fpu_bank[k]].client = SRC_CLIENT_UNPACKERS;
            if (!tt_bits(w, 1, 1))
                s->fpu_bank[k] ^= 1;
        }
        return true;
    case FK_CLREXPHIST: /* WH:CLREXPHIST.md */
        tile_signal(t, SIG_CLEAR_EXP_HISTOGRAMS, 0, 0);
        return true;
    case FK_GATESRCRST: /* the SrcB operand cache is not modelled: nothing to invalidate */
        return true;
    case FK_LEGACY: /* WH:MatrixUnit.md "Legacy instructions"; docs/fpu.md */
        if (x->in.word >> 24 == OPC_MPOOL3S1 || x->in.word >> 24 == OPC_MPOOL3S2)
            return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                              "%s (thread T%u): documented only as \"similar to GMPOOL with SrcA "
                              "all zero\"", x->in.word >> 24 == OPC_MPOOL3S1 ? "MPOOL3S1" : "MPOOL3S2",
                              x->th);
        t->fpu.last_srca_row = r->srca; /* SHIFTXA's input block: the SrcA RWC (our choice) */
        fpu_apply_addr_mod(x, x->in.addr_mod);
        return true;
    default:
        return fpu_exec_move(x);
    }
}

/* Blackhole: a bank handed over by SETDVALID has an unpredictable implied format
 * (BH:SETDVALID.md); an instruction that reads it stops (docs/numerics.md). */
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
    char why[240];
    const struct tt_form *f = tt_decode(tile_arch_bit(x->t), x->in.word);
    snprintf(why, sizeof why, "%s: the implied %s format of a bank handed over by SETDVALID is "
             "unpredictable on Blackhole (use UNPACR_NOP SETDVALID, or set DISABLE_IMPLIED_%s_FMT)",
             f ? f->mnemonic : "?", which, which[3] == 'A' ? "SRCA" : "SRCB");
    return fpu_undef(x, why);
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct fpu_state *u = &t->fpu;
    const uint64_t now = t->now;
    struct fpu_exec x = {.t = t, .th = th};
    decode(t, w, f, &x.in);
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
    const unsigned lat = latency(k);
    for (unsigned w64 = 0; w64 < 2; w64++)
        for (uint64_t m = x.written[w64]; m; m &= m - 1)
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

/* The pipeline drains by itself: its last busy cycle counts towards the run. */
static void tick(struct tile *t)
{
    struct fpu_state *u = &t->fpu;
    if (u->busy_until && u->busy_until <= t->now && u->busy_until > u->last_busy)
        u->last_busy = u->busy_until;
}

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
    memset(&t->fpu, 0, sizeof t->fpu);
    t->fpu.simd = dp_simd_best();
}

static uint64_t last_busy(const struct tile *t) { return t->fpu.last_busy; }

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
    .accept = accept, .tick = tick, .next_event = next_event, .last_busy = last_busy,
    .holds = holds, .report = report, .stats_json = stats_json,
};
