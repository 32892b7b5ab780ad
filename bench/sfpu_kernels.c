/* Cycles per 32x32 FP32 tile of the vector-unit examples (riscv/sdk/examples/sfpu), next to
 * the silicon figures shared/spec/sfpu.md A.8 gives for comparable kernels.
 *
 * Each example runs twice, over 1 and over 8 tiles (the Dst capacity in its 32-bit mode), with
 * inputs in its domain; TRISC1 reports the cycles of its SFPU pass, from the unpacker's
 * semaphore to its thread's drain (constants and the end included). "per tile" is the 8-tile
 * pass over 8, "marginal" what each tile after the first adds, (c8 - c1) / 7: the steady state
 * a longer stream of tiles would see. where reads three tiles (cond, b, c) per output tile and
 * runs over 1 and 2 output tiles instead; its figures are per output tile. The ELFs come from
 * `make kernels`. */
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
    unsigned group; /* input tiles per output tile: 3 for where (cond, b, c), else 1 */
};

static const struct kernel kernels[] = {
    {"exp", -80.0, 80.0,
     "~70 cy/tile: tt-llk's approximate exp with SFPLOADMACRO in SDPA (BH p100a, tt-metal #55760)", 1},
    {"recip", 0.001, 1000.0,
     "160 cy/tile (192 full range): tt-llk's FP32 reciprocal with SFPLOADMACRO (tt-llk #834)", 1},
    {"sqrt", 0.0, 1000.0, "-", 1},
    {"silu", -10.0, 10.0, "-", 1},
    {"gelu", -10.0, 10.0, "-", 1},
    {"sort", -1000.0, 1000.0, "- (any SFPU pass: >= 32 cy/tile, one SFPLOAD per 32 datums)", 1},
    /* the SFPLOADMACRO examples (docs/sfpu-kernels.md "SFPLOADMACRO examples") */
    {"scale2", -1000.0, 1000.0, "~1.2 cy per 32 datums, 306 cy for 256 (blackhole-py probe)", 1},
    {"arecip", 0.001, 1000.0, "1 cy per 32 datums: 32 cy/tile (tt-llk #834, BF16 approx)", 1},
    {"recip3", 0.001, 1000.0, "3 cy per 32 datums: 96 cy/tile (tt-llk #834, BF16)", 1},
    {"recip5", 0.001, 1000.0, "5 cy per 32 datums: 160 cy/tile (tt-llk #834, FP32)", 1},
    {"where", -2.0, 2.0, "28 cy per face (4 + 8 x 3): 112 cy/tile (tt-llk #822)", 3},
    {"aexp", -87.0, 88.0,
     "~68 cy per 32 vectors: tt-llk's approximate exp, macro + SFPSHFT2 (BH); ~70 cy/tile in SDPA "
     "(tt-metal #55760)",
     1},
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
        /* where: 1 and 2 output tiles (3 and 6 input tiles); the others 1 and 8 */
        const unsigned g = k->group, many = g == 1 ? 8 : 2;
        const uint32_t c1 = run(k, g, &total1), c8 = run(k, g * many, &total8);
        if (!c1 || !c8) {
            status = 1;
            continue;
        }
        printf("sfpu   %-6s  %19.1f  %8.1f  %18llu  %s\n", k->name, c8 / (double)many,
               (c8 - c1) / (double)(many - 1), (unsigned long long)total1, k->silicon);
    }
    return status;
}
