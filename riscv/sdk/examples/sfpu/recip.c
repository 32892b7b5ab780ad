/* TRISC1 of the reciprocal example: 1/x for every datum of the tiles in Dst, FP32 in and out.
 *
 * Seed: y0 = K - bits(x) as integers (SFPIADD), K = 0x7EF311C3. Subtracting the pattern negates
 * the exponent about the bias and roughly reflects the mantissa, so y0 is within 5.1% of 1/x for
 * every normal x; a negative x's sign bit carries through the subtraction, so y0 has x's sign.
 * Newton-Raphson: t = 2 - x y, y = y t, three times: the relative error squares each step,
 * 5.1e-2 -> 2.6e-3 -> 6.6e-6 -> 4e-11, below FP32 rounding; the result is within about two ulp
 * (t is rounded to FP32 before it scales y). Blackhole's NEGATE_VB gives t = -(x * y) + 2 in one
 * SFPMAD (BH:SFPMAD.md). The equivalent y = y + y (1 - x y) would keep one more bit, but for
 * |x| >= 2^114 its correction y (1 - x y) falls below 2^-126 and the MAD unit drops it (its
 * product is not kept below the normal range), which left those reciprocals at the seed's 5%.
 *
 * Domain: 2^-126 <= |x| <= 2^125. Outside it the seed is not a normal number and the iteration
 * does not recover: 0, denormals, |x| >= 2^126 and Inf give NaN, 0 or -Inf (test/test_sfpu_kernels.c
 * pins what comes out).
 *
 * Two vectors at a time, A in L0-L2 and B in L4-L6, interleaved so that no SFPMAD waits for the
 * one before it (an SFPMAD's result is ready two cycles later, BH:SFPMAD.md "Instruction
 * scheduling"): 20 instructions per 64 datums, recorded into the replay buffer once. */
#include "sfpu_kernel.h"

#define K 3
#define TWO 7

/* The seed of vector x (in LReg x) into LReg y */
#define SEED(x, y)                                                                                 \
    TTI_INSN(TT_OP_SFPMOV(x, y, 0));                                                               \
    TTI_INSN(TT_OP_SFPIADD(0, K, y, 6)) /* y = K - y, flags untouched (2SCOMP | CC_NONE) */
/* One Newton step of A (x, y, t) and of B interleaved */
#define STEP(xa, ya, ta, xb, yb, tb)                                                               \
    NMAD(xa, ya, TWO, ta);                                                                         \
    NMAD(xb, yb, TWO, tb);                                                                         \
    MAD(ya, ta, LZERO, ya);                                                                        \
    MAD(yb, tb, LZERO, yb)

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    LOADI32(K, 0x7EF311C3u);
    TTI_INSN(TT_OP_SFPLOADI(TWO, 0, 0x4000)); /* 2.0 as BF16 */

    REPLAY_RECORD(20);
    LOAD(0, 0);
    LOAD(4, 2);
    SEED(0, 1);
    SEED(4, 5);
    STEP(0, 1, 2, 4, 5, 6);
    STEP(0, 1, 2, 4, 5, 6);
    STEP(0, 1, 2, 4, 5, 6);
    STORE(1, 0, 0);
    STORE(5, SK_AM_PAIR, 2);
    for (unsigned v = 1; v < 16 * tiles; v++)
        REPLAY_PLAY(20);

    sk_end(start, tiles);
    return 0;
}
