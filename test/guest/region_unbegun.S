/* Ends region 5, which was never begun (test/test_regions.c: exit status 112). */
#include "guest.h"
    .globl _start
_start:
    nop
    REGION_END(5)
    EXIT(0)
