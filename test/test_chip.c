/* A chip of tiles on the NoC (core/chip.c; issue 20 items 3 and 4): BRISC programs issue NoC
 * commands as tt-metal's firmware does (test_niu.c has the register-by-register sources), the
 * packets land in other tiles' L1 at the cycle the NoC model says, DRAM tiles answer, and a run
 * is the same at any host thread count.
 *
 * Arrival cycles are checked against the standalone NoC model (mem/noc.h, whose own rules
 * test_noc.c checks) fed the same request at the cycle the NIU took it, and against the sums of
 * the timing table's latencies where they are simple (a neighbour: niu_to_router + router_to_router
 * + router_to_niu for the header, one cycle per data flit after it). */
#include <criterion/criterion.h>
#include <string.h>

#include "../core/chip.h"
#include "../mem/noc.h"
#include "harness.h"

#define NOC0 0xFFB20000u
#define NOC1 0xFFB30000u
#define TARG_LO 0x00u
#define TARG_HI 0x08u
#define RET_LO 0x0Cu
#define RET_MID 0x10u
#define RET_HI 0x14u
#define CTRL 0x1Cu
#define AT_LEN_BE 0x20u
#define AT_DATA 0x28u
#define CMD_CTRL 0x40u
#define STATUS(i) (0x200u + 4u * (i))
#define CMD_AT 0x1u
#define CMD_WR 0x2u
#define CMD_RESP_MARKED 0x10u
#define CMD_BRCST_PACKET 0x20u
#define XY(x, y) ((uint32_t)(x) | (uint32_t)(y) << 6)

/* One command on NoC `noc`'s command buffer 0: TARG (address, coordinates), RET (address,
 * coordinates), NOC_CTRL, NOC_AT_LEN_BE, NOC_AT_DATA, then NOC_CMD_CTRL = 1. */
static void command(struct prog *p, unsigned noc, uint32_t targ, uint32_t targ_xy, uint32_t ret,
                    uint32_t ret_xy, uint32_t ctrl, uint32_t len, uint32_t data)
{
    const uint32_t b = noc ? NOC1 : NOC0;
    emit_store(p, b + TARG_LO, targ);
    emit_store(p, b + TARG_HI, targ_xy);
    emit_store(p, b + RET_LO, ret);
    emit_store(p, b + RET_MID, 0);
    emit_store(p, b + RET_HI, ret_xy);
    emit_store(p, b + CTRL, ctrl);
    emit_store(p, b + AT_LEN_BE, len);
    emit_store(p, b + AT_DATA, data);
    emit_store(p, b + CMD_CTRL, 1);
}

/* Wait until counter `i` of NoC `noc` reads `n`. */
static void wait_counter(struct prog *p, unsigned noc, unsigned i, uint32_t n)
{
    emit_li(p, 5, (noc ? NOC1 : NOC0) + STATUS(i));
    emit_li(p, 7, n);
    E(p, LW, 6, 5, 0, 0);
    E(p, BNE, 0, 6, 7, -4);
}

/* Wait until the L1 word at addr reads n (through the uncached path: fence first). */
static void wait_word(struct prog *p, uint32_t addr, uint32_t n)
{
    emit_li(p, 5, addr);
    emit_li(p, 7, n);
    emit(p, 0x0FF0000F); /* fence */
    E(p, LW, 6, 5, 0, 0);
    E(p, BNE, 0, 6, 7, -8);
}

static struct chip *bh_chip(unsigned threads)
{
    struct chip *c = chip_create(arch_get(ARCH_BLACKHOLE));
    cr_assert(c);
    chip_sim(c)->threads = threads;
    chip_sim(c)->pin = false;
    chip_sim(c)->max_cycles = 2000000;
    return c;
}

static struct tile *add(struct chip *c, unsigned x, unsigned y)
{
    const char *why = 0;
    struct tile *t = chip_add_tile(c, x, y, &why);
    cr_assert(t, "%s", why);
    t->out = t->errout = 0;
    return t;
}

static void fill(struct tile *t, uint32_t addr, uint32_t n, uint32_t seed)
{
    for (uint32_t i = 0; i < n; i += 4) {
        uint32_t v = seed * 2654435761u + i;
        memcpy(t->l1 + addr + i, &v, 4);
    }
}

static void run_ok(struct chip *c)
{
    enum err_kind k = chip_run(c);
    for (unsigned i = 0; i < chip_ntiles(c); i++)
        cr_assert_eq(chip_tile(c, i)->err.kind, ERR_NONE, "tile %u: %s", i,
                     chip_tile(c, i)->err.text);
    cr_assert_eq(k, ERR_NONE);
}

/* The standalone model's tail cycle for one unicast of `bytes` from src to dst at `cycle`. */
struct one { struct noc_delivery d; unsigned n; };
static void one_cb(void *ctx, const struct noc_delivery *d)
{
    struct one *o = ctx;
    o->d = *d;
    o->n++;
}
static uint64_t alone(unsigned noc, unsigned sx, unsigned sy, unsigned dx, unsigned dy,
                      uint32_t bytes, uint64_t cycle)
{
    struct one o = {0};
    struct noc_config cfg = noc_config_for(ARCH_BLACKHOLE);
    cfg.deliver = one_cb;
    cfg.ctx = &o;
    struct noc *n = noc_create(&cfg);
    cr_assert(noc_unicast(n, noc, noc_node(&cfg, sx, sy), noc_node(&cfg, dx, dy), bytes, 0, cycle));
    noc_advance(n, NOC_NEVER);
    noc_destroy(n);
    cr_assert_eq(o.n, 1);
    return o.d.tail_cycle;
}

Test(chip, unicast_write_lands_at_the_nocs_arrival_cycle)
{
    struct chip *c = bh_chip(1);
    struct tile *a = add(c, 1, 2), *b = add(c, 2, 2);
    fill(a, 0x20000, 64, 1);
    struct prog p = prog_at(a, 0x6000);
    command(&p, 0, 0x20000, XY(1, 2), 0x30000, XY(2, 2), CMD_WR, 64, 0); /* posted */
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    run_ok(c);
    cr_assert_eq(memcmp(b->l1 + 0x30000, a->l1 + 0x20000, 64), 0);
    const uint64_t tx = a->niu.st.last_tx, rx = b->niu.st.last_rx;
    cr_assert_eq(b->niu.st.rx_packets, 1);
    cr_assert_eq(rx, alone(0, 1, 2, 2, 2, 64, tx));
    /* The east neighbour on NoC 0: the header after 5 + 9 + 5 cycles, its one data flit the
     * cycle after (BH NoC/README.md "Performance"). */
    cr_assert_eq(rx - tx, 5 + 9 + 5 + 1, "tx %llu rx %llu", (unsigned long long)tx,
                 (unsigned long long)rx);
    chip_destroy(c);
}

Test(chip, west_on_noc0_goes_round_the_ring)
{
    struct chip *c = bh_chip(1);
    struct tile *a = add(c, 3, 2), *b = add(c, 2, 2);
    fill(a, 0x20000, 256, 2);
    struct prog p = prog_at(a, 0x6000);
    command(&p, 0, 0x20000, XY(3, 2), 0x30000, XY(2, 2), CMD_WR, 256, 0);
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    run_ok(c);
    cr_assert_eq(memcmp(b->l1 + 0x30000, a->l1 + 0x20000, 256), 0);
    /* 16 hops right round the 17-wide torus (BH NoC/RoutingPaths.md), 4 data flits. */
    const uint64_t tx = a->niu.st.last_tx, rx = b->niu.st.last_rx;
    cr_assert_eq(rx, alone(0, 3, 2, 2, 2, 256, tx));
    cr_assert_eq(rx - tx, 5 + 16 * 9 + 5 + 4);
    chip_destroy(c);
}

Test(chip, nonposted_write_and_read_round_trips_count)
{
    struct chip *c = bh_chip(1);
    struct tile *a = add(c, 1, 2), *b = add(c, 1, 3);
    fill(a, 0x20000, 4096, 3);
    fill(b, 0x50000, 1024, 4);
    struct prog p = prog_at(a, 0x6000);
    command(&p, 0, 0x20000, XY(1, 2), 0x30000, XY(1, 3), CMD_WR | CMD_RESP_MARKED, 4096, 0);
    wait_counter(&p, 0, 0x1 /* NIU_MST_WR_ACK_RECEIVED */, 1);
    /* a read: from TARG at (1, 3) to RET here */
    command(&p, 0, 0x50000, XY(1, 3), 0x40000, XY(1, 2), 0, 1024, 0);
    wait_counter(&p, 0, 0x2 /* NIU_MST_RD_RESP_RECEIVED */, 1);
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    run_ok(c);
    cr_assert_eq(memcmp(b->l1 + 0x30000, a->l1 + 0x20000, 4096), 0);
    cr_assert_eq(memcmp(a->l1 + 0x40000, b->l1 + 0x50000, 1024), 0);
    cr_assert_eq(a->niu.port[0].status[0x3 /* RD_DATA_WORD_RECEIVED */], 1024 / 64);
    cr_assert_eq(a->niu.port[0].status[0x10 /* REQS_OUTSTANDING_ID0 */], 0);
    cr_assert_eq(b->niu.st.rx_packets, 2);  /* the write, the read request */
    cr_assert_eq(b->niu.st.tx_packets, 2);  /* the acknowledgement, the read's data */
    chip_destroy(c);
}

Test(chip, dram_reads_and_writes)
{
    struct chip *c = bh_chip(1);
    struct tile *a = add(c, 1, 2);
    uint8_t in[2048], out[2048];
    for (unsigned i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(i * 7 + 1);
    cr_assert(chip_dram_write(c, 0, 3, 0x12345000, in, sizeof in));   /* bank 1 */
    cr_assert(!chip_dram_write(c, 1, 2, 0, in, 4), "a Tensix tile is not DRAM");
    struct prog p = prog_at(a, 0x6000);
    /* read 2 KiB from DRAM tile (0, 2), bank 1 like (0, 3) */
    command(&p, 0, 0x12345000, XY(0, 2), 0x40000, XY(1, 2), 0, sizeof in, 0);
    wait_counter(&p, 0, 0x2, 1);
    /* write it back to bank 5 through tile (9, 2), non-posted */
    command(&p, 0, 0x40000, XY(1, 2), 0x800, XY(9, 2), CMD_WR | CMD_RESP_MARKED, sizeof in, 0);
    wait_counter(&p, 0, 0x1, 1);
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    run_ok(c);
    cr_assert_eq(memcmp(a->l1 + 0x40000, in, sizeof in), 0);
    cr_assert(chip_dram_read(c, 9, 11, 0x800, out, sizeof out)); /* (9, 11) is bank 4 */
    cr_assert_neq(memcmp(out, in, sizeof in), 0);
    cr_assert(chip_dram_read(c, 9, 3, 0x800, out, sizeof out)); /* (9, 3): bank 5 as (9, 2) */
    cr_assert_eq(memcmp(out, in, sizeof in), 0);
    chip_destroy(c);
}

Test(chip, multicast_reaches_every_tile_and_is_acknowledged_by_each)
{
    struct chip *c = bh_chip(1);
    struct tile *a = add(c, 1, 2);
    struct tile *r[3] = {add(c, 2, 2), add(c, 3, 2), add(c, 4, 3)};
    fill(a, 0x20000, 512, 5);
    struct prog p = prog_at(a, 0x6000);
    /* the rectangle (2, 2)..(4, 3): end x, y in [11:0], start x, y in [23:12] */
    command(&p, 0, 0x20000, XY(1, 2), 0x30000, XY(4, 3) | XY(2, 2) << 12,
            CMD_WR | CMD_RESP_MARKED | CMD_BRCST_PACKET, 512, 0);
    wait_counter(&p, 0, 0x1, 6); /* six Tensix tiles, three of them not simulated */
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    run_ok(c);
    for (unsigned i = 0; i < 3; i++)
        cr_assert_eq(memcmp(r[i]->l1 + 0x30000, a->l1 + 0x20000, 512), 0, "receiver %u", i);
    cr_assert_eq(a->niu.st.rx_packets, 6);
    chip_destroy(c);
}

Test(chip, atomic_increments_from_two_tiles)
{
    struct chip *c = bh_chip(1);
    struct tile *s[2] = {add(c, 1, 2), add(c, 5, 7)};
    struct tile *d = add(c, 3, 4);
    for (unsigned i = 0; i < 2; i++) {
        struct prog p = prog_at(s[i], 0x6000);
        unsigned x = i ? 5 : 1, y = i ? 7 : 2;
        /* INCR_GET (1 << 12), 32 bits (IntWidth 31 << 2), Ofs 1: the word at 0x30004; the
         * result to 0x30100 here, non-posted (BH NoC/Atomics.md) */
        command(&p, 0, 0x30004, XY(3, 4), 0x30100, XY(x, y), CMD_AT | CMD_RESP_MARKED,
                1u << 12 | 31u << 2 | 1u, 5 + i);
        wait_counter(&p, 0, 0x0 /* ATOMIC_RESP_RECEIVED */, 1);
        emit_exit(&p);
        tile_start_core(s[i], CORE_BRISC, 0x6000);
    }
    struct prog p = prog_at(d, 0x6000);
    wait_word(&p, 0x30004, 100 + 11);
    emit_exit(&p);
    uint32_t v = 100;
    memcpy(d->l1 + 0x30004, &v, 4);
    tile_start_core(d, CORE_BRISC, 0x6000);
    run_ok(c);
    uint32_t r0, r1;
    memcpy(&r0, s[0]->l1 + 0x30100, 4);
    memcpy(&r1, s[1]->l1 + 0x30100, 4);
    /* Each got the value before its own increment: 100 and 105, or 100 and 106. */
    cr_assert((r0 == 100 && r1 == 105) || (r1 == 100 && r0 == 106), "%u %u", r0, r1);
    chip_destroy(c);
}

Test(chip, request_to_a_missing_tile_stops_the_run)
{
    struct chip *c = bh_chip(1);
    struct tile *a = add(c, 1, 2);
    struct prog p = prog_at(a, 0x6000);
    command(&p, 0, 0x20000, XY(1, 2), 0x30000, XY(6, 6), CMD_WR, 64, 0);
    wait_counter(&p, 0, 0x1, 1); /* never comes */
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    cr_assert_eq(chip_run(c), ERR_BAD_ACCESS);
    /* The command's cycle is in the text; the error is dated where the tile stood when the
     * chip found it, the end of that 10-cycle window. */
    char want[160];
    snprintf(want, sizeof want, "NoC 0 posted write from (1, 2) to (6, 6): no tile there (the run adds "
             "only the tiles it names) (cycle %llu)", (unsigned long long)a->niu.st.last_tx);
    cr_assert_str_eq(a->err.text, want);
    cr_assert_eq(a->err.cycle, (a->niu.st.last_tx / 10 + 1) * 10);
    chip_destroy(c);
}

Test(chip, add_tile_refuses_what_is_not_a_free_tensix_tile)
{
    struct chip *c = bh_chip(1);
    const char *why = 0;
    cr_assert_null(chip_add_tile(c, 0, 0, &why));
    cr_assert_str_eq(why, "(0, 0) is a DRAM tile, not a Tensix tile");
    cr_assert_null(chip_add_tile(c, 2, 0, &why));
    cr_assert_str_eq(why, "(2, 0) is a PCIe tile, not a Tensix tile");
    cr_assert_null(chip_add_tile(c, 17, 2, &why));
    cr_assert_str_eq(why, "(17, 2) is outside the 17 x 12 grid");
    add(c, 4, 4);
    cr_assert_null(chip_add_tile(c, 4, 4, &why));
    cr_assert_str_eq(why, "a tile is already at (4, 4)");
    chip_destroy(c);
}

/* Six tiles each write a block to every other and count the writes that reached them with an
 * atomic increment, then wait for five; run at 1, 2 and 8 host threads. */
static void all_to_all(unsigned threads, uint64_t *cycles, uint32_t *sums)
{
    static const unsigned at[6][2] = {{1, 2}, {2, 2}, {5, 3}, {7, 9}, {10, 2}, {16, 11}};
    struct chip *c = bh_chip(threads);
    struct tile *t[6];
    for (unsigned i = 0; i < 6; i++)
        t[i] = add(c, at[i][0], at[i][1]);
    for (unsigned i = 0; i < 6; i++) {
        fill(t[i], 0x20000, 1024, 10 + i);
        struct prog p = prog_at(t[i], 0x6000);
        for (unsigned j = 0; j < 6; j++) {
            if (j == i)
                continue;
            const unsigned noc = (i + j) & 1;
            const unsigned x = noc ? 16 - at[j][0] : at[j][0], y = noc ? 11 - at[j][1] : at[j][1];
            const unsigned mx = noc ? 16 - at[i][0] : at[i][0], my = noc ? 11 - at[i][1] : at[i][1];
            command(&p, noc, 0x20000, XY(mx, my), 0x30000 + 0x400 * i, XY(x, y),
                    CMD_WR | CMD_RESP_MARKED, 1024, 0);
            command(&p, noc, 0x38000, XY(x, y), 0x38100, XY(mx, my), CMD_AT | CMD_RESP_MARKED,
                    1u << 12 | 31u << 2, 1);
        }
        wait_word(&p, 0x38000, 5);
        emit_exit(&p);
        tile_start_core(t[i], CORE_BRISC, 0x6000);
    }
    run_ok(c);
    for (unsigned i = 0; i < 6; i++) {
        cycles[i] = t[i]->cycles;
        uint32_t s = 0;
        for (unsigned k = 0; k < 0x2000; k += 4) {
            uint32_t v;
            memcpy(&v, t[i]->l1 + 0x30000 + k, 4);
            s = s * 31 + v;
        }
        sums[i] = s;
        for (unsigned j = 0; j < 6; j++)
            if (j != i)
                cr_assert_eq(memcmp(t[i]->l1 + 0x30000 + 0x400 * j, t[j]->l1 + 0x20000, 1024), 0,
                             "%u from %u", i, j);
    }
    chip_destroy(c);
}

Test(chip, all_to_all_is_the_same_at_any_thread_count)
{
    uint64_t c1[6], c2[6], c8[6];
    uint32_t s1[6], s2[6], s8[6];
    all_to_all(1, c1, s1);
    all_to_all(2, c2, s2);
    all_to_all(8, c8, s8);
    for (unsigned i = 0; i < 6; i++) {
        cr_assert_eq(c1[i], c2[i], "tile %u", i);
        cr_assert_eq(c1[i], c8[i], "tile %u", i);
        cr_assert_eq(s1[i], s2[i]);
        cr_assert_eq(s1[i], s8[i]);
    }
}

/* Wormhole: command buffer registers 0x400 apart with NOC_CMD_CTRL at +0x28 and the coordinates
 * in *_MID from bit 4 (tt-metal wormhole/noc_parameters.h); 32-byte flits, so a 64-byte write is
 * two data flits behind its header. */
Test(chip, wormhole_unicast_write)
{
    struct chip *c = chip_create(arch_get(ARCH_WORMHOLE));
    cr_assert(c);
    chip_sim(c)->pin = false;
    chip_sim(c)->max_cycles = 100000;
    struct tile *a = add(c, 1, 1), *b = add(c, 2, 1);
    const char *why;
    cr_assert_null(chip_add_tile(c, 5, 3, &why));
    cr_assert_str_eq(why, "(5, 3) is a DRAM tile, not a Tensix tile");
    fill(a, 0x20000, 64, 6);
    struct prog p = prog_at(a, 0x6000);
    emit_store(&p, NOC0 + 0x00, 0x20000);          /* TARG_LO: the data here */
    emit_store(&p, NOC0 + 0x04, XY(1, 1) << 4);    /* TARG_MID: this tile (the acknowledgement's) */
    emit_store(&p, NOC0 + 0x0C, 0x30000);          /* RET_LO */
    emit_store(&p, NOC0 + 0x10, XY(2, 1) << 4);    /* RET_MID: the destination */
    emit_store(&p, NOC0 + 0x1C, CMD_WR);           /* NOC_CTRL: a posted write */
    emit_store(&p, NOC0 + 0x20, 64);               /* NOC_AT_LEN_BE */
    emit_store(&p, NOC0 + 0x28, 1);                /* NOC_CMD_CTRL */
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    run_ok(c);
    cr_assert_eq(memcmp(b->l1 + 0x30000, a->l1 + 0x20000, 64), 0);
    cr_assert_eq(b->niu.st.last_rx - a->niu.st.last_tx, 5 + 9 + 5 + 2);
    chip_destroy(c);
}

/* Review: a window must start no later than an arrival the exchange has just given a tile that
 * is still running. Tile (1, 2) reads 2 KiB from DRAM (a NoC event far ahead), then 64 bytes of
 * its own L1 over the NoC, and sits in a long division while the read arrives and is answered;
 * a window that started after the arrival sent the answer late, and it arrived in the tile's
 * past (the chip stops such a run with an internal error). */
Test(chip, arrivals_during_a_long_instruction_are_answered_in_time)
{
    for (unsigned kk = 8; kk < 16; kk++)
        for (unsigned d = 0; d < 14; d++) {
            struct chip *c = bh_chip(1);
            struct tile *a = add(c, 1, 2);
            fill(a, 0x50000, 64, 4);
            struct prog p = prog_at(a, 0x6000);
            command(&p, 0, 0x100, XY(9, 2), 0x40000, XY(1, 2), 0, 2048, 0);
            for (unsigned k = 0; k < d; k++)
                emit(&p, 0x00000013); /* nop */
            command(&p, 0, 0x50000, XY(1, 2), 0x41000, XY(1, 2), 0, 64, 0);
            emit_li(&p, 10, 1u << kk);
            emit_li(&p, 11, 3);
            E(&p, DIV, 12, 10, 11, 0);
            wait_counter(&p, 0, 0x2, 2);
            emit_exit(&p);
            tile_start_core(a, CORE_BRISC, 0x6000);
            run_ok(c);
            cr_assert_eq(memcmp(a->l1 + 0x41000, a->l1 + 0x50000, 64), 0);
            chip_destroy(c);
        }
}

/* Review: an inline write to DRAM merges only its enabled bytes, as one to a tile's L1 does. */
Test(chip, inline_writes_honour_byte_enables_in_dram_and_l1)
{
    struct chip *c = bh_chip(1);
    struct tile *a = add(c, 1, 2), *b = add(c, 2, 2);
    const uint32_t old = 0x11223344u;
    cr_assert(chip_dram_write(c, 0, 2, 0x100, &old, 4));
    memcpy(b->l1 + 0x100, &old, 4);
    struct prog p = prog_at(a, 0x6000);
    command(&p, 0, 0x100, XY(0, 2), 0, 0, CMD_WR | 0x8 /* NOC_CMD_WR_INLINE */, 0x1, 0xAABBCCDDu);
    command(&p, 0, 0x100, XY(2, 2), 0, 0, CMD_WR | 0x8, 0x1, 0xAABBCCDDu);
    emit_exit(&p);
    tile_start_core(a, CORE_BRISC, 0x6000);
    run_ok(c);
    uint32_t v = 0, w = 0;
    cr_assert(chip_dram_read(c, 0, 2, 0x100, &v, 4));
    memcpy(&w, b->l1 + 0x100, 4);
    cr_assert_eq(w, 0x112233DDu, "L1 0x%08x", w);
    cr_assert_eq(v, 0x112233DDu, "DRAM 0x%08x", v);
    chip_destroy(c);
}

/* Review: a cycle limit inside a long instruction ends a sim_run where tile_run alone ends
 * (the last window must not run past max_cycles). */
Test(chip, sim_cycle_limit_ends_where_a_tile_alone_does)
{
    for (uint64_t maxc = 40; maxc < 120; maxc++) {
        struct sim s = {0};
        s.threads = 1;
        s.max_cycles = maxc;
        struct tile *t = sim_add_tile(&s, arch_get(ARCH_BLACKHOLE)), *u = test_tile(ARCH_BLACKHOLE);
        t->out = t->errout = 0;
        struct tile *both[2] = {t, u};
        for (unsigned i = 0; i < 2; i++) {
            struct prog p = prog_at(both[i], 0x6000);
            emit_li(&p, 10, 0x7fffffff);
            emit_li(&p, 11, 3);
            for (unsigned k = 0; k < 20; k++)
                E(&p, DIV, 12 + (k & 3), 10, 11, 0);
            emit_exit(&p);
            tile_start_core(both[i], CORE_BRISC, 0x6000);
        }
        sim_run(&s, 10);
        tile_run(u, maxc);
        cr_assert_eq(t->core[CORE_BRISC].st.instret, u->core[CORE_BRISC].st.instret, "max %llu",
                     (unsigned long long)maxc);
        cr_assert_eq(t->cycles, u->cycles, "max %llu", (unsigned long long)maxc);
        tile_destroy(u);
        sim_destroy(&s);
    }
}
