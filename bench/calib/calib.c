/* Calibration kernel (issue 16, `make calibrate`): times the RISC-V memory, push and core figures
 * of shared/calibration.md the way the silicon numbers were taken: a loop of N operations between
 * two reads of the cycle CSR, minus the same loop with an empty body, divided by N.
 *
 * Runs on TRISC0 of a Blackhole tile. Results as calib.h says; bench/calib/calibrate.c names the
 * slots (keep the two lists in the same order). */
#include <stdint.h>

#include "calib.h"
#include "tensim.h"
#include "tensix_ops.h"

#define CALIB_L1 0x3F800u    /* the fixed L1 word the L1 rows load and store */
#define CALIB_LOCAL 0xFFB00100u /* a local data RAM word well below the stack */

/* ITER loop iterations of UNROLL copies of the body (512 bodies). The loop's own
 * addi/bnez pair is in the baseline too, so it cancels. */
#define ITER 16
#define UNROLL 32
#define N_OPS (ITER * UNROLL)
#define STR_(x) #x
#define STR(x) STR_(x)

/* One timed loop; BODY may use %[a], %[b], %[c] (inputs) and t0..t2 (clobbered). */
#define TIMED(BODY, A, B, C)                                                                   \
    ({                                                                                         \
        uint32_t t_start, t_end, n_left;                                                       \
        __asm__ volatile("csrr %[s], cycle\n\t"                                                \
                         "li %[n], " STR(ITER) "\n"                                            \
                         "1:\n\t"                                                              \
                         ".rept " STR(UNROLL) "\n\t" BODY "\n\t.endr\n\t"                      \
                         "addi %[n], %[n], -1\n\t"                                             \
                         "bnez %[n], 1b\n\t"                                                   \
                         "csrr %[e], cycle\n"                                                  \
                         : [s] "=&r"(t_start), [e] "=&r"(t_end), [n] "=&r"(n_left)            \
                         : [a] "r"(A), [b] "r"(B), [c] "r"(C)                                 \
                         : "t0", "t1", "t2", "memory");                                        \
        t_end - t_start;                                                                       \
    })

static volatile uint32_t *const out = (volatile uint32_t *)CALIB_OUT;

/* Cycles per operation x100 from a loop's count and the empty loop's; a body holds k operations. */
static uint32_t per_op(uint32_t loop, uint32_t empty, uint32_t k)
{
    return (uint32_t)(((loop - empty) * 100u + k * N_OPS / 2) / (k * N_OPS));
}

int main(void)
{
    const uint32_t l1 = CALIB_L1, loc = CALIB_LOCAL, ib = TENSIM_INSTRN_BUF_BASE;
    const uint32_t tts = TENSIM_TTSYNC_COPROC_DONE;
    const uint32_t nop = TT_OP_NOP, stall = TT_OP_STALLWAIT(0x40, 0x3);
    unsigned i = 0;

    /* The empty loop, timed twice so that the first run warms nothing the second relies on. */
    uint32_t empty = TIMED("", 0, 0, 0);
    empty = TIMED("", 0, 0, 0);

#define ROW(K, BODY, A, B, C)                                                                  \
    do {                                                                                       \
        tensim_fence();                                                                        \
        out[i++] = per_op(TIMED(BODY, A, B, C), empty, K);                                     \
        tensim_wait_coproc_done();                                                             \
    } while (0)

    /* "Independent" operations write t0, t1, t2 in turn (three per body), so that no operation
     * waits for the one before it to write the same register. */
#define X3(OP, SRC) OP " t0, " SRC "\n\t" OP " t1, " SRC "\n\t" OP " t2, " SRC

    /* 0..4: the core rows. divu's dividend (1000) is ours: the silicon row does not record it. */
    ROW(1, "add t0, t0, %[a]", 1, 0, 0);
    ROW(3, X3("mul", "%[a], %[b]"), 3, 5, 0);
    ROW(3, X3("divu", "%[a], %[b]"), 1000, 7, 0);
    ROW(1, "fence", 0, 0, 0);
    ROW(3, X3("csrr", "0x7C0"), 0, 0, 0);
    /* 5..6: local data RAM */
    ROW(3, X3("lw", "0(%[a])"), loc, 0, 0);
    ROW(1, "sw zero, 0(%[a])", loc, 0, 0);
    /* 7..10: L1, one fixed address */
    ROW(3, X3("lw", "0(%[a])"), l1, 0, 0);
    ROW(3, X3("lbu", "0(%[a])"), l1, 0, 0);
    ROW(3, X3("lhu", "0(%[a])"), l1, 0, 0);
    ROW(1, "sw zero, 0(%[a])", l1, 0, 0);
    /* 11..13: pushes into the Tensix instruction buffer, and the PC-buffer round trip: a store
     * to the TTSync word, its load, and a use of the loaded value (BHR:ManualTTSync.md). */
    ROW(1, "sw %[b], 0(%[a])", ib, nop, 0);
    ROW(1, "sw %[b], 0(%[a])", ib, stall, 0);
    ROW(1, "sw zero, 0(%[a])\n\tlw t0, 0(%[a])\n\taddi t1, t0, 1", tts, 0, 0);
    return 0;
}
