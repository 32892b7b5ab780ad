/* tensim run --trace on a chip (docs/user-guide.md "The trace format", "A chip's trace"): one
 * document with every tile's processes, named with the tile's place and on pids of their own,
 * the NIU's packets as instants on each tile's "NoC" process (ported from a helper's branch to
 * this implementation's names), and the same bytes at any -j.
 *
 * The programs are built here (harness.h's emitters into a scratch tile's L1, then written as
 * ELF files with elfgen.h): tile (1, 2)'s BRISC posts a 64-byte write to its east neighbour
 * (2, 2), which test_chip.c establishes arrives 20 cycles after the NOC_CMD_CTRL store. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfgen.h"
#include "harness.h"
#include "trace_check.h"

#define NOC0 0xFFB20000u
#define XY(x, y) ((uint32_t)(x) | (uint32_t)(y) << 6)

/* (1, 2)'s program: a posted write of 64 bytes from 0x20000 to (2, 2)'s 0x30000, then exit 0. */
static void write_sender(const char *path)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0x6000);
    emit_store(&p, NOC0 + 0x00, 0x20000);   /* NOC_TARG_ADDR_LO: a write's source, here */
    emit_store(&p, NOC0 + 0x08, XY(1, 2));
    emit_store(&p, NOC0 + 0x0C, 0x30000);   /* NOC_RET_ADDR_*: its destination */
    emit_store(&p, NOC0 + 0x10, 0);
    emit_store(&p, NOC0 + 0x14, XY(2, 2));
    emit_store(&p, NOC0 + 0x1C, 0x2);       /* NOC_CTRL: a write, posted */
    emit_store(&p, NOC0 + 0x20, 64);        /* NOC_AT_LEN_BE: the length */
    emit_store(&p, NOC0 + 0x28, 0);
    emit_store(&p, NOC0 + 0x40, 1);         /* NOC_CMD_CTRL: send */
    emit_exit(&p);
    uint8_t data[64];
    for (unsigned i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 1);
    const struct elfgen_seg segs[] = {{0x6000, t->l1 + 0x6000, p.pc - 0x6000, p.pc - 0x6000},
                                      {0x20000, data, sizeof data, sizeof data}};
    cr_assert_eq(elfgen_write(path, 0x6000, segs, 2), 0);
    tile_destroy(t);
}

static void write_exit0(const char *path)
{
    const uint32_t words[] = ELFGEN_EXIT(0);
    const struct elfgen_seg seg = {0x6000, words, sizeof words, sizeof words};
    cr_assert_eq(elfgen_write(path, 0x6000, &seg, 1), 0);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    cr_assert(b);
    cr_assert_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    b[len] = 0;
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* The pid of the process named `name`, or -1. */
static json_int_t pid_of(json_t *evs, const char *name)
{
    size_t i;
    json_t *e;
    json_array_foreach(evs, i, e) {
        json_t *args = json_object_get(e, "args");
        if (!strcmp(json_string_value(json_object_get(e, "name")) ?: "", "process_name") &&
            !strcmp(json_string_value(json_object_get(args, "name")) ?: "", name))
            return json_integer_value(json_object_get(e, "pid"));
    }
    return -1;
}

/* The ts of the one instant named `name` on pid `pid`; -1 if none. */
static json_int_t instant(json_t *evs, json_int_t pid, const char *name)
{
    size_t i;
    json_t *e;
    json_int_t ts = -1;
    json_array_foreach(evs, i, e) {
        if (json_integer_value(json_object_get(e, "pid")) != pid ||
            strcmp(json_string_value(json_object_get(e, "name")) ?: "", name) ||
            strcmp(json_string_value(json_object_get(e, "ph")) ?: "", "i"))
            continue;
        cr_expect_str_eq(json_string_value(json_object_get(e, "cat")), "noc");
        cr_expect_eq(ts, -1, "%s twice", name);
        ts = json_integer_value(json_object_get(e, "ts"));
    }
    return ts;
}

Test(chip_trace, one_document_with_every_tile_and_its_noc_packets)
{
    const char *sender = "/tmp/tensim-ctrace-send.elf", *idle = "/tmp/tensim-ctrace-exit0.elf";
    const char *desc = "/tmp/tensim-ctrace.json";
    write_sender(sender);
    write_exit0(idle);
    FILE *f = fopen(desc, "w");
    cr_assert(f);
    fprintf(f, "{\"tensim_run\": 1, \"chip\": {\"tiles\": [{\"at\": [1, 2], \"programs\": {\"brisc\": \"%s\"}}, "
            "{\"at\": [2, 2], \"programs\": {\"brisc\": \"%s\"}}]}}", sender, idle);
    fclose(f);
    char out[8192];
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q -j 1 --no-pin --run %s --trace /tmp/tensim-ctrace-1.json",
                             desc), 0, "%s", out);
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q -j 2 --no-pin --run %s --trace /tmp/tensim-ctrace-2.json",
                             desc), 0, "%s", out);
    size_t n1, n2;
    char *a = slurp("/tmp/tensim-ctrace-1.json", &n1), *b = slurp("/tmp/tensim-ctrace-2.json", &n2);
    cr_expect(n1 == n2 && !memcmp(a, b, n1), "the trace differs between -j 1 and -j 2");
    json_error_t err;
    json_t *tr = json_loads(a, 0, &err);
    cr_assert(tr, "not JSON: %s (line %d)", err.text, err.line);
    json_t *evs = json_object_get(tr, "traceEvents");
    cr_assert(json_is_array(evs));
    json_int_t c1 = pid_of(evs, "tile (1, 2) RISC-V cores"), c2 = pid_of(evs, "tile (2, 2) RISC-V cores");
    json_int_t n1p = pid_of(evs, "tile (1, 2) NoC (packets of this tile's NIUs)"), n2p = pid_of(evs, "tile (2, 2) NoC (packets of this tile's NIUs)");
    cr_assert(c1 > 0 && c2 > 0 && n1p > 0 && n2p > 0, "pids %lld %lld %lld %lld", (long long)c1,
              (long long)c2, (long long)n1p, (long long)n2p);
    cr_expect(c1 != c2 && n1p != n2p && c1 != n2p && c2 != n1p);
    cr_expect(pid_of(evs, "tile (2, 2) Tensix threads (Wait Gates)") > 0);
    json_int_t sent = instant(evs, n1p, "NoC 0 posted write out, 64 B, to (2, 2)");
    json_int_t got = instant(evs, n2p, "NoC 0 posted write in, 64 B, at 0x30000");
    cr_assert(sent > 0 && got > 0, "sent %lld, arrived %lld", (long long)sent, (long long)got);
    cr_expect_eq(got - sent, 5 + 9 + 5 + 1, "sent %lld, arrived %lld", (long long)sent, (long long)got);
    /* The links it held, each a track of the "NoC links" process: its two flits (header and
     * 64 bytes) leave the NIU in cycles sent and sent + 1, cross (1, 2)'s east link 5 cycles
     * later (NIU to router) and (2, 2)'s eject link 9 after that (router to router). */
    json_int_t lp = pid_of(evs, "NoC links (busy while a packet holds them)");
    cr_assert(lp > 0);
    static const struct { const char *track; int at; } held[] = {
        {"NoC 0 (1, 2) inject", 0}, {"NoC 0 (1, 2) x", 5}, {"NoC 0 (2, 2) eject", 14}};
    for (unsigned k = 0; k < 3; k++) {
        json_int_t tid = -1;
        size_t i;
        json_t *e;
        json_array_foreach(evs, i, e) {
            const char *nm = json_string_value(json_object_get(e, "name"));
            if (nm && !strcmp(nm, "thread_name") && json_integer_value(json_object_get(e, "pid")) == lp &&
                !strcmp(json_string_value(json_object_get(json_object_get(e, "args"), "name")), held[k].track))
                tid = json_integer_value(json_object_get(e, "tid"));
        }
        cr_assert(tid >= 0, "no track %s", held[k].track);
        unsigned slices = 0;
        json_array_foreach(evs, i, e) {
            if (json_integer_value(json_object_get(e, "pid")) != lp || json_integer_value(json_object_get(e, "tid")) != tid ||
                strcmp(json_string_value(json_object_get(e, "ph")), "X"))
                continue;
            slices++;
            cr_expect_eq(json_integer_value(json_object_get(e, "ts")), sent + held[k].at, "%s", held[k].track);
            cr_expect_eq(json_integer_value(json_object_get(e, "dur")), 2, "%s", held[k].track);
        }
        cr_expect_eq(slices, 1u, "%s", held[k].track);
    }
    json_decref(tr);
    struct trace_summary sum;
    char why[512];
    cr_expect(trace_check(a, &sum, why, sizeof why), "%s", why);
    free(a);
    free(b);
}

/* A busy chip's trace keeps the format's rules, and each link's busy slices add up to its busy
 * cycles in --stats. */
Test(chip_trace, link_tracks_add_up_to_the_link_stats, .timeout = 120)
{
    char out[8192];
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q --run build/kernels/chip/alltoall/run.json "
                             "--trace /tmp/tensim-ctrace-a2a.json --stats /tmp/tensim-ctrace-a2a-stats.json"),
                 0, "%s", out);
    size_t n;
    char *text = slurp("/tmp/tensim-ctrace-a2a.json", &n);
    struct trace_summary sum;
    char why[512];
    cr_expect(trace_check(text, &sum, why, sizeof why), "%s", why);
    json_error_t err;
    json_t *tr = json_loads(text, 0, &err), *st = json_load_file("/tmp/tensim-ctrace-a2a-stats.json", 0, &err);
    cr_assert(tr && st);
    json_t *evs = json_object_get(tr, "traceEvents");
    const json_int_t lp = pid_of(evs, "NoC links (busy while a packet holds them)");
    cr_assert(lp > 0);
    /* every link with busy cycles in the stats: its track's slices sum to them */
    size_t i, j;
    json_t *l, *e;
    unsigned links = 0;
    json_array_foreach(json_object_get(json_object_get(st, "chip"), "links"), i, l) {
        const json_int_t busy = json_integer_value(json_object_get(l, "busy"));
        if (!busy)
            continue;
        char name[64];
        json_t *at = json_object_get(l, "at");
        snprintf(name, sizeof name, "NoC %lld (%lld, %lld) %s", (long long)json_integer_value(json_object_get(l, "noc")),
                 (long long)json_integer_value(json_array_get(at, 0)), (long long)json_integer_value(json_array_get(at, 1)),
                 json_string_value(json_object_get(l, "link")));
        json_int_t tid = -1, sum_dur = 0;
        json_array_foreach(evs, j, e) {
            const char *nm = json_string_value(json_object_get(e, "name"));
            if (nm && !strcmp(nm, "thread_name") && json_integer_value(json_object_get(e, "pid")) == lp &&
                !strcmp(json_string_value(json_object_get(json_object_get(e, "args"), "name")), name))
                tid = json_integer_value(json_object_get(e, "tid"));
        }
        cr_assert(tid >= 0, "no track for %s", name);
        json_array_foreach(evs, j, e)
            if (json_integer_value(json_object_get(e, "pid")) == lp && json_integer_value(json_object_get(e, "tid")) == tid &&
                !strcmp(json_string_value(json_object_get(e, "ph")), "X"))
                sum_dur += json_integer_value(json_object_get(e, "dur"));
        cr_expect_eq(sum_dur, busy, "%s", name);
        links++;
    }
    cr_expect_gt(links, 50u, "all-to-all uses many links");
    json_decref(tr);
    json_decref(st);
    free(text);
}
