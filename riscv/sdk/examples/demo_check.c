/* Host program used by `make demo`: checks what the eltwise and matmul examples left in L1
 * (written out with tensim's --dump) the way a kernel test harness does, and prints one line per
 * example ending in PASS or FAIL (exit status 1 on FAIL).
 *
 *   demo_check eltwise DUMP     (--dump 0x40000:8192:DUMP)
 *   demo_check matmul DUMP [PHASES]   (--dump 0x40000:16384:DUMP; fidelity phases, default 4)
 *
 * eltwise: an element-wise BF16 sum is within one BF16 ulp of the exact sum.
 * matmul: the matrix unit does not compute exact sums of products (its products are made of
 * 5x7-bit slices, one pair per fidelity phase, aligned per half of 8 lanes without guard bits,
 * docs/numerics.md), so the check is bit for bit against the sequence of MVMULs the kernel asks
 * for, computed with the datapath functions (units/fpu_datapath.c, which match Tenstorrent's
 * functional simulator bit for bit); how far that is from exact math is printed alongside. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../units/fpu_datapath.h"
#include "eltwise/eltwise_data.h"
#include "matmul/matmul_data.h"

static double bf16(uint16_t b)
{
    union { uint32_t u; float f; } v = {.u = (uint32_t)b << 16};
    return v.f;
}

static double fp32(uint32_t b)
{
    union { uint32_t u; float f; } v = {.u = b};
    return v.f;
}

static void *read_dump(const char *path, size_t want)
{
    FILE *f = fopen(path, "rb");
    void *b = malloc(want);
    size_t n = f && b ? fread(b, 1, want, f) : 0;
    if (f)
        fclose(f);
    if (n != want) {
        fprintf(stderr, "demo_check: %s: expected %zu bytes of dump\n", path, want);
        exit(2);
    }
    return b;
}

static int verdict(const char *what, const char *tolerance, unsigned bad, unsigned total, double worst)
{
    printf("%s: %u values, %s within %s of the exact result (worst %.2f of it): %s\n", what, total,
           bad ? "not all" : "all", tolerance, worst, bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}

static int eltwise(const char *dump)
{
    const uint16_t *got = read_dump(dump, EW_TILES * 1024 * 2);
    unsigned bad = 0;
    double worst = 0;
    for (unsigned t = 0; t < EW_TILES; t++)
        for (unsigned i = 0; i < 1024; i++) {
            double exact = bf16(ew_value(0, t, i)) + bf16(ew_value(1, t, i));
            int e;
            frexp(exact, &e);
            double ulp = exact == 0 ? 0 : ldexp(1, e - 8); /* BF16: 8 significant bits */
            double err = fabs(bf16(got[t * 1024 + i]) - exact);
            double r = ulp ? err / ulp : (err ? INFINITY : 0);
            worst = r > worst ? r : worst;
            bad += r > 1;
        }
    return verdict("eltwise: C = A + B for 4 BF16 tiles of 32x32 (ELWADD into BF16 Dst)",
                   "1 BF16 ulp", bad, EW_TILES * 1024, worst);
}

/* A BF16 value as a datapath operand (units/fpu_datapath.h). */
static uint32_t bf16_op(uint16_t b)
{
    return (uint32_t)(b >> 15) << 18 | (uint32_t)(b >> 7 & 0xFF) << 10 | (b & 0x7Fu) << 3;
}

/* C[r][c] of tile t as the kernel has the matrix unit compute it into the FP32 Dst: per phase,
 * the k-face 0 MVMUL then the k-face 1 MVMUL, SrcA holding B and SrcB holding A. */
static uint32_t mm_hardware(unsigned t, unsigned r, unsigned c, unsigned phases)
{
    const struct dp_mode m = {.dst32 = true, .exp8 = true};
    uint32_t acc = 0;
    for (unsigned p = 0; p < phases; p++)
        for (unsigned kk = 0; kk < 2; kk++) {
            uint32_t a[16], b[16];
            uint16_t zero = 0;
            for (unsigned k = 0; k < 16; k++) {
                a[k] = bf16_op(mm_value(1, t, 16 * kk + k, c));
                b[k] = bf16_op(mm_value(0, t, r, 16 * kk + k));
                zero |= (uint16_t)((dp_is_zero(a[k]) || dp_is_zero(b[k])) << k);
            }
            struct dp_lanes la, lb;
            dp_lanes_a(&la, a, zero, p);
            dp_lanes_b(&lb, b, 0, p);
            acc = dp_mvmul(&la, &lb, acc, p, m);
        }
    return acc;
}

static int matmul(const char *dump, unsigned phases)
{
    const uint32_t *got = read_dump(dump, MM_TILES * 64 * 16 * 4);
    unsigned bad = 0;
    double worst = 0; /* largest |hardware - exact| / sum|a*b| */
    for (unsigned t = 0; t < MM_TILES; t++)
        for (unsigned r = 0; r < 32; r++)
            for (unsigned c = 0; c < 32; c++) {
                double exact = 0, mag = 0; /* exact in double: 33 significant bits at most */
                for (unsigned k = 0; k < 32; k++) {
                    double p = bf16(mm_value(0, t, r, k)) * bf16(mm_value(1, t, k, c));
                    exact += p;
                    mag += fabs(p);
                }
                unsigned face = (r / 16) * 2 + c / 16;
                uint32_t g = got[(t * 64 + face * 16 + r % 16) * 16 + c % 16];
                uint32_t want = mm_hardware(t, r, c, phases);
                if (g != want && bad++ < 3)
                    fprintf(stderr, "demo_check: tile %u C[%u][%u] = 0x%08x, the datapath gives 0x%08x\n",
                            t, r, c, g, want);
                double q = mag ? fabs(fp32(want) - exact) / mag : 0;
                worst = q > worst ? q : worst;
            }
    static const char *const name[5] = {"", "LoFi", "HiFi2", "HiFi3", "HiFi4"};
    printf("matmul: C = A @ B for 4 tiles of 32x32x32 (BF16 in, FP32 Dst and out, %s): %u values, "
           "%s the matrix unit's datapath arithmetic bit for bit (which is within 2^%.1f * "
           "sum|a*b| of exact math): %s\n",
           name[phases], MM_TILES * 1024, bad ? "not all equal to" : "all equal to",
           worst > 0 ? log2(worst) : -INFINITY, bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "eltwise"))
        return eltwise(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "matmul")) {
        unsigned p = argc > 3 ? (unsigned)atoi(argv[3]) : 4;
        return matmul(argv[2], p >= 1 && p <= 4 ? p : 4);
    }
    fprintf(stderr, "usage: demo_check eltwise|matmul DUMP [PHASES]\n");
    return 2;
}
