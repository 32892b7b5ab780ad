/* The Tensix push path: FIFO capacities per architecture, .ttinsn fusion, back-pressure on the
 * pushing core. A SEMWAIT on semaphore 0 (value 0 at reset) with every block bit set holds all
 * later instructions at the gate, so pushes pile up: FIFO3 (2) + FIFO2 (8) + FIFO1. */
#include <criterion/criterion.h>

#include "harness.h"

#define BASE 0x6000u
#define NOP 0x02000000u
#define SEMWAIT_ALL_SEM0 0xA6FF8005u /* BlockMask 0x1FF, SemaphoreMask 1, ConditionMask C0 */
#define TTINSN(w) (((w) << 2) | ((w) >> 30))

/* li t0, INSTRN_BUF_BASE; sw the hold-everything SEMWAIT; then n NOP pushes with sw */
static void push_sw(struct prog *p, int n)
{
    emit_li(p, 5, 0xFFE40000);
    emit_li(p, 6, SEMWAIT_ALL_SEM0);
    E(p, SW, 0, 5, 6, 0);
    emit_li(p, 6, NOP);
    for (int i = 0; i < n; i++)
        E(p, SW, 0, 5, 6, 0);
}

Test(fifo, blackhole_single_pushes_fill_fifo1_to_29)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    push_sw(&p, 45);
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    cr_expect_eq(t->thread[0].fifo1.count, 29);
    cr_expect_eq(t->thread[0].fifo2.count, 8);
    cr_expect_eq(t->thread[0].fifo3.count, 2);
    cr_expect_eq(t->core[0].state, CORE_BLOCKED);
    /* lui, lui+addi, sw SEMWAIT, lui, then 39 NOP pushes went through */
    cr_expect_eq(t->core[0].pc, BASE + 4 * (5 + 39));
    cr_expect_eq(t->core[0].st.tensix_pushes, 40);
    cr_expect(strstr(t->err.detail, "thread T0: NOP waits on semaphore 0 (value 0, max 0)") != NULL,
              "%s", t->err.detail);
    tile_destroy(t);
}

Test(fifo, blackhole_fifo1_accepts_while_at_most_28)
{
    /* BHR:PushTensixInstruction.md "29-32": a push (single or a fused group of up to 4) is
     * taken while FIFO1 holds at most 28 entries. */
    struct tt_fifo f;
    uint32_t w[4] = {NOP, NOP, NOP, NOP};
    tt_fifo_init(&f, 32, 28);
    for (int i = 0; i < 7; i++)
        cr_assert(tt_fifo_push(&f, w, 4));
    cr_expect_eq(f.count, 28);
    cr_expect(tt_fifo_push(&f, w, 4), "a group of 4 at 28 fills it to 32");
    cr_expect_not(tt_fifo_push(&f, w, 1));
    tt_fifo_init(&f, 32, 28);
    for (int i = 0; i < 29; i++)
        cr_assert(tt_fifo_push(&f, w, 1));
    cr_expect_not(tt_fifo_push(&f, w, 1), "single pushes stop at 29");
    uint32_t x;
    cr_expect(tt_fifo_pop(&f, &x));
    cr_expect(tt_fifo_push(&f, w, 4), "back at 28: a group of 4 fits");
    cr_expect_eq(f.count, 32);
}

Test(fifo, blackhole_fused_groups_fill_fifo1)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit(&p, TTINSN(SEMWAIT_ALL_SEM0));
    for (int i = 0; i < 59; i++)
        emit(&p, TTINSN(NOP));
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    /* Groups of 4 arrive each cycle while the expanders move one per cycle into FIFO2 and FIFO3
     * (10 entries behind the SEMWAIT, which issued): FIFO1 passes 21, 25, then takes the group
     * at 25 to reach 29 and refuses the next. */
    const struct tensix_thread *th = &t->thread[0];
    cr_expect_eq(th->fifo2.count + th->fifo3.count, 10);
    cr_expect_eq(th->fifo1.count, 29);
    cr_expect_eq(t->core[0].st.tensix_pushes, 1 + 10 + 29);
    tile_destroy(t);
}

Test(fifo, back_pressure_is_attributed_to_the_core)
{
    /* Thread T0 is held by the SEMWAIT until TRISC1 posts semaphore 0; TRISC0 blocks on the
     * full FIFO1 meanwhile and its blocked cycles are counted as tensix_fifo_full. */
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    push_sw(&p, 45);
    emit_exit(&p);
    struct prog q = prog_at(t, 0xA000);
    for (int i = 0; i < 200; i++)
        E(&q, ADDI, 5, 5, 0, 1);
    emit_li(&q, 6, 0xFFE80020); /* semaphore 0: a store of an even value increments */
    E(&q, SW, 0, 6, 0, 0);
    emit_exit(&q);
    tile_start_core(t, CORE_TRISC1, 0xA000);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 100000), ERR_NONE, "%s\n%s", t->err.text, t->err.detail);
    const struct rv_core *c = &t->core[0];
    cr_expect_gt(c->st.stall[STALL_FIFO_FULL], 100);
    cr_expect_eq(core_cycles(c), c->halt_cycle);
    cr_expect_eq(t->thread[0].st.by_form[TT_FORM_NOP], 45);
    tile_destroy(t);
}

Test(fifo, fusion_disabled_by_cfg0_bit18)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, 1u << 18);
    E(&p, CSRRS, 0, 5, 0, 0x7C0); /* 1..4 */
    for (int i = 0; i < 4; i++)
        emit(&p, TTINSN(NOP)); /* 5, 6, 7, 8 */
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].halt_cycle, 1 + 4 + 4 + 2);
    cr_expect_eq(t->thread[0].st.by_form[TT_FORM_NOP], 4);
    tile_destroy(t);
}

static struct issue_log issues;

Test(fifo, fused_group_costs_one_cycle_and_issues_one_per_cycle)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    for (int i = 0; i < 4; i++)
        emit(&p, TTINSN(NOP)); /* all four pushed at cycle 0 */
    emit_exit(&p);
    issue_log_attach(t, &issues);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].halt_cycle, 3);
    cr_expect_eq(t->core[0].st.instret, 6);
    /* pushed at 0; MOP expander moves one per cycle from 1, replay expander from 2, the gate
     * issues from 3: one per cycle */
    cr_assert_eq(issues.n, 4);
    for (unsigned i = 0; i < 4; i++)
        cr_expect_eq(issues.e[i].cycle, 3 + i, "NOP %u issued at %llu", i, (unsigned long long)issues.e[i].cycle);
    cr_expect_eq(t->cycles, 7);
    tile_destroy(t);
}

Test(fifo, wormhole_fifo1_depths_32_16_16)
{
    int want[3] = {32, 16, 16};
    for (int core = 0; core < 3; core++) {
        struct tile *t = test_tile(ARCH_WORMHOLE);
        struct prog p = prog_at(t, 0x6000 + 0x4000 * (uint32_t)core);
        push_sw(&p, 60);
        emit_exit(&p);
        cr_expect_eq(run_core(&p, core, 10000), ERR_DEADLOCK);
        cr_expect_eq(t->thread[core].fifo1.count, (unsigned)want[core], "T%d", core);
        tile_destroy(t);
    }
}

Test(fifo, brisc_pushes_land_after_the_mop_expander)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0);
    emit_li(&p, 5, 0xFFE50000); /* thread 1 */
    emit_li(&p, 6, NOP);
    E(&p, SW, 0, 5, 6, 0); /* cycle 2 */
    emit_exit(&p);
    issue_log_attach(t, &issues);
    cr_expect_eq(run_core(&p, CORE_BRISC, 1000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->thread[1].pushed, 1);
    cr_expect_eq(t->thread[1].st.by_form[TT_FORM_NOP], 1);
    /* FIFO2 at 2; replay expander at 3; gate at 4: one stage less than a TRISC push */
    cr_assert_eq(issues.n, 1);
    cr_expect_eq(issues.e[0].cycle, 4);
    tile_destroy(t);
}

Test(fifo, trisc_store_to_instrn1_is_undefined)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, 0xFFE50000);
    E(&p, SW, 0, 5, 0, 0);
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 1000), ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text, "store to INSTRN1_BUF_BASE (0xffe50000) from TRISC0 hangs the core");
    tile_destroy(t);
}
