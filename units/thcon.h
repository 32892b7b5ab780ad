/* The Scalar unit (ThCon): Tensix GPRs and the 18 scalar instructions (WH:ScalarUnit.md).
 * Owner of this file: the ThCon work (see units/thcon.c; timing in docs/timing-model.md,
 * section "Scalar unit (ThCon)").
 *
 * One instruction executes at a time. Its thread stays frozen at the Wait Gate until the
 * instruction completes (`thread[th].thcon_running`); other threads wanting ThCon wait with
 * GS_UNIT_BUSY. Memory instructions send one request to L1 or MMIO; loads (LOADIND, LOADREG,
 * ATINCGET) complete before their data reaches the GPRs, so the data waits in `res[]` and
 * STALLWAIT/FLUSHDMA condition C0 holds for the thread until it has been written. STOREIND to
 * SrcA/SrcB holds the unit and its thread while the bank it targets belongs to the matrix unit.
 * REG2FLOP writes Config or an ADC (t->adc). */
#ifndef TENSIM_UNITS_THCON_H
#define TENSIM_UNITS_THCON_H

#include <stdbool.h>
#include <stdint.h>

#include "unit.h"

#define NUM_GPRS 64

/* Results on their way back to the GPRs. Requests leave at least 3 cycles apart and the
 * longest trip is 27 cycles (ATINCGET), so at most 9 can be in flight; 16 leaves room. */
#define THCON_RESULTS_MAX 16

/* What the unit is doing beyond "busy until done_at". */
enum thcon_op {
    THCON_OP_PLAIN,    /* completes at done_at */
    THCON_OP_FLUSH,    /* FLUSHDMA: completes once its conditions hold (not before flush_min) */
    THCON_OP_ATCAS,    /* retries every attempt until the compare succeeds */
    THCON_OP_ATINCPTR, /* ATINCGETPTR: retries until the FIFO test passes */
    THCON_OP_SRC,      /* STOREIND to SrcA/SrcB: waits (done_at CYCLE_NEVER) until its bank
                        * belongs to the unpackers, then writes and completes 3 cycles later */
};

/* Where a memory request goes; performed at `at` (usually the issue cycle). */
enum thcon_req_kind {
    THCON_REQ_NONE,
    THCON_REQ_L1_LOAD,   /* LOADIND: read `size` bytes, result to GPRs later */
    THCON_REQ_L1_STORE,  /* STOREIND (L1 form) */
    THCON_REQ_MMIO_LOAD, /* LOADREG */
    THCON_REQ_MMIO_STORE,/* STOREREG, STOREIND (MMIO form) */
    THCON_REQ_ATSWAP,    /* masked 128-bit store */
    THCON_REQ_ATINCGET,  /* atomic increment, old value to the GPR later */
};

struct thcon_req {
    uint8_t kind;   /* enum thcon_req_kind */
    uint8_t thread;
    uint8_t reg;    /* result GPR (loads) */
    uint8_t size;   /* bytes: 16, 4, 2, 1 */
    uint8_t mask;   /* ATSWAP granule mask */
    uint32_t addr;
    uint32_t data[4]; /* store data / ATINCGET: data[0] increment, data[1] integer mask */
    uint64_t at;
};

/* Data travelling back to GPRs[thread][reg..]: `size` bytes (16 = four GPRs; 2 and 1 write the
 * low bits of one GPR and keep the rest). Written at the start of cycle `at`. */
struct thcon_result {
    uint64_t at;
    uint32_t data[4];
    uint8_t thread, reg, size;
};

/* A STOREIND to SrcA/SrcB between its issue and its write (WH:STOREIND_Src.md): everything the
 * page computes before its wait loop. Row, SrcRow and SRCA_SET_SetOvrdWithAddr come after the
 * loop in the page, so they are read when the write happens. */
struct thcon_src_store {
    uint8_t which;     /* 0 SrcA, 1 SrcB (StoreToSrcB) */
    uint8_t bank;      /* Unpackers[which].SrcBank at issue: the bank waited for and written */
    uint16_t addr;     /* GPR[AddrReg] + (offset >> 4), checked to fit 16 bits */
    uint32_t datum[4]; /* 19-bit Src cells, BF16 layout */
};

struct thcon_unit {
    bool busy;            /* an instruction is executing (no pipelining) */
    unsigned busy_thread; /* its thread */
    uint64_t done_at;     /* cycle at which it completes (CYCLE_NEVER while it waits) */
    uint8_t op;           /* enum thcon_op */
    uint32_t word;        /* ATCAS / ATINCGETPTR being retried */
    uint64_t attempt_at;  /* ATCAS / ATINCGETPTR: next attempt */
    uint64_t flush_min;   /* FLUSHDMA: earliest completion */
    uint8_t flush_mask;   /* FLUSHDMA: conditions C0..C3 */
    bool any_req, any_atomic;      /* a request / an ATSWAP or ATINCGET has been sent */
    uint64_t last_req, last_atomic; /* ... and when */
    struct thcon_req req;          /* the request of the running instruction, until sent */
    struct thcon_src_store src;    /* THCON_OP_SRC */
    struct thcon_result res[THCON_RESULTS_MAX]; /* in the order the requests left */
    unsigned nres;
    uint64_t busy_since;
    uint64_t last_busy; /* 1 + the last cycle the unit finished work */
    struct {
        uint64_t insns;      /* instructions accepted */
        uint64_t busy_cycles; /* cycles an instruction occupied the unit */
        uint64_t requests;   /* L1/MMIO requests sent, ATCAS/ATINCGETPTR attempts included */
        uint64_t attempts;   /* ATCAS/ATINCGETPTR attempts ... */
        uint64_t retries;    /* ... of which failed */
        uint64_t rate_waits; /* cycles requests waited for the request-rate limits */
        uint64_t src_waits;  /* cycles STOREIND to SrcA/SrcB waited for its bank */
    } st;
};

/* `holds`: STALLWAIT / FLUSHDMA C0, ThCon has memory requests outstanding for thread th. */
extern const struct unit_desc thcon_unit_desc;

#endif
