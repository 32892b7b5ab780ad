/* Two TRISCs talking through the mailboxes (BHR:Mailboxes.md). TRISC0 sends 3, 4 and 5 to
 * TRISC1 (TENSIX_MAILBOX2 is "T0 to T1" when T0 writes), asks whether TRISC1 has answered yet
 * (bit 2 set: non-blocking), then waits for the answer (TENSIX_MAILBOX2 is "T1 to T0" when T0
 * reads) and exits with it. TRISC1 pops three words from TRISC0 (TENSIX_MAILBOX1 read side),
 * waiting for each, and sends their sum back (TENSIX_MAILBOX1 write side: "T1 to T0"). TRISC2,
 * if started, reads from BRISC's mailbox, which nobody writes: it waits forever. */
    .section .init, "ax"
    .globl _start
_start:
#if ID == 0
    li t0, 0xFFEC2000
    li t1, 3
    sw t1, 0(t0)
    li t1, 4
    sw t1, 0(t0)
    li t1, 5
    sw t1, 0(t0)
    lw t2, 4(t0)            /* 0: TRISC1 has not answered yet */
    li t3, 0x30000
    sw t2, 0(t3)
    lw a0, 0(t0)            /* waits for the answer */
    li a7, 93
    ecall
#elif ID == 1
    li t0, 0xFFEC1000
    lw t1, 0(t0)
    lw t2, 0(t0)
    add t1, t1, t2
    lw t2, 0(t0)
    add t1, t1, t2
    sw t1, 0(t0)
    li a0, 0
    li a7, 93
    ecall
#else
    li t0, 0xFFEC0000
    lw t1, 0(t0)
    li a0, 0
    li a7, 93
    ecall
#endif
