/* TRISC2 of the throttled matmul example: once TRISC1 says every product has issued, pack the
 * MT_CT tiles from Dst (FP32, Dst32b rows 64j..64j+63) to L1 at MT_OUT + 4 KiB * j, as the
 * matmul example's packer does (16 PACRs per tile, four Dst rows each). The bench compares
 * the output with mmthrottle-c.bin (gen_data.c), the exact product, at every sweep point. */
#include "mmthrottle.h"
#ifdef MT_CHIP
#include "../chip/mmfpu.h"
#endif
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

/* ADDR_MOD_PACK: YsrcIncr[3:0] YsrcCR[4] YsrcClear[5] YdstIncr[9:6] ... */
#define NEXT_ROWS 0 /* Y(src) += 4 */
#define NEXT_TILE 1 /* Y(src) += 4, Y(dst) += 1 */
#define PACR(am, last) TT_OP_PACR_BH(0, 0, 0, am, 0, 0, 0, 0, 0, 0, 0, last)

int main(void)
{
    tensim_cfg_set(PCK_DEST_RD_CTRL_Read_32b_data_RMW, 1);
    tensim_cfg_set(THCON_SEC0_REG1_In_data_format_RMW, 0x0);
    tensim_cfg_set(THCON_SEC0_REG1_Out_data_format_RMW, 0x0);
    tensim_cfg_set(THCON_SEC0_REG1_Disable_zero_compress_RMW, 1);
    tensim_cfg_set(THCON_SEC0_REG1_L1_Dest_addr_RMW, MT_OUT / 16 - 1); /* + 1 header unit */
    tensim_cfg_set(PCK_EDGE_OFFSET_SEC0_mask_RMW, 0xFFFF);
    tensim_cfg_set(PCK0_ADDR_CTRL_XY_REG_0_Ystride_RMW, 64);
    tensim_cfg_set(PCK0_ADDR_CTRL_XY_REG_1_Ystride_RMW, 256);

    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32, 4));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC1_YsrcIncr_ADDR32, 4 | 1 << 6));
    TTI_INSN(TT_OP_SETADCXX(1, 0, 0, 15, 0)); /* packer ADC: X from 0 to 15 (a whole row) */
    /* wait on the RISC-V side, so that region 2 holds the packing alone */
    while (tensim_sem_value(MT_DONE_SEM) == 0)
        ;
    tensim_sem_get(MT_DONE_SEM);
    tensim_region_begin(2);
    for (unsigned j = 0; j < MT_CT; j++) {
        for (unsigned k = 0; k < 15; k++)
            TTI_INSN(PACR(NEXT_ROWS, 0));
        TTI_INSN(PACR(NEXT_TILE, 1));
    }
    tensim_wait_coproc_done();
    tensim_region_end(2);
#ifdef MT_CHIP /* on a chip (examples/chip/mmfpu.c): C is in L1, BRISC may send it */
    *(volatile uint32_t *)MF_DONE = 1;
    tensim_fence();
#endif

    return 0;
}
