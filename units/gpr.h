/* The Tensix GPRs as the RISC-V cores see them at REGFILE_BASE 0xFFE00000 (WH:ScalarUnit.md
 * "RISCV access to GPRs"): TRISC i sees GPRs[i][n] at +4n, BRISC sees GPRs[0..2] one after
 * another (spec/memory-map.md §1). The registers are the tile's (t->gpr). */
#ifndef TENSIM_UNITS_GPR_H
#define TENSIM_UNITS_GPR_H

#include "../mem/map.h"

extern const struct region gpr_regions[];
extern const unsigned gpr_regions_len;

#endif
