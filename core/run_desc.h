/* A run description: what the host does around a run (docs/run-description.md). A versioned
 * JSON file, parsed with jansson into fixed tables before the run starts; the host's part
 * (core/host.c) then plays it. */
#ifndef TENSIM_CORE_RUN_DESC_H
#define TENSIM_CORE_RUN_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/elf.h"
#include "arch.h"
#include "llk_layout.h"

#define RUN_DESC_VERSION 1
#define RUN_MAX_WRITES 32
#define RUN_MAX_ACTIONS 16
#define RUN_MAX_READS 16
#define RUN_MAX_CONDS 64
#define RUN_MAX_WORDS 4096
#define RUN_MAX_TILES 256    /* a chip's tiles (SIM_MAX_TILES; Blackhole has 140 Tensix tiles) */
#define RUN_MAX_THREADS 64   /* "threads" (SIM_MAX_THREADS) */
#define RUN_DRAM_SIZE (1ull << 32) /* DRAM addresses are checked against one 4 GiB bank */

/* How the cores leave reset: as given (none), or as tt-llk's harness boots them. */
enum boot_mode { BOOT_NONE, BOOT_BRISC, BOOT_TRISC, BOOT_HOST };
const char *boot_mode_name(enum boot_mode b);

/* A condition on L1 words, read by the host between cycles. */
enum run_cond_kind { COND_EQUALS, COND_NOT_EQUALS, COND_ALL, COND_ANY };
struct run_cond {
    enum run_cond_kind kind;
    uint32_t addr, mask, value;  /* COND_EQUALS, COND_NOT_EQUALS: (word & mask) vs value */
    uint16_t first, n;           /* COND_ALL, COND_ANY: children kids[first .. first + n) */
};

/* Words or a file's bytes written into L1 by the host. */
struct run_write {
    uint32_t addr;
    uint32_t first, nwords; /* words[first .. first + nwords), when file is NULL */
    char *file;
};

struct run_read {
    uint32_t addr, len;
    char *file;
};

/* A chip run's Tensix tile: where it is, its programs (each starts at its entry point at cycle
 * 0, as with "boot": "none"), what goes into its L1 first and what is read back after. */
struct run_tile {
    unsigned x, y;                  /* NoC 0 coordinates; the grid is checked by the caller */
    char *program[NUM_CORES];
    struct run_write l1[RUN_MAX_WRITES];
    unsigned nl1;
    struct run_read read[RUN_MAX_READS];
    unsigned nread;
};

/* Bytes of a DRAM tile's bank written before the run, or read back after it. */
struct run_dram_write {
    unsigned x, y;
    uint64_t addr;
    uint32_t first, nwords; /* words[first .. first + nwords), when file is NULL */
    char *file;
};
struct run_dram_read {
    unsigned x, y;
    uint64_t addr, len;
    char *file;
};

/* "chip": a run of several tiles on one chip (docs/run-description.md "Chips"). */
struct run_chip {
    struct run_tile *tile; /* ntiles of them, in the description's order (the run's order) */
    unsigned ntiles;
    struct run_dram_write dram[RUN_MAX_WRITES];
    unsigned ndram;
    struct run_dram_read dram_read[RUN_MAX_READS];
    unsigned ndram_read;
};

struct run_desc {
    char *path; /* the file itself, for messages */
    const struct arch *arch;        /* NULL: not given */
    char *program[NUM_CORES];       /* resolved against the file's folder; NULL: none */
    enum elf_loader loader;
    enum boot_mode boot;
    const struct llk_layout *layout; /* NULL: not given */
    struct run_write l1[RUN_MAX_WRITES]; /* before the programs are loaded */
    unsigned nl1;
    struct run_action { int cond; struct run_write write; } action[RUN_MAX_ACTIONS];
    unsigned naction;
    int end;                /* condition index; -1: the run ends as without a description */
    bool end_kernel_complete;
    struct run_read read[RUN_MAX_READS];
    unsigned nread;
    uint64_t max_cycles;    /* 0: none */
    uint32_t poll_cycles;   /* the host looks every this many cycles */
    char *zones;            /* profiler zones as CSV, or NULL */
    bool unpredictable_warn; /* "unpredictable": "warn" (--unpredictable) */
    unsigned threads;       /* host worker threads for a chip run; 0: not given */
    struct run_chip *chip;  /* NULL: a run of one tile (the keys above); else only this */
    struct run_cond cond[RUN_MAX_CONDS];
    uint16_t kids[RUN_MAX_CONDS];
    unsigned ncond, nkids;
    uint32_t words[RUN_MAX_WORDS];
    unsigned nwords;
};

/* Parse `path`; `arch` is the command line's architecture (NULL if it gave none), against which
 * addresses are checked when the file names none (a different one is the caller's error to
 * report). Returns 0, or -1 with a message (no "tensim:" prefix) in err. */
int run_desc_load(struct run_desc *rd, const char *path, const struct arch *arch, char *err,
                  unsigned errlen);
void run_desc_free(struct run_desc *rd);
/* Does condition i hold for this L1? */
bool run_cond_holds(const struct run_desc *rd, int i, const uint8_t *l1);

#endif
