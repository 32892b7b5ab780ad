/* The vector unit's lane movement (units/sfpu_move.c): SFPSWAP, SFPTRANSP and SFPSHFT2 on
 * Blackhole (suite sfpu_move) and Wormhole B0 (sfpu_move_wh). Registers hold values that name
 * where they came from (register << 8 | lane), so a permutation shows in every lane; expected
 * values are worked out here from the pages, by hand. */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/sfpu.h"
#include "harness.h"
#include "sfpu_test.h"
#include "tensix_ops.h"

TestSuite(sfpu_move, .init = setup_bh, .fini = teardown);
TestSuite(sfpu_move_wh, .init = setup_wh, .fini = teardown);

/* SFPSHFT2 Mod1 (SFPSHFT2.md) */
enum { COPY4 = 0, CHAINED_COPY4 = 1, SHFLROR1_AND_COPY4 = 2, SHFLROR1 = 3, SHFLSHR1 = 4,
       SHFT_LREG = 5, SHFT_IMM = 6 };
/* LaneConfig values (SFPCONFIG.md): DISABLE_BACKDOOR_LOAD, ENABLE_DEST_INDEX, EXCHANGE_SRCB_SRCC */
enum { NO_BACKDOOR = 2, DEST_INDEX = 4, EXCHANGE = 0x100 };

/* register r, lane l: a value that says so */
static uint32_t tag(unsigned r, unsigned l) { return r << 8 | l; }
static void tag_regs(unsigned first, unsigned last)
{
    for (unsigned r = first; r <= last; r++)
        for (unsigned l = 0; l < 32; l++)
            t->sfpu.lreg[r][l] = tag(r, l);
}
static void expect_lreg(unsigned r, const uint32_t *want)
{
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[r][l], want[l], "LReg[%u] lane %u: 0x%08x, want 0x%08x", r, l,
                     t->sfpu.lreg[r][l], want[l]);
}
/* Predication on, lanes of `mask` enabled (set directly: no single instruction sets a mask). */
static void enable_only(uint32_t mask)
{
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.use_lane_flags[l] = true;
        t->sfpu.lane_flags[l] = mask >> l & 1;
    }
}
static void set_lane_config(uint32_t v)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lane_config[l] = v;
}
/* The constants LReg[8..15] are as they were at reset. */
static void expect_constants(void)
{
    static const uint32_t k[7] = {0x3F56594B, 0, 0x3F800000, 0xBF800000, 0x37800000, 0xBF2CC4C7,
                                  0xBEB08FF9};
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned r = 8; r < 15; r++)
            cr_expect_eq(t->sfpu.lreg[r][l], k[r - 8], "LReg[%u] lane %u", r, l);
        cr_expect_eq(t->sfpu.lreg[15][l], l * 2, "LReg[15] lane %u", l);
    }
}

/* ======================================= SFPSWAP ======================================= */

/* Mod1 0 swaps every enabled lane; VC == VD changes nothing; a constant (VC or VD >= 8) is
 * read but not written. */
static void check_swap_unconditional(void)
{
    tag_regs(0, 7);
    RUN(TT_OP_SFPSWAP(1, 2, 0), TT_OP_SFPSWAP(4, 4, 0), TT_OP_SFPSWAP(9, 3, 0),
        TT_OP_SFPSWAP(5, 10, 0), TT_OP_SFPSWAP(15, 6, 0));
    uint32_t r1[32], r2[32], r3[32], r4[32], r5[32], r6[32];
    for (unsigned l = 0; l < 32; l++) {
        r1[l] = tag(2, l), r2[l] = tag(1, l), r4[l] = tag(4, l);
        r3[l] = 0;          /* LReg[9] */
        r5[l] = 0x3F800000; /* LReg[10], 1.0 */
        r6[l] = l * 2;      /* LReg[15] */
    }
    expect_lreg(1, r1);
    expect_lreg(2, r2);
    expect_lreg(3, r3);
    expect_lreg(4, r4);
    expect_lreg(5, r5);
    expect_lreg(6, r6);
    expect_constants();
    /* EXCHANGE_SRCB_SRCC turns round only the comparing modes' decision: Mod1 0 still swaps */
    tile_reset(t);
    tag_regs(0, 7);
    set_lane_config(EXCHANGE);
    RUN(TT_OP_SFPSWAP(1, 2, 0));
    expect_lreg(1, r1);
    expect_lreg(2, r2);
}
Test(sfpu_move, swap_unconditional) { check_swap_unconditional(); }
Test(sfpu_move_wh, swap_unconditional) { check_swap_unconditional(); }

/* Pairs (VD value, VC value) and, worked by hand in the sign-magnitude total order
 * -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN, their smaller and larger. Lane l uses pair
 * l % 16. */
static const struct {
    uint32_t d, c, lo, hi;
} pairs[16] = {
    {0x3F800000, 0x40000000, 0x3F800000, 0x40000000}, /* 1.0, 2.0 */
    {0x40000000, 0x3F800000, 0x3F800000, 0x40000000},
    {0x00000000, 0x80000000, 0x80000000, 0x00000000}, /* +0, -0: -0 < +0 */
    {0x80000000, 0x00000000, 0x80000000, 0x00000000},
    {0x7FC00000, 0x7F800000, 0x7F800000, 0x7FC00000}, /* +NaN, +Inf */
    {0xFF800000, 0xFFC00000, 0xFFC00000, 0xFF800000}, /* -Inf, -NaN: -NaN < -Inf */
    {0x80000000, 0xFFFFFFFF, 0xFFFFFFFF, 0x80000000}, /* -0, the smallest value */
    {0x00000001, 0x00000000, 0x00000000, 0x00000001}, /* denormal, +0 */
    {0x3F800000, 0xBF800000, 0xBF800000, 0x3F800000}, /* 1.0, -1.0 */
    {0x80000001, 0x80000000, 0x80000001, 0x80000000}, /* sign-magnitude -1, -0 */
    {0x807FFFFF, 0x80000001, 0x807FFFFF, 0x80000001}, /* negative denormals */
    {0x7F7FFFFF, 0x7F800000, 0x7F7FFFFF, 0x7F800000}, /* largest finite, +Inf */
    {0xFF800000, 0x7F800000, 0xFF800000, 0x7F800000}, /* -Inf, +Inf */
    {0x12345678, 0x12345678, 0x12345678, 0x12345678}, /* equal */
    {0x7FFFFFFF, 0x7FC00001, 0x7FC00001, 0x7FFFFFFF}, /* two NaNs */
    {0x00000005, 0x80000003, 0x80000003, 0x00000005}, /* integers 5 and -3 */
};
/* Pairs whose VC value is strictly below their VD value: those a "VD = min" lane swaps. */
static bool c_below_d(unsigned p) { return p == 1 || p == 2 || (p >= 4 && p <= 8) || p >= 14; }

static void load_pairs(unsigned vd, unsigned vc)
{
    for (unsigned l = 0; l < 32; l++) {
        t->sfpu.lreg[vd][l] = pairs[l % 16].d;
        t->sfpu.lreg[vc][l] = pairs[l % 16].c;
    }
}

/* Lanes where VD takes the minimum, for Mod1 1..15: the page's VDGetsMin constants. */
static uint32_t min_lanes(unsigned mod1)
{
    static const uint32_t m[9] = {0, 0xFFFFFFFF, 0x0000FFFF, 0x00FF00FF, 0xFF0000FF,
                                  0x000000FF, 0x0000FF00, 0x00FF0000, 0xFF000000};
    return mod1 < 9 ? m[mod1] : 0;
}

/* Every min/max mode (1..15; 9..15 all "VD = max"), VD = 3 and VC = 6, with and without
 * LaneConfig.EXCHANGE_SRCB_SRCC (which turns each lane's choice round). */
static void check_swap_min_max(void)
{
    for (unsigned x = 0; x < 2; x++)
        for (unsigned mod1 = 1; mod1 < 16; mod1++) {
            tile_reset(t);
            set_lane_config(x ? EXCHANGE : 0);
            load_pairs(3, 6);
            RUN(TT_OP_SFPSWAP(6, 3, mod1));
            for (unsigned l = 0; l < 32; l++) {
                const bool vd_min = (min_lanes(mod1) >> l & 1) != x;
                const unsigned p = l % 16;
                cr_expect_eq(t->sfpu.lreg[3][l], vd_min ? pairs[p].lo : pairs[p].hi,
                             "Mod1 %u exchange %u lane %u: VD 0x%08x", mod1, x, l, t->sfpu.lreg[3][l]);
                cr_expect_eq(t->sfpu.lreg[6][l], vd_min ? pairs[p].hi : pairs[p].lo,
                             "Mod1 %u exchange %u lane %u: VC 0x%08x", mod1, x, l, t->sfpu.lreg[6][l]);
            }
        }
}
Test(sfpu_move, swap_min_max_every_mode) { check_swap_min_max(); }
Test(sfpu_move_wh, swap_min_max_every_mode) { check_swap_min_max(); }

/* argmin / argmax: with ENABLE_DEST_INDEX the decision also swaps LReg[4 + (VC & 3)] and
 * LReg[4 + (VD & 3)]. Equal values: a "VD = min" lane leaves them (VC is not smaller), a
 * "VD = max" lane swaps them (VC is not smaller, so it is taken as larger), and the index
 * registers show it. */
static void check_swap_argmin_argmax(void)
{
    static const unsigned modes[] = {1, 9};
    for (unsigned i = 0; i < 2; i++) {
        tile_reset(t);
        load_pairs(0, 1);
        tag_regs(4, 7);
        RUN(TT_OP_SFPCONFIG(DEST_INDEX, 15, 1), TT_OP_SFPNOP, TT_OP_SFPSWAP(1, 0, modes[i]));
        for (unsigned l = 0; l < 32; l++) {
            const unsigned p = l % 16;
            const bool min = modes[i] == 1;
            /* VD = min swaps where VC < VD; VD = max everywhere else (equal pair 13 included) */
            const bool swapped = min == c_below_d(p);
            cr_expect_eq(t->sfpu.lreg[0][l], min ? pairs[p].lo : pairs[p].hi, "Mod1 %u lane %u", modes[i], l);
            cr_expect_eq(t->sfpu.lreg[1][l], min ? pairs[p].hi : pairs[p].lo, "Mod1 %u lane %u", modes[i], l);
            cr_expect_eq(t->sfpu.lreg[4][l], swapped ? tag(5, l) : tag(4, l), "Mod1 %u lane %u", modes[i], l);
            cr_expect_eq(t->sfpu.lreg[5][l], swapped ? tag(4, l) : tag(5, l), "Mod1 %u lane %u", modes[i], l);
            cr_expect_eq(t->sfpu.lreg[6][l], tag(6, l));
            cr_expect_eq(t->sfpu.lreg[7][l], tag(7, l));
        }
    }
    /* the equal pair: a min lane keeps its indices, a max lane swaps them */
    cr_expect(!c_below_d(13));
}
Test(sfpu_move, swap_argmin_argmax_with_index_registers) { check_swap_argmin_argmax(); }
Test(sfpu_move_wh, swap_argmin_argmax_with_index_registers) { check_swap_argmin_argmax(); }

/* ENABLE_DEST_INDEX with other registers: values are written only to LReg[0..3]; the index
 * pair comes from the low two bits of VC and VD whatever they are. */
static void check_swap_index_odd_registers(void)
{
    /* max(0, x) with its index: VC = LReg[9] (0), VD = 2, VD = max. LReg[2] per lane: +0 in lane
     * 0 (equal: swapped), -x in odd lanes (swapped), +x in even ones (kept). */
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[2][l] = l == 0 ? 0 : (l & 1 ? 0xBF800000u : 0x3F800000u) + l;
    tag_regs(4, 7);
    set_lane_config(DEST_INDEX);
    RUN(TT_OP_SFPSWAP(9, 2, 9));
    for (unsigned l = 0; l < 32; l++) {
        const bool swapped = l == 0 || (l & 1);
        cr_expect_eq(t->sfpu.lreg[2][l], swapped ? 0 : 0x3F800000u + l, "lane %u", l);
        /* the index pair is LReg[4 + (9 & 3)] = LReg[5] and LReg[4 + 2] = LReg[6] */
        cr_expect_eq(t->sfpu.lreg[5][l], swapped ? tag(6, l) : tag(5, l), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[6][l], swapped ? tag(5, l) : tag(6, l), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[4][l], tag(4, l));
    }
    expect_constants();
    /* Mod1 0 with VC = 1, VD = 3: both values swap, and LReg[5] with LReg[7] */
    tile_reset(t);
    tag_regs(0, 7);
    set_lane_config(DEST_INDEX);
    RUN(TT_OP_SFPSWAP(1, 3, 0));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[1][l], tag(3, l));
        cr_expect_eq(t->sfpu.lreg[3][l], tag(1, l));
        cr_expect_eq(t->sfpu.lreg[5][l], tag(7, l));
        cr_expect_eq(t->sfpu.lreg[7][l], tag(5, l));
        cr_expect_eq(t->sfpu.lreg[4][l], tag(4, l));
        cr_expect_eq(t->sfpu.lreg[6][l], tag(6, l));
    }
    /* VC = 5, VD = 0, Mod1 0: LReg[0] takes LReg[5]'s value, LReg[5] is not written as a value
     * (VC >= 4) but is the index partner (4 + 1) of LReg[4] (4 + 0): they swap */
    tile_reset(t);
    tag_regs(0, 7);
    set_lane_config(DEST_INDEX);
    RUN(TT_OP_SFPSWAP(5, 0, 0));
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[0][l], tag(5, l));
        cr_expect_eq(t->sfpu.lreg[4][l], tag(5, l));
        cr_expect_eq(t->sfpu.lreg[5][l], tag(4, l));
    }
}
Test(sfpu_move, swap_index_registers_from_other_operands) { check_swap_index_odd_registers(); }
Test(sfpu_move_wh, swap_index_registers_from_other_operands) { check_swap_index_odd_registers(); }

/* Disabled lanes (LaneFlags, and ROW_MASK row 3 of column 2) keep both registers, the index
 * registers too. */
static void check_swap_disabled_lanes(void)
{
    const uint32_t on = 0x0F0FF0F0u & ~(1u << 26); /* lane 26: row 3, column 2 */
    tag_regs(0, 7);
    enable_only(0x0F0FF0F0u);
    for (unsigned l = 0; l < 32; l++) /* as SFPCONFIG writes it: the same down a column */
        t->sfpu.lane_config[l] = DEST_INDEX | ((l & 7) == 2 ? 1u << (12 + 3) : 0);
    RUN(TT_OP_SFPSWAP(2, 1, 0));
    for (unsigned l = 0; l < 32; l++) {
        const bool e = on >> l & 1;
        cr_expect_eq(t->sfpu.lreg[1][l], e ? tag(2, l) : tag(1, l), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], e ? tag(1, l) : tag(2, l), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[5][l], e ? tag(6, l) : tag(5, l), "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[6][l], e ? tag(5, l) : tag(6, l), "lane %u", l);
    }
}
Test(sfpu_move, swap_disabled_lanes_keep_everything) { check_swap_disabled_lanes(); }
Test(sfpu_move_wh, swap_disabled_lanes_keep_everything) { check_swap_disabled_lanes(); }

/* VD 12..15: the template, unless DISABLE_BACKDOOR_LOAD; then the model runs with LReg[12] as
 * VD, which it reads (1/65536) but does not write. */
static void check_swap_backdoor(void)
{
    tag_regs(0, 7);
    const uint32_t w = TT_OP_SFPSWAP(2, 12, 0);
    /* LaneConfig := 0x53 (DISABLE_BACKDOOR_LOAD, not ENABLE_DEST_INDEX) in columns 0, 2 and 3:
     * with Mod1 9, Imm16 bit 2c also picks column c (bits 0, 4, 6) */
    RUN(TT_OP_SFPCONFIG(0x53, 15, 9), TT_OP_SFPNOP, w);
    for (unsigned l = 0; l < 32; l++) {
        const bool model = (l & 7) == 0 || (l & 7) == 2 || (l & 7) == 3;
        cr_expect_eq(t->sfpu.macro[l].instruction_template[0], model ? 0 : w, "lane %u", l);
        cr_expect_eq(t->sfpu.lreg[2][l], model ? 0x37800000u : tag(2, l), "lane %u", l);
    }
    expect_constants();
}
Test(sfpu_move, swap_vd_12_template_or_model) { check_swap_backdoor(); }
Test(sfpu_move_wh, swap_vd_12_template_or_model) { check_swap_backdoor(); }

/* ====================================== SFPTRANSP ====================================== */

/* Where LReg[r] lane l's value comes from after SFPTRANSP, by the page's picture: the
 * registers of a group of four are rows of a 4x4 matrix per column, rows of lanes its columns;
 * so register and lane row trade places. */
static uint32_t transposed(unsigned r, unsigned l)
{
    const unsigned group = r & 4, reg_in_group = r & 3, row = l / 8, col = l % 8;
    return tag(group + row, reg_in_group * 8 + col);
}

static void check_transp(void)
{
    static const unsigned vds[] = {0, 5, 9, 11};
    for (unsigned i = 0; i < N(vds); i++) {
        tile_reset(t);
        tag_regs(0, 7);
        RUN(TT_OP_SFPTRANSP(vds[i]));
        for (unsigned r = 0; r < 8; r++)
            for (unsigned l = 0; l < 32; l++)
                cr_expect_eq(t->sfpu.lreg[r][l], transposed(r, l), "VD %u LReg[%u] lane %u: 0x%x",
                             vds[i], r, l, t->sfpu.lreg[r][l]);
        expect_constants();
    }
    /* a few by hand: LReg[1] lane 0 (row 0) has LReg[0] lane 8 (row 1); LReg[0] lane 9 has
     * LReg[1] lane 1; LReg[6] lane 31 has LReg[7] lane 23; the diagonal stays */
    cr_expect_eq(t->sfpu.lreg[1][0], 0x0008);
    cr_expect_eq(t->sfpu.lreg[0][9], 0x0101);
    cr_expect_eq(t->sfpu.lreg[6][31], 0x0717);
    cr_expect_eq(t->sfpu.lreg[2][19], 0x0213);
    /* twice is the identity */
    tile_reset(t);
    tag_regs(0, 7);
    RUN(TT_OP_SFPTRANSP(0), TT_OP_SFPTRANSP(0));
    for (unsigned r = 0; r < 8; r++)
        for (unsigned l = 0; l < 32; l++)
            cr_expect_eq(t->sfpu.lreg[r][l], tag(r, l));
}
Test(sfpu_move, transp_four_by_four_in_each_column) { check_transp(); }
Test(sfpu_move_wh, transp_four_by_four_in_each_column) { check_transp(); }

/* A disabled lane keeps its values, yet what it held still reaches the enabled lanes: row 1
 * (lanes 8..15) off, and column 5 of row 2 by ROW_MASK. */
static void check_transp_disabled(void)
{
    tag_regs(0, 7);
    enable_only(0xFFFF00FFu);
    t->sfpu.lane_config[5] = 1u << (12 + 2);
    RUN(TT_OP_SFPTRANSP(0));
    for (unsigned r = 0; r < 8; r++)
        for (unsigned l = 0; l < 32; l++) {
            const bool off = l / 8 == 1 || l == 21;
            cr_expect_eq(t->sfpu.lreg[r][l], off ? tag(r, l) : transposed(r, l), "LReg[%u] lane %u", r, l);
        }
    /* LReg[1] lane 0 took LReg[0] lane 8, which kept its own value: now in both */
    cr_expect_eq(t->sfpu.lreg[1][0], 0x0008);
    cr_expect_eq(t->sfpu.lreg[0][8], 0x0008);
}
Test(sfpu_move, transp_disabled_lanes) { check_transp_disabled(); }
Test(sfpu_move_wh, transp_disabled_lanes) { check_transp_disabled(); }

static void check_transp_backdoor(void)
{
    tag_regs(0, 7);
    const uint32_t w = TT_OP_SFPTRANSP(14);
    RUN(w);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.macro[l].instruction_template[2], w);
    for (unsigned r = 0; r < 8; r++)
        for (unsigned l = 0; l < 32; l++)
            cr_expect_eq(t->sfpu.lreg[r][l], tag(r, l));
    /* DISABLE_BACKDOOR_LOAD everywhere: it transposes */
    tile_reset(t);
    tag_regs(0, 7);
    RUN(TT_OP_SFPCONFIG(NO_BACKDOOR, 15, 1), TT_OP_SFPNOP, w);
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.macro[l].instruction_template[2], 0);
        cr_expect_eq(t->sfpu.lreg[3][l], transposed(3, l));
    }
}
Test(sfpu_move, transp_vd_14_template_or_model) { check_transp_backdoor(); }
Test(sfpu_move_wh, transp_vd_14_template_or_model) { check_transp_backdoor(); }

/* ====================================== SFPSHFT2 ======================================= */

/* What a rotate right by one lane within rows of 8 brings into lane l, worked lane by lane:
 * lane 0 gets lane 7, lane 1 lane 0, ..., lane 8 lane 15. */
static unsigned from_left(unsigned l) { return l % 8 == 0 ? l + 7 : l - 1; }

/* COPY4 and CHAINED_COPY4 on enabled lanes, whatever VD (< 12); the others keep LReg[0..3]. */
static void check_copy4(void)
{
    static const unsigned vds[] = {0, 7, 9};
    for (unsigned i = 0; i < N(vds); i++)
        for (unsigned chained = 0; chained < 2; chained++) {
            tile_reset(t);
            tag_regs(0, 7);
            enable_only(0xFFFFFEFFu); /* lane 8 off */
            RUN(TT_OP_SFPSHFT2(0, 0, vds[i], chained ? CHAINED_COPY4 : COPY4));
            for (unsigned l = 0; l < 32; l++) {
                const bool on = l != 8;
                for (unsigned r = 0; r < 3; r++)
                    cr_expect_eq(t->sfpu.lreg[r][l], on ? tag(r + 1, l) : tag(r, l), "LReg[%u] lane %u", r, l);
                /* chained: the old LReg[0] of the next row (of a disabled lane too), 0 in row 3 */
                const uint32_t l3 = !chained ? 0 : l < 24 ? tag(0, l + 8) : 0;
                cr_expect_eq(t->sfpu.lreg[3][l], on ? l3 : tag(3, l), "VD %u chained %u lane %u: 0x%x",
                             vds[i], chained, l, t->sfpu.lreg[3][l]);
                cr_expect_eq(t->sfpu.lreg[4][l], tag(4, l));
            }
            cr_expect_eq(t->sfpu.lreg[3][0], chained ? 0x0008 : 0); /* from the disabled lane 8 */
            expect_constants();
        }
}
Test(sfpu_move, shft2_copy4_and_chained) { check_copy4(); }
Test(sfpu_move_wh, shft2_copy4_and_chained) { check_copy4(); }

/* SHFLROR1_AND_COPY4: LReg[3] takes LReg[VC] rotated right within each row, LReg[VC] read
 * before the shuffle (VC 3 is the old LReg[3]); any VC: 5, 3, the constant 15. */
static void check_ror1_and_copy4(void)
{
    static const unsigned vcs[] = {5, 3, 15};
    for (unsigned i = 0; i < N(vcs); i++) {
        tile_reset(t);
        tag_regs(0, 7);
        enable_only(0x7FFFFFFFu); /* lane 31 off */
        RUN(TT_OP_SFPSHFT2(0, vcs[i], 0, SHFLROR1_AND_COPY4));
        for (unsigned l = 0; l < 31; l++) {
            for (unsigned r = 0; r < 3; r++)
                cr_expect_eq(t->sfpu.lreg[r][l], tag(r + 1, l));
            const uint32_t want = vcs[i] == 15 ? from_left(l) * 2 : tag(vcs[i], from_left(l));
            cr_expect_eq(t->sfpu.lreg[3][l], want, "VC %u lane %u: 0x%x", vcs[i], l, t->sfpu.lreg[3][l]);
        }
        for (unsigned r = 0; r < 4; r++)
            cr_expect_eq(t->sfpu.lreg[r][31], tag(r, 31));
    }
    /* by hand, VC 15: lane 0 gets lane 7's 14, lane 1 lane 0's 0, lane 24 lane 31's 62 */
    cr_expect_eq(t->sfpu.lreg[3][0], 14);
    cr_expect_eq(t->sfpu.lreg[3][1], 0);
    cr_expect_eq(t->sfpu.lreg[3][24], 62);
}
Test(sfpu_move, shft2_ror1_and_copy4) { check_ror1_and_copy4(); }
Test(sfpu_move_wh, shft2_ror1_and_copy4) { check_ror1_and_copy4(); }

/* SHFLROR1 into VD (in place too) on enabled lanes; VD 8..11 writes nothing. */
static void check_ror1(void)
{
    tag_regs(0, 7);
    enable_only(0xFFFFFFFDu); /* lane 1 off: it keeps its value but still sends it */
    RUN(TT_OP_SFPSHFT2(0, 1, 2, SHFLROR1), TT_OP_SFPSHFT2(0, 4, 4, SHFLROR1),
        TT_OP_SFPSHFT2(0, 5, 9, SHFLROR1));
    uint32_t r2[32], r4[32], r5[32];
    for (unsigned l = 0; l < 32; l++) {
        r2[l] = l == 1 ? tag(2, 1) : tag(1, from_left(l));
        r4[l] = l == 1 ? tag(4, 1) : tag(4, from_left(l));
        r5[l] = tag(5, l);
    }
    r2[8] = 0x010F; /* by hand: lane 8 from lane 15 */
    r4[2] = 0x0401; /* lane 2 from the disabled lane 1 */
    expect_lreg(2, r2);
    expect_lreg(4, r4);
    expect_lreg(5, r5);
    expect_constants();
}
Test(sfpu_move, shft2_ror1) { check_ror1(); }
Test(sfpu_move_wh, shft2_ror1) { check_ror1(); }

/* SHFLSHR1: each row shifts right by one lane; a row's first lane gets 0 (Blackhole, and
 * Wormhole before any rotate has run). */
static void check_shr1_fresh(void)
{
    tag_regs(0, 7);
    enable_only(0xFFFFFFEFu); /* lane 4 off */
    RUN(TT_OP_SFPSHFT2(0, 6, 1, SHFLSHR1), TT_OP_SFPSHFT2(0, 3, 3, SHFLSHR1),
        TT_OP_SFPSHFT2(0, 2, 10, SHFLSHR1));
    uint32_t r1[32], r3[32];
    for (unsigned l = 0; l < 32; l++) {
        r1[l] = l == 4 ? tag(1, 4) : l % 8 ? tag(6, l - 1) : 0;
        r3[l] = l == 4 ? tag(3, 4) : l % 8 ? tag(3, l - 1) : 0;
    }
    expect_lreg(1, r1);
    expect_lreg(3, r3);
    expect_constants();
}
Test(sfpu_move, shft2_shr1) { check_shr1_fresh(); }
Test(sfpu_move_wh, shft2_shr1_before_any_rotate) { check_shr1_fresh(); }

/* After a rotate, Blackhole's SHFLSHR1 still puts 0 in each row's first lane. */
Test(sfpu_move, shft2_shr1_after_rotate_gives_zero)
{
    tag_regs(0, 7);
    RUN(TT_OP_SFPSHFT2(0, 6, 9, SHFLROR1), TT_OP_SFPSHFT2(0, 2, 1, SHFLSHR1));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[1][l], l % 8 ? tag(2, l - 1) : 0, "lane %u", l);
}

/* Wormhole's bug (WH:SFPSHFT2.md): a row's first lane gets what the last SHFLROR1 (here with
 * VD 9, so it wrote nothing) or SHFLROR1_AND_COPY4 rotated into it: LReg[6]'s last lane of the
 * row as it was then, though LReg[6] has changed since; it was latched on a lane disabled at
 * the time too. SHFLROR1 with VD and VC 9 clears it (the page's advice). */
Test(sfpu_move_wh, shft2_shr1_hardware_bug)
{
    tag_regs(0, 7);
    enable_only(0xFFFFFFFEu); /* lane 0 off during the rotate */
    RUN(TT_OP_SFPSHFT2(0, 6, 9, SHFLROR1));
    fill(6, 0xDEAD);
    enable_only(0xFFFFFFFFu);
    RUN(TT_OP_SFPSHFT2(0, 2, 1, SHFLSHR1));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[1][l], l % 8 ? tag(2, l - 1) : tag(6, l + 7), "lane %u: 0x%x", l,
                     t->sfpu.lreg[1][l]);
    cr_expect_eq(t->sfpu.lreg[1][16], 0x0617);
    /* SHFLROR1_AND_COPY4 latches too, from its VC (LReg[15], lane * 2); an SFPNOP after each lane
     * shuffle, as WH:SFPSHFT2.md "Instruction scheduling" asks */
    RUN(TT_OP_SFPSHFT2(0, 15, 0, SHFLROR1_AND_COPY4), TT_OP_SFPNOP, TT_OP_SFPSHFT2(0, 2, 1, SHFLSHR1));
    for (unsigned l = 0; l < 32; l += 8)
        cr_expect_eq(t->sfpu.lreg[1][l], (l + 7) * 2, "lane %u", l);
    /* a rotate through the backdoor (VD 12) runs no model and latches nothing; with
     * DISABLE_BACKDOOR_LOAD it does (and writes nothing, VD being >= 8) */
    fill(7, 0x7777);
    RUN(TT_OP_SFPSHFT2(0, 7, 12, SHFLROR1), TT_OP_SFPNOP, TT_OP_SFPSHFT2(0, 2, 1, SHFLSHR1));
    for (unsigned l = 0; l < 32; l += 8)
        cr_expect_eq(t->sfpu.lreg[1][l], (l + 7) * 2, "lane %u", l);
    RUN(TT_OP_SFPCONFIG(NO_BACKDOOR, 15, 1), TT_OP_SFPNOP, TT_OP_SFPSHFT2(0, 7, 12, SHFLROR1),
        TT_OP_SFPNOP, TT_OP_SFPSHFT2(0, 2, 1, SHFLSHR1));
    for (unsigned l = 0; l < 32; l += 8)
        cr_expect_eq(t->sfpu.lreg[1][l], 0x7777, "lane %u", l);
    tag_regs(0, 7);
    RUN(TT_OP_SFPSHFT2(0, 9, 9, SHFLROR1), TT_OP_SFPNOP, TT_OP_SFPSHFT2(0, 2, 1, SHFLSHR1));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[1][l], l % 8 ? tag(2, l - 1) : 0, "lane %u", l);
}

/* SHFT_LREG: LReg[VB] (VB the low 4 bits of the Imm12 field) shifted left by LReg[VC] when
 * >= 0, right (logically) by its negation otherwise, modulo 32. Worked by hand for
 * LReg[VB] = 0x80000001. */
static const struct {
    uint32_t amount, want;
} shifts[16] = {
    {0, 0x80000001},          {1, 0x00000002},          {4, 0x00000010},
    {31, 0x80000000},         {32, 0x80000001},         {33, 0x00000002},
    {0xFFFFFFFF, 0x40000000}, {0xFFFFFFFC, 0x08000000}, {0xFFFFFFE1, 0x00000001}, /* -1 -4 -31 */
    {0xFFFFFFE0, 0x80000001}, {0xFFFFFFDF, 0x40000000},                         /* -32 -33 */
    {0x80000000, 0x80000001}, {0x7FFFFFFF, 0x80000000}, {16, 0x00010000},
    {0xFFFFFFF0, 0x00008000}, {0x3F800000, 0x80000001}, /* -16; 1.0 read as an integer */
};

static void check_shft_lreg(void)
{
    fill(1, 0x80000001);
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[2][l] = shifts[l % 16].amount;
    tag_regs(3, 3);
    enable_only(0xFFFFFFF7u); /* lane 3 off */
    /* Imm12 0xF01: bits above VB are not read in this mode */
    RUN(TT_OP_SFPSHFT2(0xF01, 2, 3, SHFT_LREG), TT_OP_SFPSHFT2(1, 2, 8, SHFT_LREG));
    uint32_t want[32];
    for (unsigned l = 0; l < 32; l++)
        want[l] = l == 3 ? tag(3, 3) : shifts[l % 16].want;
    expect_lreg(3, want);
    /* VB a constant, in place: LReg[10] (1.0) << 2 into LReg[2] */
    fill(2, 2);
    enable_only(0xFFFFFFFFu);
    RUN(TT_OP_SFPSHFT2(10, 2, 2, SHFT_LREG));
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(t->sfpu.lreg[2][l], 0xFE000000u);
    expect_constants();
}
Test(sfpu_move, shft2_shift_by_register) { check_shft_lreg(); }
Test(sfpu_move_wh, shft2_shift_by_register) { check_shft_lreg(); }

/* SHFT_IMM: Imm12 is both the signed amount and, in its low 4 bits, VB. */
static void check_shft_imm(void)
{
    fill(0, 0xDEADBEEF);
    fill(1, 0x80000000);
    fill(3, 0x00000ABC);
    RUN(TT_OP_SFPSHFT2(0x013, 0, 4, SHFT_IMM),  /* LReg[3] << 19 */
        TT_OP_SFPSHFT2(0xFF0, 0, 5, SHFT_IMM),  /* -16: LReg[0] >> 16 */
        TT_OP_SFPSHFT2(0xFE1, 0, 6, SHFT_IMM),  /* -31: LReg[1] >> 31 */
        TT_OP_SFPSHFT2(0x800, 0, 7, SHFT_IMM),  /* -2048: LReg[0] >> 0 */
        TT_OP_SFPSHFT2(0xFFA, 0, 2, SHFT_IMM),  /* -6: LReg[10] (1.0) >> 6 */
        TT_OP_SFPSHFT2(0x00F, 0, 1, SHFT_IMM),  /* LReg[15] (lane * 2) << 15 */
        TT_OP_SFPSHFT2(0x001, 0, 11, SHFT_IMM)); /* VD 11: nothing */
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(t->sfpu.lreg[4][l], 0x55E00000u);
        cr_expect_eq(t->sfpu.lreg[5][l], 0x0000DEADu);
        cr_expect_eq(t->sfpu.lreg[6][l], 1);
        cr_expect_eq(t->sfpu.lreg[7][l], 0xDEADBEEFu);
        cr_expect_eq(t->sfpu.lreg[2][l], 0x00FE0000u);
        cr_expect_eq(t->sfpu.lreg[1][l], l << 16, "lane %u", l);
    }
    expect_constants();
}
Test(sfpu_move, shft2_shift_by_immediate) { check_shft_imm(); }
Test(sfpu_move_wh, shft2_shift_by_immediate) { check_shft_imm(); }

/* Mod1 7..15 are no mode of the page's: the run stops, nothing changed, no template (even on
 * lanes that would take one). Through the backdoor on every lane it is only a template. */
static void check_shft2_undefined(void)
{
    for (unsigned mod1 = 7; mod1 < 16; mod1++) {
        tile_reset(t);
        tag_regs(0, 7);
        t->sfpu.lane_config[0] = NO_BACKDOOR;
        RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPSHFT2(1, 2, 12, mod1));
        cr_expect(strstr(t->err.text, "SFPSHFT2 Mod1") != NULL, "%s", t->err.text);
        for (unsigned l = 0; l < 32; l++) {
            cr_expect_eq(t->sfpu.macro[l].instruction_template[0], 0);
            for (unsigned r = 0; r < 8; r++)
                cr_expect_eq(t->sfpu.lreg[r][l], tag(r, l));
        }
        tile_reset(t);
        const uint32_t w = TT_OP_SFPSHFT2(1, 2, 13, mod1);
        RUN(w);
        for (unsigned l = 0; l < 32; l++)
            cr_expect_eq(t->sfpu.macro[l].instruction_template[1], w);
    }
    /* and VD < 12 stops too */
    tile_reset(t);
    RUN_FAILS(ERR_UNDEF_BEHAVIOUR, TT_OP_SFPSHFT2(0, 0, 0, 7));
}
Test(sfpu_move, shft2_undefined_modes) { check_shft2_undefined(); }
Test(sfpu_move_wh, shft2_undefined_modes) { check_shft2_undefined(); }

/* Every defined mode with VD 13: only the template, on every lane; no register changes. With
 * DISABLE_BACKDOOR_LOAD the three COPY4 modes still shuffle LReg[0..3] (VD names nothing they
 * write) and the others write nothing (VD >= 8). */
static void check_shft2_backdoor(void)
{
    for (unsigned mod1 = 0; mod1 <= SHFT_IMM; mod1++) {
        tile_reset(t);
        tag_regs(0, 7);
        const uint32_t w = TT_OP_SFPSHFT2(1, 2, 13, mod1);
        RUN(w);
        for (unsigned l = 0; l < 32; l++) {
            cr_expect_eq(t->sfpu.macro[l].instruction_template[1], w, "Mod1 %u", mod1);
            for (unsigned r = 0; r < 8; r++)
                cr_expect_eq(t->sfpu.lreg[r][l], tag(r, l), "Mod1 %u", mod1);
        }
        tile_reset(t);
        tag_regs(0, 7);
        set_lane_config(NO_BACKDOOR);
        RUN(w);
        for (unsigned l = 0; l < 32; l++) {
            cr_expect_eq(t->sfpu.macro[l].instruction_template[1], 0);
            const bool shuffles = mod1 <= SHFLROR1_AND_COPY4;
            cr_expect_eq(t->sfpu.lreg[0][l], shuffles ? tag(1, l) : tag(0, l), "Mod1 %u lane %u", mod1, l);
            for (unsigned r = 4; r < 8; r++)
                cr_expect_eq(t->sfpu.lreg[r][l], tag(r, l));
        }
        expect_constants();
    }
}
Test(sfpu_move, shft2_vd_13_template_or_model) { check_shft2_backdoor(); }
Test(sfpu_move_wh, shft2_vd_13_template_or_model) { check_shft2_backdoor(); }

/* The topk-style pattern: load index registers, then a min/max network step over rows with
 * SFPSWAP after SFPTRANSP, as tt-llk's sort does; checks that the instructions compose
 * (values and indices stay paired). */
static void check_sort_network_keeps_pairs(void)
{
    /* LReg[0..3] values, LReg[4..7] their indices (value + 0x100) */
    for (unsigned r = 0; r < 4; r++)
        for (unsigned l = 0; l < 32; l++) {
            const uint32_t v = (l * 7 + r * 13) % 29; /* small positive integers */
            t->sfpu.lreg[r][l] = v;
            t->sfpu.lreg[r + 4][l] = v + 0x100;
        }
    set_lane_config(DEST_INDEX);
    RUN(TT_OP_SFPTRANSP(0), TT_OP_SFPSWAP(1, 0, 1), TT_OP_SFPSWAP(3, 2, 9), TT_OP_SFPSWAP(2, 0, 1),
        TT_OP_SFPSWAP(3, 1, 9), TT_OP_SFPTRANSP(0));
    unsigned moved = 0;
    for (unsigned r = 0; r < 4; r++)
        for (unsigned l = 0; l < 32; l++) {
            cr_expect_eq(t->sfpu.lreg[r + 4][l], t->sfpu.lreg[r][l] + 0x100, "LReg[%u] lane %u", r, l);
            moved += t->sfpu.lreg[r][l] != (l * 7 + r * 13) % 29;
        }
    cr_expect_gt(moved, 32); /* the network did reorder */
}
Test(sfpu_move, sort_network_keeps_value_index_pairs) { check_sort_network_keeps_pairs(); }
Test(sfpu_move_wh, sort_network_keeps_value_index_pairs) { check_sort_network_keeps_pairs(); }
