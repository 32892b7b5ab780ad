/* What the NoC delivers to a tile's NIUs (mem/niu.h): the inbox the chip fills between windows,
 * and what each packet does when the tile's scheduler reaches its arrival cycle.
 *
 * Sources: BHN: = tt-isa-documentation BlackholeA0/NoC/ (MemoryMap.md "NOC_TARG_ADDR and
 * NOC_RET_ADDR": who reads and writes where; Atomics.md: the increment and its response;
 * Counters.md: what the initiator counts when a response arrives), commit e739ac0.
 *
 * A packet is applied whole at the cycle its last flit reaches the NIU (the NoC model's tail
 * cycle): a write's bytes land in L1 then, a read is answered then (its data read from L1 in
 * that cycle and sent back as one response packet), an atomic is performed then. The pages do
 * not say how many cycles an NIU takes between a packet's arrival and its L1 access or its
 * response; none are charged. The slave-side counters (NIU_SLV_*) are not kept. */
#include <string.h>

#include "../core/tile.h"
#include "niu.h"

/* ---- the inbox: a binary heap on (cycle, seq) ---- */

static bool before(const struct niu_event *a, const struct niu_event *b)
{
    return a->cycle != b->cycle ? a->cycle < b->cycle : a->seq < b->seq;
}

bool niu_inbox_push(struct tile *t, uint64_t cycle, const struct niu_request *q,
                    const uint8_t *data)
{
    struct niu *n = &t->niu;
    if (n->in_count == NIU_INBOX_LEN)
        return false;
    unsigned i = n->in_count++;
    const struct niu_event e = {.cycle = cycle, .seq = n->in_seq++, .q = *q, .data = data};
    while (i > 0 && before(&e, &n->inbox[(i - 1) / 2])) {
        n->inbox[i] = n->inbox[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    n->inbox[i] = e;
    n->in_next = n->inbox[0].cycle;
    return true;
}

static void inbox_pop(struct niu *n, struct niu_event *out)
{
    *out = n->inbox[0];
    const struct niu_event last = n->inbox[--n->in_count];
    unsigned i = 0;
    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= n->in_count)
            break;
        if (c + 1 < n->in_count && before(&n->inbox[c + 1], &n->inbox[c]))
            c++;
        if (!before(&n->inbox[c], &last))
            break;
        n->inbox[i] = n->inbox[c];
        i = c;
    }
    if (n->in_count)
        n->inbox[i] = last;
    n->in_next = n->in_count ? n->inbox[0].cycle : CYCLE_NEVER;
}

/* ---- applying a packet ---- */

/* [addr, addr + n) is in this tile's L1; otherwise the packet stops the tile (the pages do not
 * say what an NIU does with a request for an address it does not serve). */
static bool in_l1(struct tile *t, const struct niu_event *e, uint64_t addr, uint32_t n)
{
    if (addr + n <= t->arch->l1_size)
        return true;
    tile_error(t, ERR_BAD_ACCESS, -1, 0,
               "NoC %u %s arriving at (%u, %u) for 0x%llx + %u: outside L1 (only L1 is "
               "reachable over the NoC in tensim)", e->q.noc, niu_kind_text(e->q.kind), t->niu.x,
               t->niu.y, (unsigned long long)addr, n);
    return false;
}

static void l1_write(struct tile *t, uint64_t addr, const void *src, uint32_t n)
{
    memcpy(t->l1 + addr, src, n);
    tile_code_written(t, (uint32_t)addr, n);
    tile_unit_wrote(t, (uint32_t)addr, n);
}

/* What goes back to the initiator: to its return coordinates, on the request's NoC. */
static struct niu_request answer(const struct niu_event *e, enum niu_kind kind)
{
    struct niu_request r = {0};
    r.cycle = e->cycle;
    r.noc = e->q.noc;
    r.cmd_buf = e->q.cmd_buf;
    r.kind = (uint8_t)kind;
    r.txn_id = e->q.txn_id;
    r.x = r.x0 = e->q.ret_x;
    r.y = r.y0 = e->q.ret_y;
    r.local_addr = e->q.local_addr; /* where the initiator wants a read's data or a result */
    r.slot = -1;
    return r;
}

/* An inline write's word: NOC_AT_DATA's bytes where NOC_AT_LEN_BE enables them. tt-metal's
 * Blackhole firmware shifts the 4-bit enable to the address's byte in its 64-byte word
 * (noc_nonblocking_api.h noc_inline_dw_write); a plain 4-bit enable is taken as is. */
static void inline_write(struct tile *t, const struct niu_event *e)
{
    const uint64_t word = e->q.remote_addr & ~3ull;
    uint32_t be = e->q.at_len_be;
    if (be > 0xFu)
        be >>= (unsigned)(e->q.remote_addr & 60u);
    for (unsigned i = 0; i < 4; i++)
        if (be >> i & 1)
            t->l1[word + i] = (uint8_t)(e->q.at_data >> (8 * i));
    tile_code_written(t, (uint32_t)word, 4);
    tile_unit_wrote(t, (uint32_t)word, 4);
}

/* BHN:Atomics.md "Atomic increment": the word at (TARG & ~0xF) + 4 * Ofs gets NOC_AT_DATA
 * added within its low IntWidth + 1 bits; the result is the word at TARG as it was. */
static bool atomic(struct tile *t, const struct niu_event *e, uint32_t *result)
{
    const uint32_t op = e->q.at_len_be >> 12 & 15u;
    if (op != 1) {
        tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                   "NoC atomic with opcode %u (NOC_AT_LEN_BE 0x%08x) arriving at (%u, %u): only "
                   "the increment (NOC_AT_INS_INCR_GET, 1) is modelled", op, e->q.at_len_be,
                   t->niu.x, t->niu.y);
        return false;
    }
    const uint64_t targ = e->q.remote_addr & ~3ull;
    const uint64_t at = (e->q.remote_addr & ~0xFull) + 4 * (e->q.at_len_be & 3u);
    if (!in_l1(t, e, targ, 4) || !in_l1(t, e, at, 4))
        return false;
    uint32_t old;
    memcpy(result, t->l1 + targ, 4);
    memcpy(&old, t->l1 + at, 4);
    const unsigned width = e->q.at_len_be >> 2 & 31u;
    const uint32_t mask = (uint32_t)((2ull << width) - 1u);
    const uint32_t v = ((old + e->q.at_data) & mask) | (old & ~mask);
    l1_write(t, at, &v, 4);
    return true;
}

/* One packet, at t->now. False: it stopped the tile. */
static bool apply(struct tile *t, const struct niu_event *e)
{
    const struct niu_request *q = &e->q;
    switch (q->kind) {
    case NIU_WRITE:
    case NIU_POSTED_WRITE:
        if (!in_l1(t, e, q->remote_addr, q->len))
            return false;
        if (q->flags & NIU_F_INLINE)
            inline_write(t, e);
        else
            l1_write(t, q->remote_addr, e->data, q->len);
        if (q->kind == NIU_WRITE) {
            const struct niu_request r = answer(e, NIU_WRITE_ACK);
            return niu_outbox_push(t, -1, &r);
        }
        return true;
    case NIU_READ: {
        if (!in_l1(t, e, q->remote_addr, q->len))
            return false;
        struct niu_request r = answer(e, NIU_READ_RESP);
        r.len = q->len;
        r.slot = (int16_t)niu_payload_take(t, (uint32_t)q->remote_addr, q->len);
        if (r.slot < 0) {
            tile_error(t, ERR_UNIMPLEMENTED, -1, 0,
                       "NoC read arriving at (%u, %u): more than %u packets with data in flight "
                       "from this tile (tensim's limit)", t->niu.x, t->niu.y, NIU_SLOTS);
            return false;
        }
        return niu_outbox_push(t, -1, &r);
    }
    case NIU_ATOMIC: {
        uint32_t result;
        if (!atomic(t, e, &result))
            return false;
        if (q->flags & NIU_F_POSTED)
            return true;
        struct niu_request r = answer(e, NIU_ATOMIC_RESP);
        r.at_data = result;
        return niu_outbox_push(t, -1, &r);
    }
    case NIU_READ_RESP:
        if (!in_l1(t, e, q->local_addr, q->len))
            return false;
        l1_write(t, q->local_addr, e->data, q->len);
        niu_response(t, q->noc, NIU_READ, q->txn_id,
                     (q->len + niu_flit_bytes(t) - 1) / niu_flit_bytes(t));
        return true;
    case NIU_WRITE_ACK:
        niu_response(t, q->noc, NIU_WRITE, q->txn_id, 0);
        return true;
    case NIU_ATOMIC_RESP: /* BHN:Atomics.md: the result is written, then counted */
        if (!in_l1(t, e, q->local_addr, 4))
            return false;
        l1_write(t, q->local_addr & ~3ull, &q->at_data, 4);
        niu_response(t, q->noc, NIU_ATOMIC, q->txn_id, 0);
        return true;
    }
    return true;
}

void niu_inbox_apply(struct tile *t)
{
    const uint64_t at = t->niu.in_next;
    t->epoch++; /* L1 and counters change: polling loops must look again (riscv/poll_sleep.h) */
    while (t->niu.in_count && t->niu.in_next == at) {
        struct niu_event e;
        inbox_pop(&t->niu, &e);
        t->niu.st.rx_packets++;
        t->niu.st.rx_bytes += e.data ? e.q.len : 0;
        t->niu.st.last_rx = at;
        if (__builtin_expect(t->tracer != NULL, 0))
            niu_trace(t, true, &e.q);
        if (!apply(t, &e))
            return;
    }
}
