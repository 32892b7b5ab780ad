/* The matrix unit (units/fpu*.c) driven through the whole pipe: a TRISC kernel pushes the
 * instructions, SrcA/SrcB/Dst are set up directly.
 *
 * Expected values are computed here, independently of the code under test: operands are decoded
 * from their register layouts (WH:SrcASrcB.md, WH:Dst.md) into doubles, the fidelity phases mask
 * FP32 bit patterns exactly as WH:ELWMUL.md's SrcAFidelityBits / SrcBFidelityBits do, sums are
 * formed in double (the inputs are chosen so that every sum is exact) and rounded once to the
 * Dst format with round-to-nearest-even (the rule docs/fpu.md documents). Cycle expectations
 * come from docs/timing-model.md "Matrix unit (FPU)". */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../units/formats.h"
#include "../units/fpu_datapath.h"
#include "harness.h"
#include "tensix_ops.h"


static struct tile *t;
static unsigned ab;
static struct issue_log ilog;

static void start(enum arch_id arch)
{
    t = test_tile(arch);
    ab = tile_arch_bit(t);
    issue_log_attach(t, &ilog);
    /* the matrix unit owns the current SrcA/SrcB banks */
    t->src.bank[0][0].client = t->src.bank[1][0].client = SRC_CLIENT_MATRIX;
    /* the tests fill Src directly: formats come from ALU_FORMAT_SPEC, not from what an
     * unpacker wrote (Blackhole's implied formats; test_llk_faults.c tests those) */
    if (arch == ARCH_BLACKHOLE)
        for (unsigned th = 0; th < NUM_THREADS; th++) {
            thcfg_set(&t->cfg, th, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCA_FMT_Base], 1);
            thcfg_set(&t->cfg, th, &thcfg_fields_bh[THCFGF_BH_DISABLE_IMPLIED_SRCB_FMT_Base], 1);
        }
}
static void setup(void) { start(ARCH_BLACKHOLE); }
static void setup_wh(void) { start(ARCH_WORMHOLE); }
static void teardown(void) { tile_destroy(t); }
TestSuite(fpu, .init = setup, .fini = teardown);
TestSuite(fpu_wh, .init = setup_wh, .fini = teardown);

static void setc(const struct cfg_field_desc *f, uint32_t v) { cfg_set(&t->cfg, 0, f, v); }
static void setth(const struct cfg_field_desc *f, uint32_t v) { thcfg_set(&t->cfg, 0, f, v); }

static enum err_kind run(const uint32_t *w, unsigned n) { return run_tensix(t, w, n, 1000000); }

/* Encoders that differ between the architectures (AddrMod [16:14] on BH, [16:15] on WH). */
static uint32_t mvmul(unsigned addr_mod, unsigned dst_row)
{
    return ab == TT_ARCH_WH ? TT_OP_MVMUL_WH(0, 0, 0, addr_mod, dst_row)
                            : TT_OP_MVMUL_BH(0, 0, 0, addr_mod, dst_row);
}

/* ---- operands ---- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

enum style { BF16, FP16, TF32 };

/* A random Src cell of `st` and its value as FP32 bits (ReadBF16 / ReadFP16 / ReadTF32). With
 * `narrow`, the value has two significant mantissa bits and exponent 0 (+-1, 1.25, 1.5, 1.75):
 * then every step of the datapath before the final rounding is exact (products of at most four
 * significant bits on the 2^-10 grid of their sum, no alignment losses; docs/numerics.md), so
 * "exact, then rounded half away from zero" is the reference; the rounding details are tested
 * in test_fpu_datapath.c and against ttsim. Otherwise: any mantissa, exponents in a small range. */
static uint32_t src_cell_of(enum style st, float *value, bool narrow)
{
    uint32_t s = rnd() & 1, man10 = narrow ? (rnd() & 3) << 8 : rnd() & 0x3FF;
    uint32_t bits;
    if (st == FP16) {
        uint32_t e = narrow ? 15 : 12 + rnd() % 7;
        union { uint32_t u; float f; } v = {.u = s << 31 | (e - 15 + 127) << 23 | man10 << 13};
        *value = v.f;
        return s << 18 | man10 << 8 | e;
    }
    if (st == BF16)
        man10 &= 0x3F8;
    uint32_t e = narrow ? 127 : 124 + rnd() % 7;
    bits = s << 31 | e << 23 | man10 << 13;
    union { uint32_t u; float f; } v = {.u = bits};
    *value = v.f;
    return s << 18 | man10 << 8 | e;
}
static uint32_t src_cell(enum style st, float *value) { return src_cell_of(st, value, true); }

/* WH:ELWMUL.md SrcAFidelityBits / SrcBFidelityBits, on FP32 values: with the phase bit clear
 * the operand is x masked by `high`; with it set, what remains of x after masking by `low`. */
static double fid_part(float x, bool odd, uint32_t high, uint32_t low)
{
    union { uint32_t u; float f; } b = {.f = x};
    b.u &= odd ? low : high;
    return odd ? (double)x - b.f : b.f;
}
static double fid_a(float x, unsigned phase)
{
    return fid_part(x, phase & 1, 0xFFF80000u, 0xFFF83FFFu);
}
static double fid_b(float x, unsigned phase)
{
    return fid_part(x, phase & 2, 0xFFFE0000u, 0xFFFE1FFFu);
}

/* ---- rounding to the Dst formats (the datapath's final rounding: to nearest, ties away from
 * zero; results below the smallest normal become +0) and the Dst layouts ---- */

enum out { O_FP32, O_BF16, O_FP16 };

static uint32_t round_to(double v, enum out o)
{
    if (v == 0)
        return 0;
    unsigned p = o == O_FP32 ? 24 : o == O_BF16 ? 8 : 11;
    int emin = o == O_FP16 ? -14 : -126, bias = o == O_FP16 ? 15 : 127;
    unsigned mbits = p - 1, ebits_shift = o == O_FP32 ? 23 : o == O_BF16 ? 7 : 10;
    uint32_t s = v < 0;
    int e;
    double f = frexp(fabs(v), &e); /* f in [0.5, 1): value = f * 2^e */
    double m = round(ldexp(f, (int)p)); /* ties away from zero */
    if (m >= ldexp(1, (int)p))
        m /= 2, e++;
    e -= 1; /* value = m/2^(p-1) * 2^e */
    if (e < emin)
        return 0;
    uint32_t man = (uint32_t)m & ((1u << mbits) - 1);
    uint32_t signbit = o == O_FP32 ? 31 : 15;
    return s << signbit | (uint32_t)(e + bias) << ebits_shift | man;
}

static double bits_value(uint32_t b, enum out o)
{
    if (o == O_FP32) {
        union { uint32_t u; float f; } v = {.u = b};
        return ((b >> 23) & 0xFF) ? v.f : 0.0;
    }
    if (o == O_BF16) {
        union { uint32_t u; float f; } v = {.u = b << 16};
        return ((b >> 7) & 0xFF) ? v.f : 0.0;
    }
    int e = (b >> 10) & 0x1F;
    if (!e)
        return 0;
    double m = 1 + (b & 0x3FF) / 1024.0;
    return (b >> 15 ? -1 : 1) * ldexp(m, e - 15);
}

/* Dst layouts (WH:Dst.md): BF16 Sign,Man7,Exp8; FP16 Sign,Man10,Exp5; FP32 Sign,ManHi7,Exp8,
 * ManLo16. */
static uint32_t to_dst(uint32_t b, enum out o)
{
    if (o == O_BF16)
        return (b & 0x8000) | (b & 0x7F) << 8 | (b >> 7 & 0xFF);
    if (o == O_FP16)
        return (b & 0x8000) | (b & 0x3FF) << 5 | (b >> 10 & 0x1F);
    return (b & 0x80000000u) | ((b >> 16) & 0x7F) << 24 | (b >> 23 & 0xFF) << 16 | (b & 0xFFFF);
}

/* ---- MVMUL at every fidelity level ---- */

struct mm_case {
    enum style st;
    bool fp32_dst;
};

/* Dst[8x16] += SrcB[8x16] @ SrcA[16x16], `phases` MVMULs with FidelityIncr 1 in ADDR_MOD 0. */
static void mvmul_case(struct mm_case c, unsigned phases)
{
    float a[16][16], b[8][16];
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            t->src.bank[0][0].cell[k][j] = src_cell(c.st, &a[k][j]);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 16; k++)
            t->src.bank[1][0].cell[i][k] = src_cell(c.st, &b[i][k]);
    enum out o = c.fp32_dst ? O_FP32 : c.st == FP16 ? O_FP16 : O_BF16;
    /* initial Dst: rows 0..7 hold values of the output format */
    double d[8][16];
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            float v;
            src_cell(c.st == FP16 ? FP16 : BF16, &v);
            union { uint32_t u; float f; } u = {.f = v};
            uint32_t ob = o == O_FP32 ? u.u : o == O_BF16 ? u.u >> 16 : round_to(v, O_FP16);
            d[i][j] = bits_value(ob, o);
            if (o == O_FP32)
                dest_write32(t, i, j, to_dst(ob, o));
            else
                dest_write16(t, i, j, (uint16_t)to_dst(ob, o));
            t->dest.row_valid[o == O_FP32 ? dest_adj32(i, false, false) : i] = true;
            if (o == O_FP32)
                t->dest.row_valid[dest_adj32(i, false, false) + 8] = true;
        }
    const unsigned fmt = c.st == FP16 ? DF_FP16 : c.st == TF32 ? DF_TF32 : DF_BF16;
    setc(CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcA), fmt);
    setc(CFG_DESC(ab, ALU_FORMAT_SPEC_REG1_SrcB), fmt);
    setc(CFG_DESC(ab, ALU_ACC_CTRL_Fp32_enabled), c.fp32_dst);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC0_FidelityIncr), 1);
    uint32_t w[4];
    for (unsigned p = 0; p < phases; p++)
        w[p] = mvmul(0, 0);
    cr_assert_eq(run(w, phases), ERR_NONE, "%s", t->err.text);
    for (unsigned p = 0; p < phases; p++)
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = 0; j < 16; j++) {
                double s = d[i][j];
                for (unsigned k = 0; k < 16; k++)
                    s += fid_b(b[i][k], p) * fid_a(a[k][j], p);
                d[i][j] = bits_value(round_to(s, o), o);
            }
    unsigned bad = 0;
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            uint32_t want = to_dst(round_to(d[i][j], o), o);
            uint32_t got = o == O_FP32 ? dest_read32(t, i, j) : dest_read16(t, i, j);
            if (got != want && bad++ < 3)
                cr_expect_eq(got, want, "style %d fp32 %d phases %u [%u][%u]: got 0x%x want 0x%x",
                             c.st, c.fp32_dst, phases, i, j, got, want);
        }
    cr_expect_eq(bad, 0, "%u mismatches", bad);
    cr_expect_eq(t->fpu.rwc[0].fidelity, phases & 3);
}

static void every_fidelity(struct mm_case c)
{
    for (unsigned phases = 1; phases <= 4; phases++) {
        tile_destroy(t);
        start(ab == TT_ARCH_WH ? ARCH_WORMHOLE : ARCH_BLACKHOLE);
        mvmul_case(c, phases);
    }
}

Test(fpu, mvmul_bf16_bf16_dst) { every_fidelity((struct mm_case){BF16, false}); }
Test(fpu, mvmul_bf16_fp32_dst) { every_fidelity((struct mm_case){BF16, true}); }
Test(fpu, mvmul_fp16_fp16_dst) { every_fidelity((struct mm_case){FP16, false}); }
Test(fpu, mvmul_fp16_fp32_dst) { every_fidelity((struct mm_case){FP16, true}); }
Test(fpu, mvmul_tf32_bf16_dst) { every_fidelity((struct mm_case){TF32, false}); }
Test(fpu, mvmul_tf32_fp32_dst) { every_fidelity((struct mm_case){TF32, true}); }
Test(fpu_wh, mvmul_bf16_fp32_dst) { every_fidelity((struct mm_case){BF16, true}); }

/* ---- element-wise ---- */

/* SrcA/SrcB rows 0..7 random cells (src_cell_of); a[][], b[][] their values. */
static void random_ab(enum style st, float a[8][16], float b[8][16], bool narrow)
{
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            t->src.bank[0][0].cell[i][j] = src_cell_of(st, &a[i][j], narrow);
            t->src.bank[1][0].cell[i][j] = src_cell_of(st, &b[i][j], narrow);
        }
}

static uint32_t dst16(unsigned row, unsigned col) { return dest_read16(t, row, col); }

Test(fpu, elwadd_elwsub_elwmul_bf16)
{
    float a[8][16], b[8][16];
    random_ab(BF16, a, b, true);
    uint32_t w[] = {
        TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0),  /* Dst[0..7]   = A + B */
        TT_OP_ELWSUB_BH(0, 0, 1, 0, 0, 0, 8),  /* Dst[8..15] += A - B (undefined rows: 0) */
        TT_OP_ELWMUL_BH(0, 0, 0, 0, 0, 16),    /* Dst[16..23] += A * B, phase 0 */
        TT_OP_ELWADD_BH(0, 0, 0, 1, 0, 0, 24), /* B row 0 broadcast */
        TT_OP_ELWADD_BH(0, 0, 0, 0, 1, 0, 32), /* B column 0 broadcast */
    };
    cr_assert_eq(run(w, 5), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            cr_expect_eq(dst16(i, j), to_dst(round_to((double)a[i][j] + b[i][j], O_BF16), O_BF16));
            cr_expect_eq(dst16(8 + i, j), to_dst(round_to((double)a[i][j] - b[i][j], O_BF16), O_BF16));
            cr_expect_eq(dst16(16 + i, j),
                         to_dst(round_to(fid_a(a[i][j], 0) * fid_b(b[i][j], 0), O_BF16), O_BF16));
            cr_expect_eq(dst16(24 + i, j), to_dst(round_to((double)a[i][j] + b[0][j], O_BF16), O_BF16));
            cr_expect_eq(dst16(32 + i, j), to_dst(round_to((double)a[i][j] + b[i][0], O_BF16), O_BF16));
        }
}

Test(fpu, elwmul_four_phases_fp32_dst)
{
    /* HiFi4 element-wise product into FP32: the four phases cover every multiplied bit (all but
     * SrcA's last), and each phase's product, aligned to the Dst of the phases before it, loses
     * nothing (a slice product has 13 zero bits below it and the shift is at most 12) */
    float a[8][16], b[8][16];
    random_ab(TF32, a, b, false); /* exact in FP32 per phase: see below */
    setc(CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcA), DF_TF32);
    setc(CFG_DESC(ab, ALU_FORMAT_SPEC_REG1_SrcB), DF_TF32); /* else SrcB has BF16 precision */
    setc(CFG_DESC(ab, ALU_ACC_CTRL_Fp32_enabled), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC2_FidelityIncr), 1);
    uint32_t e = TT_OP_ELWMUL_BH(0, 0, 0, 0, 2, 0);
    uint32_t w[] = {e, e, e, e};
    cr_assert_eq(run(w, 4), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            double d = 0;
            for (unsigned p = 0; p < 4; p++)
                d = bits_value(round_to(d + fid_a(a[i][j], p) * fid_b(b[i][j], p), O_FP32), O_FP32);
            cr_expect_eq(dest_read32(t, i, j), to_dst(round_to(d, O_FP32), O_FP32), "[%u][%u]", i, j);
        }
    for (unsigned p = 0; p < 4; p++)
        cr_expect_eq(t->fpu.st.mul_phase[p], 1, "one ELWMUL in phase %u", p);
}

Test(fpu, elwadd_odd_fidelity_phase_divides_by_32)
{
    float a[8][16], b[8][16];
    random_ab(BF16, a, b, true);
    setth(THCFG_DESC(ab, FIDELITY_BASE_Phase), 1);
    uint32_t w[] = {TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned j = 0; j < 16; j++)
        cr_expect_eq(dst16(3, j), to_dst(round_to(((double)a[3][j] + b[3][j]) / 32, O_BF16), O_BF16));
}

/* ---- DOTPV, GAPOOL, broadcast MVMUL ---- */

/* Reference A @ B for SrcB rows r0.. and SrcA rows 0..15 at phase 0 into BF16. */
static void check_matmul_rows(float a[16][16], float b[8][16], unsigned nrows, unsigned step,
                              unsigned dst0, bool bcast)
{
    for (unsigned i = 0; i < nrows; i += step)
        for (unsigned j = 0; j < 16; j++) {
            double s = 0;
            for (unsigned k = 0; k < 16; k++)
                s += fid_b(b[bcast ? 0 : i][k], 0) * fid_a(a[k][j], 0);
            cr_expect_eq(dst16(dst0 + i, j), to_dst(round_to(s, O_BF16), O_BF16), "row %u col %u",
                         dst0 + i, j);
        }
}

static void random_matrices(float a[16][16], float b[8][16])
{
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            t->src.bank[0][0].cell[k][j] = src_cell(BF16, &a[k][j]);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 16; k++)
            t->src.bank[1][0].cell[i][k] = src_cell(BF16, &b[i][k]);
}

Test(fpu, dotpv_gapool_and_broadcast_mvmul)
{
    float a[16][16], b[8][16];
    random_matrices(a, b);
    uint32_t w[] = {
        TT_OP_DOTPV_BH(0, 0, 0, 0),       /* rows 0..7 */
        TT_OP_GAPOOL(0, 0, 1, 0, 12),        /* 4 rows, aligned to 4: rows 12..15 */
        TT_OP_MVMUL_BH(0, 0, 1, 0, 16),   /* broadcast SrcB row 0: rows 16, 18, 20, 22 */
    };
    cr_assert_eq(run(w, 3), ERR_NONE, "%s", t->err.text);
    check_matmul_rows(a, b, 8, 1, 0, false);
    check_matmul_rows(a, b, 4, 1, 12, false);
    check_matmul_rows(a, b, 7, 2, 16, true);
    cr_expect(!t->dest.row_valid[17] && !t->dest.row_valid[19], "odd rows are not written");
    cr_expect(!t->dest.row_valid[11] && !t->dest.row_valid[23]);
}

/* The matrix unit gives the same Dst bits and valid rows whichever datapath path it runs (every
 * path the host has, forced in fpu.simd): MVMULs through four fidelity phases, DOTPV, GAPOOL and
 * a broadcast MVMUL, on random BF16, FP16 and TF32 cells (exponents over the whole range, a few
 * zero) with FP32 and 16-bit Dst, random Dst bits and some rows undefined. This covers the rows
 * functions and the Dst row conversions of each path together (test_fpu_datapath.c checks the
 * rows functions against dp_mvmul one by one). */
static void paths_agree(enum arch_id arch, unsigned fmt, bool fp32)
{
    uint16_t first[DEST_ROWS][DEST_COLS];
    bool first_valid[DEST_ROWS];
    for (int simd = DP_SIMD_PLAIN; simd <= (int)dp_simd_best(); simd++) {
        tile_destroy(t);
        start(arch);
        t->fpu.simd = (enum dp_simd)simd;
        uint64_t x = 0x0123456789ABCDEFull ^ fmt ^ (uint64_t)fp32 << 8 ^ (uint64_t)arch << 9;
        for (unsigned b = 0; b < 2; b++)
            for (unsigned r = 0; r < 64; r++)
                for (unsigned c = 0; c < 16; c++) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    uint32_t v = (uint32_t)(x >> 32) & 0x7FFFF; /* Sign[18] Man[17:8] Exp[7:0] */
                    if ((x >> 20 & 15) == 0)
                        v &= ~0xFFu; /* exponent 0: a zero operand */
                    t->src.bank[b][0].cell[r][c] = v;
                }
        for (unsigned r = 0; r < DEST_ROWS; r++) {
            for (unsigned c = 0; c < DEST_COLS; c++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                t->dest.bits[r][c] = (uint16_t)(x >> 40);
            }
            t->dest.row_valid[r] = (x >> 61) != 0; /* one row in eight undefined */
        }
        setc(CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcA), fmt);
        setc(CFG_DESC(ab, ALU_FORMAT_SPEC_REG1_SrcB), fmt);
        setc(CFG_DESC(ab, ALU_ACC_CTRL_Fp32_enabled), fp32);
        setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC0_FidelityIncr), 1);
        const bool wh = arch == ARCH_WORMHOLE;
        const uint32_t w[] = {
            mvmul(0, 0), mvmul(0, 8), mvmul(0, 16), mvmul(0, 24),
            wh ? TT_OP_DOTPV_WH(0, 0, 0, 32) : TT_OP_DOTPV_BH(0, 0, 0, 32),
            wh ? TT_OP_MVMUL_WH(0, 0, 1, 0, 48) : TT_OP_MVMUL_BH(0, 0, 1, 0, 48),
            TT_OP_GAPOOL(0, 0, 0, 0, 44), /* (the Blackhole test's encoding: not run on Wormhole) */
        };
        const unsigned n = sizeof w / sizeof w[0] - (wh ? 1 : 0);
        cr_assert_eq(run(w, n), ERR_NONE, "%s", t->err.text);
        if (simd == DP_SIMD_PLAIN) {
            memcpy(first, t->dest.bits, sizeof first);
            memcpy(first_valid, t->dest.row_valid, sizeof first_valid);
            continue;
        }
        for (unsigned r = 0; r < DEST_ROWS; r++) {
            cr_assert_eq(t->dest.row_valid[r], first_valid[r], "path %d row %u valid", simd, r);
            for (unsigned c = 0; c < DEST_COLS; c++)
                cr_assert_eq(t->dest.bits[r][c], first[r][c],
                             "arch %d fmt %u fp32 %d: path %d row %u col %u: 0x%04x, plain 0x%04x",
                             (int)arch, fmt, fp32, simd, r, c, t->dest.bits[r][c], first[r][c]);
        }
    }
}

Test(fpu, every_datapath_path_gives_the_same_dst)
{
    static const unsigned fmts[] = {DF_BF16, DF_FP16, DF_TF32};
    for (unsigned f = 0; f < 3; f++)
        for (unsigned fp32 = 0; fp32 < 2; fp32++)
            paths_agree(ARCH_BLACKHOLE, fmts[f], fp32);
    paths_agree(ARCH_WORMHOLE, DF_BF16, true);
    paths_agree(ARCH_WORMHOLE, DF_FP16, false);
}

/* ---- integers ---- */

static uint32_t int8_cell(int v) { return (uint32_t)(v < 0) << 18 | (uint32_t)abs(v) << 8 | (v ? 16u : 0u); }

Test(fpu, int8_matmul_four_phases_is_exact)
{
    /* INT8_math_enabled: Dst is Integer "32"; the four phases take SrcA magnitude bits 7..5 /
     * 4..0 and SrcB bits 9..4 / 3..0, so their sum is the exact product for |v| <= 255. */
    int a[16][16], b[8][16];
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++) {
            a[k][j] = (int)(rnd() % 511) - 255;
            t->src.bank[0][0].cell[k][j] = int8_cell(a[k][j]);
        }
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 16; k++) {
            b[i][k] = (int)(rnd() % 511) - 255;
            t->src.bank[1][0].cell[i][k] = int8_cell(b[i][k]);
        }
    setc(CFG_DESC(ab, ALU_ACC_CTRL_INT8_math_enabled), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC0_FidelityIncr), 1);
    uint32_t w[] = {mvmul(0, 0), mvmul(0, 0), mvmul(0, 0), mvmul(0, 0)};
    cr_assert_eq(run(w, 4), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            int64_t s = 0;
            for (unsigned k = 0; k < 16; k++)
                s += b[i][k] * a[k][j];
            uint32_t sm = s < 0 ? 0x80000000u | (uint32_t)-s : (uint32_t)s;
            cr_expect_eq(dest_read32(t, i, j), to_dst(sm, O_FP32), "[%u][%u] = %lld", i, j, (long long)s);
        }
}

Test(fpu, int8_elwadd_saturates_with_dst)
{
    setc(CFG_DESC(ab, ALU_ACC_CTRL_INT8_math_enabled), 1);
    for (unsigned j = 0; j < 16; j++) {
        t->src.bank[0][0].cell[0][j] = int8_cell(100);
        t->src.bank[1][0].cell[0][j] = int8_cell(-30);
    }
    dest_write32(t, 0, 0, to_dst(0x7FFFFFF0u, O_FP32)); /* 2^31 - 16 */
    t->dest.row_valid[0] = t->dest.row_valid[8] = true;
    uint32_t w[] = {TT_OP_ELWADD_BH(0, 0, 1, 0, 0, 0, 0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(dest_read32(t, 0, 0), to_dst(0x7FFFFFFFu, O_FP32), "saturates at 2^31 - 1");
    cr_expect_eq(dest_read32(t, 0, 1), to_dst(70, O_FP32), "undefined Dst reads as 0");
}

/* ---- GMPOOL ---- */

Test(fpu, gmpool_column_max_into_undefined_dst)
{
    /* SrcB row 0 holds 1.0 (no scaling); Dst rows 4..7 undefined (-inf): row 4 gets the column
     * maxima of SrcA rows 0..15, rows 5..7 get zero. */
    float a[16][16];
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            t->src.bank[0][0].cell[k][j] = src_cell(BF16, &a[k][j]);
    for (unsigned i = 0; i < 16; i++)
        t->src.bank[1][0].cell[0][i] = 127; /* 1.0: exponent 127, mantissa 0 */
    uint32_t w[] = {TT_OP_GMPOOL(0, 0, 1, 0, 0, 5)}; /* row 5 & 0x3FC = 4 */
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned j = 0; j < 16; j++) {
        float m = a[0][j];
        for (unsigned k = 1; k < 16; k++)
            if (a[k][j] > m)
                m = a[k][j];
        union { float f; uint32_t u; } u = {.f = m};
        cr_expect_eq(dst16(4, j), to_dst(u.u >> 16, O_BF16), "column %u", j);
        for (unsigned i = 5; i < 8; i++)
            cr_expect_eq(dst16(i, j), 0);
    }
}

Test(fpu, gmpool_keeps_a_larger_dst_value)
{
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            t->src.bank[0][0].cell[k][j] = 127; /* 1.0 */
    for (unsigned i = 0; i < 16; i++)
        t->src.bank[1][0].cell[0][i] = 127;
    dest_write16(t, 0, 0, (uint16_t)to_dst(0x4000, O_BF16)); /* 2.0 */
    dest_write16(t, 0, 1, (uint16_t)to_dst(0x3F00, O_BF16)); /* 0.5 */
    t->dest.row_valid[0] = true;
    uint32_t w[] = {TT_OP_GMPOOL(0, 0, 1, 0, 0, 0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(dst16(0, 0), to_dst(0x4000, O_BF16));
    cr_expect_eq(dst16(0, 1), to_dst(0x3F80, O_BF16));
}

/* An undefined row reads as undefined in every column while an instruction writes it: stale
 * bits left by an earlier tile (ZEROACC only marks rows) must not come back from column 1 on.
 * GMPOOL takes the identity -inf, so the SrcA maxima (1.0) win over the stale 20.0; ELWMUL
 * accumulates onto 0, not onto the stale 20.0. */
Test(fpu, undefined_rows_stay_undefined_across_the_row_being_written)
{
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            t->src.bank[0][0].cell[k][j] = 127; /* 1.0 */
    for (unsigned k = 0; k < 16; k++)
        for (unsigned i = 0; i < 16; i++)
            t->src.bank[1][0].cell[k][i] = 127;
    for (unsigned r = 0; r < 16; r++)
        for (unsigned j = 0; j < 16; j++)
            dest_write16(t, r, j, (uint16_t)to_dst(0x41A0, O_BF16)); /* 20.0, left behind */
    memset(t->dest.row_valid, 0, sizeof t->dest.row_valid);
    uint32_t w[] = {TT_OP_GMPOOL(0, 0, 1, 0, 0, 0), TT_OP_ELWMUL_BH(0, 0, 0, 0, 0, 8)};
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    for (unsigned j = 0; j < 16; j++) {
        cr_expect_eq(dst16(0, j), to_dst(0x3F80, O_BF16), "GMPOOL column %u", j);
        cr_expect_eq(dst16(8, j), to_dst(0x3F80, O_BF16), "ELWMUL row 8 column %u", j);
        cr_expect_eq(dst16(15, j), to_dst(0x3F80, O_BF16), "ELWMUL row 15 column %u", j);
    }
}

/* ---- data movement ---- */

static uint32_t bf16_src(uint32_t b) { return (b >> 15) << 18 | (b & 0x7F) << 11 | (b >> 7 & 0xFF); }

Test(fpu, mova2d_movb2d_and_broadcasts)
{
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++) {
            t->src.bank[0][0].cell[r][c] = bf16_src(0x3F80 + r * 16 + c);
            t->src.bank[1][0].cell[r][c] = bf16_src(0x4080 + r * 16 + c);
        }
    uint32_t w[] = {
        TT_OP_MOVA2D_BH(0, 8, 0, 1, 16),   /* SrcA rows 8..15 -> Dst rows 16..23 */
        TT_OP_MOVB2D_BH(0, 4, 0, 4, 32),   /* mode 4: SrcB rows 4..7 -> Dst 32..35 */
        TT_OP_MOVB2D_BH(0, 5, 0, 2, 40),   /* mode 2: SrcB row 5 to 8 rows 40..47 */
        TT_OP_MOVB2D_BH(0, 6, 0, 1, 48),   /* mode 1: SrcB row 6, column 0, to row 48 */
    };
    cr_assert_eq(run(w, 4), ERR_NONE, "%s", t->err.text);
    for (unsigned c = 0; c < 16; c++) {
        for (unsigned r = 0; r < 8; r++) {
            cr_expect_eq(dst16(16 + r, c), to_dst(0x3F80 + (8 + r) * 16 + c, O_BF16));
            cr_expect_eq(dst16(40 + r, c), to_dst(0x4080 + 5 * 16 + c, O_BF16));
        }
        for (unsigned r = 0; r < 4; r++)
            cr_expect_eq(dst16(32 + r, c), to_dst(0x4080 + (4 + r) * 16 + c, O_BF16));
        cr_expect_eq(dst16(48, c), to_dst(0x4080 + 6 * 16, O_BF16));
    }
}

Test(fpu, movd2a_movd2b_movb2a)
{
    for (unsigned r = 0; r < 8; r++)
        for (unsigned c = 0; c < 16; c++) {
            dest_write16(t, r, c, (uint16_t)to_dst(0x3C00 + r * 16 + c, O_BF16));
            t->dest.row_valid[r] = true;
        }
    t->src.bank[1][0].cell[40][3] = 0x12300; /* exponent 0: flushed by MOVB2A */
    t->src.bank[1][0].cell[41][3] = bf16_src(0x4321);
    uint32_t w[] = {
        TT_OP_MOVD2A_BH(0, 20, 0, 1, 4),  /* Dst rows 4..7 -> SrcA rows 20..23 */
        TT_OP_MOVD2B_BH(0, 33, 0, 0, 2),  /* Dst row 2 -> SrcB row 33 */
        TT_OP_MOVB2A_BH(10, 0, 1, 40),    /* SrcB rows 40..43 -> SrcA rows 8..11 */
    };
    cr_assert_eq(run(w, 3), ERR_NONE, "%s", t->err.text);
    for (unsigned c = 0; c < 16; c++) {
        for (unsigned r = 0; r < 4; r++)
            cr_expect_eq(t->src.bank[0][0].cell[20 + r][c], bf16_src(0x3C00 + (4 + r) * 16 + c));
        cr_expect_eq(t->src.bank[1][0].cell[33][c], bf16_src(0x3C00 + 2 * 16 + c));
    }
    cr_expect_eq(t->src.bank[0][0].cell[8][3], 0, "denormal flushed");
    cr_expect_eq(t->src.bank[0][0].cell[9][3], bf16_src(0x4321));
}

Test(fpu, movd2a_of_tf32_from_16bit_dst_is_undefined)
{
    setc(CFG_DESC(ab, ALU_FORMAT_SPEC_REG0_SrcA), DF_TF32);
    uint32_t w[] = {TT_OP_MOVD2A_BH(0, 0, 0, 0, 0)};
    cr_assert_eq(run(w, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text, "matrix unit, thread T0: MOVD2A of TF32 data from 16-bit Dst");
}

Test(fpu, transpose_shift_and_zerosrc)
{
    struct src_bank *A = &t->src.bank[0][0], *B = &t->src.bank[1][0];
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++) {
            B->cell[r][c] = r * 16 + c;
            A->cell[r][c] = 0x40000 | (r * 16 + c);
        }
    t->src.bank[0][1].cell[0][0] = 5;
    t->fpu.last_srca_row = 32; /* SHIFTXA reads the block the last instruction used */
    uint32_t w[] = {
        TT_OP_TRNSPSRCB,
        TT_OP_SHIFTXB_BH(0, 0, 2),   /* rotate row 2 left */
        TT_OP_SHIFTXB_BH(0, 1, 3),   /* shift row 3 left, zero in */
        TT_OP_SHIFTXA(2),            /* rows 32..47 shifted right into rows 0..15 */
        TT_OP_ZEROSRC(1, 0, 0, 0, 1), /* SrcA, the unpackers' bank (1): -inf pattern */
    };
    t->src.unpack_bank[0] = 1;
    cr_assert_eq(run(w, 5), ERR_NONE, "%s", t->err.text);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 16; j++)
            cr_expect_eq(B->cell[16 + i][j], (16 + j) * 16 + i, "transposed [%u][%u]", i, j);
    for (unsigned c = 0; c < 16; c++) {
        cr_expect_eq(B->cell[2][c], 2 * 16 + (c + 1) % 16);
        cr_expect_eq(B->cell[3][c], c < 15 ? 3 * 16 + c + 1 : 0u);
        cr_expect_eq(A->cell[5][c], c ? 0x40000u | ((32 + 5) * 16 + c - 1) : 0u);
    }
    cr_expect_eq(t->src.bank[0][1].cell[63][15], SRC_CELL_MASK);
    cr_expect_eq(A->cell[20][0], 0x40000u | (20 * 16), "bank 0 untouched by ZEROSRC");
}

/* ---- ZEROACC ---- */

static unsigned valid_rows(unsigned lo, unsigned hi)
{
    unsigned n = 0;
    for (unsigned r = lo; r < hi; r++)
        n += t->dest.row_valid[r];
    return n;
}

Test(fpu, zeroacc_modes)
{
    memset(t->dest.row_valid, 1, sizeof t->dest.row_valid);
    uint32_t w[] = {
        TT_OP_ZEROACC_BH(0, 0, 0, 0, 5),    /* one row: 5 */
        TT_OP_ZEROACC_BH(1, 0, 0, 0, 2),    /* 16 rows: 32..47 */
        TT_OP_ZEROACC_BH(1, 1, 0, 0, 3),    /* 16 Dst32b rows 48..63: DstBits 96..111, 104..119 */
        TT_OP_ZEROACC_BH(2, 0, 0, 0, 1),    /* high half: 512..1023 */
    };
    cr_assert_eq(run(w, 4), ERR_NONE, "%s", t->err.text);
    cr_expect(!t->dest.row_valid[5]);
    cr_expect_eq(valid_rows(0, 32), 31);
    cr_expect_eq(valid_rows(32, 48), 0);
    cr_expect_eq(valid_rows(48, 96), 48);
    cr_expect_eq(valid_rows(96, 128), 0);
    cr_expect_eq(valid_rows(128, 512), 384);
    cr_expect_eq(valid_rows(512, 1024), 0);
    uint32_t all[] = {TT_OP_ZEROACC_BH(3, 0, 0, 0, 0)};
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    memset(t->dest.row_valid, 1, sizeof t->dest.row_valid);
    cr_assert_eq(run(all, 1), ERR_NONE);
    cr_expect_eq(valid_rows(0, 1024), 0);
}

/* Blackhole's ZEROACC as ttsim has it (units/fpu_move.c zeroacc_bh): clear_zero_flags makes 16
 * Dst32b rows defined again, keeping their data; the 16-row modes follow the half of Dst the
 * thread's Dst offset is in; a block past Dst is undefined behaviour. */
Test(fpu, zeroacc_bh_zero_flags_and_halves)
{
    memset(t->dest.row_valid, 0, sizeof t->dest.row_valid);
    t->dest.bits[96][3] = 0x1234;
    uint32_t w[] = {TT_OP_ZEROACC_BH(1, 1, 1, 0, 3)}; /* Dst32b rows 48..63 defined */
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(valid_rows(96, 128), 32, "both halves of each 32-bit row");
    cr_expect_eq(valid_rows(0, 96) + valid_rows(128, 1024), 0);
    cr_expect_eq(t->dest.bits[96][3], 0x1234, "the data stays");
    tile_destroy(t);

    start(ARCH_BLACKHOLE);
    memset(t->dest.row_valid, 1, sizeof t->dest.row_valid);
    setth(THCFG_DESC(ab, DEST_TARGET_REG_CFG_MATH_Offset), 512); /* the upper half */
    uint32_t w2[] = {TT_OP_ZEROACC_BH(1, 0, 0, 0, 2)}; /* block 2 + 32: rows 544..559 */
    cr_assert_eq(run(w2, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(valid_rows(544, 560), 0);
    cr_expect_eq(valid_rows(0, 544) + valid_rows(560, 1024), 1024 - 16);
    tile_destroy(t);

    start(ARCH_BLACKHOLE);
    uint32_t w3[] = {TT_OP_ZEROACC_BH(1, 0, 0, 0, 0x45)}; /* block 69 of 64 */
    cr_assert_eq(run(w3, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "ZEROACC 16-row block past the 64 of Dst") != NULL, "%s", t->err.text);
    tile_destroy(t);

    start(ARCH_BLACKHOLE);
    uint32_t w4[] = {TT_OP_ZEROACC_BH(1, 0, 1, 0, 0)}; /* clear_zero_flags in a 16-bit mode */
    cr_assert_eq(run(w4, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "clear_zero_flags outside its 16-row 32-bit mode") != NULL, "%s",
              t->err.text);
}

Test(fpu_wh, zeroacc_revert_is_undefined)
{
    uint32_t w[] = {TT_OP_ZEROACC_WH(0, 3, 1, 0, 0)};
    cr_assert_eq(run(w, 1), ERR_UNDEF_BEHAVIOUR);
    cr_expect(strstr(t->err.text, "ZEROACC with Revert set") != NULL, "%s", t->err.text);
}

/* ---- RWCs, ADDR_MOD, bank hand-over ---- */

Test(fpu, addr_mod_increments_crs_and_clears)
{
    /* slot 5: SrcA += 8 (CR), SrcB += 2, Dst += 16 with DestCToCR; slot 6: clear everything */
    setth(THCFG_DESC(ab, ADDR_MOD_AB_SEC5_SrcAIncr), 8);
    setth(THCFG_DESC(ab, ADDR_MOD_AB_SEC5_SrcACR), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_AB_SEC5_SrcBIncr), 2);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC5_DestIncr), 16);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC5_DestCToCR), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_AB_SEC6_SrcAClear), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_AB_SEC6_SrcBClear), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC6_DestClear), 1);
    uint32_t w[] = {TT_OP_SETRWC(0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 1, 1, 1), /* Dst 3, SrcB 1, SrcA 0 */
                    TT_OP_INCRWC(0, 0, 0, 1, 1, 4),
                    mvmul(5, 0), mvmul(5, 0)};
    cr_assert_eq(run(w, 4), ERR_NONE, "%s", t->err.text);
    const struct fpu_rwc *r = &t->fpu.rwc[0];
    /* SrcACR: SrcA_Cr += 8, SrcA = SrcA_Cr, so the INCRWC's +4 (to SrcA only) is dropped */
    cr_expect_eq(r->srca, 16);
    cr_expect_eq(r->srca_cr, 16);
    cr_expect_eq(r->srcb, 2 + 2 + 2);
    cr_expect_eq(r->dst, 4 + 16 + 16);
    cr_expect_eq(r->dst_cr, 36);
    uint32_t w2[] = {mvmul(6, 0)};
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    t->fpu.rwc[0] = (struct fpu_rwc){.dst = 40, .srca = 16, .srcb = 8, .srca_cr = 16};
    setth(THCFG_DESC(ab, ADDR_MOD_AB_SEC6_SrcAClear), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_AB_SEC6_SrcBClear), 1);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC6_DestClear), 1);
    cr_assert_eq(run(w2, 1), ERR_NONE, "%s", t->err.text);
    r = &t->fpu.rwc[0];
    cr_expect(r->srca == 0 && r->srcb == 0 && r->dst == 0 && r->srca_cr == 0);
}

Test(fpu_wh, addr_mod_set_base_selects_the_upper_slots)
{
    /* WH: AddrMod 1 with ADDR_MOD_SET_Base reads slot 5 */
    setth(&thcfg_fields_wh[THCFGF_WH_ADDR_MOD_SET_Base], 1);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC5_DestIncr), 8);
    setth(THCFG_DESC(ab, ADDR_MOD_DST_SEC1_DestIncr), 1);
    uint32_t w[] = {mvmul(1, 0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->fpu.rwc[0].dst, 8);
}

Test(fpu, flips_and_cleardvalid_hand_banks_back)
{
    t->src.bank[0][1].client = t->src.bank[1][1].client = SRC_CLIENT_MATRIX;
    uint32_t w[] = {TT_OP_MVMUL_BH(1, 1, 0, 0, 0),         /* flips both: banks 0 back */
                    TT_OP_CLEARDVALID(0, 1, 1, 0)};         /* SrcA bank 1 back, keep reading */
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->src.bank[0][0].client, SRC_CLIENT_UNPACKERS);
    cr_expect_eq(t->src.bank[1][0].client, SRC_CLIENT_UNPACKERS);
    cr_expect_eq(t->src.bank[0][1].client, SRC_CLIENT_UNPACKERS);
    cr_expect_eq(t->src.bank[1][1].client, SRC_CLIENT_MATRIX);
    cr_expect_eq(t->src.fpu_bank[0], 1, "KeepReadingSameSrc");
    cr_expect_eq(t->src.fpu_bank[1], 1);
}

Test(fpu, clr_dvalid_disable_keeps_the_bank)
{
    setth(THCFG_DESC(ab, CLR_DVALID_SrcA_Disable), 1);
    uint32_t w[] = {TT_OP_MVMUL_BH(0, 1, 0, 0, 0), TT_OP_CLEARDVALID(0, 0, 0, 1)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->src.bank[0][0].client, SRC_CLIENT_MATRIX);
    cr_expect_eq(t->src.fpu_bank[0], 1);
    /* CLEARDVALID Reset (WH:CLEARDVALID.md) ignores the Disable bit: every bank back to the
     * unpackers, every pointer to 0 */
    cr_assert_eq(run(w + 1, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned k = 0; k < 2; k++) {
        cr_expect_eq(t->src.bank[k][0].client, SRC_CLIENT_UNPACKERS);
        cr_expect_eq(t->src.bank[k][1].client, SRC_CLIENT_UNPACKERS);
        cr_expect_eq(t->src.fpu_bank[k], 0);
        cr_expect_eq(t->src.unpack_bank[k], 0);
    }
}

/* ---- timing ---- */

/* K MVMULs over N rotating 8-row Dst blocks. A block written at c can be read again at c + 5
 * (WH:Dst.md: unreadable for the next four cycles), so with N <= 5 the i-th MVMUL issues at
 * 5 * (i / N) + i % N after the first, and with N >= 5 at i. */
static void rotation(unsigned nblocks, unsigned k)
{
    uint32_t w[40];
    for (unsigned i = 0; i < k; i++)
        w[i] = mvmul(0, 8 * (i % nblocks));
    cr_assert_eq(run(w, k), ERR_NONE, "%s", t->err.text);
    uint64_t c0 = ilog.e[0].cycle;
    uint64_t stalls = 0;
    for (unsigned i = 0; i < k; i++) {
        uint64_t want = nblocks >= 5 ? i : 5 * (i / nblocks) + i % nblocks;
        cr_expect_eq(ilog.e[i].cycle - c0, want, "%u blocks: MVMUL %u at +%llu, want +%llu", nblocks,
                     i, (unsigned long long)(ilog.e[i].cycle - c0), (unsigned long long)want);
        if (i)
            stalls += ilog.e[i].cycle - ilog.e[i - 1].cycle - 1;
    }
    const struct thread_stats *s = &t->thread[0].st;
    cr_expect_eq(s->stall[GS_DEST_HAZARD], stalls, "every lost cycle is charged to the Dest hazard");
    if (nblocks < 5)
        cr_expect_eq(s->stall_detail[GS_DEST_HAZARD][0], (5 - nblocks) * ((k - 1) / nblocks),
                     "each revisit of block 0 waits 5 - N cycles");
    cr_expect_eq(t->fpu.st.issued, k);
}

Test(fpu, mvmul_one_block_issues_every_5_cycles) { rotation(1, 12); }
Test(fpu, mvmul_two_blocks) { rotation(2, 12); }
Test(fpu, mvmul_four_blocks_lose_one_cycle_in_five) { rotation(4, 20); }
Test(fpu, mvmul_five_blocks_sustain_one_per_cycle) { rotation(5, 30); }
Test(fpu, mvmul_eight_blocks_sustain_one_per_cycle) { rotation(8, 32); }
Test(fpu_wh, mvmul_four_blocks_lose_one_cycle_in_five) { rotation(4, 20); }

Test(fpu, stallwait_on_matrix_unit_busy)
{
    /* BH C4 (WH C7): the thread has an instruction in the matrix unit; MVMUL at c is in it
     * until c + 5; the condition is seen clear at c + 5 and DMANOP (B0) issues at c + 6. */
    uint32_t sw = TT_OP_STALLWAIT_BH(1, 1u << 4);
    uint32_t w[] = {mvmul(0, 0), sw, TT_OP_DMANOP};
    cr_assert_eq(run(w, 3), ERR_NONE, "%s", t->err.text);
    uint64_t c = issue_log_cycle(&ilog, 0, w[0], 0);
    cr_expect_eq(issue_log_cycle(&ilog, 0, TT_OP_DMANOP, 0), c + 6);
    cr_expect_eq(t->cycles, c + 6 + 1, "the run ends after the last instruction");
}

static uint64_t gap_after(uint32_t first, uint32_t second)
{
    uint32_t w[] = {first, second};
    cr_assert_eq(run(w, 2), ERR_NONE, "%s", t->err.text);
    return ilog.e[1].cycle - ilog.e[0].cycle;
}

Test(fpu, movd2a_lets_only_movd2a_or_movb2a_next)
{
    cr_expect_eq(gap_after(TT_OP_MOVD2A_BH(0, 0, 0, 0, 0), TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 64)), 2);
    cr_expect_eq(t->thread[0].st.stall[GS_HAZARD], 1);
}
Test(fpu, movd2a_then_movb2a_back_to_back)
{
    cr_expect_eq(gap_after(TT_OP_MOVD2A_BH(0, 0, 0, 0, 0), TT_OP_MOVB2A_BH(1, 0, 0, 0)), 1);
}
Test(fpu, movd2b_holds_others_three_cycles)
{
    cr_expect_eq(gap_after(TT_OP_MOVD2B_BH(0, 0, 0, 0, 0), TT_OP_ZEROSRC(0, 0, 0, 0, 1)), 4);
}
Test(fpu, shiftxb_issues_every_other_cycle)
{
    cr_expect_eq(gap_after(TT_OP_SHIFTXB_BH(0, 0, 0), TT_OP_SHIFTXB_BH(0, 0, 1)), 2);
}
Test(fpu, mova2d_holds_dst_readers_three_cycles)
{
    /* MOVA2D writes rows 16..23; MVMUL reads rows 0..7, yet waits (the listed readers wait
     * regardless of where they read) */
    cr_expect_eq(gap_after(TT_OP_MOVA2D_BH(0, 0, 0, 1, 16), mvmul(0, 0)), 4);
}
Test(fpu, mova2d_does_not_hold_elwadd)
{
    cr_expect_eq(gap_after(TT_OP_MOVA2D_BH(0, 0, 0, 1, 16), TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0)), 1);
}

Test(fpu, mvmul_waits_for_the_banks)
{
    /* SrcA bank 0 belongs to the unpackers; T1 hands it over with SETDVALID after 10 DMANOPs.
     * T0's MVMUL issues the cycle after SETDVALID, every cycle before charged to src_not_valid
     * (detail 0: SrcA). */
    t->src.bank[0][0].client = SRC_CLIENT_UNPACKERS;
    uint32_t w1[12];
    for (unsigned i = 0; i < 10; i++)
        w1[i] = TT_OP_DMANOP;
    w1[10] = TT_OP_SETDVALID(0, 1);
    tensix_kernel(t, 1, w1, 11);
    uint32_t w0[] = {mvmul(0, 0)};
    cr_assert_eq(run(w0, 1), ERR_NONE, "%s", t->err.text);
    uint64_t s = issue_log_cycle(&ilog, 1, TT_OP_SETDVALID(0, 1), 0);
    cr_expect_eq(issue_log_cycle(&ilog, 0, w0[0], 0), s + 1);
    cr_expect_gt(t->thread[0].st.stall[GS_SRC_NOT_VALID], 5);
    cr_expect_eq(t->thread[0].st.stall_detail[GS_SRC_NOT_VALID][0], t->thread[0].st.stall[GS_SRC_NOT_VALID]);
}

Test(fpu, one_instruction_per_cycle_from_all_threads)
{
    /* T0 and T1 push 8 MVMULs each to their own 8 blocks: 16 issues in 16 consecutive cycles */
    uint32_t w0[8], w1[8];
    for (unsigned i = 0; i < 8; i++) {
        w0[i] = mvmul(0, 8 * i);
        w1[i] = mvmul(0, 64 + 8 * i);
    }
    tensix_kernel(t, 1, w1, 8);
    cr_assert_eq(run(w0, 8), ERR_NONE, "%s", t->err.text);
    cr_assert_eq(ilog.n, 16);
    for (unsigned i = 1; i < 16; i++)
        cr_expect_eq(ilog.e[i].cycle, ilog.e[0].cycle + i);
    cr_expect_gt(t->thread[0].st.stall[GS_ARBITRATION] + t->thread[1].st.stall[GS_ARBITRATION], 6);
}

/* ---- the SDK matmul example (riscv/sdk/examples/matmul) ---- */

#include <stdlib.h>

#include "../riscv/sdk/examples/matmul/matmul_data.h"

/* A BF16 value as a datapath operand (units/fpu_datapath.h). */
static uint32_t bf16_op(uint16_t b) { return (uint32_t)(b >> 15) << 18 | (uint32_t)(b >> 7 & 0xFF) << 10 | (b & 0x7Fu) << 3; }

/* Four 32x32x32 BF16 products with FP32 Dst at `phases` fidelity phases. The reference is the
 * sequence the kernel asks of the matrix unit, computed with the datapath's own arithmetic
 * (tested on its own in test_fpu_datapath.c and against ttsim): per phase, per output face,
 * the k-face 0 MVMUL then the k-face 1 MVMUL, each one dp_mvmul into the FP32 Dst. What this
 * checks is the example end to end: unpacking, the replay/MOP/ADDR_MOD walk through the faces
 * and phases, and packing.
 * Timing: the 16 * phases MVMULs of a tile issue on consecutive cycles (calibration.md: 16, 32,
 * 48, 64 cycles per tile at LoFi .. HiFi4), read from the matrix unit's --trace track. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void matmul_example(unsigned phases)
{
    char param[64], cmd[512], out[8192];
    snprintf(param, sizeof param, "/tmp/tensim-mm-param-%u.bin", phases);
    FILE *f = fopen(param, "wb");
    uint32_t p32 = phases;
    fwrite(&p32, 4, 1, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "run -q --load %s@0x%x --dump 0x%x:%u:/tmp/tensim-mm-out-%u.bin --trace "
             "/tmp/tensim-mm-trace-%u.json --stats /tmp/tensim-mm-stats-%u.json --trisc0 "
             "build/kernels/matmul-t0.elf --trisc1 build/kernels/matmul-t1.elf --trisc2 "
             "build/kernels/matmul-t2.elf",
             param, MM_PARAM, MM_OUT, MM_TILES * 64 * 16 * 4, phases, phases, phases);
    cr_assert_eq(run_tensim(cmd, out, sizeof out), 0, "%s", out);

    char path[128];
    size_t len;
    snprintf(path, sizeof path, "/tmp/tensim-mm-out-%u.bin", phases);
    uint32_t *got = (uint32_t *)read_whole_file(path, &len);
    cr_assert_eq(len, MM_TILES * 64 * 16 * 4);
    unsigned bad = 0;
    for (unsigned t = 0; t < MM_TILES; t++)
        for (unsigned r = 0; r < 32; r++)
            for (unsigned c = 0; c < 32; c++) {
                uint32_t want = 0;
                const struct dp_mode m = {.dst32 = true, .exp8 = true};
                for (unsigned p = 0; p < phases; p++)
                    for (unsigned kk = 0; kk < 2; kk++) {
                        uint32_t a[16], b[16];
                        uint16_t zero = 0;
                        for (unsigned k = 0; k < 16; k++) {
                            a[k] = bf16_op(mm_value(1, t, 16 * kk + k, c)); /* SrcA: B */
                            b[k] = bf16_op(mm_value(0, t, r, 16 * kk + k)); /* SrcB: A */
                            zero |= (uint16_t)((dp_is_zero(a[k]) || dp_is_zero(b[k])) << k);
                        }
                        struct dp_lanes la, lb;
                        dp_lanes_a(&la, a, zero, p);
                        dp_lanes_b(&lb, b, 0, p);
                        want = dp_mvmul(&la, &lb, want, p, m);
                    }
                unsigned face = (r / 16) * 2 + c / 16;
                uint32_t g = got[(t * 64 + face * 16 + r % 16) * 16 + c % 16];
                if (g != want && bad++ < 3)
                    cr_expect_eq(g, want, "%u phases, tile %u C[%u][%u]: 0x%08x, want 0x%08x",
                                 phases, t, r, c, g, want);
            }
    cr_expect_eq(bad, 0, "%u phases: %u of %u values differ", phases, bad, MM_TILES * 1024);
    free(got);

    /* the matrix unit's track and its lanes: MVMUL events, put in issue order */
    snprintf(path, sizeof path, "/tmp/tensim-mm-trace-%u.json", phases);
    char *tr = read_whole_file(path, &len);
    uint64_t ts[4 * 16 * 4];
    unsigned n = 0;
    const char *key = "{\"name\":\"MVMUL\",\"cat\":\"unit\",\"ph\":\"X\",\"ts\":";
    for (const char *q = strstr(tr, key); q && n < 256; q = strstr(q + 1, key))
        ts[n++] = strtoull(q + strlen(key), 0, 10);
    cr_assert_eq(n, MM_TILES * 16 * phases);
    qsort(ts, n, sizeof ts[0], cmp_u64);
    for (unsigned t = 0; t < MM_TILES; t++) {
        uint64_t first = ts[t * 16 * phases], last = ts[(t + 1) * 16 * phases - 1];
        cr_expect_eq(last - first + 1, 16 * phases, "%u phases, tile %u: %llu cycles of MVMUL", phases,
                     t, (unsigned long long)(last - first + 1));
    }
    free(tr);
    snprintf(path, sizeof path, "/tmp/tensim-mm-stats-%u.json", phases);
    char *st = read_whole_file(path, &len);
    char want[128];
    snprintf(want, sizeof want, "\"fpu\": {\"instructions\": %u, \"busy_cycles\": ", MM_TILES * 16 * phases);
    cr_expect(strstr(st, want) != NULL, "%s", st);
    snprintf(want, sizeof want, "\"mul_by_fidelity_phase\": [%u, %u, %u, %u]", MM_TILES * 16,
             phases > 1 ? MM_TILES * 16 : 0, phases > 2 ? MM_TILES * 16 : 0,
             phases > 3 ? MM_TILES * 16 : 0);
    cr_expect(strstr(st, want) != NULL, "%s", st);
    free(st);
}

Test(fpu_example, matmul_lofi) { matmul_example(1); }
Test(fpu_example, matmul_hifi2) { matmul_example(2); }
Test(fpu_example, matmul_hifi3) { matmul_example(3); }
Test(fpu_example, matmul_hifi4) { matmul_example(4); }

Test(fpu, throttled_sequence_with_nops_halves_the_rate)
{
    /* Matmul throttling (seed 004) interleaves NOPs with the MVMULs; nothing in the model
     * knows about throttling: with one NOP after each MVMUL the MVMULs simply issue every
     * other cycle. */
    uint32_t w[24];
    unsigned n = 0;
    for (unsigned i = 0; i < 8; i++) {
        w[n++] = mvmul(0, 8 * (i % 8));
        w[n++] = TT_OP_NOP;
    }
    cr_assert_eq(run(w, n), ERR_NONE, "%s", t->err.text);
    uint64_t prev = 0;
    unsigned k = 0;
    for (unsigned i = 0; i < ilog.n; i++) {
        if (ilog.e[i].word == TT_OP_NOP)
            continue;
        if (k++)
            cr_expect_eq(ilog.e[i].cycle - prev, 2);
        prev = ilog.e[i].cycle;
    }
    cr_expect_eq(k, 8, "all eight MVMULs issued");
}

Test(fpu, mvmul_without_data_deadlocks_with_a_reason)
{
    t->src.bank[1][0].client = SRC_CLIENT_UNPACKERS;
    uint32_t w[] = {mvmul(0, 0)};
    cr_assert_eq(run(w, 1), ERR_DEADLOCK);
    cr_expect(strstr(t->err.detail, "thread T0: MVMUL") != NULL, "%s", t->err.detail);
    cr_expect(strstr(t->err.detail, "waits for the matrix unit to own its SrcB bank") != NULL, "%s",
              t->err.detail);
}

Test(fpu, movdbga2d_does_not_wait_for_srca)
{
    /* the same copy as MOVA2D, without the ownership wait (WH:MOVDBGA2D.md) */
    t->src.bank[0][0].client = SRC_CLIENT_UNPACKERS;
    for (unsigned c = 0; c < 16; c++)
        t->src.bank[0][0].cell[3][c] = bf16_src(0x4000 + c);
    uint32_t w[] = {TT_OP_MOVDBGA2D_BH(0, 3, 0, 0, 9)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned c = 0; c < 16; c++)
        cr_expect_eq(dst16(9, c), to_dst(0x4000 + c, O_BF16));
    cr_expect_eq(t->thread[0].st.stall[GS_SRC_NOT_VALID], 0);
}

Test(fpu, wide_exponent_spread_rounds_exactly)
{
    /* Dst[0][0] = 1 + 2^-8 + 2^-60 (three products): halfway between two BF16 values but for the
     * last term, so round-to-nearest gives 1 + 2^-7. The spread (68 binades) is too wide for a
     * double sum, which would drop 2^-60, see a tie and round to even (1.0): the exact
     * accumulator must be used. */
    static const uint32_t one = 127, e_m8 = 127 - 8, e_m60 = 127 - 60; /* BF16 exponents */
    t->src.bank[1][0].cell[0][0] = one;
    t->src.bank[1][0].cell[0][1] = one;
    t->src.bank[1][0].cell[0][2] = one;
    t->src.bank[0][0].cell[0][0] = one;   /* 1 */
    t->src.bank[0][0].cell[1][0] = e_m8;  /* 2^-8 */
    t->src.bank[0][0].cell[2][0] = e_m60; /* 2^-60 */
    uint32_t w[] = {mvmul(0, 0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(dst16(0, 0), to_dst(0x3F81, O_BF16), "got 0x%x", dst16(0, 0));
}

/* Dst32b row indices are 10 bits (WH:Dst.md: Adj32 maps them onto 512 distinct DstBits rows):
 * an FP32 MVMUL at DstRow 0x200 lands on DstBits 0x200.., on the fast path and on the exact one
 * (operands 2^60 apart force the latter); DstBits row 0 stays undefined. What this checks is
 * the row addressing of each path: 1 + 2^-60 rounds to 1.0 in FP32 on either path (the tie
 * only the exact path gets right is pinned by wide_exponent_spread_rounds_exactly). */
static void dst32_high_rows(uint32_t a_exp_far)
{
    setc(CFG_DESC(ab, ALU_ACC_CTRL_Fp32_enabled), 1);
    for (unsigned c = 0; c < 16; c++) {
        t->src.bank[0][0].cell[0][c] = 127;       /* 1.0 */
        t->src.bank[0][0].cell[1][c] = a_exp_far; /* 1.0, or 2^-60 */
        t->src.bank[1][0].cell[0][0] = 127;
        t->src.bank[1][0].cell[0][1] = 127;
    }
    uint32_t w[] = {mvmul(0, 0x200)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    double want = 1.0 + (a_exp_far == 127 ? 1.0 : ldexp(1, -60));
    union { float f; uint32_t u; } v = {.f = (float)want};
    cr_expect_eq(dest_read32(t, 0x200, 5), to_dst(v.u, O_FP32), "got 0x%x", dest_read32(t, 0x200, 5));
    cr_expect(t->dest.row_valid[0x200] && !t->dest.row_valid[0]);
}
Test(fpu, dst32_rows_past_511_fast_path) { dst32_high_rows(127); }
Test(fpu, dst32_rows_past_511_exact_path) { dst32_high_rows(127 - 60); }

Test(fpu, srca_rows_wrap_at_64)
{
    /* RWC SrcA 0x38: the 16 SrcA rows are 56..63 then 0..7 of the same bank (the other bank,
     * filled with 2.0, must not be read). SrcB row 0 is 1.0 in every column, so Dst[0][j] is the
     * sum of SrcA column j over those rows. */
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++) {
            t->src.bank[0][0].cell[r][c] = (r >= 56 || r < 8) ? 127u : 0u; /* 1.0 or zero */
            t->src.bank[0][1].cell[r][c] = 128;                          /* 2.0 */
        }
    for (unsigned k = 0; k < 16; k++)
        t->src.bank[1][0].cell[0][k] = 127;
    t->fpu.rwc[0].srca = 0x38;
    uint32_t w[] = {mvmul(0, 0)};
    cr_assert_eq(run(w, 1), ERR_NONE, "%s", t->err.text);
    for (unsigned j = 0; j < 16; j++)
        cr_expect_eq(dst16(0, j), to_dst(0x4180, O_BF16), "16.0 in column %u, got 0x%x", j, dst16(0, j));
}

Test(fpu, mpool3s1_is_unimplemented)
{
    uint32_t w[] = {0x24000000u};
    cr_assert_eq(run(w, 1), ERR_UNIMPLEMENTED);
    cr_expect(strstr(t->err.text, "MPOOL3S1 (thread T0): documented only as") != NULL, "%s", t->err.text);
}
