/* State dumps (tensim run --dump-state WHEN:WHAT:FILE, docs/user-guide.md "State dumps"): a
 * tile's state at a chosen moment, as JSON Lines (one document per dump) or as readable text.
 *
 * WHEN is parsed here and armed through the tile's dump hook (core/tile.h struct
 * tile_dump_hook): the scheduler stops at a cycle boundary, the executor reports the issues of
 * watched cores, the regions their marks, the Wait Gates their issues; with no dump armed the
 * hook is NULL and nothing is looked at. zone= dumps (tt-llk profiler zones) watch the stores of
 * one TRISC for the first word of a marker with the zone's id going into its profiler buffer.
 * The dump reads each piece of state through its owner:
 * Dst through units/dest.h, the LRegs through sfpu_lane_view, the GPRs through gpr_peek, the
 * configuration through the cfg_*.def tables, the CSRs through csr_peek; it changes nothing,
 * so a run with dumps takes the same cycles and writes the same outputs as one without.
 * cycle= dumps are taken by tile_run (the command line's); tile_run_until, which runs tiles in
 * windows, does not look at them. */
#ifndef TENSIM_TRACE_STATE_H
#define TENSIM_TRACE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/llk_layout.h"
#include "../core/tile.h"

struct elf_file;

#define STATE_MAX_SPECS 16

/* What a dump holds (WHAT, a comma list; "all" is every one). */
enum {
    SW_DST = 1u << 0,   /* Dst: tiles of 32x32 in its current format, and the raw cells */
    SW_SRCA = 1u << 1,  /* SrcA's two banks, their owners and the bank pointers */
    SW_SRCB = 1u << 2,
    SW_LREGS = 1u << 3, /* the vector unit's LRegs and lane flags */
    SW_GPRS = 1u << 4,  /* each Tensix thread's 64 GPRs */
    SW_CFG = 1u << 5,   /* Config banks 0 and 1 and ThreadConfig, every field by name */
    SW_SEM = 1u << 6,   /* semaphores and mutexes */
    SW_PIPE = 1u << 7,  /* each thread's FIFOs, MOP and replay expanders, Wait Gate */
    SW_RV = 1u << 8,    /* the RISC-V cores: state, pc, registers, CSRs */
    SW_ALL = (1u << 9) - 1
};

enum state_when { SWHEN_CYCLE, SWHEN_PC, SWHEN_REGION, SWHEN_REGION_BEGIN, SWHEN_REGION_END,
                  SWHEN_INSN, SWHEN_ERROR, SWHEN_ZONE, SWHEN_ZONE_BEGIN, SWHEN_ZONE_END };

#define STATE_ZONE_IDS 8 /* ids one marker name may have (the same name at several places) */

struct state_spec {
    char text[64];        /* WHEN as written, for labels and messages */
    enum state_when when;
    uint64_t cycle;       /* cycle=N */
    uint32_t pc;          /* pc=ADDR@CORE */
    unsigned core;        /* pc, region: the core; insn, zone: the thread */
    unsigned region;      /* region id */
    char mnemonic[24];    /* insn=MNEMONIC@Tn, upper case */
    uint8_t form[(TT_FORM_COUNT + 7) / 8]; /* insn: the forms with that mnemonic (state_resolve) */
    char marker[64];      /* zone=MARKER@THREAD */
    uint16_t zone_id[STATE_ZONE_IDS]; /* zone: the ids of the strings naming it (state_spec_zone) */
    unsigned nzone_ids;
    unsigned what;        /* SW_* bits */
    const char *file;
    bool json;            /* FILE ends in .json */
    FILE *f;              /* opened by the caller */
    unsigned count;       /* dumps written so far */
    bool fired;           /* cycle=: done */
};

struct state_dumps {
    struct state_spec spec[STATE_MAX_SPECS];
    unsigned n;
    struct tile_dump_hook hook;
    const struct llk_layout *place; /* where the profiler buffers are (zone=), or NULL */
};

/* Parse one WHEN:WHAT:FILE into *s (v is split in place). Returns 0, or -1 with the reason in
 * err[0..n). */
int state_spec_parse(char *v, struct state_spec *s, char *err, size_t n);
/* A WHAT list ("dst,sem" or "all"; v is split in place) into SW_* bits. Returns 0, or -1 with
 * the reason in err. */
int state_what_parse(char *v, unsigned *what, char *err, size_t n);
/* Checks that need the architecture (an insn= mnemonic must name an instruction of it).
 * Returns 0, or -1 with the reason in err. */
int state_spec_resolve(struct state_spec *s, unsigned arch_bit, char *err, size_t n);
/* Is s a zone= (zone-begin=, zone-end=) dump? */
bool state_spec_is_zone(const struct state_spec *s);
/* Resolve a zone= spec's marker into the ids that name it in `prog`, the program of the spec's thread (its
 * .profiler_meta; `path` for messages). Returns 0, or -1 with the reason in err (the markers
 * the program names, the nearest first). */
int state_spec_zone(struct state_spec *s, const struct elf_file *prog, const char *path, char *err,
                    size_t n);
/* Arm the dumps on tile t (every spec's f open; d->place set when there are zone= ones):
 * t->dump points into d until state_finish. */
void state_arm(struct state_dumps *d, struct tile *t);
/* The run stopped with an error: the error= dumps, before the report. */
void state_at_error(struct state_dumps *d, struct tile *t);
/* Disarm, and a note on `notes` for every WHEN that never happened. */
void state_finish(struct state_dumps *d, struct tile *t, FILE *notes);

/* One dump of `what` to f: a JSON document on one line (json) or the text view. `number` and
 * `event` label it. Reads only; usable at any cycle boundary or from a hook. */
void state_write(const struct tile *t, unsigned what, bool json, unsigned number,
                 const char *when, const char *event, FILE *f);

#endif
