/* Where a Tensix instruction came from: the push that put it into its thread's pipe.
 *
 * Every word in a FIFO carries one (struct tt_fifo.origin), the MOP and replay expanders give
 * what they emit the origin of the MOP or REPLAY that caused it, and the Wait Gate hands it to
 * the trace (a flow arrow from the push to the unit, trace/trace.h) and the profile (cycles the
 * instruction was held, charged to the pushing pc, riscv/profile.h). It is a plain 64-bit value
 * so carrying it costs a copy and nothing is looked up or allocated on the way:
 *   bits  0..21  pc >> 2 of the pushing instruction (L1 is below 16 MiB)
 *   bits 22..24  pushing core + 1 (0: no core, e.g. the host of a run description)
 *   bit  25      ORIGIN_ARROW: the first instruction that push produced (one arrow per push)
 *   bits 26..63  the push cycle (a push after cycle 2^38 gets no arrow)
 */
#ifndef TENSIM_SYNC_ORIGIN_H
#define TENSIM_SYNC_ORIGIN_H

#include <stdint.h>

typedef uint64_t tt_origin;

#define ORIGIN_NONE ((tt_origin)0)
#define ORIGIN_ARROW ((tt_origin)1 << 25)
#define ORIGIN_CYCLE_BITS 38

static inline tt_origin origin_make(int core, uint32_t pc, uint64_t cycle)
{
    tt_origin o = (tt_origin)((pc >> 2) & 0x3FFFFFu) | (tt_origin)((unsigned)(core + 1) & 7u) << 22;
    if (cycle >> ORIGIN_CYCLE_BITS == 0)
        o |= ORIGIN_ARROW | cycle << 26;
    return o;
}

/* The pushing core, or -1 for none. */
static inline int origin_core(tt_origin o) { return (int)((o >> 22) & 7u) - 1; }
static inline uint32_t origin_pc(tt_origin o) { return (uint32_t)(o & 0x3FFFFFu) << 2; }
static inline uint64_t origin_cycle(tt_origin o) { return o >> 26; }
static inline int origin_arrow(tt_origin o) { return (o & ORIGIN_ARROW) != 0; }
/* What the instructions after the first of one push carry. */
static inline tt_origin origin_follow(tt_origin o) { return o & ~ORIGIN_ARROW; }

#endif
