/* DRAM contents, sparse: a bank's bytes in 4 KiB pages allocated on first write (a Blackhole
 * P150 has 32 GiB; most runs touch a few MiB). Pages never written read as zeros. Reads and
 * writes are the chip's (core/chip.c), between windows, on one thread. */
#ifndef TENSIM_MEM_DRAM_H
#define TENSIM_MEM_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#define DRAM_PAGE_BITS 12
#define DRAM_DIR_BITS 10 /* pages per directory block: 2^10 x 4 KiB = 4 MiB */

struct dram_bank {
    uint64_t size;     /* bytes */
    uint8_t ***dir;    /* [size >> 22] -> [1024] -> page, each allocated on first write */
    uint64_t pages;    /* pages allocated */
};

/* A bank of `size` bytes (a multiple of 4 MiB), nothing allocated but its top directory; false
 * when out of memory. */
bool dram_bank_init(struct dram_bank *b, uint64_t size);
void dram_bank_free(struct dram_bank *b);
/* False when [addr, addr + n) is outside the bank, or a page could not be allocated. */
bool dram_write(struct dram_bank *b, uint64_t addr, const void *src, uint64_t n);
bool dram_read(const struct dram_bank *b, uint64_t addr, void *dst, uint64_t n);

#endif
