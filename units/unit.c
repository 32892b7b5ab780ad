#include "unit.h"

extern const struct unit_desc sync_unit_desc, misc_unit_desc, thcon_unit_desc, cfg_unit_desc,
    unpack_unit_desc, fpu_unit_desc, pack_unit_desc;

/* Tick order: the unpackers and packers before ThCon, whose FLUSHDMA looks at them. */
const struct unit_desc *const unit_list[] = {&sync_unit_desc, &misc_unit_desc, &unpack_unit_desc,
                                             &fpu_unit_desc, &pack_unit_desc, &thcon_unit_desc,
                                             &cfg_unit_desc};
const unsigned unit_list_len = sizeof unit_list / sizeof unit_list[0];

/* The backend units built so far; the others stop the run with "unimplemented" when an
 * instruction for them reaches the Wait Gate. */
const struct unit_desc *unit_for(enum tt_unit u)
{
    switch (u) {
    case TT_UNIT_SYNC: return &sync_unit_desc;
    case TT_UNIT_MISC: return &misc_unit_desc;
    case TT_UNIT_CFG: return &cfg_unit_desc;
    case TT_UNIT_THCON: return &thcon_unit_desc;
    case TT_UNIT_UNPACK: return &unpack_unit_desc;
    case TT_UNIT_FPU: return &fpu_unit_desc;
    case TT_UNIT_PACK: return &pack_unit_desc;
    default: return 0;
    }
}
