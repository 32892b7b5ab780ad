/* Shared between units/pack.c (the functional model) and units/pack_timing.c (the unit
 * interface, queues and write time). Not for use outside the packers. */
#ifndef TENSIM_UNITS_PACK_INTERNAL_H
#define TENSIM_UNITS_PACK_INTERNAL_H

#include "pack.h"

struct tile;

/* The packers a PACR gives work to: Wormhole's PackerMask (0 means packer 0); Blackhole's one
 * packer (bit 0). */
unsigned pack_mask(const struct tile *t, uint32_t w);
/* The Dst rows PACR `w` of thread th will read through packer i (n = 0: none), without side
 * effects: for the Dest hazard check at the Wait Gate (Blackhole: from the first to the last
 * enabled read interface's row). */
void pack_dst_rows(const struct tile *t, unsigned th, uint32_t w, unsigned i, unsigned *row0,
                   unsigned *n, bool *dst32);
/* Acceptance of PACR `w` by packer i: run the address generators into *j (j->adc: the ADC set
 * used). False after raising an error. */
bool pack_accept_job(struct tile *t, unsigned th, uint32_t w, unsigned i, struct pack_job *j);
/* Then, once per ADC set the instruction used: its ADDR_MOD_PACK Y/Z updates. */
void pack_advance_adcs(struct tile *t, unsigned th, uint32_t w, unsigned adc);
/* The job reached the head of packer i: move its datums (or perform the PACR_SETREG write). */
bool pack_run_job(struct tile *t, unsigned i, struct pack_job *j);
bool pack_undef(struct tile *t, unsigned th, const char *what, const char *name);
/* The unit's `signal` (pack.c). */
void pack_signal(struct tile *t, enum unit_signal s, unsigned a, unsigned b);
bool pack_query(const struct tile *t, enum unit_query q, unsigned a, unsigned b, uint32_t v[4]);

#endif
