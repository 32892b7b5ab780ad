/* The measurement method of `make calibrate` (bench/calib): the calibration kernel times a loop of
 * operations between two cycle-CSR reads, subtracts the empty loop and divides by the count. Here
 * it measures a figure whose tensim value follows from a documented rule, so a fault in the method
 * (baseline, loop count, rounding, slot order) shows as a wrong number. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Run tensim with `args` plus a dump of n words at addr; the words into w. */
static void run_dump(const char *elfs, unsigned addr, unsigned n, unsigned *w, const char *stats)
{
    char dump[] = "/tmp/test-calibrate-XXXXXX";
    int fd = mkstemp(dump);
    cr_assert(fd >= 0);
    close(fd);
    char args[768], out[4096];
    snprintf(args, sizeof args, "run -q --dump=0x%X:%u:%s%s%s %s", addr, 4 * n, dump,
             stats ? " --stats=" : "", stats ? stats : "", elfs);
    cr_assert_eq(run_tensim(args, out, sizeof out), 0, "%s", out);
    unsigned char b[64] = {0};
    FILE *f = fopen(dump, "rb");
    cr_assert(f);
    cr_assert_eq(fread(b, 1, 4 * n, f), 4u * n);
    fclose(f);
    unlink(dump);
    for (unsigned i = 0; i < n; i++)
        w[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | (unsigned)b[4 * i + 3] << 24;
}

/* Whole-kernel unpack row (bench/calib/unpack.c, silicon 37.5 steady): Blackhole's calibrated
 * unpacker (docs/timing-model.md "Unpackers", core/arch.c) fetches a BF16 tile (2048 bytes) at
 * x4 = 128 bytes per cycle in 16 cycles, with no interference from unpacker 1, and issues an
 * UNPACR only when its unpacker holds no other, so each of unpacker 0's 180 UNPACRs (two per row,
 * 90 rows) costs its 2 start-up cycles plus 16, back to back: busy 180 x 18 = 3240, fetching
 * 2880; unpacker 1's 90: 90 x 18 = 1620. The steady row is unpacker-0-bound at 2 x 18 = 36
 * cycles; semaphore 5 (max 2) lets the core read the clock while up to two rows are still in
 * the Tensix pipeline, so the 80 steady rows read between (80 x 36 - 2 x 36) / 80 = 35.10 and
 * 36.00. */
Test(calibrate, whole_kernel_unpack_row_is_unpacker_bound)
{
    char stats[] = "/tmp/test-calibrate-stats-XXXXXX";
    int fd = mkstemp(stats);
    cr_assert(fd >= 0);
    close(fd);
    unsigned w[2];
    run_dump("--trisc0=build/kernels/calib-unpack-t0.elf "
             "--trisc1=build/kernels/calib-unpack-t1.elf",
             CALIB_WK_UNPACK, 2, w, stats);
    char *json = read_whole_file(stats, NULL);
    unlink(stats);
    cr_assert(json);
    cr_expect(strstr(json, "\"unpackers\": [{\"instructions\": 180, \"busy_cycles\": 3240, "
                           "\"startup_cycles\": 360, \"fetch_cycles\": 2880") != NULL,
              "%s", json);
    cr_expect(strstr(json, "{\"instructions\": 90, \"busy_cycles\": 1620, "
                           "\"startup_cycles\": 180, \"fetch_cycles\": 1440") != NULL,
              "%s", json);
    free(json);
    cr_expect(w[0] >= 3510 && w[0] <= 3600, "steady row: %u hundredths of a cycle", w[0]);
}

/* Whole-kernel math tile-K step (bench/calib/math.c, silicon 54 unthrottled, 49 throttle0): the
 * unthrottled replays hold 64 plain NOPs besides throttle0's 32 MVMULs and SETRWC, and each NOP
 * takes its thread a cycle at the gate (WH:NOP.md; replay.skips_nops off, core/timing.def): the
 * unthrottled row costs exactly 64 cycles more (silicon: 5; docs/timing-model.md has the finding). */
Test(calibrate, whole_kernel_math_replayed_nops_cost_a_cycle_each)
{
    unsigned w[2];
    run_dump("--trisc1=build/kernels/calib-math.elf", CALIB_WK_MATH, 2, w, NULL);
    cr_expect_eq(w[0], w[1] + 64, "unthrottled %u, throttle0 %u cycles", w[0], w[1]);
}
