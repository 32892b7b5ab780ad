/* The Dst register file: views, row remapping and the RISC-V window (BH:Dst.md). Expected
 * bit patterns are worked out by hand from the documented layouts. */
#include <criterion/criterion.h>

#include "harness.h"

static struct tile *t;
static void setup(void) { t = test_tile(ARCH_BLACKHOLE); }
static void teardown(void) { tile_destroy(t); }
TestSuite(dest, .init = setup, .fini = teardown);

static void window(unsigned core, unsigned fmt, bool no_swizzle, bool unsigned_int)
{
    static const enum cfg_field_bh f[3][3] = {
        {CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC0_fmt, CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC0_no_swizzle,
         CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC0_unsigned_int},
        {CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC1_fmt, CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC1_no_swizzle,
         CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC1_unsigned_int},
        {CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC2_fmt, CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC2_no_swizzle,
         CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC2_unsigned_int}};
    cfg_set(&t->cfg, 0, &cfg_fields_bh[f[core][0]], fmt);
    cfg_set(&t->cfg, 0, &cfg_fields_bh[f[core][1]], no_swizzle);
    cfg_set(&t->cfg, 0, &cfg_fields_bh[f[core][2]], unsigned_int);
}

Test(dest, adj32_pairs_rows_eight_apart)
{
    cr_expect_eq(dest_adj32(0, false, false), 0);
    cr_expect_eq(dest_adj32(7, false, false), 7);
    cr_expect_eq(dest_adj32(8, false, false), 16);
    cr_expect_eq(dest_adj32(9, false, false), 17);
    cr_expect_eq(dest_adj32(0x1ff, false, false), 0x3f7);
    cr_expect_eq(dest_adj32(0x200, false, false), 0x200, "bit 9 stays");
    dest_write32(t, 9, 3, 0x12345678u);
    cr_expect_eq(t->dest.bits[17][3], 0x1234);
    cr_expect_eq(t->dest.bits[25][3], 0x5678);
    cr_expect_eq(dest_read32(t, 9, 3), 0x12345678u);
    cr_expect_eq(dest_read16(t, 17, 3), 0x1234);
}

Test(dest, remap_addrs_permutes_rows)
{
    cr_expect_eq(dest_adj16(0x10, true), 0x08);
    cr_expect_eq(dest_adj16(0x08, true), 0x20);
    cr_expect_eq(dest_adj16(0x20, true), 0x10);
    cr_expect_eq(dest_adj16(0x07, true), 0x07);
    cr_expect_eq(dest_adj16(0x3c7, true), 0x3c7);
    /* every row maps to a distinct row */
    bool seen[DEST_ROWS] = {0};
    for (unsigned r = 0; r < DEST_ROWS; r++) {
        unsigned m = dest_adj16(r, true);
        cr_assert(!seen[m], "row %u collides", r);
        seen[m] = true;
    }
    cfg_set(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_remap_addrs], 1);
    dest_write16(t, 0x10, 0, 0xBEEF);
    cr_expect_eq(t->dest.bits[0x08][0], 0xBEEF);
}

Test(dest, window_fp32_and_int32)
{
    window(0, 0, false, false);
    cr_assert(dest_window_store(t, 0, DEST_WINDOW_BASE + 4 * 16, 4, 0x3F800000u)); /* row 1 */
    /* Dst FP32 layout: sign, mantissa[22:16], exponent, mantissa[15:0] */
    cr_expect_eq(t->dest.bits[1][0], 0x007F);
    cr_expect_eq(t->dest.bits[9][0], 0x0000);
    uint32_t v;
    cr_assert(dest_window_load(t, 0, DEST_WINDOW_BASE + 4 * 16, 4, &v));
    cr_expect_eq(v, 0x3F800000u);
    window(0, 1, false, false);
    cr_assert(dest_window_store(t, 0, DEST_WINDOW_BASE, 4, (uint32_t)-5));
    cr_expect_eq(dest_read32(t, 0, 0), 0x80000005u, "sign-magnitude");
    cr_assert(dest_window_load(t, 0, DEST_WINDOW_BASE, 4, &v));
    cr_expect_eq(v, (uint32_t)-5);
    cr_assert(dest_window_store(t, 0, DEST_WINDOW_BASE, 4, 0x80000000u));
    cr_assert(dest_window_load(t, 0, DEST_WINDOW_BASE, 4, &v));
    cr_expect_eq(v, 0x80000001u, "-2^31 clamps to -(2^31 - 1)");
}

Test(dest, window_16_and_8_bit)
{
    uint32_t v;
    window(1, 3, false, false); /* BF16 */
    cr_assert(dest_window_store(t, 1, DEST_WINDOW_BASE + 2, 2, 0xBF80u)); /* -1.0, column 1 */
    cr_expect_eq(t->dest.bits[0][1], 0x807F);
    cr_assert(dest_window_load(t, 1, DEST_WINDOW_BASE + 2, 2, &v));
    cr_expect_eq(v, 0xBF80u);
    window(1, 2, false, false); /* FP16: 1.0 = 0x3C00 -> sign, mantissa, exponent */
    cr_assert(dest_window_store(t, 1, DEST_WINDOW_BASE, 2, 0x3C00u));
    cr_expect_eq(t->dest.bits[0][0], 0x000F);
    window(1, 4, false, false); /* int16 */
    cr_assert(dest_window_store(t, 1, DEST_WINDOW_BASE, 2, 0xFFFEu));
    cr_expect_eq(t->dest.bits[0][0], 0x8002);
    cr_assert(dest_window_load(t, 1, DEST_WINDOW_BASE, 2, &v));
    cr_expect_eq(v, 0xFFFEu);
    window(1, 5, false, false); /* int8: the documented store quirk */
    cr_assert(dest_window_store(t, 1, DEST_WINDOW_BASE, 1, 0x80u));
    cr_expect_eq(t->dest.bits[0][0], 0x9FF0);
    cr_assert(dest_window_load(t, 1, DEST_WINDOW_BASE, 1, &v));
    cr_expect_eq(v, 0x81u, "-127");
    cr_assert(dest_window_store(t, 1, DEST_WINDOW_BASE, 1, 0xFFu));
    cr_expect_eq(t->dest.bits[0][0], 0x9030);
    cr_assert(dest_window_load(t, 1, DEST_WINDOW_BASE, 1, &v));
    cr_expect_eq(v, 0xFFu, "-1 survives");
}

Test(dest, trisc2_may_access_several_elements)
{
    window(2, 3, true, false); /* BF16, no swizzle: raw bits */
    cr_assert(dest_window_store(t, 2, DEST_WINDOW_BASE + 4, 4, 0xAAAA5555u));
    cr_expect_eq(t->dest.bits[0][2], 0x5555);
    cr_expect_eq(t->dest.bits[0][3], 0xAAAA);
    window(0, 3, true, false);
    uint32_t v;
    cr_expect_not(dest_window_load(t, 0, DEST_WINDOW_BASE + 4, 4, &v));
    cr_expect_eq(t->err.kind, ERR_UNDEF_BEHAVIOUR);
    cr_expect_str_eq(t->err.text, "4-byte load of the Dst window at 0xffbd8004 with RISC_DEST_ACCESS_CTRL fmt 3");
}

Test(dest, window_from_a_kernel)
{
    /* TRISC0 (fmt 0 after reset: FP32) stores 2.5f to Dst32b[3][4] and reads it back */
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, DEST_WINDOW_BASE + 4 * (3 * 16 + 4));
    emit_li(&p, 6, 0x40200000u);
    E(&p, SW, 0, 5, 6, 0);
    E(&p, LW, 10, 5, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].exit_code, 0x40200000);
    /* 2.5 = 0x40200000: sign 0, exponent 0x80, mantissa 0x200000 -> high half 0x2080 */
    cr_expect_eq(t->dest.bits[dest_adj32(3, false, false)][4], 0x2080);
}
