#include "guest.h"
/* Push 30 Tensix NOPs (opcode 0x02) through INSTRN_BUF_BASE. Nothing drains FIFO1 yet, so the
 * 30th push blocks forever: Blackhole FIFO1 takes single pushes up to 29 entries. */
    .globl _start
_start:
    li t0, 0xFFE40000
    li t1, 0x02000000
    li t2, 30
1:  sw t1, 0(t0)
    addi t2, t2, -1
    bnez t2, 1b
    EXIT(0)
