/* Say so, then spin forever: for tests that interrupt a run. */
#include "guest.h"
    .globl _start
_start:
    WRITE(1, msg, 9)
1:  j 1b
    .section .rodata
msg: .ascii "spinning\n"
