/* A run that ends inside region 2 (test/test_regions.c: a warning, exit status 0), after
 * region 1 ran three times. */
#include "guest.h"
    .globl _start
_start:
    li t0, 3
1:  REGION_BEGIN(1)
    addi t0, t0, -1
    REGION_END(1)
    bnez t0, 1b
    REGION_BEGIN(2)
    EXIT(0)
