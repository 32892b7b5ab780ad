#include "tile.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../units/tensix_isa.h"

struct tile *tile_create(const struct arch *arch)
{
    struct tile *t = calloc(1, sizeof *t);
    if (!t)
        return 0;
    t->arch = arch;
    t->l1 = calloc(arch->l1_size, 1);
    t->predecode = calloc(arch->l1_size / 4, sizeof *t->predecode);
    if (!t->l1 || !t->predecode) {
        tile_destroy(t);
        return 0;
    }
    tile_reset(t);
    return t;
}

void tile_destroy(struct tile *t)
{
    if (!t)
        return;
    free(t->l1);
    free(t->predecode);
    free(t);
}

void tile_reset(struct tile *t)
{
    memset(t->l1, 0, t->arch->l1_size);
    memset(t->predecode, 0, (t->arch->l1_size / 4) * sizeof *t->predecode); /* RV_UNDECODED */
    memset(t->local_ram, 0, sizeof t->local_ram);
    for (int i = 0; i < NUM_CORES; i++)
        rv_core_reset(&t->core[i], i, t->arch->reset_pc[i]);
    for (int i = 0; i < NUM_THREADS; i++) {
        struct tensix_thread *th = &t->thread[i];
        memset(th, 0, sizeof *th);
        tt_fifo_init(&th->fifo1, t->arch->fifo1_depth[i], t->arch->fifo1_accept_limit);
        tt_fifo_init(&th->fifo2, 8, 0); /* FIFO2: 8 entries (spec/sync-timing.md §1) */
    }
    memset(&t->err, 0, sizeof t->err);
    t->now = 0;
    t->cycles = 0;
    t->wall_clock_latch = 0;
    t->nloaded = 0;
}

void tile_start_core(struct tile *t, int id, uint32_t pc)
{
    struct rv_core *c = &t->core[id];
    c->pc = pc;
    c->state = CORE_RUNNING;
    c->wake = 0;
}

int tile_error(struct tile *t, enum err_kind kind, int core, uint32_t pc, const char *fmt, ...)
{
    if (t->err.kind != ERR_NONE)
        return 0;
    t->err.kind = kind;
    t->err.core = core;
    t->err.pc = pc;
    t->err.cycle = t->now;
    snprintf(t->err.where, sizeof t->err.where, "%s", core >= 0 ? core_name(core) : "tile");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err.text, sizeof t->err.text, fmt, ap);
    va_end(ap);
    t->err.detail[0] = 0;
    return 0;
}

void tile_error_detail(struct tile *t, const char *fmt, ...)
{
    size_t used = strlen(t->err.detail);
    if (used + 1 >= sizeof t->err.detail)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err.detail + used, sizeof t->err.detail - used, fmt, ap);
    va_end(ap);
    used = strlen(t->err.detail);
    if (used + 1 < sizeof t->err.detail && (used == 0 || t->err.detail[used - 1] != '\n'))
        strcat(t->err.detail, "\n");
}

/* ---- end of run: deadlock and drain reports ---- */

static unsigned tt_arch_bit(const struct tile *t)
{
    return t->arch->id == ARCH_WORMHOLE ? TT_ARCH_WH : TT_ARCH_BH;
}

static void describe_core(struct tile *t, const struct rv_core *c)
{
    char dis[96];
    rv_disasm(c->pc < t->arch->l1_size ? *(const uint32_t *)(const void *)(t->l1 + c->pc) : 0,
              c->pc, dis, sizeof dis);
    switch (c->state) {
    case CORE_OFF:
        return;
    case CORE_HALTED:
        tile_error_detail(t, "  %s: halted at cycle %llu with exit code %d", core_name(c->id),
                          (unsigned long long)c->halt_cycle, c->exit_code);
        return;
    case CORE_RUNNING:
        tile_error_detail(t, "  %s: running, pc=0x%08x: %s", core_name(c->id), c->pc, dis);
        return;
    case CORE_BLOCKED:
        break;
    }
    const struct tensix_thread *th = &t->thread[c->wait_arg];
    const struct tt_fifo *f = c->id == CORE_BRISC ? &th->fifo2 : &th->fifo1;
    tile_error_detail(t,
                      "  %s: pc=0x%08x %s: blocked since cycle %llu pushing into full FIFO%d of "
                      "thread T%u (%u entries)",
                      core_name(c->id), c->pc, dis, (unsigned long long)c->blocked_since,
                      c->id == CORE_BRISC ? 2 : 1, c->wait_arg, f->count);
}

static void describe_threads(struct tile *t)
{
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        const struct tensix_thread *th = &t->thread[i];
        for (int k = 0; k < 2; k++) {
            const struct tt_fifo *f = k ? &th->fifo2 : &th->fifo1;
            if (!f->count)
                continue;
            char dis[128];
            tt_disasm(tt_arch_bit(t), tt_fifo_peek(f, 0), dis, sizeof dis);
            tile_error_detail(t,
                              "  thread T%u: FIFO%d holds %u instruction%s, first %s; nothing "
                              "drains it yet (the MOP expander, replay expander and Wait Gate are "
                              "not built)",
                              i, k + 1, f->count, f->count == 1 ? "" : "s", dis);
        }
    }
}

static bool coprocessor_drained(const struct tile *t)
{
    for (unsigned i = 0; i < NUM_THREADS; i++)
        if (t->thread[i].fifo1.count || t->thread[i].fifo2.count)
            return false;
    return true;
}

/* ---- the scheduler ---- */

enum err_kind tile_run(struct tile *t, uint64_t max_cycles)
{
    uint64_t end = max_cycles ? max_cycles : CYCLE_NEVER;
    while (t->err.kind == ERR_NONE) {
        /* Pick the agent with the smallest (wake, index) and let it run until it would pass
         * the next agent in that order. With one busy agent this is a tight loop in rv_run. */
        int first = -1;
        uint64_t w0 = CYCLE_NEVER, w1 = CYCLE_NEVER;
        int second = NUM_CORES;
        for (int i = 0; i < NUM_CORES; i++) {
            const struct rv_core *c = &t->core[i];
            if (c->state != CORE_RUNNING)
                continue;
            if (c->wake < w0) {
                w1 = w0, second = first < 0 ? NUM_CORES : first;
                w0 = c->wake, first = i;
            } else if (c->wake < w1) {
                w1 = c->wake, second = i;
            }
        }
        if (first < 0)
            break;
        if (w0 >= end) {
            t->now = end;
            tile_error(t, ERR_CYCLE_LIMIT, -1, 0, "no end after %llu cycles (--max-cycles)",
                       (unsigned long long)end);
            for (int i = 0; i < NUM_CORES; i++)
                describe_core(t, &t->core[i]);
            t->cycles = end;
            return t->err.kind;
        }
        /* Same-cycle ties go to the lower index: the leader may also act at cycle w1 when it
         * comes first in agent order. */
        uint64_t limit = w1 == CYCLE_NEVER ? CYCLE_NEVER : w1 + (first < second ? 1 : 0);
        if (limit > end)
            limit = end;
        rv_run(t, &t->core[first], limit);
    }
    if (t->err.kind != ERR_NONE) {
        t->cycles = t->now;
        return t->err.kind;
    }

    uint64_t last = 0;
    bool blocked = false;
    for (int i = 0; i < NUM_CORES; i++) {
        const struct rv_core *c = &t->core[i];
        if (c->state == CORE_HALTED && c->halt_cycle > last)
            last = c->halt_cycle;
        if (c->state == CORE_BLOCKED) {
            blocked = true;
            if (c->blocked_since > last)
                last = c->blocked_since;
        }
    }
    t->now = t->cycles = last;
    if (blocked) {
        tile_error(t, ERR_DEADLOCK, -1, 0, "no agent can make progress");
        for (int i = 0; i < NUM_CORES; i++)
            describe_core(t, &t->core[i]);
        describe_threads(t);
        return t->err.kind;
    }
    if (!coprocessor_drained(t)) {
        tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                   "all cores halted but Tensix instructions are still queued");
        describe_threads(t);
        return t->err.kind;
    }
    return ERR_NONE;
}
