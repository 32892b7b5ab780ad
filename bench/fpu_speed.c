/* Simulator speed with the matrix unit busy every cycle, and a check of the calibration figure
 * "571,851 MVMULs in 571,893 cycles" (calibration.md: sustained MVMUL on one Blackhole core with
 * operands resident and Dst blocks in rotation). TRISC1 records eight MVMULs to eight Dst blocks
 * in the replay buffer (recording only: Exec 0) and pushes MOPs that replay them 127 x 127 times
 * each; SrcA/SrcB start owned by the matrix unit with random BF16 (or FP16) data (the datapath's
 * arithmetic, docs/numerics.md). Reports MVMULs, cycles, host time and rates, for BF16 at LoFi,
 * BF16 at HiFi4 and FP16 at HiFi4 (mvmul_loop), and the datapath's row function alone. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "../core/tile.h"
#include "../units/fpu_datapath.h"
#include "bench.h"
#include "tensix_ops.h"

#define MOPS 4
#define OUTER 127


#ifndef BENCH_ON_BASE /* the datapath's interface is newer than the base commit (bench/speed_compare.sh) */
/* BF16 Src cell (Sign[18] Man[17:8] Exp[7:0]) as a datapath operand (fpu_math.c's src_operand) */
static uint32_t bf16_operand(uint32_t cell)
{
    return (cell & 0x40000) | (cell & 0xFF) << 10 | (cell >> 8 & 0x3F8);
}

/* The ceiling: the datapath's work for `n` MVMULs alone: 8 output rows each through
 * dp_rows_dst_for's function (what MVMUL calls) in the LoFi loop's mode (BF16 Dst cells, 16-bit
 * Dst), operands already taken apart, phase 0, without the pipe, the MOP/replay expansion, the
 * Dst hazard checks or the matrix unit's plans and caches. */
static void datapath_alone(const struct tile *t, unsigned n)
{
    static struct dp_cols cols;
    struct dp_lanes rows[8];
    uint32_t op[16][16];
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            op[k][j] = bf16_operand(t->src.bank[0][0].cell[k][j]);
    dp_cols_set(&cols, (const uint32_t(*)[16])op, 0);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t op[16];
        for (unsigned k = 0; k < 16; k++)
            op[k] = bf16_operand(t->src.bank[1][0].cell[i][k]);
        dp_lanes_b(&rows[i], op, 0, 0);
    }
    const struct dp_mode m = {.dst32 = false, .exp8 = true};
    const enum dp_simd simd = dp_simd_best();
    static uint16_t bits[DEST_ROWS][DEST_COLS];
    static bool valid[DEST_ROWS];
    const unsigned p[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (unsigned i = 0; i < 8; i++)
        valid[i] = true;
    const struct dp_lanes *b[8];
    for (unsigned i = 0; i < 8; i++)
        b[i] = &rows[i];
    dp_rows_dst_fn *const fn = dp_rows_dst_for(simd, m);
    if (!fn) { /* only the AVX2 and AVX-512 paths work on the cells */
        printf("fpu    datapath alone skipped (no AVX2 on this host)\n");
        return;
    }
    double t0 = seconds();
    for (unsigned it = 0; it < n; it++)
        fn(&cols, b, 8, bits, valid, p, 0, m);
    double dt = seconds() - t0;
    uint32_t x = 0;
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++)
            x = x * 31 + bits[i][j];
    printf("fpu    datapath alone %9u MVMULs (%s)  %6.3f s  %7.3f M MVMUL/s  (sums %08x)\n", n,
           simd == DP_SIMD_AVX512 ? "avx512" : simd == DP_SIMD_AVX2 ? "avx2" : simd == DP_SIMD_SSE41 ? "sse4.1" : "plain", dt,
           (double)n / dt / 1e6, x);
}
#endif

/* The MVMUL loops: BF16 in fidelity phase 0 (LoFi; the first line, whose figure
 * bench/speed_compare.sh has always read), BF16 through phases 0..3 (HiFi4: ADDR_MOD 0 adds 1
 * to the fidelity phase after each MVMUL) and FP16 through phases 0..3. The matrix unit's host
 * work per MVMUL depends on the format and mode, not on the phase (operands are taken apart
 * once per bank contents and phase). */
enum loop_kind { LOOP_BF16_LOFI, LOOP_BF16_HIFI4, LOOP_FP16_HIFI4 };

/* Runs `mops` MOPs of `outer` x 127 replays of the eight MVMULs; false if it fails. Keeps the
 * tile in *out for the datapath-alone run (NULL: destroyed). */
static bool mvmul_loop(enum loop_kind kind, int mops, int outer, struct tile **out)
{
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
    const bool fp16 = kind == LOOP_FP16_HIFI4;
    uint32_t seed = 12345;
    for (unsigned b = 0; b < 2; b++)
        for (unsigned r = 0; r < 64; r++)
            for (unsigned c = 0; c < 16; c++) {
                seed = seed * 1664525u + 1013904223u;
                /* BF16 cells (Sign, Man10 with three low zeros, Exp8) in [1, 2) and [0.5, 1);
                 * FP16 cells (Sign, Man10, Exp5) likewise */
                t->src.bank[0][0].cell[r][c] = fp16 ? (seed >> 13 & 0x7FF00) | 15 : (seed >> 13 & 0x4F800) | 127;
                t->src.bank[1][0].cell[r][c] = fp16 ? (seed >> 11 & 0x7FF00) | 14 : (seed >> 11 & 0x4F800) | 126;
            }
    t->src.bank[0][0].client = t->src.bank[1][0].client = SRC_CLIENT_MATRIX;
    if (fp16) /* what the unpackers would have written with FP16 data (Blackhole's implied formats) */
        t->src.implied_fmt[0][0] = t->src.implied_fmt[1][0] = DF_FP16;
    if (kind != LOOP_BF16_LOFI)
        thcfg_set(&t->cfg, 1, &thcfg_fields_bh[THCFGF_BH_ADDR_MOD_DST_SEC0_FidelityIncr], 1);

    uint32_t pc = 0xA000;
    tt(t, &pc, TT_OP_REPLAY(0, 8, 0, 1));
    for (unsigned k = 0; k < 8; k++)
        tt(t, &pc, TT_OP_MVMUL_BH(0, 0, 0, 0, 8 * k));
    /* MopCfg: outer 127 (or n), inner 127, LoopOp = LoopOp0Last = LoopOp1Last = REPLAY(0, 8) */
    const uint32_t cfg[9] = {(uint32_t)outer, 127, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, TT_OP_REPLAY(0, 8, 0, 0),
                             TT_OP_NOP, TT_OP_REPLAY(0, 8, 0, 0), TT_OP_REPLAY(0, 8, 0, 0)};
    li(t, &pc, 5, 0xFFB80000u);
    for (int i = 0; i < 9; i++) {
        li(t, &pc, 6, cfg[i]);
        emit(t, &pc, rv_encode(RV_SW, 0, 5, 6, 4 * i));
    }
    for (int i = 0; i < mops; i++)
        tt(t, &pc, TT_OP_MOP(1, 0, 0));
    exit_ecall(t, &pc);
    tile_start_core(t, CORE_TRISC1, 0xA000);

    static const char *const names[] = {"fpu   ", "fpu-hifi4", "fpu-fp16"};
    double dt;
    const enum err_kind e = timed_run(t, names[kind], &dt);
    uint64_t mv = t->fpu.st.issued;
    /* FNV-1a of Dst's bits: the results, to compare builds bit for bit */
    uint64_t h = 0xcbf29ce484222325ull;
    const uint8_t *bytes = (const uint8_t *)t->dest.bits;
    for (size_t i = 0; i < sizeof t->dest.bits; i++)
        h = (h ^ bytes[i]) * 0x100000001b3ull;
    printf("%s MVMUL loop %9llu MVMULs %9llu cycles (%llu stalled)  %6.3f s  %7.3f M cycles/s  "
           "%7.3f M MVMUL/s  Dst %016llx\n", names[kind],
           (unsigned long long)mv, (unsigned long long)t->cycles,
           (unsigned long long)t->thread[1].st.stall[GS_DEST_HAZARD], dt,
           (double)t->cycles / dt / 1e6, (double)mv / dt / 1e6, (unsigned long long)h);
    if (out)
        *out = t;
    else
        tile_destroy(t);
    return e == ERR_NONE && mv == (uint64_t)mops * outer * 127 * 8;
}

int main(void)
{
    /* FPU_SPEED_SHORT=n (1..127): the first loop only, one MOP of n x 127 replays, a short run
     * for callgrind's instruction counts (exact, unlike wall time on a shared machine) */
    const char *env = getenv("FPU_SPEED_SHORT");
    const int n = env ? atoi(env) : 0;
    const bool short_run = n > 0 && n <= OUTER;
    struct tile *t;
    bool ok = mvmul_loop(LOOP_BF16_LOFI, short_run ? 1 : MOPS, short_run ? n : OUTER, &t);
    if (!short_run) { /* not in short runs: their instruction counts are the simulator's */
#ifndef BENCH_ON_BASE
        datapath_alone(t, MOPS * OUTER * 127 * 8);
#endif
        ok &= mvmul_loop(LOOP_BF16_HIFI4, MOPS, OUTER, NULL);
        ok &= mvmul_loop(LOOP_FP16_HIFI4, MOPS, OUTER, NULL);
    }
    tile_destroy(t);
    return ok ? 0 : 1;
}
