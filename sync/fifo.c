#include "fifo.h"

void tt_fifo_init(struct tt_fifo *f, unsigned depth, unsigned accept_limit)
{
    f->head = f->count = 0;
    f->depth = depth > TT_FIFO_MAX ? TT_FIFO_MAX : depth;
    f->accept_limit = accept_limit;
    /* count + 1 <= depth, and count <= accept_limit when there is one */
    f->room1_below = accept_limit && accept_limit + 1 < f->depth ? accept_limit + 1 : f->depth;
}

/* Blackhole FIFO1 takes pushes while it holds at most 28 entries, so a single push can fill it
 * to 29 and a fused group of four to 32 (BHR:PushTensixInstruction.md, "29-32"). */
bool tt_fifo_push_o(struct tt_fifo *f, const uint32_t *w, const tt_origin *o, unsigned n)
{
    if (!tt_fifo_has_room(f, n))
        return false;
    for (unsigned i = 0; i < n; i++) {
        unsigned at = (f->head + f->count + i) % TT_FIFO_MAX;
        f->word[at] = w[i];
        f->origin[at] = o ? o[i] : ORIGIN_NONE;
    }
    f->count += n;
    return true;
}

bool tt_fifo_push(struct tt_fifo *f, const uint32_t *w, unsigned n)
{
    return tt_fifo_push_o(f, w, 0, n);
}

bool tt_fifo_pop_o(struct tt_fifo *f, uint32_t *w, tt_origin *o)
{
    if (!f->count)
        return false;
    *w = f->word[f->head];
    *o = f->origin[f->head];
    f->head = (f->head + 1) % TT_FIFO_MAX;
    f->count--;
    return true;
}

bool tt_fifo_pop(struct tt_fifo *f, uint32_t *w)
{
    tt_origin o;
    return tt_fifo_pop_o(f, w, &o);
}
