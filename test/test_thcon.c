/* The Scalar unit (ThCon), driven through the whole pipe: TRISC .ttinsn pushes, the Wait Gate,
 * the unit. Expected GPR, L1 and Config values are worked out by hand from the functional models
 * of WH:<instruction>.md; expected cycles from docs/timing-model.md "Scalar unit (ThCon)":
 *   a TRISC push at cycle 0 issues at 3 (Blackhole fuses four adjacent .ttinsn into one push,
 *   the next four reach the gate one cycle after another);
 *   DMANOP/SETDMAREG 1 cycle, REG2FLOP 2, FLUSHDMA >= 2, ALU 3 (immediate or same group of four)
 *   or 4; memory instructions 3, ATCAS/ATINCGETPTR 15 per attempt; load data reaches the GPRs
 *   10 cycles after the request (ATINCGET: 27); ATSWAP/ATINCGET requests 12 cycles apart;
 *   STOREIND to SrcA/SrcB done 3 cycles after the cycle in which its bank is found with the
 *   unpackers (a bank freed in cycle x is found at x + 1). */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/formats.h"
#include "harness.h"
#include "tensix_ops.h"

#define TTINSN(w) (((w) << 2) | ((w) >> 30))
#define NOP 0x02000000u
#define DMANOP TT_OP_DMANOP
#define B5 (1u << 5) /* STALLWAIT block bit: ThCon */
#define C0 1u        /* STALLWAIT condition: ThCon memory requests outstanding */

struct issue {
    unsigned th;
    uint64_t cycle;
    uint32_t word;
};
static struct issue log_[256];
static unsigned nlog;

static void record(void *ctx, unsigned th, uint64_t cycle, uint32_t w)
{
    (void)ctx;
    if (nlog < 256)
        log_[nlog++] = (struct issue){th, cycle, w};
}

static uint64_t issued_at(unsigned th, uint32_t w, unsigned nth)
{
    for (unsigned i = 0; i < nlog; i++)
        if (log_[i].th == th && log_[i].word == w && nth-- == 0)
            return log_[i].cycle;
    cr_assert_fail("T%u never issued 0x%08x", th, w);
    return 0;
}

static struct tile *t;
static const uint32_t base[4] = {0x6000, 0xA000, 0xE000, 0x12000};
#define DATA 0x20000u      /* L1 data area used by the tests */
#define DATA_REG 0x2000u   /* GPR value addressing it: 0x2000 * 16 = DATA */

static void start(enum arch_id arch)
{
    t = test_tile(arch);
    nlog = 0;
    t->on_issue = record;
}
static void setup(void) { start(ARCH_BLACKHOLE); }
static void setup_wh(void) { start(ARCH_WORMHOLE); }
static void teardown(void) { tile_destroy(t); }
TestSuite(thcon, .init = setup, .fini = teardown);
TestSuite(thcon_wh, .init = setup_wh, .fini = teardown);

/* TRISC `core` pushes words[0..n) into its thread, then exits. */
static void kernel(int core, const uint32_t *w, unsigned n)
{
    struct prog p = prog_at(t, base[core]);
    for (unsigned i = 0; i < n; i++)
        emit(&p, TTINSN(w[i]));
    emit_exit(&p);
    if (core != CORE_TRISC0)
        tile_start_core(t, core, base[core]);
}

/* Runs what was set up, thread 0's kernel being `w`. */
static enum err_kind run(const uint32_t *w, unsigned n)
{
    kernel(CORE_TRISC0, w, n);
    tile_start_core(t, CORE_TRISC0, base[0]);
    return tile_run(t, 100000);
}
#define RUN_OK(...)                                                                         \
    do {                                                                                    \
        const uint32_t w_[] = {__VA_ARGS__};                                                \
        cr_assert_eq(run(w_, sizeof w_ / sizeof w_[0]), ERR_NONE, "%s", t->err.text);       \
    } while (0)
#define RUN_ERR(kind, ...)                                                                  \
    do {                                                                                    \
        const uint32_t w_[] = {__VA_ARGS__};                                                \
        cr_assert_eq(run(w_, sizeof w_ / sizeof w_[0]), kind, "%s", t->err.text);           \
    } while (0)

static uint32_t l1_word(uint32_t addr)
{
    return (uint32_t)t->l1[addr] | (uint32_t)t->l1[addr + 1] << 8 | (uint32_t)t->l1[addr + 2] << 16 |
           (uint32_t)t->l1[addr + 3] << 24;
}
static void l1_set(uint32_t addr, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        t->l1[addr + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t thread_total(const struct tensix_thread *th)
{
    uint64_t n = th->st.issued + th->st.empty;
    for (int r = 0; r < GS_COUNT; r++)
        n += th->st.stall[r];
    return n;
}

/* ==== register arithmetic ==== */

Test(thcon, setdmareg_writes_one_half_and_keeps_the_other)
{
    uint32_t *g = t->gpr[0];
    g[3] = 0x11112222;
    g[63] = 0xAAAABBBB;
    RUN_OK(TT_OP_SETDMAREG_IMM(0xBEEF, 7),    /* high half of GPR 3 */
           TT_OP_SETDMAREG_IMM(0x1234, 8),    /* low half of GPR 4 */
           TT_OP_SETDMAREG_IMM(0xFFFF, 126),  /* low half of GPR 63 */
           TT_OP_SETDMAREG_IMM(0x0000, 127)); /* high half of GPR 63 */
    cr_expect_eq(g[3], 0xBEEF2222);
    cr_expect_eq(g[4], 0x00001234);
    cr_expect_eq(g[63], 0x0000FFFF);
    for (unsigned th = 1; th < 3; th++)
        for (unsigned i = 0; i < NUM_GPRS; i++)
            cr_expect_eq(t->gpr[th][i], 0, "only the issuing thread's GPRs change");
}

Test(thcon, each_thread_uses_its_own_gprs)
{
    t->gpr[1][0] = 40;
    t->gpr[2][0] = 50;
    const uint32_t w1[] = {TT_OP_ADDDMAREGI(1, 2, 0)}, w2[] = {TT_OP_ADDDMAREGI(1, 3, 0)};
    kernel(CORE_TRISC1, w1, 1);
    kernel(CORE_TRISC2, w2, 1);
    RUN_OK(TT_OP_SETDMAREG_IMM(7, 2));
    cr_expect_eq(t->gpr[0][1], 7);
    cr_expect_eq(t->gpr[1][1], 42);
    cr_expect_eq(t->gpr[2][1], 53);
}

Test(thcon, add_and_sub_wrap_at_32_bits)
{
    uint32_t *g = t->gpr[0];
    g[0] = 0xFFFFFFFF, g[1] = 2, g[2] = 5;
    RUN_OK(TT_OP_ADDDMAREG(10, 1, 0),   /* 0xFFFFFFFF + 2 = 1 */
           TT_OP_SUBDMAREG(11, 1, 2),   /* 5 - 2 = 3 */
           TT_OP_SUBDMAREG(12, 2, 1),   /* 2 - 5 = -3 */
           TT_OP_ADDDMAREGI(13, 63, 2), /* 5 + 63 */
           TT_OP_SUBDMAREGI(14, 63, 2), /* 5 - 63 = -58 */
           TT_OP_ADDDMAREGI(2, 1, 2));  /* in place: 6 */
    cr_expect_eq(g[10], 1);
    cr_expect_eq(g[11], 3);
    cr_expect_eq(g[12], 0xFFFFFFFD);
    cr_expect_eq(g[13], 68);
    cr_expect_eq(g[14], 0xFFFFFFC6);
    cr_expect_eq(g[2], 6);
}

Test(thcon, mul_is_16_by_16_unsigned_into_32)
{
    uint32_t *g = t->gpr[0];
    g[0] = 0x1234FFFF, g[1] = 0xABCD0003, g[2] = 0x0001FFFF, g[3] = 0x00050002;
    RUN_OK(TT_OP_MULDMAREG(10, 1, 0),    /* 0xFFFF * 3 = 0x2FFFD: the high halves are ignored */
           TT_OP_MULDMAREG(11, 2, 0),    /* 0xFFFF * 0xFFFF = 0xFFFE0001 */
           TT_OP_MULDMAREGI(12, 63, 3),  /* 2 * 63 */
           TT_OP_MULDMAREGI(13, 0, 0));  /* * 0 */
    cr_expect_eq(g[10], 0x0002FFFD);
    cr_expect_eq(g[11], 0xFFFE0001);
    cr_expect_eq(g[12], 126);
    cr_expect_eq(g[13], 0);
}

Test(thcon, bitwise_and_or_xor)
{
    uint32_t *g = t->gpr[0];
    g[0] = 0xF0F0F0F0, g[1] = 0x0FF00FF0;
    RUN_OK(TT_OP_BITWOPDMAREG(0, 10, 1, 0),   /* AND */
           TT_OP_BITWOPDMAREG(1, 11, 1, 0),   /* OR */
           TT_OP_BITWOPDMAREG(2, 12, 1, 0),   /* XOR */
           TT_OP_BITWOPDMAREGI(0, 13, 0x3F, 0), /* AND 0x3F */
           TT_OP_BITWOPDMAREGI(1, 14, 0x0F, 0), /* OR 0x0F */
           TT_OP_BITWOPDMAREGI(2, 15, 0x3F, 0)); /* XOR 0x3F */
    cr_expect_eq(g[10], 0x00F000F0);
    cr_expect_eq(g[11], 0xFFF0FFF0);
    cr_expect_eq(g[12], 0xFF00FF00);
    cr_expect_eq(g[13], 0x00000030);
    cr_expect_eq(g[14], 0xF0F0F0FF);
    cr_expect_eq(g[15], 0xF0F0F0CF);
}

Test(thcon, shifts_use_five_bits_of_the_amount)
{
    uint32_t *g = t->gpr[0];
    g[0] = 0x80000001, g[1] = 33, g[2] = 4, g[3] = 0xFFFFFFE0; /* 33 & 31 = 1; 0xFFFFFFE0 & 31 = 0 */
    RUN_OK(TT_OP_SHIFTDMAREG(0, 10, 1, 0),   /* left by 1: 0x00000002 */
           TT_OP_SHIFTDMAREG(1, 11, 1, 0),   /* right by 1: 0x40000000 (logical) */
           TT_OP_SHIFTDMAREG(0, 12, 2, 0),   /* left by 4 */
           TT_OP_SHIFTDMAREG(1, 13, 3, 0),   /* by 0 */
           TT_OP_SHIFTDMAREGI(1, 14, 31, 0), /* right by 31: 1 */
           TT_OP_SHIFTDMAREGI(0, 15, 31, 0), /* left by 31 */
           TT_OP_SHIFTDMAREGI(0, 16, 0, 0));
    cr_expect_eq(g[10], 0x00000002);
    cr_expect_eq(g[11], 0x40000000);
    cr_expect_eq(g[12], 0x00000010);
    cr_expect_eq(g[13], 0x80000001);
    cr_expect_eq(g[14], 1);
    cr_expect_eq(g[15], 0x80000000);
    cr_expect_eq(g[16], 0x80000001);
}

Test(thcon, compares_are_unsigned_and_give_0_or_1)
{
    uint32_t *g = t->gpr[0];
    g[0] = 0xFFFFFFFF, g[1] = 1, g[2] = 63;
    for (int i = 10; i < 20; i++)
        g[i] = 0xDEAD;
    RUN_OK(TT_OP_CMPDMAREG(0, 10, 1, 0),  /* 0xFFFFFFFF > 1 (unsigned): 1 */
           TT_OP_CMPDMAREG(1, 11, 1, 0),  /* < : 0 */
           TT_OP_CMPDMAREG(2, 12, 1, 0),  /* == : 0 */
           TT_OP_CMPDMAREG(2, 13, 0, 0),  /* same register: 1 */
           TT_OP_CMPDMAREG(1, 14, 0, 1),  /* 1 < 0xFFFFFFFF: 1 */
           TT_OP_CMPDMAREGI(2, 15, 63, 2), /* 63 == 63 */
           TT_OP_CMPDMAREGI(0, 16, 63, 2), /* 63 > 63: 0 */
           TT_OP_CMPDMAREGI(1, 17, 2, 1)); /* 1 < 2 */
    cr_expect_eq(g[10], 1);
    cr_expect_eq(g[11], 0);
    cr_expect_eq(g[12], 0);
    cr_expect_eq(g[13], 1);
    cr_expect_eq(g[14], 1);
    cr_expect_eq(g[15], 1);
    cr_expect_eq(g[16], 0);
    cr_expect_eq(g[17], 1);
}

Test(thcon, undefined_modes_stop_the_run)
{
    const uint32_t words[3] = {TT_OP_BITWOPDMAREG(3, 1, 2, 3), TT_OP_SHIFTDMAREGI(2, 1, 4, 3),
                               TT_OP_CMPDMAREGI(7, 1, 4, 3)};
    const char *msg[3] = {"BITWOPDMAREG, thread T0: Mode 3 (0 AND, 1 OR, 2 XOR are defined)",
                          "SHIFTDMAREG, thread T0: Mode 2 (0 left, 1 right are defined)",
                          "CMPDMAREG, thread T0: Mode 7 (0 GT, 1 LT, 2 EQ are defined)"};
    for (int i = 0; i < 3; i++) {
        if (i) {
            tile_destroy(t);
            start(ARCH_BLACKHOLE);
        }
        RUN_ERR(ERR_UNDEF_BEHAVIOUR, words[i]);
        cr_expect_str_eq(t->err.text, msg[i]);
        cr_expect_eq(t->err.cycle, 3);
    }
}

/* ==== SETDMAREG, special form ==== */

Test(thcon, setdmareg_special_reads_packer_config_and_zero_state)
{
    uint32_t *g = t->gpr[0];
    /* Config bank 1 (ThreadConfig[0].CFG_STATE_ID_StateID = 1): packer 0 out format 5 with zero
     * compression disabled; bank 0 holds other values that must not be read. */
    thcfg_set(&t->cfg, 0, THCFG_DESC(TT_ARCH_BH, CFG_STATE_ID_StateID), 1);
    cfg_set(&t->cfg, 1, CFG_DESC(TT_ARCH_BH, THCON_SEC0_REG1_Out_data_format), 5);
    cfg_set(&t->cfg, 1, CFG_DESC(TT_ARCH_BH, THCON_SEC0_REG1_Disable_zero_compress), 1);
    cfg_set(&t->cfg, 0, CFG_DESC(TT_ARCH_BH, THCON_SEC0_REG1_Out_data_format), 9);
    cfg_set(&t->cfg, 1, CFG_DESC(TT_ARCH_BH, THCON_SEC1_REG8_Out_data_format), 0xC); /* packer 3 */
    for (int i = 4; i < 24; i++)
        g[i] = 0xFFFFFFFF;
    RUN_OK(TT_OP_SETDMAREG_SPECIAL(2, 0, 2, 0, 16),  /* 128 bits of packer 0's header: GPRs 8..11 */
           TT_OP_SETDMAREG_SPECIAL(3, 0, 2, 0, 25),  /* header fields only: GPRs 12..15 (25>>1 & 0x3C) */
           TT_OP_SETDMAREG_SPECIAL(0, 0, 2, 3, 41),  /* half 3 (DataFormat...) to high half of GPR 20 */
           TT_OP_SETDMAREG_SPECIAL(1, 0, 5, 2, 43),  /* packer 3, word 1, to GPR 21 */
           TT_OP_SETDMAREG_SPECIAL(2, 0xF, 0, 0, 8), /* AccTileSize/LastTileSize: zero state */
           TT_OP_SETDMAREG_SPECIAL(1, 0, 9, 0, 44)); /* ExponentHistogramMaxExponent: 0 */
    /* TileHeader: TileSize = 0 + 1; DataFormat at bits 16..19 of word 1, DisableZeroCompression 20 */
    cr_expect_eq(g[8], 0x00000001);
    cr_expect_eq(g[9], 0x00150000);
    cr_expect_eq(g[10], 0);
    cr_expect_eq(g[11], 0);
    cr_expect_eq(g[12], 0xFFFF0001, "reserved high half kept");
    cr_expect_eq(g[13], 0xFF15FFFF, "reserved bits 0..15 and 24..31 kept");
    cr_expect_eq(g[14], 0, "AllZeroFlags");
    cr_expect_eq(g[15], 0xFFFFFFFF, "reserved word kept");
    cr_expect_eq(g[20], 0x0015FFFF);
    cr_expect_eq(g[21], 0x000C0000);
    for (int i = 4; i < 8; i++)
        cr_expect_eq(g[i], 0, "GPR %d: packer state reads as at reset", i);
    cr_expect_eq(g[22], 0);
}

/* ==== L1: LOADIND, STOREIND ==== */

Test(thcon, loadind_sizes_alignment_and_post_increments)
{
    uint32_t *g = t->gpr[0];
    for (unsigned i = 0; i < 32; i++)
        t->l1[DATA + i] = (uint8_t)(0x10 + i); /* 10 11 12 ... 2F */
    g[4] = DATA_REG;
    g[1] = 0x00070005;   /* half-registers 2 (offset 5) and 3 (offset 7) */
    g[2] = 0x00000013;   /* half-register 4: offset 0x13 */
    g[8] = 0xAAAAAAAA, g[9] = 0xBBBBBBBB, g[10] = 0xCCCCCCCC;
    RUN_OK(TT_OP_LOADIND(3, 2, 1, 8, 4),   /* byte at DATA+5 into GPR 8's low byte; offset += 2 */
           TT_OP_LOADIND(2, 2, 2, 9, 4),   /* offset 7: half at DATA+6 (rounded down); += 4 */
           TT_OP_LOADIND(1, 2, 3, 10, 4),  /* offset 11: word at DATA+8; += 16 */
           TT_OP_LOADIND(0, 4, 0, 13, 4),  /* offset 0x13: 16 bytes at DATA+0x10 into GPRs 12..15 */
           TT_OP_LOADIND(1, 3, 0, 16, 4)); /* offset 7 (half-register 3 untouched): word at DATA+4 */
    cr_expect_eq(g[8], 0xAAAAAA15);
    cr_expect_eq(g[9], 0xBBBB1716);
    cr_expect_eq(g[10], 0x1B1A1918);
    cr_expect_eq(g[12], 0x23222120);
    cr_expect_eq(g[13], 0x27262524);
    cr_expect_eq(g[14], 0x2B2A2928);
    cr_expect_eq(g[15], 0x2F2E2D2C);
    cr_expect_eq(g[16], 0x17161514);
    cr_expect_eq(g[1], 0x0007001B, "5 + 2 + 4 + 16");
    cr_expect_eq(g[2], 0x00000013, "increment 0");
}

Test(thcon, storeind_l1_sizes_and_post_increments)
{
    uint32_t *g = t->gpr[0];
    memset(t->l1 + DATA, 0xEE, 48);
    g[4] = DATA_REG;
    g[1] = 0x00000003;   /* half-register 2: offset 3 */
    g[8] = 0x44332211;
    g[12] = 0x03020100, g[13] = 0x07060504, g[14] = 0x0B0A0908, g[15] = 0x0F0E0D0C;
    RUN_OK(TT_OP_STOREIND_L1(3, 2, 1, 8, 4),   /* byte 0x11 at DATA+3; offset 5 */
           TT_OP_STOREIND_L1(2, 2, 2, 8, 4),   /* half 0x2211 at DATA+4; offset 9 */
           TT_OP_STOREIND_L1(1, 2, 3, 8, 4),   /* word at DATA+8; offset 25 */
           TT_OP_STOREIND_L1(0, 2, 0, 14, 4)); /* GPRs 12..15 at DATA+16 (25 & ~15) */
    cr_expect_eq(l1_word(DATA), 0x11EEEEEE);
    cr_expect_eq(l1_word(DATA + 4), 0xEEEE2211);
    cr_expect_eq(l1_word(DATA + 8), 0x44332211);
    cr_expect_eq(l1_word(DATA + 12), 0xEEEEEEEE);
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(t->l1[DATA + 16 + i], i);
    cr_expect_eq(l1_word(DATA + 32), 0xEEEEEEEE);
    cr_expect_eq(g[1], 25);
}

Test(thcon, storeind_data_read_after_the_offset_increment)
{
    /* WH:STOREIND_L1.md increments *Offset before it reads *GPR: when the data GPR holds the
     * offset, the stored word carries the incremented offset. */
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    g[1] = 0x12340008; /* half-register 2 = 8 */
    RUN_OK(TT_OP_STOREIND_L1(1, 2, 3, 1, 4));
    cr_expect_eq(l1_word(DATA + 8), 0x12340018);
}

Test(thcon, l1_writes_reset_the_predecode_slots)
{
    t->gpr[0][4] = DATA_REG;
    t->gpr[0][8] = 0x00000013; /* addi x0, x0, 0 */
    for (unsigned w = DATA / 4; w < DATA / 4 + 5; w++)
        t->predecode[w].op = RV_ADDI; /* pretend decoded */
    RUN_OK(TT_OP_STOREIND_L1(0, 0, 0, 8, 4),   /* words 0..3 */
           TT_OP_ATSWAP(0, 0x03, 8, 4));       /* word 0 again */
    for (unsigned w = DATA / 4; w < DATA / 4 + 4; w++)
        cr_expect_eq(t->predecode[w].op, RV_UNDECODED);
    cr_expect_eq(t->predecode[DATA / 4 + 4].op, RV_ADDI, "the word after is untouched");
}

Test(thcon, loadind_past_l1_is_a_bad_access)
{
    t->gpr[0][4] = 0x18000; /* 0x18000 * 16 = 0x180000: the first byte past Blackhole's 1536 KiB */
    RUN_ERR(ERR_BAD_ACCESS, TT_OP_LOADIND(1, 0, 0, 8, 4));
    cr_expect_str_eq(t->err.text,
                     "LOADIND, thread T0: L1 address 0x00180000 is past the end of L1 (1536 KiB)");
    cr_expect_eq(t->err.cycle, 3);
}

Test(thcon_wh, l1_ends_at_1464_kib)
{
    t->gpr[0][4] = 1464 * 1024 / 16;
    t->gpr[0][1] = 0xFFFF0000; /* half-register 2 = 0, 3 = 0xFFFF */
    RUN_ERR(ERR_BAD_ACCESS, TT_OP_STOREIND_L1(1, 2, 0, 8, 4));
    cr_expect_str_eq(t->err.text,
                     "STOREIND, thread T0: L1 address 0x0016e000 is past the end of L1 (1464 KiB)");
}

/* ==== atomics ==== */

Test(thcon, atswap_writes_the_masked_granules)
{
    uint32_t *g = t->gpr[0];
    memset(t->l1 + DATA, 0xEE, 32);
    g[4] = DATA_REG, g[5] = DATA_REG + 1;
    g[8] = 0x11110000, g[9] = 0x33332222, g[10] = 0x55554444, g[11] = 0x77776666;
    RUN_OK(TT_OP_ATSWAP(0, 0xA5, 9, 4),  /* GPRs 8..11, granules 0, 2, 5, 7 */
           TT_OP_ATSWAP(1, 0xFF, 9, 5)); /* GPR 9 alone as word 1, zeros elsewhere */
    cr_expect_eq(l1_word(DATA + 0), 0xEEEE0000);
    cr_expect_eq(l1_word(DATA + 4), 0xEEEE2222);
    cr_expect_eq(l1_word(DATA + 8), 0x5555EEEE);
    cr_expect_eq(l1_word(DATA + 12), 0x7777EEEE);
    cr_expect_eq(l1_word(DATA + 16), 0);
    cr_expect_eq(l1_word(DATA + 20), 0x33332222);
    cr_expect_eq(l1_word(DATA + 24), 0);
    cr_expect_eq(l1_word(DATA + 28), 0);
    cr_expect_eq(g[9], 0x33332222, "nothing is swapped back");
}

Test(thcon, atincget_increments_the_low_bits_and_returns_the_old_value)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    l1_set(DATA + 0, 0xABCD00FF);
    l1_set(DATA + 4, 0xFFFFFFFF);
    l1_set(DATA + 12, 100);
    g[8] = 1, g[9] = 3, g[10] = 0xFFFFFFFF;
    RUN_OK(TT_OP_ATINCGET(7, 0, 8, 4),   /* IntWidth 7: 8-bit counter 0xFF + 1 wraps to 0 */
           TT_OP_ATINCGET(31, 1, 9, 4),  /* IntWidth 31: all 32 bits */
           TT_OP_ATINCGET(15, 3, 10, 4)); /* 16-bit: 100 + 0xFFFF = 99, high half kept */
    cr_expect_eq(l1_word(DATA + 0), 0xABCD0000);
    cr_expect_eq(l1_word(DATA + 4), 0x00000002);
    cr_expect_eq(l1_word(DATA + 12), 99);
    cr_expect_eq(g[8], 0xABCD00FF);
    cr_expect_eq(g[9], 0xFFFFFFFF);
    cr_expect_eq(g[10], 100);
}

Test(thcon, atincgetptr_pops_pushes_and_wraps)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG, g[5] = DATA_REG + 1;
    l1_set(DATA + 0, 2), l1_set(DATA + 4, 5);         /* Rd 2, Wr 5: 3 of 8 */
    l1_set(DATA + 16, 9), l1_set(DATA + 20, 15);      /* Rd 9, Wr 15 (4-bit counters) */
    RUN_OK(TT_OP_ATINCGETPTR(0, 0, 4, 0, 10, 4),  /* pop 1: Rd 2 -> 3 */
           TT_OP_ATINCGETPTR(0, 1, 4, 1, 11, 4),  /* push 2: Wr 5 -> 7 */
           TT_OP_ATINCGETPTR(1, 3, 4, 1, 12, 4),  /* NoIncr: only the test */
           TT_OP_ATINCGETPTR(0, 0, 4, 1, 13, 5)); /* push 1: Wr 15 -> 0 (wraps in 4 bits) */
    cr_expect_eq(l1_word(DATA + 0), 3);
    cr_expect_eq(l1_word(DATA + 4), 7);
    cr_expect_eq(l1_word(DATA + 20), 0);
    cr_expect_eq(g[10], 2);
    cr_expect_eq(g[11], 5);
    cr_expect_eq(g[12], 7);
    cr_expect_eq(g[13], 15);
    cr_expect_eq(t->thcon.st.retries, 0);
    /* four instructions of one attempt each: 3, 18, 33, 48; done at 63 */
    cr_expect_eq(issued_at(0, TT_OP_ATINCGETPTR(0, 0, 4, 1, 13, 5), 0), 48);
    cr_expect_eq(t->cycles, 63);
}

Test(thcon, atcas_sets_when_the_word_matches)
{
    t->gpr[0][4] = DATA_REG;
    l1_set(DATA + 8, 3);
    RUN_OK(TT_OP_ATCAS(9, 3, 2, 4), NOP);
    cr_expect_eq(l1_word(DATA + 8), 9);
    cr_expect_eq(issued_at(0, NOP, 0), 18, "one attempt: 15 cycles");
    cr_expect_eq(t->thread[0].st.stall[GS_THCON], 14);
}

Test(thcon, atcas_retries_until_a_core_writes_the_value)
{
    t->gpr[0][4] = DATA_REG;
    l1_set(DATA, 0x10); /* not 1: 32-bit compare with CmpVal */
    struct prog p = prog_at(t, base[1]);
    emit_li(&p, 5, DATA);
    emit_li(&p, 6, 1);
    for (int i = 0; i < 20; i++)
        E(&p, ADDI, 7, 7, 0, 1);
    E(&p, SW, 0, 5, 6, 0); /* around cycle 22: between the attempts at 18 and 33 */
    emit_exit(&p);
    tile_start_core(t, CORE_TRISC1, base[1]);
    RUN_OK(TT_OP_ATCAS(2, 1, 0, 4), NOP);
    cr_expect_eq(l1_word(DATA), 2);
    cr_expect_eq(t->thcon.st.attempts, 3, "3 (fails), 18 (fails), 33 (succeeds)");
    cr_expect_eq(t->thcon.st.retries, 2);
    cr_expect_eq(issued_at(0, NOP, 0), 48);
    cr_expect_eq(t->cycles, 49);
}

Test(thcon, atcas_nobody_can_satisfy_is_a_deadlock)
{
    t->gpr[0][4] = DATA_REG;
    RUN_ERR(ERR_DEADLOCK, TT_OP_ATCAS(2, 1, 0, 4));
    cr_expect_eq(t->thcon.st.attempts, 1, "no core is left to change L1: no more attempts");
}

Test(thcon, atcas_with_its_core_waiting_in_ttsync_is_a_deadlock)
{
    t->gpr[0][4] = DATA_REG;
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(TT_OP_ATCAS(2, 1, 0, 4)));
    emit_li(&p, 5, 0xFFE80004); /* CoprocessorDoneCheck: held while the ATCAS runs */
    E(&p, LW, 6, 5, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 100000), ERR_DEADLOCK, "%s", t->err.text);
    cr_expect_lt(t->cycles, 100, "stopped, not spinning until the cycle limit");
}

Test(thcon, atincgetptr_on_a_full_fifo_waits_for_a_pop)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    l1_set(DATA + 0, 0), l1_set(DATA + 4, 8); /* 8 of 8 (IntWidth 4): full */
    struct prog p = prog_at(t, base[1]);
    emit_li(&p, 5, DATA);
    emit_li(&p, 6, 1);
    for (int i = 0; i < 35; i++)
        E(&p, ADDI, 7, 7, 0, 1);
    E(&p, SW, 0, 5, 6, 0); /* Rd = 1 around cycle 37: attempts at 3, 18, 33 fail, 48 succeeds */
    emit_exit(&p);
    tile_start_core(t, CORE_TRISC1, base[1]);
    RUN_OK(TT_OP_ATINCGETPTR(0, 0, 4, 1, 10, 4), NOP);
    cr_expect_eq(l1_word(DATA + 4), 9);
    cr_expect_eq(g[10], 8);
    cr_expect_eq(t->thcon.st.retries, 3);
    cr_expect_eq(issued_at(0, NOP, 0), 63);
}

/* ==== MMIO: LOADREG, STOREREG, STOREIND (MMIO form) ==== */

#define ADDRLO(a) (((a) - 0xFFB00000u) >> 2)

Test(thcon, loadreg_reads_the_wall_clock_when_the_request_leaves)
{
    RUN_OK(TT_OP_LOADREG(8, ADDRLO(0xFFB121F0u)), TT_OP_DMANOP, TT_OP_LOADREG(9, ADDRLO(0xFFB121F0u)));
    cr_expect_eq(t->gpr[0][8], 3);
    cr_expect_eq(t->gpr[0][9], 7, "LOADREG at 3 (3 cycles), DMANOP at 6, LOADREG at 7");
    cr_expect_eq(t->cycles, 17, "the last result lands at 7 + 10");
}

Test(thcon, storereg_and_loadreg_reach_local_ram_through_the_slow_window)
{
    uint32_t *g = t->gpr[0];
    g[9] = 0xCAFEF00D;
    RUN_OK(TT_OP_STOREREG(9, ADDRLO(0xFFB18010u)), /* TRISC0's local RAM, +0x10 */
           TT_OP_LOADREG(10, ADDRLO(0xFFB18010u)));
    cr_expect_eq(t->local_ram[CORE_TRISC0][0x10], 0x0D);
    cr_expect_eq(t->local_ram[CORE_TRISC0][0x13], 0xCA);
    cr_expect_eq(g[10], 0xCAFEF00D);
}

Test(thcon, storeind_mmio_address_from_gpr_plus_offset_over_16)
{
    uint32_t *g = t->gpr[0];
    g[4] = 0x18000;       /* 0xFFB18000 */
    g[1] = 0x000001F0;    /* half-register 2: 0x1F0 >> 4 = 0x1F: 0xFFB1801F & ~3 */
    g[9] = 0x11223344, g[10] = 0x55667788;
    RUN_OK(TT_OP_STOREIND_MMIO(2, 3, 9, 4),   /* to +0x1C; offset 0x200 */
           TT_OP_STOREIND_MMIO(2, 1, 10, 4)); /* to +0x20; offset 0x202 */
    uint8_t *ram = t->local_ram[CORE_TRISC0];
    cr_expect_eq(ram[0x1C] | ram[0x1D] << 8 | ram[0x1E] << 16 | (uint32_t)ram[0x1F] << 24, 0x11223344);
    cr_expect_eq(ram[0x20] | ram[0x21] << 8 | ram[0x22] << 16 | (uint32_t)ram[0x23] << 24, 0x55667788);
    cr_expect_eq(g[1], 0x202);
}

Test(thcon, mmio_below_0xffb11000_is_undefined)
{
    RUN_ERR(ERR_UNDEF_BEHAVIOUR, TT_OP_LOADREG(8, ADDRLO(0xFFB10FFCu)));
    cr_expect_str_eq(t->err.text, "LOADREG, thread T0: MMIO address 0xffb10ffc is below 0xFFB11000");
}

Test(thcon, mmio_to_an_unmodelled_region_names_it)
{
    RUN_ERR(ERR_UNIMPLEMENTED, TT_OP_STOREREG(8, ADDRLO(0xFFB11000u)));
    cr_expect_str_eq(t->err.text,
                     "unimplemented region TDMA-RISC: Tensix MMIO store of 0xffb11000 (thread T0)");
}

/* ==== REG2FLOP, STOREIND to SrcA/SrcB ==== */

Test(thcon, reg2flop_writes_thcon_config_of_the_thread_bank)
{
    uint32_t *g = t->gpr[0];
    const unsigned thcon = 64; /* Blackhole THCON_CFGREG_BASE_ADDR32 */
    thcfg_set(&t->cfg, 0, THCFG_DESC(TT_ARCH_BH, CFG_STATE_ID_StateID), 1);
    g[7] = 0x7777;
    g[12] = 0xC0, g[13] = 0xD0, g[14] = 0xE0, g[15] = 0xF0;
    RUN_OK(TT_OP_REG2FLOP_CFG(1, 5, 7),   /* 32 bits */
           TT_OP_REG2FLOP_CFG(0, 9, 13),  /* 128 bits: words 8..11 from GPRs 12..15 */
           NOP);
    cr_expect_eq(t->cfg.cfg[1][thcon + 5], 0x7777);
    cr_expect_eq(t->cfg.cfg[1][thcon + 8], 0xC0);
    cr_expect_eq(t->cfg.cfg[1][thcon + 11], 0xF0);
    cr_expect_eq(t->cfg.cfg[1][thcon + 12], 0);
    cr_expect_eq(t->cfg.cfg[0][thcon + 5], 0, "bank 0 untouched");
    cr_expect_eq(issued_at(0, TT_OP_REG2FLOP_CFG(0, 9, 13), 0), 5, "2 cycles each");
    cr_expect_eq(issued_at(0, NOP, 0), 7);
}

Test(thcon, reg2flop_past_the_thcon_fields_is_undefined)
{
    RUN_ERR(ERR_UNDEF_BEHAVIOUR, TT_OP_REG2FLOP_CFG(1, 116, 0));
    cr_expect_str_eq(t->err.text,
                     "REG2FLOP, thread T0: ThConCfgIndex 116 is past the THCON_ configuration "
                     "(GLOBAL_CFGREG_BASE_ADDR32 - THCON_CFGREG_BASE_ADDR32 = 116)");
}

/* ---- REG2FLOP to an ADC (WH:REG2FLOP_ADC.md) ---- */

/* Every counter and checkpoint of every thread's ADCs set to 0x55, so that writes of 0 show. */
static void adc_fill(struct adc_thread *a)
{
    for (unsigned th = 0; th < 3; th++) {
        struct adc *set[3] = {&a[th].unpack[0], &a[th].unpack[1], &a[th].pack};
        for (unsigned s = 0; s < 3; s++)
            for (unsigned ch = 0; ch < 2; ch++)
                for (unsigned c = 0; c < 4; c++)
                    set[s]->ch[ch].v[c] = set[s]->ch[ch].cr[c] = 0x55;
    }
}

Test(thcon, reg2flop_adc_sizes_and_shifts)
{
    struct adc_thread exp[3];
    adc_fill(t->adc);
    adc_fill(exp);
    t->gpr[0][5] = 0x89ABCDEF;
    /* (SizeSel, OverrideThread, Shift8, ThreadSel, Channel, ADCSel, Cr, XYZW, InputReg) */
    RUN_OK(TT_OP_REG2FLOP_ADC(1, 0, 0, 0, 0, 0, 0, 0, 5), /* 32 bits into X (18): 0x3CDEF */
           TT_OP_REG2FLOP_ADC(2, 0, 0, 0, 0, 0, 0, 1, 5), /* low 16 into Y (13): 0xCDEF -> 0x0DEF */
           TT_OP_REG2FLOP_ADC(2, 0, 2, 0, 1, 0, 0, 0, 5), /* high 16 into X: 0x89AB */
           TT_OP_REG2FLOP_ADC(2, 0, 2, 0, 1, 0, 0, 1, 5), /* high 16 into Y: 0x09AB */
           TT_OP_REG2FLOP_ADC(3, 0, 0, 0, 0, 0, 0, 2, 5), /* byte 0 into Z: 0xEF */
           TT_OP_REG2FLOP_ADC(3, 0, 1, 0, 0, 0, 0, 3, 5), /* byte 1 into W: 0xCD */
           TT_OP_REG2FLOP_ADC(3, 0, 2, 0, 1, 0, 0, 2, 5), /* byte 2: 0xAB */
           TT_OP_REG2FLOP_ADC(3, 0, 3, 0, 1, 0, 0, 3, 5), /* byte 3: 0x89 */
           TT_OP_REG2FLOP_ADC(0, 0, 0, 0, 0, 1, 0, 0, 5), /* SizeSel 0 ("128 bit"): 0 */
           TT_OP_REG2FLOP_ADC(1, 0, 1, 0, 0, 1, 0, 1, 5), /* 32 bits, Shift8 1: 0 */
           TT_OP_REG2FLOP_ADC(2, 0, 1, 0, 0, 1, 0, 2, 5), /* 16 bits, Shift8 1: 0 */
           TT_OP_REG2FLOP_ADC(2, 0, 3, 0, 0, 1, 0, 3, 5), /* 16 bits, Shift8 3: 0 */
           NOP);
    struct adc *u0 = &exp[0].unpack[0], *u1 = &exp[0].unpack[1];
    u0->ch[0].v[ADC_X] = 0x3CDEF, u0->ch[0].v[ADC_Y] = 0x0DEF;
    u0->ch[1].v[ADC_X] = 0x89AB, u0->ch[1].v[ADC_Y] = 0x09AB;
    u0->ch[0].v[ADC_Z] = 0xEF, u0->ch[0].v[ADC_W] = 0xCD;
    u0->ch[1].v[ADC_Z] = 0xAB, u0->ch[1].v[ADC_W] = 0x89;
    for (unsigned c = 0; c < 4; c++)
        u1->ch[0].v[c] = 0;
    cr_expect_eq(memcmp(t->adc, exp, sizeof exp), 0, "only the named counters change");
    cr_expect_eq(t->adc[0].unpack[0].ch[0].v[ADC_X], 0x3CDEF);
    cr_expect_eq(t->adc[0].unpack[1].ch[0].v[ADC_W], 0);
    cr_expect_eq(t->adc[0].unpack[0].ch[0].cr[ADC_X], 0x55, "the checkpoint is kept");
    cr_expect_eq(issued_at(0, TT_OP_REG2FLOP_ADC(3, 0, 0, 0, 0, 0, 0, 2, 5), 0), 11);
    cr_expect_eq(issued_at(0, NOP, 0), 3 + 12 * 2, "two cycles each");
}

Test(thcon, reg2flop_adc_picks_checkpoint_set_channel_and_thread)
{
    struct adc_thread exp[3];
    adc_fill(t->adc);
    adc_fill(exp);
    t->gpr[0][6] = 0x12345;
    t->gpr[1][7] = 0x777;
    const uint32_t w1[] = {TT_OP_REG2FLOP_ADC(1, 0, 0, 0, 0, 0, 0, 0, 7)};
    kernel(CORE_TRISC1, w1, 1);
    RUN_OK(TT_OP_REG2FLOP_ADC(1, 0, 0, 0, 1, 2, 1, 3, 6), /* packers, channel 1, W checkpoint */
           TT_OP_REG2FLOP_ADC(1, 0, 0, 0, 0, 1, 1, 1, 6), /* unpacker 1, channel 0, Y checkpoint */
           TT_OP_REG2FLOP_ADC(1, 1, 0, 2, 1, 0, 0, 0, 6), /* thread 2's unpacker 0, channel 1, X */
           TT_OP_REG2FLOP_ADC(1, 1, 0, 1, 0, 2, 0, 2, 6), /* thread 1's packers, channel 0, Z */
           TT_OP_REG2FLOP_ADC(1, 1, 0, 3, 0, 0, 0, 0, 6), /* ThreadSel 3: nothing */
           TT_OP_REG2FLOP_ADC(1, 0, 0, 0, 0, 3, 0, 0, 6), /* ADCSel 3: nothing */
           NOP);
    exp[0].pack.ch[1].cr[ADC_W] = 0x45;        /* 0x12345 & 0xFF */
    exp[0].unpack[1].ch[0].cr[ADC_Y] = 0x0345; /* & 0x1FFF */
    exp[2].unpack[0].ch[1].v[ADC_X] = 0x12345;
    exp[1].pack.ch[0].v[ADC_Z] = 0x45;
    exp[1].unpack[0].ch[0].v[ADC_X] = 0x777;   /* T1 without override: its own ADCs */
    cr_expect_eq(memcmp(t->adc, exp, sizeof exp), 0, "only the named counters change");
    cr_expect_eq(t->adc[0].pack.ch[1].v[ADC_W], 0x55, "Cr writes the checkpoint alone");
    cr_expect_eq(t->adc[2].unpack[0].ch[1].cr[ADC_X], 0x55, "and Cr = 0 the counter alone");
}

/* ---- STOREIND to SrcA/SrcB (WH:STOREIND_Src.md) ----
 * Data: GPRs (DataReg & 0x3C) and +1; cell 0 from the low half of the first (Sign[15] Man7[14:8]
 * Exp8[7:0]), cell 1 from its high half (ordinary BF16), cells 2 and 3 likewise from the second.
 * Src cells hold BF16 as Sign[18] Man[17:11] 000 Exp[7:0]:
 *   0x4049C580: low 0xC580 = sign 1, man 0x45, exp 0x80 -> 0x40000|0x22800|0x80 = 0x62880;
 *               high 0x4049 = sign 0, exp 0x80, man 0x49 -> 0x24800|0x80 = 0x24880
 *   0xBF807F7F: low 0x7F7F = man 0x7F, exp 0x7F -> 0x3F87F; high 0xBF80 = -1.0 -> 0x4007F
 *   0x12345678: low 0x5678 = man 0x56, exp 0x78 -> 0x2B078; high 0x1234 = exp 0x24, man 0x34
 *               -> 0x1A024
 *   0xFFFFFFFF: both halves -> 0x7F8FF
 * Address = GPR[AddrReg] + (half-register OffsetHalfReg >> 4), 20 bits; column = (Address & 3) * 4;
 * SrcB row = Address >> 2 (< 16) + SrcRow; SrcA row = (Address >> 2) - 4 (< 16, + SrcRow; or
 * < 64 and no SrcRow with SRCA_SET_SetOvrdWithAddr), nothing written below 0. */

static unsigned src_cells_set(void)
{
    unsigned n = 0;
    for (unsigned ab = 0; ab < 2; ab++)
        for (unsigned b = 0; b < 2; b++)
            for (unsigned r = 0; r < SRC_ROWS; r++)
                for (unsigned c = 0; c < SRC_COLS; c++)
                    n += t->src.bank[ab][b].cell[r][c] != 0;
    return n;
}

static void expect_cells(unsigned ab, unsigned bank, unsigned row, unsigned col0, uint32_t c0,
                         uint32_t c1, uint32_t c2, uint32_t c3)
{
    const uint32_t want[4] = {c0, c1, c2, c3};
    for (unsigned i = 0; i < 4; i++)
        cr_expect_eq(t->src.bank[ab][bank].cell[row][col0 + i], want[i],
                     "%s bank %u row %u column %u: 0x%05x, expected 0x%05x", ab ? "SrcB" : "SrcA",
                     bank, row, col0 + i, t->src.bank[ab][bank].cell[row][col0 + i], want[i]);
}

Test(thcon, storeind_src_the_page_layout_matches_the_src_bf16_layout)
{
    /* the high half is an ordinary BF16: the page's conversion is the unpackers' one */
    cr_expect_eq(fmt_src_from_bf16(0x4049), 0x24880);
    cr_expect_eq(fmt_src_from_bf16(0xBF80), 0x4007F);
    cr_expect_eq(fmt_src_from_bf16(0x1234), 0x1A024);
}

Test(thcon, storeind_src_writes_four_bf16_cells_to_srcb)
{
    uint32_t *g = t->gpr[0];
    g[1] = 0x00000030;          /* half-register 2: offset 0x30 -> +3 */
    g[4] = 0x26;
    g[5] = 0x00100003;          /* 20 bits: 0x00003 */
    g[8] = 0x4049C580, g[9] = 0xBF807F7F;
    g[10] = g[11] = 0xFFFFFFFF; /* DataReg 10 names the group 8..11: GPRs 8 and 9 */
    t->src.unpack_bank[1] = 1;
    t->src.src_row[1][0] = 32;
    t->src.src_row[1][1] = 16; /* another thread's SrcRow: not used */
    RUN_OK(TT_OP_STOREIND_SRC(1, 2, 3, 10, 4), /* 0x26 + 3 = 0x29: row 10, columns 4..7; +16 */
           TT_OP_STOREIND_SRC(1, 2, 1, 10, 4), /* 0x26 + 4 = 0x2A: row 10, columns 8..11; +2 */
           TT_OP_STOREIND_SRC(1, 0, 0, 8, 5),  /* 0x00003: row 0, columns 12..15 */
           NOP);
    expect_cells(1, 1, 42, 4, 0x62880, 0x24880, 0x3F87F, 0x4007F);
    expect_cells(1, 1, 42, 8, 0x62880, 0x24880, 0x3F87F, 0x4007F);
    expect_cells(1, 1, 32, 12, 0x62880, 0x24880, 0x3F87F, 0x4007F);
    cr_expect_eq(src_cells_set(), 12, "nothing else is written");
    cr_expect_eq(g[1], 0x30 + 16 + 2);
    cr_expect_eq(issued_at(0, TT_OP_STOREIND_SRC(1, 2, 1, 10, 4), 0), 6, "three cycles each");
    cr_expect_eq(issued_at(0, NOP, 0), 12);
    cr_expect_eq(t->thcon.st.src_waits, 0);
}

Test(thcon, storeind_src_srca_rows_start_at_address_16)
{
    uint32_t *g = t->gpr[0];
    g[4] = 0x17, g[5] = 0x0F, g[6] = 0x4F;
    g[12] = 0x12345678, g[13] = 0xFFFFFFFF;
    t->src.src_row[0][0] = 16;
    RUN_OK(TT_OP_STOREIND_SRC(0, 0, 0, 12, 4), /* 0x17: row 5 - 4 = 1, columns 12..15; +16 */
           TT_OP_STOREIND_SRC(0, 0, 0, 12, 5), /* 0x0F: row 3 - 4 < 0: nothing */
           TT_OP_STOREIND_SRC(0, 0, 0, 12, 6), /* 0x4F: row 19 - 4 = 15, columns 12..15; +16 */
           NOP);
    expect_cells(0, 0, 17, 12, 0x2B078, 0x1A024, 0x7F8FF, 0x7F8FF);
    expect_cells(0, 0, 31, 12, 0x2B078, 0x1A024, 0x7F8FF, 0x7F8FF);
    cr_expect_eq(src_cells_set(), 8);
    cr_expect_eq(issued_at(0, TT_OP_STOREIND_SRC(0, 0, 0, 12, 6), 0), 9,
                 "the store that writes nothing still takes three cycles");
    cr_expect_eq(issued_at(0, NOP, 0), 12);
}

Test(thcon, storeind_src_srca_set_by_address_reaches_all_64_rows)
{
    uint32_t *g = t->gpr[0];
    thcfg_set(&t->cfg, 0, THCFG_DESC(TT_ARCH_BH, SRCA_SET_SetOvrdWithAddr), 1);
    g[4] = 0x10D, g[5] = 0x10; /* 0x10D: row 67 - 4 = 63, columns 4..7; 0x10: row 0, columns 0..3 */
    g[8] = 0x4049C580, g[9] = 0xBF807F7F;
    t->src.unpack_bank[0] = 1;
    t->src.src_row[0][0] = 16; /* not added with SRCA_SET_SetOvrdWithAddr */
    RUN_OK(TT_OP_STOREIND_SRC(0, 0, 0, 8, 4), TT_OP_STOREIND_SRC(0, 0, 0, 8, 5));
    expect_cells(0, 1, 63, 4, 0x62880, 0x24880, 0x3F87F, 0x4007F);
    expect_cells(0, 1, 0, 0, 0x62880, 0x24880, 0x3F87F, 0x4007F);
    cr_expect_eq(src_cells_set(), 8);
}

Test(thcon, storeind_src_reads_data_and_address_before_the_increment)
{
    /* unlike the L1 form: Datum and Addr come before "*Offset += ..." in WH:STOREIND_Src.md */
    uint32_t *g = t->gpr[0];
    g[4] = 0x20;
    g[8] = 0x3F800010; /* half-register 16 = 0x0010: offset +1; low half -> cell 0x00010 */
    g[9] = 0x4049C580;
    RUN_OK(TT_OP_STOREIND_SRC(1, 16, 3, 8, 4)); /* 0x21: row 8, columns 4..7 */
    expect_cells(1, 0, 8, 4, 0x00010, 0x0007F, 0x62880, 0x24880);
    cr_expect_eq(g[8], 0x3F800020);
    cr_expect_eq(src_cells_set(), 4);
}

Test(thcon, storeind_src_undefined_cases_stop_the_run)
{
    static const struct {
        uint32_t word, addr;
        unsigned ovrd, src_row;
        const char *msg;
    } c[] = {
        {TT_OP_STOREIND_SRC(0, 2, 0, 8, 4), 0xFFFF, 0, 0,
         "STOREIND (SrcA/SrcB form), thread T0: address 0x10000 (GPR 4 + half-register 2 >> 4, "
         "20 bits) has bits 16..19 set"},
        {TT_OP_STOREIND_SRC(1, 0, 0, 8, 4), 0x40, 0, 0,
         "STOREIND to SrcB, thread T0: row 16 (address 0x0040 >> 2) is past row 15"},
        {TT_OP_STOREIND_SRC(0, 0, 0, 8, 4), 0x50, 0, 0,
         "STOREIND to SrcA, thread T0: row 16 ((address 0x0050 >> 2) - 4) is past row 15 "
         "(SRCA_SET_SetOvrdWithAddr = 0)"},
        {TT_OP_STOREIND_SRC(0, 0, 0, 8, 4), 0x110, 1, 0,
         "STOREIND to SrcA, thread T0: row 64 ((address 0x0110 >> 2) - 4) is past row 63 "
         "(SRCA_SET_SetOvrdWithAddr = 1)"},
        /* SrcRow is 0/16/32/48 unless set behind the model's back, as here */
        {TT_OP_STOREIND_SRC(1, 0, 0, 8, 4), 0x10, 0, 60,
         "STOREIND to SrcB, thread T0: row 4 + SrcRow 60 is past row 63"},
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        if (i) {
            tile_destroy(t);
            start(ARCH_BLACKHOLE);
        }
        t->gpr[0][1] = 0x10; /* half-register 2 */
        t->gpr[0][4] = c[i].addr;
        t->gpr[0][8] = 0x3F803F80;
        thcfg_set(&t->cfg, 0, THCFG_DESC(TT_ARCH_BH, SRCA_SET_SetOvrdWithAddr), c[i].ovrd);
        t->src.src_row[1][0] = (uint8_t)c[i].src_row;
        RUN_ERR(ERR_UNDEF_BEHAVIOUR, c[i].word);
        cr_expect_str_eq(t->err.text, c[i].msg);
        cr_expect_eq(t->err.cycle, 3);
        cr_expect_eq(src_cells_set(), 0);
    }
}

/* A stand-in for the matrix unit handing SrcA banks back to the unpackers (as CLEARDVALID or a
 * Src-clearing MVMUL would; no unit that does so exists yet): thread 2's n-th NOP frees SrcA
 * bank release_bank[n]. The release happens while the NOP issues, like any instruction's effect. */
static unsigned release_bank[4], nrelease, t2_nops;

static void record_and_release(void *ctx, unsigned th, uint64_t cycle, uint32_t w)
{
    record(ctx, th, cycle, w);
    if (th == 2 && w == NOP && t2_nops < nrelease)
        t->src.bank[0][release_bank[t2_nops++]].client = SRC_CLIENT_UNPACKERS;
}

/* li x5, n; loop: addi x5, x5, -1; bne x5, x0, loop */
static void emit_delay(struct prog *p, uint32_t n)
{
    emit_li(p, 5, n);
    E(p, ADDI, 5, 5, 0, -1);
    E(p, BNE, 0, 5, 0, -4);
}

Test(thcon, storeind_src_waits_for_its_bank_holding_the_unit_and_its_thread)
{
    uint32_t *g = t->gpr[0];
    g[4] = 0x17; /* SrcA row 1, columns 12..15 (T0's SrcRow stays 0) */
    g[12] = 0x12345678, g[13] = 0xFFFFFFFF;
    release_bank[0] = 1, release_bank[1] = 0, nrelease = 2, t2_nops = 0;
    t->on_issue = record_and_release;
    /* T1 gives both SrcA banks to the matrix unit (SETDVALID at 3 and 4: bank 0, then bank 1;
     * the unpacker points at bank 0 again). */
    const uint32_t w1[] = {TT_OP_SETDVALID(0, 1), TT_OP_SETDVALID(0, 1)};
    kernel(CORE_TRISC1, w1, 2);
    /* T2, after a while, flips SrcA once more (the unpacker now points at bank 1) and then the
     * stand-in frees bank 1; after another while it frees bank 0. */
    struct prog p = prog_at(t, base[2]);
    emit_delay(&p, 30);
    emit(&p, TTINSN(TT_OP_SETDVALID(0, 1)));
    emit(&p, TTINSN(NOP));
    emit_delay(&p, 30);
    emit(&p, TTINSN(NOP));
    emit_exit(&p);
    tile_start_core(t, CORE_TRISC2, base[2]);
    /* T0: the ADD holds ThCon 3..6, the STOREIND issues at 7 and finds bank 0 with the matrix
     * unit. */
    RUN_OK(TT_OP_ADDDMAREG(8, 4, 3), TT_OP_STOREIND_SRC(0, 0, 0, 12, 4), NOP);
    uint64_t st = issued_at(0, TT_OP_STOREIND_SRC(0, 0, 0, 12, 4), 0);
    uint64_t flip = issued_at(2, TT_OP_SETDVALID(0, 1), 0), r1 = issued_at(2, NOP, 0),
             r0 = issued_at(2, NOP, 1);
    cr_assert_eq(st, 7);
    cr_assert(flip > st + 20 && r1 == flip + 1 && r0 > r1 + 20, "flip %llu, r1 %llu, r0 %llu",
              (unsigned long long)flip, (unsigned long long)r1, (unsigned long long)r0);
    /* Freeing bank 1 (where the unpacker points by then) does not end the wait: the page reads
     * the bank before its loop. Freeing bank 0 at r0 is seen at r0 + 1: the cells are written
     * then and the STOREIND is done 3 cycles later. */
    cr_expect_eq(issued_at(0, NOP, 0), r0 + 4);
    expect_cells(0, 0, 1, 12, 0x2B078, 0x1A024, 0x7F8FF, 0x7F8FF);
    cr_expect_eq(src_cells_set(), 4, "bank 1 untouched");
    cr_expect_eq(t->thcon.st.src_waits, r0 + 1 - st);
    cr_expect_eq(t->thcon.st.busy_cycles, 4 + (r0 + 4 - st));
    const struct tensix_thread *t0 = &t->thread[0];
    cr_expect_eq(t0->st.stall[GS_THCON], 3 + (r0 + 4 - (st + 1)), "4..6, then 8..r0+3");
    cr_expect_eq(thread_total(t0), t->cycles);
    cr_expect_eq(t->src.unpack_bank[0], 1);
}

Test(thcon, storeind_src_waiting_for_ever_is_a_deadlock)
{
    t->gpr[0][4] = 0x10;
    t->src.bank[1][0].client = SRC_CLIENT_MATRIX;
    RUN_ERR(ERR_DEADLOCK, TT_OP_STOREIND_SRC(1, 0, 0, 8, 4));
    cr_expect_str_eq(t->err.text, "no agent can make progress");
    cr_expect(t->thread[0].thcon_running);
    cr_expect_eq(t->thcon.done_at, CYCLE_NEVER);
    cr_expect_eq(src_cells_set(), 0);
    /* asleep: no event of its own until the bank is freed, then the very next cycle */
    cr_expect_eq(thcon_unit_desc.next_event(t), CYCLE_NEVER);
    t->src.bank[1][0].client = SRC_CLIENT_UNPACKERS;
    cr_expect_eq(thcon_unit_desc.next_event(t), t->now + 1);
}

/* ==== timing through the pipe ==== */

Test(thcon, alu_takes_three_or_four_cycles_and_freezes_its_thread)
{
    RUN_OK(TT_OP_ADDDMAREG(8, 1, 2),  /* GPRs 1 and 2: same group of four: 3 cycles */
           TT_OP_ADDDMAREG(8, 4, 3),  /* 3 and 4: different groups: 4 */
           TT_OP_ADDDMAREGI(8, 9, 9), /* immediate: 3 */
           DMANOP,                    /* 1 */
           NOP);
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREG(8, 1, 2), 0), 3);
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREG(8, 4, 3), 0), 6);
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREGI(8, 9, 9), 0), 10);
    cr_expect_eq(issued_at(0, DMANOP, 0), 13);
    cr_expect_eq(issued_at(0, NOP, 0), 14);
    const struct tensix_thread *th = &t->thread[0];
    cr_expect_eq(th->st.stall[GS_THCON], 2 + 3 + 2, "4-5, 7-9, 11-12");
    cr_expect_eq(th->st.issued, 5);
    cr_expect_eq(t->cycles, 15);
    cr_expect_eq(thread_total(th), t->cycles);
}

Test(thcon, last_instruction_keeps_the_run_going_until_it_completes)
{
    RUN_OK(TT_OP_ADDDMAREG(8, 4, 3));
    cr_expect_eq(t->cycles, 7, "issued at 3, busy through 6");
    cr_expect(!t->thread[0].thcon_running);
}

Test(thcon, other_threads_wait_for_the_unit_but_not_their_nops)
{
    const uint32_t w1[] = {DMANOP}, w2[] = {NOP, NOP};
    kernel(CORE_TRISC1, w1, 1);
    kernel(CORE_TRISC2, w2, 2);
    RUN_OK(TT_OP_ADDDMAREG(8, 4, 3), NOP); /* 4 cycles */
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREG(8, 4, 3), 0), 3, "T0 wins the round robin");
    cr_expect_eq(issued_at(1, DMANOP, 0), 7);
    cr_expect_eq(issued_at(0, NOP, 0), 7, "T0's NOP issues when its ADD completes");
    cr_expect_eq(issued_at(2, NOP, 0), 3);
    cr_expect_eq(issued_at(2, NOP, 1), 4);
    const struct tensix_thread *t1 = &t->thread[1];
    cr_expect_eq(t1->st.stall[GS_ARBITRATION], 1);
    cr_expect_eq(t1->st.stall[GS_UNIT_BUSY], 3);
    cr_expect_eq(t1->st.stall_detail[GS_UNIT_BUSY][TT_UNIT_THCON], 3);
    cr_expect_eq(t->thread[0].st.stall[GS_THCON], 3);
    cr_expect_eq(t->thread[2].st.stall[GS_THCON] + t->thread[2].st.stall[GS_UNIT_BUSY], 0);
}

Test(thcon, seven_dmanops_cover_a_load_six_do_not)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    g[8] = 100;
    l1_set(DATA, 0x12345678);
    /* LOADIND at 3 (data lands at 13), DMANOPs at 6..12, the ADD at 13 sees the data */
    RUN_OK(TT_OP_LOADIND(1, 0, 0, 8, 4), DMANOP, DMANOP, DMANOP, DMANOP, DMANOP, DMANOP, DMANOP,
           TT_OP_ADDDMAREGI(9, 1, 8));
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREGI(9, 1, 8), 0), 13);
    cr_expect_eq(g[9], 0x12345679);

    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    g = t->gpr[0];
    g[4] = DATA_REG;
    g[8] = 100;
    l1_set(DATA, 0x12345678);
    RUN_OK(TT_OP_LOADIND(1, 0, 0, 8, 4), DMANOP, DMANOP, DMANOP, DMANOP, DMANOP, DMANOP,
           TT_OP_ADDDMAREGI(9, 1, 8));
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREGI(9, 1, 8), 0), 12);
    cr_expect_eq(g[9], 101, "one cycle too early: the old value");
    cr_expect_eq(g[8], 0x12345678, "the data still arrives");
}

Test(thcon, stallwait_c0_holds_until_the_load_lands)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    l1_set(DATA, 41);
    RUN_OK(TT_OP_LOADIND(1, 0, 0, 8, 4), TT_OP_STALLWAIT_BH(B5, C0), TT_OP_ADDDMAREGI(9, 1, 8));
    cr_expect_eq(issued_at(0, TT_OP_STALLWAIT_BH(B5, C0), 0), 6);
    /* 13: data lands and C0 clears, the gate sees it and releases; 14: the ADD issues */
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREGI(9, 1, 8), 0), 14);
    cr_expect_eq(g[9], 42);
    const struct tensix_thread *th = &t->thread[0];
    cr_expect_eq(th->st.stall[GS_STALLWAIT], 6, "7..12");
    cr_expect_eq(th->st.stall_detail[GS_STALLWAIT][0], 6, "condition C0");
    cr_expect_eq(th->st.stall[GS_WAIT_RELEASE], 1);
}

Test(thcon, stallwait_c0_only_waits_for_its_own_thread)
{
    t->gpr[0][4] = DATA_REG;
    const uint32_t w1[] = {TT_OP_STALLWAIT_BH(B5, C0), TT_OP_DMANOP};
    kernel(CORE_TRISC1, w1, 2);
    RUN_OK(TT_OP_LOADIND(1, 0, 0, 8, 4));
    /* T1's STALLWAIT issues at 3 (Sync unit). C0 asks about T1's own requests, of which there
     * are none: its DMANOP is released at 4 (wait_release), finds ThCon busy with T0's LOADIND
     * at 5 (unit_busy) and issues at 6. */
    cr_expect_eq(issued_at(1, TT_OP_DMANOP, 0), 6);
    cr_expect_eq(t->thread[1].st.stall[GS_STALLWAIT], 0);
    cr_expect_eq(t->thread[1].st.stall[GS_WAIT_RELEASE], 1);
    cr_expect_eq(t->thread[1].st.stall[GS_UNIT_BUSY], 1);
}

Test(thcon, flushdma_waits_for_the_load_and_holds_the_unit)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    l1_set(DATA, 41);
    const uint32_t w1[] = {NOP, NOP, NOP, NOP, DMANOP};
    kernel(CORE_TRISC1, w1, 5);
    RUN_OK(TT_OP_LOADIND(1, 0, 0, 8, 4), TT_OP_FLUSHDMA(0), TT_OP_ADDDMAREGI(9, 1, 8));
    /* LOADIND 3..5; FLUSHDMA (ConditionMask 0 = C0..C3) from 6, at least until 8, and until
     * the data lands at 13. T1's NOPs issue at 3..6; its DMANOP reaches the gate at 7 and finds
     * the unit held by the FLUSHDMA until 13. At 13 both T1's DMANOP and T0's ADD want ThCon:
     * the round robin starts after T0 (the last winner), so T1 goes first. */
    cr_expect_eq(issued_at(0, TT_OP_FLUSHDMA(0), 0), 6);
    cr_expect_eq(issued_at(1, DMANOP, 0), 13);
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREGI(9, 1, 8), 0), 14);
    cr_expect_eq(g[9], 42);
    const struct tensix_thread *t0 = &t->thread[0], *t1 = &t->thread[1];
    cr_expect_eq(t0->st.stall[GS_THCON], 2 + 6, "FLUSHDMA 4-5, ADD 7-12");
    cr_expect_eq(t0->st.stall[GS_ARBITRATION], 1);
    cr_expect_eq(t1->st.stall_detail[GS_UNIT_BUSY][TT_UNIT_THCON], 6, "7-12");
}

Test(thcon, flushdma_with_nothing_outstanding_takes_two_cycles)
{
    RUN_OK(TT_OP_FLUSHDMA(1), NOP);
    cr_expect_eq(issued_at(0, NOP, 0), 5);
}

Test(thcon, atswap_and_atincget_requests_are_12_cycles_apart)
{
    t->gpr[0][4] = DATA_REG;
    RUN_OK(TT_OP_ATSWAP(0, 1, 8, 4), TT_OP_ATINCGET(31, 0, 9, 4), TT_OP_STOREIND_L1(1, 0, 0, 8, 4),
           NOP);
    /* ATSWAP request at 3; ATINCGET issues at 6, its request waits for 15, done at 18; the
     * STOREIND is not an atomic: 18..20 */
    cr_expect_eq(issued_at(0, TT_OP_ATINCGET(31, 0, 9, 4), 0), 6);
    cr_expect_eq(issued_at(0, TT_OP_STOREIND_L1(1, 0, 0, 8, 4), 0), 18);
    cr_expect_eq(issued_at(0, NOP, 0), 21);
    cr_expect_eq(t->thcon.st.rate_waits, 9);
    cr_expect_eq(t->thread[0].st.stall[GS_THCON], 2 + 11 + 2);
    cr_expect_eq(t->cycles, 42, "the ATINCGET result lands at 15 + 27");
}

Test(thcon, atincget_result_lands_27_cycles_after_its_request)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    l1_set(DATA, 10);
    g[8] = 5;
    RUN_OK(TT_OP_ATINCGET(31, 0, 8, 4), TT_OP_STALLWAIT_BH(B5, C0), TT_OP_ADDDMAREGI(9, 1, 8));
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREGI(9, 1, 8), 0), 31, "lands at 30, released at 31");
    cr_expect_eq(g[9], 11);
    cr_expect_eq(l1_word(DATA), 15);
}

/* ==== the RISC-V window on the GPRs ==== */

Test(thcon, trisc_sees_its_own_thread_gprs)
{
    struct prog p = prog_at(t, base[1]);
    emit_li(&p, 5, 0xFFE00000);
    emit_li(&p, 6, 0x11223344);
    E(&p, SW, 0, 5, 6, 20);   /* GPRs[1][5] */
    E(&p, LW, 10, 5, 0, 20);
    E(&p, LBU, 11, 5, 0, 21); /* byte 1: 0x33 */
    emit_li(&p, 6, 0xBEEF);
    E(&p, SH, 0, 5, 6, 22);   /* high half */
    E(&p, LW, 12, 5, 0, 20);
    E(&p, LW, 13, 5, 0, 252); /* GPRs[1][63] */
    emit_exit(&p);
    t->gpr[1][63] = 0x6363;
    cr_assert_eq(run_core(&p, CORE_TRISC1, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[1].x[10], 0x11223344);
    cr_expect_eq(t->core[1].x[11], 0x33);
    cr_expect_eq(t->core[1].x[12], 0xBEEF3344);
    cr_expect_eq(t->core[1].x[13], 0x6363);
    cr_expect_eq(t->gpr[1][5], 0xBEEF3344);
    cr_expect_eq(t->gpr[0][5], 0);
    cr_expect_eq(t->gpr[2][5], 0);
}

Test(thcon, brisc_sees_all_three_banks)
{
    struct prog p = prog_at(t, base[3]);
    emit_li(&p, 5, 0xFFE00000);
    emit_li(&p, 6, 0x7777);
    E(&p, SW, 0, 5, 6, 0x100 + 4 * 7); /* GPRs[1][7] */
    E(&p, LW, 10, 5, 0, 0x200);        /* GPRs[2][0] */
    E(&p, LW, 11, 5, 0, 0x2FC);        /* GPRs[2][63] */
    E(&p, LW, 12, 5, 0, 0x0FC);        /* GPRs[0][63] */
    emit_exit(&p);
    t->gpr[2][0] = 0x5A5A, t->gpr[2][63] = 0x263, t->gpr[0][63] = 0x63;
    cr_assert_eq(run_core(&p, CORE_BRISC, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->gpr[1][7], 0x7777);
    cr_expect_eq(t->core[CORE_BRISC].x[10], 0x5A5A);
    cr_expect_eq(t->core[CORE_BRISC].x[11], 0x263);
    cr_expect_eq(t->core[CORE_BRISC].x[12], 0x63);
}

/* A GPR load takes 4 cycles (BHR:README.md), local data RAM 2: the same program with a
 * dependent use of the loaded value runs two cycles longer. */
static uint64_t load_use_cycles(uint32_t addr)
{
    tile_destroy(t);
    start(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 5, addr);
    E(&p, LW, 10, 5, 0, 0);
    E(&p, ADDI, 10, 10, 0, 1);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    return core_cycles(&t->core[0]);
}

Test(thcon, gpr_loads_take_four_cycles)
{
    uint64_t local = load_use_cycles(MEM_LOCAL_BASE), gpr = load_use_cycles(0xFFE00000u);
    cr_expect_eq(gpr, local + 2);
}

Test(thcon, trisc_past_its_64_gprs_is_a_bad_access)
{
    struct prog p = prog_at(t, base[0]);
    emit_li(&p, 5, 0xFFE00100);
    E(&p, LW, 10, 5, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_BAD_ACCESS);
    cr_expect_str_eq(t->err.text, "load of 0xffe00100: past the Tensix GPRs TRISC0 sees "
                                  "(1 x 64 x 32 bits from 0xFFE00000)");
}

Test(thcon, gpr_written_by_tensix_is_read_by_the_trisc_after_ttsync)
{
    struct prog p = prog_at(t, base[0]);
    emit(&p, TTINSN(TT_OP_SETDMAREG_IMM(0x5678, 20)));
    emit(&p, TTINSN(TT_OP_SETDMAREG_IMM(0x1234, 21)));
    emit(&p, TTINSN(TT_OP_ADDDMAREGI(11, 1, 10)));
    emit_li(&p, 5, 0xFFE80004); /* CoprocessorDoneCheck */
    E(&p, LW, 6, 5, 0, 0);
    emit_li(&p, 5, 0xFFE00000);
    E(&p, ADD, 0, 6, 0, 0);     /* consume the TTSync load */
    E(&p, LW, 10, 5, 0, 44);    /* GPRs[0][11] */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].x[10], 0x12345679);
}

/* ==== Wormhole ==== */

Test(thcon_wh, alu_timing_without_fused_pushes)
{
    RUN_OK(TT_OP_ADDDMAREG(8, 4, 3), DMANOP, NOP); /* one push per cycle: 0, 1, 2 */
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREG(8, 4, 3), 0), 3);
    cr_expect_eq(issued_at(0, DMANOP, 0), 7);
    cr_expect_eq(issued_at(0, NOP, 0), 8);
    cr_expect_eq(t->thread[0].st.stall[GS_THCON], 3);
}

Test(thcon_wh, loadind_and_stallwait_c0)
{
    uint32_t *g = t->gpr[0];
    g[4] = DATA_REG;
    g[1] = 4; /* half-register 2: offset 4 */
    l1_set(DATA + 4, 0xFFFFFFFF);
    /* one push per cycle: LOADIND at 3 (data at 13), STALLWAIT at 6, the ADD released at 13 */
    RUN_OK(TT_OP_LOADIND(1, 2, 2, 8, 4), TT_OP_STALLWAIT_WH(B5, C0), TT_OP_ADDDMAREGI(9, 1, 8));
    cr_expect_eq(g[1], 8);
    cr_expect_eq(g[8], 0xFFFFFFFF);
    cr_expect_eq(g[9], 0);
    cr_expect_eq(issued_at(0, TT_OP_ADDDMAREGI(9, 1, 8), 0), 14);
}

Test(thcon_wh, setdmareg_special_honours_the_zero_compress_override)
{
    uint32_t *g = t->gpr[0];
    cfg_set(&t->cfg, 0, cfg_field_wh(CFGF_WH_THCON_SEC1_REG1_Out_data_format), 0xA); /* packer 2 */
    cfg_set(&t->cfg, 0, cfg_field_wh(CFGF_WH_THCON_SEC0_REG1_All_pack_disable_zero_compress_ovrd), 1);
    cfg_set(&t->cfg, 0, cfg_field_wh(CFGF_WH_THCON_SEC0_REG1_All_pack_disable_zero_compress), 0x4);
    RUN_OK(TT_OP_SETDMAREG_SPECIAL(1, 0, 4, 2, 20),  /* packer 2, word 1 -> GPR 10 */
           TT_OP_SETDMAREG_SPECIAL(1, 0, 3, 2, 22)); /* packer 1: override bit 1 is 0 */
    cr_expect_eq(g[10], 0x001A0000);
    cr_expect_eq(g[11], 0x00000000);
}

Test(thcon_wh, reg2flop_uses_the_wormhole_thcon_base)
{
    t->gpr[0][7] = 0xABCD;
    RUN_OK(TT_OP_REG2FLOP_CFG(1, 99, 7));
    cr_expect_eq(t->cfg.cfg[0][52 + 99], 0xABCD);
    tile_destroy(t);
    start(ARCH_WORMHOLE);
    RUN_ERR(ERR_UNDEF_BEHAVIOUR, TT_OP_REG2FLOP_CFG(1, 100, 7)); /* 152 - 52 = 100 */
}

Test(thcon_wh, storeind_src_reads_the_wormhole_set_by_address_bit)
{
    uint32_t *g = t->gpr[0];
    thcfg_set(&t->cfg, 0, thcfg_field_wh(THCFGF_WH_SRCA_SET_SetOvrdWithAddr), 1);
    g[4] = 0x8E; /* row 35 - 4 = 31 (past 15: only allowed by SRCA_SET_SetOvrdWithAddr), column 8 */
    g[8] = 0x4049C580, g[9] = 0xBF807F7F;
    t->src.src_row[0][0] = 48; /* not added */
    RUN_OK(TT_OP_STOREIND_SRC(0, 0, 0, 8, 4), NOP);
    expect_cells(0, 0, 31, 8, 0x62880, 0x24880, 0x3F87F, 0x4007F);
    cr_expect_eq(src_cells_set(), 4);
    cr_expect_eq(issued_at(0, NOP, 0), 6);
}
