/* All state of one Tensix tile, allocated once (tile_create) and never resized.
 *
 * Agents and their order within a cycle (docs/architecture.md): cores TRISC0, TRISC1, TRISC2,
 * BRISC; the Tensix pipes and backend units join this list as they are built. The scheduler
 * (core/tile.c) always advances the agent with the smallest (next cycle, agent index), so two
 * agents acting in the same cycle act in that fixed order and results never depend on the host. */
#ifndef TENSIM_CORE_TILE_H
#define TENSIM_CORE_TILE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "../mem/l1.h"
#include "../mem/l1_port.h"
#include "../mem/map.h"
#include "../mem/niu.h"
#include "../riscv/core.h"
#include "../riscv/mailbox.h"
#include "../riscv/poll_sleep.h"
#include "../riscv/region.h"
#include "../sync/origin.h"
#include "../sync/semaphores.h"
#include "../sync/thread.h"
#include "../units/adc.h"
#include "../units/cfg.h"
#include "../units/dest.h"
#include "../units/gpr.h"
#include "../units/registry.h"
#include "../units/srcab.h"
#include "arch.h"
#include "error.h"
#include "perf_counters.h"
#include "services.h"

#define CYCLE_NEVER UINT64_MAX
#define LOCAL_RAM_MAX 8192

/* What makes a state dump happen (trace/state.c arms it; tensim run --dump-state). The
 * scheduler, the cores' executor, the regions and the Wait Gates call `fire` through this hook
 * (registration: the dump reads their state, so they never name it), and only where it is
 * armed: with no hook (t->dump NULL) nothing is looked at per cycle or per instruction. */
enum tile_dump_at {
    DUMP_AT_CYCLE,  /* the cycle boundary `cycle`: every agent has acted before it, none in it */
    DUMP_AT_PC,     /* core `who` issued the instruction at pc `a` (its effects done) */
    DUMP_AT_REGION, /* core `who` began (b = 1) or ended (b = 0) region `a` */
    DUMP_AT_INSN,   /* thread `who`'s Wait Gate issues word `a` of form b (before it executes) */
    DUMP_AT_ZONE,   /* TRISC `who` issued the store of word `a`, the first word of a tt-llk
                     * profiler zone start or end marker, into its profiler buffer at `b` */
    DUMP_AT_ERROR,  /* the run stopped with an error (before the report) */
};
struct tile;
struct tile_dump_hook {
    uint64_t cycle;               /* the next DUMP_AT_CYCLE boundary (UINT64_MAX: none) */
    bool pc[NUM_CORES];           /* the core's issues are watched */
    bool region[NUM_CORES];       /* the core's region marks are watched */
    bool insn[NUM_THREADS];       /* the thread's issues are watched */
    bool zone[NUM_THREADS];       /* TRISC n's stores into its profiler buffer are watched */
    uint32_t zone_buf[NUM_THREADS], zone_bytes; /* where those buffers are, how long each is */
    void (*fire)(struct tile *t, void *ctx, enum tile_dump_at at, unsigned who, uint32_t a,
                 uint32_t b);
    void *ctx;
};

struct tile {
    const struct arch *arch;
    uint64_t now; /* cycle of the agent step in progress */

    uint8_t *l1;               /* arch->l1_size bytes */
    struct rv_insn *predecode; /* one slot per L1 word; RV_UNDECODED until first fetch */
    uint8_t local_ram[NUM_CORES][LOCAL_RAM_MAX];

    struct mem_map map; /* address rows registered by their owners (tile_create) */
    struct rv_core core[NUM_CORES];
    struct l1_port l1_port[L1_RISC_PORTS]; /* the cores' shared L1 access ports (mem/l1_port.h) */
    struct tensix_thread thread[NUM_THREADS];
    /* Bit i: thread i may have work (sync/gate.c). A push sets it; the coprocessor clears it in
     * a cycle in which it finds the thread with nothing anywhere, and skips it from then on. */
    uint8_t threads_live;
    /* Tests: every coprocessor cycle by coproc_step, none by the quick cycle (sync/gate.c
     * coproc_run), the reference that one is compared with. */
    bool pipe_general_only;
    uint64_t quick_cycles; /* cycles the quick cycle did (tests: the path ran) */
    /* The backend units' state, one member per row of units/registry.h */
#define X(id, kind, desc, type, member, ...) type member;
    TENSIX_UNITS(X)
#undef X
    struct src_regs src;                 /* SrcA and SrcB */
    struct sem_bank sem;                 /* semaphores, mutexes, the Sync slot */
    struct adc_thread adc[NUM_THREADS];  /* address counters */
    uint32_t gpr[NUM_THREADS][NUM_GPRS]; /* Tensix GPRs (WH:ScalarUnit.md) */
    struct gpr_writes gpr_pend;          /* ... their late writes (units/gpr.c) */
    struct tt_config cfg;                /* Config banks and ThreadConfig */
    struct dest dest;                    /* Dst register file */
    uint8_t res_next[RES_COUNT]; /* round-robin pointer per shared resource (sync/gate.c) */
    /* The registry's per-cycle calls, gathered once by tile_create: the units' `tick` and
     * `next_event` functions in row order, so the coprocessor's cycle walks no empty rows. */
    void (*unit_tick[UNIT_COUNT])(struct tile *t);
    uint64_t (*unit_next_event[UNIT_COUNT])(const struct tile *t);
    uint8_t nunit_tick, nunit_next_event;
    bool (*unit_active[UNIT_COUNT])(const struct tile *t); /* unit_tick[i]'s `active` */
    /* Bit i: unit_tick[i] is called this cycle (sync/gate.c). Set for every unit at reset and
     * at the start of a run, and for a unit when an instruction of it issues; cleared when the
     * unit's `active` says its tick has nothing left to do. */
    uint16_t ticks_awake;
    uint16_t tick_bit[TT_UNIT_COUNT]; /* instruction kind (enum tt_unit) -> its unit's bit */
    /* STALLWAIT condition -> 1 + the registry row that answers it (0: none) and the instance. */
    uint8_t cond_row[WC_COUNT], cond_instance[WC_COUNT];

    /* Scheduling: the coprocessor agent (all threads' pipes and the backend units) acts first
     * in a cycle, then the cores in index order. `limit` is the (exclusive) cycle up to which
     * the running agent may go before another agent must act; waking an agent lowers it. */
    uint64_t coproc_wake;
    uint64_t coproc_last_active; /* the last cycle a pipe or Wait Gate made progress */
    uint64_t limit;
    int running_agent; /* 0 = coprocessor, 1 + core id = a core */
    /* Run-ahead (riscv/core.h): a running core goes on past `limit` up to `run_end` while its
     * instructions touch only its own state, and waits for the others (stops) before anything
     * another agent can see or change. `lockstep` (tensim run --lockstep) turns it off, and
     * the fast block and sleeping pollers with it: every instruction goes through the
     * executor's general path, the reference the others are tested against; a trace, profile,
     * state dump or gdb, which look at every core as the cycles pass, run in lockstep too. */
    uint64_t run_end;
    bool lockstep;
    bool fresh; /* inside tile_create's tile_reset: the whole tile is still zero */
    struct rv_ahead ahead[NUM_CORES];
    /* rv_rewind, installed by tile_create: the scheduler's (the cores call the units that call
     * tile_settle_core, so a direct call would close a loop of calls between the layers) */
    void (*rewind)(struct tile *t, int core);
    uint64_t rewinds; /* cores brought back (tests: the path ran) */
    /* Sleeping pollers (riscv/poll_sleep.h): `epoch` counts the actions that may change what a
     * polling loop reads (coprocessor cycles, stores, atomics, device accesses with side
     * effects, the host's looks); each core's last round; rounds skipped (tests). */
    uint64_t epoch;
    struct poll_sleep sleep[NUM_CORES];
    uint64_t poll_skips;

    /* PCBufs: RISCV B -> TRISC i FIFOs of 16 words, plus the override register bits
     * (BHR:PCBufs.md, RISCV_DEBUG_REG_TRISC_PC_BUF_OVERRIDE). */
    struct pcbuf { uint32_t word[16]; unsigned head, count; } pcbuf[NUM_THREADS];
    uint32_t pcbuf_override;
    struct mailboxes mbox; /* core-to-core mailboxes (riscv/mailbox.c) */
    struct core_regions regions[NUM_CORES]; /* tensim_region_begin/end per core (riscv/region.h) */

    /* Timeline trace (trace/trace.h), NULL when off. */
    struct tracer *tracer;
    /* State dumps (trace/state.h, tensim run --dump-state), NULL when none is armed. */
    struct tile_dump_hook *dump;
    /* A gdb stub attached to one core (riscv/gdbstub.h, --gdb), NULL when none: the scheduler
     * and that core then run their copies with the debugger's checks. Owned by whoever set it. */
    struct gdb_stub *gdb;
    /* Optional observer of every instruction passing a Wait Gate (tests). */
    void (*on_issue)(void *ctx, unsigned thread, uint64_t cycle, uint32_t word);
    void *on_issue_ctx;

    struct sim_error err;
    /* Set asynchronously (to the signal number, by a signal handler) to end the run at the next
     * cycle boundary as ERR_INTERRUPTED; NULL when nothing can ask. */
    const volatile sig_atomic_t *stop;
    /* Optional progress observer (tensim run on a terminal): called with the cycle the run has
     * reached about every TILE_PROGRESS_CYCLES simulated cycles; NULL when nobody watches. */
    void (*progress)(void *ctx, uint64_t cycle);
    /* Per-instruction profiles (riscv/profile.h, tensim run --profile), NULL when off; owned by
     * whoever set them. */
    struct rv_profile *prof[NUM_CORES];
    bool profiling; /* some prof[k] is set: the Wait Gate charges held cycles to pushes */
    void *progress_ctx;
    uint64_t progress_next;
    FILE *out, *errout; /* where guest writes (ecall 64) go */
    int out_errno;      /* errno of the first guest write to them that failed, else 0 */
    uint64_t cycles;    /* total cycles of the finished run */
    /* L1 ranges taken by loaded programs, sorted by start, so that no two programs (or two
     * segments of one) share a byte (mem/elf.c; tt-exalens's way only warns, so they may
     * overlap); grown by the loader, never during a run. */
    struct loaded_range { uint32_t lo, hi; int core; } *loaded;
    unsigned nloaded;
    struct perf_counter_regs perf; /* PERF_CNT_* registers (core/perf_counters.c) */
    struct niu niu; /* the NIUs' registers, counters and outbox (mem/niu.c) */
    uint32_t wall_clock_latch; /* WALL_CLOCK_H: high half latched by the last WALL_CLOCK_L access */
    /* Reset and boot registers (core/tile_ctrl.c, spec/memory-map.md §6). */
    struct tile_boot_regs {
        uint32_t soft_reset;        /* RISCV_DEBUG_REG_SOFT_RESET_0 */
        uint32_t trisc_reset_pc[NUM_THREADS]; /* BH TRISC0/1/2_RESET_PC */
        uint32_t reset_pc_override; /* BH TRISC_RESET_PC_OVERRIDE, bits 0..2 */
        uint32_t ncrisc_reset_pc;   /* BH NCRISC_RESET_PC */
        uint32_t ncrisc_override;   /* BH NCRISC_RESET_PC_OVERRIDE, bit 0 */
        uint32_t clock_gating[3];   /* BH DEST_CG_CTRL, CG_CTRL_EN, CG_KICK: kept, no effect */
        uint32_t instrn_buf_ctrl[2]; /* RISCV_DEBUG_REG_INSTRN_BUF_CTRL0/1: the debug push */
    } boot;
    /* The host's part of the run (core/host.c), when there is one: tile_run calls `poll` at
     * cycle 0 and then every `interval` cycles, after every agent has acted in the cycles before
     * and before any acts in that cycle. It may write memory and release cores, and returns true
     * to end the run there (`ended` is then set). */
    struct tile_host_hook {
        bool (*poll)(struct tile *t, void *ctx);
        void *ctx;
        uint32_t interval;
        bool ended;
    } host;
    /* Values the hardware leaves unpredictable (docs/numerics.md) get a stand-in and one
     * warning instead of stopping the run (--unpredictable=warn). */
    bool unpredictable_warn;
    /* Warnings given so far (tile_warning); they never stop a run. */
    unsigned nwarnings;
    /* tensim run --lint (core/rules.h): the findings, NULL when off (then the first break of an
     * undefined rule stops the run). While it is on, the Wait Gate notes the instruction it is
     * issuing so that a rule broken at issue names its push (issue_thread -1: none). */
    struct lint *lint;
    uint32_t issue_word;
    tt_origin issue_origin;
    int issue_thread;
};

/* The tile control, debug and status registers' rows (core/tile_ctrl.c). */
extern const struct region tile_ctrl_regions[];
extern const unsigned tile_ctrl_regions_len;

struct tile *tile_create(const struct arch *arch);
void tile_destroy(struct tile *t);
/* Memory for one struct tile (tile_create's; gdbstub's scratch copy): an anonymous mapping of
 * its own, page-aligned (struct tile holds vectors aligned for 512-bit loads,
 * units/fpu_datapath.h, more than malloc promises) and zero, its untouched pages costing nothing
 * (most of a tile's caches and tables stay unused). NULL: no memory. */
static inline struct tile *tile_mem_alloc(void)
{
    void *p = mmap(0, sizeof(struct tile), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? 0 : p;
}

static inline void tile_mem_free(struct tile *t)
{
    if (t)
        munmap(t, sizeof *t);
}

/* Zero n bytes of a tile's state, for reset functions: nothing to do in the tile's first reset,
 * whose memory is a fresh mapping's (tile_mem_alloc) and calloc's (writing zeros there would
 * make the host back every page of the tile's 900 KiB, most of which a run never touches: each
 * page costs a fault, serially before the run, several microseconds on a virtual machine). */
static inline void tile_zero(const struct tile *t, void *p, size_t n)
{
    if (!t->fresh)
        memset(p, 0, n);
}

/* Power-on state: memories zero, all cores off with their reset pc. */
void tile_reset(struct tile *t);
/* Start core `id` at `pc` at once, as a debugger would (the loader calls this with the ELF
 * entry when no boot sequence runs): its soft-reset bit is cleared, nothing else is reset. */
void tile_start_core(struct tile *t, int id, uint32_t pc);

/* Soft reset (core/tile_ctrl.c, spec/memory-map.md §6). The bit of each core in SOFT_RESET_0. */
unsigned tile_core_reset_bit(int core);
/* Write SOFT_RESET_0 as a core's store or the host does. A core whose bit goes from 1 to 0 leaves
 * reset and fetches from its reset pc at cycle `cycle`; one whose bit goes from 0 to 1 stops.
 * Bits of other units may only be written with their current value (unit reset is not modelled:
 * ERR_UNIMPLEMENTED). Returns 0 or -1 (error in tile). */
int tile_soft_reset_write(struct tile *t, int writer, uint32_t value, uint64_t cycle);
/* The pc core `core` takes on leaving reset: BRISC 0; a TRISC its default, or the value of its
 * TRISCn_RESET_PC register when its override bit is set (Blackhole; Wormhole: Config's
 * TRISC_RESET_PC_SEC<n>_PC and TRISC_RESET_PC_OVERRIDE). */
uint32_t tile_reset_pc(const struct tile *t, int core);
/* The host's 32-bit access to the tile control registers 0xFFB12000-0xFFB12FFF (as a store or
 * load by no core: an unmodelled register is ERR_UNIMPLEMENTED in the tile); false outside that
 * block. SOFT_RESET_0 written by the host takes effect at t->now. */
bool tile_ctrl_host(struct tile *t, uint32_t addr, bool write, uint32_t *val);
/* Set a TRISC's reset pc and override bit, as Tenstorrent's loader does after loading
 * (Blackhole's registers; Wormhole's Config words, where its firmware writes them). */
void tile_set_reset_pc(struct tile *t, int core, uint32_t pc);


/* Run until every started core has halted and the coprocessor has drained, an error, or
 * max_cycles (0 = no limit). Returns the error kind (ERR_NONE on a clean finish). */
enum err_kind tile_run(struct tile *t, uint64_t max_cycles);

/* Running in windows (core/sim.c; several tiles on host threads): run every agent that acts
 * before cycle `horizon`, and stop there. Returns true if the tile has an agent left to run
 * (call again with a later horizon), false when it has finished or stopped with an error (then
 * call tile_finish). A run in windows gives the same cycles, state, stats and trace as one
 * tile_run without a cycle limit. */
bool tile_run_until(struct tile *t, uint64_t horizon);
/* The first cycle at which an agent of the tile acts next (CYCLE_NEVER: finished). */
uint64_t tile_next_event(const struct tile *t);
/* Stop a tile that tile_run_until left running at `at` (every agent has acted before it), with
 * no error: its cycle count is `at` (a chip whose run another tile's error ended). */
void tile_end_at(struct tile *t, uint64_t at);
/* A tile with no agent left to run that tile_finish would call deadlocked: a core blocked, or
 * the coprocessor holding work. */
bool tile_stuck(const struct tile *t);
/* End of a run that tile_run_until finished: the cycle count, the accounting, and the deadlock
 * check (every started core halted and the coprocessor drained). Returns the error kind. */
enum err_kind tile_finish(struct tile *t);

/* The tile's architecture as the ISA tables name it (TT_ARCH_WH or TT_ARCH_BH). */
static inline unsigned tile_arch_bit(const struct tile *t)
{
    return t->arch->id == ARCH_WORMHOLE ? TT_ARCH_WH : TT_ARCH_BH;
}
static inline bool tile_is_wormhole(const struct tile *t) { return t->arch->id == ARCH_WORMHOLE; }

/* The unit that executes instructions of kind `kind` (enum tt_unit) may have been given work:
 * its tick is called from the next cycle on until it says it is idle (units/unit.h `active`).
 * The Wait Gate calls this after every issue; anything else that gives a unit work (a RISC-V
 * store that queues a Config write) calls it too. */
static inline void tile_wake_tick(struct tile *t, unsigned kind) { t->ticks_awake |= t->tick_bit[kind]; }

/* L1 bytes [addr, addr + n) changed behind the cores' backs (a unit writing through a pointer,
 * a loader): mem/l1.h's rule for the tile's L1. n > 0. */
static inline void tile_code_written(struct tile *t, uint32_t addr, uint32_t n)
{
    l1_code_written(t->predecode, addr, n);
}

void gdb_unit_wrote(struct tile *t, uint32_t addr, uint32_t n); /* riscv/gdbstub.h */
/* Another agent (t->running_agent) acts on core k's own state at cycle t->now: bring the core
 * back there if it ran ahead past it (riscv/core.h, rv_rewind). */
static inline void tile_settle_core(struct tile *t, int k)
{
    if (t->ahead[k].valid)
        t->rewind(t, k);
}

/* A Tensix unit wrote L1 [addr, addr + n): a gdb watchpoint there stops the tile after this cycle
 * (riscv/gdbstub.h); without a stub, one test of a pointer. */
static inline void tile_unit_wrote(struct tile *t, uint32_t addr, uint32_t n)
{
    if (__builtin_expect(t->gdb != NULL, 0))
        gdb_unit_wrote(t, addr, n);
}

#endif
