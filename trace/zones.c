/* tt-llk's profiler zones (trace/zones.h). */
#include "zones.h"

#include <inttypes.h>
#include <string.h>

#include "../mem/l1.h"
#include "json.h"
#include "trace.h"

static const char *const thread_names[LLK_THREADS] = {"unpack", "math", "pack"};

const char *zone_thread_name(unsigned thread)
{
    return thread_names[thread];
}

uint16_t zone_id(const char *s, unsigned len)
{
    uint32_t h = 2166136261u; /* FNV-1a-32, folded to 16 bits as tt-llk's profiler.h does */
    for (unsigned i = 0; i < len; i++) {
        h ^= (uint8_t)s[i];
        h *= 16777619u;
    }
    return (uint16_t)(h ^ (h >> 16));
}

/* "LLK_PROFILER:file:line:marker": the file may hold ':' (a path), the marker may not. */
static void add_name(struct zone_name *names, unsigned *nnames, unsigned max, const char *s,
                     unsigned len)
{
    static const char prefix[] = "LLK_PROFILER:";
    if (*nnames == max || len < sizeof prefix || memcmp(s, prefix, sizeof prefix - 1))
        return;
    const char *end = s + len, *m = end;
    while (m > s && m[-1] != ':')
        m--;
    const char *l = m - 1;
    while (l > s && l[-1] != ':')
        l--;
    const char *file = s + sizeof prefix - 1;
    if (l <= file)
        return;
    uint16_t id = zone_id(s, len);
    for (unsigned i = 0; i < *nnames; i++)
        if (names[i].id == id)
            return; /* the same string in another TRISC's program */
    struct zone_name *n = &names[(*nnames)++];
    n->id = id;
    snprintf(n->marker, sizeof n->marker, "%.*s", (int)(end - m), m);
    snprintf(n->file, sizeof n->file, "%.*s", (int)(l - 1 - file), file);
    n->line = 0;
    for (const char *p = l; p < m - 1 && *p >= '0' && *p <= '9'; p++)
        n->line = n->line * 10 + (unsigned)(*p - '0');
}

unsigned zone_names_read(const struct elf_file *f, struct zone_name *names, unsigned n,
                         unsigned max)
{
    uint32_t addr, size;
    const uint8_t *b;
    if (!f->buf || !elf_find_section(f, ".profiler_meta", &addr, &size, &b) || !b)
        return n;
    for (uint32_t i = 0; i < size;) {
        uint32_t k = i;
        while (k < size && b[k])
            k++;
        if (k > i)
            add_name(names, &n, max, (const char *)b + i, k - i);
        i = k + 1;
    }
    return n;
}

static int name_of(const struct zones *z, uint16_t id)
{
    for (unsigned i = 0; i < z->nnames; i++)
        if (z->names[i].id == id)
            return (int)i;
    return -1;
}

static void add(struct zones *z, struct zone e)
{
    if (z->n == ZONES_MAX) {
        z->unmatched++;
        return;
    }
    e.name = name_of(z, e.id);
    z->z[z->n++] = e;
}

static void read_buffer(struct zones *z, unsigned th, const uint8_t *buf, uint32_t words)
{
    struct open_zone { uint16_t id; uint64_t start; } open[ZONE_DEPTH_MAX];
    unsigned depth = 0;
    for (uint32_t i = 0; i + 1 < words;) {
        uint32_t w0 = le_get(buf + 4 * i, 4), w1 = le_get(buf + 4 * i + 4, 4);
        if (!(w0 & 0x80000000u))
            break;
        unsigned type = w0 >> 28;
        uint16_t id = (uint16_t)(w0 >> 12);
        uint64_t ts = (uint64_t)(w0 & 0xFFFu) << 32 | w1;
        i += 2;
        switch (type) {
        case ZONE_START:
            if (depth < ZONE_DEPTH_MAX)
                open[depth++] = (struct open_zone){id, ts};
            else
                z->unmatched++;
            break;
        case ZONE_END:
            if (depth && open[depth - 1].id == id) {
                depth--;
                add(z, (struct zone){.thread = (uint8_t)th, .type = ZONE_START, .id = id,
                                     .start = open[depth].start, .end = ts});
            } else {
                z->unmatched++;
            }
            break;
        case ZONE_TIMESTAMP_DATA: {
            uint64_t data = 0;
            if (i + 1 < words)
                data = (uint64_t)le_get(buf + 4 * i, 4) << 32 | le_get(buf + 4 * i + 4, 4);
            i += 2;
            add(z, (struct zone){.thread = (uint8_t)th, .type = (uint8_t)type, .id = id,
                                 .start = ts, .end = ts, .data = data});
            break;
        }
        default: /* ZONE_TIMESTAMP */
            add(z, (struct zone){.thread = (uint8_t)th, .type = (uint8_t)type, .id = id,
                                 .start = ts, .end = ts});
            break;
        }
    }
    z->unmatched += depth;
}

void zones_read(struct zones *z, const uint8_t *l1, const struct llk_layout *l,
                const struct elf_file elf[LLK_THREADS])
{
    memset(z, 0, sizeof *z);
    for (unsigned th = 0; th < LLK_THREADS; th++)
        z->nnames = zone_names_read(&elf[th], z->names, z->nnames, ZONE_NAMES_MAX);
    for (unsigned th = 0; th < LLK_THREADS; th++)
        read_buffer(z, th, l1 + l->profiler_buffer[th], l->profiler_words);
}

static const char *type_name(unsigned type)
{
    return type == ZONE_START ? "zone" : type == ZONE_TIMESTAMP_DATA ? "timestamp_data" : "timestamp";
}

void zones_json(const struct zones *z, FILE *f)
{
    fprintf(f, "  \"zones\": [");
    for (unsigned i = 0; i < z->n; i++) {
        const struct zone *e = &z->z[i];
        const struct zone_name *n = e->name >= 0 ? &z->names[e->name] : 0;
        fprintf(f, "%s\n    {\"thread\": \"%s\", \"type\": \"%s\", \"marker\": ", i ? "," : "",
                thread_names[e->thread], type_name(e->type));
        json_str(f, n ? n->marker : "");
        fprintf(f, ", \"file\": ");
        json_str(f, n ? n->file : "");
        fprintf(f, ", \"line\": %u, \"id\": %u, \"start\": %" PRIu64 ", \"end\": %" PRIu64
                   ", \"cycles\": %" PRIu64,
                n ? n->line : 0, e->id, e->start, e->end, e->end - e->start);
        if (e->type == ZONE_TIMESTAMP_DATA)
            fprintf(f, ", \"data\": %" PRIu64, e->data);
        fprintf(f, "}");
    }
    fprintf(f, "%s],\n  \"zones_unmatched\": %u,\n", z->n ? "\n  " : "", z->unmatched);
}

/* A CSV field: quoted when it holds a comma or a quote. */
static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void zones_csv(const struct zones *z, FILE *f)
{
    fprintf(f, "thread,type,marker,file,line,id,start,end,cycles,data\n");
    for (unsigned i = 0; i < z->n; i++) {
        const struct zone *e = &z->z[i];
        const struct zone_name *n = e->name >= 0 ? &z->names[e->name] : 0;
        fprintf(f, "%s,%s,", thread_names[e->thread], type_name(e->type));
        csv_str(f, n ? n->marker : "");
        fputc(',', f);
        csv_str(f, n ? n->file : "");
        fprintf(f, ",%u,0x%04x,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", n ? n->line : 0, e->id,
                e->start, e->end, e->end - e->start);
        if (e->type == ZONE_TIMESTAMP_DATA)
            fprintf(f, "%" PRIu64, e->data);
        fputc('\n', f);
    }
}

void zones_trace(const struct zones *z, struct tracer *tr)
{
    for (unsigned i = 0; i < z->n; i++)
        if (z->z[i].type == ZONE_START)
            trace_zone(tr, z->z[i].thread, z->z[i].name >= 0 ? z->names[z->z[i].name].marker : "?",
                       z->z[i].start, z->z[i].end);
}

void zones_report(const struct zones *z, FILE *f)
{
    unsigned shown = 0;
    for (unsigned i = 0; i < z->n; i++) {
        const struct zone *e = &z->z[i];
        if (e->type != ZONE_START)
            continue;
        if (!shown++)
            fprintf(f, "profiler zones (tt-llk)    start        end     cycles\n");
        char name[80];
        snprintf(name, sizeof name, "%s %s", thread_names[e->thread],
                 e->name >= 0 ? z->names[e->name].marker : "?");
        fprintf(f, "  %-22s %9" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", name, e->start, e->end,
                e->end - e->start);
    }
    if (z->unmatched)
        fprintf(f, "  (%u markers without their other half, or past the buffers)\n", z->unmatched);
}
