/* Start-up of the differential test's kernel, the same bytes on both simulators: sp and gp,
 * .bss cleared, main(); then main's return value to DT_MAILBOX + 16 and DT_DONE to DT_MAILBOX
 * (the host polls it), then either the exit ecall (tensim) or a spin (ttsim refuses ecall on a
 * TRISC), as the parameter block's `ecall` word says. */
    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    main
    li      t0, 0x1F000         /* DT_MAILBOX */
    sw      a0, 16(t0)
    li      t1, 0xD0E5D0E5      /* DT_DONE */
    sw      t1, 0(t0)
    li      t0, 0x1F100         /* DT_PARAMS */
    lw      t1, 20(t0)          /* dt_params.ecall */
    beqz    t1, 3f
    li      a7, 93
    ecall
3:  j       3b
