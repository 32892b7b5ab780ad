/* The Configuration unit (ThCfg): Config and ThreadConfig writes and reads
 * (WH:ConfigurationUnit.md, BH:ConfigurationUnit.md). Owner of this file: the ThCfg work.
 *
 * Every write the unit makes (Config words, ThreadConfig entries, the GPR that RDCFG fills, and
 * RISC-V stores through the configuration window) is computed when the instruction issues and
 * queued with the cycle from which it is visible; `tick` applies the writes whose cycle has come
 * before any Wait Gate looks. An instruction that consumes a value too early therefore really
 * sees the old one, as on silicon. docs/timing-model.md "Configuration unit (ThCfg)" lists every
 * latency and rule. */
#ifndef TENSIM_UNITS_THCFG_H
#define TENSIM_UNITS_THCFG_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/map.h"
#include "unit.h"

/* Writes in flight. Bound: one Config-group instruction per cycle (up to 4 words, visible within
 * 2 cycles), 3 SETC16 per cycle (1 cycle), one RISC-V store per core per cycle (2 cycles):
 * at most 8 + 3 + 8 alive at once. */
#define CFG_PENDING_MAX 32

enum cfg_pend_kind {
    CFG_PEND_CONFIG, /* Config word `index` of every bank in `banks` */
    CFG_PEND_THREAD  /* ThreadConfig[sel][index] (RDCFG's GPR writes: units/gpr.h) */
};

struct cfg_pending {
    uint64_t at;      /* visible from this cycle on */
    uint32_t value;
    uint16_t index;
    uint8_t kind;     /* enum cfg_pend_kind */
    uint8_t sel;      /* thread (ThreadConfig) */
    uint8_t banks;    /* CFG_PEND_CONFIG: bit per Config bank */
    bool side_effects; /* the write may trigger STATE_RESET_EN / PRNG reseed (not RMWCIB) */
};

struct cfg_unit {
    uint64_t busy_until;  /* the Config pipeline holds an instruction until this cycle */
    uint64_t stage0_free; /* BH: first cycle stage 0 is free of issued instructions;
                             WH: first cycle RMWCIB/RDCFG may issue after a WRCFG/RDCFG */
    uint64_t thread_free[3]; /* WH: the thread's RDCFG holds its Config instructions until then */
    struct cfg_pending pend[CFG_PENDING_MAX]; /* in the order the writes were made */
    unsigned npend;
    struct {
        uint64_t insns, riscv_reads, riscv_writes, state_resets, prng_seeds;
        uint64_t busy_cycles; /* cycles with an instruction in the pipeline */
    } st;
};

/* Its MMIO row: RISC-V access to the configuration window 0xFFEF0000..0xFFEFFFFF
 * (spec/memory-map.md §2): loads of Config, ConfigDualWrite (bank 0) and ThreadConfig; stores
 * only as `sw` to Config or ConfigDualWrite.
 * `holds`: STALLWAIT C12 (BH), any thread has an instruction in the Configuration unit
 * pipeline. */
extern const struct unit_desc cfg_unit_desc;


#endif
