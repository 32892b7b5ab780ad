/* The Tensix GPRs (WH:ScalarUnit.md): the registers are the tile's (t->gpr); this module owns
 * the writes that land later than they are made (RDCFG's result, WH/BH:RDCFG.md) and the RISC-V
 * window at REGFILE_BASE 0xFFE00000, where TRISC i sees GPRs[i][n] at +4n and BRISC sees
 * GPRs[0..2] one after another (spec/memory-map.md §1). */
#ifndef TENSIM_UNITS_GPR_H
#define TENSIM_UNITS_GPR_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/map.h"

/* Writes in flight: one RDCFG per cycle, each visible within 2 cycles. */
#define GPR_PENDING_MAX 8

struct gpr_writes {
    struct gpr_write {
        uint64_t at; /* visible from this cycle on */
        uint32_t value;
        uint8_t th, reg;
    } w[GPR_PENDING_MAX]; /* in the order they were made */
    unsigned n;
};

struct tile;

/* GPRs[th][reg] becomes `value` at the start of cycle `at`. False after raising an error (more
 * writes in flight than GPR_PENDING_MAX). */
bool gpr_write_at(struct tile *t, unsigned th, unsigned reg, uint32_t value, uint64_t at);
/* GPRs[th][reg] as it will be at the start of cycle s, writes due by then included. */
uint32_t gpr_peek(const struct tile *t, unsigned th, unsigned reg, uint64_t s);
/* Apply the writes visible by cycle `upto`, in the order they are due (ties: made first). */
void gpr_commit_due(struct tile *t, uint64_t upto);
static inline void gpr_commit(struct gpr_writes *q, struct tile *t, uint64_t upto)
{
    if (q->n) /* called every cycle: nothing in flight is the common case */
        gpr_commit_due(t, upto);
}
/* The earliest write due after `now` (UINT64_MAX: none). */
uint64_t gpr_next_write(const struct tile *t, uint64_t now);

extern const struct region gpr_regions[];
extern const unsigned gpr_regions_len;

#endif
