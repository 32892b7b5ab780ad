/* State dumps (trace/state.h): parsing WHEN:WHAT:FILE, arming the tile's dump hook, and the
 * two views of a tile's state, JSON (one document per line) and text. */
#include "state.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli.h"
#include "../riscv/csr.h"
#include "../sync/gate.h"
#include "../units/formats.h"
#include "../units/sfpu.h"
#include "json.h"
#include "zones.h"

/* ---- parsing ---- */

static const char *const what_names[] = {"dst", "srca", "srcb", "lregs", "gprs", "cfg", "sem",
                                         "pipe", "rv"};
#define NWHAT (sizeof what_names / sizeof what_names[0])

static int fail(char *err, size_t n, const char *fmt, const char *arg)
{
    snprintf(err, n, fmt, arg);
    return -1;
}

/* "TRISC0".."NCRISC" (any case) */
static int core_by_name(const char *s)
{
    for (int k = 0; k < NUM_CORES; k++)
        if (!strcasecmp(s, core_name(k)))
            return k;
    return -1;
}

/* X@WHO: X in *x, WHO after the last '@'. */
static char *split_at(char *v)
{
    char *at = strrchr(v, '@');
    if (!at)
        return 0;
    *at = 0;
    return at + 1;
}

static int parse_when(char *w, struct state_spec *s, char *err, size_t n)
{
    static const char hint[] = "cycle=N, pc=ADDR@CORE, region=ID@CORE, region-begin=ID@CORE, "
                               "region-end=ID@CORE, insn=MNEMONIC@Tn, zone=MARKER@THREAD, "
                               "zone-begin=MARKER@THREAD, zone-end=MARKER@THREAD or error";
    snprintf(s->text, sizeof s->text, "%.63s", w);
    if (!strcmp(w, "error")) {
        s->when = SWHEN_ERROR;
        return 0;
    }
    char *eq = strchr(w, '=');
    if (!eq) {
        snprintf(err, n, "--dump-state: unknown WHEN '%s' (%s)", w, hint);
        return -1;
    }
    *eq = 0;
    char *val = eq + 1;
    unsigned long long x;
    if (!strcmp(w, "cycle")) {
        if (cli_parse_u64(val, &x))
            return fail(err, n, "--dump-state: cycle=N needs a cycle number, not '%s'", val);
        s->when = SWHEN_CYCLE;
        s->cycle = x;
        return 0;
    }
    if (!strcmp(w, "pc") || !strcmp(w, "region") || !strcmp(w, "region-begin") ||
        !strcmp(w, "region-end")) {
        bool pc = !strcmp(w, "pc");
        char *who = split_at(val);
        int core = who ? core_by_name(who) : -1;
        if (!who || !*val)
            return fail(err, n, pc ? "--dump-state: pc wants ADDR@CORE (pc=0x6100@TRISC0), not '%s'"
                                   : "--dump-state: region wants ID@CORE (region=1@TRISC0), not '%s'",
                        val);
        if (core < 0)
            return fail(err, n, "--dump-state: unknown core '%s' (TRISC0, TRISC1, TRISC2, BRISC or NCRISC)",
                        who);
        s->core = (unsigned)core;
        if (pc) {
            if (cli_parse_u64(val, &x) || x > 0xFFFFFFFFu || (x & 3))
                return fail(err, n, "--dump-state: pc=%s is not a 4-byte aligned 32-bit address",
                            val);
            s->when = SWHEN_PC;
            s->pc = (uint32_t)x;
            return 0;
        }
        if (cli_parse_u64(val, &x) || x >= REGION_IDS)
            return fail(err, n, "--dump-state: region id '%s' is not 0..63", val);
        s->region = (unsigned)x;
        s->when = !strcmp(w, "region") ? SWHEN_REGION
                  : !strcmp(w, "region-begin") ? SWHEN_REGION_BEGIN : SWHEN_REGION_END;
        return 0;
    }
    if (!strcmp(w, "insn")) {
        char *who = split_at(val);
        if (!who || !*val)
            return fail(err, n, "--dump-state: insn wants MNEMONIC@Tn (insn=PACR@T2), not '%s'", val);
        if ((who[0] != 'T' && who[0] != 't') || who[1] < '0' || who[1] > '2' || who[2])
            return fail(err, n, "--dump-state: unknown thread '%s' (T0, T1 or T2)", who);
        if (strlen(val) >= sizeof s->mnemonic)
            return fail(err, n, "--dump-state: '%s' is no Tensix instruction", val);
        for (unsigned i = 0; val[i]; i++)
            s->mnemonic[i] = (char)toupper((unsigned char)val[i]);
        s->core = (unsigned)(who[1] - '0');
        s->when = SWHEN_INSN;
        return 0;
    }
    if (!strcmp(w, "zone") || !strcmp(w, "zone-begin") || !strcmp(w, "zone-end")) {
        char *who = split_at(val);
        if (!who)
            return fail(err, n, "--dump-state: zone wants MARKER@THREAD (zone=KERNEL@math), not '%s'",
                        val);
        if (!*val)
            return fail(err, n, "--dump-state: zone wants MARKER@THREAD (zone=KERNEL@math): no "
                        "marker before '@%s'", who);
        unsigned th = 0;
        while (th < LLK_THREADS && strcasecmp(who, zone_thread_name(th)))
            th++;
        if (th == LLK_THREADS)
            return fail(err, n, "--dump-state: unknown thread '%s' (unpack, math or pack, as tt-llk "
                        "names them)", who);
        if (strlen(val) >= sizeof s->marker)
            return fail(err, n, "--dump-state: zone marker '%.200s' is too long", val);
        strcpy(s->marker, val);
        s->core = th;
        s->when = !strcmp(w, "zone") ? SWHEN_ZONE : !strcmp(w, "zone-begin") ? SWHEN_ZONE_BEGIN
                                                                               : SWHEN_ZONE_END;
        return 0;
    }
    *eq = '=';
    snprintf(err, n, "--dump-state: unknown WHEN '%s' (%s)", w, hint);
    return -1;
}

static int parse_what(char *v, struct state_spec *s, char *err, size_t n)
{
    s->what = 0;
    if (!*v)
        return fail(err, n, "--dump-state: WHAT is empty%s (dst, srca, ..., or all)", "");
    /* Items in any case, as cores and mnemonics are; an empty item is a mistake, not nothing. */
    for (char *tok = v, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        for (char *c = tok; *c; c++)
            *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        if (!*tok)
            return fail(err, n, "--dump-state: an empty item in WHAT%s (dst, srca, ..., or all, "
                        "separated by commas)", "");
        if (!strcmp(tok, "all")) {
            s->what = SW_ALL;
            continue;
        }
        unsigned k = 0;
        while (k < NWHAT && strcmp(tok, what_names[k]))
            k++;
        if (k == NWHAT) {
            const char *near = cli_nearest(tok, what_names, NWHAT);
            snprintf(err, n, "--dump-state: unknown WHAT '%s'%s%s%s (dst, srca, srcb, lregs, gprs, "
                     "cfg, sem, pipe, rv or all)", tok, near ? " (did you mean '" : "",
                     near ? near : "", near ? "'?)" : "");
            return -1;
        }
        s->what |= 1u << k;
    }
    if (!s->what)
        return fail(err, n, "--dump-state: WHAT is empty%s (dst, srca, ..., or all)", "");
    return 0;
}

int state_what_parse(char *v, unsigned *what, char *err, size_t n)
{
    struct state_spec s;
    if (parse_what(v, &s, err, n))
        return -1;
    *what = s.what;
    return 0;
}

int state_spec_parse(char *v, struct state_spec *s, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : 0;
    if (!c2 || !c2[1] || c1 == v)
        return fail(err, n, "--dump-state wants WHEN:WHAT:FILE (cycle=100:dst,gprs:out.json), "
                    "not '%s'", v);
    *c1 = *c2 = 0;
    if (parse_when(v, s, err, n) || parse_what(c1 + 1, s, err, n))
        return -1;
    s->file = c2 + 1;
    size_t len = strlen(s->file);
    s->json = len >= 5 && !strcmp(s->file + len - 5, ".json");
    return 0;
}

int state_spec_resolve(struct state_spec *s, unsigned arch_bit, char *err, size_t n)
{
    if (s->when != SWHEN_INSN)
        return 0;
    bool any = false;
    memset(s->form, 0, sizeof s->form);
    for (unsigned f = 0; f < TT_FORM_COUNT; f++)
        if ((tt_forms[f].archs & arch_bit) && !strcmp(tt_forms[f].mnemonic, s->mnemonic)) {
            s->form[f / 8] |= (uint8_t)(1u << (f % 8));
            any = true;
        }
    if (!any)
        return fail(err, n, "--dump-state: %s is no Tensix instruction of this architecture",
                    s->mnemonic);
    return 0;
}

bool state_spec_is_zone(const struct state_spec *s)
{
    return s->when >= SWHEN_ZONE && s->when <= SWHEN_ZONE_END;
}

int state_spec_zone(struct state_spec *s, const struct elf_file *prog, const char *path, char *err,
                    size_t n)
{
    struct zone_name *names = malloc(ZONE_NAMES_MAX * sizeof *names);
    if (!names)
        return fail(err, n, "--dump-state: out of memory%s", "");
    unsigned nn = zone_names_read(prog, names, 0, ZONE_NAMES_MAX);
    s->nzone_ids = 0;
    for (unsigned i = 0; i < nn && s->nzone_ids < STATE_ZONE_IDS; i++)
        if (!strcmp(names[i].marker, s->marker))
            s->zone_id[s->nzone_ids++] = names[i].id;
    int r = 0;
    if (!s->nzone_ids && !nn) {
        snprintf(err, n, "--dump-state: %s: the %s program %s names no profiler zones (no "
                 ".profiler_meta strings: was it built with LLK_PROFILER?)", s->text,
                 zone_thread_name(s->core), path);
        r = -1;
    } else if (!s->nzone_ids) {
        /* the markers it does name, each once, for the message */
        const char *known[ZONE_NAMES_MAX];
        unsigned nk = 0;
        char list[400] = "";
        size_t len = 0;
        for (unsigned i = 0; i < nn; i++) {
            unsigned k = 0;
            while (k < nk && strcmp(known[k], names[i].marker))
                k++;
            if (k < nk)
                continue;
            known[nk++] = names[i].marker;
            if (len < sizeof list)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", nk > 1 ? ", " : "",
                                        names[i].marker);
        }
        const char *near = cli_nearest(s->marker, known, nk);
        snprintf(err, n, "--dump-state: %s: the %s program %s names no zone '%s'%s%s%s (its zones: "
                 "%s)", s->text, zone_thread_name(s->core), path, s->marker,
                 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", list);
        r = -1;
    }
    free(names);
    return r;
}

/* ---- firing ---- */

static void next_cycle(struct state_dumps *d)
{
    d->hook.cycle = UINT64_MAX;
    for (unsigned i = 0; i < d->n; i++)
        if (d->spec[i].when == SWHEN_CYCLE && !d->spec[i].fired && d->spec[i].cycle < d->hook.cycle)
            d->hook.cycle = d->spec[i].cycle;
}

static void dump(struct state_spec *s, const struct tile *t, const char *event)
{
    state_write(t, s->what, s->json, ++s->count, s->text, event, s->f);
}

/* The event a dump's header names (not a zone's: the matching spec names that). Formatted only
 * once a spec matches: the hook is called for every instruction of a watched core. */
static void event_text(const struct tile *t, enum tile_dump_at at, unsigned who, uint32_t a,
                       uint32_t b, char *event, size_t n)
{
    switch (at) {
    case DUMP_AT_CYCLE:
        snprintf(event, n, "cycle boundary"); /* the header names the cycle */
        break;
    case DUMP_AT_PC:
        snprintf(event, n, "%s issued pc 0x%08x", core_name((int)who), a);
        break;
    case DUMP_AT_REGION:
        snprintf(event, n, "%s %s region %u", core_name((int)who), b ? "began" : "ended", a);
        break;
    case DUMP_AT_INSN: {
        char dis[300];
        tt_disasm(tile_arch_bit(t), a, dis, sizeof dis);
        snprintf(event, n, "T%u issues %s", who, dis);
        break;
    }
    case DUMP_AT_ERROR:
        snprintf(event, n, "error: %s: %s", err_kind_text(t->err.kind), t->err.text);
        break;
    case DUMP_AT_ZONE: /* named below, by the spec that matches */
        break;
    }
}

static void fire(struct tile *t, void *ctx, enum tile_dump_at at, unsigned who, uint32_t a,
                 uint32_t b)
{
    struct state_dumps *d = ctx;
    char event[900];
    bool named = false;
    for (unsigned i = 0; i < d->n; i++) {
        struct state_spec *s = &d->spec[i];
        bool match = false;
        switch (s->when) {
        case SWHEN_CYCLE: match = at == DUMP_AT_CYCLE && !s->fired && s->cycle <= t->now; break;
        case SWHEN_PC: match = at == DUMP_AT_PC && s->core == who && s->pc == a; break;
        case SWHEN_REGION:
        case SWHEN_REGION_BEGIN:
        case SWHEN_REGION_END:
            match = at == DUMP_AT_REGION && s->core == who && s->region == a &&
                    (s->when == SWHEN_REGION || (s->when == SWHEN_REGION_BEGIN) == (b != 0));
            break;
        case SWHEN_INSN:
            match = at == DUMP_AT_INSN && s->core == who && (s->form[b / 8] >> (b % 8) & 1);
            break;
        case SWHEN_ERROR: match = at == DUMP_AT_ERROR; break;
        case SWHEN_ZONE:
        case SWHEN_ZONE_BEGIN:
        case SWHEN_ZONE_END: {
            if (at != DUMP_AT_ZONE || s->core != who)
                break;
            const bool begin = a >> 28 == ZONE_START;
            for (unsigned k = 0; k < s->nzone_ids && !match; k++)
                match = s->zone_id[k] == (uint16_t)(a >> 12);
            match = match && (s->when == SWHEN_ZONE || (s->when == SWHEN_ZONE_BEGIN) == begin);
            if (match)
                snprintf(event, sizeof event, "%s %s zone %s (%s stored 0x%08x at 0x%08x)",
                         zone_thread_name(who), begin ? "began" : "ended", s->marker,
                         core_name((int)who), a, b);
            break;
        }
        }
        if (!match)
            continue;
        if (!named && at != DUMP_AT_ZONE)
            event_text(t, at, who, a, b, event, sizeof event);
        named = true;
        if (s->when == SWHEN_CYCLE)
            s->fired = true;
        dump(s, t, event);
    }
    if (at == DUMP_AT_CYCLE)
        next_cycle(d);
}

void state_arm(struct state_dumps *d, struct tile *t)
{
    memset(&d->hook, 0, sizeof d->hook);
    d->hook.fire = fire;
    d->hook.ctx = d;
    for (unsigned i = 0; i < d->n; i++) {
        const struct state_spec *s = &d->spec[i];
        if (s->when == SWHEN_PC)
            d->hook.pc[s->core] = true;
        else if (s->when == SWHEN_INSN)
            d->hook.insn[s->core] = true;
        else if (s->when >= SWHEN_REGION && s->when <= SWHEN_REGION_END)
            d->hook.region[s->core] = true;
        else if (state_spec_is_zone(s) && d->place && s->nzone_ids) {
            d->hook.zone[s->core] = true;
            d->hook.zone_buf[s->core] = d->place->profiler_buffer[s->core];
            d->hook.zone_bytes = 4 * d->place->profiler_words;
        }
    }
    next_cycle(d);
    t->dump = &d->hook;
}

void state_at_error(struct state_dumps *d, struct tile *t)
{
    if (t->dump == &d->hook && t->err.kind != ERR_NONE)
        fire(t, d, DUMP_AT_ERROR, 0, 0, 0);
}

void state_finish(struct state_dumps *d, struct tile *t, FILE *notes)
{
    if (t->dump == &d->hook)
        t->dump = 0;
    for (unsigned i = 0; i < d->n; i++)
        if (!d->spec[i].count)
            fprintf(notes, "tensim: note: --dump-state %s never happened (the run ended at cycle "
                    "%" PRIu64 "); %s is empty\n", d->spec[i].text, t->cycles, d->spec[i].file);
}

/* ---- reading the state ---- */

/* Dst's current format, from Config bank 0 (ALU_ACC_CTRL, ALU_FORMAT_SPEC_REG2_Dstacc): the
 * 32-bit view when Fp32_enabled (INT32 with INT8_math_enabled), else the 16-bit view in FP16
 * when Dstacc is an FP16-family format, else BF16. */
struct dst_fmt {
    bool dst32;
    unsigned code; /* DF_FP32, DF_INT32, DF_FP16 or DF_BF16 */
};

static struct dst_fmt dst_format(const struct tile *t)
{
    const struct tt_config *c = &t->cfg;
    const unsigned ab = tile_arch_bit(t);
    struct dst_fmt f = {0};
    bool int8 = cfg_get(c, 0, CFG_DESC(ab, ALU_ACC_CTRL_INT8_math_enabled));
    unsigned acc = cfg_get(c, 0, CFG_DESC(ab, ALU_FORMAT_SPEC_REG2_Dstacc));
    if (cfg_get(c, 0, CFG_DESC(ab, ALU_ACC_CTRL_Fp32_enabled)) || acc == DF_INT32) {
        f.dst32 = true;
        f.code = int8 || acc == DF_INT32 ? DF_INT32 : DF_FP32;
    } else {
        f.code = acc == DF_FP16 || acc == DF_BFP8A || acc == DF_BFP4A || acc == DF_BFP2A ? DF_FP16
                                                                                       : DF_BF16;
    }
    return f;
}

static uint32_t dst_raw(const struct tile *t, struct dst_fmt f, unsigned row, unsigned col)
{
    return f.dst32 ? dest_read32(t, row, col) : dest_read16(t, row, col);
}

/* The cell's value as a double (exact for every format here). */
static double dst_value(struct dst_fmt f, uint32_t raw)
{
    uint32_t bits;
    switch (f.code) {
    case DF_INT32: return (double)fmt_sm32_value(raw);
    case DF_FP32: bits = fmt_dst_to_fp32(raw); break;
    case DF_FP16: bits = fmt_fp16_to_fp32_bits(fmt_dst_to_fp16((uint16_t)raw)); break;
    default: bits = fmt_bf16_to_fp32_bits(fmt_dst_to_bf16((uint16_t)raw)); break;
    }
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

#define TILE_ROWS 64 /* a 32x32 tile: four 16x16 faces, 16 Dst rows each */

static unsigned dst_tiles(struct dst_fmt f) { return (f.dst32 ? DEST_ROWS / 2 : DEST_ROWS) / TILE_ROWS; }

/* Tile k's Dst row and column of element (r, c) of the 32x32 tile: faces 0 and 1 side by side
 * on top, 2 and 3 below. */
static void tile_cell(unsigned k, unsigned r, unsigned c, unsigned *row, unsigned *col)
{
    unsigned face = (r / 16) * 2 + c / 16;
    *row = k * TILE_ROWS + face * 16 + r % 16;
    *col = c % 16;
}

static bool tile_used(const struct tile *t, struct dst_fmt f, unsigned k)
{
    for (unsigned r = k * TILE_ROWS; r < (k + 1) * TILE_ROWS; r++)
        for (unsigned c = 0; c < DEST_COLS; c++)
            if (dst_raw(t, f, r, c))
                return true;
    return false;
}

static const char *const abi[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
                                    "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3",
                                    "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
                                    "t5", "t6"};

static const struct { unsigned csr; const char *name; } csrs[] = {
    {0x300, "mstatus"}, {0x301, "misa"}, {0xF14, "mhartid"}, {0xB00, "mcycle"},
    {0xB80, "mcycleh"}, {0xB02, "minstret"}, {0xB82, "minstreth"}, {0x7C0, "cfg0"},
    {0x7C1, "pmacfg0"}, {0x7C2, "pmacfg1"}, {0x7C3, "cfg1"}, {0x7C4, "hwa_mask"},
    {0x7C5, "hwa_cfg"}, {0x7C6, "vgsrc"}, {0xBC0, "tt_cfg_qstatus"}, {0xBC1, "tt_cfg_bstatus"},
};

static const char *core_state_name(enum core_state s)
{
    static const char *const n[] = {"off", "running", "blocked", "halted"};
    return n[s];
}

/* What the thread's Wait Gate did in its last cycle: issued, empty, or its hold reason. */
static const char *gate_state(const struct tensix_thread *th)
{
    return th->acct_outcome == GATE_ISSUED  ? "issued"
           : th->acct_outcome == GATE_EMPTY ? "empty"
                                            : gate_stall_key(th->acct_reason);
}

static const char *const mop_phases[] = {"idle", "expanding", "transition"};
static const char *const replay_phases[] = {"pass", "record", "play"};

/* ---- JSON ---- */

static void json_num(FILE *f, double v)
{
    if (v != v)
        fputs("\"nan\"", f);
    else if (v > 1e308 || v < -1e308)
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
    else if (v > -1e15 && v < 1e15 && (double)(long long)v == v) /* INT32 cells: every digit */
        fprintf(f, "%lld", (long long)v);
    else
        fprintf(f, "%.9g", v); /* a float32 value, exactly */
}

static void json_dst(const struct tile *t, FILE *f)
{
    struct dst_fmt df = dst_format(t);
    fprintf(f, "\"dst\":{\"format\":\"%s\",\"view\":\"%s\",\"tiles\":[", df_name(df.code),
            df.dst32 ? "Dst32b" : "Dst16b");
    bool first = true;
    for (unsigned k = 0; k < dst_tiles(df); k++) {
        if (!tile_used(t, df, k))
            continue;
        fprintf(f, "%s{\"tile\":%u,\"first_row\":%u,\"raw\":[", first ? "" : ",", k, k * TILE_ROWS);
        first = false;
        for (unsigned r = k * TILE_ROWS; r < (k + 1) * TILE_ROWS; r++) {
            fputs(r % TILE_ROWS ? ",[" : "[", f);
            for (unsigned c = 0; c < DEST_COLS; c++)
                fprintf(f, "%s%" PRIu32, c ? "," : "", dst_raw(t, df, r, c));
            fputc(']', f);
        }
        fputs("],\"values\":[", f);
        for (unsigned r = 0; r < 32; r++) {
            fputs(r ? ",[" : "[", f);
            for (unsigned c = 0; c < 32; c++) {
                unsigned row, col;
                tile_cell(k, r, c, &row, &col);
                if (c)
                    fputc(',', f);
                json_num(f, dst_value(df, dst_raw(t, df, row, col)));
            }
            fputc(']', f);
        }
        fputs("]}", f);
    }
    fputs("]}", f);
}

static void json_src(const struct tile *t, unsigned which, FILE *f)
{
    const struct src_regs *s = &t->src;
    fprintf(f, "\"src%c\":{\"unpacker_bank\":%u,\"matrix_bank\":%u,\"banks\":[", which ? 'b' : 'a',
            s->unpack_bank[which], s->fpu_bank[which]);
    for (unsigned b = 0; b < 2; b++) {
        const struct src_bank *k = &s->bank[which][b];
        fprintf(f, "%s{\"bank\":%u,\"owner\":\"%s\"", b ? "," : "", b,
                k->client == SRC_CLIENT_MATRIX ? "matrix" : "unpackers");
        if (!tile_is_wormhole(t)) {
            if (s->implied_fmt[which][b] == SRC_FMT_UNKNOWN)
                fputs(",\"implied_format\":null", f);
            else
                fprintf(f, ",\"implied_format\":\"%s\"", df_name(s->implied_fmt[which][b]));
        }
        fputs(",\"rows\":[", f);
        for (unsigned r = 0; r < SRC_ROWS; r++) {
            fputs(r ? ",[" : "[", f);
            for (unsigned c = 0; c < SRC_COLS; c++)
                fprintf(f, "%s%" PRIu32, c ? "," : "", k->cell[r][c]);
            fputc(']', f);
        }
        fputs("]}", f);
    }
    fputs("]}", f);
}

static void json_lregs(const struct tile *t, FILE *f)
{
    struct sfpu_lane_view v[SFPU_LANES];
    for (unsigned l = 0; l < SFPU_LANES; l++)
        sfpu_lane_view(t, l, &v[l]);
    fputs("\"lregs\":{\"lreg\":[", f);
    for (unsigned r = 0; r < SFPU_LREGS; r++) {
        fputs(r ? ",[" : "[", f);
        for (unsigned l = 0; l < SFPU_LANES; l++)
            fprintf(f, "%s%" PRIu32, l ? "," : "", v[l].lreg[r]);
        fputc(']', f);
    }
    fputs("],\"lane_flags\":[", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fprintf(f, "%s%d", l ? "," : "", v[l].flag);
    fputs("],\"use_lane_flags\":[", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fprintf(f, "%s%d", l ? "," : "", v[l].use_flag);
    fputs("],\"lane_enabled\":[", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fprintf(f, "%s%d", l ? "," : "", v[l].enabled);
    fputs("],\"flag_stack_depth\":[", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fprintf(f, "%s%u", l ? "," : "", v[l].depth);
    fputs("],\"lane_config\":[", f);
    for (unsigned l = 0; l < 8; l++)
        fprintf(f, "%s%" PRIu32, l ? "," : "", v[l].lane_config);
    fputs("]}", f);
}

static void json_gprs(const struct tile *t, FILE *f)
{
    fputs("\"gprs\":[", f);
    for (unsigned th = 0; th < NUM_THREADS; th++) {
        fputs(th ? ",[" : "[", f);
        for (unsigned r = 0; r < NUM_GPRS; r++)
            fprintf(f, "%s%" PRIu32, r ? "," : "", gpr_peek(t, th, r, t->now));
        fputc(']', f);
    }
    fputc(']', f);
}

static void json_fields(FILE *f, const struct cfg_field_desc *tab, unsigned n,
                        uint32_t (*get)(const struct tt_config *, unsigned, const struct cfg_field_desc *),
                        const struct tt_config *c, unsigned sel)
{
    fputc('{', f);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        json_str(f, tab[i].name);
        fprintf(f, ":%" PRIu32, get(c, sel, &tab[i]));
    }
    fputc('}', f);
}

static void json_cfg(const struct tile *t, FILE *f)
{
    const struct cfg_arch_map *m = cfg_arch(tile_arch_bit(t));
    fputs("\"cfg\":{\"config\":[", f);
    for (unsigned b = 0; b < 2; b++) {
        if (b)
            fputc(',', f);
        json_fields(f, m->cfg, m->ncfg, cfg_get, &t->cfg, b);
    }
    fputs("],\"thread_config\":[", f);
    for (unsigned th = 0; th < NUM_THREADS; th++) {
        if (th)
            fputc(',', f);
        json_fields(f, m->thcfg, m->nthcfg, thcfg_get, &t->cfg, th);
    }
    fputs("]}", f);
}

static void json_sem(const struct tile *t, FILE *f)
{
    fputs("\"sem\":{\"semaphores\":[", f);
    for (unsigned i = 0; i < NUM_SEMAPHORES; i++)
        fprintf(f, "%s{\"value\":%u,\"max\":%u}", i ? "," : "", t->sem.value[i], t->sem.max[i]);
    fputs("],\"mutexes\":[", f);
    bool first = true;
    for (unsigned m = 0; m < NUM_MUTEXES; m++) {
        if (!sem_mutex_valid(t->arch, m))
            continue;
        fprintf(f, "%s{\"index\":%u,\"owner\":", first ? "" : ",", m);
        first = false;
        if (t->sem.mutex_owner[m] < 0)
            fputs("null}", f);
        else
            fprintf(f, "\"T%d\"}", t->sem.mutex_owner[m]);
    }
    fputs("]}", f);
}

static void json_words(const struct tile *t, FILE *f, const char *key, const struct tt_fifo *q)
{
    fprintf(f, "\"%s\":[", key);
    for (unsigned i = 0; i < q->count; i++) {
        char dis[128];
        tt_disasm(tile_arch_bit(t), tt_fifo_peek(q, i), dis, sizeof dis);
        fprintf(f, "%s{\"word\":%" PRIu32 ",\"insn\":", i ? "," : "", tt_fifo_peek(q, i));
        json_str(f, dis);
        fputc('}', f);
    }
    fputc(']', f);
}

static void json_pipe(const struct tile *t, FILE *f)
{
    fputs("\"pipe\":[", f);
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        const struct tensix_thread *th = &t->thread[i];
        fprintf(f, "%s{\"thread\":%u,", i ? "," : "", i);
        json_words(t, f, "fifo1", &th->fifo1);
        fputc(',', f);
        json_words(t, f, "fifo2", &th->fifo2);
        fputc(',', f);
        json_words(t, f, "fifo3", &th->fifo3);
        fputs(",\"gate\":", f);
        if (th->fifo3.count) {
            char dis[128];
            tt_disasm(tile_arch_bit(t), tt_fifo_peek(&th->fifo3, 0), dis, sizeof dis);
            json_str(f, dis);
        } else {
            fputs("null", f);
        }
        fprintf(f, ",\"gate_state\":\"%s\"", gate_state(th));
        fputs(",\"latched_wait\":", f);
        if (th->wait.active) {
            char dis[128];
            tt_disasm(tile_arch_bit(t), th->wait.word, dis, sizeof dis);
            json_str(f, dis);
        } else {
            fputs("null", f);
        }
        const struct mop_expander *m = &th->mop;
        fprintf(f, ",\"mop\":{\"phase\":\"%s\",\"mask_hi\":%" PRIu32 ",\"cfg\":[", mop_phases[m->phase],
                m->mask_hi);
        for (unsigned k = 0; k < MOP_CFG_WORDS; k++)
            fprintf(f, "%s%" PRIu32, k ? "," : "", m->cfg[k]);
        const struct replay_expander *r = &th->replay;
        fprintf(f, "]},\"replay\":{\"phase\":\"%s\",\"index\":%u,\"remaining\":%u,\"buffer\":[",
                replay_phases[r->phase], r->index, r->remaining);
        for (unsigned k = 0; k < REPLAY_BUF_WORDS; k++)
            fprintf(f, "%s%" PRIu32, k ? "," : "", r->buf[k]);
        fputs("]}}", f);
    }
    fputc(']', f);
}

static void json_rv(const struct tile *t, FILE *f)
{
    fputs("\"rv\":[", f);
    for (int k = 0; k < NUM_CORES; k++) {
        const struct rv_core *c = &t->core[k];
        fprintf(f, "%s{\"core\":\"%s\",\"state\":\"%s\",\"pc\":%" PRIu32 ",\"x\":[", k ? "," : "",
                core_name(k), core_state_name(c->state), c->pc);
        for (unsigned r = 0; r < 32; r++)
            fprintf(f, "%s%" PRIu32, r ? "," : "", c->x[r]);
        fputs("],\"csr\":{", f);
        bool first = true;
        for (unsigned i = 0; i < sizeof csrs / sizeof csrs[0]; i++) {
            uint32_t v;
            if (!csr_peek(t, c, t->now, csrs[i].csr, &v))
                continue;
            fprintf(f, "%s\"%s\":%" PRIu32, first ? "" : ",", csrs[i].name, v);
            first = false;
        }
        fputs("}}", f);
    }
    fputc(']', f);
}

static void write_json(const struct tile *t, unsigned what, unsigned number, const char *when,
                       const char *event, FILE *f)
{
    fprintf(f, "{\"dump\":%u,\"when\":", number);
    json_str(f, when);
    fputs(",\"event\":", f);
    json_str(f, event);
    fprintf(f, ",\"cycle\":%" PRIu64 ",\"arch\":\"%s\"", t->now, t->arch->name);
    static void (*const part[])(const struct tile *, FILE *) = {json_dst, 0, 0, json_lregs,
                                                                 json_gprs, json_cfg, json_sem,
                                                                 json_pipe, json_rv};
    for (unsigned k = 0; k < NWHAT; k++) {
        if (!(what >> k & 1))
            continue;
        fputc(',', f);
        if (k == 1 || k == 2)
            json_src(t, k - 1, f);
        else
            part[k](t, f);
    }
    fputs("}\n", f);
}

/* ---- text ---- */

static void text_dst(const struct tile *t, FILE *f)
{
    struct dst_fmt df = dst_format(t);
    fprintf(f, "Dst (%s view, %s; tiles of 32x32: faces 0|1 above 2|3; all-zero tiles left out)\n",
            df.dst32 ? "Dst32b" : "Dst16b", df_name(df.code));
    bool any = false;
    for (unsigned k = 0; k < dst_tiles(df); k++) {
        if (!tile_used(t, df, k))
            continue;
        any = true;
        fprintf(f, "  tile %u (rows %u..%u), values:\n", k, k * TILE_ROWS, k * TILE_ROWS + TILE_ROWS - 1);
        for (unsigned r = 0; r < 32; r++) {
            if (r == 16) { /* between faces 0|1 and 2|3 */
                fputs("    ", f);
                for (unsigned k2 = 0; k2 < 32 * 10 + 2; k2++)
                    fputc(k2 == 16 * 10 ? '+' : '-', f);
                fputc('\n', f);
            }
            fputs("    ", f);
            for (unsigned c = 0; c < 32; c++) {
                unsigned row, col;
                tile_cell(k, r, c, &row, &col);
                if (c == 16)
                    fputs(" |", f);
                fprintf(f, " %9.4g", dst_value(df, dst_raw(t, df, row, col)));
            }
            fputc('\n', f);
        }
        fprintf(f, "  tile %u, raw cells:\n", k);
        for (unsigned r = 0; r < 32; r++) {
            if (r == 16)
                fputs("    --\n", f);
            fputs("    ", f);
            for (unsigned c = 0; c < 32; c++) {
                unsigned row, col;
                tile_cell(k, r, c, &row, &col);
                if (c == 16)
                    fputs(" |", f);
                fprintf(f, df.dst32 ? " %08" PRIx32 : " %04" PRIx32, dst_raw(t, df, row, col));
            }
            fputc('\n', f);
        }
    }
    if (!any)
        fputs("  every cell is zero\n", f);
}

static void text_src(const struct tile *t, unsigned which, FILE *f)
{
    const struct src_regs *s = &t->src;
    const char name = which ? 'B' : 'A';
    fprintf(f, "Src%c: unpackers on bank %u, matrix unit on bank %u\n", name, s->unpack_bank[which],
            s->fpu_bank[which]);
    for (unsigned b = 0; b < 2; b++) {
        const struct src_bank *k = &s->bank[which][b];
        fprintf(f, "  bank %u: owned by the %s", b,
                k->client == SRC_CLIENT_MATRIX ? "matrix unit" : "unpackers");
        if (!tile_is_wormhole(t))
            fprintf(f, ", implied format %s", s->implied_fmt[which][b] == SRC_FMT_UNKNOWN
                                                  ? "unpredictable" : df_name(s->implied_fmt[which][b]));
        fputc('\n', f);
        bool any = false;
        for (unsigned r = 0; r < SRC_ROWS; r++) {
            bool used = false;
            for (unsigned c = 0; c < SRC_COLS; c++)
                used |= k->cell[r][c] != 0;
            if (!used)
                continue;
            any = true;
            fprintf(f, "    row %2u:", r);
            for (unsigned c = 0; c < SRC_COLS; c++)
                fprintf(f, " %05" PRIx32, k->cell[r][c]);
            fputc('\n', f);
        }
        if (!any)
            fputs("    every cell is zero\n", f);
    }
}

static void text_lregs(const struct tile *t, FILE *f)
{
    struct sfpu_lane_view v[SFPU_LANES];
    for (unsigned l = 0; l < SFPU_LANES; l++)
        sfpu_lane_view(t, l, &v[l]);
    fputs("LRegs (lanes 0..31, hex)\n", f);
    for (unsigned r = 0; r < SFPU_LREGS; r++) {
        fprintf(f, "  L%-2u", r);
        for (unsigned l = 0; l < SFPU_LANES; l++)
            fprintf(f, " %08" PRIx32, v[l].lreg[r]);
        fputc('\n', f);
    }
    fputs("  flags  ", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fputc(v[l].flag ? '1' : '0', f);
    fputs("  (LaneFlags)\n  use    ", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fputc(v[l].use_flag ? '1' : '0', f);
    fputs("  (UseLaneFlagsForLaneEnable)\n  on     ", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fputc(v[l].enabled ? '1' : '0', f);
    fputs("  (lane enabled)\n  stack  ", f);
    for (unsigned l = 0; l < SFPU_LANES; l++)
        fputc((char)('0' + v[l].depth), f);
    fputs("  (FlagStack depth)\n  LaneConfig", f);
    for (unsigned l = 0; l < 8; l++)
        fprintf(f, " %05" PRIx32, v[l].lane_config);
    fputc('\n', f);
}

static void text_gprs(const struct tile *t, FILE *f)
{
    fputs("GPRs (rows of eight that are all zero left out)\n", f);
    for (unsigned th = 0; th < NUM_THREADS; th++) {
        bool any = false;
        for (unsigned r = 0; r < NUM_GPRS; r += 8) {
            uint32_t v[8], or = 0;
            for (unsigned k = 0; k < 8; k++)
                or |= v[k] = gpr_peek(t, th, r + k, t->now);
            if (!or)
                continue;
            any = true;
            fprintf(f, "  T%u r%-2u..%-2u", th, r, r + 7);
            for (unsigned k = 0; k < 8; k++)
                fprintf(f, " %08" PRIx32, v[k]);
            fputc('\n', f);
        }
        if (!any)
            fprintf(f, "  T%u all zero\n", th);
    }
}

static void text_cfg(const struct tile *t, FILE *f)
{
    const struct cfg_arch_map *m = cfg_arch(tile_arch_bit(t));
    fputs("Configuration (fields that are not zero)\n", f);
    for (unsigned b = 0; b < 2; b++) {
        fprintf(f, "  Config bank %u:", b);
        bool any = false;
        for (unsigned i = 0; i < m->ncfg; i++) {
            uint32_t v = cfg_get(&t->cfg, b, &m->cfg[i]);
            if (v) {
                fprintf(f, "\n    %s = 0x%" PRIx32, m->cfg[i].name, v);
                any = true;
            }
        }
        fputs(any ? "\n" : " all zero\n", f);
    }
    for (unsigned th = 0; th < NUM_THREADS; th++) {
        fprintf(f, "  ThreadConfig T%u:", th);
        bool any = false;
        for (unsigned i = 0; i < m->nthcfg; i++) {
            uint32_t v = thcfg_get(&t->cfg, th, &m->thcfg[i]);
            if (v) {
                fprintf(f, "\n    %s = 0x%" PRIx32, m->thcfg[i].name, v);
                any = true;
            }
        }
        fputs(any ? "\n" : " all zero\n", f);
    }
}

static void text_sem(const struct tile *t, FILE *f)
{
    fputs("Semaphores (value/max)", f);
    for (unsigned i = 0; i < NUM_SEMAPHORES; i++)
        fprintf(f, "  %u: %u/%u", i, t->sem.value[i], t->sem.max[i]);
    fputs("\nMutexes", f);
    for (unsigned m = 0; m < NUM_MUTEXES; m++) {
        if (!sem_mutex_valid(t->arch, m))
            continue;
        if (t->sem.mutex_owner[m] < 0)
            fprintf(f, "  %u: free", m);
        else
            fprintf(f, "  %u: T%d", m, t->sem.mutex_owner[m]);
    }
    fputc('\n', f);
}

static void text_fifo(const struct tile *t, FILE *f, const char *name, const struct tt_fifo *q)
{
    fprintf(f, "    %s (%u):", name, q->count);
    for (unsigned i = 0; i < q->count; i++) {
        char dis[128];
        tt_disasm(tile_arch_bit(t), tt_fifo_peek(q, i), dis, sizeof dis);
        fprintf(f, "\n      %08" PRIx32 "  %s", tt_fifo_peek(q, i), dis);
    }
    fputc('\n', f);
}

static void text_pipe(const struct tile *t, FILE *f)
{
    fputs("Pipes\n", f);
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        const struct tensix_thread *th = &t->thread[i];
        char dis[128] = "nothing";
        if (th->fifo3.count)
            tt_disasm(tile_arch_bit(t), tt_fifo_peek(&th->fifo3, 0), dis, sizeof dis);
        fprintf(f, "  T%u: at the Wait Gate: %s (%s)\n", i, dis, gate_state(th));
        if (th->wait.active) {
            tt_disasm(tile_arch_bit(t), th->wait.word, dis, sizeof dis);
            fprintf(f, "    latched wait: %s\n", dis);
        }
        text_fifo(t, f, "FIFO1", &th->fifo1);
        text_fifo(t, f, "FIFO2", &th->fifo2);
        text_fifo(t, f, "FIFO3", &th->fifo3);
        const struct mop_expander *m = &th->mop;
        fprintf(f, "    MOP expander: %s, MaskHi 0x%" PRIx32 ", MopCfg", mop_phases[m->phase], m->mask_hi);
        for (unsigned k = 0; k < MOP_CFG_WORDS; k++)
            fprintf(f, " %08" PRIx32, m->cfg[k]);
        const struct replay_expander *r = &th->replay;
        fprintf(f, "\n    replay expander: %s, index %u, remaining %u\n", replay_phases[r->phase],
                r->index, r->remaining);
        for (unsigned k = 0; k < REPLAY_BUF_WORDS; k++) {
            if (!r->buf[k])
                continue;
            tt_disasm(tile_arch_bit(t), r->buf[k], dis, sizeof dis);
            fprintf(f, "      [%2u] %08" PRIx32 "  %s\n", k, r->buf[k], dis);
        }
    }
}

static void text_rv(const struct tile *t, FILE *f)
{
    fputs("RISC-V cores\n", f);
    for (int k = 0; k < NUM_CORES; k++) {
        const struct rv_core *c = &t->core[k];
        fprintf(f, "  %s: %s, pc 0x%08" PRIx32 "\n", core_name(k), core_state_name(c->state), c->pc);
        if (c->state == CORE_OFF)
            continue;
        for (unsigned r = 0; r < 32; r++) {
            fprintf(f, "%s%4s=%08" PRIx32, r % 8 ? " " : "    ", abi[r], c->x[r]);
            if (r % 8 == 7)
                fputc('\n', f);
        }
        fputs("   ", f);
        for (unsigned i = 0; i < sizeof csrs / sizeof csrs[0]; i++) {
            uint32_t v;
            if (csr_peek(t, c, t->now, csrs[i].csr, &v))
                fprintf(f, " %s=0x%" PRIx32, csrs[i].name, v);
        }
        fputc('\n', f);
    }
}

static void write_text(const struct tile *t, unsigned what, unsigned number, const char *when,
                       const char *event, FILE *f)
{
    fprintf(f, "==== dump %u (%s): %s, cycle %" PRIu64 ", %s ====\n", number, when, event, t->now,
            t->arch->name);
    if (what & SW_DST)
        text_dst(t, f);
    if (what & SW_SRCA)
        text_src(t, 0, f);
    if (what & SW_SRCB)
        text_src(t, 1, f);
    if (what & SW_LREGS)
        text_lregs(t, f);
    if (what & SW_GPRS)
        text_gprs(t, f);
    if (what & SW_CFG)
        text_cfg(t, f);
    if (what & SW_SEM)
        text_sem(t, f);
    if (what & SW_PIPE)
        text_pipe(t, f);
    if (what & SW_RV)
        text_rv(t, f);
    fputc('\n', f);
}

void state_write(const struct tile *t, unsigned what, bool json, unsigned number,
                 const char *when, const char *event, FILE *f)
{
    if (json)
        write_json(t, what, number, when, event, f);
    else
        write_text(t, what, number, when, event, f);
}
