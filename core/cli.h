/* Command-line parsing from one option table per command: getopt_long does the parsing
 * (--opt=value and --opt value, -q, unique prefixes, operands anywhere, "--"), and the same
 * table prints the help text and suggests the nearest option for a misspelt one. */
#ifndef TENSIM_CORE_CLI_H
#define TENSIM_CORE_CLI_H

#include <getopt.h>
#include <stdio.h>

struct cli_opt {
    int id;           /* what cli_next returns for it: an enum value of the command */
    const char *name; /* long name without the dashes */
    char short_name;  /* 0 if none */
    const char *arg;  /* the argument's name in the help text; NULL if it takes none */
    const char *help; /* one or more lines, '\n' between them */
};

struct cli_cmd {
    const char *name;     /* "run" */
    const char *operands; /* "[FILE]", shown after the options in the usage line */
    const char *summary;  /* one line */
    const char *epilogue; /* printed after the options, may be NULL */
    const struct cli_opt *opts;
    unsigned nopts;
};

#define CLI_MAX_OPTS 48
#define CLI_END (-1)     /* no more options: operands are argv[p->next..argc) */
#define CLI_ERROR (-2)   /* a usage error was printed */

struct cli_parser {
    const struct cli_cmd *cmd;
    int argc;
    char **argv;
    int next; /* after CLI_END: index of the first operand */
    struct option longopts[CLI_MAX_OPTS + 1];
    char shortopts[2 + 2 * CLI_MAX_OPTS];
};

/* Start parsing argv[1..argc) (argv[0] is the command name). */
void cli_begin(struct cli_parser *p, const struct cli_cmd *cmd, int argc, char **argv);
/* The next option's id with *arg set to its argument (or NULL), CLI_END or CLI_ERROR. */
int cli_next(struct cli_parser *p, char **arg);

/* Print "tensim: usage: <message>" and a pointer to the help to stderr; returns the usage exit
 * code. `cmd` may be NULL (the top-level command). */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The command's help text. */
void cli_help(const struct cli_cmd *cmd, FILE *f);
/* The candidate nearest to `word` by edit distance, or NULL if none is close enough to be a
 * plausible misspelling. */
const char *cli_nearest(const char *word, const char *const *candidates, unsigned n);

/* Strict unsigned numbers: decimal digits, or 0x and hexadecimal digits; no sign, no spaces, no
 * suffix, no overflow. Returns 0 or -1. */
int cli_parse_u64(const char *s, unsigned long long *v);

#endif
