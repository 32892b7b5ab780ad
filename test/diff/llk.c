/* The differential test's kernels shaped like tt-llk's (tenstorrent/tt-llk, read at 36b092e;
 * the facts are theirs, the code ours): Blackhole tilize (llk_unpack_tilize.h, the A2D datacopy
 * of llk_math_eltwise_unary_datacopy.h, the `tilize` pack of llk_pack.h and cpack_common.h),
 * Blackhole pack untilize (llk_pack_untilize.h) and matmul over rt x ct tiles
 * (llk_unpack_AB_matmul.h, llk_math_matmul.h), with the plain tile pack of llk_pack.h.
 *
 * tt-llk spreads these over three threads, MOP templates and replay buffers; here thread T0
 * issues the same instruction sequences in the order a template would expand them, the
 * unpacks of a tile just before the math that consumes it (one thread cannot run ahead of
 * itself by more than the two Src banks). docs/numerics.md "Checking against ttsim". */
#include "kernel.h"

/* GPRs of thread 0. tt-llk gives the unpack and pack threads their own (ckernel_gpr_map.h);
 * with one thread the numbers are ours. Sizes and addresses are in 16-byte units. */
enum {
    GPR_TMP0 = 12,        /* RDCFG result, the next tile's base address */
    GPR_TMP_LO = 18,      /* SrcB tile step when SrcA is reused: tile size x kt */
    GPR_OUT_ADDR = 20,    /* the packer's L1_Dest_addr */
    GPR_TILE_SIZE_A = 36, /* a SrcA (unpacker 0) tile */
    GPR_TILE_SIZE_B = 37, /* a SrcB (unpacker 1) tile */
    GPR_KT_DIM = 38,      /* matmul inner dimension in tiles */
    GPR_OUT_OFFSET = 50,  /* pack untilize: one output row of the block */
};

static void set_gpr(unsigned r, uint32_t v)
{
    push(TT_OP_SETDMAREG_IMM(v & 0xFFFF, 2 * r));
    push(TT_OP_SETDMAREG_IMM(v >> 16, 2 * r + 1));
}

/* ---- the MOP and replay expanders (WH:MOPExpander.md, WH:REPLAY.md) ---- */

#define MOP_CFG ((volatile uint32_t *)0xFFB80000u) /* this thread's MopCfg[9], write-only */

/* Template 1, tt-llk's ckernel_template: `outer` times (start, the inner loop, end0, end1),
 * the inner loop `inner` times loop (alternating with loop1 unless that is a NOP), its last
 * instruction replaced by last_outer on the final outer iteration and last_inner on others. */
struct mop1 {
    uint32_t outer, inner, start, end0, end1, loop, loop1, last_outer, last_inner;
};

static struct mop1 mop1(unsigned outer, unsigned inner, uint32_t loop)
{
    return (struct mop1){outer, inner, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, loop, TT_OP_NOP, loop, loop};
}

/* The expander samples MopCfg while it expands: the thread goes idle before it is rewritten. */
static void mop1_set(const struct mop1 *m)
{
    const uint32_t w[9] = {m->outer, m->inner, m->start, m->end0, m->end1,
                           m->loop,  m->loop1, m->last_outer, m->last_inner};
    wait_idle();
    for (unsigned i = 0; i < 9; i++)
        MOP_CFG[i] = w[i];
}
#define MOP1_RUN TT_OP_MOP(1, 0, 0)

/* Template 0 as tt-llk's unpack template uses it: no B, no A1-A3, A0 per iteration. */
static void mop0_set(uint32_t a0)
{
    wait_idle();
    MOP_CFG[1] = 0;
    MOP_CFG[3] = a0;
    MOP_CFG[7] = TT_OP_NOP;
}

/* The next `len` instructions are recorded in the replay buffer from `idx`, not executed. */
static void replay_load(unsigned idx, unsigned len) { push(TT_OP_REPLAY(idx, len, 0, 1)); }
#define REPLAY_RUN(idx, len) TT_OP_REPLAY(idx, len, 0, 0)

static unsigned datum_bytes(unsigned fmt)
{
    return fmt == DT_FP32 || fmt == DT_TF32 ? 4 : fmt == DT_BF16 || fmt == DT_FP16 ? 2 : 1;
}

/* One tile in L1 with no header: BFP exponents (64 bytes) first, then 1024 datums. */
uint32_t l1_tile_bytes(unsigned fmt)
{
    switch (fmt) {
    case DT_BFP8: return 64 + 1024;
    case DT_BFP4: return 64 + 512;
    case DT_BFP2: return 64 + 256;
    default: return 1024 * datum_bytes(fmt);
    }
}

/* ---- math: ADDR_MOD slots and the Dst tile ---- */

static const uint8_t am_ab_word[8] = {
    ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32, ADDR_MOD_AB_SEC1_SrcAIncr_ADDR32,
    ADDR_MOD_AB_SEC2_SrcAIncr_ADDR32, ADDR_MOD_AB_SEC3_SrcAIncr_ADDR32,
    ADDR_MOD_AB_SEC4_SrcAIncr_ADDR32, ADDR_MOD_AB_SEC5_SrcAIncr_ADDR32,
    ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32};
static const uint8_t am_dst_word[8] = {
    ADDR_MOD_DST_SEC0_DestIncr_ADDR32, ADDR_MOD_DST_SEC1_DestIncr_ADDR32,
    ADDR_MOD_DST_SEC2_DestIncr_ADDR32, ADDR_MOD_DST_SEC3_DestIncr_ADDR32,
    ADDR_MOD_DST_SEC4_DestIncr_ADDR32, ADDR_MOD_DST_SEC5_DestIncr_ADDR32,
    ADDR_MOD_DST_SEC6_DestIncr_ADDR32, ADDR_MOD_DST_SEC7_DestIncr_ADDR32};

/* A counter's update: add incr; cr: add it to the carriage-return copy and load that; clr: 0. */
struct rwc {
    uint8_t incr, cr, clr;
};
#define SRC_AM(x, X)                                                                           \
    (FIELD(ADDR_MOD_AB_SEC0_Src##X##Incr, (x).incr) | FIELD(ADDR_MOD_AB_SEC0_Src##X##CR, (x).cr) | \
     FIELD(ADDR_MOD_AB_SEC0_Src##X##Clear, (x).clr))

static void set_addr_mod(unsigned slot, struct rwc a, struct rwc b, struct rwc d, unsigned fid_incr)
{
    push(TT_OP_SETC16(am_ab_word[slot], SRC_AM(a, A) | SRC_AM(b, B)));
    push(TT_OP_SETC16(am_dst_word[slot], FIELD(ADDR_MOD_DST_SEC0_DestIncr, d.incr) |
                                             FIELD(ADDR_MOD_DST_SEC0_DestCR, d.cr) |
                                             FIELD(ADDR_MOD_DST_SEC0_DestClear, d.clr) |
                                             FIELD(ADDR_MOD_DST_SEC0_FidelityIncr, fid_incr)));
    if (slot == 0)
        addr_mod0_forget();
}

/* tt-llk's math set_dst_write_addr: the matrix unit's Dst rows start at tile t (64 rows a
 * tile, in either Dst mode). */
void math_dst_tile(unsigned t) { push(TT_OP_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 64 * t)); }

/* SETRWC: hand back SrcA (bit 0) and/or SrcB (bit 1), reset the counters named by `set`
 * (bit 0 SrcA, 1 SrcB, 2 Dst, 3 fidelity phase); tt-llk's CLR_* and SET_* masks. */
static uint32_t setrwc(unsigned clear, unsigned set)
{
    return TT_OP_SETRWC(clear >> 1 & 1, clear & 1, 0, 0, 0, 0, 0, 0, 0, set >> 3 & 1, set >> 2 & 1,
                        set >> 1 & 1, set & 1);
}

static void mvmul(unsigned slot, unsigned clear)
{
#ifdef TENSIM_ARCH_WH
    /* Wormhole's MVMUL names slots 0..3; ADDR_MOD_SET_Base moves it to 4..7 (WH:MVMUL.md
     * "AddrMod"; tt-llk's set_addr_mod_base) */
    if (slot >= 4)
        push(TT_OP_SETC16(ADDR_MOD_SET_Base_ADDR32, 1));
    push(TT_OP_MVMUL_WH(clear >> 1 & 1, clear & 1, 0, slot & 3, 0));
    if (slot >= 4)
        push(TT_OP_SETC16(ADDR_MOD_SET_Base_ADDR32, 0));
#else
    push(TT_OP_MVMUL_BH(clear >> 1 & 1, clear & 1, 0, slot, 0));
#endif
}

/* ---- tilize ---- */

/* The unpacker in tilize mode: rows of the block Shift_amount * 16 bytes apart (a 12-bit value
 * over the three context fields), `xdim` datums a row group (Tile_x_dim), Z stepping Tile_x_dim
 * x YDim (1) datums: the next face to the right. */
static void tilize_unpack_config(const struct dt_params *p, const struct dt_stage *s, unsigned ct,
                                 unsigned to_dst, unsigned xdim)
{
    const uint32_t row = 32 * ct * datum_bytes(s->a_in) >> 4;
    SETF(ALU_FORMAT_SPEC_REG0_SrcA, s->a_out);
    SETF(ALU_FORMAT_SPEC_REG1_SrcB, s->a_out);
    SETF(ALU_FORMAT_SPEC_REG2_Dstacc, p->dst_fp32 ? DT_FP32 : p->dst16);
    SETF(ALU_ACC_CTRL_Fp32_enabled, p->dst_fp32 ? 1 : 0);
    setw(THCON_SEC0_REG0_TileDescriptor_ADDR32, s->a_in | 1u << 4 | xdim << 16);
    setw(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 1, 1u | 4u << 16); /* YDim 1, ZDim 4 faces */
    SETF(THCON_SEC0_REG2_Out_data_format, s->a_out);
    SETF(THCON_SEC0_REG2_Throttle_mode, 2);
    SETF(THCON_SEC0_REG2_Tileize_mode, 1);
    SETF(THCON_SEC0_REG2_Haloize_mode, 0);
    SETF(THCON_SEC0_REG2_Shift_amount_cntx0, row & 15);
    SETF(THCON_SEC0_REG2_Shift_amount_cntx1, row >> 4 & 15);
    SETF(THCON_SEC0_REG2_Shift_amount_cntx2, row >> 8 & 15);
    SETF(THCON_SEC0_REG2_Unpack_If_Sel, to_dst);
    SETF(THCON_SEC0_REG2_Unpack_if_sel_cntx0, to_dst);
    SETF(THCON_SEC0_REG2_Disable_zero_compress_cntx0, 1);
    SETF(THCON_SEC0_REG5_Dest_cntx0_address, 64); /* SrcA row 0 (the first four are skipped) */
    SETF(THCON_SEC0_REG5_Tile_x_dim_cntx0, xdim);
    SETF(THCON_SEC0_REG5_Tile_x_dim_cntx1, xdim);
    SETF(THCON_SEC1_REG2_Out_data_format, s->a_out); /* SrcB's (zero) bank format */
}

/* The A2D datacopy's ADDR_MOD slots: 8 rows of SrcA and Dst a MOVA2D (2). */
static void datacopy_addr_mods(void)
{
    const struct rwc z = {0, 0, 0}, one = {1, 0, 0}, eight = {8, 0, 0};
    set_addr_mod(0, one, z, one, 0);
    set_addr_mod(2, eight, z, eight, 0);
    set_addr_mod(3, z, z, z, 0);
}

/* tt-llk's A2D datacopy MOP: `rows` rows 8 at a time (ELWADD with a zero SrcB for an FP32
 * Dst), then both banks handed back and the Src counters reset; Dst's counter runs on. */
static void datacopy(const struct dt_params *p, unsigned rows)
{
    struct mop1 m = mop1(1, rows / 8, p->dst_fp32 ? TT_OP_ELWADD(0, 0, 0, 0, 0, 2, 0) : TT_OP_MOVA2D(0, 0, 2, 1, 0));
    m.end0 = setrwc(3, 3);
    mop1_set(&m);
    push(MOP1_RUN);
}

/* The start of a tilize stage: configuration, counters, and Dst cleared if asked. */
static void tilize_begin(const struct dt_params *p, const struct dt_stage *s, unsigned ct,
                         unsigned to_dst, unsigned xdim)
{
    wait_idle();
    tilize_unpack_config(p, s, ct, to_dst, xdim);
    if (to_dst) /* tt-llk's unpack set_dst_write_addr: Z (a face) is 256 Dst datums on */
        SETF(UNP0_ADDR_CTRL_ZW_REG_1_Zstride, 256 * datum_bytes(s->a_out));
    flush_cfg();
    push(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, to_dst ? 0 : 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    push(setrwc(0, 15));
    if (s->flags & DT_ZERO_DST)
        push(ZEROACC_ALL(p->dst_fp32 ? 1 : 0));
    datacopy_addr_mods();
}

/* The unpacker's base address (and, into Dst, its Dst address for tile t), from the RISC-V
 * as tt-llk's _llk_unpack_configure_single_address_ writes it. */
static void tilize_address(uint32_t base, unsigned to_dst, unsigned t)
{
    wait_idle();
    SETF(THCON_SEC0_REG3_Base_address, base);
    if (to_dst) /* 16 * (4 + 64t): four rows in, tile t */
        SETF(THCON_SEC0_REG5_Dest_cntx0_address, 16 * (4 + 64 * t));
    flush_cfg();
}

static void tilize_end(unsigned to_dst)
{
    math_dst_tile(0);
    if (to_dst)
        SETF(THCON_SEC0_REG5_Dest_cntx0_address, 64);
    SETF(THCON_SEC0_REG2_Tileize_mode, 0); /* a later stage unpacks plainly */
}

#ifndef TENSIM_ARCH_WH
/* Blackhole UNPACR_NOP (tt-llk's fields): SrcB cleared to zero (Unpack_Pop 1) and handed over */
#define SRCB_ZERO_VALID TT_OP_UNPACR_NOP_BH(1, 0, 0, 1, 0, 0, 0, 0, 1)

/* Blackhole's tilize of 16- and 32-bit data (llk_unpack_tilize.h): the whole tile in one
 * UNPACR (Tile_x_dim and ADC X cover 1024 datums; Blackhole reads 32-datum rows, so L1 row r
 * lands in rows 2r and 2r + 1, docs/unpack.md "Blackhole tilize"), SrcB zeroed and handed
 * over so that the 64-row datacopy can release both banks; FP32 straight into Dst. */
static void tilize_whole(const struct dt_params *p, const struct dt_stage *s, unsigned ct, unsigned to_dst)
{
    const uint32_t col = 32 * datum_bytes(s->a_in) / 16; /* one tile across, 16-byte units */
    tilize_begin(p, s, ct, to_dst, 1024);
    push(TT_OP_SETADCXX(0, 0, 1, 1023, 0));
    for (unsigned t = 0; t < ct; t++) {
        push(TT_OP_SETADCZW(0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1)); /* unpacker 0: Z, W to 0 */
        tilize_address(s->a_addr / 16 + t * col, to_dst, t);
        struct mop1 m = mop1(1, 1, to_dst ? TT_OP_UNPACR(0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1) : SRCB_ZERO_VALID);
        if (!to_dst)
            m.start = TT_OP_UNPACR(0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1);
        mop1_set(&m);
        push(MOP1_RUN);
        if (to_dst)
            continue;
        math_dst_tile(t);
        datacopy(p, 64);
        push(setrwc(0, 4));
    }
    tilize_end(to_dst);
}
#endif

/* The face-by-face tilize: Wormhole's (tt_llk_wormhole_b0 llk_unpack_tilize.h), also
 * Blackhole's for 8-bit data. An UNPACR takes one face, 16 rows of 16 datums (ADC X 0..255),
 * and moves Z on to the face to its right; the base address moves 16 block rows down for the
 * lower faces. Into SrcA, each face goes with a zeroed SrcB to a 16-row datacopy: tt-llk's MOP
 * unpacks two faces, but its math runs on another thread; here the SrcB clear, which waits for
 * the matrix unit to release its bank, would wait for math that comes after it, so the MOP
 * takes one face. Into Dst (FP32) the MOP takes two, Z stepping the Dst address a face. */
static void tilize_faces(const struct dt_params *p, const struct dt_stage *s, unsigned ct, unsigned to_dst)
{
    const uint32_t col = 32 * datum_bytes(s->a_in) / 16, low = 32 * ct * datum_bytes(s->a_in);
    tilize_begin(p, s, ct, to_dst, 16);
    push(TT_OP_SETADCXX(0, 0, 1, 255, 0));
    struct mop1 m = mop1(to_dst ? 2 : 1, 1, TT_OP_UNPACR(0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1));
    if (!to_dst) {
        m.start = TT_OP_UNPACR(0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1);
#ifdef TENSIM_ARCH_WH
        m.loop = TT_OP_UNPACR_NOP_ZEROSRC(1, 0, 0, 0);
        m.loop1 = m.last_outer = m.last_inner = TT_OP_UNPACR_NOP_SETDVALID(1);
#else
        m.loop = m.last_outer = m.last_inner = SRCB_ZERO_VALID;
#endif
    }
    for (unsigned t = 0; t < ct; t++) {
        push(TT_OP_SETADCZW(0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1)); /* unpacker 0: Z, W to 0 */
        math_dst_tile(t);
        for (unsigned half = 0; half < 2; half++) {
            if (half) /* the lower faces: Z back to the left face (Dst's Z runs on) */
                push(TT_OP_SETADCZW(0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 1));
            tilize_address(s->a_addr / 16 + t * col + half * low, to_dst, t);
            for (unsigned f = 0; f < (to_dst ? 1 : 2); f++) {
                mop1_set(&m);
                push(MOP1_RUN);
                if (!to_dst)
                    datacopy(p, 16);
            }
        }
        push(setrwc(0, 4));
    }
    tilize_end(to_dst);
}

int run_tilize(const struct dt_params *p, const struct dt_stage *s, unsigned idx)
{
    const unsigned ct = s->ct ? s->ct : 1, to_dst = s->a_out == DT_FP32;
    if (ct > DT_MAX_TILES || (to_dst && !p->dst_fp32))
        return 60 + idx;
#ifdef TENSIM_ARCH_WH
    tilize_faces(p, s, ct, to_dst);
#else
    if (datum_bytes(s->a_in) == 1)
        tilize_faces(p, s, ct, to_dst);
    else
        tilize_whole(p, s, ct, to_dst);
#endif
    return 0;
}

/* ---- matmul over rt x ct tiles ---- */

/* tt-llk's unpack replay for a streamed tile: the UNPACR, then the step of its base address
 * (read it, add a tile, wait for the add, write it back; the NOP lets the two-cycle WRCFG
 * finish). Recorded at `idx`. */
#define UNPACK_REPLAY_LEN 6
static void unpack_replay(unsigned idx, unsigned which)
{
    const unsigned w = which ? THCON_SEC1_REG3_Base_address_ADDR32 : THCON_SEC0_REG3_Base_address_ADDR32;
    replay_load(idx, UNPACK_REPLAY_LEN);
    push(UNPACR(which, 1));
    push(TT_OP_RDCFG(GPR_TMP0, w));
    push(TT_OP_ADDDMAREG(GPR_TMP0, GPR_TMP0, which ? GPR_TMP_LO : GPR_TILE_SIZE_A));
    push(STALLWAIT(STALL_CFG, COND_THCON));
    push(TT_OP_WRCFG(GPR_TMP0, 0, w));
    push(TT_OP_NOP);
}

/* llk_math_matmul.h's ADDR_MOD slots for a 32x32 x 32x32 product: 8 rows of SrcB and Dst a
 * MVMUL (0), the next SrcA face (1), back to SrcA face 0 and on to SrcB face 2 (2), SrcA faces
 * 2-3 and SrcB face 1 with Dst back to row 0 (4; SrcB wraps at 64), all counters reset and the
 * next fidelity phase (5). */
static void matmul_addr_mods(unsigned hifi)
{
    const struct rwc z = {0, 0, 0}, p8 = {8, 0, 0}, p16 = {16, 0, 0}, cr = {0, 1, 0};
    set_addr_mod(0, z, p8, p8, 0);
    set_addr_mod(1, p16, cr, p8, 0);
    set_addr_mod(2, cr, (struct rwc){32, 1, 0}, p8, 0);
    set_addr_mod(4, (struct rwc){32, 1, 0}, (struct rwc){48, 1, 0}, cr, 0);
    set_addr_mod(5, (struct rwc){0, 1, 1}, (struct rwc){0, 1, 1}, (struct rwc){0, 1, 1}, hifi);
}

/* The math replay of one fidelity phase: 16 MVMULs (Wormhole: and the ADDR_MOD_SET_Base
 * writes around slots 4 and 5); its last hands back the streamed operand at LoFi. Returns its
 * length. */
static unsigned matmul_replay(unsigned hifi, unsigned clear)
{
    static const uint8_t slot[15] = {0, 1, 0, 2, 0, 1, 0, 4, 0, 1, 0, 2, 0, 1, 0};
#ifdef TENSIM_ARCH_WH
    const unsigned len = 20;
#else
    const unsigned len = 16;
#endif
    replay_load(0, len);
    for (unsigned i = 0; i < 15; i++)
        mvmul(slot[i], 0);
    mvmul(5, hifi ? 0 : clear);
    return len;
}

/* tt-llk's matmul MOP: the replay once per fidelity phase; at HiFi a SETRWC after the phases
 * hands back the streamed operand and resets the counters and the phase. */
static void matmul_tile(unsigned phases, unsigned clear, unsigned len)
{
    struct mop1 m = mop1(1, phases, REPLAY_RUN(0, len));
    if (phases > 1)
        m.end0 = setrwc(clear, 15);
    mop1_set(&m);
    push(MOP1_RUN);
}

static void matmul_unpack_config(const struct dt_params *p, const struct dt_stage *s)
{
    SETF(ALU_FORMAT_SPEC_REG0_SrcA, s->a_out);
    SETF(ALU_FORMAT_SPEC_REG1_SrcB, s->b_out);
    SETF(ALU_FORMAT_SPEC_REG2_Dstacc, p->dst_fp32 ? DT_FP32 : p->dst16);
    SETF(ALU_ACC_CTRL_Fp32_enabled, p->dst_fp32 ? 1 : 0);
    setw(THCON_SEC0_REG0_TileDescriptor_ADDR32, s->a_in | 1u << 4 | 16u << 16);
    setw(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 1, 64u | 1u << 16);
    SETF(THCON_SEC0_REG2_Out_data_format, s->a_out);
    SETF(THCON_SEC0_REG2_Throttle_mode, 2);
    SETF(THCON_SEC0_REG2_Tileize_mode, 0);
    SETF(THCON_SEC0_REG2_Unpack_If_Sel, 0);
    SETF(THCON_SEC0_REG2_Disable_zero_compress_cntx0, 1);
    SETF(THCON_SEC0_REG2_Unpack_if_sel_cntx0, 0);
    SETF(THCON_SEC0_REG5_Dest_cntx0_address, 64);
    SETF(THCON_SEC0_REG5_Tile_x_dim_cntx0, 16);
    setw(THCON_SEC1_REG0_TileDescriptor_ADDR32, s->b_in | 1u << 4 | 16u << 16);
    setw(THCON_SEC1_REG0_TileDescriptor_ADDR32 + 1, 64u | 1u << 16);
    SETF(THCON_SEC1_REG2_Out_data_format, s->b_out);
    SETF(THCON_SEC1_REG2_Throttle_mode, 2);
    SETF(THCON_SEC1_REG2_Disable_zero_compress_cntx0, 1);
}

/* tt-llk: the operand with fewer tiles is "reused": it is unpacked once per pass and stays in
 * its bank while the other operand's tiles stream through, each UNPACR followed by the
 * RDCFG/ADDDMAREG/WRCFG step of its unpacker's base address. ct >= rt keeps SrcB (in0, tiles
 * B_ik, row-major rt x kt) and streams SrcA (in1, tiles A_kj, kt x ct, a row apart by one
 * tile); else SrcA is kept and SrcB steps down a column: tile size x kt (MULDMAREG). The
 * inner dimension is the outer loop (tt-metal's matmul calls the LLK once per k), each pass
 * accumulating into the same Dst tiles. */
int run_matmul(const struct dt_params *p, const struct dt_stage *s, unsigned idx)
{
    const unsigned rt = s->rt ? s->rt : 1, ct = s->ct ? s->ct : 1, kt = s->kt ? s->kt : 1;
    const unsigned reuse_a = ct >= rt, passes = reuse_a ? rt : ct, stream = reuse_a ? ct : rt;
    const uint32_t tsa = l1_tile_bytes(s->a_in) / 16, tsb = l1_tile_bytes(s->b_in) / 16;
    if (rt * ct > DT_MAX_TILES || rt * kt > DT_MAX_TILES || kt * ct > DT_MAX_TILES || s->phases < 1 ||
        s->phases > 4)
        return 50 + idx;
    wait_idle();
    matmul_unpack_config(p, s);
    flush_cfg();
    push(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32, 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    push(TT_OP_SETADCXX(0, 1, 1, 1023, 0));
    push(setrwc(0, 15));
    if (s->flags & DT_ZERO_DST)
        push(ZEROACC_ALL(p->dst_fp32 ? 1 : 0));
    set_gpr(GPR_TILE_SIZE_A, tsa);
    set_gpr(GPR_TILE_SIZE_B, tsb);
    set_gpr(GPR_KT_DIM, kt);
    matmul_addr_mods(s->phases > 1);
    if (!reuse_a)
        push(TT_OP_MULDMAREG(GPR_TMP_LO, GPR_TILE_SIZE_B, GPR_KT_DIM));
    const unsigned len = matmul_replay(s->phases > 1, reuse_a ? 1 : 2);
    unpack_replay(len, reuse_a ? 0 : 1);
    for (unsigned k = 0; k < kt; k++)
    for (unsigned t = 0; t < passes; t++) {
        wait_idle(); /* the previous pass's address steps are done: set the pass's bases */
        SETF(THCON_SEC0_REG3_Base_address, s->a_addr / 16 + (k * ct + (reuse_a ? 0 : t)) * tsa);
        SETF(THCON_SEC1_REG3_Base_address, s->b_addr / 16 + ((reuse_a ? t : 0) * kt + k) * tsb);
        flush_cfg();
        push(UNPACR(reuse_a ? 1 : 0, 1));
        for (unsigned r = 0; r < stream; r++) {
            /* tt-llk runs the unpack MOP over all streamed tiles at once from its own thread;
             * one thread can only be two banks ahead of its math, so a MOP per tile */
            mop0_set(REPLAY_RUN(len, UNPACK_REPLAY_LEN));
            push(TT_OP_MOP(0, 0, 0));
            math_dst_tile(reuse_a ? ct * t + r : t + r * ct);
            matmul_tile(s->phases, reuse_a ? 1 : 2, len);
        }
        push(setrwc(reuse_a ? 2 : 1, 15)); /* the kept operand's bank goes back */
    }
    math_dst_tile(0);
    return 0;
}

/* ---- packs ---- */

/* tt-llk's program_packer_destination: L1_Dest_addr through a GPR and WRCFG, the first write
 * with bit 31 set, the GPR's high half then restored for later ADDDMAREG steps. */
static void pack_dest(uint32_t byte_addr)
{
    const uint32_t a = byte_addr / 16 - 1; /* the packer writes at (L1_Dest_addr + 1) * 16 */
    set_gpr(GPR_OUT_ADDR, a | 1u << 31);
    push(STALLWAIT(STALL_CFG, COND_THCON));
    push(TT_OP_WRCFG(GPR_OUT_ADDR, 0, THCON_SEC0_REG1_L1_Dest_addr_ADDR32));
    push(TT_OP_SETDMAREG_IMM(a >> 16, 2 * GPR_OUT_ADDR + 1));
    push(TT_OP_DMANOP);
}

/* ADDR_MOD_PACK slot: Y(src), Y(dst) increments and clears, Z(src) increment and clear. */
static void pack_addr_mod(unsigned slot, unsigned ys, unsigned ys_clr, unsigned yd, unsigned yd_clr,
                          unsigned zs, unsigned zs_clr)
{
    static const uint8_t word[4] = {ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32, ADDR_MOD_PACK_SEC1_YsrcIncr_ADDR32,
                                    ADDR_MOD_PACK_SEC2_YsrcIncr_ADDR32, ADDR_MOD_PACK_SEC3_YsrcIncr_ADDR32};
    push(TT_OP_SETC16(word[slot], FIELD(ADDR_MOD_PACK_SEC0_YsrcIncr, ys) |
                                      FIELD(ADDR_MOD_PACK_SEC0_YsrcClear, ys_clr) |
                                      FIELD(ADDR_MOD_PACK_SEC0_YdstIncr, yd) |
                                      FIELD(ADDR_MOD_PACK_SEC0_YdstClear, yd_clr) |
                                      FIELD(ADDR_MOD_PACK_SEC0_ZsrcIncr, zs) |
                                      FIELD(ADDR_MOD_PACK_SEC0_ZsrcClear, zs_clr)));
}

#define SET_W(t) TT_OP_SETADC(1, 0, 0, 0, 3, t) /* packer ADC channel 0 W: the Dst tile */
#define RESET_Z TT_OP_SETADCZW(1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1)

static uint32_t out_tile_bytes(const struct dt_params *p) { return 1024u * (p->dst_fp32 ? 4 : 2); }

/* The packer's MOP (programmed by the caller) once per Dst tile: W to the tile, the tile's L1
 * address, the MOP, Z back to the top face; X covers 0..x_end datums a PACR. */
static int pack_each_tile(const struct dt_params *p, unsigned x_end)
{
    push(TT_OP_SETADCXX(1, 0, 0, x_end, 0));
    for (unsigned t = 0; t < p->tiles; t++) {
        push(SET_W(t));
        pack_dest(DT_OUT + t * out_tile_bytes(p));
        push(MOP1_RUN);
        push(RESET_Z);
    }
    wait_idle();
    return 0;
}

/* The strides of cpack_common.h's set_packer_strides: a Dst row, Z (`zrows` rows) and a tile. */
static void pack_strides(const struct dt_params *p, unsigned zrows)
{
    const unsigned x = p->dst_fp32 ? 4 : 2;
    SETF(PCK0_ADDR_CTRL_ZW_REG_0_Zstride, zrows * 16 * x);
    SETF(PCK0_ADDR_CTRL_ZW_REG_0_Wstride, 1024 * x);
}


/* llk_pack.h's plain pack, tile by tile (W = tile): Blackhole four rows a PACR, Z counting
 * faces; Wormhole packer 0, 64 datums (four rows) a PACR. */
int pack_tiles(const struct dt_params *p)
{
    wait_idle();
    pack_config(p);
    pack_strides(p, 16);
    flush_cfg();
#ifdef TENSIM_ARCH_WH
    pack_addr_mod(0, 4, 0, 0, 0, 0, 0);
    pack_addr_mod(1, 0, 1, 0, 1, 0, 0);
#else
    pack_addr_mod(0, 4, 0, 4, 0, 0, 0);
    pack_addr_mod(1, 0, 1, 0, 1, 0, 1);
    pack_addr_mod(2, 0, 1, 4, 0, 1, 0);
#endif
#ifdef TENSIM_ARCH_WH
    struct mop1 m = mop1(1, 16, PACR(0, 0));
    m.last_outer = m.last_inner = PACR(1, 1);
#else
    /* four faces of four PACRs; a face's last moves Z on, the tile's last closes it */
    struct mop1 m = mop1(4, 4, TT_OP_PACR_BH(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    m.last_inner = TT_OP_PACR_BH(0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0);
    m.last_outer = TT_OP_PACR_BH(0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1);
#endif
    mop1_set(&m);
    return pack_each_tile(p, PACK_X_END);
}

#ifndef TENSIM_ARCH_WH
/* Blackhole's `tilize` pack: the tilize unpacker left L1 row r in Dst rows 2r (columns 0-15)
 * and 2r + 1 (16-31), so a face is every other row: read interfaces 0 and 2 (rows y, y + 2)
 * for faces 0 and 2, 1 and 3 for faces 1 and 3; Y(src) += 4 a PACR, Z = the lower half. */
#define PACR_TILIZE(mask, am, last) TT_OP_PACR_BH(0, 0, 0, am, 0, 0, mask, 0, 1, 0, 0, last)

int pack_tilize(const struct dt_params *p)
{
    if (datum_bytes(p->st[p->nstages - 1].a_in) == 1) /* tt-llk skips the workaround: plain */
        return pack_tiles(p);
    wait_idle();
    pack_config(p);
    pack_strides(p, 32);
    SETF(PCK0_ADDR_CTRL_ZW_REG_1_Zstride, 16 * 16 * (p->dst_fp32 ? 4 : 2));
    flush_cfg();
    pack_addr_mod(0, 4, 0, 2, 0, 0, 0);
    pack_addr_mod(1, 0, 1, 0, 1, 0, 0);
    pack_addr_mod(2, 0, 1, 0, 1, 1, 0);
    /* the replay: a face of even rows, the next of odd rows but its last PACR, which the MOP
     * adds (Z on to the lower faces; the tile's very last closes it) */
    replay_load(0, 15);
    for (unsigned i = 0; i < 8; i++)
        push(PACR_TILIZE(0x5, i < 7 ? 0 : 1, 0));
    for (unsigned i = 0; i < 7; i++)
        push(PACR_TILIZE(0xA, 0, 0));
    struct mop1 m = mop1(2, 1, REPLAY_RUN(0, 15));
    m.loop1 = m.last_inner = PACR_TILIZE(0xA, 2, 0);
    m.last_outer = PACR_TILIZE(0xA, 2, 1);
    m.end0 = TT_OP_SETADCZW(1, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0); /* Z(dst) = 2, as tt-llk */
    mop1_set(&m);
    return pack_each_tile(p, 15);
}

/* tt-llk's untilize init on the math side (_llk_math_reconfig_remap_): the strided Dst read
 * needs DEST_ACCESS_CFG remap_addrs and swizzle_32b. */
void dst_remap_for_untilize(void)
{
    SETF(DEST_ACCESS_CFG_remap_addrs, 1);
    SETF(DEST_ACCESS_CFG_swizzle_32b, 1);
    flush_cfg();
}

/* Blackhole pack untilize of `tiles` tiles as one 32 x 32n row-major block: per output row y,
 * tile after tile (W from 15 + 1, wrapping through Dst), a strided PACR reads Dst rows y and
 * y + 16 (the row of faces 0 and 1, or 2 and 3 once Z moves 32 rows), the row's last PACR
 * closes it, and the L1 address steps one block row (ADDDMAREG, WRCFG). */
#define PACR_UNTILIZE(last) TT_OP_PACR_BH(0, 0, 1, 0, 0, 0, 0x3, 0, 0, 0, 0, last)

/* The MOP of one face row: 16 times (W back to its CR copy 15; per tile W += 1 and a PACR, the
 * last closing the output row; Y += 1 and the replay that moves L1_Dest_addr a block row on). */
static void untilize_mop(unsigned n)
{
    replay_load(0, 4);
    push(TT_OP_ADDDMAREG(GPR_OUT_ADDR, GPR_OUT_ADDR, GPR_OUT_OFFSET));
    push(STALLWAIT(STALL_CFG, COND_THCON));
    push(TT_OP_WRCFG(GPR_OUT_ADDR, 0, THCON_SEC0_REG1_L1_Dest_addr_ADDR32));
    push(TT_OP_NOP);
    struct mop1 m = mop1(16, n, TT_OP_INCADCZW(1, 0, 0, 0, 0, 0, 1, 0));
    m.start = TT_OP_ADDRCRZW(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0);
    m.loop1 = PACR_UNTILIZE(0);
    m.last_outer = m.last_inner = PACR_UNTILIZE(1);
    m.end0 = TT_OP_INCADCXY(1, 0, 0, 0, 0, 0, 1, 0);
    m.end1 = REPLAY_RUN(0, 4);
    mop1_set(&m);
}

int pack_untilize(const struct dt_params *p)
{
    const unsigned n = p->tiles;
    wait_idle();
    pack_config(p);
    pack_strides(p, 32);
    flush_cfg();
    pack_addr_mod(0, 0, 0, 0, 0, 0, 0);
    set_gpr(GPR_OUT_OFFSET, n * 32 * (p->dst_fp32 ? 4 : 2) / 16);
    push(TT_OP_SETADCXX(1, 0, 0, 15, 0));
    pack_dest(DT_OUT);
    push(TT_OP_SETADCZW(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)); /* Z(src) = 0 */
    push(SET_W(15));                                          /* and its CR copy */
    push(TT_OP_SETADCXY(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1)); /* X, Y(src) = 0 */
    untilize_mop(n);
    for (unsigned h = 0; h < 2; h++) {
        push(MOP1_RUN);
        push(TT_OP_INCADCZW(1, 0, 0, 0, 0, 0, 0, 1)); /* Z += 1: faces 2 and 3 */
        push(TT_OP_SETADCXY(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0));
    }
    push(RESET_Z);
    push(SET_W(0));
    wait_idle();
    return 0;
}
#else
int pack_tilize(const struct dt_params *p) { return pack_tiles(p); } /* faces are in order */
int pack_untilize(const struct dt_params *p) { (void)p; return 9; }
void dst_remap_for_untilize(void) {}
#endif
