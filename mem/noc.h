/* The two NoCs of one chip as a flit-level timing model: routers in a torus, one NIU per node and
 * NoC, packets of a header flit and data flits moving one flit per cycle per link, wormhole
 * switching with round-robin arbitration and finite buffers (back-pressure), and broadcast
 * (multicast) trees over a rectangle of nodes. It is standalone (no struct tile): the NIUs'
 * command buffers (0xFFB20000 / 0xFFB30000) and the host will hand it requests, and receive
 * the packets it delivers (docs/architecture.md "The NoC", docs/timing-model.md "NoC").
 *
 * Pages (tt-isa-documentation, BlackholeA0/NoC/ and WormholeB0/NoC/): README.md (torus, flits,
 * "Performance" latencies), RoutingPaths.md (routes, broadcast trees, congestion, cut-through),
 * Coordinates.md, MemoryMap.md (NOC_CTRL's broadcast flags). Diagrams/Src/NoC.lua draws the
 * routes those pages show; noc_route.c follows the same rules.
 *
 * Nodes are numbered y * width + x in NoC #0's coordinates (Coordinates.md: (0, 0) top left,
 * x rightwards, y downwards); NoC #1's own coordinates are (width-1-x, height-1-y) of the same
 * node, so both NoCs are addressed here by the one grid numbering (noc_node1 converts).
 *
 * Time is in cycles of the tile clock, which the NoC shares (BH NoC/README.md). The model steps
 * only the cycles in which a flit arrives or moves: noc_advance over idle cycles costs nothing per
 * cycle. All state is allocated by noc_create; nothing is allocated while it runs. Results depend
 * only on the requests and their cycles, never on the order of noc_inject calls for different
 * NIUs within a cycle. */
#ifndef TENSIM_MEM_NOC_H
#define TENSIM_MEM_NOC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/arch.h"

#define NOC_NEVER UINT64_MAX
#define NOC_COUNT 2 /* NoC #0 (right, then down) and NoC #1 (up, then left) */

/* The rows of mem/noc_timing.def (their sources are there). */
struct noc_timing {
#define TIMING(g, f, bh, wh, min, max, source, checked) unsigned f;
#include "noc_timing.def"
#undef TIMING
};

/* Every row of mem/noc_timing.def by name ("noc.<field>"), for listings and reports. */
struct noc_timing_row {
    const char *key;
    unsigned bh, wh, min, max;
    const char *source, *checked;
};
extern const struct noc_timing_row noc_timing_rows[];
extern const unsigned noc_timing_nrows;

struct noc;

/* A delivered packet: what its destination NIU sees. A broadcast delivers one to each receiver. */
struct noc_delivery {
    uint64_t head_cycle;   /* the header flit reached the destination NIU */
    uint64_t tail_cycle;   /* the last flit did: the packet is complete */
    uint64_t inject_cycle; /* the cycle it was asked for (noc_inject) */
    uint32_t tag;          /* the caller's, unchanged */
    uint32_t bytes;
    uint32_t seq;          /* per source NIU and NoC: 0, 1, ... in the order it accepted them */
    uint16_t src, dst;     /* nodes */
    uint8_t noc;           /* 0 or 1 */
    bool broadcast;
};

/* Called at each delivery in the canonical order: tail cycle, then destination node, then NoC
 * (the NIU port it arrives at), then sequence number (a destination NIU's port takes one flit
 * per cycle, so the first three already tell any two apart). It may call noc_inject for the
 * cycle after the delivery's tail_cycle or later (an answer), not noc_advance.
 * When it is called: by default in the step of the tail's arrival at the NIU (tail_cycle), and
 * with report_early in the step in which the tail leaves its last router for the NIU, which is
 * tail_cycle - router_to_niu: from there nothing can delay it (a router's output to its NIU
 * never waits and the NIU takes a flit per cycle), so head_cycle and tail_cycle are still the
 * arrival cycles at the NIU, and the order is the same canonical one (all tails that leave in
 * one step arrive in the same cycle; they are reported at the end of that step by node, then
 * NoC). The NIU's statistics (received, flits_received, bytes_received) still count at the
 * arrival, and the packet is in flight (noc_in_flight) and has an event (noc_next_event) until
 * its last flit has arrived: so noc_in_flight 0 and noc_next_event NOC_NEVER still mean that
 * nothing more will be reported. (A callback that injects under report_early asks for a cycle
 * after tail_cycle while the caller may still have requests of earlier cycles for the same
 * NIU to inject: keep each NIU's requests in cycle order, noc_inject.) */
typedef void noc_deliver_fn(void *ctx, const struct noc_delivery *d);

struct noc_config {
    unsigned width, height; /* the grid in NoC coordinates */
    struct noc_timing t;
    noc_deliver_fn *deliver;
    void *ctx;
    bool report_early; /* report a delivery when its tail leaves its last router (above) */
    /* When set (a chip's --trace): each busy period of a router's output link, [from, to), as it
     * ends; the periods' lengths sum to the link's `busy` stat. Called in cycle order per link. */
    void (*link_busy)(void *ctx, unsigned noc, unsigned node, unsigned link, uint64_t from,
                      uint64_t to);
};

/* Blackhole 17 x 12, Wormhole 10 x 12 (Diagrams/Src/NoC.lua NocSize_Arch; tt-npe's device
 * models agree), the architecture's column of noc_timing.def; no callback. */
struct noc_config noc_config_for(enum arch_id arch);

/* NULL if the configuration is out of range (grid 1..64 x 1..64, a timing row outside its
 * min..max). */
struct noc *noc_create(const struct noc_config *cfg);
void noc_destroy(struct noc *n);

/* The rectangle of a broadcast: columns x0, x0+1, ... x1 and rows y0 ... y1 in NoC #0's grid,
 * wrapping around the edges when x1 < x0 or y1 < y0, on either NoC (BH Coordinates.md: software
 * swaps start and end for NoC #1, which names the same rectangle in NoC #1's coordinates). */
struct noc_rect {
    uint8_t x0, y0, x1, y1;
};

enum {
    NOC_BRCST = 1u << 0,             /* NOC_CMD_BRCST_PACKET: to the rectangle `dst_rect` */
    NOC_BRCST_Y_MAJOR = 1u << 1,     /* NOC_CMD_BRCST_XY: Y is the major axis (RoutingPaths.md) */
    NOC_BRCST_SRC_INCLUDE = 1u << 2, /* NOC_CMD_BRCST_SRC_INCLUDE: the source receives its own */
    NOC_BRCST_EXCLUDE = 1u << 3,     /* the nodes of `exclude` do not receive (see below) */
    NOC_RESPONSE = 1u << 4,          /* a response or acknowledgement: its own virtual channels */
    NOC_BRCST_PATH_RESERVE = 1u << 5, /* NOC_CMD_PATH_RESERVE: the whole tree first (see below) */
};

/* One request. A broadcast's packet goes down the tree of noc_route.c whatever `exclude` says:
 * excluded nodes (and nodes that opt out, noc_set_broadcast_sink) only do not take a copy.
 * Broadcasts that do not reserve their path can wait for each other in a circle and stop for
 * ever, as the pages warn (BH NoC/README.md: software is responsible for deadlock freedom of
 * "Broadcast without path reservations"); with NOC_BRCST_PATH_RESERVE the header, once it has
 * reached its first router (niu_to_router after it left its NIU, as any header), goes on only
 * once every link of its tree is free for it, and the router takes them all for it at once
 * (BH RoutingPaths.md: the routers make the reservation and inform the initiating tile; the
 * handshake's own time is not documented and not charged). Meanwhile its data flits queue
 * behind it in that router's buffer from its NIU, and the NIU sends nothing else once that is
 * full. A channel is free for it when no packet holds it, no other reservation has it, and no
 * flit of another packet is still on its link or in the buffer it feeds: a packet lets go of a
 * channel when its tail leaves the router, before the tail has crossed the link. The flag is
 * refused without NOC_BRCST (NOC_CMD_PATH_RESERVE is a broadcast's).
 * A reservation is made in a step before any router acts in it, from what the previous cycle
 * left, so a request at cycle h reserves at h + niu_to_router at the earliest, where it can take
 * the NIU channel of a router another packet reached in that cycle: that packet would have
 * reached its NIU at h + niu_to_router + router_to_niu = h + 10. With or without reservations a
 * request at h therefore changes no delivery before h + 10: its first flit reaches a router at
 * h + niu_to_router at the earliest, and what it delays there is router_to_niu from any NIU.
 * NOC_BRCST_EXCLUDE stands for the NIU's NOC_BRCST_EXCLUDE register, whose encoding no page
 * gives ("additional configuration allowing for non-rectangular broadcasts", BH MemoryMap.md);
 * a rectangle can express a corner or a band of the grid. */
struct noc_request {
    uint8_t noc;   /* 0 or 1 */
    uint16_t src;  /* node */
    uint16_t dst;  /* node, when not a broadcast */
    struct noc_rect dst_rect, exclude;
    unsigned flags;
    uint32_t bytes; /* data bytes: ceil(bytes / flit_bytes) data flits after the header (0: header
                     * only, as a read request, an acknowledgement or a 4-byte inline write) */
    uint32_t tag;
    uint64_t cycle; /* when the NIU has it; see noc_inject for one before noc_now() */
};

/* The NIU of `src` on NoC `noc` takes the request into its injection queue (inject_queue deep)
 * and sends its flits from `cycle` on, one per cycle as the router takes them, in the order it
 * took its requests. False when that queue is full at the time of the call (the caller retries
 * after advancing: a request initiator stays busy), and for a request the model cannot take (a
 * node outside the grid, more than max_data_flits of data, NOC_BRCST_PATH_RESERVE without
 * NOC_BRCST, a cycle too far back: below): those are the caller's errors.
 * A request may be dated before noc_now ("backdated": a coordinator that runs tiles for a window
 * and then injects what they asked for in it), as long as cycle + niu_to_router >= noc_now: its
 * header cannot have reached its router yet, so nothing the model has run could have seen it.
 * Every delivery and statistic is then what it would have been had it been injected before the
 * model ran past `cycle`: an idle NIU sends its flits from `cycle` on (or from the cycle after
 * its last request's tail left, if that is later) as far as its ring into the router had room
 * in each of those cycles, and one behind queued requests waits its turn as usual. Each NIU's
 * requests must come in nondecreasing cycle order, as they would when each is injected at its
 * own cycle (a backdated one dated before the NIU's last is refused), and no backdated request
 * may come from a delivery's callback (refused). Whether the queue has room is judged at the
 * call, after what has left it since `cycle`: a queue that would have been full at `cycle` may
 * take it, so a caller that needs the exact outcome makes the queue deep enough never to refuse
 * (inject_queue up to 4096). */
bool noc_inject(struct noc *n, const struct noc_request *r);
/* A unicast write of `bytes` from node src to node dst on NoC `noc`. */
bool noc_unicast(struct noc *n, unsigned noc, unsigned src, unsigned dst, uint32_t bytes, uint32_t tag,
                 uint64_t cycle);

/* Runs every cycle up to and including `cycle`, delivering what arrives; noc_now becomes cycle + 1
 * (NOC_NEVER: runs until nothing more can happen, and noc_now becomes NOC_NEVER). */
void noc_advance(struct noc *n, uint64_t cycle);
/* The first cycle not yet run. */
uint64_t noc_now(const struct noc *n);
/* A cycle at or after noc_now and no later than the first in which a flit arrives, moves or
 * leaves an NIU: the next step the model will run. It is that first cycle when what is in flight
 * is only travelling (no flit has arrived and waits, no request's time has come without its
 * header leaving); after a cycle in which something moved while something else waited, it is
 * the next cycle, though the waiting flit may wait on. NOC_NEVER when nothing is queued or in
 * flight (or everything in flight is stuck: noc_in_flight says). A step costs the routers that
 * hold something; cycles in which nothing arrives and nothing waits on a move are skipped for
 * nothing. */
uint64_t noc_next_event(const struct noc *n);
/* Packets accepted and not yet delivered everywhere (a packet reported early is in flight until
 * its tail reaches the NIU). */
unsigned noc_in_flight(const struct noc *n);
/* What waits for what, a line each (at most max_lines, then a count of the rest): headers
 * waiting for an output's channel and who holds or reserved it, flits waiting for room, NIUs'
 * queued requests; for a deadlock report when noc_next_event is NOC_NEVER with packets in
 * flight. Returns the lines written. Formats only when called. */
unsigned noc_describe(const struct noc *n, FILE *f, unsigned max_lines);

/* A node that opts out of broadcasts (BH RoutingPaths.md: tiles other than Tensix tiles do);
 * all nodes take them after noc_create. Only while nothing is in flight (noc_in_flight 0), else
 * false and nothing changes: a path reservation takes the channels the tree's routers will want,
 * which depend on the nodes that take the broadcast, so those must not change under it (set the
 * sinks up before the first request). False also for a node outside the grid. */
bool noc_set_broadcast_sink(struct noc *n, unsigned node, bool takes);

/* The node at (x, y) of NoC #0's grid, and the node NoC #1 calls (x1, y1) (BH Coordinates.md:
 * NoC #1's (0, 0) is the bottom right tile and its coordinates grow leftwards and upwards). */
static inline unsigned noc_node(const struct noc_config *c, unsigned x, unsigned y)
{
    return y * c->width + x;
}
static inline unsigned noc_node1(const struct noc_config *c, unsigned x1, unsigned y1)
{
    return noc_node(c, c->width - 1 - x1, c->height - 1 - y1);
}

/* Each node's four links on each NoC: to the next router along x and along y (NoC #0: right and
 * down; NoC #1: left and up), from its NIU into its router and from its router out to its NIU. */
/* Set (or clear, NULL) noc_config.link_busy after creation. */
void noc_set_link_busy(struct noc *n, void (*fn)(void *, unsigned, unsigned, unsigned, uint64_t, uint64_t));

enum noc_link { NOC_LINK_X, NOC_LINK_Y, NOC_LINK_INJECT, NOC_LINK_EJECT, NOC_LINKS };

struct noc_link_stats {
    uint64_t flits;      /* flits that entered the link */
    uint64_t packets;    /* packets that took it (a broadcast's copy counts on each branch) */
    uint64_t busy;       /* cycles at least one packet held it (from a grant to its tail flit) */
    uint64_t head_wait;  /* cycles header flits that wanted it waited for their grant (at its
                          * first router a reserving header's wait for its whole path too) */
    uint64_t stalled;    /* cycles a holder had a flit ready and could not send it: no room in the
                          * next buffer, or another channel had the link that cycle */
};

struct noc_niu_stats {
    uint64_t sent, received;           /* packets */
    uint64_t flits_sent, flits_received;
    uint64_t bytes_received;
    uint64_t rejected;   /* noc_inject calls refused because the injection queue was full */
    uint64_t queued;     /* cycles requests waited in the queue before their header left */
};

const struct noc_link_stats *noc_link_stats(const struct noc *n, unsigned noc, unsigned node,
                                            enum noc_link link);
const struct noc_niu_stats *noc_niu_stats(const struct noc *n, unsigned noc, unsigned node);

#endif
