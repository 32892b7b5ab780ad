/* Whole kernels, the examples and tt-llk's own test kernels (run descriptions, below):
 * simulated cycles per host second (issue 19 item 4), and, when a ttsim library is named
 * (`--ttsim PATH` or TTSIM=PATH, a Blackhole libttsim.so built from tenstorrent/ttsim; never
 * shipped or required), the same kernels on ttsim in the same run and the ratio of host times.
 *
 * For the examples: ttsim counts no cycles and the kernels' exit (ecall 93) is tensim's own host
 * call, so the end of a ttsim run is taken as the moment its L1 output region equals the one
 * tensim left: it is clocked in steps of TT_STEP and the region read after each step (and the
 * exit ecall, which ttsim refuses, spins instead: load_elf). ttsim keeps one chip in process-wide
 * state and ends the process on errors, so each run on it is a child of its own (as
 * test/diff/ttsim.c does; the host reaches the tile through the PCIe BAR0 TLB window,
 * docs/numerics.md "Checking against ttsim"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/host.h"
#include "../core/run_desc.h"
#include "../mem/elf.h"
#include "bench.h"

#define KDIR "build/kernels/"
#define OUT_MAX 16384u

struct kernel {
    const char *name;
    const char *elf[3];     /* TRISC0..2 */
    uint32_t out, out_len;  /* the region that holds its result */
};

static const struct kernel kernels[] = {
    {"eltwise", {KDIR "eltwise-t0.elf", KDIR "eltwise-t1.elf", KDIR "eltwise-t2.elf"}, 0x40000, 8192},
    {"matmul", {KDIR "matmul-t0.elf", KDIR "matmul-t1.elf", KDIR "matmul-t2.elf"}, 0x40000, 16384},
};

/* ---- tensim ---- */

struct tensim_result {
    uint64_t cycles;
    double seconds;
    uint8_t out[OUT_MAX];
};

static int run_tensim(const struct kernel *k, struct tensim_result *r)
{
    double t0 = seconds();
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
#ifndef BENCH_ON_BASE /* a field the base commit lacks (bench/speed_compare.sh) */
    t->lockstep = getenv("SPEED_LOCKSTEP") != NULL; /* run-ahead off, for comparison */
#endif
    for (int c = 0; c < 3; c++)
        if (elf_run_file(t, c, k->elf[c], ELF_LOADER_AUTO)) {
            fprintf(stderr, "kernel_speed: %s: %s\n", k->elf[c], t->err.text);
            tile_destroy(t);
            return -1;
        }
    tile_run(t, 0);
    r->seconds = seconds() - t0;
    r->cycles = t->cycles;
    memcpy(r->out, t->l1 + k->out, k->out_len);
    int bad = t->err.kind != ERR_NONE;
    tile_destroy(t);
    return bad ? -1 : 0;
}

/* ---- ttsim, in a child ---- */

#define PCI_ID_BH 0xB1401E52u
#define TLB_CFG 0x1FC00000u
#define SOFT_RESET_0 0xFFB121B0u
#define ALL_IN_RESET 0x47800u   /* BRISC 11, TRISC0..2 12..14, NCRISC 18 */
#define TRISCS 0x7000u
#define TT_STEP 2000u

struct ttsim_shared {
    int ok;
    uint64_t clocks;
    double t0, seconds; /* the child's start; its time from libttsim_init to the run's end */
    double setup;       /* of which, before the first clock (init, loading) */
    char why[300];
};

/* The run has ended, as the body decided: its time stops here, before any read-back. */
static void ttsim_done(struct ttsim_shared *s)
{
    s->seconds = seconds() - s->t0;
    s->ok = 1;
}

struct chip {
    void (*init)(void);
    void (*clock)(uint32_t n);
    uint32_t (*cfg_rd32)(uint32_t bdf, uint32_t off);
    void (*rd)(uint64_t paddr, void *dst, uint32_t size);
    void (*wr)(uint64_t paddr, const void *src, uint32_t size);
    uint64_t bar0, cur;
};

/* Blackhole: TLB 0 maps 2 MiB of tile (1, 2) at BAR0; three 32-bit configuration words. */
static void xfer(struct chip *c, uint64_t addr, void *buf, uint32_t n, bool write)
{
    uint8_t *p = buf;
    while (n) {
        uint64_t base = addr & ~((1ull << 21) - 1), off = addr - base;
        uint32_t k = (uint32_t)((1ull << 21) - off < n ? (1ull << 21) - off : n);
        if (c->cur != base) {
            uint32_t w[3] = {(uint32_t)(base >> 21), 1u << 11 | 2u << 17, 0};
            for (unsigned i = 0; i < 3; i++)
                c->wr(c->bar0 + TLB_CFG + 4 * i, &w[i], 4);
            c->cur = base;
        }
        if (write)
            c->wr(c->bar0 + off, p, k);
        else
            c->rd(c->bar0 + off, p, k);
        addr += k, p += k, n -= k;
    }
}

static void wr32(struct chip *c, uint64_t a, uint32_t v) { xfer(c, a, &v, 4, true); }

static uint32_t rd32(struct chip *c, uint64_t a)
{
    uint32_t v;
    xfer(c, a, &v, 4, false);
    return v;
}

static int load_elf(struct chip *c, const char *path, char *why, size_t n)
{
    static uint8_t buf[1 << 20], zero[4096];
    FILE *f = fopen(path, "rb");
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    const Elf32_Ehdr *eh = (const Elf32_Ehdr *)buf;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf32_Phdr) > len) {
        snprintf(why, n, "%s: not an ELF", path);
        return -1;
    }
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf32_Phdr *ph = (const Elf32_Phdr *)(buf + eh->e_phoff) + i;
        if (ph->p_type != PT_LOAD || !ph->p_memsz)
            continue;
        if (ph->p_offset + (uint64_t)ph->p_filesz > len || ph->p_paddr + (uint64_t)ph->p_memsz > 0x180000) {
            snprintf(why, n, "%s: a segment outside L1 (the local RAMs are not loaded here)", path);
            return -1;
        }
        /* ttsim allows host calls (ecall) on no core but the first, and only when asked to; the
         * kernels' one ecall ends them (exit), where ttsim's run is ended by its output
         * instead (above): each ecall in code becomes a jump to itself. tensim runs the ELF as
         * it is. */
        if (ph->p_flags & PF_X)
            for (uint32_t o = 0; o + 4 <= ph->p_filesz; o += 4)
                if (!memcmp(buf + ph->p_offset + o, "\x73\0\0\0", 4))
                    memcpy(buf + ph->p_offset + o, "\x6f\0\0\0", 4);
        xfer(c, ph->p_paddr, buf + ph->p_offset, ph->p_filesz, true);
        for (uint32_t a = ph->p_filesz; a < ph->p_memsz; a += sizeof zero) {
            uint32_t k = ph->p_memsz - a < sizeof zero ? ph->p_memsz - a : (uint32_t)sizeof zero;
            xfer(c, ph->p_paddr + a, zero, k, true);
        }
    }
    return 0;
}

/* Open the library, start its chip and find BAR0. Returns 0, or 2 with the reason in s->why. */
static int open_chip(const char *lib, struct chip *c, struct ttsim_shared *s)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(s->why, sizeof s->why, "cannot load %s: %s", lib, dlerror());
        return 2;
    }
    *c = (struct chip){.cur = ~0ull};
    *(void **)&c->init = dlsym(h, "libttsim_init");
    *(void **)&c->clock = dlsym(h, "libttsim_clock");
    *(void **)&c->cfg_rd32 = dlsym(h, "libttsim_pci_config_rd32");
    *(void **)&c->rd = dlsym(h, "libttsim_pci_mem_rd_bytes");
    *(void **)&c->wr = dlsym(h, "libttsim_pci_mem_wr_bytes");
    if (!c->init || !c->clock || !c->cfg_rd32 || !c->rd || !c->wr) {
        snprintf(s->why, sizeof s->why, "%s lacks the libttsim_* calls", lib);
        return 2;
    }
    c->init();
    if (c->cfg_rd32(0, 0) != PCI_ID_BH) {
        snprintf(s->why, sizeof s->why, "%s is not a Blackhole library", lib);
        return 2;
    }
    c->bar0 = (uint64_t)c->cfg_rd32(0, 0x14) << 32 | (c->cfg_rd32(0, 0x10) & ~0xFu);
    return 0;
}

/* An example kernel: its ELFs loaded, the TRISCs released, clocked until its output region
 * equals the one tensim left. */
struct example_job {
    const struct kernel *k;
    const uint8_t *want;
    uint64_t max_clocks;
};

static int example_child(struct chip *c, const void *arg, struct ttsim_shared *s)
{
    const struct example_job *j = arg;
    const struct kernel *k = j->k;
    wr32(c, SOFT_RESET_0, ALL_IN_RESET);
    for (int i = 0; i < 3; i++)
        if (load_elf(c, k->elf[i], s->why, sizeof s->why))
            return 2;
    wr32(c, SOFT_RESET_0, ALL_IN_RESET & ~TRISCS);
    static uint8_t out[OUT_MAX];
    for (s->clocks = 0; s->clocks < j->max_clocks;) {
        c->clock(TT_STEP);
        s->clocks += TT_STEP;
        xfer(c, k->out, out, k->out_len, false);
        if (!memcmp(out, j->want, k->out_len)) {
            ttsim_done(s);
            return 0;
        }
    }
    snprintf(s->why, sizeof s->why, "its output did not match tensim's within %llu clocks",
             (unsigned long long)j->max_clocks);
    return 3;
}

typedef int ttsim_body(struct chip *c, const void *arg, struct ttsim_shared *s);

/* In the child: the chip opened and the body run, timed from libttsim_init to the moment the
 * body calls ttsim_done. */
static int child(const char *lib, ttsim_body *body, const void *arg, struct ttsim_shared *s)
{
    struct chip c;
    s->t0 = seconds();
    int r = open_chip(lib, &c, s);
    return r ? r : body(&c, arg, s);
}

/* Runs body in a child process on library lib; *out says how it went. Whatever the body wrote
 * into shared memory (mmap MAP_SHARED before the call) is the parent's to read afterwards. */
static void run_ttsim(const char *lib, ttsim_body *body, const void *arg, struct ttsim_shared *out)
{
    struct ttsim_shared *s = mmap(0, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    memset(out, 0, sizeof *out);
    if (s == MAP_FAILED) {
        snprintf(out->why, sizeof out->why, "no shared memory");
        return;
    }
    memset(s, 0, sizeof *s);
    int fd[2];
    if (pipe(fd)) {
        snprintf(out->why, sizeof out->why, "no pipe");
        munmap(s, sizeof *s);
        return;
    }
    fflush(0);
    pid_t pid = fork();
    if (pid == 0) { /* ttsim prints its fatal errors on stdout: into the pipe */
        close(fd[0]);
        dup2(fd[1], 1);
        _exit(child(lib, body, arg, s));
    }
    close(fd[1]);
    /* keep the last line ttsim printed with ERROR in it: why it ended the process */
    char text[4096], err[160] = "";
    size_t used = 0;
    ssize_t n;
    while ((n = read(fd[0], text + used, sizeof text - 1 - used)) > 0) {
        used += (size_t)n;
        text[used] = 0;
        char *nl;
        while ((nl = strchr(text, '\n'))) {
            *nl = 0;
            const char *e = strstr(text, "ERROR");
            if (e)
                snprintf(err, sizeof err, "%s", e);
            used -= (size_t)(nl + 1 - text);
            memmove(text, nl + 1, used + 1);
        }
        if (used == sizeof text - 1)
            used = 0;
    }
    close(fd[0]);
    int st = 0;
    if (pid > 0)
        waitpid(pid, &st, 0);
    *out = *s;
    if (!out->ok && !out->why[0])
        snprintf(out->why, sizeof out->why, "ttsim ended the process: %s",
                 err[0] ? err : "no message");
    munmap(s, sizeof *s);
}

/* ---- tt-llk's own test kernels ----
 * `make bench-llk` builds tt-llk's matmul perf tests into build/llk-bench (bench/llk); the
 * L1_TO_L1 variant of each (unpack, math and pack all running) is a run description: BRISC runs
 * tt-llk's brisc.elf, which starts the TRISCs when the host asks, and the run ends when the three
 * mailboxes say KERNEL_COMPLETE (core/host.c). On tensim they run as a user runs them,
 * `tensim run -q --run=FILE`: the whole process, the cycles from its --stats.
 *
 * On ttsim the same run is replayed from what tensim's own host part (host_setup) made of the
 * description, so both start from the same bytes: the whole L1 as it is when BRISC leaves reset
 * (the "l1" files, the programs loaded tt-exalens's way, BRISC's counter marked), the TRISCs'
 * reset pcs, and where the harness's words are. The host's side of the boot is then played over
 * the TLB window as core/host.c plays it, and the L1 ttsim ends with is compared with tensim's. */

/* Blackhole's RISC-V debug registers (ttsim data/bh/tile_regs.json, 56694c8: trisc0..2_reset_pc
 * at 0x228, 0x22C, 0x230 and trisc_reset_pc_override at 0x234 of the block whose soft_reset_0 is
 * at 0x1B0, i.e. 0xFFB12000). ttsim's src/tile.cpp takes a TRISC out of reset at its reset pc only
 * when the override bit is set, at 0x6000 / 0xA000 / 0xE000 otherwise, and BRISC always at 0;
 * tt-exalens's loader sets the pcs and the override (mem/elf.c, elf_start), so do we. */
#define TRISC_RESET_PC 0xFFB12228u
#define TRISC_RESET_PC_OVERRIDE 0xFFB12234u
#define BRISC_RESET_BIT (1u << 11)
#define LLK_STEP 200u

/* What tensim made of a run description, and where ttsim's result goes. */
struct llk_job {
    uint32_t l1_size;
    uint8_t *start;  /* L1 when BRISC leaves reset */
    uint8_t *end;    /* tensim's L1 when kernel_complete held */
    uint8_t *got;    /* ttsim's, written by the child (shared memory) */
    uint32_t reset_pc[NUM_THREADS], override;
    struct llk_layout place; /* the mailboxes and BRISC's command words, found by host_setup */
    uint64_t cycles, max_clocks;
};

static int llk_job_alloc(struct llk_job *j, uint32_t l1_size)
{
    j->l1_size = l1_size;
    j->start = malloc(l1_size);
    j->end = malloc(l1_size);
    j->got = mmap(0, l1_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (j->got == MAP_FAILED)
        j->got = 0;
    return j->start && j->end && j->got ? 0 : -1;
}

static void llk_job_free(struct llk_job *j)
{
    free(j->start);
    free(j->end);
    if (j->got)
        munmap(j->got, j->l1_size);
}

/* Only what the replay below plays: BRISC's boot, the kernel_complete end, no host writes during
 * the run. Returns NULL or why not. */
static const char *llk_replayable(const struct run_desc *rd)
{
    if (rd->arch && rd->arch != arch_get(ARCH_BLACKHOLE))
        return "not a Blackhole run (the ttsim replay drives Blackhole's TLB window)";
    if (rd->boot != BOOT_BRISC)
        return "its boot is not \"brisc\" (the only one replayed on ttsim)";
    if (!rd->end_kernel_complete)
        return "its end is not \"kernel_complete\" (the only one replayed on ttsim)";
    if (rd->naction)
        return "it has \"host\" writes (not replayed on ttsim)";
    return 0;
}

/* Runs the description once in this process to fill j (the image before, the L1 after). Returns
 * 0, or -1 with the reason in why. */
static int llk_on_tensim(const char *run, struct llk_job *j, char *why, size_t n)
{
    const struct arch *bh = arch_get(ARCH_BLACKHOLE);
    struct run_desc rd;
    char err[400];
    memset(j, 0, sizeof *j); /* llk_job_free's to free whatever happens */
    if (run_desc_load(&rd, run, bh, err, sizeof err)) {
        snprintf(why, n, "%s", err);
        return -1;
    }
    const char *no = llk_replayable(&rd);
    if (no) {
        snprintf(why, n, "%s", no);
        run_desc_free(&rd);
        return -1;
    }
    struct tile *t = tile_create(bh);
    struct host h = {0};
    int r = -1;
    if (!t || llk_job_alloc(j, bh->l1_size)) {
        snprintf(why, n, "out of memory");
        goto out;
    }
    if (host_setup(&h, t, &rd)) {
        snprintf(why, n, "tensim: %s", t->err.text);
        goto out;
    }
    memcpy(j->start, t->l1, j->l1_size);
    for (int i = 0; i < NUM_THREADS; i++)
        j->reset_pc[i] = t->boot.trisc_reset_pc[i];
    j->override = t->boot.reset_pc_override;
    j->place = h.place;
    tile_run(t, rd.max_cycles);
    host_check_end(&h, t);
    if (t->err.kind != ERR_NONE) {
        snprintf(why, n, "tensim: %s", t->err.text);
        goto out;
    }
    memcpy(j->end, t->l1, j->l1_size);
    j->cycles = t->cycles;
    /* ttsim's run is cut short after this many clocks; it took 0.4-0.8 of tensim's cycles on
     * every tt-llk kernel measured (docs/bench.md), so only a run that went wrong gets there */
    j->max_clocks = 20 * t->cycles + 100000;
    r = 0;
out:
    host_free(&h);
    if (t)
        tile_destroy(t);
    run_desc_free(&rd);
    return r;
}

static bool llk_complete(struct chip *c, const struct llk_layout *l, uint32_t mb[LLK_THREADS])
{
    bool all = true;
    for (unsigned i = 0; i < LLK_THREADS; i++)
        all &= (mb[i] = rd32(c, l->mailbox[i])) == l->kernel_complete;
    return all;
}

/* In the child: the image written with every core in reset, the TRISCs' reset pcs set, BRISC
 * released; then, as core/host.c's boot_step does, START_TRISCS is written into BRISC's first
 * command slot once BRISC has zeroed its counter (it zeroes its slots first, so an earlier
 * command would be lost), and the run ends when the three mailboxes hold KERNEL_COMPLETE, read
 * after every LLK_STEP clocks (these kernels end within some 10^4 clocks: a coarser step would
 * add a tenth to the time measured). */
static int llk_child(struct chip *c, const void *arg, struct ttsim_shared *s)
{
    const struct llk_job *j = arg;
    const struct llk_layout *l = &j->place;
    wr32(c, SOFT_RESET_0, ALL_IN_RESET);
    xfer(c, 0, j->start, j->l1_size, true);
    for (int i = 0; i < NUM_THREADS; i++)
        wr32(c, TRISC_RESET_PC + 4u * (uint32_t)i, j->reset_pc[i]);
    wr32(c, TRISC_RESET_PC_OVERRIDE, j->override);
    wr32(c, SOFT_RESET_0, ALL_IN_RESET & ~BRISC_RESET_BIT);
    s->setup = seconds() - s->t0;
    bool started = false;
    uint32_t mb[LLK_THREADS] = {0};
    for (s->clocks = 0; s->clocks < j->max_clocks;) {
        c->clock(LLK_STEP);
        s->clocks += LLK_STEP;
        if (!started) {
            if (rd32(c, l->brisc_counter) == 0) {
                wr32(c, l->brisc_command[0], l->start_triscs);
                started = true;
            }
            continue;
        }
        if (llk_complete(c, l, mb)) {
            ttsim_done(s);
            xfer(c, 0, j->got, j->l1_size, false);
            return 0;
        }
    }
    if (!started)
        snprintf(s->why, sizeof s->why, "BRISC never zeroed its command counter at 0x%05x within %llu "
                 "clocks (brisc.elf did not start)", l->brisc_counter, (unsigned long long)j->max_clocks);
    else
        snprintf(s->why, sizeof s->why, "kernel_complete did not hold within %llu clocks (mailboxes "
                 "0x%x 0x%x 0x%x at 0x%05x 0x%05x 0x%05x; 0x%x when done)",
                 (unsigned long long)j->max_clocks, mb[0], mb[1], mb[2], l->mailbox[0], l->mailbox[1],
                 l->mailbox[2], l->kernel_complete);
    return 3;
}

/* tt-llk's profiler records carry each simulator's own clock (tensim's cycles, ttsim's clocks),
 * which differ by nature: their timestamp bits are zeroed in both L1 images before they are
 * compared, the rest of each record (type, zone id, data words) kept. The format is the one
 * trace/zones.c reads (docs/tt-llk.md "Perf variants and profiler zones"): word 0 the type in
 * 31:28 (bit 31 set in every record), the id in 27:12, timestamp bits 43:32 in 11:0; word 1 the
 * timestamp's low bits; type 9 then two data words. */
static void drop_timestamps(uint8_t *l1, const struct llk_layout *l)
{
    for (unsigned th = 0; th < LLK_THREADS; th++) {
        uint8_t *buf = l1 + l->profiler_buffer[th];
        for (uint32_t i = 0; i + 1 < l->profiler_words;) {
            uint32_t w0, zero = 0;
            memcpy(&w0, buf + 4 * i, 4);
            if (!(w0 & 0x80000000u))
                break;
            w0 &= ~0xFFFu;
            memcpy(buf + 4 * i, &w0, 4);
            memcpy(buf + 4 * i + 4, &zero, 4);
            i += (w0 >> 28) == 9 ? 4 : 2;
        }
    }
}

/* Compares ttsim's L1 with tensim's (timestamps dropped): the number of bytes that differ, and
 * in `out` the first few ranges (differing bytes closer than 64 merged). */
static uint32_t l1_diff(const struct llk_job *j, char *out, size_t len)
{
    uint32_t bytes = 0, ranges = 0, lo = 0, hi = 0;
    size_t used = 0;
    out[0] = 0;
    for (uint32_t i = 0; i < j->l1_size; i++) {
        if (j->end[i] == j->got[i])
            continue;
        bytes++;
        if (ranges && i <= hi + 64) {
            hi = i;
            continue;
        }
        if (ranges && ranges <= 4 && used < len)
            used += (size_t)snprintf(out + used, len - used, " 0x%x-0x%x", lo, hi);
        ranges++, lo = hi = i;
    }
    if (ranges && ranges <= 4 && used < len)
        used += (size_t)snprintf(out + used, len - used, " 0x%x-0x%x", lo, hi);
    if (ranges > 4 && used < len)
        snprintf(out + used, len - used, " ...");
    return bytes;
}

/* How many bytes of L1 the run changed on tensim (timestamps dropped): how much the comparison
 * with ttsim's L1 covers beyond the bytes loaded. */
static uint32_t l1_changed(const struct llk_job *j)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < j->l1_size; i++)
        n += j->start[i] != j->end[i];
    return n;
}

#define LLK_RUNS 5

/* ttsim's figures for one run description, after tensim's: the median of its runs, and the ratio
 * only when ttsim's L1 equals tensim's (timestamps aside), i.e. when both did the same work. */
static void llk_ttsim_report(struct llk_job *j, const struct ttsim_shared *ts, double *t, double *setup,
                             double tensim_s)
{
    const double m = median(t, LLK_RUNS);
    drop_timestamps(j->end, &j->place);
    drop_timestamps(j->got, &j->place);
    char diff[300];
    uint32_t bytes = l1_diff(j, diff, sizeof diff);
    if (bytes)
        printf("   ttsim %7.3f s (%llu clocks to kernel_complete), but its L1 is not tensim's: %u %s "
               "(timestamps aside):%s\n",
               m, (unsigned long long)ts->clocks, bytes, bytes == 1 ? "byte differs" : "bytes differ", diff);
    else
        printf("   ttsim %7.3f s (start-up %.3f s; %llu clocks to kernel_complete; same L1 "
               "timestamps aside, %u bytes changed by the run): tensim %.2fx %s\n",
               m, median(setup, LLK_RUNS), (unsigned long long)ts->clocks, l1_changed(j),
               tensim_s < m ? m / tensim_s : tensim_s / m, tensim_s < m ? "faster" : "slower");
}

/* One run description: tensim's figures, then ttsim's (or why not). Each side runs LLK_RUNS times,
 * tensim's and ttsim's runs taking turns, so that other work on the machine weighs on both
 * alike; the medians are compared. `name` is what the line calls it. Returns 0, or -1 if tensim
 * failed to run it. */
static int llk_kernel(const char *lib, const char *run, const char *name)
{
    double t[LLK_RUNS], tt[LLK_RUNS], setup[LLK_RUNS];
    long long cycles = -1;
    char arg[1100], stats[64], opt[80], why[600] = "";
    snprintf(arg, sizeof arg, "--run=%s", run);
    /* a file of this process's own: two benches may run at once (the tests do) */
    snprintf(stats, sizeof stats, "build/bench/llk-kernel-%ld.json", (long)getpid());
    snprintf(opt, sizeof opt, "--stats=%s", stats);
    char *const argv[] = {"tensim", "run", "-q", opt, arg, NULL};
    enum { TT_SKIPPED, TT_NOT_REPLAYED, TT_FAILED, TT_RAN } state = lib ? TT_RAN : TT_SKIPPED;
    struct llk_job j = {0};
    struct ttsim_shared ts = {0};
    if (lib && llk_on_tensim(run, &j, why, sizeof why))
        state = TT_NOT_REPLAYED;
    int r = 0;
    for (int i = 0; i < LLK_RUNS && !r; i++) {
        if ((t[i] = time_tensim(argv)) < 0) {
            printf("kernel llk %s: tensim run failed (tensim run -q --run=%s)\n", name, run);
            r = -1;
            break;
        }
        json_t *js = json_load_file(stats, 0, NULL);
        cycles = js ? json_integer_value(json_object_get(js, "cycles")) : -1;
        json_decref(js);
        if (state != TT_RAN)
            continue;
        run_ttsim(lib, llk_child, &j, &ts);
        if (!ts.ok) {
            state = TT_FAILED;
            snprintf(why, sizeof why, "%s", ts.why);
        }
        tt[i] = ts.seconds;
        setup[i] = ts.setup;
    }
    remove(stats);
    if (!r && cycles < 0) {
        printf("kernel llk %s: tensim's --stats gave no cycles\n", name);
        r = -1;
    }
    if (!r) {
        const double m = median(t, LLK_RUNS);
        printf("kernel llk %s  tensim %9lld cycles %7.3f s %7.2f M cycles/s (whole process)", name,
               cycles, m, (double)cycles / m / 1e6);
        if (state == TT_SKIPPED)
            printf("   ttsim: skipped (no --ttsim or TTSIM)\n");
        else if (state == TT_NOT_REPLAYED)
            printf("   ttsim: not replayed: %s\n", why);
        else if (state == TT_FAILED)
            printf("   ttsim: failed: %s\n", why);
        else
            llk_ttsim_report(&j, &ts, tt, setup, m);
    }
    fflush(stdout);
    llk_job_free(&j);
    return r;
}

static void llk_kernels(const char *lib)
{
    glob_t g;
    if (glob("build/llk-bench/*/*/L1_TO_L1/run.json", 0, NULL, &g)) {
        printf("tt-llk kernels: skipped (none built: make bench-llk with TT_LLK and TT_METAL_HEADERS)\n");
        return;
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        /* build/llk-bench/SWEEP/TEST/VARIANT/run.json -> SWEEP/TEST/VARIANT */
        const char *run = g.gl_pathv[i], *name = run + strlen("build/llk-bench/");
        char shown[1000];
        snprintf(shown, sizeof shown, "%.*s", (int)(strstr(name, "/run.json") - name), name);
        llk_kernel(lib, run, shown);
    }
    globfree(&g);
}

static int usage(void)
{
    fprintf(stderr, "usage: kernel_speed [--ttsim LIB] [--run RUN.json ...]\n"
                    "  --ttsim LIB  also run on ttsim (a Blackhole libttsim.so; or TTSIM=LIB)\n"
                    "  --run FILE   only this run description (repeatable), instead of the example\n"
                    "               kernels and build/llk-bench's tt-llk kernels\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *lib = getenv("TTSIM");
    const char *runs[64];
    unsigned nruns = 0;
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--ttsim=", 8))
            lib = argv[i] + 8;
        else if (!strcmp(argv[i], "--ttsim") && i + 1 < argc)
            lib = argv[++i];
        else if (!strncmp(argv[i], "--run=", 6) && nruns < 64)
            runs[nruns++] = argv[i] + 6;
        else if (!strcmp(argv[i], "--run") && i + 1 < argc && nruns < 64)
            runs[nruns++] = argv[++i];
        else
            return usage();
    if (lib && !*lib)
        lib = 0;
    if (nruns) {
        int bad = 0;
        for (unsigned i = 0; i < nruns; i++)
            bad |= llk_kernel(lib, runs[i], runs[i]);
        return bad ? 1 : 0;
    }
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const struct kernel *k = &kernels[i];
        static struct tensim_result tr;
        if (run_tensim(k, &tr))
            return 1;
        printf("kernel %-8s tensim %9llu cycles %7.3f s %7.2f M cycles/s", k->name,
               (unsigned long long)tr.cycles, tr.seconds, (double)tr.cycles / tr.seconds / 1e6);
        if (!lib) {
            printf("   ttsim: skipped (no --ttsim or TTSIM)\n");
            continue;
        }
        struct ttsim_shared ts;
        struct example_job job = {k, tr.out, 20 * tr.cycles + 100000};
        run_ttsim(lib, example_child, &job, &ts);
        if (ts.ok)
            printf("   ttsim %7.3f s (%llu clocks to the same output): tensim %.2fx %s\n", ts.seconds,
                   (unsigned long long)ts.clocks,
                   tr.seconds < ts.seconds ? ts.seconds / tr.seconds : tr.seconds / ts.seconds,
                   tr.seconds < ts.seconds ? "faster" : "slower");
        else
            printf("   ttsim: failed: %s\n", ts.why);
    }
    llk_kernels(lib);
    return 0;
}
