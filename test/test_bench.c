/* `tensim bench run` (docs/bench.md): manifest errors (exit 2 with the key path), sweeps expanded
 * in order, results that do not depend on the number of threads, expected outputs, and the
 * regression gate against the committed baseline test/bench/gate-baseline.json. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static char out[65536];

#define EXPECT_OUT(s) cr_expect(strstr(out, s) != NULL, "missing \"%s\" in:\n%s", s, out)

#define run(...) run_tensimf(out, sizeof out, __VA_ARGS__)

/* A file under /tmp for this test process: "/tmp/tensim-bench-PID-NAME". */
static const char *tmp(const char *name)
{
    static char path[8][256];
    static unsigned next;
    char *p = path[next++ % 8];
    snprintf(p, 256, "/tmp/tensim-bench-%d-%s", (int)getpid(), name);
    return p;
}

/* Write a manifest to tmp(name), "@K@" standing for the absolute build/kernels folder. */
static const char *manifest(const char *name, const char *body)
{
    char kdir[1024], text[8192], *w = text;
    cr_assert(realpath("build/kernels", kdir), "build/kernels is missing: make kernels");
    for (const char *s = body; *s && w < text + sizeof text - 1100;) {
        if (!strncmp(s, "@K@", 3)) {
            w += sprintf(w, "%s", kdir);
            s += 3;
        } else
            *w++ = *s++;
    }
    *w = 0;
    const char *path = tmp(name);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    return path;
}

#define HELLO "\"programs\": {\"trisc0\": \"@K@/hello.elf\"}"

/* ---- manifest errors ---- */

static void bad_manifest(const char *body, const char *message)
{
    const char *m = manifest("bad.json", body);
    cr_expect_eq(run("bench run -j1 %s", m), 2, "%s", body);
    char want[1200];
    snprintf(want, sizeof want, "tensim: bench: bad manifest: %s: %s\n", m, message);
    cr_expect_str_eq(out, want);
    unlink(m);
}

Test(bench, manifest_errors_exit_2_with_the_key)
{
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [}", "line 1 column 30: unexpected token near '}'");
    bad_manifest("{\"runs\": []}", "missing \"tensim_bench\" (the format's version, 1)");
    bad_manifest("{\"tensim_bench\": 2, \"runs\": []}", "tensim_bench: this tensim reads version 1");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": []}", "runs: expected an array of one or more runs");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", \"programz\": {}}]}",
                 "runs[0]: unknown key \"programz\" (did you mean \"programs\"?)");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\"}]}",
                 "runs[0]: give one of \"programs\" and \"run\"");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", \"programs\": {\"trisc0\": \"/nonexistent/x.elf\"}}]}",
                 "runs[0].programs.trisc0: cannot read /nonexistent/x.elf: No such file or directory");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO ", \"timing\": {\"rv.load_l1\": \"${x}\"}}]}",
                 "runs[0].timing.rv.load_l1: no parameter \"x\" for ${x} (the run's \"sweep\" names its parameters)");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO ", \"timing\": {\"rv.load_l1\": \"${x}\"}, "
                 "\"sweep\": {\"x\": [8, 999]}}]}",
                 "runs[0][x=999].timing.rv.load_l1: --timing rv.load_l1 wants a whole number from 1 to 64, not '999'");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO ", \"timing\": {\"rv.nope\": 3}}]}",
                 "runs[0].timing.rv.nope: --timing: no parameter 'rv.nope' (--timing=list shows the keys)");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO "}, {\"name\": \"a\", " HELLO "}]}",
                 "runs: two runs are named \"a\"");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO ", \"measure\": [\"cycels\"]}]}",
                 "runs[0].measure[0]: unknown measure \"cycels\" (did you mean \"cycles\"?)");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO ", \"measure\": [\"region\"]}]}",
                 "runs[0].measure[0]: unknown measure \"region\" (did you mean \"regions\"?)");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO ", \"arch\": \"grayskull\"}]}",
                 "runs[0].arch: unknown architecture \"grayskull\" (blackhole or wormhole)");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"a\", " HELLO ", \"expect\": "
                 "[{\"addr\": \"0x40000\", \"len\": 0, \"file\": \"@K@/hello.elf\"}]}]}",
                 "runs[0].expect[0]: 0x40000+0x0 is not a range inside L1 (0x0-0x17ffff)");
}

Test(bench, command_line_errors_exit_2)
{
    cr_expect_eq(run("bench"), 2);
    cr_expect_str_eq(out, "tensim: usage: bench wants a subcommand: run or report\nTry 'tensim bench run --help'.\n");
    cr_expect_eq(run("bench run"), 2);
    EXPECT_OUT("tensim: usage: no manifest given\n");
    cr_expect_eq(run("bench run -j 0 test/bench/gate.json"), 2);
    EXPECT_OUT("tensim: usage: -j wants a number from 1 to 256, not '0'\n");
    cr_expect_eq(run("bench run --update-baseline test/bench/gate.json"), 2);
    EXPECT_OUT("tensim: usage: --update-baseline needs --baseline FILE\n");
    cr_expect_eq(run("bench run test/bench/gate.json --baseline /nonexistent/base.json"), 2);
    cr_expect_str_eq(out, "tensim: bench: baseline /nonexistent/base.json: unable to open "
                          "/nonexistent/base.json: No such file or directory\n");
    cr_expect_eq(run("bench run /nonexistent/m.json"), 2);
    cr_expect_str_eq(out, "tensim: bench: bad manifest: /nonexistent/m.json: cannot read it: No such "
                          "file or directory\n");
    cr_expect_eq(run("bench --help"), 0);
    EXPECT_OUT("Usage: tensim bench run [OPTION]... MANIFEST\n");
}

/* ---- results ---- */

Test(bench, results_do_not_depend_on_the_threads)
{
    const char *r1 = tmp("j1.json"), *r2 = tmp("j2.json");
    cr_assert_eq(run("bench run -j1 --out %s test/bench/smoke.json", r1), 0, "%s", out);
    cr_assert_eq(run("bench run -j 2 --out %s test/bench/smoke.json", r2), 0, "%s", out);
    const char *r3 = tmp("j2-nopin.json");
    cr_assert_eq(run("bench run -j 2 --no-pin --out %s test/bench/smoke.json", r3), 0, "%s", out);
    size_t n1, n2;
    char *a = read_whole_file(r1, &n1), *b = read_whole_file(r2, &n2);
    cr_expect_eq(n1, n2);
    cr_expect(n1 == n2 && !memcmp(a, b, n1), "-j1 and -j2 results differ:\n%s\n%s", a, b);
    size_t n3;
    char *c = read_whole_file(r3, &n3);
    cr_expect(n1 == n3 && !memcmp(a, c, n1), "-j1 and -j2 --no-pin results differ:\n%s\n%s", a, c);
    free(c);
    unlink(r3);
    /* Real runs with their exact cycles (the same as `tensim run` reports), in manifest order. */
    const char *hello = strstr(a, "{\"name\": \"hello\", \"params\": {}, \"timing\": [], \"arch\": \"blackhole\", "
                                  "\"status\": \"ok\", \"exit_status\": 0, \"cycles\": 25183, "
                                  "\"core_cycles\": {\"TRISC0\": 25183}}");
    const char *matmul = strstr(a, "{\"name\": \"matmul\", \"params\": {}, \"timing\": [], \"arch\": \"blackhole\", "
                                   "\"status\": \"ok\", \"exit_status\": 0, \"cycles\": 215561, \"core_cycles\": "
                                   "{\"TRISC0\": 215248, \"TRISC1\": 88, \"TRISC2\": 215438}}");
    cr_expect(hello && matmul && hello < matmul, "%s", a);
    /* "stalls": the report's stall cycles per core and held cycles per thread (tensim run's
     * report of the same kernel), causes in the report's order, zeros left out. */
    const char *stalls = strstr(a, "{\"name\": \"eltwise\", \"params\": {}, \"timing\": [], \"arch\": \"blackhole\", "
        "\"status\": \"ok\", \"exit_status\": 0, \"cycles\": 160049, \"stalls\": {\"cores\": {"
        "\"TRISC0\": {\"operand\": 15, \"mispredict\": 36, \"serialise\": 3, \"store_queue\": 5}, "
        "\"TRISC1\": {\"operand\": 3, \"mispredict\": 16}, "
        "\"TRISC2\": {\"operand\": 15, \"mispredict\": 36, \"tensix_fifo_full\": 159738}}, \"threads\": {"
        "\"T0\": {\"unit_busy\": 49}, \"T1\": {\"src_not_valid\": 159908}, "
        "\"T2\": {\"semwait\": 159856, \"wait_release\": 4}}}}\n");
    cr_expect(stalls && stalls > matmul, "%s", a);
    cr_expect(strstr(a, "\"timing_table\": \"fnv1a64:") && strstr(a, "\"manifest\": \"test/bench/smoke.json\""),
              "%s", a);
    free(a);
    free(b);
    unlink(r1);
    unlink(r2);
}

Test(bench, sweeps_expand_in_order)
{
    const char *res = tmp("sweep.json");
    cr_assert_eq(run("bench run -j2 --out %s test/bench/smoke.json", res), 0, "%s", out);
    char *a = read_whole_file(res, NULL);
    const char *want[] = {
        "{\"name\": \"hello-load[lat=8]\", \"params\": {\"lat\": \"8\"}, \"timing\": [\"rv.load_l1=8\"], "
        "\"arch\": \"blackhole\", \"status\": \"ok\", \"exit_status\": 0, \"cycles\": 25183}",
        "{\"name\": \"hello-load[lat=16]\", \"params\": {\"lat\": \"16\"}, \"timing\": [\"rv.load_l1=16\"], "
        "\"arch\": \"blackhole\", \"status\": \"ok\", \"exit_status\": 0, \"cycles\": 26391}",
        "{\"name\": \"hello-load[lat=32]\", \"params\": {\"lat\": \"32\"}, \"timing\": [\"rv.load_l1=32\"], "
        "\"arch\": \"blackhole\", \"status\": \"ok\", \"exit_status\": 0, \"cycles\": 28807}",
    };
    const char *prev = a;
    for (int i = 0; i < 3; i++) {
        const char *at = strstr(a, want[i]);
        cr_expect(at && at >= prev, "missing or out of order: %s\nin %s", want[i], a);
        if (at)
            prev = at;
    }
    free(a);
    unlink(res);

    /* Two axes: the last varies fastest; ${} works in file names and names too. */
    const char *m = manifest("two.json",
        "{\"tensim_bench\": 1, \"runs\": [{\"name\": \"k-${prog}\", \"programs\": {\"trisc0\": \"@K@/${prog}.elf\"},"
        " \"timing\": {\"rv.mul_latency\": \"${mul}\"}, \"sweep\": {\"prog\": [\"hello\", \"calib\"], \"mul\": [2, 3]}}]}");
    cr_assert_eq(run("bench run -j2 %s", m), 0, "%s", out);
    const char *rows[] = {"k-hello[prog=hello,mul=2] ", "k-hello[prog=hello,mul=3] ",
                          "k-calib[prog=calib,mul=2] ", "k-calib[prog=calib,mul=3] ", "4 runs, 0 failed"};
    prev = out;
    for (int i = 0; i < 5; i++) {
        const char *at = strstr(out, rows[i]);
        cr_expect(at && at >= prev, "missing or out of order: %s\nin %s", rows[i], out);
        if (at)
            prev = at;
    }
    unlink(m);
}

/* ---- the gate ---- */

Test(bench, committed_baseline_passes)
{
    cr_expect_eq(run("bench run -j2 test/bench/gate.json --baseline test/bench/gate-baseline.json"), 0, "%s", out);
    EXPECT_OUT("eltwise                          cycles.TRISC2        160042       160042 0");
    EXPECT_OUT("3 runs, 0 failed; 0 regressions\n");
}

Test(bench, slower_timing_is_a_regression)
{
    cr_expect_eq(run("bench run -j2 test/bench/gate-slower.json --baseline test/bench/gate-baseline.json"), 1,
                 "%s", out);
    EXPECT_OUT("hello                            cycles                25183        25334 +151 (+0.60%)        REGRESSION\n");
    EXPECT_OUT("hello-tolerant                   cycles                25183        25334 +151 (+0.60%)        "
               "slower, within tolerance\n");
    EXPECT_OUT("eltwise                          cycles               160049       160049 0");
    EXPECT_OUT("3 runs, 0 failed; 1 regression\n");
}

Test(bench, faster_is_reported_not_failed_and_update_rewrites)
{
    /* A baseline made with a slower load, then the model's own timing: faster, exit 0. */
    const char *base = tmp("base.json");
    cr_assert_eq(run("bench run -j1 test/bench/gate-slower.json --baseline %s --update-baseline", base), 0, "%s", out);
    EXPECT_OUT("baseline ");
    EXPECT_OUT(" written\n");
    cr_expect_eq(run("bench run -j2 test/bench/gate.json --baseline %s", base), 0, "%s", out);
    EXPECT_OUT("hello                            cycles                25334        25183 -151 (-0.60%)        faster\n");
    /* Rewritten with the faster figures, the slower manifest now regresses against it. */
    cr_expect_eq(run("bench run -j2 test/bench/gate.json --baseline %s --update-baseline", base), 0, "%s", out);
    EXPECT_OUT(" rewritten\n");
    cr_expect_eq(run("bench run -j2 test/bench/gate-slower.json --baseline %s", base), 1, "%s", out);
    unlink(base);
}

Test(bench, failing_runs_and_expected_outputs)
{
    const char *good = tmp("eltwise.bin"), *bad = tmp("eltwise-bad.bin");
    cr_assert_eq(run("run -q --trisc0=build/kernels/eltwise-t0.elf --trisc1=build/kernels/eltwise-t1.elf "
                     "--trisc2=build/kernels/eltwise-t2.elf --dump=0x40000:8192:%s", good), 0, "%s", out);
    size_t n;
    char *bytes = read_whole_file(good, &n);
    cr_assert_eq(n, 8192);
    bytes[100] ^= 1;
    FILE *f = fopen(bad, "w");
    cr_assert(f);
    fwrite(bytes, 1, n, f);
    fclose(f);
    char body[2000];
    snprintf(body, sizeof body,
             "{\"tensim_bench\": 1, \"runs\": [{\"name\": \"eltwise-${e}\", \"programs\": {\"trisc0\": "
             "\"@K@/eltwise-t0.elf\", \"trisc1\": \"@K@/eltwise-t1.elf\", \"trisc2\": \"@K@/eltwise-t2.elf\"},"
             " \"expect\": [{\"addr\": \"0x40000\", \"len\": 8192, \"file\": \"/tmp/tensim-bench-%d-${e}.bin\"}],"
             " \"sweep\": {\"e\": [\"eltwise\", \"eltwise-bad\"]}},"
             " {\"name\": \"exit7\", \"programs\": {\"trisc0\": \"@K@/../guest/exit7.elf\"}}]}", (int)getpid());
    const char *m = manifest("expect.json", body);
    cr_expect_eq(run("bench run -j2 %s", m), 1, "%s", out);
    EXPECT_OUT("eltwise-eltwise[e=eltwise]       cycles                    -       160049");
    EXPECT_OUT("eltwise-eltwise-bad[e=eltwise-bad] status                    -       failed                      "
               "FAILS: expect[0]: L1 0x40064 differs from");
    EXPECT_OUT("exit7                            status                    -       failed                      "
               "FAILS: guest exit: TRISC0 exit code 7\n");
    EXPECT_OUT("[exit7] tensim: guest exit: TRISC0 cycle=");
    EXPECT_OUT("3 runs, 2 failed; 2 regressions (no baseline: failures only)\n");
    free(bytes);
    unlink(good);
    unlink(bad);
    unlink(m);
}

/* ---- regions ---- */

/* test/guest/bench_regions.S: region 2 (the loop) 73 cycles, region 3 (each division) 33 + 17 + 6,
 * region 5 still open at the end (listed, not counted); the matmul example's region build as the
 * report shows it (docs/user-guide.md "Regions"): cores in core order, ids ascending. */
Test(bench, regions_are_measured_exactly_whatever_the_threads)
{
    const char *r1 = tmp("rg1.json"), *r2 = tmp("rg2.json");
    cr_assert_eq(run("bench run -j1 --out %s test/bench/regions.json", r1), 0, "%s", out);
    EXPECT_OUT("div                              region.TRISC0.3           -           56\n");
    EXPECT_OUT("matmul-regions                   region.TRISC2.2           -       215343\n");
    cr_assert_eq(run("bench run -j2 --out %s test/bench/regions.json", r2), 0, "%s", out);
    size_t n1, n2;
    char *a = read_whole_file(r1, &n1), *b = read_whole_file(r2, &n2);
    cr_expect(n1 == n2 && !memcmp(a, b, n1), "-j1 and -j2 results differ:\n%s\n%s", a, b);
    const char *div = strstr(a, "{\"name\": \"div\", \"params\": {}, \"timing\": [], \"arch\": \"blackhole\", "
        "\"status\": \"ok\", \"exit_status\": 0, \"cycles\": 79, \"regions\": {\"TRISC0\": ["
        "{\"id\": 2, \"count\": 1, \"cycles\": 73, \"min\": 73, \"max\": 73}, "
        "{\"id\": 3, \"count\": 3, \"cycles\": 56, \"min\": 6, \"max\": 33}, "
        "{\"id\": 5, \"count\": 0, \"cycles\": 0, \"min\": 0, \"max\": 0}]}}");
    const char *mm = strstr(a, "\"cycles\": 215561, \"regions\": {"
        "\"TRISC0\": [{\"id\": 0, \"count\": 1, \"cycles\": 215140, \"min\": 215140, \"max\": 215140}, "
        "{\"id\": 1, \"count\": 1, \"cycles\": 60, \"min\": 60, \"max\": 60}], "
        "\"TRISC1\": [{\"id\": 0, \"count\": 1, \"cycles\": 64, \"min\": 64, \"max\": 64}, "
        "{\"id\": 1, \"count\": 4, \"cycles\": 2, \"min\": 0, \"max\": 1}], "
        "\"TRISC2\": [{\"id\": 2, \"count\": 4, \"cycles\": 215343, \"min\": 52, \"max\": 215172}]}}");
    cr_expect(div && mm && div < mm, "%s", a);
    free(a);
    free(b);
    unlink(r1);
    unlink(r2);
}

/* rv.div_cycles 10 makes the dividend-0 division 4 cycles slower: regions 2 and 3 and the run
 * regress; with a 7% tolerance only region 3 does (+7.14%; the run +5.06%, region 2 +5.48%). */
Test(bench, a_slower_region_is_a_regression)
{
    cr_expect_eq(run("bench run -j2 test/bench/regions.json --baseline test/bench/regions-baseline.json"), 0,
                 "%s", out);
    EXPECT_OUT("div                              region.TRISC0.3          56           56 0\n");
    EXPECT_OUT("matmul-regions                   region.TRISC1.1           2            2 0\n");
    EXPECT_OUT("3 runs, 0 failed; 0 regressions\n");
    cr_expect_eq(run("bench run -j2 test/bench/regions-slower.json --baseline test/bench/regions-baseline.json"),
                 1, "%s", out);
    EXPECT_OUT("div                              region.TRISC0.2          73           77 +4 (+5.48%)          REGRESSION\n"
               "div                              region.TRISC0.3          56           60 +4 (+7.14%)          REGRESSION\n"
               "div                              region.TRISC0.5           0            0 0\n"
               "div-7pct                         cycles                   79           83 +4 (+5.06%)          slower, within tolerance\n"
               "div-7pct                         region.TRISC0.2          73           77 +4 (+5.48%)          slower, within tolerance\n"
               "div-7pct                         region.TRISC0.3          56           60 +4 (+7.14%)          REGRESSION\n");
    EXPECT_OUT("3 runs, 0 failed; 4 regressions\n");
}

/* A baseline's regions that the run no longer marks are listed; a malformed one is an error. */
Test(bench, baseline_regions_read_back)
{
    const char *m = manifest("norg.json", "{\"tensim_bench\": 1, \"runs\": [{\"name\": \"div\", \"programs\": "
                             "{\"trisc0\": \"@K@/hello.elf\"}, \"measure\": [\"regions\"]}]}");
    /* hello.elf under the name "div": a slower run with no regions at all */
    cr_expect_eq(run("bench run -j1 %s --baseline test/bench/regions-baseline.json", m), 1, "%s", out);
    EXPECT_OUT("div                              region.TRISC0.3          56            -                      "
               "not marked any more\n");
    const char *bad = tmp("badrg.json");
    FILE *f = fopen(bad, "w");
    cr_assert(f);
    fputs("{\"tensim_bench_results\": 1, \"runs\": [{\"name\": \"div\", \"status\": \"ok\", \"cycles\": 79, "
          "\"regions\": {\"TRISC0\": [{\"id\": 64, \"cycles\": 3}]}}]}", f);
    fclose(f);
    cr_expect_eq(run("bench run -j1 %s --baseline %s", m, bad), 2, "%s", out);
    char want[600];
    snprintf(want, sizeof want, "tensim: bench: baseline %s: runs[0].regions.TRISC0: a region needs \"id\" "
             "(0..63) and \"cycles\"\n", bad);
    cr_expect_str_eq(out, want);
    unlink(bad);
    unlink(m);
}

/* ---- build commands (docs/bench.md "Build commands") ---- */

Test(bench, build_commands_run_once_in_order_before_the_runs)
{
    char body[2048], prog[64];
    int pid = (int)getpid();
    snprintf(prog, sizeof prog, "tensim-bench-%d-h${v}.elf", pid);
    snprintf(body, sizeof body,
             "{\"tensim_bench\": 1, \"runs\": [{\"name\": \"built\", \"sweep\": {\"v\": [1, 2]},"
             " \"build\": [\"echo shared step\", \"cp @K@/hello.elf %s\"],"
             " \"programs\": {\"trisc0\": \"%s\"}}]}", prog, prog);
    const char *m = manifest("build.json", body), *res = tmp("build-results.json");
    cr_assert_eq(run("bench run -j2 --out %s %s", res, m), 0, "%s", out);
    /* The shared command once, its output on stderr (here merged), then each sweep point's. */
    char want[1024];
    snprintf(want, sizeof want,
             "tensim: bench: build: echo shared step\nshared step\n"
             "tensim: bench: build: cp %s/hello.elf tensim-bench-%d-h1.elf\n"
             "tensim: bench: build: cp %s/hello.elf tensim-bench-%d-h2.elf\n",
             realpath("build/kernels", (char[1024]){0}), pid, realpath("build/kernels", (char[1024]){0}), pid);
    cr_expect(!strncmp(out, want, strlen(want)), "want prefix:\n%s\ngot:\n%s", want, out);
    char *a = read_whole_file(res, NULL);
    snprintf(want, sizeof want,
             "{\"name\": \"built[v=2]\", \"params\": {\"v\": \"2\"}, \"timing\": [], \"build\": [\"echo shared step\", "
             "\"cp %s/hello.elf tensim-bench-%d-h2.elf\"], \"arch\": \"blackhole\", \"status\": \"ok\", "
             "\"exit_status\": 0, \"cycles\": 25183}",
             realpath("build/kernels", (char[1024]){0}), pid);
    cr_expect(strstr(a, want), "missing %s in\n%s", want, a);
    free(a);
    for (int v = 1; v <= 2; v++) {
        char f[64];
        snprintf(f, sizeof f, "/tmp/tensim-bench-%d-h%d.elf", pid, v);
        cr_expect_eq(unlink(f), 0, "the build did not make %s", f);
    }
    unlink(res);
    unlink(m);

    /* A failing build stops the bench before anything runs, naming the run and the command. */
    m = manifest("bad.json", "{\"tensim_bench\": 1, \"runs\": [{\"name\": \"b\", \"sweep\": {\"x\": [7, 8]},"
                 " \"build\": \"exit ${x}\", " HELLO "}]}");
    cr_expect_eq(run("bench run -j1 %s", m), 2);
    snprintf(want, sizeof want, "tensim: bench: build: exit 7\ntensim: bench: bad manifest: %s: runs[0][x=7].build: "
             "build failed: `exit 7` exited with status 7\n", m);
    cr_expect_str_eq(out, want);
    unlink(m);
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"b\", \"build\": [\" \"], " HELLO "}]}",
                 "runs[0].build[0]: expected a shell command");
    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"b\", \"build\": [], " HELLO "}]}",
                 "runs[0].build: expected a command or an array of 1 to 8 commands");
}

/* With "stalls" and "regions" both measured, each region carries the region table's breakdown:
 * the same figures as the stats JSON's "regions" (another writer of the same accounting), zeros
 * left out. */
Test(bench, region_stalls_agree_with_the_stats)
{
    const char *m = manifest("rs.json",
        "{\"tensim_bench\": 1, \"runs\": [{\"name\": \"mm\", \"measure\": [\"regions\", \"stalls\"],"
        " \"programs\": {\"trisc0\": \"@K@/matmul-regions-t0.elf\", \"trisc1\": \"@K@/matmul-regions-t1.elf\","
        " \"trisc2\": \"@K@/matmul-regions-t2.elf\"}}]}");
    const char *res = tmp("rs-results.json"), *st = tmp("rs-stats.json");
    cr_assert_eq(run("bench run -j1 --out %s %s", res, m), 0, "%s", out);
    cr_assert_eq(run("run -q --trisc0=build/kernels/matmul-regions-t0.elf --trisc1=build/kernels/matmul-regions-t1.elf "
                     "--trisc2=build/kernels/matmul-regions-t2.elf --stats=%s", st), 0, "%s", out);
    json_error_t e;
    json_t *b = json_load_file(res, 0, &e), *s = json_load_file(st, 0, &e);
    cr_assert(b && s);
    json_t *bg = json_object_get(json_array_get(json_object_get(b, "runs"), 0), "regions");
    json_t *sg = json_object_get(s, "regions");
    cr_assert_eq(json_object_size(bg), 3);
    const char *core;
    json_t *list;
    unsigned regions = 0, figures = 0;
    json_object_foreach(sg, core, list) {
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *want = json_array_get(list, i), *got = json_array_get(json_object_get(bg, core), i);
            cr_assert(got, "%s region %zu missing", core, i);
            cr_expect_eq(json_integer_value(json_object_get(got, "id")), json_integer_value(json_object_get(want, "id")));
            const char *part[] = {"stalls", "held"};
            for (int p = 0; p < 2; p++) {
                const char *why;
                json_t *v;
                json_object_foreach(json_object_get(want, part[p]), why, v) {
                    json_t *g = json_object_get(json_object_get(got, part[p]), why);
                    if (!json_integer_value(v))
                        cr_expect(!g, "%s %zu %s.%s: a zero is left out", core, i, part[p], why);
                    else {
                        cr_expect_eq(json_integer_value(g), json_integer_value(v), "%s %zu %s.%s", core, i, part[p], why);
                        figures++;
                    }
                }
            }
            regions++;
        }
    }
    cr_expect_eq(regions, 5);
    cr_expect_geq(figures, 8);
    /* The region that waits for the matrix unit: TRISC2 #2 held on semaphores for 215279 cycles. */
    json_t *t2 = json_array_get(json_object_get(bg, "TRISC2"), 0);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(t2, "held"), "semwait")), 215279);
    json_decref(b);
    json_decref(s);
    unlink(res);
    unlink(st);
    unlink(m);
}

/* ---- tt-llk profiler zones (docs/bench.md "Zones") ---- */

/* test/llk/boot.json runs the three TRISCs' KERNEL zones around spin loops of 100, 200 and 300
 * iterations of two one-cycle instructions: each zone is exactly 200 cycles longer than the
 * previous thread's (test_llk_boot.c derives the same). */
Test(bench, zones_are_measured_per_thread_and_marker)
{
    char body[1400], cwd[1024];
    cr_assert(getcwd(cwd, sizeof cwd));
    snprintf(body, sizeof body, "{\"tensim_bench\": 1, \"runs\": [{\"name\": \"boot\", \"run\": \"%s/test/llk/boot.json\","
             " \"measure\": [\"zones\"]}]}", cwd);
    const char *m = manifest("zones.json", body), *res = tmp("zones-results.json");
    cr_assert_eq(run("bench run -j1 --out %s %s", res, m), 0, "%s", out);
    json_error_t e;
    json_t *b = json_load_file(res, 0, &e);
    cr_assert(b, "%s", e.text);
    json_t *z = json_object_get(json_array_get(json_object_get(b, "runs"), 0), "zones");
    const char *threads[] = {"unpack", "math", "pack"};
    json_int_t len[3];
    for (int i = 0; i < 3; i++) {
        json_t *list = json_object_get(z, threads[i]), *k = json_array_get(list, 0);
        cr_assert_eq(json_array_size(list), 1, "%s", threads[i]);
        cr_expect_str_eq(json_string_value(json_object_get(k, "marker")), "KERNEL");
        cr_expect_eq(json_integer_value(json_object_get(k, "count")), 1);
        len[i] = json_integer_value(json_object_get(k, "cycles"));
        cr_expect_eq(json_integer_value(json_object_get(k, "min")), len[i]);
        cr_expect_eq(json_integer_value(json_object_get(k, "max")), len[i]);
    }
    cr_expect_eq(len[1] - len[0], 200);
    cr_expect_eq(len[2] - len[1], 200);
    char want[200];
    snprintf(want, sizeof want, "boot                             zone.math.KERNEL          - %12lld\n", (long long)len[1]);
    EXPECT_OUT(want);
    json_decref(b);

    /* Against a baseline: a zone 1 cycle longer there is "faster"; one the run no longer closes
     * is listed; neither fails. */
    const char *base = tmp("zones-base.json");
    char *text = read_whole_file(res, NULL), *at = strstr(text, "\"marker\": \"KERNEL\", \"count\": 1, \"cycles\": ");
    cr_assert(at);
    FILE *f = fopen(base, "w");
    cr_assert(f);
    fprintf(f, "%.*s\"marker\": \"KERNEL\", \"count\": 1, \"cycles\": %lld%s", (int)(at - text), text,
            (long long)len[0] + 1, strchr(at + 42, ','));
    fclose(f);
    free(text);
    text = read_whole_file(base, NULL);
    at = strstr(text, "\"pack\": [{\"marker\": \"KERNEL\"");
    cr_assert(at, "%s", text);
    memcpy(at + 21, "KERNAL", 6);
    f = fopen(base, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    cr_assert_eq(run("bench run -j1 %s --baseline %s", m, base), 0, "%s", out);
    snprintf(want, sizeof want, "boot                             zone.unpack.KERNEL %9lld %12lld -1 (", (long long)len[0] + 1,
             (long long)len[0]);
    EXPECT_OUT(want);
    EXPECT_OUT("faster");
    snprintf(want, sizeof want, "boot                             zone.pack.KERNAL  %9lld            -                      not closed any more\n",
             (long long)len[2]);
    EXPECT_OUT(want);
    EXPECT_OUT("1 run, 0 failed; 0 regressions");
    unlink(base);
    unlink(res);
    unlink(m);

    bad_manifest("{\"tensim_bench\": 1, \"runs\": [{\"name\": \"z\", " HELLO ", \"measure\": [\"zones\"]}]}",
                 "runs[0].measure[0]: \"zones\" needs a run description (\"run\") that names a tt-llk layout");
}
