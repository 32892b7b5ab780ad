/* Host program: the DRAM images, expected result and run description of the mmfpu example
 * (mmfpu.h), into DIR (build/kernels/chip/mmfpu):
 *   a0.bin .. a3.bin  A's row blocks (at MT_A's layout: a zero 16-byte header, then A_0..A_3 as
 *                     BF16 tiles in face order), loaded into DRAM bank 0 at MF_A_DRAM(r)
 *   b0.bin .. b3.bin  B's column blocks (header, then B_kj at k * 8 + j), at MF_B_DRAM(c)
 *   expected-c.bin    what `dram_read` fetches from MF_C_DRAM(0) on: per tile, its 8 C tiles as
 *                     FP32 in face order (exact: see mmthrottle.h), then zeros to the next slot
 *   run.json          16 tiles at x 1..4, y 2..5; BRISC mmfpu.elf, TRISCs the throttled matmul
 *                     (its TRISC0 and TRISC2 built with -DMT_CHIP) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHIP_HOST
#include "chip.h"
#include "mmfpu.h"

static const char *dir;

static FILE *open_out(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void close_out(FILE *f)
{
    if (fclose(f)) {
        perror("mmfpu_gen");
        exit(1);
    }
}

static void put(FILE *f, const void *p, size_t n)
{
    if (fwrite(p, 1, n, f) != n) {
        perror("mmfpu_gen");
        exit(1);
    }
}

/* One 32 x 32 BF16 tile in face order, little-endian. */
static void put_tile(FILE *f, int (*v)(unsigned, unsigned, unsigned, unsigned, unsigned), unsigned a,
                     unsigned b, unsigned c)
{
    uint8_t t[2048];
    for (unsigned r = 0; r < 32; r++)
        for (unsigned col = 0; col < 32; col++) {
            uint16_t x = mt_bf16(v(a, b, c, r, col));
            unsigned i = mt_face_index(r, col);
            t[2 * i] = (uint8_t)x;
            t[2 * i + 1] = (uint8_t)(x >> 8);
        }
    put(f, t, sizeof t);
}

static int a_val(unsigned r, unsigned k, unsigned unused, unsigned i, unsigned j)
{
    (void)unused;
    return mf_a(r, k, i, j);
}
static int b_val(unsigned c, unsigned k, unsigned t, unsigned i, unsigned j) { return mf_b(c, k, t, i, j); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    static const uint8_t header[16];
    char name[32];
    for (unsigned r = 0; r < MF_GRID; r++) {
        snprintf(name, sizeof name, "a%u.bin", r);
        FILE *f = open_out(name);
        put(f, header, 16);
        for (unsigned k = 0; k < MT_KT; k++)
            put_tile(f, a_val, r, k, 0);
        close_out(f);
        snprintf(name, sizeof name, "b%u.bin", r);
        f = open_out(name);
        put(f, header, 16);
        for (unsigned k = 0; k < MT_KT; k++)
            for (unsigned t = 0; t < MT_CT; t++)
                put_tile(f, b_val, r, k, t);
        close_out(f);
    }
    FILE *f = open_out("expected-c.bin");
    static float slot[0x10000 / 4];
    for (unsigned r = 0; r < MF_GRID; r++)
        for (unsigned c = 0; c < MF_GRID; c++) {
            memset(slot, 0, sizeof slot);
            for (unsigned t = 0; t < MT_CT; t++)
                for (unsigned i = 0; i < 32; i++)
                    for (unsigned j = 0; j < 32; j++) {
                        int s = 0;
                        for (unsigned k = 0; k < MT_KT; k++)
                            for (unsigned m = 0; m < 32; m++)
                                s += mf_a(r, k, i, m) * mf_b(c, k, t, m, j);
                        slot[t * 1024 + mt_face_index(i, j)] = (float)s;
                    }
            put(f, slot, sizeof slot);
        }
    close_out(f);

    f = open_out("run.json");
    fprintf(f, "{\n  \"tensim_run\": 1,\n  \"arch\": \"blackhole\",\n  \"chip\": {\n    \"tiles\": [");
    for (unsigned r = 0; r < MF_GRID; r++)
        for (unsigned c = 0; c < MF_GRID; c++)
            fprintf(f, "%s\n      {\"at\": [%u, %u], \"programs\": {\"brisc\": \"mmfpu.elf\", \"trisc0\": "
                    "\"t0.elf\", \"trisc1\": \"../../mmthrottle-t1.elf\", \"trisc2\": \"t2.elf\"},\n"
                    "       \"l1\": [{\"addr\": \"0x%x\", \"words\": [1, 2, 0, 0]}]}",
                    r || c ? "," : "", 1 + c, 2 + r, CHIP_ARGS);
    fprintf(f, "\n    ],\n    \"dram\": [");
    for (unsigned r = 0; r < MF_GRID; r++)
        fprintf(f, "%s\n      {\"at\": [0, 0], \"addr\": \"0x%x\", \"file\": \"a%u.bin\"},"
                "\n      {\"at\": [0, 0], \"addr\": \"0x%x\", \"file\": \"b%u.bin\"}",
                r ? "," : "", MF_A_DRAM(r), r, MF_B_DRAM(r), r);
    fprintf(f, "\n    ],\n    \"dram_read\": [{\"at\": [0, 0], \"addr\": \"0x%x\", \"len\": %u, \"file\": "
            "\"c.bin\"}]\n  },\n  \"max_cycles\": 2000000\n}\n", MF_C_DRAM(0), 16u * 0x10000u);
    close_out(f);
    return 0;
}
