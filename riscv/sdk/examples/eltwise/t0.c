/* TRISC0 of the eltwise example: write A and B, unpack A_t into SrcA (unpacker 0) and B_t into
 * SrcB (unpacker 1) tile after tile, handing each bank pair to the matrix unit. */
#include "eltwise_data.h"
#include "../bf16_tiles.h"

int main(void)
{
    volatile uint16_t *a = (volatile uint16_t *)(EW_A + 16), *b = (volatile uint16_t *)(EW_B + 16);
    for (unsigned t = 0; t < EW_TILES; t++)
        for (unsigned i = 0; i < 1024; i++) {
            a[t * 1024 + i] = ew_value(0, t, i);
            b[t * 1024 + i] = ew_value(1, t, i);
        }
    tensim_fence();

    bf16_tiles_setup(EW_A, EW_B, EW_TILES);
    for (unsigned t = 0; t < EW_TILES; t++)
        bf16_tiles_unpack_pair();
    return 0;
}
