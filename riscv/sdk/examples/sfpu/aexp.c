/* TRISC1 of the approximate exp example with SFPLOADMACRO: y ~ e^x for every datum of the tiles in
 * Dst, FP32, at two cycles per 32 datums, within 3.15% relative (shared/spec/sfpu.md A.8: tt-llk's
 * Blackhole approximate exp, ~68 cycles per 32 vectors; tt-metal #55760, ~70 per tile in SDPA).
 *
 * The method is Schraudolph's: the bits of an FP32 number are, read as an integer, roughly
 * 2^23 (log2(value) + 127). So an integer n = 256 (x / ln 2 + 127) - C, shifted left by 15 into
 * the exponent and the top 8 mantissa bits, is a number whose exponent is floor(w) + 127 and whose
 * mantissa is frac(w), w = n / 256 - 127 ~ x / ln 2: y = 2^floor(w) (1 + frac(w)).
 *
 * Error. y / 2^w = (1 + f) / 2^f with f = frac(w) in [0, 1): 1 at f = 0, at most 1.0614757 at
 * f = 1/ln 2 - 1. n is an integer, so w = x / ln 2 - C / 256 + d with |d| <= 1/512 (rounding to
 * nearest; the MAD's own rounding and A's adds under 1e-5 of that). Then
 *   y / e^x = 2^(d - C/256) (1 + f) / 2^f,
 * between 2^(-1/512 - C/256) and 2^(1/512 - C/256) 1.0614757.
 * C = 11.25 puts the two ends at -3.132% and +3.103%: the bound is 3.15% for -87.30 <= x <= 88.72
 * (n >= 258: a normal result; e^x <= the largest FP32).
 *
 * The lower end clamps itself: n comes from z = B - A x with A = 256 / ln 2 and B = 65535 - 32512
 * + C, rounded by SFPSTOCHRND to an unsigned 16-bit integer, which saturates at 65535 (and turns
 * NaN and Inf into 65535, BH:SFPSTOCHRND_FloatInt.md), and n = 65535 - round(z). Every x below
 * -88.0 (z >= 65535.5) therefore gives n = 0, and every x below -87.307 an n < 256, a denormal that
 * Blackhole's FP32 SFPSTORE flushes (BH:SFPSTORE.md): y = +0 from -87.3 down to -Inf. (Counting n
 * up from x instead, the unsigned conversion would drop the sign of a negative z and turn very
 * negative x into large results; clamping x first with SFPSWAP against -88.5 costs the simple
 * sub-unit two cycles and the round sub-unit one per vector, and with the shift in one of them
 * the rate falls to three cycles per 32 datums.) The upper end does not: the domain is
 * x <= 88.75 (e^x up to 3.4e38, finite); above it n reaches exponent 255 (Inf, NaN) and from
 * 89.44 z turns negative and the result is meaningless (+Inf and NaN inputs give +0).
 * Denormal x reads as 0 in the MAD (BH:SFPMAD.md).
 *
 * Per vector v (x in LReg[r], r = v % 4, loaded at cycle t by SFPLOADMACRO; -A, B and 65535 in
 * LReg[4], [5], [6]; "issued" marks the one instruction the thread issues besides it):
 *
 *   cycle | load, issued       | simple              | MAD              | round         | store
 *   t     | SFPLOADMACRO: x    |                     |                  |               |
 *   t + 1 | (SFPIADD of v - 2) |                     | L[r] = -A L[r]+B |               |
 *   t + 4 |                    | (SFPSHFT of v - 1)  |                  | L[r] = u16(z) |
 *   t + 5 | SFPIADD (issued):  | L[r] = 65535 - L[r] |                  |               |
 *   t + 6 |                    | L[16] = L[r] << 15  |                  |               |
 *   t + 7 |                    |                     |                  |               | Dst=L[16]
 *
 * One vector every two cycles: the SFPLOADMACRO, then one SFPIADD issued by the thread (a
 * template names its registers for good, and the SFPLOADMACRO's one simple slot goes to the
 * shift, so the subtraction is issued, naming the rotating register of the vector two back).
 * Each sub-unit sees one parity: simple at odd cycles (the issued SFPIADD) and even (the
 * scheduled SFPSHFT); MAD and store odd; round even. SFPLOADMACRO.md (†): a simple and a round
 * instruction in one cycle need exactly one of them writing LReg[16]: SFPSTOCHRND of v shares
 * t + 4 with the SFPSHFT of v - 1, which writes LReg[16]; the SFPIADD's odd cycles have no round
 * instruction (so SFPSTOCHRND waits until t + 4, not t + 3 when the MAD's result is ready,
 * latency 2, BH:SFPMAD.md). LReg[r] lives from t to t + 6 and is loaded again at t + 8. Scheduled
 * instructions have no interlock, and none reads a MAD result sooner than two cycles after it.
 * The first two SFPIADDs act on registers not yet loaded (no harm); the last two vectors' come
 * after the loop. */
#include "sfpu_macro.h"

#define NEG_A 4   /* -256 / ln 2 as FP32: 0xC3B8AA3B */
#define B_C 5     /* 65535 - 32512 + 11.25 = 33034.25: 0x47010A40 */
#define ALL16 6   /* 65535 as an integer */
#define IADD_SUB 6 /* SFPIADD Mod1: VC - VD (2), LaneFlags left alone (CC_NONE, 4), BH:SFPIADD.md */

/* The issued half of a vector: LReg[r] := 65535 - LReg[r] */
#define FLIP(r) TTI_INSN(TT_OP_SFPIADD(0, ALL16, r, IADD_SUB))

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    LOADI32(NEG_A, 0xC3B8AA3Bu);
    LOADI32(B_C, 0x47010A40u);
    TTI_INSN(TT_OP_SFPLOADI(ALL16, 2, 0xFFFF)); /* zero-extended (BH:SFPLOADI.md) */
    /* Templates: 0 SFPMAD LReg[4] * VB + LReg[5]; 1 SFPSTOCHRND to UINT16 (Mod1 6), round to
     * nearest, of VC; 2 SFPSHFT of its VB-as-VD left by Imm12 15 (ARG_IMM) */
    TTI_INSN(TT_OP_SFPMAD(NEG_A, 0, B_C, 12, 0));
    TTI_INSN(TT_OP_SFPSTOCHRND_BH(0, 0, 0, 0, 13, 0, 6));
    TTI_INSN(TT_OP_SFPSHFT(15, 0, 14, 1));
    SET_SEQUENCE(0, SEQUENCE(SQ(SQ_T(2), 5, SQ_VB | SQ_VD16), SQ(SQ_T(0), 0, SQ_VB),
                             SQ(SQ_T(1), 3, 0), SQ(SQ_STORE, 6, SQ_VD16)));
    SET_MISC(MISC(SK_FP32, 0));

    /* 16 vectors recorded (the register pattern repeats every four), then played: two plays
     * make a tile */
    REPLAY_RECORD(32);
    for (unsigned v = 0; v < 16; v += 4) {
        LOADMACRO(0, 0, SK_AM_NEXT, 0);
        FLIP(2);
        LOADMACRO(0, 1, SK_AM_NEXT, 0);
        FLIP(3);
        LOADMACRO(0, 2, SK_AM_NEXT, 0);
        FLIP(0);
        LOADMACRO(0, 3, SK_AM_NEXT, 0);
        FLIP(1);
    }
    for (unsigned p = 1; p < 2 * tiles; p++)
        REPLAY_PLAY(32);
    /* the last two vectors (registers 2 and 3) at t + 5 of theirs */
    NOP();
    FLIP(2);
    NOP();
    FLIP(3);

    sk_end(start, tiles);
    return 0;
}
