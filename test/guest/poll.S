#include "guest.h"
/* Polling loops (riscv/poll.h, docs/user-guide.md "Polling loops"), for test/test_cli.c:
 * `spin` reads the cycle counter until it reaches 200 (a busy wait: a polling loop, inside
 * region 3); `count` reads an L1 word 20 times, counted by a register of its own, and `copy`
 * loads and stores: neither is one. */
    .globl _start
    .type _start, @function
_start:
    li t0, 0x30000
    li t2, 20
count:
    lw t1, 0(t0)
    addi t2, t2, -1
    bnez t2, count
    li t2, 5
copy:
    lw t1, 0(t0)
    sw t1, 4(t0)
    addi t2, t2, -1
    bnez t2, copy
    li t2, 200
    REGION_BEGIN(3)
spin:
    csrr t1, cycle
    bltu t1, t2, spin
    REGION_END(3)
    EXIT(0)
    .size _start, . - _start
