/* Categorised run errors (docs/user-guide.md lists the exit codes).
 *
 * Nothing in tensim aborts the host process on bad input: the first error raised in a tile is
 * recorded in the tile's `struct sim_error` and every agent stops at the end of its current step.
 * Later errors are ignored, so the report always names the first cause. */
#ifndef TENSIM_CORE_ERROR_H
#define TENSIM_CORE_ERROR_H

#include <stdint.h>

/* X(name, exit code, text used in the message) */
#define TENSIM_ERROR_KINDS(X)                                  \
    X(ERR_NONE, 0, "ok")                                       \
    X(ERR_USAGE, 100, "usage")                                 \
    X(ERR_BAD_FILE, 101, "bad program file")                   \
    X(ERR_UNDEF_INSN, 102, "undefined instruction")            \
    X(ERR_BAD_ACCESS, 103, "bad access")                       \
    X(ERR_UNDEF_BEHAVIOUR, 104, "undefined behaviour")         \
    X(ERR_UNIMPLEMENTED, 105, "unimplemented")                 \
    X(ERR_DEADLOCK, 106, "deadlock")                           \
    X(ERR_CYCLE_LIMIT, 107, "cycle limit")                     \
    X(ERR_BREAKPOINT, 108, "breakpoint")                       \
    X(ERR_HOST, 109, "host error")

enum err_kind {
#define X(name, code, text) name,
    TENSIM_ERROR_KINDS(X)
#undef X
    ERR_KIND_COUNT
};

#define SIM_ERROR_TEXT_MAX 512
#define SIM_ERROR_DETAIL_MAX 4096

struct sim_error {
    enum err_kind kind;
    int core;       /* core index, or -1 when not tied to a core */
    uint32_t pc;
    uint64_t cycle;
    char where[32]; /* "TRISC0", "thread T1", "loader", ... */
    char text[SIM_ERROR_TEXT_MAX];
    char detail[SIM_ERROR_DETAIL_MAX]; /* multi-line context: registers, waiting instructions */
};

const char *err_kind_text(enum err_kind k);
int err_kind_exit_code(enum err_kind k);

#endif
