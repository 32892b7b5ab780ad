/* What the SFPLOADMACRO examples (scale2, arecip, recip5, recip3, where) share: building a
 * Sequence byte, writing a Sequence and Misc through SFPCONFIG, and the SFPLOADMACRO word.
 *
 * SFPLOADMACRO (BH:SFPLOADMACRO.md) is an SFPLOAD that also schedules up to one instruction on
 * each of the simple, MAD, round and store sub-units, so one issue slot can keep up to five
 * sub-units busy. What it schedules is LoadMacroConfig: Sequence[MacroIndex] has one byte per
 * sub-unit (simple, MAD, round, store from the low byte up): bits 2:0 pick nothing (0), SFPNOP
 * (2), SFPSTORE (3) or InstructionTemplate[0..3] (4..7); bits 5:3 are the delay (0 runs the cycle
 * after the SFPLOADMACRO, d the cycle after its counter reaches 0: issue + 1 + d); bit 6 sends the
 * result to LReg[16] (or stores LReg[16]); bit 7 makes the loaded register the template's VB
 * (else its VC). The result goes to the loaded register unless bit 6 is set.
 *
 * Templates are written through the "backdoor": an instruction with VD = 12 + i does not run but
 * becomes InstructionTemplate[i] (BH:SFPCONFIG.md, LaneConfig DISABLE_BACKDOOR_LOAD clear after
 * reset). Sequences come from LReg[0] (SFPCONFIG VD 4..7), Misc from an immediate (VD 8). */
#ifndef SFPU_MACRO_H
#define SFPU_MACRO_H

#include "sfpu_kernel.h"

/* Sequence byte selectors, and the two flag bits */
#define SQ_NOP 2
#define SQ_STORE 3
#define SQ_T(i) (4 + (i))
#define SQ_VD16 0x40 /* result to LReg[16]; for the store: store LReg[16] */
#define SQ_VB 0x80   /* the loaded register is VB (else VC) */
#define SQ(sel, delay, flags) ((uint32_t)((sel) | (delay) << 3 | (flags)))
#define SEQUENCE(simple, mad, round, store)                                                        \
    ((uint32_t)(simple) | (uint32_t)(mad) << 8 | (uint32_t)(round) << 16 | (uint32_t)(store) << 24)

/* Misc: StoreMod0 [3:0], UsesLoadMod0ForStore [7:4] (one bit per macro), UnitDelayKind [11:8]
 * (one bit per sub-unit; all 0 here: delays count cycles) */
#define MISC(store_mod0, load_mod0_bits) ((store_mod0) | (load_mod0_bits) << 4)

/* Sequence[i] := bits, through LReg[0] (clobbered) */
#define SET_SEQUENCE(i, bits)                                                                      \
    do {                                                                                           \
        LOADI32(0, bits);                                                                          \
        TTI_INSN(TT_OP_SFPCONFIG(0, 4 + (i), 0));                                                  \
    } while (0)
/* Misc := value (MOD1_IMM16_IS_VALUE) */
#define SET_MISC(value) TTI_INSN(TT_OP_SFPCONFIG(value, 8, 1))

/* SFPLOADMACRO of macro `m` into LReg `vd` (0..3) from Dst Imm10 `imm` (even) + RWC, FP32,
 * then ADDR_MOD slot `am`. The word splits VD over VDLo and VDHi, VDHi doubling as Imm10 bit 0
 * (BH:SFPLOADMACRO.md), so VD < 4 keeps the address even. */
#define LOADMACRO(m, vd, am, imm)                                                                  \
    TTI_INSN(TT_OP_SFPLOADMACRO_BH(m, (vd) & 3, SK_FP32, am, (imm) >> 1, (vd) >> 2))

/* The whole pass when one SFPLOADMACRO of macro 0 does everything for 32 datums: LReg[0..3] in
 * turn, 32 of them recorded into the replay buffer while the first tile goes through, then
 * replayed once per further tile. One per cycle. */
static inline void sk_macro_pass(unsigned tiles)
{
    REPLAY_RECORD(32);
    for (unsigned v = 0; v < 8; v++) {
        LOADMACRO(0, 0, SK_AM_NEXT, 0);
        LOADMACRO(0, 1, SK_AM_NEXT, 0);
        LOADMACRO(0, 2, SK_AM_NEXT, 0);
        LOADMACRO(0, 3, SK_AM_NEXT, 0);
    }
    for (unsigned t = 1; t < tiles; t++)
        REPLAY_PLAY(32);
}

#endif
