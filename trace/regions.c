/* Regions in the report and the stats JSON (trace/regions.h). */
#include "regions.h"
#include "metrics.h"

#include <inttypes.h>

#include "../core/tile.h"

static bool any_tensix(const struct region_counters *s)
{
    for (unsigned k = 0; k < TT_UNIT_COUNT; k++)
        if (s->tensix[k])
            return true;
    for (unsigned k = 1; k < GS_COUNT; k++)
        if (s->held[k])
            return true;
    return false;
}

/* "  Tk issued: ...; held: ..." */
static void thread_line(FILE *f, int i, const struct region_stat *s)
{
    bool any = false;
    fprintf(f, "  T%d issued:", i);
    for (unsigned k = 0; k < TT_UNIT_COUNT; k++)
        if (s->sum.tensix[k]) {
            fprintf(f, " %s=%" PRIu64, tt_unit_name((enum tt_unit)k), s->sum.tensix[k]);
            any = true;
        }
    fprintf(f, "%s; held:", any ? "" : " none");
    any = false;
    for (unsigned k = 1; k < GS_COUNT; k++)
        if (s->sum.held[k]) {
            fprintf(f, " %s=%" PRIu64, gate_stall_key(k), s->sum.held[k]);
            any = true;
        }
    fprintf(f, "%s\n", any ? "" : " none");
}

void regions_report(const struct tile *t, FILE *f)
{
    if (!regions_any(t))
        return;
    fprintf(f, "%-13s %6s %10s %8s %8s %10s  %s\n", "region", "count", "cycles", "min", "max",
            "instret", "stall cycles");
    for (int i = 0; i < NUM_CORES; i++) {
        const struct core_regions *r = &t->regions[i];
        for (unsigned id = 0; id < REGION_IDS; id++) {
            if (!(r->used >> id & 1))
                continue;
            const struct region_stat *s = &r->st[id];
            char name[24];
            snprintf(name, sizeof name, "%s #%u", core_name(i), id);
            fprintf(f, "%-13s %6" PRIu64 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %10" PRIu64 " ",
                    name, s->count, s->cycles, s->min, s->max, s->sum.instret);
            bool any = false;
            for (unsigned k = 0; k < STALL_COUNT; k++)
                if (s->sum.stall[k]) {
                    fprintf(f, " %s=%" PRIu64, core_stall_key(k), s->sum.stall[k]);
                    any = true;
                }
            fprintf(f, "%s", any ? "" : " none");
            if (r->open >> id & 1)
                fprintf(f, " (open at the end, begun at cycle %" PRIu64 ")", r->begin_cycle[id]);
            fputc('\n', f);
            if (i < NUM_THREADS && any_tensix(&s->sum))
                thread_line(f, i, s);
            /* the tile's metrics over the region's cycles (Tenstorrent's names) */
            static const char *const prefix[2] = {"  metrics:", "  tensim-only:"};
            if (s->cycles)
                metrics_lines(t, &s->sum.sig, s->cycles, f, prefix, 4);
        }
    }
}

void regions_json(const struct tile *t, FILE *f)
{
    if (!regions_any(t))
        return;
    fprintf(f, "  \"regions\": {");
    const char *csep = "";
    for (int i = 0; i < NUM_CORES; i++) {
        const struct core_regions *r = &t->regions[i];
        if (!r->used)
            continue;
        fprintf(f, "%s\n    \"%s\": [", csep, core_name(i));
        const char *rsep = "";
        for (unsigned id = 0; id < REGION_IDS; id++) {
            if (!(r->used >> id & 1))
                continue;
            const struct region_stat *s = &r->st[id];
            fprintf(f, "%s\n      {\"id\": %u, \"count\": %" PRIu64 ", \"cycles\": %" PRIu64
                       ", \"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"open\": ",
                    rsep, id, s->count, s->cycles, s->min, s->max);
            if (r->open >> id & 1)
                fprintf(f, "%" PRIu64, r->begin_cycle[id]);
            else
                fprintf(f, "null");
            fprintf(f, ",\n       \"instret\": %" PRIu64 ", \"stalls\": {", s->sum.instret);
            for (unsigned k = 0; k < STALL_COUNT; k++)
                fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", core_stall_key(k), s->sum.stall[k]);
            fprintf(f, "}");
            if (i < NUM_THREADS) {
                fprintf(f, ",\n       \"thread\": \"T%d\", \"tensix\": {", i);
                const char *usep = "";
                for (unsigned k = 0; k < TT_UNIT_COUNT; k++) {
                    if (!s->sum.tensix[k])
                        continue;
                    fprintf(f, "%s\"%s\": %" PRIu64, usep, tt_unit_name((enum tt_unit)k),
                            s->sum.tensix[k]);
                    usep = ", ";
                }
                fprintf(f, "},\n       \"held\": {");
                for (unsigned k = 1; k < GS_COUNT; k++)
                    fprintf(f, "%s\"%s\": %" PRIu64, k > 1 ? ", " : "", gate_stall_key(k),
                            s->sum.held[k]);
                fprintf(f, "}");
            }
            fprintf(f, ",\n");
            metrics_json(t, &s->sum.sig, s->cycles, f, "       ");
            fprintf(f, "}");
            rsep = ",";
        }
        fprintf(f, "\n    ]");
        csep = ",";
    }
    fprintf(f, "\n  },\n");
}
