/* Helpers shared by the Criterion tests: small tiles, programs assembled in C with rv_encode,
 * and running the tensim binary to check messages and exit codes. */
#ifndef TENSIM_TEST_HARNESS_H
#define TENSIM_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../core/tile.h"
#include "../riscv/decode.h"

/* A program under construction: words written to L1 from `base`. */
struct prog {
    struct tile *t;
    uint32_t base, pc;
};

struct tile *test_tile(enum arch_id arch);
struct prog prog_at(struct tile *t, uint32_t base);
void emit(struct prog *p, uint32_t word);
#define E(p, op, rd, rs1, rs2, imm) emit(p, rv_encode(RV_##op, rd, rs1, rs2, imm))
/* li rd, value (lui + addi as needed) */
void emit_li(struct prog *p, unsigned rd, uint32_t value);
/* exit(a0) via ecall 93 */
void emit_exit(struct prog *p);
/* sw of `val` to `addr` (through x5 and x6): a device register write as firmware makes it */
void emit_store(struct prog *p, uint32_t addr, uint32_t val);
/* Start TRISC `core` at p->base and run to the end; returns the error kind. */
enum err_kind run_core(struct prog *p, int core, uint64_t max_cycles);
/* Cycles the core took (active + stalls). */
uint64_t core_cycles(const struct rv_core *c);

/* TRISC `core` (0..2) gets a program at 0x6000 + 0x4000 * core that pushes words[0..n) as
 * .ttinsn instructions into its Tensix thread and exits; the core is started. */
void tensix_kernel(struct tile *t, unsigned core, const uint32_t *words, unsigned n);
/* tensix_kernel on TRISC0, then run the tile (up to max_cycles). */
enum err_kind run_tensix(struct tile *t, const uint32_t *words, unsigned n, uint64_t max_cycles);

/* A record of the instructions passing the Wait Gates (tile->on_issue). */
struct issue_rec {
    unsigned th;
    uint64_t cycle;
    uint32_t word;
};
struct issue_log {
    struct issue_rec e[512];
    unsigned n;
};
void issue_log_attach(struct tile *t, struct issue_log *log);
/* Cycle at which thread th issued `word` for the nth time (0-based); fails the test if never. */
uint64_t issue_log_cycle(const struct issue_log *log, unsigned th, uint32_t word, unsigned nth);

/* Run the tensim binary with `args`; returns its exit status, output (stdout+stderr) in out. */
int run_tensim(const char *args, char *out, size_t n);
/* The same with the arguments formatted printf-style. */
int run_tensimf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Starts the tensim binary with `args` (stdout and stderr into the pipe whose read end is put in
 * *out); returns its pid. */
pid_t tensim_spawn(const char *args, int *out);
/* The same, sending signal `sig` once the output contains `ready`. Returns the exit status, or
 * 1000 + the signal number if a signal ended tensim. */
int run_tensim_signal(const char *args, const char *ready, int sig, char *out, size_t n);
/* The whole file, NUL-terminated (malloc'd; the caller frees it); *len its size if len is not
 * NULL. A file that cannot be read fails the test. */
char *read_whole_file(const char *path, size_t *len);
/* The examples of riscv/sdk/examples (the Makefile's kernel list) and test/kernels/tt_push.c:
 * name and the `tensim run` arguments that run them. */
extern const char *const examples[][2];
extern const unsigned example_count;

/* The SFPU example kernels' inputs (riscv/sdk/examples/sfpu): three tiles of a ramp from 0.25 in
 * steps of 1/512 after a 16-byte header, for --load at 0x30000, and the tile count (3), for
 * --load at 0x3F000. */
void sfpu_example_inputs(const char *in_path, const char *param_path);
/* How a core ended, for tests that compare two runs of one program (lockstep and run-ahead):
 * state, wake (running cores only), halt cycle, exit code, pc, registers, statistics. */
struct core_end {
    int state;
    uint64_t wake, halt;
    int exit;
    uint32_t pc, x[32];
    struct core_stats st;
};
void core_end_of(struct core_end *e, const struct tile *t, int k);

/* A draw in [0, n) from a small deterministic stream (an LCG in *state): tests that run the same
 * random case twice, once per path they compare, seed it alike each time. */
static inline uint32_t test_draw(uint32_t *state, uint32_t n)
{
    *state = *state * 1664525u + 1013904223u;
    return (*state >> 8) % n;
}
/* Path of a built guest program or kernel: "build/guest/NAME.elf". */
const char *guest(const char *name);

#endif
