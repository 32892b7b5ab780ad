#include "guest.h"
/* The program test/test_gdb.c debugs over the gdb stub: fixed instructions at fixed addresses
 * (linked at 0x6000, no compressed instructions), a loop that stores to L1 0x30010 and loads
 * the word back (a scoreboard stall), a word written to local data RAM, and one sent to its own
 * mailbox and read back. */
    .option norvc
    .globl _start
_start:
    lui  t0, 0x30            /* 0x6000: t0 = 0x30000 */
    addi t1, zero, 0x123     /* 0x6004 */
    addi t2, zero, 3         /* 0x6008 */
loop:
    add  t1, t1, t2          /* 0x600c */
    sw   t1, 16(t0)          /* 0x6010: L1 0x30010 */
    lw   t3, 16(t0)          /* 0x6014 */
    addi t2, t2, -1          /* 0x6018 */
    bnez t2, loop            /* 0x601c */
    lui  t4, 0xffb00         /* 0x6020: local data RAM */
    sw   t3, 8(t4)           /* 0x6024 */
    addi t3, t3, 1           /* 0x6028 */
    lui  t5, 0xffec1         /* 0x602c: the mailbox from TRISC0 to TRISC0 */
    addi t6, zero, 0x55      /* 0x6030 */
    sw   t6, 0(t5)           /* 0x6034 */
    lw   a1, 0(t5)           /* 0x6038: takes the word back */
    EXIT(0)
