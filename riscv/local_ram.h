/* The slow-path windows of the cores' local data RAMs (riscv/local_ram.c). */
#ifndef TENSIM_RISCV_LOCAL_RAM_H
#define TENSIM_RISCV_LOCAL_RAM_H

#include "../mem/map.h"

extern const struct region local_ram_regions[];
extern const unsigned local_ram_regions_len;

#endif
