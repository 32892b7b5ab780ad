/* bench/kernel_speed's replay of run descriptions on ttsim (docs/bench.md "kernel_speed"), on the
 * programs of test/llk, shaped like tt-llk's test kernels (test/test_llk_boot.c): BRISC boots
 * the TRISCs, each stores a result at 0x30000 + 4 * ID, writes profiler records and
 * KERNEL_COMPLETE. The cases that need ttsim run only when TTSIM names a Blackhole libttsim.so
 * (`make test TTSIM_BH=...` passes it); the others run always. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KERNEL_SPEED "build/bench/kernel_speed"

/* Runs kernel_speed with `args` (TTSIM cleared, so only --ttsim names a library); its standard
 * output in out. Returns its exit status. */
static int kernel_speed(const char *args, char *out, size_t n)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "TTSIM= " KERNEL_SPEED " %s 2>&1", args);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run %s", cmd);
    size_t used = fread(out, 1, n - 1, p);
    out[used] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* test/llk/boot.json with TRISC0's program, the boot mode and BRISC's program replaced, written
 * to /tmp/tensim-ks-NAME.json with absolute paths; returns that path (static). */
static const char *description(const char *name, const char *trisc0, const char *boot, bool brisc)
{
    static char path[128];
    char cwd[512], b[700] = "";
    cr_assert(getcwd(cwd, sizeof cwd));
    if (brisc)
        snprintf(b, sizeof b, "\"brisc\": \"%s/build/llk/brisc-b.elf\", ", cwd);
    snprintf(path, sizeof path, "/tmp/tensim-ks-%s.json", name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f,
            "{\"tensim_run\": 1, \"arch\": \"blackhole\", \"layout\": \"tt-llk-36b092e8\", \"boot\": \"%s\",\n"
            " \"programs\": {%s\"trisc0\": \"%s/build/llk/%s\", \"trisc1\": \"%s/build/llk/trisc-t1.elf\",\n"
            "              \"trisc2\": \"%s/build/llk/trisc-t2.elf\"},\n"
            " \"l1\": [{\"addr\": \"0x20000\", \"words\": [100, 200, 300, 0, \"0x3e20\"]}],\n"
            " \"end\": \"kernel_complete\", \"max_cycles\": 100000}\n",
            boot, b, cwd, trisc0, cwd, cwd);
    fclose(f);
    return path;
}

static void expect_match(const char *text, const char *pattern)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0, "bad pattern %s", pattern);
    cr_expect_eq(regexec(&re, text, 0, NULL, 0), 0, "output:\n%s\ndoes not match\n%s", text, pattern);
    regfree(&re);
}

/* tensim's half of the line, for the run description at `path`. */
#define TENSIM_PART "  tensim +[0-9]+ cycles +[0-9.]+ s +[0-9.]+ M cycles/s \\(whole process\\)   "

Test(kernel_speed, without_a_library_tensim_alone)
{
    char out[4096];
    cr_assert_eq(kernel_speed("--run test/llk/boot.json", out, sizeof out), 0, "%s", out);
    expect_match(out, "^kernel llk test/llk/boot.json" TENSIM_PART "ttsim: skipped \\(no --ttsim or TTSIM\\)\n$");
}

Test(kernel_speed, a_library_that_cannot_be_loaded)
{
    char out[4096];
    cr_assert_eq(kernel_speed("--ttsim /nonexistent/libttsim.so --run test/llk/boot.json", out, sizeof out), 0,
                 "%s", out);
    expect_match(out, "^kernel llk test/llk/boot.json" TENSIM_PART
                      "ttsim: failed: cannot load /nonexistent/libttsim.so: .*No such file or directory\n$");
}

Test(kernel_speed, only_the_brisc_boot_is_replayed)
{
    char out[4096], args[300];
    const char *run = description("trisc-boot", "trisc-boot-t0.elf", "trisc", false);
    snprintf(args, sizeof args, "--ttsim /nonexistent/libttsim.so --run %s", run);
    cr_assert_eq(kernel_speed(args, out, sizeof out), 0, "%s", out);
    expect_match(out, TENSIM_PART "ttsim: not replayed: its boot is not \"brisc\" \\(the only one replayed on "
                      "ttsim\\)\n$");
}

Test(kernel_speed, a_run_tensim_fails_is_reported)
{
    char out[4096];
    cr_expect_eq(kernel_speed("--run /nonexistent/run.json", out, sizeof out), 1);
    cr_expect_str_eq(out, "kernel llk /nonexistent/run.json: tensim run failed "
                          "(tensim run -q --run=/nonexistent/run.json)\n");
}

/* kernel_speed on ttsim (the library TTSIM names; the test is skipped without one) and the run
 * description `run`: its output in out. */
static void on_ttsim(const char *run, char *out, size_t n)
{
    const char *lib = getenv("TTSIM");
    if (!lib || !*lib)
        cr_skip_test("TTSIM names no libttsim.so");
    char args[600];
    snprintf(args, sizeof args, "--ttsim %s --run %s", lib, run);
    cr_assert_eq(kernel_speed(args, out, n), 0, "%s", out);
}

Test(kernel_speed, replayed_on_ttsim_with_the_same_l1)
{
    char out[4096];
    on_ttsim("test/llk/boot.json", out, sizeof out);
    /* Changed by the run on both (timestamps dropped): the three results, mailboxes, BRISC's
     * counter and "bread" word, the profiler records' types and ids. */
    expect_match(out, "^kernel llk test/llk/boot.json" TENSIM_PART
                      "ttsim +[0-9.]+ s \\(start-up [0-9.]+ s; [0-9]+ clocks to kernel_complete; same L1 "
                      "timestamps aside, 25 bytes changed by the run\\): tensim [0-9.]+x (faster|slower)\n$");
}

Test(kernel_speed, what_ttsim_refuses_is_reported_in_its_words)
{
    char out[4096];
    on_ttsim(description("refuse", "trisc-refuse-t0.elf", "brisc", true), out, sizeof out);
    expect_match(out, TENSIM_PART "ttsim: failed: ttsim ended the process: ERROR: UnsupportedFunctionality: "
                      "tensix_cfg_wr32: reg=66\n$");
}

Test(kernel_speed, an_l1_that_differs_gets_no_ratio)
{
    char out[4096];
    on_ttsim(description("clock", "trisc-clock-t0.elf", "brisc", true), out, sizeof out);
    /* TRISC0 stored the wall clock's low word at 0x30000: each simulator's own */
    expect_match(out, TENSIM_PART "ttsim +[0-9.]+ s \\([0-9]+ clocks to kernel_complete\\), but its L1 is not "
                      "tensim's: [1-4] bytes? differs? \\(timestamps aside\\): 0x3000[0-3]-0x3000[0-3]\n$");
}
