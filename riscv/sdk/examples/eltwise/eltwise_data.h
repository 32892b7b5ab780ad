/* The data of the eltwise example, shared by its kernels and the host test that checks it
 * (test/test_pack.c): C_t = A_t + B_t element by element for EW_TILES BF16 tiles of 1024 datums,
 * every tile stored as 64 rows of 16 (the order the unpacker and packer move them in). */
#ifndef ELTWISE_DATA_H
#define ELTWISE_DATA_H

#include <stdint.h>

#define EW_TILES 4
#define EW_A 0x30000u   /* 16-byte header, then the A tiles back to back */
#define EW_B 0x34000u   /* the same for B */
#define EW_OUT 0x40000u /* C tiles, BF16, 2 KiB apart */
#define EW_SEM 0        /* semaphore: tiles the matrix unit has finished */

/* Datum i of tile t of operand `which` (0: A, 1: B) as BF16: exponents 2^-2 .. 2^2. */
static inline uint16_t ew_value(unsigned which, unsigned t, unsigned i)
{
    uint32_t h = (which * 40503u + t * 1024u + i + 1u) * 2654435761u;
    h ^= h >> 16;
    h *= 2246822519u;
    return (uint16_t)((h & 0x8000u) | (125u + (h >> 4 & 3u) + (h >> 6 & 1u)) << 7 | (h >> 20 & 0x7Fu));
}

#endif
