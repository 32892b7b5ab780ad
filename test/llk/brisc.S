/* BRISC shaped like tt-llk's harness firmware (tests/helpers/src/brisc.cpp): clear the command
 * slots and the counter, then poll slot 0; on START_TRISCS (1) reset the mailboxes, push a
 * SEMINIT to thread 0 (device set-up), release the TRISCs through SOFT_RESET_0 and wait until
 * the register reads back, then count the command and go on polling, forever. */
#ifndef MAILBOX_BASE
#define MAILBOX_BASE 0x1FFB8
#define PROFILER_BARRIER 0x16AFF4
#endif
#define CMD0 (MAILBOX_BASE + 12)
#define COUNTER (MAILBOX_BASE + 20)
#define MAILBOX0 MAILBOX_BASE
#define SOFT_RESET_0 0xFFB121B0
    .section .init, "ax"
    .globl _start
_start:
    li t0, CMD0
    sw zero, 0(t0)
    sw zero, 4(t0)
    sw zero, 8(t0)          /* the counter last: the host waits for it */
poll:
    li t0, CMD0
    lw t1, 0(t0)
    li t2, 1
    bne t1, t2, wait
    li t0, MAILBOX0
    sw zero, 0(t0)
    sw zero, 4(t0)
    sw zero, 8(t0)
    li t0, 0xFFE40000       /* SEMINIT max 1, value 0, semaphore 2 */
    li t1, 0xA3100010
    sw t1, 0(t0)
    li t3, SOFT_RESET_0
    lw t4, 0(t3)
    li t5, ~0x7000
    and t4, t4, t5
    sw t4, 0(t3)
1:  lw t6, 0(t3)
    bne t6, t4, 1b
    li t0, CMD0
    sw zero, 0(t0)
    li t0, COUNTER
    li t1, 1
    sw t1, 0(t0)
wait:
    li t1, 50
2:  addi t1, t1, -1
    bnez t1, 2b
    j poll

/* Where the host finds the mailboxes and the profiler's barrier (tt-llk's brisc.cpp has both) */
    .data
    .globl mailboxes_arr, profiler_barrier
profiler_barrier: .word PROFILER_BARRIER
mailboxes_arr: .word MAILBOX_BASE
