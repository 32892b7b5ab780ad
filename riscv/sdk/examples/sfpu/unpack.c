/* TRISC0 of the vector-unit examples (sfpu_tiles.h): put Dst in its 32-bit mode and unpack the
 * host's SK_TILES FP32 tiles from L1 straight into it (unpacker 0, Unpack_If_Sel), tile t at Dst
 * rows 64t..64t+63 (ADC channel 1's Z steps the output by one tile), then tell TRISC1. FP32 goes
 * to Dst unchanged, denormals and NaN payloads included (docs/formats.md). */
#include "sfpu_tiles.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;

    /* Config word 1 (the ALU formats and Dst mode) belongs to this core alone: two cores
     * read-modify-writing one word at once could undo each other's field */
    tensim_cfg_set(ALU_ACC_CTRL_Fp32_enabled_RMW, 1);
    tensim_cfg_set(ALU_FORMAT_SPEC_REG2_Dstacc_RMW, 0x0); /* FP32 */

    /* Tile descriptor (WH:UNPACR_Regular.md "Configuration"): FP32, uncompressed, XDim 16,
     * YDim 64 rows, ZDim `tiles` */
    TENSIM_CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 0) = 0x0u | 1u << 4 | 16u << 16;
    TENSIM_CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 1) = 64u | (uint32_t)tiles << 16;
    TENSIM_CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 2) = 0;
    TENSIM_CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 3) = 0;
    tensim_cfg_set(THCON_SEC0_REG3_Base_address_RMW, SK_IN / 16);
    tensim_cfg_set(THCON_SEC0_REG2_Out_data_format_RMW, 0x0);
    tensim_cfg_set(THCON_SEC0_REG2_Unpack_If_Sel_RMW, 1);  /* to Dst */
    tensim_cfg_set(THCON_SEC0_REG2_Throttle_mode_RMW, 2);  /* x4: 64 bytes per cycle */
    /* The output address is in bytes and counts four rows the model drops for Dst: start four
     * FP32 rows in; each Z step is one tile */
    tensim_cfg_set(UNP0_ADDR_BASE_REG_1_Base_RMW, 4 * 16 * 4);
    tensim_cfg_set(UNP0_ADDR_CTRL_ZW_REG_1_Zstride_RMW, SK_TILE_BYTES);

    TTI_INSN(TT_OP_SETADCXX(0, 0, 1, 1023, 0)); /* unpacker 0: X from 0 to 1023, a whole tile */
    /* UNPACR(WhichUnpacker 0, Ch1YInc, Ch1ZInc 1, Ch0YInc, Ch0ZInc 1, ..., Last 1): the next input
     * tile (channel 0) to the next Dst tile (channel 1) */
    for (unsigned t = 0; t < tiles; t++)
        TTI_INSN(TT_OP_UNPACR(0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1));
    tensim_wait_coproc_done();
    tensim_sem_post(SK_SEM_UNPACKED);
    return 0;
}
