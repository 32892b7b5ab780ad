/* One Tensix thread's instruction pipe (spec/sync-timing.md §1):
 *   FIFO1 -> MOP expander -> FIFO2 -> replay expander -> FIFO3 -> Wait Gate -> backend unit
 * and the Wait Gate's state: the latched STALLWAIT/SEMWAIT and the per-thread accounting that
 * attributes every cycle to "issued", one stall reason, or "empty" (nothing at the gate). */
#ifndef TENSIM_SYNC_THREAD_H
#define TENSIM_SYNC_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "../units/unit.h"
#include "fifo.h"
#include "mop.h"
#include "replay.h"


struct latched_wait {
    bool active;
    bool is_semwait;
    uint16_t block_mask; /* B0..B8 */
    uint16_t cond_mask;  /* STALLWAIT conditions (arch numbering), or SEMWAIT C0/C1 */
    uint8_t sem_mask;    /* SEMWAIT semaphores */
    uint32_t word;       /* for reports */
    tt_origin origin;    /* the STALLWAIT/SEMWAIT's push: what the cycles it holds are charged to */
};

/* What the gate did in one cycle. */
enum gate_outcome { GATE_EMPTY, GATE_ISSUED, GATE_STALLED };

struct thread_stats {
    uint64_t issued;                  /* cycles in which an instruction passed the gate */
    uint64_t empty;                   /* cycles with nothing at the gate */
    uint64_t stall[GS_COUNT];         /* cycles held, by reason */
    uint64_t stall_detail[GS_COUNT][GATE_DETAIL_MAX]; /* by condition bit / semaphore / unit / mutex */
    uint64_t by_form[TT_FORM_COUNT];  /* instructions issued, by form */
    uint64_t semwait_full;            /* of stall[GS_SEMWAIT]: waiting for a semaphore below Max
                                         (the rest wait for one above zero) */
};
/* In acct_detail of a GS_SEMWAIT interval (never in stall_detail): the semaphore is full. */
#define SEMWAIT_DETAIL_FULL 0x40u

#define TT_DEC_CACHE 8u /* struct tensix_thread dec_cache entries (sync/gate.c gate_decode's
                           * hash makes 3 bits) */

struct tensix_thread {
    struct tt_fifo fifo1;  /* before the MOP expander: TRISC pushes */
    struct mop_expander mop;
    struct tt_fifo fifo2;  /* after the MOP expander: BRISC pushes join here */
    struct replay_expander replay;
    struct tt_fifo fifo3;  /* before the Wait Gate */
    struct latched_wait wait;
    bool thcon_running;    /* this thread's ThCon instruction has not completed */
    uint64_t frozen_until; /* a unit holds the whole thread until this cycle (WH RDCFG) */
    uint8_t frozen_unit;   /* ... that unit (enum tt_unit), for the stall detail */
    unsigned blocked_cores; /* bit per core id blocked pushing into this thread */
    uint64_t pushed;
    /* The last word decoded at this thread's gate (`dec`; its form NULL: none yet), and the
     * words decoded here before, by a hash of the word (`dec_cache`; an empty entry's form is
     * NULL). The gate looks at the same head word every cycle it is held, and a replayed loop
     * brings back a few words that differ in a field (MVMULs to several Dst blocks); tt_decode
     * is a pure function of the word (and the tile's architecture, fixed) and every unit's
     * resource a function of the form, so an entry holds for good. */
    struct tt_decoded {
        uint32_t word;
        const struct tt_form *form;
        unsigned index; /* form - tt_forms (by_form's index) */
        /* its unit (unit_desc_for), or NULL where the gate cannot issue it: a MOP or REPLAY
         * there, or a unit not modelled (the lone-thread cycle, sync/gate.c, then leaves it to
         * the general one, which reports it) */
        const struct unit_desc *unit;
        unsigned res; /* unit's resource for the word (units/unit.h), RES_NONE without one */
    } dec, dec_cache[TT_DEC_CACHE];

    /* Accounting: the outcome holding since `acct_since` (see gate.c). */
    enum gate_outcome acct_outcome;
    enum gate_stall acct_reason;
    uint32_t acct_detail;
    uint64_t acct_since;
    tt_origin acct_origin; /* the push a held interval is charged to (profile, sync/origin.h) */
    uint64_t head_held;    /* cycles the instruction at the gate was held (only with --profile) */
    struct thread_stats st;
};

struct tile;
/* No instruction of thread th anywhere in its pipe, its expanders, ThCon's latch or a unit whose
 * registry row says holding one keeps the thread undrained (U_DRAIN). */
bool thread_drained(const struct tile *t, unsigned th);

#endif
