/* The Scalar unit (ThCon), WH:ScalarUnit.md and the per-instruction pages it links. The
 * Blackhole documents point at the Wormhole pages for this unit, so both architectures share
 * the model; only L1's size and the Config field tables differ.
 *
 * Life of an instruction (timing numbers and their sources: docs/timing-model.md, section
 * "Scalar unit (ThCon)"):
 *  - accept (the issue cycle c): the functional effect on GPRs, Config and the L1/MMIO request
 *    (sent at c, or later when the request-rate limits say so); the thread is frozen and the unit
 *    busy until done_at;
 *  - tick (start of every later coprocessor cycle): requests whose cycle has come are sent, load
 *    data whose cycle has come lands in the GPRs, ATCAS/ATINCGETPTR retry, FLUSHDMA checks its
 *    conditions, a STOREIND to SrcA/SrcB checks whether its bank is free, and the instruction
 *    completes at done_at (the thread's next instruction can issue in that same cycle).
 * GPRs are kept as 32-bit words; half-register and byte views are computed with shifts, never
 * through host pointer casts, so the model does not depend on the host's byte order. */
#include "thcon.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "gpr.h"
#include "../mem/map.h"

/* ---- timing (docs/timing-model.md "Scalar unit (ThCon)") ---- */
enum {
    CYC_ONE = 1,          /* DMANOP, SETDMAREG: WH:ScalarUnit.md table */
    CYC_REG2FLOP = 2,     /* WH:REG2FLOP_Configuration.md "usually takes two cycles" */
    CYC_FLUSH_MIN = 2,    /* WH:FLUSHDMA.md "at least two cycles" */
    CYC_ALU_FAST = 3,     /* immediate form, or both registers in one aligned group of four */
    CYC_ALU_SLOW = 4,     /* WH:ADDDMAREG.md (and SUB/MUL/BITWOP/SHIFT/CMP) */
    CYC_MEM = 3,          /* LOADIND, STOREIND, LOADREG, STOREREG, ATSWAP, ATINCGET: ">= 3" */
    CYC_ATTEMPT = 15,     /* ATCAS, ATINCGETPTR: ">= 15" per attempt */
    REQ_SPACING = 3,      /* spec/sync-timing.md §14: at most one L1 request per 3 cycles */
    ATOMIC_SPACING = 12,  /* WH:ATSWAP.md, WH:ATINCGET.md: at best one every 12 cycles */
    LOAD_RESULT = 10,     /* request -> GPR: 3 cycles + 7 DMANOPs (WH:LOADIND.md, LOADREG.md) */
    ATINCGET_RESULT = 27, /* request -> GPR: 3 cycles + 24 DMANOPs (WH:ATINCGET.md) */
};

/* Opcodes of the forms that share an encoding layout (units/tensix.def). */
/* Forms whose shared fields are read with one form's accessors: these lie at the same bits. */
#define SAME_ALU(form)                                                                            \
    (TT_SAME_BITS(ADDDMAREG_ResultReg, form##_ResultReg) &&                                       \
     TT_SAME_BITS(ADDDMAREG_LeftReg, form##_LeftReg))
_Static_assert(SAME_ALU(ADDDMAREGI) && SAME_ALU(SUBDMAREG) && SAME_ALU(SUBDMAREGI) &&
                   SAME_ALU(MULDMAREG) && SAME_ALU(MULDMAREGI) && SAME_ALU(BITWOPDMAREG) &&
                   SAME_ALU(BITWOPDMAREGI) && SAME_ALU(SHIFTDMAREG) && SAME_ALU(SHIFTDMAREGI) &&
                   SAME_ALU(CMPDMAREG) && SAME_ALU(CMPDMAREGI) &&
                   TT_SAME_BITS(ADDDMAREG_RightReg, ADDDMAREGI_RightImm6) &&
                   TT_SAME_BITS(ADDDMAREG_RightReg, SUBDMAREG_RightReg) &&
                   TT_SAME_BITS(ADDDMAREG_RightReg, MULDMAREG_RightReg) &&
                   TT_SAME_BITS(ADDDMAREG_RightReg, BITWOPDMAREG_RightReg) &&
                   TT_SAME_BITS(ADDDMAREG_RightReg, SHIFTDMAREG_RightReg) &&
                   TT_SAME_BITS(ADDDMAREG_RightReg, CMPDMAREG_RightReg) &&
                   TT_SAME_BITS(ADDDMAREGI_RightImm6, SUBDMAREGI_RightImm6) &&
                   TT_SAME_BITS(ADDDMAREGI_RightImm6, MULDMAREGI_RightImm6) &&
                   TT_SAME_BITS(ADDDMAREGI_RightImm6, BITWOPDMAREGI_RightImm6) &&
                   TT_SAME_BITS(ADDDMAREGI_RightImm6, CMPDMAREGI_RightImm6) &&
                   TT_SAME_BITS(BITWOPDMAREG_Mode, BITWOPDMAREGI_Mode) &&
                   TT_SAME_BITS(SHIFTDMAREG_Mode, SHIFTDMAREGI_Mode) &&
                   TT_SAME_BITS(CMPDMAREG_Mode, CMPDMAREGI_Mode),
               "the DMA-register ALU forms share ResultReg, RightReg/RightImm6, LeftReg and Mode");
#define SAME_IND(form)                                                                            \
    (TT_SAME_BITS(LOADIND_OffsetHalfReg, form##_OffsetHalfReg) &&                                 \
     TT_SAME_BITS(LOADIND_OffsetIncrement, form##_OffsetIncrement) &&                             \
     TT_SAME_BITS(LOADIND_AddrReg, form##_AddrReg) &&                                             \
     TT_SAME_BITS(LOADIND_ResultReg, form##_DataReg))
_Static_assert(SAME_IND(STOREIND_L1) && SAME_IND(STOREIND_MMIO) && SAME_IND(STOREIND_SRC) &&
                   TT_SAME_BITS(ATCAS_Ofs, ATINCGETPTR_Ofs) &&
                   TT_SAME_BITS(ATCAS_AddrReg, ATINCGETPTR_AddrReg),
               "LOADIND and the STOREIND forms, ATCAS and ATINCGETPTR share their address fields");

/* ---- GPR views ---- */

/* Half-register h (0..127) of a thread's GPRs: low half of GPR h/2 when h is even. */
static uint16_t half_get(const uint32_t *g, unsigned h)
{
    return (uint16_t)(g[h >> 1] >> (16 * (h & 1)));
}

static void half_set(uint32_t *g, unsigned h, uint32_t v)
{
    unsigned s = 16 * (h & 1);
    g[h >> 1] = (g[h >> 1] & ~(0xFFFFu << s)) | ((v & 0xFFFFu) << s);
}

/* Write the low `size` bytes (4, 2 or 1) of v into GPR g, keeping the bytes above. */
static void gpr_write_low(uint32_t *g, unsigned size, uint32_t v)
{
    uint32_t m = size == 4 ? 0xFFFFFFFFu : size == 2 ? 0xFFFFu : 0xFFu;
    *g = (*g & ~m) | (v & m);
}

/* ---- L1 (little-endian, as the cores see it) ---- */

static uint32_t l1_read(const struct tile *t, uint32_t addr, unsigned size)
{
    return le_get(t->l1 + addr, size);
}

/* Through mem/l1.h, so that modified code is decoded again. */
static void l1_write(struct tile *t, uint32_t addr, unsigned size, uint32_t v)
{
    l1_store_any_le(t->l1, t->predecode, addr, size, v);
    tile_unit_wrote(t, addr, size);
}

/* Every L1 address in the pages is checked with "if (L1Address >= L1 size)
 * UndefinedBehaviour()"; tensim reports it as a bad access. */
static bool l1_check(struct tile *t, unsigned th, const char *what, uint32_t addr)
{
    if (addr < t->arch->l1_size)
        return true;
    return tile_error(t, ERR_BAD_ACCESS, -1, 0,
                      "%s, thread T%u: L1 address 0x%08x is past the end of L1 (%u KiB)", what, th,
                      addr, t->arch->l1_size / 1024);
}

/* ---- results returning to the GPRs ---- */

static bool result_push(struct tile *t, unsigned th, unsigned reg, unsigned size,
                        const uint32_t *data, uint64_t at)
{
    struct thcon_unit *u = &t->thcon;
    if (u->nres == THCON_RESULTS_MAX) /* cannot happen: see THCON_RESULTS_MAX */
        return tile_error(t, ERR_HOST, -1, 0, "ThCon: more than %u results in flight",
                          THCON_RESULTS_MAX);
    struct thcon_result *r = &u->res[u->nres++];
    memset(r, 0, sizeof *r);
    r->at = at;
    r->thread = (uint8_t)th;
    r->reg = (uint8_t)reg;
    r->size = (uint8_t)size;
    memcpy(r->data, data, (size == 16 ? 4 : 1) * sizeof *data);
    return true;
}

static void result_write(struct tile *t, const struct thcon_result *r)
{
    uint32_t *g = t->gpr[r->thread];
    if (r->size == 16) {
        for (unsigned k = 0; k < 4; k++)
            g[r->reg + k] = r->data[k];
    } else {
        gpr_write_low(&g[r->reg], r->size, r->data[0]);
    }
}

static bool holds(const struct tile *t, unsigned th, unsigned i)
{
    (void)i;
    const struct thcon_unit *u = &t->thcon;
    if (u->req.kind != THCON_REQ_NONE && u->req.thread == th)
        return true;
    for (unsigned i = 0; i < u->nres; i++)
        if (u->res[i].thread == th)
            return true;
    return false;
}

/* ---- sending a request ---- */

/* Cycle at which a request issued now can leave: one request per REQ_SPACING cycles, and
 * ATSWAP/ATINCGET one per ATOMIC_SPACING (both limits are documented, neither mechanism is). */
static uint64_t request_slot(const struct thcon_unit *u, uint64_t now, bool atomic)
{
    uint64_t s = now;
    if (u->any_req && u->last_req + REQ_SPACING > s)
        s = u->last_req + REQ_SPACING;
    if (atomic && u->any_atomic && u->last_atomic + ATOMIC_SPACING > s)
        s = u->last_atomic + ATOMIC_SPACING;
    return s;
}

/* The request reaches L1 or the MMIO device. L1 requests take effect at once (see
 * docs/timing-model.md); load data heads back to the GPRs. */
static bool request_send(struct tile *t)
{
    struct thcon_unit *u = &t->thcon;
    struct thcon_req q = u->req;
    u->req.kind = THCON_REQ_NONE;
    u->any_req = true;
    u->last_req = t->now;
    u->st.requests++;
    if (q.kind == THCON_REQ_ATSWAP || q.kind == THCON_REQ_ATINCGET) {
        u->any_atomic = true;
        u->last_atomic = t->now;
    }
    uint32_t d[4] = {0};
    switch (q.kind) {
    case THCON_REQ_L1_LOAD:
        /* WH:LOADIND.md: 128 bits from addr & ~15, 32 from addr & ~3, 16 from addr & ~1, 8 */
        for (unsigned k = 0; k < (q.size == 16 ? 4u : 1u); k++)
            d[k] = l1_read(t, (q.addr & ~(uint32_t)(q.size - 1)) + 4 * k, q.size == 16 ? 4 : q.size);
        return result_push(t, q.thread, q.reg, q.size, d, t->now + LOAD_RESULT);
    case THCON_REQ_L1_STORE:
        for (unsigned k = 0; k < (q.size == 16 ? 4u : 1u); k++)
            l1_write(t, (q.addr & ~(uint32_t)(q.size - 1)) + 4 * k, q.size == 16 ? 4 : q.size,
                     q.data[k]);
        return true;
    case THCON_REQ_MMIO_LOAD:
        if (tensix_mmio_load(t, q.thread, q.addr, &d[0]) != MMIO_OK)
            return false;
        return result_push(t, q.thread, q.reg, 4, d, t->now + LOAD_RESULT);
    case THCON_REQ_MMIO_STORE:
        return tensix_mmio_store(t, q.thread, q.addr, q.data[0]) == MMIO_OK;
    case THCON_REQ_ATSWAP:
        /* WH:ATSWAP.md: 16-bit granule i is written when Mask bit i is set */
        for (unsigned i = 0; i < 8; i++)
            if (q.mask >> i & 1)
                l1_write(t, q.addr + 2 * i, 2, q.data[i / 2] >> (16 * (i & 1)));
        return true;
    case THCON_REQ_ATINCGET: {
        /* WH:ATINCGET.md: only the IntMask bits take the incremented value */
        uint32_t old = l1_read(t, q.addr, 4), inc = q.data[0], m = q.data[1];
        l1_write(t, q.addr, 4, ((old + inc) & m) | (old & ~m));
        d[0] = old;
        return result_push(t, q.thread, q.reg, 4, d, t->now + ATINCGET_RESULT);
    }
    default:
        return tile_error(t, ERR_HOST, -1, 0, "ThCon: request of unknown kind %u", q.kind);
    }
}

/* Queue the running instruction's request: sent now when the rate limits allow (errors then
 * surface in the issue cycle), else by tick. Returns the cycle it leaves, or CYCLE_NEVER after an
 * error. */
static uint64_t request_start(struct tile *t, const struct thcon_req *q)
{
    struct thcon_unit *u = &t->thcon;
    bool atomic = q->kind == THCON_REQ_ATSWAP || q->kind == THCON_REQ_ATINCGET;
    uint64_t s = request_slot(u, t->now, atomic);
    u->req = *q;
    u->req.at = s;
    if (s > t->now) {
        u->st.rate_waits += s - t->now;
        return s;
    }
    return request_send(t) ? s : CYCLE_NEVER;
}

/* ---- instructions ---- */

static void start(struct tile *t, unsigned th, enum thcon_op op, uint64_t done_at)
{
    struct thcon_unit *u = &t->thcon;
    u->busy = true;
    u->busy_since = t->now;
    u->busy_thread = th;
    u->op = (uint8_t)op;
    u->done_at = done_at;
    t->thread[th].thcon_running = true;
}

/* ADDDMAREG, SUBDMAREG, MULDMAREG, BITWOPDMAREG, SHIFTDMAREG, CMPDMAREG (register and immediate
 * forms, `imm`): Mode[20:18], ResultReg[17:12], RightReg/RightImm6[11:6] (SHIFT: RightImm5[10:6]),
 * LeftReg[5:0], read with ADDDMAREG's accessors where all forms share them. Returns the cycles
 * taken, 0 after an error. */
static unsigned alu(struct tile *t, unsigned th, uint32_t w, unsigned opc, bool imm)
{
    unsigned mode, left_reg = TT_GET_ADDDMAREG_LeftReg(w), right_reg = TT_GET_ADDDMAREG_RightReg(w);
    /* operands read in the instruction's second cycle: RDCFG results written by then count */
    uint32_t l = gpr_peek(t, th, left_reg, t->now + 1);
    uint32_t r = imm ? (opc == TT_OPC_SHIFTDMAREG ? TT_GET_SHIFTDMAREGI_RightImm5(w) : right_reg)
                     : gpr_peek(t, th, right_reg, t->now + 1);
    uint32_t v;
    switch (opc) {
    case TT_OPC_ADDDMAREG: v = l + r; break;
    case TT_OPC_SUBDMAREG: v = l - r; break;
    case TT_OPC_MULDMAREG: v = (l & 0xFFFFu) * (r & 0xFFFFu); break; /* 16 x 16 -> 32, unsigned */
    case TT_OPC_BITWOPDMAREG:
        mode = TT_GET_BITWOPDMAREG_Mode(w);
        if (mode > 2)
            return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                              "BITWOPDMAREG, thread T%u: Mode %u (0 AND, 1 OR, 2 XOR are defined)",
                              th, mode);
        v = mode == 0 ? l & r : mode == 1 ? l | r : l ^ r;
        break;
    case TT_OPC_SHIFTDMAREG:
        mode = TT_GET_SHIFTDMAREG_Mode(w);
        if (mode > 1)
            return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                              "SHIFTDMAREG, thread T%u: Mode %u (0 left, 1 right are defined)", th,
                              mode);
        r &= 0x1F; /* the register form uses the low five bits */
        v = mode == 0 ? l << r : l >> r;
        break;
    default: /* CMPDMAREG, unsigned */
        mode = TT_GET_CMPDMAREG_Mode(w);
        if (mode > 2)
            return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                              "CMPDMAREG, thread T%u: Mode %u (0 GT, 1 LT, 2 EQ are defined)", th,
                              mode);
        v = mode == 0 ? l > r : mode == 1 ? l < r : l == r;
        break;
    }
    unsigned n = imm || (left_reg >> 2) == (right_reg >> 2) ? CYC_ALU_FAST : CYC_ALU_SLOW;
    /* the result reaches the GPR when the instruction completes, after any older RDCFG write */
    if (!result_push(t, th, TT_GET_ADDDMAREG_ResultReg(w), 4, &v, t->now + n))
        return 0;
    return n;
}

/* SETDMAREG special form (WH:SETDMAREG_Special.md): 128 bits of packer state or configuration,
 * 16..128 of them written to GPRs. The exponent histograms (InputSource 6, 7) and packer 0's
 * largest exponent (9) come from the packers; the tile-size counters and zero flags
 * (AccTileSize, LastTileSize, AllZeroFlags) are not modelled and read as at reset, all zero, so
 * the tile-header sources (InputSource 2..5) carry the Config fields and TileSize = 0 + 1, and
 * InputSource 8 has no AccTileSize to reset. */
static void setdmareg_special(struct tile *t, unsigned th, uint32_t w)
{
    uint32_t *g = t->gpr[th];
    unsigned size = TT_GET_SETDMAREG_SPECIAL_ResultSize(w);
    unsigned src = TT_GET_SETDMAREG_SPECIAL_InputSource(w);
    unsigned in_half = TT_GET_SETDMAREG_SPECIAL_InputHalfReg(w);
    unsigned res_half = TT_GET_SETDMAREG_SPECIAL_ResultHalfReg(w);
    uint32_t v[4] = {0};
    if (src >= 2 && src <= 5) {
        unsigned p = src - 2, ab = tile_arch_bit(t);
        unsigned bank = thcfg_get(&t->cfg, th, THCFG_DESC(ab, CFG_STATE_ID_StateID));
        /* Packers[0..3].Config[x] are THCON_SEC0_REG1, SEC0_REG8, SEC1_REG1, SEC1_REG8 */
        const struct cfg_field_desc *fmt[4] = {
            CFG_DESC(ab, THCON_SEC0_REG1_Out_data_format),
            CFG_DESC(ab, THCON_SEC0_REG8_Out_data_format),
            CFG_DESC(ab, THCON_SEC1_REG1_Out_data_format),
            CFG_DESC(ab, THCON_SEC1_REG8_Out_data_format)};
        const struct cfg_field_desc *dzc[4] = {
            CFG_DESC(ab, THCON_SEC0_REG1_Disable_zero_compress),
            CFG_DESC(ab, THCON_SEC0_REG8_Disable_zero_compress),
            CFG_DESC(ab, THCON_SEC1_REG1_Disable_zero_compress),
            CFG_DESC(ab, THCON_SEC1_REG8_Disable_zero_compress)};
        uint32_t disable = cfg_get(&t->cfg, bank, dzc[p]);
        /* The per-packer override bits exist only in the Wormhole map (Blackhole reuses bits
         * 17..20 of that word for pack_start_intf_pos), so only Wormhole honours the override. */
        if (ab == TT_ARCH_WH) {
            const struct cfg_field_desc *ovrd = cfg_field_wh(
                CFGF_WH_THCON_SEC0_REG1_All_pack_disable_zero_compress_ovrd);
            const struct cfg_field_desc *all = cfg_field_wh(
                CFGF_WH_THCON_SEC0_REG1_All_pack_disable_zero_compress);
            if (cfg_get(&t->cfg, bank, ovrd))
                disable = cfg_get(&t->cfg, bank, all) >> p & 1;
        }
        v[0] = 0 + 1; /* TileSize: LastTileSize (0, not modelled) + 1; reserved high half 0 */
        v[1] = cfg_get(&t->cfg, bank, fmt[p]) << 16 | disable << 20; /* SpareBits 0 */
        v[2] = 0;                                                      /* AllZeroFlags */
    }
    if (src == 6 || src == 7) /* WhichPackers [18:15] as an index */
        tile_query(t, Q_EXP_HISTOGRAM, TT_GET_SETDMAREG_SPECIAL_WhichPackers(w) & 3, src - 6, v);
    else if (src == 9)
        tile_query(t, Q_EXP_HISTOGRAM_MAX, 0, 0, v);
    switch (size) {
    case 0: /* one 16-bit half of the 128 bits into one half-register */
        half_set(g, res_half, v[in_half >> 1] >> (16 * (in_half & 1)));
        break;
    case 1:
        g[res_half >> 1] = v[in_half >> 1];
        break;
    case 2:
        memcpy(&g[(res_half >> 1) & 0x3C], v, sizeof v);
        break;
    default: { /* header fields only: TileSize, DataFormat..SpareBits, AllZeroFlags */
        uint32_t *h = &g[(res_half >> 1) & 0x3C];
        h[0] = (h[0] & 0xFFFF0000u) | (v[0] & 0xFFFFu);
        h[1] = (h[1] & 0xFF00FFFFu) | (v[1] & 0x00FF0000u);
        h[2] = v[2];
        break;
    }
    }
}

/* REG2FLOP, Configuration form (WH:REG2FLOP_Configuration.md): SizeSel[23:22], ThConCfgIndex
 * [12:6], InputReg[5:0]; writes Config[StateID][THCON_CFGREG_BASE_ADDR32 + index]. */
static bool reg2flop_cfg(struct tile *t, unsigned th, uint32_t w)
{
    const struct cfg_arch_map *m = cfg_arch(tile_arch_bit(t));
    unsigned idx = TT_GET_REG2FLOP_CFG_ThConCfgIndex(w), in = TT_GET_REG2FLOP_CFG_InputReg(w);
    if (idx >= (unsigned)(m->global_base - m->thcon_base))
        return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                          "REG2FLOP, thread T%u: ThConCfgIndex %u is past the THCON_ configuration "
                          "(GLOBAL_CFGREG_BASE_ADDR32 - THCON_CFGREG_BASE_ADDR32 = %u)",
                          th, idx, m->global_base - m->thcon_base);
    unsigned bank = thcfg_get(&t->cfg, th, THCFG_DESC(tile_arch_bit(t), CFG_STATE_ID_StateID));
    uint32_t *base = &t->cfg.cfg[bank][m->thcon_base];
    t->cfg.gen++;
    if (TT_GET_REG2FLOP_CFG_SizeSel(w) == 0) { /* 128 bits from four aligned GPRs */
        for (unsigned k = 0; k < 4; k++)
            base[(idx & ~3u) + k] = t->gpr[th][(in & ~3u) + k];
    } else {
        base[idx] = t->gpr[th][in];
    }
    return true;
}

/* REG2FLOP, ADC form (WH:REG2FLOP_ADC.md): SizeSel[23:22], OverrideThread[20], Shift8[19:18],
 * ThreadSel[17:16], Channel[11], ADCSel[10:9], Cr[8], XYZW[7:6], InputReg[5:0]. Picks 8, 16 or 32
 * bits of the GPR and stores them in one counter (Cr = 0) or in its checkpoint alone (Cr = 1),
 * truncated to the counter's width (X 18 bits, Y 13, Z and W 8; WH:ADCs.md). Selections the page
 * calls invalid are not undefined there: they store 0 (SizeSel 0, "128 bit"; a 32-bit value with
 * Shift8 != 0; a 16-bit value with Shift8 1 or 3) or store nothing (ThreadSel 3 with
 * OverrideThread, ADCSel 3). */
static void reg2flop_adc(struct tile *t, unsigned th, uint32_t w)
{
    unsigned shift8 = TT_GET_REG2FLOP_ADC_Shift8(w), which = th;
    unsigned sel = TT_GET_REG2FLOP_ADC_ADCSel(w), c = TT_GET_REG2FLOP_ADC_XYZW(w);
    uint32_t v = t->gpr[th][TT_GET_REG2FLOP_ADC_InputReg(w)];
    switch (TT_GET_REG2FLOP_ADC_SizeSel(w)) {
    case 0: v = 0; break;
    case 1: v = shift8 ? 0 : v; break;
    case 2: v = shift8 == 0 ? v & 0xFFFFu : shift8 == 2 ? v >> 16 : 0; break;
    default: v = (v >> (8 * shift8)) & 0xFFu; break;
    }
    if (TT_GET_REG2FLOP_ADC_OverrideThread(w)) {
        which = TT_GET_REG2FLOP_ADC_ThreadSel(w);
        if (which >= NUM_THREADS)
            return;
    }
    if (sel == 3)
        return;
    struct adc *a = sel == 2 ? &t->adc[which].pack : &t->adc[which].unpack[sel];
    struct adc_channel *ch = &a->ch[TT_GET_REG2FLOP_ADC_Channel(w)];
    if (TT_GET_REG2FLOP_ADC_Cr(w))
        ch->cr[c] = v & adc_width_mask[c];
    else
        ch->v[c] = v & adc_width_mask[c];
}

/* Offset post-increment of LOADIND/STOREIND: 0, 2, 4 or 16 added to the half-register. */
static void offset_increment(uint32_t *g, unsigned half, unsigned inc)
{
    static const uint8_t by[4] = {0, 2, 4, 16};
    half_set(g, half, half_get(g, half) + by[inc]);
}

/* LOADIND / STOREIND (L1 form): Size, OffsetHalfReg[20:14], OffsetIncrement[13:12],
 * Result/DataReg[11:6], AddrReg[5:0]; address = GPR[AddrReg] * 16 + half-register offset. */
static uint64_t l1_indirect(struct tile *t, unsigned th, uint32_t w, bool load)
{
    static const uint8_t bytes[4] = {16, 4, 2, 1};
    uint32_t *g = t->gpr[th];
    unsigned size = load ? TT_GET_LOADIND_Size(w) : TT_GET_STOREIND_L1_Size(w);
    unsigned off_half = TT_GET_LOADIND_OffsetHalfReg(w);
    unsigned reg = TT_GET_LOADIND_ResultReg(w) & (size ? 0x3F : 0x3C); /* STOREIND: DataReg */
    uint32_t addr = g[TT_GET_LOADIND_AddrReg(w)] * 16 + half_get(g, off_half);
    if (!l1_check(t, th, load ? "LOADIND" : "STOREIND", addr))
        return CYCLE_NEVER;
    offset_increment(g, off_half, TT_GET_LOADIND_OffsetIncrement(w));
    struct thcon_req q = {.kind = load ? THCON_REQ_L1_LOAD : THCON_REQ_L1_STORE,
                          .thread = (uint8_t)th, .reg = (uint8_t)reg, .size = bytes[size],
                          .addr = addr};
    if (!load)
        for (unsigned k = 0; k < (size ? 1u : 4u); k++)
            q.data[k] = g[reg + k];
    return request_start(t, &q);
}

/* ---- STOREIND to SrcA/SrcB (WH:STOREIND_Src.md) ---- */

/* Both halves of a GPR become Src cells in the BF16 layout (Sign[18], Man[17:8] with the three
 * low mantissa bits zero, Exp[7:0]; WH:SrcASrcB.md). The page's ReadBF16Lo takes the low half as
 * Sign[15], Man7[14:8], Exp8[7:0] (the Dst16 BF16 layout), ReadBF16Hi the high half as an
 * ordinary BF16 Sign[31], Exp8[30:23], Man7[22:16]. */
static uint32_t src_bf16_lo(uint32_t x)
{
    return (x & 0x8000u) << 3 | (x & 0x7F00u) << 3 | (x & 0xFFu);
}

static uint32_t src_bf16_hi(uint32_t x)
{
    return (x >> 31) << 18 | ((x >> 16) & 0x7Fu) << 11 | ((x >> 23) & 0xFFu);
}

/* The part of the page before its wait loop: StoreToSrcB[21], OffsetHalfReg[20:14],
 * OffsetIncrement[13:12], DataReg[11:6], AddrReg[5:0]. The data and the address are read before
 * the offset half-register is incremented (unlike the L1 form, whose data is read after). */
static bool storeind_src_start(struct tile *t, unsigned th, uint32_t w)
{
    struct thcon_unit *u = &t->thcon;
    struct thcon_src_store *s = &u->src;
    uint32_t *g = t->gpr[th];
    unsigned dr = TT_GET_STOREIND_SRC_DataReg(w) & 0x3C;
    unsigned off_half = TT_GET_STOREIND_SRC_OffsetHalfReg(w);
    s->datum[0] = src_bf16_lo(g[dr]);
    s->datum[1] = src_bf16_hi(g[dr]);
    s->datum[2] = src_bf16_lo(g[dr + 1]);
    s->datum[3] = src_bf16_hi(g[dr + 1]);
    uint32_t addr = g[TT_GET_STOREIND_SRC_AddrReg(w)] + (half_get(g, off_half) >> 4);
    addr &= 0xFFFFFu; /* 20 bits */
    offset_increment(g, off_half, TT_GET_STOREIND_SRC_OffsetIncrement(w));
    if (addr & 0xF0000u)
        return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                          "STOREIND (SrcA/SrcB form), thread T%u: address 0x%05x (GPR %u + "
                          "half-register %u >> 4, 20 bits) has bits 16..19 set",
                          th, addr, TT_GET_STOREIND_SRC_AddrReg(w), off_half);
    s->which = (uint8_t)TT_GET_STOREIND_SRC_StoreToSrcB(w);
    s->bank = t->src.unpack_bank[s->which];
    s->addr = (uint16_t)addr;
    return true;
}

static bool src_bank_free(const struct tile *t)
{
    const struct thcon_src_store *s = &t->thcon.src;
    return t->src.bank[s->which][s->bank].client == SRC_CLIENT_UNPACKERS;
}

/* The wait loop and what follows it, at the current cycle: while the bank belongs to the matrix
 * unit nothing happens (done_at stays CYCLE_NEVER); once it belongs to the unpackers the row is
 * formed and checked, the four cells are written and the instruction completes CYC_MEM cycles
 * later. Returns false after an error. */
static bool storeind_src_try(struct tile *t)
{
    struct thcon_unit *u = &t->thcon;
    const struct thcon_src_store *s = &u->src;
    unsigned th = u->busy_thread;
    if (!src_bank_free(t))
        return true;
    u->st.src_waits += t->now - u->busy_since;
    u->done_at = t->now + CYC_MEM;
    unsigned col0 = (s->addr & 3u) * 4, row = s->addr >> 2, src_row = t->src.src_row[s->which][th];
    if (s->which) { /* SrcB: rows 0..15 of the thread's 16-row window */
        if (row >= 16)
            return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                              "STOREIND to SrcB, thread T%u: row %u (address 0x%04x >> 2) is past "
                              "row 15",
                              th, row, s->addr);
        row += src_row;
    } else { /* SrcA: addresses 0..15 (rows -4..-1) write nothing */
        if (row < 4)
            return true;
        row -= 4;
        bool by_addr = thcfg_get(&t->cfg, th, THCFG_DESC(tile_arch_bit(t), SRCA_SET_SetOvrdWithAddr));
        if (row >= (by_addr ? 64u : 16u))
            return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                              "STOREIND to SrcA, thread T%u: row %u ((address 0x%04x >> 2) - 4) is "
                              "past row %u (SRCA_SET_SetOvrdWithAddr = %u)",
                              th, row, s->addr, by_addr ? 63u : 15u, by_addr);
        if (!by_addr)
            row += src_row;
    }
    /* SrcRow is 0, 16, 32 or 48 whenever it was set as documented (SETDVALID, UNPACR) */
    if (row >= SRC_ROWS)
        return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                          "STOREIND to %s, thread T%u: row %u + SrcRow %u is past row 63",
                          s->which ? "SrcB" : "SrcA", th, row - src_row, src_row);
    for (unsigned i = 0; i < 4; i++)
        t->src.bank[s->which][s->bank].cell[row][col0 + i] = s->datum[i];
    src_bank_written(&t->src.bank[s->which][s->bank]);
    return true;
}

/* The MMIO window of STOREREG/LOADREG/STOREIND: 0xFFB00000 + 4-byte aligned offset, which must
 * not fall below 0xFFB11000 (WH:STOREREG.md, WH:LOADREG.md, WH:STOREIND_MMIO.md). */
static bool mmio_check(struct tile *t, unsigned th, const char *what, uint32_t addr)
{
    if (addr >= 0xFFB11000u)
        return true;
    return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                      "%s, thread T%u: MMIO address 0x%08x is below 0xFFB11000", what, th, addr);
}

/* One ATCAS or ATINCGETPTR attempt at the current cycle: true when it succeeded (then the
 * instruction completes CYC_ATTEMPT cycles later). The address is formed again on every attempt,
 * as the retry label in the pages sits before it. */
static bool attempt(struct tile *t, bool *ok)
{
    struct thcon_unit *u = &t->thcon;
    unsigned th = u->busy_thread;
    uint32_t w = u->word, *g = t->gpr[th];
    unsigned ofs = TT_GET_ATCAS_Ofs(w); /* ATINCGETPTR: the same bits */
    u->st.attempts++;
    u->any_req = true;
    u->last_req = t->now;
    u->st.requests++;
    *ok = false;
    if (u->op == THCON_OP_ATCAS) {
        /* WH:ATCAS.md: SetVal[21:18], CmpVal[17:14], Ofs[13:12], AddrReg[5:0] */
        uint32_t addr = g[TT_GET_ATCAS_AddrReg(w)] * 16 + ofs * 4;
        if (!l1_check(t, th, "ATCAS", addr))
            return false;
        if (l1_read(t, addr, 4) == TT_GET_ATCAS_CmpVal(w)) {
            l1_write(t, addr, 4, TT_GET_ATCAS_SetVal(w));
            *ok = true;
        }
        return true;
    }
    /* WH:ATINCGETPTR.md: NoIncr[22], IncrLog2[21:18], IntWidth[17:14], Ofs[13:12],
     * ResultReg[11:6], AddrReg[5:0]; the counters are words Rd, Wr of a 16-byte block. */
    uint32_t addr = g[TT_GET_ATINCGETPTR_AddrReg(w)] * 16;
    if (!l1_check(t, th, "ATINCGETPTR", addr))
        return false;
    unsigned width = TT_GET_ATINCGETPTR_IntWidth(w);
    uint32_t inc = (uint32_t)!TT_GET_ATINCGETPTR_NoIncr(w) << TT_GET_ATINCGETPTR_IncrLog2(w);
    uint32_t mask = (1u << width) - 1;
    uint32_t rd = l1_read(t, addr, 4), wr = l1_read(t, addr + 4, 4), n = wr - rd;
    bool empty = n == 0;
    if (ofs & 1) {
        uint32_t capacity = width ? 1u << (width - 1) : 0x8000u;
        if (n % capacity == 0 && !empty)
            return true; /* full: cannot push */
    } else if (empty) {
        return true; /* empty: cannot pop */
    }
    uint32_t old = l1_read(t, addr + 4 * ofs, 4);
    l1_write(t, addr + 4 * ofs, 4, ((old + inc) & mask) | (old & ~mask));
    *ok = true;
    return result_push(t, th, TT_GET_ATINCGETPTR_ResultReg(w), 4, &old, t->now + CYC_ATTEMPT);
}

static bool attempt_and_schedule(struct tile *t)
{
    struct thcon_unit *u = &t->thcon;
    bool ok;
    if (!attempt(t, &ok))
        return false;
    if (ok)
        u->done_at = t->now + CYC_ATTEMPT;
    else
        u->st.retries++;
    u->attempt_at = t->now + CYC_ATTEMPT;
    return true;
}

/* ---- the unit interface ---- */

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    (void)w, (void)f;
    /* One instruction at a time; the issuing thread itself never gets here (GS_THCON). */
    if (t->thcon.busy && t->thcon.busy_thread != th) {
        *detail = TT_UNIT_THCON;
        return GS_UNIT_BUSY;
    }
    return GS_NONE;
}

static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w, (void)f;
    return RES_THCON;
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct thcon_unit *u = &t->thcon;
    uint32_t *g = t->gpr[th];
    const uint64_t now = t->now;
    uint64_t s;
    u->st.insns++;
    switch ((enum tt_form_id)(f - tt_forms)) {
    case TT_FORM_DMANOP: /* WH:DMANOP.md: occupies the unit for one cycle */
        start(t, th, THCON_OP_PLAIN, now + CYC_ONE);
        return true;
    case TT_FORM_SETDMAREG_IMM: /* NewValue[23:8] into half-register ResultHalfReg[6:0] */
        half_set(g, TT_GET_SETDMAREG_IMM_ResultHalfReg(w), TT_GET_SETDMAREG_IMM_NewValue(w));
        start(t, th, THCON_OP_PLAIN, now + CYC_ONE);
        return true;
    case TT_FORM_SETDMAREG_SPECIAL:
        setdmareg_special(t, th, w);
        start(t, th, THCON_OP_PLAIN, now + CYC_ONE);
        return true;
    case TT_FORM_ADDDMAREG: case TT_FORM_ADDDMAREGI: case TT_FORM_SUBDMAREG: case TT_FORM_SUBDMAREGI:
    case TT_FORM_MULDMAREG: case TT_FORM_MULDMAREGI: case TT_FORM_BITWOPDMAREG:
    case TT_FORM_BITWOPDMAREGI: case TT_FORM_SHIFTDMAREG: case TT_FORM_SHIFTDMAREGI:
    case TT_FORM_CMPDMAREG: case TT_FORM_CMPDMAREGI: {
        const enum tt_form_id id = (enum tt_form_id)(f - tt_forms);
        const bool imm = id == TT_FORM_ADDDMAREGI || id == TT_FORM_SUBDMAREGI ||
                         id == TT_FORM_MULDMAREGI || id == TT_FORM_BITWOPDMAREGI ||
                         id == TT_FORM_SHIFTDMAREGI || id == TT_FORM_CMPDMAREGI;
        unsigned n = alu(t, th, w, f->opcode, imm);
        if (!n)
            return false;
        start(t, th, THCON_OP_PLAIN, now + n);
        return true;
    }
    case TT_FORM_REG2FLOP_CFG:
        if (!reg2flop_cfg(t, th, w))
            return false;
        start(t, th, THCON_OP_PLAIN, now + CYC_REG2FLOP);
        return true;
    case TT_FORM_REG2FLOP_ADC:
        reg2flop_adc(t, th, w);
        start(t, th, THCON_OP_PLAIN, now + CYC_REG2FLOP);
        return true;
    case TT_FORM_FLUSHDMA: { /* WH:FLUSHDMA.md: ConditionMask[3:0], 0 means 0xF */
        unsigned mask = TT_GET_FLUSHDMA_ConditionMask(w);
        u->flush_mask = (uint8_t)(mask ? mask : 0xF);
        u->flush_min = now + CYC_FLUSH_MIN;
        start(t, th, THCON_OP_FLUSH, CYCLE_NEVER);
        return true;
    }
    case TT_FORM_LOADIND:
    case TT_FORM_STOREIND_L1:
        s = l1_indirect(t, th, w, f->opcode == TT_OPC_LOADIND);
        break;
    case TT_FORM_STOREIND_MMIO: { /* address GPR[AddrReg] + (offset >> 4), word aligned */
        unsigned off_half = TT_GET_STOREIND_MMIO_OffsetHalfReg(w);
        uint32_t a = g[TT_GET_STOREIND_MMIO_AddrReg(w)] + (half_get(g, off_half) >> 4);
        a = 0xFFB00000u + (a & 0x000FFFFCu);
        if (!mmio_check(t, th, "STOREIND", a))
            return false;
        struct thcon_req q = {.kind = THCON_REQ_MMIO_STORE, .thread = (uint8_t)th, .addr = a,
                              .data = {g[TT_GET_STOREIND_MMIO_DataReg(w)]}};
        offset_increment(g, off_half, TT_GET_STOREIND_MMIO_OffsetIncrement(w));
        s = request_start(t, &q);
        break;
    }
    case TT_FORM_STOREIND_SRC:
        if (!storeind_src_start(t, th, w))
            return false;
        start(t, th, THCON_OP_SRC, CYCLE_NEVER);
        return storeind_src_try(t);
    case TT_FORM_STOREREG: /* DataReg[23:18] AddrLo[17:0] */
    case TT_FORM_LOADREG: { /* ResultReg[23:18] AddrLo[17:0] */
        bool load = f->opcode == TT_OPC_LOADREG;
        uint32_t lo = load ? TT_GET_LOADREG_AddrLo(w) : TT_GET_STOREREG_AddrLo(w);
        uint32_t a = 0xFFB00000u + (lo << 2);
        unsigned reg = load ? TT_GET_LOADREG_ResultReg(w) : TT_GET_STOREREG_DataReg(w);
        if (!mmio_check(t, th, load ? "LOADREG" : "STOREREG", a))
            return false;
        struct thcon_req q = {.kind = load ? THCON_REQ_MMIO_LOAD : THCON_REQ_MMIO_STORE,
                              .thread = (uint8_t)th, .reg = (uint8_t)reg, .addr = a,
                              .data = {load ? 0 : g[reg]}};
        s = request_start(t, &q);
        break;
    }
    case TT_FORM_ATSWAP: { /* SingleDataReg[22] Mask[21:14] DataReg[11:6] AddrReg[5:0] */
        uint32_t a = g[TT_GET_ATSWAP_AddrReg(w)] * 16;
        if (!l1_check(t, th, "ATSWAP", a))
            return false;
        unsigned dr = TT_GET_ATSWAP_DataReg(w);
        struct thcon_req q = {.kind = THCON_REQ_ATSWAP, .thread = (uint8_t)th, .addr = a,
                              .mask = (uint8_t)TT_GET_ATSWAP_Mask(w)};
        if (TT_GET_ATSWAP_SingleDataReg(w)) /* one GPR, at word DataReg & 3, zeros elsewhere */
            q.data[dr & 3] = g[dr];
        else
            memcpy(q.data, &g[dr & 0x3C], sizeof q.data);
        s = request_start(t, &q);
        break;
    }
    case TT_FORM_ATINCGET: { /* IntWidth[18:14] Ofs[13:12] InOutReg[11:6] AddrReg[5:0] */
        uint32_t a = g[TT_GET_ATINCGET_AddrReg(w)] * 16 + TT_GET_ATINCGET_Ofs(w) * 4;
        if (!l1_check(t, th, "ATINCGET", a))
            return false;
        unsigned io = TT_GET_ATINCGET_InOutReg(w);
        /* IntMask = (2 << IntWidth) - 1: IntWidth 31 gives all 32 bits (2 << 31 wraps to 0) */
        struct thcon_req q = {.kind = THCON_REQ_ATINCGET, .thread = (uint8_t)th, .reg = (uint8_t)io,
                              .addr = a, .data = {g[io], (2u << TT_GET_ATINCGET_IntWidth(w)) - 1u}};
        s = request_start(t, &q);
        break;
    }
    case TT_FORM_ATCAS:
    case TT_FORM_ATINCGETPTR:
        u->word = w;
        start(t, th, f->opcode == TT_OPC_ATCAS ? THCON_OP_ATCAS : THCON_OP_ATINCPTR, CYCLE_NEVER);
        return attempt_and_schedule(t);
    default:
        return tile_error(t, ERR_HOST, -1, 0, "ThCon: %s reached the unit with no model",
                          f->mnemonic);
    }
    if (s == CYCLE_NEVER)
        return false;
    start(t, th, THCON_OP_PLAIN, s + CYC_MEM);
    return true;
}

/* Must the coprocessor wake for the next ATCAS/ATINCGETPTR attempt? Only a core can change L1
 * meanwhile (the unit itself is taken and nothing else writing L1 is modelled yet), and only a
 * running one: a blocked core runs again only when the coprocessor or a running core releases
 * it, and the coprocessor asks again whenever it goes back to sleep. With no core running the
 * attempts pause; if nothing else happens either, the run ends as a deadlock instead of
 * spinning for ever. */
static bool l1_may_change(const struct tile *t)
{
    for (unsigned i = 0; i < NUM_CORES; i++)
        if (t->core[i].state == CORE_RUNNING)
            return true;
    return false;
}

static bool active(const struct tile *t)
{
    const struct thcon_unit *u = &t->thcon;
    return u->req.kind != THCON_REQ_NONE || u->nres || u->busy;
}

static void tick(struct tile *t)
{
    struct thcon_unit *u = &t->thcon;
    if (u->req.kind == THCON_REQ_NONE && !u->nres && !u->busy)
        return; /* idle: nothing below would act */
    const uint64_t now = t->now;
    if (u->req.kind != THCON_REQ_NONE && u->req.at <= now && !request_send(t))
        return;
    /* Load data lands in request order; a cycle's arrivals are visible to that cycle's issue. */
    unsigned kept = 0;
    for (unsigned i = 0; i < u->nres; i++) {
        struct thcon_result *r = &u->res[i];
        if (r->at <= now) {
            result_write(t, r);
            if (r->at > u->last_busy)
                u->last_busy = r->at;
        } else {
            u->res[kept++] = *r;
        }
    }
    u->nres = kept;
    if (!u->busy)
        return;
    unsigned th = u->busy_thread;
    if ((u->op == THCON_OP_ATCAS || u->op == THCON_OP_ATINCPTR) && u->done_at == CYCLE_NEVER &&
        now >= u->attempt_at && !attempt_and_schedule(t))
        return;
    if (u->op == THCON_OP_SRC && u->done_at == CYCLE_NEVER && !storeind_src_try(t))
        return;
    /* FLUSHDMA: its four conditions are STALLWAIT's C0..C3 on both architectures; it finishes
     * in the first cycle (from the second on) in which none of the selected ones says wait. */
    if (u->op == THCON_OP_FLUSH && now >= u->flush_min &&
        !tile_conditions_waiting(t, th, u->flush_mask))
        u->done_at = now;
    if (now >= u->done_at) {
        u->busy = false;
        u->st.busy_cycles += u->done_at - u->busy_since;
        t->thread[th].thcon_running = false;
        /* the unit worked through done_at - 1: the run is not over before done_at */
        if (u->done_at > u->last_busy)
            u->last_busy = u->done_at;
    }
}

static uint64_t next_event(const struct tile *t)
{
    const struct thcon_unit *u = &t->thcon;
    uint64_t next = CYCLE_NEVER;
    if (u->req.kind != THCON_REQ_NONE && u->req.at < next)
        next = u->req.at;
    for (unsigned i = 0; i < u->nres; i++)
        if (u->res[i].at < next)
            next = u->res[i].at;
    if (u->busy) {
        uint64_t e = u->done_at;
        if (u->op == THCON_OP_FLUSH)
            e = u->flush_min > t->now ? u->flush_min : CYCLE_NEVER; /* then: C0 arrivals above */
        else if ((u->op == THCON_OP_ATCAS || u->op == THCON_OP_ATINCPTR) && e == CYCLE_NEVER)
            e = !l1_may_change(t) ? CYCLE_NEVER
                : u->attempt_at > t->now ? u->attempt_at : t->now + 1; /* a paused retry */
        else if (u->op == THCON_OP_SRC && e == CYCLE_NEVER)
            /* Banks change hands only inside the coprocessor (SETDVALID, UNPACR, the matrix
             * unit). A change made by an issuing instruction comes with progress, so the
             * coprocessor steps the next cycle anyway; this also covers one made by a unit's
             * tick after ours in a quiet cycle. Otherwise sleep: whoever frees the bank wakes
             * the coprocessor, or the run ends as a deadlock. */
            e = src_bank_free(t) ? t->now + 1 : CYCLE_NEVER;
        if (e < next)
            next = e;
    }
    return next;
}

static void reset(struct tile *t) { tile_zero(t, &t->thcon, sizeof t->thcon); }

static uint64_t last_busy(const struct tile *t) { return t->thcon.last_busy; }

static void stats_json(const struct tile *t, FILE *f)
{
    fprintf(f, ", \"busy_cycles\": %" PRIu64 ", \"requests\": %" PRIu64 ", \"attempts\": %" PRIu64
               ", \"retries\": %" PRIu64,
            t->thcon.st.busy_cycles, t->thcon.st.requests, t->thcon.st.attempts, t->thcon.st.retries);
}

const struct unit_desc thcon_unit_desc = {
    .name = "thcon", .reset = reset, .can_accept = can_accept, .resource = resource,
    .accept = accept, .tick = tick, .active = active, .next_event = next_event, .last_busy = last_busy,
    .holds = holds, .stats_json = stats_json,
};
