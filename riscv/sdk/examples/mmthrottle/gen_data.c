/* Host program: the L1 images of the throttled matmul example (mmthrottle.h), so that its
 * kernels spend no simulated time writing operands and no bench run checks in software.
 *   gen_data DIR  writes DIR/mmthrottle-a.bin (load at MT_A), DIR/mmthrottle-b.bin (at MT_B),
 *                 DIR/mmthrottle-c.bin (the exact C for MT_KT steps, FP32 in Dst32b row order,
 *                 MT_CT x 4 KiB: the bench's "expect" at MT_OUT).
 * Operand runs start with a zero 16-byte header, as the unpackers' tile descriptors expect.
 * Little-endian, as L1. C is exact whatever the fidelity: see mt_a/mt_b. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmthrottle.h"

static void put16(FILE *f, uint16_t v)
{
    fputc(v & 0xFF, f);
    fputc(v >> 8, f);
}

static void put32(FILE *f, uint32_t v)
{
    put16(f, (uint16_t)(v & 0xFFFF));
    put16(f, (uint16_t)(v >> 16));
}

static FILE *open_out(const char *dir, const char *name, unsigned header)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    for (unsigned i = 0; i < header; i++)
        fputc(0, f);
    return f;
}

/* The tile (which, index) in face order: element at face position p */
static void put_tile(FILE *f, int (*value)(unsigned, unsigned, unsigned, unsigned), unsigned a,
                     unsigned b)
{
    static uint16_t tile[1024];
    for (unsigned r = 0; r < 32; r++)
        for (unsigned c = 0; c < 32; c++)
            tile[mt_face_index(r, c)] = mt_bf16(value(a, b, r, c));
    for (unsigned i = 0; i < 1024; i++)
        put16(f, tile[i]);
}

static int a_of(unsigned k, unsigned unused, unsigned r, unsigned c)
{
    (void)unused;
    return mt_a(k, r, c);
}

static int b_of(unsigned k, unsigned j, unsigned r, unsigned c) { return mt_b(k, j, r, c); }

static int close_out(FILE *f)
{
    return fclose(f) == 0 ? 0 : (perror("mmthrottle data"), 1);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    FILE *fa = open_out(argv[1], "mmthrottle-a.bin", 16);
    for (unsigned k = 0; k < MT_KT; k++)
        put_tile(fa, a_of, k, 0);
    FILE *fb = open_out(argv[1], "mmthrottle-b.bin", 16);
    for (unsigned k = 0; k < MT_KT; k++)
        for (unsigned j = 0; j < MT_CT; j++)
            put_tile(fb, b_of, k, j);
    FILE *fc = open_out(argv[1], "mmthrottle-c.bin", 0);
    for (unsigned j = 0; j < MT_CT; j++) {
        static float tile[1024];
        for (unsigned r = 0; r < 32; r++)
            for (unsigned c = 0; c < 32; c++) {
                int s = 0;
                for (unsigned k = 0; k < MT_KT; k++)
                    for (unsigned i = 0; i < 32; i++)
                        s += mt_a(k, r, i) * mt_b(k, j, i, c);
                tile[mt_face_index(r, c)] = (float)s;
            }
        for (unsigned i = 0; i < 1024; i++) {
            uint32_t bits;
            memcpy(&bits, &tile[i], 4);
            put32(fc, bits);
        }
    }
    return close_out(fa) | close_out(fb) | close_out(fc);
}
