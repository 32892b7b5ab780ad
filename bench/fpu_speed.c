/* Simulator speed with the matrix unit busy every cycle, and a check of the calibration figure
 * "571,851 MVMULs in 571,893 cycles" (calibration.md: sustained MVMUL on one Blackhole core with
 * operands resident and Dst blocks in rotation). TRISC1 records eight MVMULs to eight Dst blocks
 * in the replay buffer (recording only: Exec 0) and pushes MOPs that replay them 127 x 127 times
 * each; SrcA/SrcB start owned by the matrix unit with random BF16 data (the datapath's
 * arithmetic, docs/numerics.md). Reports MVMULs, cycles, host time and rates. */
#include <stdio.h>
#include <stdlib.h>

#include "../core/tile.h"
#include "../units/fpu_datapath.h"
#include "bench.h"
#include "tensix_ops.h"

#define MOPS 4
#define OUTER 127


/* BF16 Src cell (Sign[18] Man[17:8] Exp[7:0]) as a datapath operand (fpu_math.c's src_operand) */
static uint32_t bf16_operand(uint32_t cell)
{
    return (cell & 0x40000) | (cell & 0xFF) << 10 | (cell >> 8 & 0x3F8);
}

/* The ceiling: the datapath's work for `n` MVMULs alone (8 output rows each through
 * dp_rows_for's function, operands already taken apart, FP32 Dst, phase 0), without the pipe, the
 * MOP/replay expansion, the Dst hazard checks or the Dst format conversions. */
static void datapath_alone(const struct tile *t, unsigned n)
{
    static struct dp_cols cols;
    struct dp_lanes rows[8];
    for (unsigned k = 0; k < 16; k++) {
        uint32_t op[16];
        for (unsigned j = 0; j < 16; j++)
            op[j] = bf16_operand(t->src.bank[0][0].cell[k][j]);
        dp_cols_set_lane(&cols, k, op, 0);
    }
    for (unsigned i = 0; i < 8; i++) {
        uint32_t op[16];
        for (unsigned k = 0; k < 16; k++)
            op[k] = bf16_operand(t->src.bank[1][0].cell[i][k]);
        dp_lanes_b(&rows[i], op, 0, 0);
    }
    const struct dp_mode m = {.dst32 = true, .exp8 = true};
    const enum dp_simd simd = dp_simd_best();
    uint32_t acc[8][16] = {{0}};
    const struct dp_lanes *b[8];
    for (unsigned i = 0; i < 8; i++)
        b[i] = &rows[i];
    double t0 = seconds();
    dp_rows_fn *const fn = dp_rows_for(simd, m); /* as the matrix unit calls it */
    for (unsigned it = 0; it < n; it++)
        fn(&cols, b, 8, (const uint32_t(*)[16])acc, acc, 0, m);
    double dt = seconds() - t0;
    uint32_t x = 0;
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++)
            x ^= acc[i][j];
    printf("fpu    datapath alone %9u MVMULs (%s)  %6.3f s  %7.3f M MVMUL/s  (sums %08x)\n", n,
           simd == DP_SIMD_AVX512 ? "avx512" : simd == DP_SIMD_AVX2 ? "avx2" : simd == DP_SIMD_SSE41 ? "sse4.1" : "plain", dt,
           (double)n / dt / 1e6, x);
}

int main(void)
{
    /* FPU_SPEED_SHORT=n (1..127): one MOP of n x 127 replays, a short run for cachegrind's
     * instruction counts (exact, unlike wall time on a shared machine) */
    const char *env = getenv("FPU_SPEED_SHORT");
    const int n = env ? atoi(env) : 0;
    const int mops = n > 0 && n <= OUTER ? 1 : MOPS, outer = n > 0 && n <= OUTER ? n : OUTER;
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
    uint32_t seed = 12345;
    for (unsigned b = 0; b < 2; b++)
        for (unsigned r = 0; r < 64; r++)
            for (unsigned c = 0; c < 16; c++) {
                seed = seed * 1664525u + 1013904223u;
                /* BF16 cells (Sign, Man10 with three low zeros, Exp8) in [1, 2) and [0.5, 1) */
                t->src.bank[0][0].cell[r][c] = (seed >> 13 & 0x4F800) | 127;
                t->src.bank[1][0].cell[r][c] = (seed >> 11 & 0x4F800) | 126;
            }
    t->src.bank[0][0].client = t->src.bank[1][0].client = SRC_CLIENT_MATRIX;

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

    double dt;
    const enum err_kind e = timed_run(t, "fpu", &dt);
    uint64_t mv = t->fpu.st.issued;
    /* FNV-1a of Dst's bits: the results, to compare builds bit for bit */
    uint64_t h = 0xcbf29ce484222325ull;
    const uint8_t *bytes = (const uint8_t *)t->dest.bits;
    for (size_t i = 0; i < sizeof t->dest.bits; i++)
        h = (h ^ bytes[i]) * 0x100000001b3ull;
    printf("fpu    MVMUL loop %9llu MVMULs %9llu cycles (%llu stalled)  %6.3f s  %7.3f M cycles/s  "
           "%7.3f M MVMUL/s  Dst %016llx\n",
           (unsigned long long)mv, (unsigned long long)t->cycles,
           (unsigned long long)t->thread[1].st.stall[GS_DEST_HAZARD], dt,
           (double)t->cycles / dt / 1e6, (double)mv / dt / 1e6, (unsigned long long)h);
    if (mops == MOPS) /* not in short runs: their instruction counts are the simulator's */
        datapath_alone(t, mops * outer * 127 * 8);
    tile_destroy(t);
    return e == ERR_NONE && mv == (uint64_t)mops * outer * 127 * 8 ? 0 : 1;
}
