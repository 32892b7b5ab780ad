/* The --trace format checker (test/trace_check.h). */
#include "trace_check.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TRACKS 8192 /* a chip of 140 tiles has about 5000 */
#define MAX_COUNTERS 256
#define MAX_DEPTH 64

#define TC_MAX_PIDS 2048 /* a chip's trace: 8 per tile, 140 tiles, and the NoC's own */

struct span {
    long long ts, end;
};

struct track {
    long long pid, tid;
    bool named, used;
    long long last_ts;
    long long end[MAX_DEPTH];
    unsigned depth;
    struct span *top; /* its outermost slices, in ts order (disjoint): where flows may bind */
    size_t ntop, captop;
};

/* One end of a flow. */
struct flow_end {
    long long id, pid, tid;
    double ts;
    const char *name, *cat;
    size_t event;
    bool finish, matched;
};

struct counter {
    long long pid, last_ts;
    const char *name;
    json_t *last_args;
};

struct checker {
    struct track tr[MAX_TRACKS];
    unsigned ntr, last; /* last: the track found last (events come grouped by track) */
    long long pids_named[TC_MAX_PIDS], pids_used[TC_MAX_PIDS];
    unsigned npn, npu;
    struct counter c[MAX_COUNTERS];
    unsigned nc;
    struct flow_end *fl;
    size_t nfl, capfl;
};

static bool fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return false;
}

static struct track *track(struct checker *k, long long pid, long long tid)
{
    if (k->last < k->ntr && k->tr[k->last].pid == pid && k->tr[k->last].tid == tid)
        return &k->tr[k->last];
    for (unsigned i = 0; i < k->ntr; i++)
        if (k->tr[i].pid == pid && k->tr[i].tid == tid)
            return &k->tr[k->last = i];
    if (k->ntr == MAX_TRACKS)
        return NULL;
    k->last = k->ntr;
    struct track *t = &k->tr[k->ntr++];
    *t = (struct track){.pid = pid, .tid = tid, .last_ts = -1};
    return t;
}

static void add_pid(long long *set, unsigned *n, long long pid)
{
    for (unsigned i = 0; i < *n; i++)
        if (set[i] == pid)
            return;
    if (*n < TC_MAX_PIDS)
        set[(*n)++] = pid;
}

/* An integer member, or false. */
static bool get_int(json_t *e, const char *key, long long *v)
{
    json_t *j = json_object_get(e, key);
    if (!json_is_integer(j))
        return false;
    *v = json_integer_value(j);
    return true;
}

static bool check_event(struct checker *k, json_t *e, size_t i, struct trace_summary *s, char *why, size_t n)
{
    if (!json_is_object(e))
        return fail(why, n, "event %zu is not an object", i);
    const char *ph = json_string_value(json_object_get(e, "ph"));
    const char *name = json_string_value(json_object_get(e, "name"));
    long long pid, tid, ts, dur;
    if (!ph || strlen(ph) != 1)
        return fail(why, n, "event %zu has no ph", i);
    if (!name)
        return fail(why, n, "event %zu has no name", i);
    if (!get_int(e, "pid", &pid))
        return fail(why, n, "event %zu (%s) has no integer pid", i, name);
    switch (ph[0]) {
    case 'M': {
        s->metadata++;
        json_t *args = json_object_get(e, "args");
        if (!strcmp(name, "process_name") || !strcmp(name, "process_sort_index")) {
            if (!strcmp(name, "process_name")) {
                if (!json_is_string(json_object_get(args, "name")))
                    return fail(why, n, "event %zu: process_name without args.name", i);
                add_pid(k->pids_named, &k->npn, pid);
            }
            return true;
        }
        if (strcmp(name, "thread_name") && strcmp(name, "thread_sort_index"))
            return fail(why, n, "event %zu: unknown metadata '%s'", i, name);
        if (!get_int(e, "tid", &tid))
            return fail(why, n, "event %zu: %s without tid", i, name);
        if (!strcmp(name, "thread_name")) {
            const char *tn = json_string_value(json_object_get(args, "name"));
            if (!tn)
                return fail(why, n, "event %zu: thread_name without args.name", i);
            struct track *t = track(k, pid, tid);
            if (!t)
                return fail(why, n, "too many tracks");
            if (t->named)
                return fail(why, n, "event %zu: track (%lld,%lld) named twice", i, pid, tid);
            t->named = true;
            s->tracks++;
            s->lanes += strstr(tn, " lane ") != NULL;
        }
        return true;
    }
    case 'X': {
        if (!get_int(e, "ts", &ts) || !get_int(e, "dur", &dur) || !get_int(e, "tid", &tid))
            return fail(why, n, "event %zu (%s): an X event needs integer ts, dur, pid and tid", i, name);
        if (ts < 0 || dur < 0)
            return fail(why, n, "event %zu (%s): negative ts or dur (%lld, %lld)", i, name, ts, dur);
        struct track *t = track(k, pid, tid);
        if (!t)
            return fail(why, n, "too many tracks");
        t->used = true;
        add_pid(k->pids_used, &k->npu, pid);
        if (ts < t->last_ts)
            return fail(why, n, "event %zu (%s) on (%lld,%lld): ts %lld before the previous %lld", i, name,
                        pid, tid, ts, t->last_ts);
        t->last_ts = ts;
        while (t->depth && t->end[t->depth - 1] <= ts)
            t->depth--;
        if (t->depth && ts + dur > t->end[t->depth - 1])
            return fail(why, n,
                        "event %zu (%s) on (%lld,%lld): [%lld, %lld) overlaps an open slice ending at %lld "
                        "without nesting in it",
                        i, name, pid, tid, ts, ts + dur, t->end[t->depth - 1]);
        if (t->depth == MAX_DEPTH)
            return fail(why, n, "event %zu: slices nested deeper than %d", i, MAX_DEPTH);
        if (!t->depth) {
            if (t->ntop == t->captop) {
                size_t cap = t->captop ? 2 * t->captop : 64;
                struct span *p = realloc(t->top, cap * sizeof *p);
                if (!p)
                    return fail(why, n, "out of memory");
                t->top = p, t->captop = cap;
            }
            t->top[t->ntop++] = (struct span){ts, ts + dur};
        }
        t->end[t->depth++] = ts + dur;
        s->slices++;
        if (pid == 1 && tid < 100) {
            s->core_slices++;
            s->core_stalls += strcmp(name, "running") != 0;
        }
        if (s->slices + s->instants == 1 || (unsigned long long)ts < s->first_ts)
            s->first_ts = (unsigned long long)ts;
        if ((unsigned long long)(ts + dur) > s->last_end)
            s->last_end = (unsigned long long)(ts + dur);
        return true;
    }
    case 'i': {
        if (!get_int(e, "ts", &ts) || !get_int(e, "tid", &tid) || ts < 0)
            return fail(why, n, "event %zu (%s): an i event needs ts >= 0, pid and tid", i, name);
        struct track *t = track(k, pid, tid);
        if (!t)
            return fail(why, n, "too many tracks");
        t->used = true;
        add_pid(k->pids_used, &k->npu, pid);
        s->instants++;
        if (s->slices + s->instants == 1 || (unsigned long long)ts < s->first_ts)
            s->first_ts = (unsigned long long)ts;
        if ((unsigned long long)ts > s->last_end)
            s->last_end = (unsigned long long)ts;
        return true;
    }
    case 'C': {
        json_t *args = json_object_get(e, "args");
        if (!get_int(e, "ts", &ts) || ts < 0 || !json_is_object(args) || !json_object_size(args))
            return fail(why, n, "event %zu (%s): a C event needs ts >= 0 and args", i, name);
        const char *key;
        json_t *v;
        json_object_foreach(args, key, v) if (!json_is_number(v)) return fail(why, n, "event %zu (%s): "
                                                                               "args.%s is not a number", i, name, key);
        add_pid(k->pids_used, &k->npu, pid);
        struct counter *c = NULL;
        for (unsigned j = 0; j < k->nc; j++)
            if (k->c[j].pid == pid && !strcmp(k->c[j].name, name))
                c = &k->c[j];
        if (!c) {
            if (k->nc == MAX_COUNTERS)
                return fail(why, n, "too many counters");
            c = &k->c[k->nc++];
            *c = (struct counter){.pid = pid, .name = name, .last_ts = -1};
        } else {
            if (ts <= c->last_ts)
                return fail(why, n, "event %zu: counter %s at ts %lld, not after %lld", i, name, ts, c->last_ts);
            if (json_equal(args, c->last_args))
                return fail(why, n, "event %zu: counter %s at ts %lld repeats its value", i, name, ts);
        }
        c->last_ts = ts;
        c->last_args = args;
        s->counters++;
        return true;
    }
    case 's':
    case 'f': {
        const char *cat = json_string_value(json_object_get(e, "cat"));
        json_t *jts = json_object_get(e, "ts");
        long long id;
        if (!cat || !json_is_number(jts) || json_number_value(jts) < 0 || !get_int(e, "tid", &tid) ||
            !get_int(e, "id", &id))
            return fail(why, n, "event %zu (%s): a flow event needs cat, ts >= 0, pid, tid and an integer id", i,
                        name);
        if (ph[0] == 'f' && strcmp(json_string_value(json_object_get(e, "bp")) ?: "", "e"))
            return fail(why, n, "event %zu: flow end %lld without \"bp\":\"e\"", i, id);
        if (k->nfl == k->capfl) {
            size_t cap = k->capfl ? 2 * k->capfl : 256;
            struct flow_end *p = realloc(k->fl, cap * sizeof *p);
            if (!p)
                return fail(why, n, "out of memory");
            k->fl = p, k->capfl = cap;
        }
        k->fl[k->nfl++] = (struct flow_end){id, pid, tid, json_number_value(jts), name, cat, i, ph[0] == 'f', false};
        add_pid(k->pids_used, &k->npu, pid);
        return true;
    }
    default: return fail(why, n, "event %zu (%s): phase '%s' is not one tensim writes", i, name, ph);
    }
}

static int by_id(const void *pa, const void *pb)
{
    const struct flow_end *a = pa, *b = pb;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    if (a->finish != b->finish)
        return a->finish ? 1 : -1;
    return (a->event > b->event) - (a->event < b->event);
}

/* Is ts strictly inside a slice of track (pid, tid)? */
static bool inside_slice(struct checker *k, long long pid, long long tid, double ts)
{
    struct track *t = NULL;
    for (unsigned i = 0; i < k->ntr && !t; i++)
        if (k->tr[i].pid == pid && k->tr[i].tid == tid)
            t = &k->tr[i];
    if (!t)
        return false;
    size_t lo = 0, hi = t->ntop;
    while (lo < hi) { /* the first outermost slice starting after ts */
        size_t mid = (lo + hi) / 2;
        if ((double)t->top[mid].ts <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && (double)t->top[lo - 1].ts < ts && ts < (double)t->top[lo - 1].end;
}

/* The flow rules (trace_check.h), after every slice is known. */
static bool check_flows(struct checker *k, struct trace_summary *s, char *why, size_t n)
{
    if (k->nfl) /* qsort wants an array, even of nothing */
        qsort(k->fl, k->nfl, sizeof *k->fl, by_id);
    for (size_t i = 0; i < k->nfl; i++) {
        const struct flow_end *a = &k->fl[i];
        if (!a->finish) {
            if (i + 1 < k->nfl && k->fl[i + 1].id == a->id && !k->fl[i + 1].finish)
                return fail(why, n, "flow id %lld starts twice (events %zu and %zu)", a->id, a->event,
                            k->fl[i + 1].event);
            if (i + 1 == k->nfl || k->fl[i + 1].id != a->id)
                return fail(why, n, "flow %lld (event %zu) has no f", a->id, a->event);
            const struct flow_end *b = &k->fl[i + 1];
            if (i + 2 < k->nfl && k->fl[i + 2].id == a->id)
                return fail(why, n, "flow %lld ends twice", a->id);
            if (strcmp(a->name, b->name) || strcmp(a->cat, b->cat))
                return fail(why, n, "flow %lld: s and f differ in name or cat", a->id);
            if (b->ts < a->ts)
                return fail(why, n, "flow %lld ends at %.1f before it starts at %.1f", a->id, b->ts, a->ts);
            for (int e = 0; e < 2; e++) {
                const struct flow_end *x = e ? b : a;
                if (!inside_slice(k, x->pid, x->tid, x->ts))
                    return fail(why, n, "flow %lld: its %s at %.1f on (%lld,%lld) is inside no slice", a->id,
                                e ? "f" : "s", x->ts, x->pid, x->tid);
            }
            s->flows++;
            i++;
        } else {
            return fail(why, n, "flow %lld: f (event %zu) without an s", a->id, a->event);
        }
    }
    return true;
}

bool trace_check(const char *text, struct trace_summary *s, char *why, size_t n)
{
    memset(s, 0, sizeof *s);
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root)
        return fail(why, n, "not JSON: line %d: %s", je.line, je.text);
    struct checker *k = calloc(1, sizeof *k);
    bool ok = k != NULL;
    json_t *ev = json_object_get(root, "traceEvents");
    const char *unit = json_string_value(json_object_get(json_object_get(root, "otherData"), "time_unit"));
    if (!ok)
        fail(why, n, "out of memory");
    else if (!json_is_array(ev))
        ok = fail(why, n, "no traceEvents array");
    else if (json_object_get(root, "displayTimeUnit"))
        ok = fail(why, n, "displayTimeUnit is set (timestamps are cycles: 1 us = 1 cycle)");
    else if (!unit || strcmp(unit, "1 us = 1 cycle"))
        ok = fail(why, n, "otherData.time_unit is not \"1 us = 1 cycle\"");
    for (size_t i = 0; ok && i < json_array_size(ev); i++)
        ok = check_event(k, json_array_get(ev, i), i, s, why, n);
    if (ok)
        ok = check_flows(k, s, why, n);
    for (unsigned i = 0; ok && i < k->ntr; i++)
        if (k->tr[i].used && !k->tr[i].named)
            ok = fail(why, n, "track (%lld,%lld) has events but no thread_name", k->tr[i].pid, k->tr[i].tid);
    for (unsigned i = 0; ok && i < k->npu; i++) {
        bool named = false;
        for (unsigned j = 0; j < k->npn; j++)
            named |= k->pids_named[j] == k->pids_used[i];
        if (!named)
            ok = fail(why, n, "process %lld has events but no process_name", k->pids_used[i]);
    }
    if (k) {
        for (unsigned i = 0; i < k->ntr; i++)
            free(k->tr[i].top);
        free(k->fl);
    }
    free(k);
    json_decref(root);
    return ok;
}
