/* `make fuzz`: random inputs against the sanitizer build of tensim, for a bounded time.
 *
 *   build/fuzz [--seconds N] [--seed S] [--bin build/tensim-asan] [--out build/fuzz-out]
 *
 * Five kinds of case, each a command line plus the files it names:
 *   elf     an ELF of the repository (build/guest, build/kernels) with headers mutated
 *   layout  an ELF written from scratch with random segments and entry point
 *   rv      random RV32 instructions on one to four cores (valid encodings, raw words)
 *   tensix  TRISC programs pushing random Tensix instructions (every form of the arch, random
 *           fields), with random L1 data to unpack
 *   cli     random command lines (options, prefixes, misspellings, bad numbers, odd paths)
 * Every run is judged by test/fuzz/oracle.c (no crash, hang or sanitizer report; an exit status
 * that matches what stderr reports; stats that parse and add up; a trace that parses), and one
 * case in eight is run twice to check that output, stats and trace are identical. A case that
 * fails is shrunk (options dropped, files cut and zeroed while the failure stays the same) and
 * saved under OUT (build/fuzz-out)/findings/<signature>-<n>/ as `cmd` (one argument a line, @/ for the case's
 * folder), its files and `found.txt`. Add a fixed one to test/corpus/ with an `expect` file and
 * `make test` replays it (test/test_corpus.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../riscv/decode.h"
#include "../../units/tensix_isa.h"
#include "../elfgen.h"
#include "oracle.h"

/* ---- randomness (splitmix64: one seed reproduces a whole session) ---- */

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
static bool chance(unsigned percent) { return below(100) < percent; }
#define PICK(arr) ((arr)[below(sizeof(arr) / sizeof((arr)[0]))])

/* ---- a case ---- */

#define MAX_ARGS 64
#define MAX_FILES 8

struct file {
    char name[32];
    uint8_t *data;
    size_t len;
};

struct fcase {
    const char *kind;
    int argc;
    char *argv[MAX_ARGS]; /* malloc'd; "@/" at the start means the case's folder */
    struct file file[MAX_FILES];
    unsigned nfiles;
};

static void add_arg(struct fcase *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_arg(struct fcase *c, const char *fmt, ...)
{
    if (c->argc >= MAX_ARGS - 1)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->argv[c->argc++] = strdup(buf);
}

static struct file *add_file(struct fcase *c, const char *name, uint8_t *data, size_t len)
{
    struct file *f = &c->file[c->nfiles++];
    snprintf(f->name, sizeof f->name, "%s", name);
    f->data = data;
    f->len = len;
    return f;
}

static void free_case(struct fcase *c)
{
    for (int i = 0; i < c->argc; i++)
        free(c->argv[i]);
    for (unsigned i = 0; i < c->nfiles; i++)
        free(c->file[i].data);
    memset(c, 0, sizeof *c);
}

static void copy_case(struct fcase *dst, const struct fcase *src)
{
    *dst = *src;
    for (int i = 0; i < src->argc; i++)
        dst->argv[i] = strdup(src->argv[i]);
    for (unsigned i = 0; i < src->nfiles; i++) {
        dst->file[i].data = malloc(src->file[i].len ? src->file[i].len : 1);
        memcpy(dst->file[i].data, src->file[i].data, src->file[i].len);
    }
}

/* ---- seeds: the repository's own ELFs ---- */

static struct file seeds[64];
static unsigned nseeds;

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    uint8_t *b = malloc(1 << 20);
    *len = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

static void load_seeds(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && nseeds < 64) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".elf"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct file *s = &seeds[nseeds];
        if ((s->data = slurp(path, &s->len)))
            snprintf(s->name, sizeof s->name, "%.31s", e->d_name), nseeds++;
    }
    closedir(d);
}

/* ---- generators ---- */

static const uint32_t interesting[] = {0, 1, 2, 3, 4, 0x20, 0x34, 0x7F, 0x80, 0xFF, 0x100, 0x1000,
                                       0x6000, 0xA000, 0xE000, 0x20000, 0x17FFFC, 0x180000,
                                       0xFFB00000, 0xFFB00FFC, 0xFFB01000, 0xFFE40000, 0xFFEF0000,
                                       0x7FFFFFFF, 0x80000000, 0xFFFFFFFC, 0xFFFFFFFF, 0xFFFF};

static void program_args(struct fcase *c)
{
    add_arg(c, "run");
    add_arg(c, "-q");
    if (chance(30))
        add_arg(c, "--arch=wormhole");
    add_arg(c, "--max-cycles=%u", 20000 + below(200000));
    add_arg(c, "--stats=@/stats.json");
    if (chance(25))
        add_arg(c, "--trace=@/trace.json");
    if (chance(20))
        add_arg(c, "--dump=0x%x:%u:@/dump.bin", below(0x180000 / 4) * 4, below(4096));
}

static void gen_elf(struct fcase *c)
{
    c->kind = "elf";
    const struct file *s = &seeds[below(nseeds)];
    size_t len = s->len;
    unsigned muts = 1 + below(4);
    uint8_t *b = malloc(len + 4096 * muts); /* each mutation appends at most 4 KiB */
    memcpy(b, s->data, len);
    for (unsigned m = 0; m < muts; m++) {
        size_t head = len < 52 + 32 * 8 ? len : 52 + 32 * 8; /* header and the first program headers */
        switch (below(6)) {
        case 0: if (head) b[below((uint32_t)head)] ^= (uint8_t)(1u << below(8)); break;
        case 1:
            if (head >= 4) {
                uint32_t v = PICK(interesting), at = below((uint32_t)head - 3);
                memcpy(b + at, &v, 4);
            }
            break;
        case 2: len = below((uint32_t)len + 1); break;
        case 3: { unsigned extra = below(4096); for (unsigned i = 0; i < extra; i++) b[len + i] = (uint8_t)rnd(); len += extra; break; }
        case 4: if (len >= 52 + 64) memcpy(b + 52 + 32 * below(2), b + 52 + 32 * below(2), 32); break;
        case 5: if (len >= 46) { uint16_t v = (uint16_t)PICK(interesting); memcpy(b + 44, &v, 2); } break;
        }
    }
    add_file(c, "prog.elf", b, len);
    program_args(c);
    add_arg(c, "@/prog.elf");
}

static void gen_layout(struct fcase *c)
{
    c->kind = "layout";
    static const uint32_t code[] = ELFGEN_EXIT(0);
    unsigned n = 1 + below(chance(10) ? 3000 : 8);
    struct elfgen_seg *seg = calloc(n, sizeof *seg);
    static uint8_t junk[4096]; /* every segment's bytes come from here: exit(0), then noise */
    for (unsigned i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)rnd();
    memcpy(junk, code, sizeof code);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = chance(50) ? PICK(interesting) : 0x6000 + below(0x40) * 0x40;
        uint32_t mem = chance(20) ? PICK(interesting) : below(256);
        uint32_t file = below(mem < sizeof junk ? mem + 1 : sizeof junk + 1);
        seg[i] = (struct elfgen_seg){v, junk, file, mem};
        if (i == 0 && chance(70))
            seg[i] = (struct elfgen_seg){0x6000, code, sizeof code, sizeof code};
    }
    size_t len;
    uint8_t *b = elfgen(chance(80) ? 0x6000 : PICK(interesting), seg, n, &len);
    free(seg);
    add_file(c, "prog.elf", b, len);
    program_args(c);
    add_arg(c, "@/prog.elf");
}

/* A program of `n` words for core `core` at its window, ending in exit(0). */
static const uint32_t core_base[4] = {0x6000, 0xA000, 0xE000, 0x0};

static void add_program(struct fcase *c, unsigned core, const uint32_t *w, unsigned n)
{
    static const uint32_t exit0[] = ELFGEN_EXIT(0);
    uint32_t *all = malloc((n + 3) * 4);
    memcpy(all, w, n * 4);
    memcpy(all + n, exit0, sizeof exit0);
    struct elfgen_seg seg = {core_base[core], all, (n + 3) * 4, (n + 3) * 4};
    size_t len;
    uint8_t *b = elfgen(core_base[core], &seg, 1, &len);
    free(all);
    char name[32];
    snprintf(name, sizeof name, "core%u.elf", core);
    add_file(c, name, b, len);
    static const char *const opt[4] = {"--trisc0", "--trisc1", "--trisc2", "--brisc"};
    add_arg(c, "%s=@/%s", opt[core], name);
}

/* A random instruction of the RV32 table, with registers biased towards a few and immediates
 * towards small values, so that loads and stores hit memory often enough to matter. */
static uint32_t random_rv(void)
{
    if (chance(5))
        return (uint32_t)rnd();
    for (;;) {
        enum rv_op op = (enum rv_op)(RV_TTINSN + 1 + below(RV_OP_COUNT - RV_TTINSN - 1));
        const struct rv_desc *d = rv_desc(op);
        if (d->cls == RVC_SYSTEM && !chance(5))
            continue; /* ecall/ebreak end the core: rarely */
        unsigned rd = 5 + below(4), rs1 = 5 + below(4), rs2 = 5 + below(4);
        int32_t imm = chance(70) ? (int32_t)below(64) * 4 - 64 : (int32_t)rnd();
        if (d->cls == RVC_BRANCH || d->cls == RVC_JAL)
            imm = ((int32_t)below(16) - 8) * 4;
        if (d->format == RVF_CSR || d->format == RVF_CSRI)
            imm = chance(80) ? (int32_t)PICK(((const uint32_t[]){0x300, 0x301, 0x340, 0xB00, 0xC00, 0xC01, 0xC02, 0x7C0, 0xBC0, 0xBC2})) : (int32_t)below(4096);
        if (d->format == RVF_SH)
            imm = (int32_t)below(32);
        if (d->format == RVF_U)
            imm = (int32_t)(PICK(interesting) & 0xFFFFF000u);
        return rv_encode(op, rd, rs1, rs2, imm);
    }
}

static void gen_rv(struct fcase *c)
{
    c->kind = "rv";
    program_args(c);
    unsigned cores = 1 + below(4);
    for (unsigned k = 0; k < cores; k++) {
        unsigned core = cores == 1 ? below(4) : k, n = 8 + below(200);
        uint32_t *w = malloc(n * 4);
        /* t0..t3 point at memory worth touching: L1, local RAM, MMIO */
        for (unsigned r = 0; r < 4; r++)
            w[r] = rv_encode(RV_LUI, 5 + r, 0, 0, (int32_t)(PICK(interesting) & 0xFFFFF000u));
        for (unsigned i = 4; i < n; i++)
            w[i] = random_rv();
        add_program(c, core, w, n);
        free(w);
    }
}

/* A random instruction word of a form that exists on the architecture, its fields random. */
static uint32_t random_tensix(unsigned arch_bit)
{
    if (chance(3))
        return (uint32_t)rnd();
    bool any_unit = chance(10); /* mostly units that are built, so that runs go deep */
    for (;;) {
        const struct tt_form *f = &tt_forms[below(TT_FORM_COUNT)];
        if (!(f->archs & arch_bit) ||
            (!any_unit && (f->unit == TT_UNIT_SFPU || f->unit == TT_UNIT_XMOV || f->unit == TT_UNIT_NONE)))
            continue;
        uint32_t fields = (uint32_t)rnd() & 0xFFFFFFu;
        if (chance(50)) /* small field values are the common ones */
            fields &= 0x0F0F0Fu;
        return (uint32_t)f->opcode << 24 | (fields & ~f->mask) | f->match;
    }
}

static void gen_tensix(struct fcase *c)
{
    c->kind = "tensix";
    program_args(c);
    bool wh = !strcmp(c->argv[2], "--arch=wormhole");
    unsigned arch_bit = wh ? TT_ARCH_WH : TT_ARCH_BH;
    unsigned cores = 1 + below(3);
    for (unsigned k = 0; k < cores; k++) {
        unsigned n = 4 + below(120);
        uint32_t *w = malloc(n * 4);
        for (unsigned i = 0; i < n; i++) {
            if (chance(8)) { /* a RISC-V store of a random word into Config */
                w[i] = random_rv();
                continue;
            }
            uint32_t t = random_tensix(arch_bit);
            w[i] = (t << 2) | (t >> 30); /* .ttinsn */
        }
        add_program(c, k, w, n);
        free(w);
    }
    if (chance(70)) { /* data to unpack */
        size_t len = 4096 + below(16384);
        uint8_t *d = malloc(len);
        for (size_t i = 0; i < len; i++)
            d[i] = chance(30) ? 0 : (uint8_t)rnd();
        add_file(c, "data.bin", d, len);
        add_arg(c, "--load=@/data.bin@0x%x", 0x20000 + below(0x100) * 0x100);
    }
}

static void gen_cli(struct fcase *c)
{
    c->kind = "cli";
    static const char *const words[] = {
        "run", "run", "run", "help", "version", "--help", "-h", "--version", "rnu", "", "-", "--",
        "-q", "--quiet", "--trisc0", "--trisc1", "--trisc2", "--brisc", "--arch", "--max-cycles",
        "--load", "--dump", "--stats", "--trace", "--tri", "--max", "--st", "--trsic0", "-max-cycles",
        "--quiet=1", "--arch=wh", "--arch=z80", "--max-cycles=0", "--max-cycles=-1",
        "--max-cycles= 5", "--max-cycles=0x10", "--max-cycles=99999999999999999999", "exit-status",
        "@/exit7.elf", "@/exit7.elf", "@/spin.elf", "@/hello.elf", "/tmp", "/dev/null", "/dev/full",
        "/nonexistent/x", "@/out.json", "@/stats.json", "@/trace.json", "@/data.bin@0x20000",
        "@/data.bin@0x17FFFF", "@/data.bin@", "0:16:@/d.bin", "0x17FFF0:0x20:@/d.bin", "1:2",
        "::", "0x:1:x", "@", "\xff\xfe", "--stats=/dev/full", "--trace=/dev/full",
        "--dump=0:4:/dev/full", "--load=/tmp@0", "--stats=@/s.json", "--trace=@/s.json"};
    static const char *const guests[] = {"exit7.elf", "spin.elf", "hello.elf"};
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned k = 0; k < nseeds; k++)
            if (!strcmp(seeds[k].name, guests[i])) {
                uint8_t *d = malloc(seeds[k].len);
                memcpy(d, seeds[k].data, seeds[k].len);
                add_file(c, guests[i], d, seeds[k].len);
            }
    }
    uint8_t *d = malloc(64);
    memset(d, 0x13, 64);
    add_file(c, "data.bin", d, 64);
    unsigned n = below(9);
    if (chance(85)) {
        add_arg(c, "run");
        add_arg(c, "--max-cycles=100000"); /* a spinning program is no hang (a later one wins) */
    }
    for (unsigned i = 0; i < n; i++)
        add_arg(c, "%s", PICK(words));
}

/* Run descriptions (docs/run-description.md): random JSON made of fragments that are right,
 * nearly right and wrong, around the guest programs, so that the parser, the host's actions and
 * its end conditions all see bad input. */
static void gen_cond(char *buf, size_t n, unsigned depth)
{
    static const char *const leaves[] = {
        "{\"word\": \"0x30000\", \"equals\": 0}", "{\"word\": 0, \"not_equals\": \"0x13\"}",
        "{\"word\": \"0x17fffc\", \"equals\": 1, \"mask\": 255}", "{\"word\": \"0x180000\", \"equals\": 1}",
        "{\"word\": 2, \"equals\": 1}", "{\"word\": -4, \"equals\": 1}", "{\"equals\": 1}", "{}", "[]", "7",
        "{\"word\": 0, \"equals\": 1, \"not_equals\": 2}", "{\"word\": \"0x20000\", \"equals\": \"0xffffffffff\"}"};
    if (depth < 3 && chance(30)) {
        char a[400], b[400];
        gen_cond(a, sizeof a, depth + 1);
        gen_cond(b, sizeof b, depth + 1);
        snprintf(buf, n, "{\"%s\": [%s%s%s]}", chance(50) ? "all" : chance(90) ? "any" : "none", a,
                 chance(70) ? ", " : "", chance(70) ? b : "");
        return;
    }
    snprintf(buf, n, "%s", PICK(leaves));
}

static void gen_rundesc(struct fcase *c)
{
    c->kind = "run";
    static const char *const guests[] = {"exit7.elf", "spin.elf", "hello.elf", "copy_l1.elf"};
    for (unsigned i = 0; i < sizeof guests / sizeof guests[0]; i++)
        for (unsigned k = 0; k < nseeds; k++)
            if (!strcmp(seeds[k].name, guests[i])) {
                uint8_t *d = malloc(seeds[k].len);
                memcpy(d, seeds[k].data, seeds[k].len);
                add_file(c, guests[i], d, seeds[k].len);
            }
    static const char *const fragments[] = {
        "\"arch\": \"blackhole\"", "\"arch\": \"wormhole\"", "\"arch\": \"z80\"",
        "\"layout\": \"tt-llk-36b092e8\"", "\"layout\": \"tt-llk\"", "\"boot\": \"brisc\"",
        "\"boot\": \"host\"", "\"boot\": \"trisc\"", "\"boot\": 3", "\"loader\": \"exalens\"",
        "\"loader\": \"segments\"", "\"programs\": {\"trisc0\": \"exit7.elf\"}",
        "\"programs\": {\"trisc0\": \"spin.elf\", \"trisc1\": \"copy_l1.elf\"}",
        "\"programs\": {\"brisc\": \"hello.elf\", \"trisc0\": \"hello.elf\"}",
        "\"programs\": {\"trisc0\": \"nothere.elf\"}", "\"programs\": {\"trisc0\": \"\"}",
        "\"programs\": {\"trisc0\": \"/\"}", "\"programs\": []",
        "\"l1\": [{\"addr\": \"0x30000\", \"words\": [1, 2, \"0x3\"]}]",
        "\"l1\": [{\"addr\": \"0x17fffc\", \"words\": [1]}]", "\"l1\": [{\"addr\": 0, \"file\": \"exit7.elf\"}]",
        "\"l1\": [{\"addr\": \"0x17ff00\", \"file\": \"hello.elf\"}]", "\"l1\": [{\"addr\": 1, \"words\": []}]",
        "\"read\": [{\"addr\": \"0x30000\", \"len\": 16, \"file\": \"r.bin\"}]",
        "\"read\": [{\"addr\": \"0x17ffff\", \"len\": 2, \"file\": \"r.bin\"}]",
        "\"max_cycles\": 5000", "\"max_cycles\": 0", "\"poll_cycles\": 64", "\"poll_cycles\": 2000000",
        "\"zones\": \"z.csv\"", "\"unpredictable\": \"warn\"", "\"end\": \"kernel_complete\"",
        "\"bogus\": 1", "\"tensim_run\": 2"};
    char json[4096];
    size_t used = (size_t)snprintf(json, sizeof json, "{\"tensim_run\": 1");
    unsigned n = below(7);
    for (unsigned i = 0; i < n && used < sizeof json - 1200; i++)
        used += (size_t)snprintf(json + used, sizeof json - used, ", %s", PICK(fragments));
    if (chance(40)) {
        char cond[1000];
        gen_cond(cond, sizeof cond, 0);
        used += (size_t)snprintf(json + used, sizeof json - used, ", \"end\": %s", cond);
    }
    if (chance(30) && used < sizeof json - 1200) {
        char cond[1000];
        gen_cond(cond, sizeof cond, 0);
        used += (size_t)snprintf(json + used, sizeof json - used,
                                 ", \"host\": [{\"when\": %s, \"write\": {\"addr\": \"0x30004\", \"words\": [9]}}]", cond);
    }
    snprintf(json + used, sizeof json - used, "%s", chance(95) ? "}" : "");
    if (chance(10)) /* a damaged file */
        json[below((uint32_t)strlen(json))] = (char)(rnd() & 0x7F);
    size_t len = strlen(json);
    uint8_t *d = malloc(len);
    memcpy(d, json, len);
    add_file(c, "run.json", d, len);
    add_arg(c, "run");
    add_arg(c, "--max-cycles=100000");
    add_arg(c, "--run=@/run.json");
    if (chance(20))
        add_arg(c, "--zones=@/zones.csv");
    if (chance(10))
        add_arg(c, "@/exit7.elf");
}

/* ---- running a case ---- */

static const char *bin = "build/tensim-asan";
static unsigned timeout_s = 20;

static char *read_text(const char *path)
{
    size_t len = 0;
    uint8_t *b = slurp(path, &len);
    if (!b)
        return strdup("");
    b[len < (1 << 20) ? len : (1 << 20) - 1] = 0;
    return (char *)b;
}

struct outcome {
    int status;
    char *out, *err, *stats, *trace;
    const char *sig; /* NULL: fine */
    char why[600];
};

static void free_outcome(struct outcome *o)
{
    free(o->out), free(o->err), free(o->stats), free(o->trace);
    memset(o, 0, sizeof *o);
}

static void run_case(const struct fcase *c, const char *dir, struct outcome *o)
{
    char path[512];
    mkdir(dir, 0777);
    static const char *const leftovers[] = {"stats.json", "trace.json", "dump.bin", "out.json", "s.json", "d.bin"};
    for (size_t i = 0; i < sizeof leftovers / sizeof leftovers[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, leftovers[i]);
        unlink(path);
    }
    for (unsigned i = 0; i < c->nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, c->file[i].name);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(c->file[i].data, 1, c->file[i].len, f);
            fclose(f);
        }
    }
    bool stats = false, trace = false; /* ours to check: in the case's folder, named so */
    for (int i = 0; i < c->argc; i++) {
        stats |= !strcmp(c->argv[i], "--stats=@/stats.json");
        trace |= !strcmp(c->argv[i], "--trace=@/trace.json");
    }
    char *argv[MAX_ARGS + 1];
    argv[0] = (char *)bin;
    for (int i = 0; i < c->argc; i++)
        argv[i + 1] = case_arg(c->argv[i], dir);
    argv[c->argc + 1] = 0;
    char outp[512], errp[512];
    snprintf(outp, sizeof outp, "%s/.stdout", dir);
    snprintf(errp, sizeof errp, "%s/.stderr", dir);
    pid_t pid = fork();
    if (pid == 0) {
        /* in the case's folder: a relative output path ("--trace --arch") lands there */
        if (chdir(dir))
            _exit(127);
        int fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0666), fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        dup2(fo, 1);
        dup2(fe, 2);
        setenv("ASAN_OPTIONS", "detect_leaks=1:exitcode=86", 1);
        setenv("UBSAN_OPTIONS", "exitcode=86:print_stacktrace=1", 1);
        execv(bin, argv);
        _exit(127);
    }
    int status = 0;
    bool timed_out = false;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (waitpid(pid, &status, WNOHANG) == 0) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= (time_t)timeout_s && !timed_out) {
            kill(pid, SIGKILL);
            timed_out = true;
        }
        nanosleep(&(struct timespec){0, 2000000}, 0);
    }
    for (int i = 0; i < c->argc; i++)
        free(argv[i + 1]);
    o->out = read_text(outp);
    o->err = read_text(errp);
    char sp[512], tp[512];
    snprintf(sp, sizeof sp, "%s/stats.json", dir);
    snprintf(tp, sizeof tp, "%s/trace.json", dir);
    o->stats = stats ? read_text(sp) : strdup("");
    o->trace = trace ? read_text(tp) : strdup("");
    struct run_result r = {
        .status = WIFEXITED(status) ? WEXITSTATUS(status) : -1,
        .signal = WIFSIGNALED(status) && !timed_out ? WTERMSIG(status) : 0,
        .timed_out = timed_out,
        .out = o->out, .err = o->err,
        .stats_path = stats ? sp : 0,
        .trace_path = trace ? tp : 0,
    };
    if (r.status == 86)
        r.signal = 0; /* the sanitizers' exit code: their report is in stderr */
    o->status = r.status;
    o->sig = oracle_check(&r, o->why, sizeof o->why);
}

/* ---- shrinking and saving ---- */

static bool same_failure(const struct fcase *c, const char *dir, const char *sig)
{
    struct outcome o = {0};
    run_case(c, dir, &o);
    bool same = o.sig && !strcmp(o.sig, sig);
    free_outcome(&o);
    return same;
}

/* Drop arguments, then cut and zero the largest file, while the failure stays. */
static void shrink(struct fcase *c, const char *dir, const char *sig, time_t budget)
{
    time_t end = time(0) + budget;
    for (int i = c->argc - 1; i >= 0 && time(0) < end; i--) {
        char *keep = c->argv[i];
        memmove(c->argv + i, c->argv + i + 1, (size_t)(c->argc - i - 1) * sizeof *c->argv);
        c->argc--;
        if (same_failure(c, dir, sig)) {
            free(keep);
            continue;
        }
        memmove(c->argv + i + 1, c->argv + i, (size_t)(c->argc - i) * sizeof *c->argv);
        c->argv[i] = keep;
        c->argc++;
    }
    for (unsigned k = 0; k < c->nfiles; k++) {
        struct file *f = &c->file[k];
        for (size_t chunk = f->len / 2; chunk >= 1 && time(0) < end; chunk /= 2) {
            size_t old = f->len;
            f->len -= chunk; /* cut the tail */
            if (!same_failure(c, dir, sig))
                f->len = old;
            for (size_t at = 0; at + chunk <= f->len && time(0) < end; at += chunk) {
                uint8_t save[4096];
                if (chunk > sizeof save)
                    break;
                memcpy(save, f->data + at, chunk);
                bool zero = true;
                for (size_t i = 0; i < chunk; i++)
                    zero &= save[i] == 0;
                if (zero)
                    continue;
                memset(f->data + at, 0, chunk);
                if (!same_failure(c, dir, sig))
                    memcpy(f->data + at, save, chunk);
            }
        }
    }
}

static unsigned saved_per_sig(const char *out, const char *sig)
{
    char path[512];
    unsigned n = 0;
    for (;; n++) {
        snprintf(path, sizeof path, "%s/findings/%s-%u", out, sig, n);
        struct stat st;
        if (stat(path, &st))
            return n;
    }
}

static void save(const struct fcase *c, const char *out, const char *sig, const char *why,
                 const char *err)
{
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/findings", out);
    mkdir(dir, 0777);
    unsigned n = saved_per_sig(out, sig);
    snprintf(dir, sizeof dir, "%s/findings/%s-%u", out, sig, n);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/cmd", dir);
    FILE *f = fopen(path, "w");
    for (int i = 0; f && i < c->argc; i++)
        fprintf(f, "%s\n", c->argv[i]);
    if (f)
        fclose(f);
    for (unsigned i = 0; i < c->nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, c->file[i].name);
        if ((f = fopen(path, "wb"))) {
            fwrite(c->file[i].data, 1, c->file[i].len, f);
            fclose(f);
        }
    }
    snprintf(path, sizeof path, "%s/found.txt", dir);
    if ((f = fopen(path, "w"))) {
        fprintf(f, "kind: %s\nfailure: %s: %s\nstderr:\n%s", c->kind, sig, why, err);
        fclose(f);
    }
    printf("fuzz: %s case: %s: %s\n      saved in %s\n", c->kind, sig, why, dir);
}

/* ---- the session ---- */

int main(int argc, char **argv)
{
    unsigned seconds = 60;
    uint64_t seed = (uint64_t)time(0) ^ (uint64_t)getpid() << 20;
    const char *out = "build/fuzz-out";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seconds"))
            seconds = (unsigned)strtoul(argv[i + 1], 0, 10);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[i + 1], 0, 0);
        else if (!strcmp(argv[i], "--bin"))
            bin = argv[i + 1];
        else if (!strcmp(argv[i], "--out"))
            out = argv[i + 1];
        else {
            fprintf(stderr, "usage: fuzz [--seconds N] [--seed S] [--bin TENSIM] [--out DIR]\n");
            return 2;
        }
    }
    rng_state = seed;
    static char bin_path[4096]; /* cases run in their own folder */
    if (!realpath(bin, bin_path)) {
        fprintf(stderr, "fuzz: %s: %s\n", bin, strerror(errno));
        return 2;
    }
    bin = bin_path;
    load_seeds("build/guest");
    load_seeds("build/kernels");
    if (!nseeds) {
        fprintf(stderr, "fuzz: no seed ELFs in build/guest or build/kernels (make kernels)\n");
        return 2;
    }
    bool verbose = getenv("FUZZ_VERBOSE") != NULL;
    mkdir(out, 0777);
    char dir[512];
    char *out_abs = realpath(out, 0);
    if (!out_abs || strlen(out_abs) > 400) {
        fprintf(stderr, "fuzz: %s: %s\n", out, out_abs ? "path too long" : strerror(errno));
        return 2;
    }
    snprintf(dir, sizeof dir, "%s/case-%d", out_abs, getpid());
    free(out_abs);
    printf("fuzz: %u s against %s, seed %llu (repeat with --seed %llu)\n", seconds, bin,
           (unsigned long long)seed, (unsigned long long)seed);
    fflush(stdout);
    static void (*const gen[])(struct fcase *) = {gen_elf, gen_layout, gen_rv, gen_tensix, gen_tensix,
                                                  gen_cli, gen_rundesc};
    static const char *const names[] = {"elf", "layout", "rv", "tensix", "cli", "run"};
    enum { KINDS = sizeof names / sizeof names[0] };
    unsigned runs[KINDS] = {0}, findings = 0, twice = 0, by_status[KINDS][256] = {{0}};
    time_t end = time(0) + seconds;
    while (time(0) < end) {
        struct fcase c = {0};
        gen[below(sizeof gen / sizeof gen[0])](&c);
        struct outcome o = {0};
        run_case(&c, dir, &o);
        if (verbose) { /* FUZZ_VERBOSE=1: each case's kind, exit status and first stderr line */
            const char *nl = strchr(o.err, '\n');
            printf("%-6s %3d %.*s\n", c.kind, o.status, nl ? (int)(nl - o.err) : 0, o.err);
        }
        for (unsigned k = 0; k < KINDS; k++)
            if (!strcmp(c.kind, names[k])) {
                runs[k]++;
                by_status[k][o.status & 255]++;
            }
        if (!o.sig && chance(12)) { /* determinism: the same case again, byte for byte */
            struct outcome p = {0};
            run_case(&c, dir, &p);
            twice++;
            if (strcmp(o.out, p.out) || strcmp(o.err, p.err) || strcmp(o.stats, p.stats) || strcmp(o.trace, p.trace)) {
                o.sig = "nondeterminism";
                snprintf(o.why, sizeof o.why, "two runs of the same case differ (%s)",
                         strcmp(o.out, p.out) ? "stdout" : strcmp(o.err, p.err) ? "stderr"
                         : strcmp(o.stats, p.stats) ? "stats" : "trace");
            }
            free_outcome(&p);
        }
        if (o.sig) {
            findings++;
            if (saved_per_sig(out, o.sig) < 3) {
                struct fcase small;
                copy_case(&small, &c);
                if (strcmp(o.sig, "nondeterminism") && strcmp(o.sig, "hang"))
                    shrink(&small, dir, o.sig, 30);
                save(&small, out, o.sig, o.why, o.err);
                free_case(&small);
            }
        }
        free_outcome(&o);
        free_case(&c);
    }
    printf("fuzz: %u runs (elf %u, layout %u, rv %u, tensix %u, cli %u, run %u), %u run twice, %u findings\n",
           runs[0] + runs[1] + runs[2] + runs[3] + runs[4] + runs[5], runs[0], runs[1], runs[2],
           runs[3], runs[4], runs[5], twice, findings);
    for (unsigned k = 0; k < KINDS; k++) { /* how deep each kind got: its exit statuses */
        printf("      %-6s exit status:", names[k]);
        for (unsigned s = 0; s < 256; s++)
            if (by_status[k][s])
                printf(" %u x%u", s, by_status[k][s]);
        printf("\n");
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) {
    }
    return findings ? 1 : 0;
}
