/* TRISC0: initialise the ring, then start each round and wait for the token to come back;
 * once T0 has taken it back the last time, the ring is checked: every semaphore is back at 0. */
#include <stdio.h>

#include "tokens.h"

int main(void)
{
    TTI_INSN(TT_OP_SEMINIT(1, 0, SEM(0) | SEM(1) | SEM(2)));
    for (int r = 0; r < ROUNDS; r++) {
        work();
        PASS(0);
        WAIT_FOR(2);
        TAKE(2);
    }
    tensim_wait_coproc_done();
    unsigned left = tensim_sem_value(0) + tensim_sem_value(1) + tensim_sem_value(2);
    printf("tokens: a token passed %d times round T0 -> T1 -> T2 through semaphores 0, 1, 2; "
           "checked that all three are back at 0 at the end (%u left): %s\n", ROUNDS, left,
           left ? "FAIL" : "PASS");
    return left ? 1 : 0;
}
