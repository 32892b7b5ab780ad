/* TRISC1 of the throttled matmul example: tt-llk's Blackhole matmul math
 * (tt_llk_blackhole/llk_lib/llk_math_matmul.h: matmul_configure_addrmod, matmul_configure_mop,
 * matmul_configure_mop_throttled, _llk_math_matmul_) for 32x32 tiles, not transposed,
 * ct_dim = MT_CT, rt_dim = 1, with the throttle level (0..5) and the fidelity phases (1..4) read
 * from MT_PARAM at run time, so that one ELF serves every sweep point. Our own code; the facts
 * reproduced are tt-llk's ADDR_MOD values, replay-buffer contents and MOP templates per level.
 *
 * One product (A_k in SrcB by B_kj in SrcA into Dst tile j) is 16 MVMULs per fidelity phase,
 * 8 Dst rows each. Unthrottled (level 0) the replay buffer holds the 16 back to back; the MOP
 * plays it once (LoFi) or once per phase with a SETRWC handing SrcA back at the end (HiFi).
 * Throttled, tt-llk puts plain NOPs between the MVMULs in the replay buffer and lets the MOP's
 * LoopOp1 slot add one MVMUL per inner iteration; per phase, MVMULs : issue slots is
 *   level 1: 2 x (replay 10 = 3 NOP + 7 MVMUL, + 1 MVMUL) = 16 : 22 (73 %)
 *   level 2: 2 x (replay 11 = 4 NOP + 7 MVMUL, + 1)       = 16 : 24 (67 %)
 *   level 3: 2 x (replay 15 = 8 NOP + 7 MVMUL, + 1)       = 16 : 32 (50 %)
 *   level 4: 2 x 2 x (replay 9 = 6 NOP + 3 MVMUL, + 1)    = 16 : 40 (40 %)
 *   level 5: 2 x 2 x (replay 11 = 8 NOP + 3 MVMUL, + 1)   = 16 : 48 (33 %)
 * which is where tt-llk's documented 73/67/50/40/33 % come from. Levels 4 and 5 cover one half
 * of the tile per outer iteration, so a HiFi tile is one MOP per phase.
 *
 * Region 1 spans the products from the first push to the thread's drain (so it holds the matrix unit's time, not only the pushes); region 0 the set-up. */
#include <stdint.h>

#include "mmthrottle.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

/* ADDR_MOD_AB: SrcAIncr[5:0] SrcACR[6] SrcAClear[7] SrcBIncr[13:8] SrcBCR[14] SrcBClear[15];
 * ADDR_MOD_DST: DestIncr[9:0] DestCR[10] DestClear[11] DestCToCR[12] FidelityIncr[14:13]
 * FidelityClear[15]. The values of matmul_configure_addrmod (32x32, not transposed): */
#define AM0_AB 0x0800u /* SrcB += 8 */
#define AM1_AB 0x4010u /* SrcA += 16, SrcB = its CR */
#define AM2_AB 0x6040u /* SrcA = its CR, SrcB = CR + 32 */
#define AM4_AB 0x7060u /* SrcA = CR + 32, SrcB = CR + 48 (wraps to 16) */
#define AM56_AB 0xC0C0u /* clear both (and their CRs) */
#define STEP8 8u        /* Dst += 8 */
#define DST_CR 0x0400u  /* Dst = its CR */
#define DST_CLEAR 0x0C00u
#define FID_INCR (1u << 13)
#define FID_CLEAR (1u << 15)

/* MVMUL(FlipSrcB, FlipSrcA, BroadcastSrcBRow, AddrMod, DstRow): CLR_NONE / CLR_A */
#define MV(am) TT_OP_MVMUL_BH(0, 0, 0, am, 0)
#define MV_CLR_A(am) TT_OP_MVMUL_BH(0, 1, 0, am, 0)
/* SETRWC(FlipSrcB, FlipSrcA, ..., Fidelity, Dst, SrcB, SrcA): hand a bank back, reset the
 * counters (tt-llk's SETRWC(CLR_x, ..., SET_ABD_F)) */
#define SETRWC_CLR_A TT_OP_SETRWC(0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
#define SETRWC_CLR_B TT_OP_SETRWC(1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
#define SETRWC_RESET TT_OP_SETRWC(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
#define NOP TT_OP_NOP
#define I(w) TTI_INSN(w)

#define MOP_CFG ((volatile uint32_t *)0xFFB80000u)
#define REPLAY_AT 0 /* replay buffer slot of the sequence */

/* The replay-buffer contents; returns their length (run_throttled_sequence<L> for L > 0). */
static unsigned record(unsigned level, unsigned phases)
{
    switch (level) {
    case 0:
        I(TT_OP_REPLAY(REPLAY_AT, 16, 0, 1));
        I(MV(0)); I(MV(1)); I(MV(0)); I(MV(2)); I(MV(0)); I(MV(1)); I(MV(0)); I(MV(4));
        I(MV(0)); I(MV(1)); I(MV(0)); I(MV(2)); I(MV(0)); I(MV(1)); I(MV(0));
        /* HiFi: next phase (addr mod 5 increments the fidelity); LoFi: SrcA back as well */
        if (phases > 1)
            I(MV(5));
        else
            I(MV_CLR_A(5));
        return 16;
    case 1:
        I(TT_OP_REPLAY(REPLAY_AT, 10, 0, 1));
        I(NOP); I(MV(0)); I(MV(1)); I(MV(0)); I(NOP); I(MV(2)); I(MV(0)); I(MV(1)); I(NOP); I(MV(0));
        return 10;
    case 2:
        I(TT_OP_REPLAY(REPLAY_AT, 11, 0, 1));
        I(NOP); I(MV(0)); I(MV(1)); I(NOP); I(MV(0)); I(MV(2)); I(NOP); I(MV(0)); I(MV(1)); I(NOP);
        I(MV(0));
        return 11;
    case 3:
        I(TT_OP_REPLAY(REPLAY_AT, 15, 0, 1));
        I(NOP); I(MV(0)); I(NOP); I(MV(1)); I(NOP); I(MV(0)); I(NOP); I(MV(2)); I(NOP); I(MV(0));
        I(NOP); I(MV(1)); I(NOP); I(MV(0)); I(NOP);
        return 15;
    case 4:
        I(TT_OP_REPLAY(REPLAY_AT, 9, 0, 1));
        I(NOP); I(MV(0)); I(NOP); I(NOP); I(MV(1)); I(NOP); I(MV(0)); I(NOP); I(NOP);
        return 9;
    default:
        I(TT_OP_REPLAY(REPLAY_AT, 11, 0, 1));
        I(NOP); I(NOP); I(MV(0)); I(NOP); I(NOP); I(MV(1)); I(NOP); I(NOP); I(MV(0)); I(NOP); I(NOP);
        return 11;
    }
}

/* MopCfg as ckernel_template::program() writes it: outer, inner, start op, end ops, loop ops,
 * last-outer (Loop0Last) and last-inner (Loop1Last) replacements. */
static void program_mop(unsigned level, unsigned phases, unsigned len)
{
    const uint32_t replay = TT_OP_REPLAY(REPLAY_AT, len, 0, 0);
    uint32_t cfg[9] = {1, 1, NOP, NOP, NOP, replay, NOP, replay, replay};
    if (level == 0) {
        /* matmul_configure_mop: inner loop = the phases, EndOp0 hands SrcA back (HiFi) */
        cfg[1] = phases;
        if (phases > 1)
            cfg[3] = SETRWC_CLR_A;
    } else {
        /* matmul_configure_mop_throttled */
        cfg[0] = level > 3 ? 2 : phases;
        cfg[1] = 2;
        cfg[6] = MV(level > 3 ? 2 : 4);
        if (phases > 1 && level > 3) {
            cfg[8] = MV(4);
            cfg[7] = MV(5);
        } else if (phases > 1) {
            cfg[8] = MV(5);
            cfg[7] = MV_CLR_A(6);
        } else {
            cfg[8] = level > 3 ? MV(4) : cfg[6];
            cfg[7] = MV_CLR_A(5);
        }
    }
    for (unsigned i = 0; i < 9; i++)
        MOP_CFG[i] = cfg[i];
}

int main(void)
{
    const volatile uint32_t *param = (const volatile uint32_t *)MT_PARAM;
    unsigned phases = param[0], level = param[1];
    if (phases == 0) /* nothing loaded: HiFi4, unthrottled */
        phases = 4;
    if (phases > 4 || level > 5)
        return 2; /* a bad sweep point fails the run rather than measuring something else */

    tensim_region_begin(0);
    /* Config word 1 (ALU formats, Dst mode) belongs to this core alone */
    tensim_cfg_set(ALU_FORMAT_SPEC_REG0_SrcA_RMW, 0x5);   /* BF16 operands */
    tensim_cfg_set(ALU_ACC_CTRL_Fp32_enabled_RMW, 1);     /* FP32 Dst */
    tensim_cfg_set(ALU_FORMAT_SPEC_REG2_Dstacc_RMW, 0x0); /* FP32 */

    /* matmul_configure_addrmod; addr mod 5 increments the fidelity only at HiFi, 6 (the
     * throttled HiFi MOPs' last MVMUL) clears it */
    I(TT_OP_SETC16(ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32, AM0_AB));
    I(TT_OP_SETC16(ADDR_MOD_DST_SEC0_DestIncr_ADDR32, STEP8));
    I(TT_OP_SETC16(ADDR_MOD_AB_SEC1_SrcAIncr_ADDR32, AM1_AB));
    I(TT_OP_SETC16(ADDR_MOD_DST_SEC1_DestIncr_ADDR32, STEP8));
    I(TT_OP_SETC16(ADDR_MOD_AB_SEC2_SrcAIncr_ADDR32, AM2_AB));
    I(TT_OP_SETC16(ADDR_MOD_DST_SEC2_DestIncr_ADDR32, STEP8));
    I(TT_OP_SETC16(ADDR_MOD_AB_SEC4_SrcAIncr_ADDR32, AM4_AB));
    I(TT_OP_SETC16(ADDR_MOD_DST_SEC4_DestIncr_ADDR32, DST_CR));
    I(TT_OP_SETC16(ADDR_MOD_AB_SEC5_SrcAIncr_ADDR32, AM56_AB));
    I(TT_OP_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, AM56_AB));
    I(TT_OP_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, DST_CLEAR | FID_CLEAR));
    if (phases > 1)
        I(TT_OP_SETC16(ADDR_MOD_DST_SEC5_DestIncr_ADDR32, DST_CLEAR | FID_INCR));
    else
        I(TT_OP_SETC16(ADDR_MOD_DST_SEC5_DestIncr_ADDR32, DST_CLEAR));

    const unsigned len = record(level, phases);
    program_mop(level, phases, len);
    I(SETRWC_RESET); /* math::reset_counters(SET_ABD_F) */
    /* one MOP per product, one per phase at HiFi levels 4 and 5 */
    const unsigned mops = (level > 3 && phases > 1) ? phases : 1;
    tensim_region_end(0);

    tensim_region_begin(1);
    const unsigned ksteps = mt_ksteps();
    for (unsigned k = 0; k < ksteps; k++)
        for (unsigned j = 0; j < MT_CT; j++) {
            /* math::set_dst_write_addr: Dst tile j (64 rows each) */
            TT_PUSH(TT_OP_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, j * 64));
            for (unsigned m = 0; m < mops; m++)
                I(TT_OP_MOP(1, 0, 0));
            if (mops > 1)
                I(SETRWC_CLR_A);
            if (j == MT_CT - 1) /* end of the reuse of A_k: SrcB back */
                I(SETRWC_CLR_B);
        }
    I(TT_OP_SEMPOST(1u << MT_DONE_SEM));
    tensim_wait_coproc_done();
    tensim_region_end(1);
    return 0;
}
