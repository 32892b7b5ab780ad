/* alltoall (BRISC on each of N tiles, N = cols x rows <= 16): every tile writes a block of its
 * own (a2a_word(me, dst, w)) into every other tile's receive slot for it, then increments an
 * ARRIVED semaphore there; each waits until N - 1 blocks have arrived and checks them all.
 *
 * What it shows: many-to-many unicast traffic, and why the increment comes after the write
 * barrier: the acknowledgements say every block has landed, so a receiver that sees N - 1
 * arrivals can read all its slots. Exit code 1 and a line naming the first wrong word on a
 * mismatch; nothing else to check afterwards (the test trusts the exit status).
 *
 * Built with -DA2A_SPLIT (alltoall-2noc), the sending is shared by two cores and both NoCs, as
 * tt-metal gives BRISC NoC 0 and NCRISC NoC 1: the BRISC build (A2A_NOC 0) sends to the tiles an
 * odd number of places after it over NoC 0 and does the checking, the NCRISC build (A2A_NOC 1)
 * sends to the others over NoC 1 (coordinates mirrored, dataflow.h converts) and ends. Each core
 * waits for its own NoC's acknowledgements before its increments; the receivers count both.
 *
 * Runtime arguments (CHIP_ARG, at 0x20000): 0 the grid's first x, 1 its first y (NoC 0), 2 its
 * columns, 3 its rows. Tile index = row * cols + col. Everything goes over NoC 0 but in the
 * split build's NCRISC program. */
#include "alltoall.h"
#include "chip.h"

#ifndef A2A_NOC
#define A2A_NOC 0u
#endif
#define NOC A2A_NOC

/* Whether this program sends to the tile k places after it. */
static int mine(unsigned k)
{
#ifdef A2A_SPLIT
    return k % 2u == (NOC == 0 ? 1u : 0u);
#else
    (void)k;
    return 1;
#endif
}

int main(void)
{
    df_init();
    const unsigned gx = chip_arg(0), gy = chip_arg(1), cols = chip_arg(2), rows = chip_arg(3);
    const unsigned n = cols * rows, col = df_my_x() - gx, row = df_my_y() - gy, me = row * cols + col;
    if (n > A2A_MAX_TILES || col >= cols || row >= rows) {
        printf("alltoall: tile (%u, %u) is outside the %u x %u grid at (%u, %u)\n", df_my_x(), df_my_y(), cols,
               rows, gx, gy);
        return 2;
    }

    /* Every other tile's block, starting with the next one so that not all tiles aim at the
     * same tile at once. */
    for (unsigned k = 1; k < n; k++) {
        if (!mine(k))
            continue;
        const unsigned dst = (me + k) % n;
        volatile uint32_t *s = chip_l1(A2A_SEND(dst));
        for (unsigned w = 0; w < A2A_BLOCK_WORDS; w++)
            s[w] = a2a_word(me, dst, w);
        df_write(A2A_SEND(dst), df_noc_addr(gx + dst % cols, gy + dst / cols, A2A_RECV(me), NOC), A2A_BLOCK_BYTES,
                 NOC);
    }
    df_write_barrier(NOC); /* all of them have landed */
    for (unsigned k = 1; k < n; k++) {
        if (!mine(k))
            continue;
        const unsigned dst = (me + k) % n;
        df_sem_inc(df_noc_addr(gx + dst % cols, gy + dst / cols, CHIP_SEM_ADDR(A2A_SEM_ARRIVED), NOC), 1, NOC);
    }

    if (NOC != 0) { /* the split build's NCRISC: BRISC checks */
        df_atomic_barrier(NOC);
        return 0;
    }
    df_sem_wait(chip_sem(A2A_SEM_ARRIVED), n - 1);
    for (unsigned src = 0; src < n; src++) {
        if (src == me)
            continue;
        const volatile uint32_t *r = chip_l1(A2A_RECV(src));
        for (unsigned w = 0; w < A2A_BLOCK_WORDS; w++)
            if (r[w] != a2a_word(src, me, w))
                return chip_fail(1, "alltoall block", src * A2A_BLOCK_WORDS + w, r[w], a2a_word(src, me, w));
    }
    df_atomic_barrier(NOC);
    return 0;
}
