/* The two unpackers (WH:Unpackers/README.md, WH:UNPACR_Regular.md and the UNPACR / UNPACR_NOP
 * pages): unpacker 0 moves datums from L1 to SrcA or Dst, unpacker 1 from L1 to SrcB.
 *
 * Life of an instruction (timing and sources: docs/timing-model.md "Unpackers"; functional
 * notes and choices: docs/unpack.md):
 *  - accept (issue cycle c): everything the address generator works out from configuration and
 *    ADCs is computed and kept in a plan (contexts, tile descriptor, input and output addresses,
 *    datum counts, modes); the ADC increments, the context counter and the per-thread SrcRow
 *    advance then, so the next instruction sees them. A regular UNPACR then spends its start-up
 *    cycles (2, or more for compressed input), during which its thread and every other
 *    unpacker instruction wait at the Wait Gate.
 *  - each unpacker runs its instructions in order. An instruction starts when it reaches the
 *    head and its start-up is over; a regular UNPACR (or ZEROSRC) that needs a SrcA/SrcB bank
 *    the Matrix Unit owns waits there (counted as an ownership wait). When it starts, its datums
 *    are read from L1, converted and written (SrcA/SrcB/Dst change then); it then keeps the
 *    unpacker busy for its L1 fetch time: 128-bit reads at x1, x2 or x4 (Wormhole 1, 2, 4 per
 *    cycle, the two unpackers sharing L1 per the documented interference table; Blackhole,
 *    calibrated, 2, 4, 8 with no interference: core/timing.def unpack.reads_x1).
 *  - at completion, FlipSrc hands the bank to the Matrix Unit, and the instruction leaves the
 *    pipeline (STALLWAIT C1/C2 and FLUSHDMA stop seeing it).
 * No allocation: the queues and the scratch below are part of struct tile. */
#ifndef TENSIM_UNITS_UNPACK_H
#define TENSIM_UNITS_UNPACK_H

#include <stdbool.h>
#include <stdint.h>

#include "dest.h"
#include "formats.h"
#include "unit.h"

#define NUM_UNPACKERS 2
/* Instructions one unpacker holds (in start-up, waiting or fetching). Not documented; see
 * docs/timing-model.md. A full queue holds the next instruction at the gate (unit_busy). */
#define UNPACK_QUEUE 8

/* Everything an UNPACR needs once it reaches the head of its unpacker; fixed at issue. L1
 * addresses are in bits (datums) or sixteenths of a byte (exponents) so that BFP4/BFP2 and the
 * model's fractional pointers stay integral. */
struct unpack_plan {
    uint8_t in_fmt, out_fmt;       /* 4-bit field codes */
    bool dst32;                    /* OutDataFormat takes the Dst32b view when unpacking to Dst */
    struct fmt_unpack_mode mode;   /* to_dst, int8_unsigned, fp8_e4m3 */
    bool uncompressed, tilize, transpose, all_zero, flip_src, set_ovrd, has_exp;
    uint8_t datum_bits;            /* 32, 16, 8, 4 or 2 */
    uint8_t forced_exp;            /* FORCED_SHARED_EXP when Force_shared_exp */
    uint8_t col_shift;             /* 0..15 */
    uint8_t upsample_zeroes;       /* 0, 1, 3 or 7 */
    bool upsample_interleave;
    uint8_t src_row;               /* SrcRow[thread] as it was at issue */
    uint64_t datum_bit;            /* InAddr_Datums * 8 */
    uint64_t delta_bit;            /* InAddr_Deltas * 8 (compressed only) */
    uint64_t exp_pos;              /* InAddr_Exponents * 16 (has_exp only) */
    uint64_t row_stride_bits;      /* RowStride * 8 */
    uint8_t row_datums;            /* datums per input row: 16; 32 for BH tilize of >= 16-bit data */
    uint64_t limit_bytes, fifo_bytes; /* Unpack_limit_address * 16, Unpack_fifo_size * 16 */
    uint32_t input_num;            /* InputNumDatums */
    uint32_t decompress_drop;      /* DecompressDrop */
    uint32_t decompress_num;       /* DecompressNumDatums */
    uint32_t out_addr;             /* OutAddr after scaling and context offset */
};

enum unpack_kind {
    UK_UNPACR,     /* regular UNPACR */
    UK_CLEAR,      /* ZEROSRC (WH UNPACR_NOP mode 1; BH Unpack_Pop 1), optionally + SETDVALID */
    UK_SETDVALID,  /* UNPACR_NOP SETDVALID (WH mode 7; BH Unpack_Pop 2 with Set_Dvalid) */
    UK_SETREG,     /* UNPACR_NOP SETREG */
    UK_OCCUPY,     /* UNPACR_NOP Nop, increment-context-counter and flush-cache forms */
};

enum unpack_state_kind {
    US_PENDING,  /* in start-up, or behind an older instruction */
    US_BLOCKED,  /* at the head, waiting for its bank to be owned by the unpackers */
    US_FETCHING, /* started: reading L1 (`rem` 128-bit reads left) */
    US_RUNNING,  /* started, fixed duration: done at `done_at` */
};

struct unpack_entry {
    uint8_t kind, state, thread;
    uint8_t want;           /* speed it asks for: x1, x2 or x4 (1, 2, 4; UNPACR) */
    uint64_t started_at;    /* cycle it started (trace) */
    uint64_t ready_at;      /* earliest start: after start-up */
    uint64_t blocked_since; /* US_BLOCKED: since when */
    uint64_t done_at;       /* US_RUNNING */
    uint64_t rem;           /* US_FETCHING: 128-bit reads left */
    /* UK_CLEAR */
    bool wait_like_unpacr, both_banks, then_setdvalid;
    uint8_t dvalid_fmt;     /* BH: THCON_SECn_REG2_Out_data_format at issue (implied format) */
    uint32_t clear_val;
    /* UK_SETREG */
    uint32_t setreg_word;
    /* --lint: the instruction and its push, for a finding when the entry runs */
    uint32_t word;
    uint64_t origin;
    struct unpack_plan p; /* UK_UNPACR */
};

struct unpacker {
    struct unpack_entry q[UNPACK_QUEUE]; /* ring, oldest at head */
    unsigned head, count;
    uint8_t context_counter[3]; /* Unpackers[u].ContextCounter[thread] (3 bits) */
    uint32_t setreg_acc;        /* Unpackers[u].SetRegAcc (17 bits) */
    uint64_t busy_since;        /* cycle the queue last became non-empty */
    struct {
        uint64_t insns;          /* instructions accepted */
        uint64_t busy_cycles;    /* cycles with at least one instruction in the unpacker */
        uint64_t l1_reads;       /* 128-bit datum/RLE reads (the bandwidth-limited port) */
        uint64_t exp_reads;      /* 128-bit BFP exponent reads (separate port, not limited) */
        uint64_t datums;         /* datums read from L1 */
        uint64_t fetch_cycles;   /* cycles spent fetching from L1 */
        uint64_t ownership_wait_cycles; /* cycles the head waited for its SrcA/SrcB bank */
        uint64_t ownership_wait_by_thread[3]; /* ... by the thread of the waiting instruction */
        uint64_t startup_cycles; /* UNPACR start-up cycles */
    } st;
};

struct unpack_state {
    struct unpacker u[NUM_UNPACKERS];
    uint64_t startup_until;   /* no unpacker instruction of any thread starts before this */
    uint64_t credited;        /* fetch progress is accounted for all cycles before this */
    uint16_t dst_cols[DEST_ROWS]; /* scratch: Dst columns written per physical row */
    uint64_t last_busy;           /* 1 + the last cycle an unpacker finished an instruction */
    bool model_loop_only;         /* tests: no fast rows (unpack.c), the model's loop alone */
};

/* `holds`: STALLWAIT C1/C2 and FLUSHDMA, thread th has an instruction anywhere in unpacker i
 * (start-up, queued, waiting for a bank or fetching). `describe`: a line per unpacker that still
 * holds instructions. `signal`: SIG_CONTEXT_COUNTER_RESET (a SETC16 to
 * UNPACK_MISC_CFG_CfgContextCntReset_0/1) resets thread th's context counter of that unpacker. */
extern const struct unit_desc unpack_unit_desc;

#endif
