/* Inside the vector unit: its timing rules (units/sfpu_timing.c) and SFPLOADMACRO
 * (units/sfpu_macro.c), used by the unit interface in units/sfpu.c. Not for other units.
 *
 * Every SFPU form has a row in units/tensix.def (TT_SFPU): its sub-unit, latency and operand
 * pattern. From those, and from the instruction pages' scheduling sections, come: the latency
 * of each instruction (STALLWAIT "SFPU busy", the end of a run), Blackhole's one-cycle interlock
 * after a MAD-class instruction and its documented holes, the cycle after SFPSWAP and
 * SFPSHFT2's lane shuffles, Wormhole's software rules, and the conflicts between SFPLOADMACRO's
 * scheduled instructions and regular ones. docs/sfpu.md "SFPLOADMACRO and timing". */
#ifndef TENSIM_UNITS_SFPU_TIMING_H
#define TENSIM_UNITS_SFPU_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "sfpu_lanes.h"

struct tile;

/* Dst.md "Instruction scheduling": after an instruction writes Dst, its aligned 8x16 block
 * cannot be read for the next four cycles; the matrix unit and PACR stall on it (SFPLOAD does
 * not: SFPLOAD.md makes the gap software's job). A store at c frees its blocks at c + 5. */
#define SFPU_STORE_DST_BUSY 5

/* A form's row (units/tensix.def TT_SFPU): enum sfpu_sub, latency, enum sfpu_ops. */
struct sfpu_form_timing {
    uint8_t sub, latency, ops;
};
/* The row of form (enum tt_form_id); a zero row (sub SIMPLE, latency 0) for non-SFPU forms. */
const struct sfpu_form_timing *sfpu_form_timing(unsigned form);
/* Cycles from issue until the result can be read, with the modes that change it. */
unsigned sfpu_latency(unsigned form, uint32_t w);
/* May the sub-unit execute the form when SFPLOADMACRO schedules it (SFPLOADMACRO.md's column
 * table; SFPNOP anywhere but the store sub-unit)? */
bool sfpu_sub_can_execute(unsigned sub, unsigned form);

/* LRegs read and written (bit r: LReg[r], r 0..16), as the functional model does them with
 * the operands in the word. The state gives LReg[7] for the indirect modes and LaneConfig for
 * SFPSWAP's index registers and SFPLOAD's index capture. */
struct sfpu_regs {
    uint32_t rd, wr;
};
struct sfpu_regs sfpu_regs_of(const struct sfpu_state *s, unsigned form, uint32_t w, bool wh);

/* Operand fields by form (units/tensix.def): VD (SFPLOADMACRO's VDHi:VDLo), and the word with
 * VD replaced; SFPSHFT2: is Mod1 a lane shuffle (2, 3, 4), its VB (Imm12's low bits). */
unsigned sfpu_field_vd(unsigned form, uint32_t w);
uint32_t sfpu_field_set_vd(unsigned form, uint32_t w, unsigned v);
bool sfpu_shft2_shuffle(uint32_t w);
unsigned sfpu_shft2_vb(uint32_t w);
/* Forms with the VD >= 12 backdoor into LoadMacroConfig (SFPCONFIG.md). */
bool sfpu_has_backdoor(unsigned form);
/* The stats key of a hazard. */
const char *sfpu_hazard_key(enum sfpu_hazard h);

/* Phase 1 of a cycle (can_accept): does an interlock hold this regular instruction for the
 * cycle? Blackhole's MAD-class interlock (GS_HAZARD), the cycle after SFPSWAP (both) or an
 * SFPSHFT2 lane shuffle (Blackhole) that accepts only SFPNOP (GS_UNIT_BUSY). */
enum gate_stall sfpu_interlock(const struct tile *t, unsigned form, uint32_t w, uint32_t *detail);

/* An instruction is about to run in the current cycle (a regular one at issue, or one scheduled
 * by SFPLOADMACRO) in sub-unit `sub`, reading and writing `regs` (real LRegs; vd16: it writes
 * LReg[16]): check the rules that constrain it against what ran the cycle before and
 * what else runs in this cycle. False when the run stops (the error is raised); *discard when a
 * regular instruction loses its sub-unit to a scheduled one (it is counted and warned about). */
bool sfpu_check(struct tile *t, unsigned th, unsigned form, uint32_t w, bool macro, unsigned sub,
                struct sfpu_regs regs, bool vd16, bool *discard);
/* Start of a coprocessor step (before the scheduled instructions of the cycle). */
void sfpu_timing_tick(struct tile *t);
/* It ran: note what it constrains in the next cycle. `regs` as sfpu_regs_of before it ran. */
void sfpu_note(struct tile *t, unsigned th, unsigned form, uint32_t w, bool macro,
               struct sfpu_regs regs);
/* A hazard: a software rule broken (stops the run with ERR_UNDEF_BEHAVIOUR unless the tile
 * accepts unpredictable values) or, with `warn_only`, a documented outcome software should
 * avoid. Counted; one warning per kind. False when the run stops. */
bool sfpu_hazard(struct tile *t, enum sfpu_hazard h, bool warn_only, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* SFPLOADMACRO (units/sfpu_macro.c). */
bool sfpu_loadmacro(struct tile *t, unsigned th, uint32_t w, bool wh, struct sfpu_fault *f);
/* A thread issued an SFPU instruction: the WaitForElapsedInstructions counters move. */
void sfpu_macro_issued(struct tile *t);
/* Start of cycle t->now: counters up to date, scheduled instructions due now run. */
void sfpu_macro_tick(struct tile *t);
/* The next cycle a scheduled instruction runs (CYCLE_NEVER: none will without more SFPU
 * instructions). */
uint64_t sfpu_macro_next(const struct tile *t);
/* Does thread th have scheduled instructions that will run without more SFPU instructions? */
bool sfpu_macro_holds(const struct tile *t, unsigned th);
/* A regular instruction in a cycle whose scheduled instructions already ran: rewind puts the
 * state back to the cycle's start (keeping what they made in `after`) and says whether it did;
 * merge then keeps the regular instruction's changes over `after`. */
bool sfpu_macro_rewind(struct tile *t, uint8_t after[SFPU_ARCH_BYTES]);
void sfpu_macro_merge(struct tile *t, const uint8_t after[SFPU_ARCH_BYTES]);
/* Scheduled instructions not yet run (all threads). */
unsigned sfpu_macro_pending(const struct tile *t);

/* The compute path of units/sfpu.c for one simple, MAD or round instruction (SFPNOP,
 * SFPCONFIG and the functional models of execute()) on the lanes that run its model. */
bool sfpu_run(struct tile *t, unsigned th, unsigned form, uint32_t w, uint32_t lanes,
              struct sfpu_fault *f);
/* Latency bookkeeping of an instruction of thread th that ran in cycle t->now. */
void sfpu_busy(struct tile *t, unsigned th, unsigned latency);
/* Sub-unit `sub` ran `form` for thread th in cycle t->now: a slice on its trace track. */
void sfpu_trace(struct tile *t, unsigned th, unsigned form, unsigned sub);

#endif
