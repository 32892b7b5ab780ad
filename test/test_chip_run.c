/* tensim run with a chip run description (docs/run-description.md "Chips", docs/user-guide.md
 * "Running a chip"): the command line's errors, the grid's, and runs of several tiles with their
 * L1 and DRAM inputs and outputs, the exit status, the report and --stats.
 *
 * Every test here runs build/tensim, which links only once core/chip.c (the chip's
 * implementation) exists; until then the file compiles to nothing. The grid facts used are
 * Blackhole's NoC 0 map: DRAM at x = 0 and x = 9, Tensix tiles at x 1-7 and 10-16, y 2-11, a
 * 17 x 12 grid. */
#if __has_include("../core/chip.c")

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot write %s", path);
    cr_assert_eq(fwrite(b, 1, n, f), n);
    fclose(f);
}

/* build/guest/NAME.elf, absolute (the descriptions live in /tmp) */
static const char *elf(const char *name)
{
    static char buf[4][512];
    static unsigned next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/build/guest/%s.elf", getenv("PWD"), name);
    return b;
}

/* One tile at (1, 2) running exit7: the smallest chip run. */
static void one_tile_json(const char *path)
{
    char json[1024];
    snprintf(json, sizeof json, "{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], "
             "\"programs\": {\"trisc0\": \"%s\"}}]}}", elf("exit7"));
    write_text(path, json);
}

Test(chip_run, options_about_one_tile_are_usage_errors)
{
    static const char *const opts[][2] = {
        {"--gdb=0", "gdb"},
        {"--profile=/tmp/tensim-chip-x.txt", "profile"},
        {"--dump-state=cycle=1:all:/tmp/tensim-chip-x.txt", "dump-state"},
        {"--zones=/tmp/tensim-chip-x.csv", "zones"},
        {"--load=/tmp/tensim-chip-x.bin@0x30000", "load"},
        {"--dump=0x30000:16:/tmp/tensim-chip-x.bin", "dump"},
        {"--lint", "lint"},
    };
    const char *desc = "/tmp/tensim-chip-opts.json";
    one_tile_json(desc);
    for (unsigned i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        char out[4096], want[300];
        cr_expect_eq(run_tensimf(out, sizeof out, "run --run %s %s", desc, opts[i][0]), 100, "%s: %s",
                     opts[i][0], out);
        snprintf(want, sizeof want, "tensim: usage: --%s is for a run of one tile; the run description "
                 "%s runs a chip (\"chip\")\n", opts[i][1], desc);
        cr_expect(strstr(out, want) == out, "%s:\n  gave: %s\n  want: %s", opts[i][0], out, want);
    }
    char out[4096];
    cr_expect_eq(run_tensimf(out, sizeof out, "run --run %s %s", desc, elf("exit7")), 100, "%s", out);
    cr_expect(strstr(out, "programs come from the run description") != NULL, "%s", out);
}

Test(chip_run, threads_are_checked)
{
    static const char *const bad[] = {"-j 0", "-j 65", "--threads=x", "-j -1"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char out[4096], want[200];
        cr_expect_eq(run_tensimf(out, sizeof out, "run %s %s", bad[i], elf("exit7")), 100, "%s", bad[i]);
        snprintf(want, sizeof want, "tensim: usage: -j wants a number from 1 to 64, not '%s'\n",
                 strchr(bad[i], ' ') ? strchr(bad[i], ' ') + 1 : strchr(bad[i], '=') + 1);
        cr_expect(strstr(out, want) == out, "%s:\n  gave: %s\n  want: %s", bad[i], out, want);
    }
    /* one tile runs on one thread whatever -j says */
    char out[4096];
    cr_expect_eq(run_tensimf(out, sizeof out, "run -q -j 4 --no-pin %s", elf("exit7")), 7, "%s", out);
}

struct grid_case {
    const char *chip, *message; /* "chip" key's value; the message after "FILE: " */
};

Test(chip_run, places_are_checked_against_the_grid)
{
    char t[256];
    snprintf(t, sizeof t, "{\"at\": [1, 2], \"programs\": {\"trisc0\": \"%s\"}}", elf("exit7"));
    char cases[5][2][1024];
    snprintf(cases[0][0], sizeof cases[0][0], "{\"tiles\": [{\"at\": [0, 0], \"programs\": {\"trisc0\": \"%s\"}}]}",
             elf("exit7"));
    snprintf(cases[0][1], sizeof cases[0][1], "chip.tiles[0].at: (0, 0) is a DRAM tile, not a Tensix tile");
    snprintf(cases[1][0], sizeof cases[1][0], "{\"tiles\": [%s, {\"at\": [17, 3], \"programs\": {\"trisc0\": \"%s\"}}]}",
             t, elf("exit7"));
    snprintf(cases[1][1], sizeof cases[1][1], "chip.tiles[1].at: (17, 3) is outside the 17 x 12 grid (x 0-16, y 0-11)");
    snprintf(cases[2][0], sizeof cases[2][0], "{\"tiles\": [%s], \"dram\": [{\"at\": [1, 3], \"addr\": 0, \"words\": [1]}]}", t);
    snprintf(cases[2][1], sizeof cases[2][1], "chip.dram[0].at: (1, 3) is a Tensix tile, not a DRAM tile");
    snprintf(cases[3][0], sizeof cases[3][0], "{\"tiles\": [%s], \"dram_read\": [{\"at\": [0, 12], \"addr\": 0, "
             "\"len\": 4, \"file\": \"/tmp/tensim-chip-grid.bin\"}]}", t);
    snprintf(cases[3][1], sizeof cases[3][1], "chip.dram_read[0].at: (0, 12) is outside the 17 x 12 grid (x 0-16, y 0-11)");
    snprintf(cases[4][0], sizeof cases[4][0], "{\"tiles\": [%s], \"dram\": [{\"at\": [0, 0], \"addr\": 0, "
             "\"file\": \"/tmp/tensim-chip-nothere.bin\"}]}", t);
    snprintf(cases[4][1], sizeof cases[4][1], "chip.dram[0]: /tmp/tensim-chip-nothere.bin: cannot open");
    const char *desc = "/tmp/tensim-chip-grid.json";
    for (unsigned i = 0; i < 5; i++) {
        char json[1100], out[4096], want[1100];
        snprintf(json, sizeof json, "{\"tensim_run\": 1, \"chip\": %.1023s}", cases[i][0]);
        write_text(desc, json);
        remove("/tmp/tensim-chip-grid.bin");
        cr_expect_eq(run_tensimf(out, sizeof out, "run --run %s", desc), 111, "%s\n%s", json, out);
        snprintf(want, sizeof want, "tensim: bad run description: %s: %.1023s", desc, cases[i][1]);
        cr_expect(strstr(out, want) == out, "%s:\n  gave: %s\n  want: %s", json, out, want);
        cr_expect_null(fopen("/tmp/tensim-chip-grid.bin", "r"), "no output is opened before the chip is built");
    }
}

Test(chip_run, outputs_are_not_inputs)
{
    char json[1024], out[4096];
    const char *desc = "/tmp/tensim-chip-io.json";
    snprintf(json, sizeof json, "{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": "
             "{\"trisc0\": \"%s\"}, \"read\": [{\"addr\": 0, \"len\": 4, \"file\": \"/tmp/tensim-chip-io.bin\"}]}], "
             "\"dram_read\": [{\"at\": [0, 0], \"addr\": 0, \"len\": 4, \"file\": \"/tmp/tensim-chip-io.bin\"}]}}",
             elf("exit7"));
    write_text(desc, json);
    cr_expect_eq(run_tensimf(out, sizeof out, "run --run %s", desc), 100, "%s", out);
    cr_expect(strstr(out, "tensim: usage: two outputs go to /tmp/tensim-chip-io.bin\n") == out, "%s", out);
    write_bytes("/tmp/tensim-chip-io-in.bin", "abcd", 4);
    snprintf(json, sizeof json, "{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": "
             "{\"trisc0\": \"%s\"}}], \"dram\": [{\"at\": [0, 0], \"addr\": 0, \"file\": \"/tmp/tensim-chip-io-in.bin\"}], "
             "\"dram_read\": [{\"at\": [0, 0], \"addr\": 0, \"len\": 4, \"file\": \"/tmp/tensim-chip-io-in.bin\"}]}}",
             elf("exit7"));
    write_text(desc, json);
    cr_expect_eq(run_tensimf(out, sizeof out, "run --run %s", desc), 100, "%s", out);
    cr_expect(strstr(out, "tensim: usage: /tmp/tensim-chip-io-in.bin is both an input and an output of the run\n") == out,
              "%s", out);
    cr_expect_eq(run_tensimf(out, sizeof out, "run --run %s --stats %s", desc, elf("exit7")), 100, "%s", out);
    cr_expect(strstr(out, "is both an input and an output of the run") != NULL, "%s", out);
}

/* Two tiles: copy_l1 adds 1 to four words its l1 file put at 0x30000; exit_code exits with the
 * word its l1 "words" put at 0x3F000. DRAM is written and read back. */
static void two_tiles(const char *desc, const char *tag)
{
    static const uint32_t in[4] = {5, 6, 7, 8};
    write_bytes("/tmp/tensim-chip-in.bin", in, sizeof in);
    char json[2048];
    snprintf(json, sizeof json,
             "{\"tensim_run\": 1, \"arch\": \"blackhole\", \"max_cycles\": 100000,\n"
             " \"chip\": {\"tiles\": [\n"
             "   {\"at\": [1, 2], \"programs\": {\"trisc0\": \"%s\"},\n"
             "    \"l1\": [{\"addr\": \"0x30000\", \"file\": \"tensim-chip-in.bin\"}],\n"
             "    \"read\": [{\"addr\": \"0x30100\", \"len\": 16, \"file\": \"tensim-chip-%s-l1.bin\"}]},\n"
             "   {\"at\": [16, 11], \"programs\": {\"trisc0\": \"%s\"},\n"
             "    \"l1\": [{\"addr\": \"0x3F000\", \"words\": [3]}]}],\n"
             "  \"dram\": [{\"at\": [9, 3], \"addr\": \"0x1000\", \"words\": [1, 2, 3]}],\n"
             "  \"dram_read\": [{\"at\": [9, 3], \"addr\": \"0xff8\", \"len\": 20, \"file\": \"tensim-chip-%s-dram.bin\"}]}}\n",
             elf("copy_l1"), tag, elf("exit_code"), tag);
    write_text(desc, json);
}

Test(chip_run, tiles_run_with_their_inputs_and_outputs)
{
    char out[16384];
    two_tiles("/tmp/tensim-chip-two.json", "two");
    cr_assert_eq(run_tensim("run --run /tmp/tensim-chip-two.json -j 2 --stats /tmp/tensim-chip-two-stats.json",
                            out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "guest\n") != NULL, "the cores' output: %s", out);
    cr_expect(strstr(out, "tensim: guest exit: (16, 11) TRISC0 cycle=") != NULL, "%s", out);
    size_t n;
    char *l1 = read_whole_file("/tmp/tensim-chip-two-l1.bin", &n);
    static const uint32_t want_l1[4] = {6, 7, 8, 9};
    cr_expect_eq(n, 16);
    cr_expect(!memcmp(l1, want_l1, 16));
    free(l1);
    char *dram = read_whole_file("/tmp/tensim-chip-two-dram.bin", &n);
    static const uint32_t want_dram[5] = {0, 0, 1, 2, 3};
    cr_expect_eq(n, 20);
    cr_expect(!memcmp(dram, want_dram, 20));
    free(dram);
    char *stats = read_whole_file("/tmp/tensim-chip-two-stats.json", NULL);
    cr_expect(strstr(stats, "\"schema\": \"tensim-stats\"") != NULL, "%s", stats);
    cr_expect(strstr(stats, "\"error\": null,") != NULL, "%s", stats);
    cr_expect(strstr(stats, "\"exit_status\": 3,") != NULL, "%s", stats);
    cr_expect(strstr(stats, "\"guest_exit\": {\"tile\": [16, 11], \"core\": \"TRISC0\", \"code\": 3},") != NULL,
              "%s", stats);
    cr_expect(strstr(stats, "\"dumps\": [{\"file\": \"/tmp/tensim-chip-two-l1.bin\", \"tile\": [1, 2], "
                            "\"addr\": 196864, \"len\": 16, \"written\": true}, {\"file\": "
                            "\"/tmp/tensim-chip-two-dram.bin\", \"dram\": [9, 3], \"addr\": 4088, \"len\": 20, "
                            "\"written\": true}],") != NULL, "%s", stats);
    cr_expect(strstr(stats, "\"chip\": ") != NULL, "%s", stats);
    free(stats);
}

/* The same run on 1 and 3 threads, pinned or not: the same files, byte for byte. */
Test(chip_run, results_do_not_depend_on_the_thread_count)
{
    char out[16384];
    two_tiles("/tmp/tensim-chip-j1.json", "j1");
    two_tiles("/tmp/tensim-chip-j3.json", "j3");
    cr_assert_eq(run_tensim("run -q --run /tmp/tensim-chip-j1.json -j 1 --stats /tmp/tensim-chip-j1-stats.json",
                            out, sizeof out), 3, "%s", out);
    cr_assert_eq(run_tensim("run -q --run /tmp/tensim-chip-j3.json --threads=3 --no-pin "
                            "--stats /tmp/tensim-chip-j3-stats.json", out, sizeof out), 3, "%s", out);
    static const char *const pair[][2] = {
        {"/tmp/tensim-chip-j1-l1.bin", "/tmp/tensim-chip-j3-l1.bin"},
        {"/tmp/tensim-chip-j1-dram.bin", "/tmp/tensim-chip-j3-dram.bin"},
    };
    for (unsigned i = 0; i < 2; i++) {
        size_t n1, n3;
        char *a = read_whole_file(pair[i][0], &n1), *b = read_whole_file(pair[i][1], &n3);
        cr_expect(n1 == n3 && !memcmp(a, b, n1), "%s and %s differ", pair[i][0], pair[i][1]);
        free(a);
        free(b);
    }
    /* the stats differ only in the file names, which hold the tag */
    char *a = read_whole_file("/tmp/tensim-chip-j1-stats.json", NULL), *b = read_whole_file("/tmp/tensim-chip-j3-stats.json", NULL);
    for (char *p = a; (p = strstr(p, "-j1")); p += 3)
        p[2] = '3';
    cr_expect_str_eq(a, b);
    free(a);
    free(b);
}

/* The first failure in tile order decides the status and is printed with the tile's place; a
 * guest exit elsewhere is still reported. */
Test(chip_run, the_first_failing_tile_decides)
{
    char json[1024], out[16384];
    snprintf(json, sizeof json, "{\"tensim_run\": 1, \"chip\": {\"tiles\": ["
             "{\"at\": [1, 2], \"programs\": {\"trisc0\": \"%s\"}}, "
             "{\"at\": [1, 3], \"programs\": {\"trisc0\": \"%s\"}}]}}", elf("exit7"), elf("ebreak"));
    write_text("/tmp/tensim-chip-fail.json", json);
    cr_expect_eq(run_tensim("run -q -j 2 --run /tmp/tensim-chip-fail.json --stats /tmp/tensim-chip-fail-stats.json",
                            out, sizeof out), 108, "%s", out);
    cr_expect(strstr(out, "tensim: breakpoint: (1, 3) TRISC0 pc=0x") != NULL, "%s", out);
    cr_expect(strstr(out, "tensim: guest exit: (1, 2) TRISC0 cycle=") != NULL, "%s", out);
    char *stats = read_whole_file("/tmp/tensim-chip-fail-stats.json", NULL);
    cr_expect(strstr(stats, "\"error\": {\"tile\": [1, 3], \"category\": \"breakpoint\", \"exit_code\": 108, "
                            "\"where\": \"TRISC0\",") != NULL, "%s", stats);
    cr_expect(strstr(stats, "\"exit_status\": 108,") != NULL, "%s", stats);
    free(stats);
    /* a program that cannot be read: nothing runs, 101, the tile named */
    snprintf(json, sizeof json, "{\"tensim_run\": 1, \"chip\": {\"tiles\": ["
             "{\"at\": [1, 2], \"programs\": {\"trisc0\": \"%s\"}}, "
             "{\"at\": [1, 3], \"programs\": {\"brisc\": \"tensim-chip-nothere.elf\"}}]}}", elf("exit7"));
    write_text("/tmp/tensim-chip-fail.json", json);
    cr_expect_eq(run_tensim("run --run /tmp/tensim-chip-fail.json", out, sizeof out), 101, "%s", out);
    cr_expect(strstr(out, "tensim: bad program file: (1, 3) BRISC pc=0x00000000 cycle=0: "
                          "/tmp/tensim-chip-nothere.elf: cannot open") != NULL, "%s", out);
}

#else
typedef int test_chip_run_waits_for_core_chip_c; /* ISO C wants something in a file */
#endif
