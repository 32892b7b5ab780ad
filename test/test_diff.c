/* The differential test without ttsim: every case of test/diff's matrix, run on tensim, gives the
 * packed Dst output whose hash ttsim's run recorded in test/diff/expected.txt (and, for int data,
 * the exact result). docs/numerics.md "Checking against ttsim"; the vector unit's cases,
 * docs/sfpu.md "Checking against ttsim". */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../units/tensix_isa.h"
#include "diff/cases.h"

/* Every case runs with its three seeds here, and with seed 1 only under the sanitizers (a third
 * of the runs: the sanitizer build is 10 to 35 times slower, and the two matrix-unit replays took
 * 196 s of its 13 minutes with all three); `make difftest` runs all. */
#if defined(__SANITIZE_ADDRESS__)
#define SFPU_SEEDS 1u
#define FPU_SEEDS 1u
#else
#define SFPU_SEEDS 3u
#define FPU_SEEDS 3u
#endif

#define EXPECTED "test/diff/expected.txt"

struct record {
    char arch[8], name[160], data[16];
    unsigned seed;
    uint64_t hash;
};

/* The next record line of f; false at the end. A line that is not one fails the test. */
static bool next_record(FILE *f, struct record *r)
{
    char line[400];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        cr_assert_eq(sscanf(line, "%7s %159s %15s %u %" SCNx64, r->arch, r->name, r->data, &r->seed,
                            &r->hash), 5, "not a record line: %s", line);
        return true;
    }
    return false;
}

/* The records of arch (the vector unit's, or the others) replayed on tensim. */
static void replay(const char *arch, bool sfpu)
{
    FILE *f = fopen(EXPECTED, "r");
    cr_assert(f, "cannot read " EXPECTED);
    static struct dt_inputs in;
    static struct dt_result r;
    const bool wh = !strcmp(arch, "wh");
    const char *elf = wh ? "build/kernels/difftest-wh.elf" : "build/kernels/difftest-bh.elf";
    struct record rec;
    unsigned runs = 0, bad = 0, exact = 0;
    while (next_record(f, &rec)) {
        if (strcmp(rec.arch, arch) || (strncmp(rec.name, "sfpu/", 5) == 0) != sfpu ||
            rec.seed > (sfpu ? SFPU_SEEDS : FPU_SEEDS))
            continue;
        const struct dt_case *c = dt_case_by_name(rec.name);
        int d = dt_data_by_name(rec.data);
        cr_assert(c && d >= 0, "%s: no case %s with data %s", EXPECTED, rec.name, rec.data);
        dt_inputs(c, (enum dt_data)d, rec.seed, true, &in);
        dt_run_tensim(wh, elf, &in, &r);
        runs++;
        cr_assert(r.ok, "%s %s %s %u: %s", arch, rec.name, rec.data, rec.seed, r.why);
        uint64_t h = dt_hash(r.out, in.out_len);
        if (h != rec.hash && bad++ < 5)
            cr_expect_eq(h, rec.hash, "%s %s %s %u: tensim's output differs from ttsim's (run "
                         "`make difftest TTSIM_BH=... TTSIM_WH=...` to see the datums)",
                         arch, rec.name, rec.data, rec.seed);
        if (in.has_exact) {
            static uint8_t want[DT_MAX_OUT];
            for (unsigned i = 0; i < in.out_len / in.out_bytes; i++)
                for (unsigned k = 0; k < in.out_bytes; k++)
                    want[i * in.out_bytes + k] = (uint8_t)(in.exact[i] >> 8 * k);
            exact++;
            cr_expect_eq(dt_compare(&in, r.out, "tensim", want, "exact", 0, NULL), 0,
                         "%s %s int %u: not the exact result", arch, rec.name, rec.seed);
        }
    }
    fclose(f);
    const unsigned cases = dt_cases_on(wh, sfpu), seeds = sfpu ? SFPU_SEEDS : FPU_SEEDS;
    cr_expect_eq(runs, cases * 3 * seeds, "%s: %u records for %u cases x 3 data kinds x %u seeds",
                 arch, runs, cases, seeds);
    cr_expect_eq(bad, 0, "%s: %u of %u outputs differ from ttsim's", arch, bad, runs);
    if (!sfpu)
        cr_expect_gt(exact, 100 * FPU_SEEDS, "%s: only %u runs had an exact result", arch, exact);
}

Test(difftest, blackhole_matches_ttsim, .timeout = 300) { replay("bh", false); }
Test(difftest, wormhole_matches_ttsim, .timeout = 300) { replay("wh", false); }
Test(difftest, blackhole_sfpu_matches_ttsim, .timeout = 300) { replay("bh", true); }
Test(difftest, wormhole_sfpu_matches_ttsim, .timeout = 300) { replay("wh", true); }

/* Every vector-unit instruction either runs in some SFPU case on each architecture or is one
 * left out on purpose (docs/sfpu.md "Checking against ttsim"): an instruction built later
 * fails here until its modes get rows in test/diff/sfpu.c. */
Test(difftest, sfpu_cases_cover_every_instruction)
{
    static const char *const left_out[] = {
        "SFPLOADMACRO", /* ttsim refuses it */
    };
    const struct dt_case *cs;
    unsigned n = dt_matrix(&cs);
    static struct dt_inputs in;
    for (int wh = 0; wh < 2; wh++) {
        const unsigned bit = wh ? TT_ARCH_WH : TT_ARCH_BH;
        static bool seen[TT_FORM_COUNT];
        memset(seen, 0, sizeof seen);
        for (unsigned i = 0; i < n; i++) {
            if (cs[i].op != DT_OP_SFPU || !dt_case_on(&cs[i], wh))
                continue;
            dt_inputs(&cs[i], DATA_RAND, 1, true, &in);
            for (unsigned k = 0; k < in.nload; k++) {
                if (in.load[k].addr != DT_SFPU_PROG)
                    continue;
                for (uint32_t o = 4; o + 4 <= in.load[k].len; o += 4) {
                    uint32_t w;
                    memcpy(&w, in.load[k].bytes + o, 4);
                    const struct tt_form *f = tt_decode(bit, w);
                    cr_assert(f, "%s word 0x%08x decodes to nothing on %s", dt_sfpu_name(cs[i].sfpu), w,
                              wh ? "wh" : "bh");
                    seen[f - tt_forms] = true;
                }
            }
        }
        for (unsigned i = 0; i < TT_FORM_COUNT; i++) {
            const struct tt_form *f = &tt_forms[i];
            if (f->unit != TT_UNIT_SFPU || !(f->archs & bit))
                continue;
            bool skip = false;
            for (unsigned k = 0; k < sizeof left_out / sizeof left_out[0]; k++)
                skip |= !strcmp(f->mnemonic, left_out[k]);
            bool covered = false; /* by any form of the mnemonic (SFPPUSHC_BH, _WH) */
            for (unsigned k = 0; k < TT_FORM_COUNT; k++)
                covered |= seen[k] && !strcmp(tt_forms[k].mnemonic, f->mnemonic);
            cr_expect(covered != skip, "%s on %s: %s", f->mnemonic, wh ? "wh" : "bh",
                      skip ? "now in an SFPU case: take it off the left-out list"
                           : "in no SFPU case of test/diff/sfpu.c");
        }
    }
}

/* The runs recorded in full give ttsim's tile datum by datum (a failure names the datums). */
Test(difftest, whole_tiles_match_ttsim)
{
    FILE *f = fopen("test/diff/tiles.txt", "r");
    cr_assert(f, "cannot read test/diff/tiles.txt");
    static struct dt_tile_rec rec;
    static struct dt_inputs in;
    static struct dt_result r;
    static uint8_t want[64 * 16 * 4];
    unsigned n = 0;
    int got;
    while ((got = dt_tile_read(f, &rec)) == 1) {
        const struct dt_case *c = dt_case_by_name(rec.name);
        int d = dt_data_by_name(rec.data);
        cr_assert(c && d >= 0, "tiles.txt: no case %s with data %s", rec.name, rec.data);
        bool wh = !strcmp(rec.arch, "wh");
        dt_inputs(c, (enum dt_data)d, rec.seed, true, &in);
        dt_run_tensim(wh, wh ? "build/kernels/difftest-wh.elf" : "build/kernels/difftest-bh.elf", &in, &r);
        cr_assert(r.ok, "%s", r.why);
        cr_assert_eq(rec.bytes, in.out_bytes);
        dt_tile_bytes(&rec, want);
        for (unsigned i = 0, bad = 0; i < 64 * 16; i++) {
            uint32_t x = 0, y = 0;
            for (unsigned k = 0; k < rec.bytes; k++)
                x |= (uint32_t)r.out[i * rec.bytes + k] << 8 * k, y |= (uint32_t)want[i * rec.bytes + k] << 8 * k;
            if (x != y && bad++ < 4)
                cr_expect_eq(x, y, "%s %s %s %u: row %u col %u: tensim 0x%x, ttsim 0x%x", rec.arch, rec.name,
                             rec.data, rec.seed, i / 16, i % 16, x, y);
        }
        n++;
    }
    fclose(f);
    cr_expect_eq(got, 0, "tiles.txt: a malformed record after %u", n);
    cr_expect_geq(n, 16, "only %u whole tiles", n);
}

/* Every case of the matrix has a record on both architectures: a matrix changed without
 * recording ttsim again cannot pass unnoticed. */
Test(difftest, every_case_is_recorded)
{
    const struct dt_case *cs;
    unsigned n = dt_matrix(&cs);
    cr_assert_gt(n, 200);
    static bool seen[2][1024];
    cr_assert_lt(n, 1024);
    FILE *f = fopen(EXPECTED, "r");
    cr_assert(f);
    struct record rec;
    char cn[160];
    while (next_record(f, &rec))
        for (unsigned i = 0; i < n; i++) {
            dt_case_name(&cs[i], cn, sizeof cn);
            if (!strcmp(cn, rec.name))
                seen[!strcmp(rec.arch, "wh")][i] = true;
        }
    fclose(f);
    for (unsigned i = 0; i < n; i++) {
        dt_case_name(&cs[i], cn, sizeof cn);
        for (int wh = 0; wh < 2; wh++)
            cr_expect(seen[wh][i] || !dt_case_on(&cs[i], wh), "%s has no record on %s", cn, wh ? "wh" : "bh");
    }
}

/* The inputs are a function of case, data and seed only, and the seeds give different data. */
Test(difftest, inputs_are_seeded)
{
    const struct dt_case *c = dt_case_by_name("mvmul/bf16/bf16/fp32/p4");
    cr_assert(c);
    static struct dt_inputs a, b, x;
    dt_inputs(c, DATA_RAND, 1, true, &a);
    dt_inputs(c, DATA_RAND, 1, true, &b);
    dt_inputs(c, DATA_RAND, 2, true, &x);
    cr_assert_eq(a.nload, 3);
    for (unsigned i = 0; i < a.nload; i++)
        cr_expect(a.load[i].len == b.load[i].len &&
                  !memcmp(a.load[i].bytes, b.load[i].bytes, a.load[i].len));
    cr_expect(memcmp(a.load[1].bytes, x.load[1].bytes, a.load[1].len), "seeds 1 and 2 gave the same tile A");
    /* BF16 tile: a 16-byte header and 1024 two-byte datums */
    cr_expect_eq(a.load[1].addr, DT_TILE_A);
    cr_expect_eq(a.load[1].len, 16 + 2048);
    cr_expect_eq(a.out_len, 64 * 16 * 4);
}

/* The kernels shaped like tt-llk's (test/diff/llk.c) give correct tiles on their own, whatever
 * expected.txt says: tilize and pack untilize are permutations, exact for int and rand data;
 * matmul over rt x ct (x kt) tiles is exact for int data into an FP32 Dst. */
Test(difftest, llk_kernels_give_exact_tiles, .timeout = 300)
{
    const struct dt_case *cs;
    unsigned n = dt_matrix(&cs), checked[2] = {0, 0};
    static struct dt_inputs in;
    static struct dt_result r;
    static uint8_t want[DT_MAX_OUT];
    char cn[160];
    for (unsigned i = 0; i < n; i++) {
        const struct dt_case *c = &cs[i];
        const bool perm = c->op == DT_OP_TILIZE || c->pack == DT_PACK_UNTILIZE;
        if (!perm && !(c->op == DT_OP_MATMUL && c->dst == DT_FP32 && c->a.l1 != DT_FP32))
            continue;
        dt_case_name(c, cn, sizeof cn);
        for (int wh = 0; wh < 2; wh++)
            for (int d = perm ? DATA_RAND : DATA_INT; d <= DATA_INT; d += DATA_INT - DATA_RAND) {
                if (!dt_case_on(c, wh) || (d == DATA_RAND && (c->a.l1 == DT_FP32 ? c->a.src != DT_FP32
                                                                                     : c->a.l1 == DT_BFP8)))
                    continue;
                dt_inputs(c, (enum dt_data)d, 1, true, &in);
                cr_assert(in.has_exact, "%s %s: no exact result", cn, dt_data_name((enum dt_data)d));
                dt_run_tensim(wh, wh ? "build/kernels/difftest-wh.elf" : "build/kernels/difftest-bh.elf", &in, &r);
                cr_assert(r.ok, "%s: %s", cn, r.why);
                for (unsigned k = 0; k < in.out_len / in.out_bytes; k++)
                    for (unsigned b = 0; b < in.out_bytes; b++)
                        want[k * in.out_bytes + b] = (uint8_t)(in.exact[k] >> 8 * b);
                cr_expect_eq(dt_compare(&in, r.out, "tensim", want, "exact", 0, NULL), 0, "%s %s %s: not exact",
                             wh ? "wh" : "bh", cn, dt_data_name((enum dt_data)d));
                checked[wh]++;
            }
    }
    cr_expect_gt(checked[0], 50, "Blackhole: %u runs", checked[0]);
    cr_expect_gt(checked[1], 30, "Wormhole: %u runs", checked[1]);
}
