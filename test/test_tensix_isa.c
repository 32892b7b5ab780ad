/* The Tensix instruction table (units/tensix.def): structural checks, the generated encoders
 * (tensix_ops.h) against words worked out by hand from spec/instructions.md, decoding and
 * disassembly. */
#include <criterion/criterion.h>

#include "../units/tensix_isa.h"
#include "tensix_ops.h"

static const unsigned arches[] = {TT_ARCH_BH, TT_ARCH_WH};

static uint32_t field_bits(const struct tt_field *d)
{
    return (0xFFFFFFFFu >> (31 - (d->hi - d->lo))) << d->lo;
}

/* Index of the named field in f; fails the test when there is none. */
static unsigned field_index(const struct tt_form *f, const char *name)
{
    for (unsigned i = 0; i < f->nfields; i++)
        if (strcmp(f->field[i].name, name) == 0)
            return i;
    cr_assert_fail("%s has no field %s", f->name, name);
    return 0;
}

static uint32_t get(const struct tt_form *f, const char *name, uint32_t word)
{
    return tt_field_get(f, field_index(f, name), word);
}

Test(tensix_isa, no_two_forms_overlap)
{
    for (unsigned a = 0; a < 2; a++)
        for (unsigned i = 0; i < TT_FORM_COUNT; i++)
            for (unsigned j = i + 1; j < TT_FORM_COUNT; j++)
                cr_expect(!tt_forms_overlap(&tt_forms[i], &tt_forms[j], arches[a]),
                          "%s and %s overlap on arch %u", tt_forms[i].name, tt_forms[j].name,
                          arches[a]);
}

Test(tensix_isa, overlap_check_sees_overlaps)
{
    const struct tt_form *imm = &tt_forms[TT_FORM_SETDMAREG_IMM];
    const struct tt_form *bh = &tt_forms[TT_FORM_STALLWAIT_BH];
    cr_expect(tt_forms_overlap(imm, imm, TT_ARCH_BH));
    cr_expect(tt_forms_overlap(bh, bh, TT_ARCH_BH));
    cr_expect(!tt_forms_overlap(bh, bh, TT_ARCH_WH));
    cr_expect(!tt_forms_overlap(bh, &tt_forms[TT_FORM_STALLWAIT_WH], TT_ARCH_BH | TT_ARCH_WH));
}

/* tt_decode walks back from the last form of an opcode, so each opcode's forms are one run. */
Test(tensix_isa, forms_sharing_an_opcode_are_adjacent)
{
    for (unsigned i = 0; i < TT_FORM_COUNT; i++)
        for (unsigned j = i + 2; j < TT_FORM_COUNT; j++)
            if (tt_forms[i].opcode == tt_forms[j].opcode)
                cr_expect(tt_forms[j - 1].opcode == tt_forms[i].opcode, "%s and %s not adjacent",
                          tt_forms[i].name, tt_forms[j].name);
}

Test(tensix_isa, fields_are_disjoint_and_inside_the_operand_bits)
{
    for (unsigned i = 0; i < TT_FORM_COUNT; i++) {
        const struct tt_form *f = &tt_forms[i];
        cr_expect((f->mask & ~0xFFFFFFu) == 0 && (f->match & ~f->mask) == 0, "%s mask/match",
                  f->name);
        cr_expect(f->archs != 0 && (f->archs & ~(TT_ARCH_BH | TT_ARCH_WH)) == 0, "%s archs",
                  f->name);
        cr_expect(f->unit < TT_UNIT_COUNT, "%s unit", f->name);
        uint32_t used = f->mask;
        for (unsigned k = 0; k < f->nfields; k++) {
            const struct tt_field *d = &f->field[k];
            cr_expect(d->hi >= d->lo && d->hi <= 23, "%s.%s [%u:%u]", f->name, d->name, d->hi,
                      d->lo);
            cr_expect((used & field_bits(d)) == 0, "%s.%s overlaps", f->name, d->name);
            used |= field_bits(d);
            if (k > 0)
                cr_expect(f->field[k - 1].lo > d->hi, "%s fields not msb first", f->name);
        }
    }
}

static unsigned opcode_count(unsigned arch)
{
    bool seen[256] = {false};
    unsigned n = 0;
    for (unsigned i = 0; i < TT_FORM_COUNT; i++)
        if ((tt_forms[i].archs & arch) && !seen[tt_forms[i].opcode]) {
            seen[tt_forms[i].opcode] = true;
            n++;
        }
    return n;
}

Test(tensix_isa, opcode_counts_match_the_spec)
{
    cr_expect_eq(opcode_count(TT_ARCH_BH), 137);
    cr_expect_eq(opcode_count(TT_ARCH_WH), 128);
}

/* Every form decodes to itself on its architectures, with its fields all zero or all ones. */
Test(tensix_isa, every_form_decodes_to_itself)
{
    for (unsigned i = 0; i < TT_FORM_COUNT; i++) {
        const struct tt_form *f = &tt_forms[i];
        uint32_t zeros = (uint32_t)f->opcode << 24 | f->match, ones = zeros;
        for (unsigned k = 0; k < f->nfields; k++)
            ones |= field_bits(&f->field[k]);
        for (unsigned a = 0; a < 2; a++) {
            if (!(f->archs & arches[a]))
                continue;
            cr_expect_eq(tt_decode(arches[a], zeros), f, "%s zeros, arch %u", f->name, arches[a]);
            cr_expect_eq(tt_decode(arches[a], ones), f, "%s ones, arch %u", f->name, arches[a]);
        }
    }
}

Test(tensix_isa, seminit)
{
    /* NewMax[23:20]=1 NewValue[19:16]=0 SemaphoreMask[9:2]=0x04 */
    uint32_t w = 0xA3u << 24 | 1u << 20 | 0u << 16 | 0x04u << 2;
    cr_expect_eq(w, 0xA3100010u);
    cr_expect_eq(TT_OP_SEMINIT(1, 0, 4), w);
    const struct tt_form *f = tt_decode(TT_ARCH_WH, w);
    cr_assert_eq(f, &tt_forms[TT_FORM_SEMINIT]);
    cr_expect_eq(tt_decode(TT_ARCH_BH, w), f);
    cr_expect_eq(get(f, "NewMax", w), 1);
    cr_expect_eq(get(f, "NewValue", w), 0);
    cr_expect_eq(get(f, "SemaphoreMask", w), 4);
    cr_expect_eq(f->unit, TT_UNIT_SYNC);
}

Test(tensix_isa, stallwait_bh_and_wh)
{
    /* BlockMask[23:15]=0x102 on both; ConditionMask is [12:0] on BH, [14:0] on WH, so the
     * same argument 0x7FFF keeps 13 bits on BH and 15 on WH. */
    uint32_t bh = 0xA2u << 24 | 0x102u << 15 | 0x1FFFu;
    uint32_t wh = 0xA2u << 24 | 0x102u << 15 | 0x7FFFu;
    cr_expect_eq(bh, 0xA2811FFFu);
    cr_expect_eq(wh, 0xA2817FFFu);
    cr_expect_eq(TT_OP_STALLWAIT_BH(0x102, 0x7FFF), bh);
    cr_expect_eq(TT_OP_STALLWAIT_WH(0x102, 0x7FFF), wh);
    cr_expect_eq(TT_OP_STALLWAIT(0x102, 0x7FFF), bh, "default build is Blackhole");
    cr_expect_eq(TT_OPCODE_STALLWAIT, 0xA2u);

    const struct tt_form *fb = tt_decode(TT_ARCH_BH, wh);
    const struct tt_form *fw = tt_decode(TT_ARCH_WH, wh);
    cr_assert_eq(fb, &tt_forms[TT_FORM_STALLWAIT_BH]);
    cr_assert_eq(fw, &tt_forms[TT_FORM_STALLWAIT_WH]);
    cr_expect_eq(get(fb, "BlockMask", wh), 0x102);
    cr_expect_eq(get(fb, "ConditionMask", wh), 0x1FFF);
    cr_expect_eq(get(fw, "ConditionMask", wh), 0x7FFF);
}

Test(tensix_isa, setdmareg_both_forms)
{
    /* Immediate: NewValue[23:8]=0x1234 [7]=0 ResultHalfReg[6:0]=5 */
    uint32_t imm = 0x45u << 24 | 0x1234u << 8 | 5u;
    cr_expect_eq(imm, 0x45123405u);
    cr_expect_eq(TT_OP_SETDMAREG_IMM(0x1234, 5), imm);
    /* Special: ResultSize[23:22]=2 WhichPackers[18:15]=0xF InputSource[14:11]=3
     * InputHalfReg[10:8]=1 [7]=1 ResultHalfReg[6:0]=9 */
    uint32_t sp = 0x45u << 24 | 2u << 22 | 0xFu << 15 | 3u << 11 | 1u << 8 | 1u << 7 | 9u;
    cr_expect_eq(sp, 0x45879989u);
    cr_expect_eq(TT_OP_SETDMAREG_SPECIAL(2, 0xF, 3, 1, 9), sp);

    for (unsigned a = 0; a < 2; a++) {
        const struct tt_form *fi = tt_decode(arches[a], imm);
        const struct tt_form *fs = tt_decode(arches[a], sp);
        cr_assert_eq(fi, &tt_forms[TT_FORM_SETDMAREG_IMM]);
        cr_assert_eq(fs, &tt_forms[TT_FORM_SETDMAREG_SPECIAL]);
        cr_expect_eq(get(fi, "NewValue", imm), 0x1234);
        cr_expect_eq(get(fi, "ResultHalfReg", imm), 5);
        cr_expect_eq(get(fs, "ResultSize", sp), 2);
        cr_expect_eq(get(fs, "WhichPackers", sp), 0xF);
        cr_expect_eq(get(fs, "InputSource", sp), 3);
        cr_expect_eq(get(fs, "InputHalfReg", sp), 1);
        cr_expect_eq(get(fs, "ResultHalfReg", sp), 9);
    }
}

Test(tensix_isa, replay_and_mop)
{
    /* REPLAY: Index[18:14]=3 Count[9:4]=10 Exec[1]=1 Load[0]=1 */
    uint32_t rp = 0x04u << 24 | 3u << 14 | 10u << 4 | 1u << 1 | 1u;
    cr_expect_eq(rp, 0x0400C0A3u);
    cr_expect_eq(TT_OP_REPLAY(3, 10, 1, 1), rp);
    const struct tt_form *f = tt_decode(TT_ARCH_BH, rp);
    cr_assert_eq(f, &tt_forms[TT_FORM_REPLAY]);
    cr_expect_eq(get(f, "Index", rp), 3);
    cr_expect_eq(get(f, "Count", rp), 10);
    cr_expect_eq(get(f, "Exec", rp), 1);
    cr_expect_eq(get(f, "Load", rp), 1);
    cr_expect_eq(f->unit, TT_UNIT_REPLAY);

    /* MOP: Template[23]=1 Count1[22:16]=5 MaskLo[15:0]=0xBEEF */
    uint32_t mop = 0x01u << 24 | 1u << 23 | 5u << 16 | 0xBEEFu;
    cr_expect_eq(mop, 0x0185BEEFu);
    cr_expect_eq(TT_OP_MOP(1, 5, 0xBEEF), mop);
    f = tt_decode(TT_ARCH_WH, mop);
    cr_assert_eq(f, &tt_forms[TT_FORM_MOP]);
    cr_expect_eq(get(f, "Template", mop), 1);
    cr_expect_eq(get(f, "Count1", mop), 5);
    cr_expect_eq(get(f, "MaskLo", mop), 0xBEEF);
}

Test(tensix_isa, rmwcib2)
{
    /* opcode 0xB3 + 2; Mask[23:16]=0xF0 NewValue[15:8]=0x30 Index4[7:0]=0x12 */
    uint32_t w = 0xB5u << 24 | 0xF0u << 16 | 0x30u << 8 | 0x12u;
    cr_expect_eq(w, 0xB5F03012u);
    cr_expect_eq(TT_OP_RMWCIB2(0xF0, 0x30, 0x12), w);
    const struct tt_form *f = tt_decode(TT_ARCH_BH, w);
    cr_assert_eq(f, &tt_forms[TT_FORM_RMWCIB2]);
    cr_expect_str_eq(f->mnemonic, "RMWCIB");
    cr_expect_eq(get(f, "Mask", w), 0xF0);
    cr_expect_eq(get(f, "NewValue", w), 0x30);
    cr_expect_eq(get(f, "Index4", w), 0x12);
    cr_expect_eq(f->opcode - tt_forms[TT_FORM_RMWCIB0].opcode, 2);
}

Test(tensix_isa, sfpload_bh_and_wh)
{
    /* VD[23:20]=3 Mod0[19:16]=4 Imm10[9:0]=0x155; AddrMod is [15:13] on BH, [15:14] on WH,
     * so AddrMod=7 keeps 3 bits on BH and 2 on WH. */
    uint32_t bh = 0x70u << 24 | 3u << 20 | 4u << 16 | 7u << 13 | 0x155u;
    uint32_t wh = 0x70u << 24 | 3u << 20 | 4u << 16 | 3u << 14 | 0x155u;
    cr_expect_eq(bh, 0x7034E155u);
    cr_expect_eq(wh, 0x7034C155u);
    cr_expect_eq(TT_OP_SFPLOAD_BH(3, 4, 7, 0x155), bh);
    cr_expect_eq(TT_OP_SFPLOAD_WH(3, 4, 7, 0x155), wh);

    const struct tt_form *fb = tt_decode(TT_ARCH_BH, bh);
    const struct tt_form *fw = tt_decode(TT_ARCH_WH, bh);
    cr_assert_eq(fb, &tt_forms[TT_FORM_SFPLOAD_BH]);
    cr_assert_eq(fw, &tt_forms[TT_FORM_SFPLOAD_WH]);
    cr_expect_eq(get(fb, "AddrMod", bh), 7);
    cr_expect_eq(get(fw, "AddrMod", bh), 3);
    cr_expect_eq(get(fb, "VD", bh), 3);
    cr_expect_eq(get(fb, "Mod0", bh), 4);
    cr_expect_eq(get(fw, "Imm10", bh), 0x155);
    cr_expect_eq(fb->unit, TT_UNIT_SFPU);
}

Test(tensix_isa, selector_bits_pick_the_variant)
{
    cr_expect_eq(tt_decode(TT_ARCH_BH, TT_OP_STOREIND_L1(1, 2, 3, 4, 5)),
                 &tt_forms[TT_FORM_STOREIND_L1]);
    cr_expect_eq(tt_decode(TT_ARCH_BH, TT_OP_STOREIND_MMIO(2, 3, 4, 5)),
                 &tt_forms[TT_FORM_STOREIND_MMIO]);
    cr_expect_eq(tt_decode(TT_ARCH_WH, TT_OP_STOREIND_SRC(1, 2, 3, 4, 5)),
                 &tt_forms[TT_FORM_STOREIND_SRC]);
    cr_expect_eq(tt_decode(TT_ARCH_WH, TT_OP_ADDDMAREGI(1, 63, 2)), &tt_forms[TT_FORM_ADDDMAREGI]);
    cr_expect_eq(tt_decode(TT_ARCH_WH, TT_OP_UNPACR_NOP_SETDVALID(1)),
                 &tt_forms[TT_FORM_UNPACR_NOP_SETDVALID]);
    cr_expect_eq(tt_decode(TT_ARCH_BH, TT_OP_UNPACR_NOP_SETDVALID(1)),
                 &tt_forms[TT_FORM_UNPACR_NOP_BH]);
    /* REG2FLOP [21:20]=01 is neither the config nor the ADC variant. */
    cr_expect_null(tt_decode(TT_ARCH_WH, 0x48100000u));
}

Test(tensix_isa, disassembly)
{
    char buf[96];
    cr_expect_eq(tt_disasm(TT_ARCH_BH, 0xA3100010u, buf, sizeof buf), 45);
    cr_expect_str_eq(buf, "SEMINIT NewMax=1 NewValue=0 SemaphoreMask=0x4");
    tt_disasm(TT_ARCH_BH, 0xA2811FFFu, buf, sizeof buf);
    cr_expect_str_eq(buf, "STALLWAIT BlockMask=0x102 ConditionMask=0x1FFF");
    tt_disasm(TT_ARCH_WH, 0xDEADBEEFu, buf, sizeof buf);
    cr_expect_str_eq(buf, ".tt 0xDEADBEEF (undefined)");

    /* Truncation keeps counting, like snprintf. */
    char small[8];
    cr_expect_eq(tt_disasm(TT_ARCH_BH, 0xA3100010u, small, sizeof small), 45);
    cr_expect_str_eq(small, "SEMINIT");
    cr_expect_eq(tt_disasm(TT_ARCH_BH, 0xA3100010u, NULL, 0), 45);
}

Test(tensix_isa, undefined_words)
{
    for (unsigned a = 0; a < 2; a++) {
        cr_expect_null(tt_decode(arches[a], 0xFF000000u));
        cr_expect_null(tt_decode(arches[a], 0x00000000u));
    }
    /* Blackhole-only opcodes are undefined on Wormhole. */
    cr_expect_not_null(tt_decode(TT_ARCH_BH, TT_OP_STREAMWAIT(0x40, 5, 1, 2)));
    cr_expect_null(tt_decode(TT_ARCH_WH, TT_OP_STREAMWAIT(0x40, 5, 1, 2)));
    cr_expect_null(tt_decode(TT_ARCH_WH, TT_OP_SFPLE(1, 2, 3)));
}

Test(tensix_isa, unit_names)
{
    cr_expect_str_eq(tt_unit_name(TT_UNIT_SFPU), "sfpu");
    cr_expect_str_eq(tt_unit_name(TT_UNIT_NONE), "none");
    cr_expect_str_eq(tt_unit_name(TT_UNIT_COUNT), "?");
    cr_expect_eq(tt_forms[TT_FORM_RSTDMA].unit, TT_UNIT_NONE);
}
