/* The Scalar unit (ThCon): Tensix GPRs and the 18 scalar instructions (WH:ScalarUnit.md).
 * Owner of this file: the ThCon work (see units/thcon.c). */
#ifndef TENSIM_UNITS_THCON_H
#define TENSIM_UNITS_THCON_H

#include <stdbool.h>
#include <stdint.h>

#include "unit.h"

#define NUM_GPRS 64

struct thcon_unit {
    bool busy;            /* an instruction is executing (no pipelining) */
    unsigned busy_thread; /* its thread */
    uint64_t done_at;     /* cycle at which it completes */
};

extern const struct unit_desc thcon_unit_desc;

/* STALLWAIT C0: ThCon has memory requests outstanding for thread th. */
bool thcon_mem_outstanding(const struct tile *t, unsigned th);

#endif
