/* riscv/sdk/dataflow.h on one tile (test/test_dataflow.c): with no chip around it, requests go to
 * the NIU's outbox and are never answered, so this checks what a lone tile can: NOC_NODE_ID as
 * df_my_x / df_my_y read it (a Blackhole tile alone sits at NoC 0 (1, 2), NoC 1 (15, 9)), the
 * NoC addresses the helpers build, the registers each request leaves in its command buffer
 * (against tt-metal's encodings: noc_parameters.h, noc_nonblocking_api.h), and the NIU's
 * counters against the header's counts of issued requests. Exit code = the failed check. */
#include <stdio.h>

#include "dataflow.h"

static int fails;

static void check(int code, const char *what, uint32_t got, uint32_t want)
{
    if (got != want && !fails) {
        printf("dataflow-node: %s: 0x%08lx, expected 0x%08lx\n", what, (unsigned long)got, (unsigned long)want);
        fails = code;
    }
}

static uint32_t reg(unsigned noc, unsigned buf, uint32_t off) { return *df_reg(noc, buf, off); }

int main(void)
{
    df_init();
    check(1, "df_my_x", df_my_x(), 1);
    check(2, "df_my_y", df_my_y(), 2);
    check(3, "NoC 1 x", df_node_id(1) & 63u, 15);
    check(4, "NoC 1 y", df_node_id(1) >> 6 & 63u, 9);
    check(5, "grid width", df_node_id(0) >> 12 & 127u, 17);
    check(6, "grid height", df_node_id(0) >> 19 & 127u, 12);
    check(7, "counters at start", df_counter(0, DF_NIU_MST_CMD_ACCEPTED), 0);

    /* NOC_XY_ADDR(2, 2, 0x30000) = 0x30000 | 2 << 36 | 2 << 42; on NoC 1 (14, 9). */
    check(10, "df_noc_addr hi", (uint32_t)(df_noc_addr(2, 2, 0x30000, 0) >> 32), 2u << 4 | 2u << 10);
    check(11, "df_noc_addr NoC 1", (uint32_t)(df_noc_addr(2, 2, 0x30000, 1) >> 36), 14u | 9u << 6);
    /* Rectangle (2, 2)..(4, 3): end 4 | 3 << 6, start (2 | 2 << 6) << 12; on NoC 1 the mirrored
     * corners swap: start (12, 8), end (14, 9). */
    check(12, "multicast NoC 0", (uint32_t)(df_noc_multicast_addr(2, 2, 4, 3, 0, 0) >> 36),
          4u | 3u << 6 | (2u | 2u << 6) << 12);
    check(13, "multicast NoC 1", (uint32_t)(df_noc_multicast_addr(2, 2, 4, 3, 0, 1) >> 36),
          14u | 9u << 6 | (12u | 8u << 6) << 12);
    check(14, "DRAM bank 5", (uint32_t)(df_dram_addr(5, 0, 0) >> 36), 9u | 2u << 6);

    /* A write: NOC_CTRL = WR | RESP_MARKED | VC_STATIC | STATIC_VC(1) = 0x2092; the data's
     * source and the acknowledgement's destination in TARG (this tile, 0x81); the destination
     * in RET. */
    df_write(0x21000, df_noc_addr(2, 2, 0x30000, 0), 64, 0);
    check(20, "write NOC_CTRL", reg(0, DF_WR_BUF, DF_CTRL), 0x2092);
    check(21, "write TARG_LO", reg(0, DF_WR_BUF, DF_TARG_ADDR_LO), 0x21000);
    check(22, "write TARG_HI", reg(0, DF_WR_BUF, DF_TARG_ADDR_HI), 0x81);
    check(23, "write RET_LO", reg(0, DF_WR_BUF, DF_RET_ADDR_LO), 0x30000);
    check(24, "write RET_MID", reg(0, DF_WR_BUF, DF_RET_ADDR_MID), 0);
    check(25, "write RET_HI", reg(0, DF_WR_BUF, DF_RET_ADDR_HI), 0x82);
    check(26, "write length", reg(0, DF_WR_BUF, DF_AT_LEN_BE), 64);
    check(27, "NONPOSTED_WR_REQ_SENT", df_counter(0, DF_NIU_MST_NONPOSTED_WR_REQ_SENT), df_nonposted_writes_issued[0]);
    df_writes_flushed(0); /* sent at once: returns */

    /* A multicast to (2, 2)..(4, 3), 6 receivers: + BRCST_PACKET | PATH_RESERVE, VC 4. */
    df_write_multicast(0x21000, df_noc_multicast_addr(2, 2, 4, 3, 0x30000, 0), 128, 6, 0);
    check(30, "multicast NOC_CTRL", reg(0, DF_WR_BUF, DF_CTRL), 0x2u | 0x10u | 0x80u | 4u << 13 | 0x20u | 0x100u);
    check(31, "multicast RET_HI", reg(0, DF_WR_BUF, DF_RET_ADDR_HI), 4u | 3u << 6 | (2u | 2u << 6) << 12);
    check(32, "acks expected", df_nonposted_writes_acked[0], 7);
    df_write_multicast_loopback(0x21000, df_noc_multicast_addr(1, 2, 4, 3, 0x30000, 0), 128, 8, 0);
    check(33, "loopback NOC_CTRL", reg(0, DF_WR_BUF, DF_CTRL), 0x2u | 0x10u | 0x80u | 4u << 13 | 0x20u | 0x100u | 1u << 17);

    /* A read from DRAM bank 1 (tile (0, 2)): RD | RESP_MARKED | VC_STATIC | STATIC_VC(1); the
     * source in TARG, the return address (this tile) in RET. */
    df_read(df_noc_addr(0, 2, 0x1000, 0), 0x22000, 256, 0);
    check(40, "read NOC_CTRL", reg(0, DF_RD_BUF, DF_CTRL), 0x2090);
    check(41, "read TARG_HI", reg(0, DF_RD_BUF, DF_TARG_ADDR_HI), 0u | 2u << 6);
    check(42, "read RET_HI", reg(0, DF_RD_BUF, DF_RET_ADDR_HI), 0x81);
    check(43, "read RET_LO", reg(0, DF_RD_BUF, DF_RET_ADDR_LO), 0x22000);
    check(44, "RD_REQ_SENT", df_counter(0, DF_NIU_MST_RD_REQ_SENT), df_reads_issued[0]);
    /* 20 KiB: two requests, split at 16 KiB. */
    df_read(df_noc_addr(0, 2, 0x1000, 0), 0x22000, 20480, 0);
    check(45, "split read", df_counter(0, DF_NIU_MST_RD_REQ_SENT), 3);
    check(46, "split read's last length", reg(0, DF_RD_BUF, DF_AT_LEN_BE), 4096);

    /* An atomic increment of (3, 3)'s 0x20104: AT | RESP_MARKED | VC_STATIC | STATIC_VC(1);
     * NOC_AT_LEN_BE = INCR_GET << 12 | 31 << 2 | Ofs 1 (the word at 0x4 in its line). */
    df_sem_inc(df_noc_addr(3, 3, 0x20104, 0), 5, 0);
    check(50, "atomic NOC_CTRL", reg(0, DF_AT_BUF, DF_CTRL), 0x2091);
    check(51, "atomic AT_LEN_BE", reg(0, DF_AT_BUF, DF_AT_LEN_BE), 0x1000u | 31u << 2 | 1u);
    check(52, "atomic AT_DATA", reg(0, DF_AT_BUF, DF_AT_DATA), 5);
    check(53, "atomic TARG_HI", reg(0, DF_AT_BUF, DF_TARG_ADDR_HI), 3u | 3u << 6);
    check(54, "atomic RET_LO", reg(0, DF_AT_BUF, DF_RET_ADDR_LO), (uint32_t)(uintptr_t)&df_atomic_ret[0][0]);
    check(55, "atomic RET_HI", reg(0, DF_AT_BUF, DF_RET_ADDR_HI), 0x81);
    check(56, "NONPOSTED_ATOMIC_SENT", df_counter(0, DF_NIU_MST_NONPOSTED_ATOMIC_SENT), 1);

    /* An inline word on Blackhole: a 4-byte write from this core's line, at the destination's
     * offset in it (0x2010C: word 3). */
    df_inline_dw_write(df_noc_addr(3, 3, 0x2010C, 0), 0xCAFE, 0);
    check(60, "inline source word", df_inline_src[0][3], 0xCAFE);
    check(61, "inline TARG_LO", reg(0, DF_WR_BUF, DF_TARG_ADDR_LO), (uint32_t)(uintptr_t)&df_inline_src[0][3]);
    check(62, "inline length", reg(0, DF_WR_BUF, DF_AT_LEN_BE), 4);
    check(63, "writes sent", df_counter(0, DF_NIU_MST_NONPOSTED_WR_REQ_SENT), 4);

    /* NoC 1 uses its own NIU and coordinates: this tile is (15, 9) there. */
    df_write(0x21000, df_noc_addr(2, 2, 0x30000, 1), 64, 1);
    check(70, "NoC 1 TARG_HI", reg(1, DF_WR_BUF, DF_TARG_ADDR_HI), 15u | 9u << 6);
    check(71, "NoC 1 RET_HI", reg(1, DF_WR_BUF, DF_RET_ADDR_HI), 14u | 9u << 6);
    check(72, "NoC 1 counter", df_counter(1, DF_NIU_MST_NONPOSTED_WR_REQ_SENT), 1);
    check(73, "NoC 0 untouched", df_counter(0, DF_NIU_MST_NONPOSTED_WR_REQ_SENT), 4);

    if (!fails)
        printf("dataflow-node: ok\n");
    return fails;
}
