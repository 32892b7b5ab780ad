/* The Wait Gate and the Sync unit, with cycle counts from the documented rules:
 * a TRISC push at cycle c reaches FIFO2 at c+1, FIFO3 at c+2 and can issue at c+3 (one stage per
 * cycle); a latched wait blocks the next caught instruction at least one cycle, because the
 * release is seen the cycle after the conditions are (WH:WaitGate.md). */
#include <criterion/criterion.h>

#include "harness.h"

#define TTINSN(w) (((w) << 2) | ((w) >> 30))
#define NOP 0x02000000u
#define SEMINIT_MAX1_VAL0_SEM0 0xA3100004u
#define SEMWAIT_ALL_SEM0_C0 0xA6FF8005u
#define SEMPOST_SEM0 0xA4000004u
#define ATGETM(m) (0xA0000000u | (m))
#define ATRELM(m) (0xA1000000u | (m))
#define STALLWAIT_BH(block, cond) (0xA2000000u | (block) << 15 | (cond))

static struct issue_log issues;
#define issued_at(th, w, nth) issue_log_cycle(&issues, th, w, nth)

static struct tile *t;

static void setup(void)
{
    t = test_tile(ARCH_BLACKHOLE);
    issue_log_attach(t, &issues);
}
static void teardown(void) { tile_destroy(t); }
TestSuite(sync, .init = setup, .fini = teardown);

static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};

static uint64_t thread_total(const struct tensix_thread *th)
{
    uint64_t n = th->st.issued + th->st.empty;
    for (int r = 0; r < GS_COUNT; r++)
        n += th->st.stall[r];
    return n;
}

Test(sync, semwait_released_by_sempost_from_another_thread)
{
    struct prog p0 = prog_at(t, base[0]), p1 = prog_at(t, base[1]);
    emit(&p0, TTINSN(SEMINIT_MAX1_VAL0_SEM0)); /* the three are fused: pushed at cycle 0 */
    emit(&p0, TTINSN(SEMWAIT_ALL_SEM0_C0));
    emit(&p0, TTINSN(NOP));
    emit_exit(&p0);
    for (int i = 0; i < 20; i++)
        E(&p1, ADDI, 5, 5, 0, 1);
    emit(&p1, TTINSN(SEMPOST_SEM0)); /* pushed at cycle 20 */
    emit_exit(&p1);
    tile_start_core(t, CORE_TRISC1, base[1]);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, SEMINIT_MAX1_VAL0_SEM0, 0), 3);
    cr_expect_eq(issued_at(0, SEMWAIT_ALL_SEM0_C0, 0), 4);
    cr_expect_eq(issued_at(1, SEMPOST_SEM0, 0), 23);
    /* 24: the gate sees Value 1 and releases the latch, the NOP still waits; 25: it issues */
    cr_expect_eq(issued_at(0, NOP, 0), 25);
    cr_expect_eq(t->cycles, 26);
    const struct tensix_thread *th = &t->thread[0];
    cr_expect_eq(th->st.stall[GS_SEMWAIT], 19);
    cr_expect_eq(th->st.stall_detail[GS_SEMWAIT][0], 19, "attributed to semaphore 0");
    cr_expect_eq(th->st.stall[GS_WAIT_RELEASE], 1);
    cr_expect_eq(th->st.issued, 3);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(thread_total(&t->thread[i]), t->cycles, "T%d: every cycle attributed once", i);
    cr_expect_eq(t->sem.value[0], 1);
}

Test(sync, stallwait_on_a_satisfied_condition_still_costs_a_cycle)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(STALLWAIT_BH(0x1FF, 1u << 5))); /* C5: SrcA[unpacker bank] not the unpackers' */
    emit(&p, TTINSN(NOP));
    emit(&p, TTINSN(NOP));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, STALLWAIT_BH(0x1FF, 1u << 5), 0), 3);
    cr_expect_eq(issued_at(0, NOP, 0), 5, "held one cycle for the release");
    cr_expect_eq(issued_at(0, NOP, 1), 6, "the latch is gone");
    cr_expect_eq(t->thread[0].st.stall[GS_WAIT_RELEASE], 1);
}

Test(sync, nop_passes_a_wait_unless_every_block_bit_is_set)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(STALLWAIT_BH(0x0FF, 1u << 7))); /* C7: SrcA[matrix bank] not the FPU's: holds */
    emit(&p, TTINSN(NOP));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, NOP, 0), 4);
}

Test(sync, semwait_nobody_satisfies_is_a_deadlock)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(SEMINIT_MAX1_VAL0_SEM0));
    emit(&p, TTINSN(SEMWAIT_ALL_SEM0_C0));
    emit(&p, TTINSN(NOP));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    cr_expect_str_eq(t->err.text, "no agent can make progress");
    cr_expect(strstr(t->err.detail, "TRISC0: halted at cycle 3 with exit code 0") != NULL, "%s", t->err.detail);
    cr_expect(strstr(t->err.detail, "thread T0: NOP waits on semaphore 0 (value 0, max 1) (FIFO1 0, FIFO2 0, FIFO3 1)") != NULL,
              "%s", t->err.detail);
}

Test(sync, stallwait_on_matrix_bank_ownership_waits_forever)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(STALLWAIT_BH(0x1FF, 1u << 7)));
    emit(&p, TTINSN(NOP));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    cr_expect(strstr(t->err.detail, "thread T0: NOP waits on STALLWAIT condition C7") != NULL, "%s", t->err.detail);
}

Test(sync, mutex_hand_over_with_three_contenders)
{
    struct prog p[3] = {prog_at(t, base[0]), prog_at(t, base[1]), prog_at(t, base[2])};
    /* T0: take mutex 2, 8 NOPs, release. T1: take, 2 NOPs, release. T2: take, release. */
    int nops[3] = {8, 2, 0};
    for (int i = 0; i < 3; i++) {
        emit(&p[i], TTINSN(ATGETM(2)));
        for (int k = 0; k < nops[i]; k++)
            emit(&p[i], TTINSN(NOP));
        emit(&p[i], TTINSN(ATRELM(2)));
        emit_exit(&p[i]);
        if (i)
            tile_start_core(t, i, base[i]);
    }
    cr_assert_eq(run_core(&p[0], CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    /* 3: all three reach the gate with the mutex free; round robin starts at T0. */
    cr_expect_eq(issued_at(0, ATGETM(2), 0), 3);
    cr_expect_eq(issued_at(0, ATRELM(2), 0), 12);
    /* T0 released with T1 and T2 waiting: (0+1) mod 3 = T1 gets it, the cycle after */
    cr_expect_eq(issued_at(1, ATGETM(2), 0), 13);
    cr_expect_eq(issued_at(1, ATRELM(2), 0), 16);
    cr_expect_eq(issued_at(2, ATGETM(2), 0), 17);
    cr_expect_eq(issued_at(2, ATRELM(2), 0), 18);
    cr_expect_eq(t->thread[1].st.stall[GS_ARBITRATION], 1);
    cr_expect_eq(t->thread[1].st.stall[GS_MUTEX], 9); /* 4..12: T0 releases in 12 */
    cr_expect_eq(t->thread[2].st.stall[GS_ARBITRATION], 2); /* lost at 3 and 13 */
    cr_expect_eq(t->thread[2].st.stall_detail[GS_MUTEX][2], 12, "T2 waited on mutex 2");
    cr_expect_eq(t->sem.mutex_owner[2], -1);
}

Test(sync, release_goes_to_the_next_thread_after_the_releaser)
{
    /* T2 holds the mutex; T0 and T1 both wait: (2+1) mod 3 = T0 gets it, not T1. */
    struct prog p[3] = {prog_at(t, base[0]), prog_at(t, base[1]), prog_at(t, base[2])};
    emit(&p[2], TTINSN(ATGETM(3)));
    for (int k = 0; k < 6; k++)
        emit(&p[2], TTINSN(NOP));
    emit(&p[2], TTINSN(ATRELM(3)));
    emit_exit(&p[2]);
    for (int i = 0; i < 2; i++) {
        E(&p[i], ADDI, 5, 0, 0, 0); /* push one cycle later than T2 */
        emit(&p[i], TTINSN(ATGETM(3)));
        emit(&p[i], TTINSN(ATRELM(3)));
        emit_exit(&p[i]);
    }
    tile_start_core(t, CORE_TRISC1, base[1]);
    tile_start_core(t, CORE_TRISC2, base[2]);
    cr_assert_eq(run_core(&p[0], CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(2, ATGETM(3), 0), 3);
    uint64_t rel = issued_at(2, ATRELM(3), 0);
    cr_expect_eq(rel, 10);
    cr_expect_eq(issued_at(0, ATGETM(3), 0), rel + 1);
    cr_expect_lt(issued_at(0, ATRELM(3), 0), issued_at(1, ATGETM(3), 0));
}

Test(sync, invalid_mutex_index_waits_forever)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(ATGETM(5))); /* Blackhole has mutexes 0, 2, 3, 4 */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    cr_expect(strstr(t->err.detail, "waits for mutex 5, which does not exist on blackhole") != NULL, "%s", t->err.detail);
}

Test(sync, riscv_semaphore_access)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(0xA3F70004u)); /* SEMINIT max 15 value 7 on semaphore 0 */
    for (int i = 0; i < 4; i++)
        E(&p, ADDI, 0, 0, 0, 0); /* let it issue (cycle 3) */
    emit_li(&p, 5, 0xFFE80020);
    E(&p, LW, 10, 5, 0, 0);  /* 7 */
    emit_li(&p, 6, 1);
    E(&p, SW, 0, 5, 6, 0);   /* odd: decrement */
    E(&p, SW, 0, 5, 0, 0);   /* even: increment */
    E(&p, SW, 0, 5, 0, 0);
    E(&p, LW, 11, 5, 0, 0);  /* 8 */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].x[10], 7);
    cr_expect_eq(t->core[0].x[11], 8);
    cr_expect_eq(t->sem.st.riscv_sem_writes, 3);
}

Test(sync, ttsync_coprocessor_done_check_holds_the_load)
{
    struct prog p0 = prog_at(t, base[0]), p1 = prog_at(t, base[1]);
    emit(&p0, TTINSN(SEMWAIT_ALL_SEM0_C0)); /* 0: pushed with the NOP */
    emit(&p0, TTINSN(NOP));
    emit_li(&p0, 5, 0xFFE80004);            /* 1, 2 */
    E(&p0, LW, 6, 5, 0, 0);                 /* 3: held until thread T0 has drained */
    E(&p0, ADD, 7, 6, 0, 0);
    emit_exit(&p0);
    for (int i = 0; i < 20; i++)
        E(&p1, ADDI, 5, 5, 0, 1);
    emit(&p1, TTINSN(SEMPOST_SEM0));        /* 20, issues at 23 */
    emit_exit(&p1);
    tile_start_core(t, CORE_TRISC1, base[1]);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, NOP, 0), 25);
    /* the NOP leaves at 25 and the thread is empty: the load retries at 25 (latency 3, result
     * at 28), add at 28, exit at 29 and 30 */
    const struct rv_core *c = &t->core[0];
    cr_expect_eq(c->st.stall[STALL_TTSYNC], 22);
    cr_expect_eq(c->halt_cycle, 31);
    cr_expect_eq(core_cycles(c), c->halt_cycle);
}

Test(sync, ttsync_deadlock_is_reported)
{
    struct prog p0 = prog_at(t, base[0]);
    emit(&p0, TTINSN(SEMWAIT_ALL_SEM0_C0));
    emit(&p0, TTINSN(NOP));
    emit_li(&p0, 5, 0xFFE80004);
    E(&p0, LW, 6, 5, 0, 0);
    emit_exit(&p0);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_DEADLOCK);
    cr_expect(strstr(t->err.detail, "TRISC0: pc=0x00006010 lw t1, 0(t0): blocked since cycle 3 in a Manual "
                                    "TTSync load (CoprocessorDoneCheck of thread T0)") != NULL,
              "%s", t->err.detail);
}

Test(sync, mop_expansion_reaches_the_gate_one_per_cycle)
{
    /* MopCfg written by TRISC0 through 0xFFB80000: template 0 without flags emits A0
     * (MopCfg[3]) when the mask bit is 0 and SkipA0 (MopCfg[7]) when it is 1. */
    const uint32_t a0 = SEMPOST_SEM0, skip = 0xA4000008u; /* SEMPOST semaphore 1 */
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 5, 0xFFB80000);   /* 0 */
    E(&p, SW, 0, 5, 0, 4);        /* 1: MopCfg[1] = 0 */
    emit_li(&p, 6, a0);           /* 2, 3 */
    E(&p, SW, 0, 5, 6, 12);       /* 4: MopCfg[3] */
    emit_li(&p, 6, skip);         /* 5, 6 */
    E(&p, SW, 0, 5, 6, 28);       /* 7: MopCfg[7] */
    emit(&p, TTINSN(0x0103000Au)); /* 8: MOP template 0, Count1 3, mask 0b1010 */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    /* the expander emits at 9..12, the replay expander passes them on at 10..13 */
    cr_expect_eq(issued_at(0, a0, 0), 11);
    cr_expect_eq(issued_at(0, skip, 0), 12);
    cr_expect_eq(issued_at(0, a0, 1), 13);
    cr_expect_eq(issued_at(0, skip, 1), 14);
    cr_expect_eq(t->sem.value[0], 2);
    cr_expect_eq(t->sem.value[1], 2);
}

Test(sync, mop_cfg_is_write_only)
{
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 5, 0xFFB80000);
    E(&p, LW, 6, 5, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text, "load from MOP expander configuration 0xffb80000 (write-only)");
}

Test(sync, tt_cfg_qstatus_shows_queued_instruction_types)
{
    /* SEMWAIT holds the NOP (B0 class? no: NOP is Misc -> bit 8) and a SEMPOST (Sync, bit 7) at
     * the gate; TRISC0 reads tt_cfg_qstatus while they are queued, then again after the
     * semaphore is posted by TRISC1 and everything drained. */
    struct prog p0 = prog_at(t, base[0]), p1 = prog_at(t, base[1]);
    emit(&p0, TTINSN(SEMWAIT_ALL_SEM0_C0));
    emit(&p0, TTINSN(NOP));
    emit(&p0, TTINSN(0xA4000008u)); /* SEMPOST semaphore 1 */
    for (int i = 0; i < 6; i++)
        E(&p0, ADDI, 0, 0, 0, 0);
    E(&p0, CSRRS, 10, 0, 0, 0xBC0); /* queued: NOP (Misc: bit 8), SEMPOST (Sync: bit 7) */
    emit_li(&p0, 5, 0xFFE80004);
    E(&p0, LW, 6, 5, 0, 0);         /* wait until T0 is done */
    E(&p0, CSRRS, 11, 0, 0, 0xBC0);
    emit_exit(&p0);
    for (int i = 0; i < 30; i++)
        E(&p1, ADDI, 5, 5, 0, 1);
    emit(&p1, TTINSN(SEMPOST_SEM0));
    emit_exit(&p1);
    tile_start_core(t, CORE_TRISC1, base[1]);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    unsigned q = (1u << 8) | (1u << 7);
    cr_expect_eq(t->core[0].x[10], q | q << 13, "0x%x", t->core[0].x[10]);
    cr_expect_eq(t->core[0].x[11], 0, "0x%x", t->core[0].x[11]);
}

Test(sync, pcbuf_brisc_to_trisc_and_the_idle_read)
{
    /* BRISC pushes 5, 7, 11 into PCBuf 0, then reads it: that read waits until the FIFO is
     * empty, TRISC0 is blocked reading it and Tensix thread T0 is idle, and returns 0. Then
     * BRISC pushes 99, which releases TRISC0's fourth read. */
    struct prog b = prog_at(t, 0), p0 = prog_at(t, base[0]);
    emit_li(&b, 5, 0xFFE80000);
    const int v[3] = {5, 7, 11};
    for (int i = 0; i < 3; i++) {
        emit_li(&b, 6, (uint32_t)v[i]);
        E(&b, SW, 0, 5, 6, 0);
    }
    E(&b, LW, 7, 5, 0, 0);
    emit_li(&b, 6, 99);
    E(&b, SW, 0, 5, 6, 0);
    emit_exit(&b);
    emit_li(&p0, 5, 0xFFE80000);
    for (int i = 0; i < 4; i++)
        E(&p0, LW, 11 + i, 5, 0, 0);
    E(&p0, ADD, 10, 11, 12, 0);
    E(&p0, ADD, 10, 10, 13, 0);
    E(&p0, ADD, 10, 10, 14, 0);
    emit_exit(&p0);
    tile_start_core(t, CORE_BRISC, 0);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_NONE, "%s\n%s", t->err.text, t->err.detail);
    cr_expect_eq(t->core[0].exit_code, 5 + 7 + 11 + 99);
    cr_expect_eq(t->core[CORE_BRISC].x[7], 0);
    cr_expect_gt(t->core[0].st.stall[STALL_PCBUF], 0);
    cr_expect_gt(t->core[CORE_BRISC].st.stall[STALL_PCBUF], 0);
    cr_expect_eq(core_cycles(&t->core[CORE_BRISC]), t->core[CORE_BRISC].halt_cycle);
    cr_expect_eq(core_cycles(&t->core[0]), t->core[0].halt_cycle);
}

Test(sync, pcbuf_override_answers_an_empty_read)
{
    struct prog p0 = prog_at(t, base[0]);
    emit_li(&p0, 5, 0xFFB12090);         /* RISCV_DEBUG_REG_TRISC_PC_BUF_OVERRIDE */
    emit_li(&p0, 6, 1 | (0x5A << 2));    /* PCBuf 0: OverrideEn, value 0x5A */
    E(&p0, SW, 0, 5, 6, 0);
    emit_li(&p0, 5, 0xFFE80000);
    E(&p0, LW, 10, 5, 0, 0);
    emit_exit(&p0);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].exit_code, 0x5A);
}

Test(sync, zero_block_mask_means_b6_only)
{
    /* The wait (C7: SrcA bank not the matrix unit's) never clears, but with BlockMask 0 it only
     * catches matrix-unit instructions (B6): the SEMPOST and the NOP behind it pass at once. */
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(STALLWAIT_BH(0, 1u << 7)));
    emit(&p, TTINSN(SEMPOST_SEM0));
    emit(&p, TTINSN(NOP));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, STALLWAIT_BH(0, 1u << 7), 0), 3);
    cr_expect_eq(issued_at(0, SEMPOST_SEM0, 0), 4);
    cr_expect_eq(issued_at(0, NOP, 0), 5);
    cr_expect(t->thread[0].wait.active, "the wait is still latched");
    cr_expect_eq(t->thread[0].wait.block_mask, 1u << 6);
}

Test(sync, zero_condition_mask_means_c0_to_c3)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(STALLWAIT_BH(0x1FF, 0)));
    emit(&p, TTINSN(NOP));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->thread[0].wait.cond_mask, 0x0F, "Blackhole default");
    cr_expect_eq(issued_at(0, NOP, 0), 5, "C0-C3 hold (nothing busy): one release cycle");
}

Test(sync, wormhole_semwait_replaces_a_pending_wait)
{
    /* Wormhole SEMWAIT is caught only by B1, so it can issue while a STALLWAIT without B1 is
     * still pending and replace it (WH:SEMWAIT.md). The NOP after it then waits for
     * semaphore 0, which TRISC1 posts. */
    tile_destroy(t);
    t = test_tile(ARCH_WORMHOLE);
    issue_log_attach(t, &issues);
    const uint32_t stallwait_wh = 0xA2000000u | 0x40u << 15 | 1u << 10; /* B6, C10: never */
    struct prog p0 = prog_at(t, base[0]), p1 = prog_at(t, base[1]);
    emit(&p0, TTINSN(stallwait_wh));
    emit(&p0, TTINSN(SEMWAIT_ALL_SEM0_C0));
    emit(&p0, TTINSN(NOP));
    emit_exit(&p0);
    for (int i = 0; i < 20; i++)
        E(&p1, ADDI, 5, 5, 0, 1);
    emit(&p1, TTINSN(SEMPOST_SEM0)); /* 20, issues at 23 */
    emit_exit(&p1);
    tile_start_core(t, CORE_TRISC1, base[1]);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_NONE, "%s\n%s", t->err.text, t->err.detail);
    cr_expect_eq(issued_at(0, SEMWAIT_ALL_SEM0_C0, 0), 4, "not held by the B6 wait");
    cr_expect_eq(issued_at(0, NOP, 0), 25);
}

/* The cycle an earlier thread's instruction fails in its unit: a later thread that would have
 * issued in that cycle did not, and is charged "stopped" (it used to extend its issuing
 * interval over that cycle, counting one instruction more than it issued). */
Test(sync, a_failing_accept_stops_later_threads_in_that_cycle)
{
    const uint32_t bad_bitwop = 0x5B000000u | 3u << 18; /* BITWOPDMAREG Mode 3: undefined */
    uint32_t t0[6] = {NOP, NOP, NOP, NOP, NOP, bad_bitwop}, t1[16];
    for (int i = 0; i < 16; i++)
        t1[i] = NOP;
    tensix_kernel(t, 0, t0, 6);
    tensix_kernel(t, 1, t1, 16);
    cr_assert_eq(tile_run(t, 0), ERR_UNDEF_BEHAVIOUR);
    uint64_t fail = issued_at(0, bad_bitwop, 0);
    cr_expect_eq(t->cycles, fail + 1);
    const struct thread_stats *s = &t->thread[1].st;
    uint64_t nops = s->by_form[tt_decode(TT_ARCH_BH, NOP) - tt_forms];
    cr_expect_eq(s->issued, nops, "T1 issued %llu NOPs but was charged %llu issue cycles",
                 (unsigned long long)nops, (unsigned long long)s->issued);
    cr_expect_eq(nops, fail - issued_at(1, NOP, 0), "T1 issued a NOP every cycle before the failure");
    cr_expect_eq(s->stall[GS_STOPPED], 1);
    uint64_t sum = s->issued + s->empty;
    for (int r = 1; r < GS_COUNT; r++)
        sum += s->stall[r];
    cr_expect_eq(sum, t->cycles);
}

Test(sync, an_idle_thread_is_skipped_until_a_push_and_accounted_empty)
{
    /* TRISC0 pushes a NOP at cycle 0 (issued at 3), spins 40 cycles, pushes another (issued at
     * 44). Between the two the coprocessor leaves T0 out (threads_live) and T1, T2 throughout;
     * their cycles must still all be accounted, as empty. */
    struct prog p0 = prog_at(t, base[0]);
    emit(&p0, TTINSN(NOP));
    for (int i = 0; i < 40; i++)
        E(&p0, ADDI, 5, 5, 0, 1);
    emit(&p0, TTINSN(NOP));
    emit_exit(&p0);
    tile_start_core(t, CORE_TRISC0, base[0]);
    cr_assert_eq(tile_run_until(t, 20) ? ERR_NONE : t->err.kind, ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->threads_live, 0, "after its NOP T0 has nothing anywhere: skipped");
    cr_assert_eq(tile_run(t, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(issued_at(0, NOP, 0), 3);
    cr_expect_eq(issued_at(0, NOP, 1), 44);
    cr_expect_eq(t->threads_live, 0);
    cr_expect_eq(t->thread[0].st.issued, 2);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(thread_total(&t->thread[i]), t->cycles, "T%d: every cycle attributed once", i);
        cr_expect_eq(t->thread[i].st.empty, t->cycles - t->thread[i].st.issued, "T%d", i);
    }
}
