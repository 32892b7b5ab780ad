/* Calibration kernel (issue 16, `make calibrate`): times the RISC-V core, memory and push figures
 * of shared/calibration.md the way the silicon numbers were taken (blackhole-py's
 * riscv_core_bench, riscv_memory_bench, riscv_special_instr_bench and tensix_instr_bench):
 *
 *     1: beq s0, zero, 2f ; BODY ; addi s0, s0, -1 ; j 1b ; 2:
 *
 * between two reads of the cycle counter, for ITERS iterations (10000 for the core and memory
 * rows, 100 for the Tensix pushes), minus the same loop with an empty body, divided by the
 * operations in ITERS bodies. The bodies use the registers and operands the silicon probes used
 * (dependent chains on s1, independent ones on t0..t3, divu of 0x12345679 by 3 over and over),
 * because several figures depend on them: the divider's time on the dividend, a load's cost on
 * whether its register is still being written.
 *
 * Runs on TRISC0 of a Blackhole tile. Results as calib.h says; bench/calib/calibrate.c names the
 * slots (keep the two lists in the same order). */
#include <stdint.h>

#include "calib.h"
#include "tensim.h"
#include "tensix_ops.h"

#define CALIB_L1 0x3F800u          /* the fixed L1 word the L1 rows load and store */
#define CALIB_LOCAL 0xFFB00080u    /* a local data RAM word well below the stack */
#define CALIB_BRISC_LOCAL 0xFFB14080u /* BRISC's local data RAM through the slow shared window */

#define STR_(x) #x
#define STR(x) STR_(x)

/* One timed loop of ITERS iterations. s3 = A (the address), s4 = B (an operand or a Tensix
 * word), s1 = C; BODY may use s1, s3, s4, s5 and t0..t3. */
#define TIMED(ITERS, BODY, A, B, C)                                                            \
    ({                                                                                         \
        uint32_t t_start, t_end;                                                               \
        __asm__ volatile("mv s3, %[a]\n\t"                                                     \
                         "mv s4, %[b]\n\t"                                                     \
                         "mv s1, %[c]\n\t"                                                     \
                         "li s0, " STR(ITERS) "\n\t"                                           \
                         "csrr %[s], cycle\n"                                                  \
                         "1:\n\t"                                                              \
                         "beq s0, zero, 2f\n\t" BODY "\n\t"                                    \
                         "addi s0, s0, -1\n\t"                                                 \
                         "j 1b\n"                                                              \
                         "2:\n\t"                                                              \
                         "csrr %[e], cycle\n"                                                  \
                         : [s] "=&r"(t_start), [e] "=&r"(t_end)                                \
                         : [a] "r"(A), [b] "r"(B), [c] "r"(C)                                  \
                         : "s0", "s1", "s3", "s4", "s5", "t0", "t1", "t2", "t3", "memory");    \
        t_end - t_start;                                                                       \
    })

static volatile uint32_t *const out = (volatile uint32_t *)CALIB_OUT;

/* Cycles per operation x100 from a loop's count and the empty loop's; ITERS bodies of k
 * operations each. */
static uint32_t per_op(uint32_t loop, uint32_t empty, uint32_t k, uint32_t iters)
{
    return (uint32_t)(((loop - empty) * 100u + k * iters / 2) / (k * iters));
}

#define CORE_ITERS 10000
#define PUSH_ITERS 100

int main(void)
{
    const uint32_t l1 = CALIB_L1, loc = CALIB_LOCAL, xloc = CALIB_BRISC_LOCAL;
    const uint32_t ib = TENSIM_INSTRN_BUF_BASE, tts = TENSIM_TTSYNC_COPROC_DONE;
    const uint32_t nop = TT_OP_NOP, stall = TT_OP_STALLWAIT(0, 0);
    const uint32_t seminit = TT_OP_SEMINIT(1, 0, 1u << 1); /* MATH_PACK (semaphore 1): 0 of 1 */
    unsigned i = 0;

    /* The empty loops, each timed twice so that the first run warms nothing the second uses. */
    uint32_t empty = TIMED(CORE_ITERS, "", 0, 0, 0);
    empty = TIMED(CORE_ITERS, "", 0, 0, 0);
    uint32_t empty_push = TIMED(PUSH_ITERS, "", 0, 0, 0);
    empty_push = TIMED(PUSH_ITERS, "", 0, 0, 0);

    /* A fence and a drain of thread 0 separate the rows: nothing of one row overlaps the next. */
#define ROW(K, BODY, A, B, C)                                                                  \
    do {                                                                                       \
        tensim_fence();                                                                        \
        out[i++] = per_op(TIMED(CORE_ITERS, BODY, A, B, C), empty, K, CORE_ITERS);             \
        tensim_wait_coproc_done();                                                             \
    } while (0)
#define PUSH_ROW(K, BODY, A, B, C)                                                             \
    do {                                                                                       \
        tensim_fence();                                                                        \
        out[i++] = per_op(TIMED(PUSH_ITERS, BODY, A, B, C), empty_push, K, PUSH_ITERS);        \
        tensim_wait_coproc_done();                                                             \
    } while (0)
#define REP4(X) X "\n\t" X "\n\t" X "\n\t" X
#define REP8(X) REP4(X) "\n\t" REP4(X)

    /* 0..4: the core rows (riscv_core_bench, riscv_special_instr_bench) */
    ROW(8, REP8("add s1, s1, s4"), 0, 3, 0x12345679);
    ROW(4, "mul t0, t0, s4\n\tmul t1, t1, s4\n\tmul t2, t2, s4\n\tmul t3, t3, s4", 0, 3, 0);
    ROW(1, "divu s1, s1, s4", 0, 3, 0x12345679);
    ROW(1, "fence", 0, 0, 0);
    ROW(4, "csrrs t0, 0x7C0, zero\n\tcsrrs t1, 0x7C0, zero\n\t"
           "csrrs t2, 0x7C0, zero\n\tcsrrs t3, 0x7C0, zero", 0, 0, 0);
    /* 5..6: local data RAM (riscv_memory_bench ldm_*) */
    ROW(1, "lw s1, 0(s3)", loc, 0, 0);
    ROW(1, "sw s1, 4(s3)", loc, 0, 0x12345679);
    /* 7..10: L1, one fixed address (riscv_memory_bench l1_*, riscv_special_instr_bench) */
    ROW(1, "lw s1, 0(s3)", l1, 0, 0);
    ROW(1, "lbu s1, 0(s3)", l1, 0, 0);
    ROW(1, "lhu s1, 0(s3)", l1, 0, 0);
    ROW(1, "sw s1, 4(s3)", l1, 0, 0x12345679);
    /* 11: BRISC's local data RAM read by TRISC0 through the slow window (xldm_brisc_lw1) */
    ROW(1, "lw s1, 0(s3)", xloc, 0, 0);
    /* 12..14: pushes into the Tensix instruction buffer, and 15: the PC-buffer round trip:
     * a store to the TTSync word, its load, and a use of the loaded value (tensix_instr_bench;
     * BHR:ManualTTSync.md). The pushed rows drain after the timed loop, outside it. */
    PUSH_ROW(8, REP8("sw s4, 0(s3)"), ib, nop, 0);
    PUSH_ROW(8, REP8("sw s4, 0(s3)"), ib, stall, 0);
    PUSH_ROW(4, REP4("sw s4, 0(s3)"), ib, seminit, 0);
    PUSH_ROW(1, "sw zero, 0(s3)\n\tlw s1, 0(s3)\n\tand zero, zero, s1", tts, 0, 0);

    /* 16..: patterns without a silicon figure in calibration.md: what the model predicts
     * (docs/timing-model.md "What the load model predicts"). Cycles per load (per pair for the
     * store-load rows), the same loop and subtraction. */
    *(volatile uint32_t *)l1 = l1; /* the pointer-chase word points at itself */
    ROW(1, "lw s3, 0(s3)", l1, 0, 0);                                  /* pointer chase */
    ROW(1, "lw s5, 0(s3)\n\tadd s1, s1, s5", l1, 0, 0);                /* load-use distance 0 */
    ROW(1, "lw s5, 0(s3)\n\taddi t0, t0, 1\n\tadd s1, s1, s5", l1, 0, 0); /* distance 1 */
    ROW(1, "lw s5, 0(s3)\n\taddi t0, t0, 1\n\taddi t1, t1, 1\n\tadd s1, s1, s5", l1, 0, 0);
    ROW(1, "lw s5, 0(s3)\n\taddi t0, t0, 1\n\taddi t1, t1, 1\n\taddi t2, t2, 1\n\t"
           "addi t3, t3, 1\n\tadd s1, s1, s5", l1, 0, 0);                    /* distance 4 */
    ROW(4, "lw t0, 0(s3)\n\tlw t1, 4(s3)\n\tlw t2, 8(s3)\n\tlw t3, 12(s3)", l1, 0, 0);
    ROW(4, "lw t0, 0(s3)\n\tlw t1, 16(s3)\n\tlw t2, 32(s3)\n\tlw t3, 48(s3)", l1 - 64, 0, 0);
    ROW(1, "sw s1, 4(s3)\n\tlw s5, 4(s3)", l1, 0, 0);                   /* store, load same word */
    ROW(1, "sw s1, 4(s3)\n\tlw s5, 0(s3)", l1 - 16, 0, 0);               /* different lines */
    ROW(1, "sw s1, 4(s3)\n\tlw s5, 4(s3)", loc, 0, 0);                  /* local data RAM */
    return 0;
}
