/* TRISC1 of the FP32 reciprocal example with SFPLOADMACRO: y = 1/x for every datum of the tiles
 * in Dst, FP32 in and out, at five cycles per 32 datums (shared/spec/sfpu.md A.8: "FP32 5 cycles
 * per 32 datums", tt-llk #834), within 2.5e-7 relative (two ulp).
 *
 * From Blackhole's SFPARECIP: y0 = SFPARECIP(x) is within 0.56% of 1/x (BH:SFPARECIP.md:
 * 0.9944 / x < y0 < 1.0054 / x for 2^-126 <= |x| < 2^126). With e = 1 - x y0 (|e| < 0.0056),
 * 1/x = y0 / (1 - e) = y0 (1 + e + e^2 + e^3 + ...), so y = y0 + y0 s with s = e e + e leaves
 * e^3 / (1 - e) < 1.8e-7 relative, plus the last MAD's rounding (half an ulp, <= 6e-8).
 *
 * Four SFPLOADMACROs and one SFPNOP per 32 datums (Dst address a):
 *
 *   cycle | load            | simple                | MAD                                 | store
 *   c     | A: LReg[0] = x  |                       |                                     |
 *   c + 1 | B: LReg[1] = x  | LReg[0] = ARECIP(L0)  |                                     |
 *   c + 2 | C: LReg[1] = x  |                       |                                     |
 *   c + 3 | (SFPNOP)        |                       | LReg[1] = -LReg[1] LReg[0] + 1  (e) | Dst(a) = LReg[0] (y0)
 *   c + 4 | D: LReg[2] = y0 |                       |                                     |
 *   c + 5 |                 |                       | LReg[6] = LReg[1] LReg[1] + LReg[1] |
 *   c + 7 |                 |                       | LReg[16] = LReg[6] LReg[2] + LReg[2]|
 *   c + 9 |                 |                       |                                     | Dst(a) = LReg[16]
 *
 * A template names its registers for good, except the one its SFPLOADMACRO loaded
 * (BH:SFPLOADMACRO.md), so every value two instructions share sits in a fixed register that
 * must be dead before the next vector (five cycles later) writes it again. The chain is longer
 * than five cycles (SFPARECIP 1, three MADs of latency 2, BH:SFPMAD.md), so:
 * - y0, needed at the start and at the end, is parked in Dst: A stores it over x once the last
 *   load of x is done (c + 3) and D loads it back (c + 4).
 * - e is read three times by one MAD: C loads LReg[1] before B's MAD writes e into it, so the
 *   MAD that C schedules finds e in its loaded register.
 * - s is written through INDIRECT_VD (LReg[LReg[7] & 15], LReg[7] = 6, BH:SFPMAD.md), a
 *   register no load touches.
 * - the result goes to LReg[16], read only by D's SFPSTORE.
 * Every MAD result is read two cycles after its MAD (none waits: scheduled instructions have no
 * interlock). Per sub-unit the cycles are distinct mod 5 (simple c + 1; MAD c + 3, c + 5, c + 7;
 * store c + 3, c + 9), so consecutive vectors never meet in a sub-unit.
 *
 * Domain: 2^-126 <= |x| < 2^102. Above, the product y0 s can fall below 2^-126, where the MAD
 * drops it (its exponent is below 0, BH:SFPMAD.md): the correction is lost for the small |s|
 * first, so the error grows towards SFPARECIP's 0.56% as |x| nears 2^126. Keeping full accuracy
 * there takes more work per vector (the "6 cycles with full-range accuracy" of A.8). +-0 and
 * denormals (SFPARECIP: Inf), Inf and NaN (SFPARECIP: 0) meet 0 * Inf in e: NaN. */
#include "sfpu_macro.h"

#define Y 0 /* x, then y0 */
#define E 1 /* x, then e */
#define Z 2 /* y0, loaded back */
#define S 6 /* s, through INDIRECT_VD */

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    TTI_INSN(TT_OP_SFPLOADI(7, 2, S)); /* the INDIRECT_VD index, as an integer */
    /* Templates: 0 SFPARECIP of VC; 1 SFPMAD LReg[0] * -VB + 1.0 (NEGATE_VB); 2 SFPMAD
     * LReg[1] * VB + LReg[1] into LReg[LReg[7]] (INDIRECT_VD); 3 SFPMAD LReg[6] * VB + LReg[2] */
    TTI_INSN(TT_OP_SFPARECIP(0, 0, 12, 0));
    TTI_INSN(TT_OP_SFPMAD(Y, 0, LONE, 13, 1));
    TTI_INSN(TT_OP_SFPMAD(E, 0, E, 14, 8));
    TTI_INSN(TT_OP_SFPMAD(S, 0, Z, 15, 0));
    SET_SEQUENCE(0, SEQUENCE(SQ(SQ_T(0), 0, 0), 0, 0, SQ(SQ_STORE, 2, 0)));
    SET_SEQUENCE(1, SEQUENCE(0, SQ(SQ_T(1), 1, SQ_VB), 0, 0));
    SET_SEQUENCE(2, SEQUENCE(0, SQ(SQ_T(2), 2, SQ_VB), 0, 0));
    SET_SEQUENCE(3, SEQUENCE(0, SQ(SQ_T(3), 2, SQ_VB | SQ_VD16), 0, SQ(SQ_STORE, 4, SQ_VD16)));
    SET_MISC(MISC(SK_FP32, 0));

    REPLAY_RECORD(30); /* six vectors */
    for (unsigned v = 0; v < 6; v++) {
        LOADMACRO(0, Y, 0, 0);
        LOADMACRO(1, E, 0, 0);
        LOADMACRO(2, E, 0, 0);
        NOP();
        LOADMACRO(3, Z, SK_AM_NEXT, 0);
    }
    /* 32 vectors a tile: 6 recorded, then plays of 6 and the rest one by one */
    unsigned left = 32 * tiles - 6;
    for (; left >= 6; left -= 6)
        REPLAY_PLAY(30);
    for (; left; left--)
        TTI_INSN(TT_OP_REPLAY(0, 5, 0, 0));

    sk_end(start, tiles);
    return 0;
}
