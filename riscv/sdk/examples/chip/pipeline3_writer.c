/* pipeline3, tile C (BRISC): the writer. Checks each block from B against the expected
 * a * x + b (the input is a formula, pipeline3.h), writes it to DRAM and hands the slot back.
 * See pipeline3_reader.c for the protocol. Exit code 1 and a line naming the first wrong word
 * on a mismatch (the block is still written, so the output file shows the damage).
 *
 * Runtime arguments (CHIP_ARG, at 0x20000): 0 B's x, 1 B's y, 2 the DRAM tile's x, 3 its y,
 * 4 the output's address there, 5 the number of blocks, 6 a, 7 b. Everything goes over NoC 0. */
#include "chip.h"
#include "pipeline3.h"

#define NOC 0u

int main(void)
{
    df_init();
    const unsigned bx = chip_arg(0), by = chip_arg(1), dx = chip_arg(2), dy = chip_arg(3);
    const uint32_t dst = chip_arg(4), n = chip_arg(5), a = chip_arg(6), b = chip_arg(7);
    int bad = 0;

    for (uint32_t i = 0; i < n; i++) {
        df_sem_wait_min(chip_sem(P3_SEM_FULL), i + 1);
        const volatile uint32_t *in = chip_l1(P3_IN_SLOT(i % 2));
        for (unsigned w = 0; w < P3_BLOCK_WORDS && !bad; w++) {
            const uint32_t k = i * P3_BLOCK_WORDS + w, want = p3_output(k, a, b);
            if (in[w] != want)
                bad = chip_fail(1, "pipeline3 output", k, in[w], want);
        }
        df_write(P3_IN_SLOT(i % 2), df_noc_addr(dx, dy, dst + i * P3_BLOCK_BYTES, NOC), P3_BLOCK_BYTES, NOC);
        /* The slot is free as soon as the NIU has read it out: no need to wait for DRAM's ack. */
        df_writes_flushed(NOC);
        df_sem_inc(df_noc_addr(bx, by, CHIP_SEM_ADDR(P3_SEM_CREDIT), NOC), 1, NOC);
    }
    df_write_barrier(NOC); /* everything is in DRAM before the tile ends */
    df_atomic_barrier(NOC);
    return bad;
}
