/* Run-ahead (riscv/core.h "Run-ahead", docs/architecture.md): a core that runs on past the
 * others while it touches only its own state gives exactly the cycles, statistics, registers and
 * memory of lockstep, also when another agent acts on it at a cycle it has already passed (a
 * soft reset, a read of its local data RAM through the slow path, an error that ends the run). */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define LOCAL 0xFFB00000u      /* the core's own local data RAM */
#define T0_SLOW 0xFFB18000u    /* TRISC0's local data RAM through the shared slow path (BH) */
#define SOFT_RESET 0xFFB121B0u /* SOFT_RESET_0; TRISC0 is bit 12 */
#define RESULT 0x30000u

/* A busy loop on the core's own state: ALU, multiply, divide, branches and its local RAM
 * (a counter stored and loaded back each time round), `n` times; then exit(sum & 0x3F). */
static void busy_loop(struct tile *t, uint32_t base, uint32_t n)
{
    struct prog p = prog_at(t, base);
    emit_li(&p, 5, n);
    emit_li(&p, 6, LOCAL);
    emit_li(&p, 10, 7);
    uint32_t top = p.pc;
    E(&p, MUL, 11, 10, 5, 0);
    E(&p, ADD, 10, 10, 11, 0);
    E(&p, ANDI, 12, 5, 0, 7);
    E(&p, BNE, 0, 12, 0, 8); /* every eighth time: a divide */
    E(&p, DIVU, 10, 10, 5, 0);
    E(&p, LW, 13, 6, 0, 0);
    E(&p, ADD, 13, 13, 10, 0);
    E(&p, SW, 0, 6, 13, 0);
    E(&p, ADDI, 5, 5, 0, -1);
    E(&p, BNE, 0, 5, 0, (int32_t)(top - p.pc));
    E(&p, ANDI, 10, 13, 0, 0x3F);
    emit_exit(&p);
}

/* BRISC counts down `delay` times round a loop, then does `what` and exits with 0. */
enum act { ACT_RESET_T0, ACT_READ_T0, ACT_EBREAK, ACT_NONE };
static void brisc(struct tile *t, uint32_t delay, enum act what)
{
    struct prog p = prog_at(t, 0x16000);
    emit_li(&p, 5, delay);
    uint32_t top = p.pc;
    E(&p, ADDI, 5, 5, 0, -1);
    E(&p, BNE, 0, 5, 0, (int32_t)(top - p.pc));
    switch (what) {
    case ACT_RESET_T0: /* SOFT_RESET_0 |= TRISC0's bit */
        emit_li(&p, 6, SOFT_RESET);
        E(&p, LW, 7, 6, 0, 0);
        emit_li(&p, 8, 1u << 12);
        E(&p, OR, 7, 7, 8, 0);
        E(&p, SW, 0, 6, 7, 0);
        break;
    case ACT_READ_T0: /* L1[RESULT] = TRISC0's local counter, read through the slow path */
        emit_li(&p, 6, T0_SLOW);
        E(&p, LW, 7, 6, 0, 0);
        emit_li(&p, 8, RESULT);
        E(&p, SW, 0, 8, 7, 0);
        break;
    case ACT_EBREAK:
        E(&p, EBREAK, 0, 0, 0, 0);
        break;
    case ACT_NONE:
        break;
    }
    emit_li(&p, 10, 0);
    emit_exit(&p);
    tile_start_core(t, CORE_BRISC, 0x16000);
}

struct outcome {
    enum err_kind err;
    uint64_t cycles, err_cycle, rewinds, skips;
    struct core_end core[NUM_CORES];
    uint8_t local[NUM_CORES][LOCAL_RAM_MAX];
    uint32_t result;
};

/* What a run ended with, for comparison; the tile is destroyed. */
static void capture(struct outcome *o, struct tile *t, enum err_kind err)
{
    o->err = err;
    o->cycles = t->cycles;
    o->err_cycle = t->err.cycle;
    o->rewinds = t->rewinds;
    o->skips = t->poll_skips;
    for (int k = 0; k < NUM_CORES; k++) {
        core_end_of(&o->core[k], t, k);
        memcpy(o->local[k], t->local_ram[k], sizeof o->local[k]);
    }
    o->result = le_get(t->l1 + RESULT, 4);
    tile_destroy(t);
}

static void run(struct outcome *o, enum arch_id arch, bool lockstep, const uint32_t loops[NUM_THREADS],
                uint32_t delay, enum act what)
{
    struct tile *t = test_tile(arch);
    t->lockstep = lockstep;
    static const uint32_t base[NUM_THREADS] = {0x6000, 0xA000, 0xE000};
    for (int k = 0; k < NUM_THREADS; k++)
        if (loops[k]) {
            busy_loop(t, base[k], loops[k]);
            tile_start_core(t, k, base[k]);
        }
    if (what != ACT_NONE || delay)
        brisc(t, delay, what);
    memset(o, 0, sizeof *o);
    capture(o, t, tile_run(t, 50000000));
}

/* Lockstep and run-ahead agree on everything; run-ahead brought a core back `rewound` (true:
 * at least once, false: never). */
static void same(const char *what, enum arch_id arch, const uint32_t loops[NUM_THREADS], uint32_t delay,
                 enum act act, enum err_kind want, bool rewound)
{
    static struct outcome a, b;
    run(&a, arch, true, loops, delay, act);
    run(&b, arch, false, loops, delay, act);
    cr_expect_eq(a.err, want, "%s: lockstep ended with %s", what, err_kind_text(a.err));
    cr_expect_eq(a.rewinds, 0, "%s", what);
    cr_expect_eq(b.rewinds > 0, rewound, "%s: %llu rewinds", what, (unsigned long long)b.rewinds);
    cr_expect_eq(a.err, b.err, "%s", what);
    cr_expect_eq(a.cycles, b.cycles, "%s: %llu cycles in lockstep, %llu running ahead", what,
                 (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    cr_expect_eq(a.err_cycle, b.err_cycle, "%s", what);
    cr_expect_eq(a.result, b.result, "%s: read 0x%x in lockstep, 0x%x running ahead", what, a.result, b.result);
    for (int k = 0; k < NUM_CORES; k++) {
        cr_expect_eq(a.core[k].st.instret, b.core[k].st.instret, "%s: %s instret %llu / %llu", what,
                     core_name(k), (unsigned long long)a.core[k].st.instret,
                     (unsigned long long)b.core[k].st.instret);
        cr_expect_eq(a.core[k].st.active, b.core[k].st.active, "%s: %s active", what, core_name(k));
        cr_expect(!memcmp(&a.core[k], &b.core[k], sizeof a.core[k]), "%s: %s differs", what, core_name(k));
        cr_expect(!memcmp(a.local[k], b.local[k], sizeof a.local[k]), "%s: %s local RAM differs", what,
                  core_name(k));
    }
}

static const uint32_t three[NUM_THREADS] = {3000, 2500, 4000};
static const uint32_t one[NUM_THREADS] = {20000, 0, 0};

Test(runahead, three_busy_cores_as_in_lockstep)
{
    same("BH three loops", ARCH_BLACKHOLE, three, 0, ACT_NONE, ERR_NONE, false);
    same("WH three loops", ARCH_WORMHOLE, three, 0, ACT_NONE, ERR_NONE, false);
    /* and with BRISC busy too, exiting in the middle */
    same("BH three loops, BRISC", ARCH_BLACKHOLE, three, 5000, ACT_NONE, ERR_NONE, false);
}

/* BRISC puts TRISC0 into reset in the middle of its loop: TRISC0 stops where lockstep has it,
 * although it had run on far past that cycle. */
Test(runahead, soft_reset_of_a_core_that_ran_ahead)
{
    same("BH reset", ARCH_BLACKHOLE, one, 4000, ACT_RESET_T0, ERR_NONE, true);
    same("WH reset", ARCH_WORMHOLE, one, 4000, ACT_RESET_T0, ERR_NONE, true);
}

/* BRISC reads TRISC0's local RAM through the slow path: it sees the counter as it stands in that
 * cycle in lockstep, not as TRISC0 left it further on. */
Test(runahead, slow_path_read_of_local_ram_written_ahead)
{
    static struct outcome a;
    run(&a, ARCH_BLACKHOLE, true, one, 4000, ACT_READ_T0);
    cr_expect_neq(a.result, 0, "the counter had been stored before BRISC read it");
    cr_expect_neq(a.result, le_get(a.local[0], 4), "TRISC0 stored it again after the read");
    same("BH slow read", ARCH_BLACKHOLE, one, 4000, ACT_READ_T0, ERR_NONE, true);
}

/* BRISC's ebreak ends the run: every core's counters stop where lockstep has them. */
Test(runahead, error_in_another_core_ends_the_run_where_lockstep_does)
{
    same("BH ebreak", ARCH_BLACKHOLE, three, 4000, ACT_EBREAK, ERR_BREAKPOINT, true);
    same("WH ebreak", ARCH_WORMHOLE, three, 4000, ACT_EBREAK, ERR_BREAKPOINT, true);
}

/* ---- the example kernels through the CLI: --lockstep gives the same stats and L1 ---- */

#define K "build/kernels/"

/* `args` run twice, with and without --lockstep, writing --stats and L1 (--dump; the smaller, Wormhole's, size):
 * both files the same byte for byte. */
static void same_cli(const char *tag, const char *what, const char *args)
{
    static char out[8192];
    static const char *const mode[2] = {"--lockstep", ""};
    char *stats[2], *l1[2];
    size_t n_stats[2], n_l1[2];
    int status[2];
    for (int m = 0; m < 2; m++) {
        char js[64], bin[64]; /* tests run at once: each its own tag */
        snprintf(js, sizeof js, "/tmp/tensim-ra-%s.json", tag); /* the stats name it */
        snprintf(bin, sizeof bin, "/tmp/tensim-ra-%s.l1", tag);
        status[m] = run_tensimf(out, sizeof out, "run -q %s --stats=%s --dump=0:0x16E000:%s %s", mode[m], js,
                                bin, args);
        stats[m] = read_whole_file(js, &n_stats[m]);
        l1[m] = read_whole_file(bin, &n_l1[m]);
        unlink(js);
        unlink(bin);
    }
    cr_expect_eq(status[0], status[1], "%s: exit status %d in lockstep, %d running ahead", what, status[0], status[1]);
    cr_expect(n_stats[0] == n_stats[1] && !memcmp(stats[0], stats[1], n_stats[0]), "%s: the stats differ", what);
    cr_expect(n_l1[0] == 0x16E000 && n_l1[0] == n_l1[1] && !memcmp(l1[0], l1[1], n_l1[0]), "%s: L1 differs", what);
    for (int m = 0; m < 2; m++)
        free(stats[m]), free(l1[m]);
}

Test(runahead, example_kernels_as_in_lockstep, .timeout = 300)
{
    static const char *const arch[] = {"blackhole", "wormhole"};
    for (int a = 0; a < 2; a++)
        for (unsigned i = 0; i <= example_count; i++) { /* and the perf-counters guest */
            const char *name = i < example_count ? examples[i][0] : "perf-counters";
            char args[1024], what[128];
            snprintf(args, sizeof args, "--max-cycles=2000000 --arch=%s %s", arch[a],
                     i < example_count ? examples[i][1] : K "perf-counters.elf");
            snprintf(what, sizeof what, "%s on %s", name, arch[a]);
            same_cli("ex", what, args);
        }
    /* tt-llk's shape: BRISC boots the TRISCs, which poll its mailboxes (test/llk) */
    same_cli("ex", "llk boot", "--run=test/llk/boot.json");
}

/* The vector-unit examples on three tiles of input, as test/test_trace.c runs them. */
Test(runahead, sfpu_kernels_as_in_lockstep, .timeout = 300)
{
    sfpu_example_inputs("/tmp/tensim-ra.in", "/tmp/tensim-ra.param");
    static const char *const kernels[] = {"exp", "gelu", "sort", "where", "aexp"};
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
            char args[1024], what[128];
            snprintf(args, sizeof args,
                     "--max-cycles=2000000 --arch=%s --load /tmp/tensim-ra.in@0x30000 --load /tmp/tensim-ra.param@0x3F000 "
                     "--trisc0 " K "sfpu-unpack.elf --trisc1 " K "sfpu-%s.elf --trisc2 " K "sfpu-pack.elf",
                     a ? "wormhole" : "blackhole", kernels[i]);
            snprintf(what, sizeof what, "sfpu-%s on %s", kernels[i], a ? "wormhole" : "blackhole");
            same_cli("sfpu", what, args);
        }
    unlink("/tmp/tensim-ra.in");
    unlink("/tmp/tensim-ra.param");
}

/* ---- sleeping pollers (riscv/poll_sleep.h) ---- */

#define SEM3 0xFFE8002Cu /* semaphore 3, the RISC-V view (WH:SyncUnit.md) */
#define FLAG 0x31000u    /* an L1 word */

/* `core` polls the word at `addr` until it is not zero and exits with it. */
static void poller(struct tile *t, int core, uint32_t base, uint32_t addr)
{
    struct prog p = prog_at(t, base);
    emit_li(&p, 5, addr);
    uint32_t top = p.pc;
    E(&p, LW, 6, 5, 0, 0);
    E(&p, BEQ, 0, 6, 0, (int32_t)(top - p.pc));
    E(&p, ADDI, 10, 6, 0, 0);
    emit_exit(&p);
    tile_start_core(t, core, base);
}

/* TRISC2 divides `n` times (33 cycles each), then posts semaphore 3 (a store of 0) or stores 1
 * at FLAG, and exits with 0. */
static void divider(struct tile *t, uint32_t n, bool sem)
{
    struct prog p = prog_at(t, 0xE000);
    emit_li(&p, 5, n);
    emit_li(&p, 7, 0xFFFFFFFFu);
    emit_li(&p, 8, 3);
    uint32_t top = p.pc;
    E(&p, DIVU, 9, 7, 8, 0);
    E(&p, ADDI, 5, 5, 0, -1);
    E(&p, BNE, 0, 5, 0, (int32_t)(top - p.pc));
    emit_li(&p, 6, sem ? SEM3 : FLAG);
    emit_li(&p, 7, sem ? 0 : 1);
    E(&p, SW, 0, 6, 7, 0);
    emit_li(&p, 10, 0);
    emit_exit(&p);
    tile_start_core(t, CORE_TRISC2, 0xE000);
}

static void same_built(const char *what, enum arch_id arch, void (*build)(struct tile *), bool skips,
                       bool rewinds);

/* Two waiters, on semaphore 3 or FLAG, and the divider that sets it after 300 divisions. */
static void pollers_sem(struct tile *t)
{
    poller(t, CORE_TRISC0, 0x6000, SEM3);
    poller(t, CORE_TRISC1, 0xA000, SEM3);
    divider(t, 300, true);
}
static void pollers_flag(struct tile *t)
{
    poller(t, CORE_TRISC0, 0x6000, FLAG);
    poller(t, CORE_TRISC1, 0xA000, FLAG);
    divider(t, 300, false);
}

/* Two TRISCs wait on a semaphore the third posts after 300 divisions: they sleep through each
 * division (rounds skipped), and wake where lockstep has them see the post. */
Test(runahead, pollers_sleep_until_the_post)
{
    same_built("BH semaphore", ARCH_BLACKHOLE, pollers_sem, true, false);
    same_built("WH semaphore", ARCH_WORMHOLE, pollers_sem, true, false);
    /* an L1 flag: each round loads from L1 through its port (the L0 is off by default,
     * core/timing.def rv.l0d_lines) */
    same_built("WH L1 flag", ARCH_WORMHOLE, pollers_flag, true, false);
    same_built("BH L1 flag", ARCH_BLACKHOLE, pollers_flag, true, false);
}

/* ---- scenarios built by a function, both modes compared ---- */

static void run_built(struct outcome *o, enum arch_id arch, bool lockstep, void (*build)(struct tile *))
{
    struct tile *t = test_tile(arch);
    t->lockstep = lockstep;
    build(t);
    memset(o, 0, sizeof *o);
    capture(o, t, tile_run(t, 5000000));
}

static void same_built(const char *what, enum arch_id arch, void (*build)(struct tile *), bool skips,
                       bool rewinds)
{
    static struct outcome a, b;
    run_built(&a, arch, true, build);
    run_built(&b, arch, false, build);
    cr_expect_eq(a.err, ERR_NONE, "%s: %s", what, err_kind_text(a.err));
    cr_expect_eq(a.skips + a.rewinds, 0, "%s: lockstep skipped rounds or brought a core back", what);
    cr_expect_eq(b.skips > 0, skips, "%s: %llu rounds skipped", what, (unsigned long long)b.skips);
    cr_expect_eq(b.rewinds > 0, rewinds, "%s: %llu rewinds", what, (unsigned long long)b.rewinds);
    cr_expect_eq(a.cycles, b.cycles, "%s: %llu cycles in lockstep, %llu running ahead", what,
                 (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    for (int k = 0; k < NUM_CORES; k++)
        cr_expect(!memcmp(&a.core[k], &b.core[k], sizeof a.core[k]), "%s: %s differs (halt %llu / %llu)",
                  what, core_name(k), (unsigned long long)a.core[k].halt, (unsigned long long)b.core[k].halt);
}

/* A chain of waits: TRISC2 posts semaphore 3 after 50 divisions; TRISC0 waits on it in long
 * rounds (a division each) and then sets FLAG; TRISC1 waits on FLAG in short rounds. When the
 * post lands, TRISC0 is still marked as repeating until its next round sees the post: TRISC1
 * must not take it as one that cannot act (it is about to write FLAG). */
static void chain(struct tile *t)
{
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, SEM3);
    emit_li(&p, 7, 0xFFFFFFFFu);
    emit_li(&p, 8, 3);
    uint32_t top = p.pc;
    E(&p, LW, 6, 5, 0, 0);
    E(&p, DIVU, 9, 7, 8, 0);
    E(&p, BEQ, 0, 6, 0, (int32_t)(top - p.pc));
    emit_li(&p, 11, FLAG);
    emit_li(&p, 12, 1);
    E(&p, SW, 0, 11, 12, 0);
    emit_li(&p, 10, 0);
    emit_exit(&p);
    tile_start_core(t, CORE_TRISC0, 0x6000);
    poller(t, CORE_TRISC1, 0xA000, FLAG);
    divider(t, 50, true);
}

/* TRISC0 waits on BRISC's local RAM through the slow path; BRISC stores there (its fast path)
 * after a delay, then runs on alone: each slow-path read brings BRISC back to TRISC0's cycle,
 * and TRISC0 must then wait for it there, not where BRISC had run to. */
static void slow_wait(struct tile *t)
{
    poller(t, CORE_TRISC0, 0x6000, 0xFFB14000u);
    struct prog p = prog_at(t, 0x16000);
    emit_li(&p, 5, 300);
    uint32_t top = p.pc;
    E(&p, ADDI, 5, 5, 0, -1);
    E(&p, BNE, 0, 5, 0, (int32_t)(top - p.pc));
    emit_li(&p, 6, LOCAL);
    emit_li(&p, 7, 1);
    E(&p, SW, 0, 6, 7, 0);
    emit_li(&p, 5, 3000);
    top = p.pc;
    E(&p, ADDI, 5, 5, 0, -1);
    E(&p, BNE, 0, 5, 0, (int32_t)(top - p.pc));
    emit_li(&p, 10, 0);
    emit_exit(&p);
    tile_start_core(t, CORE_BRISC, 0x16000);
}

Test(runahead, a_waiter_that_is_about_to_write_still_bounds_the_others)
{
    same_built("BH chain", ARCH_BLACKHOLE, chain, true, false);
    same_built("WH chain", ARCH_WORMHOLE, chain, true, false);
}

Test(runahead, a_core_read_through_the_slow_path_bounds_its_reader_where_it_is_brought_back)
{
    same_built("BH slow-path wait", ARCH_BLACKHOLE, slow_wait, false, true);
}
