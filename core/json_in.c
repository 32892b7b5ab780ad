/* Messages for the JSON inputs (core/json_in.h). */
#include "json_in.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

int json_vfail(const struct json_where *w, const char *at, const char *fmt, va_list ap)
{
    int n = snprintf(w->err, w->errlen, "%s: %s%s", w->path, at, at[0] ? ": " : "");
    if (n >= 0 && (unsigned)n < w->errlen)
        vsnprintf(w->err + n, w->errlen - (unsigned)n, fmt, ap);
    return -1;
}

static int fail(const struct json_where *w, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const struct json_where *w, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_vfail(w, at, fmt, ap);
    va_end(ap);
    return -1;
}

int json_only_keys(const struct json_where *w, const char *at, json_t *o, const char *const *keys,
                   unsigned n)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        unsigned i = 0;
        while (i < n && strcmp(k, keys[i]))
            i++;
        if (i < n)
            continue;
        const char *near = cli_nearest(k, keys, n);
        return near ? fail(w, at, "unknown key \"%s\" (did you mean \"%s\"?)", k, near)
                    : fail(w, at, "unknown key \"%s\"", k);
    }
    return 0;
}
