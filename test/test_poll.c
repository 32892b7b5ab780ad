/* Polling loops (riscv/poll.h; the rule in docs/user-guide.md "Polling loops"): the rule on
 * code shaped like real kernels' waits, and the cycles a core spends going round one, exact. */
#include <criterion/criterion.h>

#include "../riscv/poll.h"
#include "harness.h"

static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};

/* Is the last instruction of p the closing branch of a polling loop? */
static bool is_poll_loop(struct prog *p, uint32_t *target)
{
    return rv_poll_loop(p->t->l1, p->t->arch->l1_size, p->pc - 4, target);
}

#define SEM0 0xFFE80020u /* semaphore 0, the RISC-V view (tensim_sem_value) */

Test(poll, rule_on_real_waits)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    uint32_t target;
    /* tt-llk's `while (semaphore_read(i) == 0) {}`: lw, beqz */
    struct prog p = prog_at(t, 0x6000);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, BEQ, 0, 6, 0, -4);
    cr_expect(is_poll_loop(&p, &target) && target == 0x6000);
    /* tensim_l1_poll until a bit is set: fence, lw, andi, beqz */
    p = prog_at(t, 0x6100);
    E(&p, FENCE, 0, 0, 0, 0);
    E(&p, LW, 6, 5, 0, 8);
    E(&p, ANDI, 6, 6, 0, 1);
    E(&p, BEQ, 0, 6, 0, -12);
    cr_expect(is_poll_loop(&p, &target) && target == 0x6100);
    /* a wait with a give-up count: lw, bnez out; addi; bnez back: a branch tests what was read */
    p = prog_at(t, 0x6200);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, BNE, 0, 6, 0, 12);
    E(&p, ADDI, 7, 7, 0, -1);
    E(&p, BNE, 0, 7, 0, -12);
    cr_expect(is_poll_loop(&p, &target) && target == 0x6200);
    /* a busy wait on the clock: csrr cycle, bltu */
    p = prog_at(t, 0x6300);
    E(&p, CSRRS, 6, 0, 0, 0xC00);
    E(&p, BLTU, 0, 6, 7, -4);
    cr_expect(is_poll_loop(&p, &target) && target == 0x6300);

    /* not polling: a load counted by a register of its own (no branch tests what was read) */
    p = prog_at(t, 0x6400);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, ADDI, 7, 7, 0, -1);
    E(&p, BNE, 0, 7, 0, -8);
    cr_expect(!is_poll_loop(&p, &target), "counted loop");
    /* a walk over a buffer (the load's address moves) */
    p = prog_at(t, 0x6500);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, ADDI, 5, 5, 0, 4);
    E(&p, BEQ, 0, 6, 0, -8);
    cr_expect(!is_poll_loop(&p, &target), "buffer walk");
    /* a store, a Tensix push, a call, a CSR write in the loop */
    p = prog_at(t, 0x6600);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, SW, 0, 5, 6, 4);
    E(&p, BEQ, 0, 6, 0, -8);
    cr_expect(!is_poll_loop(&p, &target), "store");
    p = prog_at(t, 0x6700);
    E(&p, LW, 6, 5, 0, 0);
    emit(&p, 0x02000000u << 2); /* .ttinsn NOP */
    E(&p, BEQ, 0, 6, 0, -8);
    cr_expect(!is_poll_loop(&p, &target), "push");
    p = prog_at(t, 0x6800);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, JAL, 1, 0, 0, 0x100);
    E(&p, BEQ, 0, 6, 0, -8);
    cr_expect(!is_poll_loop(&p, &target), "call");
    p = prog_at(t, 0x6900);
    E(&p, CSRRW, 6, 7, 0, 0x7C3);
    E(&p, BEQ, 0, 6, 0, -4);
    cr_expect(!is_poll_loop(&p, &target), "CSR write");
    /* a loop over no load; a forward branch; a body of 33 instructions */
    p = prog_at(t, 0x6A00);
    E(&p, ADDI, 6, 6, 0, -1);
    E(&p, BNE, 0, 6, 0, -4);
    cr_expect(!is_poll_loop(&p, &target), "no load");
    p = prog_at(t, 0x6B00);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, BEQ, 0, 6, 0, 8);
    cr_expect(!is_poll_loop(&p, &target), "forward branch");
    p = prog_at(t, 0x6C00);
    E(&p, LW, 6, 5, 0, 0);
    for (int i = 0; i < 31; i++)
        E(&p, ADDI, 7, 7, 0, 1);
    E(&p, BEQ, 0, 6, 0, -4 * 32);
    cr_expect(!is_poll_loop(&p, &target), "33 instructions");
    p = prog_at(t, 0x6D00);
    E(&p, LW, 6, 5, 0, 0);
    for (int i = 0; i < 30; i++)
        E(&p, ADDI, 7, 7, 0, 1);
    E(&p, BEQ, 0, 6, 0, -4 * 31);
    cr_expect(is_poll_loop(&p, &target), "32 instructions");
    tile_destroy(t);
}

#define TTINSN(w) (((w) << 2) | ((w) >> 30))
#define SEMINIT_MAX1_VAL0_SEM0 0xA3100004u
#define SEMPOST_SEM0 0xA4000004u

/* TRISC0 waits for semaphore 0 as tt-llk does (`while (semaphore_read(0) == 0) {}`: lw, beqz) in
 * a function it calls twice; TRISC1 initialises the semaphore, counts 40 times round a loop of
 * its own, copies 5 words in a loop that stores, then posts the semaphore. */
static struct tile *semaphore_run(void)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p0 = prog_at(t, base[0]), p1 = prog_at(t, base[1]);
    emit_li(&p0, 5, SEM0);
    E(&p0, JAL, 1, 0, 0, 16);  /* 0x6008: call wait (0x6018) */
    E(&p0, JAL, 1, 0, 0, 12);  /* 0x600c: again: the semaphore is up, the loop runs once */
    E(&p0, ADDI, 10, 0, 0, 0); /* 0x6010 */
    E(&p0, JAL, 0, 0, 0, 16);  /* 0x6014: to the exit (0x6024) */
    E(&p0, LW, 6, 5, 0, 0);    /* 0x6018 wait: */
    E(&p0, BEQ, 0, 6, 0, -4);  /* 0x601c */
    E(&p0, JALR, 0, 1, 0, 0);  /* 0x6020: ret */
    emit_exit(&p0);            /* 0x6024 */

    emit(&p1, TTINSN(SEMINIT_MAX1_VAL0_SEM0));
    E(&p1, ADDI, 7, 0, 0, 40);
    E(&p1, ADDI, 7, 7, 0, -1); /* count: */
    E(&p1, BNE, 0, 7, 0, -4);
    emit_li(&p1, 8, 0x30000);
    E(&p1, ADDI, 7, 0, 0, 5);
    E(&p1, LW, 6, 8, 0, 0);    /* copy: */
    E(&p1, SW, 0, 8, 6, 4);
    E(&p1, ADDI, 7, 7, 0, -1);
    E(&p1, BNE, 0, 7, 0, -12);
    emit(&p1, TTINSN(SEMPOST_SEM0));
    emit_exit(&p1);
    tile_start_core(t, CORE_TRISC1, base[1]);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 100000), ERR_NONE, "%s", t->err.text);
    return t;
}

/* TRISC1: SEMINIT pushed at 0, addi at 1, the counting loop 40 x 2 cycles + its first and last
 * branches mispredicted (2 x 4) to 90, lui + addi to 92, the copy loop 5 x (lw, 7 cycles for
 * the L1 load's result, sw, addi, bne) + 2 x 4 mispredicts to 155: SEMPOST pushed at 155 issues
 * in thread 0 at 158. TRISC0: li (lui, addi) at 0-1, jal at 2, the first pass at 3: lw, its
 * result 3 cycles later (the semaphore read), beqz at 6 mispredicted (weakly not-taken at
 * reset) to 11. Going round: a pass of 4 cycles (lw, 2 waiting, beqz predicted taken) at 11,
 * 15, .., 155 reads 0, the one at 159 reads 1 and leaves, its beqz mispredicted to 167:
 * 167 - 11 = 156 polling cycles. The second call finds the semaphore up: one pass, no polling. */
Test(poll, semaphore_wait_exact)
{
    struct tile *t = semaphore_run();
    const struct rv_core *c0 = &t->core[0], *c1 = &t->core[1];
    cr_expect_eq(c0->st.stall[STALL_POLLING], 156);
    cr_expect_eq(c0->st.loads, 40, "39 passes, then 1");
    /* The rest keeps its reasons: two passes not polling (2 x 2 waiting), the first pass's
     * and the second call's beqz and the two returns mispredicted (4 x 4). */
    cr_expect_eq(c0->st.stall[STALL_OPERAND], 4);
    cr_expect_eq(c0->st.stall[STALL_BRANCH], 16);
    cr_expect_eq(c0->st.active, 14, "li 2, 2 calls, 2 passes x 2, 2 returns, addi, jal, exit 2");
    cr_expect_eq(core_cycles(c0), 14 + 4 + 16 + 156, "every cycle once");
    cr_expect_eq(core_cycles(c1), 158);
    cr_expect_eq(c1->st.stall[STALL_POLLING], 0, "a counting loop and a loop that stores");
    cr_expect_eq(c1->st.stall[STALL_OPERAND], 35, "the copy loop's loads keep their reason");
    tile_destroy(t);
}

/* A wait that finds the flag set runs once: not polling. */
Test(poll, loop_run_once_is_not_polling)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    t->l1[0x30000] = 1;
    emit_li(&p, 5, 0x30000);
    E(&p, FENCE, 0, 0, 0, 0);
    E(&p, LW, 6, 5, 0, 0);
    E(&p, BEQ, 0, 6, 0, -8);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].st.stall[STALL_POLLING], 0);
    cr_expect_eq(t->core[0].st.loads, 1);
    tile_destroy(t);
}
