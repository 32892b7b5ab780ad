/* What one simulated cycle of a frontend stage did (spec/sync-timing.md §1).
 *
 * Each stage of a thread's instruction pipe (MOP expander, replay expander, later the Wait
 * Gate) exposes `*_step(stage, in, out)`, called once per cycle. A stage reads only the head of
 * `in` and writes at most one word to `out`, so a caller that steps the stages downstream first
 * gives every stage one cycle of latency, as a registered FIFO would. */
#ifndef TENSIM_SYNC_PIPE_STEP_H
#define TENSIM_SYNC_PIPE_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "fifo.h"

enum pipe_step {
    PIPE_IDLE,     /* nothing changed: no word moved, no internal state advanced */
    PIPE_PROGRESS, /* something moved or the stage's state advanced; step it again next cycle */
    PIPE_ERROR,    /* undefined behaviour; the stage keeps the message and stops */
};

#define PIPE_ERR_MAX 160


#endif
