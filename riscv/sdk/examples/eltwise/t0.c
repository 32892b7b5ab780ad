/* TRISC0 of the eltwise example: write A and B, unpack A_t into SrcA (unpacker 0) and B_t into
 * SrcB (unpacker 1) tile after tile, handing each bank pair to the matrix unit. */
#include "eltwise_data.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

static void descriptor(unsigned addr32)
{
    /* BF16, uncompressed, XDim 16, YDim 64 (one tile), ZDim EW_TILES */
    TENSIM_CFG_WORD(addr32 + 0) = 0x5u | 1u << 4 | 16u << 16;
    TENSIM_CFG_WORD(addr32 + 1) = 64u | (uint32_t)EW_TILES << 16;
    TENSIM_CFG_WORD(addr32 + 2) = 0;
    TENSIM_CFG_WORD(addr32 + 3) = 0;
}

int main(void)
{
    volatile uint16_t *a = (volatile uint16_t *)(EW_A + 16), *b = (volatile uint16_t *)(EW_B + 16);
    for (unsigned t = 0; t < EW_TILES; t++)
        for (unsigned i = 0; i < 1024; i++) {
            a[t * 1024 + i] = ew_value(0, t, i);
            b[t * 1024 + i] = ew_value(1, t, i);
        }
    tensim_fence();

    descriptor(THCON_SEC0_REG0_TileDescriptor_ADDR32);
    tensim_cfg_set(THCON_SEC0_REG3_Base_address_RMW, EW_A / 16);
    tensim_cfg_set(THCON_SEC0_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC0_REG2_Throttle_mode_RMW, 2);
    tensim_cfg_set(UNP0_ADDR_BASE_REG_1_Base_RMW, 4 * 16 * 2); /* SrcA output starts 4 rows in */
    descriptor(THCON_SEC1_REG0_TileDescriptor_ADDR32);
    tensim_cfg_set(THCON_SEC1_REG3_Base_address_RMW, EW_B / 16);
    tensim_cfg_set(THCON_SEC1_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC1_REG2_Throttle_mode_RMW, 2);

    TTI_INSN(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    TTI_INSN(TT_OP_SETADCXX(0, 1, 1, 1023, 0));
    for (unsigned t = 0; t < EW_TILES; t++) {
        TTI_INSN(TT_OP_UNPACR(0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)); /* Ch0ZInc 1, FlipSrc */
        TTI_INSN(TT_OP_UNPACR(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0));
    }
    return 0;
}
