/* TRISC2: take the token from semaphore 1, work, pass it on through semaphore 2. */
#include "tokens.h"

int main(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        WAIT_FOR(1);
        TAKE(1);
        work();
        PASS(2);
    }
    return 0;
}
