/* The libttsim library under a polling host (docs/libttsim.md): what one host poll costs, a read
 * through an address window and the clock(1) UMD makes after it, on a Blackhole chip of 140
 * tiles that is idle, and whose 140 BRISCs all poll an L1 word (as tt-metal's firmware polls its
 * mailboxes). Median of 5 runs of 20000 polls each. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define LIB "build/libtensim_bh.so"
#define BAR0 0x100000000ull
#define POLLS 20000
#define RUNS 5

static struct {
    void (*init)(void), (*exit)(void), (*clock)(uint32_t);
    void (*rd)(uint64_t, void *, uint32_t), (*wr)(uint64_t, const void *, uint32_t);
} L;

/* Window 0 at (x, y), addr's 2 MiB frame, as UMD sets it. */
static void aim(unsigned x, unsigned y, uint64_t addr)
{
    const uint64_t frame = addr >> 21;
    const uint32_t w[3] = {(uint32_t)frame, (uint32_t)(frame >> 32 & 0x7FF) | x << 11 | y << 17, 0};
    for (unsigned i = 0; i < 3; i++)
        L.wr(BAR0 + 0x1FC00000u + 4 * i, &w[i], 4);
}

static void wr32(unsigned x, unsigned y, uint64_t addr, uint32_t v)
{
    aim(x, y, addr);
    L.wr(BAR0 + addr % (2u << 20), &v, 4);
}

static double polls(bool busy)
{
    L.init();
    /* lui t0, 0x30; 1: lw t1, 0(t0); beqz t1, 1b; j . */
    static const uint32_t prog[] = {0x000302B7u, 0x0002A303u, 0xFE030EE3u, 0x0000006Fu};
    for (unsigned y = 2; busy && y < 12; y++)
        for (unsigned x = 1; x < 17; x++) {
            if (x == 8 || x == 9)
                continue;
            for (unsigned i = 0; i < 4; i++)
                wr32(x, y, 4 * i, prog[i]);
            wr32(x, y, 0xFFB121B0u, 0x47000u); /* BRISC out of reset */
        }
    uint32_t v = 0;
    const double t0 = seconds();
    for (unsigned i = 0; i < POLLS; i++) {
        aim(16, 11, 0x30000); /* UMD sets the window before every access */
        L.rd(BAR0 + 0x30000, &v, 4);
        L.clock(1);
    }
    const double dt = seconds() - t0;
    L.exit();
    return dt / POLLS;
}

int main(void)
{
    void *h = dlopen(LIB, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("libttsim polls: skipped (%s; make libttsim)\n", dlerror());
        return 0;
    }
    *(void **)&L.init = dlsym(h, "libttsim_init");
    *(void **)&L.exit = dlsym(h, "libttsim_exit");
    *(void **)&L.clock = dlsym(h, "libttsim_clock");
    *(void **)&L.rd = dlsym(h, "libttsim_pci_mem_rd_bytes");
    *(void **)&L.wr = dlsym(h, "libttsim_pci_mem_wr_bytes");
    if (!L.init || !L.exit || !L.clock || !L.rd || !L.wr) {
        printf("libttsim polls: %s lacks the libttsim functions\n", LIB);
        return 1;
    }
    double idle[RUNS], busy[RUNS];
    for (unsigned r = 0; r < RUNS; r++) { /* interleaved */
        idle[r] = polls(false);
        busy[r] = polls(true);
    }
    printf("libttsim polls   140 tiles idle            %6.2f us per poll (read + clock(1))\n",
           median(idle, RUNS) * 1e6);
    printf("libttsim polls   140 BRISCs polling L1     %6.2f us per poll (read + clock(1))\n",
           median(busy, RUNS) * 1e6);
    dlclose(h);
    return 0;
}
