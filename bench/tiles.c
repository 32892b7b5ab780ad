/* Memory and start-up (issue 19 item 5).
 *
 *  tiles     140 Blackhole tiles in one process, each running the example eltwise kernel on its
 *            three TRISCs (sim_run, one host thread): the peak resident set (VmHWM), which must
 *            stay under 1 GiB, and the host time. Each tile must end cleanly with the same
 *            cycles and output as the first.
 *  startup   `tensim run -q hello.elf` as a user runs it, median of 21: the whole process, from
 *            exec to exit (hello takes about 1300 cycles, a small share of it); target 10 ms. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/sim.h"
#include "../mem/elf.h"
#include "bench.h"

#define KDIR "build/kernels/"
#define NTILES 140

static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n))
            v = atol(line + n);
    if (f)
        fclose(f);
    return v;
}

static int tiles(void)
{
    static const char *const elf[3] = {KDIR "eltwise-t0.elf", KDIR "eltwise-t1.elf", KDIR "eltwise-t2.elf"};
    static struct sim s; /* SIM_MAX_TILES pointers */
    double t0 = seconds();
    for (int i = 0; i < NTILES; i++) {
        struct tile *t = sim_add_tile(&s, arch_get(ARCH_BLACKHOLE));
        if (!t) {
            fprintf(stderr, "tiles: cannot create tile %d\n", i);
            return 1;
        }
        for (int c = 0; c < 3; c++)
            if (elf_run_file(t, c, elf[c], ELF_LOADER_AUTO)) {
                fprintf(stderr, "tiles: %s: %s\n", elf[c], t->err.text);
                return 1;
            }
    }
    enum err_kind e = sim_run(&s, 10000);
    double dt = seconds() - t0;
    int bad = e != ERR_NONE;
    for (unsigned i = 1; i < s.ntiles; i++)
        bad |= s.tile[i]->cycles != s.tile[0]->cycles ||
               memcmp(s.tile[i]->l1 + 0x40000, s.tile[0]->l1 + 0x40000, 8192) != 0;
    printf("tiles    %d tiles  %llu cycles each  %6.3f s  peak %7.1f MiB resident  (target < 1024)%s\n",
           NTILES, (unsigned long long)s.tile[0]->cycles, dt, (double)status_kb("VmHWM:") / 1024.0,
           bad ? "  BAD: a tile differs or failed" : "");
    sim_destroy(&s);
    return bad;
}

static int startup(void)
{
    double t[21];
    const int n = sizeof t / sizeof t[0];
    static char *const argv[] = {"tensim", "run", "-q", KDIR "hello.elf", NULL};
    for (int i = 0; i < n; i++)
        if ((t[i] = time_tensim(argv)) < 0) {
            fprintf(stderr, "startup: tensim run -q hello.elf failed\n");
            return 1;
        }
    printf("startup  tensim run -q hello.elf, median of %d  %6.2f ms  (target < 10)\n", n, median(t, n) * 1e3);
    return 0;
}

int main(void)
{
    return tiles() | startup();
}
