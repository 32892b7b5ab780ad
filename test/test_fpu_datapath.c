/* The matrix unit's datapath arithmetic (units/fpu_datapath.c), one rule per test, with the
 * expected bits worked out by hand from the rule (docs/numerics.md). Whole instructions and
 * tiles are compared with Tenstorrent's functional simulator through the differential harness
 * (test/diff, docs/numerics.md "Checking against ttsim"). */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/formats.h"
#include "../units/fpu_datapath.h"

/* Operands: sign, exponent field, ten mantissa bits. */
static uint32_t op(unsigned sign, unsigned exp, unsigned man) { return sign << 18 | exp << 10 | man; }
#define ONE op(0, 127, 0)

static const struct dp_mode FP32_DST = {.dst32 = true, .exp8 = true};
static const struct dp_mode BF16_DST = {.dst32 = false, .exp8 = true};
static const struct dp_mode FP16_DST = {.dst32 = false, .exp8 = false};
static const struct dp_mode FP16_SRC_FP32_DST = {.dst32 = true, .exp8 = false};

/* 16 lanes of MVMUL with the given lanes set and the rest zero. */
struct lanes {
    uint32_t a[16], b[16];
    uint16_t zero;
};
static struct lanes no_lanes(void) { return (struct lanes){.zero = 0xFFFF}; }
static void set_lane(struct lanes *l, unsigned k, uint32_t a, uint32_t b)
{
    l->a[k] = a, l->b[k] = b;
    l->zero &= (uint16_t)~(1u << k);
}
static uint32_t mvmul(const struct lanes *l, uint32_t dst, unsigned phase, struct dp_mode m)
{
    struct dp_lanes a, b;
    dp_lanes_a(&a, l->a, l->zero, phase);
    dp_lanes_b(&b, l->b, 0, phase);
    return dp_mvmul(&a, &b, dst, phase, m);
}

/* The example: 1.0 + 2^-8 in BF16. The exact sum is halfway between 0x3F80 and 0x3F81;
 * the datapath rounds half up on the magnitude, not to even. */
Test(fpu_datapath, elwadd_bf16_rounds_half_up)
{
    uint32_t a = ONE, b = op(0, 119, 0);
    cr_expect_eq(dp_elwadd(a, b, false, false, 0, false, 0, BF16_DST), 0x3F810000u);
    cr_expect_eq(dp_elwadd(a, b, false, false, 0, false, 0, FP32_DST), 0x3F808000u, "exact in FP32");
    /* negative: the same magnitude */
    cr_expect_eq(dp_elwadd(a | 1u << 18, b | 1u << 18, false, false, 0, false, 0, BF16_DST), 0xBF810000u);
}

/* The smaller operand joins the larger's exponent in an 11-bit window: 2^-12 next to 1.0 is
 * shifted out entirely (a shift of 12 or more drops it), 2^-11 rounds half up to one unit. */
Test(fpu_datapath, elwadd_eleven_bit_window)
{
    cr_expect_eq(dp_elwadd(ONE, op(0, 115, 0), false, false, 0, false, 0, FP32_DST), 0x3F800000u);
    cr_expect_eq(dp_elwadd(ONE, op(0, 116, 0), false, false, 0, false, 0, FP32_DST), 0x3F800000u | 1u << 13);
}

/* Cancellation gives +0, and a zero operand is +0 whatever its sign. */
Test(fpu_datapath, cancellation_is_plus_zero)
{
    cr_expect_eq(dp_elwadd(ONE, ONE | 1u << 18, false, false, 0, false, 0, FP32_DST), 0);
    cr_expect_eq(dp_elwadd(ONE | 1u << 18, ONE, false, false, 0, false, 0, BF16_DST), 0);
    /* -0 + -0 with a -0 Dst (exponent 0) */
    cr_expect_eq(dp_elwadd(op(1, 0, 0), op(1, 0, 0), true, true, 0x80000000u, true, 0, FP32_DST), 0);
}

/* FP16: exponent 31 is finite; beyond it the datapath saturates (no infinity). */
Test(fpu_datapath, fp16_saturates)
{
    uint32_t max = op(0, 31, 0x3FF);
    cr_expect_eq(dp_to_fp16(dp_elwadd(max, max, false, false, 0, false, 0, FP16_DST)), 0x7FFF);
    cr_expect_eq(dp_to_fp16(dp_elwadd(max | 1u << 18, max | 1u << 18, false, false, 0, false, 0, FP16_DST)), 0xFFFF);
    /* 65504 + 65504 = 131008 = 1.1111111111b x 2^16: exponent 31, exact */
    uint32_t fp16max = op(0, 30, 0x3FF);
    cr_expect_eq(dp_to_fp16(dp_elwadd(fp16max, fp16max, false, false, 0, false, 0, FP16_DST)), 0x7FFF);
}

/* BF16 and FP32 overflow to infinity; exponent 255 on the way in is an ordinary exponent. */
Test(fpu_datapath, bf16_overflows_to_infinity)
{
    uint32_t big = op(0, 254, 0x3F8);
    cr_expect_eq(dp_elwadd(big, big, false, false, 0, false, 0, BF16_DST), 0x7F800000u);
    cr_expect_eq(dp_elwadd(op(1, 255, 0), op(1, 127, 0), false, false, 0, false, 0, FP32_DST), 0xFF800000u);
    /* "Inf" - "Inf" is an exact cancellation */
    cr_expect_eq(dp_elwadd(op(0, 255, 0), op(1, 255, 0), false, false, 0, false, 0, FP32_DST), 0);
}

/* FP16 operands into an FP32 Dst are rebiased: 1.0 + 1.0 = 2.0 in FP32. */
Test(fpu_datapath, fp16_into_fp32_dst)
{
    uint32_t one16 = op(0, 15, 0);
    cr_expect_eq(dp_elwadd(one16, one16, false, false, 0, false, 0, FP16_SRC_FP32_DST), 0x40000000u);
    cr_expect_eq(dp_elwmul(one16, op(0, 16, 0), false, false, 0, 0, FP16_SRC_FP32_DST), 0x40000000u);
}

/* A slice product of zero keeps its exponent in the half's maximum: in phase 1 (SrcA's low
 * slice, zero for a mantissa of 0) a lane of 2^43 wipes both the other lane and the Dst. In
 * phase 0 the same lanes give 2^43 (the rest is below its precision). */
Test(fpu_datapath, zero_slice_keeps_its_exponent)
{
    struct lanes l = no_lanes();
    set_lane(&l, 0, op(0, 170, 0), ONE);
    set_lane(&l, 1, op(0, 127, 0x002), ONE); /* 1 + 2^-9: its low slice is not zero */
    cr_expect_eq(mvmul(&l, 0x3F800000u, 1, FP32_DST), 0);
    cr_expect_eq(mvmul(&l, 0x3F800000u, 0, FP32_DST), 0x55000000u);
}

/* The two halves are aligned separately, without guard bits: 1.0 next to 2^12 in lanes 0-7 is
 * lost, the same 1.0 in lanes 8-15 survives. 2^12 + 1 + 1 comes out as 4097. */
Test(fpu_datapath, halves_align_separately)
{
    struct lanes l = no_lanes();
    set_lane(&l, 0, op(0, 139, 0), ONE);
    set_lane(&l, 1, ONE, ONE);
    set_lane(&l, 8, ONE, ONE);
    cr_expect_eq(mvmul(&l, 0, 0, FP32_DST), 0x45800800u);
    /* with both 1.0s in the upper half, both survive: 4098 */
    l = no_lanes();
    set_lane(&l, 0, op(0, 139, 0), ONE);
    set_lane(&l, 8, ONE, ONE);
    set_lane(&l, 9, ONE, ONE);
    cr_expect_eq(mvmul(&l, 0, 0, FP32_DST), 0x45801000u);
}

/* Sums of products aligned to the Dst round half towards +infinity: -1.0 next to a Dst of 2^24
 * is a tie that goes to 0, so 2^24 - 1 (exact in FP32) comes out as 2^24; +1.0 rounds up. */
Test(fpu_datapath, negative_tie_rounds_towards_plus_infinity)
{
    struct lanes l = no_lanes();
    set_lane(&l, 0, ONE | 1u << 18, ONE);
    cr_expect_eq(mvmul(&l, 0x4B800000u, 0, FP32_DST), 0x4B800000u);
    set_lane(&l, 0, ONE, ONE);
    cr_expect_eq(mvmul(&l, 0x4B800000u, 0, FP32_DST), 0x4B800001u);
}

/* The fidelity slices: 1.5 x 1.5 = 2.25 needs SrcA's bits in phase 0 only (1.1b is five bits)
 * and SrcB's in phase 0 only; 1.0078125 (1 + 2^-7) x 1.0 has SrcA bit 3 (phase 1's slice) and
 * SrcB's 1 + 2^-7 has bit 3 too, which only phases 2 and 3 see. */
Test(fpu_datapath, fidelity_slices)
{
    uint32_t x15 = op(0, 127, 0x200);
    cr_expect_eq(dp_elwmul(x15, x15, false, false, 0, 0, FP32_DST), 0x40100000u, "2.25");
    cr_expect_eq(dp_elwmul(x15, x15, false, false, 0, 1, FP32_DST), 0, "no low A bits: +0");
    uint32_t y = op(0, 127, 0x008); /* 1 + 2^-7 */
    cr_expect_eq(dp_elwmul(y, ONE, false, false, 0, 0, FP32_DST), 0x3F800000u, "phase 0: 1.0");
    cr_expect_eq(dp_elwmul(y, ONE, false, false, 0, 1, FP32_DST), 0x3C000000u, "phase 1: 2^-7");
    cr_expect_eq(dp_elwmul(ONE, y, false, false, 0, 2, FP32_DST), 0x3C000000u, "phase 2: 2^-7");
    cr_expect_eq(dp_elwmul(y, y, false, false, 0, 3, FP32_DST), 0x38800000u, "phase 3: 2^-14");
    /* SrcA's last mantissa bit is never used */
    cr_expect_eq(dp_elwmul(op(0, 127, 1), ONE, false, false, 0, 1, FP32_DST), 0);
}

/* Only ELWMUL drops a product that underflows (exponent <= 0): the Dst comes through. */
Test(fpu_datapath, elwmul_drops_underflow)
{
    uint32_t tiny = op(0, 1, 0);
    cr_expect_eq(dp_elwmul(tiny, tiny, false, false, 0x3F800000u, 0, FP32_DST), 0x3F800000u);
    cr_expect_eq(dp_elwmul(tiny, tiny, false, false, 0, 0, FP32_DST), 0);
}

/* A 16-bit Dst rounds each aligned term at 2^-10 of the common exponent before adding them:
 * 1.0 + 1.75 x 2^-9 is nearer 1.0 than 1.0078125 in BF16, but the product term (7 x 2^-11)
 * first rounds to 2^-8, which puts the sum on the tie, and the tie rounds up. */
Test(fpu_datapath, bf16_dst_rounds_terms_first)
{
    uint32_t r = dp_elwmul(op(0, 118, 0x300), ONE, false, false, 0x3F800000u, 0, BF16_DST);
    cr_expect_eq(r, 0x3F810000u);
    /* the same sum into an FP32 Dst is exact */
    r = dp_elwmul(op(0, 118, 0x300), ONE, false, false, 0x3F800000u, 0, FP32_DST);
    cr_expect_eq(r, 0x3F807000u);
    /* 1 + 1.5 x 2^-7 is a tie between BF16 neighbours: half up */
    r = dp_elwmul(op(0, 120, 0x200), ONE, false, false, 0x3F800000u, 0, BF16_DST);
    cr_expect_eq(r, 0x3F820000u);
}

/* Wormhole counts the leading bits of a result of -1 (unit) as if all 32 were set; Blackhole
 * normalises it correctly. */
Test(fpu_datapath, wormhole_minus_one_quirk)
{
    struct dp_mode wh = FP32_DST, bh = FP32_DST;
    wh.wh = true;
    cr_expect_eq(dp_accumulate(1, 127, 0x800001u, 0, 0, 0, 0x3F800000u, bh), 0xB4000000u, "-2^-23");
    cr_expect_eq(dp_accumulate(1, 127, 0x800001u, 0, 0, 0, 0x3F800000u, wh), 0xC1800000u, "-16");
}

/* The SIMD row function gives dp_mvmul's bits for every column, compiled for each instruction
 * set the host has: random lanes with wide and narrow exponent spreads, zero lanes on either
 * side, every phase and mode. */
/* xorshift64: each call one step, so the data does not depend on evaluation order */
static uint32_t next_rand(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return (uint32_t)(*x >> 11);
}

/* An operand: sign, an exponent 100 + [0, spread) (mod 256), a random mantissa. */
static uint32_t rand_op(uint64_t *x, unsigned spread)
{
    uint32_t s = next_rand(x) & 1, e = (100 + next_rand(x) % spread) % 256, m = next_rand(x) & 0x3FF;
    return s << 18 | e << 10 | m;
}

/* A zero-lane mask with about one lane in `1 << n` set */
static uint16_t rand_zero(uint64_t *x, unsigned n)
{
    uint32_t z = next_rand(x);
    for (unsigned i = 1; i < n; i++)
        z &= next_rand(x);
    return (uint16_t)z;
}

/* Every mode: FP32 or 16-bit Dst, 8-bit or FP16 exponents, Wormhole or not. */
static const struct dp_mode all_modes[8] = {
    {false, false, false}, {false, false, true}, {false, true, false}, {false, true, true},
    {true, false, false},  {true, false, true},  {true, true, false},  {true, true, true}};

/* Exponent spreads: within a half, alignments d from 0 to far beyond 30 (255), around the
 * point where a product is shifted out entirely (13 to 16), and none at all (1). */
static const unsigned spreads[] = {255, 40, 20, 14, 8, 1};
#define ROUNDS (2 * 4 * 8 * 6) /* twice every phase x mode x spread */

static void row_matches(enum dp_simd simd)
{
    uint64_t x = 0x243F6A8885A308D3ull;
    unsigned checked = 0;
    for (unsigned round = 0; round < ROUNDS; round++) {
        struct dp_lanes col[16], row;
        uint32_t bop[16], aop[16][16], dst[16];
        const unsigned phase = round % 4;
        const struct dp_mode m = all_modes[round / 4 % 8];
        const unsigned spread = spreads[round / 32 % 6];
        uint16_t zb = round % 3 ? rand_zero(&x, 3) : 0;
        for (unsigned k = 0; k < 16; k++)
            bop[k] = rand_op(&x, spread);
        dp_lanes_b(&row, bop, zb, phase);
        for (unsigned j = 0; j < 16; j++) {
            for (unsigned k = 0; k < 16; k++)
                aop[j][k] = rand_op(&x, spread);
            dp_lanes_a(&col[j], aop[j], round % 5 ? rand_zero(&x, 2) : 0, phase);
            dst[j] = next_rand(&x) % 3 ? next_rand(&x) : 0;
        }
        struct dp_cols cols;
        dp_cols_of(&cols, col);
        uint32_t out[16];
        dp_mvmul_row(simd, &cols, &row, dst, out, phase, m);
        for (unsigned j = 0; j < 16; j++, checked++)
            cr_assert_eq(out[j], dp_mvmul(&col[j], &row, dst[j], phase, m),
                         "round %u column %u: 0x%08x vs 0x%08x", round, j, out[j],
                         dp_mvmul(&col[j], &row, dst[j], phase, m));
    }
    cr_expect_eq(checked, ROUNDS * 16);
}

Test(fpu_datapath, row_function_plain) { row_matches(DP_SIMD_PLAIN); }
Test(fpu_datapath, row_function_sse41)
{
    if (dp_simd_best() < DP_SIMD_SSE41)
        cr_skip_test("the host has no SSE4.1");
    row_matches(DP_SIMD_SSE41);
}
Test(fpu_datapath, row_function_avx2)
{
    if (dp_simd_best() < DP_SIMD_AVX2)
        cr_skip_test("the host has no AVX2");
    row_matches(DP_SIMD_AVX2);
}
Test(fpu_datapath, row_function_avx512)
{
    if (dp_simd_best() < DP_SIMD_AVX512)
        cr_skip_test("the host has no AVX512F and AVX512BW");
    row_matches(DP_SIMD_AVX512);
}

/* Random operands for a row test: sixteen SrcA columns and n SrcB rows taken apart for `phase`
 * (values spread by `spread`, some zero flags), rows[i] = &row[i]. */
static void random_operands(uint64_t *x, unsigned round, unsigned phase, unsigned spread,
                            unsigned n, struct dp_lanes col[16], struct dp_lanes row[8],
                            const struct dp_lanes *rows[8])
{
    uint32_t op[16];
    for (unsigned j = 0; j < 16; j++) {
        for (unsigned k = 0; k < 16; k++)
            op[k] = rand_op(x, spread);
        dp_lanes_a(&col[j], op, round % 5 ? rand_zero(x, 2) : 0, phase);
    }
    for (unsigned i = 0; i < n; i++) {
        for (unsigned k = 0; k < 16; k++)
            op[k] = rand_op(x, spread);
        dp_lanes_b(&row[i], op, round % 3 ? rand_zero(x, 3) : 0, phase);
        rows[i] = &row[i];
    }
}

/* dp_rows_for's functions (what MVMUL calls) on 1 to 8 different rows at once, in place (out
 * is dst) as the matrix unit calls them, for every path the host has against dp_mvmul: the
 * AVX-512 path computes rows in pairs, one in each half of its vectors, and an odd last row
 * with itself. */
Test(fpu_datapath, rows_function_every_count)
{
    uint64_t x = 0xA4093822299F31D0ull;
    unsigned checked = 0, expected = 0;
    for (enum dp_simd simd = DP_SIMD_PLAIN; simd <= dp_simd_best(); simd++)
        for (unsigned round = 0; round < 8 * 4 * 6; round++) {
            const unsigned n = 1 + round % 8, phase = round / 8 % 4;
            const struct dp_mode m = all_modes[round % 8];
            const unsigned spread = spreads[round / 32 % 6];
            struct dp_lanes col[16], row[8];
            const struct dp_lanes *rows[8];
            uint32_t dst[8][16], io[8][16];
            random_operands(&x, round, phase, spread, n, col, row, rows);
            for (unsigned i = 0; i < n; i++)
                for (unsigned j = 0; j < 16; j++)
                    io[i][j] = dst[i][j] = next_rand(&x) % 3 ? next_rand(&x) : 0;
            struct dp_cols cols;
            dp_cols_of(&cols, col);
            dp_rows_for(simd, m)(&cols, rows, n, (const uint32_t(*)[16])io, io, phase, m);
            expected += n * 16;
            for (unsigned i = 0; i < n; i++)
                for (unsigned j = 0; j < 16; j++, checked++)
                    cr_assert_eq(io[i][j], dp_mvmul(&col[j], &row[i], dst[i][j], phase, m),
                                 "simd %d round %u row %u of %u column %u: 0x%08x vs 0x%08x",
                                 (int)simd, round, i, n, j, io[i][j],
                                 dp_mvmul(&col[j], &row[i], dst[i][j], phase, m));
        }
    cr_expect_eq(checked, expected);
}

/* dp_rows_dst_for's functions (what the matrix unit calls on the AVX2 and AVX-512 paths) on
 * Dst cells as stored, against dp_mvmul on the cells converted the matrix unit's way
 * (units/formats.h; an undefined row reads as 0) and converted back: random cells and valid
 * bits, 1 to 8 rows at different physical rows in a random order (Dst32b ones with bit 3
 * clear, their low halves 8 rows on), every mode and phase, every such path the host has; the
 * other rows are left as they were. */
Test(fpu_datapath, rows_on_dst_cells)
{
    uint64_t x = 0x5DEECE66D1234567ull;
    unsigned checked = 0;
    for (enum dp_simd simd = DP_SIMD_PLAIN; simd <= dp_simd_best(); simd++)
        for (unsigned round = 0; round < 8 * 4 * 6; round++) {
            const unsigned n = 1 + round % 8, phase = round / 8 % 4;
            const struct dp_mode m = all_modes[round % 8];
            dp_rows_dst_fn *const fn = dp_rows_dst_for(simd, m);
            if (!fn) {
                cr_expect(simd < DP_SIMD_AVX2, "simd %d has a Dst-cell rows function", (int)simd);
                break;
            }
            const unsigned spread = spreads[round / 32 % 6];
            struct dp_lanes col[16], row[8];
            const struct dp_lanes *rows[8];
            random_operands(&x, round, phase, spread, n, col, row, rows);
            struct dp_cols cols;
            dp_cols_of(&cols, col);
            /* 32 rows: the candidates 0..7 and 16..23 (bit 3 clear), in a random order */
            uint16_t bits[32][16], before[32][16];
            bool valid[32];
            for (unsigned q = 0; q < 32; q++) {
                valid[q] = next_rand(&x) % 4 != 0;
                for (unsigned j = 0; j < 16; j++)
                    bits[q][j] = (uint16_t)(next_rand(&x) % 5 ? next_rand(&x) : 0);
            }
            memcpy(before, bits, sizeof bits);
            unsigned cand[16], p[8];
            for (unsigned k = 0; k < 16; k++)
                cand[k] = k < 8 ? k : k + 8;
            for (unsigned k = 15; k > 0; k--) {
                const unsigned r = next_rand(&x) % (k + 1), tmp = cand[k];
                cand[k] = cand[r], cand[r] = tmp;
            }
            for (unsigned i = 0; i < n; i++)
                p[i] = cand[i];
            uint16_t want[32][16];
            memcpy(want, bits, sizeof bits);
            for (unsigned i = 0; i < n; i++)
                for (unsigned j = 0; j < 16; j++) {
                    const unsigned q = p[i];
                    uint32_t d = 0;
                    if (valid[q])
                        d = m.dst32  ? fmt_dst_to_fp32((uint32_t)bits[q][j] << 16 | bits[q + 8][j])
                            : m.exp8 ? (uint32_t)fmt_dst_to_bf16(bits[q][j]) << 16
                                     : dp_from_fp16(fmt_dst_to_fp16(bits[q][j]));
                    const uint32_t o = dp_mvmul(&col[j], &row[i], d, phase, m);
                    if (m.dst32) {
                        const uint32_t c = fmt_dst_from_fp32(o);
                        want[q][j] = (uint16_t)(c >> 16), want[q + 8][j] = (uint16_t)c;
                    } else {
                        want[q][j] = m.exp8 ? fmt_dst_from_bf16((uint16_t)(o >> 16))
                                            : fmt_dst_from_fp16(dp_to_fp16(o));
                    }
                }
            fn(&cols, rows, n, bits, valid, p, phase, m);
            for (unsigned q = 0; q < 32; q++)
                for (unsigned j = 0; j < 16; j++, checked++)
                    cr_assert_eq(bits[q][j], want[q][j],
                                 "simd %d round %u (%u rows) row %u column %u: 0x%04x, want 0x%04x (was 0x%04x)",
                                 (int)simd, round, n, q, j, bits[q][j], want[q][j], before[q][j]);
        }
    cr_expect_gt(checked, 0u);
}

/* Every alignment d from 0 to 40 within a half (lanes 0 and 8 d above the others, which are
 * 0..2 apart), with the largest slices (mantissa 0x3FF: a half's sum reaches 8 x 31 x 127 when
 * the signs agree) or random ones, all signs equal, alternating or random, in every phase and
 * mode, every path the host has against dp_mvmul. */
Test(fpu_datapath, row_function_every_alignment)
{
    uint64_t x = 0x13198A2E03707344ull;
    unsigned checked = 0;
    for (enum dp_simd simd = DP_SIMD_PLAIN; simd <= dp_simd_best(); simd++)
        for (unsigned mi = 0; mi < 8; mi++)
            for (unsigned phase = 0; phase < 4; phase++)
                for (unsigned d = 0; d <= 40; d++) {
                    struct dp_lanes col[16], row;
                    uint32_t aop[16], bop[16], dst[16];
                    for (unsigned k = 0; k < 16; k++)
                        bop[k] = op(k & 1, 127, k < 8 ? 0x3FF : next_rand(&x) & 0x3FF);
                    dp_lanes_b(&row, bop, 0, phase);
                    for (unsigned j = 0; j < 16; j++) {
                        for (unsigned k = 0; k < 16; k++) {
                            const unsigned e = 100 + (k % 8 == 0 ? d : k % 3);
                            const unsigned sign = j % 4 == 0 ? 0 : j % 4 == 1 ? 1 : j % 4 == 2 ? k & 1
                                                                                            : next_rand(&x) & 1;
                            aop[k] = op(sign ^ (k & 1), e, j < 8 ? 0x3FF : next_rand(&x) & 0x3FF);
                        }
                        dp_lanes_a(&col[j], aop, 0, phase);
                        dst[j] = j % 3 == 0 ? 0 : next_rand(&x);
                    }
                    struct dp_cols cols;
                    dp_cols_of(&cols, col);
                    uint32_t out[16];
                    dp_mvmul_row(simd, &cols, &row, dst, out, phase, all_modes[mi]);
                    for (unsigned j = 0; j < 16; j++, checked++)
                        cr_assert_eq(out[j], dp_mvmul(&col[j], &row, dst[j], phase, all_modes[mi]),
                                     "simd %d mode %u phase %u d %u column %u: 0x%08x vs 0x%08x",
                                     (int)simd, mi, phase, d, j, out[j],
                                     dp_mvmul(&col[j], &row, dst[j], phase, all_modes[mi]));
                }
    cr_expect_eq(checked, (unsigned)(dp_simd_best() + 1) * 8 * 4 * 41 * 16);
}

/* Sums of 25 and 26 bits with every low bit set, whose rounding carries out (accumulate8 finds
 * the leading one from a float's exponent field, and a float of such a sum is the next power of
 * two): Dst 1.11..1 x 2^0 and shorter mantissas, either sign, plus products of 1.0 x 1.0 at the
 * same exponent in one or both halves; every path the host has against dp_mvmul. */
Test(fpu_datapath, row_function_sums_over_2_24)
{
    static const struct dp_mode modes[] = {{true, true, false}, {true, true, true}};
    const uint32_t one = 127u << 10; /* 1.0: exponent 127, mantissa 0 */
    unsigned checked = 0;
    for (enum dp_simd simd = DP_SIMD_PLAIN; simd <= dp_simd_best(); simd++)
        for (unsigned mi = 0; mi < 2; mi++)
            for (unsigned nlanes = 1; nlanes <= 4; nlanes++) {
                struct dp_lanes col[16], row;
                uint32_t aop[16], bop[16], dst[16];
                for (unsigned k = 0; k < 16; k++)
                    aop[k] = bop[k] = one;
                /* lanes 0..nlanes-1 and 8..8+nlanes-1 live in column j's SrcA when j & 1 */
                uint16_t live = (uint16_t)((1u << nlanes) - 1);
                dp_lanes_b(&row, bop, 0, 0);
                for (unsigned j = 0; j < 16; j++) {
                    uint16_t l = j & 1 ? (uint16_t)(live | live << 8) : live;
                    dp_lanes_a(&col[j], aop, (uint16_t)~l, 0);
                    dst[j] = (j & 2 ? 0xBF800000u : 0x3F800000u) | 0x7FFFFF >> (j / 4);
                }
                struct dp_cols cols;
                dp_cols_of(&cols, col);
                uint32_t out[16];
                dp_mvmul_row(simd, &cols, &row, dst, out, 0, modes[mi]);
                for (unsigned j = 0; j < 16; j++, checked++)
                    cr_assert_eq(out[j], dp_mvmul(&col[j], &row, dst[j], 0, modes[mi]),
                                 "simd %d, %u lanes, column %u: 0x%08x vs 0x%08x", (int)simd, nlanes,
                                 j, out[j], dp_mvmul(&col[j], &row, dst[j], 0, modes[mi]));
            }
    cr_expect_eq(checked, (unsigned)(dp_simd_best() + 1) * 2 * 4 * 16);
}
