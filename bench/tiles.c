/* Memory and start-up (issue 19 item 5).
 *
 *  tiles     140 Blackhole tiles in one process, each running the example eltwise kernel on its
 *            three TRISCs (sim_run, one host thread): the peak resident set (VmHWM), which must
 *            stay under 1 GiB, and the host time. Each tile must end cleanly with the same
 *            cycles and output as the first.
 *  threads   the same 140 tiles on two host threads (sim_run's workers), interleaved with runs
 *            on one, median of 5 each: the speed-up and simulated tile-cycles per host second;
 *            every tile must end as on one thread.
 *  startup   `tensim run -q hello.elf` as a user runs it, median of 21: the whole process, from
 *            exec to exit (hello takes about 1300 cycles, a small share of it); target 10 ms.
 *  host      what two host threads can do on this machine at the moment, the bound of every
 *            speed-up above: a fixed arithmetic loop timed alone on each of the first two cores
 *            and on both at once (median of 5, interleaved). Two equal free cores give 2.00;
 *            a virtual machine whose other vCPU is busy elsewhere gives less. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pthread.h>
#include <stdatomic.h>

#ifndef BENCH_ON_BASE /* newer than the base commit (bench/speed_compare.sh) */
#include "../core/host_pin.h"
#endif
#include "../core/sim.h"
#include "../mem/elf.h"
#include "bench.h"

#define KDIR "build/kernels/"
#define NTILES 140

static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n))
            v = atol(line + n);
    if (f)
        fclose(f);
    return v;
}

/* One run of NTILES tiles on `threads` host threads: its host time, and each tile's cycles and
 * output (to compare runs). */
struct tiles_result {
    double seconds, run_seconds; /* the whole, and sim_run alone */
    uint64_t cycles[NTILES];
    uint64_t out_hash[NTILES];
    unsigned threads;
    long peak_kib;
    int bad;
};

static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int tiles_run(unsigned threads, struct tiles_result *r)
{
    static const char *const elf[3] = {KDIR "eltwise-t0.elf", KDIR "eltwise-t1.elf", KDIR "eltwise-t2.elf"};
    static struct sim s; /* SIM_MAX_TILES pointers */
#ifdef BENCH_ON_BASE /* the base commit's sim runs one host thread */
    (void)threads;
    s = (struct sim){0};
#else
    s = (struct sim){.threads = threads, .pin = true};
#endif
    double t0 = seconds();
    for (int i = 0; i < NTILES; i++) {
        struct tile *t = sim_add_tile(&s, arch_get(ARCH_BLACKHOLE));
        if (!t) {
            fprintf(stderr, "tiles: cannot create tile %d\n", i);
            return 1;
        }
        for (int c = 0; c < 3; c++)
            if (elf_run_file(t, c, elf[c], ELF_LOADER_AUTO)) {
                fprintf(stderr, "tiles: %s: %s\n", elf[c], t->err.text);
                return 1;
            }
    }
    const double t1 = seconds();
    enum err_kind e = sim_run(&s, 10000);
    r->run_seconds = seconds() - t1;
    r->seconds = seconds() - t0;
#ifdef BENCH_ON_BASE
    r->threads = 1;
#else
    r->threads = s.ran_threads;
#endif
    r->peak_kib = status_kb("VmHWM:");
    r->bad = e != ERR_NONE;
    for (unsigned i = 0; i < s.ntiles; i++) {
        r->cycles[i] = s.tile[i]->cycles;
        r->out_hash[i] = fnv(s.tile[i]->l1 + 0x40000, 8192);
        r->bad |= r->cycles[i] != r->cycles[0] || r->out_hash[i] != r->out_hash[0];
    }
    sim_destroy(&s);
    return 0;
}

/* 140 tiles on one host thread (memory), then on two (the speed-up; every tile must end as it
 * did on one). The tiles do not talk to each other yet: this is the threads' overhead and
 * balance, not the NoC's. */
static int tiles(void)
{
    static struct tiles_result one, two;
    double t1[5], t2[5];
    /* interleaved, median of 5 each: the first run also pays for the pages every later run
     * reuses, and this machine is noisy */
    for (int k = 0; k < 5; k++) {
        if (tiles_run(1, &one) || tiles_run(2, &two))
            return 1;
        t1[k] = one.run_seconds, t2[k] = two.run_seconds;
    }
    const double s1 = median(t1, 5), s2 = median(t2, 5);
    const int same = !memcmp(one.cycles, two.cycles, sizeof one.cycles) &&
                     !memcmp(one.out_hash, two.out_hash, sizeof one.out_hash);
    const double tile_cycles = (double)one.cycles[0] * NTILES;
    printf("tiles    %d tiles  %llu cycles each  %6.3f s  peak %7.1f MiB resident  (target < 1024)%s\n",
           NTILES, (unsigned long long)one.cycles[0], one.seconds, (double)one.peak_kib / 1024.0,
           one.bad ? "  BAD: a tile differs or failed" : "");
    printf("threads  %d tiles on 1 / %u host threads (sim_run alone)  %6.3f / %6.3f s  %.2f speed-up  "
           "%.1f M tile-cycles/s on 2 (on 1: %.1f)%s\n",
           NTILES, two.threads, s1, s2, s1 / s2, tile_cycles / s2 / 1e6, tile_cycles / s1 / 1e6,
           same && !two.bad ? "" : "  BAD: the runs differ");
    return one.bad | two.bad | !same;
}

static int startup(void)
{
    double t[21];
    const int n = sizeof t / sizeof t[0];
    static char *const argv[] = {"tensim", "run", "-q", KDIR "hello.elf", NULL};
    for (int i = 0; i < n; i++)
        if ((t[i] = time_tensim(argv)) < 0) {
            fprintf(stderr, "startup: tensim run -q hello.elf failed\n");
            return 1;
        }
    printf("startup  tensim run -q hello.elf, median of %d  %6.2f ms  (target < 10)\n", n, median(t, n) * 1e3);
    return 0;
}

#ifndef BENCH_ON_BASE /* the base commit has no chip */
/* The chip's cycles from a --stats file: its first "cycles" member (the top level's). */
static unsigned long long stats_cycles(const char *path)
{
    FILE *f = fopen(path, "r");
    char buf[4096];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    const char *c = strstr(buf, "\"cycles\": ");
    return c ? strtoull(c + 10, NULL, 10) : 0;
}

/* A chip example (build/kernels/chip/<name>/run.json, docs/sdk.md) as a user runs it, on 1 and
 * on 2 host threads, interleaved, median of 5 each: the whole process's time, the speed-up and
 * simulated tile-cycles per host second. Then its start-up alone, the same way: the same run
 * stopped at cycle 1 (--max-cycles 1: the chip built and loaded, the threads started and
 * pinned, the report of the stopped tiles, the exit), and the speed-up of what is left, the
 * simulation. Only the timed runs' output is thrown away; the cycles come from one more run
 * with --stats, so both timed runs do the same work. `chip   ` rows. */
static int chip(const char *name, unsigned ntiles)
{
    char desc[256], stats[] = "/tmp/tensim-bench-chip.json";
    snprintf(desc, sizeof desc, KDIR "chip/%s/run.json", name);
    char *const one[] = {"tensim", "run", "-q", "--run", desc, "-j", "1", NULL};
    char *const two[] = {"tensim", "run", "-q", "--run", desc, "-j", "2", NULL};
    char *const one0[] = {"tensim", "run", "-q", "--run", desc, "-j", "1", "--max-cycles", "1", NULL};
    char *const two0[] = {"tensim", "run", "-q", "--run", desc, "-j", "2", "--max-cycles", "1", NULL};
    char *const counted[] = {"tensim", "run", "-q", "--run", desc, "-j", "1", "--stats", stats, NULL};
    enum { CYCLE_LIMIT = 107 }; /* tensim help exit-status */
    double t1[5], t2[5], s1[5], s2[5];
    for (int k = 0; k < 5; k++)
        if ((t1[k] = time_tensim(one)) < 0 || (t2[k] = time_tensim(two)) < 0 ||
            (s1[k] = time_tensim_status(one0, CYCLE_LIMIT)) < 0 ||
            (s2[k] = time_tensim_status(two0, CYCLE_LIMIT)) < 0) {
            fprintf(stderr, "chip: tensim run --run %s failed\n", desc);
            return 1;
        }
    if (time_tensim(counted) < 0) {
        fprintf(stderr, "chip: tensim run --run %s --stats failed\n", desc);
        return 1;
    }
    const unsigned long long cycles = stats_cycles(stats);
    remove(stats);
    const double m1 = median(t1, 5), m2 = median(t2, 5), u1 = median(s1, 5), u2 = median(s2, 5);
    const double tc = (double)cycles * ntiles;
    printf("chip     %s: %u tiles, %llu cycles, on 1 / 2 host threads  %6.3f / %6.3f s  %.2f speed-up "
           "(target >= 1.7 on the 16-tile matmul)  %.1f M tile-cycles/s on 2 (on 1: %.1f)\n",
           name, ntiles, cycles, m1, m2, m1 / m2, tc / m2 / 1e6, tc / m1 / 1e6);
    printf("chip     %s: start-up (--max-cycles 1) %5.1f / %5.1f ms; the simulation alone %6.3f / "
           "%6.3f s, %.2f speed-up; about %.1f us of work per 10-cycle window on 1 (at most %llu "
           "windows)\n", name, u1 * 1e3, u2 * 1e3, m1 - u1, m2 - u2, (m1 - u1) / (m2 - u2),
           (m1 - u1) / (double)(cycles / 10) * 1e6, cycles / 10);
    return 0;
}
#endif

#ifndef BENCH_ON_BASE
/* The fixed loop of `host`: xorshift steps, in registers (no memory traffic), about 100 ms. */
struct spin {
    struct host_pin *pin;
    unsigned core;
    double seconds;
    uint64_t out;
};

static void *spin_run(void *arg)
{
    struct spin *s = arg;
    host_pin_thread(s->pin, s->core);
    const double t0 = seconds();
    uint64_t x = 88172645463325252ull;
    for (long i = 0; i < 40000000L; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    s->seconds = seconds() - t0;
    s->out = x;
    return NULL;
}

/* The ping-pong of `host`: worker 1 on core 1 answers each number worker 0 (core 0) posts, as
 * sim_run's workers meet (a report one way, a release the other). */
#define PINGS 100000
struct pong {
    struct host_pin *pin;
    _Alignas(64) _Atomic unsigned long ping;
    _Alignas(64) _Atomic unsigned long pong;
};

static void *pong_run(void *arg)
{
    struct pong *p = arg;
    host_pin_thread(p->pin, 1);
    for (unsigned long i = 1; i <= PINGS; i++) {
        while (atomic_load_explicit(&p->ping, memory_order_acquire) != i)
            ;
        atomic_store_explicit(&p->pong, i, memory_order_release);
    }
    return NULL;
}

/* Nanoseconds per round trip between cores 0 and 1 (0 if a thread cannot start). */
static double round_trip_ns(struct host_pin *pin)
{
    static struct pong p;
    p.pin = pin;
    atomic_store(&p.ping, 0);
    atomic_store(&p.pong, 0);
    struct host_pin_saved *saved = host_pin_save(pin);
    host_pin_thread(pin, 0);
    pthread_t th;
    if (pthread_create(&th, NULL, pong_run, &p)) {
        host_pin_restore(pin, saved);
        return 0;
    }
    const double t0 = seconds();
    for (unsigned long i = 1; i <= PINGS; i++) {
        atomic_store_explicit(&p.ping, i, memory_order_release);
        while (atomic_load_explicit(&p.pong, memory_order_acquire) != i)
            ;
    }
    const double dt = seconds() - t0;
    pthread_join(th, NULL);
    host_pin_restore(pin, saved);
    return dt / PINGS * 1e9;
}

/* The loop on cores 0 and 1 alone, then on both at once, and the round trip; `host` row. */
static int host(void)
{
    struct host_pin *pin = host_pin_open();
    if (host_pin_cores(pin) < 2) {
        printf("host     fewer than two physical cores (or hwloc cannot tell): no two-thread bound\n");
        host_pin_close(pin);
        return 0;
    }
    double alone[2][5], both[2][5];
    for (int k = 0; k < 5; k++) {
        for (unsigned c = 0; c < 2; c++) {
            struct spin s = {pin, c, 0, 0};
            pthread_t th;
            if (pthread_create(&th, NULL, spin_run, &s))
                return 1;
            pthread_join(th, NULL);
            alone[c][k] = s.seconds;
        }
        struct spin s[2] = {{pin, 0, 0, 0}, {pin, 1, 0, 0}};
        pthread_t th[2];
        for (unsigned c = 0; c < 2; c++)
            if (pthread_create(&th[c], NULL, spin_run, &s[c]))
                return 1;
        for (unsigned c = 0; c < 2; c++) {
            pthread_join(th[c], NULL);
            both[c][k] = s[c].seconds;
        }
    }
    double trip[5];
    for (int k = 0; k < 5; k++)
        trip[k] = round_trip_ns(pin);
    host_pin_close(pin);
    const double a0 = median(alone[0], 5), a1 = median(alone[1], 5);
    const double b0 = median(both[0], 5), b1 = median(both[1], 5);
    /* work per second of both together, over the faster core's alone: the most any split of
     * work between two threads gains over one thread on the better core */
    const double bound = (1 / b0 + 1 / b1) / (1 / (a0 < a1 ? a0 : a1));
    printf("host     a fixed loop on core 0 / core 1: alone %5.1f / %5.1f ms, both at once %5.1f / %5.1f ms: "
           "two threads do at most %.2f times the work of one (2.00 on two equal free cores)\n",
           a0 * 1e3, a1 * 1e3, b0 * 1e3, b1 * 1e3, bound);
    /* A meeting of two workers is at least one round trip between their cores: with W of
     * work per window on one thread, two do at best W / (W / 2 + trip). */
    printf("host     a round trip between core 0 and core 1 (an atomic each way, median of 5 x %d): %.0f ns; "
           "a speed-up of 1.7 at 2 threads needs at least %.1f us of work per window\n",
           PINGS, median(trip, 5), 1.7 * median(trip, 5) / (1 - 1.7 / 2) / 1e3);
    return 0;
}
#endif

int main(void)
{
#ifdef BENCH_ON_BASE /* the base commit has no chip and one host thread: its rows only */
    return tiles() | startup();
#else
    int bad = host() | tiles() | startup() | chip("matmul16", 16);
    if (access(KDIR "chip/mmfpu/run.json", R_OK) == 0)
        bad |= chip("mmfpu", 16);
    return bad;
#endif
}
