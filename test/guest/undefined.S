#include "guest.h"
    .globl _start
_start:
    nop
    .word 0xffffffff
    EXIT(0)
