/* PCBufs (riscv/pcbuf.h; BHR:PCBufs.md). */
#include "pcbuf.h"

#include "../core/tile.h"
#include "../sync/thread.h"

static bool override_bit(const struct tile *t, unsigned i, unsigned bit)
{
    return (t->pcbuf_override >> (10 * i + bit)) & 1;
}

static bool b_read_done(const struct tile *t, unsigned i, uint32_t *val)
{
    *val = 0;
    if (override_bit(t, i, 0) && override_bit(t, i, 1))
        return true;
    const struct rv_core *ti = &t->core[i];
    return t->pcbuf[i].count == 0 && ti->state == CORE_BLOCKED && ti->wait == WAIT_PCBUF_POP &&
           thread_drained(t, i);
}

void pcbuf_recheck(struct tile *t)
{
    struct rv_core *b = &t->core[CORE_BRISC];
    uint32_t v;
    if (b->state == CORE_BLOCKED && b->wait == WAIT_PCBUF_B_READ && b_read_done(t, b->wait_arg, &v))
        tile_wake_core(t, CORE_BRISC, t->now);
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        struct rv_core *c = &t->core[i];
        if (c->state == CORE_BLOCKED && c->wait == WAIT_PCBUF_POP && override_bit(t, i, 0))
            tile_wake_core(t, (int)i, t->now + 1);
    }
}

/* A TRISC reads its own PCBuf; BRISC's read of PCBuf i waits for TRISC i to be idle. */
static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)addr, (void)size;
    const unsigned i = core == CORE_BRISC ? r->arg : (unsigned)core;
    struct pcbuf *p = &t->pcbuf[i];
    struct rv_core *c = &t->core[core];
    if (core == CORE_BRISC) {
        if (b_read_done(t, i, val))
            return MMIO_OK;
        c->wait = WAIT_PCBUF_B_READ;
        c->wait_arg = i;
        return MMIO_BLOCK;
    }
    if (!p->count) {
        if (override_bit(t, i, 0)) {
            *val = (t->pcbuf_override >> (10 * i + 2)) & 0xFF;
            return MMIO_OK;
        }
        c->wait = WAIT_PCBUF_POP;
        c->wait_arg = i;
        /* BRISC may be waiting for exactly this; it is checked once this core has blocked. */
        tile_wake_coproc(t, t->now + 1);
        return MMIO_BLOCK;
    }
    *val = p->word[p->head];
    p->head = (p->head + 1) % 16;
    p->count--;
    struct rv_core *b = &t->core[CORE_BRISC];
    if (b->state == CORE_BLOCKED && b->wait == WAIT_PCBUF_PUSH && b->wait_arg == i)
        tile_wake_core(t, CORE_BRISC, t->now); /* BRISC acts after the TRISCs in a cycle */
    return MMIO_OK;
}

/* BRISC writes PCBuf i; TRISC writes are discarded. */
static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)addr, (void)size;
    if (core != CORE_BRISC)
        return MMIO_OK;
    const unsigned i = r->arg;
    struct pcbuf *p = &t->pcbuf[i];
    struct rv_core *b = &t->core[CORE_BRISC];
    if (p->count == 16) { /* the shared buffers behind it are not modelled: stall now */
        b->wait = WAIT_PCBUF_PUSH;
        b->wait_arg = i;
        return MMIO_BLOCK;
    }
    p->word[(p->head + p->count) % 16] = val;
    p->count++;
    struct rv_core *c = &t->core[i];
    if (c->state == CORE_BLOCKED && c->wait == WAIT_PCBUF_POP)
        tile_wake_core(t, (int)i, t->now + 1); /* TRISC i acted earlier in this cycle */
    return MMIO_OK;
}

static const struct mmio_ops ops = {load, store, false, false};

const struct region pcbuf_regions[] = {
    {0xFFE80000, 0xFFE80003, "PCBuf", &ops, 3, MAP_T_CORES, MAP_BOTH, 0},
    {0xFFE80000, 0xFFE8FFFF, "PCBuf 0 (BRISC side)", &ops, 3, MAP_B_CORE, MAP_BOTH, 0},
    {0xFFE90000, 0xFFE9FFFF, "PCBuf 1 (BRISC side)", &ops, 3, MAP_B_CORE, MAP_BOTH, 1},
    {0xFFEA0000, 0xFFEAFFFF, "PCBuf 2 (BRISC side)", &ops, 3, MAP_B_CORE, MAP_BOTH, 2},
};
const unsigned pcbuf_regions_len = sizeof pcbuf_regions / sizeof pcbuf_regions[0];
