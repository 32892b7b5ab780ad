/* NCRISC, the tile's second data-movement core (issue 20 item 1; spec/memory-map.md §1, §6):
 * held in reset at power-on (SOFT_RESET_0 bit 18), it leaves reset at 0x12000 or at its reset-pc
 * register, has its own local data RAM (8 KiB on Blackhole, 4 KiB on Wormhole), which the other
 * cores reach through the slow path at 0xFFB16000 on Blackhole, and sees none of the
 * coprocessor's side: GPRs, instruction push (also .ttinsn), mailboxes, backend configuration. */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"

#define SOFT_RESET 0xFFB121B0u
#define NC_BIT (1u << 18)
#define NC_DEFAULT_PC 0x12000u
#define LOCAL 0xFFB00000u

/* TRISC0 at 0x6000 releases NCRISC (read-modify-write of SOFT_RESET_0), after writing the
 * Blackhole reset-pc registers when `pc` is not 0, and exits with what the register reads. */
static struct prog releaser(struct tile *t, uint32_t pc)
{
    struct prog p = prog_at(t, 0x6000);
    if (pc) {
        emit_store(&p, 0xFFB12238, pc); /* NCRISC_RESET_PC */
        emit_store(&p, 0xFFB1223C, 1);  /* NCRISC_RESET_PC_OVERRIDE */
    }
    emit_li(&p, 5, SOFT_RESET);
    E(&p, LW, 6, 5, 0, 0);
    emit_li(&p, 7, ~NC_BIT);
    E(&p, AND, 6, 6, 7, 0);
    E(&p, SW, 0, 5, 6, 0);
    E(&p, LW, 10, 5, 0, 0);
    emit_exit(&p);
    return p;
}

/* NCRISC's program at `pc`: stores 0x5A5A0000 + n at the last word of its local RAM, reads it
 * back and exits with its low byte (n). */
static void nc_program(struct tile *t, uint32_t pc, uint32_t n)
{
    struct prog q = prog_at(t, pc);
    emit_li(&q, 5, LOCAL + t->arch->local_ram_size[CORE_NCRISC] - 4);
    emit_li(&q, 6, 0x5A5A0000u + n);
    E(&q, SW, 0, 5, 6, 0);
    E(&q, LW, 10, 5, 0, 0);
    E(&q, ANDI, 10, 10, 0, 0xFF);
    emit_exit(&q);
}

Test(ncrisc, held_in_reset_until_released_then_starts_at_0x12000)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    cr_assert(t->boot.soft_reset & NC_BIT, "NCRISC is held in reset at power-on");
    cr_assert_eq(t->core[CORE_NCRISC].state, CORE_OFF);
    cr_assert_eq(t->arch->local_ram_size[CORE_NCRISC], 8192, "BHR:README.md: B and NC 8 KiB");
    struct prog p = releaser(t, 0);
    nc_program(t, NC_DEFAULT_PC, 42);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 100000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[CORE_TRISC0].exit_code & NC_BIT, 0, "bit 18 cleared");
    cr_expect_eq(t->core[CORE_NCRISC].state, CORE_HALTED, "NCRISC ran to its exit");
    cr_expect_eq(t->core[CORE_NCRISC].exit_code, 42);
    uint32_t w;
    memcpy(&w, &t->local_ram[CORE_NCRISC][8192 - 4], 4);
    cr_expect_eq(w, 0x5A5A002Au, "the last word of its 8 KiB local RAM");
    tile_destroy(t);
}

Test(ncrisc, blackhole_reset_pc_register_moves_its_start)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = releaser(t, 0x20000);
    nc_program(t, 0x20000, 7);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 100000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[CORE_NCRISC].exit_code, 7);
    cr_expect_eq(t->boot.ncrisc_reset_pc, 0x20000);
    cr_expect_eq(t->boot.ncrisc_override, 1);
    tile_destroy(t);
}

/* Wormhole keeps NCRISC's reset pc in Config (NCRISC_RESET_PC_PC and its override bit, global
 * words) and gives it 4 KiB of local data RAM. */
Test(ncrisc, wormhole_reset_pc_lives_in_config)
{
    struct tile *t = test_tile(ARCH_WORMHOLE);
    cr_assert_eq(t->arch->local_ram_size[CORE_NCRISC], 4096, "WHR:README.md: B and NC 4 KiB");
    cr_expect_eq(tile_reset_pc(t, CORE_NCRISC), NC_DEFAULT_PC);
    tile_set_reset_pc(t, CORE_NCRISC, 0x30000);
    cr_expect_eq(tile_reset_pc(t, CORE_NCRISC), 0x30000);
    cr_expect_eq(cfg_get(&t->cfg, 0, &cfg_fields_wh[CFGF_WH_NCRISC_RESET_PC_PC]), 0x30000);
    nc_program(t, 0x30000, 9);
    cr_assert_eq(tile_soft_reset_write(t, -1, t->boot.soft_reset & ~NC_BIT, 0), 0);
    cr_assert_eq(tile_run(t, 100000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[CORE_NCRISC].exit_code, 9);
    uint32_t w;
    memcpy(&w, &t->local_ram[CORE_NCRISC][4096 - 4], 4);
    cr_expect_eq(w, 0x5A5A0009u);
    tile_destroy(t);
}

/* TRISC0 reads what NCRISC left in its local RAM through the slow path (BHR:README.md: NC at
 * 0xFFB16000-0xFFB17FFF). */
Test(ncrisc, its_local_ram_through_the_slow_path)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    nc_program(t, NC_DEFAULT_PC, 3);
    cr_assert_eq(tile_soft_reset_write(t, -1, t->boot.soft_reset & ~NC_BIT, 0), 0);
    cr_assert_eq(tile_run(t, 100000), ERR_NONE, "%s", t->err.text);
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, 0xFFB16000u + 8192 - 4);
    E(&p, LW, 10, 5, 0, 0);
    E(&p, SRLI, 10, 10, 0, 16); /* 0x5A5A */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 100000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[CORE_TRISC0].exit_code, 0x5A5A, "0x%x", t->core[CORE_TRISC0].exit_code);
    tile_destroy(t);
}

/* What NCRISC cannot see stops the run with a bad access naming it. */
static void nc_fault(uint32_t word_at_nc, uint32_t addr, bool store, const char *want)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog q = prog_at(t, NC_DEFAULT_PC);
    if (word_at_nc) {
        emit(&q, word_at_nc);
    } else {
        emit_li(&q, 5, addr);
        if (store)
            E(&q, SW, 0, 5, 0, 0);
        else
            E(&q, LW, 10, 5, 0, 0);
    }
    emit_exit(&q);
    cr_assert_eq(tile_soft_reset_write(t, -1, t->boot.soft_reset & ~NC_BIT, 0), 0);
    cr_expect_eq(tile_run(t, 100000), ERR_BAD_ACCESS, "0x%08x: %s", addr, t->err.text);
    cr_expect_eq(t->err.core, CORE_NCRISC);
    cr_expect(strstr(t->err.text, want) != NULL, "0x%08x: %s", addr, t->err.text);
    tile_destroy(t);
}

Test(ncrisc, sees_nothing_of_the_coprocessor)
{
    nc_fault(0, 0xFFE00000, true, "no memory region at this address for NCRISC");  /* GPRs */
    nc_fault(0, 0xFFE40000, true, "no memory region at this address for NCRISC");  /* push */
    nc_fault(0, 0xFFEC1000, false, "no memory region at this address for NCRISC"); /* mailbox */
    nc_fault(0, 0xFFEF0000, false, "no memory region at this address for NCRISC"); /* Config */
    nc_fault(0, 0xFFB11000, false, "no memory region at this address for NCRISC"); /* TDMA-RISC */
    /* .ttinsn: a Tensix NOP (0x02000000) rotated left by 2, low bits 00 (spec/instructions.md
     * "Encoding basics") */
    nc_fault(0x02000000u << 2 | 0x02000000u >> 30, 0, false,
             ".ttinsn: NCRISC cannot push Tensix instructions");
}
