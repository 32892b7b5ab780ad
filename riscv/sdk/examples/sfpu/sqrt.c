/* TRISC1 of the square-root example: sqrt(x) for every datum of the tiles in Dst, FP32 in and
 * out, by inverse-square-root Newton iterations.
 *
 * Seed: y0 = K - (bits(x) >> 1) as integers, K = 0x5F3759DF: halving the pattern halves the
 * exponent, the subtraction negates it about the bias, so y0 is within 3.5% of 1/sqrt(x).
 * Iteration (the coupled form of Newton's step for 1/sqrt, often credited to Goldschmidt):
 * g = x y0 ~ sqrt(x), h = y0 / 2 ~ 1/(2 sqrt(x)); then r = 1/2 - g h, g += g r, h += h r.
 * Each step squares the relative error (3.5e-2 -> 1.7e-3 -> 4.5e-6 -> 3e-11); three steps,
 * the last without h. g and h stay near sqrt(x) and 1/sqrt(x), so nothing under- or overflows
 * for any normal x (forming x y^2 directly would underflow for x near 2^127), and the two
 * updates of a step are independent of each other.
 *
 * Domain: 0 and normal x >= 0: sqrt(+-0) = +0, denormals read as 0 (BH:SFPMAD.md), within
 * 2.5e-7 relative otherwise (about 2.6 ulp at worst). Negative x gives a meaningless negative
 * number and +Inf gives NaN (test/test_sfpu_kernels.c pins them).
 *
 * Two vectors at a time, A in L0-L2 and B in L4-L6, interleaved: 28 instructions per 64 datums,
 * recorded into the replay buffer once. */
#include "sfpu_kernel.h"

#define K 3
#define HALF 7

#define SEED(x, y)                                                                                 \
    TTI_INSN(TT_OP_SFPSHFT(0xFFF, x, y, 5)); /* y = x >> 1 (ARG_IMM | IMM_USE_VC, Imm12 -1) */     \
    TTI_INSN(TT_OP_SFPIADD(0, K, y, 6))      /* y = K - y, flags untouched */
/* r = 1/2 - g h into x's register (x is no longer needed), then g += g r and h += h r */
#define STEP(ga, ha, ra, gb, hb, rb)                                                               \
    NMAD(ga, ha, HALF, ra);                                                                        \
    NMAD(gb, hb, HALF, rb);                                                                        \
    MAD(ga, ra, ga, ga);                                                                           \
    MAD(gb, rb, gb, gb);                                                                           \
    MAD(ha, ra, ha, ha);                                                                           \
    MAD(hb, rb, hb, hb)

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    LOADI32(K, 0x5F3759DFu);
    TTI_INSN(TT_OP_SFPLOADI(HALF, 0, 0x3F00)); /* 0.5 as BF16 */

    /* A: x L0 (then r), y and h L1, g L2; B: L4, L5, L6 */
    REPLAY_RECORD(28);
    LOAD(0, 0);
    LOAD(4, 2);
    SEED(0, 1);
    SEED(4, 5);
    MAD(0, 1, LZERO, 2);                   /* g = x y */
    MAD(4, 5, LZERO, 6);
    TTI_INSN(TT_OP_SFPMULI(0x3F00, 1, 0)); /* h = y / 2 */
    TTI_INSN(TT_OP_SFPMULI(0x3F00, 5, 0));
    STEP(2, 1, 0, 6, 5, 4);
    STEP(2, 1, 0, 6, 5, 4);
    NMAD(2, 1, HALF, 0);
    NMAD(6, 5, HALF, 4);
    MAD(2, 0, 2, 2);
    MAD(6, 4, 6, 6);
    STORE(2, 0, 0);
    STORE(6, SK_AM_PAIR, 2);
    for (unsigned v = 1; v < 16 * tiles; v++)
        REPLAY_PLAY(28);

    sk_end(start, tiles);
    return 0;
}
