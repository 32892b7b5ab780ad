/* TRISC0 of the throttled matmul example: the operands are already in L1 (loaded from
 * mmthrottle-a.bin and mmthrottle-b.bin, written by gen_data.c); unpack them as tt-llk's
 * matmul unpacker does for ct_dim = MT_CT, rt_dim = 1: per inner-dimension step k, A_k once into SrcB (unpacker 1), then B_k0..B_k7 into SrcA (unpacker 0), each UNPACR
 * handing its bank to the matrix unit (FlipSrc). The Z counter of each unpacker's ADC channel 0
 * walks its own run of tiles. An UNPACR whose bank the matrix unit still holds waits in its
 * unpacker until TRISC1 gives the bank back (MVMUL FlipSrcA per product, SETRWC FlipSrcB per k). */
#include "mmthrottle.h"
#include "../bf16_tiles.h"

#ifdef MT_CHIP
#include "../chip/mmfpu.h"
#endif

int main(void)
{
#ifdef MT_CHIP /* on a chip (examples/chip/mmfpu.c): the operands arrive over the NoC first */
    while (tensim_l1_poll((volatile uint32_t *)MF_READY) == 0)
        ;
#endif
    bf16_tiles_setup(MT_B, MT_A, MT_KT * MT_CT);
    tensim_region_begin(0);
    const unsigned ksteps = mt_ksteps();
    for (unsigned k = 0; k < ksteps; k++) {
        /* UNPACR(WhichUnpacker, Ch1YInc, Ch1ZInc, Ch0YInc, Ch0ZInc = 1, ..., FlipSrc = 1, ...) */
        TTI_INSN(TT_OP_UNPACR(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1));
        for (unsigned j = 0; j < MT_CT; j++)
            TTI_INSN(TT_OP_UNPACR(0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1));
    }
    tensim_wait_coproc_done();
    tensim_region_end(0);
    return 0;
}
