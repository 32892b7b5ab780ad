/* mmfpu: the throttled matmul example's kernels (riscv/sdk/examples/mmthrottle: tt-llk's matmul
 * on the matrix unit, C_j = sum over k of A_k @ B_kj, 4 inner steps, 8 output tiles) on a 4 x 4
 * block of tiles, with operands multicast over the NoC (docs/sdk.md "Dataflow between tiles").
 * Tile (row r, column c) multiplies row block r of A by column block c of B: its C is 8 tiles.
 * Shared by the BRISC program, the TRISC variants (-DMT_CHIP) and the host generator. */
#ifndef MMFPU_H
#define MMFPU_H

#include "../mmthrottle/mmthrottle.h"

#define MF_GRID 4
#define MF_A_BYTES (16u + MT_KT * 2048u)         /* at MT_A: header, A_0..A_3 */
#define MF_B_BYTES (16u + MT_KT * MT_CT * 2048u) /* at MT_B: header, B_kj */
#define MF_C_BYTES (MT_CT * 4096u)               /* at MT_OUT */
/* DRAM (one bank): A's row blocks, B's column blocks and C's tiles, each block 64 KiB apart */
#define MF_A_DRAM(r) (0x000000u + 0x20000u * (r))
#define MF_B_DRAM(c) (0x100000u + 0x20000u * (c))
#define MF_C_DRAM(i) (0x200000u + 0x10000u * (i)) /* i = r * 4 + c */
/* L1 flags between the cores of a tile, 16 bytes apart: the operands are in (BRISC -> TRISC0),
 * C is packed (TRISC2 -> BRISC). */
#define MF_READY 0x3F100u
#define MF_DONE 0x3F110u

/* The operand values of row block r and column block c: mmthrottle's, with the inner step (A)
 * and the output tile (B) shifted so that every block differs; still -2..2 and -3..3, so C is
 * exact at every fidelity (mmthrottle.h). */
static inline int mf_a(unsigned r, unsigned k, unsigned i, unsigned j) { return mt_a(k + 4 * r, i, j); }
static inline int mf_b(unsigned c, unsigned k, unsigned t, unsigned i, unsigned j)
{
    return mt_b(k, t + 8 * c, i, j);
}

#endif
