/* The Tensix GPRs' late writes and RISC-V window (units/gpr.h). */
#include "gpr.h"

#include <stddef.h>

#include "../core/tile.h"
#include "pending.h"

bool gpr_write_at(struct tile *t, unsigned th, unsigned reg, uint32_t value, uint64_t at)
{
    struct gpr_writes *q = &t->gpr_pend;
    if (q->n == GPR_PENDING_MAX)
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "more than %d GPR writes in flight (tensim limit)", GPR_PENDING_MAX);
    q->w[q->n++] = (struct gpr_write){.at = at, .value = value, .th = (uint8_t)th, .reg = (uint8_t)reg};
    return true;
}

_Static_assert(offsetof(struct gpr_write, at) == 0, "pending_due reads `at` first");

static unsigned due(const struct gpr_writes *q, uint64_t s, unsigned order[GPR_PENDING_MAX])
{
    return pending_due(q->w, sizeof q->w[0], q->n, s, order);
}

uint32_t gpr_peek(const struct tile *t, unsigned th, unsigned reg, uint64_t s)
{
    const struct gpr_writes *q = &t->gpr_pend;
    uint32_t v = t->gpr[th][reg];
    unsigned order[GPR_PENDING_MAX];
    unsigned n = due(q, s, order);
    for (unsigned k = 0; k < n; k++)
        if (q->w[order[k]].th == th && q->w[order[k]].reg == reg)
            v = q->w[order[k]].value;
    return v;
}

void gpr_commit_due(struct tile *t, uint64_t upto)
{
    struct gpr_writes *q = &t->gpr_pend;
    unsigned order[GPR_PENDING_MAX];
    unsigned n = due(q, upto, order);
    for (unsigned k = 0; k < n; k++) {
        const struct gpr_write *w = &q->w[order[k]];
        t->gpr[w->th][w->reg] = w->value;
    }
    q->n = pending_remove(q->w, sizeof q->w[0], q->n, order, n);
}

uint64_t gpr_next_write(const struct tile *t, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < t->gpr_pend.n; i++)
        if (t->gpr_pend.w[i].at > now && t->gpr_pend.w[i].at < next)
            next = t->gpr_pend.w[i].at;
    return next;
}

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

static const struct mmio_ops ops = {load, store, false, true};

const struct region gpr_regions[] = {
    {0xFFE00000, 0xFFE00FFF, "Tensix GPRs", &ops, 4, MAP_TB_CORES, MAP_BOTH, 0},
};
const unsigned gpr_regions_len = 1;
