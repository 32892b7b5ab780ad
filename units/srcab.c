/* SrcA and SrcB (units/srcab.h): what their owner computes from the configuration. */
#include "srcab.h"

#include "cfg.h"

uint8_t src_row_base(const struct tt_config *cfg, unsigned ab, unsigned th, unsigned which)
{
    unsigned base = which ? thcfg_get(cfg, th, THCFG_DESC(ab, SRCB_SET_Base))
                          : thcfg_get(cfg, th, THCFG_DESC(ab, SRCA_SET_Base));
    return (uint8_t)((base << 4) & 0x3F);
}
