#include "guest.h"
/* For tensim bench's region measure (test/test_bench.c): region 2 around a loop of three
 * divisions, region 3 around each division (dividends 0xFFFFFFFF, 0xFFFF and 0: 33, 17 and 6
 * cycles, as in test/test_regions.c), and region 5 begun before the exit and never ended (not
 * counted). */
    .globl _start
_start:
    li t0, -1
    li t2, 3
    li t3, 3
    REGION_BEGIN(2)
1:  REGION_BEGIN(3)
    divu t1, t0, t2
    REGION_END(3)
    srli t0, t0, 16
    addi t3, t3, -1
    bnez t3, 1b
    REGION_END(2)
    REGION_BEGIN(5)
    EXIT(0)
