/* Categorised run errors and the exit status of the tensim command (docs/user-guide.md "Exit
 * status"; `tensim help exit-status` prints the same table from these rows).
 *
 * Nothing in tensim aborts the host process on bad input: the first error raised in a tile is
 * recorded in the tile's `struct sim_error` and every agent stops at the end of its current step.
 * Later errors are ignored, so the report always names the first cause.
 *
 * Exit codes 100 and up are tensim's own; a guest program's exit code is passed through only in
 * 1..GUEST_EXIT_MAX, so the two can never be confused (sim_exit_status). */
#ifndef TENSIM_CORE_ERROR_H
#define TENSIM_CORE_ERROR_H

#include <stdint.h>

/* X(name, exit code, category text used in messages, what it means) */
#define TENSIM_ERROR_KINDS(X)                                                                     \
    X(ERR_NONE, 0, "ok", "the run ended and every core that exited returned 0")                  \
    X(ERR_USAGE, 100, "usage", "bad command line")                                                \
    X(ERR_BAD_FILE, 101, "bad program file",                                                      \
      "a program or --load file is unreadable, truncated, malformed, for another machine, or "    \
      "does not fit where it must go")                                                            \
    X(ERR_UNDEF_INSN, 102, "undefined instruction",                                               \
      "a word that is no RV32IM/Zicsr/Zba/Zbb/Zaamo or Tensix instruction, or an unknown CSR")   \
    X(ERR_BAD_ACCESS, 103, "bad access",                                                          \
      "a load, store or fetch outside every memory region the core can see")                     \
    X(ERR_UNDEF_BEHAVIOUR, 104, "undefined behaviour",                                            \
      "something the ISA documents as undefined")                                                 \
    X(ERR_UNIMPLEMENTED, 105, "unimplemented", "hardware tensim does not model yet")              \
    X(ERR_DEADLOCK, 106, "deadlock", "no core or unit can ever advance")                          \
    X(ERR_CYCLE_LIMIT, 107, "cycle limit", "--max-cycles reached")                                \
    X(ERR_BREAKPOINT, 108, "breakpoint", "a core executed ebreak")                                \
    X(ERR_HOST, 109, "host error", "out of memory, or an output file could not be written")      \
    X(ERR_INTERRUPTED, 110, "interrupted", "SIGINT (Ctrl-C) or SIGTERM ended the run")        \
    X(ERR_BAD_RUN, 111, "bad run description",                                                    \
      "the --run file is unreadable, not JSON, or asks for something tensim cannot do")           \
    X(ERR_REGION, 112, "bad region",                                                              \
      "tensim_region_end of a region that is not open, or tensim_region_begin of one that is") \
    X(ERR_LINT, 113, "lint findings",                                                             \
      "--lint found software rules broken and nothing else failed (the report lists them)")

enum err_kind {
#define X(name, code, text, desc) name,
    TENSIM_ERROR_KINDS(X)
#undef X
    ERR_KIND_COUNT
};

/* Guest exit codes 1..GUEST_EXIT_MAX become tensim's exit status unchanged; any other non-zero
 * guest code (negative, 99 and above, a multiple of 256) becomes GUEST_EXIT_OTHER. */
#define GUEST_EXIT_MAX 98
#define GUEST_EXIT_OTHER 99

#define SIM_ERROR_TEXT_MAX 512
#define SIM_ERROR_DETAIL_MAX 4096

struct sim_error {
    enum err_kind kind;
    int core;       /* core index, or -1 when not tied to a core */
    uint32_t pc;
    uint64_t cycle;
    int agent;      /* the scheduler's agent acting when it was raised (core/tile.c), -1 the host */
    char where[32]; /* "TRISC0", "thread T1", "loader", ... */
    char text[SIM_ERROR_TEXT_MAX];
    char detail[SIM_ERROR_DETAIL_MAX]; /* multi-line context: registers, waiting instructions */
};

const char *err_kind_text(enum err_kind k);
const char *err_kind_description(enum err_kind k);
int err_kind_exit_code(enum err_kind k);
/* The exit status for a guest's exit code g != 0 (see GUEST_EXIT_MAX). */
int guest_exit_status(int g);

#endif
