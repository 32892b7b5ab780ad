#include "guest.h"
    .globl _start
_start:
    li t0, 0x00180000      /* first byte after Blackhole's 1536 KiB L1 */
    lw t1, 0(t0)
    EXIT(0)
