/* What the TRISC1 side of every vector-unit example shares: LReg names, the SFPLOAD/SFPSTORE
 * forms that walk a tile, loading FP32 constants, and the start and end of a timed SFPU pass.
 *
 * Walking Dst. One SFPLOAD or SFPSTORE moves 32 datums: lane L takes Dst row (Addr & ~3) + L/8,
 * column 2 (L & 7), plus one when Addr bit 1 is set (BH:SFPLOAD.md). Addresses 0, 2, 4, ... 62
 * therefore cover one 32x32 tile (64 Dst32b rows) in 32 steps, even then odd columns of each
 * group of four rows. Addr is Imm10 plus the Dst RWC, which the matrix unit owns but an SFPLOAD
 * or SFPSTORE advances afterwards through its ADDR_MOD slot (ApplyPartialAddrMod, WH:RWCs.md):
 * slot SK_AM_NEXT adds 2, so a body that stores through it moves to the next 32 datums, and
 * after 32 bodies to the next tile. */
#ifndef SFPU_KERNEL_H
#define SFPU_KERNEL_H

#include "sfpu_tiles.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

/* LReg[8..10] and [15] are constants (LReg.md): 0.8373, 0, 1.0 and lane * 2; LReg[11..14] hold
 * what SFPCONFIG last wrote. */
#define LZERO 9
#define LONE 10

/* SFPLOAD/SFPSTORE Mod0 (BH:SFPLOAD.md): FP32 takes the 32 bits as they are; INT32 too, and on
 * the way back SFPSTORE's FP32 form flushes denormals on Blackhole where INT32 does not. */
#define SK_FP32 3
#define SK_INT32 4

/* ADDR_MOD slots (ThreadConfig, this thread's own): 0 moves nothing (all zero after reset);
 * SK_AM_NEXT adds 2 to the Dst RWC, SK_AM_PAIR 4, SK_AM_TILE 64. */
#define SK_AM_NEXT 1
#define SK_AM_PAIR 2
#define SK_AM_TILE 3

#define LOAD(reg, imm) TTI_INSN(TT_OP_SFPLOAD_BH(reg, SK_FP32, 0, imm))
#define STORE(reg, am, imm) TTI_INSN(TT_OP_SFPSTORE_BH(reg, SK_FP32, am, imm))
/* VD = VA * VB + VC, and the same with VB negated (Blackhole's NEGATE_VB, BH:SFPMAD.md) */
#define MAD(a, b, c, d) TTI_INSN(TT_OP_SFPMAD(a, b, c, d, 0))
#define NMAD(a, b, c, d) TTI_INSN(TT_OP_SFPMAD(a, b, c, d, 1))
#define NOP() TTI_INSN(TT_OP_SFPNOP)

/* Lane flags into use with every flag true (EI | RI, BH:SFPENCC.md), and out of use again.
 * SFPSETCC only sets flags while they are in use (BH:SFPSETCC.md). */
#define LANE_FLAGS_ON() TTI_INSN(TT_OP_SFPENCC(3, 0, 10))
#define LANE_FLAGS_OFF() TTI_INSN(TT_OP_SFPENCC(0, 0, 2))

/* An FP32 constant into LReg `reg`: low half then high half (SFPLOADI Mod0 10 and 8 each keep
 * the other half, BH:SFPLOADI.md). */
#define LOADI32(reg, bits)                                                                         \
    do {                                                                                           \
        TTI_INSN(TT_OP_SFPLOADI(reg, 10, (bits) & 0xFFFF));                                        \
        TTI_INSN(TT_OP_SFPLOADI(reg, 8, ((bits) >> 16) & 0xFFFF));                                 \
    } while (0)
/* ... into LReg[11..14], which only SFPCONFIG writes, from LReg[0] (SFPCONFIG.md: lanes 0-7 of
 * LReg[0], broadcast down the rows). Clobbers LReg[0]. */
#define CONST32(reg, bits)                                                                         \
    do {                                                                                           \
        LOADI32(0, bits);                                                                          \
        TTI_INSN(TT_OP_SFPCONFIG(0, reg, 0));                                                      \
    } while (0)

/* Record the next `n` instructions into the replay buffer while they run (REPLAY Load, Exec),
 * and play them back. */
#define REPLAY_RECORD(n) TTI_INSN(TT_OP_REPLAY(0, n, 1, 1))
#define REPLAY_PLAY(n) TTI_INSN(TT_OP_REPLAY(0, n, 0, 0))

/* Set the ADDR_MOD slots, wait until TRISC0 has every tile in Dst, and start the clock. */
static inline uint32_t sk_begin(void)
{
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC1_DestIncr_ADDR32, 2));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC2_DestIncr_ADDR32, 4));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC3_DestIncr_ADDR32, 64));
    while (tensim_sem_value(SK_SEM_UNPACKED) == 0)
        ;
    return tensim_cycle();
}

/* Wait for the thread to drain (every SFPU instruction done), report the cycles since `start`,
 * and hand Dst to TRISC2. */
static inline void sk_end(uint32_t start, unsigned tiles)
{
    tensim_wait_coproc_done();
    volatile uint32_t *res = (volatile uint32_t *)SK_RESULT;
    res[0] = tensim_cycle() - start;
    res[1] = tiles;
    tensim_fence();
    tensim_sem_post(SK_SEM_DONE);
}

#endif
