/* The NIUs' command interface as the cores see it (mem/niu.c; issue 20 item 1): BRISC fills a
 * command buffer as tt-metal's firmware does and writes NOC_CMD_CTRL; the tile's outbox holds
 * the decoded request, the counters read what the hardware counts at issue, NOC_NODE_ID reads
 * the tile's coordinates, and what is not modelled stops the run with its name.
 *
 * Register offsets and bits: tt-metal tt_metal/hw/inc/internal/tt-1xx/{blackhole,wormhole}/noc/
 * noc_parameters.h; the writes each call makes: .../blackhole/noc_nonblocking_api.h
 * (ncrisc_noc_fast_write, ncrisc_noc_fast_read); the counts: tt-isa-documentation
 * BlackholeA0/NoC/Counters.md. */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"

#define NOC0 0xFFB20000u
#define NOC1 0xFFB30000u
/* Blackhole offsets within a command buffer (stride 0x800) */
#define TARG_LO 0x00u
#define TARG_MID 0x04u
#define TARG_HI 0x08u
#define RET_LO 0x0Cu
#define RET_MID 0x10u
#define RET_HI 0x14u
#define PACKET_TAG 0x18u
#define CTRL 0x1Cu
#define AT_LEN_BE 0x20u
#define CMD_CTRL 0x40u
#define NODE_ID 0x44u
#define STATUS(i) (0x200u + 4u * (i))
/* NOC_CTRL bits */
#define CMD_WR 0x2u
#define CMD_RESP_MARKED 0x10u
#define CMD_BRCST_PACKET 0x20u
#define CMD_VC_STATIC 0x80u
#define CMD_PATH_RESERVE 0x100u
#define CMD_STATIC_VC(vc) ((uint32_t)(vc) << 13)

struct reg_write {
    uint32_t addr, val;
};

/* BRISC at 0x6000: the stores in order, then `csrr t3, cycle` right before the last one when
 * `mark` (so the test knows the store's cycle), then loads of `reads` into a0.. a5, exit. */
static struct prog brisc(struct tile *t, const struct reg_write *w, unsigned n,
                         const uint32_t *reads, unsigned nreads)
{
    struct prog p = prog_at(t, 0x6000);
    for (unsigned i = 0; i < n; i++) {
        emit_li(&p, 5, w[i].addr);
        emit_li(&p, 6, w[i].val);
        if (i == n - 1)
            E(&p, CSRRS, 28, 0, 0, 0xC00); /* t3 = cycle */
        E(&p, SW, 0, 5, 6, 0);
    }
    for (unsigned i = 0; i < nreads; i++) {
        emit_li(&p, 5, reads[i]);
        E(&p, LW, 10 + i, 5, 0, 0);
    }
    emit_exit(&p);
    return p;
}

static void run_ok(struct prog *p)
{
    cr_assert_eq(run_core(p, CORE_BRISC, 100000), ERR_NONE, "%s", p->t->err.text);
}

static uint32_t reg(const struct tile *t, unsigned i)
{
    return t->core[CORE_BRISC].x[i];
}

/* noc_async_write(src 0x20000, NOC_XY_ADDR(3, 4, 0x30000), 2048) from BRISC on NoC 0, dedicated
 * mode: BRISC_WR_CMD_BUF is buffer 0; noc_init put NOC_XY_COORD(my_x, my_y) = 1 | 2 << 6 = 0x81
 * in TARG_ADDR_HI (the acknowledgement's address); ncrisc_noc_fast_write then writes NOC_CTRL =
 * CPY | WR | VC_STATIC | STATIC_VC(NOC_UNICAST_WRITE_VC = 1) | RESP_MARKED = 0x2092, TARG_LO =
 * the source, RET_LO = 0x30000, RET_MID = (addr >> 32) & 0x1000000F = 0 (3 << 4 | 4 << 10 lies
 * outside the mask), RET_HI = addr >> 36 = 3 | 4 << 6 = 0x103, AT_LEN_BE = 2048, CMD_CTRL = 1. */
static const struct reg_write bh_write[] = {
    {NOC0 + TARG_HI, 0x81},
    {NOC0 + CTRL, CMD_WR | CMD_VC_STATIC | CMD_STATIC_VC(1) | CMD_RESP_MARKED},
    {NOC0 + TARG_LO, 0x20000},
    {NOC0 + RET_LO, 0x30000},
    {NOC0 + RET_MID, 0},
    {NOC0 + RET_HI, 0x103},
    {NOC0 + AT_LEN_BE, 2048},
    {NOC0 + CMD_CTRL, 1},
};

Test(niu, blackhole_unicast_write_as_noc_async_write)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const uint32_t reads[] = {
        NOC0 + CMD_CTRL,                    /* a0: 0, ready again */
        NOC0 + STATUS(0xA),                 /* a1: NIU_MST_NONPOSTED_WR_REQ_SENT */
        NOC0 + STATUS(0x8),                 /* a2: NIU_MST_NONPOSTED_WR_DATA_WORD_SENT */
        NOC0 + STATUS(0x10),                /* a3: NIU_MST_REQS_OUTSTANDING_ID(0) */
        NOC0 + STATUS(0x20),                /* a4: NIU_MST_WRITE_REQS_OUTGOING_ID(0) */
        NOC0 + RET_HI,                      /* a5: the register keeps its value */
    };
    struct prog p = brisc(t, bh_write, 8, reads, 6);
    run_ok(&p);
    cr_expect_eq(reg(t, 10), 0, "NOC_CMD_CTRL reads NOC_CTRL_STATUS_READY");
    cr_expect_eq(reg(t, 11), 1, "one non-posted write sent");
    cr_expect_eq(reg(t, 12), 32, "2048 bytes in 64-byte flits");
    cr_expect_eq(reg(t, 13), 1, "the acknowledgement outstanding, transaction id 0");
    cr_expect_eq(reg(t, 14), 1, "its data not read yet (the chip glue's niu_data_read)");
    cr_expect_eq(reg(t, 15), 0x103);
    cr_assert_eq(niu_outbox_count(t), 1);
    const struct niu_request *q = niu_outbox_peek(t, 0);
    /* The store issues, and reaches the NIU, 4 cycles after `csrr` read the counter: CSR
     * instructions take 4 cycles (docs/timing-model.md "CSR instructions"), nothing is between
     * them. */
    cr_expect_eq(q->cycle, (uint64_t)reg(t, 28) + 4, "cycle %lu, csrr read %u",
                 (unsigned long)q->cycle, reg(t, 28));
    cr_expect_eq(q->noc, 0);
    cr_expect_eq(q->cmd_buf, 0);
    cr_expect_eq(q->kind, NIU_WRITE);
    cr_expect_eq(q->x, 3);
    cr_expect_eq(q->y, 4);
    cr_expect_eq(q->x0, 3);
    cr_expect_eq(q->y0, 4);
    cr_expect_eq(q->ret_x, 1, "the acknowledgement goes to TARG_ADDR_HI's tile");
    cr_expect_eq(q->ret_y, 2);
    cr_expect_eq(q->local_addr, 0x20000);
    cr_expect_eq(q->remote_addr, 0x30000);
    cr_expect_eq(q->len, 2048);
    cr_expect_eq(q->txn_id, 0);
    cr_expect_eq(q->vc, 1);
    cr_expect_eq(q->flags, NIU_F_STATIC_VC);
    /* The chip glue's side: the data read, then the acknowledgement. */
    niu_data_read(t, 0, 0);
    niu_response(t, 0, NIU_WRITE, 0, 0);
    cr_expect_eq(t->niu.port[0].status[NIU_MST_WRITE_REQS_OUTGOING_ID0], 0);
    cr_expect_eq(t->niu.port[0].status[NIU_MST_REQS_OUTSTANDING_ID0], 0);
    cr_expect_eq(t->niu.port[0].status[NIU_MST_WR_ACK_RECEIVED], 1);
    struct niu_request out;
    cr_expect(niu_outbox_pop(t, &out));
    cr_expect_eq(niu_outbox_count(t), 0);
    tile_destroy(t);
}

/* noc_async_read(NOC_XY_ADDR(5, 6, 0x40000), dst 0x10000, 512) from BRISC on NoC 1:
 * BRISC_RD_CMD_BUF is buffer 1 (+0x800); noc_init wrote NOC_CTRL = RD | RESP_MARKED |
 * VC_STATIC | STATIC_VC(NOC_UNICAST_READ_REQ_VC = 1) = 0x2090 and RET_ADDR_HI = my coordinates
 * (on NoC 1: (16 - 1, 11 - 2) = (15, 9), 15 | 9 << 6 = 0x24F); ncrisc_noc_fast_read writes RET_LO,
 * TARG_LO, TARG_MID = 0, TARG_HI = 5 | 6 << 6 = 0x185, AT_LEN_BE, CMD_CTRL. The transaction id
 * 3 is in NOC_PACKET_TAG bits 13:10 (NOC_PACKET_TAG_TRANSACTION_ID). */
Test(niu, blackhole_read_on_noc1_with_a_transaction_id)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const uint32_t b = NOC1 + 0x800;
    const struct reg_write w[] = {
        {b + CTRL, CMD_RESP_MARKED | CMD_VC_STATIC | CMD_STATIC_VC(1)},
        {b + RET_HI, 0x24F},
        {b + PACKET_TAG, 3u << 10},
        {b + RET_LO, 0x10000},
        {b + TARG_LO, 0x40000},
        {b + TARG_MID, 0},
        {b + TARG_HI, 0x185},
        {b + AT_LEN_BE, 512},
        {b + CMD_CTRL, 1},
    };
    const uint32_t reads[] = {NOC1 + STATUS(0x5), NOC1 + STATUS(0x10 + 3), NOC0 + STATUS(0x5),
                              NOC1 + NODE_ID, NOC1 + 0x1800 + NODE_ID};
    struct prog p = brisc(t, w, 9, reads, 5);
    run_ok(&p);
    cr_expect_eq(reg(t, 10), 1, "NIU_MST_RD_REQ_SENT on NoC 1");
    cr_expect_eq(reg(t, 11), 1, "NIU_MST_REQS_OUTSTANDING_ID(3)");
    cr_expect_eq(reg(t, 12), 0, "NoC 0's counters untouched");
    /* NOC_NODE_ID on NoC 1: x 15, y 9, width 17 << 12, height 12 << 19, bit 28 clear (Y first). */
    const uint32_t id1 = 15u | 9u << 6 | 17u << 12 | 12u << 19;
    cr_expect_eq(reg(t, 13), id1, "0x%08x", reg(t, 13));
    cr_expect_eq(reg(t, 14), id1, "every command buffer has it");
    const struct niu_request *q = niu_outbox_peek(t, 0);
    cr_assert(q);
    cr_expect_eq(q->noc, 1);
    cr_expect_eq(q->cmd_buf, 1);
    cr_expect_eq(q->kind, NIU_READ);
    cr_expect_eq(q->x, 5);
    cr_expect_eq(q->y, 6);
    cr_expect_eq(q->ret_x, 15);
    cr_expect_eq(q->ret_y, 9);
    cr_expect_eq(q->remote_addr, 0x40000);
    cr_expect_eq(q->local_addr, 0x10000);
    cr_expect_eq(q->len, 512);
    cr_expect_eq(q->txn_id, 3);
    cr_expect_eq(q->cycle, (uint64_t)reg(t, 28) + 4);
    niu_response(t, 1, NIU_READ, 3, 8);
    cr_expect_eq(t->niu.port[1].status[NIU_MST_RD_RESP_RECEIVED], 1);
    cr_expect_eq(t->niu.port[1].status[NIU_MST_RD_DATA_WORD_RECEIVED], 8);
    cr_expect_eq(t->niu.port[1].status[NIU_MST_REQS_OUTSTANDING_ID0 + 3], 0);
    tile_destroy(t);
}

/* noc_async_write_multicast(src 0x20000, NOC_MULTICAST_ADDR(1, 2, 4, 5, 0x50000), 4096,
 * num_dests 12, linked false) from NCRISC... here from BRISC on NoC 0 buffer 0: NOC_CTRL = CPY |
 * WR | VC_STATIC | STATIC_VC(NOC_MULTICAST_WRITE_VC = 4) | PATH_RESERVE | BRCST_PACKET |
 * RESP_MARKED = 0x81B2; RET_HI = NOC_MULTICAST_ENCODING(1, 2, 4, 5) = 4 | 5 << 6 | 1 << 12 |
 * 2 << 18 = 0x81144 (end x, end y, start x, start y). Posted writes are counted apart: a
 * second command, posted, on buffer 2 (BRISC_WR_REG_CMD_BUF). */
Test(niu, blackhole_multicast_write_and_a_posted_one)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const uint32_t b2 = NOC0 + 0x1000;
    const struct reg_write w[] = {
        {NOC0 + CTRL, CMD_WR | CMD_VC_STATIC | CMD_STATIC_VC(4) | CMD_PATH_RESERVE |
                          CMD_BRCST_PACKET | CMD_RESP_MARKED},
        {NOC0 + TARG_LO, 0x20000},
        {NOC0 + RET_LO, 0x50000},
        {NOC0 + RET_MID, 0},
        {NOC0 + RET_HI, 0x81144},
        {NOC0 + AT_LEN_BE, 4096},
        {NOC0 + CMD_CTRL, 1},
        {b2 + CTRL, CMD_WR | CMD_VC_STATIC | CMD_STATIC_VC(1)}, /* no RESP_MARKED: posted */
        {b2 + TARG_LO, 0x21000},
        {b2 + RET_LO, 0x60000},
        {b2 + RET_HI, 7 | 8 << 6},
        {b2 + AT_LEN_BE, 100},
        {b2 + CMD_CTRL, 1},
    };
    const uint32_t reads[] = {NOC0 + STATUS(0xA), NOC0 + STATUS(0xB), NOC0 + STATUS(0x9),
                              NOC0 + STATUS(0x10), NOC0 + STATUS(0x4)};
    struct prog p = brisc(t, w, 13, reads, 5);
    run_ok(&p);
    cr_expect_eq(reg(t, 10), 1, "NIU_MST_NONPOSTED_WR_REQ_SENT");
    cr_expect_eq(reg(t, 11), 1, "NIU_MST_POSTED_WR_REQ_SENT");
    cr_expect_eq(reg(t, 12), 2, "100 bytes: 2 flits of 64");
    cr_expect_eq(reg(t, 13), 1, "only the non-posted write waits for an acknowledgement");
    cr_expect_eq(reg(t, 14), 2, "NIU_MST_CMD_ACCEPTED");
    cr_assert_eq(niu_outbox_count(t), 2);
    const struct niu_request *m = niu_outbox_peek(t, 0), *q = niu_outbox_peek(t, 1);
    cr_expect_eq(m->kind, NIU_WRITE);
    cr_expect_eq(m->flags, NIU_F_BROADCAST | NIU_F_STATIC_VC | NIU_F_PATH_RESERVE);
    cr_expect_eq(m->x0, 1);
    cr_expect_eq(m->y0, 2);
    cr_expect_eq(m->x, 4);
    cr_expect_eq(m->y, 5);
    cr_expect_eq(m->vc, 4);
    cr_expect_eq(m->len, 4096);
    cr_expect_eq(m->remote_addr, 0x50000);
    cr_expect_lt(m->cycle, q->cycle);
    cr_expect_eq(q->kind, NIU_POSTED_WRITE);
    cr_expect_eq(q->cmd_buf, 2);
    cr_expect_eq(q->x, 7);
    cr_expect_eq(q->y, 8);
    cr_expect_eq(q->len, 100);
    cr_expect_eq(q->cycle, (uint64_t)reg(t, 28) + 4);
    tile_destroy(t);
}

/* Wormhole: command buffers 0x400 apart, NOC_CMD_CTRL at +0x28, NOC_NODE_ID at +0x2C, and the
 * coordinates in TARG/RET_ADDR_MID from bit 4 with address bits 35:32 below them
 * (NOC_COORD_REG_OFFSET 4): NOC_XY_ADDR(6, 7, 0x1_0000_0040) >> 32 = 1 | 6 << 4 | 7 << 10. The
 * write goes on buffer 1 (+0x400) from NCRISC, which sees the block too. */
Test(niu, wormhole_coordinates_in_mid_from_ncrisc)
{
    struct tile *t = test_tile(ARCH_WORMHOLE);
    const uint32_t b = NOC0 + 0x400;
    const struct reg_write w[] = {
        {b + 0x1C, CMD_WR | CMD_VC_STATIC | CMD_STATIC_VC(1) | CMD_RESP_MARKED},
        {b + 0x00, 0x8000},                   /* TARG_ADDR_LO: the source */
        {b + 0x04, 2 << 4 | 3 << 10},         /* TARG_ADDR_MID: the ack's coordinates */
        {b + 0x0C, 0x40},                     /* RET_ADDR_LO */
        {b + 0x10, 1 | 6 << 4 | 7 << 10},     /* RET_ADDR_MID */
        {b + 0x20, 64},                       /* AT_LEN_BE */
        {b + 0x28, 1},                        /* NOC_CMD_CTRL */
    };
    const uint32_t reads[] = {NOC0 + 0x2C, b + 0x28, NOC0 + STATUS(0x8)};
    struct prog p = prog_at(t, 0x12000); /* NCRISC's default reset pc */
    for (unsigned i = 0; i < 7; i++) {
        emit_li(&p, 5, w[i].addr);
        emit_li(&p, 6, w[i].val);
        E(&p, SW, 0, 5, 6, 0);
    }
    for (unsigned i = 0; i < 3; i++) {
        emit_li(&p, 5, reads[i]);
        E(&p, LW, 10 + i, 5, 0, 0);
    }
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_NCRISC, 100000), ERR_NONE, "%s", t->err.text);
    const uint32_t *x = t->core[CORE_NCRISC].x;
    /* (1, 1) on a 10 x 12 NoC, X first (NoC 0). */
    cr_expect_eq(x[10], 1u | 1u << 6 | 10u << 12 | 12u << 19 | 1u << 28, "0x%08x", x[10]);
    cr_expect_eq(x[11], 0);
    cr_expect_eq(x[12], 2, "64 bytes in 32-byte flits");
    const struct niu_request *q = niu_outbox_peek(t, 0);
    cr_assert(q);
    cr_expect_eq(q->cmd_buf, 1);
    cr_expect_eq(q->x, 6);
    cr_expect_eq(q->y, 7);
    cr_expect_eq(q->remote_addr, 0x100000040ull);
    cr_expect_eq(q->local_addr, 0x8000);
    cr_expect_eq(q->ret_x, 2);
    cr_expect_eq(q->ret_y, 3);
    tile_destroy(t);
}

Test(niu, node_id_reads_the_tiles_setting)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    niu_set_coords(t, 7, 10, 42);
    const uint32_t reads[] = {NOC0 + NODE_ID, NOC0 + 0x48 /* NOC_ENDPOINT_ID */};
    struct prog p = brisc(t, 0, 0, reads, 2);
    run_ok(&p);
    cr_expect_eq(reg(t, 10), 7u | 10u << 6 | 17u << 12 | 12u << 19 | 1u << 28);
    cr_expect_eq(reg(t, 11), 42u | 0x0100u << 8, "tile index 42, a Tensix tile, NoC 0");
    tile_destroy(t);
}

Test(niu, the_counters_clear_by_transaction_id)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct reg_write w[9];
    memcpy(w, bh_write, sizeof bh_write);
    w[8] = (struct reg_write){NOC0 + 0x60, 1}; /* NOC_CLEAR_OUTSTANDING_REQ_CNT, id 0 */
    const uint32_t reads[] = {NOC0 + STATUS(0x10)};
    struct prog p = brisc(t, w, 9, reads, 1);
    run_ok(&p);
    cr_expect_eq(reg(t, 10), 0);
    tile_destroy(t);
}

static void expect_refused(struct tile *t, const struct reg_write *w, unsigned n,
                           const uint32_t *reads, unsigned nreads, const char *text)
{
    struct prog p = brisc(t, w, n, reads, nreads);
    cr_assert_eq(run_core(&p, CORE_BRISC, 100000), ERR_UNIMPLEMENTED, "%s", t->err.text);
    cr_expect(strstr(t->err.text, text), "%s", t->err.text);
    tile_destroy(t);
}

Test(niu, an_unknown_register_is_refused_with_its_offset)
{
    const uint32_t reads[] = {NOC0 + 0x38};
    expect_refused(test_tile(ARCH_BLACKHOLE), 0, 0, reads, 1,
                   "NIU 0 register at offset 0x0038 (0xffb20038): load is not a modelled NIU "
                   "register");
}

Test(niu, a_wormhole_only_register_gap_is_refused)
{
    /* +0x40 is Blackhole's NOC_CMD_CTRL but nothing on Wormhole (whose buffer ends at +0x30). */
    const struct reg_write w[] = {{NOC1 + 0x40, 1}};
    expect_refused(test_tile(ARCH_WORMHOLE), w, 1, 0, 0, "NIU 1 register at offset 0x0040");
}

Test(niu, a_counter_store_is_refused_with_its_name)
{
    const struct reg_write w[] = {{NOC0 + STATUS(1), 5}};
    expect_refused(test_tile(ARCH_BLACKHOLE), w, 1, 0, 0, "store to NIU_MST_WR_ACK_RECEIVED");
}

Test(niu, a_byte_enable_write_is_refused_with_its_name)
{
    const struct reg_write w[] = {{NOC0 + CTRL, CMD_WR | 0x4 /* NOC_CMD_WR_BE */},
                                  {NOC0 + CMD_CTRL, 1}};
    expect_refused(test_tile(ARCH_BLACKHOLE), w, 2, 0, 0,
                   "NIU 0 command buffer 0: a byte-enable write (NOC_CMD_WR_BE) (NOC_CTRL "
                   "0x00000006) is not modelled yet");
}

/* A read of 40000 bytes: more than one packet (16384 bytes on Blackhole), so the NIU splits it
 * into 16384 + 16384 + 7232 bytes, counts the transaction id's outstanding responses by 3 at once
 * and leaves the last packet's length and addresses in the registers (BlackholeA0/NoC/Counters.md
 * "Automatic request splitting"). */
Test(niu, a_long_read_is_split_into_packets)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const uint32_t b = NOC0 + 0x800;
    const struct reg_write w[] = {
        {b + CTRL, CMD_RESP_MARKED}, {b + PACKET_TAG, 2u << 10}, {b + RET_LO, 0x10000},
        {b + TARG_LO, 0x40000},      {b + TARG_HI, 0x185},       {b + AT_LEN_BE, 40000},
        {b + CMD_CTRL, 1},
    };
    const uint32_t reads[] = {NOC0 + STATUS(0x12), NOC0 + STATUS(0x5), b + AT_LEN_BE,
                              b + TARG_LO, b + RET_LO};
    struct prog p = brisc(t, w, 7, reads, 5);
    run_ok(&p);
    cr_expect_eq(reg(t, 10), 3, "NIU_MST_REQS_OUTSTANDING_ID(2)");
    cr_expect_eq(reg(t, 11), 3, "NIU_MST_RD_REQ_SENT");
    cr_expect_eq(reg(t, 12), 40000 - 2 * 16384);
    cr_expect_eq(reg(t, 13), 0x40000 + 2 * 16384);
    cr_expect_eq(reg(t, 14), 0x10000 + 2 * 16384);
    cr_assert_eq(niu_outbox_count(t), 3);
    for (unsigned k = 0; k < 3; k++) {
        const struct niu_request *q = niu_outbox_peek(t, k);
        cr_expect_eq(q->len, k < 2 ? 16384 : 7232);
        cr_expect_eq(q->remote_addr, 0x40000 + 16384 * k);
        cr_expect_eq(q->local_addr, 0x10000 + 16384 * k);
        cr_expect_eq(q->txn_id, 2);
    }
    tile_destroy(t);
}

Test(niu, splitting_an_unaligned_request_is_refused)
{
    const struct reg_write w[] = {{NOC0 + CTRL, CMD_WR}, {NOC0 + TARG_LO, 0x20010},
                                  {NOC0 + AT_LEN_BE, 16385}, {NOC0 + CMD_CTRL, 1}};
    expect_refused(test_tile(ARCH_BLACKHOLE), w, 4, 0, 0,
                   "automatic splitting of a request not 64-byte aligned");
}

/* noc_semaphore_inc(NOC_XY_ADDR(2, 3, 0x1000C), 1) from BRISC: noc_fast_atomic_increment on
 * BRISC_AT_CMD_BUF (3, +0x1800) writes TARG_LO, TARG_HI = 2 | 3 << 6 = 0xC2, NOC_CTRL = VC_STATIC |
 * STATIC_VC(NOC_UNICAST_WRITE_VC = 1) | RESP_MARKED | AT = 0x2091, AT_LEN_BE =
 * NOC_AT_INS(INCR_GET = 1) << 12 | NOC_AT_WRAP(31) << 2 | NOC_AT_IND_32((addr >> 2) & 3 = 3) =
 * 0x107F, AT_DATA = 1, CMD_CTRL = 1. */
Test(niu, an_atomic_increment_as_noc_semaphore_inc)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const uint32_t b = NOC0 + 0x1800;
    const struct reg_write w[] = {
        {b + TARG_LO, 0x1000C}, {b + TARG_HI, 0xC2},
        {b + CTRL, CMD_VC_STATIC | CMD_STATIC_VC(1) | CMD_RESP_MARKED | 1},
        {b + AT_LEN_BE, 0x107F}, {b + 0x28 /* NOC_AT_DATA */, 1}, {b + CMD_CTRL, 1},
    };
    const uint32_t reads[] = {NOC0 + STATUS(0x6), NOC0 + STATUS(0x10), NOC0 + STATUS(0xF)};
    struct prog p = brisc(t, w, 6, reads, 3);
    run_ok(&p);
    cr_expect_eq(reg(t, 10), 1, "NIU_MST_NONPOSTED_ATOMIC_SENT");
    cr_expect_eq(reg(t, 11), 1, "NIU_MST_REQS_OUTSTANDING_ID(0)");
    cr_expect_eq(reg(t, 12), 1, "NIU_MST_NONPOSTED_ATOMIC_STARTED");
    const struct niu_request *q = niu_outbox_peek(t, 0);
    cr_assert(q);
    cr_expect_eq(q->kind, NIU_ATOMIC);
    cr_expect_eq(q->cmd_buf, 3);
    cr_expect_eq(q->x, 2);
    cr_expect_eq(q->y, 3);
    cr_expect_eq(q->remote_addr, 0x1000C);
    cr_expect_eq(q->at_len_be, 0x107F);
    cr_expect_eq(q->at_data, 1);
    cr_expect_eq(q->len, 0);
    cr_expect_eq(q->flags, NIU_F_STATIC_VC);
    niu_response(t, 0, NIU_ATOMIC, 0, 0);
    cr_expect_eq(t->niu.port[0].status[NIU_MST_ATOMIC_RESP_RECEIVED], 1);
    cr_expect_eq(t->niu.port[0].status[NIU_MST_REQS_OUTSTANDING_ID0], 0);
    tile_destroy(t);
}

Test(niu, broadcast_exclusions_are_refused)
{
    const struct reg_write w[] = {{NOC0 + CTRL, CMD_WR | CMD_BRCST_PACKET},
                                  {NOC0 + 0x2C /* NOC_BRCST_EXCLUDE */, 1u << 22},
                                  {NOC0 + CMD_CTRL, 1}};
    expect_refused(test_tile(ARCH_BLACKHOLE), w, 3, 0, 0,
                   "a broadcast with exclusions (NOC_BRCST_EXCLUDE)");
}

Test(niu, a_narrow_access_is_refused)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, NOC0);
    E(&p, LB, 10, 5, 0, 0);
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_BRISC, 100000), ERR_UNIMPLEMENTED);
    cr_expect(strstr(t->err.text, "narrower than 32 bits"), "%s", t->err.text);
    tile_destroy(t);
}

Test(niu, reset_clears_registers_and_outbox_but_keeps_the_coordinates)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    niu_set_coords(t, 9, 3, 5);
    struct prog p = brisc(t, bh_write, 8, 0, 0);
    run_ok(&p);
    cr_expect_eq(niu_outbox_count(t), 1);
    tile_reset(t);
    cr_expect_eq(niu_outbox_count(t), 0);
    cr_expect_eq(t->niu.port[0].reg[0][TARG_HI / 4], 0);
    cr_expect_eq(t->niu.port[0].status[NIU_MST_NONPOSTED_WR_REQ_SENT], 0);
    unsigned x, y;
    niu_coords(t, 1, &x, &y);
    cr_expect_eq(x, 16 - 9);
    cr_expect_eq(y, 11 - 3);
    tile_destroy(t);
}
