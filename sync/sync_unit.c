#include "sync_unit.h"

#include <string.h>

#include "../core/tile.h"

/* Field positions are in units/tensix.def (read through TT_GET_<form>_<Field>). STALLWAIT's
 * ConditionMask is [12:0] on BH and [14:0] on WH (BH:STALLWAIT.md, WH:STALLWAIT.md): the
 * decoded form says which. */

static void reset(struct tile *t)
{
    struct sync_unit *s = &t->sync;
    /* Semaphore reset values are not documented (spec/memory-map.md §6.2); software runs
     * SEMINIT first. tensim starts them at Value 0, Max 0. */
    memset(s, 0, sizeof *s);
    memset(s->mutex_owner, -1, sizeof s->mutex_owner);
}

bool sync_mutex_valid(const struct tile *t, unsigned m)
{
    /* WH:ATGETM.md: 0, 2..7; BH:ATGETM.md: 0, 2..4. Index 1 names no mutex. */
    unsigned last = t->arch->id == ARCH_WORMHOLE ? 7 : 4;
    return m == 0 || (m >= 2 && m <= last);
}

bool sync_semwait_blocks(const struct sync_unit *s, uint8_t sem_mask, uint16_t cond_mask)
{
    for (unsigned i = 0; i < NUM_SEMAPHORES; i++) {
        if (!(sem_mask >> i & 1))
            continue;
        if ((cond_mask & 1) && s->sem_value[i] == 0)
            return true; /* C0: wait while Value == 0 */
        if ((cond_mask & 2) && s->sem_value[i] >= s->sem_max[i])
            return true; /* C1: wait while Value >= Max */
    }
    return false;
}

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    const struct sync_unit *s = &t->sync;
    unsigned op = f->opcode;
    if (op == TT_OPC_ATGETM || op == TT_OPC_ATRELM) {
        unsigned m = TT_GET_ATGETM_Index(w); /* ATRELM Index: the same bits [15:0] */
        *detail = m < GATE_DETAIL_MAX ? m : GATE_DETAIL_MAX - 1;
        if (!sync_mutex_valid(t, m))
            return GS_MUTEX; /* an invalid index waits forever */
        if (op == TT_OPC_ATGETM && s->mutex_owner[m] >= 0 && (unsigned)s->mutex_owner[m] != th)
            return GS_MUTEX;
        return GS_NONE;
    }
    return GS_NONE;
}

/* Mutex operations have a resource per mutex (several per cycle if distinct), everything else
 * competes for the single Sync slot (spec/sync-timing.md §2). */
static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th;
    if (f->opcode == TT_OPC_ATGETM || f->opcode == TT_OPC_ATRELM) /* Index: the same bits */
        return RES_MUTEX0 + (TT_GET_ATGETM_Index(w) & (NUM_MUTEXES - 1));
    return RES_SYNC_SLOT;
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct sync_unit *s = &t->sync;
    struct latched_wait *lw = &t->thread[th].wait;
    switch (f->opcode) {
    case TT_OPC_ATGETM:
        s->mutex_owner[TT_GET_ATGETM_Index(w)] = (int8_t)th;
        s->st.mutex_ops++;
        return true;
    case TT_OPC_ATRELM: {
        unsigned m = TT_GET_ATRELM_Index(w);
        if (s->mutex_owner[m] == (int8_t)th) {
            s->mutex_owner[m] = -1;
            /* WH:ATRELM.md: with both other threads waiting, (i+1) mod 3 gets it next. */
            t->res_next[RES_MUTEX0 + m] = (uint8_t)((th + 1) % NUM_THREADS);
        }
        s->st.mutex_ops++;
        return true;
    }
    case TT_OPC_SEMINIT: {
        unsigned mask = TT_GET_SEMINIT_SemaphoreMask(w);
        for (unsigned i = 0; i < NUM_SEMAPHORES; i++)
            if (mask >> i & 1) {
                s->sem_value[i] = (uint8_t)TT_GET_SEMINIT_NewValue(w);
                s->sem_max[i] = (uint8_t)TT_GET_SEMINIT_NewMax(w);
            }
        break;
    }
    case TT_OPC_SEMPOST: {
        unsigned mask = TT_GET_SEMPOST_SemaphoreMask(w);
        for (unsigned i = 0; i < NUM_SEMAPHORES; i++)
            if ((mask >> i & 1) && s->sem_value[i] < 15)
                s->sem_value[i]++;
        break;
    }
    case TT_OPC_SEMGET: {
        unsigned mask = TT_GET_SEMGET_SemaphoreMask(w);
        for (unsigned i = 0; i < NUM_SEMAPHORES; i++)
            if ((mask >> i & 1) && s->sem_value[i] > 0)
                s->sem_value[i]--;
        break;
    }
    case TT_OPC_STALLWAIT_BH:
    case TT_OPC_SEMWAIT: {
        /* The instruction's only effect: it becomes the latched wait, replacing any earlier one.
         * Zero masks take the documented defaults (WH:STALLWAIT.md, BH:STALLWAIT.md,
         * WH:SEMWAIT.md): BlockMask 0 -> B6; ConditionMask 0 -> the arch's default mask; a
         * SEMWAIT with ConditionMask 0 behaves as that STALLWAIT. */
        bool semwait = f->opcode == TT_OPC_SEMWAIT;
        /* BlockMask: the same bits [23:15] in SEMWAIT and both STALLWAIT forms */
        unsigned block = TT_GET_SEMWAIT_BlockMask(w);
        unsigned cond = semwait ? TT_GET_SEMWAIT_ConditionMask(w)
                        : f == &tt_forms[TT_FORM_STALLWAIT_BH]
                            ? TT_GET_STALLWAIT_BH_ConditionMask(w)
                            : TT_GET_STALLWAIT_WH_ConditionMask(w);
        bool sem = semwait && cond != 0;
        if (!sem && cond == 0)
            cond = t->arch->stall_cond_default;
        *lw = (struct latched_wait){
            .active = true,
            .is_semwait = sem,
            .block_mask = (uint16_t)(block ? block : 1u << 6),
            .cond_mask = (uint16_t)cond,
            .sem_mask = (uint8_t)(sem ? TT_GET_SEMWAIT_SemaphoreMask(w) : 0),
            .word = w,
        };
        s->st.waits++;
        break;
    }
    default: /* STREAMWAIT */
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "STREAMWAIT (thread T%u): NoC overlay streams are not modelled", th);
    }
    s->st.sem_ops += f->opcode != TT_OPC_STALLWAIT_BH && f->opcode != TT_OPC_SEMWAIT;
    s->slot_used = t->now + 1;
    return true;
}

/* ---- RISC-V access to the semaphores (WH:SyncUnit.md) ---- */

static enum mmio_status sem_load(struct tile *t, int core, const struct region *r, uint32_t addr,
                                 unsigned size, uint32_t *val)
{
    (void)core, (void)r, (void)size;
    *val = t->sync.sem_value[(addr - 0xFFE80020u) / 4];
    return MMIO_OK;
}

static bool sem_store(struct tile *t, unsigned i, uint32_t value)
{
    struct sync_unit *s = &t->sync;
    /* One Sync-slot user per cycle: the coprocessor acts first in a cycle, so a RISC-V write
     * that finds the slot taken waits a cycle (WH:SyncUnit.md). */
    if (s->slot_used == t->now + 1) {
        s->st.riscv_slot_conflicts++;
        return false;
    }
    s->slot_used = t->now + 1;
    if (value & 1) {
        if (s->sem_value[i] > 0)
            s->sem_value[i]--;
    } else if (s->sem_value[i] < 15) {
        s->sem_value[i]++;
    }
    s->st.riscv_sem_writes++;
    return true;
}

static enum mmio_status sem_store_mmio(struct tile *t, int core, const struct region *r,
                                       uint32_t addr, unsigned size, uint32_t val)
{
    (void)r, (void)size;
    if (!sem_store(t, (addr - 0xFFE80020u) / 4, val)) {
        t->core[core].wait = WAIT_SYNC_SLOT;
        return MMIO_BLOCK;
    }
    tile_wake_coproc(t, t->now + 1);
    return MMIO_OK;
}

static const struct mmio_ops sem_ops = {sem_load, sem_store_mmio, false};

static const struct region regions[] = {
    {0xFFE80020, 0xFFE8003F, "Tensix semaphores", &sem_ops, 3, MAP_T_CORES, MAP_BOTH, 0},
};

const struct unit_desc sync_unit_desc = {
    .name = "sync", .reset = reset, .can_accept = can_accept, .resource = resource, .accept = accept,
    .regions = regions, .nregions = 1,
};
