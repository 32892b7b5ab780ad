/* The performance-counter registers (core/perf_counters.c) and the metrics under Tenstorrent's
 * names (trace/metrics.c): a counter build of our own with exact readings, the register rules on
 * a bare tile, and the metrics against the figures they are defined from. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../core/tile.h"
#include "../trace/metrics.h"

static char out[1 << 16];

/* "name=value" from the kernel's output; fails the test when absent */
static long val(const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "%s=", name);
    for (const char *p = out; (p = strstr(p, key)); p++)
        if (p == out || p[-1] == '\n')
            return strtol(p + strlen(key), NULL, 10);
    cr_assert_fail("no %s in:\n%s", name, out);
    return -1;
}

static json_t *metric(json_t *obj, const char *group, const char *name)
{
    json_t *g = json_object_get(obj, group);
    cr_assert(g, "no %s", group);
    json_t *m = json_object_get(g, name);
    cr_assert(m, "no %s.%s", group, name);
    return m;
}

/* The JSON prints 4 decimals */
static void expect_pct(json_t *obj, const char *name, double num, double den)
{
    double want = round(num / den * 100.0 * 1e4) / 1e4;
    json_t *m = metric(obj, "perf_metrics", name);
    cr_expect(json_is_real(m) || json_is_integer(m), "%s is not a number", name);
    cr_expect(fabs(json_number_value(m) - want) < 0.5e-4, "%s = %.4f, want %.4f (%g / %g)", name,
              json_number_value(m), want, num, den);
}

Test(perf_counters, counter_build_reads_exact_counts)
{
    const char *stats = "/tmp/tensim-perfcnt.json";
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q --stats %s --trisc1=build/kernels/perf-counters.elf",
                             stats), 0, "%s", out);
    /* before any start a bank reads 0 */
    cr_expect_eq(val("before"), 0);
    /* A: ten NOPs pass the gate between start and stop, none held; a stopped bank is frozen */
    cr_expect_eq(val("a_instr"), 10);
    cr_expect_eq(val("a_stalls"), 0);
    cr_expect_eq(val("a_instr_later"), 10);
    cr_expect_eq(val("a_cycles_later"), val("a_cycles"));
    cr_expect_gt(val("a_cycles"), 10);
    /* B, C: SEMWAIT and the NOP it holds; the NOP waits until the core posts (takes) the
     * semaphore >= 200 (300) cycles later, plus the one release cycle of a latched wait
     * (WH:WaitGate.md), which THREAD_STALLS counts and the semaphore counters do not */
    cr_expect_eq(val("b_instr"), 2);
    cr_expect_eq(val("b_full"), 0);
    cr_expect_geq(val("b_zero"), 200);
    cr_expect_eq(val("b_stalls"), val("b_zero") + 1);
    cr_expect_eq(val("c_instr"), 2);
    cr_expect_eq(val("c_zero"), 0);
    cr_expect_geq(val("c_full"), 300);
    cr_expect_eq(val("c_stalls"), val("c_full") + 1);
    /* D: the L1 bank is not modelled: its events read 0, its reference cycles still count */
    cr_expect_eq(val("d_l1_count"), 0);
    cr_expect_geq(val("d_l1_cycles"), 50);

    /* the counters and the stats come from the same accounting */
    json_error_t e;
    json_t *j = json_load_file(stats, 0, &e);
    cr_assert(j, "%s", e.text);
    json_t *t1 = json_object_get(json_object_get(j, "threads"), "T1");
    json_t *held = json_object_get(t1, "held");
    long semwait = json_integer_value(json_object_get(held, "semwait"));
    long release = json_integer_value(json_object_get(held, "wait_release"));
    cr_expect_eq(semwait, val("b_zero") + val("c_full"));
    cr_expect_eq(release, 2);

    /* the whole run's metrics, computed here from the same figures */
    double cycles = (double)json_integer_value(json_object_get(j, "cycles"));
    long issued = json_integer_value(json_object_get(t1, "issued"));
    cr_expect_eq(issued, 16); /* 2 SEMINIT, 2 SEMWAIT, 12 NOP */
    expect_pct(j, "math_sem_wait_pct", (double)val("b_zero"), cycles);
    expect_pct(j, "sem_full_wait_t1_pct", (double)val("c_full"), cycles);
    expect_pct(j, "math_thread_stall_pct", (double)(semwait + release), cycles);
    expect_pct(j, "thread1_ipc_pct", 16.0, cycles);
    expect_pct(j, "sync_instrn_avail_t0_pct", 0.0, cycles); /* thread 0 ran nothing */
    expect_pct(j, "fpu_utilization_pct", 0.0, cycles);
    cr_expect(json_is_null(metric(j, "perf_metrics", "fpu_exec_eff_ratio")),
              "no matrix instruction available: N/A");
    cr_expect(json_is_null(metric(j, "perf_metrics", "math_scoreboard_stall_pct")));
    cr_expect(json_is_number(metric(j, "tensim_metrics", "srca_ownership_wait_pct")));
    json_decref(j);
    unlink(stats);
}

/* The register rules on a bare tile, with the accounting set by hand. */
static uint32_t rd(struct tile *t, uint32_t off)
{
    uint32_t v = 0;
    unsigned lat;
    cr_assert_eq(mmio_load(t, CORE_TRISC0, 0xFFB12000u + off, 4, &v, &lat), MMIO_OK, "%s", t->err.text);
    return v;
}

static void wr(struct tile *t, uint32_t off, uint32_t v)
{
    cr_assert_eq(mmio_store(t, CORE_TRISC0, 0xFFB12000u + off, 4, v), MMIO_OK, "%s", t->err.text);
}

Test(perf_counters, start_stop_and_select)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    t->now = 100;
    wr(t, 0x018 + 4, 0); /* FPU bank, mode 0 */
    wr(t, 0x018 + 8, 0);
    wr(t, 0x018 + 8, 1); /* start at cycle 100 */
    cr_expect_eq(rd(t, 0x018 + 8), 1, "control reads back");
    t->fpu.st.busy_cycles = 12; /* booked from cycle 118 up to cycle 130 */
    t->fpu.busy_until = 130;
    t->now = 120;
    cr_expect_eq(rd(t, 0x120), 20, "OUT_L: cycles since the start");
    cr_expect_eq(rd(t, 0x124), 3, "OUT_H sel 0: FPU busy in cycles 118..120 (9 booked ahead)");
    t->sfpu.st.busy_cycles = 5;
    t->sfpu.busy_until = 116;
    wr(t, 0x018 + 4, 257u << 8);
    cr_expect_eq(rd(t, 0x124), 8, "FPU_OR_SFPU: their sum");
    t->sfpu.st.busy_cycles = 25; /* the sum can not pass the cycles counted */
    cr_expect_eq(rd(t, 0x124), 20, "FPU_OR_SFPU: at most every cycle");
    t->sfpu.st.busy_cycles = 5;
    t->now = 140;
    wr(t, 0x018 + 8, 0);
    wr(t, 0x018 + 8, 2); /* stop at 140 */
    t->fpu.st.busy_cycles = 1000;
    t->now = 500;
    cr_expect_eq(rd(t, 0x120), 40, "frozen at the stop");
    cr_expect_eq(rd(t, 0x124), 17, "12 + 5 at the stop, frozen");
    wr(t, 0x018 + 4, 2u << 8); /* an event tensim has no counterpart for */
    cr_expect_eq(rd(t, 0x124), 0);
    wr(t, 0x018 + 4, 2); /* mode 2: no reference count */
    cr_expect_eq(rd(t, 0x120), 0);
    /* PERF_CNT_ALL starts the FPU and INSTRN_THREAD banks together */
    wr(t, 0x03C, 0);
    wr(t, 0x03C, 1);
    t->thread[2].st.by_form[0] = 7;
    t->now = 510;
    wr(t, 0x000 + 4, 258u << 8);
    cr_expect_eq(rd(t, 0x100), 10);
    cr_expect_eq(rd(t, 0x104), 7, "THREAD_INSTRUCTIONS_2");
    /* the L1 mux register keeps its value */
    wr(t, 0x218, 1u << 4);
    cr_expect_eq(rd(t, 0x218), 1u << 4);
    tile_destroy(t);
}

Test(perf_counters, mode1_is_unimplemented)
{
    struct tile *t = test_tile(ARCH_WORMHOLE);
    cr_expect_eq(mmio_store(t, CORE_TRISC0, 0xFFB12000u + 0x004, 4, 1), MMIO_ERROR);
    cr_expect_eq(t->err.kind, ERR_UNIMPLEMENTED);
    cr_expect(strstr(t->err.text, "mode 1") != NULL, "%s", t->err.text);
    tile_destroy(t);
}

/* Each metric is its catalogue formula over the events; N/A on a zero denominator. */
Test(perf_counters, metric_formulas)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct perf_signals d;
    memset(&d, 0, sizeof d);
    d.v[PS_FPU_BUSY] = 250;
    d.v[PS_SFPU_BUSY] = 100;
    d.v[PS_MATH_STARTED] = 30;
    d.v[PS_MATH_AVAILABLE] = 40;
    d.v[PS_MATH_SCOREBOARD] = 10;
    d.v[PS_PACK_BUSY] = 0;
    d.v[PS_T(1, PS_T_AVAIL_FPU)] = 200;
    d.v[PS_T(2, PS_T_WAIT_MATH)] = 125;
    d.v[PS_T(0, PS_T_WAIT_NONFULL_SEM)] = 10;
    d.v[PS_UNPACK0_OWN_WAIT] = 50;
    double v[64];
    bool ok[64];
    cr_assert_leq(metric_count, 64);
    metrics_compute(t, &d, 1000, v, ok);
    struct { const char *name; bool ok; double want; } cases[] = {
        {"fpu_utilization_pct", true, 25.0},
        {"sfpu_utilization_pct", true, 10.0},
        {"compute_utilization_pct", true, 35.0},
        {"fpu_exec_eff_ratio", true, 1.25},
        {"math_pipeline_util_pct", true, 75.0},
        {"math_scoreboard_stall_pct", true, 25.0},
        {"math_to_pack_handoff_ratio", true, 0.03}, /* 30 / the span's cycles: packer idle */
        {"pack_wait_math_pct", true, 12.5},
        {"sem_full_wait_t0_pct", true, 1.0},
        {"compute_to_unpack_ratio", false, 0},
        {"srca_ownership_wait_pct", true, 5.0},
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned i = 0;
        while (i < metric_count && strcmp(metric_defs[i].name, cases[c].name))
            i++;
        cr_assert_lt(i, metric_count, "no metric %s", cases[c].name);
        cr_expect_eq(ok[i], cases[c].ok, "%s", cases[c].name);
        if (cases[c].ok)
            cr_expect(fabs(v[i] - cases[c].want) < 1e-9, "%s = %g, want %g", cases[c].name, v[i],
                      cases[c].want);
    }
    tile_destroy(t);
}

static long jint(json_t *o, const char *path)
{
    /* "a.b.c" through objects */
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *cur = o;
    for (char *save, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
        cur = json_object_get(cur, k);
    cr_assert(json_is_integer(cur), "no integer %s", path);
    return (long)json_integer_value(cur);
}

/* The eltwise example on three TRISCs: the metrics against the unit and thread figures of the
 * same stats file, by their catalogue formulas. */
Test(perf_counters, eltwise_metrics_follow_the_stats)
{
    const char *stats = "/tmp/tensim-perfcnt-ew.json";
    cr_assert_eq(run_tensimf(out, sizeof out,
                             "run -q --stats %s --trisc0=build/kernels/eltwise-t0.elf "
                             "--trisc1=build/kernels/eltwise-t1.elf --trisc2=build/kernels/eltwise-t2.elf",
                             stats), 0, "%s", out);
    json_error_t e;
    json_t *j = json_load_file(stats, 0, &e);
    cr_assert(j, "%s", e.text);
    double cycles = (double)jint(j, "cycles");
    json_t *un = json_object_get(json_object_get(json_object_get(j, "units"), "unpack"), "unpackers");
    json_t *pk = json_object_get(json_object_get(json_object_get(j, "units"), "pack"), "packers");
    double fpu_busy = (double)jint(j, "units.fpu.busy_cycles");
    double fpu_insns = (double)jint(j, "units.fpu.instructions");
    double u0 = (double)json_integer_value(json_object_get(json_array_get(un, 0), "busy_cycles"));
    double u1 = (double)json_integer_value(json_object_get(json_array_get(un, 1), "busy_cycles"));
    double p0 = (double)json_integer_value(json_object_get(json_array_get(pk, 0), "busy_cycles"));
    double t1_src = (double)jint(j, "threads.T1.held.src_not_valid");
    double t1_dst = (double)jint(j, "threads.T1.held.dest_hazard");
    cr_expect_gt(fpu_busy, 0);
    cr_expect_eq(jint(j, "threads.T1.instructions.ELWADD_BH"), 32);
    expect_pct(j, "fpu_utilization_pct", fpu_busy, cycles);
    expect_pct(j, "compute_utilization_pct", fpu_busy, cycles); /* no SFPU work */
    expect_pct(j, "pack_utilization_pct", p0, cycles);
    expect_pct(j, "unpack0_busy_t0_pct", u0, cycles);
    expect_pct(j, "unpack1_busy_t0_pct", u1, cycles);
    expect_pct(j, "math_pipeline_util_pct", fpu_insns, fpu_insns + t1_src + t1_dst);
    expect_pct(j, "math_wait_srca_pct", (double)jint(j, "threads.T1.held_detail.src_not_valid.0"), cycles);
    expect_pct(j, "math_thread_stall_pct", t1_src, cycles);
    /* TRISC2's SEMWAITs wait for a post (condition C0): all of them count as zero waits */
    expect_pct(j, "pack_sem_wait_pct", (double)jint(j, "threads.T2.held.semwait"), cycles);
    expect_pct(j, "sem_full_wait_t2_pct", 0, cycles);
    expect_pct(j, "thread1_ipc_pct", (double)jint(j, "threads.T1.issued"), cycles);
    json_t *r = metric(j, "perf_metrics", "fpu_exec_eff_ratio");
    cr_expect(fabs(json_number_value(r) - round(fpu_busy / fpu_insns * 1e4) / 1e4) < 0.5e-4,
              "fpu_exec_eff_ratio %.4f", json_number_value(r));
    json_decref(j);
    unlink(stats);
}

/* Per region: a TRISCk region's thread-k metrics equal its own thread figures over its cycles
 * (the region's counters and the metrics' events are copied at the same marks). */
Test(perf_counters, region_metrics_match_region_counters)
{
    const char *stats = "/tmp/tensim-perfcnt-mm.json";
    cr_assert_eq(run_tensimf(out, sizeof out,
                             "run -q --stats %s --trisc0=build/kernels/matmul-regions-t0.elf "
                             "--trisc1=build/kernels/matmul-regions-t1.elf "
                             "--trisc2=build/kernels/matmul-regions-t2.elf", stats), 0, "%s", out);
    json_error_t e;
    json_t *j = json_load_file(stats, 0, &e);
    cr_assert(j, "%s", e.text);
    static const char *const ipc[] = {"thread0_ipc_pct", "thread1_ipc_pct", "thread2_ipc_pct"};
    static const char *const stall[] = {"unpack_thread_stall_pct", "math_thread_stall_pct",
                                        "pack_thread_stall_pct"};
    unsigned checked = 0;
    for (int k = 0; k < 3; k++) {
        char core[24];
        snprintf(core, sizeof core, "TRISC%d", k);
        json_t *list = json_object_get(json_object_get(j, "regions"), core);
        size_t i;
        json_t *r;
        json_array_foreach(list, i, r) {
            double cycles = (double)json_integer_value(json_object_get(r, "cycles"));
            double insns = 0, held = 0;
            const char *key;
            json_t *v;
            json_object_foreach(json_object_get(r, "tensix"), key, v)
                insns += (double)json_integer_value(v);
            json_object_foreach(json_object_get(r, "held"), key, v)
                held += strcmp(key, "stopped") ? (double)json_integer_value(v) : 0;
            if (cycles == 0) {
                cr_expect(json_is_null(metric(r, "perf_metrics", ipc[k])));
                continue;
            }
            expect_pct(r, ipc[k], insns, cycles);
            expect_pct(r, stall[k], held, cycles);
            checked++;
        }
    }
    cr_expect_geq(checked, 4, "regions checked: %u", checked);
    json_decref(j);
    unlink(stats);
}
