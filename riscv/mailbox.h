/* The RISC-V cores' mailboxes at 0xFFEC0000 (BHR:Mailboxes.md, WHR:Mailboxes.md; Blackhole's are
 * Wormhole's): one FIFO of four 32-bit words from each of B, T0, T1, T2 to each of them. Their
 * state is the tile's (t->mbox); this module owns its behaviour and its address rows. */
#ifndef TENSIM_RISCV_MAILBOX_H
#define TENSIM_RISCV_MAILBOX_H

#include "../mem/map.h"

struct tile;

#define MAILBOX_DEPTH 4

/* word[from][to][...]: mailbox numbers 0 = B, 1 = T0, 2 = T1, 3 = T2 (TENSIX_MAILBOXn_BASE) */
struct mailboxes {
    uint32_t word[4][4][MAILBOX_DEPTH];
    uint8_t head[4][4], count[4][4];
};

extern const struct region mailbox_regions[];
extern const unsigned mailbox_regions_len;

/* Core `core` entered reset: the mailboxes it writes are emptied (spec/memory-map.md §6.2). */
void mailbox_core_reset(struct tile *t, int core);

#endif
