/* SrcA and SrcB (WH:SrcASrcB.md; seed 000 §2-§3): two banks each of 64 rows x 16 columns of
 * 19-bit cells, the client allowed to use each bank, and the bank pointers of the unpackers and
 * the matrix unit. Cells hold raw bits in the register layouts of units/formats.h. */
#ifndef TENSIM_UNITS_SRCAB_H
#define TENSIM_UNITS_SRCAB_H

#include <stdint.h>

#define SRC_ROWS 64
#define SRC_COLS 16
#define SRC_CELL_MASK 0x7FFFFu

enum src_client { SRC_CLIENT_UNPACKERS, SRC_CLIENT_MATRIX };

struct src_bank {
    uint32_t cell[SRC_ROWS][SRC_COLS];
    uint8_t client; /* AllowedClient (enum src_client) */
    uint32_t gen;   /* bumped by every writer of cells (src_bank_written): readers may keep
                     * what they derived from the cells while it is unchanged */
};

/* Cells of bank b changed (every writer calls this once per instruction or per cell). */
static inline void src_bank_written(struct src_bank *b) { b->gen++; }

/* Unpacker 0 writes SrcA, unpacker 1 SrcB; index [0] is SrcA, [1] SrcB throughout. At reset
 * both banks belong to the unpackers and every pointer is 0 (spec/memory-map.md §6.2). */
struct src_regs {
    struct src_bank bank[2][2];  /* [SrcA/SrcB][bank] */
    uint8_t unpack_bank[2];      /* Unpackers[u].SrcBank */
    uint8_t fpu_bank[2];         /* MatrixUnit.SrcABank / SrcBBank */
    uint8_t src_row[2][3];       /* Unpackers[u].SrcRow[thread] (6 bits) */
    uint8_t implied_fmt[2][2];   /* BH ImpliedSrcAFmt / ImpliedSrcBFmt per bank (0 at reset) */
};
#define SRC_FMT_UNKNOWN 0xFFu /* BH SETDVALID: UnpredictableValue() */

struct tt_config;
/* SrcRow[th] of Src `which` after a bank hand-over: ThreadConfig SRCA_SET_Base / SRCB_SET_Base
 * << 4 (WH:SrcASrcB.md; arch_bit TT_ARCH_BH or TT_ARCH_WH). */
uint8_t src_row_base(const struct tt_config *cfg, unsigned arch_bit, unsigned th, unsigned which);

/* The unpackers' current bank of Src `which` goes to the matrix unit and they move to the
 * other bank (SETDVALID, UNPACR_NOP SETDVALID, UNPACR FlipSrc). */
static inline void src_hand_over(struct src_regs *s, unsigned which, unsigned fmt)
{
    s->implied_fmt[which][s->unpack_bank[which]] = (uint8_t)fmt;
    s->bank[which][s->unpack_bank[which]].client = SRC_CLIENT_MATRIX;
    s->unpack_bank[which] ^= 1;
}

#endif
