/* The RV32 instruction table: no two rows overlap, and it agrees with GNU as. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "harness.h"

Test(rv32_table, no_two_rows_overlap)
{
    for (int a = RV_TTINSN + 1; a < RV_OP_COUNT; a++) {
        const struct rv_desc *x = rv_desc(a);
        cr_expect_eq(x->match & ~x->mask, 0, "%s: match has bits outside its mask", x->mnemonic);
        cr_expect_eq(x->match & 3, 3, "%s: not a 32-bit encoding", x->mnemonic);
        for (int b = a + 1; b < RV_OP_COUNT; b++) {
            const struct rv_desc *y = rv_desc(b);
            /* Two rows overlap when some word matches both: no fixed bit tells them apart. */
            cr_expect_neq((x->match ^ y->match) & x->mask & y->mask, 0, "%s overlaps %s",
                          x->mnemonic, y->mnemonic);
        }
    }
}

static uint32_t read_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

Test(rv32_table, decodes_what_gnu_as_assembled)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    FILE *f = fopen(guest("guest/all_insns.elf"), "rb");
    cr_assert(f, "build/guest/all_insns.elf missing (make kernels)");
    static uint8_t buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    /* Find the first PT_LOAD's file offset: the text starts there. */
    uint32_t phoff = read_u32(buf + 28), off = read_u32(buf + phoff + 4);
    for (int op = RV_TTINSN + 1; op < RV_OP_COUNT; op++, off += 4) {
        cr_assert_lt(off + 4, len);
        uint32_t w = read_u32(buf + off);
        struct rv_insn in = rv_decode(w);
        cr_expect_eq(in.op, op, "word 0x%08x: decoded as %s, assembled as %s", w,
                     rv_desc(in.op)->mnemonic, rv_desc(op)->mnemonic);
        if (rv_desc(op)->format != RVF_NONE) /* fence's pred/succ bits are not kept */
            cr_expect_eq(rv_encode(in.op, in.rd, in.rs1, in.rs2, in.imm), w,
                     "%s: decode/encode round trip", rv_desc(op)->mnemonic);
    }
    tile_destroy(t);
}

Test(rv32_table, disassembly)
{
    char s[64];
    rv_disasm(rv_encode(RV_ADDI, 10, 11, 0, -7), 0, s, sizeof s);
    cr_expect_str_eq(s, "addi a0, a1, -7");
    rv_disasm(rv_encode(RV_SW, 0, 2, 12, 12), 0, s, sizeof s);
    cr_expect_str_eq(s, "sw a2, 12(sp)");
    rv_disasm(rv_encode(RV_BNE, 0, 5, 0, -8), 0x6010, s, sizeof s);
    cr_expect_str_eq(s, "bne t0, zero, 0x6008");
    rv_disasm(rv_encode(RV_AMOMAXU, 10, 11, 12, 0), 0, s, sizeof s);
    cr_expect_str_eq(s, "amomaxu.w a0, a2, (a1)");
    rv_disasm(0x02000000u << 2 | 0x02000000u >> 30, 0, s, sizeof s);
    cr_expect_str_eq(s, ".ttinsn 0x02000000");
    rv_disasm(0xffffffff, 0, s, sizeof s);
    cr_expect_str_eq(s, ".word 0xffffffff");
}
