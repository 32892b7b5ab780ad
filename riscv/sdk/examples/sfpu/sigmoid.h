/* x * sigmoid(u) for 32 datums, the common part of the SiLU and GELU examples (silu.c, gelu.c).
 *
 * sigmoid(u) = 1 / (1 + e^-u). With z = e^-|u| in (0, 1] and d = 1 + z in (1, 2]:
 *   u >= 0: sigmoid(u) = 1 / d,   u < 0: sigmoid(u) = z / d,
 * so nothing overflows and the result keeps its relative accuracy where it is tiny.
 *  - z: the exp of the exp example for arguments <= 0: -|u| clamped to >= -87 (SFPSWAP), n from
 *    the rounding constant 1.5 * 2^23 + 127, r by Cody and Waite, a degree-6 polynomial for e^r
 *    (c0 = c1 = 1, c2 = 1/2 exact; c5, c6 BF16 immediates; c3, c4 FP32 fitted with them), times
 *    2^n built from t << 23 (n <= 0, so 2^n is a normal number down to n = -126 and no doubling
 *    is needed).
 *  - the numerator: 1, or z where x < 0, chosen with the lane flags (SFPSETCC on x's sign bit,
 *    then SFPMOV of 1.0 on the lanes where x >= 0, BH:SFPSETCC.md); the callers' u has the sign
 *    of x. Multiplied into x at once, which frees z's register.
 *  - 1/d: the reciprocal example's seed and three Newton-Raphson steps.
 *  - x * numerator * (1/d).
 * The caller has set the constants below (SIG_CONSTANTS) and put the lane flags in use
 * (LANE_FLAGS_ON).
 *
 * Registers: L0 x then x * numerator, `u` (the caller's), L1-L3 work. */
#ifndef SIGMOID_H
#define SIGMOID_H

#include "sfpu_kernel.h"

#define SIG_INVLN2 4
#define SIG_MAGIC 5
#define SIG_NLN2HI 6
#define SIG_NLN2LO 7
#define SIG_LO 11 /* SFPSWAP's VD: below 12, where VD would name a macro template */
#define SIG_C3 12
#define SIG_C4 13
#define SIG_K 14

/* Clobbers L0-L7 (and so must come before the caller's own LReg[0..7] set-up). */
#define SIG_CONSTANTS()                                                                            \
    do {                                                                                           \
        CONST32(SIG_C3, 0x3E2AAA7Cu); /* c3 = 0.16666597 */                                        \
        CONST32(SIG_C4, 0x3D2AAAE1u); /* c4 = 0.04166687 */                                        \
        CONST32(SIG_LO, 0xC2AE0000u); /* -87.0 */                                                  \
        CONST32(SIG_K, 0x7EF311C3u);  /* the reciprocal seed's constant */                          \
        LOADI32(SIG_INVLN2, 0x3FB8AA3Bu);                                                          \
        LOADI32(SIG_MAGIC, 0x4B40007Fu); /* 1.5 * 2^23 + 127 */                                    \
        LOADI32(SIG_NLN2HI, 0xBF317200u);                                                          \
        LOADI32(SIG_NLN2LO, 0xB5BFBE8Eu);                                                          \
    } while (0)

/* L0 = L0 * sigmoid(LReg u), for u in L0 or L1; 34 instructions. */
#define X_SIGMOID(u)                                                                               \
    do {                                                                                           \
        TTI_INSN(TT_OP_SFPSETSGN(1, u, 2, 1));       /* L2 = -|u| */                               \
        TTI_INSN(TT_OP_SFPSWAP(2, SIG_LO, 1));       /* L2 = max(L2, -87) */                       \
        NOP();                                                                                     \
        MAD(2, SIG_INVLN2, SIG_MAGIC, 3);            /* t */                                       \
        TTI_INSN(TT_OP_SFPMOV(3, 1, 0));                                                           \
        TTI_INSN(TT_OP_SFPADDI(0xCB40, 1, 0));       /* - 1.5 * 2^23 */                            \
        TTI_INSN(TT_OP_SFPADDI(0xC2FE, 1, 0));       /* - 127: n */                                \
        MAD(1, SIG_NLN2HI, 2, 2);                    /* r */                                       \
        TTI_INSN(TT_OP_SFPSHFT(23, 0, 3, 1));        /* L3 = 2^n */                                \
        MAD(1, SIG_NLN2LO, 2, 2);                                                                  \
        TTI_INSN(TT_OP_SFPMOV(2, 1, 0));                                                           \
        TTI_INSN(TT_OP_SFPMULI(0x3AB6, 1, 0));       /* c6 r */                                    \
        TTI_INSN(TT_OP_SFPADDI(0x3C09, 1, 0));       /* + c5 */                                    \
        MAD(1, 2, SIG_C4, 1);                                                                      \
        MAD(1, 2, SIG_C3, 1);                                                                      \
        MAD(1, 2, LZERO, 1);                                                                       \
        TTI_INSN(TT_OP_SFPADDI(0x3F00, 1, 0));       /* + 1/2 */                                   \
        MAD(1, 2, LONE, 1);                                                                        \
        MAD(1, 2, LONE, 1);                          /* e^r */                                     \
        MAD(1, 3, LZERO, 1);                         /* z */                                       \
        MAD(1, LONE, LONE, 2);                       /* d = z + 1 */                               \
        TTI_INSN(TT_OP_SFPSETCC(0, 0, 0, 4));        /* flags: x >= 0 */                           \
        TTI_INSN(TT_OP_SFPMOV(LONE, 1, 0));          /* numerator 1 there */                       \
        TTI_INSN(TT_OP_SFPENCC(0, 0, 0));            /* every lane again */                        \
        MAD(0, 1, LZERO, 0);                         /* x * numerator */                           \
        TTI_INSN(TT_OP_SFPMOV(2, 3, 0));                                                           \
        TTI_INSN(TT_OP_SFPIADD(0, SIG_K, 3, 6));     /* y0 */                                      \
        NMAD(2, 3, LONE, 1);                                                                       \
        MAD(3, 1, 3, 3);                                                                           \
        NMAD(2, 3, LONE, 1);                                                                       \
        MAD(3, 1, 3, 3);                                                                           \
        NMAD(2, 3, LONE, 1);                                                                       \
        MAD(3, 1, 3, 3);                             /* 1/d */                                     \
        MAD(0, 3, LZERO, 0);                                                                       \
    } while (0)

#endif
