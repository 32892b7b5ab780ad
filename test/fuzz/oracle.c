#include "oracle.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"

static const char *fail(char *why, size_t n, const char *sig, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static const char *fail(char *why, size_t n, const char *sig, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return sig;
}

/* The error kind whose "tensim: <category>: " starts this line, or ERR_KIND_COUNT. */
static enum err_kind line_kind(const char *line)
{
    if (strncmp(line, "tensim: ", 8))
        return ERR_KIND_COUNT;
    for (int k = ERR_NONE + 1; k < ERR_KIND_COUNT; k++) {
        const char *t = err_kind_text((enum err_kind)k);
        size_t len = strlen(t);
        if (!strncmp(line + 8, t, len) && line[8 + len] == ':')
            return (enum err_kind)k;
    }
    return ERR_KIND_COUNT;
}

static json_int_t num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? json_integer_value(v) : -1;
}

static const char *check_stats(const struct run_result *r, char *why, size_t n)
{
    json_error_t e;
    json_t *s = json_load_file(r->stats_path, 0, &e);
    if (!s)
        return fail(why, n, "stats", "stats JSON does not parse: %s (line %d)", e.text, e.line);
    const char *sig = 0;
    json_int_t cycles = num(s, "cycles");
    json_t *err = json_object_get(s, "error");
    if (num(s, "exit_status") != r->status)
        sig = fail(why, n, "stats", "stats say exit_status %ld", (long)num(s, "exit_status"));
    else if (r->status >= 101 && r->status != 109 && num(err, "exit_code") != r->status)
        sig = fail(why, n, "stats", "stats error.exit_code is %ld", (long)num(err, "exit_code"));
    const char *name;
    json_t *th;
    json_object_foreach(json_object_get(s, "threads"), name, th) {
        json_int_t sum = num(th, "issued") + num(th, "empty");
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(th, "held"), k, v) sum += json_integer_value(v);
        if (!sig && sum != cycles)
            sig = fail(why, n, "stats", "thread %s: issued + empty + held = %ld, not the run's cycles",
                       name, (long)sum);
        json_int_t insns = 0; /* one instruction passes a gate in each of its issue cycles */
        json_object_foreach(json_object_get(th, "instructions"), k, v) insns += json_integer_value(v);
        if (!sig && insns != num(th, "issued"))
            sig = fail(why, n, "stats", "thread %s: %ld instructions in %ld issue cycles", name,
                       (long)insns, (long)num(th, "issued"));
    }
    json_t *core;
    json_object_foreach(json_object_get(s, "cores"), name, core) {
        json_int_t sum = num(core, "active");
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(core, "stalls"), k, v) sum += json_integer_value(v);
        if (!sig && (sum != num(core, "cycles") || sum > cycles))
            sig = fail(why, n, "stats", "core %s: active + stalls = %ld, not its cycles or past the run's",
                       name, (long)sum);
    }
    json_decref(s);
    return sig;
}

char *case_arg(const char *arg, const char *dir)
{
    const char *at = strstr(arg, "@/");
    char buf[1024];
    if (!at)
        return strdup(arg);
    snprintf(buf, sizeof buf, "%.*s%s/%s", (int)(at - arg), arg, dir, at + 2);
    return strdup(buf);
}

const char *oracle_check(const struct run_result *r, char *why, size_t n)
{
    if (r->timed_out)
        return fail(why, n, "hang", "no end within the time limit");
    if (strstr(r->err, "Sanitizer") || strstr(r->err, "runtime error:"))
        return fail(why, n, "sanitizer", "sanitizer report: %.300s", strstr(r->err, "==") ? strstr(r->err, "==") : r->err);
    if (r->signal)
        return fail(why, n, "crash", "ended by signal %d", r->signal);
    if (r->status < 0 || r->status > err_kind_exit_code(ERR_KIND_COUNT - 1))
        return fail(why, n, "status", "exit status %d is not documented", r->status);

    /* Every "tensim: <category>:" line of stderr, and the guest exits. */
    int errors = 0, host = 0, guest = 0, first_guest_code = 0;
    enum err_kind run_kind = ERR_NONE;
    for (const char *p = r->err; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : 0) {
        enum err_kind k = line_kind(p);
        if (k == ERR_HOST)
            host++;
        else if (k != ERR_KIND_COUNT && errors++ == 0)
            run_kind = k;
        if (!strncmp(p, "tensim: guest exit: ", 20) && guest++ == 0) {
            const char *c = strstr(p, ": exit code ");
            first_guest_code = c ? atoi(c + 12) : 0;
        }
    }
    if (errors > 1)
        return fail(why, n, "report", "%d run errors reported (the first one wins)", errors);
    int want = run_kind != ERR_NONE ? err_kind_exit_code(run_kind)
               : guest                ? guest_exit_status(first_guest_code)
               : host                 ? err_kind_exit_code(ERR_HOST)
                                      : 0;
    if (r->status != want)
        return fail(why, n, "status", "exit status %d, but stderr reports %d", r->status, want);
    if (r->stats_path && r->status != 100 && r->status != 109) {
        const char *sig = check_stats(r, why, n);
        if (sig)
            return sig;
    }
    if (r->trace_path && r->status != 100 && r->status != 109) {
        json_error_t e;
        json_t *t = json_load_file(r->trace_path, 0, &e);
        if (!t)
            return fail(why, n, "trace", "trace JSON does not parse: %s (line %d)", e.text, e.line);
        json_decref(t);
    }
    return 0;
}
