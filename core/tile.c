#include "tile.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../riscv/gdbstub.h"
#include "../riscv/local_ram.h"
#include "../riscv/mailbox.h"
#include "../riscv/pcbuf.h"
#include "../sync/gate.h"
#include "../sync/push.h"
#include "../sync/ttsync.h"
#include "../trace/trace.h"
#include "../units/tensix_isa.h"

/* The address map: every owner's rows. The order is the search order; the busiest windows
 * (semaphores, configuration, instruction push) come first. */
static bool map_devices(struct tile *t)
{
    struct mem_map *m = &t->map;
    bool ok = true;
    for (unsigned u = 0; u < UNIT_COUNT; u++)
        if (unit_rows[u].desc && unit_rows[u].desc->nregions)
            ok &= map_register(m, unit_rows[u].desc->regions, unit_rows[u].desc->nregions);
    ok &= map_register(m, sem_regions, sem_regions_len);
    ok &= map_register(m, push_regions, push_regions_len);
    ok &= map_register(m, gpr_regions, gpr_regions_len);
    ok &= map_register(m, pcbuf_regions, pcbuf_regions_len);
    ok &= map_register(m, mailbox_regions, mailbox_regions_len);
    ok &= map_register(m, ttsync_regions, ttsync_regions_len);
    ok &= map_register(m, tile_ctrl_regions, tile_ctrl_regions_len);
    ok &= map_register(m, perf_counter_regions, perf_counter_regions_len);
    ok &= map_register(m, dest_regions, dest_regions_len);
    ok &= map_register(m, local_ram_regions, local_ram_regions_len);
    ok &= map_register(m, niu_regions, niu_regions_len);
    ok &= map_register(m, map_unmodelled, map_unmodelled_len);
    return ok;
}

struct tile *tile_create(const struct arch *arch)
{
    struct tile *t = tile_mem_alloc();
    if (!t)
        return 0;
    t->arch = arch;
    t->rewind = rv_rewind;
    for (unsigned u = 0; u < UNIT_COUNT; u++) {
        const struct unit_desc *d = unit_rows[u].desc;
        if (d && d->tick) {
            t->tick_bit[unit_rows[u].kind] = (uint16_t)(1u << t->nunit_tick);
            t->unit_active[t->nunit_tick] = d->active;
            t->unit_tick[t->nunit_tick++] = d->tick;
        }
        if (d && d->next_event)
            t->unit_next_event[t->nunit_next_event++] = d->next_event;
        for (unsigned i = 0; d && d->holds && i < unit_rows[u].instances; i++) {
            t->cond_row[unit_rows[u].wait_cond + i] = (uint8_t)(u + 1);
            t->cond_instance[unit_rows[u].wait_cond + i] = (uint8_t)i;
        }
    }
    if (!map_devices(t)) {
        tile_destroy(t);
        return 0;
    }
    t->l1 = calloc(arch->l1_size, 1);
    t->predecode = calloc(arch->l1_size / 4 + 1, sizeof *t->predecode); /* + riscv/core.c's end mark */
    if (!t->l1 || !t->predecode) {
        tile_destroy(t);
        return 0;
    }
    t->fresh = true;
    niu_init(t);
    tile_reset(t);
    return t;
}

void tile_destroy(struct tile *t)
{
    if (!t)
        return;
    free(t->l1);
    free(t->predecode);
    free(t->loaded);
    niu_payload_free_all(t);
    tile_mem_free(t);
}

void tile_reset(struct tile *t)
{
    /* In tile_create's reset every byte is still zero (tile_mem_alloc, calloc): tile_zero
     * writes nothing then, L1 (1.5 MiB), the predecode cache and the regions included. */
    tile_zero(t, t->l1, t->arch->l1_size);
    tile_zero(t, t->predecode, (t->arch->l1_size / 4) * sizeof *t->predecode); /* RV_UNDECODED */
    tile_zero(t, t->local_ram, sizeof t->local_ram);
    tile_zero(t, t->regions, sizeof t->regions);
    for (int i = 0; i < NUM_CORES; i++)
        rv_core_reset(&t->core[i], i, t->arch->reset_pc[i]);
    for (int i = 0; i < NUM_CORES; i++)
        t->ahead[i].valid = t->sleep[i].have = false;
    t->rewinds = t->poll_skips = t->quick_cycles = 0;
    coproc_reset(t);
    tile_zero(t, t->gpr, sizeof t->gpr);
    tile_zero(t, &t->gpr_pend, sizeof t->gpr_pend);
    sem_reset(&t->sem);
    tile_zero(t, &t->cfg, sizeof t->cfg);
    tile_zero(t, &t->dest, sizeof t->dest);
    for (unsigned u = 0; u < UNIT_COUNT; u++)
        if (unit_rows[u].desc && unit_rows[u].desc->reset)
            unit_rows[u].desc->reset(t);
    tile_zero(t, t->pcbuf, sizeof t->pcbuf);
    tile_zero(t, t->l1_port, sizeof t->l1_port);
    t->progress_next = 0;
    tile_zero(t, &t->mbox, sizeof t->mbox);
    t->pcbuf_override = 0;
    tile_zero(t, &t->src, sizeof t->src); /* unpackers own every bank, all bank indices 0 */
    tile_zero(t, t->adc, sizeof t->adc);
    tile_zero(t, &t->err, sizeof t->err);
    t->out_errno = 0;
    t->now = 0;
    t->cycles = 0;
    t->wall_clock_latch = 0;
    perf_counters_reset(t);
    niu_reset(t);
    t->nloaded = 0;
    t->nwarnings = 0;
    t->issue_thread = -1;
    tile_zero(t, &t->boot, sizeof t->boot);
    for (int i = 0; i < NUM_CORES; i++) /* no core runs until it is started or released */
        t->boot.soft_reset |= 1u << tile_core_reset_bit(i);
    t->fresh = false;
}

void tile_start_core(struct tile *t, int id, uint32_t pc)
{
    struct rv_core *c = &t->core[id];
    c->pc = pc;
    c->state = CORE_RUNNING;
    c->wake = 0;
    t->boot.soft_reset &= ~(1u << tile_core_reset_bit(id));
}

/* ---- end of run: deadlock and drain reports ---- */

static void describe_core(struct tile *t, const struct rv_core *c)
{
    char dis[96];
    rv_disasm(c->pc < t->arch->l1_size ? *(const uint32_t *)(const void *)(t->l1 + c->pc) : 0,
              c->pc, dis, sizeof dis);
    switch (c->state) {
    case CORE_OFF:
        return;
    case CORE_HALTED:
        tile_error_detail(t, "  %s: halted at cycle %llu with exit code %d", core_name(c->id),
                          (unsigned long long)c->halt_cycle, c->exit_code);
        return;
    case CORE_RUNNING:
        tile_error_detail(t, "  %s: running, pc=0x%08x: %s", core_name(c->id), c->pc, dis);
        return;
    case CORE_BLOCKED:
        break;
    }
    if (c->wait == WAIT_PCBUF_POP || c->wait == WAIT_PCBUF_PUSH || c->wait == WAIT_PCBUF_B_READ) {
        static const char *const what[] = {
            [WAIT_PCBUF_POP] = "reading empty PCBuf", [WAIT_PCBUF_PUSH] = "writing full PCBuf",
            [WAIT_PCBUF_B_READ] = "reading (waiting for TRISC idle) PCBuf"};
        tile_error_detail(t, "  %s: pc=0x%08x %s: blocked since cycle %llu %s %u",
                          core_name(c->id), c->pc, dis, (unsigned long long)c->blocked_since,
                          what[c->wait], c->wait_arg);
        return;
    }
    if (c->wait == WAIT_MAILBOX_POP || c->wait == WAIT_MAILBOX_PUSH) {
        static const char *const box[] = {"B", "T0", "T1", "T2"};
        tile_error_detail(t, "  %s: pc=0x%08x %s: blocked since cycle %llu %s mailbox %s %s",
                          core_name(c->id), c->pc, dis, (unsigned long long)c->blocked_since,
                          c->wait == WAIT_MAILBOX_POP ? "reading the empty" : "writing the full",
                          c->wait == WAIT_MAILBOX_POP ? "from" : "to", box[c->wait_arg & 3]);
        return;
    }
    if (c->wait == WAIT_COPROC_DONE || c->wait == WAIT_MOP_DONE) {
        tile_error_detail(t, "  %s: pc=0x%08x %s: blocked since cycle %llu in a Manual TTSync load "
                          "(%s of thread T%u)",
                          core_name(c->id), c->pc, dis, (unsigned long long)c->blocked_since,
                          c->wait == WAIT_COPROC_DONE ? "CoprocessorDoneCheck" : "MOPExpanderDoneCheck",
                          c->wait_arg);
        return;
    }
    const struct tensix_thread *th = &t->thread[c->wait_arg];
    const struct tt_fifo *f = c->id == CORE_BRISC ? &th->fifo2 : &th->fifo1;
    tile_error_detail(t,
                      "  %s: pc=0x%08x %s: blocked since cycle %llu pushing into full FIFO%d of "
                      "thread T%u (%u entries)",
                      core_name(c->id), c->pc, dis, (unsigned long long)c->blocked_since,
                      c->id == CORE_BRISC ? 2 : 1, c->wait_arg, f->count);
}

static bool coprocessor_drained(const struct tile *t)
{
    for (unsigned i = 0; i < NUM_THREADS; i++)
        if (!thread_drained(t, i))
            return false;
    return true;
}

/* ---- the scheduler ---- */

/* The run ended in an error: every core where lockstep has it when the error was raised. */
static void settle_at_error(struct tile *t)
{
    t->now = t->err.cycle;
    t->running_agent = t->err.agent;
    rv_rewind_all(t);
}

/* Every thread's and core's counters end at cycle `end`. */
static void close_accounting(struct tile *t, uint64_t end)
{
    coproc_account_close(t, end);
    for (int i = 0; i < NUM_CORES; i++)
        rv_close(&t->core[i], end);
    regions_close(t, end);
}

/* Agents in the order they act within a cycle: the coprocessor (index 0), then the cores. */
#define COPROC_AGENT 0
#define RUN_SLICE (1u << 20) /* cycles an agent runs before the scheduler looks at t->stop */
#define TILE_PROGRESS_CYCLES (1u << 20) /* between calls of t->progress */
#define NUM_AGENTS (1 + NUM_CORES)

static uint64_t agent_wake(const struct tile *t, int a)
{
    if (a == COPROC_AGENT)
        return t->coproc_wake;
    const struct rv_core *c = &t->core[a - 1];
    return c->state == CORE_RUNNING ? c->wake : CYCLE_NEVER;
}

/* A stop request ends the run at the cycle every running core has reached: cores run ahead of
 * the others only up to the next agent's wake (or a slice), so this is at most a slice away, and
 * stopping there leaves every agent at the same cycle boundary, as the cycle limit does. */
static uint64_t stop_cycle(const struct tile *t, uint64_t w0)
{
    uint64_t x = w0;
    for (int i = 0; i < NUM_CORES; i++)
        if (t->core[i].state == CORE_RUNNING && t->core[i].wake > x)
            x = t->core[i].wake;
    return x;
}

static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* The runnable agent with the smallest (wake, index) in *first (-1: none) and the next one in
 * that order in *second, with their wake cycles. Inlined: with several busy cores the scheduler
 * runs it once per instruction. */
static inline __attribute__((always_inline)) void pick(const struct tile *t, int *first, int *second,
                                                      uint64_t *w0, uint64_t *w1)
{
    *first = -1, *second = NUM_AGENTS;
    *w0 = *w1 = CYCLE_NEVER;
    for (int a = 0; a < NUM_AGENTS; a++) {
        uint64_t w = agent_wake(t, a);
        if (w < *w0) {
            *w1 = *w0, *second = *first < 0 ? NUM_AGENTS : *first;
            *w0 = w, *first = a;
        } else if (w < *w1) {
            *w1 = w, *second = a;
        }
    }
}

/* Runs agent `first` until it would pass the next agent in (wake, index) order, or `end`. */
static inline __attribute__((always_inline)) void run_agent(struct tile *t, int first, int second,
                                                           uint64_t w0, uint64_t w1, uint64_t end,
                                                           const bool debug)
{
    /* Same-cycle ties go to the lower index: the leader may also act at cycle w1 when it
     * comes first in agent order. */
    t->limit = w1 == CYCLE_NEVER ? CYCLE_NEVER : w1 + (first < second ? 1 : 0);
    if (t->limit > end)
        t->limit = end;
    /* A core running ahead (riscv/core.h) goes on to `end` or a slice, whichever comes first:
     * the scheduler comes back now and then to look at t->stop. */
    t->run_end = end - w0 > RUN_SLICE ? w0 + RUN_SLICE : end;
    if (t->limit > t->run_end)
        t->limit = t->run_end;
    t->running_agent = first;
    if (first == COPROC_AGENT)
        coproc_run(t);
    else if (debug && first - 1 == t->gdb->core)
        rv_run_debug(t, &t->core[first - 1]);
    else
        rv_run(t, &t->core[first - 1]);
}

uint64_t tile_next_event(const struct tile *t)
{
    if (t->err.kind != ERR_NONE)
        return CYCLE_NEVER;
    int first, second;
    uint64_t w0, w1;
    pick(t, &first, &second, &w0, &w1);
    return w0 < t->niu.in_next ? w0 : t->niu.in_next;
}

/* Packets the NoC delivers (mem/niu_deliver.c) act at a cycle boundary, as the host does: every
 * agent has acted before their cycle and none in it, so agents run up to it and no further (a
 * core running ahead stops there too: it is the run's end for it). */
bool tile_run_until(struct tile *t, uint64_t horizon)
{
    while (t->err.kind == ERR_NONE) {
        int first, second;
        uint64_t w0, w1;
        pick(t, &first, &second, &w0, &w1);
        const uint64_t in = t->niu.in_next;
        if (in <= w0 && in != CYCLE_NEVER) {
            if (in >= horizon)
                return true;
            t->now = in;
            t->limit = CYCLE_NEVER;
            t->running_agent = -1;
            niu_inbox_apply(t);
            continue;
        }
        if (first < 0)
            return false;
        if (w0 >= horizon)
            return true;
        run_agent(t, first, second, w0, w1, in < horizon ? in : horizon, false);
    }
    return false;
}

void tile_end_at(struct tile *t, uint64_t at)
{
    t->now = t->cycles = at;
    t->running_agent = -1;
    rv_rewind_all(t);
    close_accounting(t, at);
}

/* The host looks at cycle `at` (every agent has acted before it, none in it). True: the host
 * ended the run there. */
static bool host_poll(struct tile *t, uint64_t at)
{
    t->now = at;
    t->limit = CYCLE_NEVER;
    t->running_agent = -1;
    t->epoch++;
    if (!t->host.poll(t, t->host.ctx))
        return false;
    t->host.ended = true;
    t->cycles = at;
    close_accounting(t, at);
    return true;
}

/* tile_run's loop. `debug` (a constant in each of tile_run's two copies): a gdb stub is
 * attached (riscv/gdbstub.h); when its core stops, the loop serves gdb between two agents' steps
 * and then goes on exactly where it was, so stops change no cycle. */
static inline __attribute__((always_inline)) enum err_kind run_loop(struct tile *t,
                                                                    uint64_t max_cycles,
                                                                    const bool debug)
{
    uint64_t end = max_cycles ? max_cycles : CYCLE_NEVER;
    uint64_t poll_at = t->host.poll ? 0 : CYCLE_NEVER;
    bool ran = true; /* an agent acted since the host last looked (or it never has) */
    bool stopping = false;
    while (t->err.kind == ERR_NONE) {
        /* Pick the agent with the smallest (wake, index); it runs until it would pass the next
         * agent in that order. With one busy agent this is a tight loop inside it. */
        int first, second;
        uint64_t w0, w1;
        pick(t, &first, &second, &w0, &w1);
        /* A state dump at a cycle boundary: every agent has acted before it, none in it; the
         * host, when it looks at the same boundary, looks first. */
        if (__builtin_expect(t->dump != NULL, 0) && first >= 0 && w0 >= t->dump->cycle &&
            t->dump->cycle < end && t->dump->cycle < poll_at) {
            t->now = t->dump->cycle;
            t->limit = CYCLE_NEVER;
            t->running_agent = -1;
            t->dump->fire(t, t->dump->ctx, DUMP_AT_CYCLE, 0, 0, 0); /* moves dump->cycle on */
            continue;
        }
        /* The host looks every interval while agents act. While none acts memory stays as it
         * saw it, so it looks next just after the next agent's cycle. With nothing left to run
         * it looks once more at once, in the cycle after the last agent's (any later look would
         * see the same memory): what it writes may start a core, and the end may hold. */
        if (poll_at != CYCLE_NEVER && ran && first < 0) {
            ran = false;
            uint64_t at = poll_at < t->now + 1 ? poll_at : t->now + 1; /* cycle 0 before anything */
            if (at > end)
                at = end;
            if (host_poll(t, at))
                return t->err.kind;
            continue;
        }
        if (poll_at != CYCLE_NEVER && first >= 0 && w0 >= poll_at && poll_at < end) {
            if (ran) {
                if (host_poll(t, poll_at))
                    return t->err.kind;
                ran = false;
                poll_at += t->host.interval;
                continue;
            }
            poll_at = w0 + 1;
        }
        if (first < 0)
            break;
        if (__builtin_expect(t->progress != NULL, 0) && w0 >= t->progress_next) {
            t->progress(t->progress_ctx, w0);
            t->progress_next = w0 + TILE_PROGRESS_CYCLES;
        }
        if (debug && w0 >= t->gdb->intr_next && !stopping) { /* gdb's Ctrl-C */
            gdb_poll_interrupt(t, w0);
            if (t->gdb->stop != GDB_RUNNING)
                gdb_serve_stop(t);
        }
        if (((t->stop && *t->stop) || (debug && t->gdb->killed)) && !stopping) {
            stopping = true;
            uint64_t x = stop_cycle(t, w0);
            if (x < end)
                end = x;
        }
        if (w0 >= end) {
            t->now = t->cycles = end;
            if (stopping && debug && t->gdb->killed && !(t->stop && *t->stop))
                tile_error(t, ERR_INTERRUPTED, -1, 0, "gdb killed the run; it stopped at cycle %llu",
                           (unsigned long long)end);
            else if (stopping)
                tile_error(t, ERR_INTERRUPTED, -1, 0, "%s received; the run stopped at cycle %llu",
                           signal_name(*t->stop), (unsigned long long)end);
            else
                tile_error(t, ERR_CYCLE_LIMIT, -1, 0, "no end after %llu cycles (--max-cycles)",
                           (unsigned long long)end);
            settle_at_error(t);
            for (int i = 0; i < NUM_CORES; i++)
                describe_core(t, &t->core[i]);
            coproc_describe(t);
            close_accounting(t, end);
            return t->err.kind;
        }
        uint64_t horizon = end < poll_at ? end : poll_at;
        if (t->dump && t->dump->cycle < horizon)
            horizon = t->dump->cycle;
        run_agent(t, first, second, w0, w1, horizon, debug);
        ran = true;
        if (debug && t->gdb->stop != GDB_RUNNING)
            gdb_serve_stop(t);
    }
    return tile_finish(t);
}

enum err_kind tile_run(struct tile *t, uint64_t max_cycles)
{
    coproc_wake_ticks(t);
    if (__builtin_expect(t->gdb == NULL, 1))
        return run_loop(t, max_cycles, false);
    gdb_serve_stop(t); /* the initial stop: gdb looks before anything runs */
    run_loop(t, max_cycles, true);
    gdb_run_ended(t);
    return t->err.kind;
}

bool tile_stuck(const struct tile *t)
{
    for (int i = 0; i < NUM_CORES; i++)
        if (t->core[i].state == CORE_BLOCKED)
            return true;
    return !coprocessor_drained(t);
}

enum err_kind tile_finish(struct tile *t)
{
    if (t->err.kind != ERR_NONE) {
        settle_at_error(t);
        t->cycles = t->now + 1;
        close_accounting(t, t->cycles);
        return t->err.kind;
    }

    uint64_t last = t->coproc_last_active + 1;
    for (unsigned u = 0; u < UNIT_COUNT; u++) /* work a unit finished in a quiet cycle */
        if (unit_rows[u].desc && unit_rows[u].desc->last_busy && unit_rows[u].desc->last_busy(t) > last)
            last = unit_rows[u].desc->last_busy(t);
    bool blocked = false;
    for (int i = 0; i < NUM_CORES; i++) {
        const struct rv_core *c = &t->core[i];
        if (c->state == CORE_HALTED && c->halt_cycle > last)
            last = c->halt_cycle;
        if (c->state == CORE_BLOCKED) {
            blocked = true;
            if (c->blocked_since > last)
                last = c->blocked_since;
        }
    }
    t->now = t->cycles = last;
    close_accounting(t, last);
    if (blocked || !coprocessor_drained(t)) {
        tile_error(t, ERR_DEADLOCK, -1, 0, "no agent can make progress");
        for (int i = 0; i < NUM_CORES; i++)
            describe_core(t, &t->core[i]);
        coproc_describe(t);
        return t->err.kind;
    }
    return ERR_NONE;
}
