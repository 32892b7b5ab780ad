/* Number formats and the unpackers' FormatConversion (units/formats.c), checked against values
 * computed here from the documents' definitions, never by calling the code under test:
 *
 *   1. an input bit pattern is decoded to its exact real value (doubles hold every value of
 *      every format exactly) following WH:FloatBitPatterns.md and the choices of
 *      docs/formats.md;
 *   2. the value is re-encoded into sign / exponent / mantissa fields of the target type
 *      (truncating where the conversion truncates);
 *   3. the fields are placed where the bit-layout diagrams of WH:SrcASrcB.md and WH:Dst.md
 *      put them.
 *
 * Exhaustive over every 8-bit and 16-bit input (and every BFP datum x shared exponent), 1e6
 * pseudo-random inputs for the 32-bit formats, and hand-written edge cases. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../units/formats.h"

/* ---- mismatch counting: report the first few, fail once per test ------------------------ */

struct tally {
    unsigned fails;
};

#define CHECK(tl, cond, ...)                                                  \
    do {                                                                      \
        if (!(cond)) {                                                        \
            if ((tl)->fails++ < 8)                                            \
                cr_log_error(__VA_ARGS__);                                    \
        }                                                                     \
    } while (0)

#define DONE(tl) cr_expect_eq((tl).fails, 0u, "%u mismatches (first ones logged)", (tl).fails)

static const struct fmt_unpack_mode TO_SRC = {.to_dst = false};
static const struct fmt_unpack_mode TO_DST = {.to_dst = true};

/* ---- layouts, written from the bit diagrams (Diagrams/Src/Bits32.lua) ---------------------- */

/* Src TF32 / BF16: exponent bits 7:0, mantissa (10 bits, BF16's 7 at the top) 17:8, sign 18. */
static uint32_t lay_src_e8(unsigned s, unsigned exp8, unsigned man10)
{
    return (uint32_t)s << 18 | (uint32_t)man10 << 8 | exp8;
}
/* Src FP16: exponent 4:0, zeros 7:5, mantissa 17:8, sign 18. */
static uint32_t lay_src_e5(unsigned s, unsigned exp5, unsigned man10)
{
    return (uint32_t)s << 18 | (uint32_t)man10 << 8 | exp5;
}
/* Src Integer "8": 16 (or 0 for magnitude 0) in 4:0, magnitude 17:8, sign 18. */
static uint32_t lay_src_int8(unsigned s, unsigned mag)
{
    return (uint32_t)s << 18 | (uint32_t)mag << 8 | (mag ? 16u : 0u);
}
/* Src Integer "16": low magnitude 7:0, zeros 10:8, high magnitude 17:11, sign 18. */
static uint32_t lay_src_int16(unsigned x)
{
    return (uint32_t)(x >> 15) << 18 | (uint32_t)((x >> 8) & 0x7F) << 11 | (x & 0xFF);
}
/* Dst BF16: exponent 7:0, mantissa 14:8, sign 15. */
static uint32_t lay_dst_bf16(unsigned s, unsigned exp8, unsigned man7)
{
    return (uint32_t)s << 15 | (uint32_t)man7 << 8 | exp8;
}
/* Dst FP16: exponent 4:0, mantissa 14:5, sign 15. */
static uint32_t lay_dst_fp16(unsigned s, unsigned exp5, unsigned man10)
{
    return (uint32_t)s << 15 | (uint32_t)man10 << 5 | exp5;
}
/* Dst Integer "8": 16 or 0 in 4:0, magnitude 14:5, sign 15. */
static uint32_t lay_dst_int8(unsigned s, unsigned mag)
{
    return (uint32_t)s << 15 | (uint32_t)mag << 5 | (mag ? 16u : 0u);
}
/* Dst FP32: low mantissa 15:0, exponent 23:16, high 7 mantissa bits 30:24, sign 31. */
static uint32_t lay_dst_fp32(unsigned s, unsigned exp8, uint32_t man23)
{
    return (uint32_t)s << 31 | (man23 >> 16) << 24 | (uint32_t)exp8 << 16 | (man23 & 0xFFFF);
}
/* Dst Integer "32": low magnitude 15:0, high magnitude (bits 30:23) 23:16, middle (22:16)
 * 30:24, sign 31. */
static uint32_t lay_dst_int32(unsigned s, uint32_t mag31)
{
    return (uint32_t)s << 31 | ((mag31 >> 16) & 0x7F) << 24 | ((mag31 >> 23) & 0xFF) << 16 |
           (mag31 & 0xFFFF);
}

/* ---- exact values and re-encoding ------------------------------------------------------- */

/* A decoded datum: sign, and either a finite magnitude or "special" raw fields (Inf/NaN of
 * the 8-bit-exponent types, carried bit for bit). */
struct val {
    unsigned sign;
    bool special;
    double mag;
    unsigned raw_exp;
    uint32_t raw_man;
};

/* Binary exponent e with 2^e <= v < 2^(e+1), for v > 0. */
static int ilog2d(double v)
{
    int e;
    frexp(v, &e);
    return e - 1;
}

/* Encodes a finite magnitude that is exactly representable with `bias`, `man_bits` and
 * denormals below exponent 1-bias. Exponents above the field are allowed when `wrap` is given
 * (the 8-bit modular arithmetic of BFP8ToBF16); otherwise they fail the test. */
struct fields {
    unsigned exp;
    uint32_t man;
    bool ok;
};

static struct fields encode(double mag, int bias, unsigned exp_bits, unsigned man_bits, bool wrap)
{
    struct fields f = {0, 0, true};
    if (mag == 0)
        return f;
    int e = ilog2d(mag);
    int biased = e + bias;
    if (biased >= 1 || wrap) {
        double frac = ldexp(mag, -e) - 1.0; /* in [0, 1) */
        double m = ldexp(frac, (int)man_bits);
        f.man = (uint32_t)m;
        f.ok = (double)f.man == m;
        f.exp = (unsigned)biased & ((1u << (wrap ? 8 : exp_bits)) - 1);
        if (!wrap && biased >= (1 << exp_bits))
            f.ok = false;
        return f;
    }
    double m = ldexp(mag, (int)man_bits + bias - 1); /* denormal grid */
    f.man = (uint32_t)m;
    f.ok = (double)f.man == m;
    return f;
}

/* Truncates a finite magnitude to `man_bits` fraction bits within its binade (denormals: on the
 * grid of exponent 1-bias). */
static double truncate_to(double mag, int bias, unsigned man_bits)
{
    if (mag == 0)
        return 0;
    int e = ilog2d(mag);
    if (e < 1 - bias)
        e = 1 - bias;
    double ulp = ldexp(1.0, e - (int)man_bits);
    return (double)(uint64_t)(mag / ulp) * ulp;
}

/* ---- decoders, from WH:FloatBitPatterns.md ------------------------------------------------ */

/* IEEE-like with an 8-bit exponent (FP32, BF16, TF32): exponent 255 is special. */
static struct val dec_e8(uint32_t bits, unsigned man_bits)
{
    struct val v = {0};
    v.sign = (bits >> (8 + man_bits)) & 1;
    v.raw_exp = (bits >> man_bits) & 0xFF;
    v.raw_man = bits & ((1u << man_bits) - 1);
    if (v.raw_exp == 255) {
        v.special = true;
        return v;
    }
    double m = ldexp((double)v.raw_man, -(int)man_bits);
    v.mag = v.raw_exp ? ldexp(1.0 + m, (int)v.raw_exp - 127) : ldexp(m, -126);
    return v;
}

/* The coprocessor's 5-bit-exponent types (FP16, FP8 E5M2): no Inf/NaN, exponent 31 is an
 * ordinary binade; exponent 0 holds denormals (IEEE values). */
static struct val dec_e5(uint32_t bits, unsigned man_bits)
{
    struct val v = {0};
    v.sign = (bits >> (5 + man_bits)) & 1;
    unsigned exp = (bits >> man_bits) & 0x1F;
    double m = ldexp((double)(bits & ((1u << man_bits) - 1)), -(int)man_bits);
    v.mag = exp ? ldexp(1.0 + m, (int)exp - 15) : ldexp(m, -14);
    return v;
}

/* BFP datum with n bits (sign + n-1 magnitude bits): Mag / 2^(n-2) * 2^(exp - bias). */
static double bfp_mag(unsigned datum, unsigned nbits, unsigned exp, int bias)
{
    unsigned mag = datum & ((1u << (nbits - 1)) - 1);
    return ldexp((double)mag, (int)exp - bias - (int)(nbits - 2));
}

/* ---- expected cells ---------------------------------------------------------------------- */

/* A value (already on the BF16 grid, or special) as a BF16 datum in Src or Dst. */
static uint32_t want_bf16(struct val v, bool dst, bool wrap)
{
    unsigned exp, man7;
    if (v.special) {
        exp = 255;
        man7 = v.raw_man;
    } else {
        struct fields f = encode(v.mag, 127, 8, 7, wrap);
        cr_assert(f.ok, "bf16 encode of %a", v.mag);
        exp = f.exp;
        man7 = f.man;
    }
    return dst ? lay_dst_bf16(v.sign, exp, man7) : lay_src_e8(v.sign, exp, man7 << 3);
}

/* A value on the FP16 grid (exponent 31 finite) in Src or Dst. `normalised`: the value came
 * through the BFPa normalisation, which always drops a leading one, so a biased exponent of 0
 * gives exponent field 0 with the fraction bits (a pattern the coprocessor reads as zero)
 * instead of a denormal. */
static uint32_t want_fp16_from(struct val v, bool dst, bool normalised)
{
    struct fields f = encode(v.mag, 15, 5, 10, normalised);
    cr_assert(f.ok, "fp16 encode of %a", v.mag);
    return dst ? lay_dst_fp16(v.sign, f.exp, f.man) : lay_src_e5(v.sign, f.exp, f.man);
}

static uint32_t want_fp16(struct val v, bool dst)
{
    return want_fp16_from(v, dst, false);
}

static uint32_t unpack_ok(unsigned in, unsigned out, uint32_t datum, uint8_t exp,
                          struct fmt_unpack_mode m)
{
    uint32_t cell = 0xDEADBEEF;
    enum fmt_status st = fmt_unpack_datum(in, out, datum, exp, m, &cell);
    cr_assert_eq(st, FMT_OK, "%s->%s datum %#x exp %u: %s", df_name(in), df_name(out), datum, exp,
                 fmt_status_text(st));
    return cell;
}

/* ---- format table ------------------------------------------------------------------------ */

Test(formats, codes_and_names_follow_the_encoding_table)
{
    /* WH:Unpackers/FormatConversion.md: rows 0b00.. to 0b11.., columns ..00 to ..11 */
    static const char *const want[16] = {"FP32", "FP16", "BFP8a", "BFP4a", "TF32", "BF16",
                                         "BFP8", "BFP4", "INT32", "INT16", "FP8",  "BFP2a",
                                         "?",    "?",    "INT8",  "BFP2"};
    for (unsigned c = 0; c < 16; c++) {
        cr_expect_str_eq(df_name(c), want[c], "code %u", c);
        cr_expect_eq(df_is_valid(c), c != 12 && c != 13, "code %u", c);
    }
    cr_expect_str_eq(df_name(DF_UINT8), "UINT8");
    cr_expect_str_eq(df_name(DF_UINT32), "UINT32");
    cr_expect_str_eq(df_name(DF_FP8_E4M3), "FP8_E4M3");
    cr_expect_str_eq(df_name(99), "?");
    cr_expect_eq(df_field(DF_UINT8), (unsigned)DF_INT8);
    cr_expect_eq(df_field(DF_UINT32), (unsigned)DF_INT32);
    cr_expect_eq(df_field(DF_FP8_E4M3), (unsigned)DF_FP8);
    cr_expect_eq(df_field(DF_UINT16), (unsigned)DF_INT16);
    cr_expect_not(df_is_valid(16));
}

Test(formats, datum_sizes_and_block_formats)
{
    static const unsigned bits[16] = {32, 16, 8, 4, 32, 16, 8, 4, 32, 16, 8, 2, 0, 0, 8, 2};
    for (unsigned c = 0; c < 16; c++)
        cr_expect_eq(df_datum_bits(c), bits[c], "code %u", c);
    unsigned nbfp = 0, na = 0;
    for (unsigned c = 0; c < 16; c++) {
        nbfp += df_is_bfp(c);
        na += df_is_bfp_a(c);
        if (df_is_bfp_a(c))
            cr_expect(df_is_bfp(c));
    }
    cr_expect_eq(nbfp, 6u);
    cr_expect_eq(na, 3u);
    cr_expect(df_dst_is_32b(DF_FP32) && df_dst_is_32b(DF_TF32) && df_dst_is_32b(DF_INT32));
    cr_expect_not(df_dst_is_32b(DF_BF16) || df_dst_is_32b(DF_INT16) || df_dst_is_32b(DF_INT8));
}

Test(formats, exponent_section_sizes)
{
    /* One byte per 16 datums, rounded up to 16 bytes (WH:UNPACR_Regular.md). */
    cr_expect_eq(df_exp_section_bytes(DF_BFP8, 1024, false, false), 64u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP8, 256, false, false), 16u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP8, 257, false, false), 32u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP8, 1, false, false), 16u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP8A, 0, false, false), 0u);
    /* NoBFPExpSection drops it for BFP4/BFP2 (both families) but not BFP8/BFP8a. */
    cr_expect_eq(df_exp_section_bytes(DF_BFP4, 1024, true, false), 0u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP2A, 1024, true, false), 0u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP8, 1024, true, false), 64u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP8A, 1024, true, false), 64u);
    cr_expect_eq(df_exp_section_bytes(DF_BFP4, 1024, false, false), 64u);
    /* Force_shared_exp: no section at all. */
    cr_expect_eq(df_exp_section_bytes(DF_BFP8, 1024, false, true), 0u);
    for (unsigned c = 0; c < 16; c++)
        if (!df_is_bfp(c))
            cr_expect_eq(df_exp_section_bytes(c, 1024, false, false), 0u, "code %u", c);
}

/* ---- valid and undefined pairs (seed 001 3.5, WH:Unpackers/FormatConversion.md) ------------ */

struct pair {
    unsigned in, out;
};

/* The configuration tables of WH:Unpackers/FormatConversion.md, as (InDataFormat,
 * OutDataFormat) settings. TF32 in L1 is configured as FP32 there; INT8 -> BF16 is BFP8 with
 * Force_shared_exp; UINT8 is INT8 with Src?Unsigned. */
static const struct pair src_table[] = {
    {DF_FP32, DF_TF32},   {DF_FP32, DF_BF16},   {DF_FP32, DF_FP16},   {DF_BF16, DF_BF16},
    {DF_BFP8, DF_BFP8},   {DF_BFP4, DF_BFP4},   {DF_BFP2, DF_BFP2},   {DF_FP16, DF_FP16},
    {DF_BFP8A, DF_BFP8A}, {DF_BFP4A, DF_BFP4A}, {DF_BFP2A, DF_BFP2A}, {DF_FP8, DF_FP8},
    {DF_INT16, DF_INT16}, {DF_INT8, DF_INT8},
    /* Narrower BFP into the BFP8 of its family, as tt-llk programs BFP4_b (units/formats.c). */
    {DF_BFP4, DF_BFP8},   {DF_BFP2, DF_BFP8},   {DF_BFP4A, DF_BFP8A}, {DF_BFP2A, DF_BFP8A},
};
static const struct pair dst_table[] = {
    {DF_FP32, DF_FP32},   {DF_FP32, DF_BF16},   {DF_FP32, DF_FP16},   {DF_BF16, DF_BF16},
    {DF_BFP8, DF_BFP8},   {DF_BFP4, DF_BFP4},   {DF_BFP2, DF_BFP2},   {DF_FP16, DF_FP16},
    {DF_BFP8A, DF_BFP8A}, {DF_BFP4A, DF_BFP4A}, {DF_BFP2A, DF_BFP2A}, {DF_FP8, DF_FP8},
    {DF_INT32, DF_INT32}, {DF_INT16, DF_INT16}, {DF_INT8, DF_INT8},
    /* Not in the table but defined by the functional model (UNPACR_Regular.md): for Dst,
     * TF32 means FP32, both as OutDataFormat of FP32 input and as InDataFormat. */
    {DF_FP32, DF_TF32},   {DF_TF32, DF_TF32},
    {DF_BFP4, DF_BFP8},   {DF_BFP2, DF_BFP8},   {DF_BFP4A, DF_BFP8A}, {DF_BFP2A, DF_BFP8A},
};

static bool listed(const struct pair *t, size_t n, unsigned in, unsigned out)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].in == in && t[i].out == out)
            return true;
    return false;
}

Test(formats, valid_and_undefined_pairs)
{
    for (unsigned in = 0; in < 16; in++)
        for (unsigned out = 0; out < 16; out++) {
            bool src_ok = listed(src_table, sizeof src_table / sizeof *src_table, in, out);
            bool dst_ok = listed(dst_table, sizeof dst_table / sizeof *dst_table, in, out);
            cr_expect_eq(fmt_check_pair(in, out, false) == FMT_OK, src_ok, "Src %s->%s",
                         df_name(in), df_name(out));
            cr_expect_eq(fmt_check_pair(in, out, true) == FMT_OK, dst_ok, "Dst %s->%s",
                         df_name(in), df_name(out));
            /* fmt_unpack_datum agrees (datum 0 never trips the BFPa exponent check). */
            uint32_t cell;
            cr_expect_eq(fmt_unpack_datum(in, out, 0, 0, TO_SRC, &cell) == FMT_OK, src_ok);
            cr_expect_eq(fmt_unpack_datum(in, out, 0, 0, TO_DST, &cell) == FMT_OK, dst_ok);
        }
    /* The reasons given. */
    cr_expect_eq(fmt_check_pair(12, 12, true), FMT_UB_FORMAT);
    cr_expect_eq(fmt_check_pair(DF_BF16, DF_FP16, false), FMT_UB_PAIR);
    cr_expect_eq(fmt_check_pair(DF_FP32, DF_INT32, true), FMT_UB_PAIR);
    cr_expect_eq(fmt_check_pair(DF_FP32, DF_FP32, false), FMT_UB_TARGET);
    cr_expect_eq(fmt_check_pair(DF_INT32, DF_INT32, false), FMT_UB_TARGET);
    cr_expect_eq(fmt_check_pair(DF_TF32, DF_TF32, false), FMT_UB_TARGET);
    cr_expect_eq(fmt_check_pair(DF_TF32, DF_BF16, true), FMT_UB_PAIR);
    cr_expect_str_eq(fmt_status_text(FMT_UB_EXPONENT), "BFPa exponent does not fit in five bits");
}

/* ---- exhaustive 16-bit inputs ------------------------------------------------------------ */

Test(formats_exhaustive, bf16_to_src_and_dst)
{
    struct tally tl = {0};
    for (uint32_t x = 0; x < 0x10000; x++) {
        struct val v = dec_e8(x, 7);
        for (int dst = 0; dst < 2; dst++) {
            uint32_t got = unpack_ok(DF_BF16, DF_BF16, x, 0, dst ? TO_DST : TO_SRC);
            uint32_t want = want_bf16(v, dst, false);
            CHECK(&tl, got == want, "BF16 %#06x %s: got %#x want %#x", x, dst ? "Dst" : "Src",
                  got, want);
        }
    }
    DONE(tl);
}

Test(formats_exhaustive, fp16_to_src_and_dst)
{
    struct tally tl = {0};
    for (uint32_t x = 0; x < 0x10000; x++) {
        struct val v = dec_e5(x, 10);
        for (int dst = 0; dst < 2; dst++) {
            uint32_t got = unpack_ok(DF_FP16, DF_FP16, x, 0, dst ? TO_DST : TO_SRC);
            uint32_t want = want_fp16(v, dst);
            CHECK(&tl, got == want, "FP16 %#06x %s: got %#x want %#x", x, dst ? "Dst" : "Src",
                  got, want);
        }
    }
    DONE(tl);
}

Test(formats_exhaustive, int16_is_opaque)
{
    struct tally tl = {0};
    for (uint32_t x = 0; x < 0x10000; x++) {
        uint32_t s = unpack_ok(DF_INT16, DF_INT16, x, 0, TO_SRC);
        uint32_t d = unpack_ok(DF_INT16, DF_INT16, x, 0, TO_DST);
        CHECK(&tl, s == lay_src_int16(x), "INT16 %#x Src: got %#x", x, s);
        CHECK(&tl, d == x, "INT16 %#x Dst: got %#x", x, d);
        CHECK(&tl, fmt_src_to_int16(s) == x, "INT16 %#x back from Src", x);
    }
    DONE(tl);
}

/* ---- exhaustive 8-bit inputs ------------------------------------------------------------- */

Test(formats_exhaustive, fp8_e5m2)
{
    struct tally tl = {0};
    for (uint32_t b = 0; b < 256; b++) {
        struct val v = dec_e5(b, 2); /* FP8 is FP16 with two mantissa bits */
        for (int dst = 0; dst < 2; dst++) {
            uint32_t got = unpack_ok(DF_FP8, DF_FP8, b, 0, dst ? TO_DST : TO_SRC);
            uint32_t want = want_fp16(v, dst);
            CHECK(&tl, got == want, "FP8 %#x %s: got %#x want %#x", b, dst ? "Dst" : "Src", got,
                  want);
        }
    }
    DONE(tl);
}

/* Blackhole E5M2: as Wormhole, except that exponent and mantissa all ones (0x7F, 0xFF) fill the
 * rest of the FP16 mantissa with ones (docs/formats.md choice 2). */
Test(formats_exhaustive, fp8_e5m2_blackhole)
{
    struct tally tl = {0};
    struct fmt_unpack_mode src = {.fp8_ones_fill = true}, dst = {.to_dst = true, .fp8_ones_fill = true};
    for (uint32_t b = 0; b < 256; b++) {
        unsigned sign = b >> 7, exp = (b >> 2) & 0x1F, man = (b & 3) << 8 | ((b & 0x7F) == 0x7F ? 0xFF : 0);
        uint32_t gs = unpack_ok(DF_FP8, DF_FP8, b, 0, src), gd = unpack_ok(DF_FP8, DF_FP8, b, 0, dst);
        CHECK(&tl, gs == lay_src_e5(sign, exp, man), "E5M2 %#x Src: got %#x", b, gs);
        CHECK(&tl, gd == lay_dst_fp16(sign, exp, man), "E5M2 %#x Dst: got %#x", b, gd);
    }
    DONE(tl);
    cr_expect_eq(fmt_fp16_to_fp32_bits(0x7FFF), 0x47FFE000u); /* 131008, the largest FP16 */
}

/* Blackhole FP8 E4M3 (docs/formats.md choice 2): bias 7 rebiased to 15 (exponent field e becomes
 * e + 8), the three mantissa bits on top of the FP16 mantissa; exponent 0 keeps its mantissa bits
 * under exponent 0; S.1111.111 fills the rest of the mantissa with ones. */
Test(formats_exhaustive, fp8_e4m3_blackhole)
{
    struct tally tl = {0};
    struct fmt_unpack_mode src = {.fp8_e4m3 = true}, dst = {.to_dst = true, .fp8_e4m3 = true};
    for (uint32_t b = 0; b < 256; b++) {
        unsigned sign = b >> 7, e = (b >> 3) & 0xF, m = b & 7;
        unsigned exp = e ? e + 8 : 0, man = m << 7 | ((b & 0x7F) == 0x7F ? 0x7F : 0);
        uint32_t gs = unpack_ok(DF_FP8, DF_FP8, b, 0, src), gd = unpack_ok(DF_FP8, DF_FP8, b, 0, dst);
        CHECK(&tl, gs == lay_src_e5(sign, exp, man), "E4M3 %#x Src: got %#x", b, gs);
        CHECK(&tl, gd == lay_dst_fp16(sign, exp, man), "E4M3 %#x Dst: got %#x", b, gd);
    }
    DONE(tl);
    cr_expect_eq(fmt_e4m3_to_fp16(0x7F), 0x5FFF); /* 511.75 */
    cr_expect_eq(fmt_e4m3_to_fp16(0xFF), 0xDFFF);
    cr_expect_eq(fmt_e4m3_to_fp16(0x7E), 0x5F00); /* 448 */
    cr_expect_eq(fmt_e4m3_to_fp16(0x08), 0x2400); /* 2^-6 */
    cr_expect_eq(fmt_e4m3_to_fp16(0x05), 0x0280); /* exponent 0: the bits, read as zero */
    cr_expect_eq(fmt_e4m3_to_fp16(0x85), 0x8280);
}

Test(formats_exhaustive, int8_signed_and_unsigned)
{
    struct tally tl = {0};
    struct fmt_unpack_mode us = {.int8_unsigned = true};
    struct fmt_unpack_mode ud = {.to_dst = true, .int8_unsigned = true};
    for (uint32_t b = 0; b < 256; b++) {
        unsigned s = b >> 7, mag = b & 0x7F;
        uint32_t got;
        got = unpack_ok(DF_INT8, DF_INT8, b, 0, TO_SRC);
        CHECK(&tl, got == lay_src_int8(s, mag), "INT8 %#x Src: got %#x", b, got);
        got = unpack_ok(DF_INT8, DF_INT8, b, 0, TO_DST);
        CHECK(&tl, got == lay_dst_int8(s, mag), "INT8 %#x Dst: got %#x", b, got);
        got = unpack_ok(DF_INT8, DF_INT8, b, 0, us);
        CHECK(&tl, got == lay_src_int8(0, b), "UINT8 %#x Src: got %#x", b, got);
        got = unpack_ok(DF_INT8, DF_INT8, b, 0, ud);
        CHECK(&tl, got == lay_dst_int8(0, b), "UINT8 %#x Dst: got %#x", b, got);
        /* the overlay reads back as the integer */
        int want = s ? -(int)mag : (int)mag;
        CHECK(&tl, fmt_int8_overlay_value(fmt_int8_to_fp16_overlay((uint8_t)b, false)) == want,
              "INT8 %#x value", b);
        CHECK(&tl, fmt_int8_overlay_value(fmt_int8_to_fp16_overlay((uint8_t)b, true)) == (int)b,
              "UINT8 %#x value", b);
    }
    DONE(tl);
}

/* ---- BFP: every datum with every shared exponent ------------------------------------------ */

static const unsigned bfp_b[3] = {DF_BFP8, DF_BFP4, DF_BFP2};
static const unsigned bfp_a[3] = {DF_BFP8A, DF_BFP4A, DF_BFP2A};

Test(formats_exhaustive, bfp_b_exponent_family)
{
    struct tally tl = {0};
    for (int k = 0; k < 3; k++) {
        unsigned f = bfp_b[k], nbits = df_datum_bits(f);
        for (uint32_t d = 0; d < (1u << nbits); d++)
            for (unsigned e = 0; e < 256; e++) {
                struct val v = {0};
                v.sign = d >> (nbits - 1);
                v.mag = bfp_mag(d, nbits, e, 127);
                if (v.mag == 0 && v.sign) { /* "-2^128 or -Infinity": BF16 0xFF80 */
                    v.special = true;
                    v.raw_man = 0;
                }
                for (int dst = 0; dst < 2; dst++) {
                    uint32_t got = unpack_ok(f, f, d, (uint8_t)e, dst ? TO_DST : TO_SRC);
                    /* The normalised exponent is 8-bit and wraps below zero (uint8_t
                     * arithmetic in BFP8ToBF16). */
                    uint32_t want = want_bf16(v, dst, true);
                    CHECK(&tl, got == want, "%s %#x exp %u %s: got %#x want %#x", df_name(f), d,
                          e, dst ? "Dst" : "Src", got, want);
                }
            }
    }
    DONE(tl);
}

Test(formats_exhaustive, bfp_a_exponent_family)
{
    struct tally tl = {0};
    unsigned ub = 0;
    for (int k = 0; k < 3; k++) {
        unsigned f = bfp_a[k], nbits = df_datum_bits(f);
        for (uint32_t d = 0; d < (1u << nbits); d++)
            for (unsigned e = 0; e < 256; e++) {
                struct val v = {0};
                v.sign = d >> (nbits - 1);
                v.mag = bfp_mag(d, nbits, e, 15);
                bool want_ub = false;
                if (v.mag == 0 && v.sign) {
                    v.mag = 65536.0; /* WH:FloatBitPatterns.md: -2^16 */
                } else if (v.mag != 0) {
                    int biased = ilog2d(v.mag) + 15;
                    want_ub = biased < 0 || biased > 31; /* leaves the 5-bit field */
                }
                for (int dst = 0; dst < 2; dst++) {
                    uint32_t got = 0;
                    enum fmt_status st =
                        fmt_unpack_datum(f, f, d, (uint8_t)e, dst ? TO_DST : TO_SRC, &got);
                    if (want_ub) {
                        ub++;
                        CHECK(&tl, st == FMT_UB_EXPONENT, "%s %#x exp %u: status %d", df_name(f),
                              d, e, st);
                        continue;
                    }
                    uint32_t want = want_fp16_from(v, dst, true);
                    CHECK(&tl, st == FMT_OK && got == want, "%s %#x exp %u %s: got %#x want %#x",
                          df_name(f), d, e, dst ? "Dst" : "Src", got, want);
                }
            }
    }
    DONE(tl);
    cr_expect_gt(ub, 0u);
}

/* ---- 32-bit inputs: 1e6 pseudo-random patterns ------------------------------------------ */

static uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#define NRAND 1000000

/* FP32 -> TF32: Src keeps the top 19 bits (no flush); Dst keeps all 32 (TF32 means FP32). */
static void check_fp32_tf32(struct tally *tl, uint32_t x)
{
    struct val v = dec_e8(x, 23);
    uint32_t src = unpack_ok(DF_FP32, DF_TF32, x, 0, TO_SRC);
    uint32_t dst = unpack_ok(DF_FP32, DF_TF32, x, 0, TO_DST);
    uint32_t dst32 = unpack_ok(DF_FP32, DF_FP32, x, 0, TO_DST);
    uint32_t ws, wd;
    if (v.special) {
        ws = lay_src_e8(v.sign, 255, v.raw_man >> 13);
        wd = lay_dst_fp32(v.sign, 255, v.raw_man);
    } else {
        struct fields t = encode(truncate_to(v.mag, 127, 10), 127, 8, 10, false);
        struct fields w = encode(v.mag, 127, 8, 23, false);
        ws = lay_src_e8(v.sign, t.exp, t.man);
        wd = lay_dst_fp32(v.sign, w.exp, w.man);
    }
    CHECK(tl, src == ws, "FP32 %#x -> TF32 Src: got %#x want %#x", x, src, ws);
    CHECK(tl, dst == wd, "FP32 %#x -> TF32 Dst: got %#x want %#x", x, dst, wd);
    CHECK(tl, dst32 == wd, "FP32 %#x -> FP32 Dst: got %#x want %#x", x, dst32, wd);
    CHECK(tl, unpack_ok(DF_TF32, DF_TF32, x, 0, TO_DST) == wd, "TF32 %#x -> Dst", x);
}

/* FP32 -> BF16: denormals become a signed zero, then the mantissa is truncated. */
static void check_fp32_bf16(struct tally *tl, uint32_t x)
{
    struct val v = dec_e8(x, 23);
    struct val b = v;
    if (v.special)
        b.raw_man = v.raw_man >> 16;
    else
        b.mag = v.mag < ldexp(1.0, -126) ? 0.0 : truncate_to(v.mag, 127, 7);
    for (int dst = 0; dst < 2; dst++) {
        uint32_t got = unpack_ok(DF_FP32, DF_BF16, x, 0, dst ? TO_DST : TO_SRC);
        uint32_t want = want_bf16(b, dst, false);
        CHECK(tl, got == want, "FP32 %#x -> BF16 %s: got %#x want %#x", x, dst ? "Dst" : "Src",
              got, want);
    }
}

/* FP32 -> FP16 as chosen in docs/formats.md: Inf/NaN and |x| >= 2^17 saturate to exponent 31,
 * mantissa 1023; |x| < 2^-14 becomes a signed zero; otherwise the mantissa is truncated. */
static void check_fp32_fp16(struct tally *tl, uint32_t x)
{
    struct val v = dec_e8(x, 23);
    struct val h = {.sign = v.sign};
    if (v.special || v.mag >= 131072.0)
        h.mag = ldexp(2047.0, 6); /* (2 - 2^-10) * 2^16 */
    else if (v.mag >= ldexp(1.0, -14))
        h.mag = truncate_to(v.mag, 15, 10);
    for (int dst = 0; dst < 2; dst++) {
        uint32_t got = unpack_ok(DF_FP32, DF_FP16, x, 0, dst ? TO_DST : TO_SRC);
        uint32_t want = want_fp16(h, dst);
        CHECK(tl, got == want, "FP32 %#x -> FP16 %s: got %#x want %#x", x, dst ? "Dst" : "Src",
              got, want);
    }
}

static void check_int32(struct tally *tl, uint32_t x)
{
    uint32_t got = unpack_ok(DF_INT32, DF_INT32, x, 0, TO_DST);
    uint32_t want = lay_dst_int32(x >> 31, x & 0x7FFFFFFF);
    CHECK(tl, got == want, "INT32 %#x -> Dst: got %#x want %#x", x, got, want);
    int64_t val = (x >> 31) ? -(int64_t)(x & 0x7FFFFFFF) : (int64_t)(x & 0x7FFFFFFF);
    CHECK(tl, fmt_sm32_value(fmt_dst_to_fp32(got)) == val, "INT32 %#x value", x);
}

/* Hand-picked 32-bit patterns every run sees besides the random ones. */
static const uint32_t fp32_edges[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
    0x80800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
    0x7F800001, 0x7FC00000, 0xFFFFFFFF, 0x7F801FFF, 0x7F80E000, 0x477FE000, 0x47800000,
    0x47FFE000, 0x47FFFFFF, 0x48000000, 0x38800000, 0x387FFFFF, 0x38000000, 0x33800000,
    0x3F802000, 0x3F801FFF, 0x3F80FFFF, 0x3F810000,
};

Test(formats_random, fp32_inputs)
{
    struct tally tl = {0};
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < sizeof fp32_edges / sizeof *fp32_edges; i++) {
        check_fp32_tf32(&tl, fp32_edges[i]);
        check_fp32_bf16(&tl, fp32_edges[i]);
        check_fp32_fp16(&tl, fp32_edges[i]);
    }
    for (int i = 0; i < NRAND; i++) {
        uint32_t x = (uint32_t)(xorshift64(&seed) >> 16);
        check_fp32_tf32(&tl, x);
        check_fp32_bf16(&tl, x);
        check_fp32_fp16(&tl, x);
    }
    DONE(tl);
}

Test(formats_random, fp32_in_fp16_range)
{
    /* Random patterns rarely land where FP32->FP16 is interesting; draw exponents near it. */
    struct tally tl = {0};
    uint64_t seed = 12345;
    for (int i = 0; i < NRAND / 4; i++) {
        uint32_t r = (uint32_t)xorshift64(&seed);
        uint32_t exp = 127 - 17 + (r >> 24) % 36; /* 2^-17 .. 2^18 */
        uint32_t x = (r & 0x807FFFFF) | exp << 23;
        check_fp32_fp16(&tl, x);
    }
    DONE(tl);
}

Test(formats_random, int32_inputs)
{
    struct tally tl = {0};
    uint64_t seed = 0xC0FFEE;
    check_int32(&tl, 0);
    check_int32(&tl, 0x80000000);
    check_int32(&tl, 0x7FFFFFFF);
    check_int32(&tl, 0xFFFFFFFF);
    for (int i = 0; i < NRAND; i++)
        check_int32(&tl, (uint32_t)(xorshift64(&seed) >> 11));
    DONE(tl);
}

/* ---- hand-written edge cases ------------------------------------------------------------- */

Test(formats, fp32_edge_cells)
{
    /* 1.0: exponent 127, mantissa 0 */
    cr_expect_eq(unpack_ok(DF_FP32, DF_TF32, 0x3F800000, 0, TO_SRC), 0x0007Fu);
    cr_expect_eq(unpack_ok(DF_FP32, DF_FP32, 0x3F800000, 0, TO_DST), 0x007F0000u);
    cr_expect_eq(unpack_ok(DF_FP32, DF_FP32, 0x3FFFFFFF, 0, TO_DST), 0x7F7FFFFFu);
    /* -0 keeps its sign everywhere */
    cr_expect_eq(unpack_ok(DF_FP32, DF_BF16, 0x80000000, 0, TO_SRC), 0x40000u);
    cr_expect_eq(unpack_ok(DF_FP32, DF_FP16, 0x80000000, 0, TO_DST), 0x8000u);
    /* FP32 denormals: flushed on the way to BF16, kept (truncated) on the way to TF32 */
    cr_expect_eq(unpack_ok(DF_FP32, DF_BF16, 0x807FFFFF, 0, TO_SRC), 0x40000u);
    cr_expect_eq(unpack_ok(DF_FP32, DF_TF32, 0x007FFFFF, 0, TO_SRC), 0x3FF00u);
    cr_expect_eq(unpack_ok(DF_FP32, DF_TF32, 0x00000001, 0, TO_SRC), 0x00000u);
    /* Inf stays the Inf pattern in 8-bit-exponent types; NaN with only low mantissa bits
     * becomes the Inf pattern through truncation */
    cr_expect_eq(unpack_ok(DF_FP32, DF_BF16, 0x7F800000, 0, TO_SRC), 0x000FFu);
    cr_expect_eq(unpack_ok(DF_FP32, DF_BF16, 0x7F800001, 0, TO_DST), 0x00FFu);
    cr_expect_eq(unpack_ok(DF_FP32, DF_TF32, 0x7FC00000, 0, TO_SRC), 0x200FFu);
    /* FP32 -> FP16 (our choice): Inf saturates, 65536 fits exponent 31, 2^17 saturates */
    cr_expect_eq(fmt_fp32_to_fp16(0xFF800000), 0xFFFF);
    cr_expect_eq(fmt_fp32_to_fp16(0x47800000), 0x7C00);
    cr_expect_eq(fmt_fp32_to_fp16(0x48000000), 0x7FFF);
    cr_expect_eq(fmt_fp32_to_fp16(0x38800000), 0x0400); /* 2^-14 */
    cr_expect_eq(fmt_fp32_to_fp16(0xB87FFFFF), 0x8000); /* just below: signed zero */
    cr_expect_eq(unpack_ok(DF_FP32, DF_FP16, 0x7F800000, 0, TO_SRC), 0x3FF1Fu);
}

Test(formats, bfp_edge_cells)
{
    /* exponent 0, smallest magnitude: shifted by 6, the exponent wraps to 250 */
    cr_expect_eq(fmt_bfp8_to_bf16(0x01, 0), (250u << 7));
    cr_expect_eq(unpack_ok(DF_BFP8, DF_BFP8, 0x01, 0, TO_SRC), 0x000FAu);
    /* exponent 255, largest magnitude: 127/64 * 2^128 as BF16 0x7FFE */
    cr_expect_eq(fmt_bfp8_to_bf16(0x7F, 255), 0x7FFE);
    cr_expect_eq(unpack_ok(DF_BFP8, DF_BFP8, 0x7F, 255, TO_SRC), 0x3F0FFu);
    /* normalised exponent exactly 0: the leading one is dropped, the pattern reads as zero */
    cr_expect_eq(fmt_bfp8_to_bf16(0x01, 6), 0x0000);
    cr_expect_eq(fmt_bfp8_to_bf16(0x83, 5), 0x8040);
    /* sign with zero magnitude: BF16 0xFF80 whatever the exponent */
    cr_expect_eq(fmt_bfp8_to_bf16(0x80, 3), 0xFF80);
    cr_expect_eq(unpack_ok(DF_BFP2, DF_BFP2, 0x2, 77, TO_DST), lay_dst_bf16(1, 255, 0));
    /* BFP4 0x7 = +7/4, BFP2 0x1 = +1 */
    cr_expect_eq(fmt_bfp8_to_bf16(0x70, 127), 0x3FE0);
    cr_expect_eq(unpack_ok(DF_BFP2, DF_BFP2, 0x1, 127, TO_DST), lay_dst_bf16(0, 127, 0));
    /* BFP8a: 1.0 with exponent 15; high exponent bits are undefined unless the datum is 0 */
    uint16_t h = 0;
    cr_expect_eq(fmt_bfp8a_to_fp16(0x40, 15, &h), FMT_OK);
    cr_expect_eq(h, 0x3C00);
    cr_expect_eq(fmt_bfp8a_to_fp16(0x40, 0x20, &h), FMT_UB_EXPONENT);
    cr_expect_eq(fmt_bfp8a_to_fp16(0x01, 5, &h), FMT_UB_EXPONENT); /* 5 - 6 wraps */
    cr_expect_eq(fmt_bfp8a_to_fp16(0x01, 6, &h), FMT_OK); /* 6 - 6 = 0: reads as zero */
    cr_expect_eq(h, 0);
    cr_expect_eq(fmt_bfp8a_to_fp16(0x00, 0xFF, &h), FMT_OK);
    cr_expect_eq(h, 0);
    cr_expect_eq(fmt_bfp8a_to_fp16(0x80, 0xFF, &h), FMT_OK);
    cr_expect_eq(h, 0xFC00);
}

Test(formats, other_edge_cells)
{
    cr_expect_eq(unpack_ok(DF_INT8, DF_INT8, 0x85, 0, TO_SRC), 0x40510u); /* -5 */
    cr_expect_eq(unpack_ok(DF_INT8, DF_INT8, 0x80, 0, TO_SRC), 0x40000u); /* -0: no exponent */
    struct fmt_unpack_mode u = {.int8_unsigned = true};
    cr_expect_eq(unpack_ok(DF_INT8, DF_INT8, 0x85, 0, u), 0x08510u); /* 133 */
    cr_expect_eq(unpack_ok(DF_FP8, DF_FP8, 0x7B, 0, TO_SRC), 0x3001Eu);
    cr_expect_eq(unpack_ok(DF_FP16, DF_FP16, 0x7C00, 0, TO_DST), 0x001Fu);
    cr_expect_eq(unpack_ok(DF_FP16, DF_FP16, 0x0001, 0, TO_DST), 0x0020u); /* denormal kept */
    cr_expect_eq(unpack_ok(DF_BF16, DF_BF16, 0x3F80, 0, TO_DST), 0x007Fu);
    cr_expect_eq(unpack_ok(DF_BF16, DF_BF16, 0xBF81, 0, TO_SRC), 0x4087Fu);
    cr_expect_eq(unpack_ok(DF_INT16, DF_INT16, 0xFFFF, 0, TO_SRC), 0x7F8FFu);
}

/* ---- L1 rows ------------------------------------------------------------------------------ */

Test(formats, read_datum_packing)
{
    const uint8_t b[8] = {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB, 0xED, 0x0F};
    cr_expect_eq(fmt_read_datum(b, DF_BFP4, 0), 0x1u);
    cr_expect_eq(fmt_read_datum(b, DF_BFP4, 1), 0x2u);
    cr_expect_eq(fmt_read_datum(b, DF_BFP4A, 5), 0x6u);
    cr_expect_eq(fmt_read_datum(b, DF_BFP2, 0), 0x1u); /* 0x21 = 00 10 00 01 */
    cr_expect_eq(fmt_read_datum(b, DF_BFP2, 1), 0x0u);
    cr_expect_eq(fmt_read_datum(b, DF_BFP2, 2), 0x2u);
    cr_expect_eq(fmt_read_datum(b, DF_BFP2A, 7), 0x1u); /* 0x43 = 01 00 00 11 */
    cr_expect_eq(fmt_read_datum(b, DF_INT8, 3), 0x87u);
    cr_expect_eq(fmt_read_datum(b, DF_BF16, 1), 0x8765u);
    cr_expect_eq(fmt_read_datum(b, DF_FP32, 1), 0x0FEDCBA9u);
    cr_expect_eq(fmt_read_exp(b, 15), 0x21);
    cr_expect_eq(fmt_read_exp(b, 16), 0x43);
}

/* A 48-datum BFP4 block: three shared exponents, nibble-packed magnitudes. */
Test(formats, bfp4_row_with_exponent_section)
{
    uint8_t exps[16] = {127, 130, 0};
    uint8_t dat[24];
    uint8_t nib[48];
    for (int i = 0; i < 48; i++)
        nib[i] = (uint8_t)((i * 7 + 3) & 0xF);
    for (int i = 0; i < 24; i++)
        dat[i] = (uint8_t)(nib[2 * i] | nib[2 * i + 1] << 4);
    struct fmt_row r = {.in_fmt = DF_BFP4, .out_fmt = DF_BFP4, .mode = TO_SRC, .datums = dat,
                        .exps = exps};
    uint32_t cells[40];
    unsigned done = 99;
    /* start mid-block: datums 5..44 */
    cr_assert_eq(fmt_unpack_row(&r, 5, 40, cells, &done), FMT_OK);
    cr_expect_eq(done, 40u);
    for (int i = 0; i < 40; i++) {
        int idx = 5 + i;
        struct val v = {0};
        v.sign = nib[idx] >> 3;
        v.mag = bfp_mag(nib[idx], 4, exps[idx / 16], 127);
        if (v.mag == 0 && v.sign)
            v.special = true;
        cr_expect_eq(cells[i], want_bf16(v, false, true), "datum %d", idx);
    }
    /* the same with Force_shared_exp: exponent 140 for all */
    r.exps = NULL;
    r.forced_exp = 140;
    r.mode = TO_DST;
    cr_assert_eq(fmt_unpack_row(&r, 0, 40, cells, NULL), FMT_OK);
    for (int i = 0; i < 40; i++) {
        struct val v = {.sign = nib[i] >> 3u, .mag = bfp_mag(nib[i], 4, 140, 127)};
        if (v.mag == 0 && v.sign)
            v.special = true;
        cr_expect_eq(cells[i], want_bf16(v, true, true), "forced datum %d", i);
    }
}

Test(formats, all_zero_bfp_blocks_are_zero)
{
    uint8_t zeros[16] = {0};
    uint8_t exps[2][16] = {{0}, {255}};
    uint32_t cells[64];
    for (int k = 0; k < 3; k++)
        for (int e = 0; e < 2; e++)
            for (int dst = 0; dst < 2; dst++) {
                unsigned fs[2] = {bfp_b[k], bfp_a[k]};
                for (int a = 0; a < 2; a++) {
                    struct fmt_row r = {.in_fmt = fs[a], .out_fmt = fs[a],
                                        .mode = dst ? TO_DST : TO_SRC, .datums = zeros,
                                        .exps = exps[e]};
                    unsigned n = 16 * 8 / df_datum_bits(fs[a]);
                    n = n > 64 ? 64 : n;
                    memset(cells, 0xAA, sizeof cells);
                    cr_expect_eq(fmt_unpack_row(&r, 0, n, cells, NULL), FMT_OK);
                    for (unsigned i = 0; i < n; i++)
                        cr_expect_eq(cells[i], 0u, "%s exp %d cell %u", df_name(fs[a]),
                                     exps[e][0], i);
                }
            }
}

Test(formats, bfp8a_row_stops_at_undefined_datum)
{
    uint8_t exps[16] = {3}; /* 1.0 needs exponent 15; magnitude 1 needs >= 6 */
    uint8_t dat[16] = {0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01};
    struct fmt_row r = {.in_fmt = DF_BFP8A, .out_fmt = DF_BFP8A, .datums = dat, .exps = exps};
    uint32_t cells[16];
    unsigned done = 99;
    /* 0x40 (shift 0), 0x20 (1), 0x10 (2), 0x08 (3) fit; 0x04 needs exponent 3-4 < 0 */
    cr_expect_eq(fmt_unpack_row(&r, 0, 16, cells, &done), FMT_UB_EXPONENT);
    cr_expect_eq(done, 4u);
    cr_expect_eq(cells[3], lay_src_e5(0, 0, 0));
    cr_expect_eq(cells[0], lay_src_e5(0, 3, 0));
}

Test(formats, fp32_and_bf16_rows_read_little_endian)
{
    const uint8_t f32[8] = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0}; /* 1.0, -2.0 */
    uint32_t cells[4];
    struct fmt_row r = {.in_fmt = DF_FP32, .out_fmt = DF_BF16, .mode = TO_SRC, .datums = f32};
    cr_assert_eq(fmt_unpack_row(&r, 0, 2, cells, NULL), FMT_OK);
    cr_expect_eq(cells[0], lay_src_e8(0, 127, 0));
    cr_expect_eq(cells[1], lay_src_e8(1, 128, 0));
    const uint8_t b16[4] = {0x80, 0x3F, 0xC0, 0xBF}; /* 1.0, -1.5 */
    r.in_fmt = r.out_fmt = DF_BF16;
    r.mode = TO_DST;
    r.datums = b16;
    cr_assert_eq(fmt_unpack_row(&r, 0, 2, cells, NULL), FMT_OK);
    cr_expect_eq(cells[0], lay_dst_bf16(0, 127, 0));
    cr_expect_eq(cells[1], lay_dst_bf16(1, 127, 0x40));
    r.in_fmt = r.out_fmt = DF_FP32; /* FP32 kept only for Dst */
    r.datums = f32;
    r.mode = TO_SRC;
    unsigned done = 9;
    cr_expect_eq(fmt_unpack_row(&r, 0, 2, cells, &done), FMT_UB_TARGET);
    cr_expect_eq(done, 0u);
}

/* ---- reverse helpers ---------------------------------------------------------------------- */

static double as_double(uint32_t fp32)
{
    float f;
    memcpy(&f, &fp32, sizeof f);
    return f;
}

Test(formats_reverse, fp16_and_bf16_values)
{
    struct tally tl = {0};
    for (uint32_t x = 0; x < 0x10000; x++) {
        struct val h = dec_e5(x, 10);
        double want = h.sign ? -h.mag : h.mag;
        uint32_t got = fmt_fp16_to_fp32_bits((uint16_t)x);
        CHECK(&tl, as_double(got) == want && (got >> 31) == h.sign, "FP16 %#x -> %#x", x, got);
        struct val b = dec_e8(x, 7);
        got = fmt_bf16_to_fp32_bits((uint16_t)x);
        if (b.special) {
            bool want_inf = b.raw_man == 0;
            CHECK(&tl, want_inf ? isinf(as_double(got)) : isnan(as_double(got)), "BF16 %#x", x);
        } else {
            want = b.sign ? -b.mag : b.mag;
            CHECK(&tl, as_double(got) == want && (got >> 31) == b.sign, "BF16 %#x -> %#x", x, got);
        }
        /* layouts invert */
        CHECK(&tl, fmt_dst_to_fp16(fmt_dst_from_fp16((uint16_t)x)) == x, "Dst FP16 %#x", x);
        CHECK(&tl, fmt_dst_to_bf16(fmt_dst_from_bf16((uint16_t)x)) == x, "Dst BF16 %#x", x);
        CHECK(&tl, fmt_src_to_fp16(fmt_src_from_fp16((uint16_t)x)) == x, "Src FP16 %#x", x);
        CHECK(&tl, fmt_src_to_tf32(fmt_src_from_bf16((uint16_t)x)) == x << 3, "Src BF16 %#x", x);
    }
    DONE(tl);
}

Test(formats_reverse, tf32_and_fp32_cells)
{
    struct tally tl = {0};
    uint64_t seed = 77;
    for (int i = 0; i < NRAND; i++) {
        uint32_t x = (uint32_t)(xorshift64(&seed) >> 20);
        uint32_t t = x & 0x7FFFF;
        CHECK(&tl, fmt_src_to_tf32(fmt_src_from_tf32(t)) == t, "TF32 %#x", t);
        CHECK(&tl, fmt_tf32_to_fp32_bits(t) == t << 13, "TF32 %#x bits", t);
        uint32_t y = (uint32_t)(xorshift64(&seed) >> 32);
        CHECK(&tl, fmt_dst_to_fp32(fmt_dst_from_fp32(y)) == y, "FP32 %#x", y);
        /* an FP32 value read back from a Dst cell is the value written */
        struct val v = dec_e8(y, 23);
        if (!v.special) {
            double want = v.sign ? -v.mag : v.mag;
            CHECK(&tl, as_double(fmt_dst_to_fp32(unpack_ok(DF_FP32, DF_FP32, y, 0, TO_DST))) ==
                           want,
                  "FP32 %#x value", y);
        }
    }
    DONE(tl);
    cr_expect_eq(fmt_sm32_value(0x80000000), 0);
    cr_expect_eq(fmt_sm32_value(0x80000005), -5);
    cr_expect_eq(fmt_sm32_value(0x7FFFFFFF), 0x7FFFFFFF);
    cr_expect_eq(fmt_int8_overlay_value(0x83FF & 0xFFFF), -1023);
}
