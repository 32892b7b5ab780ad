/* The Sync unit: semaphores, mutexes, and the STALLWAIT/SEMWAIT instructions that latch a wait
 * at their thread's Wait Gate (WH:SyncUnit.md, BH:SyncUnit.md; spec/sync-timing.md §2-§5). */
#ifndef TENSIM_SYNC_SYNC_UNIT_H
#define TENSIM_SYNC_SYNC_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../units/unit.h"

#define NUM_SEMAPHORES 8
#define NUM_MUTEXES 8 /* index space; which indices exist depends on the architecture */

struct sync_unit {
    uint8_t sem_value[NUM_SEMAPHORES]; /* 4-bit Value */
    uint8_t sem_max[NUM_SEMAPHORES];   /* 4-bit Max */
    int8_t mutex_owner[NUM_MUTEXES];   /* thread, or -1 when free */
    uint64_t slot_used;                /* 1 + the last cycle the one-per-cycle slot was used */
    struct {
        uint64_t sem_ops, waits, mutex_ops, riscv_sem_writes, riscv_slot_conflicts;
    } st;
};

/* Its MMIO row: the semaphores at 0xFFE80020 (TRISCs; WH:SyncUnit.md "RISCV access"). */
extern const struct unit_desc sync_unit_desc;

/* Is mutex index m one the architecture has (BH 0,2,3,4; WH 0,2..7)? */
bool sync_mutex_valid(const struct tile *t, unsigned m);

/* Semaphore condition of a latched SEMWAIT: true while the thread must keep waiting. */
bool sync_semwait_blocks(const struct sync_unit *s, uint8_t sem_mask, uint16_t cond_mask);

/* RISC-V access to semaphore i (0xFFE80020 + 4*i). A store needs the Sync unit's slot: returns
 * false when the slot was used this cycle (the core retries next cycle). */

#endif
