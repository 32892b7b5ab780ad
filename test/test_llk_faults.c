/* Blackhole behaviours that tt-llk's kernels rely on and that tensim got wrong (each test fails
 * before its fix), with the values Tenstorrent's functional simulator ttsim computes
 * (docs/numerics.md, docs/unpack.md, docs/pack.md, docs/timing-model.md):
 *  1. RDCFG followed by a ThCon instruction on the same GPR: the younger instruction reads the
 *     RDCFG result and its own write wins (tt-llk's matmul steps its tile address this way);
 *  2. whole-tile tilize on Blackhole reads 32-datum rows for 16- and 32-bit data;
 *  3. PACR's strided Dst read mode (pack untilize): interface i reads StartRow + 16 i;
 *  4. FP32 unpacked to TF32 keeps ten mantissa bits through the matrix unit (implied format);
 *  5. an FP32 Dst packed to FP16 with Round_10b_mant;
 *  6. the implied SrcA/SrcB formats, and SETDVALID's unpredictable one. */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/formats.h"
#include "harness.h"
#include "tensix_ops.h"

static struct tile *t;
static unsigned ab;
static void setup(void) { t = test_tile(ARCH_BLACKHOLE); ab = tile_arch_bit(t); }
static void setup_wh(void) { t = test_tile(ARCH_WORMHOLE); ab = tile_arch_bit(t); }
static void teardown(void) { tile_destroy(t); }
TestSuite(llk_bh, .init = setup, .fini = teardown);
TestSuite(llk_wh, .init = setup_wh, .fini = teardown);

static void setc(const struct cfg_field_desc *f, uint32_t v) { cfg_set(&t->cfg, 0, f, v); }
#define C(NAME, v) setc(CFG_DESC(ab, NAME), v)
#define TC(NAME, v) thcfg_set(&t->cfg, 0, THCFG_DESC(ab, NAME), v)
static enum err_kind run(const uint32_t *w, unsigned n) { return run_tensix(t, w, n, 2000000); }
#define N(a) (sizeof(a) / sizeof(a)[0])

/* ---------------- fault 1: RDCFG then ADDDMAREG on the same GPR ---------------- */

static void rdcfg_adddmareg(void)
{
    const unsigned IDX = CFG_DESC(ab, THCON_SEC0_REG3_Base_address)->word;
    t->cfg.cfg[0][IDX] = 0x100;
    t->gpr[0][36] = 0x10;       /* TILE_SIZE_A */
    t->gpr[0][12] = 0xDEAD0000; /* TMP0: stale */
    const uint32_t w[] = {
        TT_OP_RDCFG(12, IDX),
        TT_OP_ADDDMAREG(12, 12, 36), /* TMP0 = TILE_SIZE_A + TMP0 (tt-llk operand order) */
        ab == TT_ARCH_BH ? TT_OP_STALLWAIT_BH(0x80, 0x1) : TT_OP_STALLWAIT_WH(0x80, 0x1),
        TT_OP_WRCFG(12, 0, IDX),
        TT_OP_NOP, TT_OP_NOP,
    };
    cr_assert_eq(run(w, N(w)), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->gpr[0][12], 0x110, "GPR12 = 0x%x (ttsim: 0x110; the old model gave 0x100)", t->gpr[0][12]);
    cr_expect_eq(t->cfg.cfg[0][IDX], 0x110, "Base_address = 0x%x (ttsim: 0x110)", t->cfg.cfg[0][IDX]);
}
Test(llk_bh, rdcfg_then_adddmareg_same_gpr) { rdcfg_adddmareg(); }
Test(llk_wh, rdcfg_then_adddmareg_same_gpr) { rdcfg_adddmareg(); } /* RDCFG blocks the thread on WH */

/* ---------------- fault 2: Blackhole whole-tile tilize ---------------- */

#define DATA 0x40000u
static void put16(uint32_t a, uint16_t v) { t->l1[a] = (uint8_t)v; t->l1[a + 1] = (uint8_t)(v >> 8); }

Test(llk_bh, tilize_reads_rows_of_32_datums)
{
    /* Row-major 32 x 32 BF16 (64-byte rows) as tt-llk's BH tilize sees it: Tile_x_dim 1024,
     * ADC X 0..1023, Tileize_mode 1, RowStride = 64 bytes (Shift_amount = 64 >> 4). */
    for (unsigned r = 0; r < 32; r++)
        for (unsigned c = 0; c < 32; c++)
            put16(DATA + 64 * r + 2 * c, (uint16_t)(0x4000 + r * 32 + c));
    uint32_t *d = &t->cfg.cfg[0][CFG_DESC(ab, THCON_SEC0_REG0_TileDescriptor)->word];
    d[0] = DF_BF16 | 1u << 4 | 1024u << 16;
    d[1] = 1 | 1u << 16;
    C(THCON_SEC0_REG3_Base_address, DATA / 16 - 1);
    C(THCON_SEC0_REG2_Out_data_format, DF_BF16);
    C(THCON_SEC0_REG2_Tileize_mode, 1);
    C(THCON_SEC0_REG2_Shift_amount_cntx0, 4);
    C(UNP0_ADDR_BASE_REG_1_Base, 64 * 2);
    TC(SRCA_SET_SetOvrdWithAddr, 1);
    t->adc[0].unpack[0].ch[1].v[ADC_X] = 1023;
    const uint32_t w[] = {TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    unsigned bad = 0;
    for (unsigned r = 0; r < 32; r++)
        for (unsigned h = 0; h < 2; h++)
            for (unsigned c = 0; c < 16; c++) {
                uint32_t want = fmt_src_from_bf16((uint16_t)(0x4000 + r * 32 + 16 * h + c));
                uint32_t got = t->src.bank[0][0].cell[2 * r + h][c];
                if (got != want && bad++ < 4)
                    cr_expect_eq(got, want, "SrcA row %u col %u (ttsim: L1 row %u col %u)", 2 * r + h,
                                 c, r, 16 * h + c);
            }
    cr_expect_eq(bad, 0, "%u SrcA cells differ from ttsim's BH tilize", bad);
}

/* ---------------- fault 3: PACR strided read (pack untilize) ---------------- */

#define OUT 0x50000u
static uint16_t l1_16(uint32_t a) { return (uint16_t)(t->l1[a] | t->l1[a + 1] << 8); }
static void dst_bf16(unsigned row, unsigned col, uint16_t b)
{
    dest_write16(t, row, col, (uint16_t)((b & 0x8000) | (b & 0x7F) << 8 | (b >> 7 & 0xFF)));
    t->dest.row_valid[dest_adj16(row, dest_remap_addrs(t))] = true;
}

static void untilize_row(unsigned y)
{
    C(ALU_FORMAT_SPEC_REG2_Dstacc, DF_BF16);
    C(THCON_SEC0_REG1_In_data_format, DF_BF16);
    C(THCON_SEC0_REG1_Out_data_format, DF_BF16);
    C(THCON_SEC0_REG1_Disable_zero_compress, 1);
    C(THCON_SEC0_REG1_L1_Dest_addr, OUT / 16 - 1);
    C(PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    C(PCK0_ADDR_CTRL_XY_REG_0_Ystride, 32);
    cfg_set(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_remap_addrs], 1);
    cfg_set(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_swizzle_32b], 1);
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++)
            dst_bf16(r, c, (uint16_t)(0x3F80 + 16 * r + c));
    t->adc[0].pack.ch[0].v[ADC_Y] = y;
    t->adc[0].pack.ch[1].v[ADC_X] = 15;
    /* tt-llk pack untilize: DstAccessMode strided, ReadIntfSel TWO_INTFS_ACTIVE, Last */
    const uint32_t w[] = {TT_OP_PACR_BH(0, 0, 1, 0, 0, 0, 0x3, 0, 0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned c = 0; c < 16; c++) {
        cr_expect_eq(l1_16(OUT + 2 * c), 0x3F80 + 16 * y + c, "datum %u: Dst row %u (ttsim)", c, y);
        cr_expect_eq(l1_16(OUT + 32 + 2 * c), 0x3F80 + 16 * (y + 16) + c, "datum %u: Dst row %u (ttsim)",
                     16 + c, y + 16);
    }
}
Test(llk_bh, pack_untilize_strided_read_row0) { untilize_row(0); }
Test(llk_bh, pack_untilize_strided_read_row3) { untilize_row(3); }

/* ---------------- faults 4 and 6: implied Src formats ---------------- */

static uint32_t dst32_fp32(unsigned row, unsigned col)
{
    uint32_t d = dest_read32(t, row, col);
    return (d & 0x80000000u) | ((d >> 16) & 0xFF) << 23 | ((d >> 24) & 0x7F) << 16 | (d & 0xFFFF);
}

/* Unpacker 0 set up to move 128 datums (8 rows) of format `in` at DATA into SrcA as `out`,
 * `row_bytes` being a SrcA row in that format (its output starts 4 rows in). */
static void srca_8_rows(unsigned in, unsigned out, unsigned row_bytes)
{
    uint32_t *d = &t->cfg.cfg[0][CFG_DESC(ab, THCON_SEC0_REG0_TileDescriptor)->word];
    d[0] = in | 1u << 4 | 16u << 16;
    d[1] = 8 | 1u << 16;
    C(THCON_SEC0_REG3_Base_address, DATA / 16 - 1);
    C(THCON_SEC0_REG2_Out_data_format, out);
    C(UNP0_ADDR_BASE_REG_1_Base, 4 * row_bytes);
    t->adc[0].unpack[0].ch[1].v[ADC_X] = 127;
}

/* FP32 in L1 -> UNPACR (Out TF32) -> SrcA, bank handed over by FlipSrc; ALU_FORMAT_SPEC left
 * at 0 as tt-llk leaves it on Blackhole. */
static void unpack_fp32_to_srca_tf32(uint32_t v)
{
    for (unsigned i = 0; i < 128; i++) {
        put16(DATA + 4 * i, (uint16_t)v);
        put16(DATA + 4 * i + 2, (uint16_t)(v >> 16));
    }
    srca_8_rows(DF_FP32, DF_TF32, 16 * 4);
    C(ALU_ACC_CTRL_Fp32_enabled, 1);
}

Test(llk_bh, fp32_as_tf32_through_mova2d_keeps_10_bits)
{
    const uint32_t v = 0x3F812000u; /* 1.0087890625: needs 10 mantissa bits */
    unpack_fp32_to_srca_tf32(v);
    const uint32_t w[] = {TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1),
                          TT_OP_MOVA2D_BH(0, 0, 0, 1, 0), TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP};
    cr_assert_eq(run(w, N(w)), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(dst32_fp32(0, 0), v, "Dst32b[0][0] = 0x%08x (ttsim: 0x%08x)", dst32_fp32(0, 0), v);
}

Test(llk_bh, fp32_as_tf32_through_elwadd_keeps_10_bits)
{
    const uint32_t v = 0x3F812000u;
    unpack_fp32_to_srca_tf32(v);
    C(THCON_SEC1_REG2_Out_data_format, DF_TF32);
    const uint32_t w[] = {TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1),
                          TT_OP_UNPACR_NOP_BH(1, 0, 0, 1, 0, 0, 0, 0, 1), /* SrcB = 0, dvalid */
                          TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0), TT_OP_NOP, TT_OP_NOP, TT_OP_NOP,
                          TT_OP_NOP, TT_OP_NOP};
    cr_assert_eq(run(w, N(w)), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(dst32_fp32(0, 0), v, "Dst32b[0][0] = 0x%08x (ttsim: 0x%08x)", dst32_fp32(0, 0), v);
}

/* 128 FP16 datums 0x3E07 (1.5 + 7 * 2^-10) set up for unpacker 0 to SrcA */
static void fp16_srca(void)
{
    for (unsigned i = 0; i < 128; i++)
        put16(DATA + 2 * i, 0x3E07);
    srca_8_rows(DF_FP16, DF_FP16, 16 * 2);
}

Test(llk_bh, implied_fp16_format_for_mova2d)
{
    /* FP16 unpacked to SrcA; ALU_FORMAT_SPEC_REG0_SrcA = 0 (FP32). Implied FP16 makes MOVA2D
     * write Dst16b in the FP16 layout (RemoveHighExponent); 0x3E07 = 1.5 + 7 * 2^-10. */
    fp16_srca();
    const uint32_t w[] = {TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1),
                          TT_OP_MOVA2D_BH(0, 0, 0, 1, 0), TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP};
    cr_assert_eq(run(w, N(w)), ERR_NONE, "%s", t->err.text);
    /* Dst FP16 layout: Sign, Man(10), Exp(5): man 0x207, exp 15 */
    cr_expect_eq(dest_read16(t, 0, 0), (0x207u << 5) | 15u, "Dst16b[0][0] = 0x%04x", dest_read16(t, 0, 0));
}

/* ---------------- fault 5: FP32 Dst -> FP16 with Round_10b_mant ---------------- */

static void dst_fp32(unsigned row, unsigned col, uint32_t x)
{
    dest_write32(t, row, col,
                 (x & 0x80000000u) | ((x >> 16) & 0x7F) << 24 | (x >> 23 & 0xFF) << 16 | (x & 0xFFFF));
    t->dest.row_valid[dest_adj32(row, false, false)] = true;
    t->dest.row_valid[dest_adj32(row, false, false) + 8] = true;
}

Test(llk_bh, fp32_dst_to_fp16_with_round_10b_mant)
{
    C(PCK_DEST_RD_CTRL_Read_32b_data, 1);
    C(PCK_DEST_RD_CTRL_Round_10b_mant, 1);
    C(ALU_FORMAT_SPEC_REG2_Dstacc, DF_FP16);
    C(THCON_SEC0_REG1_In_data_format, DF_FP16);
    C(THCON_SEC0_REG1_Out_data_format, DF_FP16);
    C(THCON_SEC0_REG1_Disable_zero_compress, 1);
    C(THCON_SEC0_REG1_L1_Dest_addr, OUT / 16 - 1);
    C(PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    C(PCK0_ADDR_CTRL_XY_REG_0_Ystride, 64);
    t->adc[0].pack.ch[1].v[ADC_X] = 15;
    /* FP32 input -> ttsim FP16 output */
    static const uint32_t in[16][2] = {
        {0x3F800000, 0x3C00}, /* 1.0 */
        {0x3F801000, 0x3C01}, /* 1 + 2^-11: tie, away from zero */
        {0xBF801000, 0xBC01}, /* negative tie */
        {0x3F800FFF, 0x3C00}, /* just below the tie */
        {0x477FF000, 0x7C00}, /* 65520 rounds to 65536: exponent 31 is finite on Tensix */
        {0x49742400, 0x7FFF}, /* 1e6: saturates */
        {0x7F800000, 0x7FFF}, /* +inf */
        {0xFFC00000, 0xFFFF}, /* NaN (negative): -inf -> -max */
        {0x00400000, 0x0000}, /* FP32 denormal: +0 */
        {0x80000000, 0x0000}, /* -0 -> +0 (rounding) */
        {0xB5800000, 0x8000}, /* -2^-20 (|x| < 2^-15): signed zero */
        {0x38400000, 0x0200}, /* 1.5 * 2^-15: exponent field 0, mantissa kept ("mishandled") */
        {0x38800000, 0x0400}, /* 2^-14: smallest normal */
        {0x40490FDB, 0x4248}, /* pi */
        {0xC2C80000, 0xD640}, /* -100 */
        {0x3E2AAAAB, 0x3155}, /* 1/6 */
    };
    for (unsigned c = 0; c < 16; c++)
        for (unsigned r = 0; r < 4; r++)
            dst_fp32(r, c, in[c][0]);
    const uint32_t w[] = {TT_OP_PACR_BH(0, 0, 0, 0, 0, 0, 0x1, 0, 0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned c = 0; c < 16; c++)
        cr_expect_eq(l1_16(OUT + 2 * c), in[c][1], "0x%08x -> 0x%04x (ttsim: 0x%04x)", in[c][0],
                     l1_16(OUT + 2 * c), in[c][1]);
}

/* ---------------- fault 1, the other register ---------------- */

Test(llk_bh, rdcfg_result_read_by_the_next_adddmareg)
{
    const unsigned IDX = CFG_DESC(ab, THCON_SEC0_REG3_Base_address)->word;
    t->cfg.cfg[0][IDX] = 0x100;
    t->gpr[0][36] = 0x10;
    t->gpr[0][12] = 0xDEAD0000;
    const uint32_t w[] = {TT_OP_RDCFG(12, IDX), TT_OP_ADDDMAREG(13, 12, 36), TT_OP_NOP, TT_OP_NOP,
                          TT_OP_NOP, TT_OP_NOP};
    cr_assert_eq(run(w, N(w)), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->gpr[0][13], 0x110, "GPR13 = 0x%x (ttsim: 0x110; the old model gave 0xDEAD0010)", t->gpr[0][13]);
    cr_expect_eq(t->gpr[0][12], 0x100);
}

Test(llk_bh, disable_implied_srca_format_restores_alu_format_spec)
{
    fp16_srca();
    thcfg_set(&t->cfg, 0, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCA_FMT_Base], 1);
    const uint32_t w[] = {TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1),
                          TT_OP_MOVA2D_BH(0, 0, 0, 1, 0), TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP};
    cr_assert_eq(run(w, N(w)), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(dest_read16(t, 0, 0), 0x400F, "ALU_FORMAT_SPEC (FP32 -> BF16 path) when disabled");
}

Test(llk_bh, setdvalid_makes_the_implied_format_unpredictable)
{
    const uint32_t w[] = {TT_OP_SETDVALID(1, 1), TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0), TT_OP_NOP};
    cr_expect_eq(run(w, N(w)), ERR_UNDEF_BEHAVIOUR, "%s", t->err.text);
    cr_expect(strstr(t->err.text, "ELWADD") && strstr(t->err.text, "the implied SrcA format of a bank handed over by "
                                             "SETDVALID is unpredictable on Blackhole"), "%s", t->err.text);
}

Test(llk_bh, setdvalid_with_the_implied_formats_disabled_runs)
{
    thcfg_set(&t->cfg, 0, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCA_FMT_Base], 1);
    const uint32_t w1[] = {TT_OP_SETDVALID(1, 1), TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0), TT_OP_NOP};
    cr_expect_eq(run(w1, N(w1)), ERR_UNDEF_BEHAVIOUR, "SrcB's implied format is still unknown");
    cr_expect(strstr(t->err.text, "the implied SrcB format") != NULL, "%s", t->err.text);
    tile_destroy(t);
    setup();
    thcfg_set(&t->cfg, 0, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCA_FMT_Base], 1);
    thcfg_set(&t->cfg, 0, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCB_FMT_Base], 1);
    const uint32_t w[] = {TT_OP_SETDVALID(1, 1), TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0), TT_OP_NOP};
    cr_expect_eq(run(w, N(w)), ERR_NONE, "%s", t->err.text);
}

Test(llk_bh, unpacr_flipsrc_records_the_banks_format)
{
    fp16_srca();
    const uint32_t w[] = {TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->src.implied_fmt[0][0], DF_FP16);
    cr_expect_eq(t->src.implied_fmt[0][1], 0, "the other bank keeps its reset value");
    cr_expect_eq(t->src.unpack_bank[0], 1);
}
