#include "guest.h"
/* For tensim run --profile (test/test_cli.c): _start calls `work` ten times; work divides by zero
 * (2 cycles, BHR:README.md) and returns (the first return mispredicts: 1 + 4 cycles; the
 * return-address predictor then knows it: 1). */
    .globl _start
    .type _start, @function
_start:
    li t0, 10
    li t3, 0
1:  call work
    addi t0, t0, -1
    bnez t0, 1b
    EXIT(0)
    .size _start, . - _start

    .type work, @function
work:
    div t1, t2, t3
    ret
    .size work, . - work
