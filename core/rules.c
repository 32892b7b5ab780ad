/* The software-rule funnel and --lint's record (core/rules.h). */
#include "rules.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../riscv/decode.h"
#include "../trace/json.h"
#include "services.h"
#include "tile.h"

static const struct {
    const char *key, *page, *text, *goes_on;
    bool stops;
} rules[RULE_COUNT] = {
#define X(id, key_, stops_, page_, text_, goes_on_)                                               \
    [id] = {.key = key_, .page = page_, .text = text_, .goes_on = goes_on_, .stops = stops_},
#include "rules.def"
#undef X
};

const char *rule_key(enum rule_id r) { return rules[r].key; }
const char *rule_page(enum rule_id r) { return rules[r].page; }
const char *rule_text(enum rule_id r) { return rules[r].text; }
const char *rule_goes_on(enum rule_id r) { return rules[r].goes_on; }
bool rule_stops(enum rule_id r) { return rules[r].stops; }

struct rule_site rule_site_tensix(const struct tile *t, unsigned th, uint32_t word)
{
    struct rule_site s = {.core = -1, .thread = (int)th, .pc = 0, .word = word};
    /* the Wait Gate notes the instruction it is issuing (sync/gate.c) when --lint is on */
    if (t->issue_thread == (int)th && t->issue_word == word) {
        s.core = origin_core(t->issue_origin);
        s.pc = s.core >= 0 ? origin_pc(t->issue_origin) : 0;
    }
    return s;
}

struct rule_site rule_site_riscv(const struct tile *t, int core)
{
    const uint32_t pc = t->core[core].pc;
    uint32_t w = 0;
    if (pc <= t->arch->l1_size - 4)
        memcpy(&w, t->l1 + pc, 4); /* L1 is little-endian, as the host is */
    return (struct rule_site){.core = core, .thread = -1, .pc = pc, .word = w};
}

static struct lint_finding *find(struct lint *l, enum rule_id r, struct rule_site s)
{
    for (unsigned i = 0; i < l->n; i++) {
        struct lint_finding *f = &l->f[i];
        if (f->rule == r && f->pc == s.pc && f->word == s.word && f->core == s.core &&
            f->thread == s.thread)
            return f;
    }
    return NULL;
}

bool rule_vbroken(struct tile *t, enum rule_id r, struct rule_site s, const char *fmt, va_list ap)
{
    struct lint *l = t->lint;
    if (!l) {
        if (!rules[r].stops)
            return true;
        char msg[SIM_ERROR_TEXT_MAX];
        vsnprintf(msg, sizeof msg, fmt, ap);
        const bool riscv = s.thread < 0;
        return tile_error(t, ERR_UNDEF_BEHAVIOUR, riscv ? s.core : -1, riscv ? s.pc : 0, "%s", msg);
    }
    l->by_rule[r]++;
    l->total++;
    struct lint_finding *f = find(l, r, s);
    if (f) {
        f->count++;
        return true;
    }
    if (l->n == LINT_MAX_FINDINGS) {
        l->unlisted++;
        return true;
    }
    f = &l->f[l->n++];
    *f = (struct lint_finding){.cycle = t->now, .count = 1, .pc = s.pc, .word = s.word,
                               .rule = (uint8_t)r, .core = (int8_t)s.core,
                               .thread = (int8_t)s.thread};
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    return true;
}

bool rule_broken(struct tile *t, enum rule_id r, struct rule_site s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool go_on = rule_vbroken(t, r, s, fmt, ap);
    va_end(ap);
    return go_on;
}

struct lint *lint_new(void) { return calloc(1, sizeof(struct lint)); }

/* "thread T1 (pushed by TRISC1 pc=0x00006010)", "TRISC0 pc=0x00006020" */
static void place(const struct lint_finding *f, char *buf, size_t n)
{
    if (f->thread < 0)
        snprintf(buf, n, "%s pc=0x%08" PRIx32, core_name(f->core), f->pc);
    else if (f->core >= 0)
        snprintf(buf, n, "thread T%d (pushed by %s pc=0x%08" PRIx32 ")", f->thread,
                 core_name(f->core), f->pc);
    else
        snprintf(buf, n, "thread T%d", f->thread);
}

static void disasm(const struct lint_finding *f, const struct tile *t, char *buf, size_t n)
{
    if (f->thread < 0)
        rv_disasm(f->word, f->pc, buf, n);
    else
        tt_disasm(tile_arch_bit(t), f->word, buf, n);
}

void lint_report(const struct lint *l, const struct tile *t, unsigned max_lines, FILE *f)
{
    unsigned rules_broken = 0;
    for (unsigned r = 0; r < RULE_COUNT; r++)
        rules_broken += l->by_rule[r] != 0;
    fprintf(f, "lint: %" PRIu64 " break%s of %u rule%s at %u place%s%s\n", l->total,
            l->total == 1 ? "" : "s", rules_broken, rules_broken == 1 ? "" : "s", l->n,
            l->n == 1 ? "" : "s", l->unlisted ? " (and more not listed)" : "");
    for (unsigned i = 0; i < l->n && i < max_lines; i++) {
        const struct lint_finding *x = &l->f[i];
        char where[96], insn[300]; /* a Tensix disassembly runs to 150 characters */
        place(x, where, sizeof where);
        disasm(x, t, insn, sizeof insn);
        fprintf(f, "  %s cycle=%" PRIu64 " %s: %s", rule_key((enum rule_id)x->rule), x->cycle,
                where, insn);
        if (x->count > 1)
            fprintf(f, " (x%" PRIu64 ")", x->count);
        fprintf(f, "\n    %s\n", x->text);
    }
    if (l->n > max_lines)
        fprintf(f, "  ... %u more\n", l->n - max_lines);
}

void lint_json(const struct lint *l, const struct tile *t, FILE *f)
{
    fprintf(f, "{\"total\": %" PRIu64 ", \"unlisted\": %" PRIu64 ", \"by_rule\": {", l->total,
            l->unlisted);
    for (unsigned r = 0; r < RULE_COUNT; r++) {
        fprintf(f, "%s", r ? ", " : "");
        json_str(f, rule_key((enum rule_id)r));
        fprintf(f, ": %" PRIu64, l->by_rule[r]);
    }
    fprintf(f, "}, \"findings\": [");
    for (unsigned i = 0; i < l->n; i++) {
        const struct lint_finding *x = &l->f[i];
        char insn[300];
        disasm(x, t, insn, sizeof insn);
        fprintf(f, "%s{\"rule\": ", i ? ", " : "");
        json_str(f, rule_key((enum rule_id)x->rule));
        fprintf(f, ", \"core\": ");
        if (x->core >= 0)
            json_str(f, core_name(x->core));
        else
            fprintf(f, "null");
        fprintf(f, ", \"thread\": ");
        if (x->thread >= 0)
            fprintf(f, "%d", x->thread);
        else
            fprintf(f, "null");
        fprintf(f, ", \"pc\": %" PRIu32 ", \"cycle\": %" PRIu64 ", \"count\": %" PRIu64
                   ", \"word\": %" PRIu32 ", \"instruction\": ",
                x->pc, x->cycle, x->count, x->word);
        json_str(f, insn);
        fprintf(f, ", \"message\": ");
        json_str(f, x->text);
        fprintf(f, "}");
    }
    fprintf(f, "]}");
}
