/* The Dst register file (WH:Dst.md, BH:Dst.md): 1024 x 16 cells of 16 bits, a valid bit per
 * row, the Dst16b and Dst32b views with their row remapping, and the RISC-V window at
 * 0xFFBD8000 (Blackhole). Numbers are raw bits here; units/formats.c converts them. */
#ifndef TENSIM_UNITS_DEST_H
#define TENSIM_UNITS_DEST_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/map.h"

#define DEST_ROWS 1024
#define DEST_COLS 16
#define DEST_WINDOW_BASE 0xFFBD8000u
#define DEST_WINDOW_SIZE 0x8000u
#define DEST_BLOCKS (DEST_ROWS / 8) /* DstBits rows in aligned blocks of 8 */

struct tile;

struct dest {
    uint16_t bits[DEST_ROWS][DEST_COLS];
    bool row_valid[DEST_ROWS];
    /* The Dest hazard scoreboard (WH:Dst.md "Instruction scheduling"): the first cycle each
     * aligned 8-row DstBits block may be read again after a matrix-unit write. The matrix unit
     * and the packers stall on it. */
    uint64_t block_ready[DEST_BLOCKS];
    /* The same for the matrix unit's writes alone: the SFPU is not held by the scoreboard, so
     * an SFPLOAD before this cycle breaks a software rule (--lint, dst_sfpu_read_early). */
    uint64_t fpu_ready[DEST_BLOCKS];
    /* RISCV_DEBUG_REG_DBG_FEATURE_DISABLE bit 11 (BH:Dst.md, WH:Dst.md): Dst16b[Row] is the high
     * half of Dst32b[Row] instead of DstBits[Adj16(Row)]. Set through dest_set_dst16_on_hi32. */
    bool dst16_on_hi32;
    /* The columns SFPSTORE has written of each DstBits row that was not valid: SFPSTORE writes
     * 8 of a row's 16 columns, so a row it fills becomes valid with its last column (the matrix
     * unit's rule); until then it stays undefined (WH:ZEROACC.md). Zero for valid rows. */
    uint16_t sfpu_cols[DEST_ROWS];
};

/* A writer (the matrix unit) wrote DstBits block b; it may be read from cycle `ready` on. */
static inline void dest_block_written(struct dest *d, unsigned b, uint64_t ready)
{
    d->block_ready[b] = ready;
    d->fpu_ready[b] = ready;
}
/* The earliest cycle after `now` at which a block becomes readable (UINT64_MAX: none). */
uint64_t dest_next_ready(const struct dest *d, uint64_t now);

/* The row-address adjustments (Dst.md): remap_addrs and swizzle_32b come from
 * Config.DEST_ACCESS_CFG (a global Config word). Inline: the matrix unit maps a row per
 * instruction. */
static inline unsigned dest_adj16(unsigned r, bool remap_addrs)
{
    if (remap_addrs)
        r = (r & 0x3c7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2);
    return r & 0x3ff;
}
static inline unsigned dest_adj32(unsigned r, bool remap_addrs, bool swizzle_32b)
{
    r = dest_adj16(r, remap_addrs);
    if (swizzle_32b)
        r = (r & 0x3f3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1);
    return ((r & 0x1f8) << 1) | (r & 0x207);
}

/* Config.DEST_ACCESS_CFG remap_addrs / swizzle_32b (Blackhole; false on Wormhole). */
bool dest_remap_addrs(const struct tile *t);
bool dest_swizzle_32b(const struct tile *t);

/* Both flags, sampled once per instruction by the units that touch many rows, and the physical
 * DstBits row of a logical row in the Dst16b or Dst32b view. */
struct dest_map {
    bool remap, swizzle, hi16; /* hi16: dst16_on_hi32 */
};
struct dest_map dest_map_of(const struct tile *t);
static inline unsigned dest_phys(struct dest_map m, bool dst32, unsigned row)
{
    return dst32 || m.hi16 ? dest_adj32(row, m.remap, m.swizzle) : dest_adj16(row, m.remap);
}
/* DBG_FEATURE_DISABLE bit 11 was written (core/tile_ctrl.c). A Dst16b write then changes only
 * the high half: the page says the low half gets "something - generally garbage"; it keeps its
 * old bits here. */
void dest_set_dst16_on_hi32(struct tile *t, bool on);

/* The first aligned 8-row DstBits block among logical rows row0 .. row0 + n - 1 (Dst16b or
 * Dst32b view) that may not be read at `now`, or -1: the Dest hazard check of the matrix unit
 * and the packers, which stall on the same hazard (WH:Dst.md "Instruction scheduling"). */
int dest_first_blocked(const struct dest *d, struct dest_map m, bool dst32, unsigned row0,
                       unsigned n, uint64_t now);

/* The first DstBits block logical row `row` (Dst16b or Dst32b view) lies in whose matrix-unit
 * write is not readable at `now` (fpu_ready), or -1. */
int dest_fpu_pending(const struct dest *d, struct dest_map m, bool dst32, unsigned row, uint64_t now);

/* A Dst32b cell at physical row p: the high half in row p, the low half in row p + 8. */
static inline uint32_t dest_get32_at(const struct dest *d, unsigned p, unsigned col)
{
    return (uint32_t)d->bits[p][col] << 16 | d->bits[p + 8][col];
}
static inline void dest_put32_at(struct dest *d, unsigned p, unsigned col, uint32_t v)
{
    d->bits[p][col] = (uint16_t)(v >> 16);
    d->bits[p + 8][col] = (uint16_t)v;
}

/* The vector unit's access to one cell (SFPLOAD, SFPSTORE; WH:SFPLOAD.md, WH:SFPSTORE.md), at a
 * logical row of the Dst16b or Dst32b view. dest_sfpu_read: false when the cell's row (for
 * Dst32b either of its two DstBits rows) is not valid, which SFPLOAD may not read
 * (WH:ZEROACC.md). dest_sfpu_write: stores v, the row becomes valid when all 16 of its columns
 * have been written since it was last valid (sfpu_cols), and its 8-row block is unreadable to
 * the matrix unit and the packers before cycle `ready` (WH:Dst.md "Instruction scheduling"). */
bool dest_sfpu_read(const struct dest *d, struct dest_map m, bool dst32, unsigned row,
                    unsigned col, uint32_t *v);
void dest_sfpu_write(struct dest *d, struct dest_map m, bool dst32, unsigned row, unsigned col,
                     uint32_t v, uint64_t ready);

uint16_t dest_read16(const struct tile *t, unsigned row, unsigned col);
void dest_write16(struct tile *t, unsigned row, unsigned col, uint16_t v);
uint32_t dest_read32(const struct tile *t, unsigned row, unsigned col);
void dest_write32(struct tile *t, unsigned row, unsigned col, uint32_t v);

/* RISC-V access to the Dst window by TRISC `core` (size 1, 2 or 4; addr aligned). Returns
 * false after raising an error (undefined format/size combinations). */
bool dest_window_load(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t *val);
bool dest_window_store(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t val);
/* The window's address row (Blackhole TRISCs). */
extern const struct region dest_regions[];
extern const unsigned dest_regions_len;

#endif
