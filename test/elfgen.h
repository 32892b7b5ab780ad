/* Writing small ELF32 RISC-V executables from C, for tests and the fuzzer: any segment layout,
 * including ones no linker would produce. */
#ifndef TENSIM_TEST_ELFGEN_H
#define TENSIM_TEST_ELFGEN_H

#include <stddef.h>
#include <stdint.h>

struct elfgen_seg {
    uint32_t vaddr;
    const void *data; /* filesz bytes (may be NULL when filesz is 0) */
    uint32_t filesz, memsz;
};

/* A little-endian ELF32 EM_RISCV ET_EXEC image: header, program headers, then each segment's
 * bytes. Returns a malloc'd buffer of *len bytes. */
uint8_t *elfgen(uint32_t entry, const struct elfgen_seg *segs, unsigned n, size_t *len);
/* elfgen into the file `path`; returns 0 or -1. */
int elfgen_write(const char *path, uint32_t entry, const struct elfgen_seg *segs, unsigned n);

/* A named section: `size` bytes at `addr`, from `data` unless `nobits` (SHT_NOBITS). */
struct elfgen_sec {
    const char *name;
    uint32_t addr;
    const void *data;
    uint32_t size;
    int nobits;
};

/* The same image shaped like tt-llk's test kernels: a section header table (with .shstrtab) and
 * the program headers `segs` (which may disagree with the sections, as tt-llk's overlapping
 * .runtime_args segment does). Returns a malloc'd buffer of *len bytes. */
uint8_t *elfgen_sections(uint32_t entry, const struct elfgen_sec *secs, unsigned nsec,
                         const struct elfgen_seg *segs, unsigned nseg, size_t *len);

/* RV32 words of `exit(code)` (code < 2048): li a0, code; li a7, 93; ecall. */
#define ELFGEN_EXIT(code) {0x00000513u | (uint32_t)(code) << 20, 0x05d00893u, 0x00000073u}

#endif
