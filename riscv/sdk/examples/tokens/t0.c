/* TRISC0: initialise the ring, then start each round and wait for the token to come back. */
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
    return 0;
}
