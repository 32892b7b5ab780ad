/* A fused group: four .ttinsn NOPs at 0x6000..0x600c, which a Blackhole TRISC pushes in one
 * cycle as one group (test/test_state.c: a pc= dump at each of the four words fires, all in
 * the group's cycle). */
#include "guest.h"
#define TTINSN_NOP 0x08000000 /* NOP 0x02000000 rotated left by 2 (riscv/sdk/tensim.h) */
    .globl _start
_start:
    .word TTINSN_NOP
    .word TTINSN_NOP
    .word TTINSN_NOP
    .word TTINSN_NOP
    EXIT(0)
