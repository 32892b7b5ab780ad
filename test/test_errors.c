/* Every error category: message text and exit code of the tensim command. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    cr_expect_str_eq(out, "guest\n");
}

Test(errors, usage)
{
    cr_expect_eq(run("run --max-cycles %s", "x"), 100);
    EXPECT_OUT("tensim: usage: --max-cycles needs a positive number, not x");
    cr_expect_eq(run("run --arch %s prog", "z80"), 100);
    EXPECT_OUT("unknown architecture z80");
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

Test(errors, bad_elf_wrong_machine)
{
    const uint8_t x86[2] = {62, 0}; /* EM_X86_64 */
    const char *p = patched(guest("guest/exit7.elf"), 0, 18, x86, 2);
    cr_expect_eq(run("run %s", p), 101);
    EXPECT_OUT("wrong machine 62: expected RISC-V (243)");
    unlink(p);
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
    EXPECT_OUT("unimplemented: TRISC0 pc=0x00006004 cycle=1: unimplemented region NoC 0 "
               "registers: load of 0xffb20000");
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
