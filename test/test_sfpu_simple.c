/* The vector unit's lane predication, condition codes and simple instructions (units/sfpu_cc.c,
 * units/sfpu_simple.c), on Blackhole (suite sfpu_simple) and Wormhole B0 (sfpu_simple_wh).
 * Expected values are worked out here from the ISA pages' definitions, lane by lane. */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/sfpu.h"
#include "harness.h"
#include "sfpu_test.h"
#include "tensix_ops.h"

TestSuite(sfpu_simple, .init = setup_bh, .fini = teardown);
TestSuite(sfpu_simple_wh, .init = setup_wh, .fini = teardown);

/* SFPENCC forms: predication on with every flag true; with every flag false */
#define FLAGS_ON TT_OP_SFPENCC(3, 0, 10)
#define FLAGS_ON_FALSE TT_OP_SFPENCC(1, 0, 10)
/* SFPSETCC Mod1 */
enum { LT0 = 0, IMM = 1, NE0 = 2, GTE0 = 4, EQ0 = 6, CLEAR = 8 };

/* Values that exercise signs, zeros and FP32 specials: one per lane. */
static const uint32_t edge[32] = {
    0x00000000, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x3F800000, 0xBF800000,
    0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0xFF800001, 0x7F800001, 0x00400000, 0x807FFFFF,
    0x12345678, 0x9ABCDEF0, 0x40490FDB, 0xC0490FDB, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
    0x0000FFFF, 0xFFFF0000, 0x55555555, 0xAAAAAAAA, 0x00000020, 0xFFFFFFE0, 0x0000001F, 0xFFFFFFE1,
};

static void load(unsigned r, const uint32_t *v)
{
    memcpy(t->sfpu.lreg[r], v, sizeof t->sfpu.lreg[r]);
}
static void expect_lreg(unsigned r, const uint32_t *want)
{
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[r][l], want[l], "LReg[%u] lane %u: 0x%08x, want 0x%08x", r, l,
                     t->sfpu.lreg[r][l], want[l]);
}
/* LReg[1] := 1 on lanes where `mask` has a bit, else 0; then SETCC NE0 on it (after FLAGS_ON)
 * gives those lanes' flags. */
static void mask_to_lreg(unsigned r, uint32_t mask)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[r][l] = mask >> l & 1;
}
static uint32_t flags_mask(void)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < 32; l++)
        m |= (uint32_t)t->sfpu.lane_flags[l] << l;
    return m;
}

/* ---- lane enables (VectorUnit.md IsLaneEnabled) ---- */

/* ROW_MASK bit r of a column's LaneConfig disables row r (lanes 8r..8r+7) of that column;
 * disabled lanes keep their LReg values. */
Test(sfpu_simple, row_mask_disables_rows_and_keeps_values)
{
    fill_old(2);
    /* LaneConfig := 0x5104 (ROW_MASK rows 0 and 2) in some columns only: with Mod1 9 bit 2c of
     * the same Imm16 selects column c, so bits 2, 8, 12 and 14 pick columns 1, 4, 6 and 7 */
    RUN(TT_OP_SFPCONFIG(0x5000 | 1u << 2 | 1u << 8, 15, 9), TT_OP_SFPNOP,
        TT_OP_SFPLOADI(2, 2, 0xBEEF));
    uint32_t want[32];
    for (unsigned l = 0; l < 32; l++) {
        const unsigned row = l / 8, col = l % 8;
        const bool masked = (col == 1 || col == 4 || col >= 6) && (row == 0 || row == 2);
        want[l] = masked ? old(2, l) : 0xBEEF;
    }
    expect_lreg(2, want);
}

/* UseLaneFlagsForLaneEnable with LaneFlags false disables a lane; flags unused, it runs. */
Test(sfpu_simple, lane_flags_gate_writes_only_when_in_use)
{
    fill_old(3);
    mask_to_lreg(1, 0x0F0F00FFu);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 1, 0, NE0), TT_OP_SFPLOADI(3, 2, 0x1234),
        TT_OP_SFPENCC(0, 0, 2), /* EI with E=0: flags no longer used, all set true */
        TT_OP_SFPLOADI(4, 2, 0x77));
    uint32_t want[32], all[32];
    for (unsigned l = 0; l < 32; l++) {
        want[l] = (0x0F0F00FFu >> l & 1) ? 0x1234 : old(3, l);
        all[l] = 0x77;
    }
    expect_lreg(3, want);
    expect_lreg(4, all);
}

/* ---- SFPSETCC ---- */

static uint32_t setcc_mask(unsigned mod1)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t v = edge[l];
        const bool neg = v >= 0x80000000u; /* two's complement view */
        bool f = mod1 == LT0 ? neg : mod1 == NE0 ? v != 0 : mod1 == GTE0 ? !neg : v == 0;
        m |= (uint32_t)f << l;
    }
    return m;
}

Test(sfpu_simple, setcc_sign_and_zero_tests_on_the_integer_view)
{
    static const unsigned modes[] = {LT0, NE0, GTE0, EQ0};
    for (unsigned i = 0; i < 4; i++) {
        tile_reset(t);
        load(5, edge);
        RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 5, 0, modes[i]));
        cr_expect_eq(flags_mask(), setcc_mask(modes[i]), "Mod1 %u: 0x%08x", modes[i], flags_mask());
    }
    /* -0.0 (0x80000000) is "< 0" and "!= 0"; +0 is ">= 0" and "== 0" */
    cr_expect_eq(setcc_mask(LT0) & 3, 2);
    cr_expect_eq(setcc_mask(EQ0) & 3, 1);
}

Test(sfpu_simple, setcc_immediate_clear_and_without_predication)
{
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 0, 0, IMM));
    cr_expect_eq(flags_mask(), 0);
    tile_reset(t);
    RUN(FLAGS_ON_FALSE, TT_OP_SFPENCC(3, 0, 10), TT_OP_SFPSETCC(1, 0, 0, IMM | 2));
    cr_expect_eq(flags_mask(), 0xFFFFFFFFu); /* bit 0 wins over the compare bits */
    /* CLEAR wins over the immediate */
    tile_reset(t);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(1, 0, 0, CLEAR | IMM));
    cr_expect_eq(flags_mask(), 0);
    /* flags not in use: SETCC clears LaneFlags whatever the mode (ENCC Mod1 8: flags := R) */
    tile_reset(t);
    RUN(TT_OP_SFPENCC(2, 0, 8), TT_OP_SFPSETCC(1, 0, 0, IMM));
    cr_expect(!t->sfpu.use_lane_flags[0]);
    cr_expect_eq(flags_mask(), 0);
}

/* Disabled lanes (flag false, or ROW_MASK) keep their flags through SETCC. */
Test(sfpu_simple, setcc_leaves_disabled_lanes_alone)
{
    mask_to_lreg(1, 0x0000FFFFu);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 1, 0, NE0),       /* lanes 16..31 disabled */
        TT_OP_SFPSETCC(0, 9, 0, EQ0));                /* LReg[9] is 0: true where enabled */
    cr_expect_eq(flags_mask(), 0x0000FFFFu);
    /* enabled lanes with a false result go false and stay disabled for the next one */
    tile_reset(t);
    load(5, edge);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 5, 0, LT0), TT_OP_SFPSETCC(0, 9, 0, EQ0));
    cr_expect_eq(flags_mask(), setcc_mask(LT0));
    /* ROW_MASK too: rows 2 and 3 keep their flag (true) through a false test */
    tile_reset(t);
    fill(1, 0);
    RUN(TT_OP_SFPCONFIG(0xC000, 15, 1), TT_OP_SFPNOP, FLAGS_ON, TT_OP_SFPSETCC(0, 1, 0, NE0));
    cr_expect_eq(flags_mask(), 0xFFFF0000u);
}

/* ---- the flag stack ---- */

/* Each depth 0..8 of trailing ones, with and without bit 7, and some patterns with holes. */
static uint32_t lane_bits(unsigned l)
{
    if (l < 9)
        return (1u << l) - 1;
    if (l < 18)
        return ((1u << (l - 9)) - 1) | 0x80;
    return l * 0x9Du & 0xFF;
}

/* Nested SIMT if/else 8 deep as a compiler emits it: at depth d, PUSHC; SETCC "bit d of
 * LReg[0] set" (lanes whose bit is clear go off); write d + 1 into LReg[1]; COMPC (else);
 * write 100 + d; then unwind with POPC. A lane ends with the value of the innermost level it
 * reached: the last level whose "if" or "else" it was enabled in. */
Test(sfpu_simple, nested_conditionals_eight_deep)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[0][l] = lane_bits(l);
    fill_old(1);
    uint32_t w[80];
    unsigned n = 0;
    w[n++] = FLAGS_ON;
    for (unsigned d = 0; d < 8; d++) {
        w[n++] = TT_OP_SFPPUSHC_BH(0, 0);
        w[n++] = TT_OP_SFPLOADI(2, 2, 1u << d);           /* LReg[2] := bit d */
        w[n++] = TT_OP_SFPAND_BH(0, 0, 2, 0);             /* LReg[2] &= LReg[0] */
        w[n++] = TT_OP_SFPSETCC(0, 2, 0, NE0);
        w[n++] = TT_OP_SFPLOADI(1, 2, d + 1);
        if (d == 7) {
            w[n++] = TT_OP_SFPCOMPC(0);
            w[n++] = TT_OP_SFPLOADI(1, 2, 100 + d);
        }
    }
    for (unsigned d = 0; d < 8; d++)
        w[n++] = TT_OP_SFPPOPC(0, 0);
    w[n++] = TT_OP_SFPLOADI(3, 2, 0x55); /* all lanes enabled again */
    cr_assert_eq(run_tensix(t, w, n, 100000), ERR_NONE, "%s", t->err.text);
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t bits = lane_bits(l);
        unsigned depth = 0; /* levels 0..depth-1 taken: trailing ones of bits */
        while (depth < 8 && (bits >> depth & 1))
            depth++;
        uint32_t want = depth ? depth : old(1, l);
        if (depth == 7) /* reached level 7's if, its bit clear: the else of level 7 */
            want = 107;
        cr_expect_eq(t->sfpu.lreg[1][l], want, "lane %u bits 0x%x: 0x%x, want 0x%x", l, bits,
                     t->sfpu.lreg[1][l], want);
        cr_expect_eq(t->sfpu.lreg[3][l], 0x55);
        cr_expect_eq(t->sfpu.flag_depth[l], 0);
        cr_expect(t->sfpu.use_lane_flags[l] && t->sfpu.lane_flags[l]);
    }
}

Test(sfpu_simple, pushc_on_a_full_stack_is_undefined)
{
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPPUSHC_BH(0, 0),
              TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPPUSHC_BH(0, 0),
              TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPPUSHC_BH(0, 0),
              TT_OP_SFPPUSHC_BH(0, 0));
    cr_expect_str_eq(t->err.text, "SFPPUSHC (sfpu), thread T0: SFPPUSHC on a full flag stack (lane 0)");
    cr_expect_eq(t->sfpu.flag_depth[31], 8);
}

Test(sfpu_simple, popc_on_an_empty_stack_and_pushc_mod1_on_empty_are_undefined)
{
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPPOPC(0, 0), TT_OP_SFPPOPC(0, 0));
    cr_expect_str_eq(t->err.text, "SFPPOPC (sfpu), thread T0: SFPPOPC on an empty flag stack (lane 0)");
    tile_reset(t);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPPUSHC_BH(0, 3));
    /* POPC Mod1 != 0 on an empty stack is defined: it reads {false, false} */
    tile_reset(t);
    RUN(FLAGS_ON, TT_OP_SFPPOPC(0, 4)); /* LaneFlags || false, Use := false */
    cr_expect(!t->sfpu.use_lane_flags[3] && t->sfpu.lane_flags[3]);
}

/* The undefined cases are checked on every lane before anything changes: one empty lane stops a
 * POPC that the other lanes could do, and the backdoor lanes get no template either. */
Test(sfpu_simple, a_fault_changes_nothing)
{
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.flag_depth[l] = l == 5 ? 0 : 3;
        t->sfpu.lane_config[l] = (l & 7) == 5 ? 2 : 0; /* column 5: DISABLE_BACKDOOR_LOAD */
    }
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPPOPC(12, 0));
    cr_expect_str_eq(t->err.text, "SFPPOPC (sfpu), thread T0: SFPPOPC on an empty flag stack (lane 5)");
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.flag_depth[l], l == 5 ? 0 : 3, "lane %u", l);
        cr_expect_eq(t->sfpu.macro[l].instruction_template[0], 0, "lane %u", l);
    }
}

/* BooleanOp(Mod1, A, B) as truth tables: bit (A << 1 | B) of op_table[Mod1] (SFPPUSHC.md). */
static const uint8_t op_table[13] = {0, 0xA, 0x5, 0x8, 0xE, 0x4, 0xD, 0x2, 0xB, 0x1, 0x7, 0x6, 0x9};
static bool op(unsigned mod1, bool a, bool b) { return op_table[mod1] >> (a << 1 | b) & 1; }

/* Lane l (and l + 16): stack top flag = bit 0 of l, current flag = bit 1; bit 2 clears the
 * top's Use and bit 3 the current Use. Set directly: no instruction sets Use per lane. */
static void setup_top_and_current(void)
{
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.flag_stack[l][0].lane_flags = l & 1;
        t->sfpu.flag_stack[l][0].use_lane_flags = !(l & 4);
        t->sfpu.flag_depth[l] = 1;
        t->sfpu.lane_flags[l] = l >> 1 & 1;
        t->sfpu.use_lane_flags[l] = !(l & 8);
    }
}

Test(sfpu_simple, pushc_mod1_rewrites_the_top)
{
    for (unsigned mod1 = 1; mod1 < 16; mod1++) {
        tile_reset(t);
        setup_top_and_current();
        const uint32_t w[] = {TT_OP_SFPPUSHC_BH(0, mod1)};
        cr_assert_eq(run_tensix(t, w, 1, 100000), ERR_NONE, "%s", t->err.text);
        for (unsigned l = 0; l < 32; l++) {
            const bool a = l & 1, b = l >> 1 & 1, use = !(l & 8);
            bool top_f, top_use = use, cur = b;
            if (mod1 <= 12)
                top_f = op(mod1, a, b);
            else if (mod1 == 13)
                cur = !b, top_f = cur;
            else
                top_use = true, top_f = mod1 == 14;
            const struct sfpu_flag_entry *e = &t->sfpu.flag_stack[l][0];
            cr_expect_eq(t->sfpu.flag_depth[l], 1);
            cr_expect_eq(e->lane_flags, top_f, "Mod1 %u lane %u: top flag", mod1, l);
            cr_expect_eq(e->use_lane_flags, top_use, "Mod1 %u lane %u: top use", mod1, l);
            cr_expect_eq(t->sfpu.lane_flags[l], cur, "Mod1 %u lane %u: current flag", mod1, l);
            cr_expect_eq(t->sfpu.use_lane_flags[l], use, "Mod1 %u lane %u: current use", mod1, l);
        }
    }
}

static void check_popc(unsigned mod1)
{
    for (unsigned l = 0; l < 32; l++) {
        const bool a = l & 1, b = l >> 1 & 1, top_use = !(l & 4), use = !(l & 8);
        bool f, u;
        if (mod1 == 0)
            f = a, u = top_use;
        else if (mod1 <= 12)
            f = op(mod1, b, a), u = top_use; /* BooleanOp(Mod1, LaneFlags, Top.LaneFlags) */
        else if (mod1 == 13)
            f = !b, u = use;
        else
            f = mod1 == 14, u = true;
        cr_expect_eq(t->sfpu.lane_flags[l], f, "Mod1 %u lane %u: flag", mod1, l);
        cr_expect_eq(t->sfpu.use_lane_flags[l], u, "Mod1 %u lane %u: use", mod1, l);
        cr_expect_eq(t->sfpu.flag_depth[l], mod1 ? 1 : 0, "Mod1 %u lane %u: depth", mod1, l);
    }
}

/* Every Mod1 of SFPPOPC on the same stack top and current flags. */
static void popc_every_mod1(void)
{
    for (unsigned mod1 = 0; mod1 < 16; mod1++) {
        tile_reset(t);
        setup_top_and_current();
        const uint32_t w[] = {TT_OP_SFPPOPC(0, mod1)};
        cr_assert_eq(run_tensix(t, w, 1, 100000), ERR_NONE, "%s", t->err.text);
        check_popc(mod1);
    }
}
Test(sfpu_simple, popc_pops_or_combines_with_the_top) { popc_every_mod1(); }

/* SFPCOMPC.md: top.LaneFlags && !LaneFlags when both Use bits are set, else false. */
Test(sfpu_simple, compc_against_the_top)
{
    setup_top_and_current();
    RUN(TT_OP_SFPCOMPC(0));
    for (unsigned l = 0; l < 32; l++) {
        const bool a = l & 1, b = l >> 1 & 1, both = !(l & 4) && !(l & 8);
        cr_expect_eq(t->sfpu.lane_flags[l], both && a && !b, "lane %u", l);
    }
    /* an empty stack reads {true, true}: COMPC inverts the flags */
    tile_reset(t);
    mask_to_lreg(1, 0x12345678u);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 1, 0, NE0), TT_OP_SFPCOMPC(0));
    cr_expect_eq(flags_mask(), ~0x12345678u);
    /* flags not in use: false */
    tile_reset(t);
    RUN(TT_OP_SFPENCC(0, 0, 2), TT_OP_SFPCOMPC(0));
    cr_expect_eq(flags_mask(), 0);
}

/* The flag instructions act on every lane, ROW_MASK or not (only SETCC looks at LaneEnabled). */
Test(sfpu_simple, flag_stack_ignores_row_mask)
{
    RUN(TT_OP_SFPCONFIG(0xF000, 15, 1), FLAGS_ON_FALSE, TT_OP_SFPPUSHC_BH(0, 0), FLAGS_ON,
        TT_OP_SFPCOMPC(0), TT_OP_SFPPOPC(0, 13));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect(!sfpu_lane_enabled(&t->sfpu, l));
        cr_expect_eq(t->sfpu.flag_depth[l], 1);
        cr_expect(!t->sfpu.flag_stack[l][0].lane_flags && t->sfpu.flag_stack[l][0].use_lane_flags);
        cr_expect(t->sfpu.lane_flags[l]); /* COMPC: false && !true = false; POPC 13 inverts */
    }
}

Test(sfpu_simple_wh, popc_pops_or_combines_with_the_top) { popc_every_mod1(); }

/* WH:SFPPOPC.md: Mod1 != 0 with 8 entries copies the top over the bottom (fixed on Blackhole). */
static void full_stack_popc(void)
{
    uint32_t w[20];
    unsigned n = 0;
    w[n++] = FLAGS_ON_FALSE;             /* bottom entry: {false, true} */
    w[n++] = TT_OP_SFPPUSHC_WH(0);
    w[n++] = FLAGS_ON;
    for (unsigned i = 1; i < 8; i++)     /* the rest: {true, true} */
        w[n++] = TT_OP_SFPPUSHC_WH(0);
    w[n++] = TT_OP_SFPPOPC(0, 3);        /* LaneFlags && top */
    cr_assert_eq(run_tensix(t, w, n, 100000), ERR_NONE, "%s", t->err.text);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.flag_depth[l], 8);
}
Test(sfpu_simple_wh, popc_on_a_full_stack_overwrites_the_bottom)
{
    full_stack_popc();
    cr_expect(t->sfpu.flag_stack[0][0].lane_flags && t->sfpu.flag_stack[31][0].lane_flags);
}
Test(sfpu_simple_wh, pushc_pushes_until_full)
{
    RUN(FLAGS_ON_FALSE, TT_OP_SFPPUSHC_WH(0), FLAGS_ON, TT_OP_SFPPUSHC_WH(0));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.flag_depth[l], 2);
        cr_expect(!t->sfpu.flag_stack[l][0].lane_flags && t->sfpu.flag_stack[l][0].use_lane_flags);
        cr_expect(t->sfpu.flag_stack[l][1].lane_flags && t->sfpu.flag_stack[l][1].use_lane_flags);
    }
    tile_reset(t);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPPUSHC_WH(0), TT_OP_SFPPUSHC_WH(0), TT_OP_SFPPUSHC_WH(0),
              TT_OP_SFPPUSHC_WH(0), TT_OP_SFPPUSHC_WH(0), TT_OP_SFPPUSHC_WH(0), TT_OP_SFPPUSHC_WH(0),
              TT_OP_SFPPUSHC_WH(0), TT_OP_SFPPUSHC_WH(0));
}
Test(sfpu_simple, popc_on_a_full_stack_keeps_the_bottom)
{
    full_stack_popc();
    cr_expect(!t->sfpu.flag_stack[0][0].lane_flags && !t->sfpu.flag_stack[31][0].lane_flags);
}

/* ---- SFPLOADI ---- */

Test(sfpu_simple, loadi_every_mode)
{
    struct { unsigned mod0; uint16_t imm; uint32_t want; } c[] = {
        {0, 0x3F80, 0x3F800000}, {0, 0xFFC1, 0xFFC10000},   /* BF16: imm << 16 */
        {1, 0x3C00, 0x3F800000},                             /* FP16 1.0 */
        {1, 0xC000, 0xC0000000},                             /* -2.0 */
        {1, 0x0000, 0x38000000},                             /* zero rebiased: 2^-15 */
        {1, 0x7C00, 0x47800000},                             /* "inf" is 65536 */
        {1, 0xFFFF, 0xC7FFE000},                             /* "NaN" is finite too */
        {1, 0x0001, 0x38002000},                             /* denormal not normalised */
        {2, 0xFFFF, 0x0000FFFF}, {4, 0xFFFF, 0xFFFFFFFF}, {4, 0x7FFF, 0x00007FFF},
        {4, 0x8000, 0xFFFF8000},
        {8, 0xABCD, 0xABCD0000 | 0x5678}, {10, 0xABCD, 0x12340000 | 0xABCD}, /* halves */
    };
    for (unsigned i = 0; i < N(c); i++) {
        tile_reset(t);
        fill(6, 0x12345678);
        const uint32_t w[] = {TT_OP_SFPLOADI(6, c[i].mod0, c[i].imm)};
        cr_assert_eq(run_tensix(t, w, 1, 100000), ERR_NONE, "%s", t->err.text);
        for (unsigned l = 0; l < 32; l += 31)
            cr_expect_eq(t->sfpu.lreg[6][l], c[i].want, "Mod0 %u imm 0x%04x: 0x%08x, want 0x%08x",
                         c[i].mod0, c[i].imm, t->sfpu.lreg[6][l], c[i].want);
    }
}

Test(sfpu_simple, loadi_undefined_mode_and_read_only_registers)
{
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPLOADI(0, 3, 1));
    cr_expect_str_eq(t->err.text, "SFPLOADI (sfpu), thread T0: SFPLOADI Mod0 3");
    /* no lane enabled: nothing runs, nothing undefined */
    tile_reset(t);
    RUN(FLAGS_ON_FALSE, TT_OP_SFPLOADI(0, 3, 1));
    /* VD 8..15 write nothing, and SFPLOADI has no backdoor */
    tile_reset(t);
    RUN(TT_OP_SFPLOADI(8, 2, 1), TT_OP_SFPLOADI(10, 2, 1), TT_OP_SFPLOADI(11, 2, 1),
        TT_OP_SFPLOADI(12, 2, 1), TT_OP_SFPLOADI(15, 2, 1));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[8][l], 0x3F56594Bu);
        cr_expect_eq(t->sfpu.lreg[10][l], 0x3F800000u);
        cr_expect_eq(t->sfpu.lreg[11][l], 0xBF800000u);
        cr_expect_eq(t->sfpu.lreg[12][l], 0x37800000u);
        cr_expect_eq(t->sfpu.lreg[15][l], l * 2);
        cr_expect_eq(t->sfpu.macro[l].instruction_template[0], 0);
    }
}

/* ---- SFPMOV ---- */

Test(sfpu_simple, mov_copy_negate_and_all_lanes)
{
    load(5, edge);
    fill_old(1), fill_old(2), fill_old(3), fill_old(4);
    mask_to_lreg(6, 0x00FF00FFu);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 6, 0, NE0), TT_OP_SFPMOV(5, 1, 0), TT_OP_SFPMOV(5, 2, 1),
        TT_OP_SFPMOV(5, 3, 2), TT_OP_SFPMOV(5, 4, 3));
    uint32_t copy[32], neg[32], all[32], neg_en[32];
    for (unsigned l = 0; l < 32; l++) {
        const bool en = 0x00FF00FFu >> l & 1;
        copy[l] = en ? edge[l] : old(1, l);
        neg[l] = en ? edge[l] + 0x80000000u : old(2, l); /* bit 31 flips */
        all[l] = edge[l];                                /* Mod1 2: every lane */
        neg_en[l] = en ? edge[l] + 0x80000000u : old(4, l); /* Mod1 3 is not exactly 2 */
    }
    expect_lreg(1, copy);
    expect_lreg(2, neg);
    expect_lreg(3, all);
    expect_lreg(4, neg_en);
}

Test(sfpu_simple, mov_from_special_registers)
{
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.macro[l].instruction_template[2] = 0x100 + l;
        t->sfpu.macro[l].sequence[3] = 0x200 + l;
        t->sfpu.macro[l].misc = 0x300 + l;
        t->sfpu.lane_config[l] = 0x400 + l; /* ROW_MASK clear: every lane enabled */
    }
    fill_old(4);
    RUN(TT_OP_SFPMOV(2, 0, 8), TT_OP_SFPMOV(7, 1, 8), TT_OP_SFPMOV(8, 2, 9), /* NEGATE ignored */
        TT_OP_SFPMOV(15, 3, 8), TT_OP_SFPMOV(12, 4, 8));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[0][l], 0x100 + l);
        cr_expect_eq(t->sfpu.lreg[1][l], 0x200 + l);
        cr_expect_eq(t->sfpu.lreg[2][l], 0x300 + l);
        cr_expect_eq(t->sfpu.lreg[3][l], 0x400 + l);
        cr_expect_eq(t->sfpu.lreg[4][l], 0); /* VC 10..14: zero */
    }
}

/* ---- the PRNG (VectorUnit.md "PRNG"; seeding as ttsim does it, docs/sfpu.md) ---- */

/* AdvancePRNG's next state, worked out bit by bit: the complement of the parity of bits 31, 21,
 * 1 and 0 comes in at the top as the state shifts right. */
static uint32_t prng_next(uint32_t x)
{
    unsigned parity = ((x >> 31) ^ (x >> 21) ^ (x >> 1) ^ x) & 1;
    return (parity ? 0u : 0x80000000u) | x >> 1;
}

/* Lane l's state after seeding with `seed`: 32 steps, then lanes 31 down to 0 take every
 * second state. */
static void prng_seeded(uint32_t seed, uint32_t state[32])
{
    for (unsigned i = 0; i < 32; i++)
        seed = prng_next(seed);
    for (unsigned i = 0; i < 32; i++) {
        seed = prng_next(prng_next(seed));
        state[31 - i] = seed;
    }
}

Test(sfpu_simple, mov_reads_and_advances_each_lanes_prng)
{
    uint32_t st[32];
    prng_seeded(0x12345678u, st);
    tile_signal(t, SIG_PRNG_SEED, 0x12345678u, 0);
    for (unsigned l = 0; l < 32; l++)
        cr_assert_eq(t->sfpu.prng[l], st[l], "lane %u seeded", l);
    t->sfpu.lane_config[1] = 1u << (SFPU_LC_ROW_MASK_SHIFT + 2); /* column 1, row 2: lane 17 off */
    for (unsigned r = 0; r < 3; r++)
        fill_old(r);
    /* VD 9 writes nothing but still advances the PRNG of every lane that runs */
    RUN(TT_OP_SFPMOV(9, 0, 8), TT_OP_SFPMOV(9, 9, 8), TT_OP_SFPMOV(9, 1, 8), TT_OP_SFPMOV(9, 2, 10));
    for (unsigned l = 0; l < 32; l++) {
        const bool off = l == 17;
        const uint32_t s1 = prng_next(st[l]), s2 = prng_next(s1);
        cr_expect_eq(t->sfpu.lreg[0][l], off ? old(0, l) : st[l], "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[1][l], off ? old(1, l) : s2, "lane %u", l);
        /* Mod1 10 is not exactly ALL_LANES_ENABLED (2): disabled lanes stay */
        cr_expect_eq(t->sfpu.lreg[2][l], off ? old(2, l) : prng_next(s2), "lane %u", l);
        cr_expect_eq(t->sfpu.prng[l], off ? st[l] : prng_next(prng_next(s2)), "lane %u", l);
    }
}

/* A store to Config.PRNG_SEED_Seed_Val through the RISC-V window reseeds as it lands. */
Test(sfpu_simple, a_seed_written_to_config_reseeds)
{
    uint32_t st[32];
    prng_seeded(0xCAFEF00Du, st);
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, 0xFFEF0000u + 4 * CFG_DESC(TT_ARCH_BH, PRNG_SEED_Seed_Val)->word);
    emit_li(&p, 6, 0xCAFEF00Du);
    E(&p, SW, 0, 5, 6, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.prng[l], st[l], "lane %u", l);
}

/* ---- bitwise ---- */

static void bitwise_operands(void)
{
    load(5, edge);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[6][l] = 0x0F0F0F0Fu * (l + 1);
}

Test(sfpu_simple, not_and_or_xor)
{
    bitwise_operands();
    RUN(TT_OP_SFPNOT(5, 0), TT_OP_SFPMOV(6, 1, 0), TT_OP_SFPAND_BH(0, 5, 1, 0),
        TT_OP_SFPMOV(6, 2, 0), TT_OP_SFPOR_BH(0, 5, 2, 0), TT_OP_SFPMOV(6, 3, 0),
        TT_OP_SFPXOR(5, 3), TT_OP_SFPAND_BH(6, 5, 4, 1), TT_OP_SFPOR_BH(6, 5, 7, 1));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t a = edge[l], b = 0x0F0F0F0Fu * (l + 1);
        cr_expect_eq(t->sfpu.lreg[0][l], 0xFFFFFFFFu - a);
        cr_expect_eq(t->sfpu.lreg[1][l], a & b);
        cr_expect_eq(t->sfpu.lreg[2][l], a | b);
        cr_expect_eq(t->sfpu.lreg[3][l], (a | b) - (a & b)); /* xor */
        cr_expect_eq(t->sfpu.lreg[4][l], a & b, "USE_VB and");
        cr_expect_eq(t->sfpu.lreg[7][l], a | b, "USE_VB or");
    }
}

Test(sfpu_simple_wh, and_or_without_vb)
{
    bitwise_operands();
    RUN(TT_OP_SFPMOV(6, 1, 0), TT_OP_SFPAND_WH(5, 1), TT_OP_SFPMOV(6, 2, 0), TT_OP_SFPOR_WH(5, 2),
        TT_OP_SFPMOV(6, 3, 0), TT_OP_SFPXOR(5, 3), TT_OP_SFPNOT(5, 4));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t a = edge[l], b = 0x0F0F0F0Fu * (l + 1);
        cr_expect_eq(t->sfpu.lreg[1][l], a & b);
        cr_expect_eq(t->sfpu.lreg[2][l], a | b);
        cr_expect_eq(t->sfpu.lreg[3][l], (a | b) & ~(a & b));
        cr_expect_eq(t->sfpu.lreg[4][l], ~a);
    }
}

/* ---- SFPIADD ---- */

/* VC + VD, VC - VD, VC + Imm12 (signed), wrapping; LaneFlags from the sign of the result,
 * left alone (CC_NONE) or inverted (CC_GTE0). */
static void check_iadd(unsigned mod1, uint32_t imm12)
{
    tile_reset(t);
    load(5, edge);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[1][l] = edge[31 - l];
    for (unsigned l = 0; l < 32; l++) /* the flags before, for CC_NONE; not in use */
        t->sfpu.lane_flags[l] = 0x33333333u >> l & 1;
    const uint32_t w[] = {TT_OP_SFPIADD(imm12, 5, 1, mod1)};
    cr_assert_eq(run_tensix(t, w, N(w), 100000), ERR_NONE, "%s", t->err.text);
    const int64_t imm = imm12 >= 0x800 ? (int64_t)imm12 - 0x1000 : imm12;
    for (unsigned l = 0; l < 32; l++) {
        const int64_t c = edge[l], d = edge[31 - l];
        const int64_t sum = (mod1 & 1) ? c + imm : (mod1 & 2) ? c - d : c + d;
        const uint32_t r = (uint32_t)(sum & 0xFFFFFFFF);
        bool f = (0x33333333u >> l) & 1;
        if (!(mod1 & 4))
            f = r >= 0x80000000u;
        if (mod1 & 8)
            f = !f;
        cr_expect_eq(t->sfpu.lreg[1][l], r, "Mod1 %u lane %u: 0x%08x, want 0x%08x", mod1, l,
                     t->sfpu.lreg[1][l], r);
        cr_expect_eq(t->sfpu.lane_flags[l], f, "Mod1 %u lane %u: flag", mod1, l);
    }
}

Test(sfpu_simple, iadd_register_immediate_and_flags)
{
    static const unsigned args[] = {0, 1, 2};
    static const unsigned cc[] = {0, 4, 8, 12};
    static const uint32_t imms[] = {0x001, 0xFFF, 0x7FF, 0x800};
    for (unsigned a = 0; a < 3; a++)
        for (unsigned c = 0; c < 4; c++)
            for (unsigned i = 0; i < (args[a] == 1 ? 4 : 1); i++)
                check_iadd(args[a] | cc[c], imms[i]);
    /* 0x7FFFFFFF + 1 wraps to 0x80000000: "< 0" */
    cr_expect_eq((uint32_t)(edge[2] + 1u), 0x80000000u);
}

/* With predication on, disabled lanes keep their value and their flag; VD >= 8: no write, no
 * flag change. */
Test(sfpu_simple, iadd_disabled_lanes_and_read_only_destinations)
{
    fill_old(1);
    mask_to_lreg(2, 0xFFFF0000u);
    RUN(FLAGS_ON, TT_OP_SFPSETCC(0, 2, 0, NE0), TT_OP_SFPIADD(0xFFF, 9, 1, 1), /* 0 - 1 */
        TT_OP_SFPIADD(0, 9, 10, 8), TT_OP_SFPIADD(5, 9, 8, 1));
    for (unsigned l = 0; l < 32; l++) {
        const bool en = l >= 16;
        cr_expect_eq(t->sfpu.lreg[1][l], en ? 0xFFFFFFFFu : old(1, l));
        cr_expect_eq(t->sfpu.lane_flags[l], en, "lane %u", l); /* -1 < 0 */
        cr_expect_eq(t->sfpu.lreg[10][l], 0x3F800000u);
        cr_expect_eq(t->sfpu.lreg[8][l], 0x3F56594Bu);
    }
}

/* ---- SFPSHFT ---- */

static uint32_t shift_ref(uint32_t x, int64_t amount, bool arith)
{
    const unsigned n = (unsigned)((amount < 0 ? -amount : amount) % 32);
    if (amount >= 0)
        return (uint32_t)((uint64_t)x << n);
    if (arith && (x >> 31))
        return (uint32_t)~((uint64_t)~x >> n); /* the sign's copies come in from the left */
    return x >> n;
}

static const int32_t amounts[32] = {0, 1, -1, 31, -31, 32, -32, 33, -33, 4, -4, 16, -16, 63, -63,
                                    64, 0x7FFFFFFF, (int32_t)0x80000000, 7, -7, 8, -8, 2, -2, 30,
                                    -30, 5, -5, 12, -12, 20, -20};

static void shft_by_register(unsigned mod1, bool arith)
{
    load(5, (const uint32_t *)amounts);
    load(1, edge);
    RUN(TT_OP_SFPSHFT(0, 5, 1, mod1));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t want = shift_ref(edge[l], amounts[l], arith);
        cr_expect_eq(t->sfpu.lreg[1][l], want, "lane %u: 0x%08x by %d: 0x%08x, want 0x%08x", l,
                     edge[l], amounts[l], t->sfpu.lreg[1][l], want);
    }
}

static void shft_by_immediate(unsigned mod1, bool arith, bool from_vc)
{
    static const uint32_t imms[] = {0x000, 0x001, 0xFFF, 0x01F, 0xFE1, 0x020, 0xFE0, 0x7FF, 0x800};
    for (unsigned i = 0; i < N(imms); i++) {
        tile_reset(t);
        load(1, edge);
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[5][l] = edge[31 - l];
        const uint32_t w[] = {TT_OP_SFPSHFT(imms[i], 5, 1, mod1)};
        cr_assert_eq(run_tensix(t, w, 1, 100000), ERR_NONE, "%s", t->err.text);
        const int64_t amount = imms[i] >= 0x800 ? (int64_t)imms[i] - 0x1000 : imms[i];
        for (unsigned l = 0; l < 32; l++) {
            const uint32_t want = shift_ref(from_vc ? edge[31 - l] : edge[l], amount, arith);
            cr_expect_eq(t->sfpu.lreg[1][l], want, "Mod1 %u imm 0x%03x lane %u: 0x%08x, want 0x%08x",
                         mod1, imms[i], l, t->sfpu.lreg[1][l], want);
        }
    }
}

Test(sfpu_simple, shft_logical_arithmetic_and_from_vc)
{
    shft_by_register(0, false);
    tile_reset(t);
    shft_by_register(2, true);
    tile_reset(t);
    shft_by_register(6, true); /* IMM_USE_VC without ARG_IMM: LReg[VD] by LReg[VC] as usual */
    shft_by_immediate(1, false, false);
    shft_by_immediate(3, true, false);
    shft_by_immediate(5, false, true);
    shft_by_immediate(7, true, true);
}

/* Wormhole's SFPSHFT reads Mod1 bit 0 only: no arithmetic shift, no shifting of VC. */
Test(sfpu_simple_wh, shft_logical_only)
{
    shft_by_register(2, false);
    shft_by_immediate(1, false, false);
    shft_by_immediate(7, false, false);
}

/* ---- FP32 fields ---- */

#define SIGN(x) ((x) >> 31)
#define EXP(x) (((x) >> 23) & 0xFF)
#define MAN(x) ((x) & 0x7FFFFF)
static uint32_t fp(uint32_t s, uint32_t e, uint32_t m) { return s << 31 | e << 23 | m; }

Test(sfpu_simple, setsgn_from_register_and_immediate)
{
    load(5, edge);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[1][l] = t->sfpu.lreg[2][l] = edge[31 - l];
    RUN(TT_OP_SFPSETSGN(0, 5, 1, 0), TT_OP_SFPSETSGN(1, 5, 2, 1), TT_OP_SFPSETSGN(0, 5, 3, 1));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t c = edge[l];
        cr_expect_eq(t->sfpu.lreg[1][l], fp(SIGN(edge[31 - l]), EXP(c), MAN(c)), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], fp(1, EXP(c), MAN(c)));
        cr_expect_eq(t->sfpu.lreg[3][l], fp(0, EXP(c), MAN(c)));
    }
}

Test(sfpu_simple, abs_integer_and_float)
{
    load(5, edge);
    RUN(TT_OP_SFPABS(5, 1, 0), TT_OP_SFPABS(5, 2, 1));
    for (unsigned l = 0; l < 32; l++) {
        const int64_t v = (int32_t)edge[l];
        const uint32_t i = v < 0 ? (uint32_t)(-v) : (uint32_t)v; /* -(-2^31) wraps to itself */
        const bool neg_nan = SIGN(edge[l]) && EXP(edge[l]) == 0xFF && MAN(edge[l]);
        const uint32_t f = neg_nan ? edge[l] : fp(0, EXP(edge[l]), MAN(edge[l]));
        cr_expect_eq(t->sfpu.lreg[1][l], i, "lane %u int", l);
        cr_expect_eq(t->sfpu.lreg[2][l], f, "lane %u float", l);
    }
    /* the edges the page names */
    cr_expect_eq(t->sfpu.lreg[1][1], 0x80000000u);
    cr_expect_eq(t->sfpu.lreg[2][9], 0x7F800000u);  /* -inf -> +inf */
    cr_expect_eq(t->sfpu.lreg[2][11], 0xFFC00000u); /* -NaN stays */
    cr_expect_eq(t->sfpu.lreg[2][1], 0);            /* -0 -> +0 */
}

Test(sfpu_simple, setexp_three_sources)
{
    load(5, edge);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[1][l] = t->sfpu.lreg[2][l] = t->sfpu.lreg[3][l] = edge[(l + 7) % 32];
    RUN(TT_OP_SFPSETEXP(0, 5, 1, 0), TT_OP_SFPSETEXP(0, 5, 2, 2), TT_OP_SFPSETEXP(0xA5, 5, 3, 1),
        TT_OP_SFPSETEXP(0xFF, 5, 4, 1));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t c = edge[l], b = edge[(l + 7) % 32];
        cr_expect_eq(t->sfpu.lreg[1][l], fp(SIGN(c), b & 0xFF, MAN(c)), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], fp(SIGN(c), EXP(b), MAN(c)), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[3][l], fp(SIGN(c), 0xA5, MAN(c)), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[4][l], fp(SIGN(c), 0xFF, MAN(c)), "lane %u", l);
    }
}

Test(sfpu_simple, setman_from_register_and_immediate)
{
    load(5, edge);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[1][l] = edge[(l + 3) % 32];
    RUN(TT_OP_SFPSETMAN(0, 5, 1, 0), TT_OP_SFPSETMAN(0xABC, 5, 2, 1), TT_OP_SFPSETMAN(0xFFF, 5, 3, 1));
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t c = edge[l];
        cr_expect_eq(t->sfpu.lreg[1][l], fp(SIGN(c), EXP(c), MAN(edge[(l + 3) % 32])), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], fp(SIGN(c), EXP(c), 0xABC * 2048u), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[3][l], fp(SIGN(c), EXP(c), 0x7FF800), "lane %u", l);
    }
}

/* SFPEXEXP: exponent less 127 (or not), flags from its sign and/or inverted. */
Test(sfpu_simple, exexp_debias_and_flags)
{
    for (unsigned mod1 = 0; mod1 < 16; mod1++) {
        if (mod1 & 4)
            continue; /* not defined by the page's Supporting definitions */
        tile_reset(t);
        load(5, edge);
        for (unsigned l = 0; l < 32; l++) /* the flags before; not in use */
            t->sfpu.lane_flags[l] = 0x0F0F0F0Fu >> l & 1;
        const uint32_t w[] = {TT_OP_SFPEXEXP(5, 1, mod1)};
        cr_assert_eq(run_tensix(t, w, N(w), 100000), ERR_NONE, "%s", t->err.text);
        for (unsigned l = 0; l < 32; l++) {
            const int32_t e = (int32_t)EXP(edge[l]) - ((mod1 & 1) ? 0 : 127);
            bool f = 0x0F0F0F0Fu >> l & 1;
            if (mod1 & 2)
                f = e < 0;
            if (mod1 & 8)
                f = !f;
            cr_expect_eq((int32_t)t->sfpu.lreg[1][l], e, "Mod1 %u lane %u", mod1, l);
            cr_expect_eq(t->sfpu.lane_flags[l], f, "Mod1 %u lane %u: flag", mod1, l);
        }
    }
}

Test(sfpu_simple, exman_with_and_without_hidden_bit)
{
    load(5, edge);
    RUN(TT_OP_SFPEXMAN(5, 1, 0), TT_OP_SFPEXMAN(5, 2, 1));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[1][l], 0x800000u + MAN(edge[l]));
        cr_expect_eq(t->sfpu.lreg[2][l], MAN(edge[l]));
    }
}

/* The FP-field and bitwise ops keep disabled lanes too (one shared path, checked on two). */
Test(sfpu_simple, field_ops_keep_disabled_lanes)
{
    load(5, edge);
    fill_old(1), fill_old(2);
    RUN(TT_OP_SFPCONFIG(0x3000, 15, 1), TT_OP_SFPNOP, /* rows 0 and 1 masked */
        TT_OP_SFPEXMAN(5, 1, 1), TT_OP_SFPNOT(5, 2));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[1][l], l < 16 ? old(1, l) : MAN(edge[l]));
        cr_expect_eq(t->sfpu.lreg[2][l], l < 16 ? old(2, l) : ~edge[l]);
    }
}

/* ---- VD >= 12: the backdoor into InstructionTemplate (SFPCONFIG.md LaneConfig bit 1) ---- */

Test(sfpu_simple, vd_12_to_15_write_the_template_unless_disabled)
{
    const uint32_t iadd = TT_OP_SFPIADD(1, 9, 13, 1), setcc = TT_OP_SFPSETCC(0, 9, 14, EQ0);
    const uint32_t push = TT_OP_SFPPUSHC_BH(15, 0);
    RUN(FLAGS_ON_FALSE, iadd, setcc, push);
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.macro[l].instruction_template[1], iadd);
        cr_expect_eq(t->sfpu.macro[l].instruction_template[2], setcc);
        cr_expect_eq(t->sfpu.macro[l].instruction_template[3], push);
        cr_expect_eq(t->sfpu.flag_depth[l], 0);
        cr_expect(!t->sfpu.lane_flags[l]);
        cr_expect_eq(t->sfpu.lreg[13][l], 0xBF2CC4C7u);
    }
    /* LaneConfig := 0x57 (DISABLE_BACKDOOR_LOAD is bit 1) in columns 0..3 (Mod1 9: Imm16 bits
     * 0, 2, 4 and 6 are also the column mask): those lanes run the model (SETCC sets their
     * flags, PUSHC pushes), the others take the templates */
    tile_reset(t);
    RUN(TT_OP_SFPCONFIG(0x57, 15, 9), TT_OP_SFPNOP, FLAGS_ON, setcc, push);
    for (unsigned l = 0; l < 32; l++) {
        const bool model = (l & 7) < 4;
        cr_expect_eq(t->sfpu.macro[l].instruction_template[2], model ? 0 : setcc, "lane %u", l);
        cr_expect_eq(t->sfpu.flag_depth[l], model ? 1 : 0, "lane %u", l);
    }
}

/* ---- timing: latency 1, one SFPU instruction per cycle ---- */

Test(sfpu_simple, back_to_back_one_per_cycle_latency_one)
{
    const uint32_t w[] = {TT_OP_SFPLOADI(0, 2, 5), TT_OP_SFPIADD(1, 0, 1, 5), TT_OP_SFPSHFT(1, 0, 1, 1),
                          TT_OP_SFPSETCC(0, 1, 0, NE0), TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPPOPC(0, 0)};
    cr_assert_eq(run_tensix(t, w, N(w), 100000), ERR_NONE, "%s", t->err.text);
    const uint64_t c0 = issue_log_cycle(&issues, 0, w[0], 0);
    for (unsigned i = 1; i < N(w); i++)
        cr_expect_eq(issue_log_cycle(&issues, 0, w[i], 0), c0 + i, "word %u", i);
    cr_expect_eq(t->cycles, c0 + N(w)); /* the last one's latency: 1 */
    cr_expect_eq(t->sfpu.st.insns, N(w));
    cr_expect_eq(t->sfpu.st.busy_cycles, N(w));
    cr_expect_eq(t->sfpu.lreg[1][0], 6u << 1);
}

/* ---- SFPLZ (both arches) ---- */

/* Leading zeros counted bit by bit (independent of the model's __builtin_clz). */
static uint32_t lz_ref(uint32_t c)
{
    uint32_t n = 0;
    for (uint32_t bit = 0x80000000u; bit && !(c & bit); bit >>= 1)
        n++;
    return n;
}

/* Every Mod1 (bit 0 unread) on the edge values; flags beforehand 0x0F0F0F0F, not in use; rows 2
 * and 3 of every column masked by ROW_MASK, keeping LReg[VD] and LaneFlags. */
static void check_lz(void)
{
    for (unsigned mod1 = 0; mod1 < 16; mod1++) {
        tile_reset(t);
        load(5, edge);
        fill_old(1);
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lane_flags[l] = 0x0F0F0F0Fu >> l & 1;
        const uint32_t w[] = {TT_OP_SFPCONFIG(0xC000, 15, 1), TT_OP_SFPNOP, TT_OP_SFPLZ(5, 1, mod1)};
        cr_assert_eq(run_tensix(t, w, N(w), 100000), ERR_NONE, "%s", t->err.text);
        for (unsigned l = 0; l < 32; l++) {
            const bool on = l < 16;
            const uint32_t c = edge[l] & ((mod1 & 4) ? 0x7FFFFFFFu : 0xFFFFFFFFu);
            bool f = 0x0F0F0F0Fu >> l & 1;
            if (on && (mod1 & 2))
                f = c != 0;
            if (on && (mod1 & 8))
                f = !f;
            cr_expect_eq(t->sfpu.lreg[1][l], on ? lz_ref(c) : old(1, l), "Mod1 %u lane %u", mod1, l);
            cr_expect_eq(t->sfpu.lane_flags[l], f, "Mod1 %u lane %u: flag", mod1, l);
        }
        /* the edges: 0 and (masked) -0 / INT_MIN count 32, INT_MIN unmasked 0, a denormal 9 */
        cr_expect_eq(t->sfpu.lreg[1][0], 32);
        cr_expect_eq(t->sfpu.lreg[1][1], (mod1 & 4) ? 32 : 0);
        cr_expect_eq(t->sfpu.lreg[1][14], 9);                    /* 0x00400000 */
        cr_expect_eq(t->sfpu.lreg[1][15], (mod1 & 4) ? 9 : 0);   /* 0x807FFFFF */
        cr_expect_eq(t->sfpu.lreg[1][10], 1);                    /* +NaN 0x7FC00000 */
    }
}
Test(sfpu_simple, lz_every_mod1) { check_lz(); }
Test(sfpu_simple_wh, lz_every_mod1) { check_lz(); }

/* VD 8..11 write nothing and, the page's "if (VD < 8)", leave the flags alone. */
Test(sfpu_simple, lz_read_only_vd_changes_nothing)
{
    load(5, edge);
    RUN(TT_OP_SFPLZ(5, 9, 2), TT_OP_SFPLZ(5, 11, 10));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[9][l], 0);
        cr_expect_eq(t->sfpu.lreg[11][l], 0xBF800000u);
        cr_expect(!t->sfpu.lane_flags[l]);
    }
}

/* ---- SFPDIVP2 (both arches) ---- */

/* Set (Mod1 bit 0 clear) or add modulo 256 unless the exponent is 255; other Mod1 bits unread;
 * rows 0 and 3 masked. */
static void check_divp2(void)
{
    static const unsigned imms[] = {0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF};
    for (unsigned mod1 = 0; mod1 < 16; mod1++) {
        for (unsigned i = 0; i < N(imms); i++) {
            tile_reset(t);
            load(5, edge);
            fill_old(2);
            const uint32_t w[] = {TT_OP_SFPCONFIG(0x9000, 15, 1), TT_OP_SFPNOP,
                                  TT_OP_SFPDIVP2(imms[i], 5, 2, mod1)};
            cr_assert_eq(run_tensix(t, w, N(w), 100000), ERR_NONE, "%s", t->err.text);
            for (unsigned l = 0; l < 32; l++) {
                const uint32_t c = edge[l];
                uint32_t e = imms[i];
                if (mod1 & 1)
                    e = EXP(c) == 255 ? 255 : (EXP(c) + imms[i]) % 256;
                const bool on = l >= 8 && l < 24;
                cr_expect_eq(t->sfpu.lreg[2][l], on ? fp(SIGN(c), e, MAN(c)) : old(2, l),
                             "Mod1 %u Imm8 0x%x lane %u", mod1, imms[i], l);
            }
        }
    }
}
Test(sfpu_simple, divp2_set_and_add) { check_divp2(); }
Test(sfpu_simple_wh, divp2_set_and_add) { check_divp2(); }

/* The cases the page names: zero and denormals take the exponent like any value, Inf and NaN
 * keep theirs when adding (not when setting), the sum wraps. */
Test(sfpu_simple, divp2_edges)
{
    static const uint32_t in[8] = {0x00000000, 0x80000000, 0x00400000, 0x7F800000,
                                   0xFFC00001, 0x7F7FFFFF, 0x3F800000, 0x00800000};
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[5][l] = in[l % 8];
    RUN(TT_OP_SFPDIVP2(1, 5, 1, 1), TT_OP_SFPDIVP2(0xFF, 5, 2, 1), TT_OP_SFPDIVP2(0x80, 5, 3, 0));
    static const uint32_t add1[8] = {0x00800000, 0x80800000, 0x00C00000, 0x7F800000,
                                     0xFFC00001, 0x7FFFFFFF, 0x40000000, 0x01000000};
    static const uint32_t sub1[8] = {0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800000,
                                     0xFFC00001, 0x7EFFFFFF, 0x3F000000, 0x00000000};
    static const uint32_t set[8] = {0x40000000, 0xC0000000, 0x40400000, 0x40000000,
                                    0xC0400001, 0x407FFFFF, 0x40000000, 0x40000000};
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[1][l], add1[l % 8], "lane %u: 0x%08x", l, t->sfpu.lreg[1][l]);
        cr_expect_eq(t->sfpu.lreg[2][l], sub1[l % 8], "lane %u: 0x%08x", l, t->sfpu.lreg[2][l]);
        cr_expect_eq(t->sfpu.lreg[3][l], set[l % 8], "lane %u: 0x%08x", l, t->sfpu.lreg[3][l]);
    }
}

/* ---- SFPLE, SFPGT (Blackhole) ---- */

/* The total order of the pages' SignMagIsSmaller, as a 64-bit key: -0 just below +0. */
static int64_t total_key(uint32_t x)
{
    return (x & 0x80000000u) ? -(int64_t)(x & 0x7FFFFFFFu) - 1 : (int64_t)x;
}

/* VD := edge rotated, VC := edge. Before: predication on, LaneFlags true on the enabled lanes
 * 0x00FF0FF0 and false elsewhere; stack depth 0 on lanes 24..31, else 1 with top flags
 * 0x5A5A5A5A. Disabled lanes keep LReg and LaneFlags, yet their stack top changes. */
static void check_cmp(bool gt, unsigned mod1)
{
    const uint32_t enabled = 0x00FF0FF0u, top0 = 0x5A5A5A5Au;
    tile_reset(t);
    load(6, edge);
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[2][l] = edge[(l + 5) % 32];
        t->sfpu.use_lane_flags[l] = true;
        t->sfpu.lane_flags[l] = (enabled >> l & 1) != 0;
        t->sfpu.flag_depth[l] = l < 24;
        t->sfpu.flag_stack[l][0].lane_flags = top0 >> l & 1;
        t->sfpu.flag_stack[l][0].use_lane_flags = true;
    }
    const uint32_t w[] = {gt ? TT_OP_SFPGT(6, 2, mod1) : TT_OP_SFPLE(6, 2, mod1)};
    cr_assert_eq(run_tensix(t, w, N(w), 100000), ERR_NONE, "%s", t->err.text);
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t c = edge[l], d = edge[(l + 5) % 32];
        const bool r = gt ? total_key(d) > total_key(c) : total_key(d) <= total_key(c);
        const bool on = enabled >> l & 1;
        const uint32_t vd = on && (mod1 & 8) ? (r ? 0xFFFFFFFFu : 0) : d;
        const bool f = on && (mod1 & 1) ? r : on;
        bool top = top0 >> l & 1;
        if ((mod1 & 2) && l < 24)
            top = (mod1 & 4) ? top || r : top && r;
        cr_expect_eq(t->sfpu.lreg[2][l], vd, "%s Mod1 %u lane %u", gt ? "GT" : "LE", mod1, l);
        cr_expect_eq(t->sfpu.lane_flags[l], f, "%s Mod1 %u lane %u: flag", gt ? "GT" : "LE", mod1, l);
        cr_expect_eq(t->sfpu.flag_stack[l][0].lane_flags, top, "%s Mod1 %u lane %u: top",
                     gt ? "GT" : "LE", mod1, l);
        cr_expect_eq(t->sfpu.flag_depth[l], l < 24, "lane %u: depth", l);
        cr_expect(t->sfpu.flag_stack[l][0].use_lane_flags);
    }
}
Test(sfpu_simple, le_gt_every_mod1)
{
    for (unsigned mod1 = 0; mod1 < 16; mod1++) {
        check_cmp(false, mod1);
        check_cmp(true, mod1);
    }
}

/* The total order's edges (BH:SFPLE.md): -NaN < -Inf < -0 < +0 < +Inf < +NaN, INT_MIN as -0;
 * sign-magnitude, so 0xFFFFFFFF is the smallest value and 0x80000001 < 0x80000000. */
Test(sfpu_simple, le_gt_total_order_edges)
{
    static const uint32_t d[8] = {0x80000000, 0x00000000, 0xFFC00000, 0xFF800000,
                                  0x7F800000, 0xFFFFFFFF, 0x80000001, 0x3F800000};
    static const uint32_t c[8] = {0x00000000, 0x80000000, 0xFF800000, 0xFFC00000,
                                  0x7FC00000, 0x00000000, 0x80000000, 0x3F800000};
    static const bool le[8] = {true, false, true, false, true, true, true, true};
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[1][l] = t->sfpu.lreg[3][l] = d[l % 8];
        t->sfpu.lreg[2][l] = c[l % 8];
    }
    RUN(TT_OP_SFPLE(2, 1, 8), TT_OP_SFPGT(2, 3, 8));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[1][l], le[l % 8] ? 0xFFFFFFFFu : 0, "LE lane %u", l);
        cr_expect_eq(t->sfpu.lreg[3][l], le[l % 8] ? 0 : 0xFFFFFFFFu, "GT lane %u", l);
    }
}

/* VD 8..11: no register write, yet the flags and the stack top change (the page writes LReg only
 * "if (VD < 8 || VD == 16)"). VD 12..15 with DISABLE_BACKDOOR_LOAD compares the constant. */
Test(sfpu_simple, le_gt_read_only_vd_still_set_flags)
{
    fill(2, 0x3F000000); /* 0.5: LReg[10] (1.0) > 0.5, LReg[15] (lane * 2) as integers */
    RUN(TT_OP_SFPPUSHC_BH(0, 0), TT_OP_SFPGT(2, 10, 9 | 2));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[10][l], 0x3F800000u);
        cr_expect(t->sfpu.lane_flags[l], "lane %u", l);
        cr_expect(!t->sfpu.flag_stack[l][0].lane_flags); /* pushed false, ANDed with true */
    }
    tile_reset(t);
    fill(2, 20);
    RUN(TT_OP_SFPCONFIG(2, 15, 1), TT_OP_SFPNOP, TT_OP_SFPLE(2, 15, 9));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[15][l], l * 2);
        cr_expect_eq(t->sfpu.lane_flags[l], l * 2 <= 20, "lane %u", l);
        cr_expect_eq(t->sfpu.macro[l].instruction_template[3], 0);
    }
    /* the backdoor on: the template, no flags */
    tile_reset(t);
    const uint32_t le = TT_OP_SFPLE(2, 15, 9);
    RUN(le);
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.macro[l].instruction_template[3], le);
        cr_expect(!t->sfpu.lane_flags[l]);
    }
}

/* Latency 1, one per cycle, like the other simple instructions. */
Test(sfpu_simple, lz_divp2_le_gt_one_per_cycle)
{
    const uint32_t w[] = {TT_OP_SFPLOADI(0, 2, 5), TT_OP_SFPLZ(0, 1, 0), TT_OP_SFPDIVP2(3, 1, 2, 0),
                          TT_OP_SFPLE(2, 1, 8), TT_OP_SFPGT(2, 3, 1)};
    cr_assert_eq(run_tensix(t, w, N(w), 100000), ERR_NONE, "%s", t->err.text);
    const uint64_t c0 = issue_log_cycle(&issues, 0, w[0], 0);
    for (unsigned i = 1; i < N(w); i++)
        cr_expect_eq(issue_log_cycle(&issues, 0, w[i], 0), c0 + i, "word %u", i);
    cr_expect_eq(t->cycles, c0 + N(w));
    cr_expect_eq(t->sfpu.st.busy_cycles, N(w));
    cr_expect_eq(t->sfpu.lreg[1][0], 0xFFFFFFFFu); /* 29 <= 29 + 3 * 2^23 as sign-magnitude */
}
