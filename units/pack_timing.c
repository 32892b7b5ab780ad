/* The packers as a backend unit: acceptance at the Wait Gate, the per-packer queues, start-up,
 * L1 write time, STALLWAIT's packer-busy conditions and the Dest hazard on PACR reads. The
 * functional model is units/pack.c.
 *
 * Timing (docs/timing-model.md "Packers"): one PACR or PACR_SETREG per cycle from all threads
 * (RES_PACK); the thread waits at the gate until every packer the PACR names has room
 * (`unit_busy`, detail pack) and until the Dst blocks it reads are past their write latency
 * (`dest_hazard`, WH:Dst.md). An accepted PACR starts PACK_STARTUP cycles later, or when the
 * packer's previous instruction is done if that is later; it then writes L1 for
 * ceil(slots / (lanes * pack.write_bytes / 16)) cycles,
 * one slot per 16-byte write and pack.acc_cost per 16-byte accumulate (a Wormhole packer has one
 * lane writing 16 bytes per cycle and accumulates in five, WH:L1.md; Blackhole's packer one lane
 * per enabled Dst read interface writing 32 bytes per cycle and accumulates at write speed,
 * calibrated: core/arch.c, docs/timing-model.md "Whole-kernel figures"). It then frees its
 * queue entry but stays in the pipeline for arch->pack.latency more cycles (BH 16, WH 0), which
 * STALLWAIT's packer condition and the thread's drain (TTSync, end of run) wait out; the next
 * PACR's writes overlap it. */
#include "pack_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "../trace/trace.h"

static struct pack_job *head_of(struct packer *p) { return p->count ? &p->q[p->head] : 0; }

static bool holds(const struct tile *t, unsigned th, unsigned i)
{
    const struct packer *p = &t->pack.p[i];
    if (th < PACK_THREADS && p->drain_until[th] > t->now)
        return true; /* a PACR of th is still in the pipeline past its last write */
    for (unsigned k = 0; k < p->count; k++)
        if (p->q[(p->head + k) % PACK_QUEUE].thread == th)
            return true;
    return false;
}

/* ---- advancing the packers ---- */

/* PACR_SETREG acts once every earlier PACR is past late conversion (WH:PACR_SETREG.md): here,
 * once no packer holds an instruction accepted before it. */
static bool setreg_waits(const struct tile *t, const struct pack_job *j)
{
    if (j->kind != PK_SETREG)
        return false;
    for (unsigned k = 1; k < NUM_PACKERS; k++) {
        const struct packer *o = &t->pack.p[k];
        if (o->count && o->q[o->head].seq < j->seq)
            return true;
    }
    return false;
}

static bool settle(struct tile *t, unsigned i, uint64_t x)
{
    struct packer *p = &t->pack.p[i];
    struct pack_job *j;
    while ((j = head_of(p))) {
        if (j->started) {
            if (j->done_at > x)
                return true;
            /* the rest of the pipeline (arch->pack.latency) overlaps the next PACR's writes */
            const uint64_t out = j->done_at + t->arch->pack.latency;
            if (j->thread < PACK_THREADS && out > p->drain_until[j->thread])
                p->drain_until[j->thread] = out;
            p->head = (p->head + 1) % PACK_QUEUE;
            if (--p->count == 0)
                p->st.busy_cycles += x - p->busy_since;
            if (out > t->pack.last_busy)
                t->pack.last_busy = out;
            continue;
        }
        if (j->ready_at > x || setreg_waits(t, j))
            return true;
        uint64_t before = p->st.l1_writes;
        if (!pack_run_job(t, i, j))
            return false;
        /* Write slots: each 16-byte write takes one, an accumulate pack.acc_cost (WH:L1.md:
         * the atomic accumulate blocks the port five cycles; Blackhole accumulates at write
         * speed); each lane offers pack.write_bytes / 16 slots per cycle. */
        const struct arch *a = t->arch;
        uint64_t slots = (p->st.l1_writes - before) * (j->acc ? a->pack.acc_cost : 1);
        uint64_t rate = (uint64_t)j->lanes * (a->pack.write_bytes / 16);
        uint64_t cyc = (slots + rate - 1) / rate;
        j->started = true;
        j->done_at = x + (cyc ? cyc : 1);
        p->st.write_cycles += j->done_at - x;
        if (t->tracer)
            trace_unit(t->tracer, &pack_unit_desc, i, j->kind == PK_SETREG ? "PACR_SETREG" : "PACR", j->thread, x, j->done_at);
    }
    return true;
}

/* Every coprocessor cycle: the idle test first, so an idle cycle costs a few loads. */
static __attribute__((noinline)) void tick_busy(struct tile *t)
{
    for (unsigned i = 0; i < NUM_PACKERS; i++)
        if (t->pack.p[i].count && !settle(t, i, t->now))
            return;
}

static void tick(struct tile *t)
{
    _Static_assert(NUM_PACKERS == 4, "the idle test names each packer");
    const struct packer *p = t->pack.p;
    if (p[0].count | p[1].count | p[2].count | p[3].count)
        tick_busy(t);
}

static bool active(const struct tile *t)
{
    const struct packer *p = t->pack.p;
    return (p[0].count | p[1].count | p[2].count | p[3].count) != 0;
}

static uint64_t next_event(const struct tile *t)
{
    uint64_t next = CYCLE_NEVER;
    for (unsigned i = 0; i < NUM_PACKERS; i++) {
        const struct packer *p = &t->pack.p[i];
        for (unsigned th = 0; th < PACK_THREADS; th++) /* a drain ends: C3 clears */
            if (p->drain_until[th] > t->now && p->drain_until[th] < next)
                next = p->drain_until[th];
        if (!p->count)
            continue;
        const struct pack_job *j = &p->q[p->head];
        if (!j->started && setreg_waits(t, j))
            continue; /* the other packers' events come first */
        uint64_t e = j->started ? j->done_at : j->ready_at;
        if (e <= t->now)
            e = t->now + 1;
        if (e < next)
            next = e;
    }
    return next;
}

/* ---- the Wait Gate interface ---- */

static int hazard_block(const struct tile *t, unsigned th, uint32_t w, unsigned mask)
{
    const struct dest_map m = dest_map_of(t);
    for (unsigned i = 0; i < NUM_PACKERS; i++) {
        if (!(mask >> i & 1))
            continue;
        unsigned row0, n;
        bool d32;
        pack_dst_rows(t, th, w, i, &row0, &n, &d32);
        int b = dest_first_blocked(&t->dest, m, d32, row0, n, t->now);
        if (b >= 0)
            return b;
    }
    return -1;
}

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    unsigned mask = f->opcode == TT_OPC_PACR_BH ? pack_mask(t, w) : 1;
    for (unsigned i = 0; i < NUM_PACKERS; i++)
        if ((mask >> i & 1) && t->pack.p[i].count == PACK_QUEUE) {
            *detail = TT_UNIT_PACK;
            return GS_UNIT_BUSY;
        }
    if (f->opcode == TT_OPC_PACR_BH) {
        int b = hazard_block(t, th, w, mask);
        if (b >= 0) {
            *detail = (uint32_t)b;
            return GS_DEST_HAZARD;
        }
    }
    return GS_NONE;
}

static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w, (void)f;
    return RES_PACK;
}

static void push(struct tile *t, unsigned i, const struct pack_job *j)
{
    struct packer *p = &t->pack.p[i];
    struct pack_job *slot = &p->q[(p->head + p->count) % PACK_QUEUE];
    *slot = *j;
    slot->ready_at = t->now + PACK_STARTUP;
    slot->seq = t->pack.next_seq++;
    if (p->count++ == 0)
        p->busy_since = t->now;
    p->st.insns++;
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    if (f->opcode == TT_OPC_PACR_SETREG_BH) {
        if (t->arch->id != ARCH_WORMHOLE)
            return tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "PACR_SETREG on Blackhole (thread T%u): "
                              "its layout has no ISA page", th);
        /* WH:PACR_SETREG.md: SetRegBase and SetRegHiScaler are TDMA-RISC state, taken as 0 */
        uint32_t addr = 0xFFB00000u + (TT_GET_PACR_SETREG_WH_AddrMid(w) << 12);
        if (addr < 0xFFB11000u)
            return pack_undef(t, th, "PACR_SETREG below 0xFFB11000 (AddrMid too small)", 0);
        struct pack_job j = {.kind = PK_SETREG, .thread = (uint8_t)th, .lanes = 1,
                             .setreg_addr = addr, .setreg_value = TT_GET_PACR_SETREG_WH_Value10(w)};
        push(t, 0, &j);
        return true;
    }
    unsigned mask = pack_mask(t, w), adcs = 0;
    struct pack_job jobs[NUM_PACKERS];
    for (unsigned i = 0; i < NUM_PACKERS; i++) {
        if (!(mask >> i & 1))
            continue;
        memset(&jobs[i], 0, sizeof jobs[i]);
        if (!pack_accept_job(t, th, w, i, &jobs[i]))
            return false;
        adcs |= 1u << jobs[i].adc;
    }
    for (unsigned a = 0; a < 3; a++)
        if (adcs >> a & 1)
            pack_advance_adcs(t, th, w, a);
    for (unsigned i = 0; i < NUM_PACKERS; i++)
        if (mask >> i & 1)
            push(t, i, &jobs[i]);
    return true;
}

static void describe(struct tile *t)
{
    for (unsigned i = 0; i < NUM_PACKERS; i++)
        if (t->pack.p[i].count)
            tile_error_detail(t, "  packer %u: %u instruction(s), the oldest from thread T%u", i,
                              t->pack.p[i].count, t->pack.p[i].q[t->pack.p[i].head].thread);
}

static void reset(struct tile *t)
{
    struct pack_state *s = &t->pack;
    tile_zero(t, s, sizeof *s);
    for (unsigned i = 0; i < NUM_PACKERS; i++) {
        s->p[i].data.needs_new = s->p[i].exp.needs_new = s->p[i].rsi.needs_new = true;
    }
}

static uint64_t last_busy(const struct tile *t) { return t->pack.last_busy; }

static void report(const struct tile *t, FILE *f)
{
    for (unsigned i = 0; i < NUM_PACKERS; i++) {
        const struct packer *p = &t->pack.p[i];
        if (p->st.insns)
            fprintf(f, "packer %u: %" PRIu64 " instructions, busy %" PRIu64 " cycles (%" PRIu64
                       " writing), %" PRIu64 " L1 writes\n",
                    i, p->st.insns, p->st.busy_cycles, p->st.write_cycles, p->st.l1_writes);
    }
}

static void stats_json(const struct tile *t, FILE *f)
{
    fprintf(f, ", \"packers\": [");
    for (unsigned i = 0; i < NUM_PACKERS; i++) {
        const struct packer *p = &t->pack.p[i];
        fprintf(f, "%s{\"instructions\": %" PRIu64 ", \"busy_cycles\": %" PRIu64
                   ", \"write_cycles\": %" PRIu64 ", \"l1_writes\": %" PRIu64
                   ", \"accumulating_writes\": %" PRIu64 ", \"datums\": %" PRIu64 "}",
                i ? ", " : "", p->st.insns, p->st.busy_cycles, p->st.write_cycles,
                p->st.l1_writes, p->st.acc_writes, p->st.datums);
    }
    fprintf(f, "]");
}

const struct unit_desc pack_unit_desc = {
    .name = "pack", .reset = reset, .can_accept = can_accept, .resource = resource,
    .accept = accept, .tick = tick, .active = active, .next_event = next_event, .last_busy = last_busy,
    .holds = holds, .describe = describe, .signal = pack_signal, .query = pack_query,
    .report = report,
    .stats_json = stats_json,
};
