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

/* ---- regions (docs/sdk.md "Regions") ----
 * tensim_region_begin(id) / tensim_region_end(id), id a constant 0..63, mark a span whose cycles,
 * instructions and stalls tensim reports per core (and per Tensix thread, on a TRISC). Built with
 * TENSIM defined (the SDK's Makefile passes -DTENSIM), each is one RISC-V HINT,
 * `slti x0, x0, 0x580 + id` / `slti x0, x0, 0x5C0 + id`, that tensim executes in zero cycles;
 * without TENSIM (a silicon build) they compile to nothing. Either way an id outside 0..63 is a
 * compile-time error. The "memory" clobber keeps the compiler from moving memory accesses
 * across a mark. */
#ifdef __cplusplus
#define TENSIM_REGION_ID_CHECK(id) static_assert((id) >= 0 && (id) < 64, "region id must be 0..63")
#else
#define TENSIM_REGION_ID_CHECK(id) _Static_assert((id) >= 0 && (id) < 64, "region id must be 0..63")
#endif
#ifdef TENSIM
#define TENSIM_REGION_HINT(imm) __asm__ volatile("slti zero, zero, %0" : : "i"(imm) : "memory")
#else
#define TENSIM_REGION_HINT(imm) ((void)0)
#endif
#define tensim_region_begin(id)                                                                  \
    do {                                                                                         \
        TENSIM_REGION_ID_CHECK(id);                                                              \
        TENSIM_REGION_HINT(0x580 + (id));                                                        \
    } while (0)
#define tensim_region_end(id)                                                                    \
    do {                                                                                         \
        TENSIM_REGION_ID_CHECK(id);                                                              \
        TENSIM_REGION_HINT(0x5C0 + (id));                                                        \
    } while (0)

/* ---- synchronising with the coprocessor ---- */

#define TENSIM_TTSYNC_COPROC_DONE 0xFFE80004u    /* Manual TTSync (BHR:ManualTTSync.md) */
#define TENSIM_SEMAPHORE(i) (0xFFE80020u + 4u * (i)) /* Tensix semaphores, RISC-V view */

/* Returns once this core's Tensix thread has executed everything it was given (FIFOs,
 * expanders and backend units such as the unpackers all empty). */
static inline void tensim_wait_coproc_done(void)
{
    (void)*(volatile uint32_t *)TENSIM_TTSYNC_COPROC_DONE;
}

/* Semaphore i: its value, and the RISC-V forms of SEMPOST (store 0) and SEMGET (store 1). */
static inline uint32_t tensim_sem_value(unsigned i) { return *(volatile uint32_t *)TENSIM_SEMAPHORE(i); }
static inline void tensim_sem_post(unsigned i) { *(volatile uint32_t *)TENSIM_SEMAPHORE(i) = 0; }
static inline void tensim_sem_get(unsigned i) { *(volatile uint32_t *)TENSIM_SEMAPHORE(i) = 1; }

/* ---- configuration registers (tensix_cfg.h names them) ---- */

/* Config bank 0 word `addr32` (RISC-V sees both banks; a thread uses Config[StateID]). */
#define TENSIM_CFG_WORD(addr32) (((volatile uint32_t *)0xFFEF0000u)[addr32])

/* Read-modify-write one field: tensim_cfg_set(NAME_RMW, value). */
static inline void tensim_cfg_set(unsigned addr32, unsigned shamt, uint32_t mask, uint32_t v)
{
    volatile uint32_t *w = &TENSIM_CFG_WORD(addr32);
    *w = (*w & ~mask) | ((v << shamt) & mask);
}

/* ---- pushing Tensix instructions ---- */

/* The .ttinsn form of a Tensix instruction: the word rotated left by two. */
#define TT_ROTL2(w) ((uint32_t)(((uint32_t)(w) << 2) | ((uint32_t)(w) >> 30)))

/* Push through the instruction buffer window with a store (any compile-time or run-time word). */
#define TT_PUSH(w) (*(volatile uint32_t *)TENSIM_INSTRN_BUF_BASE = (uint32_t)(w))

/* Push inline as a .ttinsn word (compile-time constant words only). */
#define TTI_INSN(w) __asm__ volatile(".word %0" : : "i"((int32_t)TT_ROTL2(w)))

#endif
