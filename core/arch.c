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
    .rv =
        {
            .mispredict_penalty = 4, /* BHR:README.md, 4-cycle bubble */
            .mul_latency = 2,        /* EX1 + EX2; issue 1/cycle (calibration: independent mul 1) */
            .div_cycles = 6,         /* calibration: divu/remu 6 cycles */
            .div_fast_cycles = 2,    /* BHR:README.md: 2 cycles for /0, /1, INT_MIN/-1 */
            .csr_cycles = 4,         /* calibration: csrr of 0x7C0 4 cycles */
            .fence_cycles = 4,       /* calibration: fence 4 cycles */
            .load_local = 2,
            .load_l1_hit = 2, /* L0 D-cache hit */
            .load_l1 = 8,
            .amo_l1 = 12,
            .store_l1_cycles = 5,
            .store_l1_full = 1,
            .store_queue_depth = 4,
            .store_merge_window = 16,
            .l0d_lines = 4,
        },
};

/* Wormhole B0: spec/memory-map.md §1 (WH column), spec/sync-timing.md §1 (FIFO1 32/16/16) and §16. */
static const struct arch wormhole = {
    .id = ARCH_WORMHOLE,
    .name = "wormhole",
    .l1_size = 1464 * 1024,
    .local_ram_size = {2048, 2048, 2048, 4096},
    .reset_pc = {0x6000, 0xA000, 0xE000, 0x0000},
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
    .rv =
        {
            .mispredict_penalty = 2, /* WHR:README.md, 2-cycle bubble */
            .mul_latency = 2,        /* mul occupies 2 cycles */
            .div_cycles = 6,         /* lower end of the documented 6..33 */
            .div_fast_cycles = 2,
            .csr_cycles = 4, /* not documented for WH; Blackhole figure used */
            .fence_cycles = 1, /* fence is a NOP on WH */
            .load_local = 2,
            .load_l1_hit = 0,
            .load_l1 = 8,
            .amo_l1 = 0,
            .store_l1_cycles = 5,
            .store_l1_full = 5, /* no coalescing on WH */
            .store_queue_depth = 4,
            .store_merge_window = 0,
            .l0d_lines = 0,
        },
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
