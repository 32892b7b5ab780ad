/* Start-up code for tensim kernels: stack in the core's local data RAM, gp for small data,
 * .bss cleared, then main(); main's return value becomes the exit code (ecall 93). */
    .section .text.start, "ax"
    .globl _start
    .type _start, @function /* a function symbol, so profiles (tensim run --profile) name it */
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
    li      a7, 93
    ecall
3:  j       3b
    .size _start, . - _start
