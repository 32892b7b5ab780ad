/* The packers' functional model: WH:Packers/InputAddressGenerator.md and OutputAddressGenerator.md
 * (followed line by line), WH:Packers/FormatConversion.md (early and late conversion, described
 * in prose and tables: docs/pack.md lists the bit-level reading), EdgeMasking.md, ReLU.md,
 * ExponentThresholding.md, Downsampling.md, L1 accumulation (WH:L1.md), and Blackhole's Dst read
 * interfaces (BH:PACR.md). Timing and the unit interface are in units/pack_timing.c.
 *
 * Split in time: pack_accept_job() runs the address generators when the packer accepts the
 * instruction (the ADCs advance then, for the next PACR); pack_run_job() moves the datums when
 * the instruction starts in its packer.
 *
 * Datums travel between the stages as `struct pval`: floating-point values as FP32 bit patterns
 * (every intermediate format, including the 5-bit-exponent ones, is exact in FP32) tagged with
 * the exponent family they belong to, integers as raw bits. */
#include "pack_internal.h"

#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "formats.h"

/* ---- per-packer configuration fields ---- */

struct pk_fields {
    uint16_t row_start, exp_size, dest_addr, dis_zero_compress, add_offset, out_fmt, in_fmt,
        sub_header, src_sel, l1_src, downsample, l1_acc, thr_en, thr, limit, fifo, dst_offset,
        dst_zoffset, reads_per_xy, yz_transposed;
};

#define PK_FIELDS(P, S, R, LIM, K)                                                           \
    {P##THCON_SEC##S##_REG##R##_Row_start_section_size, P##THCON_SEC##S##_REG##R##_Exp_section_size, \
     P##THCON_SEC##S##_REG##R##_L1_Dest_addr, P##THCON_SEC##S##_REG##R##_Disable_zero_compress,     \
     P##THCON_SEC##S##_REG##R##_Add_l1_dest_addr_offset, P##THCON_SEC##S##_REG##R##_Out_data_format, \
     P##THCON_SEC##S##_REG##R##_In_data_format, P##THCON_SEC##S##_REG##R##_Sub_l1_tile_header_size, \
     P##THCON_SEC##S##_REG##R##_Source_interface_selection, P##THCON_SEC##S##_REG##R##_L1_source_addr, \
     P##THCON_SEC##S##_REG##R##_Downsample_mask, P##THCON_SEC##S##_REG##R##_Pack_L1_Acc,            \
     P##THCON_SEC##S##_REG##R##_Exp_threshold_en, P##THCON_SEC##S##_REG##R##_Exp_threshold,         \
     P##THCON_SEC##S##_REG9_Pack_##LIM##_limit_address, P##THCON_SEC##S##_REG9_Pack_##LIM##_fifo_size, \
     P##DEST_TARGET_REG_CFG_PACK_SEC##K##_Offset, P##DEST_TARGET_REG_CFG_PACK_SEC##K##_ZOffset,    \
     P##PACK_COUNTERS_SEC##K##_pack_reads_per_xy_plane, P##PACK_COUNTERS_SEC##K##_pack_yz_transposed}

/* Packer i: 0 THCON_SEC0_REG1, 1 THCON_SEC0_REG8, 2 THCON_SEC1_REG1, 3 THCON_SEC1_REG8; FIFO
 * limits THCON_SEC0_REG9 Pack_0_2 / Pack_1_3 for packers 0 / 1, THCON_SEC1_REG9 for 2 / 3. */
static const struct pk_fields pk_bh[4] = {
    PK_FIELDS(CFGF_BH_, 0, 1, 0_2, 0), PK_FIELDS(CFGF_BH_, 0, 8, 1_3, 1),
    PK_FIELDS(CFGF_BH_, 1, 1, 0_2, 2), PK_FIELDS(CFGF_BH_, 1, 8, 1_3, 3)};
static const struct pk_fields pk_wh[4] = {
    PK_FIELDS(CFGF_WH_, 0, 1, 0_2, 0), PK_FIELDS(CFGF_WH_, 0, 8, 1_3, 1),
    PK_FIELDS(CFGF_WH_, 1, 1, 0_2, 2), PK_FIELDS(CFGF_WH_, 1, 8, 1_3, 3)};

struct view {
    const struct tile *t;
    const struct cfg_field_desc *tab;
    const struct pk_fields *f;
    unsigned bank, ab;
};

static struct view view_of(const struct tile *t, unsigned th, unsigned i)
{
    bool wh = tile_is_wormhole(t);
    unsigned ab = wh ? TT_ARCH_WH : TT_ARCH_BH;
    return (struct view){t, wh ? cfg_fields_wh : cfg_fields_bh, wh ? &pk_wh[i] : &pk_bh[i],
                         thcfg_get(&t->cfg, th, THCFG_DESC(ab, CFG_STATE_ID_StateID)), ab};
}

static uint32_t get(const struct view *v, uint16_t id) { return cfg_get(&v->t->cfg, v->bank, &v->tab[id]); }
#define GETC(v, NAME) cfg_get(&(v)->t->cfg, (v)->bank, CFG_DESC((v)->ab, NAME))

/* The configuration one PACR's datums are processed with, sampled when it starts in packer i
 * (docs/pack.md "When things happen"), so the per-datum path reads no configuration. */
struct pack_cfg {
    bool r32, raw, r10, uns;          /* PCK_DEST_RD_CTRL: Read_32b_data, Read_int8, ... */
    unsigned inter;                   /* IntermediateFormat (Dstacc, or its override) */
    bool descale_en, descale_mode;
    unsigned descale_shift;           /* INT_DESCALE_VALUES_SEC0_Value & 0x1F */
    unsigned relu_mode;
    uint32_t relu_thr;                /* STACC_RELU_ReluThreshold bits */
    bool thr_en;
    unsigned thr, in_fmt;
    bool edge_face_en, edge_neg_inf;
    unsigned edge_face_sel, edge_row_sel, zoffset; /* this packer's 2-bit selects, ZOffset */
    const uint32_t *face_map, *row_map; /* TILE_FACE_SET_MAPPING_0.., TILE_ROW_SET_MAPPING_0.. */
    uint16_t edge_mask[4];            /* PCK_EDGE_OFFSET_SEC0..3_mask */
    unsigned reads_per_xy;
    bool yz_transposed;
    struct dest_map dst_map; /* DEST_ACCESS_CFG, DBG_FEATURE_DISABLE bit 11 (units/dest.h) */
    bool hist_en;                     /* ENABLE_ACC_STATS_Enable of any thread */
};

static struct pack_cfg read_pack_cfg(const struct view *v, unsigned i)
{
    const bool wh = v->ab == TT_ARCH_WH;
    const uint32_t *words = v->t->cfg.cfg[v->bank];
    struct pack_cfg c = {
        .r32 = GETC(v, PCK_DEST_RD_CTRL_Read_32b_data), .raw = GETC(v, PCK_DEST_RD_CTRL_Read_int8),
        .r10 = GETC(v, PCK_DEST_RD_CTRL_Round_10b_mant), .uns = GETC(v, PCK_DEST_RD_CTRL_Read_unsigned),
        .inter = GETC(v, ALU_FORMAT_SPEC_REG_Dstacc_override) ? GETC(v, ALU_FORMAT_SPEC_REG_Dstacc_val)
                                                              : GETC(v, ALU_FORMAT_SPEC_REG2_Dstacc),
        .descale_en = GETC(v, INT_DESCALE_Enable), .descale_mode = GETC(v, INT_DESCALE_Mode),
        .descale_shift = GETC(v, INT_DESCALE_VALUES_SEC0_Value) & 0x1F,
        .relu_mode = GETC(v, STACC_RELU_ApplyRelu) & 3, .relu_thr = GETC(v, STACC_RELU_ReluThreshold),
        .thr_en = get(v, v->f->thr_en), .thr = get(v, v->f->thr), .in_fmt = get(v, v->f->in_fmt),
        .edge_face_en = GETC(v, PCK_EDGE_TILE_FACE_SET_SELECT_enable),
        .edge_neg_inf = GETC(v, PCK_EDGE_MODE_mode),
        .edge_face_sel = GETC(v, PCK_EDGE_TILE_FACE_SET_SELECT_select) >> (2 * i) & 3,
        .edge_row_sel = GETC(v, PCK_EDGE_TILE_ROW_SET_SELECT_select) >> (2 * i) & 3,
        .zoffset = get(v, v->f->dst_zoffset),
        .face_map = &words[v->tab[wh ? CFGF_WH_TILE_FACE_SET_MAPPING_0_face_set_mapping_0
                                     : CFGF_BH_TILE_FACE_SET_MAPPING_0_face_set_mapping_0].word],
        .row_map = &words[v->tab[wh ? CFGF_WH_TILE_ROW_SET_MAPPING_0_row_set_mapping_0
                                    : CFGF_BH_TILE_ROW_SET_MAPPING_0_row_set_mapping_0].word],
        .edge_mask = {(uint16_t)GETC(v, PCK_EDGE_OFFSET_SEC0_mask), (uint16_t)GETC(v, PCK_EDGE_OFFSET_SEC1_mask),
                      (uint16_t)GETC(v, PCK_EDGE_OFFSET_SEC2_mask), (uint16_t)GETC(v, PCK_EDGE_OFFSET_SEC3_mask)},
        .reads_per_xy = get(v, v->f->reads_per_xy), .yz_transposed = get(v, v->f->yz_transposed),
        .dst_map = dest_map_of(v->t),
    };
    const struct cfg_field_desc *en = THCFG_DESC(v->ab, ENABLE_ACC_STATS_Enable);
    for (unsigned th = 0; th < 3; th++)
        c.hist_en |= thcfg_get(&v->t->cfg, th, en) != 0;
    return c;
}

bool pack_undef(struct tile *t, unsigned th, const char *what, const char *name)
{
    tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0, "PACR (thread T%u): %s%s", th, what, name ? name : "");
    return false;
}

static bool unimplemented(struct tile *t, unsigned th, const char *what)
{
    tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "PACR (thread T%u): %s", th, what);
    return false;
}

/* ---- acceptance: the address generators ---- */

/* PACR fields that sit at the same bits on both architectures (BH:PACR.md, WH:PACR.md) are read
 * with the Wormhole form's accessors. */
_Static_assert(TT_SAME_BITS(PACR_BH_OvrdThreadId, PACR_WH_OvrdThreadId) &&
                   TT_SAME_BITS(PACR_BH_ZeroWrite, PACR_WH_ZeroWrite) &&
                   TT_SAME_BITS(PACR_BH_Flush, PACR_WH_Flush) &&
                   TT_SAME_BITS(PACR_BH_Last, PACR_WH_Last) &&
                   TT_SAME_BITS(PACR_BH_AddrMod, PACR_WH_AddrMod),
               "PACR fields shared by BH and WH");

/* Packer i of Blackhole does not exist beyond 0: its one packer reads through interfaces. */
unsigned pack_mask(const struct tile *t, uint32_t w)
{
    if (!tile_is_wormhole(t))
        return 1;
    unsigned m = TT_GET_PACR_WH_PackerMask(w);
    return m ? m : 1;
}

static unsigned which_adc(const struct tile *t, unsigned th, uint32_t w, unsigned i)
{
    if (!TT_GET_PACR_WH_OvrdThreadId(w))
        return th;
    unsigned c;
    if (tile_is_wormhole(t)) {
        struct view v = view_of(t, th, i);
        c = cfg_get(&t->cfg, v.bank, &cfg_fields_wh[i == 0   ? CFGF_WH_THCON_SEC0_REG1_Addr_cnt_context
                                                       : i == 1 ? CFGF_WH_THCON_SEC0_REG8_Addr_cnt_context
                                                       : i == 2 ? CFGF_WH_THCON_SEC1_REG1_Addr_cnt_context
                                                                : CFGF_WH_THCON_SEC1_REG8_Addr_cnt_context]);
    } else {
        c = TT_GET_PACR_BH_AddrCntContext(w); /* BH: in the instruction (BH:PACR.md) */
    }
    return c == 3 ? 0 : c;
}

static unsigned bytes_per_datum(unsigned fmt) { return (fmt & 3) == 0 ? 4 : (fmt & 3) == 1 ? 2 : 1; }

/* The input address generator: the Dst datum address of ADC channel 0's position. */
static uint32_t dst_input_addr(const struct view *v, const struct adc_channel *c0)
{
    uint32_t addr = GETC(v, PCK0_ADDR_BASE_REG_0_Base) +
                    c0->v[ADC_X] * (GETC(v, PCK0_ADDR_CTRL_XY_REG_0_Xstride) & 0xF) +
                    c0->v[ADC_Y] * GETC(v, PCK0_ADDR_CTRL_XY_REG_0_Ystride) +
                    c0->v[ADC_Z] * GETC(v, PCK0_ADDR_CTRL_ZW_REG_0_Zstride) +
                    c0->v[ADC_W] * GETC(v, PCK0_ADDR_CTRL_ZW_REG_0_Wstride);
    const unsigned bpd = bytes_per_datum(get(v, v->f->in_fmt)), xm = bpd == 4 ? 3 : bpd == 2 ? 7 : 15;
    addr = ((addr / bpd) & ~xm) + (c0->v[ADC_X] & xm) + (get(v, v->f->dst_offset) << 4);
    return addr & 0x3FFF;
}

/* BH:PACR.md ReadIntfSel: the rows of the aligned group of four to read; 0 means all four. */
static unsigned read_intf_sel(uint32_t w)
{
    return TT_GET_PACR_BH_ReadIntfSel(w) ? TT_GET_PACR_BH_ReadIntfSel(w) : 0xF;
}

/* The Dst rows a PACR will read, for the Dest hazard check (no side effects). n = 0: none. */
void pack_dst_rows(const struct tile *t, unsigned th, uint32_t w, unsigned i, unsigned *row0,
                   unsigned *n, bool *dst32)
{
    struct view v = view_of(t, th, i);
    const struct adc *adc = &t->adc[which_adc(t, th, w, i)].pack;
    const struct adc_channel *c0 = &adc->ch[0], *c1 = &adc->ch[1];
    *n = 0;
    *dst32 = GETC(&v, PCK_DEST_RD_CTRL_Read_32b_data);
    if (TT_GET_PACR_WH_ZeroWrite(w) || TT_GET_PACR_WH_Flush(w) || (i == 0 && get(&v, v.f->src_sel)))
        return;
    const uint32_t addr = dst_input_addr(&v, c0);
    if (tile_is_wormhole(t)) {
        uint32_t num = c1->v[ADC_X] - c0->v[ADC_X] + 1;
        if (num > 0x4000)
            return; /* a negative count: acceptance reports it */
        *row0 = addr >> 4;
        *n = (((addr & 15) + num + 15) / 16);
    } else {
        /* rows StartRow + step * i for the enabled read interfaces i: their span */
        unsigned m = read_intf_sel(w), step = TT_GET_PACR_BH_DstAccessMode(w) ? 16 : 1;
        unsigned first = (unsigned)__builtin_ctz(m), last = 31u - (unsigned)__builtin_clz(m);
        *row0 = (addr >> 4) + step * first;
        *n = step * (last - first) + 1;
    }
}

bool pack_accept_job(struct tile *t, unsigned th, uint32_t w, unsigned i, struct pack_job *j)
{
    struct view v = view_of(t, th, i);
    const unsigned wa = which_adc(t, th, w, i);
    struct adc_channel *c0 = &t->adc[wa].pack.ch[0], *c1 = &t->adc[wa].pack.ch[1];
    j->kind = PK_PACR;
    j->thread = (uint8_t)th;
    j->adc = (uint8_t)wa;
    j->zero_write = TT_GET_PACR_WH_ZeroWrite(w);
    j->flush = TT_GET_PACR_WH_Flush(w);
    j->last = TT_GET_PACR_WH_Last(w);

    j->num = j->flush ? 0 : c1->v[ADC_X] - c0->v[ADC_X] + 1;
    if (j->zero_write || j->flush) {
        j->src_addr = 0;
    } else if (i == 0 && get(&v, v.f->src_sel)) {
        return unimplemented(t, th, "packer 0 reading L1 (Source_interface_selection = 1)");
    } else {
        j->src_addr = dst_input_addr(&v, c0);
    }
    if (!tile_is_wormhole(t)) {
        /* BH:PACR.md: the enabled read interfaces i read rows StartRow + i, which must stay in
         * the aligned group of four; in the strided mode (DstAccessMode, "not yet documented"
         * in its interaction with ReadIntfSel) rows StartRow + 16 i, as ttsim and tt-llk's pack
         * untilize have it. Each reads the ADC X range of its row. */
        const unsigned m = read_intf_sel(w);
        j->row_step = 1;
        if (TT_GET_PACR_BH_DstAccessMode(w)) { /* strided, interface i reads StartRow + 16 i */
            if (m != 1 && m != 3 && m != 0xF)
                return unimplemented(t, th, "strided Dst read (DstAccessMode) with ReadIntfSel other than 0b0001, 0b0011, 0b1111");
            if (!dest_remap_addrs(t) || !dest_swizzle_32b(t))
                return unimplemented(t, th, "strided Dst read without DEST_ACCESS_CFG remap_addrs and swizzle_32b");
            j->row_step = 16;
        } else if (!j->flush && ((m << ((j->src_addr >> 4) & 3)) > 0xF)) {
            return pack_undef(t, th, "ReadIntfSel reaches past the aligned group of four Dst rows", 0);
        }
        j->rows_mask = (uint8_t)m;
        j->lanes = (uint8_t)__builtin_popcount(m);
        if (j->num > 16)
            j->num = 16;
    } else {
        j->lanes = 1;
    }
    if (j->num > 0x4000)
        return pack_undef(t, th, "ADC channel 1 X is below channel 0 X (negative datum count)", 0);

    /* Output address generator (16-byte units) */
    uint32_t out = get(&v, v.f->dest_addr) + !get(&v, v.f->sub_header);
    if (i > 0) {
        /* Packer0InitialAddr with bit 31 set makes the other packers' addresses relative to it */
        const struct pk_fields *f0 = tile_is_wormhole(t) ? &pk_wh[0] : &pk_bh[0];
        uint32_t p0 = get(&v, f0->dest_addr) + !get(&v, f0->sub_header);
        if (p0 >> 31)
            out += p0;
    }
    uint32_t yzw = GETC(&v, PCK0_ADDR_BASE_REG_1_Base) + c1->v[ADC_Y] * GETC(&v, PCK0_ADDR_CTRL_XY_REG_1_Ystride) +
                   c1->v[ADC_Z] * GETC(&v, PCK0_ADDR_CTRL_ZW_REG_1_Zstride) +
                   c1->v[ADC_W] * GETC(&v, PCK0_ADDR_CTRL_ZW_REG_1_Wstride);
    out += yzw & ~0xFu;
    if (get(&v, v.f->add_offset))
        return unimplemented(t, th, "Add_l1_dest_addr_offset (the TDMA-RISC l1_dest_addr_offset)");
    if (out > get(&v, v.f->limit) * 2 + 1)
        out -= get(&v, v.f->fifo) * 2;
    bool compress = !(GETC(&v, THCON_SEC0_REG1_All_pack_disable_zero_compress_ovrd)
                          ? (tile_is_wormhole(t) ? cfg_get(&t->cfg, v.bank, &cfg_fields_wh[CFGF_WH_THCON_SEC0_REG1_All_pack_disable_zero_compress]) >> i & 1
                                         : 1u)
                          : get(&v, v.f->dis_zero_compress));
    j->compress = compress;
    j->concat = tile_is_wormhole(t) ? TT_GET_PACR_WH_Concat(w) : TT_GET_PACR_BH_Concat(w) != 0;
    if (compress) {
        unsigned of = get(&v, v.f->out_fmt);
        if (df_is_bfp(of))
            return unimplemented(t, th, "packer compression of BFP output");
        if (get(&v, v.f->l1_acc))
            return unimplemented(t, th, "packer compression with L1 accumulation");
        j->out_rsi = out;
        out += get(&v, v.f->row_start);
    }
    if (get(&v, v.f->out_fmt) & 2) { /* OutputFormatLessThan16Bits */
        j->has_exp = true;
        j->out_exp = out;
        out += get(&v, v.f->exp_size);
    }
    j->out_data = out;

    return true;
}

void pack_advance_adcs(struct tile *t, unsigned th, uint32_t w, unsigned wa)
{
    struct view v = view_of(t, th, 0);
    /* ADDR_MOD_PACK: YsrcIncr[3:0] YsrcCR[4] YsrcClear[5] YdstIncr[9:6] YdstCR[10]
     * YdstClear[11] ZsrcIncr[12] ZsrcClear[13] ZdstIncr[14] ZdstClear[15] */
    unsigned am = TT_GET_PACR_WH_AddrMod(w);
    const struct cfg_field_desc *fa =
        am == 0 ? THCFG_DESC(v.ab, ADDR_MOD_PACK_SEC0_YsrcIncr) : am == 1 ? THCFG_DESC(v.ab, ADDR_MOD_PACK_SEC1_YsrcIncr)
        : am == 2 ? THCFG_DESC(v.ab, ADDR_MOD_PACK_SEC2_YsrcIncr) : THCFG_DESC(v.ab, ADDR_MOD_PACK_SEC3_YsrcIncr);
    uint32_t m = t->cfg.thread[th][fa->word];
    struct adc *a = &t->adc[wa].pack;
    if (m >> 5 & 1) adc_set(a, 0, ADC_Y, 0);
    else if (m >> 4 & 1) adc_cr_add(a, 0, ADC_Y, m & 0xF);
    else adc_inc(a, 0, ADC_Y, m & 0xF);
    if (m >> 13 & 1) adc_set(a, 0, ADC_Z, 0);
    else adc_inc(a, 0, ADC_Z, m >> 12 & 1);
    if (m >> 11 & 1) adc_set(a, 1, ADC_Y, 0);
    else if (m >> 10 & 1) adc_cr_add(a, 1, ADC_Y, m >> 6 & 0xF);
    else adc_inc(a, 1, ADC_Y, m >> 6 & 0xF);
    if (m >> 15 & 1) adc_set(a, 1, ADC_Z, 0);
    else adc_inc(a, 1, ADC_Z, m >> 14 & 1);
}

/* ---- datums ---- */

enum pv_kind { PV_F8, PV_F5, PV_I32, PV_I16, PV_I8 };

struct pval {
    uint32_t v;
    uint8_t kind;
};

/* Round the FP32 pattern x to `keep` mantissa bits, to nearest with ties away from zero
 * (WH:Packers/FormatConversion.md: "deterministic round-to-nearest with ties away from zero"):
 * denormals flush to +0, -0 becomes +0, NaN becomes infinity. */
static uint32_t round_fp32(uint32_t x, unsigned keep)
{
    uint32_t e = x >> 23 & 0xFF;
    if (e == 0)
        return 0;
    if (e == 0xFF)
        return (x & 0x80000000u) | 0x7F800000u;
    unsigned drop = 23 - keep;
    uint32_t mag = x & 0x7FFFFFFFu;
    if (drop)
        mag = (mag + (1u << (drop - 1))) & ~((1u << drop) - 1);
    if (mag >= 0x7F800000u)
        mag = 0x7F800000u; /* rounded into infinity */
    return (x & 0x80000000u) | mag;
}

static uint32_t trunc_fp32(uint32_t x, unsigned keep)
{
    return x & ~((1u << (23 - keep)) - 1);
}

/* An FP32 pattern holding a 5-bit-exponent value, as FP16-style bits with `man` mantissa bits
 * (FP16 10, E5M7 7, FP8 2): exponents beyond 31 saturate to the largest pattern, values below
 * 2^-14 flush to +0, the mantissa is truncated. */
static uint32_t to_e5(uint32_t x, unsigned man)
{
    uint32_t s = x >> 31, e8 = x >> 23 & 0xFF;
    int e = (int)e8 - 112;
    if (e8 == 0xFF || e > 31)
        return s << 15 | 0x7C00u | ((0x3FFu >> (10 - man)) << (10 - man));
    if (e8 == 0 || e <= 0)
        return 0;
    return s << 15 | (uint32_t)e << 10 | ((x >> 13) & 0x3FFu & ~((1u << (10 - man)) - 1));
}

/* The FP16 pattern of a value that came from FP16 (exact; denormals kept); the edge mask's
 * infinity saturates. */
static uint32_t f5_to_fp16(uint32_t x)
{
    uint32_t s = x >> 31, e8 = x >> 23 & 0xFF, man = x & 0x7FFFFF;
    if (e8 == 0xFF)
        return s << 15 | 0x7FFFu;
    if (e8 > 112)
        return s << 15 | (e8 - 112) << 10 | man >> 13;
    if (e8 < 103)
        return 0;
    return s << 15 | (0x800000u | man) >> (126 - e8); /* denormal: value * 2^24 */
}

/* FP16-style bits (exponent 31 finite) as an FP32 pattern; denormals keep their value. */
static uint32_t e5_to_fp32(uint32_t h) { return fmt_fp16_to_fp32_bits((uint16_t)h); }

/* Early format conversion (WH:Packers/FormatConversion.md "Early format conversion" and
 * "Configuring the conversions"). `cell` is the Dst32b or Dst16b element. */
static bool early(struct tile *t, unsigned th, const struct pack_cfg *c, uint32_t cell, struct pval *o)
{
    const bool r32 = c->r32, raw = c->raw, r10 = c->r10, uns = c->uns;
    const unsigned inter = c->inter;
    if (r32) {
        uint32_t x = fmt_dst_to_fp32(cell); /* FP32 or INT32 sign-magnitude */
        switch (inter) {
        case DF_INT32: *o = (struct pval){x, PV_I32}; return true;
        case DF_FP32: *o = (struct pval){r10 && !raw ? round_fp32(x, 10) : x, PV_F8}; return true;
        case DF_TF32: *o = (struct pval){raw ? x : round_fp32(x, 10), PV_F8}; return true;
        case DF_FP16: /* Blackhole with Round_10b_mant (tt-llk's FP32 Dst to FP16): round to TF32
                         * here, FP16 in the late conversion (ttsim; docs/pack.md) */
            if (t->arch->id == ARCH_WORMHOLE || !r10 || raw)
                return pack_undef(t, th, "early conversion from 32-bit Dst to IntermediateFormat FP16 (needs Blackhole, Round_10b_mant, not Read_raw)", 0);
            *o = (struct pval){round_fp32(x, 10), PV_F8};
            return true;
        case DF_BF16:
            *o = (struct pval){raw ? trunc_fp32(x, 7) : round_fp32(x, r10 ? 10 : 7), PV_F8};
            return true;
        case DF_BFP8: *o = (struct pval){raw ? trunc_fp32(x, 7) : round_fp32(x, 6), PV_F8}; return true;
        case DF_INT8: {
            uint32_t mag = x & 0x7FFFFFFFu, s = x >> 31;
            if (raw) {
                *o = (struct pval){uns ? mag & 0xFF : s << 7 | (mag & 0x7F), PV_I8};
                return true;
            }
            unsigned shift = c->descale_en ? c->descale_shift : 0;
            if (c->descale_en && c->descale_mode)
                return unimplemented(t, th, "INT_DESCALE_Mode 1 (per-row shift amounts)");
            uint64_t m = shift ? ((uint64_t)mag + (1ull << (shift - 1))) >> shift : mag;
            if (uns) {
                *o = (struct pval){s ? 0 : (m > 255 ? 255 : (uint32_t)m), PV_I8};
            } else {
                uint32_t sat = m > 127 ? 127 : (uint32_t)m;
                *o = (struct pval){sat ? s << 7 | sat : 0, PV_I8};
            }
            return true;
        }
        default:
            return pack_undef(t, th, "early conversion from 32-bit Dst to IntermediateFormat ", df_name(inter));
        }
    }
    switch (inter) {
    case DF_BF16: case DF_TF32: case DF_FP32: case DF_BFP8: {
        uint32_t x = (uint32_t)fmt_dst_to_bf16((uint16_t)cell) << 16;
        if (inter == DF_FP32 && !r10)
            return pack_undef(t, th, "BF16 Dst to IntermediateFormat FP32 without Round_10b_mant", 0);
        if (inter == DF_BFP8 && !raw)
            x = round_fp32(x, 6);
        else if (!raw || inter == DF_TF32 || inter == DF_FP32)
            x = round_fp32(x, 7); /* "rounding" to BF16/TF32 widths: flushes denormals, NaN */
        *o = (struct pval){x, PV_F8};
        return true;
    }
    case DF_FP16: case DF_BFP8A: case DF_FP8: {
        uint32_t h = fmt_dst_to_fp16((uint16_t)cell);
        if (inter == DF_FP16 && !raw && !(h & 0x7C00))
            h = 0; /* "rounding": denormals flush to zero, -0 becomes +0 */
        else if (inter == DF_BFP8A)
            h = raw ? h & ~7u : to_e5(round_fp32(e5_to_fp32(h), 6), 10);
        else if (inter == DF_FP8)
            h &= ~0xFFu;
        *o = (struct pval){e5_to_fp32(h), PV_F5};
        return true;
    }
    case DF_INT16: *o = (struct pval){cell & 0xFFFF, PV_I16}; return true;
    case DF_INT8: *o = (struct pval){(cell >> 15 & 1) << 7, PV_I8}; return true;
    default:
        return pack_undef(t, th, "early conversion from 16-bit Dst to IntermediateFormat ", df_name(inter));
    }
}

static float as_float(uint32_t x)
{
    union { uint32_t u; float f; } u = {.u = x};
    return u.f;
}

/* ReLU (WH:Packers/ReLU.md) on the early-converted datum. */
static bool relu(struct tile *t, unsigned th, const struct pack_cfg *c, struct pval *d)
{
    unsigned mode = c->relu_mode;
    if (!mode)
        return true;
    bool is_float = d->kind == PV_F8 || d->kind == PV_F5;
    if (!is_float) {
        if (mode != 1)
            return pack_undef(t, th, "ReLU with a threshold on integer data", 0);
        uint32_t sign = d->kind == PV_I32 ? d->v >> 31 : d->kind == PV_I16 ? d->v >> 15 : d->v >> 7;
        if (sign)
            d->v = 0;
        return true;
    }
    uint32_t tb = c->relu_thr;
    uint32_t thr = d->kind == PV_F5 ? e5_to_fp32(tb) : tb << 16;
    if (mode >= 2 && thr >> 31)
        return pack_undef(t, th, "ReLU threshold <= -0", 0);
    float x = as_float(d->v), tf = as_float(thr);
    if (mode == 1 || mode == 3) {
        if (x <= 0)
            d->v = 0;
        else if (mode == 3 && x > tf)
            d->v = thr;
    } else if (x <= tf) {
        d->v = 0;
    }
    return true;
}

/* The raw 5-bit exponent of a 5-bit-exponent value held as FP32 bits: 0 for zero and FP16
 * denormals, 31 for the infinity an edge mask inserts. */
static unsigned exp5(uint32_t v)
{
    uint32_t e8 = v >> 23 & 0xFF;
    return e8 == 0xFF ? 31 : e8 > 112 ? e8 - 112 : 0;
}

/* Exponent thresholding (WH:Packers/ExponentThresholding.md), on In_data_format's exponent;
 * formats the page does not list are left alone. */
static bool threshold(struct tile *t, unsigned th, const struct pack_cfg *c, struct pval *d)
{
    if (!c->thr_en || (d->kind != PV_F8 && d->kind != PV_F5))
        return true;
    unsigned fmt = c->in_fmt, thr = c->thr;
    uint32_t e8 = d->v >> 23 & 0xFF;
    switch (fmt) {
    case DF_BFP2A:
        return pack_undef(t, th, "exponent thresholding with In_data_format BFP2a (hardware bug)", 0);
    case DF_FP16: case DF_FP8: case DF_BFP8A: case DF_BFP4A:
        if (exp5(d->v) < thr)
            d->v = 0;
        return true;
    case DF_FP32: case DF_TF32: case DF_BF16: case DF_BFP8: case DF_BFP4:
        if (e8 < thr)
            d->v = 0;
        return true;
    default:
        return true;
    }
}

/* One PACR moving datums through one packer. */
struct pack_run {
    struct tile *t;
    struct packer *p;
    unsigned th;
    struct view v;
    unsigned out_fmt;
    bool out_float, out_bfp, out_bfp_a; /* Out_data_format's family, sampled with it */
    struct pack_cfg c;
    bool acc, fp8_e4m3, compress, zero_write;
    uint8_t zero_kind; /* the kind a zero datum takes: that of IntermediateFormat */
};

static bool comp_push(struct pack_run *r, uint32_t v, unsigned nbits);

/* ---- output streams ---- */

static bool l1_ok(struct tile *t, unsigned th, uint32_t a)
{
    if (a + 16 <= t->arch->l1_size)
        return true;
    tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0, "PACR (thread T%u): L1 write at 0x%x is outside L1", th, a);
    return false;
}

/* L1 accumulation (WH:L1.md): 4 x FP32, 4 x INT32 (sign-magnitude, saturating), 8 x FP16 or
 * 8 x BF16. Float sums are rounded to nearest even (not documented; docs/pack.md). */
static bool accumulate(struct tile *t, unsigned th, uint8_t *dst, const uint8_t *src, unsigned fmt)
{
    for (unsigned k = 0; k < 16;) {
        if (fmt == DF_FP32 || fmt == DF_INT32) {
            uint32_t a, b;
            memcpy(&a, dst + k, 4);
            memcpy(&b, src + k, 4);
            if (fmt == DF_FP32) {
                float s = as_float(a) + as_float(b);
                memcpy(dst + k, &s, 4);
            } else {
                int64_t x = fmt_sm32_value(a) + (int64_t)fmt_sm32_value(b);
                if (x > 0x7FFFFFFF) x = 0x7FFFFFFF;
                if (x < -0x7FFFFFFF) x = -0x7FFFFFFF;
                uint32_t sm = x < 0 ? 0x80000000u | (uint32_t)-x : (uint32_t)x;
                memcpy(dst + k, &sm, 4);
            }
            k += 4;
        } else if (fmt == DF_BF16 || fmt == DF_FP16) {
            uint16_t a, b;
            memcpy(&a, dst + k, 2);
            memcpy(&b, src + k, 2);
            uint32_t fa = fmt == DF_BF16 ? (uint32_t)a << 16 : fmt_fp16_to_fp32_bits(a);
            uint32_t fb = fmt == DF_BF16 ? (uint32_t)b << 16 : fmt_fp16_to_fp32_bits(b);
            double s = (double)as_float(fa) + as_float(fb);
            float sf = (float)s;
            union { float f; uint32_t u; } u = {.f = sf};
            uint16_t r;
            if (fmt == DF_BF16) {
                uint32_t x = u.u;
                x += 0x7FFF + (x >> 16 & 1); /* nearest even */
                r = (uint16_t)(x >> 16);
            } else {
                r = (uint16_t)to_e5(u.u, 10);
            }
            memcpy(dst + k, &r, 2);
            k += 2;
        } else {
            return pack_undef(t, th, "L1 accumulation (Pack_L1_Acc) with Out_data_format ", df_name(fmt));
        }
    }
    return true;
}

static bool write16(struct tile *t, struct packer *p, unsigned th, struct pack_stream *s,
                    bool acc, unsigned fmt)
{
    if (!l1_ok(t, th, s->byte_addr))
        return false;
    uint8_t *dst = t->l1 + s->byte_addr;
    if (acc) {
        if (!accumulate(t, th, dst, s->buf, fmt))
            return false;
        p->st.acc_writes++;
    } else {
        memcpy(dst, s->buf, 16);
    }
    tile_code_written(t, s->byte_addr, 16);
    tile_unit_wrote(t, s->byte_addr, 16);
    p->st.l1_writes++;
    s->byte_addr += 16;
    s->bits = 0;
    memset(s->buf, 0, 16);
    return true;
}

/* Appends the low n (<= 32) bits of v, least significant first, to the stream's line, or-ed in
 * a byte at a time (a bit at a time cost 9% of a tt-llk matmul's run, perf). Datums of one width
 * fill lines exactly (the widths divide 128); a datum that does not fit in the rest of its line
 * (the width changed within a stream: Out_data_format rewritten without Last or Flush) is not
 * modelled. */
static bool put_bits(struct pack_run *r, struct pack_stream *s, uint32_t v, unsigned n, bool acc)
{
    if (__builtin_expect(s->bits + n > 128, 0)) {
        char what[160];
        snprintf(what, sizeof what, "a %u-bit datum across two 16-byte output lines (%u bits of "
                 "the line taken: the datum width changed within an output stream)", n, s->bits);
        return unimplemented(r->t, r->th, what);
    }
    uint64_t w = (uint64_t)(n < 32 ? v & ((1u << n) - 1) : v) << (s->bits % 8);
    for (unsigned b = s->bits / 8; w; b++, w >>= 8)
        s->buf[b] |= (uint8_t)w;
    s->bits += n;
    if (s->bits == 128)
        return write16(r->t, r->p, r->th, s, acc, r->out_fmt);
    return true;
}

static bool flush_stream(struct pack_run *r, struct pack_stream *s, bool acc)
{
    if (!s->bits)
        return true;
    s->bits = 128; /* padded with zeroes */
    return write16(r->t, r->p, r->th, s, acc, r->out_fmt);
}

/* ---- compression (WH:Packers/Compression.md) ----
 * The page fixes the format, not the algorithm: tensim folds a zero datum into the previous
 * augmented datum's counter (up to 15) unless it is the first or the last datum of its row. */

static bool write_group(struct pack_run *r, unsigned nbits)
{
    struct packer *p = r->p;
    for (unsigned k = 0; k < 32; k++)
        if (!put_bits(r, &p->data, k < p->grp_n ? p->grp[k] : 0, nbits, false))
            return false;
    for (unsigned k = 0; k < 32; k++)
        if (!put_bits(r, &p->data, k < p->grp_n ? p->cnt[k] : 0, 4, false))
            return false;
    p->grp_n = 0;
    return true;
}

static bool new_augmented(struct pack_run *r, uint32_t v, unsigned nbits)
{
    struct packer *p = r->p;
    if (p->grp_n == 32 && !write_group(r, nbits))
        return false;
    p->grp[p->grp_n] = v;
    p->cnt[p->grp_n++] = 0;
    p->aug++;
    p->row_len++;
    p->absorbed = false;
    return true;
}

static bool comp_push(struct pack_run *r, uint32_t v, unsigned nbits)
{
    struct packer *p = r->p;
    if (v == 0 && p->row_len && p->grp_n && p->cnt[p->grp_n - 1] < 15) {
        p->cnt[p->grp_n - 1]++;
        p->absorbed = true;
        return true;
    }
    return new_augmented(r, v, nbits);
}

/* The end of a compression row: its last datum must stand on its own; then the row start index
 * of the next row. */
static bool comp_row_end(struct pack_run *r, unsigned nbits)
{
    struct packer *p = r->p;
    if (p->absorbed && p->grp_n) {
        p->cnt[p->grp_n - 1]--;
        if (!new_augmented(r, 0, nbits))
            return false;
    }
    p->row_len = 0;
    return put_bits(r, &p->rsi, p->aug, 16, false);
}

/* ---- late conversion and BFP blocks ---- */

/* The 16-bit BF16 (8-bit family) or E5M7-in-FP16 (5-bit family) form a BFP datum starts from. */
static uint32_t bfp_source(const struct pval *d, bool a_family)
{
    return a_family ? to_e5(d->v, 7) : d->v >> 16;
}

static bool emit_block(struct pack_run *r)
{
    struct packer *p = r->p;
    const unsigned fmt = r->out_fmt;
    const bool a = r->out_bfp_a;
    const unsigned nbits = df_datum_bits(fmt);
    unsigned emax = 0;
    for (unsigned k = 0; k < p->block_n; k++) {
        unsigned e = a ? (p->block[k] >> 10 & 0x1F) : (p->block[k] >> 7 & 0xFF);
        if (e > emax)
            emax = e;
    }
    if (!put_bits(r, &p->exp, emax, 8, false))
        return false;
    for (unsigned k = 0; k < 16; k++) {
        uint32_t v = k < p->block_n ? p->block[k] : 0;
        unsigned e = a ? (v >> 10 & 0x1F) : (v >> 7 & 0xFF);
        uint32_t man7 = a ? (v >> 3 & 0x7F) : (v & 0x7F), sign = v >> 15 & 1, m = 0;
        if (e) {
            unsigned sh = emax - e + 1;
            uint32_t mag8 = 0x80 | man7;
            m = sh >= 9 ? 0 : (mag8 + (1u << (sh - 1))) >> sh; /* nearest, ties away */
            if (m > 127)
                m = 127;
        }
        m >>= 8 - nbits; /* BFP4/BFP2: truncate the BFP8 magnitude */
        if (!m)
            sign = 0;
        if (!put_bits(r, &p->data, sign << (nbits - 1) | m, nbits, r->acc))
            return false;
    }
    p->block_n = 0;
    return true;
}

/* Late format conversion (WH:Packers/FormatConversion.md) and output of one datum. */
static bool late(struct pack_run *r, struct pval d)
{
    const unsigned fmt = r->out_fmt;
    if (r->out_float && d.kind != PV_F8 && d.kind != PV_F5)
        return pack_undef(r->t, r->th, "integer data to Out_data_format ", df_name(fmt));
    if (r->out_bfp) {
        r->p->block[r->p->block_n++] = bfp_source(&d, r->out_bfp_a);
        return r->p->block_n == 16 ? emit_block(r) : true;
    }
    uint32_t out;
    unsigned n;
    switch (fmt) {
    /* Denormals (WH:Packers/FormatConversion.md, late conversion table): preserved when neither
     * the exponent nor the mantissa narrows, flushed when the mantissa narrows; an FP16 value
     * read into an 8-bit-exponent format keeps its exact value. */
    case DF_FP32: case DF_TF32:
        out = fmt == DF_TF32 ? trunc_fp32(d.v, 10) : d.v;
        if (fmt == DF_TF32 && d.kind == PV_F8 && !(d.v & 0x7F800000u))
            out = 0;
        n = 32;
        break;
    case DF_BF16:
        out = d.v >> 16, n = 16;
        if (d.kind == PV_F8 ? !(d.v & 0x7F800000u) : exp5(d.v) == 0)
            out = 0;
        break;
    case DF_FP16:
        out = d.kind == PV_F5 ? f5_to_fp16(d.v) : to_e5(d.v, 10), n = 16;
        if (d.kind == PV_F8 && r->c.inter == DF_FP16 && r->c.r32) {
            /* the edge of FP16's range as ttsim has it (the page: "some inputs in range 2^-15 <
             * |x| < 2^-14 are mishandled"): below 2^-15 a signed zero; at 2^-15 the mantissa
             * is kept with exponent field 0 */
            uint32_t s = d.v >> 31, e8 = d.v >> 23 & 0xFF;
            if (e8 && e8 < 112) out = s << 15;
            else if (e8 == 112) out = s << 15 | (d.v >> 13 & 0x3FF);
        }
        break;
    case DF_FP8:
        if (r->fp8_e4m3)
            return unimplemented(r->t, r->th, "FP8 E4M3 output (Pac_LF8_4b_exp)");
        out = (d.kind == PV_F5 ? (exp5(d.v) ? f5_to_fp16(d.v) : 0) : to_e5(d.v, 2)) >> 8, n = 8;
        break;
    case DF_INT32:
        if (d.kind != PV_I32)
            return pack_undef(r->t, r->th, "Out_data_format INT32 from a non-INT32 intermediate", 0);
        out = d.v, n = 32;
        break;
    case DF_INT16:
        if (d.kind != PV_I16)
            return pack_undef(r->t, r->th, "Out_data_format INT16 from a non-INT16 intermediate", 0);
        out = d.v, n = 16;
        break;
    case DF_INT8:
        if (d.kind != PV_I8)
            return pack_undef(r->t, r->th, "Out_data_format INT8 from a non-INT8 intermediate", 0);
        out = d.v, n = 8;
        break;
    default:
        return pack_undef(r->t, r->th, "Out_data_format ", df_name(fmt));
    }
    return r->compress ? comp_push(r, out, n) : put_bits(r, &r->p->data, out, n, r->acc);
}

/* ---- fetching from Dst, with edge masking (WH:Packers/EdgeMasking.md) ---- */

/* Entry idx of 2-bit mapping `which` (16 entries per Config word). */
static unsigned map2(const uint32_t *words, unsigned which, unsigned idx)
{
    return words[which] >> (2 * (idx & 15)) & 3;
}

/* The edge mask at the tile position generator's row (its y and z). */
static inline uint32_t edge_mask_now(const struct pack_cfg *c, const struct packer *p)
{
    unsigned b = c->edge_face_en ? map2(c->face_map, c->edge_face_sel, c->zoffset + p->tpg_z)
                                 : c->edge_row_sel;
    return c->edge_mask[map2(c->row_map, b, p->tpg_y)];
}

/* The tile position generator's next row (x wrapped past 15). */
static inline void tpg_next_row(const struct pack_cfg *c, struct packer *p)
{
    p->tpg_x = 0;
    if (c->yz_transposed) {
        if (++p->tpg_z == c->reads_per_xy) p->tpg_z = 0, p->tpg_y++;
    } else {
        if (++p->tpg_y == c->reads_per_xy) p->tpg_y = 0, p->tpg_z++;
    }
}

/* The edge mask for the datum at the tile position generator, which then moves on. */
static inline uint32_t edge_mask_step(const struct pack_cfg *c, struct packer *p)
{
    const uint32_t mask = edge_mask_now(c, p);
    if (++p->tpg_x == 16)
        tpg_next_row(c, p);
    return mask;
}

static bool fetch(struct pack_run *r, uint32_t addr, struct pval *d)
{
    const struct pack_cfg *c = &r->c;
    const struct tile *t = r->t;
    struct packer *p = r->p;
    const uint32_t mask = edge_mask_step(c, p);
    unsigned row = addr >> 4, col = addr & 15;
    if (!(mask >> col & 1)) {
        /* -inf for floating-point data; integer data gets 0 (the page does not say) */
        bool neg_inf = c->edge_neg_inf && (r->zero_kind == PV_F8 || r->zero_kind == PV_F5);
        *d = (struct pval){neg_inf ? 0xFF800000u : 0, r->zero_kind};
        return true;
    }
    const struct dest *dst = &t->dest;
    uint32_t cell;
    const unsigned ph = dest_phys(c->dst_map, c->r32, row & 0x3FF);
    if (c->r32)
        cell = dst->row_valid[ph] ? dest_get32_at(dst, ph, col) : 0;
    else
        cell = dst->row_valid[ph] ? dst->bits[ph][col] : 0; /* undefined rows read as zero */
    return early(r->t, r->th, c, cell, d);
}

/* The exponent histogram's Update, after early conversion, edge masking and ReLU: raw 5- or
 * 8-bit exponents; INT32 as FP32 bits; INT16 its low 8 bits; INT8 (unspecified) its 8 bits. */
static void histogram(struct pack_run *r, struct pval d)
{
    uint32_t e;
    switch (d.kind) {
    case PV_F5: e = exp5(d.v); break;
    case PV_F8: case PV_I32: e = d.v >> 23 & 0xFF; break;
    default: e = d.v & 0xFF; break;
    }
    struct packer *p = r->p;
    if (r->c.hist_en)
        if (p->hist[e & 31] != 255)
            p->hist[e & 31]++;
    if (e > p->hist_max)
        p->hist_max = (uint8_t)e;
}

bool pack_query(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4])
{
    switch (q) {
    case Q_EXP_HISTOGRAM: memcpy(v, &t->pack.p[a].hist[b * 16], 16); return true;
    case Q_EXP_HISTOGRAM_MAX: v[0] = t->pack.p[0].hist_max; return true;
    case Q_PERF_PACK_BUSY:
        unit_perf_answer(v, t->pack.p[a].st.busy_cycles,
                         t->pack.p[a].count ? t->pack.p[a].busy_since : UINT64_MAX);
        return true;
    default: return false;
    }
}

/* SIG_CLEAR_EXP_HISTOGRAMS (CLREXPHIST, a matrix-unit instruction): Reset of every packer's
 * exponent histogram. */
void pack_signal(struct tile *t, enum unit_signal s, unsigned a, unsigned b)
{
    (void)a, (void)b;
    if (s != SIG_CLEAR_EXP_HISTOGRAMS)
        return;
    for (unsigned i = 0; i < NUM_PACKERS; i++) {
        memset(t->pack.p[i].hist, 0, sizeof t->pack.p[i].hist);
        t->pack.p[i].hist_max = 0;
    }
}

static bool process(struct pack_run *r, struct pval d)
{
    if (!relu(r->t, r->th, &r->c, &d))
        return false;
    if (!r->zero_write) /* the histogram counts datums fetched from Dst */
        histogram(r, d);
    if (!threshold(r->t, r->th, &r->c, &d))
        return false;
    r->p->st.datums++;
    return late(r, d);
}

/* The common case in a tight loop, with the same results, counts and errors as fetch + process
 * (it reads the same configuration through the same steps, without the general switches):
 * a 16-bit Dst read as BF16 (IntermediateFormat BF16, not Read_int8) and written as BF16; no
 * ReLU, threshold, compression, L1 accumulation, downsampling or zero writes. (Profile of tt-llk
 * math_matmul_perf: the general path took about 110 host instructions per datum.) */
static bool fast_datums_apply(const struct pack_run *r, const struct pack_job *j, uint32_t dmask)
{
    const struct pack_cfg *c = &r->c;
    return !r->t->pack.model_loop_only && !j->zero_write && !j->compress && !r->acc &&
           dmask == 0xFFFF && !c->relu_mode && !c->thr_en && !c->r32 && !c->raw &&
           c->inter == DF_BF16 && r->out_fmt == DF_BF16;
}

/* fetch and early for a datum of a 16-bit Dst as BF16: "rounded" to BF16 */
static inline uint32_t bf16_of_dst(uint16_t cell)
{
    return round_fp32((uint32_t)fmt_dst_to_bf16(cell) << 16, 7);
}

/* A whole unmasked Dst row at the start of a tile position row and of an output line: two
 * 16-byte lines of 8 datums each, each datum through the histogram and counts first, as
 * fast_datums does one at a time. */
static bool fast_row(struct pack_run *r, uint32_t addr)
{
    const struct pack_cfg *c = &r->c;
    const struct dest *dst = &r->t->dest;
    struct packer *p = r->p;
    const unsigned ph = dest_phys(c->dst_map, false, (addr >> 4) & 0x3FF);
    const bool valid = dst->row_valid[ph];
    for (unsigned half = 0; half < 2; half++) {
        for (unsigned k = 0; k < 8; k++) {
            const uint32_t x = bf16_of_dst(valid ? dst->bits[ph][8 * half + k] : 0);
            histogram(r, (struct pval){x, PV_F8});
            p->data.buf[2 * k] = (uint8_t)(x >> 16), p->data.buf[2 * k + 1] = (uint8_t)(x >> 24);
        }
        p->st.datums += 8;
        if ((p->tpg_x += 8) == 16)
            tpg_next_row(c, p);
        p->data.bits = 128;
        if (!write16(r->t, p, r->th, &p->data, false, r->out_fmt))
            return false;
    }
    return true;
}

static bool fast_datums(struct pack_run *r, uint32_t base, uint32_t num)
{
    const struct pack_cfg *c = &r->c;
    const struct dest *dst = &r->t->dest;
    struct packer *p = r->p;
    for (uint32_t k = 0; k < num; k++) {
        if (p->tpg_x == 0 && num - k >= 16 && ((base + k) & 15) == 0 && p->data.bits == 0 &&
            edge_mask_now(c, p) == 0xFFFF) {
            if (!fast_row(r, (base + k) & 0x3FFF))
                return false;
            k += 15;
            continue;
        }
        const uint32_t mask = edge_mask_step(c, p), addr = (base + k) & 0x3FFF, col = addr & 15;
        uint32_t x; /* fetch and early: BF16 from the 16-bit Dst, "rounded" to BF16 */
        if (mask >> col & 1) {
            const unsigned ph = dest_phys(c->dst_map, false, (addr >> 4) & 0x3FF);
            x = bf16_of_dst(dst->row_valid[ph] ? dst->bits[ph][col] : 0);
        } else {
            x = c->edge_neg_inf ? 0xFF800000u : 0;
        }
        histogram(r, (struct pval){x, PV_F8});
        p->st.datums++;
        /* late: BF16 (its flush of a zero exponent has nothing left to do: x is 0 then) */
        if (!put_bits(r, &p->data, x >> 16, 16, false))
            return false;
    }
    return true;
}

bool pack_run_job(struct tile *t, unsigned i, struct pack_job *j)
{
    struct packer *p = &t->pack.p[i];
    struct pack_run r = {.t = t, .p = p, .th = j->thread, .v = view_of(t, j->thread, i)};
    const struct view *v = &r.v;
    r.out_fmt = get(v, v->f->out_fmt);
    r.out_bfp = df_is_bfp(r.out_fmt), r.out_bfp_a = df_is_bfp_a(r.out_fmt);
    r.out_float = r.out_bfp || r.out_fmt == DF_FP32 || r.out_fmt == DF_TF32 ||
                  r.out_fmt == DF_BF16 || r.out_fmt == DF_FP16 || r.out_fmt == DF_FP8;
    r.acc = j->acc = get(v, v->f->l1_acc);
    r.fp8_e4m3 = v->ab == TT_ARCH_BH &&
                 cfg_get(&t->cfg, v->bank, &cfg_fields_bh[CFGF_BH_THCON_SEC0_REG1_Pac_LF8_4b_exp]);
    r.c = read_pack_cfg(v, i);
    const unsigned inter = r.c.inter;
    const bool f5 = inter == DF_FP16 || inter == DF_FP8 || df_is_bfp_a(inter);
    r.zero_kind = inter == DF_INT32 ? PV_I32 : inter == DF_INT16 ? PV_I16 : inter == DF_INT8 ? PV_I8
                  : f5 ? PV_F5 : PV_F8;
    r.zero_write = j->zero_write;
    if (j->kind == PK_SETREG) {
        /* flush every packer's buffers before L1, then the write */
        for (unsigned k = 0; k < NUM_PACKERS; k++) {
            struct pack_run rk = {.t = t, .p = &t->pack.p[k], .th = j->thread,
                                  .v = view_of(t, j->thread, k)};
            rk.out_fmt = get(&rk.v, rk.v.f->out_fmt);
            rk.acc = get(&rk.v, rk.v.f->l1_acc);
            if (!flush_stream(&rk, &rk.p->data, rk.acc) || !flush_stream(&rk, &rk.p->exp, false))
                return false;
        }
        return tensix_mmio_store(t, j->thread, j->setreg_addr, j->setreg_value) == MMIO_OK;
    }
    r.compress = j->compress;
    if (j->compress && p->rsi.needs_new) {
        /* a new row start index array: RSI[0] = 0 */
        p->rsi.byte_addr = (j->out_rsi & 0x1FFFF) << 4, p->rsi.needs_new = false;
        p->aug = p->row_len = 0;
        p->absorbed = false;
        if (!put_bits(&r, &p->rsi, 0, 16, false))
            return false;
    }
    if (p->data.needs_new)
        p->data.byte_addr = (j->out_data & 0x1FFFF) << 4, p->data.needs_new = false;
    if (r.out_bfp && !j->has_exp)
        return pack_undef(t, j->thread, "Out_data_format changed to a BFP format after the PACR "
                                        "was accepted (no exponent address)", 0);
    if (j->has_exp && p->exp.needs_new)
        p->exp.byte_addr = (j->out_exp & 0x1FFFF) << 4, p->exp.needs_new = false;

    uint32_t dmask = get(v, v->f->downsample) & 0xFFFF;
    if (!dmask)
        dmask = 0xFFFF;
    const bool fast = fast_datums_apply(&r, j, dmask);
    /* the datum addresses: Wormhole contiguous; Blackhole by row */
    unsigned rows = tile_is_wormhole(t) ? 1 : 4;
    for (unsigned row = 0; row < rows; row++) {
        uint32_t base = j->src_addr;
        if (!tile_is_wormhole(t)) {
            if (!(j->rows_mask >> row & 1))
                continue;
            base = (((j->src_addr >> 4) + j->row_step * row) << 4) | (j->src_addr & 15);
        }
        if (fast) {
            if (!fast_datums(&r, base, j->num))
                return false;
            continue;
        }
        for (uint32_t k = 0; k < j->num; k++) {
            struct pval d = {0, r.zero_kind};
            if (!j->zero_write && !fetch(&r, (base + k) & 0x3FFF, &d))
                return false;
            bool keep = dmask & 1;
            dmask = (dmask << 15 | dmask >> 1) & 0xFFFF;
            if (keep && !process(&r, d))
                return false;
        }
    }
    const unsigned nbits = df_datum_bits(r.out_fmt);
    if (j->compress && !j->concat && !comp_row_end(&r, nbits))
        return false;
    if (j->last || j->flush) {
        if (p->block_n && !emit_block(&r))
            return false;
        if (j->compress && p->grp_n && !write_group(&r, nbits))
            return false;
        if (!flush_stream(&r, &p->data, r.acc) || !flush_stream(&r, &p->exp, false) ||
            !flush_stream(&r, &p->rsi, false))
            return false;
        p->data.needs_new = p->exp.needs_new = p->rsi.needs_new = true;
        p->absorbed = false;
    }
    return true;
}
