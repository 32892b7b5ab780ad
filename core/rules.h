/* The funnel for every software rule a kernel breaks (tensim run --lint; rows in core/rules.def,
 * docs/user-guide.md "Lint").
 *
 * A unit that sees a rule broken calls rule_broken. Without --lint (t->lint NULL) a rule whose
 * outcome is undefined stops the run as undefined behaviour with the caller's message, exactly
 * as the units did before the funnel existed; a rule with a defined outcome does nothing. With
 * --lint the run goes on (each row says with what) and the finding is recorded: rule, core or
 * thread, pc, cycle and the instruction, deduplicated by rule, place and instruction with a
 * count. The record is allocated once at start-up; a break formats its message only when it
 * stops the run or is the first of its kind at that place, so a kernel that breaks a rule in a
 * loop costs a search of the record per break and nothing more. */
#ifndef TENSIM_CORE_RULES_H
#define TENSIM_CORE_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>

enum rule_id {
#define X(id, key, stops, page, text, goes_on) id,
#include "rules.def"
#undef X
    RULE_COUNT
};

const char *rule_key(enum rule_id r);
const char *rule_page(enum rule_id r);
const char *rule_text(enum rule_id r);
const char *rule_goes_on(enum rule_id r);
bool rule_stops(enum rule_id r); /* undefined: stops the run without --lint */

/* Where a rule was broken. A Tensix instruction: its thread, its word, and the core and pc of
 * the push that put it into the pipe (core -1 when unknown, e.g. a SFPLOADMACRO-scheduled
 * instruction). A RISC-V instruction: thread -1, its core, pc and word. */
struct rule_site {
    int core, thread;
    uint32_t pc, word;
};

#define LINT_MAX_FINDINGS 256 /* distinct findings kept; later distinct ones are only counted */
#define LINT_TEXT_MAX 240

struct lint_finding {
    uint64_t cycle, count; /* the first break's cycle; how many breaks */
    uint32_t pc, word;
    uint8_t rule;
    int8_t core, thread;
    char text[LINT_TEXT_MAX]; /* the first break's message */
};

struct lint {
    uint64_t by_rule[RULE_COUNT];
    uint64_t total;    /* every break */
    uint64_t unlisted; /* breaks of distinct findings past LINT_MAX_FINDINGS */
    unsigned n;
    struct lint_finding f[LINT_MAX_FINDINGS];
    /* rule cfg_write_use: per thread, the cycle from which its last WRCFG is visible and the
     * Config word it wrote (set by the Configuration unit, read by the Wait Gate) */
    uint64_t wrcfg_visible[3];
    uint16_t wrcfg_index[3];
};

struct tile;

/* The site of the Tensix instruction of thread th with word `word` (the one passing the Wait
 * Gate when the break is seen at issue). */
struct rule_site rule_site_tensix(const struct tile *t, unsigned th, uint32_t word);
/* The site of core `core`'s current instruction. */
struct rule_site rule_site_riscv(const struct tile *t, int core);

/* Rule r broken at s. Returns true when the run goes on, false when it stopped (tile_error). A
 * stop names the core and pc of a RISC-V site, and no core for a Tensix one, as before. */
bool rule_broken(struct tile *t, enum rule_id r, struct rule_site s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool rule_vbroken(struct tile *t, enum rule_id r, struct rule_site s, const char *fmt, va_list ap);

/* --lint's record (NULL on failure) and its outputs: the report's "lint" section (at most
 * `max_lines` findings, then "... N more") and the stats JSON object (docs/stats-schema.md). */
struct lint *lint_new(void);
void lint_report(const struct lint *l, const struct tile *t, unsigned max_lines, FILE *f);
void lint_json(const struct lint *l, const struct tile *t, FILE *f);

#endif
