/* The matrix unit's data movement and clearing instructions, each following its page's
 * functional model: MOVD2A, MOVD2B (WH:MOVD2A.md, WH:MOVD2B.md), MOVA2D, MOVDBGA2D, MOVB2D
 * (WH:MOVA2D.md, WH:MOVDBGA2D.md, WH:MOVB2D.md), MOVB2A, ZEROACC, ZEROSRC, TRNSPSRCB, SHIFTXA and
 * SHIFTXB. LaneConfig's BLOCK_DEST_MOV belongs to the vector unit, which tensim does not model
 * yet: no lane is blocked. */
#include "fpu_internal.h"

#include "formats.h"

/* ---- Dst -> Src ---- */

static uint32_t shuffle_bf16(uint32_t x) { return ((x & 0xFF00u) << 3) | (x & 0xFFu); }
static uint32_t shuffle_fp16(uint32_t x) { return ((x & 0xFFE0u) << 3) | (x & 0x1Fu); }
/* Dst TF32 (Sign, HiMan7, Exp8, LoMan3 after >> 13) to Src TF32 (Sign, Man10, Exp8). The page
 * masks SignHiMan with 0x3fc000, which on a 19-bit value would drop three of the seven high
 * mantissa bits its own comment keeps; tensim keeps all eight bits (0x7f800), see docs/fpu.md. */
static uint32_t shuffle_tf32(uint32_t x)
{
    return (x & 0x7F800u) | ((x & 7u) << 8) | ((x & 0x7F8u) >> 3);
}

/* UseDst32b and the style MOVD2A / MOVD2B use (MOVD2B reads SrcAFmt too, as documented). */
static void movd2x_style(const struct fpu_exec *x, bool *dst32, enum fpu_style *st)
{
    if (x->cfg.fp16a_force) {
        *dst32 = false, *st = FPU_STYLE_FP16;
    } else {
        *dst32 = x->cfg.fp32_enabled || x->cfg.int8_math;
        *st = fpu_fmt_style(x->in.kind == FK_MOVD2B ? x->cfg.srcb_side_fmt : x->cfg.srca_fmt);
    }
}

void fpu_move_span(const struct fpu_exec *x, struct fpu_dst_span *s)
{
    enum fpu_style st;
    movd2x_style(x, &s->dst32, &st);
    s->n = x->in.rows;
    s->row0 = fpu_dst_base(x, x->in.dst_row) & (s->n == 4 ? 0x3FCu : 0x3FFu);
}

static bool mov_d2src(struct fpu_exec *x, unsigned which)
{
    struct tile *t = x->t;
    struct src_regs *s = &t->src;
    const struct fpu_rwc *rwc = &t->fpu.rwc[x->th];
    bool dst32;
    enum fpu_style st;
    movd2x_style(x, &dst32, &st);
    const bool four = x->in.rows == 4;
    unsigned drow = fpu_dst_base(x, x->in.dst_row) & (four ? 0x3FCu : 0x3FFu);
    unsigned srow = (x->in.src_row + (which ? rwc->srcb : rwc->srca)) & (four ? 0x3Cu : 0x3Fu);
    /* SHIFTXA's input block: MOVD2B computes no SrcA row; tensim takes the SrcA RWC */
    t->fpu.last_srca_row = (uint8_t)(which ? rwc->srca & 0x3F : srow);
    struct src_bank *dstbank = &s->bank[which][s->fpu_bank[which]];
    for (unsigned n = 0; n < x->in.rows; n++, drow++, srow++) {
        for (unsigned c = 0; c < 16; c++) {
            uint32_t v;
            if (dst32) {
                uint32_t d = fpu_dst_get(x, true, drow, c, 0);
                if (x->in.use_dst32_lo)
                    d = (d << 16) | (d & 0xFFFF);
                if (st == FPU_STYLE_BF16)
                    v = shuffle_bf16(d >> 16);
                else if (st == FPU_STYLE_FP16)
                    v = shuffle_fp16(d >> 16);
                else if (!x->in.use_dst32_lo)
                    v = shuffle_tf32(d >> 13);
                else
                    v = d & 0x1FFF;
            } else {
                uint32_t d = fpu_dst_get(x, false, drow, c, 0);
                if (x->in.use_dst32_lo)
                    return fpu_undef(x, which ? "MOVD2B with UseDst32bLo while Dst is 16-bit"
                                              : "MOVD2A with UseDst32bLo while Dst is 16-bit");
                if (st == FPU_STYLE_TF32)
                    return fpu_undef(x, which ? "MOVD2B of TF32 data from 16-bit Dst"
                                              : "MOVD2A of TF32 data from 16-bit Dst");
                v = st == FPU_STYLE_BF16 ? shuffle_bf16(d) : shuffle_fp16(d);
            }
            dstbank->cell[srow & 0x3F][c] = v & SRC_CELL_MASK;
            src_bank_written(dstbank);
        }
    }
    return true;
}

/* ---- Src -> Dst ---- */

static uint32_t remove_low_mantissa(uint32_t x)
{
    return ((x & (1u << 18)) >> 3) | ((x & (0x7Fu << 11)) >> 3) | (x & 0xFFu);
}
static uint32_t remove_high_exponent(uint32_t x)
{
    return ((x & (1u << 18)) >> 3) | ((x & (0x3FFu << 8)) >> 3) | (x & 0x1Fu);
}

static bool uses_8b_exponent(const struct fpu_cfg *c, unsigned fmt)
{
    return !c->fp16a_force && df_exp8(fmt);
}

/* One datum of MOVA2D / MOVB2D into Dst (the shared tail of both models). */
static void put_src_datum(struct fpu_exec *x, unsigned row, unsigned col, uint32_t v)
{
    const struct fpu_cfg *c = &x->cfg;
    const unsigned fmt = x->in.kind == FK_MOVB2D ? c->srcb_side_fmt : c->srca_fmt;
    if (!c->zero_flag_disabled_src && !(v & 0xFF))
        v = 0; /* FlushDenormals */
    uint32_t v16 = uses_8b_exponent(c, fmt) ? remove_low_mantissa(v) : remove_high_exponent(v);
    if (fmt == DF_TF32) {
        uint32_t low = ((v >> 8) & 7) << 13;
        if (x->in.use_dst32_lo)
            low |= v16;
        fpu_dst_put(x, true, row, col, v16 << 16 | (low & 0xFFFF));
    } else if (x->in.use_dst32_lo) {
        fpu_dst_put(x, true, row, col, (fpu_dst_get(x, true, row, col, 0) & 0xFFFF0000u) | v16);
    } else {
        fpu_dst_put(x, false, row, col, v16);
    }
}

static void mov_src2d(struct fpu_exec *x, unsigned which)
{
    struct tile *t = x->t;
    const struct src_regs *s = &t->src;
    const struct fpu_rwc *rwc = &t->fpu.rwc[x->th];
    const struct src_bank *b = &s->bank[which][s->fpu_bank[which]];
    const unsigned n = x->in.rows;
    const bool bcast = which && x->in.bcast_row; /* MOVB2D Broadcast1RowTo8 */
    unsigned drow = fpu_dst_base(x, x->in.dst_row) & (n == 8 ? 0x3F8u : n == 4 ? 0x3FCu : 0x3FFu);
    unsigned srow = (x->in.src_row + (which ? rwc->srcb : rwc->srca)) &
                    (bcast || n == 1 ? 0x3Fu : n == 8 ? 0x38u : 0x3Cu);
    /* SHIFTXA's input block (WH:SHIFTXA.md lists MOVA2D and MOVB2D, not MOVDBGA2D); MOVB2D computes
     * no SrcA row: tensim takes the SrcA RWC */
    if (which)
        t->fpu.last_srca_row = (uint8_t)(rwc->srca & 0x3F);
    else if (x->in.kind != FK_MOVDBGA2D)
        t->fpu.last_srca_row = (uint8_t)srow;
    for (unsigned k = 0; k < n; k++, drow++, srow += !bcast)
        for (unsigned c = 0; c < 16; c++)
            put_src_datum(x, drow, c, b->cell[srow & 0x3F][which && x->in.bcast_col0 ? 0 : c]);
}

/* ---- clearing ---- */

enum { ZEROACC_MODE_ONE_ROW, ZEROACC_MODE_16_ROWS, ZEROACC_MODE_HALF_OF_DST, ZEROACC_MODE_ALL_OF_DST };

/* Wormhole: WH:ZEROACC.md. */
static bool zeroacc_wh(struct fpu_exec *x)
{
    const struct fpu_insn *in = &x->in;
    struct dest *d = &x->t->dest;
    if (in->za_mode > ZEROACC_MODE_ALL_OF_DST)
        return tile_error(x->t, ERR_UNIMPLEMENTED, -1, 0,
                          "ZEROACC clear_mode %u (thread T%u): only modes 0..3 are documented",
                          in->za_mode, x->th);
    if (in->za_mode == ZEROACC_MODE_ONE_ROW) {
        unsigned row = fpu_dst_base(x, in->dst_row) & 0x3FF;
        fpu_dst_mark(x, x->cfg.fp32_enabled || x->cfg.int8_math, row, false);
    } else {
        if (in->za_revert)
            return fpu_undef(x, "ZEROACC with Revert set outside ZEROACC_MODE_ONE_ROW");
        if (in->za_mode == ZEROACC_MODE_16_ROWS) {
            unsigned imm = in->dst_row & 0xFF;
            if (in->za_dst32 ? imm < 32 : imm < 64)
                for (unsigned i = 0; i < 16; i++)
                    fpu_dst_mark(x, in->za_dst32, imm * 16 + i, false);
        } else {
            /* Dst16b rows 512..1023 and Dst32b rows 256..511 are the same DstBits rows */
            unsigned lo = in->za_mode == ZEROACC_MODE_ALL_OF_DST ? 0 : (in->dst_row & 1) * 512;
            unsigned hi = in->za_mode == ZEROACC_MODE_ALL_OF_DST ? 1024 : lo + 512;
            for (unsigned r = lo; r < hi; r++)
                d->row_valid[r] = false;
        }
    }
    if (in->za_mode <= ZEROACC_MODE_16_ROWS)
        fpu_apply_addr_mod(x, in->addr_mod);
    return true;
}

/* Blackhole has no ZEROACC page; tt-llk names the fields and ttsim (v1.10.0, the reference
 * where the pages are silent) gives the behaviour, which this follows:
 * - use_32_bit_mode joins clear_mode as its bit 2: modes 0 (one row, in the format Fp32_enabled
 *   picks), 1 (16 Dst16b rows), 5 (16 Dst32b rows), 2/6 (half), 3/7 (all); others unimplemented.
 * - Unless DEST_ACCESS_CFG_zeroacc_absolute_tile_mode is set, the 16-row modes follow the half
 *   of Dst that the thread's Dst offset (DEST_TARGET_REG_CFG_MATH_Offset + the Dst RWC) is in:
 *   mode 1 adds 32 blocks when the offset has bit 9, mode 5 adds 16 when it has bit 8 or 9.
 * - clear_zero_flags marks the rows defined instead of undefined, keeping their data: tt-llk's
 *   workaround for a Blackhole bug after an unpack to Dst (llk_math_eltwise_unary_datacopy.h).
 *   ttsim allows it only in mode 5; elsewhere it is undefined behaviour here. */
static bool zeroacc_bh(struct fpu_exec *x)
{
    const struct fpu_insn *in = &x->in;
    struct dest *d = &x->t->dest;
    const unsigned mode = in->za_mode | (unsigned)in->za_dst32 << 2, where = in->dst_row;
    const unsigned offset = x->cfg.math_offset + x->t->fpu.rwc[x->th].dst;
    const bool keep = in->za_revert;
    if (keep && mode != 5)
        return fpu_undef(x, "ZEROACC clear_zero_flags outside its 16-row 32-bit mode (clear_mode 5)");
    switch (mode) {
    case 0:
        fpu_dst_mark(x, x->cfg.fp32_enabled || x->cfg.int8_math, fpu_dst_base(x, where) & 0x3FF, false);
        break;
    case 1: case 5: {
        const bool d32 = mode == 5;
        unsigned block = where + (x->cfg.zeroacc_absolute ? 0 : d32 ? (offset & 768 ? 16 : 0)
                                                                    : (offset & 512 ? 32 : 0));
        if (block >= (d32 ? 32u : 64u))
            return fpu_undef(x, d32 ? "ZEROACC 32-bit 16-row block past the 32 of Dst"
                                    : "ZEROACC 16-row block past the 64 of Dst");
        for (unsigned i = 0; i < 16; i++)
            fpu_dst_mark(x, d32, block * 16 + i, keep);
        break;
    }
    case 2: case 6:
        if (where > 1)
            return fpu_undef(x, "ZEROACC half-of-Dst mode with where > 1");
        for (unsigned r = where * 512; r < where * 512 + 512; r++)
            d->row_valid[r] = false;
        break;
    case 3: case 7:
        if (where)
            return fpu_undef(x, "ZEROACC all-of-Dst mode with where != 0");
        for (unsigned r = 0; r < 1024; r++)
            d->row_valid[r] = false;
        break;
    default:
        return tile_error(x->t, ERR_UNIMPLEMENTED, -1, 0,
                          "ZEROACC clear_mode %u with use_32_bit_mode %u (thread T%u)", in->za_mode,
                          in->za_dst32, x->th);
    }
    if ((mode & 3) <= 1)
        fpu_apply_addr_mod(x, in->addr_mod);
    return true;
}

static bool zeroacc(struct fpu_exec *x)
{
    return tile_is_wormhole(x->t) ? zeroacc_wh(x) : zeroacc_bh(x);
}

static void zerosrc(struct fpu_exec *x)
{
    const uint32_t w = x->in.word;
    struct src_regs *s = &x->t->src;
    const bool neg_inf = TT_GET_ZEROSRC_NegativeInfSrcA(w),
               single_fpu = TT_GET_ZEROSRC_SingleBankMatrixUnit(w),
               both = TT_GET_ZEROSRC_BothBanks(w);
    for (unsigned k = 0; k < 2; k++) {
        if (!(k ? TT_GET_ZEROSRC_ClearSrcB(w) : TT_GET_ZEROSRC_ClearSrcA(w)))
            continue;
        for (unsigned bank = 0; bank < 2; bank++) {
            unsigned chosen = single_fpu ? s->fpu_bank[k] : s->unpack_bank[k];
            if (!both && bank != chosen)
                continue;
            uint32_t v = k == 0 && neg_inf ? SRC_CELL_MASK : 0;
            for (unsigned r = 0; r < SRC_ROWS; r++)
                for (unsigned c = 0; c < SRC_COLS; c++)
                    s->bank[k][bank].cell[r][c] = v;
            src_bank_written(&s->bank[k][bank]);
        }
    }
}

/* ---- shifts and transposes ---- */

static bool shiftxa(struct fpu_exec *x)
{
    struct src_bank *a = &x->t->src.bank[0][x->t->src.fpu_bank[0]];
    const unsigned dir = x->in.direction, in_row = x->t->fpu.last_srca_row & 0x30;
    if (dir != 2 && dir != 3)
        return fpu_undef(x, "SHIFTXA Direction 0 or 1 (only 2, right, and 3, left, exist)");
    uint32_t tmp[16][16];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 16; c++)
            tmp[i][c] = a->cell[in_row + i][c];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 16; c++) {
            if (dir == 2)
                a->cell[i][c] = c ? tmp[i][c - 1] : 0;
            else
                a->cell[i][c] = c < 15 ? tmp[i][c + 1] : 0;
        }
    src_bank_written(a);
    return true;
}

static void shiftxb(struct fpu_exec *x)
{
    struct src_bank *b = &x->t->src.bank[1][x->t->src.fpu_bank[1]];
    unsigned row = (x->in.src_row + x->t->fpu.rwc[x->th].srcb) & 0x3F;
    uint32_t col0 = b->cell[row][0];
    for (unsigned c = 0; c < 15; c++)
        b->cell[row][c] = b->cell[row][c + 1];
    b->cell[row][15] = x->in.shift_in_zero ? 0 : col0;
    src_bank_written(b);
    fpu_apply_addr_mod(x, x->in.addr_mod);
}

static void trnspsrcb(struct fpu_exec *x)
{
    struct src_bank *b = &x->t->src.bank[1][x->t->src.fpu_bank[1]];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < i; j++) {
            uint32_t ij = b->cell[16 + i][j];
            b->cell[16 + i][j] = b->cell[16 + j][i];
            b->cell[16 + j][i] = ij;
            src_bank_written(b);
        }
}

static void movb2a(struct fpu_exec *x)
{
    struct src_regs *s = &x->t->src;
    const struct fpu_rwc *rwc = &x->t->fpu.rwc[x->th];
    const bool four = x->in.rows == 4;
    unsigned ar = (x->in.src_row + rwc->srca) & (four ? 0x3Cu : 0x3Fu);
    unsigned br = (x->in.srcb_row + rwc->srcb) & (four ? 0x3Cu : 0x3Fu);
    x->t->fpu.last_srca_row = (uint8_t)ar;
    for (unsigned n = 0; n < x->in.rows; n++, ar++, br++)
        for (unsigned c = 0; c < 16; c++) {
            uint32_t v = s->bank[1][s->fpu_bank[1]].cell[br][c];
            if (!x->cfg.zero_flag_disabled_src && !(v & 0xFF))
                v = 0;
            s->bank[0][s->fpu_bank[0]].cell[ar][c] = v;
            src_bank_written(&s->bank[0][s->fpu_bank[0]]);
        }
}

bool fpu_exec_move(struct fpu_exec *x)
{
    switch (x->in.kind) {
    case FK_MOVD2A:
    case FK_MOVD2B:
        if (!mov_d2src(x, x->in.kind == FK_MOVD2B))
            return false;
        break;
    case FK_MOVA2D: case FK_MOVDBGA2D:
        mov_src2d(x, 0);
        break;
    case FK_MOVB2D:
        mov_src2d(x, 1);
        break;
    case FK_MOVB2A:
        movb2a(x);
        break;
    case FK_ZEROACC:
        return zeroacc(x);
    case FK_ZEROSRC:
        zerosrc(x);
        return true;
    case FK_TRNSPSRCB:
        trnspsrcb(x);
        return true;
    case FK_SHIFTXA:
        return shiftxa(x);
    case FK_SHIFTXB:
        shiftxb(x);
        return true;
    default:
        return tile_error(x->t, ERR_UNIMPLEMENTED, -1, 0, "matrix unit instruction kind %d",
                          (int)x->in.kind);
    }
    fpu_apply_addr_mod(x, x->in.addr_mod);
    return true;
}
