/* Regions (riscv/region.h, docs/sdk.md "Regions"): the HINT costs nothing, and each region's
 * count, cycles, min, max, instructions and stalls are exact. Every test runs the same program
 * with and without the marks and checks that no cycle count moves. */
#include <criterion/criterion.h>
#include <string.h>

#include "../trace/regions.h"
#include "harness.h"

#define TTINSN(w) (((w) << 2) | ((w) >> 30))
#define NOP 0x02000000u
#define SEMINIT_MAX1_VAL0_SEM0 0xA3100004u
#define SEMWAIT_ALL_SEM0_C0 0xA6FF8005u
#define SEMPOST_SEM0 0xA4000004u

#define BEGIN(p, id) E(p, SLTI, 0, 0, 0, REGION_IMM_BEGIN + (id))
#define END(p, id) E(p, SLTI, 0, 0, 0, REGION_IMM_END + (id))

static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};

/* Region `id` of core `core`. */
static const struct region_stat *reg(const struct tile *t, int core, unsigned id)
{
    return &t->regions[core].st[id];
}

Test(regions, hint_decodes_only_in_its_range)
{
    cr_expect_eq(rv_decode(rv_encode(RV_SLTI, 0, 0, 0, 0x580)).op, RV_REGION);
    cr_expect_eq(rv_decode(rv_encode(RV_SLTI, 0, 0, 0, 0x5FF)).op, RV_REGION);
    cr_expect_eq(rv_decode(rv_encode(RV_SLTI, 0, 0, 0, 0x57F)).op, RV_SLTI);
    cr_expect_eq(rv_decode(rv_encode(RV_SLTI, 0, 0, 0, 0x600)).op, RV_SLTI);
    cr_expect_eq(rv_decode(rv_encode(RV_SLTI, 5, 0, 0, 0x580)).op, RV_SLTI, "rd != x0: a real slti");
    cr_expect_eq(rv_decode(rv_encode(RV_SLTI, 0, 5, 0, 0x580)).op, RV_SLTI, "rs1 != x0");
    cr_expect_eq(rv_decode(rv_encode(RV_SLTIU, 0, 0, 0, 0x580)).op, RV_SLTIU);
    cr_expect_eq(rv_encode(RV_SLTI, 0, 0, 0, 0x580 + 5), 0x58502013u, "docs/sdk.md's word");
    cr_expect_eq(rv_encode(RV_SLTI, 0, 0, 0, 0x5C0 + 63), 0x5FF02013u);
    char dis[64];
    rv_disasm(0x58502013u, 0, dis, sizeof dis);
    cr_expect_str_eq(dis, "slti zero, zero, 1413");
}

/* Ten dependent addi in a region: 10 cycles, 10 instructions, and the core's own figures are
 * those of the program without the marks. */
static struct tile *straight(bool hints)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    if (hints)
        BEGIN(&p, 1);
    for (int i = 0; i < 10; i++)
        E(&p, ADDI, 5, 5, 0, 1);
    if (hints)
        END(&p, 1);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    return t;
}

Test(regions, straight_line_costs_nothing)
{
    struct tile *with = straight(true), *without = straight(false);
    cr_expect_eq(with->cycles, 12);
    cr_expect_eq(with->cycles, without->cycles);
    cr_expect_eq(with->core[0].st.instret, without->core[0].st.instret, "the marks do not retire");
    cr_expect_eq(with->core[0].st.active, without->core[0].st.active);
    const struct region_stat *r = reg(with, 0, 1);
    cr_expect_eq(r->count, 1);
    cr_expect_eq(r->cycles, 10);
    cr_expect_eq(r->min, 10);
    cr_expect_eq(r->max, 10);
    cr_expect_eq(r->sum.instret, 10);
    for (int s = 0; s < STALL_COUNT; s++)
        cr_expect_eq(r->sum.stall[s], 0);
    cr_expect(regions_any(with));
    cr_expect(!regions_any(without));
    cr_expect_eq(with->regions[0].open, 0);
    tile_destroy(with);
    tile_destroy(without);
}

/* A loop of three divisions with a region around the loop (2) and one around each division
 * (3): dividends 0xFFFFFFFF, 0xFFFF and 0 take 33, 17 and 6 cycles (div_cycles). */
static struct tile *division_loop(bool hints)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    E(&p, ADDI, 5, 0, 0, -1); /* t0: dividend */
    E(&p, ADDI, 7, 0, 0, 3);  /* t2: divisor */
    E(&p, ADDI, 28, 0, 0, 3); /* t3: iterations */
    if (hints)
        BEGIN(&p, 2);
    uint32_t loop = p.pc;
    if (hints)
        BEGIN(&p, 3);
    E(&p, DIVU, 6, 5, 7, 0);
    if (hints)
        END(&p, 3);
    E(&p, SRLI, 5, 5, 0, 16);
    E(&p, ADDI, 28, 28, 0, -1);
    E(&p, BNE, 0, 28, 0, (int32_t)(loop - p.pc));
    if (hints)
        END(&p, 2);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    return t;
}

Test(regions, nested_and_repeated)
{
    struct tile *with = division_loop(true), *without = division_loop(false);
    const struct rv_core *c = &with->core[0];
    cr_expect_eq(with->cycles, without->cycles);
    cr_expect_eq(memcmp(&c->st, &without->core[0].st, sizeof c->st), 0, "every core counter");
    const struct region_stat *inner = reg(with, 0, 3), *outer = reg(with, 0, 2);
    cr_expect_eq(inner->count, 3);
    cr_expect_eq(inner->cycles, 33 + 17 + 6);
    cr_expect_eq(inner->min, 6);
    cr_expect_eq(inner->max, 33);
    cr_expect_eq(inner->sum.instret, 3);
    cr_expect_eq(inner->sum.stall[STALL_DIV], 32 + 16 + 5);
    cr_expect_eq(outer->count, 1);
    cr_expect_eq(outer->sum.instret, 12, "div, srli, addi, bne three times");
    /* The outer region is everything but the three set-up instructions and the exit (the
     * ecall's cycle is halt_cycle - 1, the addi before it halt_cycle - 2). */
    cr_expect_eq(outer->cycles, c->halt_cycle - 2 - 3);
    uint64_t stalls = 0;
    for (int s = 0; s < STALL_COUNT; s++)
        stalls += outer->sum.stall[s];
    cr_expect_eq(outer->cycles, outer->sum.instret + stalls, "a region's cycles: issues + stalls");
    cr_expect_eq(outer->sum.stall[STALL_DIV], 53);
    cr_expect_eq(outer->sum.stall[STALL_BRANCH], c->st.stall[STALL_BRANCH]);
    tile_destroy(with);
    tile_destroy(without);
}

Test(regions, overlapping_regions_are_independent)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    BEGIN(&p, 4);
    E(&p, ADDI, 5, 5, 0, 1);
    BEGIN(&p, 5);
    E(&p, ADDI, 5, 5, 0, 1);
    END(&p, 4);
    E(&p, ADDI, 5, 5, 0, 1);
    E(&p, ADDI, 5, 5, 0, 1);
    END(&p, 5);
    BEGIN(&p, 4); /* again: a second count */
    END(&p, 4);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(reg(t, 0, 4)->count, 2);
    cr_expect_eq(reg(t, 0, 4)->cycles, 2);
    cr_expect_eq(reg(t, 0, 4)->min, 0, "an empty region takes no cycle");
    cr_expect_eq(reg(t, 0, 4)->max, 2);
    cr_expect_eq(reg(t, 0, 5)->count, 1);
    cr_expect_eq(reg(t, 0, 5)->cycles, 3);
    cr_expect_eq(reg(t, 0, 5)->sum.instret, 3);
    tile_destroy(t);
}

Test(regions, end_without_begin_is_an_error)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    E(&p, ADDI, 5, 5, 0, 1);
    END(&p, 9);
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_REGION);
    cr_expect_str_eq(t->err.text, "tensim_region_end(9): region 9 was not begun");
    cr_expect_eq(t->err.pc, base[0] + 4);
    cr_expect_eq(err_kind_exit_code(ERR_REGION), 112);
    tile_destroy(t);
}

Test(regions, begin_of_an_open_region_is_an_error)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    BEGIN(&p, 63);
    E(&p, ADDI, 5, 5, 0, 1);
    BEGIN(&p, 63);
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_REGION);
    cr_expect_str_eq(t->err.text,
                     "tensim_region_begin(63): region 63 is already open (begun at cycle 0)");
    tile_destroy(t);
}

Test(regions, run_ending_inside_a_region_warns)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    BEGIN(&p, 0);
    E(&p, ADDI, 5, 5, 0, 1);
    BEGIN(&p, 1);
    END(&p, 1);
    emit_exit(&p);
    cr_expect_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "a warning, not an error");
    cr_expect_eq(t->nwarnings, 1);
    cr_expect_eq(t->regions[0].open, 1, "region 0 still open");
    cr_expect_eq(reg(t, 0, 0)->count, 0, "and not counted");
    cr_expect_eq(reg(t, 0, 1)->count, 1);
    tile_destroy(t);
}

/* TRISC0 pushes SEMINIT, SEMWAIT, NOP (one fused group, with a region begun inside it) and waits
 * for its thread with a Manual TTSync load; TRISC1 posts the semaphore at cycle 20. The thread's
 * figures in the regions are the whole kernel's: 3 instructions, 19 cycles held by the SEMWAIT
 * and 1 by its release (test_sync.c's semwait test, which has the same timing). */
static struct tile *semaphore_kernel(bool hints)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p0 = prog_at(t, base[0]), p1 = prog_at(t, base[1]);
    if (hints)
        BEGIN(&p0, 7);
    emit(&p0, TTINSN(SEMINIT_MAX1_VAL0_SEM0));
    if (hints)
        BEGIN(&p0, 8); /* inside the fused group: it stays one cycle */
    emit(&p0, TTINSN(SEMWAIT_ALL_SEM0_C0));
    emit(&p0, TTINSN(NOP));
    emit_li(&p0, 5, 0xFFE80004u); /* TENSIM_TTSYNC_COPROC_DONE */
    E(&p0, LW, 6, 5, 0, 0);
    E(&p0, ADD, 7, 6, 6, 0); /* uses the load's result */
    if (hints) {
        END(&p0, 8);
        END(&p0, 7);
    }
    emit_exit(&p0);
    for (int i = 0; i < 20; i++)
        E(&p1, ADDI, 5, 5, 0, 1);
    emit(&p1, TTINSN(SEMPOST_SEM0));
    emit_exit(&p1);
    tile_start_core(t, CORE_TRISC1, base[1]);
    cr_assert_eq(run_core(&p0, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    return t;
}

Test(regions, tensix_thread_figures)
{
    struct tile *with = semaphore_kernel(true), *without = semaphore_kernel(false);
    cr_expect_eq(with->cycles, without->cycles);
    for (int i = 0; i < 2; i++)
        cr_expect_eq(memcmp(&with->core[i].st, &without->core[i].st, sizeof with->core[i].st), 0,
                     "TRISC%d's counters", i);
    cr_expect_eq(memcmp(&with->thread[0].st, &without->thread[0].st, sizeof with->thread[0].st), 0);
    const struct rv_core *c = &with->core[0];
    cr_expect_eq(c->st.instret - c->st.active, 2, "the three pushes issued in one cycle");
    for (unsigned id = 7; id <= 8; id++) {
        const struct region_stat *r = reg(with, 0, id);
        cr_expect_eq(r->count, 1);
        /* from cycle 0 to the end mark, after the addi and before the exit's two instructions */
        cr_expect_eq(r->cycles, c->halt_cycle - 2, "region %u", id);
        cr_expect_eq(r->sum.tensix[TT_UNIT_SYNC], 2, "SEMINIT, SEMWAIT");
        uint64_t n = 0;
        for (int u = 0; u < TT_UNIT_COUNT; u++)
            n += r->sum.tensix[u];
        cr_expect_eq(n, 3);
        cr_expect_eq(r->sum.held[GS_SEMWAIT], 19);
        cr_expect_eq(r->sum.held[GS_WAIT_RELEASE], 1);
        cr_expect_eq(r->sum.stall[STALL_TTSYNC], c->st.stall[STALL_TTSYNC]);
        cr_expect_gt(r->sum.stall[STALL_TTSYNC], 20, "the load waits for the NOP at 25");
    }
    cr_expect_eq(reg(with, 0, 7)->sum.instret, 7, "3 pushes (one fused cycle), lui, addi, lw, add: %llu", (unsigned long long)reg(with, 0, 7)->sum.instret);
    tile_destroy(with);
    tile_destroy(without);
}

/* ---- through the CLI ---- */

/* s without the first span that starts with `from` and ends after the next `to` (or s itself). */
static void cut(char *s, const char *from, const char *to)
{
    char *a = strstr(s, from);
    if (!a)
        return;
    char *b = strstr(a, to);
    cr_assert(b, "no \"%s\" after \"%s\"", to, from);
    b += strlen(to);
    memmove(a, b, strlen(b) + 1);
}

#define MATMUL(v) "run --trisc0=build/kernels/" v "-t0.elf --trisc1=build/kernels/" v \
                  "-t1.elf --trisc2=build/kernels/" v "-t2.elf"

/* matmul built with and without its marks (-DMATMUL_REGIONS): the same report and the same
 * stats, but for the region table and the "regions" key. */
Test(regions, matmul_with_marks_changes_no_figure)
{
    static char plain[16384], marked[16384];
    cr_assert_eq(run_tensim(MATMUL("matmul") " --stats /tmp/tensim-rg-plain.json", plain,
                            sizeof plain), 0, "%s", plain);
    cr_assert_eq(run_tensim(MATMUL("matmul-regions") " --stats /tmp/tensim-rg-marked.json",
                            marked, sizeof marked), 0, "%s", marked);
    cr_expect(strstr(marked, "\nregion         count     cycles      min      max    instret  "
                             "stall cycles\n"));
    cr_expect(strstr(marked, "\nTRISC1 #0          1 "), "%s", marked);
    cr_expect(strstr(marked, "\n  T1 issued: cfg=8; held: none\n"), "the eight SETC16");
    cr_expect(strstr(marked, "\nTRISC1 #1          4          2        0        1          8  none\n"),
              "one per tile: 8 pushes in two fused groups, the marks between them free");
    cr_expect(strstr(marked, "\nTRISC0 #0          1 "), "filling the operands");
    cr_expect(strstr(marked, "\nTRISC2 #2          4 "), "one per tile");
    cr_expect(!strstr(plain, "region"));
    /* the table ends the report */
    char *table = strstr(marked, "region         count");
    cr_assert(table);
    *table = 0;
    cr_expect_str_eq(marked, plain, "the report without the table is the plain run's");
    char *js_plain = read_whole_file("/tmp/tensim-rg-plain.json", NULL);
    char *js_marked = read_whole_file("/tmp/tensim-rg-marked.json", NULL);
    cr_expect(strstr(js_marked, "\"thread\": \"T1\", \"tensix\": {\"cfg\": 8},"));
    cr_expect(strstr(js_marked, "{\"id\": 1, \"count\": 4, "));
    cut(js_marked, "  \"regions\": {", "\n  },\n");
    cr_expect_str_eq(js_marked, js_plain, "the stats without \"regions\" are the plain run's");
    free(js_plain);
    free(js_marked);
}

Test(regions, run_ending_inside_a_region_cli)
{
    char out[8192];
    cr_assert_eq(run_tensim("run --stats /tmp/tensim-rg-open.json build/guest/region_open.elf", out,
                            sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "tensim: warning: TRISC0: region 2 begun at cycle 15 was still open when "
                          "the run ended at cycle 18 (not counted)\n"), "%s", out);
    cr_expect(strstr(out, "\nTRISC0 #1          3          3        1        1          3  none\n"),
              "%s", out);
    cr_expect(strstr(out, "\nTRISC0 #2          0          0        0        0          0  none "
                          "(open at the end, begun at cycle 15)\n"), "%s", out);
    char *js = read_whole_file("/tmp/tensim-rg-open.json", NULL);
    cr_expect(strstr(js, "{\"id\": 1, \"count\": 3, \"cycles\": 3, \"min\": 1, \"max\": 1, "
                         "\"open\": null,\n       \"instret\": 3,"), "%s", js);
    cr_expect(strstr(js, "{\"id\": 2, \"count\": 0, \"cycles\": 0, \"min\": 0, \"max\": 0, "
                         "\"open\": 15,"), "%s", js);
    free(js);
}

Test(regions, end_without_begin_cli)
{
    char out[8192];
    cr_expect_eq(run_tensim("run build/guest/region_unbegun.elf", out, sizeof out), 112);
    cr_expect(strstr(out, "tensim: bad region: TRISC0 pc=0x00006004 cycle=1: "
                          "tensim_region_end(5): region 5 was not begun\n"), "%s", out);
}
