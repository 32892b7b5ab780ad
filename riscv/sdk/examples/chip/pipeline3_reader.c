/* pipeline3, tile A (BRISC): the reader. Reads the input from DRAM one block at a time and
 * passes each block to tile B, two blocks in flight (double buffering on both sides).
 *
 * pipeline3 shows a reader/compute/writer pipeline over three tiles, A -> B -> C (in B, BRISC
 * moves the blocks and TRISC0 computes: pipeline3_mover.c, pipeline3_compute.c), with a
 * semaphore handshake per block: a sender writes a block into one of the receiver's two slots,
 * waits for the write's acknowledgement (the data has landed), then increments the receiver's
 * FULL count with a NoC atomic; the receiver, once done with a slot, increments the sender's
 * CREDIT count. A sender may run two blocks ahead of its receiver's credits.
 *
 * Runtime arguments (CHIP_ARG, at 0x20000): 0 B's x, 1 B's y, 2 the DRAM tile's x, 3 its y,
 * 4 the input's address there, 5 the number of blocks. Everything goes over NoC 0. */
#include "chip.h"
#include "pipeline3.h"

#define NOC 0u
/* A's own two slots: where a block read from DRAM waits to be sent on. */
#define A_SLOT(s) P3_IN_SLOT(s)

int main(void)
{
    df_init();
    const unsigned bx = chip_arg(0), by = chip_arg(1), dx = chip_arg(2), dy = chip_arg(3);
    const uint32_t src = chip_arg(4), n = chip_arg(5);

    df_read(df_noc_addr(dx, dy, src, NOC), A_SLOT(0), P3_BLOCK_BYTES, NOC);
    for (uint32_t i = 0; i < n; i++) {
        df_read_barrier(NOC); /* block i is in A_SLOT(i % 2) */
        /* Fetch the next block into the other slot while this one travels: that slot's last
         * block (i - 1) was acknowledged by B in the previous round. */
        if (i + 1 < n)
            df_read(df_noc_addr(dx, dy, src + (i + 1) * P3_BLOCK_BYTES, NOC), A_SLOT((i + 1) % 2), P3_BLOCK_BYTES,
                    NOC);
        /* B's slot i % 2 is free once B has finished block i - 2. */
        if (i >= 2)
            df_sem_wait_min(chip_sem(P3_SEM_CREDIT), i - 1);
        df_write(A_SLOT(i % 2), df_noc_addr(bx, by, P3_IN_SLOT(i % 2), NOC), P3_BLOCK_BYTES, NOC);
        df_write_barrier(NOC); /* landed in B's L1: only now may B hear of it */
        df_sem_inc(df_noc_addr(bx, by, CHIP_SEM_ADDR(P3_SEM_FULL), NOC), 1, NOC);
    }
    df_atomic_barrier(NOC);
    return 0;
}
