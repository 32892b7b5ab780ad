/* Shared between units/unpack.c (the functional model: planning at issue, executing at start)
 * and units/unpack_timing.c (the unit interface, queues, start-up, L1 bandwidth). Not for use
 * outside the unpackers. */
#ifndef TENSIM_UNITS_UNPACK_INTERNAL_H
#define TENSIM_UNITS_UNPACK_INTERNAL_H

#include "unpack.h"

struct tile;

/* Extra start-up cycles of an UNPACR reading compressed data (docs/timing-model.md). */
#define UNPACK_STARTUP 2
#define UNPACK_STARTUP_COMPRESSED_EXTRA 2

/* Fill e (kind, plan, want) for the instruction `word` of form f issued by thread th, and make
 * the issue-time state changes (ADCs, context counter, SrcRow). *startup is the start-up length
 * (0 for instructions without one). Returns false after raising an error. */
bool unpack_issue(struct tile *t, unsigned th, uint32_t word, const struct tt_form *f,
                  struct unpack_entry *e, unsigned *startup);

/* Must the head entry of unpacker u wait for a bank before it can start? Then *owned says
 * whether that bank belongs to the unpackers now. */
bool unpack_needs_bank(const struct tile *t, unsigned u, const struct unpack_entry *e,
                       bool *owned);

/* Perform the entry's functional effect now (it has just started). For UK_UNPACR this reads
 * L1, converts and writes SrcA/SrcB/Dst and sets e->rem to the 128-bit reads it made. Returns
 * false after raising an error. */
bool unpack_start(struct tile *t, unsigned u, struct unpack_entry *e);

/* Completion of an entry: FlipSrc hands the bank over. */
void unpack_finish(struct tile *t, unsigned u, const struct unpack_entry *e);

#endif
