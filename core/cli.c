#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

void cli_begin(struct cli_parser *p, const struct cli_cmd *cmd, int argc, char **argv)
{
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    p->next = argc;
    char *s = p->shortopts;
    *s++ = ':'; /* a missing argument returns ':' instead of '?' */
    unsigned n = cmd->nopts < CLI_MAX_OPTS ? cmd->nopts : CLI_MAX_OPTS;
    for (unsigned i = 0; i < n; i++) {
        const struct cli_opt *o = &cmd->opts[i];
        p->longopts[i] = (struct option){o->name, o->arg ? required_argument : no_argument, 0, 256 + (int)i};
        if (o->short_name) {
            *s++ = o->short_name;
            if (o->arg)
                *s++ = ':';
        }
    }
    *s = 0;
    p->longopts[n] = (struct option){0, 0, 0, 0};
    optind = 0; /* glibc: start afresh, permutation state included */
    opterr = 0; /* our messages, not getopt's */
}

static const char *tensim_cmd(const struct cli_cmd *cmd)
{
    return cmd && cmd->name ? cmd->name : 0;
}

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tensim: usage: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    const char *name = tensim_cmd(cmd);
    fprintf(stderr, "\nTry 'tensim %s%s--help'.\n", name ? name : "", name ? " " : "");
    return err_kind_exit_code(ERR_USAGE);
}

/* Optimal-string-alignment distance (a swap of two neighbours costs 1), capped at 9. */
static unsigned edit_distance(const char *a, const char *b)
{
    enum { MAXLEN = 40 };
    size_t n = strlen(a), m = strlen(b);
    if (n >= MAXLEN || m >= MAXLEN)
        return 9;
    unsigned d[MAXLEN + 1][MAXLEN + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m] < 9 ? d[n][m] : 9;
}

const char *cli_nearest(const char *word, const char *const *cand, unsigned n)
{
    size_t len = strlen(word);
    unsigned limit = len >= 5 ? 2 : 1, best = limit + 1;
    const char *pick = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned d = edit_distance(word, cand[i]);
        if (d < best) {
            best = d;
            pick = cand[i];
        }
    }
    return pick;
}

static const char *nearest_option(const struct cli_cmd *cmd, const char *word)
{
    const char *names[CLI_MAX_OPTS];
    unsigned n = 0;
    for (unsigned i = 0; i < cmd->nopts && n < CLI_MAX_OPTS; i++)
        names[n++] = cmd->opts[i].name;
    return cli_nearest(word, names, n);
}

/* Print a usage error inside the parser: the caller sees CLI_ERROR. */
#define fail(...) (cli_usage_error(__VA_ARGS__), CLI_ERROR)

/* An unknown, ambiguous or value-less long option `arg` ("--name" or "--name=value"). */
static int bad_long_option(const struct cli_cmd *cmd, const char *arg)
{
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), name);
    const struct cli_opt *exact = 0, *prefix[CLI_MAX_OPTS];
    unsigned nprefix = 0;
    for (unsigned i = 0; i < cmd->nopts && i < CLI_MAX_OPTS; i++) {
        const struct cli_opt *o = &cmd->opts[i];
        if (!strncmp(o->name, name, len)) {
            prefix[nprefix++] = o;
            if (strlen(o->name) == len)
                exact = o;
        }
    }
    if (exact || nprefix == 1)
        return fail(cmd, "--%s takes no value", (exact ? exact : prefix[0])->name);
    if (nprefix > 1) {
        char list[512] = "";
        for (unsigned i = 0; i < nprefix; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s--%s", i ? ", " : "", prefix[i]->name);
        return fail(cmd, "--%s is ambiguous: %s", word, list);
    }
    const char *near = nearest_option(cmd, word);
    if (near)
        return fail(cmd, "unknown option --%s (did you mean --%s?)", word, near);
    return fail(cmd, "unknown option --%s", word);
}

static const struct cli_opt *short_opt(const struct cli_cmd *cmd, int c)
{
    for (unsigned i = 0; i < cmd->nopts; i++)
        if (cmd->opts[i].short_name && cmd->opts[i].short_name == c)
            return &cmd->opts[i];
    return 0;
}

int cli_next(struct cli_parser *p, char **arg)
{
    const struct cli_cmd *cmd = p->cmd;
    int c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, 0);
    *arg = optarg;
    if (c == -1) {
        p->next = optind;
        return CLI_END;
    }
    if (c >= 256)
        return cmd->opts[c - 256].id;
    const char *elem = optind - 1 < p->argc ? p->argv[optind - 1] : "";
    if (c == ':') {
        if (optopt && optopt < 256)
            return fail(cmd, "-%c needs a value", optopt);
        const struct cli_opt *o = optopt >= 256 ? &cmd->opts[optopt - 256] : 0;
        if (o)
            return fail(cmd, "--%s needs a value (--%s=%s)", o->name, o->name, o->arg);
        return fail(cmd, "%s needs a value", elem);
    }
    if (c == '?') {
        if (!optopt || optopt >= 256)
            return bad_long_option(cmd, elem);
        /* An unknown letter: the element holding it is still argv[optind] when more letters
         * follow it, else argv[optind - 1]. "-max-cycles" was probably meant as a long option. */
        const char *e = optind < p->argc && p->argv[optind][0] == '-' && p->argv[optind][1] == optopt
                            ? p->argv[optind] : elem;
        const char *near = e[0] == '-' && e[1] && e[1] != '-' && e[2] ? nearest_option(cmd, e + 1) : 0;
        if (near)
            return fail(cmd, "unknown option %s (did you mean --%s?)", e, near);
        return fail(cmd, "unknown option -%c", optopt);
    }
    const struct cli_opt *o = short_opt(cmd, c);
    if (o)
        return o->id;
    return fail(cmd, "unknown option -%c", c);
}

void cli_help(const struct cli_cmd *cmd, FILE *f)
{
    fprintf(f, "Usage: tensim %s [OPTION]...%s%s\n%s\n\n", cmd->name, cmd->operands ? " " : "",
            cmd->operands ? cmd->operands : "", cmd->summary);
    enum { COL = 30 };
    for (unsigned i = 0; i < cmd->nopts; i++) {
        const struct cli_opt *o = &cmd->opts[i];
        char left[64];
        int n = snprintf(left, sizeof left, "  %c%c%s--%s%s%s", o->short_name ? '-' : ' ',
                         o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
                         o->arg ? "=" : "", o->arg ? o->arg : "");
        const char *h = o->help;
        fprintf(f, "%s", left);
        if (n >= COL - 1)
            fprintf(f, "\n%*s", COL, "");
        else
            fprintf(f, "%*s", COL - n, "");
        for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
            fprintf(f, "%.*s\n%*s", (int)(nl - h), h, COL, "");
        fprintf(f, "%s\n", h);
    }
    if (cmd->epilogue)
        fprintf(f, "\n%s", cmd->epilogue);
}

int cli_parse_u64(const char *s, unsigned long long *v)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -1;
    unsigned long long x = 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (x > (~0ull - d) / base)
            return -1;
        x = x * base + d;
    }
    *v = x;
    return 0;
}
