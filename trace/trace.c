#include "trace.h"

#include <inttypes.h>

#include "../core/tile.h"
#include "json.h"

enum { PID_CORES = 1, PID_THREADS = 2, PID_UNITS = 3, PID_HOST = 4, PID_ZONES = 5 };

static void sep(struct tracer *tr)
{
    fputs(tr->events++ ? ",\n" : "\n", tr->f);
}

static void name_track(struct tracer *tr, int pid, int tid, const char *name)
{
    sep(tr);
    if (tid < 0)
        fprintf(tr->f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"%s\"}}",
                pid, name);
    else
        fprintf(tr->f,
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
                pid, tid, name);
}

void trace_begin(struct tracer *tr, FILE *f, const struct tile *t)
{
    (void)t;
    tr->f = f;
    tr->events = 0;
    tr->host_named = tr->zones_named = false;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 cycle\"},\"traceEvents\":[", f);
    name_track(tr, PID_CORES, -1, "RISC-V cores");
    name_track(tr, PID_THREADS, -1, "Tensix threads (Wait Gates)");
    for (int c = 0; c < NUM_CORES; c++)
        name_track(tr, PID_CORES, c, core_name(c));
    static const char *const th[NUM_THREADS] = {"T0", "T1", "T2"};
    for (int i = 0; i < NUM_THREADS; i++)
        name_track(tr, PID_THREADS, i, th[i]);
    name_track(tr, PID_UNITS, -1, "Backend units");
    for (unsigned u = 0; u < UNIT_COUNT; u++) {
        const struct unit_row *r = &unit_rows[u];
        for (unsigned i = 0; i < r->tracks; i++) {
            char name[64];
            if (r->desc && r->desc->track_label)
                snprintf(name, sizeof name, "%s", r->desc->track_label(i));
            else if (r->tracks == 1)
                snprintf(name, sizeof name, "%s", r->track_name);
            else
                snprintf(name, sizeof name, "%s %u", r->track_name, i);
            name_track(tr, PID_UNITS, (int)(r->first_track + i), name);
        }
    }
}

void trace_end(struct tracer *tr)
{
    fputs("\n]}\n", tr->f);
}

void trace_issue(struct tracer *tr, const struct tile *t, unsigned th, uint64_t cycle, uint32_t word)
{
    char dis[128];
    tt_disasm(tile_arch_bit(t), word, dis, sizeof dis);
    const char *space = dis;
    while (*space && *space != ' ')
        space++;
    sep(tr);
    fprintf(tr->f,
            "{\"name\":\"%.*s\",\"cat\":\"issue\",\"ph\":\"X\",\"ts\":%" PRIu64
            ",\"dur\":1,\"pid\":%d,\"tid\":%u,\"args\":{\"insn\":\"%s\"}}",
            (int)(space - dis), dis, cycle, PID_THREADS, th, dis);
}

/* A complete event [start, end) on track (pid, tid), with one integer argument `key` unless
 * key is NULL. */
static void interval(struct tracer *tr, const char *name, const char *cat, int pid, int tid,
                     uint64_t start, uint64_t end, const char *key, uint64_t value)
{
    if (end <= start)
        return;
    sep(tr);
    fputs("{\"name\":", tr->f); /* zone names come from the programs: escaped */
    json_str(tr->f, name);
    fprintf(tr->f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"pid\":%d,\"tid\":%d",
            cat, start, end - start, pid, tid);
    if (key)
        fprintf(tr->f, ",\"args\":{\"%s\":%" PRIu64 "}", key, value);
    fputc('}', tr->f);
}

void trace_held(struct tracer *tr, unsigned th, const char *reason, uint32_t detail, uint64_t start,
                uint64_t end)
{
    interval(tr, reason, "held", PID_THREADS, (int)th, start, end, "detail", detail);
}

void trace_blocked(struct tracer *tr, int core, const char *why, uint64_t start, uint64_t end)
{
    interval(tr, why, "blocked", PID_CORES, core, start, end, NULL, 0);
}

void trace_host(struct tracer *tr, const char *what, uint64_t cycle)
{
    if (!tr->host_named) {
        tr->host_named = true;
        name_track(tr, PID_HOST, -1, "Host (run description)");
        name_track(tr, PID_HOST, 0, "host");
    }
    sep(tr);
    fputs("{\"name\":", tr->f);
    json_str(tr->f, what);
    fprintf(tr->f, ",\"cat\":\"host\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%" PRIu64 ",\"pid\":%d,\"tid\":0}",
            cycle, PID_HOST);
}

void trace_zone(struct tracer *tr, unsigned th, const char *name, uint64_t start, uint64_t end)
{
    if (!tr->zones_named) {
        static const char *const threads[] = {"unpack", "math", "pack"};
        tr->zones_named = true;
        name_track(tr, PID_ZONES, -1, "tt-llk profiler zones (wall clock)");
        for (int i = 0; i < 3; i++)
            name_track(tr, PID_ZONES, i, threads[i]);
    }
    interval(tr, name, "zone", PID_ZONES, (int)th, start, end, NULL, 0);
}

void trace_unit(struct tracer *tr, const struct unit_desc *u, unsigned i, const char *what, unsigned th,
                uint64_t start, uint64_t end)
{
    unsigned track = TRACK_COUNT;
    for (unsigned k = 0; k < UNIT_COUNT; k++)
        if (unit_rows[k].desc == u && i < unit_rows[k].tracks)
            track = unit_rows[k].first_track + i;
    if (track < TRACK_COUNT)
        interval(tr, what, "unit", PID_UNITS, (int)track, start, end, "thread", th);
}
