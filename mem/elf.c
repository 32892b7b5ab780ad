#include "elf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/tile.h"

/* ELF32 constants (System V gABI; RISC-V psABI for EM_RISCV and EF_RISCV_RVC). */
enum {
    EHDR_SIZE = 52, PHDR_SIZE = 32,
    ELFCLASS32 = 1, ELFDATA2LSB = 1, ET_EXEC = 2, EM_RISCV = 243, PT_LOAD = 1,
    EF_RISCV_RVC = 1,
};

static uint32_t u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static int bad(struct tile *t, int core, const char *name, const char *fmt, uint32_t a, uint32_t b,
               uint32_t c)
{
    char why[256];
    snprintf(why, sizeof why, fmt, a, b, c);
    tile_error(t, ERR_BAD_FILE, core, 0, "%s: %s", name, why);
    return -1;
}

int elf_load_buffer(struct tile *t, int core, const char *name, const uint8_t *buf, size_t len)
{
    const struct arch *arch = t->arch;
    if (len < EHDR_SIZE)
        return bad(t, core, name, "truncated: %u bytes, an ELF header needs 52", (uint32_t)len, 0, 0);
    if (memcmp(buf, "\177ELF", 4))
        return bad(t, core, name, "not an ELF file", 0, 0, 0);
    if (buf[4] != ELFCLASS32)
        return bad(t, core, name, "ELF class %u: the cores need 32-bit ELF (class 1)", buf[4], 0, 0);
    if (buf[5] != ELFDATA2LSB)
        return bad(t, core, name, "ELF data encoding %u: the cores are little-endian (1)", buf[5], 0, 0);
    if (u16(buf + 16) != ET_EXEC)
        return bad(t, core, name, "ELF type %u: expected an executable (2)", u16(buf + 16), 0, 0);
    if (u16(buf + 18) != EM_RISCV)
        return bad(t, core, name, "wrong machine %u: expected RISC-V (243)", u16(buf + 18), 0, 0);
    if (u32(buf + 36) & EF_RISCV_RVC)
        return bad(t, core, name,
                   "built with compressed instructions (EF_RISCV_RVC); the cores have no C "
                   "extension: use -march=rv32im_zicsr_zba_zbb",
                   0, 0, 0);
    uint32_t entry = u32(buf + 24), phoff = u32(buf + 28);
    uint32_t phentsize = u16(buf + 42), phnum = u16(buf + 44);
    if (phnum && phentsize != PHDR_SIZE)
        return bad(t, core, name, "program header entry size %u (expected 32)", phentsize, 0, 0);
    if (phoff > len || (uint64_t)phnum * PHDR_SIZE > len - phoff)
        return bad(t, core, name, "truncated: program header table (%u entries at offset %u) is outside the file", phnum, phoff, 0);

    uint32_t local_size = arch->local_ram_size[core];
    unsigned loads = 0;
    /* Check every segment before copying anything, so a bad file leaves memory untouched. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < phnum; i++) {
            const uint8_t *ph = buf + phoff + i * PHDR_SIZE;
            if (u32(ph) != PT_LOAD)
                continue;
            uint32_t off = u32(ph + 4), vaddr = u32(ph + 8), filesz = u32(ph + 16), memsz = u32(ph + 20);
            if (!memsz)
                continue;
            if (pass == 0) {
                loads++;
                if (filesz > memsz)
                    return bad(t, core, name, "segment %u: file size %u exceeds memory size %u", i, filesz, memsz);
                if (off > len || filesz > len - off)
                    return bad(t, core, name, "truncated: segment %u needs bytes %u..%u of the file", i, off, off + filesz);
                bool in_l1 = vaddr < arch->l1_size && memsz <= arch->l1_size - vaddr;
                bool in_local = vaddr - MEM_LOCAL_BASE < local_size && memsz <= local_size - (vaddr - MEM_LOCAL_BASE);
                if (!in_l1 && !in_local) {
                    char why[200];
                    snprintf(why, sizeof why,
                             "segment %u (0x%08x-0x%08x) is outside L1 (0x0-0x%x) and the %s local data RAM (0x%08x-0x%08x)",
                             i, vaddr, vaddr + memsz - 1, arch->l1_size - 1, core_name(core),
                             MEM_LOCAL_BASE, MEM_LOCAL_BASE + local_size - 1);
                    tile_error(t, ERR_BAD_FILE, core, 0, "%s: %s", name, why);
                    return -1;
                }
                if (in_l1) {
                    for (unsigned k = 0; k < t->nloaded; k++) {
                        if (t->loaded[k].core != core && vaddr <= t->loaded[k].hi &&
                            t->loaded[k].lo <= vaddr + memsz - 1) {
                            char why[200];
                            snprintf(why, sizeof why,
                                     "segment %u (0x%08x-0x%08x) overlaps the program of %s (0x%08x-0x%08x)",
                                     i, vaddr, vaddr + memsz - 1, core_name(t->loaded[k].core),
                                     t->loaded[k].lo, t->loaded[k].hi);
                            tile_error(t, ERR_BAD_FILE, core, 0, "%s: %s", name, why);
                            return -1;
                        }
                    }
                }
            } else {
                uint8_t *dst = vaddr < arch->l1_size ? t->l1 + vaddr : t->local_ram[core] + (vaddr - MEM_LOCAL_BASE);
                memcpy(dst, buf + off, filesz);
                memset(dst + filesz, 0, memsz - filesz);
                if (vaddr < arch->l1_size) {
                    tile_code_written(t, vaddr, memsz);
                    if (t->nloaded < sizeof t->loaded / sizeof t->loaded[0])
                        t->loaded[t->nloaded++] = (struct loaded_range){vaddr, vaddr + memsz - 1, core};
                }
            }
        }
        if (pass == 0) {
            if (!loads)
                return bad(t, core, name, "no loadable segment", 0, 0, 0);
            if (entry >= arch->l1_size || (entry & 3))
                return bad(t, core, name, "entry point 0x%08x is not an aligned L1 address (cores fetch only from L1)", entry, 0, 0);
        }
    }
    tile_start_core(t, core, entry);
    return 0;
}

int elf_load_file(struct tile *t, int core, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        tile_error(t, ERR_BAD_FILE, core, 0, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    /* Programs for a 1.5 MiB L1 are small; refuse anything absurd before reading it. */
    enum { MAX_FILE = 64 << 20 };
    uint8_t *buf = malloc(MAX_FILE);
    size_t len = buf ? fread(buf, 1, MAX_FILE, f) : 0;
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        free(buf);
        tile_error(t, ERR_BAD_FILE, core, 0, "%s: cannot read", path);
        return -1;
    }
    int r = elf_load_buffer(t, core, path, buf, len);
    free(buf);
    return r;
}
