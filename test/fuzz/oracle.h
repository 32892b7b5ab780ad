/* What every run of tensim must satisfy, whatever its input (docs/user-guide.md "Exit status"):
 * used by `make fuzz` on random inputs and by the corpus replay in `make test`. */
#ifndef TENSIM_TEST_ORACLE_H
#define TENSIM_TEST_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

struct run_result {
    int status;             /* exit status when it exited */
    int signal;             /* the signal that ended it, 0 if it exited */
    bool timed_out;         /* killed by the caller after its time limit */
    const char *out, *err;  /* everything it wrote to stdout and stderr */
    const char *stats_path; /* its --stats file to check, or NULL */
    const char *trace_path; /* its --trace file to check, or NULL */
};

/* A case's argument with "@/" expanded to `dir` (the case's folder); malloc'd. Fuzz cases and
 * corpus cases name their files this way (docs/testing.md). */
char *case_arg(const char *arg, const char *dir);

/* NULL when the run behaved as documented; otherwise a short signature of what went wrong
 * ("crash", "hang", "sanitizer", "status", "report", "stats", "trace") with details in why. */
const char *oracle_check(const struct run_result *r, char *why, size_t n);

#endif
