/* Shared layout of the three-TRISC pipeline example: TRISC0 ("unpack") produces blocks of input,
 * TRISC1 ("math") transforms them, TRISC2 ("pack") checks and reduces them. Blocks travel
 * through single-slot mailboxes in L1, each guarded by a sequence-number flag. */
#ifndef PIPELINE_H
#define PIPELINE_H

#include <stdint.h>

#include "tensim.h"

#define BLOCKS 8
#define BLOCK_WORDS 64

struct slot {
    volatile uint32_t seq; /* number of the block in data, 0 = empty */
    uint32_t pad[3];       /* keep data on its own 16-byte lines */
    uint32_t data[BLOCK_WORDS];
};

#define SLOT_IN ((struct slot *)(TENSIM_SHARED_BASE + 0x000))
#define SLOT_OUT ((struct slot *)(TENSIM_SHARED_BASE + 0x400))
#define ACK_IN ((volatile uint32_t *)(TENSIM_SHARED_BASE + 0x800))  /* last block TRISC1 took */
#define ACK_OUT ((volatile uint32_t *)(TENSIM_SHARED_BASE + 0x810)) /* last block TRISC2 took */

static inline uint32_t input_value(uint32_t block, uint32_t i) { return block * 1000u + i * 7u + 3u; }
static inline uint32_t transform(uint32_t x) { return x * x / 3u + (x ^ 0x55u); }

static inline void wait_until(const volatile uint32_t *p, uint32_t value)
{
    while (tensim_l1_poll(p) != value)
        ;
}

#endif
