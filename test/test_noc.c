/* The NoC timing model (mem/noc.c): exact arrival cycles from the documented rules.
 *
 * The rules every expected number below is derived from (docs/timing-model.md "NoC"):
 *  - a link takes one flit per cycle; NIU -> router 5 cycles, router -> router 9, router -> NIU 5
 *    (NoC/README.md "Performance"); a router forwards a flit in the cycle it arrives;
 *  - a packet is a header flit and ceil(bytes / flit) data flits, flit 64 B on Blackhole, 32 B on
 *    Wormhole (NoC/README.md); its NIU sends one flit per cycle from the request's cycle on;
 *  - so a packet of F flits crossing H router -> router links, alone on its path, has its header
 *    at the destination NIU 5 + 9 H + 5 cycles after the request and its tail F - 1 later;
 *  - NoC #0 goes right (+x) then down (+y), NoC #1 up (-y) then left (-x), both rings wrapping
 *    (RoutingPaths.md); a packet holds each output from its header to its tail, and the next
 *    header gets that output the cycle after the tail left (the release is registered);
 *  - an input holds buffer_flits flits including those still on the link into it, and a place
 *    freed in cycle t is usable by the sender from t + 1.
 * Nodes are (x, y) of NoC #0's grid: Blackhole 17 x 12, Wormhole 10 x 12. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/noc.h"

#define BH_W 17
#define WH_W 10

struct log {
    struct noc_delivery d[512];
    unsigned n;
    /* with keep_last: only a running check of all deliveries (random traffic) */
    bool keep_last;
    uint64_t total, hash, too_soon, out_of_order;
    struct noc_delivery last;
    /* a responder: a delivery tagged `ask` is answered (a response, tagged ask + 1) with
     * `reply_bytes` back to its source the cycle after it arrived */
    struct noc *answer_on;
    uint32_t ask, reply_bytes;
};

static unsigned ring_steps(unsigned noc, unsigned a, unsigned b, unsigned n);
static uint32_t lcg(uint32_t *s);

/* Random traffic's check of one delivery: in the canonical order, and a unicast request no
 * sooner than alone (5 + 9 hops + 5 for the header, one flit a cycle after it) */
static void check(struct log *l, const struct noc_delivery *d)
{
    const struct noc_delivery *p = &l->last;
    if (l->total && !(p->tail_cycle < d->tail_cycle ||
                      (p->tail_cycle == d->tail_cycle &&
                       (p->dst < d->dst || (p->dst == d->dst && p->noc < d->noc)))))
        l->out_of_order++;
    if (!d->broadcast) {
        unsigned hops = ring_steps(d->noc, d->src % BH_W, d->dst % BH_W, BH_W) +
                        ring_steps(d->noc, d->src / BH_W, d->dst / BH_W, 12);
        uint64_t flits = 1 + (d->bytes + 63) / 64;
        if (d->tail_cycle < d->inject_cycle + 10 + 9 * hops + flits - 1)
            l->too_soon++;
    }
    const uint64_t v[] = {d->head_cycle, d->tail_cycle, d->inject_cycle, d->tag, d->bytes, d->seq,
                          d->src, d->dst, d->noc, d->broadcast};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
        l->hash = (l->hash ^ v[i]) * 0x100000001B3ull;
    l->total++;
    l->last = *d;
}

static void record(void *ctx, const struct noc_delivery *d)
{
    struct log *l = ctx;
    if (l->keep_last) {
        check(l, d);
        return;
    }
    cr_assert_lt(l->n, 512);
    l->d[l->n++] = *d;
    if (l->answer_on && d->tag == l->ask) {
        struct noc_request q = {.noc = d->noc, .src = d->dst, .dst = d->src, .flags = NOC_RESPONSE,
                                .bytes = l->reply_bytes, .tag = d->tag + 1, .cycle = d->tail_cycle + 1};
        cr_assert(noc_inject(l->answer_on, &q));
    }
}

static struct noc_config cfg_for(enum arch_id arch, struct log *l)
{
    struct noc_config c = noc_config_for(arch);
    c.deliver = record;
    c.ctx = l;
    return c;
}

static struct noc *make(enum arch_id arch, struct log *l)
{
    struct noc_config c = cfg_for(arch, l);
    struct noc *n = noc_create(&c);
    cr_assert_not_null(n);
    return n;
}

#define NODE(w, x, y) ((unsigned)((y) * (w) + (x)))

/* Runs until nothing is left in flight. */
static void drain(struct noc *n)
{
    while (noc_next_event(n) != NOC_NEVER)
        noc_advance(n, noc_next_event(n));
    cr_expect_eq(noc_in_flight(n), 0, "%u packets stuck", noc_in_flight(n));
}

/* The one delivery to `dst` (fails if there is not exactly one) */
static const struct noc_delivery *at(const struct log *l, unsigned dst)
{
    const struct noc_delivery *d = NULL;
    for (unsigned i = 0; i < l->n; i++)
        if (l->d[i].dst == dst) {
            cr_assert_null(d, "two deliveries to node %u", dst);
            d = &l->d[i];
        }
    cr_assert_not_null(d, "nothing delivered to node %u", dst);
    return d;
}

/* One packet of `bytes` from (sx, sy) to (dx, dy) requested at cycle 100: its head and tail. */
static void one(enum arch_id arch, unsigned noc, unsigned sx, unsigned sy, unsigned dx, unsigned dy,
                uint32_t bytes, uint64_t head, uint64_t tail)
{
    struct log l = {0};
    struct noc *n = make(arch, &l);
    unsigned w = arch == ARCH_BLACKHOLE ? BH_W : WH_W;
    cr_assert(noc_unicast(n, noc, NODE(w, sx, sy), NODE(w, dx, dy), bytes, 7, 100));
    drain(n);
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.d[0].head_cycle, head, "NoC %u (%u,%u)->(%u,%u): head at %lu, not %lu", noc, sx, sy,
                 dx, dy, (unsigned long)l.d[0].head_cycle, (unsigned long)head);
    cr_expect_eq(l.d[0].tail_cycle, tail, "NoC %u (%u,%u)->(%u,%u): tail at %lu, not %lu", noc, sx, sy,
                 dx, dy, (unsigned long)l.d[0].tail_cycle, (unsigned long)tail);
    cr_expect_eq(l.d[0].src, NODE(w, sx, sy));
    cr_expect_eq(l.d[0].tag, 7);
    cr_expect_eq(l.d[0].inject_cycle, 100);
    noc_destroy(n);
}

Test(noc, one_flit_to_the_next_node_downstream_arrives_19_cycles_later)
{
    /* One hop: 100 + 5 + 9 + 5 = 119, header only (0 bytes: one flit), so tail = head. */
    one(ARCH_BLACKHOLE, 0, 3, 4, 4, 4, 0, 119, 119); /* NoC #0 right */
    one(ARCH_BLACKHOLE, 0, 3, 4, 3, 5, 0, 119, 119); /* NoC #0 down */
    one(ARCH_BLACKHOLE, 1, 4, 4, 3, 4, 0, 119, 119); /* NoC #1 left */
    one(ARCH_BLACKHOLE, 1, 3, 5, 3, 4, 0, 119, 119); /* NoC #1 up */
    one(ARCH_WORMHOLE, 0, 3, 4, 4, 4, 0, 119, 119);
    one(ARCH_WORMHOLE, 1, 3, 5, 3, 4, 0, 119, 119);
    /* To its own NIU: in and straight out again, 100 + 5 + 5. */
    one(ARCH_BLACKHOLE, 0, 3, 4, 3, 4, 0, 110, 110);
}

Test(noc, a_multi_flit_packet_streams_one_flit_per_cycle)
{
    /* 1024 B: Blackhole 16 data flits of 64 B + header = 17 flits, the tail 16 cycles behind the
     * header (119 + 16 = 135); Wormhole 32 data flits of 32 B + header = 33, tail 119 + 32. */
    one(ARCH_BLACKHOLE, 0, 3, 4, 4, 4, 1024, 119, 135);
    one(ARCH_BLACKHOLE, 1, 3, 5, 3, 4, 1024, 119, 135);
    one(ARCH_WORMHOLE, 0, 3, 4, 4, 4, 1024, 119, 151);
    one(ARCH_WORMHOLE, 1, 4, 4, 3, 4, 1024, 119, 151);
    /* 1000 B still needs 16 Blackhole flits (ceil(1000 / 64)); 65 B needs 2. */
    one(ARCH_BLACKHOLE, 0, 3, 4, 4, 4, 1000, 119, 135);
    one(ARCH_BLACKHOLE, 0, 3, 4, 4, 4, 65, 119, 121);
    /* Two hops down and three right on NoC #0: 100 + 5 + 9 x 5 + 5 = 155, 17 flits: 171. */
    one(ARCH_BLACKHOLE, 0, 1, 2, 4, 4, 1024, 155, 171);
}

Test(noc, the_edges_wrap_round)
{
    /* The ring's link from the last column or row to the first is one hop like any other. */
    one(ARCH_BLACKHOLE, 0, 16, 4, 0, 4, 0, 119, 119);  /* NoC #0: x 16 -> 0 */
    one(ARCH_BLACKHOLE, 0, 3, 11, 3, 0, 0, 119, 119);  /* NoC #0: y 11 -> 0 */
    one(ARCH_BLACKHOLE, 1, 0, 4, 16, 4, 0, 119, 119);  /* NoC #1: x 0 -> 16 */
    one(ARCH_BLACKHOLE, 1, 3, 0, 3, 11, 0, 119, 119);  /* NoC #1: y 0 -> 11 */
    one(ARCH_WORMHOLE, 0, 9, 4, 0, 4, 0, 119, 119);    /* Wormhole's 10 columns */
    /* NoC #0 from (16, 11) to (15, 10): x 16 -> 15 is 16 steps right, y 11 -> 10 is 11 down:
     * 27 hops, 100 + 5 + 27 x 9 + 5 = 353. */
    one(ARCH_BLACKHOLE, 0, 16, 11, 15, 10, 0, 353, 353);
}

Test(noc, the_west_neighbour_on_noc0_is_a_ring_away)
{
    /* NoC #0 only goes right: (5, 4) -> (4, 4) takes the other 16 links of the 17-column ring,
     * 100 + 5 + 16 x 9 + 5 = 254; NoC #1 the same way round for the east neighbour. */
    one(ARCH_BLACKHOLE, 0, 5, 4, 4, 4, 0, 254, 254);
    one(ARCH_BLACKHOLE, 1, 4, 4, 5, 4, 0, 254, 254);
    /* Wormhole's ring has 10 columns: 9 hops, 100 + 5 + 81 + 5 = 191. */
    one(ARCH_WORMHOLE, 0, 5, 4, 4, 4, 0, 191, 191);
}

/* A request of no data from `src` to `dst` at 0 answered with 64 bytes the cycle after it
 * arrives: the answer's tail. */
static uint64_t round_trip(unsigned src, unsigned dst)
{
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    l.answer_on = n, l.ask = 40, l.reply_bytes = 64;
    cr_assert(noc_unicast(n, 0, src, dst, 0, 40, 0));
    drain(n);
    cr_assert_eq(l.n, 2);
    noc_destroy(n);
    return l.d[1].tail_cycle;
}

Test(noc, a_round_trip_to_the_west_neighbour_costs_the_ring_as_measured)
{
    /* blackhole-py (parallel.md B.2): a local NoC read completes in ~71-79 cycles, one from a
     * peer in the same row in ~223-231 whatever the distance: ~152 more. On NoC #0 the request
     * to any peer in the row and its answer cover the 17-link ring once, the local one no link:
     * 17 x 9 = 153 more, whatever the peer. (The NIUs' own time, the same in both, is not in
     * this model: the local round trip here is 10 + 1 + 10 + 1 = 22.) */
    const uint64_t local = round_trip(NODE(BH_W, 5, 4), NODE(BH_W, 5, 4));
    cr_expect_eq(local, 22);
    cr_expect_eq(round_trip(NODE(BH_W, 5, 4), NODE(BH_W, 4, 4)) - local, 153);
    cr_expect_eq(round_trip(NODE(BH_W, 5, 4), NODE(BH_W, 6, 4)) - local, 153);
    cr_expect_eq(round_trip(NODE(BH_W, 5, 4), NODE(BH_W, 15, 4)) - local, 153);
}

/* A (17 flits, a request) from (1,4) and B (17 flits, with `b_flags`) from (2,4), both to (3,4)
 * and asked for at 0. a_and_b runs them: B is delivered first, then A, with the heads and tails
 * `want` (B's head, B's tail, A's head, A's tail); it returns the NoC, for its statistics. */
static struct noc *start_a_and_b(struct log *l, unsigned b_flags)
{
    struct noc *n = make(ARCH_BLACKHOLE, l);
    const unsigned a = NODE(BH_W, 1, 4), b = NODE(BH_W, 2, 4), d = NODE(BH_W, 3, 4);
    cr_assert(noc_unicast(n, 0, a, d, 1024, 1, 0));
    struct noc_request q = {.noc = 0, .src = (uint16_t)b, .dst = (uint16_t)d, .flags = b_flags,
                            .bytes = 1024, .tag = 2, .cycle = 0};
    cr_assert(noc_inject(n, &q));
    return n;
}

static struct noc *a_and_b(struct log *l, unsigned b_flags, const uint64_t want[4])
{
    struct noc *n = start_a_and_b(l, b_flags);
    drain(n);
    cr_assert_eq(l->n, 2);
    for (unsigned i = 0; i < 2; i++) {
        cr_expect_eq(l->d[i].tag, 2 - i);
        cr_expect_eq(l->d[i].head_cycle, want[2 * i], "%s head at %lu", i ? "A" : "B",
                     (unsigned long)l->d[i].head_cycle);
        cr_expect_eq(l->d[i].tail_cycle, want[2 * i + 1], "%s tail at %lu", i ? "A" : "B",
                     (unsigned long)l->d[i].tail_cycle);
    }
    return n;
}

Test(noc, two_packets_for_one_link_go_one_after_the_other)
{
    /* NoC #0, row 4. B (17 flits) from (2, 4) and A (17 flits) from (1, 4), both to (3, 4), both
     * requested at 0: they share the link (2,4) -> (3,4) and the NIU port of (3, 4).
     * B's header reaches router (2,4) from its NIU at 5 and takes the x output; its flits leave
     * at 5..21. A's header reaches (2,4) from (1,4) at 0 + 5 + 9 = 14 and waits; the output is
     * free the cycle after B's tail left: A's flits leave at 22..38 (its buffer of 16 never
     * runs dry: its 17th flit, held back at (1,4) from 21 until a place frees at 23, arrives at
     * 32). Tails at (3,4)'s NIU: B 21 + 9 + 5 = 35, A 38 + 14 = 52; heads B 19, A 22 + 14 = 36. */
    struct log l = {0};
    const unsigned b = NODE(BH_W, 2, 4), d = NODE(BH_W, 3, 4);
    struct noc *n = a_and_b(&l, 0, (const uint64_t[4]){19, 35, 36, 52});
    /* The shared link carried 34 flits in two packets, held 17 + 17 cycles; A's header waited
     * 14 -> 22. */
    const struct noc_link_stats *s = noc_link_stats(n, 0, b, NOC_LINK_X);
    cr_expect_eq(s->flits, 34);
    cr_expect_eq(s->packets, 2);
    cr_expect_eq(s->busy, 34);
    cr_expect_eq(s->head_wait, 8);
    cr_expect_eq(s->stalled, 0);
    cr_expect_eq(noc_niu_stats(n, 0, d)->received, 2);
    cr_expect_eq(noc_niu_stats(n, 0, d)->flits_received, 34);
    noc_destroy(n);
}

Test(noc, what_waits_for_what)
{
    /* The case above at the end of cycle 15: A's header has waited at (2,4) since 14 for the
     * channel B holds; A's NIU has sent 16 flits (0..15), B's too. */
    struct log l = {0};
    struct noc *n = start_a_and_b(&l, 0);
    noc_advance(n, 15);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    unsigned lines = noc_describe(n, f, 10);
    fclose(f);
    cr_expect_eq(lines, 3, "%s", text);
    cr_expect(strstr(text, "NoC 0 NIU (1,4): 1 queued; request tag 1 from (1,4) to (3,4): flit 17 of 17 "
                           "next\n") != NULL, "%s", text);
    cr_expect(strstr(text, "NoC 0 (2,4) x input, channel 0: request tag 1 from (1,4) to (3,4): its header "
                           "waits for the x output's channel 0, held by the NIU input's channel 0 "
                           "(request tag 2 from (2,4) to (3,4))") != NULL, "%s", text);
    free(text);
    noc_destroy(n);
}

Test(noc, packets_on_different_virtual_channels_share_a_link_flit_by_flit)
{
    /* The previous case with B a response (its own virtual channel class, NoC/README.md
     * "Virtual channels"): RoutingPaths.md "Congestion": packets on different channels are
     * interleaved onto the link. B sends flits 0..8 alone at 5..13; from 14, when A's header
     * takes the x output's other channel, the link alternates (round-robin over the channels,
     * A's first: the allocation looks from the slot after B's): A at 14, 16, ... 28 (flits 0..7),
     * B at 15, 17, ... 29 (flits 9..16), then A alone 30..38. At (3,4)'s NIU 14 cycles later:
     * B head 19, tail 43; A head 28, tail 52. */
    struct log l = {0};
    const unsigned b = NODE(BH_W, 2, 4);
    struct noc *n = a_and_b(&l, NOC_RESPONSE, (const uint64_t[4]){19, 43, 28, 52});
    /* one flit per cycle on the link throughout: busy 5..38 */
    cr_expect_eq(noc_link_stats(n, 0, b, NOC_LINK_X)->flits, 34);
    cr_expect_eq(noc_link_stats(n, 0, b, NOC_LINK_X)->busy, 34);
    noc_destroy(n);
}

Test(noc, headers_arriving_together_are_served_round_robin)
{
    /* A's header (from (1,4), requested at 0) and B's (from (2,4), requested at 9) both reach
     * router (2,4) at 14 and want its x output: the round-robin starts at the NIU input, so B
     * goes at 14 (arrives at (3,4) at 14 + 9 + 5 = 28) and A the cycle after B's only flit left
     * (15: 29). */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    cr_assert(noc_unicast(n, 0, NODE(BH_W, 1, 4), NODE(BH_W, 3, 4), 0, 1, 0));
    cr_assert(noc_unicast(n, 0, NODE(BH_W, 2, 4), NODE(BH_W, 3, 4), 0, 2, 9));
    /* Under steady contention the inputs take turns. C1 and C2 from (7,6) (asked at 1000 and
     * 1001) and D1 and D2 from (8,5) (the same cycles) all go to (8,6): C's headers arrive
     * through its x input at 1014 and 1015, D's through its y input at the same cycles. 1014:
     * x before y (the round-robin's start), C1 goes; 1015: after x comes y, D1; 1016: after y
     * come NIU and x, C2; 1017: D2. Each arrives 5 cycles after it left: 1019, 1020, 1021,
     * 1022. (A fixed priority would have sent C2 before D1.) */
    const unsigned c = NODE(BH_W, 7, 6), d = NODE(BH_W, 8, 5), to = NODE(BH_W, 8, 6);
    cr_assert(noc_unicast(n, 0, c, to, 0, 11, 1000));
    cr_assert(noc_unicast(n, 0, c, to, 0, 12, 1001));
    cr_assert(noc_unicast(n, 0, d, to, 0, 21, 1000));
    cr_assert(noc_unicast(n, 0, d, to, 0, 22, 1001));
    drain(n);
    static const unsigned tag[6] = {2, 1, 11, 21, 12, 22};
    static const uint64_t tail[6] = {28, 29, 1019, 1020, 1021, 1022};
    cr_assert_eq(l.n, 6);
    for (unsigned i = 0; i < 6; i++) {
        cr_expect_eq(l.d[i].tag, tag[i], "delivery %u: tag %u", i, l.d[i].tag);
        cr_expect_eq(l.d[i].tail_cycle, tail[i], "delivery %u: tail %lu", i, (unsigned long)l.d[i].tail_cycle);
    }
    noc_destroy(n);
}

Test(noc, a_shallow_buffer_throttles_a_stream)
{
    /* buffer_flits 4 against the 9-cycle link: the sender at (1,4) may have 4 flits on the link
     * or in (2,4)'s input; a place frees when a flit leaves (2,4) (at once, to its NIU) and is
     * usable a cycle later, so each group of 4 flits waits 9 + 1 = 10 cycles for the one before:
     * flits leave (1,4) at 5..8, 15..18, 25..28, 35..38 and the 17th at 45 (the NIU -> router
     * link, 5 cycles and 4 places, keeps up: it only has to stay 4 flits ahead). Tail at
     * 45 + 9 + 5 = 59 instead of 35; head still at 19. The x link of (1,4) stalled 4 cycles per
     * group after the first (flit 4 at the router from 11 to 15, flit 8 21..25, 12 31..35,
     * 16 41..45). */
    struct log l = {0};
    struct noc_config c = cfg_for(ARCH_BLACKHOLE, &l);
    c.t.buffer_flits = 4;
    struct noc *n = noc_create(&c);
    cr_assert_not_null(n);
    cr_assert(noc_unicast(n, 0, NODE(BH_W, 1, 4), NODE(BH_W, 2, 4), 1024, 1, 0));
    drain(n);
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.d[0].head_cycle, 19);
    cr_expect_eq(l.d[0].tail_cycle, 59);
    cr_expect_eq(noc_link_stats(n, 0, NODE(BH_W, 1, 4), NOC_LINK_X)->stalled, 16);
    cr_expect_eq(noc_link_stats(n, 0, NODE(BH_W, 1, 4), NOC_LINK_X)->busy, 41); /* 5..45 */
    noc_destroy(n);
}

Test(noc, a_full_injection_queue_refuses_a_request)
{
    /* inject_queue 4: a fifth request at cycle 0 is refused. The first (one flit) leaves its NIU
     * in cycle 0, so after cycle 0 there is room again: the fifth, asked for at 1, goes, the
     * last of the five flits to leave (cycles 0..4): tail 4 + 19 = 23. */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    const unsigned s = NODE(BH_W, 1, 4), d = NODE(BH_W, 2, 4);
    for (unsigned i = 0; i < 4; i++)
        cr_assert(noc_unicast(n, 0, s, d, 0, i, 0));
    cr_expect_not(noc_unicast(n, 0, s, d, 0, 4, 0));
    cr_expect_eq(noc_niu_stats(n, 0, s)->rejected, 1);
    /* NoC #1's NIU of the same node has its own queue */
    cr_expect(noc_unicast(n, 1, s, d, 0, 9, 0));
    noc_advance(n, 0);
    cr_expect(noc_unicast(n, 0, s, d, 0, 4, 1));
    drain(n);
    cr_assert_eq(l.n, 6);
    cr_expect_eq(l.d[4].tag, 4);
    cr_expect_eq(l.d[4].tail_cycle, 23);
    /* NoC #1's goes left from x 1 to x 2: 16 hops, 154 */
    cr_expect_eq(l.d[5].tag, 9);
    cr_expect_eq(l.d[5].tail_cycle, 154);
    /* requests waited in the queue before their header left: 0 + 1 + 2 + 3 + 3 (the fifth, 1..4) */
    cr_expect_eq(noc_niu_stats(n, 0, s)->queued, 9);
    /* a request for a cycle already run is the caller's error */
    cr_expect_not(noc_unicast(n, 0, s, d, 0, 5, 0));
    noc_destroy(n);
}

/* A broadcast request */
static bool brcst(struct noc *n, unsigned noc, unsigned src, struct noc_rect r, unsigned flags,
                  uint32_t bytes, uint64_t cycle)
{
    struct noc_request q = {.noc = (uint8_t)noc, .src = (uint16_t)src, .dst_rect = r,
                            .flags = NOC_BRCST | flags, .bytes = bytes, .tag = 77, .cycle = cycle};
    return noc_inject(n, &q);
}

/* Exactly the deliveries of `want` (rows x, y, head, tail, in any order), `base` added to the
 * cycles. */
static void expect_arrivals(const struct log *l, const unsigned want[][4], unsigned nwant, uint64_t base)
{
    cr_expect_eq(l->n, nwant, "%u deliveries, not %u", l->n, nwant);
    for (unsigned i = 0; i < nwant; i++) {
        const struct noc_delivery *d = at(l, NODE(BH_W, want[i][0], want[i][1]));
        cr_expect_eq(d->head_cycle, base + want[i][2], "(%u,%u): head %lu, not %lu", want[i][0],
                     want[i][1], (unsigned long)d->head_cycle, (unsigned long)(base + want[i][2]));
        cr_expect_eq(d->tail_cycle, base + want[i][3], "(%u,%u): tail %lu, not %lu", want[i][0],
                     want[i][1], (unsigned long)d->tail_cycle, (unsigned long)(base + want[i][3]));
    }
}
#define EXPECT_ARRIVALS(l, base, ...)                                                              \
    do {                                                                                           \
        static const unsigned w_[][4] = {__VA_ARGS__};                                             \
        expect_arrivals(l, w_, sizeof w_ / sizeof w_[0], base);                                    \
    } while (0)

Test(noc, a_broadcast_reaches_its_rectangle_down_the_tree)
{
    /* NoC #0, X major (RoutingPaths.md): from (1,2) to x 3..5, y 4..5. Right along row 2 to the
     * rectangle's first column (3), down it to the first wanted row (4), and from there a
     * branch right along each wanted row; each node's header at 0 + 5 + 9 x hops + 5:
     * (3,4) 4 hops 46; (4,4) and (3,5) 5 hops 55; (5,4) and (4,5) 6 hops 64; (5,5) 7 hops 73.
     * Two flits (64 B): tails one cycle later. Delivered by cycle, then node (y * 17 + x). */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    cr_assert(brcst(n, 0, NODE(BH_W, 1, 2), (struct noc_rect){3, 4, 5, 5}, 0, 64, 0));
    drain(n);
    EXPECT_ARRIVALS(&l, 0, {3, 4, 46, 47}, {4, 4, 55, 56}, {3, 5, 55, 56}, {5, 4, 64, 65},
                    {4, 5, 64, 65}, {5, 5, 73, 74});
    static const unsigned order[6][2] = {{3, 4}, {4, 4}, {3, 5}, {5, 4}, {4, 5}, {5, 5}};
    for (unsigned i = 0; i < 6; i++)
        cr_expect_eq(l.d[i].dst, NODE(BH_W, order[i][0], order[i][1]), "delivery %u", i);
    /* The trunk's fork at (3,4) sent each flit down, right and to the NIU at once. */
    cr_expect_eq(noc_link_stats(n, 0, NODE(BH_W, 3, 4), NOC_LINK_X)->flits, 2);
    cr_expect_eq(noc_link_stats(n, 0, NODE(BH_W, 3, 4), NOC_LINK_Y)->flits, 2);
    cr_expect_eq(noc_link_stats(n, 0, NODE(BH_W, 3, 5), NOC_LINK_Y)->flits, 0);
    noc_destroy(n);
}

Test(noc, a_broadcast_from_inside_goes_round_the_ring)
{
    /* NoC #0 from (4,3) to x 3..5, y 3..4: the source is inside, so its column is the trunk.
     * Row 3 branches right from (4,3): (5,3) 1 hop 19, then on round the ring through the
     * columns outside to (3,3), 16 hops: 154. The trunk goes down to (4,4) (19) and its branch
     * right: (5,4) 28, round to (3,4) 17 hops 163. The source takes no copy unless asked
     * (NOC_CMD_BRCST_SRC_INCLUDE): then it gets one through its own router, 5 + 5. */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    const struct noc_rect r = {3, 3, 5, 4};
    cr_assert(brcst(n, 0, NODE(BH_W, 4, 3), r, 0, 0, 0));
    drain(n);
#define FROM_INSIDE {5, 3, 19, 19}, {4, 4, 19, 19}, {5, 4, 28, 28}, {3, 3, 154, 154}, {3, 4, 163, 163}
    EXPECT_ARRIVALS(&l, 0, FROM_INSIDE);

    l.n = 0;
    cr_assert(brcst(n, 0, NODE(BH_W, 4, 3), r, NOC_BRCST_SRC_INCLUDE, 0, 1000));
    drain(n);
    EXPECT_ARRIVALS(&l, 1000, FROM_INSIDE, {4, 3, 10, 10});

    /* Excluding column 5 (NOC_BRCST_EXCLUDE): the packet still passes there, the others' cycles
     * do not change. */
    l.n = 0;
    struct noc_request q = {.noc = 0, .src = (uint16_t)NODE(BH_W, 4, 3), .dst_rect = r,
                            .exclude = {5, 0, 5, 11}, .flags = NOC_BRCST | NOC_BRCST_EXCLUDE,
                            .cycle = 2000};
    cr_assert(noc_inject(n, &q));
    drain(n);
    EXPECT_ARRIVALS(&l, 2000, {4, 4, 19, 19}, {3, 3, 154, 154}, {3, 4, 163, 163});

    /* A node that opts out (a non-Tensix tile) is passed through the same way. */
    l.n = 0;
    cr_assert(noc_set_broadcast_sink(n, NODE(BH_W, 3, 3), false)); /* nothing in flight */
    cr_assert(brcst(n, 0, NODE(BH_W, 4, 3), r, 0, 0, 3000));
    drain(n);
    cr_expect_eq(l.n, 4);
    noc_destroy(n);
}

Test(noc, a_y_major_broadcast_on_noc1)
{
    /* NoC #1 goes up and left, so the rectangle x 1..2, y 2..3 starts (in its direction of
     * travel) at row 3 and column 2. Y major (NOC_CMD_BRCST_XY), from (5,5): up to row 3
     * (2 hops), left along it as the trunk, branching up at each wanted column: (2,3) 5 hops
     * 55, (2,2) and (1,3) 6 hops 64, (1,2) 7 hops 73. */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    cr_assert(brcst(n, 1, NODE(BH_W, 5, 5), (struct noc_rect){1, 2, 2, 3}, NOC_BRCST_Y_MAJOR, 0, 0));
    drain(n);
    EXPECT_ARRIVALS(&l, 0, {2, 3, 55, 55}, {2, 2, 64, 64}, {1, 3, 64, 64}, {1, 2, 73, 73});
    /* the trunk ran along row 3: (4,3) sent left, nothing went up from (4,3) */
    cr_expect_eq(noc_link_stats(n, 1, NODE(BH_W, 4, 3), NOC_LINK_X)->flits, 1);
    cr_expect_eq(noc_link_stats(n, 1, NODE(BH_W, 4, 3), NOC_LINK_Y)->flits, 0);
    noc_destroy(n);
}

Test(noc, a_broadcast_that_reserves_its_path_waits_for_the_whole_tree)
{
    /* Two broadcasts to the single node (3,4): A (17 flits) from (1,4) at 0, B (one flit) from
     * (2,4) at 1. A's tree is (1,4) -> (2,4) -> (3,4) -> NIU; its flits leave (1,4) at 5..21,
     * (2,4) at 14..30 and (3,4) for the NIU at 23..39: head 28, tail 44.
     * Without reservations B's header reaches (2,4) at 6, before A's (14), and goes: 6 + 9 + 5
     * = 20. With NOC_BRCST_PATH_RESERVE, a reservation is made by the header's first router
     * when the header is there (RoutingPaths.md): A's at (1,4) at 5, so A's tree is its own
     * from 5; B's header reaches (2,4) at 6, and B's tree, which shares (2,4)'s x output and
     * (3,4)'s NIU output, is free only once A's tail has left (3,4) (39): B's router reserves
     * it at 40 (reading 39's end), B's header leaves (2,4) at 40 and arrives at 40 + 9 + 5 =
     * 54. (When the NIU made the reservation B left its NIU only at 40 and arrived at 59.) */
    for (unsigned reserve = 0; reserve < 2; reserve++) {
        struct log l = {0};
        struct noc *n = make(ARCH_BLACKHOLE, &l);
        const unsigned f = reserve ? NOC_BRCST_PATH_RESERVE : 0;
        cr_assert(brcst(n, 0, NODE(BH_W, 1, 4), (struct noc_rect){3, 4, 3, 4}, f, 1024, 0));
        cr_assert(brcst(n, 0, NODE(BH_W, 2, 4), (struct noc_rect){3, 4, 3, 4}, f, 0, 1));
        if (reserve) { /* at 20 B's header waits at its first router, (2,4) */
            noc_advance(n, 20);
            char *text = NULL;
            size_t len = 0;
            FILE *fp = open_memstream(&text, &len);
            cr_assert_not_null(fp);
            noc_describe(n, fp, 10);
            fclose(fp);
            cr_expect(strstr(text, "NoC 0 (2,4) NIU input, channel 2: broadcast tag 77 from (2,4) to x 3..3 y 4..4: "
                                   "its header waits for its whole path\n") != NULL, "%s", text);
            free(text);
        }
        drain(n);
        cr_assert_eq(l.n, 2);
        /* B's header waited at (2,4) from 6 to 40 (a header's wait for its grant) and not in its
         * NIU's queue */
        cr_expect_eq(noc_link_stats(n, 0, NODE(BH_W, 2, 4), NOC_LINK_X)->head_wait, reserve ? 34 : 0);
        cr_expect_eq(noc_niu_stats(n, 0, NODE(BH_W, 2, 4))->queued, 0);
        const struct noc_delivery *a = l.d[0].src == NODE(BH_W, 1, 4) ? &l.d[0] : &l.d[1];
        const struct noc_delivery *b = a == &l.d[0] ? &l.d[1] : &l.d[0];
        cr_expect_eq(a->head_cycle, 28);
        cr_expect_eq(a->tail_cycle, 44);
        cr_expect_eq(b->tail_cycle, reserve ? 54 : 20, "reserve %u: B at %lu", reserve,
                     (unsigned long)b->tail_cycle);
        noc_destroy(n);
    }
}

/* X, a one-flit broadcast from `xsrc` to (3,4) at cycle `xc` without reservation, and R, a
 * one-flit broadcast from `rsrc` to (3,4) asked for at `rc` with `rflags`: their tails */
static void x_and_r_from(unsigned xsrc, uint64_t xc, unsigned rsrc, unsigned rflags, uint64_t rc, uint64_t *x,
                         uint64_t *r)
{
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    const struct noc_rect to = {3, 4, 3, 4};
    cr_assert(brcst(n, 0, xsrc, to, 0, 0, xc));
    cr_assert(brcst(n, 0, rsrc, to, rflags, 0, rc));
    drain(n);
    cr_assert_eq(l.n, 2, "R at %lu: %u deliveries", (unsigned long)rc, l.n);
    const bool x_first = l.d[0].src == xsrc;
    *x = l.d[x_first ? 0 : 1].tail_cycle;
    *r = l.d[x_first ? 1 : 0].tail_cycle;
    noc_destroy(n);
}

/* X from (1,4) at 0 */
static void x_and_r(unsigned rsrc, unsigned rflags, uint64_t rc, uint64_t *x, uint64_t *r)
{
    x_and_r_from(NODE(BH_W, 1, 4), 0, rsrc, rflags, rc, x, r);
}

Test(noc, a_reservation_waits_for_flits_still_on_its_links)
{
    /* A packet lets go of a router's output when its tail leaves the router, not when the tail
     * has crossed the link (BH NoC/README.md "Virtual channels" releases the number "once a
     * packet has fully traversed the link"), so a path reservation also wants the buffers its
     * channels feed empty of other packets: else it could take the next router's output before
     * a packet already on the link, whose header would then wait for R at the front of the buffer
     * R's header waits in behind it, for ever (the reviewer's d1).
     * X (no reservation) leaves (1,4)'s NIU at 0, reaches (1,4) at 5, (2,4) at 14, (3,4) at 23
     * and its NIU at 28; it is on the link into (3,4)'s x input (channel 2, broadcasts) from
     * 14 until it leaves that buffer at 23. R (reserving, from (2,4), asked for at rc) reaches
     * router (2,4) at rc + 5, which then reserves (2,4)'s x output and (3,4)'s NIU output,
     * reading the previous cycle's end:
     *  - rc 9: at 14 it finds X not yet at (2,4)'s output and nothing on the link: R's tree is
     *    its own from 14, and R's header leaves (2,4) at 14 while X's, there at 14 too, waits:
     *    X gets the output at 15 (the release is registered), reaches (3,4) at 24 and its NIU
     *    at 29; R reaches (3,4) at 23 and its NIU at 28;
     *  - rc 10..18: at 15..23 X is on the link or in the buffer R's x output feeds: R waits at
     *    (2,4) until X has left (3,4)'s x input at 23, reserves at 24 (the cycle after, as it
     *    reads 23's end) and arrives at 24 + 9 + 5 = 38; X is alone: 28;
     *  - rc 19, 20: R reserves at 24, 25 and arrives at 38, 39, X at 28. Before this rule R
     *    reserved while X was on the link and both stopped. */
    static const struct {
        uint64_t rc, x, r;
    } want[] = {{9, 29, 28}, {10, 28, 38}, {14, 28, 38}, {18, 28, 38}, {19, 28, 38}, {20, 28, 39}};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        uint64_t x, r;
        x_and_r(NODE(BH_W, 2, 4), NOC_BRCST_PATH_RESERVE, want[i].rc, &x, &r);
        cr_expect_eq(x, want[i].x, "R at %lu: X at %lu", (unsigned long)want[i].rc, (unsigned long)x);
        cr_expect_eq(r, want[i].r, "R at %lu: R at %lu", (unsigned long)want[i].rc, (unsigned long)r);
    }
    /* Without the reservation R (a broadcast of its own class) goes as it comes: at 20 it
     * leaves its NIU at 20, is at (2,4) at 25 after X has gone (14), (3,4) at 34, NIU at 39. */
    uint64_t x, r;
    x_and_r(NODE(BH_W, 2, 4), 0, 20, &x, &r);
    cr_expect_eq(x, 28);
    cr_expect_eq(r, 39);
}

Test(noc, a_reservation_changes_no_delivery_before_10_cycles_after_its_request)
{
    /* A reservation is made by the header's first router when the header gets there
     * (RoutingPaths.md: the routers reserve and inform the initiating tile), niu_to_router = 5
     * after the request at the earliest, and then takes every channel of its tree in that
     * cycle, the farthest too (mem/noc.h). X, a broadcast from (3,3) at 9, goes down to
     * (3,4)'s router at 23 and would reach its NIU at 28. R, a reserving broadcast from (2,4)
     * to (3,4) asked for at 18, is at (2,4) at 23, whose reservation (reading 22's end) takes
     * (3,4)'s NIU output before X's header is granted it: X waits there for R's header, which
     * leaves (2,4) at 23, reaches (3,4) at 32 and leaves it at 32 (NIU at 37); X gets the
     * output at 33 and arrives at 38. A request at h = 18 moved a delivery due at h + 10 = 28.
     * Asked for at 19, R reserves at 24, after X's header took the output at 23 and let go of
     * it: X at 28, R at 24 + 9 + 5 = 38. (When the NIU reserved the tree at the request's cycle,
     * a request at h could move a delivery at h + 5.) */
    uint64_t x, r;
    x_and_r_from(NODE(BH_W, 3, 3), 9, NODE(BH_W, 2, 4), NOC_BRCST_PATH_RESERVE, 18, &x, &r);
    cr_expect_eq(r, 37);
    cr_expect_eq(x, 38);
    x_and_r_from(NODE(BH_W, 3, 3), 9, NODE(BH_W, 2, 4), NOC_BRCST_PATH_RESERVE, 19, &x, &r);
    cr_expect_eq(r, 38);
    cr_expect_eq(x, 28);
    /* From (3,4) itself to its own NIU (NOC_BRCST_SRC_INCLUDE), asked for at 18: the router
     * reserves its NIU output at 23, X (from (1,4) at 0, at (3,4) at 23) waits a cycle: R at
     * 28, X at 29, again h + 10 and no sooner. */
    x_and_r(NODE(BH_W, 3, 4), NOC_BRCST_PATH_RESERVE | NOC_BRCST_SRC_INCLUDE, 18, &x, &r);
    cr_expect_eq(r, 28);
    cr_expect_eq(x, 29);
}

/* Random traffic without reservations (unicast requests, responses and broadcasts, which may
 * stop each other for ever: only the deliveries that happen are compared), every request of
 * cycles h and later left out when `cut` (window_run): the deliveries in their canonical order */
struct dlist {
    struct noc_delivery d[20000];
    unsigned n;
};

static void dlist_add(void *ctx, const struct noc_delivery *d)
{
    struct dlist *l = ctx;
    cr_assert_lt(l->n, 20000);
    l->d[l->n++] = *d;
}

/* Random traffic on BH for `cycles` cycles (each NIU asks with probability 1/24 a cycle: a
 * broadcast to a random rectangle in four, half of them reserving their paths when
 * `reserve_half`, else unicast requests and responses; 0..1023 bytes), tagged in order, the
 * requests of cycles `cut` and later drawn but left out; the model advanced to each cycle in
 * turn. Returns the reserving broadcasts asked for. */
static unsigned random_traffic(struct noc *n, uint32_t seed0, uint64_t cycles, bool reserve_half, uint64_t cut)
{
    const unsigned nodes = BH_W * 12;
    unsigned reserving = 0;
    uint32_t tag = 0;
    for (uint64_t t = 0; t < cycles; t++) {
        uint32_t seed = seed0 ^ (uint32_t)t * 2654435761u;
        for (unsigned k = 0; k < 2; k++)
            for (unsigned s = 0; s < nodes; s++) {
                if (lcg(&seed) % 24)
                    continue;
                struct noc_request r = {.noc = (uint8_t)k, .src = (uint16_t)s, .cycle = t,
                                        .bytes = lcg(&seed) % 1024, .tag = tag++};
                if (lcg(&seed) % 4 == 0) {
                    const bool reserve = reserve_half && lcg(&seed) % 2;
                    reserving += reserve && t < cut;
                    r.flags = NOC_BRCST | (reserve ? NOC_BRCST_PATH_RESERVE : 0);
                    r.dst_rect = (struct noc_rect){(uint8_t)(lcg(&seed) % BH_W), (uint8_t)(lcg(&seed) % 12),
                                                   (uint8_t)(lcg(&seed) % BH_W), (uint8_t)(lcg(&seed) % 12)};
                } else {
                    r.dst = (uint16_t)(lcg(&seed) % nodes);
                    r.flags = lcg(&seed) % 2 ? NOC_RESPONSE : 0;
                }
                if (t < cut)
                    noc_inject(n, &r);
            }
        noc_advance(n, t);
    }
    return reserving;
}

static void window_run(struct dlist *l, uint32_t seed0, uint64_t h, bool cut)
{
    struct noc_config c = noc_config_for(ARCH_BLACKHOLE);
    c.deliver = dlist_add;
    c.ctx = l;
    struct noc *n = noc_create(&c);
    cr_assert_not_null(n);
    l->n = 0;
    random_traffic(n, seed0, 140, false, cut ? h : NOC_NEVER);
    noc_advance(n, NOC_NEVER);
    noc_destroy(n);
}

Test(noc, without_reservations_a_request_changes_nothing_delivered_within_10_cycles)
{
    /* A request's first flit reaches its router niu_to_router = 5 cycles after it is asked for
     * at the earliest; what it then delays (a header it wins a channel from, a flit it takes a
     * link or a buffer place from) is at least router_to_niu = 5 from any NIU. So requests at h
     * and later leave every delivery before h + 10 as it was (mem/noc.h; the reviewer's d5): the
     * same traffic run whole and without its requests from h on delivers the same packets at
     * the same cycles in the same order up to h + 9. */
    static struct dlist whole, part;
    unsigned compared = 0, near = 0;
    for (uint32_t seed = 1; seed <= 2; seed++)
        for (uint64_t h = 30; h <= 120; h += 45) {
            window_run(&whole, seed, h, false);
            window_run(&part, seed, h, true);
            unsigned i = 0;
            for (; i < whole.n && whole.d[i].tail_cycle < h + 10; i++) {
                cr_assert_lt(i, part.n, "seed %u h %lu: delivery %u missing", seed, (unsigned long)h, i);
                const struct noc_delivery *a = &whole.d[i], *b = &part.d[i];
                cr_assert(a->tag == b->tag && a->dst == b->dst && a->noc == b->noc &&
                              a->head_cycle == b->head_cycle && a->tail_cycle == b->tail_cycle,
                          "seed %u h %lu: delivery %u (tag %u at %lu) differs (tag %u at %lu)", seed,
                          (unsigned long)h, i, a->tag, (unsigned long)a->tail_cycle, b->tag,
                          (unsigned long)b->tail_cycle);
                near += a->tail_cycle >= h;
            }
            cr_assert(i == part.n || part.d[i].tail_cycle >= h + 10, "seed %u h %lu: an extra delivery",
                      seed, (unsigned long)h);
            compared += i;
        }
    cr_expect_gt(near, 60, "only %u deliveries in the windows [h, h + 10)", near);
    cr_expect_gt(compared, 300, "only %u deliveries compared", compared);
}

Test(noc, requests_and_settings_the_model_cannot_take_are_refused)
{
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    /* NOC_CMD_PATH_RESERVE is a broadcast's (BH MemoryMap.md NOC_CTRL): a unicast carrying it
     * could reserve an output ahead of a packet already on the link (the reviewer's d4) */
    struct noc_request q = {.noc = 0, .src = (uint16_t)NODE(BH_W, 2, 4), .dst = (uint16_t)NODE(BH_W, 3, 4),
                            .flags = NOC_BRCST_PATH_RESERVE, .cycle = 0};
    cr_expect_not(noc_inject(n, &q));
    /* the NoC number is checked before it is narrowed (256 is not NoC 0) */
    cr_expect_not(noc_unicast(n, 256, NODE(BH_W, 1, 4), NODE(BH_W, 2, 4), 0, 1, 0));
    cr_expect_not(noc_unicast(n, 2, NODE(BH_W, 1, 4), NODE(BH_W, 2, 4), 0, 1, 0));
    /* a node's broadcast sink changes only while nothing is in flight: a reserving broadcast's
     * tree was taken for the sinks of its request (the reviewer's d6 left (3,4)'s NIU output
     * reserved for ever) */
    cr_assert(brcst(n, 0, NODE(BH_W, 1, 4), (struct noc_rect){3, 4, 3, 4}, NOC_BRCST_PATH_RESERVE, 0, 0));
    noc_advance(n, 1);
    cr_expect_not(noc_set_broadcast_sink(n, NODE(BH_W, 3, 4), false));
    drain(n);
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.d[0].tail_cycle, 28); /* 5 + 9 + 9 + 5: (3,4) still took it */
    cr_expect(noc_set_broadcast_sink(n, NODE(BH_W, 3, 4), false));
    cr_expect_not(noc_set_broadcast_sink(n, 17 * 12, false));
    cr_expect(noc_set_broadcast_sink(n, NODE(BH_W, 3, 4), true));
    l.n = 0;
    cr_assert(brcst(n, 0, NODE(BH_W, 2, 4), (struct noc_rect){3, 4, 3, 4}, 0, 0, 1000));
    drain(n);
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.d[0].tail_cycle, 1019);
    noc_destroy(n);
}

Test(noc, advancing_to_never_runs_what_can_happen_and_stops)
{
    /* NOC_NEVER is no cycle (the reviewer's d3 never returned): one flit from (1,4) to (2,4)
     * at 0 arrives at 5 + 9 + 5 = 19, and the model is then past every cycle */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    cr_assert(noc_unicast(n, 0, NODE(BH_W, 1, 4), NODE(BH_W, 2, 4), 0, 1, 0));
    noc_advance(n, NOC_NEVER);
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.d[0].tail_cycle, 19);
    cr_expect_eq(noc_now(n), NOC_NEVER);
    cr_expect_eq(noc_next_event(n), NOC_NEVER);
    cr_expect_eq(noc_in_flight(n), 0);
    noc_destroy(n);
}

Test(noc, random_broadcasts_with_and_without_reservations_never_wait_for_a_reservation_for_ever)
{
    /* Random traffic in which half the broadcasts reserve their paths: those that do not can
     * stop each other for ever (BH NoC/README.md leaves their deadlock freedom to software), but
     * a reservation is made only when its header will wait behind no other packet, so once made
     * its packet goes through and its channels are let go. When everything that can move has,
     * no header waits for a reserved channel (noc_describe says "reserved by"); before the fix
     * the reviewer's d1 happened here too (14 and 22 such headers in these two runs). */
    for (uint32_t seed0 = 1; seed0 <= 2; seed0++) {
        struct noc_config c = noc_config_for(ARCH_BLACKHOLE);
        struct noc *n = noc_create(&c);
        cr_assert_not_null(n);
        const unsigned reserving = random_traffic(n, seed0, 300, true, NOC_NEVER);
        noc_advance(n, NOC_NEVER);
        cr_expect_gt(reserving, 100);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        cr_assert_not_null(f);
        noc_describe(n, f, 100000);
        fclose(f);
        cr_expect_null(strstr(text, "reserved by"), "seed %u: a header waits for a reservation:\n%.600s",
                       seed0, text);
        free(text);
        noc_destroy(n);
    }
}

/* A busy mix: several NIUs to one node on both NoCs, a broadcast through them, long packets. */
struct req {
    unsigned noc, sx, sy, dx, dy;
    uint32_t bytes;
    uint64_t cycle;
};
static const struct req mix[] = {
    {0, 1, 4, 6, 4, 2048, 10}, {0, 2, 4, 6, 4, 512, 10}, {0, 3, 3, 6, 4, 1024, 10},
    {0, 6, 1, 6, 4, 4096, 10}, {1, 9, 4, 6, 4, 1024, 10}, {1, 6, 7, 6, 4, 300, 10},
    {0, 16, 4, 6, 4, 64, 12},  {1, 6, 4, 2, 4, 8192, 12}, {0, 5, 5, 1, 1, 700, 12},
};

static void run_mix(struct log *l, bool reverse, bool late)
{
    struct noc *n = make(ARCH_BLACKHOLE, l);
    const unsigned k = sizeof mix / sizeof mix[0];
    for (uint64_t c = 10; c <= 12; c++) {
        if (late && c > 0)
            noc_advance(n, c - 1);
        for (unsigned j = 0; j < k; j++) {
            const struct req *q = &mix[reverse ? k - 1 - j : j];
            if (q->cycle == c)
                cr_assert(noc_unicast(n, q->noc, NODE(BH_W, q->sx, q->sy), NODE(BH_W, q->dx, q->dy),
                                      q->bytes, (unsigned)(q - mix), c));
        }
        if (c == 11)
            cr_assert(brcst(n, 0, NODE(BH_W, 4, 4), (struct noc_rect){5, 3, 7, 5}, 0, 1024, 11));
    }
    drain(n);
    noc_destroy(n);
}

/* Every field alike (not memcmp: the padding between them is anything) */
static bool same_delivery(const struct noc_delivery *a, const struct noc_delivery *b)
{
    return a->head_cycle == b->head_cycle && a->tail_cycle == b->tail_cycle &&
           a->inject_cycle == b->inject_cycle && a->tag == b->tag && a->bytes == b->bytes &&
           a->seq == b->seq && a->src == b->src && a->dst == b->dst && a->noc == b->noc &&
           a->broadcast == b->broadcast;
}

Test(noc, deliveries_do_not_depend_on_the_order_of_requests_within_a_cycle)
{
    /* The same requests asked for in opposite orders within each cycle, all at once or each
     * just before its cycle: the same deliveries in the same order (tail cycle, node, NoC). */
    static struct log a, b, c;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b), memset(&c, 0, sizeof c);
    run_mix(&a, false, false);
    run_mix(&b, true, false);
    run_mix(&c, true, true);
    cr_assert_eq(a.n, 9 + 9);
    cr_assert_eq(b.n, a.n);
    cr_assert_eq(c.n, a.n);
    for (unsigned i = 0; i < a.n; i++) {
        cr_expect(same_delivery(&a.d[i], &b.d[i]), "delivery %u", i);
        cr_expect(same_delivery(&b.d[i], &c.d[i]), "delivery %u", i);
        if (i) {
            const struct noc_delivery *p = &a.d[i - 1], *q = &a.d[i];
            cr_expect(p->tail_cycle < q->tail_cycle ||
                          (p->tail_cycle == q->tail_cycle &&
                           (p->dst < q->dst || (p->dst == q->dst && p->noc < q->noc))),
                      "deliveries %u and %u out of order", i - 1, i);
        }
    }
}

Test(noc, idle_time_costs_nothing)
{
    /* A request far in the future: the model's next event is that cycle, and advancing to it
     * runs only the cycles in which flits move (a loop over 10^12 cycles would not finish). */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    cr_expect_eq(noc_next_event(n), NOC_NEVER);
    const uint64_t t = 1000000000000ull;
    cr_assert(noc_unicast(n, 0, NODE(BH_W, 3, 4), NODE(BH_W, 4, 4), 0, 1, t));
    cr_expect_eq(noc_next_event(n), t);
    /* a flit travelling and nothing waiting: the next step is its arrival (5 cycles on), not
     * the next cycle (the reviewer's d2) */
    noc_advance(n, t);
    cr_expect_eq(noc_next_event(n), t + 5);
    noc_advance(n, t + 10);
    cr_expect_eq(l.n, 0);
    cr_expect_eq(noc_now(n), t + 11);
    cr_expect_eq(noc_next_event(n), t + 14); /* the header reaches the next router */
    noc_advance(n, 2 * t);
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.d[0].tail_cycle, t + 19);
    cr_expect_eq(noc_next_event(n), NOC_NEVER);
    cr_expect_eq(noc_in_flight(n), 0);
    noc_destroy(n);
}

Test(noc, configurations_out_of_range_are_refused)
{
    struct noc_config c = noc_config_for(ARCH_BLACKHOLE);
    cr_expect_eq(c.width, 17);
    cr_expect_eq(c.height, 12);
    cr_expect_eq(c.t.flit_bytes, 64);
    cr_expect_eq(noc_config_for(ARCH_WORMHOLE).width, 10);
    cr_expect_eq(noc_config_for(ARCH_WORMHOLE).t.flit_bytes, 32);
    c.t.router_to_router = 0;
    cr_expect_null(noc_create(&c));
    c = noc_config_for(ARCH_BLACKHOLE);
    c.width = 0;
    cr_expect_null(noc_create(&c));
    /* more than 256 data flits is not one packet (the NIU splits larger transfers) */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    cr_expect(noc_unicast(n, 0, 0, 1, 16384, 0, 0));
    cr_expect_not(noc_unicast(n, 0, 0, 1, 16385, 0, 0));
    cr_expect_not(noc_unicast(n, 0, 0, 17 * 12, 0, 0, 0));
    noc_destroy(n);
}

/* Random traffic, deterministic: what it checks holds for any traffic. */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* hops along one axis from a to b on NoC `noc` */
static unsigned ring_steps(unsigned noc, unsigned a, unsigned b, unsigned n)
{
    return noc ? (a + n - b) % n : (b + n - a) % n;
}

/* 200 cycles of requests (each NIU asks with probability 1/64 a cycle: unicast requests and
 * responses of 0..2047 bytes, a reserved broadcast in eight) */
static void stress_run(struct log *l, bool reverse, uint64_t *flits)
{
    struct noc *n = make(ARCH_BLACKHOLE, l);
    const unsigned nodes = BH_W * 12;
    *flits = 0;
    for (uint64_t t = 0; t < 200; t++) {
        /* the cycle's requests, drawn in a fixed order, then asked for in either order */
        struct noc_request q[2 * 204];
        unsigned nq = 0;
        uint32_t seed = (uint32_t)t * 2654435761u;
        for (unsigned k = 0; k < 2; k++)
            for (unsigned s = 0; s < nodes; s++) {
                if (lcg(&seed) % 64)
                    continue;
                struct noc_request r = {.noc = (uint8_t)k, .src = (uint16_t)s, .cycle = t,
                                        .bytes = lcg(&seed) % 2048, .tag = (uint32_t)t};
                if (lcg(&seed) % 8 == 0) {
                    r.flags = NOC_BRCST | NOC_BRCST_PATH_RESERVE | (lcg(&seed) % 2 ? NOC_BRCST_Y_MAJOR : 0);
                    r.dst_rect = (struct noc_rect){(uint8_t)(lcg(&seed) % BH_W), (uint8_t)(lcg(&seed) % 12),
                                                   (uint8_t)(lcg(&seed) % BH_W), (uint8_t)(lcg(&seed) % 12)};
                } else {
                    r.dst = (uint16_t)(lcg(&seed) % nodes);
                    r.flags = lcg(&seed) % 2 ? NOC_RESPONSE : 0;
                }
                q[nq++] = r;
            }
        for (unsigned i = 0; i < nq; i++)
            noc_inject(n, &q[reverse ? nq - 1 - i : i]); /* a full queue refuses in both orders */
        noc_advance(n, t);
    }
    drain(n);
    for (unsigned k = 0; k < 2; k++)
        for (unsigned s = 0; s < nodes; s++)
            *flits += noc_niu_stats(n, k, s)->flits_received;
    noc_destroy(n);
}

Test(noc, random_traffic_all_arrives_no_sooner_than_alone_and_the_same_in_any_call_order)
{
    static struct log a, b;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
    uint64_t fa, fb;
    a.keep_last = b.keep_last = true;
    stress_run(&a, false, &fa);
    stress_run(&b, true, &fb);
    cr_expect_eq(a.total, b.total);
    cr_expect_eq(a.hash, b.hash, "deliveries differ with the order of the calls");
    cr_expect_eq(fa, fb);
    cr_expect_gt(a.total, 500, "only %lu deliveries", (unsigned long)a.total);
    cr_expect_eq(a.too_soon, 0, "%lu unicast deliveries faster than alone", (unsigned long)a.too_soon);
    cr_expect_eq(a.out_of_order, 0);
}

/* The broadcast trees against a second statement of RoutingPaths.md's rule, written as one walk
 * from the source (as the pages' figures are drawn) where noc_route.c decides router by
 * router: for random rectangles, sources, NoCs and major axes on both grids, the same links
 * carry the packet, the same nodes take it, each 10 + 9 x (links from the source) cycles after
 * it was asked for. */
struct walk {
    unsigned w, h, noc;
    bool used[2][64 * 64]; /* links along x, y taken from each node */
    int arrive[64 * 64];   /* hops to each receiver, -1: none */
};

static unsigned step_on(unsigned noc, unsigned v, unsigned n)
{
    return noc ? (v + n - 1) % n : (v + 1) % n;
}

/* lines lo..hi (wrapping) of a ring of n, listed from the first met in the direction of travel */
static unsigned lines(unsigned noc, unsigned lo, unsigned hi, unsigned n, bool want[64])
{
    unsigned first = noc ? hi : lo, last = noc ? lo : hi, count = 1;
    memset(want, 0, 64);
    for (unsigned v = first; v != last; v = step_on(noc, v, n))
        want[v] = true, count++;
    want[last] = true;
    return count;
}

static void walk_tree(struct walk *k, unsigned sx, unsigned sy, struct noc_rect r, bool y_major)
{
    const unsigned n[2] = {k->w, k->h}, a = y_major, b = !y_major;
    bool want[2][64];
    unsigned count[2] = {lines(k->noc, r.x0, r.x1, k->w, want[0]), lines(k->noc, r.y0, r.y1, k->h, want[1])};
    unsigned c[2] = {sx, sy}, hops = 0;
    memset(k->used, 0, sizeof k->used);
    for (unsigned i = 0; i < 64 * 64; i++)
        k->arrive[i] = -1;
#define AT(c) ((c)[1] * k->w + (c)[0])
    /* along the major axis to the rectangle, unless the source is in its lines already */
    if (!want[a][c[a]])
        while (!want[a][c[a]])
            k->used[a][AT(c)] = true, c[a] = step_on(k->noc, c[a], n[a]), hops++;
    /* down the minor axis, a branch along the major one at each wanted line */
    for (unsigned rows = count[b];;) {
        if (want[b][c[b]]) {
            unsigned d[2] = {c[0], c[1]}, h = hops;
            for (unsigned left = count[a];;) {
                if (want[a][d[a]]) {
                    k->arrive[AT(d)] = (int)h;
                    if (--left == 0)
                        break;
                }
                k->used[a][AT(d)] = true, d[a] = step_on(k->noc, d[a], n[a]), h++;
            }
            if (--rows == 0)
                break;
        }
        k->used[b][AT(c)] = true, c[b] = step_on(k->noc, c[b], n[b]), hops++;
    }
#undef AT
}

Test(noc, broadcast_trees_match_a_walk_of_the_rule)
{
    static struct walk k;
    static struct log l;
    uint32_t seed = 12345;
    for (unsigned arch = 0; arch < 2; arch++) {
        memset(&l, 0, sizeof l);
        struct noc *n = make(arch ? ARCH_WORMHOLE : ARCH_BLACKHOLE, &l);
        const struct noc_config c = noc_config_for(arch ? ARCH_WORMHOLE : ARCH_BLACKHOLE);
        k.w = c.width, k.h = c.height;
        uint64_t before[2][2][17 * 12] = {{{0}}};
        for (unsigned i = 0; i < 200; i++) {
            k.noc = lcg(&seed) % 2;
            const bool y_major = lcg(&seed) % 2;
            const unsigned sx = lcg(&seed) % k.w, sy = lcg(&seed) % k.h;
            struct noc_rect r = {(uint8_t)(lcg(&seed) % k.w), (uint8_t)(lcg(&seed) % k.h),
                                 (uint8_t)(lcg(&seed) % k.w), (uint8_t)(lcg(&seed) % k.h)};
            walk_tree(&k, sx, sy, r, y_major);
            k.arrive[sy * k.w + sx] = -1; /* the source takes none */
            const uint64_t t0 = 1000 * (i + 1);
            l.n = 0;
            cr_assert(brcst(n, k.noc, sy * k.w + sx, r, y_major ? NOC_BRCST_Y_MAJOR : 0, 0, t0));
            drain(n);
            unsigned receivers = 0;
            for (unsigned node = 0; node < k.w * k.h; node++) {
                for (unsigned ax = 0; ax < 2; ax++) {
                    uint64_t f = noc_link_stats(n, k.noc, node, ax ? NOC_LINK_Y : NOC_LINK_X)->flits;
                    cr_expect_eq(f - before[k.noc][ax][node], k.used[ax][node],
                                 "case %u: NoC %u from (%u,%u) to %u..%u x %u..%u%s: link %s of (%u,%u)",
                                 i, k.noc, sx, sy, r.x0, r.x1, r.y0, r.y1, y_major ? " Y major" : "",
                                 ax ? "y" : "x", node % k.w, node / k.w);
                    before[k.noc][ax][node] = f;
                }
                if (k.arrive[node] >= 0) {
                    const struct noc_delivery *d = at(&l, node);
                    cr_expect_eq(d->tail_cycle, t0 + 10 + 9 * (unsigned)k.arrive[node], "case %u: node (%u,%u)",
                                 i, node % k.w, node / k.w);
                    receivers++;
                }
            }
            cr_expect_eq(l.n, receivers, "case %u: %u deliveries, the walk has %u", i, l.n, receivers);
        }
        noc_destroy(n);
    }
}

/* ---- a coordinator's windows: backdated requests, early reports ----------------------------- */

/* Every statistic of every link and NIU of both NoCs alike (all uint64_t: no padding) */
static void expect_same_stats(const struct noc *a, const struct noc *b, unsigned nodes, const char *what)
{
    for (unsigned k = 0; k < 2; k++)
        for (unsigned i = 0; i < nodes; i++) {
            for (unsigned j = 0; j < NOC_LINKS; j++)
                cr_expect(!memcmp(noc_link_stats(a, k, i, j), noc_link_stats(b, k, i, j), sizeof(struct noc_link_stats)),
                          "%s: NoC %u node %u link %u statistics differ", what, k, i, j);
            cr_expect(!memcmp(noc_niu_stats(a, k, i), noc_niu_stats(b, k, i), sizeof(struct noc_niu_stats)),
                      "%s: NoC %u node %u NIU statistics differ", what, k, i);
        }
}

/* Requests from (1,4) to (2,4) on NoC 0 of `bytes[i]` at `cycle[i]`, each injected either in
 * time (ahead of the model) or, with `late`, after advancing to `late[i]` - 1 (so noc_now is
 * late[i]); the deliveries into `l`, the NoC returned */
static struct noc *run_at(struct log *l, unsigned buffer, unsigned count, const uint32_t *bytes,
                          const uint64_t *cycle, const uint64_t *late)
{
    struct noc_config c = cfg_for(ARCH_BLACKHOLE, l);
    c.t.buffer_flits = buffer;
    struct noc *n = noc_create(&c);
    cr_assert_not_null(n);
    for (unsigned i = 0; i < count; i++) {
        if (late && late[i])
            noc_advance(n, late[i] - 1);
        cr_assert(noc_unicast(n, 0, NODE(BH_W, 1, 4), NODE(BH_W, 2, 4), bytes[i], i, cycle[i]),
                  "request %u at %lu refused (noc_now %lu)", i, (unsigned long)cycle[i], (unsigned long)noc_now(n));
    }
    drain(n);
    return n;
}

static void expect_same_run(unsigned buffer, unsigned count, const uint32_t *bytes, const uint64_t *cycle,
                            const uint64_t *late, const uint64_t *tails)
{
    static struct log a, b;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
    struct noc *na = run_at(&a, buffer, count, bytes, cycle, NULL);
    struct noc *nb = run_at(&b, buffer, count, bytes, cycle, late);
    cr_assert_eq(a.n, count);
    cr_assert_eq(b.n, count);
    for (unsigned i = 0; i < count; i++) {
        cr_expect(same_delivery(&a.d[i], &b.d[i]), "delivery %u: tail %lu, backdated %lu", i,
                  (unsigned long)a.d[i].tail_cycle, (unsigned long)b.d[i].tail_cycle);
        cr_expect_eq(a.d[i].tail_cycle, tails[i], "delivery %u: tail %lu, not %lu", i,
                     (unsigned long)a.d[i].tail_cycle, (unsigned long)tails[i]);
    }
    expect_same_stats(na, nb, BH_W * 12, "backdated");
    noc_destroy(na);
    noc_destroy(nb);
}

Test(noc, a_backdated_request_arrives_as_one_asked_for_in_time)
{
    /* 1024 B (17 flits) from (1,4) to (2,4) at 100: head 119, tail 135 (5 + 9 + 5, 16 more).
     * Injected when the model is at 105 (noc_now, after advancing to 104): its header would
     * reach its router at 105, a cycle not yet run, so the NIU sends flits 0..4 at 100..104 as
     * it would have, and the rest from 105 on: the same cycles and statistics. */
    expect_same_run(16, 1, (const uint32_t[]){1024}, (const uint64_t[]){100}, (const uint64_t[]){105},
                    (const uint64_t[]){135});
    /* Behind a request of its NIU still sending: A (17 flits) at 100 leaves at 100..116; B
     * (2 flits) at 106, injected at 110, waits its turn: leaves at 117, 118, tail 118 + 19 =
     * 137. */
    expect_same_run(16, 2, (const uint32_t[]){1024, 64}, (const uint64_t[]){100, 106},
                    (const uint64_t[]){0, 110}, (const uint64_t[]){135, 137});
    /* Behind one that has finished: A's tail left at 116; B at 114 injected at 119 (114 + 5):
     * its NIU has been idle since 117, so B leaves at 117, 118 as if it had been queued. */
    expect_same_run(16, 2, (const uint32_t[]){1024, 64}, (const uint64_t[]){100, 114},
                    (const uint64_t[]){0, 119}, (const uint64_t[]){135, 137});
    /* Into a full ring: with buffers of 4 flits A (448 B, 8 flits, at 0) fills its NIU's ring
     * into (1,4)'s router: flits 0..3 leave the NIU at 0..3, and the router sends them on at
     * 5..8 while the link to (2,4) has room (4 places: a_shallow_buffer_throttles_a_stream),
     * so flits 4..7 leave the NIU at 6..9 and wait in the ring until the router takes them at
     * 15..18 (A's tail 18 + 9 + 5 = 32). B (64 B, 2 flits) at 11 finds the ring full; injected
     * at 16 (noc_now), its NIU works back the room it saw at 11..15 from the flits the router
     * took since (one, at 15): it waits to 16 as it would have, and leaves at 16, 17. B's
     * header reaches the router at 21 and waits for room on the link (A's flits 4..7 on it
     * until 24..27; a place freed at 24 is the sender's at 25): flits at 25, 26, tail 26 + 14
     * = 40. */
    expect_same_run(4, 2, (const uint32_t[]){448, 64}, (const uint64_t[]){0, 11},
                    (const uint64_t[]){0, 16}, (const uint64_t[]){32, 40});
}

/* A responder that tries to answer with a request dated before noc_now */
static void answer_backdated(void *ctx, const struct noc_delivery *d)
{
    struct log *l = ctx;
    struct noc_request q = {.noc = d->noc, .src = d->dst, .dst = d->src, .flags = NOC_RESPONSE,
                            .cycle = d->tail_cycle - 1};
    l->too_soon += noc_inject(l->answer_on, &q);
    l->total++;
}

Test(noc, requests_dated_too_far_back_are_refused)
{
    /* After advancing to 104 (noc_now 105) a request may be dated 100 (its header would reach
     * its router at 105, not yet run), not 99 (at 104, already run): the caller's error. */
    struct log l = {0};
    struct noc *n = make(ARCH_BLACKHOLE, &l);
    const unsigned s = NODE(BH_W, 1, 4), d = NODE(BH_W, 2, 4);
    noc_advance(n, 104);
    cr_expect_eq(noc_now(n), 105);
    cr_expect_not(noc_unicast(n, 0, s, d, 0, 1, 99));
    cr_expect(noc_unicast(n, 0, s, d, 0, 2, 101));
    /* each NIU's requests in cycle order: 100 after 101 is refused on that NIU, not another */
    cr_expect_not(noc_unicast(n, 0, s, d, 0, 3, 100));
    cr_expect(noc_unicast(n, 1, s, d, 0, 4, 100));
    cr_expect(noc_unicast(n, 0, s, d, 0, 5, 101));
    drain(n);
    cr_assert_eq(l.n, 3);
    cr_expect_eq(l.d[0].tag, 2);
    cr_expect_eq(l.d[0].tail_cycle, 120);
    cr_expect_eq(l.d[1].tag, 5);
    cr_expect_eq(l.d[1].tail_cycle, 121);
    cr_expect_eq(noc_niu_stats(n, 0, s)->rejected, 0); /* refusals of errors are not a full queue's */
    noc_destroy(n);
    /* A delivery's callback may not backdate (a step is under way): its request is refused. */
    struct noc_config c = noc_config_for(ARCH_BLACKHOLE);
    c.deliver = answer_backdated;
    c.ctx = &l;
    memset(&l, 0, sizeof l);
    n = noc_create(&c);
    cr_assert_not_null(n);
    l.answer_on = n;
    cr_assert(noc_unicast(n, 0, s, d, 0, 1, 0));
    drain(n);
    cr_expect_eq(l.total, 1);
    cr_expect_eq(l.too_soon, 0, "the callback's backdated request was taken");
    noc_destroy(n);
}

Test(noc, early_reports_come_when_the_tail_leaves_the_last_router)
{
    /* report_early: 1024 B (17 flits) from (1,4) to (2,4) at 0 has its header at the NIU at 19
     * and its tail at 35, leaving router (2,4) at 30: reported in the step of 30, with the
     * arrival cycles, while it is still in flight (the NIU counts it at 35). */
    struct log l = {0};
    struct noc_config c = cfg_for(ARCH_BLACKHOLE, &l);
    c.report_early = true;
    struct noc *n = noc_create(&c);
    cr_assert_not_null(n);
    const unsigned s = NODE(BH_W, 1, 4), d = NODE(BH_W, 2, 4);
    cr_assert(noc_unicast(n, 0, s, d, 1024, 1, 0));
    noc_advance(n, 29);
    cr_expect_eq(l.n, 0);
    noc_advance(n, 30);
    cr_assert_eq(l.n, 1);
    cr_expect_eq(l.d[0].head_cycle, 19);
    cr_expect_eq(l.d[0].tail_cycle, 35);
    cr_expect_eq(noc_in_flight(n), 1);
    cr_expect_eq(noc_next_event(n), 31); /* flits arrive at the NIU until 35 */
    cr_expect_eq(noc_niu_stats(n, 0, d)->received, 0);
    noc_advance(n, 34);
    cr_expect_eq(noc_in_flight(n), 1);
    noc_advance(n, 35);
    cr_expect_eq(noc_in_flight(n), 0);
    cr_expect_eq(noc_next_event(n), NOC_NEVER);
    cr_expect_eq(noc_niu_stats(n, 0, d)->received, 1);
    cr_expect_eq(l.n, 1);
    noc_destroy(n);

    /* Ties keep the canonical order (tail, node, NoC), though a step sends NoC by NoC: three
     * one-flit packets all at their NIUs at 19, leaving their last routers at 14: NoC 0 (3,4)
     * -> (4,4) (node 72), NoC 1 (5,4) -> (4,4) (node 72) and NoC 1 (3,4) -> (3,3) (node 54):
     * reported 54 (NoC 1), 72 (NoC 0), 72 (NoC 1), as without report_early. */
    for (unsigned early = 0; early < 2; early++) {
        memset(&l, 0, sizeof l);
        c.report_early = early;
        n = noc_create(&c);
        cr_assert_not_null(n);
        cr_assert(noc_unicast(n, 0, NODE(BH_W, 3, 4), NODE(BH_W, 4, 4), 0, 1, 0));
        cr_assert(noc_unicast(n, 1, NODE(BH_W, 5, 4), NODE(BH_W, 4, 4), 0, 2, 0));
        cr_assert(noc_unicast(n, 1, NODE(BH_W, 3, 4), NODE(BH_W, 3, 3), 0, 3, 0));
        noc_advance(n, early ? 14 : 19);
        cr_assert_eq(l.n, 3, "report_early %u: %u deliveries", early, l.n);
        static const unsigned tag[3] = {3, 1, 2};
        for (unsigned i = 0; i < 3; i++) {
            cr_expect_eq(l.d[i].tag, tag[i], "report_early %u: delivery %u is tag %u", early, i, l.d[i].tag);
            cr_expect_eq(l.d[i].head_cycle, 19);
            cr_expect_eq(l.d[i].tail_cycle, 19);
        }
        drain(n);
        noc_destroy(n);
    }
}

/* The coordinator's scheme (docs/architecture.md "Connecting tiles to the NoC") against the model
 * run cycle by cycle, on random traffic over a 6 x 5 grid: every request drawn up front, plus an
 * answer (a response) to each unicast request that asks for one, made the cycle after the
 * request's tail arrives, as a tile would. */
#define PW 6
#define PH 5
#define PMAX 8000

struct preq {
    struct noc_request q;
    bool done;
};

struct prun {
    struct noc *n;
    struct preq r[PMAX]; /* by id: the drawn ones, then answers in the order they were made */
    unsigned nr, ndrawn;
    struct noc_delivery d[PMAX];
    unsigned nd;
    uint64_t lo, hi;  /* windowed: a delivery reported now must arrive in [lo, hi) */
    unsigned outside; /* deliveries reported outside that */
};

static void prun_deliver(void *ctx, const struct noc_delivery *d)
{
    struct prun *p = ctx;
    cr_assert_lt(p->nd, PMAX);
    p->d[p->nd++] = *d;
    p->outside += d->tail_cycle < p->lo || d->tail_cycle >= p->hi;
    if (!d->broadcast && (d->tag & 1)) { /* asks for an answer: d->tag / 2 % 512 bytes back */
        cr_assert_lt(p->nr, PMAX);
        p->r[p->nr++] = (struct preq){.q = {.noc = d->noc, .src = d->dst, .dst = d->src, .flags = NOC_RESPONSE,
                                            .bytes = d->tag / 2 % 512, .tag = d->tag + 1,
                                            .cycle = d->tail_cycle + 1}};
    }
}

static void prun_draw(struct prun *p, uint32_t seed, uint64_t cycles, bool unreserved)
{
    const unsigned nodes = PW * PH;
    p->nr = p->nd = 0;
    uint32_t tag = 0;
    for (uint64_t t = 0; t < cycles; t++)
        for (unsigned k = 0; k < 2; k++)
            for (unsigned s = 0; s < nodes; s++) {
                if (lcg(&seed) % 24)
                    continue;
                struct noc_request r = {.noc = (uint8_t)k, .src = (uint16_t)s, .cycle = t,
                                        .bytes = lcg(&seed) % 1536, .tag = 2 * tag++};
                const unsigned kind = lcg(&seed) % 16;
                if (kind < 3) { /* a broadcast, reserving its path (with `unreserved` two times in three) */
                    r.flags = NOC_BRCST | (kind || !unreserved ? NOC_BRCST_PATH_RESERVE : 0) |
                              (lcg(&seed) % 2 ? NOC_BRCST_Y_MAJOR : 0) | (lcg(&seed) % 4 ? 0 : NOC_BRCST_SRC_INCLUDE);
                    r.dst_rect = (struct noc_rect){(uint8_t)(lcg(&seed) % PW), (uint8_t)(lcg(&seed) % PH),
                                                   (uint8_t)(lcg(&seed) % PW), (uint8_t)(lcg(&seed) % PH)};
                } else {
                    r.dst = (uint16_t)(lcg(&seed) % nodes);
                    if (kind < 8)
                        r.flags = NOC_RESPONSE;
                    else if (kind < 12)
                        r.tag |= 1; /* answer me */
                }
                cr_assert_lt(p->nr, PMAX);
                p->r[p->nr++] = (struct preq){.q = r};
            }
    p->ndrawn = p->nr;
}

static struct noc *prun_noc(struct prun *p, bool early, unsigned buffer)
{
    struct noc_config c = noc_config_for(ARCH_BLACKHOLE);
    c.width = PW, c.height = PH;
    if (buffer)
        c.t.buffer_flits = buffer;
    for (unsigned i = 0; i < noc_timing_nrows; i++)
        if (!strcmp(noc_timing_rows[i].key, "noc.inject_queue"))
            c.t.inject_queue = noc_timing_rows[i].max; /* the coordinator's: no burst is refused */
    c.deliver = prun_deliver;
    c.ctx = p;
    c.report_early = early;
    p->n = noc_create(&c);
    cr_assert_not_null(p->n);
    p->lo = 0, p->hi = NOC_NEVER;
    return p->n;
}

/* A: each request injected at its cycle, the model advanced one cycle at a time */
static void prun_reference(struct prun *p, uint32_t seed, uint64_t cycles)
{
    prun_draw(p, seed, cycles, seed > 3 && seed <= 6);
    struct noc *n = prun_noc(p, false, seed > 6 ? 4 : 0);
    unsigned left = p->nr;
    for (uint64_t t = 0; left || noc_next_event(n) != NOC_NEVER; t++) {
        for (unsigned i = 0; i < p->nr; i++)
            if (!p->r[i].done && p->r[i].q.cycle == t) {
                cr_assert(noc_inject(n, &p->r[i].q), "A: request %u refused", i);
                p->r[i].done = true;
            }
        noc_advance(n, t);
        left = 0;
        for (unsigned i = 0; i < p->nr; i++)
            left += !p->r[i].done;
        cr_assert_lt(t, 100000);
    }
}

struct okey {
    uint64_t cycle;
    unsigned src, id;
};

static int by_cycle_src(const void *a, const void *b)
{
    const struct okey *x = a, *y = b;
    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return x->id < y->id ? -1 : 1; /* the order they were made */
}

/* B: windows of W = 10: the tiles' requests of [h - 10, h) injected in (cycle, tile, order),
 * dated back as far as h - 10 while the model is at h - 5, then the model advanced to h + 4;
 * every delivery reported in it must arrive in [h, h + 10), and answers are made for the window
 * their cycle falls in */
static void prun_windows(struct prun *p, uint32_t seed, uint64_t cycles)
{
    static struct okey order[PMAX];
    prun_draw(p, seed, cycles, seed > 3 && seed <= 6);
    struct noc *n = prun_noc(p, true, seed > 6 ? 4 : 0);
    unsigned left = p->nr, backdated = 0;
    for (uint64_t h = 10; left || noc_next_event(n) != NOC_NEVER; h += 10) {
        unsigned k = 0;
        for (unsigned i = 0; i < p->nr; i++) {
            cr_assert(p->r[i].done || p->r[i].q.cycle >= h - 10, "request %u made for a window already run", i);
            if (!p->r[i].done && p->r[i].q.cycle < h)
                order[k++] = (struct okey){p->r[i].q.cycle, p->r[i].q.src, i};
        }
        qsort(order, k, sizeof order[0], by_cycle_src);
        for (unsigned j = 0; j < k; j++) {
            struct preq *r = &p->r[order[j].id];
            backdated += r->q.cycle < noc_now(n);
            cr_assert(noc_inject(n, &r->q), "B: request %u at %lu refused at %lu", order[j].id,
                      (unsigned long)r->q.cycle, (unsigned long)noc_now(n));
            r->done = true;
        }
        p->lo = h, p->hi = h + 10;
        noc_advance(n, h + 4);
        left = 0;
        for (unsigned i = 0; i < p->nr; i++)
            left += !p->r[i].done;
        cr_assert_lt(h, 100000);
    }
    cr_expect_gt(backdated, p->nr / 3, "only %u of %u requests backdated", backdated, p->nr);
}

Test(noc, a_coordinators_windows_deliver_exactly_what_cycle_by_cycle_does)
{
    static struct prun a, b;
    unsigned total = 0, answers = 0;
    /* seeds 1..3: every broadcast reserves its path; 4..6: some do not, and those can stop
     * each other for ever (BH NoC/README.md), after which only what still moves is compared;
     * 7, 8: buffers of 4 flits, so that NIUs often find their ring into the router full in the
     * cycles a request is dated back over */
    for (uint32_t seed = 1; seed <= 8; seed++) {
        memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
        prun_reference(&a, seed, 300);
        prun_windows(&b, seed, 300);
        cr_assert_eq(b.nd, a.nd, "seed %u: %u deliveries in windows, %u cycle by cycle", seed, b.nd, a.nd);
        cr_assert_eq(b.nr, a.nr);
        for (unsigned i = 0; i < a.nd; i++)
            cr_assert(same_delivery(&a.d[i], &b.d[i]),
                      "seed %u delivery %u: tag %u tail %lu cycle by cycle, tag %u tail %lu in windows", seed, i,
                      a.d[i].tag, (unsigned long)a.d[i].tail_cycle, b.d[i].tag, (unsigned long)b.d[i].tail_cycle);
        cr_expect_eq(b.outside, 0, "seed %u: %u deliveries reported outside their window", seed, b.outside);
        char what[32];
        snprintf(what, sizeof what, "windows, seed %u", seed);
        expect_same_stats(a.n, b.n, PW * PH, what);
        cr_expect_eq(noc_in_flight(a.n), noc_in_flight(b.n));
        for (unsigned k = 0; k < 2; k++)
            for (unsigned s = 0; s < PW * PH; s++)
                cr_expect_eq(noc_niu_stats(a.n, k, s)->rejected, 0);
        total += a.nd;
        answers += a.nr - a.ndrawn;
        cr_log_info("seed %u: %u requests (%u answers), %u deliveries, %u stuck", seed, a.nr, a.nr - a.ndrawn,
                    a.nd, noc_in_flight(a.n));
        noc_destroy(a.n);
        noc_destroy(b.n);
    }
    cr_expect_gt(total, 8000, "only %u deliveries", total);
    cr_expect_gt(answers, 200, "only %u answers", answers);
}
