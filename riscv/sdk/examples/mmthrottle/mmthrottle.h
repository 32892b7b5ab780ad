/* The throttled matmul example (bench/suite "mm-throttle" and "mm-fidelity"): a 1 x KT by
 * KT x CT block of 32x32 tiles, C_j = sum_k A_k @ B_kj for j < CT, computed as tt-llk's
 * _llk_math_matmul_ does with ct_dim = CT, rt_dim = 1 (reuse_a: the in0 tile A_k stays in SrcB
 * for CT products, each in1 tile B_kj comes through SrcA). The operands are loaded into L1
 * (gen_data.c writes the images and the expected output); TRISC0 unpacks them, TRISC1 runs
 * tt-llk's matmul MOP for the throttle level and fidelity read from L1, TRISC2 packs the CT
 * tiles. Shared by the kernels and gen_data.c (plain C, no kernel-side dependencies). */
#ifndef MMTHROTTLE_H
#define MMTHROTTLE_H

#include <stdint.h>

#define MT_CT 8           /* output tiles (ct_dim); FP32 Dst holds exactly eight */
#define MT_KT 4           /* inner dimension in tiles (kt_dim) */
#define MT_A 0x30000u     /* 16-byte header, then A_0..A_{KT-1} (BF16 tiles, face order) */
#define MT_B 0x40000u     /* 16-byte header, then B_kj at index k * CT + j */
#define MT_OUT 0x60000u   /* C_j as FP32 in Dst32b row order, 4 KiB per tile */
#define MT_PARAM 0x3F000u /* word 0: fidelity phases 1..4 (LoFi, HiFi2, HiFi3, HiFi4; 0: 4);
                             word 1: throttle level 0..5 (tt-llk THROTTLE_LEVEL);
                             word 2: inner-dimension steps to run, 1..MT_KT (0: MT_KT) */
#define MT_DONE_SEM 0     /* TRISC1 -> TRISC2: every product has issued */

/* The inner-dimension steps this run computes (word 2 of MT_PARAM): a test takes the difference
 * of two step counts to get the steady-state cycles per product without the start-up. */
static inline unsigned mt_ksteps(void)
{
    unsigned n = ((const volatile uint32_t *)MT_PARAM)[2];
    return n == 0 || n > MT_KT ? MT_KT : n;
}

/* Tiles are stored in face order (as the matmul example, matmul_data.h) */
static inline unsigned mt_face_index(unsigned r, unsigned c)
{
    return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16;
}

/* The operands are small integers (-2..2 and -3..3: at most one significand bit below the
 * implicit one), which every fidelity multiplies exactly, so C is the same exact integer at
 * LoFi and HiFi4 and one expected image serves every sweep point. */
static inline int mt_a(unsigned k, unsigned r, unsigned c) { return (int)((r + 2 * c + 3 * k) % 5) - 2; }
static inline int mt_b(unsigned k, unsigned j, unsigned r, unsigned c)
{
    return (int)((3 * r + c + k + 5 * j) % 7) - 3;
}

/* BF16 bits of -3..3 */
static inline uint16_t mt_bf16(int v)
{
    static const uint16_t bits[7] = {0xC040, 0xC000, 0xBF80, 0x0000, 0x3F80, 0x4000, 0x4040};
    return bits[v + 3];
}

#endif
