/* Sleeping pollers (riscv/poll_sleep.h). */
#include "poll_sleep.h"

#include <string.h>

#include "../core/tile.h"

_Static_assert(sizeof(struct core_stats) % sizeof(uint64_t) == 0, "core_stats: counters only");
#define NSTATS (sizeof(struct core_stats) / sizeof(uint64_t))

/* Nothing the core started is still under way at `now`: the next round's timing depends on the
 * compared state alone. (A store queue, pending results, load slots, retire-order entries and
 * the one-off forwarding and scoreboard marks are all times. Once all are past, which load slot
 * or retire-order entry comes next changes nothing, so those positions are not compared; a
 * skip leaves them, and their past times, where the last round run left them, where lockstep
 * would have moved them on: no later instruction can tell.) */
static bool settled(const struct tile *t, const struct rv_core *c, uint64_t now)
{
    if (c->pending_until > now || c->rob_last >= now || c->sq_count || c->io_store_out > now + 1 ||
        c->fwd_at >= now || c->checked_at >= now)
        return false;
    for (unsigned i = 0; i < t->arch->rv.load_slots; i++)
        if (c->load_free[i] > now)
            return false;
    /* the core's L1 port: nothing booked from now on (by anyone) */
    const struct l1_port *p = &t->l1_port[t->arch->l1_port[c->id]];
    return now < p->base ? false : now - p->base >= 64 || !(p->busy >> (now - p->base));
}

static void record(struct poll_sleep *s, const struct rv_core *c, uint64_t now, uint64_t epoch)
{
    s->have = true;
    s->lo = c->pc;
    s->wake = now;
    s->epoch = epoch;
    memcpy(s->x, c->x, sizeof s->x);
    s->cfg0 = c->cfg0;
    memcpy(s->pmacfg, c->pmacfg, sizeof s->pmacfg);
    memcpy(s->scratch, c->scratch, sizeof s->scratch);
    memcpy(s->tt_status, c->tt_status, sizeof s->tt_status);
    s->cycle_offset = c->cycle_offset;
    s->instret_offset = c->instret_offset;
    memcpy(s->l0, c->l0, sizeof s->l0);
    s->l0_victim = c->l0_victim;
    s->sq_head = c->sq_head;
    s->rng = c->rng;
    s->last_stall = c->last_stall;
    memcpy(s->bht, c->bht, sizeof s->bht);
    memcpy(s->btb, c->btb, sizeof s->btb);
    s->st = c->st;
}

static bool same(const struct poll_sleep *s, const struct rv_core *c)
{
    return s->lo == c->pc && !memcmp(s->x, c->x, sizeof s->x) && s->cfg0 == c->cfg0 &&
           !memcmp(s->pmacfg, c->pmacfg, sizeof s->pmacfg) &&
           !memcmp(s->scratch, c->scratch, sizeof s->scratch) &&
           !memcmp(s->tt_status, c->tt_status, sizeof s->tt_status) &&
           s->cycle_offset == c->cycle_offset && s->instret_offset == c->instret_offset &&
           !memcmp(s->l0, c->l0, sizeof s->l0) && s->l0_victim == c->l0_victim &&
           s->sq_head == c->sq_head && s->rng == c->rng &&
           s->last_stall == c->last_stall && !memcmp(s->bht, c->bht, sizeof s->bht) &&
           !memcmp(s->btb, c->btb, sizeof s->btb);
}

/* The first cycle at which an agent other than core c could act on what c reads: the next
 * action of the coprocessor or of any running core but one repeating a polling loop of its own
 * (unless both book the same L1 port), and the end of the scheduler's run (t->run_end: the
 * host's next look, a state dump, the cycle limit, a slice). A core repeats only while nothing
 * has been written since its round began (its record's epoch): once something has, its next
 * round may see it, leave the loop and write. */
static uint64_t quiet_until(const struct tile *t, const struct rv_core *c, bool ports)
{
    uint64_t b = t->run_end;
    if (t->coproc_wake < b)
        b = t->coproc_wake;
    for (int k = 0; k < NUM_CORES; k++) {
        const struct rv_core *q = &t->core[k];
        if (k == c->id || q->state != CORE_RUNNING)
            continue;
        if (q->poll_steady && t->sleep[k].have && t->sleep[k].epoch == t->epoch &&
            !(ports && q->poll_ports && t->arch->l1_port[k] == t->arch->l1_port[c->id]))
            continue;
        if (q->wake < b)
            b = q->wake;
    }
    return b;
}

bool poll_round(struct tile *t, struct rv_core *c, uint64_t now)
{
    struct poll_sleep *s = &t->sleep[c->id];
    if (s->have && s->at_instret == c->st.instret) /* looked at already (the top stalled) */
        return false;
    s->at_instret = c->st.instret;
    const bool ports = c->poll_l1;
    c->poll_l1 = false;
    /* Another agent acts in the very next cycle (a busy coprocessor does every cycle): no
     * round could be skipped, so none is compared or recorded. */
    if (quiet_until(t, c, ports) <= now + 1 || !settled(t, c, now)) {
        s->have = c->poll_steady = false;
        return false;
    }
    if (!s->have || s->epoch != t->epoch || !same(s, c)) {
        record(s, c, now, t->epoch);
        c->poll_steady = false;
        return false;
    }
    /* The round just gone repeats: the next one does the same again, and so on until another
     * agent acts. */
    c->poll_steady = true;
    c->poll_ports = ports;
    const uint64_t period = now - s->wake, b = quiet_until(t, c, ports);
    if (b <= now || (b - now) / period < 2) {
        record(s, c, now, t->epoch);
        return false;
    }
    /* Skip all but the last round that ends before b; that one runs, so that whatever it books
     * (its L1 port) is where lockstep leaves it. */
    const uint64_t k = (b - now) / period - 1;
    uint64_t *st = (uint64_t *)(void *)&c->st;
    const uint64_t *was = (const uint64_t *)(const void *)&s->st;
    for (unsigned i = 0; i < NSTATS; i++)
        st[i] += k * (st[i] - was[i]);
    c->wake = now + k * period;
    c->poll_at = c->st.instret; /* still going round */
    t->poll_skips += k;
    record(s, c, c->wake, t->epoch);
    s->at_instret = c->st.instret;
    return true;
}
