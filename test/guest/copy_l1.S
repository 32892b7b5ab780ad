#include "guest.h"
/* Copy 16 bytes from L1 0x30000 to 0x30100 and add 1 to each word (for --load / --dump). */
    .globl _start
_start:
    li t0, 0x30000
    li t1, 0x30100
    li t2, 4
1:  lw t3, 0(t0)
    addi t3, t3, 1
    sw t3, 0(t1)
    addi t0, t0, 4
    addi t1, t1, 4
    addi t2, t2, -1
    bnez t2, 1b
    EXIT(0)
