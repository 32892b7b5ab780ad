/* A chip: Tensix tiles, DRAM tiles and the rest of a Blackhole (or Wormhole) grid on the two
 * NoCs (mem/noc.h), run on host threads in windows (core/sim.h) with the NoC stepped between
 * windows (docs/architecture.md "A chip").
 *
 * Only the Tensix tiles a run adds are simulated; the others are nodes without a tile (a request
 * to one is the program's error). DRAM tiles are memory endpoints with sparse contents: 4 KiB
 * pages allocated on first write, zeros elsewhere. PCIe, ARC, Ethernet and CPU nodes exist in
 * the grid (they route packets) but take no requests. */
#ifndef TENSIM_CORE_CHIP_H
#define TENSIM_CORE_CHIP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim.h"

enum chip_node {
    CHIP_NONE,     /* nothing there (a Wormhole grid position without a tile) */
    CHIP_TENSIX,
    CHIP_DRAM,
    CHIP_PCIE,
    CHIP_ARC,
    CHIP_ETH,
    CHIP_CPU,      /* Blackhole's L2CPU and security tiles */
};

struct chip;

/* The full grid of `arch` (Blackhole 17 x 12, Wormhole 10 x 12) with no tiles yet; NULL when
 * out of memory. */
struct chip *chip_create(const struct arch *arch);
void chip_destroy(struct chip *c);
/* The sim that runs the tiles: set threads, pin and max_cycles there before chip_run. */
struct sim *chip_sim(struct chip *c);
const struct arch *chip_arch(const struct chip *c);
void chip_grid(const struct chip *c, unsigned *width, unsigned *height);

/* What sits at NoC 0 coordinates (x, y) (CHIP_NONE outside the grid), and its name. */
enum chip_node chip_node_at(const struct chip *c, unsigned x, unsigned y);
const char *chip_node_name(enum chip_node k);

/* A Tensix tile at NoC 0 (x, y), at power-on, its NIUs told their coordinates. NULL with a reason
 * in *why ("(3, 0) is a PCIe tile, not a Tensix tile", "a tile is already at (1, 2)", "out of
 * memory") otherwise, valid until the next call. Tiles run in the order they were added: that
 * order is part of the run. */
struct tile *chip_add_tile(struct chip *c, unsigned x, unsigned y, const char **why);
/* Makes the next n tiles chip_add_tile will add ahead of it, on `threads` host threads at once
 * (each thread the tiles that sim_run's worker of the same number starts with, which then
 * finds their memory first touched by its own core): a tile's memory is its biggest cost
 * before a run. chip_add_tile takes them in order; what it does not take, chip_destroy frees.
 * False when out of memory (chip_add_tile then makes its tiles itself). */
bool chip_prepare_tiles(struct chip *c, unsigned n, unsigned threads);
/* chip_prepare_tiles in two halves, so that the caller does something else meanwhile (make the
 * chip: its NoC is the other big cost before a run): begin starts threads 1.. on their shares
 * of n tiles of `arch` (NULL when out of memory); end makes thread 0's share on the caller's
 * thread, waits for the others and hands the tiles to c (its arch must be the same pointer).
 * All or nothing: when a tile could not be made, or c is NULL or has tiles, they are freed and
 * it returns false. `made` (when not NULL) is called with each tile i as soon as it is made, on
 * the thread that made it: loading the tiles in parallel too. */
struct chip_tiles;
struct chip_tiles *chip_tiles_begin(const struct arch *arch, unsigned n, unsigned threads,
                                    void (*made)(struct tile *t, unsigned i, void *ctx), void *ctx);
bool chip_tiles_end(struct chip_tiles *p, struct chip *c);
/* Tile i replaced by a new one at power-on, at the same place (the old one is freed): a tile
 * loaded ahead that a serial load would not have reached. NULL when out of memory (the old
 * one stays). */
struct tile *chip_renew_tile(struct chip *c, unsigned i);
/* The tile at (x, y), or NULL. */
struct tile *chip_tile_at(const struct chip *c, unsigned x, unsigned y);
unsigned chip_ntiles(const struct chip *c);
struct tile *chip_tile(const struct chip *c, unsigned i); /* in the order added */
void chip_tile_coords(const struct chip *c, unsigned i, unsigned *x, unsigned *y);

/* The host's view of a DRAM tile's memory (the bank (x, y) belongs to; Blackhole: 8 banks of
 * 4 GiB, three tiles each). False when (x, y) is not a DRAM tile or [addr, addr + n) is outside
 * its bank. Writes allocate pages; reads of pages never written give zeros. */
bool chip_dram_write(struct chip *c, unsigned x, unsigned y, uint64_t addr, const void *src,
                     uint64_t n);
bool chip_dram_read(const struct chip *c, unsigned x, unsigned y, uint64_t addr, void *dst,
                    uint64_t n);

/* Runs every tile to its end and the NoC until nothing is in flight. Each tile ends as it would
 * alone; a NoC request the chip cannot carry out (no tile at its destination, an address outside
 * the destination's memory) stops the source tile with an error. Returns the first error kind
 * in tile order, else ERR_NONE. Results, cycles, stats and traces do not depend on the sim's
 * thread count. */
enum err_kind chip_run(struct chip *c);
/* A chip driven by a host (the libttsim interface, core/libttsim.c): chip_start once the tiles
 * are added, then any number of chip_advance calls and host accesses between them, then
 * chip_stop. chip_advance runs the tiles and the NoC until every one stands at `until` (on
 * `threads` host threads for that call; results do not depend on it); false when an error
 * stopped the chip (the tile holds it). A tile that has finished waits for the host to give it
 * work. chip_stop ends every tile there (a tile still running ends at chip_now without an
 * error) and returns the first error kind in tile order. */
bool chip_start(struct chip *c); /* false: out of memory */
bool chip_advance(struct chip *c, uint64_t until, unsigned threads);
uint64_t chip_now(const struct chip *c);
/* Nothing on the NoC: every packet sent has been applied where it went (and its answer too). */
bool chip_noc_idle(const struct chip *c);
enum err_kind chip_stop(struct chip *c);
/* The host's access at chip_now, between advances, at NoC 0 (x, y): a Tensix tile's L1 (a
 * write is seen by its cores at chip_now: pollers wake) or its tile control registers (32-bit
 * words), or a DRAM tile's bank. Applied at once, with no NoC traffic. False, with the reason
 * in why[len], for anything else. */
bool chip_host_write(struct chip *c, unsigned x, unsigned y, uint64_t addr, const void *src,
                     uint32_t n, char *why, size_t len);
bool chip_host_read(struct chip *c, unsigned x, unsigned y, uint64_t addr, void *dst, uint32_t n,
                    char *why, size_t len);

/* The last cycle at which anything happened on the chip (a tile's end, a NoC delivery). */
uint64_t chip_cycles(const struct chip *c);

/* Host memory behind the chip's PCIe tiles (the libttsim library's host, for fast dispatch):
 * a tile's NoC read or write to a PCIe tile goes to these at its arrival, with the NoC address
 * it was sent to; false with a reason in why[n] stops the sending tile (bad access). Without
 * them such a request is the program's error, as before. */
struct chip_host_mem {
    void *ctx;
    bool (*rd)(void *ctx, uint64_t noc_addr, void *dst, uint32_t len, char *why, size_t n);
    bool (*wr)(void *ctx, uint64_t noc_addr, const void *src, uint32_t len, char *why, size_t n);
};
void chip_set_host_mem(struct chip *c, const struct chip_host_mem *m);

/* --trace: record every NoC link's busy periods from now on (before chip_run), then write them
 * as one process of the document, a track per link that carried a packet ("NoC 0 (3, 2) x"),
 * clipped to [from, to). False when memory ran out while recording. */
struct trace_doc;
void chip_trace_links(struct chip *c);
bool chip_link_trace(struct chip *c, struct trace_doc *d, int pid, uint64_t from, uint64_t to);

/* Per-tile summary lines and the NoC's busiest links (text), and everything as JSON (the
 * "chip" object of --stats: docs/stats-schema.md). */
void chip_report(const struct chip *c, FILE *f);
void chip_stats_json(const struct chip *c, FILE *f);

#endif
