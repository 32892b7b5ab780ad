/* Loading ELFs the way tt-exalens does for tt-llk's test kernels (mem/elf.c "tt-exalens's
 * way"): named sections only, NOBITS neither written nor zeroed, .profiler_meta never loaded,
 * .ldm_data at .loader_init's address, the core started at .init. Chosen for any ELF with a
 * .loader_init section; other ELFs load by program headers as before. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/elf.h"
#include "elfgen.h"
#include "harness.h"

static const uint32_t exit0[] = ELFGEN_EXIT(0);
static const uint32_t exit5[] = ELFGEN_EXIT(5);
static const uint8_t ldm[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const uint8_t meta[16] = {0xEE, 0xEE, 0xEE, 0xEE};

/* tt-llk's TRISC0 shape: .init at 0x6000 (exit 0), .text after it, .loader_init marking where
 * .ldm_data's image goes, .ldm_data's VMA in local data RAM, the 1 KiB .runtime_args NOBITS at
 * 0x20000 and .profiler_meta at 0x0; the program headers put a zero-filled segment over
 * .runtime_args, as tt-llk's link does. */
static uint8_t *tt_llk_shaped(uint32_t text_addr, size_t *len)
{
    const struct elfgen_sec secs[] = {
        {".init", 0x6000, exit0, sizeof exit0, 0},
        {".text", text_addr, exit5, sizeof exit5, 0},
        {".loader_init", 0x6800, NULL, 0, 0},
        {".ldm_data", 0xFFB00000u, ldm, sizeof ldm, 0},
        {".runtime_args", 0x20000, NULL, 1024, 1},
        {".profiler_meta", 0x0, meta, sizeof meta, 0},
    };
    const struct elfgen_seg segs[] = {{0x6000, exit0, sizeof exit0, sizeof exit0},
                                      {0x20000, NULL, 0, 1024}};
    return elfgen_sections(0x6000, secs, sizeof secs / sizeof secs[0], segs, 2, len);
}

Test(elf_sections, tt_llk_layout_loads_by_section_and_keeps_the_runtime_arguments)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    memset(t->l1 + 0x20000, 0xA5, 1024); /* the host's runtime arguments, written before loading */
    memset(t->l1, 0x11, 16);
    size_t len;
    uint8_t *elf = tt_llk_shaped(0x6100, &len);
    cr_assert_eq(elf_load_buffer(t, 0, "kernel.elf", elf, len), 0, "%s", t->err.text);
    for (unsigned i = 0; i < 1024; i++)
        cr_assert_eq(t->l1[0x20000 + i], 0xA5, "runtime argument byte %u overwritten", i);
    cr_expect_eq(t->l1[0], 0x11, ".profiler_meta must not be loaded");
    cr_expect_arr_eq(t->l1 + 0x6800, ldm, sizeof ldm, ".ldm_data goes to .loader_init's address");
    cr_expect_arr_eq(t->l1 + 0x6100, exit5, sizeof exit5);
    cr_expect_eq(t->core[0].pc, 0x6000);
    cr_expect_eq(tile_run(t, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[0].exit_code, 0); /* .init ran, not .text */
    free(elf);
    tile_destroy(t);
}

Test(elf_sections, a_section_outside_l1_is_a_bad_file)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    size_t len;
    uint8_t *elf = tt_llk_shaped(0x200000, &len); /* .text beyond Blackhole's 1.5 MiB */
    cr_expect_eq(elf_load_buffer(t, 0, "kernel.elf", elf, len), -1);
    cr_expect_eq(t->err.kind, ERR_BAD_FILE);
    cr_expect_str_eq(t->err.text, "kernel.elf: section .text (0x00200000-0x0020000b) is outside L1 "
                                  "(0x0-0x17ffff)");
    cr_expect_eq(t->l1[0x6000], 0, "nothing is written when a section is bad");
    free(elf);
    tile_destroy(t);
}

/* Without .loader_init the program headers decide, as before: the zero-filled segment over
 * 0x20000 is written. */
Test(elf_sections, other_elfs_load_by_program_headers)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    memset(t->l1 + 0x20000, 0xA5, 16);
    const struct elfgen_sec secs[] = {{".text", 0x6000, exit0, sizeof exit0, 0}};
    const struct elfgen_seg segs[] = {{0x6000, exit0, sizeof exit0, sizeof exit0},
                                      {0x20000, NULL, 0, 1024}};
    size_t len;
    uint8_t *elf = elfgen_sections(0x6000, secs, 1, segs, 2, &len);
    cr_assert_eq(elf_load_buffer(t, 0, "plain.elf", elf, len), 0, "%s", t->err.text);
    cr_expect_eq(t->l1[0x20000], 0);
    free(elf);
    tile_destroy(t);
}

/* --loader=exalens on a file without tt-llk's layout: what it cannot do is said. */
Test(elf_sections, forced_exalens_loading_names_what_is_missing)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    const struct elfgen_sec secs[] = {{".init", 0x6000, exit0, sizeof exit0, 0},
                                      {".ldm_data", 0xFFB00000u, ldm, sizeof ldm, 0}};
    const struct elfgen_seg segs[] = {{0x6000, exit0, sizeof exit0, sizeof exit0}};
    size_t len;
    uint8_t *elf = elfgen_sections(0x6000, secs, 2, segs, 1, &len);
    struct elf_file f = {"noinit.elf", elf, len};
    uint32_t start;
    cr_expect_eq(elf_loader_for(&f, ELF_LOADER_AUTO), ELF_LOADER_SEGMENTS, "no .loader_init");
    cr_expect_eq(elf_load(t, 0, &f, ELF_LOADER_EXALENS, &start), -1);
    cr_expect_str_eq(t->err.text, "noinit.elf: section .ldm_data has bytes but there is no "
                                  ".loader_init section to load them at");
    free(elf);
    tile_destroy(t);

    t = test_tile(ARCH_BLACKHOLE);
    const struct elfgen_sec none[] = {{".data", 0x7000, ldm, sizeof ldm, 0},
                                      {".init", 0x6000, NULL, 64, 1}};
    elf = elfgen_sections(0x6000, none, 2, segs, 1, &len);
    f = (struct elf_file){"empty.elf", elf, len};
    cr_expect_eq(elf_load(t, 0, &f, ELF_LOADER_EXALENS, &start), -1);
    cr_expect_str_eq(t->err.text, "empty.elf: none of the sections tt-exalens loads (.init, .text, "
                                  ".ldm_data, .gcov_info, .thread_local) has bytes");
    free(elf);
    tile_destroy(t);
}

/* tt-exalens's way only warns about overlaps, so the loaded ranges may overlap each other; a
 * later program loaded by its program headers must still find every range it overlaps. */
Test(elf_sections, overlaps_are_found_after_overlapping_exalens_sections)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    static uint8_t big[0x1000];
    const struct elfgen_sec secs[] = {{".init", 0x6000, big, sizeof big, 0},
                                      {".text", 0x6100, exit5, sizeof exit5, 0},
                                      {".loader_init", 0x9000, NULL, 0, 0}};
    size_t len;
    uint8_t *elf = elfgen_sections(0x6000, secs, 3, NULL, 0, &len);
    cr_assert_eq(elf_load_buffer(t, 0, "overlapping.elf", elf, len), 0, "%s", t->err.text);
    free(elf);
    const struct elfgen_seg segs[] = {{0x6800, exit0, sizeof exit0, sizeof exit0}};
    const struct elfgen_sec text[] = {{".text", 0x6800, exit0, sizeof exit0, 0}};
    elf = elfgen_sections(0x6800, text, 1, segs, 1, &len);
    cr_expect_eq(elf_load_buffer(t, 1, "plain.elf", elf, len), -1);
    cr_expect(strstr(t->err.text, "overlaps the program of TRISC0 (0x00006000-0x00006fff)") != NULL, "%s",
              t->err.text);
    free(elf);
    tile_destroy(t);
}
