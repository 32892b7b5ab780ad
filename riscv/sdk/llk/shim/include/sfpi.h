/* sfpi.h for tt-llk's TTI_-written SFPU kernels, in builds with Debian's stock compiler.
 *
 * SFPI's real header is a C++ vector library over its compiler's __builtin_rvtt_* builtins;
 * stock g++ has none of them. The SFPU kernels tt-llk writes with TTI_ macros alone (the ones
 * `tensim-llk --sfpu-survey` lists as pure) still include sfpi.h, for two things only:
 *  - `sfpi::dst_reg++`, which steps the Dst read/write counter to the next 32 datums: an INCRWC
 *    with DstInc 2 (BH:INCRWC.md; two Dst rows of the SFPU's 4x8 lanes per step, BH:SFPLOAD.md
 *    "Cross-lane data movement pattern");
 *  - the names of some instruction modifiers, given here with the values of the ISA pages'
 *    "Supporting definitions".
 * A kernel written with SFPI's vector types (vFloat, v_if, ...) still fails to compile, as it
 * should: it needs SFPI's compiler. Nothing here is taken from SFPI.
 */
#ifndef TENSIM_LLK_SFPI_H
#define TENSIM_LLK_SFPI_H

#include <cstdint>

/* SFPI's spelling of a forced inline, which some TTI kernels use for their helpers */
#define sfpi_inline inline __attribute__((always_inline))

namespace sfpi
{

/* INCRWC: opcode 0x38, DstInc in bits 17:14 (BH:INCRWC.md) */
constexpr std::uint32_t incrwc_dst_word(std::uint32_t dst_inc)
{
    return (0x38u << 24) | ((dst_inc & 0xFu) << 14);
}

/* Dst advanced by `n` SFPU vectors, two rows each */
struct dst_counter
{
    [[gnu::always_inline]] void step(std::uint32_t n) const
    {
        const std::uint32_t word = incrwc_dst_word(2 * n);
        if (__builtin_constant_p(word))
        {
            __asm__ __volatile__(".ttinsn %0" : : "n"(word));
        }
        else
        {
            *reinterpret_cast<volatile std::uint32_t *>(0xFFE40000u) = word; // instruction push
        }
    }

    [[gnu::always_inline]] void operator++(int) const { step(1); }
    [[gnu::always_inline]] void operator++() const { step(1); }
    [[gnu::always_inline]] void operator+=(std::uint32_t n) const { step(n); }
};

constexpr dst_counter dst_reg {};

/* SFPLOAD / SFPSTORE Mod0 (BH:SFPLOAD.md, BH:SFPSTORE.md) */
constexpr unsigned int SFPLOAD_MOD0_FMT_SRCB   = 0;
constexpr unsigned int SFPLOAD_MOD0_FMT_FP32   = 3;
constexpr unsigned int SFPLOAD_MOD0_FMT_INT32  = 4;
constexpr unsigned int SFPSTORE_MOD0_FMT_SRCB  = 0;
constexpr unsigned int SFPSTORE_MOD0_FMT_FP32  = 3;
constexpr unsigned int SFPSTORE_MOD0_FMT_INT32 = 4;

/* SFPLOADI Mod0 (BH:SFPLOADI.md): BF16, "FP16", unsigned and signed 16-bit, upper and lower half */
constexpr unsigned int SFPLOADI_MOD0_FLOATB = 0;
constexpr unsigned int SFPLOADI_MOD0_FLOATA = 1;
constexpr unsigned int SFPLOADI_MOD0_USHORT = 2;
constexpr unsigned int SFPLOADI_MOD0_SHORT  = 4;
constexpr unsigned int SFPLOADI_MOD0_UPPER  = 8;
constexpr unsigned int SFPLOADI_MOD0_LOWER  = 10;

/* SFPSETCC Mod1 (BH:SFPSETCC.md) */
constexpr unsigned int SFPSETCC_MOD1_LREG_LT0  = 0;
constexpr unsigned int SFPSETCC_MOD1_IMM_BIT0  = 1;
constexpr unsigned int SFPSETCC_MOD1_LREG_NE0  = 2;
constexpr unsigned int SFPSETCC_MOD1_LREG_GTE0 = 4;
constexpr unsigned int SFPSETCC_MOD1_LREG_EQ0  = 6;

/* SFPENCC Mod1 (BH:SFPENCC.md): EU_R1 leaves UseLaneFlagsForLaneEnable and sets LaneFlags;
 * EI_RI sets both from the immediate */
constexpr unsigned int SFPENCC_MOD1_EU_R1 = 0;
constexpr unsigned int SFPENCC_MOD1_EI_RI = 10;

/* SFPIADD Mod1 (BH:SFPIADD.md) */
constexpr unsigned int SFPIADD_MOD1_ARG_LREG_DST        = 0;
constexpr unsigned int SFPIADD_MOD1_ARG_IMM             = 1;
constexpr unsigned int SFPIADD_MOD1_ARG_2SCOMP_LREG_DST = 2;
constexpr unsigned int SFPIADD_MOD1_CC_NONE             = 4;

/* SFPEXMAN Mod1 (BH:SFPEXMAN.md): the hidden bit left out */
constexpr unsigned int SFPEXMAN_MOD1_PAD9 = 1;

/* SFPMUL24 Mod1 (BH:SFPMUL24.md): the low 23 bits of the product unless UPPER */
constexpr unsigned int SFPMUL24_MOD1_LOWER = 0;
constexpr unsigned int SFPMUL24_MOD1_UPPER = 1;

} // namespace sfpi

#endif
