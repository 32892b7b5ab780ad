/* The Miscellaneous unit (WH:MiscellaneousUnit.md): every instruction takes one cycle and each
 * thread can issue one per cycle, so it never holds the gate. NOP, the ADC instructions
 * (WH:SETADC.md, SETADCXY, SETADCZW, SETADCXX, INCADCXY, INCADCZW, ADDRCRXY, ADDRCRZW) and
 * SETDVALID (WH:SETDVALID.md). */
#include "../core/tile.h"

enum { OPC_NOP = 0x02, OPC_SETADC = 0x50, OPC_SETADCXY, OPC_INCADCXY, OPC_ADDRCRXY, OPC_SETADCZW,
       OPC_INCADCZW, OPC_ADDRCRZW, OPC_SETDVALID, OPC_SETADCXX = 0x5E };

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    (void)t, (void)th, (void)w, (void)f, (void)detail;
    return GS_NONE;
}

static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w, (void)f;
    return RES_NONE;
}

/* The ADC sets an instruction applies to: U0 [21], U1 [22], PK [23] of the thread named by
 * ThreadOverride (0 = the issuing thread, 1..3 = thread 0..2). */
static unsigned targets(struct tile *t, unsigned th, uint32_t w, unsigned override,
                        struct adc *out[3])
{
    unsigned which = override ? override - 1 : th;
    unsigned n = 0;
    if (which >= NUM_THREADS)
        return 0;
    if (tt_bits(w, 21, 21))
        out[n++] = &t->adc[which].unpack[0];
    if (tt_bits(w, 22, 22))
        out[n++] = &t->adc[which].unpack[1];
    if (tt_bits(w, 23, 23))
        out[n++] = &t->adc[which].pack;
    return n;
}

/* SETADCXY/ZW, INCADCXY/ZW, ADDRCRXY/ZW share one layout: four 3-bit values [17:15] [14:12]
 * [11:9] [8:6] for channel 1 second/first counter and channel 0 second/first counter, and for
 * SET and ADDRCR a 4-bit mask [3:0] saying which apply. */
static void four_counters(struct adc *a, uint32_t w, enum adc_counter lo, unsigned kind)
{
    static const struct { unsigned ch, hi_counter, shift, mask_bit; } slot[4] = {
        {0, 0, 6, 0}, {0, 1, 9, 1}, {1, 0, 12, 2}, {1, 1, 15, 3}};
    for (unsigned k = 0; k < 4; k++) {
        enum adc_counter c = (enum adc_counter)(lo + slot[k].hi_counter);
        uint32_t v = tt_bits(w, slot[k].shift + 2, slot[k].shift);
        bool selected = tt_bits(w, slot[k].mask_bit, slot[k].mask_bit);
        switch (kind) {
        case 0: if (selected) adc_set(a, slot[k].ch, c, v); break;
        case 1: adc_inc(a, slot[k].ch, c, v); break;
        default: if (selected) adc_cr_add(a, slot[k].ch, c, v); break;
        }
    }
}

static void setdvalid(struct tile *t, unsigned th, unsigned which)
{
    src_hand_over(&t->src, which, SRC_FMT_UNKNOWN); /* BH: ImpliedSrc*Fmt unpredictable */
    t->src.src_row[which][th] = src_row_base(&t->cfg, tile_arch_bit(t), th, which);
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct adc *a[3];
    unsigned n;
    switch (f->opcode) {
    case OPC_NOP:
        return true;
    case OPC_SETADC: {
        uint32_t v = tt_bits(w, 17, 0);
        n = targets(t, th, w, v >> 16, a);
        for (unsigned i = 0; i < n; i++)
            adc_set(a[i], tt_bits(w, 20, 20), (enum adc_counter)tt_bits(w, 19, 18), v);
        return true;
    }
    case OPC_SETADCXY: case OPC_INCADCXY: case OPC_ADDRCRXY:
    case OPC_SETADCZW: case OPC_INCADCZW: case OPC_ADDRCRZW: {
        bool zw = f->opcode >= OPC_SETADCZW;
        unsigned kind = (f->opcode - (zw ? OPC_SETADCZW : OPC_SETADCXY)); /* 0 set, 1 inc, 2 cr */
        n = targets(t, th, w, tt_bits(w, 19, 18), a);
        for (unsigned i = 0; i < n; i++)
            four_counters(a[i], w, zw ? ADC_Z : ADC_X, kind);
        return true;
    }
    case OPC_SETADCXX: /* always the issuing thread */
        n = targets(t, th, w, 0, a);
        for (unsigned i = 0; i < n; i++) {
            adc_set(a[i], 0, ADC_X, tt_bits(w, 9, 0));
            adc_set(a[i], 1, ADC_X, tt_bits(w, 19, 10));
        }
        return true;
    case OPC_SETDVALID:
        if (tt_bits(w, 0, 0))
            setdvalid(t, th, 0);
        if (tt_bits(w, 1, 1))
            setdvalid(t, th, 1);
        return true;
    default:
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "%s (misc), thread T%u", f->mnemonic, th);
    }
}

const struct unit_desc misc_unit_desc = {
    .name = "misc", .can_accept = can_accept, .resource = resource, .accept = accept,
};
