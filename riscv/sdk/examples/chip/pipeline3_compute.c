/* pipeline3, tile B's TRISC0: the computation, y = a * x + b in 32-bit integers on the RISC-V
 * core, one block at a time from B's receive slot i % 2 into its send slot i % 2, as BRISC
 * (pipeline3_mover.c) hands them over. It uses no NoC: only L1 shared with BRISC.
 *
 * Runtime arguments (CHIP_ARG, at 0x20000, shared with BRISC): 4 the number of blocks, 5 a, 6 b. */
#include "chip.h"
#include "pipeline3.h"

int main(void)
{
    const uint32_t n = chip_arg(4), a = chip_arg(5), b = chip_arg(6);
    for (uint32_t i = 0; i < n; i++) {
        while (tensim_l1_poll(chip_sem(P3_SEM_TODO)) < i + 1)
            ;
        const volatile uint32_t *in = chip_l1(P3_IN_SLOT(i % 2));
        volatile uint32_t *out = chip_l1(P3_OUT_SLOT(i % 2));
        for (unsigned w = 0; w < P3_BLOCK_WORDS; w++)
            out[w] = a * in[w] + b;
        tensim_fence(); /* the block is in L1 before DONE says so */
        *chip_sem(P3_SEM_DONE) = i + 1;
    }
    return 0;
}
