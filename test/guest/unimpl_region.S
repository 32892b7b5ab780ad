#include "guest.h"
    .globl _start
_start:
    li t0, 0xFFE80020      /* Tensix semaphore 0 */
    lw t1, 0(t0)
    EXIT(0)
