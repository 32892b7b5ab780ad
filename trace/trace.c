#include "trace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/tile.h"
#include "json.h"

enum { PID_CORES = 1, PID_THREADS = 2, PID_UNITS = 3, PID_HOST = 4, PID_ZONES = 5, PID_REGIONS = 6,
       PID_NOC = 7, PID_END };

/* What an event is: the slice kinds first (their category names), then the host's instants, then
 * the counters' raw data: a FIFO sample (end holds the value) and an L1 port booking; then the
 * flows (a push to the slice of the unit executing its first instruction): ts is the issue
 * cycle, end the push cycle, tid the pushing core, pc its pc and arg the record index (seq) of
 * the slice it ends on. */
enum ev_kind { K_ISSUE, K_HELD, K_UNIT, K_CORE, K_ZONE, K_HOST, K_FIFO, K_PORT, K_FLOW, K_GONE };
static const char *const cat_name[] = {"issue", "held", "unit", "core", "zone", "host"};

struct trace_ev {
    uint64_t ts, end;
    union {
        const char *name;
        uint64_t pc; /* K_FLOW */
    };
    uint32_t seq, arg;
    uint16_t tid;
    uint8_t pid, kind, lane;
};

/* Lane k of track tid is tid + k * LANE_STRIDE; more than MAX_LANES overlapping slices, or
 * slices nested deeper than MAX_DEPTH, would be dropped (and counted in otherData). */
#define LANE_STRIDE 100
#define MAX_LANES 64
#define MAX_DEPTH 32
_Static_assert(TRACK_COUNT < LANE_STRIDE && NUM_CORES < LANE_STRIDE, "base tracks below the lanes");

void trace_begin(struct tracer *tr, FILE *f, const struct tile *t)
{
    *tr = (struct tracer){.f = f, .t = t, .arch_bit = tile_arch_bit(t), .to = TRACE_NO_END,
                          .flow_open = SIZE_MAX};
    for (int c = 0; c < NUM_CORES; c++)
        tr->core_state[c] = -1;
    tr->doc = &tr->own;
    tr->own.f = f;
}

void trace_doc_begin(struct trace_doc *d, FILE *f)
{
    *d = (struct trace_doc){.f = f};
    fputs("{\"otherData\":{\"time_unit\":\"1 us = 1 cycle\"},\"traceEvents\":[", f);
}

void trace_doc_end(struct trace_doc *d)
{
    fputs("\n]}\n", d->f);
}

int trace_doc_pid_after(unsigned nparts) { return (int)(nparts * PID_END) + 1; }

static void doc_sep(struct trace_doc *d) { fputs(d->count++ ? ",\n" : "\n", d->f); }

void trace_doc_process(struct trace_doc *d, int pid, const char *name)
{
    doc_sep(d);
    fprintf(d->f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":", pid);
    json_str(d->f, name);
    fputs("}}", d->f);
    doc_sep(d);
    fprintf(d->f, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
            pid, pid);
}

void trace_doc_track(struct trace_doc *d, int pid, unsigned tid, const char *name)
{
    doc_sep(d);
    fprintf(d->f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"name\":", pid,
            tid);
    json_str(d->f, name);
    fputs("}}", d->f);
    doc_sep(d);
    fprintf(d->f, "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{"
            "\"sort_index\":%u}}", pid, tid, tid);
}

void trace_doc_slice(struct trace_doc *d, int pid, unsigned tid, const char *name, const char *cat,
                     uint64_t start, uint64_t end)
{
    doc_sep(d);
    fputs("{\"name\":", d->f);
    json_str(d->f, name);
    fprintf(d->f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"pid\":%d,\"tid\":%u}",
            cat, start, end - start, pid, tid);
}

void trace_part(struct tracer *tr, struct trace_doc *d, unsigned index, const char *prefix)
{
    tr->doc = d;
    tr->pid_base = (int)(index * PID_END);
    snprintf(tr->prefix, sizeof tr->prefix, "%s", prefix);
}


void trace_window(struct tracer *tr, uint64_t from, uint64_t to)
{
    tr->from = from;
    tr->to = to;
}

static void add(struct tracer *tr, enum ev_kind k, int pid, unsigned tid, uint64_t ts, uint64_t end,
                const char *name, uint32_t arg)
{
    if (tr->oom)
        return;
    if (tr->n == tr->cap) {
        size_t cap = tr->cap ? 2 * tr->cap : 4096;
        struct trace_ev *p = realloc(tr->ev, cap * sizeof *p);
        if (!p) {
            tr->oom = true;
            return;
        }
        tr->ev = p, tr->cap = cap;
    }
    tr->ev[tr->n] = (struct trace_ev){.ts = ts, .end = end, .name = name, .seq = (uint32_t)tr->n,
                                      .arg = arg, .tid = (uint16_t)tid, .pid = (uint8_t)pid,
                                      .kind = (uint8_t)k};
    tr->n++;
}

/* A copy of a name that does not outlive the call. */
static const char *keep(struct tracer *tr, const char *s)
{
    if (tr->oom)
        return NULL;
    if (tr->nstrs == tr->capstrs) {
        size_t cap = tr->capstrs ? 2 * tr->capstrs : 64;
        char **p = realloc(tr->strs, cap * sizeof *p);
        if (!p) {
            tr->oom = true;
            return NULL;
        }
        tr->strs = p, tr->capstrs = cap;
    }
    char *c = strdup(s);
    if (!c)
        tr->oom = true;
    else
        tr->strs[tr->nstrs++] = c;
    return c;
}

/* A slice [start, end) if it overlaps the window (clipped when written). */
static void slice(struct tracer *tr, enum ev_kind k, int pid, unsigned tid, uint64_t start, uint64_t end,
                  const char *name, uint32_t arg)
{
    if (end > start && end > tr->from && start < tr->to)
        add(tr, k, pid, tid, start, end, name, arg);
}

void trace_issue(struct tracer *tr, const struct tile *t, unsigned th, uint64_t cycle, uint32_t word,
                 tt_origin origin)
{
    (void)t; /* the mnemonic is found when written */
    size_t at = tr->n;
    slice(tr, K_ISSUE, PID_THREADS, th, cycle, cycle + 1, NULL, word);
    tr->flow_open = SIZE_MAX;
    /* a flow only with both ends in the window (its push too) */
    int core = origin_core(origin);
    if (tr->n == at + 1 && origin_arrow(origin) && core >= 0 && origin_cycle(origin) >= tr->from &&
        origin_cycle(origin) <= cycle) {
        add(tr, K_FLOW, PID_CORES, (unsigned)core, cycle, origin_cycle(origin), NULL, (uint32_t)at);
        if (tr->n == at + 2) {
            tr->ev[at + 1].pc = origin_pc(origin);
            tr->ev[at + 1].lane = (uint8_t)th; /* the thread, until a unit's slice claims it */
            tr->flow_open = at + 1;
        }
    }
}

void trace_held(struct tracer *tr, unsigned th, const char *reason, uint32_t detail, uint64_t start,
                uint64_t end)
{
    slice(tr, K_HELD, PID_THREADS, th, start, end, reason, detail);
}

void trace_unit(struct tracer *tr, const struct unit_desc *u, unsigned i, const char *what, unsigned th,
                uint64_t start, uint64_t end)
{
    for (unsigned k = 0; k < UNIT_COUNT; k++)
        if (unit_rows[k].desc == u && i < unit_rows[k].tracks) {
            size_t at = tr->n;
            slice(tr, K_UNIT, PID_UNITS, unit_rows[k].first_track + i, start, end, what, th);
            /* the instruction being accepted starts work here: its flow ends on this slice */
            if (tr->flow_open != SIZE_MAX && tr->n == at + 1) {
                struct trace_ev *fl = &tr->ev[tr->flow_open];
                if (fl->lane == th && fl->ts == start) {
                    fl->arg = (uint32_t)at;
                    tr->flow_open = SIZE_MAX;
                }
            }
            return;
        }
}


/* The stall keys of riscv/core.h, from its table (trace.o calls nothing of core.o, which calls it:
 * test/test_layers.c forbids the loop). */
static const char *const stall_key[STALL_COUNT] = {
#define X(name, key, text) [name] = key,
    CORE_STALL_REASONS(X)
#undef X
};

static void core_flush(struct tracer *tr, int core)
{
    int s = tr->core_state[core];
    if (s < 0)
        return;
    slice(tr, K_CORE, PID_CORES, (unsigned)core, tr->core_start[core], tr->core_end[core],
          s == TRACE_CORE_RUNNING ? "running" : s < STALL_COUNT ? stall_key[s] : "?", 0);
    tr->core_state[core] = -1;
}

void trace_core(struct tracer *tr, int core, unsigned state, uint64_t start, uint64_t end)
{
    if (end <= start)
        return;
    if (tr->core_state[core] == (int)state && tr->core_end[core] == start) {
        tr->core_end[core] = end;
        return;
    }
    core_flush(tr, core);
    tr->core_state[core] = (int)state;
    tr->core_start[core] = start;
    tr->core_end[core] = end;
}

void trace_fifos(struct tracer *tr, const struct tile *t, uint64_t cycle)
{
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        unsigned v[2] = {t->thread[i].fifo1.count, t->thread[i].fifo2.count};
        for (unsigned k = 0; k < 2; k++)
            if (v[k] != tr->fifo_last[i][k]) {
                tr->fifo_last[i][k] = v[k];
                add(tr, K_FIFO, PID_THREADS, 2 * i + k, cycle, v[k], NULL, 0);
            }
    }
}

void trace_l1_port(struct tracer *tr, unsigned port, uint64_t start, uint64_t end)
{
    if (end > start && end > tr->from && start < tr->to)
        add(tr, K_PORT, PID_CORES, port, start, end, NULL, 0);
}

void trace_noc(struct tracer *tr, bool rx, const char *what, uint64_t cycle)
{
    if (cycle >= tr->from && cycle < tr->to)
        add(tr, K_HOST, PID_NOC, rx, cycle, cycle, keep(tr, what), 0);
}

void trace_host(struct tracer *tr, const char *what, uint64_t cycle)
{
    if (cycle >= tr->from && cycle < tr->to)
        add(tr, K_HOST, PID_HOST, 0, cycle, cycle, keep(tr, what), 0);
}

void trace_zone(struct tracer *tr, unsigned th, const char *name, uint64_t start, uint64_t end)
{
    if (end > start && end > tr->from && start < tr->to)
        slice(tr, K_ZONE, PID_ZONES, th, start, end, keep(tr, name), 0);
}

void trace_region(struct tracer *tr, int core, unsigned id, uint64_t start, uint64_t end)
{
    if (end <= start || end <= tr->from || start >= tr->to || id >= REGION_IDS)
        return;
    if (!tr->region_name[id]) { /* named once per id, not once per region */
        char name[32];
        snprintf(name, sizeof name, "region %u", id);
        tr->region_name[id] = keep(tr, name);
    }
    slice(tr, K_ZONE, PID_REGIONS, (unsigned)core, start, end, tr->region_name[id], 0);
}

/* ---- writing ---- */

/* Slices and instants first, by track, then start, the longer first (a parent before what it
 * holds), then record order; then the counters' data and what the window dropped. */
static int by_track(const void *pa, const void *pb)
{
    const struct trace_ev *a = pa, *b = pb;
    int ra = a->kind > K_HOST, rb = b->kind > K_HOST;
    if (ra != rb)
        return ra - rb;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The name of base track (pid, tid), or NULL for none. */
static const char *track_name(int pid, unsigned tid, char *buf, size_t n)
{
    static const char *const threads[NUM_THREADS] = {"T0", "T1", "T2"};
    static const char *const zones[] = {"unpack", "math", "pack"};
    switch (pid) {
    case PID_CORES: return tid < NUM_CORES ? core_name((int)tid) : NULL;
    case PID_THREADS: return tid < NUM_THREADS ? threads[tid] : NULL;
    case PID_HOST: return tid == 0 ? "host" : NULL;
    case PID_NOC: return tid == 0 ? "sent" : tid == 1 ? "received" : NULL;
    case PID_ZONES: return tid < 3 ? zones[tid] : NULL;
    case PID_REGIONS: return tid < NUM_CORES ? core_name((int)tid) : NULL;
    case PID_UNITS:
        for (unsigned u = 0; u < UNIT_COUNT; u++) {
            const struct unit_row *r = &unit_rows[u];
            if (tid < r->first_track || tid >= r->first_track + r->tracks)
                continue;
            unsigned i = tid - r->first_track;
            if (r->desc && r->desc->track_label)
                snprintf(buf, n, "%s", r->desc->track_label(i));
            else if (r->tracks == 1)
                snprintf(buf, n, "%s", r->track_name);
            else
                snprintf(buf, n, "%s %u", r->track_name, i);
            return buf;
        }
        return NULL;
    }
    return NULL;
}

static void sep(struct tracer *tr, unsigned *count)
{
    fputs((*count)++ ? ",\n" : "\n", tr->f);
}

/* Metadata: the process, its base tracks and their lanes (lanes[tid]: how many, 0 when unused). */
static void write_process(struct tracer *tr, unsigned *count, int pid, const char *name, unsigned ntracks,
                          const uint8_t *lanes, bool only_used)
{
    sep(tr, count);
    fprintf(tr->f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"%s%s%s\"}}",
            pid + tr->pid_base, tr->prefix, tr->prefix[0] ? " " : "", name);
    sep(tr, count);
    fprintf(tr->f, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
            pid + tr->pid_base, pid + tr->pid_base);
    for (unsigned tid = 0; tid < ntracks; tid++) {
        char buf[64];
        const char *base = track_name(pid, tid, buf, sizeof buf);
        if (!base || (only_used && !lanes[tid]))
            continue;
        unsigned n = lanes[tid] ? lanes[tid] : 1;
        for (unsigned k = 0; k < n; k++) {
            unsigned t = tid + k * LANE_STRIDE;
            sep(tr, count);
            fprintf(tr->f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"name\":",
                    pid + tr->pid_base, t);
            if (k) {
                char lane[96];
                snprintf(lane, sizeof lane, "%s lane %u", base, k);
                json_str(tr->f, lane);
            } else {
                json_str(tr->f, base);
            }
            fputs("}}", tr->f);
            sep(tr, count);
            fprintf(tr->f,
                    "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
                    pid + tr->pid_base, t, tid * MAX_LANES + k);
        }
    }
}

static void write_event(struct tracer *tr, unsigned *count, const struct trace_ev *e)
{
    sep(tr, count);
    FILE *f = tr->f;
    if (e->kind == K_HOST) {
        fputs("{\"name\":", f);
        json_str(f, e->name);
        fprintf(f, ",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%" PRIu64 ",\"pid\":%d,\"tid\":%u}",
                e->pid == PID_NOC ? "noc" : "host", e->ts, e->pid + tr->pid_base, e->tid);
        return;
    }
    char dis[128];
    const char *name = e->name;
    int len = -1;
    if (e->kind == K_ISSUE) {
        tt_disasm(tr->arch_bit, e->arg, dis, sizeof dis);
        name = dis;
        len = (int)strcspn(dis, " ");
    }
    fputs("{\"name\":", f);
    if (len >= 0)
        fprintf(f, "\"%.*s\"", len, name); /* a mnemonic: nothing to escape */
    else
        json_str(f, name ? name : "?");
    fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"pid\":%d,\"tid\":%u",
            cat_name[e->kind], e->ts, e->end - e->ts, e->pid + tr->pid_base, e->tid);
    switch (e->kind) {
    case K_ISSUE: fputs(",\"args\":{\"insn\":", f), json_str(f, dis), fputc('}', f); break;
    case K_HELD: fprintf(f, ",\"args\":{\"detail\":%" PRIu32 "}", e->arg); break;
    case K_UNIT: fprintf(f, ",\"args\":{\"thread\":%" PRIu32 "}", e->arg); break;
    default: break;
    }
    fputc('}', f);
}

/* One point of a counter: a value from ts on (FIFO samples), or a change by +-1 (port bookings). */
struct cpoint {
    uint64_t ts;
    int64_t v;
    uint32_t series, seq;
};

static int by_series(const void *pa, const void *pb)
{
    const struct cpoint *a = pa, *b = pb;
    if (a->series != b->series)
        return a->series < b->series ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Counter series: FIFOs (thread, FIFO1/2) first, then the L1 ports. */
#define SERIES_PORT (2 * NUM_THREADS)
#define SERIES_COUNT (SERIES_PORT + L1_RISC_PORTS)

static void counter_event(struct tracer *tr, unsigned *count, unsigned s, uint64_t ts, int64_t v)
{
    char name[96];
    const char *unit;
    int pid;
    if (s < SERIES_PORT) {
        snprintf(name, sizeof name, "T%u FIFO%u occupancy", s / 2, s % 2 + 1);
        unit = "words", pid = PID_THREADS;
    } else {
        unsigned port = s - SERIES_PORT;
        int o = snprintf(name, sizeof name, "L1 port %u (", port);
        const char *comma = "";
        for (int c = 0; c < NUM_CORES; c++)
            if (tr->t->arch->l1_port[c] == port) {
                o += snprintf(name + o, sizeof name - (size_t)o, "%s%s", comma, core_name(c));
                comma = " ";
            }
        snprintf(name + o, sizeof name - (size_t)o, ")");
        unit = "busy", pid = PID_CORES;
    }
    sep(tr, count);
    fputs("{\"name\":", tr->f);
    json_str(tr->f, name);
    fprintf(tr->f, ",\"cat\":\"counter\",\"ph\":\"C\",\"ts\":%" PRIu64 ",\"pid\":%d,\"args\":{\"%s\":%" PRId64 "}}",
            ts, pid + tr->pid_base, unit, v);
}

/* The counters: each series' value at the window's start, then every change inside it. */
static bool write_counters(struct tracer *tr, unsigned *count)
{
    size_t n = 0;
    for (size_t i = 0; i < tr->n; i++)
        n += tr->ev[i].kind == K_FIFO ? 1 : tr->ev[i].kind == K_PORT ? 2 : 0;
    struct cpoint *p = malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return false;
    n = 0;
    for (size_t i = 0; i < tr->n; i++) {
        const struct trace_ev *e = &tr->ev[i];
        if (e->kind == K_FIFO) {
            p[n++] = (struct cpoint){e->ts, (int64_t)e->end, e->tid, (uint32_t)n};
        } else if (e->kind == K_PORT) {
            p[n++] = (struct cpoint){e->ts, 1, SERIES_PORT + e->tid, (uint32_t)n};
            p[n++] = (struct cpoint){e->end, -1, SERIES_PORT + e->tid, (uint32_t)n};
        }
    }
    qsort(p, n, sizeof *p, by_series);
    for (size_t i = 0; i < n;) {
        unsigned s = p[i].series;
        bool delta = s >= SERIES_PORT, shown = false;
        int64_t v = 0, last = 0;
        while (i < n && p[i].series == s) {
            uint64_t ts = p[i].ts;
            for (; i < n && p[i].series == s && p[i].ts == ts; i++)
                v = delta ? v + p[i].v : p[i].v;
            /* the value from ts on; before the window, only the last one counts */
            bool next_also_before = i < n && p[i].series == s && p[i].ts <= tr->from;
            if (ts >= tr->to || (ts <= tr->from && next_also_before))
                continue;
            if (!shown || v != last)
                counter_event(tr, count, s, ts < tr->from ? tr->from : ts, v);
            shown = true, last = v;
        }
    }
    free(p);
    return true;
}

/* ---- flows: a push to the slice of the unit that executes its first instruction ---- */

struct flow {
    uint64_t push, issue;
    uint32_t pc, seq;
    uint16_t stid, ftid; /* the s end's track (a core's), the f end's */
    uint8_t fpid;
};

struct flows {
    struct flow *v;
    size_t n;
    unsigned dropped; /* flows whose ends the window or the lanes lost */
};

static int by_push(const void *pa, const void *pb)
{
    const struct flow *a = pa, *b = pb;
    if (a->push != b->push)
        return a->push < b->push ? -1 : 1;
    if (a->stid != b->stid)
        return a->stid < b->stid ? -1 : 1;
    if (a->issue != b->issue)
        return a->issue < b->issue ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The slice (not an instant) on track (pid, tid) holding cycle c, among the n sorted slices; the
 * tracks searched (the cores') hold no nested slices, so the last one starting at or before c is
 * the only candidate. NULL if none. */
static const struct trace_ev *slice_at(const struct trace_ev *ev, size_t n, int pid, unsigned tid, uint64_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first event after (pid, tid, c) */
        size_t mid = (lo + hi) / 2;
        const struct trace_ev *e = &ev[mid];
        bool le = e->pid != pid ? e->pid < pid : e->tid != tid ? e->tid < tid : e->ts <= c;
        if (le)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const struct trace_ev *e = &ev[lo - 1];
    return e->pid == pid && e->tid == tid && e->kind < K_HOST && e->ts <= c && c < e->end ? e : NULL;
}

/* After the lanes: each flow's ends on their final tracks, in a fixed order. */
static bool resolve_flows(struct tracer *tr, const uint8_t *lanes, struct flows *fl)
{
    size_t nslices = 0, nflows = 0;
    while (nslices < tr->n && tr->ev[nslices].kind <= K_HOST)
        nslices++;
    for (size_t i = nslices; i < tr->n; i++)
        nflows += tr->ev[i].kind == K_FLOW;
    if (!nflows)
        return true;
    uint32_t *pos = malloc(tr->n * sizeof *pos);
    fl->v = malloc(nflows * sizeof *fl->v);
    if (!pos || !fl->v) {
        free(pos);
        return false;
    }
    for (size_t i = 0; i < tr->n; i++)
        pos[tr->ev[i].seq] = (uint32_t)i;
    for (size_t i = nslices; i < tr->n; i++) {
        const struct trace_ev *e = &tr->ev[i];
        if (e->kind != K_FLOW)
            continue;
        const struct trace_ev *to = &tr->ev[pos[e->arg]];
        const struct trace_ev *from = NULL;
        unsigned nl = lanes[PID_CORES * LANE_STRIDE + e->tid];
        for (unsigned k = 0; k < nl && !from; k++)
            from = slice_at(tr->ev, nslices, PID_CORES, e->tid + k * LANE_STRIDE, e->end);
        if (to->kind == K_GONE || to->ts > e->ts || e->ts >= to->end || !from) {
            fl->dropped++;
            continue;
        }
        fl->v[fl->n++] = (struct flow){e->end, e->ts, (uint32_t)e->pc, e->seq, from->tid, to->tid, to->pid};
    }
    free(pos);
    qsort(fl->v, fl->n, sizeof *fl->v, by_push);
    return true;
}

/* Each flow as an "s" on the pushing core's slice and an "f" bound to the enclosing slice
 * ("bp":"e") of the executing unit, ids 1, 2, ... in push order. Both at the middle of their
 * cycle, strictly inside the one-cycle slices, so no viewer binds them to a neighbour ending
 * or starting at the cycle's edge. */
static void write_flows(struct tracer *tr, unsigned *count, const struct flows *fl)
{
    for (size_t i = 0; i < fl->n; i++) {
        const struct flow *w = &fl->v[i];
        sep(tr, count);
        fprintf(tr->f,
                "{\"name\":\"push\",\"cat\":\"flow\",\"ph\":\"s\",\"id\":%zu,\"ts\":%" PRIu64
                ".5,\"pid\":%d,\"tid\":%u,\"args\":{\"pc\":\"0x%08" PRIx32 "\"}}",
                tr->doc->flows + i + 1, w->push, PID_CORES + tr->pid_base, w->stid, w->pc);
        sep(tr, count);
        fprintf(tr->f,
                "{\"name\":\"push\",\"cat\":\"flow\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%zu,\"ts\":%" PRIu64
                ".5,\"pid\":%d,\"tid\":%u}",
                tr->doc->flows + i + 1, w->issue, w->fpid + tr->pid_base, w->ftid);
    }
}

bool trace_end(struct tracer *tr)
{
    const struct tile *t = tr->t;
    /* the open runs, and the cores still blocked at the end (never woken) */
    for (int c = 0; c < NUM_CORES; c++) {
        core_flush(tr, c);
        const struct rv_core *rc = &t->core[c];
        if (rc->state == CORE_BLOCKED && t->cycles > rc->blocked_since) {
            trace_core(tr, c, core_blocked_stall(rc), rc->blocked_since, t->cycles);
            core_flush(tr, c);
        }
    }
    uint8_t *lanes = calloc(PID_END * LANE_STRIDE, 1);
    uint64_t(*stack)[MAX_DEPTH] = malloc(MAX_LANES * sizeof *stack);
    bool ok = !tr->oom && lanes && stack;
    unsigned dropped = 0;
    struct flows fl = {0};
    if (ok) {
        /* clip to the window (core runs also to the run's end: stalls are charged ahead) */
        for (size_t i = 0; i < tr->n; i++) {
            struct trace_ev *e = &tr->ev[i];
            if (e->kind > K_HOST)
                continue;
            uint64_t hi = e->kind == K_CORE && t->cycles && t->cycles < tr->to ? t->cycles : tr->to;
            if (e->kind == K_HOST) {
                if (e->ts < tr->from || e->ts >= hi)
                    e->kind = K_GONE;
                continue;
            }
            if (e->ts < tr->from)
                e->ts = tr->from;
            if (e->end > hi)
                e->end = hi;
            if (e->end <= e->ts)
                e->kind = K_GONE;
        }
        qsort(tr->ev, tr->n, sizeof *tr->ev, by_track);
        /* lanes: each slice on the lowest lane where it is disjoint from or nested in what is open */
        unsigned depth[MAX_LANES], nl = 0;
        int track = -1;
        for (size_t i = 0; i < tr->n; i++) {
            struct trace_ev *e = &tr->ev[i];
            if (e->kind > K_HOST)
                break;
            int here = e->pid * LANE_STRIDE + e->tid;
            if (!lanes[here])
                lanes[here] = 1;
            if (e->kind == K_HOST)
                continue;
            if (here != track)
                track = here, nl = 0;
            unsigned k = 0;
            for (; k < nl; k++) {
                while (depth[k] && stack[k][depth[k] - 1] <= e->ts)
                    depth[k]--;
                if (!depth[k] || (stack[k][depth[k] - 1] >= e->end && depth[k] < MAX_DEPTH))
                    break;
            }
            if (k == nl) {
                if (nl == MAX_LANES) {
                    e->kind = K_GONE, dropped++;
                    continue;
                }
                depth[nl++] = 0;
            }
            stack[k][depth[k]++] = e->end;
            if (lanes[here] < k + 1)
                lanes[here] = (uint8_t)(k + 1);
            e->lane = (uint8_t)k;
        }
        for (size_t i = 0; i < tr->n && tr->ev[i].kind <= K_HOST; i++)
            tr->ev[i].tid = (uint16_t)(tr->ev[i].tid + tr->ev[i].lane * LANE_STRIDE);
        qsort(tr->ev, tr->n, sizeof *tr->ev, by_track);
        ok = resolve_flows(tr, lanes, &fl);
    }
    FILE *f = tr->f;
    const bool whole = tr->doc == &tr->own; /* else a part: the document's begin and end are its own */
    unsigned count = tr->doc->count;
    if (!whole)
        goto events;
    fputs("{\"otherData\":{\"time_unit\":\"1 us = 1 cycle\"", f);
    if (tr->from)
        fprintf(f, ",\"trace_from\":%" PRIu64, tr->from);
    if (tr->to != TRACE_NO_END)
        fprintf(f, ",\"trace_to\":%" PRIu64, tr->to);
    if (dropped)
        fprintf(f, ",\"dropped_slices\":%u", dropped);
    if (fl.dropped)
        fprintf(f, ",\"dropped_flows\":%u", fl.dropped);
    fputs("},\"traceEvents\":[", f);
events:
    if (ok) {
        uint8_t *l = lanes;
        write_process(tr, &count, PID_CORES, "RISC-V cores", NUM_CORES, l + PID_CORES * LANE_STRIDE, false);
        write_process(tr, &count, PID_THREADS, "Tensix threads (Wait Gates)", NUM_THREADS,
                      l + PID_THREADS * LANE_STRIDE, false);
        write_process(tr, &count, PID_UNITS, "Backend units", TRACK_COUNT, l + PID_UNITS * LANE_STRIDE, false);
        if (l[PID_HOST * LANE_STRIDE])
            write_process(tr, &count, PID_HOST, "Host (run description)", 1, l + PID_HOST * LANE_STRIDE, true);
        bool zones = false;
        for (unsigned i = 0; i < 3; i++)
            zones |= l[PID_ZONES * LANE_STRIDE + i] != 0;
        if (zones)
            write_process(tr, &count, PID_ZONES, "tt-llk profiler zones (wall clock)", 3,
                          l + PID_ZONES * LANE_STRIDE, false);
        bool regions = false;
        for (unsigned i = 0; i < NUM_CORES; i++)
            regions |= l[PID_REGIONS * LANE_STRIDE + i] != 0;
        if (regions)
            write_process(tr, &count, PID_REGIONS, "Regions (tensim_region_begin/end)", NUM_CORES,
                          l + PID_REGIONS * LANE_STRIDE, false);
        if (l[PID_NOC * LANE_STRIDE] || l[PID_NOC * LANE_STRIDE + 1])
            write_process(tr, &count, PID_NOC, "NoC (packets of this tile's NIUs)", 2,
                          l + PID_NOC * LANE_STRIDE, true);
        for (size_t i = 0; i < tr->n && tr->ev[i].kind <= K_HOST; i++)
            write_event(tr, &count, &tr->ev[i]);
        ok = write_counters(tr, &count);
        write_flows(tr, &count, &fl);
        tr->doc->flows += fl.n;
    }
    tr->doc->count = count;
    if (whole)
        fputs("\n]}\n", f);
    free(fl.v);
    free(lanes);
    free(stack);
    free(tr->ev);
    for (size_t i = 0; i < tr->nstrs; i++)
        free(tr->strs[i]);
    free(tr->strs);
    tr->ev = NULL, tr->strs = NULL;
    tr->n = tr->cap = tr->nstrs = tr->capstrs = 0;
    return ok;
}
