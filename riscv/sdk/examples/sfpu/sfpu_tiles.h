/* The layout shared by the vector-unit (SFPU) examples and the host programs that feed and
 * check them (test/test_sfpu_kernels.c, bench/sfpu_kernels.c): plain C, no kernel-side
 * dependencies.
 *
 * Every example is three TRISCs. TRISC0 (unpack.c) unpacks SK_TILES FP32 tiles from L1 into
 * Dst, which is in its 32-bit mode, tile t at Dst rows 64t..64t+63; TRISC1 (exp.c, recip.c,
 * ...) runs one SFPU pass over them; TRISC2 (pack.c) packs them back to L1 as FP32. The host
 * writes the input tiles and the tile count before the run (tensim's --load) and reads the
 * output and TRISC1's cycle count afterwards (--dump). */
#ifndef SFPU_TILES_H
#define SFPU_TILES_H

#include <stdint.h>

#define SK_MAX_TILES 8        /* 32-bit Dst holds 512 rows: eight 32x32 tiles */
#define SK_TILE_BYTES 4096u   /* 1024 FP32 datums */
#define SK_IN 0x30000u        /* 16-byte header, then the input tiles back to back */
#define SK_OUT 0x40000u       /* the output tiles, 4 KiB apart */
#define SK_PARAM 0x3F000u     /* words the host writes: [0] tile count (1..SK_MAX_TILES) */
#define SK_RESULT 0x3F100u    /* words TRISC1 writes: [0] cycles of its SFPU pass, [1] tiles */
#define SK_SEM_UNPACKED 0     /* TRISC0 -> TRISC1: every tile is in Dst */
#define SK_SEM_DONE 1         /* TRISC1 -> TRISC2: the SFPU pass has finished */

#ifdef __riscv
/* The tile count the host asked for, as each of the three programs reads it (0 when out of
 * range) */
static inline unsigned sk_tiles(void)
{
    const unsigned tiles = *(volatile uint32_t *)SK_PARAM;
    return tiles >= 1 && tiles <= SK_MAX_TILES ? tiles : 0;
}
#endif

/* Each tile is stored as the unpacker reads it and the packer writes it: 64 rows of 16 datums,
 * i.e. the four 16x16 faces one after the other (rows 0-15 x cols 0-15, rows 0-15 x cols 16-31,
 * rows 16-31 x cols 0-15, rows 16-31 x cols 16-31), each row-major. Element (r, c) of a tile: */
static inline unsigned sk_face_index(unsigned r, unsigned c)
{
    return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16;
}

#endif
