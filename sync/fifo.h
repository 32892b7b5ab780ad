/* Tensix instruction FIFOs of one thread (spec/sync-timing.md §1).
 *
 * Issue 2 builds the push side: TRISC i pushes into FIFO1 of thread i (before the MOP expander),
 * RISCV B pushes into FIFO2 (after it). The stages that drain them (MOP expander, replay
 * expander, Wait Gate) come with the control-plane work; until then a FIFO only fills. */
#ifndef TENSIM_SYNC_FIFO_H
#define TENSIM_SYNC_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#define TT_FIFO_MAX 32

struct tt_fifo {
    uint32_t word[TT_FIFO_MAX];
    unsigned head, count;
    unsigned depth;        /* capacity */
    unsigned accept_limit; /* BH FIFO1: accepts only while count <= limit (0 = while not full) */
};

void tt_fifo_init(struct tt_fifo *f, unsigned depth, unsigned accept_limit);
/* Push n words (a fused .ttinsn group) as one unit: all or nothing. */
bool tt_fifo_push(struct tt_fifo *f, const uint32_t *w, unsigned n);
bool tt_fifo_pop(struct tt_fifo *f, uint32_t *w);
static inline uint32_t tt_fifo_peek(const struct tt_fifo *f, unsigned i)
{
    return f->word[(f->head + i) % TT_FIFO_MAX];
}

struct tensix_thread {
    struct tt_fifo fifo1; /* before the MOP expander: TRISC pushes */
    struct tt_fifo fifo2; /* after the MOP expander: BRISC pushes */
    unsigned blocked_cores; /* bit per core id blocked pushing into this thread */
    uint64_t pushed;
};

#endif
