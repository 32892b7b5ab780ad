/* Tile control, debug and status registers at RISCV_DEBUG_REGS 0xFFB12000 (spec/memory-map.md §4,
 * WHT:TileControlDebugStatus.md): the wall clock, the PCBuf override register, soft reset and the
 * Blackhole reset-pc registers (§6, BHT:SoftReset.md) and the clock-gating controls tt-llk's boot
 * writes; any other register stops the run as unimplemented. The coprocessor reaches them too
 * (LOADREG). */
#include "tile.h"

#include "../mem/map.h"
#include "../riscv/pcbuf.h"
#include "../sync/push.h"

#include <string.h>

enum { TILE_CTRL_BASE = 0xFFB12000u, DBG_FEATURE_DISABLE = 0x068, TRISC_PC_BUF_OVERRIDE = 0x090,
       INSTRN_BUF_CTRL0 = 0x0A0, INSTRN_BUF_CTRL1 = 0x0A4, INSTRN_BUF_STATUS = 0x0A8,
       SOFT_RESET_0 = 0x1B0,
       WALL_CLOCK_L = 0x1F0, WALL_CLOCK_L_LIVE_H = 0x1F4, WALL_CLOCK_H = 0x1F8,
       TRISC0_RESET_PC = 0x228, TRISC_RESET_PC_OVERRIDE = 0x234, NCRISC_RESET_PC = 0x238,
       NCRISC_RESET_PC_OVERRIDE = 0x23C, DEST_CG_CTRL = 0x240,
       CG_KICK = 0x248 };

/* ---- soft reset (spec/memory-map.md §6.1-6.2) ---- */

/* SOFT_RESET_0: RISCV B is bit 11, RISCV T0/T1/T2 bits 12/13/14, RISCV NC bit 18. */
unsigned tile_core_reset_bit(int core)
{
    return core == CORE_BRISC ? 11u : core == CORE_NCRISC ? 18u : 12u + (unsigned)core;
}

static uint32_t core_reset_mask(void)
{
    uint32_t m = 0;
    for (int i = 0; i < NUM_CORES; i++)
        m |= 1u << tile_core_reset_bit(i);
    return m;
}

static const uint32_t default_trisc_pc[NUM_THREADS] = {0x6000, 0xA000, 0xE000};

/* Wormhole keeps the TRISC reset pcs in Config (global words, so bank 0 holds them). */
static const struct cfg_field_desc *const wh_reset_pc[NUM_THREADS] = {
    &cfg_fields_wh[CFGF_WH_TRISC_RESET_PC_SEC0_PC], &cfg_fields_wh[CFGF_WH_TRISC_RESET_PC_SEC1_PC],
    &cfg_fields_wh[CFGF_WH_TRISC_RESET_PC_SEC2_PC]};
static const struct cfg_field_desc *const wh_override =
    &cfg_fields_wh[CFGF_WH_TRISC_RESET_PC_OVERRIDE_Reset_PC_Override_en];
static const struct cfg_field_desc *const wh_nc_reset_pc = &cfg_fields_wh[CFGF_WH_NCRISC_RESET_PC_PC];
static const struct cfg_field_desc *const wh_nc_override =
    &cfg_fields_wh[CFGF_WH_NCRISC_RESET_PC_OVERRIDE_Reset_PC_Override_en];
#define NCRISC_DEFAULT_PC 0x12000u /* spec/memory-map.md §6.2 */

uint32_t tile_reset_pc(const struct tile *t, int core)
{
    if (core == CORE_BRISC)
        return 0; /* fixed (spec/memory-map.md §6.2) */
    if (core == CORE_NCRISC) {
        if (tile_is_wormhole(t))
            return cfg_get(&t->cfg, 0, wh_nc_override) ? cfg_get(&t->cfg, 0, wh_nc_reset_pc)
                                                       : NCRISC_DEFAULT_PC;
        return t->boot.ncrisc_override & 1 ? t->boot.ncrisc_reset_pc : NCRISC_DEFAULT_PC;
    }
    if (tile_is_wormhole(t))
        return cfg_get(&t->cfg, 0, wh_override) >> core & 1 ? cfg_get(&t->cfg, 0, wh_reset_pc[core])
                                                             : default_trisc_pc[core];
    return t->boot.reset_pc_override >> core & 1 ? t->boot.trisc_reset_pc[core]
                                                 : default_trisc_pc[core];
}

void tile_set_reset_pc(struct tile *t, int core, uint32_t pc)
{
    if (core == CORE_BRISC)
        return;
    if (core == CORE_NCRISC) {
        if (tile_is_wormhole(t)) {
            cfg_set(&t->cfg, 0, wh_nc_reset_pc, pc);
            cfg_set(&t->cfg, 0, wh_nc_override, 1);
        } else {
            t->boot.ncrisc_reset_pc = pc;
            t->boot.ncrisc_override = 1;
        }
        return;
    }
    if (tile_is_wormhole(t)) {
        cfg_set(&t->cfg, 0, wh_reset_pc[core], pc);
        cfg_set(&t->cfg, 0, wh_override, cfg_get(&t->cfg, 0, wh_override) | 1u << core);
        return;
    }
    t->boot.trisc_reset_pc[core] = pc;
    t->boot.reset_pc_override |= 1u << core;
}

/* Leaving reset: registers cleared, branch history and caches gone, pc from the reset-pc rules.
 * Blackhole also re-zeroes the core's local data RAM (BHT:SoftReset.md; instantly here, where
 * the hardware takes up to 2048 cycles, a cost not yet modelled). The counters carry on. */
static void leave_reset(struct tile *t, int id, uint64_t cycle)
{
    struct rv_core *c = &t->core[id];
    struct core_stats st = c->st;
    rv_core_reset(c, id, tile_reset_pc(t, id));
    c->st = st;
    if (!tile_is_wormhole(t))
        memset(t->local_ram[id], 0, t->arch->local_ram_size[id]);
    c->state = CORE_RUNNING;
    c->wake = cycle;
    tile_wake_core(t, id, cycle); /* stops the running agent in time */
}

/* Entering reset stops the core where it is and empties the mailboxes it writes. What else the
 * hardware drops (the thread's FIFO1 and MOP expander contents) is not modelled; tt-llk's harness
 * only resets cores that have finished. A core that had exited stays "halted", so that its exit
 * code still counts (docs/user-guide.md "Exit status"). */
static void enter_reset(struct tile *t, int id)
{
    struct rv_core *c = &t->core[id];
    tile_settle_core(t, id); /* it stops where lockstep has it now, not where it ran ahead to */
    mailbox_core_reset(t, id);
    if (c->state == CORE_HALTED)
        return;
    for (unsigned th = 0; th < NUM_THREADS; th++)
        t->thread[th].blocked_cores &= ~(1u << id);
    c->state = CORE_OFF;
    c->wait = WAIT_NONE;
}

int tile_soft_reset_write(struct tile *t, int writer, uint32_t value, uint64_t cycle)
{
    uint32_t cores = core_reset_mask(), changed = value ^ t->boot.soft_reset;
    if (changed & ~cores) {
        tile_error(t, ERR_UNIMPLEMENTED, writer, writer >= 0 ? t->core[writer].pc : 0,
                   "soft reset of units (SOFT_RESET_0 bits 0x%x changed; only the RISC-V cores' "
                   "bits 11-14 and 18 are modelled)", changed & ~cores);
        return -1;
    }
    t->boot.soft_reset = value;
    for (int i = 0; i < NUM_CORES; i++) {
        uint32_t bit = 1u << tile_core_reset_bit(i);
        if (!(changed & bit))
            continue;
        if (value & bit)
            enter_reset(t, i);
        else
            leave_reset(t, i, cycle);
    }
    return 0;
}

/* Blackhole's reset-pc registers and clock-gating controls, or NULL. Clock gating saves power;
 * it changes no result and no documented timing, so its registers only keep their values. */
static uint32_t *boot_reg(struct tile *t, uint32_t off)
{
    if (tile_is_wormhole(t))
        return 0;
    if (off >= TRISC0_RESET_PC && off < TRISC_RESET_PC_OVERRIDE)
        return &t->boot.trisc_reset_pc[(off - TRISC0_RESET_PC) / 4];
    if (off == TRISC_RESET_PC_OVERRIDE)
        return &t->boot.reset_pc_override;
    if (off == NCRISC_RESET_PC)
        return &t->boot.ncrisc_reset_pc;
    if (off == NCRISC_RESET_PC_OVERRIDE)
        return &t->boot.ncrisc_override;
    if (off >= DEST_CG_CTRL && off <= CG_KICK)
        return &t->boot.clock_gating[(off - DEST_CG_CTRL) / 4];
    return 0;
}

/* ---- the debug push (WHR:PushTensixInstruction.md "Debug registers"; BH the same) ---- */

/* INSTRN_BUF_STATUS: bits 0-2 the FIFO before thread i's replay expander (FIFO2) is not full,
 * bits 4-6 it is empty. */
static uint32_t instrn_buf_status(const struct tile *t)
{
    uint32_t v = 0;
    for (unsigned th = 0; th < NUM_THREADS; th++) {
        const struct tt_fifo *f = &t->thread[th].fifo2;
        v |= (uint32_t)tt_fifo_has_room(f, 1) << th | (uint32_t)(f->count == 0) << (4 + th);
    }
    return v;
}

/* INSTRN_BUF_CTRL0: bit i gives the debug bus thread i's FIFO2; while it has it, bit 4 + i going
 * from 0 to 1 pushes INSTRN_BUF_CTRL1 there ("Software should not push when said FIFO is
 * full": an error). Reserved bits stop the run as unimplemented. */
static enum mmio_status instrn_buf_ctrl0(struct tile *t, int core, uint32_t val)
{
    if (val & ~0x77u) {
        tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
                   "INSTRN_BUF_CTRL0 = 0x%x (reserved bits)", val);
        return MMIO_ERROR;
    }
    const uint32_t rising = val & ~t->boot.instrn_buf_ctrl[0];
    t->boot.instrn_buf_ctrl[0] = val;
    for (unsigned th = 0; th < NUM_THREADS; th++) {
        if (!(rising >> (4 + th) & 1) || !(val >> th & 1))
            continue;
        if (!tensix_host_push(t, th, t->boot.instrn_buf_ctrl[1])) {
            tile_error(t, ERR_UNDEF_BEHAVIOUR, core, core >= 0 ? t->core[core].pc : 0,
                       "debug push (INSTRN_BUF_CTRL0) into thread %u's full FIFO", th);
            return MMIO_ERROR;
        }
    }
    return MMIO_OK;
}

static enum mmio_status unimplemented(struct tile *t, int core, uint32_t addr, const char *what)
{
    tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
               "unimplemented register RISCV_DEBUG_REGS+0x%03x (%s 0x%08x)", addr - TILE_CTRL_BASE,
               what, addr);
    return MMIO_ERROR;
}

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    (void)r, (void)size;
    addr &= ~3u;
    switch (addr - TILE_CTRL_BASE) {
    case TRISC_PC_BUF_OVERRIDE:
        *val = t->pcbuf_override;
        return MMIO_OK;
    case WALL_CLOCK_L:
        /* Reading the low half latches the high half (WHT:TileControlDebugStatus.md). */
        t->wall_clock_latch = (uint32_t)(t->now >> 32);
        *val = (uint32_t)t->now;
        return MMIO_OK;
    case WALL_CLOCK_L_LIVE_H:
        *val = (uint32_t)(t->now >> 32);
        return MMIO_OK;
    case WALL_CLOCK_H:
        *val = t->wall_clock_latch;
        return MMIO_OK;
    case SOFT_RESET_0:
        *val = t->boot.soft_reset;
        return MMIO_OK;
    case INSTRN_BUF_CTRL0:
    case INSTRN_BUF_CTRL1:
        *val = t->boot.instrn_buf_ctrl[(addr - TILE_CTRL_BASE - INSTRN_BUF_CTRL0) / 4];
        return MMIO_OK;
    case INSTRN_BUF_STATUS:
        *val = instrn_buf_status(t);
        return MMIO_OK;
    case DBG_FEATURE_DISABLE:
        *val = dest_map_of(t).hi16 ? 1u << 11 : 0;
        return MMIO_OK;
    }
    uint32_t *reg = boot_reg(t, addr - TILE_CTRL_BASE);
    if (reg) {
        *val = *reg;
        return MMIO_OK;
    }
    return unimplemented(t, core, addr, "load of");
}

static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    (void)r;
    if (size < 4 && (addr & ~3u) - TILE_CTRL_BASE == SOFT_RESET_0) {
        /* a narrow store changes only its bytes of the register */
        uint32_t shift = (addr & 3) * 8, mask = ((1u << (8 * size)) - 1) << shift;
        val = (t->boot.soft_reset & ~mask) | ((val << shift) & mask);
    }
    addr &= ~3u;
    if (addr - TILE_CTRL_BASE == TRISC_PC_BUF_OVERRIDE) {
        t->pcbuf_override = val & 0x3FFFFFFFu; /* 3 x (En, Busy, 8-bit Value) */
        pcbuf_recheck(t);
        return MMIO_OK;
    }
    if (addr - TILE_CTRL_BASE == WALL_CLOCK_L) {
        t->wall_clock_latch = (uint32_t)(t->now >> 32); /* a write only latches */
        return MMIO_OK;
    }
    uint32_t off = addr - TILE_CTRL_BASE;
    /* Bit 11 makes Dst16b accesses reach the high halves of Dst32b (BH:Dst.md; the Dst owner
     * keeps it); tt-llk sets it around a few integer and broadcast paths and clears it after.
     * The other bits are undocumented. */
    if (off == DBG_FEATURE_DISABLE) {
        if (!(val & ~(1u << 11))) {
            dest_set_dst16_on_hi32(t, val != 0);
            return MMIO_OK;
        }
        tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
                   "DBG_FEATURE_DISABLE = 0x%x (undocumented bits)", val);
        return MMIO_ERROR;
    }
    if (off == INSTRN_BUF_CTRL0)
        return instrn_buf_ctrl0(t, core, val);
    if (off == INSTRN_BUF_CTRL1) {
        t->boot.instrn_buf_ctrl[1] = val;
        return MMIO_OK;
    }
    if (off == SOFT_RESET_0) /* takes effect in the next cycle */
        return tile_soft_reset_write(t, core, val, t->now + 1) ? MMIO_ERROR : MMIO_OK;
    uint32_t *reg = boot_reg(t, off);
    if (reg) {
        *reg = off == TRISC_RESET_PC_OVERRIDE    ? val & 7
               : off == NCRISC_RESET_PC_OVERRIDE ? val & 1
                                                 : val;
        return MMIO_OK;
    }
    return unimplemented(t, core, addr, "store to");
}

static const struct mmio_ops ops = {load, store, true, false};

bool tile_ctrl_host(struct tile *t, uint32_t addr, bool write, uint32_t *val)
{
    if (addr < TILE_CTRL_BASE || addr > 0xFFB12FFFu)
        return false;
    /* The performance counters' rows inside the block belong to core/perf_counters.c: the
     * host reaches them through the tile's map, as BRISC's view shows them. */
    const struct region *r = map_find(t, CORE_BRISC, addr);
    if (r && r->ops && r->ops != &ops) {
        if (write)
            r->ops->store(t, -1, r, addr, 4, *val);
        else
            r->ops->load(t, -1, r, addr, 4, val);
        return true;
    }
    if (write && addr - TILE_CTRL_BASE == SOFT_RESET_0) {
        /* Bit 31 is UMD's staggered start request (ttsim drops it too); the host's write takes
         * effect at once: every agent of the tile has acted before t->now. */
        tile_soft_reset_write(t, -1, *val & 0x7FFFFFFFu, t->now);
        return true;
    }
    if (write)
        store(t, -1, NULL, addr, 4, *val);
    else
        load(t, -1, NULL, addr, 4, val);
    return true;
}

const struct region tile_ctrl_regions[] = {
    /* around the performance-counter registers' rows (core/perf_counters.c) */
    {TILE_CTRL_BASE + 0x040, TILE_CTRL_BASE + 0x0EF, "tile control/debug/status", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
    {TILE_CTRL_BASE + 0x128, TILE_CTRL_BASE + 0x217, "tile control/debug/status", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
    {TILE_CTRL_BASE + 0x21C, 0xFFB12FFF, "tile control/debug/status", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
};
const unsigned tile_ctrl_regions_len = 3;
