/* The Tensix semaphores and mutexes, and the Sync slot they share (WH:SyncUnit.md,
 * BH:SyncUnit.md; spec/sync-timing.md §2-§5): a shared resource. The Sync unit's instructions
 * change them, the Wait Gate reads them for SEMWAIT and mutex waits, the TRISCs reach the
 * semaphores at 0xFFE80020 (this module's address row), and the statistics report them. */
#ifndef TENSIM_SYNC_SEMAPHORES_H
#define TENSIM_SYNC_SEMAPHORES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../mem/map.h"

#define NUM_SEMAPHORES 8
#define NUM_MUTEXES 8 /* index space; which indices exist depends on the architecture */

struct sem_bank {
    uint8_t value[NUM_SEMAPHORES];   /* 4-bit Value */
    uint8_t max[NUM_SEMAPHORES];     /* 4-bit Max */
    int8_t mutex_owner[NUM_MUTEXES]; /* thread, or -1 when free */
    uint64_t slot_used;              /* 1 + the last cycle the one-per-cycle Sync slot was used */
    struct {
        uint64_t riscv_sem_writes, riscv_slot_conflicts;
    } st;
};

struct tile;

/* Power-on: semaphore reset values are not documented (spec/memory-map.md §6.2); software runs
 * SEMINIT first. tensim starts them at Value 0, Max 0, and every mutex free. */
void sem_reset(struct sem_bank *s);
/* Is mutex index m one the architecture has? WH:ATGETM.md: 0, 2..7; BH:ATGETM.md: 0, 2..4.
 * Index 1 names no mutex. */
static inline bool sem_mutex_valid(const struct arch *a, unsigned m)
{
    unsigned last = a->id == ARCH_WORMHOLE ? 7 : 4;
    return m == 0 || (m >= 2 && m <= last);
}
/* Semaphore condition of a latched SEMWAIT: true while the thread must keep waiting. */
bool sem_wait_blocks(const struct sem_bank *s, uint8_t sem_mask, uint16_t cond_mask);
/* The stats JSON "sync" object's contents (docs/stats-schema.md). */
void sem_stats_json(const struct sem_bank *s, FILE *f);

extern const struct region sem_regions[];
extern const unsigned sem_regions_len;

#endif
