#include "guest.h"
/* For the profile's polling-loop rule (test/test_cli.c): `wait` reads an L1 word 20 times and
 * does nothing else (a polling loop); `copy` loads and stores (not one). */
    .globl _start
    .type _start, @function
_start:
    li t0, 0x30000
    li t2, 20
wait:
    lw t1, 0(t0)
    addi t2, t2, -1
    bnez t2, wait
    li t2, 5
copy:
    lw t1, 0(t0)
    sw t1, 4(t0)
    addi t2, t2, -1
    bnez t2, copy
    EXIT(0)
    .size _start, . - _start
