/* The NoC timing model (mem/noc.h; docs/timing-model.md "NoC").
 *
 * Each node of each NoC has a router with three inputs (its NIU, the previous router along x,
 * the previous along y) and three outputs (the next router along x, along y, its NIU). A link
 * carries one flit per cycle (NoC/README.md "Performance") and takes its latency: NIU to router
 * niu_to_router, router to router router_to_router, router to NIU router_to_niu. A router adds
 * nothing of its own: a flit that reached an input in cycle t can leave by an output in cycle t,
 * the documented hop latencies being the whole time from one end to the other ("~5 cycles", "9
 * cycles"). So a one-flit packet to the next node downstream arrives 5 + 9 + 5 = 19 cycles after
 * it leaves its NIU.
 *
 * Switching is cut-through (RoutingPaths.md "Cut-through": a router forwards a packet's flits
 * before it has all of them) and wormhole: a packet's header flit acquires its output ports
 * and the packet holds them until its last flit has left, so packets that want one link go one
 * after the other (RoutingPaths.md "Congestion": packets with the same virtual channel number
 * wait for each other; virtual channels are not modelled, so all packets behave so). A header
 * that forks (a broadcast) acquires all of its outputs in the same cycle or none, and each flit
 * leaves by all of them at once.
 *
 * Arbitration (not documented: an assumption): for each free output in the order x, y, NIU, the
 * first waiting header that wants it and finds all its outputs free wins, looking at the inputs
 * round-robin in the order NIU, x, y from the one after the output's last winner.
 *
 * Back-pressure: an input holds buffer_flits flits, counting those still on the link into it
 * (credits). The sender sends only while that count is below the depth, and a flit that leaves
 * the input frees its place for the sender from the next cycle on (a credit is registered). A
 * router's output to its NIU never waits: the NIU takes a flit per cycle.
 *
 * Each step runs one cycle: deliveries of flits reaching NIUs, then at every router that holds
 * anything the NIU's next flit, the grants and the moves. A router reads only its own inputs and
 * the counts of the inputs it feeds (whose sum of held and freed places does not change in the
 * cycle), and every flit it sends arrives a cycle later at the earliest, so the routers' order
 * within a step changes nothing. A step in which nothing moved leaves everything as it was until
 * the next arrival, so the next step is the next arrival or request (noc_next_event). */
#include "noc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "noc_route.h"

const struct noc_timing_row noc_timing_rows[] = {
#define TIMING(g, f, b, w, lo, hi, src, chk) {#g "." #f, b, w, lo, hi, src, chk},
#include "noc_timing.def"
#undef TIMING
};
const unsigned noc_timing_nrows = sizeof noc_timing_rows / sizeof noc_timing_rows[0];

static const size_t timing_offset[] = {
#define TIMING(g, f, b, w, lo, hi, src, chk) offsetof(struct noc_timing, f),
#include "noc_timing.def"
#undef TIMING
};

#define NONE UINT32_MAX
#define HOLDING 0x80u /* granted[] flag: the input holds its outputs (the mask may be 0: dropped) */

/* One flit on a link or in the input buffer at its end: `at` is when it reaches the end */
struct flit {
    uint64_t at;
    uint32_t pkt;
    uint16_t idx; /* 0: the header */
};

/* The flits on a link and in the buffer it feeds, oldest first. `held` places were freed in
 * this cycle: the sender sees them from the next one. */
struct ring {
    struct flit *e;
    uint32_t cap, head, count, held;
};

struct packet {
    uint64_t inject_cycle;
    uint32_t tag, bytes, seq;
    uint32_t live; /* copies of its flits in rings */
    uint32_t next_free;
    uint16_t nflits, src, dst;
    uint8_t noc;
    bool queued; /* its NIU has not sent its last flit yet */
    unsigned flags;
    struct noc_rect exclude;
    struct noc_route route;
};

struct router {
    struct ring in[NOC_INS];
    struct ring eject;             /* router -> NIU */
    uint8_t granted[NOC_INS];      /* HOLDING | output mask */
    uint8_t owner[NOC_OUTS];       /* input holding the output, or NOC_INS */
    uint8_t rr[NOC_OUTS];          /* input the output's round-robin looks at first */
    uint64_t wait_since[NOC_INS];  /* its header was first refused a grant */
    uint64_t stall_since[NOC_INS]; /* its next flit was first refused for want of room */
    uint64_t grant_at[NOC_OUTS];   /* when the output's holder got it */
    uint64_t eject_head;           /* the header of the packet arriving at the NIU arrived */
    /* the NIU's injection queue (packet indices) */
    uint32_t *q;
    uint32_t qhead, qcount;
    uint16_t sent;                 /* flits of the front packet sent */
    uint64_t niu_stall_since;
    uint64_t inject_at;            /* the front packet's header left */
    uint32_t seq;
    struct noc_link_stats link[NOC_LINKS];
    struct noc_niu_stats niu;
};

struct net {
    struct router *r;
    uint64_t *active; /* routers that hold anything: flits, queued requests */
};

struct noc {
    struct noc_config cfg;
    unsigned nodes, words;
    struct net net[NOC_COUNT];
    struct packet *pkt;
    uint32_t free_pkt;
    unsigned in_flight;
    struct ring **dirty; /* rings with held places, cleared at the next step */
    unsigned ndirty;
    bool *sink;          /* per node: takes broadcasts */
    uint64_t now, next;
    bool moved;
    struct flit *store;
    uint32_t *qstore;
};

/* ---- set-up -------------------------------------------------------------------------------- */

struct noc_config noc_config_for(enum arch_id arch)
{
    struct noc_config c = {.width = arch == ARCH_WORMHOLE ? 10 : 17, .height = 12};
    for (unsigned i = 0; i < noc_timing_nrows; i++)
        *(unsigned *)((char *)&c.t + timing_offset[i]) =
            arch == ARCH_WORMHOLE ? noc_timing_rows[i].wh : noc_timing_rows[i].bh;
    return c;
}

static bool config_ok(const struct noc_config *c)
{
    if (c->width < 1 || c->width > 64 || c->height < 1 || c->height > 64)
        return false;
    for (unsigned i = 0; i < noc_timing_nrows; i++) {
        unsigned v = *(const unsigned *)((const char *)&c->t + timing_offset[i]);
        if (v < noc_timing_rows[i].min || v > noc_timing_rows[i].max)
            return false;
    }
    return true;
}

struct noc *noc_create(const struct noc_config *cfg)
{
    if (!cfg || !config_ok(cfg))
        return NULL;
    struct noc *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    const struct noc_timing *t = &cfg->t;
    n->cfg = *cfg;
    n->nodes = cfg->width * cfg->height;
    n->words = (n->nodes + 63) / 64;
    /* Every packet alive is in an injection queue or has a flit in a ring, and a ring place
     * holds one flit: that bounds the packets, so injection never fails for want of a record. */
    const unsigned eject_cap = t->router_to_niu + 1;
    const size_t per_router = (size_t)NOC_INS * t->buffer_flits + eject_cap;
    const size_t npkt = (size_t)NOC_COUNT * n->nodes * (t->inject_queue + per_router);
    n->pkt = calloc(npkt, sizeof *n->pkt);
    n->store = calloc((size_t)NOC_COUNT * n->nodes * per_router, sizeof *n->store);
    n->qstore = calloc((size_t)NOC_COUNT * n->nodes * t->inject_queue, sizeof *n->qstore);
    n->dirty = calloc((size_t)NOC_COUNT * n->nodes * NOC_INS, sizeof *n->dirty);
    n->sink = calloc(n->nodes, sizeof *n->sink);
    bool ok = n->pkt && n->store && n->qstore && n->dirty && n->sink;
    for (unsigned k = 0; ok && k < NOC_COUNT; k++) {
        n->net[k].r = calloc(n->nodes, sizeof *n->net[k].r);
        n->net[k].active = calloc(n->words, sizeof *n->net[k].active);
        ok = n->net[k].r && n->net[k].active;
    }
    if (!ok) {
        noc_destroy(n);
        return NULL;
    }
    for (size_t i = 0; i < npkt; i++)
        n->pkt[i].next_free = i + 1 < npkt ? (uint32_t)(i + 1) : NONE;
    struct flit *f = n->store;
    uint32_t *q = n->qstore;
    for (unsigned k = 0; k < NOC_COUNT; k++)
        for (unsigned i = 0; i < n->nodes; i++) {
            struct router *r = &n->net[k].r[i];
            for (unsigned p = 0; p < NOC_INS; p++) {
                r->in[p] = (struct ring){.e = f, .cap = t->buffer_flits};
                f += t->buffer_flits;
                r->wait_since[p] = r->stall_since[p] = NOC_NEVER;
            }
            r->eject = (struct ring){.e = f, .cap = eject_cap};
            f += eject_cap;
            memset(r->owner, NOC_INS, sizeof r->owner);
            r->niu_stall_since = NOC_NEVER;
            r->q = q;
            q += t->inject_queue;
        }
    for (unsigned i = 0; i < n->nodes; i++)
        n->sink[i] = true;
    n->next = NOC_NEVER;
    return n;
}

void noc_destroy(struct noc *n)
{
    if (!n)
        return;
    for (unsigned k = 0; k < NOC_COUNT; k++) {
        free(n->net[k].r);
        free(n->net[k].active);
    }
    free(n->pkt);
    free(n->store);
    free(n->qstore);
    free(n->dirty);
    free(n->sink);
    free(n);
}

void noc_set_broadcast_sink(struct noc *n, unsigned node, bool takes)
{
    if (node < n->nodes)
        n->sink[node] = takes;
}

/* ---- rings --------------------------------------------------------------------------------- */

static struct flit *front(struct ring *g)
{
    return g->count ? &g->e[g->head] : NULL;
}

/* room for one more flit as the sender sees it this cycle */
static bool room(const struct ring *g)
{
    return g->count + g->held < g->cap;
}

static void push(struct noc *n, struct ring *g, uint64_t at, uint32_t pkt, uint16_t idx)
{
    uint32_t i = g->head + g->count;
    g->e[i >= g->cap ? i - g->cap : i] = (struct flit){.at = at, .pkt = pkt, .idx = idx};
    g->count++;
    n->pkt[pkt].live++;
}

static void free_packet(struct noc *n, uint32_t pkt)
{
    n->pkt[pkt].next_free = n->free_pkt;
    n->free_pkt = pkt;
    n->in_flight--;
}

/* The front flit leaves the ring (its place is the sender's again next cycle) */
static void pop(struct noc *n, struct ring *g, bool credit)
{
    struct packet *p = &n->pkt[g->e[g->head].pkt];
    g->head = g->head + 1 == g->cap ? 0 : g->head + 1;
    g->count--;
    if (credit && g->held++ == 0)
        n->dirty[n->ndirty++] = g;
    if (--p->live == 0 && !p->queued)
        free_packet(n, (uint32_t)(p - n->pkt));
}

/* ---- topology ------------------------------------------------------------------------------ */

static unsigned next_node(const struct noc *n, unsigned noc, unsigned node, unsigned axis)
{
    unsigned w = n->cfg.width, h = n->cfg.height, x = node % w, y = node / w;
    if (axis == 0)
        x = noc ? (x + w - 1) % w : (x + 1) % w;
    else
        y = noc ? (y + h - 1) % h : (y + 1) % h;
    return y * w + x;
}

static void activate(struct noc *n, unsigned noc, unsigned node)
{
    n->net[noc].active[node / 64] |= 1ull << (node % 64);
}

/* Output o's link, the ring it feeds and that link's latency */
static const enum noc_link out_link[NOC_OUTS] = {NOC_LINK_X, NOC_LINK_Y, NOC_LINK_EJECT};

static struct ring *out_ring(struct noc *n, unsigned noc, unsigned node, unsigned o, unsigned *lat)
{
    if (o == 2) {
        *lat = n->cfg.t.router_to_niu;
        return &n->net[noc].r[node].eject;
    }
    *lat = n->cfg.t.router_to_router;
    unsigned to = next_node(n, noc, node, o);
    activate(n, noc, to);
    return &n->net[noc].r[to].in[o == 0 ? NOC_IN_X : NOC_IN_Y];
}

/* The outputs the header at input `in` of router `node` wants: the tree's, less the NIU of a
 * node that does not take this broadcast. */
static unsigned wants(const struct noc *n, const struct packet *p, unsigned node, enum noc_in in)
{
    unsigned w = n->cfg.width, x = node % w, y = node / w;
    unsigned m = noc_route_outputs(&p->route, x, y, in);
    if ((m & NOC_OUT_NIU) && (p->flags & NOC_BRCST)) {
        const struct noc_rect *e = &p->exclude;
        bool excluded = (p->flags & NOC_BRCST_EXCLUDE) &&
                        (x + w - e->x0) % w <= (unsigned)(e->x1 + w - e->x0) % w &&
                        (y + n->cfg.height - e->y0) % n->cfg.height <=
                            (unsigned)(e->y1 + n->cfg.height - e->y0) % n->cfg.height;
        if (excluded || !n->sink[node] || (node == p->src && !(p->flags & NOC_BRCST_SRC_INCLUDE)))
            m &= ~NOC_OUT_NIU;
    }
    return m;
}

/* ---- requests ------------------------------------------------------------------------------ */

bool noc_inject(struct noc *n, const struct noc_request *q)
{
    const struct noc_config *c = &n->cfg;
    if (q->noc >= NOC_COUNT || q->src >= n->nodes || q->cycle < n->now)
        return false;
    const struct noc_rect *d = &q->dst_rect, *e = &q->exclude;
    if (q->flags & NOC_BRCST) {
        if (d->x0 >= c->width || d->x1 >= c->width || d->y0 >= c->height || d->y1 >= c->height)
            return false;
    } else if (q->dst >= n->nodes)
        return false;
    if ((q->flags & NOC_BRCST_EXCLUDE) &&
        (e->x0 >= c->width || e->x1 >= c->width || e->y0 >= c->height || e->y1 >= c->height))
        return false;
    uint32_t data = (q->bytes + c->t.flit_bytes - 1) / c->t.flit_bytes;
    if (data > c->t.max_data_flits)
        return false;
    struct router *r = &n->net[q->noc].r[q->src];
    if (r->qcount == c->t.inject_queue) {
        r->niu.rejected++;
        return false;
    }
    uint32_t i = n->free_pkt;
    struct packet *p = &n->pkt[i];
    n->free_pkt = p->next_free;
    n->in_flight++;
    *p = (struct packet){
        .inject_cycle = q->cycle,
        .tag = q->tag,
        .bytes = q->bytes,
        .seq = r->seq++,
        .nflits = (uint16_t)(1 + data),
        .src = q->src,
        .dst = q->flags & NOC_BRCST ? q->src : q->dst,
        .noc = q->noc,
        .queued = true,
        .flags = q->flags,
        .exclude = *e,
        .route = {.noc = q->noc, .w = (uint8_t)c->width, .h = (uint8_t)c->height,
                  .brcst = q->flags & NOC_BRCST, .y_major = q->flags & NOC_BRCST_Y_MAJOR,
                  .src = {(uint8_t)(q->src % c->width), (uint8_t)(q->src / c->width)},
                  .dst = {(uint8_t)(q->dst % c->width), (uint8_t)(q->dst / c->width)},
                  .lo = {d->x0, d->y0}, .hi = {d->x1, d->y1}},
    };
    uint32_t slot = r->qhead + r->qcount++;
    r->q[slot % c->t.inject_queue] = i;
    activate(n, q->noc, q->src);
    if (q->cycle < n->next)
        n->next = q->cycle;
    return true;
}

bool noc_unicast(struct noc *n, unsigned noc, unsigned src, unsigned dst, uint32_t bytes, uint32_t tag,
                 uint64_t cycle)
{
    if (src >= n->nodes || dst >= n->nodes)
        return false;
    struct noc_request q = {.noc = (uint8_t)noc, .src = (uint16_t)src, .dst = (uint16_t)dst,
                            .bytes = bytes, .tag = tag, .cycle = cycle};
    return noc_inject(n, &q);
}

/* ---- one cycle ----------------------------------------------------------------------------- */

static void deliver(struct noc *n, unsigned noc, unsigned node, uint64_t t)
{
    struct router *r = &n->net[noc].r[node];
    struct flit *f = front(&r->eject);
    if (!f || f->at > t)
        return;
    const struct packet *p = &n->pkt[f->pkt];
    if (f->idx == 0)
        r->eject_head = f->at;
    r->niu.flits_received++;
    if (f->idx + 1 == p->nflits) {
        r->niu.received++;
        r->niu.bytes_received += p->bytes;
        if (n->cfg.deliver) {
            struct noc_delivery d = {
                .head_cycle = r->eject_head, .tail_cycle = f->at, .inject_cycle = p->inject_cycle,
                .tag = p->tag, .bytes = p->bytes, .seq = p->seq, .src = p->src,
                .dst = (uint16_t)node, .noc = (uint8_t)noc, .broadcast = p->flags & NOC_BRCST,
            };
            n->cfg.deliver(n->cfg.ctx, &d);
        }
    }
    pop(n, &r->eject, false);
}

/* The NIU sends the next flit of its front request */
static void niu_send(struct noc *n, struct router *r, uint64_t t)
{
    if (!r->qcount)
        return;
    const unsigned depth = n->cfg.t.inject_queue;
    uint32_t i = r->q[r->qhead];
    struct packet *p = &n->pkt[i];
    if (p->inject_cycle > t)
        return;
    struct noc_link_stats *ls = &r->link[NOC_LINK_INJECT];
    if (!room(&r->in[NOC_IN_NIU])) {
        if (r->niu_stall_since == NOC_NEVER)
            r->niu_stall_since = t;
        return;
    }
    if (r->niu_stall_since != NOC_NEVER) {
        ls->stalled += t - r->niu_stall_since;
        r->niu_stall_since = NOC_NEVER;
    }
    if (r->sent == 0) {
        r->inject_at = t;
        r->niu.queued += t - p->inject_cycle;
    }
    push(n, &r->in[NOC_IN_NIU], t + n->cfg.t.niu_to_router, i, r->sent);
    ls->flits++;
    r->niu.flits_sent++;
    n->moved = true;
    if (++r->sent == p->nflits) {
        r->sent = 0;
        r->qhead = (r->qhead + 1) % depth;
        r->qcount--;
        r->niu.sent++;
        ls->packets++;
        ls->busy += t - r->inject_at + 1;
        p->queued = false;
    }
}

static void grant(struct router *r, unsigned in, unsigned mask, uint64_t t)
{
    r->granted[in] = (uint8_t)(HOLDING | mask);
    for (unsigned o = 0; o < NOC_OUTS; o++)
        if (mask & (1u << o)) {
            r->owner[o] = (uint8_t)in;
            r->rr[o] = (uint8_t)((in + 1) % NOC_INS);
            r->grant_at[o] = t;
            r->link[out_link[o]].packets++;
            if (r->wait_since[in] != NOC_NEVER)
                r->link[out_link[o]].head_wait += t - r->wait_since[in];
        }
    r->wait_since[in] = NOC_NEVER;
}

/* Headers at the inputs ask for their outputs (mem/noc.c's comment: the arbitration) */
static void arbitrate(struct noc *n, unsigned noc, unsigned node, uint64_t t)
{
    struct router *r = &n->net[noc].r[node];
    unsigned want[NOC_INS] = {0};
    bool ready[NOC_INS] = {false};
    for (unsigned i = 0; i < NOC_INS; i++) {
        struct flit *f = front(&r->in[i]);
        if (r->granted[i] || !f || f->at > t || f->idx != 0)
            continue;
        want[i] = wants(n, &n->pkt[f->pkt], node, (enum noc_in)i);
        if (!want[i])
            grant(r, i, 0, t); /* a leaf that takes nothing: the flits end here */
        else
            ready[i] = true;
    }
    for (unsigned o = 0; o < NOC_OUTS; o++) {
        if (r->owner[o] != NOC_INS)
            continue;
        for (unsigned k = 0; k < NOC_INS; k++) {
            unsigned i = (r->rr[o] + k) % NOC_INS;
            if (!ready[i] || !(want[i] & (1u << o)))
                continue;
            bool all_free = true;
            for (unsigned p = 0; p < NOC_OUTS; p++)
                if ((want[i] & (1u << p)) && r->owner[p] != NOC_INS)
                    all_free = false;
            if (all_free) {
                grant(r, i, want[i], t);
                ready[i] = false;
                break;
            }
        }
    }
    for (unsigned i = 0; i < NOC_INS; i++)
        if (ready[i] && r->wait_since[i] == NOC_NEVER)
            r->wait_since[i] = t;
}

/* Inputs that hold their outputs send their front flit on, if it has arrived and every output
 * has room for it */
static void move(struct noc *n, unsigned noc, unsigned node, uint64_t t)
{
    struct router *r = &n->net[noc].r[node];
    for (unsigned i = 0; i < NOC_INS; i++) {
        struct flit *f = front(&r->in[i]);
        if (!r->granted[i] || !f || f->at > t)
            continue;
        unsigned mask = r->granted[i] & ~HOLDING;
        struct ring *to[NOC_OUTS];
        unsigned lat[NOC_OUTS];
        bool ok = true;
        for (unsigned o = 0; o < NOC_OUTS; o++)
            if (mask & (1u << o)) {
                to[o] = out_ring(n, noc, node, o, &lat[o]);
                if (o != 2 && !room(to[o]))
                    ok = false;
            }
        if (!ok) {
            if (r->stall_since[i] == NOC_NEVER)
                r->stall_since[i] = t;
            continue;
        }
        const struct flit fl = *f;
        const bool tail = fl.idx + 1 == n->pkt[fl.pkt].nflits;
        for (unsigned o = 0; o < NOC_OUTS; o++)
            if (mask & (1u << o)) {
                struct noc_link_stats *ls = &r->link[out_link[o]];
                push(n, to[o], t + lat[o], fl.pkt, fl.idx);
                ls->flits++;
                if (r->stall_since[i] != NOC_NEVER)
                    ls->stalled += t - r->stall_since[i];
                if (tail) {
                    ls->busy += t - r->grant_at[o] + 1;
                    r->owner[o] = NOC_INS;
                }
            }
        r->stall_since[i] = NOC_NEVER;
        if (tail)
            r->granted[i] = 0;
        pop(n, &r->in[i], true);
        n->moved = true;
    }
}

static bool router_empty(const struct router *r)
{
    return !r->in[0].count && !r->in[1].count && !r->in[2].count && !r->eject.count && !r->qcount;
}

/* The router's contribution to the next step: its next arrival or request */
static uint64_t router_next(const struct router *r, const struct noc *n, uint64_t t)
{
    uint64_t e = NOC_NEVER;
    for (unsigned i = 0; i < NOC_INS; i++)
        if (r->in[i].count && r->in[i].e[r->in[i].head].at > t && r->in[i].e[r->in[i].head].at < e)
            e = r->in[i].e[r->in[i].head].at;
    if (r->eject.count && r->eject.e[r->eject.head].at < e)
        e = r->eject.e[r->eject.head].at;
    if (r->qcount) {
        uint64_t c = n->pkt[r->q[r->qhead]].inject_cycle;
        if (c > t && c < e)
            e = c;
    }
    return e;
}

static void step(struct noc *n, uint64_t t)
{
    /* a delivery's callback may ask for requests from the next cycle on */
    n->now = t + 1;
    n->next = NOC_NEVER;
    for (unsigned i = 0; i < n->ndirty; i++)
        n->dirty[i]->held = 0;
    n->ndirty = 0;
    n->moved = false;
    /* deliveries first, in the canonical order: node, then NoC */
    for (unsigned w = 0; w < n->words; w++)
        for (uint64_t bits = n->net[0].active[w] | n->net[1].active[w]; bits; bits &= bits - 1) {
            unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
            for (unsigned k = 0; k < NOC_COUNT; k++)
                deliver(n, k, node, t);
        }
    uint64_t next = NOC_NEVER;
    for (unsigned k = 0; k < NOC_COUNT; k++)
        for (unsigned w = 0; w < n->words; w++)
            for (uint64_t bits = n->net[k].active[w]; bits; bits &= bits - 1) {
                unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
                struct router *r = &n->net[k].r[node];
                niu_send(n, r, t);
                arbitrate(n, k, node, t);
                move(n, k, node, t);
                if (router_empty(r))
                    n->net[k].active[w] &= ~(1ull << (node % 64));
                uint64_t e = router_next(r, n, t);
                if (e < next)
                    next = e;
            }
    /* what moved frees a place or an output for the next cycle; a flit sent now arrives later */
    if (n->moved)
        next = t + 1;
    if (next < n->next)
        n->next = next;
}

void noc_advance(struct noc *n, uint64_t cycle)
{
    while (n->next <= cycle)
        step(n, n->next);
    if (cycle + 1 > n->now)
        n->now = cycle + 1;
}

uint64_t noc_now(const struct noc *n)
{
    return n->now;
}

uint64_t noc_next_event(const struct noc *n)
{
    return n->next;
}

unsigned noc_in_flight(const struct noc *n)
{
    return n->in_flight;
}

const struct noc_link_stats *noc_link_stats(const struct noc *n, unsigned noc, unsigned node,
                                            enum noc_link link)
{
    if (noc >= NOC_COUNT || node >= n->nodes || link >= NOC_LINKS)
        return NULL;
    return &n->net[noc].r[node].link[link];
}

const struct noc_niu_stats *noc_niu_stats(const struct noc *n, unsigned noc, unsigned node)
{
    if (noc >= NOC_COUNT || node >= n->nodes)
        return NULL;
    return &n->net[noc].r[node].niu;
}
