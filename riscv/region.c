/* Regions (riscv/region.h): snapshots at a begin, differences at an end. */
#include "region.h"

#include <string.h>

#include "../core/tile.h"
#include "../sync/gate.h"
#include "../trace/trace.h"

/* The counters of core c (and its Tensix thread, for a TRISC) as they stand at cycle `now`. */
static void snapshot(const struct tile *t, const struct rv_core *c, uint64_t now,
                     struct region_counters *s)
{
    memset(s, 0, sizeof *s);
    s->instret = c->st.instret;
    memcpy(s->stall, c->st.stall, sizeof s->stall);
    perf_signals_at(t, now + 1, &s->sig);
    if (c->id >= NUM_THREADS)
        return;
    const struct tensix_thread *th = &t->thread[c->id];
    for (unsigned f = 0; f < TT_FORM_COUNT; f++)
        s->tensix[tt_forms[f].unit] += th->st.by_form[f];
    /* Hold cycles are added lazily when the gate's outcome changes (sync/gate.c): the interval
     * still open counts through cycle `now`, whose outcome the coprocessor has already decided. */
    gate_held_through(t, (unsigned)c->id, now + 1, s->held);
}

bool region_hint(struct tile *t, struct rv_core *c, uint64_t now, int32_t imm)
{
    struct core_regions *r = &t->regions[c->id];
    bool begin = imm < REGION_IMM_END;
    unsigned id = (unsigned)(imm - (begin ? REGION_IMM_BEGIN : REGION_IMM_END));
    uint64_t bit = 1ull << id;
    if (begin) {
        if (r->open & bit) {
            tile_error(t, ERR_REGION, c->id, c->pc,
                       "tensim_region_begin(%u): region %u is already open (begun at cycle %llu)",
                       id, id, (unsigned long long)r->begin_cycle[id]);
            return false;
        }
        r->open |= bit;
        r->used |= bit;
        r->begin_cycle[id] = now;
        snapshot(t, c, now, &r->at_begin[id]);
        if (t->dump && t->dump->region[c->id])
            t->dump->fire(t, t->dump->ctx, DUMP_AT_REGION, (unsigned)c->id, id, 1);
        return true;
    }
    if (!(r->open & bit)) {
        tile_error(t, ERR_REGION, c->id, c->pc, "tensim_region_end(%u): region %u was not begun%s",
                   id, id, (r->used & bit) ? " (it has already ended)" : "");
        return false;
    }
    r->open &= ~bit;
    struct region_counters now_c;
    snapshot(t, c, now, &now_c);
    struct region_stat *s = &r->st[id];
    const struct region_counters *b = &r->at_begin[id];
    uint64_t cycles = now - r->begin_cycle[id];
    s->min = !s->count || cycles < s->min ? cycles : s->min;
    s->max = cycles > s->max ? cycles : s->max;
    s->count++;
    s->cycles += cycles;
    if (t->tracer) /* a slice on the trace's "Regions" track (zero-length ones are left out) */
        trace_region(t->tracer, c->id, id, r->begin_cycle[id], now);
    s->sum.instret += now_c.instret - b->instret;
    for (unsigned k = 0; k < STALL_COUNT; k++)
        s->sum.stall[k] += now_c.stall[k] - b->stall[k];
    for (unsigned k = 0; k < TT_UNIT_COUNT; k++)
        s->sum.tensix[k] += now_c.tensix[k] - b->tensix[k];
    for (unsigned k = 0; k < GS_COUNT; k++)
        s->sum.held[k] += now_c.held[k] - b->held[k];
    for (unsigned k = 0; k < PS_COUNT; k++)
        s->sum.sig.v[k] += now_c.sig.v[k] - b->sig.v[k];
    if (t->dump && t->dump->region[c->id])
        t->dump->fire(t, t->dump->ctx, DUMP_AT_REGION, (unsigned)c->id, id, 0);
    return true;
}

void regions_close(struct tile *t, uint64_t end)
{
    for (int i = 0; i < NUM_CORES; i++)
        for (unsigned id = 0; id < REGION_IDS; id++)
            if (t->regions[i].open >> id & 1)
                tile_warning(t, "%s: region %u begun at cycle %llu was still open when the run "
                             "ended at cycle %llu (not counted)",
                             core_name(i), id, (unsigned long long)t->regions[i].begin_cycle[id],
                             (unsigned long long)end);
}

bool regions_any(const struct tile *t)
{
    for (int i = 0; i < NUM_CORES; i++)
        if (t->regions[i].used)
            return true;
    return false;
}
