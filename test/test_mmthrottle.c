/* The throttled matmul example (riscv/sdk/examples/mmthrottle, bench/suite mm-throttle and
 * mm-fidelity): the matrix unit's steady-state cycles per product at each tt-llk throttle
 * level, derived here from the shape of tt-llk's matmul MOP (llk_math_matmul.h) and tensim's
 * one-instruction-per-cycle issue, and compared with the example's region 1 (TRISC1: from the
 * first push to the thread's drain).
 *
 * The start-up (first unpack) and the tail (drain, TTSync) are the same for any number of
 * inner-dimension steps, so the difference between a 3-step and a 2-step run is exactly one
 * step in the steady state: MT_CT products plus the step's SETRWC handing SrcB back. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../riscv/sdk/examples/mmthrottle/mmthrottle.h"
#include "harness.h"

/* The word at MT_PARAM + 8: inner-dimension steps */
static const char *ksteps_file(unsigned k)
{
    static char path[64];
    /* one file per test process: Criterion runs tests in parallel */
    snprintf(path, sizeof path, "/tmp/tensim-mmthrottle-%ld-k%u.bin", (long)getpid(), k);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    const unsigned char word[4] = {(unsigned char)k, 0, 0, 0};
    cr_assert_eq(fwrite(word, 1, 4, f), 4);
    cr_assert_eq(fclose(f), 0);
    return path;
}

/* Region 1 of TRISC1 (its total cycles) for one sweep point */
static unsigned long region1(unsigned phases, unsigned level, unsigned k)
{
    static char out[16384];
    const char *kf = ksteps_file(k);
    int rc = run_tensimf(out, sizeof out,
                         "run --trisc0=build/kernels/mmthrottle-t0.elf --trisc1=build/kernels/mmthrottle-t1.elf"
                         " --trisc2=build/kernels/mmthrottle-t2.elf"
                         " --load build/kernels/mmthrottle-a.bin@0x%x --load build/kernels/mmthrottle-b.bin@0x%x"
                         " --load bench/suite/fidelity-%u.bin@0x%x --load bench/suite/throttle-%u.bin@0x%x"
                         " --load %s@0x%x",
                         MT_A, MT_B, phases, MT_PARAM, level, MT_PARAM + 4, kf, MT_PARAM + 8);
    unlink(kf);
    cr_assert_eq(rc, 0, "%s", out);
    const char *line = strstr(out, "\nTRISC1 #1 ");
    cr_assert(line, "%s", out);
    unsigned long count = 0, cycles = 0;
    cr_assert_eq(sscanf(line, "\nTRISC1 #1 %lu %lu", &count, &cycles), 2, "%s", out);
    cr_assert_eq(count, 1);
    return cycles;
}

/* Issue slots per fidelity phase of one 32x32x32 product, from tt-llk's MOPs:
 *  - level 0 (matmul_configure_mop): the replay buffer holds the 16 MVMULs;
 *  - levels 1..3 (matmul_configure_mop_throttled): inner loop 2 x (replay of
 *    10 / 3 + 4L words, + the LoopOp1 MVMUL), one outer iteration per phase;
 *  - levels 4, 5: outer 2 x inner 2 x (replay of 1 + 2L words, + the LoopOp1 MVMUL), one MOP
 *    per phase.
 * Every replayed NOP takes its thread's issue slot for a cycle (WH:NOP.md), as every MVMUL. */
static unsigned slots_per_phase(unsigned level)
{
    if (level == 0)
        return 16;
    if (level <= 3)
        return 2 * ((level > 1 ? 3 + 4 * level : 10) + 1);
    return 2 * 2 * ((1 + 2 * level) + 1);
}

/* Issue slots per product: the phases, the SETC16 of the Dst tile (set_dst_write_addr), and a
 * SETRWC handing SrcA back where tt-llk issues one: level 0 at HiFi (the MOP's EndOp0) and
 * levels 4, 5 at HiFi (after the phase MOPs); elsewhere the last MVMUL flips SrcA itself. */
static unsigned slots_per_product(unsigned phases, unsigned level)
{
    const unsigned setrwc = phases > 1 && (level == 0 || level > 3);
    return phases * slots_per_phase(level) + 1 + setrwc;
}

Test(mmthrottle, replay_shapes_give_the_documented_mvmul_rates)
{
    /* the rule itself: 16 MVMULs per phase in 16, 22, 24, 32, 40, 48 slots, the
     * 100/73/67/50/40/33 % that llk_math_matmul.h documents (rounded) */
    static const unsigned pct[6] = {100, 73, 67, 50, 40, 33};
    for (unsigned l = 0; l <= 5; l++) {
        const unsigned s = slots_per_phase(l);
        cr_expect_eq((1600 + s / 2) / s, pct[l], "level %u: 16 MVMULs in %u slots", l, s);
    }
}

Test(mmthrottle, hifi4_steady_state_is_one_issue_per_cycle, .timeout = 120)
{
    /* HiFi4: the math needs at least 66 cycles per product, the unpackers 18 per B tile, so the
     * matrix unit sets the pace at every level: 66, 89, 97, 129, 162, 194 */
    static const unsigned expect[6] = {66, 89, 97, 129, 162, 194};
    for (unsigned l = 0; l <= 5; l++) {
        cr_assert_eq(slots_per_product(4, l), expect[l], "level %u", l);
        unsigned long step = region1(4, l, 3) - region1(4, l, 2);
        cr_expect_eq(step, MT_CT * slots_per_product(4, l) + 1, "level %u: %lu", l, step);
    }
}

Test(mmthrottle, lofi_throttled_levels_follow_the_rule_and_level_0_waits_for_the_unpacker, .timeout = 120)
{
    for (unsigned l = 1; l <= 5; l++) {
        unsigned long step = region1(1, l, 3) - region1(1, l, 2);
        cr_expect_eq(step, MT_CT * slots_per_product(1, l) + 1, "level %u: %lu", l, step);
    }
    /* Level 0 at LoFi would take 17 slots per product, but unpacker 0 needs 18 per B tile:
     * Blackhole's 2 serial start-up cycles (core/timing.def unpack.startup_serial) and 2048
     * bytes at 128 bytes per cycle (unpack.reads_x1 x Throttle_mode x4) = 16. The step's
     * SETRWC and A_k's UNPACR on unpacker 1 hide under that. */
    cr_expect_eq(slots_per_product(1, 0), 17);
    cr_expect_eq(region1(1, 0, 3) - region1(1, 0, 2), MT_CT * 18);
}
