/* Whether a Tensix thread has anything in flight (sync/thread.h): asked by TTSync, the PCBufs'
 * "TRISC idle" read and the end of a run. Apart from the Wait Gate so that those devices and the
 * gate, which rechecks them every cycle, do not depend on each other. */
#include "thread.h"

#include "../core/tile.h"

bool thread_drained(const struct tile *t, unsigned i)
{
    const struct tensix_thread *th = &t->thread[i];
    /* LOADIND/LOADREG/ATINCGET data still on its way to a GPR counts as in flight: TTSync is a
     * documented way to wait for it (WH:LOADIND.md). */
    if (th->fifo1.count || th->fifo2.count || th->fifo3.count || mop_busy(&th->mop) ||
        replay_busy(&th->replay) || th->thcon_running)
        return false;
    for (unsigned u = 0; u < UNIT_COUNT; u++) { /* an instruction in a backend unit */
        const struct unit_row *r = &unit_rows[u];
        if (r->flags & U_DRAIN)
            for (unsigned k = 0; k < r->instances; k++)
                if (r->desc->holds(t, i, k))
                    return false;
    }
    return true;
}
