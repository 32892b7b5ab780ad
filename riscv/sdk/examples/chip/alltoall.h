/* alltoall's shared constants (riscv/sdk/examples/chip/alltoall.c; gen.c). */
#ifndef CHIP_ALLTOALL_H
#define CHIP_ALLTOALL_H

#include <stdint.h>

#define A2A_MAX_TILES 16u
#define A2A_BLOCK_BYTES 256u /* what one tile sends another: 64 words */
#define A2A_BLOCK_WORDS (A2A_BLOCK_BYTES / 4u)
/* Receive slots, one per sender (by index), then the send buffers, one per receiver. */
#define A2A_RECV(src) (CHIP_BUF + (src) * A2A_BLOCK_BYTES)
#define A2A_SEND(dst) (CHIP_BUF + (A2A_MAX_TILES + (dst)) * A2A_BLOCK_BYTES)
#define A2A_SEM_ARRIVED 0u

/* Word w of the block tile `src` sends tile `dst`: distinct for every pair and word. */
static inline uint32_t a2a_word(uint32_t src, uint32_t dst, uint32_t w)
{
    return src << 24 | dst << 16 | (w * 0x9E37u & 0xFFFFu);
}

#endif
