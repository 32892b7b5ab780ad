/* The Wait Gate (WH:WaitGate.md) and the order of work inside the coprocessor in one cycle.
 *
 * One cycle, two phases, so that results never depend on the order threads are visited:
 *  1. every thread's gate looks at the instruction at the head of FIFO3 and decides, from
 *     state committed in earlier cycles, whether it could issue and why not;
 *  2. threads competing for a resource that takes one instruction per cycle are arbitrated,
 *     the winners issue (the unit's accept performs the functional effect), latched waits whose
 *     conditions held in phase 1 are released, and then each thread's replay expander and MOP
 *     expander move at most one word each (downstream stages first, so a word advances at most
 *     one stage per cycle).
 * A latched wait therefore blocks the next instruction for at least one cycle: the cycle in
 * which its conditions are first seen to hold still blocks, and the release is visible the
 * cycle after (WH:WaitGate.md, WH:STALLWAIT.md). */
#include "gate.h"

#include <inttypes.h>
#include <string.h>

#include "../core/rules.h"
#include "../core/tile.h"
#include "../riscv/pcbuf.h"
#include "../riscv/profile.h"
#include "../trace/trace.h"
#include "../units/registry.h"
#include "ttsync.h"

static const char *const stall_keys[GS_COUNT] = {
#define X(name, key) [name] = key,
    GATE_STALL_REASONS(X)
#undef X
};

const char *gate_stall_key(enum gate_stall s) { return s < GS_COUNT ? stall_keys[s] : "?"; }

void coproc_wake_ticks(struct tile *t) { t->ticks_awake = (uint16_t)((1u << t->nunit_tick) - 1); }

void coproc_reset(struct tile *t)
{
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        struct tensix_thread *th = &t->thread[i];
        tile_zero(t, th, sizeof *th);
        tt_fifo_init(&th->fifo1, t->arch->fifo1_depth[i], t->arch->fifo1_accept_limit);
        tt_fifo_init(&th->fifo2, 8, 0); /* spec/sync-timing.md §1 */
        tt_fifo_init(&th->fifo3, 2, 0);
        mop_reset(&th->mop);
        replay_reset(&th->replay, t->arch->replay.skips_nops);
        th->acct_outcome = GATE_EMPTY;
    }
    tile_zero(t, t->res_next, sizeof t->res_next);
    t->threads_live = 0;
    coproc_wake_ticks(t);
    t->coproc_wake = CYCLE_NEVER;
    t->coproc_last_active = 0;
}

static bool cond_waits(const struct tile *t, unsigned th, enum wait_cond c);


/* ---- which instructions a latched wait catches (spec/sync-timing.md §3.1) ---- */

static unsigned unit_block_bits(const struct tt_form *f)
{
    const struct unit_row *r = unit_row_for(f->unit);
    if (r)
        return r->block_bits;
    return f->opcode == TT_OPC_RSTDMA ? BLK0 : 0; /* no ISA page: only RSTDMA is listed */
}

bool gate_wait_catches(const struct tile *t, const struct latched_wait *w, const struct tt_form *f)
{
    if (!w->active)
        return false;
    if (f->opcode == TT_OPC_NOP)
        return w->block_mask == BLK_ALL; /* NOP is caught only when all nine bits are set */
    if (f->opcode == TT_OPC_STALLWAIT_BH || f->opcode == TT_OPC_STREAMWAIT ||
        (f->opcode == TT_OPC_SEMWAIT && t->arch->id == ARCH_BLACKHOLE))
        return true; /* caught by every block bit (and the mask is never 0) */
    return (w->block_mask & unit_block_bits(f)) != 0;
}

/* ---- STALLWAIT conditions (spec/sync-timing.md §3.2) ---- */

static bool cond_waits(const struct tile *t, unsigned th, enum wait_cond c)
{
    const struct src_regs *s = &t->src;
    switch (c) {
    case WC_SRCA_UNPACK: return s->bank[0][s->unpack_bank[0]].client != SRC_CLIENT_UNPACKERS;
    case WC_SRCB_UNPACK: return s->bank[1][s->unpack_bank[1]].client != SRC_CLIENT_UNPACKERS;
    case WC_SRCA_FPU: return s->bank[0][s->fpu_bank[0]].client != SRC_CLIENT_MATRIX;
    case WC_SRCB_FPU: return s->bank[1][s->fpu_bank[1]].client != SRC_CLIENT_MATRIX;
    default: break;
    }
    /* The unit whose registry row answers the condition (gathered by tile_create). Units that
     * are not modelled yet never hold an instruction, so their "busy" conditions are satisfied;
     * RISC-V MMIO accesses take effect immediately in tensim, so C10/C13 never waits. */
    const unsigned r = t->cond_row[c];
    return r && unit_rows[r - 1].desc->holds(t, th, t->cond_instance[c]);
}

/* The tile service FLUSHDMA uses (core/tile.h): the same question a latched STALLWAIT asks. */
unsigned tile_conditions_waiting(const struct tile *t, unsigned th, unsigned cond_mask)
{
    return gate_conditions_waiting(t, th, cond_mask);
}

unsigned gate_conditions_waiting(const struct tile *t, unsigned th, unsigned cond_mask)
{
    unsigned waiting = 0;
    for (unsigned b = 0; b < t->arch->stall_cond_bits; b++)
        if ((cond_mask >> b & 1) && cond_waits(t, th, t->arch->stall_cond_map[b]))
            waiting |= 1u << b;
    return waiting;
}

/* True while the latched wait's conditions still say "wait"; *detail names the first culprit. */
static bool wait_pending(const struct tile *t, unsigned th, const struct latched_wait *w,
                         uint32_t *detail)
{
    if (w->is_semwait) {
        if (!sem_wait_blocks(&t->sem, w->sem_mask, w->cond_mask))
            return false;
        *detail = (uint32_t)__builtin_ctz(w->sem_mask);
        for (unsigned i = 0; i < NUM_SEMAPHORES; i++)
            if ((w->sem_mask >> i & 1) && sem_wait_blocks(&t->sem, (uint8_t)(1u << i), w->cond_mask)) {
                *detail = i;
                break;
            }
        /* Which side it waits on, for the performance counters' WAITING_FOR_NONZERO_SEM and
         * WAITING_FOR_NONFULL_SEM (core/perf_counters.c); dropped from the stall details. */
        if (!((w->cond_mask & 1) && t->sem.value[*detail] == 0))
            *detail |= SEMWAIT_DETAIL_FULL;
        return true;
    }
    unsigned waiting = gate_conditions_waiting(t, th, w->cond_mask);
    if (!waiting)
        return false;
    *detail = (uint32_t)__builtin_ctz(waiting);
    return true;
}

/* ---- accounting: every cycle of every thread is issued, empty or one stall reason ---- */

/* The push a held cycle is charged to: the latched wait's STALLWAIT/SEMWAIT for the cycles it
 * holds, else the held instruction's own push. */
static tt_origin held_origin(const struct tensix_thread *th, enum gate_stall r, tt_origin own)
{
    return r == GS_STALLWAIT || r == GS_SEMWAIT || r == GS_WAIT_RELEASE ? th->wait.origin : own;
}

static void profile_held(struct tile *t, tt_origin o, enum gate_stall r, uint64_t n);

/* Closes thread i's open interval at `end`; inline in account(), which closes one or two per
 * cycle. */
static inline __attribute__((always_inline)) void account_interval(struct tile *t, unsigned i,
                                                                  uint64_t end)
{
    struct tensix_thread *th = &t->thread[i];
    uint64_t n = end - th->acct_since;
    uint32_t d = th->acct_detail;
    if (th->acct_reason == GS_SEMWAIT && (d & SEMWAIT_DETAIL_FULL)) {
        d &= ~SEMWAIT_DETAIL_FULL;
        if (th->acct_outcome == GATE_STALLED)
            th->st.semwait_full += n;
    }
    if (t->tracer && th->acct_outcome == GATE_STALLED)
        trace_held(t->tracer, i, gate_stall_key(th->acct_reason), d, th->acct_since, end);
    switch (th->acct_outcome) {
    case GATE_EMPTY: th->st.empty += n; break;
    case GATE_ISSUED: th->st.issued += n; break;
    case GATE_STALLED:
        if (t->profiling && n) {
            profile_held(t, th->acct_origin, th->acct_reason, n);
            th->head_held += n;
        }
        th->st.stall[th->acct_reason] += n;
        th->st.stall_detail[th->acct_reason][d < GATE_DETAIL_MAX ? d : GATE_DETAIL_MAX - 1] += n;
        break;
    }
    th->acct_since = end;
}

void coproc_account_interval(struct tile *t, unsigned i, uint64_t end) { account_interval(t, i, end); }

/* Inline: it runs for every thread every cycle the coprocessor steps. */
static inline __attribute__((always_inline)) void
account(struct tile *t, unsigned i, uint64_t now, enum gate_outcome o, enum gate_stall r,
        uint32_t detail, tt_origin origin)
{
    struct tensix_thread *th = &t->thread[i];
    if (o == th->acct_outcome) {
        if (o != GATE_ISSUED) {
            if (r == th->acct_reason && detail == th->acct_detail && origin == th->acct_origin)
                return;
        } else {
            /* An issue right after one: what coproc_account_interval and the stores below do
             * then (the open interval's reason, detail and origin are already NONE, 0, NONE). */
            th->st.issued += now - th->acct_since;
            th->acct_since = now;
            return;
        }
    }
    account_interval(t, i, now);
    th->acct_outcome = o;
    th->acct_reason = r;
    th->acct_detail = detail;
    th->acct_since = now;
    th->acct_origin = origin;
}

/* The first instruction of a push issues at `now`: the cycles it spent queued in the FIFOs and
 * expanders beyond the fewest a push takes to reach the gate (3 from a TRISC into FIFO1, 2 from
 * BRISC into FIFO2) and beyond those it was held there, to the push's core profile as
 * PROF_FIFO_WAIT (riscv/profile.h). */
static __attribute__((noinline)) void profile_issue(struct tile *t, struct tensix_thread *th, tt_origin o,
                                                    uint64_t now)
{
    int core = origin_core(o);
    uint64_t held = th->head_held;
    th->head_held = 0;
    if (!origin_arrow(o) || core < 0 || core >= NUM_CORES || !t->prof[core])
        return;
    uint64_t fewest = core == CORE_BRISC ? 2 : 3, lat = now - origin_cycle(o);
    if (lat > fewest + held)
        rv_profile_held(t->prof[core], origin_pc(o), PROF_FIFO_WAIT, lat - fewest - held);
}

/* Held cycles to the profile of the core whose push caused them (riscv/profile.h). */
static __attribute__((noinline)) void profile_held(struct tile *t, tt_origin o, enum gate_stall r,
                                                   uint64_t n)
{
    int core = origin_core(o);
    if (core >= 0 && core < NUM_CORES && t->prof[core])
        rv_profile_held(t->prof[core], origin_pc(o), r, n);
}


void gate_held_through(const struct tile *t, unsigned i, uint64_t end, uint64_t *held)
{
    const struct tensix_thread *th = &t->thread[i];
    memcpy(held, th->st.stall, GS_COUNT * sizeof held[0]);
    if (th->acct_outcome == GATE_STALLED && end > th->acct_since)
        held[th->acct_reason] += end - th->acct_since;
}

void coproc_account_close(struct tile *t, uint64_t end)
{
    for (unsigned i = 0; i < NUM_THREADS; i++)
        coproc_account_interval(t, i, end);
}

/* ---- one cycle ---- */

struct gate_try {
    const struct tt_form *f;
    const struct unit_desc *u;
    uint32_t word;
    tt_origin origin; /* its push (sync/origin.h) */
    enum gate_stall reason;
    uint32_t detail;
    unsigned res;
    bool release; /* the latched wait's conditions hold: clear it at the end of the cycle */
};

/* Thread i's decoded word (struct tensix_thread dec) made to be w, of form f. */
static void decoded(struct tile *t, unsigned i, uint32_t w, const struct tt_form *f)
{
    struct tensix_thread *th = &t->thread[i];
    const struct unit_desc *u = !f || f->unit == TT_UNIT_MOP || f->unit == TT_UNIT_REPLAY ? NULL
                                                                                        : unit_desc_for(f->unit);
    th->dec = (struct tt_decoded){.word = w,
                                  .form = f,
                                  .index = f ? (unsigned)(f - tt_forms) : 0,
                                  .unit = u,
                                  .res = u ? u->resource(t, i, w, f) : RES_NONE};
}

/* Thread i's gate holds word w: its decoded word (th->dec) made to be w's, from the thread's
 * decode cache where w was decoded before. The form, NULL for a word that is not an
 * instruction (decoded with NULL, as before the cache). */
static const struct tt_form *gate_decode_miss(struct tile *t, unsigned i, uint32_t w);

static inline const struct tt_form *gate_decode(struct tile *t, unsigned i, uint32_t w)
{
    const struct tensix_thread *th = &t->thread[i];
    return th->dec.form && th->dec.word == w ? th->dec.form : gate_decode_miss(t, i, w);
}

/* gate_decode when the word is not the one decoded last. */
static const struct tt_form *gate_decode_miss(struct tile *t, unsigned i, uint32_t w)
{
    struct tensix_thread *th = &t->thread[i];
    /* the word folded by XOR into 3 bits: words that differ in one field of up to 3 bits
     * (DstRow in steps of 8, an address) fall in different entries */
    uint32_t h = w ^ w >> 12 ^ w >> 24;
    h ^= h >> 6;
    h ^= h >> 3;
    struct tt_decoded *e = &th->dec_cache[h & (TT_DEC_CACHE - 1)];
    if (e->form && e->word == w) {
        th->dec = *e;
    } else {
        decoded(t, i, w, tt_decode(tile_arch_bit(t), w));
        if (th->dec.form)
            *e = th->dec;
    }
    return th->dec.form;
}

static bool gate_look(struct tile *t, unsigned i, struct gate_try *g)
{
    struct tensix_thread *th = &t->thread[i];
    /* Only the fields read whatever the outcome; the others are set on the paths that read
     * them (f, word, origin once an instruction is there; u and res before it can issue). */
    g->reason = GS_NONE;
    g->detail = 0;
    g->res = RES_NONE;
    g->release = false;
    uint32_t detail = 0;
    if (th->wait.active && !wait_pending(t, i, &th->wait, &detail))
        g->release = true;
    if (!th->fifo3.count)
        return false;
    g->word = tt_fifo_peek(&th->fifo3, 0);
    g->origin = tt_fifo_origin(&th->fifo3, 0);
    g->f = gate_decode(t, i, g->word);
    if (!g->f) {
        char dis[64];
        tt_disasm(tile_arch_bit(t), g->word, dis, sizeof dis);
        tile_error(t, ERR_UNDEF_INSN, -1, 0, "thread T%u: Tensix instruction %s", i, dis);
        return false;
    }
    if (gate_wait_catches(t, &th->wait, g->f)) {
        g->reason = g->release ? GS_WAIT_RELEASE : th->wait.is_semwait ? GS_SEMWAIT : GS_STALLWAIT;
        /* The release cycle is charged to the wait's first semaphore or condition bit. */
        g->detail = !g->release ? detail
                    : th->wait.is_semwait ? (uint32_t)__builtin_ctz(th->wait.sem_mask | 0x100u)
                                          : (uint32_t)__builtin_ctz(th->wait.cond_mask | 0x8000u);
        return true;
    }
    if (th->thcon_running) {
        g->reason = GS_THCON;
        return true;
    }
    if (t->now < th->frozen_until) {
        g->reason = GS_UNIT_BUSY;
        g->detail = th->frozen_unit;
        return true;
    }
    if (g->f->unit == TT_UNIT_MOP || g->f->unit == TT_UNIT_REPLAY) {
        /* Only RISCV B can put these after the expanders (spec/instructions.md MOP row). */
        tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0,
                   "thread T%u: %s reached the Wait Gate (pushed after the expanders, by BRISC)", i,
                   g->f->mnemonic);
        return false;
    }
    g->u = th->dec.unit; /* unit_desc_for(g->f->unit), kept with the decoded word */
    if (!g->u) {
        tile_error(t, ERR_UNIMPLEMENTED, -1, 0, "%s (%s), thread T%u", g->f->mnemonic,
                   tt_unit_name((enum tt_unit)g->f->unit), i);
        return false;
    }
    g->reason = g->u->can_accept(t, i, g->word, g->f, &g->detail);
    if (g->reason == GS_NONE)
        g->res = th->dec.res;
    return true;
}

uint64_t coproc_next_event(const struct tile *t)
{
    uint64_t next = CYCLE_NEVER;
    for (unsigned u = 0; u < t->nunit_next_event; u++) {
        uint64_t e = t->unit_next_event[u](t);
        if (e > t->now && e < next)
            next = e;
    }
    return next;
}

/* The run stops in cycle `now`: account it for threads from..NUM_THREADS-1. A live thread
 * whose gate was looked at (j < looked, its bit in `live`) keeps the reason found there, except
 * that one that would have issued is charged "stopped"; one not looked at is "stopped" if an
 * instruction was waiting (a thread that is not live has none: empty). */
static void account_stop(struct tile *t, uint64_t now, const struct gate_try *g, unsigned looked,
                         unsigned live, unsigned from)
{
    for (unsigned j = from; j < NUM_THREADS; j++) {
        const struct tensix_thread *th = &t->thread[j];
        enum gate_stall r = j < looked && (live >> j & 1) ? g[j].reason
                            : th->fifo3.count             ? GS_STOPPED
                                                          : GS_COUNT;
        if (r == GS_NONE)
            r = GS_STOPPED;
        tt_origin own = th->fifo3.count ? tt_fifo_origin(&th->fifo3, 0) : ORIGIN_NONE;
        if (r == GS_COUNT)
            account(t, j, now, GATE_EMPTY, GS_NONE, 0, ORIGIN_NONE);
        else
            account(t, j, now, GATE_STALLED, r, r == GS_STOPPED ? 0 : g[j].detail,
                    held_origin(th, r, own));
    }
}

/* --lint: note the instruction being issued (core/rules.h) and check the rules that hold at
 * issue. WRCFG.md "Instruction scheduling": a Config write is visible two cycles after the
 * WRCFG, so a unit that reads Config needs one more instruction between them. */
static __attribute__((noinline)) void lint_issue(struct tile *t, unsigned i, const struct gate_try *g)
{
    t->issue_thread = (int)i, t->issue_word = g->word, t->issue_origin = g->origin;
    const unsigned u = g->f->unit;
    if ((u == TT_UNIT_UNPACK || u == TT_UNIT_FPU || u == TT_UNIT_SFPU || u == TT_UNIT_PACK ||
         u == TT_UNIT_THCON) &&
        t->now < t->lint->wrcfg_visible[i])
        rule_broken(t, RULE_CFG_WRITE_USE, rule_site_tensix(t, i, g->word),
                    "thread T%u: %s issues at cycle %" PRIu64 ", before its WRCFG of Config[%u] "
                    "is visible (cycle %" PRIu64 "); it sees the old value",
                    i, g->f->mnemonic, t->now, t->lint->wrcfg_index[i], t->lint->wrcfg_visible[i]);
}

#ifdef TENSIM_TICK_CHECK
/* The sanitizer build's check of the rule in units/unit.h `active`: a unit whose tick is not
 * called has nothing to do. A unit given work without tile_wake_tick would be found here, as
 * an internal error, not as a cycle count that is silently off. */
static void check_ticks_asleep(struct tile *t)
{
    for (unsigned u = 0; u < t->nunit_tick; u++)
        if (!(t->ticks_awake >> u & 1) && t->unit_active[u](t))
            tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                       "internal: backend unit %u has work but its tick was not called (cycle %llu)",
                       u, (unsigned long long)t->now);
}
#endif

/* The end of thread i's cycle, after its gate: the replay expander and then the MOP expander move
 * at most one word each (downstream first), pushers blocked on FIFO1 are let go when it has
 * room, and a thread found with nothing anywhere leaves threads_live. `gate_empty`: nothing was
 * at its gate this cycle. Returns -1 after an expander's error (raised here), else whether
 * anything moved. */
static inline __attribute__((always_inline)) int thread_expand(struct tile *t, unsigned i,
                                                              bool gate_empty)
{
    struct tensix_thread *th = &t->thread[i];
    /* The steps' common cases are inline (sync/replay.h, sync/mop.h), idle ones among them:
     * an expander with nothing to take costs a test or two. */
    const enum pipe_step r = replay_step_inline(&th->replay, &th->fifo2, &th->fifo3);
    const enum pipe_step m =
        r == PIPE_ERROR ? PIPE_ERROR : mop_step_inline(&th->mop, &th->fifo1, &th->fifo2);
    if (r == PIPE_ERROR || m == PIPE_ERROR) {
        tile_error(t, ERR_UNDEF_BEHAVIOUR, -1, 0, "thread T%u: %s", i,
                   r == PIPE_ERROR ? th->replay.err : th->mop.err);
        return -1;
    }
    /* Room in FIFO1 lets blocked pushers retry (cores act after the coprocessor). */
    if (th->blocked_cores && tt_fifo_has_room(&th->fifo1, 1))
        tile_unblock_pushers(t, i);
    /* Found with nothing at the gate (accounted empty) and nothing anywhere else: until a
     * push, every cycle would find the same and do nothing. Both expanders idle changed
     * nothing (and neither has failed), so what is tested here is what they found. */
    if (r == PIPE_IDLE && m == PIPE_IDLE && gate_empty && !th->fifo1.count && !th->fifo2.count &&
        th->mop.phase == MOP_PHASE_IDLE && th->replay.phase == REPLAY_PHASE_PASS &&
        !th->wait.active && !th->fifo3.count && !th->blocked_cores)
        t->threads_live &= (uint8_t)~(1u << i);
    return r == PIPE_PROGRESS || m == PIPE_PROGRESS;
}

/* A core blocked on something the coprocessor's state answers, looked at after the cycle's
 * moves (cores act after the coprocessor): True when some core waits so (the lone-thread cycle
 * below is then not taken). */
static inline bool core_waits_on_coproc(const struct rv_core *core)
{
    return core->state == CORE_BLOCKED &&
           (core->wait == WAIT_COPROC_DONE || core->wait == WAIT_MOP_DONE ||
            core->wait == WAIT_PCBUF_B_READ || core->wait == WAIT_PCBUF_POP);
}

/* Manual TTSync loads held by this cycle's state: release them (cores act after us). */
static inline __attribute__((always_inline)) void check_cores(struct tile *t, uint64_t now)
{
    bool pcbuf_wait = false;
    for (unsigned c = 0; c < NUM_CORES; c++) {
        struct rv_core *core = &t->core[c];
        if (core->state != CORE_BLOCKED)
            continue;
        if (core->wait == WAIT_COPROC_DONE || core->wait == WAIT_MOP_DONE) {
            if (ttsync_done(t, core->wait, core->wait_arg))
                tile_wake_core(t, (int)c, now);
        } else if (core->wait == WAIT_PCBUF_B_READ || core->wait == WAIT_PCBUF_POP) {
            pcbuf_wait = true;
        }
    }
    if (pcbuf_wait) /* it only wakes cores blocked on a PCBuf: with none, skip the call */
        pcbuf_recheck(t);
}

/* One cycle at t->now: true when anything changed (the coprocessor then runs again next
 * cycle), false when it can sleep until an external wake or a unit event. `cores_wait`: some
 * core may wait on something the cycle looks at (coproc_run). */
static bool coproc_step(struct tile *t, bool cores_wait)
{
    struct gate_try g[NUM_THREADS];
    bool progress = false;
    const uint64_t now = t->now;
    const uint64_t rewinds = t->rewinds;

#ifdef TENSIM_TICK_CHECK
    check_ticks_asleep(t);
#endif
    /* Only the units with something to do: ticks in row order; one may wake a later one. */
    for (unsigned m = t->ticks_awake; m;) {
        const unsigned u = (unsigned)__builtin_ctz(m);
        t->unit_tick[u](t);
        if (!t->unit_active[u](t))
            t->ticks_awake &= (uint16_t)~(1u << u);
        m = t->ticks_awake & (~1u << u);
    }
    if (t->err.kind != ERR_NONE) {
        account_stop(t, now, g, 0, 0, 0);
        return false;
    }

    unsigned nready = 0, lone = 0; /* threads ready to issue to a shared resource */
    const unsigned live = t->threads_live;
    /* The loops below visit only the live threads (their bits in `live`, in index order); g[i]
     * of a thread that is not live is never read. Such a thread has nothing anywhere: as
     * gate_look would find, it is accounted empty, when its interval closes. */
    for (unsigned m = live; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        bool present = gate_look(t, i, &g[i]);
        if (!present)
            g[i].reason = GS_COUNT; /* marker: nothing at the gate */
        else if (g[i].reason == GS_NONE && g[i].res != RES_NONE)
            nready++, lone = i;
        if (t->err.kind != ERR_NONE) { /* the instruction at this gate is the culprit */
            g[i].reason = t->thread[i].fifo3.count ? GS_STOPPED : GS_COUNT;
            account_stop(t, now, g, i + 1, live, 0);
            return false;
        }
    }
    /* Arbitration: per resource, the first ready thread at or after res_next wins. A lone
     * contender wins at once (the loop below would find just that). */
    if (nready == 1)
        t->res_next[g[lone].res] = (uint8_t)(lone + 1 < NUM_THREADS ? lone + 1 : 0);
    if (nready > 1 && live != (1u << NUM_THREADS) - 1) /* the search below reads every g */
        for (unsigned i = 0; i < NUM_THREADS; i++)
            if (!(live >> i & 1))
                g[i].reason = GS_COUNT;
    for (unsigned i = 0; i < NUM_THREADS && nready > 1; i++) {
        if (g[i].reason != GS_NONE || g[i].res == RES_NONE)
            continue;
        unsigned r = g[i].res, first = t->res_next[r];
        unsigned winner = i;
        for (unsigned k = 0; k < NUM_THREADS; k++) {
            unsigned j = first + k; /* (first + k) % NUM_THREADS without a division */
            if (j >= NUM_THREADS)
                j -= NUM_THREADS;
            if (g[j].reason == GS_NONE && g[j].res == r) {
                winner = j;
                break;
            }
        }
        for (unsigned j = 0; j < NUM_THREADS; j++)
            if (j != winner && g[j].reason == GS_NONE && g[j].res == r) {
                g[j].reason = GS_ARBITRATION;
                g[j].detail = g[j].f->unit;
            }
        t->res_next[r] = (uint8_t)(winner + 1 < NUM_THREADS ? winner + 1 : 0);
    }
    for (unsigned m = live; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        struct tensix_thread *th = &t->thread[i];
        if (g[i].reason == GS_NONE) {
            uint32_t w;
            tt_origin o;
            tt_fifo_take(&th->fifo3, &w, &o);
            th->st.by_form[g[i].f - tt_forms]++;
            account(t, i, now, GATE_ISSUED, GS_NONE, 0, ORIGIN_NONE);
            if (t->profiling)
                profile_issue(t, th, o, now);
            progress = true;
            if (t->on_issue)
                t->on_issue(t->on_issue_ctx, i, now, g[i].word);
            if (t->dump && t->dump->insn[i]) /* --dump-state insn=: before it executes */
                t->dump->fire(t, t->dump->ctx, DUMP_AT_INSN, i, g[i].word,
                              (uint32_t)(g[i].f - tt_forms));
            if (t->tracer)
                trace_issue(t->tracer, t, i, now, g[i].word, g[i].origin);
            if (t->lint)
                lint_issue(t, i, &g[i]);
            bool ok = g[i].u->accept(t, i, g[i].word, g[i].f);
            tile_wake_tick(t, g[i].f->unit); /* it may have given the unit work */
            t->issue_thread = -1;
            if (t->tracer)
                trace_issued(t->tracer);
            if (!ok) {
                /* the threads after i never get their turn in this cycle */
                account_stop(t, now, g, NUM_THREADS, live, i + 1);
                return false;
            }
            /* a new latched wait: the cycles it holds are charged to its push */
            if (g[i].f->opcode == TT_OPC_STALLWAIT_BH || g[i].f->opcode == TT_OPC_SEMWAIT)
                th->wait.origin = g[i].origin;
        } else if (g[i].reason == GS_COUNT) {
            account(t, i, now, GATE_EMPTY, GS_NONE, 0, ORIGIN_NONE);
        } else {
            account(t, i, now, GATE_STALLED, g[i].reason, g[i].detail,
                    held_origin(th, g[i].reason, g[i].origin));
        }
        /* Release a wait whose conditions held this cycle, unless this cycle's issue was a new
         * STALLWAIT/SEMWAIT that replaced it. */
        if (g[i].release && !(g[i].reason == GS_NONE && (g[i].f->opcode == TT_OPC_STALLWAIT_BH ||
                                                         g[i].f->opcode == TT_OPC_SEMWAIT))) {
            th->wait.active = false;
            progress = true;
        }
    }
    for (unsigned m = live; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        const int moved = thread_expand(t, i, g[i].reason == GS_COUNT);
        if (moved < 0)
            return false;
        progress |= moved;
    }
    /* With no core waiting so at the start of the cycle, one can only if a core was brought
     * back (and so ran) during it: see coproc_run. */
    if (cores_wait || t->rewinds != rewinds)
        check_cores(t, now);
    if (progress)
        t->coproc_last_active = now;
    return progress;
}

/* ---- the quick cycles: pieces both take ---- */

/* Thread i issues the word at its gate (th->dec.word, decoded): what coproc_step's issue does
 * when nothing observes. Returns the unit's accept (false: the run's error was raised). */
static inline __attribute__((always_inline)) bool quick_issue(struct tile *t, unsigned i,
                                                             uint64_t now)
{
    struct tensix_thread *th = &t->thread[i];
    const struct tt_form *f = th->dec.form;
    const uint32_t w = th->dec.word;
    /* a new latched wait: the cycles it holds are charged to its push */
    const bool new_wait = f->opcode == TT_OPC_STALLWAIT_BH || f->opcode == TT_OPC_SEMWAIT;
    const tt_origin o = new_wait ? tt_fifo_origin(&th->fifo3, 0) : ORIGIN_NONE;
    tt_fifo_drop(&th->fifo3);
    th->st.by_form[th->dec.index]++;
    account(t, i, now, GATE_ISSUED, GS_NONE, 0, ORIGIN_NONE);
    const bool ok = th->dec.unit->accept(t, i, w, f); /* issue_thread stays -1: no lint here */
    tile_wake_tick(t, f->unit);
    if (ok && new_wait)
        th->wait.origin = o;
    return ok;
}

/* The end of a quick cycle: a core brought back (rv_rewind, by something this cycle did) ran
 * and may now wait on the coprocessor: coproc_step's look at the cores then. Otherwise none
 * waits so (the caller saw none; a core blocks only by running). */
static inline __attribute__((always_inline)) bool quick_end(struct tile *t, uint64_t now,
                                                           uint64_t rewinds, bool progress)
{
    if (t->rewinds != rewinds)
        check_cores(t, now);
    if (progress)
        t->coproc_last_active = now;
    return progress;
}

/* ---- the lone thread's cycle ---- */

/* One cycle at t->now when exactly one thread (i) is live, as coproc_step does it, with what
 * that case never needs left out: no unit's tick is awake, no wait is latched, nothing holds
 * the thread (ThCon, a freezing unit), the replay expander is not recording (the one step of an
 * expander that can fail in a cycle), no core waits on something looked at per cycle (a Manual
 * TTSync load, a PCBuf), and nothing observes (the caller checks: no tracer, profile, on_issue
 * hook, state dump or lint). A stream that does not stall runs here nearly every cycle.
 * Returns -1, having changed nothing, when the cycle is not of that kind (or would end in an
 * error found before anything changes: an undecodable word, a MOP at the gate, an unmodelled
 * unit); coproc_step then does the whole cycle. Otherwise whether anything changed.
 * `rewinds`: t->rewinds at the start of the cycle. */
static inline __attribute__((always_inline)) int lone_step(struct tile *t, unsigned i,
                                                          uint64_t rewinds)
{
    struct tensix_thread *th = &t->thread[i];
    const uint64_t now = t->now;
    if (t->ticks_awake || th->wait.active || th->thcon_running || now < th->frozen_until ||
        th->replay.phase == REPLAY_PHASE_RECORD || th->mop.failed || th->replay.failed)
        return -1;
    const struct tt_form *f = NULL;
    const struct unit_desc *u = NULL;
    uint32_t w = 0;
    if (th->fifo3.count) { /* gate_look's tests, in its order */
        w = tt_fifo_peek(&th->fifo3, 0);
        f = gate_decode(t, i, w); /* what gate_look stores */
        if (!f)
            return -1;
        u = th->dec.unit;
        if (!u) /* a MOP or REPLAY at the gate, or an unmodelled unit: an error */
            return -1;
    }
#ifdef TENSIM_TICK_CHECK
    check_ticks_asleep(t);
#endif
    bool progress = false;
    if (!f) {
        account(t, i, now, GATE_EMPTY, GS_NONE, 0, ORIGIN_NONE);
    } else {
        uint32_t detail = 0;
        const enum gate_stall reason = u->can_accept(t, i, w, f, &detail);
        if (reason != GS_NONE) {
            account(t, i, now, GATE_STALLED, reason, detail,
                    held_origin(th, reason, tt_fifo_origin(&th->fifo3, 0)));
        } else {
            /* A lone contender wins its resource (coproc_step's arbitration) and issues. */
            const unsigned res = th->dec.res;
            if (res != RES_NONE)
                t->res_next[res] = (uint8_t)(i + 1 < NUM_THREADS ? i + 1 : 0);
            progress = true;
            if (!quick_issue(t, i, now)) {
                /* coproc_step's account_stop for the threads after i: none is live, and a
                 * thread that is not live is found empty, as its open interval already is, so
                 * it changes nothing. */
                return false;
            }
        }
    }
    const int moved = thread_expand(t, i, !f);
    if (moved < 0)
        return false;
    return quick_end(t, now, rewinds, progress | moved);
}

/* ---- the quick cycle: two or three live threads ---- */

/* One cycle at t->now as coproc_step does it, for two or three live threads (`live`; a thread
 * alone takes lone_step, which needs less), with what that case never needs left out: no unit's
 * tick is awake, no live thread has a latched wait or is held (ThCon, a freezing unit), no replay
 * expander of one is recording, no expander has failed, no core waits on something looked at
 * per cycle, and nothing observes (the caller checks). Threads whose streams do not stall, or
 * that only contend for a one-per-cycle resource, run here nearly every cycle. The phases stay
 * those of the general cycle: every gate decides from the state committed before the cycle,
 * then the arbitration, the issues in thread order, and the expanders.
 * Returns -1, having changed nothing, when the cycle is not of that kind (or would end in an
 * error found before anything changes: an undecodable word, a MOP at a gate, an unmodelled
 * unit); coproc_step then does the whole cycle. Otherwise whether anything changed.
 * `rewinds`: t->rewinds at the start of the cycle. */
static inline __attribute__((always_inline)) int quick_step(struct tile *t, unsigned live,
                                                           uint64_t rewinds)
{
    const uint64_t now = t->now;
    if (t->ticks_awake)
        return -1;
    unsigned present = 0; /* threads with a word at the gate */
    for (unsigned m = live; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        struct tensix_thread *th = &t->thread[i];
        if (th->wait.active || th->thcon_running || now < th->frozen_until ||
            th->replay.phase == REPLAY_PHASE_RECORD || th->mop.failed || th->replay.failed)
            return -1;
        if (!th->fifo3.count)
            continue;
        const uint32_t w = tt_fifo_peek(&th->fifo3, 0); /* gate_look's tests, in its order */
        if (!gate_decode(t, i, w)) /* what gate_look stores */
            return -1;
        if (!th->dec.unit) /* a MOP or REPLAY at the gate, or an unmodelled unit: an error */
            return -1;
        present |= 1u << i;
    }
#ifdef TENSIM_TICK_CHECK
    check_ticks_asleep(t);
#endif
    /* Phase 1: every gate decides. */
    enum gate_stall reason[NUM_THREADS];
    uint32_t detail[NUM_THREADS];
    unsigned ready = 0, contenders = 0; /* can issue; ... to a one-per-cycle resource */
    for (unsigned m = present; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        const struct tensix_thread *th = &t->thread[i];
        detail[i] = 0;
        reason[i] = th->dec.unit->can_accept(t, i, th->dec.word, th->dec.form, &detail[i]);
        if (reason[i] == GS_NONE) {
            ready |= 1u << i;
            if (th->dec.res != RES_NONE)
                contenders |= 1u << i;
        }
    }
    /* Arbitration, as coproc_step's: per resource, the first contender at or after res_next
     * wins; the others are held for this cycle. */
    for (unsigned left = contenders; left;) {
        const unsigned i = (unsigned)__builtin_ctz(left);
        const unsigned r = t->thread[i].dec.res;
        unsigned same = 0; /* the contenders for r */
        for (unsigned n = left; n; n &= n - 1)
            if (t->thread[__builtin_ctz(n)].dec.res == r)
                same |= 1u << __builtin_ctz(n);
        left &= ~same;
        unsigned winner = i;
        if (same != 1u << i) {
            const unsigned first = t->res_next[r];
            for (unsigned k = 0; k < NUM_THREADS; k++) {
                unsigned j = first + k; /* (first + k) % NUM_THREADS without a division */
                if (j >= NUM_THREADS)
                    j -= NUM_THREADS;
                if (same >> j & 1) {
                    winner = j;
                    break;
                }
            }
            for (unsigned n = same & ~(1u << winner); n; n &= n - 1) {
                const unsigned j = (unsigned)__builtin_ctz(n);
                reason[j] = GS_ARBITRATION;
                detail[j] = t->thread[j].dec.form->unit;
                ready &= ~(1u << j);
            }
        }
        t->res_next[r] = (uint8_t)(winner + 1 < NUM_THREADS ? winner + 1 : 0);
    }
    /* Phase 2: the issues, in thread order. */
    bool progress = false;
    for (unsigned m = live; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        struct tensix_thread *th = &t->thread[i];
        if (!(present >> i & 1)) {
            account(t, i, now, GATE_EMPTY, GS_NONE, 0, ORIGIN_NONE);
        } else if (!(ready >> i & 1)) {
            account(t, i, now, GATE_STALLED, reason[i], detail[i],
                    held_origin(th, reason[i], tt_fifo_origin(&th->fifo3, 0)));
        } else {
            progress = true;
            if (!quick_issue(t, i, now)) {
                /* coproc_step's account_stop for the threads after i, from what their gates
                 * found (one that would have issued is charged "stopped") */
                struct gate_try g[NUM_THREADS];
                for (unsigned j = i + 1; j < NUM_THREADS; j++) {
                    g[j].reason = !(present >> j & 1) ? GS_COUNT
                                  : ready >> j & 1    ? GS_NONE
                                                      : reason[j];
                    g[j].detail = (present >> j & 1) ? detail[j] : 0;
                }
                account_stop(t, now, g, NUM_THREADS, live, i + 1);
                return false;
            }
        }
    }
    for (unsigned m = live; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        const int moved = thread_expand(t, i, !(present >> i & 1));
        if (moved < 0)
            return false;
        progress |= moved;
    }
    return quick_end(t, now, rewinds, progress);
}

/* Some core waits on something the coprocessor's cycle looks at (check_cores); always "yes"
 * for the tests' reference (pipe_general_only), which then looks every cycle. */
static bool cores_waiting(const struct tile *t)
{
    bool w = t->pipe_general_only;
    for (unsigned c = 0; c < NUM_CORES; c++)
        w |= core_waits_on_coproc(&t->core[c]);
    return w;
}

void coproc_run(struct tile *t)
{
    /* What observes every cycle is set up before a run and not changed by the coprocessor. */
    const bool observed = t->tracer || t->profiling || t->on_issue || t->dump || t->lint ||
                          t->pipe_general_only;
    /* Whether some core waits on something the coprocessor's cycle looks at: cores do not run
     * while the coprocessor does, except one brought back (rv_rewind, counted in t->rewinds);
     * a core it wakes only stops waiting. So this is looked at again only after a rewind. */
    uint64_t rewinds = t->rewinds;
    bool cores_wait = cores_waiting(t), quick_ok = !observed && !cores_wait;
    while (t->coproc_wake < t->limit && t->err.kind == ERR_NONE) {
        t->now = t->coproc_wake;
        t->epoch++; /* it may change anything a polling loop reads */
        if (t->rewinds != rewinds) {
            rewinds = t->rewinds;
            cores_wait = cores_waiting(t);
            quick_ok = !observed && !cores_wait;
        }
        /* Sleep after a quiet cycle: nothing inside can change until another agent acts (which
         * wakes it) or a unit reaches its next event. */
        const unsigned live = t->threads_live;
        if (quick_ok && live) {
            const int r = !(live & (live - 1)) ? lone_step(t, (unsigned)__builtin_ctz(live), rewinds)
                                               : quick_step(t, live, rewinds);
            if (r >= 0) {
                t->quick_cycles++;
                t->coproc_wake = r ? t->now + 1 : coproc_next_event(t);
                continue; /* no tracer: quick_ok */
            }
        }
        t->coproc_wake = coproc_step(t, cores_wait) ? t->now + 1 : coproc_next_event(t);
        if (t->tracer) /* the FIFOs' occupancy from the next cycle on */
            trace_fifos(t->tracer, t, t->now + 1);
    }
}

/* ---- frontend status for tt_cfg_qstatus / tt_cfg_bstatus (BHR:CSRs.md) ---- */

static unsigned word_types(const struct tile *t, uint32_t w)
{
    switch (tt_opcode(w)) {
    case TT_OPC_MOP: return QS_MOP;
    case TT_OPC_MOP_CFG: return 0; /* MOP_CFG is not counted */
    case TT_OPC_REPLAY: /* Exec, or playback */
        return TT_GET_REPLAY_Exec(w) || !TT_GET_REPLAY_Load(w) ? QS_REPLAY : 0;
    default: break;
    }
    const struct tt_form *f = tt_decode(tile_arch_bit(t), w);
    const struct unit_row *r = f ? unit_row_for(f->unit) : NULL;
    return r ? r->status_bits : 0;
}

unsigned thread_status_bits(const struct tile *t, unsigned th, bool busy)
{
    const struct tensix_thread *p = &t->thread[th];
    const struct tt_fifo *fifos[3] = {&p->fifo1, &p->fifo2, &p->fifo3};
    unsigned bits = 0;
    for (unsigned k = 0; k < 3; k++)
        for (unsigned i = 0; i < fifos[k]->count; i++)
            bits |= word_types(t, tt_fifo_peek(fifos[k], i));
    if (mop_busy(&p->mop))
        bits |= QS_MOP;
    if (replay_busy(&p->replay))
        bits |= QS_REPLAY;
    if (!busy)
        return bits;
    /* Backend: instructions of this thread still executing. ThCon's is the thread's own latch
     * (the gate holds the thread while it runs); the others are the units' `holds`. */
    if (p->thcon_running)
        bits |= unit_rows[UNIT_THCON].status_bits;
    for (unsigned u = 0; u < UNIT_COUNT; u++) {
        const struct unit_row *r = &unit_rows[u];
        if (r->flags & U_BSTATUS)
            for (unsigned k = 0; k < r->instances; k++)
                if (r->desc->holds(t, th, k)) {
                    bits |= r->status_bits;
                    break;
                }
    }
    return bits;
}

/* ---- reports ---- */

void coproc_describe(struct tile *t)
{
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        struct tensix_thread *th = &t->thread[i];
        if (thread_drained(t, i))
            continue;
        char dis[128] = "(nothing at the gate)";
        if (th->fifo3.count)
            tt_disasm(tile_arch_bit(t), tt_fifo_peek(&th->fifo3, 0), dis, sizeof dis);
        char why[160] = "";
        if (th->acct_outcome == GATE_STALLED) {
            uint32_t d = th->acct_detail & ~(th->acct_reason == GS_SEMWAIT ? SEMWAIT_DETAIL_FULL : 0u);
            switch (th->acct_reason) {
            case GS_SEMWAIT:
                snprintf(why, sizeof why, "waits on semaphore %u (value %u, max %u)", d,
                         t->sem.value[d % NUM_SEMAPHORES], t->sem.max[d % NUM_SEMAPHORES]);
                break;
            case GS_STALLWAIT:
                snprintf(why, sizeof why, "waits on STALLWAIT condition C%u", d);
                break;
            case GS_MUTEX:
                if (sem_mutex_valid(t->arch, d))
                    snprintf(why, sizeof why, "waits for mutex %u, held by T%d", d, t->sem.mutex_owner[d]);
                else
                    snprintf(why, sizeof why, "waits for mutex %u, which does not exist on %s", d, t->arch->name);
                break;
            case GS_SRC_NOT_VALID:
                snprintf(why, sizeof why, "waits for the matrix unit to own its Src%c bank (held by "
                         "the unpackers: no UNPACR FlipSrc or SETDVALID gives it)", d ? 'B' : 'A');
                break;
            default:
                snprintf(why, sizeof why, "stalled: %s", gate_stall_key(th->acct_reason));
            }
        }
        tile_error_detail(t, "  thread T%u: %s %s (FIFO1 %u, FIFO2 %u, FIFO3 %u)", i, dis, why,
                          th->fifo1.count, th->fifo2.count, th->fifo3.count);
    }
    for (unsigned u = 0; u < UNIT_COUNT; u++)
        if (unit_rows[u].desc && unit_rows[u].desc->describe)
            unit_rows[u].desc->describe(t);
}
