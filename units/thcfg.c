/* The Configuration unit (ThCfg): WRCFG, RDCFG, SETC16, RMWCIB0-3, and on Blackhole CFGSHIFTMASK
 * and STREAMWRCFG, plus the RISC-V configuration window (WH:ConfigurationUnit.md,
 * BH:ConfigurationUnit.md, WH:BackendConfiguration.md, BH:BackendConfiguration.md).
 *
 * Blackhole runs everything except SETC16 through one pipeline whose stage 0 is the Config
 * access (BH:ConfigurationUnit.md):
 *
 *   instruction    stage -1        stage 0                       stage +1
 *   WRCFG          GPR read        Config write
 *   CFGSHIFTMASK   held (cycle 1)  Config read (cycle 1), write (cycle 2)
 *   RMWCIB                         Config read + write
 *   RDCFG                          Config read                   GPR write
 *
 * An instruction enters at its first stage in the cycle it issues and moves one stage per cycle;
 * it may not enter while its entry stage is still held by an older instruction (ordering across
 * threads comes from the same rule). Stage -1 is never held by an older instruction (only
 * STREAMWRCFG, not modelled, enters earlier), so WRCFG always enters; stage 0 is held in the
 * cycle after a WRCFG or CFGSHIFTMASK issued. A write made in stage 0 during cycle x is visible
 * from x + 1.
 *
 * Wormhole has no stage table; its page gives issue rules instead (WH:ConfigurationUnit.md):
 * WRCFG 2 cycles, RMWCIB 1, RDCFG >= 2 blocking its thread, and RMWCIB/RDCFG may not issue in
 * the cycle after any thread issued a WRCFG or RDCFG.
 *
 * Writes are computed at issue (every input is already final then, see docs/timing-model.md) and
 * queued with their visibility cycle; `tick` applies them in order at the start of that cycle. */
#include "thcfg.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../core/rules.h"
#include "../core/tile.h"
#include "gpr.h"
#include "pending.h"

/* RMWCIB0..3 differ only in the byte lane, which accept() takes from the opcode; their fields
 * are read with RMWCIB0's accessors. */
#define SAME_RMWCIB(form)                                                                         \
    (TT_SAME_BITS(RMWCIB0_Mask, form##_Mask) && TT_SAME_BITS(RMWCIB0_NewValue, form##_NewValue) && \
     TT_SAME_BITS(RMWCIB0_Index4, form##_Index4))
_Static_assert(SAME_RMWCIB(RMWCIB1) && SAME_RMWCIB(RMWCIB2) && SAME_RMWCIB(RMWCIB3) &&
                   TT_OPC_RMWCIB3 == TT_OPC_RMWCIB0 + 3,
               "RMWCIB0..3: one layout, consecutive opcodes");

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Extend the pipeline's busy period to `until`, counting the newly covered cycles. */
static void busy_through(struct cfg_unit *u, uint64_t now, uint64_t until)
{
    uint64_t from = u->busy_until > now ? u->busy_until : now;
    if (until > from)
        u->st.busy_cycles += until - from;
    if (until > u->busy_until)
        u->busy_until = until;
}

/* ---- the queue of writes in flight ---- */

static bool pend(struct tile *t, struct cfg_pending p)
{
    struct cfg_unit *u = &t->cfgu;
    if (u->npend == CFG_PENDING_MAX)
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "more than %d configuration writes in flight (tensim limit)",
                          CFG_PENDING_MAX);
    u->pend[u->npend++] = p;
    return true;
}

/* A Config word written through bank(s) `banks`. Words from GLOBAL_CFGREG_BASE_ADDR32 up exist
 * once, so a write to either bank reaches both (BH/WH:BackendConfiguration.md "Special cases"). */
static bool pend_config(struct tile *t, unsigned banks, unsigned index, uint32_t value, uint64_t at,
                        bool side_effects)
{
    if (index >= cfg_arch(tile_arch_bit(t))->global_base)
        banks = 3;
    return pend(t, (struct cfg_pending){.at = at, .value = value, .index = (uint16_t)index,
                                        .kind = CFG_PEND_CONFIG, .banks = (uint8_t)banks,
                                        .side_effects = side_effects});
}

/* STATE_RESET_EN_ADDR32: writing anything there other than with RMWCIB clears the bank's words
 * below GLOBAL_CFGREG_BASE_ADDR32 at once (BH/WH:BackendConfiguration.md "Special cases"). */
static unsigned reset_word(const struct tile *t)
{
    return CFG_DESC(tile_arch_bit(t), STATE_RESET_EN)->word;
}

static void apply(struct tile *t, const struct cfg_pending *p)
{
    t->cfg.gen++;
    switch (p->kind) {
    case CFG_PEND_THREAD:
        t->cfg.thread[p->sel][p->index] = (uint16_t)p->value;
        /* BackendConfiguration.md: setting CfgContextCntReset resets the thread's unpacker
         * context counter, as the write lands */
        for (unsigned u = 0; u < 2; u++) {
            const struct cfg_field_desc *r =
                u ? THCFG_DESC(tile_arch_bit(t), UNPACK_MISC_CFG_CfgContextCntReset_1)
                  : THCFG_DESC(tile_arch_bit(t), UNPACK_MISC_CFG_CfgContextCntReset_0);
            if (p->index == r->word && (p->value >> r->shift & 1))
                tile_signal(t, SIG_CONTEXT_COUNTER_RESET, u, p->sel);
        }
        return;
    default:
        break;
    }
    for (unsigned b = 0; b < 2; b++)
        if (p->banks >> b & 1)
            t->cfg.cfg[b][p->index] = p->value;
    if (!p->side_effects)
        return;
    if (p->index == reset_word(t)) {
        unsigned global = cfg_arch(tile_arch_bit(t))->global_base;
        for (unsigned b = 0; b < 2; b++)
            if (p->banks >> b & 1)
                memset(t->cfg.cfg[b], 0, global * sizeof t->cfg.cfg[b][0]);
        t->cfgu.st.state_resets++;
    } else if (p->index == CFG_DESC(tile_arch_bit(t), PRNG_SEED_Seed_Val)->word) {
        /* re-seeds every PRNG as the write lands (the vector unit owns them) */
        t->cfgu.st.prng_seeds++;
        tile_signal(t, SIG_PRNG_SEED, p->value, 0);
    }
}

/* Queue positions of the writes visible by cycle s, in the order they take effect: by
 * visibility cycle, then in the order they were made. Returns how many. */
_Static_assert(offsetof(struct cfg_pending, at) == 0, "pending_due reads `at` first");

static unsigned due(const struct cfg_unit *u, uint64_t s, unsigned order[CFG_PENDING_MAX])
{
    return pending_due(u->pend, sizeof u->pend[0], u->npend, s, order);
}

/* Apply every write visible by cycle `upto`. */
static void commit(struct tile *t, uint64_t upto)
{
    struct cfg_unit *u = &t->cfgu;
    gpr_commit(&t->gpr_pend, t, upto); /* RDCFG results: GPRs are apart from the Config words */
    unsigned order[CFG_PENDING_MAX];
    unsigned n = due(u, upto, order);
    if (!n)
        return;
    for (unsigned k = 0; k < n; k++)
        apply(t, &u->pend[order[k]]);
    u->npend = pending_remove(u->pend, sizeof u->pend[0], u->npend, order, n);
}

/* The value Config[bank][index] (kind CFG_PEND_CONFIG) or ThreadConfig[sel][index] will have at
 * the start of cycle s, without applying anything. */
static uint32_t peek(const struct tile *t, enum cfg_pend_kind kind, unsigned sel, unsigned index,
                     uint64_t s)
{
    const struct cfg_unit *u = &t->cfgu;
    unsigned global = cfg_arch(tile_arch_bit(t))->global_base, rw = reset_word(t);
    uint32_t v = kind == CFG_PEND_THREAD ? t->cfg.thread[sel][index] : t->cfg.cfg[sel][index];
    unsigned order[CFG_PENDING_MAX];
    unsigned n = due(u, s, order);
    for (unsigned k = 0; k < n; k++) {
        const struct cfg_pending *p = &u->pend[order[k]];
        if (p->kind != kind)
            continue;
        if (kind == CFG_PEND_THREAD) {
            if (p->sel == sel && p->index == index)
                v = p->value & 0xFFFF;
            continue;
        }
        if (!(p->banks >> sel & 1))
            continue;
        if (p->index == index)
            v = p->value;
        if (p->side_effects && p->index == rw && index < global)
            v = 0;
    }
    return v;
}

/* GPRs[th][reg] as it will be at the start of cycle s: with the RDCFG results due by then
 * applied in the order they take effect. A ThCon instruction reads its operands in its second
 * cycle, so an RDCFG just before it is seen (BH:RDCFG.md: the GPR is written in stage +1). */

/* ---- the unit interface ---- */

static enum gate_stall can_accept(const struct tile *t, unsigned th, uint32_t w,
                                  const struct tt_form *f, uint32_t *detail)
{
    const struct cfg_unit *u = &t->cfgu;
    unsigned op = f->opcode;
    (void)w;
    *detail = TT_UNIT_CFG;
    if (tile_is_wormhole(t) && t->now < u->thread_free[th])
        return GS_UNIT_BUSY; /* WH: this thread's RDCFG is still running */
    if (op == TT_OPC_SETC16)
        return GS_NONE; /* its own IPC group, one per thread per cycle */
    if (tile_is_wormhole(t)) {
        if (op != TT_OPC_WRCFG && t->now < u->stage0_free)
            return GS_UNIT_BUSY; /* a WRCFG or RDCFG issued in the previous cycle */
        return GS_NONE;
    }
    if (op == TT_OPC_WRCFG || op == TT_OPC_STREAMWRCFG)
        return GS_NONE; /* enters before stage 0 (at -1), never held by an older instruction */
    return t->now < u->stage0_free ? GS_UNIT_BUSY : GS_NONE;
}

/* SETC16 has its own group (3 per cycle, one per thread); everything else shares the one Config
 * group, one per cycle across all threads (BH:ConfigurationUnit.md; WH:ConfigurationUnit.md). */
static unsigned resource(const struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    (void)t, (void)th, (void)w;
    return f->opcode == TT_OPC_SETC16 ? RES_NONE : RES_CFG;
}

static bool out_of_range(struct tile *t, unsigned th, const struct tt_form *f, unsigned index,
                         unsigned limit, const char *array)
{
    return tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                      "thread T%u: %s index %u is outside %s (%u entries)", th, f->mnemonic,
                      index, array, limit);
}

static uint32_t rotr(uint32_t x, unsigned amt)
{
    amt &= 31;
    return amt ? (x >> amt) | (x << (32 - amt)) : x;
}

/* BH:CFGSHIFTMASK.md functional model. */
static uint32_t shift_mask(uint32_t cfg, uint32_t scratch, unsigned mask_mode, unsigned alu,
                           unsigned width, unsigned rot)
{
    uint32_t mask = (2u << width) - 1u; /* width 31: 2u << 31 wraps to 0, mask 0xFFFFFFFF */
    uint32_t s = rotr(scratch & mask, rot);
    if (mask_mode == 0)
        cfg &= ~rotr(mask, rot);
    switch (alu) {
    case 0: return cfg | s;
    case 1: return cfg & s;
    case 2: return cfg ^ s;
    case 3: return cfg + s;
    case 4: return cfg | ~s;
    case 5: return cfg & ~s;
    case 6: return cfg ^ ~s;
    default: return cfg - s;
    }
}

static bool accept(struct tile *t, unsigned th, uint32_t w, const struct tt_form *f)
{
    struct cfg_unit *u = &t->cfgu;
    const unsigned ab = tile_arch_bit(t);
    const struct cfg_arch_map *m = cfg_arch(ab);
    const uint64_t now = t->now;
    const bool wh = tile_is_wormhole(t);
    /* The bank every Config access of this thread uses (WRCFG.md and the others). */
    const unsigned bank = thcfg_get(&t->cfg, th, THCFG_DESC(ab, CFG_STATE_ID_StateID));

    switch (f->opcode) {
    case TT_OPC_SETC16: { /* SETC16.md: 1 cycle */
        unsigned index = TT_GET_SETC16_CfgIndex(w);
        if (index >= m->thcfg_words)
            return out_of_range(t, th, f, index, m->thcfg_words, "ThreadConfig");
        return pend(t, (struct cfg_pending){.at = now + 1, .value = TT_GET_SETC16_NewValue(w),
                                            .index = (uint16_t)index, .kind = CFG_PEND_THREAD,
                                            .sel = (uint8_t)th});
    }
    case TT_OPC_WRCFG: { /* WRCFG.md: GPR read at issue, Config write in the 2nd cycle */
        unsigned index = TT_GET_WRCFG_CfgIndex(w), reg = TT_GET_WRCFG_InputReg(w);
        if (index >= m->cfg_words)
            return out_of_range(t, th, f, index, m->cfg_words, "Config");
        if (TT_GET_WRCFG_Is128Bit(w)) {
            /* 128 bits: four aligned words from four aligned GPRs. When one of them is
             * STATE_RESET_EN it is queued last, so the reset clears the other three as well
             * (the page does not say which wins; a reset taking precedence is our reading). */
            unsigned base = index & ~3u, rw = reset_word(t);
            for (unsigned pass = 0; pass < 2; pass++)
                for (unsigned k = 0; k < 4; k++)
                    if ((base + k == rw) == (pass == 1) &&
                        !pend_config(t, 1u << bank, base + k, t->gpr[th][(reg & ~3u) + k],
                                     now + 2, true))
                        return false;
        } else if (!pend_config(t, 1u << bank, index, t->gpr[th][reg], now + 2, true)) {
            return false;
        }
        busy_through(u, now, now + 2);
        u->stage0_free = now + 2; /* BH: stage 0 next cycle; WH: RMWCIB/RDCFG not next cycle */
        if (t->lint) /* rule cfg_write_use, checked by the Wait Gate (core/rules.h) */
            t->lint->wrcfg_visible[th] = now + 2, t->lint->wrcfg_index[th] = (uint16_t)index;
        return true;
    }
    case TT_OPC_RDCFG: { /* RDCFG.md: Config read at issue, GPR write in the 2nd cycle */
        unsigned index = TT_GET_RDCFG_CfgIndex(w), reg = TT_GET_RDCFG_ResultReg(w);
        if (index >= m->cfg_words)
            return out_of_range(t, th, f, index, m->cfg_words, "Config");
        /* BH: the GPR write happens in stage +1 (the cycle after issue), so the next instruction
         * still reads the old GPR. WH: the issuing thread is blocked for both cycles
         * (WH:RDCFG.md), so its next instruction, whatever its unit, issues after the GPR
         * write. */
        if (!gpr_write_at(t, th, reg, t->cfg.cfg[bank][index], now + (wh ? 1 : 2)))
            return false;
        busy_through(u, now, now + 2);
        if (wh) {
            u->stage0_free = now + 2;
            u->thread_free[th] = now + 2;
            t->thread[th].frozen_until = now + 2;
            t->thread[th].frozen_unit = TT_UNIT_CFG;
        } else {
            u->stage0_free = max64(u->stage0_free, now + 1);
        }
        return true;
    }
    case TT_OPC_RMWCIB0: case TT_OPC_RMWCIB1: case TT_OPC_RMWCIB2: case TT_OPC_RMWCIB3: { /* RMWCIB.md */
        unsigned lane = f->opcode - TT_OPC_RMWCIB0, index = TT_GET_RMWCIB0_Index4(w);
        if (index >= m->cfg_words)
            return out_of_range(t, th, f, index, m->cfg_words, "Config");
        uint32_t mask = TT_GET_RMWCIB0_Mask(w) << (8 * lane),
                 nv = TT_GET_RMWCIB0_NewValue(w) << (8 * lane);
        uint32_t old = t->cfg.cfg[bank][index];
        /* one cycle: read and write in stage 0; the only write that never triggers
         * STATE_RESET_EN */
        if (!pend_config(t, 1u << bank, index, (nv & mask) | (old & ~mask), now + 1, false))
            return false;
        busy_through(u, now, now + 1);
        if (!wh)
            u->stage0_free = max64(u->stage0_free, now + 1);
        return true;
    }
    case TT_OPC_CFGSHIFTMASK: { /* BH:CFGSHIFTMASK.md: read in cycle 1, write in cycle 2 */
        unsigned index = TT_GET_CFGSHIFTMASK_CfgIndex(w);
        unsigned sidx = TT_GET_CFGSHIFTMASK_ScratchIndex(w);
        if (index >= m->cfg_words)
            return out_of_range(t, th, f, index, m->cfg_words, "Config");
        /* SCRATCH_SEC0..2 are consecutive global words; index 3 picks the thread's own. */
        unsigned sword = cfg_fields_bh[CFGF_BH_SCRATCH_SEC0_val].word + (sidx < 3 ? sidx : th);
        uint32_t v = shift_mask(t->cfg.cfg[bank][index], t->cfg.cfg[bank][sword],
                                TT_GET_CFGSHIFTMASK_MaskMode(w), TT_GET_CFGSHIFTMASK_AluMode(w),
                                TT_GET_CFGSHIFTMASK_MaskWidth(w), TT_GET_CFGSHIFTMASK_RotateAmt(w));
        if (!pend_config(t, 1u << bank, index, v, now + 2, true))
            return false;
        busy_through(u, now, now + 2);
        u->stage0_free = now + 2; /* stage 0 in both cycles: IPC 1/2 */
        return true;
    }
    default: /* STREAMWRCFG */
        return tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                          "STREAMWRCFG (thread T%u): NoC overlay streams are not modelled", th);
    }
}

static void tick(struct tile *t)
{
    if (t->gpr_pend.n || t->cfgu.npend) /* nothing pending: commit would find nothing due */
        commit(t, t->now);
}

static bool active(const struct tile *t) { return t->gpr_pend.n || t->cfgu.npend; }

static uint64_t next_event(const struct tile *t)
{
    const struct cfg_unit *u = &t->cfgu;
    uint64_t next = CYCLE_NEVER;
    const uint64_t times[] = {u->busy_until, u->stage0_free, u->thread_free[0], u->thread_free[1],
                              u->thread_free[2]};
    for (unsigned i = 0; i < sizeof times / sizeof times[0]; i++)
        if (times[i] > t->now && times[i] < next)
            next = times[i];
    for (unsigned i = 0; i < u->npend; i++)
        if (u->pend[i].at > t->now && u->pend[i].at < next)
            next = u->pend[i].at;
    const uint64_t g = gpr_next_write(t, t->now); /* RDCFG results, committed by `tick` */
    return g < next ? g : next;
}

static bool holds(const struct tile *t, unsigned th, unsigned i)
{
    (void)th, (void)i;
    return t->now < t->cfgu.busy_until;
}

static void reset(struct tile *t) { tile_zero(t, &t->cfgu, sizeof t->cfgu); }

static void stats_json(const struct tile *t, FILE *f)
{
    fprintf(f, ", \"busy_cycles\": %" PRIu64 ", \"riscv_reads\": %" PRIu64 ", \"riscv_writes\": %" PRIu64,
            t->cfgu.st.busy_cycles, t->cfgu.st.riscv_reads, t->cfgu.st.riscv_writes);
}


/* ---- RISC-V window ---- */

/* The cycle in which the Configuration unit handles a RISC-V request made now. The core acts
 * after the coprocessor in its cycle, so the earliest is the next cycle; the request enters at
 * stage 0 and, like an instruction, waits while stage 0 is still held by an older WRCFG or
 * CFGSHIFTMASK (BH), or after a WRCFG/RDCFG of the previous cycle (WH). It is handled ahead of
 * instructions issuing in that cycle; contention with them is not modelled. */
static uint64_t riscv_cycle(const struct tile *t)
{
    return max64(t->now + 1, t->cfgu.stage0_free);
}

static enum mmio_status past_arrays(struct tile *t, int core, uint32_t addr, const char *what)
{
    const struct cfg_arch_map *m = cfg_arch(tile_arch_bit(t));
    uint32_t end = CFG_WINDOW_BASE + m->thread_off + 3u * m->thcfg_words * m->thread_slot;
    tile_error(t, ERR_BAD_ACCESS, core, t->core[core].pc,
               "%s of 0x%08x: no configuration register there (the arrays end at 0x%08x)", what,
               addr, end - 1);
    return MMIO_ERROR;
}

static enum mmio_status riscv_load(struct tile *t, int core, const struct region *r, uint32_t addr,
                                   unsigned size, uint32_t *val)
{
    (void)r;
    struct cfg_win_hit h;
    uint64_t s = riscv_cycle(t);
    uint32_t word;
    commit(t, t->now);
    switch (cfg_window_decode(tile_arch_bit(t), addr - CFG_WINDOW_BASE, &h)) {
    case CFG_WIN_CONFIG:
        word = peek(t, CFG_PEND_CONFIG, h.sel, h.index, s);
        break;
    case CFG_WIN_DUAL: /* reads come from bank 0 (BH:BackendConfiguration.md) */
        word = peek(t, CFG_PEND_CONFIG, 0, h.index, s);
        break;
    case CFG_WIN_THREAD: /* 16-bit Value, then padding that reads 0 */
        word = h.byte < 4 ? peek(t, CFG_PEND_THREAD, h.sel, h.index, s) : 0;
        break;
    default:
        return past_arrays(t, core, addr, "load");
    }
    unsigned shift = 8 * (h.byte % 4);
    *val = size == 4 ? word : (word >> shift) & ((1u << (8 * size)) - 1u);
    t->cfgu.st.riscv_reads++;
    return MMIO_OK;
}

static enum mmio_status riscv_store_word(struct tile *t, int core, uint32_t addr, unsigned size,
                                         uint32_t val)
{
    struct cfg_win_hit h;
    commit(t, t->now);
    switch (cfg_window_decode(tile_arch_bit(t), addr - CFG_WINDOW_BASE, &h)) {
    case CFG_WIN_CONFIG:
    case CFG_WIN_DUAL:
        break;
    case CFG_WIN_THREAD:
        /* BH/WH:BackendConfiguration.md: "No RISCV writes"; software pushes SETC16 instead */
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "store to ThreadConfig[%u][%u] (0x%08x): RISC-V cannot write ThreadConfig "
                   "(push SETC16)",
                   h.sel, h.index, addr);
        return MMIO_ERROR;
    default:
        return past_arrays(t, core, addr, "store");
    }
    if (size != 4) {
        tile_error(t, ERR_UNDEF_BEHAVIOUR, core, t->core[core].pc,
                   "%u-byte store to the configuration window 0x%08x (only sw writes Config)", size,
                   addr);
        return MMIO_ERROR;
    }
    unsigned banks = h.kind == CFG_WIN_DUAL ? 3u : 1u << h.sel;
    if (!pend_config(t, banks, h.index, val, riscv_cycle(t), true))
        return MMIO_ERROR;
    tile_wake_tick(t, TT_UNIT_CFG);
    t->cfgu.st.riscv_writes++;
    return MMIO_OK;
}

static enum mmio_status riscv_store(struct tile *t, int core, const struct region *r, uint32_t addr,
                                   unsigned size, uint32_t val)
{
    (void)r;
    if (riscv_store_word(t, core, addr, size, val) != MMIO_OK)
        return MMIO_ERROR;
    tile_wake_coproc(t, t->now + 1);
    return MMIO_OK;
}

static const struct mmio_ops window_ops = {riscv_load, riscv_store, false, false};

static const struct region regions[] = {
    {0xFFEF0000, 0xFFEFFFFF, "Tensix backend configuration", &window_ops, 4, MAP_TB_CORES,
     MAP_BOTH, 0},
};

const struct unit_desc cfg_unit_desc = {
    .name = "cfg", .reset = reset, .can_accept = can_accept, .resource = resource,
    .accept = accept, .tick = tick, .active = active, .next_event = next_event, .holds = holds,
    .stats_json = stats_json, .regions = regions, .nregions = 1,
};
