/* Mailboxes (riscv/mailbox.h). A write pushes into the mailbox from the writer to the core the
 * address names; a read pops from the mailbox from that core to the reader (address bit 2 set:
 * only ask whether it holds anything). A pop from an empty mailbox waits for a push; a push waits
 * while its mailbox is full or the writer's four mailboxes hold four words together. On silicon
 * such a push waits in shared buffers of the memory subsystem and the core may run on until those
 * fill (BHR:Mailboxes.md); here the core stalls at once, as it does on a full PCBuf. */
#include "mailbox.h"

#include "../core/tile.h"

/* Mailbox numbering of a core: B 0, Ti i + 1. */
static unsigned box_of(int core)
{
    return core == CORE_BRISC ? 0u : (unsigned)core + 1u;
}

static int core_of(unsigned box)
{
    return box == 0 ? CORE_BRISC : (int)box - 1;
}

static unsigned held_by_writer(const struct mailboxes *m, unsigned from)
{
    return (unsigned)m->count[from][0] + m->count[from][1] + m->count[from][2] + m->count[from][3];
}

/* Wake `id` if it waits on `wait` for mailbox `arg`. A core earlier in the cycle order than the
 * one acting now has already acted in this cycle, so it retries in the next. */
static void wake_waiter(struct tile *t, int acting, int id, enum core_wait wait, unsigned arg)
{
    const struct rv_core *c = &t->core[id];
    if (c->state == CORE_BLOCKED && c->wait == wait && c->wait_arg == arg)
        tile_wake_core(t, id, t->now + (id < acting ? 1 : 0));
}

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)size;
    struct mailboxes *m = &t->mbox;
    unsigned from = r->arg, to = box_of(core);
    if (addr & 4) {
        *val = m->count[from][to] != 0;
        return MMIO_OK;
    }
    if (!m->count[from][to]) {
        t->core[core].wait = WAIT_MAILBOX_POP;
        t->core[core].wait_arg = from;
        return MMIO_BLOCK;
    }
    *val = m->word[from][to][m->head[from][to]];
    m->head[from][to] = (uint8_t)((m->head[from][to] + 1) % MAILBOX_DEPTH);
    m->count[from][to]--;
    for (unsigned k = 0; k < 4; k++) /* the writer may wait on any of its four */
        wake_waiter(t, core, core_of(from), WAIT_MAILBOX_PUSH, k);
    return MMIO_OK;
}

static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)addr, (void)size;
    struct mailboxes *m = &t->mbox;
    unsigned from = box_of(core), to = r->arg;
    if (m->count[from][to] == MAILBOX_DEPTH || held_by_writer(m, from) >= MAILBOX_DEPTH) {
        t->core[core].wait = WAIT_MAILBOX_PUSH;
        t->core[core].wait_arg = to;
        return MMIO_BLOCK;
    }
    m->word[from][to][(m->head[from][to] + m->count[from][to]) % MAILBOX_DEPTH] = val;
    m->count[from][to]++;
    wake_waiter(t, core, core_of(to), WAIT_MAILBOX_POP, from);
    return MMIO_OK;
}

void mailbox_core_reset(struct tile *t, int core)
{
    if (core == CORE_NCRISC) /* it has none (spec/memory-map.md §1) */
        return;
    unsigned from = box_of(core);
    for (unsigned to = 0; to < 4; to++) {
        t->mbox.count[from][to] = 0;
        t->mbox.head[from][to] = 0;
    }
}

static const struct mmio_ops ops = {load, store, false, false};

const struct region mailbox_regions[] = {
    {0xFFEC0000, 0xFFEC0FFF, "mailbox 0 (B)", &ops, 3, MAP_TB_CORES, MAP_BOTH, 0},
    {0xFFEC1000, 0xFFEC1FFF, "mailbox 1 (T0)", &ops, 3, MAP_TB_CORES, MAP_BOTH, 1},
    {0xFFEC2000, 0xFFEC2FFF, "mailbox 2 (T1)", &ops, 3, MAP_TB_CORES, MAP_BOTH, 2},
    {0xFFEC3000, 0xFFEC3FFF, "mailbox 3 (T2)", &ops, 3, MAP_TB_CORES, MAP_BOTH, 3},
};
const unsigned mailbox_regions_len = sizeof mailbox_regions / sizeof mailbox_regions[0];
