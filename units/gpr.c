/* RISC-V access to the Tensix GPRs (units/gpr.h). */
#include "gpr.h"

#include "../core/tile.h"

/* Byte and half-word accesses reach the bytes of a GPR in little-endian order. Returns the GPR
 * and the bit position of the access, or NULL after raising an error for the rest of the
 * region. */
static uint32_t *gpr_slot(struct tile *t, int core, uint32_t addr, const char *what,
                          unsigned *shift)
{
    uint32_t off = addr - 0xFFE00000u;
    unsigned banks = core == CORE_BRISC ? NUM_THREADS : 1;
    if (off >= banks * NUM_GPRS * 4) {
        tile_error(t, ERR_BAD_ACCESS, core, t->core[core].pc,
                   "%s of 0x%08x: past the Tensix GPRs %s sees (%u x 64 x 32 bits from 0xFFE00000)",
                   what, addr, core_name(core), banks);
        return 0;
    }
    unsigned bank = core == CORE_BRISC ? off / (NUM_GPRS * 4) : (unsigned)core;
    *shift = 8 * (off & 3);
    return &t->gpr[bank][(off / 4) % NUM_GPRS];
}

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)r;
    unsigned sh;
    const uint32_t *g = gpr_slot(t, core, addr, "load", &sh);
    if (!g)
        return MMIO_ERROR;
    *val = (*g >> sh) & (0xFFFFFFFFu >> (32 - 8 * size));
    return MMIO_OK;
}

static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)r;
    unsigned sh;
    uint32_t *g = gpr_slot(t, core, addr, "store", &sh);
    if (!g)
        return MMIO_ERROR;
    uint32_t m = (0xFFFFFFFFu >> (32 - 8 * size)) << sh;
    *g = (*g & ~m) | ((val << sh) & m);
    tile_wake_coproc(t, t->now + 1); /* the threads see it from the next cycle */
    return MMIO_OK;
}

static const struct mmio_ops ops = {load, store, false};

const struct region gpr_regions[] = {
    {0xFFE00000, 0xFFE00FFF, "Tensix GPRs", &ops, 4, MAP_ALL_CORES, MAP_BOTH, 0},
};
const unsigned gpr_regions_len = 1;
