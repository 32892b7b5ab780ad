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
