/* The performance-counter registers (core/perf_counters.h). Register offsets, bank order, the
 * mode/counter_sel layout and the event numbering are those of tt-llk's counters.h and its
 * performance-counter guide; what each event counts in tensim is listed in
 * docs/timing-model.md "Performance counters". */
#include "perf_counters.h"

#include <string.h>

#include "tile.h"

enum { DBG_BASE = 0xFFB12000u, PERF_CNT_ALL = 0x03C, PERF_CNT_MUX_CTRL = 0x218 };

/* PERF_CNT_<bank>0 (reference period), 1 (mode), 2 (start/stop) */
static const uint32_t bank_ctrl[PB_COUNT] = {0x000, 0x018, 0x00C, 0x030, 0x0F0};
/* PERF_CNT_OUT_L_<bank>; OUT_H is the next word */
static const uint32_t bank_out[PB_COUNT] = {0x100, 0x120, 0x108, 0x118, 0x110};

/* ---- signals ---- */

/* A unit's cycles through `end` (Q_PERF_*): a unit that books them when an instruction issues
 * (booked = true; the mark is how far) has not lived the part after `end` yet; one that counts
 * at retirement adds its interval still open since the mark. */
static uint64_t unit_cycles(const struct tile *t, enum unit_query q, unsigned a, unsigned b,
                            bool booked, uint64_t end)
{
    uint32_t v[4] = {0, 0, 0, 0};
    if (!tile_query(t, q, a, b, v))
        return 0;
    uint64_t n = v[0] | (uint64_t)v[1] << 32, mark = v[2] | (uint64_t)v[3] << 32;
    if (booked) {
        uint64_t ahead = mark > end ? mark - end : 0;
        return n > ahead ? n - ahead : 0;
    }
    return n + (mark != UINT64_MAX && end > mark ? end - mark : 0);
}

/* The STALLWAIT condition -> the per-thread or shared signal its hold cycles count in (-1:
 * none). PS_THREAD_BASE + k means per-thread signal k. */
static int cond_signal(enum wait_cond c)
{
    switch (c) {
    case WC_THCON_MEM: return PS_THREAD_BASE + PS_T_WAIT_THCON;
    case WC_UNPACK0: case WC_UNPACK1: return PS_THREAD_BASE + PS_T_WAIT_UNPACK;
    case WC_PACK0: case WC_PACK1: case WC_PACK2: case WC_PACK3: return PS_THREAD_BASE + PS_T_WAIT_PACK;
    case WC_FPU: return PS_THREAD_BASE + PS_T_WAIT_MATH;
    case WC_MOVER: return PS_THREAD_BASE + PS_T_WAIT_MOVE;
    case WC_RISCV_MMIO: return PS_THREAD_BASE + PS_T_WAIT_MMIO;
    case WC_SFPU: return PS_THREAD_BASE + PS_T_WAIT_SFPU;
    case WC_SRCA_UNPACK: return PS_WAIT_SRCA_CLEAR;
    case WC_SRCB_UNPACK: return PS_WAIT_SRCB_CLEAR;
    case WC_SRCA_FPU: return PS_WAIT_SRCA_VALID;
    case WC_SRCB_FPU: return PS_WAIT_SRCB_VALID;
    default: return -1;
    }
}

static void thread_signals(const struct tile *t, unsigned i, uint64_t end, struct perf_signals *s)
{
    const struct tensix_thread *th = &t->thread[i];
    uint64_t *v = s->v + PS_T(i, 0);
    uint64_t by_unit[TT_UNIT_COUNT] = {0};
    for (unsigned f = 0; f < TT_FORM_COUNT; f++)
        by_unit[tt_forms[f].unit] += th->st.by_form[f];
    v[PS_T_AVAIL_CFG] = by_unit[TT_UNIT_CFG];
    v[PS_T_AVAIL_SYNC] = by_unit[TT_UNIT_SYNC];
    v[PS_T_AVAIL_THCON] = by_unit[TT_UNIT_THCON];
    v[PS_T_AVAIL_MOVE] = by_unit[TT_UNIT_XMOV];
    v[PS_T_AVAIL_FPU] = by_unit[TT_UNIT_FPU] + by_unit[TT_UNIT_SFPU];
    v[PS_T_AVAIL_UNPACK] = by_unit[TT_UNIT_UNPACK];
    v[PS_T_AVAIL_PACK] = by_unit[TT_UNIT_PACK];
    uint64_t n = 0;
    for (unsigned k = 0; k < TT_UNIT_COUNT; k++)
        n += by_unit[k];
    v[PS_T_INSTRUCTIONS] = n;

    /* the hold cycles, with the gate's still-open interval closed at `end` (read-only) */
    uint64_t held[GS_COUNT], cond[16], src_nv[2], fpu_busy, fpu_hazard, sem_full;
    memcpy(held, th->st.stall, sizeof held);
    memcpy(cond, th->st.stall_detail[GS_STALLWAIT], sizeof cond);
    src_nv[0] = th->st.stall_detail[GS_SRC_NOT_VALID][0];
    src_nv[1] = th->st.stall_detail[GS_SRC_NOT_VALID][1];
    fpu_busy = th->st.stall_detail[GS_UNIT_BUSY][TT_UNIT_FPU];
    fpu_hazard = th->st.stall_detail[GS_HAZARD][TT_UNIT_FPU];
    sem_full = th->st.semwait_full;
    if (th->acct_outcome == GATE_STALLED && end > th->acct_since) {
        uint64_t k = end - th->acct_since;
        uint32_t d = th->acct_detail;
        held[th->acct_reason] += k;
        switch (th->acct_reason) {
        case GS_STALLWAIT: cond[d & 15] += k; break;
        case GS_SRC_NOT_VALID: src_nv[d & 1] += k; break;
        case GS_UNIT_BUSY: fpu_busy += d == TT_UNIT_FPU ? k : 0; break;
        case GS_HAZARD: fpu_hazard += d == TT_UNIT_FPU ? k : 0; break;
        case GS_SEMWAIT: sem_full += d & SEMWAIT_DETAIL_FULL ? k : 0; break;
        default: break;
        }
    }
    uint64_t stalls = 0;
    for (unsigned r = GS_NONE + 1; r < GS_COUNT; r++)
        stalls += r == GS_STOPPED ? 0 : held[r];
    v[PS_T_STALLS] = stalls;
    v[PS_T_WAIT_NONFULL_SEM] = sem_full;
    v[PS_T_WAIT_NONZERO_SEM] = held[GS_SEMWAIT] - sem_full;
    for (unsigned b = 0; b < t->arch->stall_cond_bits && b < 16; b++) {
        int sig = cond_signal((enum wait_cond)t->arch->stall_cond_map[b]);
        if (sig >= PS_THREAD_BASE)
            v[sig - PS_THREAD_BASE] += cond[b];
        else if (sig >= 0)
            s->v[sig] += cond[b];
    }
    s->v[PS_WAIT_SRCA_VALID] += src_nv[0];
    s->v[PS_WAIT_SRCB_VALID] += src_nv[1];
    s->v[PS_MATH_STARTED] += by_unit[TT_UNIT_FPU];
    s->v[PS_MATH_AVAILABLE] += by_unit[TT_UNIT_FPU] + held[GS_SRC_NOT_VALID] +
                               held[GS_DEST_HAZARD] + fpu_busy + fpu_hazard;
    s->v[PS_MATH_SCOREBOARD] += held[GS_DEST_HAZARD];
}

void perf_signals_at(const struct tile *t, uint64_t end, struct perf_signals *s)
{
    memset(s, 0, sizeof *s);
    for (unsigned i = 0; i < NUM_THREADS; i++)
        thread_signals(t, i, end, s);
    s->v[PS_FPU_BUSY] = unit_cycles(t, Q_PERF_FPU_BUSY, 0, 0, true, end);
    s->v[PS_SFPU_BUSY] = unit_cycles(t, Q_PERF_SFPU_BUSY, 0, 0, true, end);
    for (unsigned u = 0; u < 2; u++) {
        s->v[PS_UNPACK0_BUSY + u] = unit_cycles(t, Q_PERF_UNPACK, u, 0, false, end);
        s->v[PS_UNPACK0_FETCH + u] = unit_cycles(t, Q_PERF_UNPACK, u, 1, false, end);
        s->v[PS_UNPACK0_OWN_WAIT + u] = unit_cycles(t, Q_PERF_UNPACK, u, 2, false, end);
    }
    for (unsigned p = 0; p < 4; p++)
        s->v[PS_PACK_BUSY] += unit_cycles(t, Q_PERF_PACK_BUSY, p, 0, false, end);
}

/* ---- events ---- */

static uint64_t sub_floor(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

uint64_t perf_event(const struct tile *t, enum perf_bank b, unsigned sel,
                    const struct perf_signals *d, uint64_t cycles, bool *modelled)
{
    (void)t;
    static const int avail[8] = {PS_T_AVAIL_CFG, PS_T_AVAIL_SYNC, PS_T_AVAIL_THCON, -1,
                                 PS_T_AVAIL_MOVE, PS_T_AVAIL_FPU, PS_T_AVAIL_UNPACK, PS_T_AVAIL_PACK};
    static const int waits[9] = {PS_T_WAIT_THCON, PS_T_WAIT_UNPACK, PS_T_WAIT_PACK, PS_T_WAIT_MATH,
                                 PS_T_WAIT_NONZERO_SEM, PS_T_WAIT_NONFULL_SEM, PS_T_WAIT_MOVE,
                                 PS_T_WAIT_MMIO, PS_T_WAIT_SFPU};
    const uint64_t *v = d->v;
    *modelled = true;
    switch (b) {
    case PB_INSTRN_THREAD:
        if (sel < 24 && avail[sel / 3] >= 0)
            return v[PS_T(sel % 3, avail[sel / 3])];
        if (sel >= 24 && sel < 27)
            return v[PS_T(sel - 24, PS_T_STALLS)];
        if (sel >= 27 && sel < 31)
            return v[PS_WAIT_SRCA_CLEAR + (sel - 27)];
        if (sel >= 31 && sel < 58)
            return v[PS_T((sel - 31) % 3, waits[(sel - 31) / 3])];
        if (sel >= 256 && sel < 259)
            return v[PS_T(sel - 256, PS_T_INSTRUCTIONS)];
        break;
    case PB_FPU:
        if (sel == 0)
            return v[PS_FPU_BUSY];
        if (sel == 1)
            return v[PS_SFPU_BUSY];
        if (sel == 257) /* either unit: their sum, at most every cycle */
            return v[PS_FPU_BUSY] + v[PS_SFPU_BUSY] < cycles ? v[PS_FPU_BUSY] + v[PS_SFPU_BUSY]
                                                             : cycles;
        break;
    case PB_TDMA_UNPACK:
        switch (sel) {
        case 3: return v[PS_MATH_STARTED];
        case 4: return v[PS_MATH_AVAILABLE];
        case 5: return sub_floor(v[PS_UNPACK1_BUSY], v[PS_UNPACK1_OWN_WAIT]);
        case 6: return sub_floor(v[PS_UNPACK0_BUSY], v[PS_UNPACK0_OWN_WAIT]);
        case 7: return v[PS_UNPACK0_BUSY];
        case 8: return v[PS_UNPACK1_BUSY];
        case 259: return v[PS_UNPACK1_FETCH];
        case 261: return v[PS_UNPACK0_FETCH];
        }
        break;
    case PB_TDMA_PACK:
        switch (sel) {
        case 11: return v[PS_PACK_BUSY]; /* Dst is never unavailable inside a busy packer */
        case 18: return v[PS_PACK_BUSY];
        case 272: return sub_floor(v[PS_MATH_AVAILABLE], v[PS_MATH_SCOREBOARD]);
        }
        break;
    default: /* the L1 bank: NoC rings and L1 arbitration are not modelled */
        break;
    }
    *modelled = false;
    return 0;
}

/* ---- registers ---- */

void perf_counters_reset(struct tile *t)
{
    tile_zero(t, &t->perf, sizeof t->perf);
}

static int bank_of_ctrl(uint32_t off, unsigned *reg)
{
    for (int b = 0; b < PB_COUNT; b++)
        if (off >= bank_ctrl[b] && off < bank_ctrl[b] + 12) {
            *reg = (off - bank_ctrl[b]) / 4;
            return b;
        }
    return -1;
}

static int bank_of_out(uint32_t off, bool *high)
{
    for (int b = 0; b < PB_COUNT; b++)
        if (off == bank_out[b] || off == bank_out[b] + 4) {
            *high = off != bank_out[b];
            return b;
        }
    return -1;
}

static enum mmio_status unimplemented(struct tile *t, int core, uint32_t off, const char *what)
{
    tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
               "unimplemented register RISCV_DEBUG_REGS+0x%03x (%s the performance-counter "
               "block)", off, what);
    return MMIO_ERROR;
}

/* Start and stop act on a rising edge of bit 0 / bit 1 of the bank's third register (tt-llk
 * writes 0 and then 1 to start, 0 and then 2 to stop). Both copy the signals as they stand
 * after the coprocessor's part of the current cycle. */
static void bank_control(struct tile *t, enum perf_bank b, uint32_t old, uint32_t val)
{
    struct perf_bank_regs *k = &t->perf.bank[b];
    uint32_t rise = val & ~old;
    if (rise & 1) {
        k->running = k->started = true;
        k->start_cycle = t->now;
        perf_signals_at(t, t->now + 1, &k->at_start);
    }
    if ((rise & 2) && k->running) {
        k->running = false;
        k->stop_cycle = t->now;
        perf_signals_at(t, t->now + 1, &k->at_stop);
    }
}

static uint32_t bank_read(const struct tile *t, enum perf_bank b, bool high)
{
    const struct perf_bank_regs *k = &t->perf.bank[b];
    if (!k->started)
        return 0;
    uint64_t cycles = (k->running ? t->now : k->stop_cycle) - k->start_cycle;
    unsigned mode = k->mode & 0xFF;
    if (!high)
        return mode == 2 ? 0 : (uint32_t)cycles;
    struct perf_signals now, d;
    const struct perf_signals *end = &k->at_stop;
    if (k->running) {
        perf_signals_at(t, t->now + 1, &now);
        end = &now;
    }
    for (unsigned i = 0; i < PS_COUNT; i++)
        d.v[i] = end->v[i] - k->at_start.v[i];
    bool modelled;
    return (uint32_t)perf_event(t, b, (k->mode >> 8) & 0x1FF, &d, cycles, &modelled);
}

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)r, (void)size;
    uint32_t off = (addr & ~3u) - DBG_BASE;
    unsigned reg;
    bool high;
    int b;
    if (off == PERF_CNT_MUX_CTRL) {
        *val = t->perf.mux_ctrl;
        return MMIO_OK;
    }
    if ((b = bank_of_ctrl(off, &reg)) >= 0) {
        const struct perf_bank_regs *k = &t->perf.bank[b];
        *val = reg == 0 ? k->ref_period : reg == 1 ? k->mode : k->ctrl;
        return MMIO_OK;
    }
    if ((b = bank_of_out(off, &high)) >= 0) {
        *val = bank_read(t, (enum perf_bank)b, high);
        return MMIO_OK;
    }
    return unimplemented(t, core, off, "load in");
}

static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)r;
    uint32_t off = (addr & ~3u) - DBG_BASE;
    unsigned reg;
    int b;
    if (size != 4)
        return unimplemented(t, core, off, "narrow store in");
    if (off == PERF_CNT_MUX_CTRL) {
        t->perf.mux_ctrl = val;
        return MMIO_OK;
    }
    if (off == PERF_CNT_ALL) { /* the FPU and INSTRN_THREAD banks together */
        bank_control(t, PB_FPU, t->perf.bank[PB_FPU].ctrl, val);
        bank_control(t, PB_INSTRN_THREAD, t->perf.bank[PB_INSTRN_THREAD].ctrl, val);
        t->perf.bank[PB_FPU].ctrl = t->perf.bank[PB_INSTRN_THREAD].ctrl = val;
        return MMIO_OK;
    }
    if ((b = bank_of_ctrl(off, &reg)) < 0)
        return unimplemented(t, core, off, "store in");
    struct perf_bank_regs *k = &t->perf.bank[b];
    if (reg == 0) {
        k->ref_period = val;
    } else if (reg == 1) {
        if ((val & 0xFF) == 1) {
            tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
                       "performance counter mode 1 (stop after the reference period) is not "
                       "modelled; modes 0 and 2 are");
            return MMIO_ERROR;
        }
        k->mode = val;
    } else {
        bank_control(t, (enum perf_bank)b, k->ctrl, val);
        k->ctrl = val;
    }
    return MMIO_OK;
}

static const struct mmio_ops ops = {load, store, true, false};

const struct region perf_counter_regions[] = {
    {DBG_BASE + 0x000, DBG_BASE + 0x03F, "performance counters", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
    {DBG_BASE + 0x0F0, DBG_BASE + 0x127, "performance counters", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
    {DBG_BASE + 0x218, DBG_BASE + 0x21B, "performance counters", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
};
const unsigned perf_counter_regions_len = sizeof perf_counter_regions / sizeof perf_counter_regions[0];
