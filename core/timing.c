/* The rows of core/timing.def by name: parsing, applying and printing overrides. */
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#include "../riscv/core.h" /* SQ_MAX, L0_MAX, LOAD_SLOTS_MAX: the fixed sizes behind the limits */

static const struct timing_row {
    const char *key;
    size_t offset;
    unsigned bh, wh, min, max;
    const char *source, *checked;
} rows[] = {
#define TIMING(g, f, b, w, lo, hi, src, chk) {#g "." #f, offsetof(struct arch, g.f), b, w, lo, hi, src, chk},
#include "timing.def"
#undef TIMING
};
#define N_ROWS (sizeof rows / sizeof rows[0])

int timing_parse(const char *text, struct timing_override *o, char *err, size_t n)
{
    const char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(err, n, "--timing wants KEY=VALUE, not '%s' (--timing=list shows the keys)", text);
        return -1;
    }
    size_t klen = (size_t)(eq - text);
    for (unsigned i = 0; i < N_ROWS; i++) {
        if (strlen(rows[i].key) != klen || strncmp(rows[i].key, text, klen))
            continue;
        char *end;
        unsigned long v = strtoul(eq + 1, &end, 0);
        if (!eq[1] || *end || eq[1] == '-' || v < rows[i].min || v > rows[i].max) {
            snprintf(err, n, "--timing %s wants a whole number from %u to %u, not '%s'",
                     rows[i].key, rows[i].min, rows[i].max, eq + 1);
            return -1;
        }
        *o = (struct timing_override){.row = i, .value = (unsigned)v};
        return 0;
    }
    snprintf(err, n, "--timing: no parameter '%.*s' (--timing=list shows the keys)", (int)klen, text);
    return -1;
}

void timing_apply(const struct arch *base, const struct timing_override *o, unsigned n,
                  struct arch *out)
{
    *out = *base;
    for (unsigned i = 0; i < n; i++)
        *(unsigned *)((char *)out + rows[o[i].row].offset) = o[i].value;
}

void timing_json(const struct arch *a, FILE *f)
{
    for (unsigned i = 0; i < N_ROWS; i++)
        fprintf(f, "%s\"%s\": %u", i ? ", " : "", rows[i].key,
                *(const unsigned *)((const char *)a + rows[i].offset));
}

void timing_list(FILE *f)
{
    fprintf(f, "%-24s %4s %4s %7s  %s\n", "parameter", "BH", "WH", "range", "source; checked against");
    for (unsigned i = 0; i < N_ROWS; i++)
        fprintf(f, "%-24s %4u %4u %3u-%-3u  %s; %s\n", rows[i].key, rows[i].bh, rows[i].wh,
                rows[i].min, rows[i].max, rows[i].source, rows[i].checked);
}

void timing_report(const struct arch *a, FILE *f)
{
    const char *sep = "tensim: timing changed by --timing: ";
    for (unsigned i = 0; i < N_ROWS; i++) {
        unsigned v = *(const unsigned *)((const char *)a + rows[i].offset);
        unsigned d = a->id == ARCH_WORMHOLE ? rows[i].wh : rows[i].bh;
        if (v != d) {
            fprintf(f, "%s%s=%u (model %u)", sep, rows[i].key, v, d);
            sep = ", ";
        }
    }
    if (*sep == ',')
        fputc('\n', f);
}
