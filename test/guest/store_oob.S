#include "guest.h"
    .globl _start
_start:
    li t0, 0x40000000
    sw t0, 0(t0)
    EXIT(0)
