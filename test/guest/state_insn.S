/* Thread 0 gets SEMINIT (max 15, value 7, semaphore 0) and two SEMPOSTs of semaphore 0
 * (test/test_state.c: a dump at each SEMPOST shows the value before it). */
#include "guest.h"
    .globl _start
_start:
    li t0, 0xFFE40000
    li t1, 0xA3F70004
    sw t1, 0(t0)
    li t1, 0xA4000004
    sw t1, 0(t0)
    sw t1, 0(t0)
    EXIT(0)
