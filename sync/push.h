/* A core's way into the Tensix threads: the instruction push windows INSTRN_BUF_BASE / INSTRN1 /
 * INSTRN2 (BHR:PushTensixInstruction.md; the .ttinsn form of riscv/core.c comes here too) and
 * the MOP expander configuration window (WH:MOPExpander.md). */
#ifndef TENSIM_SYNC_PUSH_H
#define TENSIM_SYNC_PUSH_H

#include "../mem/map.h"
#include "origin.h"

struct tile;

extern const struct region push_regions[];
extern const unsigned push_regions_len;

/* Push Tensix instruction words from core `core` into thread `thread` as one group (a fused
 * .ttinsn group or a single store), o[i] the origin of w[i] (sync/origin.h). MMIO_BLOCK when the
 * FIFO cannot take them this cycle. */
enum mmio_status tensix_push(struct tile *t, int core, unsigned thread, const uint32_t *w,
                             const tt_origin *o, unsigned n);

/* The host's debug push (RISCV_DEBUG_REG_INSTRN_BUF_CTRL0/1, WHR:PushTensixInstruction.md),
 * which tt-exalens uses to inject instructions: one word into thread `thread` after the MOP
 * expander, like BRISC's pushes. false when the FIFO is full (try again later). */
bool tensix_host_push(struct tile *t, unsigned thread, uint32_t word);

#endif
