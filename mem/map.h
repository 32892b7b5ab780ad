/* The address map seen by the baby RISC-V cores (spec/memory-map.md §1, BHR:README.md).
 *
 * L1 and the core's own local data RAM are handled inline by the core (riscv/core.c); every
 * other address goes through the region table here. A region that exists on silicon but is not
 * modelled yet answers with "unimplemented region <name>", never with a silent zero. */
#ifndef TENSIM_MEM_MAP_H
#define TENSIM_MEM_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "../riscv/core.h"

struct tile;

enum region_kind {
    REG_L1,
    REG_LOCAL,        /* own local data RAM at MEM_LOCAL_BASE */
    REG_LOCAL_SLOW,   /* another core's local RAM through the shared slow mapping (BH) */
    REG_INSTRN_PUSH,  /* INSTRN_BUF_BASE / INSTRN1 / INSTRN2 */
    REG_TILE_CTRL,    /* tile control / debug / status (wall clock implemented) */
    REG_SEMAPHORE,    /* Tensix semaphores 0..7 */
    REG_GPR,          /* Tensix GPRs: TRISC i sees GPRs[i], BRISC all three banks */
    REG_TTSYNC,       /* Manual TTSync: CoprocessorDoneCheck, MOPExpanderDoneCheck */
    REG_PCBUF,        /* PCBuf (arg: which one, for BRISC) */
    REG_DEST,         /* the Dst register file window (Blackhole TRISCs) */
    REG_MOP_CFG,      /* MOP expander configuration of the core's thread (write-only) */
    REG_CONFIG,       /* Tensix backend configuration (units/thcfg.c) */
    REG_UNIMPLEMENTED /* exists on silicon, not modelled yet */
};

struct region {
    uint32_t base, last; /* inclusive range */
    const char *name;
    enum region_kind kind;
    uint8_t load_latency; /* minimum load latency in cycles (BHR:README.md load table) */
    uint8_t cores;        /* bit per enum core_id that can see the region */
    uint8_t archs;        /* 1 = Blackhole, 2 = Wormhole */
    uint8_t arg;          /* kind-specific: owning core of a slow local-RAM window */
};

/* Region containing addr for this core and architecture, or NULL (unmapped). */
const struct region *map_find(const struct tile *t, int core, uint32_t addr);

enum mmio_status { MMIO_OK, MMIO_BLOCK, MMIO_ERROR };

/* Accesses outside L1 and the fast local RAM. `size` is 1, 2 or 4 and addr is aligned.
 * Loads return the latency in *latency. MMIO_BLOCK: the core must wait (its wait fields are
 * set) and retry the instruction when woken. MMIO_ERROR: an error was raised in the tile. */
enum mmio_status mmio_load(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t *val,
                           unsigned *latency);
enum mmio_status mmio_store(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t val);

/* 32-bit MMIO accesses made by the coprocessor's Scalar unit for thread th (LOADREG, STOREREG,
 * STOREIND MMIO form) through the same region table. Unmodelled regions raise "unimplemented
 * region <name>"; the value of a load is taken at once (the caller delays its delivery). */
enum mmio_status tensix_mmio_load(struct tile *t, unsigned th, uint32_t addr, uint32_t *val);
enum mmio_status tensix_mmio_store(struct tile *t, unsigned th, uint32_t addr, uint32_t val);

/* Push Tensix instruction words from core `core` as one group (a fused .ttinsn group or a
 * single store). MMIO_BLOCK when the FIFO cannot take them this cycle. */
enum mmio_status tensix_push(struct tile *t, int core, unsigned thread, const uint32_t *w,
                             unsigned n);

/* PCBuf accesses (BHR:PCBufs.md) and the re-check of a BRISC read waiting for "TRISC idle". */
enum mmio_status pcbuf_load(struct tile *t, int core, unsigned i, uint32_t *val);
enum mmio_status pcbuf_store(struct tile *t, unsigned i, uint32_t val);
void pcbuf_recheck(struct tile *t);
/* Has the Manual TTSync condition `w` (WAIT_COPROC_DONE or WAIT_MOP_DONE) of thread th come? */
bool ttsync_done(const struct tile *t, enum core_wait w, unsigned th);

#endif
