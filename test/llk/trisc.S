/* A TRISC kernel shaped like tt-llk's (tests/helpers/src/trisc.cpp with a profiler build): copy
 * the local data RAM image from .loader_init, read its runtime argument, open a profiler zone,
 * spin that many times, close the zone, store argument + its data word at 0x30000 + 4 * ID, write
 * KERNEL_COMPLETE to its mailbox and spin forever. The zone's 16-bit id is the host's to give:
 * the runtime arguments hold it at 0x20010 (the test folds the .profiler_meta string below).
 * TRISC0 in TRISC boot mode (-DTRISC_BOOT) also resets the mailboxes and releases the others.
 * For bench/kernel_speed's replay on ttsim (test/test_kernel_speed.c): -DCFG_REFUSED first writes
 * Config register 66 from the core (tensim takes it; ttsim's Blackhole model refuses that
 * register, src/tensix.cpp tensix_cfg_wr32), -DSTORE_CLOCK stores the wall clock's low word
 * instead of argument + data word (each simulator's own clock: the two L1s then differ there). */
#define ZONE_START 0xA
#define ZONE_END 0xB
#define WALL_CLOCK_L 0xFFB121F0
#ifndef MAILBOX_BASE
#define MAILBOX_BASE 0x1FFB8
#define PROFILER_BARRIER 0x16AFF4
#endif
    .section .init, "ax"
    .globl _start
_start:
#if defined(TRISC_BOOT) && ID == 0
    li t0, MAILBOX_BASE
    sw zero, 0(t0)
    sw zero, 4(t0)
    sw zero, 8(t0)
    li t3, 0xFFB121B0
    lw t4, 0(t3)
    li t5, ~0x6000
    and t4, t4, t5
    sw t4, 0(t3)
#endif
#ifdef CFG_REFUSED
    li t0, 0xFFEF0000 + 4 * 66
    sw zero, 0(t0)
#endif
    la t0, __loader_init_start
    la t1, __ldm_data_start
    lw t2, 0(t0)
    sw t2, 0(t1)
    li s0, 0x20000
    lw s1, 4*ID(s0)         /* the argument */
    lw s2, 0x10(s0)         /* the zone id */
    li s3, PROFILER_BARRIER + 12 + 0x1000 * ID
    li a0, ZONE_START
    call marker
    mv t1, s1
1:  addi t1, t1, -1
    bgtz t1, 1b
    li a0, ZONE_END
    call marker
    li t0, 0xFFB00000
    lw t1, 0(t0)
    add t1, t1, s1
#ifdef STORE_CLOCK
    li t0, WALL_CLOCK_L
    lw t1, 0(t0)
#endif
    li t0, 0x30000 + 4 * ID
    sw t1, 0(t0)
    li t0, MAILBOX_BASE + 4 * ID
    li t1, 0xFF
    sw t1, 0(t0)
2:  j 2b

/* Two words at s3: type << 28 | id << 12 | timestamp bits 43:32, then bits 31:0. */
marker:
    li t3, WALL_CLOCK_L
    lw t4, 0(t3)            /* low half; latches the high half */
    lw t5, 8(t3)            /* WALL_CLOCK_H */
    slli a0, a0, 28
    slli t6, s2, 12
    or a0, a0, t6
    slli t5, t5, 20
    srli t5, t5, 20
    or a0, a0, t5
    sw a0, 0(s3)
    sw t4, 4(s3)
    addi s3, s3, 8
    ret

    .data
    .word 0x1000 + ID
    .section .profiler_meta, "a"
    .asciz "LLK_PROFILER:trisc.S:30:KERNEL"
