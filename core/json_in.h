/* Reading the JSON inputs (run descriptions, bench manifests) with messages that name the file
 * and the key at fault: "m.json: runs[0].timing: ...". */
#ifndef TENSIM_CORE_JSON_IN_H
#define TENSIM_CORE_JSON_IN_H

#include <jansson.h>
#include <stdarg.h>

struct json_where {
    const char *path; /* the file, first in every message */
    char *err;        /* the message goes here */
    unsigned errlen;
};

/* "PATH: AT: " + the formatted text into w->err; returns -1. */
int json_vfail(const struct json_where *w, const char *at, const char *fmt, va_list ap);
/* Every key of object o must be one of keys (a near miss is suggested); 0 or -1. */
int json_only_keys(const struct json_where *w, const char *at, json_t *o, const char *const *keys,
                   unsigned n);

#endif
