/* The libttsim interface (core/libttsim.c, docs/libttsim.md): build/libtensim_bh.so driven as
 * Tenstorrent's UMD drives a simulator library. The chip examples run through our UMD-shaped
 * driver (build/umd_host, test/umd/umd_host.c) and give their exact results; one tile's cycles
 * equal tensim run's, shifted by the cycle the host released it; the PCI configuration space,
 * loading twice, fork after init, and each error's text and exit status. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <dlfcn.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/chip.h"
#include "harness.h"
#include "trace_check.h"

#define LIB "build/libtensim_bh.so"
#define KCHIP "build/kernels/chip/"

/* Runs a shell command; its output (stdout and stderr) in out[n]; returns its exit status. */
static int run_cmd(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run_cmd(char *out, size_t n, const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run %s", cmd);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = 0;
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static bool same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = read_whole_file(a, &na), *y = read_whole_file(b, &nb);
    const bool same = x && y && na == nb && !memcmp(x, y, na);
    free(x);
    free(y);
    return same;
}

/* One chip example through the library: every core exits 0, every output as expected. */
static void example(const char *name, const char *flags, const char *out_file, const char *expected)
{
    char dir[256], out[16384];
    snprintf(dir, sizeof dir, "/tmp/tensim-lt-%s", name);
    cr_assert_eq(run_cmd(out, sizeof out, "mkdir -p %s && build/umd_host %s " LIB " " KCHIP "%s/run.json %s",
                         dir, flags, name, dir), 0, "%s:\n%s", name, out);
    cr_expect(strstr(out, "every tile done by cycle") != NULL, "%s", out);
    cr_expect(strstr(out, "tensim: libttsim: ") != NULL, "%s", out);
    if (!out_file)
        return;
    char got[300], want[300];
    snprintf(got, sizeof got, "%s/%s", dir, out_file);
    snprintf(want, sizeof want, KCHIP "%s/%s", name, expected);
    cr_expect(same_file(got, want), "%s: %s differs from %s", name, got, want);
}

Test(libttsim, chip_examples_through_the_library, .timeout = 240)
{
    example("pipeline3", "", "output.bin", "expected-output.bin");
    example("matmul16", "", "c.bin", "expected-c.bin");
    example("mmfpu", "", "c.bin", "expected-c.bin");
    example("alltoall", "", NULL, NULL); /* each tile checks what it received (exit code) */
    example("alltoall-2noc", "--memfd", NULL, NULL); /* loaded as UMD's copy_sim_binary does */
}

static json_t *tile_stats(json_t *tiles, unsigned x, unsigned y)
{
    size_t i;
    json_t *t;
    json_array_foreach(tiles, i, t) {
        json_t *at = json_object_get(t, "at");
        if (json_integer_value(json_array_get(at, 0)) == (json_int_t)x &&
            json_integer_value(json_array_get(at, 1)) == (json_int_t)y)
            return json_object_get(t, "stats");
    }
    return NULL;
}

/* A tile alone (tt-llk's throttled matmul on the matrix unit, riscv/sdk/examples/mmthrottle)
 * gives its exact product through the library and counts the same cycles as under tensim run:
 * its cores leave reset at the cycle the host wrote SOFT_RESET_0 (after the host's reads, one
 * cycle each), and everything after is the same. */
Test(libttsim, one_tile_result_and_cycles_are_tensim_runs, .timeout = 120)
{
    const char *dir = "/tmp/tensim-lt-one", *k = "build/kernels/mmthrottle-";
    char out[8192], json[4096], pwd[256];
    snprintf(pwd, sizeof pwd, "%s", getenv("PWD"));
    cr_assert_eq(run_cmd(out, sizeof out, "mkdir -p %s/lib", dir), 0);
    snprintf(json, sizeof json, "{\"tensim_run\": 1, \"arch\": \"blackhole\", \"chip\": {\"tiles\": "
             "[{\"at\": [5, 6], \"programs\": {\"trisc0\": \"%s/%st0.elf\", \"trisc1\": \"%s/%st1.elf\", "
             "\"trisc2\": \"%s/%st2.elf\"}, \"l1\": [{\"addr\": \"0x30000\", \"file\": \"%s/%sa.bin\"}, "
             "{\"addr\": \"0x40000\", \"file\": \"%s/%sb.bin\"}], \"read\": [{\"addr\": \"0x60000\", "
             "\"len\": 32768, \"file\": \"%s/c.bin\"}]}]}}",
             pwd, k, pwd, k, pwd, k, pwd, k, pwd, k, dir);
    FILE *f = fopen("/tmp/tensim-lt-one/one.json", "w");
    cr_assert(f);
    fputs(json, f);
    fclose(f);
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q --run %s/one.json --stats %s/run.json", dir, dir), 0,
                 "%s", out);
    cr_assert_eq(run_cmd(out, sizeof out, "TENSIM_STATS=%s/lib.json build/umd_host " LIB " %s/one.json %s/lib",
                         dir, dir, dir), 0, "%s", out);
    cr_expect(same_file("/tmp/tensim-lt-one/lib/c.bin", "build/kernels/mmthrottle-c.bin"),
              "the product read back through the library");
    unsigned released = 0;
    const char *r = strstr(out, "tile (5, 6): released at cycle ");
    cr_assert(r && sscanf(r, "tile (5, 6): released at cycle %u", &released) == 1, "%s", out);
    /* The host's reads before it, one clock each: the hold's, the three TRISCs' override
     * register, the release's own. */
    cr_expect_eq(released, 5u);

    json_error_t e;
    json_t *a = json_load_file("/tmp/tensim-lt-one/run.json", 0, &e);
    json_t *b = json_load_file("/tmp/tensim-lt-one/lib.json", 0, &e);
    cr_assert(a && b);
    cr_expect_str_eq(json_string_value(json_object_get(b, "schema")), "tensim-chip-stats");
    json_t *ta = tile_stats(json_object_get(json_object_get(a, "chip"), "tiles"), 5, 6);
    json_t *tb = tile_stats(json_object_get(b, "tiles"), 5, 6);
    cr_assert(ta && tb);
    const json_int_t ca = json_integer_value(json_object_get(ta, "cycles"));
    cr_expect_gt(ca, 2000);
    cr_expect_eq(json_integer_value(json_object_get(tb, "cycles")), ca + released);
    static const char *const cores[] = {"TRISC0", "TRISC1", "TRISC2"};
    for (unsigned k = 0; k < 3; k++) {
        json_t *x = json_object_get(json_object_get(ta, "cores"), cores[k]);
        json_t *y = json_object_get(json_object_get(tb, "cores"), cores[k]);
        cr_expect_eq(json_integer_value(json_object_get(y, "instret")),
                     json_integer_value(json_object_get(x, "instret")), "%s", cores[k]);
        cr_expect_eq(json_integer_value(json_object_get(y, "cycles")),
                     json_integer_value(json_object_get(x, "cycles")), "%s", cores[k]);
    }
    json_decref(a);
    json_decref(b);
}

/* ---- the library in this process ---- */

struct lib {
    void *h;
    void (*init)(void), (*exit)(void), (*clock)(uint32_t);
    uint32_t (*cfg)(uint32_t, uint32_t);
    void (*rd)(uint64_t, void *, uint32_t);
    void (*wr)(uint64_t, const void *, uint32_t);
    void (*tile_rd)(uint32_t, uint32_t, uint64_t, void *, uint32_t);
};

static struct lib open_path(const char *path)
{
    struct lib l = {.h = dlopen(path, RTLD_NOW | RTLD_LOCAL)};
    cr_assert(l.h, "%s", dlerror());
    *(void **)&l.init = dlsym(l.h, "libttsim_init");
    *(void **)&l.exit = dlsym(l.h, "libttsim_exit");
    *(void **)&l.clock = dlsym(l.h, "libttsim_clock");
    *(void **)&l.cfg = dlsym(l.h, "libttsim_pci_config_rd32");
    *(void **)&l.rd = dlsym(l.h, "libttsim_pci_mem_rd_bytes");
    *(void **)&l.wr = dlsym(l.h, "libttsim_pci_mem_wr_bytes");
    *(void **)&l.tile_rd = dlsym(l.h, "libttsim_tile_rd_bytes");
    cr_assert(l.init && l.exit && l.clock && l.cfg && l.rd && l.wr && l.tile_rd);
    return l;
}

static struct lib open_lib(void) { return open_path(LIB); }

#define BAR0 0x100000000ull

/* Window 0 aimed at translated (x, y), addr's 2 MiB frame (UMD's three register writes). */
static void aim(const struct lib *l, unsigned x, unsigned y, uint64_t addr)
{
    const uint64_t frame = addr >> 21;
    const uint32_t w[3] = {(uint32_t)frame, (uint32_t)(frame >> 32 & 0x7FF) | x << 11 | y << 17, 0};
    for (unsigned i = 0; i < 3; i++)
        l->wr(BAR0 + 0x1FC00000u + 4 * i, &w[i], 4);
}

static uint32_t rd32(const struct lib *l, unsigned x, unsigned y, uint64_t addr)
{
    uint32_t v;
    aim(l, x, y, addr);
    l->rd(BAR0 + addr % (2u << 20), &v, 4);
    l->clock(1);
    return v;
}

static void wr32(const struct lib *l, unsigned x, unsigned y, uint64_t addr, uint32_t v)
{
    aim(l, x, y, addr);
    l->wr(BAR0 + addr % (2u << 20), &v, 4);
}

static unsigned threads_now(void)
{
    unsigned n = 0;
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* What UMD does at start-up and for tile accesses, and what it must see (docs/libttsim.md 2.2-2.6):
 * the same on tensim's library and, when TTSIM names one, on ttsim's (the driver's accesses are
 * UMD's, not fitted to our library). */
static void umd_accesses(const struct lib *l)
{
    cr_expect_eq(l->cfg(0, 0x00), 0xB1401E52u);
    cr_expect_eq(l->cfg(0, 0x10), 0x00000004u);
    cr_expect_eq(l->cfg(0, 0x14), 0x1u);
    cr_expect_eq(l->cfg(0, 0x18), 0x20000004u);
    cr_expect_eq(l->cfg(0, 0x1C), 0x1u);
    cr_expect_eq(l->cfg(0, 0x20), 0x4u);
    cr_expect_eq(l->cfg(0, 0x24), 0x8u);
    cr_expect_eq(l->cfg(1 << 3, 0x00), 0xFFFFFFFFu, "device 1 does not exist");
    /* the outbound iATU region 0, in UMD's order */
    static const uint32_t iatu[][2] = {{0x04, 0}, {0x00, 0}, {0x08, 0}, {0x0C, 0}, {0x10, (1u << 30) - 1},
                                       {0x14, 0}, {0x18, 0}, {0x04, 0x80000000u}};
    for (unsigned i = 0; i < 8; i++)
        l->wr(0x120000000ull + 0x1000 + iatu[i][0], &iatu[i][1], 4);
    /* A write through the window lands in that tile's L1 and nowhere else. */
    wr32(l, 3, 4, 0x30000, 0xC0FFEE01u);
    cr_expect_eq(rd32(l, 3, 4, 0x30000), 0xC0FFEE01u);
    cr_expect_eq(rd32(l, 4, 3, 0x30000), 0u);
    /* Power-on soft reset: every core held (0x47800). */
    cr_expect_eq(rd32(l, 3, 4, 0xFFB121B0u), 0x47800u);
    /* DRAM bank 0 at NoC 0 (0, 0) and (0, 1), as UMD addresses it: one bank, two ports. */
    wr32(l, 0, 0, 0x123450, 77);
    cr_expect_eq(rd32(l, 0, 1, 0x123450), 77u);
}

Test(libttsim, configuration_space_and_windows)
{
    const unsigned before = threads_now();
    struct lib l = open_lib(); /* UMD's probe: open and close, nothing runs */
    dlclose(l.h);
    l = open_lib();
    cr_expect_eq(threads_now(), before);
    l.init();
    cr_expect_eq(threads_now(), before, "init starts no thread (users fork after it)");
    umd_accesses(&l);
    /* The same bank through translated ports (17, 12), as a tool with translation on sends. */
    cr_expect_eq(rd32(&l, 17, 12, 0x123450), 77u);
    uint32_t v = 0;
    l.tile_rd(17, 13, 0x123450, &v, 4); /* UMD's DRAM teleport: no window */
    cr_expect_eq(v, 77u);
    /* Time moves only with clock: the status page's cycle counts the reads' clocks. */
    uint32_t st[3];
    l.rd(BAR0 + 0x1FF00000u, st, sizeof st);
    cr_expect_eq(st[0], 0x4D534E54u);
    cr_expect_eq(st[1], 5u, "five reads through the window, one clock each (the teleport's none)");
    l.clock(1000);
    l.rd(BAR0 + 0x1FF00000u, st, sizeof st);
    cr_expect_eq(st[1], 1005u);
    l.exit();
    dlclose(l.h);
    cr_expect_eq(threads_now(), before);
}

Test(libttsim, the_same_accesses_on_ttsim)
{
    const char *ttsim = getenv("TTSIM");
    if (!ttsim || !*ttsim)
        cr_skip_test("TTSIM names no ttsim libttsim.so (make test TTSIM_BH=...)");
    struct lib l = open_path(ttsim);
    l.init();
    umd_accesses(&l);
    l.exit();
    dlclose(l.h);
}

/* Fork after init (ttsim's documented use): a child's writes and time are its own. */
Test(libttsim, fork_after_init)
{
    struct lib l = open_lib();
    l.init();
    wr32(&l, 1, 2, 0x40000, 0x1234);
    const pid_t p = fork();
    cr_assert(p >= 0);
    if (p == 0) {
        wr32(&l, 1, 2, 0x40000, 0x5678);
        l.clock(100);
        const bool ok = rd32(&l, 1, 2, 0x40000) == 0x5678;
        _exit(ok ? 0 : 1);
    }
    int st;
    waitpid(p, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cr_expect_eq(rd32(&l, 1, 2, 0x40000), 0x1234u);
    l.exit();
    dlclose(l.h);
}

/* An error ends the process (UMD cannot take one back) with tensim's exit status and message. */
static void expect_death(void (*body)(const struct lib *), const char *env, int status, const char *text)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    const pid_t p = fork();
    cr_assert(p >= 0);
    if (p == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        if (env)
            putenv((char *)env);
        struct lib l = open_lib();
        l.init();
        body(&l);
        _exit(0);
    }
    close(fd[1]);
    char out[4096];
    size_t n = 0;
    for (ssize_t k; (k = read(fd[0], out + n, sizeof out - 1 - n)) > 0;)
        n += (size_t)k;
    out[n] = 0;
    close(fd[0]);
    int st;
    waitpid(p, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == status, "status %d, want %d: %s", WEXITSTATUS(st), status,
              out);
    cr_expect(strstr(out, text) != NULL, "gave:\n%s\nwant: %s", out, text);
}

static void read_nothing(const struct lib *l)
{
    uint32_t v;
    l->rd(BAR0 + 0x1FE00000u, &v, 4);
}
static void read_arc(const struct lib *l) { rd32(l, 8, 0, 0x100); }
static void read_niu(const struct lib *l) { rd32(l, 1, 2, 0xFFB20000u); }
static void write_outside_l1(const struct lib *l) { wr32(l, 1, 2, 0x180000, 1); }
static void crossing(const struct lib *l)
{
    uint32_t v[2];
    aim(l, 1, 2, 0);
    l->rd(BAR0 + (2u << 20) - 4, v, 8);
}
static void nothing(const struct lib *l) { (void)l; }
static void undefined_instruction(const struct lib *l)
{
    wr32(l, 1, 2, 0, 0xFFFFFFFFu); /* BRISC's first word */
    wr32(l, 1, 2, 0xFFB121B0u, 0x47000u);
    l->clock(100);
}

Test(libttsim, errors_end_the_process)
{
    expect_death(read_nothing, NULL, 103,
                 "tensim: bad access: libttsim: host read of 4 bytes at BAR0 + 0x1fe00000: nothing there "
                 "the library models");
    expect_death(read_arc, NULL, 103,
                 "tensim: bad access: libttsim: host read of 4 bytes at (8, 0) 0x100: (8, 0) is an ARC node: "
                 "the library serves only Tensix tiles and DRAM");
    expect_death(read_niu, NULL, 103, "a read of register 0xffb20000, which the library does not model");
    expect_death(write_outside_l1, NULL, 103, "tile (1, 2) 0x180000 + 4: outside L1 (1572864 bytes)");
    expect_death(crossing, NULL, 103, "crosses its end");
    expect_death(nothing, "TENSIM_THREADS=0", 100, "TENSIM_THREADS=0: expected a whole number from 1 to 64");
    expect_death(nothing, "TENSIM_TIMING=rv.nope=3", 100, "TENSIM_TIMING: ");
    expect_death(undefined_instruction, NULL, 102, "tensim: libttsim: tile (1, 2):\ntensim: undefined instruction:");
}

/* The SoC descriptor UMD reads beside the library says what tensim's grid has. */
Test(libttsim, soc_descriptor_matches_the_grid)
{
    size_t n;
    char *text = read_whole_file("build/soc_descriptor.yaml", &n);
    cr_assert(text, "build/soc_descriptor.yaml");
    struct chip *c = chip_create(arch_get(ARCH_BLACKHOLE));
    cr_assert(c);
    static const struct { const char *key; enum chip_node kind; unsigned count; } rows[] = {
        {"functional_workers:", CHIP_TENSIX, 140}, {"dram:", CHIP_DRAM, 24}, {"arc:", CHIP_ARC, 1},
        {"pcie:", CHIP_PCIE, 2},  {"eth:", CHIP_ETH, 14}, {"security:", CHIP_CPU, 1}, {"l2cpu:", CHIP_CPU, 4},
    };
    for (unsigned r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const char *p = strstr(text, rows[r].key);
        cr_assert(p, "%s", rows[r].key);
        p += strlen(rows[r].key);
        /* the coordinates up to the next top-level key */
        const char *end = p;
        while (*end && !(end[0] == '\n' && end[1] >= 'a' && end[1] <= 'z'))
            end++;
        unsigned count = 0, x, y, used;
        for (const char *q = p; q < end; q++)
            if (*q >= '0' && *q <= '9' && (q == p || q[-1] < '0' || q[-1] > '9') &&
                sscanf(q, "%u-%u%n", &x, &y, &used) == 2) {
                cr_expect_eq(chip_node_at(c, x, y), rows[r].kind, "%s %u-%u", rows[r].key, x, y);
                count++;
                q += used - 1;
            }
        cr_expect_eq(count, rows[r].count, "%s", rows[r].key);
    }
    chip_destroy(c);
    free(text);
}

/* The debug push tt-llk's "exalens" boot uses before the TRISCs start (WHR:
 * PushTensixInstruction.md "Debug registers"), as the host reaches it. */
Test(libttsim, debug_instruction_push)
{
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
    cr_assert(t);
    const uint32_t nop = 0x02000000u, ctrl0 = 0xFFB120A0u, ctrl1 = 0xFFB120A4u, status = 0xFFB120A8u;
    uint32_t v = nop;
    cr_assert(tile_ctrl_host(t, ctrl1, true, &v));
    cr_assert(tile_ctrl_host(t, status, false, &v));
    cr_expect_eq(v, 0x77u, "every FIFO2 empty and not full");
    const uint32_t seq[] = {0x1, 0x11, 0x11, 0x1, 0x11, 0x10};
    for (unsigned i = 0; i < 6; i++) {
        v = seq[i];
        cr_assert(tile_ctrl_host(t, ctrl0, true, &v));
    }
    cr_expect_eq(t->thread[0].fifo2.count, 2u, "two rising edges of bit 4 while bit 0 held control");
    cr_expect_eq(t->thread[0].fifo2.word[t->thread[0].fifo2.head], nop);
    cr_expect_eq(t->thread[1].fifo2.count, 0u);
    cr_assert(tile_ctrl_host(t, status, false, &v));
    cr_expect_eq(v, 0x67u, "thread 0's FIFO2 no longer empty");
    cr_assert(tile_ctrl_host(t, ctrl0, false, &v));
    cr_expect_eq(v, 0x10u);
    v = 0x100;
    cr_assert(tile_ctrl_host(t, ctrl0, true, &v));
    cr_expect_eq(t->err.kind, ERR_UNIMPLEMENTED);
    cr_expect(strstr(t->err.text, "INSTRN_BUF_CTRL0 = 0x100 (reserved bits)") != NULL, "%s", t->err.text);
    tile_destroy(t);
}

/* Long clocks run on worker threads; what the chip does never depends on how many. */
Test(libttsim, threads_change_nothing, .timeout = 120)
{
    char out[8192];
    for (unsigned n = 1; n <= 2; n++)
        cr_assert_eq(run_cmd(out, sizeof out, "mkdir -p /tmp/tensim-lt-j%u && TENSIM_HOST_CLOCK=5000 "
                             "TENSIM_THREADS=%u TENSIM_STATS=/tmp/tensim-lt-j%u/stats.json build/umd_host " LIB
                             " " KCHIP "mmfpu/run.json /tmp/tensim-lt-j%u", n, n, n, n), 0, "%s", out);
    cr_expect(same_file("/tmp/tensim-lt-j1/stats.json", "/tmp/tensim-lt-j2/stats.json"));
    cr_expect(same_file("/tmp/tensim-lt-j2/c.bin", KCHIP "mmfpu/expected-c.bin"));
}

/* tt-llk-shaped programs (test/llk) booted through the library as tt-llk's harness boots them
 * (brisc: BRISC's command loop starts the TRISCs; trisc: TRISC0 releases the others; host: the
 * device set-up pushed through the debug registers, then the TRISCs released), ending when the
 * three mailboxes say KERNEL_COMPLETE: the same results as tensim run gives. */
Test(libttsim, tt_llk_boot_modes, .timeout = 120)
{
    static const char *const modes[] = {"brisc", "trisc", "host"};
    const char *pwd = getenv("PWD");
    for (unsigned m = 0; m < 3; m++) {
        char json[2048], path[128], out[8192];
        snprintf(json, sizeof json,
                 "{\"tensim_run\": 1, \"arch\": \"blackhole\", \"layout\": \"tt-llk-36b092e8\", \"boot\": \"%s\",\n"
                 " \"programs\": {%s%s%s\"trisc0\": \"%s/build/llk/%s\", \"trisc1\": \"%s/build/llk/trisc-t1.elf\", "
                 "\"trisc2\": \"%s/build/llk/trisc-t2.elf\"},\n"
                 " \"l1\": [{\"addr\": \"0x20000\", \"words\": [100, 200, 300, 0, \"0x3e20\"]}],\n"
                 " \"end\": \"kernel_complete\", \"read\": [{\"addr\": \"0x30000\", \"len\": 12, \"file\": "
                 "\"out.bin\"}], \"max_cycles\": 100000}\n",
                 modes[m], m == 0 ? "\"brisc\": \"" : "", m == 0 ? pwd : "", m == 0 ? "/build/llk/brisc-b.elf\", " : "",
                 pwd, m == 1 ? "trisc-boot-t0.elf" : "trisc-t0.elf", pwd, pwd);
        snprintf(path, sizeof path, "/tmp/tensim-lt-llk-%s.json", modes[m]);
        FILE *f = fopen(path, "w");
        cr_assert(f);
        fputs(json, f);
        fclose(f);
        cr_assert_eq(run_cmd(out, sizeof out, "mkdir -p /tmp/tensim-lt-llk-%s && TENSIM_STATS=/tmp/tensim-lt-llk-%s/s.json "
                             "build/umd_host " LIB " %s /tmp/tensim-lt-llk-%s", modes[m], modes[m], path, modes[m]),
                     0, "%s: %s", modes[m], out);
        char got[128];
        snprintf(got, sizeof got, "/tmp/tensim-lt-llk-%s/out.bin", modes[m]);
        size_t n;
        uint32_t *w = (uint32_t *)read_whole_file(got, &n);
        cr_assert(w && n == 12, "%s", modes[m]);
        cr_expect_eq(w[0], 0x1000u + 100, "%s: TRISC0's data word + its argument", modes[m]);
        cr_expect_eq(w[1], 0x1001u + 200, "%s", modes[m]);
        cr_expect_eq(w[2], 0x1002u + 300, "%s", modes[m]);
        free(w);
    }
    /* The host mode's seven set-up instructions went through the debug push into thread 0. */
    json_error_t e;
    json_t *s = json_load_file("/tmp/tensim-lt-llk-host/s.json", 0, &e);
    cr_assert(s, "%s", e.text);
    json_t *t0 = json_object_get(json_object_get(tile_stats(json_object_get(s, "tiles"), 1, 2), "threads"), "T0");
    cr_expect_eq(json_integer_value(json_object_get(t0, "pushed")), 7);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(t0, "instructions"), "SEMINIT")), 3);
    json_decref(s);
}

/* TENSIM_TRACE: the chip's trace as tensim run --trace writes it (every tile's processes, the
 * NoC links), within the format's rules. */
Test(libttsim, trace_at_exit, .timeout = 120)
{
    char out[8192];
    cr_assert_eq(run_cmd(out, sizeof out, "mkdir -p /tmp/tensim-lt-trace && TENSIM_TRACE=/tmp/tensim-lt-trace/t.json "
                         "build/umd_host " LIB " " KCHIP "pipeline3/run.json /tmp/tensim-lt-trace"), 0, "%s", out);
    size_t n;
    char *text = read_whole_file("/tmp/tensim-lt-trace/t.json", &n);
    cr_assert(text);
    struct trace_summary sum;
    char why[512];
    cr_expect(trace_check(text, &sum, why, sizeof why), "%s", why);
    cr_expect(strstr(text, "\"tile (2, 2) RISC-V cores\"") != NULL);
    cr_expect(strstr(text, "\"tile (16, 11) RISC-V cores\"") != NULL, "all 140 tiles");
    cr_expect(strstr(text, "\"NoC links (busy while a packet holds them)\"") != NULL);
    cr_expect_gt(sum.slices, 1000u);
    free(text);
}

/* The host's steps are the device's clock, but never change what the device does: the same
 * chip run polled with clock(1), clock(7) and clock(5000) gives byte-identical statistics. */
Test(libttsim, host_steps_change_nothing, .timeout = 180)
{
    static const unsigned steps[] = {1, 7, 5000};
    char out[8192];
    for (unsigned i = 0; i < 3; i++)
        cr_assert_eq(run_cmd(out, sizeof out, "mkdir -p /tmp/tensim-lt-step%u && UMD_POLL_CLOCK=%u "
                             "TENSIM_STATS=/tmp/tensim-lt-step%u/stats.json build/umd_host " LIB " "
                             KCHIP "alltoall/run.json /tmp/tensim-lt-step%u", steps[i], steps[i], steps[i],
                             steps[i]), 0, "%s", out);
    cr_expect(same_file("/tmp/tensim-lt-step1/stats.json", "/tmp/tensim-lt-step7/stats.json"));
    cr_expect(same_file("/tmp/tensim-lt-step1/stats.json", "/tmp/tensim-lt-step5000/stats.json"));
}

static void read_wrapping(const struct lib *l)
{
    uint32_t v[8];
    l->tile_rd(1, 2, ~0ull - 15, v, sizeof v);
}
static void window_wrapping(const struct lib *l)
{
    const uint32_t w[3] = {0xFFFFFFFFu, 0x7FFu | 1u << 11 | 2u << 17, 0}; /* the last 2 MiB frame */
    for (unsigned i = 0; i < 3; i++)
        l->wr(BAR0 + 0x1FC00000u + 4 * i, &w[i], 4);
    uint32_t v[2];
    l->rd(BAR0 + (2u << 20) - 8, v, 8);
}
static void read_perf_counter(const struct lib *l) { (void)rd32(l, 1, 2, 0xFFB120F0u); }
/* BRISC reads its own empty mailbox and waits there forever; the host ends the chip. */
static void blocked_at_exit(const struct lib *l)
{
    static const uint32_t prog[] = {0xFFEC02B7u /* lui t0, 0xffec0 */, 0x0002A303u /* lw t1, 0(t0) */,
                                    0x0000006Fu /* j . */};
    for (unsigned i = 0; i < 3; i++)
        wr32(l, 1, 2, 4 * i, prog[i]);
    wr32(l, 1, 2, 0xFFB121B0u, 0x47000u);
    l->clock(100);
    l->exit();
}

Test(libttsim, addresses_that_wrap_and_registers_in_the_block)
{
    expect_death(read_wrapping, NULL, 103, "tile (1, 2) 0xfffffffffffffff0 + 32: outside L1");
    expect_death(window_wrapping, NULL, 103, "tile (1, 2) 0xfffffffffffffff8 + 8: outside L1");
    expect_death(read_perf_counter, NULL, 0, ""); /* core/perf_counters.c answers the host too */
    expect_death(blocked_at_exit, NULL, 0, "tensim: libttsim: 100 cycles\n");
}

/* ---- the device's accesses to host memory (fast dispatch's path) ---- */

#define HOST_BASE 0x100000u /* where the iATU below puts the device's host window */
static uint8_t host_mem[0x10000];
static void host_dma_rd(uint64_t paddr, void *dst, uint32_t n)
{
    cr_assert(paddr >= HOST_BASE && paddr + n <= HOST_BASE + sizeof host_mem, "read at 0x%llx",
              (unsigned long long)paddr);
    memcpy(dst, host_mem + (paddr - HOST_BASE), n);
}
static void host_dma_wr(uint64_t paddr, const void *src, uint32_t n)
{
    cr_assert(paddr >= HOST_BASE && paddr + n <= HOST_BASE + sizeof host_mem, "write at 0x%llx",
              (unsigned long long)paddr);
    memcpy(host_mem + (paddr - HOST_BASE), src, n);
}

#define NIU0 0xFFB20000u
#define XY(x, y) ((uint32_t)(x) | (uint32_t)(y) << 6)

/* BRISC of (1, 2): 64 bytes from its L1 0x20000 to NoC address (4 << 58) + 0x1000 at the PCIe
 * tile (2, 0) (a posted write, command buffer 0), then 64 bytes from (4 << 58) + 0x2000 there
 * into its L1 0x30000 (a read, command buffer 1), then it spins. */
static unsigned dma_program(uint32_t *words)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0);
    static const uint32_t cmd[2][9][2] = {
        {{0x00, 0x20000}, {0x04, 0}, {0x08, XY(1, 2)}, {0x0C, 0x1000}, {0x10, 0x10000000}, {0x14, XY(2, 0)},
         {0x1C, 0x2}, {0x20, 64}, {0x40, 1}},
        {{0x00, 0x2000}, {0x04, 0x10000000}, {0x08, XY(2, 0)}, {0x0C, 0x30000}, {0x10, 0}, {0x14, XY(1, 2)},
         {0x1C, 0x0}, {0x20, 64}, {0x40, 1}}};
    for (unsigned b = 0; b < 2; b++)
        for (unsigned i = 0; i < 9; i++)
            emit_store(&p, NIU0 + 0x800 * b + cmd[b][i][0], cmd[b][i][1]);
    emit(&p, 0x0000006Fu); /* j . */
    const unsigned n = p.pc / 4;
    memcpy(words, t->l1, 4 * n);
    tile_destroy(t);
    return n;
}

Test(libttsim, device_reads_and_writes_host_memory_through_the_iatu)
{
    struct lib l = open_lib();
    void (*set_dma)(void (*)(uint64_t, void *, uint32_t), void (*)(uint64_t, const void *, uint32_t));
    *(void **)&set_dma = dlsym(l.h, "libttsim_set_pci_dma_mem_callbacks");
    cr_assert(set_dma);
    set_dma(host_dma_rd, host_dma_wr);
    l.init();
    /* UMD's outbound region 0: offsets [0, 1 GiB) to host HOST_BASE + offset */
    static const uint32_t iatu[][2] = {{0x04, 0}, {0x00, 0}, {0x08, 0}, {0x0C, 0}, {0x10, (1u << 30) - 1},
                                       {0x14, HOST_BASE}, {0x18, 0}, {0x04, 0x80000000u}};
    for (unsigned i = 0; i < 8; i++)
        l.wr(0x120000000ull + 0x1000 + iatu[i][0], &iatu[i][1], 4);
    for (unsigned i = 0; i < 64; i++) {
        host_mem[0x2000 + i] = (uint8_t)(0xA0 + i);
        uint32_t w = 0x11111111u * (i % 16);
        if (i < 16)
            wr32(&l, 1, 2, 0x20000 + 4 * i, w);
    }
    uint32_t prog[256];
    const unsigned n = dma_program(prog);
    for (unsigned i = 0; i < n; i++)
        wr32(&l, 1, 2, 4 * i, prog[i]);
    wr32(&l, 1, 2, 0xFFB121B0u, 0x47000u); /* BRISC out of reset */
    unsigned cycles = 0;
    while (rd32(&l, 1, 2, 0x30000) != 0xA3A2A1A0u && cycles < 20000)
        cycles++;
    /* the PCIe tile's 1000 cycles (an estimate, core/chip.c PCIE_LATENCY) and the NoC's trips:
     * 11 hops there (east, then south round the ring), 18 back, 9 cycles each and 10 in and out */
    cr_expect_gt(cycles, 1000u + 29 * 9 + 2 * 10, "%u", cycles);
    cr_expect_lt(cycles, 1600u, "%u: the read's data never arrived, or late", cycles);
    for (unsigned i = 0; i < 16; i++) {
        uint32_t w;
        memcpy(&w, host_mem + 0x1000 + 4 * i, 4);
        cr_expect_eq(w, 0x11111111u * i, "host word %u, written by the tile through the iATU", i);
    }
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(rd32(&l, 1, 2, 0x30000 + 4 * i), 0xA3A2A1A0u + 0x04040404u * i);
    l.exit();
    dlclose(l.h);
}

/* Without a host (tensim run), the same program's request to the PCIe tile is its error. */
Test(libttsim, no_host_memory_in_a_run_without_a_host)
{
    struct chip *c = chip_create(arch_get(ARCH_BLACKHOLE));
    cr_assert(c);
    const char *why;
    struct tile *t = chip_add_tile(c, 1, 2, &why);
    cr_assert(t, "%s", why);
    uint32_t prog[256];
    const unsigned n = dma_program(prog);
    memcpy(t->l1, prog, 4 * n);
    tile_code_written(t, 0, 4 * n);
    tile_start_core(t, CORE_BRISC, 0);
    chip_sim(c)->max_cycles = 10000;
    cr_expect_eq(chip_run(c), ERR_BAD_ACCESS);
    cr_expect(strstr(t->err.text, "NoC 0 posted write from (1, 2) to (2, 0): no host memory behind the "
                                  "PCIe tile") != NULL, "%s", t->err.text);
    chip_destroy(c);
}
