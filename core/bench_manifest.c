/* Parsing a bench manifest (docs/bench.md) with jansson and expanding its sweeps. Every mistake
 * names the key path it was found at ("runs[2].timing: ..."), unknown keys are errors with a
 * suggestion, and every input file is checked before anything runs: a bench that cannot do what
 * it says stops at once with exit status 2, not after an hour of runs. */
#include "bench.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "json_in.h"

struct mparser {
    const char *path;
    char *dir; /* the manifest's folder, with a trailing '/', or "" */
    char *err;
    unsigned errlen;
    /* The sweep values of the run being parsed: ${axis[i]} becomes value[i]. */
    unsigned naxes;
    const char *axis[BENCH_MAX_AXES], *value[BENCH_MAX_AXES];
    char **built; /* build commands already run (build_one) */
    unsigned nbuilt, built_cap;
};

static int fail(struct mparser *p, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct mparser *p, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_vfail(&(struct json_where){p->path, p->err, p->errlen}, at, fmt, ap);
    va_end(ap);
    return -1;
}

static int only_keys(struct mparser *p, const char *at, json_t *o, const char *const *keys, unsigned n)
{
    return json_only_keys(&(struct json_where){p->path, p->err, p->errlen}, at, o, keys, n);
}

/* "AT.KEY" / "AT[I]" in buf (200 bytes), for messages. */
static const char *key_at(char *buf, const char *at, const char *key)
{
    snprintf(buf, 200, "%.140s.%.50s", at, key);
    return buf;
}
static const char *index_at(char *buf, const char *at, size_t i)
{
    snprintf(buf, 200, "%.140s[%zu]", at, i);
    return buf;
}

/* A JSON string with every ${name} replaced by the sweep's value (malloc'd in *out). */
static int subst(struct mparser *p, const char *at, json_t *v, char **out)
{
    if (!json_is_string(v))
        return fail(p, at, "expected a string");
    const char *s = json_string_value(v);
    size_t cap = strlen(s) + 1;
    for (unsigned i = 0; i < p->naxes; i++)
        cap += strlen(p->value[i]) * (strlen(s) / 3 + 1); /* at most strlen/3 "${x}" uses */
    char *o = malloc(cap), *w = o;
    if (!o)
        return fail(p, at, "out of memory");
    while (*s) {
        if (s[0] != '$' || s[1] != '{') {
            *w++ = *s++;
            continue;
        }
        const char *end = strchr(s + 2, '}');
        size_t n = end ? (size_t)(end - s - 2) : 0;
        unsigned i = 0;
        while (end && i < p->naxes && (strlen(p->axis[i]) != n || strncmp(p->axis[i], s + 2, n)))
            i++;
        if (!end || i == p->naxes) {
            int r = end ? fail(p, at, "no parameter \"%.*s\" for ${%.*s} (the run's \"sweep\" names "
                               "its parameters)", (int)n, s + 2, (int)n, s + 2)
                        : fail(p, at, "\"${\" without a closing \"}\"");
            free(o);
            return r;
        }
        w += sprintf(w, "%s", p->value[i]);
        s = end + 1;
    }
    *w = 0;
    *out = o;
    return 0;
}

/* A number: a JSON integer, or a string (after substitution) of decimal or 0x digits. */
static int number(struct mparser *p, const char *at, json_t *v, uint64_t max, uint64_t *out)
{
    unsigned long long x;
    if (json_is_integer(v) && json_integer_value(v) >= 0)
        x = (unsigned long long)json_integer_value(v);
    else if (json_is_string(v)) {
        char *s;
        if (subst(p, at, v, &s))
            return -1;
        int bad = cli_parse_u64(s, &x);
        if (bad) {
            fail(p, at, "expected a number, not \"%s\"", s);
            free(s);
            return -1;
        }
        free(s);
    } else
        return fail(p, at, "expected a number (a non-negative integer, or a string such as \"0x40000\")");
    if (x > max)
        return fail(p, at, "%llu is more than %llu", x, (unsigned long long)max);
    *out = x;
    return 0;
}

/* An input file, relative to the manifest's folder, that must be readable now. */
static int input_file(struct mparser *p, const char *at, json_t *v, char **out)
{
    char *s;
    if (subst(p, at, v, &s))
        return -1;
    if (!s[0]) {
        free(s);
        return fail(p, at, "expected a file name");
    }
    size_t n = (s[0] == '/' ? 0 : strlen(p->dir)) + strlen(s) + 1;
    if (!(*out = malloc(n))) {
        free(s);
        return fail(p, at, "out of memory");
    }
    snprintf(*out, n, "%s%s", s[0] == '/' ? "" : p->dir, s);
    free(s);
    struct stat st;
    int r = 0;
    if (stat(*out, &st) || access(*out, R_OK))
        r = fail(p, at, "cannot read %s: %s", *out, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        r = fail(p, at, "%s is a directory", *out);
    if (r) { /* the caller owns nothing after a failure */
        free(*out);
        *out = NULL;
    }
    return r;
}

static int programs_of(struct mparser *p, const char *at, json_t *v, struct bench_run *r)
{
    static const char *const keys[NUM_CORES] = {"trisc0", "trisc1", "trisc2", "brisc", "ncrisc"};
    char sub[200];
    if (!json_is_object(v) || !json_object_size(v))
        return fail(p, at, "expected {\"trisc0\": FILE, ...} with at least one program");
    if (only_keys(p, at, v, keys, NUM_CORES))
        return -1;
    for (int k = 0; k < NUM_CORES; k++) {
        json_t *f = json_object_get(v, keys[k]);
        if (f && input_file(p, key_at(sub, at, keys[k]), f, &r->program[k]))
            return -1;
    }
    return 0;
}

static int loads_of(struct mparser *p, const char *at, json_t *v, struct bench_run *r)
{
    static const char *const keys[] = {"file", "addr"};
    char sub[200], sub2[200];
    if (!json_is_array(v) || json_array_size(v) > SIM_MAX_XFER)
        return fail(p, at, "expected an array of at most %d {\"file\", \"addr\"}", SIM_MAX_XFER);
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *x = json_array_get(v, i);
        index_at(sub, at, i);
        if (!json_is_object(x))
            return fail(p, sub, "expected {\"file\": ..., \"addr\": ...}");
        if (only_keys(p, sub, x, keys, 2))
            return -1;
        for (int k = 0; k < 2; k++)
            if (!json_object_get(x, keys[k]))
                return fail(p, sub, "missing \"%s\"", keys[k]);
        char *file;
        if (input_file(p, key_at(sub2, sub, "file"), json_object_get(x, "file"), &file))
            return -1;
        r->load[r->nload++] = (struct sim_xfer){.file = file};
        if (number(p, key_at(sub2, sub, "addr"), json_object_get(x, "addr"), r->arch->l1_size - 1,
                   &r->load[r->nload - 1].addr))
            return -1;
    }
    return 0;
}

static int expects_of(struct mparser *p, const char *at, json_t *v, struct bench_run *r)
{
    static const char *const keys[] = {"addr", "len", "file"};
    char sub[200], sub2[200];
    if (!json_is_array(v) || json_array_size(v) > BENCH_MAX_EXPECT)
        return fail(p, at, "expected an array of at most %d {\"addr\", \"len\", \"file\"}", BENCH_MAX_EXPECT);
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *x = json_array_get(v, i);
        index_at(sub, at, i);
        if (!json_is_object(x))
            return fail(p, sub, "expected {\"addr\": ..., \"len\": ..., \"file\": ...}");
        if (only_keys(p, sub, x, keys, 3))
            return -1;
        for (int k = 0; k < 3; k++)
            if (!json_object_get(x, keys[k]))
                return fail(p, sub, "missing \"%s\"", keys[k]);
        struct bench_expect *e = &r->expect[r->nexpect++];
        uint64_t addr, len;
        if (input_file(p, key_at(sub2, sub, "file"), json_object_get(x, "file"), &e->file) ||
            number(p, key_at(sub2, sub, "addr"), json_object_get(x, "addr"), UINT32_MAX, &addr) ||
            number(p, key_at(sub2, sub, "len"), json_object_get(x, "len"), UINT32_MAX, &len))
            return -1;
        if (!len || addr >= r->arch->l1_size || len > r->arch->l1_size - addr)
            return fail(p, sub, "0x%llx+0x%llx is not a range inside L1 (0x0-0x%x)",
                        (unsigned long long)addr, (unsigned long long)len, r->arch->l1_size - 1);
        e->addr = (uint32_t)addr;
        e->len = (uint32_t)len;
    }
    return 0;
}

/* {"KEY": VALUE, ...}: the rows of core/timing.def changed for this run. */
static int timing_of(struct mparser *p, const char *at, json_t *v, struct bench_run *r)
{
    char sub[200];
    if (!json_is_object(v) || json_object_size(v) > TIMING_MAX_OVERRIDES)
        return fail(p, at, "expected an object of at most %d \"KEY\": VALUE (tensim run "
                    "--timing=list shows the keys)", TIMING_MAX_OVERRIDES);
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) {
        key_at(sub, at, k);
        char *val = 0, text[200], e[200];
        if (json_is_integer(x) && json_integer_value(x) >= 0)
            snprintf(text, sizeof text, "%s=%lld", k, (long long)json_integer_value(x));
        else if (json_is_string(x) && !subst(p, sub, x, &val))
            snprintf(text, sizeof text, "%s=%s", k, val);
        else
            return json_is_string(x) ? -1 : fail(p, sub, "expected a whole number");
        free(val);
        if (timing_parse(text, &r->timing[r->ntiming], e, sizeof e))
            return fail(p, sub, "%s", e);
        if (!(r->timing_text[r->ntiming++] = strdup(text)))
            return fail(p, sub, "out of memory");
    }
    return 0;
}

static int measure_of(struct mparser *p, const char *at, json_t *v, struct bench_run *r)
{
    static const char *const what[] = {"cycles", "core_cycles", "regions", "stalls", "zones"};
    char sub[200];
    if (!json_is_array(v))
        return fail(p, at, "expected an array of \"cycles\", \"core_cycles\", \"regions\", \"stalls\", \"zones\"");
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *x = json_array_get(v, i);
        const char *s = json_string_value(x);
        index_at(sub, at, i);
        unsigned k = 0;
        while (s && k < 5 && strcmp(s, what[k]))
            k++;
        if (!s || k == 5) {
            const char *near = s ? cli_nearest(s, what, 5) : 0;
            return near ? fail(p, sub, "unknown measure \"%s\" (did you mean \"%s\"?)", s, near)
                        : fail(p, sub, "expected \"cycles\", \"core_cycles\", \"regions\", \"stalls\" or \"zones\"");
        }
        if (k == 4 && !(r->rd && r->rd->layout))
            return fail(p, sub, "\"zones\" needs a run description (\"run\") that names a tt-llk layout");
        r->per_core |= k == 1;
        r->regions |= k == 2;
        r->stalls |= k == 3;
        r->zones |= k == 4;
    }
    return 0;
}

static int tolerance_of(struct mparser *p, const char *at, json_t *v, struct bench_run *r)
{
    static const char *const keys[] = {"cycles", "percent"};
    char sub[200];
    if (!json_is_object(v))
        return fail(p, at, "expected {\"cycles\": N, \"percent\": P}");
    if (only_keys(p, at, v, keys, 2))
        return -1;
    json_t *c = json_object_get(v, "cycles"), *pc = json_object_get(v, "percent");
    if (c && number(p, key_at(sub, at, "cycles"), c, UINT64_MAX / 2, &r->tol_cycles))
        return -1;
    r->tol_cycles_given = c != 0;
    if (pc && (!json_is_number(pc) || json_number_value(pc) < 0 || json_number_value(pc) > 1000))
        return fail(p, key_at(sub, at, "percent"), "expected a number from 0 to 1000");
    r->tol_percent_given = pc != 0;
    r->tol_percent = pc ? json_number_value(pc) : 0;
    return 0;
}

/* Run one build command with /bin/sh in the manifest's folder, its output on stderr (the table
 * owns stdout). Builds run one at a time in manifest order while the manifest is read, before any
 * simulation: a run's inputs exist when they are checked, and two sweep points never build at
 * once. A command that several runs share (one without ${...}) runs once. */
static int build_one(struct mparser *p, const char *at, const char *cmd)
{
    for (unsigned i = 0; i < p->nbuilt; i++)
        if (!strcmp(p->built[i], cmd))
            return 0;
    if (p->nbuilt == p->built_cap) {
        unsigned cap = p->built_cap ? 2 * p->built_cap : 16;
        char **b = realloc(p->built, cap * sizeof *b);
        if (!b)
            return fail(p, at, "out of memory");
        p->built = b;
        p->built_cap = cap;
    }
    if (!(p->built[p->nbuilt] = strdup(cmd)))
        return fail(p, at, "out of memory");
    p->nbuilt++;
    fprintf(stderr, "tensim: bench: build: %s\n", cmd);
    fflush(stderr);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return fail(p, at, "build failed: cannot start `%s`: %s", cmd, strerror(errno));
    if (pid == 0) {
        if (p->dir[0] && chdir(p->dir)) {
            fprintf(stderr, "tensim: bench: build: cannot enter %s: %s\n", p->dir, strerror(errno));
            _exit(127);
        }
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execl("/bin/sh", "sh", "-c", cmd, (char *)0);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return fail(p, at, "build failed: `%s`: %s", cmd, strerror(errno));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFSIGNALED(st))
        return fail(p, at, "build failed: `%s` was killed by signal %d", cmd, WTERMSIG(st));
    return fail(p, at, "build failed: `%s` exited with status %d", cmd, WEXITSTATUS(st));
}

/* "build": a command or [commands], ${...} substituted, run before the run's files are checked. */
static int builds_of(struct mparser *p, const char *at, json_t *v, struct bench_run *r)
{
    char sub[200];
    bool many = json_is_array(v);
    size_t n = many ? json_array_size(v) : 1;
    if (many && (!n || n > BENCH_MAX_BUILD))
        return fail(p, at, "expected a command or an array of 1 to %d commands", BENCH_MAX_BUILD);
    for (size_t i = 0; i < n; i++) {
        const char *cat = many ? index_at(sub, at, i) : at;
        char *s;
        if (subst(p, cat, many ? json_array_get(v, i) : v, &s))
            return -1;
        if (!s[strspn(s, " \t")]) {
            free(s);
            return fail(p, cat, "expected a shell command");
        }
        r->build[r->nbuild++] = s;
        if (build_one(p, cat, s))
            return -1;
    }
    return 0;
}

/* One run of the manifest with the sweep values in p (none for a run without a sweep). */
static int run_of(struct mparser *p, const char *at, json_t *o, struct bench_run *r)
{
    char sub[200];
    json_t *v;
    char *s;
    for (unsigned i = 0; i < p->naxes; i++) {
        r->naxes = i + 1; /* what bench_manifest_free frees, as far as it got */
        if (!(r->axis[i] = strdup(p->axis[i])) || !(r->value[i] = strdup(p->value[i])))
            return fail(p, at, "out of memory");
    }
    if (subst(p, key_at(sub, at, "name"), json_object_get(o, "name"), &s))
        return -1;
    if (!s[0] || strpbrk(s, "[]=,\n\t")) {
        free(s);
        return fail(p, sub, "a name is a non-empty string without '[', ']', '=', ',' or control characters");
    }
    size_t n = strlen(s) + 3;
    for (unsigned i = 0; i < p->naxes; i++)
        n += strlen(p->axis[i]) + strlen(p->value[i]) + 2;
    if (!(r->name = malloc(n))) {
        free(s);
        return fail(p, at, "out of memory");
    }
    char *w = r->name + sprintf(r->name, "%s", s);
    free(s);
    for (unsigned i = 0; i < p->naxes; i++)
        w += sprintf(w, "%s%s=%s", i ? "," : "[", p->axis[i], p->value[i]);
    if (p->naxes)
        strcpy(w, "]");

    if ((v = json_object_get(o, "build")) && builds_of(p, key_at(sub, at, "build"), v, r))
        return -1;
    r->arch = 0;
    if ((v = json_object_get(o, "arch"))) {
        if (subst(p, key_at(sub, at, "arch"), v, &s))
            return -1;
        r->arch = arch_by_name(s);
        int bad = !r->arch;
        if (bad)
            fail(p, sub, "unknown architecture \"%s\" (blackhole or wormhole)", s);
        free(s);
        if (bad)
            return -1;
    }
    json_t *progs = json_object_get(o, "programs"), *desc = json_object_get(o, "run");
    if (!progs == !desc)
        return fail(p, at, "give one of \"programs\" and \"run\"");
    if (desc) {
        char *file, e[600];
        if (input_file(p, key_at(sub, at, "run"), desc, &file))
            return -1;
        if (!(r->rd = malloc(sizeof *r->rd))) {
            free(file);
            return fail(p, sub, "out of memory");
        }
        int bad = run_desc_load(r->rd, file, r->arch, e, sizeof e);
        free(file);
        if (bad) {
            free(r->rd);
            r->rd = 0;
            return fail(p, sub, "%s", e);
        }
        /* the bench's runs are single tiles (core/bench_pool.c) */
        if (r->rd->chip)
            return fail(p, sub, "%s is a chip run (\"chip\"); the bench runs one tile only, so far",
                        r->rd->path);
        if (r->rd->arch && r->arch && r->rd->arch != r->arch)
            return fail(p, sub, "the run description says %s, the manifest %s", r->rd->arch->name,
                        r->arch->name);
        if (r->rd->arch)
            r->arch = r->rd->arch;
        r->loader = r->rd->loader;
        r->max_cycles = r->rd->max_cycles;
    }
    if (!r->arch)
        r->arch = arch_get(ARCH_BLACKHOLE);
    if (progs && programs_of(p, key_at(sub, at, "programs"), progs, r))
        return -1;
    if ((v = json_object_get(o, "loader"))) {
        if (subst(p, key_at(sub, at, "loader"), v, &s))
            return -1;
        int how = elf_loader_by_name(s);
        if (how < 0)
            fail(p, sub, "unknown loader \"%s\" (auto, segments or exalens)", s);
        free(s);
        if (how < 0)
            return -1;
        r->loader = (enum elf_loader)how;
    }
    if (r->rd)
        r->rd->loader = r->loader;
    if ((v = json_object_get(o, "max_cycles"))) {
        if (number(p, key_at(sub, at, "max_cycles"), v, UINT64_MAX, &r->max_cycles))
            return -1;
        if (!r->max_cycles)
            return fail(p, sub, "expected a positive number");
    }
    if ((v = json_object_get(o, "load")) && loads_of(p, key_at(sub, at, "load"), v, r))
        return -1;
    if ((v = json_object_get(o, "expect")) && expects_of(p, key_at(sub, at, "expect"), v, r))
        return -1;
    if ((v = json_object_get(o, "timing")) && timing_of(p, key_at(sub, at, "timing"), v, r))
        return -1;
    if ((v = json_object_get(o, "measure")) && measure_of(p, key_at(sub, at, "measure"), v, r))
        return -1;
    if ((v = json_object_get(o, "tolerance")) && tolerance_of(p, key_at(sub, at, "tolerance"), v, r))
        return -1;
    return 0;
}

/* The sweep's axes of run object o into p (names and their arrays); 0 axes without a sweep. */
static int axes_of(struct mparser *p, const char *at, json_t *o, json_t **values, size_t *count)
{
    char sub[200], sub2[200];
    json_t *sw = json_object_get(o, "sweep");
    p->naxes = 0;
    *count = 1;
    if (!sw)
        return 0;
    key_at(sub, at, "sweep");
    if (!json_is_object(sw) || !json_object_size(sw) || json_object_size(sw) > BENCH_MAX_AXES)
        return fail(p, sub, "expected {\"NAME\": [VALUE, ...], ...} with 1 to %d parameters", BENCH_MAX_AXES);
    const char *k;
    json_t *a;
    json_object_foreach(sw, k, a) {
        key_at(sub2, sub, k);
        if (!k[0] || k[strspn(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
            return fail(p, sub2, "a parameter's name is letters, digits and '_'");
        if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > BENCH_MAX_VALUES)
            return fail(p, sub2, "expected an array of 1 to %d values", BENCH_MAX_VALUES);
        for (size_t i = 0; i < json_array_size(a); i++) {
            json_t *x = json_array_get(a, i);
            const char *s = json_string_value(x);
            if (!json_is_integer(x) && (!s || !s[0] || strpbrk(s, "[]=,$\n\t")))
                return fail(p, index_at(sub, sub2, i), "a value is an integer or a non-empty string "
                            "without '[', ']', '=', ',', '$' or control characters");
        }
        p->axis[p->naxes] = k;
        values[p->naxes++] = a;
        *count *= json_array_size(a);
    }
    return 0;
}

/* Value i of a sweep axis as text (integers in decimal), in buf (32 bytes) for integers. */
static const char *value_text(json_t *x, char *buf)
{
    if (json_is_string(x))
        return json_string_value(x);
    snprintf(buf, 32, "%lld", (long long)json_integer_value(x));
    return buf;
}

static int manifest_of(struct mparser *p, json_t *root, struct bench_manifest *m)
{
    static const char *const top[] = {"tensim_bench", "runs"};
    static const char *const keys[] = {"name", "arch", "programs", "run", "loader", "max_cycles", "load",
                                       "expect", "timing", "measure", "tolerance", "sweep", "build"};
    char at[200];
    if (!json_is_object(root))
        return fail(p, "", "expected an object {\"tensim_bench\": 1, \"runs\": [...]}");
    if (only_keys(p, "", root, top, 2))
        return -1;
    json_t *ver = json_object_get(root, "tensim_bench"), *runs = json_object_get(root, "runs");
    if (!ver)
        return fail(p, "", "missing \"tensim_bench\" (the format's version, 1)");
    if (!json_is_integer(ver) || json_integer_value(ver) != BENCH_VERSION)
        return fail(p, "tensim_bench", "this tensim reads version %d", BENCH_VERSION);
    if (!json_is_array(runs) || !json_array_size(runs))
        return fail(p, "runs", "expected an array of one or more runs");
    size_t total = 0;
    for (size_t i = 0; i < json_array_size(runs); i++) {
        json_t *o = json_array_get(runs, i), *vals[BENCH_MAX_AXES];
        size_t count;
        index_at(at, "runs", i);
        if (!json_is_object(o))
            return fail(p, at, "expected a run object");
        if (only_keys(p, at, o, keys, sizeof keys / sizeof keys[0]))
            return -1;
        if (!json_object_get(o, "name"))
            return fail(p, at, "missing \"name\"");
        if (axes_of(p, at, o, vals, &count))
            return -1;
        if (count > BENCH_MAX_RUNS - total)
            return fail(p, at, "more than %d runs in all", BENCH_MAX_RUNS);
        total += count;
    }
    if (!(m->run = calloc(total, sizeof *m->run)))
        return fail(p, "", "out of memory");
    for (size_t i = 0; i < json_array_size(runs); i++) {
        json_t *o = json_array_get(runs, i), *vals[BENCH_MAX_AXES];
        size_t count, pos[BENCH_MAX_AXES] = {0};
        char num[BENCH_MAX_AXES][32];
        index_at(at, "runs", i);
        axes_of(p, at, o, vals, &count);
        /* Odometer order: the last parameter varies fastest. */
        for (size_t c = 0; c < count; c++) {
            char rat[200];
            int w = snprintf(rat, sizeof rat, "%s", at);
            for (unsigned a = 0; a < p->naxes; a++) {
                p->value[a] = value_text(json_array_get(vals[a], pos[a]), num[a]);
                if (w > 0 && (size_t)w < sizeof rat) /* "runs[0][level=3]": which run of the sweep */
                    w += snprintf(rat + w, sizeof rat - (size_t)w, "%s%s=%s", a ? "," : "[",
                                  p->axis[a], p->value[a]);
            }
            if (p->naxes && w > 0 && (size_t)w < sizeof rat - 1)
                strcat(rat, "]");
            if (run_of(p, rat, o, &m->run[m->nruns++]))
                return -1;
            for (int a = (int)p->naxes - 1; a >= 0; a--) {
                if (++pos[a] < json_array_size(vals[a]))
                    break;
                pos[a] = 0;
            }
        }
    }
    for (unsigned i = 0; i < m->nruns; i++)
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(m->run[i].name, m->run[j].name))
                return fail(p, "runs", "two runs are named \"%s\"", m->run[i].name);
    return 0;
}

int bench_manifest_load(struct bench_manifest *m, const char *path, char *err, unsigned errlen)
{
    *m = (struct bench_manifest){0};
    struct mparser p = {.path = path, .err = err, .errlen = errlen};
    if (!(m->path = strdup(path)))
        return fail(&p, "", "out of memory");
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path + 1) : 0;
    if (!(p.dir = malloc(dlen + 1))) {
        bench_manifest_free(m);
        return fail(&p, "", "out of memory");
    }
    memcpy(p.dir, path, dlen);
    p.dir[dlen] = 0;
    json_error_t je;
    struct stat st;
    json_t *root = 0;
    int r;
    if (stat(path, &st))
        r = fail(&p, "", "cannot read it: %s", strerror(errno));
    else if (S_ISDIR(st.st_mode))
        r = fail(&p, "", "is a directory");
    else if (!(root = json_load_file(path, JSON_REJECT_DUPLICATES, &je)))
        r = fail(&p, "", "line %d column %d: %s", je.line, je.column, je.text);
    else
        r = manifest_of(&p, root, m);
    json_decref(root);
    free(p.dir);
    for (unsigned i = 0; i < p.nbuilt; i++)
        free(p.built[i]);
    free(p.built);
    if (r)
        bench_manifest_free(m);
    return r;
}

void bench_manifest_free(struct bench_manifest *m)
{
    for (unsigned i = 0; m->run && i < m->nruns; i++) {
        struct bench_run *r = &m->run[i];
        free(r->name);
        for (unsigned a = 0; a < r->naxes; a++) {
            free(r->axis[a]);
            free(r->value[a]);
        }
        for (int k = 0; k < NUM_CORES; k++)
            free(r->program[k]);
        if (r->rd) {
            run_desc_free(r->rd);
            free(r->rd);
        }
        for (unsigned k = 0; k < r->nload; k++)
            free((char *)r->load[k].file);
        for (unsigned k = 0; k < r->nexpect; k++)
            free(r->expect[k].file);
        for (unsigned k = 0; k < r->ntiming; k++)
            free(r->timing_text[k]);
        for (unsigned k = 0; k < r->nbuild; k++)
            free(r->build[k]);
    }
    free(m->run);
    free(m->path);
    *m = (struct bench_manifest){0};
}
