/* Routes and broadcast trees (tt-isa-documentation BlackholeA0/NoC/RoutingPaths.md, the same in
 * WormholeB0/NoC/; Diagrams/Src/NoC.lua draws them by these rules).
 *
 * Every link of NoC #0 runs rightwards or downwards and every link of NoC #1 leftwards or
 * upwards, the edges joined into rings (README.md: a 2D torus), so a packet only ever steps
 * one way along each axis: +1 on NoC #0, -1 on NoC #1, modulo the grid.
 *
 * Unicast (and every response): NoC #0 goes along x as far as needed, turns at most once and
 * goes along y; NoC #1 goes along y first, then x ("upwards as necessary, turn at most once,
 * and then travel leftwards"). The route is a function of where the packet is, so each router
 * decides alone.
 *
 * Broadcast, with X (or, with NOC_CMD_BRCST_XY, Y) as the major axis a and the other as the
 * minor axis b: "along the major axis as necessary, then along the minor axis as necessary, and
 * finally on the major axis again". As the pages' figures (NoC.lua plot_broadcast_path) draw it:
 *  1. a source whose a-coordinate is outside the rectangle goes along a to the rectangle's first
 *     line in the direction of travel (the trunk line); a source inside it is on its trunk;
 *  2. the trunk goes along b from the source's b-coordinate, and at every wanted b the packet
 *     also forks along a (a branch), until the last wanted b in the order it meets them;
 *  3. each branch goes along a from the trunk, the node of every wanted a taking a copy, until
 *     it has met every wanted a once: from a trunk inside the rectangle that is round the ring,
 *     through the columns outside it, back to the one before the trunk.
 * The rectangle is a set of nodes, so on NoC #1 its first line in the direction of travel is the
 * highest x or y of NoC #0's grid (Coordinates.md: software swaps start and end for NoC #1). */
#include "noc_route.h"

/* Steps from `from` to `to` moving one way round a ring of n: +1 on NoC #0, -1 on NoC #1 */
static unsigned steps(unsigned noc, unsigned from, unsigned to, unsigned n)
{
    return noc ? (from + n - to) % n : (to + n - from) % n;
}

/* The coordinate one step before v in the direction of travel */
static unsigned before(unsigned noc, unsigned v, unsigned n)
{
    return noc ? (v + 1) % n : (v + n - 1) % n;
}

static unsigned unicast(const struct noc_route *r, const unsigned c[2])
{
    /* NoC #0 settles x first, NoC #1 y first */
    unsigned first = r->noc ? 1 : 0, second = 1 - first;
    if (c[first] != r->dst[first])
        return first ? NOC_OUT_Y : NOC_OUT_X;
    if (c[second] != r->dst[second])
        return second ? NOC_OUT_Y : NOC_OUT_X;
    return NOC_OUT_NIU;
}

unsigned noc_route_outputs(const struct noc_route *r, unsigned x, unsigned y, enum noc_in in)
{
    const unsigned c[2] = {x, y};
    if (!r->brcst)
        return unicast(r, c);
    const unsigned n[2] = {r->w, r->h};
    const unsigned a = r->y_major ? 1 : 0, b = 1 - a;
    const unsigned out_a = a ? NOC_OUT_Y : NOC_OUT_X, out_b = b ? NOC_OUT_Y : NOC_OUT_X;
    const enum noc_in in_a = a ? NOC_IN_Y : NOC_IN_X;
    /* first and last wanted line of each axis in the direction of travel */
    unsigned first[2], last[2], span[2];
    for (unsigned k = 0; k < 2; k++) {
        first[k] = r->noc ? r->hi[k] : r->lo[k];
        last[k] = r->noc ? r->lo[k] : r->hi[k];
        span[k] = steps(r->noc, first[k], last[k], n[k]);
    }
#define WANTED(k, v) (steps(r->noc, first[k], (v), n[k]) <= span[k])
    const bool src_inside = WANTED(a, r->src[a]);
    const unsigned trunk = src_inside ? r->src[a] : first[a];
    /* the last wanted a of a branch from the trunk, the last wanted b of the trunk */
    const unsigned branch_end = trunk == first[a] ? last[a] : before(r->noc, trunk, n[a]);
    const unsigned trunk_end = !WANTED(b, r->src[b]) || r->src[b] == first[b] ? last[b]
                                                                             : before(r->noc, r->src[b], n[b]);
    if (!src_inside && (in == NOC_IN_NIU || (in == in_a && !WANTED(a, c[a]))))
        return out_a; /* step 1: from the source towards the trunk, outside the rectangle */
    if (in == in_a && !(c[a] == trunk && !src_inside)) {
        /* step 3: a branch (along a, the trunk is met only at the end of step 1; a branch from
         * the trunk stops one short of it) */
        unsigned m = WANTED(a, c[a]) ? NOC_OUT_NIU : 0;
        return c[a] != branch_end ? m | out_a : m;
    }
    /* step 2: on the trunk (from the source's NIU, along b, or at the end of step 1) */
    unsigned m = 0;
    if (WANTED(b, c[b]))
        m |= span[a] ? NOC_OUT_NIU | out_a : NOC_OUT_NIU;
    if (c[b] != trunk_end)
        m |= out_b;
    return m;
#undef WANTED
}
