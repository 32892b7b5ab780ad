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

#define FL(ph, id, ts, extra) \
    "{\"name\":\"push\",\"cat\":\"flow\",\"ph\":\"" ph "\",\"id\":" #id ",\"ts\":" #ts ",\"pid\":1,\"tid\":0" extra "}"
#define BP ",\"bp\":\"e\""

Test(trace_check, accepts_a_flow_between_slices)
{
    struct trace_summary s;
    char why[256] = "";
    const char *ok = HEAD NAMES X(0, 2) "," X(4, 2) "," FL("s", 7, 1.5, "") "," FL("f", 7, 4.5, BP) "]}";
    cr_expect(trace_check(ok, &s, why, sizeof why), "%s", why);
    cr_expect_eq(s.flows, 1);
}

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
        {HEAD NAMES X(0, 10) "," FL("f", 1, 3.5, BP) "]}", "f (event 3) without an s"},
        {HEAD NAMES X(0, 10) "," FL("s", 1, 3.5, "") "]}", "flow 1 (event 3) has no f"},
        {HEAD NAMES X(0, 10) "," FL("s", 1, 3.5, "") "," FL("s", 1, 4.5, "") "," FL("f", 1, 5.5, BP) "]}",
         "flow id 1 starts twice"},
        {HEAD NAMES X(0, 10) "," FL("s", 1, 3.5, "") "," FL("f", 1, 5.5, BP) "," FL("f", 1, 6.5, BP) "]}",
         "flow 1 ends twice"},
        {HEAD NAMES X(0, 10) "," FL("s", 1, 3.5, "") "," FL("f", 1, 5.5, "") "]}", "without \"bp\":\"e\""},
        {HEAD NAMES X(0, 10) "," FL("s", 1, 5.5, "") "," FL("f", 1, 3.5, BP) "]}", "ends at 3.5 before it starts"},
        {HEAD NAMES X(0, 2) "," FL("s", 1, 1.5, "") "," FL("f", 1, 5.5, BP) "]}", "its f at 5.5 on (1,0) is inside no slice"},
        {HEAD NAMES X(2, 2) "," FL("s", 1, 2, "") "," FL("f", 1, 3.5, BP) "]}", "its s at 2.0 on (1,0) is inside no slice"},
        {HEAD NAMES X(0, 10) "," FL("s", 1, 3.5, "") "," FL("f", 1, 5.5, BP ",\"id2\":1") "," FL("s", 2, 1, "") "]}",
         "flow 2 (event 5) has no f"},
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
static void check_run_window(const char *tag, const char *what, const char *args, struct trace_summary *s,
                             bool whole)
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
        if (!whole || !strcmp(json_string_value(json_object_get(c, "state")), "blocked"))
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

static void check_run(const char *tag, const char *what, const char *args, struct trace_summary *s)
{
    check_run_window(tag, what, args, s, true);
}

Test(trace, every_example_trace_is_valid_on_both_architectures, .timeout = 300)
{
    static const char *const arch[] = {"blackhole", "wormhole"};
    for (int a = 0; a < 2; a++)
        for (unsigned i = 0; i < example_count; i++) {
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
    sfpu_example_inputs("/tmp/tensim-tc.in", "/tmp/tensim-tc.param");
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

/* The names of the tracks of process pid, in a JSON array; and the values of counter `name`. */
static json_t *load_trace(const char *tag)
{
    json_t *tr = json_load_file(path(tag, "json"), 0, NULL);
    cr_assert(tr, "%s", path(tag, "json"));
    return tr;
}

static unsigned tracks_named(json_t *tr, const char *prefix)
{
    unsigned n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(tr, "traceEvents"), i, e) {
        const char *tn = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
        n += !strcmp(json_string_value(json_object_get(e, "name")), "thread_name") && tn &&
             !strncmp(tn, prefix, strlen(prefix));
    }
    return n;
}

/* Max and count of counter `name`'s samples (arg `key`); *others: values other than 0 and 1. */
static long long counter_max(json_t *tr, const char *name, const char *key, unsigned *count, unsigned *others)
{
    long long max = -1;
    *count = 0;
    if (others)
        *others = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(tr, "traceEvents"), i, e) {
        if (strcmp(json_string_value(json_object_get(e, "ph")), "C") ||
            strcmp(json_string_value(json_object_get(e, "name")), name))
            continue;
        long long v = json_integer_value(json_object_get(json_object_get(e, "args"), key));
        max = v > max ? v : max;
        ++*count;
        if (others && v != 0 && v != 1)
            ++*others;
    }
    return max;
}

/* The matrix unit takes an MVMUL per cycle for a latency of several: its slices overlap, and
 * spread over the matrix unit's track and four lanes (five in flight at most). */
Test(trace, matrix_unit_overlap_spreads_over_lanes)
{
    struct trace_summary s;
    check_run("lanes", "lanes", "--trisc0=" K "matmul-t0.elf --trisc1=" K "matmul-t1.elf --trisc2=" K "matmul-t2.elf", &s);
    json_t *tr = load_trace("lanes");
    cr_expect_eq(tracks_named(tr, "matrix unit"), 5);
    cr_expect_eq(tracks_named(tr, "matrix unit lane 4"), 1);
    cr_expect_eq(s.lanes, 4, "only the matrix unit needs lanes");
    json_decref(tr);
}

/* Regions become slices on the "Regions" process, one track per core: the matmul example's
 * region build (docs/user-guide.md "Regions") has TRISC0's operand fill as region 0, 215140
 * cycles from cycle 27, as its report says; the trace still passes every rule. */
Test(trace, regions_are_slices)
{
    struct trace_summary s;
    check_run("regions", "regions",
              "--trisc0=" K "matmul-regions-t0.elf --trisc1=" K "matmul-regions-t1.elf --trisc2=" K
              "matmul-regions-t2.elf", &s);
    json_t *tr = load_trace("regions");
    unsigned found = 0, named = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(tr, "traceEvents"), i, e) {
        const char *n = json_string_value(json_object_get(e, "name"));
        const char *pn = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
        named += !strcmp(n, "process_name") && pn && !strcmp(pn, "Regions (tensim_region_begin/end)");
        found += !strcmp(n, "region 0") && json_integer_value(json_object_get(e, "tid")) == 0 &&
                 json_integer_value(json_object_get(e, "ts")) == 27 &&
                 json_integer_value(json_object_get(e, "dur")) == 215140;
    }
    cr_expect_eq(named, 1);
    cr_expect_eq(found, 1, "TRISC0's region 0 as a slice");
    json_decref(tr);
}

/* fifo_fill pushes into thread T0 until FIFO1 stops accepting: Blackhole's accepts while it
 * holds at most 28 words (29 at the end), Wormhole's until its 32 entries are full. */
Test(trace, fifo_counter_follows_the_occupancy)
{
    static const char *const arch[] = {"blackhole", "wormhole"};
    static const long long want[] = {29, 32};
    for (int a = 0; a < 2; a++) {
        char args[256];
        snprintf(args, sizeof args, "--arch=%s --max-cycles=20000 build/guest/fifo_fill.elf", arch[a]);
        struct trace_summary s;
        check_run("fifo", arch[a], args, &s);
        json_t *tr = load_trace("fifo");
        unsigned n;
        cr_expect_eq(counter_max(tr, "T0 FIFO1 occupancy", "words", &n, NULL), want[a], "%s", arch[a]);
        cr_expect_gt(n, 10);
        cr_expect_eq(counter_max(tr, "T0 FIFO2 occupancy", "words", &n, NULL), 8, "%s: FIFO2 full", arch[a]);
        cr_expect_eq(counter_max(tr, "T1 FIFO1 occupancy", "words", &n, NULL), -1, "T1 never used");
        json_decref(tr);
    }
}

/* The cores' L1 ports: TRISC0 and BRISC on port 0, a booking at a time (0 or 1); on port 1 once
 * two (a store-queue entry sealed late is granted cycles older than the port's calendar, as
 * asked: the approximation mem/l1_port.h documents). */
Test(trace, l1_port_counter)
{
    struct trace_summary s;
    check_run("port", "pipeline",
              "--trisc0=" K "pipeline-unpack.elf --trisc1=" K "pipeline-math.elf --trisc2=" K "pipeline-pack.elf", &s);
    json_t *tr = load_trace("port");
    unsigned n, others;
    cr_expect_eq(counter_max(tr, "L1 port 0 (TRISC0 BRISC NCRISC)", "busy", &n, &others), 1);
    cr_expect_gt(n, 100);
    cr_expect_eq(others, 0);
    cr_expect_eq(counter_max(tr, "L1 port 1 (TRISC1 TRISC2)", "busy", &n, &others), 2);
    cr_expect_eq(others, 1);
    cr_expect_eq(n, 5578);
    json_decref(tr);
}

/* --trace-from/--trace-to keep what overlaps [1000, 1500), clipped: TRISC0 (running all through
 * the matmul example) fills exactly the 500 cycles; every counter starts at 1000. */
Test(trace, window_keeps_and_clips_what_overlaps_it)
{
    struct trace_summary s;
    check_run_window("win", "window",
              "--trace-from=1000 --trace-to=1500 --trisc0=" K "matmul-t0.elf --trisc1=" K
              "matmul-t1.elf --trisc2=" K "matmul-t2.elf", &s, false);
    cr_expect_eq(s.first_ts, 1000);
    cr_expect_eq(s.last_end, 1500);
    json_t *tr = load_trace("win");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(tr, "otherData"), "trace_from")), 1000);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(tr, "otherData"), "trace_to")), 1500);
    long long trisc0 = 0, first_counter = -1;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(tr, "traceEvents"), i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        long long ts = json_integer_value(json_object_get(e, "ts"));
        if (!strcmp(ph, "X") && json_integer_value(json_object_get(e, "pid")) == 1 &&
            json_integer_value(json_object_get(e, "tid")) == 0)
            trisc0 += json_integer_value(json_object_get(e, "dur"));
        if (!strcmp(ph, "C")) {
            cr_expect(ts >= 1000 && ts < 1500, "counter at %lld", ts);
            if (first_counter < 0 || ts < first_counter)
                first_counter = ts;
        }
    }
    cr_expect_eq(trisc0, 500);
    cr_expect_eq(first_counter, 1000);
    json_decref(tr);
}

Test(trace, window_usage_errors)
{
    static const char *const bad[][2] = {
        {"run --trace-from=5 " K "hello.elf", "--trace-from and --trace-to need --trace=FILE"},
        {"run --trace=/tmp/tensim-tc-u.json --trace-from=5 --trace-to=5 " K "hello.elf",
         "--trace-to (5) must be after --trace-from (5)"},
        {"run --trace=/tmp/tensim-tc-u.json --trace-to=10 --trace-from=20 " K "hello.elf",
         "--trace-to (10) must be after --trace-from (20)"},
        {"run --trace=/tmp/tensim-tc-u.json --trace-to=abc " K "hello.elf", "--trace-to needs a cycle number, not 'abc'"},
        {"run --trace=/tmp/tensim-tc-u.json --trace-from=-1 " K "hello.elf", "--trace-from needs a cycle number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(run_tensim(bad[i][0], out, sizeof out), 100, "%s", bad[i][0]);
        cr_expect(strstr(out, bad[i][1]) != NULL, "%s: %s", bad[i][0], out);
    }
}

/* Tracing watches: the stats of a traced run are those of an untraced one, byte for byte. */
Test(trace, tracing_changes_no_stat)
{
    const char *mm = "--trisc0=" K "matmul-t0.elf --trisc1=" K "matmul-t1.elf --trisc2=" K "matmul-t2.elf";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "run -q --stats=/tmp/tensim-tc-plain.stats %s", mm);
    cr_assert_eq(run_tensim(cmd, out, sizeof out), 0, "%s", out);
    cr_assert_eq(traced_run("plain-t", mm), 0, "%s", out);
    size_t a, b;
    char *x = read_whole_file("/tmp/tensim-tc-plain.stats", &a), *y = read_whole_file(path("plain-t", "stats"), &b);
    cr_assert(x && y);
    cr_expect(a == b && !memcmp(x, y, a), "the stats differ");
    free(x);
    free(y);
}
