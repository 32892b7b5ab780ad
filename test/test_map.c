/* The address map (mem/map.c): the rows every owner registers make one map in which no two rows
 * a core sees on an architecture overlap (so the search order never matters for a core), and each
 * documented window is found where spec/memory-map.md §1 puts it. */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"

static void no_overlaps(enum arch_id a)
{
    struct tile *t = test_tile(a);
    const unsigned ab = a == ARCH_WORMHOLE ? MAP_WH : MAP_BH;
    const struct mem_map *m = &t->map;
    unsigned rows = 0;
    for (unsigned k = 0; k < m->ntables; k++)
        for (unsigned i = 0; i < m->len[k]; i++) {
            const struct region *r = &m->table[k][i];
            rows++;
            cr_expect_leq(r->base, r->last, "%s", r->name);
            for (unsigned k2 = 0; k2 < m->ntables; k2++)
                for (unsigned i2 = 0; i2 < m->len[k2]; i2++) {
                    const struct region *q = &m->table[k2][i2];
                    if (q == r || !(q->archs & r->archs & ab) || !(q->cores & r->cores))
                        continue;
                    cr_expect(q->last < r->base || q->base > r->last, "%s overlaps %s", r->name,
                              q->name);
                }
        }
    cr_expect_geq(rows, 25, "%u rows", rows);
    tile_destroy(t);
}

Test(map, no_two_rows_a_core_sees_overlap) { no_overlaps(ARCH_BLACKHOLE); no_overlaps(ARCH_WORMHOLE); }

Test(map, each_window_is_found_where_the_map_puts_it)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const struct {
        int core;
        uint32_t addr;
        const char *name;
    } want[] = {
        {CORE_TRISC0, 0xFFE80020, "Tensix semaphores"},
        {CORE_TRISC2, 0xFFEF0010, "Tensix backend configuration"},
        {CORE_BRISC, 0xFFEF0010, "Tensix backend configuration"},
        {CORE_TRISC1, 0xFFE40000, "Tensix instruction push"},
        {CORE_TRISC0, 0xFFB80004, "MOP expander configuration"},
        {CORE_BRISC, 0xFFE00100, "Tensix GPRs"},
        {CORE_TRISC0, 0xFFE80000, "PCBuf"},
        {CORE_BRISC, 0xFFE80000, "PCBuf 0 (BRISC side)"},
        {CORE_BRISC, 0xFFEA0000, "PCBuf 2 (BRISC side)"},
        {CORE_TRISC1, 0xFFE80008, "Manual TTSync"},
        {CORE_TRISC1, 0xFFE80010, "Manual TTSync (undocumented part)"},
        {CORE_TRISC0, 0xFFB121F0, "tile control/debug/status"},
        {CORE_TRISC0, 0xFFBD8000, "Tensix Dst window"},
        {CORE_TRISC0, 0xFFB1A000, "TRISC1 local data RAM (slow path)"},
        {CORE_TRISC0, 0xFFB20000, "NoC 0 NIU"},
        {CORE_NCRISC, 0xFFB30040, "NoC 1 NIU"},
        {CORE_TRISC0, 0xFFB40000, "NoC overlay"},
    };
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct region *r = map_find(t, want[i].core, want[i].addr);
        cr_expect(r && !strcmp(r->name, want[i].name), "0x%08x from core %d: %s, want %s",
                  want[i].addr, want[i].core, r ? r->name : "(unmapped)", want[i].name);
    }
    const struct region *b = map_find(t, CORE_BRISC, 0xFFE80020); /* semaphores: TRISCs only */
    cr_expect(b && !strcmp(b->name, "PCBuf 0 (BRISC side)"));
    cr_expect_null(map_find(t, CORE_BRISC, 0xFFBD8000)); /* Dst window: TRISCs only */
    tile_destroy(t);
    t = test_tile(ARCH_WORMHOLE);
    cr_expect_null(map_find(t, CORE_TRISC0, 0xFFBD8000)); /* no Dst window on Wormhole */
    cr_expect_null(map_find(t, CORE_TRISC0, 0xFFB1A000)); /* nor the slow local RAM path */
    tile_destroy(t);
}
