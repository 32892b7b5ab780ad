/* TRISC1 of the matmul example: each 32x32x32 product is 16 MVMULs per fidelity phase in
 * tt-llk's face order (seed 004), recorded once in the replay buffer and run by one MOP per
 * tile. Dst is FP32 (Fp32_enabled); tile t lands in Dst32b rows 64t..64t+63, face after face.
 *
 * The 16 MVMULs of one phase, as (SrcB row, SrcA row, Dst row): SrcB holds A's faces at rows
 * 0/16/32/48, SrcA B's faces likewise; output face (i, j) = A(i, 0) @ B(0, j) + A(i, 1) @ B(1, j),
 * 8 rows per MVMUL. The first eight MVMULs take k-face 0 of the four output faces, the next eight
 * k-face 1, so a Dst block is revisited eight instructions later (>= 5: no Dest hazard stall).
 * The RWCs walk the sequence through six ADDR_MOD slots; Dst rows come from the DstRow field.
 * The second copy of the sequence (replay slots 16..31) ends with FlipSrcA/FlipSrcB, handing
 * both banks back to the unpackers, and moves the Dst RWC to the next tile. After each tile's
 * MOP, SEMPOST on semaphore MM_SEM tells TRISC2 (the packer side) that the tile's MVMULs have
 * issued; the packer's own Dest-hazard check covers their last five cycles. */
#include <stdint.h>

#include "matmul_data.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

/* ADDR_MOD_AB: SrcAIncr[5:0] SrcACR[6] SrcAClear[7] SrcBIncr[13:8] SrcBCR[14] SrcBClear[15];
 * ADDR_MOD_DST: DestIncr[9:0] DestCR[10] DestClear[11] DestCToCR[12] FidelityIncr[14:13]
 * FidelityClear[15]. Increments wrap at 64 rows, so 56 is -8. */
#define AB(a, b) ((a) | (b) << 8)
#define CLEAR_AB ((1u << 7) | (1u << 15))
#define M0 0 /* SrcB + 8 */
#define M1 1 /* SrcB - 8, SrcA + 16 */
#define M2 2 /* SrcB + 24, SrcA - 16 */
#define M3 3 /* SrcB - 24, SrcA + 16 */
#define M4 4 /* end of a phase: clear SrcA/SrcB, next fidelity phase */
#define M5 5 /* end of the tile: clear SrcA/SrcB and the phase, Dst + 64 */

#define MV(am, dst) TT_OP_MVMUL_BH(0, 0, 0, am, dst)
#define MV_LAST(am, dst) TT_OP_MVMUL_BH(1, 1, 0, am, dst)
#define SEQUENCE(LAST)                                                                       \
    TTI_INSN(MV(M0, 0)); TTI_INSN(MV(M1, 8)); TTI_INSN(MV(M0, 16)); TTI_INSN(MV(M2, 24));    \
    TTI_INSN(MV(M0, 32)); TTI_INSN(MV(M1, 40)); TTI_INSN(MV(M0, 48)); TTI_INSN(MV(M3, 56));  \
    TTI_INSN(MV(M0, 0)); TTI_INSN(MV(M1, 8)); TTI_INSN(MV(M0, 16)); TTI_INSN(MV(M2, 24));    \
    TTI_INSN(MV(M0, 32)); TTI_INSN(MV(M1, 40)); TTI_INSN(MV(M0, 48)); LAST

#define MOP_CFG ((volatile uint32_t *)0xFFB80000u)

int main(void)
{
    REGION_BEGIN(0);
    unsigned phases = *(volatile uint32_t *)MM_PARAM;
    if (phases < 1 || phases > 4)
        phases = 4;

    /* Config word 1 (ALU formats, Dst mode) belongs to this core alone: two cores
     * read-modify-writing one word at the same time can undo each other's field */
    tensim_cfg_set(ALU_FORMAT_SPEC_REG0_SrcA_RMW, 0x5);   /* BF16 operands */
    tensim_cfg_set(ALU_ACC_CTRL_Fp32_enabled_RMW, 1);     /* FP32 Dst */
    tensim_cfg_set(ALU_FORMAT_SPEC_REG2_Dstacc_RMW, 0x0); /* FP32 */

    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32, AB(0, 8)));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC1_SrcAIncr_ADDR32, AB(16, 56)));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC2_SrcAIncr_ADDR32, AB(48, 24)));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC3_SrcAIncr_ADDR32, AB(16, 40)));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC4_SrcAIncr_ADDR32, CLEAR_AB));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC4_DestIncr_ADDR32, 1u << 13));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC5_SrcAIncr_ADDR32, CLEAR_AB));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC5_DestIncr_ADDR32, 64u | 1u << 15));

    /* Record both copies of the sequence: REPLAY(Index 0, Count 32, Exec 0, Load 1) */
    TTI_INSN(TT_OP_REPLAY(0, 32, 0, 1));
    SEQUENCE(TTI_INSN(MV(M4, 56)));
    SEQUENCE(TTI_INSN(MV_LAST(M5, 56)));

    /* Template 1: one outer iteration; the inner loop plays the sequence once per phase, the
     * last time the copy that flips (Loop0Last). */
    const uint32_t nop = TT_OP_NOP;
    MOP_CFG[0] = 1;
    MOP_CFG[1] = phases;
    MOP_CFG[2] = nop;
    MOP_CFG[3] = nop;
    MOP_CFG[4] = nop;
    MOP_CFG[5] = TT_OP_REPLAY(0, 16, 0, 0);
    MOP_CFG[6] = nop;
    MOP_CFG[7] = TT_OP_REPLAY(16, 16, 0, 0);
    MOP_CFG[8] = TT_OP_REPLAY(0, 16, 0, 0);
    REGION_END(0);
    /* unrolled in both builds: the marks would otherwise change gcc's mind */
#pragma GCC unroll 4
    for (unsigned t = 0; t < MM_TILES; t++) {
        REGION_BEGIN(1);
        TTI_INSN(TT_OP_MOP(1, 0, 0));
        TTI_INSN(TT_OP_SEMPOST(1u << MM_SEM));
#ifdef MATMUL_PLANTED_WAIT
        /* A planted slowdown for docs/user-guide.md "Finding a slowdown": waiting for the
         * thread to drain after every tile keeps the next tile's MOP out of the pipe. */
        tensim_wait_coproc_done();
#endif
#ifdef MATMUL_PLANTED_STALLWAIT
        /* The same slowdown on the Tensix side (docs/user-guide.md "Finding a slowdown"): the
         * next tile's MVMULs (block B6, the matrix unit) wait until this tile's have left the
         * matrix unit (Blackhole condition C4). */
        TTI_INSN(TT_OP_STALLWAIT_BH(1u << 6, 1u << 4));
#endif
        REGION_END(1);
    }
    return 0;
}
