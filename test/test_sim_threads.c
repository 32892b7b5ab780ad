/* sim_run on host threads (core/sim.h): the same tiles split over 1, 2, 3 or 8 worker threads,
 * with windows of any length, end exactly alike: the same cycles, error, stats JSON, trace and
 * L1, and the same first error in tile order (test_sim.c shows that one thread ends each tile
 * as it ends alone). 8 threads on this 2-core machine also covers workers descheduled
 * mid-window. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../core/sim.h"
#include "../mem/elf.h"
#include "../trace/stats.h"
#include "../trace/trace.h"
#include "harness.h"

#define K "build/kernels/"
#define NT 18 /* tiles per run: more than 8 workers, and not a multiple of 2 or 8 per worker */

/* Kernels that need no input files, one set per tile, in turn; NULL: the core stays off. The
 * last set starts only the matrix unit's kernel, whose unpacker never comes: a deadlock. */
static const char *const sets[][3] = {
    {K "eltwise-t0.elf", K "eltwise-t1.elf", K "eltwise-t2.elf"},
    {K "matmul-t0.elf", K "matmul-t1.elf", K "matmul-t2.elf"},
    {K "pipeline-unpack.elf", K "pipeline-math.elf", K "pipeline-pack.elf"},
    {K "tokens-t0.elf", K "tokens-t1.elf", K "tokens-t2.elf"},
    {K "unpack-t0.elf", K "unpack-t1.elf", NULL},
    {K "hello.elf", NULL, NULL},
    {NULL, K "matmul-t1.elf", NULL},
};
#define NSETS (sizeof sets / sizeof sets[0])

struct tile_end {
    uint64_t cycles, l1_hash;
    enum err_kind kind;
    char text[sizeof ((struct sim_error *)0)->text];
    char *stats, *trace; /* the stats JSON and the trace of the tile */
    size_t stats_len, trace_len;
};

struct run_end {
    enum err_kind first;
    unsigned ran_threads;
    uint64_t windows;
    struct tile_end tile[NT];
};

static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static void run(unsigned threads, uint64_t window, uint64_t max_cycles, struct run_end *r)
{
    static struct sim s;
    static struct tracer tr[NT];
    FILE *tf[NT];
    s = (struct sim){.threads = threads, .max_cycles = max_cycles};
    for (unsigned i = 0; i < NT; i++) {
        struct tile *t = sim_add_tile(&s, arch_get(ARCH_BLACKHOLE));
        cr_assert(t);
        t->out = t->errout = fopen("/dev/null", "w");
        tf[i] = open_memstream(&r->tile[i].trace, &r->tile[i].trace_len);
        trace_begin(&tr[i], tf[i], t);
        t->tracer = &tr[i];
        for (int c = 0; c < 3; c++) {
            const char *elf = sets[i % NSETS][c];
            if (elf)
                cr_assert_eq(elf_run_file(t, c, elf, ELF_LOADER_AUTO), 0, "%s: %s", elf, t->err.text);
        }
    }
    r->first = sim_run(&s, window);
    r->ran_threads = s.ran_threads;
    r->windows = s.windows;
    for (unsigned i = 0; i < NT; i++) {
        struct tile *t = s.tile[i];
        struct tile_end *e = &r->tile[i];
        trace_end(t->tracer);
        t->tracer = NULL;
        fclose(tf[i]);
        fclose(t->out);
        e->cycles = t->cycles;
        e->kind = t->err.kind;
        snprintf(e->text, sizeof e->text, "%s", t->err.text);
        e->l1_hash = fnv(t->l1, t->arch->l1_size);
        struct sim_outcome o;
        sim_outcome_init(&o, t);
        FILE *f = open_memstream(&e->stats, &e->stats_len);
        cr_assert(f);
        stats_json(t, &o, f);
        fclose(f);
    }
    sim_destroy(&s);
}

static void free_run(struct run_end *r)
{
    for (unsigned i = 0; i < NT; i++) {
        free(r->tile[i].stats);
        free(r->tile[i].trace);
    }
}

static void expect_same(const struct run_end *a, const struct run_end *b, const char *what)
{
    cr_expect_eq(a->first, b->first, "%s: sim_run's result %d, alone %d", what, b->first, a->first);
    for (unsigned i = 0; i < NT; i++) {
        const struct tile_end *x = &a->tile[i], *y = &b->tile[i];
        cr_expect_eq(y->cycles, x->cycles, "%s: tile %u ran %llu cycles, not %llu", what, i,
                     (unsigned long long)y->cycles, (unsigned long long)x->cycles);
        cr_expect_eq(y->kind, x->kind, "%s: tile %u", what, i);
        cr_expect_str_eq(y->text, x->text, "%s: tile %u", what, i);
        cr_expect_eq(y->l1_hash, x->l1_hash, "%s: tile %u's L1 differs", what, i);
        cr_expect(y->stats_len == x->stats_len && !memcmp(y->stats, x->stats, x->stats_len),
                  "%s: tile %u's stats differ", what, i);
        cr_expect(y->trace_len == x->trace_len && !memcmp(y->trace, x->trace, x->trace_len),
                  "%s: tile %u's trace differs", what, i);
    }
}

Test(sim_threads, tiles_end_the_same_on_1_2_and_8_host_threads, .timeout = 120)
{
    static struct run_end one, two, eight, odd;
    run(1, 1000, 0, &one);
    /* the kernels ran: every set but the last ends cleanly, the last deadlocks, and that is the
     * first error in tile order */
    for (unsigned i = 0; i < NT; i++) {
        const bool stuck = i % NSETS == NSETS - 1;
        cr_assert_eq(one.tile[i].kind, stuck ? ERR_DEADLOCK : ERR_NONE, "tile %u: %s", i,
                     one.tile[i].text);
        if (!stuck) /* several windows */
            cr_assert_gt(one.tile[i].cycles, 1000, "tile %u: %llu cycles", i,
                         (unsigned long long)one.tile[i].cycles);
    }
    cr_assert_eq(one.first, ERR_DEADLOCK);
    cr_assert_eq(one.ran_threads, 1);
    run(2, 1000, 0, &two);
    cr_assert_eq(two.ran_threads, 2);
    expect_same(&one, &two, "2 threads");
    run(8, 1000, 0, &eight);
    cr_assert_eq(eight.ran_threads, 8);
    cr_assert_eq(eight.windows, one.windows, "the horizons do not depend on the thread count");
    expect_same(&one, &eight, "8 threads");
    /* windows of 9 cycles (the NoC's, spec/parallel.md B.2) on 3 threads: the same again */
    run(3, 9, 0, &odd);
    expect_same(&one, &odd, "3 threads, 9-cycle windows");
    cr_assert_gt(odd.windows, one.windows);
    free_run(&one), free_run(&two), free_run(&eight), free_run(&odd);
}

Test(sim_threads, a_cycle_limit_stops_every_tile_alike_on_any_thread_count, .timeout = 60)
{
    static struct run_end one, two;
    run(1, 300, 5000, &one);
    run(2, 300, 5000, &two);
    unsigned limited = 0;
    for (unsigned i = 0; i < NT; i++)
        if (one.tile[i].kind == ERR_CYCLE_LIMIT) {
            limited++;
            cr_expect_eq(one.tile[i].cycles, 5000, "tile %u", i);
        }
    cr_assert_gt(limited, 0, "some kernel runs longer than 5000 cycles");
    expect_same(&one, &two, "2 threads, --max-cycles 5000");
    free_run(&one), free_run(&two);
}

/* Idle time is skipped whole: two tiles whose only core sleeps (a divider loop would not do;
 * hello ends in about 1300 cycles) need far fewer windows than cycles / window. */
Test(sim_threads, windows_with_nothing_to_do_are_skipped)
{
    static struct sim s;
    s = (struct sim){.threads = 2};
    for (unsigned i = 0; i < 2; i++) {
        struct tile *t = sim_add_tile(&s, arch_get(ARCH_BLACKHOLE));
        cr_assert(t);
        t->out = t->errout = fopen("/dev/null", "w");
        cr_assert_eq(elf_run_file(t, 0, K "hello.elf", ELF_LOADER_AUTO), 0);
    }
    cr_assert_eq(sim_run(&s, 1), ERR_NONE);
    /* one-cycle windows: every cycle in which some agent acts is a window; the cycles in which
     * the cores wait on their store queue or a multi-cycle instruction are not */
    cr_expect_lt(s.windows, s.tile[0]->cycles, "%llu windows for %llu cycles",
                 (unsigned long long)s.windows, (unsigned long long)s.tile[0]->cycles);
    cr_expect_gt(s.windows_skipped, 0);
    cr_expect_eq(s.tile[0]->cycles, s.tile[1]->cycles);
    fclose(s.tile[0]->out), fclose(s.tile[1]->out);
    sim_destroy(&s);
}
