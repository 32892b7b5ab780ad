/* The differential test's vector-unit (SFPU) cases: a table of instruction words with their
 * modes, one row per (instruction, mode), each row made into one program of Tensix words that
 * the kernel pushes (test/diff/kernel.c run_sfpu) after Dst has been filled with seeded data;
 * the packer then writes Dst to L1 as for every case. docs/sfpu.md "Checking against ttsim".
 *
 * The program, per iteration (8 of them when the row stores one register):
 *   SFPLOAD   LReg[1..7] from seven of the 16 input blocks (Dst rows 0..31, 4 rows x the even
 *             or odd columns each), in the row's load Mod0
 *   SFPLOADI  LReg[0] := a marker (upper, then lower half)
 *   SFPENCC   predication on, every LaneFlag true
 *   SFPSETCC  on odd iterations: LaneFlags from LReg[2] (< 0, != 0, >= 0, == 0 in turn)
 *   the row's words (the instructions under test; LReg[3] is their usual result)
 *   SFPSTORE  LReg[0] to an output block under the flags: which lanes are on is the picture
 *   SFPENCC   predication off
 *   SFPSTORE  the row's result registers (LReg[3]) to the next output blocks (Dst rows 32..63)
 * So each instruction runs on all lanes and under a mask, its flags (if it sets any) show in the
 * picture, and lanes it must leave alone keep the loaded values. */
#include <string.h>

#include "cases.h"
#include "tensix_ops.h"

/* SFPLOAD/SFPSTORE Mod0 (WH/BH:SFPLOAD.md "Supporting definitions") */
enum { M_SRCB = 0, M_FP16 = 1, M_BF16 = 2, M_FP32 = 3, M_INT32 = 4, M_UINT16 = 6, M_HI16 = 7,
       M_LO16 = 9, M_INT32_SM = 12, M_LO16_ONLY = 14, M_HI16_ONLY = 15 };
/* SFPSETCC Mod1 */
enum { LT0 = 0, NE0 = 2, GTE0 = 4, EQ0 = 6 };

/* Row flags */
#define SF_NOCC 1u   /* never under SFPSETCC: the words need every lane on (ttsim's SFPCONFIG) */
#define SF_FP32 2u   /* ALU_ACC_CTRL_SFPU_Fp32_enabled (MOD0_FMT_SRCB is then FP32) */
#define SF_SEED 4u   /* PRNG_SEED_Seed_Val written with a value of the run's seed */

#define MAXW 12
struct row {
    const char *name;
    uint8_t archs;       /* DT_ARCH_BH, DT_ARCH_WH; 0: both */
    uint8_t dst;         /* DT_FP32 (unpacked into Dst), DT_BF16 or DT_FP16 (through MOVA2D) */
    uint8_t srcb;        /* ALU_FORMAT_SPEC_REG1_SrcB: what MOD0_FMT_SRCB resolves by */
    uint8_t load, store; /* Mod0 of every SFPLOAD and SFPSTORE of the program */
    uint8_t flags;       /* SF_* */
    uint16_t outs;       /* the LRegs stored after the words, one output block each (0: LReg[3]) */
    uint32_t w[MAXW];    /* the words under test, ended by 0 (no Tensix word is 0 here) */
};

/* SFPDIVP2's Imm8 >= 0x80 with bits 23:20 set too: the page's field is bits 19:12, but ttsim
 * reads 23:12 and refuses anything but the sign extension of the 8 bits; tensim reads 19:12. */
#define DIVP2_NEG(imm8, vc, vd, mod1) (TT_OP_SFPDIVP2(imm8, vc, vd, mod1) | 0x00F00000u)
/* One program serves both architectures: the encodings that differ between them have the same
 * bits for these operands (checked below): SFPAND/SFPOR without VB and Mod1, SFPPUSHC with Mod1
 * 0, SFPSTOCHRND rounding to nearest, SFPLUTFP32 without Mod1Mirror, SFPLOAD/SFPSTORE with
 * AddrMod 0. A row with other forms is one architecture's (ldst/addrmod). */
#define AND(vc, vd) TT_OP_SFPAND_BH(0, vc, vd, 0)
#define OR(vc, vd) TT_OP_SFPOR_BH(0, vc, vd, 0)
#define PUSHC TT_OP_SFPPUSHC_WH(0)
#define POPC TT_OP_SFPPOPC(0, 0)
#define SETCC(vc, mod1) TT_OP_SFPSETCC(0, vc, 0, mod1)
#define MOV(vc, vd, mod1) TT_OP_SFPMOV(vc, vd, mod1)
#define LR(r) (1u << (r))
/* SFPSTOCHRND round to nearest from LReg[vc] (RoundingMode / StochasticRounding 0) */
#define STOCHRND(vc, vd, mod1) TT_OP_SFPSTOCHRND_BH(0, 0, 0, vc, vd, 0, mod1)
/* SFPCONFIG's immediate into LaneConfig (VD 15, IMM16_IS_VALUE) */
#define LANECONFIG(v) TT_OP_SFPCONFIG(v, 15, 1)

_Static_assert(TT_OP_SFPLOAD_WH(7, 15, 0, 0x3FF) == TT_OP_SFPLOAD_BH(7, 15, 0, 0x3FF) &&
               TT_OP_SFPSTORE_WH(7, 15, 0, 0x3FF) == TT_OP_SFPSTORE_BH(7, 15, 0, 0x3FF) &&
               AND(1, 3) == TT_OP_SFPAND_WH(1, 3) && OR(1, 3) == TT_OP_SFPOR_WH(1, 3) &&
               PUSHC == TT_OP_SFPPUSHC_BH(0, 0) &&
               STOCHRND(1, 3, 7) == TT_OP_SFPSTOCHRND_WH(0, 0, 0, 1, 3, 0, 7) &&
               TT_OP_SFPLUTFP32_WH(7, 2) == TT_OP_SFPLUTFP32_BH(0, 7, 2),
               "encodings the program shares between the architectures");

/* A field left 0 means an FP32 Dst, SrcB FP32, both architectures, MOD0_FMT_SRCB loads and
 * stores; so every row names its modes, and most load and store INT32 (the bits as they are,
 * whatever the words make of them). */
#define I32 .load = M_INT32, .store = M_INT32
#define BH .archs = DT_ARCH_BH

static const struct row rows[] = {
    /* ---- condition codes (SFPSETCC VD must be 0 for ttsim) ---- */
    {"setcc/lt0", I32, .w = {SETCC(1, LT0)}},
    {"setcc/ne0", I32, .w = {SETCC(1, NE0)}},
    {"setcc/gte0", I32, .w = {SETCC(1, GTE0)}},
    {"setcc/eq0", I32, .w = {SETCC(1, EQ0)}},
    {"setcc/eq0-l9", I32, .w = {SETCC(9, EQ0)}},
    {"setcc/lt0-l11", I32, .w = {SETCC(11, LT0)}},
    {"setcc/ne0-l15", I32, .w = {SETCC(15, NE0)}},
    {"encc/mod0", I32, .w = {TT_OP_SFPENCC(0, 0, 0)}},
    {"encc/off-false", I32, .w = {TT_OP_SFPENCC(0, 0, 10)}},
    {"encc/on-false", I32, .w = {TT_OP_SFPENCC(1, 0, 10)}},
    {"encc/off-true", I32, .w = {TT_OP_SFPENCC(2, 0, 10)}},
    {"encc/on-true", I32, .w = {TT_OP_SFPENCC(3, 0, 10)}},
    {"pushc-popc", I32, .w = {PUSHC, SETCC(1, GTE0), MOV(1, 3, 0), POPC}},
    {"compc/if-else", I32, .w = {PUSHC, SETCC(1, LT0), MOV(1, 3, 1), TT_OP_SFPCOMPC(0), MOV(4, 3, 0), POPC}},
    {"compc/empty-stack", I32, .w = {TT_OP_SFPCOMPC(0)}},
    {"compc/nested", I32, .outs = LR(3) | LR(5),
     .w = {PUSHC, SETCC(1, NE0), PUSHC, SETCC(4, LT0), MOV(4, 3, 0), TT_OP_SFPCOMPC(0), MOV(1, 3, 1),
           POPC, TT_OP_SFPCOMPC(0), MOV(6, 5, 0), POPC}},
    {"le/cc", BH, I32, .w = {TT_OP_SFPLE(1, 3, 1)}},
    {"le/vd", BH, I32, .w = {TT_OP_SFPLE(1, 3, 8)}},
    {"le/cc-l10", BH, I32, .w = {TT_OP_SFPLE(10, 3, 1)}},
    {"gt/cc", BH, I32, .w = {TT_OP_SFPGT(1, 3, 1)}},
    {"gt/vd", BH, I32, .w = {TT_OP_SFPGT(1, 3, 8)}},
    {"gt/vd-l9", BH, I32, .w = {TT_OP_SFPGT(9, 3, 8)}},

    /* ---- immediates and moves ---- */
    {"nop", I32, .w = {TT_OP_SFPNOP}},
    {"loadi/bf16", I32, .outs = LR(3) | LR(5) | LR(6),
     .w = {TT_OP_SFPLOADI(3, 0, 0xC2F7), TT_OP_SFPLOADI(5, 0, 0x7F81), TT_OP_SFPLOADI(6, 0, 0x8000)}},
    {"loadi/fp16", I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPLOADI(3, 1, 0x3C00), TT_OP_SFPLOADI(5, 1, 0x7C00), TT_OP_SFPLOADI(6, 1, 0x8001),
           TT_OP_SFPLOADI(7, 1, 0x0000)}},
    {"loadi/u16", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPLOADI(3, 2, 0xFFFF), TT_OP_SFPLOADI(5, 2, 0x8001)}},
    {"loadi/s16", I32, .outs = LR(3) | LR(5) | LR(6),
     .w = {TT_OP_SFPLOADI(3, 4, 0x8000), TT_OP_SFPLOADI(5, 4, 0x7FFF), TT_OP_SFPLOADI(6, 4, 0xFFFF)}},
    {"loadi/hi", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPLOADI(3, 8, 0xDEAD), TT_OP_SFPLOADI(5, 8, 0x0000)}},
    {"loadi/lo", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPLOADI(3, 10, 0xBEEF), TT_OP_SFPLOADI(5, 10, 0xFFFF)}},
    {"mov/copy", I32, .w = {MOV(1, 3, 0)}},
    {"mov/negate", I32, .w = {MOV(1, 3, 1)}},
    {"mov/all-lanes", I32, .w = {MOV(1, 3, 2)}},
    {"mov/prng", I32, .outs = LR(3) | LR(5), .w = {MOV(9, 3, 8), MOV(9, 5, 8)}},
    {"mov/prng-seeded", I32, .flags = SF_SEED, .outs = LR(3) | LR(5), .w = {MOV(9, 3, 8), MOV(9, 5, 8)}},
    {"mov/consts-8-10-11-15", I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {MOV(8, 3, 0), MOV(10, 5, 0), MOV(11, 6, 0), MOV(15, 7, 0)}},
    {"mov/consts-9-13-14", I32, .outs = LR(3) | LR(5) | LR(6),
     .w = {MOV(9, 3, 0), MOV(13, 5, 1), MOV(14, 6, 0)}},
    {"config/l12-from-l0", I32, .flags = SF_NOCC, .w = {TT_OP_SFPCONFIG(0, 12, 0), MOV(12, 3, 0)}},
    {"config/l11-imm", I32, .flags = SF_NOCC, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPCONFIG(0, 11, 0), MOV(11, 5, 0), TT_OP_SFPCONFIG(0, 11, 1), MOV(11, 3, 0)}},
    {"config/l13-l14-from-l0", I32, .flags = SF_NOCC, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPCONFIG(0, 13, 0), TT_OP_SFPCONFIG(0, 14, 0), MOV(13, 3, 0), MOV(14, 5, 1)}},

    /* ---- bitwise ---- */
    {"not", I32, .w = {TT_OP_SFPNOT(1, 3)}},
    {"and", I32, .w = {AND(1, 3)}},
    {"or", I32, .w = {OR(1, 3)}},
    {"xor", I32, .w = {TT_OP_SFPXOR(1, 3)}},
    {"and/l15", I32, .w = {AND(15, 3)}},
    {"or/l11", I32, .w = {OR(11, 3)}},
    {"xor/l8", I32, .w = {TT_OP_SFPXOR(8, 3)}},
    {"and/use-vb", BH, I32, .w = {TT_OP_SFPAND_BH(2, 1, 3, 1)}},
    {"or/use-vb", BH, I32, .w = {TT_OP_SFPOR_BH(2, 1, 3, 1)}},

    /* ---- integer arithmetic and shifts ---- */
    {"iadd/add-cc", I32, .w = {TT_OP_SFPIADD(0, 1, 3, 0)}},
    {"iadd/imm-cc", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPIADD(0x7FF, 1, 3, 1), TT_OP_SFPIADD(0x800, 4, 5, 1)}},
    {"iadd/sub-cc", I32, .w = {TT_OP_SFPIADD(0, 1, 3, 2)}},
    {"iadd/add", I32, .w = {TT_OP_SFPIADD(0, 1, 3, 4)}},
    {"iadd/imm", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPIADD(0xFFF, 1, 3, 5), TT_OP_SFPIADD(1, 4, 5, 5)}},
    {"iadd/sub", I32, .w = {TT_OP_SFPIADD(0, 1, 3, 6)}},
    {"iadd/add-gte0", I32, .w = {TT_OP_SFPIADD(0, 1, 3, 8)}},
    {"iadd/imm-gte0", I32, .w = {TT_OP_SFPIADD(0x123, 1, 3, 9)}},
    {"iadd/sub-gte0", I32, .w = {TT_OP_SFPIADD(0, 1, 3, 10)}},
    {"iadd/l15", I32, .w = {TT_OP_SFPIADD(0, 15, 3, 4)}},
    {"shft/vc", I32, .w = {TT_OP_SFPSHFT(0, 1, 3, 0)}},
    {"shft/vc-l15", I32, .w = {TT_OP_SFPSHFT(0, 15, 3, 0)}},
    {"shft/imm", I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPSHFT(5, 0, 3, 1), TT_OP_SFPSHFT(0xFF9, 0, 5, 1), TT_OP_SFPSHFT(0x1F, 0, 6, 1),
           TT_OP_SFPSHFT(0xFE0, 0, 7, 1)}},
    {"shft/vc-arith", BH, I32, .w = {TT_OP_SFPSHFT(0, 1, 3, 2)}},
    {"shft/imm-arith", BH, I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPSHFT(0xFFD, 0, 3, 3), TT_OP_SFPSHFT(0xFE1, 0, 5, 3)}},
    {"shft/imm-of-vc", BH, I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPSHFT(0xFFC, 1, 3, 5), TT_OP_SFPSHFT(7, 2, 5, 5)}},
    {"shft/imm-of-vc-arith", BH, I32, .w = {TT_OP_SFPSHFT(0xFF0, 1, 3, 7)}},

    /* ---- sign, exponent, mantissa ---- */
    {"setsgn/vd", I32, .w = {TT_OP_SFPSETSGN(0, 1, 3, 0)}},
    {"setsgn/imm", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPSETSGN(1, 1, 3, 1), TT_OP_SFPSETSGN(0, 1, 5, 1)}},
    {"abs/int", I32, .w = {TT_OP_SFPABS(1, 3, 0)}},
    {"abs/float", I32, .w = {TT_OP_SFPABS(1, 3, 1)}},
    {"setexp/vd-low8", I32, .w = {TT_OP_SFPSETEXP(0, 1, 3, 0)}},
    {"setexp/vd-exp", I32, .w = {TT_OP_SFPSETEXP(0, 1, 3, 2)}},
    {"setexp/imm", I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPSETEXP(0x7F, 1, 3, 1), TT_OP_SFPSETEXP(0, 1, 5, 1), TT_OP_SFPSETEXP(0xFF, 1, 6, 1),
           TT_OP_SFPSETEXP(1, 1, 7, 1)}},
    {"setman/vd", I32, .w = {TT_OP_SFPSETMAN(0, 1, 3, 0)}},
    {"setman/imm0", I32, .w = {TT_OP_SFPSETMAN(0, 1, 3, 1)}},
    {"exexp/debias", I32, .w = {TT_OP_SFPEXEXP(1, 3, 0)}},
    {"exexp/nodebias", I32, .w = {TT_OP_SFPEXEXP(1, 3, 1)}},
    {"exexp/cc", I32, .w = {TT_OP_SFPEXEXP(1, 3, 2)}},
    {"exexp/cc-comp", I32, .w = {TT_OP_SFPEXEXP(1, 3, 10)}},
    {"exman/hidden", I32, .w = {TT_OP_SFPEXMAN(1, 3, 0)}},
    {"exman/pad9", I32, .w = {TT_OP_SFPEXMAN(1, 3, 1)}},
    {"lz", I32, .w = {TT_OP_SFPLZ(1, 3, 0)}},
    {"lz/cc", I32, .w = {TT_OP_SFPLZ(1, 3, 2)}},
    {"lz/nosgn", I32, .w = {TT_OP_SFPLZ(1, 3, 4)}},
    {"divp2/set", I32, .outs = LR(3) | LR(5) | LR(6),
     .w = {TT_OP_SFPDIVP2(0x7F, 1, 3, 0), TT_OP_SFPDIVP2(0, 1, 5, 0), DIVP2_NEG(0xFF, 1, 6, 0)}},
    {"divp2/add", I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPDIVP2(1, 1, 3, 1), TT_OP_SFPDIVP2(0x7F, 1, 5, 1), DIVP2_NEG(0xFF, 1, 6, 1),
           DIVP2_NEG(0x81, 1, 7, 1)}},

    /* ---- the MAD sub-unit (LReg[1] x LReg[2] + LReg[4]; SFPADD's 1.0 and SFPMUL's 0 from the
     * constants 10 and 9, as ttsim requires) ---- */
    {"mad", I32, .w = {TT_OP_SFPMAD(1, 2, 4, 3, 0)}},
    {"mad/negate", BH, I32, .outs = LR(3) | LR(5) | LR(6),
     .w = {TT_OP_SFPMAD(1, 2, 4, 3, 1), TT_OP_SFPMAD(1, 2, 4, 5, 2), TT_OP_SFPMAD(1, 2, 4, 6, 3)}},
    {"mad/consts", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPMAD(8, 2, 11, 3, 0), TT_OP_SFPMAD(15, 1, 9, 5, 0)}},
    {"add", I32, .outs = LR(3) | LR(5), .w = {TT_OP_SFPADD(10, 2, 4, 3, 0), TT_OP_SFPADD(1, 10, 2, 5, 0)}},
    {"add/negate", BH, I32, .outs = LR(3) | LR(5) | LR(6),
     .w = {TT_OP_SFPADD(10, 2, 4, 3, 1), TT_OP_SFPADD(10, 2, 4, 5, 2), TT_OP_SFPADD(10, 2, 4, 6, 3)}},
    {"mul", I32, .w = {TT_OP_SFPMUL(1, 2, 9, 3, 0)}},
    {"mul/negate", BH, I32, .w = {TT_OP_SFPMUL(1, 2, 9, 3, 1)}},
    {"muli", I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPMULI(0xC040, 3, 0), TT_OP_SFPMULI(0x3F80, 5, 0), TT_OP_SFPMULI(0x7F80, 6, 0),
           TT_OP_SFPMULI(0x8000, 7, 0)}},
    {"addi", I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPADDI(0x3F80, 3, 0), TT_OP_SFPADDI(0xFF80, 5, 0), TT_OP_SFPADDI(0x8000, 6, 0),
           TT_OP_SFPADDI(0x4B00, 7, 0)}},
    {"mul24", BH, I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPMUL24(1, 2, 9, 3, 0), TT_OP_SFPMUL24(1, 2, 9, 5, 1)}},
    /* the LUTs read LReg[0..2] (and [4..6]) as coefficients and LReg[3] as x */
    {"lut", I32, .w = {TT_OP_SFPLUT(7, 4)}, .outs = LR(7)},
    {"lutfp32/fp16-3entry", I32, .w = {TT_OP_SFPLUTFP32_WH(7, 2)}, .outs = LR(7)},

    /* ---- rounding and conversions (SFPSTOCHRND round to nearest; Imm5, UseImm5 0) ---- */
    {"stochrnd/bf16", I32, .w = {STOCHRND(1, 3, 1)}},
    {"stochrnd/uint8", I32, .w = {STOCHRND(1, 3, 2)}},
    {"stochrnd/int8", I32, .w = {STOCHRND(1, 3, 3)}},
    {"stochrnd/uint16", I32, .w = {STOCHRND(1, 3, 6)}},
    {"stochrnd/int16", I32, .w = {STOCHRND(1, 3, 7)}},
    {"stochrnd/prng-steps", I32, .outs = LR(3) | LR(5), .w = {STOCHRND(1, 3, 7), MOV(9, 5, 8)}},
    {"cast/sm-fp32", I32, .w = {TT_OP_SFPCAST(1, 3, 0)}},
    {"cast/sm-2c", BH, I32, .w = {TT_OP_SFPCAST(1, 3, 3)}},
    {"arecip/recip", BH, I32, .w = {TT_OP_SFPARECIP(0, 1, 3, 0)}},

    /* ---- lane movement (LaneConfig through SFPCONFIG's immediate: every lane on) ---- */
    {"swap/swap", I32, .outs = LR(1) | LR(3), .w = {TT_OP_SFPSWAP(1, 3, 0)}},
    {"swap/min-max", I32, .outs = LR(1) | LR(3), .w = {TT_OP_SFPSWAP(1, 3, 1)}},
    {"swap/rows01-min", I32, .outs = LR(1) | LR(3), .w = {TT_OP_SFPSWAP(1, 3, 2)}},
    {"swap/rows02-min", I32, .outs = LR(1) | LR(3), .w = {TT_OP_SFPSWAP(1, 3, 3)}},
    {"swap/max-min", I32, .outs = LR(1) | LR(3), .w = {TT_OP_SFPSWAP(1, 3, 9)}},
    {"swap/max-with-l9", I32, .w = {TT_OP_SFPSWAP(9, 3, 9)}},
    {"swap/exchange", I32, .flags = SF_NOCC, .outs = LR(1) | LR(3),
     .w = {LANECONFIG(0x100), TT_OP_SFPSWAP(1, 3, 1), LANECONFIG(0)}},
    {"swap/argmin", I32, .flags = SF_NOCC, .outs = LR(1) | LR(3) | LR(5) | LR(7),
     .w = {LANECONFIG(0x4), TT_OP_SFPSWAP(1, 3, 1), LANECONFIG(0)}},
    {"swap/argmax-exchange", I32, .flags = SF_NOCC, .outs = LR(0) | LR(2) | LR(4) | LR(6),
     .w = {LANECONFIG(0x104), TT_OP_SFPSWAP(0, 2, 9), LANECONFIG(0)}},
    {"transp", I32, .outs = 0xFE, .w = {TT_OP_SFPTRANSP(0)}},
    {"shft2/ror1", I32, .w = {TT_OP_SFPSHFT2(0, 1, 3, 3)}},
    {"shft2/shr1", BH, I32, .w = {TT_OP_SFPSHFT2(0, 1, 3, 4)}},
    {"shft2/shft-lreg", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPSHFT2(2, 1, 3, 5), TT_OP_SFPSHFT2(15, 4, 5, 5)}},

    /* ---- SFPLOAD and SFPSTORE modes (no words: load, picture, store) ---- */
    {"ldst/fp32-int32", .load = M_FP32, .store = M_INT32},
    {"ldst/int32-fp32", BH, .load = M_INT32, .store = M_FP32},
    {"ldst/int32sm-int32", .load = M_INT32_SM, .store = M_INT32},
    {"ldst/int32-int32sm", .load = M_INT32, .store = M_INT32_SM},
    {"ldst/srcb-int32/sfpu32", .flags = SF_FP32, .load = M_SRCB, .store = M_INT32},
    {"ldst/int32-srcb/sfpu32", BH, .flags = SF_FP32, .load = M_INT32, .store = M_SRCB},
    {"ldst/int32-hi16", .load = M_INT32, .store = M_HI16},
    {"ldst/int32-lo16", .load = M_INT32, .store = M_LO16},
    {"ldst/consts-8-11", I32, .outs = LR(8) | LR(9) | LR(10) | LR(11)},
    {"ldst/load-into-consts", I32, .outs = LR(3) | LR(5),
     .w = {TT_OP_SFPLOAD_BH(8, M_INT32, 0, 0), TT_OP_SFPLOAD_BH(11, M_INT32, 0, 2), MOV(8, 3, 0), MOV(11, 5, 0)}},
    /* AddrMod: the kernel's ADDR_MOD slot 1 adds 2 to RWC.Dst (the other columns, then the next
     * 4 rows), slot 2 clears it; the field is 3 bits on Blackhole, 2 on Wormhole */
    {"ldst/addrmod/bh", BH, I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPLOAD_BH(3, M_INT32, 1, 0), TT_OP_SFPLOAD_BH(5, M_INT32, 1, 0),
           TT_OP_SFPLOAD_BH(6, M_FP32, 1, 8), TT_OP_SFPLOAD_BH(7, M_INT32, 2, 16)}},
    {"ldst/addrmod/wh", .archs = DT_ARCH_WH, I32, .outs = LR(3) | LR(5) | LR(6) | LR(7),
     .w = {TT_OP_SFPLOAD_WH(3, M_INT32, 1, 0), TT_OP_SFPLOAD_WH(5, M_INT32, 1, 0),
           TT_OP_SFPLOAD_WH(6, M_FP32, 1, 8), TT_OP_SFPLOAD_WH(7, M_INT32, 2, 16)}},
    /* 16-bit modes in an FP32 Dst: the high halves of its Dst32b rows */
    {"ldst/bf16-bf16/dst32", .load = M_BF16, .store = M_BF16},
    {"ldst/uint16-uint16/dst32", .load = M_UINT16, .store = M_UINT16},
    {"ldst/lo16only-int32/dst32", .load = M_LO16_ONLY, .store = M_INT32},
    {"ldst/hi16only-int32/dst32", .load = M_HI16_ONLY, .store = M_INT32},
    {"ldst/int32-bf16/dst32", .load = M_INT32, .store = M_BF16},
    {"ldst/int32-lo16only/dst32", .load = M_INT32, .store = M_LO16_ONLY},
    {"ldst/int32-hi16only/dst32", .load = M_INT32, .store = M_HI16_ONLY},
    {"ldst/srcb-srcb/dst32", .srcb = DT_BF16, .load = M_SRCB, .store = M_SRCB},
    /* a 16-bit Dst */
    {"ldst/bf16-bf16", .dst = DT_BF16, .load = M_BF16, .store = M_BF16},
    {"ldst/uint16-uint16", .dst = DT_BF16, .load = M_UINT16, .store = M_UINT16},
    {"ldst/lo16only-uint16", .dst = DT_BF16, .load = M_LO16_ONLY, .store = M_UINT16},
    {"ldst/hi16only-hi16only", .dst = DT_BF16, .load = M_HI16_ONLY, .store = M_HI16_ONLY},
    {"ldst/uint16-lo16only", .dst = DT_BF16, .load = M_UINT16, .store = M_LO16_ONLY},
    {"ldst/bf16-hi16only", .dst = DT_BF16, .load = M_BF16, .store = M_HI16_ONLY},
    {"ldst/srcb-srcb/bf16", .dst = DT_BF16, .srcb = DT_BF16, .load = M_SRCB, .store = M_SRCB},
    {"ldst/srcb-srcb/fp32", .dst = DT_BF16, .srcb = DT_FP32, .load = M_SRCB, .store = M_SRCB},
    {"ldst/srcb-srcb/bfp8", .dst = DT_BF16, .srcb = DT_BFP8, .load = M_SRCB, .store = M_SRCB},
    {"ldst/srcb-srcb/bfp4", .dst = DT_BF16, .srcb = DT_BFP4, .load = M_SRCB, .store = M_SRCB},
    {"ldst/srcb-srcb/int16", .dst = DT_BF16, .srcb = DT_INT16, .load = M_SRCB, .store = M_SRCB},
    {"ldst/bf16-srcb/bfp2", .dst = DT_BF16, .srcb = DT_BFP2, .load = M_BF16, .store = M_SRCB},
    {"ldst/srcb-srcb/fp16", .dst = DT_FP16, .srcb = DT_FP16, .load = M_SRCB, .store = M_SRCB},
    {"ldst/uint16-srcb/fp16", .dst = DT_FP16, .srcb = DT_FP16, .load = M_UINT16, .store = M_SRCB},
    {"ldst/srcb-uint16/fp16", .dst = DT_FP16, .srcb = DT_FP16, .load = M_SRCB, .store = M_UINT16},
};
#define NROWS (sizeof rows / sizeof rows[0])

unsigned dt_sfpu_rows(void) { return NROWS; }
const char *dt_sfpu_name(unsigned i) { return i < NROWS ? rows[i].name : "?"; }
unsigned dt_sfpu_archs(unsigned i) { return i < NROWS ? rows[i].archs : 0; }
uint8_t dt_sfpu_dst(unsigned i) { return i < NROWS ? rows[i].dst : DT_FP32; }

/* ---- the program ------------------------------------------------------------------------ */

/* Whether a Mod0 moves Dst16b cells (as it resolves for the row). */
static bool mode16(const struct row *r, unsigned mod0)
{
    if (mod0 == M_SRCB)
        return !(r->flags & SF_FP32);
    return mod0 != M_FP32 && mod0 != M_INT32 && mod0 != M_HI16 && mod0 != M_LO16 && mod0 != 10 &&
           mod0 != M_INT32_SM;
}

/* Imm10 of block b (0..15) of the input (Dst rows 0..31) or output (32..63) half: 4 rows, the
 * even or odd columns. In an FP32 Dst the 16-bit modes reach the Dst32b rows' high halves,
 * which sit at rows 16k..16k+7 of the 16-bit view (WH:Dst.md): blocks there, so that the
 * inputs are the same datums and the outputs land in the packed rows. */
static uint32_t block_addr(const struct row *r, unsigned mod0, unsigned b, bool out)
{
    const unsigned g = b / 2, parity = b % 2;
    if (r->dst == DT_FP32 && mode16(r, mod0))
        return (out ? 64 : 0) + 16 * (g / 2) + 4 * (g % 2) + 2 * parity;
    return (out ? 32 : 0) + 4 * g + 2 * parity;
}

static unsigned popcount(unsigned x) { return (unsigned)__builtin_popcount(x); }

/* The row's program: the words after the count at DT_SFPU_PROG. */
static unsigned program(const struct row *r, uint32_t *p)
{
    static const unsigned cc[4] = {LT0, NE0, GTE0, EQ0};
    const unsigned outs = r->outs ? r->outs : LR(3), per = popcount(outs) + 1, iters = 16 / per;
    unsigned n = 0;
    /* the marker's low half from the row's name, so that a row's program (and its recorded
     * outcome) does not move when rows are added before it */
    uint32_t mark = 2166136261u;
    for (const char *c = r->name; *c; c++)
        mark = (mark ^ (uint8_t)*c) * 16777619u;
    mark &= 0xFFFF;
#define LOAD(vd, a) TT_OP_SFPLOAD_BH(vd, r->load, 0, a)
#define STORE(vd, a) TT_OP_SFPSTORE_BH(vd, r->store, 0, a)
    p[n++] = TT_OP_SFPENCC(2, 0, 10); /* predication off, LaneFlags true: both simulators agree */
    for (unsigned it = 0; it < iters; it++) {
        for (unsigned v = 1; v < 8; v++)
            p[n++] = LOAD(v, block_addr(r, r->load, (it + 5 * v) % 16, false));
        p[n++] = TT_OP_SFPLOADI(0, 8, 0xC0D0 + it);
        p[n++] = TT_OP_SFPLOADI(0, 10, mark);
        p[n++] = TT_OP_SFPENCC(3, 0, 10);
        if ((it & 1) && !(r->flags & SF_NOCC))
            p[n++] = SETCC(2, cc[(it / 2) % 4]);
        for (unsigned k = 0; k < MAXW && r->w[k]; k++)
            p[n++] = r->w[k];
        unsigned blk = it * per;
        p[n++] = STORE(0, block_addr(r, r->store, blk++, true));
        p[n++] = TT_OP_SFPENCC(2, 0, 10);
        for (unsigned v = 0; v < 16; v++)
            if (outs >> v & 1)
                p[n++] = STORE(v, block_addr(r, r->store, blk++, true));
    }
#undef LOAD
#undef STORE
    return n;
}

/* ---- seeded data -------------------------------------------------------------------------- */

/* 32-bit datums: FP32 specials, their neighbours and integers near the limits */
static const uint32_t edge32[] = {
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
    0x7FFFFFFF, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00800000,
    0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F7FFFFF, 0x38000000, 0x38800000,
    0x387FFFFF, 0x47800000, 0x477FE000, 0x477FFFFF, 0xC77FE000, 0x7FFFFFFE, 0x80000002, 0x0000FFFF,
    0x00010000, 0x00008000, 0x00007FFF, 0xFFFF8000, 0xFFFF0000, 0x0000001F, 0x00000020, 0xFFFFFFE0,
    0xFFFFFFE1, 0x00000002, 0xFFFFFFFE, 0x55555555, 0xAAAAAAAA, 0x4B000000, 0xCB000000, 0x00FFFFFF,
};
/* 16-bit datums of a BF16 and an FP16 Dst */
static const uint16_t edge_bf16[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFFFF,
                                     0x7FFF, 0x0080, 0x8080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x0001,
                                     0x3800, 0x3880, 0x4780, 0x477F, 0x4B00, 0x5555, 0xAAAA};
static const uint16_t edge_fp16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x7FFF,
                                     0xFFFF, 0x7BFF, 0xFBFF, 0x0400, 0x8400, 0x0001, 0x03FF, 0x3C00,
                                     0xBC00, 0x5555, 0xAAAA};

static uint32_t datum32(struct dt_rng *r, enum dt_data d)
{
    const uint32_t x = (uint32_t)dt_next(r), k = dt_below(r, 100);
    if (d == DATA_RAND) /* ordinary floats (exponent 127 +- 24, either sign), and any bits */
        return k < 80 ? (x & 0x807FFFFFu) | (103u + dt_below(r, 49)) << 23 : x;
    if (d == DATA_EDGE) {
        static const uint8_t exps[] = {0, 1, 2, 0xFD, 0xFE, 0xFF, 112, 113, 142, 143, 144, 127, 126};
        if (k < 55)
            return edge32[dt_below(r, sizeof edge32 / 4)];
        uint32_t m = k < 70 ? 0 : k < 80 ? 0x7FFFFF : x & 0x7FFFFF;
        return (x & 0x80000000u) | (uint32_t)exps[dt_below(r, sizeof exps)] << 23 | m;
    }
    /* integers: small ones (shift amounts, counts), near the limits, powers of two, any */
    if (k < 40)
        return (uint32_t)((int32_t)dt_below(r, 81) - 40);
    if (k < 55)
        return (x & 1 ? 0x7FFFFFFFu - dt_below(r, 4) : 0x80000000u + dt_below(r, 4));
    if (k < 75) {
        uint32_t v = 1u << dt_below(r, 32);
        return (x & 2 ? ~v + 1 : v) + (uint32_t)((int)dt_below(r, 3) - 1);
    }
    return x;
}

static uint16_t datum16(struct dt_rng *r, enum dt_data d, bool fp16)
{
    const uint32_t x = (uint32_t)dt_next(r), k = dt_below(r, 100);
    if (d == DATA_RAND) { /* ordinary values */
        if (fp16)
            return (uint16_t)((x & 0x83FF) | (9u + dt_below(r, 13)) << 10);
        return (uint16_t)((x & 0x807F) | (115u + dt_below(r, 25)) << 7);
    }
    if (d == DATA_EDGE && k < 60)
        return fp16 ? edge_fp16[dt_below(r, sizeof edge_fp16 / 2)] : edge_bf16[dt_below(r, sizeof edge_bf16 / 2)];
    return (uint16_t)x; /* int data, and the rest of edge: any 16 bits */
}

/* ---- the inputs of a run ---------------------------------------------------------------- */

void dt_sfpu_inputs(unsigned index, enum dt_data d, uint32_t seed, bool ecall, struct dt_inputs *in)
{
    const struct row *r = &rows[index < NROWS ? index : 0];
    struct dt_rng g = {.s = seed * 0x100000001B3ull + 7};
    memset(in, 0, sizeof *in);

    /* the Dst image: an FP32 tile unpacked straight into Dst, or BF16/FP16 through MOVA2D */
    const bool d32 = r->dst == DT_FP32;
    struct dt_load *l = &in->load[in->nload++];
    l->addr = DT_TILE_A;
    l->len = 16 + 1024 * (d32 ? 4 : 2);
    memset(l->bytes, 0, 16);
    for (unsigned i = 0; i < 1024; i++) {
        const uint32_t v = d32 ? datum32(&g, d) : datum16(&g, d, r->dst == DT_FP16);
        for (unsigned k = 0; k < (d32 ? 4u : 2u); k++)
            l->bytes[16 + i * (d32 ? 4 : 2) + k] = (uint8_t)(v >> 8 * k);
    }

    const struct dt_params prm = {
        .magic = DT_MAGIC, .nstages = 2, .dst_fp32 = d32, .dst16 = d32 ? DT_BF16 : r->dst,
        .pack_rows = 64, .ecall = ecall, .pack_mode = DT_PACK_ROWS,
        .st = {{.op = d32 ? DT_OP_UNPACK : DT_OP_MOVA2D, .a_addr = DT_TILE_A, .a_in = r->dst,
                .a_out = r->dst, .b_addr = DT_TILE_A, .b_in = r->dst, .b_out = r->dst, .phases = 1,
                .flags = DT_ZERO_DST},
               {.op = DT_OP_SFPU, .a_addr = DT_SFPU_PROG, .b_out = r->srcb, .phases = 1,
                .flags = (r->flags & SF_FP32 ? DT_SFPU_FP32 : 0u) | (r->flags & SF_SEED ? DT_SFPU_SEED : 0u),
                .prng_seed = seed * 0x9E3779B9u + 0x1234567u}}};
    uint32_t p[sizeof prm / 4];
    memcpy(p, &prm, sizeof prm);
    dt_put_words(&in->load[in->nload++], DT_PARAMS, p, sizeof p / 4);

    static uint32_t prog[1 + DT_SFPU_MAX_WORDS];
    prog[0] = program(r, prog + 1);
    dt_put_words(&in->load[in->nload++], DT_SFPU_PROG, prog, prog[0] + 1);

    in->out_bytes = d32 ? 4 : 2;
    in->out_len = 64 * 16 * in->out_bytes;
}
