/* Cycles per 32x32 FP32 tile of the vector-unit examples (riscv/sdk/examples/sfpu), next to
 * the silicon figures shared/spec/sfpu.md A.8 gives for comparable kernels.
 *
 * Each example runs twice, over 1 and over 8 tiles (the Dst capacity in its 32-bit mode), with
 * inputs in its domain; TRISC1 reports the cycles of its SFPU pass, from the unpacker's
 * semaphore to its thread's drain (constants and the end included). "per tile" is the 8-tile
 * pass over 8, "marginal" what each tile after the first adds, (c8 - c1) / 7: the steady state
 * a longer stream of tiles would see. The ELFs come from `make kernels`. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/tile.h"
#include "../mem/elf.h"
#include "../riscv/sdk/examples/sfpu/sfpu_tiles.h"
#include "bench.h"

struct kernel {
    const char *name;
    double lo, hi; /* inputs drawn from [lo, hi) */
    const char *silicon;
};

static const struct kernel kernels[] = {
    {"exp", -80.0, 80.0,
     "~70 cy/tile: tt-llk's approximate exp with SFPLOADMACRO in SDPA (BH p100a, tt-metal #55760)"},
    {"recip", 0.001, 1000.0,
     "160 cy/tile (192 full range): tt-llk's FP32 reciprocal with SFPLOADMACRO (tt-llk #834)"},
    {"sqrt", 0.0, 1000.0, "-"},
    {"silu", -10.0, 10.0, "-"},
    {"gelu", -10.0, 10.0, "-"},
    {"sort", -1000.0, 1000.0, "- (any SFPU pass: >= 32 cy/tile, one SFPLOAD per 32 datums)"},
};

/* One run over `tiles` tiles: the pass's cycles (0 after an error) and the run's. */
static uint32_t run(const struct kernel *k, unsigned tiles, uint64_t *total)
{
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
    uint32_t seed = 12345;
    for (unsigned i = 0; i < 1024 * tiles; i++) {
        seed = seed * 1664525u + 1013904223u;
        const float x = (float)(k->lo + (k->hi - k->lo) * (seed >> 8) / 16777216.0);
        memcpy(t->l1 + SK_IN + 16 + 4 * i, &x, 4);
    }
    memcpy(t->l1 + SK_PARAM, &tiles, 4);
    char path[64];
    snprintf(path, sizeof path, "build/kernels/sfpu-%s.elf", k->name);
    uint32_t cycles = 0;
    if (elf_load_file(t, CORE_TRISC0, "build/kernels/sfpu-unpack.elf") == 0 &&
        elf_load_file(t, CORE_TRISC1, path) == 0 &&
        elf_load_file(t, CORE_TRISC2, "build/kernels/sfpu-pack.elf") == 0 &&
        tile_run(t, 50000000) == ERR_NONE)
        memcpy(&cycles, t->l1 + SK_RESULT, 4);
    else
        printf("sfpu   %s: %s\n", k->name, t->err.text);
    *total = t->cycles;
    tile_destroy(t);
    return cycles;
}

int main(void)
{
    int status = 0;
    printf("sfpu   kernel  cycles/tile (8 tiles)  marginal  whole run (1 tile)  silicon\n");
    for (unsigned i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const struct kernel *k = &kernels[i];
        uint64_t total1, total8;
        const uint32_t c1 = run(k, 1, &total1), c8 = run(k, 8, &total8);
        if (!c1 || !c8) {
            status = 1;
            continue;
        }
        printf("sfpu   %-6s  %19.1f  %8.1f  %18llu  %s\n", k->name, c8 / 8.0, (c8 - c1) / 7.0,
               (unsigned long long)total1, k->silicon);
    }
    return status;
}
