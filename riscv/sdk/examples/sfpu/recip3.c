/* TRISC1 of the BF16-accuracy reciprocal example: y ~ 1/x for every datum of the tiles in Dst,
 * FP32 in and out, at three cycles per 32 datums (shared/spec/sfpu.md A.8: "BF16 3", tt-llk
 * #834), accurate to within 3.2e-5 relative, well inside BF16's half ulp (2^-9).
 *
 * One Newton step from Blackhole's SFPARECIP: y0 = SFPARECIP(x), within 0.56% of 1/x
 * (BH:SFPARECIP.md: 0.9944 / x < y0 < 1.0054 / x for 2^-126 <= |x| < 2^126); t = 2 - x y0 =
 * 1 + e; y = y0 t = (1 - e^2) / x, so |relative error| <= e^2 < 3.2e-5 (plus FP32 rounding).
 *
 * Three SFPLOADMACROs per 32 datums, each loading the same x (Dst address a), so no loaded
 * value is wasted and no per-vector value has to survive a later load of its register:
 *
 *   cycle | load             | simple                      | MAD                              | store
 *   c     | A: LReg[0] = x   |                             |                                  |
 *   c + 1 | B: LReg[1] = x   | LReg[0] = SFPARECIP(LReg[0])|                                  |
 *   c + 2 | C: LReg[2] = x   |                             | LReg[6] = -LReg[1] LReg[0] + 2   |
 *   c + 3 |                  | LReg[2] = SFPARECIP(LReg[2])|                                  |
 *   c + 4 |                  |                             | LReg[16] = LReg[6] LReg[2] + 0   |
 *   c + 6 |                  |                             |                                  | Dst(a) = LReg[16]
 *
 * A template names its registers for good, except the one the SFPLOADMACRO loaded
 * (BH:SFPLOADMACRO.md), so a value that two instructions of one vector share lives in a fixed
 * register and must be dead before the next vector, three cycles later, writes it again:
 * - y0 is computed twice (LReg[0] for t, LReg[2] for the product): SFPARECIP is cheap and the
 *   simple sub-unit is otherwise idle; that keeps each copy alive for at most three cycles.
 * - t is written through INDIRECT_VD (BH:SFPMAD.md: the result goes to LReg[LReg[7] & 15], with
 *   LReg[7] = 6), so no load ever overwrites it: written at c + 2, read at c + 4, rewritten at
 *   c + 5.
 * - the result goes to LReg[16], which only a scheduled SFPSTORE reads, two cycles later (MAD
 *   latency 2, BH:SFPMAD.md "Instruction scheduling"); every MAD result is read two cycles after.
 * Per sub-unit, the instructions of one vector fall on distinct cycles mod 3 (simple c + 1, c + 3;
 * MAD c + 2, c + 4; store c + 6), so consecutive vectors never meet in a sub-unit.
 *
 * Domain: 2^-126 <= |x| <= 2^125 (the results stay normal). Outside, y0 is +-Inf or +-0 and the
 * product meets 0 * Inf: +-0, denormals (SFPLOAD keeps their bits, SFPARECIP gives Inf), Inf and
 * NaN give NaN. */
#include "sfpu_macro.h"

#define Y 0   /* x, then y0, for t */
#define X 1   /* x, for t */
#define Z 2   /* x, then y0, for the product */
#define TWO 5
#define T 6   /* t, through INDIRECT_VD */

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    TTI_INSN(TT_OP_SFPLOADI(TWO, 0, 0x4000)); /* 2.0 as BF16 */
    TTI_INSN(TT_OP_SFPLOADI(7, 2, T));        /* the INDIRECT_VD index, as an integer */
    /* Template 0: SFPARECIP of VC; template 1: SFPMAD LReg[0] * -VB + LReg[5] into
     * LReg[LReg[7]] (NEGATE_VB | INDIRECT_VD); template 2: SFPMAD LReg[6] * VB + 0 */
    TTI_INSN(TT_OP_SFPARECIP(0, 0, 12, 0));
    TTI_INSN(TT_OP_SFPMAD(Y, 0, TWO, 13, 1 | 8));
    TTI_INSN(TT_OP_SFPMAD(T, 0, LZERO, 14, 0));
    SET_SEQUENCE(0, SEQUENCE(SQ(SQ_T(0), 0, 0), 0, 0, 0));
    SET_SEQUENCE(1, SEQUENCE(0, SQ(SQ_T(1), 0, SQ_VB), 0, 0));
    SET_SEQUENCE(2, SEQUENCE(SQ(SQ_T(0), 0, 0), SQ(SQ_T(2), 1, SQ_VB | SQ_VD16), 0,
                             SQ(SQ_STORE, 3, SQ_VD16)));
    SET_MISC(MISC(SK_FP32, 0));

    REPLAY_RECORD(24); /* eight vectors */
    for (unsigned v = 0; v < 8; v++) {
        LOADMACRO(0, Y, 0, 0);
        LOADMACRO(1, X, 0, 0);
        LOADMACRO(2, Z, SK_AM_NEXT, 0);
    }
    for (unsigned p = 1; p < 4 * tiles; p++)
        REPLAY_PLAY(24);

    sk_end(start, tiles);
    return 0;
}
