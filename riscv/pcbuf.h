/* PCBufs: RISCV B -> TRISC i FIFOs of 16 words, and the override register bits of
 * RISCV_DEBUG_REG_TRISC_PC_BUF_OVERRIDE (BHR:PCBufs.md). Their state is the tile's
 * (t->pcbuf, t->pcbuf_override); this module owns its behaviour and its address rows. */
#ifndef TENSIM_RISCV_PCBUF_H
#define TENSIM_RISCV_PCBUF_H

#include "../mem/map.h"

struct tile;

extern const struct region pcbuf_regions[];
extern const unsigned pcbuf_regions_len;

/* Release BRISC reads waiting for "TRISC idle" and TRISC reads the override answers, once their
 * conditions hold (called when any of them may have changed). */
void pcbuf_recheck(struct tile *t);

#endif
