/* The unpackers as a backend unit: the Wait Gate interface, the per-unpacker instruction queues,
 * the start-up cycles, the L1 fetch bandwidth with the interference between the two unpackers,
 * and the wait for SrcA/SrcB ownership. The functional model is in units/unpack.c.
 *
 * Timing (docs/timing-model.md "Unpackers", WH:UNPACR_Regular.md "Performance"): an UNPACR
 * issued in cycle c spends c and c+1 working out its input address; during those cycles its
 * thread issues nothing and no thread issues another UNPACR. From c+2 on it fetches from L1 once
 * it is the oldest instruction of its unpacker and its bank belongs to the unpackers; a fetch of
 * n 128-bit reads at r reads per cycle occupies ceil(n/r) cycles, and the instruction leaves the
 * unpacker at the end of the last one (FlipSrc hands the bank over then). Each unpacker fetches
 * for one instruction at a time, so a second UNPACR's start-up overlaps the first's fetch.
 *
 * Cycles are accounted in segments: `tick` brings both unpackers to the start of the current
 * cycle in one pass per event (a start, a finish, a change of fetch rate), so an unpacker that
 * fetches for a hundred cycles costs one step, and `next_event` lets the coprocessor sleep until
 * the next of those events. */
#include "unpack_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "../trace/trace.h"

/* Every unpacker form names its unpacker in bit [23] (see unpack_issue). */
static inline unsigned which_unpacker(uint32_t w) { return TT_GET_UNPACR_WhichUnpacker(w); }

static struct unpack_entry *head_of(struct unpacker *up)
{
    return up->count ? &up->q[up->head] : 0;
}

static bool holds(const struct tile *t, unsigned th, unsigned u)
{
    const struct unpacker *up = &t->unpack.u[u];
    for (unsigned i = 0; i < up->count; i++)
        if (up->q[(up->head + i) % UNPACK_QUEUE].thread == th)
            return true;
    return false;
}

static void on_signal(struct tile *t, enum unit_signal s, unsigned unpacker, unsigned th)
{
    if (s == SIG_CONTEXT_COUNTER_RESET)
        t->unpack.u[unpacker].context_counter[th] = 0;
}

/* ---- fetch bandwidth ---- */

/* What each unpacker gets when both fetch (WH:UNPACR_Regular.md "Performance" table), as speeds
 * (x1, x2, x4), indexed [unpacker 1 wants][unpacker 0 wants] by log2 of the wish. */
static const uint8_t shared_grant[3][3][2] = {
    /* u1 x1 */ {{1, 1}, {2, 1}, {4, 1}},
    /* u1 x2 */ {{1, 2}, {1, 1}, {2, 1}},
    /* u1 x4 */ {{1, 4}, {1, 2}, {2, 2}},
};

static unsigned log2_small(unsigned x) { return x >= 4 ? 2 : x >= 2 ? 1 : 0; }

/* 128-bit reads per cycle each unpacker fetches at now (0 when it is not fetching): the speed it
 * gets times the architecture's reads at x1. The interference table applies only where the
 * architecture has it (Wormhole); Blackhole's calibrated unpackers fetch independently
 * (core/arch.c). */
static void grants(const struct tile *t, unsigned g[NUM_UNPACKERS])
{
    const struct unpack_state *s = &t->unpack;
    unsigned want[NUM_UNPACKERS];
    for (unsigned u = 0; u < NUM_UNPACKERS; u++) {
        const struct unpacker *up = &s->u[u];
        const struct unpack_entry *e = up->count ? &up->q[up->head] : 0;
        want[u] = e && e->state == US_FETCHING ? e->want : 0;
    }
    if (want[0] && want[1] && t->arch->unpack.interference) {
        const uint8_t *p = shared_grant[log2_small(want[1])][log2_small(want[0])];
        g[0] = p[0], g[1] = p[1];
    } else {
        g[0] = want[0], g[1] = want[1];
    }
    g[0] *= t->arch->unpack.reads_x1;
    g[1] *= t->arch->unpack.reads_x1;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* ---- the head of one unpacker, at cycle x ---- */

static const char *entry_name(const struct unpack_entry *e)
{
    static const char *const names[] = {[UK_UNPACR] = "UNPACR", [UK_CLEAR] = "zero Src",
                                        [UK_SETDVALID] = "hand over", [UK_SETREG] = "SETREG",
                                        [UK_OCCUPY] = "UNPACR_NOP"};
    return names[e->kind];
}

static void pop(struct tile *t, unsigned u, uint64_t x)
{
    struct unpacker *up = &t->unpack.u[u];
    const struct unpack_entry *e = &up->q[up->head];
    if (t->tracer)
        trace_unit(t->tracer, &unpack_unit_desc, u, entry_name(e), e->thread, e->started_at, x);
    up->head = (up->head + 1) % UNPACK_QUEUE;
    if (--up->count == 0)
        up->st.busy_cycles += x - up->busy_since;
    if (x > t->unpack.last_busy)
        t->unpack.last_busy = x;
}

/* Retire what has finished by the start of cycle x and start the next instruction if it may;
 * several zero-length steps can happen in one cycle. Returns false after an error. */
static bool settle(struct tile *t, unsigned u, uint64_t x)
{
    struct unpacker *up = &t->unpack.u[u];
    struct unpack_entry *e;
    while ((e = head_of(up))) {
        if ((e->state == US_FETCHING && !e->rem) || (e->state == US_RUNNING && e->done_at <= x)) {
            unpack_finish(t, u, e);
            pop(t, u, x);
            continue;
        }
        if (e->state == US_FETCHING || e->state == US_RUNNING || e->ready_at > x)
            return true;
        bool owned = true;
        if (unpack_needs_bank(t, u, e, &owned) && !owned) {
            if (e->state != US_BLOCKED) {
                e->state = US_BLOCKED;
                e->blocked_since = x;
            }
            return true;
        }
        if (e->state == US_BLOCKED) {
            up->st.ownership_wait_cycles += x - e->blocked_since;
            up->st.ownership_wait_by_thread[e->thread] += x - e->blocked_since;
            if (t->tracer)
                trace_unit(t->tracer, &unpack_unit_desc, u, u ? "wait for SrcB bank" : "wait for SrcA bank",
                           e->thread, e->blocked_since, x);
        }
        e->started_at = x;
        if (!unpack_start(t, u, e))
            return false;
        if (e->kind == UK_UNPACR) {
            /* Even a fetch of nothing passes through the pipeline once. */
            e->state = US_FETCHING;
            if (!e->rem)
                e->rem = 1;
        } else {
            /* UNPACR_NOP and the counter/cache forms occupy the unpacker for one cycle
             * (WH:UNPACR_NOP_Nop.md; the others are not documented, see docs/unpack.md) */
            e->state = US_RUNNING;
            e->done_at = x + 1;
        }
        return true;
    }
    return true;
}

/* The first cycle after x at which unpacker u changes by itself, given grant g. */
static uint64_t head_event(const struct unpacker *up, uint64_t x, unsigned g)
{
    const struct unpack_entry *e = up->count ? &up->q[up->head] : 0;
    if (!e)
        return CYCLE_NEVER;
    switch (e->state) {
    case US_FETCHING: return x + ceil_div(e->rem, g);
    case US_RUNNING: return e->done_at;
    case US_PENDING: return e->ready_at > x ? e->ready_at : CYCLE_NEVER;
    default: return CYCLE_NEVER; /* US_BLOCKED: only another unit can free the bank */
    }
}

/* Process every cycle from s->credited through `end` (inclusive). */
static void run_until(struct tile *t, uint64_t end)
{
    struct unpack_state *s = &t->unpack;
    uint64_t x = s->credited;
    if (!s->u[0].count && !s->u[1].count)
        x = end + 1; /* idle: nothing to account */
    while (x <= end) {
        for (unsigned u = 0; u < NUM_UNPACKERS; u++)
            if (!settle(t, u, x))
                return;
        unsigned g[NUM_UNPACKERS];
        grants(t, g);
        uint64_t y = end + 1;
        for (unsigned u = 0; u < NUM_UNPACKERS; u++) {
            uint64_t e = head_event(&s->u[u], x, g[u]);
            if (e < y)
                y = e;
        }
        /* fetch during cycles [x, y) at the granted rates */
        for (unsigned u = 0; u < NUM_UNPACKERS; u++) {
            struct unpack_entry *e = head_of(&s->u[u]);
            if (!e || e->state != US_FETCHING)
                continue;
            uint64_t n = (uint64_t)g[u] * (y - x);
            e->rem = e->rem > n ? e->rem - n : 0;
            s->u[u].st.fetch_cycles += y - x;
        }
        x = y;
    }
    s->credited = end + 1;
}

/* ---- the unit interface ---- */

/* Does unpacker up hold a regular UNPACR (in start-up, queued, waiting for its bank or
 * fetching)? */
static bool holds_unpacr(const struct unpacker *up)
{
    for (unsigned i = 0; i < up->count; i++)
        if (up->q[(up->head + i) % UNPACK_QUEUE].kind == UK_UNPACR)
            return true;
    return false;
}

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    (void)th;
    const struct unpacker *up = &t->unpack.u[which_unpacker(w)];
    const bool unpacr = f->opcode == TT_OPC_UNPACR;
    /* Blackhole (calibrated, core/timing.def unpack.startup_serial): the unpacker's input address
     * generator (one per unpacker at the head of its pipeline, WH:Unpackers/README.md diagram)
     * streams the L1 addresses of the UNPACR it is working on, so it can work out the next
     * one's first address - the start-up spent at issue - only once that one has left. */
    if ((unpacr && t->now < t->unpack.startup_until) || up->count == UNPACK_QUEUE ||
        (unpacr && t->arch->unpack.startup_serial && holds_unpacr(up))) {
        *detail = TT_UNIT_UNPACK;
        return GS_UNIT_BUSY;
    }
    return GS_NONE;
}

static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w, (void)f;
    return RES_UNPACK;
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    const unsigned u = which_unpacker(w);
    struct unpacker *up = &t->unpack.u[u];
    /* Both idle, the tick is not called (units/unit.h `active`): what its idle cycle does. */
    if (!t->unpack.u[0].count && !t->unpack.u[1].count)
        t->unpack.credited = t->now + 1;
    struct unpack_entry *e = &up->q[(up->head + up->count) % UNPACK_QUEUE];
    unsigned startup = 0;
    *e = (struct unpack_entry){.thread = (uint8_t)th, .state = US_PENDING};
    if (!unpack_issue(t, th, w, f, e, &startup))
        return false;
    e->ready_at = t->now + startup;
    if (startup) {
        if (t->tracer)
            trace_unit(t->tracer, &unpack_unit_desc, u, "start-up", th, t->now, t->now + startup);
        t->thread[th].frozen_until = t->now + startup;
        t->thread[th].frozen_unit = TT_UNIT_UNPACK;
        t->unpack.startup_until = t->now + startup;
        up->st.startup_cycles += startup;
    }
    up->st.insns++;
    if (up->count++ == 0) {
        up->busy_since = t->now;
        /* Without start-up (UNPACR_NOP, the counter and cache forms) an instruction that finds
         * the unpacker idle acts in its issue cycle, as other units' instructions do. */
        if (!startup)
            return settle(t, u, t->now);
    }
    return true;
}

static void tick(struct tile *t)
{
    struct unpack_state *s = &t->unpack;
    if (!s->u[0].count && !s->u[1].count) { /* what run_until does when both are idle */
        s->credited = t->now + 1;
        return;
    }
    run_until(t, t->now);
}

static bool active(const struct tile *t)
{
    const struct unpack_state *s = &t->unpack;
    return s->u[0].count || s->u[1].count;
}

static uint64_t next_event(const struct tile *t)
{
    const struct unpack_state *s = &t->unpack;
    unsigned g[NUM_UNPACKERS];
    grants(t, g);
    uint64_t next = s->startup_until > t->now ? s->startup_until : CYCLE_NEVER;
    for (unsigned u = 0; u < NUM_UNPACKERS; u++) {
        uint64_t e = head_event(&s->u[u], s->credited, g[u]);
        if (e < next)
            next = e;
    }
    return next;
}

static void describe(struct tile *t)
{
    static const char *const state[] = {[US_PENDING] = "in start-up or queued",
                                        [US_BLOCKED] = "waiting for its bank",
                                        [US_FETCHING] = "fetching", [US_RUNNING] = "running"};
    for (unsigned u = 0; u < NUM_UNPACKERS; u++) {
        struct unpacker *up = &t->unpack.u[u];
        const struct unpack_entry *e = head_of(up);
        if (!e)
            continue;
        const struct src_regs *s = &t->src;
        unsigned bank = s->unpack_bank[u];
        tile_error_detail(t, "  unpacker %u: %u instruction(s); the oldest (thread T%u) is %s%s%s",
                          u, up->count, e->thread, state[e->state],
                          e->state == US_BLOCKED ? ": Src" : "",
                          e->state != US_BLOCKED ? ""
                          : s->bank[u][bank].client == SRC_CLIENT_MATRIX
                              ? (u ? "B bank owned by the matrix unit (no CLEARDVALID)"
                                   : "A bank owned by the matrix unit (no CLEARDVALID)")
                              : "");
    }
}

static void reset(struct tile *t) { tile_zero(t, &t->unpack, sizeof t->unpack); }

static uint64_t last_busy(const struct tile *t) { return t->unpack.last_busy; }

static void report(const struct tile *t, FILE *f)
{
    for (unsigned u = 0; u < NUM_UNPACKERS; u++) {
        const struct unpacker *up = &t->unpack.u[u];
        if (up->st.insns)
            fprintf(f, "unpacker %u: %" PRIu64 " instructions, busy %" PRIu64 " cycles (%" PRIu64
                       " fetching, %" PRIu64 " waiting for a bank), %" PRIu64 " L1 reads\n",
                    u, up->st.insns, up->st.busy_cycles, up->st.fetch_cycles,
                    up->st.ownership_wait_cycles, up->st.l1_reads);
    }
}

static void stats_json(const struct tile *t, FILE *f)
{
    fprintf(f, ", \"unpackers\": [");
    for (unsigned u = 0; u < NUM_UNPACKERS; u++) {
        const struct unpacker *up = &t->unpack.u[u];
        fprintf(f, "%s{\"instructions\": %" PRIu64 ", \"busy_cycles\": %" PRIu64
                   ", \"startup_cycles\": %" PRIu64 ", \"fetch_cycles\": %" PRIu64
                   ", \"l1_reads\": %" PRIu64 ", \"exponent_reads\": %" PRIu64
                   ", \"datums\": %" PRIu64 ", \"ownership_wait_cycles\": %" PRIu64
                   ", \"ownership_wait_by_thread\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]}",
                u ? ", " : "", up->st.insns, up->st.busy_cycles, up->st.startup_cycles,
                up->st.fetch_cycles, up->st.l1_reads, up->st.exp_reads, up->st.datums,
                up->st.ownership_wait_cycles, up->st.ownership_wait_by_thread[0],
                up->st.ownership_wait_by_thread[1], up->st.ownership_wait_by_thread[2]);
    }
    fprintf(f, "]");
}

/* The performance counters' cycle counts (Q_PERF_UNPACK): busy, fetching, waiting for a bank. */
static bool query(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4])
{
    if (q != Q_PERF_UNPACK || a >= NUM_UNPACKERS)
        return false;
    const struct unpacker *up = &t->unpack.u[a];
    const struct unpack_entry *e = &up->q[up->head];
    if (b == 0)
        unit_perf_answer(v, up->st.busy_cycles, up->count ? up->busy_since : UINT64_MAX);
    else if (b == 1)
        unit_perf_answer(v, up->st.fetch_cycles, UINT64_MAX);
    else
        unit_perf_answer(v, up->st.ownership_wait_cycles,
                         up->count && e->state == US_BLOCKED ? e->blocked_since : UINT64_MAX);
    return true;
}

const struct unit_desc unpack_unit_desc = {
    .name = "unpack", .reset = reset, .can_accept = can_accept, .resource = resource,
    .accept = accept, .tick = tick, .active = active, .next_event = next_event, .last_busy = last_busy,
    .holds = holds, .describe = describe, .signal = on_signal, .report = report,
    .stats_json = stats_json, .query = query,
};
