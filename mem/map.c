#include "map.h"

#include "../core/tile.h"
#include "../sync/gate.h"
#include "../units/tensix_isa.h"

#define T_CORES ((1u << CORE_TRISC0) | (1u << CORE_TRISC1) | (1u << CORE_TRISC2))
#define B_CORE (1u << CORE_BRISC)
#define ALL_CORES (T_CORES | B_CORE)
#define BH 1u
#define WH 2u
#define BOTH (BH | WH)

/* BHR:README.md memory map and load-latency table; WH differences from spec/memory-map.md §1.
 * Latencies are the documented minimums ("at least N"); contention is not modelled yet. */
static const struct region regions[] = {
    {0xFFB11000, 0xFFB11FFF, "TDMA-RISC", REG_UNIMPLEMENTED, 4, ALL_CORES, BH, 0},
    {0xFFB11000, 0xFFB11FFF, "TDMA-RISC", REG_UNIMPLEMENTED, 7, ALL_CORES, WH, 0},
    {0xFFB12000, 0xFFB12FFF, "tile control/debug/status", REG_TILE_CTRL, 7, ALL_CORES, BOTH, 0},
    {0xFFB13000, 0xFFB13FFF, "PIC", REG_UNIMPLEMENTED, 7, ALL_CORES, BOTH, 0},
    {0xFFB14000, 0xFFB15FFF, "BRISC local data RAM (slow path)", REG_LOCAL_SLOW, 8, ALL_CORES, BH,
     CORE_BRISC},
    {0xFFB16000, 0xFFB17FFF, "NCRISC local data RAM (slow path)", REG_UNIMPLEMENTED, 8, ALL_CORES,
     BH, 0},
    {0xFFB18000, 0xFFB19FFF, "TRISC0 local data RAM (slow path)", REG_LOCAL_SLOW, 8, ALL_CORES, BH,
     CORE_TRISC0},
    {0xFFB1A000, 0xFFB1BFFF, "TRISC1 local data RAM (slow path)", REG_LOCAL_SLOW, 8, ALL_CORES, BH,
     CORE_TRISC1},
    {0xFFB1C000, 0xFFB1DFFF, "TRISC2 local data RAM (slow path)", REG_LOCAL_SLOW, 8, ALL_CORES, BH,
     CORE_TRISC2},
    {0xFFB20000, 0xFFB2FFFF, "NoC 0 registers", REG_UNIMPLEMENTED, 7, ALL_CORES, BOTH, 0},
    {0xFFB30000, 0xFFB3FFFF, "NoC 1 registers", REG_UNIMPLEMENTED, 7, ALL_CORES, BOTH, 0},
    {0xFFB40000, 0xFFB7FFFF, "NoC overlay", REG_UNIMPLEMENTED, 7, ALL_CORES, BOTH, 0},
    {0xFFB80000, 0xFFB80023, "MOP expander configuration", REG_MOP_CFG, 7, T_CORES, BOTH, 0},
    {0xFFBD8000, 0xFFBDFFFF, "Tensix Dst window", REG_DEST, 4, T_CORES, BH, 0},
    {0xFFE00000, 0xFFE00FFF, "Tensix GPRs", REG_GPR, 4, ALL_CORES, BOTH, 0},
    {0xFFE40000, 0xFFE6FFFF, "Tensix instruction push", REG_INSTRN_PUSH, 3, ALL_CORES, BOTH, 0},
    {0xFFE80000, 0xFFE80003, "PCBuf", REG_PCBUF, 3, T_CORES, BOTH, 0},
    {0xFFE80000, 0xFFE8FFFF, "PCBuf 0 (BRISC side)", REG_PCBUF, 3, B_CORE, BOTH, 0},
    {0xFFE80004, 0xFFE8000B, "Manual TTSync", REG_TTSYNC, 3, T_CORES, BOTH, 0},
    {0xFFE8000C, 0xFFE8001F, "Manual TTSync (undocumented part)", REG_UNIMPLEMENTED, 3, T_CORES, BOTH, 0},
    {0xFFE80020, 0xFFE8003F, "Tensix semaphores", REG_SEMAPHORE, 3, T_CORES, BOTH, 0},
    {0xFFE80040, 0xFFE8FFFF, "Tensix semaphores (undocumented part)", REG_UNIMPLEMENTED, 3, T_CORES, BOTH, 0},
    {0xFFE90000, 0xFFE9FFFF, "PCBuf 1 (BRISC side)", REG_PCBUF, 3, B_CORE, BOTH, 1},
    {0xFFEA0000, 0xFFEAFFFF, "PCBuf 2 (BRISC side)", REG_PCBUF, 3, B_CORE, BOTH, 2},
    {0xFFEC0000, 0xFFEC3FFF, "mailboxes", REG_UNIMPLEMENTED, 3, ALL_CORES, BOTH, 0},
    {0xFFEF0000, 0xFFEFFFFF, "Tensix backend configuration", REG_CONFIG, 4, ALL_CORES, BOTH, 0},
};

const struct region *map_find(const struct tile *t, int core, uint32_t addr)
{
    static const struct region l1 = {0, 0, "L1", REG_L1, 8, ALL_CORES, BOTH, 0};
    static const struct region local = {MEM_LOCAL_BASE, 0, "local data RAM", REG_LOCAL, 2,
                                        ALL_CORES, BOTH, 0};
    if (addr < t->arch->l1_size)
        return &l1;
    if (addr - MEM_LOCAL_BASE < t->arch->local_ram_size[core])
        return &local;
    unsigned arch_bit = t->arch->id == ARCH_WORMHOLE ? WH : BH;
    for (unsigned i = 0; i < sizeof regions / sizeof regions[0]; i++) {
        const struct region *r = &regions[i];
        if (addr >= r->base && addr <= r->last && (r->archs & arch_bit) && (r->cores >> core & 1))
            return r;
    }
    return 0;
}

static uint32_t read_le(const uint8_t *p, unsigned size)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static void write_le(uint8_t *p, unsigned size, uint32_t v)
{
    for (unsigned i = 0; i < size; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static enum mmio_status unmapped(struct tile *t, int core, uint32_t addr, const char *what)
{
    /* On silicon such loads usually hang and stores may vanish (WHR:README.md, "Faults"). */
    tile_error(t, ERR_BAD_ACCESS, core, t->core[core].pc,
               "%s of 0x%08x: no memory region at this address for %s", what, addr,
               core_name(core));
    return MMIO_ERROR;
}

static enum mmio_status unimplemented(struct tile *t, int core, uint32_t addr,
                                      const struct region *r, const char *what)
{
    tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
               "unimplemented region %s: %s of 0x%08x", r->name, what, addr);
    return MMIO_ERROR;
}

/* Tile control registers (offsets from spec/memory-map.md §4). Only the wall clock is built. */
enum { TRISC_PC_BUF_OVERRIDE = 0x090, WALL_CLOCK_L = 0x1F0, WALL_CLOCK_L_LIVE_H = 0x1F4,
       WALL_CLOCK_H = 0x1F8 };

static enum mmio_status tile_ctrl_load(struct tile *t, int core, uint32_t addr, uint32_t *val)
{
    switch (addr - 0xFFB12000u) {
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
    default:
        tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
                   "unimplemented register RISCV_DEBUG_REGS+0x%03x (load of 0x%08x)",
                   addr - 0xFFB12000u, addr);
        return MMIO_ERROR;
    }
}

static enum mmio_status tile_ctrl_store(struct tile *t, int core, uint32_t addr, uint32_t val)
{
    if (addr - 0xFFB12000u == TRISC_PC_BUF_OVERRIDE) {
        t->pcbuf_override = val & 0x3FFFFFFFu; /* 3 x (En, Busy, 8-bit Value) */
        pcbuf_recheck(t);
        return MMIO_OK;
    }
    if (addr - 0xFFB12000u == WALL_CLOCK_L) {
        t->wall_clock_latch = (uint32_t)(t->now >> 32); /* a write only latches */
        return MMIO_OK;
    }
    tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
               "unimplemented register RISCV_DEBUG_REGS+0x%03x (store to 0x%08x)",
               addr - 0xFFB12000u, addr);
    return MMIO_ERROR;
}

static uint8_t *slow_local(struct tile *t, const struct region *r, uint32_t addr)
{
    /* The 8 KiB windows of the 4 KiB TRISC RAMs alias (spec/memory-map.md §7 item 2). */
    uint32_t size = t->arch->local_ram_size[r->arg];
    return &t->local_ram[r->arg][(addr - r->base) % size];
}

/* Tensix GPRs at REGFILE_BASE (WH:ScalarUnit.md "RISCV access to GPRs"): TRISC i sees
 * GPRs[i][n] at +4*n, BRISC sees GPRs[0..2] one after another (spec/memory-map.md §1). Byte and
 * half-word accesses reach the bytes of a GPR in little-endian order. Returns the GPR and the
 * bit position of the access, or NULL after raising an error for the rest of the region. */
static uint32_t *gpr_slot(struct tile *t, int core, uint32_t addr, const char *what,
                          unsigned *shift)
{
    uint32_t off = addr - 0xFFE00000u;
    unsigned banks = core == CORE_BRISC ? NUM_THREADS : 1;
    if (off >= banks * NUM_GPRS * 4) {
        tile_error(t, ERR_BAD_ACCESS, core, t->core[core].pc,
                   "%s of 0x%08x: past the Tensix GPRs %s sees (%u x 64 x 32 bits from 0xFFE00000)",
                   what, addr, core_name(core), banks);
        return 0;
    }
    unsigned bank = core == CORE_BRISC ? off / (NUM_GPRS * 4) : (unsigned)core;
    *shift = 8 * (off & 3);
    return &t->gpr[bank][(off / 4) % NUM_GPRS];
}

enum mmio_status mmio_load(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t *val,
                           unsigned *latency)
{
    const struct region *r = map_find(t, core, addr);
    if (!r)
        return unmapped(t, core, addr, "load");
    *latency = r->load_latency;
    switch (r->kind) {
    case REG_LOCAL_SLOW:
        *val = read_le(slow_local(t, r, addr), size);
        return MMIO_OK;
    case REG_TILE_CTRL:
        return tile_ctrl_load(t, core, addr & ~3u, val);
    case REG_SEMAPHORE:
        *val = sync_riscv_sem_load(&t->sync, (addr - 0xFFE80020u) / 4);
        return MMIO_OK;
    case REG_CONFIG:
        return cfg_riscv_load(t, core, addr, size, val);
    case REG_GPR: {
        unsigned sh;
        const uint32_t *g = gpr_slot(t, core, addr, "load", &sh);
        if (!g)
            return MMIO_ERROR;
        *val = (*g >> sh) & (0xFFFFFFFFu >> (32 - 8 * size));
        return MMIO_OK;
    }
    case REG_PCBUF:
        return pcbuf_load(t, core, core == CORE_BRISC ? r->arg : (unsigned)core, val);
    case REG_DEST:
        return dest_window_load(t, core, addr, size, val) ? MMIO_OK : MMIO_ERROR;
    case REG_TTSYNC: {
        /* BHR:ManualTTSync.md: the load is held until thread i has nothing in flight
         * (CoprocessorDoneCheck, +4) or no MOP is queued or expanding (MOPExpanderDoneCheck,
         * +8); the value returned carries no information. */
        enum core_wait w = (addr & ~3u) == 0xFFE80004u ? WAIT_COPROC_DONE : WAIT_MOP_DONE;
        *val = 0;
        if (ttsync_done(t, w, (unsigned)core))
            return MMIO_OK;
        t->core[core].wait = w;
        t->core[core].wait_arg = (unsigned)core;
        tile_wake_coproc(t, t->now + 1); /* it re-checks the condition as it runs */
        return MMIO_BLOCK;
    }
    case REG_MOP_CFG:
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "load from MOP expander configuration 0x%08x (write-only)", addr);
        return MMIO_ERROR;
    case REG_INSTRN_PUSH:
        *val = 0; /* write-only; loads are not documented to do anything */
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "load from the Tensix instruction push window 0x%08x", addr);
        return MMIO_ERROR;
    default:
        return unimplemented(t, core, addr, r, "load");
    }
}

enum mmio_status mmio_store(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t val)
{
    const struct region *r = map_find(t, core, addr);
    if (!r)
        return unmapped(t, core, addr, "store");
    switch (r->kind) {
    case REG_LOCAL_SLOW:
        write_le(slow_local(t, r, addr), size, val);
        return MMIO_OK;
    case REG_TILE_CTRL:
        return tile_ctrl_store(t, core, addr & ~3u, val);
    case REG_TTSYNC:
        return MMIO_OK; /* stores are discarded (used to order earlier stores) */
    case REG_GPR: {
        unsigned sh;
        uint32_t *g = gpr_slot(t, core, addr, "store", &sh);
        if (!g)
            return MMIO_ERROR;
        uint32_t m = (0xFFFFFFFFu >> (32 - 8 * size)) << sh;
        *g = (*g & ~m) | ((val << sh) & m);
        tile_wake_coproc(t, t->now + 1); /* the threads see it from the next cycle */
        return MMIO_OK;
    }
    case REG_DEST:
        return dest_window_store(t, core, addr, size, val) ? MMIO_OK : MMIO_ERROR;
    case REG_PCBUF:
        if (core != CORE_BRISC)
            return MMIO_OK; /* TRISC writes are discarded */
        return pcbuf_store(t, r->arg, val);
    case REG_SEMAPHORE:
        if (!sync_riscv_sem_store(t, (addr - 0xFFE80020u) / 4, val)) {
            t->core[core].wait = WAIT_SYNC_SLOT;
            return MMIO_BLOCK;
        }
        tile_wake_coproc(t, t->now + 1);
        return MMIO_OK;
    case REG_CONFIG:
        if (cfg_riscv_store(t, core, addr, size, val) != MMIO_OK)
            return MMIO_ERROR;
        tile_wake_coproc(t, t->now + 1);
        return MMIO_OK;
    case REG_MOP_CFG:
        /* WH:MOPExpander.md: software must not write while an expansion runs. */
        if (mop_busy(&t->thread[core].mop)) {
            tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                       "MOP configuration written while thread T%d's MOP expander is expanding", core);
            return MMIO_ERROR;
        }
        mop_cfg_write(&t->thread[core].mop, (addr - MEM_MOP_CFG_BASE) / 4, val);
        return MMIO_OK;
    case REG_INSTRN_PUSH: {
        unsigned window = (addr - MEM_INSTRN_BUF_BASE) >> 16; /* 0, 1, 2 */
        if (size != 4) {
            tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                       "%u-byte store to the Tensix instruction push window 0x%08x (only sw "
                       "pushes an instruction)",
                       size, addr);
            return MMIO_ERROR;
        }
        if (core != CORE_BRISC && window != 0) {
            /* BHR:PushTensixInstruction.md: from a T core this store hangs the core. */
            tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                       "store to INSTRN%u_BUF_BASE (0x%08x) from %s hangs the core", window, addr,
                       core_name(core));
            return MMIO_ERROR;
        }
        return tensix_push(t, core, core == CORE_BRISC ? window : (unsigned)core, &val, 1);
    }
    default:
        return unimplemented(t, core, addr, r, "store");
    }
}

/* ---- PCBufs (BHR:PCBufs.md) ---- */

static bool pcbuf_override_bit(const struct tile *t, unsigned i, unsigned bit)
{
    return (t->pcbuf_override >> (10 * i + bit)) & 1;
}

static bool pcbuf_b_read_done(const struct tile *t, unsigned i, uint32_t *val)
{
    *val = 0;
    if (pcbuf_override_bit(t, i, 0) && pcbuf_override_bit(t, i, 1))
        return true;
    const struct rv_core *ti = &t->core[i];
    return t->pcbuf[i].count == 0 && ti->state == CORE_BLOCKED && ti->wait == WAIT_PCBUF_POP &&
           thread_drained(t, i);
}

/* Release BRISC reads whose three conditions now hold (called when any of them may change). */
void pcbuf_recheck(struct tile *t)
{
    struct rv_core *b = &t->core[CORE_BRISC];
    uint32_t v;
    if (b->state == CORE_BLOCKED && b->wait == WAIT_PCBUF_B_READ &&
        pcbuf_b_read_done(t, b->wait_arg, &v))
        tile_wake_core(t, CORE_BRISC, t->now);
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        struct rv_core *c = &t->core[i];
        if (c->state == CORE_BLOCKED && c->wait == WAIT_PCBUF_POP && pcbuf_override_bit(t, i, 0))
            tile_wake_core(t, (int)i, t->now + 1);
    }
}

enum mmio_status pcbuf_load(struct tile *t, int core, unsigned i, uint32_t *val)
{
    struct pcbuf *p = &t->pcbuf[i];
    struct rv_core *c = &t->core[core];
    if (core == CORE_BRISC) {
        if (pcbuf_b_read_done(t, i, val))
            return MMIO_OK;
        c->wait = WAIT_PCBUF_B_READ;
        c->wait_arg = i;
        return MMIO_BLOCK;
    }
    if (!p->count) {
        if (pcbuf_override_bit(t, i, 0)) {
            *val = (t->pcbuf_override >> (10 * i + 2)) & 0xFF;
            return MMIO_OK;
        }
        c->wait = WAIT_PCBUF_POP;
        c->wait_arg = i;
        /* BRISC may be waiting for exactly this; it is checked once this core has blocked. */
        tile_wake_coproc(t, t->now + 1);
        return MMIO_BLOCK;
    }
    *val = p->word[p->head];
    p->head = (p->head + 1) % 16;
    p->count--;
    struct rv_core *b = &t->core[CORE_BRISC];
    if (b->state == CORE_BLOCKED && b->wait == WAIT_PCBUF_PUSH && b->wait_arg == i)
        tile_wake_core(t, CORE_BRISC, t->now); /* BRISC acts after the TRISCs in a cycle */
    return MMIO_OK;
}

enum mmio_status pcbuf_store(struct tile *t, unsigned i, uint32_t val)
{
    struct pcbuf *p = &t->pcbuf[i];
    struct rv_core *b = &t->core[CORE_BRISC];
    if (p->count == 16) { /* the shared buffers behind it are not modelled: stall now */
        b->wait = WAIT_PCBUF_PUSH;
        b->wait_arg = i;
        return MMIO_BLOCK;
    }
    p->word[(p->head + p->count) % 16] = val;
    p->count++;
    struct rv_core *c = &t->core[i];
    if (c->state == CORE_BLOCKED && c->wait == WAIT_PCBUF_POP)
        tile_wake_core(t, (int)i, t->now + 1); /* TRISC i acted earlier in this cycle */
    return MMIO_OK;
}

bool ttsync_done(const struct tile *t, enum core_wait w, unsigned th)
{
    const struct tensix_thread *p = &t->thread[th];
    if (w == WAIT_MOP_DONE) {
        for (unsigned i = 0; i < p->fifo1.count; i++)
            if (tt_opcode(tt_fifo_peek(&p->fifo1, i)) == TT_OPC_MOP)
                return false;
        return !mop_busy(&p->mop);
    }
    return thread_drained(t, th);
}

/* ---- the coprocessor's MMIO accesses (LOADREG, STOREREG, STOREIND MMIO form) ---- */

/* The region the Scalar unit reaches at addr: the same table, for the architecture, whatever
 * the cores that see it (ThCon's window is 0xFFB11000..0xFFBFFFFF, WH:LOADREG.md). */
static const struct region *tensix_find(const struct tile *t, uint32_t addr)
{
    unsigned arch_bit = t->arch->id == ARCH_WORMHOLE ? WH : BH;
    for (unsigned i = 0; i < sizeof regions / sizeof regions[0]; i++) {
        const struct region *r = &regions[i];
        if (addr >= r->base && addr <= r->last && (r->archs & arch_bit))
            return r;
    }
    return 0;
}

static enum mmio_status tensix_mmio(struct tile *t, unsigned th, uint32_t addr, uint32_t *val,
                                    bool load)
{
    const char *what = load ? "load" : "store";
    const struct region *r = tensix_find(t, addr);
    if (!r) {
        tile_error(t, ERR_BAD_ACCESS, -1, 0,
                   "thread T%u: Tensix MMIO %s of 0x%08x: no memory region at this address", th,
                   what, addr);
        return MMIO_ERROR;
    }
    switch (r->kind) {
    case REG_LOCAL_SLOW:
        if (load)
            *val = read_le(slow_local(t, r, addr), 4);
        else
            write_le(slow_local(t, r, addr), 4, *val);
        return MMIO_OK;
    case REG_TILE_CTRL:
        return load ? tile_ctrl_load(t, -1, addr, val) : tile_ctrl_store(t, -1, addr, *val);
    default:
        /* TDMA-RISC, PIC, NoC, overlay; and the regions only the TRISCs see (MOP expander
         * configuration, Dst), whose behaviour from the coprocessor is not documented. */
        tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                   "unimplemented region %s: Tensix MMIO %s of 0x%08x (thread T%u)", r->name,
                   what, addr, th);
        return MMIO_ERROR;
    }
}

enum mmio_status tensix_mmio_load(struct tile *t, unsigned th, uint32_t addr, uint32_t *val)
{
    return tensix_mmio(t, th, addr, val, true);
}

enum mmio_status tensix_mmio_store(struct tile *t, unsigned th, uint32_t addr, uint32_t val)
{
    return tensix_mmio(t, th, addr, &val, false);
}

enum mmio_status tensix_push(struct tile *t, int core, unsigned thread, const uint32_t *w,
                             unsigned n)
{
    struct tensix_thread *th = &t->thread[thread];
    /* TRISC pushes enter before the MOP expander, BRISC pushes after it (spec/sync-timing.md §1). */
    struct tt_fifo *f = core == CORE_BRISC ? &th->fifo2 : &th->fifo1;
    if (!tt_fifo_push(f, w, n)) {
        struct rv_core *c = &t->core[core];
        c->wait = WAIT_TENSIX_FIFO;
        c->wait_arg = thread;
        th->blocked_cores |= 1u << core;
        return MMIO_BLOCK;
    }
    th->pushed += n;
    t->core[core].st.tensix_pushes += n;
    tile_wake_coproc(t, t->now + 1); /* visible to the coprocessor from the next cycle */
    return MMIO_OK;
}
