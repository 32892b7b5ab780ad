/* What the differential test's kernel files share (test/diff/kernel.c: the single-tile stages and
 * the row pack; test/diff/llk.c: the kernels shaped like tt-llk's tilize, pack untilize and
 * multi-tile matmul): the instruction push, the Config image and the per-architecture encodings.
 * docs/numerics.md "Checking against ttsim". */
#ifndef TENSIM_TEST_DIFF_KERNEL_H
#define TENSIM_TEST_DIFF_KERNEL_H

#include <stdint.h>

#include "params.h"
#include "tensix_cfg.h"
#include "tensix_ops.h"

#define CFG ((volatile uint32_t *)0xFFEF0000u)    /* Config state 0, the RISC-V view */
#define INSTRN ((volatile uint32_t *)0xFFE40000u) /* this thread's instruction push address */
#define TTSYNC ((volatile uint32_t *)0xFFE80004u) /* a load waits until the thread is idle */
#define STATUS ((volatile uint32_t *)DT_STATUS)

static inline void push(uint32_t w) { *INSTRN = w; }
static inline void wait_idle(void) { (void)*TTSYNC; }

/* The Config image (kernel.c): whole words, written when flushed. A word the coprocessor
 * rewrites itself (WRCFG) must be set here again before the kernel relies on it. */
void setf(unsigned w, unsigned shift, uint32_t mask, uint32_t v);
void setw(unsigned w, uint32_t v);
void flush_cfg(void);
#define SETF(name, v) setf(name##_ADDR32, name##_SHAMT, name##_MASK, (uint32_t)(v))
#define FIELD(name, v) (((uint32_t)(v) << name##_SHAMT) & name##_MASK)

/* ADDR_MOD slot 0 is cached by kernel.c's single-tile stages; code that writes the slot
 * itself forgets the cache. */
void addr_mod0_forget(void);

/* ---- instruction words (units/tensix.def through tensix_ops.h) ---- */
#ifdef TENSIM_ARCH_WH
#define ZEROACC_ALL(d32) TT_OP_ZEROACC_WH(d32, 3, 0, 0, 0)
#define MOVB2D_4ROWS(src, dst) TT_OP_MOVB2D_WH(0, src, 0, 1, 0, 0, dst)
#define PACR(am, last) TT_OP_PACR_WH(am, 0, 1, 0, 0, 0, last) /* packer 0 only */
#define PACK_X_END 63 /* WH: the packer's ADC X range is the datum count: 4 rows of 16 */
#define STALLWAIT(block, cond) TT_OP_STALLWAIT_WH(block, cond)
#else
#define ZEROACC_ALL(d32) TT_OP_ZEROACC_BH(3, d32, 0, 0, 0)
#define MOVB2D_4ROWS(src, dst) TT_OP_MOVB2D_BH(0, src, 0, 4, dst)
#define PACR(am, last) TT_OP_PACR_BH(0, 0, 0, am, 0, 0, 0, 0, 0, 0, 0, last) /* 4 read interfaces */
#define PACK_X_END 15 /* BH: X covers one row; the four read interfaces give four rows */
#define STALLWAIT(block, cond) TT_OP_STALLWAIT_BH(block, cond)
#endif
#define UNPACR(which, flip) TT_OP_UNPACR(which, 0, 0, 0, 0, 0, 0, 1, flip, 0, 0, 0, 1)

/* STALLWAIT masks, the same on both architectures (WH:STALLWAIT.md, BH:STALLWAIT.md) */
#define STALL_CFG 0x80u  /* block: Config writes (WRCFG, RDCFG, SETC16) */
#define COND_THCON 0x1u  /* until the thread's ThCon instructions (ADDDMAREG...) are done */

/* The stages and packs of llk.c (0 or the kernel's failure code). */
int run_tilize(const struct dt_params *p, const struct dt_stage *s, unsigned idx);
int run_matmul(const struct dt_params *p, const struct dt_stage *s, unsigned idx);
int pack_tiles(const struct dt_params *p);
int pack_tilize(const struct dt_params *p);
int pack_untilize(const struct dt_params *p);
void dst_remap_for_untilize(void);
void pack_config(const struct dt_params *p);
void math_dst_tile(unsigned t);
void unpack_dst_tile(unsigned t);
uint32_t l1_tile_bytes(unsigned fmt);

#endif
