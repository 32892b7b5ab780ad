/* pipeline3's shared constants and its input (riscv/sdk/examples/chip/pipeline3_*.c; gen.c). */
#ifndef CHIP_PIPELINE3_H
#define CHIP_PIPELINE3_H

#include <stdint.h>

#define P3_BLOCK_BYTES 1024u              /* one block: 256 words */
#define P3_BLOCK_WORDS (P3_BLOCK_BYTES / 4u)
#define P3_BLOCKS 16u                     /* 16 KiB in all */
#define P3_A 3u                           /* the transform: y = a * x + b (mod 2^32) */
#define P3_B 0x1234567u

/* The two slots a tile receives into, and (B) the two it sends from. */
#define P3_IN_SLOT(s) (CHIP_BUF + (s) * P3_BLOCK_BYTES)
#define P3_OUT_SLOT(s) (CHIP_BUF + (2u + (s)) * P3_BLOCK_BYTES)

/* Semaphores (CHIP_SEM_ADDR): blocks that arrived from upstream, and slots that downstream has
 * freed, both counts since the start. */
#define P3_SEM_FULL 0u
#define P3_SEM_CREDIT 1u
/* Inside tile B: blocks BRISC has handed to TRISC0, and blocks TRISC0 has computed. */
#define P3_SEM_TODO 2u
#define P3_SEM_DONE 3u

/* Word k of the input. */
static inline uint32_t p3_input(uint32_t k) { return k * 2654435761u ^ (k >> 3) ^ 0x5A5A0000u; }
static inline uint32_t p3_output(uint32_t k, uint32_t a, uint32_t b) { return a * p3_input(k) + b; }

#endif
