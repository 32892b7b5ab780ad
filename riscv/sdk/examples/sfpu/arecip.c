/* TRISC1 of the approximate reciprocal example: y ~ 1/x for every datum of the tiles in Dst,
 * FP32 in and out, at one SFPLOADMACRO per 32 datums (shared/spec/sfpu.md A.8: "BF16 approx 1"
 * cycle per 32 datums, tt-llk #834).
 *
 * y is Blackhole's SFPARECIP (Mod1 RECIP), alone: BH:SFPARECIP.md gives
 * 0.9944 / |x| < |y| < 1.0054 / |x| for 2^-126 <= |x| < 2^126, the sign of x, and 1.0 -> 0.99609375.
 * Outside that range the page's model gives Inf of x's sign below 2^-126 (+-0 and denormals:
 * SFPLOAD keeps the bits), and 0 of x's sign from 2^126 up (Inf and NaN too).
 *
 * Schedule (BH:SFPLOADMACRO.md; cycle t is the SFPLOADMACRO of vector v into LReg[v % 4]):
 *
 *   cycle | load          | simple                       | store
 *   t     | LReg[r] = x   |                              |
 *   t + 1 |               | LReg[r] = SFPARECIP(LReg[r]) |
 *   t + 2 |               |                              | Dst = LReg[r]
 *
 * SFPARECIP is a simple-sub-unit instruction of latency 1, so the store runs the cycle after
 * (delay 1). Each register is live from t to t + 2; rotating four keeps every read of a register
 * away from the cycle it is loaded again. One instruction per sub-unit per cycle: 32 per tile. */
#include "sfpu_macro.h"

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    /* Template 0: SFPARECIP of VC (the loaded register) */
    TTI_INSN(TT_OP_SFPARECIP(0, 0, 12, 0));
    SET_SEQUENCE(0, SEQUENCE(SQ(SQ_T(0), 0, 0), 0, 0, SQ(SQ_STORE, 1, 0)));
    SET_MISC(MISC(SK_FP32, 0));

    sk_macro_pass(tiles);

    sk_end(start, tiles);
    return 0;
}
