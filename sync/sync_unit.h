/* The Sync unit: the instructions on semaphores and mutexes (sync/semaphores.h), and the
 * STALLWAIT/SEMWAIT instructions that latch a wait at their thread's Wait Gate (WH:SyncUnit.md, BH:SyncUnit.md; spec/sync-timing.md §2-§5). */
#ifndef TENSIM_SYNC_SYNC_UNIT_H
#define TENSIM_SYNC_SYNC_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../units/unit.h"

/* The Sync unit's own state: its counters. The semaphores, mutexes and the Sync slot are a
 * shared resource (sync/semaphores.h). */
struct sync_unit {
    struct {
        uint64_t sem_ops, waits, mutex_ops;
    } st;
};

extern const struct unit_desc sync_unit_desc;

#endif
