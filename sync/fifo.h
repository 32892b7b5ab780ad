/* Tensix instruction FIFOs of one thread (spec/sync-timing.md §1).
 *
 * TRISC i pushes into FIFO1 of thread i (before the MOP expander), RISCV B into FIFO2 (after
 * it); FIFO3 sits before the Wait Gate. Every stage moves at most one word per cycle. */
#ifndef TENSIM_SYNC_FIFO_H
#define TENSIM_SYNC_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#include "origin.h"

#define TT_FIFO_MAX 32

struct tt_fifo {
    uint32_t word[TT_FIFO_MAX];
    tt_origin origin[TT_FIFO_MAX]; /* each word's push (sync/origin.h) */
    unsigned head, count;
    unsigned depth;        /* capacity */
    unsigned accept_limit; /* BH FIFO1: accepts only while count <= limit (0 = while not full) */
    unsigned room1_below;  /* one word is accepted while count < this (depth and accept_limit) */
};

void tt_fifo_init(struct tt_fifo *f, unsigned depth, unsigned accept_limit);
/* Push n words (a fused .ttinsn group) as one unit: all or nothing. */
bool tt_fifo_push(struct tt_fifo *f, const uint32_t *w, unsigned n);
bool tt_fifo_pop(struct tt_fifo *f, uint32_t *w);
/* The same, with each word's origin (o[i] for w[i]; tt_fifo_push gives ORIGIN_NONE). */
bool tt_fifo_push_o(struct tt_fifo *f, const uint32_t *w, const tt_origin *o, unsigned n);
bool tt_fifo_pop_o(struct tt_fifo *f, uint32_t *w, tt_origin *o);
/* Would a push of n words be accepted now? (same rule as tt_fifo_push) */
static inline bool tt_fifo_has_room(const struct tt_fifo *f, unsigned n)
{
    if (n == 1) /* the expanders' and the gate's test every cycle: one compare */
        return f->count < f->room1_below;
    if (f->accept_limit && f->count > f->accept_limit)
        return false;
    return f->count + n <= f->depth;
}

static inline uint32_t tt_fifo_peek(const struct tt_fifo *f, unsigned i)
{
    return f->word[(f->head + i) % TT_FIFO_MAX];
}

static inline tt_origin tt_fifo_origin(const struct tt_fifo *f, unsigned i)
{
    return f->origin[(f->head + i) % TT_FIFO_MAX];
}

/* One word in or out, the caller having checked the room (tt_fifo_has_room) or that there is a
 * word: the per-cycle moves of the expanders and the Wait Gate, inline. */
static inline void tt_fifo_put(struct tt_fifo *f, uint32_t w, tt_origin o)
{
    unsigned at = (f->head + f->count) % TT_FIFO_MAX;
    f->word[at] = w;
    f->origin[at] = o;
    f->count++;
}

static inline void tt_fifo_take(struct tt_fifo *f, uint32_t *w, tt_origin *o)
{
    *w = f->word[f->head];
    *o = f->origin[f->head];
    f->head = (f->head + 1) % TT_FIFO_MAX;
    f->count--;
}

/* The head word gone, the caller having read what it needs of it (tt_fifo_peek, tt_fifo_origin). */
static inline void tt_fifo_drop(struct tt_fifo *f)
{
    f->head = (f->head + 1) % TT_FIFO_MAX;
    f->count--;
}

#endif
