/* TRISC2 of the matmul example: pack each finished tile from Dst (FP32, Dst32b rows 64t..64t+63)
 * to L1 at MM_OUT + 4 KiB * t, as FP32. Blackhole's packer reads four Dst rows per PACR through
 * its four read interfaces (BH:PACR.md): 16 PACRs per tile, the last with Last to flush. ADC Y of
 * channel 0 walks the Dst rows (Ystride 64 bytes: one Dst32b row), ADC Y of channel 1 the output
 * tile (Ystride 256 units of 16 bytes: 4 KiB), both through ADDR_MOD_PACK slots. */
#include "matmul_data.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

/* ADDR_MOD_PACK: YsrcIncr[3:0] YsrcCR[4] YsrcClear[5] YdstIncr[9:6] ... */
#define NEXT_ROWS 0  /* Y(src) += 4 */
#define NEXT_TILE 1  /* Y(src) += 4, Y(dst) += 1 */
#define PACR(am, last) TT_OP_PACR_BH(0, 0, 0, am, 0, 0, 0, 0, 0, 0, 0, last)

int main(void)
{
    tensim_cfg_set(PCK_DEST_RD_CTRL_Read_32b_data_RMW, 1);
    /* Dstacc (FP32) is set by TRISC1, the one core that writes Config word 1 */
    tensim_cfg_set(THCON_SEC0_REG1_In_data_format_RMW, 0x0);
    tensim_cfg_set(THCON_SEC0_REG1_Out_data_format_RMW, 0x0);
    tensim_cfg_set(THCON_SEC0_REG1_Disable_zero_compress_RMW, 1);
    tensim_cfg_set(THCON_SEC0_REG1_L1_Dest_addr_RMW, MM_OUT / 16 - 1); /* + 1 header unit */
    tensim_cfg_set(PCK_EDGE_OFFSET_SEC0_mask_RMW, 0xFFFF);       /* no edge masking */
    tensim_cfg_set(PCK0_ADDR_CTRL_XY_REG_0_Ystride_RMW, 64);
    tensim_cfg_set(PCK0_ADDR_CTRL_XY_REG_1_Ystride_RMW, 256);

    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32, 4));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC1_YsrcIncr_ADDR32, 4 | 1 << 6));
    TTI_INSN(TT_OP_SETADCXX(1, 0, 0, 15, 0)); /* packer ADC: X from 0 to 15 (a whole row) */
    for (unsigned t = 0; t < MM_TILES; t++) {
        REGION_BEGIN(2);
        /* SEMWAIT: every block bit, condition C0 (wait while the value is 0); then take it */
        TTI_INSN(TT_OP_SEMWAIT(0x1FF, 1u << MM_SEM, 1));
        TTI_INSN(TT_OP_SEMGET(1u << MM_SEM));
        for (unsigned k = 0; k < 15; k++)
            TTI_INSN(PACR(NEXT_ROWS, 0));
        TTI_INSN(PACR(NEXT_TILE, 1));
        REGION_END(2);
    }
    return 0;
}
