/* The Vector unit (SFPU): its architectural state and the instructions built so far
 * (WH/BH:VectorUnit.md, LReg.md; shared/spec/sfpu.md). Owner of these files: the vector-unit work.
 *
 * Built (docs/sfpu.md): the state; lane predication; SFPNOP, SFPENCC, SFPCONFIG (sfpu.c); the
 * condition codes and Blackhole's SFPLE, SFPGT (sfpu_cc.c); the simple instructions
 * (sfpu_simple.c); SFPLOAD, SFPSTORE (sfpu_ldst.c); the MAD sub-unit (sfpu_mad.c, sfpu_lut.c);
 * rounding and conversions (sfpu_round.c); lane movement (sfpu_move.c); the VD >= 12 backdoor
 * into LoadMacroConfig; SFPLOADMACRO and the timing rules (sfpu_macro.c, sfpu_timing.c). One
 * instruction per cycle from all threads together (VectorUnit.md, "Sub-units"); each holds its
 * thread's "SFPU busy" STALLWAIT condition (C11 BH, C14 WH) for its latency. */
#ifndef TENSIM_UNITS_SFPU_H
#define TENSIM_UNITS_SFPU_H

#include <stdbool.h>
#include <stddef.h>
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

/* ---- timing and SFPLOADMACRO (units/sfpu_timing.c, units/sfpu_macro.c) ---- */

/* The sub-units (VectorUnit.md "Sub-units"), the first four in the order of a LoadMacroConfig
 * Sequence's bytes (SFPLOADMACRO.md). */
enum sfpu_sub { SFPU_SUB_SIMPLE, SFPU_SUB_MAD, SFPU_SUB_ROUND, SFPU_SUB_STORE, SFPU_SUB_LOAD,
                SFPU_SUBS };

/* Operand patterns of the functional models, by field (units/tensix.def TT_SFPU rows): C reads
 * VC, D writes VD, DD also reads VD (as the model's "VB = VD" or "VC = VD"), B has a VB field,
 * A a VA field; the others are named after their instructions. */
enum sfpu_ops { SFPU_OPS_NONE, SFPU_OPS_C, SFPU_OPS_CD, SFPU_OPS_CDD, SFPU_OPS_BCD, SFPU_OPS_ABCD,
                SFPU_OPS_DD, SFPU_OPS_LUT, SFPU_OPS_SWAP, SFPU_OPS_TRANSP, SFPU_OPS_SHFT2,
                SFPU_OPS_CONFIG, SFPU_OPS_LOAD, SFPU_OPS_LOADI, SFPU_OPS_STORE,
                SFPU_OPS_LOADMACRO };

/* Hazards: software rules broken (stopping the run unless --unpredictable=warn) or documented
 * but unwanted outcomes (a warning); counted in the stats (docs/stats-schema.md). */
#define SFPU_HAZARDS(X)                                                                            \
    X(SFPU_HZ_MAD_RESULT, "mad_result")       /* a MAD-class result read the next cycle */         \
    X(SFPU_HZ_SHUFFLE, "shuffle_next")        /* the cycle after an SFPSHFT2 lane shuffle */       \
    X(SFPU_HZ_SWAP, "macro_swap")             /* SFPSWAP's slots in a macro sequence */            \
    X(SFPU_HZ_SIMPLE_ROUND, "simple_round_vd") /* simple + round in one cycle, LReg16 rule */      \
    X(SFPU_HZ_DISCARDED, "discarded")         /* a regular instruction lost its sub-unit */        \
    X(SFPU_HZ_BACKDOOR, "backdoor_change")    /* VD >= 12 right after DISABLE_BACKDOOR_LOAD moved */
enum sfpu_hazard {
#define X(name, key) name,
    SFPU_HAZARDS(X)
#undef X
    SFPU_HZ_COUNT
};

/* One instruction scheduled by SFPLOADMACRO (SFPLOADMACRO.md "ScheduleInstructionForFuture-
 * Execution"): the template with the operands the macro chose. */
#define SFPU_MACRO_QUEUE 8 /* per sub-unit: delays 0..7 */
struct sfpu_macro_op {
    uint64_t at;        /* armed: the cycle it executes */
    uint64_t lm_cycle;  /* the SFPLOADMACRO's cycle, for messages */
    uint32_t word;      /* the instruction template (SFPNOP: none) */
    uint16_t form;      /* enum tt_form_id */
    uint16_t addr;      /* store: the SFPLOADMACRO's Dst address */
    uint8_t vb, vc, vd; /* the operands SFPLOADMACRO gave it (vd 16: LReg[16]) */
    uint8_t mod0;       /* store: its Mod0 */
    uint8_t th;         /* the thread that issued the SFPLOADMACRO */
    uint8_t count;      /* delay counter, while not armed */
    bool live, armed, by_insns; /* by_insns: UnitDelayKind WaitForElapsedInstructions */
    bool use_vb;        /* the Sequence byte's bit 7: the loaded register is VB */
};

/* What constrains the cycle after an instruction (a MAD-class result; SFPSWAP's second cycle,
 * SFPSHFT2's lane shuffles). */
struct sfpu_last {
    uint64_t cycle;      /* it executed in this cycle */
    uint32_t word;
    uint32_t wr, wr_view; /* LRegs written (bit r: LReg[r]); as Blackhole's stall logic sees them */
    uint16_t form;
    uint8_t th;
    bool set, macro;     /* macro: scheduled by SFPLOADMACRO (no interlock) */
};

struct sfpu_timing {
    struct sfpu_macro_op q[SFPU_SUB_LOAD][SFPU_MACRO_QUEUE]; /* simple, MAD, round, store */
    uint64_t q_synced; /* the counters are as of this cycle */
    unsigned nlive;    /* instructions in the queues */
    unsigned nby_insns; /* of them, not armed and counting SFPU instructions (UnitDelayKind) */
    struct sfpu_last mad, shuffle, swap;
    uint64_t backdoor_cycle; /* an SFPCONFIG changed some lane's DISABLE_BACKDOOR_LOAD then */
    bool backdoor_set;
    /* what ran in cycle `cur_cycle`: sub-units with a scheduled op, their VD == 16 */
    uint64_t cur_cycle;
    uint8_t cur_subs, cur_vd16, cur_valid;
    uint64_t cycle_start_at; /* scheduled instructions ran at the start of this cycle (+1) */
    uint16_t cur_form[SFPU_SUBS];
    struct {
        uint64_t hazards[SFPU_HZ_COUNT];
        uint64_t loadmacros, macro_ops[SFPU_SUB_LOAD], macro_max_per_cycle;
    } st;
    bool warned[SFPU_HZ_COUNT];
    /* the instruction sfpu_check is checking: thread and word, for --lint's findings */
    uint8_t chk_th;
    uint32_t chk_w;
};

/* Bytes of struct sfpu_state's architectural state, lreg .. macro (checked below). */
#define SFPU_ARCH_BYTES 4192

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
    struct sfpu_timing tm; /* timing and SFPLOADMACRO (units/sfpu_timing.c, sfpu_macro.c) */
    /* The architectural state above (lreg .. macro) as it was when scheduled instructions ran at
     * the start of cycle `tm.cycle_start_at`: a regular instruction of that cycle reads it
     * (units/sfpu_macro.c, "one cycle, two phases"). */
    uint8_t cycle_start[SFPU_ARCH_BYTES];
};
_Static_assert(offsetof(struct sfpu_state, lreg) == 0 &&
               offsetof(struct sfpu_state, thread_busy_until) == SFPU_ARCH_BYTES,
               "SFPU_ARCH_BYTES covers lreg .. macro exactly");

/* `holds`: the thread's "SFPU busy" STALLWAIT condition. */
extern const struct unit_desc sfpu_unit_desc;

/* IsLaneEnabled (VectorUnit.md "Lane Predication Masks"). */
bool sfpu_lane_enabled(const struct sfpu_state *s, unsigned lane);
/* One lane's architectural state as it stands, read-only (state dumps, trace/state.c). */
struct sfpu_lane_view {
    uint32_t lreg[SFPU_LREGS];
    bool flag, use_flag, enabled; /* LaneFlags, UseLaneFlagsForLaneEnable, IsLaneEnabled */
    uint8_t depth;                /* FlagStack entries */
    uint32_t lane_config;         /* LaneConfig of the lane's column (lane & 7) */
};
struct tile;
void sfpu_lane_view(const struct tile *t, unsigned lane, struct sfpu_lane_view *v);

#endif
