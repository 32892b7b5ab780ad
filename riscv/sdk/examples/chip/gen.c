/* Host side of the multi-tile examples: writes each example's run description (the chip format
 * core/run_desc.c reads: docs/sdk.md "Dataflow between tiles"), its DRAM inputs and the outputs
 * a test compares with, into OUT/pipeline3, OUT/matmul16, OUT/alltoall, OUT/alltoall-2noc and
 * OUT/mmfpu next to the ELFs the Makefile builds there.
 *
 *   gen OUT
 *
 * Every tile's L1 gets its runtime arguments at CHIP_ARGS and zeros over its semaphores (the
 * kernels never clear them themselves: a remote increment could come first). */
#define CHIP_HOST
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alltoall.h"
#include "chip.h"
#include "matmul16.h"
#include "mmfpu.h"
#include "pipeline3.h"

static const char *out_root;

static FILE *open_out(const char *ex, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_root, ex);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s/%s", out_root, ex, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void close_out(FILE *f)
{
    if (ferror(f) || fclose(f) != 0) {
        perror("gen: write");
        exit(1);
    }
}

static void write_words(const char *ex, const char *name, const uint32_t *w, size_t n)
{
    FILE *f = open_out(ex, name);
    for (size_t i = 0; i < n; i++) { /* little-endian, whatever the host */
        unsigned char b[4] = {(unsigned char)w[i], (unsigned char)(w[i] >> 8), (unsigned char)(w[i] >> 16),
                              (unsigned char)(w[i] >> 24)};
        fwrite(b, 1, 4, f);
    }
    close_out(f);
}

/* One tile of "tiles": its place, BRISC's program (and the other cores' in `more`, a piece of
 * the "programs" object such as `"ncrisc": "ncrisc.elf"`), its arguments and zeroed semaphores. */
static void tile2(FILE *f, int first, unsigned x, unsigned y, const char *elf, const char *more,
                  const uint32_t *args, unsigned nargs)
{
    fprintf(f, "%s\n      {\"at\": [%u, %u], \"programs\": {\"brisc\": \"%s\"", first ? "" : ",", x, y, elf);
    if (more)
        fprintf(f, ", %s", more);
    fprintf(f, "},\n");
    fprintf(f, "       \"l1\": [{\"addr\": \"0x%x\", \"words\": [", CHIP_ARGS);
    for (unsigned i = 0; i < nargs; i++)
        fprintf(f, "%s%lu", i ? ", " : "", (unsigned long)args[i]);
    fprintf(f, "]},\n              {\"addr\": \"0x%x\", \"words\": [", CHIP_SEMS);
    for (unsigned i = 0; i < CHIP_NSEMS * 4; i++)
        fprintf(f, "%s0", i ? ", " : "");
    fprintf(f, "]}]}");
}

static void tile(FILE *f, int first, unsigned x, unsigned y, const char *elf, const uint32_t *args, unsigned nargs)
{
    tile2(f, first, x, y, elf, NULL, args, nargs);
}

static void head(FILE *f) { fprintf(f, "{\n  \"tensim_run\": 1,\n  \"arch\": \"blackhole\",\n  \"chip\": {\n    \"tiles\": ["); }

static void pipeline3(void)
{
    static uint32_t in[P3_BLOCKS * P3_BLOCK_WORDS], out[P3_BLOCKS * P3_BLOCK_WORDS];
    for (uint32_t k = 0; k < P3_BLOCKS * P3_BLOCK_WORDS; k++) {
        in[k] = p3_input(k);
        out[k] = p3_output(k, P3_A, P3_B);
    }
    write_words("pipeline3", "input.bin", in, P3_BLOCKS * P3_BLOCK_WORDS);
    write_words("pipeline3", "expected-output.bin", out, P3_BLOCKS * P3_BLOCK_WORDS);

    /* A (1, 2) -> B (2, 2, BRISC moving, TRISC0 computing) -> C (3, 2); input in DRAM bank 0
     * (tile (0, 0)), output in bank 4 (tile (9, 0)). */
    FILE *f = open_out("pipeline3", "run.json");
    head(f);
    const uint32_t a[] = {2, 2, 0, 0, 0x0, P3_BLOCKS};
    const uint32_t b[] = {1, 2, 3, 2, P3_BLOCKS, P3_A, P3_B};
    const uint32_t c[] = {2, 2, 9, 0, 0x0, P3_BLOCKS, P3_A, P3_B};
    tile(f, 1, 1, 2, "reader.elf", a, sizeof a / 4);
    tile2(f, 0, 2, 2, "mover.elf", "\"trisc0\": \"compute.elf\"", b, sizeof b / 4);
    tile(f, 0, 3, 2, "writer.elf", c, sizeof c / 4);
    fprintf(f, "\n    ],\n    \"dram\": [{\"at\": [0, 0], \"addr\": \"0x0\", \"file\": \"input.bin\"}],\n");
    fprintf(f, "    \"dram_read\": [{\"at\": [9, 0], \"addr\": \"0x0\", \"len\": %u, \"file\": \"output.bin\"}]\n",
            P3_BLOCKS * P3_BLOCK_BYTES);
    fprintf(f, "  },\n  \"max_cycles\": 2000000\n}\n");
    close_out(f);
}

static void matmul16(void)
{
    static uint32_t a[MM_M * MM_K], b[MM_K * MM_N], c[MM_M * MM_N];
    for (uint32_t r = 0; r < MM_M; r++)
        for (uint32_t k = 0; k < MM_K; k++)
            a[r * MM_K + k] = (uint32_t)mm_a(r, k);
    for (uint32_t k = 0; k < MM_K; k++)
        for (uint32_t j = 0; j < MM_N; j++)
            b[k * MM_N + j] = (uint32_t)mm_b(k, j);
    for (uint32_t r = 0; r < MM_M; r++)
        for (uint32_t j = 0; j < MM_N; j++) {
            int32_t s = 0;
            for (uint32_t k = 0; k < MM_K; k++)
                s += mm_a(r, k) * mm_b(k, j);
            c[r * MM_N + j] = (uint32_t)s;
        }
    write_words("matmul16", "a.bin", a, MM_M * MM_K);
    write_words("matmul16", "b.bin", b, MM_K * MM_N);
    write_words("matmul16", "expected-c.bin", c, MM_M * MM_N);

    /* The grid at x 1..4, y 2..5; A in bank 0 (tile (0, 0)), B in bank 1 (tile (0, 2)), C in
     * bank 4 (tile (9, 0)), each from address 0. */
    FILE *f = open_out("matmul16", "run.json");
    head(f);
    const uint32_t args[] = {1, 2, 0, 0, 0x0, 0, 2, 0x0, 9, 0, 0x0};
    for (unsigned r = 0; r < MM_GRID; r++)
        for (unsigned col = 0; col < MM_GRID; col++)
            tile(f, r == 0 && col == 0, 1 + col, 2 + r, "matmul16.elf", args, sizeof args / 4);
    fprintf(f, "\n    ],\n    \"dram\": [{\"at\": [0, 0], \"addr\": \"0x0\", \"file\": \"a.bin\"},\n");
    fprintf(f, "             {\"at\": [0, 2], \"addr\": \"0x0\", \"file\": \"b.bin\"}],\n");
    fprintf(f, "    \"dram_read\": [{\"at\": [9, 0], \"addr\": \"0x0\", \"len\": %u, \"file\": \"c.bin\"}]\n",
            MM_M * MM_N * 4);
    fprintf(f, "  },\n  \"max_cycles\": 5000000\n}\n");
    close_out(f);
}

/* 16 tiles at x 1..4, y 2..5; `split`: alltoall-2noc, BRISC on NoC 0 and NCRISC on NoC 1. */
static void alltoall(const char *ex, int split)
{
    FILE *f = open_out(ex, "run.json");
    head(f);
    const uint32_t args[] = {1, 2, 4, 4};
    for (unsigned r = 0; r < 4; r++)
        for (unsigned col = 0; col < 4; col++)
            tile2(f, r == 0 && col == 0, 1 + col, 2 + r, split ? "brisc.elf" : "alltoall.elf",
                  split ? "\"ncrisc\": \"ncrisc.elf\"" : NULL, args, sizeof args / 4);
    fprintf(f, "\n    ]\n  },\n  \"max_cycles\": 2000000\n}\n");
    close_out(f);
}

/* One 32 x 32 BF16 tile in face order (mmthrottle.h), little-endian. */
static void put_tile(FILE *f, int (*v)(unsigned, unsigned, unsigned, unsigned, unsigned), unsigned a,
                     unsigned b, unsigned c)
{
    unsigned char t[2048];
    for (unsigned r = 0; r < 32; r++)
        for (unsigned col = 0; col < 32; col++) {
            const uint16_t x = mt_bf16(v(a, b, c, r, col));
            const unsigned i = mt_face_index(r, col);
            t[2 * i] = (unsigned char)x;
            t[2 * i + 1] = (unsigned char)(x >> 8);
        }
    fwrite(t, 1, sizeof t, f);
}

static int mf_a_val(unsigned r, unsigned k, unsigned unused, unsigned i, unsigned j)
{
    (void)unused;
    return mf_a(r, k, i, j);
}
static int mf_b_val(unsigned c, unsigned k, unsigned t, unsigned i, unsigned j) { return mf_b(c, k, t, i, j); }

/* mmfpu (mmfpu.h): A's row blocks a0..a3.bin and B's column blocks b0..b3.bin (a zero 16-byte
 * header, then BF16 tiles in face order: A_0..A_3, B_kj at k * 8 + j) for DRAM bank 0; what
 * `dram_read` fetches from MF_C_DRAM(0) on: per tile its 8 C tiles as FP32 in face order (exact:
 * small integers), zeros to the next 64 KiB slot; 16 tiles at x 1..4, y 2..5 whose TRISCs run
 * the throttled matmul (TRISC0 and TRISC2 built with -DMT_CHIP). */
static void mmfpu(void)
{
    static const unsigned char header[16];
    char name[32];
    for (unsigned r = 0; r < MF_GRID; r++) {
        snprintf(name, sizeof name, "a%u.bin", r);
        FILE *f = open_out("mmfpu", name);
        fwrite(header, 1, 16, f);
        for (unsigned k = 0; k < MT_KT; k++)
            put_tile(f, mf_a_val, r, k, 0);
        close_out(f);
        snprintf(name, sizeof name, "b%u.bin", r);
        f = open_out("mmfpu", name);
        fwrite(header, 1, 16, f);
        for (unsigned k = 0; k < MT_KT; k++)
            for (unsigned t = 0; t < MT_CT; t++)
                put_tile(f, mf_b_val, r, k, t);
        close_out(f);
    }
    static uint32_t c[MF_GRID * MF_GRID * 0x10000 / 4];
    for (unsigned r = 0; r < MF_GRID; r++)
        for (unsigned col = 0; col < MF_GRID; col++)
            for (unsigned t = 0; t < MT_CT; t++)
                for (unsigned i = 0; i < 32; i++)
                    for (unsigned j = 0; j < 32; j++) {
                        int sum = 0;
                        for (unsigned k = 0; k < MT_KT; k++)
                            for (unsigned m = 0; m < 32; m++)
                                sum += mf_a(r, k, i, m) * mf_b(col, k, t, m, j);
                        const float v = (float)sum;
                        memcpy(&c[(r * MF_GRID + col) * 0x4000 + t * 1024 + mt_face_index(i, j)], &v, 4);
                    }
    write_words("mmfpu", "expected-c.bin", c, sizeof c / 4);

    FILE *f = open_out("mmfpu", "run.json");
    head(f);
    const uint32_t args[] = {1, 2, 0, 0};
    for (unsigned r = 0; r < MF_GRID; r++)
        for (unsigned col = 0; col < MF_GRID; col++)
            tile2(f, r == 0 && col == 0, 1 + col, 2 + r, "mmfpu.elf",
                  "\"trisc0\": \"t0.elf\", \"trisc1\": \"../../mmthrottle-t1.elf\", \"trisc2\": \"t2.elf\"",
                  args, sizeof args / 4);
    fprintf(f, "\n    ],\n    \"dram\": [");
    for (unsigned r = 0; r < MF_GRID; r++)
        fprintf(f, "%s\n      {\"at\": [0, 0], \"addr\": \"0x%x\", \"file\": \"a%u.bin\"},"
                "\n      {\"at\": [0, 0], \"addr\": \"0x%x\", \"file\": \"b%u.bin\"}",
                r ? "," : "", MF_A_DRAM(r), r, MF_B_DRAM(r), r);
    fprintf(f, "\n    ],\n    \"dram_read\": [{\"at\": [0, 0], \"addr\": \"0x%x\", \"len\": %u, \"file\": "
            "\"c.bin\"}]\n  },\n  \"max_cycles\": 2000000\n}\n", MF_C_DRAM(0), MF_GRID * MF_GRID * 0x10000u);
    close_out(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT\n", argv[0]);
        return 2;
    }
    out_root = argv[1];
    if (mkdir(out_root, 0777) != 0 && errno != EEXIST) {
        perror(out_root);
        return 1;
    }
    pipeline3();
    matmul16();
    alltoall("alltoall", 0);
    alltoall("alltoall-2noc", 1);
    mmfpu();
    return 0;
}
