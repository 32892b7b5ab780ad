/* The SDK's multi-tile examples (riscv/sdk/examples/chip, docs/sdk.md "Dataflow between tiles")
 * run on a chip as a user runs them: `tensim run --run build/kernels/chip/<example>/run.json`,
 * at 1 and 2 host threads. Each kernel checks what it received and exits non-zero on a
 * mismatch; the DRAM outputs must equal what the host generator computed, and the statistics
 * (cycles, every tile's counters, the NoC's links) must be byte-identical at both thread
 * counts (issue 20 "Done when"). */
#include <criterion/criterion.h>
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
