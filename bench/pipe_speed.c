/* Simulator speed with the coprocessor busy every cycle: each TRISC configures its MOP
 * expander for the longest template-1 expansion (32639 instructions) and pushes MOPs of it; the
 * three threads' SEMGETs then share the Sync unit's one-per-cycle slot, so every simulated
 * cycle steps three Wait Gates, the expanders and the arbitration. Reports simulated cycles and
 * Tensix instructions per host second. */
#include <stdio.h>
#include <stdlib.h>

#include "../core/tile.h"
#include "bench.h"

#define MOPS 64 /* per thread; PIPE_SPEED_MOPS=n runs fewer (cachegrind comparisons) */
#define SEMGET_SEM7 0xA5000200u


static void build(struct tile *t, uint32_t base, int mops)
{
    uint32_t pc = base;
    const uint32_t cfg[9] = {127, 127, SEMGET_SEM7, SEMGET_SEM7, SEMGET_SEM7, SEMGET_SEM7,
                             SEMGET_SEM7, SEMGET_SEM7, SEMGET_SEM7};
    li(t, &pc, 5, 0xFFB80000);
    for (int i = 0; i < 9; i++) {
        li(t, &pc, 6, cfg[i]);
        emit(t, &pc, rv_encode(RV_SW, 0, 5, 6, 4 * i));
    }
    const uint32_t mop = 0x01800000u; /* MOP template 1 */
    for (int i = 0; i < mops; i++)
        tt(t, &pc, mop);
    exit_ecall(t, &pc);
}

/* One run: `threads` TRISCs push (1: thread 0 alone, its SEMGETs issue every cycle, a stream
 * that never stalls; 3: the shared Sync slot arbitrates). */
static int run(unsigned threads, int mops)
{
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
    static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};
    for (unsigned c = 0; c < threads; c++) {
        build(t, base[c], mops);
        tile_start_core(t, (int)c, base[c]);
    }
    double dt;
    const enum err_kind e = timed_run(t, "pipe", &dt);
    uint64_t issued = 0;
    for (int i = 0; i < 3; i++)
        issued += t->thread[i].st.issued;
    printf("pipe   %u thread%s %11llu Tensix instr %11llu cycles  %6.3f s  %7.2f M cycles/s  %7.2f M instr/s\n",
           threads, threads == 1 ? " " : "s", (unsigned long long)issued,
           (unsigned long long)t->cycles, dt, (double)t->cycles / dt / 1e6, (double)issued / dt / 1e6);
    tile_destroy(t);
    return e == ERR_NONE ? 0 : 1;
}

int main(void)
{
    const char *env = getenv("PIPE_SPEED_MOPS");
    int mops = env ? atoi(env) : MOPS;
    if (mops < 1 || mops > MOPS)
        mops = MOPS;
    /* PIPE_SPEED_THREADS=1 or 3 runs only that case (profiles, cachegrind) */
    const char *th = getenv("PIPE_SPEED_THREADS");
    int r = 0;
    if (!th || atoi(th) == 3)
        r |= run(3, mops);
    if (!th || atoi(th) == 1)
        r |= run(1, mops * 3); /* as many instructions as the three threads push */
    return r;
}
