/* The L1 access ports the RISC-V cores share (WH:L1.md "Port assignments", its diagram's source
 * Diagrams/Src/L1.lua): RISCV B, NC and T0 hang off one port's mux, T1 and T2 off another's, each
 * mux giving one client the port per cycle. A narrow read (every RISC-V load) holds the port one
 * cycle; a narrow write is a read-modify-write that holds it five; a whole 128-bit line one.
 *
 * A port is a calendar of the next 64 cycles, one bit each. The tile's agents act in cycle order
 * (core/tile.c), so each access books the first free cycles at or after the cycle it reaches the
 * port: first come, first served, ties in agent order. That stands in for the round-robin mux,
 * which the pages describe but do not time, and lets a core time its access the moment it issues
 * it, without stepping the other agents cycle by cycle (docs/timing-model.md "L1 ports").
 *
 * The other clients of these ports (packer 2, ThCon, the mover, packer 3) do not book them yet:
 * their traffic does not slow the cores (a documented gap). */
#ifndef TENSIM_MEM_L1_PORT_H
#define TENSIM_MEM_L1_PORT_H

#include <stdint.h>

#define L1_RISC_PORTS 2 /* WH:L1.md ports #2 (B, NC, T0) and #3 (T1, T2) */

struct l1_port {
    uint64_t base; /* cycle of bit 0 */
    uint64_t busy; /* bit i: cycle base + i is booked */
};

/* Books `len` (1..8) consecutive cycles from `at` on: returns the first cycle of the booking. An
 * access older than the calendar (a store-queue entry whose merge timer ran out while its core
 * was busy elsewhere, sealed when the core next touches its queue) is granted as asked, without
 * a look at those past cycles: a conflict there goes unseen (an approximation). Bookings past the
 * 64-cycle window are granted at once (a window that full only arises from a store queue
 * backlog, which its own drain order already serialises). */
static inline uint64_t l1_port_book(struct l1_port *p, uint64_t at, unsigned len)
{
    if (at < p->base)
        return at;
    if (at > p->base) {
        uint64_t shift = at - p->base;
        p->busy = shift >= 64 ? 0 : p->busy >> shift;
        p->base = at;
    }
    const uint64_t want = (1ull << len) - 1;
    unsigned off = 0; /* the calendar starts at `at` now */
    while (off + len <= 64 && (p->busy >> off) & want)
        off++;
    if (off + len <= 64)
        p->busy |= want << off;
    return p->base + off;
}

#endif
