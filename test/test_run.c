/* The tensim command end to end: the SDK examples, --stats, --load/--dump, determinism. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static char out[65536];

#define PIPELINE "--trisc0 build/kernels/pipeline-unpack.elf --trisc1 build/kernels/pipeline-math.elf " \
                 "--trisc2 build/kernels/pipeline-pack.elf"

static char *slurp(const char *path) { return read_whole_file(path, NULL); }

/* Value of "key": N after the first occurrence of `scope` in json. */
static unsigned long long field(const char *json, const char *scope, const char *key)
{
    const char *p = strstr(json, scope);
    cr_assert(p, "no %s", scope);
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    p = strstr(p, pat);
    cr_assert(p, "no %s in %s", key, scope);
    return strtoull(p + strlen(pat), 0, 10);
}

Test(run, hello_prints_and_exits_zero)
{
    cr_expect_eq(run_tensim("run -q build/kernels/hello.elf", out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "hello from TRISC0: crc32(\"123456789\") = 0xcbf43926; checked against the "
                          "known 0xcbf43926: PASS\n");
}

Test(run, three_core_pipeline_with_stats)
{
    cr_expect_eq(run_tensim("run --stats /tmp/tensim-test-stats.json " PIPELINE, out, sizeof out), 0,
                 "%s", out);
    cr_expect(strstr(out, "(checksum 0x18af0d8e); each word checked against the transform computed "
                          "here, 0 mismatches: PASS") != NULL,
              "%s", out);
    cr_expect(strstr(out, "TRISC2 ") != NULL, "report lists TRISC2:\n%s", out);
    char *json = slurp("/tmp/tensim-test-stats.json");
    static const char *const cores[] = {"\"TRISC0\"", "\"TRISC1\"", "\"TRISC2\""};
    static const char *const stalls[] = {"operand", "div", "mispredict", "serialise",
                                         "store_queue", "memory", "tensix_fifo_full", "ttsync", "pcbuf",
                                         "mailbox", "retire_queue", "polling"};
    unsigned long long total = field(json, "\"cycles\"", "cycles"), longest = 0;
    for (int c = 0; c < 3; c++) {
        unsigned long long sum = field(json, cores[c], "active");
        for (size_t s = 0; s < sizeof stalls / sizeof stalls[0]; s++)
            sum += field(json, cores[c], stalls[s]);
        cr_expect_eq(sum, field(json, cores[c], "cycles"), "%s: active + stalls", cores[c]);
        cr_expect_eq(field(json, cores[c], "exit_code"), 0);
        if (sum > longest)
            longest = sum;
    }
    cr_expect_eq(longest, total, "the run ends when the last core halts");
    cr_expect(strstr(json, "\"BRISC\"") == NULL, "cores without a program are not listed");
    free(json);
    unlink("/tmp/tensim-test-stats.json");
}

Test(run, deterministic)
{
    char first[65536];
    cr_assert_eq(run_tensim("run --stats /tmp/tensim-det1.json " PIPELINE, first, sizeof first), 0);
    cr_assert_eq(run_tensim("run --stats /tmp/tensim-det2.json " PIPELINE, out, sizeof out), 0);
    cr_expect_str_eq(first, out);
    char *a = slurp("/tmp/tensim-det1.json"), *b = slurp("/tmp/tensim-det2.json");
    cr_expect_str_eq(a, b);
    free(a);
    free(b);
    unlink("/tmp/tensim-det1.json");
    unlink("/tmp/tensim-det2.json");
}

Test(run, load_and_dump)
{
    const uint32_t in[4] = {1, 2, 0xfffffffe, 41};
    FILE *f = fopen("/tmp/tensim-in.bin", "wb");
    fwrite(in, 4, 4, f);
    fclose(f);
    cr_assert_eq(run_tensim("run -q --load /tmp/tensim-in.bin@0x30000 "
                            "--dump 0x30100:16:/tmp/tensim-out.bin build/guest/copy_l1.elf",
                            out, sizeof out),
                 0, "%s", out);
    uint32_t got[4] = {0};
    f = fopen("/tmp/tensim-out.bin", "rb");
    cr_assert(f);
    cr_expect_eq(fread(got, 4, 4, f), 4);
    fclose(f);
    const uint32_t want[4] = {2, 3, 0xffffffff, 42};
    cr_expect_arr_eq(got, want, sizeof want);
    unlink("/tmp/tensim-in.bin");
    unlink("/tmp/tensim-out.bin");
}

Test(run, load_that_does_not_fit)
{
    FILE *f = fopen("/tmp/tensim-big.bin", "wb");
    fwrite("12345678", 1, 8, f);
    fclose(f);
    cr_expect_eq(run_tensim("run --load /tmp/tensim-big.bin@0x17fffc build/guest/exit7.elf", out,
                            sizeof out),
                 101);
    cr_expect(strstr(out, "/tmp/tensim-big.bin: does not fit in L1 at 0x17fffc (4 bytes of room)"),
              "%s", out);
    unlink("/tmp/tensim-big.bin");
}

Test(run, stats_on_error_names_the_category)
{
    cr_expect_eq(run_tensim("run -q --stats /tmp/tensim-err.json build/guest/undefined.elf", out,
                            sizeof out),
                 102);
    char *json = slurp("/tmp/tensim-err.json");
    cr_expect(strstr(json, "\"category\": \"undefined instruction\", \"exit_code\": 102") != NULL,
              "%s", json);
    free(json);
    unlink("/tmp/tensim-err.json");
}

Test(run, sdk_encoders_reach_the_wait_gate)
{
    cr_expect_eq(run_tensim("run -q --stats /tmp/tensim-ttpush.json build/kernels/tt-push.elf", out,
                            sizeof out),
                 0, "%s", out);
    char *json = slurp("/tmp/tensim-ttpush.json");
    cr_expect(strstr(json, "\"instructions\": {\"STALLWAIT_BH\": 1, \"SEMINIT\": 1, \"NOP\": 1}") != NULL,
              "%s", json);
    cr_expect(strstr(json, "{\"value\": 0, \"max\": 1}") != NULL, "semaphore 2 initialised: %s", json);
    free(json);
    unlink("/tmp/tensim-ttpush.json");
}

Test(run, dump_outside_l1_is_a_usage_error)
{
    cr_expect_eq(run_tensim("run --dump 0x17fff0:32:/tmp/x.bin build/guest/exit7.elf", out, sizeof out),
                 100);
    cr_expect(strstr(out, "--dump range 0x17fff0+0x20 of /tmp/x.bin is outside L1 (0x0-0x17ffff)") != NULL, "%s", out);
}

/* The three-TRISC token ring (riscv/sdk/examples/tokens): every cycle each Tensix thread spends
 * waiting is charged to the semaphore it waits on, and issued + empty + held = total. */
Test(run, token_ring_attributes_waits_to_semaphores)
{
    cr_assert_eq(run_tensim("run -q --stats /tmp/tensim-tokens.json --trisc0 build/kernels/tokens-t0.elf "
                            "--trisc1 build/kernels/tokens-t1.elf --trisc2 build/kernels/tokens-t2.elf",
                            out, sizeof out),
                 0, "%s", out);
    char *json = slurp("/tmp/tensim-tokens.json");
    unsigned long long total = field(json, "\"cycles\"", "cycles");
    static const char *const threads[] = {"\"T0\"", "\"T1\"", "\"T2\""};
    static const char *const reasons[] = {"stallwait", "semwait", "wait_release", "unit_busy",
                                          "arbitration", "thcon", "mutex", "sync_slot", "hazard"};
    /* T0 waits for the token on semaphore 2, T1 on 0, T2 on 1: nothing else */
    static const char *const waits_on[] = {"\"semwait\": {\"2\": ", "\"semwait\": {\"0\": ",
                                           "\"semwait\": {\"1\": "};
    static const char *const released_on[] = {"\"wait_release\": {\"2\": 16}", "\"wait_release\": {\"0\": 16}",
                                              "\"wait_release\": {\"1\": 16}"};
    for (int i = 0; i < 3; i++) {
        unsigned long long sum = field(json, threads[i], "issued") + field(json, threads[i], "empty");
        for (size_t r = 0; r < sizeof reasons / sizeof reasons[0]; r++)
            sum += field(json, threads[i], reasons[r]);
        cr_expect_eq(sum, total, "T%d: every cycle attributed once", i);
        const char *scope = strstr(json, threads[i]);
        const char *next = i < 2 ? strstr(json, threads[i + 1]) : strstr(json, "\"sync\"");
        const char *w = strstr(scope, waits_on[i]);
        cr_expect(w && w < next, "T%d waits only on its semaphore:\n%s", i, json);
        const char *rl = strstr(scope, released_on[i]);
        cr_expect(rl && rl < next, "T%d: one release cycle per round:\n%s", i, json);
        cr_expect_gt(field(json, threads[i], "semwait"), 300);
    }
    /* 16 rounds of SEMGET + 8 NOPs + SEMPOST (+ SEMWAIT), plus T0's SEMINIT */
    cr_expect_eq(field(json, "\"T1\"", "issued"), 16 * 11);
    cr_expect_eq(field(json, "\"T0\"", "issued"), 1 + 16 * 11);
    cr_expect_eq(field(json, "\"units\"", "instructions"), 1 + 3 * 16 * 3, "Sync unit: SEMINIT + 3 x 16 x (SEMWAIT, SEMGET, SEMPOST)");
    cr_expect(strstr(json, "\"by_form\": {\"SEMINIT\": 1, \"SEMPOST\": 48, \"SEMGET\": 48, \"SEMWAIT\": 48}") != NULL, "%s", json);
    free(json);
    unlink("/tmp/tensim-tokens.json");
}

Test(run, trace_shows_waits_and_issues)
{
    cr_assert_eq(run_tensim("run -q --trace /tmp/tensim-trace.json --trisc0 build/kernels/tokens-t0.elf "
                            "--trisc1 build/kernels/tokens-t1.elf --trisc2 build/kernels/tokens-t2.elf",
                            out, sizeof out),
                 0, "%s", out);
    char *tr = slurp("/tmp/tensim-trace.json");
    cr_expect(strncmp(tr, "{\"otherData\":{\"time_unit\":\"1 us = 1 cycle\"}", 43) == 0, "%.80s", tr);
    cr_expect(strstr(tr, "\n]}\n") != NULL, "closed");
    /* T1 waits on semaphore 0: a held interval on track (pid 2, tid 1) with detail 0 */
    cr_expect(strstr(tr, "\"name\":\"semwait\",\"cat\":\"held\"") != NULL, "%.400s", tr);
    cr_expect(strstr(tr, "\"pid\":2,\"tid\":1,\"args\":{\"detail\":0}") != NULL);
    cr_expect(strstr(tr, "\"args\":{\"insn\":\"SEMPOST SemaphoreMask=0x2\"}") != NULL);
    free(tr);
    unlink("/tmp/tensim-trace.json");
}

/* The unpack example (riscv/sdk/examples/unpack): TRISC0 unpacks a BF16 and a BFP8 tile into
 * SrcA/SrcB and Dst; TRISC1 reads Dst back and checks every value (its exit code counts
 * mismatches). The unpacker statistics follow from docs/timing-model.md "Unpackers" (Blackhole,
 * calibrated): unpacker 0 reads 128 + 128 + 64 lines at x4, 8 reads per cycle: 16 + 16 + 8 = 40
 * fetch cycles, each UNPACR's 2 start-up cycles after the previous one has left (46 busy);
 * unpacker 1 reads 64 lines at x4 with no interference: 8 fetch cycles, 10 busy. (Before the
 * Blackhole calibration, Wormhole's interference cut both to x2: 96 and 32 fetch cycles.) */
Test(run, unpack_example_checks_dst_and_counts_unpacker_work)
{
    cr_assert_eq(run_tensim("run --stats /tmp/tensim-unpack.json --trisc0 build/kernels/unpack-t0.elf "
                            "--trisc1 build/kernels/unpack-t1.elf",
                            out, sizeof out),
                 0, "%s", out);
    cr_expect(strstr(out, "all 2048 values read back through the Dst window and checked against the "
                          "tiles' own values, 0 differ: PASS") != NULL, "%s", out);
    char *json = slurp("/tmp/tensim-unpack.json");
    cr_expect(strstr(json, "\"unpackers\": [{\"instructions\": 3, \"busy_cycles\": 46, "
                           "\"startup_cycles\": 6, \"fetch_cycles\": 40, \"l1_reads\": 320") != NULL,
              "%s", json);
    cr_expect(strstr(json, "{\"instructions\": 1, \"busy_cycles\": 10, \"startup_cycles\": 2, "
                           "\"fetch_cycles\": 8, \"l1_reads\": 64, \"exponent_reads\": 4") != NULL,
              "%s", json);
    free(json);
    unlink("/tmp/tensim-unpack.json");
}

/* --trace puts each unpacker instruction on its unpacker's track: start-up, then the fetch. In
 * phase A of the unpack example unpacker 1's UNPACR starts two cycles after unpacker 0's (the
 * start-up rule) and fetches 64 reads at x4 (Blackhole: 8 reads per cycle, no interference)
 * for 8 cycles. */
Test(run, trace_shows_unpacker_activity)
{
    cr_assert_eq(run_tensim("run -q --trace /tmp/tensim-unpack-trace.json --trisc0 "
                            "build/kernels/unpack-t0.elf --trisc1 build/kernels/unpack-t1.elf",
                            out, sizeof out),
                 0, "%s", out);
    char *json = slurp("/tmp/tensim-unpack-trace.json");
    cr_expect(strstr(json, "\"args\":{\"name\":\"unpacker 1\"}") != NULL);
    const char *a = strstr(json, "{\"name\":\"UNPACR\",\"cat\":\"unit\"");
    cr_assert(a != NULL, "%s", json);
    cr_expect(strstr(a, "\"dur\":8,\"pid\":3,\"tid\":1,\"args\":{\"thread\":0}") != NULL);
    free(json);
    unlink("/tmp/tensim-unpack-trace.json");
}

/* The matmul example (three TRISCs, every backend unit busy) twice: identical report, stats and
 * trace. */
Test(run, matmul_example_is_deterministic)
{
#define MATMUL " --trisc0 build/kernels/matmul-t0.elf --trisc1 build/kernels/matmul-t1.elf " \
               "--trisc2 build/kernels/matmul-t2.elf"
    char first[65536];
    cr_assert_eq(run_tensim("run --stats /tmp/tensim-mmdet1.json --trace /tmp/tensim-mmdet1.tr" MATMUL,
                            first, sizeof first), 0, "%s", first);
    cr_assert_eq(run_tensim("run --stats /tmp/tensim-mmdet2.json --trace /tmp/tensim-mmdet2.tr" MATMUL,
                            out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(first, out);
    const char *files[2][2] = {{"/tmp/tensim-mmdet1.json", "/tmp/tensim-mmdet2.json"},
                               {"/tmp/tensim-mmdet1.tr", "/tmp/tensim-mmdet2.tr"}};
    for (int k = 0; k < 2; k++) {
        char *a = slurp(files[k][0]), *b = slurp(files[k][1]);
        cr_expect(strcmp(a, b) == 0, "%s and %s differ", files[k][0], files[k][1]);
        cr_expect(strstr(a, "MVMUL") != NULL);
        free(a);
        free(b);
        unlink(files[k][0]);
        unlink(files[k][1]);
    }
#undef MATMUL
}
