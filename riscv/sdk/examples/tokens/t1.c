/* TRISC1: take the token from semaphore 0, work, pass it on through semaphore 1. */
#include "tokens.h"

int main(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        WAIT_FOR(0);
        TAKE(0);
        work();
        PASS(1);
    }
    return 0;
}
