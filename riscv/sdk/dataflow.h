/* Moving data between tiles over the NoC: the SDK's dataflow layer (docs/sdk.md "Dataflow
 * between tiles"). C, header only, for BRISC and NCRISC (TRISCs can use it too: nothing here
 * needs the coprocessor).
 *
 * What it drives: the tile's two NIUs (NoC interface units) at 0xFFB20000 (NoC 0) and 0xFFB30000
 * (NoC 1), each with four command buffers and a block of counters (mem/niu.c models them).
 * A request is made by filling a command buffer's registers and storing 1 to its NOC_CMD_CTRL;
 * completion is learnt by comparing the NIU's counters with counts this core keeps of what it
 * issued, as tt-metal's barriers do.
 *
 * Facts taken from (none of their code or text is copied):
 *   tt-isa-documentation BlackholeA0/NoC/MemoryMap.md (registers, NOC_CTRL bits, which of
 *     TARG/RET means what per request type, the coordinate word of a broadcast, wrapping
 *     rectangles, the Blackhole bug that makes inline writes to L1 unsafe), Counters.md (what
 *     each counter counts and when), Atomics.md (the increment's NOC_AT_LEN_BE fields: Ofs [1:0],
 *     IntWidth [6:2], opcode [15:12] = 1), Coordinates.md (NoC 1 runs the other way round);
 *   tt-metal tt_metal/hw/inc/internal/tt-1xx/blackhole/noc/noc_parameters.h (offsets, command-
 *     buffer stride, 36-bit local part of a 64-bit NoC address, 6-bit node ids),
 *     .../blackhole/noc_nonblocking_api.h (the registers each request writes, the per-NoC
 *     counts of issued requests and the counter each barrier compares them with, the command
 *     buffers BRISC and NCRISC use in "dedicated" mode, the inline-write emulation on
 *     Blackhole, atomics forced non-posted), tt_metal/hw/inc/dataflow_api.h (semantics of
 *     noc_async_read/write/write_multicast[_loopback_src], the barriers, noc_semaphore_*,
 *     noc_inline_dw_write; unicast writes on VC 1, multicasts on VC 4).
 *
 * Rules (docs/sdk.md says why):
 *   - Coordinates given to this header are NoC 0 coordinates (those of the run description's
 *     "at"); df_noc_addr and df_noc_multicast_addr turn them into the chosen NoC's own.
 *   - Each NIU of a tile is used by one core only (BRISC on NoC 0 and NCRISC on NoC 1, say):
 *     the NIU's counters are per NIU, the issued-request counts per core.
 *   - Addresses: L1 source and destination 16-byte aligned (or with equal offsets mod 16),
 *     DRAM ones 64-byte aligned; lengths any multiple of 4 (requests over 16 KiB are split).
 *   - Polled words are read with a fence first (Blackhole's L0 data cache is not coherent):
 *     df_sem_wait does it; after each barrier the cache is flushed too.
 *
 * Build for Wormhole with -DTENSIM_ARCH_WH (register offsets, command-buffer stride, grid and the
 * coordinates' place in NOC_*_ADDR_MID differ); Blackhole is the default and the one the
 * examples run on. */
#ifndef TENSIM_SDK_DATAFLOW_H
#define TENSIM_SDK_DATAFLOW_H

#include <stdint.h>

#include "tensim.h"

/* ---- the NIU's registers ---------------------------------------------------------------- */

#define DF_NIU_BASE 0xFFB20000u /* NoC 0's NIU; NoC 1's is DF_NIU_SPAN above */
#define DF_NIU_SPAN 0x10000u
#define DF_COUNTERS 0x200u /* NOC_STATUS(0): the counters, one word each */

/* Offsets inside a command buffer. */
#define DF_TARG_ADDR_LO 0x00u
#define DF_TARG_ADDR_MID 0x04u
#define DF_RET_ADDR_LO 0x0Cu
#define DF_RET_ADDR_MID 0x10u
#define DF_PACKET_TAG 0x18u
#define DF_CTRL 0x1Cu /* NOC_CTRL */
#define DF_AT_LEN_BE 0x20u
#ifdef TENSIM_ARCH_WH
#define DF_CMD_BUF_STRIDE 0x400u
#define DF_AT_DATA 0x24u
#define DF_CMD_CTRL 0x28u
#define DF_NODE_ID 0x2Cu
#define DF_GRID_W 10u
#define DF_GRID_H 12u
#else
#define DF_CMD_BUF_STRIDE 0x800u
#define DF_TARG_ADDR_HI 0x08u /* Blackhole: the coordinates live in *_HI */
#define DF_RET_ADDR_HI 0x14u
#define DF_AT_DATA 0x28u
#define DF_CMD_CTRL 0x40u
#define DF_NODE_ID 0x44u
#define DF_GRID_W 17u
#define DF_GRID_H 12u
#endif

/* Counter indices (NOC_STATUS(i); BlackholeA0/NoC/Counters.md, the same on Wormhole). */
#define DF_NIU_MST_ATOMIC_RESP_RECEIVED 0x0u
#define DF_NIU_MST_WR_ACK_RECEIVED 0x1u
#define DF_NIU_MST_RD_RESP_RECEIVED 0x2u
#define DF_NIU_MST_CMD_ACCEPTED 0x4u
#define DF_NIU_MST_RD_REQ_SENT 0x5u
#define DF_NIU_MST_NONPOSTED_ATOMIC_SENT 0x6u
#define DF_NIU_MST_NONPOSTED_WR_REQ_SENT 0xAu
#define DF_NIU_MST_POSTED_WR_REQ_SENT 0xBu

/* NOC_CTRL fields (MemoryMap.md "NOC_CTRL"). */
#define DF_CMD_RD 0x0u
#define DF_CMD_AT 0x1u
#define DF_CMD_WR 0x2u
#define DF_CMD_WR_INLINE (1u << 3)
#define DF_CMD_RESP_MARKED (1u << 4) /* non-posted: an acknowledgement / response comes back */
#define DF_CMD_BRCST_PACKET (1u << 5)
#define DF_CMD_VC_STATIC (1u << 7)
#define DF_CMD_PATH_RESERVE (1u << 8)
#define DF_CMD_STATIC_VC(vc) ((uint32_t)(vc) << 13) /* buddy bit 13, class bits 15:14 */
#define DF_CMD_BRCST_SRC_INCLUDE (1u << 17)

/* Virtual channels as tt-metal uses them: unicast requests on 1, multicasts on 4 (class 0b10,
 * which MemoryMap.md requires of multicast requests). */
#define DF_UNICAST_VC 1u
#define DF_MULTICAST_VC 4u

/* Atomic increment (Atomics.md): opcode 1 in [15:12], IntWidth in [6:2] (31: all 32 bits wrap
 * together), Ofs in [1:0] (the word inside the 16-byte line: the target's own, so the
 * response returns the value before the increment). */
#define DF_AT_INCR_GET 1u
#define DF_AT_LEN_INCR(addr, width) (DF_AT_INCR_GET << 12 | (uint32_t)(width) << 2 | (((uint32_t)(addr) >> 2) & 3u))

/* Command buffers, as tt-metal's BRISC and NCRISC use them in dedicated-NoC mode: large writes,
 * reads, small writes (semaphores, inline words), atomics. */
#define DF_WR_BUF 0u
#define DF_RD_BUF 1u
#define DF_WR_REG_BUF 2u
#define DF_AT_BUF 3u

/* One packet's largest payload (NOC_MAX_BURST_SIZE: 256 flits of 64 bytes; Wormhole 32). */
#ifdef TENSIM_ARCH_WH
#define DF_MAX_BURST 8192u
#else
#define DF_MAX_BURST 16384u
#endif

/* A 64-bit NoC address: the local address in bits 35:0, the node above it (NOC_XY_ADDR:
 * x at bit 36, y at bit 42; a multicast's end x, end y, start x, start y from bit 36, 6 bits
 * each). */
#define DF_LOCAL_BITS 36u
#define DF_LOCAL_MASK ((1ull << DF_LOCAL_BITS) - 1u)

static inline volatile uint32_t *df_reg(unsigned noc, unsigned buf, uint32_t off)
{
    return (volatile uint32_t *)(uintptr_t)(DF_NIU_BASE + noc * DF_NIU_SPAN + buf * DF_CMD_BUF_STRIDE + off);
}

/* NIU counter `i` of `noc` (read-only). */
static inline uint32_t df_counter(unsigned noc, unsigned i)
{
    return *(volatile uint32_t *)(uintptr_t)(DF_NIU_BASE + noc * DF_NIU_SPAN + DF_COUNTERS + 4u * i);
}

/* NOC_CMD_CTRL reads 0 once the buffer has sent its request and may be filled again. */
static inline int df_cmd_buf_ready(unsigned noc, unsigned buf) { return *df_reg(noc, buf, DF_CMD_CTRL) == 0; }

static inline void df_wait_cmd_buf(unsigned noc, unsigned buf)
{
    while (!df_cmd_buf_ready(noc, buf))
        ;
}

/* ---- where this tile is ----------------------------------------------------------------- */

/* NOC_NODE_ID of `noc`: x [5:0], y [11:6] in that NoC's own coordinates, the grid's size above. */
static inline uint32_t df_node_id(unsigned noc) { return *df_reg(noc, 0, DF_NODE_ID); }

/* This tile's NoC 0 coordinates (the ones every function here takes). */
static inline unsigned df_my_x(void) { return df_node_id(0) & 63u; }
static inline unsigned df_my_y(void) { return df_node_id(0) >> 6 & 63u; }

/* The coordinate word (x | y << 6) of NoC 0 position (x, y) on `noc`: NoC 1 numbers the grid
 * from the opposite corner (Coordinates.md; the model does not translate coordinates). */
static inline uint32_t df_noc_xy(unsigned x, unsigned y, unsigned noc)
{
    if (noc) {
        x = DF_GRID_W - 1u - x;
        y = DF_GRID_H - 1u - y;
    }
    return (uint32_t)x | (uint32_t)y << 6;
}

/* ---- NoC addresses ---------------------------------------------------------------------- */

/* `addr` in the tile (or DRAM bank) at NoC 0 position (x, y), as `noc` addresses it. */
static inline uint64_t df_noc_addr(unsigned x, unsigned y, uint64_t addr, unsigned noc)
{
    return (uint64_t)df_noc_xy(x, y, noc) << DF_LOCAL_BITS | (addr & DF_LOCAL_MASK);
}

/* `addr` in every Tensix tile of the rectangle x0..x1, y0..y1 (NoC 0 coordinates, x0 <= x1,
 * y0 <= y1). On NoC 1 the mirrored corners swap roles, so that start <= end holds in NoC 1's
 * coordinates too: a start above the end would wrap round the grid (MemoryMap.md, broadcast
 * rectangles; Coordinates.md says software swaps them on NoC 1). */
static inline uint64_t df_noc_multicast_addr(unsigned x0, unsigned y0, unsigned x1, unsigned y1, uint64_t addr,
                                             unsigned noc)
{
    uint32_t start = df_noc_xy(noc ? x1 : x0, noc ? y1 : y0, noc);
    uint32_t end = df_noc_xy(noc ? x0 : x1, noc ? y0 : y1, noc);
    return (uint64_t)(end | start << 12) << DF_LOCAL_BITS | (addr & DF_LOCAL_MASK);
}

/* Blackhole's DRAM tiles (NoC 0 x 0 and 9, y 0..11; bank per row below, + 4 in column 9): each
 * of the three tiles of a bank reaches the same 4 GiB, from address 0. The bank's first tile. */
#ifndef TENSIM_ARCH_WH
static inline unsigned df_dram_bank_x(unsigned bank) { return bank < 4 ? 0u : 9u; }
static inline unsigned df_dram_bank_y(unsigned bank)
{
    static const uint8_t first_row[4] = {0, 2, 4, 5}; /* rows: 0 0 1 1 2 3 3 3 2 2 1 0 */
    return first_row[bank & 3u];
}
static inline uint64_t df_dram_addr(unsigned bank, uint64_t addr, unsigned noc)
{
    return df_noc_addr(df_dram_bank_x(bank), df_dram_bank_y(bank), addr, noc);
}
#endif

/* ---- what this core has issued ---------------------------------------------------------- */

/* Per NoC, as tt-metal keeps them (noc_reads_num_issued, noc_nonposted_writes_num_issued,
 * noc_nonposted_writes_acked, noc_nonposted_atomics_acked, noc_posted_writes_num_issued):
 * counts of what this core asked for, in the counters' terms, which the barriers compare with
 * the NIU's. Weak definitions, so that every file of a kernel that includes this header shares
 * one copy (in .bss, so in the core's L1 window). */
__attribute__((weak)) uint32_t df_reads_issued[2];
__attribute__((weak)) uint32_t df_nonposted_writes_issued[2];
__attribute__((weak)) uint32_t df_nonposted_writes_acked[2];
__attribute__((weak)) uint32_t df_nonposted_atomics_acked[2];
__attribute__((weak)) uint32_t df_posted_writes_issued[2];

/* L1 words of this core's own: where atomics return the old value, and the source words of
 * inline writes on Blackhole (one 16-byte line per NoC, so a word can sit at the destination's
 * offset in its line). */
__attribute__((weak, aligned(16))) uint32_t df_atomic_ret[2][4];
__attribute__((weak, aligned(16))) uint32_t df_inline_src[2][4];
/* This tile's coordinate word on each NoC (NOC_NODE_ID's x | y << 6), read once by df_init:
 * every request names this tile as where its data, response or acknowledgement goes back to,
 * and an NIU register load costs 7 cycles or more (tt-metal's noc_init programs it once too). */
__attribute__((weak)) uint32_t df_my_xy[2];

/* Call once, first thing, before any other function here: records this tile's coordinates
 * (df_my_xy) and starts the counts from the NIU's counters as they are (tt-metal's
 * noc_local_state_init; at power-on all are 0). */
static inline void df_init(void)
{
    for (unsigned n = 0; n < 2; n++) {
        df_my_xy[n] = df_node_id(n) & 0xFFFu;
        df_reads_issued[n] = df_counter(n, DF_NIU_MST_RD_RESP_RECEIVED);
        df_nonposted_writes_issued[n] = df_counter(n, DF_NIU_MST_NONPOSTED_WR_REQ_SENT);
        df_nonposted_writes_acked[n] = df_counter(n, DF_NIU_MST_WR_ACK_RECEIVED);
        df_nonposted_atomics_acked[n] = df_counter(n, DF_NIU_MST_ATOMIC_RESP_RECEIVED);
        df_posted_writes_issued[n] = df_counter(n, DF_NIU_MST_POSTED_WR_REQ_SENT);
    }
}

/* ---- filling a command buffer ----------------------------------------------------------- */

/* An address register triple (LO at `lo_off`) from a 64-bit NoC address. Blackhole: address
 * bits 35:32 in MID, the coordinate word in HI; Wormhole: MID holds both (bits 35:32, then the
 * coordinates from bit 4), which is the 64-bit address shifted down 32 bits. */
static inline void df_set_addr(unsigned noc, unsigned buf, uint32_t lo_off, uint64_t a)
{
    *df_reg(noc, buf, lo_off) = (uint32_t)a;
#ifdef TENSIM_ARCH_WH
    *df_reg(noc, buf, lo_off + 4u) = (uint32_t)(a >> 32);
#else
    *df_reg(noc, buf, lo_off + 4u) = (uint32_t)(a >> 32) & 0xFu;
    *df_reg(noc, buf, lo_off + 8u) = (uint32_t)(a >> DF_LOCAL_BITS) & 0xFFFFFFu;
#endif
}

/* A local L1 address as this tile's NoC address on `noc` (after df_init). */
static inline uint64_t df_local_noc_addr(uint32_t l1, unsigned noc)
{
    return (uint64_t)df_my_xy[noc] << DF_LOCAL_BITS | l1;
}

/* One write request of at most DF_MAX_BURST bytes (tt-metal ncrisc_noc_fast_write): the data
 * at `src` here goes to `dst`, the acknowledgement back to this NIU (TARG_ADDR's coordinates). */
static inline void df_write_packet(unsigned buf, uint32_t ctrl, uint32_t src, uint64_t dst, uint32_t size,
                                   uint32_t acks, unsigned noc)
{
    df_wait_cmd_buf(noc, buf);
    *df_reg(noc, buf, DF_CTRL) = ctrl;
    df_set_addr(noc, buf, DF_TARG_ADDR_LO, df_local_noc_addr(src, noc));
    df_set_addr(noc, buf, DF_RET_ADDR_LO, dst);
    *df_reg(noc, buf, DF_AT_LEN_BE) = size;
    *df_reg(noc, buf, DF_CMD_CTRL) = 1u;
    if (ctrl & DF_CMD_RESP_MARKED) {
        df_nonposted_writes_issued[noc] += 1;
        df_nonposted_writes_acked[noc] += acks;
    } else {
        df_posted_writes_issued[noc] += 1;
    }
}

static inline void df_write_any(unsigned buf, uint32_t ctrl, uint32_t src, uint64_t dst, uint32_t size,
                                uint32_t acks, unsigned noc)
{
    while (size > DF_MAX_BURST) {
        df_write_packet(buf, ctrl, src, dst, DF_MAX_BURST, acks, noc);
        src += DF_MAX_BURST;
        dst += DF_MAX_BURST;
        size -= DF_MAX_BURST;
    }
    df_write_packet(buf, ctrl, src, dst, size, acks, noc);
}

/* ---- requests --------------------------------------------------------------------------- */

/* noc_async_read: `size` bytes from NoC address `src` (another tile's L1, a DRAM bank) into L1
 * at `dst` here. Complete after df_read_barrier. */
static inline void df_read(uint64_t src, uint32_t dst, uint32_t size, unsigned noc)
{
    const uint32_t ctrl = DF_CMD_RD | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_UNICAST_VC);
    for (;;) {
        uint32_t n = size > DF_MAX_BURST ? DF_MAX_BURST : size;
        df_wait_cmd_buf(noc, DF_RD_BUF);
        *df_reg(noc, DF_RD_BUF, DF_CTRL) = ctrl;
        df_set_addr(noc, DF_RD_BUF, DF_RET_ADDR_LO, df_local_noc_addr(dst, noc));
        df_set_addr(noc, DF_RD_BUF, DF_TARG_ADDR_LO, src);
        *df_reg(noc, DF_RD_BUF, DF_AT_LEN_BE) = n;
        *df_reg(noc, DF_RD_BUF, DF_CMD_CTRL) = 1u;
        df_reads_issued[noc] += 1;
        if (n == size)
            return;
        src += n;
        dst += n;
        size -= n;
    }
}

/* noc_async_write: `size` bytes of L1 at `src` to NoC address `dst`, non-posted. The NIU reads
 * the source when the request goes out: reuse it after df_writes_flushed; the data has landed
 * after df_write_barrier. */
static inline void df_write(uint32_t src, uint64_t dst, uint32_t size, unsigned noc)
{
    df_write_any(DF_WR_BUF, DF_CMD_WR | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_UNICAST_VC),
                 src, dst, size, 1, noc);
}

/* noc_async_write_multicast: to every Tensix tile of the rectangle in `dst_mcast`
 * (df_noc_multicast_addr) except this one, which the NIU leaves out when it lies inside.
 * `num_dests` is the number of tiles that receive it: one acknowledgement comes from each. */
static inline void df_write_multicast(uint32_t src, uint64_t dst_mcast, uint32_t size, uint32_t num_dests,
                                      unsigned noc)
{
    df_write_any(DF_WR_BUF,
                 DF_CMD_WR | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_MULTICAST_VC) |
                     DF_CMD_BRCST_PACKET | DF_CMD_PATH_RESERVE,
                 src, dst_mcast, size, num_dests, noc);
}

/* noc_async_write_multicast_loopback_src: the same, with this tile among the receivers when it
 * lies in the rectangle (NOC_CMD_BRCST_SRC_INCLUDE); count it in `num_dests`. */
static inline void df_write_multicast_loopback(uint32_t src, uint64_t dst_mcast, uint32_t size, uint32_t num_dests,
                                               unsigned noc)
{
    df_write_any(DF_WR_BUF,
                 DF_CMD_WR | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_MULTICAST_VC) |
                     DF_CMD_BRCST_PACKET | DF_CMD_PATH_RESERVE | DF_CMD_BRCST_SRC_INCLUDE,
                 src, dst_mcast, size, num_dests, noc);
}

/* ---- barriers --------------------------------------------------------------------------- */

/* noc_async_read_barrier: every df_read of this core on `noc` has written its data here. */
static inline void df_read_barrier(unsigned noc)
{
    while (df_counter(noc, DF_NIU_MST_RD_RESP_RECEIVED) != df_reads_issued[noc])
        ;
    tensim_fence(); /* the data arrived behind the L0 cache's back */
}

/* noc_async_write_barrier: every non-posted write of this core on `noc` has been acknowledged
 * (by each receiver of a multicast): the data is in the destination's memory. */
static inline void df_write_barrier(unsigned noc)
{
    while (df_counter(noc, DF_NIU_MST_WR_ACK_RECEIVED) != df_nonposted_writes_acked[noc])
        ;
    tensim_fence();
}

/* noc_async_writes_flushed: every non-posted write has left this NIU, so its source in L1 may
 * be overwritten (its acknowledgement may still be on the way). */
static inline void df_writes_flushed(unsigned noc)
{
    while (df_counter(noc, DF_NIU_MST_NONPOSTED_WR_REQ_SENT) != df_nonposted_writes_issued[noc])
        ;
    tensim_fence();
}

/* noc_async_posted_writes_flushed: the same for posted writes (none of this header's functions
 * issue them; kept for completeness of the counts). */
static inline void df_posted_writes_flushed(unsigned noc)
{
    while (df_counter(noc, DF_NIU_MST_POSTED_WR_REQ_SENT) != df_posted_writes_issued[noc])
        ;
    tensim_fence();
}

/* noc_async_atomic_barrier: every df_sem_inc has been carried out and answered. */
static inline void df_atomic_barrier(unsigned noc)
{
    while (df_counter(noc, DF_NIU_MST_ATOMIC_RESP_RECEIVED) != df_nonposted_atomics_acked[noc])
        ;
    tensim_fence();
}

/* noc_async_full_barrier: all of the above. */
static inline void df_full_barrier(unsigned noc)
{
    df_read_barrier(noc);
    df_writes_flushed(noc);
    df_write_barrier(noc);
    df_atomic_barrier(noc);
    df_posted_writes_flushed(noc);
}

/* ---- semaphores: 32-bit words in L1 ----------------------------------------------------- */

/* noc_semaphore_inc: add `incr` to the word at NoC address `addr` (a Tensix tile's L1) as one
 * atomic step, 32 bits wrapping. Non-posted, as tt-metal makes every atomic on Blackhole; the
 * value before the increment comes back into df_atomic_ret[noc]. Done after df_atomic_barrier. */
static inline void df_sem_inc(uint64_t addr, uint32_t incr, unsigned noc)
{
    df_wait_cmd_buf(noc, DF_AT_BUF);
    *df_reg(noc, DF_AT_BUF, DF_CTRL) =
        DF_CMD_AT | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_UNICAST_VC);
    df_set_addr(noc, DF_AT_BUF, DF_TARG_ADDR_LO, addr);
    df_set_addr(noc, DF_AT_BUF, DF_RET_ADDR_LO, df_local_noc_addr((uint32_t)(uintptr_t)&df_atomic_ret[noc][0], noc));
    *df_reg(noc, DF_AT_BUF, DF_AT_LEN_BE) = DF_AT_LEN_INCR(addr, 31);
    *df_reg(noc, DF_AT_BUF, DF_AT_DATA) = incr;
    *df_reg(noc, DF_AT_BUF, DF_CMD_CTRL) = 1u;
    df_nonposted_atomics_acked[noc] += 1;
}

/* noc_semaphore_wait: until the local semaphore equals `val`. Each look is a fence and a load
 * (tensim_l1_poll): the NoC writes L1 behind the L0 data cache's back. */
static inline void df_sem_wait(volatile uint32_t *sem, uint32_t val)
{
    while (tensim_l1_poll(sem) != val)
        ;
}

/* noc_semaphore_wait_min: until it is at least `val` (unsigned). */
static inline void df_sem_wait_min(volatile uint32_t *sem, uint32_t val)
{
    while (tensim_l1_poll(sem) < val)
        ;
}

/* noc_semaphore_set: a plain local store. */
static inline void df_sem_set(volatile uint32_t *sem, uint32_t val) { *sem = val; }

/* noc_semaphore_set_remote: the 4-byte word at `src` here to `dst` (a non-posted write on the
 * small-writes buffer). */
static inline void df_sem_set_remote(uint32_t src, uint64_t dst, unsigned noc)
{
    df_write_packet(DF_WR_REG_BUF, DF_CMD_WR | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_UNICAST_VC),
                    src, dst, 4, 1, noc);
}

/* noc_semaphore_set_multicast (this tile left out) and ..._loopback_src (this tile included):
 * the 4-byte word at `src` to every tile of the rectangle; `num_dests` receivers. */
static inline void df_sem_set_multicast(uint32_t src, uint64_t dst_mcast, uint32_t num_dests, unsigned noc)
{
    df_write_packet(DF_WR_REG_BUF,
                    DF_CMD_WR | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_MULTICAST_VC) |
                        DF_CMD_BRCST_PACKET | DF_CMD_PATH_RESERVE,
                    src, dst_mcast, 4, num_dests, noc);
}

static inline void df_sem_set_multicast_loopback(uint32_t src, uint64_t dst_mcast, uint32_t num_dests, unsigned noc)
{
    df_write_packet(DF_WR_REG_BUF,
                    DF_CMD_WR | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_MULTICAST_VC) |
                        DF_CMD_BRCST_PACKET | DF_CMD_PATH_RESERVE | DF_CMD_BRCST_SRC_INCLUDE,
                    src, dst_mcast, 4, num_dests, noc);
}

/* ---- one word ------------------------------------------------------------------------------ */

/* noc_inline_dw_write: the 32-bit `val` to the 4-byte aligned NoC address `addr`, non-posted
 * (df_write_barrier waits for it). On Blackhole an inline write to L1 is unsafe (MemoryMap.md
 * "NOC_CMD_WR_INLINE"), so, as tt-metal does there, the word is put in L1 here first (at the
 * destination's offset in a 16-byte line) and sent as a 4-byte write; the writes before it
 * must have left so that its source word is free. Wormhole sends it inline. */
static inline void df_inline_dw_write(uint64_t addr, uint32_t val, unsigned noc)
{
#ifdef TENSIM_ARCH_WH
    df_wait_cmd_buf(noc, DF_WR_REG_BUF);
    *df_reg(noc, DF_WR_REG_BUF, DF_AT_DATA) = val;
    *df_reg(noc, DF_WR_REG_BUF, DF_CTRL) =
        DF_CMD_WR | DF_CMD_WR_INLINE | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_UNICAST_VC);
    df_set_addr(noc, DF_WR_REG_BUF, DF_TARG_ADDR_LO, addr);
    *df_reg(noc, DF_WR_REG_BUF, DF_AT_LEN_BE) = 0xFu << (addr & 31u); /* byte enables */
    *df_reg(noc, DF_WR_REG_BUF, DF_CMD_CTRL) = 1u;
    df_nonposted_writes_issued[noc] += 1;
    df_nonposted_writes_acked[noc] += 1;
#else
    volatile uint32_t *word = &df_inline_src[noc][(addr >> 2) & 3u];
    df_writes_flushed(noc);
    *word = val;
    df_write_packet(DF_WR_BUF, DF_CMD_WR | DF_CMD_RESP_MARKED | DF_CMD_VC_STATIC | DF_CMD_STATIC_VC(DF_UNICAST_VC),
                    (uint32_t)(uintptr_t)word, addr, 4, 1, noc);
    df_writes_flushed(noc);
#endif
}

#endif
