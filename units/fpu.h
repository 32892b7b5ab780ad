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

/* The configuration an instruction of thread th reads: Config[StateID] and ThreadConfig[th]. */
struct fpu_cfg {
    unsigned bank;
    /* Src formats. SrcA: ALU_FORMAT_SPEC_REG_SrcA_val if overridden, else REG0_SrcA; SrcB:
     * REG1_SrcB. On Blackhole each is the implied format of the matrix unit's bank instead
     * (what the unpacker wrote into it) unless ThreadConfig DISABLE_IMPLIED_SRCA/SRCB_FMT is
     * set; srcb_side_fmt is what MOVD2B and MOVB2D call SrcAFmt: the SrcB bank's implied
     * format (gated by the SrcA bit, as ttsim has it). SRC_FMT_UNKNOWN: handed over by
     * Blackhole's SETDVALID. docs/numerics.md "Blackhole implied formats". */
    unsigned srca_fmt, srcb_fmt, srcb_side_fmt;
    unsigned srca_cfg_fmt, srcb_cfg_fmt; /* the Config formats, before the implied ones */
    bool fp16a_force;           /* ThreadConfig FP16A_FORCE_Enable */
    bool int8_math, fp32_enabled, zero_flag_disabled_src;
    unsigned math_offset;       /* ThreadConfig DEST_TARGET_REG_CFG_MATH_Offset */
    unsigned regw_base;         /* DEST_REGW_BASE_Base */
    unsigned fidelity_base;     /* ThreadConfig FIDELITY_BASE_Phase */
    bool clr_dvalid_disable[2]; /* ThreadConfig CLR_DVALID_SrcA/SrcB_Disable */
    struct dest_map dst_map;    /* BH DEST_ACCESS_CFG (global), DBG_FEATURE_DISABLE bit 11 */
    bool zeroacc_absolute;      /* BH DEST_ACCESS_CFG_zeroacc_absolute_tile_mode */
};

/* fpu.c's read_cfg remembers the configuration it computed for each thread with the words it
 * read (where and what), and gives it again while each of them, the implied formats of the
 * banks the matrix unit reads and Dst's dst16_on_hi32 are unchanged: the same result for a
 * fraction of the work (it runs twice per instruction, in can_accept and accept; an MVMUL
 * with a plan, below, only checks that the memo holds: at once while no configuration word was
 * written since it last looked, else word by word). Words are named by place (their byte
 * offsets in struct tt_config), not by address, so a copy of a tile stays right. */
#define FPU_MEMO_WORDS 8
struct fpu_cfg_memo {
    bool valid;
    uint8_t nth, ncfg;
    /* each word by its byte offset in struct tt_config (one load to check it) */
    uint32_t th_at[FPU_MEMO_WORDS], cfg_at[FPU_MEMO_WORDS];
    uint16_t th_value[FPU_MEMO_WORDS];                                     /* ThreadConfig */
    uint32_t cfg_value[FPU_MEMO_WORDS];                                    /* Config */
    uint8_t implied[2];
    bool hi16;
    uint32_t serial; /* counts the memo's recomputations: what is made from `cfg` (an MVMUL
                      * plan) holds while the memo holds and this is unchanged */
    uint64_t gen;    /* the configuration's write count (struct tt_config gen) when the words
                      * were last found unchanged: while it is the same, they are */
    struct fpu_cfg cfg;
};

/* An MVMUL word as thread th's instructions last gave it, decoded with what follows from it and
 * read_cfg's configuration (fpu.c plan_for): the gate looks at the same word every cycle it
 * holds and then issues it, and a kernel replays a few words over and over that differ only in
 * their DstRow (MVMULs to several Dst blocks), so can_accept and accept take these instead of
 * decoding and working them out again. It holds while the word is the same but for DstRow and
 * read_cfg's memo holds with the same serial. */
struct fpu_plan {
    uint32_t key, key_mask; /* the word without its DstRow (all else is decoded here) */
    uint8_t dst_lo;         /* DstRow: (word >> dst_lo) & dst_field */
    uint16_t dst_field;
    uint32_t serial;
    bool valid;
    bool fast;              /* accept may take fpu_exec_mvmul: formats known, not INT8 */
    bool d32;               /* UseDst32b */
    bool bcast;             /* BroadcastSrcBRow */
    uint8_t nrows;          /* 8, or 7 with bcast */
    uint8_t srcb_mask;      /* RWC SrcB bits used: 0x38, or 0x3F with bcast */
    uint16_t dst_mask;      /* 0x400 - nrows (WH:MVMUL.md) */
    bool one_block;         /* the Dst rows of an MVMUL lie in one 8-row block (and with d32 the
                             * next): no DEST_ACCESS_CFG swizzle */
    uint8_t cls_a, cls_b;   /* how SrcA and SrcB cells enter the datapath (fpu_math.c op_class) */
    uint8_t addr_mod;       /* the decoded word's AddrMod, FlipSrcA, FlipSrcB */
    bool flip_a, flip_b;
    bool am_fixed;          /* Blackhole: AddrMod names the slot, whose ThreadConfig words are */
    uint16_t am_words[3];   /* these (fpu.c addr_mod_words) */
    uint32_t dst_off;       /* MATH offset + DEST_REGW_BASE: the Dst row less the RWC and DstRow */
    struct dp_mode mode;
    dp_rows_fn *rows_fn;    /* dp_rows_for(simd, mode) */
    dp_rows_dst_fn *dst_fn; /* dp_rows_dst_for(simd, mode) */
};

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
    uint64_t busy_until;                     /* any thread (statistics; unit_desc.last_busy) */
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
        uint64_t key; /* fpu_math.c cache_key: the bank's generation, bank, row, phase, class;
                       * 0 for an empty entry */
    } cols_cache[FPU_COLS_CACHE];
    uint8_t cols_next, cols_last; /* the entry to fill next; the last one that served */
    /* The same for SrcB: the (up to) 8 rows one MVMUL/DOTPV/GAPOOL reads, keyed also by the
     * first row, row broadcast and denormal flushing. */
    struct fpu_rows_cache {
        struct dp_lanes rows[8];
        uint64_t key; /* as cols_cache's, with row broadcast and flushing */
    } rows_cache[FPU_ROWS_CACHE];
    uint8_t rows_next, rows_last;
    struct fpu_cfg_memo cfg_memo[NUM_THREADS]; /* read_cfg's, per thread */
    struct fpu_plan plan[NUM_THREADS];
    enum dp_simd simd; /* the SIMD flavour of the datapath this host runs (dp_simd_best) */
    struct fpu_stats st;
};

/* `holds`: STALLWAIT C4 (BH) / C7 (WH), thread th has an instruction in the pipeline. */
extern const struct unit_desc fpu_unit_desc;


#endif
