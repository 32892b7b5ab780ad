/* TRISC0: produce BLOCKS blocks of input. */
#include "pipeline.h"

int main(void)
{
    for (uint32_t b = 1; b <= BLOCKS; b++) {
        wait_until(ACK_IN, b - 1); /* previous block taken by TRISC1 */
        for (uint32_t i = 0; i < BLOCK_WORDS; i++)
            SLOT_IN->data[i] = input_value(b, i);
        tensim_fence(); /* data before flag */
        SLOT_IN->seq = b;
    }
    return 0;
}
