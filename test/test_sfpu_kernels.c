/* The vector-unit examples (riscv/sdk/examples/sfpu) end to end: the host writes FP32 tiles,
 * TRISC0 unpacks them into Dst, TRISC1 runs the SFPU kernel, TRISC2 packs them back; every
 * output is checked here against a reference computed on the host in double precision (libm),
 * within the tolerance each algorithm's comment states, and exactly where the algorithm is exact
 * (the sort). Inputs: a deterministic pseudo-random spread over each kernel's domain, plus edge
 * values (signed zeros, infinities, NaNs, denormals, the ends of the domain) whose outcome the
 * kernel's comment documents. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../riscv/sdk/examples/sfpu/sfpu_tiles.h"
#include "harness.h"

#define N (SK_MAX_TILES * 1024)

static char out[65536];

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* xorshift32: the same inputs every run */
static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}
static double uniform(uint32_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (next(s) >> 8) / 16777216.0;
}

struct result {
    float y[N];
    uint32_t cycles, tiles;
};

/* Run kernel `name` (build/kernels/sfpu-NAME.elf on TRISC1) over `tiles` tiles of `x`, with
 * more options `extra` ("" for none). */
static void run_kernel_with(const char *name, const float *x, unsigned tiles, struct result *r,
                            const char *extra)
{
    char in[64], param[64], res[64], outf[64], args[1024];
    const int pid = (int)getpid();
    snprintf(in, sizeof in, "/tmp/tensim-sk-%s-%d.in", name, pid);
    snprintf(param, sizeof param, "/tmp/tensim-sk-%s-%d.param", name, pid);
    snprintf(res, sizeof res, "/tmp/tensim-sk-%s-%d.res", name, pid);
    snprintf(outf, sizeof outf, "/tmp/tensim-sk-%s-%d.out", name, pid);
    FILE *f = fopen(in, "wb");
    cr_assert(f);
    static const uint8_t header[16];
    fwrite(header, 1, 16, f);
    fwrite(x, 4, 1024 * tiles, f);
    fclose(f);
    f = fopen(param, "wb");
    cr_assert(f);
    const uint32_t count = tiles;
    fwrite(&count, 4, 1, f);
    fclose(f);
    snprintf(args, sizeof args,
             "run -q --load %s@0x%x --load %s@0x%x --trisc0 build/kernels/sfpu-unpack.elf "
             "--trisc1 build/kernels/sfpu-%s.elf --trisc2 build/kernels/sfpu-pack.elf "
             "--dump 0x%x:%u:%s --dump 0x%x:8:%s %s",
             in, SK_IN, param, SK_PARAM, name, SK_OUT, 4096 * tiles, outf, SK_RESULT, res, extra);
    cr_assert_eq(run_tensim(args, out, sizeof out), 0, "%s: %s", name, out);
    size_t len;
    char *y = read_whole_file(outf, &len);
    cr_assert_eq(len, 4096u * tiles);
    memcpy(r->y, y, len);
    free(y);
    char *w = read_whole_file(res, &len);
    cr_assert_eq(len, 8u);
    memcpy(&r->cycles, w, 4);
    memcpy(&r->tiles, w + 4, 4);
    free(w);
    cr_expect_eq(r->tiles, tiles);
    unlink(in), unlink(param), unlink(res), unlink(outf);
}

static void run_kernel(const char *name, const float *x, unsigned tiles, struct result *r)
{
    run_kernel_with(name, x, tiles, r, "");
}

/* Occurrences of `needle` in `hay`. */
static unsigned count_of(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* What one more tile costs the SFPU pass: the same kernel over the first tiles-1 tiles, run
 * again; the difference leaves out the constants, the semaphores and the drain. The kernels'
 * instruction counts and stalls are worked out by hand at each call (Blackhole: an SFPMAD's
 * result is read two cycles after it issues, and an instruction that reads it sooner stalls one
 * cycle, BH:SFPMAD.md "Instruction scheduling"; SFPSWAP's next cycle is an SFPNOP, BH:SFPSWAP.md). */
static void expect_tile_cycles(const char *name, const float *x, const struct result *r,
                               uint32_t per_tile)
{
    static struct result fewer;
    run_kernel(name, x, r->tiles - 1, &fewer);
    cr_expect_eq(r->cycles - fewer.cycles, per_tile, "%s: %u cycles for %u tiles, %u for %u", name,
                 r->cycles, r->tiles, fewer.cycles, fewer.tiles);
}

static double rel_err(float got, double want) { return fabs((double)got - want) / fabs(want); }

/* ---- exp ---- */

Test(sfpu_kernels, exp)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    static const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 88.72283f, 88.7229f, 89.0f, 1e30f,
                                 INFINITY, -INFINITY, -87.0f, -86.0f, -100.0f, 1e-40f, -1e-40f,
                                 0.34657359f, -0.34657359f, 0.5f, 2.0f, -50.0f};
    uint32_t s = 1;
    for (unsigned i = 0; i < 1024 * tiles; i++)
        x[i] = (float)uniform(&s, -86.5, 88.7);
    memcpy(x, edge, sizeof edge);
    x[40] = float_of(0x7FC00001u); /* +NaN: larger than +Inf */
    x[41] = float_of(0xFFC00001u); /* -NaN: smaller than -Inf */
    run_kernel("exp", x, tiles, &r);
    unsigned bad = 0;
    double worst = 0;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        if (isnan(x[i]))
            continue;
        const double want = exp((double)x[i]);
        bool ok;
        if (want > FLT_MAX)
            ok = isinf(r.y[i]) && r.y[i] > 0;
        else if (want < 0x1p-125) /* may flush: doubling leaves no room for 2^-126 */
            ok = r.y[i] == 0.0f || rel_err(r.y[i], want) <= 2.5e-7;
        else {
            const double e = rel_err(r.y[i], want);
            worst = e > worst ? e : worst;
            ok = e <= 2.5e-7;
        }
        if (!ok && bad++ < 5)
            cr_log_error("exp(%a) = %a, want %a", (double)x[i], (double)r.y[i], want);
    }
    cr_expect_eq(bad, 0, "worst relative error %g", worst);
    cr_expect_eq(bits_of(r.y[0]), 0x3F800000u, "exp(0) = 1 exactly");
    cr_expect_eq(bits_of(r.y[1]), 0x3F800000u, "exp(-0) = 1 exactly");
    cr_expect_eq(bits_of(r.y[10]), 0u, "exp(-87) flushes (below 2^-125)");
    cr_expect_eq(bits_of(r.y[13]), 0x3F800000u, "a denormal reads as 0");
    cr_expect_eq(bits_of(r.y[40]), 0x7F800000u, "+NaN clamps to 89: +Inf");
    cr_expect_eq(bits_of(r.y[41]), 0u, "-NaN clamps to -87: 0");
    /* 22 instructions, 12 of them right after the SFPMAD (or SFPADDI, SFPMULI) they read: 34
     * cycles per 32 datums */
    expect_tile_cycles("exp", x, &r, 34 * 32);
}

/* ---- reciprocal ---- */

Test(sfpu_kernels, recip)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    static const float edge[] = {1.0f, -1.0f, 3.0f, 0x1p-125f, -0x1p-125f, 0x1.fffffep124f,
                                 -0x1.fffffep124f, 0x1p-126f, 0.0f, -0.0f, INFINITY, 0x1p126f,
                                 0x1p-130f};
    uint32_t s = 2;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        const double m = uniform(&s, 1.0, 2.0);
        const int e = (int)(next(&s) % 250) - 125;
        x[i] = (float)ldexp(i % 3 ? m : -m, e);
    }
    memcpy(x, edge, sizeof edge);
    run_kernel("recip", x, tiles, &r);
    unsigned bad = 0;
    double worst = 0;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        if (i >= 8 && i < 13) /* outside the domain: below */
            continue;
        const double e = rel_err(r.y[i], 1.0 / x[i]);
        worst = e > worst ? e : worst;
        if (e > 2.5e-7 && bad++ < 5)
            cr_log_error("1/%a = %a", (double)x[i], (double)r.y[i]);
    }
    cr_expect_eq(bad, 0, "worst relative error %g", worst);
    /* Outside 2^-125 <= |x| <= 2^125 (recip.c): 0 and -0 seed 0x7EF311C3 (and its negative),
     * which doubles to infinity and meets 0 * Inf: NaN; +Inf seeds a huge negative value: -Inf;
     * 2^126 seeds a denormal, read as 0: 0; a denormal x reads as 0: NaN. */
    cr_expect(isnan(r.y[8]) && isnan(r.y[9]), "1/+-0: %a %a", (double)r.y[8], (double)r.y[9]);
    cr_expect(isinf(r.y[10]) && r.y[10] < 0, "1/Inf: %a", (double)r.y[10]);
    cr_expect_eq(bits_of(r.y[11]), 0u, "1/2^126: %a", (double)r.y[11]);
    cr_expect(isnan(r.y[12]), "1/denormal: %a", (double)r.y[12]);
    /* 20 instructions per 64 datums, no stall: each SFPMAD reads results two cycles old */
    expect_tile_cycles("recip", x, &r, 20 * 16);
}

/* ---- square root ---- */

Test(sfpu_kernels, sqrt)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    static const float edge[] = {0.0f, 1.0f, 4.0f, 2.0f, 0x1p-126f, 0x1.fffffep127f, 0.25f,
                                 0x1p-125f, 1e-40f, -0.0f, INFINITY};
    uint32_t s = 3;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        const double m = uniform(&s, 1.0, 4.0);
        const int e = 2 * ((int)(next(&s) % 126) - 63);
        x[i] = (float)ldexp(m, e);
    }
    memcpy(x, edge, sizeof edge);
    run_kernel("sqrt", x, tiles, &r);
    unsigned bad = 0;
    double worst = 0;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        if (i == 0 || (i >= 8 && i <= 10)) /* zeros, the denormal and Inf: below */
            continue;
        const double e = rel_err(r.y[i], sqrt((double)x[i]));
        worst = e > worst ? e : worst;
        if (e > 2.5e-7 && bad++ < 5)
            cr_log_error("sqrt(%a) = %a", (double)x[i], (double)r.y[i]);
    }
    cr_expect_eq(bad, 0, "worst relative error %g", worst);
    cr_expect_eq(bits_of(r.y[0]), 0u, "sqrt(0) = 0");
    cr_expect_eq(bits_of(r.y[8]), 0u, "a denormal reads as 0");
    cr_expect_eq(r.y[9], 0.0f, "sqrt(-0) is a zero: %a", (double)r.y[9]);
    cr_expect(isnan(r.y[10]), "sqrt(Inf): Inf * 0 in the first step: %a", (double)r.y[10]);
    /* 28 instructions per 64 datums, no stall (the two vectors alternate) */
    expect_tile_cycles("sqrt", x, &r, 28 * 16);
}

/* ---- SiLU and GELU ---- */

/* x * sigmoid(u) exactly (in double) */
static double x_sigmoid(double x, double u) { return x / (1.0 + exp(-u)); }

static void check_scaled(const char *what, const float *x, const float *y, unsigned n,
                         double (*ref)(double), double tol)
{
    unsigned bad = 0;
    double worst = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            continue;
        const double e = fabs((double)y[i] - ref(x[i])) / fmax(1.0, fabs((double)x[i]));
        worst = e > worst ? e : worst;
        if (!(e <= tol) && bad++ < 5)
            cr_log_error("%s(%a) = %a, want %a", what, (double)x[i], (double)y[i], ref(x[i]));
    }
    cr_expect_eq(bad, 0, "%s: worst error %g x max(1, |x|)", what, worst);
}

static double silu_ref(double x) { return x_sigmoid(x, x); }

static void sigmoid_inputs(float *x, unsigned n, uint32_t seed)
{
    static const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 20.0f, -20.0f, 87.0f, -87.0f, 88.0f,
                                 -88.0f, 1e20f, -1e20f, 1e-40f, INFINITY, -INFINITY};
    uint32_t s = seed;
    for (unsigned i = 0; i < n; i++)
        x[i] = (float)(i % 8 ? uniform(&s, -12.0, 12.0) : uniform(&s, -200.0, 200.0));
    memcpy(x, edge, sizeof edge);
    x[15] = float_of(0x7FC00000u);
}

Test(sfpu_kernels, silu)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    sigmoid_inputs(x, 1024 * tiles, 4);
    run_kernel("silu", x, tiles, &r);
    check_scaled("silu", x, r.y, 1024 * tiles, silu_ref, 2.5e-7);
    cr_expect_eq(bits_of(r.y[0]), 0u, "silu(0) = 0");
    cr_expect_eq(r.y[1], 0.0f, "silu(-0) is a zero: %a", (double)r.y[1]);
    cr_expect(isinf(r.y[13]) && r.y[13] > 0, "silu(Inf) = Inf: %a", (double)r.y[13]);
    cr_expect(isinf(r.y[14]) && r.y[14] < 0, "silu(-Inf): -Inf * e^-87: %a", (double)r.y[14]);
    cr_expect(isnan(r.y[15]), "silu(NaN): %a", (double)r.y[15]);
    /* 36 instructions, 20 of them reading the MAD result of the instruction before: 56 */
    expect_tile_cycles("silu", x, &r, 56 * 32);
}

/* The FP32 constants of gelu.c: 2 sqrt(2/pi) and 2 sqrt(2/pi) 0.044715, rounded to FP32 */
static double gelu_ref(double x)
{
    const double k = (float)(2.0 * sqrt(2.0 / M_PI)), kc = (float)(2.0 * sqrt(2.0 / M_PI) * 0.044715);
    return x_sigmoid(x, x * (k + kc * x * x));
}
static double gelu_erf(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }

Test(sfpu_kernels, gelu)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    sigmoid_inputs(x, 1024 * tiles, 5);
    run_kernel("gelu", x, tiles, &r);
    check_scaled("gelu", x, r.y, 1024 * tiles, gelu_ref, 2.5e-7);
    /* the tanh form is an approximation of x Phi(x): about 4.7e-4 at worst */
    double worst = 0;
    for (unsigned i = 0; i < 1024 * tiles; i++)
        if (isfinite(x[i]))
            worst = fmax(worst, fabs((double)r.y[i] - gelu_erf(x[i])));
    cr_expect_leq(worst, 4.8e-4);
    cr_expect_gt(worst, 4e-4, "the tanh form's own error shows: %g", worst);
    cr_expect_eq(bits_of(r.y[0]), 0u, "gelu(0) = 0");
    cr_expect_eq(r.y[1], 0.0f, "gelu(-0) is a zero: %a", (double)r.y[1]);
    cr_expect(isinf(r.y[13]) && r.y[13] > 0, "gelu(Inf) = Inf: %a", (double)r.y[13]);
    cr_expect(isinf(r.y[14]) && r.y[14] < 0, "gelu(-Inf): -Inf * e^-87: %a", (double)r.y[14]);
    cr_expect(isnan(r.y[15]), "gelu(NaN): %a", (double)r.y[15]);
    /* 43 instructions: SiLU's body and stalls, the x^2 and u MADs, four SFPLOADIs; u is read
     * at once twice (its MAD, then SFPSETSGN): 65 */
    expect_tile_cycles("gelu", x, &r, 65 * 32);
}

/* ---- sort ---- */

/* The sign-magnitude order SFPSWAP compares in, as a signed key */
static int64_t sm_key(uint32_t b) { return b >> 31 ? -(int64_t)(b & 0x7FFFFFFFu) - 1 : (int64_t)b; }
static int cmp_desc(const void *a, const void *b)
{
    const int64_t x = sm_key(*(const uint32_t *)a), y = sm_key(*(const uint32_t *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

Test(sfpu_kernels, sort)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    static const uint32_t edge[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                                    0x7FC00000u, 0x7FC00001u, 0xFFC00000u, 0x00000001u,
                                    0x80000001u, 0x007FFFFFu, 0x3F800000u, 0x3F800000u,
                                    0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u};
    uint32_t s = 6;
    for (unsigned i = 0; i < 1024 * tiles; i++)
        x[i] = (float)uniform(&s, -1000.0, 1000.0);
    /* tile 0 column 3 and tile 1 column 20 hold the edge patterns twice over, and tile 1
     * column 7 only a few distinct values (ties) */
    for (unsigned k = 0; k < 32; k++) {
        x[sk_face_index(k, 3)] = float_of(edge[k % 16]);
        x[1024 + sk_face_index(k, 20)] = float_of(edge[(k * 7) % 16]);
        x[1024 + sk_face_index(k, 7)] = (float)(k % 3);
    }
    run_kernel("sort", x, tiles, &r);
    unsigned bad = 0;
    for (unsigned t = 0; t < tiles; t++)
        for (unsigned c = 0; c < 32; c++) {
            uint32_t want[32];
            for (unsigned k = 0; k < 32; k++)
                want[k] = bits_of(x[1024 * t + sk_face_index(k, c)]);
            qsort(want, 32, 4, cmp_desc);
            for (unsigned k = 0; k < 32; k++) {
                const uint32_t got = bits_of(r.y[1024 * t + sk_face_index(k, c)]);
                if (got != want[k] && bad++ < 5)
                    cr_log_error("tile %u column %u row %u: 0x%08x, want 0x%08x", t, c, k, got, want[k]);
            }
        }
    cr_expect_eq(bad, 0);
    /* column 3 of tile 0: +NaN payloads first, -NaN last, -0 right after +0 */
    cr_expect_eq(bits_of(r.y[sk_face_index(0, 3)]), 0x7FC00001u);
    cr_expect_eq(bits_of(r.y[sk_face_index(31, 3)]), 0xFFC00000u);
    /* four passes of 144 instructions (60 SFPSWAPs each followed by its SFPNOP) */
    expect_tile_cycles("sort", x, &r, 144 * 4);
}

/* ---- the SFPLOADMACRO examples (sfpu_macro.h) ---- */

/* Blackhole's SFPMAD on 2 x + 0 (BH:SFPMAD.md), written out: operands with exponent 0 read as
 * zero and a zero result is +0 (2 * +-0 + +0); NaN gives 0x7FC00000; otherwise the exponent goes
 * up by one, Inf from exponent 254 up (2 x is exact, so there is nothing to round). */
static uint32_t twice(uint32_t x)
{
    const uint32_t exp = x >> 23 & 0xFF, sign = x & 0x80000000u;
    if (exp == 0)
        return 0;
    if (exp == 255)
        return x & 0x7FFFFF ? 0x7FC00000u : x;
    if (exp >= 254)
        return sign | 0x7F800000u;
    return x + (1u << 23);
}

Test(sfpu_kernels, scale2)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    static const uint32_t edge[] = {0, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x00800000u,
                                    0x7F000000u, 0x7EFFFFFFu, 0xFF7FFFFFu, 0x7F800000u,
                                    0xFF800000u, 0x7FC00001u, 0xFF800001u, 0x3F800000u,
                                    0xC0490FDBu};
    uint32_t s = 7;
    for (unsigned i = 0; i < 1024 * tiles; i++)
        x[i] = float_of(next(&s)); /* any bit pattern: every exponent, sign, NaN */
    for (unsigned i = 0; i < sizeof edge / 4; i++)
        x[i] = float_of(edge[i]);
    run_kernel("scale2", x, tiles, &r);
    unsigned bad = 0;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        const uint32_t want = twice(bits_of(x[i])), got = bits_of(r.y[i]);
        if (got != want && bad++ < 5)
            cr_log_error("2 * 0x%08x = 0x%08x, want 0x%08x", bits_of(x[i]), got, want);
    }
    cr_expect_eq(bad, 0);
    cr_expect_eq(bits_of(r.y[12]), 0x40000000u, "2 * 1 = 2");
    cr_expect_eq(bits_of(r.y[1]), 0u, "2 * -0 = +0 (+0 added)");
    /* one SFPLOADMACRO per 32 datums: its MAD and store go to the MAD and store sub-units */
    expect_tile_cycles("scale2", x, &r, 32);
}

/* --trace gives the vector unit one track per sub-unit, and SFPLOADMACRO's scheduled
 * instructions appear on theirs: scale2 over one tile is 32 SFPLOADMACROs (load track), each
 * scheduling an SFPMUL (MAD track) and an SFPSTORE (store track); the SFPMUL with VD 12 that
 * writes the template issues once more on the MAD track. */
Test(sfpu_kernels, trace_shows_sub_units)
{
    static float x[N];
    static struct result r;
    char path[64], extra[96];
    snprintf(path, sizeof path, "/tmp/tensim-sk-trace-%d.json", (int)getpid());
    snprintf(extra, sizeof extra, "--trace %s", path);
    for (unsigned i = 0; i < 1024; i++)
        x[i] = (float)i;
    run_kernel_with("scale2", x, 1, &r, extra);
    size_t len;
    char *json = read_whole_file(path, &len);
    cr_assert(json);
    static const char *const tracks[] = {"vector unit: simple", "vector unit: MAD", "vector unit: round",
                                         "vector unit: store", "vector unit: load"};
    for (unsigned i = 0; i < 5; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"args\":{\"name\":\"%s\"}", tracks[i]);
        cr_expect(strstr(json, want) != NULL, "track %s", tracks[i]);
    }
    cr_expect_eq(count_of(json, "{\"name\":\"SFPLOADMACRO\",\"cat\":\"unit\""), 32);
    cr_expect_eq(count_of(json, "{\"name\":\"SFPMUL\",\"cat\":\"unit\""), 33);
    cr_expect_eq(count_of(json, "{\"name\":\"SFPSTORE\",\"cat\":\"unit\""), 32);
    free(json);
    unlink(path);
}

/* Inputs for the reciprocals: |x| = m 2^e, m in [1, 2), e in [lo, hi), two thirds negative */
static void recip_inputs(float *x, unsigned n, uint32_t seed, int lo, int hi)
{
    uint32_t s = seed;
    for (unsigned i = 0; i < n; i++) {
        const double m = uniform(&s, 1.0, 2.0);
        const int e = lo + (int)(next(&s) % (unsigned)(hi - lo));
        x[i] = (float)ldexp(i % 3 ? -m : m, e);
    }
}
/* How many of x[from..to) have a reciprocal further than `bound` (relative) from 1/x */
static unsigned recip_bad(const float *x, const struct result *r, unsigned from, unsigned to,
                          double bound, double *worst)
{
    unsigned bad = 0;
    for (unsigned i = from; i < to; i++) {
        const double e = rel_err(r->y[i], 1.0 / (double)x[i]);
        *worst = e > *worst ? e : *worst;
        if (e > bound && bad++ < 5)
            cr_log_error("1/%a = %a (%g)", (double)x[i], (double)r->y[i], e);
    }
    return bad;
}
/* Edge values shared by the three: below the range, its ends, above it */
static const float recip_edge[] = {0.0f, -0.0f, 0x1p-140f, -0x1p-140f, INFINITY, -INFINITY,
                                   0x1p-126f, -0x1p-126f, 0x1p126f, -0x1p126f, 1.0f, -1.0f};
#define RECIP_EDGES (sizeof recip_edge / sizeof recip_edge[0])

Test(sfpu_kernels, arecip)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    recip_inputs(x, 1024 * tiles, 11, -126, 126);
    memcpy(x, recip_edge, sizeof recip_edge);
    x[RECIP_EDGES] = float_of(0x7FC00000u);
    x[RECIP_EDGES + 1] = float_of(0xFFC00000u);
    run_kernel("arecip", x, tiles, &r);
    /* BH:SFPARECIP.md: 0.9944 / x < y < 1.0054 / x for 2^-126 <= |x| < 2^126 */
    unsigned bad = 0;
    for (unsigned i = RECIP_EDGES + 2; i < 1024 * tiles; i++) {
        const double q = (double)r.y[i] * (double)x[i];
        if (!(q > 0.9944 && q < 1.0054) && bad++ < 5)
            cr_log_error("1/%a ~ %a (x y = %.6f)", (double)x[i], (double)r.y[i], q);
    }
    cr_expect_eq(bad, 0);
    /* the page's cases: Inf of x's sign below 2^-126, 0 of x's sign from 2^126 (Inf, NaN),
     * 1.0 -> 0.99609375 */
    static const uint32_t want[] = {0x7F800000u, 0xFF800000u, 0x7F800000u, 0xFF800000u,
                                    0,           0x80000000u, 0x7E7F0000u, 0xFE7F0000u,
                                    0,           0x80000000u, 0x3F7F0000u, 0xBF7F0000u,
                                    0,           0x80000000u};
    for (unsigned i = 0; i < sizeof want / 4; i++)
        cr_expect_eq(bits_of(r.y[i]), want[i], "edge %u: 1/%a ~ 0x%08x, want 0x%08x", i,
                     (double)x[i], bits_of(r.y[i]), want[i]);
    /* (1/2^-126 is 2^126 times the mantissa 1.0 gives; 2^126 is past the range) */
    expect_tile_cycles("arecip", x, &r, 32);
}

Test(sfpu_kernels, recip3)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    recip_inputs(x, 1024 * tiles, 12, -126, 126);
    memcpy(x, recip_edge, sizeof recip_edge);
    x[RECIP_EDGES] = float_of(0x7FC00000u);
    x[RECIP_EDGES + 1] = 0x1.fffffep125f; /* the top of the domain */
    run_kernel("recip3", x, tiles, &r);
    /* one Newton step from SFPARECIP's 0.56%: e^2 < 3.2e-5 */
    double worst = 0;
    cr_expect_eq(recip_bad(x, &r, 6, 8, 3.2e-5, &worst), 0);
    cr_expect_eq(recip_bad(x, &r, 10, 12, 3.2e-5, &worst), 0);
    cr_expect_eq(recip_bad(x, &r, RECIP_EDGES + 1, 1024 * tiles, 3.2e-5, &worst), 0, "worst %g",
                 worst);
    /* 1.0: y0 = 0.99609375 (BH:SFPARECIP.md), e = 2^-8, t = 1 + 2^-8, y = 1 - 2^-16 */
    cr_expect_eq(bits_of(r.y[10]), 0x3F7FFF00u);
    /* outside the domain: y0 is +-Inf or +-0 and the product meets 0 * Inf */
    for (unsigned i = 0; i < 6; i++)
        cr_expect_eq(bits_of(r.y[i]), 0x7FC00000u, "1/%a: 0x%08x", (double)x[i], bits_of(r.y[i]));
    cr_expect_eq(bits_of(r.y[8]), 0u, "1/2^126: y0 = 0, 0 * (2 - 0) = 0");
    cr_expect_eq(bits_of(r.y[RECIP_EDGES]), 0x7FC00000u);
    /* three SFPLOADMACROs per 32 datums */
    expect_tile_cycles("recip3", x, &r, 3 * 32);
}

Test(sfpu_kernels, recip5)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    /* the first tile over the full-accuracy domain, the second half of the second tile above it */
    recip_inputs(x, 1024 + 512, 13, -126, 102);
    recip_inputs(x + 1536, 512, 14, 102, 126);
    memcpy(x, recip_edge, sizeof recip_edge);
    x[RECIP_EDGES] = float_of(0x7FC00000u);
    x[RECIP_EDGES + 1] = 0x1.fffffep101f; /* the top of the domain */
    x[RECIP_EDGES + 2] = 3.0f;
    run_kernel("recip5", x, tiles, &r);
    /* e^3 / (1 - e) < 1.8e-7 and the last rounding: two ulp */
    double worst = 0;
    cr_expect_eq(recip_bad(x, &r, 6, 8, 2.5e-7, &worst), 0);
    cr_expect_eq(recip_bad(x, &r, 10, 12, 2.5e-7, &worst), 0);
    cr_expect_eq(recip_bad(x, &r, RECIP_EDGES + 1, 1536, 2.5e-7, &worst), 0, "worst %g", worst);
    /* above 2^102 the dropped correction leaves at worst SFPARECIP's 0.56% */
    double top = 0;
    cr_expect_eq(recip_bad(x, &r, 1536, 2048, 0.0056, &top), 0);
    cr_expect_gt(top, 2.5e-7, "the correction is lost somewhere above 2^102 (%g)", top);
    /* 1.0: y0 = 0.99609375, e = 2^-8, s = 2^-8 + 2^-16, y = y0 + y0 s = 1 - 2^-24 */
    cr_expect_eq(bits_of(r.y[10]), 0x3F7FFFFFu);
    cr_expect_eq(bits_of(r.y[11]), 0xBF7FFFFFu);
    for (unsigned i = 0; i < 6; i++)
        cr_expect_eq(bits_of(r.y[i]), 0x7FC00000u, "1/%a: 0x%08x", (double)x[i], bits_of(r.y[i]));
    cr_expect_eq(bits_of(r.y[RECIP_EDGES]), 0x7FC00000u);
    /* four SFPLOADMACROs and an SFPNOP per 32 datums */
    expect_tile_cycles("recip5", x, &r, 5 * 32);
}

/* aexp, the method by itself (Schraudolph), written from its description in aexp.c: z = B - A x
 * rounded once to FP32 (A x is exact in double, 24 x 24 bits), rounded to the nearest integer
 * with ties away from zero and the sign dropped, saturating at 65535 (NaN and Inf too);
 * n = 65535 - that; the bits n << 15, flushed to +0 when n < 256 (a denormal, FP32 SFPSTORE). */
static uint32_t aexp_model(float x)
{
    const double a = 369.329925537109375, b = 33034.25; /* 0x43B8AA3B, 0x47010A40 */
    uint32_t xb = bits_of(x);
    if ((xb & 0x7F800000u) == 0)
        x = 0.0f; /* the MAD reads a denormal as 0 */
    const float z = (float)(b - a * (double)x);
    const double m = fabs((double)z);
    const uint32_t i = isnan(z) || m >= 65535.0 ? 65535u : (uint32_t)floor(m + 0.5);
    const uint32_t n = 65535u - (i > 65535u ? 65535u : i);
    return n < 256 ? 0u : n << 15;
}

Test(sfpu_kernels, aexp)
{
    static float x[N];
    static struct result r;
    const unsigned tiles = 2;
    static const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 10.0f, -10.0f, 0.5f, 1e-40f,
                                 /* 8..: clamped (below -87.3: n < 256, +0) */
                                 -87.5f, -88.0f, -88.5f, -89.0f, -100.0f, -1e30f, -FLT_MAX,
                                 -INFINITY,
                                 /* 16..: the ends of the domain */
                                 -87.25f, 88.72f, 88.75f};
    uint32_t s = 31;
    for (unsigned i = 0; i < 1024 * tiles; i++)
        x[i] = (float)uniform(&s, -87.30, 88.72);
    memcpy(x, edge, sizeof edge);
    x[19] = float_of(0xFFC00001u); /* -NaN */
    x[20] = float_of(0x7FC00000u); /* +NaN */
    x[21] = INFINITY;
    run_kernel("aexp", x, tiles, &r);
    /* the bound of aexp.c: |y / e^x - 1| <= 3.15% for -87.30 <= x <= 88.72 */
    unsigned bad = 0, off = 0;
    double worst = 0;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        const uint32_t got = bits_of(r.y[i]), want = aexp_model(x[i]);
        if (got != want && off++ < 5)
            cr_log_error("aexp(%a) = 0x%08x, the method gives 0x%08x", (double)x[i], got, want);
        if (i >= 8 && i < 22 && i != 16 && i != 17)
            continue; /* clamped, NaN, Inf, or e^x past FLT_MAX (88.75) */
        const double e = rel_err(r.y[i], exp((double)x[i]));
        worst = e > worst ? e : worst;
        if (e > 0.0315 && bad++ < 5)
            cr_log_error("aexp(%a) = %a, e^x %a (%g)", (double)x[i], (double)r.y[i],
                         exp((double)x[i]), e);
    }
    cr_expect_eq(off, 0);
    cr_expect_eq(bad, 0, "worst %g", worst);
    cr_expect_gt(worst, 0.03, "the bound is nearly reached (%g)", worst);
    /* worked by hand: x = 0: z = 33034.25, n = 65535 - 33034 = 32501 = 126 * 256 + 245:
     * 2^-1 (1 + 245/256) = 0.978515625; x = 1: z = 32664.92 (FP32 32664.919921875), n = 32870
     * = 128 * 256 + 102: 2 (1 + 102/256) = 2.796875; x = -1: z = 33403.578125, n = 32131 = 125
     * * 256 + 131; x = 10: z = 29340.951171875, n = 36194 */
    cr_expect_eq(bits_of(r.y[0]), 0x3F7A8000u);
    cr_expect_eq(bits_of(r.y[1]), 0x3F7A8000u, "-0 as 0");
    cr_expect_eq(bits_of(r.y[2]), 0x40330000u);
    cr_expect_eq(bits_of(r.y[3]), 0x3EC18000u);
    cr_expect_eq(bits_of(r.y[4]), 0x46B10000u);
    cr_expect_eq(bits_of(r.y[7]), 0x3F7A8000u, "a denormal reads as 0");
    /* clamped: every x below -87.3 down to -Inf, and NaN, give +0; +Inf too (outside the
     * domain: z = -Inf saturates like the bottom end) */
    for (unsigned i = 8; i < 16; i++)
        cr_expect_eq(bits_of(r.y[i]), 0u, "aexp(%a) = 0x%08x", (double)x[i], bits_of(r.y[i]));
    cr_expect_eq(bits_of(r.y[19]), 0u);
    cr_expect_eq(bits_of(r.y[20]), 0u);
    cr_expect_eq(bits_of(r.y[21]), 0u);
    /* -87.25: z = 65258.285..., n = 277, just normal; 88.75: z = 256.22, n = 65279, exponent 254 */
    cr_expect(r.y[16] > 0.0f && bits_of(r.y[16]) < 0x01000000u, "0x%08x", bits_of(r.y[16]));
    cr_expect_eq(bits_of(r.y[18]) >> 23, 254u, "0x%08x", bits_of(r.y[18]));
    /* one SFPLOADMACRO and one SFPIADD per 32 datums */
    expect_tile_cycles("aexp", x, &r, 64);
}

/* where: n cond tiles, n b tiles, n c tiles; the result over the b tiles, bit for bit */
Test(sfpu_kernels, where)
{
    static float x[N];
    static struct result r, r1;
    const unsigned n = 2;
    uint32_t s = 21;
    static const uint32_t cond_edge[] = {0, 0x80000000u, 0x7FC00000u, 0x00000001u, 0x3F800000u,
                                         0xFF800000u, 0, 0};
    static const uint32_t val_edge[] = {0x7FC00123u, 0xFFC00001u, 0x00000001u, 0x807FFFFFu,
                                        0x80000000u, 0x7F800000u, 0x00400000u, 0xFF800000u};
    for (unsigned i = 0; i < 1024 * n; i++) {
        x[i] = next(&s) % 2 ? 0.0f : (float)uniform(&s, -4.0, 4.0);
        x[1024 * n + i] = float_of(next(&s));
        x[2048 * n + i] = float_of(next(&s));
    }
    for (unsigned i = 0; i < 8; i++) {
        x[i] = float_of(cond_edge[i]);
        x[1024 * n + i] = float_of(val_edge[i]);
        x[2048 * n + i] = float_of(val_edge[7 - i]);
    }
    run_kernel("where", x, 3 * n, &r);
    unsigned bad = 0;
    for (unsigned i = 0; i < 1024 * n; i++) {
        const uint32_t want = bits_of(x[i]) ? bits_of(x[1024 * n + i]) : bits_of(x[2048 * n + i]);
        const uint32_t got = bits_of(r.y[1024 * n + i]);
        if (got != want && bad++ < 5)
            cr_log_error("datum %u: cond 0x%08x: 0x%08x, want 0x%08x", i, bits_of(x[i]), got, want);
    }
    cr_expect_eq(bad, 0);
    cr_expect_eq(bits_of(r.y[1024 * n + 1]), 0xFFC00001u, "-0.0 is a true condition");
    cr_expect_eq(bits_of(r.y[1024 * n + 3]), 0x807FFFFFu, "a denormal condition is true; b's denormal kept");
    cr_expect_eq(bits_of(r.y[1024 * n + 7]), 0x7FC00123u, "c's NaN payload comes through");
    /* the cond and c tiles are left as they were */
    for (unsigned i = 0; i < 1024 * n; i++)
        if (bits_of(r.y[i]) != bits_of(x[i]) || bits_of(r.y[2048 * n + i]) != bits_of(x[2048 * n + i]))
            cr_assert_fail("datum %u of cond or c changed", i);
    /* three loads per 32 datums: one output tile more costs 96 cycles */
    run_kernel("where", x, 3, &r1);
    cr_expect_eq(r.cycles - r1.cycles, 3 * 32, "%u cycles for two tiles, %u for one", r.cycles,
                 r1.cycles);
}
