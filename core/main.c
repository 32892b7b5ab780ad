/* The `tensim` command: its commands, their option tables and the exit status
 * (docs/user-guide.md "Running a kernel", "Exit status"). */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../mem/elf.h"
#include "bench.h"
#include "chip.h"
#include "host.h"
#include "host_pin.h"
#include "rules.h"
#include "run_desc.h"
#include "../trace/state.h"
#include "../trace/json.h"
#include "../trace/stats.h"
#include "../trace/trace.h"
#include "../trace/zones.h"
#include "cli.h"
#include "hostio.h"
#include "sim.h"
#include "timing.h"
#include "../riscv/gdbstub.h"
#include "../riscv/profile.h"
#include "version.h"

/* The one mutable global: a signal handler can reach nothing else. It holds the signal that asked
 * the run to stop; the tile reads it through tile->stop at cycle boundaries. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig; /* SA_RESETHAND: a second Ctrl-C ends tensim at once */
}

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, 0);
    sigaction(SIGTERM, &sa, 0);
}

/* ---- tensim run ---- */

#define LINT_REPORT_LINES 20 /* findings the report lists; the stats JSON has them all */

enum run_opt { O_TRISC0, O_TRISC1, O_TRISC2, O_BRISC, O_NCRISC, O_RUN, O_ARCH, O_LOADER, O_MAX_CYCLES,
               O_LOAD, O_DUMP, O_DUMP_STATE, O_STATS, O_TRACE, O_TRACE_FROM, O_TRACE_TO, O_ZONES, O_PROFILE,
               O_UNPREDICTABLE, O_LINT, O_TIMING, O_LOCKSTEP, O_GDB, O_THREADS, O_NO_PIN, O_QUIET,
               O_HELP };

/* O_TRISC0..O_NCRISC are in core order (enum core_id). */
static const struct cli_opt run_opts[] = {
    {O_TRISC0, "trisc0", 0, "FILE", "program for TRISC0 (the same as the FILE operand)"},
    {O_TRISC1, "trisc1", 0, "FILE", "program for TRISC1"},
    {O_TRISC2, "trisc2", 0, "FILE", "program for TRISC2"},
    {O_BRISC, "brisc", 0, "FILE", "program for BRISC"},
    {O_NCRISC, "ncrisc", 0, "FILE", "program for NCRISC"},
    {O_RUN, "run", 0, "FILE",
     "a run description (JSON): programs, boot, the host's writes, the end\ncondition and what "
     "to read back (docs/run-description.md)"},
    {O_ARCH, "arch", 0, "ARCH", "blackhole (default, or bh) or wormhole (wh)"},
    {O_LOADER, "loader", 0, "HOW",
     "auto (default), segments (program headers) or exalens (tt-exalens's\nnamed sections; "
     "auto picks it for ELFs with a .loader_init section)"},
    {O_MAX_CYCLES, "max-cycles", 0, "N", "stop with a cycle-limit error after N cycles"},
    {O_LOAD, "load", 0, "FILE@ADDR", "copy FILE's bytes into L1 at ADDR before the run"},
    {O_DUMP, "dump", 0, "ADDR:LEN:FILE",
     "write LEN bytes of L1 from ADDR to FILE when the run ends\n(also after an error, a cycle "
     "limit or Ctrl-C)"},
    {O_DUMP_STATE, "dump-state", 0, "WHEN:WHAT:FILE",
     "write the tile's state to FILE (JSON Lines if it ends in .json, else\ntext) when WHEN "
     "happens: cycle=N, pc=ADDR@CORE, region=ID@CORE,\nregion-begin=ID@CORE, region-end=ID@CORE, "
     "insn=MNEMONIC@Tn,\nzone=MARKER@THREAD, zone-begin=MARKER@THREAD, zone-end=MARKER@THREAD\n(tt-llk profiler zones; THREAD unpack, math or pack) or error;\nWHAT: all, or some of dst,srca,srcb,lregs,gprs,cfg,sem,pipe,rv"},
    {O_STATS, "stats", 0, "FILE", "write statistics as JSON (docs/stats-schema.md)"},
    {O_TRACE, "trace", 0, "FILE", "write a timeline as Chrome trace JSON (opens in Perfetto)"},
    {O_TRACE_FROM, "trace-from", 0, "CYCLE",
     "keep only trace events that end after CYCLE (slices clipped to it)"},
    {O_TRACE_TO, "trace-to", 0, "CYCLE",
     "keep only trace events that start before CYCLE (slices clipped to it)"},
    {O_ZONES, "zones", 0, "FILE",
     "write tt-llk's profiler zones as CSV (needs --run with a layout)"},
    {O_PROFILE, "profile", 0, "FILE",
     "write where each core's cycles went, by function (the program's\nsymbols) and by instruction"},
    {O_UNPREDICTABLE, "unpredictable", 0, "WHAT",
     "error (default) stops where the hardware's values are unpredictable;\nwarn goes on with a "
     "stand-in value and one warning (docs/numerics.md)"},
    {O_LINT, "lint", 0, 0,
     "go on past software rules the kernel breaks and report each (rule, core\nor thread, pc, "
     "cycle, instruction); exit status 113 when any was found\n(docs/user-guide.md \"Lint\")"},
    {O_TIMING, "timing", 0, "KEY=VALUE",
     "change a timing parameter for this run (what-if studies); may be\ngiven up to 32 times; "
     "--timing=list shows every parameter, its value\nand its source (docs/timing-model.md)"},
    {O_LOCKSTEP, "lockstep", 0, 0,
     "step the cores strictly in turn instead of letting each run ahead\nwhile it touches only "
     "its own state: the same results, slower\n(docs/architecture.md \"Run-ahead\")"},
    {O_GDB, "gdb", 0, "PORT[:CORE]",
     "wait for gdb on 127.0.0.1:PORT (0: any free port) and let it debug\nCORE (trisc0 (default), "
     "trisc1, trisc2 or brisc); stops are cycle-exact"},
    {O_THREADS, "threads", 'j', "N",
     "run a chip's tiles on N host threads, 1 to 64 (default: the run\ndescription's \"threads\", "
     "else one per physical core); the results do\nnot depend on N. A run of one tile is one "
     "thread whatever N is"},
    {O_NO_PIN, "no-pin", 0, 0,
     "do not pin a chip run's threads to physical cores (they are pinned\nwhen there are no more "
     "of them than cores)"},
    {O_QUIET, "quiet", 'q', 0, "no end-of-run report"},
    {O_HELP, "help", 'h', 0, "show this help and exit"},
};

static const struct cli_cmd run_cmd = {
    "run", "[FILE]",
    "Run RV32 programs (ELF) on the cores of one Tensix tile, or on the tiles of a chip (a run\n"
    "description with \"chip\"), and report the cycles they took.",
    "Numbers are decimal or 0x-prefixed hexadecimal. --load, --dump and --dump-state may be\n"
    "given up to 16 times each. Ctrl-C (or SIGTERM) ends the run at the next cycle boundary and still writes\n"
    "the report, --stats, --trace and --dump; a second Ctrl-C ends tensim at once.\n"
    "Exit status: 0 when every core that exited returned 0; 1..98 a core's own exit code; 99 a\n"
    "core's exit code outside 1..98; 100 and up, tensim's own ('tensim help exit-status').\n",
    run_opts, sizeof run_opts / sizeof run_opts[0],
};

struct run_args {
    const struct arch *arch;
    bool arch_given, loader_given;
    enum elf_loader loader;
    const char *prog[NUM_CORES];
    const char *run_file;
    const char *stats_file, *trace_file, *zones_file, *profile_file;
    uint64_t trace_from, trace_to; /* the trace's window [from, to) */
    bool trace_from_given, trace_to_given;
    /* --dump options first, then the run description's reads */
    struct sim_xfer loads[SIM_MAX_XFER], dumps[2 * SIM_MAX_XFER];
    unsigned nloads, ndumps;
    uint64_t max_cycles;
    bool quiet;
    int unpredictable_warn; /* -1: not given */
    bool lint, lockstep;
    struct timing_override timing[TIMING_MAX_OVERRIDES];
    unsigned ntiming;
    struct state_dumps state; /* --dump-state */
    bool gdb;
    unsigned gdb_port;
    int gdb_core;
    unsigned threads; /* -j; 0: not given */
    bool no_pin;
    /* The name of the first option given that only a run of one tile has (a chip run refuses
     * it); NULL if none. */
    const char *tile_only;
};

/* gdb's `monitor tensix [WHAT]`: the state dump's text view (trace/state.h) of the stopped tile,
 * WHAT as --dump-state's (default all). */
static void monitor_tensix(struct tile *t, const char *args, FILE *out)
{
    char what_text[128], err[300];
    unsigned what;
    while (*args == ' ')
        args++;
    /* words separated by blanks or commas, as --dump-state's WHAT */
    size_t w = 0;
    for (const char *s = *args ? args : "all"; *s && w + 1 < sizeof what_text; s++) {
        bool sep = *s == ' ' || *s == ',';
        if (sep && (w == 0 || what_text[w - 1] == ',' || !s[1] || s[1] == ' ' || s[1] == ','))
            continue;
        what_text[w++] = sep ? ',' : *s;
    }
    what_text[w] = 0;
    if (state_what_parse(what_text, &what, err, sizeof err)) {
        static const char opt[] = "--dump-state: "; /* the option's name means nothing in gdb */
        fprintf(out, "monitor tensix: %s\n", err + (strncmp(err, opt, sizeof opt - 1) ? 0 : sizeof opt - 1));
        return;
    }
    state_write(t, what, false, 1, "monitor tensix", "gdb stop", out);
}

/* FILE@ADDR (the last '@', so a file name may hold one) */
static int parse_load(struct run_args *a, char *v)
{
    char *at = strrchr(v, '@');
    unsigned long long addr;
    if (!at || at == v || cli_parse_u64(at + 1, &addr))
        return cli_usage_error(&run_cmd, "--load wants FILE@ADDR, not '%s'", v);
    if (a->nloads == SIM_MAX_XFER)
        return cli_usage_error(&run_cmd, "at most %d --load options", SIM_MAX_XFER);
    *at = 0; /* argv strings are ours to split in place */
    a->loads[a->nloads++] = (struct sim_xfer){.file = v, .addr = addr};
    return 0;
}

/* ADDR:LEN:FILE (the first two ':', so a file name may hold more) */
static int parse_dump(struct run_args *a, char *v)
{
    char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : 0;
    unsigned long long addr, len;
    if (!c2 || !c2[1])
        return cli_usage_error(&run_cmd, "--dump wants ADDR:LEN:FILE, not '%s'", v);
    *c1 = *c2 = 0;
    if (cli_parse_u64(v, &addr) || cli_parse_u64(c1 + 1, &len)) {
        *c1 = *c2 = ':';
        return cli_usage_error(&run_cmd, "--dump wants ADDR:LEN:FILE with numbers, not '%s'", v);
    }
    if (a->ndumps == SIM_MAX_XFER)
        return cli_usage_error(&run_cmd, "at most %d --dump options", SIM_MAX_XFER);
    a->dumps[a->ndumps++] = (struct sim_xfer){.file = c2 + 1, .addr = addr, .len = len};
    return 0;
}

/* Options about one tile's L1, cores or timeline: a chip run refuses them, until each can say
 * which tile it means. */
static bool tile_only_option(int id)
{
    switch (id) {
    case O_LOAD: case O_DUMP: case O_DUMP_STATE:
    case O_ZONES: case O_PROFILE: case O_LINT: case O_GDB:
        return true;
    default:
        return false;
    }
}

static const char *option_name(int id)
{
    for (unsigned i = 0; i < sizeof run_opts / sizeof run_opts[0]; i++)
        if (run_opts[i].id == id)
            return run_opts[i].name;
    return "?";
}

/* Returns 0 to run, -1 after --help, or a usage exit code. */
static int parse_run(int argc, char **argv, struct run_args *a)
{
    struct cli_parser p;
    cli_begin(&p, &run_cmd, argc, argv);
    *a = (struct run_args){.arch = arch_get(ARCH_BLACKHOLE), .unpredictable_warn = -1,
                           .trace_to = TRACE_NO_END};
    int r = 0;
    for (;;) {
        char *v;
        int id = cli_next(&p, &v);
        if (id == CLI_END)
            break;
        if (!a->tile_only && tile_only_option(id))
            a->tile_only = option_name(id);
        switch (id) {
        case CLI_ERROR: return err_kind_exit_code(ERR_USAGE);
        case O_TRISC0: case O_TRISC1: case O_TRISC2: case O_BRISC: case O_NCRISC:
            if (a->prog[id - O_TRISC0])
                return cli_usage_error(&run_cmd, "two programs for %s", core_name(id - O_TRISC0));
            a->prog[id - O_TRISC0] = v;
            break;
        case O_ARCH:
            if (!(a->arch = arch_by_name(v)))
                return cli_usage_error(&run_cmd, "unknown architecture '%s' (blackhole or wormhole)", v);
            a->arch_given = true;
            break;
        case O_LOADER: {
            int how = elf_loader_by_name(v);
            if (how < 0)
                return cli_usage_error(&run_cmd, "unknown loader '%s' (auto, segments or exalens)", v);
            a->loader = (enum elf_loader)how;
            a->loader_given = true;
            break;
        }
        case O_RUN: a->run_file = v; break;
        case O_MAX_CYCLES: {
            unsigned long long n;
            if (cli_parse_u64(v, &n) || !n)
                return cli_usage_error(&run_cmd, "--max-cycles needs a positive number, not '%s'", v);
            a->max_cycles = n;
            break;
        }
        case O_LOAD: r = parse_load(a, v); break;
        case O_DUMP: r = parse_dump(a, v); break;
        case O_DUMP_STATE: {
            char err[300];
            if (a->state.n == STATE_MAX_SPECS)
                return cli_usage_error(&run_cmd, "at most %d --dump-state options", STATE_MAX_SPECS);
            if (state_spec_parse(v, &a->state.spec[a->state.n], err, sizeof err))
                return cli_usage_error(&run_cmd, "%s", err);
            a->state.n++;
            break;
        }
        case O_STATS: a->stats_file = v; break;
        case O_TRACE: a->trace_file = v; break;
        case O_TRACE_FROM:
        case O_TRACE_TO: {
            unsigned long long n;
            if (cli_parse_u64(v, &n))
                return cli_usage_error(&run_cmd, "--%s needs a cycle number, not '%s'",
                                       id == O_TRACE_FROM ? "trace-from" : "trace-to", v);
            if (id == O_TRACE_FROM)
                a->trace_from = n, a->trace_from_given = true;
            else
                a->trace_to = n, a->trace_to_given = true;
            break;
        }
        case O_ZONES: a->zones_file = v; break;
        case O_PROFILE: a->profile_file = v; break;
        case O_LINT: a->lint = true; break;
        case O_LOCKSTEP: a->lockstep = true; break;
        case O_UNPREDICTABLE:
            if (strcmp(v, "error") && strcmp(v, "warn"))
                return cli_usage_error(&run_cmd, "--unpredictable wants error or warn, not '%s'", v);
            a->unpredictable_warn = !strcmp(v, "warn");
            break;
        case O_TIMING: {
            if (!strcmp(v, "list")) {
                timing_list(stdout);
                return -1;
            }
            char err[200];
            if (a->ntiming == TIMING_MAX_OVERRIDES)
                return cli_usage_error(&run_cmd, "at most %d --timing options", TIMING_MAX_OVERRIDES);
            if (timing_parse(v, &a->timing[a->ntiming], err, sizeof err))
                return cli_usage_error(&run_cmd, "%s", err);
            a->ntiming++;
            break;
        }
        case O_GDB: {
            char err[200];
            if (gdb_parse_spec(v, &a->gdb_port, &a->gdb_core, err, sizeof err))
                return cli_usage_error(&run_cmd, "%s", err);
            a->gdb = true;
            break;
        }
        case O_THREADS: {
            unsigned long long n;
            if (cli_parse_u64(v, &n) || !n || n > SIM_MAX_THREADS)
                return cli_usage_error(&run_cmd, "-j wants a number from 1 to %d, not '%s'",
                                       SIM_MAX_THREADS, v);
            a->threads = (unsigned)n;
            break;
        }
        case O_NO_PIN: a->no_pin = true; break;
        case O_QUIET: a->quiet = true; break;
        case O_HELP: cli_help(&run_cmd, stdout); return -1;
        }
        if (r)
            return r;
    }
    for (int i = p.next; i < argc; i++) {
        if (a->prog[CORE_TRISC0])
            return cli_usage_error(&run_cmd, "more than one program for TRISC0: '%s' (name the "
                                   "others' cores: --trisc1=FILE ...)", argv[i]);
        a->prog[CORE_TRISC0] = argv[i];
    }
    int any = 0;
    for (int k = 0; k < NUM_CORES; k++)
        any |= a->prog[k] != 0;
    if (any && a->run_file)
        return cli_usage_error(&run_cmd, "programs come from the run description %s; give them "
                               "there, not on the command line", a->run_file);
    if (!any && !a->run_file)
        return cli_usage_error(&run_cmd, "no program given");
    if ((a->trace_from_given || a->trace_to_given) && !a->trace_file)
        return cli_usage_error(&run_cmd, "--trace-from and --trace-to need --trace=FILE");
    if (a->trace_to_given && a->trace_to <= a->trace_from)
        return cli_usage_error(&run_cmd, "--trace-to (%llu) must be after --trace-from (%llu)",
                               (unsigned long long)a->trace_to, (unsigned long long)a->trace_from);
    if (a->zones_file && !a->run_file)
        return cli_usage_error(&run_cmd, "--zones needs a run description (--run) that names the "
                               "tt-llk layout of the profiler buffers");
    return 0;
}

/* Do the two names reach the same existing file? */
static bool same_file(const char *x, const char *y)
{
    struct stat sx, sy;
    return !stat(x, &sx) && !stat(y, &sy) && sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
}

static bool same_path(const char *in, const char *out)
{
    return in && (!strcmp(in, out) || same_file(in, out));
}

/* An output that is also an input would be emptied when the outputs are opened, before the
 * input is read: the programs, --load files, and the run description's files (a chip's too). */
static int output_is_input(const struct run_args *a, const struct run_desc *rd, const char *out)
{
    bool hit = false;
    for (int k = 0; k < NUM_CORES; k++)
        hit |= same_path(a->prog[k], out);
    for (unsigned i = 0; i < a->nloads; i++)
        hit |= same_path(a->loads[i].file, out);
    if (rd) {
        hit |= same_path(rd->path, out);
        for (int k = 0; k < NUM_CORES; k++)
            hit |= same_path(rd->program[k], out);
        for (unsigned i = 0; i < rd->nl1; i++)
            hit |= same_path(rd->l1[i].file, out);
        for (unsigned i = 0; i < rd->naction; i++)
            hit |= same_path(rd->action[i].write.file, out);
    }
    const struct run_chip *c = rd ? rd->chip : 0;
    for (unsigned i = 0; c && i < c->ntiles; i++) {
        for (int k = 0; k < NUM_CORES; k++)
            hit |= same_path(c->tile[i].program[k], out);
        for (unsigned j = 0; j < c->tile[i].nl1; j++)
            hit |= same_path(c->tile[i].l1[j].file, out);
    }
    for (unsigned i = 0; c && i < c->ndram; i++)
        hit |= same_path(c->dram[i].file, out);
    if (hit)
        return cli_usage_error(&run_cmd, "%s is both an input and an output of the run", out);
    return 0;
}

/* A zone= dump: only a run description naming a tt-llk layout says where the profiler buffers
 * are, and the thread's program must name the marker in its .profiler_meta. A program that cannot
 * be read is left for the run to report (as a bad file); the dump then never fires. */
static int check_zone_spec(const struct run_args *a, const struct run_desc *rd, struct state_spec *s)
{
    if (!rd || !rd->layout)
        return cli_usage_error(&run_cmd, "--dump-state %s: zone dumps need a run description that "
                               "names a tt-llk layout (\"layout\"): only then are there profiler "
                               "buffers", s->text);
    const char *path = a->prog[s->core] ? a->prog[s->core] : rd->program[s->core];
    if (!path)
        return cli_usage_error(&run_cmd, "--dump-state %s: the %s thread (TRISC%u) runs no program",
                               s->text, zone_thread_name(s->core), s->core);
    struct elf_file elf = {.name = path};
    char why[200], err[800];
    if (!(elf.buf = host_read_file(path, 64 << 20, &elf.len, why, sizeof why)))
        return 0;
    int r = state_spec_zone(s, &elf, path, err, sizeof err);
    elf_free(&elf);
    return r ? cli_usage_error(&run_cmd, "%s", err) : 0;
}

/* The outputs, once the run description has added its reads: in L1, no two into one file (one
 * would be lost), none over an input. */
static int check_outputs(struct run_args *a, const struct run_desc *rd)
{
    for (unsigned i = 0; i < a->state.n; i++) { /* insn=: the architecture is known by now */
        char err[300];
        if (state_spec_resolve(&a->state.spec[i], a->arch->id == ARCH_WORMHOLE ? TT_ARCH_WH : TT_ARCH_BH,
                               err, sizeof err))
            return cli_usage_error(&run_cmd, "%s (%s)", err, a->arch->name);
    }
    for (unsigned i = 0; i < a->state.n; i++) /* zone=: the layout's buffers, the programs' names */
        if (state_spec_is_zone(&a->state.spec[i]) && check_zone_spec(a, rd, &a->state.spec[i]))
            return err_kind_exit_code(ERR_USAGE);
    for (unsigned i = 0; i < a->ndumps; i++)
        if (a->dumps[i].addr > a->arch->l1_size || a->dumps[i].len > a->arch->l1_size - a->dumps[i].addr)
            return cli_usage_error(&run_cmd, "--dump range 0x%" PRIx64 "+0x%" PRIx64 " of %s is "
                                   "outside L1 (0x0-0x%x)", a->dumps[i].addr, a->dumps[i].len,
                                   a->dumps[i].file, a->arch->l1_size - 1);
    const struct run_chip *c = rd ? rd->chip : 0;
    unsigned max = 4 + 2 * SIM_MAX_XFER + STATE_MAX_SPECS + (c ? c->ntiles * RUN_MAX_READS + RUN_MAX_READS : 0);
    const char **outs = calloc(max, sizeof *outs);
    if (!outs) {
        fprintf(stderr, "tensim: %s: out of memory\n", err_kind_text(ERR_HOST));
        return err_kind_exit_code(ERR_HOST);
    }
    outs[0] = a->stats_file, outs[1] = a->trace_file, outs[2] = a->zones_file, outs[3] = a->profile_file;
    unsigned nouts = 4;
    for (unsigned i = 0; i < a->ndumps; i++)
        outs[nouts++] = a->dumps[i].file;
    for (unsigned i = 0; i < a->state.n; i++)
        outs[nouts++] = a->state.spec[i].file;
    for (unsigned i = 0; c && i < c->ntiles; i++)
        for (unsigned j = 0; j < c->tile[i].nread; j++)
            outs[nouts++] = c->tile[i].read[j].file;
    for (unsigned i = 0; c && i < c->ndram_read; i++)
        outs[nouts++] = c->dram_read[i].file;
    int r = 0;
    for (unsigned i = 0; i < nouts && !r; i++)
        for (unsigned j = i + 1; j < nouts && !r; j++)
            if (outs[i] && outs[j] && !strcmp(outs[i], outs[j]))
                r = cli_usage_error(&run_cmd, "two outputs go to %s", outs[i]);
    for (unsigned i = 0; i < nouts && !r; i++)
        if (outs[i] && output_is_input(a, rd, outs[i]))
            r = err_kind_exit_code(ERR_USAGE);
    free(outs);
    return r;
}

/* What the run description says, merged with the command line (which wins for the cycle limit
 * and the loader; a different architecture on both is a mistake). */
static int apply_run_desc(struct run_args *a, const struct run_desc *rd)
{
    if (rd->arch && a->arch_given && rd->arch != a->arch)
        return cli_usage_error(&run_cmd, "--arch=%s, but the run description %s says %s",
                               a->arch->name, rd->path, rd->arch->name);
    if (rd->arch)
        a->arch = rd->arch;
    if (rd->chip && a->tile_only)
        return cli_usage_error(&run_cmd, "--%s is for a run of one tile; the run description %s "
                               "runs a chip (\"chip\")", a->tile_only, rd->path);
    if (!a->threads)
        a->threads = rd->threads;
    if (!a->zones_file)
        a->zones_file = rd->zones;
    if (a->zones_file && !rd->layout)
        return cli_usage_error(&run_cmd, "--zones needs the run description %s to name a tt-llk "
                               "layout (\"layout\")", rd->path);
    if (!a->loader_given)
        a->loader = rd->loader;
    if (!a->max_cycles)
        a->max_cycles = rd->max_cycles;
    if (a->unpredictable_warn < 0)
        a->unpredictable_warn = rd->unpredictable_warn;
    for (unsigned i = 0; i < rd->nread; i++)
        a->dumps[a->ndumps++] = (struct sim_xfer){.file = rd->read[i].file, .addr = rd->read[i].addr,
                                                  .len = rd->read[i].len};
    return 0;
}

/* --profile: each core that ran, with its program's symbols (read again: the loader keeps none). */
static void write_profiles(struct tile *t, const struct run_args *a, const struct run_desc *rd,
                           FILE *f)
{
    t->profiling = false;
    for (int k = 0; k < NUM_CORES; k++) {
        if (!t->prof[k])
            continue;
        if (t->prof[k]->last == UINT64_MAX) { /* the core never ran */
            rv_profile_free(t->prof[k]);
            t->prof[k] = 0;
            continue;
        }
        const char *path = a->prog[k] ? a->prog[k] : rd ? rd->program[k] : 0;
        struct elf_file elf = {0};
        char why[200];
        if (path)
            elf.buf = host_read_file(path, 64 << 20, &elf.len, why, sizeof why);
        elf.name = path;
        rv_profile_report(t->prof[k], t, k, elf.buf ? &elf : 0, path, f);
        elf_free(&elf);
        rv_profile_free(t->prof[k]);
        t->prof[k] = 0;
    }
}

/* The run's outputs, opened before it starts and closed after it ends. */
struct run_outputs {
    struct host_out stats, trace, zones, profile, dump[2 * SIM_MAX_XFER], state[STATE_MAX_SPECS];
};

static int open_outputs(const struct run_args *a, struct run_outputs *o)
{
    memset(o, 0, sizeof *o);
    struct host_out *fail = 0;
    if (a->stats_file && host_out_open(&o->stats, a->stats_file))
        fail = &o->stats;
    if (!fail && a->trace_file && host_out_open(&o->trace, a->trace_file))
        fail = &o->trace;
    if (!fail && a->zones_file && host_out_open(&o->zones, a->zones_file))
        fail = &o->zones;
    if (!fail && a->profile_file && host_out_open(&o->profile, a->profile_file))
        fail = &o->profile;
    for (unsigned i = 0; i < a->ndumps && !fail; i++)
        if (host_out_open(&o->dump[i], a->dumps[i].file))
            fail = &o->dump[i];
    for (unsigned i = 0; i < a->state.n && !fail; i++)
        if (host_out_open(&o->state[i], a->state.spec[i].file))
            fail = &o->state[i];
    if (!fail)
        return 0;
    fprintf(stderr, "tensim: %s: cannot write %s: %s\n", err_kind_text(ERR_HOST), fail->path,
            strerror(fail->err));
    host_out_close(&o->stats);
    host_out_close(&o->trace);
    host_out_close(&o->zones);
    host_out_close(&o->profile);
    for (unsigned i = 0; i < a->ndumps; i++)
        host_out_close(&o->dump[i]);
    for (unsigned i = 0; i < a->state.n; i++)
        host_out_close(&o->state[i]);
    return -1;
}

static void close_output(struct sim_outcome *oc, struct host_out *o)
{
    if (o->path && host_out_close(o))
        sim_host_error(oc, "cannot write %s: %s", o->path, strerror(o->err));
}

/* Progress of a long run on a terminal (issue 17): after `after` seconds (2, or the environment's
 * TENSIM_PROGRESS_AFTER), a line with the cycle reached and the simulation rate, rewritten in
 * place at most every `every` seconds (0.5, or less when `after` is) and erased at the end.
 * Nothing when standard error is not a terminal or with -q. */
struct progress {
    double after, every;
    double start, last; /* host seconds */
    uint64_t last_cycle;
    bool shown;
};

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void show_progress(void *ctx, uint64_t cycle)
{
    struct progress *p = ctx;
    double now = host_seconds();
    if (now - p->start < p->after || (p->shown && now - p->last < p->every))
        return;
    double dt = p->shown ? now - p->last : now - p->start;
    double rate = dt > 0 ? (double)(cycle - p->last_cycle) / dt : 0;
    fprintf(stderr, "\rtensim: cycle %" PRIu64 ", %.2f M cycles/s\033[K", cycle, rate / 1e6);
    fflush(stderr);
    p->last = now;
    p->last_cycle = cycle;
    p->shown = true;
}

/* ---- tensim run with "chip": the tiles of a chip (core/chip.h) ---- */

/* the description's limits are the sim's (run_desc.h does not include sim.h) */
_Static_assert(RUN_MAX_TILES == SIM_MAX_TILES, "a chip description's tiles fit in the sim");
_Static_assert(RUN_MAX_THREADS == SIM_MAX_THREADS, "\"threads\" is -j's range");

/* "a" or "an" before a node's name ("an ARC tile", "a DRAM tile") */
static const char *article(const char *name)
{
    return strchr("AEIOUaeiou", name[0]) ? "an" : "a";
}

/* "tensim: bad run description: FILE: AT: ..." and the exit status */
static int bad_chip_desc(const struct run_desc *rd, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad_chip_desc(const struct run_desc *rd, const char *at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "tensim: %s: %s: %s: %s\n", err_kind_text(ERR_BAD_RUN), rd->path, at, msg);
    return err_kind_exit_code(ERR_BAD_RUN);
}

/* Is there a node of kind `want` at (x, y)? 0, or the exit status after saying what is there
 * instead. */
static int check_node(const struct chip *c, const struct run_desc *rd, const char *at, unsigned x,
                      unsigned y, enum chip_node want)
{
    unsigned w, h;
    chip_grid(c, &w, &h);
    enum chip_node k = chip_node_at(c, x, y);
    if (k == want)
        return 0;
    if (x >= w || y >= h)
        return bad_chip_desc(rd, at, "(%u, %u) is outside the %u x %u grid (x 0-%u, y 0-%u)", x, y, w,
                             h, w - 1, h - 1);
    if (k == CHIP_NONE)
        return bad_chip_desc(rd, at, "there is no tile at (%u, %u), and a %s tile is wanted", x, y,
                             chip_node_name(want));
    return bad_chip_desc(rd, at, "(%u, %u) is %s %s tile, not %s %s tile", x, y,
                         article(chip_node_name(k)), chip_node_name(k), article(chip_node_name(want)),
                         chip_node_name(want));
}

/* Is [addr, addr + len) inside the DRAM bank at (x, y)? Reading never allocates, so the ends
 * are probed; the description's 4 GiB may be more than this architecture's bank. */
static int check_dram_range(struct chip *c, const struct run_desc *rd, const char *at, unsigned x,
                            unsigned y, uint64_t addr, uint64_t len)
{
    uint8_t b;
    if (chip_dram_read(c, x, y, addr, &b, 1) && (!len || chip_dram_read(c, x, y, addr + len - 1, &b, 1)))
        return 0;
    return bad_chip_desc(rd, at, "0x%" PRIx64 "+0x%" PRIx64 " is outside the DRAM bank of (%u, %u)",
                         addr, len, x, y);
}

/* chip_dram_write refused: the range (the description's mistake), else memory (the host's). */
static int dram_write_failed(struct chip *c, const struct run_desc *rd, const char *at, unsigned x,
                             unsigned y, uint64_t addr, uint64_t len)
{
    int r = check_dram_range(c, rd, at, x, y, addr, len);
    if (r)
        return r;
    fprintf(stderr, "tensim: %s: %s: out of memory for DRAM at (%u, %u)\n", err_kind_text(ERR_HOST), at, x, y);
    return err_kind_exit_code(ERR_HOST);
}

/* The chip as the description says, before any output is opened (a mistake there is the
 * description's, 111, and must not empty an output): its tiles in order, the DRAM writes, and
 * the places and ranges of the DRAM reads. */
static int build_chip(struct chip *c, const struct run_desc *rd)
{
    const struct run_chip *rc = rd->chip;
    char at[80];
    int r;
    for (unsigned i = 0; i < rc->ntiles; i++) {
        const struct run_tile *rt = &rc->tile[i];
        snprintf(at, sizeof at, "chip.tiles[%u].at", i);
        if ((r = check_node(c, rd, at, rt->x, rt->y, CHIP_TENSIX)))
            return r;
        const char *why = "out of memory";
        if (!chip_add_tile(c, rt->x, rt->y, &why)) { /* the place was checked: this is the host's */
            fprintf(stderr, "tensim: %s: %s: %s\n", err_kind_text(ERR_HOST), at, why);
            return err_kind_exit_code(ERR_HOST);
        }
    }
    for (unsigned i = 0; i < rc->ndram; i++) {
        const struct run_dram_write *w = &rc->dram[i];
        snprintf(at, sizeof at, "chip.dram[%u].at", i);
        if ((r = check_node(c, rd, at, w->x, w->y, CHIP_DRAM)))
            return r;
        snprintf(at, sizeof at, "chip.dram[%u]", i);
        if (!w->file) {
            uint8_t buf[4 * RUN_MAX_WORDS];
            for (uint32_t k = 0; k < w->nwords; k++)
                le_put(buf + 4 * k, 4, rd->words[w->first + k]);
            if (!chip_dram_write(c, w->x, w->y, w->addr, buf, 4ull * w->nwords))
                return dram_write_failed(c, rd, at, w->x, w->y, w->addr, 4ull * w->nwords);
            continue;
        }
        char why[200];
        size_t n;
        uint8_t *buf = host_read_file(w->file, (size_t)(RUN_DRAM_SIZE - w->addr), &n, why, sizeof why);
        if (!buf)
            return bad_chip_desc(rd, at, "%s: %s", w->file, why);
        bool ok = !n || chip_dram_write(c, w->x, w->y, w->addr, buf, n);
        free(buf);
        if (!ok)
            return dram_write_failed(c, rd, at, w->x, w->y, w->addr, n);
    }
    for (unsigned i = 0; i < rc->ndram_read; i++) {
        const struct run_dram_read *d = &rc->dram_read[i];
        snprintf(at, sizeof at, "chip.dram_read[%u].at", i);
        if ((r = check_node(c, rd, at, d->x, d->y, CHIP_DRAM)))
            return r;
        snprintf(at, sizeof at, "chip.dram_read[%u]", i);
        if ((r = check_dram_range(c, rd, at, d->x, d->y, d->addr, d->len)))
            return r;
    }
    return 0;
}

/* A chip run's outputs: --stats, then each tile's "read" files in tile order, then "dram_read"'s
 * (the order of the dumps in the stats). */
struct chip_outputs {
    struct host_out stats, trace;
    struct host_out *read; /* nreads of them */
    unsigned nreads;
    struct chip_dump {
        const char *file;
        int tile;           /* the tile's index; -1: DRAM at (x, y) */
        unsigned x, y;
        uint64_t addr, len;
        bool written;
    } *dump;
};

static void close_chip_outputs(struct chip_outputs *o)
{
    host_out_close(&o->stats);
    host_out_close(&o->trace);
    for (unsigned i = 0; i < o->nreads; i++)
        host_out_close(&o->read[i]);
    free(o->read);
    free(o->dump);
}

static int open_chip_outputs(const struct run_args *a, const struct run_desc *rd, struct chip_outputs *o)
{
    const struct run_chip *rc = rd->chip;
    unsigned n = rc->ndram_read;
    for (unsigned i = 0; i < rc->ntiles; i++)
        n += rc->tile[i].nread;
    memset(o, 0, sizeof *o);
    if (!(o->read = calloc(n + 1, sizeof *o->read)) || !(o->dump = calloc(n + 1, sizeof *o->dump))) {
        fprintf(stderr, "tensim: %s: out of memory\n", err_kind_text(ERR_HOST));
        close_chip_outputs(o);
        return -1;
    }
    for (unsigned i = 0; i < rc->ntiles; i++)
        for (unsigned j = 0; j < rc->tile[i].nread; j++) {
            const struct run_read *r = &rc->tile[i].read[j];
            o->dump[o->nreads++] = (struct chip_dump){r->file, (int)i, rc->tile[i].x, rc->tile[i].y,
                                                      r->addr, r->len, false};
        }
    for (unsigned i = 0; i < rc->ndram_read; i++) {
        const struct run_dram_read *r = &rc->dram_read[i];
        o->dump[o->nreads++] = (struct chip_dump){r->file, -1, r->x, r->y, r->addr, r->len, false};
    }
    struct host_out *fail = 0;
    if (a->stats_file && host_out_open(&o->stats, a->stats_file))
        fail = &o->stats;
    if (!fail && a->trace_file && host_out_open(&o->trace, a->trace_file))
        fail = &o->trace;
    for (unsigned i = 0; i < o->nreads && !fail; i++)
        if (host_out_open(&o->read[i], o->dump[i].file))
            fail = &o->read[i];
    if (!fail)
        return 0;
    fprintf(stderr, "tensim: %s: cannot write %s: %s\n", err_kind_text(ERR_HOST), fail->path,
            strerror(fail->err));
    close_chip_outputs(o);
    return -1;
}

/* The programs of a chip's tiles, each file read once: most tiles run the same ones. */
struct elf_cache {
    struct elf_file *f; /* room for every tile's every program */
    unsigned n;
};

/* The file at `path`, read now (a failure is tile t's, as elf_run_file's) or before. */
static const struct elf_file *cached_elf(struct elf_cache *ec, struct tile *t, int core, const char *path)
{
    for (unsigned i = 0; i < ec->n; i++)
        if (!strcmp(ec->f[i].name, path))
            return &ec->f[i];
    if (elf_read(t, core, path, &ec->f[ec->n]))
        return NULL;
    return &ec->f[ec->n++];
}

/* elf_run_file on a file from the cache (without a cache when there was no memory for one) */
static int run_cached_elf(struct elf_cache *ec, struct tile *t, int core, const char *path,
                          enum elf_loader how)
{
    if (!ec->f)
        return elf_run_file(t, core, path, how);
    const struct elf_file *f = cached_elf(ec, t, core, path);
    uint32_t start;
    if (!f || elf_load(t, core, f, how, &start))
        return -1;
    elf_start(t, core, f, how, start);
    return 0;
}

/* One tile as a run of one tile with "boot": "none" starts (host_setup's order): its l1 writes,
 * then its programs, each core at its entry point at cycle 0. False at the first that fails
 * (the error is in the tile). */
static bool load_tile(struct tile *t, const struct run_tile *rt, const struct run_desc *rd,
                      const struct run_args *a, struct elf_cache *ec)
{
    t->out = stdout;
    t->errout = stderr;
    t->stop = &stop_signal;
    t->unpredictable_warn = a->unpredictable_warn > 0;
    t->lockstep = a->lockstep;
    for (unsigned j = 0; j < rt->nl1; j++)
        if (host_l1_write(t, rd, &rt->l1[j]))
            return false;
    for (int k = 0; k < NUM_CORES; k++)
        if (rt->program[k] && run_cached_elf(ec, t, k, rt->program[k], a->loader))
            return false;
    return true;
}

/* Loading the tiles ahead, each on the thread that makes it (chip_tiles_begin's `made`), while
 * the caller makes the chip: copying programs into fresh L1 pages is, after making the tiles,
 * the biggest cost before a run. Every program file is read first (the threads only read the
 * cache); when one cannot be, nothing is loaded ahead and load_chip loads as before, the error
 * then in the first tile that names the file. */
struct preload {
    const struct run_desc *rd;
    const struct run_args *a;
    struct elf_cache ec;
    bool *ok; /* tile i loaded without an error */
};

static void preload_tile(struct tile *t, unsigned i, void *ctx)
{
    struct preload *p = ctx;
    p->ok[i] = load_tile(t, &p->rd->chip->tile[i], p->rd, p->a, &p->ec);
}

/* The cache filled and the results' room made; false: load nothing ahead. */
static bool preload_init(struct preload *p, const struct run_desc *rd, const struct run_args *a)
{
    const struct run_chip *rc = rd->chip;
    *p = (struct preload){.rd = rd, .a = a,
                          .ec = {.f = calloc((size_t)rc->ntiles * NUM_CORES + 1, sizeof *p->ec.f)},
                          .ok = calloc(rc->ntiles + 1, sizeof *p->ok)};
    if (!p->ec.f || !p->ok)
        return false;
    enum { MAX_FILE = 64 << 20 }; /* elf_read's */
    for (unsigned i = 0; i < rc->ntiles; i++)
        for (int k = 0; k < NUM_CORES; k++) {
            const char *path = rc->tile[i].program[k];
            bool have = !path;
            for (unsigned e = 0; !have && e < p->ec.n; e++)
                have = !strcmp(p->ec.f[e].name, path);
            if (have)
                continue;
            char why[200];
            struct elf_file *f = &p->ec.f[p->ec.n];
            *f = (struct elf_file){.name = path};
            if (!(f->buf = host_read_file(path, MAX_FILE, &f->len, why, sizeof why)))
                return false;
            p->ec.n++;
        }
    return true;
}

static void preload_free(struct preload *p)
{
    for (unsigned i = 0; p->ec.f && i < p->ec.n; i++)
        elf_free(&p->ec.f[i]);
    free(p->ec.f);
    free(p->ok);
}

/* Each tile loaded (load_tile), in order; stops at the first tile that fails. With tiles loaded
 * ahead (pre, their results): the tiles after the first that failed are made anew, as if never
 * reached. */
static bool load_chip(struct chip *c, const struct run_desc *rd, const struct run_args *a,
                      struct elf_cache *ec, const bool *pre)
{
    const struct run_chip *rc = rd->chip;
    for (unsigned i = 0; i < rc->ntiles; i++) {
        if (pre ? pre[i] : load_tile(chip_tile(c, i), &rc->tile[i], rd, a, ec))
            continue;
        for (unsigned j = i + 1; pre && j < rc->ntiles; j++)
            if (!chip_renew_tile(c, j))
                fprintf(stderr, "tensim: %s: out of memory\n", err_kind_text(ERR_HOST));
        return false;
    }
    return true;
}

/* src into dst[n], cut short if it must be */
static void copy_cut(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    len = len < n ? len : n - 1;
    memcpy(dst, src, len);
    dst[len] = 0;
}

/* The first error of the run in tile order, with the tile's place: "tensim: deadlock: (1, 2)
 * TRISC0 pc=... cycle=...: ...", or "tile (1, 2): ..." in the text when no core raised it. */
static void print_tile_error(const struct chip *c, unsigned i)
{
    const struct tile *t = chip_tile((struct chip *)c, i);
    unsigned x, y;
    chip_tile_coords(c, i, &x, &y);
    struct sim_error e = t->err;
    char buf[sizeof e.text + 40];
    if (e.core >= 0) {
        snprintf(buf, sizeof buf, "(%u, %u) %s", x, y, t->err.where);
        copy_cut(e.where, sizeof e.where, buf);
    } else {
        snprintf(buf, sizeof buf, "tile (%u, %u): %s", x, y, t->err.text);
        copy_cut(e.text, sizeof e.text, buf);
    }
    sim_print_error(&e, stderr);
}

/* --stats for a chip: how the run ended, as for one tile (docs/stats-schema.md), around the
 * chip's own object. */
static void chip_stats_file(const struct chip *c, const struct run_desc *rd, const struct sim_outcome *oc,
                            int err_tile, int guest_tile, const struct chip_outputs *o, FILE *f)
{
    unsigned x, y;
    fprintf(f, "{\n  \"schema\": \"tensim-stats\",\n  \"version\": 1,\n");
    fprintf(f, "  \"arch\": \"%s\",\n  \"cycles\": %" PRIu64 ",\n", chip_arch(c)->name, chip_cycles(c));
    fprintf(f, "  \"timing\": {");
    timing_json(chip_arch(c), f);
    fprintf(f, "},\n  \"error\": ");
    if (err_tile < 0) {
        fprintf(f, "null,\n");
    } else {
        const struct tile *t = chip_tile((struct chip *)c, (unsigned)err_tile);
        chip_tile_coords(c, (unsigned)err_tile, &x, &y);
        fprintf(f, "{\"tile\": [%u, %u], ", x, y);
        stats_json_error_fields(&t->err, f);
        fprintf(f, "},\n");
    }
    fprintf(f, "  \"exit_status\": %d,\n  \"guest_exit\": ", oc->exit_status);
    if (guest_tile >= 0 && oc->guest_core >= 0) {
        const struct tile *t = chip_tile((struct chip *)c, (unsigned)guest_tile);
        chip_tile_coords(c, (unsigned)guest_tile, &x, &y);
        fprintf(f, "{\"tile\": [%u, %u], \"core\": \"%s\", \"code\": %d},\n", x, y,
                core_name(oc->guest_core), t->core[oc->guest_core].exit_code);
    } else {
        fprintf(f, "null,\n");
    }
    stats_json_host_errors(oc, f);
    fprintf(f, ",\n  \"dumps\": [");
    for (unsigned i = 0; i < o->nreads; i++) {
        const struct chip_dump *d = &o->dump[i];
        fprintf(f, "%s{\"file\": ", i ? ", " : "");
        json_str(f, d->file);
        fprintf(f, ", \"%s\": [%u, %u], \"addr\": %" PRIu64 ", \"len\": %" PRIu64 ", \"written\": %s}",
                d->tile >= 0 ? "tile" : "dram", d->x, d->y, d->addr, d->len, d->written ? "true" : "false");
    }
    fprintf(f, "],\n  \"run\": {\"description\": ");
    json_str(f, rd->path);
    /* not the thread count: the stats do not depend on it, and say so by being the same */
    fprintf(f, "},\n  \"chip\": ");
    chip_stats_json(c, f);
    fprintf(f, "\n}\n");
}

/* One output file from memory; DRAM through a bounce buffer (a read may be gigabytes). */
static void write_chip_dump(struct chip *c, struct chip_dump *d, struct host_out *out)
{
    errno = 0;
    if (d->tile >= 0) {
        const struct tile *t = chip_tile(c, (unsigned)d->tile);
        if (fwrite(t->l1 + d->addr, 1, d->len, out->f) != d->len && !out->err)
            out->err = errno ? errno : EIO;
        return;
    }
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    if (!buf) {
        out->err = ENOMEM;
        return;
    }
    for (uint64_t done = 0; done < d->len && !out->err;) {
        size_t n = d->len - done < CHUNK ? (size_t)(d->len - done) : CHUNK;
        if (!chip_dram_read(c, d->x, d->y, d->addr + done, buf, n))
            memset(buf, 0, n); /* the range was checked before the run: cannot happen */
        if (fwrite(buf, 1, n, out->f) != n && !out->err)
            out->err = errno ? errno : EIO;
        done += n;
    }
    free(buf);
}

/* Host threads when neither -j nor "threads" says: one per physical core, as the bench. */
static unsigned default_threads(void)
{
    struct host_pin *pin = host_pin_open();
    long n = host_pin_cores(pin) ? (long)host_pin_cores(pin) : sysconf(_SC_NPROCESSORS_ONLN);
    host_pin_close(pin);
    return n < 1 ? 1 : n > SIM_MAX_THREADS ? SIM_MAX_THREADS : (unsigned)n;
}

/* tensim run with a chip run description, once the command line and the description agree. The
 * exit status follows a run of one tile's rules, tile by tile: the first tile (in the
 * description's order) that tensim stopped decides it, else the first tile whose core exited
 * non-zero (its first such core), else a host error after the run. */
static int run_chip(struct run_args *a, const struct run_desc *rd)
{
    struct arch tuned; /* --timing applies to every tile */
    timing_apply(a->arch, a->timing, a->ntiming, &tuned);
    const unsigned threads = a->threads ? a->threads : default_threads();
    /* the tiles made and loaded on the run's threads while this one makes the chip (else
     * build_chip makes them and load_chip loads them) */
    struct preload pre;
    const bool preloading = preload_init(&pre, rd, a);
    struct chip_tiles *made = chip_tiles_begin(&tuned, rd->chip->ntiles, threads,
                                               preloading ? preload_tile : NULL, &pre);
    struct chip *c = chip_create(&tuned);
    const bool preloaded = chip_tiles_end(made, c) && preloading;
    if (!c) {
        preload_free(&pre);
        fprintf(stderr, "tensim: %s: out of memory\n", err_kind_text(ERR_HOST));
        return err_kind_exit_code(ERR_HOST);
    }
    struct sim *s = chip_sim(c);
    s->threads = threads;
    int r = build_chip(c, rd);
    struct chip_outputs out;
    if (!r && open_chip_outputs(a, rd, &out))
        r = err_kind_exit_code(ERR_HOST);
    if (r) {
        preload_free(&pre);
        chip_destroy(c);
        return r;
    }
    s->pin = !a->no_pin;
    s->max_cycles = a->max_cycles;
    bool ran = load_chip(c, rd, a, &pre.ec, preloaded ? pre.ok : NULL);
    preload_free(&pre);
    /* A trace: one tracer per tile, each touched only by the thread running its tile, written
     * one after the other into one document after the run (trace/trace.h trace_part). */
    struct tracer *tr = out.trace.f ? calloc(chip_ntiles(c), sizeof *tr) : NULL;
    struct trace_doc doc;
    if (out.trace.f && !tr) {
        fprintf(stderr, "tensim: %s: out of memory\n", err_kind_text(ERR_HOST));
        ran = false;
    }
    for (unsigned i = 0; tr && i < chip_ntiles(c); i++) {
        unsigned x, y;
        char name[32];
        chip_tile_coords(c, i, &x, &y);
        snprintf(name, sizeof name, "tile (%u, %u)", x, y);
        trace_begin(&tr[i], out.trace.f, chip_tile(c, i));
        trace_window(&tr[i], a->trace_from, a->trace_to);
        trace_part(&tr[i], &doc, i, name);
        chip_tile(c, i)->tracer = &tr[i];
    }
    if (tr)
        chip_trace_links(c);
    if (ran)
        chip_run(c);

    unsigned n = chip_ntiles(c);
    int err_tile = -1, guest_tile = -1, out_errno = 0;
    struct sim_outcome oc = {.guest_core = -1};
    for (unsigned i = 0; i < n; i++) {
        const struct tile *t = chip_tile(c, i);
        if (!out_errno)
            out_errno = t->out_errno;
        if (err_tile < 0 && t->err.kind != ERR_NONE)
            err_tile = (int)i;
    }
    for (unsigned i = 0; i < n && err_tile < 0 && guest_tile < 0; i++) {
        sim_outcome_init(&oc, chip_tile(c, i));
        if (oc.exit_status)
            guest_tile = (int)i;
    }
    if (err_tile >= 0)
        sim_outcome_init(&oc, chip_tile(c, (unsigned)err_tile));
    else if (guest_tile < 0)
        oc = (struct sim_outcome){.guest_core = -1};
    errno = 0;
    if (fflush(stdout) && !out_errno)
        out_errno = errno ? errno : EIO;
    if (err_tile >= 0) {
        print_tile_error(c, (unsigned)err_tile);
        unsigned more = 0;
        for (unsigned i = (unsigned)err_tile + 1; i < n; i++)
            more += chip_tile(c, i)->err.kind != ERR_NONE;
        if (more)
            fprintf(stderr, "tensim: note: %u more tile%s stopped with an error\n", more, more > 1 ? "s" : "");
    }
    for (unsigned i = 0; i < n; i++) { /* sim_print_guest_exits, with each tile's place */
        const struct tile *t = chip_tile(c, i);
        unsigned x, y;
        chip_tile_coords(c, i, &x, &y);
        for (int k = 0; k < NUM_CORES; k++) {
            const struct rv_core *rc = &t->core[k];
            if (rc->state == CORE_HALTED && rc->exit_code)
                fprintf(stderr, "tensim: guest exit: (%u, %u) %s cycle=%llu: exit code %d%s\n", x, y,
                        core_name(k), (unsigned long long)rc->halt_cycle, rc->exit_code,
                        guest_exit_status(rc->exit_code) != rc->exit_code
                            ? " (outside 1..98: passed on as exit status 99)" : "");
        }
    }
    if (out_errno)
        sim_host_error(&oc, "cannot write the cores' output to standard output: %s", strerror(out_errno));
    if (!a->quiet && ran) {
        chip_report(c, stderr);
        timing_report(chip_arch(c), stderr);
    }
    for (unsigned i = 0; i < out.nreads; i++) {
        write_chip_dump(c, &out.dump[i], &out.read[i]);
        close_output(&oc, &out.read[i]);
        out.dump[i].written = !out.read[i].err;
    }
    if (out.nreads && err_tile >= 0)
        fprintf(stderr, "tensim: note: the read files hold memory as it was when the run %s at "
                "cycle %" PRIu64 "\n", ran ? "stopped" : "failed to start", chip_cycles(c));
    if (tr) {
        trace_doc_begin(&doc, out.trace.f);
        bool ok = true;
        for (unsigned i = 0; i < n; i++) {
            ok &= trace_end(&tr[i]);
            chip_tile(c, i)->tracer = 0;
        }
        ok &= chip_link_trace(c, &doc, trace_doc_pid_after(n), a->trace_from, a->trace_to);
        trace_doc_end(&doc);
        if (!ok)
            sim_host_error(&oc, "out of memory while writing the trace %s", a->trace_file);
        free(tr);
    }
    close_output(&oc, &out.trace);
    if (out.stats.f)
        chip_stats_file(c, rd, &oc, err_tile, guest_tile, &out, out.stats.f);
    close_output(&oc, &out.stats);
    close_chip_outputs(&out);
    chip_destroy(c);
    return oc.exit_status;
}

static int cmd_run(int argc, char **argv)
{
    catch_stop_signals();
    struct run_args a;
    int r = parse_run(argc, argv, &a);
    if (r)
        return r < 0 ? 0 : r;
    struct run_desc *rd = 0;
    if (a.run_file) {
        char err[600];
        if (!(rd = malloc(sizeof *rd))) {
            fprintf(stderr, "tensim: %s: out of memory\n", err_kind_text(ERR_HOST));
            return err_kind_exit_code(ERR_HOST);
        }
        if (run_desc_load(rd, a.run_file, a.arch_given ? a.arch : 0, err, sizeof err)) {
            fprintf(stderr, "tensim: %s: %s\n", err_kind_text(ERR_BAD_RUN), err);
            run_desc_free(rd);
            free(rd);
            return err_kind_exit_code(ERR_BAD_RUN);
        }
        r = apply_run_desc(&a, rd);
    }
    if (!r)
        r = check_outputs(&a, rd);
    if (!r && rd && rd->chip) {
        r = run_chip(&a, rd);
        run_desc_free(rd);
        free(rd);
        return r;
    }
    struct run_outputs out;
    if (!r && open_outputs(&a, &out))
        r = err_kind_exit_code(ERR_HOST);
    if (r) {
        if (rd)
            run_desc_free(rd);
        free(rd);
        return r;
    }

    struct arch tuned; /* the architecture with this run's --timing changes */
    timing_apply(a.arch, a.timing, a.ntiming, &tuned);
    struct sim sim = {.max_cycles = a.max_cycles};
    struct tile *t = sim_add_tile(&sim, &tuned);
    if (!t) {
        fprintf(stderr, "tensim: %s: out of memory\n", err_kind_text(ERR_HOST));
        return err_kind_exit_code(ERR_HOST);
    }
    t->out = stdout;
    t->errout = stderr;
    t->stop = &stop_signal;
    struct progress progress = {.after = 2.0, .every = 0.5, .start = host_seconds()};
    if (!a.quiet && isatty(STDERR_FILENO)) {
        const char *env = getenv("TENSIM_PROGRESS_AFTER");
        char *end;
        double after = env ? strtod(env, &end) : -1;
        if (env && *env && !*end && after >= 0) {
            progress.after = after;
            progress.every = after < progress.every ? after : progress.every;
        }
        progress.last = progress.start;
        t->progress = show_progress;
        t->progress_ctx = &progress;
    }
    t->unpredictable_warn = a.unpredictable_warn > 0;
    t->lockstep = a.lockstep;
    if (a.lint && !(t->lint = lint_new())) {
        fprintf(stderr, "tensim: %s: out of memory for --lint\n", err_kind_text(ERR_HOST));
        sim_destroy(&sim);
        return err_kind_exit_code(ERR_HOST);
    }
    for (unsigned i = 0; i < a.nloads && t->err.kind == ERR_NONE; i++)
        host_load_file(t, ERR_BAD_FILE, "--load ", a.loads[i].file, a.loads[i].addr);
    struct host host = {0};
    if (rd && t->err.kind == ERR_NONE) {
        rd->loader = a.loader;
        host_setup(&host, t, rd);
    }
    for (int k = 0; k < NUM_CORES && t->err.kind == ERR_NONE; k++)
        if (a.prog[k])
            elf_run_file(t, k, a.prog[k], a.loader);
    bool ran = t->err.kind == ERR_NONE;
    for (int k = 0; k < NUM_CORES && out.profile.f && ran; k++)
        if (!(t->prof[k] = rv_profile_new(t->arch->l1_size))) {
            fprintf(stderr, "tensim: %s: out of memory for --profile\n", err_kind_text(ERR_HOST));
            ran = false;
        }
    t->profiling = out.profile.f && ran;
    struct tracer tracer;
    if (out.trace.f) {
        trace_begin(&tracer, out.trace.f, t);
        trace_window(&tracer, a.trace_from, a.trace_to);
        t->tracer = &tracer;
    }
    for (unsigned i = 0; i < a.state.n; i++)
        a.state.spec[i].f = out.state[i].f;
    if (ran && a.state.n) {
        a.state.place = rd && rd->layout ? &host.place : 0; /* zone=: where the buffers are */
        state_arm(&a.state, t);
    }
    struct gdb_stub *gdb = 0;
    if (ran && a.gdb) {
        char err[300];
        bool interrupted;
        if (!(gdb = gdb_open(a.gdb_port, a.gdb_core, &stop_signal, stderr, err, sizeof err, &interrupted))) {
            tile_error(t, interrupted ? ERR_INTERRUPTED : ERR_HOST, -1, 0, "%s", err);
            ran = false;
        }
        t->gdb = gdb;
        if (gdb)
            gdb->monitor_tensix = monitor_tensix;
    }
    if (ran)
        tile_run(t, sim.max_cycles);
    t->gdb = 0;
    gdb_close(gdb);
    if (a.state.n && t->dump) { /* error=: the state where the run stopped, before the report */
        state_at_error(&a.state, t);
        state_finish(&a.state, t, stderr);
    }
    if (progress.shown) { /* erase the progress line before the report */
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    t->progress = 0;
    if (ran && rd)
        host_check_end(&host, t);
    errno = 0;
    int out_errno = t->out_errno; /* the cores' output */
    if (fflush(stdout) && !out_errno)
        out_errno = errno ? errno : EIO;
    /* The run's own status first; host-side failures after it only count when it succeeded. */
    struct sim_outcome oc;
    sim_outcome_init(&oc, t);
    struct zones *zones = 0;
    if (ran && rd && rd->layout && (zones = malloc(sizeof *zones))) {
        zones_read(zones, t->l1, &host.place, host.elf);
        if (zones->n || zones->nnames)
            oc.zones = zones;
    }
    if (out.trace.f) {
        if (oc.zones)
            zones_trace(oc.zones, &tracer);
        if (!trace_end(&tracer))
            sim_host_error(&oc, "out of memory while writing the trace %s", a.trace_file);
        t->tracer = 0;
    }
    if (t->err.kind != ERR_NONE)
        sim_print_error(&t->err, stderr);
    sim_print_guest_exits(t, stderr);
    if (out_errno)
        sim_host_error(&oc, "cannot write the cores' output to standard output: %s", strerror(out_errno));
    if (!a.quiet && ran) {
        stats_report(t, stderr);
        timing_report(t->arch, stderr);
        if (rd && host_ended(t))
            fprintf(stderr, "the run ended when its end condition (%s) held, at cycle %" PRIu64 "\n",
                    rd->end_kernel_complete ? "kernel_complete" : "\"end\"", t->cycles);
        if (oc.zones)
            zones_report(oc.zones, stderr);
        if (t->lint)
            lint_report(t->lint, t, LINT_REPORT_LINES, stderr);
    }
    close_output(&oc, &out.trace);
    for (unsigned i = 0; i < a.state.n; i++)
        close_output(&oc, &out.state[i]);
    if (out.profile.f) {
        write_profiles(t, &a, rd, out.profile.f);
        close_output(&oc, &out.profile);
    }
    if (out.zones.f) {
        if (oc.zones)
            zones_csv(oc.zones, out.zones.f);
        else
            fprintf(stderr, "tensim: note: no profiler zones (the kernels were not built with "
                            "LLK_PROFILER); %s is empty\n", a.zones_file);
        close_output(&oc, &out.zones);
    }
    for (unsigned i = 0; i < a.ndumps; i++) {
        struct sim_xfer *x = &a.dumps[i];
        if (fwrite(t->l1 + x->addr, 1, x->len, out.dump[i].f) != x->len && !out.dump[i].err)
            out.dump[i].err = errno ? errno : EIO;
        close_output(&oc, &out.dump[i]);
        x->written = !out.dump[i].err;
    }
    if (a.ndumps && t->err.kind != ERR_NONE)
        fprintf(stderr, "tensim: note: the --dump files hold L1 as it was when the run %s at "
                "cycle %" PRIu64 "\n", ran ? "stopped" : "failed to start", t->cycles);
    oc.dumps = a.dumps;
    oc.ndumps = a.ndumps;
    if (rd) {
        oc.run_file = rd->path;
        oc.run_boot = boot_mode_name(rd->boot);
        oc.run_end = rd->end_kernel_complete ? "kernel_complete" : rd->end >= 0 ? "condition" : "";
        oc.run_ended = host_ended(t);
    }
    /* --lint's findings decide the status only when nothing else failed */
    if (t->lint && t->lint->total && oc.exit_status == 0)
        oc.exit_status = err_kind_exit_code(ERR_LINT);
    if (out.stats.f)
        stats_json(t, &oc, out.stats.f);
    close_output(&oc, &out.stats);
    free(t->lint);
    sim_destroy(&sim);
    free(zones);
    if (rd) {
        host_free(&host);
        run_desc_free(rd);
        free(rd);
    }
    return oc.exit_status;
}

/* ---- tensim help, tensim version ---- */

static const char top_usage[] =
    "Usage: tensim COMMAND [OPTION]... [FILE]\n"
    "A cycle-approximate simulator of Tenstorrent Tensix tiles (Blackhole, Wormhole B0).\n"
    "\n"
    "Commands:\n"
    "  run [OPTION]... [FILE]   run programs on one tile, or on a chip's tiles, and report the\n"
    "                           cycles they took\n"
    "  bench run MANIFEST       run a regression bench and compare it with a baseline\n"
    "  bench report RESULTS     write a bench's results as an HTML page with charts\n"
    "  help [COMMAND|TOPIC]     show the help of a command, or of a topic: exit-status\n"
    "  version                  show the version\n"
    "\n"
    "Options:\n"
    "  -h, --help               show this help and exit\n"
    "      --version            show the version and exit\n"
    "\n"
    "'tensim run --help' lists the options of a run; docs/user-guide.md has the whole story.\n";

static int print_version(void)
{
    printf("tensim %s\n", TENSIM_VERSION);
    return 0;
}

static int print_exit_status(void)
{
    printf("Exit status of tensim run:\n");
    printf("  %-7s %s\n", "0", err_kind_description(ERR_NONE));
    printf("  %-7s a core exited with this code (the first in TRISC0, TRISC1, TRISC2, BRISC order)\n",
           "1-98");
    printf("  %-7s a core exited with a code outside 1..98 (the report gives it)\n", "99");
    for (int k = ERR_NONE + 1; k < ERR_KIND_COUNT; k++)
        printf("  %-7d %s: %s\n", err_kind_exit_code((enum err_kind)k), err_kind_text((enum err_kind)k),
               err_kind_description((enum err_kind)k));
    printf("When tensim stops the run itself (100-112) that code wins over the cores' exit codes.\n"
           "A failure to write an output after the run (109) is reported, and becomes the exit\n"
           "status only when the run itself succeeded.\n");
    return 0;
}

static const char *const commands[] = {"run", "bench", "help", "version"};
static const char *const topics[] = {"run", "bench", "help", "version", "exit-status"};

static int unknown_word(const char *what, const char *word, const char *const *list, unsigned n)
{
    const char *near = cli_nearest(word, list, n);
    if (near)
        return cli_usage_error(0, "unknown %s '%s' (did you mean '%s'?)", what, word, near);
    if (strchr(word, '.') || strchr(word, '/'))
        return cli_usage_error(0, "unknown %s '%s' (to run a program: tensim run %s)", what, word, word);
    return cli_usage_error(0, "unknown %s '%s'", what, word);
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 1) {
        fputs(top_usage, stdout);
        return 0;
    }
    if (argc > 1)
        return cli_usage_error(0, "help takes one command or topic");
    if (!strcmp(argv[0], "run"))
        cli_help(&run_cmd, stdout);
    else if (!strcmp(argv[0], "bench")) {
        char *args[] = {"bench", "--help", 0};
        return bench_main(2, args, 0);
    } else if (!strcmp(argv[0], "exit-status"))
        return print_exit_status();
    else if (!strcmp(argv[0], "help") || !strcmp(argv[0], "version"))
        fputs(top_usage, stdout);
    else
        return unknown_word("help topic", argv[0], topics, sizeof topics / sizeof topics[0]);
    return 0;
}

/* hwloc (the worker threads' pinning, core/host_pin.c) is asked for the cores alone, but loads
 * all its plugins with every topology (PCI, OpenCL, OpenGL with X11, libxml2 with ICU): 5-10 ms,
 * before a chip run on two or more threads can start, of a run of 60 ms. They are left out,
 * unless the user's environment names its own list; before any thread exists (setenv). */
static void hwloc_cores_only(void)
{
    setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_xml_libxml,"
           "hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero", 0);
}

int main(int argc, char **argv)
{
    hwloc_cores_only();
    if (argc < 2)
        return cli_usage_error(0, "no command (try 'tensim run FILE')");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench")) {
        catch_stop_signals();
        return bench_main(argc - 1, argv + 1, &stop_signal);
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        return cmd_help(argc - 2, argv + 2);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        if (argc > 2)
            return cli_usage_error(0, "%s takes no arguments", cmd);
        return print_version();
    }
    if (cmd[0] == '-')
        return cli_usage_error(0, "%s before the command (try 'tensim run %s ...')", cmd, cmd);
    return unknown_word("command", cmd, commands, sizeof commands / sizeof commands[0]);
}
