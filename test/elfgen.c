#include "elfgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }

uint8_t *elfgen(uint32_t entry, const struct elfgen_seg *segs, unsigned n, size_t *len)
{
    size_t size = 52 + 32 * (size_t)n;
    for (unsigned i = 0; i < n; i++)
        size += (segs[i].filesz + 3u) & ~3u;
    uint8_t *b = calloc(1, size);
    if (!b)
        return 0;
    memcpy(b, "\177ELF\1\1\1", 7); /* ELFCLASS32, ELFDATA2LSB, EV_CURRENT */
    put16(b + 16, 2);              /* ET_EXEC */
    put16(b + 18, 243);            /* EM_RISCV */
    put32(b + 20, 1);
    put32(b + 24, entry);
    put32(b + 28, 52); /* e_phoff */
    put16(b + 40, 52); /* e_ehsize */
    put16(b + 42, 32); /* e_phentsize */
    put16(b + 44, n);
    size_t off = 52 + 32 * (size_t)n;
    for (unsigned i = 0; i < n; i++) {
        uint8_t *ph = b + 52 + 32 * i;
        put32(ph, 1); /* PT_LOAD */
        put32(ph + 4, (uint32_t)off);
        put32(ph + 8, segs[i].vaddr);
        put32(ph + 12, segs[i].vaddr);
        put32(ph + 16, segs[i].filesz);
        put32(ph + 20, segs[i].memsz);
        put32(ph + 24, 7); /* RWX */
        put32(ph + 28, 4);
        if (segs[i].filesz)
            memcpy(b + off, segs[i].data, segs[i].filesz);
        off += (segs[i].filesz + 3u) & ~3u;
    }
    *len = size;
    return b;
}

uint8_t *elfgen_sections(uint32_t entry, const struct elfgen_sec *secs, unsigned nsec,
                         const struct elfgen_seg *segs, unsigned nseg, size_t *len)
{
    size_t base_len;
    uint8_t *base = elfgen(entry, segs, nseg, &base_len);
    if (!base)
        return 0;
    /* after the segments: each section's bytes, the name table, then the header table of
     * 1 (null) + nsec + 1 (.shstrtab) entries */
    size_t names = 1 + sizeof ".shstrtab";
    size_t data = 0;
    for (unsigned i = 0; i < nsec; i++) {
        names += strlen(secs[i].name) + 1;
        data += secs[i].nobits ? 0 : (secs[i].size + 3u) & ~3u;
    }
    size_t names_pad = (names + 3u) & ~(size_t)3u;
    size_t size = base_len + data + names_pad + 40 * (size_t)(nsec + 2);
    uint8_t *b = calloc(1, size);
    if (!b) {
        free(base);
        return 0;
    }
    memcpy(b, base, base_len);
    free(base);
    size_t off = base_len, name_at = 1;
    const size_t names_off = base_len + data, sh_off = names_off + names_pad;
    for (unsigned i = 0; i < nsec; i++) {
        uint8_t *sh = b + sh_off + 40 * (i + 1);
        size_t nlen = strlen(secs[i].name) + 1;
        memcpy(b + names_off + name_at, secs[i].name, nlen);
        put32(sh, (uint32_t)name_at);
        put32(sh + 4, secs[i].nobits ? 8 : 1); /* SHT_NOBITS or SHT_PROGBITS */
        put32(sh + 8, 2);                      /* SHF_ALLOC */
        put32(sh + 12, secs[i].addr);
        put32(sh + 16, (uint32_t)off);
        put32(sh + 20, secs[i].size);
        if (!secs[i].nobits) {
            if (secs[i].size)
                memcpy(b + off, secs[i].data, secs[i].size);
            off += (secs[i].size + 3u) & ~3u;
        }
        name_at += nlen;
    }
    memcpy(b + names_off + name_at, ".shstrtab", sizeof ".shstrtab");
    uint8_t *sh = b + sh_off + 40 * (nsec + 1);
    put32(sh, (uint32_t)name_at);
    put32(sh + 4, 3); /* SHT_STRTAB */
    put32(sh + 16, (uint32_t)names_off);
    put32(sh + 20, (uint32_t)names);
    put32(b + 32, (uint32_t)sh_off); /* e_shoff */
    put16(b + 46, 40);               /* e_shentsize */
    put16(b + 48, nsec + 2);         /* e_shnum */
    put16(b + 50, nsec + 1);         /* e_shstrndx */
    *len = size;
    return b;
}

int elfgen_write(const char *path, uint32_t entry, const struct elfgen_seg *segs, unsigned n)
{
    size_t len;
    uint8_t *b = elfgen(entry, segs, n, &len);
    FILE *f = b ? fopen(path, "wb") : 0;
    int ok = f && fwrite(b, 1, len, f) == len;
    if (f && fclose(f))
        ok = 0;
    free(b);
    return ok ? 0 : -1;
}
