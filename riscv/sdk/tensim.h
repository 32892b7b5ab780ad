/* Kernel-side interface to tensim: the host calls (exit, write), counters, addresses, and
 * macros that push Tensix instructions. Encoders for every Tensix instruction (TT_OP_*) are in
 * the generated tensix_ops.h. */
#ifndef TENSIM_SDK_H
#define TENSIM_SDK_H

#include <stddef.h>
#include <stdint.h>

#define TENSIM_L1_BASE 0x00000000u
#define TENSIM_LOCAL_BASE 0xFFB00000u
#define TENSIM_INSTRN_BUF_BASE 0xFFE40000u
#define TENSIM_WALL_CLOCK_L 0xFFB121F0u
#define TENSIM_SHARED_BASE 0x00020000u /* convention: buffers shared between cores */

/* ---- host interface: ecall a7 = 93 exit, a7 = 64 write ---- */

static inline __attribute__((noreturn)) void tensim_exit(int code)
{
    register int a0 __asm__("a0") = code;
    register int a7 __asm__("a7") = 93;
    __asm__ volatile("ecall" : : "r"(a0), "r"(a7));
    __builtin_unreachable();
}

static inline int tensim_write(int fd, const void *buf, size_t len)
{
    register int a0 __asm__("a0") = fd;
    register const void *a1 __asm__("a1") = buf;
    register size_t a2 __asm__("a2") = len;
    register int a7 __asm__("a7") = 64;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

static inline void tensim_puts(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    tensim_write(1, s, n);
}

/* ---- counters and ordering ---- */

static inline uint32_t tensim_cycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, cycle" : "=r"(v));
    return v;
}

/* Blackhole's L0 data cache is not coherent: a fence drains the store queue and flushes it, so
 * a load after it sees what other cores wrote to L1. */
static inline void tensim_fence(void) { __asm__ volatile("fence" ::: "memory"); }

static inline uint32_t tensim_l1_poll(const volatile uint32_t *p)
{
    tensim_fence();
    return *p;
}

/* ---- pushing Tensix instructions ---- */

/* The .ttinsn form of a Tensix instruction: the word rotated left by two. */
#define TT_ROTL2(w) ((uint32_t)(((uint32_t)(w) << 2) | ((uint32_t)(w) >> 30)))

/* Push through the instruction buffer window with a store (any compile-time or run-time word). */
#define TT_PUSH(w) (*(volatile uint32_t *)TENSIM_INSTRN_BUF_BASE = (uint32_t)(w))

/* Push inline as a .ttinsn word (compile-time constant words only). */
#define TTI_INSN(w) __asm__ volatile(".word %0" : : "i"((int32_t)TT_ROTL2(w)))

#endif
