/* TRISC1 of the sort example: every column of every tile in Dst sorted in descending order (the
 * sort step of a top-k: afterwards row k of a column is its (k+1)-th largest value), by a bitonic
 * sorting network of SFPSWAPs.
 *
 * Order: SFPSWAP compares sign-magnitude patterns, which for FP32 is the total order
 * -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN (BH:SFPSWAP.md). The datums move as INT32
 * (SFPLOAD/SFPSTORE Mod0 4), so every pattern, denormals and NaN payloads included, comes out
 * exactly as it went in: the result is a permutation of each column.
 *
 * Layout. A tile column c < 16 lies in faces 0 and 2, c >= 16 in faces 1 and 3 (Dst rows 0-15
 * and 32-47, or 16-31 and 48-63, sfpu_tiles.h). One pass takes the eight columns of one parity
 * in one half: eight SFPLOADs put tile row e of every such column in LReg e/4, lane row e%4
 * (lane = 8 x lane row + column): "layout A", where the register number holds bits 4:2 of e
 * and the lane row bits 1:0. SFPTRANSP (4x4 transposes within LReg[0..3] and within
 * LReg[4..7], BH:SFPTRANSP.md) switches to "layout B", register = bits (4, 1, 0) of e, lane
 * row = bits (3, 2). SFPSWAP pairs registers, so each stage of the network, which compares e
 * with e ^ j, runs in the layout where bit j of e is a register bit: j = 4, 8 in A; 1, 2 in B;
 * 16 in either.
 *
 * Direction. Stage (s, j) of the bitonic network puts the larger value first where e & s is 0
 * and last otherwise. When that bit is a register bit the pair's operand order picks the
 * direction (VEC_MIN_MAX gives VD the minimum and VC the maximum); when it is a lane-row bit
 * the sub-vector modes do it per lane row: MIN02_MAX13 for row bit 0, MIN01_MAX23 for row bit 1.
 *
 * Cost: 15 stages of 4 SFPSWAPs, each followed by the SFPNOP its next cycle has to be anyway,
 * 8 SFPTRANSPs, 8 SFPLOADs and 8 SFPSTOREs: 144 instructions per pass, four passes a tile,
 * pushed by the core (SFPSWAP's 2 cycles keep it ahead). Blackhole encodings. */
#include "sfpu_kernel.h"

#define VEC_MIN_MAX 1
#define MIN01_MAX23 2
#define MIN02_MAX13 3

#define SWAP(vc, vd, mode)                                                                         \
    do {                                                                                           \
        TTI_INSN(TT_OP_SFPSWAP(vc, vd, mode));                                                     \
        NOP();                                                                                     \
    } while (0)
/* Larger value to LReg a (the smaller e), or to LReg b; or per lane row. */
#define DOWN(a, b) SWAP(a, b, VEC_MIN_MAX)
#define UP(a, b) SWAP(b, a, VEC_MIN_MAX)
#define ROWS02_DOWN(a, b) SWAP(a, b, MIN02_MAX13) /* rows 0, 2 down; 1, 3 up */
#define ROWS01_DOWN(a, b) SWAP(a, b, MIN01_MAX23) /* rows 0, 1 down; 2, 3 up */
#define TRANSP() TTI_INSN(TT_OP_SFPTRANSP(0))

#define LD(reg, imm) TTI_INSN(TT_OP_SFPLOAD_BH(reg, SK_INT32, 0, imm))
#define ST(reg, am, imm) TTI_INSN(TT_OP_SFPSTORE_BH(reg, SK_INT32, am, imm))

/* One pass: the columns at Dst row offset `base` (0 or 16: the face pair) + 2 (odd columns).
 * `am` advances the Dst RWC after the last store (SK_AM_TILE after a tile's last pass). */
#define PASS(base, am)                                                                             \
    do {                                                                                           \
        LD(0, (base) + 0); LD(1, (base) + 4); LD(2, (base) + 8); LD(3, (base) + 12);               \
        LD(4, (base) + 32); LD(5, (base) + 36); LD(6, (base) + 40); LD(7, (base) + 44);            \
        TRANSP(); /* B */                                                                          \
        /* (2,1): direction from e1, a register bit */                                             \
        DOWN(0, 1); UP(2, 3); DOWN(4, 5); UP(6, 7);                                                \
        /* (4,2), (4,1): direction from e2, lane row bit 0 */                                      \
        ROWS02_DOWN(0, 2); ROWS02_DOWN(1, 3); ROWS02_DOWN(4, 6); ROWS02_DOWN(5, 7);                \
        ROWS02_DOWN(0, 1); ROWS02_DOWN(2, 3); ROWS02_DOWN(4, 5); ROWS02_DOWN(6, 7);                \
        TRANSP(); /* A */                                                                          \
        /* (8,4): direction from e3, register bit 1 */                                             \
        DOWN(0, 1); UP(2, 3); DOWN(4, 5); UP(6, 7);                                                \
        TRANSP(); /* B */                                                                          \
        /* (8,2), (8,1): direction from e3, lane row bit 1 */                                      \
        ROWS01_DOWN(0, 2); ROWS01_DOWN(1, 3); ROWS01_DOWN(4, 6); ROWS01_DOWN(5, 7);                \
        ROWS01_DOWN(0, 1); ROWS01_DOWN(2, 3); ROWS01_DOWN(4, 5); ROWS01_DOWN(6, 7);                \
        TRANSP(); /* A */                                                                          \
        /* (16,8), (16,4): direction from e4, register bit 2 */                                    \
        DOWN(0, 2); DOWN(1, 3); UP(4, 6); UP(5, 7);                                                \
        DOWN(0, 1); DOWN(2, 3); UP(4, 5); UP(6, 7);                                                \
        TRANSP(); /* B */                                                                          \
        /* (16,2), (16,1): e4 is register bit 2 in B too */                                        \
        DOWN(0, 2); DOWN(1, 3); UP(4, 6); UP(5, 7);                                                \
        DOWN(0, 1); DOWN(2, 3); UP(4, 5); UP(6, 7);                                                \
        /* the final merge, all down: (32,16) in B */                                              \
        DOWN(0, 4); DOWN(1, 5); DOWN(2, 6); DOWN(3, 7);                                            \
        TRANSP(); /* A: (32,8), (32,4) */                                                          \
        DOWN(0, 2); DOWN(1, 3); DOWN(4, 6); DOWN(5, 7);                                            \
        DOWN(0, 1); DOWN(2, 3); DOWN(4, 5); DOWN(6, 7);                                            \
        TRANSP(); /* B: (32,2), (32,1) */                                                          \
        DOWN(0, 2); DOWN(1, 3); DOWN(4, 6); DOWN(5, 7);                                            \
        DOWN(0, 1); DOWN(2, 3); DOWN(4, 5); DOWN(6, 7);                                            \
        TRANSP(); /* A */                                                                          \
        ST(0, 0, (base) + 0); ST(1, 0, (base) + 4); ST(2, 0, (base) + 8); ST(3, 0, (base) + 12);   \
        ST(4, 0, (base) + 32); ST(5, 0, (base) + 36); ST(6, 0, (base) + 40);                       \
        ST(7, am, (base) + 44);                                                                    \
    } while (0)

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    for (unsigned t = 0; t < tiles; t++) {
        PASS(0, 0);
        PASS(2, 0);
        PASS(16, 0);
        PASS(18, SK_AM_TILE);
    }
    sk_end(start, tiles);
    return 0;
}
