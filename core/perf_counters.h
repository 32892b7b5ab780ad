/* The Tensix performance-counter registers (RISCV_DEBUG_REGS PERF_CNT_*, as tt-llk's counter
 * builds program and read them) and the signals they count, derived from tensim's own
 * accounting (docs/timing-model.md "Performance counters").
 *
 * Nothing is counted per cycle. A signal is a cumulative count that can be read at any cycle
 * from what the units, the Wait Gates and the threads already keep (perf_signals_at); a bank
 * that starts copies the signals, a read or a stop subtracts the copy. Regions and the
 * end-of-run metrics (trace/metrics.c) use the same signals, so a metric and the counter it is
 * computed from on silicon agree by construction. */
#ifndef TENSIM_CORE_PERF_COUNTERS_H
#define TENSIM_CORE_PERF_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/map.h"

/* Per-thread signals (PS_THREAD_BASE + PS_T_* + th * PS_T_COUNT). */
enum perf_thread_signal {
    /* instructions of a class that passed the Wait Gate (*_INSTRN_AVAILABLE_t) */
    PS_T_AVAIL_CFG, PS_T_AVAIL_SYNC, PS_T_AVAIL_THCON, PS_T_AVAIL_MOVE, PS_T_AVAIL_FPU,
    PS_T_AVAIL_UNPACK, PS_T_AVAIL_PACK,
    PS_T_STALLS,       /* Wait Gate hold cycles, every reason (THREAD_STALLS_t) */
    /* latched STALLWAIT/SEMWAIT hold cycles by the cause charged (WAITING_FOR_*_t) */
    PS_T_WAIT_THCON, PS_T_WAIT_UNPACK, PS_T_WAIT_PACK, PS_T_WAIT_MATH, PS_T_WAIT_NONZERO_SEM,
    PS_T_WAIT_NONFULL_SEM, PS_T_WAIT_MOVE, PS_T_WAIT_MMIO, PS_T_WAIT_SFPU,
    PS_T_INSTRUCTIONS, /* instructions issued (THREAD_INSTRUCTIONS_t) */
    PS_T_COUNT
};

enum perf_signal {
    PS_WAIT_SRCA_CLEAR, PS_WAIT_SRCB_CLEAR, /* STALLWAIT on SrcA/SrcB not owned by the unpackers */
    PS_WAIT_SRCA_VALID, PS_WAIT_SRCB_VALID, /* ... not owned by the matrix unit (STALLWAIT, and a
                                               matrix instruction's own src_not_valid hold) */
    PS_FPU_BUSY,       /* matrix unit: cycles with an instruction in its pipeline */
    PS_SFPU_BUSY,      /* vector unit: the same */
    PS_MATH_STARTED,   /* matrix-unit instructions issued, all threads */
    PS_MATH_AVAILABLE, /* ... plus cycles one waited at a gate for the matrix unit itself */
    PS_MATH_SCOREBOARD,/* ... of which Dst hazard (scoreboard) holds */
    PS_UNPACK0_BUSY, PS_UNPACK1_BUSY,       /* unpacker busy cycles */
    PS_UNPACK0_FETCH, PS_UNPACK1_FETCH,     /* ... reading L1 (writing SrcA / SrcB) */
    PS_UNPACK0_OWN_WAIT, PS_UNPACK1_OWN_WAIT, /* ... waiting for a SrcA/SrcB bank (ours only) */
    PS_PACK_BUSY,      /* packer busy cycles (summed over packers) */
    PS_THREAD_BASE,
    PS_COUNT = PS_THREAD_BASE + 3 * PS_T_COUNT
};

#define PS_T(th, s) (PS_THREAD_BASE + (th) * PS_T_COUNT + (s))

struct perf_signals { uint64_t v[PS_COUNT]; };

/* The banks in counters.h's order (its counter_bank ids). */
enum perf_bank { PB_INSTRN_THREAD, PB_FPU, PB_TDMA_UNPACK, PB_L1, PB_TDMA_PACK, PB_COUNT };

struct perf_bank_regs {
    uint32_t ref_period, mode, ctrl; /* PERF_CNT_<bank>0/1/2 as last written */
    bool running, started;           /* counting now; started at least once since reset */
    uint64_t start_cycle, stop_cycle;
    struct perf_signals at_start, at_stop;
};

struct perf_counter_regs {
    struct perf_bank_regs bank[PB_COUNT];
    uint32_t mux_ctrl; /* PERF_CNT_MUX_CTRL (bit 4: the L1 bank's signal set) */
};

struct tile;
/* Every signal as it stands for cycles before `end` (end = now + 1 during cycle now: the
 * coprocessor acts first in a cycle, so its outcome for `now` is already decided). */
void perf_signals_at(const struct tile *t, uint64_t end, struct perf_signals *s);
/* The event count a bank reads for counter_sel `sel` from signal differences d over `cycles`
 * reference cycles; *modelled is false for an event tensim has no counterpart for (reads 0). */
uint64_t perf_event(const struct tile *t, enum perf_bank b, unsigned sel,
                    const struct perf_signals *d, uint64_t cycles, bool *modelled);
void perf_counters_reset(struct tile *t);

extern const struct region perf_counter_regions[];
extern const unsigned perf_counter_regions_len;

#endif
