/* The packers (units/pack.c, units/pack_timing.c) driven through the whole pipe: Dst is filled
 * directly, a TRISC kernel pushes PACRs, and the bytes in L1 are compared with values computed
 * here from the rules of WH:Packers/FormatConversion.md and its siblings (docs/pack.md gives the
 * bit-level reading of the prose rules), never by calling units/pack.c or the conversions of
 * units/formats.c (only its format-size tables, which test_formats.c checks).
 * Cycle expectations come from docs/timing-model.md "Packers". */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/formats.h"
#include "harness.h"
#include "tensix_ops.h"

#define OUT 0x50000u /* first byte the packer writes (L1_Dest_addr + 1 header unit) */

static struct tile *t;
static unsigned ab;
static struct issue_log ilog;

static void start(enum arch_id arch)
{
    t = test_tile(arch);
    ab = tile_arch_bit(t);
    issue_log_attach(t, &ilog);
}
static void setup(void) { start(ARCH_BLACKHOLE); }
static void setup_wh(void) { start(ARCH_WORMHOLE); }
static void teardown(void) { tile_destroy(t); }
TestSuite(pack, .init = setup, .fini = teardown);
TestSuite(pack_wh, .init = setup_wh, .fini = teardown);

static void setc(const struct cfg_field_desc *f, uint32_t v) { cfg_set(&t->cfg, 0, f, v); }
#define C(NAME, v) setc(CFG_DESC(ab, NAME), v)

static enum err_kind run(const uint32_t *w, unsigned n) { return run_tensix(t, w, n, 1000000); }

/* Packer 0 set up for a 16-datum-per-row pack: Dst rows are read Ystride bytes apart (one row
 * per ADC Y step), ADDR_MOD_PACK slot 0 adds 4 to Y (four rows per Blackhole PACR; Wormhole
 * PACRs here read 64 contiguous datums and step Y by 4 as well). */
static void config(unsigned inter, unsigned in_fmt, unsigned out_fmt, bool r32)
{
    C(PCK_DEST_RD_CTRL_Read_32b_data, r32);
    C(ALU_FORMAT_SPEC_REG2_Dstacc, inter);
    C(THCON_SEC0_REG1_In_data_format, in_fmt);
    C(THCON_SEC0_REG1_Out_data_format, out_fmt);
    C(THCON_SEC0_REG1_Disable_zero_compress, 1);
    C(THCON_SEC0_REG1_L1_Dest_addr, OUT / 16 - 1);
    C(PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    unsigned bpd = (in_fmt & 3) == 0 ? 4 : (in_fmt & 3) == 1 ? 2 : 1;
    C(PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16 * bpd);
    thcfg_set(&t->cfg, 0, THCFG_DESC(ab, ADDR_MOD_PACK_SEC0_YsrcIncr), 4);
    t->adc[0].pack.ch[1].v[ADC_X] = ab == TT_ARCH_WH ? 63 : 15;
}

/* PACR over four rows; `last` flushes the output. */
static uint32_t pacr(bool last)
{
    return ab == TT_ARCH_WH ? TT_OP_PACR_WH(0, 0, 1, 0, 0, 0, last)
                            : TT_OP_PACR_BH(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last);
}

static unsigned pack_rows(unsigned nrows)
{
    uint32_t w[64];
    unsigned n = nrows / 4;
    for (unsigned i = 0; i < n; i++)
        w[i] = pacr(i == n - 1);
    cr_assert_eq(run(w, n), ERR_NONE, "%s", t->err.text);
    return n;
}

/* ---- Dst contents, in the Dst layouts of WH:Dst.md ---- */

static void dst_bf16(unsigned row, unsigned col, uint16_t b)
{
    dest_write16(t, row, col, (uint16_t)((b & 0x8000) | (b & 0x7F) << 8 | (b >> 7 & 0xFF)));
    t->dest.row_valid[row] = true;
}
static void dst_fp16(unsigned row, unsigned col, uint16_t h)
{
    dest_write16(t, row, col, (uint16_t)((h & 0x8000) | (h & 0x3FF) << 5 | (h >> 10 & 0x1F)));
    t->dest.row_valid[row] = true;
}
static void dst_fp32(unsigned row, unsigned col, uint32_t x)
{
    dest_write32(t, row, col,
                 (x & 0x80000000u) | ((x >> 16) & 0x7F) << 24 | (x >> 23 & 0xFF) << 16 | (x & 0xFFFF));
    t->dest.row_valid[dest_adj32(row, false, false)] = true;
    t->dest.row_valid[dest_adj32(row, false, false) + 8] = true;
}

static uint16_t l1_16(uint32_t a) { return (uint16_t)(t->l1[a] | t->l1[a + 1] << 8); }
static uint32_t l1_32(uint32_t a) { return l1_16(a) | (uint32_t)l1_16(a + 2) << 16; }

static uint32_t hash(uint32_t i)
{
    i = (i + 1) * 2654435761u;
    i ^= i >> 15;
    return i * 2246822519u;
}

/* A BF16 pattern with a nonzero exponent below 255 (early "rounding" flushes the rest). */
static uint16_t bf16_normal(uint32_t i) { return (uint16_t)((hash(i) >> 16 & 0xBFFF) | 0x0080); }

/* ---- whole tiles: bytes and cycles ---- */

/* One 32x32 tile held as 64 Dst rows of 16. Blackhole: 16 PACRs of four rows; the packer writes
 * 32 bytes (two 16-byte writes) per cycle per read interface (core/timing.def pack.write_bytes,
 * calibrated), 8 writes per cycle over four interfaces, so a BF16 tile (2048 bytes, 128 writes)
 * takes 16 write cycles and an FP32 tile 32, after the 2-cycle start-up; the last PACR then
 * stays pack.latency (16) cycles in the pipeline, which the run's end waits out. */
/* Pack a 32x32 BF16 tile (64 Dst rows) and check every datum lands unchanged. */
static void pack_bf16_tile(void)
{
    config(DF_BF16, DF_BF16, DF_BF16, false);
    for (unsigned i = 0; i < 1024; i++)
        dst_bf16(i / 16, i % 16, bf16_normal(i));
    pack_rows(64);
    for (unsigned i = 0; i < 1024; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), bf16_normal(i), "datum %u", i);
}

Test(pack, bf16_tile_bytes_and_cycles)
{
    pack_bf16_tile();
    const struct packer *p = &t->pack.p[0];
    cr_expect_eq(p->st.l1_writes, 128);
    cr_expect_eq(p->st.write_cycles, 16, "128 writes / (4 interfaces x 2 writes per cycle)");
    cr_expect_eq(p->st.busy_cycles, 2 + 16, "start-up 2 + 16 write cycles");
    /* the 16 PACRs issue one per cycle from c and their writes follow back to back (each one's
     * pipeline latency overlaps the next one's writes): the last write cycle ends at c + 18,
     * the last PACR leaves the pipeline 16 cycles later */
    uint64_t c = ilog.e[0].cycle;
    cr_expect_eq(t->cycles, c + 2 + 16 + 16);
}

Test(pack, fp32_tile_bytes_and_cycles)
{
    config(DF_FP32, DF_FP32, DF_FP32, true);
    for (unsigned i = 0; i < 1024; i++)
        dst_fp32(i / 16, i % 16, (hash(i) & 0xBFFFFFFFu) | 0x00800000u);
    pack_rows(64);
    for (unsigned i = 0; i < 1024; i++)
        cr_expect_eq(l1_32(OUT + 4 * i), (hash(i) & 0xBFFFFFFFu) | 0x00800000u, "datum %u", i);
    cr_expect_eq(t->pack.p[0].st.l1_writes, 256);
    /* 256 writes / (4 interfaces x 2 writes per cycle) = 32 cycles after the start-up */
    cr_expect_eq(t->pack.p[0].st.busy_cycles, 2 + 32);
}

/* The whole-kernel calibration's shape (bench/calib/pack.c): 64 one-interface PACRs
 * (ReadIntfSel 0b0001), one 16-datum Dst row each. One interface writes 32 bytes per cycle: a
 * BF16 row (32 bytes) in 1 cycle, an FP32 row (64 bytes) in 2, so a tile is 64 / 128 write
 * cycles (silicon's per-pass figures: 104 - 40 and 168 - 40, docs/timing-model.md). */
static void pack_one_row_pacrs(bool fp32)
{
    if (fp32)
        config(DF_FP32, DF_FP32, DF_FP32, true);
    else
        config(DF_BF16, DF_BF16, DF_BF16, false);
    thcfg_set(&t->cfg, 0, THCFG_DESC(ab, ADDR_MOD_PACK_SEC0_YsrcIncr), 1);
    for (unsigned i = 0; i < 1024; i++) {
        if (fp32)
            dst_fp32(i / 16, i % 16, (hash(i) & 0xBFFFFFFFu) | 0x00800000u);
        else
            dst_bf16(i / 16, i % 16, bf16_normal(i));
    }
    uint32_t w[64];
    for (unsigned i = 0; i < 64; i++)
        w[i] = TT_OP_PACR_BH(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, i == 63);
    cr_assert_eq(run(w, 64), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 1024; i++) {
        if (fp32)
            cr_expect_eq(l1_32(OUT + 4 * i), (hash(i) & 0xBFFFFFFFu) | 0x00800000u, "datum %u", i);
        else
            cr_expect_eq(l1_16(OUT + 2 * i), bf16_normal(i), "datum %u", i);
    }
}

Test(pack, one_interface_bf16_row_per_cycle)
{
    pack_one_row_pacrs(false);
    cr_expect_eq(t->pack.p[0].st.l1_writes, 128);
    cr_expect_eq(t->pack.p[0].st.write_cycles, 64, "64 rows x 2 writes / 2 per cycle");
    /* PACR k issues at c + k and starts at c + 2 + k (the packer keeps pace with the gate): the
     * last write cycle ends at c + 2 + 64, the last PACR leaves the pipeline 16 later */
    uint64_t c = ilog.e[0].cycle;
    cr_expect_eq(t->cycles, c + 2 + 64 + 16);
}

Test(pack, one_interface_fp32_row_in_two_cycles)
{
    pack_one_row_pacrs(true);
    cr_expect_eq(t->pack.p[0].st.l1_writes, 256);
    cr_expect_eq(t->pack.p[0].st.write_cycles, 128, "64 rows x 4 writes / 2 per cycle");
    /* the packer is the bottleneck (the queue of 4 holds the thread): back-to-back from c + 2 */
    uint64_t c = ilog.e[0].cycle;
    cr_expect_eq(t->cycles, c + 2 + 128 + 16);
}

Test(pack_wh, bf16_tile_one_packer)
{
    /* Wormhole: one packer, 64 contiguous datums per PACR, 16 bytes per cycle: 128 cycles */
    pack_bf16_tile();
    cr_expect_eq(t->pack.p[0].st.busy_cycles, 2 + 128);
}

Test(pack, undefined_dst_rows_read_as_zero)
{
    /* ReadIntfSel 0b0111 packs three Dst rows, 48 BF16 datums (96 bytes, six whole 16-byte
     * blocks, so Last has nothing to pad). Only row 0 was written: rows 1 and 2 read as zero,
     * and nothing is written past byte 96. */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    memset(t->l1 + OUT, 0xAB, 256);
    dst_bf16(0, 0, 0x3F80);
    uint32_t w[] = {TT_OP_PACR_BH(0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(l1_16(OUT), 0x3F80);
    for (unsigned i = 1; i < 48; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), 0, "row %u is undefined: zero", i / 16);
    cr_expect_eq(t->l1[OUT + 96], 0xAB);
}

/* ---- format conversions: one PACR of 64 datums (four Dst rows) ---- */

static uint32_t pack64(void)
{
    uint32_t w[] = {pacr(true)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    return OUT;
}

/* Round FP32 pattern x to `keep` mantissa bits, nearest with ties away from zero; zero and
 * denormals become +0 (WH:Packers/FormatConversion.md "Rounding"). */
static uint32_t rna(uint32_t x, unsigned keep)
{
    if (!(x & 0x7F800000u))
        return 0;
    uint64_t mag = x & 0x7FFFFFFFu;
    unsigned drop = 23 - keep;
    mag = (mag + (1ull << (drop - 1))) >> drop << drop;
    return (x & 0x80000000u) | (uint32_t)mag;
}

/* A normal FP32 value with a random mantissa, exponent 100..155. */
static uint32_t rnd_fp32(unsigned i)
{
    return (hash(i) & 0x80000000u) | (100u + hash(i + 7) % 56) << 23 | (hash(i * 3) & 0x7FFFFF);
}

Test(pack, fp32_dst_to_tf32_and_bf16_rounded)
{
    config(DF_TF32, DF_TF32, DF_TF32, true);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, rnd_fp32(i));
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_32(OUT + 4 * i), rna(rnd_fp32(i), 10), "TF32 %u", i);
}

Test(pack, fp32_dst_to_bf16_rounded_or_truncated)
{
    config(DF_BF16, DF_BF16, DF_BF16, true);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, rnd_fp32(i));
    dst_fp32(0, 1, 0x3F80FFFFu); /* rounds up */
    dst_fp32(0, 2, 0x3F808000u); /* a tie: away from zero */
    dst_fp32(0, 3, 0x00000123u); /* denormal: flushed */
    pack64();
    for (unsigned i = 4; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), rna(rnd_fp32(i), 7) >> 16, "BF16 %u", i);
    cr_expect_eq(l1_16(OUT + 2), 0x3F81);
    cr_expect_eq(l1_16(OUT + 4), 0x3F81);
    cr_expect_eq(l1_16(OUT + 6), 0);
    /* Read_raw (PCK_DEST_RD_CTRL_Read_int8): truncation */
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    config(DF_BF16, DF_BF16, DF_BF16, true);
    C(PCK_DEST_RD_CTRL_Read_int8, 1);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, rnd_fp32(i));
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), rnd_fp32(i) >> 16, "truncated BF16 %u", i);
}

/* FP32 to FP16 in the late conversion: saturate (exponent above the FP16 range -> the largest
 * pattern), flush below 2^-14 to +0, then truncate the mantissa. */
static uint16_t late_fp16(uint32_t x)
{
    uint32_t s = x >> 31;
    int e = (int)(x >> 23 & 0xFF) - 127 + 15;
    if (e > 31)
        return (uint16_t)(s << 15 | 0x7FFF);
    if (e <= 0)
        return 0;
    return (uint16_t)(s << 15 | (uint32_t)e << 10 | (x >> 13 & 0x3FF));
}

Test(pack, fp32_to_fp16_and_fp8_saturate_flush_truncate)
{
    config(DF_FP32, DF_FP32, DF_FP16, true);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, rnd_fp32(i));
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), late_fp16(rnd_fp32(i)), "FP16 %u from 0x%08x", i, rnd_fp32(i));
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    config(DF_FP32, DF_FP32, DF_FP8, true);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, rnd_fp32(i));
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(t->l1[OUT + i], late_fp16(rnd_fp32(i)) >> 8, "FP8 %u", i);
}

Test(pack, fp16_dst_identity_and_fp8_truncation)
{
    config(DF_FP16, DF_FP16, DF_FP16, false);
    for (unsigned i = 0; i < 64; i++)
        dst_fp16(i / 16, i % 16, (uint16_t)(hash(i) >> 16));
    dst_fp16(0, 0, 0x8003); /* denormal: "rounding" flushes it to +0 */
    pack64();
    cr_expect_eq(l1_16(OUT), 0);
    for (unsigned i = 1; i < 64; i++) {
        uint16_t h = (uint16_t)(hash(i) >> 16);
        cr_expect_eq(l1_16(OUT + 2 * i), (h & 0x7C00) ? h : 0, "FP16 %u", i);
    }
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    config(DF_FP8, DF_FP8, DF_FP8, false);
    for (unsigned i = 0; i < 64; i++)
        dst_fp16(i / 16, i % 16, (uint16_t)(hash(i) >> 16));
    pack64();
    for (unsigned i = 0; i < 64; i++) /* the top byte; FP16 denormals flush to +0 */
        cr_expect_eq(t->l1[OUT + i], (hash(i) >> 16 & 0x7C00) ? hash(i) >> 24 : 0, "FP8 %u", i);
}

/* BFP: one shared exponent per 16 datums (the largest), each magnitude 1.m shifted right by
 * (Emax - e + 1) and rounded to nearest, ties away from zero, clamped to 127; BFP4/BFP2 keep the
 * top 3/1 bits of that magnitude; a zero magnitude drops the sign. Input: BF16 (8-bit exponent,
 * 7 mantissa bits) or E5M7 (FP16 truncated to 7 mantissa bits, 5-bit exponent). */
static void bfp_ref(const uint16_t *v, bool a, unsigned nbits, uint8_t *exp, uint32_t *datum)
{
    unsigned emax = 0;
    for (unsigned k = 0; k < 16; k++) {
        unsigned e = a ? (v[k] >> 10 & 0x1F) : (v[k] >> 7 & 0xFF);
        emax = e > emax ? e : emax;
    }
    *exp = (uint8_t)emax;
    for (unsigned k = 0; k < 16; k++) {
        unsigned e = a ? (v[k] >> 10 & 0x1F) : (v[k] >> 7 & 0xFF);
        unsigned man = a ? (v[k] >> 3 & 0x7F) : (v[k] & 0x7F), m = 0;
        if (e) {
            double exact = (double)(0x80 | man) / (double)(1u << (emax - e + 1));
            m = (unsigned)(exact + 0.5);
            m = m > 127 ? 127 : m;
        }
        m >>= 8 - nbits;
        datum[k] = m ? (uint32_t)(v[k] >> 15) << (nbits - 1) | m : 0;
    }
}

static uint32_t get_bits(uint32_t addr, unsigned index, unsigned nbits)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < nbits; k++) {
        uint64_t bit = (uint64_t)index * nbits + k;
        v |= (uint32_t)(t->l1[addr + bit / 8] >> (bit % 8) & 1) << k;
    }
    return v;
}

static void bfp_case(unsigned out, bool a)
{
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    unsigned inter = a ? DF_FP16 : DF_BF16;
    config(inter, inter, out, false);
    C(THCON_SEC0_REG1_Exp_section_size, 1); /* exponents first, datums 16 bytes later */
    uint16_t v[64];
    for (unsigned i = 0; i < 64; i++) {
        uint32_t h = hash(i + 100 * out);
        if (a) {
            v[i] = (uint16_t)((h & 0x8000) | (8 + h % 9) << 10 | (h >> 16 & 0x3FF));
            dst_fp16(i / 16, i % 16, v[i]);
        } else {
            v[i] = (uint16_t)((h & 0x8000) | (120 + h % 9) << 7 | (h >> 16 & 0x7F));
            dst_bf16(i / 16, i % 16, v[i]);
        }
    }
    v[5] = 0;
    if (a)
        dst_fp16(0, 5, 0);
    else
        dst_bf16(0, 5, 0);
    pack64();
    unsigned nbits = df_datum_bits(out);
    for (unsigned b = 0; b < 4; b++) {
        uint8_t e;
        uint32_t d[16];
        uint16_t in[16];
        for (unsigned k = 0; k < 16; k++)
            in[k] = a ? (uint16_t)(v[b * 16 + k] & ~7u) : v[b * 16 + k]; /* E5M7: truncated */
        bfp_ref(in, a, nbits, &e, d);
        cr_expect_eq(t->l1[OUT + b], e, "%s block %u exponent", df_name(out), b);
        for (unsigned k = 0; k < 16; k++)
            cr_expect_eq(get_bits(OUT + 16, b * 16 + k, nbits), d[k], "%s block %u datum %u",
                         df_name(out), b, k);
    }
}

Test(pack, bfp_formats_share_exponents_and_round)
{
    bfp_case(DF_BFP8, false);
    bfp_case(DF_BFP4, false);
    bfp_case(DF_BFP2, false);
    bfp_case(DF_BFP8A, true);
    bfp_case(DF_BFP4A, true);
    bfp_case(DF_BFP2A, true);
}

/* 64 Dst32b datums cycling through in[0..n) (as sign-magnitude Integer "32"), packed; byte i
 * must be want[i % n]. */
static void int8_case(const int32_t *in, const uint8_t *want, unsigned n, const char *what)
{
    for (unsigned i = 0; i < 64; i++) {
        int32_t x = in[i % n];
        dst_fp32(i / 16, i % 16, x < 0 ? 0x80000000u | (uint32_t)-x : (uint32_t)x);
    }
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(t->l1[OUT + i], want[i % n], "%s of %d", what, in[i % n]);
}

Test(pack, int32_identity_and_int8_descale)
{
    config(DF_INT32, DF_INT32, DF_INT32, true);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, hash(i)); /* sign-magnitude bits, moved as they are */
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_32(OUT + 4 * i), hash(i));
    /* INT32 -> INT8: shift right by INT_DESCALE (4), round half away, saturate at 127 */
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    config(DF_INT8, DF_INT8, DF_INT8, true);
    C(INT_DESCALE_Enable, 1);
    C(INT_DESCALE_VALUES_SEC0_Value, 4);
    static const int32_t in[8] = {0, 7, 8, 24, -40, 2031, 2032, -5000};
    static const uint8_t want[8] = {0, 0, 1, 2, 0x83, 127, 127, 0xFF};
    int8_case(in, want, 8, "INT8");
}

Test(pack, int16_opaque)
{
    config(DF_INT16, DF_INT16, DF_INT16, false);
    for (unsigned i = 0; i < 64; i++) {
        dest_write16(t, i / 16, i % 16, (uint16_t)hash(i));
        t->dest.row_valid[i / 16] = true;
    }
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), (uint16_t)hash(i));
}

/* ---- ReLU, edge masks, thresholds, accumulation ---- */

Test(pack, relu_modes)
{
    static const uint16_t in[4] = {0x4000 /* 2 */, 0xC000 /* -2 */, 0x3F00 /* 0.5 */, 0x4100 /* 8 */};
    static const uint16_t want[3][4] = {{0x4000, 0, 0x3F00, 0x4100},  /* ZERO_RELU */
                                        {0x4000, 0, 0, 0x4100},       /* MIN_THRESHOLD 1.0 */
                                        {0x3F80, 0, 0x3F00, 0x3F80}}; /* MAX_THRESHOLD 1.0 */
    for (unsigned mode = 1; mode <= 3; mode++) {
        tile_destroy(t);
        start(ARCH_BLACKHOLE);
        config(DF_BF16, DF_BF16, DF_BF16, false);
        C(STACC_RELU_ApplyRelu, mode);
        C(STACC_RELU_ReluThreshold, 0x3F80);
        for (unsigned i = 0; i < 64; i++)
            dst_bf16(i / 16, i % 16, in[i % 4]);
        pack64();
        for (unsigned i = 0; i < 64; i++)
            cr_expect_eq(l1_16(OUT + 2 * i), want[mode - 1][i % 4], "mode %u datum %u", mode, i);
    }
}

Test(pack, edge_mask_zero_or_minus_infinity)
{
    config(DF_BF16, DF_BF16, DF_BF16, false);
    C(PCK_EDGE_OFFSET_SEC0_mask, 0x00FF); /* columns 8..15 masked */
    for (unsigned i = 0; i < 64; i++)
        dst_bf16(i / 16, i % 16, 0x3F80);
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), i % 16 < 8 ? 0x3F80 : 0, "datum %u", i);
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    config(DF_BF16, DF_BF16, DF_BF16, false);
    C(PCK_EDGE_OFFSET_SEC0_mask, 0xFFF0);
    C(PCK_EDGE_MODE_mode, 1);
    for (unsigned i = 0; i < 64; i++)
        dst_bf16(i / 16, i % 16, 0x3F80);
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), i % 16 < 4 ? 0xFF80 : 0x3F80, "datum %u", i);
}

Test(pack, exponent_threshold_zeroes_small_values)
{
    config(DF_BF16, DF_BF16, DF_BF16, false);
    C(THCON_SEC0_REG1_Exp_threshold_en, 1);
    C(THCON_SEC0_REG1_Exp_threshold, 120);
    for (unsigned i = 0; i < 64; i++)
        dst_bf16(i / 16, i % 16, (uint16_t)((110 + i % 20) << 7 | 5));
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), 110 + i % 20 < 120 ? 0 : (110 + i % 20) << 7 | 5);
}

Test(pack, l1_accumulation_fp32_and_its_cost)
{
    config(DF_FP32, DF_FP32, DF_FP32, true);
    C(THCON_SEC0_REG1_Pack_L1_Acc, 1);
    for (unsigned i = 0; i < 64; i++) {
        dst_fp32(i / 16, i % 16, 0x3F800000u + (i << 16)); /* 1.0 + small steps */
        uint32_t old = 0x40000000u;                         /* 2.0 */
        memcpy(t->l1 + OUT + 4 * i, &old, 4);
    }
    pack64();
    for (unsigned i = 0; i < 64; i++) {
        union { uint32_t u; float f; } a = {.u = 0x3F800000u + (i << 16)}, b = {.u = 0x40000000u}, s;
        s.f = a.f + b.f;
        cr_expect_eq(l1_32(OUT + 4 * i), s.u, "datum %u", i);
    }
    /* 256 bytes = 16 accumulating writes; Blackhole accumulates as fast as it writes
     * (pack.acc_cost 1, calibrated: silicon's accumulate figures equal the plain ones), 2 per
     * cycle per interface over 4 interfaces: 2 cycles, as a plain pack of the same rows */
    cr_expect_eq(t->pack.p[0].st.acc_writes, 16);
    cr_expect_eq(t->pack.p[0].st.write_cycles, 2);
}

Test(pack_wh, l1_accumulation_five_cycles_per_write)
{
    /* Wormhole is unchanged: one packer, 16 bytes per cycle, the atomic accumulate blocks the
     * port five cycles per 16-byte write (WH:L1.md), no pipeline latency past the writes. 64
     * FP32 datums = 16 accumulating writes = 80 cycles after the 2-cycle start-up; the run
     * ends when the last write does. */
    config(DF_FP32, DF_FP32, DF_FP32, true);
    C(THCON_SEC0_REG1_Pack_L1_Acc, 1);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, 0x3F800000u);
    pack64();
    cr_expect_eq(l1_32(OUT), 0x3F800000u, "1.0 + 0.0");
    cr_expect_eq(t->pack.p[0].st.acc_writes, 16);
    cr_expect_eq(t->pack.p[0].st.write_cycles, 80);
    cr_expect_eq(t->cycles, ilog.e[0].cycle + 2 + 80);
}

/* Compression (WH:Packers/Compression.md): four PACRs of one 16-datum row each, compressed; the
 * unpacker then decompresses the rows from the row start indices into SrcB, which must hold the
 * original values. Rows: zeros at the start, a run longer than 15, zeros at the end. */
Test(pack_wh, compression_round_trips_through_the_unpacker)
{
    static const uint16_t rows[4][16] = {
        {0, 0, 0x3F80, 0, 0, 0, 0x4000, 0x4040, 0, 0, 0, 0, 0, 0, 0, 0x4080},
        {0x3F00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {0x3E80, 0x3E81, 0x3E82, 0x3E83, 0x3E84, 0x3E85, 0x3E86, 0x3E87, 0x3E88, 0x3E89,
         0x3E8A, 0x3E8B, 0x3E8C, 0x3E8D, 0x3E8E, 0x3E8F},
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xC000},
    };
    config(DF_BF16, DF_BF16, DF_BF16, false);
    C(THCON_SEC0_REG1_Disable_zero_compress, 0);
    C(THCON_SEC0_REG1_Row_start_section_size, 1); /* 5 indices of 2 bytes, in one 16-byte unit */
    thcfg_set(&t->cfg, 0, THCFG_DESC(ab, ADDR_MOD_PACK_SEC0_YsrcIncr), 1);
    t->adc[0].pack.ch[1].v[ADC_X] = 15;
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 16; c++)
            dst_bf16(r, c, rows[r][c]);
    /* unpacker 1: the same bytes as a compressed BF16 tile of 4 rows of 16 */
    uint32_t *d = &t->cfg.cfg[0][CFG_DESC(ab, THCON_SEC1_REG0_TileDescriptor)->word];
    d[0] = DF_BF16 | 16u << 16; /* IsUncompressed = 0 */
    d[1] = 4;
    C(THCON_SEC1_REG3_Base_address, OUT / 16 - 1);
    C(THCON_SEC1_REG2_Out_data_format, DF_BF16);
    C(UNP1_ADDR_CTRL_XY_REG_1_Ystride, 32);
    t->adc[0].unpack[1].ch[1].v[ADC_X] = 15;
    t->src.bank[1][0].cell[1][5] = 0x1234; /* must be overwritten with zero */
    uint32_t up = TT_OP_UNPACR(1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1); /* then Y0, Y1 += 1 */
    uint32_t w[] = {TT_OP_PACR_WH(0, 0, 1, 0, 0, 0, 0), TT_OP_PACR_WH(0, 0, 1, 0, 0, 0, 0),
                    TT_OP_PACR_WH(0, 0, 1, 0, 0, 0, 0), TT_OP_PACR_WH(0, 0, 1, 0, 0, 0, 1),
                    TT_OP_STALLWAIT_WH(1, 1u << 3), up, up, up, up};
    cr_assert_eq(run(w, 9), ERR_NONE, "%s", t->err.text);
    /* Row start indices: a row's first and last datums stand alone, other zeros fold into the
     * previous datum's counter (up to 15): row 0 keeps 0, 0x3F80, 0x4000, 0x4040, 0x4080 (5);
     * row 1 0x3F00 (carrying 14 zeros) and its last zero (2); row 2 all 16; row 3 its first zero
     * (carrying the next 14) and 0xC000 (2). */
    static const uint16_t rsi[5] = {0, 5, 7, 23, 25};
    for (unsigned k = 0; k < 5; k++)
        cr_expect_eq(l1_16(OUT + 2 * k), rsi[k], "RSI[%u] = %u", k, l1_16(OUT + 2 * k));
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 16; c++) {
            uint16_t b = rows[r][c];
            uint32_t cell = b ? (uint32_t)(b >> 15) << 18 | (uint32_t)(b & 0x7F) << 11 | (b >> 7 & 0xFF) : 0;
            cr_expect_eq(t->src.bank[1][0].cell[r][c], cell, "row %u col %u", r, c);
        }
}

/* ---- synchronisation ---- */

Test(pack, stallwait_on_packer_busy)
{
    /* BH C3: the thread's instruction is in any stage of the packer pipeline. One BF16 PACR
     * accepted at c starts at c + 2 and writes 8 x 16 bytes over 4 interfaces at 2 writes per
     * cycle each: its writes end at c + 3; it leaves the pipeline pack.latency (16) cycles later,
     * at c + 19, the cycle the latched STALLWAIT sees C3 clear; DMANOP issues at c + 20. */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    uint32_t w[] = {pacr(true), TT_OP_STALLWAIT_BH(1, 1u << 3), TT_OP_DMANOP};
    cr_assert_eq(run(w, 3), ERR_NONE, "%s", t->err.text);
    uint64_t c = ilog.e[0].cycle;
    cr_expect_eq(issue_log_cycle(&ilog, 0, TT_OP_DMANOP, 0), c + 20);
}

Test(pack, pacr_waits_for_the_dest_hazard)
{
    /* MVMUL at c writes Dst rows 0..7 (block 0) with latency 5: a PACR reading rows 0..3 waits
     * until c + 5, charged to dest_hazard block 0. */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    t->src.bank[0][0].client = t->src.bank[1][0].client = SRC_CLIENT_MATRIX;
    uint32_t mv = TT_OP_MVMUL_BH(0, 0, 0, 0, 0);
    uint32_t w[] = {mv, pacr(true)};
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(ilog.e[1].cycle, ilog.e[0].cycle + 5);
    cr_expect_eq(t->thread[0].st.stall_detail[GS_DEST_HAZARD][0], 4);
}

/* ---- the SDK eltwise example (riscv/sdk/examples/eltwise) ---- */

#include <stdlib.h>
#include <unistd.h>

#include "../riscv/sdk/examples/eltwise/eltwise_data.h"
#include "../units/fpu_datapath.h"

/* A BF16 value as a datapath operand (units/fpu_datapath.h). */
static uint32_t bf16_op(uint16_t b) { return (uint32_t)(b >> 15) << 18 | (uint32_t)(b >> 7 & 0xFF) << 10 | (b & 0x7Fu) << 3; }

/* The reference is ELWADD's own arithmetic (units/fpu_datapath.c, tested on its own and against
 * ttsim) on the example's operands: this checks unpacking, the ELWADD walk and packing. */
Test(pack_example, eltwise_l1_to_l1)
{
    char out[4096];
    cr_assert_eq(run_tensim("run -q --dump 0x40000:8192:/tmp/tensim-ew.bin --stats "
                            "/tmp/tensim-ew.json --trisc0 build/kernels/eltwise-t0.elf --trisc1 "
                            "build/kernels/eltwise-t1.elf --trisc2 build/kernels/eltwise-t2.elf",
                            out, sizeof out),
                 0, "%s", out);
    size_t len;
    uint16_t *got = (uint16_t *)read_whole_file("/tmp/tensim-ew.bin", &len);
    cr_assert_eq(len, EW_TILES * 1024 * 2);
    unsigned bad = 0;
    for (unsigned t = 0; t < EW_TILES; t++)
        for (unsigned i = 0; i < 1024; i++) {
            uint32_t a = bf16_op(ew_value(0, t, i)), b = bf16_op(ew_value(1, t, i));
            const struct dp_mode m = {.dst32 = false, .exp8 = true};
            uint16_t want = (uint16_t)(dp_elwadd(a, b, dp_is_zero(a), dp_is_zero(b), 0, false, 0, m) >> 16);
            if (got[t * 1024 + i] != want && bad++ < 3)
                cr_expect_eq(got[t * 1024 + i], want, "tile %u datum %u", t, i);
        }
    cr_expect_eq(bad, 0, "%u of %u differ", bad, EW_TILES * 1024);
    /* 64 PACRs of 64 BF16 datums: 8 writes over 4 read interfaces at 2 per cycle, 1 cycle each */
    char *js = read_whole_file("/tmp/tensim-ew.json", NULL);
    cr_expect(strstr(js, "\"packers\": [{\"instructions\": 64, \"busy_cycles\": ") != NULL, "%s", js);
    cr_expect(strstr(js, "\"write_cycles\": 64, \"l1_writes\": 512") != NULL, "%s", js);
    free(got);
    free(js);
    unlink("/tmp/tensim-ew.bin");
    unlink("/tmp/tensim-ew.json");
}

Test(pack, uint8_from_int32_saturates_at_255)
{
    config(DF_INT8, DF_INT8, DF_INT8, true);
    C(PCK_DEST_RD_CTRL_Read_unsigned, 1);
    static const int32_t in[4] = {0, 200, 300, -5};
    static const uint8_t want[4] = {0, 200, 255, 0};
    int8_case(in, want, 4, "UINT8");
}

Test(pack, downsampling_keeps_the_masked_datums)
{
    /* Downsample_mask 0x5555: every other datum of each 16 (WH:Packers/Downsampling.md) */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    C(THCON_SEC0_REG1_Downsample_mask, 0x5555);
    for (unsigned i = 0; i < 64; i++)
        dst_bf16(i / 16, i % 16, (uint16_t)(0x3F80 + i));
    pack64();
    for (unsigned k = 0; k < 32; k++)
        cr_expect_eq(l1_16(OUT + 2 * k), 0x3F80 + 2 * k, "kept datum %u", k);
    cr_expect_eq(t->pack.p[0].st.datums, 32);
}

Test(pack, last_pads_a_partial_block_with_zeros)
{
    /* Downsample_mask 0x0007 keeps datums 0..2 of each row: 12 BF16 datums, 24 bytes. Last
     * writes the partial second 16-byte block padded with zeros; nothing past byte 32 moves. */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    C(THCON_SEC0_REG1_Downsample_mask, 0x0007);
    memset(t->l1 + OUT, 0xAB, 64);
    for (unsigned i = 0; i < 64; i++)
        dst_bf16(i / 16, i % 16, (uint16_t)(0x3F80 + i));
    pack64();
    for (unsigned k = 0; k < 12; k++)
        cr_expect_eq(l1_16(OUT + 2 * k), 0x3F80 + 16 * (k / 3) + k % 3, "kept datum %u", k);
    for (unsigned b = 24; b < 32; b++)
        cr_expect_eq(t->l1[OUT + b], 0, "pad byte %u", b);
    for (unsigned b = 32; b < 64; b++)
        cr_expect_eq(t->l1[OUT + b], 0xAB, "byte %u untouched", b);
    cr_expect_eq(t->pack.p[0].st.l1_writes, 2);
}

Test(pack, output_fifo_wraps_at_the_limit)
{
    /* L1_Dest_addr + 1 past Pack_limit_address * 2 + 1 moves back by Pack_fifo_size * 2 (16-byte
     * units, WH:Packers/OutputAddressGenerator.md): the limit 0x2000 (units) puts OUT + 0x10000
     * beyond it, and a FIFO size of 0x800 brings it back to OUT. */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    C(THCON_SEC0_REG1_L1_Dest_addr, (OUT + 0x10000) / 16 - 1);
    C(THCON_SEC0_REG9_Pack_0_2_limit_address, 0x2000);
    C(THCON_SEC0_REG9_Pack_0_2_fifo_size, 0x800);
    for (unsigned i = 0; i < 64; i++)
        dst_bf16(i / 16, i % 16, 0x4000);
    pack64();
    cr_expect_eq(l1_16(OUT), 0x4000);
    cr_expect_eq(l1_16(OUT + 0x10000), 0);
}

Test(pack_wh, four_packers_in_parallel)
{
    /* PackerMask 0b1111: packer i reads the 16 datums at its DEST_TARGET_REG_CFG_PACK_SEC[i]
     * offset (row 4i) and writes them to its own L1_Dest_addr; each writes 2 x 16 bytes in
     * 2 cycles, all four at once. */
    static const uint16_t dest_addr[4] = {CFGF_WH_THCON_SEC0_REG1_L1_Dest_addr, CFGF_WH_THCON_SEC0_REG8_L1_Dest_addr,
                                          CFGF_WH_THCON_SEC1_REG1_L1_Dest_addr, CFGF_WH_THCON_SEC1_REG8_L1_Dest_addr};
    static const uint16_t in_fmt[4] = {CFGF_WH_THCON_SEC0_REG1_In_data_format, CFGF_WH_THCON_SEC0_REG8_In_data_format,
                                       CFGF_WH_THCON_SEC1_REG1_In_data_format, CFGF_WH_THCON_SEC1_REG8_In_data_format};
    static const uint16_t out_fmt[4] = {CFGF_WH_THCON_SEC0_REG1_Out_data_format, CFGF_WH_THCON_SEC0_REG8_Out_data_format,
                                        CFGF_WH_THCON_SEC1_REG1_Out_data_format, CFGF_WH_THCON_SEC1_REG8_Out_data_format};
    static const uint16_t nocomp[4] = {CFGF_WH_THCON_SEC0_REG1_Disable_zero_compress, CFGF_WH_THCON_SEC0_REG8_Disable_zero_compress,
                                       CFGF_WH_THCON_SEC1_REG1_Disable_zero_compress, CFGF_WH_THCON_SEC1_REG8_Disable_zero_compress};
    static const uint16_t offset[4] = {CFGF_WH_DEST_TARGET_REG_CFG_PACK_SEC0_Offset, CFGF_WH_DEST_TARGET_REG_CFG_PACK_SEC1_Offset,
                                       CFGF_WH_DEST_TARGET_REG_CFG_PACK_SEC2_Offset, CFGF_WH_DEST_TARGET_REG_CFG_PACK_SEC3_Offset};
    config(DF_BF16, DF_BF16, DF_BF16, false);
    for (unsigned i = 0; i < 4; i++) {
        setc(&cfg_fields_wh[dest_addr[i]], (OUT + 0x1000 * i) / 16 - 1);
        setc(&cfg_fields_wh[in_fmt[i]], DF_BF16);
        setc(&cfg_fields_wh[out_fmt[i]], DF_BF16);
        setc(&cfg_fields_wh[nocomp[i]], 1);
        setc(&cfg_fields_wh[offset[i]], 4 * i);
    }
    t->adc[0].pack.ch[1].v[ADC_X] = 15;
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++)
            dst_bf16(r, c, (uint16_t)(0x4000 + r * 16 + c));
    uint32_t w[] = {TT_OP_PACR_WH(0, 0, 0xF, 0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 4; i++) {
        for (unsigned c = 0; c < 16; c++)
            cr_expect_eq(l1_16(OUT + 0x1000 * i + 2 * c), 0x4000 + 4 * i * 16 + c, "packer %u col %u", i, c);
        cr_expect_eq(t->pack.p[i].st.write_cycles, 2);
        cr_expect_eq(t->pack.p[i].st.insns, 1);
    }
}

Test(pack, exponent_histogram_counts_and_setdmareg_reads_it)
{
    /* ENABLE_ACC_STATS: every datum's exponent (BF16: 8 bits, bin = low 5) counts in a saturating
     * bin; the largest exponent is kept. SETDMAREG special InputSource 6 copies bins 0..15 to
     * GPRs 4..7, InputSource 9 the largest exponent to GPR 8; CLREXPHIST clears them. */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    thcfg_set(&t->cfg, 0, THCFG_DESC(ab, ENABLE_ACC_STATS_Enable), 1);
    for (unsigned i = 0; i < 64; i++)
        dst_bf16(i / 16, i % 16, (uint16_t)((128 + i % 3) << 7)); /* exponents 128, 129, 130 */
    /* SETDMAREG special: ResultSize 2 (128 bits), WhichPackers 0, InputSource 6/9, half-reg 8/16 */
    uint32_t bins = 0x45000000u | 2u << 22 | 6u << 11 | 1u << 7 | 8u;
    uint32_t maxe = 0x45000000u | 2u << 22 | 9u << 11 | 1u << 7 | 16u;
    uint32_t w[] = {pacr(true), TT_OP_STALLWAIT_BH(1, 1u << 3), bins, maxe};
    cr_assert_eq(run(w, 4), ERR_NONE, "%s", t->err.text);
    /* bins 0 (128 & 31), 1, 2: 22, 21, 21 datums */
    cr_expect_eq(t->gpr[0][4], 22u | 21u << 8 | 21u << 16);
    cr_expect_eq(t->gpr[0][8], 130);
    uint32_t clr[] = {TT_OP_CLREXPHIST};
    cr_assert_eq(run(clr, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->pack.p[0].hist[0], 0);
    cr_expect_eq(t->pack.p[0].hist_max, 0);
}

Test(pack_wh, packer0_address_bit31_makes_others_relative)
{
    /* WH:Packers/OutputAddressGenerator.md: with bit 31 of packer 0's address set, packers 1..3
     * add it to theirs (tt-llk's program_packer_destination). Packer 1: offset 0x100 units. */
    config(DF_BF16, DF_BF16, DF_BF16, false);
    setc(&cfg_fields_wh[CFGF_WH_THCON_SEC0_REG1_L1_Dest_addr], 0x80000000u | (OUT / 16 - 1));
    setc(&cfg_fields_wh[CFGF_WH_THCON_SEC0_REG8_L1_Dest_addr], 0x100);
    setc(&cfg_fields_wh[CFGF_WH_THCON_SEC0_REG8_In_data_format], DF_BF16);
    setc(&cfg_fields_wh[CFGF_WH_THCON_SEC0_REG8_Out_data_format], DF_BF16);
    setc(&cfg_fields_wh[CFGF_WH_THCON_SEC0_REG8_Disable_zero_compress], 1);
    t->adc[0].pack.ch[1].v[ADC_X] = 15;
    for (unsigned c = 0; c < 16; c++)
        dst_bf16(0, c, (uint16_t)(0x4000 + c));
    uint32_t w[] = {TT_OP_PACR_WH(0, 0, 2, 0, 0, 0, 1)}; /* packer 1 only */
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    /* packer 0's address (OUT / 16 - 1 + 1 header unit, bit 31) + packer 1's (0x100 + 1) */
    uint32_t at = ((OUT / 16 + 0x101) & 0x1FFFF) << 4;
    for (unsigned c = 0; c < 16; c++)
        cr_expect_eq(l1_16(at + 2 * c), 0x4000 + c, "col %u", c);
}

Test(pack, fp16_denormals_survive_an_identity_pack)
{
    /* Read_raw keeps FP16 denormals in the early conversion, and FP16 to FP16 late (neither
     * exponent nor mantissa narrows) preserves them */
    config(DF_FP16, DF_FP16, DF_FP16, false);
    C(PCK_DEST_RD_CTRL_Read_int8, 1);
    for (unsigned i = 0; i < 64; i++)
        dst_fp16(i / 16, i % 16, (uint16_t)(i & 1 ? 0x8000 | (i * 7) : 0x3C00 + i));
    pack64();
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_16(OUT + 2 * i), i & 1 ? 0x8000 | (i * 7) : 0x3C00 + i, "datum %u", i);
}

Test(pack, zero_write_of_integers)
{
    /* ZeroWrite fetches zeros "from /dev/null" instead of Dst: for INT32 data they are integer
     * zeros (a float zero would be an undefined INT32 output) */
    config(DF_INT32, DF_INT32, DF_INT32, true);
    for (unsigned i = 0; i < 64; i++)
        dst_fp32(i / 16, i % 16, 0x1000 + i); /* what a PACR without ZeroWrite would write */
    memset(t->l1 + OUT, 0xAB, 256);
    uint32_t w[] = {TT_OP_PACR_BH(0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(l1_32(OUT + 4 * i), 0);
}

/* ---- the fast datums against the model's loop ---- */

static uint32_t fast_rng;
static uint32_t fast_draw(uint32_t n) { return test_draw(&fast_rng, n); }

/* Random Dst contents and a random packer 0 configuration around the fast datums' case: edge
 * masks and their row and face mappings, -inf edges, ReLU, the exponent threshold and histogram,
 * downsampling, other formats, invalid Dst rows, an output near the end of L1, partial Dst rows,
 * the tile position generator's settings, Blackhole's DEST_ACCESS_CFG. Returns the number of
 * PACRs (of up to four rows) to run. */
static unsigned random_pack(uint32_t seed)
{
    fast_rng = seed;
    static const unsigned outs[] = {DF_BF16, DF_BF16, DF_BF16, DF_FP16, DF_BFP8, DF_FP32};
    const bool r32 = fast_draw(6) == 0;
    config(r32 ? DF_FP32 : fast_draw(5) ? DF_BF16 : DF_FP16, r32 ? DF_FP32 : DF_BF16,
           outs[fast_draw(6)], r32);
    for (unsigned r = 0; r < 64; r++) {
        t->dest.row_valid[r] = fast_draw(16) != 0;
        for (unsigned c = 0; c < 16; c++)
            t->dest.bits[r][c] = (uint16_t)fast_draw(65536);
    }
    if (fast_draw(2)) {
        C(PCK_EDGE_OFFSET_SEC0_mask, fast_draw(3) ? 0xFFFF : fast_draw(65536));
        C(PCK_EDGE_OFFSET_SEC1_mask, fast_draw(65536));
        C(PCK_EDGE_TILE_ROW_SET_SELECT_select, fast_draw(4));
        if (fast_draw(4) == 0) /* the whole word: sixteen 2-bit row mappings */
            t->cfg.cfg[0][CFG_DESC(ab, TILE_ROW_SET_MAPPING_0_row_set_mapping_0)->word] =
                fast_draw(65536) | fast_draw(65536) << 16;
        C(PCK_EDGE_MODE_mode, fast_draw(2));
    }
    if (fast_draw(8) == 0)
        C(STACC_RELU_ApplyRelu, 1 + fast_draw(2));
    if (fast_draw(8) == 0) {
        C(THCON_SEC0_REG1_Exp_threshold_en, 1);
        C(THCON_SEC0_REG1_Exp_threshold, 100 + fast_draw(40));
    }
    if (fast_draw(8) == 0)
        C(THCON_SEC0_REG1_Downsample_mask, fast_draw(65536));
    if (fast_draw(4) == 0)
        thcfg_set(&t->cfg, 0, THCFG_DESC(ab, ENABLE_ACC_STATS_Enable), 1);
    if (fast_draw(10) == 0) /* writes run past the end of L1 */
        C(THCON_SEC0_REG1_L1_Dest_addr, t->arch->l1_size / 16 - 1 - fast_draw(64));
    if (fast_draw(2)) { /* partial Dst rows: the tile position and the output line move apart */
        const uint32_t x = fast_draw(20);
        t->adc[0].pack.ch[0].v[ADC_X] = x;
        t->adc[0].pack.ch[1].v[ADC_X] = x + fast_draw(ab == TT_ARCH_WH ? 80 : 20);
    }
    if (fast_draw(3) == 0) { /* the tile position generator's rows and faces */
        C(PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, fast_draw(6));
        C(PACK_COUNTERS_SEC0_pack_yz_transposed, fast_draw(2));
        C(DEST_TARGET_REG_CFG_PACK_SEC0_ZOffset, fast_draw(8));
        if (fast_draw(2)) { /* edge masks by face */
            C(PCK_EDGE_TILE_FACE_SET_SELECT_enable, 1);
            C(PCK_EDGE_TILE_FACE_SET_SELECT_select, fast_draw(4));
            t->cfg.cfg[0][CFG_DESC(ab, TILE_FACE_SET_MAPPING_0_face_set_mapping_0)->word] =
                fast_draw(65536) | fast_draw(65536) << 16;
        }
    }
    if (ab == TT_ARCH_BH && fast_draw(3) == 0) { /* DEST_ACCESS_CFG: another Dst row mapping */
        cfg_set(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_remap_addrs], fast_draw(2));
        cfg_set(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_swizzle_32b], fast_draw(2));
    }
    return 1 + fast_draw(16);
}

/* PACR i of n: the last flushes, others do at random (a new output stream starts after each);
 * on Blackhole some read only some of the four rows (ReadIntfSel). */
static uint32_t random_pacr(unsigned i, unsigned n)
{
    const bool last = i == n - 1 || fast_draw(3) == 0;
    if (ab == TT_ARCH_WH || fast_draw(4))
        return pacr(last);
    return TT_OP_PACR_BH(0, 0, 0, 0, 0, 0, 1 + fast_draw(15), 0, 0, 0, 0, last);
}

struct pack_outcome {
    enum err_kind err;
    char text[sizeof t->err.text];
    uint64_t cycles, datums, l1_writes;
    uint8_t hist[32], hist_max;
    unsigned tpg[3];
    struct pack_stream data; /* the output stream left behind */
};

Test(pack, fast_datums_match_the_model_loop)
{
    static uint8_t l1[2][0x3000], l1_end[2][0x1000];
    unsigned ok = 0, errors = 0;
    for (uint32_t seed = 1; seed <= 600; seed++) {
        struct pack_outcome o[2];
        for (unsigned model = 0; model < 2; model++) {
            tile_destroy(t);
            start(seed % 4 ? ARCH_BLACKHOLE : ARCH_WORMHOLE);
            t->pack.model_loop_only = model;
            const unsigned n = random_pack(seed);
            uint32_t w[16];
            for (unsigned i = 0; i < n; i++)
                w[i] = random_pacr(i, n);
            struct pack_outcome *x = &o[model];
            memset(x, 0, sizeof *x);
            x->err = run(w, n);
            snprintf(x->text, sizeof x->text, "%s", t->err.text);
            const struct packer *p = &t->pack.p[0];
            x->cycles = t->cycles, x->datums = p->st.datums, x->l1_writes = p->st.l1_writes;
            memcpy(x->hist, p->hist, sizeof x->hist);
            x->hist_max = p->hist_max;
            x->tpg[0] = p->tpg_x, x->tpg[1] = p->tpg_y, x->tpg[2] = p->tpg_z;
            x->data = p->data;
            memcpy(l1[model], t->l1 + OUT - 16, sizeof l1[model]);
            memcpy(l1_end[model], t->l1 + t->arch->l1_size - sizeof l1_end[model], sizeof l1_end[model]);
        }
        cr_assert_eq(o[0].err, o[1].err, "seed %u: %s / %s", seed, o[0].text, o[1].text);
        cr_assert_str_eq(o[0].text, o[1].text, "seed %u", seed);
        cr_assert(!memcmp(&o[0].cycles, &o[1].cycles, sizeof o[0] - offsetof(struct pack_outcome, cycles)),
                  "seed %u: counts, histogram, tile position or output stream differ", seed);
        cr_assert(!memcmp(l1[0], l1[1], sizeof l1[0]), "seed %u: output differs", seed);
        cr_assert(!memcmp(l1_end[0], l1_end[1], sizeof l1_end[0]), "seed %u: end of L1 differs", seed);
        ok += o[0].err == ERR_NONE;
        errors += o[0].err != ERR_NONE;
    }
    cr_expect_gt(ok, 300, "%u runs without an error", ok);
    cr_expect_gt(errors, 15, "%u runs with an error", errors);
}

/* ---- output lines ---- */

/* Datums of one width fill 16-byte lines exactly. A PACR that changes the width within an output
 * stream (Out_data_format rewritten without Last or Flush in between) can leave a datum that
 * does not fit in the rest of its line: not modelled, the run stops there and nothing is written
 * (it used to write past the line's buffer, into the packer's own state). */
Test(pack_wh, datum_across_two_output_lines_is_not_modelled)
{
    config(DF_FP16, DF_FP16, DF_FP8, false);
    for (unsigned r = 0; r < 8; r++)
        for (unsigned c = 0; c < 16; c++)
            dst_fp16(r, c, 0x3C00);
    t->adc[0].pack.ch[1].v[ADC_X] = 0; /* one FP8 datum: 8 bits of the first line */
    uint32_t w1[] = {pacr(false)};
    cr_assert_eq(run(w1, 1), ERR_NONE, "%s", t->err.text);
    C(THCON_SEC0_REG1_Out_data_format, DF_FP16);
    t->adc[0].pack.ch[1].v[ADC_X] = 63; /* 7 FP16 datums fill 120 bits; the 8th does not fit */
    uint32_t w2[] = {pacr(true)};
    cr_assert_eq(run(w2, 1), ERR_UNIMPLEMENTED, "%s", t->err.text);
    cr_expect(strstr(t->err.text, "16-byte output line"), "%s", t->err.text);
    for (unsigned a = OUT - 16; a < OUT + 256; a++)
        cr_expect_eq(t->l1[a], 0, "L1 0x%x written", a);
    cr_expect_eq(t->pack.p[0].st.l1_writes, 0);
}
