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

struct rv_profile {
    uint64_t *cycles; /* per L1 word: cycles charged to the instruction there */
    uint64_t *count;  /* per L1 word: times it completed */
    uint64_t *poll;   /* per L1 word: the part of `cycles` the core spent polling (riscv/poll.h) */
    uint64_t last;    /* end of the previous instruction; UINT64_MAX before the first */
    uint32_t words;
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

/* The report for core `core`, by function (f's symbols; f may be NULL) and by instruction. */
void rv_profile_report(const struct rv_profile *p, const struct tile *t, int core,
                       const struct elf_file *f, const char *program, FILE *out);

#endif
