/* Shared between the matrix unit's files (fpu.c, fpu_math.c, fpu_move.c, fpu_numerics.c); not
 * for other units. */
#ifndef TENSIM_UNITS_FPU_INTERNAL_H
#define TENSIM_UNITS_FPU_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/tile.h"
#include "fpu.h"

/* Every matrix-unit instruction, by what it does. */
enum fpu_kind {
    FK_MVMUL, FK_DOTPV, FK_GAPOOL, FK_GMPOOL, FK_ELWMUL, FK_ELWADD, FK_ELWSUB,
    FK_MOVD2A, FK_MOVD2B, FK_MOVA2D, FK_MOVDBGA2D, FK_MOVB2D, FK_MOVB2A,
    FK_ZEROACC, FK_ZEROSRC, FK_TRNSPSRCB, FK_SHIFTXA, FK_SHIFTXB,
    FK_SETRWC, FK_INCRWC, FK_CLEARDVALID, FK_CLREXPHIST, FK_GATESRCRST,
    FK_LEGACY,      /* MFCONV3S1, CONV3S1, CONV3S2, APOOL3S1, APOOL3S2, MPOOL3S1, MPOOL3S2 */
};

/* How SrcA (and SrcB) data is interpreted (the functional models' SrcAStyle). */
enum fpu_style { FPU_STYLE_BF16, FPU_STYLE_FP16, FPU_STYLE_TF32, FPU_STYLE_INT8 };

/* An instruction word decoded for either architecture: the fields every kind uses, at their
 * Blackhole or Wormhole positions (units/tensix.def). */
struct fpu_insn {
    uint32_t word;
    enum fpu_kind kind;
    unsigned addr_mod;         /* BH: 3 bits naming ADDR_MOD 0..7; WH: 2 bits */
    unsigned dst_row;          /* DstRow / Imm10 */
    unsigned src_row, srcb_row; /* SrcRow (or SrcARow), SrcBRow */
    bool flip_a, flip_b, bcast_row, bcast_col0, add_dst, use_dst32_lo, argmax;
    unsigned rows;             /* moves: 1, 4 or 8 */
    /* ZEROACC */
    unsigned za_mode;          /* ZEROACC_MODE_* */
    bool za_dst32, za_revert;  /* Blackhole: za_revert is clear_zero_flags */
    /* SHIFTXA / SHIFTXB */
    unsigned direction;
    bool shift_in_zero;
};

/* struct fpu_cfg: units/fpu.h (the matrix unit keeps the last one per thread) */

/* One instruction being executed (accept) or looked at (can_accept). */
struct fpu_exec {
    struct tile *t;
    unsigned th;
    struct fpu_insn in;
    struct fpu_cfg cfg;
    uint64_t written[2];        /* physical DstBits blocks written (bit per 8-row block) */
};

/* Which Dst rows an instruction reads (for the hazard check): rows row0 .. row0 + n - 1 of the
 * Dst16b view, or of the Dst32b view when dst32. n == 0: no Dst read. */
struct fpu_dst_span {
    unsigned row0, n;
    bool dst32;
};

/* ---- fpu.c: shared helpers ---- */

/* Dst row of an instruction before its alignment mask: the field plus the MATH offset, the Dst
 * RWC and DEST_REGW_BASE (every Dst-addressing page). */
unsigned fpu_dst_base(const struct fpu_exec *x, unsigned field);
/* SrcAStyle and UseDst32b of the computing instructions (MVMUL.md and siblings). */
void fpu_math_style(const struct fpu_exec *x, enum fpu_style *style, bool *dst32);
/* SrcAStyle for the moves (MOVD2A.md): TF32/BF16/FP16 from SrcAFmt, FP16 when forced. */
enum fpu_style fpu_fmt_style(unsigned srca_fmt);
/* FidelityPhase: (RWC + FIDELITY_BASE_Phase) & 3. */
unsigned fpu_phase(const struct fpu_exec *x);
/* FlipSrcA/FlipSrcB of MVMUL, ELW*, GMPOOL, GAPOOL, DOTPV, SETRWC. */
void fpu_flip(struct fpu_exec *x, bool flip_a, bool flip_b);
/* ApplyAddrMod of WH:RWCs.md (update_fidelity false: ApplyPartialAddrMod). */
void fpu_apply_addr_mod(struct fpu_exec *x, unsigned addr_mod);
bool fpu_undef(struct fpu_exec *x, const char *what);

/* Dst access in the Dst16b or Dst32b view, with the valid bits: a read of an undefined row
 * gives `identity`; a write makes the row defined (WH:ZEROACC.md). */
uint32_t fpu_dst_get(const struct fpu_exec *x, bool dst32, unsigned row, unsigned col,
                     uint32_t identity);
void fpu_dst_put(struct fpu_exec *x, bool dst32, unsigned row, unsigned col, uint32_t v);
/* Row-at-a-time access for the matmul fast path: the physical DstBits row of `row` (Dst32b:
 * its low halves at p + 8), and marking a physical row written (defined, its blocks busy). */
unsigned fpu_dst_phys(const struct fpu_exec *x, bool dst32, unsigned row);
/* (inline: MVMUL marks eight rows an instruction) */
static inline void fpu_mark_written(struct fpu_exec *x, unsigned phys)
{
    x->written[phys / 8 / 64] |= 1ull << (phys / 8 % 64);
}
static inline void fpu_dst_row_written(struct fpu_exec *x, bool dst32, unsigned p)
{
    struct dest *d = &x->t->dest;
    d->row_valid[p] = true;
    fpu_mark_written(x, p);
    if (dst32) {
        d->row_valid[p + 8] = true;
        fpu_mark_written(x, p + 8);
    }
}
/* Mark one row undefined (ZEROACC). */
/* Mark Dst row `row` (a Dst32b row when dst32) undefined (valid false) or defined. */
void fpu_dst_mark(struct fpu_exec *x, bool dst32, unsigned row, bool valid);

/* ---- fpu_math.c ---- */

void fpu_math_span(const struct fpu_exec *x, struct fpu_dst_span *s);
bool fpu_exec_math(struct fpu_exec *x);
/* An MVMUL's plan (fpu.h) from its decoded word and configuration (x->in, x->cfg): the fields
 * that follow from them but its key, DstRow field and ADDR_MOD slot; and the MVMUL word w done
 * from a plan whose `fast` is set, with x->cfg the configuration it was made from: what
 * fpu_exec_math does for it, without working those out again, but the ADDR_MOD, which the
 * caller applies after it. */
void fpu_mvmul_plan(const struct fpu_exec *x, struct fpu_plan *p);
bool fpu_exec_mvmul(struct fpu_exec *x, const struct fpu_plan *p, uint32_t w);

/* ---- fpu_move.c ---- */

void fpu_move_span(const struct fpu_exec *x, struct fpu_dst_span *s);
bool fpu_exec_move(struct fpu_exec *x);

#endif
