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

/* Runs tensim with `programs` and returns the n (<= 4) words it leaves at addr. */
static void run_and_read(const char *programs, unsigned addr, unsigned n, unsigned *words)
{
    char dump[] = "/tmp/test-calibrate-XXXXXX";
    int fd = mkstemp(dump);
    cr_assert(fd >= 0);
    close(fd);
    char args[512], out[4096];
    snprintf(args, sizeof args, "run -q --dump=0x%X:%u:%s %s", addr, 4 * n, dump, programs);
    cr_assert_eq(run_tensim(args, out, sizeof out), 0, "%s", out);
    unsigned char b[16] = {0};
    FILE *f = fopen(dump, "rb");
    cr_assert(f);
    cr_assert_eq(fread(b, 1, 4 * n, f), 4 * n);
    fclose(f);
    unlink(dump);
    for (unsigned i = 0; i < n; i++)
        words[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | (unsigned)b[4 * i + 3] << 24;
}

Test(calibrate, local_ram_lw_is_one_cycle_per_load)
{
    unsigned centi;
    run_and_read("build/kernels/calib.elf", CALIB_OUT + 4 * CALIB_SLOT_LOCAL_LW, 1, &centi);
    /* The silicon probe's loop: beq, lw s1, addi, j. The load's 2-cycle latency (core/timing.def
     * load_local) is over before the next lw, and nothing reads s1: the loop takes 4 cycles
     * against the empty loop's 3, 1.00 cycle per load over 10000 iterations, stored as 100. */
    cr_expect_eq(centi, 100u, "local data RAM lw: %u hundredths of a cycle", centi);
}

/* whole-kernel figures (issue 16 item 3): bench/calib/pack.c packs one 32x32 tile from Dst with
 * 64 one-interface PACRs (ReadIntfSel 0b0001: one 16-value Dst row each) from a MOP, timed from
 * after a CoprocessorDoneCheck round trip to after the STALLWAIT(packer) + round trip that
 * drains it (silicon: BF16 116, FP32 180). */
Test(calibrate, whole_kernel_pack_one_tile)
{
    unsigned w[2];
    run_and_read("--trisc2=build/kernels/calib-pack.elf", CALIB_WK_PACK, 2, w);
    const unsigned bf16 = w[0], fp32 = w[1];
    /* The Blackhole packer writes 32 bytes per cycle per enabled Dst read interface and a PACR
     * stays 16 cycles in the pipeline after its last write (core/timing.def pack.write_bytes,
     * pack.latency; docs/timing-model.md "Packers"): a BF16 row (32 bytes) takes 1 cycle, an
     * FP32 row (64 bytes) 2, so the 64 rows cost 64 and 128 cycles and FP32 is exactly 64
     * cycles dearer. The rest of the FP32 figure, 171 - 128 = 43 (the same for BF16:
     * 107 = 64 + 43), is the last PACR's 16 cycles of pipeline latency (the STALLWAIT C3 and
     * the CoprocessorDoneCheck wait them out; the other PACRs' latencies overlap the next
     * writes) plus the fixed path of 27: the MOP pushed by the core reaches the gate 3 cycles
     * later (TRISC push latency), the first PACR's 2-cycle start-up, the latched STALLWAIT's
     * release cycle, the CoprocessorDoneCheck load (latency 3 after the thread is idle), the
     * closing csrr (4, serialising) and the core's own set-up instructions (three fused SETADC,
     * two li/li/sw Config writes, SETADCXX, MOP, STALLWAIT). Silicon: 116 / 180
     * (docs/timing-model.md "Whole-kernel figures" has the remaining first-pass gap). */
    cr_expect_eq(fp32 - bf16, 64u, "FP32 - BF16 = %u cycles", fp32 - bf16);
    cr_expect_eq(fp32, 171u, "pack one FP32 tile: %u cycles", fp32);
}
