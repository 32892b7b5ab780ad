#include "tensix_isa.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* All fields of all forms sit in one flat table, in tensix.def order. TT_FPOS_<form> is the
 * index of the form's first field: each form adds an enumerator and then steps the counter
 * back, so its first field gets the same value. */
enum tt_field_pos {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match)                                 \
    TT_FPOS_##form, TT_FPOS_BACK_##form = TT_FPOS_##form - 1,
#define TT_FIELD(form, field, hi, lo) TT_FPOS_##form##_##field,
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
    TT_FIELD_TOTAL
};

/* TT_NF_<form>: number of fields of the form (0 + 1 per TT_FIELD line). */
enum tt_field_count {
    TT_NF_NONE_ = 0
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match) , TT_NF_##form = 0
#define TT_FIELD(form, field, hi, lo) +1
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
};

static const struct tt_field fields[TT_FIELD_TOTAL] = {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match)
#define TT_FIELD(form, field, hi, lo) {#field, hi, lo},
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
};

const struct tt_form tt_forms[TT_FORM_COUNT] = {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match)                                 \
    {#form, mnemonic, opcode, unit, archs, TT_NF_##form, mask, match, &fields[TT_FPOS_##form]},
#define TT_FIELD(form, field, hi, lo)
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
};

/* Opcode -> 1 + the last form with that opcode (0: none). Forms sharing an opcode are adjacent
 * in tensix.def, so the decoder walks back from here. Several forms write the same element;
 * C11 6.7.9p19 keeps the last one, which is the one wanted. */
_Static_assert(TT_FORM_COUNT < 255, "last_form holds form ids in a byte");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const uint8_t last_form[256] = {
#define TT_INSN(form, mnemonic, opcode, unit, archs, mask, match) [opcode] = TT_FORM_##form + 1,
#define TT_FIELD(form, field, hi, lo)
#include "tensix.def"
#undef TT_INSN
#undef TT_FIELD
};
#pragma GCC diagnostic pop

const struct tt_form *tt_decode(unsigned arch_bit, uint32_t word)
{
    unsigned op = word >> 24;
    for (unsigned i = last_form[op]; i > 0 && tt_forms[i - 1].opcode == op; i--) {
        const struct tt_form *f = &tt_forms[i - 1];
        if ((f->archs & arch_bit) && (word & f->mask) == f->match)
            return f;
    }
    return NULL;
}

/* Masks read best in hex; small values in decimal. */
static bool show_hex(const char *name, uint32_t v)
{
    return v >= 10 || strstr(name, "Mask") || strstr(name, "mask");
}

/* Appends " name=value" to buf like snprintf, keeping the running length past the end. */
static size_t append_field(char *buf, size_t n, size_t len, const char *name, uint32_t v)
{
    char *at = len < n ? buf + len : NULL;
    size_t room = len < n ? n - len : 0;
    int r = show_hex(name, v) ? snprintf(at, room, " %s=0x%" PRIX32, name, v)
                              : snprintf(at, room, " %s=%" PRIu32, name, v);
    return len + (r > 0 ? (size_t)r : 0);
}

int tt_disasm(unsigned arch_bit, uint32_t word, char *buf, size_t n)
{
    const struct tt_form *f = tt_decode(arch_bit, word);
    if (!f)
        return snprintf(buf, n, ".tt 0x%08" PRIX32 " (undefined)", word);
    int r = snprintf(buf, n, "%s", f->mnemonic);
    size_t len = r > 0 ? (size_t)r : 0;
    for (unsigned i = 0; i < f->nfields; i++)
        len = append_field(buf, n, len, f->field[i].name, tt_field_get(f, i, word));
    return (int)len;
}

const char *tt_unit_name(enum tt_unit u)
{
    static const char *const names[TT_UNIT_COUNT] = {
        "mop", "replay", "autottsync", "sync", "cfg", "thcon", "misc",
        "fpu", "sfpu", "unpack", "pack", "xmov", "none",
    };
    return (unsigned)u < TT_UNIT_COUNT ? names[u] : "?";
}

bool tt_forms_overlap(const struct tt_form *a, const struct tt_form *b, unsigned arch_bit)
{
    return (a->archs & b->archs & arch_bit) && a->opcode == b->opcode &&
           ((a->match ^ b->match) & a->mask & b->mask) == 0;
}
