/* The registry's rows as data (units/registry.h). */
#include "registry.h"

const struct unit_row unit_rows[UNIT_COUNT] = {
#define X(uid, kind_, desc_, type, member, blk, qs, wc, inst, flags_, tracks_, tname, json)         \
    [UNIT_##uid] = {.desc = desc_, .kind = kind_, .block_bits = blk, .status_bits = qs,  \
                   .wait_cond = wc, .instances = inst, .flags = flags_, .tracks = tracks_,          \
                   .first_track = TRACK_##uid, .track_name = tname, .json_rank = json},
    TENSIX_UNITS(X)
#undef X
};

/* Instruction kind -> row (enum tt_unit has no row for MOP/REPLAY and the frontend kinds). */
static const signed char row_of_kind[TT_UNIT_COUNT] = {
#define X(id, kind, ...) [kind] = UNIT_##id + 1,
    TENSIX_UNITS(X)
#undef X
};

const struct unit_desc *const unit_desc_of_kind[TT_UNIT_COUNT] = {
#define X(id, kind, desc, ...) [kind] = desc,
    TENSIX_UNITS(X)
#undef X
};

const struct unit_row *unit_row_for(unsigned kind)
{
    return kind < TT_UNIT_COUNT && row_of_kind[kind] ? &unit_rows[row_of_kind[kind] - 1] : NULL;
}
