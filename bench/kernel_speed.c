/* Whole example kernels: simulated cycles per host second (issue 19 item 4), and, when a ttsim
 * library is named (`--ttsim PATH` or TTSIM=PATH, a Blackhole libttsim.so built from
 * tenstorrent/ttsim; never shipped or required), the same ELFs on ttsim in the same run and the
 * ratio of host times.
 *
 * ttsim counts no cycles and the kernels' exit (ecall 93) is tensim's own host call, so the end
 * of a ttsim run is taken as the moment its L1 output region equals the one tensim left: it is
 * clocked in steps of TT_STEP and the region read after each step (and the exit ecall, which
 * ttsim refuses, spins instead: load_elf). ttsim keeps one chip in
 * process-wide state and ends the process on errors, so each kernel runs in a child of its own
 * (as test/diff/ttsim.c does; the host reaches the tile through the PCIe BAR0 TLB window,
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
    t->lockstep = getenv("SPEED_LOCKSTEP") != NULL; /* run-ahead off, for comparison */
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
    double seconds;
    char why[200];
};

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

static int child(const char *lib, const struct kernel *k, const uint8_t *want, uint64_t max_clocks,
                 struct ttsim_shared *s)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(s->why, sizeof s->why, "cannot load %s", lib);
        return 2;
    }
    struct chip c = {.cur = ~0ull};
    *(void **)&c.init = dlsym(h, "libttsim_init");
    *(void **)&c.clock = dlsym(h, "libttsim_clock");
    *(void **)&c.cfg_rd32 = dlsym(h, "libttsim_pci_config_rd32");
    *(void **)&c.rd = dlsym(h, "libttsim_pci_mem_rd_bytes");
    *(void **)&c.wr = dlsym(h, "libttsim_pci_mem_wr_bytes");
    if (!c.init || !c.clock || !c.cfg_rd32 || !c.rd || !c.wr) {
        snprintf(s->why, sizeof s->why, "%s lacks the libttsim_* calls", lib);
        return 2;
    }
    double t0 = seconds();
    c.init();
    if (c.cfg_rd32(0, 0) != PCI_ID_BH) {
        snprintf(s->why, sizeof s->why, "%s is not a Blackhole library", lib);
        return 2;
    }
    c.bar0 = (uint64_t)c.cfg_rd32(0, 0x14) << 32 | (c.cfg_rd32(0, 0x10) & ~0xFu);
    wr32(&c, SOFT_RESET_0, ALL_IN_RESET);
    for (int i = 0; i < 3; i++)
        if (load_elf(&c, k->elf[i], s->why, sizeof s->why))
            return 2;
    wr32(&c, SOFT_RESET_0, ALL_IN_RESET & ~TRISCS);
    static uint8_t out[OUT_MAX];
    for (s->clocks = 0; s->clocks < max_clocks; s->clocks += TT_STEP) {
        c.clock(TT_STEP);
        xfer(&c, k->out, out, k->out_len, false);
        if (!memcmp(out, want, k->out_len)) {
            s->seconds = seconds() - t0;
            s->ok = 1;
            return 0;
        }
    }
    snprintf(s->why, sizeof s->why, "its output did not match tensim's within %llu clocks",
             (unsigned long long)max_clocks);
    return 3;
}

static void run_ttsim(const char *lib, const struct kernel *k, const struct tensim_result *tr,
                      struct ttsim_shared *out)
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
        _exit(child(lib, k, tr->out, 20 * tr->cycles + 100000, s));
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
 * L1_TO_L1 variant of each (unpack, math and pack all running) is a run description (BRISC boots the TRISCs, which run until tt-llk's end condition). They run as a
 * user runs them, `tensim run -q --run=FILE`: the whole process, median of 3, and the cycles from
 * its --stats. Not on ttsim yet (it needs the run description's boot and host writes replayed
 * there). */
static void llk_kernels(void)
{
    glob_t g;
    if (glob("build/llk-bench/*/*/L1_TO_L1/run.json", 0, NULL, &g)) {
        printf("tt-llk kernels: skipped (none built: make bench-llk with TT_LLK and TT_METAL_HEADERS)\n");
        return;
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *run = g.gl_pathv[i];
        double t[3];
        long long cycles = -1;
        char arg[1100];
        snprintf(arg, sizeof arg, "--run=%s", run);
        char *const argv[] = {"tensim", "run", "-q", "--stats=build/bench/llk-kernel.json", arg, NULL};
        for (int r = 0; r < 3; r++) {
            if ((t[r] = time_tensim(argv)) < 0) {
                printf("kernel %s: tensim run failed\n", run);
                cycles = -1;
                break;
            }
            json_t *j = json_load_file("build/bench/llk-kernel.json", 0, NULL);
            cycles = j ? json_integer_value(json_object_get(j, "cycles")) : -1;
            json_decref(j);
        }
        if (cycles < 0)
            continue;
        const double m = median(t, 3);
        /* build/llk-bench/SWEEP/TEST/VARIANT/run.json -> SWEEP/TEST */
        const char *name = run + strlen("build/llk-bench/");
        int len = (int)(strstr(name, "/run.json") - name);
        printf("kernel llk %.*s  tensim %9lld cycles %7.3f s %7.2f M cycles/s (whole process)   ttsim: "
               "skipped (tt-llk run descriptions are not replayed on ttsim)\n",
               len, name, cycles, m, (double)cycles / m / 1e6);
    }
    globfree(&g);
}

int main(int argc, char **argv)
{
    const char *lib = getenv("TTSIM");
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--ttsim=", 8))
            lib = argv[i] + 8;
        else if (!strcmp(argv[i], "--ttsim") && i + 1 < argc)
            lib = argv[++i];
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
        run_ttsim(lib, k, &tr, &ts);
        if (ts.ok)
            printf("   ttsim %7.3f s (%llu clocks to the same output): tensim %.2fx %s\n", ts.seconds,
                   (unsigned long long)ts.clocks,
                   tr.seconds < ts.seconds ? ts.seconds / tr.seconds : tr.seconds / ts.seconds,
                   tr.seconds < ts.seconds ? "faster" : "slower");
        else
            printf("   ttsim: failed: %s\n", ts.why);
    }
    llk_kernels();
    return 0;
}
