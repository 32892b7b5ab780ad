/* The host's part of a run (core/host.h, docs/run-description.md). */
#include "host.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/elf.h"
#include "../mem/map.h"
#include "../sync/push.h"
#include "../trace/trace.h"
#include "hostio.h"
#include "tile.h"
#include "tensix_ops.h"

enum { BRISC_SENTINEL = 0xFFFFFFFFu, DEST_CG_CTRL = 0xFFB12240u };

static void write_words(struct tile *t, uint32_t addr, const uint32_t *w, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        le_put(t->l1 + addr + 4 * i, 4, w[i]);
    tile_code_written(t, addr, 4 * n);
}

int host_load_file(struct tile *t, enum err_kind kind, const char *label, const char *file,
                   uint64_t addr)
{
    char why[200];
    size_t n, room = addr < t->arch->l1_size ? t->arch->l1_size - addr : 0;
    uint8_t *buf = host_read_file(file, room, &n, why, sizeof why);
    if (!buf && !strncmp(why, "larger", 6))
        snprintf(why, sizeof why, "does not fit in L1 at 0x%" PRIx64 " (%zu bytes of room)", addr, room);
    if (!buf)
        return tile_error(t, kind, -1, 0, "%s%s: %s", label, file, why), -1;
    if (n)
        l1_copy_in(t->l1, t->predecode, (uint32_t)addr, buf, (uint32_t)n);
    free(buf);
    return 0;
}

int host_l1_write(struct tile *t, const struct run_desc *rd, const struct run_write *w)
{
    if (!w->file) {
        write_words(t, w->addr, rd->words + w->first, w->nwords);
        return 0;
    }
    char label[600];
    snprintf(label, sizeof label, "%s: ", rd->path);
    return host_load_file(t, ERR_BAD_RUN, label, w->file, w->addr);
}

/* ---- the boot modes of tt-llk's harness (spec/memory-map.md §6.3) ---- */

/* What tt-llk's device_setup issues, as the harness's host mode injects it into thread 0
 * (tests/python_tests/helpers/device.py exalens_device_setup). The harness passes the semaphore
 * numbers 2, 7, 4 where SEMINIT takes a mask; this follows device_setup (the semaphores
 * UNPACK_TO_DEST, MATH_DONE and PACK_DONE, max 1, value 0), which is what the kernels rely on. */
unsigned host_setup_words(const struct tile *t, uint32_t w[7])
{
    unsigned n = 0;
    w[n++] = tile_is_wormhole(t) ? TT_OP_ZEROACC_WH(0, 3, 0, 0, 0) : TT_OP_ZEROACC_BH(3, 0, 0, 1, 0);
    w[n++] = TT_OP_SFPENCC(3, 0, 10);
    w[n++] = TT_OP_NOP;
    w[n++] = TT_OP_SFPCONFIG(0, 11, 1);
    w[n++] = TT_OP_SEMINIT(1, 0, 1u << 2);
    w[n++] = TT_OP_SEMINIT(1, 0, 1u << 7);
    w[n++] = TT_OP_SEMINIT(1, 0, 1u << 4);
    return n;
}

static uint32_t trisc_bits(void)
{
    uint32_t m = 0;
    for (int i = 0; i < NUM_THREADS; i++)
        m |= 1u << tile_core_reset_bit(i);
    return m;
}

/* One step of the boot. */
static void boot_step(struct host *h, struct tile *t)
{
    switch (h->rd->boot) {
    case BOOT_NONE:
    case BOOT_TRISC:
        return;
    case BOOT_BRISC:
        /* BRISC zeroes its command slots and then its counter before it polls: a command written
         * earlier would be lost. The host marked the counter, so zero there means "polling". */
        if (!h->started_triscs && le_get(t->l1 + h->place.brisc_counter, 4) == 0) {
            write_words(t, h->place.brisc_command[0], &h->place.start_triscs, 1);
            h->started_triscs = true;
            if (t->tracer)
                trace_host(t->tracer, "START_TRISCS", t->now);
        }
        return;
    case BOOT_HOST: {
        uint32_t w[7];
        unsigned n = host_setup_words(t, w);
        while (h->injected < n && tensix_host_push(t, 0, w[h->injected]))
            h->injected++;
        if (h->injected == n) {
            tile_soft_reset_write(t, -1, t->boot.soft_reset & ~trisc_bits(), t->now);
            h->injected++;
            if (t->tracer)
                trace_host(t->tracer, "device set-up pushed, TRISCs released", t->now);
        }
        return;
    }
    }
}

static bool kernel_complete(const struct host *h, const struct tile *t)
{
    for (unsigned i = 0; i < LLK_THREADS; i++)
        if (le_get(t->l1 + h->place.mailbox[i], 4) != h->place.kernel_complete)
            return false;
    return true;
}

static bool end_holds(const struct host *h, const struct tile *t)
{
    if (h->rd->end_kernel_complete)
        return kernel_complete(h, t);
    return h->rd->end >= 0 && run_cond_holds(h->rd, h->rd->end, t->l1);
}

/* tile_run's hook: the actions whose conditions hold fire (once each, in order, until none
 * does: one may make the next one's condition true), the boot advances, the end is checked. */
static bool poll(struct tile *t, void *ctx)
{
    struct host *h = ctx;
    const struct run_desc *rd = h->rd;
    for (bool again = true; again;) {
        again = false;
        for (unsigned i = 0; i < rd->naction; i++)
            if (!h->fired[i] && run_cond_holds(rd, rd->action[i].cond, t->l1)) {
                h->fired[i] = again = true;
                if (t->tracer) {
                    char what[48];
                    snprintf(what, sizeof what, "host[%u]: write 0x%x", i, rd->action[i].write.addr);
                    trace_host(t->tracer, what, t->now);
                }
                if (host_l1_write(t, rd, &rd->action[i].write))
                    return false;
            }
    }
    boot_step(h, t);
    if (t->err.kind != ERR_NONE || !end_holds(h, t))
        return false;
    if (t->tracer)
        trace_host(t->tracer, rd->end_kernel_complete ? "KERNEL_COMPLETE" : "end condition held", t->now);
    return true;
}

/* ---- before the run ---- */

static int load_programs(struct host *h, struct tile *t)
{
    const struct run_desc *rd = h->rd;
    for (int k = 0; k < NUM_CORES; k++) {
        if (!rd->program[k])
            continue;
        uint32_t start;
        if (elf_read(t, k, rd->program[k], &h->elf[k]) || elf_load(t, k, &h->elf[k], rd->loader, &start))
            return -1;
        if (rd->boot == BOOT_NONE) {
            elf_start(t, k, &h->elf[k], rd->loader, start);
            continue;
        }
        /* Held in reset: the TRISCs and NCRISC leave it at their reset pcs, which the loader
         * sets as tt-exalens does; BRISC's is fixed at 0. */
        tile_set_reset_pc(t, k, start);
        if (k == CORE_BRISC && start != 0)
            tile_warning(t, "%s: BRISC starts at 0x0 when it leaves reset, not at 0x%08" PRIx32,
                         rd->program[k], start);
    }
    return 0;
}

/* Where the harness's words are: the layout's table, moved where BRISC's program says. tt-llk's
 * brisc.cpp keeps the mailbox base in `mailboxes_arr` (the command slots and the counter follow
 * it) and the profiler's barrier in `profiler_barrier` (its buffers follow that, profiler.h); a
 * newer harness that moves them is then still found. */
static void find_places(struct host *h, const struct tile *t)
{
    const struct llk_layout *l = h->rd->layout;
    if (!l)
        return;
    h->place = *l;
    const struct elf_file *b = &h->elf[CORE_BRISC];
    uint32_t v;
    if (!b->buf)
        return;
    if (elf_initial_word(b, "mailboxes_arr", &v) && v && !(v & 3) && v < t->arch->l1_size - 0x100) {
        uint32_t shift = v - l->mailbox[0];
        for (unsigned i = 0; i < LLK_THREADS; i++)
            h->place.mailbox[i] += shift;
        h->place.brisc_command[0] += shift;
        h->place.brisc_command[1] += shift;
        h->place.brisc_counter += shift;
    }
    if (elf_initial_word(b, "profiler_barrier", &v) && v && !(v & 3) &&
        v < t->arch->l1_size - (l->profiler_buffer[LLK_THREADS - 1] - l->profiler_barrier) -
                4 * l->profiler_words) {
        uint32_t shift = v - l->profiler_barrier;
        h->place.profiler_barrier += shift;
        for (unsigned i = 0; i < LLK_THREADS; i++)
            h->place.profiler_buffer[i] += shift;
    }
}

int host_setup(struct host *h, struct tile *t, const struct run_desc *rd)
{
    memset(h, 0, sizeof *h);
    h->rd = rd;
    if (rd->boot != BOOT_NONE && tile_is_wormhole(t))
        return tile_error(t, ERR_BAD_RUN, -1, 0, "%s: the %s boot mode is tt-llk's Blackhole one; "
                          "Wormhole's (start addresses at 0x16DFF0, BRISC's "
                          "UPDATE_START_ADDR_CACHE_AND_START) is not built yet",
                          rd->path, boot_mode_name(rd->boot)), -1;
    for (unsigned i = 0; i < rd->nl1; i++)
        if (host_l1_write(t, rd, &rd->l1[i]))
            return -1;
    if (load_programs(h, t))
        return -1;
    find_places(h, t);
    const struct llk_layout *l = &h->place;
    switch (rd->boot) {
    case BOOT_NONE:
    case BOOT_HOST:
        break;
    case BOOT_BRISC: {
        uint32_t mark = BRISC_SENTINEL;
        write_words(t, h->place.brisc_counter, &mark, 1);
        tile_soft_reset_write(t, -1, t->boot.soft_reset & ~(1u << tile_core_reset_bit(CORE_BRISC)), 0);
        break;
    }
    case BOOT_TRISC: {
        uint32_t reset[LLK_THREADS];
        for (unsigned i = 0; i < LLK_THREADS; i++)
            reset[i] = l->mailbox_reset;
        for (unsigned i = 0; i < LLK_THREADS; i++)
            write_words(t, h->place.mailbox[i], &reset[i], 1);
        tile_soft_reset_write(t, -1, t->boot.soft_reset & ~(1u << tile_core_reset_bit(CORE_TRISC0)), 0);
        break;
    }
    }
    if (rd->boot == BOOT_HOST)
        tensix_mmio_store(t, 0, DEST_CG_CTRL, 0); /* the harness's first write */
    if (rd->boot != BOOT_NONE || rd->naction || rd->end >= 0 || rd->end_kernel_complete)
        t->host = (struct tile_host_hook){.poll = poll, .ctx = h, .interval = rd->poll_cycles};
    return t->err.kind == ERR_NONE ? 0 : -1;
}

bool host_ended(const struct tile *t)
{
    return t->host.ended;
}

void host_check_end(struct host *h, struct tile *t)
{
    const struct run_desc *rd = h->rd;
    if (t->err.kind != ERR_NONE || t->host.ended || (!rd->end_kernel_complete && rd->end < 0))
        return;
    tile_error(t, ERR_DEADLOCK, -1, 0, "every core stopped, but the run's end condition (%s) never held",
               rd->end_kernel_complete ? "kernel_complete" : "\"end\"");
    if (rd->end_kernel_complete)
        for (unsigned i = 0; i < LLK_THREADS; i++)
            tile_error_detail(t, "  mailbox %u at 0x%05" PRIx32 " holds 0x%" PRIx32 " (0x%" PRIx32 " when done)", i,
                              h->place.mailbox[i], le_get(t->l1 + h->place.mailbox[i], 4), rd->layout->kernel_complete);
}

void host_free(struct host *h)
{
    for (int k = 0; k < NUM_CORES; k++)
        elf_free(&h->elf[k]);
}
