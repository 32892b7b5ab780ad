/* The "chip" key of a run description (docs/run-description.md "Chips"): what the parser reads
 * and every mistake it refuses, word for word. Parsing needs no chip (core/run_desc.c calls no
 * chip_* function); what needs one, the grid and the run, is in test/test_chip_run.c. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/run_desc.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

#define BAD "/tmp/tensim-chip-desc-bad.json"
/* a tile that parses, for cases about the rest */
#define TILE "{\"at\": [1, 2], \"programs\": {\"trisc0\": \"a.elf\"}}"

struct bad_case {
    const char *json, *message; /* the message after "FILE: " */
};

Test(run_desc_chip, every_mistake_is_named_exactly)
{
    static const struct bad_case cases[] = {
        {"{\"tensim_run\": 1, \"chp\": {}}", "unknown key \"chp\" (did you mean \"chip\"?)"},
        {"{\"tensim_run\": 1, \"chip\": []}", "chip: expected {\"tiles\": [...], ...}"},
        {"{\"tensim_run\": 1, \"chip\": {}}", "chip: missing \"tiles\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tile\": []}}", "chip: unknown key \"tile\" (did you mean \"tiles\"?)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": []}}", "chip.tiles: expected a non-empty array of tiles"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [1]}}",
         "chip.tiles[0]: expected {\"at\": [x, y], \"programs\": {...}, ...}"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"programs\": {\"trisc0\": \"a\"}}]}}",
         "chip.tiles[0]: missing \"at\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2]}]}}", "chip.tiles[0]: missing \"programs\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {}}]}}",
         "chip.tiles[0].programs: the tile has no program"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"trisc3\": \"a\"}}]}}",
         "chip.tiles[0].programs: unknown key \"trisc3\" (did you mean \"trisc0\"?)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"trisc0\": 5}}]}}",
         "chip.tiles[0].programs.trisc0: expected a file name"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1], \"programs\": {}}]}}",
         "chip.tiles[0].at: expected [x, y] (NoC 0 coordinates)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": \"1,2\", \"programs\": {}}]}}",
         "chip.tiles[0].at: expected [x, y] (NoC 0 coordinates)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, -2], \"programs\": {}}]}}",
         "chip.tiles[0].at[1]: expected a number (a non-negative integer, or a string such as \"0x1FFB8\")"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [256, 2], \"programs\": {}}]}}",
         "chip.tiles[0].at[0]: 256 is more than 255"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE ", {\"at\": [2, 2], \"programs\": {\"brisc\": \"b\"}}, "
         "{\"at\": [\"1\", \"0x2\"], \"programs\": {\"trisc0\": \"a\"}}]}}",
         "chip.tiles[2].at: (1, 2) is taken by chip.tiles[0]"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"trisc0\": \"a\"}, \"l2\": []}]}}",
         "chip.tiles[0]: unknown key \"l2\" (did you mean \"l1\"?)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"trisc0\": \"a\"}, "
         "\"l1\": [{\"addr\": \"0x20002\", \"words\": [1]}]}]}}",
         "chip.tiles[0].l1[0].addr: 0x20002 is not word-aligned"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"trisc0\": \"a\"}, "
         "\"l1\": [{\"addr\": \"0x17fffc\", \"words\": [1, 2]}]}]}}",
         "chip.tiles[0].l1[0].words: 0x17fffc+0x8 is outside L1 (0x0-0x17ffff)"},
        {"{\"tensim_run\": 1, \"arch\": \"wormhole\", \"chip\": {\"tiles\": [{\"at\": [1, 1], \"programs\": {\"trisc0\": \"a\"}, "
         "\"l1\": [{\"addr\": \"0x16e000\", \"file\": \"f\"}]}]}}",
         "chip.tiles[0].l1[0].addr: 0x16e000 is outside L1 (0x0-0x16dfff)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"trisc0\": \"a\"}, "
         "\"read\": [{\"addr\": \"0x17fff0\", \"len\": 32, \"file\": \"o\"}]}]}}",
         "chip.tiles[0].read[0]: 0x17fff0+0x20 is outside L1 (0x0-0x17ffff)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"trisc0\": \"a\"}, "
         "\"read\": [{\"addr\": 0, \"len\": 4}]}]}}",
         "chip.tiles[0].read[0]: missing \"file\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram\": [{\"addr\": 0, \"words\": [1]}]}}",
         "chip.dram[0]: missing \"at\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram\": [{\"at\": [0, 0], \"addr\": 0}]}}",
         "chip.dram[0]: give one of \"file\" and \"words\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram\": [{\"at\": [0, 0], \"addr\": 2, \"words\": [1]}]}}",
         "chip.dram[0].addr: 0x2 is not word-aligned"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram\": [{\"at\": [0, 0], \"addr\": \"0xfffffffc\", "
         "\"words\": [1, 2]}]}}",
         "chip.dram[0].words: 0xfffffffc+0x8 is outside a DRAM bank (0x0-0xffffffff)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram\": [{\"at\": [0, 0], \"addr\": \"0x100000000\", "
         "\"file\": \"f\"}]}}",
         "chip.dram[0].addr: 0x100000000 is outside a DRAM bank (0x0-0xffffffff)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram\": [{\"at\": [0, 0], \"addr\": 0, \"words\": []}]}}",
         "chip.dram[0].words: expected a non-empty array of numbers"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram_read\": [{\"at\": [0, 0], \"addr\": 0, \"file\": \"o\"}]}}",
         "chip.dram_read[0]: missing \"len\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram_read\": [{\"at\": [0, 0], \"addr\": \"0xffffff00\", "
         "\"len\": \"0x200\", \"file\": \"o\"}]}}",
         "chip.dram_read[0]: 0xffffff00+0x200 is outside a DRAM bank (0x0-0xffffffff)"},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram_read\": [{\"at\": [0, 0], \"addr\": 0, "
         "\"len\": 4, \"file\": \"o\", \"size\": 4}]}}",
         "chip.dram_read[0]: unknown key \"size\""},
        {"{\"tensim_run\": 1, \"chip\": {\"tiles\": [" TILE "], \"dram\": {}}}", "chip.dram: expected an array"},
        {"{\"tensim_run\": 1, \"programs\": {\"trisc0\": \"a\"}, \"chip\": {\"tiles\": [" TILE "]}}",
         "programs: not with \"chip\": give each tile's in chip.tiles[i].programs"},
        {"{\"tensim_run\": 1, \"l1\": [], \"chip\": {\"tiles\": [" TILE "]}}",
         "l1: not with \"chip\": give each tile's in chip.tiles[i].l1"},
        {"{\"tensim_run\": 1, \"read\": [], \"chip\": {\"tiles\": [" TILE "]}}",
         "read: not with \"chip\": give each tile's in chip.tiles[i].read"},
        {"{\"tensim_run\": 1, \"boot\": \"none\", \"chip\": {\"tiles\": [" TILE "]}}",
         "boot: not with \"chip\": only a run of one tile has it"},
        {"{\"tensim_run\": 1, \"host\": [], \"chip\": {\"tiles\": [" TILE "]}}",
         "host: not with \"chip\": only a run of one tile has it"},
        {"{\"tensim_run\": 1, \"end\": \"kernel_complete\", \"chip\": {\"tiles\": [" TILE "]}}",
         "end: not with \"chip\": only a run of one tile has it"},
        {"{\"tensim_run\": 1, \"layout\": \"tt-llk-36b092e8\", \"chip\": {\"tiles\": [" TILE "]}}",
         "layout: not with \"chip\": only a run of one tile has it"},
        {"{\"tensim_run\": 1, \"zones\": \"z.csv\", \"chip\": {\"tiles\": [" TILE "]}}",
         "zones: not with \"chip\": only a run of one tile has it"},
        {"{\"tensim_run\": 1, \"poll_cycles\": 4, \"chip\": {\"tiles\": [" TILE "]}}",
         "poll_cycles: not with \"chip\": only a run of one tile has it"},
        {"{\"tensim_run\": 1, \"threads\": 0, \"chip\": {\"tiles\": [" TILE "]}}", "threads: must be positive"},
        {"{\"tensim_run\": 1, \"threads\": 65, \"chip\": {\"tiles\": [" TILE "]}}", "threads: 65 is more than 64"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text(BAD, cases[i].json);
        struct run_desc *rd = malloc(sizeof *rd);
        char err[600], want[600];
        snprintf(want, sizeof want, "%s: %s", BAD, cases[i].message);
        cr_expect_eq(run_desc_load(rd, BAD, NULL, err, sizeof err), -1, "%s", cases[i].json);
        cr_expect_str_eq(err, want, "%s", cases[i].json);
        run_desc_free(rd);
        free(rd);
    }
}

/* 257 tiles: one more than a run can hold. */
Test(run_desc_chip, at_most_256_tiles)
{
    size_t cap = 300 * 64;
    char *json = malloc(cap);
    size_t used = (size_t)snprintf(json, cap, "{\"tensim_run\": 1, \"chip\": {\"tiles\": [");
    for (unsigned i = 0; i < 257; i++)
        used += (size_t)snprintf(json + used, cap - used, "%s{\"at\": [%u, %u], \"programs\": {\"trisc0\": \"a\"}}",
                                 i ? ", " : "", i % 17, i / 17);
    snprintf(json + used, cap - used, "]}}");
    write_text("/tmp/tensim-chip-desc-many.json", json);
    free(json);
    struct run_desc *rd = malloc(sizeof *rd);
    char err[600];
    cr_expect_eq(run_desc_load(rd, "/tmp/tensim-chip-desc-many.json", NULL, err, sizeof err), -1);
    cr_expect_str_eq(err, "/tmp/tensim-chip-desc-many.json: chip.tiles: at most 256 entries");
    run_desc_free(rd);
    free(rd);
}

Test(run_desc_chip, a_chip_description_is_read_whole)
{
    write_text("/tmp/tensim-chip-desc-ok.json",
               "{\"tensim_run\": 1, \"arch\": \"blackhole\", \"max_cycles\": 5000, \"threads\": \"4\",\n"
               " \"loader\": \"segments\", \"unpredictable\": \"warn\",\n"
               " \"chip\": {\"tiles\": [\n"
               "   {\"at\": [1, 2], \"programs\": {\"brisc\": \"b.elf\", \"trisc2\": \"/abs/t2.elf\"},\n"
               "    \"l1\": [{\"addr\": \"0x30000\", \"words\": [7, 8]}, {\"addr\": 16, \"file\": \"in.bin\"}],\n"
               "    \"read\": [{\"addr\": \"0x30100\", \"len\": 16, \"file\": \"out.bin\"}]},\n"
               "   {\"at\": [\"0x10\", 11], \"programs\": {\"ncrisc\": \"n.elf\"}}],\n"
               "  \"dram\": [{\"at\": [0, 0], \"addr\": \"0xfffffff8\", \"words\": [1, 2]},\n"
               "           {\"at\": [9, 3], \"addr\": 64, \"file\": \"d.bin\"}],\n"
               "  \"dram_read\": [{\"at\": [0, 0], \"addr\": \"0xfffffff0\", \"len\": 16, \"file\": \"d.out\"}]}}\n");
    struct run_desc *rd = malloc(sizeof *rd);
    char err[600];
    cr_assert_eq(run_desc_load(rd, "/tmp/tensim-chip-desc-ok.json", NULL, err, sizeof err), 0, "%s", err);
    const struct run_chip *c = rd->chip;
    cr_assert(c);
    cr_expect_eq(rd->threads, 4);
    cr_expect_eq(rd->max_cycles, 5000);
    cr_expect_eq(rd->loader, ELF_LOADER_SEGMENTS);
    cr_expect(rd->unpredictable_warn);
    for (int k = 0; k < NUM_CORES; k++)
        cr_expect_null(rd->program[k], "no top-level programs with a chip");
    cr_assert_eq(c->ntiles, 2);
    cr_expect_eq(c->tile[0].x, 1);
    cr_expect_eq(c->tile[0].y, 2);
    cr_expect_str_eq(c->tile[0].program[CORE_BRISC], "/tmp/b.elf");
    cr_expect_str_eq(c->tile[0].program[CORE_TRISC2], "/abs/t2.elf");
    cr_expect_null(c->tile[0].program[CORE_TRISC0]);
    cr_assert_eq(c->tile[0].nl1, 2);
    cr_expect_eq(c->tile[0].l1[0].addr, 0x30000);
    cr_expect_eq(c->tile[0].l1[0].nwords, 2);
    cr_expect_eq(rd->words[c->tile[0].l1[0].first + 1], 8);
    cr_expect_str_eq(c->tile[0].l1[1].file, "/tmp/in.bin");
    cr_assert_eq(c->tile[0].nread, 1);
    cr_expect_eq(c->tile[0].read[0].len, 16);
    cr_expect_str_eq(c->tile[0].read[0].file, "/tmp/out.bin");
    cr_expect_eq(c->tile[1].x, 16);
    cr_expect_eq(c->tile[1].y, 11);
    cr_expect_str_eq(c->tile[1].program[CORE_NCRISC], "/tmp/n.elf");
    cr_assert_eq(c->ndram, 2);
    cr_expect_eq(c->dram[0].addr, 0xfffffff8u);
    cr_expect_eq(c->dram[0].nwords, 2);
    cr_expect_eq(rd->words[c->dram[0].first], 1);
    cr_expect_eq(c->dram[1].x, 9);
    cr_expect_eq(c->dram[1].y, 3);
    cr_expect_str_eq(c->dram[1].file, "/tmp/d.bin");
    cr_assert_eq(c->ndram_read, 1);
    cr_expect_eq(c->dram_read[0].addr, 0xfffffff0u);
    cr_expect_eq(c->dram_read[0].len, 16);
    cr_expect_str_eq(c->dram_read[0].file, "/tmp/d.out");
    run_desc_free(rd);
    free(rd);
}

/* "threads" is accepted in a run of one tile too (one tile runs on one thread; docs). */
Test(run_desc_chip, threads_without_a_chip_is_accepted)
{
    write_text("/tmp/tensim-chip-desc-one.json",
               "{\"tensim_run\": 1, \"threads\": 8, \"programs\": {\"trisc0\": \"a.elf\"}}");
    struct run_desc *rd = malloc(sizeof *rd);
    char err[600];
    cr_assert_eq(run_desc_load(rd, "/tmp/tensim-chip-desc-one.json", NULL, err, sizeof err), 0, "%s", err);
    cr_expect_null(rd->chip);
    cr_expect_eq(rd->threads, 8);
    run_desc_free(rd);
    free(rd);
}
