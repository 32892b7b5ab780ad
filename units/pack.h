/* The packers: Dst (or, for packer 0, L1) back to L1 (WH:PACR.md, the WH:Packers pages; Blackhole:
 * BH:PACR.md). Wormhole has four packers, chosen by PACR's PackerMask; Blackhole one packer with
 * four Dst read interfaces, chosen by ReadIntfSel, each reading one 16-datum row. tensim models
 * Blackhole's packer as packer 0 with its configuration (THCON_SEC0_REG1, PCK_EDGE_*, ...);
 * docs/pack.md explains the reading.
 *
 * Life of a PACR (timing: docs/timing-model.md "Packers"): the thread is held until the packer(s)
 * accept it (room in their queues); the input and output address generators run and the ADCs
 * advance at acceptance; after a start-up the instruction reaches the head of its packer, reads
 * Dst, converts, and writes L1 (the functional effect, all at once); it then keeps the packer
 * busy for its L1 write time: Wormhole one 16-byte write per cycle per packer, one per five cycles
 * when accumulating; Blackhole 32 bytes per cycle per enabled read interface, accumulating as
 * fast (struct arch's pack_* parameters), and stays in the pipeline pack.latency cycles more
 * (Blackhole 16, overlapping the next PACR's writes). STALLWAIT's packer-busy condition holds
 * while the thread has an instruction in a packer, or one still in that latency. */
#ifndef TENSIM_UNITS_PACK_H
#define TENSIM_UNITS_PACK_H

#include <stdbool.h>
#include <stdint.h>

#include "unit.h"

#define NUM_PACKERS 4
#define PACK_QUEUE 4 /* instructions one packer holds; not documented (docs/timing-model.md) */
#define PACK_STARTUP 2 /* cycles from acceptance to the first L1 write; not documented */
#define PACK_THREADS 3 /* Tensix threads that give packers work (drain tracking) */

/* One output stream: 16 bytes collected before each aligned write to L1. */
struct pack_stream {
    bool needs_new; /* NeedsNewAddress */
    uint32_t byte_addr;
    uint8_t buf[16];
    unsigned bits; /* bits collected in buf */
};

/* Everything an accepted PACR needs when it starts. */
struct pack_job {
    uint8_t kind;   /* enum pack_kind */
    uint8_t thread;
    uint8_t adc;    /* the thread whose packer ADCs address it */
    uint8_t lanes;  /* Blackhole: enabled read interfaces (write rate); Wormhole: 1 */
    bool zero_write, flush, last;
    bool acc;           /* set when it runs: L1 accumulation (arch->pack.acc_cost per write) */
    bool compress, concat; /* zero compression; the next PACR continues this compression row */
    uint32_t out_rsi;   /* row start index stream address (16-byte units), when compressing */
    uint32_t src_addr;  /* datum index into Dst (or L1 byte address) */
    uint32_t num;       /* InputNumDatums (Wormhole) / datums per row (Blackhole) */
    uint8_t row_step;   /* Blackhole: rows between read interfaces: 1, or 16 in the strided
                         * Dst read mode (DstAccessMode) */
    uint8_t rows_mask;  /* Blackhole: read interfaces; bit i reads row StartRow + row_step * i */
    uint32_t out_data, out_exp; /* output addresses (16-byte units) for a stream that needs one */
    bool has_exp;       /* an exponent stream address was assigned (Out_data_format & 2) */
    uint64_t seq;       /* acceptance order across the packers (PACR_SETREG waits for older) */
    uint32_t setreg_addr, setreg_value;
    uint64_t ready_at, done_at;
    bool started;
};

enum pack_kind { PK_PACR, PK_SETREG };

struct packer {
    struct pack_job q[PACK_QUEUE];
    unsigned head, count;
    struct pack_stream data, exp, rsi;
    /* compression (WH:Packers/Compression.md): the current group of 32 augmented datums, kept
     * until the next one needs a slot so that zeros can still join the last datum's counter */
    uint32_t grp[32];
    uint8_t cnt[32];
    unsigned grp_n;
    uint32_t aug;       /* augmented datums since the row start index stream began */
    uint32_t row_len;   /* augmented datums in the current row */
    bool absorbed;      /* the row's last datum was folded into the previous counter */
    /* BFP block assembly: datums of the current 16-datum block (value bits, see pack.c) */
    uint32_t block[16];
    unsigned block_n;
    /* exponent histogram (WH:Packers/ExponentHistogram.md): saturating bins, the largest exponent */
    uint8_t hist[32];
    uint8_t hist_max;
    /* tile position generator (WH:Packers/EdgeMasking.md) */
    unsigned tpg_x, tpg_y, tpg_z;
    uint64_t busy_since;
    /* per thread: the cycle its last PACR leaves the packer pipeline, arch->pack.latency after
     * its last L1 write slot (STALLWAIT C3 "any stage of the Packer pipeline"; drain) */
    uint64_t drain_until[PACK_THREADS];
    struct {
        uint64_t insns, busy_cycles, write_cycles, l1_writes, datums, acc_writes;
    } st;
};

struct pack_state {
    struct packer p[NUM_PACKERS];
    uint64_t next_seq;  /* acceptance counter */
    uint64_t last_busy; /* 1 + the last cycle a packer finished an instruction */
    bool model_loop_only; /* tests: no fast datums (pack.c), the model's loop alone */
};

/* `holds`: the STALLWAIT packer conditions, thread th has an instruction in packer i. */
extern const struct unit_desc pack_unit_desc;


#endif
