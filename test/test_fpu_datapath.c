/* The matrix unit's datapath arithmetic (units/fpu_datapath.c), one rule per test, with the
 * expected bits worked out by hand from the rule (docs/numerics.md). Whole instructions and
 * tiles are compared with Tenstorrent's functional simulator through the differential harness
 * (test/diff, docs/numerics.md "Checking against ttsim"). */
#include <criterion/criterion.h>

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

/* xorshift64, one step; a function so that each draw is its own sequenced call (several
 * x ^= ... in one expression modified x unsequenced: undefined, and gcc -fsanitize rejects it) */
static uint32_t xs_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (uint32_t)(*x >> 11);
}

/* A random Src operand: sign, an exponent within `spread` of 100, ten mantissa bits. */
static uint32_t xs_operand(uint64_t *x, unsigned spread)
{
    const uint32_t sign = xs_next(x) & 1, exp = (100 + xs_next(x) % spread) % 256;
    return sign << 18 | exp << 10 | (xs_next(x) & 0x3FF);
}

/* The AND of n draws: mostly zero bits (the zero-lane masks). */
static uint32_t xs_and(uint64_t *x, unsigned n)
{
    uint32_t v = ~0u;
    while (n--)
        v &= xs_next(x);
    return v;
}

/* The SIMD row function gives dp_mvmul's bits for every column, compiled for each instruction
 * set the host has: random lanes with wide and narrow exponent spreads, zero lanes on either
 * side, every phase and mode. */
static void row_matches(enum dp_simd simd)
{
    uint64_t x = 0x243F6A8885A308D3ull;
    static const struct dp_mode modes[] = {{true, true, false}, {false, true, false}, {false, false, false},
                                           {true, false, false}, {true, true, true}};
    unsigned checked = 0;
    for (unsigned round = 0; round < 400; round++) {
        struct dp_lanes col[16], row;
        uint32_t bop[16], aop[16][16], dst[16];
        const unsigned spread = round % 4 == 0 ? 255 : round % 4 == 1 ? 40 : round % 4 == 2 ? 8 : 1;
        const unsigned phase = round % 4;
        const struct dp_mode m = modes[round % 5];
        uint16_t zb = (uint16_t)(round % 3 ? xs_and(&x, 3) : 0);
        for (unsigned k = 0; k < 16; k++)
            bop[k] = xs_operand(&x, spread);
        dp_lanes_b(&row, bop, zb, phase);
        for (unsigned j = 0; j < 16; j++) {
            for (unsigned k = 0; k < 16; k++)
                aop[j][k] = xs_operand(&x, spread);
            dp_lanes_a(&col[j], aop[j], (uint16_t)(round % 5 ? xs_and(&x, 2) : 0), phase);
            dst[j] = xs_next(&x) % 3 ? xs_next(&x) : 0;
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
    cr_expect_eq(checked, 400 * 16);
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
