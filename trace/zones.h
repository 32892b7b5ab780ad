/* tt-llk's profiler zones, read back from L1 after a run (docs/tt-llk.md "Profiler zones").
 *
 * A kernel built with LLK_PROFILER writes markers into one buffer per TRISC: two words each,
 * word 0 = type (bits 31:28: 1000 timestamp, 1001 timestamp + two data words, 1010 zone start,
 * 1011 zone end) | 16-bit id (27:12) | timestamp bits 43:32 (11:0), word 1 = timestamp bits 31:0
 * (the wall clock, RISCV_DEBUG_REG_WALL_CLOCK_L/H). The first word without bit 31 ends a buffer.
 * The id is a 16-bit fold of FNV-1a-32 of "LLK_PROFILER:file:line:marker"; the strings are in
 * the ELF's .profiler_meta section, which names the zones. */
#ifndef TENSIM_TRACE_ZONES_H
#define TENSIM_TRACE_ZONES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/llk_layout.h"
#include "../mem/elf.h"

#define ZONES_MAX 4096
#define ZONE_NAMES_MAX 512
#define ZONE_DEPTH_MAX 32

enum zone_type { ZONE_TIMESTAMP = 8, ZONE_TIMESTAMP_DATA = 9, ZONE_START = 10, ZONE_END = 11 };

struct zone_name {
    uint16_t id;
    char marker[64], file[160];
    unsigned line;
};

/* A closed zone (start..end) or a timestamp (start == end, with data for TIMESTAMP_DATA). */
struct zone {
    uint8_t thread;
    uint8_t type;   /* ZONE_START for zones, else the timestamp's type */
    uint16_t id;
    int name;       /* index into names, or -1 */
    uint64_t start, end, data;
};

struct zones {
    struct zone z[ZONES_MAX];
    unsigned n;
    struct zone_name names[ZONE_NAMES_MAX];
    unsigned nnames;
    unsigned unmatched; /* zone ends without a start, starts never ended, entries that did not fit */
};

/* "unpack", "math", "pack": tt-llk's names of the three threads (thread < LLK_THREADS). */
const char *zone_thread_name(unsigned thread);
/* The 16-bit id of a .profiler_meta string (NUL-free, `len` bytes). */
uint16_t zone_id(const char *s, unsigned len);
/* Add the zone names of program f's .profiler_meta to names[0..n) (a string already there is
 * not added again; at most max in all). Returns the new count. */
unsigned zone_names_read(const struct elf_file *f, struct zone_name *names, unsigned n,
                         unsigned max);
/* Read the buffers the layout names from L1, with names from the TRISCs' programs (elf[i] may
 * have no bytes). */
void zones_read(struct zones *z, const uint8_t *l1, const struct llk_layout *l,
                const struct elf_file elf[LLK_THREADS]);
/* "zones": [...] for the stats JSON (one line per zone, at two spaces' indent). */
void zones_json(const struct zones *z, FILE *f);
/* thread,type,marker,file,line,id,start,end,cycles,data: one row per zone or timestamp. */
void zones_csv(const struct zones *z, FILE *f);
struct tracer;
/* The zones on the trace, one track per thread. */
void zones_trace(const struct zones *z, struct tracer *tr);
/* One line per zone on the report: thread, marker, cycles. */
void zones_report(const struct zones *z, FILE *f);

#endif
