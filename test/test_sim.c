/* A sim holding several tiles, run in windows with tile_run_until (core/sim.c): each tile ends
 * exactly as it ends run alone with tile_run (cycles, error, L1, stats and trace), whatever the
 * window, and tiles of both architectures share one sim. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/sim.h"
#include "../mem/elf.h"
#include "../trace/stats.h"
#include "../trace/trace.h"
#include "harness.h"

/* A program set: ELFs per TRISC (NULL: none) and the architecture. */
struct progs {
    enum arch_id arch;
    const char *elf[3];
};

static const struct progs eltwise = {ARCH_BLACKHOLE, {"eltwise-t0", "eltwise-t1", "eltwise-t2"}};
static const struct progs matmul = {ARCH_BLACKHOLE, {"matmul-t0", "matmul-t1", "matmul-t2"}};
static const struct progs tokens = {ARCH_BLACKHOLE, {"tokens-t0", "tokens-t1", "tokens-t2"}};
static const struct progs wh_push = {ARCH_WORMHOLE, {"tt-push", NULL, NULL}};

/* What a run leaves behind, as text and hashes. */
struct outcome {
    enum err_kind err;
    uint64_t cycles, l1_hash;
    char *stats, *trace;
    size_t nstats, ntrace;
};

static uint64_t fnv(const uint8_t *b, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* A tile in `s` loaded with p, tracing into *trace_f (an open_memstream of o). */
static struct tile *load(struct sim *s, const struct progs *p, struct tracer *tr, struct outcome *o,
                         FILE **trace_f)
{
    struct tile *t = sim_add_tile(s, arch_get(p->arch));
    cr_assert(t);
    t->out = t->errout = fopen("/dev/null", "w");
    for (int k = 0; k < 3; k++) {
        if (!p->elf[k])
            continue;
        char path[128];
        snprintf(path, sizeof path, "build/kernels/%s.elf", p->elf[k]);
        cr_assert_eq(elf_load_file(t, k, path), 0, "%s", path);
    }
    *trace_f = open_memstream(&o->trace, &o->ntrace);
    trace_begin(tr, *trace_f, t);
    t->tracer = tr;
    return t;
}

static void collect(struct tile *t, struct outcome *o, FILE *trace_f, enum err_kind err)
{
    trace_end(t->tracer);
    t->tracer = NULL;
    fclose(trace_f);
    fclose(t->out);
    o->err = err;
    o->cycles = t->cycles;
    o->l1_hash = fnv(t->l1, t->arch->l1_size);
    FILE *f = open_memstream(&o->stats, &o->nstats);
    stats_json(t, NULL, f);
    fclose(f);
}

static void alone(const struct progs *p, uint64_t max_cycles, struct outcome *o)
{
    struct sim s = {.max_cycles = max_cycles};
    struct tracer tr;
    FILE *tf;
    struct tile *t = load(&s, p, &tr, o, &tf);
    enum err_kind e = tile_run(t, max_cycles);
    collect(t, o, tf, e);
    sim_destroy(&s);
}

static void same(const struct outcome *a, const struct outcome *b, const char *what)
{
    cr_expect_eq(a->err, b->err, "%s: error %d vs %d", what, a->err, b->err);
    cr_expect_eq(a->cycles, b->cycles, "%s: %llu cycles vs %llu", what, (unsigned long long)a->cycles,
                 (unsigned long long)b->cycles);
    cr_expect_eq(a->l1_hash, b->l1_hash, "%s: L1 differs", what);
    cr_expect(a->nstats == b->nstats && !memcmp(a->stats, b->stats, a->nstats), "%s: stats differ", what);
    cr_expect(a->ntrace == b->ntrace && !memcmp(a->trace, b->trace, a->ntrace), "%s: trace differs", what);
}

static void release(struct outcome *o)
{
    free(o->stats);
    free(o->trace);
}

/* The programs in `p` together in one sim, windows of `window` cycles; each ends as alone. */
static void together(const struct progs *const *p, unsigned n, uint64_t window, uint64_t max_cycles)
{
    struct outcome ref[4], got[4];
    struct tracer tr[4];
    FILE *tf[4];
    struct tile *t[4];
    struct sim s = {.max_cycles = max_cycles};
    for (unsigned i = 0; i < n; i++) {
        alone(p[i], max_cycles, &ref[i]);
        memset(&got[i], 0, sizeof got[i]);
        t[i] = load(&s, p[i], &tr[i], &got[i], &tf[i]);
    }
    enum err_kind first = sim_run(&s, window);
    cr_expect_eq(first, ref[0].err != ERR_NONE ? ref[0].err : ref[1].err);
    for (unsigned i = 0; i < n; i++) {
        collect(t[i], &got[i], tf[i], t[i]->err.kind);
        char what[96];
        snprintf(what, sizeof what, "tile %u (%s), window %llu", i, p[i]->elf[0],
                 (unsigned long long)window);
        same(&ref[i], &got[i], what);
        cr_expect_gt(got[i].cycles, window, "%s: the run spans several windows", what);
        release(&ref[i]);
        release(&got[i]);
    }
    sim_destroy(&s);
}

Test(sim, two_tiles_in_windows_end_as_each_alone)
{
    const struct progs *p[] = {&eltwise, &matmul};
    together(p, 2, 64, 0);
    together(p, 2, 97, 0);
    together(p, 2, 1, 0); /* every cycle a window */
}

Test(sim, both_architectures_in_one_sim)
{
    const struct progs *p[] = {&tokens, &wh_push, &matmul};
    together(p, 3, 7, 0);
}

/* A cycle limit inside a window: every tile stops there with the cycle-limit error, as alone. */
Test(sim, cycle_limit_in_windows)
{
    const struct progs *p[] = {&matmul, &eltwise};
    together(p, 2, 64, 700);
}
