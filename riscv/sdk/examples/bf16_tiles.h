/* Unpacker set-up shared by the eltwise and matmul examples (WH:UNPACR_Regular.md).
 *
 * Each operand is a run of `tiles` uncompressed BF16 tiles in L1: a 16-byte header, then 1024
 * datums as 64 rows of 16 (XDim 16, YDim 64). Unpacker 0 feeds SrcA from one run, unpacker 1
 * SrcB from the other; the Z counter of ADC channel 0 steps from tile to tile. The RISC-V writes
 * Config directly, so this runs before the kernel pushes its first UNPACR. */
#ifndef BF16_TILES_H
#define BF16_TILES_H

#include <stdint.h>

#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

static inline void bf16_tiles_descriptor(unsigned addr32, unsigned tiles)
{
    /* BF16, uncompressed, XDim 16, YDim 64 (one tile), ZDim tiles */
    TENSIM_CFG_WORD(addr32 + 0) = 0x5u | 1u << 4 | 16u << 16;
    TENSIM_CFG_WORD(addr32 + 1) = 64u | (uint32_t)tiles << 16;
    TENSIM_CFG_WORD(addr32 + 2) = 0;
    TENSIM_CFG_WORD(addr32 + 3) = 0;
}

/* Unpacker 0 reads the run at `srca_l1` into SrcA, unpacker 1 the run at `srcb_l1` into SrcB,
 * both as BF16 at the x4 fetch rate. */
static inline void bf16_tiles_setup(uint32_t srca_l1, uint32_t srcb_l1, unsigned tiles)
{
    bf16_tiles_descriptor(THCON_SEC0_REG0_TileDescriptor_ADDR32, tiles);
    tensim_cfg_set(THCON_SEC0_REG3_Base_address_RMW, srca_l1 / 16);
    tensim_cfg_set(THCON_SEC0_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC0_REG2_Throttle_mode_RMW, 2);
    tensim_cfg_set(UNP0_ADDR_BASE_REG_1_Base_RMW, 4 * 16 * 2); /* SrcA output starts 4 rows in */
    bf16_tiles_descriptor(THCON_SEC1_REG0_TileDescriptor_ADDR32, tiles);
    tensim_cfg_set(THCON_SEC1_REG3_Base_address_RMW, srcb_l1 / 16);
    tensim_cfg_set(THCON_SEC1_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC1_REG2_Throttle_mode_RMW, 2);

    TTI_INSN(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    TTI_INSN(TT_OP_SETADCXX(0, 1, 1, 1023, 0));
}

/* The next tile of each run into SrcA and SrcB, handing both banks to the matrix unit:
 * UNPACR(WhichUnpacker, Ch1YInc, Ch1ZInc, Ch0YInc, Ch0ZInc = 1, ..., FlipSrc = 1, ...). */
static inline void bf16_tiles_unpack_pair(void)
{
    TTI_INSN(TT_OP_UNPACR(0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1));
    TTI_INSN(TT_OP_UNPACR(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1));
}

#endif
