#include "decode.h"

#include <stdio.h>

static const struct rv_desc table[RV_OP_COUNT] = {
    [RV_UNDECODED] = {"(undecoded)", 0, 0, RVF_NONE, RVC_SYSTEM},
    [RV_ILLEGAL] = {"(illegal)", 0, 0, RVF_NONE, RVC_SYSTEM},
    [RV_REGION] = {"slti", 0xf80fffff, 0x58002013, RVF_I, RVC_ALU},
    [RV_TTINSN] = {".ttinsn", 3, 0, RVF_NONE, RVC_TTINSN},
#define RV(op, mn, mask, match, fmt, cls) [RV_##op] = {mn, mask, match, RVF_##fmt, RVC_##cls},
#include "rv32.def"
#undef RV
};

const char *const rv_reg_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const class_names[RVC_COUNT] = {
    "alu", "branch", "jal", "jalr", "load", "store", "mul", "div",
    "csr", "fence", "amo", "system", "ttinsn",
};

const struct rv_desc *rv_desc(enum rv_op op) { return &table[op < RV_OP_COUNT ? op : RV_ILLEGAL]; }

const char *rv_class_name(enum rv_class c) { return c < RVC_COUNT ? class_names[c] : "?"; }

static int32_t sext(uint32_t v, unsigned bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }

static int32_t immediate(enum rv_format f, uint32_t w)
{
    switch (f) {
    case RVF_I:
    case RVF_LOAD:
        return (int32_t)w >> 20;
    case RVF_SH:
        return (w >> 20) & 31;
    case RVF_S:
        return sext((w >> 25) << 5 | ((w >> 7) & 31), 12);
    case RVF_B:
        return sext(((w >> 31) & 1) << 12 | ((w >> 7) & 1) << 11 | ((w >> 25) & 63) << 5 |
                        ((w >> 8) & 15) << 1,
                    13);
    case RVF_U:
        return (int32_t)(w & 0xfffff000u);
    case RVF_J:
        return sext(((w >> 31) & 1) << 20 | ((w >> 12) & 255) << 12 | ((w >> 20) & 1) << 11 |
                        ((w >> 21) & 1023) << 1,
                    21);
    case RVF_CSR:
    case RVF_CSRI:
        return (w >> 20) & 0xfff;
    default:
        return 0;
    }
}

struct rv_insn rv_decode(uint32_t w)
{
    struct rv_insn in = {RV_ILLEGAL, 0, 0, 0, 0};
    if ((w & 3) != 3) {
        /* .ttinsn: the Tensix word is the RISC-V word rotated right by 2 (spec/instructions.md,
         * "Encoding basics"). */
        in.op = RV_TTINSN;
        in.imm = (int32_t)((w >> 2) | (w << 30));
        return in;
    }
    for (unsigned op = RV_TTINSN + 1; op < RV_OP_COUNT; op++) {
        if ((w & table[op].mask) == table[op].match) {
            in.op = (uint8_t)op;
            break;
        }
    }
    if (in.op == RV_ILLEGAL)
        return in;
    enum rv_format f = table[in.op].format;
    in.rd = (w >> 7) & 31;
    in.rs1 = (w >> 15) & 31;
    in.rs2 = (w >> 20) & 31;
    /* Keep unused register fields at x0 so the scoreboard never waits on a register the
     * instruction does not read or write. */
    switch (f) {
    case RVF_R:
    case RVF_AMO:
        break;
    case RVF_R1:
    case RVF_I:
    case RVF_SH:
    case RVF_LOAD:
    case RVF_CSR:
        in.rs2 = 0;
        break;
    case RVF_CSRI:
        in.rs2 = 0; /* rs1 field holds the 5-bit immediate: it is read as in.rs1 by the executor */
        break;
    case RVF_S:
    case RVF_B:
        in.rd = 0;
        break;
    case RVF_U:
    case RVF_J:
        in.rs1 = in.rs2 = 0;
        break;
    case RVF_NONE:
        in.rd = in.rs1 = in.rs2 = 0;
        break;
    }
    in.imm = immediate(f, w);
    /* slti x0, x0, imm is a HINT the ISA leaves for custom use: tensim's region marks take
     * 0x580..0x5FF (riscv/region.h); any other immediate stays an ordinary (no-op) slti. */
    if ((w & table[RV_REGION].mask) == table[RV_REGION].match)
        in.op = RV_REGION;
    return in;
}

int rv_disasm(uint32_t w, uint32_t pc, char *buf, size_t n)
{
    struct rv_insn in = rv_decode(w);
    const struct rv_desc *d = &table[in.op];
    const char *const *r = rv_reg_names;
    switch (in.op == RV_TTINSN ? RVF_NONE : d->format) {
    case RVF_R:
        return snprintf(buf, n, "%s %s, %s, %s", d->mnemonic, r[in.rd], r[in.rs1], r[in.rs2]);
    case RVF_R1:
        return snprintf(buf, n, "%s %s, %s", d->mnemonic, r[in.rd], r[in.rs1]);
    case RVF_I:
        if (in.op == RV_JALR)
            return snprintf(buf, n, "jalr %s, %d(%s)", r[in.rd], in.imm, r[in.rs1]);
        return snprintf(buf, n, "%s %s, %s, %d", d->mnemonic, r[in.rd], r[in.rs1], in.imm);
    case RVF_SH:
        return snprintf(buf, n, "%s %s, %s, %d", d->mnemonic, r[in.rd], r[in.rs1], in.imm);
    case RVF_LOAD:
        return snprintf(buf, n, "%s %s, %d(%s)", d->mnemonic, r[in.rd], in.imm, r[in.rs1]);
    case RVF_S:
        return snprintf(buf, n, "%s %s, %d(%s)", d->mnemonic, r[in.rs2], in.imm, r[in.rs1]);
    case RVF_B:
        return snprintf(buf, n, "%s %s, %s, 0x%x", d->mnemonic, r[in.rs1], r[in.rs2],
                        pc + (uint32_t)in.imm);
    case RVF_U:
        return snprintf(buf, n, "%s %s, 0x%x", d->mnemonic, r[in.rd], (uint32_t)in.imm >> 12);
    case RVF_J:
        return snprintf(buf, n, "jal %s, 0x%x", r[in.rd], pc + (uint32_t)in.imm);
    case RVF_CSR:
        return snprintf(buf, n, "%s %s, 0x%03x, %s", d->mnemonic, r[in.rd], (unsigned)in.imm,
                        r[in.rs1]);
    case RVF_CSRI:
        return snprintf(buf, n, "%s %s, 0x%03x, %u", d->mnemonic, r[in.rd], (unsigned)in.imm,
                        in.rs1);
    case RVF_AMO:
        return snprintf(buf, n, "%s %s, %s, (%s)", d->mnemonic, r[in.rd], r[in.rs2], r[in.rs1]);
    case RVF_NONE:
        break;
    }
    if (in.op == RV_TTINSN)
        return snprintf(buf, n, ".ttinsn 0x%08x", (uint32_t)in.imm);
    if (in.op == RV_ILLEGAL)
        return snprintf(buf, n, ".word 0x%08x", w);
    return snprintf(buf, n, "%s", d->mnemonic);
}

uint32_t rv_encode(enum rv_op op, unsigned rd, unsigned rs1, unsigned rs2, int32_t imm)
{
    const struct rv_desc *d = rv_desc(op);
    uint32_t w = d->match, u = (uint32_t)imm;
    uint32_t RD = (rd & 31) << 7, RS1 = (rs1 & 31) << 15, RS2 = (rs2 & 31) << 20;
    switch (d->format) {
    case RVF_R:
    case RVF_AMO:
        return w | RD | RS1 | RS2;
    case RVF_R1:
        return w | RD | RS1;
    case RVF_I:
    case RVF_LOAD:
        return w | RD | RS1 | (u & 0xfff) << 20;
    case RVF_SH:
        return w | RD | RS1 | (u & 31) << 20;
    case RVF_CSR:
    case RVF_CSRI:
        return w | RD | RS1 | (u & 0xfff) << 20;
    case RVF_S:
        return w | RS1 | RS2 | ((u >> 5) & 127) << 25 | (u & 31) << 7;
    case RVF_B:
        return w | RS1 | RS2 | ((u >> 12) & 1) << 31 | ((u >> 5) & 63) << 25 | ((u >> 1) & 15) << 8 |
               ((u >> 11) & 1) << 7;
    case RVF_U:
        return w | RD | (u & 0xfffff000u);
    case RVF_J:
        return w | RD | ((u >> 20) & 1) << 31 | ((u >> 1) & 1023) << 21 | ((u >> 11) & 1) << 20 |
               ((u >> 12) & 255) << 12;
    case RVF_NONE:
        break;
    }
    return w;
}
