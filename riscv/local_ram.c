/* The cores' local data RAMs through the shared slow mapping (Blackhole, spec/memory-map.md §1
 * and §7): every core and the coprocessor's Scalar unit reach them. A core's own RAM at
 * MEM_LOCAL_BASE is handled inline by riscv/core.c. */
#include "local_ram.h"

#include "../core/tile.h"

static uint8_t *slow_local(struct tile *t, int core, const struct region *r, uint32_t addr)
{
    if (core != (int)r->arg) /* another agent's access sees the RAM as lockstep has it */
        tile_settle_core(t, (int)r->arg);
    /* The 8 KiB windows of the 4 KiB TRISC RAMs alias (spec/memory-map.md §7 item 2). */
    uint32_t size = t->arch->local_ram_size[r->arg];
    return &t->local_ram[r->arg][(addr - r->base) % size];
}

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    *val = le_get(slow_local(t, core, r, addr), size);
    return MMIO_OK;
}

static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    le_put(slow_local(t, core, r, addr), size, val);
    return MMIO_OK;
}

/* Loads are not plain (mmio_ops.plain_loads): the owner's own stores, through its fast path,
 * advance no epoch, so a loop polling another core's RAM must not sleep (riscv/poll_sleep.h). */
static const struct mmio_ops ops = {load, store, true, false};

const struct region local_ram_regions[] = {
    {0xFFB14000, 0xFFB15FFF, "BRISC local data RAM (slow path)", &ops, 8, MAP_ALL_CORES, MAP_BH,
     CORE_BRISC},
    {0xFFB16000, 0xFFB17FFF, "NCRISC local data RAM (slow path)", &ops, 8, MAP_ALL_CORES, MAP_BH,
     CORE_NCRISC},
    {0xFFB18000, 0xFFB19FFF, "TRISC0 local data RAM (slow path)", &ops, 8, MAP_ALL_CORES, MAP_BH,
     CORE_TRISC0},
    {0xFFB1A000, 0xFFB1BFFF, "TRISC1 local data RAM (slow path)", &ops, 8, MAP_ALL_CORES, MAP_BH,
     CORE_TRISC1},
    {0xFFB1C000, 0xFFB1DFFF, "TRISC2 local data RAM (slow path)", &ops, 8, MAP_ALL_CORES, MAP_BH,
     CORE_TRISC2},
};
const unsigned local_ram_regions_len = sizeof local_ram_regions / sizeof local_ram_regions[0];
