/* Manual TTSync (BHR:ManualTTSync.md): a TRISC load from CoprocessorDoneCheck (0xFFE80004) or
 * MOPExpanderDoneCheck (0xFFE80008) is held until its thread has nothing in flight, or no MOP
 * queued or expanding. */
#ifndef TENSIM_SYNC_TTSYNC_H
#define TENSIM_SYNC_TTSYNC_H

#include <stdbool.h>

#include "../mem/map.h"
#include "../riscv/core.h"

struct tile;

extern const struct region ttsync_regions[];
extern const unsigned ttsync_regions_len;

/* Has the Manual TTSync condition `w` (WAIT_COPROC_DONE or WAIT_MOP_DONE) of thread th come? */
bool ttsync_done(const struct tile *t, enum core_wait w, unsigned th);

#endif
