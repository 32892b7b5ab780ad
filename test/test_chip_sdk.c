/* The SDK's multi-tile examples (riscv/sdk/examples/chip, docs/sdk.md "Dataflow between tiles")
 * run on a chip as a user runs them: `tensim run --run build/kernels/chip/<example>/run.json`,
 * at 1 and 2 host threads. Each kernel checks what it received and exits non-zero on a
 * mismatch; the DRAM outputs must equal what the host generator computed, and the statistics
 * (cycles, every tile's counters, the NoC's links) must be byte-identical at both thread
 * counts (issue 20 "Done when"). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define CHIPK "build/kernels/chip/"

static void same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = read_whole_file(a, &na), *y = read_whole_file(b, &nb);
    cr_assert(x && y, "%s / %s", a, b);
    cr_assert(na == nb && !memcmp(x, y, na), "%s differs from %s", a, b);
    free(x);
    free(y);
}

/* Runs the example at -j 1 and -j 2; `out`/`expected` (may be NULL): a DRAM read file of the
 * run description and the generator's expectation of it. */
static void example(const char *name, const char *out, const char *expected)
{
    char buf[8192], s1[256], s2[256], o[256], e[256];
    snprintf(s1, sizeof s1, "/tmp/tensim-chip-%s-%d-1.json", name, getpid());
    snprintf(s2, sizeof s2, "/tmp/tensim-chip-%s-%d-2.json", name, getpid());
    for (unsigned j = 1; j <= 2; j++) {
        cr_assert_eq(run_tensimf(buf, sizeof buf, "run -q --no-pin -j %u --run " CHIPK "%s/run.json --stats %s",
                                 j, name, j == 1 ? s1 : s2),
                     0, "%s -j %u: %s", name, j, buf);
        if (out) {
            snprintf(o, sizeof o, CHIPK "%s/%s", name, out);
            snprintf(e, sizeof e, CHIPK "%s/%s", name, expected);
            same_file(o, e);
            remove(o);
        }
    }
    same_file(s1, s2);
    remove(s1);
    remove(s2);
}

Test(chip_sdk, pipeline3_reader_compute_writer, .timeout = 120)
{
    example("pipeline3", "output.bin", "expected-output.bin");
}

Test(chip_sdk, matmul16_with_multicast, .timeout = 120)
{
    example("matmul16", "c.bin", "expected-c.bin");
}

Test(chip_sdk, alltoall, .timeout = 120)
{
    example("alltoall", NULL, NULL);
}

Test(chip_sdk, alltoall_on_both_nocs, .timeout = 120)
{
    example("alltoall-2noc", NULL, NULL);
}

/* A chip's trace (docs/user-guide.md "Running a chip"): one document with every tile's processes
 * named by its place, distinct process ids, the NoC instants of every tile (one "received" per
 * packet its NIUs applied, as the stats count them), byte-identical at 1 and 2 host threads. */
Test(chip_sdk, trace_of_a_chip, .timeout = 120)
{
    char buf[8192], t1[256], t2[256], st[256];
    snprintf(t1, sizeof t1, "/tmp/tensim-chip-trace-%d-1.json", getpid());
    snprintf(t2, sizeof t2, "/tmp/tensim-chip-trace-%d-2.json", getpid());
    snprintf(st, sizeof st, "/tmp/tensim-chip-trace-%d.stats", getpid());
    cr_assert_eq(run_tensimf(buf, sizeof buf, "run -q --no-pin -j 1 --run " CHIPK "alltoall/run.json "
                             "--trace %s --stats %s", t1, st), 0, "%s", buf);
    cr_assert_eq(run_tensimf(buf, sizeof buf, "run -q --no-pin -j 2 --run " CHIPK "alltoall/run.json "
                             "--trace %s", t2), 0, "%s", buf);
    same_file(t1, t2);
    json_error_t e;
    json_t *doc = json_load_file(t1, 0, &e), *stats = json_load_file(st, 0, &e);
    cr_assert(doc && stats, "%s", e.text);
    json_t *ev = json_object_get(doc, "traceEvents");
    json_t *tiles = json_object_get(json_object_get(stats, "chip"), "tiles");
    cr_assert_eq(json_array_size(tiles), 16);
    unsigned named = 0;
    for (size_t i = 0; i < json_array_size(tiles); i++) {
        json_t *tile = json_array_get(tiles, i);
        json_t *at = json_object_get(tile, "at");
        char want[64];
        snprintf(want, sizeof want, "tile (%lld, %lld) NoC (packets of this tile's NIUs)",
                 json_integer_value(json_array_get(at, 0)), json_integer_value(json_array_get(at, 1)));
        long long pid = -1, received = 0;
        for (size_t k = 0; k < json_array_size(ev); k++) {
            json_t *x = json_array_get(ev, k);
            const char *n = json_string_value(json_object_get(x, "name"));
            if (n && !strcmp(n, "process_name") &&
                !strcmp(json_string_value(json_object_get(json_object_get(x, "args"), "name")), want))
                pid = json_integer_value(json_object_get(x, "pid")), named++;
        }
        cr_assert_geq(pid, 0, "%s", want);
        for (size_t k = 0; k < json_array_size(ev); k++) {
            json_t *x = json_array_get(ev, k);
            const char *cat = json_string_value(json_object_get(x, "cat"));
            received += cat && !strcmp(cat, "noc") && json_integer_value(json_object_get(x, "pid")) == pid &&
                        json_integer_value(json_object_get(x, "tid")) == 1;
        }
        cr_assert_eq(received, json_integer_value(json_object_get(json_object_get(tile, "noc"), "received")),
                     "%s", want);
    }
    cr_assert_eq(named, 16);
    json_decref(doc);
    json_decref(stats);
    remove(t1);
    remove(t2);
    remove(st);
}

Test(chip_sdk, mmfpu_matrix_unit_on_16_tiles, .timeout = 120)
{
    example("mmfpu", "c.bin", "expected-c.bin");
}
