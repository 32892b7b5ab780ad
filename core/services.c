/* Tile services (core/tile.h): what units, pipes, cores and device owners call on their tile to
 * report an error, wake an agent, or reach the other units without naming them. Kept apart from
 * the scheduler (core/tile.c), so that these callers depend on nothing that drives them
 * (docs/architecture.md "Layers and owners"). */
#include "tile.h"

#include <stdarg.h>
#include <string.h>

#include "../trace/trace.h"

int tile_error(struct tile *t, enum err_kind kind, int core, uint32_t pc, const char *fmt, ...)
{
    if (t->err.kind != ERR_NONE)
        return 0;
    t->err.kind = kind;
    t->err.agent = t->running_agent; /* the run ends there: core/tile.c brings every core to it */
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

void tile_warning(struct tile *t, const char *fmt, ...)
{
    t->nwarnings++;
    if (!t->errout)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("tensim: warning: ", t->errout);
    vfprintf(t->errout, fmt, ap);
    fputc('\n', t->errout);
    va_end(ap);
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

void tile_signal(struct tile *t, enum unit_signal s, unsigned a, unsigned b)
{
    for (unsigned u = 0; u < UNIT_COUNT; u++)
        if (unit_rows[u].desc && unit_rows[u].desc->signal)
            unit_rows[u].desc->signal(t, s, a, b);
}

bool tile_query(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4])
{
    for (unsigned u = 0; u < UNIT_COUNT; u++)
        if (unit_rows[u].desc && unit_rows[u].desc->query && unit_rows[u].desc->query(t, q, a, b, v))
            return true;
    return false;
}

/* ---- waking agents ---- */

/* The coprocessor comes first in a cycle, so an agent running now must stop before `cycle`. */
void tile_wake_coproc(struct tile *t, uint64_t cycle)
{
    if (cycle < t->coproc_wake)
        t->coproc_wake = cycle;
    if (cycle < t->limit)
        t->limit = cycle;
}

void tile_wake_core(struct tile *t, int id, uint64_t cycle)
{
    struct rv_core *c = &t->core[id];
    if (t->tracer && c->state == CORE_BLOCKED)
        trace_core(t->tracer, id, core_blocked_stall(c), c->blocked_since, cycle);
    rv_unblock(c, cycle);
    /* An agent later in the order than the running one may still act in `cycle`. */
    uint64_t stop = cycle + (1 + id > t->running_agent ? 1 : 0);
    if (stop < t->limit)
        t->limit = stop;
}

/* Called by the coprocessor during cycle `now`: the cores act after it in the same cycle. */
void tile_unblock_pushers(struct tile *t, unsigned th)
{
    unsigned mask = t->thread[th].blocked_cores;
    t->thread[th].blocked_cores = 0;
    for (int i = 0; i < NUM_CORES; i++)
        if (mask >> i & 1)
            tile_wake_core(t, i, t->now);
}
