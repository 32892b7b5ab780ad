/* The unpackers' functional model: WH:UNPACR_Regular.md (the whole "Functional model" section,
 * followed line by line), WH:UNPACR_IncrementContextCounter.md, WH:UNPACR_FlushCache.md and the
 * WH:UNPACR_NOP_*.md pages; the Blackhole pages point at these. Timing and the unit interface
 * are in units/unpack_timing.c; docs/unpack.md lists the choices made where the pages are
 * silent.
 *
 * Split in time (see units/unpack.h): `unpack_issue` does the address generator's work when the
 * instruction passes the Wait Gate and keeps the result in a plan; `unpack_start` runs the main
 * loop (L1 reads, FormatConversion from units/formats.c, register writes) when the instruction
 * reaches the head of its unpacker and owns its bank; `unpack_finish` hands the bank over.
 *
 * Addresses: the model's byte addresses are doubles (BFP4 datums are half a byte). Here datum
 * and RLE addresses are kept in bits and the exponent address in sixteenths of a byte, so every
 * step of the model is exact integer arithmetic. */
#include "unpack.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/rules.h"
#include "../core/tile.h"
#include "../mem/map.h"
#include "unpack_internal.h"

/* ---- errors: every UndefinedBehaviour() of the pages stops the run ---- */

static bool undefined(struct tile *t, unsigned u, unsigned th, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool undefined(struct tile *t, unsigned u, unsigned th, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0, "UNPACR (unpacker %u, thread T%u): %s", u, th, msg);
    return false;
}

/* ---- configuration fields, by unpacker, for both architectures ----
 * The two THCON_SECn sections and UNPn groups have the same fields on both maps; these tables
 * hold their cfg_field_bh / cfg_field_wh indices so that the per-instruction path never looks a
 * field up by name. */
struct sec_fields {
    uint16_t desc, out_fmt, throttle, ctx_count, haloize, tileize, set_upd, if_sel, up_rate,
        ovrd_fmt, up_interleave, force_exp, limit, fifo;
    uint16_t shift[4], dzc[8], if_sel_cntx[8], in_cntx[8], out_cntx[8], base[8], offset[4],
        dest[4], xdim[4];
    uint16_t out_base, ystride, zstride, wstride, forced_exp;
};

#define CNTX4(P, N, R, F) {P##THCON_SEC##N##_##R##_##F##0, P##THCON_SEC##N##_##R##_##F##1, \
                           P##THCON_SEC##N##_##R##_##F##2, P##THCON_SEC##N##_##R##_##F##3}
#define CNTX8(P, N, R, F)                                                                    \
    {P##THCON_SEC##N##_##R##_##F##0, P##THCON_SEC##N##_##R##_##F##1,                         \
     P##THCON_SEC##N##_##R##_##F##2, P##THCON_SEC##N##_##R##_##F##3,                         \
     P##THCON_SEC##N##_##R##_##F##4, P##THCON_SEC##N##_##R##_##F##5,                         \
     P##THCON_SEC##N##_##R##_##F##6, P##THCON_SEC##N##_##R##_##F##7}
#define SEC_FIELDS(P, N)                                                                      \
    {                                                                                         \
        .desc = P##THCON_SEC##N##_REG0_TileDescriptor,                                        \
        .out_fmt = P##THCON_SEC##N##_REG2_Out_data_format,                                    \
        .throttle = P##THCON_SEC##N##_REG2_Throttle_mode,                                     \
        .ctx_count = P##THCON_SEC##N##_REG2_Context_count,                                    \
        .haloize = P##THCON_SEC##N##_REG2_Haloize_mode,                                       \
        .tileize = P##THCON_SEC##N##_REG2_Tileize_mode,                                       \
        .set_upd = P##THCON_SEC##N##_REG2_Unpack_Src_Reg_Set_Upd,                             \
        .if_sel = P##THCON_SEC##N##_REG2_Unpack_If_Sel,                                       \
        .up_rate = P##THCON_SEC##N##_REG2_Upsample_rate,                                      \
        .ovrd_fmt = P##THCON_SEC##N##_REG2_Ovrd_data_format,                                  \
        .up_interleave = P##THCON_SEC##N##_REG2_Upsample_and_interleave,                      \
        .force_exp = P##THCON_SEC##N##_REG2_Force_shared_exp,                                 \
        .limit = P##THCON_SEC##N##_REG2_Unpack_limit_address,                                 \
        .fifo = P##THCON_SEC##N##_REG2_Unpack_fifo_size,                                      \
        .shift = CNTX4(P, N, REG2, Shift_amount_cntx),                                        \
        .dzc = CNTX8(P, N, REG2, Disable_zero_compress_cntx),                                 \
        .if_sel_cntx = CNTX8(P, N, REG2, Unpack_if_sel_cntx),                                 \
        .in_cntx = CNTX8(P, N, REG7, Unpack_data_format_cntx),                                \
        .out_cntx = CNTX8(P, N, REG7, Unpack_out_data_format_cntx),                           \
        .base = {P##THCON_SEC##N##_REG3_Base_address, P##THCON_SEC##N##_REG3_Base_cntx1_address, \
                 P##THCON_SEC##N##_REG3_Base_cntx2_address,                                   \
                 P##THCON_SEC##N##_REG3_Base_cntx3_address,                                   \
                 P##THCON_SEC##N##_REG4_Base_cntx4_address,                                   \
                 P##THCON_SEC##N##_REG4_Base_cntx5_address,                                   \
                 P##THCON_SEC##N##_REG4_Base_cntx6_address,                                   \
                 P##THCON_SEC##N##_REG4_Base_cntx7_address},                                  \
        .offset = {P##THCON_SEC##N##_REG7_Offset_address,                                     \
                   P##THCON_SEC##N##_REG7_Offset_cntx1_address,                               \
                   P##THCON_SEC##N##_REG7_Offset_cntx2_address,                               \
                   P##THCON_SEC##N##_REG7_Offset_cntx3_address},                              \
        .dest = {P##THCON_SEC##N##_REG5_Dest_cntx0_address,                                   \
                 P##THCON_SEC##N##_REG5_Dest_cntx1_address,                                   \
                 P##THCON_SEC##N##_REG5_Dest_cntx2_address,                                   \
                 P##THCON_SEC##N##_REG5_Dest_cntx3_address},                                  \
        .xdim = CNTX4(P, N, REG5, Tile_x_dim_cntx),                                           \
        .out_base = P##UNP##N##_ADDR_BASE_REG_1_Base,                                         \
        .ystride = P##UNP##N##_ADDR_CTRL_XY_REG_1_Ystride,                                    \
        .zstride = P##UNP##N##_ADDR_CTRL_ZW_REG_1_Zstride,                                    \
        .wstride = P##UNP##N##_ADDR_CTRL_ZW_REG_1_Wstride,                                    \
        .forced_exp = P##UNP##N##_FORCED_SHARED_EXP_shared_exp,                               \
    }

static const struct sec_fields sec_bh[2] = {SEC_FIELDS(CFGF_BH_, 0), SEC_FIELDS(CFGF_BH_, 1)};
static const struct sec_fields sec_wh[2] = {SEC_FIELDS(CFGF_WH_, 0), SEC_FIELDS(CFGF_WH_, 1)};

/* One thread's view of the configuration: Config[StateID] (WH:UNPACR_Regular.md, first lines). */
struct view {
    const struct tile *t;
    const struct cfg_field_desc *tab;
    const struct sec_fields *s;
    unsigned bank, ab;
};

static struct view view_of(const struct tile *t, unsigned th, unsigned u)
{
    unsigned ab = tile_arch_bit(t);
    bool wh = ab == TT_ARCH_WH;
    return (struct view){t, wh ? cfg_fields_wh : cfg_fields_bh, wh ? &sec_wh[u] : &sec_bh[u],
                         thcfg_get(&t->cfg, th, THCFG_DESC(ab, CFG_STATE_ID_StateID)), ab};
}

static uint32_t get(const struct view *v, uint16_t id)
{
    return cfg_get(&v->t->cfg, v->bank, &v->tab[id]);
}
#define GETC(v, NAME) cfg_get(&(v)->t->cfg, (v)->bank, CFG_DESC((v)->ab, NAME))

/* ContextCounter[th] = from + 1, wrapping at 1 << Context_count (WH:UNPACR_Regular.md, end;
 * WH:UNPACR_IncrementContextCounter.md). */
static void advance_context(struct tile *t, const struct view *v, unsigned u, unsigned th,
                            unsigned from)
{
    unsigned next = (from + 1u) & 7;
    if (next >= 1u << get(v, v->s->ctx_count))
        next = 0;
    t->unpack.u[u].context_counter[th] = (uint8_t)next;
}

/* ---- L1 (the model's ReadL1Bytes; bounds are UndefinedBehaviour) ---- */

static bool l1_bits_ok(struct tile *t, unsigned u, unsigned th, uint64_t bit, unsigned nbits)
{
    uint64_t end = (uint64_t)t->arch->l1_size * 8;
    if (bit < end && nbits <= end - bit)
        return true;
    return undefined(t, u, th, "L1 read at byte address 0x%llx is outside L1 (%u KiB)",
                     (unsigned long long)(bit / 8), t->arch->l1_size / 1024);
}

/* Row start index entry: a little-endian uint16_t at byte address a. */
static bool read_rsi(struct tile *t, unsigned u, unsigned th, uint64_t a, uint32_t *v)
{
    if (!l1_bits_ok(t, u, th, a * 8, 16))
        return false;
    *v = t->l1[a] | (uint32_t)t->l1[a + 1] << 8;
    return true;
}

/* ---- issue ---- */

/* The bank handover shared by SETDVALID, UNPACR_NOP SETDVALID and FlipSrc: the SrcRow part
 * (this) happens at issue (it only steers later instructions), the AllowedClient part
 * (src_hand_over) when the instruction completes. */
static uint8_t unpack_src_row_base(const struct tile *t, unsigned th, unsigned u)
{
    return src_row_base(&t->cfg, tile_arch_bit(t), th, u);
}

/* Desired L1 speed in 128-bit reads per cycle (WH:UNPACR_Regular.md "Performance"). The forced
 * speeds win over Throttle_mode; where several constraints apply the slowest wins. */
static bool choose_speed(struct tile *t, unsigned u, unsigned th, const struct unpack_plan *p,
                         unsigned throttle, uint8_t *want)
{
    bool bfp2 = p->in_fmt == DF_BFP2 || p->in_fmt == DF_BFP2A;
    bool bfp4 = p->in_fmt == DF_BFP4 || p->in_fmt == DF_BFP4A;
    unsigned w;
    if (!p->uncompressed || p->upsample_zeroes >= 3 || bfp2) {
        w = 1;
    } else if (p->tilize) {
        w = 4;
    } else {
        if (throttle == 3)
            return undefined(t, u, th, "Throttle_mode 3 has no documented meaning "
                             "(0 = x1, 1 = x2, 2 = x4)");
        w = 1u << throttle;
        if ((p->upsample_zeroes == 1 || (p->mode.to_dst && bfp4)) && w > 2)
            w = 2;
    }
    *want = (uint8_t)w;
    return true;
}

static bool issue_unpacr(struct tile *t, unsigned th, uint32_t w, struct unpack_entry *e,
                         unsigned *startup)
{
    const unsigned u = TT_GET_UNPACR_WhichUnpacker(w);
    const bool mcm = TT_GET_UNPACR_MultiContextMode(w), use_cc = TT_GET_UNPACR_UseContextCounter(w),
               row_search = TT_GET_UNPACR_RowSearch(w);
    struct view v = view_of(t, th, u);
    const struct sec_fields *s = v.s;
    struct unpacker *up = &t->unpack.u[u];
    struct unpack_plan *p = &e->p;

    /* Context and ADC selection */
    unsigned ctx = 0, adc_th = th;
    if (mcm) {
        ctx = use_cc ? up->context_counter[th] : TT_GET_UNPACR_ContextNumber(w);
        ctx += u ? thcfg_get(&t->cfg, th, THCFG_DESC(v.ab, UNPACK_MISC_CFG_CfgContextOffset_1))
                 : thcfg_get(&t->cfg, th, THCFG_DESC(v.ab, UNPACK_MISC_CFG_CfgContextOffset_0));
        ctx &= 7; /* uint3_t */
        adc_th = TT_GET_UNPACR_ContextADC(w);
        if (u == 1 && ctx >= 2)
            return undefined(t, u, th, "unpacker 1 has only contexts 0 and 1 (context %u)",
                             ctx);
        if (adc_th == 3)
            return undefined(t, u, th, "ContextADC 3 names no thread's ADCs");
    }

    /* Tile descriptor: 128 bits in four consecutive Config words (WH:UNPACR_Regular.md
     * "Configuration") */
    const uint32_t *d = &t->cfg.cfg[v.bank][v.tab[s->desc].word];
    const unsigned desc_in = d[0] & 0xF;
    const bool desc_uncompressed = d[0] >> 4 & 1, no_bfp_exp = d[0] >> 5 & 1;
    const unsigned blobs = d[0] >> 8 & 7;
    unsigned ydim = d[1] & 0xFF;
    const unsigned zdim = (d[1] >> 16 & 0xFF) ? (d[1] >> 16 & 0xFF) : 1;
    const unsigned wdim = (d[2] & 0xFF) ? (d[2] & 0xFF) : 1;
    const uint32_t desc_blobs_y = d[2] >> 16 | (d[3] & 0xFFFF) << 16;
    const unsigned digest = d[3] >> 24;

    p->uncompressed = mcm ? get(&v, s->dzc[ctx]) : desc_uncompressed;
    const uint32_t xdim = mcm && u == 0 ? get(&v, s->xdim[ctx & 3]) : d[0] >> 16;
    if (mcm && get(&v, s->ovrd_fmt)) {
        p->in_fmt = (uint8_t)get(&v, s->in_cntx[ctx]);
        p->out_fmt = (uint8_t)get(&v, s->out_cntx[ctx]);
    } else {
        p->in_fmt = (uint8_t)desc_in;
        p->out_fmt = (uint8_t)get(&v, s->out_fmt);
    }
    p->dst32 = df_dst_is_32b(p->out_fmt);
    p->datum_bits = (uint8_t)df_datum_bits(p->in_fmt);
    if (!p->datum_bits)
        return undefined(t, u, th, "InDataFormat 0x%X names no format", p->in_fmt);

    /* Input addresses */
    uint32_t in_addr = mcm && ctx ? get(&v, s->base[ctx]) + (get(&v, s->offset[ctx & 3]) & 0xFFFF)
                                  : get(&v, s->base[0]) + (get(&v, s->offset[0]) & 0xFFFF);
    in_addr = (in_addr + 1 + digest) * 16; /* skip the tile header */
    uint64_t addr = in_addr, row_start = 0;
    if (!p->uncompressed) {
        row_start = addr;
        uint64_t n = blobs ? (uint64_t)blobs * zdim * wdim : (uint64_t)ydim * zdim * wdim;
        addr += ((n + 1) * 2 + 15) / 16 * 16;
    }
    uint64_t exp_addr = 0;
    const bool bfp = df_is_bfp(p->in_fmt), force = get(&v, s->force_exp);
    p->has_exp = bfp && !force;
    p->forced_exp = (uint8_t)get(&v, s->forced_exp);
    if (p->has_exp) {
        exp_addr = addr;
        addr += df_exp_section_bytes(p->in_fmt, (size_t)xdim * ydim * zdim * wdim, no_bfp_exp, false);
    }

    /* First datum and datum count, from the ADCs */
    const struct adc_channel *xy = &t->adc[adc_th].unpack[u].ch[0];
    const struct adc_channel *zw = &t->adc[th].unpack[u].ch[0];
    const uint32_t ch1x = t->adc[adc_th].unpack[u].ch[1].v[ADC_X];
    const uint32_t X = xy->v[ADC_X], Y = xy->v[ADC_Y], Z = zw->v[ADC_Z], W = zw->v[ADC_W];
    uint32_t first, num, drop = 0, dnum = UINT32_MAX;
    if (p->uncompressed) {
        uint32_t xpos, ypos, xend;
        if (!row_search) {
            xpos = X, ypos = Y, xend = ch1x + 1;
        } else if (blobs) {
            uint32_t bys = mcm && u == 0
                ? ((ctx & 2) ? GETC(&v, UNP0_BLOBS_Y_START_CNTX_23_blobs_y_start)
                             : GETC(&v, UNP0_BLOBS_Y_START_CNTX_01_blobs_y_start))
                : desc_blobs_y;
            xpos = (bys >> 4 * (Y & 7) & 0xF) << 4;
            ypos = 0;
            unsigned x71 = (X & 7) + 1;
            if (x71 == blobs)
                xend = xdim & 0x1F0;
            else if (x71 > 7)
                return undefined(t, u, th, "RowSearch reads BlobsYStart[8] (ADC X %u, "
                                 "BlobsPerXYPlane %u)", X, blobs);
            else
                xend = (bys >> 4 * x71 & 0xF) << 4;
        } else {
            xpos = 0, ypos = Y, xend = ch1x;
        }
        first = ((W * zdim + Z) * ydim + ypos) * xdim + xpos;
        if (xend < xpos)
            return undefined(t, u, th, "the row ends (X %u) before it starts (X %u)",
                             xend, xpos);
        num = xend - xpos;
    } else {
        if (row_search && blobs)
            ydim = blobs;
        row_start += (uint64_t)((W * zdim + Z) * ydim) * 2;
        uint32_t end;
        if (!read_rsi(t, u, th, row_start + 2 * (Y & 0xFF), &first))
            return false;
        if (row_search || (X == 0 && ch1x == xdim - 1)) {
            unsigned k = row_search ? (X & 0xFF) + 1 : (Y & 0xFF) + 1;
            if (!read_rsi(t, u, th, row_start + 2 * k, &end))
                return false;
            if (end < first)
                return undefined(t, u, th, "row start index %u is below the previous "
                                 "one (%u)", end, first);
            num = end - first;
        } else {
            drop = X;
            if (ch1x + 1 < drop)
                return undefined(t, u, th, "ADC X %u lies past the row end %u", X, ch1x);
            dnum = ch1x + 1 - drop;
            num = UINT32_MAX;
        }
    }
    p->input_num = num, p->decompress_drop = drop, p->decompress_num = dnum;

    const uint64_t db = p->datum_bits;
    p->datum_bit = addr * 8;
    p->exp_pos = exp_addr * 16 + first;
    if (p->uncompressed) {
        p->datum_bit += (uint64_t)first * db;
    } else {
        p->datum_bit += (uint64_t)(first / 32) * (32 * db + 128);
        p->delta_bit = p->datum_bit + 32 * db + (uint64_t)(first % 32) * 4;
        p->datum_bit += (uint64_t)(first % 32) * db;
    }
    p->limit_bytes = (uint64_t)get(&v, s->limit) * 16;
    p->fifo_bytes = (uint64_t)get(&v, s->fifo) * 16;
    if (p->has_exp && p->exp_pos > p->limit_bytes * 16)
        p->exp_pos -= p->fifo_bytes * 16;
    if (p->datum_bit > p->limit_bytes * 8)
        p->datum_bit -= p->fifo_bytes * 8;
    if (!p->uncompressed && p->delta_bit > p->limit_bytes * 8)
        p->delta_bit -= p->fifo_bytes * 8;

    p->tilize = get(&v, s->tileize);
    p->row_datums = v.ab == TT_ARCH_BH && p->tilize && db >= 16 ? 32 : 16;
    p->row_stride_bits = p->tilize ? 8ull * (get(&v, s->shift[0]) << 4 | get(&v, s->shift[1]) << 8 |
                                             get(&v, s->shift[2]) << 12)
                                   : db * p->row_datums;

    /* Output address */
    if (u == 0) {
        p->mode.to_dst = mcm ? get(&v, s->if_sel_cntx[ctx]) : get(&v, s->if_sel);
        p->transpose = get(&v, s->haloize);
    }
    const struct adc_channel *o = &t->adc[th].unpack[u].ch[1];
    uint32_t out = get(&v, s->out_base) + o->v[ADC_Y] * get(&v, s->ystride) +
                   o->v[ADC_Z] * get(&v, s->zstride) + o->v[ADC_W] * get(&v, s->wstride);
    if (df_dst_is_32b(p->out_fmt)) {
        if (out & 3)
            return undefined(t, u, th, "output address %u is not a multiple of 4 for "
                             "OutDataFormat %s", out, df_name(p->out_fmt));
        out >>= 2;
    } else if (p->out_fmt == DF_FP16 || p->out_fmt == DF_BF16 || p->out_fmt == DF_INT16) {
        if (out & 1)
            return undefined(t, u, th, "output address %u is odd for OutDataFormat %s",
                             out, df_name(p->out_fmt));
        out >>= 1;
    }
    if (mcm && u == 0) {
        uint32_t ctx_out = get(&v, s->dest[ctx & 3]);
        bool add = p->mode.to_dst || GETC(&v, UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr);
        out = add ? out + ctx_out : ctx_out;
    }
    p->out_addr = out;
    p->upsample_zeroes = (uint8_t)((1u << get(&v, s->up_rate)) - 1);
    p->upsample_interleave = get(&v, s->up_interleave);
    p->col_shift = p->tilize || u == 1 ? 0 : (uint8_t)get(&v, s->shift[ctx & 3]);

    /* Settings that may not be combined */
    if ((p->transpose || p->tilize) && p->datum_bit % 128)
        return undefined(t, u, th, "%s needs the datums to start on a 16-byte "
                         "boundary (address 0x%llx)", p->transpose ? "transpose (Haloize_mode)"
                                                                   : "tilize (Tileize_mode)",
                         (unsigned long long)(p->datum_bit / 8));
    if (p->tilize && (p->upsample_zeroes || !p->uncompressed))
        return undefined(t, u, th, "tilize (Tileize_mode) with %s",
                         p->upsample_zeroes ? "upsampling" : "compressed input");
    if (p->mode.to_dst && (p->col_shift || p->transpose))
        return undefined(t, u, th, "unpacking to Dst with %s",
                         p->col_shift ? "a column shift (Shift_amount_cntx)"
                                      : "transpose (Haloize_mode)");

    /* Conversion switches (WH:UNPACR_Regular.md FormatConversion; BH E4M3: docs/formats.md) */
    p->mode.int8_unsigned = u ? GETC(&v, ALU_FORMAT_SPEC_REG0_SrcBUnsigned)
                              : GETC(&v, ALU_FORMAT_SPEC_REG0_SrcAUnsigned);
    p->mode.fp8_ones_fill = v.ab == TT_ARCH_BH;
    if (v.ab == TT_ARCH_BH)
        p->mode.fp8_e4m3 = get(&v, u ? CFGF_BH_THCON_SEC1_REG1_Unp_LF8_4b_exp
                                     : CFGF_BH_THCON_SEC0_REG1_Unp_LF8_4b_exp);
    p->all_zero = TT_GET_UNPACR_AllDatumsAreZero(w);
    p->flip_src = TT_GET_UNPACR_FlipSrc(w);
    p->set_ovrd = thcfg_get(&t->cfg, th, THCFG_DESC(v.ab, SRCA_SET_SetOvrdWithAddr));
    if (!choose_speed(t, u, th, p, get(&v, s->throttle), &e->want))
        return false;

    /* Counter updates "in preparation for next instruction", made now so that it sees them */
    if (mcm && use_cc)
        advance_context(t, &v, u, th, ctx); /* WhichContext, offset included */
    for (unsigned i = 0; i < 3; i++) {
        if (i != th && i != adc_th)
            continue;
        struct adc *a = &t->adc[i].unpack[u];
        adc_inc(a, 0, ADC_Y, TT_GET_UNPACR_Ch0YInc(w));
        adc_inc(a, 0, ADC_Z, TT_GET_UNPACR_Ch0ZInc(w));
        adc_inc(a, 1, ADC_Y, TT_GET_UNPACR_Ch1YInc(w));
        adc_inc(a, 1, ADC_Z, TT_GET_UNPACR_Ch1ZInc(w));
    }
    uint8_t *row = &t->src.src_row[u][th];
    p->src_row = *row;
    if (p->flip_src)
        *row = unpack_src_row_base(t, th, u);
    else if (get(&v, s->set_upd))
        *row = (uint8_t)((*row + 16 + unpack_src_row_base(t, th, u)) & 0x3F);

    e->kind = UK_UNPACR;
    *startup = UNPACK_STARTUP + (p->uncompressed ? 0 : UNPACK_STARTUP_COMPRESSED_EXTRA);
    return true;
}

/* Blackhole's UNPACR_NOP: only tt-llk's field list is known (spec/instructions.md); its
 * Unpack_Pop selects the operation (0 stream pop, 1 clear Src, 2 NOP, 3 stream pop with an
 * explicit stream), Src_ClrVal_Ctrl the clear value (0 zero, 1 -inf, 2 one, 3 immediate),
 * Bank_Clr_Ctrl both banks, Stall_Clr_Cntrl waiting like an UNPACR, Set_Dvalid a hand-over after
 * the operation. docs/unpack.md explains the reading. */
static bool issue_nop_bh(struct tile *t, unsigned th, uint32_t w, struct unpack_entry *e)
{
    const unsigned u = TT_GET_UNPACR_NOP_BH_Unpacker_Select(w);
    const unsigned pop = TT_GET_UNPACR_NOP_BH_Unpack_Pop(w);
    const unsigned clr = TT_GET_UNPACR_NOP_BH_Src_ClrVal_Ctrl(w);
    const unsigned set_dvalid = TT_GET_UNPACR_NOP_BH_Set_Dvalid(w);
    if (pop == 0 || pop == 3)
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "UNPACR_NOP overlay stream pop (unpacker %u, thread T%u): NoC overlay "
                          "streams are not modelled", u, th);
    if (set_dvalid > 1)
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "UNPACR_NOP Set_Dvalid 0x%X (unpacker %u, thread T%u): only bit 0 has "
                          "a known meaning", set_dvalid, u, th);
    if (pop == 1) {
        if (clr >= 2)
            return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                              "UNPACR_NOP clear to %s (unpacker %u, thread T%u): the values are "
                              "not documented", clr == 2 ? "one" : "an immediate", u, th);
        e->kind = UK_CLEAR;
        e->clear_val = clr == 1 && u == 0 ? SRC_CELL_MASK : 0;
        e->both_banks = TT_GET_UNPACR_NOP_BH_Bank_Clr_Ctrl(w);
        e->wait_like_unpacr = TT_GET_UNPACR_NOP_BH_Stall_Clr_Cntrl(w);
        e->then_setdvalid = set_dvalid & 1;
    } else {
        e->kind = set_dvalid ? UK_SETDVALID : UK_OCCUPY;
    }
    if (set_dvalid) {
        t->src.src_row[u][th] = unpack_src_row_base(t, th, u);
        struct view v = view_of(t, th, u);
        e->dvalid_fmt = (uint8_t)get(&v, v.s->out_fmt); /* UNPACR_NOP_SETDVALID.md (BH arm) */
    }
    return true;
}

/* Every unpacker form names its unpacker in bit [23]: WhichUnpacker (WH:UNPACR.md,
 * WH:UNPACR_NOP.md), Unpacker_Select in Blackhole's UNPACR_NOP (tt-llk). UNPACR's accessor reads
 * it for all. */
#define SAME_U(form) TT_SAME_BITS(UNPACR_WhichUnpacker, form##_WhichUnpacker)
_Static_assert(SAME_U(UNPACR_INC_CONTEXT_COUNTER) && SAME_U(UNPACR_FLUSH_CACHE) &&
                   SAME_U(UNPACR_NOP_ZEROSRC) && SAME_U(UNPACR_NOP_NOP) &&
                   SAME_U(UNPACR_NOP_SETREG) &&
                   SAME_U(UNPACR_NOP_OVERLAY_CLEAR0) && SAME_U(UNPACR_NOP_OVERLAY_CLEAR3) &&
                   SAME_U(UNPACR_NOP_SETDVALID) &&
                   TT_SAME_BITS(UNPACR_WhichUnpacker, UNPACR_NOP_BH_Unpacker_Select),
               "every unpacker form has its unpacker select in bit 23");

bool unpack_issue(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f,
                  struct unpack_entry *e, unsigned *startup)
{
    const unsigned u = TT_GET_UNPACR_WhichUnpacker(w);
    *startup = 0;
    e->kind = UK_OCCUPY;
    e->word = w;
    e->origin = t->lint ? t->issue_origin : 0;
    switch ((enum tt_form_id)(f - tt_forms)) {
    case TT_FORM_UNPACR:
        return issue_unpacr(t, th, w, e, startup);
    case TT_FORM_UNPACR_INC_CONTEXT_COUNTER: {
        /* WH:UNPACR_IncrementContextCounter.md: the counter, not offset by CfgContextOffset */
        struct view v = view_of(t, th, u);
        advance_context(t, &v, u, th, t->unpack.u[u].context_counter[th]);
        return true;
    }
    case TT_FORM_UNPACR_FLUSH_CACHE:
        /* WH:UNPACR_FlushCache.md: the row-start cache is not modelled, so nothing to flush */
        return true;
    case TT_FORM_UNPACR_NOP_BH:
        return issue_nop_bh(t, th, w, e);
    case TT_FORM_UNPACR_NOP_ZEROSRC:
        e->kind = UK_CLEAR;
        e->wait_like_unpacr = TT_GET_UNPACR_NOP_ZEROSRC_WaitLikeUnpacr(w);
        e->both_banks = TT_GET_UNPACR_NOP_ZEROSRC_BothBanks(w);
        e->clear_val = TT_GET_UNPACR_NOP_ZEROSRC_NegativeInfSrcA(w) && u == 0 ? SRC_CELL_MASK : 0;
        return true;
    case TT_FORM_UNPACR_NOP_NOP:
        return true;
    case TT_FORM_UNPACR_NOP_SETREG:
        e->kind = UK_SETREG;
        e->setreg_word = w;
        return true;
    case TT_FORM_UNPACR_NOP_SETDVALID:
        e->kind = UK_SETDVALID;
        e->dvalid_fmt = 0;
        t->src.src_row[u][th] = unpack_src_row_base(t, th, u);
        return true;
    case TT_FORM_UNPACR_NOP_OVERLAY_CLEAR0:
    case TT_FORM_UNPACR_NOP_OVERLAY_CLEAR3:
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "UNPACR_NOP OverlayClear (unpacker %u, thread T%u): NoC overlay streams "
                          "(STREAM_MSG_DATA_CLEAR_REG_INDEX) are not modelled", u, th);
    default:
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "%s (unpacker), thread T%u", f->mnemonic, th);
    }
}

/* ---- start ---- */

bool unpack_needs_bank(const struct tile *t, unsigned u, const struct unpack_entry *e, bool *owned)
{
    const struct src_regs *s = &t->src;
    unsigned bank;
    switch (e->kind) {
    case UK_UNPACR:
        /* The write loop waits before each datum; with no datums there is no wait. */
        if (!e->p.input_num || !e->p.decompress_num)
            return false;
        bank = s->unpack_bank[u];
        break;
    case UK_CLEAR:
        bank = e->wait_like_unpacr ? s->unpack_bank[u] : s->fpu_bank[u];
        break;
    default:
        return false;
    }
    *owned = s->bank[u][bank].client == SRC_CLIENT_UNPACKERS;
    return true;
}

/* One output position of the main loop: the SrcA/SrcB/Dst part of WH:UNPACR_Regular.md. */
static bool write_out(struct tile *t, unsigned u, const struct unpack_entry *e, unsigned bank,
                      struct dest_map dm, uint32_t out, uint32_t cell)
{
    const struct unpack_plan *p = &e->p;
    uint32_t row = out / 16, col = out & 15;
    if (u == 1) {
        row = (row + p->src_row) & 0x3F;
        t->src.bank[1][bank].cell[row][col] = cell & SRC_CELL_MASK;
        src_bank_written(&t->src.bank[1][bank]);
        return true;
    }
    if (!p->mode.to_dst) {
        if (row < 4 || col < p->col_shift)
            return true;
        row -= 4;
        col -= p->col_shift;
        if (p->set_ovrd ? row >= 64 : row >= 16)
            return undefined(t, u, e->thread, "SrcA row %u (output address %u) is past "
                             "row %u", row, out, p->set_ovrd ? 63 : 15);
        if (!p->set_ovrd)
            row += p->src_row;
        if (p->transpose) {
            uint32_t low = row & 15;
            row = (row & ~15u) | col;
            col = low;
        }
        if (row >= 64)
            return undefined(t, u, e->thread, "SrcA row %u (SrcRow %u + %u) is past row "
                             "63", row, p->src_row, row - p->src_row);
        t->src.bank[0][bank].cell[row][col] = cell & SRC_CELL_MASK;
        src_bank_written(&t->src.bank[0][bank]);
        return true;
    }
    row = (row - 4) & (p->set_ovrd ? 15u : 0x3FFu);
    const bool d32 = p->dst32;
    const unsigned ph = dest_phys(dm, d32, row);
    if (d32) {
        dest_put32_at(&t->dest, ph, col, cell);
        t->unpack.dst_cols[ph + 8] |= (uint16_t)(1u << col);
    } else {
        t->dest.bits[ph][col] = (uint16_t)cell;
    }
    t->unpack.dst_cols[ph] |= (uint16_t)(1u << col);
    return true;
}

/* Rows the instruction wrote become valid; writing only some columns of a row that was not
 * valid is UndefinedBehaviour (WH:ZEROACC.md). Clears the scratch either way. */
static bool dst_rows_done(struct tile *t, unsigned u, unsigned th)
{
    bool ok = true;
    for (unsigned r = 0; r < DEST_ROWS; r++) {
        uint16_t c = t->unpack.dst_cols[r];
        if (!c)
            continue;
        t->unpack.dst_cols[r] = 0;
        if (!t->dest.row_valid[r] && c != 0xFFFF && ok)
            ok = undefined(t, u, th, "Dst row %u was not valid and only columns "
                           "mask 0x%04X of it were written", r, c);
        t->dest.row_valid[r] = true;
    }
    return ok;
}

/* fmt_read_datum for the datum holding L1 bit `bit` of `db`-bit datums (2, 4, 8, 16 or 32),
 * inline: the unpacker knows the width once per instruction. */
static inline uint32_t read_datum(const uint8_t *l1, uint64_t bit, unsigned db)
{
    bit &= ~(uint64_t)(db - 1); /* the datum's first bit, as fmt_read_datum's index * bits */
    if (db >= 8)
        return le_get(l1 + bit / 8, db / 8);
    return (uint32_t)(l1[bit / 8] >> (bit % 8)) & ((1u << db) - 1);
}

/* Where run_unpacr's main loop is: the fast rows below stop at any datum they do not handle
 * and the loop of the model goes on from there. */
struct unpack_cursor {
    uint64_t datum_bit;
    uint64_t blk;   /* the 128-bit line last read */
    uint64_t reads; /* 128-bit datum lines read */
    uint32_t out, dnum, i, in_row;
};

/* The common case, whole input rows at a time, with the same results and counts as the model's
 * loop: uncompressed 16-bit BF16, FP16 or INT16 data into SrcA or SrcB, no exponents, no
 * DecompressDrop, no upsampling, no AllDatumsAreZero, no transpose; a row that
 * lies in L1 and whose writes are all defined. Anything else (and every error) is left to the
 * model's loop from where this stopped. (Profile of tt-llk math_matmul_perf: the model's loop
 * took about 170 host instructions per datum, 31% of the run.) */
static bool fast_rows_apply(const struct unpack_plan *p, bool pair_ok)
{
    return pair_ok && p->uncompressed && !df_is_bfp(p->in_fmt) && !p->all_zero &&
           !p->decompress_drop && !p->upsample_zeroes && !p->mode.to_dst && !p->transpose &&
           p->datum_bits == 16 &&
           (p->in_fmt == DF_BF16 || p->in_fmt == DF_FP16 || p->in_fmt == DF_INT16);
}

/* The Src cell of a 16-bit datum (formats.c's fmt_unpack_datum for these three into Src). */
static inline uint32_t src_cell16(unsigned fmt, uint32_t d)
{
    return fmt == DF_BF16   ? fmt_src_from_bf16((uint16_t)d)
           : fmt == DF_FP16 ? fmt_src_from_fp16((uint16_t)d)
                            : fmt_src_from_int16((uint16_t)d);
}

/* 16 little-endian 16-bit datums into a Src row, one loop per format (vectorised). */
static inline void row16_as(uint32_t *restrict row, const uint8_t *restrict src, unsigned fmt)
{
    for (unsigned k = 0; k < 16; k++)
        row[k] = src_cell16(fmt, (uint32_t)src[2 * k] | (uint32_t)src[2 * k + 1] << 8) & SRC_CELL_MASK;
}

static void row16(uint32_t *restrict row, const uint8_t *restrict src, unsigned fmt)
{
    switch (fmt) {
    case DF_BF16: row16_as(row, src, DF_BF16); break;
    case DF_FP16: row16_as(row, src, DF_FP16); break;
    default: row16_as(row, src, DF_INT16); break;
    }
}

/* SrcA's row for output row `orow` (write_out's rules), or -1: skipped (the first four rows and
 * columns below ColShift are not written); -2: an undefined write (left to the model). */
static int srca_row(const struct unpack_plan *p, uint32_t orow)
{
    if (orow < 4)
        return -1;
    orow -= 4;
    if (p->set_ovrd ? orow >= 64 : orow >= 16)
        return -2;
    if (!p->set_ovrd)
        orow += p->src_row;
    return orow < 64 ? (int)orow : -2;
}

static void fast_rows(struct tile *t, unsigned u, const struct unpack_plan *p, unsigned bank,
                      struct unpack_cursor *c)
{
    const uint64_t end = (uint64_t)t->arch->l1_size * 8;
    const unsigned fmt = p->in_fmt;
    struct src_bank *b = &t->src.bank[u][bank];
    bool wrote = false;
    while (c->i < p->input_num && c->dnum) {
        uint32_t n = p->row_datums - c->in_row; /* to the end of the input row */
        n = n < p->input_num - c->i ? n : p->input_num - c->i;
        n = n < c->dnum ? n : c->dnum;
        const uint64_t nb = (uint64_t)n * 16;
        /* (16-bit aligned always: the address is in 16-byte units, and `first`, the row stride
         * and the FIFO's limit and size keep it so) */
        if (c->datum_bit >= end || nb > end - c->datum_bit)
            break;
        /* every output row this input row reaches must be defined (rows only grow) */
        const uint32_t last = c->out + n - 1;
        if (u == 0 && srca_row(p, last / 16) == -2)
            break;
        const uint64_t first_line = c->datum_bit / 128, last_line = (c->datum_bit + nb - 1) / 128;
        c->reads += last_line - first_line + (first_line != c->blk);
        c->blk = last_line;
        const uint8_t *src = t->l1 + c->datum_bit / 8;
        const int whole = n == 16 && c->out % 16 == 0 && (u == 1 || !p->col_shift)
                              ? (u == 1 ? (int)((c->out / 16 + p->src_row) & 0x3F) : srca_row(p, c->out / 16))
                              : -1;
        if (whole >= 0) { /* one whole Src row: the format's conversion over 16 datums */
            row16(b->cell[whole], src, fmt);
            wrote = true;
        }
        for (uint32_t k = whole >= 0 ? n : 0; k < n; k++) {
            const uint32_t out = c->out + k, col = out & 15;
            const uint32_t cell = src_cell16(fmt, (uint32_t)src[2 * k] | (uint32_t)src[2 * k + 1] << 8);
            if (u == 1) {
                b->cell[(out / 16 + p->src_row) & 0x3F][col] = cell & SRC_CELL_MASK;
            } else {
                const int row = srca_row(p, out / 16);
                if (row < 0 || col < p->col_shift)
                    continue;
                b->cell[row][col - p->col_shift] = cell & SRC_CELL_MASK;
            }
            wrote = true;
        }
        c->out += n, c->i += n, c->dnum -= n;
        c->datum_bit += nb;
        if ((c->in_row += n) == p->row_datums) {
            c->in_row = 0;
            c->datum_bit = c->datum_bit - 16u * p->row_datums + p->row_stride_bits;
            if (c->datum_bit > p->limit_bytes * 8)
                c->datum_bit -= p->fifo_bytes * 8;
        }
    }
    if (wrote)
        src_bank_written(b);
}

static bool run_unpacr(struct tile *t, unsigned u, struct unpack_entry *e)
{
    const struct unpack_plan *p = &e->p;
    const unsigned th = e->thread, bank = t->src.unpack_bank[u];
    const uint64_t db = p->datum_bits;
    /* the format pair, once (a bad one fails at the first datum as before) */
    const bool pair_ok = fmt_check_pair(p->in_fmt, p->out_fmt, p->mode.to_dst) == FMT_OK;
    const uint64_t lim8 = p->limit_bytes * 8, fifo8 = p->fifo_bytes * 8;
    const bool bfp = df_is_bfp(p->in_fmt);
    const struct dest_map dm = dest_map_of(t); /* DEST_ACCESS_CFG, as this instruction runs */
    struct unpack_cursor c = {.datum_bit = p->datum_bit, .blk = UINT64_MAX, .out = p->out_addr,
                              .dnum = p->decompress_num};
    if (!t->unpack.model_loop_only && fast_rows_apply(p, pair_ok))
        fast_rows(t, u, p, bank, &c);
    uint64_t delta_bit = p->delta_bit, exp_pos = p->exp_pos;
    uint64_t dblk = UINT64_MAX, eblk = UINT64_MAX, ereads = 0;
    uint32_t drop = p->decompress_drop;
    bool ok = true;

    while (ok && c.i < p->input_num && c.dnum) {
        /* the datum, from the bandwidth-limited port: count each new 128-bit line */
        if (!(ok = l1_bits_ok(t, u, th, c.datum_bit, (unsigned)db)))
            break;
        if (c.datum_bit / 128 != c.blk)
            c.blk = c.datum_bit / 128, c.reads++;
        uint32_t datum = read_datum(t->l1, c.datum_bit, (unsigned)db);
        c.datum_bit += db;
        ++c.i;
        if (++c.in_row == p->row_datums) { /* i % row_datums == 0, without the division */
            c.in_row = 0;
            c.datum_bit = c.datum_bit - db * p->row_datums + p->row_stride_bits;
            if (c.datum_bit > lim8)
                c.datum_bit -= fifo8;
        }
        uint8_t exp = 0;
        if (bfp && !p->has_exp) {
            exp = p->forced_exp;
        } else if (bfp) {
            if (!(ok = l1_bits_ok(t, u, th, exp_pos / 16 * 8, 8)))
                break;
            if (exp_pos / 256 != eblk)
                eblk = exp_pos / 256, ereads++;
            exp = t->l1[exp_pos / 16];
            if (++exp_pos % 256 == 0 && exp_pos > p->limit_bytes * 16)
                exp_pos -= p->fifo_bytes * 16;
        }
        unsigned zeroes = 0;
        if (!p->uncompressed) {
            if (!(ok = l1_bits_ok(t, u, th, delta_bit, 4)))
                break;
            if (delta_bit / 128 != dblk)
                dblk = delta_bit / 128, c.reads++;
            zeroes = t->l1[delta_bit / 8] >> (delta_bit & 4) & 0xF;
            delta_bit += 4;
            if (delta_bit % 128 == 0) {
                c.datum_bit += 128;      /* skip over 32 deltas */
                delta_bit += 32 * db; /* skip over 32 datums */
                if (delta_bit > lim8)
                    delta_bit -= fifo8;
            }
        }
        uint32_t cell = 0;
        enum fmt_status st = pair_ok ? fmt_unpack_datum_checked(p->in_fmt, p->out_fmt, datum, exp, p->mode, &cell)
                                     : fmt_unpack_datum(p->in_fmt, p->out_fmt, datum, exp, p->mode, &cell);
        if (st != FMT_OK) {
            ok = undefined(t, u, th, "%s (InDataFormat %s, OutDataFormat %s, %s)",
                           fmt_status_text(st), df_name(p->in_fmt), df_name(p->out_fmt),
                           u ? "SrcB" : p->mode.to_dst ? "Dst" : "SrcA");
            break;
        }
        if (p->all_zero)
            cell = 0, zeroes = 0;
        for (unsigned j = 0; ok && j <= zeroes; ++j, cell = 0) {
            if (drop) {
                --drop;
                continue;
            }
            for (unsigned k = 0; ok && k <= p->upsample_zeroes; ++k, cell = 0, ++c.out)
                if (!(p->upsample_interleave && k))
                    ok = write_out(t, u, e, bank, dm, c.out, cell);
            if (--c.dnum == 0)
                break;
        }
    }
    if (p->mode.to_dst && !dst_rows_done(t, u, th))
        ok = false;
    struct unpacker *up = &t->unpack.u[u];
    up->st.l1_reads += c.reads;
    up->st.exp_reads += ereads;
    up->st.datums += c.i;
    e->rem = c.reads;
    return ok;
}

/* UNPACR_NOP SETREG (WH:UNPACR_NOP_SETREG.md): the write happens once the older instructions of
 * this unpacker have finished their L1 reads, which is when it reaches the head here. */
static bool run_setreg(struct tile *t, unsigned u, const struct unpack_entry *e)
{
    const uint32_t w = e->setreg_word;
    const uint32_t value = TT_GET_UNPACR_NOP_SETREG_Value11(w);
    /* SetRegBase[bit 22] is TDMA-RISC state tensim does not model: taken as 0 */
    const uint32_t addr = 0xFFB00000u + (TT_GET_UNPACR_NOP_SETREG_AddrMid(w) << 12);
    struct unpacker *up = &t->unpack.u[u];
    uint32_t v = value;
    if (TT_GET_UNPACR_NOP_SETREG_Accumulate(w)) {
        v = value ? (up->setreg_acc + value) & 0x1FFFF : 0;
        up->setreg_acc = v;
        if (!value)
            return true;
    }
    return tensix_mmio_store(t, e->thread, addr, v) == MMIO_OK;
}

/* --lint: an UNPACR_NOP SETDVALID hands over the unpackers' current bank without waiting for
 * it (rule src_not_owned), so the bank may still be the matrix unit's. */
static __attribute__((noinline)) void lint_hand_over(struct tile *t, unsigned u,
                                                     const struct unpack_entry *e)
{
    const unsigned b = t->src.unpack_bank[u];
    if (t->src.bank[u][b].client != SRC_CLIENT_MATRIX)
        return;
    const int core = origin_core(e->origin);
    const struct rule_site s = {.core = core, .thread = e->thread,
                                .pc = core >= 0 ? origin_pc(e->origin) : 0, .word = e->word};
    rule_broken(t, RULE_SRC_NOT_OWNED, s,
                "UNPACR_NOP (unpacker %u, thread T%u) SETDVALID hands over Src%c bank %u, which the "
                "matrix unit already owns", u, e->thread, u ? 'B' : 'A', b);
}

bool unpack_start(struct tile *t, unsigned u, struct unpack_entry *e)
{
    struct src_regs *s = &t->src;
    switch (e->kind) {
    case UK_UNPACR:
        return run_unpacr(t, u, e);
    case UK_CLEAR: {
        /* WH:UNPACR_NOP_ZEROSRC.md: the unpackers' current bank, or both */
        unsigned cur = s->unpack_bank[u];
        for (unsigned b = 0; b < 2; b++) {
            if (!e->both_banks && b != cur)
                continue;
            for (unsigned r = 0; r < SRC_ROWS; r++)
                for (unsigned c = 0; c < SRC_COLS; c++)
                    s->bank[u][b].cell[r][c] = e->clear_val;
            src_bank_written(&s->bank[u][b]);
        }
        if (e->then_setdvalid)
            src_hand_over(&t->src, u, e->dvalid_fmt);
        return true;
    }
    case UK_SETDVALID:
        if (t->lint)
            lint_hand_over(t, u, e);
        src_hand_over(&t->src, u, e->dvalid_fmt); /* WH:UNPACR_NOP_SETDVALID.md: no wait for AllowedClient */
        return true;
    case UK_SETREG:
        return run_setreg(t, u, e);
    default:
        return true;
    }
}

void unpack_finish(struct tile *t, unsigned u, const struct unpack_entry *e)
{
    if (e->kind == UK_UNPACR && e->p.flip_src)
        src_hand_over(&t->src, u, e->p.out_fmt); /* ttsim: ImpliedSrc*Fmt = OutDataFormat */
}
