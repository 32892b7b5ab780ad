/* The matrix unit's computing instructions: MVMUL and DOTPV (WH:MVMUL.md, WH:DOTPV.md), GAPOOL
 * (WH:GAPOOL.md), ELWMUL (WH:ELWMUL.md), ELWADD and ELWSUB (WH:ELWADD.md, WH:ELWSUB.md) and
 * GMPOOL (WH:GMPOOL.md), each following its functional model. Floating-point expressions are
 * evaluated exactly and rounded once into the Dst format (fpu_numerics.c, docs/fpu.md). */
#include "fpu_internal.h"

#include <stdint.h>
#include <string.h>

#include "formats.h"

/* ---- Dst values ---- */

enum dst_kind { DK_FP32, DK_BF16, DK_FP16, DK_INT32 };

static enum dst_kind dst_kind(enum fpu_style s, bool dst32)
{
    if (s == FPU_STYLE_INT8)
        return DK_INT32;
    if (dst32)
        return DK_FP32;
    return s == FPU_STYLE_FP16 ? DK_FP16 : DK_BF16;
}

/* The Dst element as an exact value (undefined rows read as zero, the identity). */
static struct fpu_val dst_value(const struct fpu_exec *x, enum dst_kind k, unsigned row, unsigned col)
{
    switch (k) {
    case DK_FP32: return fpu_val_fp32(fmt_dst_to_fp32(fpu_dst_get(x, true, row, col, 0)));
    case DK_FP16: return fpu_val_fp16(fmt_dst_to_fp16((uint16_t)fpu_dst_get(x, false, row, col, 0)));
    default: return fpu_val_bf16(fmt_dst_to_bf16((uint16_t)fpu_dst_get(x, false, row, col, 0)));
    }
}

static void dst_store(struct fpu_exec *x, enum dst_kind k, unsigned row, unsigned col,
                      const struct fpu_acc *acc)
{
    switch (k) {
    case DK_FP32: fpu_dst_put(x, true, row, col, fmt_dst_from_fp32(fpu_acc_round(acc, FPU_OUT_FP32))); break;
    case DK_FP16: fpu_dst_put(x, false, row, col, fmt_dst_from_fp16((uint16_t)fpu_acc_round(acc, FPU_OUT_FP16))); break;
    default: fpu_dst_put(x, false, row, col, fmt_dst_from_bf16((uint16_t)fpu_acc_round(acc, FPU_OUT_BF16))); break;
    }
}

/* Integer "32" in Dst32b: sign-magnitude in the FP32 arrangement (WH:Dst.md). */
static int32_t dst_int32(const struct fpu_exec *x, unsigned row, unsigned col)
{
    return fmt_sm32_value(fmt_dst_to_fp32(fpu_dst_get(x, true, row, col, 0)));
}

static void dst_put_int32(struct fpu_exec *x, unsigned row, unsigned col, int32_t v)
{
    uint32_t sm = v < 0 ? 0x80000000u | (uint32_t)-(int64_t)v : (uint32_t)v;
    fpu_dst_put(x, true, row, col, fmt_dst_from_fp32(sm));
}

/* ---- rows ---- */

struct rows {
    unsigned nrows, srca, srcb, dst;
    bool bcast;
};

static struct rows rows_of(const struct fpu_exec *x)
{
    const struct fpu_rwc *r = &x->t->fpu.rwc[x->th];
    struct rows o = {.bcast = x->in.bcast_row};
    switch (x->in.kind) {
    case FK_MVMUL: o.nrows = o.bcast ? 7 : 8; break;
    case FK_DOTPV: o.nrows = 8, o.bcast = false; break;
    case FK_GAPOOL: o.nrows = 4, o.bcast = false; break;
    case FK_GMPOOL: o.nrows = 4, o.bcast = false; break;
    default: o.nrows = 8; break; /* ELW* */
    }
    /* 16 rows from SrcARow 0x38 run past row 63: the 6-bit row address wraps (the model does
     * not say; docs/fpu.md) */
    o.srca = r->srca & (x->in.kind == FK_GMPOOL ? 0x30 : 0x38);
    o.srcb = r->srcb & (o.bcast ? 0x3F : 0x38);
    unsigned base = fpu_dst_base(x, x->in.dst_row);
    if (x->in.kind == FK_MVMUL || x->in.kind == FK_DOTPV || x->in.kind == FK_GAPOOL)
        o.dst = base & (0x400 - o.nrows); /* as written in WH:MVMUL.md (7 rows: mask 0x3F9) */
    else if (x->in.kind == FK_GMPOOL)
        o.dst = base & 0x3FC;
    else
        o.dst = base & 0x3F8;
    return o;
}

void fpu_math_span(const struct fpu_exec *x, struct fpu_dst_span *s)
{
    enum fpu_style st;
    bool d32;
    fpu_math_style(x, &st, &d32);
    struct rows r = rows_of(x);
    s->row0 = r.dst;
    s->dst32 = d32;
    switch (x->in.kind) {
    case FK_ELWADD: case FK_ELWSUB: s->n = x->in.add_dst ? 8 : 0; break;
    case FK_GMPOOL: s->n = x->in.argmax ? 4 : 1; break;
    default: s->n = r.nrows; break;
    }
}

/* ---- MVMUL, DOTPV, GAPOOL ---- */

static inline double pow2i(int e)
{
    uint64_t b = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* A Src cell as a double after the fidelity mask (the value fpu_src_val and fpu_fidelity_a/b
 * give, without building a struct fpu_val); *lsb is the weight of its last significand bit, 0 for a zero. */
static inline double src_double(uint32_t cell, enum fpu_style st, uint32_t fmask, int *lsb, bool *nz)
{
    uint32_t man = cell >> 8 & 0x3FF, exp;
    int bias;
    if (st == FPU_STYLE_FP16) {
        exp = cell & 0x1F, bias = 25;
    } else {
        exp = cell & 0xFF, bias = 137;
        if (st == FPU_STYLE_BF16)
            man &= 0x3F8;
    }
    uint32_t sig = (0x400u | man) & fmask;
    *nz = exp && sig;
    if (!*nz)
        return 0.0;
    *lsb = (int)exp - bias;
    double v = (double)sig * pow2i(*lsb);
    return cell >> 18 & 1 ? -v : v;
}

/* The fast path of MVMUL/DOTPV/GAPOOL: when every product (<= 22 significant bits) and Dst value
 * (24, 11 or 8 bits) lies between weights 2^lo and 2^hi with hi - lo <= 47, each sum of 16 products and a
 * Dst value is exact in a double (53 bits, 5 of them for carries), so rounding the double gives
 * what the exact accumulator gives. False: the caller takes the exact path. */
static bool matmul_fast(struct fpu_exec *x, enum fpu_style st, unsigned phase, struct rows r,
                        enum dst_kind dk)
{
    const struct src_regs *s = &x->t->src;
    const struct src_bank *A = &s->bank[0][s->fpu_bank[0]], *B = &s->bank[1][s->fpu_bank[1]];
    const uint32_t fa = phase & 1 ? 0x03Eu : 0x7C0u, fb = phase & 2 ? 0x00Fu : 0x7F0u;
    double ad[16][16], bd[8][16], dd[8][16];
    int amin = INT32_MAX, amax = INT32_MIN, bmin = INT32_MAX, bmax = INT32_MIN;
    int dmin = INT32_MAX, dmax = INT32_MIN, e;
    bool nz;
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++) {
            ad[k][j] = src_double(A->cell[(r.srca + k) & 0x3F][j], st, fa, &e, &nz);
            if (nz) {
                amin = e < amin ? e : amin;
                amax = e > amax ? e : amax;
            }
        }
    for (unsigned i = 0; i < r.nrows; i++)
        for (unsigned k = 0; k < 16; k++) {
            bd[i][k] = src_double(B->cell[r.srcb + (r.bcast ? 0 : i)][k], st, fb, &e, &nz);
            if (nz) {
                bmin = e < bmin ? e : bmin;
                bmax = e > bmax ? e : bmax;
            }
        }
    const unsigned step = r.bcast ? 2 : 1;
    const bool d32 = dk == DK_FP32;
    const struct dest *dst = &x->t->dest;
    unsigned phys[8];
    for (unsigned i = 0; i < r.nrows; i += step) {
        const unsigned p = phys[i] = fpu_dst_phys(x, d32, r.dst + i);
        for (unsigned j = 0; j < 16; j++) {
            /* the Dst value in its plain format (WH:Dst.md layouts); an undefined row reads as 0 */
            uint32_t f, ex, sig, neg;
            int bias;
            if (!dst->row_valid[p]) {
                dd[i][j] = 0.0;
                continue;
            }
            if (d32) {
                f = fmt_dst_to_fp32(dest_get32_at(dst, p, j)), neg = f >> 31;
                ex = f >> 23 & 0xFF, sig = 0x800000u | (f & 0x7FFFFF), bias = 150;
            } else if (dk == DK_FP16) {
                f = fmt_dst_to_fp16(dst->bits[p][j]), neg = f >> 15;
                ex = f >> 10 & 0x1F, sig = 0x400u | (f & 0x3FF), bias = 25;
            } else {
                f = fmt_dst_to_bf16(dst->bits[p][j]), neg = f >> 15;
                ex = f >> 7 & 0xFF, sig = 0x80u | (f & 0x7F), bias = 134;
            }
            if (!ex) {
                dd[i][j] = 0.0;
                continue;
            }
            e = (int)ex - bias;
            double v = (double)sig * pow2i(e);
            dd[i][j] = neg ? -v : v;
            dmin = e < dmin ? e : dmin;
            dmax = e > dmax ? e : dmax;
        }
    }
    int lo = INT32_MAX, hi = INT32_MIN;
    if (amin != INT32_MAX && bmin != INT32_MAX)
        lo = amin + bmin, hi = amax + bmax + 22;
    if (dmin != INT32_MAX) {
        const int dbits = dk == DK_FP32 ? 24 : dk == DK_FP16 ? 11 : 8; /* significand width */
        lo = dmin < lo ? dmin : lo;
        hi = dmax + dbits > hi ? dmax + dbits : hi;
    }
    if (lo != INT32_MAX && hi - lo > 47)
        return false;
    static const enum fpu_out outs[] = {[DK_FP32] = FPU_OUT_FP32, [DK_BF16] = FPU_OUT_BF16,
                                        [DK_FP16] = FPU_OUT_FP16};
    struct dest *out = &x->t->dest;
    for (unsigned i = 0; i < r.nrows; i += step) {
        const unsigned p = phys[i];
        for (unsigned j = 0; j < 16; j++) {
            double sum = dd[i][j];
            for (unsigned k = 0; k < 16; k++)
                sum += bd[i][k] * ad[k][j];
            const uint32_t v = fpu_round_double(sum, outs[dk]);
            if (d32) {
                dest_put32_at(out, p, j, fmt_dst_from_fp32(v));
            } else {
                out->bits[p][j] = dk == DK_FP16 ? fmt_dst_from_fp16((uint16_t)v) : fmt_dst_from_bf16((uint16_t)v);
            }
        }
        fpu_dst_row_written(x, d32, p);
    }
    return true;
}

static void matmul(struct fpu_exec *x, enum fpu_style st, bool d32, unsigned phase, struct rows r)
{
    const struct src_regs *s = &x->t->src;
    const struct src_bank *A = &s->bank[0][s->fpu_bank[0]], *B = &s->bank[1][s->fpu_bank[1]];
    const unsigned step = r.bcast ? 2 : 1;
    if (st == FPU_STYLE_INT8) {
        int32_t a[16][16], b[8][16];
        for (unsigned k = 0; k < 16; k++)
            for (unsigned j = 0; j < 16; j++)
                a[k][j] = fpu_src_int8(A->cell[(r.srca + k) & 0x3F][j] & (phase & 1 ? 0x41FFFu : 0x4E0FFu));
        for (unsigned i = 0; i < r.nrows; i++)
            for (unsigned k = 0; k < 16; k++)
                b[i][k] = fpu_src_int8(B->cell[r.srcb + (r.bcast ? 0 : i)][k] &
                                       (phase & 2 ? 0x40FFFu : 0x7F0FFu));
        for (unsigned i = 0; i < r.nrows; i += step)
            for (unsigned j = 0; j < 16; j++) {
                int64_t sum = 0;
                for (unsigned k = 0; k < 16; k++)
                    sum += (int64_t)b[i][k] * a[k][j];
                dst_put_int32(x, r.dst + i, j, fpu_sat_add(sum, dst_int32(x, r.dst + i, j)));
            }
        return;
    }
    if (matmul_fast(x, st, phase, r, dst_kind(st, d32)))
        return;
    struct fpu_val a[16][16], b[8][16], d[8][16];
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            a[k][j] = fpu_fidelity_a(fpu_src_val(A->cell[(r.srca + k) & 0x3F][j], st), phase);
    for (unsigned i = 0; i < r.nrows; i++)
        for (unsigned k = 0; k < 16; k++)
            b[i][k] = fpu_fidelity_b(fpu_src_val(B->cell[r.srcb + (r.bcast ? 0 : i)][k], st), phase);
    const enum dst_kind dk = dst_kind(st, d32);
    for (unsigned i = 0; i < r.nrows; i += step)
        for (unsigned j = 0; j < 16; j++)
            d[i][j] = dst_value(x, dk, r.dst + i, j);
    for (unsigned i = 0; i < r.nrows; i += step)
        for (unsigned j = 0; j < 16; j++) {
            struct fpu_acc acc;
            fpu_acc_clear(&acc);
            for (unsigned k = 0; k < 16; k++)
                fpu_acc_add_mul(&acc, b[i][k], a[k][j]);
            fpu_acc_add(&acc, d[i][j]);
            dst_store(x, dk, r.dst + i, j, &acc);
        }
}

/* ---- ELWMUL, ELWADD, ELWSUB ---- */

static void elementwise(struct fpu_exec *x, enum fpu_style st, bool d32, unsigned phase, struct rows r)
{
    const struct src_regs *s = &x->t->src;
    const struct src_bank *A = &s->bank[0][s->fpu_bank[0]], *B = &s->bank[1][s->fpu_bank[1]];
    const enum fpu_kind k = x->in.kind;
    const bool add_dst = k == FK_ELWMUL || x->in.add_dst;
    const enum dst_kind dk = dst_kind(st, d32);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            uint32_t av = A->cell[r.srca + i][j];
            uint32_t bv = B->cell[r.srcb + (x->in.bcast_row ? 0 : i)][x->in.bcast_col0 ? 0 : j];
            if (st == FPU_STYLE_INT8) {
                int64_t v;
                if (k == FK_ELWMUL)
                    v = (int64_t)fpu_src_int8(av & (phase & 1 ? 0x41FFFu : 0x4E0FFu)) *
                        fpu_src_int8(bv & (phase & 2 ? 0x40FFFu : 0x7F0FFu));
                else
                    v = (int64_t)fpu_src_int8(av) + (k == FK_ELWSUB ? -1 : 1) * fpu_src_int8(bv);
                int32_t out = add_dst ? fpu_sat_add(v, dst_int32(x, r.dst + i, j)) : (int32_t)v;
                dst_put_int32(x, r.dst + i, j, out);
                continue;
            }
            struct fpu_acc acc;
            fpu_acc_clear(&acc);
            struct fpu_val a = fpu_src_val(av, st), b = fpu_src_val(bv, st);
            if (k == FK_ELWMUL) {
                fpu_acc_add_mul(&acc, fpu_fidelity_a(a, phase), fpu_fidelity_b(b, phase));
            } else {
                /* (a +- b) / 32 (odd phases) / 128 (phases 2, 3): exact scalings */
                int scale = (phase & 1 ? 5 : 0) + (phase & 2 ? 7 : 0);
                a.exp -= scale, b.exp -= scale;
                if (k == FK_ELWSUB)
                    b.neg = !b.neg;
                fpu_acc_add(&acc, a);
                fpu_acc_add(&acc, b);
            }
            if (add_dst)
                fpu_acc_add(&acc, dst_value(x, dk, r.dst + i, j));
            dst_store(x, dk, r.dst + i, j, &acc);
        }
}

/* ---- GMPOOL (WH:GMPOOL.md), with its integer Datum arithmetic ---- */

enum dst_style { DS_INT32, DS_FP16, DS_BF16, DS_TF32 };

struct datum {
    uint32_t sign, exp, man; /* uint1_t, uint9_t, uint10_t */
};

static struct datum read_dst(uint32_t v, enum dst_style s)
{
    struct datum d = {v >> 31, 0, 0};
    switch (s) {
    case DS_INT32:
        d.man = v & 0x3FF;
        d.exp = ((v >> 10) & 0x3F) + (((v >> 24) & 7) << 6);
        break;
    case DS_FP16:
        d.exp = ((v >> 16) & 0x1F) + 15;
        d.man = (v >> 21) & 0x3FF;
        break;
    default:
        d.exp = ((v >> 16) & 0xFF) + 127;
        d.man = ((v >> 24) & 0x7F) << 3;
        if (s == DS_TF32)
            d.man += (v >> 13) & 7;
        break;
    }
    d.exp &= 0x1FF;
    return d;
}

static uint32_t write_dst(struct datum d, enum dst_style s)
{
    switch (s) {
    case DS_INT32:
        return d.sign << 31 | (d.exp & 7) << 10 | d.man;
    case DS_FP16:
        if ((d.exp & 0x3F) == 0)
            return 0;
        d.exp -= 15; /* wraps when the SrcB scaler was not 1.0 (the page says so) */
        return d.sign << 31 | d.man << 21 | (d.exp & 0x1F) << 16;
    default: {
        if (d.exp == 0)
            return 0;
        d.exp -= 127;
        uint32_t v = d.sign << 31 | (d.man & 0x3F8) << 21 | (d.exp & 0xFF) << 16;
        if (s == DS_TF32)
            v += (d.man & 7) << 13;
        return v;
    }
    }
}

static struct datum read_scaled(uint32_t a, enum fpu_style st, uint32_t b)
{
    struct datum r = {0, 0, 0};
    uint32_t ae = a & 0xFF, be = b & 0xFF;
    if (!be)
        return (struct datum){1, 0x1FF, 0x3FF}; /* minus infinity */
    if (!ae)
        return r; /* denormals flush to zero */
    uint32_t man = (a >> 8) & 0x3FF;
    r.sign = a >> 18 & 1;
    switch (st) {
    case FPU_STYLE_INT8: r.exp = 0, r.man = man; break;
    case FPU_STYLE_FP16: r.exp = (ae & 0x1F) + (be & 0x1F), r.man = man; break;
    case FPU_STYLE_TF32: r.exp = ae + be, r.man = man; break;
    default: r.exp = ae + be, r.man = man & 0x3F8; break;
    }
    r.exp &= 0x1FF;
    return r;
}

static int32_t comparable(struct datum d)
{
    return (d.sign ? -1 : 1) * (int32_t)((d.exp << 10) + d.man);
}

static void gmpool(struct fpu_exec *x, struct rows r)
{
    const struct src_regs *s = &x->t->src;
    const struct src_bank *A = &s->bank[0][s->fpu_bank[0]], *B = &s->bank[1][s->fpu_bank[1]];
    const struct fpu_cfg *c = &x->cfg;
    const bool argmax = x->in.argmax;
    enum fpu_style st;
    enum dst_style ds;
    bool d32;
    if (c->fp16a_force) {
        st = FPU_STYLE_FP16, ds = DS_FP16, d32 = false;
    } else if (c->int8_math) {
        st = FPU_STYLE_INT8, ds = DS_INT32, d32 = true;
    } else {
        st = fpu_fmt_style(c->srca_fmt);
        d32 = c->fp32_enabled;
        if (st == FPU_STYLE_TF32)
            ds = argmax ? DS_INT32 : d32 ? DS_TF32 : DS_BF16;
        else if (st == FPU_STYLE_BF16)
            ds = argmax && d32 ? DS_BF16 : d32 ? DS_TF32 : DS_BF16;
        else
            ds = argmax && d32 ? DS_FP16 : d32 ? DS_TF32 : DS_FP16;
    }
    static const uint8_t nonlinear[8] = {0, 3, 6, 1, 4, 7, 2, 5};
    for (unsigned j = 0; j < 16; j++) {
        /* an undefined Dst row reads as minus infinity: all bits set */
        uint32_t dv = d32 ? fpu_dst_get(x, true, r.dst, j, 0xFFFFFFFFu)
                          : fpu_dst_get(x, false, r.dst, j, 0xFFFFu) << 16;
        struct datum max = read_dst(dv, ds);
        uint8_t max_index = (uint8_t)(dv & 0xFF);
        uint32_t index_phase = (dv + 0x100) & 0xF00;
        for (unsigned i_ = 0; i_ < 16; i_++) {
            unsigned i = i_ < 8 ? i_ ^ 4 : i_;
            struct datum v = read_scaled(A->cell[r.srca + i][j], st, B->cell[r.srcb][i]);
            if (comparable(v) >= comparable(max)) {
                max = v;
                if (i < 8)
                    max_index = (uint8_t)((index_phase >> 4) + nonlinear[i]);
            }
        }
        uint32_t out;
        if (argmax)
            out = ds == DS_INT32 ? (index_phase | max_index) : write_dst(max, ds) | index_phase | max_index;
        else
            out = write_dst(max, ds);
        if (d32) {
            fpu_dst_put(x, true, r.dst, j, out);
            for (unsigned i = 1; i < 4; i++)
                fpu_dst_put(x, true, r.dst + i, j,
                            argmax ? (fpu_dst_get(x, true, r.dst + i, j, 0xFFFFFFFFu) + 0x100) & 0xF00 : 0);
        } else {
            fpu_dst_put(x, false, r.dst, j, out >> 16);
            for (unsigned i = 1; i < 4; i++)
                fpu_dst_put(x, false, r.dst + i, j, 0);
        }
    }
}

bool fpu_exec_math(struct fpu_exec *x)
{
    enum fpu_style st;
    bool d32;
    fpu_math_style(x, &st, &d32);
    const unsigned phase = fpu_phase(x);
    const struct rows r = rows_of(x);
    struct fpu_state *u = &x->t->fpu;
    u->last_srca_row = (uint8_t)r.srca;
    switch (x->in.kind) {
    case FK_MVMUL: case FK_DOTPV: case FK_GAPOOL:
        matmul(x, st, d32, phase, r);
        u->st.mul_phase[phase]++;
        break;
    case FK_GMPOOL:
        gmpool(x, r);
        break;
    default:
        elementwise(x, st, d32, phase, r);
        if (x->in.kind == FK_ELWMUL)
            u->st.mul_phase[phase]++;
        break;
    }
    fpu_flip(x, x->in.flip_a, x->in.flip_b);
    fpu_apply_addr_mod(x, x->in.addr_mod);
    return true;
}
