#include "sim.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "host_pin.h"

struct tile *sim_add_tile(struct sim *s, const struct arch *arch)
{
    if (s->ntiles == SIM_MAX_TILES)
        return NULL;
    struct tile *t = tile_create(arch);
    if (t)
        s->tile[s->ntiles++] = t;
    return t;
}

void sim_destroy(struct sim *s)
{
    for (unsigned i = 0; i < s->ntiles; i++)
        tile_destroy(s->tile[i]);
    s->ntiles = 0;
}

/* ---- sim_run: tiles on host threads (shared/spec/parallel.md B.4) ---- */

/* A barrier whose count can be lowered before the first wait completes (a worker that could not
 * be started). A chip meets twice per 10-cycle window, tens of thousands of times a run, so
 * waiters first spin on the generation (when there is a core for every worker: a few hundred
 * nanoseconds per meeting instead of a sleep and a wake-up, measured with bench/tiles); then,
 * or at once with more workers than cores, they sleep on a condition variable. */
struct sim_barrier {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic unsigned count, waiting;
    _Atomic uint64_t generation;
    unsigned sleepers; /* under mu */
    unsigned spins;    /* 0: never spin */
};

/* Pause loops before sleeping: tens of microseconds, a few windows' work. Longer spins cost
 * dearly when another process shares the cores (measured: 20000 made -j 2 eight times slower
 * than -j 1 on a loaded machine). */
#define BARRIER_SPINS 1000

/* Waits until every worker has arrived. The last to arrive calls `last(arg)` (when not NULL)
 * before it lets the others go: serial work between windows costs no second meeting. */
static void barrier_wait(struct sim_barrier *b, void (*last)(void *), void *arg)
{
    const uint64_t g = atomic_load(&b->generation);
    if (atomic_fetch_add(&b->waiting, 1) + 1 >= atomic_load(&b->count)) {
        atomic_store(&b->waiting, 0);
        if (last)
            last(arg);
        pthread_mutex_lock(&b->mu);
        atomic_store(&b->generation, g + 1);
        if (b->sleepers)
            pthread_cond_broadcast(&b->cv);
        pthread_mutex_unlock(&b->mu);
        return;
    }
    for (unsigned i = 0; i < b->spins; i++) {
        if (atomic_load_explicit(&b->generation, memory_order_acquire) != g)
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    pthread_mutex_lock(&b->mu);
    b->sleepers++;
    while (atomic_load(&b->generation) == g)
        pthread_cond_wait(&b->cv, &b->mu);
    b->sleepers--;
    pthread_mutex_unlock(&b->mu);
}

/* Shared by the workers of one sim_run. Each worker writes only its own tiles and its own
 * report slot; a window's slots are read by everyone after the window's barrier and written
 * again two windows later, after the next barrier, so no read ever races a write. */
struct sim_run_ctx {
    struct sim *s;
    struct sim_barrier barrier;
    struct host_pin *pin;
    uint64_t window, end;
    /* Where the run stands between sim_advance calls: the horizon every tile has reached, the
     * earliest cycle one of them (or the exchange) has something to do, and whether the
     * exchange stopped the run. Written by worker 0 as the last window's workers leave. */
    uint64_t h, next;
    unsigned nworkers;
    bool running[SIM_MAX_TILES];
    struct {
        unsigned left;   /* its tiles still running after the window */
        uint64_t next;   /* the earliest cycle one of them has something to do */
    } report[SIM_MAX_THREADS][2];
    /* With an exchange: the totals computed after it, read by every worker after the window's
     * barrier and written again only at the next window's, which every worker reaches after
     * reading them. */
    unsigned all_left;
    uint64_t all_next;
    bool stop;
};

/* One worker alone (the last to reach the window's barrier), every tile at h: the exchange,
 * then the tiles it gave work run again. */
struct exchange_arg {
    struct sim_run_ctx *x;
    uint64_t h, k;
};

static void exchange(void *arg)
{
    const struct exchange_arg *a = arg;
    struct sim_run_ctx *x = a->x;
    const uint64_t h = a->h, k = a->k;
    struct sim *s = x->s;
    unsigned left = 0;
    uint64_t next = CYCLE_NEVER;
    for (unsigned j = 0; j < x->nworkers; j++) {
        left += x->report[j][k & 1].left;
        if (x->report[j][k & 1].next < next)
            next = x->report[j][k & 1].next;
    }
    bool stop = false;
    const uint64_t ext = s->exchange(s->exchange_ctx, h, &stop);
    if (ext < next)
        next = ext;
    /* Every tile's next event again: the exchange may have given a running tile an arrival
     * earlier than what it reported (review: a window starting after it would apply it late),
     * and a finished tile one to wake it. */
    for (unsigned i = 0; i < s->ntiles; i++) {
        const uint64_t e = tile_next_event(s->tile[i]);
        if (e == CYCLE_NEVER)
            continue;
        if (!x->running[i]) {
            x->running[i] = true;
            left++;
        }
        if (e < next)
            next = e;
    }
    x->all_left = left + (ext != CYCLE_NEVER);
    x->all_next = next;
    x->stop = stop;
    if (stop)
        s->stopped_at = h;
}

struct sim_worker {
    struct sim_run_ctx *x;
    unsigned id;
    pthread_t thread;
};

/* The horizon of the first window after one that ended at h, given the earliest cycle any tile
 * has something to do (`next`): windows are `window` cycles long, and one in which no tile
 * would act is not run, the next starting at `next` instead. Depends only on the tiles' state,
 * never on the thread count. */
static uint64_t next_horizon(const struct sim_run_ctx *x, uint64_t h, uint64_t next, bool *skipped)
{
    const uint64_t from = next > h && next != CYCLE_NEVER ? next : h;
    *skipped = next >= h + x->window;
    return from < x->end && x->end - from > x->window ? from + x->window : x->end;
}

static void *worker_main(void *arg)
{
    struct sim_worker *w = arg;
    struct sim_run_ctx *x = w->x;
    struct sim *s = x->s;
    /* Worker i on core i; worker 0 is the caller's thread, which is not bound (it goes on after
     * the run): the kernel leaves it core 0, the one no other worker takes. */
    if (x->pin && w->id > 0 && w->id < host_pin_cores(x->pin))
        host_pin_thread(x->pin, w->id);
    barrier_wait(&x->barrier, NULL, NULL); /* every worker started: nworkers is final */
    const unsigned first = (unsigned)((uint64_t)s->ntiles * w->id / x->nworkers);
    const unsigned last = (unsigned)((uint64_t)s->ntiles * (w->id + 1) / x->nworkers);
    uint64_t h = x->h, next = x->next;
    bool skipped;
    for (uint64_t k = 0;; k++) {
        h = next_horizon(x, h, next, &skipped);
        unsigned left = 0;
        uint64_t mine = CYCLE_NEVER;
        for (unsigned i = first; i < last; i++) {
            if (!x->running[i])
                continue;
            if (!tile_run_until(s->tile[i], h)) {
                x->running[i] = false;
                continue;
            }
            left++;
            uint64_t e = tile_next_event(s->tile[i]);
            if (e < mine)
                mine = e;
        }
        x->report[w->id][k & 1].left = left;
        x->report[w->id][k & 1].next = mine;
        struct exchange_arg xa = {x, h, k};
        barrier_wait(&x->barrier, s->exchange ? exchange : NULL, &xa);
        if (s->exchange) {
            left = x->all_left;
            next = x->all_next;
        } else {
            left = 0;
            next = CYCLE_NEVER;
            for (unsigned j = 0; j < x->nworkers; j++) {
                left += x->report[j][k & 1].left;
                if (x->report[j][k & 1].next < next)
                    next = x->report[j][k & 1].next;
            }
        }
        if (w->id == 0) {
            s->windows++;
            s->windows_skipped += (k > 0 || x->h > 0) && skipped;
        }
        if (!left || h >= x->end || x->stop) {
            if (w->id == 0) {
                /* Nothing left anywhere: the whole chip is idle up to the end asked for. */
                x->h = !left && h < x->end ? x->end : h;
                x->next = next;
            }
            return NULL;
        }
    }
}

struct sim_run_ctx *sim_begin(struct sim *s, uint64_t window)
{
    struct sim_run_ctx *x = calloc(1, sizeof *x); /* some KiB; once per run */
    if (!x)
        return NULL;
    x->s = s;
    x->window = window ? window : 1;
    for (unsigned i = 0; i < s->ntiles; i++)
        x->running[i] = true;
    s->windows = s->windows_skipped = 0;
    s->stopped_at = CYCLE_NEVER;
    return x;
}

uint64_t sim_now(const struct sim_run_ctx *x) { return x->h; }

bool sim_advance(struct sim_run_ctx *x, uint64_t until, unsigned threads)
{
    struct sim *s = x->s;
    struct sim_worker w[SIM_MAX_THREADS];
    if (x->stop)
        return false;
    if (until <= x->h)
        return true;
    const uint64_t cap = s->max_cycles ? s->max_cycles : CYCLE_NEVER;
    x->end = until < cap ? until : cap;
    /* The host may have given a tile work since the last call (its memory, its soft reset):
     * every tile with something to do runs, from its next event on. */
    for (unsigned i = 0; s->host_wrote && i < s->ntiles; i++) {
        const uint64_t e = tile_next_event(s->tile[i]);
        if (e == CYCLE_NEVER)
            continue;
        x->running[i] = true;
        if (e < x->next)
            x->next = e;
    }
    s->host_wrote = false;
    unsigned want = threads ? threads : 1;
    if (want > SIM_MAX_THREADS)
        want = SIM_MAX_THREADS;
    if (want > s->ntiles)
        want = s->ntiles ? s->ntiles : 1;
    x->pin = want > 1 && s->pin ? host_pin_open() : NULL;
    pthread_mutex_init(&x->barrier.mu, NULL);
    pthread_cond_init(&x->barrier.cv, NULL);
    x->barrier.count = want;
    atomic_store(&x->barrier.waiting, 0);
    x->barrier.sleepers = 0;
    const long cpus = want > 1 ? sysconf(_SC_NPROCESSORS_ONLN) : 1; /* reads /sys: not per call */
    x->barrier.spins = cpus > 0 && want <= (unsigned long)cpus ? BARRIER_SPINS : 0;
    unsigned started = 1; /* worker 0 is this thread */
    for (; started < want; started++) {
        w[started] = (struct sim_worker){.x = x, .id = started};
        if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]))
            break;
    }
    pthread_mutex_lock(&x->barrier.mu);
    x->nworkers = x->barrier.count = started; /* results do not depend on it */
    pthread_mutex_unlock(&x->barrier.mu);
    s->ran_threads = started;
    w[0] = (struct sim_worker){.x = x, .id = 0};
    worker_main(&w[0]);
    for (unsigned i = 1; i < started; i++)
        pthread_join(w[i].thread, NULL);
    pthread_cond_destroy(&x->barrier.cv);
    pthread_mutex_destroy(&x->barrier.mu);
    host_pin_close(x->pin);
    x->pin = NULL;
    return !x->stop;
}

enum err_kind sim_end(struct sim_run_ctx *x, bool stop_running)
{
    struct sim *s = x->s;
    enum err_kind first = ERR_NONE;
    for (unsigned i = 0; i < s->ntiles; i++) {
        /* A tile still running has reached max_cycles: tile_run stops it there as it would
         * alone (cycle limit, or the end of a run whose agents all wake later). */
        enum err_kind k;
        /* A host that is done with the chip leaves idle tiles as they are: one waiting for
         * something that never came (a blocked core) is not a deadlock it has to hear about. */
        const bool left_waiting = stop_running && !x->stop && tile_stuck(s->tile[i]);
        if ((x->running[i] || left_waiting) && (x->stop || stop_running) &&
            s->tile[i]->err.kind == ERR_NONE) {
            tile_end_at(s->tile[i], x->stop ? s->stopped_at : x->h);
            k = ERR_NONE;
        } else {
            k = x->running[i] && s->tile[i]->err.kind == ERR_NONE ? tile_run(s->tile[i], s->max_cycles)
                                                                : tile_finish(s->tile[i]);
        }
        if (first == ERR_NONE)
            first = k;
    }
    free(x);
    return first;
}

enum err_kind sim_run(struct sim *s, uint64_t window)
{
    struct sim_run_ctx *x = sim_begin(s, window);
    if (!x)
        return ERR_HOST;
    sim_advance(x, CYCLE_NEVER, s->threads);
    return sim_end(x, false);
}

void sim_outcome_init(struct sim_outcome *o, const struct tile *t)
{
    *o = (struct sim_outcome){.guest_core = -1};
    if (t->err.kind != ERR_NONE) {
        o->exit_status = err_kind_exit_code(t->err.kind);
        return;
    }
    for (int k = 0; k < NUM_CORES; k++)
        if (t->core[k].state == CORE_HALTED && t->core[k].exit_code) {
            o->guest_core = k;
            o->exit_status = guest_exit_status(t->core[k].exit_code);
            return;
        }
}

void sim_host_error(struct sim_outcome *o, const char *fmt, ...)
{
    char msg[sizeof o->host_error[0]];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "tensim: %s: %s\n", err_kind_text(ERR_HOST), msg);
    if (o->nhost_errors < SIM_MAX_HOST_ERRORS)
        snprintf(o->host_error[o->nhost_errors++], sizeof o->host_error[0], "%s", msg);
    if (!o->exit_status)
        o->exit_status = err_kind_exit_code(ERR_HOST);
}

void sim_print_error(const struct sim_error *e, FILE *f)
{
    if (e->core >= 0)
        fprintf(f, "tensim: %s: %s pc=0x%08x cycle=%llu: %s\n", err_kind_text(e->kind), e->where,
                e->pc, (unsigned long long)e->cycle, e->text);
    else
        fprintf(f, "tensim: %s: cycle=%llu: %s\n", err_kind_text(e->kind),
                (unsigned long long)e->cycle, e->text);
    if (e->detail[0])
        fputs(e->detail, f);
}

void sim_print_guest_exits(const struct tile *t, FILE *f)
{
    for (int k = 0; k < NUM_CORES; k++) {
        const struct rv_core *c = &t->core[k];
        if (c->state == CORE_HALTED && c->exit_code)
            fprintf(f, "tensim: guest exit: %s cycle=%llu: exit code %d%s\n", core_name(k),
                    (unsigned long long)c->halt_cycle, c->exit_code,
                    guest_exit_status(c->exit_code) != c->exit_code
                        ? " (outside 1..98: passed on as exit status 99)" : "");
    }
}
