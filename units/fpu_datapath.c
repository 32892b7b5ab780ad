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

/* A fidelity phase's slice of a significand, as shifts and a mask: ((sig << l) >> r) & mask. SrcA's
 * slice: significand bits 10..6 in even phases, 5..1 in odd ones (bit 0 never). SrcB's: bits 10..4
 * in phases 0 and 1; bits 3..0, placed as the top of seven, in 2 and 3. The same steps for every
 * phase let the loops that take 16 operands apart run without branches (vectorised). */
struct slicer {
    uint32_t l, r, mask;
};
static inline struct slicer slicer_of(unsigned phase, bool a)
{
    return a ? (struct slicer){0, phase & 1 ? 1 : 6, 0x1F}
             : (struct slicer){phase & 2 ? 3 : 0, phase & 2 ? 0 : 4, 0x7F};
}
static inline uint32_t slice_with(uint32_t op, struct slicer s) { return (op_sig(op) << s.l >> s.r) & s.mask; }
static inline uint32_t slice_a(uint32_t op, unsigned phase) { return slice_with(op, slicer_of(phase, true)); }
static inline uint32_t slice_b(uint32_t op, unsigned phase) { return slice_with(op, slicer_of(phase, false)); }

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

/* A 16-bit value twice in a 32-bit word. */
static inline uint32_t pair16(int32_t v) { return (uint32_t)(uint16_t)v * 0x10001u; }

/* Eight lanes' zero flags (bit k of the index) as masks, -1 for a zero lane: a table, since a
 * shift by k per lane keeps the loop from being vectorised for the base x86-64. */
#define ZM(x) {-((x) & 1), -((x) >> 1 & 1), -((x) >> 2 & 1), -((x) >> 3 & 1), \
               -((x) >> 4 & 1), -((x) >> 5 & 1), -((x) >> 6 & 1), -((x) >> 7 & 1)}
#define ZM4(x) ZM(x), ZM((x) + 1), ZM((x) + 2), ZM((x) + 3)
#define ZM16(x) ZM4(x), ZM4((x) + 4), ZM4((x) + 8), ZM4((x) + 12)
#define ZM64(x) ZM16(x), ZM16((x) + 16), ZM16((x) + 32), ZM16((x) + 48)
static const int32_t zero_masks[256][8] = {ZM64(0), ZM64(64), ZM64(128), ZM64(192)};
#undef ZM64
#undef ZM16
#undef ZM4
#undef ZM

static void lanes(struct dp_lanes *restrict l, const uint32_t *restrict op, uint16_t zero, unsigned phase,
                  bool a)
{
    const struct slicer sl = slicer_of(phase, a);
    int32_t zm[16]; /* -1: a zero lane (apart: a shift by k per lane would stop the vectoriser) */
    memcpy(zm, zero_masks[zero & 0xFF], sizeof zero_masks[0]);
    memcpy(zm + 8, zero_masks[zero >> 8], sizeof zero_masks[0]);
    for (unsigned k = 0; k < 16; k++) { /* without branches: vectorised */
        l->slice[k] = (int32_t)slice_with(op[k], sl);
        l->exp[k] = op_exp(op[k]);
        l->sign[k] = (int32_t)op_sign(op[k]);
        const int32_t z = zm[k];
        l->exp16x2[k] = pair16((l->exp[k] & ~z) | (DP_ZERO_EXP & z));
        l->mag2_16x2[k] = pair16(2 * l->slice[k] & ~z);
        l->sgn_off[k] = (uint32_t)l->sign[k] * (uint32_t)sizeof(((struct dp_cols *)0)->sgn16[0]);
    }
    for (unsigned m = 0; m < 8; m++) { /* the AVX-512 rows' pairs of lanes */
        l->exp_pair[m] = (l->exp16x2[2 * m] & 0xFFFF) | l->exp16x2[2 * m + 1] << 16;
        l->mag2_pair[m] = (l->mag2_16x2[2 * m] & 0xFFFF) | l->mag2_16x2[2 * m + 1] << 16;
        l->sgn_pair[m] = ((uint32_t)-l->sign[2 * m] & 0xFFFFu) | ((uint32_t)-l->sign[2 * m + 1] & 0xFFFF0000u);
    }
    for (unsigned g = 0; g < 2; g++) {
        uint32_t par = 0;
        for (unsigned k = 8 * g; k < 8 * g + 8; k++)
            par ^= (uint32_t)l->sign[k];
        l->par[g] = par * 0x80008000u;
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

/* Lane k of the 16 columns folded into 16 bits for the AVX2 row. */
static void fold16(struct dp_cols *restrict c, unsigned k)
{
    for (unsigned j = 0; j < 16; j++) { /* zero is -1 or 0, sign 1 or 0: without branches */
        const int32_t z = c->zero[k][j];
        c->exp16[k][j] = (int16_t)((c->exp[k][j] & ~z) | (DP_ZERO_EXP & z));
        c->mag16[k][j] = (int16_t)(c->slice[k][j] & ~z);
        c->sgn16[0][k][j] = (int16_t)(1 - 2 * c->sign[k][j]);
        c->sgn16[1][k][j] = (int16_t)(2 * c->sign[k][j] - 1);
    }
}

/* The AVX-512 rows' layout of all 16 lanes (from exp16, mag16 and the signs): lanes 2m and
 * 2m + 1 interleaved, and each half's parity of the signs per column; once per fill, after
 * every lane is folded. */
static void layout512(struct dp_cols *restrict c)
{
    for (unsigned m = 0; m < 8; m++)
        for (unsigned j = 0; j < 16; j++) {
            c->exp_il[m][2 * j] = c->exp16[2 * m][j];
            c->exp_il[m][2 * j + 1] = c->exp16[2 * m + 1][j];
            c->mag_il[m][2 * j] = c->mag16[2 * m][j];
            c->mag_il[m][2 * j + 1] = c->mag16[2 * m + 1][j];
            c->sgnv_il[m][2 * j] = (int16_t)-c->sign[2 * m][j];
            c->sgnv_il[m][2 * j + 1] = (int16_t)-c->sign[2 * m + 1][j];
        }
    for (unsigned g = 0; g < 2; g++) {
        uint32_t par[16] = {0};
        for (unsigned q = 8 * g; q < 8 * g + 8; q++)
            for (unsigned j = 0; j < 16; j++)
                par[j] ^= (uint32_t)c->sign[q][j];
        for (unsigned j = 0; j < 16; j++)
            c->par_il[g][j] = par[j] * 0x80008000u;
    }
}

void dp_cols_of(struct dp_cols *c, const struct dp_lanes col[16])
{
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++) {
            c->slice[k][j] = col[j].slice[k];
            c->exp[k][j] = col[j].exp[k];
            c->sign[k][j] = col[j].sign[k];
            c->zero[k][j] = -(int32_t)(col[j].zero >> k & 1);
        }
    for (unsigned k = 0; k < 16; k++)
        fold16(c, k);
    layout512(c);
}

void dp_cols_set(struct dp_cols *restrict c, const uint32_t (*restrict op)[16], unsigned phase)
{
    const struct slicer sl = slicer_of(phase, true);
    for (unsigned k = 0; k < 16; k++) {
        for (unsigned j = 0; j < 16; j++) {
            c->slice[k][j] = (int32_t)slice_with(op[k][j], sl);
            c->exp[k][j] = op_exp(op[k][j]);
            c->sign[k][j] = (int32_t)op_sign(op[k][j]);
            c->zero[k][j] = -(int32_t)dp_is_zero(op[k][j]);
        }
        fold16(c, k);
    }
    layout512(c);
}

typedef int32_t dp_v8 __attribute__((vector_size(32)));
typedef int32_t dp_v8u __attribute__((vector_size(32), aligned(4))); /* loads at any address */
typedef uint32_t dp_u8 __attribute__((vector_size(32)));
typedef float dp_v8f __attribute__((vector_size(32)));

/* One half (8 lanes) of one output row for 8 columns at a time: the lane exponents are
 * computed twice (for the maximum, then for the sum) to keep everything in registers. Gives the
 * half's sum of products as a signed value with the binary point after bit 23 (`gv`, 0 for a
 * dead half) and its exponent (`ge`, 0 for a dead half).
 * always_inline, as accumulate8: both are compiled into each target clone of dp_mvmul_row. */
__attribute__((always_inline)) static inline void
row_half(const struct dp_cols *a, const struct dp_lanes *b, unsigned k0, unsigned c0, int32_t adj,
         int32_t zero_exp, dp_v8 *gv, dp_v8 *ge)
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
    *gv = (dp_v8)((dp_u8)sum << 13) & live;
    *ge = emax & live;
}

/* dp_accumulate's inputs for 8 columns (passed by address: 32-byte vectors by value would
 * depend on the target's calling convention): the two halves' sums of products as signed
 * values (v = +-m of dp_accumulate) and their exponents, and the Dst words. */
struct acc8 {
    dp_v8 v0, e0, v1, e1;
    dp_u8 dst;
};

/* Small steps of accumulate8, as macros: a function taking or giving a 32-byte vector by value
 * would depend on the target's calling convention. MAX8: the larger of x and y, lane by lane. */
#define MAX8(x, y) (((x) & ((x) > (y))) | ((y) & ~((x) > (y))))

/* ALIGN8: x / 2^d rounded half towards +infinity, for d in 0..31 (d 0: x itself). On a sum of
 * products this is dp_accumulate's alignment (half up on the magnitude, a negative sum's tie
 * towards zero); on the Dst's (non-negative) magnitude it is half up. Every |x| < 2^30, so d
 * 31 leaves 0, as the rule's "beyond 30 places nothing is left". */
#define ALIGN8(x, d) (((x) + (dp_v8)((one << (dp_u8)(d)) >> 1)) >> (d))

/* DIST8: exp - e clamped to 31 */
#define DIST8(exp, e) MIN31((exp) - (e))
#define MIN31(d) (((d) & ~((d) > 31)) | (31 & ((d) > 31)))

/* dp_accumulate for 8 columns at once (the same steps, as masks and blends), with the sums of
 * products kept signed: aligning and rounding them towards +infinity is the rule's half up on
 * the magnitude with a negative tie towards zero. */
__attribute__((always_inline)) static inline void
accumulate8(const struct acc8 *in, dp_u8 *out, struct dp_mode m)
{
    dp_v8 v0 = in->v0, v1 = in->v1;
    const dp_v8 e0 = in->e0, e1 = in->e1;
    const dp_u8 dst = in->dst, one = {1, 1, 1, 1, 1, 1, 1, 1};
    const dp_v8 ed = (dp_v8)(dst >> 23 & 0xFF);
    dp_v8 md = (dp_v8)((dst & 0x7FFFFF) | 0x800000) & (ed != 0);
    dp_v8 exp = MAX8(e0, e1);
    exp = MAX8(exp, ed);
    const dp_v8 live = exp > 0; /* else: underflow before anything is added */
    const dp_v8 d0 = DIST8(exp, e0), d1 = DIST8(exp, e1), dd = DIST8(exp, ed);
    v0 = ALIGN8(v0, d0);
    v1 = ALIGN8(v1, d1);
    md = ALIGN8(md, dd);
    if (!m.dst32) { /* a 16-bit Dst keeps only 2^-10 of the common exponent of each term */
        v0 = (v0 + (1 << 12)) & ~0x1FFF;
        v1 = (v1 + (1 << 12)) & ~0x1FFF;
        md = (md + (1 << 12)) & ~0x1FFF;
    }
    const dp_v8 nd = (dp_v8)dst >> 31; /* -1: a negative Dst */
    dp_v8 man = ((md ^ nd) - nd) + v0 + v1;
    const dp_v8 neg = man >> 31;
    man = (man ^ neg) - neg;
    const dp_u8 sign = (dp_u8)neg & 1;
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
#undef MAX8
#undef ALIGN8
#undef DIST8
#undef MIN31

/* The body of dp_mvmul_row for SSE4.1 and plain x86-64. */
__attribute__((always_inline)) static inline void
mvmul_row(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16],
          uint32_t out[16], unsigned phase, struct dp_mode m)
{
    const int32_t adj = dp_product_adjust(m, phase);
    const int32_t zero_exp = adj > 0 ? adj : 0;
    for (unsigned c0 = 0; c0 < 16; c0 += 8) {
        struct acc8 in;
        row_half(a, b, 0, c0, adj, zero_exp, &in.v0, &in.e0);
        row_half(a, b, 8, c0, adj, zero_exp, &in.v1, &in.e1);
        memcpy(&in.dst, dst + c0, sizeof in.dst);
        dp_u8 r;
        accumulate8(&in, &r, m);
        memcpy(out + c0, &r, sizeof r);
    }
}

/* The AVX2 row's constants, in memory: GCC makes _mm256_set1 of a constant a move, a transfer
 * and a broadcast on every call (about 40 instructions per row), where a memory operand costs
 * none. Read through a volatile pointer (avx2_kp), so that GCC does not fold them back into
 * immediates. */
#define V8(x) {x, x, x, x, x, x, x, x}
#define POW_LO 0, 0, 0, 0, 0, 0, 0, -128, 64, 32, 16, 8, 4, 2, 1, 0 /* 2^(14 - d)'s low byte */
#define POW_HI 64, 32, 16, 8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0    /* and its high byte */
typedef int8_t dp_b32 __attribute__((vector_size(32)));
static const struct avx2_consts {
    dp_b32 pow_lo, pow_hi;
    dp_v8 one, ff, mant, lead, k31, half13, keep13, half16, keep16, wide, k151, k150, m1, k27, k255,
        sign, inf, sat;
} avx2_k = {
    .pow_lo = {POW_LO, POW_LO}, .pow_hi = {POW_HI, POW_HI},
    .one = V8(1), .ff = V8(0xFF), .mant = V8(0x7FFFFF), .lead = V8(0x800000), .k31 = V8(31),
    .half13 = V8(1 << 12), .keep13 = V8(~0x1FFF), .half16 = V8(1 << 15), .keep16 = V8(~0xFFFF),
    .wide = V8(0xFFFFFF), .k151 = V8(151), .k150 = V8(150), .m1 = V8(-1), .k27 = V8(27),
    .k255 = V8(255), .sign = V8(INT32_MIN), .inf = V8(255 << 23), .sat = V8(31 << 23 | 0x3FF << 13)};
static const struct avx2_consts *volatile avx2_kp = &avx2_k;
#define K(name) ((__m256i)kc->name)
#undef POW_LO
#undef POW_HI

/* One half (8 lanes) of one output row for all 16 columns in 16-bit lanes (AVX2), with the
 * operands folded in dp_cols/dp_lanes (slices and signs apart; a zero lane's slice 0 and its
 * exponent DP_ZERO_EXP, far below every real one). Exponents are kept without the product
 * adjustment (it moves every lane alike, so the alignments do not depend on it): the half's
 * largest exponent comes back as that (`emax`), its sum of products as a signed 16-bit value
 * (`sum`).
 *
 * Every number fits 16 bits: a slice product p is at most 31 x 127 (2|p| < 2^13), a half's sum
 * at most 8 of them, an exponent sum at most 510 and at least 2 x DP_ZERO_EXP.
 *
 * The largest exponent: a zero lane takes part in the maximum with exponent 0 after the
 * adjustment (dp_mvmul). When the adjustment is positive (FP16 into an FP32 Dst) that is 0
 * here, and every real lane is >= 0 here: starting the maximum at 0 is the same. When it is
 * <= 0, a zero lane at 0 after the adjustment can only change a largest exponent that is <= 0,
 * and such a half is zero either way.
 *
 * The alignment: each product p as (2p + 2^d - [p < 0]) >> (d + 1), d = emax - e, is |p| / 2^d
 * rounded half up with p's sign. AVX2 has no 16-bit variable shift; vpmulhrsw gives
 * (x * y + 2^14) >> 15, so x = 2|p| and y = 2^(14 - d) give (2|p| + 2^d) >> (d + 1), and
 * vpsignw puts the sign on. For d >= 13 the term is 0 (2|p| < 2^13 <= 2^d). 0x70 + d,
 * saturated to a byte (vpackuswb, two lanes at a time), is a vpshufb index with d in its low
 * four bits for d < 16 and bit 7 set (which reads 0) for any larger d. Two byte tables give y's
 * low and high bytes (2^(14 - d) for d in 0..14, 0 for 15), put back together by
 * vpunpck[lh]bw (which undo vpackuswb's order). */
__attribute__((always_inline, target("avx2"))) static inline void
half16(const struct dp_cols *a, const struct dp_lanes *b, unsigned k0, __m256i *sum, __m256i *emax)
{
    __m256i e[8];
    __m256i mx = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++) {
        const __m256i ea = _mm256_loadu_si256((const __m256i *)a->exp16[k0 + i]);
        e[i] = _mm256_add_epi16(ea, _mm256_set1_epi32((int)b->exp16x2[k0 + i]));
        mx = _mm256_max_epi16(mx, e[i]);
    }
    const struct avx2_consts *kc = avx2_kp;
    const __m256i lo = K(pow_lo), hi = K(pow_hi);
    const __m256i mx70 = _mm256_add_epi16(mx, _mm256_set1_epi16(0x70));
    __m256i s = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (unsigned i = 0; i < 8; i += 2) {
        const __m256i idx =
            _mm256_packus_epi16(_mm256_sub_epi16(mx70, e[i]), _mm256_sub_epi16(mx70, e[i + 1]));
        const __m256i ylo = _mm256_shuffle_epi8(lo, idx), yhi = _mm256_shuffle_epi8(hi, idx);
        const __m256i y[2] = {_mm256_unpacklo_epi8(ylo, yhi), _mm256_unpackhi_epi8(ylo, yhi)};
#pragma GCC unroll 2
        for (unsigned h = 0; h < 2; h++) {
            const unsigned k = k0 + i + h;
            const __m256i am = _mm256_loadu_si256((const __m256i *)a->mag16[k]);
            const char *sgn = (const char *)a->sgn16[0][k] + b->sgn_off[k];
            const __m256i sg = _mm256_loadu_si256((const __m256i *)sgn);
            const __m256i p2 = _mm256_mullo_epi16(am, _mm256_set1_epi32((int)b->mag2_16x2[k]));
            s = _mm256_add_epi16(s, _mm256_sign_epi16(_mm256_mulhrs_epi16(p2, y[h]), sg));
        }
    }
    *sum = s;
    *emax = mx;
}

/* dp_accumulate for 8 columns in AVX2, the mode fixed at compile time (the AVX2 row has a copy per
 * mode): `v0`, `v1` the halves' sums of products, signed, binary point after bit 23; `e0`, `e1`
 * their exponents (both 0 for a dead half); `dst` the Dst words. The steps are dp_accumulate's,
 * made branch-free with AVX2's semantics for variable shifts (a count of 32 or more gives 0,
 * or the sign for vpsravd) and these equivalences:
 *  - a sum of products kept signed and aligned rounding half towards +infinity is the rule's
 *    half up on the magnitude with a negative tie towards zero; a Dst term is put in signed
 *    (vpsignd: a Dst word of 0 has a zero magnitude anyway) and the total's sign is the
 *    result's (exact cancellation gives +0);
 *  - when the largest exponent is <= 0, every term is 0 (a dead half gives 0 and 0, a Dst
 *    exponent of 0 a zero magnitude): "underflow before anything is added" is a zero total;
 *  - Wormhole's quirk (a sign and a magnitude of 1) is a total of -1 (only with an FP32 Dst:
 *    into a 16-bit one every term is a multiple of 2^13), and its result 1.0 x 2^(exp + 4);
 *  - with the result's exponent first clamped to 255 (it can reach 2 x 255 + 97 + 6), infinity
 *    (BF16, FP32) or the FP16 datapath's saturated value is the unsigned minimum of the result
 *    word and that value. */
__attribute__((always_inline, target("avx2"))) static inline __m256i
acc8_avx2(__m256i v0, __m256i e0, __m256i v1, __m256i e1, __m256i dst, bool dst32, bool exp8, bool wh)
{
    const struct avx2_consts *kc = avx2_kp;
    const __m256i one = K(one), zero = _mm256_setzero_si256();
    const __m256i ed = _mm256_and_si256(_mm256_srli_epi32(dst, 23), K(ff));
    __m256i md = _mm256_or_si256(_mm256_and_si256(dst, K(mant)), K(lead));
    md = _mm256_andnot_si256(_mm256_cmpeq_epi32(ed, zero), md);
    const __m256i exp = _mm256_max_epi32(_mm256_max_epi32(e0, e1), ed);
    /* x / 2^d rounded half towards +infinity (d 0: x); the sums' d clamped to 31, which leaves
     * 0 of any |x| < 2^30 (the rule: "beyond 30 places nothing is left"); the Dst term is
     * non-negative, and a count of 32 or more gives 0 */
#define ALIGN(x, d, srv) srv(_mm256_add_epi32(x, _mm256_srli_epi32(_mm256_sllv_epi32(one, d), 1)), d)
    const __m256i k31 = K(k31);
    const __m256i d0 = _mm256_min_epi32(_mm256_sub_epi32(exp, e0), k31);
    const __m256i d1 = _mm256_min_epi32(_mm256_sub_epi32(exp, e1), k31);
    const __m256i dd = _mm256_sub_epi32(exp, ed);
    v0 = ALIGN(v0, d0, _mm256_srav_epi32);
    v1 = ALIGN(v1, d1, _mm256_srav_epi32);
    md = ALIGN(md, dd, _mm256_srlv_epi32);
#undef ALIGN
    if (!dst32) { /* a 16-bit Dst keeps only 2^-10 of the common exponent of each term */
        const __m256i half = K(half13), keep = K(keep13);
        v0 = _mm256_and_si256(_mm256_add_epi32(v0, half), keep);
        v1 = _mm256_and_si256(_mm256_add_epi32(v1, half), keep);
        md = _mm256_and_si256(_mm256_add_epi32(md, half), keep);
    }
    const __m256i total = _mm256_add_epi32(_mm256_add_epi32(_mm256_sign_epi32(md, dst), v0), v1);
    const __m256i man = _mm256_abs_epi32(total);
    /* Normalising and rounding half up on the magnitude, by the int-to-float conversion (which
     * rounds to nearest, ties to even, to 24 significant bits): the float's exponent field is
     * the leading one's position plus 127 (plus 1 if the rounding carried out), its mantissa
     * field the result's. */
    __m256i f, e;
    if (dst32) {
        /* man < 2^30: 2 man converts exactly below 2^24; from 2^24 on, 2 man + 1 is odd, never
         * a tie, and converts to twice man rounded half up to 24 bits */
        const __m256i wide = _mm256_cmpgt_epi32(man, K(wide));
        f = _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_add_epi32(man, man), wide)));
        e = _mm256_sub_epi32(exp, K(k151));
    } else {
        /* every term was rounded to a multiple of 2^13 and man < 2^30: exact; then half up to
         * the 16-bit Dst's 8 (BF16) or 11 (FP16) significant bits on the float's bits */
        f = _mm256_castps_si256(_mm256_cvtepi32_ps(man));
        f = _mm256_and_si256(_mm256_add_epi32(f, exp8 ? K(half16) : K(half13)),
                             exp8 ? K(keep16) : K(keep13));
        e = _mm256_sub_epi32(exp, K(k150));
    }
    e = _mm256_add_epi32(e, _mm256_srli_epi32(f, 23));
    if (wh) /* Wormhole counts the leading bits of -1 as if all were set: 2^27 times larger */
        e = _mm256_add_epi32(e, _mm256_and_si256(_mm256_cmpeq_epi32(total, K(m1)), K(k27)));
    const __m256i ok = _mm256_andnot_si256(_mm256_cmpeq_epi32(man, zero), _mm256_cmpgt_epi32(e, zero));
    e = _mm256_min_epi32(e, K(k255));
    __m256i w = _mm256_or_si256(_mm256_slli_epi32(e, 23), _mm256_and_si256(f, K(mant)));
    w = _mm256_min_epu32(w, dst32 || exp8 ? K(inf) : K(sat));
    const __m256i sign = _mm256_and_si256(total, K(sign));
    return _mm256_and_si256(_mm256_or_si256(w, sign), ok);
}

/* Columns 8c..8c+7 of a half from half16 as acc8_avx2 takes them: the sum with its binary
 * point after bit 23 (`v`) and the exponent (`e`), both already 0 for a dead half. */
__attribute__((always_inline, target("avx2"))) static inline void
half16_cols(__m256i sum, __m256i exp, unsigned c, __m256i *v, __m256i *e)
{
    const __m128i s = c ? _mm256_extracti128_si256(sum, 1) : _mm256_castsi256_si128(sum);
    const __m128i x = c ? _mm256_extracti128_si256(exp, 1) : _mm256_castsi256_si128(exp);
    *v = _mm256_slli_epi32(_mm256_cvtepi16_epi32(s), 13);
    *e = _mm256_cvtepi16_epi32(x);
}

/* A half's largest exponent adjusted, 0 for a dead half (<= 0), and its sum, 0 for a dead
 * half; for all 16 columns in 16 bits. */
__attribute__((always_inline, target("avx2"))) static inline void
half16_live(__m256i *sum, __m256i *emax, int32_t adj)
{
    const __m256i e = _mm256_add_epi16(*emax, _mm256_set1_epi16((int16_t)adj));
    *sum = _mm256_and_si256(*sum, _mm256_cmpgt_epi16(e, _mm256_setzero_si256()));
    *emax = _mm256_max_epi16(e, _mm256_setzero_si256());
}

/* The AVX2 row for one mode (constant after inlining), its Dst words in and out as vectors of
 * columns 0..7 and 8..15. */
__attribute__((always_inline, target("avx2"))) static inline void
row16v(const struct dp_cols *a, const struct dp_lanes *b, const __m256i dst[2], __m256i out[2],
       unsigned phase, bool dst32, bool exp8, bool wh)
{
    const struct dp_mode m = {.dst32 = dst32, .exp8 = exp8, .wh = wh};
    const int32_t adj = dp_product_adjust(m, phase);
    __m256i sum0, emax0, sum1, emax1;
    half16(a, b, 0, &sum0, &emax0);
    half16(a, b, 8, &sum1, &emax1);
    half16_live(&sum0, &emax0, adj);
    half16_live(&sum1, &emax1, adj);
#pragma GCC unroll 2
    for (unsigned c = 0; c < 2; c++) {
        __m256i v0, e0, v1, e1;
        half16_cols(sum0, emax0, c, &v0, &e0);
        half16_cols(sum1, emax1, c, &v1, &e1);
        out[c] = acc8_avx2(v0, e0, v1, e1, dst[c], dst32, exp8, wh);
    }
}

/* The AVX2 row on Dst words in memory. */
__attribute__((always_inline, target("avx2"))) static inline void
row16(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16], uint32_t out[16],
      unsigned phase, bool dst32, bool exp8, bool wh)
{
    const __m256i d[2] = {_mm256_loadu_si256((const __m256i *)dst),
                          _mm256_loadu_si256((const __m256i *)(dst + 8))};
    __m256i o[2];
    row16v(a, b, d, o, phase, dst32, exp8, wh);
    _mm256_storeu_si256((__m256i *)out, o[0]);
    _mm256_storeu_si256((__m256i *)(out + 8), o[1]);
}

/* ---- Dst cells as stored (dp_rows_dst_for) ----
 *
 * Bit moves of 16 cells at once in 16-bit lanes, as units/formats.h converts one:
 * fmt_dst_to_bf16 (also the high half of an FP32 cell), fmt_dst_to_fp16, fmt_dst_from_bf16,
 * fmt_dst_from_fp16; with a Dst word (the shapes above) from the 16-bit patterns as the
 * matrix unit's Dst conversions make it: a BF16 pattern (an FP32 cell's high half) << 16, with
 * an FP32 cell's low half below it; dp_from_fp16, dp_to_fp16. */
#define AND16(v, k) _mm256_and_si256(v, _mm256_set1_epi16(k))
#define TO_BF16(c) _mm256_or_si256(_mm256_or_si256(AND16(c, (short)0x8000), _mm256_slli_epi16(AND16(c, 0xFF), 7)), \
                                   AND16(_mm256_srli_epi16(c, 8), 0x7F))
#define TO_FP16(c) _mm256_or_si256(_mm256_or_si256(AND16(c, (short)0x8000), _mm256_slli_epi16(AND16(c, 0x1F), 10)), \
                                   AND16(_mm256_srli_epi16(c, 5), 0x3FF))
#define FROM_BF16(h) _mm256_or_si256(_mm256_or_si256(AND16(h, (short)0x8000), _mm256_slli_epi16(AND16(h, 0x7F), 8)), \
                                     AND16(_mm256_srli_epi16(h, 7), 0xFF))
#define FROM_FP16(h) _mm256_or_si256(_mm256_or_si256(AND16(h, (short)0x8000), _mm256_slli_epi16(AND16(h, 0x3FF), 5)), \
                                     AND16(_mm256_srli_epi16(h, 10), 0x1F))
/* 16-bit lanes 0..7 (half 0) or 8..15 (half 1) of v widened to 32 bits */
#define WIDEN(v, half) _mm256_cvtepu16_epi32(half ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v))
/* 16 32-bit values below 2^16 (w0: 0..7, w1: 8..15) as 16-bit lanes in order (vpackusdw
 * interleaves the 128-bit halves; vpermq puts them back) */
#define NARROW(w0, w1) _mm256_permute4x64_epi64(_mm256_packus_epi32(w0, w1), 0xD8)

/* Physical Dst row q (its low halves in row q + 8 with dst32) as Dst words, columns 0..7 and
 * 8..15; an undefined row reads as 0. */
__attribute__((always_inline, target("avx2"))) static inline void
dst_in_avx2(uint16_t (*bits)[16], const bool *valid, unsigned q, bool dst32, bool exp8, __m256i w[2])
{
    const __m256i c = _mm256_loadu_si256((const __m256i *)bits[q]);
    if (!valid[q]) {
        w[0] = w[1] = _mm256_setzero_si256();
    } else if (dst32 || exp8) {
        const __m256i h = TO_BF16(c);
        const __m256i lo = dst32 ? _mm256_loadu_si256((const __m256i *)bits[q + 8]) : _mm256_setzero_si256();
        for (unsigned k = 0; k < 2; k++)
            w[k] = _mm256_or_si256(_mm256_slli_epi32(WIDEN(h, k), 16), WIDEN(lo, k));
    } else { /* dp_from_fp16 */
        const __m256i h = TO_FP16(c);
        for (unsigned k = 0; k < 2; k++) {
            const __m256i f = WIDEN(h, k);
            w[k] = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(f, _mm256_set1_epi32(0x8000)), 16),
                                   _mm256_slli_epi32(_mm256_and_si256(f, _mm256_set1_epi32(0x7FFF)), 13));
        }
    }
}

/* Dst words (columns 0..7, 8..15) into physical Dst row q (and q + 8). */
__attribute__((always_inline, target("avx2"))) static inline void
dst_out_avx2(uint16_t (*bits)[16], unsigned q, bool dst32, bool exp8, const __m256i w[2])
{
    __m256i c;
    if (dst32 || exp8) {
        c = FROM_BF16(NARROW(_mm256_srli_epi32(w[0], 16), _mm256_srli_epi32(w[1], 16)));
        if (dst32) {
            const __m256i m16 = _mm256_set1_epi32(0xFFFF);
            _mm256_storeu_si256((__m256i *)bits[q + 8],
                                NARROW(_mm256_and_si256(w[0], m16), _mm256_and_si256(w[1], m16)));
        }
    } else { /* dp_to_fp16 */
#define TO_FP16_BITS(x) _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(0x8000)), \
                                        _mm256_srli_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x0FFFE000)), 13))
        c = FROM_FP16(NARROW(TO_FP16_BITS(w[0]), TO_FP16_BITS(w[1])));
#undef TO_FP16_BITS
    }
    _mm256_storeu_si256((__m256i *)bits[q], c);
}

/* The AVX2 row, one copy per mode, so that acc8_avx2 has no mode tests; and its rows (dp_rows_for). */
#define ROW_AVX2(name, dst32, exp8, wh)                                                            \
    __attribute__((target("avx2"))) static void name(                                              \
        const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16], uint32_t out[16], \
        unsigned phase, struct dp_mode m)                                                          \
    {                                                                                              \
        (void)m;                                                                                   \
        row16(a, b, dst, out, phase, dst32, exp8, wh);                                             \
    }                                                                                              \
    __attribute__((target("avx2"))) static void rows_##name(                                       \
        const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n,                     \
        const uint32_t (*dst)[16], uint32_t (*out)[16], unsigned phase, struct dp_mode m)          \
    {                                                                                              \
        (void)m;                                                                                   \
        for (unsigned i = 0; i < n; i++)                                                           \
            row16(a, b[i], dst[i], out[i], phase, dst32, exp8, wh);                                \
    }                                                                                              \
    __attribute__((target("avx2"))) static void rows_dst_##name(                                   \
        const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n, uint16_t (*bits)[16], \
        const bool *valid, const unsigned *p, unsigned phase, struct dp_mode m)                    \
    {                                                                                              \
        (void)m;                                                                                   \
        for (unsigned i = 0; i < n; i++) {                                                         \
            __m256i d[2], o[2];                                                                    \
            dst_in_avx2(bits, valid, p[i], dst32, exp8, d);                                        \
            row16v(a, b[i], d, o, phase, dst32, exp8, wh);                                         \
            dst_out_avx2(bits, p[i], dst32, exp8, o);                                              \
        }                                                                                          \
    }
ROW_AVX2(row_avx2_fp16, false, false, false)
ROW_AVX2(row_avx2_fp16_wh, false, false, true)
ROW_AVX2(row_avx2_bf16, false, true, false)
ROW_AVX2(row_avx2_bf16_wh, false, true, true)
ROW_AVX2(row_avx2_fp16_fp32, true, false, false)
ROW_AVX2(row_avx2_fp16_fp32_wh, true, false, true)
ROW_AVX2(row_avx2_fp32, true, true, false)
ROW_AVX2(row_avx2_fp32_wh, true, true, true)
#undef ROW_AVX2

/* ---- AVX-512: a row, two lanes of SrcA in each vector ----
 *
 * The AVX2 row's steps with 512-bit vectors laid out differently: one vector holds lanes 2m
 * and 2m + 1 of all 16 columns, interleaved (16-bit element 2j + h is column j's lane 2m + h,
 * dp_cols.exp_il, mag_il), so that the SrcB side, lanes 2m and 2m + 1 of the row, is one 32-bit
 * broadcast of two adjacent 16-bit values (dp_lanes.exp_pair, mag2_pair) and SrcA's side a
 * load that the instruction takes as its operand. A half of the 16 lanes is four vectors; its
 * largest exponent and its sum end in both 16-bit elements of a column's 32-bit word after one
 * rotation by 16 and a max (an add), and an arithmetic shift by 16 gives the column's value in
 * 32 bits, as the accumulation takes it. A negative product enters as its complement and the
 * half's sum is corrected by the parity of its signs (group512); comparisons give masks; the
 * alignment of each product is a 16-bit variable shift (AVX512BW) instead of half16's table; a
 * Dst magnitude is negated under a mask, as vpsignd is gone. */

/* Constants in memory, read through a volatile pointer once per call, as for the AVX2 row
 * (avx2_consts): GCC builds _mm512_set1 of a constant with a move and a broadcast where it is
 * used (about 14 instructions per row), where a memory operand costs none. */
typedef int32_t dp_v16 __attribute__((vector_size(64)));
#define V16(x) {x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}
static const struct avx512_consts {
    dp_v16 one, ff, k31, s15, hi8, hi11, man7x2, man10x2, mant, mant2, lead2, r13, half13, keep13,
        half16, keep16, wide, k151, k150, m1, k27, k255, sign, inf, sat;
} avx512_k = {
    .one = V16(1), .ff = V16(0xFF), .k31 = V16(31), .s15 = V16(0x8000), .hi8 = V16(0xFF00),
    .hi11 = V16(0xFFE0), .man7x2 = V16(0x7F << 17), .man10x2 = V16(0x3FF << 14), .mant = V16(0x7FFFFF),
    .mant2 = V16(0xFFFFFE), .lead2 = V16(0x1000000), .r13 = V16(1 + (1 << 13)), .half13 = V16(1 << 12),
    .keep13 = V16(~0x1FFF), .half16 = V16(1 << 15), .keep16 = V16(~0xFFFF), .wide = V16(0xFFFFFF),
    .k151 = V16(151), .k150 = V16(150), .m1 = V16(-1), .k27 = V16(27), .k255 = V16(255),
    .sign = V16(INT32_MIN), .inf = V16(255 << 23), .sat = V16(31 << 23 | 0x3FF << 13)};
static const struct avx512_consts *volatile avx512_kp = &avx512_k;
#undef V16
#define C512(name) ((__m512i)kc->name)

/* Half g of row b (lanes 8g .. 8g + 7) against the SrcA columns: the sum of its products as
 * acc16_avx512 takes it (twice the value, binary point after bit 13 of the value) and its
 * exponent, both per column in 32 bits, the exponent made >= 0 with the product adjustment
 * `adj` (half16_live: a half whose exponent is <= 0 is dead, sum and exponent 0). */
__attribute__((always_inline, target("avx512f,avx512bw"))) static inline void
group512(const struct dp_cols *a, const struct dp_lanes *b, unsigned g, int32_t adj, __m512i *v, __m512i *e)
{
    const __m512i zero = _mm512_setzero_si512();
    __m512i ex[4];
    __m512i mx = zero;
#pragma GCC unroll 4
    for (unsigned i = 0; i < 4; i++) {
        const unsigned m = 4 * g + i;
        ex[i] = _mm512_add_epi16(_mm512_loadu_si512(a->exp_il[m]), _mm512_set1_epi32((int)b->exp_pair[m]));
        mx = _mm512_max_epi16(mx, ex[i]);
    }
    mx = _mm512_max_epi16(mx, _mm512_rol_epi32(mx, 16)); /* both lanes of the pair: the half's */
    /* |p| / 2^d rounded half up, d = emax - e: AVX512BW has 16-bit variable shifts, so no
     * table: with x = 2|p|, (x + 2^d) >> (d + 1) (half16's vpmulhrsw result) equals
     * ((x >> d) + 1) >> 1, vpsrlvw then vpavgw with 0; a count of 16 or more gives 0, as half16's
     * table does for d >= 15 (and 2|p| < 2^13 leaves 0 from d 13 on either way). */
    __m512i s = zero;
#pragma GCC unroll 4
    for (unsigned i = 0; i < 4; i++) {
        const unsigned m = 4 * g + i;
        const __m512i p2 =
            _mm512_mullo_epi16(_mm512_loadu_si512(a->mag_il[m]), _mm512_set1_epi32((int)b->mag2_pair[m]));
        /* a negative product's term as ~y for y = x >> d, which vpsravw gives from ~x (x <
         * 2^15): vpavgw makes it (2^16 - y) >> 1 = 2^15 - ((y + 1) >> 1), the negated term
         * plus 2^15; those 2^15 add up to 2^15 times the parity of the negative terms, taken
         * off below. SrcA's signs (0xFFFF per element) with the row's two lanes' */
        const __m512i x = _mm512_ternarylogic_epi32(p2, _mm512_loadu_si512(a->sgnv_il[m]),
                                                    _mm512_set1_epi32((int)b->sgn_pair[m]), 0x96);
        s = _mm512_add_epi16(s, _mm512_avg_epu16(_mm512_srav_epi16(x, _mm512_sub_epi16(mx, ex[i])), zero));
    }
    s = _mm512_add_epi16(s, _mm512_rol_epi32(s, 16)); /* the sum (16 bits hold it) in both */
    /* less 2^15 (the same as plus) per negative term: the parity of SrcA's signs in the half of
     * each column and of the row's */
    s = _mm512_ternarylogic_epi32(s, _mm512_loadu_si512(a->par_il[g]), _mm512_set1_epi32((int)b->par[g]), 0x96);
    const __m512i x = _mm512_add_epi32(_mm512_srai_epi32(mx, 16), _mm512_set1_epi32(adj));
    const __mmask16 live = _mm512_cmpgt_epi32_mask(x, zero);
    *v = _mm512_maskz_mov_epi32(live, _mm512_slli_epi32(_mm512_srai_epi32(s, 16), 14));
    *e = _mm512_max_epi32(x, zero);
}

/* A row's Dst operand as acc16_avx512 takes it: the exponent field, twice the magnitude (with
 * its leading one; 0 where the exponent is 0) and the columns whose value is negative. */
struct dst_parts {
    __m512i ed, md2;
    __mmask16 neg;
};

/* The parts of Dst words. */
__attribute__((always_inline, target("avx512f,avx512bw"))) static inline struct dst_parts
parts_of_words(const struct avx512_consts *kc, __m512i dst)
{
    const __m512i ed = _mm512_and_si512(_mm512_srli_epi32(dst, 23), C512(ff));
    /* (A & B) | C where the exponent is not 0 */
    const __m512i md2 = _mm512_maskz_ternarylogic_epi32(_mm512_test_epi32_mask(ed, ed), _mm512_slli_epi32(dst, 1),
                                                        C512(mant2), C512(lead2), 0xEA);
    return (struct dst_parts){ed, md2, _mm512_cmplt_epi32_mask(dst, _mm512_setzero_si512())};
}

/* The parts of a row of Dst cells as the register file stores them (units/formats.h), read the
 * way the matrix unit converts them into Dst words (dst_in_avx2), without making the words: a
 * BF16-style cell (Sign[15] Man[14:8] Exp[7:0]; with an FP32 Dst the high half, its low 16
 * mantissa bits in `lo`) or an FP16 one (Sign[15] Man[14:5] Exp[4:0]); the magnitude's bits
 * shifted straight to where twice the word's mantissa has them. */
__attribute__((always_inline, target("avx512f,avx512bw"))) static inline struct dst_parts
parts_of_cells(const struct avx512_consts *kc, __m256i hi, __m256i lo, bool dst32, bool exp8)
{
    const __m512i c = _mm512_cvtepu16_epi32(hi);
    __m512i ed, m;
    if (dst32 || exp8) {
        ed = _mm512_and_si512(c, C512(ff));
        m = _mm512_and_si512(_mm512_slli_epi32(c, 9), C512(man7x2));
        if (dst32)
            m = _mm512_or_si512(m, _mm512_slli_epi32(_mm512_cvtepu16_epi32(lo), 1));
    } else {
        ed = _mm512_and_si512(c, C512(k31));
        m = _mm512_and_si512(_mm512_slli_epi32(c, 9), C512(man10x2));
    }
    const __m512i md2 = _mm512_maskz_or_epi32(_mm512_test_epi32_mask(ed, ed), m, C512(lead2));
    return (struct dst_parts){ed, md2, _mm512_test_epi32_mask(c, C512(s15))};
}

/* Dst words as cells (the other way): each cell field shifted from the word's into place and
 * two bitwise selects, (A & C) | (B & ~C); vpmovdw keeps the low 16 bits. */
__attribute__((always_inline, target("avx512f,avx512bw"))) static inline __m256i
cells_of_words(const struct avx512_consts *kc, __m512i w, bool dst32, bool exp8)
{
    const __m512i t = _mm512_ternarylogic_epi32(_mm512_srli_epi32(w, 16), _mm512_srli_epi32(w, 8), C512(s15), 0xE4);
    return _mm512_cvtepi32_epi16(_mm512_ternarylogic_epi32(t, _mm512_srli_epi32(w, 23),
                                                           dst32 || exp8 ? C512(hi8) : C512(hi11), 0xE4));
}

/* acc8_avx2 for a whole row of 16 columns, step for step (its comment gives the reasons), but
 * for the alignment of the terms, each given twice over (2x: the sums of products as group512
 * gives them, the Dst magnitude doubled here): (x + 2^(d-1)) >> d, rounded towards +infinity,
 * is ((2x >> d) + 1) >> 1 (floor of a floor) for every d >= 0, with no 2^(d-1) to make and no
 * clamp of d: vpsravd's count of 32 or more gives the sign and vpsrlvd's 0, from which the
 * result is 0 as for any d past the term's bits. A 16-bit Dst's rounding to 2^13 that follows,
 * (y + 2^12) & ~0x1FFF, joins it: ((2x >> d) + 1 + 2^13) >> 1, masked. */
__attribute__((always_inline, target("avx512f,avx512bw"))) static inline __m512i
acc16_avx512(const struct avx512_consts *kc, __m512i v0, __m512i e0, __m512i v1, __m512i e1,
             struct dst_parts dp, bool dst32, bool exp8, bool wh)
{
    const __m512i one = C512(one), zero = _mm512_setzero_si512();
    const __m512i ed = dp.ed;
    __m512i md = dp.md2;
    const __m512i exp = _mm512_max_epi32(_mm512_max_epi32(e0, e1), ed);
    const __m512i r = dst32 ? one : C512(r13);
    v0 = _mm512_srai_epi32(_mm512_add_epi32(_mm512_srav_epi32(v0, _mm512_sub_epi32(exp, e0)), r), 1);
    v1 = _mm512_srai_epi32(_mm512_add_epi32(_mm512_srav_epi32(v1, _mm512_sub_epi32(exp, e1)), r), 1);
    md = _mm512_srli_epi32(_mm512_add_epi32(_mm512_srlv_epi32(md, _mm512_sub_epi32(exp, ed)), r), 1);
    if (!dst32) {
        const __m512i keep = C512(keep13);
        v0 = _mm512_and_si512(v0, keep);
        v1 = _mm512_and_si512(v1, keep);
        md = _mm512_and_si512(md, keep);
    }
    /* vpsignd(md, dst): md is 0 wherever the Dst word's exponent is, so negating it where the
     * word is negative is the same */
    md = _mm512_mask_sub_epi32(md, dp.neg, zero, md);
    const __m512i total = _mm512_add_epi32(_mm512_add_epi32(md, v0), v1);
    const __m512i man = _mm512_abs_epi32(total);
    __m512i f, e;
    if (dst32) {
        const __m512i m2 = _mm512_add_epi32(man, man);
        const __m512i odd = _mm512_mask_add_epi32(m2, _mm512_cmpgt_epi32_mask(man, C512(wide)), m2, one);
        f = _mm512_castps_si512(_mm512_cvtepi32_ps(odd));
        e = _mm512_sub_epi32(exp, C512(k151));
    } else {
        f = _mm512_castps_si512(_mm512_cvtepi32_ps(man));
        f = _mm512_and_si512(_mm512_add_epi32(f, exp8 ? C512(half16) : C512(half13)),
                             exp8 ? C512(keep16) : C512(keep13));
        e = _mm512_sub_epi32(exp, C512(k150));
    }
    e = _mm512_add_epi32(e, _mm512_srli_epi32(f, 23));
    if (wh)
        e = _mm512_mask_add_epi32(e, _mm512_cmpeq_epi32_mask(total, C512(m1)), e, C512(k27));
    const __mmask16 ok = _mm512_cmpneq_epi32_mask(man, zero) & _mm512_cmpgt_epi32_mask(e, zero);
    e = _mm512_min_epi32(e, C512(k255));
    __m512i w = _mm512_or_si512(_mm512_slli_epi32(e, 23), _mm512_and_si512(f, C512(mant)));
    w = _mm512_min_epu32(w, dst32 || exp8 ? C512(inf) : C512(sat));
    /* the total's sign put on, 0 where the result is not ok: A | (B & C) */
    return _mm512_maskz_ternarylogic_epi32(ok, w, total, C512(sign), 0xF8);
}

/* Row b against the SrcA columns with the Dst words `dst`: the row's new Dst words. */
__attribute__((always_inline, target("avx512f,avx512bw"))) static inline __m512i
row512(const struct avx512_consts *kc, const struct dp_cols *a, const struct dp_lanes *b, struct dst_parts dst,
       int32_t adj, bool dst32, bool exp8, bool wh)
{
    __m512i v0, e0, v1, e1;
    group512(a, b, 0, adj, &v0, &e0);
    group512(a, b, 1, adj, &v1, &e1);
    return acc16_avx512(kc, v0, e0, v1, e1, dst, dst32, exp8, wh);
}

/* Physical Dst row q's parts (its low halves in row q + 8 with dst32); an undefined row reads
 * as 0. And a row's words stored back as cells. */
__attribute__((always_inline, target("avx512f,avx512bw"))) static inline struct dst_parts
dst_in_avx512(const struct avx512_consts *kc, uint16_t (*bits)[16], const bool *valid, unsigned q, bool dst32,
              bool exp8)
{
    if (!valid[q])
        return (struct dst_parts){_mm512_setzero_si512(), _mm512_setzero_si512(), 0};
    return parts_of_cells(kc, _mm256_loadu_si256((const __m256i *)bits[q]),
                          dst32 ? _mm256_loadu_si256((const __m256i *)bits[q + 8]) : _mm256_setzero_si256(), dst32,
                          exp8);
}

__attribute__((always_inline, target("avx512f,avx512bw"))) static inline void
dst_out_avx512(const struct avx512_consts *kc, uint16_t (*bits)[16], unsigned q, bool dst32, bool exp8, __m512i w)
{
    _mm256_storeu_si256((__m256i *)bits[q], cells_of_words(kc, w, dst32, exp8));
    if (dst32)
        _mm256_storeu_si256((__m256i *)bits[q + 8], _mm512_cvtepi32_epi16(w));
}

/* The AVX-512 rows for one mode, and one row as dp_row_for's functions are called. */
#define ROWS_AVX512(name, dst32, exp8, wh)                                                         \
    __attribute__((target("avx512f,avx512bw"))) static void rows_##name(                           \
        const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n,                     \
        const uint32_t (*dst)[16], uint32_t (*out)[16], unsigned phase, struct dp_mode m)          \
    {                                                                                              \
        const int32_t adj = dp_product_adjust(m, phase);                                           \
        const struct avx512_consts *kc = avx512_kp;                                                \
        for (unsigned i = 0; i < n; i++)                                                           \
            _mm512_storeu_si512(out[i], row512(kc, a, b[i], parts_of_words(kc, _mm512_loadu_si512(dst[i])), adj, \
                                               dst32, exp8, wh));                                  \
    }                                                                                              \
    __attribute__((target("avx512f,avx512bw"))) static void rows_dst_##name(                       \
        const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n, uint16_t (*bits)[16], \
        const bool *valid, const unsigned *p, unsigned phase, struct dp_mode m)                    \
    {                                                                                              \
        const int32_t adj = dp_product_adjust(m, phase);                                           \
        const struct avx512_consts *kc = avx512_kp;                                                \
        for (unsigned i = 0; i < n; i++) {                                                         \
            const struct dst_parts d = dst_in_avx512(kc, bits, valid, p[i], dst32, exp8);          \
            dst_out_avx512(kc, bits, p[i], dst32, exp8, row512(kc, a, b[i], d, adj, dst32, exp8, wh)); \
        }                                                                                          \
    }                                                                                              \
    static void row_##name(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16], \
                           uint32_t out[16], unsigned phase, struct dp_mode m)                     \
    {                                                                                              \
        rows_##name(a, &b, 1, (const uint32_t(*)[16])dst, (uint32_t(*)[16])out, phase, m);         \
    }
ROWS_AVX512(avx512_fp16, false, false, false)
ROWS_AVX512(avx512_fp16_wh, false, false, true)
ROWS_AVX512(avx512_bf16, false, true, false)
ROWS_AVX512(avx512_bf16_wh, false, true, true)
ROWS_AVX512(avx512_fp16_fp32, true, false, false)
ROWS_AVX512(avx512_fp16_fp32_wh, true, false, true)
ROWS_AVX512(avx512_fp32, true, true, false)
ROWS_AVX512(avx512_fp32_wh, true, true, true)
#undef ROWS_AVX512
#undef AND16
#undef TO_BF16
#undef TO_FP16
#undef FROM_BF16
#undef FROM_FP16
#undef WIDEN
#undef NARROW
#undef C512

__attribute__((target("sse4.1"))) static void
row_sse41(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16], uint32_t out[16],
          unsigned phase, struct dp_mode m)
{
    mvmul_row(a, b, dst, out, phase, m);
}

__attribute__((target("sse4.1"))) static void
rows_sse41(const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n,
           const uint32_t (*dst)[16], uint32_t (*out)[16], unsigned phase, struct dp_mode m)
{
    for (unsigned i = 0; i < n; i++)
        mvmul_row(a, b[i], dst[i], out[i], phase, m);
}

static void row_plain(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16],
                      uint32_t out[16], unsigned phase, struct dp_mode m)
{
    mvmul_row(a, b, dst, out, phase, m);
}

static void rows_plain(const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n,
                       const uint32_t (*dst)[16], uint32_t (*out)[16], unsigned phase, struct dp_mode m)
{
    for (unsigned i = 0; i < n; i++)
        mvmul_row(a, b[i], dst[i], out[i], phase, m);
}

/* The mode's index in the tables below, and a table of one path's functions in that order. */
static unsigned mode_index(struct dp_mode m) { return (unsigned)(m.dst32 << 2 | m.exp8 << 1 | m.wh); }
#define BY_MODE(p) {p##fp16, p##fp16_wh, p##bf16, p##bf16_wh, p##fp16_fp32, p##fp16_fp32_wh, p##fp32, p##fp32_wh}

dp_row_fn *dp_row_for(enum dp_simd s, struct dp_mode m)
{
    static dp_row_fn *const avx2[8] = BY_MODE(row_avx2_), *const avx512[8] = BY_MODE(row_avx512_);
    if (s >= DP_SIMD_AVX2)
        return (s == DP_SIMD_AVX512 ? avx512 : avx2)[mode_index(m)];
    return s == DP_SIMD_SSE41 ? row_sse41 : row_plain;
}

dp_rows_fn *dp_rows_for(enum dp_simd s, struct dp_mode m)
{
    static dp_rows_fn *const avx2[8] = BY_MODE(rows_row_avx2_), *const avx512[8] = BY_MODE(rows_avx512_);
    if (s >= DP_SIMD_AVX2)
        return (s == DP_SIMD_AVX512 ? avx512 : avx2)[mode_index(m)];
    return s == DP_SIMD_SSE41 ? rows_sse41 : rows_plain;
}

dp_rows_dst_fn *dp_rows_dst_for(enum dp_simd s, struct dp_mode m)
{
    static dp_rows_dst_fn *const avx2[8] = BY_MODE(rows_dst_row_avx2_), *const avx512[8] = BY_MODE(rows_dst_avx512_);
    if (s >= DP_SIMD_AVX2)
        return (s == DP_SIMD_AVX512 ? avx512 : avx2)[mode_index(m)];
    return NULL;
}
#undef BY_MODE

enum dp_simd dp_simd_best(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? DP_SIMD_AVX512
           : __builtin_cpu_supports("avx2")                                       ? DP_SIMD_AVX2
           : __builtin_cpu_supports("sse4.1")                                     ? DP_SIMD_SSE41
                                                                                  : DP_SIMD_PLAIN;
}

void dp_mvmul_row(enum dp_simd s, const struct dp_cols *a, const struct dp_lanes *b,
                  const uint32_t dst[16], uint32_t out[16], unsigned phase, struct dp_mode m)
{
    dp_row_for(s, m)(a, b, dst, out, phase, m);
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
