/* The unpackers (units/unpack.c, units/unpack_timing.c) driven through the whole pipe: a TRISC
 * kernel pushes UNPACR and its companions, the Wait Gate issues them, the unpackers fetch.
 *
 * Expected register contents are worked out here from the documents, never by calling the
 * conversions of units/formats.c (only its format-size tables, which test_formats.c checks):
 * the layouts of WH:SrcASrcB.md and WH:Dst.md, the conversions of seed 001 §3.3 and §3.4
 * (BFP8ToBF16, BFP8aToFP16) and the addressing of WH:UNPACR_Regular.md.
 * Expected cycles come from docs/timing-model.md "Unpackers": an UNPACR issued at c starts
 * fetching at c + 2 (c + 4 for compressed input) and leaves the unpacker at the end of its last
 * fetch cycle. Wormhole fetches 16 bytes per cycle per throttle step (x1/x2/x4), shares L1 with
 * the other unpacker per the table of WH:UNPACR_Regular.md "Performance" and overlaps an
 * UNPACR's start-up with the previous fetch; Blackhole (calibrated, core/arch.c) fetches 32
 * bytes per cycle per step, without interference, and issues an UNPACR only when its unpacker
 * holds no other UNPACR. */
#include <criterion/criterion.h>
#include <string.h>

#include "../trace/stats.h"
#include "../units/formats.h"
#include "harness.h"
#include "tensix_ops.h"

#define DATA 0x40000u     /* first byte after the 16-byte tile header */

static struct tile *t;
static unsigned ab; /* TT_ARCH_BH or TT_ARCH_WH */

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
TestSuite(unpack, .init = setup, .fini = teardown);
TestSuite(unpack_wh, .init = setup_wh, .fini = teardown);

/* ---- configuration (bank 0: every thread's StateID is 0) ---- */

#define SEC(u, F) ((u) ? CFG_DESC(ab, THCON_SEC1_##F) : CFG_DESC(ab, THCON_SEC0_##F))
#define UNP(u, F) ((u) ? CFG_DESC(ab, UNP1_##F) : CFG_DESC(ab, UNP0_##F))
static void set(const struct cfg_field_desc *f, uint32_t v) { cfg_set(&t->cfg, 0, f, v); }

struct desc {
    unsigned in_fmt, xdim, ydim, zdim, wdim, digest, blobs;
    bool compressed, no_bfp_exp;
};

/* The 128-bit tile descriptor (WH:UNPACR_Regular.md "Configuration"). */
static void set_desc(unsigned u, struct desc d)
{
    uint32_t *w = &t->cfg.cfg[0][SEC(u, REG0_TileDescriptor)->word];
    w[0] = d.in_fmt | (uint32_t)!d.compressed << 4 | (uint32_t)d.no_bfp_exp << 5 | d.blobs << 8 |
           d.xdim << 16;
    w[1] = d.ydim | d.zdim << 16;
    w[2] = d.wdim;
    w[3] = d.digest << 24;
}

/* Address units of OutDataFormat in the output address (WH:UNPACR_Regular.md). */
static unsigned out_unit(unsigned out)
{
    if (out == DF_FP32 || out == DF_TF32 || out == DF_INT32)
        return 4;
    return out == DF_FP16 || out == DF_BF16 || out == DF_INT16 ? 2 : 1;
}

/* Unpacker u reads n datums of in_fmt from DATA (rows of 16) into out_fmt: datum i lands in
 * row i/16, column i%16 of SrcB (u = 1), SrcA or Dst (u = 0; the output address starts four
 * rows in, which the model drops). ADCs of thread 0 are set directly. */
static void plain(unsigned u, unsigned in, unsigned out, unsigned n)
{
    set_desc(u, (struct desc){.in_fmt = in, .xdim = 16, .ydim = n / 16});
    set(SEC(u, REG3_Base_address), DATA / 16 - 1);
    set(SEC(u, REG2_Out_data_format), out);
    set(UNP(u, ADDR_BASE_REG_1_Base), u ? 0 : 64 * out_unit(out));
    set(UNP(u, ADDR_CTRL_XY_REG_1_Ystride), 16 * out_unit(out));
    t->adc[0].unpack[u].ch[1].v[ADC_X] = n - 1;
    if (n > 256)
        thcfg_set(&t->cfg, 0, THCFG_DESC(ab, SRCA_SET_SetOvrdWithAddr), 1);
}

static void to_dst(void) { set(SEC(0, REG2_Unpack_If_Sel), 1); }

static void kernel_on(unsigned th, const uint32_t *w, unsigned n) { tensix_kernel(t, th, w, n); }
static enum err_kind run(const uint32_t *w, unsigned n) { return run_tensix(t, w, n, 2000000); }

#define UNPACR_PLAIN(u) TT_OP_UNPACR(u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
#define UNPACR_FLIP(u) TT_OP_UNPACR(u, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1)

/* ---- L1 writers: datums packed from the least significant bit (WH:UNPACR_Regular.md) ---- */

static void put_bits(uint32_t addr, unsigned index, unsigned nbits, uint32_t v)
{
    uint64_t bit = (uint64_t)addr * 8 + (uint64_t)index * nbits;
    for (unsigned k = 0; k < nbits; k++) {
        uint8_t *b = &t->l1[bit / 8];
        unsigned sh = bit % 8;
        *b = (uint8_t)((*b & ~(1u << sh)) | ((v >> k & 1u) << sh));
        bit++;
    }
}

/* ---- expected cells, from the register layouts ---- */

static uint32_t src_e8(uint32_t s, uint32_t e, uint32_t m10) { return s << 18 | m10 << 8 | e; }
static uint32_t dst_e8(uint32_t s, uint32_t e, uint32_t m7) { return s << 15 | m7 << 8 | e; }
static uint32_t dst_e5(uint32_t s, uint32_t e, uint32_t m10) { return s << 15 | m10 << 5 | e; }

static uint32_t bf16_cell(uint32_t b, bool dst)
{
    return dst ? dst_e8(b >> 15, b >> 7 & 0xFF, b & 0x7F) : src_e8(b >> 15, b >> 7 & 0xFF, (b & 0x7F) << 3);
}
static uint32_t fp16_cell(uint32_t h, bool dst)
{
    return dst ? dst_e5(h >> 15, h >> 10 & 0x1F, h & 0x3FF) : src_e8(h >> 15, h >> 10 & 0x1F, h & 0x3FF);
}
static uint32_t fp32_dst(uint32_t x)
{
    return (x >> 31) << 31 | ((x >> 16) & 0x7F) << 24 | (x >> 23 & 0xFF) << 16 | (x & 0xFFFF);
}
static unsigned clz8(unsigned m)
{
    unsigned n = 0;
    while (n < 8 && !(m & (0x80u >> n)))
        n++;
    return n;
}
/* seed 001 §3.4 */
static uint32_t bfp8_to_bf16(unsigned d, unsigned e)
{
    unsigned s = d >> 7, mag = (d & 0x7F) << 1;
    if (!mag)
        return s ? 0xFF80 : 0;
    unsigned lz = clz8(mag);
    mag = (mag << lz) & 0xFF;
    return s << 15 | ((e - lz) & 0xFF) << 7 | (mag & 0x7E);
}
static uint32_t bfp8a_to_fp16(unsigned d, unsigned e)
{
    unsigned s = d >> 7, mag = (d & 0x7F) << 1;
    if (!mag)
        return s ? 0xFC00 : 0;
    unsigned lz = clz8(mag);
    mag = (mag << lz) & 0xFF;
    return s << 15 | (e - lz) << 10 | (mag & 0x7E) << 3;
}

/* ---- every format pair of seed 001 §3.5, through the unpacker ---- */

#define N 64 /* datums per case: four rows */

struct pcase {
    const char *name;
    unsigned in, out;
    bool force_exp, is_unsigned;
    bool src_ok, dst_ok;
};

static const struct pcase pairs[] = {
    {"FP32->TF32", DF_FP32, DF_TF32, 0, 0, 1, 1},
    {"FP32->FP32", DF_FP32, DF_FP32, 0, 0, 0, 1},
    {"FP32->BF16", DF_FP32, DF_BF16, 0, 0, 1, 1},
    {"FP32->FP16", DF_FP32, DF_FP16, 0, 0, 1, 1},
    {"TF32->TF32", DF_TF32, DF_TF32, 0, 0, 0, 1},
    {"BF16", DF_BF16, DF_BF16, 0, 0, 1, 1},
    {"FP16", DF_FP16, DF_FP16, 0, 0, 1, 1},
    {"BFP8", DF_BFP8, DF_BFP8, 0, 0, 1, 1},
    {"BFP4", DF_BFP4, DF_BFP4, 0, 0, 1, 1},
    {"BFP2", DF_BFP2, DF_BFP2, 0, 0, 1, 1},
    {"BFP8a", DF_BFP8A, DF_BFP8A, 0, 0, 1, 1},
    {"BFP4a", DF_BFP4A, DF_BFP4A, 0, 0, 1, 1},
    {"BFP2a", DF_BFP2A, DF_BFP2A, 0, 0, 1, 1},
    {"FP8", DF_FP8, DF_FP8, 0, 0, 1, 1},
    {"INT8 as BFP8 with a forced exponent", DF_BFP8, DF_BFP8, 1, 0, 1, 1},
    {"INT8", DF_INT8, DF_INT8, 0, 0, 1, 1},
    {"UINT8", DF_INT8, DF_INT8, 0, 1, 1, 1},
    {"INT16", DF_INT16, DF_INT16, 0, 0, 1, 1},
    {"INT32", DF_INT32, DF_INT32, 0, 0, 0, 1},
};

/* Datum i of a case (bits as stored in L1) and the shared exponent of its block of 16. */
static uint32_t datum_of(const struct pcase *c, unsigned i)
{
    uint32_t r = i * 2654435761u; /* varied bits */
    switch (c->in) {
    case DF_FP32: case DF_TF32:
        if (c->out == DF_FP16) /* values FP16 holds exactly: normal, exponent 1..30 */
            return (r & 1u) << 31 | (112u + 1 + i % 30) << 23 | (r >> 8 & 0x3FF) << 13;
        if (c->in == DF_TF32)
            return (r & 0x8000000u) << 4 | (1u + i * 3) << 23 | (r >> 5 & 0x3FF) << 13;
        return (r & 1u) << 31 | (1u + (i * 37) % 253) << 23 | (r >> 7 & 0x7FFFFF);
    case DF_BF16: return r >> 16;
    case DF_FP16: return r >> 16;
    case DF_BFP8: case DF_BFP8A: case DF_FP8: case DF_INT8: return i * 4 + 3;
    case DF_BFP4: case DF_BFP4A: return i & 15;
    case DF_BFP2: case DF_BFP2A: return i & 3;
    case DF_INT16: return r >> 16;
    default: return r;
    }
}
static unsigned exp_of(const struct pcase *c, unsigned block)
{
    if (df_is_bfp_a(c->in))
        return 9 + block * 5; /* 9..24: BFP8aToFP16 keeps the exponent in five bits */
    return 100 + block * 13;
}
#define FORCED_EXP 127u

static uint32_t want_of(const struct pcase *c, unsigned i, bool dst)
{
    uint32_t d = datum_of(c, i);
    unsigned e = c->force_exp ? FORCED_EXP : exp_of(c, i / 16);
    switch (c->in) {
    case DF_FP32:
        if (c->out == DF_FP32 || (dst && c->out == DF_TF32))
            return fp32_dst(d);
        if (c->out == DF_TF32)
            return src_e8(d >> 31, d >> 23 & 0xFF, d >> 13 & 0x3FF);
        if (c->out == DF_BF16)
            return bf16_cell(d >> 16, dst);
        /* FP16: the value is exact in FP16; rebias the exponent */
        return fp16_cell((d >> 31) << 15 | ((d >> 23 & 0xFF) - 112) << 10 | (d >> 13 & 0x3FF), dst);
    case DF_TF32: case DF_INT32: return fp32_dst(d);
    case DF_BF16: return bf16_cell(d, dst);
    case DF_FP16: return fp16_cell(d, dst);
    case DF_FP8: /* E5M2 is the top byte of FP16; Blackhole fills 0x7F/0xFF with ones (formats.md) */
        return fp16_cell(d << 8 | (ab == TT_ARCH_BH && (d & 0x7F) == 0x7F ? 0xFF : 0), dst);
    case DF_BFP8: return bf16_cell(bfp8_to_bf16(d, e), dst);
    case DF_BFP4: return bf16_cell(bfp8_to_bf16(d << 4 & 0xFF, e), dst);
    case DF_BFP2: return bf16_cell(bfp8_to_bf16(d << 6 & 0xFF, e), dst);
    case DF_BFP8A: return fp16_cell(bfp8a_to_fp16(d, e), dst);
    case DF_BFP4A: return fp16_cell(bfp8a_to_fp16(d << 4 & 0xFF, e), dst);
    case DF_BFP2A: return fp16_cell(bfp8a_to_fp16(d << 6 & 0xFF, e), dst);
    case DF_INT8: {
        /* the "Integer 8" overlay: magnitude in the mantissa, exponent 16 unless zero */
        unsigned s = c->is_unsigned ? 0 : d >> 7, mag = c->is_unsigned ? d & 0xFF : d & 0x7F;
        return dst ? (s << 15 | mag << 5 | (mag ? 16u : 0u)) : (s << 18 | mag << 8 | (mag ? 16u : 0u));
    }
    case DF_INT16:
        return dst ? d : ((d >> 15) << 18 | ((d >> 8) & 0x7F) << 11 | (d & 0xFF));
    default: return 0;
    }
}

/* Writes the case's tile at DATA: exponent section (BFP, unless forced), then the datums. */
static void write_case(const struct pcase *c)
{
    uint32_t at = DATA;
    unsigned nbits = df_datum_bits(c->in);
    if (df_is_bfp(c->in) && !c->force_exp) {
        for (unsigned b = 0; b < N / 16; b++)
            t->l1[at + b] = (uint8_t)exp_of(c, b);
        at += 16;
    }
    for (unsigned i = 0; i < N; i++)
        put_bits(at, i, nbits, datum_of(c, i));
}

static void run_pair(const struct pcase *c, unsigned u, bool dst)
{
    write_case(c);
    plain(u, c->in, c->out, N);
    if (dst)
        to_dst();
    if (c->force_exp) {
        set(SEC(u, REG2_Force_shared_exp), 1);
        set(UNP(u, FORCED_SHARED_EXP_shared_exp), FORCED_EXP);
    }
    if (c->is_unsigned)
        set(u ? CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcBUnsigned)
              : CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcAUnsigned), 1);
    uint32_t w[] = {UNPACR_PLAIN(u)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s to %s: %s", c->name, dst ? "Dst" : u ? "SrcB" : "SrcA",
                 t->err.text);
    unsigned bad = 0;
    for (unsigned i = 0; i < N && bad < 4; i++) {
        uint32_t want = want_of(c, i, dst), got;
        if (dst)
            got = out_unit(c->out) == 4 ? dest_read32(t, i / 16, i % 16) : dest_read16(t, i / 16, i % 16);
        else
            got = t->src.bank[u][0].cell[i / 16][i % 16];
        if (got != want) {
            bad++;
            cr_expect_eq(got, want, "%s to %s, datum %u (0x%x): got 0x%x want 0x%x", c->name,
                         dst ? "Dst" : u ? "SrcB" : "SrcA", i, datum_of(c, i), got, want);
        }
    }
    /* the rows written become valid: Dst16b rows 0..3, or Dst32b rows 0..3, which are DstBits
     * rows 0..3 and 8..11 (Adj32, WH:Dst.md) */
    if (dst)
        for (unsigned r = 0; r < DEST_ROWS; r++) {
            bool written = r < N / 16 || (out_unit(c->out) == 4 && r >= 8 && r < 8 + N / 16);
            cr_expect_eq(t->dest.row_valid[r], written, "%s: Dst row %u valid", c->name, r);
        }
}

static void each_pair(unsigned u, bool dst)
{
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        const struct pcase *c = &pairs[k];
        if (!(dst ? c->dst_ok : c->src_ok))
            continue;
        tile_destroy(t);
        start(ab == TT_ARCH_WH ? ARCH_WORMHOLE : ARCH_BLACKHOLE);
        run_pair(c, u, dst);
    }
}

Test(unpack, every_pair_to_srcb) { each_pair(1, false); }
Test(unpack, every_pair_to_srca) { each_pair(0, false); }
Test(unpack, every_pair_to_dst) { each_pair(0, true); }
Test(unpack_wh, every_pair_to_srcb) { each_pair(1, false); }
Test(unpack_wh, every_pair_to_dst) { each_pair(0, true); }

Test(unpack, a_32_bit_type_aimed_at_srcb_is_undefined)
{
    plain(1, DF_FP32, DF_FP32, 16);
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "UNPACR (unpacker 1, thread T0)") != 0, "%s", t->err.text);
    cr_expect(strstr(t->err.text, "InDataFormat FP32, OutDataFormat FP32, SrcB") != 0, "%s",
              t->err.text);
}

/* ---- addressing and modes ---- */

Test(unpack, tile_header_digest_and_adc_rows)
{
    /* DigestSize 2: the datums start (1 + 2) * 16 bytes after the base; ADC Y = 2 starts at row
     * 2 of the input (first datum 32), X0 = 3 skips three datums. */
    plain(1, DF_BF16, DF_BF16, 64);
    set_desc(1, (struct desc){.in_fmt = DF_BF16, .xdim = 16, .ydim = 4, .digest = 2});
    for (unsigned i = 0; i < 64; i++)
        put_bits(DATA + 32, i, 16, 0x3F80 + i);
    t->adc[0].unpack[1].ch[0].v[ADC_Y] = 2;
    t->adc[0].unpack[1].ch[0].v[ADC_X] = 3;
    t->adc[0].unpack[1].ch[1].v[ADC_X] = 15; /* datums 3..15 of row 2: 13 datums */
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 13; i++)
        cr_expect_eq(t->src.bank[1][0].cell[0][i], bf16_cell(0x3F80 + 32 + 3 + i, false), "col %u", i);
    cr_expect_eq(t->src.bank[1][0].cell[0][13], 0);
    cr_expect_eq(t->unpack.u[1].st.datums, 13);
}

Test(unpack_wh, tilize_reads_rows_row_stride_apart) /* Blackhole: test_llk_faults.c */
{
    /* A row-major 32x32 BF16 matrix (64-byte rows). Tilize (Tileize_mode) reads 16 datums,
     * then jumps RowStride = Shift_amount_cntx0 << 4 | cntx1 << 8 | cntx2 << 12 bytes back from
     * the row's end: 64 bytes. Face 0 of the tile: columns 0..15 of rows 0..15. */
    for (unsigned r = 0; r < 32; r++)
        for (unsigned c = 0; c < 32; c++)
            put_bits(DATA, r * 32 + c, 16, 0x4000 + r * 32 + c);
    plain(1, DF_BF16, DF_BF16, 256);
    set(SEC(1, REG2_Tileize_mode), 1);
    set(SEC(1, REG2_Shift_amount_cntx0), 4); /* 4 << 4 = 64 bytes */
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++)
            cr_expect_eq(t->src.bank[1][0].cell[r][c], bf16_cell(0x4000 + r * 32 + c, false),
                         "row %u col %u", r, c);
}

Test(unpack, untilize_sequence_interleaves_faces)
{
    /* A tile in face order (face 0 then face 1, each 16 rows of 16 BF16). Row r of the 32-wide
     * matrix is face 0 row r followed by face 1 row r: two UNPACRs of 16 datums per row, Ch0 Z
     * picking the face, Ch0 Y the row, Ch1 Y (Ystride 32 bytes = one SrcB row) the output row,
     * SETADCZW putting Z back to face 0. Output rows 2r and 2r+1 then hold the row in order. */
    for (unsigned f = 0; f < 2; f++)
        for (unsigned i = 0; i < 256; i++)
            put_bits(DATA, f * 256 + i, 16, (f << 12) | i);
    set_desc(1, (struct desc){.in_fmt = DF_BF16, .xdim = 16, .ydim = 16, .zdim = 2});
    set(SEC(1, REG3_Base_address), DATA / 16 - 1);
    set(SEC(1, REG2_Out_data_format), DF_BF16);
    set(UNP(1, ADDR_CTRL_XY_REG_1_Ystride), 32);
    t->adc[0].unpack[1].ch[1].v[ADC_X] = 15;
    uint32_t w[64];
    unsigned n = 0;
    for (unsigned r = 0; r < 4; r++) {
        w[n++] = TT_OP_UNPACR(1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1); /* Y1 += 1, Z0 += 1 */
        w[n++] = TT_OP_UNPACR(1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1); /* Y1 += 1, Y0 += 1 */
        w[n++] = TT_OP_SETADCZW(0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    }
    cr_assert_eq(run(w, n), ERR_NONE, "%s", t->err.text);
    for (unsigned r = 0; r < 4; r++)
        for (unsigned h = 0; h < 2; h++)
            for (unsigned c = 0; c < 16; c++)
                cr_expect_eq(t->src.bank[1][0].cell[2 * r + h][c],
                             bf16_cell((h << 12) | (r * 16 + c), false), "row %u half %u col %u",
                             r, h, c);
}

Test(unpack, fp32_to_dst32_then_rows_are_valid)
{
    plain(0, DF_FP32, DF_FP32, 32);
    to_dst();
    for (unsigned i = 0; i < 32; i++)
        put_bits(DATA, i, 32, 0x40000000u + i * 0x1001u);
    uint32_t w[] = {UNPACR_PLAIN(0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(dest_read32(t, i / 16, i % 16), fp32_dst(0x40000000u + i * 0x1001u));
    /* Dst32b rows 0 and 1 occupy DstBits rows 0, 8 (high halves) and 1, 9 (Adj32) */
    cr_expect(t->dest.row_valid[0] && t->dest.row_valid[1] && t->dest.row_valid[8] &&
              t->dest.row_valid[9]);
    cr_expect(!t->dest.row_valid[2]);
}

Test(unpack, partial_row_into_undefined_dst_is_undefined)
{
    plain(0, DF_BF16, DF_BF16, 16);
    to_dst();
    t->adc[0].unpack[0].ch[1].v[ADC_X] = 7; /* 8 of 16 columns */
    uint32_t w[] = {UNPACR_PLAIN(0)};
    cr_assert_eq(run(w, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "Dst row 0 was not valid and only columns mask 0x00FF") != 0,
              "%s", t->err.text);
}

/* Compressed input (WH:Unpackers/README.md "Decompression"): row start indices, then groups of
 * 32 datums followed by their 32 zero-run nibbles. */
Test(unpack, compressed_input_inserts_zero_runs)
{
    static const unsigned zeros[8] = {0, 2, 0, 1, 15, 0, 3, 0};
    set_desc(1, (struct desc){.in_fmt = DF_BF16, .xdim = 16, .ydim = 1, .compressed = true});
    set(SEC(1, REG3_Base_address), DATA / 16 - 1);
    set(SEC(1, REG2_Out_data_format), DF_BF16);
    set(SEC(1, REG2_Disable_zero_compress_cntx0), 0);
    /* RSI: two entries (ydim + 1) padded to 16 bytes */
    put_bits(DATA, 0, 16, 0);
    put_bits(DATA, 1, 16, 8);
    for (unsigned i = 0; i < 8; i++) {
        put_bits(DATA + 16, i, 16, 0x3F80 + i);
        put_bits(DATA + 16 + 64, i, 4, zeros[i]);
    }
    t->adc[0].unpack[1].ch[1].v[ADC_X] = 15; /* X 0 .. XDim-1: the row's two RSI entries */
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    unsigned pos = 0;
    for (unsigned i = 0; i < 8; i++) {
        cr_expect_eq(t->src.bank[1][0].cell[pos / 16][pos % 16], bf16_cell(0x3F80 + i, false),
                     "datum %u at %u", i, pos);
        pos++;
        for (unsigned z = 0; z < zeros[i]; z++, pos++)
            cr_expect_eq(t->src.bank[1][0].cell[pos / 16][pos % 16], 0, "zero after %u", i);
    }
    cr_expect_eq(pos, 29);
    /* compressed: start-up 2 + 2, one read of the datums and one of the nibbles at x1 */
    cr_expect_eq(t->unpack.u[1].st.startup_cycles, 4);
    cr_expect_eq(t->unpack.u[1].st.l1_reads, 2);
}

Test(unpack, upsampling_inserts_zeros_or_skips)
{
    /* Upsample_rate 1: one zero after each datum; 2 with interleave: skip three positions */
    for (unsigned i = 0; i < 16; i++)
        put_bits(DATA, i, 16, 0x3F80 + i);
    plain(1, DF_BF16, DF_BF16, 16);
    set(SEC(1, REG2_Upsample_rate), 1);
    for (unsigned k = 0; k < 32; k++)
        t->src.bank[1][0].cell[k / 16][k % 16] = 0x7FFFF; /* must be overwritten by zeros */
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 16; i++) {
        cr_expect_eq(t->src.bank[1][0].cell[(2 * i) / 16][(2 * i) % 16], bf16_cell(0x3F80 + i, false));
        cr_expect_eq(t->src.bank[1][0].cell[(2 * i + 1) / 16][(2 * i + 1) % 16], 0);
    }
}

Test(unpack, upsample_interleave_skips_positions)
{
    for (unsigned i = 0; i < 16; i++)
        put_bits(DATA, i, 16, 0x3F80 + i);
    plain(1, DF_BF16, DF_BF16, 16);
    set(SEC(1, REG2_Upsample_rate), 2); /* UpsampleZeroes 3 */
    set(SEC(1, REG2_Upsample_and_interleave), 1);
    for (unsigned k = 0; k < 64; k++)
        t->src.bank[1][0].cell[k / 16][k % 16] = 0x12345;
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned k = 0; k < 64; k++)
        cr_expect_eq(t->src.bank[1][0].cell[k / 16][k % 16],
                     k % 4 ? 0x12345u : bf16_cell(0x3F80 + k / 4, false), "position %u", k);
}

Test(unpack, transpose_into_srca_swaps_row_and_column)
{
    for (unsigned i = 0; i < 256; i++)
        put_bits(DATA, i, 16, i);
    plain(0, DF_BF16, DF_BF16, 256);
    set(SEC(0, REG2_Haloize_mode), 1);
    uint32_t w[] = {UNPACR_PLAIN(0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++)
            cr_expect_eq(t->src.bank[0][0].cell[c][r], bf16_cell(r * 16 + c, false));
}

Test(unpack, column_shift_into_srca)
{
    for (unsigned i = 0; i < 16; i++)
        put_bits(DATA, i, 16, 0x3F80 + i);
    plain(0, DF_BF16, DF_BF16, 16);
    set(SEC(0, REG2_Shift_amount_cntx0), 3);
    uint32_t w[] = {UNPACR_PLAIN(0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    /* columns below the shift are dropped, the rest move left by 3 */
    for (unsigned c = 0; c < 13; c++)
        cr_expect_eq(t->src.bank[0][0].cell[0][c], bf16_cell(0x3F80 + 3 + c, false), "col %u", c);
    cr_expect_eq(t->src.bank[0][0].cell[0][13], 0);
}

Test(unpack, srca_past_row_15_without_override_is_undefined)
{
    plain(0, DF_BF16, DF_BF16, 512); /* sets SetOvrdWithAddr; clear it again */
    thcfg_set(&t->cfg, 0, THCFG_DESC(ab, SRCA_SET_SetOvrdWithAddr), 0);
    uint32_t w[] = {UNPACR_PLAIN(0)};
    cr_assert_eq(run(w, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "SrcA row 16 (output address 320) is past row 15") != 0, "%s",
              t->err.text);
}

Test(unpack, l1_fifo_wraps_at_the_limit_address)
{
    /* Unpack_limit_address / Unpack_fifo_size in 16-byte units: a datum pointer past the limit
     * moves back by the FIFO size at the end of each 16-datum row. Rows of 32 bytes; the limit
     * is DATA + 32 so the second row is read from DATA + 32 - 64 = DATA - 32. */
    for (unsigned i = 0; i < 16; i++) {
        put_bits(DATA, i, 16, 0x1000 + i);
        put_bits(DATA - 32, i, 16, 0x2000 + i);
        put_bits(DATA + 32, i, 16, 0x3000 + i); /* never read */
    }
    plain(1, DF_BF16, DF_BF16, 32);
    set(SEC(1, REG2_Unpack_limit_address), (DATA + 16) / 16);
    set(SEC(1, REG2_Unpack_fifo_size), 64 / 16);
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned c = 0; c < 16; c++) {
        cr_expect_eq(t->src.bank[1][0].cell[0][c], bf16_cell(0x1000 + c, false));
        cr_expect_eq(t->src.bank[1][0].cell[1][c], bf16_cell(0x2000 + c, false));
    }
}

Test(unpack, all_datums_are_zero)
{
    for (unsigned i = 0; i < 16; i++)
        put_bits(DATA, i, 16, 0x3F80 + i);
    plain(1, DF_BF16, DF_BF16, 16);
    t->src.bank[1][0].cell[0][5] = 0x555;
    uint32_t w[] = {TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned c = 0; c < 16; c++)
        cr_expect_eq(t->src.bank[1][0].cell[0][c], 0);
    cr_expect_eq(t->unpack.u[1].st.datums, 16, "the datums are still read");
}

Test(unpack, flipsrc_hands_the_bank_over_and_resets_srcrow)
{
    for (unsigned i = 0; i < 32; i++)
        put_bits(DATA, i, 16, 0x3F80 + i);
    plain(1, DF_BF16, DF_BF16, 16);
    set(SEC(1, REG2_Unpack_Src_Reg_Set_Upd), 1);
    /* first UNPACR: SrcRow += 16 afterwards; second lands at row 16 and flips */
    uint32_t w[] = {UNPACR_PLAIN(1), TT_OP_UNPACR(1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1)};
    t->adc[0].unpack[1].ch[0].v[ADC_Y] = 0;
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->src.bank[1][0].cell[0][0], bf16_cell(0x3F80, false));
    cr_expect_eq(t->src.bank[1][0].cell[16][0], bf16_cell(0x3F80, false));
    cr_expect_eq(t->src.bank[1][0].client, SRC_CLIENT_MATRIX);
    cr_expect_eq(t->src.bank[1][1].client, SRC_CLIENT_UNPACKERS);
    cr_expect_eq(t->src.unpack_bank[1], 1);
    cr_expect_eq(t->src.src_row[1][0], 0, "FlipSrc resets SrcRow to SRCB_SET_Base << 4");
}

Test(unpack, context_counter_cycles_through_contexts)
{
    /* MultiContextMode with UseContextCounter: context = counter + CfgContextOffset, the counter
     * wraps at 1 << Context_count. Contexts 0 and 1 of unpacker 1 read different bases. */
    for (unsigned i = 0; i < 16; i++) {
        put_bits(DATA, i, 16, 0x1000 + i);
        put_bits(DATA + 0x1000, i, 16, 0x2000 + i);
    }
    plain(1, DF_BF16, DF_BF16, 16);
    set(SEC(1, REG2_Disable_zero_compress_cntx0), 1);
    set(SEC(1, REG2_Disable_zero_compress_cntx1), 1);
    set(SEC(1, REG3_Base_cntx1_address), (DATA + 0x1000) / 16 - 1);
    set(SEC(1, REG2_Context_count), 1);
    set(UNP(1, ADDR_CTRL_XY_REG_1_Ystride), 32);
    /* UNPACR(u=1, Ch1YInc=1, ..., MultiContextMode=1, UseContextCounter=1) three times */
    uint32_t u = TT_OP_UNPACR(1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1);
    uint32_t w[] = {u, u, u};
    cr_assert_eq(run(w, 3), ERR_NONE, "%s", t->err.text);
    /* Ystride 32 bytes = one row per Ch1 Y: rows 0, 1, 2 from contexts 0, 1, 0 */
    cr_expect_eq(t->src.bank[1][0].cell[0][4], bf16_cell(0x1004, false));
    cr_expect_eq(t->src.bank[1][0].cell[1][4], bf16_cell(0x2004, false));
    cr_expect_eq(t->src.bank[1][0].cell[2][4], bf16_cell(0x1004, false));
    cr_expect_eq(t->unpack.u[1].context_counter[0], 1);
}

Test(unpack, setc16_resets_the_context_counter)
{
    plain(1, DF_BF16, DF_BF16, 16);
    set(SEC(1, REG2_Disable_zero_compress_cntx0), 1);
    set(SEC(1, REG2_Disable_zero_compress_cntx1), 1);
    set(SEC(1, REG2_Context_count), 1);
    const struct cfg_field_desc *r = THCFG_DESC(ab, UNPACK_MISC_CFG_CfgContextCntReset_1);
    uint32_t w[] = {TT_OP_UNPACR_INC_CONTEXT_COUNTER(1),
                    TT_OP_SETC16(r->word, 1u << r->shift)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->unpack.u[1].context_counter[0], 1);
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    plain(1, DF_BF16, DF_BF16, 16);
    set(SEC(1, REG2_Context_count), 1);
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->unpack.u[1].context_counter[0], 0);
}

Test(unpack, throttle_mode_3_is_undefined)
{
    plain(1, DF_BF16, DF_BF16, 16);
    set(SEC(1, REG2_Throttle_mode), 3);
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "Throttle_mode 3 has no documented meaning") != 0, "%s",
              t->err.text);
}

/* ---- timing ---- */

/* One 32x32 BF16 tile (2048 bytes = 128 reads of 16 bytes) into SrcB at a throttle setting:
 * the unpacker is busy for 2 start-up cycles plus 128 / (reads per cycle) fetch cycles. */
static void bf16_tile_at(unsigned throttle, uint64_t want_busy)
{
    plain(1, DF_BF16, DF_BF16, 1024);
    set(SEC(1, REG2_Throttle_mode), throttle);
    uint32_t w[] = {UNPACR_FLIP(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    const struct unpacker *up = &t->unpack.u[1];
    cr_expect_eq(up->st.busy_cycles, want_busy, "throttle %u: busy %llu, want %llu", throttle,
                 (unsigned long long)up->st.busy_cycles, (unsigned long long)want_busy);
    cr_expect_eq(up->st.l1_reads, 128);
    cr_expect_eq(up->st.fetch_cycles, want_busy - 2);
    cr_expect_eq(t->src.bank[1][0].client, SRC_CLIENT_MATRIX);
    /* the run ends when the unpacker does: issue cycle + busy */
    uint64_t c = issue_log_cycle(&ilog, 0, UNPACR_FLIP(1), 0);
    cr_expect_eq(t->cycles, c + want_busy, "cycles %llu, issue %llu", (unsigned long long)t->cycles,
                 (unsigned long long)c);
}

/* Blackhole: 2 reads (32 bytes) per cycle at x1, 4 at x2, 8 at x4 (128 bytes): 128 reads take
 * 64 / 32 / 16 cycles (was 128 / 64 / 32 with Wormhole's 16 bytes per step). */
Test(unpack, bf16_tile_throttle_x1) { bf16_tile_at(0, 2 + 64); }
Test(unpack, bf16_tile_throttle_x2) { bf16_tile_at(1, 2 + 32); }
Test(unpack, bf16_tile_throttle_x4) { bf16_tile_at(2, 2 + 16); }
/* Wormhole unchanged: 1, 2, 4 reads per cycle (WH:UNPACR_Regular.md 16/32/64 bytes). */
Test(unpack_wh, bf16_tile_throttle_x1) { bf16_tile_at(0, 2 + 128); }
Test(unpack_wh, bf16_tile_throttle_x2) { bf16_tile_at(1, 2 + 64); }
Test(unpack_wh, bf16_tile_throttle_x4) { bf16_tile_at(2, 2 + 32); }

Test(unpack, forced_speeds_win_over_throttle)
{
    /* BFP2 always fetches at x1: 1024 datums = 256 bytes + 64 exponent bytes, but only the
     * datums use the limited port: 16 reads -> 8 cycles even at throttle x4 (Blackhole's x1 is
     * 2 reads per cycle). */
    plain(1, DF_BFP2, DF_BFP2, 1024);
    set(SEC(1, REG2_Throttle_mode), 2);
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->unpack.u[1].st.l1_reads, 16);
    cr_expect_eq(t->unpack.u[1].st.fetch_cycles, 8);
    cr_expect_eq(t->unpack.u[1].st.exp_reads, 4, "64 exponent bytes, 16 per read");
}

Test(unpack, tilize_forces_x4)
{
    plain(1, DF_BF16, DF_BF16, 256);
    set(SEC(1, REG2_Tileize_mode), 1);
    set(SEC(1, REG2_Shift_amount_cntx0), 2); /* 32-byte rows: contiguous */
    set(SEC(1, REG2_Throttle_mode), 0);
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    /* x4 despite Throttle_mode 0: Blackhole's 8 reads per cycle, 32 reads in 4 cycles */
    cr_expect_eq(t->unpack.u[1].st.l1_reads, 32);
    cr_expect_eq(t->unpack.u[1].st.fetch_cycles, 4);
}

Test(unpack, stallwait_on_unpacker_busy_releases_the_cycle_after)
{
    /* BH: C2 = unpacker 1 busy for this thread; STALLWAIT blocks B0 (everything but Sync, FPU,
     * Config, SFPU). The UNPACR issued at c leaves the unpacker at c + 2 + 32 (x2: Blackhole's 4
     * reads per cycle, 128 reads); the wait is seen satisfied in that cycle and released the
     * cycle after, when DMANOP (ThCon: B0) issues. */
    plain(1, DF_BF16, DF_BF16, 1024);
    set(SEC(1, REG2_Throttle_mode), 1);
    uint32_t sw = ab == TT_ARCH_WH ? TT_OP_STALLWAIT_WH(1, 1u << 2) : TT_OP_STALLWAIT_BH(1, 1u << 2);
    uint32_t w[] = {UNPACR_PLAIN(1), sw, TT_OP_DMANOP};
    cr_assert_eq(run(w, 3), ERR_NONE, "%s", t->err.text);
    uint64_t c = issue_log_cycle(&ilog, 0, UNPACR_PLAIN(1), 0);
    cr_expect_eq(issue_log_cycle(&ilog, 0, sw, 0), c + 2, "the thread is held for start-up");
    cr_expect_eq(issue_log_cycle(&ilog, 0, TT_OP_DMANOP, 0), c + 34 + 1);
    cr_expect_eq(t->thread[0].st.stall[GS_UNIT_BUSY], 1, "start-up cycle c+1");
    cr_expect_eq(t->thread[0].st.stall_detail[GS_UNIT_BUSY][TT_UNIT_UNPACK], 1);
}

Test(unpack, flushdma_waits_for_the_unpacker)
{
    /* FLUSHDMA with ConditionMask C2 (unpacker 1 busy for this thread) holds ThCon, and so the
     * thread's next ThCon instruction, until the UNPACR issued at c has left the unpacker at
     * c + 2 + 16 (x4: Blackhole's 8 reads per cycle, 128 reads). FLUSHDMA finishes in the first cycle its conditions no longer hold, and
     * ThCon takes the next instruction in that same cycle (docs/timing-model.md, ThCon). */
    plain(1, DF_BF16, DF_BF16, 1024);
    set(SEC(1, REG2_Throttle_mode), 2);
    uint32_t w[] = {UNPACR_PLAIN(1), TT_OP_FLUSHDMA(1u << 2), TT_OP_DMANOP};
    cr_assert_eq(run(w, 3), ERR_NONE, "%s", t->err.text);
    uint64_t c = issue_log_cycle(&ilog, 0, w[0], 0);
    cr_expect_eq(issue_log_cycle(&ilog, 0, w[1], 0), c + 2);
    cr_expect_eq(issue_log_cycle(&ilog, 0, TT_OP_DMANOP, 0), c + 18);
    cr_expect_eq(t->thread[0].st.stall[GS_THCON], 18 - 3, "c+3 .. c+17");
}

Test(unpack, startup_blocks_other_threads_unpacr)
{
    /* T0 and T1 push an UNPACR each at the same time: one issues at c, the other, for the
     * other unpacker, only at c + 2 (WH:UNPACR_Regular.md: no other thread starts an UNPACR
     * during the start-up cycles). */
    plain(0, DF_BF16, DF_BF16, 16);
    plain(1, DF_BF16, DF_BF16, 16);
    t->adc[1].unpack[1].ch[1].v[ADC_X] = 15;
    uint32_t w0[] = {UNPACR_PLAIN(0)}, w1[] = {UNPACR_PLAIN(1)};
    kernel_on(1, w1, 1);
    kernel_on(0, w0, 1);
    cr_assert_eq(tile_run(t, 100000), ERR_NONE, "%s", t->err.text);
    uint64_t a = issue_log_cycle(&ilog, 0, w0[0], 0), b = issue_log_cycle(&ilog, 1, w1[0], 0);
    uint64_t first = a < b ? a : b, second = a < b ? b : a;
    cr_expect_eq(second, first + 2, "T0 at %llu, T1 at %llu", (unsigned long long)a,
                 (unsigned long long)b);
}

/* A BF16 tile to each unpacker (1024 datums each) at Throttle_mode m0 / m1, UNPACR(0) then
 * UNPACR(1) from thread 0: the first's issue cycle; the second issues 2 later (start-up). */
static uint64_t two_tiles(unsigned m0, unsigned m1)
{
    plain(0, DF_BF16, DF_BF16, 1024);
    plain(1, DF_BF16, DF_BF16, 1024);
    set(SEC(0, REG2_Throttle_mode), m0);
    set(SEC(1, REG2_Throttle_mode), m1);
    uint32_t w[] = {UNPACR_PLAIN(0), UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    uint64_t c0 = issue_log_cycle(&ilog, 0, w[0], 0), c1 = issue_log_cycle(&ilog, 0, w[1], 0);
    cr_expect_eq(c1, c0 + 2);
    return c0;
}

/* Wormhole's interference table (unchanged) */
Test(unpack_wh, both_unpackers_share_l1_bandwidth)
{
    /* Both want x2 and get x1 each while both fetch. Unpacker 0 (issued at c) fetches alone at
     * x2 in c+2, c+3 (4 reads); unpacker 1 (issued at c+2) joins at c+4; both then read one per
     * cycle: unpacker 0's 124 remaining reads end at c+128; unpacker 1 has 124 of 128 by then and
     * fetches its last 4 alone at x2: done at c+130. */
    uint64_t c0 = two_tiles(1, 1);
    cr_expect_eq(t->unpack.u[0].st.busy_cycles, 128);
    cr_expect_eq(t->unpack.u[1].st.busy_cycles, 130 - 2);
    cr_expect_eq(t->cycles, c0 + 130);
}

Test(unpack_wh, x4_and_x1_share_without_loss)
{
    /* Unpacker 0 wants x4 and unpacker 1 x1: the table gives x4 and x1 (no conflict). */
    two_tiles(2, 0);
    cr_expect_eq(t->unpack.u[0].st.busy_cycles, 2 + 32);
    cr_expect_eq(t->unpack.u[1].st.busy_cycles, 2 + 128);
}

/* Blackhole has no interference (calibrated, core/arch.c): both want x2 (4 reads per cycle)
 * and keep it. Unpacker 0, issued at c, fetches 128 reads in c+2 .. c+33 and leaves at c+34;
 * unpacker 1, issued at c+2 (the start-up rule), fetches in c+4 .. c+35 and leaves at c+36. */
Test(unpack, both_unpackers_fetch_independently)
{
    uint64_t c0 = two_tiles(1, 1);
    cr_expect_eq(t->unpack.u[0].st.busy_cycles, 2 + 32);
    cr_expect_eq(t->unpack.u[1].st.busy_cycles, 2 + 32);
    cr_expect_eq(t->unpack.u[0].st.fetch_cycles, 32);
    cr_expect_eq(t->unpack.u[1].st.fetch_cycles, 32);
    cr_expect_eq(t->cycles, c0 + 36);
}

/* Four UNPACR(SrcB)s of the same BF16 tile at x4 from thread 0 (w is the word): the first's
 * issue cycle. */
static uint64_t four_tiles_into_srcb(uint32_t w)
{
    plain(1, DF_BF16, DF_BF16, 1024);
    set(SEC(1, REG2_Throttle_mode), 2);
    set(UNP(1, ADDR_CTRL_XY_REG_1_Ystride), 0);
    uint32_t ws[] = {w, w, w, w};
    cr_assert_eq(run(ws, 4), ERR_NONE, "%s", t->err.text);
    return issue_log_cycle(&ilog, 0, w, 0);
}

/* Blackhole (calibrated): an UNPACR issues only when its unpacker holds no other UNPACR, so the
 * start-up of each of four back-to-back tiles follows the previous fetch: the first issues at
 * c and leaves at c + 2 + 16 (x4, 8 reads per cycle); the second issues then, and so on: the
 * fourth at c + 3 * 18, done at c + 4 * 18. The thread waits at the gate (unit_busy) for
 * the 16 fetch cycles of each of the first three besides the 2 start-up cycles. */
Test(unpack, back_to_back_unpacrs_serialise_startup)
{
    uint32_t w = UNPACR_PLAIN(1);
    uint64_t c = four_tiles_into_srcb(w);
    cr_expect_eq(issue_log_cycle(&ilog, 0, w, 1), c + 18);
    cr_expect_eq(issue_log_cycle(&ilog, 0, w, 3), c + 3 * 18);
    cr_expect_eq(t->cycles, c + 4 * 18);
    cr_expect_eq(t->unpack.u[1].st.busy_cycles, 4 * 18);
    cr_expect_eq(t->unpack.u[1].st.fetch_cycles, 4 * 16);
}

/* Wormhole unchanged: the start-up overlaps the previous fetch. */
Test(unpack_wh, back_to_back_unpacrs_hide_startup)
{
    /* Four tiles into SrcB at x4 from one thread: each start-up holds the thread 2 cycles, the
     * fetches (32 cycles each) follow each other: done at c + 2 + 4 * 32. */
    uint32_t w = UNPACR_PLAIN(1);
    uint64_t c = four_tiles_into_srcb(w);
    cr_expect_eq(issue_log_cycle(&ilog, 0, w, 3), c + 6);
    cr_expect_eq(t->cycles, c + 2 + 4 * 32);
    cr_expect_eq(t->unpack.u[1].st.busy_cycles, 2 + 4 * 32);
}

Test(unpack, bank_owned_by_matrix_unit_waits_then_deadlocks)
{
    /* Two flips give both SrcB banks to the matrix unit; a third UNPACR waits for a bank that
     * nothing returns (no CLEARDVALID): the run ends as a deadlock naming the wait. */
    plain(1, DF_BF16, DF_BF16, 16);
    uint32_t w[] = {UNPACR_FLIP(1), UNPACR_FLIP(1), UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 3), ERR_DEADLOCK);
    cr_expect(strstr(t->err.detail, "unpacker 1: 1 instruction(s); the oldest (thread T0) is "
                                    "waiting for its bank: SrcB bank owned by the matrix unit") != 0,
              "%s", t->err.detail);
}

Test(unpack, zerosrc_and_setdvalid_through_the_unpacker)
{
    /* BH UNPACR_NOP: Unpack_Pop 1 clears the current bank (Src_ClrVal_Ctrl 1: -inf pattern for
     * SrcA), Set_Dvalid then hands it over; one cycle each. */
    for (unsigned r = 0; r < 64; r++)
        t->src.bank[0][0].cell[r][3] = 0x1234;
    uint32_t w[] = {TT_OP_UNPACR_NOP_BH(0, 0, 0, 1, 0, 0, 0, 1, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->src.bank[0][0].cell[17][3], SRC_CELL_MASK);
    cr_expect_eq(t->src.bank[0][0].client, SRC_CLIENT_MATRIX);
    cr_expect_eq(t->src.unpack_bank[0], 1);
    cr_expect_eq(t->unpack.u[0].st.busy_cycles, 1);
}

Test(unpack_wh, zerosrc_both_banks_and_setdvalid)
{
    t->src.bank[1][1].cell[5][5] = 0x777;
    uint32_t w[] = {TT_OP_UNPACR_NOP_ZEROSRC(1, 0, 1, 0), TT_OP_UNPACR_NOP_SETDVALID(1)};
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->src.bank[1][1].cell[5][5], 0);
    cr_expect_eq(t->src.bank[1][0].client, SRC_CLIENT_MATRIX);
    cr_expect_eq(t->unpack.u[1].st.insns, 2);
}

Test(unpack, stats_json_lists_both_unpackers)
{
    plain(1, DF_BF16, DF_BF16, 1024);
    uint32_t w[] = {UNPACR_PLAIN(1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    char buf[1 << 16];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    stats_json(t, NULL, f);
    fclose(f);
    cr_expect(strstr(buf, "\"unpackers\": [{\"instructions\": 0, \"busy_cycles\": 0") != 0);
    /* x1 on Blackhole: 128 reads at 2 per cycle, 64 cycles, + 2 start-up */
    cr_expect(strstr(buf, "{\"instructions\": 1, \"busy_cycles\": 66, \"startup_cycles\": 2, "
                          "\"fetch_cycles\": 64, \"l1_reads\": 128") != 0, "%s", buf);
}

/* A WRCFG of the unpacker's base address, the NOP that BH:WRCFG.md "Instruction scheduling"
 * asks for ("any kind of Tensix NOP suffices"), then the UNPACR that consumes the address, all
 * played back from the replay buffer as tt-llk's matmul unpack does. Blackhole's replay
 * expander passes over replayed NOPs (calibrated, sync/replay.h) but not the one right after a
 * WRCFG: the WRCFG issued at c is visible from c + 2 (docs/timing-model.md "Configuration
 * unit"), so the UNPACR issues at c + 2 and reads the new row (2.0, BF16 0x4000), not the old
 * one (1.0, 0x3F80). */
Test(unpack, nop_after_wrcfg_in_a_replay_keeps_the_unpacr_off_the_old_address)
{
    const uint32_t data2 = DATA + 0x100;
    for (unsigned i = 0; i < 16; i++) {
        put_bits(DATA, i, 16, 0x3F80);  /* 1.0 */
        put_bits(data2, i, 16, 0x4000); /* 2.0 */
    }
    plain(1, DF_BF16, DF_BF16, 16);
    t->gpr[0][12] = data2 / 16 - 1;
    const uint32_t wr = TT_OP_WRCFG(12, 0, SEC(1, REG3_Base_address)->word);
    uint32_t w[] = {TT_OP_REPLAY(0, 3, 0, 1), wr, TT_OP_NOP, UNPACR_PLAIN(1),
                    TT_OP_REPLAY(0, 3, 0, 0)};
    /* the exception matters only where replayed NOPs are passed over (replay.skips_nops) */
    t->thread[0].replay.skip_nops = true;
    cr_assert_eq(run(w, 5), ERR_NONE, "%s", t->err.text);
    uint64_t c = issue_log_cycle(&ilog, 0, wr, 0);
    cr_expect_eq(issue_log_cycle(&ilog, 0, UNPACR_PLAIN(1), 0), c + 2);
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(t->src.bank[1][0].cell[0][i], bf16_cell(0x4000, false), "datum %u: 0x%x", i,
                     t->src.bank[1][0].cell[0][i]);
    cr_expect_eq(t->thread[0].replay.skipped, 0, "the NOP after the WRCFG is emitted");
}

/* ---- the fast rows against the model's loop ---- */

/* One random UNPACR on the current tile: format, unpacker, row count and a partial last row,
 * base address, column shift / row stride, SrcRow, SetOvrd, an L1 FIFO wrap, a partial first
 * row (ADC X and Y), tilize, rows past the end of L1, sometimes a format pair that is refused or
 * a row past SrcA. */
static uint32_t fast_rng;
static uint32_t fast_draw(uint32_t n) { return test_draw(&fast_rng, n); }

static unsigned random_unpacr(uint32_t seed)
{
    fast_rng = seed;
    static const unsigned fmts[] = {DF_BF16, DF_FP16, DF_INT16, DF_BF16, DF_FP32, DF_BFP8};
    const unsigned u = fast_draw(2), in = fmts[fast_draw(6)];
    const unsigned out = fast_draw(8) ? (in == DF_BFP8 ? DF_BF16 : in) : DF_FP16;
    const unsigned rows = 1 + fast_draw(32);
    for (unsigned i = 0; i < 4096; i++)
        t->l1[DATA - 512 + i] = (uint8_t)fast_draw(256);
    plain(u, in, out, rows * 16);
    t->adc[0].unpack[u].ch[1].v[ADC_X] = rows * 16 - 1 - fast_draw(20);
    if (fast_draw(4) == 0)
        set(SEC(u, REG3_Base_address), DATA / 16 - 1 + fast_draw(3));
    set(SEC(u, REG2_Shift_amount_cntx0), fast_draw(16));
    if (fast_draw(3) == 0)
        thcfg_set(&t->cfg, 0, THCFG_DESC(ab, SRCA_SET_SetOvrdWithAddr), fast_draw(2));
    t->src.src_row[u][0] = (uint8_t)fast_draw(64);
    if (fast_draw(4) == 0) {
        set(SEC(u, REG2_Unpack_limit_address), (DATA + 16 * (1 + fast_draw(8))) / 16);
        set(SEC(u, REG2_Unpack_fifo_size), 16 * (1 + fast_draw(4)) / 16);
    }
    if (fast_draw(3) == 0) { /* the ADCs start inside the tile: a partial first row */
        const uint32_t x = fast_draw(24);
        t->adc[0].unpack[u].ch[0].v[ADC_X] = x;
        t->adc[0].unpack[u].ch[1].v[ADC_X] += x;
        t->adc[0].unpack[u].ch[0].v[ADC_Y] = fast_draw(3);
    }
    if (fast_draw(5) == 0) { /* tilize: input rows RowStride apart (32 datums on Blackhole) */
        set(SEC(u, REG2_Tileize_mode), 1);
        set(SEC(u, REG2_Shift_amount_cntx1), fast_draw(2));
    }
    if (fast_draw(8) == 0) { /* rows that run past the end of L1 */
        const uint32_t end = t->arch->l1_size;
        for (unsigned i = 0; i < 1024; i++)
            t->l1[end - 1024 + i] = (uint8_t)fast_draw(256);
        set(SEC(u, REG3_Base_address), end / 16 - 2 - fast_draw(48));
        set(SEC(u, REG2_Unpack_limit_address), 0);
        set(SEC(u, REG2_Unpack_fifo_size), 0);
    }
    return u;
}

struct unpack_outcome {
    enum err_kind err;
    char text[sizeof t->err.text];
    uint64_t cycles, l1_reads, datums;
    uint32_t gen[2];
};

static void unpack_outcome(struct unpack_outcome *o, unsigned u)
{
    memset(o, 0, sizeof *o);
    uint32_t w[] = {UNPACR_PLAIN(u)};
    o->err = run(w, 1);
    snprintf(o->text, sizeof o->text, "%s", t->err.text);
    o->cycles = t->cycles;
    o->l1_reads = t->unpack.u[u].st.l1_reads;
    o->datums = t->unpack.u[u].st.datums;
    for (unsigned b = 0; b < 2; b++)
        o->gen[b] = t->src.bank[b][0].gen;
}

Test(unpack, fast_rows_match_the_model_loop)
{
    unsigned fast_ok = 0, errors = 0, fast_used = 0;
    for (uint32_t seed = 1; seed <= 400; seed++) {
        struct unpack_outcome o[2];
        static struct src_bank banks[2][2][2];
        for (unsigned model = 0; model < 2; model++) {
            tile_destroy(t);
            start(seed % 5 ? ARCH_BLACKHOLE : ARCH_WORMHOLE);
            t->unpack.model_loop_only = model;
            unpack_outcome(&o[model], random_unpacr(seed));
            memcpy(banks[model], t->src.bank, sizeof banks[model]);
        }
        cr_assert_eq(o[0].err, o[1].err, "seed %u: %s / %s", seed, o[0].text, o[1].text);
        cr_assert_str_eq(o[0].text, o[1].text, "seed %u", seed);
        cr_assert_eq(o[0].cycles, o[1].cycles, "seed %u", seed);
        cr_assert_eq(o[0].l1_reads, o[1].l1_reads, "seed %u", seed);
        cr_assert_eq(o[0].datums, o[1].datums, "seed %u", seed);
        /* a bank written is marked written either way; the fast rows mark it once per
         * instruction, the model's loop once per cell: that difference shows they ran */
        for (unsigned b = 0; b < 2; b++)
            cr_assert_eq(o[0].gen[b] != 0, o[1].gen[b] != 0, "seed %u", seed);
        fast_used += o[0].gen[0] != o[1].gen[0] || o[0].gen[1] != o[1].gen[1];
        for (unsigned b = 0; b < 2; b++)
            for (unsigned k = 0; k < 2; k++)
                cr_assert(!memcmp(banks[0][b][k].cell, banks[1][b][k].cell, sizeof banks[0][b][k].cell),
                          "seed %u: Src%c bank %u differs", seed, b ? 'B' : 'A', k);
        fast_ok += o[0].err == ERR_NONE;
        errors += o[0].err != ERR_NONE;
    }
    /* both outcomes occur often enough to mean something */
    cr_expect_gt(fast_ok, 150, "%u runs without an error", fast_ok);
    cr_expect_gt(errors, 20, "%u runs with an error", errors);
    cr_expect_gt(fast_used, 100, "%u runs took the fast rows", fast_used);
}
