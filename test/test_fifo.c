/* The Tensix push path: FIFO1 capacity per architecture, .ttinsn fusion, back-pressure. */
#include <criterion/criterion.h>

#include "harness.h"

#define BASE 0x6000u
#define NOP 0x02000000u

static void push_sw(struct prog *p, int n)
{
    emit_li(p, 5, 0xFFE40000);
    emit_li(p, 6, NOP);
    for (int i = 0; i < n; i++)
        E(p, SW, 0, 5, 6, 0);
}

Test(fifo, blackhole_single_pushes_fill_to_29)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    push_sw(&p, 30);
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    cr_expect_eq(t->thread[0].fifo1.count, 29);
    cr_expect_eq(t->core[0].state, CORE_BLOCKED);
    cr_expect_eq(t->core[0].pc, BASE + 4 * (2 + 29)); /* two lui, 29 sw that went through */
    cr_expect_eq(t->core[0].st.tensix_pushes, 29);
    tile_destroy(t);
}

Test(fifo, blackhole_fused_groups_reach_32)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    for (int i = 0; i < 36; i++)
        emit(&p, (NOP << 2) | (NOP >> 30)); /* .ttinsn NOP */
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    /* 7 groups take it to 28, the 8th (accepted at 28) to 32, the 9th waits */
    cr_expect_eq(t->thread[0].fifo1.count, 32);
    cr_expect_eq(t->core[0].pc, BASE + 4 * 32);
    cr_expect_eq(t->core[0].blocked_since, 8, "one cycle per fused group of four");
    tile_destroy(t);
}

Test(fifo, fusion_disabled_by_cfg0_bit18)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, 1u << 18);
    E(&p, CSRRS, 0, 5, 0, 0x7C0); /* 1..4 */
    for (int i = 0; i < 4; i++)
        emit(&p, (NOP << 2) | (NOP >> 30));
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_UNIMPLEMENTED); /* queued, not drained */
    cr_expect_eq(t->core[0].halt_cycle, 1 + 4 + 4 + 2);
    cr_expect_eq(t->thread[0].fifo1.count, 4);
    tile_destroy(t);
}

Test(fifo, fused_group_costs_one_cycle)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    for (int i = 0; i < 4; i++)
        emit(&p, (NOP << 2) | (NOP >> 30));
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_UNIMPLEMENTED);
    cr_expect_eq(t->core[0].halt_cycle, 3);
    cr_expect_eq(t->core[0].st.instret, 6);
    cr_expect(strstr(t->err.detail, "thread T0: FIFO1 holds 4 instructions, first NOP") != NULL,
              "%s", t->err.detail);
    tile_destroy(t);
}

Test(fifo, wormhole_depths_32_16_16)
{
    int want[3] = {32, 16, 16};
    for (int core = 0; core < 3; core++) {
        struct tile *t = test_tile(ARCH_WORMHOLE);
        struct prog p = prog_at(t, 0x6000 + 0x4000 * (uint32_t)core);
        push_sw(&p, 40);
        emit_exit(&p);
        cr_expect_eq(run_core(&p, core, 10000), ERR_DEADLOCK);
        cr_expect_eq(t->thread[core].fifo1.count, (unsigned)want[core], "T%d", core);
        cr_expect_eq(t->core[core].st.stall[STALL_FIFO_FULL], 0, "still blocked: not yet attributed");
        tile_destroy(t);
    }
}

Test(fifo, brisc_pushes_land_after_the_mop_expander)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0);
    emit_li(&p, 5, 0xFFE50000); /* thread 1 */
    emit_li(&p, 6, NOP);
    E(&p, SW, 0, 5, 6, 0);
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_BRISC, 1000), ERR_UNIMPLEMENTED);
    cr_expect_eq(t->thread[1].fifo2.count, 1);
    cr_expect_eq(t->thread[1].fifo1.count, 0);
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
