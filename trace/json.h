/* Small writers shared by the JSON and CSV outputs (stats, profiler zones). */
#ifndef TENSIM_TRACE_JSON_H
#define TENSIM_TRACE_JSON_H

#include <stdio.h>

/* A JSON string literal of s, quoted and escaped. */
void json_str(FILE *f, const char *s);

#endif
