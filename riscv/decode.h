/* RV32 decoding: the instruction table expanded into an opcode enum, a decoder and a
 * disassembler. Each word is decoded once into a `struct rv_insn` and kept in the tile's
 * predecode cache (riscv/core.c). */
#ifndef TENSIM_RISCV_DECODE_H
#define TENSIM_RISCV_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum rv_format { RVF_R, RVF_R1, RVF_I, RVF_SH, RVF_LOAD, RVF_S, RVF_B, RVF_U, RVF_J,
                 RVF_CSR, RVF_CSRI, RVF_AMO, RVF_NONE };

enum rv_class { RVC_ALU, RVC_BRANCH, RVC_JAL, RVC_JALR, RVC_LOAD, RVC_STORE, RVC_MUL, RVC_DIV,
                RVC_CSR, RVC_FENCE, RVC_AMO, RVC_SYSTEM, RVC_TTINSN, RVC_COUNT };

enum rv_op {
    RV_UNDECODED = 0, /* predecode cache slot not filled yet (or invalidated by a store) */
    RV_ILLEGAL,       /* no table row matches */
    RV_REGION,        /* slti x0, x0, 0x580..0x5FF: tensim's region HINT (riscv/region.h) */
    RV_TTINSN,        /* low two bits != 0b11: a Tensix instruction rotated left by 2 */
#define RV(op, mn, mask, match, fmt, cls) RV_##op,
#include "rv32.def"
#undef RV
    RV_OP_COUNT
};

struct rv_insn {
    /* enum rv_op; in the predecode cache only, RV_POLL_MARK may be or-ed in (riscv/poll.h) */
    uint8_t op;
    uint8_t rd, rs1, rs2;
    int32_t imm; /* sign-extended immediate; CSR number for CSR forms; Tensix word for RV_TTINSN */
};
_Static_assert(sizeof(struct rv_insn) == 8, "a predecode slot is 8 bytes");
_Static_assert(RV_OP_COUNT <= 0x80, "the top bit of a predecode slot's op is RV_POLL_MARK");

struct rv_desc {
    const char *mnemonic;
    uint32_t mask, match;
    enum rv_format format;
    enum rv_class cls;
};

/* Row of the table for op (RV_ILLEGAL and RV_TTINSN have synthetic rows). */
const struct rv_desc *rv_desc(enum rv_op op);
struct rv_insn rv_decode(uint32_t word);
/* "addi a0, a0, 1"; returns the length written (snprintf-style). */
int rv_disasm(uint32_t word, uint32_t pc, char *buf, size_t n);
const char *rv_class_name(enum rv_class c);
extern const char *const rv_reg_names[32];

#endif

/* Inverse of rv_decode for table instructions: build the word for op with the given fields
 * (imm is the CSR number for CSR forms, the 5-bit immediate goes in rs1 for CSRI forms).
 * Used by tests and tools that assemble small programs. */
uint32_t rv_encode(enum rv_op op, unsigned rd, unsigned rs1, unsigned rs2, int32_t imm);
