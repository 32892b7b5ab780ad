/* TRISC2: check every transformed block against its own computation and report. */
#include <stdio.h>

#include "pipeline.h"

int main(void)
{
    uint32_t sum = 0, bad = 0;
    uint32_t start = tensim_cycle();
    for (uint32_t b = 1; b <= BLOCKS; b++) {
        wait_until(&SLOT_OUT->seq, b);
        for (uint32_t i = 0; i < BLOCK_WORDS; i++) {
            uint32_t v = SLOT_OUT->data[i];
            bad += v != transform(input_value(b, i));
            sum += v;
        }
        tensim_fence();
        *ACK_OUT = b;
    }
    printf("pipeline: %u blocks of %u words made by TRISC0, transformed by TRISC1, received by "
           "TRISC2 in %lu cycles (checksum 0x%08lx); each word checked against the transform "
           "computed here, %lu mismatches: %s\n",
           BLOCKS, BLOCK_WORDS, (unsigned long)(tensim_cycle() - start), (unsigned long)sum,
           (unsigned long)bad, bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
