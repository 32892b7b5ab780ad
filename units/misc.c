/* The Miscellaneous unit (WH:MiscellaneousUnit.md): every instruction takes one cycle and each
 * thread can issue one per cycle, so it never holds the gate. NOP is complete; the ADC
 * instructions and SETDVALID decode and route here, and report "unimplemented" until the ADCs
 * and register files exist. */
#include "../core/tile.h"

enum { OPC_NOP = 0x02 };

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    (void)t, (void)th, (void)w, (void)f, (void)detail;
    return GS_NONE;
}

static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w, (void)f;
    return RES_NONE;
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)w;
    if (f->opcode == OPC_NOP)
        return true;
    return tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "%s (misc: ADCs and SrcA/SrcB valid bits), thread T%u",
                      f->mnemonic, th);
}

const struct unit_desc misc_unit_desc = {"misc", can_accept, resource, accept, 0, 0};
