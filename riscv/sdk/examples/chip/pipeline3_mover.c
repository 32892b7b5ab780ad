/* pipeline3, tile B's BRISC: the data mover of the compute stage. Blocks from A are handed to
 * TRISC0 (pipeline3_compute.c), which computes y = a * x + b into one of B's two send slots,
 * while BRISC sends the block before on to C: block i is computed while block i - 1 travels.
 * The handoff inside the tile is two counts in L1 (TODO, written by BRISC; DONE, by TRISC0),
 * polled with a fence (tensim_l1_poll) and written after a fence, so that the block is in L1
 * before its count says so. See pipeline3_reader.c for the protocol between tiles.
 *
 * Runtime arguments (CHIP_ARG, at 0x20000): 0 A's x, 1 A's y, 2 C's x, 3 C's y, 4 the number of
 * blocks, 5 a, 6 b (TRISC0 reads 4..6). Everything goes over NoC 0. */
#include "chip.h"
#include "pipeline3.h"

#define NOC 0u

/* Block i is computed: give A its input slot back and send the result to C. */
static void send(uint32_t i, unsigned ax, unsigned ay, unsigned cx, unsigned cy)
{
    df_sem_wait_min(chip_sem(P3_SEM_DONE), i + 1);
    df_sem_inc(df_noc_addr(ax, ay, CHIP_SEM_ADDR(P3_SEM_CREDIT), NOC), 1, NOC);
    if (i >= 2) /* C's slot i % 2 is free once C has passed on block i - 2 */
        df_sem_wait_min(chip_sem(P3_SEM_CREDIT), i - 1);
    df_write(P3_OUT_SLOT(i % 2), df_noc_addr(cx, cy, P3_IN_SLOT(i % 2), NOC), P3_BLOCK_BYTES, NOC);
    df_write_barrier(NOC);
    df_sem_inc(df_noc_addr(cx, cy, CHIP_SEM_ADDR(P3_SEM_FULL), NOC), 1, NOC);
}

int main(void)
{
    df_init();
    const unsigned ax = chip_arg(0), ay = chip_arg(1), cx = chip_arg(2), cy = chip_arg(3);
    const uint32_t n = chip_arg(4);

    for (uint32_t i = 0; i < n; i++) {
        df_sem_wait_min(chip_sem(P3_SEM_FULL), i + 1); /* block i is in slot i % 2 */
        /* TRISC0 may compute it into send slot i % 2: that slot's last block (i - 2) has
         * landed at C (send(i - 2) waited for the acknowledgement). */
        tensim_fence();
        *chip_sem(P3_SEM_TODO) = i + 1;
        if (i >= 1)
            send(i - 1, ax, ay, cx, cy);
    }
    if (n)
        send(n - 1, ax, ay, cx, cy);
    df_atomic_barrier(NOC);
    return 0;
}
