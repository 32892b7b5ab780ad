/* CSRs of the baby RISC-V cores (BHR:CSRs.md). */
#ifndef TENSIM_RISCV_CSR_H
#define TENSIM_RISCV_CSR_H

#include <stdbool.h>
#include <stdint.h>

struct tile;
struct rv_core;

#define CSR_CFG0 0x7C0
#define CFG0_DIS_LD_BUF_BYP (1u << 0)
#define CFG0_DIS_LOW_CACHE (1u << 3)
#define CFG0_DIS_CSR_SYNC (1u << 10)
#define CFG0_DIS_ST_MERGE (1u << 12)
#define CFG0_ST_MERGE_TIMER_SHIFT 13
#define CFG0_ST_MERGE_TIMER_MASK 0x1Fu
#define CFG0_DIS_TRISC_CACHE (1u << 18)
#define CFG0_DIS_L0_PERIODIC_FLUSH (1u << 24)
#define CFG0_DIS_TT_STATUS (1u << 29)
/* At reset every cfg0 field is zero except StMergeTimer = 16. */
#define CFG0_RESET (16u << CFG0_ST_MERGE_TIMER_SHIFT)

/* Read-modify-write of CSR `csr` at cycle `now`: *old receives the previous value; the new
 * value is written when `write` is set. Returns false after raising an error in the tile. */
bool csr_access(struct tile *t, struct rv_core *c, uint64_t now, unsigned csr, bool write,
                uint32_t (*update)(uint32_t old, uint32_t operand), uint32_t operand,
                uint32_t *old);

/* Does an access to CSR `csr` touch only the core's own state (its configuration, scratch
 * registers and counters, the constants)? Run-ahead (riscv/core.h) needs no other agent for it. */
bool csr_own(unsigned csr);

/* The value a read of CSR `csr` would give at cycle `now`, changing nothing (state dumps):
 * false for a CSR the core does not have or tensim does not model. */
bool csr_peek(const struct tile *t, const struct rv_core *c, uint64_t now, unsigned csr,
              uint32_t *v);

#endif
