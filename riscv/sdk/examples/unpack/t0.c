/* TRISC0 of the unpack example (see unpack.h): write the tiles, configure, unpack. */
#include "unpack.h"

/* TileDescriptor words (WH:UNPACR_Regular.md "Configuration"): InDataFormat, IsUncompressed,
 * XDim 16; YDim 64 rows of 16 datums. */
static void descriptor(unsigned addr32, unsigned fmt)
{
    TENSIM_CFG_WORD(addr32 + 0) = fmt | 1u << 4 | 16u << 16;
    TENSIM_CFG_WORD(addr32 + 1) = 64u;
    TENSIM_CFG_WORD(addr32 + 2) = 0;
    TENSIM_CFG_WORD(addr32 + 3) = 0;
}

int main(void)
{
    volatile uint16_t *bf16 = (volatile uint16_t *)(TILE_BF16 + 16);
    volatile uint8_t *exps = (volatile uint8_t *)(TILE_BFP8 + 16);
    volatile uint8_t *bfp8 = (volatile uint8_t *)(TILE_BFP8 + 16 + DATUMS / 16);
    for (unsigned i = 0; i < DATUMS; i++) {
        bf16[i] = bf16_value(i);
        bfp8[i] = bfp8_datum(i);
    }
    for (unsigned b = 0; b < DATUMS / 16; b++)
        exps[b] = bfp8_exp(b);
    tensim_fence();

    /* Unpacker 0: BF16 -> SrcA. The output address starts four rows in (the unpacker drops
     * rows 0..3), in 16-bit units: 4 * 16 * 2 bytes. 64 rows need SRCA_SET_SetOvrdWithAddr. */
    descriptor(THCON_SEC0_REG0_TileDescriptor_ADDR32, 0x5 /* BF16 */);
    tensim_cfg_set(THCON_SEC0_REG3_Base_address_RMW, TILE_BF16 / 16);
    tensim_cfg_set(THCON_SEC0_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC0_REG2_Throttle_mode_RMW, 2); /* x4: 64 bytes per cycle */
    tensim_cfg_set(UNP0_ADDR_BASE_REG_1_Base_RMW, 128);
    /* Unpacker 1: BFP8 -> SrcB (as BF16) */
    descriptor(THCON_SEC1_REG0_TileDescriptor_ADDR32, 0x6 /* BFP8 */);
    tensim_cfg_set(THCON_SEC1_REG3_Base_address_RMW, TILE_BFP8 / 16);
    tensim_cfg_set(THCON_SEC1_REG2_Out_data_format_RMW, 0x6);
    tensim_cfg_set(THCON_SEC1_REG2_Throttle_mode_RMW, 2);

    TTI_INSN(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    TTI_INSN(TT_OP_SETADCXX(0, 1, 1, DATUMS - 1, 0)); /* both unpackers: X from 0 to 1023 */
    /* Phase A: UNPACR(WhichUnpacker, ..., FlipSrc) */
    TTI_INSN(TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1));
    TTI_INSN(TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1));
    tensim_wait_coproc_done();

    /* Phase B: unpacker 0 into Dst, first the BF16 tile to rows 0..63. SetOvrdWithAddr must
     * be off again: with it the Dst row wraps at 16. */
    tensim_cfg_set(THCON_SEC0_REG2_Unpack_If_Sel_RMW, 1);
    TTI_INSN(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, 0));
    TTI_INSN(TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
    tensim_wait_coproc_done();
    /* then the BFP8 tile to rows 64..127 (BFP8 output addresses count bytes: row 68 * 16) */
    descriptor(THCON_SEC0_REG0_TileDescriptor_ADDR32, 0x6);
    tensim_cfg_set(THCON_SEC0_REG3_Base_address_RMW, TILE_BFP8 / 16);
    tensim_cfg_set(THCON_SEC0_REG2_Out_data_format_RMW, 0x6);
    tensim_cfg_set(UNP0_ADDR_BASE_REG_1_Base_RMW, (64 + 4) * 16);
    TTI_INSN(TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
    tensim_wait_coproc_done();

    tensim_sem_post(DONE_SEM);
    return 0;
}
