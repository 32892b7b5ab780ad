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
 * before it has all of them) and wormhole: a packet's header flit acquires a virtual channel of
 * each output it leaves by, and the packet holds it until its last flit has left. Packets that
 * want the same channel of a link go one after the other; packets on different channels of a
 * link share it flit by flit (RoutingPaths.md "Congestion": same virtual channel number, one
 * waits for the other; otherwise they are interleaved). A header that forks (a broadcast)
 * acquires all of its outputs' channels in the same cycle or none, and each of its flits leaves
 * by all of them in the same cycle.
 *
 * Arbitration (not documented: an assumption). Grants: for each output in the order x, y, NIU,
 * the waiting headers are looked at round-robin over the input channels (slot = input * VCS +
 * channel, inputs in the order NIU, x, y) from the one after the output's last winner; a header
 * wins if all the channels it wants are free. Links: each cycle the channels holding outputs are
 * looked at round-robin from the one after the router's last sender; one whose flit has arrived,
 * whose links no earlier one took this cycle and whose next buffers have room sends it.
 *
 * Back-pressure: each channel of an input holds buffer_flits flits, counting those still on the
 * link into it (credits). The sender sends only while that count is below the depth, and a flit
 * that leaves the input frees its place for the sender from the next cycle on (a credit is
 * registered). A router's output to its NIU never waits: the NIU takes a flit per cycle.
 *
 * Each step runs one cycle: deliveries of flits reaching NIUs, path reservations, then at every
 * router that holds anything the NIU's next flit, the grants and the moves, and last (with
 * report_early) the reports of the tails that left for their NIUs. A router reads only
 * its own inputs and the counts of the inputs it feeds (whose sum of held and freed places does
 * not change in the cycle), a reservation reads what the previous cycle left, and every flit
 * sent arrives a cycle later at the earliest, so the routers' order within a step changes
 * nothing. A step in which nothing moved leaves everything as it was until the next arrival or
 * request, which is then the next step (noc_next_event); so does a step in which something moved
 * but nothing waited (every flit in a ring still on its link, every request's header gone or
 * not yet due): the next step is then the first arrival or request. Only after a step in which
 * something moved while something waited is the next cycle a step, as a freed place or output
 * may let the waiting move.
 *
 * A request dated before the model's clock (noc_inject) changes only its own NIU's part of the
 * cycles already run: what it sends then is on its link into the router until noc_now at the
 * earliest, and no one but the NIU looks at that ring's room. So its NIU replays those cycles
 * (niu_catch_up) from the ring's count and the router's record of the flits it took since. */
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
#define HOLDING 0x80u /* granted[] flag: the slot holds its outputs (the mask may be 0: dropped) */

/* Virtual channels (NoC/README.md "Virtual channels"): two class bits and a dateline bit are
 * modelled, the buddy bit is not. Class 0 carries unicast requests (the pages open classes 0b00
 * and 0b01 to them; one is modelled, so two unicast requests never interleave on a link), class
 * 1 broadcasts (0b10), class 2 responses (0b11). The dateline bit is 0 when a packet starts
 * along an axis and 1 once it has crossed that axis's ring-closing link (from the last column
 * or row to the first on NoC #0, the first to the last on NoC #1): the "statically
 * predetermined points" at which the pages say it flips are not given, and a flip at each
 * ring's closing link is what keeps a packet's waits on a ring from going round in a circle. */
#define VCS 6
#define SLOTS (NOC_INS * VCS) /* an input's virtual channel: input * VCS + vc */
#define FREE 0xFFu

/* The bits of a mask of slots (or channels) from `start` on, round the `n`: bit i of the result
 * is slot (start + i) % n. EACH visits the set bits' slots in that order (round-robin), the mask
 * and start as they were when it began. */
static uint32_t from(uint32_t mask, unsigned start, unsigned n)
{
    return start ? ((mask >> start) | (mask << (n - start))) & ((1u << n) - 1) : mask;
}
#define EACH(s, mask, start, n)                                                                    \
    for (uint32_t st_ = (start), m_ = from(mask, st_, n), s;                                       \
         m_ && (s = ((unsigned)__builtin_ctz(m_) + st_) % (n), 1); m_ &= m_ - 1)

/* One flit on a link or in the input buffer at its end: `at` is when it reaches the end */
struct flit {
    uint64_t at;
    uint32_t pkt;
    uint16_t idx; /* 0: the header */
};

/* The flits on a link's virtual channel and in its buffer at the far end, oldest first. `held`
 * places were freed in this cycle: the sender sees them from the next one. */
struct ring {
    struct flit *e;
    /* the front flit's `at` (NOC_NEVER when empty): a step's looks at every ring of an active
     * router read it here, not in the flit store (a cache miss a ring; the NoC's step, serial
     * between windows, spent most of its time on them) */
    uint64_t front_at;
    uint32_t cap, head, count, held;
    uint32_t *full, bit; /* the router's mask of rings holding flits, and this ring's bit */
};

struct packet {
    uint64_t inject_cycle;
    uint32_t tag, bytes, seq;
    uint32_t live; /* copies of its flits in rings */
    uint32_t next_free;
    uint16_t nflits, src, dst;
    uint8_t noc, cls;
    bool queued;   /* its NIU has not sent its last flit yet */
    bool reserved; /* NOC_BRCST_PATH_RESERVE: its tree is its own */
    unsigned flags;
    struct noc_rect exclude;
    struct noc_route route;
};

struct router {
    struct ring in[SLOTS];
    struct ring eject[VCS];              /* router -> NIU */
    uint32_t in_full, eject_full;        /* the rings holding flits, a bit each */
    uint8_t granted[SLOTS];              /* HOLDING | output mask */
    uint8_t out_vc[SLOTS][NOC_OUTS];     /* the virtual channel it holds on each output */
    uint8_t owner[NOC_OUTS][VCS];        /* slot holding the output's channel, or FREE */
    uint32_t reserved[NOC_OUTS][VCS];    /* 1 + the broadcast that reserved it, or 0 */
    uint8_t rr[NOC_OUTS];                /* slot the output's grants look at first */
    uint8_t link_rr;                     /* slot the link allocation looks at first */
    uint8_t holders[NOC_OUTS];           /* channels of the output held */
    uint64_t hold_since[NOC_OUTS];       /* the output has been held since */
    uint64_t wait_since[SLOTS];          /* its header was first refused a grant */
    uint64_t stall_since[SLOTS];         /* its next flit was first held back */
    uint64_t eject_head[VCS];            /* the header of the packet arriving at the NIU arrived */
    uint64_t early_head[VCS];            /* report_early: the header sent to the NIU will arrive */
    uint32_t early_pkt;                  /* report_early: the tail sent to the NIU in this step */
    uint8_t early_vc;
    /* the NIU's injection queue (packet indices) */
    uint32_t *q;
    uint32_t qhead, qcount;
    uint16_t sent;                       /* flits of the front packet sent */
    uint64_t niu_stall_since;
    uint64_t inject_at;                  /* the front packet's header left */
    uint64_t niu_free;                   /* 1 + the cycle the NIU last sent a flit */
    uint64_t last_cycle;                 /* the latest cycle of a request it took */
    /* the cycles the router took a flit from the NIU's ring of each class (bit i: pop_last - i),
     * for a request dated before noc_now (noc_inject): the room its NIU saw then */
    uint64_t pop_bits[3], pop_last[3];
    uint32_t seq;
    struct noc_link_stats link[NOC_LINKS];
    struct noc_niu_stats niu;
};

struct net {
    struct router *r;
    uint64_t *active; /* routers that hold anything: flits, queued requests */
    uint64_t *early;  /* report_early: routers whose NIU output sent a tail in this step */
};

struct noc {
    struct noc_config cfg;
    unsigned nodes, words;
    struct net net[NOC_COUNT];
    struct packet *pkt;
    size_t npkt;
    uint32_t free_pkt, fresh; /* the free list; records from `fresh` on were never used */
    unsigned in_flight;
    struct ring **dirty; /* rings with held places, cleared at the next step */
    /* a path reservation's walk: routers to expand (node, input slot), then channels (node, o, vc) */
    struct tree_edge { uint16_t node; uint8_t o, vc, slot; } *tree;
    unsigned ndirty;
    bool *sink;          /* per node: takes broadcasts */
    uint64_t now, next;
    uint64_t first_push; /* the earliest arrival of the flits sent in this step */
    bool moved;
    bool stepping;       /* inside step: a delivery's callback runs */
    bool early;          /* tails sent to NIUs in this step wait to be reported (report_early) */
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
     * holds one flit: that bounds the packets, so a request never finds no record free. A
     * link's channel to an NIU takes one flit per cycle and holds each for router_to_niu. */
    const unsigned eject_cap = t->router_to_niu + 1;
    const size_t per_router = (size_t)SLOTS * t->buffer_flits + (size_t)VCS * eject_cap;
    n->npkt = (size_t)NOC_COUNT * n->nodes * (t->inject_queue + per_router);
    n->pkt = calloc(n->npkt, sizeof *n->pkt);
    n->store = calloc((size_t)NOC_COUNT * n->nodes * per_router, sizeof *n->store);
    n->qstore = calloc((size_t)NOC_COUNT * n->nodes * t->inject_queue, sizeof *n->qstore);
    n->dirty = calloc((size_t)NOC_COUNT * n->nodes * SLOTS, sizeof *n->dirty);
    n->sink = calloc(n->nodes, sizeof *n->sink);
    n->tree = calloc((size_t)n->nodes * NOC_OUTS * 2, sizeof *n->tree);
    bool ok = n->pkt && n->store && n->qstore && n->dirty && n->sink && n->tree;
    for (unsigned k = 0; ok && k < NOC_COUNT; k++) {
        n->net[k].r = calloc(n->nodes, sizeof *n->net[k].r);
        n->net[k].active = calloc(n->words, sizeof *n->net[k].active);
        n->net[k].early = calloc(n->words, sizeof *n->net[k].early);
        ok = n->net[k].r && n->net[k].active && n->net[k].early;
    }
    if (!ok) {
        noc_destroy(n);
        return NULL;
    }
    n->free_pkt = NONE;
    struct flit *f = n->store;
    uint32_t *q = n->qstore;
    for (unsigned k = 0; k < NOC_COUNT; k++)
        for (unsigned i = 0; i < n->nodes; i++) {
            struct router *r = &n->net[k].r[i];
            for (unsigned s = 0; s < SLOTS; s++) {
                r->in[s] = (struct ring){.e = f, .front_at = NOC_NEVER, .cap = t->buffer_flits,
                                         .full = &r->in_full, .bit = 1u << s};
                f += t->buffer_flits;
                r->wait_since[s] = r->stall_since[s] = NOC_NEVER;
            }
            for (unsigned v = 0; v < VCS; v++) {
                r->eject[v] = (struct ring){.e = f, .front_at = NOC_NEVER, .cap = eject_cap,
                                            .full = &r->eject_full, .bit = 1u << v};
                f += eject_cap;
            }
            memset(r->owner, FREE, sizeof r->owner);
            r->niu_stall_since = NOC_NEVER;
            r->q = q;
            q += t->inject_queue;
        }
    for (unsigned i = 0; i < n->nodes; i++)
        n->sink[i] = true;
    n->next = NOC_NEVER;
    return n;
}

void noc_set_link_busy(struct noc *n, void (*fn)(void *, unsigned, unsigned, unsigned, uint64_t, uint64_t))
{
    n->cfg.link_busy = fn;
}

void noc_destroy(struct noc *n)
{
    if (!n)
        return;
    for (unsigned k = 0; k < NOC_COUNT; k++) {
        free(n->net[k].r);
        free(n->net[k].active);
        free(n->net[k].early);
    }
    free(n->pkt);
    free(n->store);
    free(n->qstore);
    free(n->dirty);
    free(n->sink);
    free(n->tree);
    free(n);
}

/* Refused while anything is in flight: the outputs a broadcast's header wants at a router are
 * worked out when it gets there (wants), and must be those its path reservation took, or a
 * reserved channel would never be granted (and so never freed) */
bool noc_set_broadcast_sink(struct noc *n, unsigned node, bool takes)
{
    if (node >= n->nodes || n->in_flight)
        return false;
    n->sink[node] = takes;
    return true;
}

/* ---- rings and records --------------------------------------------------------------------- */

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
    if (!g->count)
        g->front_at = at;
    g->count++;
    *g->full |= g->bit;
    n->pkt[pkt].live++;
    if (at < n->first_push)
        n->first_push = at;
}

static uint32_t new_packet(struct noc *n)
{
    uint32_t i = n->free_pkt;
    if (i != NONE)
        n->free_pkt = n->pkt[i].next_free;
    else
        i = n->fresh++; /* records never used yet: none touched before it is needed */
    n->in_flight++;
    return i;
}

static void free_packet(struct noc *n, uint32_t pkt)
{
    n->pkt[pkt].next_free = n->free_pkt;
    n->free_pkt = pkt;
    n->in_flight--;
}

/* The front flit leaves the ring; with `credit` its place is the sender's again next cycle */
static void pop(struct noc *n, struct ring *g, bool credit)
{
    struct packet *p = &n->pkt[g->e[g->head].pkt];
    g->head = g->head + 1 == g->cap ? 0 : g->head + 1;
    if (--g->count == 0)
        *g->full &= ~g->bit;
    g->front_at = g->count ? g->e[g->head].at : NOC_NEVER;
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

/* Does the node's link along `axis` close the ring (the dateline)? */
static bool closes_ring(const struct noc *n, unsigned noc, unsigned node, unsigned axis)
{
    unsigned v = axis ? node / n->cfg.width : node % n->cfg.width;
    unsigned last = (axis ? n->cfg.height : n->cfg.width) - 1;
    return noc ? v == 0 : v == last;
}

static void activate(struct noc *n, unsigned noc, unsigned node)
{
    n->net[noc].active[node / 64] |= 1ull << (node % 64);
}

static const enum noc_link out_link[NOC_OUTS] = {NOC_LINK_X, NOC_LINK_Y, NOC_LINK_EJECT};

/* The ring output o's channel v feeds, and that link's latency */
static struct ring *out_ring(struct noc *n, unsigned noc, unsigned node, unsigned o, unsigned v,
                             unsigned *lat)
{
    if (o == 2) {
        *lat = n->cfg.t.router_to_niu;
        return &n->net[noc].r[node].eject[v];
    }
    *lat = n->cfg.t.router_to_router;
    unsigned to = next_node(n, noc, node, o);
    activate(n, noc, to);
    return &n->net[noc].r[to].in[(o == 0 ? NOC_IN_X : NOC_IN_Y) * VCS + v];
}

/* The outputs the header in slot s of router `node` wants (the tree's, less the NIU of a node
 * that does not take this broadcast) and the channel it takes on each. */
static unsigned wants(const struct noc *n, unsigned noc, unsigned node, unsigned s,
                      const struct packet *p, uint8_t vc[NOC_OUTS])
{
    const unsigned w = n->cfg.width, h = n->cfg.height, x = node % w, y = node / w;
    const enum noc_in in = (enum noc_in)(s / VCS);
    unsigned m = noc_route_outputs(&p->route, x, y, in);
    if ((m & NOC_OUT_NIU) && (p->flags & NOC_BRCST)) {
        const struct noc_rect *e = &p->exclude;
        bool excluded = (p->flags & NOC_BRCST_EXCLUDE) && (x + w - e->x0) % w <= (e->x1 + w - e->x0) % w &&
                        (y + h - e->y0) % h <= (e->y1 + h - e->y0) % h;
        if (excluded || !n->sink[node] || (node == p->src && !(p->flags & NOC_BRCST_SRC_INCLUDE)))
            m &= ~NOC_OUT_NIU;
    }
    for (unsigned o = 0; o < 2; o++) {
        /* along the axis it came by it keeps its dateline bit; a turn starts afresh */
        unsigned dl = in == (o ? NOC_IN_Y : NOC_IN_X) ? s % 2 : 0;
        vc[o] = (uint8_t)(p->cls * 2 + (dl | closes_ring(n, noc, node, o)));
    }
    vc[2] = (uint8_t)(p->cls * 2);
    return m;
}

/* ---- requests ------------------------------------------------------------------------------ */

/* The NIU sends its front request's next flit in cycle t into g, its router's ring for the
 * request's class, which has room (niu_send, or noc_inject for a request dated before noc_now) */
static void niu_flit(struct noc *n, struct router *r, struct ring *g, uint64_t t)
{
    const uint32_t i = r->q[r->qhead];
    struct packet *p = &n->pkt[i];
    struct noc_link_stats *ls = &r->link[NOC_LINK_INJECT];
    if (r->niu_stall_since != NOC_NEVER) {
        ls->stalled += t - r->niu_stall_since;
        r->niu_stall_since = NOC_NEVER;
    }
    if (r->sent == 0) {
        r->inject_at = t;
        r->niu.queued += t - p->inject_cycle;
    }
    push(n, g, t + n->cfg.t.niu_to_router, i, r->sent);
    ls->flits++;
    r->niu.flits_sent++;
    r->niu_free = t + 1;
    n->moved = true;
    if (++r->sent == p->nflits) {
        r->sent = 0;
        r->qhead = (r->qhead + 1) % n->cfg.t.inject_queue;
        r->qcount--;
        r->niu.sent++;
        ls->packets++;
        ls->busy += t - r->inject_at + 1;
        p->queued = false;
        if (n->cfg.link_busy) { /* which router r is: tracing only */
            const unsigned noc = r >= n->net[1].r && r < n->net[1].r + n->nodes;
            n->cfg.link_busy(n->cfg.ctx, noc, (unsigned)(r - n->net[noc].r), NOC_LINK_INJECT,
                             r->inject_at, t + 1);
        }
    }
}

/* The router took a flit from its NIU's ring of class c in cycle t (at most one a cycle) */
static void log_pop(struct router *r, unsigned c, uint64_t t)
{
    const uint64_t d = t - r->pop_last[c];
    r->pop_bits[c] = (d >= 64 ? 0 : r->pop_bits[c] << d) | 1;
    r->pop_last[c] = t;
}

/* Did it in cycle t (no more than 63 cycles before its last)? */
static bool popped_at(const struct router *r, unsigned c, uint64_t t)
{
    return t <= r->pop_last[c] && r->pop_last[c] - t < 64 && (r->pop_bits[c] >> (r->pop_last[c] - t) & 1);
}

/* A request dated `cycle`, before noc_now, was taken by an idle NIU (its queue empty): it sends
 * what it would have sent in the cycles from then to noc_now, had it been asked in time. Those
 * flits reach the router at cycle + niu_to_router >= noc_now at the earliest, so nothing the
 * model has run could have seen them; what they would have seen is only the NIU's own ring into
 * its router, whose room in cycle t was its count now plus the flits the router took from it
 * since t (the NIU sent nothing since niu_free). The NIU starts where its last request's tail
 * left it, and the same bookkeeping as niu_send runs cycle by cycle (at most niu_to_router). */
static void niu_catch_up(struct noc *n, struct router *r, uint64_t cycle)
{
    const struct packet *p = &n->pkt[r->q[r->qhead]];
    struct ring *g = &r->in[NOC_IN_NIU * VCS + p->cls * 2];
    const uint64_t t0 = cycle > r->niu_free ? cycle : r->niu_free;
    uint32_t count = g->count;
    for (uint64_t t = t0; t < n->now; t++)
        count += popped_at(r, p->cls, t);
    for (uint64_t t = t0; t < n->now && r->qcount; t++) {
        if (count < g->cap) {
            niu_flit(n, r, g, t);
            count++;
        } else if (r->niu_stall_since == NOC_NEVER) {
            r->niu_stall_since = t;
        }
        count -= popped_at(r, p->cls, t);
    }
}

static bool rect_ok(const struct noc_config *c, const struct noc_rect *r)
{
    return r->x0 < c->width && r->x1 < c->width && r->y0 < c->height && r->y1 < c->height;
}

bool noc_inject(struct noc *n, const struct noc_request *q)
{
    const struct noc_config *c = &n->cfg;
    const bool brcst = q->flags & NOC_BRCST;
    if (q->noc >= NOC_COUNT || q->src >= n->nodes)
        return false;
    /* Dated before the model's clock (mem/noc.h): only while its header cannot have reached its
     * router, never from a delivery's callback (a step is under way), and in each NIU's order */
    struct router *r = &n->net[q->noc].r[q->src];
    if (q->cycle < n->now && (q->cycle + c->t.niu_to_router < n->now || n->stepping ||
                              q->cycle < r->last_cycle))
        return false;
    if ((q->flags & NOC_BRCST_PATH_RESERVE) && !brcst) /* NOC_CMD_PATH_RESERVE is a broadcast's */
        return false;
    if (brcst ? !rect_ok(c, &q->dst_rect) : q->dst >= n->nodes)
        return false;
    if ((q->flags & NOC_BRCST_EXCLUDE) && !rect_ok(c, &q->exclude))
        return false;
    uint32_t data = (q->bytes + c->t.flit_bytes - 1) / c->t.flit_bytes;
    if (data > c->t.max_data_flits || (q->bytes && !data)) /* !data: bytes + flit - 1 wrapped */
        return false;
    if (r->qcount == c->t.inject_queue) {
        r->niu.rejected++;
        return false;
    }
    const uint32_t i = new_packet(n);
    const struct noc_rect *d = &q->dst_rect;
    n->pkt[i] = (struct packet){
        .inject_cycle = q->cycle,
        .tag = q->tag,
        .bytes = q->bytes,
        .seq = r->seq++,
        .nflits = (uint16_t)(1 + data),
        .src = q->src,
        .dst = brcst ? q->src : q->dst,
        .noc = q->noc,
        .cls = brcst ? 1 : q->flags & NOC_RESPONSE ? 2 : 0,
        .queued = true,
        .flags = q->flags,
        .exclude = q->exclude,
        .route = {.noc = q->noc, .w = (uint8_t)c->width, .h = (uint8_t)c->height, .brcst = brcst,
                  .y_major = q->flags & NOC_BRCST_Y_MAJOR,
                  .src = {(uint8_t)(q->src % c->width), (uint8_t)(q->src / c->width)},
                  .dst = {(uint8_t)(q->dst % c->width), (uint8_t)(q->dst / c->width)},
                  .lo = {d->x0, d->y0}, .hi = {d->x1, d->y1}},
    };
    r->q[(r->qhead + r->qcount++) % c->t.inject_queue] = i;
    if (q->cycle > r->last_cycle)
        r->last_cycle = q->cycle;
    activate(n, q->noc, q->src);
    /* dated back, an idle NIU catches up on the cycles it missed; behind other requests it
     * waits its turn from noc_now on, as it would have */
    if (q->cycle < n->now && r->qcount == 1) {
        n->first_push = NOC_NEVER;
        niu_catch_up(n, r, q->cycle);
        if (n->first_push < n->next)
            n->next = n->first_push;
    }
    const uint64_t due = q->cycle > n->now ? q->cycle : n->now;
    if (r->qcount && due < n->next)
        n->next = due;
    return true;
}

bool noc_unicast(struct noc *n, unsigned noc, unsigned src, unsigned dst, uint32_t bytes, uint32_t tag,
                 uint64_t cycle)
{
    if (noc >= NOC_COUNT || src >= n->nodes || dst >= n->nodes) /* before the casts */
        return false;
    struct noc_request q = {.noc = (uint8_t)noc, .src = (uint16_t)src, .dst = (uint16_t)dst,
                            .bytes = bytes, .tag = tag, .cycle = cycle};
    return noc_inject(n, &q);
}

/* ---- one cycle ----------------------------------------------------------------------------- */

/* The deliver callback for a packet at the NIU of (noc, node) */
static void report(struct noc *n, const struct packet *p, unsigned noc, unsigned node, uint64_t head,
                   uint64_t tail)
{
    if (!n->cfg.deliver)
        return;
    struct noc_delivery d = {
        .head_cycle = head, .tail_cycle = tail, .inject_cycle = p->inject_cycle, .tag = p->tag,
        .bytes = p->bytes, .seq = p->seq, .src = p->src, .dst = (uint16_t)node, .noc = (uint8_t)noc,
        .broadcast = p->flags & NOC_BRCST,
    };
    n->cfg.deliver(n->cfg.ctx, &d);
}

/* A flit reaches the NIU; a tail completes a delivery (reported here unless report_early) */
static void deliver(struct noc *n, unsigned noc, unsigned node, uint64_t t)
{
    struct router *r = &n->net[noc].r[node];
    EACH(v, r->eject_full, 0, VCS) {
        if (r->eject[v].front_at > t)
            continue;
        struct flit *f = front(&r->eject[v]);
        const struct packet *p = &n->pkt[f->pkt];
        if (f->idx == 0)
            r->eject_head[v] = f->at;
        r->niu.flits_received++;
        if (f->idx + 1 == p->nflits) {
            r->niu.received++;
            r->niu.bytes_received += p->bytes;
            if (!n->cfg.report_early)
                report(n, p, noc, node, r->eject_head[v], f->at);
        }
        pop(n, &r->eject[v], false);
    }
}

/* May the packet (1 + its index) take output o's channel v? */
static bool channel_free(const struct router *r, unsigned o, unsigned v, uint32_t mine)
{
    return r->owner[o][v] == FREE && (!r->reserved[o][v] || r->reserved[o][v] == mine);
}

/* Does the ring hold nothing of another packet than `pkt`? */
static bool ring_only(const struct ring *g, uint32_t pkt)
{
    for (uint32_t k = 0, i = g->head; k < g->count; k++, i = i + 1 == g->cap ? 0 : i + 1)
        if (g->e[i].pkt != pkt)
            return false;
    return true;
}

/* NOC_CMD_PATH_RESERVE, made by the header's first router once the header has reached it (BH
 * RoutingPaths.md: the routers make the reservation and inform the initiating tile): every
 * channel of the broadcast's tree, walked from its source by the routers' own decisions, is
 * free (or already its own), and the ring each of its channels into a router feeds holds
 * nothing of another packet (an owner lets go when its tail leaves the router, while its flits
 * may still be on the link or in the next buffer: a reservation taking the next router's
 * output then would leave that packet's header waiting for it in front of its own header, for
 * ever); then the channels become its own, so its header never waits behind another packet;
 * else nothing changes and the router tries again when something has moved. The header is at
 * the front of the source NIU's ring (only its own flits and later requests' are behind it),
 * so nothing there can wait for its tree. It reads other routers, so all reservations are made
 * before any router acts in the cycle (step), in node order: what they see is the previous
 * cycle's end, and two trees wanted at once go to the lower node. */
static bool reserve_tree(struct noc *n, const struct packet *p, uint32_t pkt)
{
    struct tree_edge *hop = n->tree, *res = n->tree + n->nodes * NOC_OUTS;
    unsigned nhop = 0, nres = 0;
    /* routers to expand, by the input the packet reaches them through: the source's first */
    hop[nhop++] = (struct tree_edge){.node = p->src, .slot = (uint8_t)(NOC_IN_NIU * VCS + p->cls * 2)};
    for (unsigned i = 0; i < nhop; i++) {
        uint8_t vc[NOC_OUTS];
        const unsigned m = wants(n, p->noc, hop[i].node, hop[i].slot, p, vc);
        const struct router *r = &n->net[p->noc].r[hop[i].node];
        for (unsigned o = 0; o < NOC_OUTS; o++) {
            if (!(m & (1u << o)))
                continue;
            if (!channel_free(r, o, vc[o], pkt + 1))
                return false;
            if (o != 2 && !ring_only(&n->net[p->noc].r[next_node(n, p->noc, hop[i].node, o)]
                                          .in[(o ? NOC_IN_Y : NOC_IN_X) * VCS + vc[o]], pkt))
                return false;
            res[nres++] = (struct tree_edge){.node = hop[i].node, .o = (uint8_t)o, .vc = vc[o]};
            if (o != 2)
                hop[nhop++] = (struct tree_edge){
                    .node = (uint16_t)next_node(n, p->noc, hop[i].node, o),
                    .slot = (uint8_t)((o ? NOC_IN_Y : NOC_IN_X) * VCS + vc[o])};
        }
    }
    for (unsigned i = 0; i < nres; i++)
        n->net[p->noc].r[res[i].node].reserved[res[i].o][res[i].vc] = pkt + 1;
    return true;
}

/* The NIU sends the next flit of its front request into its router's channel for the class */
static void niu_send(struct noc *n, struct router *r, uint64_t t)
{
    if (!r->qcount)
        return;
    const struct packet *p = &n->pkt[r->q[r->qhead]];
    if (p->inject_cycle > t)
        return;
    struct ring *g = &r->in[NOC_IN_NIU * VCS + p->cls * 2];
    if (room(g))
        niu_flit(n, r, g, t);
    else if (r->niu_stall_since == NOC_NEVER)
        r->niu_stall_since = t;
}

static void grant(struct router *r, unsigned s, unsigned mask, const uint8_t vc[NOC_OUTS], uint64_t t)
{
    r->granted[s] = (uint8_t)(HOLDING | mask);
    for (unsigned o = 0; o < NOC_OUTS; o++)
        if (mask & (1u << o)) {
            struct noc_link_stats *ls = &r->link[out_link[o]];
            r->owner[o][vc[o]] = (uint8_t)s;
            r->reserved[o][vc[o]] = 0;
            r->out_vc[s][o] = vc[o];
            r->rr[o] = (uint8_t)((s + 1) % SLOTS);
            if (r->holders[o]++ == 0)
                r->hold_since[o] = t;
            ls->packets++;
            if (r->wait_since[s] != NOC_NEVER)
                ls->head_wait += t - r->wait_since[s];
        }
    r->wait_since[s] = NOC_NEVER;
}

/* Headers ask for their outputs' channels (the arbitration in this file's first comment) */
static void arbitrate(struct noc *n, unsigned noc, unsigned node, uint64_t t)
{
    struct router *r = &n->net[noc].r[node];
    unsigned want[SLOTS];
    uint8_t vc[SLOTS][NOC_OUTS];
    uint32_t ready = 0, unreserved = 0;
    EACH(s, r->in_full, 0, SLOTS) {
        if (r->granted[s] || r->in[s].front_at > t)
            continue;
        struct flit *f = front(&r->in[s]);
        if (f->idx != 0)
            continue;
        const struct packet *p = &n->pkt[f->pkt];
        if ((p->flags & NOC_BRCST_PATH_RESERVE) && !p->reserved) {
            unreserved |= 1u << s; /* at its first router, its tree not yet its own (step) */
            continue;
        }
        want[s] = wants(n, noc, node, s, p, vc[s]);
        if (!want[s])
            grant(r, s, 0, vc[s], t); /* a leaf that takes nothing: the flits end here */
        else
            ready |= 1u << s;
    }
    EACH(s, unreserved, 0, SLOTS)
        if (r->wait_since[s] == NOC_NEVER)
            r->wait_since[s] = t;
    if (!ready)
        return;
    for (unsigned o = 0; o < NOC_OUTS; o++)
        EACH(s, ready, r->rr[o], SLOTS) {
            if (!(ready & (1u << s)) || !(want[s] & (1u << o)))
                continue;
            const uint32_t mine = front(&r->in[s])->pkt + 1;
            bool all_free = true;
            for (unsigned p = 0; p < NOC_OUTS; p++)
                if ((want[s] & (1u << p)) && !channel_free(r, p, vc[s][p], mine))
                    all_free = false;
            if (all_free) {
                grant(r, s, want[s], vc[s], t);
                ready &= ~(1u << s);
            }
        }
    EACH(s, ready, 0, SLOTS)
        if (r->wait_since[s] == NOC_NEVER)
            r->wait_since[s] = t;
}

/* report_early: a flit left for the NIU and reaches it at `at`, which nothing can change (the
 * NIU takes a flit a cycle and its output to the NIU never waits: move). A tail is reported at
 * the end of the step (report_early), a header's arrival kept for it. */
static void early_sent(struct noc *n, unsigned noc, unsigned node, unsigned vc, const struct flit *f, uint64_t at)
{
    struct router *r = &n->net[noc].r[node];
    if (f->idx == 0)
        r->early_head[vc] = at;
    if (f->idx + 1 == n->pkt[f->pkt].nflits) {
        r->early_pkt = f->pkt;
        r->early_vc = (uint8_t)vc;
        n->net[noc].early[node / 64] |= 1ull << (node % 64);
        n->early = true;
    }
}

/* Slots that hold their outputs send their front flit on if it has arrived, no other channel
 * took one of those links this cycle, and every channel it goes into has room: round-robin from
 * the slot after the last one that sent (the link allocation of this file's first comment). */
static void move(struct noc *n, unsigned noc, unsigned node, uint64_t t)
{
    struct router *r = &n->net[noc].r[node];
    unsigned used = 0, first = SLOTS;
    EACH(s, r->in_full, r->link_rr, SLOTS) {
        if (!r->granted[s] || r->in[s].front_at > t)
            continue;
        struct flit *f = front(&r->in[s]);
        const unsigned mask = r->granted[s] & ~HOLDING;
        struct ring *to[NOC_OUTS];
        unsigned lat[NOC_OUTS];
        bool ok = !(mask & used);
        for (unsigned o = 0; ok && o < NOC_OUTS; o++)
            if (mask & (1u << o)) {
                to[o] = out_ring(n, noc, node, o, r->out_vc[s][o], &lat[o]);
                if (o != 2 && !room(to[o]))
                    ok = false;
            }
        if (!ok) {
            if (r->stall_since[s] == NOC_NEVER)
                r->stall_since[s] = t;
            continue;
        }
        const struct flit fl = *f;
        const bool tail = fl.idx + 1 == n->pkt[fl.pkt].nflits;
        for (unsigned o = 0; o < NOC_OUTS; o++)
            if (mask & (1u << o)) {
                struct noc_link_stats *ls = &r->link[out_link[o]];
                push(n, to[o], t + lat[o], fl.pkt, fl.idx);
                ls->flits++;
                if (o == 2 && n->cfg.report_early)
                    early_sent(n, noc, node, r->out_vc[s][o], &fl, t + lat[o]);
                if (r->stall_since[s] != NOC_NEVER)
                    ls->stalled += t - r->stall_since[s];
                if (tail) {
                    r->owner[o][r->out_vc[s][o]] = FREE;
                    if (--r->holders[o] == 0) {
                        ls->busy += t - r->hold_since[o] + 1;
                        if (n->cfg.link_busy)
                            n->cfg.link_busy(n->cfg.ctx, noc, node, out_link[o], r->hold_since[o], t + 1);
                    }
                }
            }
        r->stall_since[s] = NOC_NEVER;
        if (tail)
            r->granted[s] = 0;
        used |= mask;
        if (first == SLOTS)
            first = s;
        if (s / VCS == NOC_IN_NIU)
            log_pop(r, s % VCS / 2, t);
        pop(n, &r->in[s], true);
        n->moved = true;
    }
    if (first != SLOTS)
        r->link_rr = (uint8_t)((first + 1) % SLOTS);
}

static bool router_empty(const struct router *r)
{
    return !r->qcount && !r->in_full && !r->eject_full;
}

static uint64_t ring_next(const struct ring *g, uint64_t t, uint64_t e, bool *waiting)
{
    if (!g->count)
        return e;
    if (g->front_at <= t)
        *waiting = true;
    else if (g->front_at < e)
        return g->front_at;
    return e;
}

/* The router's part of the next step: its next arrival or request; `waiting` when a flit has
 * arrived and not moved or a request's time has come and it has not left (it waits for
 * something else to move, which makes its own step) */
static uint64_t router_next(const struct router *r, const struct noc *n, uint64_t t, bool *waiting)
{
    uint64_t e = NOC_NEVER;
    EACH(s, r->in_full, 0, SLOTS)
        e = ring_next(&r->in[s], t, e, waiting);
    EACH(v, r->eject_full, 0, VCS)
        e = ring_next(&r->eject[v], t, e, waiting);
    if (r->qcount) {
        uint64_t c = n->pkt[r->q[r->qhead]].inject_cycle;
        if (c <= t)
            *waiting = true;
        else if (c < e)
            e = c;
    }
    return e;
}

/* report_early: the tails that left for their NIUs in this step, all arriving router_to_niu
 * later, in the canonical order (node, then NoC: at most one per NIU port a cycle); a step sends
 * them NoC by NoC, so they are reported here, after it */
static void report_early(struct noc *n)
{
    n->early = false;
    for (unsigned w = 0; w < n->words; w++)
        for (uint64_t bits = n->net[0].early[w] | n->net[1].early[w]; bits; bits &= bits - 1) {
            const unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
            for (unsigned k = 0; k < NOC_COUNT; k++) {
                if (!(n->net[k].early[w] & (1ull << (node % 64))))
                    continue;
                const struct router *r = &n->net[k].r[node];
                const struct ring *g = &r->eject[r->early_vc];
                const struct flit *tail = &g->e[(g->head + g->count - 1) % g->cap];
                report(n, &n->pkt[r->early_pkt], k, node, r->early_head[r->early_vc], tail->at);
            }
        }
    for (unsigned k = 0; k < NOC_COUNT; k++)
        memset(n->net[k].early, 0, n->words * sizeof *n->net[k].early);
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
    n->first_push = NOC_NEVER;
    /* deliveries first, in the canonical order: node, then NoC, then channel */
    for (unsigned w = 0; w < n->words; w++)
        for (uint64_t bits = n->net[0].active[w] | n->net[1].active[w]; bits; bits &= bits - 1) {
            unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
            for (unsigned k = 0; k < NOC_COUNT; k++)
                deliver(n, k, node, t);
        }
    /* path reservations, made by the header's first router once it is there (at the front of
     * the NIU's ring for broadcasts: nothing of another packet is ahead of it) */
    for (unsigned k = 0; k < NOC_COUNT; k++)
        for (unsigned w = 0; w < n->words; w++)
            for (uint64_t bits = n->net[k].active[w]; bits; bits &= bits - 1) {
                struct router *r = &n->net[k].r[w * 64 + (unsigned)__builtin_ctzll(bits)];
                const struct flit *f = front(&r->in[NOC_IN_NIU * VCS + 2]);
                if (!f || f->at > t || f->idx != 0)
                    continue;
                struct packet *p = &n->pkt[f->pkt];
                if ((p->flags & NOC_BRCST_PATH_RESERVE) && !p->reserved)
                    p->reserved = reserve_tree(n, p, f->pkt);
            }
    uint64_t next = NOC_NEVER;
    bool waiting = false;
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
                uint64_t e = router_next(r, n, t, &waiting);
                if (e < next)
                    next = e;
            }
    /* what moved frees a place or an output for the next cycle, which matters only to what
     * waits; a flit sent now arrives later (router_next has its arrival) */
    if (n->moved && waiting)
        next = t + 1;
    if (n->first_push < next) /* a router that was looked at before the flit was sent to it */
        next = n->first_push;
    if (next < n->next)
        n->next = next;
    if (n->early)
        report_early(n);
}

void noc_advance(struct noc *n, uint64_t cycle)
{
    /* NOC_NEVER is no cycle: advancing to it runs everything that can happen and stops */
    n->stepping = true;
    while (n->next != NOC_NEVER && n->next <= cycle)
        step(n, n->next);
    n->stepping = false;
    if (cycle >= n->now)
        n->now = cycle == NOC_NEVER ? NOC_NEVER : cycle + 1;
}

uint64_t noc_now(const struct noc *n)
{
    return n->now;
}

uint64_t noc_next_event(const struct noc *n)
{
    return n->next;
}

/* ---- what waits for what (noc_describe) ---------------------------------------------------- */

static const char *const in_name[NOC_INS] = {"NIU", "x", "y"};
static const char *const out_name[NOC_OUTS] = {"x", "y", "NIU"};

static void packet_text(const struct noc *n, uint32_t i, FILE *f)
{
    const struct packet *p = &n->pkt[i];
    const unsigned w = n->cfg.width;
    fprintf(f, "%s tag %u from (%u,%u) to ", p->flags & NOC_BRCST ? "broadcast" : p->cls == 2 ? "response" : "request",
            p->tag, p->src % w, p->src / w);
    if (p->flags & NOC_BRCST)
        fprintf(f, "x %u..%u y %u..%u", p->route.lo[0], p->route.hi[0], p->route.lo[1], p->route.hi[1]);
    else
        fprintf(f, "(%u,%u)", p->dst % w, p->dst / w);
}

/* Why the front flit of slot s of router (noc, node) does not move, if it does not */
static bool blocked_text(const struct noc *n, unsigned noc, unsigned node, unsigned s, FILE *f)
{
    const struct router *r = &n->net[noc].r[node];
    const struct ring *g = &r->in[s];
    if (!g->count || g->e[g->head].at >= n->now)
        return false;
    const struct flit *fl = &g->e[g->head];
    const struct packet *p = &n->pkt[fl->pkt];
    const unsigned w = n->cfg.width;
    fprintf(f, "NoC %u (%u,%u) %s input, channel %u: ", noc, node % w, node / w, in_name[s / VCS], s % VCS);
    packet_text(n, fl->pkt, f);
    if ((p->flags & NOC_BRCST_PATH_RESERVE) && !p->reserved) {
        fputs(": its header waits for its whole path", f);
    } else if (!r->granted[s]) {
        uint8_t vc[NOC_OUTS];
        const unsigned m = wants(n, noc, node, s, p, vc);
        bool said = false;
        for (unsigned o = 0; o < NOC_OUTS && !said; o++)
            if ((m & (1u << o)) && !channel_free(r, o, vc[o], fl->pkt + 1)) {
                said = true;
                fprintf(f, ": its header waits for the %s output's channel %u, ", out_name[o], vc[o]);
                if (r->owner[o][vc[o]] != FREE) {
                    const unsigned h = r->owner[o][vc[o]];
                    fprintf(f, "held by the %s input's channel %u (", in_name[h / VCS], h % VCS);
                    if (r->in[h].count)
                        packet_text(n, r->in[h].e[r->in[h].head].pkt, f);
                    fputc(')', f);
                } else {
                    fputs("reserved by ", f);
                    packet_text(n, r->reserved[o][vc[o]] - 1, f);
                }
            }
        if (!said) /* a channel freed by a tail after the last grants */
            fputs(": its header waits for the next cycle's grants", f);
    } else {
        fprintf(f, ": flit %u of %u waits for the link or for room in the next buffer", fl->idx + 1,
                p->nflits);
    }
    fputc('\n', f);
    return true;
}

unsigned noc_describe(const struct noc *n, FILE *f, unsigned max_lines)
{
    unsigned lines = 0, more = 0;
    for (unsigned k = 0; k < NOC_COUNT; k++)
        for (unsigned node = 0; node < n->nodes; node++) {
            const struct router *r = &n->net[k].r[node];
            for (unsigned s = 0; s < SLOTS; s++) {
                if (lines == max_lines) {
                    more += r->in[s].count > 0;
                    continue;
                }
                lines += blocked_text(n, k, node, s, f);
            }
            if (r->qcount && lines < max_lines) {
                const struct packet *p = &n->pkt[r->q[r->qhead]];
                fprintf(f, "NoC %u NIU (%u,%u): %u queued; ", k, node % n->cfg.width, node / n->cfg.width,
                        r->qcount);
                packet_text(n, r->q[r->qhead], f);
                if (r->sent)
                    fprintf(f, ": flit %u of %u next\n", r->sent + 1, p->nflits);
                else
                    fprintf(f, ": asked for at cycle %llu\n", (unsigned long long)p->inject_cycle);
                lines++;
            }
        }
    if (more)
        fprintf(f, "... and %u more channels holding flits\n", more);
    return lines;
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
