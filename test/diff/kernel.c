/* The differential test's kernel: one parameterised program for TRISC0 that runs unchanged on
 * tensim and on Tenstorrent's functional simulator ttsim (docs/numerics.md "Checking against
 * ttsim"). Per stage of the parameter block (params.h) it unpacks tile A and tile B from L1 into
 * SrcA/SrcB (or A straight into Dst), runs one matrix-unit operation over a 64-row tile (or a
 * few tiles one after the other into consecutive Dst tiles); at the end it packs Dst rows to L1
 * in Dst's own format. The tt-llk-shaped stages and packs (tilize, matmul over several tiles,
 * the tile, tilize and untilize packs) are in llk.c. A vector-unit stage pushes a list of
 * words the host wrote (run_sfpu).
 *
 * Everything is issued from one core and Tensix thread T0, in program order, so nothing races.
 * It is written to satisfy both simulators: whole Config words from an image kept here (the
 * kernel never reads Config, which ttsim refuses for many words), a wait for the thread to be
 * idle before Config changes, UNPACR with Last and MultiContextMode set, GMPOOL/GAPOOL with
 * instr_mod19, and only instruction forms both simulators decode the same way. */
#include "kernel.h"

/* gcc may turn the image's clearing into a memset call */
void *memset(void *d, int c, unsigned n);
void *memset(void *d, int c, unsigned n)
{
    unsigned char *p = d;
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}

/* ---- Config: an image of the words this kernel owns, written whole when changed ---- */
#define IMG_WORDS 256
static uint32_t img[IMG_WORDS];
static uint8_t dirty[IMG_WORDS];

void setf(unsigned w, unsigned shift, uint32_t mask, uint32_t v)
{
    img[w] = (img[w] & ~mask) | ((v << shift) & mask);
    dirty[w] = 1;
}

void setw(unsigned w, uint32_t v)
{
    img[w] = v;
    dirty[w] = 1;
}

void flush_cfg(void)
{
    for (unsigned w = 0; w < IMG_WORDS; w++)
        if (dirty[w]) {
            CFG[w] = img[w];
            dirty[w] = 0;
        }
}

/* ADDR_MOD slot 0 of ThreadConfig, rewritten in order with the math only when it changes */
static uint32_t am_ab = ~0u, am_dst = ~0u;
static void addr_mod0(uint32_t ab, uint32_t dst)
{
    if (ab != am_ab)
        push(TT_OP_SETC16(ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32, ab));
    if (dst != am_dst)
        push(TT_OP_SETC16(ADDR_MOD_DST_SEC0_DestIncr_ADDR32, dst));
    am_ab = ab, am_dst = dst;
}
void addr_mod0_forget(void) { am_ab = am_dst = ~0u; }

/* One math instruction (AddrMod 0, no bank flip yet) and the SrcA/SrcB rows it needs. */
struct mi {
    uint32_t w;
    uint8_t a, b;
};

/* The instructions of one fidelity phase; *flip is what the last one hands back (3: both). */
static unsigned build_math(const struct dt_stage *s, struct mi *m, unsigned *flip)
{
    unsigned n = 0, f = s->flags;
    *flip = 3;
    switch (s->op) {
    case DT_OP_ELWADD: case DT_OP_ELWSUB: case DT_OP_ELWMUL: {
        unsigned add = s->op != DT_OP_ELWMUL && (f & DT_ADD_DST);
        unsigned brow = !!(f & DT_BCAST_ROW), bcol = !!(f & DT_BCAST_COL0);
        for (unsigned k = 0; k < 8; k++, n++) {
            uint32_t w = s->op == DT_OP_ELWADD ? TT_OP_ELWADD(0, 0, add, brow, bcol, 0, 8 * k)
                       : s->op == DT_OP_ELWSUB ? TT_OP_ELWSUB(0, 0, add, brow, bcol, 0, 8 * k)
                                               : TT_OP_ELWMUL(0, 0, brow, bcol, 0, 8 * k);
            m[n] = (struct mi){w, (uint8_t)(8 * k), (uint8_t)(brow ? 0 : 8 * k)};
        }
        break;
    }
    case DT_OP_MVMUL:
        /* 32x32 tiles as four 16x16 faces (rows 16f..16f+15): SrcB holds the left operand L,
         * SrcA the right one R; output face (i,j) += L(i,k) @ R(k,j), 8 rows (half h) a MVMUL */
        for (unsigned k = 0; k < 2; k++)
            for (unsigned i = 0; i < 2; i++)
                for (unsigned j = 0; j < 2; j++)
                    for (unsigned h = 0; h < 2; h++, n++)
                        m[n] = (struct mi){TT_OP_MVMUL(0, 0, 0, 0, 16 * (2 * i + j) + 8 * h),
                                           (uint8_t)(16 * (2 * k + j)),
                                           (uint8_t)(16 * (2 * i + k) + 8 * h)};
        break;
    case DT_OP_GAPOOL:
        for (unsigned g = 0; g < 16; g++, n++)
            m[n] = (struct mi){TT_OP_GAPOOL(0, 0, 1, 0, 4 * g), (uint8_t)(16 * (g / 4)),
                               (uint8_t)(8 * (g % 8))};
        break;
    case DT_OP_GMPOOL:
        for (unsigned g = 0; g < 4; g++, n++)
            m[n] = (struct mi){TT_OP_GMPOOL(0, 0, 1, 0, 0, 4 * g), (uint8_t)(16 * g), 0};
        break;
    case DT_OP_MOVA2D:
        for (unsigned k = 0; k < 8; k++, n++)
            m[n] = (struct mi){TT_OP_MOVA2D(0, 8 * k, 0, 1, 8 * k), 0, 0};
        *flip = 0;
        break;
    case DT_OP_MOVB2D:
        for (unsigned k = 0; k < 16; k++, n++)
            m[n] = (struct mi){MOVB2D_4ROWS(4 * k, 4 * k), 0, 0};
        *flip = 0;
        break;
    default:
        *flip = 0;
        break;
    }
    return n;
}

/* Dst's format: INT32 under INT8 math, else FP32 or the 16-bit format */
static unsigned dst_format(const struct dt_params *p)
{
    return p->int8 ? DT_INT32 : p->dst_fp32 ? DT_FP32 : p->dst16;
}

/* One tile of a stage: tile t of A (and B) into Dst tile t (ntiles > 1: through
 * DEST_TARGET_REG_CFG_MATH_Offset, or the unpacker's Dst address, as tt-llk's datacopy does). */
static int run_tile(const struct dt_params *p, const struct dt_stage *s, unsigned idx, unsigned t,
                    unsigned ntiles)
{
    const unsigned op = s->op;
    const unsigned use_a = op != DT_OP_MOVB2D, use_b = op != DT_OP_MOVA2D && op != DT_OP_UNPACK;
    const unsigned to_dst = op == DT_OP_UNPACK;
    unsigned phases = op == DT_OP_ELWMUL || op == DT_OP_MVMUL || op == DT_OP_GAPOOL ? s->phases : 1;
    if (phases < 1 || phases > 4)
        return 20 + idx;

    wait_idle(); /* the previous stage's instructions are done before Config changes */

    /* ALU formats: the unpackers' output formats (so that Blackhole's implied formats agree) */
    unsigned fa = use_a ? s->a_out : s->b_out, fb = use_b ? s->b_out : fa;
    SETF(ALU_FORMAT_SPEC_REG0_SrcA, fa);
    SETF(ALU_FORMAT_SPEC_REG1_SrcB, fb);
    SETF(ALU_FORMAT_SPEC_REG2_Dstacc, dst_format(p));
    SETF(ALU_ACC_CTRL_Fp32_enabled, p->dst_fp32 && !p->int8 ? 1 : 0);
    SETF(ALU_ACC_CTRL_INT8_math_enabled, p->int8 ? 1 : 0);

    if (use_a) { /* unpacker 0: a whole uncompressed 16 x 64 tile */
        setw(THCON_SEC0_REG0_TileDescriptor_ADDR32, s->a_in | 1u << 4 | 16u << 16);
        setw(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 1, 64u | 1u << 16); /* YDim 64, ZDim 1 */
        /* datums at (Base + 1) * 16; the tiles of a block follow one another */
        SETF(THCON_SEC0_REG3_Base_address, (s->a_addr + t * l1_tile_bytes(s->a_in)) / 16);
        SETF(THCON_SEC0_REG2_Out_data_format, s->a_out);
        SETF(THCON_SEC0_REG2_Throttle_mode, 2);
        SETF(THCON_SEC0_REG2_Unpack_If_Sel, to_dst);
        SETF(THCON_SEC0_REG2_Disable_zero_compress_cntx0, 1);
        SETF(THCON_SEC0_REG2_Unpack_if_sel_cntx0, to_dst);
        /* ttsim refuses less than 4 rows in; into Dst, tile t starts 64t rows further */
        SETF(THCON_SEC0_REG5_Dest_cntx0_address, 64 + (to_dst ? 1024 * t : 0));
        SETF(THCON_SEC0_REG5_Tile_x_dim_cntx0, 16);
    }
    if (use_b) { /* unpacker 1 */
        setw(THCON_SEC1_REG0_TileDescriptor_ADDR32, s->b_in | 1u << 4 | 16u << 16);
        setw(THCON_SEC1_REG0_TileDescriptor_ADDR32 + 1, 64u | 1u << 16);
        SETF(THCON_SEC1_REG3_Base_address, s->b_addr / 16);
        SETF(THCON_SEC1_REG2_Out_data_format, s->b_out);
        SETF(THCON_SEC1_REG2_Throttle_mode, 2);
        SETF(THCON_SEC1_REG2_Disable_zero_compress_cntx0, 1);
    }
    flush_cfg();

    push(TT_OP_SETC16(SRCA_SET_SetOvrdWithAddr_ADDR32,
                      to_dst ? 0 : 1u << SRCA_SET_SetOvrdWithAddr_SHAMT));
    push(TT_OP_SETADCXX(0, 1, 1, 1023, 0)); /* both unpackers: X 0..1023, a tile per UNPACR */
    push(TT_OP_SETRWC(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)); /* counters and phase to 0 */
    if ((s->flags & DT_ZERO_DST) && t == 0)
        push(ZEROACC_ALL(p->dst_fp32 ? 1 : 0));
    if (ntiles > 1 && !to_dst)
        math_dst_tile(t);
    if (use_a)
        push(UNPACR(0, to_dst ? 0 : 1));
    if (use_b)
        push(UNPACR(1, 1));

    struct mi m[16];
    unsigned flip, n = build_math(s, m, &flip);
    unsigned ca = 0, cb = 0; /* the SrcA/SrcB counters after SETRWC */
    for (unsigned ph = 0; ph < phases; ph++)
        for (unsigned i = 0; i < n; i++) {
            unsigned end_of_phase = i + 1 == n, last = end_of_phase && ph + 1 == phases;
            unsigned na = end_of_phase ? m[0].a : m[i + 1].a, nb = end_of_phase ? m[0].b : m[i + 1].b;
            if (m[i].a != ca || m[i].b != cb)
                return 30 + idx; /* the walk went wrong (a bug here) */
            /* slot 0 moves the counters to the next instruction's rows; the phase's last
             * instruction steps the fidelity phase, the stage's last one clears it */
            uint32_t ab = FIELD(ADDR_MOD_AB_SEC0_SrcAIncr, (na - ca) & 63) |
                          FIELD(ADDR_MOD_AB_SEC0_SrcBIncr, (nb - cb) & 63);
            uint32_t dst = last ? FIELD(ADDR_MOD_DST_SEC0_FidelityClear, 1)
                         : end_of_phase ? FIELD(ADDR_MOD_DST_SEC0_FidelityIncr, 1) : 0;
            addr_mod0(ab, dst);
            push(m[i].w | (last ? flip : 0u) << 22); /* FlipSrcB, FlipSrcA [23:22] */
            ca = na, cb = nb;
        }
    if (!to_dst && (op == DT_OP_MOVA2D || op == DT_OP_MOVB2D))
        push(TT_OP_CLEARDVALID(use_b, use_a, 0, 0)); /* hand the banks back */
    return 0;
}

/* DT_OP_SFPU: the vector unit's Config (MOD0_FMT_SRCB resolves by SFPU_Fp32_enabled and the
 * SrcB format; the PRNG seed when asked), the RWCs cleared, ADDR_MOD slots 0 (nothing moves:
 * the program's own SFPLOAD/SFPSTORE), 1 (Dst += 2) and 2 (Dst cleared) for the words under
 * test, then the host's words in order (test/diff/sfpu.c builds them; Dst was filled by the
 * stage before). */
static int run_sfpu(const struct dt_stage *s, unsigned idx)
{
    const volatile uint32_t *prog = (const volatile uint32_t *)s->a_addr;
    const uint32_t n = prog[0];
    if (n > DT_SFPU_MAX_WORDS)
        return 50 + idx;
    wait_idle();
    SETF(ALU_ACC_CTRL_SFPU_Fp32_enabled, (s->flags & DT_SFPU_FP32) ? 1 : 0);
    SETF(ALU_FORMAT_SPEC_REG1_SrcB, s->b_out);
    if (s->flags & DT_SFPU_SEED)
        SETF(PRNG_SEED_Seed_Val, s->prng_seed);
    flush_cfg();
    addr_mod0(0, 0);
    push(TT_OP_SETC16(ADDR_MOD_AB_SEC1_SrcAIncr_ADDR32, 0));
    push(TT_OP_SETC16(ADDR_MOD_DST_SEC1_DestIncr_ADDR32, FIELD(ADDR_MOD_DST_SEC1_DestIncr, 2)));
    push(TT_OP_SETC16(ADDR_MOD_AB_SEC2_SrcAIncr_ADDR32, 0));
    push(TT_OP_SETC16(ADDR_MOD_DST_SEC2_DestIncr_ADDR32, FIELD(ADDR_MOD_DST_SEC2_DestClear, 1)));
    push(TT_OP_SETRWC(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1));
    for (uint32_t i = 1; i <= n; i++)
        push(prog[i]);
    return 0;
}

static int run_stage(const struct dt_params *p, const struct dt_stage *s, unsigned idx)
{
    const unsigned op = s->op, n = s->ct ? s->ct : 1;
    int rc = 0;
    if (op == DT_OP_NONE || op >= DT_OP_COUNT)
        return 10 + idx;
    if (op == DT_OP_TILIZE)
        rc = run_tilize(p, s, idx);
    else if (op == DT_OP_MATMUL)
        rc = run_matmul(p, s, idx);
    else if (op == DT_OP_SFPU)
        rc = run_sfpu(s, idx);
    else if (n > DT_MAX_TILES || (n > 1 && op != DT_OP_MOVA2D && op != DT_OP_UNPACK && op != DT_OP_ELWADD))
        return 40 + idx;
    else
        for (unsigned t = 0; t < n && !rc; t++)
            rc = run_tile(p, s, idx, t, n);
    if (!rc && n > 1 && op != DT_OP_MATMUL) { /* later stages find Dst and the unpacker at tile 0 */
        math_dst_tile(0);
        SETF(THCON_SEC0_REG5_Dest_cntx0_address, 64);
    }
    if (!rc)
        STATUS[0] = idx + 1;
    return rc;
}

/* The packer's formats, counters and Dst row stride: Dst's own format out, no compression,
 * no edge masking, output at DT_OUT. */
void pack_config(const struct dt_params *p)
{
    const unsigned dfmt = dst_format(p);
    SETF(PCK_DEST_RD_CTRL_Read_32b_data, p->dst_fp32 ? 1 : 0);
    SETF(THCON_SEC0_REG1_In_data_format, dfmt);
    SETF(THCON_SEC0_REG1_Out_data_format, dfmt);
    SETF(THCON_SEC0_REG1_Disable_zero_compress, 1);
    SETF(THCON_SEC0_REG1_L1_Dest_addr, DT_OUT / 16 - 1); /* data at (L1_Dest_addr + 1) * 16 */
#ifdef TENSIM_ARCH_WH
    /* ttsim (Wormhole) checks that the four packers agree on formats and counters */
    SETF(THCON_SEC0_REG8_In_data_format, dfmt);
    SETF(THCON_SEC0_REG8_Out_data_format, dfmt);
    SETF(THCON_SEC0_REG8_Disable_zero_compress, 1);
    SETF(THCON_SEC1_REG1_In_data_format, dfmt);
    SETF(THCON_SEC1_REG1_Out_data_format, dfmt);
    SETF(THCON_SEC1_REG1_Disable_zero_compress, 1);
    SETF(THCON_SEC1_REG8_In_data_format, dfmt);
    SETF(THCON_SEC1_REG8_Out_data_format, dfmt);
    SETF(THCON_SEC1_REG8_Disable_zero_compress, 1);
    SETF(PACK_COUNTERS_SEC1_pack_reads_per_xy_plane, 16);
    SETF(PACK_COUNTERS_SEC2_pack_reads_per_xy_plane, 16);
    SETF(PACK_COUNTERS_SEC3_pack_reads_per_xy_plane, 16);
#endif
    SETF(PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16);
    SETF(PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    SETF(PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16 * (p->dst_fp32 ? 4 : 2)); /* one Dst row in bytes */
}

static void pack_out(const struct dt_params *p)
{
    wait_idle();
    pack_config(p);
    flush_cfg();

    /* ADDR_MOD_PACK slot 0: Y(src) += 4 rows; slot 1 (the last PACR): clear Y(src) and Y(dst) */
    push(TT_OP_SETC16(ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32, FIELD(ADDR_MOD_PACK_SEC0_YsrcIncr, 4)));
    push(TT_OP_SETC16(ADDR_MOD_PACK_SEC1_YsrcIncr_ADDR32,
                      FIELD(ADDR_MOD_PACK_SEC1_YsrcClear, 1) | FIELD(ADDR_MOD_PACK_SEC1_YdstClear, 1)));
    push(TT_OP_SETADCXX(1, 0, 0, PACK_X_END, 0));
    unsigned n = p->pack_rows / 4;
    for (unsigned r = 0; r < n; r++)
        push(r + 1 == n ? PACR(1, 1) : PACR(0, 0));
    wait_idle();
}

static int pack(const struct dt_params *p)
{
    switch (p->pack_mode) {
    case DT_PACK_ROWS: pack_out(p); return 0;
    case DT_PACK_TILES: return pack_tiles(p);
    case DT_PACK_TILIZE: return pack_tilize(p);
    case DT_PACK_UNTILIZE: return pack_untilize(p);
    default: return 6;
    }
}

static int run(const struct dt_params *p)
{
    STATUS[0] = 0;
    if (p->magic != DT_MAGIC)
        return 2;
    if (p->nstages < 1 || p->nstages > DT_MAX_STAGES)
        return 3;
    if (p->pack_rows < 4 || p->pack_rows > 64 || p->pack_rows % 4)
        return 4;
    if (!p->dst_fp32 && p->dst16 != DT_BF16 && p->dst16 != DT_FP16)
        return 5;
    if (p->pack_mode != DT_PACK_ROWS && (p->tiles < 1 || p->tiles > DT_MAX_TILES))
        return 7;
    if (p->pack_mode == DT_PACK_UNTILIZE) {
        wait_idle();
        dst_remap_for_untilize(); /* before anything writes Dst, as tt-llk's untilize init */
    }
    for (unsigned i = 0; i < p->nstages; i++) {
        int rc = run_stage(p, &p->st[i], i);
        if (rc)
            return rc;
    }
    return pack(p);
}

/* The run's outcome goes to the mailbox, which the host polls: the return value at +16, then
 * DONE. Then tensim takes the exit ecall in the SDK's start-up code (riscv/sdk/crt0.S) and ttsim,
 * which refuses ecall on a TRISC, finds the core spinning here. */
int main(void)
{
    const struct dt_params *p = (const struct dt_params *)DT_PARAMS;
    volatile uint32_t *mailbox = (volatile uint32_t *)DT_MAILBOX;
    int rc = run(p);
    mailbox[4] = (uint32_t)rc;
    mailbox[0] = DT_DONE;
    if (!p->ecall)
        for (;;)
            ;
    return rc;
}
