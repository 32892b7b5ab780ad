/* A Blackhole kernel that breaks six software rules once each (test/test_lint.c,
 * docs/user-guide.md "Lint"): run with --lint it gets six findings; without, the run stops at
 * the one rule whose outcome is undefined (the SFPMAD result read the next cycle). */
#include "tensim.h"
#include "tensix_ops.h"

#define DST_WINDOW ((volatile uint32_t *)0xFFBD8000u)

int main(void)
{
    /* sem_post_max: semaphore 0 at Value 15, then a post */
    TTI_INSN(TT_OP_SEMINIT(15, 15, 1u << 0));
    TTI_INSN(TT_OP_SEMPOST(1u << 0));
    /* SrcA and SrcB banks 0: zeroed and handed to the matrix unit */
    TTI_INSN(TT_OP_UNPACR_NOP_BH(0, 0, 0, 1, 0, 0, 0, 0, 1));
    TTI_INSN(TT_OP_UNPACR_NOP_BH(1, 0, 0, 1, 0, 0, 0, 0, 1));
    /* dst_sfpu_read_early: Dst rows 0..7 = SrcA + SrcB, read by SFPLOAD in the next cycle with
     * no STALLWAIT on the matrix unit */
    TTI_INSN(TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0));
    TTI_INSN(TT_OP_SFPLOAD_BH(0, 0, 0, 0));
    /* dst_riscv_read_early: this core reads Dst row 0 while the ELWADD above is writing it */
    uint32_t acc = 0;
    for (unsigned i = 0; i < 16; i++)
        acc += DST_WINDOW[0];
    /* src_not_owned: SrcA bank 1 goes to the matrix unit, then bank 0 again, which it owns */
    TTI_INSN(TT_OP_SETDVALID(0, 1));
    TTI_INSN(TT_OP_SETDVALID(0, 1));
    /* cfg_write_use: the SFPMAD issues the cycle after a WRCFG (Config word 1 = GPR 0 = 0) */
    TTI_INSN(TT_OP_WRCFG(0, 0, 1));
    TTI_INSN(TT_OP_SFPMAD(1, 2, 9, 3, 0));
    /* sfpu_mad_result: SFPIADD reads LReg 3 (its VD) the cycle after the SFPMAD wrote it,
     * a read Blackhole's interlock misses */
    TTI_INSN(TT_OP_SFPIADD(0, 5, 3, 4));
    return (int)(acc & 0);
}
