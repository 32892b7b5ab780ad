/* TRISC0 of the matmul example: write the operand tiles, configure both unpackers, and unpack
 * each tile pair: B_t into SrcA through unpacker 0 and A_t into SrcB through unpacker 1
 * (MVMUL computes Dst += SrcB @ SrcA, seed 004 "Register files"), handing each bank to the
 * matrix unit. The Z counter of ADC channel 0 steps from tile to tile; an UNPACR whose bank
 * the matrix unit still holds waits in the unpacker until the last MVMUL of that bank gives it
 * back. */
#include "matmul_data.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

static void descriptor(unsigned addr32)
{
    /* BF16, uncompressed, XDim 16, YDim 64 (one tile), ZDim MM_TILES */
    TENSIM_CFG_WORD(addr32 + 0) = 0x5u | 1u << 4 | 16u << 16;
    TENSIM_CFG_WORD(addr32 + 1) = 64u | (uint32_t)MM_TILES << 16;
    TENSIM_CFG_WORD(addr32 + 2) = 0;
    TENSIM_CFG_WORD(addr32 + 3) = 0;
}

int main(void)
{
    volatile uint16_t *a = (volatile uint16_t *)(MM_A + 16), *b = (volatile uint16_t *)(MM_B + 16);
    for (unsigned t = 0; t < MM_TILES; t++)
        for (unsigned r = 0; r < 32; r++)
            for (unsigned c = 0; c < 32; c++) {
                a[t * 1024 + mm_face_index(r, c)] = mm_value(0, t, r, c);
                b[t * 1024 + mm_face_index(r, c)] = mm_value(1, t, r, c);
            }
    tensim_fence();

    descriptor(THCON_SEC0_REG0_TileDescriptor_ADDR32);
    tensim_cfg_set(THCON_SEC0_REG3_Base_address_RMW, MM_B / 16);
    tensim_cfg_set(THCON_SEC0_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC0_REG2_Throttle_mode_RMW, 2);
    tensim_cfg_set(UNP0_ADDR_BASE_REG_1_Base_RMW, 4 * 16 * 2); /* SrcA output starts 4 rows in */
    descriptor(THCON_SEC1_REG0_TileDescriptor_ADDR32);
    tensim_cfg_set(THCON_SEC1_REG3_Base_address_RMW, MM_A / 16);
    tensim_cfg_set(THCON_SEC1_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC1_REG2_Throttle_mode_RMW, 2);

    TTI_INSN(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    TTI_INSN(TT_OP_SETADCXX(0, 1, 1, 1023, 0));
    for (unsigned t = 0; t < MM_TILES; t++) {
        /* UNPACR(WhichUnpacker, Ch1YInc, Ch1ZInc, Ch0YInc, Ch0ZInc = 1, ..., FlipSrc = 1, ...) */
        TTI_INSN(TT_OP_UNPACR(0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0));
        TTI_INSN(TT_OP_UNPACR(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0));
    }
    return 0;
}
