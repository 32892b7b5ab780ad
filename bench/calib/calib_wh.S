/* Wormhole's documented L1 figures for `make calibrate` (shared/calibration.md "WH L1 from a
 * RISC-V core (documented)", WH:L1.md "Baby RISCV cores"): narrow stores one per 5 cycles, loads
 * four per 7 cycles sustained, a dependent load one per 8. Plain assembly: Wormhole's local data
 * RAM is half Blackhole's, so this program uses no stack.
 *
 * Each row: 100 iterations of `beq s0, zero, done; 128 x BODY; addi s0, s0, -1; j loop` between
 * two reads of the cycle counter, minus the same loop with an empty body, divided by the 12800
 * operations; the long body makes the loop's own three instructions (which overlap the memory
 * traffic) negligible. Results, cycles per operation x100, at CALIB_WH_OUT (calib.h). */
#include "../../test/guest/guest.h"
#include "calib.h"

#define ITERS 100
#define OPS (ITERS * 128)

/* t0 = cycles of the loop whose body is the macro BODY repeated 128 times */
.macro TIMED body
    li s0, ITERS
    csrr t1, cycle
1:  beq s0, zero, 2f
    .rept 128
    \body
    .endr
    addi s0, s0, -1
    j 1b
2:  csrr t0, cycle
    sub t0, t0, t1
.endm

/* store (t0 - s2) * 100 / OPS, rounded, at 0(s1), then s1 += 4 */
.macro RESULT
    sub t0, t0, s2
    li t1, 100
    mul t0, t0, t1
    li t1, OPS / 2
    add t0, t0, t1
    li t1, OPS
    divu t0, t0, t1
    sw t0, 0(s1)
    addi s1, s1, 4
.endm

.macro NOBODY
.endm
/* narrow stores to 128 different 16-byte lines: nothing coalesces (Wormhole never does) */
.macro STORE
    sw zero, 0(s3)
    addi s3, s3, 16
.endm
/* independent loads: eight destination registers in turn, one line each */
.macro LOADS
    lw t2, 0(s4)
    lw t3, 16(s4)
    lw t4, 32(s4)
    lw t5, 48(s4)
    lw t6, 64(s4)
    lw a1, 80(s4)
    lw a2, 96(s4)
    lw a3, 112(s4)
.endm
/* dependent loads: the word at s5 holds its own address */
.macro CHASE
    lw s5, 0(s5)
.endm

    .globl _start
_start:
    li s1, CALIB_WH_OUT
    li s3, 0x40000
    li s4, 0x40000
    li s5, 0x48000
    sw s5, 0(s5)
    fence
    TIMED NOBODY
    TIMED NOBODY
    mv s2, t0               /* the empty loop */
    /* the store row: 128 x (sw, addi) per iteration; the addi is ALU work the stores hide */
    li s3, 0x40000
    TIMED STORE
    RESULT
    fence
    /* 16 x 8 = 128 loads per iteration */
    li s0, ITERS
    csrr t1, cycle
3:  beq s0, zero, 4f
    .rept 16
    LOADS
    .endr
    addi s0, s0, -1
    j 3b
4:  csrr t0, cycle
    sub t0, t0, t1
    RESULT
    TIMED CHASE
    RESULT
    EXIT(0)
