/* The NIUs' register blocks (mem/niu.h; docs/architecture.md "NIU").
 *
 * Sources: BHN: / WHN: = tt-isa-documentation BlackholeA0/NoC/ / WormholeB0/NoC/ (MemoryMap.md:
 * layout, NOC_CTRL, NOC_TARG_ADDR / NOC_RET_ADDR, NOC_PACKET_TAG, NOC_CMD_CTRL, NOC_NODE_ID,
 * NOC_ENDPOINT_ID; Counters.md: what is counted when), commit e739ac0; tt-metal
 * tt_metal/hw/inc/internal/tt-1xx/{blackhole,wormhole}/noc/noc_parameters.h (register offsets,
 * command-buffer stride, NOC_CMD_* bits, coordinate packing) and .../blackhole/
 * noc_nonblocking_api.h (which registers firmware writes for a read, a write and a multicast),
 * commit 22f2152.
 *
 * Where they differ: the documentation's Wormhole table has no NOC_TARG_ADDR_HI / NOC_RET_ADDR_HI
 * (0x08, 0x14); tt-metal's header defines them, so they are kept as plain registers there (the
 * coordinates are in MID on Wormhole either way). BHN:MemoryMap.md gives initiators #2 and #3 the
 * range +0x00..+0x2B only, yet NOC_CMD_CTRL (+0x40) must exist in each for tt-metal's use of
 * buffers 2 and 3 (noc_nonblocking_api.h's WR_REG and AT buffers): all four get the full set. */
#include "niu.h"

#include <stdlib.h>
#include <string.h>

#include "../core/tile.h"
#include "../trace/trace.h"

#define NIU0_BASE 0xFFB20000u
#define NIU_SPAN 0x10000u /* NOC_INSTANCE_OFFSET */
#define STATUS_OFF 0x200u /* NOC_STATUS(0) */

enum reg_kind { R_PLAIN, R_CMD_CTRL, R_NODE_ID, R_ENDPOINT_ID };

struct niu_reg {
    uint16_t off;
    uint8_t kind;
    const char *name;
};

/* Blackhole: tt-metal blackhole/noc_parameters.h, BHN:MemoryMap.md "NIU Request Initiators". */
static const struct niu_reg bh_regs[] = {
    {0x00, R_PLAIN, "NOC_TARG_ADDR_LO"},     {0x04, R_PLAIN, "NOC_TARG_ADDR_MID"},
    {0x08, R_PLAIN, "NOC_TARG_ADDR_HI"},     {0x0C, R_PLAIN, "NOC_RET_ADDR_LO"},
    {0x10, R_PLAIN, "NOC_RET_ADDR_MID"},     {0x14, R_PLAIN, "NOC_RET_ADDR_HI"},
    {0x18, R_PLAIN, "NOC_PACKET_TAG"},       {0x1C, R_PLAIN, "NOC_CTRL"},
    {0x20, R_PLAIN, "NOC_AT_LEN_BE"},        {0x24, R_PLAIN, "NOC_AT_LEN_BE_1"},
    {0x28, R_PLAIN, "NOC_AT_DATA"},          {0x2C, R_PLAIN, "NOC_BRCST_EXCLUDE"},
    {0x30, R_PLAIN, "NOC_L1_ACC_AT_INSTRN"}, {0x34, R_PLAIN, "NOC_SEC_CTRL"},
    {0x40, R_CMD_CTRL, "NOC_CMD_CTRL"},      {0x44, R_NODE_ID, "NOC_NODE_ID"},
    {0x48, R_ENDPOINT_ID, "NOC_ENDPOINT_ID"},
};

/* Wormhole: tt-metal wormhole/noc_parameters.h, WHN:MemoryMap.md. */
static const struct niu_reg wh_regs[] = {
    {0x00, R_PLAIN, "NOC_TARG_ADDR_LO"}, {0x04, R_PLAIN, "NOC_TARG_ADDR_MID"},
    {0x08, R_PLAIN, "NOC_TARG_ADDR_HI"}, {0x0C, R_PLAIN, "NOC_RET_ADDR_LO"},
    {0x10, R_PLAIN, "NOC_RET_ADDR_MID"}, {0x14, R_PLAIN, "NOC_RET_ADDR_HI"},
    {0x18, R_PLAIN, "NOC_PACKET_TAG"},   {0x1C, R_PLAIN, "NOC_CTRL"},
    {0x20, R_PLAIN, "NOC_AT_LEN_BE"},    {0x24, R_PLAIN, "NOC_AT_DATA"},
    {0x28, R_CMD_CTRL, "NOC_CMD_CTRL"},  {0x2C, R_NODE_ID, "NOC_NODE_ID"},
    {0x30, R_ENDPOINT_ID, "NOC_ENDPOINT_ID"},
};

struct niu_layout {
    uint32_t buf_stride;        /* NOC_CMD_BUF_OFFSET */
    const struct niu_reg *regs;
    unsigned nregs;
    uint32_t clear_off;         /* NOC_CLEAR_OUTSTANDING_REQ_CNT */
    uint32_t ctrl_off, len_off, data_off, tag_off; /* NOC_CTRL, NOC_AT_LEN_BE, NOC_AT_DATA, tag */
    unsigned width, height;     /* NOC_NODE_ID's NoC size (BHN/WHN:MemoryMap.md "NOC_NODE_ID") */
    unsigned flit_bytes;        /* NOC_WORD_BYTES: 512-bit flits on BH, 256-bit on WH */
    uint32_t max_len;           /* NOC_MAX_BURST_SIZE: one packet's largest payload */
    uint32_t endpoint_type;     /* NOC_ENDPOINT_ID's tile type of a Tensix tile, in place */
    uint8_t def_x, def_y;       /* a Tensix tile's NoC 0 coordinates (default setting) */
    bool coord_in_hi;           /* BH: coordinates in *_HI at bit 0; WH: in *_MID at bit 4 */
};

/* The default coordinates are a Tensix tile's on NoC 0: Blackhole's Tensix tiles are at x 1..7,
 * 10..16 and y 2..11 (BHN:Coordinates.md), Wormhole's first column and row at (1, 1)
 * (WHN:Coordinates.md's translation tables: 18 -> 1 on both axes). */
static const struct niu_layout bh = {
    .buf_stride = 0x800, .regs = bh_regs, .nregs = sizeof bh_regs / sizeof bh_regs[0],
    .clear_off = 0x60, .ctrl_off = 0x1C, .len_off = 0x20, .data_off = 0x28, .tag_off = 0x18,
    .width = 17, .height = 12, .flit_bytes = 64, .max_len = 16384,
    .endpoint_type = 0x0100u << 8, .def_x = 1, .def_y = 2, .coord_in_hi = true,
};
static const struct niu_layout wh = {
    .buf_stride = 0x400, .regs = wh_regs, .nregs = sizeof wh_regs / sizeof wh_regs[0],
    .clear_off = 0x50, .ctrl_off = 0x1C, .len_off = 0x20, .data_off = 0x24, .tag_off = 0x18,
    .width = 10, .height = 12, .flit_bytes = 32, .max_len = 8192,
    .endpoint_type = 1u << 16, .def_x = 1, .def_y = 1, .coord_in_hi = false,
};

static const struct niu_layout *layout(const struct tile *t)
{
    return t->arch->id == ARCH_WORMHOLE ? &wh : &bh;
}

/* ---- NOC_CTRL's bits (tt-metal noc_parameters.h "NOC CMD fields", BHN:MemoryMap.md) ---- */
#define CMD_TYPE(c) ((c) & 3u)  /* 0 read, 1 atomic, 2 write, 3 reserved */
#define CMD_WR_BE (1u << 2)
#define CMD_WR_INLINE (1u << 3)
#define CMD_RESP_MARKED (1u << 4)
#define CMD_BRCST_PACKET (1u << 5)
#define CMD_VC_LINKED (1u << 6)
#define CMD_VC_STATIC (1u << 7)
#define CMD_PATH_RESERVE (1u << 8)
#define CMD_STATIC_VC(c) (((c) >> 13) & 7u)
#define CMD_BRCST_XY (1u << 16)
#define CMD_BRCST_SRC_INCLUDE (1u << 17)
#define CMD_ARB_PRIORITY(c) (((c) >> 27) & 15u)
#define CMD_L1_ACC_AT_EN (1u << 31) /* Blackhole only; a hardware bug makes it unusable */
#define BH_BRCST_EXCLUDE 0x2Cu
#define BH_SEC_CTRL 0x34u
#define TAG_TXN_ID(tag) (((tag) >> 10) & 15u) /* NOC_PACKET_TAG_TRANSACTION_ID */

void niu_init(struct tile *t)
{
    t->niu.x = layout(t)->def_x;
    t->niu.y = layout(t)->def_y;
    t->niu.tile_index = 0;
}

void niu_reset(struct tile *t)
{
    memset(t->niu.port, 0, sizeof t->niu.port);
    t->niu.out_head = t->niu.out_count = 0;
    t->niu.in_count = 0;
    t->niu.in_seq = 0;
    t->niu.in_next = CYCLE_NEVER;
    t->niu.st = (struct niu_stats){0};
    t->niu.slot_free = t->niu.payload ? ~0ull >> (64 - NIU_SLOTS) : 0;
}

uint32_t niu_max_packet(const struct tile *t)
{
    return layout(t)->max_len;
}

uint32_t niu_max_packet_of(const struct arch *a)
{
    return (a->id == ARCH_WORMHOLE ? &wh : &bh)->max_len;
}

unsigned niu_flit_bytes(const struct tile *t)
{
    return layout(t)->flit_bytes;
}

/* ---- payloads ---- */

bool niu_payload_enable(struct tile *t)
{
    if (!t->niu.payload) /* calloc: pages are only touched as slots are used */
        t->niu.payload = calloc(NIU_SLOTS, layout(t)->max_len);
    t->niu.slot_free = t->niu.payload ? ~0ull >> (64 - NIU_SLOTS) : 0;
    return t->niu.payload != NULL;
}

void niu_payload_free_all(struct tile *t)
{
    free(t->niu.payload);
    t->niu.payload = NULL;
}

const uint8_t *niu_payload(const struct tile *t, int slot)
{
    return t->niu.payload + (size_t)slot * layout(t)->max_len;
}

void niu_payload_release(struct tile *t, int slot)
{
    t->niu.slot_free |= 1ull << slot;
}

/* A free slot filled with L1 [addr, addr + n), or -1 when every slot is in flight. */
int niu_payload_take(struct tile *t, uint32_t addr, uint32_t n)
{
    if (!t->niu.slot_free)
        return -1;
    const int slot = __builtin_ctzll(t->niu.slot_free);
    t->niu.slot_free &= ~(1ull << slot);
    memcpy(t->niu.payload + (size_t)slot * layout(t)->max_len, t->l1 + addr, n);
    return slot;
}

void niu_set_coords(struct tile *t, unsigned x, unsigned y, unsigned tile_index)
{
    t->niu.x = (uint8_t)x;
    t->niu.y = (uint8_t)y;
    t->niu.tile_index = (uint8_t)tile_index;
}

/* NoC 1 runs the other way round the same grid: its coordinates are NoC 0's mirrored (tt-metal
 * noc_nonblocking_api.h NOC_0_X_PHYS_COORD; BHN:Coordinates.md). */
void niu_coords(const struct tile *t, unsigned noc, unsigned *x, unsigned *y)
{
    const struct niu_layout *l = layout(t);
    *x = noc ? l->width - 1 - t->niu.x : t->niu.x;
    *y = noc ? l->height - 1 - t->niu.y : t->niu.y;
}

/* ---- the outbox ---- */

unsigned niu_outbox_count(const struct tile *t)
{
    return t->niu.out_count;
}

const struct niu_request *niu_outbox_peek(const struct tile *t, unsigned i)
{
    if (i >= t->niu.out_count)
        return 0;
    return &t->niu.outbox[(t->niu.out_head + i) % NIU_OUTBOX_LEN];
}

bool niu_outbox_pop(struct tile *t, struct niu_request *out)
{
    if (!t->niu.out_count)
        return false;
    *out = t->niu.outbox[t->niu.out_head];
    t->niu.out_head = (t->niu.out_head + 1) % NIU_OUTBOX_LEN;
    t->niu.out_count--;
    return true;
}

const char *niu_kind_text(unsigned kind)
{
    static const char *const name[] = {
        [NIU_READ] = "read", [NIU_WRITE] = "write", [NIU_POSTED_WRITE] = "posted write",
        [NIU_ATOMIC] = "atomic", [NIU_READ_RESP] = "read response",
        [NIU_WRITE_ACK] = "write acknowledgement", [NIU_ATOMIC_RESP] = "atomic response",
    };
    return kind < sizeof name / sizeof name[0] ? name[kind] : "?";
}

void niu_trace(struct tile *t, bool rx, const struct niu_request *q)
{
    const char *kind = niu_kind_text(q->kind);
    char what[120];
    if (q->flags & NIU_F_BROADCAST)
        snprintf(what, sizeof what, "NoC %u %s%s, %u B, (%u, %u)..(%u, %u) 0x%llx", q->noc,
                 kind, rx ? " in" : " out", q->len, q->x0, q->y0, q->x, q->y,
                 (unsigned long long)q->remote_addr);
    else if (rx)
        snprintf(what, sizeof what, "NoC %u %s in, %u B, at 0x%llx", q->noc, kind, q->len,
                 (unsigned long long)(q->kind >= NIU_READ_RESP ? q->local_addr : q->remote_addr));
    else
        snprintf(what, sizeof what, "NoC %u %s out, %u B, to (%u, %u)", q->noc, kind, q->len,
                 q->x, q->y);
    trace_noc(t->tracer, rx, what, rx ? t->now : q->cycle);
}

/* Appends a request to the outbox; false (an error in the tile) when it is full. */
bool niu_outbox_push(struct tile *t, int core, const struct niu_request *q)
{
    if (t->niu.out_count == NIU_OUTBOX_LEN) {
        tile_error(t, ERR_UNIMPLEMENTED, core, core >= 0 ? t->core[core].pc : 0,
                   "NIU %u: outbox full: %u packets issued in one window (tensim's limit)",
                   q->noc, t->niu.out_count);
        return false;
    }
    t->niu.outbox[(t->niu.out_head + t->niu.out_count++) % NIU_OUTBOX_LEN] = *q;
    t->niu.st.tx_packets++;
    t->niu.st.tx_bytes += q->kind == NIU_READ_RESP ? q->len : 0;
    t->niu.st.last_tx = q->cycle;
    if (__builtin_expect(t->tracer != NULL, 0))
        niu_trace(t, false, q);
    return true;
}

/* ---- counters ---- */

/* The per-transaction-id counts are 8 bits wide (BHN:Counters.md). */
static void count_id(struct niu_port *p, unsigned base, unsigned txn, int by)
{
    p->status[base + txn] = (uint8_t)(p->status[base + txn] + (unsigned)by);
}

void niu_response(struct tile *t, unsigned noc, enum niu_kind kind, unsigned txn, unsigned words)
{
    struct niu_port *p = &t->niu.port[noc];
    if (kind == NIU_READ) {
        p->status[NIU_MST_RD_RESP_RECEIVED]++;
        p->status[NIU_MST_RD_DATA_WORD_RECEIVED] += words;
    } else if (kind == NIU_ATOMIC) {
        p->status[NIU_MST_ATOMIC_RESP_RECEIVED]++;
    } else {
        p->status[NIU_MST_WR_ACK_RECEIVED]++;
    }
    count_id(p, NIU_MST_REQS_OUTSTANDING_ID0, txn & 15u, -1);
    t->epoch++; /* a change a polling loop must see (riscv/poll_sleep.h) */
}

void niu_data_read(struct tile *t, unsigned noc, unsigned txn)
{
    count_id(&t->niu.port[noc], NIU_MST_WRITE_REQS_OUTGOING_ID0, txn & 15u, -1);
    t->epoch++;
}

/* ---- issuing a command ---- */

static enum mmio_status refuse(struct tile *t, int core, unsigned noc, unsigned buf,
                               const char *what, uint32_t val)
{
    tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
               "NIU %u command buffer %u: %s (NOC_CTRL 0x%08x) is not modelled yet", noc, buf,
               what, val);
    return MMIO_ERROR;
}

/* An address register triple (LO, MID, HI at `off`) as the 64-bit address and the coordinate
 * word: Blackhole puts the coordinates in HI from bit 0 and the address's high half in MID;
 * Wormhole puts address bits 35:32 in MID's low 4 bits and the coordinates from MID bit 4
 * (tt-metal noc_parameters.h NOC_COORD_REG_OFFSET 0 / 4, NOC_XY_ENCODING; BHN/WHN:MemoryMap.md
 * "NOC_TARG_ADDR and NOC_RET_ADDR"). */
static void address(const struct niu_layout *l, const uint32_t *reg, unsigned off, uint64_t *addr,
                    uint32_t *coord)
{
    uint32_t lo = reg[off / 4], mid = reg[off / 4 + 1], hi = reg[off / 4 + 2];
    if (l->coord_in_hi) {
        *addr = (uint64_t)mid << 32 | lo;
        *coord = hi;
    } else {
        *addr = (uint64_t)(mid & 0xFu) << 32 | lo;
        *coord = mid >> 4;
    }
}

/* The coordinate word: x [5:0], y [11:6]; a broadcast's end x, end y there and start x [17:12],
 * start y [23:18] (NOC_ADDR_NODE_ID_BITS 6, NOC_MULTICAST_ENCODING). */
static void place(struct niu_request *q, uint32_t c, bool rect)
{
    q->x = c & 63u;
    q->y = c >> 6 & 63u;
    q->x0 = rect ? (c >> 12 & 63u) : q->x;
    q->y0 = rect ? (c >> 18 & 63u) : q->y;
}

/* A request the decoder refuses, or NULL: what the model does not decode yet. */
static const char *unsupported(const struct tile *t, const uint32_t *reg, uint32_t ctrl)
{
    const unsigned type = CMD_TYPE(ctrl);
    const bool bcast = ctrl & CMD_BRCST_PACKET;
    if (type == 3)
        return "request type 3 (reserved)";
    if (type == 0 && bcast)
        return "a broadcast read";
    if (type == 2 && (ctrl & CMD_WR_BE) && !(ctrl & CMD_WR_INLINE))
        return "a byte-enable write (NOC_CMD_WR_BE)";
    if (t->arch->id == ARCH_WORMHOLE)
        return 0;
    if (ctrl & CMD_L1_ACC_AT_EN)
        return "an L1 accumulate (NOC_CMD_L1_ACC_AT_EN)";
    if (bcast && reg[BH_BRCST_EXCLUDE / 4])
        return "a broadcast with exclusions (NOC_BRCST_EXCLUDE)";
    if (reg[BH_SEC_CTRL / 4])
        return "a request with NOC_SEC_CTRL set";
    return 0;
}

static enum mmio_status issue(struct tile *t, int core, unsigned noc, unsigned buf)
{
    const struct niu_layout *l = layout(t);
    struct niu_port *p = &t->niu.port[noc];
    uint32_t *reg = p->reg[buf];
    const uint32_t ctrl = reg[l->ctrl_off / 4], len = reg[l->len_off / 4];
    const unsigned type = CMD_TYPE(ctrl);
    const bool resp = ctrl & CMD_RESP_MARKED, bcast = ctrl & CMD_BRCST_PACKET;
    const bool inl = type == 2 && (ctrl & CMD_WR_INLINE);
    const char *no = unsupported(t, reg, ctrl);
    if (no)
        return refuse(t, core, noc, buf, no, ctrl);
    /* Longer than one packet: the NIU splits it into packets of max_len bytes, both LO
     * addresses 64-byte aligned (BHN/WHN:Counters.md "Automatic request splitting"). */
    const bool data = type == 0 || (type == 2 && !inl);
    const unsigned n = data && len > l->max_len ? (len + l->max_len - 1) / l->max_len : 1;
    if (n > 1 && ((reg[0x00 / 4] | reg[0x0C / 4]) & 63u))
        return refuse(t, core, noc, buf, "automatic splitting of a request not 64-byte aligned",
                      ctrl);
    if (t->niu.out_count + n > NIU_OUTBOX_LEN) {
        tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
                   "NIU %u: outbox full: %u requests issued and not taken%s", noc,
                   t->niu.out_count, t->niu.payload ? " in one window (tensim's limit)"
                                                    : " (the tile is not on a chip)");
        return MMIO_ERROR;
    }
    /* On a chip, a write's data is read from L1 now, at the command (docs/architecture.md "A
     * chip": the hardware reads it as the flits leave). */
    if (t->niu.payload && type == 2 && !inl) {
        uint64_t src = 0;
        uint32_t c_unused;
        address(l, reg, 0x00, &src, &c_unused);
        if (src + len > t->arch->l1_size) {
            tile_error(t, ERR_BAD_ACCESS, core, t->core[core].pc,
                       "NIU %u command buffer %u: a write's data at 0x%llx + %u is outside L1",
                       noc, buf, (unsigned long long)src, len);
            return MMIO_ERROR;
        }
        if ((unsigned)__builtin_popcountll(t->niu.slot_free) < n) {
            tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
                       "NIU %u: more than %u packets with data in flight from this tile "
                       "(tensim's limit; NOC_CMD_CTRL reads busy while none is free)", noc,
                       NIU_SLOTS);
            return MMIO_ERROR;
        }
    }

    struct niu_request q = {0};
    q.slot = -1;
    q.cycle = t->now;
    q.noc = (uint8_t)noc;
    q.cmd_buf = (uint8_t)buf;
    q.txn_id = (uint8_t)TAG_TXN_ID(reg[l->tag_off / 4]);
    q.vc = (uint8_t)CMD_STATIC_VC(ctrl);
    q.priority = (uint8_t)CMD_ARB_PRIORITY(ctrl);
    q.at_len_be = len;
    q.at_data = reg[l->data_off / 4];
    q.flags = (uint16_t)((bcast ? NIU_F_BROADCAST : 0) | (ctrl & CMD_VC_LINKED ? NIU_F_LINKED : 0) |
                         (ctrl & CMD_VC_STATIC ? NIU_F_STATIC_VC : 0) |
                         (ctrl & CMD_PATH_RESERVE ? NIU_F_PATH_RESERVE : 0) |
                         (ctrl & CMD_BRCST_SRC_INCLUDE ? NIU_F_SRC_INCLUDE : 0) |
                         (ctrl & CMD_BRCST_XY ? NIU_F_Y_MAJOR : 0));
    uint64_t targ, ret;
    uint32_t targ_c, ret_c;
    address(l, reg, 0x00, &targ, &targ_c);
    address(l, reg, 0x0C, &ret, &ret_c);
    const unsigned id = q.txn_id;
    /* Who goes where (BHN:MemoryMap.md "NOC_TARG_ADDR and NOC_RET_ADDR"). Counted at the
     * NOC_CMD_CTRL store: the per-transaction-id counts, by the number of packets (BHN:Counters.md). */
    if (type == 0) { /* read: from TARG at the remote tile to RET here */
        q.kind = NIU_READ;
        place(&q, targ_c, false);
        q.ret_x = ret_c & 63u;
        q.ret_y = ret_c >> 6 & 63u;
        q.remote_addr = targ;
        q.local_addr = ret;
        count_id(p, NIU_MST_REQS_OUTSTANDING_ID0, id, (int)n);
    } else if (type == 1) { /* atomic: at TARG, its response to RET */
        q.kind = NIU_ATOMIC;
        place(&q, targ_c, bcast);
        q.ret_x = ret_c & 63u;
        q.ret_y = ret_c >> 6 & 63u;
        q.remote_addr = targ;
        q.local_addr = ret;
        q.flags |= resp ? 0 : NIU_F_POSTED;
        if (resp)
            count_id(p, NIU_MST_REQS_OUTSTANDING_ID0, id, 1);
    } else if (inl) { /* inline write: AT_DATA to TARG, the ack to this NIU */
        q.kind = resp ? NIU_WRITE : NIU_POSTED_WRITE;
        q.flags |= NIU_F_INLINE;
        place(&q, targ_c, bcast);
        unsigned x, y;
        niu_coords(t, noc, &x, &y);
        q.ret_x = (uint8_t)x;
        q.ret_y = (uint8_t)y;
        q.remote_addr = targ;
        if (resp)
            count_id(p, NIU_MST_REQS_OUTSTANDING_ID0, id, 1);
    } else { /* write: from TARG here to RET at the remote tile(s), the ack to TARG's tile */
        q.kind = resp ? NIU_WRITE : NIU_POSTED_WRITE;
        place(&q, ret_c, bcast);
        q.ret_x = targ_c & 63u;
        q.ret_y = targ_c >> 6 & 63u;
        q.remote_addr = ret;
        q.local_addr = targ;
        if (resp)
            count_id(p, NIU_MST_REQS_OUTSTANDING_ID0, id, (int)n);
        /* Counted down by niu_data_read once each packet's data has left L1; on a chip the
         * data is read at this store (niu_payload_take below), so there is nothing to count. */
        if (!t->niu.payload)
            count_id(p, NIU_MST_WRITE_REQS_OUTGOING_ID0, id, (int)n);
    }
    /* Then, per packet, as the first hop's virtual channel is assigned and the packet leaves
     * (BHN:Counters.md). With no NoC connected every packet is taken at once: all of it is
     * counted now and NOC_CMD_CTRL reads 0 again (docs/architecture.md "NIU"). */
    for (unsigned k = 0; k < n; k++) {
        struct niu_request *o = &t->niu.outbox[(t->niu.out_head + t->niu.out_count++) %
                                               NIU_OUTBOX_LEN];
        *o = q;
        const uint32_t done = k * l->max_len, part = len - done < l->max_len ? len - done
                                                                            : l->max_len;
        o->len = type == 1 ? 0 : inl ? 4 : part;
        if (data) {
            o->local_addr += done;
            o->remote_addr += done;
        }
        if (t->niu.payload && type == 2 && !inl)
            o->slot = (int16_t)niu_payload_take(t, (uint32_t)o->local_addr, o->len);
        const unsigned words = (o->len + l->flit_bytes - 1) / l->flit_bytes;
        t->niu.st.tx_packets++;
        t->niu.st.tx_bytes += type == 2 && !inl ? o->len : 0;
        t->niu.st.last_tx = q.cycle;
        if (__builtin_expect(t->tracer != NULL, 0))
            niu_trace(t, false, o);
        p->status[NIU_MST_CMD_ACCEPTED]++;
        if (type == 0) {
            p->status[NIU_MST_RD_REQ_STARTED]++;
            p->status[NIU_MST_RD_REQ_SENT]++;
        } else if (type == 1) {
            if (resp)
                p->status[NIU_MST_NONPOSTED_ATOMIC_STARTED]++;
            p->status[resp ? NIU_MST_NONPOSTED_ATOMIC_SENT : NIU_MST_POSTED_ATOMIC_SENT]++;
        } else {
            p->status[resp ? NIU_MST_NONPOSTED_WR_REQ_STARTED : NIU_MST_POSTED_WR_REQ_STARTED]++;
            p->status[resp ? NIU_MST_NONPOSTED_WR_REQ_SENT : NIU_MST_POSTED_WR_REQ_SENT]++;
            if (!inl) /* an inline write's data travels in its header flit */
                p->status[resp ? NIU_MST_NONPOSTED_WR_DATA_WORD_SENT
                               : NIU_MST_POSTED_WR_DATA_WORD_SENT] += words;
        }
    }
    if (n > 1) { /* what splitting leaves in the registers: the last packet's length and start */
        const uint32_t done = (n - 1) * l->max_len;
        reg[l->len_off / 4] = len - done;
        reg[0x00 / 4] += done;
        reg[0x0C / 4] += done;
    }
    return MMIO_OK;
}

/* ---- the register block ---- */

static const char *counter_name(unsigned i)
{
    static const char *const mst[16] = {
        "NIU_MST_ATOMIC_RESP_RECEIVED",   "NIU_MST_WR_ACK_RECEIVED",
        "NIU_MST_RD_RESP_RECEIVED",       "NIU_MST_RD_DATA_WORD_RECEIVED",
        "NIU_MST_CMD_ACCEPTED",           "NIU_MST_RD_REQ_SENT",
        "NIU_MST_NONPOSTED_ATOMIC_SENT",  "NIU_MST_POSTED_ATOMIC_SENT",
        "NIU_MST_NONPOSTED_WR_DATA_WORD_SENT", "NIU_MST_POSTED_WR_DATA_WORD_SENT",
        "NIU_MST_NONPOSTED_WR_REQ_SENT",  "NIU_MST_POSTED_WR_REQ_SENT",
        "NIU_MST_NONPOSTED_WR_REQ_STARTED", "NIU_MST_POSTED_WR_REQ_STARTED",
        "NIU_MST_RD_REQ_STARTED",         "NIU_MST_NONPOSTED_ATOMIC_STARTED",
    };
    if (i < 16)
        return mst[i];
    if (i < 0x20)
        return "NIU_MST_REQS_OUTSTANDING_ID";
    if (i < 0x30)
        return "NIU_MST_WRITE_REQS_OUTGOING_ID";
    return "an NIU_SLV_* counter";
}

/* What an access at `off` of NIU `noc` is: a command-buffer register (*buf, *rg), a counter
 * (*cnt) or the clear register; anything else is not modelled. */
enum place_kind { AT_NONE, AT_BUF, AT_COUNTER, AT_CLEAR };

static enum place_kind locate(const struct niu_layout *l, uint32_t off, unsigned *buf,
                              const struct niu_reg **rg, unsigned *cnt)
{
    if (off >= STATUS_OFF && off < STATUS_OFF + 4 * NIU_COUNTERS_DOCUMENTED) {
        *cnt = (off - STATUS_OFF) / 4;
        return AT_COUNTER;
    }
    if (off == l->clear_off)
        return AT_CLEAR;
    *buf = off / l->buf_stride;
    if (*buf >= NIU_CMD_BUFS)
        return AT_NONE;
    const uint32_t in = off % l->buf_stride;
    for (unsigned i = 0; i < l->nregs; i++)
        if (l->regs[i].off == in) {
            *rg = &l->regs[i];
            return AT_BUF;
        }
    return AT_NONE;
}

static enum mmio_status unknown(struct tile *t, int core, uint32_t addr, const char *what,
                                const char *why)
{
    tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
               "NIU %u register at offset 0x%04x (0x%08x): %s %s", (addr - NIU0_BASE) / NIU_SPAN,
               addr % NIU_SPAN, addr, what, why);
    return MMIO_ERROR;
}

static uint32_t node_id(const struct tile *t, unsigned noc)
{
    const struct niu_layout *l = layout(t);
    unsigned x, y;
    niu_coords(t, noc, &x, &y);
    /* x [5:0], y [11:6], NoC width [18:12], height [25:19], bit 28: X before Y (NoC 0 only);
     * the dateline bits 26 and 27 are left 0 (BHN/WHN:MemoryMap.md "NOC_NODE_ID"). */
    return x | y << 6 | l->width << 12 | l->height << 19 | (noc ? 0u : 1u << 28);
}

static uint32_t endpoint_id(const struct tile *t, unsigned noc)
{
    /* tile index [7:0], a Tensix tile's type (BH 0x0100 at [23:8], WH 1 at [23:16]), NoC index
     * [31:24] (BHN/WHN:MemoryMap.md "NOC_ENDPOINT_ID"). */
    return t->niu.tile_index | layout(t)->endpoint_type | noc << 24;
}

static enum mmio_status load(struct tile *t, int core, const struct region *r, uint32_t addr,
                             unsigned size, uint32_t *val)
{
    const struct niu_layout *l = layout(t);
    const unsigned noc = r->arg;
    const uint32_t off = addr - r->base;
    if (size != 4)
        return unknown(t, core, addr, "load", "narrower than 32 bits");
    unsigned buf = 0, cnt = 0;
    const struct niu_reg *rg = 0;
    switch (locate(l, off, &buf, &rg, &cnt)) {
    case AT_COUNTER:
        *val = t->niu.port[noc].status[cnt];
        return MMIO_OK;
    case AT_BUF:
        if (rg->kind == R_CMD_CTRL) /* NOC_CTRL_STATUS_READY: every command is taken at once
                                     * (issue), unless no payload slot is free (on a chip) */
            *val = t->niu.payload && !t->niu.slot_free ? 1 : 0;
        else if (rg->kind == R_NODE_ID)
            *val = node_id(t, noc);
        else if (rg->kind == R_ENDPOINT_ID)
            *val = endpoint_id(t, noc);
        else
            *val = t->niu.port[noc].reg[buf][rg->off / 4];
        return MMIO_OK;
    case AT_CLEAR:
        return unknown(t, core, addr, "load", "NOC_CLEAR_OUTSTANDING_REQ_CNT is write-only");
    default:
        return unknown(t, core, addr, "load", "is not a modelled NIU register");
    }
}

static enum mmio_status store(struct tile *t, int core, const struct region *r, uint32_t addr,
                              unsigned size, uint32_t val)
{
    const struct niu_layout *l = layout(t);
    const unsigned noc = r->arg;
    const uint32_t off = addr - r->base;
    if (size != 4)
        return unknown(t, core, addr, "store", "narrower than 32 bits");
    unsigned buf = 0, cnt = 0;
    const struct niu_reg *rg = 0;
    struct niu_port *p = &t->niu.port[noc];
    switch (locate(l, off, &buf, &rg, &cnt)) {
    case AT_COUNTER:
        tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
                   "NIU %u: store to %s (counter %u), a read-only counter", noc,
                   counter_name(cnt), cnt);
        return MMIO_ERROR;
    case AT_CLEAR: /* BHN:Counters.md "Clear NIU transaction ID counters" */
        for (unsigned i = 0; i < 16; i++)
            if (val >> i & 1)
                p->status[NIU_MST_REQS_OUTSTANDING_ID0 + i] = 0;
        return MMIO_OK;
    case AT_BUF:
        if (rg->kind == R_CMD_CTRL)
            return val & 1 ? issue(t, core, noc, buf) : MMIO_OK; /* NOC_CTRL_SEND_REQ */
        if (rg->kind != R_PLAIN) {
            tile_error(t, ERR_UNIMPLEMENTED, core, t->core[core].pc,
                       "NIU %u command buffer %u: store to %s, a read-only register", noc, buf,
                       rg->name);
            return MMIO_ERROR;
        }
        /* NOC_PACKET_TAG's bits 31:16 ignore writes and read 0 (BHN:MemoryMap.md). */
        p->reg[buf][rg->off / 4] = rg->off == l->tag_off ? val & 0xFFFFu : val;
        return MMIO_OK;
    default:
        return unknown(t, core, addr, "store", "is not a modelled NIU register");
    }
}

/* Loads are not plain: the chip glue will change counters between a core's polls. The Scalar
 * unit's view of these registers is not documented (tensix false: "unimplemented region"). */
static const struct mmio_ops ops = {load, store, false, false};

/* spec/memory-map.md §1: 64 KiB each, loads >= 7 cycles, all five cores on both architectures. */
const struct region niu_regions[] = {
    {NIU0_BASE, NIU0_BASE + NIU_SPAN - 1, "NoC 0 NIU", &ops, 7, MAP_ALL_CORES, MAP_BOTH, 0},
    {NIU0_BASE + NIU_SPAN, NIU0_BASE + 2 * NIU_SPAN - 1, "NoC 1 NIU", &ops, 7, MAP_ALL_CORES,
     MAP_BOTH, 1},
};
const unsigned niu_regions_len = sizeof niu_regions / sizeof niu_regions[0];
