/* The --trace format (docs/user-guide.md "The trace format"): the checker of test/trace_check.c
 * on the trace of every example kernel on both architectures, and the tracks, lanes, counters and
 * window the format promises, with exact values. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "trace_check.h"

static char out[1 << 16];

#define K "build/kernels/"

/* ---- the checker itself: each rule, broken once ---- */

struct bad {
    const char *trace, *why;
};

#define HEAD "{\"otherData\":{\"time_unit\":\"1 us = 1 cycle\"},\"traceEvents\":["
#define NAMES                                                                                   \
    "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"p\"}},"           \
    "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"t\"}},"
#define X(ts, dur) "{\"name\":\"s\",\"ph\":\"X\",\"ts\":" #ts ",\"dur\":" #dur ",\"pid\":1,\"tid\":0}"

Test(trace_check, accepts_nested_and_disjoint_slices)
{
    struct trace_summary s;
    char why[256] = "";
    const char *ok = HEAD NAMES X(0, 10) "," X(0, 4) "," X(4, 6) "," X(10, 1) ","
                     "{\"name\":\"c\",\"ph\":\"C\",\"ts\":3,\"pid\":1,\"args\":{\"v\":1}},"
                     "{\"name\":\"c\",\"ph\":\"C\",\"ts\":5,\"pid\":1,\"args\":{\"v\":0}}]}";
    cr_expect(trace_check(ok, &s, why, sizeof why), "%s", why);
    cr_expect_eq(s.slices, 4);
    cr_expect_eq(s.counters, 2);
    cr_expect_eq(s.tracks, 1);
    cr_expect_eq(s.first_ts, 0);
    cr_expect_eq(s.last_end, 11);
}

Test(trace_check, rejects_each_broken_rule)
{
    static const struct bad cases[] = {
        {"{\"traceEvents\":[", "not JSON"},
        {"{\"otherData\":{\"time_unit\":\"1 us = 1 cycle\"}}", "no traceEvents array"},
        {"{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 cycle\"},\"traceEvents\":[]}",
         "displayTimeUnit is set"},
        {"{\"traceEvents\":[]}", "time_unit"},
        {HEAD NAMES X(0, 10) "," X(5, 10) "]}", "[5, 15) overlaps an open slice ending at 10"},
        {HEAD NAMES X(5, 1) "," X(4, 1) "]}", "ts 4 before the previous 5"},
        {HEAD NAMES X(5, -1) "]}", "negative ts or dur"},
        {HEAD NAMES "{\"name\":\"s\",\"ph\":\"X\",\"ts\":1,\"pid\":1,\"tid\":0}]}", "needs integer ts, dur"},
        {HEAD NAMES "{\"name\":\"s\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":7}]}",
         "track (1,7) has events but no thread_name"},
        {HEAD "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":2,\"tid\":0,\"args\":{\"name\":\"t\"}},"
              "{\"name\":\"s\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":2,\"tid\":0}]}",
         "process 2 has events but no process_name"},
        {HEAD NAMES "{\"name\":\"c\",\"ph\":\"C\",\"ts\":3,\"pid\":1,\"args\":{\"v\":1}},"
                    "{\"name\":\"c\",\"ph\":\"C\",\"ts\":5,\"pid\":1,\"args\":{\"v\":1}}]}",
         "repeats its value"},
        {HEAD NAMES "{\"name\":\"c\",\"ph\":\"C\",\"ts\":3,\"pid\":1,\"args\":{\"v\":1}},"
                    "{\"name\":\"c\",\"ph\":\"C\",\"ts\":3,\"pid\":1,\"args\":{\"v\":2}}]}",
         "not after 3"},
        {HEAD NAMES "{\"name\":\"b\",\"ph\":\"B\",\"ts\":3,\"pid\":1,\"tid\":0}]}", "phase 'B'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct trace_summary s;
        char why[256] = "";
        cr_expect(!trace_check(cases[i].trace, &s, why, sizeof why), "case %zu passed", i);
        cr_expect(strstr(why, cases[i].why) != NULL, "case %zu: '%s', wanted '%s'", i, why, cases[i].why);
    }
}

/* ---- the traces tensim writes ---- */

/* Runs `args` with --trace and --stats to /tmp/tensim-tc-TAG.json and .stats (tests run at
 * once: each its own tag); returns the exit status. */
static int traced_run(const char *tag, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "run -q --trace=/tmp/tensim-tc-%s.json --stats=/tmp/tensim-tc-%s.stats %s", tag,
             tag, args);
    return run_tensim(cmd, out, sizeof out);
}

static char *path(const char *tag, const char *ext)
{
    static char p[128];
    snprintf(p, sizeof p, "/tmp/tensim-tc-%s.%s", tag, ext);
    return p;
}

static char *slurp(const char *path)
{
    size_t n;
    char *s = read_whole_file(path, &n);
    cr_assert(s, "cannot read %s", path);
    return s;
}

/* The checker passes on the trace of `args`; and every core's slices add up, state by state, to
 * the cycles its stats give ("running" = active), unless it was still blocked at the end (its
 * wait then shows to the end on the trace, while the stats leave those cycles out). */
static void check_run(const char *tag, const char *what, const char *args, struct trace_summary *s)
{
    traced_run(tag, args);
    char *text = slurp(path(tag, "json")), why[512] = "";
    cr_expect(trace_check(text, s, why, sizeof why), "%s: %s", what, why);
    cr_expect_gt(s->core_slices, 0, "%s: no core slices", what);
    json_t *tr = json_loads(text, 0, NULL), *st = json_load_file(path(tag, "stats"), 0, NULL);
    cr_assert(tr && st, "%s", what);
    const char *core;
    json_t *c;
    json_object_foreach(json_object_get(st, "cores"), core, c) {
        if (!strcmp(json_string_value(json_object_get(c, "state")), "blocked"))
            continue;
        /* the core's tid */
        long long tid = -1;
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(tr, "traceEvents"), i, e) {
            if (!strcmp(json_string_value(json_object_get(e, "name")), "thread_name") &&
                json_integer_value(json_object_get(e, "pid")) == 1 &&
                !strcmp(json_string_value(json_object_get(json_object_get(e, "args"), "name")), core))
                tid = json_integer_value(json_object_get(e, "tid"));
        }
        cr_assert_geq(tid, 0, "%s: no track for %s", what, core);
        /* cycles per slice name on that track */
        json_t *sums = json_object();
        json_array_foreach(json_object_get(tr, "traceEvents"), i, e) {
            if (json_integer_value(json_object_get(e, "pid")) != 1 ||
                json_integer_value(json_object_get(e, "tid")) != tid ||
                strcmp(json_string_value(json_object_get(e, "ph")), "X"))
                continue;
            const char *n = json_string_value(json_object_get(e, "name"));
            json_int_t d = json_integer_value(json_object_get(e, "dur"));
            json_object_set_new(sums, n, json_integer(json_integer_value(json_object_get(sums, n)) + d));
        }
        json_int_t want = json_integer_value(json_object_get(c, "active"));
        json_int_t got = json_integer_value(json_object_get(sums, "running"));
        cr_expect_eq(got, want, "%s: %s running: %lld on the trace, %lld active", what, core, (long long)got,
                     (long long)want);
        const char *key;
        json_t *v;
        json_object_foreach(json_object_get(c, "stalls"), key, v) {
            got = json_integer_value(json_object_get(sums, key));
            cr_expect_eq(got, json_integer_value(v), "%s: %s %s: %lld on the trace, %lld in the stats", what,
                         core, key, (long long)got, (long long)json_integer_value(v));
        }
        json_decref(sums);
    }
    json_decref(tr);
    json_decref(st);
    free(text);
}

/* The examples of riscv/sdk/examples (the Makefile's kernel list) and test/kernels/tt_push.c. */
static const char *const examples[][2] = {
    {"hello", K "hello.elf"},
    {"pipeline", "--trisc0=" K "pipeline-unpack.elf --trisc1=" K "pipeline-math.elf --trisc2=" K "pipeline-pack.elf"},
    {"tokens", "--trisc0=" K "tokens-t0.elf --trisc1=" K "tokens-t1.elf --trisc2=" K "tokens-t2.elf"},
    {"unpack", "--trisc0=" K "unpack-t0.elf --trisc1=" K "unpack-t1.elf"},
    {"eltwise", "--trisc0=" K "eltwise-t0.elf --trisc1=" K "eltwise-t1.elf --trisc2=" K "eltwise-t2.elf"},
    {"matmul", "--trisc0=" K "matmul-t0.elf --trisc1=" K "matmul-t1.elf --trisc2=" K "matmul-t2.elf"},
    {"tt-push", K "tt-push.elf"},
};

Test(trace, every_example_trace_is_valid_on_both_architectures, .timeout = 300)
{
    static const char *const arch[] = {"blackhole", "wormhole"};
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
            char args[1024], what[128];
            snprintf(args, sizeof args, "--max-cycles=2000000 --arch=%s %s", arch[a], examples[i][1]);
            snprintf(what, sizeof what, "%s on %s", examples[i][0], arch[a]);
            struct trace_summary s;
            check_run("ex", what, args, &s);
            cr_expect_gt(s.slices, 0, "%s", what);
        }
}

/* The vector-unit examples (riscv/sdk/examples/sfpu): each SFPU kernel on TRISC1 between the
 * unpacker and packer programs, over three tiles of ramp input (where takes them three at a time). */
Test(trace, every_sfpu_example_trace_is_valid_on_both_architectures, .timeout = 300)
{
    static const char *const kernels[] = {"exp", "recip", "sqrt", "silu", "gelu", "sort",
                                          "scale2", "arecip", "recip3", "recip5", "where", "aexp"};
    FILE *f = fopen("/tmp/tensim-tc.in", "wb");
    cr_assert(f);
    static float x[16 / 4 + 3072];
    for (unsigned i = 0; i < 3072; i++)
        x[4 + i] = 0.25f + (float)i / 512.0f;
    fwrite(x, 4, 4 + 3072, f);
    fclose(f);
    f = fopen("/tmp/tensim-tc.param", "wb");
    cr_assert(f);
    const uint32_t tiles = 3;
    fwrite(&tiles, 4, 1, f);
    fclose(f);
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
            char args[1024], what[128];
            snprintf(args, sizeof args,
                     "--max-cycles=2000000 --arch=%s --load /tmp/tensim-tc.in@0x30000 --load /tmp/tensim-tc.param@0x3F000 "
                     "--trisc0 " K "sfpu-unpack.elf --trisc1 " K "sfpu-%s.elf --trisc2 " K "sfpu-pack.elf",
                     a ? "wormhole" : "blackhole", kernels[i]);
            snprintf(what, sizeof what, "sfpu-%s on %s", kernels[i], a ? "wormhole" : "blackhole");
            struct trace_summary s;
            check_run("sfpu", what, args, &s);
            cr_expect_eq(strstr(out, "exit code") == NULL, true, "%s ran: %s", what, out);
        }
    unlink("/tmp/tensim-tc.in");
    unlink("/tmp/tensim-tc.param");
}
