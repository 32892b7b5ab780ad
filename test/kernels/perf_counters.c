/* A counter build in miniature (test/test_perf_counters.c): TRISC1 programs the performance
 * counters the way tt-llk's counters.h does (reference period, mode 0, clear then start; clear
 * then stop; counter_sel in bits 16:8 of the mode register, a settling read, then OUT_L/OUT_H),
 * around known work, and prints what it reads as "name=value" lines:
 *   A: ten NOPs                                   (THREAD_INSTRUCTIONS_1, THREAD_STALLS_1)
 *   B: SEMWAIT while semaphore 3 is zero; the core posts it >= 200 cycles later
 *   C: SEMWAIT while semaphore 3 is full; the core takes it >= 300 cycles later
 *   D: the L1 bank (not modelled: reads 0) */
#include <stdint.h>

#include "tensim.h"
#include "tensix_ops.h"

#define REG(off) (*(volatile uint32_t *)(0xFFB12000u + (off)))
enum { INSTRN = 0x000, L1 = 0x030, OUT_INSTRN = 0x100, OUT_L1 = 0x118 };
enum { STALLS_1 = 25, NONZERO_SEM_1 = 44, NONFULL_SEM_1 = 47, INSTRUCTIONS_1 = 257 };

static void start(uint32_t bank)
{
    REG(bank) = 0xFFFFFFFFu; /* reference period */
    REG(bank + 4) = 0;       /* mode 0 */
    REG(bank + 8) = 0;
    REG(bank + 8) = 1;       /* start */
}

static void stop(uint32_t bank)
{
    REG(bank + 8) = 0;
    REG(bank + 8) = 2; /* stop */
}

static uint32_t cycles_of(uint32_t out) { return REG(out); }

static uint32_t count(uint32_t bank, uint32_t out, unsigned sel)
{
    REG(bank + 4) = sel << 8;
    (void)REG(out);
    (void)REG(out + 4);
    return REG(out + 4);
}

static void put(const char *name, uint32_t v)
{
    char buf[48], *p = buf;
    while (*name)
        *p++ = *name++;
    *p++ = '=';
    char d[10];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10));
    while (n)
        *p++ = d[--n];
    *p++ = '\n';
    tensim_write(1, buf, (size_t)(p - buf));
}

static void spin(uint32_t n)
{
    uint32_t t0 = tensim_cycle();
    while (tensim_cycle() - t0 < n)
        ;
}

int main(void)
{
    put("before", count(INSTRN, OUT_INSTRN, INSTRUCTIONS_1));

    start(INSTRN);
    TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP);
    TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP);
    TTI_INSN(TT_OP_NOP); TTI_INSN(TT_OP_NOP);
    tensim_wait_coproc_done();
    stop(INSTRN);
    uint32_t a_instr = count(INSTRN, OUT_INSTRN, INSTRUCTIONS_1);
    uint32_t a_cycles = cycles_of(OUT_INSTRN);
    uint32_t a_stalls = count(INSTRN, OUT_INSTRN, STALLS_1);
    spin(100); /* stopped counters stay frozen */
    put("a_instr", a_instr);
    put("a_stalls", a_stalls);
    put("a_cycles", a_cycles);
    put("a_cycles_later", cycles_of(OUT_INSTRN));
    put("a_instr_later", count(INSTRN, OUT_INSTRN, INSTRUCTIONS_1));

    TTI_INSN(TT_OP_SEMINIT(1, 0, 1u << 3)); /* max 1, value 0 */
    tensim_wait_coproc_done();
    start(INSTRN);
    TTI_INSN(TT_OP_SEMWAIT(0x1FF, 1u << 3, 1)); /* C0: wait while zero */
    TTI_INSN(TT_OP_NOP);
    spin(200);
    tensim_sem_post(3);
    tensim_wait_coproc_done();
    stop(INSTRN);
    put("b_instr", count(INSTRN, OUT_INSTRN, INSTRUCTIONS_1));
    put("b_zero", count(INSTRN, OUT_INSTRN, NONZERO_SEM_1));
    put("b_full", count(INSTRN, OUT_INSTRN, NONFULL_SEM_1));
    put("b_stalls", count(INSTRN, OUT_INSTRN, STALLS_1));

    TTI_INSN(TT_OP_SEMINIT(1, 1, 1u << 3)); /* max 1, value 1: full */
    tensim_wait_coproc_done();
    start(INSTRN);
    TTI_INSN(TT_OP_SEMWAIT(0x1FF, 1u << 3, 2)); /* C1: wait while full */
    TTI_INSN(TT_OP_NOP);
    spin(300);
    tensim_sem_get(3);
    tensim_wait_coproc_done();
    stop(INSTRN);
    put("c_instr", count(INSTRN, OUT_INSTRN, INSTRUCTIONS_1));
    put("c_zero", count(INSTRN, OUT_INSTRN, NONZERO_SEM_1));
    put("c_full", count(INSTRN, OUT_INSTRN, NONFULL_SEM_1));
    put("c_stalls", count(INSTRN, OUT_INSTRN, STALLS_1));

    start(L1);
    spin(50);
    stop(L1);
    put("d_l1_count", count(L1, OUT_L1, 6));
    put("d_l1_cycles", cycles_of(OUT_L1));
    return 0;
}
