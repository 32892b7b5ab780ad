/* Every error category: message text and exit code of the tensim command. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfgen.h"
#include "harness.h"

static char out[16384];

static int run(const char *fmt, const char *arg)
{
    char args[1024];
    snprintf(args, sizeof args, fmt, arg);
    return run_tensim(args, out, sizeof out);
}

#define EXPECT_OUT(s) cr_expect(strstr(out, s) != NULL, "missing \"%s\" in:\n%s", s, out)

Test(errors, guest_exit_code_and_write)
{
    cr_expect_eq(run("run -q %s", guest("guest/exit7.elf")), 7, "%s", out);
    cr_expect_str_eq(out, "guest\ntensim: guest exit: TRISC0 cycle=9: exit code 7\n");
}

Test(errors, usage)
{
    cr_expect_eq(run("run --max-cycles %s", "x"), 100);
    EXPECT_OUT("tensim: usage: --max-cycles needs a positive number, not 'x'\nTry 'tensim run --help'.\n");
    cr_expect_eq(run("run --arch %s prog", "z80"), 100);
    EXPECT_OUT("unknown architecture 'z80' (blackhole or wormhole)");
    cr_expect_eq(run("%s", "frobnicate"), 100);
}

/* Write a modified copy of a good ELF to a temporary file. */
static const char *patched(const char *src, size_t keep, size_t at, const void *bytes, size_t n)
{
    static char path[] = "/tmp/tensim-elf-XXXXXX";
    strcpy(path, "/tmp/tensim-elf-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *in = fopen(src, "rb");
    cr_assert(in, "missing %s (make kernels)", src);
    static uint8_t buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, in);
    fclose(in);
    if (n)
        memcpy(buf + at, bytes, n);
    if (keep && keep < len)
        len = keep;
    cr_assert_eq(write(fd, buf, len), (ssize_t)len);
    close(fd);
    return path;
}

Test(errors, bad_elf_truncated)
{
    const char *p = patched(guest("guest/exit7.elf"), 40, 0, 0, 0);
    cr_expect_eq(run("run %s", p), 101);
    EXPECT_OUT("tensim: bad program file: TRISC0 pc=0x00000000 cycle=0: ");
    EXPECT_OUT("truncated: 40 bytes, an ELF header needs 52");
    unlink(p);
}

Test(errors, bad_elf_segment_data_truncated)
{
    const char *p = patched(guest("guest/exit7.elf"), 120, 0, 0, 0);
    cr_expect_eq(run("run %s", p), 101);
    EXPECT_OUT("truncated: segment");
    unlink(p);
}

/* An ELF header of another machine: class, data encoding, e_type and e_machine as given. */
static const char *foreign_elf(unsigned cls, unsigned data, unsigned type, unsigned machine)
{
    uint8_t h[64] = {0x7f, 'E', 'L', 'F', (uint8_t)cls, (uint8_t)data, 1};
    bool be = data == 2;
    h[be ? 17 : 16] = (uint8_t)type;
    h[be ? 18 : 19] = (uint8_t)(machine >> 8);
    h[be ? 19 : 18] = (uint8_t)machine;
    static char path[] = "/tmp/tensim-foreign-XXXXXX";
    strcpy(path, "/tmp/tensim-foreign-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0 && write(fd, h, sizeof h) == (ssize_t)sizeof h);
    close(fd);
    return path;
}

Test(errors, bad_elf_other_machines)
{
    static const struct { unsigned cls, data, type, machine; const char *says; } cases[] = {
        {2, 1, 2, 62, ": an ELF for x86-64 (64-bit, little-endian); tensim runs 32-bit little-endian "
                      "RISC-V (RV32) programs: build with riscv64-unknown-elf-gcc "
                      "-march=rv32im_zicsr_zba_zbb -mabi=ilp32\n"},
        {2, 1, 2, 243, ": a 64-bit RISC-V (RV64) program; the cores are RV32: build with "
                       "riscv64-unknown-elf-gcc -march=rv32im_zicsr_zba_zbb -mabi=ilp32\n"},
        {1, 2, 2, 8, ": an ELF for MIPS (32-bit, big-endian); tensim runs 32-bit little-endian"},
        {1, 2, 2, 243, ": an ELF for RISC-V (32-bit, big-endian)"},
        {2, 1, 3, 183, ": an ELF for AArch64 (64-bit, little-endian)"},
        {1, 1, 2, 40, ": an ELF for Arm (32-bit, little-endian)"},
        {1, 1, 2, 9999, ": an ELF for machine 9999 (32-bit, little-endian)"},
        {1, 1, 1, 243, ": a relocatable object (.o), not an executable: link it"},
        {1, 1, 3, 243, ": a shared object or position-independent executable"},
        {1, 1, 4, 243, ": a core dump, not a program"},
        {3, 1, 2, 243, ": corrupt ELF identification (class 3, data encoding 1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *p = foreign_elf(cases[i].cls, cases[i].data, cases[i].type, cases[i].machine);
        cr_expect_eq(run("run %s", p), 101);
        EXPECT_OUT(cases[i].says);
        unlink(p);
    }
}

/* Programs built by elfgen: TRISC0's with 40 segments, then TRISC1's touching one of the last
 * ones. The loader kept 32 ranges and let the overlap through. */
Test(errors, overlap_past_32_segments)
{
    static const uint32_t code[] = ELFGEN_EXIT(0);
    struct elfgen_seg s0[40];
    for (unsigned i = 0; i < 40; i++)
        s0[i] = (struct elfgen_seg){0x6000 + 0x100 * i, code, sizeof code, sizeof code};
    struct elfgen_seg s1[2] = {{0xA000, code, sizeof code, sizeof code}, {0x6000 + 0x100 * 35 + 8, code, 4, 4}};
    cr_assert_eq(elfgen_write("/tmp/tensim-many0.elf", 0x6000, s0, 40), 0);
    cr_assert_eq(elfgen_write("/tmp/tensim-many1.elf", 0xA000, s1, 2), 0);
    cr_expect_eq(run("run --trisc0 /tmp/tensim-many0.elf --trisc1 %s", "/tmp/tensim-many1.elf"), 101);
    EXPECT_OUT("tensim: bad program file: TRISC1 pc=0x00000000 cycle=0: /tmp/tensim-many1.elf: segment 1 "
               "(0x00008308-0x0000830b) overlaps the program of TRISC0 (0x00008300-0x0000830b)\n");
    /* the same two without the overlap run */
    s1[1].vaddr = 0xB000;
    cr_assert_eq(elfgen_write("/tmp/tensim-many1.elf", 0xA000, s1, 2), 0);
    cr_expect_eq(run("run -q --trisc0 /tmp/tensim-many0.elf --trisc1 %s", "/tmp/tensim-many1.elf"), 0, "%s", out);
    unlink("/tmp/tensim-many0.elf");
    unlink("/tmp/tensim-many1.elf");
}

/* Segments of one program that share bytes: no linker writes them, and 65535 segments of all of
 * L1 each would make the loader copy 100 GB. */
Test(errors, overlapping_segments_of_one_program)
{
    static const uint32_t code[] = ELFGEN_EXIT(0);
    struct elfgen_seg s[3] = {{0x6000, code, sizeof code, 64}, {0x7000, code, 4, 4}, {0x6030, 0, 0, 32}};
    cr_assert_eq(elfgen_write("/tmp/tensim-ovl.elf", 0x6000, s, 3), 0);
    cr_expect_eq(run("run %s", "/tmp/tensim-ovl.elf"), 101);
    EXPECT_OUT("/tmp/tensim-ovl.elf: segments 0 (0x00006000-0x0000603f) and 2 (0x00006030-0x0000604f) overlap\n");
    static struct elfgen_seg huge[65535];
    for (unsigned i = 0; i < 65535; i++)
        huge[i] = (struct elfgen_seg){0, 0, 0, 0x180000};
    cr_assert_eq(elfgen_write("/tmp/tensim-ovl.elf", 0x6000, huge, 65535), 0);
    cr_expect_eq(run("run %s", "/tmp/tensim-ovl.elf"), 101);
    EXPECT_OUT(": segments 0 (0x00000000-0x0017ffff) and 1 (0x00000000-0x0017ffff) overlap\n");
    unlink("/tmp/tensim-ovl.elf");
}

Test(errors, bad_elf_not_elf_and_missing)
{
    cr_expect_eq(run("run %s", "Makefile"), 101);
    EXPECT_OUT("Makefile: not an ELF file");
    cr_expect_eq(run("run %s", "/nonexistent/prog.elf"), 101);
    EXPECT_OUT("/nonexistent/prog.elf: cannot open: No such file or directory");
}

Test(errors, bad_elf_segment_outside_memory)
{
    /* First program header's p_vaddr (offset 52 + 8) moved to 0x40000000. */
    const uint8_t addr[4] = {0, 0, 0, 0x40};
    const char *p = patched(guest("guest/exit7.elf"), 0, 60, addr, 4);
    cr_expect_eq(run("run %s", p), 101);
    EXPECT_OUT("segment 0 (0x40000000-");
    EXPECT_OUT("is outside L1 (0x0-0x17ffff) and the TRISC0 local data RAM (0xffb00000-0xffb00fff)");
    unlink(p);
}

Test(errors, bad_elf_overlapping_programs)
{
    char args[512];
    snprintf(args, sizeof args, "run --trisc0 %s --trisc1 %s", guest("guest/exit7.elf"),
             "build/guest/spin.elf");
    cr_expect_eq(run_tensim(args, out, sizeof out), 101);
    EXPECT_OUT("overlaps the program of TRISC0 (0x00006000-");
}

Test(errors, load_out_of_range)
{
    cr_expect_eq(run("run %s", guest("guest/load_oob.elf")), 103);
    EXPECT_OUT("tensim: bad access: TRISC0 pc=0x00006004 cycle=1: load of 0x00180000: no memory "
               "region at this address for TRISC0");
}

Test(errors, store_out_of_range)
{
    cr_expect_eq(run("run %s", guest("guest/store_oob.elf")), 103);
    EXPECT_OUT("tensim: bad access: TRISC0 pc=0x00006004 cycle=1: store of 0x40000000: no memory "
               "region at this address for TRISC0");
}

Test(errors, undefined_instruction)
{
    cr_expect_eq(run("run %s", guest("guest/undefined.elf")), 102);
    EXPECT_OUT("tensim: undefined instruction: TRISC0 pc=0x00006004 cycle=1: .word 0xffffffff");
}

Test(errors, ebreak_dumps_registers)
{
    cr_expect_eq(run("run %s", guest("guest/ebreak.elf")), 108);
    EXPECT_OUT("tensim: breakpoint: TRISC0 pc=0x00006010 cycle=4: ebreak"); /* two 2-word li */
    EXPECT_OUT("a0  =0x00001234");
    EXPECT_OUT("s1  =0x0000cafe");
}

Test(errors, unimplemented_region)
{
    cr_expect_eq(run("run %s", guest("guest/unimpl_region.elf")), 105);
    EXPECT_OUT("unimplemented: TRISC0 pc=0x00006004 cycle=1: unimplemented region NoC "
               "overlay: load of 0xffb40000");
}

Test(errors, cycle_limit)
{
    cr_expect_eq(run("run --max-cycles 1000 %s", guest("guest/spin.elf")), 107);
    EXPECT_OUT("tensim: cycle limit: cycle=1000: no end after 1000 cycles (--max-cycles)");
    EXPECT_OUT("TRISC0: running, pc=0x00006000: jal zero, 0x6000");
}

Test(errors, deadlock_names_the_blocked_push)
{
    cr_expect_eq(run("run %s", guest("guest/fifo_fill.elf")), 106);
    EXPECT_OUT("tensim: deadlock: cycle=");
    EXPECT_OUT("TRISC0: pc=0x00006018 sw t1, 0(t0): blocked since cycle");
    EXPECT_OUT("pushing into full FIFO1 of thread T0 (29 entries)");
    EXPECT_OUT("thread T0: NOP waits on semaphore 0 (value 0, max 0) (FIFO1 29, FIFO2 8, FIFO3 2)");
}
