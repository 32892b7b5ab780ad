/* What the multi-tile examples share (riscv/sdk/examples/chip; docs/sdk.md "Dataflow between
 * tiles"): where in L1 the host puts a tile's runtime arguments and the semaphores, and where the
 * data buffers start. The run descriptions (written by gen.c) fill the arguments and zero the
 * semaphores before the cores start.
 *
 *   0x20000  runtime arguments, 32-bit words (CHIP_ARG(i)), written by the run description
 *   0x20100  semaphores, one per 16-byte line (CHIP_SEM(i)): other tiles change them over the
 *            NoC, so each gets a line of its own (the L1 alignment tt-metal gives semaphores)
 *   0x21000  data buffers
 *
 * Included by the kernels and by the host generator (plain C, no SDK headers). */
#ifndef CHIP_EXAMPLES_H
#define CHIP_EXAMPLES_H

#include <stdint.h>

#define CHIP_ARGS 0x20000u
#define CHIP_SEMS 0x20100u
#define CHIP_NSEMS 8u
#define CHIP_SEM_ADDR(i) (CHIP_SEMS + 16u * (i))
#define CHIP_BUF 0x21000u

#ifndef CHIP_HOST
#include <stdio.h>

#include "dataflow.h"

static inline uint32_t chip_arg(unsigned i) { return ((volatile uint32_t *)(uintptr_t)CHIP_ARGS)[i]; }
static inline volatile uint32_t *chip_sem(unsigned i) { return (volatile uint32_t *)(uintptr_t)CHIP_SEM_ADDR(i); }
static inline volatile uint32_t *chip_l1(uint32_t addr) { return (volatile uint32_t *)(uintptr_t)addr; }

/* A mismatch: say where (tile, what, word index, value and expected) and give the exit code. */
static inline int chip_fail(int code, const char *what, unsigned i, uint32_t got, uint32_t want)
{
    printf("tile (%u, %u): %s: word %u is 0x%08lx, expected 0x%08lx\n", df_my_x(), df_my_y(), what, i,
           (unsigned long)got, (unsigned long)want);
    return code;
}
#endif

#endif
