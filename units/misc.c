/* The Miscellaneous unit (WH:MiscellaneousUnit.md): every instruction takes one cycle and each
 * thread can issue one per cycle, so it never holds the gate. NOP, the ADC instructions
 * (WH:SETADC.md, SETADCXY, SETADCZW, SETADCXX, INCADCXY, INCADCZW, ADDRCRXY, ADDRCRZW) and
 * SETDVALID (WH:SETDVALID.md). */
#include "../core/rules.h"
#include "../core/tile.h"

/* accept() derives the kind (set, inc, cr) from the opcode's place in the run 0x51..0x56. */
_Static_assert(TT_OPC_INCADCXY == TT_OPC_SETADCXY + 1 && TT_OPC_ADDRCRXY == TT_OPC_SETADCXY + 2 &&
                   TT_OPC_INCADCZW == TT_OPC_SETADCZW + 1 &&
                   TT_OPC_ADDRCRZW == TT_OPC_SETADCZW + 2 && TT_OPC_SETADCZW == TT_OPC_ADDRCRXY + 1,
               "ADC opcodes: SETADCXY, INCADCXY, ADDRCRXY, SETADCZW, INCADCZW, ADDRCRZW in a row");

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
 * ThreadOverride (0 = the issuing thread, 1..3 = thread 0..2). Every ADC instruction has U0, U1
 * and PK at these bits (WH:SETADC.md, WH:SETADCXY.md, ...); SETADC's are read. */
#define SAME_TARGETS(form)                                                                        \
    (TT_SAME_BITS(SETADC_U0, form##_U0) && TT_SAME_BITS(SETADC_U1, form##_U1) &&                 \
     TT_SAME_BITS(SETADC_PK, form##_PK))
#define SAME_OVERRIDE(form) TT_SAME_BITS(SETADCXY_ThreadOverride, form##_ThreadOverride)
_Static_assert(SAME_TARGETS(SETADCXY) && SAME_TARGETS(SETADCZW) && SAME_TARGETS(INCADCXY) &&
                   SAME_TARGETS(INCADCZW) && SAME_TARGETS(ADDRCRXY) && SAME_TARGETS(ADDRCRZW) &&
                   SAME_TARGETS(SETADCXX) && SAME_OVERRIDE(SETADCZW) && SAME_OVERRIDE(INCADCXY) &&
                   SAME_OVERRIDE(INCADCZW) && SAME_OVERRIDE(ADDRCRXY) && SAME_OVERRIDE(ADDRCRZW),
               "every ADC instruction has SETADC's U0, U1, PK and SETADCXY's ThreadOverride");
static unsigned targets(struct tile *t, unsigned th, uint32_t w, unsigned override,
                        struct adc *out[3])
{
    unsigned which = override ? override - 1 : th;
    unsigned n = 0;
    if (which >= NUM_THREADS)
        return 0;
    if (TT_GET_SETADC_U0(w))
        out[n++] = &t->adc[which].unpack[0];
    if (TT_GET_SETADC_U1(w))
        out[n++] = &t->adc[which].unpack[1];
    if (TT_GET_SETADC_PK(w))
        out[n++] = &t->adc[which].pack;
    return n;
}

/* SETADCXY/ZW, INCADCXY/ZW, ADDRCRXY/ZW share one layout: four 3-bit values [17:15] [14:12]
 * [11:9] [8:6] for channel 1 second/first counter and channel 0 second/first counter, and for
 * SET and ADDRCR a 4-bit mask [3:0] saying which apply. The table names SETADCXY's fields; the
 * assertions check that the other five forms have theirs at the same bits. */
#define SAME_SLOT(xy, zw)                                                                         \
    (TT_SAME_BITS(SETADCXY_##xy##Val, SETADCZW_##zw##Val) &&                                      \
     TT_SAME_BITS(SETADCXY_##xy##Val, INCADCXY_##xy##Inc) &&                                      \
     TT_SAME_BITS(SETADCXY_##xy##Val, INCADCZW_##zw##Inc) &&                                      \
     TT_SAME_BITS(SETADCXY_##xy##Val, ADDRCRXY_##xy##Inc) &&                                      \
     TT_SAME_BITS(SETADCXY_##xy##Val, ADDRCRZW_##zw##Inc) &&                                      \
     TT_SAME_BITS(SETADCXY_##xy, SETADCZW_##zw) && TT_SAME_BITS(SETADCXY_##xy, ADDRCRXY_##xy) &&  \
     TT_SAME_BITS(SETADCXY_##xy, ADDRCRZW_##zw))
_Static_assert(SAME_SLOT(X0, Z0) && SAME_SLOT(Y0, W0) && SAME_SLOT(X1, Z1) && SAME_SLOT(Y1, W1),
               "the six ADC counter instructions share SETADCXY's layout");

/* One counter of the four: kind 0 sets it (if selected), 1 increments it, 2 adds to its
 * checkpoint (if selected). Inline with constant fields, so that each slot's bits are plain
 * shifts and masks. */
static inline __attribute__((always_inline)) void one_counter(struct adc *a, unsigned ch,
                                                              enum adc_counter c, uint32_t v,
                                                              bool selected, unsigned kind)
{
    if (kind == 1)
        adc_inc(a, ch, c, v);
    else if (selected)
        kind == 0 ? adc_set(a, ch, c, v) : adc_cr_add(a, ch, c, v);
}

static inline __attribute__((always_inline)) void four_of_kind(struct adc *a, uint32_t w,
                                                               enum adc_counter lo, unsigned kind)
{
    one_counter(a, 0, lo, TT_GET_SETADCXY_X0Val(w), TT_GET_SETADCXY_X0(w), kind);
    one_counter(a, 0, lo + 1, TT_GET_SETADCXY_Y0Val(w), TT_GET_SETADCXY_Y0(w), kind);
    one_counter(a, 1, lo, TT_GET_SETADCXY_X1Val(w), TT_GET_SETADCXY_X1(w), kind);
    one_counter(a, 1, lo + 1, TT_GET_SETADCXY_Y1Val(w), TT_GET_SETADCXY_Y1(w), kind);
}

static void four_counters(struct adc *a, uint32_t w, enum adc_counter lo, unsigned kind)
{
    switch (kind) {
    case 0: four_of_kind(a, w, lo, 0); break;
    case 1: four_of_kind(a, w, lo, 1); break;
    default: four_of_kind(a, w, lo, 2); break;
    }
}

static void setdvalid(struct tile *t, unsigned th, unsigned which, uint32_t w)
{
    if (t->lint && t->src.bank[which][t->src.unpack_bank[which]].client == SRC_CLIENT_MATRIX)
        rule_broken(t, RULE_SRC_NOT_OWNED, rule_site_tensix(t, th, w),
                    "thread T%u: SETDVALID hands over Src%c bank %u, which the matrix unit "
                    "already owns (no CLEARDVALID or matrix instruction released it)",
                    th, which ? 'B' : 'A', t->src.unpack_bank[which]);
    src_hand_over(&t->src, which, SRC_FMT_UNKNOWN); /* BH: ImpliedSrc*Fmt unpredictable */
    t->src.src_row[which][th] = src_row_base(&t->cfg, tile_arch_bit(t), th, which);
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct adc *a[3];
    unsigned n;
    switch (f->opcode) {
    case TT_OPC_NOP:
        return true;
    case TT_OPC_SETADC: {
        uint32_t v = TT_GET_SETADC_NewValue(w);
        n = targets(t, th, w, v >> 16, a);
        for (unsigned i = 0; i < n; i++)
            adc_set(a[i], TT_GET_SETADC_Channel(w), (enum adc_counter)TT_GET_SETADC_XYZW(w), v);
        return true;
    }
    case TT_OPC_SETADCXY: case TT_OPC_INCADCXY: case TT_OPC_ADDRCRXY:
    case TT_OPC_SETADCZW: case TT_OPC_INCADCZW: case TT_OPC_ADDRCRZW: {
        bool zw = f->opcode >= TT_OPC_SETADCZW;
        /* 0 set, 1 inc, 2 cr */
        unsigned kind = (f->opcode - (zw ? TT_OPC_SETADCZW : TT_OPC_SETADCXY));
        /* ThreadOverride: [19:18] in all six forms */
        n = targets(t, th, w, TT_GET_SETADCXY_ThreadOverride(w), a);
        for (unsigned i = 0; i < n; i++)
            four_counters(a[i], w, zw ? ADC_Z : ADC_X, kind);
        return true;
    }
    case TT_OPC_SETADCXX: /* always the issuing thread */
        n = targets(t, th, w, 0, a);
        for (unsigned i = 0; i < n; i++) {
            adc_set(a[i], 0, ADC_X, TT_GET_SETADCXX_X0Val(w));
            adc_set(a[i], 1, ADC_X, TT_GET_SETADCXX_X1Val(w));
        }
        return true;
    case TT_OPC_SETDVALID:
        if (TT_GET_SETDVALID_FlipSrcA(w))
            setdvalid(t, th, 0, w);
        if (TT_GET_SETDVALID_FlipSrcB(w))
            setdvalid(t, th, 1, w);
        return true;
    default:
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "%s (misc), thread T%u", f->mnemonic, th);
    }
}

const struct unit_desc misc_unit_desc = {
    .name = "misc", .can_accept = can_accept, .resource = resource, .accept = accept,
};
