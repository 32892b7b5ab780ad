/* Tile control, debug and status registers at RISCV_DEBUG_REGS 0xFFB12000 (spec/memory-map.md §4,
 * WHT:TileControlDebugStatus.md): the wall clock and the PCBuf override register are built; any
 * other register stops the run as unimplemented. The coprocessor reaches them too (LOADREG). */
#include "tile.h"

#include "../riscv/pcbuf.h"

enum { TILE_CTRL_BASE = 0xFFB12000u, TRISC_PC_BUF_OVERRIDE = 0x090, WALL_CLOCK_L = 0x1F0,
       WALL_CLOCK_L_LIVE_H = 0x1F4, WALL_CLOCK_H = 0x1F8 };

static enum mmio_status unimplemented(struct tile *t, int core, uint32_t addr, const char *what)
{
    tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
               "unimplemented register RISCV_DEBUG_REGS+0x%03x (%s 0x%08x)", addr - TILE_CTRL_BASE,
               what, addr);
    return MMIO_ERROR;
}

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)r, (void)size;
    addr &= ~3u;
    switch (addr - TILE_CTRL_BASE) {
    case TRISC_PC_BUF_OVERRIDE:
        *val = t->pcbuf_override;
        return MMIO_OK;
    case WALL_CLOCK_L:
        /* Reading the low half latches the high half (WHT:TileControlDebugStatus.md). */
        t->wall_clock_latch = (uint32_t)(t->now >> 32);
        *val = (uint32_t)t->now;
        return MMIO_OK;
    case WALL_CLOCK_L_LIVE_H:
        *val = (uint32_t)(t->now >> 32);
        return MMIO_OK;
    case WALL_CLOCK_H:
        *val = t->wall_clock_latch;
        return MMIO_OK;
    default:
        return unimplemented(t, core, addr, "load of");
    }
}

static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)r, (void)size;
    addr &= ~3u;
    if (addr - TILE_CTRL_BASE == TRISC_PC_BUF_OVERRIDE) {
        t->pcbuf_override = val & 0x3FFFFFFFu; /* 3 x (En, Busy, 8-bit Value) */
        pcbuf_recheck(t);
        return MMIO_OK;
    }
    if (addr - TILE_CTRL_BASE == WALL_CLOCK_L) {
        t->wall_clock_latch = (uint32_t)(t->now >> 32); /* a write only latches */
        return MMIO_OK;
    }
    return unimplemented(t, core, addr, "store to");
}

static const struct mmio_ops ops = {load, store, true};

const struct region tile_ctrl_regions[] = {
    {TILE_CTRL_BASE, 0xFFB12FFF, "tile control/debug/status", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
};
const unsigned tile_ctrl_regions_len = 1;
