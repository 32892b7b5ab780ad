/* matmul16 (BRISC on each of 16 tiles): C = A x B, 64 x 64 int32 matrices, spread over a 4 x 4
 * block of tiles; the tile at grid row r, column c computes C's 16 x 16 block (r, c) and writes
 * it to DRAM.
 *
 * What it shows: operands multicast to many tiles, with tt-metal's ready/valid handshake.
 *   - Column 0's tile of each row reads A's row block r (16 x 64, one contiguous DRAM read) and
 *     multicasts it along its row to columns 1..3 (the rectangle leaves the sender out).
 *   - Row 0's tile of each column reads B's column block c (64 x 16: 64 strided reads of one
 *     row piece each) and multicasts it down its whole column, itself included (loopback).
 *   - A receiver first tells its sender it is ready (an atomic increment of the sender's READY);
 *     the sender waits for all, multicasts the block, waits for every receiver's
 *     acknowledgement, then multicasts a word 1 into the receivers' VALID.
 *   - Each tile checks the blocks it got against the formula (matmul16.h), multiplies them on
 *     the RISC-V core (int32) and writes its C block as 16 row pieces into row-major C in DRAM.
 * Tile (0, 0) of the grid sends both. Exit code 2 (A) or 3 (B) and a line naming the first
 * wrong word when a received block is wrong; C is checked by the test against expected-c.bin.
 *
 * Runtime arguments (CHIP_ARG, at 0x20000): 0 the grid's first x, 1 its first y (NoC 0), 2 and
 * 3 the DRAM tile holding A and 4 A's address there, 5..7 the same for B, 8..10 for C.
 * Everything goes over NoC 0. */
#include "chip.h"
#include "matmul16.h"

#define NOC 0u

/* The sender's part: wait until the `receivers` have said they are ready, multicast `bytes` at
 * `buf` to the same place in the rectangle, then the flag into their `valid` semaphore. */
static void send_block(uint32_t buf, uint32_t bytes, unsigned x0, unsigned y0, unsigned x1, unsigned y1,
                       uint32_t receivers, int loopback, unsigned ready, unsigned valid)
{
    df_sem_wait(chip_sem(ready), loopback ? receivers - 1 : receivers);
    if (loopback) {
        df_write_multicast_loopback(buf, df_noc_multicast_addr(x0, y0, x1, y1, buf, NOC), bytes, receivers, NOC);
        df_write_barrier(NOC); /* the data has landed everywhere before the flag is sent */
        df_sem_set_multicast_loopback(MM_ONE, df_noc_multicast_addr(x0, y0, x1, y1, CHIP_SEM_ADDR(valid), NOC),
                                      receivers, NOC);
    } else {
        df_write_multicast(buf, df_noc_multicast_addr(x0, y0, x1, y1, buf, NOC), bytes, receivers, NOC);
        df_write_barrier(NOC);
        df_sem_set_multicast(MM_ONE, df_noc_multicast_addr(x0, y0, x1, y1, CHIP_SEM_ADDR(valid), NOC), receivers,
                             NOC);
    }
}

int main(void)
{
    df_init();
    const unsigned gx = chip_arg(0), gy = chip_arg(1);
    const unsigned col = df_my_x() - gx, row = df_my_y() - gy;
    if (col >= MM_GRID || row >= MM_GRID) {
        printf("matmul16: tile (%u, %u) is outside the grid at (%u, %u)\n", df_my_x(), df_my_y(), gx, gy);
        return 4;
    }
    *chip_l1(MM_ONE) = 1;

    /* A along the row, from column 0 to columns 1..3. */
    if (col == 0) {
        df_read(df_noc_addr(chip_arg(2), chip_arg(3), chip_arg(4) + row * MM_BM * MM_K * 4u, NOC), MM_A_BUF,
                MM_BM * MM_K * 4u, NOC);
    } else {
        df_sem_inc(df_noc_addr(gx, gy + row, CHIP_SEM_ADDR(MM_SEM_A_READY), NOC), 1, NOC);
    }
    /* B down the column, from row 0 to rows 0..3 (itself included). */
    if (row == 0) {
        for (uint32_t k = 0; k < MM_K; k++)
            df_read(df_noc_addr(chip_arg(5), chip_arg(6), chip_arg(7) + (k * MM_N + col * MM_BN) * 4u, NOC),
                    MM_B_BUF + k * MM_BN * 4u, MM_BN * 4u, NOC);
    } else {
        df_sem_inc(df_noc_addr(gx + col, gy, CHIP_SEM_ADDR(MM_SEM_B_READY), NOC), 1, NOC);
    }
    if (col == 0 || row == 0)
        df_read_barrier(NOC);
    if (col == 0)
        send_block(MM_A_BUF, MM_BM * MM_K * 4u, gx + 1, gy + row, gx + MM_GRID - 1, gy + row, MM_GRID - 1, 0,
                   MM_SEM_A_READY, MM_SEM_A_VALID);
    if (row == 0)
        send_block(MM_B_BUF, MM_K * MM_BN * 4u, gx + col, gy, gx + col, gy + MM_GRID - 1, MM_GRID, 1,
                   MM_SEM_B_READY, MM_SEM_B_VALID);
    if (col != 0)
        df_sem_wait(chip_sem(MM_SEM_A_VALID), 1);
    df_sem_wait(chip_sem(MM_SEM_B_VALID), 1);

    /* What arrived. */
    const volatile int32_t *a = (const volatile int32_t *)chip_l1(MM_A_BUF);
    const volatile int32_t *b = (const volatile int32_t *)chip_l1(MM_B_BUF);
    for (uint32_t i = 0; i < MM_BM; i++)
        for (uint32_t k = 0; k < MM_K; k++)
            if (a[i * MM_K + k] != mm_a(row * MM_BM + i, k))
                return chip_fail(2, "matmul16 A block", i * MM_K + k, (uint32_t)a[i * MM_K + k],
                                 (uint32_t)mm_a(row * MM_BM + i, k));
    for (uint32_t k = 0; k < MM_K; k++)
        for (uint32_t j = 0; j < MM_BN; j++)
            if (b[k * MM_BN + j] != mm_b(k, col * MM_BN + j))
                return chip_fail(3, "matmul16 B block", k * MM_BN + j, (uint32_t)b[k * MM_BN + j],
                                 (uint32_t)mm_b(k, col * MM_BN + j));

    /* C's block, row by row, each row written to DRAM as soon as it is done. */
    volatile int32_t *c = (volatile int32_t *)chip_l1(MM_C_BUF);
    const uint32_t c_base = chip_arg(10);
    for (uint32_t i = 0; i < MM_BM; i++) {
        for (uint32_t j = 0; j < MM_BN; j++) {
            int32_t s = 0;
            for (uint32_t k = 0; k < MM_K; k++)
                s += a[i * MM_K + k] * b[k * MM_BN + j];
            c[i * MM_BN + j] = s;
        }
        df_write(MM_C_BUF + i * MM_BN * 4u,
                 df_noc_addr(chip_arg(8), chip_arg(9), c_base + ((row * MM_BM + i) * MM_N + col * MM_BN) * 4u, NOC),
                 MM_BN * 4u, NOC);
    }
    df_write_barrier(NOC);
    df_atomic_barrier(NOC);
    return 0;
}
