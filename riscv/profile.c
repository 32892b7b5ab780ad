/* The per-instruction profile (riscv/profile.h). */
#include "profile.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/tile.h"
#include "../mem/elf.h"
#include "../mem/l1.h"
#include "../units/tensix_isa.h"
#include "../units/unit.h"
#include "decode.h"
#include "poll.h"

/* The Wait Gate's stall keys (units/unit.h), named here from the table rather than through
 * sync/gate.c. */
static const char *const held_key[GS_COUNT] = {
#define X(name, key) [name] = key,
    GATE_STALL_REASONS(X)
#undef X
};

struct rv_profile *rv_profile_new(uint32_t l1_size)
{
    struct rv_profile *p = calloc(1, sizeof *p);
    if (!p)
        return 0;
    p->words = l1_size / 4;
    p->cycles = calloc(p->words, sizeof *p->cycles);
    p->count = calloc(p->words, sizeof *p->count);
    p->held = calloc(PROF_HELD_SLOTS, sizeof *p->held);
    p->poll = calloc(p->words, sizeof *p->poll);
    p->last = UINT64_MAX;
    if (!p->cycles || !p->count || !p->held || !p->poll) {
        rv_profile_free(p);
        return 0;
    }
    return p;
}

void rv_profile_free(struct rv_profile *p)
{
    if (p) {
        free(p->cycles);
        free(p->count);
        free(p->held);
        free(p->poll);
        free(p);
    }
}

enum { MAX_FUNCS = 4096, TOP_FUNCS = 20, TOP_PCS = 15 };

struct func_sum {
    const char *name;
    uint32_t addr, size;
    uint64_t cycles, count;
};

static int by_addr(const void *a, const void *b)
{
    const struct func_sum *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

static int by_cycles(const void *a, const void *b)
{
    const struct func_sum *x = a, *y = b;
    if (x->cycles != y->cycles)
        return x->cycles < y->cycles ? 1 : -1;
    return (x->addr > y->addr) - (x->addr < y->addr); /* ties: a fixed order */
}

/* The function holding pc among the n sorted by address (a symbol without a size covers up to
 * the next one); -1 if none. */
static int find_func(const struct func_sum *fs, unsigned n, uint32_t pc)
{
    int lo = 0, hi = (int)n - 1, best = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (fs[mid].addr <= pc)
            best = mid, lo = mid + 1;
        else
            hi = mid - 1;
    }
    if (best >= 0 && fs[best].size && pc - fs[best].addr >= fs[best].size)
        return -1;
    return best;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "file.c:12" for pc from the program's DWARF line table (libdw), or "" without one. Code inlined
 * from another function (an SDK helper) shows where the outermost inlined call stands in the
 * function itself, then the line inside: "t1.c:96 < tensim.h:101". */
static void source_line(Dwarf *dw, uint32_t pc, char *buf, size_t n)
{
    Dwarf_Die cu, *scopes = NULL;
    Dwarf_Line *line;
    int lineno;
    const char *file;
    buf[0] = 0;
    if (!dw || !dwarf_addrdie(dw, pc, &cu) || !(line = dwarf_getsrc_die(&cu, pc)) ||
        !(file = dwarf_linesrc(line, NULL, NULL)) || dwarf_lineno(line, &lineno))
        return;
    int used = snprintf(buf, n, "%s:%d", base_name(file), lineno);
    int nscopes = dwarf_getscopes(&cu, pc, &scopes);
    int outer = -1;
    for (int i = 0; i < nscopes; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
            outer = i;
    Dwarf_Attribute a;
    Dwarf_Word call_file, call_line;
    Dwarf_Files *files;
    size_t nfiles;
    const char *caller;
    if (outer >= 0 && dwarf_formudata(dwarf_attr(&scopes[outer], DW_AT_call_file, &a), &call_file) == 0 &&
        dwarf_formudata(dwarf_attr(&scopes[outer], DW_AT_call_line, &a), &call_line) == 0 &&
        dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 && call_file < nfiles &&
        (caller = dwarf_filesrc(files, call_file, NULL, NULL)) && used > 0 && (size_t)used < n) {
        char inner[128];
        memcpy(inner, buf, (size_t)used + 1 < sizeof inner ? (size_t)used + 1 : sizeof inner);
        inner[sizeof inner - 1] = 0;
        if (snprintf(buf, n, "%s:%llu < %s", base_name(caller), (unsigned long long)call_line,
                     inner) >= (int)n)
            buf[n - 1] = 0; /* cut short: still a string */
    }
    free(scopes);
}

/* ---- polling loops (riscv/poll.h; docs/user-guide.md "Polling loops": the rule) ----
 * Each loop the rule recognises, with the cycles the core spent going round it again: the part
 * of its instructions' charges the run gave the `polling` stall, so that the loops' figures add
 * up to the core's polling cycles (a loop inside another counts in both). */
enum { POLL_MAX = 8 };

static void report_polling(const struct rv_profile *p, const struct tile *t,
                           const struct func_sum *fs, unsigned n, uint64_t total, FILE *out)
{
    bool any = false;
    unsigned shown = 0;
    for (uint32_t w = 0; w < p->words && shown < POLL_MAX; w++) {
        if (!p->count[w])
            continue;
        uint32_t pc = w * 4, target;
        if (!rv_poll_loop(t->l1, t->arch->l1_size, pc, &target))
            continue;
        uint64_t cycles = 0;
        for (uint32_t q = target; q <= pc; q += 4)
            cycles += p->poll[q >> 2];
        if (!cycles) /* never went round twice */
            continue;
        if (!any)
            fprintf(out, "  polling loops:\n  %12s %6s %10s  %-24s\n", "cycles", "%", "iterations",
                    "loop");
        any = true;
        int k = find_func(fs, n, target);
        char where[80];
        if (k >= 0)
            snprintf(where, sizeof where, "%s+0x%x..0x%x", fs[k].name, target - fs[k].addr,
                     pc - fs[k].addr);
        else
            snprintf(where, sizeof where, "0x%08x..0x%08x", target, pc);
        fprintf(out, "  %12" PRIu64 " %5.1f%% %10" PRIu64 "  %s\n", cycles,
                100.0 * (double)cycles / (double)total, p->count[target >> 2], where);
        shown++;
    }
}

/* What the instruction at pc is (a .ttinsn: the Tensix instruction it pushes), where it stands
 * (function+offset) and its source line ("-" for none). */
static void describe_pc(const struct tile *t, const struct func_sum *fs, unsigned n, Dwarf *dw,
                        uint32_t pc, char *dis, size_t ndis, char *where, size_t nwhere, char *src,
                        size_t nsrc)
{
    uint32_t word = le_get(t->l1 + pc, 4);
    struct rv_insn in = rv_decode(word);
    if (in.op == RV_TTINSN) {
        int len = snprintf(dis, ndis, "push ");
        tt_disasm(tile_arch_bit(t), (uint32_t)in.imm, dis + len, ndis - (size_t)len);
    } else {
        rv_disasm(word, pc, dis, ndis);
    }
    int k = find_func(fs, n, pc);
    if (k >= 0)
        snprintf(where, nwhere, "%s+0x%x", fs[k].name, pc - fs[k].addr);
    else
        snprintf(where, nwhere, "-");
    source_line(dw, pc, src, nsrc);
    if (!*src)
        snprintf(src, nsrc, "-");
}

static int held_by_cycles(const void *a, const void *b)
{
    const struct prof_held *x = a, *y = b;
    if (x->cycles != y->cycles)
        return x->cycles < y->cycles ? 1 : -1;
    return (x->key > y->key) - (x->key < y->key);
}

/* The TOP_PCS largest entries of the table, of the queued kind (PROF_FIFO_WAIT) or the held
 * ones, largest first; *total their sum, *pairs how many there are. */
static unsigned top_held(const struct rv_profile *p, bool queued, struct prof_held *e, uint64_t *total,
                         unsigned *pairs)
{
    unsigned ne = 0;
    *total = 0, *pairs = 0;
    for (unsigned i = 0; i < PROF_HELD_SLOTS; i++) {
        const struct prof_held *h = &p->held[i];
        if (!h->key || !h->cycles || (((h->key - 1) & 31u) == PROF_FIFO_WAIT) != queued)
            continue;
        *total += h->cycles;
        ++*pairs;
        unsigned at;
        if (ne < TOP_PCS)
            at = ne++;
        else if (held_by_cycles(h, &e[TOP_PCS - 1]) < 0)
            at = TOP_PCS - 1;
        else
            continue;
        while (at > 0 && held_by_cycles(h, &e[at - 1]) < 0) {
            e[at] = e[at - 1];
            at--;
        }
        e[at] = *h;
    }
    return ne;
}

static void held_rows(const struct prof_held *e, unsigned ne, unsigned max, const struct tile *t,
                      const struct func_sum *fs, unsigned n, Dwarf *dw, FILE *out)
{
    for (unsigned i = 0; i < ne && i < max; i++) {
        uint32_t pc = ((e[i].key - 1) >> 5) << 2;
        unsigned reason = (e[i].key - 1) & 31u;
        char dis[96], where[64], src[128];
        describe_pc(t, fs, n, dw, pc, dis, sizeof dis, where, sizeof where, src, sizeof src);
        fprintf(out, "  %12" PRIu64 " %-16s 0x%08x  %-24s %-30s %s\n", e[i].cycles,
                reason < GS_COUNT ? held_key[reason] : reason == PROF_FIFO_WAIT ? "fifo_wait" : "?", pc,
                where, src, dis);
    }
}

enum { TOP_QUEUED = 5 };

/* Tensix stalls by the push that caused them (riscv/profile.h), the largest first; then the
 * pushes whose first instruction waited longest in the FIFOs before reaching its gate. */
static void report_held(const struct rv_profile *p, const struct tile *t, const struct func_sum *fs,
                        unsigned n, Dwarf *dw, FILE *out)
{
    struct prof_held e[TOP_PCS];
    uint64_t total;
    unsigned pairs;
    unsigned ne = top_held(p, false, e, &total, &pairs);
    if (total) {
        fprintf(out,
                "  tensix stalls by push: %" PRIu64 " cycles Wait Gates held what this core pushed "
                "(%u pc/cause pairs)\n  %12s %-16s %-10s  %-24s %-30s %s\n",
                total, pairs, "cycles", "cause", "pc", "where", "source", "instruction");
        held_rows(e, ne, TOP_PCS, t, fs, n, dw, out);
    }
    ne = top_held(p, true, e, &total, &pairs);
    if (total) {
        fprintf(out,
                "  queued before the gate: %" PRIu64 " cycles the first instruction of this core's "
                "pushes waited in the FIFOs (%u pcs)\n",
                total, pairs);
        held_rows(e, ne, TOP_QUEUED, t, fs, n, dw, out);
    }
    if (p->held_lost)
        fprintf(out, "  %12" PRIu64 " (pushes past the profile's table)\n", p->held_lost);
}

void rv_profile_report(const struct rv_profile *p, const struct tile *t, int core,
                       const struct elf_file *f, const char *program, FILE *out)
{
    struct elf_function *syms = malloc(MAX_FUNCS * sizeof *syms);
    struct func_sum *fs = malloc((MAX_FUNCS + 1) * sizeof *fs);
    if (!syms || !fs) {
        fprintf(out, "%s: out of memory for the profile\n", core_name(core));
        free(syms);
        free(fs);
        return;
    }
    unsigned n = f ? elf_functions(f, syms, MAX_FUNCS) : 0;
    for (unsigned i = 0; i < n; i++)
        fs[i] = (struct func_sum){.name = syms[i].name, .addr = syms[i].addr, .size = syms[i].size};
    qsort(fs, n, sizeof fs[0], by_addr);
    struct func_sum *other = &fs[n];
    *other = (struct func_sum){.name = "(no symbol)"};
    uint64_t total = 0, instrs = 0;
    for (uint32_t w = 0; w < p->words; w++) {
        if (!p->count[w])
            continue;
        int k = find_func(fs, n, w * 4);
        struct func_sum *s = k >= 0 ? &fs[k] : other;
        s->cycles += p->cycles[w];
        s->count += p->count[w];
        total += p->cycles[w];
        instrs += p->count[w];
    }
    fprintf(out, "%s (%s): %" PRIu64 " cycles, %" PRIu64 " instructions\n", core_name(core),
            program ? program : "-", total, instrs);
    if (!total) {
        fputc('\n', out);
        free(syms);
        free(fs);
        return;
    }
    qsort(fs, n + 1, sizeof fs[0], by_cycles);
    fprintf(out, "  %12s %6s %12s %12s  %s\n", "cycles", "%", "instrs", "stalls", "function");
    for (unsigned i = 0; i < n + 1 && i < TOP_FUNCS && fs[i].cycles; i++)
        fprintf(out, "  %12" PRIu64 " %5.1f%% %12" PRIu64 " %12" PRIu64 "  %s\n", fs[i].cycles,
                100.0 * (double)fs[i].cycles / (double)total, fs[i].count,
                fs[i].cycles - fs[i].count, fs[i].name);
    /* the hottest instructions: a fixed order (cycles, then address) */
    uint32_t top[TOP_PCS];
    unsigned ntop = 0;
    for (uint32_t w = 0; w < p->words; w++) {
        if (!p->count[w])
            continue;
        unsigned at;
        if (ntop < TOP_PCS)
            at = ntop++;
        else if (p->cycles[w] > p->cycles[top[TOP_PCS - 1]])
            at = TOP_PCS - 1;
        else
            continue;
        while (at > 0 && p->cycles[top[at - 1]] < p->cycles[w]) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = w;
    }
    qsort(fs, n, sizeof fs[0], by_addr); /* the symbols again for the lookups below */
    int fd = program ? open(program, O_RDONLY) : -1;
    Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
    fprintf(out, "  hottest instructions:\n  %12s %6s %10s  %-10s  %-24s %-30s %s\n", "cycles", "%",
            "count", "pc", "where", "source", "instruction");
    for (unsigned i = 0; i < ntop; i++) {
        uint32_t pc = top[i] * 4;
        char dis[96], where[64], src[128];
        describe_pc(t, fs, n, dw, pc, dis, sizeof dis, where, sizeof where, src, sizeof src);
        fprintf(out, "  %12" PRIu64 " %5.1f%% %10" PRIu64 "  0x%08x  %-24s %-30s %s\n",
                p->cycles[top[i]], 100.0 * (double)p->cycles[top[i]] / (double)total,
                p->count[top[i]], pc, where, src, dis);
    }
    report_held(p, t, fs, n, dw, out);
    if (dw)
        dwarf_end(dw);
    if (fd >= 0)
        close(fd);
    report_polling(p, t, fs, n, total, out);
    fputc('\n', out);
    free(syms);
    free(fs);
}
