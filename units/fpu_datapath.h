/* The matrix unit's arithmetic as the hardware's datapath does it (docs/numerics.md): pure
 * functions of operands, Dst value, fidelity phase and mode, used by MVMUL, DOTPV, GAPOOL and the
 * ELW* instructions (units/fpu_math.c). Nothing here knows about tiles, registers or layouts.
 *
 * Values travel in two shapes:
 *  - an operand: `sign << 18 | exponent << 10 | mantissa`: the exponent field as the format has
 *    it (8 bits; FP16's 5), ten mantissa bits (BF16's low three already cleared);
 *  - a Dst word: FP32 bit order (sign 31, exponent 30..23, mantissa 22..0). BF16 Dst values are
 *    the upper half of it; FP16 Dst values keep their 5-bit exponent in bits 27..23 and their
 *    mantissa in 22..13 (dp_from_fp16 / dp_to_fp16). */
#ifndef TENSIM_UNITS_FPU_DATAPATH_H
#define TENSIM_UNITS_FPU_DATAPATH_H

#include <stdbool.h>
#include <stdint.h>

/* How one instruction computes. */
struct dp_mode {
    bool dst32; /* FP32 Dst (ALU_ACC_CTRL_Fp32_enabled): no 16-bit rounding of the terms */
    bool exp8;  /* 8-bit exponents (SrcA not FP16/FP8); false: the FP16 datapath */
    bool wh;    /* Wormhole: its renormalisation quirk on a result of -1 ulp */
};

/* An operand whose exponent field is 0 (and SrcB's only when denormals flush): zero. */
static inline bool dp_is_zero(uint32_t op) { return (op & 0x3FFFF) < 0x400; }

/* Dst word from / to the 16-bit FP16 pattern (IEEE bit order). */
static inline uint32_t dp_from_fp16(uint16_t h) { return (uint32_t)(h & 0x8000) << 16 | (uint32_t)(h & 0x7FFF) << 13; }
static inline uint16_t dp_to_fp16(uint32_t w) { return (uint16_t)((w >> 16 & 0x8000) | (w & 0x0FFFE000) >> 13); }

/* The exponent adjustment of a product: the rebias to the Dst's exponent range, less 5 for
 * SrcA's low slice (odd phases) and 7 for SrcB's (phases 2, 3). */
int32_t dp_product_adjust(struct dp_mode m, unsigned phase);

/* The 16 lanes of one side of MVMUL/DOTPV/GAPOOL (a SrcA column or a SrcB row) taken apart
 * for one fidelity phase, once per instruction: each lane's slice, exponent field and sign, and
 * the lanes that are zero (bit k). */
struct dp_lanes {
    int32_t slice[16], exp[16], sign[16];
    /* folded as in dp_cols (below) for the AVX2 row, each 16-bit value twice in a 32-bit word
     * (a 32-bit broadcast is one load; a 16-bit one takes a shuffle too): the exponent, and
     * twice the slice (0 for a zero lane); and the sign as the byte offset of
     * dp_cols.sgn16[sign] from sgn16[0] */
    uint32_t exp16x2[16], mag2_16x2[16], sgn_off[16];
    /* for the AVX-512 rows, lanes 2m and 2m + 1 together: the folded exponents, twice the
     * slices and the signs as 0 or 0xFFFF, 2m's in the low 16 bits; and the parity of the
     * signs of lanes 8g .. 8g + 7 as 0 or 0x80008000 */
    uint32_t exp_pair[8], mag2_pair[8], sgn_pair[8], par[2];
    uint16_t zero;
};
void dp_lanes_a(struct dp_lanes *l, const uint32_t op[16], uint16_t zero, unsigned phase);
void dp_lanes_b(struct dp_lanes *l, const uint32_t op[16], uint16_t zero, unsigned phase);

/* One output of MVMUL/DOTPV/GAPOOL: dst + sum over the 16 lanes of a[k] * b[k], with the
 * slices of `phase` (the phase the lanes were taken apart for). */
uint32_t dp_mvmul(const struct dp_lanes *a, const struct dp_lanes *b, uint32_t dst, unsigned phase,
                  struct dp_mode m);
/* The same for a whole SrcB row against the 16 SrcA columns at once (what MVMUL computes per
 * row), the SrcA side lane by lane with the columns side by side: with AVX2 all 16 columns in
 * one vector of 16-bit lanes (intrinsics, a copy per mode); for SSE4.1 and plain x86-64 in
 * portable SIMD (GCC vector extensions), 8 columns of 32-bit lanes at a time. Each gives exactly
 * dp_mvmul's bits for each column (tests force each one the host has). */
struct dp_cols {
    int32_t slice[16][16], exp[16][16], sign[16][16], zero[16][16]; /* [lane k][column j];
                                                                    * zero: -1 or 0 */
    /* The same folded into 16 bits for the AVX2 row (one vector holds a lane of all 16
     * columns): the exponent, DP_ZERO_EXP for a zero lane; the slice, 0 for a zero lane; and
     * the sign of the product with a SrcB lane of sign s, +1 or -1 ([s][lane k][column j]). */
    int16_t exp16[16][16], mag16[16][16], sgn16[2][16][16];
    /* for the AVX-512 rows: exp16, mag16 and the signs (0 or -1) with lanes 2m and 2m + 1
     * interleaved, element 2j + h column j's lane 2m + h (one aligned load that an instruction
     * takes as its operand; a load across two cache lines costs more); and per column the
     * parity of the signs of lanes 8g .. 8g + 7 as 0 or 0x80008000 */
    _Alignas(64) int16_t exp_il[8][32];
    _Alignas(64) int16_t mag_il[8][32];
    _Alignas(64) int16_t sgnv_il[8][32];
    _Alignas(64) uint32_t par_il[2][16];
};
#define DP_ZERO_EXP (-4096)
/* SrcA's 16 columns from their lanes (dp_lanes_a of each column), or from their operands:
 * op[k][j] lane k of column j (a zero operand makes a zero lane). */
void dp_cols_of(struct dp_cols *c, const struct dp_lanes col[16]);
void dp_cols_set(struct dp_cols *restrict c, const uint32_t (*restrict op)[16], unsigned phase);
enum dp_simd { DP_SIMD_PLAIN, DP_SIMD_SSE41, DP_SIMD_AVX2, DP_SIMD_AVX512 };
/* The best the host has (the matrix unit asks once, at reset). */
enum dp_simd dp_simd_best(void);
void dp_mvmul_row(enum dp_simd s, const struct dp_cols *a, const struct dp_lanes *b,
                  const uint32_t dst[16], uint32_t out[16], unsigned phase, struct dp_mode m);
/* dp_mvmul_row's function for one path and mode, to call it for many rows without choosing each
 * time (it must be called with that mode). */
typedef void dp_row_fn(const struct dp_cols *a, const struct dp_lanes *b, const uint32_t dst[16],
                       uint32_t out[16], unsigned phase, struct dp_mode m);
dp_row_fn *dp_row_for(enum dp_simd s, struct dp_mode m);
/* dp_mvmul_row for n rows against the same SrcA columns: row i is b[i] with Dst words dst[i],
 * into out[i] (out may be dst). What MVMUL calls: the AVX-512 path (AVX512F and AVX512BW, the
 * AVX2 row's steps in 512-bit vectors, two SrcA lanes of the 16 columns in each); the others
 * one row at a time too. Each gives dp_mvmul's bits. */
typedef void dp_rows_fn(const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n,
                        const uint32_t (*dst)[16], uint32_t (*out)[16], unsigned phase,
                        struct dp_mode m);
dp_rows_fn *dp_rows_for(enum dp_simd s, struct dp_mode m);
/* The same rows on Dst cells as the register file stores them (units/dest.h, units/formats.h):
 * row i is b[i] with the 16 cells of physical row p[i] of `bits` (an FP32 value's high half
 * there, its low half in row p[i] + 8, with mode.dst32), read as Dst words the way the matrix
 * unit converts them (fmt_dst_to_bf16 << 16 with the low half below it, or dp_from_fp16 of
 * fmt_dst_to_fp16; a row whose `valid` is false as 0) and written back converted the other
 * way (fmt_dst_from_bf16, fmt_dst_from_fp16), without a pass over the rows each way. The rows
 * p[i] (and p[i] + 8) must be different rows. NULL but for the AVX2 and AVX-512 paths; their
 * cells are those of the conversions and dp_rows_for's function. */
typedef void dp_rows_dst_fn(const struct dp_cols *a, const struct dp_lanes *const b[], unsigned n,
                            uint16_t (*bits)[16], const bool *valid, const unsigned *p, unsigned phase,
                            struct dp_mode m);
dp_rows_dst_fn *dp_rows_dst_for(enum dp_simd s, struct dp_mode m);

/* ELWMUL: dst + a * b (slices of `phase`), rounded into Dst once. */
uint32_t dp_elwmul(uint32_t a, uint32_t b, bool zero_a, bool zero_b, uint32_t dst, unsigned phase,
                   struct dp_mode m);
/* ELWADD (ELWSUB: b with its sign flipped): a + b, plus dst when `accumulate`. A non-zero phase
 * scales the sum by 2^-5 (odd phases) and 2^-7 (phases 2, 3), as WH:ELWADD.md has it. */
uint32_t dp_elwadd(uint32_t a, uint32_t b, bool zero_a, bool zero_b, uint32_t dst, bool accumulate,
                   unsigned phase, struct dp_mode m);

/* The last step of every instruction above: two sums of products (sign, exponent, 25-bit
 * magnitude with the binary point after bit 23) and the Dst value aligned to the largest
 * exponent, added, normalised and rounded into the Dst format. */
uint32_t dp_accumulate(uint32_t sign0, int32_t exp0, uint32_t man0, uint32_t sign1, int32_t exp1,
                       uint32_t man1, uint32_t dst, struct dp_mode m);

#endif
