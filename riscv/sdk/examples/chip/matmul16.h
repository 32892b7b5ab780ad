/* matmul16's shared constants and its inputs (riscv/sdk/examples/chip/matmul16.c; gen.c). */
#ifndef CHIP_MATMUL16_H
#define CHIP_MATMUL16_H

#include <stdint.h>

#define MM_GRID 4u                 /* 4 x 4 tiles */
#define MM_M 64u                   /* C (M x N) = A (M x K) x B (K x N), int32, row-major */
#define MM_N 64u
#define MM_K 64u
#define MM_BM (MM_M / MM_GRID)     /* each tile's block of C: 16 x 16 */
#define MM_BN (MM_N / MM_GRID)

/* L1 of every tile: A's row block (16 x 64), B's column block (64 x 16), the C block, and the
 * word 1 that the senders multicast as the "valid" flag. */
#define MM_A_BUF CHIP_BUF
#define MM_B_BUF (CHIP_BUF + 0x1000u)
#define MM_C_BUF (CHIP_BUF + 0x2000u)
#define MM_ONE (CHIP_BUF + 0x2400u)

/* Semaphores: at a row's sender, how many tiles of the row are ready for A (3); at a column's
 * sender, the same for B (3); at every receiver, A's and B's blocks are valid (1). */
#define MM_SEM_A_READY 0u
#define MM_SEM_B_READY 1u
#define MM_SEM_A_VALID 2u
#define MM_SEM_B_VALID 3u

static inline int32_t mm_a(uint32_t r, uint32_t k) { return (int32_t)((r * 7u + k * 3u) % 17u) - 8; }
static inline int32_t mm_b(uint32_t k, uint32_t c) { return (int32_t)((k * 5u + c * 11u) % 13u) - 6; }

#endif
