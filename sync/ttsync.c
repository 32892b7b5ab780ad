/* Manual TTSync (sync/ttsync.h). */
#include "ttsync.h"

#include "../core/tile.h"
#include "thread.h"

bool ttsync_done(const struct tile *t, enum core_wait w, unsigned th)
{
    const struct tensix_thread *p = &t->thread[th];
    if (w == WAIT_MOP_DONE) {
        for (unsigned i = 0; i < p->fifo1.count; i++)
            if (tt_opcode(tt_fifo_peek(&p->fifo1, i)) == TT_OPC_MOP)
                return false;
        return !mop_busy(&p->mop);
    }
    return thread_drained(t, th);
}

/* The value returned carries no information. */
static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)r, (void)size;
    enum core_wait w = (addr & ~3u) == 0xFFE80004u ? WAIT_COPROC_DONE : WAIT_MOP_DONE;
    *val = 0;
    if (ttsync_done(t, w, (unsigned)core))
        return MMIO_OK;
    t->core[core].wait = w;
    t->core[core].wait_arg = (unsigned)core;
    tile_wake_coproc(t, t->now + 1); /* it re-checks the condition as it runs */
    return MMIO_BLOCK;
}

/* Stores are discarded (software uses them to order earlier stores). */
static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)t, (void)core, (void)r, (void)addr, (void)size, (void)val;
    return MMIO_OK;
}

static const struct mmio_ops ops = {load, store, false, false};

const struct region ttsync_regions[] = {
    {0xFFE80004, 0xFFE8000B, "Manual TTSync", &ops, 3, MAP_T_CORES, MAP_BOTH, 0},
};
const unsigned ttsync_regions_len = 1;
