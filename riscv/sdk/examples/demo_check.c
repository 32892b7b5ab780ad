/* Host program used by `make demo`: checks what the eltwise and matmul examples left in L1
 * (written out with tensim's --dump) the way a kernel test harness does, against exact results
 * computed here, within the tolerance the arithmetic allows, and prints one line per example
 * ending in PASS or FAIL (exit status 1 on FAIL).
 *
 *   demo_check eltwise DUMP     (--dump 0x40000:8192:DUMP)
 *   demo_check matmul DUMP [PHASES]   (--dump 0x40000:16384:DUMP; fidelity phases, default 4)
 *
 * The tolerances are deliberately those of the arithmetic, not of tensim's model of it: an
 * element-wise BF16 sum is within one BF16 ulp of the exact sum; a product at fidelity phases p
 * is within sum(|a*b|) * 2^-e(p) of the exact one (LoFi keeps 5 of SrcA's and 7 of SrcB's
 * significant bits, HiFi2 all of A's, HiFi3 all but A's low by B's low slice, HiFi4 every bit;
 * FP32 Dst adds a rounding per MVMUL). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int matmul(const char *dump, unsigned phases)
{
    static const int bits[5] = {0, 3, 5, 9, 18}; /* the relative error bound 2^-bits per phase count */
    const uint32_t *got = read_dump(dump, MM_TILES * 64 * 16 * 4);
    unsigned bad = 0;
    double worst = 0;
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
                double g = fp32(got[(t * 64 + face * 16 + r % 16) * 16 + c % 16]);
                double tol = ldexp(mag, -bits[phases]);
                double q = fabs(g - exact) / tol;
                worst = q > worst ? q : worst;
                bad += !(q <= 1); /* NaN counts as bad */
            }
    static const char *const name[5] = {"", "LoFi", "HiFi2", "HiFi3", "HiFi4"};
    char what[200], tol[64];
    snprintf(what, sizeof what, "matmul: C = A @ B for 4 tiles of 32x32x32 (BF16 in, FP32 Dst and "
             "out, %s)", name[phases]);
    snprintf(tol, sizeof tol, "sum|a*b| * 2^-%d", bits[phases]);
    return verdict(what, tol, bad, MM_TILES * 1024, worst);
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
