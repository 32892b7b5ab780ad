/* State dumps (tensim run --dump-state, trace/state.c): a dump at each kind of WHEN, compared
 * with the values the test programs wrote (test/guest/state_dump.S, state_insn.S,
 * region_open.S, ebreak.S; test/llk/trisc.S's profiler zone), the text view's face layout, and
 * bad specs. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../core/llk_layout.h"
#include "../mem/elf.h"
#include "../trace/zones.h"
#include "../units/cfg.h"
#include "../units/formats.h"

/* The JSON Lines of `path`: every line one document; *n of them. */
static json_t **read_lines(const char *path, unsigned *n)
{
    char *s = read_whole_file(path, NULL);
    json_t **v = calloc(64, sizeof *v);
    *n = 0;
    for (char *line = strtok(s, "\n"); line; line = strtok(0, "\n")) {
        json_error_t e;
        cr_assert_lt(*n, 64);
        v[*n] = json_loads(line, 0, &e);
        cr_assert(v[*n], "%s line %u: %s", path, *n + 1, e.text);
        (*n)++;
    }
    free(s);
    return v;
}

static json_int_t at_int(json_t *o, const char *path)
{
    /* "a.b.3.c": keys and array indices */
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *x = o;
    for (char *k = strtok(buf, "."); k; k = strtok(0, ".")) {
        x = json_is_array(x) ? json_array_get(x, strtoul(k, 0, 10)) : json_object_get(x, k);
        cr_assert(x, "no %s (at %s)", path, k);
    }
    cr_assert(json_is_integer(x), "%s is not an integer", path);
    return json_integer_value(x);
}

static json_t *at(json_t *o, const char *path)
{
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *x = o;
    for (char *k = strtok(buf, "."); k; k = strtok(0, ".")) {
        x = json_is_array(x) ? json_array_get(x, strtoul(k, 0, 10)) : json_object_get(x, k);
        cr_assert(x, "no %s (at %s)", path, k);
    }
    return x;
}

static void free_lines(json_t **v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        json_decref(v[i]);
    free(v);
}

Test(state, pc_dump_holds_what_the_kernel_wrote)
{
    char out[4096];
    cr_assert_eq(run_tensim("run -q build/guest/state_dump.elf "
                            "--dump-state pc=0x6100@TRISC0:all:/tmp/tensim-st-pc.json", out, sizeof out),
                 0, "%s", out);
    unsigned n;
    json_t **d = read_lines("/tmp/tensim-st-pc.json", &n);
    cr_assert_eq(n, 1, "the pc is issued once: one dump");
    json_t *j = d[0];
    cr_expect_eq(at_int(j, "dump"), 1);
    cr_expect_str_eq(json_string_value(at(j, "when")), "pc=0x6100@TRISC0");
    cr_expect_str_eq(json_string_value(at(j, "event")), "TRISC0 issued pc 0x00006100");
    /* the instruction at the pc has issued: s3 = s2 + 1, and the pc is the next one */
    cr_expect_eq(at_int(j, "rv.0.x.18"), 0xCAFEF00D);
    cr_expect_eq(at_int(j, "rv.0.x.19"), 0xCAFEF00E);
    cr_expect_eq(at_int(j, "rv.0.pc"), 0x6104);
    cr_expect_str_eq(json_string_value(at(j, "rv.0.state")), "running");
    cr_expect_str_eq(json_string_value(at(j, "rv.1.state")), "off");
    cr_expect_eq(at_int(j, "rv.0.csr.mcycle"), at_int(j, "cycle"));
    cr_expect_eq(at_int(j, "rv.0.csr.mhartid"), 0);
    /* GPR 5 of thread 0, and only it */
    for (unsigned th = 0; th < 3; th++)
        for (unsigned r = 0; r < 64; r++) {
            char p[32];
            snprintf(p, sizeof p, "gprs.%u.%u", th, r);
            cr_expect_eq(at_int(j, p), th == 0 && r == 5 ? 0x12345678 : 0, "%s", p);
        }
    /* three posts of semaphore 3 */
    for (unsigned s = 0; s < 8; s++) {
        char p[32];
        snprintf(p, sizeof p, "sem.semaphores.%u.value", s);
        cr_expect_eq(at_int(j, p), s == 3 ? 3 : 0, "%s", p);
    }
    cr_expect(json_is_null(at(j, "sem.mutexes.0.owner")));
    /* Config[0][1] = 0x20AA0008: every field of that word by name, bank 1 untouched */
    const struct cfg_arch_map *m = cfg_arch(TT_ARCH_BH);
    unsigned fields = 0;
    for (unsigned i = 0; i < m->ncfg; i++) {
        if (m->cfg[i].word != 1)
            continue;
        uint32_t want = (0x20AA0008u & cfg_field_mask(&m->cfg[i])) >> m->cfg[i].shift;
        cr_expect_eq(json_integer_value(json_object_get(json_array_get(at(j, "cfg.config"), 0),
                                                        m->cfg[i].name)), want, "%s", m->cfg[i].name);
        cr_expect_eq(json_integer_value(json_object_get(json_array_get(at(j, "cfg.config"), 1),
                                                        m->cfg[i].name)), 0, "%s", m->cfg[i].name);
        fields++;
    }
    cr_expect_eq(fields, 14);
    cr_expect_eq(json_object_size(json_array_get(at(j, "cfg.config"), 0)), m->ncfg);
    cr_expect_eq(json_object_size(json_array_get(at(j, "cfg.thread_config"), 2)), m->nthcfg);
    /* Dst: FP32 (Fp32_enabled), tiles 0 and 1 */
    cr_expect_str_eq(json_string_value(at(j, "dst.format")), "FP32");
    cr_expect_str_eq(json_string_value(at(j, "dst.view")), "Dst32b");
    cr_assert_eq(json_array_size(at(j, "dst.tiles")), 2);
    cr_expect_eq(at_int(j, "dst.tiles.0.tile"), 0);
    cr_expect_eq(at_int(j, "dst.tiles.1.tile"), 1);
    cr_expect_eq(json_real_value(at(j, "dst.tiles.0.values.0.0")), 1.5);
    cr_expect_eq(json_integer_value(at(j, "dst.tiles.0.values.0.16")), 2); /* face 1, row 0 */
    cr_expect_eq(json_real_value(at(j, "dst.tiles.0.values.16.3")), -3.25); /* face 2 */
    cr_expect_eq(json_integer_value(at(j, "dst.tiles.1.values.0.1")), 7);
    cr_expect_eq(json_integer_value(at(j, "dst.tiles.0.values.0.1")), 0);
    cr_expect_eq(at_int(j, "dst.tiles.0.raw.0.0"), fmt_dst_from_fp32(0x3FC00000u));
    cr_expect_eq(at_int(j, "dst.tiles.0.raw.16.0"), fmt_dst_from_fp32(0x40000000u));
    cr_expect_eq(at_int(j, "dst.tiles.0.raw.32.3"), fmt_dst_from_fp32(0xC0500000u));
    cr_expect_eq(at_int(j, "dst.tiles.1.first_row"), 64);
    /* LRegs at reset: LReg[15] holds lane * 2, LReg[0] zero; lanes enabled */
    for (unsigned l = 0; l < 32; l++) {
        char p[32];
        snprintf(p, sizeof p, "lregs.lreg.15.%u", l);
        cr_expect_eq(at_int(j, p), 2 * l);
        snprintf(p, sizeof p, "lregs.lreg.0.%u", l);
        cr_expect_eq(at_int(j, p), 0);
        snprintf(p, sizeof p, "lregs.lane_enabled.%u", l);
        cr_expect_eq(at_int(j, p), 1);
    }
    /* SrcA/B at reset: both banks the unpackers' */
    cr_expect_str_eq(json_string_value(at(j, "srca.banks.0.owner")), "unpackers");
    cr_expect_str_eq(json_string_value(at(j, "srcb.banks.1.owner")), "unpackers");
    /* no Tensix instruction pushed: empty pipes, idle expanders */
    for (unsigned th = 0; th < 3; th++) {
        char p[40];
        snprintf(p, sizeof p, "pipe.%u.fifo1", th);
        cr_expect_eq(json_array_size(at(j, p)), 0);
        snprintf(p, sizeof p, "pipe.%u.gate", th);
        cr_expect(json_is_null(at(j, p)));
        snprintf(p, sizeof p, "pipe.%u.mop.phase", th);
        cr_expect_str_eq(json_string_value(at(j, p)), "idle");
    }
    free_lines(d, n);
}

/* The text view lays a Dst tile out as 32x32: faces 0 | 1 on top, 2 | 3 below. */
Test(state, text_view_lays_dst_tiles_out_as_faces)
{
    char out[4096];
    cr_assert_eq(run_tensim("run -q build/guest/state_dump.elf "
                            "--dump-state pc=0x6100@TRISC0:dst,gprs,sem:/tmp/tensim-st-pc.txt", out, sizeof out),
                 0, "%s", out);
    char *s = read_whole_file("/tmp/tensim-st-pc.txt", NULL);
    cr_assert(strstr(s, "==== dump 1 (pc=0x6100@TRISC0): TRISC0 issued pc 0x00006100, cycle "));
    cr_assert(strstr(s, "Dst (Dst32b view, FP32;"));
    char *t0 = strstr(s, "  tile 0 (rows 0..63), values:\n");
    cr_assert(t0);
    char *line = strchr(t0, '\n') + 1;
    /* line r of the tile: 16 values, '|', 16 values */
    double left[32][16], right[32][16];
    for (unsigned r = 0; r < 32; r++) {
        if (r == 16) { /* the rule between the faces */
            cr_assert(strncmp(line, "    ----", 8) == 0, "%.40s", line);
            line = strchr(line, '\n') + 1;
        }
        char *p = line;
        for (unsigned c = 0; c < 32; c++) {
            if (c == 16) {
                while (*p == ' ')
                    p++;
                cr_assert_eq(*p, '|', "row %u: %.60s", r, line);
                p++;
            }
            (c < 16 ? left : right)[r][c % 16] = strtod(p, &p);
        }
        line = strchr(line, '\n') + 1;
    }
    cr_expect_eq(left[0][0], 1.5);
    cr_expect_eq(right[0][0], 2.0);   /* Dst row 16: face 1 */
    cr_expect_eq(left[16][3], -3.25); /* Dst row 32: face 2 */
    unsigned nonzero = 0;
    for (unsigned r = 0; r < 32; r++)
        for (unsigned c = 0; c < 16; c++)
            nonzero += (left[r][c] != 0) + (right[r][c] != 0);
    cr_expect_eq(nonzero, 3);
    cr_assert(strstr(s, "  tile 1 (rows 64..127), values:\n"));
    cr_expect(!strstr(s, "  tile 2 "), "all-zero tiles are left out");
    cr_expect(strstr(s, "  T0 r0 ..7  00000000 00000000 00000000 00000000 00000000 12345678 00000000 00000000\n"));
    cr_expect(strstr(s, "Semaphores (value/max)  0: 0/0  1: 0/0  2: 0/0  3: 3/0  4: 0/0"));
    free(s);
}

/* cycle=N: at the boundary, before any agent acts in N; a dump changes no output. */
Test(state, cycle_dumps_at_the_boundary_and_change_nothing)
{
    char a[8192], b[8192];
    cr_assert_eq(run_tensim("run build/guest/state_dump.elf --stats=/tmp/tensim-st-c1.json", a, sizeof a), 0);
    cr_assert_eq(run_tensim("run build/guest/state_dump.elf --stats=/tmp/tensim-st-c2.json "
                            "--dump-state cycle=0:rv:/tmp/tensim-st-c0.json "
                            "--dump-state cycle=12:rv,gprs:/tmp/tensim-st-c12.json "
                            "--dump-state pc=0x6100@TRISC0:all:/tmp/tensim-st-cpc.txt", b, sizeof b), 0);
    cr_expect_str_eq(a, b, "the report is the same");
    /* the text view's header names the cycle once */
    cr_assert_eq(run_tensim("run -q build/guest/state_dump.elf "
                            "--dump-state cycle=12:rv:/tmp/tensim-st-c12.txt", b, sizeof b), 0, "%s", b);
    char *txt = read_whole_file("/tmp/tensim-st-c12.txt", NULL);
    cr_expect(!strncmp(txt, "==== dump 1 (cycle=12): cycle boundary, cycle 12, blackhole ====\n", 65),
              "%.80s", txt);
    free(txt);
    char *s1 = read_whole_file("/tmp/tensim-st-c1.json", NULL), *s2 = read_whole_file("/tmp/tensim-st-c2.json", NULL);
    cr_expect_str_eq(s1, s2, "the stats are the same");
    free(s1);
    free(s2);
    unsigned n;
    json_t **d = read_lines("/tmp/tensim-st-c0.json", &n);
    cr_assert_eq(n, 1);
    cr_expect_eq(at_int(d[0], "cycle"), 0);
    cr_expect_eq(at_int(d[0], "rv.0.pc"), 0x6000);
    cr_expect_eq(at_int(d[0], "rv.0.csr.minstret"), 0);
    for (unsigned r = 0; r < 32; r++) {
        char p[20];
        snprintf(p, sizeof p, "rv.0.x.%u", r);
        cr_expect_eq(at_int(d[0], p), 0);
    }
    cr_expect(!json_object_get(d[0], "dst"), "only what WHAT names");
    free_lines(d, n);
    d = read_lines("/tmp/tensim-st-c12.json", &n);
    cr_assert_eq(n, 1);
    cr_expect_eq(at_int(d[0], "cycle"), 12);
    cr_expect_str_eq(json_string_value(at(d[0], "event")), "cycle boundary");
    cr_expect_eq(at_int(d[0], "rv.0.csr.mcycle"), 12);
    /* one instruction a cycle from 0x6000 so far (li is lui + addi): minstret = (pc - 0x6000) / 4 */
    cr_expect_eq(at_int(d[0], "rv.0.csr.minstret"), (at_int(d[0], "rv.0.pc") - 0x6000) / 4);
    cr_expect(json_object_get(d[0], "gprs") && !json_object_get(d[0], "cfg"));
    free_lines(d, n);
}

Test(state, cycle_after_the_end_never_happens)
{
    char out[4096];
    cr_assert_eq(run_tensim("run -q build/guest/state_dump.elf "
                            "--dump-state cycle=1000000:rv:/tmp/tensim-st-late.txt", out, sizeof out), 0);
    cr_expect(strstr(out, "tensim: note: --dump-state cycle=1000000 never happened (the run ended at "
                          "cycle "), "%s", out);
    size_t len;
    free(read_whole_file("/tmp/tensim-st-late.txt", &len));
    cr_expect_eq(len, 0);
}

/* region_open.S: region 1 three times (t0 counts 3, 2, 1 down to 0), then region 2 begins. */
Test(state, region_dumps_at_begin_and_end)
{
    char out[4096];
    cr_assert_eq(run_tensim("run -q build/guest/region_open.elf "
                            "--dump-state region=1@TRISC0:rv:/tmp/tensim-st-r1.json "
                            "--dump-state region-end=1@trisc0:rv:/tmp/tensim-st-r1e.json "
                            "--dump-state region-begin=2@TRISC0:rv:/tmp/tensim-st-r2.json", out, sizeof out),
                 0, "%s", out);
    unsigned n;
    json_t **d = read_lines("/tmp/tensim-st-r1.json", &n);
    cr_assert_eq(n, 6);
    static const unsigned t0[6] = {3, 2, 2, 1, 1, 0};
    for (unsigned i = 0; i < n; i++) {
        cr_expect_eq(at_int(d[i], "dump"), i + 1);
        cr_expect_eq(at_int(d[i], "rv.0.x.5"), t0[i], "dump %u", i + 1);
        cr_expect_str_eq(json_string_value(at(d[i], "event")),
                         i % 2 ? "TRISC0 ended region 1" : "TRISC0 began region 1");
        if (i)
            cr_expect_geq(at_int(d[i], "cycle"), at_int(d[i - 1], "cycle"));
    }
    free_lines(d, n);
    d = read_lines("/tmp/tensim-st-r1e.json", &n);
    cr_assert_eq(n, 3);
    for (unsigned i = 0; i < n; i++)
        cr_expect_eq(at_int(d[i], "rv.0.x.5"), 2 - i);
    free_lines(d, n);
    d = read_lines("/tmp/tensim-st-r2.json", &n);
    cr_assert_eq(n, 1);
    cr_expect_eq(at_int(d[0], "rv.0.x.5"), 0);
    free_lines(d, n);
}

/* insn=: before the instruction executes, at each issue. */
Test(state, insn_dumps_before_each_issue)
{
    char out[4096];
    cr_assert_eq(run_tensim("run -q build/guest/state_insn.elf "
                            "--dump-state insn=sempost@T0:sem,pipe:/tmp/tensim-st-i.json "
                            "--dump-state insn=SEMPOST@T1:sem:/tmp/tensim-st-i1.txt", out, sizeof out),
                 0, "%s", out);
    cr_expect(strstr(out, "--dump-state insn=SEMPOST@T1 never happened"), "%s", out);
    unsigned n;
    json_t **d = read_lines("/tmp/tensim-st-i.json", &n);
    cr_assert_eq(n, 2);
    for (unsigned i = 0; i < n; i++) {
        cr_expect_eq(at_int(d[i], "sem.semaphores.0.value"), 7 + i);
        cr_expect_eq(at_int(d[i], "sem.semaphores.0.max"), 15);
        cr_expect_str_eq(json_string_value(at(d[i], "event")), "T0 issues SEMPOST SemaphoreMask=0x1");
    }
    cr_expect_eq(at_int(d[1], "cycle"), at_int(d[0], "cycle") + 1);
    /* at the first SEMPOST's issue (taken from FIFO3) the second is one stage behind, in FIFO2 */
    cr_expect_eq(json_array_size(at(d[0], "pipe.0.fifo3")), 0);
    cr_assert_eq(json_array_size(at(d[0], "pipe.0.fifo2")), 1);
    cr_expect_eq(at_int(d[0], "pipe.0.fifo2.0.word"), 0xA4000004);
    cr_expect_eq(json_array_size(at(d[1], "pipe.0.fifo2")), 0);
    free_lines(d, n);
}

/* pc= on a later word of a fused .ttinsn group (Blackhole TRISCs push up to four in a cycle,
 * test/guest/state_fused.S): the word issued with the group's first, so its dump fires in that
 * cycle with the core's pc past the whole group; a word on its own after the group dumps a
 * cycle later. */
Test(state, pc_dumps_at_each_word_of_a_fused_group)
{
    static const unsigned pcs[] = {0x6000, 0x6004, 0x600c, 0x6010};
    static const json_int_t cycles[] = {0, 0, 0, 1};
    for (unsigned i = 0; i < 4; i++) {
        char cmd[200], out[4096], file[64], event[64];
        snprintf(file, sizeof file, "/tmp/tensim-st-fused%u.json", i);
        snprintf(cmd, sizeof cmd, "run -q build/guest/state_fused.elf --dump-state pc=0x%x@TRISC0:rv:%s",
                 pcs[i], file);
        cr_assert_eq(run_tensim(cmd, out, sizeof out), 0, "%s", out);
        cr_expect_eq(strstr(out, "never happened"), NULL, "%s", out);
        unsigned n;
        json_t **d = read_lines(file, &n);
        cr_assert_eq(n, 1, "pc 0x%x", pcs[i]);
        snprintf(event, sizeof event, "TRISC0 issued pc 0x%08x", pcs[i]);
        cr_expect_str_eq(json_string_value(at(d[0], "event")), event);
        cr_expect_eq(at_int(d[0], "cycle"), cycles[i], "pc 0x%x", pcs[i]);
        cr_expect_eq(at_int(d[0], "rv.0.pc"), i < 3 ? 0x6010 : 0x6014, "pc 0x%x", pcs[i]);
        free_lines(d, n);
    }
}

/* error: the state where the run stopped, then the report; on Wormhole too. */
Test(state, error_dumps_before_the_report)
{
    char out[8192];
    int rc = run_tensim("run build/guest/ebreak.elf --dump-state error:rv,cfg:/tmp/tensim-st-e.json "
                        "--dump-state cycle=1:rv:/tmp/tensim-st-e1.txt", out, sizeof out);
    cr_expect_eq(rc, err_kind_exit_code(ERR_BREAKPOINT), "%s", out);
    cr_expect(strstr(out, "ebreak"), "%s", out);
    unsigned n;
    json_t **d = read_lines("/tmp/tensim-st-e.json", &n);
    cr_assert_eq(n, 1);
    cr_expect(!strncmp(json_string_value(at(d[0], "event")), "error: ", 7));
    cr_expect_eq(at_int(d[0], "rv.0.x.10"), 0x1234);
    cr_expect_eq(at_int(d[0], "rv.0.x.9"), 0xcafe);
    cr_expect_eq(json_object_size(json_array_get(at(d[0], "cfg.config"), 0)), cfg_arch(TT_ARCH_BH)->ncfg);
    free_lines(d, n);
    rc = run_tensim("run --arch=wh build/guest/ebreak.elf --dump-state error:cfg:/tmp/tensim-st-ew.json",
                    out, sizeof out);
    cr_expect_eq(rc, err_kind_exit_code(ERR_BREAKPOINT), "%s", out);
    d = read_lines("/tmp/tensim-st-ew.json", &n);
    cr_assert_eq(n, 1);
    cr_expect_str_eq(json_string_value(at(d[0], "arch")), "wormhole");
    cr_expect_eq(json_object_size(json_array_get(at(d[0], "cfg.config"), 1)), cfg_arch(TT_ARCH_WH)->ncfg);
    cr_expect_eq(json_object_size(json_array_get(at(d[0], "cfg.thread_config"), 0)), cfg_arch(TT_ARCH_WH)->nthcfg);
    free_lines(d, n);
}

Test(state, bad_specs_are_usage_errors)
{
    static const struct { const char *spec, *msg; } bad[] = {
        {"cycle=5", "--dump-state wants WHEN:WHAT:FILE"},
        {"when=3:dst:/tmp/tensim-st-x", "unknown WHEN 'when=3'"},
        {"cycle=abc:dst:/tmp/tensim-st-x", "cycle=N needs a cycle number, not 'abc'"},
        {"pc=0x6002@TRISC0:dst:/tmp/tensim-st-x", "pc=0x6002 is not a 4-byte aligned"},
        {"pc=0x6000:dst:/tmp/tensim-st-x", "pc wants ADDR@CORE"},
        {"pc=0x6000@TRISC7:dst:/tmp/tensim-st-x", "unknown core 'TRISC7'"},
        {"region=64@TRISC0:dst:/tmp/tensim-st-x", "region id '64' is not 0..63"},
        {"insn=FOO@T0:dst:/tmp/tensim-st-x", "FOO is no Tensix instruction of this architecture"},
        {"insn=PACR@T3:dst:/tmp/tensim-st-x", "unknown thread 'T3'"},
        {"cycle=1:dts:/tmp/tensim-st-x", "unknown WHAT 'dts' (did you mean 'dst'?)"},
        {"cycle=1::/tmp/tensim-st-x", "--dump-state: WHAT is empty"},
        {"cycle=1:dst,,sem:/tmp/tensim-st-x", "--dump-state: an empty item in WHAT"},
        {"cycle=1:dst:", "--dump-state wants WHEN:WHAT:FILE"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char out[4096];
        int rc = run_tensimf(out, sizeof out, "run build/guest/exit7.elf --dump-state '%s'", bad[i].spec);
        cr_expect_eq(rc, 100, "%s: %s", bad[i].spec, out);
        cr_expect(strstr(out, bad[i].msg), "%s: %s", bad[i].spec, out);
    }
    char out[4096];
    /* WHAT in any case, as cores and mnemonics */
    cr_expect_eq(run_tensim("run -q build/guest/exit7.elf --dump-state cycle=1:SEM,Rv:/tmp/tensim-st-case", out,
                            sizeof out), 7, "%s", out);
    char *text = read_whole_file("/tmp/tensim-st-case", NULL);
    cr_expect(strstr(text, "Semaphores (value/max)") && strstr(text, "RISC-V cores\n") && !strstr(text, "Dst"),
              "%s", text);
    free(text);
    int rc = run_tensim("run build/guest/exit7.elf --dump-state cycle=1:dst:/tmp/tensim-st-x "
                        "--stats=/tmp/tensim-st-x", out, sizeof out);
    cr_expect_eq(rc, 100);
    cr_expect(strstr(out, "two outputs go to /tmp/tensim-st-x"), "%s", out);
    /* a Blackhole-only instruction on Wormhole */
    rc = run_tensim("run --arch=wh build/guest/exit7.elf --dump-state insn=SFPLE@T1:dst:/tmp/tensim-st-x",
                    out, sizeof out);
    cr_expect_eq(rc, 100, "%s", out);
    cr_expect(strstr(out, "SFPLE is no Tensix instruction of this architecture (wormhole)"), "%s", out);
}

/* With a run description the host looks between cycles too: dumps at cycle boundaries, a pc
 * on a core the host releases, and the same statistics as without them. */
Test(state, dumps_in_a_run_with_a_host_change_nothing)
{
    char a[8192], b[8192];
    cr_assert_eq(run_tensim("run -q --run test/llk/boot.json --stats=/tmp/tensim-st-h1.json", a, sizeof a), 0,
                 "%s", a);
    cr_assert_eq(run_tensim("run -q --run test/llk/boot.json --stats=/tmp/tensim-st-h2.json "
                            "--dump-state cycle=0:rv:/tmp/tensim-st-h0.json "
                            "--dump-state cycle=100:rv:/tmp/tensim-st-h100.json "
                            "--dump-state pc=0x6000@TRISC0:rv:/tmp/tensim-st-hpc.json", b, sizeof b), 0,
                 "%s", b);
    char *s1 = read_whole_file("/tmp/tensim-st-h1.json", NULL), *s2 = read_whole_file("/tmp/tensim-st-h2.json", NULL);
    cr_expect_str_eq(s1, s2);
    free(s1);
    free(s2);
    unsigned n;
    json_t **d = read_lines("/tmp/tensim-st-h0.json", &n);
    cr_assert_eq(n, 1);
    /* at cycle 0 only BRISC runs; the TRISCs wait in reset for it to release them */
    cr_expect_str_eq(json_string_value(at(d[0], "rv.0.state")), "off");
    cr_expect_str_eq(json_string_value(at(d[0], "rv.3.state")), "running");
    free_lines(d, n);
    d = read_lines("/tmp/tensim-st-h100.json", &n);
    cr_assert_eq(n, 1);
    cr_expect_eq(at_int(d[0], "cycle"), 100);
    for (unsigned k = 0; k < 4; k++) {
        char p[20];
        snprintf(p, sizeof p, "rv.%u.state", k);
        cr_expect_str_eq(json_string_value(at(d[0], p)), "running");
    }
    free_lines(d, n);
    d = read_lines("/tmp/tensim-st-hpc.json", &n);
    cr_assert_eq(n, 1, "TRISC0 starts at 0x6000 once");
    cr_expect_eq(at_int(d[0], "rv.0.pc"), 0x6004);
    free_lines(d, n);
}

/* ---- zone=: tt-llk profiler zones ---- */

/* test/llk/trisc.S on the three TRISCs (test/llk/boot.json): each opens its KERNEL zone, spins,
 * closes it. Its marker routine reads the wall clock into t4 (x29), builds word 0 in a0 (x10) and
 * stores it at s3 (x19), the next marker's place in its profiler buffer. */
static const char zone_meta[] = "LLK_PROFILER:trisc.S:30:KERNEL";

/* The math thread's KERNEL zone as `tensim run --zones` reports it. */
static void math_zone_from_csv(const char *run, const char *tag, json_int_t *start, json_int_t *end)
{
    char out[8192], buf[200], path[100];
    snprintf(path, sizeof path, "/tmp/tensim-st-z%s.csv", tag);
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q --run %s --zones=%s", run, path), 0, "%s", out);
    char *csv = read_whole_file(path, NULL);
    snprintf(buf, sizeof buf, "\nmath,zone,KERNEL,trisc.S,30,0x%04x,", zone_id(zone_meta, sizeof zone_meta - 1));
    const char *row = strstr(csv, buf);
    cr_assert(row, "%s", csv);
    long long s, e, c;
    cr_assert_eq(sscanf(row + strlen(buf), "%lld,%lld,%lld,", &s, &e, &c), 3, "%s", csv);
    cr_assert_eq(e - s, c);
    *start = s, *end = e;
    free(csv);
}

/* The word of program `path` before address `pc` (in its .init section). */
static uint32_t word_before(const char *path, json_int_t pc)
{
    struct elf_file f = {.name = path};
    f.buf = (uint8_t *)read_whole_file(path, &f.len);
    uint32_t addr, size;
    const uint8_t *b;
    cr_assert(elf_find_section(&f, ".init", &addr, &size, &b) && b);
    cr_assert(pc - 4 >= addr && pc <= addr + size, "pc 0x%llx", (long long)pc);
    uint32_t w = (uint32_t)(b[pc - 4 - addr] | b[pc - 3 - addr] << 8 | b[pc - 2 - addr] << 16 |
                            (uint32_t)b[pc - 1 - addr] << 24);
    free(f.buf);
    return w;
}

/* The dumps come right after the store of the marker's first word issued: the math thread's
 * end dump is the zone's length after its begin dump, and each holds the marker it stored. */
static void check_math_zone(const char *run, const char *tag, uint32_t buffer, const char *elf)
{
    json_int_t start, end;
    math_zone_from_csv(run, tag, &start, &end);
    char out[8192], zb[100], ze[100], zp[100];
    snprintf(zb, sizeof zb, "/tmp/tensim-st-zb%s.json", tag);
    snprintf(ze, sizeof ze, "/tmp/tensim-st-ze%s.json", tag);
    snprintf(zp, sizeof zp, "/tmp/tensim-st-zp%s.json", tag);
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q --run %s --dump-state zone-begin=KERNEL@math:rv:%s "
                             "--dump-state zone-end=KERNEL@MATH:rv:%s --dump-state zone=KERNEL@pack:rv:%s",
                             run, zb, ze, zp), 0, "%s", out);
    const uint32_t id = zone_id(zone_meta, sizeof zone_meta - 1);
    const uint32_t sw_a0_s3 = 10u << 20 | 19u << 15 | 2u << 12 | 0x23; /* sw a0, 0(s3) */
    unsigned n;
    json_t **b = read_lines(zb, &n);
    cr_assert_eq(n, 1);
    json_t **e = read_lines(ze, &n);
    cr_assert_eq(n, 1);
    char event[200];
    snprintf(event, sizeof event, "math began zone KERNEL (TRISC1 stored 0x%08x at 0x%08x)",
             0xAu << 28 | id << 12, buffer);
    cr_expect_str_eq(json_string_value(at(b[0], "event")), event);
    snprintf(event, sizeof event, "math ended zone KERNEL (TRISC1 stored 0x%08x at 0x%08x)",
             0xBu << 28 | id << 12, buffer + 8);
    cr_expect_str_eq(json_string_value(at(e[0], "event")), event);
    cr_expect_eq(at_int(e[0], "cycle") - at_int(b[0], "cycle"), end - start);
    cr_expect_eq(at_int(b[0], "rv.1.x.10"), 0xAu << 28 | id << 12); /* a0: the word it stored */
    cr_expect_eq(at_int(e[0], "rv.1.x.10"), 0xBu << 28 | id << 12);
    cr_expect_eq(at_int(b[0], "rv.1.x.19"), buffer); /* s3: where */
    cr_expect_eq(at_int(e[0], "rv.1.x.19"), buffer + 8);
    cr_expect_eq(at_int(b[0], "rv.1.x.29"), start); /* t4: the wall clock the marker holds */
    cr_expect_eq(at_int(e[0], "rv.1.x.29"), end);
    cr_expect_eq(word_before(elf, at_int(b[0], "rv.1.pc")), sw_a0_s3, "the store has just issued");
    cr_expect_eq(word_before(elf, at_int(e[0], "rv.1.pc")), sw_a0_s3);
    cr_expect_gt(at_int(b[0], "cycle"), start);
    free_lines(b, 1);
    free_lines(e, 1);
    /* zone=: both ends, in order, on the pack thread's buffer */
    json_t **p = read_lines(zp, &n);
    cr_assert_eq(n, 2);
    cr_expect(!strncmp(json_string_value(at(p[0], "event")), "pack began zone KERNEL (TRISC2 ", 31));
    cr_expect(!strncmp(json_string_value(at(p[1], "event")), "pack ended zone KERNEL (TRISC2 ", 31));
    cr_expect_eq(at_int(p[0], "rv.2.x.19"), buffer + 0x1000);
    cr_expect_gt(at_int(p[1], "cycle") - at_int(p[0], "cycle"), end - start, "pack spins longer");
    free_lines(p, 2);
}

Test(state, zone_dumps_at_the_marker_stores)
{
    check_math_zone("test/llk/boot.json", "", llk_layout_by_name("tt-llk-36b092e8")->profiler_buffer[1],
                    "build/llk/trisc-t1.elf");
}

/* A run description for trisc.S built with `variant` ("trisc" or "trisc-moved"); TRISC1's program
 * may be another. */
static void zone_run(const char *path, const char *variant, const char *trisc1)
{
    const char *pwd = getenv("PWD");
    char t1[300];
    snprintf(t1, sizeof t1, "%s/build/llk/%s-t1.elf", pwd, variant);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fprintf(f, "{\"tensim_run\": 1, \"arch\": \"blackhole\", \"layout\": \"tt-llk-36b092e8\", "
               "\"boot\": \"brisc\",\n \"programs\": {\"brisc\": \"%s/build/llk/%s-b.elf\", "
               "\"trisc0\": \"%s/build/llk/%s-t0.elf\", \"trisc1\": \"%s\", "
               "\"trisc2\": \"%s/build/llk/%s-t2.elf\"},\n"
               " \"l1\": [{\"addr\": \"0x20000\", \"words\": [100, 200, 300, 0, %u]}],\n"
               " \"end\": \"kernel_complete\", \"max_cycles\": 100000}\n",
            pwd, strcmp(variant, "trisc") ? "brisc-moved" : "brisc", pwd, variant,
            trisc1 ? trisc1 : t1, pwd, variant, zone_id(zone_meta, sizeof zone_meta - 1));
    fclose(f);
}

/* A tt-llk whose harness keeps its profiler buffers elsewhere (BRISC's profiler_barrier says
 * where, core/host.c): the dumps watch the buffers where they are. */
Test(state, zone_dumps_follow_moved_buffers)
{
    zone_run("/tmp/tensim-st-zmoved.json", "trisc-moved", 0);
    check_math_zone("/tmp/tensim-st-zmoved.json", "-moved", 0x150FF4 + 12 + 0x1000, "build/llk/trisc-moved-t1.elf");
}

Test(state, bad_zone_specs_are_usage_errors)
{
    static const struct { const char *spec, *msg; } bad[] = {
        {"zone=KERNAL@math:rv:/tmp/tensim-st-x", "zone=KERNAL@math: the math program "
         "test/llk/../../build/llk/trisc-t1.elf names no zone 'KERNAL' (did you mean 'KERNEL'?) "
         "(its zones: KERNEL)"},
        {"zone-end=KERNEL@dma:rv:/tmp/tensim-st-x", "unknown thread 'dma' (unpack, math or pack"},
        {"zone-begin=@math:rv:/tmp/tensim-st-x", "no marker before '@math'"},
        {"zone=KERNEL:rv:/tmp/tensim-st-x", "zone wants MARKER@THREAD (zone=KERNEL@math), not 'KERNEL'"},
    };
    char out[4096];
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = run_tensimf(out, sizeof out, "run --run test/llk/boot.json --dump-state '%s'", bad[i].spec);
        cr_expect_eq(rc, 100, "%s: %s", bad[i].spec, out);
        cr_expect(strstr(out, bad[i].msg), "%s: %s", bad[i].spec, out);
    }
    /* no run description, so no layout and no buffers */
    int rc = run_tensim("run build/guest/exit7.elf --dump-state zone=KERNEL@math:rv:/tmp/tensim-st-x",
                        out, sizeof out);
    cr_expect_eq(rc, 100, "%s", out);
    cr_expect(strstr(out, "zone dumps need a run description that names a tt-llk layout"), "%s", out);
    /* a math program with no .profiler_meta */
    char exit7[300];
    snprintf(exit7, sizeof exit7, "%s/build/guest/exit7.elf", getenv("PWD"));
    zone_run("/tmp/tensim-st-znometa.json", "trisc", exit7);
    rc = run_tensim("run --run /tmp/tensim-st-znometa.json --dump-state zone=KERNEL@math:rv:/tmp/tensim-st-x",
                    out, sizeof out);
    cr_expect_eq(rc, 100, "%s", out);
    cr_expect(strstr(out, "exit7.elf names no profiler zones (no .profiler_meta strings"), "%s", out);
}
