/* pipeline3, tile B (BRISC): the compute stage. Each block from A becomes y = a * x + b (32-bit
 * integer arithmetic on the RISC-V core) in one of B's two send slots, which go on to C. See
 * pipeline3_reader.c for the protocol.
 *
 * Runtime arguments (CHIP_ARG, at 0x20000): 0 A's x, 1 A's y, 2 C's x, 3 C's y, 4 the number of
 * blocks, 5 a, 6 b. Everything goes over NoC 0. */
#include "chip.h"
#include "pipeline3.h"

#define NOC 0u

int main(void)
{
    df_init();
    const unsigned ax = chip_arg(0), ay = chip_arg(1), cx = chip_arg(2), cy = chip_arg(3);
    const uint32_t n = chip_arg(4), a = chip_arg(5), b = chip_arg(6);

    for (uint32_t i = 0; i < n; i++) {
        df_sem_wait_min(chip_sem(P3_SEM_FULL), i + 1); /* block i is in slot i % 2 */
        const volatile uint32_t *in = chip_l1(P3_IN_SLOT(i % 2));
        volatile uint32_t *out = chip_l1(P3_OUT_SLOT(i % 2)); /* its last block (i - 2) has landed at C */
        for (unsigned w = 0; w < P3_BLOCK_WORDS; w++)
            out[w] = a * in[w] + b;
        df_sem_inc(df_noc_addr(ax, ay, CHIP_SEM_ADDR(P3_SEM_CREDIT), NOC), 1, NOC); /* slot i % 2 is A's again */
        if (i >= 2) /* C's slot i % 2 is free once C has passed on block i - 2 */
            df_sem_wait_min(chip_sem(P3_SEM_CREDIT), i - 1);
        df_write(P3_OUT_SLOT(i % 2), df_noc_addr(cx, cy, P3_IN_SLOT(i % 2), NOC), P3_BLOCK_BYTES, NOC);
        df_write_barrier(NOC);
        df_sem_inc(df_noc_addr(cx, cy, CHIP_SEM_ADDR(P3_SEM_FULL), NOC), 1, NOC);
    }
    df_atomic_barrier(NOC);
    return 0;
}
