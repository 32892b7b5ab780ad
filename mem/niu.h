/* A tile's two NIUs (NoC interface units) as the RISC-V cores see them: the register block at
 * 0xFFB20000 (NoC 0) and 0xFFB30000 (NoC 1), spec/memory-map.md §1, with four command buffers
 * ("request initiators"), the identification registers and the counters tt-metal's barriers poll
 * (docs/architecture.md "NIU"; the register table with its sources is in mem/niu.c).
 *
 * A command (a store of 1 to NOC_CMD_CTRL) is decoded into a `struct niu_request` and appended
 * to the tile's outbox, which the chip (core/chip.c) drains between windows and hands to the NoC
 * (docs/architecture.md "A chip"). What the NoC delivers to the tile (writes, read requests,
 * atomics, and the responses to its own requests) comes back through the tile's inbox: the chip
 * puts each packet there with its arrival cycle, and the tile's scheduler applies it at that
 * cycle, before any agent acts in it (niu_inbox_apply). */
#ifndef TENSIM_MEM_NIU_H
#define TENSIM_MEM_NIU_H

#include <stdbool.h>
#include <stdint.h>

#include "map.h"

struct tile;

#define NIU_NOCS 2
#define NIU_CMD_BUFS 4
#define NIU_BUF_WORDS 16    /* a command buffer's plain registers, 0x00..0x3C */
#define NIU_STATUS_REGS 64  /* NOC_STATUS(0..63) at +0x200 (BHN:Counters.md) */
#define NIU_OUTBOX_LEN 128  /* requests issued and not yet taken by the chip glue */
#define NIU_INBOX_LEN 256   /* packets arrived and not yet applied */
#define NIU_SLOTS 64        /* packet payloads a tile may have in flight (tensim's limit) */

/* Counter indices (NOC_STATUS(i), BHN:Counters.md; tt-metal noc_parameters.h, both arches). */
enum niu_counter {
    NIU_MST_ATOMIC_RESP_RECEIVED = 0x0,
    NIU_MST_WR_ACK_RECEIVED = 0x1,
    NIU_MST_RD_RESP_RECEIVED = 0x2,
    NIU_MST_RD_DATA_WORD_RECEIVED = 0x3,
    NIU_MST_CMD_ACCEPTED = 0x4,
    NIU_MST_RD_REQ_SENT = 0x5,
    NIU_MST_NONPOSTED_ATOMIC_SENT = 0x6,
    NIU_MST_POSTED_ATOMIC_SENT = 0x7,
    NIU_MST_NONPOSTED_WR_DATA_WORD_SENT = 0x8,
    NIU_MST_POSTED_WR_DATA_WORD_SENT = 0x9,
    NIU_MST_NONPOSTED_WR_REQ_SENT = 0xA,
    NIU_MST_POSTED_WR_REQ_SENT = 0xB,
    NIU_MST_NONPOSTED_WR_REQ_STARTED = 0xC,
    NIU_MST_POSTED_WR_REQ_STARTED = 0xD,
    NIU_MST_RD_REQ_STARTED = 0xE,
    NIU_MST_NONPOSTED_ATOMIC_STARTED = 0xF,
    NIU_MST_REQS_OUTSTANDING_ID0 = 0x10,    /* + transaction id, 8 bits each */
    NIU_MST_WRITE_REQS_OUTGOING_ID0 = 0x20, /* + transaction id, 8 bits each */
    NIU_SLV_ATOMIC_RESP_SENT = 0x30,        /* 0x30..0x3D: the slave side, counted at arrival */
    NIU_COUNTERS_DOCUMENTED = 0x3E,
};

/* Requests, and (from NIU_READ_RESP on) what a destination sends back: a read's data, a
 * non-posted write's acknowledgement, an atomic's result. */
enum niu_kind {
    NIU_READ, NIU_WRITE, NIU_POSTED_WRITE, NIU_ATOMIC,
    NIU_READ_RESP, NIU_WRITE_ACK, NIU_ATOMIC_RESP,
};

/* Request flags: NOC_CTRL's bits as decoded (BHN:MemoryMap.md "NOC_CTRL"). */
enum {
    NIU_F_BROADCAST = 1u << 0,    /* NOC_CMD_BRCST_PACKET: dst is the rectangle x0..x, y0..y */
    NIU_F_LINKED = 1u << 1,       /* NOC_CMD_VC_LINKED */
    NIU_F_STATIC_VC = 1u << 2,    /* NOC_CMD_VC_STATIC: `vc` holds NOC_CMD_STATIC_VC */
    NIU_F_PATH_RESERVE = 1u << 3, /* NOC_CMD_PATH_RESERVE */
    NIU_F_SRC_INCLUDE = 1u << 4,  /* NOC_CMD_BRCST_SRC_INCLUDE */
    NIU_F_Y_MAJOR = 1u << 5,      /* NOC_CMD_BRCST_XY = 1 */
    NIU_F_INLINE = 1u << 6,       /* NOC_CMD_WR_INLINE: the data is `at_data` */
    NIU_F_POSTED = 1u << 7,       /* atomics without NOC_CMD_RESP_MARKED */
};

/* One command as the NIU issued it: everything the chip glue needs to inject it and, at the
 * destination, to carry it out. */
struct niu_request {
    uint64_t cycle;       /* the cycle of the NOC_CMD_CTRL store */
    uint8_t noc, cmd_buf; /* which NIU and command buffer */
    uint8_t kind;         /* enum niu_kind */
    uint8_t txn_id;       /* NOC_PACKET_TAG's transaction id */
    uint8_t vc;           /* NOC_CMD_STATIC_VC (3 bits), with NIU_F_STATIC_VC */
    uint8_t priority;     /* NOC_CMD_ARB_PRIORITY */
    uint8_t x, y;         /* destination; broadcast: the rectangle's end corner */
    uint8_t x0, y0;       /* broadcast: the start corner (unicast: x, y) */
    uint8_t ret_x, ret_y; /* where the response or acknowledgement goes */
    uint16_t flags;       /* NIU_F_* */
    uint32_t len;         /* bytes (inline writes: 4; atomics: 0) */
    uint64_t local_addr;  /* in this tile: a write's source, a read's or atomic's return address */
    uint64_t remote_addr; /* at the destination(s) */
    uint32_t at_len_be, at_data; /* as written (atomics' opcode and operands, inline data;
                                  * an atomic's response: the result) */
    int16_t slot;         /* the payload's slot in the sending tile (niu_payload), -1: none */
};

/* A packet that reached this tile: applied at `cycle`, in `seq` order within a cycle. */
struct niu_event {
    uint64_t cycle;
    uint64_t seq;
    struct niu_request q;
    const uint8_t *data; /* q.len bytes (writes, read responses); valid until applied */
};

/* Per-NoC register state of one NIU. */
struct niu_port {
    uint32_t reg[NIU_CMD_BUFS][NIU_BUF_WORDS];
    uint32_t status[NIU_STATUS_REGS];
};

struct niu {
    struct niu_port port[NIU_NOCS];
    /* Settings (kept by reset): the tile's NoC 0 coordinates and its NOC_ENDPOINT_ID index. */
    uint8_t x, y, tile_index;
    struct niu_request outbox[NIU_OUTBOX_LEN]; /* a ring: head, count (below) */
    /* The inbox: a binary heap on (cycle, seq); in_next is its first cycle (CYCLE_NEVER when
     * empty), which the tile's scheduler reads before every agent step. */
    struct niu_event inbox[NIU_INBOX_LEN];
    unsigned in_count;
    uint64_t in_seq, in_next;
    /* next to in_next: the chip's worker looks at out_count after every window (core/sim.c) */
    unsigned out_head, out_count;
    /* Payloads of packets in flight from this tile (NULL until niu_payload_enable): NIU_SLOTS
     * slots of one packet's largest payload; bit i of slot_free: slot i is free. A write's data
     * is copied here at its NOC_CMD_CTRL store, a read response's at the read's arrival. */
    uint8_t *payload;
    uint64_t slot_free;
    /* Statistics: packets sent (requests and answers) and received, the payload bytes they
     * carried, and the cycles of the last of each (a send's NOC_CMD_CTRL store or its answer's
     * cycle; an arrival's cycle). */
    struct niu_stats {
        uint64_t tx_packets, tx_bytes, rx_packets, rx_bytes;
        uint64_t last_tx, last_rx;
    } st;
};

extern const struct region niu_regions[];
extern const unsigned niu_regions_len;

/* Power-on defaults of the settings (tile_create): a Blackhole Tensix tile at NoC 0 (1, 2), a
 * Wormhole one at (1, 1). */
void niu_init(struct tile *t);
/* Registers, counters and outbox back to power-on; the settings stay. */
void niu_reset(struct tile *t);
/* The tile's NoC 0 coordinates (NoC 1's are mirrored: (W-1-x, H-1-y)) and endpoint index. */
void niu_set_coords(struct tile *t, unsigned x, unsigned y, unsigned tile_index);
/* This tile's coordinates on `noc`. */
void niu_coords(const struct tile *t, unsigned noc, unsigned *x, unsigned *y);

/* The chip glue's side of the outbox: requests in issue order. */
unsigned niu_outbox_count(const struct tile *t);
const struct niu_request *niu_outbox_peek(const struct tile *t, unsigned i);
bool niu_outbox_pop(struct tile *t, struct niu_request *out);

/* What the hardware counts when a response reaches the initiating NIU (BHN:Counters.md):
 * a read response of `words` data flits, a write acknowledgement or an atomic response for
 * transaction id `txn`. */
void niu_response(struct tile *t, unsigned noc, enum niu_kind kind, unsigned txn, unsigned words);
/* A non-inline write's data reads from L1 are complete (NIU_MST_WRITE_REQS_OUTGOING_ID(txn)). */
void niu_data_read(struct tile *t, unsigned noc, unsigned txn);

/* Connect the tile to a chip: allocate its payload slots (false: out of memory). From then on
 * every packet with data carries it (`slot`), and requests are answered through the inbox. */
bool niu_payload_enable(struct tile *t);
void niu_payload_free_all(struct tile *t); /* tile_destroy */
/* Slot `slot`'s bytes, and giving it back once every receiver has applied its packet. */
const uint8_t *niu_payload(const struct tile *t, int slot);
void niu_payload_release(struct tile *t, int slot);
/* One packet arriving at `cycle` (the chip, between windows; cycle >= where the tile stands).
 * False when the inbox is full. */
bool niu_inbox_push(struct tile *t, uint64_t cycle, const struct niu_request *q,
                    const uint8_t *data);
/* Apply every packet that arrives at cycle t->niu.in_next (the scheduler, at that cycle boundary):
 * writes and atomics land in L1, reads are answered, responses count. An error stops the tile. */
void niu_inbox_apply(struct tile *t);
/* Between niu.c and niu_deliver.c: a free payload slot filled with L1 [addr, addr + n) (-1: none
 * free), and a request appended to the outbox (false: full, an error in the tile). */
int niu_payload_take(struct tile *t, uint32_t addr, uint32_t n);
bool niu_outbox_push(struct tile *t, int core, const struct niu_request *q);
/* "read", "posted write", "write acknowledgement", ... (enum niu_kind) */
const char *niu_kind_text(unsigned kind);
/* A packet sent (at its cycle) or applied (at t->now) as an instant of the tile's trace
 * (t->tracer set). */
void niu_trace(struct tile *t, bool rx, const struct niu_request *q);
/* The largest payload of one packet (Blackhole 16 KiB, Wormhole 8 KiB: NOC_MAX_BURST_SIZE) and
 * the flit size. */
uint32_t niu_max_packet(const struct tile *t);
uint32_t niu_max_packet_of(const struct arch *a);
unsigned niu_flit_bytes(const struct tile *t);

#endif
