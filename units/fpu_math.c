/* The matrix unit's computing instructions: MVMUL and DOTPV (WH:MVMUL.md, WH:DOTPV.md), GAPOOL
 * (WH:GAPOOL.md), ELWMUL (WH:ELWMUL.md), ELWADD and ELWSUB (WH:ELWADD.md, WH:ELWSUB.md) and
 * GMPOOL (WH:GMPOOL.md): which rows and lanes each reads and writes follows the functional
 * models; the arithmetic is the hardware's datapath (fpu_datapath.c, docs/numerics.md). */
#include "fpu_internal.h"

#include <stdint.h>
#include <string.h>

#include "formats.h"
#include "fpu_datapath.h"

/* ---- operands and Dst words for the datapath (units/fpu_datapath.h) ---- */

/* How a format's values enter the datapath (ttsim's masks, by the operand's own format):
 * TF32 keeps ten mantissa bits, the BF16 family seven, FP16/FP8 their 5-bit exponent. */
enum op_class { OP_BF16, OP_TF32, OP_FP16 };

static enum op_class op_class(unsigned fmt)
{
    enum fpu_style st = fpu_fmt_style(fmt);
    return st == FPU_STYLE_TF32 ? OP_TF32 : st == FPU_STYLE_FP16 ? OP_FP16 : OP_BF16;
}

/* A Src cell (WH:SrcASrcB.md: Sign[18] Man[17:8] Exp[7:0]) as a datapath operand. */
static inline uint32_t src_operand(uint32_t cell, enum op_class c)
{
    uint32_t man = cell >> 8 & 0x3FF, exp = cell & 0xFF;
    if (c == OP_BF16)
        man &= 0x3F8;
    else if (c == OP_FP16)
        exp &= 0x1F;
    return (cell & 0x40000) | exp << 10 | man;
}

/* 16 cells of one Src row as operands: src_operand with the class's masks taken once, so the
 * loop has no branch (vectorised; banks are taken apart once per contents, fpu_math.c caches). */
static void src_operands16(uint32_t *restrict op, const uint32_t *restrict cells, enum op_class c)
{
    const uint32_t man_mask = c == OP_BF16 ? 0x3F8 : 0x3FF, exp_mask = c == OP_FP16 ? 0x1F : 0xFF;
    for (unsigned k = 0; k < 16; k++)
        op[k] = (cells[k] & 0x40000) | (cells[k] & exp_mask) << 10 | (cells[k] >> 8 & man_mask);
}

/* Dst words (fpu_datapath.h) from and to the Dst in its current view. */
struct dst_fmt {
    bool d32, exp8;
};

static uint32_t dst_word(const struct fpu_exec *x, struct dst_fmt f, unsigned row, unsigned col)
{
    if (f.d32)
        return fmt_dst_to_fp32(fpu_dst_get(x, true, row, col, 0));
    uint16_t raw = (uint16_t)fpu_dst_get(x, false, row, col, 0);
    return f.exp8 ? (uint32_t)fmt_dst_to_bf16(raw) << 16 : dp_from_fp16(fmt_dst_to_fp16(raw));
}

static void dst_word_put(struct fpu_exec *x, struct dst_fmt f, unsigned row, unsigned col, uint32_t w)
{
    if (f.d32)
        fpu_dst_put(x, true, row, col, fmt_dst_from_fp32(w));
    else
        fpu_dst_put(x, false, row, col, f.exp8 ? fmt_dst_from_bf16((uint16_t)(w >> 16))
                                               : fmt_dst_from_fp16(dp_to_fp16(w)));
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

/* Integer "8" of a Src cell (ReadSrcInt8) through `mask`: sign and the ten mantissa bits as the
 * magnitude. A cell whose exponent field is 0 is zero, as in the float datapath: always for
 * SrcA, for SrcB while denormals flush (`flush`). */
static inline int32_t src_int8(uint32_t cell, uint32_t mask, bool flush)
{
    int32_t mag = (int32_t)((cell & mask) >> 8 & 0x3FF);
    return flush && !(cell & 0xFF) ? 0 : cell >> 18 & 1 ? -mag : mag;
}

/* Add with saturation at +-(2^31 - 1) (SaturateAddInt32, WH:ELWMUL.md). */
static int32_t sat_add(int64_t a, int64_t b)
{
    int64_t s = a + b;
    return s > INT32_MAX ? INT32_MAX : s < -INT32_MAX ? -INT32_MAX : (int32_t)s;
}

/* The INT8 fidelity masks (our Src layout): SrcA magnitude bits 7..5 in even phases, 4..0 in odd
 * ones; SrcB bits 9..4 in phases 0/1, 3..0 in 2/3. Four phases give the exact product. */
static inline uint32_t int8_mask_a(unsigned phase) { return phase & 1 ? 0x41FFFu : 0x4E0FFu; }
static inline uint32_t int8_mask_b(unsigned phase) { return phase & 2 ? 0x40FFFu : 0x7F0FFu; }

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

/* The mode of the floating-point datapath for this instruction. */
static struct dp_mode dp_mode_of(const struct fpu_exec *x, enum fpu_style st, bool d32)
{
    return (struct dp_mode){.dst32 = d32, .exp8 = st != FPU_STYLE_FP16, .wh = tile_is_wormhole(x->t)};
}

/* ---- MVMUL, DOTPV, GAPOOL ---- */

/* Dst rows in and out of the datapath: physical rows p[0..n-1] (an FP32 Dst's low halves 8
 * rows on) as Dst words (fpu_datapath.h) and back, as dst_word and dst_word_put convert each
 * cell; an undefined row reads as 0. For the SSE4.1 and plain paths: the AVX2 and AVX-512 rows
 * read and write the cells themselves (dp_rows_dst_for), with the same bits (bit moves). */
static void dst_rows_in(const struct dest *dst, const unsigned *p, unsigned n, bool d32, bool exp8,
                        uint32_t (*d)[16])
{
    for (unsigned i = 0; i < n; i++) {
        const unsigned q = p[i];
        /* one loop per format, without branches inside: the compiler vectorises each */
        if (!dst->row_valid[q])
            memset(d[i], 0, sizeof d[i]);
        else if (d32)
            for (unsigned j = 0; j < 16; j++)
                d[i][j] = fmt_dst_to_fp32(dest_get32_at(dst, q, j));
        else if (exp8)
            for (unsigned j = 0; j < 16; j++)
                d[i][j] = (uint32_t)fmt_dst_to_bf16(dst->bits[q][j]) << 16;
        else
            for (unsigned j = 0; j < 16; j++)
                d[i][j] = dp_from_fp16(fmt_dst_to_fp16(dst->bits[q][j]));
    }
}

static void dst_rows_out(struct dest *dst, const unsigned *p, unsigned n, bool d32, bool exp8,
                         const uint32_t (*d)[16])
{
    for (unsigned i = 0; i < n; i++) {
        const unsigned q = p[i];
        if (d32)
            for (unsigned j = 0; j < 16; j++)
                dest_put32_at(dst, q, j, fmt_dst_from_fp32(d[i][j]));
        else if (exp8)
            for (unsigned j = 0; j < 16; j++)
                dst->bits[q][j] = fmt_dst_from_bf16((uint16_t)(d[i][j] >> 16));
        else
            for (unsigned j = 0; j < 16; j++)
                dst->bits[q][j] = fmt_dst_from_fp16(dp_to_fp16(d[i][j]));
    }
}

/* What an entry of the operand caches was taken apart from, in one word: the bank's write
 * generation, the bank, first row (6 bits), phase, operand class and (SrcB) row broadcast and
 * denormal flushing; bit 31 set, so that no key is 0, an empty entry's. */
static inline uint64_t cache_key(uint32_t gen, unsigned bank, unsigned row, unsigned phase,
                                 enum op_class cls, bool bcast, bool flush)
{
    return (uint64_t)gen << 32 | 1u << 31 | bank << 16 | row << 8 | phase << 4 | (unsigned)cls << 2 |
           (unsigned)bcast << 1 | (unsigned)flush;
}

/* SrcA rows row..row+15 of the matrix unit's bank taken apart for `phase` (dp_cols), from the
 * cache while the bank's cells are unchanged (the entry that served last looked at first). */
static const struct dp_cols *srca_cols(struct fpu_exec *x, unsigned row, unsigned phase, enum op_class ca)
{
    const struct src_regs *s = &x->t->src;
    const unsigned bank = s->fpu_bank[0];
    const struct src_bank *A = &s->bank[0][bank];
    struct fpu_state *u = &x->t->fpu;
    const uint64_t key = cache_key(A->gen, bank, row, phase, ca, false, false);
    if (u->cols_cache[u->cols_last].key == key)
        return &u->cols_cache[u->cols_last].cols;
    for (unsigned i = 0; i < FPU_COLS_CACHE; i++)
        if (u->cols_cache[i].key == key) {
            u->cols_last = (uint8_t)i;
            return &u->cols_cache[i].cols;
        }
    struct fpu_cols_cache *c = &u->cols_cache[u->cols_next];
    u->cols_last = u->cols_next;
    u->cols_next = (uint8_t)((u->cols_next + 1) % FPU_COLS_CACHE);
    uint32_t op[16][16];
    for (unsigned k = 0; k < 16; k++)
        src_operands16(op[k], A->cell[(row + k) & 0x3F], ca);
    dp_cols_set(&c->cols, (const uint32_t(*)[16])op, phase);
    c->key = key;
    return &c->cols;
}

/* SrcB rows row..row+7 (row eight times when `bcast`) of the matrix unit's bank taken apart
 * for `phase` (dp_lanes), from the cache while the bank's cells are unchanged. */
static const struct dp_lanes *srcb_rows(struct fpu_exec *x, unsigned row, bool bcast, unsigned phase,
                                        enum op_class cb)
{
    const struct src_regs *s = &x->t->src;
    const unsigned bank = s->fpu_bank[1];
    const struct src_bank *B = &s->bank[1][bank];
    const bool flush = !x->cfg.zero_flag_disabled_src;
    struct fpu_state *u = &x->t->fpu;
    const uint64_t key = cache_key(B->gen, bank, row, phase, cb, bcast, flush);
    if (u->rows_cache[u->rows_last].key == key)
        return u->rows_cache[u->rows_last].rows;
    for (unsigned i = 0; i < FPU_ROWS_CACHE; i++)
        if (u->rows_cache[i].key == key) {
            u->rows_last = (uint8_t)i;
            return u->rows_cache[i].rows;
        }
    struct fpu_rows_cache *c = &u->rows_cache[u->rows_next];
    u->rows_last = u->rows_next;
    u->rows_next = (uint8_t)((u->rows_next + 1) % FPU_ROWS_CACHE);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t op[16];
        uint16_t z = 0;
        src_operands16(op, B->cell[(row + (bcast ? 0 : i)) & 0x3F], cb);
        for (unsigned k = 0; flush && k < 16; k++)
            z |= (uint16_t)(dp_is_zero(op[k]) << k);
        dp_lanes_b(&c->rows[i], op, z, phase);
    }
    c->key = key;
    return c->rows;
}

static void matmul_float(struct fpu_exec *x, enum op_class ca, enum op_class cb, struct dp_mode m,
                         dp_rows_fn *fn, dp_rows_dst_fn *dfn, unsigned phase, struct rows r);

static void matmul(struct fpu_exec *x, enum fpu_style st, bool d32, unsigned phase, struct rows r)
{
    const struct src_regs *s = &x->t->src;
    const struct src_bank *A = &s->bank[0][s->fpu_bank[0]], *B = &s->bank[1][s->fpu_bank[1]];
    const unsigned step = r.bcast ? 2 : 1;
    const bool flush_b = !x->cfg.zero_flag_disabled_src;
    if (st == FPU_STYLE_INT8) {
        int32_t a[16][16], b[8][16];
        for (unsigned k = 0; k < 16; k++)
            for (unsigned j = 0; j < 16; j++)
                a[k][j] = src_int8(A->cell[(r.srca + k) & 0x3F][j], int8_mask_a(phase), true);
        for (unsigned i = 0; i < r.nrows; i++)
            for (unsigned k = 0; k < 16; k++)
                b[i][k] = src_int8(B->cell[r.srcb + (r.bcast ? 0 : i)][k], int8_mask_b(phase), flush_b);
        for (unsigned i = 0; i < r.nrows; i += step)
            for (unsigned j = 0; j < 16; j++) {
                int64_t sum = 0;
                for (unsigned k = 0; k < 16; k++)
                    sum += (int64_t)b[i][k] * a[k][j];
                dst_put_int32(x, r.dst + i, j, sat_add(sum, dst_int32(x, r.dst + i, j)));
            }
        return;
    }
    const struct dp_mode m = dp_mode_of(x, st, d32);
    const enum dp_simd simd = x->t->fpu.simd;
    matmul_float(x, op_class(x->cfg.srca_fmt), op_class(x->cfg.srcb_fmt), m, dp_rows_for(simd, m),
                 dp_rows_dst_for(simd, m), phase, r);
}

/* The floating-point MVMUL/DOTPV/GAPOOL with SrcA and SrcB of classes ca, cb in mode m, whose
 * rows functions (dp_rows_for, dp_rows_dst_for: NULL but on the AVX2 and AVX-512 paths) are fn
 * and dfn. */
static void matmul_float(struct fpu_exec *x, enum op_class ca, enum op_class cb, struct dp_mode m,
                         dp_rows_fn *fn, dp_rows_dst_fn *dfn, unsigned phase, struct rows r)
{
    const unsigned step = r.bcast ? 2 : 1;
    const bool d32 = m.dst32;
    /* Operands taken apart once per bank contents: SrcA's 16 columns, SrcB's rows. */
    const struct dp_cols *cols = srca_cols(x, r.srca, phase, ca);
    const struct dp_lanes *lb = srcb_rows(x, r.srcb, r.bcast, phase, cb);
    struct dest *dst = &x->t->dest;
    /* the Dst rows in, all the rows through the datapath at once (dp_rows_fn: the AVX-512 path
     * takes them two at a time), the Dst rows out */
    const struct dp_lanes *b[8];
    unsigned p[8], n = 0;
    /* fpu_dst_phys of each row: the rows lie in one aligned 8-row group (r.dst & 6 is 0 with 7
     * rows, r.dst & 3 with GAPOOL's 4), whose order the row maps keep but for DEST_ACCESS_CFG's
     * swizzle (dest_adj16 and dest_adj32 keep bits 0..2 and map the rest from bits 3 and up):
     * then they are the first one's physical row plus i, all in its 8-row block */
    const unsigned p0 = dest_phys(x->cfg.dst_map, d32, r.dst & 0x3FF);
    const bool in_order = !x->cfg.dst_map.swizzle;
    const bool eight = in_order && r.nrows == 8 && step == 1; /* MVMUL, DOTPV: p0..p0 + 7 */
    if (eight) {
#pragma GCC unroll 8
        for (unsigned i = 0; i < 8; i++)
            p[i] = p0 + i, b[i] = &lb[i];
        n = 8;
    } else {
        for (unsigned i = 0; i < r.nrows; i += step, n++) {
            p[n] = in_order ? p0 + i : dest_phys(x->cfg.dst_map, d32, (r.dst + i) & 0x3FF);
            b[n] = &lb[i];
        }
    }
    /* the rows' physical rows p[i] (and p[i] + 8) are different rows: dest_phys is one to one,
     * and its Dst32b rows have bit 3 clear */
    if (dfn) {
        dfn(cols, b, n, dst->bits, dst->row_valid, p, phase, m);
    } else {
        uint32_t d[8][16];
        dst_rows_in(dst, p, n, d32, m.exp8, d);
        fn(cols, b, n, (const uint32_t(*)[16])d, d, phase, m);
        dst_rows_out(dst, p, n, d32, m.exp8, (const uint32_t(*)[16])d);
    }
    if (in_order) { /* fpu_dst_row_written of each row: one block (and the next with Dst32b) */
        if (eight) {
            memset(&dst->row_valid[p0], true, 8);
            if (d32)
                memset(&dst->row_valid[p0 + 8], true, 8);
        } else {
            for (unsigned i = 0; i < n; i++)
                dst->row_valid[p[i]] = true;
            if (d32)
                for (unsigned i = 0; i < n; i++)
                    dst->row_valid[p[i] + 8] = true;
        }
        fpu_mark_written(x, p0);
        if (d32)
            fpu_mark_written(x, p0 + 8);
    } else {
        for (unsigned i = 0; i < n; i++)
            fpu_dst_row_written(x, d32, p[i]);
    }
}

/* ---- ELWMUL, ELWADD, ELWSUB ---- */

static void elementwise(struct fpu_exec *x, enum fpu_style st, bool d32, unsigned phase, struct rows r)
{
    const struct src_regs *s = &x->t->src;
    const struct src_bank *A = &s->bank[0][s->fpu_bank[0]], *B = &s->bank[1][s->fpu_bank[1]];
    const enum fpu_kind k = x->in.kind;
    const bool add_dst = k == FK_ELWMUL || x->in.add_dst; /* ELWMUL always accumulates */
    const bool flush_b = !x->cfg.zero_flag_disabled_src;
    const enum op_class ca = op_class(x->cfg.srca_fmt), cb = op_class(x->cfg.srcb_fmt);
    const struct dp_mode m = dp_mode_of(x, st, d32);
    const struct dst_fmt f = {d32, m.exp8};
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            uint32_t av = A->cell[r.srca + i][j];
            uint32_t bv = B->cell[r.srcb + (x->in.bcast_row ? 0 : i)][x->in.bcast_col0 ? 0 : j];
            if (k == FK_ELWSUB)
                bv ^= 0x40000;
            if (st == FPU_STYLE_INT8) {
                int64_t v = k == FK_ELWMUL
                                ? (int64_t)src_int8(av, int8_mask_a(phase), true) *
                                      src_int8(bv, int8_mask_b(phase), flush_b)
                                : (int64_t)src_int8(av, ~0u, true) + src_int8(bv, ~0u, flush_b);
                int32_t out = add_dst ? sat_add(v, dst_int32(x, r.dst + i, j)) : (int32_t)v;
                dst_put_int32(x, r.dst + i, j, out);
                continue;
            }
            uint32_t a = src_operand(av, ca), b = src_operand(bv, cb);
            bool za = dp_is_zero(a), zb = flush_b && dp_is_zero(b);
            uint32_t d = add_dst ? dst_word(x, f, r.dst + i, j) : 0;
            uint32_t out = k == FK_ELWMUL ? dp_elwmul(a, b, za, zb, d, phase, m)
                                          : dp_elwadd(a, b, za, zb, d, add_dst, phase, m);
            dst_word_put(x, f, r.dst + i, j, out);
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

/* Sign-magnitude bits in a total order (-0 below +0). */
static inline int32_t total_order(uint32_t v) { return (int32_t)(v & 0x80000000u ? v ^ 0x7FFFFFFFu : v); }

/* GMPOOL the way the datapath does it when SrcB's row is all 1.0 (no scaling), without ArgMax
 * and not on FP16 data: per column, the largest of the Dst value and 16 SrcA values in
 * sign-magnitude total order, SrcA values with exponent 0 counting as +0, the Dst start value
 * of an FP32 Dst cut to TF32 and an undefined row as the minimum (all bits set); rows 1..3 of
 * the group become 0. False: the general model below applies. */
static bool gmpool_datapath(struct fpu_exec *x, struct rows r, enum fpu_style st, bool d32)
{
    const struct src_regs *s = &x->t->src;
    const struct src_bank *A = &s->bank[0][s->fpu_bank[0]], *B = &s->bank[1][s->fpu_bank[1]];
    if (x->in.argmax || st == FPU_STYLE_FP16 || st == FPU_STYLE_INT8 || x->cfg.fp16a_force)
        return false;
    for (unsigned i = 0; i < 16; i++)
        if ((B->cell[r.srcb][i] & 0x7FFFF) != 0x7F) /* 1.0: exponent 127, mantissa 0 */
            return false;
    const bool tf32 = op_class(x->cfg.srca_fmt) == OP_TF32;
    for (unsigned j = 0; j < 16; j++) {
        uint32_t max = d32 ? fmt_dst_to_fp32(fpu_dst_get(x, true, r.dst, j, 0xFFFFFFFFu)) & 0xFFFFE000u
                           : (uint32_t)fmt_dst_to_bf16((uint16_t)fpu_dst_get(x, false, r.dst, j, 0xFFFFu)) << 16;
        for (unsigned i = 0; i < 16; i++) {
            uint32_t c = A->cell[r.srca + i][j];
            uint32_t v = (c & 0x40000) << 13 | (c & 0xFF) << 23 | (c >> 8 & 0x3FF) << 13;
            if (!tf32)
                v &= 0xFFFF0000u;
            if (!(v & 0x7F800000u))
                v = 0;
            if (total_order(v) > total_order(max))
                max = v;
        }
        for (unsigned i = 0; i < 4; i++) {
            uint32_t w = i ? 0 : max;
            if (d32)
                fpu_dst_put(x, true, r.dst + i, j, fmt_dst_from_fp32(w));
            else
                fpu_dst_put(x, false, r.dst + i, j, fmt_dst_from_bf16((uint16_t)(w >> 16)));
        }
    }
    return true;
}

/* GMPOOL as WH:GMPOOL.md models it: SrcB scaling, ArgMax, FP16 and INT8 data (not in the
 * datapath model; docs/numerics.md). */
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
        if (!gmpool_datapath(x, r, st, d32))
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

void fpu_mvmul_plan(const struct fpu_exec *x, struct fpu_plan *p)
{
    enum fpu_style st;
    bool d32;
    fpu_math_style(x, &st, &d32);
    const struct fpu_cfg *c = &x->cfg;
    p->fast = st != FPU_STYLE_INT8 && c->srca_fmt != SRC_FMT_UNKNOWN && c->srcb_fmt != SRC_FMT_UNKNOWN;
    p->d32 = d32;
    p->bcast = x->in.bcast_row;
    p->nrows = p->bcast ? 7 : 8; /* rows_of */
    p->srcb_mask = p->bcast ? 0x3F : 0x38;
    p->dst_mask = (uint16_t)(0x400 - p->nrows);
    p->one_block = !c->dst_map.swizzle;
    p->cls_a = (uint8_t)op_class(c->srca_fmt);
    p->cls_b = (uint8_t)op_class(c->srcb_fmt);
    p->addr_mod = (uint8_t)x->in.addr_mod;
    p->flip_a = x->in.flip_a, p->flip_b = x->in.flip_b;
    p->dst_off = c->math_offset + c->regw_base; /* fpu_dst_base less the RWC and DstRow */
    p->mode = dp_mode_of(x, st, d32);
    p->rows_fn = dp_rows_for(x->t->fpu.simd, p->mode);
    p->dst_fn = dp_rows_dst_for(x->t->fpu.simd, p->mode);
}

bool fpu_exec_mvmul(struct fpu_exec *x, const struct fpu_plan *p, uint32_t w)
{
    const unsigned dst_row = w >> p->dst_lo & p->dst_field;
    struct fpu_state *u = &x->t->fpu;
    const struct fpu_rwc *rw = &u->rwc[x->th];
    const unsigned phase = (rw->fidelity + x->cfg.fidelity_base) & 3; /* fpu_phase */
    const struct rows r = {.nrows = p->nrows, .bcast = p->bcast, .srca = rw->srca & 0x38u,
                           .srcb = rw->srcb & p->srcb_mask, .dst = (dst_row + p->dst_off + rw->dst) & p->dst_mask};
    u->last_srca_row = (uint8_t)r.srca;
    matmul_float(x, (enum op_class)p->cls_a, (enum op_class)p->cls_b, p->mode, p->rows_fn, p->dst_fn,
                 phase, r);
    u->st.mul_phase[phase]++;
    fpu_flip(x, p->flip_a, p->flip_b);
    return true; /* the caller applies the ADDR_MOD */
}
