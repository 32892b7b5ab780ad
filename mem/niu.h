/* A tile's two NIUs (NoC interface units) as the RISC-V cores see them: the register block at
 * 0xFFB20000 (NoC 0) and 0xFFB30000 (NoC 1), spec/memory-map.md §1, with four command buffers
 * ("request initiators"), the identification registers and the counters tt-metal's barriers poll
 * (docs/architecture.md "NIU"; the register table with its sources is in mem/niu.c).
 *
 * The NoC is not connected to tiles yet (mem/noc.h is the standalone timing model): a command
 * (a store of 1 to NOC_CMD_CTRL) is decoded into a `struct niu_request` and appended to the
 * tile's outbox, which the chip glue drains between windows (docs/architecture.md "Connecting
 * tiles to the NoC"). What arrives back (acknowledgements, read responses, the end of a write's
 * data reads) will be applied with niu_response and niu_data_read. */
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

enum niu_kind { NIU_READ, NIU_WRITE, NIU_POSTED_WRITE, NIU_ATOMIC };

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
    uint32_t at_len_be, at_data; /* as written (atomics' opcode and operands, inline data) */
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
    struct niu_request outbox[NIU_OUTBOX_LEN]; /* a ring: head, count */
    unsigned out_head, out_count;
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

#endif
