/* Simulator speed with the coprocessor busy every cycle: each TRISC configures its MOP
 * expander for the longest template-1 expansion (32639 instructions) and pushes MOPs of it.
 * Three cases: one thread alone, its SEMGETs issuing every cycle; three threads whose streams
 * do not stall (T0 SEMGETs to the Sync unit, T1 and T2 ADC instructions to the Miscellaneous
 * unit, which takes one per thread per cycle: three issues a cycle); and three threads whose
 * SEMGETs all share the Sync unit's one-per-cycle slot (one issue a cycle, two threads held by
 * the arbitration). Reports simulated cycles and Tensix instructions per host second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/tile.h"
#include "bench.h"
#include "tensix_ops.h"

#define MOPS 64 /* per thread; PIPE_SPEED_MOPS=n runs fewer (cachegrind comparisons) */
#define SEMGET_SEM7 0xA5000200u


/* The Miscellaneous unit's words of the no-stall case: X0 of thread 1's unpacker 0 ADC set to
 * 0, and Y0 of thread 2's incremented by 0 (WH:SETADCXY.md, WH:INCADCXY.md). */
#define SETADCXY_U0_X0 TT_OP_SETADCXY(0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1)
#define INCADCXY_U0_Y0 TT_OP_INCADCXY(0, 0, 1, 0, 0, 0, 0, 0)

/* Thread `core`'s program at `base`: MopCfg for template 1 with 127 x 127 iterations of `word`,
 * then `mops` MOPs. */
static void build(struct tile *t, uint32_t base, uint32_t word, int mops)
{
    uint32_t pc = base;
    const uint32_t cfg[9] = {127, 127, word, word, word, word, word, word, word};
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

enum pipe_case { ALONE, STREAMS, SHARED };

/* One run: ALONE, thread 0's SEMGETs; STREAMS, three threads that do not stall; SHARED, three
 * threads' SEMGETs through the one Sync slot. */
static int run(enum pipe_case k, int mops)
{
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
    static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};
    const uint32_t streams[3] = {SEMGET_SEM7, SETADCXY_U0_X0, INCADCXY_U0_Y0};
    const unsigned threads = k == ALONE ? 1 : 3;
    for (unsigned c = 0; c < threads; c++) {
        build(t, base[c], k == STREAMS ? streams[c] : SEMGET_SEM7, mops);
        tile_start_core(t, (int)c, base[c]);
    }
    double dt;
    const enum err_kind e = timed_run(t, "pipe", &dt);
    uint64_t issued = 0;
    for (int i = 0; i < 3; i++)
        issued += t->thread[i].st.issued;
    static const char *const name[] = {"1 thread ", "3 streams", "3 threads"};
    printf("pipe   %s %11llu Tensix instr %11llu cycles  %6.3f s  %7.2f M cycles/s  %7.2f M instr/s\n",
           name[k], (unsigned long long)issued,
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
    /* PIPE_SPEED_THREADS=1, 3 or s runs only that case (profiles, cachegrind): 1 ALONE, 3
     * SHARED, s STREAMS */
    const char *th = getenv("PIPE_SPEED_THREADS");
    int r = 0;
    if (!th || !strcmp(th, "3"))
        r |= run(SHARED, mops);
    if (!th || !strcmp(th, "s"))
        r |= run(STREAMS, mops);
    if (!th || !strcmp(th, "1"))
        r |= run(ALONE, mops * 3); /* as many instructions as the three threads push */
    return r;
}
