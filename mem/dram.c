/* Sparse DRAM banks (mem/dram.h). */
#include "dram.h"

#include <stdlib.h>
#include <string.h>

#define PAGE (1ull << DRAM_PAGE_BITS)
#define BLOCK_BITS (DRAM_PAGE_BITS + DRAM_DIR_BITS)

bool dram_bank_init(struct dram_bank *b, uint64_t size)
{
    *b = (struct dram_bank){.size = size};
    b->dir = calloc((size_t)((size + (1ull << BLOCK_BITS) - 1) >> BLOCK_BITS), sizeof *b->dir);
    return b->dir != NULL;
}

void dram_bank_free(struct dram_bank *b)
{
    if (!b->dir)
        return;
    const uint64_t blocks = (b->size + (1ull << BLOCK_BITS) - 1) >> BLOCK_BITS;
    for (uint64_t i = 0; i < blocks; i++) {
        if (!b->dir[i])
            continue;
        for (unsigned j = 0; j < 1u << DRAM_DIR_BITS; j++)
            free(b->dir[i][j]);
        free(b->dir[i]);
    }
    free(b->dir);
    b->dir = NULL;
}

static bool inside(const struct dram_bank *b, uint64_t addr, uint64_t n)
{
    return addr <= b->size && n <= b->size - addr;
}

/* The page holding addr, allocated if `make`; NULL if it is not there (or out of memory). */
static uint8_t *page(const struct dram_bank *b, uint64_t addr, bool make, uint64_t *pages)
{
    uint8_t ***blk = &b->dir[addr >> BLOCK_BITS];
    if (!*blk) {
        if (!make || !(*blk = calloc(1u << DRAM_DIR_BITS, sizeof **blk)))
            return NULL;
    }
    uint8_t **pg = &(*blk)[(addr >> DRAM_PAGE_BITS) & ((1u << DRAM_DIR_BITS) - 1)];
    if (!*pg && make && (*pg = calloc(1, PAGE)))
        ++*pages;
    return *pg;
}

bool dram_write(struct dram_bank *b, uint64_t addr, const void *src, uint64_t n)
{
    if (!inside(b, addr, n))
        return false;
    const uint8_t *s = src;
    while (n) {
        const uint64_t off = addr & (PAGE - 1), k = PAGE - off < n ? PAGE - off : n;
        uint8_t *p = page(b, addr, true, &b->pages);
        if (!p)
            return false;
        memcpy(p + off, s, k);
        addr += k, s += k, n -= k;
    }
    return true;
}

bool dram_read(const struct dram_bank *b, uint64_t addr, void *dst, uint64_t n)
{
    if (!inside(b, addr, n))
        return false;
    uint8_t *d = dst;
    uint64_t unused = 0;
    while (n) {
        const uint64_t off = addr & (PAGE - 1), k = PAGE - off < n ? PAGE - off : n;
        const uint8_t *p = page(b, addr, false, &unused);
        if (p)
            memcpy(d, p + off, k);
        else
            memset(d, 0, k);
        addr += k, d += k, n -= k;
    }
    return true;
}
