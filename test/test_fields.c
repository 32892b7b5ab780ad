/* Instruction fields by name. The simulator reads Tensix instruction words only through the
 * accessors units/tensix_isa.h generates from units/tensix.def (TT_GET_<form>_<Field>,
 * TT_OPC_<form>), so a bit position or an opcode is written down once, in the table.
 *
 * no_hand_written_fields scans the simulator's sources (the .c and .h files directly under
 * core/ riscv/ sync/ units/ mem/ trace/; riscv/sdk is kernel-side code) with comments and
 * string literals blanked, and names file:line of
 *   - a tt_bits( call whose bit positions (2nd or 3rd argument) start with a digit: a literal
 *     field position (units/tensix_isa.h, where the accessors are generated, is skipped);
 *   - a == or != with a hex literal on one side and, on the other, "opcode" or a shift by 24
 *     (`f->opcode == 0xA2`, `w >> 24 == 0x01`): a hand-written opcode;
 *   - a name containing OPC_ or starting with OP_ given a hex value (`enum { OPC_NOP = 0x02 }`,
 *     `#define PIPE_OPC_MOP 0x01u`): a local opcode constant.
 * It is a textual check, not a parser: it catches the usual spellings, not every one (a shift
 * and mask without tt_bits, or `case 0x41:` under a switch on the opcode, passes it). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../units/tensix_isa.h"

static const char *const dirs[] = {"core", "riscv", "sync", "units", "mem", "trace"};

/* The file with comments and string/char literals replaced by spaces (newlines kept, so line
 * numbers stay). NULL when it cannot be read. */
static char *read_code(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(s);
        return NULL;
    }
    fclose(f);
    s[n] = 0;
    enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } st = CODE;
    for (long i = 0; i < n; i++) {
        char c = s[i], next = i + 1 < n ? s[i + 1] : 0;
        switch (st) {
        case CODE:
            if (c == '/' && next == '/')
                st = LINE_COMMENT, s[i] = ' ';
            else if (c == '/' && next == '*')
                st = BLOCK_COMMENT, s[i] = s[i + 1] = ' ', i++;
            else if (c == '"')
                st = STRING;
            else if (c == '\'')
                st = CHAR;
            break;
        case LINE_COMMENT:
            if (c == '\n')
                st = CODE;
            else
                s[i] = ' ';
            break;
        case BLOCK_COMMENT:
            if (c == '*' && next == '/')
                st = CODE, s[i] = s[i + 1] = ' ', i++;
            else if (c != '\n')
                s[i] = ' ';
            break;
        case STRING:
        case CHAR:
            if (c == '\\' && next)
                s[i] = s[i + 1] = ' ', i++;
            else if (c == (st == STRING ? '"' : '\''))
                st = CODE;
            else if (c != '\n')
                s[i] = ' ';
            break;
        }
    }
    return s;
}

static unsigned line_of(const char *code, const char *at)
{
    unsigned line = 1;
    for (const char *p = code; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Does the tt_bits( call whose argument list starts at `args` give a bit position as a literal? */
static bool literal_position(const char *args)
{
    int depth = 0;
    unsigned arg = 0;
    for (const char *p = args; *p; p++) {
        if (*p == '(') {
            depth++;
        } else if (*p == ')') {
            if (depth-- == 0)
                return false;
        } else if (*p == ',' && depth == 0) {
            arg++;
            const char *q = p + 1;
            while (isspace((unsigned char)*q))
                q++;
            if (isdigit((unsigned char)*q))
                return true;
            if (arg == 2)
                return false;
        }
    }
    return false;
}

/* Is *p part of an operand: a name, a number, member access (. and ->), a call or index, a right
 * shift, space? Anything else (&&, ||, ?, ;, a comma, other operators) ends one. */
static bool in_operand(const char *code, const char *p)
{
    unsigned char c = (unsigned char)*p;
    char before = p > code ? p[-1] : 0;
    return isalnum(c) || c == '_' || c == '.' || c == ' ' || c == '\t' || c == '(' || c == ')' ||
           c == '[' || c == ']' || (c == '-' && p[1] == '>') ||
           (c == '>' && (before == '-' || before == '>' || p[1] == '>'));
}

/* The text of one side of the two-character comparison operator at op. */
static void side(const char *code, const char *op, bool left, char *out, size_t n)
{
    const char *b = op, *e = op;
    if (left)
        while (b > code && in_operand(code, b - 1))
            b--;
    else
        for (b = e = op + 2; *e && in_operand(code, e);)
            e++;
    size_t len = (size_t)(e - b) < n - 1 ? (size_t)(e - b) : n - 1;
    memcpy(out, b, len);
    out[len] = 0;
}

/* An operand that is an opcode: it names one, or shifts a word right by 24 (Opcode [31:24]). */
static bool is_opcode(const char *s)
{
    const char *sh = strstr(s, ">>");
    if (sh) {
        sh += 2;
        while (*sh == ' ')
            sh++;
    }
    return strstr(s, "opcode") ||
           (sh && strncmp(sh, "24", 2) == 0 && !isdigit((unsigned char)sh[2]));
}

static bool hex_literal(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '(')
        s++;
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Reports each finding with cr_expect; returns how many there were. */
static unsigned check_file(const char *path, bool skip_tt_bits)
{
    char *code = read_code(path);
    cr_assert(code, "cannot read %s", path);
    unsigned found = 0;
    if (!skip_tt_bits)
        for (const char *p = code; (p = strstr(p, "tt_bits(")); p += 8) {
            if (p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
                continue; /* another identifier ending in tt_bits */
            if (literal_position(p + 8)) {
                cr_expect_fail("%s:%u: tt_bits with a literal bit position: use the field's "
                               "accessor TT_GET_<form>_<Field> (units/tensix_isa.h)",
                               path, line_of(code, p));
                found++;
            }
        }
    for (const char *p = code; *p; p++) {
        if (!((p[0] == '=' || p[0] == '!') && p[1] == '=') || (p > code && strchr("=!<>", p[-1])))
            continue; /* not == or != (<=, >=, ...) */
        char l[160], r[160];
        side(code, p, true, l, sizeof l);
        side(code, p, false, r, sizeof r);
        if ((is_opcode(l) && hex_literal(r)) || (is_opcode(r) && hex_literal(l))) {
            cr_expect_fail("%s:%u: opcode compared with a literal: use TT_OPC_<form> "
                           "(units/tensix_isa.h)", path, line_of(code, p));
            found++;
        }
        p++;
    }
    for (const char *p = code; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *b = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t n = (size_t)(p - b);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), b);
        if (!strstr(name, "OPC_") && strncmp(name, "OP_", 3) != 0)
            continue;
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '=' && q[1] != '=')
            q++;
        if (hex_literal(q)) {
            cr_expect_fail("%s:%u: local opcode constant %s: use TT_OPC_<form> "
                           "(units/tensix_isa.h)", path, line_of(code, b), name);
            found++;
        }
    }
    free(code);
    return found;
}

Test(fields, no_hand_written_fields)
{
    unsigned files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        DIR *dir = opendir(dirs[d]);
        cr_assert(dir, "cannot open %s/ (run the tests from the repository root)", dirs[d]);
        for (struct dirent *e; (e = readdir(dir));) {
            size_t n = strlen(e->d_name);
            if (n < 3 || e->d_name[n - 2] != '.' || !strchr("ch", e->d_name[n - 1]))
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            check_file(path, strcmp(path, "units/tensix_isa.h") == 0);
            files++;
        }
        closedir(dir);
    }
    cr_expect_gt(files, 50, "only %u source files found", files);
}

/* The generated accessors read what the table says: every TT_GET_<form>_<Field> against
 * tt_field_get of the same field, on words with each bit set alone and a few mixed ones. */
static const struct {
    const char *form, *field;
    uint32_t (*get)(uint32_t);
    unsigned hi, lo;
} getters[] = {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match)
#define TT_FIELD(form, field, hi, lo)                                                             \
    {#form, #field, TT_GET_##form##_##field, TT_HI_##form##_##field, TT_LO_##form##_##field},
#include "../units/tensix.def"
#undef TT_INSN
#undef TT_FIELD
};

Test(fields, accessors_match_the_table)
{
    static const uint32_t mixed[] = {0xFFFFFFFFu, 0xA5A5A5A5u, 0x5A5A5A5Au, 0x12345678u};
    for (size_t k = 0; k < sizeof getters / sizeof getters[0]; k++) {
        const struct tt_form *f = NULL;
        for (unsigned i = 0; i < TT_FORM_COUNT && !f; i++)
            if (strcmp(tt_forms[i].name, getters[k].form) == 0)
                f = &tt_forms[i];
        cr_assert(f, "no form %s", getters[k].form);
        unsigned fi = f->nfields;
        for (unsigned i = 0; i < f->nfields; i++)
            if (strcmp(f->field[i].name, getters[k].field) == 0)
                fi = i;
        cr_assert(fi < f->nfields, "%s has no field %s", f->name, getters[k].field);
        cr_expect(getters[k].hi == f->field[fi].hi && getters[k].lo == f->field[fi].lo,
                  "%s_%s: TT_HI/TT_LO differ from the table", f->name, getters[k].field);
        for (unsigned b = 0; b < 32 + 4; b++) {
            uint32_t w = b < 32 ? 1u << b : mixed[b - 32];
            cr_expect_eq(getters[k].get(w), tt_field_get(f, fi, w), "TT_GET_%s_%s(0x%08X)",
                         f->name, getters[k].field, w);
        }
    }
}

/* TT_OPC_<X>_BH stands for both architectures' forms of X (units/tensix_isa.h): the pairs share
 * their opcode. */
Test(fields, arch_pairs_share_opcodes)
{
    for (unsigned i = 0; i < TT_FORM_COUNT; i++) {
        const char *name = tt_forms[i].name;
        size_t n = strlen(name);
        if (n < 4 || strcmp(name + n - 3, "_BH") != 0)
            continue;
        for (unsigned j = 0; j < TT_FORM_COUNT; j++)
            if (strncmp(tt_forms[j].name, name, n - 3) == 0 &&
                strcmp(tt_forms[j].name + n - 3, "_WH") == 0 && tt_forms[j].name[n] == 0)
                cr_expect_eq(tt_forms[i].opcode, tt_forms[j].opcode, "%s and %s", name,
                             tt_forms[j].name);
    }
}
