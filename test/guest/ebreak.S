#include "guest.h"
    .globl _start
_start:
    li a0, 0x1234
    li s1, 0xcafe
    ebreak
    EXIT(0)
