/* The Tensix instruction set, expanded from units/tensix.def: the form table, a decoder, field
 * extraction and a disassembler, for Blackhole and Wormhole B0. Everything here is const. */
#ifndef TENSIM_UNITS_TENSIX_ISA_H
#define TENSIM_UNITS_TENSIX_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which part of the tile executes an instruction (spec/instructions.md, one table per unit). */
enum tt_unit {
    TT_UNIT_MOP,        /* frontend MOP expander */
    TT_UNIT_REPLAY,     /* frontend replay expander */
    TT_UNIT_AUTOTTSYNC, /* frontend Auto TTSync (Blackhole) */
    TT_UNIT_SYNC,
    TT_UNIT_CFG,
    TT_UNIT_THCON,
    TT_UNIT_MISC,
    TT_UNIT_FPU,
    TT_UNIT_SFPU,
    TT_UNIT_UNPACK,
    TT_UNIT_PACK,
    TT_UNIT_XMOV,
    TT_UNIT_NONE, /* opcode with no ISA page: unit not documented */
    TT_UNIT_COUNT
};

enum tt_arch_bit { TT_ARCH_BH = 1, TT_ARCH_WH = 2 };

enum tt_form_id {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match) TT_FORM_##form,
#define TT_FIELD(form, field, hi, lo)
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
    TT_FORM_COUNT
};

struct tt_field {
    const char *name;
    uint8_t hi, lo; /* bit range [hi:lo] inside [23:0] */
};

struct tt_form {
    const char *name;     /* form identifier, e.g. "STALLWAIT_BH" */
    const char *mnemonic; /* e.g. "STALLWAIT" */
    uint8_t opcode;       /* bits [31:24] */
    uint8_t unit;         /* enum tt_unit */
    uint8_t archs;        /* enum tt_arch_bit, or-ed */
    uint8_t nfields;
    uint32_t mask, match; /* the word is this form when (word & mask) == match (bits [23:0]) */
    const struct tt_field *field; /* nfields entries, most significant first */
};

/* Indexed by enum tt_form_id, in tensix.def order. */
extern const struct tt_form tt_forms[TT_FORM_COUNT];

/* The form of `word` on one architecture (TT_ARCH_BH or TT_ARCH_WH), NULL if undefined there. */
const struct tt_form *tt_decode(unsigned arch_bit, uint32_t word);

/* Bits hi..lo of an instruction word (hi >= lo), as the ISA pages number them. */
static inline uint32_t tt_bits(uint32_t w, unsigned hi, unsigned lo)
{
    return (w >> lo) & (0xFFFFFFFFu >> (31 - (hi - lo)));
}

/* ---- Fields and opcodes by name ----
 * The simulator reads instruction words only through these, so every bit position comes from
 * tensix.def (test/test_fields.c rejects hand-written positions and opcodes elsewhere).
 *
 * TT_OPC_<form>: the opcode, bits [31:24]. The _BH and _WH forms of one instruction share their
 * opcode, so either constant matches the words of both architectures; code that means both
 * names the _BH one. */
enum tt_opcode {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match) TT_OPC_##form = opcode,
#define TT_FIELD(form, field, hi, lo)
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
};

/* The opcode of an instruction word (every page's layout: Opcode [31:24]). */
static inline unsigned tt_opcode(uint32_t w)
{
    return w >> 24;
}

/* TT_HI_<form>_<Field>, TT_LO_<form>_<Field>: the field's bit range, for the few places that
 * need it as a number (a width, a table of fields). */
enum tt_field_bit {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match)
#define TT_FIELD(form, field, hi, lo) TT_HI_##form##_##field = hi, TT_LO_##form##_##field = lo,
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
};

/* Whether two fields, named <form>_<Field>, lie at the same bits: for a _Static_assert where
 * code reads one form's field out of the words of several forms. */
#define TT_SAME_BITS(a, b) (TT_HI_##a == TT_HI_##b && TT_LO_##a == TT_LO_##b)

/* TT_GET_<form>_<Field>(w): the field's value in instruction word w, e.g.
 * TT_GET_SETDVALID_FlipSrcA(w) is bit [0]. Constant positions: each compiles to one shift and
 * mask, exactly as a hand-written extraction would. */
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match)
#define TT_FIELD(form, field, hi, lo)                                                             \
    static inline uint32_t TT_GET_##form##_##field(uint32_t w) { return tt_bits(w, hi, lo); }
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD

/* TT_SET_<form>_<Field>(w, v): word w with the field replaced by the low bits of v (the vector
 * unit rewrites operand fields of SFPLOADMACRO's instruction templates, SFPLOADMACRO.md). */
static inline uint32_t tt_set_bits(uint32_t w, unsigned hi, unsigned lo, uint32_t v)
{
    const uint32_t m = (0xFFFFFFFFu >> (31 - (hi - lo))) << lo;
    return (w & ~m) | ((v << lo) & m);
}
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match)
#define TT_FIELD(form, field, hi, lo)                                                             \
    static inline uint32_t TT_SET_##form##_##field(uint32_t w, uint32_t v)                         \
    {                                                                                             \
        return tt_set_bits(w, hi, lo, v);                                                         \
    }
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD

/* Value of field i of form f in word (unsigned; sign-extend where the ISA says signed). */
static inline uint32_t tt_field_get(const struct tt_form *f, unsigned i, uint32_t word)
{
    return tt_bits(word, f->field[i].hi, f->field[i].lo);
}

/* One line of disassembly, e.g. "SEMINIT NewMax=1 NewValue=0 SemaphoreMask=0x4", or
 * ".tt 0xDEADBEEF (undefined)". Returns what snprintf would: the full length. */
int tt_disasm(unsigned arch_bit, uint32_t word, char *buf, size_t n);

const char *tt_unit_name(enum tt_unit u);

/* True when some word valid on arch_bit would match both forms (a == b counts). */
bool tt_forms_overlap(const struct tt_form *a, const struct tt_form *b, unsigned arch_bit);

#endif
