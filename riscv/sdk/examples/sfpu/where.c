/* TRISC1 of the where (select) example: out = cond != 0 ? b : c, datum by datum, at three
 * cycles per 32 datums (shared/spec/sfpu.md A.8: tt-llk #822, 28 cycles per 16x16 face = 4 + 8
 * rows of 32 x 3).
 *
 * Tiles: the host's 3n tiles (n = 1 or 2) are n cond tiles, then n b tiles, then n c tiles; the
 * result replaces the b tiles (Dst tiles n..2n-1). cond is tested as a 32-bit pattern (SFPLOAD
 * FP32 keeps the bits): any pattern but 0x00000000 selects b, so -0.0 (0x80000000) and NaN count
 * as true. b and c move as bits: NaN payloads, denormals and -0 come out as they went in (only
 * SFPLOAD and SFPSTORE touch them; Blackhole's FP32 store flushes denormals, so the store is
 * INT32, BH:SFPSTORE.md).
 *
 * Per 32 datums: three loads, which is the floor, since the load sub-unit takes one per cycle.
 * The lane flags pick c: lanes whose cond is 0 load c over b.
 *
 *   cycle | load (issued)                          | simple (scheduled)          | store (scheduled)
 *   k     | SFPLOADMACRO 0: LReg[0] = cond         |                             |
 *   k + 1 | SFPLOADMACRO 1: LReg[1] = b            | SFPSETCC: flags = LReg[0]==0|
 *   k + 2 | SFPLOAD: LReg[1] = c (flagged lanes)   | SFPENCC: flags = true       |
 *   k + 3 | (next vector's cond)                   |                             | Dst(b) = LReg[1]
 *
 * Lane flags gate SFPLOAD and SFPSTORE once UseLaneFlagsForLaneEnable is on (VectorUnit.md
 * IsLaneEnabled). SFPSETCC's flags are in place the cycle after it; the SFPENCC that sets them
 * back to true runs in the same cycle as the flagged SFPLOAD, which sees the flags its cycle
 * began with (the unit's instructions read the state at the start of their cycle and write at
 * its end), so the next vector's loads at k + 3 and k + 4 and the store at k + 3 see all lanes.
 * The store is scheduled by the b macro, so it writes at b's address (BH:SFPLOADMACRO.md: a
 * scheduled SFPSTORE uses the address its SFPLOADMACRO computed). */
#include "sfpu_macro.h"

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles || tiles % 3)
        return 1;
    const unsigned n = tiles / 3, b = 64 * n, c = 128 * n;
    const uint32_t start = sk_begin();
    /* Template 0: SFPSETCC Mod1 6 (LReg[VC] == 0 as an integer), VC the loaded register;
     * template 1: SFPENCC Mod1 0 (UseLaneFlagsForLaneEnable kept, LaneFlags = true) */
    TTI_INSN(TT_OP_SFPSETCC(0, 0, 12, 6));
    TTI_INSN(TT_OP_SFPENCC(0, 13, 0));
    SET_SEQUENCE(0, SEQUENCE(SQ(SQ_T(0), 0, 0), 0, 0, 0));
    SET_SEQUENCE(1, SEQUENCE(SQ(SQ_T(1), 0, 0), 0, 0, SQ(SQ_STORE, 1, 0)));
    SET_MISC(MISC(SK_INT32, 0));
    LANE_FLAGS_ON();

    /* one face (8 rows of 32) recorded, then played */
    REPLAY_RECORD(24);
    for (unsigned v = 0; v < 8; v++) {
        TTI_INSN(TT_OP_SFPLOADMACRO_BH(0, 0, SK_INT32, 0, 0, 0));
        TT_PUSH(TT_OP_SFPLOADMACRO_BH(1, 1, SK_INT32, 0, b >> 1, 0));
        TT_PUSH(TT_OP_SFPLOAD_BH(1, SK_INT32, SK_AM_NEXT, c));
    }
    for (unsigned f = 1; f < 4 * n; f++)
        REPLAY_PLAY(24);
    LANE_FLAGS_OFF();

    sk_end(start, tiles);
    return 0;
}
