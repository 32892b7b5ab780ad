/* tensim run --lint (core/rules.c): the six-rule kernel (test/kernels/lint_rules.c) gets six
 * findings with their rules, places and cycles in the report and the stats, exit status 113;
 * without --lint it stops at the one undefined rule as before; and the funnel's own behaviour
 * on tiles built here: rules with a defined outcome, deduplication, the report's cap, the
 * record's bound, and the waits that keep a kernel clean. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rules.h"
#include "../units/sfpu_timing.h"
#include "../units/tensix_isa.h"
#include "harness.h"
#include "tensix_ops.h"

#define K "build/kernels/lint-rules.elf"

/* The kernel's six breaks, in the order they happen: rule, cycle, place, instruction. The
 * Tensix ones name the TRISC0 pc of the push (inline .ttinsn words at 0x6044..0x607c). Cycles:
 * the SEMPOST issues at 18; ELWADD at 21 writes Dst block 0 until 21 + 5, so the SFPLOAD at 22
 * and the load at 25 are early; the WRCFG at 79 is visible from 81, so the SFPMAD at 80 sees
 * the old word, and the SFPIADD at 81 reads its result the next cycle. */
static const char *const lines[6] = {
    "  sem_post_max cycle=18 thread T0 (pushed by TRISC0 pc=0x00006044): SEMPOST SemaphoreMask=0x1\n",
    "  dst_sfpu_read_early cycle=22 thread T0 (pushed by TRISC0 pc=0x00006054): SFPLOAD VD=0 Mod0=0 "
    "AddrMod=0 Imm10=0\n",
    "  dst_riscv_read_early cycle=25 TRISC0 pc=0x00006060: lw a3, 0(a4)\n",
    "  src_not_owned cycle=78 thread T0 (pushed by TRISC0 pc=0x00006070): SETDVALID FlipSrcB=0 "
    "FlipSrcA=1\n",
    "  cfg_write_use cycle=80 thread T0 (pushed by TRISC0 pc=0x00006078): SFPMAD VA=1 VB=2 VC=9 "
    "VD=3 Mod1=0\n",
    "  sfpu_mad_result cycle=81 thread T0 (pushed by TRISC0 pc=0x0000607c): SFPIADD Imm12=0 VC=5 "
    "VD=3 Mod1=4\n",
};

Test(lint, six_rules_six_findings)
{
    static char out[16384];
    const char *stats = "/tmp/tensim-lint-six.json";
    cr_assert_eq(run_tensimf(out, sizeof out, "run --lint --stats %s " K, stats), 113, "%s", out);
    cr_expect(strstr(out, "\nlint: 6 breaks of 6 rules at 6 places\n"), "%s", out);
    const char *at = out;
    for (unsigned i = 0; i < 6; i++) {
        const char *l = strstr(at, lines[i]);
        cr_expect(l, "finding %u missing or out of order:\n%s", i, out);
        at = l ? l : at;
    }
    cr_expect(strstr(out, "    thread T0: SEMPOST on semaphore 0 at Value 15 (Max 15): the post is lost\n"),
              "%s", out);
    cr_expect(strstr(out, "    TRISC0: load from the Dst window reads Dst32b row 0 (DstBits block 0), "
                          "which is being written until cycle 26\n"), "%s", out);
    cr_expect(strstr(out, "    SFPMAD (thread T0, cycle 80, issued) writes LRegs 0x8; SFPIADD (thread "
                          "T0, cycle 81, issued) reads 0x8 of them the next cycle: Blackhole's "
                          "interlock misses this read (BH:SFPMAD.md)\n"), "%s", out);
    cr_expect_null(strstr(out, "undefined behaviour"), "%s", out);

    json_error_t e;
    json_t *j = json_load_file(stats, 0, &e);
    cr_assert(j, "%s", e.text);
    json_t *lint = json_object_get(j, "lint");
    cr_assert(json_is_object(lint));
    cr_expect_eq(json_integer_value(json_object_get(lint, "total")), 6);
    cr_expect_eq(json_integer_value(json_object_get(lint, "unlisted")), 0);
    json_t *by = json_object_get(lint, "by_rule");
    cr_expect_eq(json_object_size(by), RULE_COUNT);
    static const char *const broken[6] = {"sem_post_max", "dst_sfpu_read_early",
                                          "dst_riscv_read_early", "src_not_owned",
                                          "cfg_write_use", "sfpu_mad_result"};
    static const long pcs[6] = {0x6044, 0x6054, 0x6060, 0x6070, 0x6078, 0x607c};
    static const long cycles[6] = {18, 22, 25, 78, 80, 81};
    long sum = 0;
    const char *k;
    json_t *v;
    json_object_foreach(by, k, v) sum += json_integer_value(v);
    cr_expect_eq(sum, 6);
    json_t *fs = json_object_get(lint, "findings");
    cr_assert_eq(json_array_size(fs), 6);
    for (unsigned i = 0; i < 6; i++) {
        json_t *f = json_array_get(fs, i);
        cr_expect_eq(json_integer_value(json_object_get(by, broken[i])), 1, "%s", broken[i]);
        cr_expect_str_eq(json_string_value(json_object_get(f, "rule")), broken[i]);
        cr_expect_str_eq(json_string_value(json_object_get(f, "core")), "TRISC0");
        cr_expect_eq(json_integer_value(json_object_get(f, "pc")), pcs[i], "%s", broken[i]);
        cr_expect_eq(json_integer_value(json_object_get(f, "cycle")), cycles[i], "%s", broken[i]);
        cr_expect_eq(json_integer_value(json_object_get(f, "count")), 1);
        cr_expect_eq(json_is_null(json_object_get(f, "thread")), i == 2, "%s", broken[i]);
    }
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(fs, 2), "instruction")),
                     "lw a3, 0(a4)");
    cr_expect_eq(json_integer_value(json_object_get(j, "exit_status")), 113);
    json_decref(j);
    remove(stats);
}

/* Without --lint: the five defined-outcome rules pass silently and the undefined one stops the
 * run with the message and status it always had; no lint section, no "lint" in the stats. */
Test(lint, without_lint_the_first_undefined_break_stops)
{
    static char out[16384];
    const char *stats = "/tmp/tensim-lint-off.json";
    cr_assert_eq(run_tensimf(out, sizeof out, "run --stats %s " K, stats), 104, "%s", out);
    cr_expect(!strncmp(out, "tensim: undefined behaviour: cycle=81: SFPMAD (thread T0, cycle 80, "
                            "issued) writes LRegs 0x8; SFPIADD (thread T0, cycle 81, issued) reads "
                            "0x8 of them the next cycle: Blackhole's interlock misses this read "
                            "(BH:SFPMAD.md)\n", 145),
              "%s", out);
    cr_expect_null(strstr(out, "lint"), "%s", out);
    size_t n;
    char *s = read_whole_file(stats, &n);
    cr_expect_null(strstr(s, "\"lint\""));
    free(s);
    remove(stats);
}

/* --lint with -q: no report, the status still tells. */
Test(lint, quiet_keeps_the_status)
{
    char out[4096];
    cr_expect_eq(run_tensim("run -q --lint " K, out, sizeof out), 113, "%s", out);
    cr_expect_eq(out[0], 0, "%s", out);
}

/* A clean kernel under --lint exits 0 and says so. */
Test(lint, clean_kernel_exits_0)
{
    char out[8192];
    cr_expect_eq(run_tensim("run --lint build/kernels/hello.elf", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "\nlint: 0 breaks of 0 rules at 0 places\n"), "%s", out);
}

/* ---- on tiles built here ---- */

static struct tile *t;
static struct issue_log issues;
static void setup_bh(void)
{
    t = test_tile(ARCH_BLACKHOLE);
    issue_log_attach(t, &issues);
    t->lint = lint_new();
    cr_assert(t->lint);
}
static void setup_wh(void)
{
    t = test_tile(ARCH_WORMHOLE);
    issue_log_attach(t, &issues);
    t->lint = lint_new();
    cr_assert(t->lint);
}
static void teardown(void)
{
    free(t->lint);
    tile_destroy(t);
}
TestSuite(lint_tile, .init = setup_bh, .fini = teardown);
TestSuite(lint_tile_wh, .init = setup_wh, .fini = teardown);

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define RUN(...)                                                                                   \
    do {                                                                                           \
        const uint32_t w_[] = {__VA_ARGS__};                                                       \
        cr_assert_eq(run_tensix(t, w_, N(w_), 100000), ERR_NONE, "%s", t->err.text);               \
    } while (0)

/* SEMGET at 0 stays 0; each get is pushed from its own pc, so three findings, each naming
 * its push and the cycle its SEMGET issued. */
Test(lint_tile, sem_get_zero_at_each_push)
{
    const uint32_t get = TT_OP_SEMGET(1u << 3);
    RUN(TT_OP_SEMINIT(2, 1, 1u << 3), get, get, get, get);
    cr_expect_eq(t->sem.value[3], 0);
    const struct lint *l = t->lint;
    cr_expect_eq(l->by_rule[RULE_SEM_GET_ZERO], 3);
    cr_expect_eq(l->total, 3);
    cr_assert_eq(l->n, 3);
    for (unsigned i = 0; i < 3; i++) {
        cr_expect_eq(l->f[i].rule, RULE_SEM_GET_ZERO);
        cr_expect_eq(l->f[i].count, 1);
        cr_expect_eq(l->f[i].thread, 0);
        cr_expect_eq(l->f[i].core, 0);
        cr_expect_eq(l->f[i].pc, 0x6008 + 4 * i); /* SEMINIT at 0x6000, the first get at 0x6004 */
        cr_expect_eq(l->f[i].word, get);
        cr_expect_eq(l->f[i].cycle, issue_log_cycle(&issues, 0, get, i + 1));
    }
}

/* The same break at the same place again is one finding with a count. */
Test(lint_tile, same_place_counts)
{
    struct rule_site s = {.core = 0, .thread = 1, .pc = 0x6100, .word = TT_OP_SEMGET(1)};
    t->now = 40;
    rule_broken(t, RULE_SEM_GET_ZERO, s, "first");
    t->now = 50;
    rule_broken(t, RULE_SEM_GET_ZERO, s, "second");
    s.pc += 4;
    rule_broken(t, RULE_SEM_GET_ZERO, s, "elsewhere");
    cr_assert_eq(t->lint->n, 2);
    cr_expect_eq(t->lint->f[0].count, 2);
    cr_expect_eq(t->lint->f[0].cycle, 40);
    cr_expect_str_eq(t->lint->f[0].text, "first");
    cr_expect_eq(t->lint->f[1].count, 1);
    cr_expect_eq(t->lint->total, 3);
}

/* With one instruction between WRCFG and the user, nothing is found; without, one finding. */
Test(lint_tile, cfg_write_use_needs_one_instruction_between)
{
    RUN(TT_OP_WRCFG(0, 0, 1), TT_OP_NOP, TT_OP_SFPNOP);
    cr_expect_eq(t->lint->total, 0);
    RUN(TT_OP_WRCFG(0, 0, 1), TT_OP_SFPNOP);
    cr_expect_eq(t->lint->by_rule[RULE_CFG_WRITE_USE], 1);
    cr_expect_eq(t->lint->f[0].cycle, issue_log_cycle(&issues, 0, TT_OP_SFPNOP, 1));
}

/* Wormhole's MAD-result rule: --lint goes on with the new value and counts the hazard. */
Test(lint_tile_wh, mad_result_goes_on_with_the_new_value)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[1][l] = 0x40000000u, t->sfpu.lreg[2][l] = 0x40400000u; /* 2.0, 3.0 */
    const uint32_t mad = TT_OP_SFPMAD(1, 2, 9, 3, 0), mov = TT_OP_SFPMOV(3, 4, 0);
    RUN(mad, mov);
    cr_expect_eq(t->sfpu.lreg[4][0], 0x40C00000u); /* 6.0 */
    cr_expect_eq(t->sfpu.tm.st.hazards[SFPU_HZ_MAD_RESULT], 1);
    cr_assert_eq(t->lint->n, 1);
    cr_expect_eq(t->lint->f[0].rule, RULE_SFPU_MAD_RESULT);
    cr_expect_eq(t->lint->f[0].word, mov);
    cr_expect_eq(t->lint->f[0].cycle, issue_log_cycle(&issues, 0, mov, 0));
    cr_expect(strstr(t->lint->f[0].text, "Wormhole leaves the gap to software (WH:SFPMAD.md)"),
              "%s", t->lint->f[0].text);
}

/* A RISC-V post at Value 15 (a store of 0 to the semaphore's address) is found at its pc. */
Test(lint_tile, riscv_post_at_15)
{
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, 0xFFE80020u + 4 * 2); /* semaphore 2 */
    const uint32_t pc = p.pc;
    E(&p, SW, 0, 5, 0, 0);
    emit_li(&p, 10, 0);
    emit_exit(&p);
    t->sem.value[2] = 15;
    cr_assert_eq(run_core(&p, 0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->sem.value[2], 15);
    cr_assert_eq(t->lint->n, 1);
    cr_expect_eq(t->lint->f[0].rule, RULE_SEM_POST_MAX);
    cr_expect_eq(t->lint->f[0].core, 0);
    cr_expect_eq(t->lint->f[0].thread, -1);
    cr_expect_eq(t->lint->f[0].pc, pc);
}

/* The report lists at most max_lines findings and counts the rest; the record keeps
 * LINT_MAX_FINDINGS distinct ones and counts the breaks past it as unlisted. */
Test(lint_tile, report_cap_and_record_bound)
{
    for (unsigned i = 0; i < LINT_MAX_FINDINGS + 4; i++) {
        struct rule_site s = {.core = 1, .thread = -1, .pc = 0x8000 + 4 * i, .word = 0x13};
        cr_assert(rule_broken(t, RULE_SEM_GET_ZERO, s, "break %u", i));
    }
    cr_expect_eq(t->lint->n, LINT_MAX_FINDINGS);
    cr_expect_eq(t->lint->unlisted, 4);
    cr_expect_eq(t->lint->total, LINT_MAX_FINDINGS + 4);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    lint_report(t->lint, t, 3, f);
    fclose(f);
    cr_expect_str_eq(buf, "lint: 260 breaks of 1 rule at 256 places (and more not listed)\n"
                          "  sem_get_zero cycle=0 TRISC1 pc=0x00008000: addi zero, zero, 0\n"
                          "    break 0\n"
                          "  sem_get_zero cycle=0 TRISC1 pc=0x00008004: addi zero, zero, 0\n"
                          "    break 1\n"
                          "  sem_get_zero cycle=0 TRISC1 pc=0x00008008: addi zero, zero, 0\n"
                          "    break 2\n"
                          "  ... 253 more\n");
    free(buf);
}

/* A long Tensix instruction (PACR, 12 fields) is shown whole in the report and the stats. */
Test(lint_tile, long_instructions_are_not_cut)
{
    const uint32_t w = 0x41000000; /* PACR, every field 0 */
    char want[300];
    tt_disasm(tile_arch_bit(t), w, want, sizeof want);
    cr_assert_gt(strlen(want), 120, "%s", want);
    struct rule_site s = {.core = 2, .thread = 2, .pc = 0xe0f0, .word = w};
    cr_assert(rule_broken(t, RULE_CFG_WRITE_USE, s, "x"));
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    lint_report(t->lint, t, 1, f);
    lint_json(t->lint, t, f);
    fclose(f);
    char line[400];
    snprintf(line, sizeof line, "  cfg_write_use cycle=0 thread T2 (pushed by TRISC2 pc=0x0000e0f0): %s\n", want);
    cr_expect(strstr(buf, line), "%s", buf);
    snprintf(line, sizeof line, "\"instruction\": \"%s\"", want);
    cr_expect(strstr(buf, line), "%s", buf);
    free(buf);
}

/* Without a record, a defined-outcome rule changes nothing and an undefined one stops the run
 * as undefined behaviour naming the core and pc of a RISC-V site. */
Test(lint_tile, without_a_record)
{
    free(t->lint);
    t->lint = NULL;
    struct rule_site s = {.core = 2, .thread = -1, .pc = 0x7000, .word = 0x13};
    cr_expect(rule_broken(t, RULE_SEM_POST_MAX, s, "x"));
    cr_expect_eq(t->err.kind, ERR_NONE);
    cr_expect_not(rule_broken(t, RULE_SFPU_SHUFFLE, s, "shuffle %d", 7));
    cr_expect_eq(t->err.kind, ERR_UNDEF_BEHAVIOUR);
    cr_expect_eq(t->err.core, 2);
    cr_expect_eq(t->err.pc, 0x7000);
    cr_expect_str_eq(t->err.text, "shuffle 7");
}

/* SFPLOAD right after an ELWADD reads rows still being written; a STALLWAIT holding the SFPU
 * (B8) while the thread has an instruction in the matrix unit (C4) is the documented fix. */
Test(lint_tile, sfpload_after_elwadd_needs_a_stallwait)
{
    const uint32_t unp_a = TT_OP_UNPACR_NOP_BH(0, 0, 0, 1, 0, 0, 0, 0, 1);
    const uint32_t unp_b = TT_OP_UNPACR_NOP_BH(1, 0, 0, 1, 0, 0, 0, 0, 1);
    const uint32_t add = TT_OP_ELWADD_BH(0, 0, 0, 0, 0, 0, 0), load = TT_OP_SFPLOAD_BH(0, 0, 0, 0);
    RUN(unp_a, unp_b, add, TT_OP_STALLWAIT_BH(1u << 8, 1u << 4), load);
    cr_expect_eq(t->lint->total, 0);
    cr_expect_geq(issue_log_cycle(&issues, 0, load, 0), issue_log_cycle(&issues, 0, add, 0) + 5);
    tile_reset(t);
    issues.n = 0;
    RUN(unp_a, unp_b, add, load);
    cr_assert_eq(t->lint->n, 1);
    cr_expect_eq(t->lint->f[0].rule, RULE_DST_SFPU_EARLY);
    cr_expect_eq(t->lint->f[0].cycle, issue_log_cycle(&issues, 0, add, 0) + 1);
    cr_expect_eq(t->lint->f[0].word, load);
}

/* UNPACR_NOP SETDVALID (Unpack_Pop 2: no zeroing, which would wait for the bank) does not wait
 * for the bank: the third one on SrcA hands over bank 0, which the first gave the matrix unit;
 * the finding names the third push. */
Test(lint_tile, unpacr_nop_setdvalid_without_ownership)
{
    const uint32_t unp_a = TT_OP_UNPACR_NOP_BH(0, 0, 0, 1, 0, 0, 0, 0, 2);
    RUN(unp_a, unp_a, unp_a);
    cr_assert_eq(t->lint->n, 1);
    cr_expect_eq(t->lint->f[0].rule, RULE_SRC_NOT_OWNED);
    cr_expect_eq(t->lint->f[0].word, unp_a);
    cr_expect_eq(t->lint->f[0].core, 0);
    cr_expect_eq(t->lint->f[0].pc, 0x6008);
    cr_expect_eq(t->lint->f[0].thread, 0);
    cr_expect_str_eq(t->lint->f[0].text, "UNPACR_NOP (unpacker 0, thread T0) SETDVALID hands over "
                                         "SrcA bank 0, which the matrix unit already owns");
    cr_expect_eq(t->src.bank[0][0].client, SRC_CLIENT_MATRIX);
    cr_expect_eq(t->src.unpack_bank[0], 1);
}

/* docs/user-guide.md "Lint" has a row for every rule, with its page and what tensim goes on
 * with. */
Test(lint, user_guide_lists_every_rule)
{
    char *doc = read_whole_file("docs/user-guide.md", NULL);
    for (unsigned r = 0; r < RULE_COUNT; r++) {
        char row[600];
        snprintf(row, sizeof row, "| `%s` | %s | %s (%s) | %s |\n", rule_key(r),
                 rule_stops(r) ? "yes (104)" : "no", rule_text(r), rule_page(r), rule_goes_on(r));
        cr_expect(strstr(doc, row), "docs/user-guide.md lacks the row:\n%s", row);
    }
    free(doc);
}
