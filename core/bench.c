/* `tensim bench run`: run a manifest's runs, write the results JSON, compare it with a baseline
 * and print the table (docs/bench.md). Exit status 0 (no regression), 1 (a regression: a run
 * slower than its tolerance allows, or a run that fails), 2 (an error: bad command line,
 * manifest or baseline, a file that cannot be read or written, an interrupted bench). */
#include "bench.h"

#include "../trace/json.h"
#include "../trace/zones.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_pin.h"
#include "cli.h"
#include "hostio.h"
#include "version.h"

enum { BENCH_OK = 0, BENCH_REGRESSION = 1, BENCH_ERROR = 2 };

enum bench_opt { B_JOBS, B_BASELINE, B_UPDATE, B_OUT, B_NO_PIN, B_HELP };

static const struct cli_opt bench_opts[] = {
    {B_JOBS, "jobs", 'j', "N", "run on N host threads (default: one per physical core); the\n"
     "results do not depend on N"},
    {B_BASELINE, "baseline", 0, "FILE", "compare with these results (a results file of an earlier "
     "bench)"},
    {B_UPDATE, "update-baseline", 0, 0, "rewrite the --baseline file with this bench's results"},
    {B_OUT, "out", 'o', "FILE", "write the results JSON to FILE"},
    {B_NO_PIN, "no-pin", 0, 0, "do not pin the threads to physical cores (they are pinned when\n"
     "there are no more of them than cores)"},
    {B_HELP, "help", 'h', 0, "show this help and exit"},
};

static const struct cli_cmd bench_cmd = {
    "bench run", "MANIFEST",
    "Run a bench manifest's runs, compare their cycles with a baseline and print the table.",
    "The manifest's format and the results' are in docs/bench.md. Exit status: 0 no regression;\n"
    "1 a run slower than its tolerance allows, or a run that fails; 2 an error (bad command\n"
    "line, manifest or baseline, an unreadable input, an unwritable output, Ctrl-C).\n",
    bench_opts, sizeof bench_opts / sizeof bench_opts[0],
};

struct bench_args {
    const char *manifest, *baseline, *out;
    bool update, no_pin;
    unsigned jobs; /* 0: one per physical core */
};

/* Returns 0 to run, -1 after --help, or BENCH_ERROR. */
static int parse_bench(int argc, char **argv, struct bench_args *a)
{
    struct cli_parser p;
    cli_begin(&p, &bench_cmd, argc, argv);
    *a = (struct bench_args){0};
    for (;;) {
        char *v;
        int id = cli_next(&p, &v);
        if (id == CLI_END)
            break;
        switch (id) {
        case CLI_ERROR: return BENCH_ERROR;
        case B_JOBS: {
            unsigned long long j;
            if (cli_parse_u64(v, &j) || !j || j > BENCH_MAX_THREADS) {
                cli_usage_error(&bench_cmd, "-j wants a number from 1 to %d, not '%s'", BENCH_MAX_THREADS, v);
                return BENCH_ERROR;
            }
            a->jobs = (unsigned)j;
            break;
        }
        case B_BASELINE: a->baseline = v; break;
        case B_UPDATE: a->update = true; break;
        case B_OUT: a->out = v; break;
        case B_NO_PIN: a->no_pin = true; break;
        case B_HELP: cli_help(&bench_cmd, stdout); return -1;
        }
    }
    if (p.next != argc - 1) {
        cli_usage_error(&bench_cmd, p.next == argc ? "no manifest given" : "one manifest, not %d",
                        argc - p.next);
        return BENCH_ERROR;
    }
    a->manifest = argv[p.next];
    if (a->update && !a->baseline) {
        cli_usage_error(&bench_cmd, "--update-baseline needs --baseline FILE");
        return BENCH_ERROR;
    }
    if (a->out && a->baseline && !strcmp(a->out, a->baseline)) {
        cli_usage_error(&bench_cmd, "--out and --baseline are both %s (--update-baseline rewrites "
                        "the baseline)", a->out);
        return BENCH_ERROR;
    }
    return 0;
}

/* ---- the timing table's hash ---- */

/* FNV-1a over every row of core/timing.def as "key BH WH min max\n": it changes when the model's
 * timing changes, so a report tells "the model changed" apart from "the kernel changed". */
static void timing_table_hash(char *out, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    char row[200];
#define TIMING(g, f, b, w, lo, hi, src, chk)                                                      \
    snprintf(row, sizeof row, "%s %u %u %u %u\n", #g "." #f, b, w, lo, hi);                        \
    for (const char *c = row; *c; c++)                                                            \
        h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
#include "timing.def"
#undef TIMING
    snprintf(out, n, "fnv1a64:%016" PRIx64, h);
}

/* ---- results JSON ---- */

/* With "stalls" measured too, a region's "stalls" (the core's, by reason) and, for a TRISC's
 * region, "held" (its thread's Wait Gate hold cycles): the region table's breakdown, zeros left
 * out. */
static void region_stalls(const struct bench_region *x, bool trisc, FILE *f)
{
    fputs(", \"stalls\": {", f);
    const char *sep = "";
    for (int s = 0; s < STALL_COUNT; s++)
        if (x->stall[s]) {
            fprintf(f, "%s\"%s\": %" PRIu64, sep, core_stall_key(s), x->stall[s]);
            sep = ", ";
        }
    fputc('}', f);
    if (!trisc)
        return;
    fputs(", \"held\": {", f);
    sep = "";
    for (int r = 1; r < GS_COUNT; r++)
        if (x->held[r]) {
            fprintf(f, "%s\"%s\": %" PRIu64, sep, gate_stall_key(r), x->held[r]);
            sep = ", ";
        }
    fputc('}', f);
}

/* "regions": {"TRISC1": [{"id": 1, "count": 4, ...}, ...], ...}: cores in core order, ids
 * ascending, as the stats JSON lists them. */
static void results_regions(const struct bench_regions *g, bool stalls, FILE *f)
{
    fputs(", \"regions\": {", f);
    const char *csep = "";
    for (int k = 0; k < NUM_CORES; k++) {
        if (!g->used[k])
            continue;
        fprintf(f, "%s\"%s\": [", csep, core_name(k));
        const char *rsep = "";
        for (unsigned id = 0; id < REGION_IDS; id++)
            if (g->used[k] >> id & 1) {
                const struct bench_region *x = &g->id[k][id];
                fprintf(f, "%s{\"id\": %u, \"count\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"min\": %"
                        PRIu64 ", \"max\": %" PRIu64, rsep, id, x->count, x->cycles, x->min, x->max);
                if (stalls)
                    region_stalls(x, k < NUM_THREADS, f);
                fputc('}', f);
                rsep = ", ";
            }
        fputc(']', f);
        csep = ", ";
    }
    fputc('}', f);
}

/* "stalls": {"cores": {"TRISC0": {"operand": 12, ...}, ...}, "threads": {"T0": {"semwait": 4,
 * ...}, ...}}: the report's "stall cycles" column per core that ran and its "T0 ... held:" line
 * per thread that was pushed to, causes in the report's order, zeros left out as there. */
static void results_stalls(const struct bench_result *x, FILE *f)
{
    fputs(", \"stalls\": {\"cores\": {", f);
    const char *sep = "";
    for (int k = 0; k < NUM_CORES; k++) {
        if (!x->core_on[k])
            continue;
        fprintf(f, "%s\"%s\": {", sep, core_name(k));
        const char *s2 = "";
        for (int s = 0; s < STALL_COUNT; s++)
            if (x->core_stall[k][s]) {
                fprintf(f, "%s\"%s\": %" PRIu64, s2, core_stall_key(s), x->core_stall[k][s]);
                s2 = ", ";
            }
        fputc('}', f);
        sep = ", ";
    }
    fputs("}, \"threads\": {", f);
    sep = "";
    for (int i = 0; i < NUM_THREADS; i++) {
        if (!x->thread_on[i])
            continue;
        fprintf(f, "%s\"T%d\": {", sep, i);
        const char *s2 = "";
        for (int r = 1; r < GS_COUNT; r++)
            if (x->thread_held[i][r]) {
                fprintf(f, "%s\"%s\": %" PRIu64, s2, gate_stall_key(r), x->thread_held[i][r]);
                s2 = ", ";
            }
        fputc('}', f);
        sep = ", ";
    }
    fputs("}}", f);
}

/* "zones": {"math": [{"marker": "TILE_LOOP", "count": 8, "cycles": ..., "min", "max"}, ...], ...}:
 * threads in tt-llk's order, markers in byte order. */
static void results_zones(const struct bench_result *x, FILE *f)
{
    fputs(", \"zones\": {", f);
    for (unsigned i = 0; i < x->nzones; i++) {
        const struct bench_zone *z = &x->zones[i];
        bool first = !i || x->zones[i - 1].thread != z->thread;
        if (first)
            fprintf(f, "%s\"%s\": [", i ? "], " : "", zone_thread_name(z->thread));
        fputs(first ? "{\"marker\": " : ", {\"marker\": ", f);
        json_str(f, z->marker);
        fprintf(f, ", \"count\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"min\": %" PRIu64 ", \"max\": %" PRIu64
                "}", z->count, z->cycles, z->min, z->max);
    }
    fputs(x->nzones ? "]}" : "}", f);
}

/* One run per line, in manifest order: byte-identical for identical results. */
static void results_json(const struct bench_manifest *m, const struct bench_result *res, FILE *f)
{
    char hash[40];
    timing_table_hash(hash, sizeof hash);
    fprintf(f, "{\n  \"tensim_bench_results\": %d,\n  \"tensim\": ", BENCH_VERSION);
    json_str(f, TENSIM_VERSION);
    fprintf(f, ",\n  \"timing_table\": \"%s\",\n  \"manifest\": ", hash);
    json_str(f, m->path);
    fprintf(f, ",\n  \"runs\": [");
    for (unsigned i = 0; i < m->nruns; i++) {
        const struct bench_run *r = &m->run[i];
        const struct bench_result *x = &res[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, r->name);
        fprintf(f, ", \"params\": {");
        for (unsigned a = 0; a < r->naxes; a++) {
            fputs(a ? ", " : "", f);
            json_str(f, r->axis[a]);
            fputs(": ", f);
            json_str(f, r->value[a]);
        }
        fprintf(f, "}, \"timing\": [");
        for (unsigned k = 0; k < r->ntiming; k++) {
            fputs(k ? ", " : "", f);
            json_str(f, r->timing_text[k]);
        }
        fputs("]", f);
        if (r->nbuild) { /* only a run with a build has the key: older results read as before */
            fputs(", \"build\": [", f);
            for (unsigned k = 0; k < r->nbuild; k++) {
                fputs(k ? ", " : "", f);
                json_str(f, r->build[k]);
            }
            fputs("]", f);
        }
        fprintf(f, ", \"arch\": \"%s\", \"status\": \"%s\", \"exit_status\": %d", r->arch->name,
                x->ok ? "ok" : "failed", x->exit_status);
        if (!x->ok) {
            fputs(", \"error\": ", f);
            json_str(f, x->error);
        }
        fprintf(f, ", \"cycles\": %" PRIu64, x->cycles);
        if (r->per_core) {
            fprintf(f, ", \"core_cycles\": {");
            const char *sep = "";
            for (int k = 0; k < NUM_CORES; k++)
                if (x->core_on[k]) {
                    fprintf(f, "%s\"%s\": %" PRIu64, sep, core_name(k), x->core_cycles[k]);
                    sep = ", ";
                }
            fputc('}', f);
        }
        if (r->regions && x->regions)
            results_regions(x->regions, r->stalls, f);
        if (r->stalls)
            results_stalls(x, f);
        if (r->zones && x->zones)
            results_zones(x, f);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
}

static int write_results(const char *path, const struct bench_manifest *m, const struct bench_result *res)
{
    struct host_out o;
    if (host_out_open(&o, path) == 0) {
        results_json(m, res, o.f);
        if (host_out_close(&o) == 0)
            return 0;
    }
    fprintf(stderr, "tensim: bench: cannot write %s: %s\n", path, strerror(o.err));
    return -1;
}

/* ---- the baseline ---- */

struct base_run {
    const char *name, *status;
    uint64_t cycles;
    bool has_core[NUM_CORES];
    uint64_t core_cycles[NUM_CORES];
    uint64_t region_has[NUM_CORES];                 /* bit per region id the baseline has */
    uint64_t region_cycles[NUM_CORES][REGION_IDS];  /* its total cycles */
    json_t *zones;  /* its "zones" (checked by baseline_load), or NULL */
    bool seen; /* a run of this bench has this name */
};

struct baseline {
    json_t *root;
    const char *version, *timing_table;
    struct base_run *run;
    unsigned nruns;
};

static int base_fail(const char *path, const char *fmt, const char *what)
{
    fprintf(stderr, "tensim: bench: baseline %s: ", path);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return -1;
}

static int u64_of(json_t *v, uint64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return -1;
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

/* A run's "regions" (results_json's format); absent: none. */
static int regions_of(const char *path, const char *where, json_t *g, struct base_run *r)
{
    char at[200];
    if (!g)
        return 0;
    if (!json_is_object(g))
        return base_fail(path, "%s: \"regions\" is not an object", where);
    for (int k = 0; k < NUM_CORES; k++) {
        json_t *list = json_object_get(g, core_name(k));
        if (!list)
            continue;
        snprintf(at, sizeof at, "%s.regions.%s", where, core_name(k));
        if (!json_is_array(list))
            return base_fail(path, "%s: not an array", at);
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *e = json_array_get(list, i);
            uint64_t id, cycles;
            if (u64_of(json_object_get(e, "id"), &id) || id >= REGION_IDS ||
                u64_of(json_object_get(e, "cycles"), &cycles))
                return base_fail(path, "%s: a region needs \"id\" (0..63) and \"cycles\"", at);
            r->region_has[k] |= 1ull << id;
            r->region_cycles[k][id] = cycles;
        }
    }
    return 0;
}

/* A run's "zones" (results_zones's format): checked here, looked up by base_zone. */
static int zones_of(const char *path, const char *where, json_t *g, struct base_run *r)
{
    char at[200];
    const char *thread;
    json_t *list;
    if (!g)
        return 0;
    if (!json_is_object(g))
        return base_fail(path, "%s: \"zones\" is not an object", where);
    json_object_foreach(g, thread, list) {
        snprintf(at, sizeof at, "%s.zones.%.40s", where, thread);
        if (!json_is_array(list))
            return base_fail(path, "%s: not an array", at);
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *e = json_array_get(list, i);
            uint64_t cycles;
            if (!json_is_string(json_object_get(e, "marker")) || u64_of(json_object_get(e, "cycles"), &cycles))
                return base_fail(path, "%s: a zone needs \"marker\" and \"cycles\"", at);
        }
    }
    r->zones = g;
    return 0;
}

/* The baseline's total cycles of a thread's marker; false if it has none. */
static bool base_zone(const struct base_run *br, const char *thread, const char *marker, uint64_t *cycles)
{
    json_t *list = br ? json_object_get(br->zones, thread) : 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *e = json_array_get(list, i);
        if (!strcmp(json_string_value(json_object_get(e, "marker")), marker))
            return u64_of(json_object_get(e, "cycles"), cycles) == 0;
    }
    return false;
}

static int baseline_load(struct baseline *b, const char *path)
{
    json_error_t je;
    char where[120];
    *b = (struct baseline){0};
    if (!(b->root = json_load_file(path, JSON_REJECT_DUPLICATES, &je))) {
        if (je.line < 0)
            return base_fail(path, "%s", je.text);
        snprintf(where, sizeof where, "line %d column %d: %.80s", je.line, je.column, je.text);
        return base_fail(path, "%s", where);
    }
    json_t *v = json_object_get(b->root, "tensim_bench_results"), *runs = json_object_get(b->root, "runs");
    if (!json_is_integer(v) || json_integer_value(v) != BENCH_VERSION)
        return base_fail(path, "%s", "not a results file of this version (\"tensim_bench_results\": 1)");
    b->version = json_string_value(json_object_get(b->root, "tensim"));
    b->timing_table = json_string_value(json_object_get(b->root, "timing_table"));
    if (!json_is_array(runs))
        return base_fail(path, "%s", "\"runs\" is not an array");
    if (!(b->run = calloc(json_array_size(runs) + 1, sizeof *b->run)))
        return base_fail(path, "%s", "out of memory");
    for (size_t i = 0; i < json_array_size(runs); i++) {
        json_t *o = json_array_get(runs, i), *cc = json_object_get(o, "core_cycles");
        struct base_run *r = &b->run[b->nruns++];
        r->name = json_string_value(json_object_get(o, "name"));
        r->status = json_string_value(json_object_get(o, "status"));
        snprintf(where, sizeof where, "runs[%zu]", i);
        if (!r->name || !r->status || u64_of(json_object_get(o, "cycles"), &r->cycles))
            return base_fail(path, "%s: needs \"name\", \"status\" and \"cycles\"", where);
        for (int k = 0; cc && k < NUM_CORES; k++) {
            json_t *c = json_object_get(cc, core_name(k));
            if (c && u64_of(c, &r->core_cycles[k]))
                return base_fail(path, "%s: a core's cycles are not a number", where);
            r->has_core[k] = c != 0;
        }
        if (regions_of(path, where, json_object_get(o, "regions"), r) ||
            zones_of(path, where, json_object_get(o, "zones"), r))
            return -1;
    }
    return 0;
}

static void baseline_free(struct baseline *b)
{
    json_decref(b->root);
    free(b->run);
    *b = (struct baseline){0};
}

static struct base_run *baseline_find(struct baseline *b, const char *name)
{
    for (unsigned i = 0; i < b->nruns; i++)
        if (!strcmp(b->run[i].name, name))
            return &b->run[i];
    return 0;
}

/* ---- the table ---- */

/* One line of the table, without trailing blanks. */
static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...)
{
    char buf[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    while (n && buf[n - 1] == ' ')
        n--;
    printf("%.*s\n", (int)n, buf);
}

/* Is a slowdown of delta cycles over base beyond the run's tolerance? With none, any slowdown
 * is; with both, it must exceed both (as "over 2% and 30 cycles"). */
static bool beyond_tolerance(const struct bench_run *r, uint64_t base, uint64_t now)
{
    if (now <= base)
        return false;
    uint64_t d = now - base;
    if (r->tol_cycles_given && d <= r->tol_cycles)
        return false;
    if (r->tol_percent_given && (double)d * 100.0 <= r->tol_percent * (double)base)
        return false;
    return true;
}

/* One row: run, metric, baseline, now, delta, and what it means ("new": the baseline has no such
 * run or core). Returns 1 for a regression. */
static int row(const struct bench_run *r, const char *metric, const uint64_t *base, uint64_t now,
               bool have_base)
{
    char b[24] = "-", d[48] = "";
    const char *verdict = base || !have_base ? "" : "new";
    int reg = 0;
    if (base) {
        snprintf(b, sizeof b, "%" PRIu64, *base);
        int64_t delta = (int64_t)(now - *base);
        if (delta && *base)
            snprintf(d, sizeof d, "%+" PRId64 " (%+.2f%%)", delta, 100.0 * (double)delta / (double)*base);
        else if (delta)
            snprintf(d, sizeof d, "%+" PRId64, delta);
        else
            snprintf(d, sizeof d, "0");
        reg = beyond_tolerance(r, *base, now);
        verdict = reg ? "REGRESSION" : now > *base ? "slower, within tolerance" : now < *base ? "faster" : "";
    }
    line("%-32s %-17s %9s %12" PRIu64 " %-20s %s", r->name, metric, b, now, d, verdict);
    return reg;
}

/* A row per region the run ended or the baseline has ("region.TRISC1.3": its total cycles),
 * cores in core order, ids ascending. Returns the number of regressions. */
static unsigned compare_regions(const struct bench_run *r, const struct bench_regions *g,
                                const struct base_run *br, bool have_base)
{
    unsigned regressions = 0;
    for (int k = 0; k < NUM_CORES; k++) {
        uint64_t had = br ? br->region_has[k] : 0;
        for (unsigned id = 0; id < REGION_IDS; id++) {
            char metric[32];
            snprintf(metric, sizeof metric, "region.%s.%u", core_name(k), id);
            if (g->used[k] >> id & 1)
                regressions += (unsigned)row(r, metric, had >> id & 1 ? &br->region_cycles[k][id] : 0,
                                             g->id[k][id].cycles, have_base);
            else if (had >> id & 1)
                line("%-32s %-17s %9" PRIu64 " %12s %-20s %s", r->name, metric, br->region_cycles[k][id],
                     "-", "", "not marked any more");
        }
    }
    return regressions;
}

/* A row per zone marker the run closed ("zone.math.TILE_LOOP": its total cycles), then the
 * baseline's markers the run no longer has. Returns the number of regressions. */
static unsigned compare_zones(const struct bench_run *r, const struct bench_result *x,
                              const struct base_run *br, bool have_base)
{
    unsigned regressions = 0;
    char metric[96];
    for (unsigned i = 0; i < x->nzones; i++) {
        const struct bench_zone *z = &x->zones[i];
        uint64_t was;
        bool had = base_zone(br, zone_thread_name(z->thread), z->marker, &was);
        snprintf(metric, sizeof metric, "zone.%s.%s", zone_thread_name(z->thread), z->marker);
        regressions += (unsigned)row(r, metric, had ? &was : 0, z->cycles, have_base);
    }
    const char *thread;
    json_t *list;
    json_object_foreach(br ? br->zones : 0, thread, list) {
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *e = json_array_get(list, i);
            const char *marker = json_string_value(json_object_get(e, "marker"));
            bool now = false;
            for (unsigned k = 0; k < x->nzones && !now; k++)
                now = !strcmp(zone_thread_name(x->zones[k].thread), thread) && !strcmp(x->zones[k].marker, marker);
            if (!now) {
                snprintf(metric, sizeof metric, "zone.%s.%s", thread, marker);
                line("%-32s %-17s %9" PRIu64 " %12s %-20s %s", r->name, metric,
                     (uint64_t)json_integer_value(json_object_get(e, "cycles")), "-", "", "not closed any more");
            }
        }
    }
    return regressions;
}

/* Print the table; returns the number of regressions (slower runs and failing runs). */
static unsigned compare(const struct bench_manifest *m, const struct bench_result *res, struct baseline *b)
{
    unsigned regressions = 0;
    line("%-32s %-17s %9s %12s %-20s %s", "run", "metric", "baseline", "now", "delta", "");
    for (unsigned i = 0; i < m->nruns; i++) {
        const struct bench_run *r = &m->run[i];
        const struct bench_result *x = &res[i];
        struct base_run *br = b ? baseline_find(b, r->name) : 0;
        if (br)
            br->seen = true;
        if (!x->ok) {
            line("%-32s %-17s %9s %12s %-20s FAILS: %s", r->name, "status", br ? br->status : "-",
                   "failed", "", x->error);
            regressions++;
            continue;
        }
        if (br && strcmp(br->status, "ok"))
            line("%-32s %-17s %9s %12s %-20s %s", r->name, "status", br->status, "ok", "", "fixed");
        bool base_ok = br && !strcmp(br->status, "ok");
        regressions += (unsigned)row(r, "cycles", base_ok ? &br->cycles : 0, x->cycles, b != 0);
        for (int k = 0; r->per_core && k < NUM_CORES; k++) {
            if (!x->core_on[k])
                continue;
            char metric[32];
            snprintf(metric, sizeof metric, "cycles.%s", core_name(k));
            regressions += (unsigned)row(r, metric, base_ok && br->has_core[k] ? &br->core_cycles[k] : 0,
                                         x->core_cycles[k], b != 0);
        }
        if (r->regions && x->regions)
            regressions += compare_regions(r, x->regions, base_ok ? br : 0, b != 0);
        if (r->zones && x->zones)
            regressions += compare_zones(r, x, base_ok ? br : 0, b != 0);
    }
    for (unsigned i = 0; b && i < b->nruns; i++)
        if (!b->run[i].seen)
            line("%-32s %-17s %9" PRIu64 " %12s %-20s %s", b->run[i].name, "cycles", b->run[i].cycles,
                   "-", "", "not in the manifest any more");
    return regressions;
}

static int cmd_bench_run(int argc, char **argv, const volatile sig_atomic_t *stop)
{
    struct bench_args a;
    int r = parse_bench(argc, argv, &a);
    if (r)
        return r < 0 ? BENCH_OK : r;
    struct bench_manifest m;
    char err[1000];
    if (bench_manifest_load(&m, a.manifest, err, sizeof err)) {
        fprintf(stderr, "tensim: bench: bad manifest: %s\n", err);
        return BENCH_ERROR;
    }
    struct baseline base = {0};
    bool have_base = false;
    if (a.baseline) {
        if (a.update && access(a.baseline, F_OK) && errno == ENOENT)
            have_base = false; /* a new baseline */
        else if (baseline_load(&base, a.baseline)) {
            bench_manifest_free(&m);
            baseline_free(&base);
            return BENCH_ERROR;
        } else
            have_base = true;
    }
    struct bench_result *res = calloc(m.nruns, sizeof *res);
    if (!res) {
        fprintf(stderr, "tensim: bench: out of memory\n");
        bench_manifest_free(&m);
        baseline_free(&base);
        return BENCH_ERROR;
    }
    struct host_pin *pin = host_pin_open();
    if (!a.jobs) {
        long n = host_pin_cores(pin) ? (long)host_pin_cores(pin) : sysconf(_SC_NPROCESSORS_ONLN);
        a.jobs = n < 1 ? 1 : n > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : (unsigned)n;
    }
    bench_run_all(&m, a.jobs, a.no_pin ? 0 : pin, stop, res);
    host_pin_close(pin);
    /* What the runs printed, in run order. */
    for (unsigned i = 0; i < m.nruns; i++)
        if (res[i].log) {
            const char *s = res[i].log;
            while (*s) {
                size_t n = strcspn(s, "\n");
                fprintf(stderr, "[%s] %.*s\n", m.run[i].name, (int)n, s);
                s += n + (s[n] != 0);
            }
        }
    int status = BENCH_OK;
    if (*stop) {
        fprintf(stderr, "tensim: bench: interrupted; no results written\n");
        status = BENCH_ERROR;
    } else {
        if (have_base && base.timing_table) {
            char hash[40];
            timing_table_hash(hash, sizeof hash);
            if (strcmp(hash, base.timing_table))
                printf("note: the timing table changed since the baseline (%s, now %s): the model "
                       "changed, not only the kernels\n", base.timing_table, hash);
        }
        unsigned regs = compare(&m, res, have_base ? &base : 0);
        unsigned failed = 0;
        for (unsigned i = 0; i < m.nruns; i++)
            failed += !res[i].ok;
        printf("%u run%s, %u failed; %u regression%s%s\n", m.nruns, m.nruns == 1 ? "" : "s", failed,
               regs, regs == 1 ? "" : "s", have_base ? "" : " (no baseline: failures only)");
        if (regs)
            status = BENCH_REGRESSION;
        if (a.out && write_results(a.out, &m, res))
            status = BENCH_ERROR;
        if (a.update) {
            if (write_results(a.baseline, &m, res))
                status = BENCH_ERROR;
            else {
                printf("baseline %s %s\n", a.baseline, have_base ? "rewritten" : "written");
                if (status == BENCH_REGRESSION && !failed)
                    status = BENCH_OK; /* slower runs are accepted into the new baseline */
            }
        }
    }
    if (fflush(stdout)) {
        fprintf(stderr, "tensim: bench: cannot write the table: %s\n", strerror(errno));
        status = BENCH_ERROR;
    }
    for (unsigned i = 0; i < m.nruns; i++)
        bench_result_free(&res[i]);
    free(res);
    baseline_free(&base);
    bench_manifest_free(&m);
    return status;
}

int bench_main(int argc, char **argv, const volatile sig_atomic_t *stop)
{
    static const char *const subs[] = {"run", "report"};
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (argc < 2) {
            fprintf(stderr, "tensim: usage: bench wants a subcommand: run or report\nTry 'tensim bench run --help'.\n");
            return BENCH_ERROR;
        }
        cli_help(&bench_cmd, stdout);
        printf("\n'tensim bench report --help' shows the options of the HTML report.\n");
        return BENCH_OK;
    }
    if (!strcmp(argv[1], "run"))
        return cmd_bench_run(argc - 1, argv + 1, stop);
    if (!strcmp(argv[1], "report"))
        return bench_report_main(argc - 1, argv + 1);
    const char *near = cli_nearest(argv[1], subs, 2);
    fprintf(stderr, "tensim: usage: unknown bench subcommand '%s'%s%s%s (bench has: run, report)\n", argv[1],
            near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    return BENCH_ERROR;
}
