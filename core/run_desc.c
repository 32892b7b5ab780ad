/* Parsing a run description (docs/run-description.md) with jansson. Every mistake is reported
 * with the key path it was found at ("host[2].when.equals: ..."), and a misspelt key gets a
 * suggestion: a description that says something tensim would ignore is an error, not a guess. */
#include "run_desc.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../mem/l1.h"
#include "cli.h"
#include "json_in.h"

struct parser {
    struct run_desc *rd;
    const struct arch *arch; /* the command line's, if given: addresses are checked against it */
    char *dir; /* the description's folder, with a trailing '/', or "" */
    char *err;
    unsigned errlen;
    struct run_tile *tile; /* the chip tile being read, whose l1 and read lists fill */
};

static int fail(struct parser *p, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct parser *p, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_vfail(&(struct json_where){p->rd->path, p->err, p->errlen}, at, fmt, ap);
    va_end(ap);
    return -1;
}

/* Every key of object `o` must be one of `keys`. */
static int only_keys(struct parser *p, const char *at, json_t *o, const char *const *keys, unsigned n)
{
    return json_only_keys(&(struct json_where){p->rd->path, p->err, p->errlen}, at, o, keys, n);
}

/* An object of `keys`, the first `required` of them present; `shape` says what is expected. */
static int object_of(struct parser *p, const char *at, json_t *x, const char *const *keys,
                     unsigned n, unsigned required, const char *shape)
{
    if (!json_is_object(x))
        return fail(p, at, "expected %s", shape);
    if (only_keys(p, at, x, keys, n))
        return -1;
    for (unsigned k = 0; k < required; k++)
        if (!json_object_get(x, keys[k]))
            return fail(p, at, "missing \"%s\"", keys[k]);
    return 0;
}

/* "AT.KEY" in buf (160 bytes), for messages. */
static const char *key_at(char *buf, const char *at, const char *key)
{
    snprintf(buf, 160, "%.120s.%.30s", at, key);
    return buf;
}

/* A number: a JSON integer, or a string of decimal or 0x-hexadecimal digits. */
static int number(struct parser *p, const char *at, json_t *v, uint64_t max, uint64_t *out)
{
    unsigned long long x;
    if (json_is_integer(v) && json_integer_value(v) >= 0)
        x = (unsigned long long)json_integer_value(v);
    else if (!json_is_string(v) || cli_parse_u64(json_string_value(v), &x))
        return fail(p, at, "expected a number (a non-negative integer, or a string such as \"0x1FFB8\")");
    if (x > max)
        return fail(p, at, "%llu is more than %llu", x, (unsigned long long)max);
    *out = x;
    return 0;
}

static int u32_of(struct parser *p, const char *at, json_t *v, uint32_t *out)
{
    uint64_t x;
    if (number(p, at, v, UINT32_MAX, &x))
        return -1;
    *out = (uint32_t)x;
    return 0;
}

/* A path relative to the description's folder. */
static int path_of(struct parser *p, const char *at, json_t *v, char **out)
{
    if (!json_is_string(v) || !json_string_length(v))
        return fail(p, at, "expected a file name");
    const char *s = json_string_value(v);
    size_t n = (s[0] == '/' ? 0 : strlen(p->dir)) + strlen(s) + 1;
    if (!(*out = malloc(n)))
        return fail(p, at, "out of memory");
    snprintf(*out, n, "%s%s", s[0] == '/' ? "" : p->dir, s);
    return 0;
}

/* An address range that must lie in L1. */
static int in_l1(struct parser *p, const char *at, uint32_t addr, uint64_t len)
{
    const struct arch *a = p->rd->arch ? p->rd->arch : p->arch ? p->arch : arch_get(ARCH_BLACKHOLE);
    if (addr >= a->l1_size || len > a->l1_size - addr)
        return len ? fail(p, at, "0x%x+0x%llx is outside L1 (0x0-0x%x)", addr, (unsigned long long)len,
                          a->l1_size - 1)
                   : fail(p, at, "0x%x is outside L1 (0x0-0x%x)", addr, a->l1_size - 1);
    return 0;
}

/* A non-empty array of 32-bit words, kept in the description's shared table. */
static int words_of(struct parser *p, const char *at, json_t *words, uint32_t *first, uint32_t *nwords)
{
    if (!json_is_array(words) || !json_array_size(words))
        return fail(p, at, "expected a non-empty array of numbers");
    struct run_desc *rd = p->rd;
    if (json_array_size(words) > RUN_MAX_WORDS - rd->nwords)
        return fail(p, at, "more than %d words in all", RUN_MAX_WORDS);
    *first = rd->nwords;
    size_t i;
    json_t *x;
    json_array_foreach(words, i, x) {
        char el[160];
        snprintf(el, sizeof el, "%.120s[%u]", at, (unsigned)i);
        if (u32_of(p, el, x, &rd->words[rd->nwords++]))
            return -1;
    }
    *nwords = (uint32_t)json_array_size(words);
    return 0;
}

/* {"addr": A, "file": F} or {"addr": A, "words": [...]} */
static int write_of(struct parser *p, const char *at, json_t *v, struct run_write *w)
{
    static const char *const keys[] = {"addr", "file", "words"};
    char sub[160];
    if (object_of(p, at, v, keys, 3, 1,
                  "{\"addr\": ..., \"file\": ...} or {\"addr\": ..., \"words\": [...]}"))
        return -1;
    json_t *file = json_object_get(v, "file"), *words = json_object_get(v, "words");
    if (!file == !words)
        return fail(p, at, "give one of \"file\" and \"words\"");
    if (u32_of(p, key_at(sub, at, "addr"), json_object_get(v, "addr"), &w->addr))
        return -1;
    if (w->addr & 3)
        return fail(p, sub, "0x%x is not word-aligned", w->addr);
    if (file)
        return in_l1(p, sub, w->addr, 0) ? -1 : path_of(p, key_at(sub, at, "file"), file, &w->file);
    if (words_of(p, key_at(sub, at, "words"), words, &w->first, &w->nwords))
        return -1;
    return in_l1(p, sub, w->addr, 4ull * w->nwords);
}

/* {"word": A, "equals": V [, "mask": M]}, {"word": A, "not_equals": V}, {"all": [...]},
 * {"any": [...]}. Returns the condition's index or -1. */
static int cond_of(struct parser *p, const char *at, json_t *v, unsigned depth)
{
    static const char *const keys[] = {"word", "equals", "not_equals", "mask", "all", "any"};
    struct run_desc *rd = p->rd;
    char sub[160];
    if (depth > 8)
        return fail(p, at, "conditions nested more than 8 deep");
    if (!json_is_object(v))
        return fail(p, at, "expected a condition: {\"word\": ADDR, \"equals\": VALUE}, {\"all\": [...]} or {\"any\": [...]}");
    if (only_keys(p, at, v, keys, 6))
        return -1;
    if (rd->ncond >= RUN_MAX_CONDS)
        return fail(p, at, "more than %d conditions in all", RUN_MAX_CONDS);
    json_t *all = json_object_get(v, "all"), *any = json_object_get(v, "any");
    if (all || any) {
        if (json_object_size(v) != 1)
            return fail(p, at, "\"%s\" stands alone in its object", all ? "all" : "any");
        json_t *list = all ? all : any;
        snprintf(sub, sizeof sub, "%.120s.%s", at, all ? "all" : "any");
        if (!json_is_array(list) || !json_array_size(list))
            return fail(p, sub, "expected a non-empty array of conditions");
        if (json_array_size(list) > RUN_MAX_CONDS)
            return fail(p, sub, "more than %d conditions", RUN_MAX_CONDS);
        int kid[RUN_MAX_CONDS];
        size_t i;
        json_t *x;
        json_array_foreach(list, i, x) {
            char el[160];
            snprintf(el, sizeof el, "%.120s[%u]", sub, (unsigned)i);
            if ((kid[i] = cond_of(p, el, x, depth + 1)) < 0)
                return -1;
        }
        /* the children took their places: is there one left for this one? */
        if (rd->ncond >= RUN_MAX_CONDS || json_array_size(list) > RUN_MAX_CONDS - rd->nkids)
            return fail(p, sub, "more than %d conditions in all", RUN_MAX_CONDS);
        struct run_cond *c = &rd->cond[rd->ncond];
        *c = (struct run_cond){.kind = all ? COND_ALL : COND_ANY, .first = (uint16_t)rd->nkids,
                               .n = (uint16_t)json_array_size(list)};
        for (i = 0; i < c->n; i++)
            rd->kids[rd->nkids++] = (uint16_t)kid[i];
        return (int)rd->ncond++;
    }
    json_t *word = json_object_get(v, "word"), *eq = json_object_get(v, "equals"),
           *ne = json_object_get(v, "not_equals"), *mask = json_object_get(v, "mask");
    if (!word)
        return fail(p, at, "missing \"word\" (or \"all\" / \"any\")");
    if (!eq == !ne)
        return fail(p, at, "give one of \"equals\" and \"not_equals\"");
    struct run_cond c = {.kind = eq ? COND_EQUALS : COND_NOT_EQUALS, .mask = UINT32_MAX};
    snprintf(sub, sizeof sub, "%.120s.word", at);
    if (u32_of(p, sub, word, &c.addr))
        return -1;
    if ((c.addr & 3) || in_l1(p, sub, c.addr, 4))
        return c.addr & 3 ? fail(p, sub, "0x%x is not word-aligned", c.addr) : -1;
    snprintf(sub, sizeof sub, "%.120s.%s", at, eq ? "equals" : "not_equals");
    if (u32_of(p, sub, eq ? eq : ne, &c.value))
        return -1;
    snprintf(sub, sizeof sub, "%.120s.mask", at);
    if (mask && u32_of(p, sub, mask, &c.mask))
        return -1;
    rd->cond[rd->ncond] = c;
    return (int)rd->ncond++;
}

/* {"trisc0": FILE, ...} at `at` into program[] */
static int programs_of(struct parser *p, const char *at, json_t *v, char **program)
{
    static const char *const keys[] = {"trisc0", "trisc1", "trisc2", "brisc", "ncrisc"}; /* enum core_id */
    if (!json_is_object(v))
        return fail(p, at, "expected {\"trisc0\": FILE, ...}");
    if (only_keys(p, at, v, keys, NUM_CORES))
        return -1;
    for (int k = 0; k < NUM_CORES; k++) {
        json_t *f = json_object_get(v, keys[k]);
        char sub[160];
        if (f && path_of(p, key_at(sub, at, keys[k]), f, &program[k]))
            return -1;
    }
    return 0;
}

/* Each element of array `v` (key `name`, at most `max`) through `one`, at "name[i]". */
static int each_of(struct parser *p, const char *name, json_t *v, unsigned max,
                   int (*one)(struct parser *p, const char *at, json_t *x))
{
    if (!json_is_array(v))
        return fail(p, name, "expected an array");
    if (json_array_size(v) > max)
        return fail(p, name, "at most %u entries", max);
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) {
        char at[160];
        snprintf(at, sizeof at, "%.120s[%u]", name, (unsigned)i);
        if (one(p, at, x))
            return -1;
    }
    return 0;
}

static int l1_write_of(struct parser *p, const char *at, json_t *x)
{
    return write_of(p, at, x, &p->rd->l1[p->rd->nl1++]);
}

static int action_of(struct parser *p, const char *at, json_t *x)
{
    static const char *const keys[] = {"when", "write"};
    char sub[160];
    if (object_of(p, at, x, keys, 2, 2, "{\"when\": CONDITION, \"write\": {...}}"))
        return -1;
    struct run_action *a = &p->rd->action[p->rd->naction++];
    if ((a->cond = cond_of(p, key_at(sub, at, "when"), json_object_get(x, "when"), 0)) < 0)
        return -1;
    return write_of(p, key_at(sub, at, "write"), json_object_get(x, "write"), &a->write);
}

static int read_into(struct parser *p, const char *at, json_t *x, struct run_read *r)
{
    static const char *const keys[] = {"addr", "len", "file"};
    char sub[160];
    if (object_of(p, at, x, keys, 3, 3, "{\"addr\": ..., \"len\": ..., \"file\": ...}"))
        return -1;
    if (u32_of(p, key_at(sub, at, "addr"), json_object_get(x, "addr"), &r->addr) ||
        u32_of(p, key_at(sub, at, "len"), json_object_get(x, "len"), &r->len) ||
        in_l1(p, at, r->addr, r->len))
        return -1;
    return path_of(p, key_at(sub, at, "file"), json_object_get(x, "file"), &r->file);
}

static int read_of(struct parser *p, const char *at, json_t *x)
{
    return read_into(p, at, x, &p->rd->read[p->rd->nread++]);
}

/* ---- "chip": tiles and DRAM ---- */

/* "at": [x, y], NoC 0 coordinates; whether the grid has such a node is the caller's to check
 * (it needs the chip's grid). */
static int at_of(struct parser *p, const char *at, json_t *v, unsigned *x, unsigned *y)
{
    if (!json_is_array(v) || json_array_size(v) != 2)
        return fail(p, at, "expected [x, y] (NoC 0 coordinates)");
    uint64_t c[2];
    for (unsigned i = 0; i < 2; i++) {
        char el[160];
        snprintf(el, sizeof el, "%.120s[%u]", at, i);
        if (number(p, el, json_array_get(v, i), 255, &c[i]))
            return -1;
    }
    *x = (unsigned)c[0];
    *y = (unsigned)c[1];
    return 0;
}

/* A range in a DRAM bank: the banks are 4 GiB (a smaller one is the chip's to refuse). */
static int in_dram(struct parser *p, const char *at, uint64_t addr, uint64_t len)
{
    if (addr >= RUN_DRAM_SIZE || len > RUN_DRAM_SIZE - addr)
        return len ? fail(p, at, "0x%llx+0x%llx is outside a DRAM bank (0x0-0x%llx)", (unsigned long long)addr,
                          (unsigned long long)len, RUN_DRAM_SIZE - 1)
                   : fail(p, at, "0x%llx is outside a DRAM bank (0x0-0x%llx)", (unsigned long long)addr,
                          RUN_DRAM_SIZE - 1);
    return 0;
}

static int tile_l1_of(struct parser *p, const char *at, json_t *x)
{
    return write_of(p, at, x, &p->tile->l1[p->tile->nl1++]);
}

static int tile_read_of(struct parser *p, const char *at, json_t *x)
{
    return read_into(p, at, x, &p->tile->read[p->tile->nread++]);
}

/* {"at": [x, y], "programs": {...}, "l1": [...], "read": [...]} */
static int tile_of(struct parser *p, const char *at, json_t *x)
{
    static const char *const keys[] = {"at", "programs", "l1", "read"};
    struct run_chip *chip = p->rd->chip;
    struct run_tile *t = p->tile = &chip->tile[chip->ntiles++];
    char sub[160];
    if (object_of(p, at, x, keys, 4, 2, "{\"at\": [x, y], \"programs\": {...}, ...}"))
        return -1;
    if (at_of(p, key_at(sub, at, "at"), json_object_get(x, "at"), &t->x, &t->y))
        return -1;
    for (unsigned i = 0; i + 1 < chip->ntiles; i++)
        if (chip->tile[i].x == t->x && chip->tile[i].y == t->y)
            return fail(p, sub, "(%u, %u) is taken by chip.tiles[%u]", t->x, t->y, i);
    if (programs_of(p, key_at(sub, at, "programs"), json_object_get(x, "programs"), t->program))
        return -1;
    bool any = false;
    for (int k = 0; k < NUM_CORES; k++)
        any |= t->program[k] != 0;
    if (!any)
        return fail(p, sub, "the tile has no program");
    json_t *v;
    if ((v = json_object_get(x, "l1")) && each_of(p, key_at(sub, at, "l1"), v, RUN_MAX_WRITES, tile_l1_of))
        return -1;
    if ((v = json_object_get(x, "read")) && each_of(p, key_at(sub, at, "read"), v, RUN_MAX_READS, tile_read_of))
        return -1;
    return 0;
}

/* {"at": [x, y], "addr": A, "file": F} or {"at": [x, y], "addr": A, "words": [...]} */
static int dram_write_of(struct parser *p, const char *at, json_t *x)
{
    static const char *const keys[] = {"at", "addr", "file", "words"};
    struct run_chip *chip = p->rd->chip;
    struct run_dram_write *w = &chip->dram[chip->ndram++];
    char sub[160];
    if (object_of(p, at, x, keys, 4, 2,
                  "{\"at\": [x, y], \"addr\": ..., \"file\": ...} or {\"at\": [x, y], \"addr\": ..., \"words\": [...]}"))
        return -1;
    json_t *file = json_object_get(x, "file"), *words = json_object_get(x, "words");
    if (!file == !words)
        return fail(p, at, "give one of \"file\" and \"words\"");
    if (at_of(p, key_at(sub, at, "at"), json_object_get(x, "at"), &w->x, &w->y) ||
        number(p, key_at(sub, at, "addr"), json_object_get(x, "addr"), UINT64_MAX, &w->addr))
        return -1;
    if (w->addr & 3)
        return fail(p, sub, "0x%llx is not word-aligned", (unsigned long long)w->addr);
    if (file)
        return in_dram(p, sub, w->addr, 0) ? -1 : path_of(p, key_at(sub, at, "file"), file, &w->file);
    if (words_of(p, key_at(sub, at, "words"), words, &w->first, &w->nwords))
        return -1;
    return in_dram(p, sub, w->addr, 4ull * w->nwords);
}

/* {"at": [x, y], "addr": A, "len": N, "file": F} */
static int dram_read_of(struct parser *p, const char *at, json_t *x)
{
    static const char *const keys[] = {"at", "addr", "len", "file"};
    struct run_chip *chip = p->rd->chip;
    struct run_dram_read *r = &chip->dram_read[chip->ndram_read++];
    char sub[160];
    if (object_of(p, at, x, keys, 4, 4, "{\"at\": [x, y], \"addr\": ..., \"len\": ..., \"file\": ...}"))
        return -1;
    if (at_of(p, key_at(sub, at, "at"), json_object_get(x, "at"), &r->x, &r->y) ||
        number(p, key_at(sub, at, "addr"), json_object_get(x, "addr"), UINT64_MAX, &r->addr) ||
        number(p, key_at(sub, at, "len"), json_object_get(x, "len"), UINT64_MAX, &r->len) ||
        in_dram(p, at, r->addr, r->len))
        return -1;
    return path_of(p, key_at(sub, at, "file"), json_object_get(x, "file"), &r->file);
}

/* "chip": {"tiles": [...], "dram": [...], "dram_read": [...]} */
static int chip_of(struct parser *p, json_t *v)
{
    static const char *const keys[] = {"tiles", "dram", "dram_read"};
    struct run_desc *rd = p->rd;
    if (object_of(p, "chip", v, keys, 3, 1, "{\"tiles\": [...], ...}"))
        return -1;
    json_t *tiles = json_object_get(v, "tiles");
    if (!json_is_array(tiles) || !json_array_size(tiles))
        return fail(p, "chip.tiles", "expected a non-empty array of tiles");
    if (json_array_size(tiles) > RUN_MAX_TILES)
        return fail(p, "chip.tiles", "at most %u entries", RUN_MAX_TILES);
    if (!(rd->chip = calloc(1, sizeof *rd->chip)) ||
        !(rd->chip->tile = calloc(json_array_size(tiles), sizeof *rd->chip->tile)))
        return fail(p, "chip", "out of memory");
    if (each_of(p, "chip.tiles", tiles, RUN_MAX_TILES, tile_of))
        return -1;
    p->tile = 0;
    json_t *x;
    if ((x = json_object_get(v, "dram")) && each_of(p, "chip.dram", x, RUN_MAX_WRITES, dram_write_of))
        return -1;
    if ((x = json_object_get(v, "dram_read")) &&
        each_of(p, "chip.dram_read", x, RUN_MAX_READS, dram_read_of))
        return -1;
    return 0;
}

/* With "chip", the keys of a one-tile run are mistakes: each tile says its own programs, l1 and
 * read, and the host's part (boot, host actions, end) is not built for chips yet. */
static int no_tile_keys_with_chip(struct parser *p, json_t *root)
{
    static const char *const per_tile[] = {"programs", "l1", "read"};
    static const char *const one_tile[] = {"boot", "host", "end", "layout", "zones", "poll_cycles"};
    for (unsigned i = 0; i < sizeof per_tile / sizeof per_tile[0]; i++)
        if (json_object_get(root, per_tile[i]))
            return fail(p, per_tile[i], "not with \"chip\": give each tile's in chip.tiles[i].%s",
                        per_tile[i]);
    for (unsigned i = 0; i < sizeof one_tile / sizeof one_tile[0]; i++)
        if (json_object_get(root, one_tile[i]))
            return fail(p, one_tile[i], "not with \"chip\": only a run of one tile has it");
    return 0;
}

/* A string value out of a fixed list; *out is its index. */
static int choice(struct parser *p, const char *at, json_t *v, const char *const *names,
                  unsigned n, int *out)
{
    if (!json_is_string(v))
        return fail(p, at, "expected a string");
    for (unsigned i = 0; i < n; i++)
        if (names[i] && !strcmp(json_string_value(v), names[i]))
            return *out = (int)i, 0;
    const char *near = cli_nearest(json_string_value(v), names, n);
    char list[160] = "";
    for (unsigned i = 0, used = 0; i < n && used < sizeof list; i++)
        if (names[i])
            used += (unsigned)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", names[i]);
    return near ? fail(p, at, "unknown value \"%s\" (did you mean \"%s\"?)", json_string_value(v), near)
                : fail(p, at, "unknown value \"%s\" (one of: %s)", json_string_value(v), list);
}

static const char *const boot_names[] = {"none", "brisc", "trisc", "host"};
const char *boot_mode_name(enum boot_mode b) { return boot_names[b]; }

/* The rules that tie keys together, checked once everything is read. */
static int check_whole(struct parser *p)
{
    struct run_desc *rd = p->rd;
    bool needs_layout = rd->boot != BOOT_NONE || rd->end_kernel_complete || rd->zones;
    if (needs_layout && !rd->layout)
        return fail(p, "layout", "missing: boot modes, \"end\": \"kernel_complete\" and zones need "
                                 "the tt-llk layout the kernels were built for");
    if (rd->boot == BOOT_BRISC && !rd->program[CORE_BRISC])
        return fail(p, "programs", "the brisc boot mode needs a BRISC program (tt-llk's brisc.elf)");
    if (rd->boot != BOOT_NONE && !rd->program[CORE_TRISC0])
        return fail(p, "programs", "the %s boot mode needs a TRISC0 program", boot_names[rd->boot]);
    bool any = false;
    for (int k = 0; k < NUM_CORES; k++)
        any |= rd->program[k] != 0;
    if (!any)
        return fail(p, "programs", "missing: the run has no program");
    return 0;
}

static int parse(struct parser *p, json_t *root)
{
    static const char *const keys[] = {"tensim_run", "arch", "layout", "boot", "loader",
                                       "programs", "l1", "host", "end", "read", "max_cycles",
                                       "poll_cycles", "zones", "unpredictable", "chip", "threads"};
    struct run_desc *rd = p->rd;
    if (!json_is_object(root))
        return fail(p, "", "expected a JSON object");
    json_t *ver = json_object_get(root, "tensim_run");
    if (!ver)
        return fail(p, "", "missing \"tensim_run\": %d (the format's version)", RUN_DESC_VERSION);
    if (!json_is_integer(ver) || json_integer_value(ver) != RUN_DESC_VERSION)
        return fail(p, "tensim_run", "this tensim reads version %d of the format", RUN_DESC_VERSION);
    if (only_keys(p, "", root, keys, sizeof keys / sizeof keys[0]))
        return -1;
    json_t *v, *chip = json_object_get(root, "chip");
    if (chip && no_tile_keys_with_chip(p, root))
        return -1;
    if ((v = json_object_get(root, "arch"))) {
        if (!json_is_string(v) || !(rd->arch = arch_by_name(json_string_value(v))))
            return fail(p, "arch", "expected \"blackhole\" or \"wormhole\"");
    }
    if ((v = json_object_get(root, "layout"))) {
        if (!json_is_string(v))
            return fail(p, "layout", "expected a string");
        if (!(rd->layout = llk_layout_by_name(json_string_value(v)))) {
            char names[200];
            llk_layout_names(names, sizeof names);
            return fail(p, "layout", "unknown layout \"%s\" (known: %s; docs/tt-llk.md)",
                        json_string_value(v), names);
        }
    }
    int x;
    if ((v = json_object_get(root, "boot"))) {
        if (choice(p, "boot", v, boot_names, 4, &x))
            return -1;
        rd->boot = (enum boot_mode)x;
    }
    if ((v = json_object_get(root, "loader"))) {
        static const char *const names[] = {"auto", "segments", "exalens"}; /* enum elf_loader */
        if (choice(p, "loader", v, names, 3, &x))
            return -1;
        rd->loader = (enum elf_loader)x;
    }
    if ((v = json_object_get(root, "programs")) && programs_of(p, "programs", v, rd->program))
        return -1;
    if ((v = json_object_get(root, "l1")) && each_of(p, "l1", v, RUN_MAX_WRITES, l1_write_of))
        return -1;
    if ((v = json_object_get(root, "host")) && each_of(p, "host", v, RUN_MAX_ACTIONS, action_of))
        return -1;
    if ((v = json_object_get(root, "end"))) {
        if (json_is_string(v)) {
            if (strcmp(json_string_value(v), "kernel_complete"))
                return fail(p, "end", "expected \"kernel_complete\" or a condition");
            rd->end_kernel_complete = true;
        } else if ((rd->end = cond_of(p, "end", v, 0)) < 0) {
            return -1;
        }
    }
    if ((v = json_object_get(root, "read")) && each_of(p, "read", v, RUN_MAX_READS, read_of))
        return -1;
    uint64_t n;
    if ((v = json_object_get(root, "max_cycles"))) {
        if (number(p, "max_cycles", v, UINT64_MAX, &n) || (!n && fail(p, "max_cycles", "must be positive")))
            return -1;
        rd->max_cycles = n;
    }
    if ((v = json_object_get(root, "poll_cycles"))) {
        if (number(p, "poll_cycles", v, 1u << 20, &n) || (!n && fail(p, "poll_cycles", "must be positive")))
            return -1;
        rd->poll_cycles = (uint32_t)n;
    }
    if ((v = json_object_get(root, "zones")) && path_of(p, "zones", v, &rd->zones))
        return -1;
    if ((v = json_object_get(root, "unpredictable"))) {
        static const char *const names[] = {"error", "warn"};
        if (choice(p, "unpredictable", v, names, 2, &x))
            return -1;
        rd->unpredictable_warn = x == 1;
    }
    if ((v = json_object_get(root, "threads"))) {
        if (number(p, "threads", v, RUN_MAX_THREADS, &n) || (!n && fail(p, "threads", "must be positive")))
            return -1;
        rd->threads = (unsigned)n;
    }
    if (chip)
        return chip_of(p, chip);
    return check_whole(p);
}

int run_desc_load(struct run_desc *rd, const char *path, const struct arch *arch, char *err,
                  unsigned errlen)
{
    memset(rd, 0, sizeof *rd);
    rd->end = -1;
    rd->poll_cycles = 1;
    rd->path = strdup(path);
    const char *slash = strrchr(path, '/');
    struct parser p = {rd, arch, strndup(path, slash ? (size_t)(slash - path + 1) : 0), err, errlen, 0};
    if (!rd->path || !p.dir) {
        free(p.dir);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    json_error_t je;
    struct stat st;
    json_t *root = stat(path, &st) || !S_ISDIR(st.st_mode) ? json_load_file(path, JSON_REJECT_DUPLICATES, &je) : 0;
    int r;
    if (!root && !stat(path, &st) && S_ISDIR(st.st_mode))
        r = fail(&p, "", "is a directory, not a run description");
    else if (!root)
        r = je.line > 0 ? fail(&p, "", "line %d, column %d: %s", je.line, je.column, je.text)
                        : fail(&p, "", "%s", je.text);
    else
        r = parse(&p, root);
    json_decref(root);
    free(p.dir);
    return r;
}

void run_desc_free(struct run_desc *rd)
{
    free(rd->path);
    for (int k = 0; k < NUM_CORES; k++)
        free(rd->program[k]);
    for (unsigned i = 0; i < rd->nl1; i++)
        free(rd->l1[i].file);
    for (unsigned i = 0; i < rd->naction; i++)
        free(rd->action[i].write.file);
    for (unsigned i = 0; i < rd->nread; i++)
        free(rd->read[i].file);
    free(rd->zones);
    if (rd->chip) {
        for (unsigned i = 0; i < rd->chip->ntiles; i++) {
            struct run_tile *t = &rd->chip->tile[i];
            for (int k = 0; k < NUM_CORES; k++)
                free(t->program[k]);
            for (unsigned j = 0; j < t->nl1; j++)
                free(t->l1[j].file);
            for (unsigned j = 0; j < t->nread; j++)
                free(t->read[j].file);
        }
        for (unsigned i = 0; i < rd->chip->ndram; i++)
            free(rd->chip->dram[i].file);
        for (unsigned i = 0; i < rd->chip->ndram_read; i++)
            free(rd->chip->dram_read[i].file);
        free(rd->chip->tile);
        free(rd->chip);
    }
    memset(rd, 0, sizeof *rd);
}

bool run_cond_holds(const struct run_desc *rd, int i, const uint8_t *l1)
{
    const struct run_cond *c = &rd->cond[i];
    switch (c->kind) {
    case COND_EQUALS:
    case COND_NOT_EQUALS:
        return ((le_get(l1 + c->addr, 4) & c->mask) == c->value) == (c->kind == COND_EQUALS);
    case COND_ALL:
        for (unsigned k = 0; k < c->n; k++)
            if (!run_cond_holds(rd, rd->kids[c->first + k], l1))
                return false;
        return true;
    case COND_ANY:
        for (unsigned k = 0; k < c->n; k++)
            if (run_cond_holds(rd, rd->kids[c->first + k], l1))
                return true;
        return false;
    }
    return false;
}
