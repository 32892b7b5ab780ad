/* The address map: finding the region of an address and handing the access to its owner
 * (mem/map.h). Nothing here models a device. */
#include "map.h"

#include "../core/tile.h"

#define T_CORES MAP_T_CORES
#define TB_CORES MAP_TB_CORES
#define ALL_CORES MAP_ALL_CORES

/* Regions of BHR:README.md's map (WH differences from spec/memory-map.md §1) that tensim does
 * not model yet. Latencies are the documented minimums ("at least N"). */
const struct region map_unmodelled[] = {
    {0xFFB11000, 0xFFB11FFF, "TDMA-RISC", NULL, 4, TB_CORES, MAP_BH, 0}, /* BH: not NCRISC */
    {0xFFB11000, 0xFFB11FFF, "TDMA-RISC", NULL, 7, ALL_CORES, MAP_WH, 0},
    {0xFFB13000, 0xFFB13FFF, "PIC", NULL, 7, ALL_CORES, MAP_BOTH, 0},
    {0xFFB40000, 0xFFB7FFFF, "NoC overlay", NULL, 7, ALL_CORES, MAP_BOTH, 0},
    /* Wormhole's NCRISC runs from its 16 KiB instruction RAM (WHR:README.md); Blackhole's has
     * none and runs from L1. */
    {0xFFC00000, 0xFFC03FFF, "NCRISC instruction RAM", NULL, 2, MAP_NC_CORE, MAP_WH, 0},
    {0xFFE8000C, 0xFFE8001F, "Manual TTSync (undocumented part)", NULL, 3, T_CORES, MAP_BOTH, 0},
    {0xFFE80040, 0xFFE8FFFF, "Tensix semaphores (undocumented part)", NULL, 3, T_CORES, MAP_BOTH, 0},
};
const unsigned map_unmodelled_len = sizeof map_unmodelled / sizeof map_unmodelled[0];

bool map_register(struct mem_map *m, const struct region *rows, unsigned n)
{
    if (m->ntables == MAP_MAX_TABLES)
        return false;
    m->table[m->ntables] = rows;
    m->len[m->ntables++] = n;
    return true;
}

static unsigned arch_bit(const struct tile *t)
{
    return t->arch->id == ARCH_WORMHOLE ? MAP_WH : MAP_BH;
}

const struct region *map_find(const struct tile *t, int core, uint32_t addr)
{
    static const struct region l1 = {0, 0, "L1", NULL, 8, ALL_CORES, MAP_BOTH, 0};
    static const struct region local = {MEM_LOCAL_BASE, 0, "local data RAM", NULL, 2, ALL_CORES,
                                        MAP_BOTH, 0};
    if (addr < t->arch->l1_size)
        return &l1;
    if (addr - MEM_LOCAL_BASE < t->arch->local_ram_size[core])
        return &local;
    const unsigned ab = arch_bit(t);
    const struct mem_map *m = &t->map;
    for (unsigned k = 0; k < m->ntables; k++)
        for (unsigned i = 0; i < m->len[k]; i++) {
            const struct region *r = &m->table[k][i];
            if (addr >= r->base && addr <= r->last && (r->archs & ab) && (r->cores >> core & 1))
                return r;
        }
    return 0;
}

static enum mmio_status unmapped(struct tile *t, int core, uint32_t addr, const char *what)
{
    /* On silicon such loads usually hang and stores may vanish (WHR:README.md, "Faults"). */
    tile_error(t, ERR_BAD_ACCESS, core, t->core[core].pc,
               "%s of 0x%08x: no memory region at this address for %s", what, addr,
               core_name(core));
    return MMIO_ERROR;
}

static enum mmio_status unimplemented(struct tile *t, int core, uint32_t addr,
                                      const struct region *r, const char *what)
{
    tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
               "unimplemented region %s: %s of 0x%08x", r->name, what, addr);
    return MMIO_ERROR;
}

enum mmio_status mmio_load(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t *val,
                           unsigned *latency)
{
    const struct region *r = map_find(t, core, addr);
    if (!r)
        return unmapped(t, core, addr, "load");
    *latency = r->load_latency;
    if (!r->ops)
        return unimplemented(t, core, addr, r, "load");
    enum mmio_status s = r->ops->load(t, core, r, addr, size, val);
    if (!r->ops->plain_loads) /* after it: what it changed counts from here (riscv/poll_sleep.h) */
        t->epoch++;
    return s;
}

enum mmio_status mmio_store(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t val)
{
    const struct region *r = map_find(t, core, addr);
    if (!r)
        return unmapped(t, core, addr, "store");
    if (!r->ops)
        return unimplemented(t, core, addr, r, "store");
    enum mmio_status s = r->ops->store(t, core, r, addr, size, val);
    /* After the store, not before: a core it brings back (rv_rewind) records its polling rounds
     * as of before the store, so the next round sees a change (riscv/poll_sleep.h). */
    t->epoch++;
    return s;
}

/* ---- the coprocessor's MMIO accesses (LOADREG, STOREREG, STOREIND MMIO form) ---- */

/* The region the Scalar unit reaches at addr: the same map, for the architecture, whatever the
 * cores that see it (ThCon's window is 0xFFB11000..0xFFBFFFFF, WH:LOADREG.md). */
static const struct region *tensix_find(const struct tile *t, uint32_t addr)
{
    const unsigned ab = arch_bit(t);
    const struct mem_map *m = &t->map;
    const struct region *first = NULL;
    for (unsigned k = 0; k < m->ntables; k++)
        for (unsigned i = 0; i < m->len[k]; i++) {
            const struct region *r = &m->table[k][i];
            if (addr < r->base || addr > r->last || !(r->archs & ab))
                continue;
            if (r->ops && r->ops->tensix)
                return r;
            if (!first)
                first = r;
        }
    return first;
}

static enum mmio_status tensix_mmio(struct tile *t, unsigned th, uint32_t addr, uint32_t *val,
                                    bool load)
{
    const char *what = load ? "load" : "store";
    const struct region *r = tensix_find(t, addr);
    if (!r) {
        tile_error(t, ERR_BAD_ACCESS, -1, 0,
                   "thread T%u: Tensix MMIO %s of 0x%08x: no memory region at this address", th,
                   what, addr);
        return MMIO_ERROR;
    }
    if (r->ops && r->ops->tensix)
        return load ? r->ops->load(t, -1, r, addr, 4, val) : r->ops->store(t, -1, r, addr, 4, *val);
    /* TDMA-RISC, PIC, NoC, overlay; and the regions only the cores reach, whose behaviour from
     * the coprocessor is not documented. */
    tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
               "unimplemented region %s: Tensix MMIO %s of 0x%08x (thread T%u)", r->name, what,
               addr, th);
    return MMIO_ERROR;
}

enum mmio_status tensix_mmio_load(struct tile *t, unsigned th, uint32_t addr, uint32_t *val)
{
    return tensix_mmio(t, th, addr, val, true);
}

enum mmio_status tensix_mmio_store(struct tile *t, unsigned th, uint32_t addr, uint32_t val)
{
    return tensix_mmio(t, th, addr, &val, false);
}
