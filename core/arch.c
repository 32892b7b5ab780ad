#include "arch.h"

#include <string.h>

#include "../units/unit.h"

/* Blackhole. Sources: spec/memory-map.md §1 and §6.2 (sizes, reset PCs), spec/sync-timing.md §1
 * (FIFO1 "29-32") and §16 (core timing), shared/calibration.md "RISC-V cores (BH, measured)". */
static const struct arch blackhole = {
    .id = ARCH_BLACKHOLE,
    .name = "blackhole",
    .l1_size = 1536 * 1024,
    .local_ram_size = {4096, 4096, 4096, 8192, 8192},
    .reset_pc = {0x6000, 0xA000, 0xE000, 0x0000, 0x12000},
    /* Blackhole's port map is not published: Wormhole's (WH:L1.md) is assumed. */
    .l1_port = {[CORE_TRISC0] = 0, [CORE_TRISC1] = 1, [CORE_TRISC2] = 1, [CORE_BRISC] = 0,
                [CORE_NCRISC] = 0},
    .fifo1_depth = {32, 32, 32},
    .fifo1_accept_limit = 28,
    .ttinsn_fuse_max = 4,
    .has_zaamo = true,
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
    .local_ram_size = {2048, 2048, 2048, 4096, 4096},
    .reset_pc = {0x6000, 0xA000, 0xE000, 0x0000, 0x12000},
    /* WH:L1.md: B, NC, T0 share port #2; T1, T2 port #3 */
    .l1_port = {[CORE_TRISC0] = 0, [CORE_TRISC1] = 1, [CORE_TRISC2] = 1, [CORE_BRISC] = 0,
                [CORE_NCRISC] = 0},
    .fifo1_depth = {32, 16, 16},
    .fifo1_accept_limit = 0, /* 0: plain FIFO, accepts while not full */
    .ttinsn_fuse_max = 1,
    .has_zaamo = false,
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

static const char *const core_names[NUM_CORES] = {"TRISC0", "TRISC1", "TRISC2", "BRISC", "NCRISC"};

const char *core_name(int id) { return id >= 0 && id < NUM_CORES ? core_names[id] : "?"; }
