/* A host driver of our own that drives a libttsim library exactly as Tenstorrent's UMD does
 * (tt-umd 3ed9cb6, device/simulation/ and device/tt_device/tt_sim_tt_device.cpp; the sequence
 * is written out in docs/libttsim.md section 2), to run tensim's example kernels through the
 * library and read their results back. No UMD code: the steps, in UMD's order.
 *
 *   umd_host [--memfd] LIB RUN.JSON OUTDIR
 *
 * RUN.JSON is a chip run description (docs/run-description.md "Chips"): its tiles' L1 writes and
 * programs, its DRAM writes, go in through the library's address windows; every core with a
 * program is released from soft reset; the driver then polls until every such core has halted
 * (tensim's status page, BAR0 + 0x1FF00000: the examples end with ecall 93, which no L1 mailbox
 * shows), and writes each "read" / "dram_read" into OUTDIR under its file's base name. It prints
 * one line per tile with the cycle its cores were released, and exits 0 when every core exited
 * with 0. A run description of one tile (tt-llk's programs, "boot" brisc, trisc or host, "end":
 * "kernel_complete") runs on tile (1, 2) as tt-llk's harness runs it through tt-exalens: cores
 * held, L1 and the reset pcs written, the boot played (BRISC's START_TRISCS command, or the
 * device set-up pushed through the debug registers), the mailboxes polled.
 * --memfd loads the library from a sealed memory file, as UMD's copy_sim_binary does. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../core/arch.h"
#include "../../core/host.h"
#include "../../core/hostio.h"
#include "../../mem/elf.h"
#include "../../core/run_desc.h"
#include "../../core/tile.h"

/* The nine functions UMD resolves (tt_sim_communicator.cpp, DLSYM_FUNCTION). */
static struct {
    void (*init)(void);
    void (*exit)(void);
    void (*set_dma)(void (*)(uint64_t, void *, uint32_t), void (*)(uint64_t, const void *, uint32_t));
    uint32_t (*config_rd32)(uint32_t, uint32_t);
    void (*mem_rd)(uint64_t, void *, uint32_t);
    void (*mem_wr)(uint64_t, const void *, uint32_t);
    void (*tile_rd)(uint32_t, uint32_t, uint64_t, void *, uint32_t);
    void (*tile_wr)(uint32_t, uint32_t, uint64_t, const void *, uint32_t);
    void (*clock)(uint32_t);
} sim;

static uint64_t bar0, bar2;

static _Noreturn void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("umd_host: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* The device's DMA into host memory (unused by these kernels: UMD's hugepage callbacks). */
static void dma_rd(uint64_t paddr, void *dst, uint32_t size)
{
    (void)dst;
    fail("unexpected device read of host memory at 0x%" PRIx64 " (%u bytes)", paddr, size);
}
static void dma_wr(uint64_t paddr, const void *src, uint32_t size)
{
    (void)src;
    fail("unexpected device write of host memory at 0x%" PRIx64 " (%u bytes)", paddr, size);
}

/* ---- loading: probe, then load for use (tt_sim_communicator.cpp initialize) ---- */

static void *open_memfd_copy(const char *path)
{
    size_t n;
    char why[200];
    uint8_t *buf = host_read_file(path, 1u << 30, &n, why, sizeof why);
    if (!buf)
        fail("%s: %s", path, why);
    const int fd = memfd_create("libttsim", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0 || write(fd, buf, n) != (ssize_t)n ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL))
        fail("memfd copy of %s: %s", path, strerror(errno));
    free(buf);
    char name[64];
    snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
    return dlopen(name, RTLD_LAZY);
}

static void load(const char *path, bool memfd)
{
    void *probe = dlopen(path, RTLD_LAZY);
    if (!probe)
        fail("dlopen %s: %s", path, dlerror());
    if (dlsym(probe, "libttsim_create_device_by_id") || dlsym(probe, "libttsim_select_device_by_id"))
        fail("%s exports the multichip functions: UMD would take its multichip path", path);
    dlclose(probe);
    void *h = memfd ? open_memfd_copy(path) : dlopen(path, RTLD_LAZY);
    if (!h)
        fail("dlopen %s: %s", path, dlerror());
#define SYM(field, name)                                                                         \
    do {                                                                                         \
        *(void **)&sim.field = dlsym(h, name);                                                   \
        if (!sim.field)                                                                          \
            fail("%s has no %s", path, name);                                                    \
    } while (0)
    SYM(init, "libttsim_init");
    SYM(exit, "libttsim_exit");
    SYM(set_dma, "libttsim_set_pci_dma_mem_callbacks");
    SYM(config_rd32, "libttsim_pci_config_rd32");
    SYM(mem_rd, "libttsim_pci_mem_rd_bytes");
    SYM(mem_wr, "libttsim_pci_mem_wr_bytes");
    SYM(tile_rd, "libttsim_tile_rd_bytes");
    SYM(tile_wr, "libttsim_tile_wr_bytes");
    SYM(clock, "libttsim_clock");
#undef SYM
}

/* ---- start-up: configuration space, the iATU (tt_sim_tt_device.cpp) ---- */

static uint64_t bar(unsigned lo)
{
    return (uint64_t)(sim.config_rd32(0, lo) & ~0xFu) | (uint64_t)sim.config_rd32(0, lo + 4) << 32;
}

static void wr32(uint64_t paddr, uint32_t v) { sim.mem_wr(paddr, &v, 4); }

static void start(void)
{
    sim.set_dma(dma_rd, dma_wr);
    sim.init();
    const uint32_t id = sim.config_rd32(0, 0);
    if (sim.config_rd32(0, 0) != id || (id & 0xFFFF) != 0x1E52 || id >> 16 != 0xB140)
        fail("PCI ids 0x%08x: not a Tenstorrent Blackhole", id);
    bar0 = bar(0x10);
    (void)bar(0x20); /* BAR4: read, not used by the allocator */
    /* One host memory channel: outbound iATU region 0, in UMD's order of writes. */
    bar2 = bar(0x18);
    const uint64_t r = bar2 + 0x1000;
    wr32(r + 0x04, 0);
    wr32(r + 0x00, 0);
    wr32(r + 0x08, 0);
    wr32(r + 0x0C, 0);
    wr32(r + 0x10, (1u << 30) - 1);
    wr32(r + 0x14, 0);
    wr32(r + 0x18, 0);
    wr32(r + 0x04, 0x80000000u);
}

/* ---- tile access through window 0 (tlb_window.cpp, simulation_tt_device.cpp) ---- */

#define WIN (2u << 20)
#define TLB_CFG 0x1FC00000u

static void configure_window(unsigned x, unsigned y, uint64_t addr)
{
    const uint64_t off = addr >> 21; /* bits 0-42 */
    const uint32_t w[3] = {(uint32_t)off, (uint32_t)(off >> 32 & 0x7FF) | x << 11 | y << 17, 0};
    for (unsigned i = 0; i < 3; i++)
        wr32(bar0 + TLB_CFG + 4 * i, w[i]);
}

static void host_write(unsigned x, unsigned y, uint64_t addr, const void *buf, uint64_t n)
{
    const uint8_t *p = buf;
    while (n) {
        const uint64_t in = addr % WIN, chunk = n < WIN - in ? n : WIN - in;
        configure_window(x, y, addr);
        sim.mem_wr(bar0 + in, p, (uint32_t)chunk);
        addr += chunk, p += chunk, n -= chunk;
    }
}

static void host_read(unsigned x, unsigned y, uint64_t addr, void *buf, uint64_t n)
{
    uint8_t *p = buf;
    while (n) {
        const uint64_t in = addr % WIN, chunk = n < WIN - in ? n : WIN - in;
        configure_window(x, y, addr);
        sim.mem_rd(bar0 + in, p, (uint32_t)chunk);
        addr += chunk, p += chunk, n -= chunk;
    }
    sim.clock(1); /* after_read */
}

/* ---- soft reset (assert_risc_reset / deassert_risc_reset) ---- */

#define SOFT_RESET_0 0xFFB121B0u
/* SOFT_RESET_0's bit of each core (blackhole_implementation.hpp: BRISC 11, TRISC0-2 12-14,
 * NCRISC 18) */
static unsigned reset_bit(int core)
{
    return core == CORE_BRISC ? 11 : core == CORE_NCRISC ? 18 : 12u + (unsigned)(core - CORE_TRISC0);
}

static void set_reset(unsigned x, unsigned y, uint32_t bits, bool on)
{
    uint32_t v;
    host_read(x, y, SOFT_RESET_0, &v, 4);
    v = on ? v | bits : v & ~bits;
    host_write(x, y, SOFT_RESET_0, &v, 4);
}

/* Coordinates: UMD's simulation device runs with NoC translation off, so it addresses every
 * core, DRAM included, by its NoC 0 coordinates (docs/libttsim.md 2.4); so does this driver. */

/* ---- a tile's L1 as the loader leaves it ---- */

/* The bytes a tile's L1 holds once its description's writes and programs are in: tensim's own
 * loader (core/host.c host_l1_write, mem/elf.c elf_load) applied to a scratch tile, which only
 * computes them; every 4 KiB page that is not all zeros then goes to the device through the
 * windows (its L1 is zero at power-on). Entry points in entry[] for the cores with a program. */
static void copy_l1(const struct tile *scratch, unsigned x, unsigned y)
{
    static const uint8_t zero[4096];
    for (uint32_t a = 0; a < scratch->arch->l1_size; a += 4096)
        if (memcmp(scratch->l1 + a, zero, 4096))
            host_write(x, y, a, scratch->l1 + a, 4096);
}

static void load_tile(const struct run_desc *rd, const struct run_tile *rt, uint32_t entry[NUM_CORES])
{
    struct tile *scratch = tile_create(arch_get(ARCH_BLACKHOLE));
    if (!scratch)
        fail("out of memory");
    for (unsigned j = 0; j < rt->nl1; j++)
        if (host_l1_write(scratch, rd, &rt->l1[j]))
            fail("%s", scratch->err.text);
    for (int k = 0; k < NUM_CORES; k++) {
        struct elf_file f;
        if (!rt->program[k])
            continue;
        if (elf_read(scratch, k, rt->program[k], &f) || elf_load(scratch, k, &f, rd->loader, &entry[k]))
            fail("%s", scratch->err.text);
        elf_free(&f);
    }
    copy_l1(scratch, rt->x, rt->y);
    tile_destroy(scratch);
}

/* A run description's words or file's bytes, written at (x, y) addr. */
static void write_input(unsigned x, unsigned y, uint64_t addr, const uint32_t *words, uint32_t nwords,
                        const char *file)
{
    if (!file) {
        host_write(x, y, addr, words, 4ull * nwords);
        return;
    }
    size_t n;
    char why[200];
    uint8_t *buf = host_read_file(file, 1u << 30, &n, why, sizeof why);
    if (!buf)
        fail("%s: %s", file, why);
    host_write(x, y, addr, buf, n);
    free(buf);
}

static void dump(const char *outdir, const char *file, const void *buf, uint64_t n)
{
    const char *base = strrchr(file, '/');
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, base ? base + 1 : file);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, n, f) != n || fclose(f))
        fail("cannot write %s", path);
}

/* tensim's status page (docs/libttsim.md "Using it"): read without a clock, as it is ours, not
 * UMD's. */
#define STATUS 0x1FF00000u
#define GRID_W 17

static uint64_t device_cycle(void)
{
    uint32_t now[2];
    sim.mem_rd(bar0 + STATUS + 4, now, 8);
    return (uint64_t)now[1] << 32 | now[0];
}

/* ---- a run of one tile booted as tt-llk's harness boots it (docs/run-description.md) ---- */

/* The tile tt-llk's tests run on: the first Tensix tile, (1, 2) in NoC 0 coordinates. */
#define LLK_X 1
#define LLK_Y 2

static uint32_t rd_word(uint32_t addr)
{
    uint32_t v;
    host_read(LLK_X, LLK_Y, addr, &v, 4);
    return v;
}

static void wr_word(uint32_t addr, uint32_t v) { host_write(LLK_X, LLK_Y, addr, &v, 4); }

/* What the harness puts in L1 and the tile's registers before the cores start: tensim's own
 * boot set-up (core/host.c host_setup) applied to a scratch tile, whose L1 pages and boot
 * registers are then written to the device through the library. The scratch tile only computes
 * the bytes (the tt-exalens loader's sections, the harness's marks); the device never sees it. */
static int llk_run(const struct run_desc *rd, const char *outdir)
{
    struct tile *scratch = tile_create(arch_get(ARCH_BLACKHOLE));
    static struct host h;
    if (!scratch || host_setup(&h, scratch, rd))
        fail("%s: %s", rd->path, scratch ? scratch->err.text : "out of memory");
    set_reset(LLK_X, LLK_Y, 0x47800u, true);
    copy_l1(scratch, LLK_X, LLK_Y);
    const struct tile_boot_regs *b = &scratch->boot;
    for (unsigned i = 0; i < NUM_THREADS; i++)
        wr_word(0xFFB12228u + 4 * i, b->trisc_reset_pc[i]);
    wr_word(0xFFB12234u, b->reset_pc_override);
    wr_word(0xFFB12238u, b->ncrisc_reset_pc);
    wr_word(0xFFB1223Cu, b->ncrisc_override);
    if (rd->boot == BOOT_HOST)
        wr_word(0xFFB12240u, 0); /* DEST_CG_CTRL, the harness's first write */
    if (rd->naction || (rd->end >= 0 && !rd->end_kernel_complete))
        fail("%s: umd_host plays the boot modes and kernel_complete, not host actions or other end "
             "conditions", rd->path);
    /* The release as host_setup made it (BRISC, TRISC0, or none yet for the host boot). */
    uint32_t v = rd_word(0xFFB121B0u);
    wr_word(0xFFB121B0u, (v & ~0x47800u) | (b->soft_reset & 0x47800u));
    printf("tile (%u, %u): released at cycle %" PRIu64 "\n", LLK_X, LLK_Y, device_cycle());
    const struct llk_layout *l = &h.place;
    const uint32_t triscs = 0x7000u;
    if (rd->boot == BOOT_HOST) {
        /* tt-exalens pushes device set-up through the debug bus, then releases the TRISCs. */
        uint32_t w[7];
        const unsigned n = host_setup_words(scratch, w);
        wr_word(0xFFB120A0u, 0x1);
        for (unsigned i = 0; i < n; i++) {
            while (!(rd_word(0xFFB120A8u) & 1)) /* not full */
                ;
            wr_word(0xFFB120A4u, w[i]);
            wr_word(0xFFB120A0u, 0x11);
            wr_word(0xFFB120A0u, 0x1);
        }
        wr_word(0xFFB120A0u, 0);
        v = rd_word(0xFFB121B0u);
        wr_word(0xFFB121B0u, v & ~triscs);
    }
    bool started = rd->boot != BOOT_BRISC;
    uint64_t polls = 0;
    const uint64_t max_polls = rd->max_cycles ? rd->max_cycles : 100000000;
    for (;;) {
        if (polls++ == max_polls)
            fail("the kernel did not complete within %" PRIu64 " polls", max_polls);
        if (!started && rd_word(l->brisc_counter) == 0) {
            /* BRISC polls its command slot: START_TRISCS runs device set-up, releases TRISCs */
            wr_word(l->brisc_command[0], l->start_triscs);
            started = true;
        }
        bool done = true;
        if (rd->end_kernel_complete) {
            uint32_t m[LLK_THREADS];
            for (unsigned i = 0; i < LLK_THREADS; i++)
                m[i] = rd_word(l->mailbox[i]);
            for (unsigned i = 0; i < LLK_THREADS; i++)
                done &= m[i] == l->kernel_complete;
        } else {
            uint32_t st[8];
            sim.mem_rd(bar0 + 0x1FF00000u + 0x100 + (LLK_Y * 17 + LLK_X) * 32, st, sizeof st);
            sim.clock(1);
            done = st[0] >> 10 & 1;
        }
        if (done)
            break;
    }
    printf("every tile done by cycle %" PRIu64 " (%" PRIu64 " polls)\n", device_cycle(), polls);
    for (unsigned j = 0; j < rd->nread; j++) {
        const struct run_read *r = &rd->read[j];
        uint8_t *buf = malloc(r->len ? r->len : 1);
        host_read(LLK_X, LLK_Y, r->addr, buf, r->len);
        dump(outdir, r->file, buf, r->len);
        free(buf);
    }
    host_free(&h);
    tile_destroy(scratch);
    return 0;
}

/* ---- the run ---- */


int main(int argc, char **argv)
{
    bool memfd = argc > 1 && !strcmp(argv[1], "--memfd");
    if (argc != 4 + memfd)
        fail("usage: umd_host [--memfd] LIB RUN.JSON OUTDIR");
    const char *lib = argv[1 + memfd], *desc = argv[2 + memfd], *outdir = argv[3 + memfd];
    static struct run_desc rd;
    char err[512];
    if (run_desc_load(&rd, desc, arch_get(ARCH_BLACKHOLE), err, sizeof err))
        fail("%s: %s", desc, err);
    load(lib, memfd);
    start();
    if (!rd.chip) {
        const int code = llk_run(&rd, outdir);
        sim.exit();
        run_desc_free(&rd);
        return code;
    }
    const struct run_chip *rc = rd.chip;
    /* Hold every core of the tiles in reset while loading (tt-metal and tt-llk's harness do). */
    for (unsigned i = 0; i < rc->ntiles; i++)
        set_reset(rc->tile[i].x, rc->tile[i].y, 0x47800u, true);
    for (unsigned i = 0; i < rc->ndram; i++) {
        const struct run_dram_write *w = &rc->dram[i];
        write_input(w->x, w->y, w->addr, rd.words + w->first, w->nwords, w->file);
    }
    uint32_t running[256] = {0}; /* per tile: the reset bits of the cores with a program */
    for (unsigned i = 0; i < rc->ntiles; i++) {
        const struct run_tile *t = &rc->tile[i];
        uint32_t entries[NUM_CORES];
        load_tile(&rd, t, entries);
        for (int k = 0; k < NUM_CORES; k++) {
            if (!t->program[k])
                continue;
            const uint32_t entry = entries[k];
            running[i] |= 1u << reset_bit(k);
            if (k == CORE_BRISC && entry != 0)
                fail("%s: BRISC starts at 0, its entry is 0x%x", t->program[k], entry);
            if (k != CORE_BRISC && k != CORE_NCRISC) { /* TRISCn_RESET_PC, override bit */
                const unsigned th = (unsigned)(k - CORE_TRISC0);
                uint32_t over;
                host_write(t->x, t->y, 0xFFB12228u + 4 * th, &entry, 4);
                host_read(t->x, t->y, 0xFFB12234u, &over, 4);
                over |= 1u << th;
                host_write(t->x, t->y, 0xFFB12234u, &over, 4);
            } else if (k == CORE_NCRISC) {
                const uint32_t on = 1;
                host_write(t->x, t->y, 0xFFB12238u, &entry, 4);
                host_write(t->x, t->y, 0xFFB1223Cu, &on, 4);
            }
        }
    }
    for (unsigned i = 0; i < rc->ntiles; i++) {
        set_reset(rc->tile[i].x, rc->tile[i].y, running[i], false);
        printf("tile (%u, %u): released at cycle %" PRIu64 "\n", rc->tile[i].x, rc->tile[i].y,
               device_cycle());
    }
    /* Poll until every started core has halted and its tile has drained: one read of the status
     * page, one clock. */
    static uint32_t status[0x100 / 4 + GRID_W * 12 * 8];
    const uint64_t max_polls = rd.max_cycles ? rd.max_cycles : 100000000;
    /* UMD_POLL_CLOCK=n: clock(n) after each poll instead of clock(1) (a test of the library:
     * the device must do the same whatever the host's steps) */
    const char *pc = getenv("UMD_POLL_CLOCK");
    const uint32_t poll_clock = pc && atoi(pc) > 0 ? (uint32_t)atoi(pc) : 1;
    bool done = false;
    uint64_t polls = 0;
    while (!done) {
        if (polls++ == max_polls)
            fail("the cores did not halt within %" PRIu64 " polls", max_polls);
        sim.mem_rd(bar0 + STATUS, status, sizeof status);
        sim.clock(poll_clock);
        done = status[3] == 1; /* nothing left on the NoC: the last DRAM writes have landed */
        for (unsigned i = 0; i < rc->ntiles && done; i++)
            for (int k = 0; k < NUM_CORES; k++) {
                const uint32_t s = status[0x40 + (rc->tile[i].y * GRID_W + rc->tile[i].x) * 8 + k];
                if (s >> 16 & 1)
                    fail("tile (%u, %u) stopped with an error", rc->tile[i].x, rc->tile[i].y);
                /* every started core halted, and the tile drained (bit 10) */
                if (running[i] && (!(s >> 10 & 1) || (running[i] >> reset_bit(k) & 1 && !(s >> 8 & 1))))
                    done = false;
            }
    }
    int code = 0;
    for (unsigned i = 0; i < rc->ntiles; i++)
        for (int k = 0; k < NUM_CORES; k++) {
            const uint32_t s = status[0x40 + (rc->tile[i].y * GRID_W + rc->tile[i].x) * 8 + k];
            if (running[i] >> reset_bit(k) & 1 && (s & 0xFF)) {
                printf("tile (%u, %u) %s: exit code %u\n", rc->tile[i].x, rc->tile[i].y,
                       core_name(k), s & 0xFF);
                code = 1;
            }
        }
    printf("every tile done by cycle %" PRIu64 " (%" PRIu64 " polls)\n",
           (uint64_t)status[2] << 32 | status[1], polls);
    for (unsigned i = 0; i < rc->ntiles; i++)
        for (unsigned j = 0; j < rc->tile[i].nread; j++) {
            const struct run_read *r = &rc->tile[i].read[j];
            uint8_t *buf = malloc(r->len ? r->len : 1);
            host_read(rc->tile[i].x, rc->tile[i].y, r->addr, buf, r->len);
            dump(outdir, r->file, buf, r->len);
            free(buf);
        }
    for (unsigned i = 0; i < rc->ndram_read; i++) {
        const struct run_dram_read *r = &rc->dram_read[i];
        uint8_t *buf = malloc(r->len ? r->len : 1);
        host_read(r->x, r->y, r->addr, buf, r->len);
        dump(outdir, r->file, buf, r->len);
        free(buf);
    }
    sim.exit();
    run_desc_free(&rd);
    return code;
}
