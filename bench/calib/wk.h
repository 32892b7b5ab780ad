/* Helpers shared by the whole-kernel calibration kernels (bench/calib/{pack,unpack,math}.c,
 * issue 16 item 3). They reproduce the instruction shapes of blackhole-py's kernel builder, so
 * that the RISC-V side of each timed region costs what it cost on silicon:
 *  - write32: `li` of the address, `li` of the value, `sw` (its write32 helper);
 *  - ttsync: the Manual TTSync round trip of its pc_sync / mop_sync: store zero (discarded),
 *    load, and use the loaded value so the core waits for it (BHR:ManualTTSync.md). */
#ifndef CALIB_WK_H
#define CALIB_WK_H

#include <stdint.h>

#define WK_COPROC_DONE 0xFFE80004u /* CoprocessorDoneCheck */
#define WK_MOP_DONE 0xFFE80008u    /* MOPExpanderDoneCheck */

#define WK_STR_(x) #x
#define WK_STR(x) WK_STR_(x)

/* Both operands must be compile-time constants. */
#define WK_WRITE32(ADDR, VAL)                                                                  \
    __asm__ volatile("li t0, %0\n\tli t1, %1\n\tsw t1, 0(t0)"                                  \
                     :                                                                         \
                     : "i"((int32_t)(ADDR)), "i"((int32_t)(VAL))                               \
                     : "t0", "t1", "memory")

static inline __attribute__((always_inline)) void wk_ttsync(uint32_t addr)
{
    uint32_t v;
    __asm__ volatile("sw zero, 0(%1)\n\tlw %0, 0(%1)\n\tand zero, zero, %0"
                     : "=&r"(v)
                     : "r"(addr)
                     : "memory");
}

#endif
