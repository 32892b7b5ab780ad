/* One baby RISC-V core (TRISC0-2 or BRISC): architectural state, the timing state the model
 * needs (scoreboard, branch predictor, store queue, L0 data cache) and its statistics.
 *
 * Timing model (docs/timing-model.md): the core issues at most one instruction per cycle into
 * EX1. `wake` is the cycle of the next issue. Results that take longer than one cycle (loads,
 * mul, atomics) mark their destination register busy until a ready cycle; an instruction that
 * reads or overwrites a busy register waits. Multi-cycle occupancy of EX1 (div, CSR, fence,
 * mispredicts) simply moves `wake` forward. Every cycle between 0 and `wake` is attributed to
 * exactly one of: active (an instruction issued) or one stall reason. */
#ifndef TENSIM_RISCV_CORE_H
#define TENSIM_RISCV_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"

struct tile;

enum core_state { CORE_OFF, CORE_RUNNING, CORE_BLOCKED, CORE_HALTED };
enum { POLL_NONE, POLL_FIRST, POLL_GOING }; /* rv_core.polling */

/* X(name, json key, description) */
#define CORE_STALL_REASONS(X)                                                              \
    X(STALL_OPERAND, "operand", "waiting for a load/mul/atomic result (scoreboard)")        \
    X(STALL_DIV, "div", "divider (or Wormhole's multiplier) occupying EX1")                 \
    X(STALL_BRANCH, "mispredict", "bubble after a mispredicted branch or jump")             \
    X(STALL_SERIAL, "serialise", "CSR/fence/ecall waiting for older instructions to retire") \
    X(STALL_STORE_QUEUE, "store_queue", "store queue full or draining")                     \
    X(STALL_MEMORY, "memory", "every in-flight load slot taken, or the Sync slot taken")    \
    X(STALL_FIFO_FULL, "tensix_fifo_full", "Tensix instruction FIFO full")                  \
    X(STALL_TTSYNC, "ttsync", "load held by Manual TTSync until the Tensix thread is done")   \
    X(STALL_PCBUF, "pcbuf", "PCBuf access waiting (empty, full, or BRISC waiting for idle)")   \
    X(STALL_MAILBOX, "mailbox", "mailbox read waiting for a word, or write for room")       \
    X(STALL_RETIRE, "retire_queue", "retire-order queue full behind an unfinished instruction") \
    X(STALL_POLLING, "polling", "going round a polling loop again (riscv/poll.h): its issue and stall cycles")

enum core_stall {
#define X(name, key, text) name,
    CORE_STALL_REASONS(X)
#undef X
    STALL_COUNT
};

/* What a blocked core waits on (it has no wake cycle of its own). */
enum core_wait {
    WAIT_NONE,
    WAIT_TENSIX_FIFO,   /* push into a full FIFO (wait_arg: thread) */
    WAIT_SYNC_SLOT,     /* semaphore store found the Sync slot taken: retry next cycle */
    WAIT_COPROC_DONE,   /* Manual TTSync CoprocessorDoneCheck load (wait_arg: thread) */
    WAIT_MOP_DONE,      /* Manual TTSync MOPExpanderDoneCheck load (wait_arg: thread) */
    WAIT_PCBUF_POP,     /* TRISC reading its empty PCBuf */
    WAIT_PCBUF_PUSH,    /* BRISC writing a full PCBuf (wait_arg: PCBuf) */
    WAIT_PCBUF_B_READ,  /* BRISC reading a PCBuf: waits for empty + TRISC reading + thread idle */
    WAIT_MAILBOX_POP,   /* reading an empty mailbox (wait_arg: the writer's mailbox number) */
    WAIT_MAILBOX_PUSH,  /* writing a full mailbox (wait_arg: the reader's mailbox number) */
};

struct core_stats {
    uint64_t instret;
    uint64_t active; /* cycles in which an instruction issued */
    uint64_t stall[STALL_COUNT];
    uint64_t op_count[RV_OP_COUNT];
    uint64_t branches, mispredicts;
    uint64_t loads, stores, l0_hits, l0_misses, l0_flushes;
    uint64_t tensix_pushes; /* Tensix instructions pushed (sw to INSTRN_BUF or .ttinsn) */
};

#define BHT_SIZE 256 /* 2-bit counters, indexed by pc bits [9:2] */
#define SQ_MAX 4
#define L0_MAX 4
#define LOAD_SLOTS_MAX 8
#define ROB_SIZE 8 /* retire-order queue entries (BHR:README.md "Retire Unit") */

struct store_entry {
    uint32_t line;     /* 16-byte aligned L1 address */
    uint32_t last_off; /* start offset of the newest merged store, for the +/-4 rule */
    uint16_t mask;     /* bytes written */
    bool sealed;       /* no further merging; finish is valid */
    uint64_t created;
    uint64_t finish; /* cycle the entry has left the queue (valid once sealed) */
};

struct l0_line {
    bool valid;
    uint32_t tag; /* 16-byte aligned L1 address */
    uint8_t data[16];
};

struct rv_core {
    /* architectural state */
    uint32_t x[32];
    uint32_t pc;
    uint32_t cfg0; /* CSR 0x7C0 */
    uint32_t pmacfg[2];
    uint32_t scratch[4];     /* CSRs 0x7C3-0x7C6 */
    uint32_t tt_status[2];   /* last tt_cfg_qstatus / tt_cfg_bstatus value (kept while frozen) */
    int64_t cycle_offset;    /* writes to cycle/mcycle shift the visible counter */
    int64_t instret_offset;

    /* run state */
    int id; /* enum core_id */
    enum core_state state;
    uint64_t wake; /* next issue cycle (meaningful while RUNNING) */
    enum core_wait wait;
    uint32_t wait_arg;
    uint64_t blocked_since;
    uint8_t last_stall; /* enum core_stall of the last stall charged ahead of `wake` */
    int exit_code;
    uint64_t halt_cycle;

    /* Polling (riscv/poll.h): the loop last gone round, [poll_lo, poll_hi] (its first
     * instruction to its closing branch), and the instret at which the core, still going round
     * it, retires its next instruction (UINT64_MAX: not going round one). `polling`, for the
     * instruction under way: POLL_NONE outside polling loops, POLL_FIRST in one but not going
     * round it (yet), POLL_GOING going round it, so its cycles are STALL_POLLING's. */
    uint32_t poll_lo, poll_hi;
    uint64_t poll_at;
    uint8_t polling;
    /* Sleeping pollers (riscv/poll_sleep.h): poll_steady, its rounds repeat (it writes nothing
     * while it stays in the loop); poll_ports, they load through its L1 port; poll_l1, the round
     * under way has (a load missed the L0 or went to L1 without it). */
    bool poll_steady, poll_ports, poll_l1;

    /* timing state */
    uint64_t ready[32]; /* cycle each register's pending result lands */
    uint64_t pending_until; /* max(ready[]): no register is busy from this cycle on */
    /* The instruction at pc passed the scoreboard and waits (for it or the retire-order queue)
     * until this cycle: it is not looked at again then, whether or not the core stopped in
     * between, so that where the scheduler stops a core changes nothing (the Wormhole
     * forwarding below holds only at the first look). */
    uint64_t checked_at;
    uint8_t bht[BHT_SIZE];
    uint32_t btb[BHT_SIZE]; /* last jalr target per index */
    struct store_entry sq[SQ_MAX];
    unsigned sq_head, sq_count;
    uint64_t sq_last_finish; /* finish of the most recently sealed entry */
    /* the last store to a region other than L1 and the cycle it leaves the store queue */
    uint32_t io_store_addr, io_store_size;
    uint64_t io_store_out;
    uint64_t load_free[LOAD_SLOTS_MAX]; /* cycle each in-flight load slot frees (its response) */
    struct l0_line l0[L0_MAX];
    unsigned l0_victim;
    uint32_t rng; /* xorshift32 state for the L0 periodic flush; fixed seed => deterministic */
    /* The retire-order queue (BHR:MemoryOrdering.md): the cycle each of the last ROB_SIZE
     * recorded instructions leaves it; instructions are recorded only in the wake of a late
     * finisher (riscv/core.c says when), and every one of those is. */
    uint64_t rob[ROB_SIZE];
    uint64_t rob_last; /* the newest recorded instruction's retire cycle */
    /* rv.forward_queued 0 (Wormhole): the register an instruction queued behind a slow load
     * wrote, which only the instruction issuing at fwd_at (the very next one) may read early */
    uint64_t fwd_at;
    uint8_t fwd_rd;
    uint8_t rob_pos;

    struct core_stats st;
};

/* Run-ahead (docs/architecture.md "Run-ahead"): a core goes on past the other agents while its
 * instructions touch only its own state, and keeps the state it had where it passed them, so
 * that an agent acting on it at an earlier cycle can put it back where lockstep has it. Stores
 * to its local data RAM past that point are undone from a log; a full log makes the core wait. */
#define AHEAD_UNDO_MAX 64
struct rv_undo { uint16_t off; uint8_t size; uint32_t old; };
struct rv_ahead {
    bool valid;     /* the core ran ahead since it was last the first agent in order */
    unsigned nundo; /* local data RAM stores since then: offset, size and the bytes they overwrote */
    struct rv_undo undo[AHEAD_UNDO_MAX];
    struct rv_core saved; /* the core where it passed the others */
};

void rv_core_reset(struct rv_core *c, int id, uint32_t pc);
/* Run core c until its next issue cycle reaches t->limit (which other agents may lower while
 * it runs), it blocks, halts or an error is raised in the tile. */
void rv_run(struct tile *t, struct rv_core *c);
/* Another agent (t->running_agent, or the host at -1) acts on core k at cycle t->now, where
 * lockstep has core k at (t->now, k) in (cycle, agent) order: if it ran ahead past that, put it
 * back there (its state from where it passed the others, its instructions run again up to that
 * point; they touched only its own state, so they do the same). */
void rv_rewind(struct tile *t, int k);
/* rv_rewind for every core: before anything reads them all (an error ends the run). */
void rv_rewind_all(struct tile *t);
/* rv_run for the core a gdb stub is attached to (t->gdb, riscv/gdbstub.h): the same, but it
 * stops before an instruction when the stub says so. */
void rv_run_debug(struct tile *t, struct rv_core *c);
/* Make a blocked core runnable again from cycle `now` (the blocked cycles are attributed to
 * the reason it waited for). */
/* The stall a core blocked on `w` is charged. */
static inline enum core_stall core_wait_stall(enum core_wait w)
{
    return w == WAIT_TENSIX_FIFO                          ? STALL_FIFO_FULL
           : w == WAIT_COPROC_DONE || w == WAIT_MOP_DONE   ? STALL_TTSYNC
           : w == WAIT_MAILBOX_POP || w == WAIT_MAILBOX_PUSH ? STALL_MAILBOX
                                                           : STALL_PCBUF;
}
/* ... and a blocked core is charged: that, or polling when it blocked inside a polling loop. */
static inline enum core_stall core_blocked_stall(const struct rv_core *c)
{
    return c->polling == POLL_GOING ? STALL_POLLING : core_wait_stall(c->wait);
}
static inline void rv_unblock(struct rv_core *c, uint64_t now)
{
    if (c->state != CORE_BLOCKED)
        return;
    c->st.stall[core_blocked_stall(c)] += now - c->blocked_since;
    c->state = CORE_RUNNING;
    c->wait = WAIT_NONE;
    c->wake = now;
}
/* The run ended at cycle `end` while the core was running: take back the stall cycles it was
 * charged past the end, so that its cycles never exceed the run's. */
void rv_close(struct rv_core *c, uint64_t end);
/* Append "x1=... x2=..." register dump lines to buf. */
void rv_dump_regs(const struct rv_core *c, char *buf, size_t n);
const char *core_stall_key(enum core_stall s);
/* Cycles from reset to the core's end (halt, block or now): active plus every stall. */
uint64_t rv_core_cycles(const struct rv_core *c);
const char *core_stall_text(enum core_stall s);

#endif
