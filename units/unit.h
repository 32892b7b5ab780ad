/* The interface every backend unit offers the Wait Gate (shared/design.md "Unit interface").
 *
 * The gate never special-cases a unit: for the instruction at its head it asks the unit
 * `can_accept` (which answers with a stall reason), and when every check passes it calls
 * `accept`, where the unit performs the instruction's functional effect. A unit's occupancy and
 * latency are timestamps kept by the unit; `next_event` tells the scheduler when the unit will
 * next change something another agent can observe. */
#ifndef TENSIM_UNITS_UNIT_H
#define TENSIM_UNITS_UNIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tensix_isa.h"

struct tile;
struct region;

/* Why the instruction at a thread's Wait Gate did not issue this cycle (exactly one per thread
 * per cycle). X(name, json key) */
#define GATE_STALL_REASONS(X)                                                         \
    X(GS_NONE, "none")                                                                \
    X(GS_STALLWAIT, "stallwait")     /* latched STALLWAIT; detail: condition bits */  \
    X(GS_SEMWAIT, "semwait")         /* latched SEMWAIT; detail: semaphore mask */    \
    X(GS_WAIT_RELEASE, "wait_release") /* conditions met, latch clears next cycle */  \
    X(GS_UNIT_BUSY, "unit_busy")     /* detail: enum tt_unit */                       \
    X(GS_ARBITRATION, "arbitration") /* another thread won the unit this cycle */     \
    X(GS_THCON, "thcon")             /* this thread's ThCon instruction still running */ \
    X(GS_MUTEX, "mutex")             /* detail: mutex index */                        \
    X(GS_SYNC_SLOT, "sync_slot")     /* the Sync unit's one-per-cycle slot is taken */ \
    X(GS_HAZARD, "hazard")           /* detail: unit reporting the hazard */            \
    X(GS_DEST_HAZARD, "dest_hazard") /* Dst block written < its latency ago; detail:    \
                                        8-row block number (DstBits row / 8) */         \
    X(GS_SRC_NOT_VALID, "src_not_valid") /* bank not owned by the matrix unit; detail:  \
                                            0 SrcA, 1 SrcB */                           \
    X(GS_STOPPED, "stopped")         /* the run stopped (an error) in this cycle before \
                                        the thread's instruction could issue */

#define GATE_DETAIL_MAX 128 /* condition bits, semaphores, mutexes, units, Dst blocks: all fit */

enum gate_stall {
#define X(name, key) name,
    GATE_STALL_REASONS(X)
#undef X
    GS_COUNT
};

const char *gate_stall_key(enum gate_stall s);

/* Resources that accept a limited number of instructions per cycle from all threads together.
 * When several threads could issue to the same resource in one cycle, one wins (round robin
 * from the thread after the last winner) and the others stall with GS_ARBITRATION. */
enum gate_resource {
    RES_NONE,      /* per-thread units (Misc): no limit across threads */
    RES_SYNC_SLOT, /* SEMINIT/SEMPOST/SEMGET/STALLWAIT/SEMWAIT/STREAMWAIT: one per cycle */
    RES_MUTEX0,    /* ATGETM/ATRELM: one per mutex per cycle, RES_MUTEX0 + index */
    RES_FPU = RES_MUTEX0 + 8,
    RES_SFPU,
    RES_CFG,
    RES_THCON,
    RES_UNPACK,
    RES_PACK,
    RES_XMOV,
    RES_COUNT
};

/* What an instruction of one unit does to another unit's state. The sender raises it through the
 * tile (tile_signal), which hands it to every unit with a `signal` function: no unit names
 * another. */
enum unit_signal {
    SIG_CLEAR_EXP_HISTOGRAMS, /* CLREXPHIST: every packer's exponent histogram (WH:CLREXPHIST.md) */
    SIG_CONTEXT_COUNTER_RESET, /* ThreadConfig CfgContextCntReset landed: unpacker a, thread b
                                  (WH:BackendConfiguration.md) */
    SIG_PARTIAL_ADDR_MOD, /* SFPLOAD/SFPSTORE: ApplyPartialAddrMod(AddrMod b) to thread a's RWCs
                             (WH:RWCs.md; the RWCs' owner is the matrix unit) */
    SIG_PRNG_SEED,        /* Config.PRNG_SEED_Seed_Val was written with a: reseed every PRNG
                             (WH:BackendConfiguration.md "Special cases") */
};

/* What one unit reads of another unit's state, asked through the tile (tile_query): 128 bits. */
enum unit_query {
    Q_EXP_HISTOGRAM, /* packer a's exponent histogram, counters 16 * b .. 16 * b + 15 (b 0 or 1) */
    Q_EXP_HISTOGRAM_MAX, /* packer 0's largest exponent seen */
    Q_RWC_DST, /* thread a's RWC.Dst in v[0] (WH:RWCs.md; SFPLOAD/SFPSTORE addressing) */
    /* Cycle counts for the performance counters (core/perf_counters.c): v[0..1] the cycles
     * counted so far (64 bits, low word first), v[2..3] a cycle that qualifies them (below). */
    Q_PERF_FPU_BUSY,    /* matrix unit busy; v[2..3]: booked up to this cycle */
    Q_PERF_SFPU_BUSY,   /* vector unit busy; the same */
    Q_PERF_UNPACK,      /* unpacker a: b = 0 busy, 1 fetching, 2 waiting for a bank; v[2..3]:
                           the start of a still-open interval, or UINT64_MAX */
    Q_PERF_PACK_BUSY,   /* packer a busy; v[2..3]: as Q_PERF_UNPACK */
};

/* Q_PERF_* answers: two 64-bit values in v[0..3]. */
static inline void unit_perf_answer(uint32_t v[4], uint64_t counted, uint64_t mark)
{
    v[0] = (uint32_t)counted, v[1] = (uint32_t)(counted >> 32);
    v[2] = (uint32_t)mark, v[3] = (uint32_t)(mark >> 32);
}

/* A backend unit's functions (shared/design.md "Unit interface"). The unit's properties (tick
 * order, block bits, queue-status bits, which STALLWAIT condition it answers, trace tracks, stats
 * name) are its row in units/registry.h. Every function but can_accept/resource/accept is
 * optional (NULL). */
struct unit_desc {
    const char *name;
    /* Power-on state of the unit's part of the tile. */
    void (*reset)(struct tile *t);
    /* May thread `th` hand `word` to the unit this cycle? GS_NONE, or the reason (and a
     * reason-specific detail). Must not change state: the gate may ask and then not issue. */
    enum gate_stall (*can_accept)(const struct tile *t, unsigned th, uint32_t word,
                                  const struct tt_form *f, uint32_t *detail);
    /* Which shared resource the instruction competes for (enum gate_resource). A function of
     * the word and its form alone: the gate asks once per word it decodes and keeps the answer
     * with it (struct tensix_thread dec.res). */
    unsigned (*resource)(const struct tile *t, unsigned th, uint32_t word, const struct tt_form *f);
    /* The instruction issues at cycle t->now. Returns false after raising an error. */
    bool (*accept)(struct tile *t, unsigned th, uint32_t word, const struct tt_form *f);
    /* Called at the start of every coprocessor cycle, before any gate looks: retire work whose
     * completion cycle has come (clear busy flags, write results back). */
    void (*tick)(struct tile *t);
    /* Would `tick` do more than an idle cycle's bookkeeping (work queued, results or a finish
     * still to come)? Required with `tick`. Its idle test, without the tick's side effects: the
     * coprocessor stops calling a unit's tick once this is false, and calls it again from the
     * cycle after an instruction of the unit issues, or after tile_wake_tick (core/tile.h) for
     * work that arrives another way. An idle tick's bookkeeping must therefore be redone, or
     * made unnecessary, where work arrives. The sanitizer build checks the rule every cycle
     * (TENSIM_TICK_CHECK in sync/gate.c). */
    bool (*active)(const struct tile *t);
    /* The earliest cycle after t->now at which the unit will change something a gate or another
     * agent can observe, or CYCLE_NEVER. The coprocessor sleeps until the earliest of these
     * when a cycle passes with no progress: a unit that says CYCLE_NEVER is idle. */
    uint64_t (*next_event)(const struct tile *t);
    /* 1 + the last cycle in which the unit finished work it had been doing (0: none): the run
     * does not end before it. */
    uint64_t (*last_busy)(const struct tile *t);
    /* Does instance `i` of the unit still hold an instruction of thread th? Answers the
     * STALLWAIT condition of the unit's row (+ i), and drain/queue status per its flags. */
    bool (*holds)(const struct tile *t, unsigned th, unsigned i);
    /* Appends what the unit is stuck on to the error detail (deadlock and cycle-limit reports). */
    void (*describe)(struct tile *t);
    /* Its lines of the end-of-run report (nothing when it did no work). */
    void (*report)(const struct tile *t, FILE *f);
    /* Another unit's instruction acts on this unit's state (enum unit_signal, two arguments). */
    void (*signal)(struct tile *t, enum unit_signal s, unsigned a, unsigned b);
    /* Answers a query (enum unit_query) of another unit: true when it did, into v[0..3]. */
    bool (*query)(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4]);
    /* Its rows of the address map (mem/map.h), registered when the tile is made. */
    const struct region *regions;
    unsigned nregions;
    /* Its fields of the stats JSON "units" entry, after "instructions" (each ", \"key\": ..."). */
    void (*stats_json)(const struct tile *t, FILE *f);
    /* The name of its trace track i, when its tracks are not "<track name> <i>" (NULL). */
    const char *(*track_label)(unsigned i);
};

/* STALLWAIT conditions by meaning ("keep waiting while ..."); each architecture numbers them
 * differently (spec/sync-timing.md §3.2), through struct arch's stall_cond_map. */
enum wait_cond {
    WC_THCON_MEM,   /* ThCon memory requests outstanding for this thread */
    WC_UNPACK0,     /* this thread has an instruction in unpacker 0 */
    WC_UNPACK1,
    WC_PACK0,       /* ... in packer 0 (BH: the packer) */
    WC_PACK1,
    WC_PACK2,
    WC_PACK3,
    WC_FPU,         /* ... in the matrix unit */
    WC_SRCA_UNPACK, /* SrcA[unpacker bank] not owned by the unpackers */
    WC_SRCB_UNPACK,
    WC_SRCA_FPU,    /* SrcA[matrix unit bank] not owned by the matrix unit */
    WC_SRCB_FPU,
    WC_MOVER,       /* mover has requests outstanding */
    WC_RISCV_MMIO,  /* this thread's RISC-V has an unprocessed GPR/config/TDMA-RISC access */
    WC_SFPU,        /* ... in the vector unit */
    WC_CFG,         /* any thread has an instruction in the configuration unit (BH) */
    WC_COUNT
};

#endif
