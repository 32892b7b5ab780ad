/* `tensim bench report` (docs/bench.md "Report"): the page is read back through its data-run,
 * data-metric and data-value attributes and every figure is checked against the results and
 * baseline JSON it came from (exactly); the sweep charts have one point per value, in order;
 * names with HTML's special characters are escaped; the page is byte-identical run to run; bad
 * input is exit status 2 with a message naming the file and the key. test/bench/report.json has
 * a one-parameter sweep with stalls, a two-parameter sweep (values given out of order), a sweep
 * with regions, a kernel with every core's and thread's stalls, and a name with <&>"'. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static char out[65536];

#define run(...) run_tensimf(out, sizeof out, __VA_ARGS__)

static const char *tmp(const char *name)
{
    static char path[8][256];
    static unsigned next;
    char *p = path[next++ % 8];
    snprintf(p, 256, "/tmp/tensim-report-%d-%s", (int)getpid(), name);
    return p;
}

/* One element with data attributes, its values unescaped. */
struct datum {
    char run[256], metric[128], value[64], x[128], series[256];
    char tag[16];
};

static void unescape(const char *s, size_t n, char *dst, size_t cap)
{
    static const struct { const char *ent; char c; } ents[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
    size_t w = 0;
    for (size_t i = 0; i < n && w + 1 < cap;) {
        bool done = false;
        for (unsigned k = 0; k < 5 && !done; k++) {
            size_t l = strlen(ents[k].ent);
            if (i + l <= n && !strncmp(s + i, ents[k].ent, l)) {
                dst[w++] = ents[k].c;
                i += l;
                done = true;
            }
        }
        if (!done) {
            cr_assert(s[i] != '&' && s[i] != '<' && s[i] != '>' && s[i] != '"',
                      "unescaped character in an attribute: %.*s", (int)n, s);
            dst[w++] = s[i++];
        }
    }
    dst[w] = 0;
}

/* attr="..." inside [tag, end) */
static bool attr(const char *tag, const char *end, const char *name, char *dst, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *a = strstr(tag, key);
    if (!a || a > end)
        return false;
    a += strlen(key);
    const char *q = memchr(a, '"', (size_t)(end - a));
    cr_assert(q, "unterminated %s", name);
    unescape(a, (size_t)(q - a), dst, cap);
    return true;
}

/* Every element carrying data-run, in page order. */
static unsigned parse(const char *html, struct datum *d, unsigned max)
{
    unsigned n = 0;
    for (const char *p = html; (p = strstr(p, " data-run=\"")); p++) {
        const char *tag = p, *end = strchr(p, '>');
        while (tag > html && *tag != '<')
            tag--;
        cr_assert(end && n < max);
        struct datum *x = &d[n++];
        memset(x, 0, sizeof *x);
        sscanf(tag + 1, "%15[a-z]", x->tag);
        cr_assert(attr(tag, end, "data-run", x->run, sizeof x->run));
        cr_assert(attr(tag, end, "data-metric", x->metric, sizeof x->metric), "%s", x->run);
        cr_assert(attr(tag, end, "data-value", x->value, sizeof x->value), "%s", x->run);
        attr(tag, end, "data-x", x->x, sizeof x->x);
        attr(tag, end, "data-series", x->series, sizeof x->series);
    }
    return n;
}

static json_t *run_of(json_t *results, const char *name)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(results, "runs"), i, r)
        if (!strcmp(json_string_value(json_object_get(r, "name")), name))
            return r;
    return NULL;
}

static long long num(json_t *v)
{
    cr_assert(json_is_integer(v));
    return json_integer_value(v);
}

/* The results' (or baseline's) figure a datum stands for. */
static long long expected(json_t *res, json_t *base, const struct datum *d)
{
    json_t *r = run_of(res, d->run);
    cr_assert(r, "the page names a run the results lack: %s", d->run);
    char a[64], b[64];
    unsigned id;
    if (!strcmp(d->metric, "cycles"))
        return num(json_object_get(r, "cycles"));
    if (!strcmp(d->metric, "baseline.cycles") || !strcmp(d->metric, "delta.cycles")) {
        json_t *br = base ? run_of(base, d->run) : NULL;
        cr_assert(br, "%s of %s without a baseline run", d->metric, d->run);
        long long bc = num(json_object_get(br, "cycles"));
        return d->metric[0] == 'b' ? bc : num(json_object_get(r, "cycles")) - bc;
    }
    if (sscanf(d->metric, "stall.%63[^.].%63s", a, b) == 2)
        return num(json_object_get(json_object_get(json_object_get(json_object_get(r, "stalls"), "cores"), a), b));
    if (sscanf(d->metric, "held.%63[^.].%63s", a, b) == 2)
        return num(json_object_get(json_object_get(json_object_get(json_object_get(r, "stalls"), "threads"), a), b));
    if (sscanf(d->metric, "region.%63[^.].%u", a, &id) == 2) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(json_object_get(r, "regions"), a), i, e)
            if (num(json_object_get(e, "id")) == id)
                return num(json_object_get(e, "cycles"));
        cr_assert_fail("%s: no region %s", d->run, d->metric);
    }
    cr_assert_fail("unknown metric %s", d->metric);
    return 0;
}

/* Every datum equals its figure; every run's cycles and every stall figure is drawn. */
static void check_page(const char *html, json_t *res, json_t *base, unsigned *nd, struct datum *d, unsigned max)
{
    unsigned n = parse(html, d, max);
    *nd = n;
    for (unsigned i = 0; i < n; i++) {
        char want[32];
        snprintf(want, sizeof want, "%lld", expected(res, base, &d[i]));
        cr_expect_str_eq(d[i].value, want, "%s %s", d[i].run, d[i].metric);
    }
    size_t k;
    json_t *r;
    json_array_foreach(json_object_get(res, "runs"), k, r) {
        const char *name = json_string_value(json_object_get(r, "name"));
        unsigned bars = 0, cells = 0;
        for (unsigned i = 0; i < n; i++)
            if (!strcmp(d[i].run, name) && !strcmp(d[i].metric, "cycles")) {
                bars += !strcmp(d[i].tag, "rect");
                cells += !strcmp(d[i].tag, "td");
            }
        cr_expect(bars == 1 && cells == 1, "%s: %u bars, %u table cells", name, bars, cells);
        static const char *const parts[] = {"cores", "threads"}, *const prefix[] = {"stall", "held"};
        for (int p = 0; p < 2; p++) {
            const char *who, *cause;
            json_t *causes, *v;
            json_object_foreach(json_object_get(json_object_get(r, "stalls"), parts[p]), who, causes)
                json_object_foreach(causes, cause, v) {
                    char m[128];
                    unsigned found = 0;
                    snprintf(m, sizeof m, "%s.%s.%s", prefix[p], who, cause);
                    for (unsigned i = 0; i < n; i++)
                        found += !strcmp(d[i].run, name) && !strcmp(d[i].metric, m) && !strcmp(d[i].tag, "rect");
                    cr_expect_eq(found, 1, "%s %s drawn %u times", name, m, found);
                }
        }
    }
}

/* The circles of one sweep chart: (run prefix, metric), in page order. */
static unsigned points(const struct datum *d, unsigned n, const char *prefix, const char *metric,
                       const char *series, const char **x, unsigned max)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(d[i].tag, "circle") && !strncmp(d[i].run, prefix, strlen(prefix)) &&
            !strcmp(d[i].metric, metric) && (!series || !strcmp(d[i].series, series))) {
            cr_assert(k < max);
            x[k++] = d[i].x;
        }
    return k;
}

static struct datum data[2000];

Test(bench_report, every_figure_matches_the_results)
{
    const char *res = tmp("res.json"), *html = tmp("page.html"), *html2 = tmp("page2.html");
    cr_assert_eq(run("bench run -j2 --out %s test/bench/report.json", res), 0, "%s", out);
    cr_assert_eq(run("bench report %s -o %s", res, html), 0, "%s", out);
    cr_expect_str_eq(out, "");
    char *page = read_whole_file(html, NULL);
    json_error_t je;
    json_t *rj = json_load_file(res, 0, &je);
    cr_assert(rj, "%s", je.text);
    unsigned n;
    check_page(page, rj, NULL, &n, data, 2000);
    cr_expect_gt(n, 70);
    /* self-contained: no script, nothing fetched */
    cr_expect(!strstr(page, "<script") && !strstr(page, "src=") && !strstr(page, "href=") &&
              !strstr(page, "url("), "the page refers to something outside it");
    cr_expect(!strncmp(page, "<!DOCTYPE html>\n", 16));
    cr_expect(!strstr(page, "data-flag"), "no baseline, nothing flagged");

    /* One-parameter sweep: a point per value, in order; the figures come from the results. */
    const char *x[16];
    cr_expect_eq(points(data, n, "hello-load[", "cycles", NULL, x, 16), 3);
    cr_expect(!strcmp(x[0], "8") && !strcmp(x[1], "16") && !strcmp(x[2], "32"), "%s %s %s", x[0], x[1], x[2]);
    /* Two parameters: a line per value of the first, the second (given 16, 8) along the axis in
     * numeric order. */
    cr_expect_eq(points(data, n, "two[", "cycles", "mul=2", x, 16), 2);
    cr_expect(!strcmp(x[0], "8") && !strcmp(x[1], "16"));
    cr_expect_eq(points(data, n, "two[", "cycles", "mul=3", x, 16), 2);
    cr_expect(!strcmp(x[0], "8") && !strcmp(x[1], "16"));
    cr_expect_eq(points(data, n, "two[", "cycles", NULL, x, 16), 4);
    /* Regions: a chart per region, a point per value (region 3: 56, 60, 73 cycles). */
    const char *want[] = {"region.TRISC0.2", "region.TRISC0.3", "region.TRISC0.5", "cycles"};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(points(data, n, "div[", want[i], NULL, x, 16), 3, "%s", want[i]);
        cr_expect(!strcmp(x[0], "6") && !strcmp(x[1], "10") && !strcmp(x[2], "20"), "%s", want[i]);
    }
    cr_expect(strstr(page, "data-run=\"div[d=10]\" data-metric=\"region.TRISC0.3\" data-value=\"60\""));
    /* A name and values with <&>"': escaped everywhere, read back as they were. */
    cr_expect(!strstr(page, "esc<") && !strstr(page, "a<b") && !strstr(page, "c&d"), "unescaped text");
    cr_expect(strstr(page, "data-run=\"esc&lt;&amp;&gt;&quot;&#39;[v=a&lt;b]\" data-metric=\"cycles\""));
    cr_expect(strstr(page, "<h3>esc&lt;&amp;&gt;&quot;&#39;</h3>"));
    cr_expect_eq(points(data, n, "esc<&>\"'[", "cycles", NULL, x, 16), 2);
    cr_expect(!strcmp(x[0], "a<b") && !strcmp(x[1], "c&d\""), "%s %s", x[0], x[1]);
    /* eltwise: every core's and every thread's causes (checked above), e.g. */
    cr_expect(strstr(page, "data-run=\"eltwise\" data-metric=\"held.T1.src_not_valid\" data-value=\"159908\""));
    cr_expect(strstr(page, "data-run=\"eltwise\" data-metric=\"stall.TRISC2.tensix_fifo_full\" data-value=\"159738\""));

    /* Deterministic: the same inputs give the same bytes (and stdout is the default). */
    cr_assert_eq(run("bench report %s -o %s", res, html2), 0, "%s", out);
    size_t n1, n2;
    char *a = read_whole_file(html, &n1), *b = read_whole_file(html2, &n2);
    cr_expect(n1 == n2 && !memcmp(a, b, n1), "two reports of the same results differ");
    static char whole[1 << 20];
    cr_assert_eq(run_tensimf(whole, sizeof whole, "bench report %s", res), 0);
    cr_expect(strlen(whole) == n1 && !memcmp(whole, a, n1), "stdout differs from -o");
    free(a);
    free(b);
    free(page);
    json_decref(rj);
    unlink(html);
    unlink(html2);
    unlink(res);
}

/* Against a baseline: its cycles and the deltas are drawn exactly; a different timing-table
 * hash is flagged as a model change. */
Test(bench_report, baseline_deltas_and_model_change)
{
    const char *res = tmp("bres.json"), *base = tmp("base.json"), *html = tmp("bpage.html");
    cr_assert_eq(run("bench run -j2 --out %s test/bench/report.json", res), 0, "%s", out);
    json_error_t je;
    json_t *rj = json_load_file(res, 0, &je), *bj = json_deep_copy(rj);
    cr_assert(rj && bj);
    /* the baseline: one run slower, one faster, one missing, another timing table */
    json_t *runs = json_object_get(bj, "runs");
    json_t *r0 = json_array_get(runs, 0), *r1 = json_array_get(runs, 1);
    json_object_set_new(r0, "cycles", json_integer(num(json_object_get(r0, "cycles")) + 151));
    json_object_set_new(r1, "cycles", json_integer(num(json_object_get(r1, "cycles")) - 7));
    json_array_remove(runs, 2);
    json_object_set_new(bj, "timing_table", json_string("fnv1a64:0000000000000000"));
    cr_assert_eq(json_dump_file(bj, base, 0), 0);
    cr_assert_eq(run("bench report %s --baseline %s -o %s", res, base, html), 0, "%s", out);
    char *page = read_whole_file(html, NULL);
    unsigned n;
    check_page(page, rj, bj, &n, data, 2000);
    cr_expect(strstr(page, "<p class=\"flag\" data-flag=\"model-changed\">model changed"));
    cr_expect(strstr(page, "class=\"n faster\" data-run=\"hello-load[lat=8]\" data-metric=\"delta.cycles\" "
                           "data-value=\"-151\">-151 (-0.60%)</td>"), "%s", page);
    cr_expect(strstr(page, "class=\"n slower\" data-run=\"hello-load[lat=16]\" data-metric=\"delta.cycles\" "
                           "data-value=\"7\">+7 (+0.03%)</td>"));
    unsigned deltas = 0;
    for (unsigned i = 0; i < n; i++)
        deltas += !strcmp(data[i].metric, "delta.cycles");
    /* a delta in the table and in the chart for every run but the one the baseline lacks */
    cr_expect_eq(deltas, 2 * (json_array_size(json_object_get(rj, "runs")) - 1));
    cr_expect(strstr(page, "<td class=\"n same\">new</td>"));
    free(page);
    /* the same timing table: no flag */
    json_object_set(bj, "timing_table", json_object_get(rj, "timing_table"));
    cr_assert_eq(json_dump_file(bj, base, 0), 0);
    cr_assert_eq(run("bench report %s --baseline %s -o %s", res, base, html), 0, "%s", out);
    page = read_whole_file(html, NULL);
    cr_expect(!strstr(page, "model-changed"));
    free(page);
    json_decref(rj);
    json_decref(bj);
    unlink(res);
    unlink(base);
    unlink(html);
}

static void bad_results(const char *text, const char *message)
{
    const char *f = tmp("bad.json");
    FILE *fp = fopen(f, "w");
    cr_assert(fp);
    fputs(text, fp);
    fclose(fp);
    cr_expect_eq(run("bench report %s", f), 2, "%s", text);
    char want[1000];
    snprintf(want, sizeof want, "tensim: bench report: %s: %s\n", f, message);
    cr_expect_str_eq(out, want);
    /* the same file as a baseline */
    cr_expect_eq(run("bench report test/bench/gate-baseline.json --baseline %s", f), 2, "%s", text);
    cr_expect_str_eq(out, want);
    unlink(f);
}

#define HEAD "{\"tensim_bench_results\": 1, \"tensim\": \"0.1\", \"timing_table\": \"x\", \"manifest\": \"m\", "

Test(bench_report, bad_input_exits_2_naming_the_file_and_key)
{
    cr_expect_eq(run("bench report /nonexistent/r.json"), 2);
    cr_expect_str_eq(out, "tensim: bench report: /nonexistent/r.json: unable to open /nonexistent/r.json: "
                          "No such file or directory\n");
    cr_expect_eq(run("bench report"), 2);
    cr_expect(strstr(out, "tensim: usage: no results file given\n"), "%s", out);
    bad_results("{\"runs\": [}", "line 1 column 11: unexpected token near '}'");
    bad_results("[]", "not a bench results file (expected an object)");
    bad_results("{\"runs\": []}", "missing \"tensim_bench_results\": not a bench results file");
    bad_results("{\"tensim_bench_results\": 2}", "tensim_bench_results: this tensim reads version 1");
    bad_results(HEAD "\"runs\": {}}", "runs: expected an array");
    bad_results("{\"tensim_bench_results\": 1, \"tensim\": 3}", "tensim: expected a string");
    bad_results(HEAD "\"runs\": [{\"name\": \"a\", \"status\": \"ok\", \"cycles\": \"12\"}]}",
                "runs[0].cycles: expected a whole number");
    bad_results(HEAD "\"runs\": [{\"name\": \"a\", \"status\": \"ok\", \"cycles\": 1}, {\"status\": \"ok\"}]}",
                "runs[1]: \"name\": expected a string");
    bad_results(HEAD "\"runs\": [{\"name\": \"a\", \"status\": \"ok\", \"cycles\": 1, \"stalls\": {\"cores\": "
                "{\"TRISC0\": {\"operand\": -1}}, \"threads\": {}}}]}",
                "runs[0].stalls.cores.TRISC0: \"operand\" is not a whole number");
    bad_results(HEAD "\"runs\": [{\"name\": \"a\", \"status\": \"ok\", \"cycles\": 1, \"stalls\": {\"cores\": {}}}]}",
                "runs[0].stalls.threads: expected an object");
    bad_results(HEAD "\"runs\": [{\"name\": \"a\", \"status\": \"ok\", \"cycles\": 1, \"regions\": {\"TRISC0\": "
                "[{\"id\": 64, \"cycles\": 1}]}}]}",
                "runs[0].regions.TRISC0[0]: a region needs \"id\" (0..63) and \"cycles\" (whole numbers)");
    bad_results(HEAD "\"runs\": [{\"name\": \"a\", \"status\": \"ok\", \"cycles\": 1, \"params\": {\"x\": 1}}]}",
                "runs[0].params: \"x\": expected a string");
    /* an unwritable output */
    cr_expect_eq(run("bench report test/bench/gate-baseline.json -o /nonexistent/r.html"), 2);
    cr_expect_str_eq(out, "tensim: bench report: cannot write /nonexistent/r.html: No such file or directory\n");
}
