/* build/difftest: the differential test of the matrix unit, unpackers, packer and vector unit
 * against Tenstorrent's functional simulator ttsim (docs/numerics.md, docs/sfpu.md "Checking
 * against ttsim").
 *
 *   difftest --ttsim-bh LIB --ttsim-wh LIB [options]   compare tensim with ttsim, case by case
 *   difftest --ttsim-bh LIB --ttsim-wh LIB --record F  the same, writing ttsim's output hashes
 *   difftest --check F                                 compare tensim with recorded hashes
 *   difftest --exact                                   tensim alone against exact arithmetic
 *                                                      (int data only)
 * Exit status: 0 everything agreed, 1 an output differed, 2 bad usage or file, 3 a simulator
 * failed or refused a case. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "ttsim.h"

struct opts {
    const char *lib[2]; /* [0] Blackhole, [1] Wormhole */
    bool arch[2];
    bool data[DATA_COUNT];
    unsigned seeds, first_seed;
    const char *filter, *record, *check, *kernels, *label, *tiles;
    unsigned examples;
    bool exact, verbose, list;
};

struct tally {
    unsigned runs, differ, failed, exact_bad, checked;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: difftest [--ttsim-bh LIB] [--ttsim-wh LIB] [--record FILE | --check FILE | --exact]\n"
            "                [--arch bh,wh] [--data rand,edge,int] [--seeds N] [--first-seed S]\n"
            "                [--filter TEXT] [--kernels DIR] [--examples N] [--label TEXT]\n"
            "                [--tiles FILE] [--list] [-v]\n"
            "Runs the differential cases (docs/numerics.md \"Checking against ttsim\"):\n"
            "  with ttsim libraries   tensim and ttsim on every case, outputs compared bit for bit\n"
            "  --record FILE          also write ttsim's output hashes to FILE\n"
            "  --label TEXT           which ttsim that is, for the record's header\n"
            "  --tiles FILE           with --record: ttsim's full output of a few runs to FILE;\n"
            "                         with --check: tensim against those, datum by datum\n"
            "  --check FILE           tensim against the hashes in FILE (no ttsim needed)\n"
            "  --exact                tensim alone, int data, against exact arithmetic\n"
            "  --arch, --data         which architectures and data kinds (default all)\n"
            "  --seeds N              N seeds of each (default 3), from --first-seed (default 1)\n"
            "  --filter TEXT          only cases whose name contains TEXT\n"
            "  --kernels DIR          where difftest-{bh,wh}.elf are (default build/kernels)\n"
            "  --examples N           differing datums shown per case (default 4)\n"
            "  --list                 print the case names and stop\n"
            "Exit status: 0 all agreed, 1 an output differed, 2 usage, 3 a simulator failed.\n");
}

static int parse_list(const char *s, const char *const *names, unsigned n, bool *out)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = 0, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(0, ",", &save)) {
        unsigned i = 0;
        while (i < n && strcmp(tok, names[i]))
            i++;
        if (i == n)
            return -1;
        out[i] = true;
    }
    return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
    static const struct option lo[] = {
        {"ttsim-bh", 1, 0, 'B'}, {"ttsim-wh", 1, 0, 'W'}, {"record", 1, 0, 'r'},
        {"check", 1, 0, 'c'},    {"exact", 0, 0, 'x'},    {"arch", 1, 0, 'a'},
        {"data", 1, 0, 'd'},     {"seeds", 1, 0, 's'},    {"filter", 1, 0, 'f'},
        {"kernels", 1, 0, 'k'},  {"examples", 1, 0, 'e'}, {"list", 0, 0, 'l'},
        {"verbose", 0, 0, 'v'},  {"help", 0, 0, 'h'},     {"label", 1, 0, 'L'},
        {"first-seed", 1, 0, 'S'}, {"tiles", 1, 0, 'T'},  {0, 0, 0, 0}};
    static const char *const archs[] = {"bh", "wh"}, *const datas[] = {"rand", "edge", "int"};
    *o = (struct opts){.seeds = 3, .first_seed = 1, .kernels = "build/kernels", .examples = 4};
    bool any_arch = false, any_data = false;
    int c;
    char *end;
    while ((c = getopt_long(argc, argv, "vh", lo, 0)) != -1) {
        switch (c) {
        case 'B': o->lib[0] = optarg; break;
        case 'W': o->lib[1] = optarg; break;
        case 'r': o->record = optarg; break;
        case 'c': o->check = optarg; break;
        case 'x': o->exact = true; break;
        case 'f': o->filter = optarg; break;
        case 'k': o->kernels = optarg; break;
        case 'L': o->label = optarg; break;
        case 'T': o->tiles = optarg; break;
        case 'l': o->list = true; break;
        case 'v': o->verbose = true; break;
        case 'h': usage(stdout); exit(0);
        case 'a':
            if (parse_list(optarg, archs, 2, o->arch))
                return fprintf(stderr, "difftest: --arch takes bh, wh or bh,wh\n"), -1;
            any_arch = true;
            break;
        case 'd':
            if (parse_list(optarg, datas, DATA_COUNT, o->data))
                return fprintf(stderr, "difftest: --data takes a list of rand, edge, int\n"), -1;
            any_data = true;
            break;
        case 's': case 'e': case 'S': {
            unsigned long v = strtoul(optarg, &end, 10);
            const char *opt = c == 's' ? "seeds" : c == 'S' ? "first-seed" : "examples";
            if (*end || !*optarg || v > 1000000 || (c != 'e' && !v))
                return fprintf(stderr, "difftest: --%s takes a number%s\n", opt,
                               c != 'e' ? " from 1 to 1000000" : ""), -1;
            *(c == 's' ? &o->seeds : c == 'S' ? &o->first_seed : &o->examples) = (unsigned)v;
            break;
        }
        default: usage(stderr); return -1;
        }
    }
    if (optind < argc)
        return fprintf(stderr, "difftest: unexpected argument %s\n", argv[optind]), -1;
    for (int i = 0; i < 2 && !any_arch; i++)
        o->arch[i] = true;
    for (int i = 0; i < DATA_COUNT && !any_data; i++)
        o->data[i] = true;
    int modes = !!o->check + !!o->exact + (o->lib[0] || o->lib[1]);
    if (!o->list && modes != 1)
        return fprintf(stderr, "difftest: give ttsim libraries, --check FILE or --exact (one of them)\n"), -1;
    if (o->record && !(o->lib[0] || o->lib[1]))
        return fprintf(stderr, "difftest: --record needs ttsim libraries\n"), -1;
    if (o->tiles && !o->record && !o->check)
        return fprintf(stderr, "difftest: --tiles goes with --record or --check\n"), -1;
    return 0;
}

static const char *elf_of(const struct opts *o, int wh)
{
    static char path[2][512];
    snprintf(path[wh], sizeof path[wh], "%s/difftest-%s.elf", o->kernels, wh ? "wh" : "bh");
    return path[wh];
}

/* int data: a result against the exact one */
static unsigned exact_check(const struct dt_inputs *in, const struct dt_result *r, const char *who,
                            const struct opts *o)
{
    if (!in->has_exact || !r->ok)
        return 0;
    static uint8_t want[DT_MAX_OUT];
    for (unsigned i = 0; i < in->out_len / in->out_bytes; i++)
        for (unsigned k = 0; k < in->out_bytes; k++)
            want[i * in->out_bytes + k] = (uint8_t)(in->exact[i] >> 8 * k);
    return dt_compare(in, r->out, who, want, "exact", o->examples, stdout);
}

static bool wanted(const struct opts *o, const char *name)
{
    return !o->filter || strstr(name, o->filter);
}

/* One case, data kind and seed on tensim and, unless checking, ttsim. */
/* Whether run (name, d, seed) is one of those recorded in full. */
static bool full_tile_run(const char *name, enum dt_data d, unsigned seed)
{
    for (unsigned i = 0; dt_tile_runs[i][0]; i++)
        if (!strcmp(dt_tile_runs[i][0], name) && !strcmp(dt_tile_runs[i][1], dt_data_name(d)) &&
            (unsigned)atoi(dt_tile_runs[i][2]) == seed)
            return true;
    return false;
}

static void run_one(const struct opts *o, int wh, const struct dt_case *c, const char *name,
                    enum dt_data d, unsigned seed, const uint64_t *want_hash, FILE *rec, FILE *tiles,
                    struct tally *t)
{
    static struct dt_inputs in;
    static struct dt_result ts, tt;
    char label[160];
    snprintf(label, sizeof label, "%s %s %s %u", wh ? "wh" : "bh", name, dt_data_name(d), seed);
    t->runs++;
    dt_inputs(c, d, seed, true, &in);
    dt_run_tensim(wh, elf_of(o, wh), &in, &ts);
    if (!ts.ok) {
        printf("%s: %s\n", label, ts.why);
        t->failed++;
        return;
    }
    unsigned bad = exact_check(&in, &ts, "tensim", o);
    if (bad) {
        printf("%s: tensim differs from the exact result in %u datums\n", label, bad);
        t->exact_bad++;
    }
    if (want_hash) {
        uint64_t h = dt_hash(ts.out, in.out_len);
        t->checked++;
        if (h != *want_hash) {
            printf("%s: tensim's output hash %016" PRIx64 " is not the recorded %016" PRIx64 "\n",
                   label, h, *want_hash);
            t->differ++;
        } else if (o->verbose)
            printf("%s: as recorded\n", label);
        return;
    }
    if (!o->lib[wh])
        return;
    dt_inputs(c, d, seed, false, &in); /* ttsim cannot take the exit ecall */
    dt_run_ttsim(o->lib[wh], wh, elf_of(o, wh), &in, &tt);
    if (!tt.ok) {
        printf("%s: %s\n", label, tt.why);
        t->failed++;
        return;
    }
    if (exact_check(&in, &tt, "ttsim", o)) {
        printf("%s: ttsim differs from the exact result\n", label);
        t->exact_bad++;
    }
    t->checked++;
    if (rec)
        fprintf(rec, "%s %016" PRIx64 "\n", label, dt_hash(tt.out, in.out_len));
    if (tiles && full_tile_run(name, d, seed))
        dt_tile_write(tiles, wh ? "wh" : "bh", name, dt_data_name(d), seed, &in, tt.out);
    char head[200];
    snprintf(head, sizeof head, "%s: ", label);
    unsigned n = dt_compare(&in, tt.out, "ttsim", ts.out, "tensim", 0, 0);
    if (n) {
        printf("%s%u of %u datums differ\n", head, n, in.out_len / in.out_bytes);
        dt_compare(&in, tt.out, "ttsim", ts.out, "tensim", o->examples, stdout);
        t->differ++;
    } else if (o->verbose)
        printf("%sequal\n", head);
}

/* --check with --tiles: tensim against ttsim's full recorded outputs */
static int check_tiles(const struct opts *o, struct tally *t)
{
    FILE *f = fopen(o->tiles, "r");
    if (!f)
        return fprintf(stderr, "difftest: cannot read %s\n", o->tiles), -1;
    static struct dt_tile_rec rec;
    static struct dt_inputs in;
    static struct dt_result r;
    static uint8_t want[64 * 16 * 4];
    int got;
    while ((got = dt_tile_read(f, &rec)) == 1) {
        int wh = !strcmp(rec.arch, "wh"), d = dt_data_by_name(rec.data);
        const struct dt_case *c = dt_case_by_name(rec.name);
        if (!c || d < 0)
            break;
        if (!o->arch[wh] || !o->data[d] || !wanted(o, rec.name))
            continue;
        dt_inputs(c, (enum dt_data)d, rec.seed, true, &in);
        dt_run_tensim(wh, elf_of(o, wh), &in, &r);
        t->runs++;
        if (!r.ok) {
            printf("%s %s %s %u: %s\n", rec.arch, rec.name, rec.data, rec.seed, r.why);
            t->failed++;
            continue;
        }
        t->checked++;
        dt_tile_bytes(&rec, want);
        unsigned n = dt_compare(&in, want, "ttsim", r.out, "tensim", 0, 0);
        if (n) {
            printf("%s %s %s %u: %u of 1024 datums differ from ttsim's tile\n", rec.arch, rec.name,
                   rec.data, rec.seed, n);
            dt_compare(&in, want, "ttsim", r.out, "tensim", o->examples, stdout);
            t->differ++;
        } else if (o->verbose)
            printf("%s %s %s %u: the whole tile equal\n", rec.arch, rec.name, rec.data, rec.seed);
    }
    fclose(f);
    if (got)
        return fprintf(stderr, "difftest: %s: not a tile record (%s)\n", o->tiles, rec.name), -1;
    return 0;
}

static int check_file(const struct opts *o, struct tally *t)
{
    FILE *f = fopen(o->check, "r");
    if (!f)
        return fprintf(stderr, "difftest: cannot read %s\n", o->check), -1;
    unsigned lineno = 0;
    char line[400];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char arch[8], name[160], data[16];
        unsigned seed;
        uint64_t h;
        int d;
        if (sscanf(line, "%7s %159s %15s %u %" SCNx64, arch, name, data, &seed, &h) != 5 ||
            (strcmp(arch, "bh") && strcmp(arch, "wh")) || (d = dt_data_by_name(data)) < 0) {
            fclose(f);
            return fprintf(stderr, "difftest: %s:%u: not a record line\n", o->check, lineno), -1;
        }
        int wh = !strcmp(arch, "wh");
        if (!o->arch[wh] || !o->data[d] || !wanted(o, name))
            continue;
        const struct dt_case *c = dt_case_by_name(name);
        if (!c) {
            fclose(f);
            return fprintf(stderr, "difftest: %s:%u: no case %s\n", o->check, lineno, name), -1;
        }
        run_one(o, wh, c, name, (enum dt_data)d, seed, &h, 0, 0, t);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    if (parse(argc, argv, &o))
        return 2;
    setvbuf(stdout, 0, _IOLBF, 0);
    const struct dt_case *cs;
    unsigned nc = dt_matrix(&cs);
    char name[160];
    if (o.list) {
        for (unsigned i = 0; i < nc; i++) {
            dt_case_name(&cs[i], name, sizeof name);
            if (wanted(&o, name))
                printf("%s\n", name);
        }
        return 0;
    }
    struct tally t = {0};
    if (o.check) {
        if (check_file(&o, &t) || (o.tiles && check_tiles(&o, &t)))
            return 2;
    } else {
        FILE *rec = 0, *tiles = 0;
        if (o.tiles && o.record && !(tiles = fopen(o.tiles, "w")))
            return fprintf(stderr, "difftest: cannot write %s\n", o.tiles), 2;
        if (tiles)
            fprintf(tiles, "# ttsim's whole output of a few runs (Dst rows 0..63, 16 datums a row),\n"
                           "# written by build/difftest --record --tiles; ttsim: %s\n",
                    o.label ? o.label : "(not labelled)");
        if (o.record) {
            if (!(rec = fopen(o.record, "w")))
                return fprintf(stderr, "difftest: cannot write %s\n", o.record), 2;
            fprintf(rec, "# ttsim's output hashes (64-bit FNV-1a of the packed Dst rows) per case,\n"
                         "# written by build/difftest --record; docs/numerics.md \"Checking against ttsim\".\n"
                         "# ttsim: %s\n# arch case data seed hash\n", o.label ? o.label : "(not labelled)");
        }
        for (int wh = 0; wh < 2; wh++) {
            if (!o.arch[wh] || (!o.exact && !o.lib[wh]))
                continue;
            for (unsigned i = 0; i < nc; i++) {
                dt_case_name(&cs[i], name, sizeof name);
                if (!wanted(&o, name) || !dt_case_on(&cs[i], wh))
                    continue;
                for (int d = 0; d < DATA_COUNT; d++)
                    for (unsigned s = o.first_seed; s < o.first_seed + o.seeds && o.data[d]; s++)
                        if (!o.exact || d == DATA_INT)
                            run_one(&o, wh, &cs[i], name, (enum dt_data)d, s, 0, rec, tiles, &t);
            }
        }
        if (rec && fclose(rec))
            return fprintf(stderr, "difftest: cannot write %s\n", o.record), 2;
        if (tiles && fclose(tiles))
            return fprintf(stderr, "difftest: cannot write %s\n", o.tiles), 2;
    }
    printf("difftest: %u runs, %u compared, %u differ, %u failed, %u differ from exact arithmetic\n",
           t.runs, t.checked, t.differ, t.failed, t.exact_bad);
    return t.failed ? 3 : t.differ || t.exact_bad ? 1 : 0;
}
