/* TRISC1: take each input block, transform it, hand it on. */
#include "pipeline.h"

int main(void)
{
    for (uint32_t b = 1; b <= BLOCKS; b++) {
        wait_until(&SLOT_IN->seq, b);
        uint32_t tmp[BLOCK_WORDS];
        for (uint32_t i = 0; i < BLOCK_WORDS; i++)
            tmp[i] = transform(SLOT_IN->data[i]);
        tensim_fence();
        *ACK_IN = b;
        wait_until(ACK_OUT, b - 1);
        for (uint32_t i = 0; i < BLOCK_WORDS; i++)
            SLOT_OUT->data[i] = tmp[i];
        tensim_fence();
        SLOT_OUT->seq = b;
    }
    return 0;
}
