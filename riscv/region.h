/* Regions: spans of a kernel marked with the SDK's tensim_region_begin(id) / tensim_region_end(id)
 * (riscv/sdk/tensim.h, docs/sdk.md "Regions"), measured per core at no simulated cost.
 *
 * The marks are a RISC-V HINT (`slti x0, x0, imm`, which the ISA designates for custom use and
 * which does nothing on silicon): the executor sees it decoded as RV_REGION and acts on it
 * without issuing it, so it takes no cycle, no instret and no slot in the retire queue.
 *
 * At a begin the core's counters (and, on a TRISC, its Tensix thread's) are copied; at the end
 * the copy is subtracted and the differences are added to the id's totals. Nothing is counted
 * per cycle. A TRISCk region covers core TRISCk over cycles [begin, end) and Tensix thread k over
 * cycles begin+1 .. end (the coprocessor acts before the cores in a cycle, so in the begin cycle
 * the thread's outcome is already counted, and an instruction pushed then reaches the gate one
 * cycle later at the earliest). A BRISC region has the core's figures only. */
#ifndef TENSIM_RISCV_REGION_H
#define TENSIM_RISCV_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "../units/tensix_isa.h"
#include "../units/unit.h"
#include "core.h"
#include "../core/perf_counters.h"

#define REGION_IDS 64
/* The HINT's 12-bit immediate: 0x580 + id begins region id, 0x5C0 + id ends it. */
#define REGION_IMM_BEGIN 0x580
#define REGION_IMM_END 0x5C0

/* The counters a region is measured with: a snapshot at a begin, a sum over ended regions. */
struct region_counters {
    uint64_t instret;
    uint64_t stall[STALL_COUNT];       /* the core's stall cycles by reason */
    uint64_t tensix[TT_UNIT_COUNT];    /* the thread's instructions issued, by unit */
    uint64_t held[GS_COUNT];           /* the thread's Wait Gate hold cycles, by reason */
    struct perf_signals sig;           /* the tile's counter signals (core/perf_counters.h), for
                                          the metrics under Tenstorrent's names */
};

struct region_stat {
    uint64_t count, cycles, min, max;  /* ended regions: how many, total, shortest, longest */
    struct region_counters sum;
};

struct core_regions {
    uint64_t open;        /* bit per id: begun, not ended yet */
    uint64_t used;        /* bit per id: begun at least once */
    uint64_t begin_cycle[REGION_IDS];
    struct region_counters at_begin[REGION_IDS];
    struct region_stat st[REGION_IDS];
};

struct tile;
/* The HINT with immediate imm at cycle now on core c. Returns false after raising ERR_REGION
 * (an end of a region not begun, a begin of one already open). */
bool region_hint(struct tile *t, struct rv_core *c, uint64_t now, int32_t imm);
/* The run ended at cycle `end`: warn about every region still open (it is not counted). */
void regions_close(struct tile *t, uint64_t end);
/* Whether any core began a region. */
bool regions_any(const struct tile *t);

#endif
