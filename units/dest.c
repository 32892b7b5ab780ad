#include "dest.h"

#include "../core/rules.h"
#include "../core/tile.h"

/* DEST_ACCESS_CFG is a global Config word (>= GLOBAL_CFGREG_BASE_ADDR32): bank 0 holds it. */
bool dest_remap_addrs(const struct tile *t)
{
    if (t->arch->id == ARCH_WORMHOLE)
        return false; /* no DEST_ACCESS_CFG_remap_addrs in the Wormhole register map */
    return cfg_get(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_remap_addrs]) != 0;
}

bool dest_swizzle_32b(const struct tile *t)
{
    if (t->arch->id == ARCH_WORMHOLE)
        return false;
    return cfg_get(&t->cfg, 0, &cfg_fields_bh[CFGF_BH_DEST_ACCESS_CFG_swizzle_32b]) != 0;
}

uint16_t dest_read16(const struct tile *t, unsigned row, unsigned col)
{
    return t->dest.bits[dest_phys(dest_map_of(t), false, row)][col];
}

void dest_write16(struct tile *t, unsigned row, unsigned col, uint16_t v)
{
    t->dest.bits[dest_phys(dest_map_of(t), false, row)][col] = v;
}

struct dest_map dest_map_of(const struct tile *t)
{
    return (struct dest_map){dest_remap_addrs(t), dest_swizzle_32b(t), t->dest.dst16_on_hi32};
}

void dest_set_dst16_on_hi32(struct tile *t, bool on)
{
    t->dest.dst16_on_hi32 = on;
}

uint32_t dest_read32(const struct tile *t, unsigned row, unsigned col)
{
    return dest_get32_at(&t->dest, dest_phys(dest_map_of(t), true, row), col);
}

void dest_write32(struct tile *t, unsigned row, unsigned col, uint32_t v)
{
    dest_put32_at(&t->dest, dest_phys(dest_map_of(t), true, row), col, v);
}

/* ---- the RISC-V window (BH:Dst.md "RISCV access"): one element per access for T0/T1; T2
 * may cover several aligned elements with one scalar access ---- */

struct window_cfg {
    unsigned fmt;
    bool no_swizzle, unsigned_int;
};

static struct window_cfg window_cfg(const struct tile *t, int core)
{
    unsigned ab = tile_arch_bit(t);
    unsigned bank = thcfg_get(&t->cfg, (unsigned)core, THCFG_DESC(ab, CFG_STATE_ID_StateID));
    static const enum cfg_field_bh fmt[3] = {CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC0_fmt,
                                             CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC1_fmt,
                                             CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC2_fmt};
    static const enum cfg_field_bh nosw[3] = {CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC0_no_swizzle,
                                              CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC1_no_swizzle,
                                              CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC2_no_swizzle};
    static const enum cfg_field_bh uns[3] = {CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC0_unsigned_int,
                                             CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC1_unsigned_int,
                                             CFGF_BH_RISC_DEST_ACCESS_CTRL_SEC2_unsigned_int};
    return (struct window_cfg){
        cfg_get(&t->cfg, bank, &cfg_fields_bh[fmt[core]]),
        cfg_get(&t->cfg, bank, &cfg_fields_bh[nosw[core]]) != 0,
        cfg_get(&t->cfg, bank, &cfg_fields_bh[uns[core]]) != 0,
    };
}

static unsigned element_size(unsigned fmt) { return fmt <= 1 ? 4 : fmt <= 4 ? 2 : 1; }

static bool bad_format(struct tile *t, int core, uint32_t addr, unsigned size, unsigned fmt,
                       const char *what)
{
    tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
               "%u-byte %s of the Dst window at 0x%08x with RISC_DEST_ACCESS_CTRL fmt %u", size,
               what, addr, fmt);
    return false;
}

static uint32_t load_element(const struct tile *t, struct window_cfg w, unsigned index)
{
    switch (w.fmt) {
    case 0:
    case 1: {
        uint32_t v = dest_read32(t, index / 16, index % 16);
        if (!w.no_swizzle)
            v = (v & 0x8000ffffu) | ((v & 0x7f000000u) >> 8) | ((v & 0x00ff0000u) << 7);
        if (w.fmt == 1 && !w.no_swizzle && v >= 0x80000000u)
            v = 0u - (v & 0x7fffffffu); /* sign-magnitude to two's complement; -0 -> +0 */
        return v;
    }
    case 2: {
        uint16_t v = dest_read16(t, index / 16, index % 16);
        return w.no_swizzle ? v : (v & 0x8000u) | ((v & 0x7fe0u) >> 5) | ((v & 0x001fu) << 10);
    }
    case 3: {
        uint16_t v = dest_read16(t, index / 16, index % 16);
        return w.no_swizzle ? v : (v & 0x8000u) | ((v & 0x7f00u) >> 8) | ((v & 0x00ffu) << 7);
    }
    case 4: {
        uint16_t v = dest_read16(t, index / 16, index % 16);
        if (w.no_swizzle || w.unsigned_int || v < 0x8000u)
            return v;
        return (uint16_t)(0u - (v & 0x7fffu));
    }
    default: { /* 5 */
        uint16_t v = dest_read16(t, index / 16, index % 16);
        if (w.no_swizzle || w.unsigned_int)
            return (v >> 5) & 0xffu;
        uint8_t mag = (v >> 5) & 0x7f;
        return (uint8_t)(v & 0x8000u ? 0u - mag : mag);
    }
    }
}

static void store_element(struct tile *t, struct window_cfg w, unsigned index, uint32_t v)
{
    switch (w.fmt) {
    case 0:
    case 1:
        if (w.fmt == 1 && !w.no_swizzle && v >= 0x80000000u) /* clamps -2^31 */
            v = 0x80000000u | (0u - (v + (v == 0x80000000u)));
        if (!w.no_swizzle)
            v = (v & 0x8000ffffu) | ((v & 0x7f800000u) >> 7) | ((v & 0x007f0000u) << 8);
        dest_write32(t, index / 16, index % 16, v);
        return;
    case 2:
        if (!w.no_swizzle)
            v = (v & 0x8000u) | ((v & 0x7c00u) >> 10) | ((v & 0x03ffu) << 5);
        dest_write16(t, index / 16, index % 16, (uint16_t)v);
        return;
    case 3:
        if (!w.no_swizzle)
            v = (v & 0x8000u) | ((v & 0x7f80u) >> 7) | ((v & 0x007fu) << 8);
        dest_write16(t, index / 16, index % 16, (uint16_t)v);
        return;
    case 4:
        v &= 0xffffu;
        if (!(w.no_swizzle || w.unsigned_int || v < 0x8000u))
            v = 0x8000u | ((0u - (v + (v == 0x8000u))) & 0xffffu);
        dest_write16(t, index / 16, index % 16, (uint16_t)v);
        return;
    default: { /* 5: the documented conversion of negative values is not two's complement */
        v &= 0xffu;
        uint16_t v16;
        if (w.no_swizzle || w.unsigned_int || v < 0x80u) {
            v16 = (uint16_t)(v << 5 | (v ? 16 : 0));
        } else {
            unsigned mag = (0x180u - v - (v == 0x80u)) & 0xffu;
            v16 = (uint16_t)(0x8000u | mag << 5 | 16);
        }
        dest_write16(t, index / 16, index % 16, v16);
        return;
    }
    }
}

/* Shared checks: the format must be defined and, for TRISC0/1, the access exactly one element;
 * TRISC2 may cover several (BH:Dst.md). Returns the element size, 0 after an error. */
static unsigned check(struct tile *t, int core, uint32_t addr, unsigned size, struct window_cfg w,
                      const char *what)
{
    if (w.fmt > 5)
        return bad_format(t, core, addr, size, w.fmt, what), 0;
    unsigned es = element_size(w.fmt);
    if (size < es || (size > es && core != CORE_TRISC2))
        return bad_format(t, core, addr, size, w.fmt, what), 0;
    return es;
}

/* --lint (BH:Dst.md "Instruction scheduling"): a RISC-V read of a Dst block that a Tensix unit
 * (matrix unit or SFPSTORE) is still writing; the core needs a STALLWAIT or a completion wait
 * (a semaphore) first. `row` is the logical row of the element read. */
static __attribute__((noinline)) void lint_early(struct tile *t, int core, struct window_cfg w,
                                                 unsigned row)
{
    const int b = dest_first_blocked(&t->dest, dest_map_of(t), w.fmt <= 1, row, 1, t->now);
    if (b >= 0)
        rule_broken(t, RULE_DST_RISCV_EARLY, rule_site_riscv(t, core),
                    "%s: load from the Dst window reads Dst%s row %u (DstBits block %d), which is "
                    "being written until cycle %llu",
                    core_name(core), w.fmt <= 1 ? "32b" : "16b", row & 0x3FF, b,
                    (unsigned long long)t->dest.block_ready[b]);
}

bool dest_window_load(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t *val)
{
    struct window_cfg w = window_cfg(t, core);
    unsigned es = check(t, core, addr, size, w, "load");
    if (!es)
        return false;
    uint32_t off = addr - DEST_WINDOW_BASE, v = 0;
    if (t->lint)
        lint_early(t, core, w, (off / es) / 16);
    for (unsigned k = 0; k < size / es; k++)
        v |= (load_element(t, w, off / es + k) & (0xffffffffu >> (32 - 8 * es))) << (8 * es * k);
    *val = v;
    return true;
}

bool dest_window_store(struct tile *t, int core, uint32_t addr, unsigned size, uint32_t val)
{
    struct window_cfg w = window_cfg(t, core);
    unsigned es = check(t, core, addr, size, w, "store");
    if (!es)
        return false;
    uint32_t off = addr - DEST_WINDOW_BASE;
    for (unsigned k = 0; k < size / es; k++)
        store_element(t, w, off / es + k, es == 4 ? val : (val >> (8 * es * k)) & ((1u << (8 * es)) - 1));
    return true;
}

int dest_first_blocked(const struct dest *d, struct dest_map m, bool dst32, unsigned row0,
                       unsigned n, uint64_t now)
{
    for (unsigned i = 0; i < n; i++) {
        const unsigned p = dest_phys(m, dst32, (row0 + i) & 0x3FF);
        if (d->block_ready[p / 8] > now)
            return (int)(p / 8);
        if (dst32 && d->block_ready[(p + 8) / 8] > now)
            return (int)((p + 8) / 8);
    }
    return -1;
}

int dest_fpu_pending(const struct dest *d, struct dest_map m, bool dst32, unsigned row, uint64_t now)
{
    const unsigned p = dest_phys(m, dst32, row & 0x3FF);
    if (d->fpu_ready[p / 8] > now)
        return (int)(p / 8);
    if (dst32 && d->fpu_ready[(p + 8) / 8] > now)
        return (int)((p + 8) / 8);
    return -1;
}

bool dest_sfpu_read(const struct dest *d, struct dest_map m, bool dst32, unsigned row,
                    unsigned col, uint32_t *v)
{
    const unsigned p = dest_phys(m, dst32, row & 0x3FF);
    if (dst32) {
        if (!d->row_valid[p] || !d->row_valid[p + 8])
            return false;
        *v = dest_get32_at(d, p, col);
    } else {
        if (!d->row_valid[p])
            return false;
        *v = d->bits[p][col];
    }
    return true;
}

/* One DstBits row got column col from SFPSTORE. */
static void sfpu_row_written(struct dest *d, unsigned p, unsigned col, uint64_t ready)
{
    if (d->row_valid[p]) {
        d->sfpu_cols[p] = 0;
    } else if ((d->sfpu_cols[p] |= (uint16_t)(1u << col)) == 0xFFFF) {
        d->row_valid[p] = true;
        d->sfpu_cols[p] = 0;
    }
    if (d->block_ready[p / 8] < ready)
        d->block_ready[p / 8] = ready;
}

void dest_sfpu_write(struct dest *d, struct dest_map m, bool dst32, unsigned row, unsigned col,
                     uint32_t v, uint64_t ready)
{
    const unsigned p = dest_phys(m, dst32, row & 0x3FF);
    if (dst32) {
        dest_put32_at(d, p, col, v);
        sfpu_row_written(d, p + 8, col, ready);
    } else {
        d->bits[p][col] = (uint16_t)v;
    }
    sfpu_row_written(d, p, col, ready);
}

uint64_t dest_next_ready(const struct dest *d, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (unsigned b = 0; b < DEST_BLOCKS; b++)
        if (d->block_ready[b] > now && d->block_ready[b] < next)
            next = d->block_ready[b];
    return next;
}

static enum mmio_status window_load(struct tile *t, int core, const struct region *r, uint32_t addr,
                                    unsigned size, uint32_t *val)
{
    (void)r;
    return dest_window_load(t, core, addr, size, val) ? MMIO_OK : MMIO_ERROR;
}

static enum mmio_status window_store(struct tile *t, int core, const struct region *r,
                                     uint32_t addr, unsigned size, uint32_t val)
{
    (void)r;
    return dest_window_store(t, core, addr, size, val) ? MMIO_OK : MMIO_ERROR;
}

static const struct mmio_ops window_ops = {window_load, window_store, false, false};

const struct region dest_regions[] = {
    {DEST_WINDOW_BASE, DEST_WINDOW_BASE + DEST_WINDOW_SIZE - 1, "Tensix Dst window", &window_ops, 4,
     MAP_T_CORES, MAP_BH, 0},
};
const unsigned dest_regions_len = 1;
