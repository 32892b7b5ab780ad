/* Unpacking two 32x32 tiles (WH:UNPACR_Regular.md), shared by the two kernels of this example.
 *
 * TRISC0 writes a BF16 tile and a BFP8 tile (Bfp8_b: one shared exponent per 16 datums) to L1,
 * configures the two unpackers through the Config window, and pushes:
 *   phase A: UNPACR unpacker 0 -> SrcA (BF16) and unpacker 1 -> SrcB (BFP8 -> BF16), both with
 *            FlipSrc, handing the banks to the matrix unit;
 *   phase B: the same tiles again through unpacker 0 into Dst: the BF16 tile to Dst rows 0..63,
 *            the BFP8 tile to rows 64..127.
 * It waits for its thread to drain (Manual TTSync) before each reconfiguration: the RISC-V writes
 * Config directly, so a change must not overtake an UNPACR still in the pipe. Then it posts
 * semaphore 0. TRISC1 waits for that semaphore, reads the 2048 Dst values back through the Dst
 * window (BH:Dst.md "RISCV access", BF16) and checks them against values it computes itself; its
 * exit code is the number of mismatches. (Reading SrcA/SrcB back needs MOVA2D/MOVB2D of the
 * matrix unit.) */
#ifndef UNPACK_EXAMPLE_H
#define UNPACK_EXAMPLE_H

#include <stdint.h>

#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

#define TILE_BF16 0x20000u /* 16-byte header, then 1024 BF16 */
#define TILE_BFP8 0x21000u /* 16-byte header, 64 exponent bytes, then 1024 BFP8 datums */
#define DATUMS 1024
#define DONE_SEM 0

/* The BF16 tile: sign from bit 9, exponents 120..135, the low seven bits as mantissa. */
static inline uint16_t bf16_value(unsigned i)
{
    return (uint16_t)((i & 0x200u) << 6 | (120u + (i >> 4 & 15u)) << 7 | (i & 0x7Fu));
}

/* The BFP8 tile: datum i and the exponent of block b (16 datums). */
static inline uint8_t bfp8_datum(unsigned i) { return (uint8_t)(i * 37u + 11u); }
static inline uint8_t bfp8_exp(unsigned b) { return (uint8_t)(120u + (b & 15u)); }

/* BFP8 (8-bit exponent family) to BF16, as the unpacker converts it (seed 001 §3.4): the
 * magnitude is normalised and the exponent lowered by the shift; a zero magnitude is +-0 ... */
static inline uint16_t bfp8_to_bf16(uint8_t d, uint8_t e)
{
    unsigned sign = d >> 7, mag = (d & 0x7Fu) << 1;
    if (!mag)
        return sign ? 0xFF80u : 0; /* ... except that -0 reads as -Inf (WH:FloatBitPatterns.md) */
    unsigned lz = 0;
    while (!(mag & 0x80u))
        mag <<= 1, lz++;
    return (uint16_t)(sign << 15 | ((e - lz) & 0xFFu) << 7 | (mag & 0x7Eu));
}

#endif
