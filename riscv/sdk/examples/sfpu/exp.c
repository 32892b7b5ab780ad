/* TRISC1 of the exp example: e^x for every datum of the tiles in Dst, FP32 in and out.
 *
 * Range reduction: x = n ln2 + r with n = round(x / ln2) and |r| <= ln2/2 (a little more, as
 * 1/ln2 is rounded), then e^x = 2^n e^r.
 *  - n: t = x * (1/ln2) + M rounds x/ln2 to an integer inside the FP32 sum, because M = 1.5 * 2^23
 *    + 126 leaves no fraction bits; t's low mantissa bits are then n + 126 (two's complement), and
 *    so t << 23 is the FP32 pattern of 2^(n - 1) (SFPSHFT, an integer shift of the bits).
 *  - n as a float: t - 1.5 * 2^23 - 126, two exact SFPADDIs with BF16 immediates.
 *  - r = x - n ln2 in two steps (Cody and Waite): ln2_hi has 16 significant bits, so n ln2_hi is
 *    exact and so is x - n ln2_hi; ln2_lo = ln2 - ln2_hi is the correction.
 *  - 2 e^r by a degree-6 polynomial in Horner form, coefficients doubled: 2 + 2r + r^2 + 2c3 r^3
 *    + ... + 2c6 r^6, c3..c6 fitted for the least maximum relative error over |r| <= 0.35 with
 *    c5, c6 rounded to BF16 first (SFPMULI / SFPADDI immediates; their terms are small enough)
 *    and c3, c4 in FP32. The truncation error is 1e-8; FP32 rounding dominates.
 *  - e^x = (2 e^r) * 2^(n - 1): one multiply, so overflow gives +Inf and tiny results flush to
 *    zero the way the MAD unit rounds (BH:SFPMAD.md "IEEE754 conformance").
 * Doubling moves the one exponent FP32 lacks (the scale's field n + 126 must lie in 0..255 for
 * n in -126..129) to the bottom: results below 2^-125 may come out as 0.
 *
 * x is first clamped to [-87, 89] (SFPSWAP's min and max against constants; every larger x
 * overflows anyway, every smaller one underflows), so n stays in range; NaN compares as larger
 * than +Inf or smaller than -Inf (sign-magnitude order, BH:SFPSWAP.md) and gives +Inf or 0.
 *
 * Accuracy (FP32 datums, results >= 2^-125): within 2.5e-7 relative of e^x
 * (test/test_sfpu_kernels.c; the algorithm's own bound is about 1.3 ulp).
 *
 * One body of 22 instructions per 32 datums, recorded into the replay buffer with the first
 * datums and played back for the rest. Blackhole only (SFPMAD stalls itself; SFPSWAP's next
 * cycle is an SFPNOP either way, BH:SFPSWAP.md). */
#include "sfpu_kernel.h"

/* Registers: L0 x then r, L1 t then the scale 2^(n-1), L2 the polynomial. */
#define INVLN2 3
#define MAGIC 4
#define NLN2HI 5
#define NLN2LO 6
#define TWO 7
#define LO 11 /* SFPSWAP's VD: below 12, where VD would name a macro template (SFPCONFIG.md) */
#define C3 12
#define C4 13
#define HI 14

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();

    CONST32(C3, 0x3EAAAA7Cu);  /* 2 c3 = 0.33333203 */
    CONST32(C4, 0x3DAAAAE1u);  /* 2 c4 = 0.08333374 */
    CONST32(HI, 0x42B20000u);  /* 89.0 */
    CONST32(LO, 0xC2AE0000u);  /* -87.0 */
    LOADI32(INVLN2, 0x3FB8AA3Bu); /* 1 / ln2 */
    LOADI32(MAGIC, 0x4B40007Eu);  /* 1.5 * 2^23 + 126 */
    LOADI32(NLN2HI, 0xBF317200u); /* -0.693145751953125 */
    LOADI32(NLN2LO, 0xB5BFBE8Eu); /* -(ln2 - 0.693145751953125) */
    LOADI32(TWO, 0x40000000u);

    REPLAY_RECORD(22);
    LOAD(0, 0);
    TTI_INSN(TT_OP_SFPSWAP(HI, 0, 1));  /* L0 = min(x, 89): VD takes the min */
    NOP();
    TTI_INSN(TT_OP_SFPSWAP(0, LO, 1));  /* L0 = max(x, -87): VC takes the max */
    NOP();
    MAD(0, INVLN2, MAGIC, 1);            /* t */
    TTI_INSN(TT_OP_SFPMOV(1, 2, 0));
    TTI_INSN(TT_OP_SFPADDI(0xCB40, 2, 0)); /* - 1.5 * 2^23 */
    TTI_INSN(TT_OP_SFPADDI(0xC2FC, 2, 0)); /* - 126: n */
    MAD(2, NLN2HI, 0, 0);                /* r = x - n ln2_hi */
    TTI_INSN(TT_OP_SFPSHFT(23, 0, 1, 1)); /* L1 = t << 23 = 2^(n-1) */
    MAD(2, NLN2LO, 0, 0);                /* r -= n ln2_lo */
    TTI_INSN(TT_OP_SFPMOV(0, 2, 0));
    TTI_INSN(TT_OP_SFPMULI(0x3B36, 2, 0)); /* 2 c6 r */
    TTI_INSN(TT_OP_SFPADDI(0x3C89, 2, 0)); /* + 2 c5 */
    MAD(2, 0, C4, 2);
    MAD(2, 0, C3, 2);
    MAD(2, 0, LONE, 2);                  /* 2 c2 = 1 */
    MAD(2, 0, TWO, 2);
    MAD(2, 0, TWO, 2);                   /* 2 e^r */
    MAD(2, 1, LZERO, 2);                 /* e^x */
    STORE(2, SK_AM_NEXT, 0);
    for (unsigned v = 1; v < 32 * tiles; v++)
        REPLAY_PLAY(22);

    sk_end(start, tiles);
    return 0;
}
