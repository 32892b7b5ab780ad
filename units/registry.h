/* The unit registry: one row per backend unit of the Tensix coprocessor, holding everything that is
 * a property of the unit (shared/design.md "Layers"; docs/architecture.md "The unit registry").
 * The tile, the Wait Gate, queue status, statistics and traces walk these rows; none of them names
 * a unit. Adding a unit: its own files (state struct, `struct unit_desc` with its functions,
 * tests), its header below and its row in TENSIX_UNITS.
 *
 * Row order is tick order: each cycle the coprocessor ticks the units from the first row down
 * before any Wait Gate looks (the unpackers and packers tick before ThCon, whose FLUSHDMA looks at
 * them). It is also the order of their tracks in a trace, of their lines in the end-of-run report
 * and of their deadlock descriptions. */
#ifndef TENSIM_UNITS_REGISTRY_H
#define TENSIM_UNITS_REGISTRY_H

#include "../sync/sync_unit.h"
#include "fpu.h"
#include "pack.h"
#include "sfpu.h"
#include "thcfg.h"
#include "thcon.h"
#include "unit.h"
#include "unpack.h"

/* STALLWAIT/SEMWAIT block bits (spec/sync-timing.md §3.1; WH:STALLWAIT.md): which latched waits
 * catch an instruction of the unit. */
enum { BLK0 = 1, BLK1 = 2, BLK2 = 4, BLK3 = 8, BLK4 = 16, BLK5 = 32, BLK6 = 64, BLK7 = 128,
       BLK8 = 256, BLK_ALL = 511 };

/* Instruction-type bits of tt_cfg_qstatus / tt_cfg_bstatus (BHR:CSRs.md). */
enum { QS_REPLAY = 1, QS_MOP = 2, QS_THCON = 4, QS_MOVER = 8, QS_UNPACK = 16, QS_PACK = 32,
       QS_CFG = 64, QS_SYNC = 128, QS_B0 = 256, QS_SFPU = 512, QS_FPU = 1024 };

/* Unit flags: what `holds` (an instruction of the thread still in the unit) means outside
 * STALLWAIT. U_DRAIN: the thread is not drained (TTSync, end of run); U_BSTATUS: the unit's
 * queue-status bits are set in tt_cfg_bstatus. */
enum { U_DRAIN = 1, U_BSTATUS = 2 };

/* X(id, kind, desc, state type, tile member, block bits, queue-status bits, STALLWAIT condition
 *   answered by `holds` (the first of `instances`), instances, flags, trace tracks (one per
 *   instance, or 0 for none), track name, place in the stats JSON "units" object)
 * desc is NULL for a unit tensim does not model yet: its instructions stop the run as
 * unimplemented at the Wait Gate, but its block and status bits still apply. A unit without
 * state has `char` and a member nobody reads. */
#define TENSIX_UNITS(X)                                                                            \
    X(SYNC, TT_UNIT_SYNC, &sync_unit_desc, struct sync_unit, sync, BLK1, QS_SYNC,                  \
      WC_COUNT, 0, 0, 0, "", 0)                                                                    \
    X(MISC, TT_UNIT_MISC, &misc_unit_desc, char, misc_unused, BLK0, QS_B0, WC_COUNT, 0, 0, 0, "", 3) \
    X(UNPACK, TT_UNIT_UNPACK, &unpack_unit_desc, struct unpack_state, unpack, BLK0 | BLK3,         \
      QS_UNPACK | QS_B0, WC_UNPACK0, NUM_UNPACKERS, U_DRAIN | U_BSTATUS, NUM_UNPACKERS,             \
      "unpacker", 6)                                                                               \
    X(FPU, TT_UNIT_FPU, &fpu_unit_desc, struct fpu_state, fpu, BLK6, QS_FPU, WC_FPU, 1,            \
      U_DRAIN | U_BSTATUS, 1, "matrix unit", 4)                                                    \
    X(PACK, TT_UNIT_PACK, &pack_unit_desc, struct pack_state, pack, BLK0 | BLK2, QS_PACK | QS_B0,  \
      WC_PACK0, NUM_PACKERS, U_DRAIN | U_BSTATUS, NUM_PACKERS, "packer", 7)                        \
    X(THCON, TT_UNIT_THCON, &thcon_unit_desc, struct thcon_unit, thcon, BLK0 | BLK5,               \
      QS_THCON | QS_B0, WC_THCON_MEM, 1, U_DRAIN, 0, "", 2)                                        \
    X(CFG, TT_UNIT_CFG, &cfg_unit_desc, struct cfg_unit, cfgu, BLK7, QS_CFG, WC_CFG, 1, 0, 0, "", 1) \
    X(SFPU, TT_UNIT_SFPU, &sfpu_unit_desc, struct sfpu_state, sfpu, BLK8, QS_SFPU, WC_SFPU, 1,     \
      U_DRAIN | U_BSTATUS, SFPU_SUBS, "vector unit", 5)                                            \
    X(XMOV, TT_UNIT_XMOV, NULL, char, xmov_unused, BLK0 | BLK4, QS_MOVER | QS_B0, WC_MOVER, 1, 0,  \
      0, "", 8)

extern const struct unit_desc misc_unit_desc;

enum unit_id {
#define X(id, ...) UNIT_##id,
    TENSIX_UNITS(X)
#undef X
    UNIT_COUNT
};

/* Trace tracks of the backend units: TRACK_<id> is a unit's first, one per instance. */
enum unit_track {
#define X(id, kind, desc, type, member, blk, qs, wc, inst, flags, tracks, tname, json)            \
    TRACK_##id, TRACK_##id##_END = TRACK_##id + (tracks) - 1,
    TENSIX_UNITS(X)
#undef X
    TRACK_COUNT
};

/* A row as data, for the code that walks the registry. */
struct unit_row {
    const struct unit_desc *desc; /* NULL: not modelled */
    unsigned kind;                /* enum tt_unit */
    unsigned block_bits, status_bits;
    unsigned wait_cond, instances, flags;
    unsigned tracks, first_track;
    const char *track_name;
    unsigned json_rank;
};

extern const struct unit_row unit_rows[UNIT_COUNT];

/* The row of the unit that executes instructions of kind u (enum tt_unit), or NULL. */
const struct unit_row *unit_row_for(unsigned kind);
/* Its descriptor, or NULL (no row, or not modelled): the Wait Gate's lookup, once per issue. */
extern const struct unit_desc *const unit_desc_of_kind[TT_UNIT_COUNT];
static inline const struct unit_desc *unit_desc_for(unsigned kind)
{
    return kind < TT_UNIT_COUNT ? unit_desc_of_kind[kind] : NULL;
}

#endif
