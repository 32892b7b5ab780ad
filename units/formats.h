/* Number formats: the 4-bit data format codes, the L1 datum layouts, and the bit-exact
 * conversions the unpackers perform from L1 datums to SrcA/SrcB and Dst cells, plus the reverse
 * decodings tests and the RISC-V Dst window use. docs/formats.md lists every rule and its source.
 *
 * Sources (tt-isa-documentation, WH: = WormholeB0/TensixTile/TensixCoprocessor/,
 * BH: = BlackholeA0/TensixTile/TensixCoprocessor/):
 *   WH:Unpackers/FormatConversion.md  which in/out pairs exist, the code table
 *   WH:UNPACR_Regular.md              FormatConversion and its helpers (the functional model)
 *   WH:FloatBitPatterns.md            meaning of every bit pattern, the BFP conversions
 *   WH:SrcASrcB.md, WH:Dst.md         register data types and their bit layouts
 *   seed 001 section 3 and seed 000 sections 1.3, 2.2 restate the above.
 *
 * Everything here is pure integer bit manipulation on values; nothing allocates, nothing is
 * global. A Src cell is 19 bits held in a uint32_t; a Dst16b cell 16 bits, a Dst32b cell 32. */
#ifndef TENSIM_UNITS_FORMATS_H
#define TENSIM_UNITS_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- format codes ------------------------------------------------------------------------ */

/* The 4-bit InDataFormat / OutDataFormat field (WH:Unpackers/FormatConversion.md code table):
 * bits 3:2 pick the row, bits 1:0 the column. 0xC and 0xD name no format. */
enum data_format {
    DF_FP32 = 0x0,
    DF_FP16 = 0x1,  /* LLK "Float16" (the "a" exponent family) */
    DF_BFP8A = 0x2, /* LLK "Bfp8" */
    DF_BFP4A = 0x3, /* LLK "Bfp4" */
    DF_TF32 = 0x4,
    DF_BF16 = 0x5,  /* LLK "Float16_b" */
    DF_BFP8 = 0x6,  /* LLK "Bfp8_b" */
    DF_BFP4 = 0x7,  /* LLK "Bfp4_b" */
    DF_INT32 = 0x8,
    DF_INT16 = 0x9,
    DF_FP8 = 0xA,   /* FP8 E5M2, LLK "Lf8"; E4M3 on Blackhole with Unp_LF8_4b_exp set */
    DF_BFP2A = 0xB, /* LLK "Bfp2" */
    DF_INT8 = 0xE,  /* sign-magnitude, or UINT8 with ALU_FORMAT_SPEC_REG0_Src?Unsigned */
    DF_BFP2 = 0xF,  /* LLK "Bfp2_b" */

    /* Software (LLK DataFormat) values that are not field encodings: the field holds the low
     * four bits and the difference is chosen by another configuration bit. */
    DF_UINT16 = 0x09,   /* same field as INT16 (opaque 16 bits) */
    DF_UINT32 = 0x18,   /* field INT32 */
    DF_FP8_E4M3 = 0x1A, /* field FP8 + THCON_SECn_REG1_Unp_LF8_4b_exp (Blackhole only) */
    DF_UINT8 = 0x1E,    /* field INT8 + ALU_FORMAT_SPEC_REG0_SrcAUnsigned/SrcBUnsigned */
};

#define DF_FIELD_MASK 0xFu
#define DF_NAME_COUNT 32 /* df_name accepts 0..31 (field codes and software values) */

/* "FP32", "BFP8a", ... for a field code or software value; "?" for anything without a name. */
const char *df_name(unsigned code);
/* The 4-bit field a software value is written as. */
static inline unsigned df_field(unsigned code) { return code & DF_FIELD_MASK; }
/* A 4-bit code that names a format (not 0xC, 0xD, not above 15). */
bool df_is_valid(unsigned code);
/* Bits one datum occupies in L1: 32, 16, 8, 4 or 2; 0 for an invalid code. */
unsigned df_datum_bits(unsigned code);
bool df_is_bfp(unsigned code);   /* any of the six block formats */
bool df_is_bfp_a(unsigned code); /* BFP8a/4a/2a: 5-bit shared exponents */
/* The Dst32b view is used for this OutDataFormat (FP32, TF32, INT32); Dst16b otherwise. */
bool df_dst_is_32b(unsigned out_code);
/* Does the format move through Src and the SFPU as 8-bit-exponent (BF16-style) data: FP32, TF32,
 * BF16, the BFPb formats, INT32, INT16 (WH:MOVB2D.md, WH:SFPLOAD.md "SrcB")? Else FP16-style. */
bool df_exp8(unsigned code);

/* BFP tiles carry one exponent byte per 16 datums, in a section before the datums whose size is
 * rounded up to 16 bytes (WH:UNPACR_Regular.md). BFP8 and BFP8a always have it; BFP4/2 (and the
 * "a" forms) omit it when the tile descriptor's NoBFPExpSection is set; no format has it when
 * Force_shared_exp supplies one exponent for everything. Non-BFP formats never have it. */
bool df_has_exp_section(unsigned code, bool no_bfp_exp_section, bool force_shared_exp);
/* Bytes of that section for num_datums datums (0 when there is none). */
size_t df_exp_section_bytes(unsigned code, size_t num_datums, bool no_bfp_exp_section,
                            bool force_shared_exp);

/* ---- reading L1 ------------------------------------------------------------------------- */

/* Datum `index` of a packed datum section of `code` starting at `sec`. Datums are packed
 * least-significant bit first (WH:UNPACR_Regular.md ReadL1Bytes): a 4-bit datum 2k is the low
 * nibble of byte k, a 2-bit datum 4k+j is bits 2j+1:2j of byte k, wider datums little-endian. */
uint32_t fmt_read_datum(const uint8_t *sec, unsigned code, size_t index);
/* The shared exponent of datum `index`: byte index/16 of the exponent section. The "a" formats
 * use the same byte-per-16-datums layout; only the low five bits are meant to be non-zero. */
static inline uint8_t fmt_read_exp(const uint8_t *exps, size_t index) { return exps[index / 16]; }

/* ---- unpack conversion ------------------------------------------------------------------- */

/* Outcome of a conversion. Anything but FMT_OK is UndefinedBehaviour in the functional model;
 * the caller raises ERR_UNDEF_BEHAVIOUR with fmt_status_text(). */
enum fmt_status {
    FMT_OK = 0,
    FMT_UB_FORMAT,   /* InDataFormat is 0xC or 0xD */
    FMT_UB_PAIR,     /* OutDataFormat is not allowed with this InDataFormat */
    FMT_UB_TARGET,   /* a 32-bit type (FP32, TF32 input, INT32) aimed at SrcA/SrcB */
    FMT_UB_EXPONENT, /* BFPa datum whose normalised exponent does not fit in five bits */
};
const char *fmt_status_text(enum fmt_status s);

/* The configuration besides the two format codes that changes a conversion. */
struct fmt_unpack_mode {
    bool to_dst;        /* Unpacker 0 writing Dst (Unpack_If_Sel / Unpack_if_sel_cntx) */
    bool int8_unsigned; /* ALU_FORMAT_SPEC_REG0_SrcAUnsigned (unpacker 0) / SrcBUnsigned (1) */
    bool fp8_e4m3;      /* Blackhole THCON_SECn_REG1_Unp_LF8_4b_exp: FP8 means E4M3 */
    bool fp8_ones_fill; /* Blackhole: E5M2 0x7F/0xFF widen to FP16 0x7FFF/0xFFFF */
};

/* FormatConversion of WH:UNPACR_Regular.md for one datum. `in` and `out` are 4-bit field codes
 * (pass df_field() of a software value), `datum` holds df_datum_bits(in) bits, `exp` is the
 * shared exponent for BFP input. On FMT_OK, *cell is the 19-bit SrcA/SrcB value, or the Dst16b /
 * Dst32b value (see df_dst_is_32b(out)). */
enum fmt_status fmt_unpack_datum(unsigned in, unsigned out, uint32_t datum, uint8_t exp,
                                 struct fmt_unpack_mode m, uint32_t *cell);
/* The same for a pair fmt_check_pair has passed (the unpacker checks it once per instruction,
 * not per datum). */
enum fmt_status fmt_unpack_datum_checked(unsigned in, unsigned out, uint32_t datum, uint8_t exp,
                                         struct fmt_unpack_mode m, uint32_t *cell);

/* Is (in, out) usable at all for this target, ignoring data (the BFPa exponent check)? */
enum fmt_status fmt_check_pair(unsigned in, unsigned out, bool to_dst);

/* One contiguous run of datums from L1, for the unpacker. */
struct fmt_row {
    unsigned in_fmt, out_fmt;
    struct fmt_unpack_mode mode;
    const uint8_t *datums; /* start of the datum section */
    const uint8_t *exps;   /* start of the exponent section; NULL when Force_shared_exp is set */
    uint8_t forced_exp;    /* UNPn_FORCED_SHARED_EXP_shared_exp, used when exps is NULL */
};

/* Converts datums first .. first+n-1 into cells[0..n-1]. Returns FMT_OK, or the status of the
 * first datum that failed; *done (if not NULL) is then the number converted before it. The
 * caller guarantees both sections cover those datums (no bounds are known here). */
enum fmt_status fmt_unpack_row(const struct fmt_row *r, size_t first, unsigned n, uint32_t *cells,
                               unsigned *done);

/* ---- the steps of the conversion (WH:UNPACR_Regular.md helpers, WH:FloatBitPatterns.md) ---- */

/* BFP8/4/2 datum (already shifted to 8 bits: BFP4 << 4, BFP2 << 6) to BF16. The exponent
 * arithmetic is 8-bit and wraps, as in the document. */
uint16_t fmt_bfp8_to_bf16(uint8_t datum, uint8_t exp);
/* BFP8a/4a/2a datum (8-bit form) to FP16; FMT_UB_EXPONENT when the exponent leaves 5 bits. */
enum fmt_status fmt_bfp8a_to_fp16(uint8_t datum, uint8_t exp, uint16_t *fp16);
/* FP32 to BF16 by truncation, flushing denormals to a signed zero (the FP32->BF16 unpack). */
uint16_t fmt_fp32_to_bf16_flush(uint32_t fp32);
/* FP32 to FP16 for the FP32->FP16 unpack. The documents call FP32ToFP16 without defining it;
 * docs/formats.md explains this choice: truncate the mantissa, flush |x| < 2^-14 to a signed zero,
 * saturate |x| >= 2^17 and Inf/NaN to 0x7FFF with the sign (FP16 exponent 31 is finite here). */
uint16_t fmt_fp32_to_fp16(uint32_t fp32);
/* Blackhole FP8 E4M3 (bias 7) to FP16 (undocumented; docs/formats.md): exponent 0 gives a signed
 * zero, every other pattern (including S.1111.111) is rebiased exactly. */
uint16_t fmt_e4m3_to_fp16(uint8_t e4m3);
/* INT8 (sign-magnitude, or unsigned) to the FP16 overlay "Integer 8": magnitude in the mantissa,
 * raw exponent 16, or 0 when the magnitude is zero. */
uint16_t fmt_int8_to_fp16_overlay(uint8_t datum, bool is_unsigned);

/* Register layouts (WH:SrcASrcB.md and WH:Dst.md "Data type bit layout"). */
/* Src cells (inline: the unpackers convert every datum they write) */
static inline uint32_t fmt_src_from_tf32(uint32_t tf32) /* 19-bit Sign,Exp8,Man10 -> Sign,Man10,Exp8 */
{
    uint32_t sign = tf32 & 0x40000, exp = (tf32 >> 10) & 0xFF, man = tf32 & 0x3FF;
    return sign | man << 8 | exp;
}
static inline uint32_t fmt_src_from_bf16(uint16_t bf16) /* BF16 on TF32 with three zero mantissa bits */
{
    return fmt_src_from_tf32((uint32_t)bf16 << 3);
}
/* Sign,Man10,000,Exp5: the sign moves to bit 18; the 5-bit exponent then lands in the low bits
 * of the 8-bit exponent slot, leaving bits 7:5 zero. */
static inline uint32_t fmt_src_from_fp16(uint16_t fp16)
{
    return fmt_src_from_tf32(((uint32_t)(fp16 & 0x8000) << 3) | (fp16 & 0x7FFF));
}
static inline uint32_t fmt_src_from_int16(uint16_t x) /* Sign,Hi7,000,Lo8 (opaque) */
{
    return ((uint32_t)(x & 0xFF00) << 3) | (x & 0xFF);
}
/* Dst cells (inline: the matrix unit converts every datum it writes) */
static inline uint16_t fmt_dst_from_bf16(uint16_t bf16) /* Sign,Man7,Exp8 */
{
    return (uint16_t)((bf16 & 0x8000) | (bf16 & 0x7F) << 8 | (bf16 >> 7 & 0xFF));
}
static inline uint16_t fmt_dst_from_fp16(uint16_t fp16) /* Sign,Man10,Exp5 */
{
    return (uint16_t)((fp16 & 0x8000) | (fp16 & 0x3FF) << 5 | (fp16 >> 10 & 0x1F));
}
static inline uint32_t fmt_dst_from_fp32(uint32_t fp32) /* Sign,ManHi7,Exp8,ManLo16; also INT32 */
{
    return (uint32_t)fmt_dst_from_bf16((uint16_t)(fp32 >> 16)) << 16 | (fp32 & 0xFFFF);
}

/* ---- reverse: register cells back to ordinary encodings ------------------------------------- */

uint32_t fmt_src_to_tf32(uint32_t cell);  /* 19-bit Sign,Exp8,Man10 */
uint16_t fmt_src_to_fp16(uint32_t cell);  /* ignores the three unused bits */
uint16_t fmt_src_to_int16(uint32_t cell); /* inverse of fmt_src_from_int16 */
static inline uint16_t fmt_dst_to_bf16(uint16_t cell)
{
    return (uint16_t)((cell & 0x8000) | (cell & 0xFF) << 7 | (cell >> 8 & 0x7F));
}
static inline uint16_t fmt_dst_to_fp16(uint16_t cell)
{
    return (uint16_t)((cell & 0x8000) | (cell & 0x1F) << 10 | (cell >> 5 & 0x3FF));
}
static inline uint32_t fmt_dst_to_fp32(uint32_t cell) /* also INT32 sign-magnitude */
{
    return (uint32_t)fmt_dst_to_bf16((uint16_t)(cell >> 16)) << 16 | (cell & 0xFFFF);
}

/* IEEE float32 bits of the value a pattern stands for. TF32 and BF16 widen exactly (Inf and NaN
 * patterns stay Inf/NaN, denormal patterns keep their IEEE value). FP16 follows the coprocessor
 * (WH:FloatBitPatterns.md): exponent 31 is a finite number, not Inf/NaN; denormals keep their
 * IEEE value although the Matrix Unit reads them as zero. Every FP16 value fits FP32 exactly. */
uint32_t fmt_tf32_to_fp32_bits(uint32_t tf32);
uint32_t fmt_bf16_to_fp32_bits(uint16_t bf16);
uint32_t fmt_fp16_to_fp32_bits(uint16_t fp16);

/* The value of an "Integer 8" overlay (sign + 10-bit magnitude) held in FP16 bit order, and of
 * sign-magnitude INT32 bits (-0 reads as 0). */
int32_t fmt_int8_overlay_value(uint16_t fp16);
int32_t fmt_sm32_value(uint32_t sm);

#endif
