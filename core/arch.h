/* Per-architecture constants: sizes, addresses, depths and RISC-V timing.
 *
 * Everything that differs between Blackhole and Wormhole B0 lives in one `struct arch` value so
 * the rest of the code asks `tile->arch->...` and never tests the architecture by name.
 * Each number cites the row of shared/spec it comes from (docs/timing-model.md repeats them). */
#ifndef TENSIM_CORE_ARCH_H
#define TENSIM_CORE_ARCH_H

#include <stdbool.h>
#include <stdint.h>

enum arch_id { ARCH_BLACKHOLE, ARCH_WORMHOLE };

/* Cores of one tile, in the fixed order agents advance each cycle and the order in which guest
 * exit codes are chosen. TRISC i feeds Tensix thread i. NCRISC is not modelled (it cannot reach
 * the coprocessor on Blackhole except through L1). */
enum core_id { CORE_TRISC0, CORE_TRISC1, CORE_TRISC2, CORE_BRISC, NUM_CORES };
/* "TRISC0" ... "BRISC", or "?" */
const char *core_name(int id);
#define NUM_THREADS 3

/* RISC-V core timing, in core cycles. "extra" values are cycles added to the one-cycle issue. */
struct rv_timing {
    unsigned mispredict_penalty; /* bubble after a mispredicted branch/jump */
    unsigned mul_latency;        /* result latency of mul*, issue is 1/cycle */
    unsigned div_cycles;         /* div/rem occupancy, general case */
    unsigned div_fast_cycles;    /* div/rem by 0, by 1, INT_MIN/-1 */
    unsigned csr_cycles;         /* any Zicsr instruction */
    unsigned fence_cycles;       /* fence with an empty store queue */
    unsigned load_local;         /* local data RAM at 0xFFB00000 */
    unsigned load_l1_hit;        /* L1 load that hits the L0 data cache (0 = no cache) */
    unsigned load_l1;            /* L1 load, cache miss or no cache */
    unsigned amo_l1;             /* Zaamo on L1 */
    unsigned store_l1_cycles;    /* L1 drain cost of one non-full store-queue entry */
    unsigned store_l1_full;      /* L1 drain cost of an entry covering a whole 16-byte line */
    unsigned store_queue_depth;
    unsigned store_merge_window; /* cfg0.StMergeTimer reset value */
    unsigned l0d_lines;          /* L0 data cache lines of 16 bytes (0 = none) */
};

struct arch {
    enum arch_id id;
    const char *name;
    uint32_t l1_size;
    uint32_t local_ram_size[NUM_CORES];
    uint32_t reset_pc[NUM_CORES];
    unsigned fifo1_depth[NUM_THREADS];
    /* Blackhole FIFO1 accepts a push only while it holds at most this many entries, so a single
     * push fills it to fifo1_accept_limit + 1 and a fused group of 4 to fifo1_accept_limit + 4. */
    unsigned fifo1_accept_limit;
    unsigned ttinsn_fuse_max; /* adjacent .ttinsn words pushed in one cycle (1 = no fusion) */
    bool has_zaamo;
    /* STALLWAIT: ConditionMask width, the mask used when it is 0, and bit -> enum wait_cond */
    unsigned stall_cond_bits;
    unsigned stall_cond_default;
    uint8_t stall_cond_map[16];
    struct rv_timing rv;
};

const struct arch *arch_get(enum arch_id id);
/* "blackhole"/"bh" or "wormhole"/"wh"; NULL if unknown. */
const struct arch *arch_by_name(const char *name);

/* Tile-level addresses shared by both architectures (spec/memory-map.md §1). */
#define MEM_LOCAL_BASE 0xFFB00000u
#define MEM_MOP_CFG_BASE 0xFFB80000u
#define MEM_INSTRN_BUF_BASE 0xFFE40000u
#define MEM_INSTRN_BUF_SIZE 0x00030000u /* 0xFFE40000, 0xFFE50000, 0xFFE60000 */

#endif
