#include "guest.h"
/* Latch a SEMWAIT on semaphore 0 (never posted) that catches everything, then push NOPs until
 * every FIFO of thread T0 is full: the core blocks for ever. */
    .globl _start
_start:
    li t0, 0xFFE40000
    li t1, 0xA6FF8005      /* SEMWAIT BlockMask=0x1FF SemaphoreMask=1 ConditionMask=C0 */
    sw t1, 0(t0)
    li t1, 0x02000000      /* NOP */
    li t2, 45
1:  sw t1, 0(t0)
    addi t2, t2, -1
    bnez t2, 1b
    EXIT(0)
