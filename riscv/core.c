/* The RV32 executor and its timing (docs/timing-model.md, "RISC-V cores").
 *
 * Functional effects happen when an instruction issues; timing is carried by timestamps:
 * `wake` (next issue), `ready[]` (register results), the store queue's finish cycles. */
#include "core.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "../mem/map.h"
#include "../sync/push.h"
#include "../trace/trace.h"
#include "csr.h"
#include "gdbstub.h"
#include "poll.h"
#include "profile.h"
#include "region.h"



static const char *const stall_keys[STALL_COUNT] = {
#define X(name, key, text) [name] = key,
    CORE_STALL_REASONS(X)
#undef X
};
static const char *const stall_texts[STALL_COUNT] = {
#define X(name, key, text) [name] = text,
    CORE_STALL_REASONS(X)
#undef X
};

const char *core_stall_key(enum core_stall s) { return stall_keys[s]; }

uint64_t rv_core_cycles(const struct rv_core *c)
{
    uint64_t n = c->st.active;
    for (int s = 0; s < STALL_COUNT; s++)
        n += c->st.stall[s];
    return n;
}
const char *core_stall_text(enum core_stall s) { return stall_texts[s]; }

void rv_core_reset(struct rv_core *c, int id, uint32_t pc)
{
    memset(c, 0, sizeof *c);
    c->id = id;
    c->pc = pc;
    c->state = CORE_OFF;
    c->cfg0 = CFG0_RESET;
    c->poll_at = UINT64_MAX;
    memset(c->bht, 1, sizeof c->bht); /* weakly not-taken */
    c->rng = 0x9E3779B9u ^ (uint32_t)(id + 1) * 0x85EBCA6Bu;
}

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }


/* ---- L0 data cache (Blackhole): 4 lines of 16 bytes, not coherent (BHR:README.md) ---- */

static void l0_flush(struct rv_core *c)
{
    for (unsigned i = 0; i < L0_MAX; i++)
        c->l0[i].valid = false;
    c->st.l0_flushes++;
}

static bool l0_enabled(const struct tile *t, const struct rv_core *c)
{
    return t->arch->rv.l0d_lines && !(c->cfg0 & CFG0_DIS_LOW_CACHE);
}

/* Does a load of the line holding addr hit the L0? (No side effects: the caller decides whether
 * the load can go before it changes anything.) */
static inline __attribute__((always_inline)) bool l0_hits(const struct tile *t, const struct rv_core *c, uint32_t addr)
{
    if (!l0_enabled(t, c))
        return false;
    for (unsigned i = 0; i < t->arch->rv.l0d_lines; i++)
        if (c->l0[i].valid && c->l0[i].tag == (addr & ~15u))
            return true;
    return false;
}

/* Load through the L0: the value, from the cached copy on a hit (which may be stale if another
 * agent wrote L1 since the line was filled, as on silicon); a miss fills a line. */
static inline __attribute__((always_inline)) uint32_t l1_load(struct tile *t, struct rv_core *c, uint32_t addr, unsigned size)
{
    const struct rv_timing *tm = &t->arch->rv;
    if (!l0_enabled(t, c))
        return le_get(t->l1 + addr, size);
    uint32_t line = addr & ~15u;
    for (unsigned i = 0; i < tm->l0d_lines; i++) {
        struct l0_line *l = &c->l0[i];
        if (l->valid && l->tag == line) {
            uint32_t v = le_get(l->data + (addr & 15), size);
            c->st.l0_hits++;
            /* Each hit flushes the whole cache with probability ~0.8 % unless
             * cfg0.DisLowCachePeriodicFlush is set; a per-core xorshift keeps it deterministic. */
            if (!(c->cfg0 & CFG0_DIS_L0_PERIODIC_FLUSH)) {
                uint32_t x = c->rng;
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                c->rng = x;
                if (x % 125 == 0)
                    l0_flush(c);
            }
            return v;
        }
    }
    struct l0_line *l = &c->l0[c->l0_victim];
    c->l0_victim = (c->l0_victim + 1) % tm->l0d_lines;
    l->valid = true;
    l->tag = line;
    memcpy(l->data, t->l1 + line, 16);
    c->st.l0_misses++;
    return le_get(t->l1 + addr, size);
}

/* ---- loads beyond the LSU (WH:L1.md "Baby RISCV cores", BHR:README.md "Load/Store Unit") ----
 * A load that leaves the Load/Store Unit (L1 without an L0 hit, every MMIO region) holds one of
 * rv.load_slots in-flight slots from the cycle it enters the LSU until its response returns,
 * the cycle before its result can be used: with latency 8, four slots give WH:L1.md's four
 * loads every seven cycles. A load that finds every slot taken waits in EX1. */

/* The slot that frees first. */
static unsigned load_slot(const struct tile *t, const struct rv_core *c)
{
    unsigned best = 0;
    for (unsigned i = 1; i < t->arch->rv.load_slots; i++)
        if (c->load_free[i] < c->load_free[best])
            best = i;
    return best;
}

/* Books `len` cycles of core c's L1 port from `at` on (mem/l1_port.h); the first cycle granted. */
static uint64_t port_book(struct tile *t, const struct rv_core *c, uint64_t at, unsigned len)
{
    const unsigned port = t->arch->l1_port[c->id];
    uint64_t start = l1_port_book(&t->l1_port[port], at, len);
    if (__builtin_expect(t->tracer != NULL, 0))
        trace_l1_port(t->tracer, port, start, start + len);
    return start;
}

/* Charges the cycles [now, until) to stall reason `why` and makes `until` the core's next issue. */
static inline void stall_to(struct tile *t, struct rv_core *c, enum core_stall why, uint64_t now,
                            uint64_t until)
{
    if (__builtin_expect(c->polling == POLL_GOING, 0)) /* every cycle of a polling loop's instruction */
        why = STALL_POLLING;
    c->st.stall[why] += until - now;
    c->last_stall = (uint8_t)why;
    if (__builtin_expect(t->tracer != NULL, 0))
        trace_core(t->tracer, c->id, why, now, until);
    c->wake = until;
}

/* The instruction at pc, in a polling loop (riscv/poll.h; `closing`: its closing branch), retired (the core goes to
 * `next`): while the core goes round the loop, the cycle it issued in and the extra ones it held
 * EX1 are polling's, not active and `why`'s; a taken closing branch starts (or continues) going
 * round. */
static void poll_retire(struct rv_core *c, bool closing, uint32_t pc, uint32_t next,
                        unsigned cost, unsigned why)
{
    if (c->polling == POLL_GOING) {
        c->st.active--;
        if (cost > 1)
            c->st.stall[why] -= cost - 1;
        c->st.stall[STALL_POLLING] += cost;
        c->last_stall = STALL_POLLING;
    }
    if (next - c->poll_lo > c->poll_hi - c->poll_lo) /* leaving the loop: it may write again */
        c->poll_steady = false;
    if (closing && next < pc) { /* taken */
        c->poll_lo = next;
        c->poll_hi = pc;
        c->poll_at = c->st.instret;
    } else {
        c->poll_at = c->polling == POLL_GOING ? c->st.instret : UINT64_MAX;
    }
}

/* --dump-state zone=: the instruction at pc has issued; was it a TRISC's store of a profiler
 * zone marker's first word (type 1010 start or 1011 end in bits 31:28, trace/zones.h) into its
 * buffer, at a marker's place (every marker starts an even word)? A store writes no register,
 * so its address and value are still in the registers it named. */
static void watch_zone_store(struct tile *t, const struct rv_core *c, uint32_t pc)
{
    const struct tile_dump_hook *h = t->dump;
    struct rv_insn in = t->predecode[pc >> 2];
    if (rv_slot_op(&in) != RV_SW)
        return;
    const uint32_t addr = (c->x[in.rs1] + (uint32_t)in.imm) & ~3u, word = c->x[in.rs2];
    const uint32_t off = addr - h->zone_buf[c->id];
    if (off < h->zone_bytes && !(off & 7) && (word >> 29) == 5) /* 1010 or 1011 */
        h->fire(t, h->ctx, DUMP_AT_ZONE, (unsigned)c->id, word, addr);
}

/* The instruction at pc issued at `now` and holds the core `cost` cycles (the extra ones for
 * `why`), then goes to `next`: to the polling account if it is in a polling loop (its slot is
 * marked), to the profile, the trace and a state dump's pc trigger, whichever is on. Out of
 * line: off the usual path. */
static __attribute__((noinline)) void watch_issue(struct tile *t, struct rv_core *c,
                                                  struct rv_profile *prof, uint32_t pc,
                                                  uint32_t next, uint64_t now, unsigned cost,
                                                  unsigned why)
{
    const bool polling = c->polling == POLL_GOING;
    if (c->polling) {
        poll_retire(c, t->predecode[pc >> 2].imm & RV_POLL_CLOSING, pc, next, cost, why);
        c->polling = POLL_NONE;
    }
    if (prof)
        rv_profile_account(prof, pc, now, now + cost, polling);
    if (t->tracer) {
        if (polling)
            trace_core(t->tracer, c->id, STALL_POLLING, now, now + cost);
        else
            trace_core_issue(t->tracer, c->id, now, cost, why);
    }
    if (t->dump && t->dump->pc[c->id]) { /* --dump-state pc=: the state after it issued */
        t->dump->fire(t, t->dump->ctx, DUMP_AT_PC, (unsigned)c->id, pc, 0);
        /* a fused group of .ttinsn words issued with its first: each of its words did (the
         * region HINTs between them issue nothing, as anywhere) */
        if (rv_slot_op(&t->predecode[pc >> 2]) == RV_TTINSN)
            for (uint32_t w = pc + 4; w < next; w += 4)
                if (rv_slot_op(&t->predecode[w >> 2]) == RV_TTINSN)
                    t->dump->fire(t, t->dump->ctx, DUMP_AT_PC, (unsigned)c->id, w, 0);
    }
    if (t->dump && c->id < NUM_THREADS && t->dump->zone[c->id])
        watch_zone_store(t, c, pc);
}

/* ---- store queue (BHR:README.md "Load/Store Unit"; cfg0.StMergeTimer, DisStMerge) ---- */

/* The entry goes to L1 after the one before it, holding the core's L1 port for its write: five
 * cycles for a narrow write's read-modify-write, one for a whole line (WH:L1.md). */
static void sq_seal(struct tile *t, struct rv_core *c, struct store_entry *e, uint64_t when)
{
    const struct rv_timing *tm = &t->arch->rv;
    unsigned cost = e->mask == 0xFFFF ? tm->store_l1_full : tm->store_l1_cycles;
    e->finish = port_book(t, c, max64(c->sq_last_finish, when), cost) + cost;
    e->sealed = true;
    c->sq_last_finish = e->finish;
}

static struct store_entry *sq_tail(struct rv_core *c)
{
    return c->sq_count ? &c->sq[(c->sq_head + c->sq_count - 1) % SQ_MAX] : 0;
}

static unsigned merge_window(const struct tile *t, const struct rv_core *c)
{
    if (!t->arch->rv.store_merge_window || (c->cfg0 & CFG0_DIS_ST_MERGE))
        return 0;
    return (c->cfg0 >> CFG0_ST_MERGE_TIMER_SHIFT) & CFG0_ST_MERGE_TIMER_MASK;
}

/* Bring the queue up to cycle `now`: seal a tail whose merge timer ran out, drop finished
 * entries. */
static void sq_advance(struct tile *t, struct rv_core *c, uint64_t now)
{
    struct store_entry *tail = sq_tail(c);
    if (tail && !tail->sealed && now >= tail->created + merge_window(t, c))
        sq_seal(t, c, tail, tail->created + merge_window(t, c));
    while (c->sq_count && c->sq[c->sq_head].sealed && c->sq[c->sq_head].finish <= now) {
        c->sq_head = (c->sq_head + 1) % SQ_MAX;
        c->sq_count--;
    }
}

/* Cycle at which every queued store has drained (sealing the tail now). */
static uint64_t sq_drain(struct tile *t, struct rv_core *c, uint64_t now)
{
    sq_advance(t, c, now);
    struct store_entry *tail = sq_tail(c);
    if (tail && !tail->sealed)
        sq_seal(t, c, tail, now);
    return c->sq_count ? c->sq_last_finish : now;
}

static bool sq_overlaps(const struct rv_core *c, uint32_t addr, unsigned size)
{
    uint16_t bytes = (uint16_t)(((1u << size) - 1) << (addr & 15));
    for (unsigned i = 0; i < c->sq_count; i++) {
        const struct store_entry *e = &c->sq[(c->sq_head + i) % SQ_MAX];
        if (e->line == (addr & ~15u) && (e->mask & bytes))
            return true;
    }
    return false;
}

/* Cycle at which an L1 store issued at `now` can enter the queue (now if it merges or there is
 * room). */
static inline __attribute__((always_inline)) uint64_t sq_ready(struct tile *t, struct rv_core *c, uint64_t now, uint32_t addr)
{
    sq_advance(t, c, now);
    struct store_entry *tail = sq_tail(c);
    uint32_t off = addr & 15;
    if (tail && !tail->sealed && tail->line == (addr & ~15u) &&
        (off > tail->last_off ? off - tail->last_off : tail->last_off - off) <= 4)
        return now;
    if (c->sq_count < t->arch->rv.store_queue_depth)
        return now;
    if (tail && !tail->sealed)
        sq_seal(t, c, tail, now);
    return c->sq[c->sq_head].finish;
}

static inline __attribute__((always_inline)) void sq_store(struct tile *t, struct rv_core *c, uint64_t now,
                                                          uint32_t addr, unsigned size)
{
    uint32_t off = addr & 15;
    uint16_t bytes = (uint16_t)(((1u << size) - 1) << off);
    struct store_entry *tail = sq_tail(c);
    if (tail && !tail->sealed && tail->line == (addr & ~15u) &&
        (off > tail->last_off ? off - tail->last_off : tail->last_off - off) <= 4) {
        tail->mask |= bytes;
        tail->last_off = off;
        tail->created = now; /* the merge timer restarts after every store */
        return;
    }
    if (tail && !tail->sealed)
        sq_seal(t, c, tail, now);
    struct store_entry *e = &c->sq[(c->sq_head + c->sq_count) % SQ_MAX];
    c->sq_count++;
    /* field by field: GCC zeroes the compound literal with `rep stos`, slow to start on this
     * host and 6% of a store-heavy loop's time (perf, rv_speed loop1) */
    e->line = addr & ~15u, e->last_off = off, e->mask = bytes, e->sealed = false;
    e->created = now, e->finish = 0;
    if (!merge_window(t, c))
        sq_seal(t, c, e, now);
}

/* ---- host interface (ecall) ---- */

static bool guest_bytes(struct tile *t, struct rv_core *c, uint32_t addr, uint32_t len,
                        const uint8_t **p)
{
    if (addr < t->arch->l1_size && len <= t->arch->l1_size - addr) {
        *p = t->l1 + addr;
        return true;
    }
    uint32_t lsize = t->arch->local_ram_size[c->id];
    if (addr - MEM_LOCAL_BASE < lsize && len <= lsize - (addr - MEM_LOCAL_BASE)) {
        *p = t->local_ram[c->id] + (addr - MEM_LOCAL_BASE);
        return true;
    }
    return false;
}

/* a7 = 93: exit(a0). a7 = 64: write(a0 = 1 stdout / 2 stderr, a1 = buffer, a2 = length). */
static bool ecall(struct tile *t, struct rv_core *c, uint64_t now)
{
    uint32_t nr = c->x[17];
    if (nr == 93) {
        c->exit_code = (int)c->x[10];
        c->state = CORE_HALTED;
        c->halt_cycle = now + 1;
        return true;
    }
    if (nr == 64) {
        uint32_t fd = c->x[10], addr = c->x[11], len = c->x[12];
        const uint8_t *p;
        if (fd != 1 && fd != 2) {
            c->x[10] = (uint32_t)-1;
            return true;
        }
        if (!guest_bytes(t, c, addr, len, &p)) {
            tile_error(t, ERR_BAD_ACCESS, c->id, c->pc,
                       "write(%u, 0x%08x, %u): buffer is not inside L1 or local data RAM", fd, addr,
                       len);
            return false;
        }
        FILE *f = fd == 1 ? t->out : t->errout;
        /* Line-buffered, like a console, so progress shows at once; the first failure's cause
         * is kept for the end of the run (a full disk must not pass unnoticed). */
        if (f && (fwrite(p, 1, len, f) != len || (memchr(p, '\n', len) && fflush(f))) && !t->out_errno)
            t->out_errno = errno ? errno : EIO;
        c->x[10] = len;
        return true;
    }
    tile_error(t, ERR_UNIMPLEMENTED, c->id, c->pc,
               "ecall with a7 = %u (tensim implements 64 write and 93 exit)", nr);
    return false;
}

/* ---- helpers for the execute switch ---- */

static uint32_t csr_write(uint32_t old, uint32_t v) { (void)old; return v; }
static uint32_t csr_set(uint32_t old, uint32_t v) { return old | v; }
static uint32_t csr_clear(uint32_t old, uint32_t v) { return old & ~v; }

static unsigned bitlen(uint32_t v) { return v ? 32 - (unsigned)__builtin_clz(v) : 0; }

/* EX1 occupancy of div/divu/rem/remu (BHR:README.md): 2 cycles for a divisor of 0 or 1 and for
 * INT_MIN / -1; otherwise 6 to 33 "dependent upon the magnitude of the dividend". We model one
 * cycle per significant dividend bit plus one, never below the measured 6 (calibration.md). */
static unsigned div_cycles(const struct rv_timing *tm, bool is_signed, uint32_t a, uint32_t b)
{
    if (b == 0 || b == 1 || (is_signed && a == 0x80000000u && b == 0xFFFFFFFFu))
        return tm->div_fast_cycles;
    uint32_t mag = is_signed && (int32_t)a < 0 ? 0u - a : a;
    unsigned n = bitlen(mag) + 1;
    return n < tm->div_cycles ? tm->div_cycles : n;
}

static uint32_t amo(enum rv_op op, uint32_t old, uint32_t b)
{
    switch (op) {
    case RV_AMOADD: return old + b;
    case RV_AMOSWAP: return b;
    case RV_AMOXOR: return old ^ b;
    case RV_AMOOR: return old | b;
    case RV_AMOAND: return old & b;
    case RV_AMOMIN: return (int32_t)old < (int32_t)b ? old : b;
    case RV_AMOMAX: return (int32_t)old > (int32_t)b ? old : b;
    case RV_AMOMINU: return old < b ? old : b;
    default: return old > b ? old : b; /* RV_AMOMAXU */
    }
}

static void undefined(struct tile *t, struct rv_core *c, uint32_t word)
{
    char dis[64];
    rv_disasm(word, c->pc, dis, sizeof dis);
    tile_error(t, ERR_UNDEF_INSN, c->id, c->pc, "%s", dis);
}

/* A result lands in rd at `when`. Instructions retire in order (BHR:README.md "Retire Unit"), so
 * a younger write never waits for an older one to the same register; but while two writes to a
 * register are in flight a reader cannot take either from the forwarding network, so it waits
 * for the later of the two. */
static inline void set_ready(struct rv_core *c, unsigned rd, uint64_t when)
{
    if (rd && when > c->ready[rd]) {
        c->ready[rd] = when;
        if (when > c->pending_until)
            c->pending_until = when;
    }
}

/* Push the .ttinsn at pc and, on Blackhole TRISCs with cfg0.DisTriscCache clear, up to three
 * adjacent ones fused into the same cycle (BHR:README.md "Frontend"). Returns the number of
 * words pushed, 0 when the core blocked or an error was raised; *words_span is the number of
 * program words the group took, region HINTs within it included. */
static unsigned push_ttinsn(struct tile *t, struct rv_core *c, uint32_t first, unsigned *words_span)
{
    uint32_t words[4] = {first};
    tt_origin origin[4] = {origin_make(c->id, c->pc, t->now)};
    unsigned n = 1;
    unsigned max = c->id == CORE_BRISC || (c->cfg0 & CFG0_DIS_TRISC_CACHE) ? 1
                                                                            : t->arch->ttinsn_fuse_max;
    /* Region HINTs between the words take no cycle, so they do not break the group either
     * (riscv/region.h); *span counts them with the words. */
    unsigned span = 1, scan = 1;
    while (n < max) {
        uint32_t pc = c->pc + 4 * scan;
        if (pc >= t->arch->l1_size)
            break;
        struct rv_insn *p = &t->predecode[pc >> 2];
        if (p->op == RV_UNDECODED)
            p = rv_predecode(t, pc);
        scan++;
        if (rv_slot_op(p) == RV_REGION) /* a mark may stand in a polling loop */
            continue;
        if (p->op != RV_TTINSN)
            break;
        origin[n] = origin_make(c->id, pc, t->now);
        words[n++] = (uint32_t)p->imm;
        span = scan;
    }
    /* BRISC's .ttinsn goes to thread 0 after its MOP expander, like a store to INSTRN_BUF_BASE. */
    unsigned thread = c->id == CORE_BRISC ? 0 : (unsigned)c->id;
    enum mmio_status s = tensix_push(t, c->id, thread, words, origin, n);
    if (s != MMIO_OK)
        return 0;
    /* The HINTs inside the group take effect in its cycle as if they stood before it: its
     * instructions are counted after this returns. */
    for (unsigned i = 1; span > n && i < span; i++) {
        const struct rv_insn *p = &t->predecode[(c->pc >> 2) + i];
        if (rv_slot_op(p) == RV_REGION && !region_hint(t, c, t->now, p->imm))
            return 0;
    }
    *words_span = span;
    return n;
}

/* The instructions of the ALU class (rv32.def), whose result alu() gives. */
#define ALU_OPS(X)                                                                                 \
    X(LUI) X(AUIPC) X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI) X(ADD) \
    X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) X(SH1ADD) X(SH2ADD) X(SH3ADD)  \
    X(ANDN) X(ORN) X(XNOR) X(CLZ) X(CTZ) X(CPOP) X(SEXTB) X(SEXTH) X(ZEXTH) X(MIN) X(MINU) X(MAX) \
    X(MAXU) X(ROL) X(ROR) X(RORI) X(ORCB) X(REV8)

#define ALU_ONE(op) +1
#define RV(op, mn, mask, match, fmt, cls) +(RVC_##cls == RVC_ALU)
_Static_assert(0 ALU_OPS(ALU_ONE) == 0
#include "rv32.def"
               , "ALU_OPS lists every instruction of the ALU class in rv32.def");
#undef RV
#undef ALU_ONE

/* The result of an instruction of the ALU class (rv32.def: no memory, no state of the core). */
static inline __attribute__((always_inline)) uint32_t alu(enum rv_op op, uint32_t a, uint32_t b,
                                                          int32_t imm, uint32_t pc)
{
    switch (op) {
    case RV_LUI: return (uint32_t)imm;
    case RV_AUIPC: return pc + (uint32_t)imm;
    case RV_ADDI: return a + (uint32_t)imm;
    case RV_SLTI: return (int32_t)a < imm;
    case RV_SLTIU: return a < (uint32_t)imm;
    case RV_XORI: return a ^ (uint32_t)imm;
    case RV_ORI: return a | (uint32_t)imm;
    case RV_ANDI: return a & (uint32_t)imm;
    case RV_SLLI: return a << imm;
    case RV_SRLI: return a >> imm;
    case RV_SRAI: return (uint32_t)((int32_t)a >> imm);
    case RV_ADD: return a + b;
    case RV_SUB: return a - b;
    case RV_SLL: return a << (b & 31);
    case RV_SLT: return (int32_t)a < (int32_t)b;
    case RV_SLTU: return a < b;
    case RV_XOR: return a ^ b;
    case RV_SRL: return a >> (b & 31);
    case RV_SRA: return (uint32_t)((int32_t)a >> (b & 31));
    case RV_OR: return a | b;
    case RV_AND: return a & b;
    case RV_SH1ADD: return (a << 1) + b;
    case RV_SH2ADD: return (a << 2) + b;
    case RV_SH3ADD: return (a << 3) + b;
    case RV_ANDN: return a & ~b;
    case RV_ORN: return a | ~b;
    case RV_XNOR: return ~(a ^ b);
    case RV_CLZ: return a ? (uint32_t)__builtin_clz(a) : 32;
    case RV_CTZ: return a ? (uint32_t)__builtin_ctz(a) : 32;
    case RV_CPOP: return (uint32_t)__builtin_popcount(a);
    case RV_SEXTB: return (uint32_t)(int32_t)(int8_t)a;
    case RV_SEXTH: return (uint32_t)(int32_t)(int16_t)a;
    case RV_ZEXTH: return a & 0xFFFF;
    case RV_MIN: return (int32_t)a < (int32_t)b ? a : b;
    case RV_MINU: return a < b ? a : b;
    case RV_MAX: return (int32_t)a > (int32_t)b ? a : b;
    case RV_MAXU: return a > b ? a : b;
    case RV_ROL: return (a << (b & 31)) | (a >> ((32 - (b & 31)) & 31));
    case RV_ROR: return (a >> (b & 31)) | (a << ((32 - (b & 31)) & 31));
    case RV_RORI: return (a >> imm) | (a << ((32 - imm) & 31));
    case RV_ORCB: {
        uint32_t v = 0;
        for (unsigned i = 0; i < 32; i += 8)
            if ((a >> i) & 0xFF)
                v |= 0xFFu << i;
        return v;
    }
    case RV_REV8: return __builtin_bswap32(a);
    default:
        return 0;
    }
}

/* A conditional branch: taken? And the bimodal 2-bit predictor at pc (the documents give the
 * penalty, not the predictor): the extra cycles when it guessed wrong, then it learns. */
static inline __attribute__((always_inline)) bool branch_taken(enum rv_op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case RV_BEQ: return a == b;
    case RV_BNE: return a != b;
    case RV_BLT: return (int32_t)a < (int32_t)b;
    case RV_BGE: return (int32_t)a >= (int32_t)b;
    case RV_BLTU: return a < b;
    default: return a >= b;
    }
}
static inline __attribute__((always_inline)) unsigned predict(struct rv_core *c, const struct rv_timing *tm,
                                                              uint32_t pc, bool taken)
{
    uint8_t *ctr = &c->bht[(pc >> 2) % BHT_SIZE];
    unsigned extra = 0;
    c->st.branches++;
    if ((*ctr >= 2) != taken) {
        c->st.mispredicts++;
        extra = tm->mispredict_penalty;
    }
    if (taken && *ctr < 3)
        ++*ctr;
    else if (!taken && *ctr > 0)
        --*ctr;
    return extra;
}

/* The bytes each load and store moves. */
static const uint8_t access_size[RV_OP_COUNT] = {[RV_LB] = 1, [RV_LH] = 2, [RV_LW] = 4, [RV_LBU] = 1,
                                                 [RV_LHU] = 2, [RV_SB] = 1, [RV_SH] = 2, [RV_SW] = 4};

/* The instruction classes that touch only the core's own registers and timing state. */
static const bool own_only[RV_OP_COUNT] = {
#define RV(op, mn, mask, match, fmt, cls)                                                    \
    [RV_##op] = RVC_##cls == RVC_ALU || RVC_##cls == RVC_BRANCH || RVC_##cls == RVC_JAL ||   \
                RVC_##cls == RVC_JALR || RVC_##cls == RVC_MUL || RVC_##cls == RVC_DIV,
#include "rv32.def"
#undef RV
};

/* The fast block: runs the core's instructions back to back from c->pc while each is an ALU
 * instruction, a conditional branch, jal, or a load or store of its own local data RAM, and its
 * cycle is before `stop`; returns how many it ran (or stalled for). Each does exactly what the
 * executor does for it, and nothing else is due then: a scoreboard wait is charged as there
 * (but for Wormhole's forwarding, which ends the block), no retire-order queue entry (the
 * caller makes sure every one leaves within ROB_SIZE cycles and none is queued), no polling
 * (marked instructions end the block), nothing watching. `ah`: the core runs ahead with its state saved, so its local RAM
 * stores are logged. The executor's loop runs it while it can and handles what it stops at. */
static inline __attribute__((always_inline)) unsigned fast_block(struct tile *t, struct rv_core *c,
                                                                 uint64_t stop, struct rv_ahead *ah,
                                                                 uint8_t *local, uint32_t local_size)
{
    const struct rv_timing *tm = &t->arch->rv;
    const struct rv_insn *const pd = t->predecode;
    const uint32_t l1_size = t->arch->l1_size;
    uint32_t pc = c->pc;
    uint64_t now = c->wake, last = now;
    unsigned n = 0;
    bool stalled = false, leave = false;
    if (pc >= l1_size || (pc & 3))
        return 0;
    uint64_t pending_until = c->pending_until;
    /* pc stays in L1 and aligned: the next word's slot, or the one past L1's last word, which
     * stays RV_UNDECODED (tile_create) and so ends the block; jumps out of L1 or to a
     * misaligned address leave it after they issue */
    while (now < stop) {
        const struct rv_insn in = pd[pc >> 2];
        if (__builtin_expect(now < pending_until, 0) && now != c->checked_at) {
            /* the executor's scoreboard (a polling loop's instruction waits as polling) */
            if (now == c->fwd_at || (in.op & RV_POLL_MARK))
                break;
            const uint64_t r = max64(c->ready[in.rs1], c->ready[in.rs2]);
            if (r > now) { /* wait, and look again from r (c->checked_at) */
                c->st.stall[STALL_OPERAND] += r - now;
                c->last_stall = STALL_OPERAND;
                c->checked_at = r;
                now = r;
                stalled = true;
                continue;
            }
        }
        const uint32_t a = c->x[in.rs1], b = c->x[in.rs2];
        uint32_t next = pc + 4;
        unsigned cost = 1;
        switch (in.op) {
        /* one case per instruction, so that each inlines its own line of alu() */
#define ALU_CASE(op)                                              \
        case RV_##op: {                                           \
            const uint32_t v = alu(RV_##op, a, b, in.imm, pc);    \
            if (in.rd)                                            \
                c->x[in.rd] = v;                                  \
            break;                                                \
        }
        ALU_OPS(ALU_CASE)
#undef ALU_CASE
        case RV_JAL:
            if (in.rd)
                c->x[in.rd] = next;
            next = pc + (uint32_t)in.imm;
            leave = next >= l1_size || (next & 3);
            break;
        case RV_BEQ: case RV_BNE: case RV_BLT: case RV_BGE: case RV_BLTU: case RV_BGEU: {
            const bool taken = branch_taken((enum rv_op)in.op, a, b);
            const unsigned extra = predict(c, tm, pc, taken);
            if (extra) {
                cost += extra;
                c->st.stall[STALL_BRANCH] += extra;
                c->last_stall = STALL_BRANCH;
            }
            if (taken) {
                next = pc + (uint32_t)in.imm;
                leave = next >= l1_size || (next & 3);
            }
            break;
        }
        case RV_LB: case RV_LH: case RV_LW: case RV_LBU: case RV_LHU: {
            const unsigned size = access_size[in.op];
            const uint32_t off = ((a + (uint32_t)in.imm) & ~(size - 1)) - MEM_LOCAL_BASE;
            if (off >= local_size)
                goto out;
            uint32_t v = le_get(local + off, size);
            if (in.op == RV_LB) v = (uint32_t)(int32_t)(int8_t)v;
            else if (in.op == RV_LH) v = (uint32_t)(int32_t)(int16_t)v;
            c->st.loads++;
            set_ready(c, in.rd, now + tm->load_local);
            pending_until = c->pending_until;
            if (in.rd)
                c->x[in.rd] = v;
            break;
        }
        case RV_SB: case RV_SH: case RV_SW: {
            const unsigned size = access_size[in.op];
            const uint32_t off = ((a + (uint32_t)in.imm) & ~(size - 1)) - MEM_LOCAL_BASE;
            if (off >= local_size)
                goto out;
            if (ah) {
                if (ah->nundo == AHEAD_UNDO_MAX)
                    goto out;
                ah->undo[ah->nundo++] = (struct rv_undo){(uint16_t)off, (uint8_t)size, le_get(local + off, size)};
            }
            le_put(local + off, size, b);
            c->st.stores++;
            break;
        }
        default:
            goto out;
        }
        c->st.op_count[in.op]++;
        last = now;
        pc = next;
        now += cost;
        n++;
        if (__builtin_expect(leave, 0))
            break;
    }
out:
    if (n || stalled) {
        c->pc = pc;
        c->wake = now;
        c->st.instret += n;
        c->st.active += n;
        if (n)
            t->now = last;
    }
    return n + stalled;
}

/* The executor. `debug` and `ahead` are constants in each of rv_run's three copies. `debug`:
 * the core has a gdb stub attached (riscv/gdbstub.h), which may stop it before an instruction
 * issues. `ahead`: run-ahead (struct rv_ahead) is on, so the core runs on to t->run_end and stops
 * at t->limit only before an instruction another agent could see or that reads what another
 * could change (SYNC below); otherwise it stops at t->limit, before any instruction. */
static inline __attribute__((always_inline)) void run_core(struct tile *t, struct rv_core *c,
                                                           const bool debug, const bool ahead)
{
    const struct rv_timing *tm = &t->arch->rv;
    uint8_t *const l1 = t->l1;
    const uint32_t l1_size = t->arch->l1_size;
    uint8_t *const local = t->local_ram[c->id];
    const uint32_t local_size = t->arch->local_ram_size[c->id];
    struct rv_profile *const prof = t->prof[c->id];
    /* anything watching the instructions (--profile, --trace, --dump-state pc= and zone=): one test per
     * instruction */
    const bool watched = prof || t->tracer ||
                         (t->dump && (t->dump->pc[c->id] ||
                                      (c->id < NUM_THREADS && t->dump->zone[c->id])));
    /* The core is the first agent in (cycle, agent) order: every other has reached its cycle,
     * so nothing can act on it earlier and what it kept from running ahead before is of no use. */
    struct rv_ahead *const ah = &t->ahead[c->id];
    /* Past t->limit in this call (t->limit only comes down while the core runs, so it stays
     * past), and its state from there saved in *ah. The state is saved only before the first
     * instruction that runs past, not when the core stops at once. */
    bool passed = false, saved = false;
    if (ahead)
        ah->valid = false;
    /* The fast block's conditions that hold for the whole call: nothing watches, --lockstep is
     * off (it runs every instruction through the general path below, the reference that
     * test/test_runahead.c compares with), and none of its instructions can hold the retire-order queue (riscv/core.c below: an entry matters
     * only when its instruction takes ROB_SIZE cycles or more). */
    const bool fast = !debug && !watched && !t->lockstep && 1 + tm->mispredict_penalty < ROB_SIZE &&
                      tm->load_local < ROB_SIZE;
/* Before anything another agent can see or change: once past the others, stop and wait. */
#define SYNC()                  \
    do {                        \
        if (ahead && passed)    \
            return;             \
    } while (0)
/* Before an instruction that touches only the core's own state changes anything. */
#define OWN()                                    \
    do {                                         \
        if (ahead && passed && !saved) {         \
            memcpy(&ah->saved, c, sizeof *c);    \
            ah->nundo = 0;                       \
            ah->valid = saved = true;            \
        }                                        \
    } while (0)

    while (c->state == CORE_RUNNING && c->wake < (ahead ? t->run_end : t->limit)) {
        uint64_t now = c->wake;
        const uint32_t pc = c->pc;
        if (ahead && !passed && now >= t->limit)
            passed = true;
        /* Straight runs of simple instructions (not while the core has just passed the others
         * and its state is not saved yet: the executor saves it first). */
        if (fast && (!passed || saved) && c->rob_last <= now && c->polling == POLL_NONE &&
            fast_block(t, c, passed ? t->run_end : t->limit, passed ? ah : NULL, local, local_size))
            continue;
        if (pc >= l1_size || (pc & 3)) {
            SYNC();
            t->now = now;
            tile_error(t, ERR_BAD_ACCESS, c->id, pc,
                       (pc & 3) ? "instruction fetch from misaligned address 0x%08x"
                                : "instruction fetch from 0x%08x: cores execute only from L1",
                       pc);
            return;
        }
        struct rv_insn *slot = &t->predecode[pc >> 2];
        if (__builtin_expect(slot->op == RV_UNDECODED, 0))
            slot = rv_predecode(t, pc);
        struct rv_insn in = *slot;
        /* An instruction of the ALU, branch, jump, multiply or divide classes touches only the
         * core's own state; the others find out in their cases. (The polling state below is
         * worked out afresh before each instruction, so it needs no saving.) */
        if (ahead && __builtin_expect(passed && !saved, 0) && own_only[in.op & ~RV_POLL_MARK])
            OWN();
        /* In a polling loop: is the core going round it (it took the loop's closing branch and
         * has retired nothing else since)? Then this instruction's cycles are polling's. */
        if (__builtin_expect(in.op & RV_POLL_MARK, 0)) {
            in.op &= (uint8_t)~RV_POLL_MARK;
            if (in.op >= RV_BEQ && in.op <= RV_BGEU) /* the conditional branches, in rv32.def order */
                in.imm &= ~RV_POLL_CLOSING;
            c->polling = pc - c->poll_lo <= c->poll_hi - c->poll_lo && c->st.instret == c->poll_at
                             ? POLL_GOING
                             : POLL_FIRST;
            /* at the top, going round: do the rounds repeat? Then skip those that fit before
             * anything else can act (riscv/poll_sleep.h) */
            if (ahead && !passed && c->polling == POLL_GOING && pc == c->poll_lo &&
                poll_round(t, c, now))
                continue;
        }

        /* Scoreboard: wait for pending results this instruction reads (BHR:MemoryOrdering.md:
         * an instruction enters EX1 once its register operands are available). */
        if (__builtin_expect(now < c->pending_until, 0) && now != c->checked_at) {
            uint64_t r1 = c->ready[in.rs1], r2 = c->ready[in.rs2];
            if (now == c->fwd_at) { /* the very next instruction takes it on its way (WH) */
                if (in.rs1 == c->fwd_rd)
                    r1 = 0;
                if (in.rs2 == c->fwd_rd)
                    r2 = 0;
            }
            uint64_t r = max64(r1, r2);
            if (r > now) { /* again from the top at r (where the core may have passed the others) */
                OWN();
                stall_to(t, c, STALL_OPERAND, now, r);
                c->checked_at = r;
                continue;
            }
        }
        /* Retire-order queue: an instruction enters EX1 only with a free entry, and the entry of
         * the instruction ROB_SIZE before it frees the cycle after that one retires
         * (BHR:MemoryOrdering.md, BHR:README.md "Retire Unit"). Entries leave at least a cycle
         * apart, so that one is at most rob_last - (ROB_SIZE - 1): nothing to look at unless
         * the newest recorded one leaves that late. */
        if (__builtin_expect(c->rob_last >= now + ROB_SIZE - 1, 0) && c->rob[c->rob_pos] >= now &&
            in.op != RV_REGION) {
            OWN();
            stall_to(t, c, STALL_RETIRE, now, c->rob[c->rob_pos] + 1);
            c->checked_at = c->wake;
            continue;
        }
        t->now = now;
        if (debug && gdb_issue(t->gdb, pc, c->st.instret, &in, c->x, l1_size, now))
            return; /* the tile stops before this instruction issues (c->wake == now) */

        const uint32_t a = c->x[in.rs1], b = c->x[in.rs2];
        const int32_t imm = in.imm;
        uint32_t next = pc + 4;
        uint32_t v = 0;
        unsigned cost = 1;
        uint64_t done = 0; /* the cycle a result arriving after EX1 is ready, if later */
        enum core_stall why = STALL_OPERAND;

        switch ((enum rv_op)in.op) {
#define ALU_CASE(op) case RV_##op: v = alu(RV_##op, a, b, imm, pc); break;
        ALU_OPS(ALU_CASE)
#undef ALU_CASE

        case RV_MUL: v = a * b; set_ready(c, in.rd, done = now + tm->mul_latency); cost = tm->mul_cycles, why = STALL_DIV; break;
        case RV_MULH: v = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32); set_ready(c, in.rd, done = now + tm->mul_latency); cost = tm->mul_cycles, why = STALL_DIV; break;
        case RV_MULHSU: v = (uint32_t)(((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32); set_ready(c, in.rd, done = now + tm->mul_latency); cost = tm->mul_cycles, why = STALL_DIV; break;
        case RV_MULHU: v = (uint32_t)(((uint64_t)a * b) >> 32); set_ready(c, in.rd, done = now + tm->mul_latency); cost = tm->mul_cycles, why = STALL_DIV; break;
        case RV_DIV:
            v = b == 0 ? 0xFFFFFFFFu
                : (a == 0x80000000u && b == 0xFFFFFFFFu) ? a
                : (uint32_t)((int32_t)a / (int32_t)b);
            cost = div_cycles(tm, true, a, b), why = STALL_DIV;
            break;
        case RV_DIVU: v = b ? a / b : 0xFFFFFFFFu; cost = div_cycles(tm, false, a, b), why = STALL_DIV; break;
        case RV_REM:
            v = b == 0 ? a
                : (a == 0x80000000u && b == 0xFFFFFFFFu) ? 0
                : (uint32_t)((int32_t)a % (int32_t)b);
            cost = div_cycles(tm, true, a, b), why = STALL_DIV;
            break;
        case RV_REMU: v = b ? a % b : a; cost = div_cycles(tm, false, a, b), why = STALL_DIV; break;

        case RV_JAL:
            /* Direct jumps are always predicted (calibration.md: jal 1 cycle). */
            v = next;
            next = pc + (uint32_t)imm;
            break;
        case RV_JALR: {
            uint32_t target = (a + (uint32_t)imm) & ~1u;
            unsigned i = (pc >> 2) % BHT_SIZE;
            v = next;
            c->st.branches++;
            if (c->btb[i] != target) {
                c->btb[i] = target;
                c->st.mispredicts++;
                cost += tm->mispredict_penalty, why = STALL_BRANCH;
            }
            next = target;
            break;
        }
        case RV_BEQ: case RV_BNE: case RV_BLT: case RV_BGE: case RV_BLTU: case RV_BGEU: {
            const bool taken = branch_taken((enum rv_op)in.op, a, b);
            const unsigned extra = predict(c, tm, pc, taken);
            if (extra)
                cost += extra, why = STALL_BRANCH;
            if (taken)
                next = pc + (uint32_t)imm;
            goto no_write;
        }

        case RV_LB: case RV_LH: case RV_LW: case RV_LBU: case RV_LHU: {
            unsigned size = access_size[in.op];
            /* Unaligned addresses are rounded down (WHR:README.md "Faults"). */
            uint32_t addr = (a + (uint32_t)imm) & ~(size - 1);
            uint64_t when; /* the cycle the result can be used */
            if (addr - MEM_LOCAL_BASE < local_size) {
                OWN();
                v = le_get(local + (addr - MEM_LOCAL_BASE), size);
                when = now + tm->load_local;
            } else {
                const bool in_l1 = addr < l1_size, hit = in_l1 && l0_hits(t, c, addr);
                /* Only an L0 hit that no queued store overlaps stays inside the core. */
                if (hit && !(c->sq_count && sq_overlaps(c, addr, size)))
                    OWN();
                else
                    SYNC();
                /* Beyond the LSU (anything but an L0 hit): wait in EX1 for an in-flight slot
                 * before anything happens. */
                unsigned slot = 0;
                if (!hit && tm->load_slots) {
                    slot = load_slot(t, c);
                    if (c->load_free[slot] > now) {
                        stall_to(t, c, STALL_MEMORY, now, c->load_free[slot]);
                        continue;
                    }
                }
                if (in_l1) {
                    /* Overlapping queued stores drain first (BHR:README.md); then an L0 hit
                     * answers at once, a miss takes the core's L1 port for a cycle and returns
                     * load_l1 - 1 later. */
                    uint64_t after = c->sq_count && sq_overlaps(c, addr, size) ? sq_drain(t, c, now) : now;
                    v = l1_load(t, c, addr, size);
                    if (!hit)
                        c->poll_l1 = true; /* booked its L1 port (riscv/poll_sleep.h) */
                    when = hit ? after + tm->load_l1_hit : port_book(t, c, after + 1, 1) + tm->load_l1 - 1;
                } else {
                    unsigned lat;
                    enum mmio_status s = mmio_load(t, c->id, addr, size, &v, &lat);
                    if (s == MMIO_ERROR)
                        return;
                    if (s == MMIO_BLOCK) { /* retried from the start when the condition holds */
                        c->state = CORE_BLOCKED;
                        c->blocked_since = now;
                        return;
                    }
                    when = now + lat;
                    /* A load may not enter the LSU (now + 1) while a store it overlaps is still
                     * in the store queue (BHR:MemoryOrdering.md), so a load right behind a store
                     * to the same device word enters a cycle late: the store-then-load pair of a
                     * Manual TTSync wait, a semaphore written then read. */
                    if (c->io_store_out > now + 1 && addr < c->io_store_addr + c->io_store_size &&
                        c->io_store_addr < addr + size)
                        when += c->io_store_out - (now + 1);
                }
                if (!hit && tm->load_slots)
                    c->load_free[slot] = when - 1;
            }
            c->st.loads++;
            if (in.op == RV_LB) v = (uint32_t)(int32_t)(int8_t)v;
            else if (in.op == RV_LH) v = (uint32_t)(int32_t)(int16_t)v;
            set_ready(c, in.rd, done = when);
            break;
        }
        case RV_SB: case RV_SH: case RV_SW: {
            unsigned size = access_size[in.op];
            uint32_t addr = (a + (uint32_t)imm) & ~(size - 1);
            if (addr < l1_size) {
                SYNC();
                uint64_t when = sq_ready(t, c, now, addr);
                if (when > now) { /* queue full: retry the store once an entry has drained */
                    stall_to(t, c, STALL_STORE_QUEUE, now, when);
                    continue;
                }
                l1_store_le(l1, t->predecode, addr, size, b); /* stores to code re-decode */
                t->epoch++;
                for (unsigned i = 0; i < L0_MAX; i++) /* stores flush their L0 line */
                    if (c->l0[i].valid && c->l0[i].tag == (addr & ~15u))
                        c->l0[i].valid = false;
                sq_store(t, c, now, addr, size);
            } else if (addr - MEM_LOCAL_BASE < local_size) {
                if (ahead && passed) { /* logged, for rv_rewind; a full log waits for the others */
                    OWN();
                    if (ah->nundo == AHEAD_UNDO_MAX)
                        return;
                    uint32_t off = addr - MEM_LOCAL_BASE;
                    ah->undo[ah->nundo++] = (struct rv_undo){(uint16_t)off, (uint8_t)size, le_get(local + off, size)};
                }
                le_put(local + (addr - MEM_LOCAL_BASE), size, b);
            } else {
                SYNC();
                enum mmio_status s = mmio_store(t, c->id, addr, size, b);
                if (s == MMIO_ERROR)
                    return;
                if (s == MMIO_BLOCK && c->wait == WAIT_SYNC_SLOT) {
                    /* the Sync slot was taken this cycle: retry the store next cycle */
                    c->wait = WAIT_NONE;
                    stall_to(t, c, STALL_MEMORY, now, now + 1);
                    continue;
                }
                if (s == MMIO_BLOCK) {
                    c->state = CORE_BLOCKED;
                    c->blocked_since = now;
                    return;
                }
                /* Appended to the store queue in its LSU cycle (now + 1), emitted as a write
                 * request in the next (a device store is never coalesced), gone after that. */
                c->io_store_addr = addr, c->io_store_size = size, c->io_store_out = now + 3;
            }
            c->st.stores++;
            goto no_write;
        }
        case RV_AMOADD: case RV_AMOSWAP: case RV_AMOXOR: case RV_AMOOR: case RV_AMOAND:
        case RV_AMOMIN: case RV_AMOMAX: case RV_AMOMINU: case RV_AMOMAXU: {
            uint32_t addr = a & ~3u;
            SYNC();
            if (!t->arch->has_zaamo) {
                undefined(t, c, le_get(l1 + pc, 4));
                return;
            }
            if (addr >= l1_size) {
                tile_error(t, ERR_UNDEF_BEHAVIOUR, c->id, pc,
                           "atomic on 0x%08x: atomics are only defined on L1", addr);
                return;
            }
            /* Atomics are ordered after this core's queued stores and flush the L0. */
            uint64_t after = c->sq_count ? sq_drain(t, c, now) : now;
            v = le_get(l1 + addr, 4);
            l1_store_le(l1, t->predecode, addr, 4, amo((enum rv_op)in.op, v, b));
            t->epoch++;
            l0_flush(c);
            set_ready(c, in.rd, done = after + tm->amo_l1);
            break;
        }

        case RV_FENCE: case RV_FENCEI: {
            /* BH fence drains the store queue, waits for loads and flushes the L0
             * (BHR:MemoryOrdering.md); WH fence is a NOP. */
            SYNC();
            uint64_t drained = max64(sq_drain(t, c, now), c->pending_until);
            if (drained > now) { /* wait, then issue: nothing of this core changes meanwhile */
                stall_to(t, c, STALL_STORE_QUEUE, now, drained);
                continue;
            }
            if (t->arch->rv.l0d_lines)
                l0_flush(c);
            cost = tm->fence_cycles, why = STALL_SERIAL;
            goto no_write;
        }
        case RV_CSRRW: case RV_CSRRS: case RV_CSRRC: case RV_CSRRWI: case RV_CSRRSI: case RV_CSRRCI: {
            bool imm_form = in.op >= RV_CSRRWI;
            uint32_t operand = imm_form ? in.rs1 : a;
            bool is_write = in.op == RV_CSRRW || in.op == RV_CSRRWI || in.rs1 != 0;
            uint32_t (*fn)(uint32_t, uint32_t) = in.op == RV_CSRRW || in.op == RV_CSRRWI ? csr_write
                                               : in.op == RV_CSRRS || in.op == RV_CSRRSI ? csr_set
                                                                                         : csr_clear;
            if (csr_own((unsigned)imm)) /* the core's own, or its clock, which any agent would read the same */
                OWN();
            else
                SYNC();
            if (c->polling) /* a round that reads the clock does not repeat (riscv/poll_sleep.h) */
                t->epoch++;
            if (!csr_access(t, c, now, (unsigned)imm, is_write, fn, operand, &v))
                return;
            /* CSR instructions serialise the pipeline unless cfg0.DisCsrSync (BHR:README.md EX1). */
            if (!(c->cfg0 & CFG0_DIS_CSR_SYNC))
                cost = tm->csr_cycles, why = STALL_SERIAL;
            break;
        }
        case RV_ECALL:
            SYNC();
            t->epoch++; /* the host may write memory */
            if (!ecall(t, c, now))
                return;
            c->pc = next;
            c->st.instret++;
            c->st.op_count[in.op]++;
            c->st.active++;
            c->wake = now + 1;
            if (__builtin_expect(watched, 0))
                watch_issue(t, c, prof, pc, next, now, 1, 0);
            continue;
        case RV_EBREAK: {
            SYNC();
            tile_error(t, ERR_BREAKPOINT, c->id, pc, "ebreak");
            char regs[1024];
            rv_dump_regs(c, regs, sizeof regs);
            tile_error_detail(t, "%s", regs);
            return;
        }
        case RV_TTINSN: {
            SYNC();
            if (c->id == CORE_NCRISC) { /* it has no instruction push (spec/memory-map.md §1) */
                tile_error(t, ERR_BAD_ACCESS, c->id, pc,
                           ".ttinsn: NCRISC cannot push Tensix instructions");
                return;
            }
            unsigned span = 1;
            unsigned n = push_ttinsn(t, c, (uint32_t)imm, &span);
            if (!n) {
                if (c->wait == WAIT_TENSIX_FIFO) {
                    c->state = CORE_BLOCKED;
                    c->blocked_since = now;
                }
                return;
            }
            /* A fused group retires as one instruction per .ttinsn in a single cycle. */
            c->st.instret += n - 1;
            c->st.op_count[RV_TTINSN] += n - 1;
            next = pc + 4 * span;
            if (debug && span > 1)
                gdb_group_issued(t->gdb, pc, next);
            goto no_write;
        }
        case RV_REGION:
            /* Not issued: no cycle, no instret, no retire-queue entry (riscv/region.h). Its
             * registers are x0, so the scoreboard above never held it either. */
            SYNC();
            if (!region_hint(t, c, now, imm))
                return;
            c->pc = next;
            continue;
        case RV_UNDECODED:
        case RV_ILLEGAL:
        case RV_OP_COUNT:
            SYNC();
            undefined(t, c, le_get(l1 + pc, 4));
            return;
        }
        if (in.rd)
            c->x[in.rd] = v;
    no_write:
        c->pc = next;
        c->st.instret++;
        c->st.op_count[in.op]++;
        c->st.active++;
        if (cost > 1) {
            c->st.stall[why] += cost - 1;
            c->last_stall = (uint8_t)why;
        }
        c->wake = now + cost;
        if (__builtin_expect(watched | c->polling, 0)) /* c->polling: only after a marked top */
            watch_issue(t, c, prof, pc, next, now, cost, why);
        /* Its retire-order entry leaves once its result is ready and the one before it has
         * gone, one per cycle. Only an entry that leaves ROB_SIZE or more cycles after its
         * instruction issued can ever hold up a later one (the instruction ROB_SIZE on issues
         * that late at the earliest), and only such an entry makes its successors leave late:
         * so an instruction is recorded when it finishes that late itself (an L1 or device
         * load, an atomic) or while the one before it has not left yet. Shorter latencies
         * (mul, divide, CSRs) never fill the queue. */
        if (done < now + cost)
            done = now + cost;
        if (__builtin_expect(c->rob_last > now || done >= now + ROB_SIZE, 0)) {
            uint64_t pop = max64(done, c->rob_last + 1);
            c->rob[c->rob_pos] = pop;
            c->rob_pos = (uint8_t)((c->rob_pos + 1) % ROB_SIZE);
            c->rob_last = pop;
            /* Wormhole: a result queued in the Load/Store Unit behind a slow load is out of reach
             * until it leaves (in order), but for the very next instruction, which takes it as it
             * passes from the Integer Unit (WHR:README.md "Integer Unit"). */
            if (!tm->forward_queued && in.rd && pop > now + 1) {
                set_ready(c, in.rd, pop);
                if (rv_desc((enum rv_op)in.op)->cls != RVC_LOAD) {
                    c->fwd_rd = in.rd;
                    c->fwd_at = now + cost;
                }
            }
        }
    }
}

#undef SYNC
#undef OWN

void rv_run(struct tile *t, struct rv_core *c)
{
    /* A trace or profile records each core's cycles as they pass; a state dump or gdb may look
     * at any core at any cycle: lockstep for them. */
    if (t->lockstep || t->tracer || t->prof[c->id] || t->dump || t->gdb)
        run_core(t, c, false, false);
    else
        run_core(t, c, false, true);
}

void rv_run_debug(struct tile *t, struct rv_core *c) { run_core(t, c, true, false); }

void rv_rewind(struct tile *t, int k)
{
    struct rv_ahead *ah = &t->ahead[k];
    if (!ah->valid)
        return;
    ah->valid = false;
    struct rv_core *c = &t->core[k];
    /* Lockstep has issued core k's instructions before (t->now, agent): those of cycle t->now
     * too when core k comes first in agent order (core k is agent 1 + k). */
    const uint64_t stop = t->now + (1 + k < t->running_agent ? 1 : 0);
    if (c->wake <= stop) /* it has issued nothing from `stop` on */
        return;
    uint8_t *local = t->local_ram[k];
    for (unsigned i = ah->nundo; i-- > 0;)
        le_put(local + ah->undo[i].off, ah->undo[i].size, ah->undo[i].old);
    memcpy(c, &ah->saved, sizeof *c);
    t->rewinds++;
    const uint64_t now = t->now, limit = t->limit, run_end = t->run_end;
    const int agent = t->running_agent;
    t->limit = t->run_end = stop; /* runs up to `stop` without passing anyone */
    t->running_agent = 1 + k;
    rv_run(t, c);
    t->sleep[k].have = false; /* its rounds are looked at afresh after what brought it back */
    t->now = now, t->limit = limit, t->run_end = run_end, t->running_agent = agent;
    /* The acting agent's limit came from where core k had run to: it must stop where core k is
     * now (as tile_wake_core's). */
    if (c->state == CORE_RUNNING) {
        const uint64_t lim = c->wake + (1 + k > agent ? 1 : 0);
        if (lim < t->limit)
            t->limit = lim;
    }
}

void rv_rewind_all(struct tile *t)
{
    for (int k = 0; k < NUM_CORES; k++)
        rv_rewind(t, k);
}

void rv_close(struct rv_core *c, uint64_t end)
{
    if (c->state != CORE_RUNNING || c->wake <= end)
        return;
    /* Stalls are charged up front, up to the next issue: the part past the end never happened.
     * Every issue is before the end, so the excess lies within the last charge. */
    uint64_t excess = c->wake - end;
    c->st.stall[c->last_stall] -= excess <= c->st.stall[c->last_stall] ? excess : c->st.stall[c->last_stall];
    c->wake = end;
}

void rv_dump_regs(const struct rv_core *c, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "  pc=0x%08x", c->pc);
    for (unsigned i = 1; i < 32 && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%-4s=0x%08x", (i % 4 == 0) ? "\n  " : "  ",
                                 rv_reg_names[i], c->x[i]);
}
