/* mmfpu (BRISC of each of 16 tiles; mmfpu.h): moves the operands and the result while the
 * tile's TRISCs run the matmul on the matrix unit.
 *   - Column 0's tile of row r reads A's row block r from DRAM and multicasts it along its row
 *     (columns 1..3); row 0's tile of column c reads B's column block c and multicasts it down
 *     its column (rows 1..3). Each then multicasts a flag into the receivers' semaphore (after
 *     the data's acknowledgements: df_write_barrier), so a flag means its block has landed.
 *     The buffers are free from the start, so no ready handshake is needed.
 *   - When both blocks are in, BRISC sets MF_READY for TRISC0 (unpacker), waits for MF_DONE
 *     from TRISC2 (packer) and writes C to DRAM.
 * Runtime arguments (CHIP_ARG): 0, 1 the grid's first x, y (NoC 0); 2, 3 the DRAM tile. */
#include "chip.h"
#include "mmfpu.h"

#define NOC 0u
#define SEM_A 0u
#define SEM_B 1u
#define ONE (CHIP_BUF + 0x10u) /* a word 1, the flags' source */

static void send(uint64_t dram, uint32_t buf, uint32_t bytes, unsigned x0, unsigned y0, unsigned x1, unsigned y1,
                 unsigned sem)
{
    df_read(dram, buf, bytes, NOC);
    df_read_barrier(NOC);
    const uint32_t n = (x1 - x0 + 1) * (y1 - y0 + 1);
    df_write_multicast(buf, df_noc_multicast_addr(x0, y0, x1, y1, buf, NOC), bytes, n, NOC);
    df_write_barrier(NOC);
    df_sem_set_multicast(ONE, df_noc_multicast_addr(x0, y0, x1, y1, CHIP_SEM_ADDR(sem), NOC), n, NOC);
    df_write_barrier(NOC);
    df_sem_set(chip_sem(sem), 1); /* the sender's own copy is in */
}

int main(void)
{
    df_init();
    const unsigned gx = chip_arg(0), gy = chip_arg(1), dx = chip_arg(2), dy = chip_arg(3);
    const unsigned c = df_my_x() - gx, r = df_my_y() - gy;
    if (c >= MF_GRID || r >= MF_GRID)
        return 4;
    *chip_l1(ONE) = 1;
    if (c == 0)
        send(df_noc_addr(dx, dy, MF_A_DRAM(r), NOC), MT_A, MF_A_BYTES, gx + 1, df_my_y(), gx + MF_GRID - 1,
             df_my_y(), SEM_A);
    if (r == 0)
        send(df_noc_addr(dx, dy, MF_B_DRAM(c), NOC), MT_B, MF_B_BYTES, df_my_x(), gy + 1, df_my_x(),
             gy + MF_GRID - 1, SEM_B);
    df_sem_wait(chip_sem(SEM_A), 1);
    df_sem_wait(chip_sem(SEM_B), 1);
    *chip_l1(MF_READY) = 1;
    tensim_fence();
    while (tensim_l1_poll(chip_l1(MF_DONE)) == 0)
        ;
    df_write(MT_OUT, df_noc_addr(dx, dy, MF_C_DRAM(r * MF_GRID + c), NOC), MF_C_BYTES, NOC);
    df_write_barrier(NOC);
    return 0;
}
