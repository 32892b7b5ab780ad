#include "sim.h"

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

struct tile *sim_adopt_tile(struct sim *s, struct tile *t)
{
    if (s->ntiles == SIM_MAX_TILES)
        return NULL;
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

/* The workers meet once per window, tens of thousands of times a run with a few microseconds of
 * work between meetings, so a meeting must cost well under a microsecond. Worker 0 leads every
 * meeting: each other worker publishes its report of the window in a cache line of its own
 * (the count of windows it has finished last, as the line's flag), worker 0 waits for all of
 * them, adds them up, runs the exchange (always on worker 0, so the NoC's state stays in one
 * core's cache: run by whichever worker arrived last it took 2.6 times as long at -j 2 as at
 * -j 1), and publishes the totals with the count of windows released, in one line the others
 * wait on. One line moves each way per worker and window; a report is read before the release
 * that lets its worker write the next one, so no report is written while it is read.
 *
 * Waiting spins when there is a core for every worker, then sleeps on a condition variable (at
 * once with more workers than cores). How long to spin is measured in time, not in pause loops
 * (a pause takes from a few to about 20 ns depending on the processor). Waking a sleeper costs
 * its waker a system call and the sleeper 8-17 us here (a 2-core virtual machine, median and
 * 90th percentile), several windows' work: a spin shorter than that lets the workers fall into
 * taking turns to sleep, each waking the other late at every meeting (measured: 26380 of 26417
 * waits slept with 1000 pauses, about 20 us, and -j 2 ran 3 times slower than -j 1). So a
 * waiter spins for up to MEET_SPIN_NS; past MEET_PAUSE_NS it yields the core between looks, so
 * that on a loaded machine (where a long pure spin made -j 2 eight times slower than -j 1: a
 * spinning worker uses up the share of a core its partner then waits for) another thread runs
 * meanwhile. A sleeper counts itself (sequentially consistent) before it looks again under the
 * mutex, and the one it waits for publishes before it looks at the count, so one of them sees
 * the other. */
#define MEET_PAUSE_NS 30000u
#define MEET_SPIN_NS 300000u

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* One worker's report of a window: its tiles still running after it, the earliest cycle one of
 * them has something to do, and what the exchange must look at; `done` (written last, with
 * release order) is the number of windows it has finished. A cache line of its own. */
struct sim_report {
    _Alignas(64) _Atomic uint64_t done;
    unsigned left;
    bool failed;
    uint64_t next;
    uint64_t sending[SIM_MASK_WORDS];
    uint64_t busy_ns; /* host time spent running its tiles (worker 0: and meeting), all windows */
};

/* What worker 0 publishes after a meeting: `released` (written last) windows may go on, with
 * the totals of the last: tiles still running, the earliest cycle one has something to do, and
 * whether the exchange stopped the run. Released 0 means not started: `nworkers` is final once
 * it is 1. */
struct sim_release {
    _Alignas(64) _Atomic uint64_t released;
    unsigned left;
    uint64_t next;
    bool stop;
};

/* Shared by the workers of one sim_run. */
struct sim_run_ctx {
    struct sim *s;
    struct sim_release rel;
    struct sim_report report[SIM_MAX_THREADS];
    struct host_pin *pin;
    uint64_t window, end;
    /* Where the run stands between sim_advance calls: the horizon every tile has reached and
     * the earliest cycle one of them (or the exchange) has something to do. Written by worker 0
     * as the last window's workers leave. */
    uint64_t h, next;
    /* Workers that meet: worker 0 may lower it between meetings (balance), and a worker whose
     * id it no longer covers stops after the release. */
    unsigned nworkers;
    bool spin; /* a core for every worker */
    bool running[SIM_MAX_TILES];
    /* Worker j runs tiles order[bound[j]] .. order[bound[j + 1] - 1]; worker 0 moves the
     * bounds between meetings (balance), and every worker reads its own after a release. The
     * order deals the tiles out in turn (worker j starts with tiles j, j + n, ...): tiles next
     * to each other on the grid tend to compute or wait at the same time, and a contiguous
     * split gave one worker the rows that computed while the other's waited. */
    unsigned bound[SIM_MAX_THREADS + 1];
    uint16_t order[SIM_MAX_TILES];
    uint64_t balanced_ns[SIM_MAX_THREADS]; /* each worker's busy_ns at the last balance */
    uint64_t balanced_at;                  /* the host's clock then */
    unsigned balances;                     /* looks so far */
    pthread_mutex_t mu;
    pthread_cond_t cv_workers, cv_lead; /* workers wait for a release, worker 0 for reports */
    _Atomic unsigned sleepers;          /* workers asleep on cv_workers */
    _Atomic bool lead_sleeps;           /* worker 0 asleep on cv_lead */
};

/* Has `ready(x, arg)` become true within the spin budget? One pause between looks (a look more
 * often only holds up the line's writer; fewer, the waiter's reaction), the clock read once
 * per 64 looks. */
static bool spin_until(struct sim_run_ctx *x, bool (*ready)(struct sim_run_ctx *, uint64_t), uint64_t arg)
{
    if (!x->spin)
        return ready(x, arg);
    uint64_t start = 0;
    for (unsigned i = 1;; i++) {
        if (ready(x, arg))
            return true;
        cpu_relax();
        if (i % 64)
            continue;
        const uint64_t t = now_ns();
        if (!start)
            start = t;
        else if (t - start >= MEET_SPIN_NS)
            return false;
        if (t - start >= MEET_PAUSE_NS)
            sched_yield();
    }
}

static bool released(struct sim_run_ctx *x, uint64_t n)
{
    return atomic_load_explicit(&x->rel.released, memory_order_acquire) >= n;
}

/* Every other worker has reported window n - 1 */
static bool all_reported(struct sim_run_ctx *x, uint64_t n)
{
    for (unsigned j = 1; j < x->nworkers; j++)
        if (atomic_load_explicit(&x->report[j].done, memory_order_acquire) < n)
            return false;
    return true;
}

/* A worker other than 0 waits until n windows are released. */
static void wait_release(struct sim_run_ctx *x, uint64_t n)
{
    if (spin_until(x, released, n))
        return;
    pthread_mutex_lock(&x->mu);
    atomic_fetch_add(&x->sleepers, 1);
    atomic_thread_fence(memory_order_seq_cst); /* counted before looking again */
    while (!released(x, n))
        pthread_cond_wait(&x->cv_workers, &x->mu);
    atomic_fetch_sub(&x->sleepers, 1);
    pthread_mutex_unlock(&x->mu);
}

/* Worker 0 lets n windows go. */
static void release(struct sim_run_ctx *x, uint64_t n)
{
    atomic_store(&x->rel.released, n);
    atomic_thread_fence(memory_order_seq_cst); /* published before looking for sleepers */
    if (atomic_load(&x->sleepers)) {
        pthread_mutex_lock(&x->mu);
        pthread_cond_broadcast(&x->cv_workers);
        pthread_mutex_unlock(&x->mu);
    }
}

/* Worker j > 0 has finished n windows (its report is written). */
static void report_done(struct sim_run_ctx *x, unsigned j, uint64_t n)
{
    atomic_store(&x->report[j].done, n);
    atomic_thread_fence(memory_order_seq_cst); /* published before looking for a sleeper */
    if (atomic_load(&x->lead_sleeps)) {
        pthread_mutex_lock(&x->mu);
        pthread_cond_signal(&x->cv_lead);
        pthread_mutex_unlock(&x->mu);
    }
}

/* Worker 0 waits for every other worker's report of window n - 1. */
static void wait_reports(struct sim_run_ctx *x, uint64_t n)
{
    if (spin_until(x, all_reported, n))
        return;
    pthread_mutex_lock(&x->mu);
    atomic_store(&x->lead_sleeps, true);
    atomic_thread_fence(memory_order_seq_cst); /* said so before looking again */
    while (!all_reported(x, n))
        pthread_cond_wait(&x->cv_lead, &x->mu);
    atomic_store(&x->lead_sleeps, false);
    pthread_mutex_unlock(&x->mu);
}

/* Worker 0, every tile at h and every report of the window in: the totals, and the exchange
 * with the tiles it gave work, into x->rel (not yet released). */
static void meet(struct sim_run_ctx *x, uint64_t h)
{
    struct sim *s = x->s;
    unsigned left = 0;
    uint64_t next = CYCLE_NEVER;
    struct sim_exchange e = {.h = h};
    for (unsigned j = 0; j < x->nworkers; j++) {
        const struct sim_report *r = &x->report[j];
        left += r->left;
        if (r->next < next)
            next = r->next;
        e.failed |= r->failed;
        for (unsigned w = 0; w < SIM_MASK_WORDS; w++)
            e.sending[w] |= r->sending[w];
    }
    if (s->exchange) {
        const uint64_t ext = s->exchange(s->exchange_ctx, &e);
        if (ext < next)
            next = ext;
        left += ext != CYCLE_NEVER;
    }
    /* The next event of every tile the exchange gave work, again: it may have given a running
     * tile an arrival earlier than what it reported (review: a window starting after it would
     * apply it late), and a finished tile one to wake it. Every other tile's is what its
     * worker reported. */
    for (unsigned w = 0; w < SIM_MASK_WORDS; w++)
        for (uint64_t bits = e.woken[w]; bits; bits &= bits - 1) {
            const unsigned i = w * 64 + (unsigned)__builtin_ctzll(bits);
            const uint64_t t = tile_next_event(s->tile[i]);
            if (t == CYCLE_NEVER)
                continue;
            if (!x->running[i]) {
                x->running[i] = true;
                left++;
            }
            if (t < next)
                next = t;
        }
    x->rel.left = left;
    x->rel.next = next;
    x->rel.stop = e.stop;
    if (e.stop)
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

/* Runs a worker's tiles order[first, last) up to h and writes its report (but not `done`). */
static void run_window(struct sim_run_ctx *x, struct sim_report *r, unsigned first, unsigned last,
                       uint64_t h)
{
    struct sim *s = x->s;
    r->left = 0;
    r->next = CYCLE_NEVER;
    r->failed = false;
    memset(r->sending, 0, sizeof r->sending);
    for (unsigned p = first; p < last; p++) {
        const unsigned i = x->order[p];
        if (!x->running[i])
            continue;
        struct tile *t = s->tile[i];
        const bool more = tile_run_until(t, h);
        if (niu_outbox_peek(t, 0))
            r->sending[i / 64] |= 1ull << (i % 64);
        if (!more) {
            x->running[i] = false;
            r->failed |= t->err.kind != ERR_NONE;
            continue;
        }
        r->left++;
        const uint64_t e = tile_next_event(t);
        if (e < r->next)
            r->next = e;
    }
}

/* Every BALANCE_WINDOWS windows worker 0 compares the host time each worker spent since the
 * last look (its tiles; worker 0's includes the meetings) and moves one tile across a bound
 * from the busier of two neighbours to the other when the difference is more than that tile's
 * share of the busier one's time. Which worker runs a tile changes nothing a tile does (the
 * horizons do not depend on it), so the bounds may follow the host's timing; the contiguous
 * split by count was uneven: worker 0 meets and runs the exchange, and tiles differ (a
 * DRAM reader, a tile that computes while others poll). */
#define BALANCE_WINDOWS 256
#define BALANCE_SAMPLE 4

/* How many of its n tiles a worker that spent `more` should give one that spent `less`: half
 * the difference, in tiles of its average (worker 0's meetings count in its time, so it may
 * give all but one). The runs' phases change within a few hundred windows: one tile per look
 * followed too slowly. */
static unsigned tiles_to_move(uint64_t more, uint64_t less, unsigned n)
{
    if (n < 2 || !more)
        return 0;
    const uint64_t k = (more - less) * n / (2 * more);
    return k < n - 1 ? (unsigned)k : n - 1;
}

static void balance(struct sim_run_ctx *x)
{
    uint64_t d[SIM_MAX_THREADS], busy = 0;
    for (unsigned j = 0; j < x->nworkers; j++) {
        d[j] = x->report[j].busy_ns - x->balanced_ns[j];
        x->balanced_ns[j] = x->report[j].busy_ns;
        busy += d[j] * BALANCE_SAMPLE;
    }
    /* The workers together took 3 times as long as one would have alone: they do not run at
     * the same time (another program holds the cores: -j 2 then ran 5 times slower than -j 1
     * here, every meeting waiting for a worker the system had put aside), so worker 0 goes on
     * alone. For good: a run is short. Not at the first look, whose time includes starting the
     * threads; and not for less: a run's first windows take their pages (a fault costs more
     * with two threads faulting), which made the second look see up to twice one's time. */
    const uint64_t now = now_ns(), wall = now - x->balanced_at;
    x->balanced_at = now;
    if (x->balances++ && wall > 3 * busy) {
        for (unsigned j = 1; j <= x->nworkers; j++)
            x->bound[j] = x->s->ntiles;
        x->nworkers = 1;
        return;
    }
    for (unsigned j = 0; j + 1 < x->nworkers; j++) {
        const unsigned na = x->bound[j + 1] - x->bound[j], nb = x->bound[j + 2] - x->bound[j + 1];
        if (d[j] > d[j + 1])
            x->bound[j + 1] -= tiles_to_move(d[j], d[j + 1], na);
        else
            x->bound[j + 1] += tiles_to_move(d[j + 1], d[j], nb);
    }
}

static void *worker_main(void *arg)
{
    struct sim_worker *w = arg;
    struct sim_run_ctx *x = w->x;
    struct sim *s = x->s;
    /* Worker i on core i, worker 0 (the caller's thread) too, for the run only (sim_run puts
     * its binding back): left to the kernel, it could share core 1 with worker 1 until the
     * kernel moved one of them, which took the first 256 windows of matmul16 20 ms more
     * than unpinned. */
    if (x->pin && w->id < host_pin_cores(x->pin))
        host_pin_thread(x->pin, w->id);
    if (w->id)
        wait_release(x, 1); /* every worker started: nworkers and the bounds are final */
    struct sim_report *r = &x->report[w->id];
    uint64_t h = x->h, next = x->next;
    bool skipped;
    for (uint64_t k = 1;; k++) { /* window k - 1: released k, reported done k */
        h = next_horizon(x, h, next, &skipped);
        /* busy time is sampled, one window in BALANCE_SAMPLE: a clock read costs about as much
         * as a tile's window when the tiles poll */
        const bool timed = k % BALANCE_SAMPLE == 0;
        const uint64_t t0 = timed ? now_ns() : 0;
        run_window(x, r, x->bound[w->id], x->bound[w->id + 1], h);
        if (w->id) {
            if (timed)
                r->busy_ns += now_ns() - t0;
            report_done(x, w->id, k);
            wait_release(x, k + 1);
        } else {
            const uint64_t t1 = timed ? now_ns() : 0;
            wait_reports(x, k);
            const uint64_t t2 = timed ? now_ns() : 0;
            meet(x, h);
            if (timed)
                r->busy_ns += t1 - t0 + now_ns() - t2;
            s->windows++;
            s->windows_skipped += (k > 1 || x->h > 0) && skipped;
            if (x->nworkers > 1 && k % BALANCE_WINDOWS == 0)
                balance(x);
            release(x, k + 1);
        }
        next = x->rel.next;
        if (!x->rel.left || h >= x->end || x->rel.stop || w->id >= x->nworkers) {
            if (w->id == 0) {
                /* Nothing left anywhere: the whole chip is idle up to the end asked for. */
                x->h = !x->rel.left && h < x->end ? x->end : h;
                x->next = next;
            }
            return NULL;
        }
    }
}

struct sim_run_ctx *sim_begin(struct sim *s, uint64_t window)
{
    /* some KiB, once per run; aligned for its reports' cache lines */
    const size_t size = (sizeof(struct sim_run_ctx) + 63) / 64 * 64;
    struct sim_run_ctx *x = aligned_alloc(64, size);
    if (!x)
        return NULL;
    memset(x, 0, size);
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
    if (x->rel.stop)
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
    /* The meetings count windows from 1 again in every call. */
    atomic_store(&x->rel.released, 0);
    for (unsigned j = 0; j < SIM_MAX_THREADS; j++) {
        atomic_store(&x->report[j].done, 0);
        x->report[j].busy_ns = 0;
        x->balanced_ns[j] = 0;
    }
    x->balances = 0;
    x->pin = want > 1 && s->pin ? host_pin_open() : NULL;
    pthread_mutex_init(&x->mu, NULL);
    pthread_cond_init(&x->cv_workers, NULL);
    pthread_cond_init(&x->cv_lead, NULL);
    atomic_store(&x->sleepers, 0);
    atomic_store(&x->lead_sleeps, false);
    const long cpus = want > 1 ? sysconf(_SC_NPROCESSORS_ONLN) : 1; /* reads /sys: not per call */
    x->spin = cpus > 0 && want <= (unsigned long)cpus;
    unsigned started = 1; /* worker 0 is this thread */
    for (; started < want; started++) {
        w[started] = (struct sim_worker){.x = x, .id = started};
        if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]))
            break;
    }
    x->nworkers = started; /* results do not depend on it */
    for (unsigned j = 0, p = 0; j < started; j++) {
        x->bound[j] = p;
        for (unsigned i = j; i < s->ntiles; i += started)
            x->order[p++] = (uint16_t)i;
    }
    x->bound[started] = s->ntiles;
    x->balanced_at = now_ns();
    s->ran_threads = started;
    release(x, 1);
    w[0] = (struct sim_worker){.x = x, .id = 0};
    struct host_pin_saved *caller = x->pin ? host_pin_save(x->pin) : NULL;
    worker_main(&w[0]);
    host_pin_restore(x->pin, caller);
    for (unsigned i = 1; i < started; i++)
        pthread_join(w[i].thread, NULL);
    pthread_cond_destroy(&x->cv_lead);
    pthread_cond_destroy(&x->cv_workers);
    pthread_mutex_destroy(&x->mu);
    host_pin_close(x->pin);
    x->pin = NULL;
    return !x->rel.stop;
}

enum err_kind sim_end(struct sim_run_ctx *x, bool stop_running)
{
    struct sim *s = x->s;
    enum err_kind first = ERR_NONE;
    for (unsigned i = 0; i < s->ntiles; i++) {
        /* A tile still running has reached max_cycles: tile_run stops it there as it would
         * alone (cycle limit, or the end of a run whose agents all wake later). A host that is
         * done with the chip leaves idle tiles as they are: one waiting for something that never
         * came (a blocked core) is not a deadlock it has to hear about. */
        enum err_kind k;
        const bool left_waiting = stop_running && !x->rel.stop && tile_stuck(s->tile[i]);
        if ((x->running[i] || left_waiting) && (x->rel.stop || stop_running) &&
            s->tile[i]->err.kind == ERR_NONE) {
            tile_end_at(s->tile[i], x->rel.stop ? s->stopped_at : x->h);
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
