/* TRISC1 of the eltwise example: Dst = SrcA + SrcB, eight ELWADDs of 8 rows per tile into BF16
 * Dst (tile t at Dst rows 64t..64t+63). ADDR_MOD slot 0 steps SrcA, SrcB and Dst by 8 rows;
 * slot 1, on the tile's last ELWADD (which also hands both banks back), clears the Src counters.
 * SEMPOST on EW_SEM tells TRISC2 the tile has issued. */
#include "eltwise_data.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

int main(void)
{
    /* Config word 1 (ALU formats) belongs to this core alone: two cores read-modify-writing one
     * word at the same time can undo each other's field */
    tensim_cfg_set(ALU_FORMAT_SPEC_REG0_SrcA_RMW, 0x5);   /* BF16 operands */
    tensim_cfg_set(ALU_FORMAT_SPEC_REG2_Dstacc_RMW, 0x5); /* and BF16 Dst */
    /* ADDR_MOD_AB: SrcAIncr[5:0] SrcAClear[7] SrcBIncr[13:8] SrcBClear[15]; DST: DestIncr[9:0] */
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32, 8 | 8 << 8));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC0_DestIncr_ADDR32, 8));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC1_SrcAIncr_ADDR32, 1u << 7 | 1u << 15));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC1_DestIncr_ADDR32, 8));
    for (unsigned t = 0; t < EW_TILES; t++) {
        for (unsigned k = 0; k < 7; k++)
            TTI_INSN(TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0));
        TTI_INSN(TT_OP_ELWADD_BH(1, 1, 0, 0, 0, 1, 0));
        TTI_INSN(TT_OP_SEMPOST(1u << EW_SEM));
    }
    return 0;
}
