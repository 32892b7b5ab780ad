/* Instruction push and MOP configuration windows (sync/push.h). */
#include "push.h"

#include "../core/tile.h"
#include "../trace/trace.h"

enum mmio_status tensix_push(struct tile *t, int core, unsigned thread, const uint32_t *w,
                             const tt_origin *o, unsigned n)
{
    struct tensix_thread *th = &t->thread[thread];
    /* TRISC pushes enter before the MOP expander, BRISC pushes after it (spec/sync-timing.md §1). */
    struct tt_fifo *f = core == CORE_BRISC ? &th->fifo2 : &th->fifo1;
    if (!tt_fifo_push_o(f, w, o, n)) {
        struct rv_core *c = &t->core[core];
        c->wait = WAIT_TENSIX_FIFO;
        c->wait_arg = thread;
        th->blocked_cores |= 1u << core;
        return MMIO_BLOCK;
    }
    th->pushed += n;
    t->threads_live |= (uint8_t)(1u << thread);
    t->core[core].st.tensix_pushes += n;
    if (t->tracer)
        trace_fifos(t->tracer, t, t->now + 1);
    tile_wake_coproc(t, t->now + 1); /* visible to the coprocessor from the next cycle */
    return MMIO_OK;
}

bool tensix_host_push(struct tile *t, unsigned thread, uint32_t word)
{
    struct tensix_thread *th = &t->thread[thread];
    if (!tt_fifo_push(&th->fifo2, &word, 1))
        return false;
    th->pushed++;
    t->threads_live |= (uint8_t)(1u << thread);
    if (t->tracer)
        trace_fifos(t->tracer, t, t->now + 1);
    tile_wake_coproc(t, t->now + 1);
    return true;
}

static enum mmio_status push_load(struct tile *t, int core, const struct region *r, uint32_t addr,
                                  unsigned size, uint32_t *val)
{
    (void)r, (void)size;
    *val = 0; /* write-only; loads are not documented to do anything */
    tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
               "load from the Tensix instruction push window 0x%08x", addr);
    return MMIO_ERROR;
}

static enum mmio_status push_store(struct tile *t, int core, const struct region *r, uint32_t addr,
                                   unsigned size, uint32_t val)
{
    (void)r;
    unsigned window = (addr - MEM_INSTRN_BUF_BASE) >> 16; /* 0, 1, 2 */
    if (size != 4) {
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "%u-byte store to the Tensix instruction push window 0x%08x (only sw pushes an "
                   "instruction)",
                   size, addr);
        return MMIO_ERROR;
    }
    if (core != CORE_BRISC && window != 0) {
        /* BHR:PushTensixInstruction.md: from a T core this store hangs the core. */
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "store to INSTRN%u_BUF_BASE (0x%08x) from %s hangs the core", window, addr,
                   core_name(core));
        return MMIO_ERROR;
    }
    const unsigned th = core == CORE_BRISC ? window : (unsigned)core;
    if (t->boot.instrn_buf_ctrl[0] >> th & 1) {
        /* WHR:PushTensixInstruction.md: "very likely to be silently discarded" */
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "push into thread %u while the debug bus has its FIFO (INSTRN_BUF_CTRL0 bit %u)",
                   th, th);
        return MMIO_ERROR;
    }
    tt_origin o = origin_make(core, t->core[core].pc, t->now);
    return tensix_push(t, core, th, &val, &o, 1);
}

static enum mmio_status mop_cfg_load(struct tile *t, int core, const struct region *r,
                                     uint32_t addr, unsigned size, uint32_t *val)
{
    (void)r, (void)size, (void)val;
    tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
               "load from MOP expander configuration 0x%08x (write-only)", addr);
    return MMIO_ERROR;
}

static enum mmio_status mop_cfg_store(struct tile *t, int core, const struct region *r,
                                      uint32_t addr, unsigned size, uint32_t val)
{
    (void)r, (void)size;
    /* WH:MOPExpander.md: software must not write while an expansion runs. */
    if (mop_busy(&t->thread[core].mop)) {
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "MOP configuration written while thread T%d's MOP expander is expanding", core);
        return MMIO_ERROR;
    }
    mop_cfg_write(&t->thread[core].mop, (addr - MEM_MOP_CFG_BASE) / 4, val);
    return MMIO_OK;
}

static const struct mmio_ops push_ops = {push_load, push_store, false, false};
static const struct mmio_ops mop_cfg_ops = {mop_cfg_load, mop_cfg_store, false, false};

const struct region push_regions[] = {
    {0xFFB80000, 0xFFB80023, "MOP expander configuration", &mop_cfg_ops, 7, MAP_T_CORES, MAP_BOTH, 0},
    {0xFFE40000, 0xFFE6FFFF, "Tensix instruction push", &push_ops, 3, MAP_TB_CORES, MAP_BOTH, 0},
};
const unsigned push_regions_len = sizeof push_regions / sizeof push_regions[0];
