/* Force-included (-include) into every translation unit built with Debian's stock
 * riscv64-unknown-elf-g++.
 *
 * tt-llk issues compile-time Tensix instructions with the SFPI assembler's `.ttinsn WORD`
 * directive. A Tensix instruction sits in the RISC-V instruction stream as its 32-bit word
 * rotated left by two bits, so that the low two bits are never 0b11 (the mark of a 32-bit
 * RISC-V instruction). Stock GNU as has no such directive, but it looks a dotted name up
 * among macros when it is no built-in directive, so an assembler macro of that name emits
 * the rotated word with .word. The operand may arrive negative (gcc prints SImode constants
 * signed): the AND with 3 after the shift keeps the top two bits right either way, and the
 * final mask keeps the expression within 32 bits.
 *
 * A top-level asm is emitted before any function's code, so the macro is defined before its
 * first use in the file.
 */
#ifndef TENSIM_LLK_TTINSN_H
#define TENSIM_LLK_TTINSN_H

__asm__(".macro .ttinsn word\n"
        "\t.word ((((\\word) << 2) | (((\\word) >> 30) & 3)) & 0xffffffff)\n"
        ".endm\n");

#endif
