/* ADC instructions and SETDVALID (Misc unit), values worked out from the functional models in
 * WH:SETADC.md, SETADCXY.md, SETADCZW.md, SETADCXX.md, INCADCXY.md, INCADCZW.md, ADDRCRXY.md,
 * ADDRCRZW.md and WH:SETDVALID.md. */
#include <criterion/criterion.h>

#include "harness.h"

#define TTINSN(w) (((w) << 2) | ((w) >> 30))
#define U0 (1u << 21)
#define U1 (1u << 22)
#define PK (1u << 23)
#define FOUR(op, tov, v3, v2, v1, v0, mask) \
    ((uint32_t)(op) << 24 | (tov) << 18 | (v3) << 15 | (v2) << 12 | (v1) << 9 | (v0) << 6 | (mask))

static struct tile *t;
static void setup(void) { t = test_tile(ARCH_BLACKHOLE); }
static void teardown(void) { tile_destroy(t); }
TestSuite(adc, .init = setup, .fini = teardown);

static void run_words(const uint32_t *w, unsigned n)
{
    struct prog p = prog_at(t, 0x6000);
    for (unsigned i = 0; i < n; i++)
        emit(&p, TTINSN(w[i]));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
}

Test(adc, set_increment_and_checkpoint)
{
    const uint32_t w[] = {
        FOUR(0x51, 0, 5, 4, 3, 2, 0xF) | U0,      /* SETADCXY: Y1 5, X1 4, Y0 3, X0 2 */
        FOUR(0x54, 0, 1, 2, 3, 6, 0x5) | U0 | U1, /* SETADCZW: Z1 2 and Z0 6 only */
        FOUR(0x55, 0, 0, 1, 0, 3, 0) | U0,        /* INCADCZW: Z1 += 1, Z0 += 3 */
        FOUR(0x52, 0, 1, 1, 1, 1, 0) | U0,        /* INCADCXY: all four += 1 */
        FOUR(0x56, 0, 0, 0, 0, 4, 0x1) | U0,      /* ADDRCRZW: Z0_Cr += 4, Z0 = Z0_Cr */
    };
    run_words(w, sizeof w / sizeof w[0]);
    const struct adc *a = &t->adc[0].unpack[0];
    cr_expect_eq(a->ch[0].v[ADC_X], 3);
    cr_expect_eq(a->ch[0].cr[ADC_X], 2, "INCADC leaves the checkpoint");
    cr_expect_eq(a->ch[0].v[ADC_Y], 4);
    cr_expect_eq(a->ch[1].v[ADC_X], 5);
    cr_expect_eq(a->ch[1].v[ADC_Y], 6);
    cr_expect_eq(a->ch[1].v[ADC_Z], 3);
    cr_expect_eq(a->ch[0].v[ADC_Z], 10, "checkpoint 6 + 4");
    cr_expect_eq(a->ch[0].cr[ADC_Z], 10);
    cr_expect_eq(a->ch[0].v[ADC_W], 0, "not selected by the SETADCZW mask");
    cr_expect_eq(t->adc[0].unpack[1].ch[0].v[ADC_Z], 6);
    cr_expect_eq(t->adc[0].pack.ch[0].v[ADC_Z], 0);
}

Test(adc, thread_override_and_setadc)
{
    const uint32_t w[] = {
        FOUR(0x51, 3, 0, 0, 0, 7, 0x1) | PK,           /* SETADCXY for thread 2: X0 = 7 */
        0x50000000u | U1 | 1u << 20 | 2u << 18 | 0x1ABu, /* SETADC U1 ch1 Z = 0x1AB (8 bits) */
        0x50000000u | U0 | 0u << 20 | 0u << 18 | (2u << 16) | 0x123u, /* thread 1, X */
        0x5E000000u | U0 | 300u << 10 | 17u,            /* SETADCXX: X1 = 300, X0 = 17 */
    };
    run_words(w, sizeof w / sizeof w[0]);
    cr_expect_eq(t->adc[2].pack.ch[0].v[ADC_X], 7);
    cr_expect_eq(t->adc[0].pack.ch[0].v[ADC_X], 0);
    cr_expect_eq(t->adc[0].unpack[1].ch[1].v[ADC_Z], 0xAB, "Z is 8 bits wide");
    cr_expect_eq(t->adc[1].unpack[0].ch[0].v[ADC_X], 0x20123, "override bits stay in the value");
    cr_expect_eq(t->adc[0].unpack[0].ch[0].v[ADC_X], 17);
    cr_expect_eq(t->adc[0].unpack[0].ch[1].v[ADC_X], 300);
    cr_expect_eq(t->adc[0].unpack[0].ch[1].cr[ADC_X], 300);
}

Test(adc, setdvalid_hands_banks_to_the_matrix_unit)
{
    /* ThreadConfig SRCA_SET_Base of T0 = 2: the new SrcRow is 2 << 4 = 32 */
    unsigned ab = TT_ARCH_BH;
    thcfg_set(&t->cfg, 0, THCFG_DESC(ab, SRCA_SET_Base), 2);
    const uint32_t stall_c7 = 0xA2000000u | 0x1FFu << 15 | 1u << 7;
    const uint32_t w[] = {0x57000001u /* SETDVALID FlipSrcA */, stall_c7, 0x02000000u};
    run_words(w, 3);
    const struct src_regs *s = &t->src;
    cr_expect_eq(s->bank[0][0].client, SRC_CLIENT_MATRIX);
    cr_expect_eq(s->bank[0][1].client, SRC_CLIENT_UNPACKERS);
    cr_expect_eq(s->unpack_bank[0], 1);
    cr_expect_eq(s->src_row[0][0], 32);
    cr_expect_eq(s->bank[1][0].client, SRC_CLIENT_UNPACKERS, "SrcB untouched");
    /* C7 (SrcA[matrix bank 0] not the matrix unit's) no longer holds: one release cycle */
    cr_expect_eq(t->thread[0].st.stall[GS_WAIT_RELEASE], 1);
    cr_expect_eq(t->thread[0].st.stall[GS_STALLWAIT], 0);
}
