/* The vector unit's moves between Dst and LReg: SFPLOAD and SFPSTORE (WH/BH:SFPLOAD.md,
 * WH/BH:SFPSTORE.md, functional models; shared/spec/sfpu.md A.4). One instruction moves 32
 * datums: lane L is Dst row (Addr & ~3) + L / 8, column 2 * (L & 7), + 1 for the odd half.
 * Dst is reached only through its owner (units/dest.h) and the RWCs through the tile
 * (Q_RWC_DST, SIG_PARTIAL_ADDR_MOD: their owner is the matrix unit). Dst holds the hardware's
 * shuffled layouts (docs/formats.md "Register layouts"), so the raw 16-bit modes see the bits
 * the hardware would. */
#include <stdio.h>

#include "../core/services.h"
#include "../core/rules.h"
#include "../core/tile.h"
#include "cfg.h"
#include "dest.h"
#include "formats.h"
#include "sfpu_lanes.h"

/* Mod0 (SFPLOAD.md / SFPSTORE.md "Supporting definitions") */
enum { FMT_SRCB = 0, FMT_FP16 = 1, FMT_BF16 = 2, FMT_FP32 = 3, FMT_INT32 = 4, FMT_INT8 = 5,
       FMT_UINT16 = 6, FMT_HI16 = 7, FMT_INT16 = 8, FMT_LO16 = 9, FMT_INT32_ALL = 10,
       FMT_ZERO = 11, FMT_INT32_SM = 12, FMT_INT8_COMP = 13, FMT_LO16_ONLY = 14,
       FMT_HI16_ONLY = 15 };

_Static_assert(TT_SAME_BITS(SFPLOAD_BH_VD, SFPLOAD_WH_VD) && TT_SAME_BITS(SFPLOAD_BH_Mod0, SFPLOAD_WH_Mod0) &&
               TT_SAME_BITS(SFPLOAD_BH_Imm10, SFPLOAD_WH_Imm10) &&
               TT_SAME_BITS(SFPSTORE_BH_VD, SFPLOAD_BH_VD) && TT_SAME_BITS(SFPSTORE_BH_Mod0, SFPLOAD_BH_Mod0) &&
               TT_SAME_BITS(SFPSTORE_BH_Imm10, SFPLOAD_BH_Imm10) &&
               TT_SAME_BITS(SFPSTORE_WH_VD, SFPLOAD_BH_VD) && TT_SAME_BITS(SFPSTORE_WH_Mod0, SFPLOAD_BH_Mod0) &&
               TT_SAME_BITS(SFPSTORE_WH_Imm10, SFPLOAD_BH_Imm10) &&
               TT_SAME_BITS(SFPSTORE_BH_AddrMod, SFPLOAD_BH_AddrMod) &&
               TT_SAME_BITS(SFPSTORE_WH_AddrMod, SFPLOAD_WH_AddrMod),
               "SFPLOAD and SFPSTORE share their layout; only AddrMod differs between WH and BH");

/* The fields both instructions share (AddrMod is 2 bits on WH, 3 on BH). */
struct ldst {
    unsigned vd, mod0, addr_mod, imm10;
};

static struct ldst fields(uint32_t w, bool wh)
{
    return (struct ldst){TT_GET_SFPLOAD_BH_VD(w), TT_GET_SFPLOAD_BH_Mod0(w),
                         wh ? TT_GET_SFPLOAD_WH_AddrMod(w) : TT_GET_SFPLOAD_BH_AddrMod(w),
                         TT_GET_SFPLOAD_BH_Imm10(w)};
}

/* The modes that use the Dst32b view; the others use Dst16b (MOD0_FMT_ZERO: SFPLOAD reads
 * nothing, SFPSTORE writes Dst16b). SFPSTORE's LO16 and HI16 write all 32 bits. */
static bool load_is_32b(unsigned mod0)
{
    return mod0 == FMT_FP32 || mod0 == FMT_INT32 || mod0 == FMT_INT32_ALL || mod0 == FMT_INT32_SM;
}
static bool store_is_32b(unsigned mod0)
{
    return load_is_32b(mod0) || mod0 == FMT_LO16 || mod0 == FMT_HI16;
}

/* What one instruction reads of the thread's configuration (the page's ConfigState is
 * Config[ThreadConfig.CFG_STATE_ID_StateID]). */
struct ldst_cfg {
    unsigned mod0, addr;
    struct dest_map map;
};

/* MOD0_FMT_SRCB resolves to FP32 (ALU_ACC_CTRL_SFPU_Fp32_enabled), else BF16 for SrcB formats
 * with an 8-bit exponent (and the integers), else FP16. */
static unsigned resolve_srcb(const struct tile *t, unsigned bank)
{
    const unsigned ab = tile_arch_bit(t);
    const struct tt_config *c = &t->cfg;
    if (cfg_get(c, bank, CFG_DESC(ab, ALU_ACC_CTRL_SFPU_Fp32_enabled)))
        return FMT_FP32;
    const unsigned f = cfg_get(c, bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG_SrcB_override))
                           ? cfg_get(c, bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG_SrcB_val))
                           : cfg_get(c, bank, CFG_DESC(ab, ALU_FORMAT_SPEC_REG1_SrcB));
    return df_exp8(f) ? FMT_BF16 : FMT_FP16;
}

/* The address (the pages' functional models): Imm10 + DEST_TARGET_REG_CFG_MATH_Offset +
 * RWC.Dst + DEST_REGW_BASE, all 10 bits. Blackhole adds (RWC.Sp + DEST_SP_BASE) & 3, and its
 * MOD0_FMT_INT32_ALL takes the Sp offset in full and only the low 2 bits of the Dst offset
 * (Wormhole's INT32_ALL: the low 2 bits of the Dst offset alone). RWC.Sp is not modelled: it
 * reads 0, which is exact while SFPU_STACK_Incr is 0 (sfpu_store refuses the rest). */
static unsigned cfg_bank(const struct tile *t, unsigned th)
{
    return thcfg_get(&t->cfg, th, THCFG_DESC(tile_arch_bit(t), CFG_STATE_ID_StateID));
}

static struct ldst_cfg ldst_cfg(const struct tile *t, unsigned th, struct ldst in)
{
    const unsigned ab = tile_arch_bit(t);
    const struct tt_config *c = &t->cfg;
    const unsigned bank = cfg_bank(t, th);
    struct ldst_cfg k;
    k.mod0 = in.mod0 == FMT_SRCB ? resolve_srcb(t, bank) : in.mod0;
    uint32_t rwc[4] = {0};
    tile_query(t, Q_RWC_DST, th, 0, rwc);
    const unsigned dst_off = rwc[0] + cfg_get(c, bank, CFG_DESC(ab, DEST_REGW_BASE_Base));
    unsigned addr = in.imm10 + thcfg_get(c, th, THCFG_DESC(ab, DEST_TARGET_REG_CFG_MATH_Offset));
    if (tile_is_wormhole(t)) {
        addr += k.mod0 == FMT_INT32_ALL ? (dst_off & 3) : dst_off;
    } else {
        const unsigned sp_off = cfg_get(c, bank, &cfg_fields_bh[CFGF_BH_DEST_SP_BASE_Base]);
        addr += k.mod0 == FMT_INT32_ALL ? sp_off + (dst_off & 3) : dst_off + (sp_off & 3);
    }
    k.addr = addr & 0x3FF;
    k.map = dest_map_of(t);
    return k;
}

/* Lane L's row and column: bit 1 of Addr (or the column's LaneConfig COL_EXCHANGE bit) picks
 * the odd column; bit 0 is unused. */
static unsigned lane_row(unsigned addr, unsigned lane) { return (addr & ~3u) + lane / 8; }
static unsigned lane_col(const struct sfpu_state *s, unsigned addr, unsigned lane, uint32_t xchg)
{
    return (lane & 7) * 2 + ((addr & 2) || (s->lane_config[lane & 7] & xchg) ? 1 : 0);
}

/* The lanes that take part: not blocked by LaneConfig, and enabled (INT32_ALL: all). */
static uint32_t ldst_lanes(const struct sfpu_state *s, uint32_t lanes, unsigned mod0, uint32_t block)
{
    const uint32_t en = mod0 == FMT_INT32_ALL ? lanes : sfpu_enabled_lanes(s, lanes);
    uint32_t m = 0;
    for (unsigned lane = 0; lane < SFPU_LANES; lane++)
        if ((en >> lane & 1) && !(s->lane_config[lane] & block))
            m |= 1u << lane;
    return m;
}

/* ---- SFPLOAD ---- */

/* Dst held Sign,Man10,Exp5 (SFPLOAD.md ReadFP16): exponent rebiased by +112 unless 0
 * (denormals stay denormal-looking), no Inf/NaN unless ENABLE_FP16A_INF maps the largest value
 * to Inf. ttsim: the same with ENABLE_FP16A_INF 0. */
static uint32_t read_fp16(uint16_t x, bool fp16a_inf)
{
    uint32_t sign = x >> 15, man = (x >> 5) & 0x3FF, exp = x & 0x1F;
    if (fp16a_inf && exp == 0x1F && man == 0x3FF)
        exp = 255, man = 0;
    else if (exp != 0)
        exp += 112;
    return sign << 31 | exp << 23 | man << 13;
}

/* WH:SFPLOAD.md SignMagToTwosComp (-0 becomes 0) */
static uint32_t sm_to_twos(uint32_t x) { return (uint32_t)fmt_sm32_value(x); }

static uint32_t load_datum(unsigned mod0, uint32_t cell, uint32_t old, bool fp16a_inf, bool wh)
{
    switch (mod0) {
    case FMT_FP16: return read_fp16((uint16_t)cell, fp16a_inf);
    case FMT_BF16: return (uint32_t)fmt_dst_to_bf16((uint16_t)cell) << 16;
    case FMT_FP32: case FMT_INT32: case FMT_INT32_ALL: return fmt_dst_to_fp32(cell);
    case FMT_INT32_SM: /* BH: deprecated, no conversion */
        return wh ? sm_to_twos(fmt_dst_to_fp32(cell)) : fmt_dst_to_fp32(cell);
    case FMT_INT8: /* WH SignMag8ToSignMag32, BH SignMag9ToSignMag32 (range +-255) */
        return (cell >> 15) << 31 | ((cell >> 5) & (wh ? 0x7Fu : 0xFFu));
    case FMT_INT8_COMP: { /* SignMag11ToSignMag32; WH then to two's complement */
        const uint32_t sm = (cell >> 15) << 31 | ((cell >> 5) & 0x3FFu);
        return wh ? sm_to_twos(sm) : sm;
    }
    case FMT_LO16_ONLY: return (old & 0xFFFF0000u) | cell;
    case FMT_HI16_ONLY: return cell << 16 | (old & 0xFFFFu);
    case FMT_INT16: return (cell >> 15) << 31 | (cell & 0x7FFFu);
    case FMT_UINT16: case FMT_LO16: return cell;
    case FMT_HI16: return cell << 16;
    default: return 0; /* FMT_ZERO */
    }
}

/* --lint: WH/BH:Dst.md "Instruction scheduling": the Dest scoreboard holds the matrix unit and
 * the packers, not the SFPU; an SFPLOAD of rows the matrix unit is still writing needs a
 * STALLWAIT first. One finding per SFPLOAD (its first such lane). */
static __attribute__((noinline)) void lint_early(struct tile *t, unsigned th, struct ldst_cfg k,
                                                 bool d32, uint32_t lanes)
{
    SFPU_FOR_EACH_LANE(lane, lanes) {
        const unsigned row = lane_row(k.addr, lane);
        const int b = dest_fpu_pending(&t->dest, k.map, d32, row, t->now);
        if (b < 0)
            continue;
        rule_broken(t, RULE_DST_SFPU_EARLY, rule_site_tensix(t, th, t->sfpu.tm.chk_w),
                    "thread T%u: SFPLOAD at cycle %llu reads Dst%s row %u (DstBits block %d), "
                    "which the matrix unit writes until cycle %llu: no STALLWAIT held it",
                    th, (unsigned long long)t->now, d32 ? "32b" : "16b", row, b,
                    (unsigned long long)t->dest.fpu_ready[b]);
        return;
    }
}

/* SFPLOAD.md: VD < 8 only (no backdoor clause on this page: VD >= 8 loads nothing); lanes not
 * blocked by BLOCK_SFPU_RD_FROM_DEST and enabled (INT32_ALL: all). Reading a row that is not
 * valid is undefined (WH:ZEROACC.md): the run stops before anything changes. Then the RWCs
 * advance (ApplyPartialAddrMod), whatever VD is. */
static unsigned load(struct tile *t, unsigned th, struct ldst in, bool wh, struct sfpu_fault *f)
{
    struct sfpu_state *s = &t->sfpu;
    const struct ldst_cfg k = ldst_cfg(t, th, in);
    const bool d32 = load_is_32b(k.mod0);
    uint32_t cells[SFPU_LANES] = {0};
    const uint32_t m = sfpu_vd_writable(in.vd)
                           ? ldst_lanes(s, SFPU_ALL_LANES, k.mod0, SFPU_LC_BLOCK_SFPU_RD_FROM_DEST)
                           : 0;
    for (unsigned lane = 0; lane < SFPU_LANES && k.mod0 != FMT_ZERO; lane++) {
        if (!(m >> lane & 1))
            continue;
        const unsigned row = lane_row(k.addr, lane), col = lane_col(s, k.addr, lane, SFPU_LC_DEST_RD_COL_EXCHANGE);
        if (!dest_sfpu_read(&t->dest, k.map, d32, row, col, &cells[lane])) {
            f->kind = ERR_UNDEF_BEHAVIOUR;
            snprintf(f->why, sizeof f->why, "lane %u reads Dst%s row %u, which is not valid", lane,
                     d32 ? "32b" : "16b", row);
            return k.addr;
        }
    }
    if (t->lint && k.mod0 != FMT_ZERO)
        lint_early(t, th, k, d32, m);
    SFPU_FOR_EACH_LANE(lane, m) {
        const uint32_t lc = s->lane_config[lane];
        s->lreg[in.vd][lane] = load_datum(k.mod0, cells[lane], s->lreg[in.vd][lane],
                                          lc & SFPU_LC_ENABLE_FP16A_INF, wh);
        /* ENABLE_DEST_INDEX + CAPTURE_DEFAULT_DEST_INDEX: LReg[VD + 4] gets (Row << 4) | Column */
        if (in.vd < 4 && (lc & SFPU_LC_ENABLE_DEST_INDEX) && (lc & SFPU_LC_CAPTURE_DEFAULT_DEST_INDEX))
            s->lreg[in.vd + 4][lane] = lane_row(k.addr, lane) << 4 |
                                       lane_col(s, k.addr, lane, SFPU_LC_DEST_RD_COL_EXCHANGE);
    }
    tile_signal(t, SIG_PARTIAL_ADDR_MOD, th, in.addr_mod);
    return k.addr;
}

void sfpu_load(struct tile *t, unsigned th, uint32_t w, bool wh, struct sfpu_fault *f)
{
    load(t, th, fields(w, wh), wh, f);
}

/* SFPLOADMACRO.md: its load part is SFPLOAD with these fields; the address is kept for the
 * SFPSTORE it may schedule. */
unsigned sfpu_load_fields(struct tile *t, unsigned th, unsigned vd, unsigned mod0, unsigned addr_mod,
                          unsigned imm10, bool wh, struct sfpu_fault *f)
{
    return load(t, th, (struct ldst){vd, mod0, addr_mod, imm10}, wh, f);
}

/* ---- SFPSTORE ---- */

/* Denormals to signed zero (BH:SFPSTORE.md ToFP32; ttsim's denormals_as_zeros). */
static uint32_t flush_denormal(uint32_t x) { return (x & 0x7F800000u) ? x : x & 0x80000000u; }

/* SignMag11ToFP16: "Integer 8", fixed exponent 16 (SFPSTORE.md), then the FP16 shuffle. */
static uint16_t int8_cell(uint32_t x)
{
    return fmt_dst_from_fp16((uint16_t)((x >> 31) << 15 | 16u << 10 | (x & 0x3FFu)));
}

static uint32_t store_cell(unsigned mod0, uint32_t x, bool wh)
{
    switch (mod0) {
    /* SFPSTORE.md ToFP16 (flush below 2^-14, saturate to 0x7FFF with the sign, NaN and Inf
     * too, truncate; ttsim's sfpu_store_to_fp16 agrees) and ToBF16 (denormals to a signed zero,
     * truncate) are the unpackers' FP32->FP16 and FP32->BF16 conversions (units/formats.h). */
    case FMT_FP16: return fmt_dst_from_fp16(fmt_fp32_to_fp16(x));
    case FMT_BF16: return fmt_dst_from_bf16(fmt_fp32_to_bf16_flush(x));
    /* WH:SFPSTORE.md keeps FP32 denormals ("functionally identical to MOD0_FMT_INT32"), and
     * BH:SFPSTORE.md lists the flush as Blackhole's change: the pages say so outright, so tensim
     * follows them where ttsim flushes on both (docs/sfpu.md). */
    case FMT_FP32: return fmt_dst_from_fp32(wh ? x : flush_denormal(x));
    case FMT_INT32: case FMT_INT32_ALL: return fmt_dst_from_fp32(x);
    case FMT_INT32_SM: return fmt_dst_from_fp32(wh ? sfpu_twos_to_sm(x) : x); /* BH: deprecated */
    case FMT_INT8: return int8_cell(x);
    case FMT_INT8_COMP: return int8_cell(wh ? sfpu_twos_to_sm(x) : x);
    case FMT_LO16_ONLY: case FMT_UINT16: return x & 0xFFFFu;
    case FMT_HI16_ONLY: return x >> 16;
    case FMT_INT16: return (x >> 31) << 15 | (x & 0x7FFFu);
    case FMT_LO16: return x << 16 | x >> 16;
    case FMT_HI16: return x;
    default: return 0; /* FMT_ZERO */
    }
}

/* SFPSTORE.md: `lanes` are those that run the model (VD >= 12 with the backdoor on sent the word
 * to LoadMacroConfig instead); of them, the ones not blocked by BLOCK_DEST_WR_FROM_SFPU and
 * enabled (INT32_ALL: all) write LReg[VD] (any of 0..15: the constants may be stored) to Dst.
 * Then the RWCs advance. `ready`: the first cycle the matrix unit and packers may read the
 * written blocks. */
static void store(struct tile *t, unsigned th, unsigned vd, struct ldst_cfg k, uint32_t lanes, bool wh,
                  uint64_t ready, struct sfpu_fault *f)
{
    struct sfpu_state *s = &t->sfpu;
    if (!wh && k.mod0 == FMT_INT32_ALL &&
        thcfg_get(&t->cfg, th, &thcfg_fields_bh[THCFGF_BH_SFPU_STACK_Incr]) != 0) {
        f->kind = ERR_UNIMPLEMENTED;
        snprintf(f->why, sizeof f->why, "MOD0_FMT_INT32_ALL with SFPU_STACK_Incr != 0 (RWC.Sp)");
        return;
    }
    const bool d32 = store_is_32b(k.mod0);
    const uint32_t m = ldst_lanes(s, lanes, k.mod0, SFPU_LC_BLOCK_DEST_WR_FROM_SFPU);
    SFPU_FOR_EACH_LANE(lane, m) {
        const unsigned row = lane_row(k.addr, lane), col = lane_col(s, k.addr, lane, SFPU_LC_DEST_WR_COL_EXCHANGE);
        dest_sfpu_write(&t->dest, k.map, d32, row, col, store_cell(k.mod0, s->lreg[vd][lane], wh), ready);
    }
}

void sfpu_store(struct tile *t, unsigned th, uint32_t w, uint32_t lanes, bool wh, uint64_t ready,
                struct sfpu_fault *f)
{
    const struct ldst in = fields(w, wh);
    store(t, th, in.vd, ldst_cfg(t, th, in), lanes, wh, ready, f);
    if (f->kind == ERR_NONE)
        tile_signal(t, SIG_PARTIAL_ADDR_MOD, th, in.addr_mod);
}

/* SFPLOADMACRO.md: a scheduled SFPSTORE of LReg[vd] (16 included) at the address its
 * SFPLOADMACRO computed, whatever the RWCs did since; no ApplyPartialAddrMod. Mod0 resolves
 * (MOD0_FMT_SRCB) against the configuration of now. */
void sfpu_store_at(struct tile *t, unsigned th, unsigned vd, unsigned mod0, unsigned addr,
                   uint32_t lanes, bool wh, uint64_t ready, struct sfpu_fault *f)
{
    struct ldst_cfg k;
    k.mod0 = mod0 == FMT_SRCB ? resolve_srcb(t, cfg_bank(t, th)) : mod0;
    k.addr = addr & 0x3FF;
    k.map = dest_map_of(t);
    store(t, th, vd, k, lanes, wh, ready, f);
}
