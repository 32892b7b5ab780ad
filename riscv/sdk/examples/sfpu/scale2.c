/* TRISC1 of the pipelined scale-by-2 example: y = 2 x for every datum of the tiles in Dst, FP32,
 * one SFPLOADMACRO per 32 datums (shared/spec/sfpu.md A.8: blackhole-py's probe, 256 vectors in
 * 306 cycles on silicon, ~1.2 cycles per vector, against 1,054 for the explicit loop).
 *
 * Schedule (BH:SFPLOADMACRO.md; cycle t is the SFPLOADMACRO of vector v into LReg[v % 4]):
 *
 *   cycle | load           | MAD                          | store
 *   t     | LReg[r] = x    |                              |
 *   t + 1 |                | LReg[r] = LReg[4] * LReg[r]  |
 *   t + 3 |                |                              | Dst = LReg[r]
 *
 * The MAD reads the load the cycle after it (a load's result is there the next cycle); its
 * result is ready two cycles later (latency 2, BH:SFPMAD.md), so the store waits until t + 3
 * (delay 2). The register is live from t to t + 3, so four registers in turn let a new vector
 * start every cycle with no register read and rewritten in one cycle. The MAD sub-unit takes
 * one instruction per cycle, as does the store sub-unit: one vector per cycle, 32 per tile.
 *
 * Exact: 2 x * 1.0 rounds nothing. SFPMUL reads denormals as zero and adds +0 (LReg[9]), so
 * +-0 and denormals give +0; |x| >= 2^127 gives Inf of its sign; NaN gives 0x7FC00000
 * (BH:SFPMAD.md). */
#include "sfpu_macro.h"

#define TWO 4

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    TTI_INSN(TT_OP_SFPLOADI(TWO, 0, 0x4000)); /* 2.0 as BF16 */
    /* Template 0: SFPMUL LReg[4] * VB + LReg[9] (+0); VB will be the loaded register */
    TTI_INSN(TT_OP_SFPMUL(TWO, 0, LZERO, 12, 0));
    SET_SEQUENCE(0, SEQUENCE(0, SQ(SQ_T(0), 0, SQ_VB), 0, SQ(SQ_STORE, 2, 0)));
    SET_MISC(MISC(SK_FP32, 0));

    sk_macro_pass(tiles);

    sk_end(start, tiles);
    return 0;
}
