#include "arch.h"

#include <string.h>

#include "../units/unit.h"

/* Blackhole. Sources: spec/memory-map.md §1 and §6.2 (sizes, reset PCs), spec/sync-timing.md §1
 * (FIFO1 "29-32") and §16 (core timing), shared/calibration.md "RISC-V cores (BH, measured)". */
static const struct arch blackhole = {
    .id = ARCH_BLACKHOLE,
    .name = "blackhole",
    .l1_size = 1536 * 1024,
    .local_ram_size = {4096, 4096, 4096, 8192},
    .reset_pc = {0x6000, 0xA000, 0xE000, 0x0000},
    /* Blackhole's port map is not published: Wormhole's (WH:L1.md) is assumed. */
    .l1_port = {[CORE_TRISC0] = 0, [CORE_TRISC1] = 1, [CORE_TRISC2] = 1, [CORE_BRISC] = 0},
    .fifo1_depth = {32, 32, 32},
    .fifo1_accept_limit = 28,
    .ttinsn_fuse_max = 4,
    .has_zaamo = true,
    /* Blackhole's unpacker is not documented (the BlackholeA0 tree has no UNPACR page): these
     * three are calibrated on silicon's steady matmul unpack row (shared/calibration.md
     * "Whole-kernel figures", 37.5 cycles per row moving two BF16 tiles, 4 KiB, through
     * unpacker 0 and one through unpacker 1). That needs at least 122 bytes per cycle on
     * unpacker 0: 32 bytes per cycle at x1 (128 at x4, twice Wormhole's port), no slow-down
     * while unpacker 1 fetches, and each UNPACR's 2 start-up cycles after the previous fetch
     * (2 x (2 + 16) = 36 cycles per row). tensim gives 35.5 (-5 %); without the serial
     * start-up 30.5, with Wormhole's interference added 49.5 (docs/timing-model.md
     * "Whole-kernel figures"). */
    .unpack_reads_x1 = 2,
    .unpack_interference = false,
    .unpack_startup_serial = true,
    /* Calibrated (no Blackhole NOP or REPLAY page): silicon's unthrottled matmul tile-K, whose
     * replays hold 64 NOPs, costs 54 cycles, only 5 more than throttle0's 49 without them
     * (shared/calibration.md "Whole-kernel figures"); sync/replay.h. */
    .replay_skips_nops = true,
    /* BH:STALLWAIT.md: 13 condition bits, default 0x0F (C0-C3) */
    .stall_cond_bits = 13,
    .stall_cond_default = 0x0F,
    .stall_cond_map = {WC_THCON_MEM, WC_UNPACK0, WC_UNPACK1, WC_PACK0, WC_FPU, WC_SRCA_UNPACK,
                       WC_SRCB_UNPACK, WC_SRCA_FPU, WC_SRCB_FPU, WC_MOVER, WC_RISCV_MMIO, WC_SFPU,
                       WC_CFG},
    /* the timing parameters: core/timing.def */
#define TIMING(g, f, bh, wh, min, max, source, checked) .g.f = bh,
#include "timing.def"
#undef TIMING
};

/* Wormhole B0: spec/memory-map.md §1 (WH column), spec/sync-timing.md §1 (FIFO1 32/16/16) and §16. */
static const struct arch wormhole = {
    .id = ARCH_WORMHOLE,
    .name = "wormhole",
    .l1_size = 1464 * 1024,
    .local_ram_size = {2048, 2048, 2048, 4096},
    .reset_pc = {0x6000, 0xA000, 0xE000, 0x0000},
    /* WH:L1.md: B, NC, T0 share port #2; T1, T2 port #3 */
    .l1_port = {[CORE_TRISC0] = 0, [CORE_TRISC1] = 1, [CORE_TRISC2] = 1, [CORE_BRISC] = 0},
    .fifo1_depth = {32, 16, 16},
    .fifo1_accept_limit = 0, /* 0: plain FIFO, accepts while not full */
    .ttinsn_fuse_max = 1,
    .has_zaamo = false,
    /* WH:UNPACR_Regular.md "Performance": x1 = 16 bytes per cycle, and its interference table */
    .unpack_reads_x1 = 1,
    .unpack_interference = true,
    /* tensim's choice since the unpacker model was written: the next UNPACR's start-up
     * overlaps the previous fetch (WH:UNPACR_Regular.md "pipelined fashion") */
    .unpack_startup_serial = false,
    .replay_skips_nops = false, /* WH:NOP.md: a NOP delays its thread's next instruction */
    /* WH:STALLWAIT.md: 15 condition bits, default 0x7F (C0-C6) */
    .stall_cond_bits = 15,
    .stall_cond_default = 0x7F,
    .stall_cond_map = {WC_THCON_MEM, WC_UNPACK0, WC_UNPACK1, WC_PACK0, WC_PACK1, WC_PACK2,
                       WC_PACK3, WC_FPU, WC_SRCA_UNPACK, WC_SRCB_UNPACK, WC_SRCA_FPU, WC_SRCB_FPU,
                       WC_MOVER, WC_RISCV_MMIO, WC_SFPU},
    /* WH:L1.md: each packer "one 128-bit write per cycle, or one 128-bit atomic accumulate ...
     * every five cycles" (tensim takes the atomic form); no latency beyond the 2-cycle start-up
     * (PACK_STARTUP, tensim's choice): Wormhole has no silicon figure to calibrate one on. */
    /* the timing parameters: core/timing.def */
#define TIMING(g, f, bh, wh, min, max, source, checked) .g.f = wh,
#include "timing.def"
#undef TIMING
};

const struct arch *arch_get(enum arch_id id)
{
    return id == ARCH_WORMHOLE ? &wormhole : &blackhole;
}

const struct arch *arch_by_name(const char *name)
{
    if (!strcmp(name, "blackhole") || !strcmp(name, "bh"))
        return &blackhole;
    if (!strcmp(name, "wormhole") || !strcmp(name, "wh"))
        return &wormhole;
    return 0;
}

static const char *const core_names[NUM_CORES] = {"TRISC0", "TRISC1", "TRISC2", "BRISC"};

const char *core_name(int id) { return id >= 0 && id < NUM_CORES ? core_names[id] : "?"; }
