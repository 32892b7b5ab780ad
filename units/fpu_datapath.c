/* The matrix unit's datapath arithmetic (docs/numerics.md "The datapath").
 *
 * Source of the rules: Tenstorrent's functional simulator ttsim (tenstorrent/ttsim at 56694c8,
 * src/tensix.cpp), which is written to match silicon bit for bit; the ISA pages' functional
 * models call their own float code "a rough guide". In short: each fidelity phase multiplies a
 * 5-bit slice of SrcA's significand by a 7-bit slice of SrcB's; the products of lanes 0-7 and of
 * lanes 8-15 are summed separately, each aligned to its own largest exponent without guard bits;
 * the two sums and the Dst value are then aligned to the largest of the three, added, normalised
 * and rounded (ties away from zero) into the Dst format. Every shift below drops bits with one
 * of three roundings, and which one is part of the arithmetic: half up on the magnitude (product
 * lanes, the Dst term, the final rounding), and half towards +infinity for the sums of products
 * when they are aligned to the Dst (a negative sum's tie rounds towards zero). */
#include "fpu_datapath.h"

#include <immintrin.h>
#include <string.h>

static inline uint32_t op_sign(uint32_t op) { return op >> 18 & 1; }
static inline int32_t op_exp(uint32_t op) { return (int32_t)(op >> 10 & 0xFF); }
static inline uint32_t op_sig(uint32_t op) { return (op & 0x3FF) | 0x400; } /* 11 bits */

/* SrcA's slice: significand bits 10..6 in even phases, 5..1 in odd ones (bit 0 never). */
static inline uint32_t slice_a(uint32_t op, unsigned phase)
{
    return phase & 1 ? op_sig(op) >> 1 & 0x1F : op_sig(op) >> 6;
}

/* SrcB's slice: bits 10..4 in phases 0 and 1; bits 3..0, placed as the top of seven, in 2, 3. */
static inline uint32_t slice_b(uint32_t op, unsigned phase)
{
    return phase & 2 ? (op_sig(op) & 0xF) << 3 : op_sig(op) >> 4;
}

int32_t dp_product_adjust(struct dp_mode m, unsigned phase)
{
    /* BF16-family exponents: remove one bias; FP16 with FP32 Dst: rebias 5-bit to 8-bit
     * (-15 - 15 + 127); FP16 with FP16 Dst: remove one 5-bit bias */
    int32_t adj = m.exp8 ? -127 : m.dst32 ? 127 - 30 : -15;
    return adj - (phase & 1 ? 5 : 0) - (phase & 2 ? 7 : 0);
}

/* x / 2^d rounded half up, for a non-negative x and d >= 1 (x + 2^(d-1) - bias) >> d. */
static inline uint32_t shift_round(uint32_t x, uint32_t d, uint32_t bias)
{
    return d < 31 ? (x + (1u << (d - 1)) - bias) >> d : 0;
}

uint32_t dp_accumulate(uint32_t s0, int32_t e0, uint32_t m0, uint32_t s1, int32_t e1, uint32_t m1,
                       uint32_t dst, struct dp_mode m)
{
    uint32_t sd = dst >> 31;
    int32_t ed = (int32_t)(dst >> 23 & 0xFF);
    uint32_t md = ed ? (dst & 0x7FFFFF) | 0x800000 : 0;

    int32_t exp = e0 > e1 ? e0 : e1;
    exp = ed > exp ? ed : exp;
    if (exp <= 0)
        return 0; /* underflow before anything is added */
    /* Align to the largest exponent. A negative sum of products loses its tie towards zero. */
    if (e0 < exp)
        m0 = shift_round(m0, (uint32_t)(exp - e0), s0);
    if (e1 < exp)
        m1 = shift_round(m1, (uint32_t)(exp - e1), s1);
    if (ed < exp)
        md = shift_round(md, (uint32_t)(exp - ed), 0);
    if (!m.dst32) { /* a 16-bit Dst keeps only 2^-10 of the common exponent of each term */
        m0 = (m0 + (1u << 12) - s0) & ~0x1FFFu;
        m1 = (m1 + (1u << 12) - s1) & ~0x1FFFu;
        md = (md + (1u << 12)) & ~0x1FFFu;
    }
    uint32_t sign = sd;
    int32_t man = (int32_t)md;
    man += s0 == sign ? (int32_t)m0 : -(int32_t)m0;
    man += s1 == sign ? (int32_t)m1 : -(int32_t)m1;
    if (man < 0) {
        man = -man;
        sign ^= 1;
    }
    if (!man)
        return 0; /* exact cancellation gives +0 */

    /* Normalise to 24 significant bits (leading one at bit 23), or round to the 16-bit Dst's 8
     * (BF16) or 11 (FP16) bits, half up on the magnitude. */
    int32_t shift = __builtin_clz((uint32_t)man) - 8;
    if (m.wh && sign && man == 1)
        shift -= 27; /* Wormhole counts the leading bits of -1 as if all were set */
    exp -= shift;
    if (!m.dst32)
        shift -= m.exp8 ? 16 : 13;
    uint32_t u = (uint32_t)man;
    if (shift < 0)
        u = (u + (1u << (-shift - 1))) >> -shift;
    else
        u <<= shift;
    if (!m.dst32)
        u <<= m.exp8 ? 16 : 13;
    if (u & 0x1000000)
        exp++; /* the rounding carried out: 1.0 x 2^(exp + 1), mantissa 0 */
    u &= 0x7FFFFF;
    if (exp <= 0)
        return 0;
    if (m.dst32 || m.exp8) /* BF16 and FP32 overflow to infinity, never NaN */
        return exp >= 255 ? sign << 31 | 255u << 23 : sign << 31 | (uint32_t)exp << 23 | u;
    /* the FP16 datapath has no infinity: it saturates */
    return exp >= 32 ? sign << 31 | 31u << 23 | 0x3FFu << 13 : sign << 31 | (uint32_t)exp << 23 | u;
}

static void lanes(struct dp_lanes *l, const uint32_t op[16], uint16_t zero, unsigned phase, bool a)
{
    for (unsigned k = 0; k < 16; k++) {
        l->slice[k] = (int32_t)(a ? slice_a(op[k], phase) : slice_b(op[k], phase));
        l->exp[k] = op_exp(op[k]);
        l->sign[k] = (int32_t)op_sign(op[k]);
        const bool z = zero >> k & 1;
        l->sslice[k] = z ? 0 : l->sign[k] ? -l->slice[k] : l->slice[k];
        l->sexp[k] = z ? DP_ZERO_EXP : l->exp[k];
    }
    l->zero = zero;
}

void dp_lanes_a(struct dp_lanes *l, const uint32_t op[16], uint16_t zero, unsigned phase)
{
    lanes(l, op, zero, phase, true);
}

void dp_lanes_b(struct dp_lanes *l, const uint32_t op[16], uint16_t zero, unsigned phase)
{
    lanes(l, op, zero, phase, false);
}

uint32_t dp_mvmul(const struct dp_lanes *a, const struct dp_lanes *b, uint32_t dst, unsigned phase,
                  struct dp_mode m)
{
    const int32_t adj = dp_product_adjust(m, phase);
    const int32_t zero_exp = adj > 0 ? adj : 0; /* a zero lane still takes part in the maximum */
    int32_t e[16], p[16], s[16];
    /* a slice product of zero keeps its exponent too: it can shift every other term out */
    for (unsigned k = 0; k < 16; k++) {
        e[k] = a->exp[k] + b->exp[k] + adj;
        p[k] = a->slice[k] * b->slice[k]; /* at most 12 bits */
        s[k] = a->sign[k] ^ b->sign[k];
    }
    for (uint32_t z = a->zero | b->zero; z; z &= z - 1) {
        unsigned k = (unsigned)__builtin_ctz(z);
        e[k] = zero_exp, p[k] = 0, s[k] = 0;
    }
    uint32_t gs[2] = {0, 0}, gm[2] = {0, 0};
    int32_t ge[2] = {0, 0};
    for (unsigned g = 0; g < 2; g++) {
        const int32_t *eg = e + 8 * g, *pg = p + 8 * g, *sg = s + 8 * g;
        int32_t emax = eg[0], emin = eg[0];
        for (unsigned k = 1; k < 8; k++) {
            emax = eg[k] > emax ? eg[k] : emax;
            emin = eg[k] < emin ? eg[k] : emin;
        }
        if (emax <= 0)
            continue; /* the whole half is zero */
        int32_t sum = 0;
        if (emin == emax) { /* nothing to align (shared exponents: BFP data, equal magnitudes) */
            for (unsigned k = 0; k < 8; k++)
                sum += sg[k] ? -pg[k] : pg[k];
        } else {
            for (unsigned k = 0; k < 8; k++) {
                /* each product aligned on the integer grid of the largest one, half up, no
                 * guard bits; beyond 30 places nothing is left */
                uint32_t d = (uint32_t)(emax - eg[k]);
                d = d < 30 ? d : 30;
                int32_t t = (int32_t)((((uint32_t)pg[k] << 1) + (1u << d)) >> (d + 1));
                sum += sg[k] ? -t : t;
            }
        }
        gs[g] = sum < 0;
        gm[g] = (uint32_t)(sum < 0 ? -sum : sum) << 13;
        ge[g] = emax;
    }
    return dp_accumulate(gs[0], ge[0], gm[0], gs[1], ge[1], gm[1], dst, m);
}

void dp_cols_of(struct dp_cols *c, const struct dp_lanes col[16])
{
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++) {
            c->slice[k][j] = col[j].slice[k];
            c->exp[k][j] = col[j].exp[k];
            c->sign[k][j] = col[j].sign[k];
            c->zero[k][j] = -(int32_t)(col[j].zero >> k & 1);
            c->sslice[k][j] = c->zero[k][j] ? 0 : c->sign[k][j] ? -c->slice[k][j] : c->slice[k][j];
            c->sexp[k][j] = c->zero[k][j] ? DP_ZERO_EXP : c->exp[k][j];
        }
}

void dp_cols_set_lane(struct dp_cols *c, unsigned k, const uint32_t op[16], unsigned phase)
{
    for (unsigned j = 0; j < 16; j++) {
        c->slice[k][j] = (int32_t)slice_a(op[j], phase);
        c->exp[k][j] = op_exp(op[j]);
        c->sign[k][j] = (int32_t)op_sign(op[j]);
        c->zero[k][j] = -(int32_t)dp_is_zero(op[j]);
        c->sslice[k][j] = c->zero[k][j] ? 0 : c->sign[k][j] ? -c->slice[k][j] : c->slice[k][j];
        c->sexp[k][j] = c->zero[k][j] ? DP_ZERO_EXP : c->exp[k][j];
    }
}

typedef int32_t dp_v8 __attribute__((vector_size(32)));
typedef int32_t dp_v8u __attribute__((vector_size(32), aligned(4))); /* loads at any address */
typedef float dp_v8f __attribute__((vector_size(32)));

/* One half (8 lanes) of one output row for 8 columns at a time: the lane exponents are
 * computed twice (for the maximum, then for the sum) to keep everything in registers.
 * always_inline, as accumulate8: both are compiled into each target clone of dp_mvmul_row. */
__attribute__((always_inline)) static inline void
row_half(const struct dp_cols *a, const struct dp_lanes *b, unsigned k0, unsigned c0, int32_t adj,
         int32_t zero_exp, dp_v8 *gs, dp_v8 *ge, dp_v8 *gm)
{
#define LANE_E(k, z)                                                                               \
    ((((*(const dp_v8u *)&a->exp[k][c0]) + (b->exp[k] + adj)) & ~(z)) | (zero_exp & (z)))
#define LANE_Z(k) ((*(const dp_v8u *)&a->zero[k][c0]) | -(int32_t)(b->zero >> (k) & 1))
    dp_v8 emax;
    {
        const dp_v8 z = LANE_Z(k0);
        emax = LANE_E(k0, z);
    }
    for (unsigned k = k0 + 1; k < k0 + 8; k++) {
        const dp_v8 z = LANE_Z(k), e = LANE_E(k, z);
        const dp_v8 gt = e > emax;
        emax = (e & gt) | (emax & ~gt);
    }
    dp_v8 sum = {0};
    for (unsigned k = k0; k < k0 + 8; k++) {
        const dp_v8 z = LANE_Z(k), e = LANE_E(k, z);
        const dp_v8 p = ((*(const dp_v8u *)&a->slice[k][c0]) * b->slice[k]) & ~z;
        const dp_v8 s = -(((*(const dp_v8u *)&a->sign[k][c0]) ^ b->sign[k]) & ~z); /* 0 or -1 */
        /* p / 2^d rounded half up, as (p * 2^(12 - d) + 2^11) >> 12: p < 2^12, so every d of
         * 13 or more leaves 0, and 2^(12 - d) comes out of a float's exponent field */
        const dp_v8 d = emax - e;
        const dp_v8 pow = __builtin_convertvector((dp_v8f)((139 - (d & 15)) << 23), dp_v8);
        const dp_v8 t = ((p * pow + 2048) >> 12) & (d <= 12);
        sum += (t ^ s) - s;
    }
#undef LANE_E
#undef LANE_Z
    const dp_v8 live = emax > 0; /* a half whose largest exponent is <= 0 is zero */
    const dp_v8 neg = sum < 0;
    *gs = neg & 1 & live;
    *gm = (((sum ^ neg) - neg) << 13) & live;
    *ge = emax & live;
}

/* row_half for a product adjustment <= 0, for AVX2 only (row_avx2): its variable shifts (GCC
 * keeps vector shifts by vectors as vpsllvd/vpsravd there; elsewhere it would take them lane by
 * lane) and vpmaxsd/vpminsd (C has no vector max). A zero lane
 * in the original takes part in the maximum with exponent 0 and adds nothing: here its
 * exponent is DP_ZERO_EXP (below every real one, and a half whose largest exponent is <= 0 is
 * zero either way) and its signed slice 0. Each product is signed, p = sa * sb, and aligned as
 * (2p + 2^d - [p < 0]) >> (d + 1) arithmetically: the magnitude rounded half up with the sign
 * put back (d clamped at 30, where any 12-bit product is gone either way). `bexp[k]`: SrcB's
 * exponent plus the adjustment (DP_ZERO_EXP plus it for a zero lane), `bsl2[k]`: twice its
 * signed slice. */
__attribute__((always_inline, target("avx2"))) static inline void
row_half_fast(const struct dp_cols *a, const int32_t bexp[16], const int32_t bsl2[16], unsigned k0,
              unsigned c0, dp_v8 *gs, dp_v8 *ge, dp_v8 *gm)
{
#define LANE_E(k) ((*(const dp_v8u *)&a->sexp[k][c0]) + bexp[k])
    dp_v8 emax = LANE_E(k0);
#pragma GCC unroll 8
    for (unsigned k = k0 + 1; k < k0 + 8; k++) {
        emax = (dp_v8)_mm256_max_epi32((__m256i)emax, (__m256i)LANE_E(k));
    }
    const dp_v8 one = {1, 1, 1, 1, 1, 1, 1, 1}, thirty = one * 30;
    dp_v8 sum = {0};
#pragma GCC unroll 8
    for (unsigned k = k0; k < k0 + 8; k++) {
        const dp_v8 d = (dp_v8)_mm256_min_epi32((__m256i)(emax - LANE_E(k)), (__m256i)thirty);
        const dp_v8 p2 = (*(const dp_v8u *)&a->sslice[k][c0]) * bsl2[k];
        sum += (p2 + (one << d) + (p2 >> 31)) >> (d + 1);
    }
#undef LANE_E
    const dp_v8 live = emax > 0;
    const dp_v8 neg = sum < 0;
    *gs = neg & 1 & live;
    *gm = (((sum ^ neg) - neg) << 13) & live;
    *ge = emax & live;
}

typedef uint32_t dp_u8 __attribute__((vector_size(32)));

/* dp_accumulate's inputs for 8 columns (passed by address: 32-byte vectors by value would
 * depend on the target's calling convention). */
struct acc8 {
    dp_u8 s0, m0, s1, m1, dst;
    dp_v8 e0, e1;
};

/* dp_accumulate for 8 columns at once (the same steps, as masks and blends). */
__attribute__((always_inline)) static inline void
accumulate8(const struct acc8 *in, dp_u8 *out, struct dp_mode m)
{
    dp_u8 s0 = in->s0, m0 = in->m0, s1 = in->s1, m1 = in->m1, dst = in->dst;
    dp_v8 e0 = in->e0, e1 = in->e1;
    const dp_u8 one = {1, 1, 1, 1, 1, 1, 1, 1};
    const dp_u8 sd = dst >> 31;
    const dp_v8 ed = (dp_v8)(dst >> 23 & 0xFF);
    dp_u8 md = ((dst & 0x7FFFFF) | 0x800000) & (dp_u8)(ed != 0);
    dp_v8 exp = e0;
    dp_v8 gt = e1 > exp;
    exp = (e1 & gt) | (exp & ~gt);
    gt = ed > exp;
    exp = (ed & gt) | (exp & ~gt);
    const dp_v8 live = exp > 0; /* else: underflow before anything is added */
    /* x / 2^d rounded half up less `bias` for 0 < d < 31; x itself for d == 0; 0 beyond */
#define ALIGN(x, e, bias)                                                                          \
    do {                                                                                           \
        const dp_u8 d = (dp_u8)(exp - (e));                                                        \
        const dp_u8 r = ((x) + (one << ((d - 1) & 31)) - (bias)) >> (d & 31);                      \
        (x) = ((x) & (dp_u8)(d == 0)) | (r & (dp_u8)((d > 0) & (d < 31)));                         \
    } while (0)
    ALIGN(m0, e0, s0);
    ALIGN(m1, e1, s1);
    const dp_u8 zero = {0};
    ALIGN(md, ed, zero);
#undef ALIGN
    if (!m.dst32) {
        m0 = (m0 + (1u << 12) - s0) & ~0x1FFFu;
        m1 = (m1 + (1u << 12) - s1) & ~0x1FFFu;
        md = (md + (1u << 12)) & ~0x1FFFu;
    }
    /* signed sum relative to the Dst's sign */
    dp_v8 man = (dp_v8)md;
    const dp_v8 n0 = -(dp_v8)(s0 ^ sd), n1 = -(dp_v8)(s1 ^ sd); /* -1: subtract */
    man += ((dp_v8)m0 ^ n0) - n0;
    man += ((dp_v8)m1 ^ n1) - n1;
    const dp_v8 neg = man < 0;
    man = (man ^ neg) - neg;
    const dp_u8 sign = sd ^ ((dp_u8)neg & 1);
    const dp_v8 nonzero = man != 0; /* exact cancellation gives +0 */
    /* the leading one's position, from a float's exponent field: man < 2^31, and with its low
     * 8 bits cleared when it has more than 24 the conversion is exact (cannot round up to the
     * next power of two); man == 0 gives nonsense that `nonzero` masks */
    const dp_v8 wide = man > 0xFFFFFF;
    const dp_v8f f = __builtin_convertvector(man & ~(wide & 0xFF), dp_v8f);
    const dp_v8 lg = ((dp_v8)f >> 23) - 127;
    dp_v8 shift = 23 - lg;
    if (m.wh) /* Wormhole counts the leading bits of -1 as if all were set */
        shift -= 27 & ((dp_v8)sign != 0) & (man == 1);
    exp -= shift;
    if (!m.dst32)
        shift -= m.exp8 ? 16 : 13;
    const dp_v8 right = shift < 0;
    const dp_u8 rs = (dp_u8)(-shift) & 31, ls = (dp_u8)shift & 31;
    dp_u8 u = (dp_u8)man;
    u = (((u + (one << ((rs - 1) & 31))) >> rs) & (dp_u8)right) | ((u << ls) & ~(dp_u8)right);
    if (!m.dst32)
        u <<= m.exp8 ? 16 : 13;
    exp += (dp_v8)(u >> 24 & 1); /* the rounding carried out */
    u &= 0x7FFFFF;
    const dp_v8 ok = live & nonzero & (exp > 0);
    dp_u8 r;
    if (m.dst32 || m.exp8) { /* BF16 and FP32 overflow to infinity */
        const dp_v8 inf = exp >= 255;
        r = (sign << 31) | (((dp_u8)exp << 23 | u) & ~(dp_u8)inf) | ((dp_u8)inf & (255u << 23));
    } else { /* the FP16 datapath saturates */
        const dp_v8 sat = exp >= 32;
        r = (sign << 31) | (((dp_u8)exp << 23 | u) & ~(dp_u8)sat) |
            ((dp_u8)sat & (31u << 23 | 0x3FFu << 13));
    }
    *out = r & (dp_u8)ok;
}

/* The body of dp_mvmul_row, compiled once per instruction set below. */
__attribute__((always_inline)) static inline void
mvmul_row(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16],
          uint32_t out[16], unsigned phase, struct dp_mode m)
{
    const int32_t adj = dp_product_adjust(m, phase);
    const int32_t zero_exp = adj > 0 ? adj : 0;
    for (unsigned c0 = 0; c0 < 16; c0 += 8) {
        dp_v8 gs0, gm0, gs1, gm1;
        struct acc8 in;
        row_half(a, b, 0, c0, adj, zero_exp, &gs0, &in.e0, &gm0);
        row_half(a, b, 8, c0, adj, zero_exp, &gs1, &in.e1, &gm1);
        in.s0 = (dp_u8)gs0, in.m0 = (dp_u8)gm0, in.s1 = (dp_u8)gs1, in.m1 = (dp_u8)gm1;
        memcpy(&in.dst, dst + c0, sizeof in.dst);
        dp_u8 r;
        accumulate8(&in, &r, m);
        memcpy(out + c0, &r, sizeof r);
    }
}

__attribute__((target("avx2"))) static void
row_avx2(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16], uint32_t out[16],
         unsigned phase, struct dp_mode m)
{
    const int32_t adj = dp_product_adjust(m, phase);
    if (adj > 0) { /* FP16 into an FP32 Dst: a zero lane's exponent adj > 0 counts */
        mvmul_row(a, b, dst, out, phase, m);
        return;
    }
    int32_t bexp[16], bsl2[16];
    for (unsigned k = 0; k < 16; k++) { /* a zero lane stays far below every real one */
        bexp[k] = b->sexp[k] + adj;
        bsl2[k] = 2 * b->sslice[k];
    }
    for (unsigned c0 = 0; c0 < 16; c0 += 8) {
        dp_v8 gs0, gm0, gs1, gm1;
        struct acc8 in;
        row_half_fast(a, bexp, bsl2, 0, c0, &gs0, &in.e0, &gm0);
        row_half_fast(a, bexp, bsl2, 8, c0, &gs1, &in.e1, &gm1);
        in.s0 = (dp_u8)gs0, in.m0 = (dp_u8)gm0, in.s1 = (dp_u8)gs1, in.m1 = (dp_u8)gm1;
        memcpy(&in.dst, dst + c0, sizeof in.dst);
        dp_u8 r;
        accumulate8(&in, &r, m);
        memcpy(out + c0, &r, sizeof r);
    }
}

__attribute__((target("sse4.1"))) static void
row_sse41(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16], uint32_t out[16],
          unsigned phase, struct dp_mode m)
{
    mvmul_row(a, b, dst, out, phase, m);
}

static void row_plain(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16],
                      uint32_t out[16], unsigned phase, struct dp_mode m)
{
    mvmul_row(a, b, dst, out, phase, m);
}

typedef void row_fn(const struct dp_cols *, const struct dp_lanes *, const uint32_t *, uint32_t *,
                    unsigned, struct dp_mode);

static row_fn *row_for(enum dp_simd s)
{
    return s == DP_SIMD_AVX2 ? row_avx2 : s == DP_SIMD_SSE41 ? row_sse41 : row_plain;
}

enum dp_simd dp_simd_best(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? DP_SIMD_AVX2
           : __builtin_cpu_supports("sse4.1") ? DP_SIMD_SSE41 : DP_SIMD_PLAIN;
}

void dp_mvmul_row(enum dp_simd s, const struct dp_cols *a, const struct dp_lanes *b,
                  const uint32_t dst[16], uint32_t out[16], unsigned phase, struct dp_mode m)
{
    row_for(s)(a, b, dst, out, phase, m);
}

uint32_t dp_elwmul(uint32_t a, uint32_t b, bool zero_a, bool zero_b, uint32_t dst, unsigned phase,
                   struct dp_mode m)
{
    const int32_t adj = dp_product_adjust(m, phase);
    int32_t e = op_exp(a) + op_exp(b) + adj;
    uint32_t s = op_sign(a) ^ op_sign(b);
    uint32_t p = slice_a(a, phase) * slice_b(b, phase) << 13;
    if (zero_a || zero_b || e <= 0) /* only ELWMUL drops a product that underflows */
        s = 0, e = adj > 0 ? adj : 0, p = 0;
    return dp_accumulate(s, e, p, 0, 0, 0, dst, m);
}

uint32_t dp_elwadd(uint32_t a, uint32_t b, bool zero_a, bool zero_b, uint32_t dst, bool accumulate,
                   unsigned phase, struct dp_mode m)
{
    if (zero_a)
        a = 0;
    if (zero_b)
        b = 0;
    if (!accumulate)
        dst = 0;
    if ((a & 0x3FFFF) < (b & 0x3FFFF)) { /* |a| >= |b| */
        uint32_t t = a;
        a = b, b = t;
    }
    uint32_t ma = a ? op_sig(a) : 0, mb = b ? op_sig(b) : 0;
    int32_t e = op_exp(a);
    if (op_exp(b) < e) { /* b joins a's exponent in an 11-bit window, half up */
        uint32_t d = (uint32_t)(e - op_exp(b));
        mb = d < 12 ? (mb + (1u << (d - 1))) >> d : 0;
    }
    uint32_t sum = op_sign(a) == op_sign(b) ? ma + mb : ma - mb; /* 12 bits */
    if (m.dst32 && !m.exp8)
        e = e ? e + 127 - 15 : 127 - 30; /* FP16 operands into an FP32 Dst */
    e -= (phase & 1 ? 5 : 0) + (phase & 2 ? 7 : 0);
    return dp_accumulate(op_sign(a), e, sum << 13, 0, 0, 0, dst, m);
}
