/* TRISC1 companion of bench/calib/unpack.c (issue 16 item 3): stands in for the math thread by
 * handing the source banks back to the unpackers, SETRWC with FlipSrcA and FlipSrcB in a loop,
 * until TRISC0 raises the done flag - the companion blackhole-py's unpack microbenchmark runs
 * (docs/unpack-backend-microbench.md "Setup"). The flag load goes through the L0 data cache
 * with no fence, as there; the cache's periodic flush lets it see the flag eventually. */
#include <stdint.h>

#include "calib.h"
#include "tensim.h"
#include "tensix_ops.h"

int main(void)
{
    const volatile uint32_t *done = (const volatile uint32_t *)(CALIB_WK_UNPACK + 8);
    while (!*done)
        TT_PUSH(TT_OP_SETRWC(1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1));
    return 0;
}
