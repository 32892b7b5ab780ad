/* Semaphores, mutexes and the Sync slot (sync/semaphores.h). */
#include "semaphores.h"

#include <inttypes.h>
#include <string.h>

#include "../core/rules.h"
#include "../core/tile.h"

void sem_reset(struct sem_bank *s)
{
    memset(s, 0, sizeof *s);
    memset(s->mutex_owner, -1, sizeof s->mutex_owner);
}

bool sem_wait_blocks(const struct sem_bank *s, uint8_t sem_mask, uint16_t cond_mask)
{
    for (unsigned i = 0; i < NUM_SEMAPHORES; i++) {
        if (!(sem_mask >> i & 1))
            continue;
        if ((cond_mask & 1) && s->value[i] == 0)
            return true; /* C0: wait while Value == 0 */
        if ((cond_mask & 2) && s->value[i] >= s->max[i])
            return true; /* C1: wait while Value >= Max */
    }
    return false;
}

void sem_stats_json(const struct sem_bank *s, FILE *f)
{
    fprintf(f, "{\"semaphores\": [");
    for (int i = 0; i < NUM_SEMAPHORES; i++)
        fprintf(f, "%s{\"value\": %u, \"max\": %u}", i ? ", " : "", s->value[i], s->max[i]);
    fprintf(f, "], \"riscv_semaphore_writes\": %" PRIu64 ", \"riscv_slot_conflicts\": %" PRIu64 "}",
            s->st.riscv_sem_writes, s->st.riscv_slot_conflicts);
}

/* ---- RISC-V access to the semaphores (WH:SyncUnit.md) ---- */

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)core, (void)r, (void)size;
    *val = t->sem.value[(addr - 0xFFE80020u) / 4];
    return MMIO_OK;
}

/* A write of 0 posts, of 1 gets; it needs the Sync slot: the coprocessor acts first in a cycle,
 * so a RISC-V write that finds the slot taken waits a cycle (WH:SyncUnit.md). */
static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)r, (void)size;
    struct sem_bank *s = &t->sem;
    const unsigned i = (addr - 0xFFE80020u) / 4;
    if (s->slot_used == t->now + 1) {
        s->st.riscv_slot_conflicts++;
        t->core[core].wait = WAIT_SYNC_SLOT;
        return MMIO_BLOCK;
    }
    s->slot_used = t->now + 1;
    if (val & 1) {
        if (s->value[i] > 0)
            s->value[i]--;
        else if (t->lint)
            rule_broken(t, RULE_SEM_GET_ZERO, rule_site_riscv(t, core),
                        "%s: get (store of 1 to 0x%08x) on semaphore %u at Value 0: the get is "
                        "lost", core_name(core), addr, i);
    } else if (s->value[i] < 15) {
        s->value[i]++;
    } else if (t->lint) {
        rule_broken(t, RULE_SEM_POST_MAX, rule_site_riscv(t, core),
                    "%s: post (store of 0 to 0x%08x) on semaphore %u at Value 15: the post is lost",
                    core_name(core), addr, i);
    }
    s->st.riscv_sem_writes++;
    tile_wake_coproc(t, t->now + 1);
    return MMIO_OK;
}

static const struct mmio_ops ops = {load, store, false, true};

const struct region sem_regions[] = {
    {0xFFE80020, 0xFFE8003F, "Tensix semaphores", &ops, 3, MAP_T_CORES, MAP_BOTH, 0},
};
const unsigned sem_regions_len = 1;
