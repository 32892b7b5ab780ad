/* The differential test of the matrix unit, unpackers, packer and vector unit: a matrix of
 * cases, each one kernel run (test/diff/kernel.c) over seeded operand tiles (or a list of SFPU
 * words, test/diff/sfpu.c), whose packed Dst output is compared bit for bit between tensim and
 * Tenstorrent's functional simulator ttsim, or with a recorded hash of ttsim's output
 * (test/diff/expected.txt), or with exact arithmetic (int data). docs/numerics.md "Checking
 * against ttsim"; docs/sfpu.md "Checking against ttsim". */
#ifndef TENSIM_TEST_DIFF_CASES_H
#define TENSIM_TEST_DIFF_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "params.h"

/* A tile's formats: in L1, and what its unpacker turns it into (Src, or Dst for DT_OP_UNPACK). */
struct dt_fmt {
    uint8_t l1, src;
};

enum dt_data { DATA_RAND, DATA_EDGE, DATA_INT, DATA_COUNT };
enum dt_bspec { B_DATA, B_ZERO, B_ONE }; /* tile B: seeded data, all +0, all 1.0 */
enum dt_prefill { PRE_NONE, PRE_UNPACK, PRE_MOVA2D };

/* dt_case.archs: where a case runs (0: both) */
#define DT_ARCH_BH 1u
#define DT_ARCH_WH 2u

struct dt_case {
    enum dt_op op;
    struct dt_fmt a, b;
    enum dt_bspec bspec;
    uint8_t dst;     /* DT_FP32, DT_BF16 or DT_FP16 */
    uint8_t phases;  /* 1..4 */
    uint8_t flags;   /* DT_ADD_DST, DT_BCAST_ROW, DT_BCAST_COL0 */
    enum dt_prefill prefill;
    uint8_t rt, ct;  /* tiles (0: 1): MATMUL rt x ct, TILIZE and untilize blocks 1 x ct */
    uint8_t kt;      /* MATMUL inner dimension in tiles (0: 1) */
    uint8_t pack;    /* enum dt_pack */
    uint8_t archs;   /* DT_ARCH_BH, DT_ARCH_WH; 0: both */
    uint16_t sfpu;   /* DT_OP_SFPU: the row of test/diff/sfpu.c's table */
};

/* The case matrix; dt_case_on says whether a case runs on an architecture. */
unsigned dt_matrix(const struct dt_case **cases);
bool dt_case_on(const struct dt_case *c, bool wormhole);
/* How many cases run on an architecture: the vector unit's (op DT_OP_SFPU), or the others. */
unsigned dt_cases_on(bool wormhole, bool sfpu);
/* "mvmul/bf16/bf16/fp32/p4/pre-unpack": op, A, B, Dst, then what is not the default. */
void dt_case_name(const struct dt_case *c, char *buf, size_t n);
/* The case of that name, or NULL. */
const struct dt_case *dt_case_by_name(const char *name);
const char *dt_data_name(enum dt_data d);
int dt_data_by_name(const char *s); /* -1 if unknown */

/* One run's inputs: the L1 images and where they go. */
#define DT_MAX_LOADS 5
#define DT_MAX_OUT (DT_MAX_TILES * 1024 * 4) /* bytes of output: four FP32 tiles */
struct dt_load {
    uint32_t addr, len;
    uint8_t bytes[16 + DT_MAX_TILES * 4096];
};
struct dt_inputs {
    struct dt_load load[DT_MAX_LOADS];
    unsigned nload;
    uint32_t out_len;   /* bytes of packed Dst at DT_OUT */
    unsigned out_bytes; /* 4 (FP32 Dst) or 2 per datum */
    bool has_exact;     /* int data: `exact` holds the exact result (Dst format bits) */
    uint32_t exact[DT_MAX_TILES * 1024];
};
/* The seeded stream every input comes from (splitmix64), and n words into a load at addr. */
struct dt_rng {
    uint64_t s;
};
uint64_t dt_next(struct dt_rng *r);
uint32_t dt_below(struct dt_rng *r, uint32_t n); /* 0..n-1 */
void dt_put_words(struct dt_load *l, uint32_t addr, const uint32_t *w, unsigned n);

/* Builds the inputs of case c with data d and seed; `ecall` goes into the parameter block. */
void dt_inputs(const struct dt_case *c, enum dt_data d, uint32_t seed, bool ecall,
               struct dt_inputs *in);

/* A run's result: the packed Dst rows, or why there are none. */
struct dt_result {
    bool ok;
    char why[400];
    uint8_t out[DT_MAX_OUT];
};

/* Runs the inputs on tensim, in this process, with the kernel ELF for the architecture. */
void dt_run_tensim(bool wormhole, const char *elf, const struct dt_inputs *in, struct dt_result *r);
/* The same, also writing the run's statistics (JSON) and timeline trace to the files that are not
 * NULL (test/test_golden.c). */
void dt_run_tensim_report(bool wormhole, const char *elf, const struct dt_inputs *in,
                          struct dt_result *r, FILE *stats, FILE *trace);

/* The vector-unit cases (test/diff/sfpu.c): the rows of its table, each a DT_OP_SFPU case named
 * "sfpu/" + its name, with the Dst format it packs and the architectures it runs on. */
unsigned dt_sfpu_rows(void);
const char *dt_sfpu_name(unsigned row);
unsigned dt_sfpu_archs(unsigned row);
uint8_t dt_sfpu_dst(unsigned row);
void dt_sfpu_inputs(unsigned row, enum dt_data d, uint32_t seed, bool ecall, struct dt_inputs *in);

/* 64-bit FNV-1a of the output (what expected.txt records). */
uint64_t dt_hash(const uint8_t *b, size_t n);

/* Compares two outputs datum by datum; returns the number that differ and prints up to
 * `examples` of them (row, column, both values) to `f` if it is not NULL, labelled la/lb. */
unsigned dt_compare(const struct dt_inputs *in, const uint8_t *a, const char *la, const uint8_t *b,
                    const char *lb, unsigned examples, void *f);

/* Full tiles (test/diff/tiles.txt): a few runs recorded datum by datum, so that a failing check
 * shows which datums moved. A record is a header line "tile ARCH CASE DATA SEED BYTES" and 64
 * lines of 16 hexadecimal datums (Dst rows 0..63). */
struct dt_tile_rec {
    char arch[8], name[160], data[16];
    unsigned seed, bytes;
    uint32_t datum[64 * 16];
};
/* The runs recorded in full: one or two per operation. */
extern const char *const dt_tile_runs[][3]; /* {case, data, seed}, ended by NULL */
void dt_tile_write(void *f, const char *arch, const char *name, const char *data, unsigned seed,
                   const struct dt_inputs *in, const uint8_t *out);
/* The next record from f: 1, 0 at the end, -1 if the file is not made of records. */
int dt_tile_read(void *f, struct dt_tile_rec *r);
/* The record's datums as output bytes (for dt_compare). */
void dt_tile_bytes(const struct dt_tile_rec *r, uint8_t *out);

#endif
