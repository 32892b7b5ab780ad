/* The measurement method of `make calibrate` (bench/calib): the calibration kernel times a loop of
 * operations between two cycle-CSR reads, subtracts the empty loop and divides by the count. Here
 * it measures a figure whose tensim value follows from a documented rule, so a fault in the method
 * (baseline, loop count, rounding, slot order) shows as a wrong number. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../bench/calib/calib.h"
#include "harness.h"

Test(calibrate, local_ram_lw_is_one_cycle_per_load)
{
    char dump[] = "/tmp/test-calibrate-XXXXXX";
    int fd = mkstemp(dump);
    cr_assert(fd >= 0);
    close(fd);
    char args[512], out[4096];
    snprintf(args, sizeof args, "run -q --dump=0x%X:4:%s build/kernels/calib.elf",
             CALIB_OUT + 4 * CALIB_SLOT_LOCAL_LW, dump);
    cr_assert_eq(run_tensim(args, out, sizeof out), 0, "%s", out);
    unsigned char b[4] = {0};
    FILE *f = fopen(dump, "rb");
    cr_assert(f);
    cr_assert_eq(fread(b, 1, 4, f), 4u);
    fclose(f);
    unlink(dump);
    /* Each body is lw t0, lw t1, lw t2 from local data RAM: no load reads a register another
     * writes, so nothing waits for the 2-cycle load latency (core/arch.c load_local) and the core
     * issues one load per cycle. 1536 loads cost 1536 cycles over the empty loop: 1.00 cycle per
     * load, which the kernel stores as 100. */
    const unsigned centi = b[0] | b[1] << 8 | b[2] << 16 | (unsigned)b[3] << 24;
    cr_expect_eq(centi, 100u, "local data RAM lw: %u hundredths of a cycle", centi);
}
