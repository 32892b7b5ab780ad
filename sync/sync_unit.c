#include "sync_unit.h"

#include <string.h>

#include "../core/rules.h"
#include "../core/tile.h"
#include "semaphores.h"

/* Field positions are in units/tensix.def (read through TT_GET_<form>_<Field>). STALLWAIT's
 * ConditionMask is [12:0] on BH and [14:0] on WH (BH:STALLWAIT.md, WH:STALLWAIT.md): the
 * decoded form says which. */

static void reset(struct tile *t) { tile_zero(t, &t->sync, sizeof t->sync); }

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    const struct sem_bank *s = &t->sem;
    unsigned op = f->opcode;
    if (op == TT_OPC_ATGETM || op == TT_OPC_ATRELM) {
        unsigned m = TT_GET_ATGETM_Index(w); /* ATRELM Index: the same bits [15:0] */
        *detail = m < GATE_DETAIL_MAX ? m : GATE_DETAIL_MAX - 1;
        if (!sem_mutex_valid(t->arch, m))
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

/* --lint: a SEMPOST at Value 15 or a SEMGET at Value 0 is lost. Apart, so that accept's
 * common path saves nothing for the call. */
static __attribute__((noinline, cold)) void sem_op_lost(struct tile *t, unsigned th, uint32_t w,
                                                       unsigned i, bool post)
{
    if (post)
        rule_broken(t, RULE_SEM_POST_MAX, rule_site_tensix(t, th, w),
                    "thread T%u: SEMPOST on semaphore %u at Value 15 (Max %u): the post "
                    "is lost", th, i, t->sem.max[i]);
    else
        rule_broken(t, RULE_SEM_GET_ZERO, rule_site_tensix(t, th, w),
                    "thread T%u: SEMGET on semaphore %u at Value 0: the get is lost", th, i);
}

static bool accept_other(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f);

/* SEMPOST and SEMGET, the Sync unit's instructions in streams that do not stall, here; the
 * rest in accept_other. */
static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    const unsigned op = f->opcode;
    if (op != TT_OPC_SEMPOST && op != TT_OPC_SEMGET)
        return accept_other(t, th, w, f);
    struct sem_bank *s = &t->sem;
    /* SemaphoreMask: the same bits in both */
    unsigned mask = TT_GET_SEMGET_SemaphoreMask(w) & ((1u << NUM_SEMAPHORES) - 1);
    for (; mask; mask &= mask - 1) { /* the set bits, lowest first */
        const unsigned i = (unsigned)__builtin_ctz(mask);
        if (op == TT_OPC_SEMPOST ? s->value[i] < 15 : s->value[i] > 0)
            s->value[i] = (uint8_t)(op == TT_OPC_SEMPOST ? s->value[i] + 1 : s->value[i] - 1);
        else if (t->lint)
            sem_op_lost(t, th, w, i, op == TT_OPC_SEMPOST);
    }
    t->sync.st.sem_ops++;
    s->slot_used = t->now + 1;
    return true;
}

static bool accept_other(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct sync_unit *u = &t->sync;
    struct sem_bank *s = &t->sem;
    struct latched_wait *lw = &t->thread[th].wait;
    switch (f->opcode) {
    case TT_OPC_ATGETM:
        s->mutex_owner[TT_GET_ATGETM_Index(w)] = (int8_t)th;
        u->st.mutex_ops++;
        return true;
    case TT_OPC_ATRELM: {
        unsigned m = TT_GET_ATRELM_Index(w);
        if (s->mutex_owner[m] == (int8_t)th) {
            s->mutex_owner[m] = -1;
            /* WH:ATRELM.md: with both other threads waiting, (i+1) mod 3 gets it next. */
            t->res_next[RES_MUTEX0 + m] = (uint8_t)((th + 1) % NUM_THREADS);
        }
        u->st.mutex_ops++;
        return true;
    }
    case TT_OPC_SEMINIT: {
        unsigned mask = TT_GET_SEMINIT_SemaphoreMask(w);
        for (unsigned i = 0; i < NUM_SEMAPHORES; i++)
            if (mask >> i & 1) {
                s->value[i] = (uint8_t)TT_GET_SEMINIT_NewValue(w);
                s->max[i] = (uint8_t)TT_GET_SEMINIT_NewMax(w);
            }
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
        u->st.waits++;
        break;
    }
    default: /* STREAMWAIT */
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "STREAMWAIT (thread T%u): NoC overlay streams are not modelled", th);
    }
    u->st.sem_ops += f->opcode != TT_OPC_STALLWAIT_BH && f->opcode != TT_OPC_SEMWAIT;
    s->slot_used = t->now + 1;
    return true;
}

const struct unit_desc sync_unit_desc = {
    .name = "sync", .reset = reset, .can_accept = can_accept, .resource = resource, .accept = accept,
};
