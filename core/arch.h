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
 * exit codes are chosen. TRISC i feeds Tensix thread i. BRISC and NCRISC move data (the NoC);
 * NCRISC sees neither the coprocessor's push, GPRs, PCBufs, mailboxes nor its configuration
 * (BHR:README.md, WHR:README.md; spec/memory-map.md §1). */
enum core_id { CORE_TRISC0, CORE_TRISC1, CORE_TRISC2, CORE_BRISC, CORE_NCRISC, NUM_CORES };
/* "TRISC0" ... "BRISC", "NCRISC", or "?" */
const char *core_name(int id);
#define NUM_THREADS 3

/* The timing parameters of core/timing.def, one struct per group; each row gives its source. */
#define TIMING_rv_rv(f) unsigned f;
#define TIMING_rv_pack(f)
#define TIMING_rv_unpack(f)
#define TIMING_rv_replay(f)
#define TIMING_pack_rv(f)
#define TIMING_pack_pack(f) unsigned f;
#define TIMING_pack_unpack(f)
#define TIMING_pack_replay(f)
#define TIMING_unpack_rv(f)
#define TIMING_unpack_pack(f)
#define TIMING_unpack_unpack(f) unsigned f;
#define TIMING_unpack_replay(f)
#define TIMING_replay_rv(f)
#define TIMING_replay_pack(f)
#define TIMING_replay_unpack(f)
#define TIMING_replay_replay(f) unsigned f;

/* RISC-V core and memory path, in core cycles (group rv) */
struct rv_timing {
#define TIMING(g, f, bh, wh, min, max, source, checked) TIMING_rv_##g(f)
#include "timing.def"
#undef TIMING
};

/* Packer (group pack): see core/timing.def for how a PACR's time follows from them */
struct pack_timing {
#define TIMING(g, f, bh, wh, min, max, source, checked) TIMING_pack_##g(f)
#include "timing.def"
#undef TIMING
};

/* Unpacker L1 fetch (group unpack; units/unpack_timing.c) */
struct unpack_timing {
#define TIMING(g, f, bh, wh, min, max, source, checked) TIMING_unpack_##g(f)
#include "timing.def"
#undef TIMING
};

/* Replay expander (group replay; sync/replay.c) */
struct replay_timing {
#define TIMING(g, f, bh, wh, min, max, source, checked) TIMING_replay_##g(f)
#include "timing.def"
#undef TIMING
};

struct arch {
    enum arch_id id;
    const char *name;
    uint32_t l1_size;
    uint32_t local_ram_size[NUM_CORES];
    uint32_t reset_pc[NUM_CORES];
    uint8_t l1_port[NUM_CORES]; /* which of the tile's L1_RISC_PORTS each core's L1 accesses use */
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
    struct pack_timing pack;
    struct unpack_timing unpack;
    struct replay_timing replay;
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
