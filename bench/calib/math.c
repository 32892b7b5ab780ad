/* Whole-kernel calibration, figure 3 (issue 16 item 3): the math side of the matmul peak kernel,
 * timed as blackhole-py's docs/math-backend-microbench.md and examples/microbench_math_backend.py
 * did on silicon (shared/calibration.md "Whole-kernel figures": one output-tile K step 54 cycles
 * unthrottled, 49 "throttle0", both one-shot including the drain; MOP programming 101).
 *
 * The silicon method, re-expressed with our sdk encoders (TRISC1 alone):
 *  - "program MOP": the HiFi2 ADDR_MOD set-up (18 SETC16: ADDR_MOD_AB/DST/BIAS slots 0, 1, 2, 4,
 *    5, 6, then SETRWC resetting every counter), REPLAY-load of the 11-word throttled payload
 *    into slots 16..26 (NOP NOP MVMUL(am0) NOP NOP MVMUL(am1) NOP NOP MVMUL(am0) NOP NOP), the
 *    MOPExpanderDoneCheck round trip and nine MopCfg stores from one base register (template 1:
 *    outer 2, inner 2, LoopOp REPLAY(16, 11), LoopOp1 MVMUL(am2), Loop0Last MVMUL(am5),
 *    Loop1Last MVMUL(am4)), SETRWC. Timed over 20 iterations minus the
 *    empty loop (one li per iteration), per iteration, no drain - as silicon's row.
 *  - "tile-K step", one-shot (one loop iteration, minus the one-iteration empty loop): ZEROSRC,
 *    ZEROACC, SETRWC, drain (STALLWAIT(B1 Sync, C4 matrix unit | C11 SFPU) and the
 *    CoprocessorDoneCheck round trip); push SETC16 of the math Dst base by a store; then
 *    unthrottled: MOP, MOP, SETRWC(clear SrcA valid, reset the counters); throttle0: one MOP of
 *    template 1 (outer 1, inner 2, EndOp0 SETRWC, LoopOp/Loop0Last/Loop1Last REPLAY(16, 16) over
 *    16 back-to-back MVMULs); drain.
 * Silicon's isolated rows relied on SrcA/SrcB already being valid for the matrix unit (a second
 * K step in one launch hung); tensim starts with the banks at the unpackers, so before each
 * one-shot row (untimed) this thread hands them over with UNPACR_NOP Set_Dvalid.
 * Not reproduced: "math init 266" - it includes blackhole-py's math._local_state, whose content
 * the documents do not give.
 * Silicon read the wall clock; we read the cycle CSR. Results at CALIB_WK_MATH, cycles:
 * [0] tile-K unthrottled, [1] tile-K throttle0, [2] MOP programming (x100); diagnostics for
 * docs/timing-model.md: [3] the drain alone, [4] prep + drain, one-shot. */
#include <stdint.h>

#include "calib.h"
#include "wk.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

#define DEST_OFFSET ((volatile uint32_t *)0xFFB00F00u) /* local word: the Dst tile offset */
#define PROGRAM_ITERS 20

#define MV(am) TT_OP_MVMUL_BH(0, 0, 0, am, 0)
/* SETRWC(FlipSrcB, FlipSrcA, DstCtoCr, DstCr, SrcBCr, SrcACr, DstVal, SrcBVal, SrcAVal,
 * Fidelity, Dst, SrcB, SrcA): every counter to 0, optionally SrcA handed back */
#define SETRWC_RESET TT_OP_SETRWC(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
#define SETRWC_CLR_A TT_OP_SETRWC(0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
#define DRAIN_STALL TT_OP_STALLWAIT(1u << 1, (1u << 4) | (1u << 11))

static inline __attribute__((always_inline)) void drain(void)
{
    TTI_INSN(DRAIN_STALL);
    wk_ttsync(WK_COPROC_DONE);
}

static inline __attribute__((always_inline)) void addrmod_init(void)
{
    /* HiFi2 32x32 matmul ADDR_MODs, values as the matmul peak kernel programs them:
     * AB: SrcAIncr[5:0] SrcACR[6] SrcAClear[7] SrcBIncr[13:8] SrcBCR[14] SrcBClear[15];
     * DST: DestIncr[9:0] DestCR[10] DestClear[11] .. FidelityIncr[14:13] FidelityClear[15] */
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32, 0x0800));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC0_DestIncr_ADDR32, 8));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_BIAS_SEC0_BiasIncr_ADDR32, 0));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC1_SrcAIncr_ADDR32, 0x4010));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC1_DestIncr_ADDR32, 8));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_BIAS_SEC1_BiasIncr_ADDR32, 0));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC2_SrcAIncr_ADDR32, 0x6040));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC2_DestIncr_ADDR32, 8));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_BIAS_SEC2_BiasIncr_ADDR32, 0));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC4_SrcAIncr_ADDR32, 0x7060));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC4_DestIncr_ADDR32, 0x0400));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_BIAS_SEC4_BiasIncr_ADDR32, 0));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC5_SrcAIncr_ADDR32, 0xC0C0));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC5_DestIncr_ADDR32, 0x2C00));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_BIAS_SEC5_BiasIncr_ADDR32, 0));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0xC0C0));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 0x8C00));
    TTI_INSN(TT_OP_SETC16(ADDR_MOD_BIAS_SEC6_BiasIncr_ADDR32, 0));
    TTI_INSN(SETRWC_RESET);
}

/* MopCfg may be written only when no expansion is running: the MOPExpanderDoneCheck round
 * trip first, then, as blackhole-py's write_mop_cfg does, the MopCfg base into a register once
 * and per word `li` of the value and `sw` at its offset. */
#define WRITE_MOP_CFG(W0, W1, W2, W3, W4, W5, W6, W7, W8)                                      \
    do {                                                                                       \
        wk_ttsync(WK_MOP_DONE);                                                                \
        __asm__ volatile("li t0, %0\n\t"                                                       \
                         "li t1, %1\n\tsw t1, 0(t0)\n\t"                                       \
                         "li t1, %2\n\tsw t1, 4(t0)\n\t"                                       \
                         "li t1, %3\n\tsw t1, 8(t0)\n\t"                                       \
                         "li t1, %4\n\tsw t1, 12(t0)\n\t"                                      \
                         "li t1, %5\n\tsw t1, 16(t0)\n\t"                                      \
                         "li t1, %6\n\tsw t1, 20(t0)\n\t"                                      \
                         "li t1, %7\n\tsw t1, 24(t0)\n\t"                                      \
                         "li t1, %8\n\tsw t1, 28(t0)\n\t"                                      \
                         "li t1, %9\n\tsw t1, 32(t0)"                                          \
                         :                                                                     \
                         : "i"((int32_t)0xFFB80000u), "i"((int32_t)(W0)), "i"((int32_t)(W1)),  \
                           "i"((int32_t)(W2)), "i"((int32_t)(W3)), "i"((int32_t)(W4)),         \
                           "i"((int32_t)(W5)), "i"((int32_t)(W6)), "i"((int32_t)(W7)),         \
                           "i"((int32_t)(W8))                                                  \
                         : "t0", "t1", "memory");                                              \
    } while (0)

static inline __attribute__((always_inline)) void program_mop(int throttle0)
{
    addrmod_init();
    if (throttle0) {
        TTI_INSN(TT_OP_REPLAY(16, 16, 0, 1));
        TTI_INSN(MV(0)); TTI_INSN(MV(1)); TTI_INSN(MV(0)); TTI_INSN(MV(2));
        TTI_INSN(MV(0)); TTI_INSN(MV(1)); TTI_INSN(MV(0)); TTI_INSN(MV(4));
        TTI_INSN(MV(0)); TTI_INSN(MV(1)); TTI_INSN(MV(0)); TTI_INSN(MV(2));
        TTI_INSN(MV(0)); TTI_INSN(MV(1)); TTI_INSN(MV(0)); TTI_INSN(MV(5));
        WRITE_MOP_CFG(1, 2, TT_OP_NOP, SETRWC_CLR_A, TT_OP_NOP, TT_OP_REPLAY(16, 16, 0, 0),
                      TT_OP_NOP, TT_OP_REPLAY(16, 16, 0, 0), TT_OP_REPLAY(16, 16, 0, 0));
    } else {
        TTI_INSN(TT_OP_REPLAY(16, 11, 0, 1));
        TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP); TTI_INSN(MV(0));
        TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP); TTI_INSN(MV(1));
        TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP); TTI_INSN(MV(0));
        TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP);
        WRITE_MOP_CFG(2, 2, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, TT_OP_REPLAY(16, 11, 0, 0), MV(2),
                      MV(5), MV(4));
    }
    TTI_INSN(SETRWC_RESET);
}

static inline __attribute__((always_inline)) void tile_k(int throttle0)
{
    /* prep: ZEROSRC(NegativeInfSrcA, SingleBankMatrixUnit, BothBanks, ClearSrcB, ClearSrcA),
     * ZEROACC (clear_mode 3: all of Dst), SETRWC, drain */
    TTI_INSN(TT_OP_ZEROSRC(0, 0, 1, 1, 1));
    TTI_INSN(TT_OP_ZEROACC(3, 0, 0, 1, 0));
    TTI_INSN(SETRWC_RESET);
    drain();
    /* the math Dst base, pushed by a store as the silicon kernel does */
    TT_PUSH(TT_OP_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 0) | *DEST_OFFSET);
    TTI_INSN(TT_OP_MOP(1, 0, 0));
    if (!throttle0) {
        TTI_INSN(TT_OP_MOP(1, 0, 0));
        TTI_INSN(SETRWC_CLR_A);
    }
    drain();
}

/* The banks go to the matrix unit (untimed): UNPACR_NOP(Unpacker_Select, Stream_Id,
 * Msg_Clr_Cnt, Set_Dvalid, ..., Unpack_Pop) for SrcA and SrcB, then wait. */
static void banks_to_matrix(int srcb)
{
    TTI_INSN(TT_OP_UNPACR_NOP_BH(0, 0, 0, 1, 0, 0, 0, 0, 1));
    if (srcb) /* the unthrottled row hands back SrcA only; SrcB is still the matrix unit's */
        TTI_INSN(TT_OP_UNPACR_NOP_BH(1, 0, 0, 1, 0, 0, 0, 0, 1));
    tensim_wait_coproc_done();
}

#define TIMED(N, BODY)                                                                         \
    ({                                                                                         \
        uint32_t n_ = (N);                                                                     \
        __asm__ volatile("" : "+r"(n_));                                                       \
        const uint32_t t_start = tensim_cycle();                                               \
        for (; n_ != 0; n_--) {                                                                \
            BODY;                                                                              \
        }                                                                                      \
        tensim_cycle() - t_start;                                                              \
    })

int main(void)
{
    volatile uint32_t *const out = (volatile uint32_t *)CALIB_WK_MATH;
    *DEST_OFFSET = 0;
    /* BF16 operands, FP32 Dst: the matmul example's ALU formats */
    tensim_cfg_set(ALU_FORMAT_SPEC_REG0_SrcA_RMW, 0x5);
    tensim_cfg_set(ALU_ACC_CTRL_Fp32_enabled_RMW, 1);
    tensim_cfg_set(ALU_FORMAT_SPEC_REG2_Dstacc_RMW, 0x0);
    uint32_t sink = 0;

    const uint32_t empty1 = TIMED(1, __asm__ volatile("li %0, 0x4D0B0000" : "=r"(sink)));
    const uint32_t emptyn =
        TIMED(PROGRAM_ITERS, __asm__ volatile("li %0, 0x4D0B0000" : "=r"(sink)));

    const uint32_t prog = TIMED(PROGRAM_ITERS, program_mop(0));
    tensim_wait_coproc_done();
    out[2] = (prog - emptyn) * 100u / PROGRAM_ITERS;

    /* diagnostics (not silicon targets): the drain alone and the prep alone, one-shot */
    out[3] = TIMED(1, drain()) - empty1;
    out[4] = TIMED(1, {
                 TTI_INSN(TT_OP_ZEROSRC(0, 0, 1, 1, 1));
                 TTI_INSN(TT_OP_ZEROACC(3, 0, 0, 1, 0));
                 TTI_INSN(SETRWC_RESET);
                 drain();
             }) - empty1;

    banks_to_matrix(1);
    out[0] = TIMED(1, tile_k(0)) - empty1;

    program_mop(1);
    tensim_wait_coproc_done();
    banks_to_matrix(0);
    out[1] = TIMED(1, tile_k(1)) - empty1;
    tensim_wait_coproc_done();
    (void)sink;
    return 0;
}
