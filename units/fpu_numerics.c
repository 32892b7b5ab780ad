/* The matrix unit's arithmetic (docs/fpu.md has every rule and the reasons for the choices).
 *
 * The functional models (WH:MVMUL.md, WH:ELWMUL.md, WH:ELWADD.md) write the float path as C
 * `float` arithmetic but call it "a rough guide": order, fusion and intermediate precision are
 * not pinned down, and RoundToBF16 / RoundToFP16 are named but never defined. tensim therefore
 * evaluates each expression exactly (the fidelity-limited products have at most 11 x 11
 * significant bits, so a wide fixed-point sum holds every partial result without loss) and
 * rounds once, to nearest with ties to even, into the Dst format. Input patterns with exponent 0
 * read as zero and the largest exponent is an ordinary finite binade (WH:FloatBitPatterns.md);
 * results below the smallest normal become +0, results beyond the format's range become its
 * overflow pattern, and -0 is never produced (the same page: arithmetic never outputs -0,
 * denormals, or NaN patterns). */
#include "fpu_internal.h"

#include <string.h>

/* ---- reading values ---- */

struct fpu_val fpu_src_val(uint32_t cell, enum fpu_style style)
{
    /* Src layouts (WH:SrcASrcB.md): TF32/BF16 Sign,Man(10),Exp(8); FP16 Sign,Man(10),0(3),Exp(5).
     * BF16 lives on TF32 with the low three mantissa bits unused; they are ignored here, as
     * GMPOOL's ReadAndScaleSrc does (WH:GMPOOL.md). */
    struct fpu_val v = {0, 0, (cell >> 18 & 1) != 0};
    uint32_t man = (cell >> 8) & 0x3FF;
    int exp;
    if (style == FPU_STYLE_FP16) {
        exp = (int)(cell & 0x1F);
        if (!exp)
            return v;
        v.exp = exp - 15 - 10;
    } else {
        exp = (int)(cell & 0xFF);
        if (!exp)
            return v;
        if (style == FPU_STYLE_BF16)
            man &= 0x3F8;
        v.exp = exp - 127 - 10;
    }
    v.sig = 0x400 | man;
    return v;
}

/* The significand is the implicit one (bit 10) and ten mantissa bits (9..0), i.e. FP32 bits 23
 * and 22..13. SrcAFidelityBits keeps FP32 bits 22..19 with the one in even phases and bits 18..14
 * in odd ones (bit 13, the tenth mantissa bit, in neither); SrcBFidelityBits keeps bits 22..17
 * with the one in phases 0/1, bits 16..13 in phases 2/3. */
struct fpu_val fpu_fidelity_a(struct fpu_val v, unsigned phase)
{
    v.sig &= phase & 1 ? 0x03Eu : 0x7C0u;
    return v;
}

struct fpu_val fpu_fidelity_b(struct fpu_val v, unsigned phase)
{
    v.sig &= phase & 2 ? 0x00Fu : 0x7F0u;
    return v;
}

struct fpu_val fpu_val_fp32(uint32_t bits)
{
    struct fpu_val v = {0, 0, (bits >> 31) != 0};
    int e = (int)(bits >> 23 & 0xFF);
    if (e) {
        v.sig = 0x800000u | (bits & 0x7FFFFFu);
        v.exp = e - 127 - 23;
    }
    return v;
}

struct fpu_val fpu_val_bf16(uint16_t bits)
{
    return fpu_val_fp32((uint32_t)bits << 16);
}

struct fpu_val fpu_val_fp16(uint16_t bits)
{
    struct fpu_val v = {0, 0, (bits >> 15) != 0};
    int e = bits >> 10 & 0x1F;
    if (e) {
        v.sig = 0x400u | (bits & 0x3FFu);
        v.exp = e - 15 - 10;
    }
    return v;
}

/* ---- the exact accumulator ---- */

void fpu_acc_clear(struct fpu_acc *a) { memset(a, 0, sizeof *a); }

/* Adds (neg ? -1 : 1) * m * 2^(pos - FPU_ACC_BIAS), m below 2^63. */
static void acc_put(struct fpu_acc *a, uint64_t m, int pos, bool neg)
{
    if (!m)
        return;
    unsigned l = (unsigned)pos / 64, s = (unsigned)pos % 64;
    uint64_t lo = m << s, hi = s ? m >> (64 - s) : 0;
    if (!neg) {
        uint64_t r = a->limb[l] + lo, c = r < lo;
        a->limb[l] = r;
        r = a->limb[l + 1] + hi;
        uint64_t c2 = r < hi;
        a->limb[l + 1] = r + c;
        c = c2 | (a->limb[l + 1] < c);
        for (unsigned i = l + 2; c && i < FPU_ACC_LIMBS; i++)
            c = ++a->limb[i] == 0;
    } else {
        uint64_t b = a->limb[l] < lo;
        a->limb[l] -= lo;
        uint64_t b2 = a->limb[l + 1] < hi;
        a->limb[l + 1] -= hi;
        b2 |= a->limb[l + 1] < b;
        a->limb[l + 1] -= b;
        for (unsigned i = l + 2; b2 && i < FPU_ACC_LIMBS; i++)
            b2 = a->limb[i]-- == 0;
    }
}

void fpu_acc_add(struct fpu_acc *a, struct fpu_val v)
{
    if (v.sig)
        acc_put(a, v.sig, v.exp + FPU_ACC_BIAS, v.neg);
}

void fpu_acc_add_mul(struct fpu_acc *a, struct fpu_val x, struct fpu_val y)
{
    if (x.sig && y.sig)
        acc_put(a, (uint64_t)x.sig * y.sig, x.exp + y.exp + FPU_ACC_BIAS, x.neg != y.neg);
}

static unsigned acc_bit(const struct fpu_acc *a, int i)
{
    return i < 0 ? 0 : (unsigned)(a->limb[i / 64] >> (i % 64)) & 1;
}

/* Bits lo .. lo+n-1 (n <= 32) as an integer; bits below 0 read as zero. */
static uint64_t acc_field(const struct fpu_acc *a, int lo, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++)
        v |= (uint64_t)acc_bit(a, lo + (int)k) << k;
    return v;
}

/* Any bit set below bit `below` (exclusive)? */
static bool acc_any_below(const struct fpu_acc *a, int below)
{
    if (below <= 0)
        return false;
    unsigned full = (unsigned)below / 64, rest = (unsigned)below % 64;
    for (unsigned i = 0; i < full; i++)
        if (a->limb[i])
            return true;
    return rest && (a->limb[full] & ((1ull << rest) - 1));
}

uint32_t fpu_acc_round(const struct fpu_acc *in, enum fpu_out out)
{
    struct fpu_acc a = *in;
    bool neg = a.limb[FPU_ACC_LIMBS - 1] >> 63;
    if (neg) { /* two's complement negate */
        unsigned c = 1;
        for (unsigned i = 0; i < FPU_ACC_LIMBS; i++) {
            a.limb[i] = ~a.limb[i] + c;
            c = c && a.limb[i] == 0;
        }
    }
    int msb = -1;
    for (int i = FPU_ACC_LIMBS - 1; i >= 0 && msb < 0; i--)
        if (a.limb[i])
            msb = i * 64 + 63 - __builtin_clzll(a.limb[i]);
    if (msb < 0)
        return 0; /* exact zero: +0 */
    unsigned p = out == FPU_OUT_FP32 ? 24 : out == FPU_OUT_BF16 ? 8 : 11;
    int e = msb - FPU_ACC_BIAS; /* value in [2^e, 2^(e+1)) */
    int lo = msb - (int)p + 1;  /* weight of the last kept bit */
    uint64_t m = acc_field(&a, lo, p);
    if (acc_bit(&a, lo - 1) && (acc_any_below(&a, lo - 1) || (m & 1))) {
        if (++m >> p) {
            m >>= 1;
            e++;
        }
    }
    uint32_t sign = neg ? 1u : 0u;
    switch (out) {
    case FPU_OUT_FP32:
        if (e < -126)
            return 0;
        if (e > 127)
            return sign << 31 | 0x7F800000u; /* exponent 255, mantissa 0 */
        return sign << 31 | (uint32_t)(e + 127) << 23 | ((uint32_t)m & 0x7FFFFFu);
    case FPU_OUT_BF16:
        if (e < -126)
            return 0;
        if (e > 127)
            return sign << 15 | 0x7F80u;
        return sign << 15 | (uint32_t)(e + 127) << 7 | ((uint32_t)m & 0x7Fu);
    default: /* FP16: exponent 31 is finite; the largest pattern stands for overflow */
        if (e < -14)
            return 0;
        if (e > 16)
            return sign << 15 | 0x7FFFu;
        return sign << 15 | (uint32_t)(e + 15) << 10 | ((uint32_t)m & 0x3FFu);
    }
}

int32_t fpu_sat_add(int64_t a, int64_t b)
{
    int64_t s = a + b;
    if (s > INT32_MAX)
        return INT32_MAX;
    if (s < -INT32_MAX)
        return -INT32_MAX; /* clamps at +-(2^31 - 1) (WH:ELWMUL.md) */
    return (int32_t)s;
}

/* ---- the fast path ---- */


/* The same rounding as fpu_acc_round, from a double that holds the exact value. */
uint32_t fpu_round_double(double v, enum fpu_out out)
{
    if (v == 0.0)
        return 0;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    uint32_t sign = (uint32_t)(b >> 63);
    int e = (int)(b >> 52 & 0x7FF) - 1023;
    uint64_t m = b & ((1ull << 52) - 1);
    unsigned frac = out == FPU_OUT_FP32 ? 23 : out == FPU_OUT_BF16 ? 7 : 10;
    unsigned drop = 52 - frac;
    uint64_t keep = m >> drop, rest = m & ((1ull << drop) - 1), half = 1ull << (drop - 1);
    if (rest > half || (rest == half && (keep & 1))) {
        if (++keep >> frac) {
            keep = 0;
            e++;
        }
    }
    switch (out) {
    case FPU_OUT_FP32:
        if (e < -126)
            return 0;
        if (e > 127)
            return sign << 31 | 0x7F800000u;
        return sign << 31 | (uint32_t)(e + 127) << 23 | (uint32_t)keep;
    case FPU_OUT_BF16:
        if (e < -126)
            return 0;
        if (e > 127)
            return sign << 15 | 0x7F80u;
        return sign << 15 | (uint32_t)(e + 127) << 7 | (uint32_t)keep;
    default:
        if (e < -14)
            return 0;
        if (e > 16)
            return sign << 15 | 0x7FFFu;
        return sign << 15 | (uint32_t)(e + 15) << 10 | (uint32_t)keep;
    }
}
