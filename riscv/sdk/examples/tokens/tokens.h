/* Three Tensix threads pass a token around a ring of semaphores: T0 -> T1 through semaphore 0,
 * T1 -> T2 through semaphore 1, T2 -> T0 through semaphore 2. Each thread waits for its token
 * (SEMWAIT, C0: wait while the value is 0, every block bit set so its work waits too), takes it
 * (SEMGET), does WORK instructions, and passes it on (SEMPOST). The cores only push; all waiting
 * happens at the Wait Gates, and `tensim --stats` attributes it to the semaphores. */
#ifndef TOKENS_H
#define TOKENS_H

#include "tensim.h"
#include "tensix_ops.h"

#define ROUNDS 16
#define WORK 8

#define SEM(i) (1u << (i))
#define WAIT_FOR(i) TTI_INSN(TT_OP_SEMWAIT(0x1FF, SEM(i), 1))
#define TAKE(i) TTI_INSN(TT_OP_SEMGET(SEM(i)))
#define PASS(i) TTI_INSN(TT_OP_SEMPOST(SEM(i)))

static inline void work(void)
{
    for (int k = 0; k < WORK; k++)
        TTI_INSN(TT_OP_NOP);
}

#endif
