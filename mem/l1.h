/* L1 as its writers see it: the bytes are the tile's (t->l1); every write, whoever makes it
 * (a core's store or atomic, ThCon, the packers, the loader, --load), ends here so that the
 * cores' predecoded instructions it touches decode again on their next fetch
 * (docs/architecture.md "Decoding once"). Little-endian, as the cores see it. */
#ifndef TENSIM_MEM_L1_H
#define TENSIM_MEM_L1_H

#include <stdint.h>
#include <string.h>

#include "../riscv/decode.h"

/* Bytes [addr, addr + n) of L1 changed (n > 0): their predecode slots decode again. */
static inline void l1_code_written(struct rv_insn *predecode, uint32_t addr, uint32_t n)
{
    for (uint32_t w = addr >> 2; w <= (addr + n - 1) >> 2; w++)
        predecode[w].op = RV_UNDECODED;
}


/* 1, 2 or 4 bytes at p, little-endian: every reader and writer of L1 and the local RAMs. */
static inline uint32_t le_get(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1:
        return p[0];
    case 2:
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default:
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

static inline void le_put(uint8_t *p, unsigned size, uint32_t v)
{
    p[0] = (uint8_t)v;
    if (size > 1)
        p[1] = (uint8_t)(v >> 8);
    if (size > 2) {
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
    }
}

/* A store of 1, 2 or 4 bytes at an address aligned to its size: one word, one predecode slot
 * (the core's stores and atomics: the hot path of store-heavy kernels). */
static inline void l1_store_le(uint8_t *l1, struct rv_insn *predecode, uint32_t addr, unsigned size,
                               uint32_t v)
{
    le_put(l1 + addr, size, v);
    predecode[addr >> 2].op = RV_UNDECODED;
}

/* The same at any address (ThCon's stores and atomics, whose alignment the pages leave to
 * software): the predecode slots of every word touched. */
static inline void l1_store_any_le(uint8_t *l1, struct rv_insn *predecode, uint32_t addr,
                                   unsigned size, uint32_t v)
{
    le_put(l1 + addr, size, v);
    l1_code_written(predecode, addr, size);
}

static inline void l1_copy_in(uint8_t *l1, struct rv_insn *predecode, uint32_t addr,
                              const void *src, uint32_t n)
{
    memcpy(l1 + addr, src, n);
    if (n)
        l1_code_written(predecode, addr, n);
}

#endif
