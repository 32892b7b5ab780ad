/* Whole-kernel calibration, figure 2 (issue 16 item 3): the matmul unpack row, one in0 tile
 * through an explicit UNPACR into SrcB plus two in1 tiles into SrcA through a template-0 MOP
 * that plays a six-instruction replay, timed as blackhole-py's docs/unpack-backend-microbench.md
 * and examples/microbench_unpack_backend.py did on silicon (shared/calibration.md "Whole-kernel
 * figures": 37.5 cycles per row steady inside 2x2 subblocks, 51.3 for a standalone row).
 *
 * The silicon method, re-expressed with our sdk encoders (TRISC0, timed; TRISC1 runs
 * unpack_t1.c, which hands the source banks back in a loop, as silicon's companion did):
 *  - set-up (untimed): both unpackers BF16, one tile per UNPACR (X 0..1023); GPR 0x24 = the
 *    tile size in 16-byte units; replay slots 0..5 and 6..11 each hold UNPACR(SrcA, FlipSrc,
 *    Last), RDCFG of the SrcA base word, ADDDMAREG base += tile size, STALLWAIT(B7 Config, C0
 *    ThCon), WRCFG of it back, NOP (slot 6's copy uses the context-1 base word); MopCfg
 *    template 0 takes A0 = REPLAY(0, 6) when its mask bit is clear, SkipA0 = REPLAY(6, 6) when
 *    set; semaphore 5 (UNPACK_SYNC) SEMINIT max 2.
 *  - a row (RISC-V): wait until semaphore 5 < 2 (lw, andi 0xFE, fence and retry); two mul/add
 *    for the tile addresses; read the local context word; store the SrcA and SrcB base words of
 *    that context; post semaphore 5 (sw zero); push STALLWAIT(B3 Unpacker, C10 TRISC config),
 *    UNPACR(SrcB, FlipSrc, Last), MOP(template 0, Count1 1, mask 0 or 0xFF by context),
 *    SEMGET(5); flip the context word and SETC16 UNPACK_MISC_CFG (0 / 257).
 *  - loops: N iterations of {body} between two cycle reads; an iteration of the empty loop body
 *    (one addi) is subtracted per iteration. Rows: "standalone" = one row per iteration;
 *    "steady" = a 2x2 subblock with bw 4 (SETADCZW, then 8 rows) per iteration, divided by 8.
 *    Nothing drains before the second cycle read, exactly as on silicon: up to two rows are
 *    still in the Tensix pipeline when it is taken (semaphore 5's max).
 * Silicon read the wall clock (three loads); we read the cycle CSR. Results: cycles x100 per
 * row, at CALIB_WK_UNPACK: [0] steady, [1] standalone; [2] = the done flag TRISC1 polls. */
#include <stdint.h>

#include "calib.h"
#include "tensim.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

#define ITERS 10
#define BW 4
#define TILE_BYTES 2048u
#define SCRATCH0 0x50000u /* in0 tiles (SrcB) */
#define SCRATCH1 0x90000u /* in1 tiles (SrcA) */
#define SEM_UNPACK_SYNC 5
#define GPR_TILE_SIZE_A 0x24
#define MOP_CFG ((volatile uint32_t *)0xFFB80000u)
#define CTX_WORD ((volatile uint32_t *)0xFFB00F00u) /* local data RAM: the context in use */
#define CFG_WORDS ((volatile uint32_t *)0xFFEF0000u)

/* UNPACR(WhichUnpacker, Ch1YInc, Ch1ZInc, Ch0YInc, Ch0ZInc, ContextNumber, ContextADC,
 * MultiContextMode, FlipSrc, AllDatumsAreZero, UseContextCounter, RowSearch, Last) */
#define UNPACR_SRCA TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1)
#define UNPACR_SRCB TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1)
#define STALL_CFG_THCON TT_OP_STALLWAIT(1u << 7, 1u << 0)
#define STALL_UNPACK_TRISC_CFG TT_OP_STALLWAIT(1u << 3, 1u << 10)

static inline uint32_t opaque(uint32_t x)
{
    __asm__ volatile("" : "+r"(x)); /* keep the index multiplications, as silicon's code has */
    return x;
}

/* One matmul unpack row; in0 / in1 are tile indices. */
static inline __attribute__((always_inline)) void row(uint32_t in0, uint32_t in1)
{
    volatile uint32_t *sem = (volatile uint32_t *)TENSIM_SEMAPHORE(SEM_UNPACK_SYNC);
    while (*sem & 0xFEu)
        tensim_fence();
    const uint32_t size = opaque(TILE_BYTES / 16); /* a register, as silicon's a4 / a5 */
    const uint32_t a0 = opaque(in0) * size + SCRATCH0 / 16 - 1;
    const uint32_t a1 = opaque(in1) * size + SCRATCH1 / 16 - 1;
    const uint32_t ctx = *CTX_WORD;
    CFG_WORDS[THCON_SEC0_REG3_Base_address_ADDR32 + (ctx ? 1 : 0)] = a1;
    CFG_WORDS[THCON_SEC1_REG3_Base_address_ADDR32 + (ctx ? 1 : 0)] = a0;
    *sem = 0; /* SEMPOST from the RISC-V side */
    TTI_INSN(STALL_UNPACK_TRISC_CFG);
    TTI_INSN(UNPACR_SRCB);
    if (ctx)
        TTI_INSN(TT_OP_MOP(0, 1, 0xFF));
    else
        TTI_INSN(TT_OP_MOP(0, 1, 0));
    TTI_INSN(TT_OP_SEMGET(1u << SEM_UNPACK_SYNC));
    *CTX_WORD = 1 - ctx;
    if (ctx)
        TTI_INSN(TT_OP_SETC16(UNPACK_MISC_CFG_CfgContextOffset_0_ADDR32, 0));
    else
        TTI_INSN(TT_OP_SETC16(UNPACK_MISC_CFG_CfgContextOffset_0_ADDR32, 257));
}

static void descriptor(unsigned addr32)
{
    CFG_WORDS[addr32 + 0] = 0x5u | 1u << 4 | 16u << 16; /* BF16, uncompressed, XDim 16 */
    CFG_WORDS[addr32 + 1] = 64u | 1u << 16;             /* YDim 64, ZDim 1: one tile */
    CFG_WORDS[addr32 + 2] = 0;
    CFG_WORDS[addr32 + 3] = 0;
}

static void setup(void)
{
    descriptor(THCON_SEC0_REG0_TileDescriptor_ADDR32);
    tensim_cfg_set(THCON_SEC0_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC0_REG2_Throttle_mode_RMW, 2); /* tt-llk's Blackhole default */
    descriptor(THCON_SEC1_REG0_TileDescriptor_ADDR32);
    tensim_cfg_set(THCON_SEC1_REG2_Out_data_format_RMW, 0x5);
    tensim_cfg_set(THCON_SEC1_REG2_Throttle_mode_RMW, 2);
    for (unsigned c = 0; c < 2; c++) {
        CFG_WORDS[THCON_SEC0_REG3_Base_address_ADDR32 + c] = SCRATCH1 / 16 - 1;
        CFG_WORDS[THCON_SEC1_REG3_Base_address_ADDR32 + c] = SCRATCH0 / 16 - 1;
    }
    /* a whole tile into SrcA needs rows past 15 (docs/unpack.md); as bf16_tiles.h does */
    tensim_cfg_set(UNP0_ADDR_BASE_REG_1_Base_RMW, 4 * 16 * 2);
    TTI_INSN(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    TTI_INSN(TT_OP_SETADCXX(0, 0, 1, 1023, 0));
    TTI_INSN(TT_OP_SETADCXX(0, 1, 0, 1023, 0));
    TTI_INSN(TT_OP_SETDMAREG_IMM(TILE_BYTES / 16, 2 * GPR_TILE_SIZE_A));
    TTI_INSN(TT_OP_SETDMAREG_IMM(0, 2 * GPR_TILE_SIZE_A + 1));

    const uint32_t nop = TT_OP_NOP;
    MOP_CFG[0] = 0;
    MOP_CFG[1] = 0; /* template 0 flags: no B, no A1..A3 */
    MOP_CFG[2] = nop;
    MOP_CFG[3] = TT_OP_REPLAY(0, 6, 0, 0); /* A0 */
    MOP_CFG[4] = nop;
    MOP_CFG[5] = nop;
    MOP_CFG[6] = nop;
    MOP_CFG[7] = TT_OP_REPLAY(6, 6, 0, 0); /* SkipA0 */
    MOP_CFG[8] = nop;

    for (unsigned c = 0; c < 2; c++) {
        const unsigned base = THCON_SEC0_REG3_Base_address_ADDR32 + c;
        /* REPLAY(Index, Count, Exec, Load): record the next six instructions */
        if (c == 0)
            TTI_INSN(TT_OP_REPLAY(0, 6, 0, 1));
        else
            TTI_INSN(TT_OP_REPLAY(6, 6, 0, 1));
        TT_PUSH(UNPACR_SRCA);
        TT_PUSH(TT_OP_RDCFG(0xC, base));
        TT_PUSH(TT_OP_ADDDMAREG(0xC, GPR_TILE_SIZE_A, 0xC));
        TT_PUSH(STALL_CFG_THCON);
        TT_PUSH(TT_OP_WRCFG(0xC, 0, base));
        TT_PUSH(nop);
    }
    TTI_INSN(TT_OP_SEMINIT(2, 0, 1u << SEM_UNPACK_SYNC));
    tensim_wait_coproc_done();
    *CTX_WORD = 0;
    TTI_INSN(TT_OP_SETC16(UNPACK_MISC_CFG_CfgContextOffset_0_ADDR32, 0));
}

#define TIMED(BODY)                                                                            \
    ({                                                                                         \
        const uint32_t t_start = tensim_cycle();                                               \
        for (unsigned n = opaque(ITERS); n != 0; n--) {                                        \
            BODY;                                                                              \
        }                                                                                      \
        tensim_cycle() - t_start;                                                              \
    })

int main(void)
{
    volatile uint32_t *const out = (volatile uint32_t *)CALIB_WK_UNPACK;
    out[2] = 0;
    setup();

    uint32_t sink = 0;
    const uint32_t empty = TIMED(__asm__ volatile("addi %0, %0, 1" : "+r"(sink)));
    const uint32_t single = TIMED(row(0, 0));
    const uint32_t sub = TIMED({
        TTI_INSN(TT_OP_SETADCZW(0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1));
        for (unsigned i = 0; i < BW; i++) {
            row(i, 2 * i);
            row(BW + i, 2 * i);
        }
    });
    tensim_wait_coproc_done();
    /* adjusted cycles per row x100: (loop - empty) / (ITERS * rows per iteration) */
    out[0] = (sub - empty) * 100u / (ITERS * 2 * BW);
    out[1] = (single - empty) * 100u / ITERS;
    tensim_fence();
    out[2] = 1;
    return 0;
}
