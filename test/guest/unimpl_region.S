#include "guest.h"
    .globl _start
_start:
    li t0, 0xFFB20000      /* NoC 0 registers: not modelled */
    lw t1, 0(t0)
    EXIT(0)
