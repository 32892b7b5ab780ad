/* The libttsim interface (docs/libttsim.md): tensim as the shared library Tenstorrent's UMD
 * loads where it loads ttsim (tt-umd device/simulation/tt_sim_communicator.cpp resolves these
 * nine names with dlsym). A Blackhole chip with all 140 Tensix tiles, seen by the host as a PCIe
 * device: its configuration space, BAR0's 2 MiB address windows (TLB) and their registers, the
 * outbound iATU registers in BAR2, BAR4's 4 GiB windows. Host accesses land in the chip between
 * windows (core/chip.h chip_host_*); simulated time moves only in libttsim_clock.
 *
 * The interface is process-wide by its nature (no handle is passed), so this file keeps the one
 * library state in a static pointer, filled by libttsim_init and freed by libttsim_exit; nothing
 * runs at load (UMD loads the library twice) and no thread outlives a call (users fork after
 * init). UMD serialises the calls with its own mutex.
 *
 * Facts: UMD 3ed9cb6 (TLB window layout: chip_helpers/simulation_tlb_allocator.cpp,
 * arch/blackhole_implementation.hpp TLB_2M_OFFSET / TLB_4G_OFFSET; translated coordinates:
 * blackhole_implementation.hpp; the iATU writes: tt_device/tt_sim_tt_device.cpp), and what ttsim
 * 56694c8 answers where UMD only reads (PCI configuration values, BAR bases). The status page
 * in BAR0 is tensim's own (below). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../trace/trace.h"
#include "chip.h"
#include "timing.h"

#define EXPORT __attribute__((visibility("default")))

/* The BARs (ttsim's layout: a private address space between UMD and the library). */
#define BAR0 0x100000000ull
#define BAR0_SIZE 0x20000000ull /* 512 MiB */
#define BAR2 0x120000000ull
#define BAR2_SIZE 0x100000ull /* 1 MiB */
#define BAR4 0x800000000ull
#define BAR4_SIZE (32ull << 30)

#define WIN_2M (2ull << 20)
#define N_2M 202                  /* windows 0-201 in BAR0 */
#define N_4G 8                    /* windows 202-209 in BAR4 */
#define TLB_REGS 0x1FC00000ull    /* + 12 x window: three 32-bit words each */
#define TLB_WORDS (3 * (N_2M + N_4G))
/* tensim's status page (read-only): not in UMD or ttsim; our own driver polls it to learn when
 * the example kernels end (they halt with ecall 93 instead of writing a mailbox). */
#define STATUS_PAGE 0x1FF00000ull
#define STATUS_MAGIC 0x4D534E54u /* "TNSM" */
#define STATUS_CORES 0x100u      /* + ((y * 17 + x) * 8 + core) * 4 */

#define IATU_BASE 0x1000u /* BAR2: 32 slots of 0x100 bytes, even outbound, odd inbound */
#define IATU_SIZE 0x2000u

/* Advances of this many cycles or more run on worker threads; shorter ones (UMD's clock(1)
 * after every read) on the caller's. */
#define THREADED_ADVANCE 4096

struct lib {
    struct arch arch; /* Blackhole with TENSIM_TIMING's changes */
    struct chip *chip;
    void (*dma_rd)(uint64_t paddr, void *dst, uint32_t size);
    void (*dma_wr)(uint64_t paddr, const void *src, uint32_t size);
    uint32_t tlb[TLB_WORDS];
    uint32_t iatu[IATU_SIZE / 4];
    unsigned threads;
    uint64_t cycles_per_clock; /* TENSIM_HOST_CLOCK: chip cycles per libttsim_clock step */
    const char *stats_path;
    bool report;
    pid_t pid; /* the process that called libttsim_init (a forked child is not it) */
    /* TENSIM_TRACE: every tile's tracer, parts of one document written at exit */
    FILE *trace_f;
    const char *trace_path;
    struct tracer *tr;
    struct trace_doc doc;
};

/* What libttsim_set_pci_dma_mem_callbacks gave before init. */
static void (*pending_rd)(uint64_t, void *, uint32_t);
static void (*pending_wr)(uint64_t, const void *, uint32_t);
static struct lib *L;

/* ---- errors: UMD cannot take an error back, so each one ends the process ---- */

static void write_stats(void)
{
    if (!L->stats_path)
        return;
    FILE *f = fopen(L->stats_path, "w");
    if (!f) {
        fprintf(stderr, "tensim: %s: cannot write %s\n", err_kind_text(ERR_HOST), L->stats_path);
        return;
    }
    chip_stats_json(L->chip, f);
    fputc('\n', f);
    fclose(f);
}

static _Noreturn void die(enum err_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The trace: each tile's part, then the NoC links (as tensim run --trace writes a chip's). */
static void write_trace(void)
{
    if (!L->tr)
        return;
    const unsigned n = chip_ntiles(L->chip);
    trace_doc_begin(&L->doc, L->trace_f);
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        ok &= trace_end(&L->tr[i]);
        chip_tile(L->chip, i)->tracer = NULL;
    }
    ok &= chip_link_trace(L->chip, &L->doc, trace_doc_pid_after(n), 0, TRACE_NO_END);
    trace_doc_end(&L->doc);
    if (fclose(L->trace_f) || !ok)
        fprintf(stderr, "tensim: %s: the trace %s is incomplete (out of memory or disk)\n",
                err_kind_text(ERR_HOST), L->trace_path);
    free(L->tr);
    L->tr = NULL;
}

static void start_trace(void)
{
    const unsigned n = chip_ntiles(L->chip);
    if (!(L->trace_f = fopen(L->trace_path, "w")))
        die(ERR_HOST, "TENSIM_TRACE: cannot write %s", L->trace_path);
    if (!(L->tr = calloc(n, sizeof *L->tr)))
        die(ERR_HOST, "out of memory for the trace");
    for (unsigned i = 0; i < n; i++) {
        unsigned x, y;
        char name[32];
        chip_tile_coords(L->chip, i, &x, &y);
        snprintf(name, sizeof name, "tile (%u, %u)", x, y);
        trace_begin(&L->tr[i], L->trace_f, chip_tile(L->chip, i));
        trace_part(&L->tr[i], &L->doc, i, name);
        chip_tile(L->chip, i)->tracer = &L->tr[i];
    }
    chip_trace_links(L->chip);
}

/* The first tile error in tile order, printed with the tile's place; its exit code. */
static int tile_errors(void)
{
    for (unsigned i = 0; i < chip_ntiles(L->chip); i++) {
        const struct tile *t = chip_tile(L->chip, i);
        if (t->err.kind == ERR_NONE)
            continue;
        unsigned x, y;
        chip_tile_coords(L->chip, i, &x, &y);
        fprintf(stderr, "tensim: libttsim: tile (%u, %u):\n", x, y);
        sim_print_error(&t->err, stderr);
        return err_kind_exit_code(t->err.kind);
    }
    return 0;
}

static _Noreturn void die(enum err_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tensim: %s: libttsim: ", err_kind_text(kind));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (L && L->chip) {
        chip_stop(L->chip);
        tile_errors();
        write_stats();
        write_trace();
    }
    fflush(NULL);
    _Exit(err_kind_exit_code(kind));
}

static void need_init(const char *fn)
{
    if (!L)
        die(ERR_USAGE, "%s called before libttsim_init", fn);
}

/* ---- coordinates: UMD's translated ones to NoC 0 (docs/libttsim.md 2.4) ---- */

/* UMD's simulation device runs with NoC translation off (tt_sim_tt_device.cpp builds a default
 * ChipInfo; blackhole_coordinate_manager.cpp then maps DRAM identically), so UMD itself sends
 * NoC 0 coordinates; the translated ones below are what a tool with translation on would send.
 * DRAM: bank b's port p at (17 + b / 4, 12 + 3 (b % 4) + p) (map_dram_banks), the banks' ports
 * in the SoC descriptor's `dram:` order. ttsim orders banks 2 and 3 the other way round and puts
 * x 18 west; UMD is what sends these, so tensim follows UMD. */
static void noc0_of(unsigned tx, unsigned ty, unsigned *x, unsigned *y)
{
    /* DRAM banks' ports in translated rows 12-23: which NoC 0 row each is. */
    static const uint8_t dram_row[12] = {0, 1, 11, 2, 10, 3, 9, 4, 8, 5, 7, 6};
    *x = tx, *y = ty;
    if ((tx == 17 || tx == 18) && ty >= 12 && ty <= 23) {
        *x = tx == 17 ? 0 : 9;
        *y = dram_row[ty - 12];
    } else if (tx >= 20 && tx <= 31 && ty == 25) {
        const unsigned k = tx - 20;
        *x = k & 1 ? 16 - k / 2 : 1 + k / 2;
        *y = 1;
    } else if (tx == 19 && ty == 24) {
        *x = 2, *y = 0;
    }
}

static void tile_access(unsigned tx, unsigned ty, uint64_t addr, void *buf, uint32_t n, bool write)
{
    unsigned x, y;
    noc0_of(tx, ty, &x, &y);
    char why[300];
    const bool ok = write ? chip_host_write(L->chip, x, y, addr, buf, n, why, sizeof why)
                          : chip_host_read(L->chip, x, y, addr, buf, n, why, sizeof why);
    if (ok)
        return;
    const struct tile *t = chip_tile_at(L->chip, x, y);
    die(t && t->err.kind != ERR_NONE ? t->err.kind : ERR_BAD_ACCESS,
        "host %s of %u bytes at (%u, %u) 0x%" PRIx64 ": %s", write ? "write" : "read", n, tx, ty,
        addr, why);
}

/* ---- BAR0 and BAR4: the address windows ---- */

/* Window i's target: its NoC coordinates and the address of the window's first byte. */
static void window_target(unsigned i, unsigned *x, unsigned *y, uint64_t *base)
{
    const uint32_t *w = &L->tlb[3 * i];
    if (i < N_2M) { /* 96 bits: local_offset 0-42, x_end 43-48, y_end 49-54, ... */
        const uint64_t lo = (uint64_t)w[0] | (uint64_t)(w[1] & 0x7FF) << 32;
        *x = w[1] >> 11 & 0x3F;
        *y = w[1] >> 17 & 0x3F;
        *base = lo << 21;
    } else { /* word 0: address >> 32; word 1: x_end 0-5, y_end 6-11 */
        *x = w[1] & 0x3F;
        *y = w[1] >> 6 & 0x3F;
        *base = (uint64_t)w[0] << 32;
    }
}

/* The fields a window's configuration may set (docs/libttsim.md 2.3): multicast is refused
 * (UMD's simulation chip never asks for it), the rest ignored (one NoC path is modelled for
 * the host's accesses: none). */
static void check_window(unsigned i)
{
    const uint32_t *w = &L->tlb[3 * i];
    const bool mcast = i < N_2M ? (w[2] >> 5 & 1) : (w[1] >> 26 & 1);
    if (mcast)
        die(ERR_UNIMPLEMENTED, "address window %u is set to multicast (not modelled)", i);
}

static void window_access(unsigned i, uint64_t off, void *buf, uint32_t n, bool write)
{
    const uint64_t size = i < N_2M ? WIN_2M : 4ull << 30;
    if (off + n > size)
        die(ERR_BAD_ACCESS, "host access of %u bytes at offset 0x%" PRIx64 " of address window %u "
            "crosses its end", n, off, i);
    check_window(i);
    unsigned x, y;
    uint64_t base;
    window_target(i, &x, &y, &base);
    tile_access(x, y, base + off, buf, n, write);
}

/* A node's eight words of the status page, one per core: bits 0-7 its exit code, 8 halted,
 * 9 out of reset; 10 the tile has nothing left to do (every core halted or off, every unit
 * drained), 16 the tile stopped with an error. Zeros where there is no tile. */
static void node_status(const struct tile *t, uint32_t v[8])
{
    memset(v, 0, 8 * sizeof v[0]);
    if (!t)
        return;
    const uint32_t tile_bits = (uint32_t)(tile_next_event(t) == CYCLE_NEVER) << 10 |
                               (uint32_t)(t->err.kind != ERR_NONE) << 16;
    for (unsigned k = 0; k < NUM_CORES; k++) {
        const struct rv_core *c = &t->core[k];
        v[k] = (uint32_t)(c->exit_code & 0xFF) | (uint32_t)(c->state == CORE_HALTED) << 8 |
               (uint32_t)(c->state != CORE_OFF) << 9 | tile_bits;
    }
}

/* Words [off, off + n) of the status page (off and n multiples of 4): 0 the magic, 1-2 the
 * chip's cycle, 3 one when nothing is on the NoC (every packet applied where it went), from
 * 0x100 eight words per grid node (NoC 0 y * 17 + x), one per core. */
static void status_read(uint64_t off, uint8_t *dst, uint32_t n)
{
    const uint64_t now = chip_now(L->chip);
    unsigned w, h;
    chip_grid(L->chip, &w, &h);
    uint32_t node_words[8];
    unsigned have = ~0u; /* the node node_words holds */
    for (uint32_t i = 0; i < n; i += 4) {
        const uint64_t o = off + i;
        uint32_t v = 0;
        if (o == 0) {
            v = STATUS_MAGIC;
        } else if (o == 4 || o == 8) {
            v = (uint32_t)(o == 4 ? now : now >> 32);
        } else if (o == 12) {
            v = chip_noc_idle(L->chip);
        } else if (o >= STATUS_CORES && (o - STATUS_CORES) / 32 < (uint64_t)w * h) {
            const unsigned node = (unsigned)((o - STATUS_CORES) / 32);
            if (node != have)
                node_status(chip_tile_at(L->chip, node % w, node / w), node_words);
            have = node;
            v = node_words[(o % 32) / 4];
        }
        memcpy(dst + i, &v, 4);
    }
}

static void bar0_read(uint64_t off, uint8_t *dst, uint32_t n)
{
    if (off < (uint64_t)N_2M * WIN_2M) {
        window_access((unsigned)(off / WIN_2M), off % WIN_2M, dst, n, false);
        return;
    }
    if (off >= STATUS_PAGE && off + n <= STATUS_PAGE + 0x10000 && !(off & 3) && !(n & 3)) {
        status_read(off - STATUS_PAGE, dst, n);
        return;
    }
    die(ERR_BAD_ACCESS, "host read of %u bytes at BAR0 + 0x%" PRIx64 ": nothing there the library "
        "models (windows 0-%u at 0-0x%llx; window registers are write-only)", n, off, N_2M - 1,
        (unsigned long long)(N_2M * WIN_2M - 1));
}

static void bar0_write(uint64_t off, const uint8_t *src, uint32_t n)
{
    if (off < (uint64_t)N_2M * WIN_2M) {
        window_access((unsigned)(off / WIN_2M), off % WIN_2M, (void *)src, n, true);
        return;
    }
    if (off >= TLB_REGS && off < TLB_REGS + 4 * TLB_WORDS) {
        if (n != 4 || (off & 3))
            die(ERR_BAD_ACCESS, "window register write of %u bytes at BAR0 + 0x%" PRIx64 " (32-bit "
                "words only)", n, off);
        memcpy(&L->tlb[(off - TLB_REGS) / 4], src, 4);
        return;
    }
    die(ERR_BAD_ACCESS, "host write of %u bytes at BAR0 + 0x%" PRIx64 ": nothing there the "
        "library models", n, off);
}

/* ---- BAR2: the iATU registers (kept, readable; UMD programs them at start-up) ---- */

static void bar2_access(uint64_t off, void *buf, uint32_t n, bool write)
{
    if (off < IATU_BASE || off + n > IATU_BASE + IATU_SIZE || (off & 3) || (n & 3))
        die(ERR_UNIMPLEMENTED, "host %s of %u bytes at BAR2 + 0x%" PRIx64 ": only the iATU "
            "registers 0x%x-0x%x are modelled", write ? "write" : "read", n, off, IATU_BASE,
            IATU_BASE + IATU_SIZE - 1);
    uint8_t *reg = (uint8_t *)L->iatu + (off - IATU_BASE);
    if (write)
        memcpy(reg, buf, n);
    else
        memcpy(buf, reg, n);
}

/* ---- the device's accesses to host memory (fast dispatch) ---- */

/* A NoC address at the PCIe tile to a host address. Blackhole's NoC-to-host space is 64 windows
 * of 2^58 bytes: windows 0-3 go to the host as they are, 4-7 through the outbound iATU first
 * (UMD puts host memory at 4 << 58: sysmem_manager.cpp get_pcie_base_for_arch). An iATU region
 * maps [base, limit] to target when enabled (region_ctrl_2 bit 31); an offset in no region goes
 * through unchanged. Register layout of outbound region r at BAR2 + 0x1000 + 0x200 r: +0x04
 * ctrl_2, +0x08/+0x0C base, +0x10 lower limit, +0x14/+0x18 target, +0x20 upper limit (ttsim's
 * model of the DesignWare iATU, libttsim.cpp iatu_reg_field and tile.cpp translate_pci_dma_addr:
 * no public register reference found). */
static bool host_address(uint64_t noc_addr, uint32_t len, uint64_t *host, char *why, size_t n)
{
    const uint64_t window = noc_addr >> 58, off = noc_addr & ((1ull << 58) - 1);
    if (window >= 8 || !len || off + len > 1ull << 58) {
        snprintf(why, n, "outside the host's NoC windows 0-7 of 2^58 bytes");
        return false;
    }
    *host = off;
    if (window < 4)
        return true;
    const uint32_t *r = L->iatu; /* from BAR2 + IATU_BASE */
    for (unsigned i = 0; i < 16; i++, r += 0x200 / 4) {
        if (!(r[0x04 / 4] & 0x80000000u))
            continue;
        const uint64_t base = (uint64_t)r[0x0C / 4] << 32 | r[0x08 / 4];
        const uint64_t limit = (uint64_t)r[0x20 / 4] << 32 | r[0x10 / 4];
        if (off >= base && off + len - 1 <= limit) {
            *host = ((uint64_t)r[0x18 / 4] << 32 | r[0x14 / 4]) + (off - base);
            return true;
        }
    }
    return true;
}

/* One access of the device to host memory: mapped, then through UMD's callback. */
static bool dma(uint64_t noc_addr, void *buf, uint32_t len, bool write, char *why, size_t n)
{
    uint64_t host;
    if (!host_address(noc_addr, len, &host, why, n))
        return false;
    if (write ? !L->dma_wr : !L->dma_rd) {
        snprintf(why, n, "the host gave no DMA callbacks (libttsim_set_pci_dma_mem_callbacks)");
        return false;
    }
    if (write)
        L->dma_wr(host, buf, len);
    else
        L->dma_rd(host, buf, len);
    return true;
}

static bool dma_read(void *ctx, uint64_t noc_addr, void *dst, uint32_t len, char *why, size_t n)
{
    (void)ctx;
    return dma(noc_addr, dst, len, false, why, n);
}

static bool dma_write(void *ctx, uint64_t noc_addr, const void *src, uint32_t len, char *why,
                      size_t n)
{
    (void)ctx;
    return dma(noc_addr, (void *)src, len, true, why, n);
}

static void pci_access(uint64_t paddr, void *buf, uint32_t n, bool write)
{
    if (paddr >= BAR0 && paddr - BAR0 < BAR0_SIZE) {
        if (write)
            bar0_write(paddr - BAR0, buf, n);
        else
            bar0_read(paddr - BAR0, buf, n);
    } else if (paddr >= BAR2 && paddr - BAR2 < BAR2_SIZE) {
        bar2_access(paddr - BAR2, buf, n, write);
    } else if (paddr >= BAR4 && paddr - BAR4 < BAR4_SIZE) {
        const uint64_t off = paddr - BAR4;
        window_access(N_2M + (unsigned)(off >> 32), off & 0xFFFFFFFFull, buf, n, write);
    } else {
        die(ERR_BAD_ACCESS, "host %s of %u bytes at 0x%" PRIx64 ": outside the device's BARs",
            write ? "write" : "read", n, paddr);
    }
}

/* ---- the nine functions ---- */

static unsigned env_unsigned(const char *name, unsigned dflt, unsigned lo, unsigned hi)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    const unsigned long v = strtoul(s, &end, 10);
    if (*end || v < lo || v > hi)
        die(ERR_USAGE, "%s=%s: expected a whole number from %u to %u", name, s, lo, hi);
    return (unsigned)v;
}

EXPORT void libttsim_init(void)
{
    if (L)
        die(ERR_USAGE, "libttsim_init called twice without libttsim_exit");
    struct lib *l = calloc(1, sizeof *l);
    if (!l)
        die(ERR_HOST, "out of memory");
    l->dma_rd = pending_rd;
    l->dma_wr = pending_wr;
    L = l;
    l->pid = getpid();
    l->threads = env_unsigned("TENSIM_THREADS", 1, 1, SIM_MAX_THREADS);
    l->cycles_per_clock = env_unsigned("TENSIM_HOST_CLOCK", 1, 1, 1000000);
    l->stats_path = getenv("TENSIM_STATS");
    l->report = getenv("TENSIM_REPORT") != NULL;
    l->trace_path = getenv("TENSIM_TRACE");
    if (l->trace_path && !*l->trace_path)
        l->trace_path = NULL;
    /* TENSIM_TIMING=KEY=VALUE,KEY=VALUE: what-if timing, as tensim run --timing */
    struct timing_override o[TIMING_MAX_OVERRIDES];
    unsigned no = 0;
    const char *timing = getenv("TENSIM_TIMING");
    for (const char *p = timing; p && *p;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[128], err[256];
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        if (no == TIMING_MAX_OVERRIDES)
            die(ERR_USAGE, "TENSIM_TIMING: more than %d changes", TIMING_MAX_OVERRIDES);
        if (timing_parse(item, &o[no++], err, sizeof err))
            die(ERR_USAGE, "TENSIM_TIMING: %s", err);
        p = comma ? comma + 1 : p + len;
    }
    timing_apply(arch_get(ARCH_BLACKHOLE), o, no, &l->arch);
    if (!(l->chip = chip_create(&l->arch)))
        die(ERR_HOST, "out of memory creating the chip");
    /* The caller's thread is worker 0: a library does not pin its host's threads to cores (nor
     * load hwloc's topology for every long clock). */
    chip_sim(l->chip)->pin = false;
    /* Every Tensix tile, row by row (tt-metal loads firmware into each): the order is part of
     * the run (ties between tiles go in this order). */
    unsigned w, h;
    chip_grid(l->chip, &w, &h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            if (chip_node_at(l->chip, x, y) != CHIP_TENSIX)
                continue;
            const char *why;
            struct tile *t = chip_add_tile(l->chip, x, y, &why);
            if (!t)
                die(ERR_HOST, "tile (%u, %u): %s", x, y, why);
            t->out = stdout;
            t->errout = stderr;
        }
    chip_set_host_mem(l->chip, &(struct chip_host_mem){.rd = dma_read, .wr = dma_write});
    if (l->trace_path)
        start_trace();
    if (!chip_start(l->chip))
        die(ERR_HOST, "out of memory");
}

EXPORT void libttsim_exit(void)
{
    need_init("libttsim_exit");
    const enum err_kind k = chip_stop(L->chip);
    tile_errors();
    write_stats();
    write_trace();
    fprintf(stderr, "tensim: libttsim: %" PRIu64 " cycles%s\n", chip_cycles(L->chip),
            k != ERR_NONE ? " (a tile ended with an error)" : "");
    if (L->report)
        chip_report(L->chip, stderr);
    chip_destroy(L->chip);
    free(L);
    L = NULL;
    pending_rd = NULL;
    pending_wr = NULL;
}

EXPORT void libttsim_set_pci_dma_mem_callbacks(void (*rd)(uint64_t, void *, uint32_t),
                                               void (*wr)(uint64_t, const void *, uint32_t))
{
    if (L)
        die(ERR_USAGE, "libttsim_set_pci_dma_mem_callbacks after libttsim_init");
    pending_rd = rd;
    pending_wr = wr;
}

/* Configuration space of device 0 (ttsim's values: Blackhole's ids, 64-bit non-prefetchable
 * BARs, class 0x12 "processing accelerator", no interrupt line). */
EXPORT uint32_t libttsim_pci_config_rd32(uint32_t bdf, uint32_t offset)
{
    need_init("libttsim_pci_config_rd32");
    if (offset & 3)
        die(ERR_BAD_ACCESS, "PCI configuration read at 0x%x: not 4-byte aligned", offset);
    if (bdf != 0)
        return 0xFFFFFFFFu; /* no such device */
    switch (offset) {
    case 0x00: return 0xB140u << 16 | 0x1E52u;
    case 0x08: return 0x12u << 24;
    case 0x10: return (uint32_t)BAR0 | 4;
    case 0x14: return (uint32_t)(BAR0 >> 32);
    case 0x18: return (uint32_t)BAR2 | 4;
    case 0x1C: return (uint32_t)(BAR2 >> 32);
    case 0x20: return (uint32_t)BAR4 | 4;
    case 0x24: return (uint32_t)(BAR4 >> 32);
    case 0x3C: return 0xFF;
    default: return 0;
    }
}

EXPORT void libttsim_pci_mem_rd_bytes(uint64_t paddr, void *dst, uint32_t size)
{
    need_init("libttsim_pci_mem_rd_bytes");
    pci_access(paddr, dst, size, false);
}

EXPORT void libttsim_pci_mem_wr_bytes(uint64_t paddr, const void *src, uint32_t size)
{
    need_init("libttsim_pci_mem_wr_bytes");
    pci_access(paddr, (void *)src, size, true);
}

/* UMD's DRAM teleport (and any direct tile access): translated coordinates, no window. */
EXPORT void libttsim_tile_rd_bytes(uint32_t x, uint32_t y, uint64_t addr, void *dst, uint32_t size)
{
    need_init("libttsim_tile_rd_bytes");
    tile_access(x, y, addr, dst, size, false);
}

EXPORT void libttsim_tile_wr_bytes(uint32_t x, uint32_t y, uint64_t addr, const void *src,
                                   uint32_t size)
{
    need_init("libttsim_tile_wr_bytes");
    tile_access(x, y, addr, (void *)src, size, true);
}

EXPORT void libttsim_clock(uint32_t n)
{
    need_init("libttsim_clock");
    const uint64_t cycles = (uint64_t)n * L->cycles_per_clock;
    const unsigned threads = cycles >= THREADED_ADVANCE ? L->threads : 1;
    if (!chip_advance(L->chip, chip_now(L->chip) + cycles, threads)) {
        fflush(NULL);
        chip_stop(L->chip);
        const int code = tile_errors();
        write_stats();
        write_trace();
        fflush(NULL);
        _Exit(code ? code : err_kind_exit_code(ERR_HOST));
    }
}

/* UMD's TTDevice::close_device marks its communicator closed before calling shutdown, which
 * then skips libttsim_exit (tt_sim_tt_device.cpp, tt_sim_communicator.cpp): the statistics and
 * trace would be lost. So when the library is unloaded, or the process ends, with the chip still
 * up, the process that built it does the exit's work. A forked child never does (its parent
 * owns the files), and at UMD's probe load there is no chip: nothing runs. */
__attribute__((destructor)) static void unloading(void)
{
    if (L && L->pid == getpid())
        libttsim_exit();
}
