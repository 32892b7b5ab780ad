/* TRISC1 of the GELU example: the tanh form of GELU for every datum of the tiles in Dst, FP32 in
 * and out:
 *   gelu(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) = x * sigmoid(u),
 *   u = 2 sqrt(2/pi) (x + 0.044715 x^3) = x (K + KC x^2),
 * with 1 + tanh(v) = 2 sigmoid(2v). u has the sign of x, which sigmoid.h relies on. K and KC are
 * the FP32 values nearest 2 sqrt(2/pi) and 2 sqrt(2/pi) 0.044715.
 *
 * Accuracy: within 2.5e-7 * max(1, |x|) of x * sigmoid(u) computed exactly from the same K and KC
 * for finite x; the tanh form itself is within 4.8e-4 of the exact x Phi(x)
 * (test/test_sfpu_kernels.c checks both).
 *
 * 43 instructions per 32 datums, pushed by the core. */
#include "sigmoid.h"

#define KC 2
#define KK 3

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
        MAD(0, 0, LZERO, 1);   /* x^2 */
        LOADI32(KC, 0x3D922279u); /* 0.071354814 */
        LOADI32(KK, 0x3FCC422Au); /* 1.5957692 */
        MAD(1, KC, KK, 1);
        MAD(1, 0, LZERO, 1);   /* u */
        X_SIGMOID(1);
        STORE(0, SK_AM_NEXT, 0);
    }
    LANE_FLAGS_OFF();

    sk_end(start, tiles);
    return 0;
}
