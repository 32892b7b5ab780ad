/* TRISC2 of the eltwise example: pack each finished BF16 tile (Dst rows 64t..64t+63) to L1 at
 * EW_OUT + 2 KiB * t: 16 PACRs of four rows (Blackhole's four Dst read interfaces), the last one
 * flushing and stepping the output to the next tile. */
#include "eltwise_data.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

#define PACR(am, last) TT_OP_PACR_BH(0, 0, 0, am, 0, 0, 0, 0, 0, 0, 0, last)

int main(void)
{
    /* Dstacc (BF16) is set by TRISC1, the one core that writes Config word 1 */
    tensim_cfg_set(THCON_SEC0_REG1_In_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC0_REG1_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC0_REG1_Disable_zero_compress_RMW, 1);
    tensim_cfg_set(THCON_SEC0_REG1_L1_Dest_addr_RMW, EW_OUT / 16 - 1);
    tensim_cfg_set(PCK_EDGE_OFFSET_SEC0_mask_RMW, 0xFFFF);
    tensim_cfg_set(PCK0_ADDR_CTRL_XY_REG_0_Ystride_RMW, 32);  /* one BF16 Dst row */
    tensim_cfg_set(PCK0_ADDR_CTRL_XY_REG_1_Ystride_RMW, 128); /* 2 KiB in 16-byte units */

    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32, 4));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC1_YsrcIncr_ADDR32, 4 | 1 << 6));
    TTI_INSN(TT_OP_SETADCXX(1, 0, 0, 15, 0));
    for (unsigned t = 0; t < EW_TILES; t++) {
#ifndef ELTWISE_BUG_NO_SEMWAIT /* the bug of docs/user-guide.md "Debugging a wrong kernel" */
        TTI_INSN(TT_OP_SEMWAIT(0x1FF, 1u << EW_SEM, 1));
#endif
        TTI_INSN(TT_OP_SEMGET(1u << EW_SEM));
        for (unsigned k = 0; k < 15; k++)
            TTI_INSN(PACR(0, 0));
        TTI_INSN(PACR(1, 1));
    }
    return 0;
}
