/* The `tensim` command (docs/user-guide.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/elf.h"
#include "../trace/stats.h"
#include "../trace/trace.h"
#include "sim.h"

static const char usage[] =
    "usage: tensim run [options] [--trisc0 F] [--trisc1 F] [--trisc2 F] [--brisc F] [F]\n"
    "  F                    an ELF32 RISC-V program; a lone F runs on TRISC0\n"
    "  --arch A             blackhole (default) or wormhole\n"
    "  --max-cycles N       stop with a cycle-limit error after N cycles\n"
    "  --stats FILE         write statistics as JSON (docs/stats-schema.md)\n"
    "  --trace FILE         write a timeline (Chrome trace JSON, opens in Perfetto)\n"
    "  --load FILE@ADDR     copy FILE's bytes into L1 at ADDR before the run\n"
    "  --dump ADDR:LEN:FILE write LEN bytes of L1 from ADDR to FILE after the run\n"
    "  -q                   no end-of-run report\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "tensim: usage: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return err_kind_exit_code(ERR_USAGE);
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || *end || *s == '-')
        return -1;
    *v = x;
    return 0;
}

#define MAX_XFER 16

struct xfer {
    const char *file;
    uint64_t addr, len;
};

static int load_raw(struct tile *t, const struct xfer *x)
{
    FILE *f = fopen(x->file, "rb");
    if (!f) {
        tile_error(t, ERR_BAD_FILE, -1, 0, "%s: cannot open: %s", x->file, strerror(errno));
        return -1;
    }
    size_t room = x->addr < t->arch->l1_size ? t->arch->l1_size - x->addr : 0;
    size_t n = fread(t->l1 + (room ? x->addr : 0), 1, room, f);
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (!room || extra) {
        tile_error(t, ERR_BAD_FILE, -1, 0, "%s: does not fit in L1 at 0x%" PRIx64 " (%zu bytes of room)",
                   x->file, x->addr, room);
        return -1;
    }
    if (n)
        tile_code_written(t, (uint32_t)x->addr, (uint32_t)n);
    return 0;
}

static int dump_raw(const struct tile *t, const struct xfer *x)
{
    FILE *f = fopen(x->file, "wb");
    if (!f || fwrite(t->l1 + x->addr, 1, x->len, f) != x->len) {
        fprintf(stderr, "tensim: host error: cannot write %s: %s\n", x->file, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f) ? -1 : 0;
}

static int cmd_run(int argc, char **argv)
{
    const struct arch *arch = arch_get(ARCH_BLACKHOLE);
    const char *prog[NUM_CORES] = {0};
    const char *stats_file = 0, *trace_file = 0;
    struct xfer loads[MAX_XFER], dumps[MAX_XFER];
    unsigned nloads = 0, ndumps = 0;
    uint64_t max_cycles = 0;
    int quiet = 0;
    static const char *const core_opts[NUM_CORES] = {"--trisc0", "--trisc1", "--trisc2", "--brisc"};

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int core = -1;
        for (int k = 0; k < NUM_CORES; k++)
            if (!strcmp(a, core_opts[k]))
                core = k;
        if (!strcmp(a, "-q")) {
            quiet = 1;
            continue;
        }
        if (a[0] != '-') {
            if (prog[CORE_TRISC0])
                return usage_error("more than one program for TRISC0: %s", a);
            prog[CORE_TRISC0] = a;
            continue;
        }
        if (i + 1 >= argc)
            return usage_error("%s needs a value", a);
        char *v = argv[++i]; /* argv strings are ours to split in place */
        if (core >= 0) {
            if (prog[core])
                return usage_error("two programs for %s", a);
            prog[core] = v;
        } else if (!strcmp(a, "--arch")) {
            if (!(arch = arch_by_name(v)))
                return usage_error("unknown architecture %s (blackhole or wormhole)", v);
        } else if (!strcmp(a, "--max-cycles")) {
            if (parse_u64(v, &max_cycles) || !max_cycles)
                return usage_error("--max-cycles needs a positive number, not %s", v);
        } else if (!strcmp(a, "--stats")) {
            stats_file = v;
        } else if (!strcmp(a, "--trace")) {
            trace_file = v;
        } else if (!strcmp(a, "--load")) {
            char *at = strrchr(v, '@');
            if (!at || at == v || nloads == MAX_XFER || parse_u64(at + 1, &loads[nloads].addr))
                return usage_error("--load wants FILE@ADDR, got %s", v);
            *at = 0;
            loads[nloads++].file = v;
        } else if (!strcmp(a, "--dump")) {
            char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : 0;
            if (!c2 || ndumps == MAX_XFER)
                return usage_error("--dump wants ADDR:LEN:FILE, got %s", v);
            *c1 = *c2 = 0;
            struct xfer *x = &dumps[ndumps];
            if (parse_u64(v, &x->addr) || parse_u64(c1 + 1, &x->len) || !c2[1])
                return usage_error("--dump wants ADDR:LEN:FILE, got %s", v);
            x->file = c2 + 1;
            ndumps++;
        } else {
            return usage_error("unknown option %s", a);
        }
    }
    for (unsigned i = 0; i < ndumps; i++) /* checked here: --arch may come after --dump */
        if (dumps[i].addr > arch->l1_size || dumps[i].len > arch->l1_size - dumps[i].addr)
            return usage_error("--dump range of %s is outside L1", dumps[i].file);
    int any = 0;
    for (int k = 0; k < NUM_CORES; k++)
        any |= prog[k] != 0;
    if (!any)
        return usage_error("%s", "no program given");

    struct sim sim = {.tile = tile_create(arch), .max_cycles = max_cycles};
    struct tile *t = sim.tile;
    if (!t) {
        fprintf(stderr, "tensim: host error: out of memory\n");
        return err_kind_exit_code(ERR_HOST);
    }
    t->out = stdout;
    t->errout = stderr;
    for (unsigned i = 0; i < nloads && t->err.kind == ERR_NONE; i++)
        load_raw(t, &loads[i]);
    for (int k = 0; k < NUM_CORES && t->err.kind == ERR_NONE; k++)
        if (prog[k])
            elf_load_file(t, k, prog[k]);
    struct tracer tracer;
    FILE *trace_out = 0;
    if (trace_file && t->err.kind == ERR_NONE) {
        if (!(trace_out = fopen(trace_file, "w"))) {
            fprintf(stderr, "tensim: host error: cannot write %s: %s\n", trace_file, strerror(errno));
            tile_destroy(t);
            return err_kind_exit_code(ERR_HOST);
        }
        trace_begin(&tracer, trace_out, t);
        t->tracer = &tracer;
    }
    if (t->err.kind == ERR_NONE)
        tile_run(t, sim.max_cycles);
    fflush(stdout);
    if (trace_out) {
        trace_end(&tracer);
        fclose(trace_out);
        t->tracer = 0;
    }

    int status = 0;
    if (t->err.kind != ERR_NONE) {
        sim_print_error(&t->err, stderr);
        status = err_kind_exit_code(t->err.kind);
    } else {
        /* A guest exit code the host cannot represent (a multiple of 256) still fails. */
        for (int k = 0; k < NUM_CORES && !status; k++)
            if (t->core[k].state == CORE_HALTED && t->core[k].exit_code)
                status = (t->core[k].exit_code & 0xFF) ? (t->core[k].exit_code & 0xFF) : 1;
        for (unsigned i = 0; i < ndumps; i++)
            if (dump_raw(t, &dumps[i]))
                status = err_kind_exit_code(ERR_HOST);
    }
    if (!quiet && t->err.kind != ERR_BAD_FILE)
        stats_report(t, stderr);
    if (stats_file) {
        FILE *f = fopen(stats_file, "w");
        if (!f) {
            fprintf(stderr, "tensim: host error: cannot write %s: %s\n", stats_file, strerror(errno));
            status = err_kind_exit_code(ERR_HOST);
        } else {
            stats_json(t, f);
            fclose(f);
        }
    }
    tile_destroy(t);
    return status;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "run"))
        return cmd_run(argc - 2, argv + 2);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    return usage_error("%s", argc < 2 ? "no command" : "unknown command (try 'tensim run')");
}
