/* TRISC0 of the matmul example: write the operand tiles, configure both unpackers, and unpack
 * each tile pair: B_t into SrcA through unpacker 0 and A_t into SrcB through unpacker 1
 * (MVMUL computes Dst += SrcB @ SrcA, seed 004 "Register files"), handing each bank to the
 * matrix unit. The Z counter of ADC channel 0 steps from tile to tile; an UNPACR whose bank
 * the matrix unit still holds waits in the unpacker until the last MVMUL of that bank gives it
 * back. */
#include "matmul_data.h"
#include "../bf16_tiles.h"

int main(void)
{
    volatile uint16_t *a = (volatile uint16_t *)(MM_A + 16), *b = (volatile uint16_t *)(MM_B + 16);
    REGION_BEGIN(0);
    for (unsigned t = 0; t < MM_TILES; t++)
        for (unsigned r = 0; r < 32; r++)
            for (unsigned c = 0; c < 32; c++) {
                a[t * 1024 + mm_face_index(r, c)] = mm_value(0, t, r, c);
                b[t * 1024 + mm_face_index(r, c)] = mm_value(1, t, r, c);
            }
    tensim_fence();
    REGION_END(0);

    REGION_BEGIN(1);
    bf16_tiles_setup(MM_B, MM_A, MM_TILES);
    for (unsigned t = 0; t < MM_TILES; t++)
        bf16_tiles_unpack_pair();
    REGION_END(1);
    return 0;
}
