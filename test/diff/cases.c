/* The differential test's cases: the matrix, seeded operand tiles, the parameter block, the exact
 * result for small-integer data, running a case on tensim in this process, and comparing
 * outputs. test/diff/cases.h. */
#include "cases.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../core/arch.h"
#include "../../core/tile.h"
#include "../../mem/elf.h"
#include "../../trace/stats.h"
#include "../../trace/trace.h"

/* ---- the case matrix ---------------------------------------------------------------------- */

#define F(l1, src) {DT_##l1, DT_##src}
static const struct dt_fmt FMT_BF16 = F(BF16, BF16), FMT_TF32 = F(FP32, TF32),
                           FMT_FP32_BF16 = F(FP32, BF16), FMT_FP16 = F(FP16, FP16),
                           FMT_FP32_FP16 = F(FP32, FP16), FMT_BFP8 = F(BFP8, BFP8),
                           FMT_BFP4 = F(BFP4, BFP4), FMT_BFP2 = F(BFP2, BFP2), FMT_FP8 = F(FP8, FP8);
#undef F

/* The 16-bit Dst a Src format goes with: ttsim's 16-bit Dst follows SrcA's exponent width, so
 * FP16 and FP8 operands get an FP16 Dst and the others BF16. */
static uint8_t native16(struct dt_fmt f)
{
    return f.src == DT_FP16 || f.src == DT_FP8 ? DT_FP16 : DT_BF16;
}

#define MAX_CASES 1024
static struct dt_case matrix[MAX_CASES];
static unsigned nmatrix;

static void add(enum dt_op op, struct dt_fmt a, struct dt_fmt b, enum dt_bspec bs, uint8_t dst,
                unsigned phases, unsigned flags, enum dt_prefill pre)
{
    if (nmatrix < MAX_CASES)
        matrix[nmatrix++] = (struct dt_case){op, a, b, bs, dst, (uint8_t)phases, (uint8_t)flags, pre,
                                             0, 0, 0, DT_PACK_ROWS, 0, 0};
}

/* A case of the tt-llk-shaped kernels (test/diff/llk.c): tiles rt x ct, a pack mode, where. */
static void add_llk(enum dt_op op, struct dt_fmt a, struct dt_fmt b, enum dt_bspec bs, uint8_t dst,
                    unsigned phases, unsigned rt, unsigned ct, enum dt_pack pack, unsigned archs)
{
    if (nmatrix < MAX_CASES)
        matrix[nmatrix++] = (struct dt_case){op, a, b, bs, dst, (uint8_t)phases, 0, PRE_NONE,
                                             (uint8_t)rt, (uint8_t)ct, 0, (uint8_t)pack, (uint8_t)archs, 0};
}

/* A matmul accumulating over kt tiles of the inner dimension. */
static void add_matmul_k(struct dt_fmt f, uint8_t dst, unsigned phases, unsigned rt, unsigned ct, unsigned kt)
{
    add_llk(DT_OP_MATMUL, f, f, B_DATA, dst, phases, rt, ct, DT_PACK_TILES, 0);
    if (nmatrix)
        matrix[nmatrix - 1].kt = (uint8_t)kt;
}

/* tt-llk's tilize (one, two or four tiles across a row-major block; Blackhole's whole-tile
 * form, Wormhole's and Blackhole's 8-bit face-by-face form): BF16, FP16 and FP8 through
 * MOVA2D, BF16 and TF32 into an FP32 Dst through ELWADD with a zero SrcB, FP32 unpacked
 * straight into Dst (tt-llk's lossless tilize); Blackhole's pack untilize of tiles that
 * MOVA2D, ELWADD or the unpacker put in Dst; matmul over rt x ct tiles. */
static void build_llk(void)
{
    const struct dt_fmt fp32_in = {DT_FP32, DT_FP32}, none = {DT_BF16, DT_BF16};
    for (unsigned ct = 1; ct <= 2; ct++) {
        add_llk(DT_OP_TILIZE, FMT_BF16, none, B_ZERO, DT_BF16, 1, 1, ct, DT_PACK_TILIZE, 0);
        add_llk(DT_OP_TILIZE, FMT_FP16, none, B_ZERO, DT_FP16, 1, 1, ct, DT_PACK_TILIZE, 0);
        add_llk(DT_OP_TILIZE, FMT_BF16, none, B_ZERO, DT_FP32, 1, 1, ct, DT_PACK_TILIZE, 0);
        add_llk(DT_OP_TILIZE, FMT_TF32, none, B_ZERO, DT_FP32, 1, 1, ct, DT_PACK_TILIZE, 0);
        add_llk(DT_OP_TILIZE, FMT_FP32_BF16, none, B_ZERO, DT_BF16, 1, 1, ct, DT_PACK_TILIZE, 0);
        add_llk(DT_OP_TILIZE, fp32_in, none, B_ZERO, DT_FP32, 1, 1, ct, DT_PACK_TILIZE, 0);
        add_llk(DT_OP_TILIZE, FMT_FP8, none, B_ZERO, DT_FP16, 1, 1, ct, DT_PACK_TILIZE, 0);
    }
    add_llk(DT_OP_TILIZE, FMT_BF16, none, B_ZERO, DT_BF16, 1, 1, 4, DT_PACK_TILIZE, 0);
    for (unsigned ct = 1; ct <= 2; ct++) {
        add_llk(DT_OP_MOVA2D, FMT_BF16, FMT_BF16, B_ZERO, DT_BF16, 1, 1, ct, DT_PACK_UNTILIZE, DT_ARCH_BH);
        add_llk(DT_OP_MOVA2D, FMT_FP16, FMT_FP16, B_ZERO, DT_FP16, 1, 1, ct, DT_PACK_UNTILIZE, DT_ARCH_BH);
        add_llk(DT_OP_MOVA2D, FMT_BFP8, FMT_BFP8, B_ZERO, DT_BF16, 1, 1, ct, DT_PACK_UNTILIZE, DT_ARCH_BH);
        add_llk(DT_OP_ELWADD, FMT_BF16, FMT_BF16, B_ZERO, DT_FP32, 1, 1, ct, DT_PACK_UNTILIZE, DT_ARCH_BH);
        add_llk(DT_OP_UNPACK, fp32_in, fp32_in, B_ZERO, DT_FP32, 1, 1, ct, DT_PACK_UNTILIZE, DT_ARCH_BH);
    }
    add_llk(DT_OP_MOVA2D, FMT_BF16, FMT_BF16, B_ZERO, DT_BF16, 1, 1, 4, DT_PACK_UNTILIZE, DT_ARCH_BH);
    static const uint8_t shapes[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 4}, {4, 1}};
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        add_llk(DT_OP_MATMUL, FMT_BF16, FMT_BF16, B_DATA, DT_FP32, 1, shapes[i][0], shapes[i][1],
                DT_PACK_TILES, 0);
    add_llk(DT_OP_MATMUL, FMT_BF16, FMT_BF16, B_DATA, DT_FP32, 4, 2, 2, DT_PACK_TILES, 0);
    add_llk(DT_OP_MATMUL, FMT_BF16, FMT_BF16, B_DATA, DT_BF16, 2, 2, 2, DT_PACK_TILES, 0);
    add_llk(DT_OP_MATMUL, FMT_FP16, FMT_FP16, B_DATA, DT_FP16, 4, 2, 2, DT_PACK_TILES, 0);
    add_llk(DT_OP_MATMUL, FMT_BFP8, FMT_BFP8, B_DATA, DT_FP32, 2, 2, 2, DT_PACK_TILES, 0);
    add_llk(DT_OP_MATMUL, FMT_TF32, FMT_TF32, B_DATA, DT_FP32, 4, 1, 2, DT_PACK_TILES, 0);
    add_llk(DT_OP_MATMUL, FMT_BF16, FMT_BFP8, B_DATA, DT_FP32, 3, 2, 1, DT_PACK_TILES, 0);
    add_matmul_k(FMT_BF16, DT_FP32, 1, 2, 2, 2);
    add_matmul_k(FMT_BF16, DT_FP32, 2, 2, 1, 2);
    add_matmul_k(FMT_BF16, DT_FP32, 1, 1, 1, 4);
    add_matmul_k(FMT_BFP8, DT_BF16, 4, 1, 2, 2);
}

/* The rest of the Src formats through the arithmetic (FP32 as BF16 or FP16, BFP4, BFP2, FP8),
 * mixed pairs of 8-bit-exponent formats, and INT8 math into an INT32 Dst. ttsim does not model
 * FP16 or FP8 with any other format, BFP2 in MVMUL, GAPOOL or GMPOOL, or INT8 in GMPOOL. */
static void build_formats(void)
{
    const struct dt_fmt more[] = {FMT_FP32_BF16, FMT_BFP4, FMT_BFP2, FMT_FP8, FMT_FP32_FP16};
    for (unsigned i = 0; i < sizeof more / sizeof more[0]; i++)
        for (unsigned d = 0; d < 2; d++) {
            const struct dt_fmt f = more[i];
            const uint8_t dst = d ? DT_FP32 : native16(f);
            for (unsigned op = DT_OP_ELWADD; op <= DT_OP_ELWSUB; op++) {
                add(op, f, f, B_DATA, dst, 1, 0, PRE_NONE);
                add(op, f, f, B_DATA, dst, 1, DT_ADD_DST, d ? PRE_UNPACK : PRE_MOVA2D);
            }
            add(DT_OP_ELWMUL, f, f, B_DATA, dst, 1, 0, PRE_NONE);
            add(DT_OP_ELWMUL, f, f, B_DATA, dst, 4, 0, PRE_NONE);
            if (f.src == DT_BFP2)
                continue;
            add(DT_OP_GAPOOL, f, f, B_DATA, dst, 4, 0, PRE_NONE);
            if (f.src == DT_FP8 || f.l1 != f.src)
                for (unsigned ph = 1; ph <= 4; ph *= 2)
                    if (f.src != DT_BF16) /* FP32 as BF16: the MVMUL rows above have it */
                        add(DT_OP_MVMUL, f, f, B_DATA, dst, ph, 0, PRE_NONE);
        }
    static const struct dt_fmt mixed[][2] = {{FMT_BF16, FMT_BFP4}, {FMT_BFP8, FMT_BFP2},
                                            {FMT_TF32, FMT_BFP8}, {FMT_FP32_BF16, FMT_BF16},
                                            {FMT_BFP4, FMT_TF32}};
    for (unsigned i = 0; i < sizeof mixed / sizeof mixed[0]; i++) {
        const struct dt_fmt a = mixed[i][0], b = mixed[i][1];
        add(DT_OP_ELWADD, a, b, B_DATA, DT_FP32, 1, 0, PRE_NONE);
        add(DT_OP_ELWMUL, a, b, B_DATA, DT_FP32, 4, 0, PRE_NONE);
        if (b.src == DT_BFP2)
            continue;
        add(DT_OP_MVMUL, a, b, B_DATA, DT_FP32, 4, 0, PRE_NONE);
        add(DT_OP_MVMUL, a, b, B_DATA, DT_BF16, 2, 0, PRE_NONE);
        add(DT_OP_GAPOOL, a, b, B_DATA, DT_FP32, 4, 0, PRE_NONE);
    }
    const struct dt_fmt pool[] = {FMT_FP32_BF16, FMT_BFP4};
    for (unsigned i = 0; i < 2; i++) {
        add(DT_OP_GMPOOL, pool[i], pool[i], B_ONE, DT_BF16, 1, 0, PRE_NONE);
        add(DT_OP_GMPOOL, pool[i], pool[i], B_ONE, DT_FP32, 1, 0, PRE_NONE);
    }
    const struct dt_fmt i8 = {DT_INT8, DT_INT8};
    add(DT_OP_ELWADD, i8, i8, B_DATA, DT_INT32, 1, 0, PRE_NONE);
    add(DT_OP_ELWSUB, i8, i8, B_DATA, DT_INT32, 1, 0, PRE_NONE);
    for (unsigned ph = 1; ph <= 4; ph++) {
        add(DT_OP_ELWMUL, i8, i8, B_DATA, DT_INT32, ph, 0, PRE_NONE);
        add(DT_OP_MVMUL, i8, i8, B_DATA, DT_INT32, ph, 0, PRE_NONE);
    }
    add(DT_OP_GAPOOL, i8, i8, B_DATA, DT_INT32, 1, 0, PRE_NONE);
    add(DT_OP_GAPOOL, i8, i8, B_DATA, DT_INT32, 4, 0, PRE_NONE);
}

/* What was compared with ttsim (docs/numerics.md): copies through the unpackers, Dst and the
 * packer; copies through the adder (A + 0); then the arithmetic, each in a 16-bit and an FP32
 * Dst. ttsim refuses MOVB2D of BFP2 and FP8 SrcB, so those are not here. */
static void build_matrix(void)
{
    const struct dt_fmt copy[] = {FMT_BF16, FMT_FP32_BF16, FMT_BFP8, FMT_BFP4, FMT_BFP2,
                                  FMT_FP16, FMT_FP32_FP16, FMT_FP8};
    const struct dt_fmt adder[] = {FMT_BF16, FMT_TF32, FMT_FP32_BF16, FMT_BFP8, FMT_BFP4,
                                   FMT_BFP2, FMT_FP16, FMT_FP32_FP16, FMT_FP8};
    const struct dt_fmt math[] = {FMT_BF16, FMT_TF32, FMT_FP16, FMT_BFP8, FMT_FP32_BF16, FMT_BFP4};
    const struct dt_fmt fp32_in = {DT_FP32, DT_FP32};

    add(DT_OP_UNPACK, fp32_in, fp32_in, B_DATA, DT_FP32, 1, 0, PRE_NONE);
    add(DT_OP_UNPACK, FMT_TF32, FMT_TF32, B_DATA, DT_FP32, 1, 0, PRE_NONE);
    for (unsigned i = 0; i < sizeof copy / sizeof copy[0]; i++) {
        add(DT_OP_MOVA2D, copy[i], copy[i], B_DATA, native16(copy[i]), 1, 0, PRE_NONE);
        if (copy[i].src != DT_BFP2 && copy[i].src != DT_FP8)
            add(DT_OP_MOVB2D, copy[i], copy[i], B_DATA, native16(copy[i]), 1, 0, PRE_NONE);
    }
    add(DT_OP_MOVA2D, FMT_TF32, FMT_TF32, B_DATA, DT_FP32, 1, 0, PRE_NONE);
    add(DT_OP_MOVB2D, FMT_TF32, FMT_TF32, B_DATA, DT_FP32, 1, 0, PRE_NONE);
    for (unsigned i = 0; i < sizeof adder / sizeof adder[0]; i++) {
        add(DT_OP_ELWADD, adder[i], adder[i], B_ZERO, native16(adder[i]), 1, 0, PRE_NONE);
        add(DT_OP_ELWADD, adder[i], adder[i], B_ZERO, DT_FP32, 1, 0, PRE_NONE);
    }
    for (unsigned op = DT_OP_ELWADD; op <= DT_OP_ELWSUB; op++)
        for (unsigned i = 0; i < 4; i++)
            for (unsigned d = 0; d < 2; d++) {
                uint8_t dst = d ? DT_FP32 : native16(math[i]);
                add(op, math[i], math[i], B_DATA, dst, 1, 0, PRE_NONE);
                add(op, math[i], math[i], B_DATA, dst, 1, DT_BCAST_ROW, PRE_NONE);
                add(op, math[i], math[i], B_DATA, dst, 1, DT_BCAST_COL0, PRE_NONE);
                add(op, math[i], math[i], B_DATA, dst, 1, DT_ADD_DST, d ? PRE_UNPACK : PRE_MOVA2D);
            }
    for (unsigned i = 0; i < 4; i++)
        for (unsigned d = 0; d < 2; d++) {
            uint8_t dst = d ? DT_FP32 : native16(math[i]);
            for (unsigned ph = 1; ph <= 4; ph++)
                add(DT_OP_ELWMUL, math[i], math[i], B_DATA, dst, ph, 0, PRE_NONE);
            add(DT_OP_ELWMUL, math[i], math[i], B_DATA, dst, 4, DT_BCAST_COL0, PRE_NONE);
            add(DT_OP_ELWMUL, math[i], math[i], B_DATA, dst, 2, 0, d ? PRE_UNPACK : PRE_MOVA2D);
        }
    for (unsigned i = 0; i < 6; i++)
        for (unsigned d = 0; d < 2; d++) {
            uint8_t dst = d ? DT_FP32 : native16(math[i]);
            for (unsigned ph = 1; ph <= 4; ph++)
                add(DT_OP_MVMUL, math[i], math[i], B_DATA, dst, ph, 0, PRE_NONE);
            add(DT_OP_MVMUL, math[i], math[i], B_DATA, dst, 4, 0, d ? PRE_UNPACK : PRE_MOVA2D);
        }
    add(DT_OP_MVMUL, FMT_BF16, FMT_BFP8, B_DATA, DT_FP32, 4, 0, PRE_NONE);
    add(DT_OP_MVMUL, FMT_TF32, FMT_BF16, B_DATA, DT_FP32, 4, 0, PRE_NONE);
    for (unsigned i = 0; i < 4; i++)
        for (unsigned d = 0; d < 2; d++) {
            add(DT_OP_GAPOOL, math[i], math[i], B_DATA, d ? DT_FP32 : native16(math[i]), 1, 0, PRE_NONE);
            add(DT_OP_GAPOOL, math[i], math[i], B_DATA, d ? DT_FP32 : native16(math[i]), 4, 0, PRE_NONE);
        }
    const struct dt_fmt pool[] = {FMT_BF16, FMT_TF32, FMT_BFP8};
    for (unsigned i = 0; i < 3; i++)
        for (unsigned d = 0; d < 2; d++) {
            uint8_t dst = d ? DT_FP32 : DT_BF16;
            add(DT_OP_GMPOOL, pool[i], pool[i], B_ONE, dst, 1, 0, PRE_NONE);
            add(DT_OP_GMPOOL, pool[i], pool[i], B_ONE, dst, 1, 0, d ? PRE_UNPACK : PRE_MOVA2D);
        }
    build_formats();
    build_llk();
    for (unsigned i = 0; i < dt_sfpu_rows() && nmatrix < MAX_CASES; i++) /* the vector unit's */
        matrix[nmatrix++] = (struct dt_case){.op = DT_OP_SFPU, .dst = dt_sfpu_dst(i), .phases = 1,
                                             .pack = DT_PACK_ROWS, .archs = (uint8_t)dt_sfpu_archs(i),
                                             .sfpu = (uint16_t)i};
}

unsigned dt_matrix(const struct dt_case **cases)
{
    if (!nmatrix)
        build_matrix();
    *cases = matrix;
    return nmatrix;
}

bool dt_case_on(const struct dt_case *c, bool wormhole)
{
    return !c->archs || (c->archs & (wormhole ? DT_ARCH_WH : DT_ARCH_BH));
}

unsigned dt_cases_on(bool wormhole, bool sfpu)
{
    const struct dt_case *cs;
    unsigned n = dt_matrix(&cs), k = 0;
    for (unsigned i = 0; i < n; i++)
        k += dt_case_on(&cs[i], wormhole) && (cs[i].op == DT_OP_SFPU) == sfpu;
    return k;
}

/* ---- names -------------------------------------------------------------------------------- */

static const char *fmt_name(unsigned f)
{
    switch (f) {
    case DT_FP32: return "fp32";
    case DT_FP16: return "fp16";
    case DT_TF32: return "tf32";
    case DT_BF16: return "bf16";
    case DT_BFP8: return "bfp8";
    case DT_BFP4: return "bfp4";
    case DT_BFP2: return "bfp2";
    case DT_FP8: return "fp8";
    case DT_INT8: return "int8";
    case DT_INT32: return "int32";
    default: return "?";
    }
}

static const char *const op_names[DT_OP_COUNT] = {
    [DT_OP_ELWADD] = "elwadd", [DT_OP_ELWSUB] = "elwsub", [DT_OP_ELWMUL] = "elwmul",
    [DT_OP_MVMUL] = "mvmul",   [DT_OP_GAPOOL] = "gapool", [DT_OP_GMPOOL] = "gmpool",
    [DT_OP_MOVA2D] = "mova2d", [DT_OP_MOVB2D] = "movb2d", [DT_OP_UNPACK] = "unpack",
    [DT_OP_TILIZE] = "tilize", [DT_OP_MATMUL] = "matmul",
};

static int fmt_str(char *buf, size_t n, struct dt_fmt f)
{
    return f.l1 == f.src ? snprintf(buf, n, "%s", fmt_name(f.l1))
                         : snprintf(buf, n, "%s:%s", fmt_name(f.l1), fmt_name(f.src));
}

/* "/ct2", "/2x2", "/untilize": the tiles and pack of the tt-llk-shaped cases */
static void llk_suffix(const struct dt_case *c, char *buf, size_t n)
{
    int k = 0;
    buf[0] = 0;
    if (c->op == DT_OP_MATMUL)
        k = c->kt > 1 ? snprintf(buf, n, "/%ux%uk%u", c->rt ? c->rt : 1, c->ct ? c->ct : 1, c->kt)
                      : snprintf(buf, n, "/%ux%u", c->rt ? c->rt : 1, c->ct ? c->ct : 1);
    else if (c->pack != DT_PACK_ROWS)
        k = snprintf(buf, n, "/ct%u", c->ct ? c->ct : 1);
    if (c->pack == DT_PACK_UNTILIZE && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, "/untilize");
}

void dt_case_name(const struct dt_case *c, char *buf, size_t n)
{
    char a[16], b[16], llk[32];
    if (c->op == DT_OP_SFPU) {
        snprintf(buf, n, "sfpu/%s", dt_sfpu_name(c->sfpu));
        return;
    }
    fmt_str(a, sizeof a, c->a);
    llk_suffix(c, llk, sizeof llk);
    if (c->op == DT_OP_TILIZE)
        snprintf(b, sizeof b, "-");
    else if (c->bspec == B_ZERO)
        snprintf(b, sizeof b, "zero");
    else if (c->bspec == B_ONE)
        snprintf(b, sizeof b, "one");
    else
        fmt_str(b, sizeof b, c->b);
    snprintf(buf, n, "%s/%s/%s/%s%s%s%s%s%s%s%s", op_names[c->op], a, b, fmt_name(c->dst),
             c->phases > 1 ? (const char *[]){"", "", "/p2", "/p3", "/p4"}[c->phases] : "",
             c->flags & DT_BCAST_ROW ? "/row" : "", c->flags & DT_BCAST_COL0 ? "/col0" : "",
             c->flags & DT_ADD_DST ? "/adddst" : "",
             c->prefill == PRE_UNPACK ? "/pre-unpack" : "",
             c->prefill == PRE_MOVA2D ? "/pre-mova2d" : "", llk);
}

const struct dt_case *dt_case_by_name(const char *name)
{
    const struct dt_case *cs;
    unsigned nc = dt_matrix(&cs);
    char cn[160];
    for (unsigned i = 0; i < nc; i++) {
        dt_case_name(&cs[i], cn, sizeof cn);
        if (!strcmp(cn, name))
            return &cs[i];
    }
    return NULL;
}

static const char *const data_names[DATA_COUNT] = {"rand", "edge", "int"};
const char *dt_data_name(enum dt_data d) { return data_names[d]; }
int dt_data_by_name(const char *s)
{
    for (int i = 0; i < DATA_COUNT; i++)
        if (!strcmp(s, data_names[i]))
            return i;
    return -1;
}

/* ---- seeded data -------------------------------------------------------------------------- */

/* splitmix64: small, fast, and the same stream on every host */
uint64_t dt_next(struct dt_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
uint32_t dt_below(struct dt_rng *r, uint32_t n) { return (uint32_t)(dt_next(r) % n); }
static int range(struct dt_rng *r, int lo, int hi) { return lo + (int)dt_below(r, (uint32_t)(hi - lo + 1)); }
/* true with probability p/1000 */
static bool chance(struct dt_rng *r, unsigned p) { return dt_below(r, 1000) < p; }

#define N 1024 /* datums in a tile: 64 Src rows of 16 */

/* A tile's datums as they sit in L1 (BFP: magnitude with the sign on top, plus one shared
 * exponent per 16 datums). */
struct tile_data {
    uint32_t d[N];
    uint8_t exp[N / 16];
};

static unsigned datum_bits(unsigned f)
{
    switch (f) {
    case DT_FP32: case DT_TF32: return 32;
    case DT_BF16: case DT_FP16: return 16;
    case DT_BFP4: return 4;
    case DT_BFP2: return 2;
    default: return 8; /* FP8, BFP8 */
    }
}
static bool is_bfp(unsigned f) { return f == DT_BFP8 || f == DT_BFP4 || f == DT_BFP2; }

/* Exponent and mantissa widths of a non-block L1 format. */
static void float_shape(unsigned f, unsigned *eb, unsigned *mb)
{
    switch (f) {
    case DT_FP32: *eb = 8, *mb = 23; break;
    case DT_BF16: *eb = 8, *mb = 7; break;
    case DT_FP16: *eb = 5, *mb = 10; break;
    default: *eb = 5, *mb = 2; break; /* FP8 (E5M2) */
    }
}

/* An exactly representable value (small integers, 1.0) in a float format. */
static uint32_t encode_exact(int v, unsigned eb, unsigned mb)
{
    if (!v)
        return 0;
    uint32_t s = v < 0;
    unsigned m = (unsigned)(v < 0 ? -v : v);
    int e = 0;
    while (m >> (e + 1))
        e++;
    /* the bits below the leading one, moved to the top of the mantissa (exact: the callers'
     * values have at most mb + 1 significant bits) */
    uint32_t low = m - (1u << e);
    uint32_t frac = (unsigned)e <= mb ? low << (mb - (unsigned)e) : low >> ((unsigned)e - mb);
    return s << (eb + mb) | (uint32_t)(e + (1 << (eb - 1)) - 1) << mb | frac;
}

/* A biased exponent: edge data favours the ends of the range. */
static unsigned pick_exp(struct dt_rng *r, enum dt_data d, unsigned eb)
{
    unsigned emax = (1u << eb) - 1, bias = emax / 2;
    if (d == DATA_EDGE) {
        unsigned x = dt_below(r, 1000);
        if (x < 60) return 0;                          /* zero, denormal */
        if (x < 100) return emax;                      /* the all-ones exponent */
        if (x < 140) return emax - 1;                  /* the largest finite binade */
        if (x < 180) return 1;                         /* the smallest normal binade */
        if (x < 220) return (unsigned)range(r, 1, (int)emax - 1);
    }
    int spread = eb == 5 ? 6 : 10;
    int e = (int)bias + range(r, -spread, spread);
    return (unsigned)(e < 1 ? 1 : e > (int)emax - 1 ? (int)emax - 1 : e);
}

static void gen_tile(struct dt_rng *r, enum dt_data d, enum dt_bspec spec, unsigned f,
                     struct tile_data *t)
{
    memset(t, 0, sizeof *t);
    if (spec == B_ZERO)
        return;
    if (is_bfp(f)) {
        unsigned bits = datum_bits(f), top = 1u << (bits - 1);
        for (unsigned blk = 0; blk < N / 16; blk++) {
            t->exp[blk] = (uint8_t)(spec == B_ONE ? 127 : d == DATA_INT ? 130 : pick_exp(r, d, 8));
            for (unsigned i = 16 * blk; i < 16 * blk + 16; i++) {
                if (spec == B_ONE) {
                    t->d[i] = 1u << (bits - 2); /* 0.1 x 2^(127 - 127 + 1) = 1.0 */
                } else if (d == DATA_INT) {
                    int lim = (int)(bits - 2 >= 3 ? 8 : 1u << (bits - 2)), v = range(r, -lim, lim);
                    t->d[i] = (v < 0 ? top : 0) | (unsigned)(v < 0 ? -v : v);
                } else {
                    t->d[i] = (uint32_t)dt_next(r) & ((1u << bits) - 1);
                    if (d == DATA_EDGE && chance(r, 80))
                        t->d[i] &= top; /* +0, or the sign with magnitude 0 */
                }
            }
        }
        return;
    }
    if (f == DT_INT8) { /* sign-magnitude bytes */
        static const uint8_t edge[] = {0x00, 0x80, 0x7F, 0xFF, 0x01, 0x81, 0x40, 0xC0};
        for (unsigned i = 0; i < N; i++) {
            int v = d == DATA_INT ? range(r, -8, 8) : 0;
            t->d[i] = d == DATA_INT ? (v < 0 ? 0x80u | (unsigned)-v : (unsigned)v)
                    : d == DATA_EDGE && chance(r, 300) ? edge[dt_below(r, sizeof edge)]
                                                       : (uint32_t)dt_next(r) & 0xFF;
        }
        return;
    }
    unsigned eb, mb;
    float_shape(f, &eb, &mb);
    for (unsigned i = 0; i < N; i++) {
        if (spec == B_ONE) {
            t->d[i] = encode_exact(1, eb, mb);
            continue;
        }
        if (d == DATA_INT) {
            t->d[i] = encode_exact(range(r, -8, 8), eb, mb);
            continue;
        }
        uint32_t s = (uint32_t)dt_next(r) & 1, e = pick_exp(r, d, eb);
        uint32_t m = (uint32_t)dt_next(r) & ((1u << mb) - 1);
        if (d == DATA_EDGE) {
            unsigned x = dt_below(r, 1000);
            if (x < 50)
                m = 0;
            else if (x < 80)
                m = (1u << mb) - 1;
            if (e == 0 && chance(r, 400))
                m = 0; /* +-0 */
        }
        t->d[i] = s << (eb + mb) | e << mb | m;
    }
}

/* 16-byte header, BFP exponents (64 bytes, a multiple of 16), then the packed datums. */
static uint32_t tile_bytes(unsigned f, const struct tile_data *t, uint8_t *out)
{
    uint32_t n = 16;
    memset(out, 0, 16);
    if (is_bfp(f)) {
        memcpy(out + n, t->exp, N / 16);
        n += N / 16;
    }
    unsigned bits = datum_bits(f);
    for (unsigned i = 0; i < N; i++) {
        uint32_t v = t->d[i];
        if (bits >= 8) {
            for (unsigned k = 0; k < bits / 8; k++)
                out[n + i * (bits / 8) + k] = (uint8_t)(v >> 8 * k);
        } else {
            uint8_t *p = &out[n + i * bits / 8];
            unsigned sh = (i * bits) % 8;
            if (!sh)
                *p = 0;
            *p |= (uint8_t)((v & ((1u << bits) - 1)) << sh);
        }
    }
    return n + N * bits / 8;
}

/* ---- exact values (int data) ----------------------------------------------------------- */

/* A datum's value as unpacked; exact for the data DATA_INT makes. */
static double src_value(unsigned f, const struct tile_data *t, unsigned i)
{
    uint32_t v = t->d[i];
    if (f == DT_INT8)
        return v & 0x80 ? -(double)(v & 0x7F) : (double)(v & 0x7F);
    if (is_bfp(f)) {
        unsigned bits = datum_bits(f), mag = v & ((1u << (bits - 1)) - 1);
        double x = ldexp(mag, (int)t->exp[i / 16] - 127 + 1 - (int)(bits - 1));
        return v >> (bits - 1) ? -x : x;
    }
    unsigned eb, mb;
    float_shape(f, &eb, &mb);
    unsigned e = v >> mb & ((1u << eb) - 1);
    double x = e ? ldexp(1.0 + ldexp(v & ((1u << mb) - 1), -(int)mb), (int)e - (1 << (eb - 1)) + 1) : 0;
    return v >> (eb + mb) ? -x : x;
}

/* x in the Dst format (its bits), if exactly representable there. */
static bool exact_bits(double x, uint8_t dst, uint32_t *bits)
{
    if (dst == DT_INT32) { /* sign-magnitude */
        if (x != floor(x) || fabs(x) > 0x7FFFFFFF)
            return false;
        *bits = (x < 0 ? 0x80000000u : 0) | (uint32_t)fabs(x);
        return true;
    }
    union { float f; uint32_t u; } v = {.f = (float)x};
    if ((double)v.f != x)
        return false;
    if (dst == DT_FP32) {
        *bits = v.u;
        return true;
    }
    if (dst == DT_BF16) {
        *bits = v.u >> 16;
        return !(v.u & 0xFFFF);
    }
    /* FP16 as the coprocessor has it: exponent 31 is finite, no denormals in results */
    if (x == 0) {
        *bits = v.u >> 16 & 0x8000;
        return true;
    }
    int e = (int)(v.u >> 23 & 0xFF) - 127 + 15;
    if (e < 1 || e > 31 || (v.u & 0x1FFF))
        return false;
    *bits = (v.u >> 16 & 0x8000) | (uint32_t)e << 10 | (v.u >> 13 & 0x3FF);
    return true;
}

/* A product as the matrix unit makes it over the case's fidelity phases: the plain product for
 * floating point (DATA_INT values have no bits below any phase's slices), and for INT8 the sum
 * of each phase's slice products: SrcA magnitude bits 7..5 in even phases and 4..0 in odd ones,
 * SrcB bits 9..4 in phases 0 and 1 and 3..0 in 2 and 3 (docs/numerics.md "INT8"). */
static double product(const struct dt_case *c, double a, double b)
{
    if (c->a.src != DT_INT8)
        return a * b;
    unsigned ma = (unsigned)fabs(a), mb = (unsigned)fabs(b), s = 0;
    for (unsigned p = 0; p < c->phases; p++)
        s += (ma & (p & 1 ? 0x1Fu : 0xE0u)) * (mb & (p & 2 ? 0x0Fu : 0x3F0u));
    return (a < 0) != (b < 0) ? -(double)s : (double)s;
}

/* What the kernel's instruction sequence computes with exact arithmetic: Dst rows 0..63 after
 * the op, from SrcA/SrcB values A, B and Dst before it. */
static void reference(const struct dt_case *c, const double A[64][16], const double B[64][16],
                      double D[64][16])
{
    bool row = c->flags & DT_BCAST_ROW, col = c->flags & DT_BCAST_COL0;
    switch (c->op) {
    case DT_OP_ELWADD: case DT_OP_ELWSUB: case DT_OP_ELWMUL:
        for (unsigned r = 0; r < 64; r++)
            for (unsigned j = 0; j < 16; j++) {
                double a = A[r][j], b = B[row ? 0 : r][col ? 0 : j]; /* row: SrcB row 0 for all */
                if (c->op == DT_OP_ELWMUL)
                    D[r][j] += product(c, a, b);
                else
                    D[r][j] = (c->flags & DT_ADD_DST ? D[r][j] : 0) + (c->op == DT_OP_ELWADD ? a + b : a - b);
            }
        break;
    case DT_OP_MVMUL:
        for (unsigned i = 0; i < 2; i++)
            for (unsigned j = 0; j < 2; j++)
                for (unsigned r = 0; r < 16; r++)
                    for (unsigned col2 = 0; col2 < 16; col2++) {
                        double s = 0;
                        for (unsigned k = 0; k < 2; k++)
                            for (unsigned t = 0; t < 16; t++)
                                s += product(c, B[16 * (2 * i + k) + r][t], A[16 * (2 * k + j) + t][col2]);
                        D[16 * (2 * i + j) + r][col2] += s;
                    }
        break;
    case DT_OP_GAPOOL:
        for (unsigned g = 0; g < 16; g++)
            for (unsigned r = 0; r < 4; r++)
                for (unsigned j = 0; j < 16; j++) {
                    double s = 0;
                    for (unsigned t = 0; t < 16; t++)
                        s += product(c, B[8 * (g % 8) + r][t], A[16 * (g / 4) + t][j]);
                    D[4 * g + r][j] += s;
                }
        break;
    case DT_OP_GMPOOL: /* WH:GMPOOL.md: the max into the block's top row, zero below it */
        for (unsigned g = 0; g < 4; g++)
            for (unsigned j = 0; j < 16; j++) {
                double m = D[4 * g][j];
                for (unsigned t = 0; t < 16; t++)
                    m = A[16 * g + t][j] > m ? A[16 * g + t][j] : m;
                D[4 * g][j] = m;
                D[4 * g + 1][j] = D[4 * g + 2][j] = D[4 * g + 3][j] = 0;
            }
        break;
    case DT_OP_MOVA2D: case DT_OP_UNPACK:
        memcpy(D, A, sizeof(double[64][16]));
        break;
    case DT_OP_MOVB2D:
        memcpy(D, B, sizeof(double[64][16]));
        break;
    default:
        break;
    }
}

/* ---- inputs --------------------------------------------------------------------------- */

void dt_put_words(struct dt_load *l, uint32_t addr, const uint32_t *w, unsigned n)
{
    l->addr = addr;
    l->len = 4 * n;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 4; k++)
            l->bytes[4 * i + k] = (uint8_t)(w[i] >> 8 * k);
}

static void stage_words(uint32_t *w, enum dt_op op, uint32_t a_addr, struct dt_fmt a,
                        uint32_t b_addr, struct dt_fmt b, unsigned phases, unsigned flags)
{
    memset(w, 0, sizeof(struct dt_stage));
    w[0] = op, w[1] = a_addr, w[2] = a.l1, w[3] = a.src, w[4] = b_addr, w[5] = b.l1, w[6] = b.src;
    w[7] = phases, w[8] = flags;
}

/* ---- inputs of the tt-llk-shaped cases ------------------------------------------------- */

/* Where datum (r, c) of a 32x32 tile sits in face order (four 16x16 faces, each row-major). */
static unsigned face_index(unsigned r, unsigned c)
{
    return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16;
}

/* Tiles one after the other (BFP: each tile's exponents, then its datums) after a 16-byte
 * header: tile t's base address is then header + t * its size, in 16-byte units. */
static uint32_t block_bytes(unsigned f, const struct tile_data *t, unsigned n, uint8_t *out)
{
    static uint8_t one[16 + 64 + 4096];
    uint32_t len = 16;
    memset(out, 0, 16);
    for (unsigned i = 0; i < n; i++) {
        uint32_t k = tile_bytes(f, &t[i], one) - 16;
        memcpy(out + len, one + 16, k);
        len += k;
    }
    return len;
}

/* A row-major 32 x 32n block after a 16-byte header: column c of row r is datum
 * (r, c % 32) of tile c / 32 (the tile's own datums read row-major). */
static uint32_t rowmajor_bytes(unsigned f, const struct tile_data *t, unsigned n, uint8_t *out)
{
    const unsigned w = datum_bits(f) / 8;
    memset(out, 0, 16);
    for (unsigned r = 0; r < 32; r++)
        for (unsigned c = 0; c < 32 * n; c++)
            for (unsigned k = 0; k < w; k++)
                out[16 + (r * 32 * n + c) * w + k] = (uint8_t)(t[c / 32].d[r * 32 + c % 32] >> 8 * k);
    return 16 + 32 * 32 * n * w;
}

/* The exact output of a tt-llk-shaped case (values as unpacked, exact for int data), in the
 * order the pack writes it; false if a value has no exact Dst format bits. */
static bool llk_reference(const struct dt_case *c, const struct tile_data *ta, const struct tile_data *tb,
                          struct dt_inputs *in)
{
    const unsigned rt = c->rt ? c->rt : 1, ct = c->ct ? c->ct : 1, kt = c->kt ? c->kt : 1;
    /* ELWADD with a zero SrcB makes -0 into +0 (docs/numerics.md) */
    const bool adds = c->op == DT_OP_ELWADD || (c->op == DT_OP_TILIZE && c->dst == DT_FP32 && c->a.src != DT_FP32);
    for (unsigned t = 0; t < (c->op == DT_OP_MATMUL ? rt * ct : ct); t++)
        for (unsigned r = 0; r < 32; r++)
            for (unsigned col = 0; col < 32; col++) {
                double x = 0;
                unsigned o;
                if (c->op == DT_OP_MATMUL) {
                    const unsigned i = t / ct, j = t % ct;
                    for (unsigned q = 0; q < kt; q++)
                        for (unsigned k = 0; k < 32; k++)
                            x += src_value(c->b.l1, &tb[i * kt + q], face_index(r, k)) *
                                 src_value(c->a.l1, &ta[q * ct + j], face_index(k, col));
                    o = t * 1024 + face_index(r, col);
                } else if (c->op == DT_OP_TILIZE) {
                    x = src_value(c->a.l1, &ta[t], r * 32 + col);
                    o = t * 1024 + face_index(r, col);
                } else { /* untilize: row r of the block, column 32t + col */
                    x = src_value(c->a.l1, &ta[t], face_index(r, col));
                    o = r * 32 * ct + 32 * t + col;
                }
                if (adds)
                    x += 0.0;
                if (!exact_bits(x, c->dst, &in->exact[o]))
                    return false;
            }
    return true;
}

static void llk_inputs(const struct dt_case *c, enum dt_data d, uint32_t seed, bool ecall,
                       struct dt_inputs *in)
{
    static struct tile_data ta[DT_MAX_TILES], tb[DT_MAX_TILES], zero;
    const unsigned rt = c->rt ? c->rt : 1, ct = c->ct ? c->ct : 1, kt = c->kt ? c->kt : 1;
    const unsigned tiles = c->op == DT_OP_MATMUL ? rt * ct : ct;
    const unsigned na = c->op == DT_OP_MATMUL ? kt * ct : ct, nb = c->op == DT_OP_MATMUL ? rt * kt : 0;
    struct dt_rng r = {.s = seed * 0x100000001B3ull + 1};
    memset(in, 0, sizeof *in);
    for (unsigned t = 0; t < na; t++)
        gen_tile(&r, d, B_DATA, c->a.l1, &ta[t]);
    for (unsigned t = 0; t < nb; t++)
        gen_tile(&r, d, B_DATA, c->b.l1, &tb[t]);
    gen_tile(&r, d, B_ZERO, c->b.l1, &zero);

    uint32_t p[sizeof(struct dt_params) / 4] = {DT_MAGIC, 1, c->dst == DT_FP32, c->dst == DT_FP32 ? DT_BF16 : c->dst,
                                                64, ecall, c->pack, tiles};
    uint32_t *st = p + offsetof(struct dt_params, st) / 4;
    const uint32_t b_addr = c->op == DT_OP_MATMUL ? DT_BLK_B : DT_TILE_B;
    stage_words(st, c->op, DT_BLK_A, c->a, b_addr, c->b, c->phases, DT_ZERO_DST);
    st[offsetof(struct dt_stage, rt) / 4] = rt;
    st[offsetof(struct dt_stage, ct) / 4] = ct;
    st[offsetof(struct dt_stage, kt) / 4] = kt;
    dt_put_words(&in->load[in->nload++], DT_PARAMS, p, sizeof p / 4);

    struct dt_load *l = &in->load[in->nload++];
    l->addr = DT_BLK_A;
    l->len = c->op == DT_OP_TILIZE ? rowmajor_bytes(c->a.l1, ta, ct, l->bytes) : block_bytes(c->a.l1, ta, na, l->bytes);
    l = &in->load[in->nload++];
    l->addr = b_addr;
    l->len = nb ? block_bytes(c->b.l1, tb, nb, l->bytes) : tile_bytes(c->b.l1, &zero, l->bytes);
    in->out_bytes = c->dst == DT_FP32 ? 4 : 2;
    in->out_len = tiles * 1024 * in->out_bytes;
    /* tilize and untilize only move datums: exact for int data and for rand data (ordinary
     * values) unless the unpacker narrows them (FP32 to TF32 or BF16) or they are BFP (a sign
     * with magnitude 0 unpacks as -inf); edge data goes through the packer's conversions (-0
     * to +0, denormals flushed) */
    const bool narrows = (c->a.l1 == DT_FP32 && c->a.src != DT_FP32) || is_bfp(c->a.l1);
    if (d == DATA_INT || (d == DATA_RAND && c->op != DT_OP_MATMUL && !narrows))
        in->has_exact = llk_reference(c, ta, tb, in);
}

static bool is_llk(const struct dt_case *c)
{
    return c->op == DT_OP_TILIZE || c->op == DT_OP_MATMUL || c->pack != DT_PACK_ROWS;
}

void dt_inputs(const struct dt_case *c, enum dt_data d, uint32_t seed, bool ecall,
               struct dt_inputs *in)
{
    static struct tile_data A, B, C; /* the host side of a run is single-threaded */
    if (c->op == DT_OP_SFPU) {
        dt_sfpu_inputs(c->sfpu, d, seed, ecall, in);
        return;
    }
    if (is_llk(c)) {
        llk_inputs(c, d, seed, ecall, in);
        return;
    }
    struct dt_rng r = {.s = seed * 0x100000001B3ull + 1};
    memset(in, 0, sizeof *in);
    gen_tile(&r, d, B_DATA, c->a.l1, &A);
    gen_tile(&r, d, c->bspec, c->b.l1, &B);
    if (c->op == DT_OP_GMPOOL) /* ttsim: GMPOOL needs SrcB's row to be 1.0 */
        gen_tile(&r, d, B_ONE, c->b.l1, &B);
    struct dt_fmt cf = c->prefill == PRE_UNPACK ? (struct dt_fmt){DT_FP32, DT_FP32} : c->a;
    if (c->prefill != PRE_NONE)
        gen_tile(&r, d, B_DATA, cf.l1, &C);
    /* edge data for ELWADD/ELWSUB: pairs that cancel at every 7th datum */
    if (d == DATA_EDGE && (c->op == DT_OP_ELWADD || c->op == DT_OP_ELWSUB) && c->bspec == B_DATA &&
        c->a.l1 == c->b.l1 && !is_bfp(c->a.l1))
        for (unsigned i = 0; i < N; i += 7)
            B.d[i] = A.d[i] ^ (c->op == DT_OP_ELWADD ? 1u << (datum_bits(c->a.l1) - 1) : 0);

    const bool d32 = c->dst == DT_FP32 || c->dst == DT_INT32;
    uint32_t p[sizeof(struct dt_params) / 4] = {DT_MAGIC, 0, d32, d32 ? DT_BF16 : c->dst, 64, ecall};
    p[offsetof(struct dt_params, int8) / 4] = c->dst == DT_INT32;
    unsigned ns = 0;
    uint32_t *st = p + offsetof(struct dt_params, st) / 4;
    const unsigned sw = sizeof(struct dt_stage) / 4;
    if (c->prefill != PRE_NONE)
        stage_words(st + sw * ns++, c->prefill == PRE_UNPACK ? DT_OP_UNPACK : DT_OP_MOVA2D, DT_TILE_C, cf,
                    DT_TILE_C, cf, 1, DT_ZERO_DST);
    struct dt_fmt af = c->a;
    stage_words(st + sw * ns++, c->op, DT_TILE_A, af, DT_TILE_B, c->b, c->phases,
                c->flags | (c->prefill == PRE_NONE ? DT_ZERO_DST : 0));
    p[1] = ns;

    dt_put_words(&in->load[in->nload++], DT_PARAMS, p, sizeof p / 4);
    struct dt_load *l = &in->load[in->nload++];
    l->addr = DT_TILE_A, l->len = tile_bytes(c->a.l1, &A, l->bytes);
    l = &in->load[in->nload++];
    l->addr = DT_TILE_B, l->len = tile_bytes(c->b.l1, &B, l->bytes);
    if (c->prefill != PRE_NONE) {
        l = &in->load[in->nload++];
        l->addr = DT_TILE_C, l->len = tile_bytes(cf.l1, &C, l->bytes);
    }
    in->out_bytes = d32 ? 4 : 2;
    in->out_len = 64 * 16 * in->out_bytes;

    /* a move of TF32 Src rows into a 16-bit Dst copies bits, not values: no exact result */
    bool raw_move = c->dst != DT_FP32 && c->a.src == DT_TF32 &&
                    (c->prefill == PRE_MOVA2D || c->op == DT_OP_MOVA2D || c->op == DT_OP_MOVB2D);
    if (d != DATA_INT || raw_move)
        return;
    static double a[64][16], b[64][16], dd[64][16];
    for (unsigned i = 0; i < N; i++) {
        a[i / 16][i % 16] = src_value(c->a.l1, &A, i);
        b[i / 16][i % 16] = src_value(c->b.l1, &B, i);
        dd[i / 16][i % 16] = c->prefill != PRE_NONE ? src_value(cf.l1, &C, i) : 0;
    }
    reference(c, a, b, dd);
    in->has_exact = true;
    for (unsigned i = 0; i < N && in->has_exact; i++)
        in->has_exact = exact_bits(dd[i / 16][i % 16], c->dst, &in->exact[i]);
}

/* ---- running on tensim ------------------------------------------------------------------ */

void dt_run_tensim(bool wormhole, const char *elf, const struct dt_inputs *in, struct dt_result *r)
{
    dt_run_tensim_report(wormhole, elf, in, r, NULL, NULL);
}

void dt_run_tensim_report(bool wormhole, const char *elf, const struct dt_inputs *in,
                          struct dt_result *r, FILE *stats, FILE *trace)
{
    memset(r, 0, sizeof *r);
    struct tile *t = tile_create(arch_get(wormhole ? ARCH_WORMHOLE : ARCH_BLACKHOLE));
    if (!t) {
        snprintf(r->why, sizeof r->why, "tensim: out of memory");
        return;
    }
    for (unsigned i = 0; i < in->nload; i++) {
        memcpy(t->l1 + in->load[i].addr, in->load[i].bytes, in->load[i].len);
        tile_code_written(t, in->load[i].addr, in->load[i].len);
    }
    struct tracer tracer;
    if (trace) {
        trace_begin(&tracer, trace, t);
        t->tracer = &tracer;
    }
    if (elf_load_file(t, 0, elf) == 0)
        tile_run(t, 20000000);
    if (trace) {
        trace_end(&tracer);
        t->tracer = 0;
    }
    if (stats)
        stats_json(t, NULL, stats);
    uint32_t done, rc, stage;
    memcpy(&done, t->l1 + DT_MAILBOX, 4);
    memcpy(&rc, t->l1 + DT_MAILBOX + 16, 4);
    memcpy(&stage, t->l1 + DT_STATUS, 4);
    if (t->err.kind != ERR_NONE)
        snprintf(r->why, sizeof r->why, "tensim: %s: %s: %.300s", err_kind_text(t->err.kind),
                 t->err.where, t->err.text);
    else if (done != DT_DONE)
        snprintf(r->why, sizeof r->why, "tensim: the kernel did not finish (stage %u)", stage);
    else if (rc)
        snprintf(r->why, sizeof r->why, "tensim: the kernel returned %u", rc);
    else {
        r->ok = true;
        memcpy(r->out, t->l1 + DT_OUT, in->out_len);
    }
    tile_destroy(t);
}

/* ---- comparing ------------------------------------------------------------------------ */

uint64_t dt_hash(const uint8_t *b, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static uint32_t datum(const struct dt_inputs *in, const uint8_t *b, unsigned i)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < in->out_bytes; k++)
        v |= (uint32_t)b[i * in->out_bytes + k] << 8 * k;
    return v;
}

unsigned dt_compare(const struct dt_inputs *in, const uint8_t *a, const char *la, const uint8_t *b,
                    const char *lb, unsigned examples, void *f)
{
    unsigned bad = 0, n = in->out_len / in->out_bytes;
    int w = (int)in->out_bytes * 2;
    for (unsigned i = 0; i < n; i++) {
        uint32_t x = datum(in, a, i), y = datum(in, b, i);
        if (x == y)
            continue;
        if (f && bad < examples)
            fprintf(f, "    row %2u col %2u: %s %0*x, %s %0*x\n", i / 16, i % 16, la, w, x, lb, w, y);
        bad++;
    }
    return bad;
}

/* ---- full tiles ------------------------------------------------------------------------- */

const char *const dt_tile_runs[][3] = {
    {"mvmul/bf16/bf16/fp32/p4", "rand", "1"},
    {"mvmul/bfp4/bfp4/bf16/p4/pre-mova2d", "edge", "1"},
    {"elwadd/bf16/bf16/bf16", "edge", "1"},
    {"elwsub/fp32:tf32/fp32:tf32/fp32/adddst/pre-unpack", "rand", "1"},
    {"elwmul/fp16/fp16/fp16/p2", "edge", "1"},
    {"gapool/bf16/bf16/fp32/p4", "rand", "1"},
    {"gmpool/bf16/one/bf16", "edge", "1"},
    {"mova2d/bfp8/bfp8/bf16", "edge", "1"},
    {"tilize/bf16/-/bf16/ct1", "rand", "1"},
    {"mova2d/bf16/zero/bf16/ct1/untilize", "rand", "1"},
    {"matmul/bf16/bf16/fp32/1x1", "rand", "1"},
    {"sfpu/iadd/add-cc", "int", "1"},
    {"sfpu/compc/nested", "edge", "1"},
    {"sfpu/ldst/srcb-srcb/fp16", "edge", "1"},
    {NULL, NULL, NULL}, /* single-tile outputs only: a record holds 1024 datums */
};

void dt_tile_write(void *fp, const char *arch, const char *name, const char *data, unsigned seed,
                   const struct dt_inputs *in, const uint8_t *out)
{
    FILE *f = fp;
    fprintf(f, "tile %s %s %s %u %u\n", arch, name, data, seed, in->out_bytes);
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++)
            fprintf(f, "%0*x%c", (int)in->out_bytes * 2, datum(in, out, 16 * r + c), c == 15 ? '\n' : ' ');
}

int dt_tile_read(void *fp, struct dt_tile_rec *r)
{
    FILE *f = fp;
    char line[400];
    do
        if (!fgets(line, sizeof line, f))
            return 0;
    while (line[0] == '#' || line[0] == '\n');
    if (sscanf(line, "tile %7s %159s %15s %u %u", r->arch, r->name, r->data, &r->seed, &r->bytes) != 5 ||
        (r->bytes != 2 && r->bytes != 4))
        return -1;
    for (unsigned i = 0; i < 64 * 16; i++)
        if (fscanf(f, "%x", &r->datum[i]) != 1)
            return -1;
    (void)!fgets(line, sizeof line, f); /* the rest of the last line */
    return 1;
}

void dt_tile_bytes(const struct dt_tile_rec *r, uint8_t *out)
{
    for (unsigned i = 0; i < 64 * 16; i++)
        for (unsigned k = 0; k < r->bytes; k++)
            out[i * r->bytes + k] = (uint8_t)(r->datum[i] >> 8 * k);
}
