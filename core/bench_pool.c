/* Running a bench's runs on a pool of host threads. Each run is a simulation of its own (its
 * struct sim, tile, run description copy and host) set up as `tensim run` sets one up, so two
 * runs share nothing but read-only tables and the signal flag; a worker takes the next run
 * index under a mutex and writes only its own result slot, so the results come out in manifest
 * order whichever worker finishes first. What a run prints (errors, warnings) goes to its own
 * buffer, printed later in run order; the guests' own output is dropped. */
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/zones.h"
#include "host_pin.h"
#include "host.h"
#include "hostio.h"

/* The regions the cores ended, in the order the results list them (the tile's own). */
static void copy_regions(const struct tile *t, struct bench_regions *out)
{
    for (int k = 0; k < NUM_CORES; k++) {
        const struct core_regions *cr = &t->regions[k];
        out->used[k] = cr->used;
        for (unsigned id = 0; id < REGION_IDS; id++) {
            const struct region_stat *s = &cr->st[id];
            struct bench_region *b = &out->id[k][id];
            *b = (struct bench_region){s->count, s->cycles, s->min, s->max, {0}, {0}};
            memcpy(b->stall, s->sum.stall, sizeof b->stall);
            memcpy(b->held, s->sum.held, sizeof b->held);
        }
    }
}

static int zone_order(const void *a, const void *b)
{
    const struct bench_zone *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return strcmp(x->marker, y->marker);
}

/* tt-llk's profiler zones, read back from L1 as `tensim run --zones` does, summed per thread and
 * marker: closed zones only (timestamps are points, not spans). Sorted by thread, then marker,
 * so the results do not depend on the order the buffers hold them in. */
static void copy_zones(const struct tile *t, const struct host *h, struct bench_result *res)
{
    struct zones *z = malloc(sizeof *z);
    if (!z || !(res->zones = calloc(ZONES_MAX, sizeof *res->zones))) {
        free(z);
        return;
    }
    zones_read(z, t->l1, &h->place, h->elf);
    for (unsigned i = 0; i < z->n; i++) {
        const struct zone *e = &z->z[i];
        if (e->type != ZONE_START)
            continue;
        char marker[64];
        if (e->name >= 0)
            snprintf(marker, sizeof marker, "%s", z->names[e->name].marker);
        else
            snprintf(marker, sizeof marker, "0x%04x", e->id);
        struct bench_zone *b = 0;
        for (unsigned k = 0; k < res->nzones && !b; k++)
            if (res->zones[k].thread == e->thread && !strcmp(res->zones[k].marker, marker))
                b = &res->zones[k];
        if (!b) {
            b = &res->zones[res->nzones++];
            b->thread = e->thread;
            memcpy(b->marker, marker, sizeof marker);
            b->min = UINT64_MAX;
        }
        uint64_t d = e->end - e->start;
        b->count++;
        b->cycles += d;
        b->min = d < b->min ? d : b->min;
        b->max = d > b->max ? d : b->max;
    }
    qsort(res->zones, res->nzones, sizeof *res->zones, zone_order);
    free(z);
}

/* Compare L1 with the expected files; the first difference is the run's error. */
static void check_expects(const struct bench_run *r, const struct tile *t, struct bench_result *res)
{
    for (unsigned i = 0; i < r->nexpect && res->ok; i++) {
        const struct bench_expect *e = &r->expect[i];
        char why[200];
        size_t len;
        uint8_t *want = host_read_file(e->file, (size_t)e->len + 1, &len, why, sizeof why);
        if (!want) {
            snprintf(res->error, sizeof res->error, "expect[%u]: %s: %s", i, e->file, why);
            res->ok = false;
            break;
        }
        if (len != e->len)
            snprintf(res->error, sizeof res->error, "expect[%u]: %s holds %zu bytes, the range %u",
                     i, e->file, len, e->len);
        else
            for (uint32_t b = 0; b < e->len; b++)
                if (t->l1[e->addr + b] != want[b]) {
                    snprintf(res->error, sizeof res->error, "expect[%u]: L1 0x%x differs from %s "
                             "byte %u (0x%02x, expected 0x%02x)", i, e->addr + b, e->file, b,
                             t->l1[e->addr + b], want[b]);
                    break;
                }
        res->ok = !res->error[0];
        free(want);
    }
}

static void run_one(const struct bench_run *r, const volatile sig_atomic_t *stop, struct bench_result *res)
{
    *res = (struct bench_result){0};
    FILE *log = open_memstream(&res->log, &res->loglen);
    FILE *guest = fopen("/dev/null", "w");
    struct arch tuned;
    timing_apply(r->arch, r->timing, r->ntiming, &tuned);
    struct sim sim = {.max_cycles = r->max_cycles};
    if (r->regions)
        res->regions = malloc(sizeof *res->regions);
    struct tile *t = log && guest && (res->regions || !r->regions) ? sim_add_tile(&sim, &tuned) : 0;
    if (!t) {
        free(res->regions);
        res->regions = 0;
        res->exit_status = err_kind_exit_code(ERR_HOST);
        snprintf(res->error, sizeof res->error, "%s: out of memory", err_kind_text(ERR_HOST));
        if (log)
            fclose(log);
        if (guest)
            fclose(guest);
        return;
    }
    t->out = guest;
    t->errout = log;
    t->stop = stop;
    t->unpredictable_warn = r->rd && r->rd->unpredictable_warn;
    for (unsigned i = 0; i < r->nload && t->err.kind == ERR_NONE; i++)
        host_load_file(t, ERR_BAD_FILE, "load ", r->load[i].file, r->load[i].addr);
    struct host host = {0};
    if (r->rd && t->err.kind == ERR_NONE)
        host_setup(&host, t, r->rd);
    for (int k = 0; k < NUM_CORES && t->err.kind == ERR_NONE; k++)
        if (r->program[k])
            elf_run_file(t, k, r->program[k], r->loader);
    bool ran = t->err.kind == ERR_NONE;
    if (ran)
        tile_run(t, sim.max_cycles);
    if (ran && r->rd)
        host_check_end(&host, t);
    struct sim_outcome oc;
    sim_outcome_init(&oc, t);
    res->exit_status = oc.exit_status;
    res->cycles = t->cycles;
    for (int k = 0; k < NUM_CORES; k++)
        if ((res->core_on[k] = t->core[k].state != CORE_OFF)) {
            res->core_cycles[k] = rv_core_cycles(&t->core[k]);
            memcpy(res->core_stall[k], t->core[k].st.stall, sizeof res->core_stall[k]);
        }
    for (int i = 0; i < NUM_THREADS; i++)
        if ((res->thread_on[i] = t->thread[i].pushed))
            memcpy(res->thread_held[i], t->thread[i].st.stall, sizeof res->thread_held[i]);
    if (res->regions)
        copy_regions(t, res->regions);
    if (r->zones && ran)
        copy_zones(t, &host, res);
    if (t->err.kind != ERR_NONE) {
        sim_print_error(&t->err, log);
        if (t->err.core >= 0)
            snprintf(res->error, sizeof res->error, "%s: %s pc=0x%08x cycle=%" PRIu64 ": %s",
                     err_kind_text(t->err.kind), t->err.where, t->err.pc, t->err.cycle, t->err.text);
        else
            snprintf(res->error, sizeof res->error, "%s: cycle=%" PRIu64 ": %s",
                     err_kind_text(t->err.kind), t->err.cycle, t->err.text);
    } else if (oc.guest_core >= 0)
        snprintf(res->error, sizeof res->error, "guest exit: %s exit code %d", core_name(oc.guest_core),
                 t->core[oc.guest_core].exit_code);
    sim_print_guest_exits(t, log);
    res->ok = !res->exit_status;
    if (res->ok)
        check_expects(r, t, res);
    sim_destroy(&sim);
    if (r->rd)
        host_free(&host);
    fclose(guest);
    fclose(log);
    if (!res->loglen) {
        free(res->log);
        res->log = 0;
    }
}

struct pool {
    const struct bench_manifest *m;
    const volatile sig_atomic_t *stop;
    struct bench_result *res;
    struct host_pin *pin; /* NULL: threads not pinned */
    pthread_mutex_t lock;
    unsigned next; /* the next run to take, under lock */
};

struct worker_arg {
    struct pool *pool;
    unsigned index; /* the worker's number: the physical core it is pinned to */
};

static void *worker(void *arg)
{
    struct worker_arg *w = arg;
    struct pool *p = w->pool;
    if (p->pin)
        host_pin_thread(p->pin, w->index);
    for (;;) {
        pthread_mutex_lock(&p->lock);
        unsigned i = p->next < p->m->nruns ? p->next++ : p->m->nruns;
        pthread_mutex_unlock(&p->lock);
        if (i == p->m->nruns)
            return 0;
        run_one(&p->m->run[i], p->stop, &p->res[i]);
    }
}

int bench_run_all(const struct bench_manifest *m, unsigned threads, struct host_pin *pin,
                  const volatile sig_atomic_t *stop, struct bench_result *res)
{
    struct pool p = {.m = m, .stop = stop, .res = res};
    pthread_t tid[BENCH_MAX_THREADS];
    struct worker_arg args[BENCH_MAX_THREADS];
    unsigned started = 0;
    int r = 0;
    pthread_mutex_init(&p.lock, 0);
    if (threads > m->nruns)
        threads = m->nruns;
    /* One worker per physical core; more workers than cores run where the OS puts them. */
    p.pin = threads <= host_pin_cores(pin) ? pin : 0;
    for (unsigned i = 0; i < threads; i++)
        args[i] = (struct worker_arg){.pool = &p, .index = i};
    /* The caller's thread is worker 0. */
    for (; started + 1 < threads; started++) {
        int e = pthread_create(&tid[started], 0, worker, &args[started + 1]);
        if (e) {
            fprintf(stderr, "tensim: %s: cannot start a worker thread (%s); going on with %u\n",
                    err_kind_text(ERR_HOST), strerror(e), started + 1);
            r = -1;
            break;
        }
    }
    worker(&args[0]);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], 0);
    pthread_mutex_destroy(&p.lock);
    return r;
}

void bench_result_free(struct bench_result *r)
{
    free(r->log);
    r->log = 0;
    free(r->regions);
    r->regions = 0;
    free(r->zones);
    r->zones = 0;
}
