/* The address map seen by the baby RISC-V cores and the coprocessor's Scalar unit
 * (spec/memory-map.md §1, BHR:README.md).
 *
 * L1 and the core's own local data RAM are handled inline by the core (riscv/core.c); every
 * other address goes through the regions registered here. Each region belongs to the module that
 * models the device behind it, which registers its rows with the tile's map at start-up
 * (core/tile.c for the tile's devices, the unit registry for the backend units); this file only
 * finds the row and dispatches (docs/architecture.md "The address map"). A region that exists on
 * silicon but is not modelled yet answers "unimplemented region <name>", never a silent zero. */
#ifndef TENSIM_MEM_MAP_H
#define TENSIM_MEM_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arch.h"

struct tile;
struct region;

enum mmio_status { MMIO_OK, MMIO_BLOCK, MMIO_ERROR };

/* What a region's owner does with an access: size 1, 2 or 4, addr aligned. `core` is the
 * accessing core, or -1 for the coprocessor's Scalar unit (LOADREG, STOREREG, STOREIND MMIO
 * form), which always makes 32-bit accesses and reaches a region only if `tensix` is set.
 * MMIO_BLOCK: the core must wait (its wait fields are set) and retry the instruction when woken.
 * MMIO_ERROR: an error was raised in the tile. */
struct mmio_ops {
    enum mmio_status (*load)(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val);
    enum mmio_status (*store)(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val);
    bool tensix;
    /* A load returns what was last written and changes nothing (no pop, no clock): a polling
     * loop reading it can sleep (riscv/poll_sleep.h). Other loads count as changes (t->epoch). */
    bool plain_loads;
};

#define MAP_T_CORES ((1u << CORE_TRISC0) | (1u << CORE_TRISC1) | (1u << CORE_TRISC2)) /* .cores */
#define MAP_B_CORE (1u << CORE_BRISC)
#define MAP_NC_CORE (1u << CORE_NCRISC)
/* The coprocessor's side: the TRISCs and BRISC, not NCRISC (spec/memory-map.md §1, end). */
#define MAP_TB_CORES (MAP_T_CORES | MAP_B_CORE)
#define MAP_ALL_CORES (MAP_TB_CORES | MAP_NC_CORE)
#define MAP_BH 1u   /* region.archs */
#define MAP_WH 2u
#define MAP_BOTH 3u

struct region {
    uint32_t base, last; /* inclusive range */
    const char *name;
    const struct mmio_ops *ops; /* NULL: exists on silicon, not modelled */
    uint8_t load_latency; /* minimum load latency in cycles (BHR:README.md load table) */
    uint8_t cores;        /* bit per enum core_id that can see the region */
    uint8_t archs;        /* MAP_BH, MAP_WH */
    uint8_t arg;          /* the owner's: which PCBuf, whose local RAM ... */
};

#define MAP_MAX_TABLES 16

/* A tile's map: the owners' tables, searched in the order they were registered (no two rows
 * seen by the same core on the same architecture overlap; test/test_map.c). */
struct mem_map {
    const struct region *table[MAP_MAX_TABLES];
    unsigned len[MAP_MAX_TABLES];
    unsigned ntables;
};

/* Adds an owner's rows; false if the map is full (a build error, checked at start-up). */
bool map_register(struct mem_map *m, const struct region *rows, unsigned n);

/* The regions that exist on silicon with no model behind them yet (mem/map.c). */
extern const struct region map_unmodelled[];
extern const unsigned map_unmodelled_len;

/* Region containing addr for this core and architecture, or NULL (unmapped). L1 and the core's
 * own local data RAM answer with rows of their own (no ops: the core handles them inline). */
const struct region *map_find(const struct tile *t, int core, uint32_t addr);

/* Accesses outside L1 and the fast local RAM. Loads return the latency in *latency. */
enum mmio_status mmio_load(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t *val,
                           unsigned *latency);
enum mmio_status mmio_store(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t val);

/* 32-bit MMIO accesses made by the coprocessor's Scalar unit for thread th through the same
 * map. Unmodelled regions raise "unimplemented region <name>"; the value of a load is taken at
 * once (the caller delays its delivery). */
enum mmio_status tensix_mmio_load(struct tile *t, unsigned th, uint32_t addr, uint32_t *val);
enum mmio_status tensix_mmio_store(struct tile *t, unsigned th, uint32_t addr, uint32_t val);


#endif
