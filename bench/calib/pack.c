/* Whole-kernel calibration, figure 1 (issue 16 item 3): pack one 32x32 tile (1024 values) from
 * Dst to L1, as blackhole-py's tests/movement/packer/test_l1_accumulation.py times it on silicon
 * (shared/calibration.md "Whole-kernel figures": BF16 116 cycles, FP32 180; four passes 428 / 684;
 * L1 accumulate the same).
 *
 * The silicon method, re-expressed with our sdk encoders:
 *  - configuration outside the timed region: output format, row addressing (ADDR_MOD_PACK slot 0
 *    steps Dst Y by one row, slot 1 clears it), and a MOP template 1 of one outer and 64 inner
 *    iterations whose loop op is a one-interface PACR (ReadIntfSel 0b0001: one 16-value Dst row
 *    per PACR) and whose last op is the same PACR with AddrMod 1 and Last;
 *  - timed region: a CoprocessorDoneCheck round trip (sw, lw, use), cycle read; then per pass:
 *    three SETADC (packer Dst position Y, Z, W = 0), two RISC-V stores to Config (L1 destination,
 *    destination offset), SETADCXX (X 0..15), MOP, STALLWAIT(B1 Sync, C3 packer), and the
 *    CoprocessorDoneCheck round trip; cycle read. Nothing is subtracted (the silicon intervals
 *    "include destination setup, PACR/MOP execution, and completion drains").
 * Silicon read the wall clock through its profiler; we read the cycle CSR (same clock, 1.35 GHz).
 *
 * Runs alone on TRISC2. Results: cycles per row, at CALIB_WK_PACK + 4 * i in the order of
 * calibrate.c's pack rows. */
#include <stdint.h>

#include "calib.h"
#include "wk.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

#define OUT 0x40000u /* output tile (4 KiB of FP32) in L1 */
#define MOP_CFG ((volatile uint32_t *)0xFFB80000u)
#define MOP_DONE ((volatile uint32_t *)0xFFE80008u) /* MOPExpanderDoneCheck */

/* PACR_BH(CfgContext, RowPadZero, DstAccessMode, AddrMod, AddrCntContext, ZeroWrite,
 * ReadIntfSel, OvrdThreadId, Concat, CtxtCtrl, Flush, Last): one read interface */
#define PACR_ROW TT_OP_PACR_BH(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0)
#define PACR_LAST TT_OP_PACR_BH(0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1)


static uint32_t pack_row(unsigned out_format, unsigned passes, unsigned accumulate)
{
    /* configuration, untimed (the silicon test configures before its first profile record) */
    tensim_wait_coproc_done();
    tensim_cfg_set(THCON_SEC0_REG1_Out_data_format_RMW, out_format);
    tensim_cfg_set(THCON_SEC0_REG1_Pack_L1_Acc_RMW, accumulate);
    tensim_cfg_set(THCON_SEC0_REG1_Disable_pack_zero_flags_RMW, accumulate);
    (void)*MOP_DONE; /* MopCfg may be written only when no expansion is running */
    const uint32_t nop = TT_OP_NOP;
    MOP_CFG[0] = 1;  /* outer */
    MOP_CFG[1] = 64; /* inner: one PACR per 16-value row */
    MOP_CFG[2] = nop;
    MOP_CFG[3] = nop;
    MOP_CFG[4] = nop;
    MOP_CFG[5] = PACR_ROW;
    MOP_CFG[6] = nop;
    MOP_CFG[7] = PACR_LAST;
    MOP_CFG[8] = PACR_LAST;

    wk_ttsync(WK_COPROC_DONE);
    const uint32_t t0 = tensim_cycle();
    for (unsigned p = 0; p < passes; p++) {
        TTI_INSN(TT_OP_SETADC(1, 0, 0, 0, 1, 0));
        TTI_INSN(TT_OP_SETADC(1, 0, 0, 0, 2, 0));
        TTI_INSN(TT_OP_SETADC(1, 0, 0, 0, 3, 0));
        WK_WRITE32(0xFFEF0000u + 4 * THCON_SEC0_REG1_L1_Dest_addr_ADDR32, OUT / 16 - 1);
        WK_WRITE32(0xFFEF0000u + 4 * DEST_TARGET_REG_CFG_PACK_SEC0_Offset_ADDR32, 0);
        TTI_INSN(TT_OP_SETADCXX(1, 0, 0, 15, 0));
        TTI_INSN(TT_OP_MOP(1, 0, 0));
        TTI_INSN(TT_OP_STALLWAIT(1u << 1, 1u << 3)); /* B1 Sync, C3 packer */
        wk_ttsync(WK_COPROC_DONE);
    }
    const uint32_t t1 = tensim_cycle();
    return t1 - t0;
}

int main(void)
{
    volatile uint32_t *const out = (volatile uint32_t *)CALIB_WK_PACK;
    /* Dst holds FP32 (the silicon test unpacks FP32 straight to Dst); its values do not matter
     * to the timing, zero compression is off. */
    tensim_cfg_set(ALU_ACC_CTRL_Fp32_enabled_RMW, 1);
    tensim_cfg_set(ALU_FORMAT_SPEC_REG2_Dstacc_RMW, 0x0);
    tensim_cfg_set(PCK_DEST_RD_CTRL_Read_32b_data_RMW, 1);
    tensim_cfg_set(THCON_SEC0_REG1_In_data_format_RMW, 0x0);
    tensim_cfg_set(THCON_SEC0_REG1_Disable_zero_compress_RMW, 1);
    tensim_cfg_set(PCK_EDGE_OFFSET_SEC0_mask_RMW, 0xFFFF);
    tensim_cfg_set(PCK0_ADDR_CTRL_XY_REG_0_Ystride_RMW, 64); /* one Dst32b row */
    /* ADDR_MOD_PACK: slot 0 Y(src) += 1 (the next Dst row), slot 1 clears Y(src) on close */
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32, 1));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC1_YsrcIncr_ADDR32, 1u << 5));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_PACK_SEC2_YsrcIncr_ADDR32, 0));

    unsigned i = 0;
    out[i++] = pack_row(0x5, 1, 0); /* BF16, one pass */
    out[i++] = pack_row(0x0, 1, 0); /* FP32, one pass */
    out[i++] = pack_row(0x5, 4, 0); /* BF16, four passes */
    out[i++] = pack_row(0x0, 4, 0); /* FP32, four passes */
    out[i++] = pack_row(0x5, 1, 1); /* BF16, one pass, L1 accumulate */
    out[i++] = pack_row(0x0, 1, 1); /* FP32, one pass, L1 accumulate */
    tensim_wait_coproc_done();
    return 0;
}
