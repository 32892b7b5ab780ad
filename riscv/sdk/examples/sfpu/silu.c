/* TRISC1 of the SiLU example: silu(x) = x * sigmoid(x) for every datum of the tiles in Dst, FP32
 * in and out (sigmoid.h has the algorithm).
 *
 * Accuracy: within 2.5e-7 * max(1, |x|) of x / (1 + e^-x) for finite x (the exp's clamp makes
 * x < -87 give x * e^-87 instead of something smaller, an absolute error below 2e-36 |x|).
 * +Inf gives +Inf and -Inf gives -Inf (-Inf times e^-87, the clamped exp), NaN gives NaN.
 *
 * 36 instructions per 32 datums, pushed by the core (too many for the 32-word replay buffer);
 * the MAD chain stalls more often than the core's loop takes a cycle, so the core keeps ahead. */
#include "sigmoid.h"

int main(void)
{
    const unsigned tiles = sk_tiles();
    if (!tiles)
        return 1;
    const uint32_t start = sk_begin();
    SIG_CONSTANTS();
    LANE_FLAGS_ON();

    for (unsigned v = 0; v < 32 * tiles; v++) {
        LOAD(0, 0);
        X_SIGMOID(0);
        STORE(0, SK_AM_NEXT, 0);
    }
    LANE_FLAGS_OFF();

    sk_end(start, tiles);
    return 0;
}
