/* The Configuration unit (ThCfg): Config and ThreadConfig writes and reads
 * (WH:ConfigurationUnit.md, BH:ConfigurationUnit.md). Owner of this file: the ThCfg work. */
#ifndef TENSIM_UNITS_THCFG_H
#define TENSIM_UNITS_THCFG_H

#include <stdbool.h>
#include <stdint.h>

#include "unit.h"

struct cfg_unit {
    uint64_t busy_until; /* the Config pipeline holds an instruction until this cycle */
};

extern const struct unit_desc cfg_unit_desc;

/* STALLWAIT C12 (BH): any thread has an instruction in the Configuration unit pipeline. */
bool cfg_unit_busy(const struct tile *t);

#endif
