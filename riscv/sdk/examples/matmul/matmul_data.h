/* The data of the matmul example, shared by its kernels and by the host test that checks the
 * result (test/test_run.c): tile addresses in L1 and the BF16 operand generator. Plain C with
 * no kernel-side dependencies. */
#ifndef MATMUL_DATA_H
#define MATMUL_DATA_H

#include <stdint.h>

#define MM_TILES 4              /* independent 32x32x32 products C_t = A_t @ B_t */
#define MM_A 0x30000u           /* 16-byte header, then MM_TILES tiles of 1024 BF16 (A_t) */
#define MM_B 0x34000u           /* the same for B_t */
#define MM_OUT 0x40000u         /* C_t as FP32 in Dst32b row order (64 rows x 16), 4 KiB per tile */
#define MM_PARAM 0x3F000u       /* word: fidelity phases 1..4 (anything else: 4, HiFi4) */
#define MM_SEM 0                /* semaphore: tiles the matrix unit has finished issuing */

/* Tiles are stored in face order: four 16x16 faces (rows 0-15 x cols 0-15, rows 0-15 x cols
 * 16-31, rows 16-31 x cols 0-15, rows 16-31 x cols 16-31), each row-major. */
static inline unsigned mm_face_index(unsigned r, unsigned c)
{
    return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16;
}

/* Element (r, c) of operand `which` (0: A, 1: B) of tile t, as BF16 bits: a hash gives the
 * sign and mantissa, the exponent stays within 2^-3 .. 2^3 so that sums are exact in double. */
static inline uint16_t mm_value(unsigned which, unsigned t, unsigned r, unsigned c)
{
    uint32_t h = (which * 7919u + t * 104729u + r * 32u + c + 1u) * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (uint16_t)((h & 0x8000u) | (124u + (h >> 4 & 3u) + (h >> 6 & 3u)) << 7 | (h >> 20 & 0x7Fu));
}

/* The matmul-regions build (-DMATMUL_REGIONS) marks regions (docs/user-guide.md "Regions"):
 * TRISC0 0 filling the operands, 1 the unpack pushes; TRISC1 0 its set-up, 1 each tile's
 * pushes; TRISC2 2 each tile's pushes. The plain build has no marks. */
#ifdef MATMUL_REGIONS
#define REGION_BEGIN(id) tensim_region_begin(id)
#define REGION_END(id) tensim_region_end(id)
#else
#define REGION_BEGIN(id) ((void)0)
#define REGION_END(id) ((void)0)
#endif

#endif
