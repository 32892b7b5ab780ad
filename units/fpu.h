/* The Matrix Unit (FPU) (WH:MatrixUnit.md; Blackhole has no page of its own and tensim takes the
 * Wormhole pages with Blackhole's encodings): its instructions, the per-thread RWCs and ADDR_MOD
 * slots, SrcA/SrcB bank hand-over, the Dst read-after-write hazard and the follow-up
 * restrictions of the data-movement instructions.
 *
 * Files: fpu.c (the unit interface, decoding, RWCs, timing), fpu_math.c (MVMUL, DOTPV, GAPOOL,
 * GMPOOL, ELWMUL, ELWADD, ELWSUB), fpu_move.c (MOV*, ZEROACC, ZEROSRC, SHIFTXA/B, TRNSPSRCB),
 * fpu_numerics.c (exact accumulation and the rounding into Dst formats). docs/fpu.md lists every
 * numeric rule and docs/timing-model.md "Matrix unit (FPU)" every latency, with their sources.
 *
 * The functional effect of an instruction happens in the cycle it issues (as for the other
 * units); its latency is what other observers see: the Dst block it writes cannot be read by a
 * matrix-unit instruction until issue + latency, and STALLWAIT's "matrix unit busy" condition
 * (BH C4, WH C7) holds for the thread until then. */
#ifndef TENSIM_UNITS_FPU_H
#define TENSIM_UNITS_FPU_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arch.h"
#include "dest.h"
#include "fpu_datapath.h"
#include "unit.h"

#define FPU_COLS_CACHE 8                /* SrcA faces x phases kept taken apart */
#define FPU_ROWS_CACHE 8                /* SrcB row groups x phases kept taken apart */

/* RWCs (WH:RWCs.md), one set per Tensix thread. Widths: Dst 10 bits, SrcA/SrcB 6, FidelityPhase
 * 2, ExtraAddrModBit 1; every update wraps at the width. */
struct fpu_rwc {
    uint16_t dst, dst_cr;
    uint16_t srca, srca_cr, srcb, srcb_cr;
    uint8_t fidelity;
    uint8_t extra_addr_mod_bit;
};

struct fpu_stats {
    uint64_t issued;          /* instructions accepted (one per cycle at most) */
    uint64_t busy_cycles;     /* cycles with at least one instruction in the pipeline */
    uint64_t mul_phase[4];    /* MVMUL/DOTPV/GAPOOL/ELWMUL issued, by fidelity phase */
};

struct fpu_state {
    bool warned_implied; /* --unpredictable=warn has reported an unknown implied format */
    struct fpu_rwc rwc[NUM_THREADS];
    uint64_t thread_busy_until[NUM_THREADS]; /* the thread has an instruction in the pipeline */
    uint64_t busy_until;                     /* any thread (statistics) */
    uint64_t shiftxb_until;   /* SHIFTXB: nothing is accepted before this cycle */
    uint64_t movx2a_until;    /* MOVD2A/MOVB2A: only MOVD2A and MOVB2A before this cycle */
    uint64_t movd2b_until;    /* MOVD2B: only MOVD2B before this cycle */
    uint64_t mov2d_until;     /* MOVA2D/MOVB2D/MOVDBGA2D: the listed Dst readers wait */
    uint8_t last_srca_row;    /* SHIFTXA's input block (WH:SHIFTXA.md hardware bug) */
    /* SrcA operands of recent MVMUL/DOTPV/GAPOOLs taken apart (fpu_math.c): an entry serves
     * while its bank's cells are unchanged (src_bank.gen). A kernel walks a few SrcA faces
     * over and over: one entry per face and phase. */
    struct fpu_cols_cache {
        struct dp_cols cols;
        uint32_t gen;
        uint8_t valid, bank, row, phase, cls;
    } cols_cache[FPU_COLS_CACHE];
    uint8_t cols_next;
    /* The same for SrcB: the (up to) 8 rows one MVMUL/DOTPV/GAPOOL reads, keyed also by the
     * first row, row broadcast and denormal flushing. */
    struct fpu_rows_cache {
        struct dp_lanes rows[8];
        uint32_t gen;
        uint8_t valid, bank, row, phase, cls, bcast, flush;
    } rows_cache[FPU_ROWS_CACHE];
    uint8_t rows_next;
    enum dp_simd simd; /* the SIMD flavour of the datapath this host runs (dp_simd_best) */
    struct fpu_stats st;
    uint64_t last_busy; /* 1 + the last cycle an instruction finished (unit_desc.last_busy) */
};

/* `holds`: STALLWAIT C4 (BH) / C7 (WH), thread th has an instruction in the pipeline. */
extern const struct unit_desc fpu_unit_desc;


#endif
