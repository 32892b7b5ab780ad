/* SFPLOAD and SFPSTORE (units/sfpu_ldst.c) on Blackhole (suite sfpu_ldst) and Wormhole B0
 * (sfpu_ldst_wh). Dst cells are written and read in their stored layouts (WH:Dst.md "Data type
 * bit layout") with shuffles written out here, and every expected value is worked out from the
 * pages' functional models (SFPLOAD.md, SFPSTORE.md), lane by lane. */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/cfg.h"
#include "../units/dest.h"
#include "../units/formats.h"
#include "../units/sfpu.h"
#include "harness.h"
#include "sfpu_test.h"
#include "tensix_ops.h"

TestSuite(sfpu_ldst, .init = setup_bh, .fini = teardown);
TestSuite(sfpu_ldst_wh, .init = setup_wh, .fini = teardown);

/* Mod0 (SFPLOAD.md "Supporting definitions") */
enum { SRCB = 0, FP16 = 1, BF16 = 2, FP32 = 3, INT32 = 4, INT8 = 5, UINT16 = 6, HI16 = 7,
       INT16 = 8, LO16 = 9, INT32_ALL = 10, ZERO = 11, INT32_SM = 12, INT8_COMP = 13,
       LO16_ONLY = 14, HI16_ONLY = 15 };

static uint32_t ld(unsigned vd, unsigned mod0, unsigned am, unsigned imm)
{
    return wh ? TT_OP_SFPLOAD_WH(vd, mod0, am, imm) : TT_OP_SFPLOAD_BH(vd, mod0, am, imm);
}
static uint32_t st(unsigned vd, unsigned mod0, unsigned am, unsigned imm)
{
    return wh ? TT_OP_SFPSTORE_WH(vd, mod0, am, imm) : TT_OP_SFPSTORE_BH(vd, mod0, am, imm);
}

/* Lane L of an access at Addr: Dst row (Addr & ~3) + L / 8, column 2 (L & 7) + (Addr bit 1). */
static unsigned row_of(unsigned addr, unsigned l) { return (addr & ~3u) + l / 8; }
static unsigned col_of(unsigned addr, unsigned l) { return 2 * (l & 7) + (addr >> 1 & 1); }

/* Stored layouts (WH:Dst.md): BF16 Sign,Man7,Exp8; FP16 Sign,Man10,Exp5; FP32 the BF16 shuffle
 * on the high half. Written here from the diagrams, not with units/formats.h. */
static uint16_t cell_bf16(uint16_t b) { return (b & 0x8000) | (b & 0x7F) << 8 | (b >> 7 & 0xFF); }
static uint16_t cell_fp16(uint16_t h) { return (h & 0x8000) | (h & 0x3FF) << 5 | (h >> 10 & 0x1F); }
static uint32_t cell_fp32(uint32_t f) { return (uint32_t)cell_bf16(f >> 16) << 16 | (f & 0xFFFF); }

static void all_rows_valid(void) { memset(t->dest.row_valid, 1, sizeof t->dest.row_valid); }
static void fill_lreg(unsigned r, uint32_t base)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[r][l] = base + l;
}
static void set_flags(uint32_t mask) /* predication on, LaneFlags = mask */
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.use_lane_flags[l] = true, t->sfpu.lane_flags[l] = mask >> l & 1;
}
static void setth(const struct cfg_field_desc *f, uint32_t v) { thcfg_set(&t->cfg, 0, f, v); }
static void setc(const struct cfg_field_desc *f, uint32_t v) { cfg_set(&t->cfg, 0, f, v); }
#define AB (wh ? TT_ARCH_WH : TT_ARCH_BH)

/* ---- SFPLOAD: each mode, on both column halves ---- */

/* BF16 edge values: zeros, one, Inf, NaNs, a denormal, the largest finite, a plain value */
static const uint16_t bf16_edge[8] = {0x0000, 0x8000, 0x3F80, 0x7F80, 0xFF80, 0x7FC1, 0x0001, 0xFF7F};

static void load_bf16(void)
{
    all_rows_valid();
    for (unsigned r = 8; r < 12; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write16(t, r, c, cell_bf16((uint16_t)(bf16_edge[c / 2] ^ (r << 4) ^ (c & 1) << 8)));
    for (unsigned half = 0; half < 2; half++) {
        const unsigned addr = 8 + 2 * half;
        RUN(ld(3, BF16, 0, addr));
        for (unsigned l = 0; l < 32; l++) {
            const unsigned r = row_of(addr, l), c = col_of(addr, l);
            const uint32_t want = (uint32_t)(uint16_t)(bf16_edge[c / 2] ^ (r << 4) ^ (c & 1) << 8) << 16;
            cr_expect_eq(t->sfpu.lreg[3][l], want, "half %u lane %u: 0x%08x want 0x%08x", half, l,
                         t->sfpu.lreg[3][l], want);
        }
    }
}
Test(sfpu_ldst, load_bf16_widens_exactly) { load_bf16(); }
Test(sfpu_ldst_wh, load_bf16_widens_exactly) { load_bf16(); }

/* FP32 edge values: no conversion on load, denormals and NaN payloads kept */
static const uint32_t fp32_edge[8] = {0x00000000, 0x80000000, 0x007FFFFF, 0x807FFFFF,
                                      0x7F800000, 0xFFC00001, 0x3F800001, 0xC0490FDB};

static void load_32(unsigned mod0)
{
    all_rows_valid();
    for (unsigned r = 4; r < 8; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write32(t, r, c, cell_fp32(fp32_edge[c / 2] ^ r << 16 ^ (c & 1)));
    for (unsigned half = 0; half < 2; half++) {
        const unsigned addr = 4 + 2 * half + 1; /* bit 0 is unused */
        RUN(ld(2, mod0, 0, addr));
        for (unsigned l = 0; l < 32; l++) {
            const unsigned r = row_of(addr, l), c = col_of(addr, l);
            uint32_t want = fp32_edge[c / 2] ^ r << 16 ^ (c & 1);
            if (mod0 == INT32_SM && wh && (want >> 31)) /* WH: sign-magnitude to two's complement */
                want = 0u - (want & 0x7FFFFFFF);
            cr_expect_eq(t->sfpu.lreg[2][l], want, "mod0 %u lane %u: 0x%08x want 0x%08x", mod0, l,
                         t->sfpu.lreg[2][l], want);
        }
    }
}
Test(sfpu_ldst, load_fp32_int32_keep_every_bit) { load_32(FP32); load_32(INT32); load_32(INT32_SM); }
Test(sfpu_ldst_wh, load_fp32_int32_keep_every_bit) { load_32(FP32); load_32(INT32); load_32(INT32_SM); }

/* FP16 (SFPLOAD.md ReadFP16): exponent + 112 unless 0; exponent 31 is finite; with
 * ENABLE_FP16A_INF the largest value (exp 31, man 0x3FF) is Inf. */
static void load_fp16(void)
{
    static const struct { uint16_t h; uint32_t f, f_inf; } v[8] = {
        {0x3C00, 0x3F800000, 0x3F800000}, {0xBC00, 0xBF800000, 0xBF800000},
        {0x0000, 0x00000000, 0x00000000}, {0x8000, 0x80000000, 0x80000000},
        {0x0001, 0x00002000, 0x00002000}, /* a denormal keeps exponent 0 */
        {0x7C00, 0x47800000, 0x47800000}, /* no Inf: 65536 */
        {0x7FFF, 0x47FFE000, 0x7F800000}, {0xFFFF, 0xC7FFE000, 0xFF800000},
    };
    all_rows_valid();
    for (unsigned c = 0; c < 16; c++)
        for (unsigned r = 0; r < 4; r++)
            dest_write16(t, r, c, cell_fp16(v[c / 2].h));
    for (unsigned l = 16; l < 32; l++)
        t->sfpu.lane_config[l] = SFPU_LC_ENABLE_FP16A_INF; /* rows 2, 3 */
    RUN(ld(0, FP16, 0, 2));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t want = l >= 16 ? v[l & 7].f_inf : v[l & 7].f;
        cr_expect_eq(t->sfpu.lreg[0][l], want, "lane %u: 0x%08x want 0x%08x", l, t->sfpu.lreg[0][l], want);
    }
}
Test(sfpu_ldst, load_fp16_rebias_and_fp16a_inf) { load_fp16(); }
Test(sfpu_ldst_wh, load_fp16_rebias_and_fp16a_inf) { load_fp16(); }

/* The 16-bit integer and raw modes read the Dst16b cell's bits as stored. */
static uint32_t raw_want(unsigned mod0, uint16_t x, uint32_t old)
{
    const uint32_t s = (uint32_t)(x >> 15) << 31;
    switch (mod0) {
    case UINT16: case LO16: return x;
    case HI16: return (uint32_t)x << 16;
    case LO16_ONLY: return (old & 0xFFFF0000) | x;
    case HI16_ONLY: return (uint32_t)x << 16 | (old & 0xFFFF);
    case INT16: return s | (x & 0x7FFF);
    case INT8: return s | (x >> 5 & (wh ? 0x7F : 0xFF));
    case INT8_COMP: {
        const uint32_t mag = x >> 5 & 0x3FF;
        return wh ? (s ? 0u - mag : mag) : s | mag;
    }
    default: return 0;
    }
}

static void load_raw(void)
{
    static const unsigned modes[] = {UINT16, LO16, HI16, LO16_ONLY, HI16_ONLY, INT16, INT8, INT8_COMP, ZERO};
    static const uint16_t cells[8] = {0x0000, 0xFFFF, 0x8000, 0x7FFF, 0x8FF0, 0x1FE0, 0x80A0, 0x1234};
    all_rows_valid();
    for (unsigned r = 12; r < 16; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write16(t, r, c, (uint16_t)(cells[c / 2] ^ (c & 1) << 14 ^ r));
    for (unsigned i = 0; i < N(modes); i++) {
        fill_lreg(5, 0xA5A50000 + i * 0x1000000);
        RUN(ld(5, modes[i], 0, 14)); /* odd columns */
        for (unsigned l = 0; l < 32; l++) {
            const unsigned r = row_of(14, l), c = col_of(14, l);
            const uint16_t x = (uint16_t)(cells[c / 2] ^ (c & 1) << 14 ^ r);
            const uint32_t want = raw_want(modes[i], x, 0xA5A50000 + i * 0x1000000 + l);
            cr_expect_eq(t->sfpu.lreg[5][l], want, "mod0 %u lane %u: 0x%08x want 0x%08x", modes[i],
                         l, t->sfpu.lreg[5][l], want);
        }
    }
}
Test(sfpu_ldst, load_integer_and_raw_16_bit_modes) { load_raw(); }
Test(sfpu_ldst_wh, load_integer_and_raw_16_bit_modes) { load_raw(); }

/* MOD0_FMT_SRCB resolves from Config: SFPU_Fp32_enabled -> FP32, else SrcB format BF16-like ->
 * BF16, else FP16. */
static void load_srcb(void)
{
    all_rows_valid();
    dest_write32(t, 0, 0, cell_fp32(0x3F812345)); /* Dst32b row 0 col 0 */
    dest_write16(t, 0, 0, cell_fp16(0x3C01));     /* Dst16b row 0 col 0 (DstBits row 0 too) */
    setc(CFG_DESC(AB, ALU_ACC_CTRL_SFPU_Fp32_enabled), 1);
    RUN(ld(1, SRCB, 0, 0));
    /* Dst32b row 0 is now the Dst16b cell 0x002F (FP16 0x3C01: Man10 1 << 5, Exp5 15) over the
     * low half 0x2345: its Sign,ManHi7,Exp8 unshuffle is exponent 0x2F, mantissa 0, sign 0 */
    cr_expect_eq(t->sfpu.lreg[1][0], 0x17802345u); /* the low half came along: FP32 */
    setc(CFG_DESC(AB, ALU_ACC_CTRL_SFPU_Fp32_enabled), 0);
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG1_SrcB), DF_FP16);
    RUN(ld(1, SRCB, 0, 0));
    cr_expect_eq(t->sfpu.lreg[1][0], 0x3F802000u); /* FP16 0x3C01 */
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG1_SrcB), DF_BFP8);
    RUN(ld(1, SRCB, 0, 0));
    cr_expect_eq(t->sfpu.lreg[1][0], 0x17800000u); /* the same cell 0x002F read as BF16 */
    /* the override wins over REG1 */
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG_SrcB_override), 1);
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG_SrcB_val), DF_FP16);
    RUN(ld(1, SRCB, 0, 0));
    cr_expect_eq(t->sfpu.lreg[1][0], 0x3F802000u);
}
Test(sfpu_ldst, load_srcb_resolves_from_config) { load_srcb(); }
Test(sfpu_ldst_wh, load_srcb_resolves_from_config) { load_srcb(); }

/* ---- SFPSTORE: each mode ---- */

/* One LReg value per lane and what each mode leaves in the Dst cell (16-bit cells as stored). */
static const uint32_t st_in[8] = {
    0x3F80FFFF, /* 1.0 + mantissa bits: truncated */
    0x807FFFFF, /* -denormal */
    0x7F800001, /* NaN that truncates to Inf in BF16 */
    0xFF800000, /* -Inf */
    0x38012345, /* just under 2^-15 * 2: FP16 exponent 0 after rebias -> flushed, mantissa too */
    0x477FE000, /* 65504 */
    0x80000005, /* sign-magnitude -5 */
    0xFFFFFFFB, /* two's complement -5 */
};

static uint32_t st_want(unsigned mod0, uint32_t x)
{
    const uint32_t e = x >> 23 & 0xFF;
    switch (mod0) {
    case FP16: {
        const int ex = (int)e - 112;
        uint16_t h;
        if (ex <= 0) h = (uint16_t)(x >> 16 & 0x8000);
        else if (ex > 31) h = (uint16_t)(x >> 16 & 0x8000) | 0x7FFF;
        else h = (uint16_t)((x >> 16 & 0x8000) | ex << 10 | (x >> 13 & 0x3FF));
        return cell_fp16(h);
    }
    case BF16: return cell_bf16((uint16_t)((e ? x : x & 0x80000000) >> 16));
    case FP32: return cell_fp32(e || wh ? x : x & 0x80000000); /* Blackhole flushes, Wormhole keeps */
    case INT32: case INT32_ALL: return cell_fp32(x);
    case INT32_SM:
        if (wh && x >> 31)
            return cell_fp32(0x80000000 | ((0u - x) & 0x7FFFFFFF));
        return cell_fp32(x);
    case INT8: case INT8_COMP: {
        uint32_t sm = x;
        if (mod0 == INT8_COMP && wh && x >> 31)
            sm = 0x80000000 | ((0u - x) & 0x7FFFFFFF);
        return cell_fp16((uint16_t)((sm >> 31) << 15 | 16 << 10 | (sm & 0x3FF)));
    }
    case UINT16: case LO16_ONLY: return x & 0xFFFF;
    case HI16_ONLY: return x >> 16;
    case INT16: return (x >> 31) << 15 | (x & 0x7FFF);
    case LO16: return x << 16 | x >> 16;
    case HI16: return x;
    default: return 0; /* ZERO */
    }
}
static bool st_is_32(unsigned m)
{
    return m == FP32 || m == INT32 || m == INT32_ALL || m == INT32_SM || m == LO16 || m == HI16;
}

static void store_modes(void)
{
    all_rows_valid();
    for (unsigned mod0 = 1; mod0 < 16; mod0++) {
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[6][l] = st_in[l & 7] ^ (l / 8) << 28;
        /* Dst32b rows 16-23 are DstBits rows 32-47, apart from Dst16b rows 16-31 */
        for (unsigned c = 0; c < 16; c++) {
            for (unsigned r = 16; r < 24; r++)
                dest_write32(t, r, c, 0xDEADBEEF);
            for (unsigned r = 16; r < 32; r++)
                dest_write16(t, r, c, 0xBEEF);
        }
        const unsigned addr = 20 + (mod0 & 1) * 2; /* both halves over the modes */
        RUN(st(6, mod0, 0, addr));
        for (unsigned l = 0; l < 32; l++) {
            const unsigned r = row_of(addr, l), c = col_of(addr, l);
            const uint32_t want = st_want(mod0, st_in[l & 7] ^ (l / 8) << 28);
            const uint32_t got = st_is_32(mod0) ? dest_read32(t, r, c) : dest_read16(t, r, c);
            cr_expect_eq(got, want, "mod0 %u lane %u: 0x%08x want 0x%08x", mod0, l, got, want);
            /* the other column half of the row is untouched */
            const uint32_t other = st_is_32(mod0) ? dest_read32(t, r, c ^ 1) : dest_read16(t, r, c ^ 1);
            cr_expect_eq(other, st_is_32(mod0) ? 0xDEADBEEFu : 0xBEEFu, "mod0 %u lane %u: other half", mod0, l);
        }
    }
}
Test(sfpu_ldst, store_every_mode) { store_modes(); }
Test(sfpu_ldst_wh, store_every_mode) { store_modes(); }

/* BF16/FP32 through Dst and back: truncation, not rounding; FP32 keeps all 32 bits */
static void round_trip(void)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[0][l] = 0x3FFFFFFF - l;
    RUN(st(0, BF16, 0, 0), st(0, BF16, 0, 2), ld(1, BF16, 0, 0), st(0, FP32, 0, 8), st(0, FP32, 0, 10), ld(2, FP32, 0, 8));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[1][l], 0x3FFF0000u, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], 0x3FFFFFFFu - l, "lane %u", l);
    }
}
Test(sfpu_ldst, store_then_load_round_trip) { round_trip(); }
Test(sfpu_ldst_wh, store_then_load_round_trip) { round_trip(); }

/* ---- addressing ---- */

/* Addr = Imm10 + DEST_TARGET_REG_CFG_MATH_Offset + RWC.Dst + DEST_REGW_BASE (10 bits); BH adds
 * DEST_SP_BASE & 3 (RWC.Sp is 0). */
static void addressing(void)
{
    all_rows_valid();
    for (unsigned r = 0; r < 1024; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write16(t, r, c, (uint16_t)(r << 4 | c));
    setth(THCFG_DESC(AB, DEST_TARGET_REG_CFG_MATH_Offset), 100);
    setc(CFG_DESC(AB, DEST_REGW_BASE_Base), 300);
    t->fpu.rwc[0].dst = 20;
    unsigned addr = 6 + 100 + 20 + 300;
    if (!wh) {
        setc(&cfg_fields_bh[CFGF_BH_DEST_SP_BASE_Base], 0x102); /* only & 3 counts: + 2 */
        addr += 2;
    }
    RUN(ld(4, UINT16, 0, 6));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t want = row_of(addr, l) << 4 | col_of(addr, l);
        cr_expect_eq(t->sfpu.lreg[4][l], want, "lane %u: 0x%x want 0x%x", l, t->sfpu.lreg[4][l], want);
    }
    /* wrapping at 1024 rows */
    setth(THCFG_DESC(AB, DEST_TARGET_REG_CFG_MATH_Offset), 1020);
    t->fpu.rwc[0].dst = 0;
    setc(CFG_DESC(AB, DEST_REGW_BASE_Base), 0);
    if (!wh)
        setc(&cfg_fields_bh[CFGF_BH_DEST_SP_BASE_Base], 0);
    t->sfpu.lane_config[0] = SFPU_LC_ENABLE_DEST_INDEX | SFPU_LC_CAPTURE_DEFAULT_DEST_INDEX;
    RUN(ld(0, UINT16, 0, 8));
    cr_expect_eq(t->sfpu.lreg[0][0], 4u << 4 | 0);
    cr_expect_eq(t->sfpu.lreg[0][31], 7u << 4 | 14);
    cr_expect_eq(t->sfpu.lreg[4][0], 4u << 4 | 0, "the captured row is 10 bits: 0x%x", t->sfpu.lreg[4][0]);
}
Test(sfpu_ldst, address_adds_imm_offset_rwc_base) { addressing(); }
Test(sfpu_ldst_wh, address_adds_imm_offset_rwc_base) { addressing(); }

/* ApplyPartialAddrMod after the access: Dst/SrcA/SrcB RWCs advance, FidelityPhase does not. */
static void addr_mod(void)
{
    all_rows_valid();
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write16(t, r, c, (uint16_t)(r << 4 | c));
    setth(THCFG_DESC(AB, ADDR_MOD_DST_SEC1_DestIncr), 2);
    setth(THCFG_DESC(AB, ADDR_MOD_DST_SEC1_FidelityIncr), 1);
    setth(THCFG_DESC(AB, ADDR_MOD_AB_SEC1_SrcAIncr), 3);
    setth(THCFG_DESC(AB, ADDR_MOD_AB_SEC1_SrcBIncr), 5);
    /* even half of rows 0-3, odd half, then rows 4-7 even: the LLK walk */
    RUN(ld(0, UINT16, 1, 0), ld(1, UINT16, 1, 0), ld(2, UINT16, 1, 0), st(2, UINT16, 1, 8));
    for (unsigned k = 0; k < 3; k++)
        for (unsigned l = 0; l < 32; l++)
            cr_expect_eq(t->sfpu.lreg[k][l], row_of(2 * k, l) << 4 | col_of(2 * k, l), "load %u lane %u", k, l);
    /* the store went to Imm 8 + RWC.Dst 6 = 14: rows 12-15, odd columns */
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dest_read16(t, row_of(14, l), col_of(14, l)), row_of(4, l) << 4 | col_of(4, l), "lane %u", l);
    cr_expect_eq(t->fpu.rwc[0].dst, 8);
    cr_expect_eq(t->fpu.rwc[0].srca, 12);
    cr_expect_eq(t->fpu.rwc[0].srcb, 20);
    cr_expect_eq(t->fpu.rwc[0].fidelity, 0);
}
Test(sfpu_ldst, addr_mod_applied_after_without_fidelity) { addr_mod(); }
Test(sfpu_ldst_wh, addr_mod_applied_after_without_fidelity) { addr_mod(); }

/* Blackhole's 3-bit AddrMod names slots 4..7 directly; Wormhole reaches them through
 * ADDR_MOD_SET_Base. */
Test(sfpu_ldst, addr_mod_three_bits)
{
    all_rows_valid();
    setth(THCFG_DESC(AB, ADDR_MOD_DST_SEC6_DestIncr), 36);
    RUN(ld(0, UINT16, 6, 0));
    cr_expect_eq(t->fpu.rwc[0].dst, 36);
}
Test(sfpu_ldst_wh, addr_mod_set_base)
{
    all_rows_valid();
    setth(THCFG_DESC(AB, ADDR_MOD_DST_SEC6_DestIncr), 36);
    setth(&thcfg_fields_wh[THCFGF_WH_ADDR_MOD_SET_Base], 1);
    RUN(ld(0, UINT16, 2, 0));
    cr_expect_eq(t->fpu.rwc[0].dst, 36);
}

/* ---- lanes ---- */

/* Loads write LReg only on enabled lanes; stores write Dst only from enabled lanes; INT32_ALL
 * ignores LaneEnabled; ROW_MASK disables a row of lanes. */
static void predication(void)
{
    all_rows_valid();
    const uint32_t mask = 0x5A3C96F1;
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write32(t, r, c, cell_fp32(0x40000000 | r << 8 | c));
    fill_lreg(0, 0x11110000);
    set_flags(mask);
    t->sfpu.lane_config[3] |= 1u << (SFPU_LC_ROW_MASK_SHIFT + 2); /* lane 19: row 2 of column 3 */
    RUN(ld(0, FP32, 0, 0));
    for (unsigned l = 0; l < 32; l++) {
        const bool on = (mask >> l & 1) && l != 19;
        const uint32_t want = on ? 0x40000000u | l / 8 << 8 | col_of(0, l) : 0x11110000u + l;
        cr_expect_eq(t->sfpu.lreg[0][l], want, "load lane %u", l);
    }
    RUN(ld(1, INT32_ALL, 0, 0)); /* every lane, even 19 */
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[1][l], 0x40000000u | l / 8 << 8 | col_of(0, l), "INT32_ALL lane %u", l);
    fill_lreg(2, 0x22220000);
    RUN(st(2, INT32, 0, 0));
    for (unsigned l = 0; l < 32; l++) {
        const bool on = (mask >> l & 1) && l != 19;
        const uint32_t want = cell_fp32(on ? 0x22220000u + l : 0x40000000u | l / 8 << 8 | col_of(0, l));
        cr_expect_eq(dest_read32(t, l / 8, col_of(0, l)), want, "store lane %u", l);
    }
}
Test(sfpu_ldst, only_enabled_lanes) { predication(); }
Test(sfpu_ldst_wh, only_enabled_lanes) { predication(); }

/* LaneConfig: BLOCK_SFPU_RD_FROM_DEST / BLOCK_DEST_WR_FROM_SFPU skip a lane; DEST_RD/WR_COL_
 * EXCHANGE of a column takes the other half; ENABLE_DEST_INDEX + CAPTURE_DEFAULT_DEST_INDEX put
 * (Row << 4) | Column in LReg[VD + 4]. */
static void lane_config(void)
{
    all_rows_valid();
    for (unsigned r = 0; r < 8; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write16(t, r, c, (uint16_t)(r << 4 | c));
    fill_lreg(1, 0x1000);
    fill_lreg(5, 0x5000);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t lc = SFPU_LC_ENABLE_DEST_INDEX | SFPU_LC_CAPTURE_DEFAULT_DEST_INDEX;
        if (l == 9) lc |= SFPU_LC_BLOCK_SFPU_RD_FROM_DEST;
        if ((l & 7) == 2) lc |= SFPU_LC_DEST_RD_COL_EXCHANGE;
        if ((l & 7) == 5) lc |= SFPU_LC_DEST_WR_COL_EXCHANGE;
        if (l == 30) lc |= SFPU_LC_BLOCK_DEST_WR_FROM_SFPU;
        t->sfpu.lane_config[l] = lc;
    }
    RUN(ld(1, UINT16, 0, 4));
    for (unsigned l = 0; l < 32; l++) {
        const unsigned r = 4 + l / 8, c = 2 * (l & 7) + ((l & 7) == 2);
        cr_expect_eq(t->sfpu.lreg[1][l], l == 9 ? 0x1000u + l : (uint32_t)(r << 4 | c), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[5][l], l == 9 ? 0x5000u + l : (uint32_t)(r << 4 | c), "index lane %u", l);
    }
    fill_lreg(2, 0xA000);
    RUN(st(2, UINT16, 0, 0));
    for (unsigned l = 0; l < 32; l++) {
        const unsigned r = l / 8, c = 2 * (l & 7) + ((l & 7) == 5);
        cr_expect_eq(dest_read16(t, r, c), l == 30 ? (uint16_t)(r << 4 | c) : 0xA000u + l, "store lane %u", l);
    }
}
Test(sfpu_ldst, lane_config_bits) { lane_config(); }
Test(sfpu_ldst_wh, lane_config_bits) { lane_config(); }

/* VD: SFPLOAD writes only LReg[0..7] (no backdoor on its page) but still advances the RWCs;
 * SFPSTORE may store the constants, and VD >= 12 with the backdoor on writes the template. */
static void vd_rules(void)
{
    all_rows_valid();
    setth(THCFG_DESC(AB, ADDR_MOD_DST_SEC1_DestIncr), 4);
    setth(THCFG_DESC(AB, ADDR_MOD_DST_SEC1_FidelityIncr), 1);
    const uint32_t l8 = t->sfpu.lreg[8][0];
    RUN(ld(8, UINT16, 1, 0), ld(12, UINT16, 1, 0));
    cr_expect_eq(t->sfpu.lreg[8][0], l8);
    cr_expect_eq(t->sfpu.macro[0].instruction_template[0], 0u);
    cr_expect_eq(t->fpu.rwc[0].dst, 8);
    cr_expect_eq(t->fpu.rwc[0].fidelity, 0, "ApplyPartialAddrMod leaves FidelityPhase");
    t->fpu.rwc[0].dst = 0;
    RUN(st(11, HI16_ONLY, 0, 0)); /* LReg[11] = -1.0 */
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(dest_read16(t, l / 8, col_of(0, l)), 0xBF80u);
    const uint32_t w = st(15, UINT16, 0, 2);
    t->sfpu.lane_config[4] = SFPU_LC_DISABLE_BACKDOOR_LOAD; /* lane 4 stores LReg[15] instead */
    RUN(w);
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.macro[l].instruction_template[3], l == 4 ? 0u : w, "lane %u", l);
        const uint16_t got = dest_read16(t, l / 8, col_of(2, l));
        cr_expect_eq(got, l == 4 ? 8u : 0u, "lane %u: 0x%x", l, got); /* LReg[15] = lane * 2 */
    }
}
Test(sfpu_ldst, vd_rules) { vd_rules(); }
Test(sfpu_ldst_wh, vd_rules) { vd_rules(); }

/* ---- undefined rows (WH:ZEROACC.md) ---- */

/* SFPLOAD of a row that is not valid stops the run (nothing changes); MOD0_FMT_ZERO reads
 * nothing. SFPSTORE fills an undefined row: it becomes valid with its 16th column. */
static void undefined_load(void)
{
    fill_lreg(0, 0x100);
    fill_lreg(1, 0x200);
    t->dest.row_valid[0] = t->dest.row_valid[1] = t->dest.row_valid[2] = true;
    set_flags(0x00FFFFFF); /* lanes 24-31 (row 3) off: row 3 is not read */
    RUN(ld(0, UINT16, 0, 0), ld(1, ZERO, 0, 40));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[1][l], l < 24 ? 0u : 0x200u + l, "lane %u", l);
    fill_lreg(0, 0x100);
    set_flags(0xFFFFFFFF);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, ld(0, UINT16, 1, 0)); /* row 3 is not valid */
    cr_expect(strstr(t->err.text, "lane 24 reads Dst16b row 3"), "%s", t->err.text);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[0][l], 0x100u + l);
}
Test(sfpu_ldst, load_of_undefined_row_stops) { undefined_load(); }
Test(sfpu_ldst_wh, load_of_undefined_row_stops) { undefined_load(); }

/* A Dst32b cell needs both of its DstBits rows valid (the high half in row p, the low in p + 8) */
static void undefined_load32(void)
{
    for (unsigned r = 0; r < 8; r++)
        t->dest.row_valid[r] = true; /* Dst32b rows 0-3: DstBits 0-3 valid, 8-11 not */
    RUN(ld(0, HI16, 0, 0)); /* Dst16b rows 0-3 are fine */
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, ld(0, INT32, 0, 0));
    cr_expect(strstr(t->err.text, "lane 0 reads Dst32b row 0"), "%s", t->err.text);
}
Test(sfpu_ldst, load32_needs_both_halves_valid) { undefined_load32(); }
Test(sfpu_ldst_wh, load32_needs_both_halves_valid) { undefined_load32(); }

static void undefined_store(void)
{
    fill_lreg(0, 0x100);
    RUN(st(0, UINT16, 0, 40));
    for (unsigned r = 40; r < 44; r++)
        cr_expect(!t->dest.row_valid[r], "row %u valid after the even half", r);
    RUN(st(0, UINT16, 0, 42));
    for (unsigned r = 40; r < 44; r++)
        cr_expect(t->dest.row_valid[r], "row %u not valid after both halves", r);
    RUN(ld(2, UINT16, 0, 42));
    cr_expect_eq(t->sfpu.lreg[2][31], 0x100u + 31);
    /* Dst32b: both DstBits rows of a cell fill and become valid */
    RUN(st(0, INT32, 0, 64), st(0, INT32, 0, 66), ld(3, INT32, 0, 66));
    cr_expect_eq(t->sfpu.lreg[3][5], 0x100u + 5);
    /* half a row is still undefined to SFPLOAD */
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, st(0, UINT16, 0, 80), ld(4, UINT16, 0, 80));
}
Test(sfpu_ldst, store_fills_undefined_rows) { undefined_store(); }
Test(sfpu_ldst_wh, store_fills_undefined_rows) { undefined_store(); }

/* ---- timing ---- */

/* Latency 1: back-to-back on consecutive cycles; SFPSTORE makes its 8-row blocks unreadable to
 * the matrix unit and packers for the next four cycles (Dst.md "Instruction scheduling"). */
static void timing(void)
{
    all_rows_valid();
    const uint32_t a = st(0, FP32, 0, 16), b = ld(1, FP32, 0, 16), c = st(0, BF16, 0, 0);
    RUN(a, b, c);
    const uint64_t ca = issue_log_cycle(&issues, 0, a, 0);
    cr_expect_eq(issue_log_cycle(&issues, 0, b, 0), ca + 1);
    cr_expect_eq(issue_log_cycle(&issues, 0, c, 0), ca + 2);
    const struct dest_map m = dest_map_of(t);
    /* Dst32b rows 16-19 are DstBits rows 32-35 and 40-43: blocks 4 and 5 */
    cr_expect_eq(t->dest.block_ready[4], ca + 5);
    cr_expect_eq(t->dest.block_ready[5], ca + 5);
    cr_expect_eq(dest_first_blocked(&t->dest, m, true, 16, 4, ca + 4), 4);
    cr_expect_eq(dest_first_blocked(&t->dest, m, true, 16, 4, ca + 5), -1);
    cr_expect_eq(t->dest.block_ready[0], ca + 7);
    cr_expect_eq(t->sfpu.st.insns, 3u);
}
Test(sfpu_ldst, timing_and_dest_hazard) { timing(); }
Test(sfpu_ldst_wh, timing_and_dest_hazard) { timing(); }

/* Blackhole's remap of Dst16b rows (DEST_ACCESS_CFG remap_addrs) goes through the Dst owner. */
Test(sfpu_ldst, dst_remap)
{
    all_rows_valid();
    cfg_set(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_remap_addrs], 1);
    for (unsigned r = 0; r < 32; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write16(t, r, c, (uint16_t)(r << 4 | c));
    RUN(ld(0, UINT16, 0, 8));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[0][l], row_of(8, l) << 4 | col_of(8, l), "lane %u", l);
    /* the physical row differs from the logical one */
    cr_expect_neq(dest_adj16(8, true), 8u);
    cr_expect_eq(t->dest.bits[dest_adj16(9, true)][0], 9u << 4);
}

/* The matrix unit waits on a block SFPSTORE wrote (Dst.md "Instruction scheduling"): MOVD2B of
 * a stored row issues 5 cycles after the SFPSTORE; of a row in another block, the next cycle. */
Test(sfpu_ldst, matrix_unit_waits_for_sfpstore)
{
    all_rows_valid();
    t->src.bank[0][0].client = t->src.bank[1][0].client = SRC_CLIENT_MATRIX;
    thcfg_set(&t->cfg, 0, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCA_FMT_Base], 1);
    thcfg_set(&t->cfg, 0, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCB_FMT_Base], 1);
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG0_SrcA), DF_BF16);
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG1_SrcB), DF_BF16);
    fill_lreg(0, 0x3F800000);
    const uint32_t s1 = st(0, BF16, 0, 8), far = TT_OP_MOVD2B_BH(0, 33, 0, 0, 16),
                   s2 = st(0, BF16, 0, 10), near = TT_OP_MOVD2B_BH(0, 34, 0, 0, 9);
    RUN(s1, far, s2, near);
    const uint64_t c1 = issue_log_cycle(&issues, 0, s1, 0);
    cr_expect_eq(issue_log_cycle(&issues, 0, far, 0), c1 + 1);
    const uint64_t c2 = issue_log_cycle(&issues, 0, s2, 0);
    cr_expect_eq(c2, c1 + 2);
    cr_expect_eq(issue_log_cycle(&issues, 0, near, 0), c2 + 5);
    cr_expect_eq(t->thread[0].st.stall[GS_DEST_HAZARD], 4);
    /* and it moved what the stores wrote: BF16 1.0 in both halves of row 9 */
    for (unsigned c = 0; c < 16; c++)
        cr_expect_eq(t->src.bank[1][0].cell[34][c], fmt_src_from_bf16(0x3F80), "col %u", c);
}

/* SFPSTORE's MOD0_FMT_SRCB resolves as SFPLOAD's: FP32 (denormals flushed on Blackhole, kept on
 * Wormhole, as their pages say), FP16 or BF16. */
static void store_srcb(void)
{
    all_rows_valid();
    t->sfpu.lreg[0][0] = 0x00000001, t->sfpu.lreg[0][1] = 0x3F812345;
    setc(CFG_DESC(AB, ALU_ACC_CTRL_SFPU_Fp32_enabled), 1);
    RUN(st(0, SRCB, 0, 0));
    cr_expect_eq(dest_read32(t, 0, 0), tile_is_wormhole(t) ? cell_fp32(1) : 0u);
    cr_expect_eq(dest_read32(t, 0, 2), cell_fp32(0x3F812345));
    setc(CFG_DESC(AB, ALU_ACC_CTRL_SFPU_Fp32_enabled), 0);
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG1_SrcB), DF_FP16);
    RUN(st(0, SRCB, 0, 0));
    cr_expect_eq(dest_read16(t, 0, 2), cell_fp16(0x3C09)); /* 1.0088 truncated to FP16 */
    setc(CFG_DESC(AB, ALU_FORMAT_SPEC_REG1_SrcB), DF_INT32);
    RUN(st(0, SRCB, 0, 0));
    cr_expect_eq(dest_read16(t, 0, 2), cell_bf16(0x3F81));
}
Test(sfpu_ldst, store_srcb_resolves_from_config) { store_srcb(); }
Test(sfpu_ldst_wh, store_srcb_resolves_from_config) { store_srcb(); }

/* MOD0_FMT_INT32_ALL addressing: only the low 2 bits of RWC.Dst + DEST_REGW_BASE (WH); BH adds
 * RWC.Sp + DEST_SP_BASE in full (RWC.Sp reads 0). */
static void int32_all_addressing(void)
{
    all_rows_valid();
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++)
            dest_write32(t, r, c, cell_fp32(r << 4 | c));
    t->fpu.rwc[0].dst = 6 + 32; /* & 3 = 2: the odd half */
    unsigned addr = 8 + 2;
    if (!wh) {
        setc(&cfg_fields_bh[CFGF_BH_DEST_SP_BASE_Base], 20);
        addr += 20;
    }
    RUN(ld(0, INT32_ALL, 0, 8), ld(1, INT32, 0, 8));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[0][l], row_of(addr, l) << 4 | col_of(addr, l), "INT32_ALL lane %u", l);
        const unsigned a2 = 8 + 38 + (wh ? 0 : 20 & 3);
        cr_expect_eq(t->sfpu.lreg[1][l], row_of(a2, l) << 4 | col_of(a2, l), "INT32 lane %u", l);
    }
}
Test(sfpu_ldst, int32_all_addressing) { int32_all_addressing(); }
Test(sfpu_ldst_wh, int32_all_addressing) { int32_all_addressing(); }

/* Blackhole INT32_ALL SFPSTORE with SFPU_STACK_Incr != 0 would move RWC.Sp, which tensim does
 * not model: it stops as unimplemented, changing nothing. */
Test(sfpu_ldst, int32_all_store_with_stack_incr_is_unimplemented)
{
    all_rows_valid();
    fill_lreg(0, 0x100);
    RUN(st(0, INT32_ALL, 0, 0));
    setth(&thcfg_fields_bh[THCFGF_BH_SFPU_STACK_Incr], 4);
    RUN(ld(1, INT32_ALL, 0, 0)); /* a load pre-decrements only a non-zero Sp: nothing moves */
    cr_expect_eq(t->sfpu.lreg[1][3], 0x103u);
    RUN_FAILS(ERR_UNIMPLEMENTED, st(2, INT32_ALL, 0, 0));
    cr_expect_eq(dest_read32(t, 0, 6), 0x103u);
}
