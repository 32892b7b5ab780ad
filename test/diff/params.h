/* The differential test's parameter block: what the host (test/diff/cases.c) writes into L1 at
 * DT_PARAMS before a run and the kernel (test/diff/kernel.c) reads. Shared by both sides, so
 * plain C with fixed-width little-endian words only. docs/numerics.md "Checking against ttsim". */
#ifndef TENSIM_TEST_DIFF_PARAMS_H
#define TENSIM_TEST_DIFF_PARAMS_H

#include <stdint.h>

/* L1 map of a case (both simulators load the same bytes at the same places) */
#define DT_MAILBOX 0x1F000u    /* DONE word, then the kernel's return value at +16 */
#define DT_DONE 0xD0E5D0E5u
#define DT_STATUS 0x1F020u     /* the kernel's progress: stages started (for failure reports) */
#define DT_PARAMS 0x1F100u     /* struct dt_params */
#define DT_TILE_A 0x30000u     /* operand tiles: 16-byte header, then the datums */
#define DT_TILE_B 0x32000u
#define DT_TILE_C 0x34000u     /* the tile a prefill stage writes into Dst */
#define DT_OUT 0x40000u        /* Dst rows packed in Dst's own format (up to DT_MAX_TILES tiles) */
#define DT_BLK_A 0x48000u      /* multi-tile operands: 16-byte header, then tile after tile */
#define DT_BLK_B 0x50000u
#define DT_SFPU_PROG 0x20000u  /* DT_OP_SFPU: a word count, then the Tensix words to push */
#define DT_SFPU_MAX_WORDS 1000u
#define DT_MAX_TILES 4         /* Dst tiles a case may fill and pack (64 rows each) */
#define DT_MAGIC 0x46494454u   /* "TDIF" */
#define DT_MAX_STAGES 2

/* Tensix data format field codes (WH:Unpackers/FormatConversion.md) */
enum { DT_FP32 = 0, DT_FP16 = 1, DT_TF32 = 4, DT_BF16 = 5, DT_BFP8 = 6, DT_BFP4 = 7, DT_INT32 = 8,
       DT_INT16 = 9, DT_FP8 = 10, DT_INT8 = 14, DT_BFP2 = 15 };

/* dt_stage.op: what one stage asks of the matrix unit (rows are SrcA / SrcB / Dst) */
enum dt_op {
    DT_OP_NONE,
    DT_OP_ELWADD, /* 8 x ELWADD of 8 rows: Dst[0..63] = A + B (AddDst: +=) */
    DT_OP_ELWSUB, /* 8 x ELWSUB */
    DT_OP_ELWMUL, /* 8 x ELWMUL per fidelity phase: Dst += A * B */
    DT_OP_MVMUL,  /* 16 x MVMUL per phase: Dst (32x32, four 16x16 faces) += B @ A */
    DT_OP_GAPOOL, /* 16 x GAPOOL per phase: Dst[4g..4g+3] += B[8(g%8)..+3] @ A[16(g/4)..+15] */
    DT_OP_GMPOOL, /* 4 x GMPOOL: Dst[4g] = max(Dst[4g], column max of A[16g..16g+15]), B = 1.0 */
    DT_OP_MOVA2D, /* 8 x MOVA2D of 8 rows: Dst[0..63] = A (unpacker 0 only) */
    DT_OP_MOVB2D, /* 16 x MOVB2D of 4 rows: Dst[0..63] = B (unpacker 1 only) */
    DT_OP_UNPACK, /* unpacker 0 writes tile A straight into Dst (FP32 Dst only) */
    DT_OP_TILIZE, /* tt-llk tilize: tile t of a row-major 32 x 32ct matrix A -> Dst tile t */
    DT_OP_MATMUL, /* tt-llk matmul: Dst tile (i, j) = sum over k of B_ik @ A_kj (B: SrcB) */
    DT_OP_SFPU,   /* the vector unit: push the program at a_addr (test/diff/sfpu.c) */
    DT_OP_COUNT
};

/* dt_stage.flags */
#define DT_ADD_DST (1u << 0)    /* ELWADD/ELWSUB: AddDst */
#define DT_BCAST_COL0 (1u << 1) /* ELW*: SrcB column 0 broadcast */
#define DT_BCAST_ROW (1u << 2)  /* ELW*: SrcB row broadcast (SrcB row counter stays 0) */
#define DT_ZERO_DST (1u << 3)   /* ZEROACC (all of Dst) before the stage's math */
#define DT_SFPU_FP32 (1u << 4)  /* DT_OP_SFPU: ALU_ACC_CTRL_SFPU_Fp32_enabled */
#define DT_SFPU_SEED (1u << 5)  /* DT_OP_SFPU: write prng_seed to PRNG_SEED_Seed_Val first */

/* dt_params.pack_mode: how Dst is packed to DT_OUT */
enum dt_pack {
    DT_PACK_ROWS,    /* pack_rows Dst rows from row 0, four at a time */
    DT_PACK_TILES,   /* tt-llk pack: `tiles` tiles, face by face, each at its own L1 address */
    DT_PACK_TILIZE,  /* tt-llk Blackhole pack with `tilize`: even Dst rows, then odd ones */
    DT_PACK_UNTILIZE /* tt-llk Blackhole pack untilize: `tiles` tiles as one 32 x 32n matrix */
};

struct dt_stage {
    uint32_t op;
    uint32_t a_addr, a_in, a_out; /* tile A -> unpacker 0: L1 address, L1 and Src formats */
    uint32_t b_addr, b_in, b_out; /* tile B -> unpacker 1 */
    uint32_t phases;              /* fidelity phases 1..4 (ELWMUL, MVMUL, GAPOOL, MATMUL) */
    uint32_t flags;               /* DT_ADD_DST ... */
    uint32_t rt, ct;              /* tiles: MATMUL rt x ct; TILIZE, MOVA2D, UNPACK, ELWADD ct
                                   * (consecutive tiles into Dst tiles 0..ct-1); 0 means 1 */
    uint32_t kt;                  /* MATMUL inner dimension in tiles (B: rt x kt, A: kt x ct) */
    uint32_t prng_seed;           /* SFPU with DT_SFPU_SEED: the value for PRNG_SEED_Seed_Val;
                                   * b_out there is the SrcB format MOD0_FMT_SRCB resolves by */
    uint32_t reserved[3];
};

struct dt_params {
    uint32_t magic;     /* DT_MAGIC */
    uint32_t nstages;   /* 1..DT_MAX_STAGES */
    uint32_t dst_fp32;  /* 1: FP32 Dst (ALU_ACC_CTRL_Fp32_enabled), packed as FP32 */
    uint32_t dst16;     /* else the 16-bit Dst format: DT_BF16 or DT_FP16 */
    uint32_t pack_rows; /* Dst rows packed to DT_OUT: 4..64, a multiple of 4 */
    uint32_t ecall;     /* 1: end with ecall exit (tensim); 0: spin after DONE (ttsim) */
    uint32_t pack_mode; /* enum dt_pack */
    uint32_t tiles;     /* Dst tiles packed (DT_PACK_TILES, _TILIZE, _UNTILIZE): 1..DT_MAX_TILES */
    uint32_t int8;      /* 1: INT8 math (ALU_ACC_CTRL_INT8_math_enabled), Dst and pack INT32;
                         * dst_fp32 is 1 too (a 32-bit Dst) */
    struct dt_stage st[DT_MAX_STAGES];
};

#endif
