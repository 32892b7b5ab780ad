/* Functional tests of every RV32IM + Zicsr + Zba + Zbb + Zaamo instruction, with the edge
 * cases of the RISC-V specification. Expected values are written out by hand. */
#include <criterion/criterion.h>

#include "harness.h"

#define BASE 0x6000u

/* Run "li x5, a; li x6, b; OP x7, x5, x6; exit" and return x7. */
static uint32_t rr(enum rv_op op, uint32_t a, uint32_t b)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, a);
    emit_li(&p, 6, b);
    emit(&p, rv_encode(op, 7, 5, 6, 0));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    uint32_t v = t->core[0].x[7];
    tile_destroy(t);
    return v;
}

/* "li x5, a; OP x7, x5, imm; exit" */
static uint32_t ri(enum rv_op op, uint32_t a, int32_t imm)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, a);
    emit(&p, rv_encode(op, 7, 5, 0, imm));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    uint32_t v = t->core[0].x[7];
    tile_destroy(t);
    return v;
}

struct case3 {
    enum rv_op op;
    uint32_t a, b, want;
};

static void check_rr(const struct case3 *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t got = rr(c[i].op, c[i].a, c[i].b);
        cr_expect_eq(got, c[i].want, "%s 0x%08x, 0x%08x = 0x%08x, want 0x%08x",
                     rv_desc(c[i].op)->mnemonic, c[i].a, c[i].b, got, c[i].want);
    }
}

static void check_ri(const struct case3 *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t got = ri(c[i].op, c[i].a, (int32_t)c[i].b);
        cr_expect_eq(got, c[i].want, "%s 0x%08x, %d = 0x%08x, want 0x%08x",
                     rv_desc(c[i].op)->mnemonic, c[i].a, (int32_t)c[i].b, got, c[i].want);
    }
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NEG(x) ((uint32_t)(int32_t)(x))

Test(rv32i, register_register)
{
    static const struct case3 c[] = {
        {RV_ADD, 0x7fffffff, 1, 0x80000000}, /* signed overflow wraps */
        {RV_ADD, 0xffffffff, 1, 0},
        {RV_SUB, 0, 1, 0xffffffff},
        {RV_SUB, 0x80000000, 1, 0x7fffffff},
        {RV_SLL, 1, 31, 0x80000000},
        {RV_SLL, 1, 32, 1}, /* only the low 5 bits of rs2 count */
        {RV_SLL, 3, 0xffffffe1, 6},
        {RV_SRL, 0x80000000, 31, 1},
        {RV_SRL, 0x80000000, 32, 0x80000000},
        {RV_SRA, 0x80000000, 31, 0xffffffff},
        {RV_SRA, 0x80000000, 4, 0xf8000000},
        {RV_SRA, 0x40000000, 30, 1},
        {RV_SLT, NEG(-1), 0, 1},
        {RV_SLT, 0, NEG(-1), 0},
        {RV_SLT, 0x80000000, 0x7fffffff, 1},
        {RV_SLTU, NEG(-1), 0, 0},
        {RV_SLTU, 0, NEG(-1), 1},
        {RV_SLTU, 5, 5, 0},
        {RV_XOR, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0},
        {RV_OR, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0},
        {RV_AND, 0xff00ff00, 0x0ff00ff0, 0x0f000f00},
    };
    check_rr(c, N(c));
}

Test(rv32i, register_immediate)
{
    static const struct case3 c[] = {
        {RV_ADDI, 0x7fffffff, 1, 0x80000000},
        {RV_ADDI, 0, NEG(-2048), 0xfffff800}, /* most negative 12-bit immediate */
        {RV_ADDI, 0, 2047, 2047},
        {RV_SLTI, NEG(-5), NEG(-4), 1},
        {RV_SLTI, 3, NEG(-4), 0},
        {RV_SLTIU, 3, NEG(-1), 1}, /* immediate sign-extends, then compares unsigned */
        {RV_SLTIU, 0xffffffff, NEG(-1), 0},
        {RV_SLTIU, 0, 1, 1}, /* seqz */
        {RV_XORI, 0x12345678, NEG(-1), 0xedcba987}, /* not */
        {RV_ORI, 0x10, 0x0f, 0x1f},
        {RV_ANDI, 0xffffffff, NEG(-16), 0xfffffff0},
        {RV_SLLI, 1, 31, 0x80000000},
        {RV_SLLI, 0x12345678, 0, 0x12345678},
        {RV_SRLI, 0x80000000, 31, 1},
        {RV_SRAI, 0x80000000, 31, 0xffffffff},
        {RV_SRAI, 0x7fffffff, 30, 1},
    };
    check_ri(c, N(c));
}

Test(rv32m, multiply)
{
    static const struct case3 c[] = {
        {RV_MUL, 0x10000, 0x10000, 0}, /* low half only */
        {RV_MUL, NEG(-3), 7, NEG(-21)},
        {RV_MUL, 0x7fffffff, 2, 0xfffffffe},
        {RV_MULH, NEG(-1), NEG(-1), 0},
        {RV_MULH, 0x80000000, 0x80000000, 0x40000000},
        {RV_MULH, 0x80000000, 1, 0xffffffff},
        {RV_MULH, 0x7fffffff, 0x7fffffff, 0x3fffffff},
        {RV_MULHSU, NEG(-1), 0xffffffff, 0xffffffff},
        {RV_MULHSU, 0x80000000, 0xffffffff, 0x80000000},
        {RV_MULHSU, 2, 0x80000000, 1},
        {RV_MULHU, 0xffffffff, 0xffffffff, 0xfffffffe},
        {RV_MULHU, 0x80000000, 2, 1},
    };
    check_rr(c, N(c));
}

Test(rv32m, divide)
{
    static const struct case3 c[] = {
        {RV_DIV, NEG(-7), 2, NEG(-3)}, /* rounds toward zero */
        {RV_DIV, 7, NEG(-2), NEG(-3)},
        {RV_DIV, 5, 0, 0xffffffff}, /* division by zero gives -1 */
        {RV_DIV, 0x80000000, NEG(-1), 0x80000000}, /* overflow gives the dividend */
        {RV_DIVU, 0xffffffff, 2, 0x7fffffff},
        {RV_DIVU, 5, 0, 0xffffffff},
        {RV_REM, NEG(-7), 2, NEG(-1)}, /* sign of the dividend */
        {RV_REM, 7, NEG(-2), 1},
        {RV_REM, 5, 0, 5}, /* remainder by zero gives the dividend */
        {RV_REM, 0x80000000, NEG(-1), 0},
        {RV_REMU, 0xffffffff, 10, 5},
        {RV_REMU, 5, 0, 5},
    };
    check_rr(c, N(c));
}

Test(zba, shift_add)
{
    static const struct case3 c[] = {
        {RV_SH1ADD, 3, 100, 106},
        {RV_SH2ADD, 3, 100, 112},
        {RV_SH3ADD, 3, 100, 124},
        {RV_SH3ADD, 0x20000000, 1, 1}, /* shifted-out bits are lost */
        {RV_SH1ADD, 0xffffffff, 0, 0xfffffffe},
    };
    check_rr(c, N(c));
}

Test(zbb, logic_min_max_rotate)
{
    static const struct case3 c[] = {
        {RV_ANDN, 0xff00ff00, 0x0ff00ff0, 0xf000f000},
        {RV_ORN, 0x00000000, 0xffff0000, 0x0000ffff},
        {RV_XNOR, 0xff00ff00, 0x0ff00ff0, 0x0f0f0f0f},
        {RV_MIN, NEG(-1), 1, NEG(-1)},
        {RV_MINU, NEG(-1), 1, 1},
        {RV_MAX, NEG(-1), 1, 1},
        {RV_MAXU, NEG(-1), 1, 0xffffffff},
        {RV_MIN, 0x80000000, 0x7fffffff, 0x80000000},
        {RV_ROL, 0x80000001, 1, 3},
        {RV_ROL, 0x12345678, 0, 0x12345678},
        {RV_ROL, 0x12345678, 36, 0x23456781}, /* amount modulo 32 */
        {RV_ROR, 0x80000001, 1, 0xc0000000},
        {RV_ROR, 0x12345678, 31, 0x2468acf0},
    };
    check_rr(c, N(c));
}

Test(zbb, unary_and_rotate_immediate)
{
    static const struct case3 c[] = {
        {RV_CLZ, 0, 0, 32}, {RV_CLZ, 1, 0, 31}, {RV_CLZ, 0x80000000, 0, 0},
        {RV_CTZ, 0, 0, 32}, {RV_CTZ, 0x80000000, 0, 31}, {RV_CTZ, 6, 0, 1},
        {RV_CPOP, 0, 0, 0}, {RV_CPOP, 0xffffffff, 0, 32}, {RV_CPOP, 0x80000001, 0, 2},
        {RV_SEXTB, 0x80, 0, 0xffffff80}, {RV_SEXTB, 0x1234567f, 0, 0x7f},
        {RV_SEXTH, 0x8000, 0, 0xffff8000}, {RV_SEXTH, 0xabcd7fff, 0, 0x7fff},
        {RV_ZEXTH, 0xffff1234, 0, 0x1234},
        {RV_ORCB, 0x00ff0100, 0, 0x00ffff00}, {RV_ORCB, 0, 0, 0},
        {RV_REV8, 0x12345678, 0, 0x78563412},
        {RV_RORI, 0x80000001, 1, 0xc0000000}, {RV_RORI, 0x12345678, 0, 0x12345678},
        {RV_RORI, 0x12345678, 31, 0x2468acf0},
    };
    check_ri(c, N(c));
}

Test(rv32i, upper_immediates_and_x0)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    E(&p, LUI, 5, 0, 0, (int32_t)0xfffff000);
    E(&p, AUIPC, 6, 0, 0, 0x1000); /* at BASE + 4 */
    E(&p, ADDI, 0, 0, 0, 123);     /* writes to x0 are discarded */
    E(&p, LUI, 0, 0, 0, 0x5000);
    E(&p, ADD, 7, 0, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE);
    cr_expect_eq(t->core[0].x[5], 0xfffff000);
    cr_expect_eq(t->core[0].x[6], BASE + 4 + 0x1000);
    cr_expect_eq(t->core[0].x[0], 0);
    cr_expect_eq(t->core[0].x[7], 0);
    tile_destroy(t);
}

Test(rv32i, loads_sign_and_zero_extend)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const uint8_t bytes[8] = {0x80, 0xff, 0x34, 0x82, 0x7f, 0x00, 0x00, 0x00};
    memcpy(t->l1 + 0x20000, bytes, 8);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, 0x20000);
    E(&p, LB, 10, 5, 0, 0);  /* 0x80 -> -128 */
    E(&p, LBU, 11, 5, 0, 0); /* 0x80 */
    E(&p, LH, 12, 5, 0, 0);  /* 0xff80 -> sign-extended */
    E(&p, LHU, 13, 5, 0, 2); /* 0x8234 */
    E(&p, LW, 14, 5, 0, 0);
    E(&p, LB, 15, 5, 0, 4);  /* 0x7f stays positive */
    E(&p, LH, 16, 5, 0, 3);  /* unaligned: rounded down to offset 2 */
    E(&p, LW, 0, 5, 0, 0);   /* load into x0 is discarded */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
    const uint32_t *x = t->core[0].x;
    cr_expect_eq(x[10], 0xffffff80);
    cr_expect_eq(x[11], 0x80);
    cr_expect_eq(x[12], 0xffffff80);
    cr_expect_eq(x[13], 0x8234);
    cr_expect_eq(x[14], 0x8234ff80);
    cr_expect_eq(x[15], 0x7f);
    cr_expect_eq(x[16], 0xffff8234);
    cr_expect_eq(x[0], 0);
    tile_destroy(t);
}

Test(rv32i, stores_and_local_ram)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, 0x20000);
    emit_li(&p, 6, 0xaabbccdd);
    E(&p, SW, 0, 5, 6, 0);
    E(&p, SB, 0, 5, 6, 5);
    E(&p, SH, 0, 5, 6, 10);
    emit_li(&p, 7, 0xFFB00FFC); /* last word of TRISC0's 4 KiB local RAM */
    E(&p, SW, 0, 7, 6, 0);
    E(&p, LW, 10, 7, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
    const uint8_t want[12] = {0xdd, 0xcc, 0xbb, 0xaa, 0, 0xdd, 0, 0, 0, 0, 0xdd, 0xcc};
    cr_expect_arr_eq(t->l1 + 0x20000, want, 12);
    cr_expect_eq(t->core[0].x[10], 0xaabbccdd);
    cr_expect_eq(t->local_ram[0][0xFFC], 0xdd);
    tile_destroy(t);
}

Test(rv32i, jumps_and_branches)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    /* x10 counts taken branches that should be taken, x11 branches wrongly taken. */
    emit_li(&p, 5, NEG(-1));
    emit_li(&p, 6, 1);
    struct { enum rv_op op; unsigned a, b; int taken; } br[] = {
        {RV_BEQ, 5, 5, 1}, {RV_BEQ, 5, 6, 0}, {RV_BNE, 5, 6, 1}, {RV_BNE, 6, 6, 0},
        {RV_BLT, 5, 6, 1}, {RV_BLT, 6, 5, 0}, {RV_BGE, 6, 5, 1}, {RV_BGE, 5, 6, 0},
        {RV_BGE, 6, 6, 1}, {RV_BLTU, 6, 5, 1}, {RV_BLTU, 5, 6, 0}, {RV_BGEU, 5, 6, 1},
        {RV_BGEU, 6, 5, 0},
    };
    for (size_t i = 0; i < N(br); i++) {
        /* OP a, b, +8 skips the "wrong" add; falls through into it otherwise */
        emit(&p, rv_encode(br[i].op, 0, br[i].a, br[i].b, 8));
        E(&p, ADDI, br[i].taken ? 11 : 10, br[i].taken ? 11 : 10, 0, 1);
        if (!br[i].taken)
            continue;
        /* taken: land here; count it */
        E(&p, ADDI, 10, 10, 0, 1);
    }
    /* jal forward over one instruction, link checked; jalr with an odd target clears bit 0 */
    uint32_t jal_pc = p.pc;
    E(&p, JAL, 12, 0, 0, 8);
    E(&p, ADDI, 11, 11, 0, 1);
    emit_li(&p, 13, p.pc + 16 + 1); /* li (2 words), jalr, addi: target is the exit, odd */
    E(&p, JALR, 14, 13, 0, 0);
    E(&p, ADDI, 11, 11, 0, 1);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
    const uint32_t *x = t->core[0].x;
    cr_expect_eq(x[10], N(br), "branches behaving: %u", x[10]);
    cr_expect_eq(x[11], 0, "wrong paths taken: %u", x[11]);
    cr_expect_eq(x[12], jal_pc + 4);
    cr_expect_eq(x[14], x[13] - 5); /* link = jalr + 4 = target - 4, target = x13 - 1 */
    tile_destroy(t);
}

Test(zicsr, scratch_cfg0_counters)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, 0x0f0f);
    E(&p, CSRRW, 10, 5, 0, 0x7C3); /* old scratch 0 -> x10 */
    E(&p, CSRRSI, 11, 0x10, 0, 0x7C3); /* set bit 4 */
    E(&p, CSRRCI, 12, 0x01, 0, 0x7C3); /* clear bit 0 */
    E(&p, CSRRS, 13, 0, 0, 0x7C3);     /* plain read */
    E(&p, CSRRS, 14, 0, 0, 0x7C0);     /* cfg0 reset value */
    E(&p, CSRRS, 15, 0, 0, 0xF14);     /* mhartid */
    E(&p, CSRRS, 16, 0, 0, 0x301);     /* misa */
    E(&p, CSRRWI, 22, 5, 0, 0x300);    /* mstatus: write ignored, read constant */
    E(&p, CSRRS, 18, 0, 0, 0x300);
    E(&p, CSRRS, 19, 0, 0, 0xC02);     /* instret before this instruction */
    E(&p, CSRRC, 20, 0, 0, 0xC00);     /* cycle */
    E(&p, CSRRS, 21, 0, 0, 0xC80);     /* cycleh */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
    const uint32_t *x = t->core[0].x;
    cr_expect_eq(x[10], 0);
    cr_expect_eq(x[11], 0x0f0f);
    cr_expect_eq(x[12], 0x0f1f);
    cr_expect_eq(x[13], 0x0f1e);
    cr_expect_eq(x[14], 16u << 13);
    cr_expect_eq(x[15], 0);
    cr_expect_eq(x[16], 0x40201123);
    cr_expect_eq(x[22], 0x80006600);
    cr_expect_eq(x[18], 0x80006600);
    cr_expect_eq(x[19], 11, "instret %u", x[19]); /* li (2 words) + 9 CSR instructions */
    /* cycle: 2 single-cycle li words, then 10 CSR instructions of 4 cycles each */
    cr_expect_eq(x[20], 2 + 10 * 4, "cycle %u", x[20]);
    cr_expect_eq(x[21], 0);
    tile_destroy(t);
}

Test(zicsr, counter_write_moves_counter)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    emit_li(&p, 5, 1000);
    E(&p, CSRRW, 0, 5, 0, 0xB00); /* mcycle = 1000 at cycle 2 */
    E(&p, CSRRS, 10, 0, 0, 0xC00); /* 4 cycles later */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].x[10], 1004);
    tile_destroy(t);
}

Test(zaamo, all_atomics)
{
    static const struct case3 c[] = {
        /* op, memory before, rs2, memory after (rd always gets the old value) */
        {RV_AMOADD, 5, 7, 12},
        {RV_AMOSWAP, 5, 7, 7},
        {RV_AMOXOR, 0xff, 0x0f, 0xf0},
        {RV_AMOOR, 0xf0, 0x0f, 0xff},
        {RV_AMOAND, 0xf0, 0x3c, 0x30},
        {RV_AMOMIN, NEG(-1), 1, NEG(-1)},
        {RV_AMOMAX, NEG(-1), 1, 1},
        {RV_AMOMINU, NEG(-1), 1, 1},
        {RV_AMOMAXU, NEG(-1), 1, NEG(-1)},
    };
    for (size_t i = 0; i < N(c); i++) {
        struct tile *t = test_tile(ARCH_BLACKHOLE);
        memcpy(t->l1 + 0x20000, &c[i].a, 4);
        struct prog p = prog_at(t, BASE);
        emit_li(&p, 5, 0x20000);
        emit_li(&p, 6, c[i].b);
        emit(&p, rv_encode(c[i].op, 7, 5, 6, 0));
        emit_exit(&p);
        cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
        uint32_t mem;
        memcpy(&mem, t->l1 + 0x20000, 4);
        cr_expect_eq(t->core[0].x[7], c[i].a, "%s old", rv_desc(c[i].op)->mnemonic);
        cr_expect_eq(mem, c[i].want, "%s new 0x%x", rv_desc(c[i].op)->mnemonic, mem);
        tile_destroy(t);
    }
}

Test(rv32i, self_modifying_code_is_redecoded)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, BASE);
    /* Loop twice over "addi x10, x10, 1"; after the first pass, overwrite it with
     * "addi x10, x10, 100". The predecode cache must notice the store. */
    emit_li(&p, 5, 2);
    uint32_t target = p.pc;
    E(&p, ADDI, 10, 10, 0, 1);
    emit_li(&p, 6, rv_encode(RV_ADDI, 10, 10, 0, 100));
    emit_li(&p, 7, target);
    E(&p, SW, 0, 7, 6, 0);
    E(&p, ADDI, 5, 5, 0, -1);
    emit(&p, rv_encode(RV_BNE, 0, 5, 0, (int32_t)(target - p.pc)));
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].x[10], 101);
    tile_destroy(t);
}
