/* Golden outputs: the end-of-run report, --stats JSON and --trace JSON of every example kernel,
 * guest test program and a sample of the differential test's kernels stay byte for byte what
 * test/golden/expected.txt recorded. A refactor that changes a cycle, a stall or a trace event
 * fails here and names the run; the outputs of the failing run are left in build/golden/ to diff
 * against a build of the old commit. docs/testing.md "Golden outputs".
 *
 * To record anew (only when a change of outputs is intended, and say why in the commit):
 *   TENSIM_GOLDEN_RECORD=1 build/tests --filter 'golden*'                                     */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff/cases.h"
#include "harness.h"

#define RUNS "test/golden/runs.txt"
#define EXPECTED "test/golden/expected.txt"
#define OUTDIR "build/golden"
#define MAX_RUNS 256

/* The hashes of one run: exit status, then output, stats and trace (64-bit FNV-1a). */
struct golden {
    char name[200];
    int status;
    uint64_t out, stats, trace;
};

static uint64_t fnv(const char *b, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)b[i]) * 0x100000001B3ull;
    return h;
}

static uint64_t file_hash(const char *path)
{
    size_t n;
    char *b = read_whole_file(path, &n);
    uint64_t h = fnv(b, n);
    free(b);
    return h;
}

static bool recording(void)
{
    const char *r = getenv("TENSIM_GOLDEN_RECORD");
    return r && *r && strcmp(r, "0");
}

/* The recorded runs whose names start with `prefix` ("" for all). */
static unsigned load_expected(struct golden *g, unsigned max)
{
    FILE *f = fopen(EXPECTED, "r");
    cr_assert(f, "cannot read " EXPECTED);
    char line[400];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        cr_assert_lt(n, max);
        cr_assert_eq(sscanf(line, "%199s %d %" SCNx64 " %" SCNx64 " %" SCNx64, g[n].name,
                            &g[n].status, &g[n].out, &g[n].stats, &g[n].trace), 5,
                     EXPECTED ": not a record line: %s", line);
        n++;
    }
    fclose(f);
    return n;
}

static const struct golden *find(const struct golden *g, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(g[i].name, name))
            return &g[i];
    return NULL;
}

/* Compares (or, when recording, appends to `rec`) one run; returns false if it differs. */
static bool check(const struct golden *want, const struct golden *got, FILE *rec)
{
    if (rec) {
        fprintf(rec, "%-48s %3d %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", got->name,
                got->status, got->out, got->stats, got->trace);
        return true;
    }
    if (!want) {
        cr_expect(0, "%s: not recorded in " EXPECTED, got->name);
        return false;
    }
    const char *what = want->status != got->status ? "exit status"
                       : want->out != got->out     ? "report (" OUTDIR "/NAME.out)"
                       : want->stats != got->stats ? "--stats (" OUTDIR "/NAME.stats.json)"
                       : want->trace != got->trace ? "--trace (" OUTDIR "/NAME.trace.json)"
                                                   : NULL;
    cr_expect(!what, "%s: the %s differs from the recorded run", got->name, what);
    return !what;
}

/* `rec` gets the records of this half when recording: the two halves write two files that
 * the recorder concatenates (Criterion may run them at once). */
static FILE *open_record(const char *half)
{
    if (!recording())
        return NULL;
    char path[128];
    snprintf(path, sizeof path, OUTDIR "/expected-%s.txt", half);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    return f;
}

/* Expands K/ and G/ in a runs.txt argument list. */
static void expand(const char *in, char *out, size_t n)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 16 < n; p++) {
        bool start = p == in || p[-1] == ' ' || p[-1] == '=';
        if (start && (p[0] == 'K' || p[0] == 'G') && p[1] == '/') {
            o += (size_t)snprintf(out + o, n - o, "%s", p[0] == 'K' ? "build/kernels" : "build/guest");
            continue;
        }
        out[o++] = *p;
    }
    out[o] = 0;
}

Test(golden, cli_runs_are_unchanged)
{
    static struct golden want[MAX_RUNS];
    unsigned nwant = load_expected(want, MAX_RUNS);
    mkdir("build", 0777);
    mkdir(OUTDIR, 0777);
    FILE *rec = open_record("cli");
    FILE *f = fopen(RUNS, "r");
    cr_assert(f, "cannot read " RUNS);
    char line[1024], args[2048], cmd[3072];
    static char out[1 << 20];
    unsigned runs = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] == '#' || !line[0])
            continue;
        struct golden got = {0};
        int skip = 0;
        cr_assert_eq(sscanf(line, "%199s %n", got.name, &skip), 1, RUNS ": %s", line);
        expand(line + skip, args, sizeof args);
        /* "run ..." becomes "run --stats=... --trace=... ..." */
        cr_assert(!strncmp(args, "run ", 4), RUNS ": %s: not a run", got.name);
        char stats[256], trace[256], outp[256];
        snprintf(stats, sizeof stats, OUTDIR "/%s.stats.json", got.name);
        snprintf(trace, sizeof trace, OUTDIR "/%s.trace.json", got.name);
        snprintf(outp, sizeof outp, OUTDIR "/%s.out", got.name);
        snprintf(cmd, sizeof cmd, "run --stats=%s --trace=%s %s", stats, trace, args + 4);
        got.status = run_tensim(cmd, out, sizeof out);
        FILE *o = fopen(outp, "w");
        cr_assert(o, "cannot write %s", outp);
        fputs(out, o);
        fclose(o);
        got.out = fnv(out, strlen(out));
        got.stats = file_hash(stats);
        got.trace = file_hash(trace);
        bad += !check(find(want, nwant, got.name), &got, rec);
        runs++;
    }
    fclose(f);
    if (rec)
        fclose(rec);
    cr_expect_gt(runs, 20);
    cr_expect_eq(bad, 0, "%u of %u runs differ from " EXPECTED, bad, runs);
}

/* Every seventh case of the differential matrix on each architecture, rand data, seed 1: the
 * tt-llk-shaped tilize, untilize and matmul kernels and every operation and format (the
 * vector-unit cases are not among them: test/test_diff.c checks their outputs). */
Test(golden, difftest_kernels_are_unchanged)
{
    static struct golden want[MAX_RUNS];
    unsigned nwant = load_expected(want, MAX_RUNS);
    mkdir("build", 0777);
    mkdir(OUTDIR, 0777);
    FILE *rec = open_record("diff");
    const struct dt_case *cases;
    unsigned ncases = dt_matrix(&cases), runs = 0, bad = 0;
    static struct dt_inputs in;
    static struct dt_result r;
    for (int wh = 0; wh < 2; wh++) {
        for (unsigned i = 0, k = 0; i < ncases; i++) {
            if (!dt_case_on(&cases[i], wh) || cases[i].op == DT_OP_SFPU || k++ % 7)
                continue;
            char cname[160];
            dt_case_name(&cases[i], cname, sizeof cname);
            struct golden got = {0};
            snprintf(got.name, sizeof got.name, "%s:%s", wh ? "wh" : "bh", cname);
            for (char *p = got.name; *p; p++)
                if (*p == '/')
                    *p = '.';
            char stats[256], trace[256];
            snprintf(stats, sizeof stats, OUTDIR "/%s.stats.json", got.name);
            snprintf(trace, sizeof trace, OUTDIR "/%s.trace.json", got.name);
            FILE *fs = fopen(stats, "w"), *ft = fopen(trace, "w");
            cr_assert(fs && ft, "cannot write %s", stats);
            dt_inputs(&cases[i], DATA_RAND, 1, true, &in);
            dt_run_tensim_report(wh, wh ? "build/kernels/difftest-wh.elf" : "build/kernels/difftest-bh.elf",
                                 &in, &r, fs, ft);
            fclose(fs);
            fclose(ft);
            cr_assert(r.ok, "%s: %s", got.name, r.why);
            got.out = dt_hash(r.out, in.out_len);
            got.stats = file_hash(stats);
            got.trace = file_hash(trace);
            bad += !check(find(want, nwant, got.name), &got, rec);
            runs++;
        }
    }
    if (rec)
        fclose(rec);
    cr_expect_gt(runs, 100);
    cr_expect_eq(bad, 0, "%u of %u runs differ from " EXPECTED, bad, runs);
}
