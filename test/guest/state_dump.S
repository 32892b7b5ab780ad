/* Known values in the places a state dump shows (test/test_state.c): Config bank 0 word 1, Dst
 * through the RISC-V window (FP32), GPR 5 of thread 0, semaphore 3 and s2; then the instruction
 * at 0x6100 (the dump's pc) and an exit. */
#include "guest.h"
    .globl _start
_start:
    li t0, 0xFFEF0004          /* Config[0][1]: Fp32_enabled, SrcA = SrcB = BF16, Padding = 1 */
    li t1, 0x20AA0008
    sw t1, 0(t0)
    li t0, 0xFFBD8000          /* Dst32b via the window, element = row * 16 + col */
    li t1, 0x3FC00000          /* row 0 col 0: 1.5 */
    sw t1, 0(t0)
    li t1, 0x40000000          /* row 16 col 0 (face 1): 2.0 */
    sw t1, 0x400(t0)
    li t1, 0xC0500000          /* row 32 col 3 (face 2): -3.25 */
    li t2, 0xFFBD880C
    sw t1, 0(t2)
    li t0, 0xFFBD9004          /* row 64 col 1 (tile 1): 7.0 */
    li t1, 0x40E00000
    sw t1, 0(t0)
    li t0, 0xFFE00014          /* GPR[0][5] */
    li t1, 0x12345678
    sw t1, 0(t0)
    li t0, 0xFFE8002C          /* semaphore 3: three posts */
    sw zero, 0(t0)
    sw zero, 0(t0)
    sw zero, 0(t0)
    li s2, 0xCAFEF00D
    fence
    j marker
    .org 0x100
marker:
    addi s3, s2, 1
    EXIT(0)
