/* Where a core's cycles go, instruction by instruction (`tensim run --profile=FILE`): each
 * instruction is charged the cycles from the previous one's end to its own, stalls included, so
 * the charges add up to the core's cycles; the report sums them by function from the program's
 * symbols and lists the hottest instructions (docs/user-guide.md "Profiles"). */
#ifndef TENSIM_RISCV_PROFILE_H
#define TENSIM_RISCV_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tile;
struct elf_file;

/* Tensix stalls charged back to the push that caused them: cycles a Wait Gate held an
 * instruction, by the pushing pc and the reason (sync/gate.c: the STALLWAIT/SEMWAIT's push for
 * the cycles a latched wait holds, else the held instruction's own push). A fixed open-addressing
 * table: a program pushes from few pcs; what does not fit is counted in `held_lost`. */
#define PROF_HELD_SLOTS 4096
/* The "reason" under which the table keeps the cycles the first instruction of each push spent
 * queued before it reached its Wait Gate (sync/gate.c profile_issue): past the enum gate_stall
 * values, below 32. */
#define PROF_FIFO_WAIT 31u
struct prof_held {
    uint32_t key; /* (pc >> 2) << 5 | reason, + 1; 0: empty */
    uint64_t cycles;
};

struct rv_profile {
    uint64_t *cycles; /* per L1 word: cycles charged to the instruction there */
    uint64_t *count;  /* per L1 word: times it completed */
    uint64_t *poll;   /* per L1 word: the part of `cycles` the core spent polling (riscv/poll.h) */
    uint64_t last;    /* end of the previous instruction; UINT64_MAX before the first */
    uint32_t words;
    struct prof_held *held; /* PROF_HELD_SLOTS entries */
    uint64_t held_lost;     /* held cycles the table had no room for */
};

/* A profile for programs in an L1 of l1_size bytes (cores execute only from L1); NULL when out of
 * memory. */
struct rv_profile *rv_profile_new(uint32_t l1_size);
void rv_profile_free(struct rv_profile *p);

/* The instruction at pc issued at `issue` and holds the core until `end`; `polling`: the core was
 * going round a polling loop (its cycles are the polling stall's). */
static inline void rv_profile_account(struct rv_profile *p, uint32_t pc, uint64_t issue, uint64_t end,
                                      bool polling)
{
    uint64_t from = p->last == UINT64_MAX ? issue : p->last;
    p->cycles[pc >> 2] += end - from;
    if (polling)
        p->poll[pc >> 2] += end - from;
    p->count[pc >> 2]++;
    p->last = end;
}

/* n cycles a Wait Gate held an instruction for `reason` (enum gate_stall), charged to the push
 * at pc. Called when a held interval closes, not per cycle. */
static inline void rv_profile_held(struct rv_profile *p, uint32_t pc, unsigned reason, uint64_t n)
{
    uint32_t key = ((pc >> 2) << 5 | (reason & 31u)) + 1;
    uint32_t h = key * 2654435761u;
    for (unsigned k = 0; k < PROF_HELD_SLOTS; k++) {
        struct prof_held *e = &p->held[(h + k) % PROF_HELD_SLOTS];
        if (e->key == key || !e->key) {
            e->key = key;
            e->cycles += n;
            return;
        }
    }
    p->held_lost += n;
}

/* The report for core `core`, by function (f's symbols; f may be NULL) and by instruction. */
void rv_profile_report(const struct rv_profile *p, const struct tile *t, int core,
                       const struct elf_file *f, const char *program, FILE *out);

#endif
