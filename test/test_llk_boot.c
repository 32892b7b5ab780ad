/* Running kernels the way tt-llk's harness does (docs/run-description.md, docs/tt-llk.md): the
 * tt-exalens loader's rules, soft reset and the reset-pc registers, the three boot modes, the
 * host's writes and end conditions, mailboxes, profiler zones, and the errors for bad run
 * descriptions. The programs are our own (the .S files of test/llk), shaped like tt-llk's test kernels:
 * tt-exalens's section layout, a NOBITS .runtime_args at 0x20000, .profiler_meta at 0x0, a
 * BRISC that waits for START_TRISCS, TRISCs that write KERNEL_COMPLETE and spin forever. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../core/host.h"
#include "../core/run_desc.h"
#include "../mem/elf.h"
#include "../trace/trace.h"
#include "../trace/zones.h"
#include <jansson.h>
#include "elfgen.h"
#include "harness.h"

#define BRISC_ELF "build/llk/brisc-b.elf"
static const char *const trisc_elf[3] = {"build/llk/trisc-t0.elf", "build/llk/trisc-t1.elf",
                                         "build/llk/trisc-t2.elf"};
static const char zone_meta[] = "LLK_PROFILER:trisc.S:30:KERNEL"; /* test/llk/trisc.S */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* The runtime arguments trisc.S reads: spin counts 100, 200, 300, and the zone id. */
static void write_args(const char *path)
{
    uint32_t w[5] = {100, 200, 300, 0, zone_id(zone_meta, sizeof zone_meta - 1)};
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(w, 4, 5, f);
    fclose(f);
}

struct run {
    struct run_desc rd;
    struct host host;
    struct tile *t;
    char err[600];
};

/* Parse `json` (written to /tmp/tensim-llk-<name>.json), set the tile up as tensim run --run
 * does and run it. Returns the error kind. */
static enum err_kind run_json(struct run *r, const char *name, const char *json)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/tensim-llk-%s.json", name);
    write_text(path, json);
    cr_assert_eq(run_desc_load(&r->rd, path, NULL, r->err, sizeof r->err), 0, "%s", r->err);
    r->t = test_tile(r->rd.arch ? r->rd.arch->id : ARCH_BLACKHOLE);
    r->t->unpredictable_warn = r->rd.unpredictable_warn;
    if (host_setup(&r->host, r->t, &r->rd))
        return r->t->err.kind;
    tile_run(r->t, r->rd.max_cycles);
    host_check_end(&r->host, r->t);
    return r->t->err.kind;
}

static void run_free(struct run *r)
{
    host_free(&r->host);
    run_desc_free(&r->rd);
    tile_destroy(r->t);
}

static uint32_t word_at(const struct tile *t, uint32_t addr)
{
    return le_get(t->l1 + addr, 4);
}

/* ---- the tt-exalens loader ---- */

Test(llk_loader, writes_only_named_sections_and_leaves_nobits_alone)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    le_put(t->l1 + 0x20000, 4, 0xC0FFEEu); /* the host's runtime arguments, written first */
    struct elf_file f;
    uint32_t start;
    cr_assert_eq(elf_read(t, CORE_TRISC1, trisc_elf[1], &f), 0);
    cr_assert_eq(elf_load(t, CORE_TRISC1, &f, ELF_LOADER_AUTO, &start), 0, "%s", t->err.text);
    cr_expect_eq(start, 0xB000, ".init of TRISC1's program");
    cr_expect_eq(word_at(t, 0x20000), 0xC0FFEEu, "the NOBITS .runtime_args section was written");
    cr_expect_eq(word_at(t, 0x0), 0, ".profiler_meta (at 0x0) was loaded");
    cr_expect_eq(word_at(t, 0xF000), 0x1001, ".ldm_data goes to .loader_init's address");
    elf_start(t, CORE_TRISC1, &f, ELF_LOADER_AUTO, start);
    cr_expect_eq(t->boot.trisc_reset_pc[1], 0xB000);
    cr_expect_eq(t->boot.reset_pc_override, 2, "override bit of TRISC1 only");
    cr_expect_eq(tile_reset_pc(t, CORE_TRISC1), 0xB000);
    cr_expect_eq(tile_reset_pc(t, CORE_TRISC2), 0xE000, "TRISC2 keeps its default");
    cr_expect_eq(t->core[CORE_TRISC1].pc, 0xB000);
    elf_free(&f);
    tile_destroy(t);
}

Test(llk_loader, segments_collide_on_profiler_meta_but_exalens_only_warns)
{
    /* Two programs of tt-llk's layout both put .profiler_meta at 0x0: loading them by their
     * program headers is refused, tt-exalens's way ignores that section. */
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct elf_file f0, f1;
    uint32_t s;
    cr_assert_eq(elf_read(t, 0, trisc_elf[0], &f0) | elf_read(t, 1, trisc_elf[1], &f1), 0);
    cr_assert_eq(elf_load(t, 0, &f0, ELF_LOADER_SEGMENTS, &s), 0, "%s", t->err.text);
    cr_expect_eq(elf_load(t, 1, &f1, ELF_LOADER_SEGMENTS, &s), -1);
    cr_expect_eq(t->err.kind, ERR_BAD_FILE);
    cr_expect(strstr(t->err.text, "overlaps the program of TRISC0") != NULL, "%s", t->err.text);
    tile_destroy(t);

    t = test_tile(ARCH_BLACKHOLE);
    char *buf;
    size_t len;
    FILE *err = open_memstream(&buf, &len);
    t->errout = err;
    cr_assert_eq(elf_load(t, 0, &f0, ELF_LOADER_EXALENS, &s), 0);
    cr_assert_eq(elf_load(t, 1, &f1, ELF_LOADER_EXALENS, &s), 0);
    cr_expect_eq(t->nwarnings, 0);
    cr_assert_eq(elf_load(t, 2, &f1, ELF_LOADER_EXALENS, &s), 0, "an overlap is no error here");
    fclose(err);
    cr_expect_eq(t->nwarnings, 2, "one per section: .init and .ldm_data");
    cr_expect(strstr(buf, "tensim: warning: build/llk/trisc-t1.elf: section .init (0x0000b000-") != NULL,
              "%s", buf);
    cr_expect(strstr(buf, "overlaps the program of TRISC1") != NULL, "%s", buf);
    free(buf);
    elf_free(&f0);
    elf_free(&f1);
    tile_destroy(t);
}

Test(llk_loader, symbols_and_initial_words)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct elf_file f;
    cr_assert_eq(elf_read(t, 0, trisc_elf[2], &f), 0);
    uint32_t v, addr, size;
    const uint8_t *bytes;
    cr_expect(elf_find_symbol(&f, "__runtime_args_start", &v));
    cr_expect_eq(v, 0x20000);
    cr_expect(elf_find_symbol(&f, "__loader_init_start", &v));
    cr_expect_eq(v, 0x14000);
    cr_expect_not(elf_find_symbol(&f, "__runtime_args", &v), "whole names only");
    cr_expect(elf_find_section(&f, ".profiler_meta", &addr, &size, &bytes));
    cr_expect_eq(addr, 0);
    cr_expect_eq(size, sizeof zone_meta);
    cr_expect_str_eq((const char *)bytes, zone_meta);
    cr_expect(elf_find_section(&f, ".runtime_args", &addr, &size, &bytes));
    cr_expect_null(bytes, "NOBITS has no bytes in the file");
    cr_expect(elf_initial_word(&f, "__ldm_data_start", &v), "a word of .ldm_data");
    cr_expect_eq(v, 0x1002);
    elf_free(&f);
    tile_destroy(t);
}

/* ---- soft reset ---- */

/* Clear `bits` of SOFT_RESET_0 by read-modify-write, as tt-llk's firmware does (x5 keeps the
 * register's address). */
static void emit_release(struct prog *p, uint32_t bits)
{
    emit_li(p, 5, 0xFFB121B0);
    E(p, LW, 6, 5, 0, 0);
    emit_li(p, 7, ~bits);
    E(p, AND, 6, 6, 7, 0);
    E(p, SW, 0, 5, 6, 0);
}

Test(llk_reset, soft_reset_register_starts_and_stops_cores)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    cr_expect_eq(t->boot.soft_reset, 0x47800, "every core held in reset until started (NCRISC: bit 18)");
    struct prog p = prog_at(t, 0x6000); /* TRISC0 releases TRISC1 at 0xB000 */
    emit_store(&p, 0xFFB12234, 2);      /* TRISC_RESET_PC_OVERRIDE */
    emit_store(&p, 0xFFB1222C, 0xB000); /* TRISC1_RESET_PC */
    emit_release(&p, 0x2000);
    E(&p, LW, 10, 5, 0, 0); /* exit with what SOFT_RESET_0 reads now */
    emit_exit(&p);
    struct prog q = prog_at(t, 0xB000);
    emit_li(&q, 10, 9);
    emit_exit(&q);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[CORE_TRISC0].exit_code, 0x44800, "B, T2 and NC still held");
    cr_expect_eq(t->core[CORE_TRISC1].state, CORE_HALTED, "TRISC1 left reset at 0xB000");
    cr_expect_eq(t->core[CORE_TRISC1].exit_code, 9);
    tile_destroy(t);

    /* Unit reset bits are not modelled: changing one is an error, not silence. */
    t = test_tile(ARCH_BLACKHOLE);
    cr_expect_eq(tile_soft_reset_write(t, -1, 0x47801, 0), -1);
    cr_expect_eq(t->err.kind, ERR_UNIMPLEMENTED);
    cr_expect(strstr(t->err.text, "bits 0x1 changed") != NULL, "%s", t->err.text);
    tile_destroy(t);
}

/* A byte store to SOFT_RESET_0 changes only its byte; a core that had exited and is put back into
 * reset keeps its exit code. */
Test(llk_reset, narrow_stores_and_exited_cores)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, 0xFFB121B1);  /* byte 1 of SOFT_RESET_0: bits 8..15 */
    emit_li(&p, 6, 0x48);        /* bits 11 and 14 stay set: TRISC1 (bit 13) leaves reset */
    E(&p, SB, 0, 5, 6, 0);
    emit_li(&p, 5, 0xFFB121B0);
    E(&p, LW, 10, 5, 0, 0);
    emit_exit(&p);
    struct prog q = prog_at(t, 0xA000);
    emit_li(&q, 10, 5);
    emit_exit(&q);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[CORE_TRISC0].exit_code, 0x44800, "only byte 1 changed");
    cr_expect_eq(t->core[CORE_TRISC1].exit_code, 5);
    cr_expect_eq(tile_soft_reset_write(t, -1, 0x47800, t->now), 0);
    cr_expect_eq(t->core[CORE_TRISC1].state, CORE_HALTED, "its exit still counts");
    tile_destroy(t);
}

/* Wormhole keeps the TRISC reset pcs in Config (spec/memory-map.md §6.2): TRISC0 writes
 * TRISC_RESET_PC_SEC1_PC (word 158 + 1) and the override bit of TRISC1 (word 161) through the
 * Config window, as tt-llk's Wormhole BRISC does, and releases TRISC1, which starts at 0xB000. */
Test(llk_reset, wormhole_reset_pcs_live_in_config)
{
    struct tile *t = test_tile(ARCH_WORMHOLE);
    struct prog p = prog_at(t, 0x6000);
    emit_store(&p, 0xFFEF0000u + 159 * 4, 0xB000);
    emit_store(&p, 0xFFEF0000u + 161 * 4, 2);
    emit_release(&p, 0x2000);
    emit_li(&p, 10, 0);
    emit_exit(&p);
    struct prog q = prog_at(t, 0xB000);
    emit_li(&q, 10, 11);
    emit_exit(&q);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(tile_reset_pc(t, CORE_TRISC1), 0xB000);
    cr_expect_eq(tile_reset_pc(t, CORE_TRISC2), 0xE000);
    cr_expect_eq(t->core[CORE_TRISC1].exit_code, 11);
    tile_destroy(t);
}

/* DBG_FEATURE_DISABLE bit 11 (BH:Dst.md): Dst16b row R becomes the high half of Dst32b row R,
 * DstBits row Adj32(R) (17 for row 9) instead of DstBits row 9. A TRISC sets the bit, reads it
 * back, and stops on an undocumented bit. */
Test(llk_reset, dbg_feature_disable_bit_11_maps_dst16b_onto_dst32b_high_halves)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, 0xFFB12068);
    emit_li(&p, 6, 1u << 11);
    E(&p, SW, 0, 5, 6, 0);
    E(&p, LW, 7, 5, 0, 0);
    emit_li(&p, 6, 1);
    E(&p, SW, 0, 5, 6, 0); /* an undocumented bit */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 1000), ERR_UNIMPLEMENTED);
    cr_expect_str_eq(t->err.text, "DBG_FEATURE_DISABLE = 0x1 (undocumented bits)");
    cr_expect_eq(t->core[CORE_TRISC0].x[7], 0x800, "reads back");
    cr_expect(t->dest.dst16_on_hi32);
    dest_write16(t, 9, 3, 0xABCD);
    cr_expect_eq(t->dest.bits[17][3], 0xABCD);
    cr_expect_eq(t->dest.bits[9][3], 0);
    cr_expect_eq(dest_read16(t, 9, 3), 0xABCD);
    dest_set_dst16_on_hi32(t, false);
    cr_expect_eq(dest_read16(t, 9, 3), 0, "DstBits row 9 again");
    tile_destroy(t);
}

/* ---- boot modes, host actions, end ---- */

/* A run description for trisc.S on the TRISCs (TRISC0's program t0), written with its runtime
 * arguments to /tmp/tensim-llk-<name>-args.bin (tests run in parallel). */
static void boot_json(char *buf, size_t n, const char *name, const char *boot, const char *t0,
                      bool brisc, const char *extra)
{
    char args[96];
    snprintf(args, sizeof args, "/tmp/tensim-llk-%s-args.bin", name);
    write_args(args);
    snprintf(buf, n,
             "{\"tensim_run\": 1, \"arch\": \"blackhole\", \"layout\": \"tt-llk-36b092e8\",\n"
             " \"boot\": \"%s\", \"programs\": {%s%s%s\"trisc0\": \"%s/%s\", \"trisc1\": \"%s/%s\","
             " \"trisc2\": \"%s/%s\"},\n"
             " \"l1\": [{\"addr\": \"0x20000\", \"file\": \"%s\"}],\n"
             " \"end\": \"kernel_complete\"%s%s}\n",
             boot, brisc ? "\"brisc\": \"" : "", brisc ? getenv("PWD") : "",
             brisc ? "/" BRISC_ELF "\", " : "", getenv("PWD"), t0, getenv("PWD"), trisc_elf[1],
             getenv("PWD"), trisc_elf[2], args,
             strstr(extra, "max_cycles") ? "" : ", \"max_cycles\": 100000", extra);
}

/* boot_json, then run it; the run must end cleanly. */
static void boot_run(struct run *r, const char *name, const char *boot, const char *t0, bool brisc,
                     const char *extra)
{
    char json[2048];
    boot_json(json, sizeof json, name, boot, t0, brisc, extra);
    cr_assert_eq(run_json(r, name, json), ERR_NONE, "%s: %s", name, r->t->err.text);
}

static void check_results(const struct tile *t)
{
    cr_expect_eq(word_at(t, 0x30000), 0x1000 + 100, "TRISC0's data word + its argument");
    cr_expect_eq(word_at(t, 0x30004), 0x1001 + 200);
    cr_expect_eq(word_at(t, 0x30008), 0x1002 + 300);
    for (unsigned i = 0; i < 3; i++)
        cr_expect_eq(word_at(t, 0x1FFB8 + 4 * i), 0xFF, "mailbox %u", i);
}

Test(llk_boot, brisc_mode_starts_the_triscs_and_ends_at_kernel_complete)
{
    struct run r;
    boot_run(&r, "brisc", "brisc", trisc_elf[0], true, "");
    cr_expect(host_ended(r.t), "the end condition ended the run, not the cores");
    check_results(r.t);
    cr_expect_eq(r.t->boot.soft_reset & 0x7800, 0, "BRISC released the TRISCs");
    cr_expect_eq(word_at(r.t, 0x1FFCC), 1, "BRISC counted the host's START_TRISCS");
    /* Every core it started still spins (BRISC polls, the TRISCs loop after main): no
     * deadlock. NCRISC, which tt-llk's harness does not use, stays in reset. */
    for (int i = 0; i < NUM_CORES; i++)
        cr_expect_eq(r.t->core[i].state, i == CORE_NCRISC ? CORE_OFF : CORE_RUNNING, "%s",
                     core_name(i));
    /* The host looks every cycle, so the run ends in the first cycle after the last mailbox
     * write: stopped one cycle earlier, by a cycle limit, the pack mailbox is not written yet. */
    uint64_t end = r.t->cycles;
    run_free(&r);
    char extra[64];
    snprintf(extra, sizeof extra, ", \"max_cycles\": %llu", (unsigned long long)end - 1);
    char json[2048];
    boot_json(json, sizeof json, "brisc-1", "brisc", trisc_elf[0], true, extra);
    cr_assert_eq(run_json(&r, "brisc-1", json), ERR_CYCLE_LIMIT, "%s", r.t->err.text);
    unsigned done = 0;
    for (unsigned i = 0; i < 3; i++)
        done += word_at(r.t, 0x1FFB8 + 4 * i) == 0xFF;
    cr_expect_eq(done, 2, "one cycle before the end only unpack and math say KERNEL_COMPLETE");
    run_free(&r);

    boot_run(&r, "brisc64", "brisc", trisc_elf[0], true, ", \"poll_cycles\": 64");
    cr_expect_eq(r.t->cycles % 64, 0, "a host polling every 64 cycles sees the end on its grid");
    cr_expect_gt(r.t->cycles, end, "and starts the TRISCs later");
    run_free(&r);
}

Test(llk_boot, trisc_mode_lets_trisc0_release_the_others)
{
    struct run r;
    boot_run(&r, "trisc", "trisc", "build/llk/trisc-boot-t0.elf", false, "");
    check_results(r.t);
    cr_expect_eq(r.t->core[CORE_BRISC].state, CORE_OFF);
    run_free(&r);
}

Test(llk_boot, host_mode_injects_the_device_setup)
{
    struct run r;
    boot_run(&r, "host", "host", trisc_elf[0], false, "");
    check_results(r.t);
    cr_expect_eq(r.t->thread[0].pushed, 7, "ZEROACC, SFPENCC, NOP, SFPCONFIG, three SEMINITs");
    for (unsigned s = 0; s < 8; s++)
        cr_expect_eq(r.t->sem.max[s], s == 2 || s == 4 || s == 7 ? 1 : 0, "semaphore %u", s);
    cr_expect_eq(r.t->boot.clock_gating[0], 0, "DEST_CG_CTRL");
    run_free(&r);
}

Test(llk_boot, zones_come_back_with_their_names)
{
    struct run r;
    boot_run(&r, "zones", "brisc", trisc_elf[0], true, "");
    struct zones *z = malloc(sizeof *z);
    zones_read(z, r.t->l1, &r.host.place, r.host.elf);
    cr_assert_eq(z->n, 3);
    cr_expect_eq(z->unmatched, 0);
    cr_assert_eq(z->nnames, 1, "one string, in three programs");
    cr_expect_str_eq(z->names[0].marker, "KERNEL");
    cr_expect_str_eq(z->names[0].file, "trisc.S");
    cr_expect_eq(z->names[0].line, 30);
    for (unsigned i = 0; i < 3; i++) {
        cr_expect_eq(z->z[i].thread, i);
        cr_expect_eq(z->z[i].name, 0);
        cr_expect_lt(z->z[i].end, r.t->cycles);
    }
    /* The loop is two instructions an iteration (addi, bgtz), one cycle each, plus a
     * mispredicted exit: 100 more iterations cost TRISC1 exactly 200 more cycles. */
    uint64_t d0 = z->z[0].end - z->z[0].start, d1 = z->z[1].end - z->z[1].start;
    uint64_t d2 = z->z[2].end - z->z[2].start;
    cr_expect_eq(d1 - d0, 200, "%llu %llu", (unsigned long long)d0, (unsigned long long)d1);
    cr_expect_eq(d2 - d1, 200);
    free(z);
    run_free(&r);
}

Test(llk_boot, brisc_symbols_move_the_layout)
{
    /* Built with the mailboxes at 0x1FF00 and the profiler's barrier at 0x150FF4: BRISC's
     * mailboxes_arr and profiler_barrier say so, and the host follows them. */
    char json[2048];
    write_args("/tmp/tensim-llk-moved-args.bin");
    const char *pwd = getenv("PWD");
    snprintf(json, sizeof json,
             "{\"tensim_run\": 1, \"layout\": \"tt-llk-36b092e8\", \"boot\": \"brisc\",\n"
             " \"programs\": {\"brisc\": \"%s/build/llk/brisc-moved-b.elf\","
             " \"trisc0\": \"%s/build/llk/trisc-moved-t0.elf\", \"trisc1\": \"%s/build/llk/trisc-moved-t1.elf\","
             " \"trisc2\": \"%s/build/llk/trisc-moved-t2.elf\"},\n"
             " \"l1\": [{\"addr\": \"0x20000\", \"file\": \"tensim-llk-moved-args.bin\"}],\n"
             " \"end\": \"kernel_complete\", \"max_cycles\": 100000}\n",
             pwd, pwd, pwd, pwd);
    struct run r;
    cr_assert_eq(run_json(&r, "moved", json), ERR_NONE, "%s", r.t->err.text);
    cr_expect(host_ended(r.t));
    cr_expect_eq(r.host.place.mailbox[2], 0x1FF08);
    cr_expect_eq(r.host.place.brisc_counter, 0x1FF14);
    cr_expect_eq(word_at(r.t, 0x1FF08), 0xFF);
    cr_expect_eq(word_at(r.t, 0x1FFC0), 0, "nothing at the layout's own addresses");
    cr_expect_eq(r.host.place.profiler_buffer[1], 0x152000);
    struct zones *z = malloc(sizeof *z);
    zones_read(z, r.t->l1, &r.host.place, r.host.elf);
    cr_expect_eq(z->n, 3);
    free(z);
    run_free(&r);
}

Test(llk_boot, host_actions_fire_once_in_order_and_end_on_a_condition)
{
    /* No boot: TRISC0 and TRISC1 run the mailbox exchange. The host copies TRISC0's first
     * non-blocking read to 0x30010 once it is written... then ends when TRISC1 has halted
     * and 0x30010 holds it. */
    char json[2048];
    snprintf(json, sizeof json,
             "{\"tensim_run\": 1, \"programs\": {\"trisc0\": \"%s/build/llk/mailbox-t0.elf\","
             " \"trisc1\": \"%s/build/llk/mailbox-t1.elf\"},\n"
             " \"l1\": [{\"addr\": \"0x30000\", \"words\": [\"0xFFFFFFFF\"]}],\n"
             " \"host\": [{\"when\": {\"word\": \"0x30000\", \"equals\": 0},"
             " \"write\": {\"addr\": \"0x30010\", \"words\": [7]}},\n"
             "          {\"when\": {\"word\": \"0x30010\", \"equals\": 7},"
             " \"write\": {\"addr\": \"0x30014\", \"words\": [8, 9]}}],\n"
             " \"end\": {\"all\": [{\"word\": \"0x30014\", \"equals\": 8},"
             " {\"any\": [{\"word\": \"0x30018\", \"equals\": 1}, {\"word\": \"0x30018\", \"not_equals\": 0,"
             " \"mask\": \"0xF\"}]}]}}\n",
             getenv("PWD"), getenv("PWD"));
    struct run r;
    cr_assert_eq(run_json(&r, "actions", json), ERR_NONE, "%s", r.t->err.text);
    cr_expect(host_ended(r.t));
    cr_expect_eq(word_at(r.t, 0x30000), 0, "TRISC1 had not answered when TRISC0 asked");
    cr_expect_eq(word_at(r.t, 0x30010), 7);
    cr_expect_eq(word_at(r.t, 0x30018), 9, "the second action fired in the same look");
    run_free(&r);
}

Test(llk_boot, an_end_condition_that_never_holds_is_an_error)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"tensim_run\": 1, \"programs\": {\"trisc0\": \"%s/build/llk/mailbox-t0.elf\","
             " \"trisc1\": \"%s/build/llk/mailbox-t1.elf\"},"
             " \"end\": {\"word\": \"0x30100\", \"equals\": 1}}\n",
             getenv("PWD"), getenv("PWD"));
    struct run r;
    cr_assert_eq(run_json(&r, "never", json), ERR_DEADLOCK);
    cr_expect_str_eq(r.t->err.text, "every core stopped, but the run's end condition (\"end\") never held");
    cr_expect_eq(r.t->core[CORE_TRISC0].exit_code, 12, "3 + 4 + 5 came back");
    run_free(&r);
}

/* ---- mailboxes ---- */

Test(llk_mailbox, a_read_of_an_empty_mailbox_waits_forever_and_says_so)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"tensim_run\": 1, \"programs\": {\"trisc2\": \"%s/build/llk/mailbox-t2.elf\"}}\n",
             getenv("PWD"));
    struct run r;
    cr_assert_eq(run_json(&r, "mbox", json), ERR_DEADLOCK);
    cr_expect(strstr(r.t->err.detail, "TRISC2: pc=0x00010004") != NULL, "%s", r.t->err.detail);
    cr_expect(strstr(r.t->err.detail, "reading the empty mailbox from B") != NULL, "%s", r.t->err.detail);
    run_free(&r);
}

Test(llk_mailbox, a_writer_may_hold_four_words_then_waits)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct prog p = prog_at(t, 0x6000);
    emit_li(&p, 5, 0xFFEC2000); /* TRISC0 to TRISC1, which never reads */
    for (unsigned i = 0; i < 5; i++) {
        emit_li(&p, 6, i);
        E(&p, SW, 0, 5, 6, 0);
    }
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10000), ERR_DEADLOCK);
    cr_expect(strstr(t->err.detail, "writing the full mailbox to T1") != NULL, "%s", t->err.detail);
    cr_expect_eq(t->mbox.count[1][2], 4);
    tile_destroy(t);
}

/* ---- profiler buffers ---- */

Test(llk_zones, markers_nest_pair_and_stop_at_the_first_empty_word)
{
    static uint8_t l1[0x170000];
    memset(l1, 0, sizeof l1);
    const struct llk_layout *l = llk_layout_by_name("tt-llk-36b092e8");
    static const char meta[] = "LLK_PROFILER:/src/a:b.cpp:12:OUTER\0LLK_PROFILER:x.cpp:7:INNER\0"
                               "LLK_PROFILER:x.cpp:9:STAMP";
    uint16_t outer = zone_id("LLK_PROFILER:/src/a:b.cpp:12:OUTER", 34);
    uint16_t inner = zone_id("LLK_PROFILER:x.cpp:7:INNER", 26);
    uint16_t stamp = zone_id("LLK_PROFILER:x.cpp:9:STAMP", 26);
    uint32_t w[] = {
        0xA0000000u | outer << 12 | 0x1, 100,  /* OUTER starts at 2^32 + 100 */
        0xA0000000u | inner << 12 | 0x1, 150,
        0x90000000u | stamp << 12 | 0x1, 160, 0, 42, /* TIMESTAMP_DATA 42 */
        0xB0000000u | inner << 12 | 0x1, 190,
        0xB0000000u | outer << 12 | 0x1, 300,
        0xB0000000u | inner << 12 | 0x1, 400,  /* an end without its start */
        0x00000000u, 0,
        0xA0000000u | outer << 12, 500, 0xB0000000u | outer << 12, 600, /* past the end: ignored */
    };
    for (unsigned i = 0; i < sizeof w / 4; i++)
        le_put(l1 + l->profiler_buffer[1] + 4 * i, 4, w[i]);
    le_put(l1 + l->profiler_buffer[2], 4, 0xA0000000u | outer << 12); /* never ended */
    le_put(l1 + l->profiler_buffer[2] + 4, 4, 7);
    struct elf_file elf[3] = {{0}};
    size_t len;
    struct elfgen_sec sec = {".profiler_meta", 0, meta, sizeof meta, 0};
    elf[0].buf = elfgen_sections(0x6000, &sec, 1, 0, 0, &len);
    elf[0].len = len;
    elf[0].name = "meta";
    struct zones *z = malloc(sizeof *z);
    zones_read(z, l1, l, elf);
    cr_expect_eq(z->nnames, 3);
    cr_expect_str_eq(z->names[0].file, "/src/a:b.cpp", "a file name may hold ':'");
    cr_expect_eq(z->names[0].line, 12);
    cr_assert_eq(z->n, 3);
    cr_expect_eq(z->z[0].type, ZONE_TIMESTAMP_DATA);
    cr_expect_eq(z->z[0].data, 42);
    cr_expect_str_eq(z->names[z->z[0].name].marker, "STAMP");
    cr_expect_str_eq(z->names[z->z[1].name].marker, "INNER", "inner zones close first");
    cr_expect_eq(z->z[1].start, (1ull << 32) + 150);
    cr_expect_eq(z->z[1].end - z->z[1].start, 40);
    cr_expect_str_eq(z->names[z->z[2].name].marker, "OUTER");
    cr_expect_eq(z->z[2].end - z->z[2].start, 200);
    cr_expect_eq(z->z[2].thread, 1);
    cr_expect_eq(z->unmatched, 2, "one end without a start, one start never ended");
    char *csv;
    size_t n;
    FILE *f = open_memstream(&csv, &n);
    zones_csv(z, f);
    fclose(f);
    cr_expect(strstr(csv, "thread,type,marker,file,line,id,start,end,cycles,data\n") == csv, "%s", csv);
    cr_expect(strstr(csv, "math,zone,OUTER,/src/a:b.cpp,12,") != NULL, "%s", csv);
    cr_expect(strstr(csv, ",4294967396,4294967596,200,\n") != NULL, "%s", csv);
    free(csv);
    free(z);
    free(elf[0].buf);
}

/* Zone names come from the programs: on the trace they are escaped like any JSON string. */
Test(llk_zones, names_on_the_trace_are_escaped)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    struct tracer tr;
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    trace_begin(&tr, f, t);
    trace_zone(&tr, 1, "a\"b\\c", 10, 20);
    trace_host(&tr, "host[0]: \"quoted\"", 5);
    trace_end(&tr);
    fclose(f);
    json_error_t je;
    json_t *root = json_loads(buf, 0, &je);
    cr_expect(root != NULL, "line %d: %s\n%s", je.line, je.text, buf);
    cr_expect(strstr(buf, "\"name\":\"a\\\"b\\\\c\"") != NULL, "%s", buf);
    json_decref(root);
    free(buf);
    tile_destroy(t);
}

/* ---- bad run descriptions ---- */

struct bad_case {
    const char *json, *message;
};

Test(llk_run_desc, bad_descriptions_name_the_key_and_the_problem)
{
    static const struct bad_case cases[] = {
        {"[1]", "expected a JSON object"},
        {"{\"tensim_run\": 2}", "tensim_run: this tensim reads version 1 of the format"},
        {"{}", "missing \"tensim_run\": 1"},
        {"{\"tensim_run\": 1, \"bot\": \"brisc\"}", "unknown key \"bot\" (did you mean \"boot\"?)"},
        {"{\"tensim_run\": 1, \"boot\": \"bris\"}", "boot: unknown value \"bris\" (did you mean \"brisc\"?)"},
        {"{\"tensim_run\": 1, \"boot\": \"brisc\"}", "layout: missing"},
        {"{\"tensim_run\": 1, \"layout\": \"tt-llk-0000\"}", "unknown layout \"tt-llk-0000\" (known: tt-llk-36b092e8"},
        {"{\"tensim_run\": 1, \"layout\": \"tt-llk-36b092e8\", \"boot\": \"brisc\", \"programs\": {\"trisc0\": \"a\"}}",
         "the brisc boot mode needs a BRISC program"},
        {"{\"tensim_run\": 1, \"programs\": {\"trisc3\": \"a\"}}", "programs: unknown key \"trisc3\""},
        {"{\"tensim_run\": 1, \"l1\": [{\"addr\": \"0x20002\", \"words\": [1]}]}", "l1[0].addr: 0x20002 is not word-aligned"},
        {"{\"tensim_run\": 1, \"l1\": [{\"addr\": \"0x17fffc\", \"words\": [1, 2]}]}", "l1[0].words: 0x17fffc+0x8 is outside L1"},
        {"{\"tensim_run\": 1, \"l1\": [{\"addr\": 16, \"file\": \"f\", \"words\": [1]}]}", "give one of \"file\" and \"words\""},
        {"{\"tensim_run\": 1, \"l1\": [{\"addr\": \"-1\", \"words\": [1]}]}", "l1[0].addr: expected a number"},
        {"{\"tensim_run\": 1, \"host\": [{\"when\": {\"word\": 0}}]}", "host[0]: missing \"write\""},
        {"{\"tensim_run\": 1, \"host\": [{\"when\": {\"word\": 0}, \"write\": {\"addr\": 0, \"words\": [1]}}]}",
         "host[0].when: give one of \"equals\" and \"not_equals\""},
        {"{\"tensim_run\": 1, \"end\": {\"all\": [{\"word\": 0, \"equals\": 1, \"mask\": \"0x1g\"}]}}",
         "end.all[0].mask: expected a number"},
        {"{\"tensim_run\": 1, \"end\": \"done\"}", "end: expected \"kernel_complete\" or a condition"},
        {"{\"tensim_run\": 1, \"read\": [{\"addr\": 0, \"len\": 4}]}", "read[0]: missing \"file\""},
        {"{\"tensim_run\": 1, \"max_cycles\": 0}", "max_cycles: must be positive"},
        {"{\"tensim_run\": 1, \"unpredictable\": \"ignore\"}", "unpredictable: unknown value \"ignore\""},
        {"{\"tensim_run\": 1, \"tensim_run\": 1}", "duplicate object key"},
        {"{\"tensim_run\": 1,\n \"boot\" \"x\"}", "line 2, column"},
        {"{\"tensim_run\": 1}", "programs: missing: the run has no program"},
        {"{\"tensim_run\": 1, \"l1\": [{\"addr\": \"0x200000\", \"file\": \"f\"}]}",
         "l1[0].addr: 0x200000 is outside L1 (0x0-0x17ffff)"},
        {"{\"tensim_run\": 1, \"max_cycles\": -5}", "max_cycles: expected a number (a non-negative integer"},
        {"{\"tensim_run\": 1, \"arch\": \"wormhole\", \"l1\": [{\"addr\": \"0x16e000\", \"words\": [1]}]}",
         "l1[0].words: 0x16e000+0x4 is outside L1 (0x0-0x16dfff)"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text("/tmp/tensim-llk-bad.json", cases[i].json);
        struct run_desc *rd = malloc(sizeof *rd);
        char err[600];
        cr_expect_eq(run_desc_load(rd, "/tmp/tensim-llk-bad.json", NULL, err, sizeof err), -1, "%s", cases[i].json);
        cr_expect(strstr(err, cases[i].message) != NULL, "%s\n  gave: %s\n  want: %s", cases[i].json, err,
                  cases[i].message);
        cr_expect(strncmp(err, "/tmp/tensim-llk-bad.json: ", 26) == 0, "%s", err);
        run_desc_free(rd);
        free(rd);
    }
}

Test(llk_run_desc, the_command_line_writes_zones_and_marks_the_host_on_the_trace)
{
    char json[2048], out[8192];
    boot_json(json, sizeof json, "cli", "brisc", trisc_elf[0], true, "");
    write_text("/tmp/tensim-llk-cli-run.json", json);
    cr_assert_eq(run_tensim("run --run /tmp/tensim-llk-cli-run.json --zones /tmp/tensim-llk-cli.csv "
                            "--trace /tmp/tensim-llk-cli-trace.json --stats /tmp/tensim-llk-cli-stats.json",
                            out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "profiler zones (tt-llk)") != NULL, "%s", out);
    cr_expect(strstr(out, "  math KERNEL ") != NULL, "%s", out);
    cr_expect(strstr(out, "the run ended when its end condition (kernel_complete) held, at cycle ") != NULL,
              "%s", out);
    char *csv = read_whole_file("/tmp/tensim-llk-cli.csv", NULL);
    cr_expect(strstr(csv, "thread,type,marker,file,line,id,start,end,cycles,data\nunpack,zone,KERNEL,trisc.S,30,") == csv,
              "%s", csv);
    free(csv);
    char *trace = read_whole_file("/tmp/tensim-llk-cli-trace.json", NULL);
    cr_expect(strstr(trace, "\"name\":\"START_TRISCS\",\"cat\":\"host\"") != NULL);
    cr_expect(strstr(trace, "\"name\":\"KERNEL_COMPLETE\",\"cat\":\"host\"") != NULL);
    cr_expect(strstr(trace, "\"name\":\"KERNEL\",\"cat\":\"zone\"") != NULL);
    free(trace);
    char *stats = read_whole_file("/tmp/tensim-llk-cli-stats.json", NULL);
    cr_expect(strstr(stats, "\"zones\": [\n    {\"thread\": \"unpack\", \"type\": \"zone\", \"marker\": \"KERNEL\"") != NULL,
              "%s", stats);
    cr_expect(strstr(stats, "\"zones_unmatched\": 0,") != NULL);
    cr_expect(strstr(stats, "\"run\": {\"description\": \"/tmp/tensim-llk-cli-run.json\", \"boot\": \"brisc\", "
                            "\"end\": \"kernel_complete\", \"ended_by_end\": true},") != NULL, "%s", stats);
    free(stats);
}

/* The condition table holds 64: 63 leaves and their "all" fit, 64 leaves and theirs do not. */
Test(llk_run_desc, conditions_fill_their_table_exactly)
{
    for (unsigned leaves = 63; leaves <= 64; leaves++) {
        char json[8192];
        size_t used = (size_t)snprintf(json, sizeof json, "{\"tensim_run\": 1, \"programs\": "
                                       "{\"trisc0\": \"x.elf\"}, \"end\": {\"all\": [");
        for (unsigned i = 0; i < leaves; i++)
            used += (size_t)snprintf(json + used, sizeof json - used, "%s{\"word\": %u, \"equals\": 0}",
                                     i ? ", " : "", 4 * i);
        snprintf(json + used, sizeof json - used, "]}}");
        write_text("/tmp/tensim-llk-conds.json", json);
        struct run_desc *rd = malloc(sizeof *rd);
        char err[600];
        int r = run_desc_load(rd, "/tmp/tensim-llk-conds.json", NULL, err, sizeof err);
        if (leaves == 63) {
            cr_expect_eq(r, 0, "%s", err);
            cr_expect_eq(rd->ncond, 64);
            static uint8_t l1[0x1000];
            cr_expect(run_cond_holds(rd, rd->end, l1), "all 63 words are 0");
        } else {
            cr_expect_eq(r, -1);
            cr_expect(strstr(err, "end.all: more than 64 conditions in all") != NULL, "%s", err);
        }
        run_desc_free(rd);
        free(rd);
    }
}

/* Addresses are checked against the command line's architecture when the file names none, and
 * the two may not differ. Outputs may not overwrite inputs. Boot modes are Blackhole's. */
Test(llk_run_desc, the_command_line_and_the_description_agree)
{
    char out[4096];
    char json[512];
    snprintf(json, sizeof json, "{\"tensim_run\": 1, \"programs\": {\"trisc0\": \"%s/build/guest/exit7.elf\"},"
             " \"l1\": [{\"addr\": \"0x16e000\", \"words\": [1]}]}", getenv("PWD"));
    write_text("/tmp/tensim-llk-arch.json", json);
    cr_expect_eq(run_tensim("run --arch wormhole --run /tmp/tensim-llk-arch.json", out, sizeof out), 111);
    cr_expect(strstr(out, "l1[0].words: 0x16e000+0x4 is outside L1 (0x0-0x16dfff)") != NULL, "%s", out);
    cr_expect_eq(run_tensim("run --run /tmp/tensim-llk-arch.json", out, sizeof out), 7, "%s", out);
    write_text("/tmp/tensim-llk-arch2.json", "{\"tensim_run\": 1, \"arch\": \"blackhole\", "
               "\"programs\": {\"trisc0\": \"x.elf\"}}");
    cr_expect_eq(run_tensim("run --arch wh --run /tmp/tensim-llk-arch2.json", out, sizeof out), 100);
    cr_expect(strstr(out, "--arch=wormhole, but the run description /tmp/tensim-llk-arch2.json says blackhole") != NULL,
              "%s", out);
    cr_expect_eq(run_tensim("run --run /tmp/tensim-llk-arch.json --stats /tmp/tensim-llk-arch.json", out,
                            sizeof out), 100);
    cr_expect(strstr(out, "/tmp/tensim-llk-arch.json is both an input and an output of the run") != NULL, "%s", out);
    char boot[2048];
    boot_json(boot, sizeof boot, "whboot", "host", trisc_elf[0], false, "");
    char *arch = strstr(boot, "blackhole");
    cr_assert(arch);
    memcpy(arch, "wormhole\" ", 10); /* the same length: blackhole" */
    write_text("/tmp/tensim-llk-whboot.json", boot);
    cr_expect_eq(run_tensim("run --run /tmp/tensim-llk-whboot.json", out, sizeof out), 111);
    cr_expect(strstr(out, "the host boot mode is tt-llk's Blackhole one") != NULL, "%s", out);
}

/* The end condition is looked at once more when every core has stopped, even when the host's
 * next look on its grid would come later. */
Test(llk_boot, an_end_that_holds_when_everything_stopped_ends_cleanly)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"tensim_run\": 1, \"programs\": {\"trisc0\": \"%s/build/llk/mailbox-t0.elf\","
             " \"trisc1\": \"%s/build/llk/mailbox-t1.elf\"}, \"poll_cycles\": 1048576, \"max_cycles\": 1000,"
             " \"end\": {\"word\": \"0x30000\", \"equals\": 0}}\n", getenv("PWD"), getenv("PWD"));
    struct run r;
    cr_assert_eq(run_json(&r, "late", json), ERR_NONE, "%s", r.t->err.text);
    cr_expect(host_ended(r.t));
    cr_expect_lt(r.t->cycles, 1000);
    run_free(&r);
}

Test(llk_run_desc, the_command_line_reports_bad_descriptions_and_files)
{
    char out[4096];
    write_text("/tmp/tensim-llk-cli.json", "{\"tensim_run\": 1, \"bot\": 1}");
    cr_expect_eq(run_tensim("run --run /tmp/tensim-llk-cli.json", out, sizeof out), 111);
    cr_expect(strstr(out, "tensim: bad run description: /tmp/tensim-llk-cli.json: unknown key \"bot\"") != NULL,
              "%s", out);
    write_text("/tmp/tensim-llk-cli2.json",
               "{\"tensim_run\": 1, \"programs\": {\"trisc0\": \"nothere.elf\"}}");
    cr_expect_eq(run_tensim("run --run /tmp/tensim-llk-cli2.json", out, sizeof out), 101);
    cr_expect(strstr(out, "tensim: bad program file: TRISC0 pc=0x00000000 cycle=0: /tmp/nothere.elf: cannot open") != NULL, "%s", out);
    cr_expect_eq(run_tensim("run --run /tmp/tensim-llk-cli2.json build/guest/exit7.elf", out, sizeof out), 100);
    cr_expect(strstr(out, "programs come from the run description") != NULL, "%s", out);
    cr_expect_eq(run_tensim("run --zones /tmp/z.csv build/guest/exit7.elf", out, sizeof out), 100);
    cr_expect(strstr(out, "--zones needs a run description") != NULL, "%s", out);
    cr_expect_eq(run_tensim("run --loader=elf build/guest/exit7.elf", out, sizeof out), 100);
    cr_expect(strstr(out, "unknown loader 'elf' (auto, segments or exalens)") != NULL, "%s", out);
}
