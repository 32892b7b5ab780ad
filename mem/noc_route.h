/* Where a packet goes next at a router (mem/noc_route.c): the routes and broadcast trees of
 * RoutingPaths.md as a pure function of the packet, the router and the port the packet came in
 * by. Used by mem/noc.c only. */
#ifndef TENSIM_MEM_NOC_ROUTE_H
#define TENSIM_MEM_NOC_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

/* A router's input ports, in the fixed order of its round-robin arbitration */
enum noc_in { NOC_IN_NIU, NOC_IN_X, NOC_IN_Y, NOC_INS };
/* Its output ports, as a mask: the next router along x or y, or its own NIU */
enum { NOC_OUT_X = 1u << 0, NOC_OUT_Y = 1u << 1, NOC_OUT_NIU = 1u << 2 };
#define NOC_OUTS 3

struct noc_route {
    uint8_t noc;       /* 0: x and y grow along the links; 1: they shrink */
    uint8_t w, h;      /* the grid */
    bool brcst, y_major;
    uint8_t src[2];    /* source x, y */
    uint8_t dst[2];    /* unicast destination x, y */
    uint8_t lo[2], hi[2]; /* broadcast rectangle: x0..x1 and y0..y1 in NoC #0's grid */
};

/* The outputs a packet arriving at router (x, y) through port `in` leaves by (several: the tree
 * forks there). NOC_OUT_NIU is the tree's: whether that node takes a broadcast (exclusion,
 * opt-out, the source) is the caller's choice. */
unsigned noc_route_outputs(const struct noc_route *r, unsigned x, unsigned y, enum noc_in in);

#endif
