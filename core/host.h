/* The host's part of a run (docs/run-description.md): what tt-llk's harness does around its
 * kernels, played from a run description. Before the run it writes L1 and loads the programs with
 * the cores held in reset; during the run it looks at L1 between cycles (every poll_cycles), writes
 * words when their conditions hold, plays the boot handshake and ends the run when the end
 * condition holds; after it, it reads L1 regions back into files. It reaches the tile only as a
 * host does: L1, soft reset, the debug instruction push and the tile's registers. */
#ifndef TENSIM_CORE_HOST_H
#define TENSIM_CORE_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "run_desc.h"

struct tile;

struct host {
    const struct run_desc *rd;
    struct elf_file elf[NUM_CORES]; /* the programs, kept for their symbols and zone names */
    bool fired[RUN_MAX_ACTIONS];
    unsigned injected;      /* host boot: set-up instructions pushed so far */
    bool started_triscs;    /* brisc boot: START_TRISCS written */
    /* Where the harness's words are in this run: the layout's addresses, moved where BRISC's
     * program says they are (find_places in core/host.c). */
    struct llk_layout place;
};

/* Copy file's bytes into L1 at addr; an unreadable file, or one that does not fit, is error
 * `kind` in the tile ("<label><file>: <why>"). Returns 0 or -1. (--load uses it too.) */
int host_load_file(struct tile *t, enum err_kind kind, const char *label, const char *file,
                   uint64_t addr);
/* One of the description's L1 writes (words, or a file's bytes: an unreadable file is
 * ERR_BAD_RUN in the tile). Returns 0 or -1. (A chip run's tiles use it too.) */
int host_l1_write(struct tile *t, const struct run_desc *rd, const struct run_write *w);
/* Before the run: write L1, load the programs, set up the boot, hook the host's poll into the
 * tile. Returns 0 or -1 (error in the tile). */
int host_setup(struct host *h, struct tile *t, const struct run_desc *rd);
/* The set-up instructions the "host" boot pushes into thread 0 before releasing the TRISCs
 * (tt-llk's device_setup), in order; returns how many (at most 7). */
unsigned host_setup_words(const struct tile *t, uint32_t w[7]);
/* Did the run end because its end condition held? (false also when it has none) */
bool host_ended(const struct tile *t);
/* After a run that finished without an error: an end condition that never held is an error. */
void host_check_end(struct host *h, struct tile *t);
void host_free(struct host *h);

#endif
