/* Regions (riscv/region.h) in the end-of-run report and the stats JSON; both print nothing
 * unless a core began a region, so runs without regions keep their outputs byte for byte. */
#ifndef TENSIM_TRACE_REGIONS_H
#define TENSIM_TRACE_REGIONS_H

#include <stdio.h>

struct tile;

/* The report's region table: one line per core and id, and one for its Tensix thread. */
void regions_report(const struct tile *t, FILE *f);
/* "regions": {...}, for the stats JSON (docs/stats-schema.md). */
void regions_json(const struct tile *t, FILE *f);

#endif
