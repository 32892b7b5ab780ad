/* Simulator speed: simulated RISC-V instructions per host second.
 *
 *  loop1   one busy TRISC running a pure RV32 loop (ALU, load, store, branch), the others off:
 *          the issue-2 target is >= 100 million instructions per second on one host core.
 *  loop3   the same loop on all three TRISCs at once: its buffer is in L1, which the others
 *          may see, so each core waits for the others at every load and store (run-ahead,
 *          riscv/core.h, goes on only while a core touches nothing another agent sees).
 *  local1, local3   the same with the buffer in each core's local data RAM, which no other
 *          agent touches, as kernels keep their stacks and variables: run-ahead lets each core
 *          run on by itself (issue 19's target: >= 150 M instructions/s for three busy TRISCs).
 *  poll2   two TRISCs wait on a semaphore the third posts after dividing for a while: the
 *          waiters sleep (riscv/poll_sleep.h); simulated cycles per second is the figure.
 *
 * Programs are built in memory with rv_encode, so the bench needs no cross-compiler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/tile.h"
#include "bench.h"

#define E(op, rd, rs1, rs2, imm) emit(t, &pc, rv_encode(RV_##op, rd, rs1, rs2, imm))

/* for (i = n; i; i--) { x = x * 3 + y; y ^= x >> 3; buf[i & 15] = x; z += buf[(i+1)&15]; } */
static void build_loop(struct tile *t, uint32_t base, uint32_t buf, uint32_t iterations)
{
    uint32_t pc = base;
    E(LUI, 5, 0, 0, (int32_t)(iterations & 0xfffff000u));
    E(ADDI, 5, 5, 0, (int32_t)(iterations & 0xfff));
    E(LUI, 6, 0, 0, (int32_t)buf);
    uint32_t loop = pc;
    E(SH1ADD, 10, 10, 10, 0);   /* x = 3x */
    E(ADD, 10, 10, 11, 0);      /* + y */
    E(SRLI, 12, 10, 0, 3);
    E(XOR, 11, 11, 12, 0);
    E(ANDI, 13, 5, 0, 15);
    E(SH2ADD, 13, 13, 6, 0);
    E(SW, 0, 13, 10, 0);
    E(ADDI, 14, 5, 0, 1);
    E(ANDI, 14, 14, 0, 15);
    E(SH2ADD, 14, 14, 6, 0);
    E(LW, 15, 14, 0, 0);
    E(ADD, 16, 16, 15, 0);
    E(ADDI, 5, 5, 0, -1);
    emit(t, &pc, rv_encode(RV_BNE, 0, 5, 0, (int32_t)(loop - pc)));
    exit_ecall(t, &pc);
}

static void bench(const char *name, int cores, bool local, uint32_t iterations)
{
    const char *only = getenv("RV_SPEED_ONLY"); /* one of them (cachegrind comparisons) */
    if (only && strcmp(only, name))
        return;
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
#ifndef BENCH_ON_BASE /* a field the base commit lacks (bench/speed_compare.sh) */
    t->lockstep = getenv("SPEED_LOCKSTEP") != NULL; /* run-ahead off, for comparison */
#endif
    static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};
    for (int c = 0; c < cores; c++) {
        build_loop(t, base[c], local ? MEM_LOCAL_BASE : 0x20000 + 0x1000 * (uint32_t)c, iterations);
        tile_start_core(t, c, base[c]);
    }
    double dt;
    timed_run(t, name, &dt);
    uint64_t insns = 0;
    for (int c = 0; c < cores; c++)
        insns += t->core[c].st.instret;
    printf("%-6s %d core%s %11llu instructions %11llu cycles  %6.3f s  %7.1f M instr/s  %7.1f M cycles/s\n",
           name, cores, cores > 1 ? "s" : " ", (unsigned long long)insns,
           (unsigned long long)t->cycles, dt, (double)insns / dt / 1e6, (double)t->cycles / dt / 1e6);
    tile_destroy(t);
}

/* TRISC0 and TRISC1 poll semaphore 3 until it is posted; TRISC2 divides `n` times, posts it
 * and exits. */
static void bench_poll(const char *name, uint32_t n)
{
    const char *only = getenv("RV_SPEED_ONLY");
    if (only && strcmp(only, name))
        return;
    struct tile *t = tile_create(arch_get(ARCH_BLACKHOLE));
#ifndef BENCH_ON_BASE /* a field the base commit lacks (bench/speed_compare.sh) */
    t->lockstep = getenv("SPEED_LOCKSTEP") != NULL;
#endif
    static const uint32_t base[3] = {0x6000, 0xA000, 0xE000};
    for (int c = 0; c < 2; c++) {
        uint32_t pc = base[c];
        li(t, &pc, 5, 0xFFE8002C);
        uint32_t top = pc;
        emit(t, &pc, rv_encode(RV_LW, 6, 5, 0, 0));
        emit(t, &pc, rv_encode(RV_BEQ, 0, 6, 0, (int32_t)(top - pc)));
        exit_ecall(t, &pc);
        tile_start_core(t, c, base[c]);
    }
    uint32_t pc = base[2];
    li(t, &pc, 5, n);
    li(t, &pc, 7, 0xFFFFFFFFu);
    li(t, &pc, 8, 3);
    uint32_t top = pc;
    emit(t, &pc, rv_encode(RV_DIVU, 9, 7, 8, 0));
    emit(t, &pc, rv_encode(RV_ADDI, 5, 5, 0, -1));
    emit(t, &pc, rv_encode(RV_BNE, 0, 5, 0, (int32_t)(top - pc)));
    li(t, &pc, 6, 0xFFE8002C);
    emit(t, &pc, rv_encode(RV_SW, 0, 6, 0, 0)); /* post */
    exit_ecall(t, &pc);
    tile_start_core(t, 2, base[2]);
    double dt;
    timed_run(t, name, &dt);
    uint64_t insns = 0;
    for (int c = 0; c < 3; c++)
        insns += t->core[c].st.instret;
    printf("%-6s 3 cores %11llu instructions %11llu cycles  %6.3f s  %7.1f M instr/s  %7.1f M cycles/s\n",
           name, (unsigned long long)insns, (unsigned long long)t->cycles, dt, (double)insns / dt / 1e6,
           (double)t->cycles / dt / 1e6);
    tile_destroy(t);
}

int main(void)
{
    /* RV_SPEED_DIV=n runs 1/n of the iterations (cachegrind comparisons) */
    const char *env = getenv("RV_SPEED_DIV");
    uint32_t div = env && atoi(env) > 0 ? (uint32_t)atoi(env) : 1;
    bench("loop1", 1, false, 20000000 / div);
    bench("loop3", 3, false, 5000000 / div);
    bench("local1", 1, true, 20000000 / div);
    bench("local3", 3, true, 10000000 / div);
    bench_poll("poll2", 1000000 / div);
    return 0;
}
