/* A GDB remote-serial-protocol stub for one core of a tile (`tensim run --gdb PORT[:CORE]`,
 * docs/user-guide.md "Debugging with gdb").
 *
 * The stub listens on 127.0.0.1 only and serves one gdb connection. It shows gdb the chosen
 * core's x0..x31 and pc (target.xml: riscv:rv32) and memory as that core sees it: L1, its local
 * data RAM and the MMIO views (read on a scratch copy of the tile, so a read changes nothing).
 * Breakpoints and watchpoints are the simulator's own (nothing is patched in memory).
 *
 * Stops (core/tile.c, riscv/core.c): the chosen core stops just before an instruction issues (a
 * breakpoint, a single step, an access to a watched L1 address); the scheduler then serves gdb and no agent advances until gdb resumes, so a run with stops gives
 * exactly the cycles and statistics of one without. The core's executor and the scheduler have a
 * second copy compiled with the checks; without a stub the usual copy runs and pays nothing. */
#ifndef TENSIM_RISCV_GDBSTUB_H
#define TENSIM_RISCV_GDBSTUB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "decode.h"

struct tile;
struct rv_core;

#define GDB_MAX_BREAK 64
#define GDB_MAX_WATCH 16
#define GDB_PACKET_MAX 16384
#define GDB_MONITOR_MAX (4u << 20) /* monitor output (a Dst dump is about 1 MiB), sent in O packets */
#define GDB_INTERRUPT_CYCLES 65536 /* how often a running tile looks for gdb's Ctrl-C */

enum gdb_stop { GDB_RUNNING, GDB_STOP_INITIAL, GDB_STOP_BREAK, GDB_STOP_STEP, GDB_STOP_WATCH,
                GDB_STOP_INTERRUPT, GDB_STOP_ERROR };
enum gdb_watch_kind { GDB_WATCH_WRITE = 2, GDB_WATCH_READ = 3, GDB_WATCH_ACCESS = 4 }; /* Z type */

struct gdb_stub {
    int listen_fd, fd; /* fd < 0: no gdb (never connected, detached or gone) */
    int core;
    unsigned port;
    bool noack;  /* QStartNoAckMode */
    bool killed; /* gdb sent k (or the connection wait was interrupted): end the run */
    bool swbreak; /* gdb understands swbreak stop replies */
    uint8_t signal; /* GDB_STOP_ERROR: the signal number the error is reported as */

    uint32_t brk[GDB_MAX_BREAK];
    unsigned nbrk;
    struct gdb_watch { uint32_t addr, len; uint8_t kind; } watch[GDB_MAX_WATCH];
    unsigned nwatch;
    bool stepping;
    /* A fused group of .ttinsn words issued with a breakpoint on one of its later words (which
     * never issues on its own): stop before the next instruction, as after a step. */
    bool hit_next;
    /* The instruction the core resumed at (its pc and instret): neither a breakpoint there nor
     * a step stops it again, as gdb expects when it continues from a breakpoint. */
    uint32_t skip_pc;
    uint64_t skip_instret;
    /* ... and whether its watchpoints are skipped too: only when the core stopped for its own
     * access there (after a breakpoint or step stop the access is still to be watched) */
    bool skip_watch;
    bool unit_watch; /* the GDB_STOP_WATCH was a Tensix unit's write (gdb_unit_wrote) */

    enum gdb_stop stop; /* why the tile is stopped; GDB_RUNNING while it runs */
    uint64_t stop_cycle; /* the cycle of the stop (docs/user-guide.md "Debugging with gdb") */
    uint32_t watch_addr; /* the watched address the last watch stop touched ... */
    uint8_t watch_kind;  /* ... and how */
    uint64_t intr_next; /* the cycle from which the scheduler next looks for gdb's Ctrl-C */

    /* `monitor tensix ...`: prints the Tensix state (issue 18 item 1); NULL until it exists. */
    void (*monitor_tensix)(struct tile *t, const char *args, FILE *out);

    struct tile *scratch; /* a copy of the tile for MMIO reads */
    char rbuf[4096]; /* bytes received, [used, have) not read yet */
    unsigned used, have;
    char in[GDB_PACKET_MAX + 1], out[2 * GDB_PACKET_MAX + 16];
    char *text; /* monitor output (GDB_MONITOR_MAX bytes) */
};

/* Parses PORT[:CORE] (CORE trisc0..2 or brisc, default trisc0; PORT 0..65535, 0: any free port).
 * Returns 0, or -1 with a message in err. */
int gdb_parse_spec(const char *spec, unsigned *port, int *core, char *err, size_t n);

/* Listens on 127.0.0.1:port, prints "tensim: gdb: waiting on 127.0.0.1:PORT for CORE" to `note`
 * and waits for gdb to connect. NULL with a message in err when it cannot (port in use, out of
 * memory, interrupted: *interrupted set). `stop` is the run's signal flag (may be NULL). */
struct gdb_stub *gdb_open(unsigned port, int core, const volatile sig_atomic_t *stop, FILE *note, char *err,
                          size_t n, bool *interrupted);
void gdb_close(struct gdb_stub *g);

/* ---- called by the core's executor (the debug copy of rv_run) ---- */

/* The chosen core is about to issue `in` at pc at cycle `now` (x: its registers). True: stop
 * the tile here, before it issues: a breakpoint, a step, or an access to a watched L1 address
 * (reported before the access, as a RISC-V trigger does and as gdb expects of RISC-V: gdb then
 * steps over the instruction itself and shows the old and new values). */
static inline bool gdb_issue(struct gdb_stub *g, uint32_t pc, uint64_t instret,
                             const struct rv_insn *in, const uint32_t *x, uint32_t l1_size,
                             uint64_t now);

/* The chosen core issued a fused group of .ttinsn words at [pc, next): a breakpoint on a later
 * word of it (gdb plants one at pc + 2, taken as pc + 4, to step over an inline Tensix word)
 * stops the tile before the instruction after the group. */
static inline void gdb_group_issued(struct gdb_stub *g, uint32_t pc, uint32_t next)
{
    for (unsigned i = 0; i < g->nbrk; i++)
        if (g->brk[i] > pc && g->brk[i] < next)
            g->hit_next = true;
}

/* ---- called by the scheduler (the debug copy of tile_run) ---- */

/* The tile stopped (g->stop set) or is about to start (GDB_STOP_INITIAL): tell gdb and serve it
 * until it resumes, detaches or kills the run (then g->killed). */
void gdb_serve_stop(struct tile *t);
/* Between agents, at cycle w0: did gdb send Ctrl-C? Then the tile stops here (g->stop set). */
void gdb_poll_interrupt(struct tile *t, uint64_t w0);
/* The run ended with `t->err`: tell gdb (W: exited; after an error, a stop with a signal, served
 * until gdb resumes, then X: terminated). */
void gdb_run_ended(struct tile *t);

/* ---- inline part ---- */

/* Does an access of `size` bytes at addr hit a watchpoint? Then its address and kind are kept. */
bool gdb_watch_hits(struct gdb_stub *g, uint32_t addr, unsigned size, bool store, bool load);
/* A Tensix unit (the packer, the Scalar unit's stores) wrote L1 [addr, addr + n) in cycle t->now:
 * a write or access watchpoint there stops the tile at the end of that cycle (the unit's step),
 * reported to gdb as a watchpoint hit on the watched address. The write has happened by then:
 * gdb steps the core once, as after any RISC-V watchpoint, and shows the new value. */
void gdb_unit_wrote(struct tile *t, uint32_t addr, uint32_t n);

static inline bool gdb_issue(struct gdb_stub *g, uint32_t pc, uint64_t instret,
                             const struct rv_insn *in, const uint32_t *x, uint32_t l1_size,
                             uint64_t now)
{
    const bool resumed_here = pc == g->skip_pc && instret == g->skip_instret;
    if (resumed_here && g->skip_watch)
        return false;
    bool hit = !resumed_here && (g->stepping || g->hit_next);
    for (unsigned i = 0; i < g->nbrk && !hit && !resumed_here; i++)
        hit = g->brk[i] == pc;
    if (hit) {
        g->stop = g->stepping || g->hit_next ? GDB_STOP_STEP : GDB_STOP_BREAK;
        g->hit_next = false;
        g->stop_cycle = now;
        return true;
    }
    if (!g->nwatch || in->op >= RV_OP_COUNT)
        return false;
    const struct rv_desc *d = rv_desc((enum rv_op)in->op);
    unsigned size = 4;
    uint32_t addr;
    bool store = false, load = false;
    if (d->cls == RVC_LOAD || d->cls == RVC_STORE) {
        size = in->op == RV_LB || in->op == RV_LBU || in->op == RV_SB   ? 1
               : in->op == RV_LH || in->op == RV_LHU || in->op == RV_SH ? 2
                                                                        : 4;
        addr = (x[in->rs1] + (uint32_t)in->imm) & ~(size - 1);
        store = d->cls == RVC_STORE, load = !store;
    } else if (d->cls == RVC_AMO) {
        addr = x[in->rs1] & ~3u;
        store = load = true;
    } else {
        return false;
    }
    if (addr >= l1_size || !gdb_watch_hits(g, addr, size, store, load))
        return false;
    g->stop = GDB_STOP_WATCH;
    g->unit_watch = false;
    g->stop_cycle = now;
    return true;
}

#endif
