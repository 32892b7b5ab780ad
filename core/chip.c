/* A chip (core/chip.h): the grid, the tiles on host threads, the NoC between windows, DRAM.
 *
 * How a packet travels (docs/architecture.md "A chip"): a core's command becomes a request in its
 * tile's NIU outbox with its cycle (mem/niu.c); nothing crosses threads during a window. At the
 * end of a window [h - W, h), with every tile at h, the exchange (one thread) drains the outboxes
 * in (cycle, tile, issue order) order into the NoC, then runs the routers to h + 4. A packet
 * whose last flit has left its last router by then reaches its NIU router_to_niu = 5 cycles
 * later, by h + 9, and the NoC model reports it as soon as it leaves (noc_config.report_early):
 * the exchange puts it in the destination tile's inbox with its arrival cycle, and the tile
 * applies it at that cycle in the next window (mem/niu_deliver.c). DRAM tiles are served here,
 * at the exchange. W = niu_to_router + router_to_niu = 10: a request made at c >= h reaches a
 * router at c + 5 >= h + 5, after where the routers stopped, and changes no delivery before
 * c + 10; a request of the window just run is dated back to at most 5 cycles before the NoC's
 * clock, which noc_inject allows.
 *
 * Grid: tt-isa-documentation Diagrams/Src/NoC.lua (TileLabel, TileLabel_BH: which tile sits
 * where in NoC 0 coordinates), BlackholeA0/NoC/Coordinates.md (Blackhole's 8 DRAM banks of
 * 4 GiB, three tiles each "same 4 GiB exposed on each"). */
#include "chip.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/dram.h"
#include "../mem/noc.h"
#include "../mem/niu.h"
#include "../trace/json.h"
#include "../trace/stats.h"
#include "../trace/trace.h"

#define CHIP_MAX_NODES (64 * 64)
#define CHIP_WINDOW 10      /* niu_to_router + router_to_niu (checked in chip_create) */
#define CHIP_MAX_BANKS 8
#define CHIP_MAX_RECS 16384 /* packets in flight on the chip (tensim's limit) */
#define CHIP_DRAM_SLOTS 1024 /* DRAM read responses in flight */
#define NO_TILE 0xFFFFu

/* DRAM tiles' service (not documented in the ISA pages): a fixed access latency and a bank
 * bandwidth. The bandwidth is tt-npe's figure for a Blackhole DRAM NIU (54 bytes per 1.35 GHz
 * cycle, shared/spec/parallel.md B.3); the latency is an estimate, a parameter to calibrate. */
#define DRAM_LATENCY 100
#define DRAM_BYTES_PER_CYCLE 54
/* Host memory behind the PCIe tile (a host that set chip_set_host_mem): a request is carried
 * out when it arrives and a read's answer (or a non-posted write's acknowledgement) leaves the
 * PCIe tile this long after. An estimate, documented nowhere we found: a PCIe round trip to host
 * memory is of the order of a microsecond, about 1350 cycles at 1.35 GHz. */
#define PCIE_LATENCY 1000

/* A packet in flight: what was sent, its payload and who owns that, and how many of its
 * deliveries are still to come. */
struct chip_rec {
    struct niu_request q;
    const uint8_t *data;
    uint16_t owner;    /* the tile whose payload slot holds the data; NO_TILE: the DRAM pool */
    uint16_t src_node;
    uint32_t pending;
    uint32_t next_free;
    uint64_t last_at; /* the latest arrival of its deliveries so far */
};

/* A record whose deliveries have all been handed to their tiles: its payload stays in use until
 * the last one has been applied, at `at`. */
struct chip_held {
    uint32_t id;
    uint64_t at;
};

struct chip_bank_stats {
    uint64_t reads, writes, bytes_read, bytes_written;
};

struct chip {
    const struct arch *arch;
    struct sim sim;
    struct noc *noc;
    struct noc_config ncfg;
    unsigned w, h;
    uint8_t kind[CHIP_MAX_NODES];    /* enum chip_node */
    int8_t bank_of[CHIP_MAX_NODES];  /* DRAM tiles: their bank */
    uint16_t tile_at[CHIP_MAX_NODES]; /* node -> tile index, NO_TILE */
    uint16_t node_of[SIM_MAX_TILES];
    struct dram_bank bank[CHIP_MAX_BANKS];
    struct chip_bank_stats bank_stats[CHIP_MAX_BANKS];
    uint64_t bank_free[CHIP_MAX_BANKS]; /* the first cycle the bank is free to serve again */
    unsigned nbanks;
    uint64_t bank_size;

    struct chip_rec *rec;
    uint32_t rec_free;  /* head of the free list, CHIP_MAX_RECS: empty */
    uint32_t rec_fresh; /* records from here on were never used: not on the list, and their
                         * pages not touched (1.4 MiB; a run uses a few hundred) */
    unsigned rec_used, rec_peak;
    /* Records whose deliveries have all been handed over, freed at the first exchange after
     * their last arrival (the tiles have applied them by then, whatever the windows' lengths:
     * a host may cut them short, core/libttsim.c). */
    struct chip_held *held;
    unsigned nheld;

    uint8_t *dram_pool; /* CHIP_DRAM_SLOTS x max packet */
    uint32_t *dram_slot_free;
    unsigned ndram_free;
    uint32_t max_packet;

    /* Answers the exchange makes itself (DRAM, absent tiles), injected after the advance. */
    struct noc_request *later;
    unsigned nlater, later_cap;

    struct sim_exchange *xe; /* the exchange in progress: the tiles it gives work (woken) */
    uint64_t last_cycle; /* the last delivery's arrival */
    uint64_t window_start; /* the h of the exchange in progress: no arrival may be earlier */
    uint64_t packets, deliveries;
    bool failed;  /* an error stopped a tile during the exchange */
    /* --trace: every router output link's busy periods (chip_trace_links), in the order the
     * NoC reported them (the exchange runs on one thread). */
    struct chip_link_span {
        uint64_t from, to;
        uint16_t node;
        uint8_t noc, link;
    } *spans;
    size_t nspans, capspans;
    bool spans_oom;
    struct sim_run_ctx *run; /* a run driven by a host (chip_start), else NULL */
    struct chip_host_mem host; /* host memory behind the PCIe tiles; rd NULL: none */
    struct tile *pool[SIM_MAX_TILES]; /* made by chip_prepare_tiles, taken in order */
    unsigned npool, pool_next;
    char why[96]; /* chip_add_tile's reason */
};

/* ---- the grid ---- */

static enum chip_node bh_node(unsigned x, unsigned y, int *bank)
{
    static const int8_t dram_bank[12] = {0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 1, 0};
    if (x == 0 || x == 9) {
        *bank = dram_bank[y] + (x == 9 ? 4 : 0);
        return CHIP_DRAM;
    }
    if (x == 8) { /* ARC, security, the L2CPU tiles (CPU 0-3 ... at y 3, 5, 7, 9) */
        if (y == 0)
            return CHIP_ARC;
        return y == 2 || (y & 1 && y >= 3 && y <= 9) ? CHIP_CPU : CHIP_NONE;
    }
    if (y == 1)
        return CHIP_ETH;
    if (y == 0)
        return x == 2 || x == 11 ? CHIP_PCIE : CHIP_NONE;
    return CHIP_TENSIX;
}

static enum chip_node wh_node(unsigned x, unsigned y, int *bank)
{
    if (x == 0) {
        static const int8_t b[12] = {0, 0, -1, -1, -1, 1, 1, 1, -1, -1, -1, 0};
        if (b[y] >= 0) {
            *bank = b[y];
            return CHIP_DRAM;
        }
        return y == 3 ? CHIP_PCIE : y == 10 ? CHIP_ARC : CHIP_NONE;
    }
    if (x == 5) {
        static const int8_t b[12] = {2, 2, 3, 4, 4, 5, 5, 5, 4, 3, 3, 2};
        *bank = b[y];
        return CHIP_DRAM;
    }
    return y == 0 || y == 6 ? CHIP_ETH : CHIP_TENSIX;
}

const char *chip_node_name(enum chip_node k)
{
    static const char *const name[] = {
        [CHIP_NONE] = "empty", [CHIP_TENSIX] = "Tensix", [CHIP_DRAM] = "DRAM",
        [CHIP_PCIE] = "PCIe", [CHIP_ARC] = "ARC", [CHIP_ETH] = "Ethernet", [CHIP_CPU] = "CPU",
    };
    return k <= CHIP_CPU ? name[k] : "?";
}

static uint64_t exchange(void *ctx, struct sim_exchange *e);
static void deliver(void *ctx, const struct noc_delivery *d);

struct chip *chip_create(const struct arch *arch)
{
    struct chip *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->arch = arch;
    c->ncfg = noc_config_for(arch->id);
    c->ncfg.t.inject_queue = 256; /* the row's max: a window's burst is never refused */
    c->ncfg.report_early = true;
    c->ncfg.deliver = deliver;
    c->ncfg.ctx = c;
    c->w = c->ncfg.width;
    c->h = c->ncfg.height;
    c->nbanks = arch->id == ARCH_WORMHOLE ? 6 : 8;
    c->bank_size = arch->id == ARCH_WORMHOLE ? 2ull << 30 : 4ull << 30;
    c->max_packet = niu_max_packet_of(arch);
    c->noc = noc_create(&c->ncfg);
    c->rec = calloc(CHIP_MAX_RECS, sizeof *c->rec);
    c->held = calloc(CHIP_MAX_RECS, sizeof *c->held);
    c->dram_pool = calloc(CHIP_DRAM_SLOTS, c->max_packet);
    c->dram_slot_free = calloc(CHIP_DRAM_SLOTS, sizeof *c->dram_slot_free);
    c->later_cap = CHIP_MAX_RECS;
    c->later = calloc(c->later_cap, sizeof *c->later);
    bool ok = c->noc && c->rec && c->held && c->dram_pool &&
              c->dram_slot_free && c->later &&
              c->ncfg.t.niu_to_router + c->ncfg.t.router_to_niu == CHIP_WINDOW;
    for (unsigned i = 0; ok && i < c->nbanks; i++)
        ok = dram_bank_init(&c->bank[i], c->bank_size);
    if (!ok) {
        chip_destroy(c);
        return NULL;
    }
    c->rec_free = CHIP_MAX_RECS;
    for (unsigned i = 0; i < CHIP_DRAM_SLOTS; i++)
        c->dram_slot_free[i] = CHIP_DRAM_SLOTS - 1 - i;
    c->ndram_free = CHIP_DRAM_SLOTS;
    for (unsigned y = 0; y < c->h; y++)
        for (unsigned x = 0; x < c->w; x++) {
            const unsigned n = y * c->w + x;
            int bank = -1;
            c->kind[n] = (uint8_t)(arch->id == ARCH_WORMHOLE ? wh_node(x, y, &bank)
                                                            : bh_node(x, y, &bank));
            c->bank_of[n] = (int8_t)bank;
            c->tile_at[n] = NO_TILE;
            /* Only Tensix tiles take broadcasts (BH NoC/RoutingPaths.md). */
            noc_set_broadcast_sink(c->noc, n, c->kind[n] == CHIP_TENSIX);
        }
    c->sim.exchange = exchange;
    c->sim.exchange_ctx = c;
    c->sim.pin = true;
    return c;
}

void chip_destroy(struct chip *c)
{
    if (!c)
        return;
    if (c->run)
        sim_end(c->run, true);
    sim_destroy(&c->sim);
    for (unsigned i = c->pool_next; i < c->npool; i++)
        tile_destroy(c->pool[i]);
    noc_destroy(c->noc);
    for (unsigned i = 0; i < c->nbanks; i++)
        dram_bank_free(&c->bank[i]);
    free(c->rec);
    free(c->held);
    free(c->spans);
    free(c->dram_pool);
    free(c->dram_slot_free);
    free(c->later);
    free(c);
}

struct sim *chip_sim(struct chip *c) { return &c->sim; }
const struct arch *chip_arch(const struct chip *c) { return c->arch; }

void chip_grid(const struct chip *c, unsigned *width, unsigned *height)
{
    *width = c->w;
    *height = c->h;
}

enum chip_node chip_node_at(const struct chip *c, unsigned x, unsigned y)
{
    return x < c->w && y < c->h ? (enum chip_node)c->kind[y * c->w + x] : CHIP_NONE;
}

/* Tile t's NIUs told that it sits at (x, y). */
static void set_coords(const struct chip *c, struct tile *t, unsigned x, unsigned y)
{
    /* Blackhole's Tensix tile index as NOC_ENDPOINT_ID shows it (NoC.lua TileLabel_BH's T
     * numbering; Wormhole's alike, row by row). */
    const unsigned idx = c->arch->id == ARCH_WORMHOLE ? (y - (y >= 7 ? 2 : 1)) * 8 + (x - (x >= 6 ? 2 : 1))
                                                      : (y - 2) * 14 + (x - (x >= 10 ? 3 : 1));
    niu_set_coords(t, x, y, idx & 0xFF);
}

struct tile *chip_add_tile(struct chip *c, unsigned x, unsigned y, const char **why)
{
    char *msg = c->why;
    const enum chip_node k = chip_node_at(c, x, y);
    if (x >= c->w || y >= c->h) {
        snprintf(msg, sizeof c->why, "(%u, %u) is outside the %u x %u grid", x, y, c->w, c->h);
        *why = msg;
        return NULL;
    }
    if (k != CHIP_TENSIX) {
        snprintf(msg, sizeof c->why, "(%u, %u) is %s %s tile, not a Tensix tile", x, y,
                 k == CHIP_ARC || k == CHIP_NONE || k == CHIP_ETH ? "an" : "a", chip_node_name(k));
        if (k == CHIP_NONE)
            snprintf(msg, sizeof c->why, "(%u, %u) has no tile", x, y);
        *why = msg;
        return NULL;
    }
    const unsigned n = y * c->w + x;
    if (c->tile_at[n] != NO_TILE) {
        snprintf(msg, sizeof c->why, "a tile is already at (%u, %u)", x, y);
        *why = msg;
        return NULL;
    }
    struct tile *made = c->pool_next < c->npool && c->sim.ntiles < SIM_MAX_TILES
                            ? c->pool[c->pool_next++] : NULL;
    struct tile *t = made ? sim_adopt_tile(&c->sim, made) : sim_add_tile(&c->sim, c->arch);
    if (!t || !niu_payload_enable(t)) {
        *why = c->sim.ntiles == SIM_MAX_TILES ? "too many tiles" : "out of memory";
        return NULL;
    }
    set_coords(c, t, x, y);
    c->tile_at[n] = (uint16_t)(c->sim.ntiles - 1);
    c->node_of[c->sim.ntiles - 1] = (uint16_t)n;
    return t;
}

struct tile *chip_renew_tile(struct chip *c, unsigned i)
{
    struct tile *t = i < c->sim.ntiles ? tile_create(c->arch) : NULL;
    if (!t || !niu_payload_enable(t)) {
        tile_destroy(t);
        return NULL;
    }
    unsigned x, y;
    chip_tile_coords(c, i, &x, &y);
    set_coords(c, t, x, y);
    tile_destroy(c->sim.tile[i]);
    c->sim.tile[i] = t;
    return t;
}

/* One thread's share of chip_tiles_begin: tile[first], tile[first + step], ... below last (sim_run
 * deals the tiles out to its workers the same way) */
struct prepare_arg {
    struct chip_tiles *p;
    unsigned first, step, last;
    pthread_t thread;
    bool ok;
};

struct chip_tiles {
    const struct arch *arch;
    unsigned n, threads, started; /* threads: shares; started: threads running shares 1.. */
    void (*made)(struct tile *t, unsigned i, void *ctx);
    void *ctx;
    struct tile *tile[SIM_MAX_TILES];
    struct prepare_arg part[SIM_MAX_THREADS];
};

static void *prepare_some(void *arg)
{
    struct prepare_arg *a = arg;
    a->ok = true;
    for (unsigned i = a->first; i < a->last; i += a->step) {
        struct tile *t = tile_create(a->p->arch);
        if (t && !niu_payload_enable(t)) {
            tile_destroy(t);
            t = NULL;
        }
        a->p->tile[i] = t;
        a->ok &= t != NULL;
        if (t && a->p->made)
            a->p->made(t, i, a->p->ctx);
    }
    return NULL;
}

struct chip_tiles *chip_tiles_begin(const struct arch *arch, unsigned n, unsigned threads,
                                    void (*made)(struct tile *t, unsigned i, void *ctx), void *ctx)
{
    struct chip_tiles *p = n <= SIM_MAX_TILES ? calloc(1, sizeof *p) : NULL;
    if (!p)
        return NULL;
    p->arch = arch;
    p->made = made;
    p->ctx = ctx;
    p->n = n;
    threads = threads < 1 ? 1 : threads > n ? n : threads;
    p->threads = threads > SIM_MAX_THREADS ? SIM_MAX_THREADS : threads;
    for (unsigned j = 0; j < p->threads; j++)
        p->part[j] = (struct prepare_arg){p, j, p->threads, n, 0, false};
    for (p->started = 1; p->started < p->threads; p->started++)
        if (pthread_create(&p->part[p->started].thread, NULL, prepare_some, &p->part[p->started]))
            break;
    return p;
}

bool chip_tiles_end(struct chip_tiles *p, struct chip *c)
{
    if (!p)
        return false;
    prepare_some(&p->part[0]);
    bool ok = p->part[0].ok;
    for (unsigned j = p->started; j < p->threads; j++) { /* shares of threads not started */
        prepare_some(&p->part[j]);
        ok &= p->part[j].ok;
    }
    for (unsigned j = 1; j < p->started; j++) {
        pthread_join(p->part[j].thread, NULL);
        ok &= p->part[j].ok;
    }
    if (ok && c && !c->npool && !c->sim.ntiles && p->arch == c->arch) {
        memcpy(c->pool, p->tile, p->n * sizeof *p->tile);
        c->npool = p->n;
    } else {
        for (unsigned i = 0; i < p->n; i++)
            tile_destroy(p->tile[i]);
        ok = false;
    }
    free(p);
    return ok;
}

bool chip_prepare_tiles(struct chip *c, unsigned n, unsigned threads)
{
    return chip_tiles_end(chip_tiles_begin(c->arch, n, threads, NULL, NULL), c);
}

struct tile *chip_tile_at(const struct chip *c, unsigned x, unsigned y)
{
    if (x >= c->w || y >= c->h || c->tile_at[y * c->w + x] == NO_TILE)
        return NULL;
    return c->sim.tile[c->tile_at[y * c->w + x]];
}

unsigned chip_ntiles(const struct chip *c) { return c->sim.ntiles; }
struct tile *chip_tile(const struct chip *c, unsigned i) { return c->sim.tile[i]; }

void chip_tile_coords(const struct chip *c, unsigned i, unsigned *x, unsigned *y)
{
    *x = c->node_of[i] % c->w;
    *y = c->node_of[i] / c->w;
}

static struct dram_bank *bank_at(const struct chip *c, unsigned x, unsigned y)
{
    if (chip_node_at(c, x, y) != CHIP_DRAM)
        return NULL;
    return (struct dram_bank *)&c->bank[c->bank_of[y * c->w + x]];
}

bool chip_dram_write(struct chip *c, unsigned x, unsigned y, uint64_t addr, const void *src,
                     uint64_t n)
{
    struct dram_bank *b = bank_at(c, x, y);
    return b && dram_write(b, addr, src, n);
}

bool chip_dram_read(const struct chip *c, unsigned x, unsigned y, uint64_t addr, void *dst,
                    uint64_t n)
{
    const struct dram_bank *b = bank_at(c, x, y);
    return b && dram_read(b, addr, dst, n);
}

/* ---- packets ---- */

static uint32_t rec_new(struct chip *c)
{
    uint32_t i = c->rec_free;
    if (i != CHIP_MAX_RECS)
        c->rec_free = c->rec[i].next_free;
    else if (c->rec_fresh < CHIP_MAX_RECS)
        i = c->rec_fresh++;
    else
        return i;
    if (++c->rec_used > c->rec_peak)
        c->rec_peak = c->rec_used;
    return i;
}

static void rec_free(struct chip *c, uint32_t i)
{
    struct chip_rec *r = &c->rec[i];
    if (r->q.slot >= 0) {
        if (r->owner == NO_TILE)
            c->dram_slot_free[c->ndram_free++] = (uint32_t)r->q.slot;
        else
            niu_payload_release(c->sim.tile[r->owner], r->q.slot);
    }
    r->next_free = c->rec_free;
    c->rec_free = i;
    c->rec_used--;
}

/* A node of the grid from coordinates on NoC `noc` (NoC 1's are mirrored: BH Coordinates.md). */
static unsigned node_on(const struct chip *c, unsigned noc, unsigned x, unsigned y)
{
    return noc ? noc_node1(&c->ncfg, x, y) : noc_node(&c->ncfg, x, y);
}

/* Stop the run with an error of `kind` in tile i, found at the exchange: the tile stands at the
 * window's end, which is where the error is dated (its counters run to there); the message
 * names the packet's own `cycle`. */
static void fail_as(struct chip *c, enum err_kind kind, unsigned i, uint64_t cycle, const char *fmt,
                    va_list ap)
{
    char msg[240];
    vsnprintf(msg, sizeof msg, fmt, ap);
    struct tile *t = c->sim.tile[i];
    if (t->err.kind == ERR_NONE) {
        t->now = c->window_start;
        t->running_agent = -1;
        tile_error(t, kind, -1, 0, "%s (cycle %" PRIu64 ")", msg, cycle);
    }
    c->xe->woken[i / 64] |= 1ull << (i % 64);
    c->failed = true;
}

/* A request the chip cannot carry out: the program's error (bad access) in its source tile i. */
static void fail(struct chip *c, unsigned i, uint64_t cycle, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(struct chip *c, unsigned i, uint64_t cycle, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_as(c, ERR_BAD_ACCESS, i, cycle, fmt, ap);
    va_end(ap);
}

/* One of tensim's own limits, in tile i. */
static void fail_limit(struct chip *c, unsigned i, uint64_t cycle, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail_limit(struct chip *c, unsigned i, uint64_t cycle, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_as(c, ERR_UNIMPLEMENTED, i, cycle, fmt, ap);
    va_end(ap);
}

static bool in_grid(const struct chip *c, unsigned x, unsigned y) { return x < c->w && y < c->h; }

/* The receivers of a broadcast over NoC-0 rectangle r (wrapping), the source excluded unless it
 * asked: Tensix nodes, which alone take broadcasts. */
static uint32_t receivers(const struct chip *c, const struct noc_rect *r, unsigned src, bool self)
{
    uint32_t n = 0;
    for (unsigned y = r->y0;; y = (y + 1) % c->h) {
        for (unsigned x = r->x0;; x = (x + 1) % c->w) {
            const unsigned node = y * c->w + x;
            n += c->kind[node] == CHIP_TENSIX && (node != src || self);
            if (x == r->x1)
                break;
        }
        if (y == r->y1)
            break;
    }
    return n;
}

/* Inject tile i's request q into the NoC. */
static void send(struct chip *c, unsigned i, const struct niu_request *q)
{
    const unsigned src = c->node_of[i];
    const unsigned sx = src % c->w, sy = src / c->w;
    const bool bcast = q->flags & NIU_F_BROADCAST;
    struct noc_request r = {.noc = q->noc, .src = (uint16_t)src, .cycle = q->cycle};
    if (!in_grid(c, q->x, q->y) || !in_grid(c, q->x0, q->y0)) {
        fail(c, i, q->cycle, "NoC %u %s from (%u, %u) to (%u, %u): outside the %u x %u grid",
             q->noc, niu_kind_text(q->kind), sx, sy, q->x, q->y, c->w, c->h);
        return;
    }
    uint32_t pending = 1;
    if (bcast) {
        /* NoC 1's rectangle has its corners swapped by software (BH Coordinates.md): its start
         * is NoC 0's end corner. */
        unsigned ax = q->x0, ay = q->y0, bx = q->x, by = q->y;
        if (q->noc) {
            ax = c->w - 1 - q->x, ay = c->h - 1 - q->y;
            bx = c->w - 1 - q->x0, by = c->h - 1 - q->y0;
        }
        r.dst_rect = (struct noc_rect){(uint8_t)ax, (uint8_t)ay, (uint8_t)bx, (uint8_t)by};
        r.flags |= NOC_BRCST | (q->flags & NIU_F_Y_MAJOR ? NOC_BRCST_Y_MAJOR : 0) |
                   (q->flags & NIU_F_SRC_INCLUDE ? NOC_BRCST_SRC_INCLUDE : 0) |
                   (q->flags & NIU_F_PATH_RESERVE ? NOC_BRCST_PATH_RESERVE : 0);
        pending = receivers(c, &r.dst_rect, src, q->flags & NIU_F_SRC_INCLUDE);
    } else {
        const unsigned dst = node_on(c, q->noc, q->x, q->y);
        r.dst = (uint16_t)dst;
        const enum chip_node k = (enum chip_node)c->kind[dst];
        const bool to_tile = k == CHIP_TENSIX && c->tile_at[dst] != NO_TILE;
        const bool to_dram = k == CHIP_DRAM && q->kind != NIU_ATOMIC && q->kind < NIU_READ_RESP;
        const bool to_host = k == CHIP_PCIE && c->host.rd && q->kind != NIU_ATOMIC &&
                             q->kind < NIU_READ_RESP;
        if (!to_tile && !to_dram && !to_host) {
            fail(c, i, q->cycle, "NoC %u %s from (%u, %u) to (%u, %u): %s", q->noc,
                 niu_kind_text(q->kind), sx, sy, dst % c->w, dst / c->w,
                 k == CHIP_TENSIX ? "no tile there (the run adds only the tiles it names)"
                 : k == CHIP_DRAM ? "atomics cannot target DRAM (BH NoC/Atomics.md)"
                 : k == CHIP_PCIE && c->host.rd ? "atomics cannot target host memory"
                 : k == CHIP_PCIE ? "no host memory behind the PCIe tile (a run of tensim has "
                                    "none; the libttsim library's host has)"
                                  : "tensim serves only Tensix and DRAM tiles");
            return;
        }
    }
    if (q->kind >= NIU_READ_RESP)
        r.flags |= NOC_RESPONSE;
    /* Header-only packets: read requests, acknowledgements, atomics and their results, inline
     * writes (their word rides in the header: BH NoC/README.md). */
    const bool data = q->kind == NIU_READ_RESP ||
                      ((q->kind == NIU_WRITE || q->kind == NIU_POSTED_WRITE) &&
                       !(q->flags & NIU_F_INLINE));
    r.bytes = data ? q->len : 0;
    const uint32_t id = rec_new(c);
    if (id == CHIP_MAX_RECS) {
        fail_limit(c, i, q->cycle, "more than %u NoC packets in flight on the chip (tensim's limit)",
             CHIP_MAX_RECS);
        return;
    }
    struct chip_rec *rec = &c->rec[id];
    rec->q = *q;
    rec->owner = (uint16_t)i;
    rec->src_node = (uint16_t)src;
    rec->data = q->slot >= 0 ? niu_payload(c->sim.tile[i], q->slot) : NULL;
    rec->pending = pending;
    r.tag = id;
    c->packets++;
    rec->last_at = q->cycle;
    if (!pending) /* a broadcast to nobody: it still travels */
        c->held[c->nheld++] = (struct chip_held){id, q->cycle};
    if (!noc_inject(c->noc, &r))
        fail_limit(c, i, q->cycle, "the NoC refused a %s from (%u, %u) at cycle %" PRIu64
             " (its NIU's queue is full: tensim's limit)", niu_kind_text(q->kind), sx, sy, q->cycle);
}

/* An answer the chip makes itself (a DRAM tile's, or a Tensix node's that has no tile), sent
 * from node `from` at `cycle` after the advance. */
static void answer_later(struct chip *c, const struct chip_rec *req, unsigned from, uint64_t cycle,
                         enum niu_kind kind, int slot, uint32_t len)
{
    const uint32_t id = c->nlater == c->later_cap ? CHIP_MAX_RECS : rec_new(c);
    if (id == CHIP_MAX_RECS) {
        fail_limit(c, req->owner, cycle, "more than %u NoC packets in flight on the chip (tensim's "
             "limit)", CHIP_MAX_RECS);
        return;
    }
    struct chip_rec *r = &c->rec[id];
    r->q = (struct niu_request){.cycle = cycle, .noc = req->q.noc, .kind = (uint8_t)kind,
                                .txn_id = req->q.txn_id, .x = req->q.ret_x, .y = req->q.ret_y,
                                .x0 = req->q.ret_x, .y0 = req->q.ret_y, .len = len,
                                .local_addr = req->q.local_addr, .slot = (int16_t)slot};
    r->owner = NO_TILE;
    r->src_node = (uint16_t)from;
    r->data = slot >= 0 ? c->dram_pool + (size_t)slot * c->max_packet : NULL;
    r->pending = 1;
    r->last_at = cycle;
    c->later[c->nlater++] = (struct noc_request){
        .noc = req->q.noc, .src = (uint16_t)from,
        .dst = (uint16_t)node_on(c, req->q.noc, req->q.ret_x, req->q.ret_y),
        .flags = NOC_RESPONSE, .bytes = kind == NIU_READ_RESP ? len : 0, .tag = id, .cycle = cycle};
}

/* A DRAM tile serves a request that arrived at `at`: one access at a time per bank, each
 * DRAM_LATENCY after it starts and taking its bytes at the bank's bandwidth. */
static void dram_serve(struct chip *c, const struct chip_rec *req, unsigned node, uint64_t at)
{
    const int b = c->bank_of[node];
    const struct niu_request *q = &req->q;
    const bool inl = q->flags & NIU_F_INLINE;
    const uint32_t len = inl ? 4 : q->len;
    uint64_t start = at > c->bank_free[b] ? at : c->bank_free[b];
    c->bank_free[b] = start + (len + DRAM_BYTES_PER_CYCLE - 1) / DRAM_BYTES_PER_CYCLE;
    const uint64_t done = c->bank_free[b] + DRAM_LATENCY;
    if (q->kind == NIU_READ) {
        if (!c->ndram_free) {
            fail_limit(c, req->owner, at, "more than %u DRAM reads in flight (tensim's limit)",
                 CHIP_DRAM_SLOTS);
            return;
        }
        const uint32_t slot = c->dram_slot_free[--c->ndram_free];
        if (!dram_read(&c->bank[b], q->remote_addr, c->dram_pool + (size_t)slot * c->max_packet,
                       q->len)) {
            c->dram_slot_free[c->ndram_free++] = slot;
            fail(c, req->owner, q->cycle, "NoC read of DRAM bank %d at 0x%" PRIx64 " + %u: "
                 "outside its %" PRIu64 " bytes", b, q->remote_addr, q->len, c->bank_size);
            return;
        }
        c->bank_stats[b].reads++;
        c->bank_stats[b].bytes_read += q->len;
        answer_later(c, req, node, done, NIU_READ_RESP, (int)slot, q->len);
        return;
    }
    /* An inline write merges NOC_AT_DATA's enabled bytes into the word, as at a Tensix tile
     * (mem/niu_deliver.c inline_write; the same reading of NOC_AT_LEN_BE). */
    uint8_t word[4] = {0};
    if (inl) {
        uint32_t be = q->at_len_be;
        if (be > 0xFu)
            be >>= (unsigned)(q->remote_addr & 60u);
        if (!dram_read(&c->bank[b], q->remote_addr & ~3ull, word, 4))
            be = 0; /* outside the bank: the write below says so */
        for (unsigned i = 0; i < 4; i++)
            if (be >> i & 1)
                word[i] = (uint8_t)(q->at_data >> (8 * i));
    }
    if (!dram_write(&c->bank[b], inl ? q->remote_addr & ~3ull : q->remote_addr,
                    inl ? (const void *)word : req->data, len)) {
        fail(c, req->owner, q->cycle, "NoC write to DRAM bank %d at 0x%" PRIx64 " + %u: outside "
             "its %" PRIu64 " bytes (or out of host memory)", b, q->remote_addr, len, c->bank_size);
        return;
    }
    c->bank_stats[b].writes++;
    c->bank_stats[b].bytes_written += len;
    if (q->kind == NIU_WRITE)
        answer_later(c, req, node, done, NIU_WRITE_ACK, -1, 0);
}

/* Host memory serves a request that arrived at the PCIe tile at `at`: at once, through the
 * host's callbacks (the libttsim library maps the address through its iATU). */
static void host_serve(struct chip *c, const struct chip_rec *req, unsigned node, uint64_t at)
{
    const struct niu_request *q = &req->q;
    const bool inl = q->flags & NIU_F_INLINE;
    char why[160] = "";
    if (q->kind == NIU_READ) {
        if (!c->ndram_free) {
            fail_limit(c, req->owner, at, "more than %u DRAM and host reads in flight (tensim's "
                       "limit)", CHIP_DRAM_SLOTS);
            return;
        }
        const uint32_t slot = c->dram_slot_free[--c->ndram_free];
        if (!c->host.rd(c->host.ctx, q->remote_addr, c->dram_pool + (size_t)slot * c->max_packet,
                        q->len, why, sizeof why)) {
            c->dram_slot_free[c->ndram_free++] = slot;
            fail(c, req->owner, q->cycle, "NoC read of host memory at 0x%" PRIx64 " + %u: %s",
                 q->remote_addr, q->len, why);
            return;
        }
        answer_later(c, req, node, at + PCIE_LATENCY, NIU_READ_RESP, (int)slot, q->len);
        return;
    }
    /* An inline write's word: NOC_AT_DATA's enabled bytes, as at a Tensix tile; the host's
     * memory takes whole words, so only a full byte enable is carried out. */
    uint8_t word[4];
    if (inl) {
        uint32_t be = q->at_len_be;
        if (be > 0xFu)
            be >>= (unsigned)(q->remote_addr & 60u);
        if ((be & 0xF) != 0xF) {
            fail_limit(c, req->owner, q->cycle, "an inline write to host memory with byte enables "
                       "0x%x (tensim writes host memory in whole words)", be & 0xF);
            return;
        }
        for (unsigned i = 0; i < 4; i++)
            word[i] = (uint8_t)(q->at_data >> (8 * i));
    }
    if (!c->host.wr(c->host.ctx, inl ? q->remote_addr & ~3ull : q->remote_addr,
                    inl ? (const void *)word : req->data, inl ? 4 : q->len, why, sizeof why)) {
        fail(c, req->owner, q->cycle, "NoC write to host memory at 0x%" PRIx64 " + %u: %s",
             q->remote_addr, inl ? 4 : q->len, why);
        return;
    }
    if (q->kind == NIU_WRITE)
        answer_later(c, req, node, at + PCIE_LATENCY, NIU_WRITE_ACK, -1, 0);
}

void chip_set_host_mem(struct chip *c, const struct chip_host_mem *m) { c->host = *m; }

/* The NoC model's report of a packet reaching node d->dst at d->tail_cycle (early: its tail has
 * just left the last router). */
static void deliver(void *ctx, const struct noc_delivery *d)
{
    struct chip *c = ctx;
    const uint32_t id = d->tag;
    struct chip_rec *r = &c->rec[id];
    c->deliveries++;
    if (d->tail_cycle > c->last_cycle)
        c->last_cycle = d->tail_cycle;
    const unsigned node = d->dst;
    const uint16_t ti = c->tile_at[node];
    if (d->tail_cycle < c->window_start) { /* the tiles are past it: a bug of the exchange */
        fail_limit(c, r->owner == NO_TILE ? 0 : r->owner, d->tail_cycle, "tensim internal error: a "
             "packet arrives at cycle %" PRIu64 ", before the window that would apply it (%" PRIu64
             ")", d->tail_cycle, c->window_start);
        return;
    }
    if (ti != NO_TILE) {
        c->xe->woken[ti / 64] |= 1ull << (ti % 64);
        if (!niu_inbox_push(c->sim.tile[ti], d->tail_cycle, &r->q, r->data)) {
            fail_limit(c, ti, d->tail_cycle, "more than %u NoC packets arriving in one window "
                       "(tensim's limit)", NIU_INBOX_LEN);
        }
    } else if (c->kind[node] == CHIP_DRAM) {
        dram_serve(c, r, node, d->tail_cycle);
    } else if (c->kind[node] == CHIP_PCIE) {
        host_serve(c, r, node, d->tail_cycle);
    } else if (r->q.kind == NIU_WRITE) {
        /* A broadcast receiver the run did not add: its write is dropped, its
         * acknowledgement still goes back, so the sender's barrier counts right. */
        answer_later(c, r, node, d->tail_cycle, NIU_WRITE_ACK, -1, 0);
    }
    if (d->tail_cycle > r->last_at)
        r->last_at = d->tail_cycle;
    if (--r->pending == 0)
        c->held[c->nheld++] = (struct chip_held){id, r->last_at};
}

/* The next request of the window's in (cycle, tile, issue) order, from the tiles in `sending`
 * (each outbox is in cycle order); a tile whose outbox it empties leaves the set. */
static bool next_request(struct chip *c, uint64_t sending[SIM_MASK_WORDS], unsigned *tile,
                         struct niu_request *q)
{
    unsigned best = SIM_MAX_TILES;
    uint64_t at = CYCLE_NEVER;
    for (unsigned w = 0; w < SIM_MASK_WORDS; w++)
        for (uint64_t bits = sending[w]; bits; bits &= bits - 1) {
            const unsigned i = w * 64 + (unsigned)__builtin_ctzll(bits);
            const struct niu_request *r = niu_outbox_peek(c->sim.tile[i], 0);
            if (r->cycle < at)
                at = r->cycle, best = i;
        }
    if (best == SIM_MAX_TILES)
        return false;
    niu_outbox_pop(c->sim.tile[best], q);
    if (!niu_outbox_peek(c->sim.tile[best], 0))
        sending[best / 64] &= ~(1ull << (best % 64));
    *tile = best;
    return true;
}

/* The exchange between windows (sim.exchange): every tile stands at e->h. */
static uint64_t exchange(void *ctx, struct sim_exchange *e)
{
    struct chip *c = ctx;
    const uint64_t h = e->h;
    c->window_start = h;
    c->xe = e;
    /* Packets the tiles have applied (every arrival before h) give back their payloads. */
    unsigned kept = 0;
    for (unsigned k = 0; k < c->nheld; k++) {
        if (c->held[k].at < h)
            rec_free(c, c->held[k].id);
        else
            c->held[kept++] = c->held[k];
    }
    c->nheld = kept;
    unsigned from;
    struct niu_request q;
    while (next_request(c, e->sending, &from, &q))
        send(c, from, &q);
    c->nlater = 0;
    noc_advance(c->noc, h + CHIP_WINDOW / 2 - 1);
    for (unsigned k = 0; k < c->nlater; k++)
        if (!noc_inject(c->noc, &c->later[k]))
            fail_limit(c, c->rec[c->later[k].tag].owner == NO_TILE ? 0 : c->rec[c->later[k].tag].owner,
                 c->later[k].cycle, "the NoC refused an answer from a DRAM tile (its NIU's queue "
                 "is full: tensim's limit)");
    if (e->failed)
        c->failed = true;
    e->stop = c->failed;
    c->xe = NULL;
    /* What the NoC does next can reach a tile no sooner than 5 cycles after it (router_to_niu),
     * and is reported at the exchange whose routers pass it: the window must end no later than
     * 5 cycles after it. */
    const uint64_t n = noc_next_event(c->noc);
    if (n == NOC_NEVER) /* records still to free wait for their last arrival (chip_destroy frees
                         * the rest anyway; a run's results do not depend on it) */
        return c->nheld ? h : CYCLE_NEVER;
    return n >= h + CHIP_WINDOW / 2 ? n - CHIP_WINDOW / 2 : h;
}

enum err_kind chip_run(struct chip *c)
{
    return sim_run(&c->sim, CHIP_WINDOW);
}

/* ---- link tracks for --trace ---- */

static void link_busy(void *ctx, unsigned noc, unsigned node, unsigned link, uint64_t from, uint64_t to)
{
    struct chip *c = ctx;
    if (c->nspans == c->capspans) { /* tracing only: the trace's events grow as they come */
        size_t cap = c->capspans ? 2 * c->capspans : 4096;
        struct chip_link_span *p = realloc(c->spans, cap * sizeof *p);
        if (!p) {
            c->spans_oom = true;
            return;
        }
        c->spans = p, c->capspans = cap;
    }
    c->spans[c->nspans++] = (struct chip_link_span){from, to, (uint16_t)node, (uint8_t)noc, (uint8_t)link};
}

void chip_trace_links(struct chip *c)
{
    c->ncfg.link_busy = link_busy;
    noc_set_link_busy(c->noc, link_busy);
}

static int span_order(const void *a, const void *b)
{
    const struct chip_link_span *x = a, *y = b;
    const unsigned kx = (x->noc * CHIP_MAX_NODES + x->node) * NOC_LINKS + x->link;
    const unsigned ky = (y->noc * CHIP_MAX_NODES + y->node) * NOC_LINKS + y->link;
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return x->from < y->from ? -1 : x->from > y->from;
}

static const char *const link_name[NOC_LINKS] = {"x", "y", "inject", "eject"};

bool chip_link_trace(struct chip *c, struct trace_doc *d, int pid, uint64_t from, uint64_t to)
{
    if (!c->nspans)
        return !c->spans_oom;
    qsort(c->spans, c->nspans, sizeof *c->spans, span_order);
    trace_doc_process(d, pid, "NoC links (busy while a packet holds them)");
    unsigned tid = 0;
    for (size_t i = 0; i < c->nspans; i++) {
        const struct chip_link_span *p = &c->spans[i];
        const bool first = !i || c->spans[i - 1].noc != p->noc || c->spans[i - 1].node != p->node ||
                           c->spans[i - 1].link != p->link;
        if (first) {
            char name[48];
            snprintf(name, sizeof name, "NoC %u (%u, %u) %s", p->noc, p->node % c->w, p->node / c->w,
                     link_name[p->link]);
            trace_doc_track(d, pid, ++tid, name);
        }
        const uint64_t a = p->from > from ? p->from : from, b = p->to < to ? p->to : to;
        if (a < b)
            trace_doc_slice(d, pid, tid, "busy", "noc", a, b);
    }
    return !c->spans_oom;
}

/* ---- a chip driven by a host ---- */

bool chip_start(struct chip *c)
{
    return c->run || (c->run = sim_begin(&c->sim, CHIP_WINDOW)) != NULL;
}

bool chip_advance(struct chip *c, uint64_t until, unsigned threads)
{
    return sim_advance(c->run, until, threads);
}

uint64_t chip_now(const struct chip *c) { return c->run ? sim_now(c->run) : 0; }

bool chip_noc_idle(const struct chip *c) { return c->rec_used == 0 && noc_in_flight(c->noc) == 0; }

enum err_kind chip_stop(struct chip *c)
{
    if (!c->run)
        return ERR_NONE;
    enum err_kind k = sim_end(c->run, true);
    c->run = NULL;
    return k;
}

/* The host's access to a Tensix tile's registers: the tile control block alone (soft reset, the
 * reset pcs, the clock gating: what UMD and tt-llk's harness write), 32-bit words. */
static bool host_mmio(struct tile *t, uint32_t addr, bool write, uint32_t *val, char *why, size_t len)
{
    if (addr & 3) {
        snprintf(why, len, "a register access at 0x%08x that is not 4-byte aligned", addr);
        return false;
    }
    if (tile_ctrl_host(t, addr, write, val))
        return true;
    snprintf(why, len, "a %s of register 0x%08x, which the library does not model (the host reaches "
             "L1 and the tile control and performance-counter registers 0xFFB12000-0xFFB12FFF)",
             write ? "write" : "read", addr);
    return false;
}

static bool host_access(struct chip *c, unsigned x, unsigned y, uint64_t addr, void *buf,
                        uint32_t n, bool write, char *why, size_t len)
{
    const enum chip_node k = chip_node_at(c, x, y);
    const uint64_t h = chip_now(c);
    if (k == CHIP_DRAM) {
        if (write ? chip_dram_write(c, x, y, addr, buf, n) : chip_dram_read(c, x, y, addr, buf, n))
            return true;
        snprintf(why, len, "DRAM (%u, %u) 0x%" PRIx64 " + %u: outside its %" PRIu64 "-byte bank",
                 x, y, addr, n, c->bank_size);
        return false;
    }
    struct tile *t = chip_tile_at(c, x, y);
    if (!t) {
        snprintf(why, len, "(%u, %u) is %s %s node: the library serves only Tensix tiles and "
                 "DRAM", x, y, k == CHIP_ARC || k == CHIP_ETH || k == CHIP_NONE ? "an" : "a",
                 k == CHIP_TENSIX ? "Tensix tile not added," : chip_node_name(k));
        return false;
    }
    /* Every agent of the tile has acted before h and none at h: the host goes first at h, as a
     * NoC delivery does (mem/niu_deliver.c). */
    t->now = h;
    t->running_agent = -1;
    c->sim.host_wrote |= write;
    if (addr < t->arch->l1_size && n <= t->arch->l1_size - addr) { /* no wrap-around */
        if (!write) {
            memcpy(buf, t->l1 + addr, n);
            return true;
        }
        if (!n)
            return true;
        t->epoch++; /* pollers look again (riscv/poll_sleep.h) */
        memcpy(t->l1 + addr, buf, n);
        tile_code_written(t, (uint32_t)addr, n);
        return true;
    }
    if (addr >= 0xFFB00000u && addr < 0x100000000ull && n <= 0x100000000ull - addr) {
        uint8_t *p = buf;
        for (uint32_t i = 0; i < n; i += 4) {
            uint32_t v = write ? (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
                                     (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24
                               : 0;
            if ((n & 3) || !host_mmio(t, (uint32_t)addr + i, write, &v, why, len)) {
                if (n & 3)
                    snprintf(why, len, "a register access of %u bytes at 0x%" PRIx64 " (only whole "
                             "32-bit words)", n, addr);
                return false;
            }
            if (t->err.kind != ERR_NONE) {
                snprintf(why, len, "%s", t->err.text);
                return false;
            }
            if (write)
                t->epoch++;
            else
                for (unsigned b = 0; b < 4; b++)
                    p[i + b] = (uint8_t)(v >> (8 * b));
        }
        return true;
    }
    snprintf(why, len, "tile (%u, %u) 0x%" PRIx64 " + %u: outside L1 (%u bytes) and the tile's "
             "registers", x, y, addr, n, t->arch->l1_size);
    return false;
}

bool chip_host_write(struct chip *c, unsigned x, unsigned y, uint64_t addr, const void *src,
                     uint32_t n, char *why, size_t len)
{
    return host_access(c, x, y, addr, (void *)src, n, true, why, len);
}

bool chip_host_read(struct chip *c, unsigned x, unsigned y, uint64_t addr, void *dst, uint32_t n,
                    char *why, size_t len)
{
    return host_access(c, x, y, addr, dst, n, false, why, len);
}

uint64_t chip_cycles(const struct chip *c)
{
    uint64_t m = c->last_cycle;
    for (unsigned i = 0; i < c->sim.ntiles; i++)
        if (c->sim.tile[i]->cycles > m)
            m = c->sim.tile[i]->cycles;
    return m;
}

/* ---- reports ---- */

void chip_report(const struct chip *c, FILE *f)
{
    fprintf(f, "chip: %s, %u tiles, %" PRIu64 " cycles, %" PRIu64 " NoC packets (%" PRIu64
            " deliveries), %u host threads, %" PRIu64 " windows (%" PRIu64 " skipped)\n",
            c->arch->name, c->sim.ntiles, chip_cycles(c), c->packets, c->deliveries,
            c->sim.ran_threads, c->sim.windows, c->sim.windows_skipped);
    for (unsigned i = 0; i < c->sim.ntiles; i++) {
        const struct tile *t = c->sim.tile[i];
        unsigned x, y;
        chip_tile_coords(c, i, &x, &y);
        fprintf(f, "  tile (%u, %u): %" PRIu64 " cycles, NoC packets sent %" PRIu64 " (%" PRIu64
                " bytes), received %" PRIu64 " (%" PRIu64 " bytes)%s%s\n", x, y, t->cycles,
                t->niu.st.tx_packets, t->niu.st.tx_bytes, t->niu.st.rx_packets,
                t->niu.st.rx_bytes, t->err.kind != ERR_NONE ? ", " : "",
                t->err.kind != ERR_NONE ? err_kind_text(t->err.kind) : "");
    }
    /* The busiest links: the five with the most busy cycles. */
    struct { uint64_t busy; unsigned noc, node, link; } top[5] = {0};
    for (unsigned noc = 0; noc < NOC_COUNT; noc++)
        for (unsigned n = 0; n < c->w * c->h; n++)
            for (unsigned l = 0; l < NOC_LINKS; l++) {
                const uint64_t b = noc_link_stats(c->noc, noc, n, (enum noc_link)l)->busy;
                for (unsigned k = 0; k < 5; k++)
                    if (b > top[k].busy) {
                        memmove(&top[k + 1], &top[k], (4 - k) * sizeof top[0]);
                        top[k].busy = b, top[k].noc = noc, top[k].node = n, top[k].link = l;
                        break;
                    }
            }
    for (unsigned k = 0; k < 5 && top[k].busy; k++)
        fprintf(f, "  busiest link %u: NoC %u (%u, %u) %s, busy %" PRIu64 " cycles\n", k + 1,
                top[k].noc, top[k].node % c->w, top[k].node / c->w, link_name[top[k].link],
                top[k].busy);
}

void chip_stats_json(const struct chip *c, FILE *f)
{
    fprintf(f, "{\n  \"schema\": \"tensim-chip-stats\",\n  \"version\": 1,\n  \"arch\": ");
    json_str(f, c->arch->name);
    fprintf(f, ",\n  \"grid\": [%u, %u],\n  \"cycles\": %" PRIu64 ",\n", c->w, c->h,
            chip_cycles(c));
    fprintf(f, "  \"noc\": {\"packets\": %" PRIu64 ", \"deliveries\": %" PRIu64
            ", \"peak_in_flight\": %u},\n", c->packets, c->deliveries, c->rec_peak);
    fprintf(f, "  \"dram\": [");
    for (unsigned b = 0; b < c->nbanks; b++)
        fprintf(f, "%s\n    {\"bank\": %u, \"reads\": %" PRIu64 ", \"writes\": %" PRIu64
                ", \"bytes_read\": %" PRIu64 ", \"bytes_written\": %" PRIu64 ", \"pages\": %"
                PRIu64 "}", b ? "," : "", b, c->bank_stats[b].reads, c->bank_stats[b].writes,
                c->bank_stats[b].bytes_read, c->bank_stats[b].bytes_written, c->bank[b].pages);
    fprintf(f, "\n  ],\n  \"links\": [");
    bool first = true;
    for (unsigned noc = 0; noc < NOC_COUNT; noc++)
        for (unsigned n = 0; n < c->w * c->h; n++)
            for (unsigned l = 0; l < NOC_LINKS; l++) {
                const struct noc_link_stats *s = noc_link_stats(c->noc, noc, n, (enum noc_link)l);
                if (!s->flits)
                    continue;
                fprintf(f, "%s\n    {\"noc\": %u, \"at\": [%u, %u], \"link\": \"%s\", \"flits\": %"
                        PRIu64 ", \"packets\": %" PRIu64 ", \"busy\": %" PRIu64
                        ", \"head_wait\": %" PRIu64 ", \"stalled\": %" PRIu64 "}",
                        first ? "" : ",", noc, n % c->w, n / c->w, link_name[l], s->flits,
                        s->packets, s->busy, s->head_wait, s->stalled);
                first = false;
            }
    fprintf(f, "\n  ],\n  \"tiles\": [");
    for (unsigned i = 0; i < c->sim.ntiles; i++) {
        unsigned x, y;
        chip_tile_coords(c, i, &x, &y);
        const struct niu_stats *n = &c->sim.tile[i]->niu.st;
        fprintf(f, "%s\n    {\"at\": [%u, %u], \"noc\": {\"sent\": %" PRIu64 ", \"sent_bytes\": %"
                PRIu64 ", \"received\": %" PRIu64 ", \"received_bytes\": %" PRIu64
                ", \"last_received\": %" PRIu64 "}, \"stats\": ", i ? "," : "", x, y,
                n->tx_packets, n->tx_bytes, n->rx_packets, n->rx_bytes, n->last_rx);
        stats_json(c->sim.tile[i], NULL, f);
        fprintf(f, "    }");
    }
    fprintf(f, "\n  ]\n}");
}
