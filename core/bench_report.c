/* `tensim bench report RESULTS.json [--baseline FILE] [-o OUT.html]`: one self-contained HTML
 * page (inline CSS and SVG, no script, nothing fetched) from a bench's results (docs/bench.md
 * "Report"): the versions and timing-table hashes, a table of the runs, each run's cycles
 * against the baseline, the stall breakdown of the runs measured with "stalls", and a curve per
 * sweep. Every drawn figure carries data-run, data-metric and data-value attributes with the
 * exact number of the results file, so a test (and any script) can read the page back. The page
 * depends on nothing but its inputs: byte-identical for the same files. */
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hostio.h"

enum { REPORT_OK = 0, REPORT_ERROR = 2 };

/* ---- reading a results file ---- */

struct rp_run {
    const char *name, *status, *error;
    uint64_t cycles;
    json_t *params, *timing, *core_cycles, *regions, *stalls; /* checked; NULL when absent */
    const struct rp_run *base; /* the baseline's run of the same name */
};

struct rp_file {
    const char *path;
    json_t *root;
    const char *version, *hash, *manifest;
    struct rp_run *run;
    size_t nruns;
};

static int rp_fail(const struct rp_file *f, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rp_fail(const struct rp_file *f, const char *key, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "tensim: bench report: %s: %s%s", f->path, key ? key : "", key ? ": " : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

static bool is_count(json_t *v)
{
    return json_is_integer(v) && json_integer_value(v) >= 0;
}

static uint64_t count_of(json_t *v)
{
    return (uint64_t)json_integer_value(v);
}

/* An object whose every member is a whole number (a core's stall cycles by cause, ...). */
static int counts_object(const struct rp_file *f, const char *at, json_t *o)
{
    const char *k;
    json_t *v;
    if (!json_is_object(o))
        return rp_fail(f, at, "expected an object");
    json_object_foreach(o, k, v)
        if (!is_count(v))
            return rp_fail(f, at, "\"%s\" is not a whole number", k);
    return 0;
}

/* "stalls": {"cores": {CORE: {CAUSE: N}}, "threads": {T: {CAUSE: N}}} */
static int check_stalls(const struct rp_file *f, const char *at, json_t *s)
{
    char sub[300];
    if (!json_is_object(s))
        return rp_fail(f, at, "expected an object with \"cores\" and \"threads\"");
    static const char *const parts[] = {"cores", "threads"};
    for (int i = 0; i < 2; i++) {
        json_t *o = json_object_get(s, parts[i]);
        const char *k;
        json_t *v;
        snprintf(sub, sizeof sub, "%s.%s", at, parts[i]);
        if (!json_is_object(o))
            return rp_fail(f, sub, "expected an object");
        json_object_foreach(o, k, v) {
            snprintf(sub, sizeof sub, "%s.%s.%s", at, parts[i], k);
            if (counts_object(f, sub, v))
                return -1;
        }
    }
    return 0;
}

/* "regions": {CORE: [{"id": N, "cycles": N, ...}, ...]} */
static int check_regions(const struct rp_file *f, const char *at, json_t *g)
{
    char sub[300];
    const char *k;
    json_t *list;
    if (!json_is_object(g))
        return rp_fail(f, at, "expected an object");
    json_object_foreach(g, k, list) {
        if (!json_is_array(list)) {
            snprintf(sub, sizeof sub, "%s.%s", at, k);
            return rp_fail(f, sub, "expected an array");
        }
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *e = json_array_get(list, i);
            snprintf(sub, sizeof sub, "%s.%s[%zu]", at, k, i);
            if (!is_count(json_object_get(e, "id")) || count_of(json_object_get(e, "id")) >= REGION_IDS ||
                !is_count(json_object_get(e, "cycles")))
                return rp_fail(f, sub, "a region needs \"id\" (0..63) and \"cycles\" (whole numbers)");
        }
    }
    return 0;
}

static int rp_load(struct rp_file *f, const char *path)
{
    json_error_t je;
    char at[96];
    *f = (struct rp_file){.path = path};
    if (!(f->root = json_load_file(path, JSON_REJECT_DUPLICATES, &je))) {
        if (je.line < 0)
            return rp_fail(f, 0, "%s", je.text);
        return rp_fail(f, 0, "line %d column %d: %s", je.line, je.column, je.text);
    }
    if (!json_is_object(f->root))
        return rp_fail(f, 0, "not a bench results file (expected an object)");
    json_t *v = json_object_get(f->root, "tensim_bench_results");
    if (!v)
        return rp_fail(f, 0, "missing \"tensim_bench_results\": not a bench results file");
    if (!json_is_integer(v) || json_integer_value(v) != BENCH_VERSION)
        return rp_fail(f, "tensim_bench_results", "this tensim reads version %d", BENCH_VERSION);
    static const char *const strs[] = {"tensim", "timing_table", "manifest"};
    const char **dst[] = {&f->version, &f->hash, &f->manifest};
    for (int i = 0; i < 3; i++)
        if (!(*dst[i] = json_string_value(json_object_get(f->root, strs[i]))))
            return rp_fail(f, strs[i], "expected a string");
    json_t *runs = json_object_get(f->root, "runs");
    if (!json_is_array(runs))
        return rp_fail(f, "runs", "expected an array");
    f->nruns = json_array_size(runs);
    if (!(f->run = calloc(f->nruns + 1, sizeof *f->run)))
        return rp_fail(f, 0, "out of memory");
    for (size_t i = 0; i < f->nruns; i++) {
        json_t *o = json_array_get(runs, i);
        struct rp_run *r = &f->run[i];
        snprintf(at, sizeof at, "runs[%zu]", i);
        if (!json_is_object(o))
            return rp_fail(f, at, "expected an object");
        static const char *const need[] = {"name", "status"};
        const char **sdst[] = {&r->name, &r->status};
        for (int k = 0; k < 2; k++)
            if (!(*sdst[k] = json_string_value(json_object_get(o, need[k]))))
                return rp_fail(f, at, "\"%s\": expected a string", need[k]);
        snprintf(at, sizeof at, "runs[%zu].cycles", i);
        if (!is_count(json_object_get(o, "cycles")))
            return rp_fail(f, at, "expected a whole number");
        r->cycles = count_of(json_object_get(o, "cycles"));
        r->error = json_string_value(json_object_get(o, "error"));
        if ((r->params = json_object_get(o, "params"))) {
            const char *k;
            json_t *pv;
            snprintf(at, sizeof at, "runs[%zu].params", i);
            if (!json_is_object(r->params))
                return rp_fail(f, at, "expected an object");
            json_object_foreach(r->params, k, pv)
                if (!json_is_string(pv))
                    return rp_fail(f, at, "\"%s\": expected a string", k);
        }
        if ((r->timing = json_object_get(o, "timing"))) {
            snprintf(at, sizeof at, "runs[%zu].timing", i);
            if (!json_is_array(r->timing))
                return rp_fail(f, at, "expected an array");
            for (size_t k = 0; k < json_array_size(r->timing); k++)
                if (!json_is_string(json_array_get(r->timing, k)))
                    return rp_fail(f, at, "expected an array of strings");
        }
        snprintf(at, sizeof at, "runs[%zu].core_cycles", i);
        if ((r->core_cycles = json_object_get(o, "core_cycles")) && counts_object(f, at, r->core_cycles))
            return -1;
        snprintf(at, sizeof at, "runs[%zu].regions", i);
        if ((r->regions = json_object_get(o, "regions")) && check_regions(f, at, r->regions))
            return -1;
        snprintf(at, sizeof at, "runs[%zu].stalls", i);
        if ((r->stalls = json_object_get(o, "stalls")) && check_stalls(f, at, r->stalls))
            return -1;
    }
    return 0;
}

static void rp_free(struct rp_file *f)
{
    json_decref(f->root);
    free(f->run);
    *f = (struct rp_file){0};
}

/* ---- HTML ---- */

/* Text and attribute values: the five characters HTML gives a meaning. */
static void esc(FILE *o, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&#39;", o); break;
        default: fputc(*s, o);
        }
}

/* data-run="..." data-metric="..." data-value="N" */
static void data(FILE *o, const char *run, const char *metric, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void data(FILE *o, const char *run, const char *metric, const char *fmt, ...)
{
    char v[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    fputs(" data-run=\"", o);
    esc(o, run);
    fputs("\" data-metric=\"", o);
    esc(o, metric);
    fprintf(o, "\" data-value=\"%s\"", v);
}

/* Fixed colours, by position in a chart's legend. */
static const char *const palette[] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#1f77b4", "#8c564b", "#17becf", "#bcbd22", "#7f7f7f", "#d62728",
};
#define NPALETTE (sizeof palette / sizeof palette[0])

static const char css[] =
    "body{font-family:sans-serif;font-size:14px;color:#222;margin:24px;max-width:1160px}\n"
    "h1{font-size:22px;margin:0 0 12px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ccc}\n"
    "h3{font-size:15px;margin:16px 0 4px}\n"
    "table{border-collapse:collapse;margin:4px 0}td,th{padding:2px 10px;text-align:left;vertical-align:top}\n"
    "table.runs td.n,table.runs th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "table.runs tr:nth-child(even){background:#f4f4f4}th{border-bottom:1px solid #888}\n"
    ".flag{background:#fdecea;border:1px solid #e15759;padding:6px 10px;font-weight:bold;display:inline-block}\n"
    ".slower{color:#c0392b}.faster{color:#1e8449}.same{color:#777}.failed{color:#c0392b;font-weight:bold}\n"
    "svg{display:block;margin:4px 0 12px}svg text{font-family:sans-serif;font-size:12px;fill:#222}\n"
    "svg text.slower{fill:#c0392b}svg text.faster{fill:#1e8449}svg text.same,svg text.axis{fill:#777}\n"
    "svg .grid{stroke:#ddd;stroke-width:1}svg .base{stroke:#222;stroke-width:2}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:8px}.note{color:#555}\n";

static void header_row(FILE *o, const char *what, const struct rp_file *f)
{
    fprintf(o, "<tr><th>%s</th><td>", what);
    esc(o, f->path);
    fputs("</td><td>", o);
    esc(o, f->version);
    fputs("</td><td>", o);
    esc(o, f->hash);
    fputs("</td><td>", o);
    esc(o, f->manifest);
    fprintf(o, "</td><td class=\"n\">%zu</td></tr>\n", f->nruns);
}

static bool base_usable(const struct rp_run *r)
{
    return r->base && !strcmp(r->base->status, "ok") && !strcmp(r->status, "ok");
}

static const char *delta_class(int64_t d)
{
    return d > 0 ? "slower" : d < 0 ? "faster" : "same";
}

/* "+151 (+0.60%)", "-3 (-0.01%)", "0" */
static void delta_text(char *buf, size_t n, uint64_t base, uint64_t now)
{
    int64_t d = (int64_t)(now - base);
    if (d && base)
        snprintf(buf, n, "%+" PRId64 " (%+.2f%%)", d, 100.0 * (double)d / (double)base);
    else
        snprintf(buf, n, d ? "%+" PRId64 : "0", d);
}

static void params_text(FILE *o, const struct rp_run *r)
{
    const char *k, *sep = "";
    json_t *v;
    if (r->params)
        json_object_foreach(r->params, k, v) {
            fputs(sep, o);
            esc(o, k);
            fputc('=', o);
            esc(o, json_string_value(v));
            sep = ", ";
        }
    for (size_t i = 0; r->timing && i < json_array_size(r->timing); i++) {
        fputs(sep, o);
        esc(o, json_string_value(json_array_get(r->timing, i)));
        sep = ", ";
    }
}

static void runs_table(FILE *o, const struct rp_file *res, bool have_base)
{
    fputs("<table class=\"runs\">\n<tr><th>run</th><th>status</th><th class=\"n\">cycles</th>", o);
    if (have_base)
        fputs("<th class=\"n\">baseline</th><th class=\"n\">delta</th>", o);
    fputs("<th>parameters, timing</th></tr>\n", o);
    for (size_t i = 0; i < res->nruns; i++) {
        const struct rp_run *r = &res->run[i];
        fputs("<tr><td>", o);
        esc(o, r->name);
        fprintf(o, "</td><td class=\"%s\">", strcmp(r->status, "ok") ? "failed" : "");
        esc(o, r->status);
        if (r->error) {
            fputs(": ", o);
            esc(o, r->error);
        }
        fputs("</td><td class=\"n\"", o);
        data(o, r->name, "cycles", "%" PRIu64, r->cycles);
        fprintf(o, ">%" PRIu64 "</td>", r->cycles);
        if (have_base) {
            if (!r->base)
                fputs("<td class=\"n\">-</td><td class=\"n same\">new</td>", o);
            else {
                fputs("<td class=\"n\"", o);
                data(o, r->name, "baseline.cycles", "%" PRIu64, r->base->cycles);
                fprintf(o, ">%" PRIu64 "</td>", r->base->cycles);
                if (base_usable(r)) {
                    char d[48];
                    int64_t dv = (int64_t)(r->cycles - r->base->cycles);
                    delta_text(d, sizeof d, r->base->cycles, r->cycles);
                    fprintf(o, "<td class=\"n %s\"", delta_class(dv));
                    data(o, r->name, "delta.cycles", "%" PRId64, dv);
                    fprintf(o, ">%s</td>", d);
                } else
                    fputs("<td class=\"n same\">-</td>", o);
            }
        }
        fputs("<td>", o);
        params_text(o, r);
        fputs("</td></tr>\n", o);
    }
    fputs("</table>\n", o);
}

/* ---- chart: each run's cycles against the baseline (log scale) ---- */

#define CH_W 1100
#define LABEL_W 300 /* run names */
#define BAR_W 560   /* bars */
#define ROW_H 20

static void svg_open(FILE *o, int w, int h, const char *label)
{
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "role=\"img\" aria-label=\"", w, h, w, h);
    esc(o, label);
    fputs("\">\n", o);
}

/* A run name cut to fit the label column (the full name is in the element's title). */
static void label_text(FILE *o, const char *s, unsigned max)
{
    size_t n = strlen(s);
    if (n <= max) {
        esc(o, s);
        return;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s...", (int)(max - 3), s);
    esc(o, buf);
}

static void title(FILE *o, const char *fmt_run, const char *metric, const char *value)
{
    fputs("<title>", o);
    esc(o, fmt_run);
    fputs(" ", o);
    esc(o, metric);
    fputs(" ", o);
    esc(o, value);
    fputs("</title>", o);
}

static double log_x(uint64_t v, double lo, double hi)
{
    double l = log10(v < 1 ? 1.0 : (double)v);
    return LABEL_W + (l - lo) / (hi - lo) * BAR_W;
}

static void cycles_chart(FILE *o, const struct rp_file *res, bool have_base)
{
    uint64_t mn = UINT64_MAX, mx = 1;
    for (size_t i = 0; i < res->nruns; i++) {
        const struct rp_run *r = &res->run[i];
        uint64_t v[2] = {r->cycles, r->base ? r->base->cycles : r->cycles};
        for (int k = 0; k < 2; k++) {
            mn = v[k] && v[k] < mn ? v[k] : mn;
            mx = v[k] > mx ? v[k] : mx;
        }
    }
    if (mn == UINT64_MAX)
        mn = 1;
    double lo = floor(log10((double)mn)), hi = ceil(log10((double)mx));
    if (hi <= lo)
        hi = lo + 1;
    int top = 24, h = top + (int)res->nruns * ROW_H + 8;
    svg_open(o, CH_W, h, "cycles per run against the baseline");
    for (int e = (int)lo; e <= (int)hi; e++) {
        double x = LABEL_W + (e - lo) / (hi - lo) * BAR_W;
        char t[16];
        static const char *const suffix[] = {"", "k", "M", "G", "T"};
        if (e >= 0 && e < 15)
            snprintf(t, sizeof t, "%d%s", e % 3 == 0 ? 1 : e % 3 == 1 ? 10 : 100, suffix[e / 3]);
        else
            snprintf(t, sizeof t, "1e%d", e);
        fprintf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, top - 4, x, h - 8);
        fprintf(o, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, top - 8, t);
    }
    for (size_t i = 0; i < res->nruns; i++) {
        const struct rp_run *r = &res->run[i];
        int y = top + (int)i * ROW_H;
        bool failed = strcmp(r->status, "ok") != 0;
        fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 6, y + 14);
        label_text(o, r->name, 44);
        fputs("</text>", o);
        char v[32];
        snprintf(v, sizeof v, "%" PRIu64, r->cycles);
        fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"", LABEL_W, y + 3,
                log_x(r->cycles, lo, hi) - LABEL_W + 1, ROW_H - 6, failed ? "#e15759" : "#4e79a7");
        data(o, r->name, "cycles", "%" PRIu64, r->cycles);
        fputs(">", o);
        title(o, r->name, "cycles", v);
        fputs("</rect>", o);
        char d[48] = "";
        const char *cls = "same";
        if (r->base) {
            double x = log_x(r->base->cycles, lo, hi);
            snprintf(v, sizeof v, "%" PRIu64, r->base->cycles);
            fprintf(o, "<line class=\"base\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"", x, y + 1, x, y + ROW_H - 1);
            data(o, r->name, "baseline.cycles", "%" PRIu64, r->base->cycles);
            fputs(">", o);
            title(o, r->name, "baseline", v);
            fputs("</line>", o);
        }
        fprintf(o, "<text x=\"%d\" y=\"%d\" class=\"same\">%" PRIu64 "</text>", LABEL_W + BAR_W + 8, y + 14,
                r->cycles);
        fprintf(o, "<text x=\"%d\" y=\"%d\"", LABEL_W + BAR_W + 80, y + 14);
        if (failed)
            snprintf(d, sizeof d, "FAILED"), cls = "slower";
        else if (base_usable(r)) {
            int64_t dv = (int64_t)(r->cycles - r->base->cycles);
            delta_text(d, sizeof d, r->base->cycles, r->cycles);
            cls = delta_class(dv);
            data(o, r->name, "delta.cycles", "%" PRId64, dv);
        } else if (have_base)
            snprintf(d, sizeof d, "%s", r->base ? "" : "new");
        fprintf(o, " class=\"%s\">%s</text>\n", cls, d);
    }
    fputs("</svg>\n", o);
}

/* ---- chart: stall breakdown, stacked per core or thread ---- */

/* The causes a chart shows, in legend order: this tensim's own order first (the report's),
 * then any other in the order the results first name it. */
struct causes {
    const char *name[64];
    unsigned n;
};

static void cause_add(struct causes *c, const char *s)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->name[i], s))
            return;
    if (c->n < 64)
        c->name[c->n++] = s;
}

static int cause_index(const struct causes *c, const char *s)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->name[i], s))
            return (int)i;
    return -1;
}

static void legend(FILE *o, const struct causes *c, int y, int *height)
{
    int x = 10, row = 0;
    for (unsigned i = 0; i < c->n; i++) {
        int w = 24 + 7 * (int)strlen(c->name[i]) + 12;
        if (x + w > CH_W - 10) {
            x = 10;
            row++;
        }
        fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y + row * 18,
                palette[i % NPALETTE]);
        fprintf(o, "<text x=\"%d\" y=\"%d\">", x + 16, y + row * 18 + 11);
        esc(o, c->name[i]);
        fputs("</text>\n", o);
        x += w;
    }
    *height = (row + 1) * 18;
}

/* part: "cores" or "threads"; prefix of the metric: "stall" or "held" */
static void stall_chart(FILE *o, const struct rp_file *res, const char *part, const char *prefix,
                        const struct causes *known)
{
    struct causes c = *known;
    unsigned rows = 0;
    uint64_t mx = 1;
    /* which causes occur: only those go into the legend */
    struct causes seen = {0};
    for (size_t i = 0; i < res->nruns; i++) {
        json_t *set = res->run[i].stalls ? json_object_get(res->run[i].stalls, part) : 0, *causes;
        const char *who, *k;
        json_t *v;
        json_object_foreach(set, who, causes) {
            uint64_t sum = 0;
            rows++;
            json_object_foreach(causes, k, v) {
                sum += count_of(v);
                cause_add(&seen, k);
            }
            mx = sum > mx ? sum : mx;
        }
    }
    if (!rows)
        return;
    struct causes shown = {0};
    for (unsigned i = 0; i < c.n; i++)
        if (cause_index(&seen, c.name[i]) >= 0)
            cause_add(&shown, c.name[i]);
    for (unsigned i = 0; i < seen.n; i++)
        cause_add(&shown, seen.name[i]);
    /* the legend's height first: lay it out into a scratch stream */
    int lh;
    FILE *scratch = fopen("/dev/null", "w");
    legend(scratch ? scratch : o, &shown, 0, &lh);
    if (scratch)
        fclose(scratch);
    int top = 8 + lh + 8, h = top + (int)rows * ROW_H + 8;
    svg_open(o, CH_W, h, strcmp(part, "cores") ? "Wait Gate hold cycles per thread, by cause"
                                               : "stall cycles per core, by cause");
    legend(o, &shown, 8, &lh);
    int y = top;
    for (size_t i = 0; i < res->nruns; i++) {
        const struct rp_run *r = &res->run[i];
        json_t *set = r->stalls ? json_object_get(r->stalls, part) : 0, *causes;
        const char *who;
        json_object_foreach(set, who, causes) {
            char label[300], metric[200], v[32];
            snprintf(label, sizeof label, "%s %s", r->name, who);
            fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 6, y + 14);
            label_text(o, label, 44);
            fputs("</text>", o);
            double x = LABEL_W;
            uint64_t sum = 0;
            /* in legend order, so the stacks line up from run to run */
            for (unsigned ci = 0; ci < shown.n; ci++) {
                json_t *cv = json_object_get(causes, shown.name[ci]);
                if (!cv)
                    continue;
                uint64_t n = count_of(cv);
                double w = (double)n / (double)mx * BAR_W;
                snprintf(metric, sizeof metric, "%s.%s.%s", prefix, who, shown.name[ci]);
                snprintf(v, sizeof v, "%" PRIu64, n);
                fprintf(o, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"", x, y + 3, w,
                        ROW_H - 6, palette[ci % NPALETTE]);
                data(o, r->name, metric, "%" PRIu64, n);
                fputs(">", o);
                title(o, r->name, metric, v);
                fputs("</rect>", o);
                x += w;
                sum += n;
            }
            fprintf(o, "<text x=\"%.1f\" y=\"%d\" class=\"axis\">%" PRIu64 "</text>\n", x + 6, y + 14, sum);
            y += ROW_H;
        }
    }
    fputs("</svg>\n", o);
}

/* ---- sweep curves ---- */

/* The runs of one sweep: same name before '[' and the same parameters; run i belongs to group
 * gid[i] (or none: -1). */
struct group {
    char base[256];
    const unsigned *gid;
    unsigned id;
    size_t first, n;
};

static void base_name(const char *name, char *out, size_t n)
{
    snprintf(out, n, "%.*s", (int)strcspn(name, "["), name);
}

/* Do a and b have the same parameter names in the same order? */
static bool same_axes(json_t *a, json_t *b)
{
    if (json_object_size(a) != json_object_size(b))
        return false;
    void *ia = json_object_iter(a), *ib = json_object_iter(b);
    for (; ia && ib; ia = json_object_iter_next(a, ia), ib = json_object_iter_next(b, ib))
        if (strcmp(json_object_iter_key(ia), json_object_iter_key(ib)))
            return false;
    return true;
}

static bool numeric(const char *s, double *v)
{
    char *end;
    if (!*s)
        return false;
    errno = 0;
    *v = strtod(s, &end);
    return !*end && !errno;
}

/* Nice tick step for a range: 1, 2 or 5 times a power of ten, at least 1. */
static double nice_step(double range)
{
    double raw = range / 5, p = 1;
    while (p * 10 <= raw)
        p *= 10;
    double s = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
    return s < 1 ? 1 : s;
}

#define SW_W 560
#define SW_H 300
#define SW_L 80
#define SW_R 20
#define SW_T 30
#define SW_B 50

struct point {
    size_t run;
    uint64_t y;
    double xv;     /* the parameter's value (numeric axes) */
    unsigned xi;   /* its index among the axis's values */
    unsigned series;
};

/* One chart of a metric ("cycles" or "region.CORE.ID") against the sweep's axis `xaxis`. */
static void sweep_chart(FILE *o, const struct rp_file *res, const struct group *g, const char *metric,
                        const char *xaxis, const char *const *others, unsigned nothers)
{
    struct point *pt = calloc(g->n, sizeof *pt);
    const char **series = calloc(g->n, sizeof *series);
    const char *xval[BENCH_MAX_VALUES];
    unsigned nx = 0, ns = 0, np = 0;
    bool num = true;
    if (!pt || !series)
        goto done;
    for (size_t ri = g->first; ri < res->nruns; ri++) {
        if (g->gid[ri] != g->id)
            continue;
        const struct rp_run *r = &res->run[ri];
        uint64_t y = 0;
        if (!strcmp(metric, "cycles"))
            y = r->cycles;
        else {
            /* "region.CORE.ID" */
            char core[32];
            unsigned id;
            if (sscanf(metric, "region.%31[^.].%u", core, &id) != 2 || !r->regions)
                continue;
            json_t *list = json_object_get(r->regions, core), *e;
            size_t k;
            bool found = false;
            json_array_foreach(list, k, e)
                if (count_of(json_object_get(e, "id")) == id) {
                    y = count_of(json_object_get(e, "cycles"));
                    found = true;
                }
            if (!found)
                continue;
        }
        if (strcmp(r->status, "ok"))
            continue;
        const char *xv = json_string_value(json_object_get(r->params, xaxis));
        char skey[512] = "";
        for (unsigned a = 0; a < nothers; a++) {
            size_t l = strlen(skey);
            snprintf(skey + l, sizeof skey - l, "%s%s=%s", a ? ", " : "", others[a],
                     json_string_value(json_object_get(r->params, others[a])));
        }
        unsigned xi = 0, si = 0;
        while (xi < nx && strcmp(xval[xi], xv))
            xi++;
        if (xi == nx) {
            if (nx == BENCH_MAX_VALUES)
                continue;
            xval[nx++] = xv;
        }
        while (si < ns && strcmp(series[si], skey))
            si++;
        if (si == ns)
            series[ns++] = strdup(skey);
        double d = 0;
        num = num && numeric(xv, &d);
        pt[np++] = (struct point){.run = ri, .y = y, .xv = d, .xi = xi, .series = si};
    }
    if (np < 2 || nx < 2)
        goto done;
    double xmin = 0, xmax = (double)(nx - 1);
    if (num) {
        xmin = xmax = pt[0].xv;
        for (unsigned i = 0; i < np; i++) {
            xmin = pt[i].xv < xmin ? pt[i].xv : xmin;
            xmax = pt[i].xv > xmax ? pt[i].xv : xmax;
        }
        if (xmax == xmin)
            num = false, xmin = 0, xmax = (double)(nx - 1);
    }
    uint64_t ymn = UINT64_MAX, ymx = 0;
    for (unsigned i = 0; i < np; i++) {
        ymn = pt[i].y < ymn ? pt[i].y : ymn;
        ymx = pt[i].y > ymx ? pt[i].y : ymx;
    }
    double step = nice_step((double)(ymx - ymn) + 1);
    double y0 = floor((double)ymn / step) * step, y1 = ceil((double)ymx / step) * step;
    if (y1 <= y0) { /* one value: its line in the middle */
        y0 = y0 >= step ? y0 - step : 0;
        y1 = (double)ymx + step;
    }
    int pw = SW_W - SW_L - SW_R, ph = SW_H - SW_T - SW_B;
#define PX(p) (SW_L + (num ? ((p)->xv - xmin) / (xmax - xmin) : (double)(p)->xi / (double)(nx - 1)) * pw)
#define PY(v) (SW_T + ph - ((double)(v) - y0) / (y1 - y0) * ph)
    char label[600];
    snprintf(label, sizeof label, "%s: %s against %s", g->base, metric, xaxis);
    fputs("<div>", o);
    svg_open(o, SW_W, SW_H, label);
    fprintf(o, "<text x=\"%d\" y=\"18\" font-weight=\"bold\">", SW_L);
    esc(o, label);
    fputs("</text>\n", o);
    for (double t = y0; t <= y1 + step / 2; t += step) {
        double y = PY(t);
        fprintf(o, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", SW_L, y, SW_L + pw, y);
        fprintf(o, "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", SW_L - 6, y + 4, t);
    }
    for (unsigned xi = 0; xi < nx; xi++) {
        struct point p = {.xi = xi};
        numeric(xval[xi], &p.xv);
        double x = PX(&p);
        fprintf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, SW_T, x, SW_T + ph);
        fprintf(o, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, SW_T + ph + 16);
        esc(o, xval[xi]);
        fputs("</text>\n", o);
    }
    fprintf(o, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", SW_L + pw / 2, SW_T + ph + 36);
    esc(o, xaxis);
    fputs("</text>\n", o);
    for (unsigned s = 0; s < ns; s++) {
        /* the series' points by the axis's value (numeric) or in sweep order */
        unsigned idx[BENCH_MAX_VALUES], n = 0;
        for (unsigned i = 0; i < np && n < BENCH_MAX_VALUES; i++)
            if (pt[i].series == s) {
                unsigned j = n++;
                while (j && (num ? pt[idx[j - 1]].xv > pt[i].xv : pt[idx[j - 1]].xi > pt[i].xi)) {
                    idx[j] = idx[j - 1];
                    j--;
                }
                idx[j] = i;
            }
        const char *col = palette[s % NPALETTE];
        fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        for (unsigned j = 0; j < n; j++)
            fprintf(o, "%s%.1f,%.1f", j ? " " : "", PX(&pt[idx[j]]), PY(pt[idx[j]].y));
        fputs("\"/>\n", o);
        for (unsigned j = 0; j < n; j++) {
            const struct point *p = &pt[idx[j]];
            const struct rp_run *r = &res->run[p->run];
            char v[32];
            snprintf(v, sizeof v, "%" PRIu64, p->y);
            fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"", PX(p), PY(p->y), col);
            data(o, r->name, metric, "%" PRIu64, p->y);
            fputs(" data-x=\"", o);
            esc(o, xval[p->xi]);
            fputs("\" data-series=\"", o);
            esc(o, series[s]);
            fputs("\">", o);
            title(o, r->name, metric, v);
            fputs("</circle>\n", o);
        }
        if (ns > 1) { /* the legend: top left, inside the plot */
            fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", SW_L + 8,
                    SW_T + 6 + 16 * (int)s, col);
            fprintf(o, "<text x=\"%d\" y=\"%d\">", SW_L + 22, SW_T + 15 + 16 * (int)s);
            esc(o, series[s]);
            fputs("</text>\n", o);
        }
    }
#undef PX
#undef PY
    fputs("</svg></div>\n", o);
done:
    for (unsigned s = 0; s < ns; s++)
        free((char *)series[s]);
    free(series);
    free(pt);
}

static void sweeps(FILE *o, const struct rp_file *res)
{
    struct group *grp = calloc(res->nruns + 1, sizeof *grp);
    unsigned *gid = calloc(res->nruns + 1, sizeof *gid), ng = 0;
    if (!grp || !gid) {
        fputs("<p class=\"flag\">out of memory: no sweep charts</p>\n", o);
        goto out;
    }
    for (size_t i = 0; i < res->nruns; i++) {
        const struct rp_run *r = &res->run[i];
        gid[i] = UINT32_MAX;
        if (!r->params || !json_object_size(r->params))
            continue;
        char b[256];
        base_name(r->name, b, sizeof b);
        unsigned k = 0;
        while (k < ng && (strcmp(grp[k].base, b) || !same_axes(res->run[grp[k].first].params, r->params)))
            k++;
        if (k == ng) {
            grp[ng] = (struct group){.gid = gid, .id = ng, .first = i};
            snprintf(grp[ng].base, sizeof grp[ng].base, "%s", b);
            ng++;
        }
        gid[i] = k;
        grp[k].n++;
    }
    bool any = false;
    for (unsigned k = 0; k < ng; k++) {
        const struct group *g = &grp[k];
        json_t *p0 = res->run[g->first].params;
        /* the axes that vary within the group; the last one is the x axis */
        const char *vary[64];
        unsigned nv = 0;
        const char *axis;
        json_t *v0;
        json_object_foreach(p0, axis, v0) {
            bool varies = false;
            for (size_t i = g->first + 1; i < res->nruns && !varies; i++)
                varies = gid[i] == k && strcmp(json_string_value(json_object_get(res->run[i].params, axis)),
                                               json_string_value(v0)) != 0;
            if (varies && nv < 64)
                vary[nv++] = axis;
        }
        if (!nv)
            continue;
        if (!any)
            fputs("<h2 id=\"sweeps\">Sweeps</h2>\n<p class=\"note\">Each sweep's runs against the parameter that varies "
                  "last, one line per value of the others. The vertical axes do not start at zero.</p>\n", o);
        any = true;
        fputs("<h3>", o);
        esc(o, g->base);
        fputs("</h3>\n<div class=\"charts\">\n", o);
        sweep_chart(o, res, g, "cycles", vary[nv - 1], vary, nv - 1);
        /* each region any of its runs measured, cores in order, ids ascending */
        for (int c = 0; c < NUM_CORES; c++) {
            uint64_t ids = 0;
            for (size_t i = g->first; i < res->nruns; i++) {
                json_t *list = gid[i] == k && res->run[i].regions ? json_object_get(res->run[i].regions, core_name(c)) : 0, *e;
                size_t j;
                json_array_foreach(list, j, e)
                    ids |= 1ull << count_of(json_object_get(e, "id"));
            }
            for (unsigned id = 0; id < REGION_IDS; id++)
                if (ids >> id & 1) {
                    char m[64];
                    snprintf(m, sizeof m, "region.%s.%u", core_name(c), id);
                    sweep_chart(o, res, g, m, vary[nv - 1], vary, nv - 1);
                }
        }
        fputs("</div>\n", o);
    }
out:
    free(grp);
    free(gid);
}

static void page(FILE *o, const struct rp_file *res, const struct rp_file *base)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>tensim bench report: ", o);
    esc(o, res->manifest);
    fprintf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>tensim bench report: ", css);
    esc(o, res->manifest);
    fputs("</h1>\n<table class=\"meta\">\n<tr><th></th><th>file</th><th>tensim</th><th>timing table</th>"
          "<th>manifest</th><th>runs</th></tr>\n", o);
    header_row(o, "results", res);
    if (base)
        header_row(o, "baseline", base);
    fputs("</table>\n", o);
    if (base && strcmp(base->hash, res->hash))
        fputs("<p class=\"flag\" data-flag=\"model-changed\">model changed: the timing table differs from the "
              "baseline's, so cycles may move without any change to the kernels</p>\n", o);
    else if (base && strcmp(base->version, res->version))
        fputs("<p class=\"note\" data-flag=\"version-changed\">tensim's version differs from the baseline's; "
              "the timing table is the same</p>\n", o);
    size_t failed = 0;
    for (size_t i = 0; i < res->nruns; i++)
        failed += strcmp(res->run[i].status, "ok") != 0;
    fprintf(o, "<p>%zu runs, %zu failed.</p>\n", res->nruns, failed);
    fputs("<h2>Runs</h2>\n", o);
    runs_table(o, res, base != 0);
    fprintf(o, "<h2>Cycles%s</h2>\n<p class=\"note\">Logarithmic scale.%s</p>\n", base ? " against the baseline" : "",
            base ? " The black mark is the baseline; the delta is red when slower, green when faster (the "
                   "manifest's tolerances are not in the results)." : "");
    cycles_chart(o, res, base != 0);
    bool stalls = false;
    for (size_t i = 0; i < res->nruns; i++)
        stalls |= res->run[i].stalls != 0;
    if (stalls) {
        struct causes core = {0}, gate = {0};
        for (int s = 0; s < STALL_COUNT; s++)
            cause_add(&core, core_stall_key(s));
        for (int s = 1; s < GS_COUNT; s++)
            cause_add(&gate, gate_stall_key(s));
        fputs("<h2 id=\"stalls\">Stalls</h2>\n<p class=\"note\">The runs measured with <code>\"stalls\"</code>: each core's "
              "stall cycles by cause (the report's <code>stall cycles</code> column).</p>\n", o);
        stall_chart(o, res, "cores", "stall", &core);
        fputs("<p class=\"note\">Each Tensix thread's cycles held at its Wait Gate, by cause (the report's "
              "<code>held:</code> lines).</p>\n", o);
        stall_chart(o, res, "threads", "held", &gate);
    }
    sweeps(o, res);
    fputs("</body>\n</html>\n", o);
}

/* ---- the command ---- */

enum report_opt { R_BASELINE, R_OUT, R_HELP };

static const struct cli_opt report_opts[] = {
    {R_BASELINE, "baseline", 0, "FILE", "compare with these results (a results file of an earlier bench)"},
    {R_OUT, "out", 'o', "FILE", "write the page to FILE (default: standard output)"},
    {R_HELP, "help", 'h', 0, "show this help and exit"},
};

static const struct cli_cmd report_cmd = {
    "bench report", "RESULTS.json",
    "Write a bench's results as one self-contained HTML page with SVG charts.",
    "The page is in docs/bench.md \"Report\". Exit status: 0 written; 2 an error (bad command line,\n"
    "an unreadable or malformed results file, an unwritable output).\n",
    report_opts, sizeof report_opts / sizeof report_opts[0],
};

int bench_report_main(int argc, char **argv)
{
    struct cli_parser p;
    const char *baseline = 0, *out = 0;
    cli_begin(&p, &report_cmd, argc, argv);
    for (;;) {
        char *v;
        int id = cli_next(&p, &v);
        if (id == CLI_END)
            break;
        switch (id) {
        case CLI_ERROR: return REPORT_ERROR;
        case R_BASELINE: baseline = v; break;
        case R_OUT: out = v; break;
        case R_HELP: cli_help(&report_cmd, stdout); return REPORT_OK;
        }
    }
    if (p.next != argc - 1) {
        cli_usage_error(&report_cmd, p.next == argc ? "no results file given" : "one results file, not %d",
                        argc - p.next);
        return REPORT_ERROR;
    }
    struct rp_file res, base = {0};
    int status = REPORT_ERROR;
    if (rp_load(&res, argv[p.next]) || (baseline && rp_load(&base, baseline)))
        goto out;
    for (size_t i = 0; baseline && i < res.nruns; i++)
        for (size_t k = 0; k < base.nruns && !res.run[i].base; k++)
            if (!strcmp(res.run[i].name, base.run[k].name))
                res.run[i].base = &base.run[k];
    /* The whole page in memory first: no half-written file on an error. */
    char *html = 0;
    size_t len = 0;
    FILE *m = open_memstream(&html, &len);
    if (!m) {
        fprintf(stderr, "tensim: bench report: out of memory\n");
        goto out;
    }
    page(m, &res, baseline ? &base : 0);
    if (fclose(m)) {
        fprintf(stderr, "tensim: bench report: out of memory\n");
        free(html);
        goto out;
    }
    if (out) {
        struct host_out ho;
        if (host_out_open(&ho, out) == 0) {
            fwrite(html, 1, len, ho.f);
            if (host_out_close(&ho) == 0)
                status = REPORT_OK;
        }
        if (status)
            fprintf(stderr, "tensim: bench report: cannot write %s: %s\n", out, strerror(ho.err));
    } else if (fwrite(html, 1, len, stdout) == len && fflush(stdout) == 0)
        status = REPORT_OK;
    else
        fprintf(stderr, "tensim: bench report: cannot write the page: %s\n", strerror(errno));
    free(html);
out:
    rp_free(&res);
    rp_free(&base);
    return status;
}
