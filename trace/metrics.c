/* Metrics under Tenstorrent's names (trace/metrics.h). Each one is its catalogue formula
 * applied to the events tensim's counters read (perf_event), so a metric printed here and one
 * computed from a counter build's readings in the same window agree. */
#include "metrics.h"

#include <string.h>

#include "../core/tile.h"

/* X(name, kind, numerator, denominator): kind 0 = pct, 1 = ratio, 2 = ours (pct); the
 * numerator and denominator are expressions over E(bank, sel) and CYC. */
#define IT(sel) E(PB_INSTRN_THREAD, sel)
#define FP(sel) E(PB_FPU, sel)
#define UP(sel) E(PB_TDMA_UNPACK, sel)
#define PK(sel) E(PB_TDMA_PACK, sel)
#define METRICS(X)                                                                         \
    X(fpu_utilization_pct, 0, FP(0), CYC)                                                  \
    X(sfpu_utilization_pct, 0, FP(1), CYC)                                                 \
    X(compute_utilization_pct, 0, FP(257), CYC)                                            \
    X(fpu_exec_eff_ratio, 1, FP(0), IT(16))                                                \
    X(math_pipeline_util_pct, 0, UP(3), UP(4))                                             \
    X(math_scoreboard_stall_pct, 0, UP(4) - PK(272), UP(4))                                \
    X(pack_utilization_pct, 0, PK(18), CYC)                                                \
    X(math_to_pack_handoff_ratio, 1, PK(272), PK(18) ? PK(18) : CYC)                       \
    X(compute_to_unpack_ratio, 1, FP(257), UP(7) + UP(8))                                  \
    X(unpack0_busy_t0_pct, 0, UP(7), CYC)                                                  \
    X(unpack1_busy_t0_pct, 0, UP(8), CYC)                                                  \
    X(unpack_thread_stall_pct, 0, IT(24), CYC)                                             \
    X(math_thread_stall_pct, 0, IT(25), CYC)                                               \
    X(pack_thread_stall_pct, 0, IT(26), CYC)                                               \
    X(math_wait_srca_pct, 0, IT(29), CYC)                                                  \
    X(math_wait_srcb_pct, 0, IT(30), CYC)                                                  \
    X(srca_clear_wait_pct, 0, IT(27), CYC)                                                 \
    X(srcb_clear_wait_pct, 0, IT(28), CYC)                                                 \
    X(math_idle_wait_t1_pct, 0, IT(41), CYC)                                               \
    X(pack_idle_wait_t2_pct, 0, IT(39), CYC)                                               \
    X(unpack_idle_wait_t0_pct, 0, IT(34), CYC)                                             \
    X(math_wait_unpack_pct, 0, IT(35), CYC)                                                \
    X(pack_wait_math_pct, 0, IT(42), CYC)                                                  \
    X(unpack_wait_pack_pct, 0, IT(37), CYC)                                                \
    X(math_wait_sfpu_pct, 0, IT(56), CYC)                                                  \
    X(thcon_idle_wait_t0_pct, 0, IT(31), CYC)                                              \
    X(move_idle_wait_t0_pct, 0, IT(49), CYC)                                               \
    X(math_sem_wait_pct, 0, IT(44), CYC)                                                   \
    X(pack_sem_wait_pct, 0, IT(45), CYC)                                                   \
    X(sem_zero_wait_t0_pct, 0, IT(43), CYC)                                                \
    X(sem_full_wait_t0_pct, 0, IT(46), CYC)                                                \
    X(sem_full_wait_t1_pct, 0, IT(47), CYC)                                                \
    X(sem_full_wait_t2_pct, 0, IT(48), CYC)                                                \
    X(cfg_instrn_avail_t0_pct, 0, IT(0), CYC)                                              \
    X(sync_instrn_avail_t0_pct, 0, IT(3), CYC)                                             \
    X(thcon_instrn_avail_t0_pct, 0, IT(6), CYC)                                            \
    X(move_instrn_avail_t0_pct, 0, IT(12), CYC)                                            \
    X(math_instrn_avail_t1_pct, 0, IT(16), CYC)                                            \
    X(unpack_instrn_avail_t0_pct, 0, IT(18), CYC)                                          \
    X(pack_instrn_avail_t2_pct, 0, IT(23), CYC)                                            \
    X(thread0_ipc_pct, 0, IT(256), CYC)                                                    \
    X(thread1_ipc_pct, 0, IT(257), CYC)                                                    \
    X(thread2_ipc_pct, 0, IT(258), CYC)                                                    \
    X(srca_ownership_wait_pct, 2, d->v[PS_UNPACK0_OWN_WAIT], CYC)                          \
    X(srcb_ownership_wait_pct, 2, d->v[PS_UNPACK1_OWN_WAIT], CYC)

const struct metric_def metric_defs[] = {
#define X(name, kind, num, den) {#name, kind == 1, kind == 2},
    METRICS(X)
#undef X
};
const unsigned metric_count = sizeof metric_defs / sizeof metric_defs[0];

void metrics_compute(const struct tile *t, const struct perf_signals *d, uint64_t cycles,
                     double *val, bool *ok)
{
    bool m;
#define E(b, sel) perf_event(t, b, sel, d, cycles, &m)
#define CYC cycles
    unsigned i = 0;
#define X(name, kind, num, den)                                                            \
    {                                                                                      \
        uint64_t n_ = (num), d_ = (den);                                                   \
        ok[i] = d_ != 0;                                                                   \
        val[i] = d_ ? (double)n_ / (double)d_ * (kind == 1 ? 1.0 : 100.0) : 0.0;           \
        i++;                                                                               \
    }
    METRICS(X)
#undef X
#undef E
#undef CYC
}

/* %.4f keeps the outputs byte-identical across hosts (no shortest-round-trip printing). */
static void put_value(FILE *f, double v, bool ok)
{
    if (!ok)
        fputs("null", f);
    else
        fprintf(f, "%.4f", v);
}

void metrics_json(const struct tile *t, const struct perf_signals *d, uint64_t cycles, FILE *f,
                  const char *indent)
{
    double val[sizeof metric_defs / sizeof metric_defs[0]];
    bool ok[sizeof metric_defs / sizeof metric_defs[0]];
    metrics_compute(t, d, cycles, val, ok);
    for (int ours = 0; ours < 2; ours++) {
        fprintf(f, "%s%s\"%s\": {", ours ? ",\n" : "", indent,
                ours ? "tensim_metrics" : "perf_metrics");
        const char *sep = "";
        for (unsigned i = 0; i < metric_count; i++) {
            if (metric_defs[i].ours != ours)
                continue;
            fprintf(f, "%s\"%s\": ", sep, metric_defs[i].name);
            put_value(f, val[i], ok[i]);
            sep = ", ";
        }
        fputs("}", f);
    }
}

void metrics_run_json(const struct tile *t, FILE *f)
{
    struct perf_signals d;
    perf_signals_at(t, t->cycles, &d);
    metrics_json(t, &d, t->cycles, f, "  ");
    fputs(",\n", f);
}

void metrics_lines(const struct tile *t, const struct perf_signals *d, uint64_t cycles, FILE *f,
                   const char *const prefix[2], unsigned per_line)
{
    double val[sizeof metric_defs / sizeof metric_defs[0]];
    bool ok[sizeof metric_defs / sizeof metric_defs[0]];
    metrics_compute(t, d, cycles, val, ok);
    /* Tenstorrent's metrics first, then tensim's own; non-zero ones only */
    for (int ours = 0; ours < 2; ours++) {
        unsigned col = 0;
        for (unsigned i = 0; i < metric_count; i++) {
            if (metric_defs[i].ours != ours || !ok[i] || val[i] == 0.0)
                continue;
            if (!col)
                fputs(prefix[ours], f);
            fprintf(f, " %s=%.2f", metric_defs[i].name, val[i]);
            if (++col == per_line) {
                fputc('\n', f);
                col = 0;
            }
        }
        if (col)
            fputc('\n', f);
    }
}

void metrics_report(const struct tile *t, FILE *f)
{
    static const char *const prefix[2] = {"metrics    ", "tensim-only"};
    struct perf_signals d;
    perf_signals_at(t, t->cycles, &d);
    metrics_lines(t, &d, t->cycles, f, prefix, 3);
}
