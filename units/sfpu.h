/* The Vector unit (SFPU): its architectural state and the instructions built so far
 * (WH/BH:VectorUnit.md, LReg.md; shared/spec/sfpu.md). Owner of these files: the vector-unit work.
 *
 * Built (docs/sfpu.md): the state; lane predication; SFPNOP, SFPENCC, SFPCONFIG (sfpu.c); the
 * condition codes and Blackhole's SFPLE, SFPGT (sfpu_cc.c); the simple instructions
 * (sfpu_simple.c); SFPLOAD, SFPSTORE (sfpu_ldst.c); the MAD sub-unit (sfpu_mad.c, sfpu_lut.c);
 * rounding and conversions (sfpu_round.c); lane movement (sfpu_move.c); the VD >= 12 backdoor
 * into LoadMacroConfig. SFPLOADMACRO stops the run as unimplemented. One instruction per cycle
 * from all threads together (VectorUnit.md, "Sub-units"); each holds its thread's "SFPU busy"
 * STALLWAIT condition (C11 BH, C14 WH) for its latency. */
#ifndef TENSIM_UNITS_SFPU_H
#define TENSIM_UNITS_SFPU_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arch.h"
#include "unit.h"

#define SFPU_LANES 32
#define SFPU_LREGS 17  /* LReg[0..16] (LReg.md) */
#define SFPU_FLAG_STACK 8

/* LaneConfig bits (SFPCONFIG.md "LaneConfig") */
enum { SFPU_LC_ENABLE_FP16A_INF = 1u << 0, SFPU_LC_DISABLE_BACKDOOR_LOAD = 1u << 1,
       SFPU_LC_ENABLE_DEST_INDEX = 1u << 2, SFPU_LC_CAPTURE_DEFAULT_DEST_INDEX = 1u << 3,
       SFPU_LC_BLOCK_DEST_WR_FROM_SFPU = 1u << 4, SFPU_LC_BLOCK_SFPU_RD_FROM_DEST = 1u << 5,
       SFPU_LC_DEST_RD_COL_EXCHANGE = 1u << 6, SFPU_LC_DEST_WR_COL_EXCHANGE = 1u << 7,
       SFPU_LC_ROW_MASK_SHIFT = 12, SFPU_LC_BITS = 18 };

struct sfpu_flag_entry {
    bool lane_flags, use_lane_flags;
};

/* LoadMacroConfig of one lane (SFPLOADMACRO.md): Misc is 12 bits. */
struct sfpu_macro_config {
    uint32_t misc;
    uint32_t sequence[4];
    uint32_t instruction_template[4];
};

struct sfpu_state {
    uint32_t lreg[SFPU_LREGS][SFPU_LANES];
    bool lane_flags[SFPU_LANES];     /* LaneFlags (VectorUnit.md "Lane Predication Masks") */
    bool use_lane_flags[SFPU_LANES]; /* UseLaneFlagsForLaneEnable */
    /* FlagStack (VectorUnit.md): entry 0 the bottom, [flag_depth - 1] the top */
    struct sfpu_flag_entry flag_stack[SFPU_LANES][SFPU_FLAG_STACK];
    uint8_t flag_depth[SFPU_LANES];
    uint32_t lane_config[SFPU_LANES]; /* 18 bits; SFPCONFIG writes columns (Lane & 7) */
    uint32_t prng[SFPU_LANES];        /* each lane's PRNG state (VectorUnit.md "PRNG") */
    struct sfpu_macro_config macro[SFPU_LANES];
    uint64_t thread_busy_until[NUM_THREADS];      /* the thread has an instruction in flight */
    uint64_t busy_until;                          /* any thread */
    uint64_t dest_blocked_until; /* the Dst blocks SFPSTORE wrote are all readable from here */
    struct {
        uint64_t insns, busy_cycles;
    } st;
    /* Wormhole's SFPSHFT2 SHFLSHR1 bug (WH:SFPSHFT2.md): what the last SHFLROR1 or
     * SHFLROR1_AND_COPY4 rotated into each lane (units/sfpu_move.c) */
    uint32_t shfl_ror1_latch[SFPU_LANES];
};

/* `holds`: the thread's "SFPU busy" STALLWAIT condition. */
extern const struct unit_desc sfpu_unit_desc;

/* IsLaneEnabled (VectorUnit.md "Lane Predication Masks"). */
bool sfpu_lane_enabled(const struct sfpu_state *s, unsigned lane);

#endif
