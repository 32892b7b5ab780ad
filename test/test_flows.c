/* Origin tags and what reads them (sync/origin.h): the trace's flow arrows from a push to the
 * slice of the unit that executes it, and --profile's Tensix stalls charged to the pushing pc.
 * Exact cycles: a TRISC push at cycle c reaches FIFO2 at c+1, FIFO3 at c+2 and issues at c+3
 * (docs/architecture.md "The coprocessor agent"). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../riscv/profile.h"
#include "../sync/fifo.h"
#include "../trace/trace.h"
#include "harness.h"
#include "tensix_ops.h"
#include "trace_check.h"

/* ---- the tag itself ---- */

Test(origin, packs_core_pc_cycle_and_the_arrow)
{
    tt_origin o = origin_make(2, 0xE0F4, 123456789);
    cr_expect_eq(origin_core(o), 2);
    cr_expect_eq(origin_pc(o), 0xE0F4);
    cr_expect_eq(origin_cycle(o), 123456789);
    cr_expect(origin_arrow(o));
    cr_expect(!origin_arrow(origin_follow(o)));
    cr_expect_eq(origin_pc(origin_follow(o)), 0xE0F4);
    cr_expect_eq(origin_core(ORIGIN_NONE), -1);
    /* past 2^38 cycles: no arrow, still the core and pc for the profile */
    tt_origin late = origin_make(0, 0x6000, 1ull << 38);
    cr_expect(!origin_arrow(late));
    cr_expect_eq(origin_pc(late), 0x6000);
    cr_expect_eq(origin_core(late), 0);
}

Test(origin, fifo_keeps_each_words_origin)
{
    struct tt_fifo f;
    tt_fifo_init(&f, 4, 0);
    const uint32_t w[3] = {1, 2, 3};
    const tt_origin o[3] = {10, 20, 30};
    cr_assert(tt_fifo_push_o(&f, w, o, 2));
    cr_assert(tt_fifo_push(&f, w + 2, 1));
    cr_expect_eq(tt_fifo_origin(&f, 1), 20);
    uint32_t x;
    tt_origin y;
    cr_assert(tt_fifo_pop_o(&f, &x, &y));
    cr_expect(x == 1 && y == 10);
    cr_assert(tt_fifo_pop_o(&f, &x, &y));
    cr_expect(x == 2 && y == 20);
    cr_assert(tt_fifo_pop_o(&f, &x, &y));
    cr_expect(x == 3 && y == ORIGIN_NONE); /* tt_fifo_push: no origin */
}

/* ---- flows in the trace ---- */

struct flow {
    long long id, pid, tid;
    double ts;
    char ph;
    const char *pc;
};

/* Runs TRISC0's pushes of words[0..n) on a fresh tile of `arch` with a trace (window [from, to)),
 * checks it with test/trace_check.c and returns its flow events in file order (*n of them) and
 * the trace text in *text (the caller frees both through json_decref/free). */
static json_t *traced(enum arch_id arch, const uint32_t *w, unsigned nw, uint64_t from, uint64_t to,
                      struct flow *fl, unsigned *n)
{
    struct tile *t = test_tile(arch);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert(f);
    struct tracer tr;
    trace_begin(&tr, f, t);
    trace_window(&tr, from, to);
    t->tracer = &tr;
    cr_assert_eq(run_tensix(t, w, nw, 1000), ERR_NONE, "%s", t->err.text);
    cr_assert(trace_end(&tr));
    t->tracer = NULL;
    fclose(f);
    tile_destroy(t);
    struct trace_summary s;
    char why[256] = "";
    cr_expect(trace_check(buf, &s, why, sizeof why), "%s", why);
    json_t *root = json_loads(buf, 0, NULL);
    free(buf);
    cr_assert(root);
    *n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(root, "traceEvents"), i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        if (strcmp(ph, "s") && strcmp(ph, "f"))
            continue;
        cr_assert_lt(*n, 16);
        cr_expect_str_eq(json_string_value(json_object_get(e, "name")), "push");
        cr_expect_str_eq(json_string_value(json_object_get(e, "cat")), "flow");
        if (ph[0] == 'f')
            cr_expect_str_eq(json_string_value(json_object_get(e, "bp")), "e");
        fl[(*n)++] = (struct flow){json_integer_value(json_object_get(e, "id")),
                                   json_integer_value(json_object_get(e, "pid")),
                                   json_integer_value(json_object_get(e, "tid")),
                                   json_number_value(json_object_get(e, "ts")), ph[0],
                                   json_string_value(json_object_get(json_object_get(e, "args"), "pc"))};
    }
    cr_expect_eq(s.flows * 2, *n);
    return root;
}

/* The tid of the track named `name` in process pid, or -1. */
static long long track_tid(json_t *root, int pid, const char *name)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(root, "traceEvents"), i, e) {
        if (!strcmp(json_string_value(json_object_get(e, "name")), "thread_name") &&
            json_integer_value(json_object_get(e, "pid")) == pid &&
            !strcmp(json_string_value(json_object_get(json_object_get(e, "args"), "name")), name))
            return json_integer_value(json_object_get(e, "tid"));
    }
    return -1;
}

static void expect_flow(const struct flow *f, char ph, long long id, double ts, long long pid, long long tid,
                        const char *pc)
{
    cr_expect(f->ph == ph && f->id == id && f->ts == ts && f->pid == pid && f->tid == tid,
              "wanted %c id %lld ts %.1f (%lld,%lld), got %c id %lld ts %.1f (%lld,%lld)", ph, id, ts, pid, tid,
              f->ph, f->id, f->ts, f->pid, f->tid);
    if (pc)
        cr_expect(f->pc && !strcmp(f->pc, pc), "pc %s, wanted %s", f->pc ? f->pc : "none", pc);
}

/* Blackhole fuses the two .ttinsn words into one push at cycle 0 (from 0x6000 and 0x6004); the
 * NOP issues at 3 and ends on T0's Wait Gate track (Misc has no track), the SFPNOP issues at 4
 * and ends on the vector unit's slice, recorded while it is accepted. */
Test(flows, fused_push_arrows_end_on_the_executing_units)
{
    const uint32_t w[] = {TT_OP_NOP, TT_OP_SFPNOP};
    struct flow fl[16];
    unsigned n;
    json_t *root = traced(ARCH_BLACKHOLE, w, 2, 0, TRACE_NO_END, fl, &n);
    cr_assert_eq(n, 4);
    long long sfpu = track_tid(root, 3, "vector unit: load");
    cr_assert_geq(sfpu, 0);
    expect_flow(&fl[0], 's', 1, 0.5, 1, 0, "0x00006000");
    expect_flow(&fl[1], 'f', 1, 3.5, 2, 0, NULL);
    expect_flow(&fl[2], 's', 2, 0.5, 1, 0, "0x00006004");
    expect_flow(&fl[3], 'f', 2, 4.5, 3, sfpu, NULL);
    json_decref(root);
}

/* Wormhole does not fuse: the second push is a cycle later, and issues a cycle later too. */
Test(flows, unfused_pushes_on_wormhole)
{
    const uint32_t w[] = {TT_OP_NOP, TT_OP_NOP};
    struct flow fl[16];
    unsigned n;
    json_t *root = traced(ARCH_WORMHOLE, w, 2, 0, TRACE_NO_END, fl, &n);
    cr_assert_eq(n, 4);
    expect_flow(&fl[0], 's', 1, 0.5, 1, 0, "0x00006000");
    expect_flow(&fl[1], 'f', 1, 3.5, 2, 0, NULL);
    expect_flow(&fl[2], 's', 2, 1.5, 1, 0, "0x00006004");
    expect_flow(&fl[3], 'f', 2, 4.5, 2, 0, NULL);
    json_decref(root);
}

/* A REPLAY that records (Load=1) is consumed and executes nothing: no arrow; the words recorded
 * with Exec=1 keep their own pushes; a playback REPLAY gets one arrow, to the first word played. */
Test(flows, replay_playback_gets_one_arrow_to_its_first_word)
{
    const uint32_t w[] = {TT_OP_REPLAY(0, 2, 1, 1), TT_OP_NOP, TT_OP_SFPNOP, TT_OP_REPLAY(0, 2, 0, 0)};
    struct flow fl[16];
    unsigned n;
    json_t *root = traced(ARCH_WORMHOLE, w, 4, 0, TRACE_NO_END, fl, &n);
    cr_assert_eq(n, 6);
    /* pushes at 0..3; REPLAY(load) consumed at 1; NOP at FIFO3 at 3, issue 4; SFPNOP issue 5;
     * REPLAY(play) reaches the expander at 4 and emits the NOP there: issue 6 */
    expect_flow(&fl[0], 's', 1, 1.5, 1, 0, "0x00006004");
    expect_flow(&fl[1], 'f', 1, 4.5, 2, 0, NULL);
    expect_flow(&fl[2], 's', 2, 2.5, 1, 0, "0x00006008");
    cr_expect_eq(fl[3].pid, 3);
    expect_flow(&fl[4], 's', 3, 3.5, 1, 0, "0x0000600c");
    expect_flow(&fl[5], 'f', 3, 6.5, 2, 0, NULL);
    json_decref(root);
}

/* A flow is written only with both ends inside the window. */
Test(flows, window_keeps_only_flows_inside_it)
{
    const uint32_t w[] = {TT_OP_NOP, TT_OP_NOP};
    struct flow fl[16];
    unsigned n;
    json_t *root = traced(ARCH_WORMHOLE, w, 2, 1, 4, fl, &n);
    cr_expect_eq(n, 0); /* the first pushed before 1, the second issued at 4 */
    json_decref(root);
    root = traced(ARCH_WORMHOLE, w, 2, 1, 5, fl, &n);
    cr_assert_eq(n, 2);
    expect_flow(&fl[0], 's', 1, 1.5, 1, 0, "0x00006004");
    expect_flow(&fl[1], 'f', 1, 4.5, 2, 0, NULL);
    json_decref(root);
}

/* ---- Tensix stalls charged to the push in --profile ---- */

#define K "build/kernels/"

/* The planted STALLWAIT of docs/user-guide.md "Finding a slowdown": each tile's STALLWAIT (B6,
 * C4) holds the next tile's first MVMUL 2 cycles and its release cycle 1, charged to the
 * STALLWAIT's own push (three of them: the fourth has no tile after it); the MVMULs' own wait
 * for SrcA is charged to the MOP that expanded into them. Every core's total is its thread's
 * held cycles in the stats. */
Test(profile_held, planted_stallwait_points_at_its_push, .timeout = 60)
{
    static char out[4096];
    int rc = run_tensim("run -q --profile=/tmp/tensim-ph.txt --stats=/tmp/tensim-ph.json"
                        " --trisc0=" K "matmul-regions-t0.elf --trisc1=" K "matmul-planted-stallwait-t1.elf"
                        " --trisc2=" K "matmul-regions-t2.elf",
                        out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    char *prof = read_whole_file("/tmp/tensim-ph.txt", NULL);
    json_t *st = json_load_file("/tmp/tensim-ph.json", 0, NULL);
    cr_assert(st);
    static const char *const cores[3] = {"TRISC0 (", "TRISC1 (", "TRISC2 ("}, *const threads[3] = {"T0", "T1", "T2"};
    for (int c = 0; c < 3; c++) {
        char *sec = strstr(prof, cores[c]);
        cr_assert(sec, "no %s section", cores[c]);
        char *next = c < 2 ? strstr(sec, cores[c + 1]) : NULL;
        char *h = strstr(sec, "  tensix stalls by push: ");
        cr_assert(h && (!next || h < next), "%s: no tensix stalls", cores[c]);
        unsigned long long total = strtoull(h + strlen("  tensix stalls by push: "), NULL, 10);
        json_int_t held = 0;
        const char *key;
        json_t *v;
        json_object_foreach(json_object_get(json_object_get(json_object_get(st, "threads"), threads[c]), "held"), key, v)
            held += json_integer_value(v);
        cr_expect_eq(total, (unsigned long long)held, "%s: %llu by push, %lld held in the stats", cores[c], total,
                     (long long)held);
    }
    /* TRISC1's rows: cycles, cause, pc, where, source, instruction */
    char *sec = strstr(strstr(prof, cores[1]), "  tensix stalls by push: ");
    char *end = strstr(sec, cores[2]);
    unsigned stallwait = 0, release = 0, mop = 0;
    for (char *line = strchr(sec, '\n') + 1; line && line < end; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        unsigned long long cycles;
        char cause[32];
        unsigned pc;
        if (sscanf(line, "%llu %31s 0x%x", &cycles, cause, &pc) != 3)
            continue;
        char *eol = strchr(line, '\n');
        char insn[160] = "";
        char *push = strstr(line, "push ");
        if (push && push < eol)
            snprintf(insn, sizeof insn, "%.*s", (int)(eol - push), push);
        if (!strcmp(cause, "stallwait") || !strcmp(cause, "wait_release")) {
            cr_expect_str_eq(insn, "push STALLWAIT BlockMask=0x40 ConditionMask=0x10", "pc 0x%x", pc);
            cr_expect_eq(cycles, cause[0] == 's' ? 2 : 1, "%s at 0x%x: %llu", cause, pc, cycles);
            *(cause[0] == 's' ? &stallwait : &release) += 1;
        } else if (!strcmp(cause, "src_not_valid")) {
            cr_expect_eq(cycles, 215156);
            cr_expect(!strncmp(insn, "push MOP ", 9), "%s", insn);
            mop++;
        }
    }
    cr_expect_eq(stallwait, 3);
    cr_expect_eq(release, 3);
    cr_expect_eq(mop, 1);
    free(prof);
    json_decref(st);
}

/* The cycles the profile keeps for (pc, reason), 0 if none. */
static uint64_t held_at(const struct rv_profile *p, uint32_t pc, unsigned reason)
{
    uint32_t key = ((pc >> 2) << 5 | reason) + 1;
    for (unsigned i = 0; i < PROF_HELD_SLOTS; i++)
        if (p->held[i].key == key)
            return p->held[i].cycles;
    return 0;
}

/* Blackhole pushes four fused NOPs at cycle 0; they reach the gate one per cycle and issue at
 * 3, 4, 5 and 6, so the pushes at 0x6004.. queued 1, 2 and 3 cycles beyond the fewest (3), and
 * nothing was held. */
Test(profile_held, fused_pushes_queue_one_cycle_each)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct rv_profile *p = rv_profile_new(t->arch->l1_size);
    cr_assert(p);
    t->prof[0] = p;
    t->profiling = true;
    const uint32_t w[] = {TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP};
    cr_assert_eq(run_tensix(t, w, 4, 1000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(held_at(p, 0x6000, PROF_FIFO_WAIT), 0);
    cr_expect_eq(held_at(p, 0x6004, PROF_FIFO_WAIT), 1);
    cr_expect_eq(held_at(p, 0x6008, PROF_FIFO_WAIT), 2);
    cr_expect_eq(held_at(p, 0x600c, PROF_FIFO_WAIT), 3);
    unsigned used = 0;
    for (unsigned i = 0; i < PROF_HELD_SLOTS; i++)
        used += p->held[i].key != 0;
    cr_expect_eq(used, 3);
    t->prof[0] = NULL;
    t->profiling = false;
    rv_profile_free(p);
    tile_destroy(t);
}

/* A STALLWAIT on the vector unit (Blackhole block B8, condition C11) after an SFPNOP: the SFPNOP
 * (latency 1) has left by the time the STALLWAIT issues at 4, so the SFPNOP after it is held only
 * the release cycle every caught instruction waits (cycle 5, issue at 6). That cycle goes to the
 * STALLWAIT's push at 0x6004, nothing to the held SFPNOP's own push at 0x6008. */
Test(profile_held, stallwait_cycles_go_to_its_push)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    struct rv_profile *p = rv_profile_new(t->arch->l1_size);
    cr_assert(p);
    t->prof[0] = p;
    t->profiling = true;
    const uint32_t w[] = {TT_OP_SFPNOP, TT_OP_STALLWAIT_BH(1u << 8, 1u << 11), TT_OP_SFPNOP};
    cr_assert_eq(run_tensix(t, w, 3, 1000), ERR_NONE, "%s", t->err.text);
    uint64_t held = 0;
    for (unsigned r = 0; r < GS_COUNT; r++)
        held += t->thread[0].st.stall[r];
    cr_expect_eq(held, 1);
    cr_expect_eq(t->thread[0].st.stall[GS_WAIT_RELEASE], 1);
    cr_expect_eq(held_at(p, 0x6004, GS_WAIT_RELEASE), 1);
    cr_expect_eq(held_at(p, 0x6004, GS_STALLWAIT), 0);
    for (unsigned r = 0; r < GS_COUNT; r++)
        cr_expect_eq(held_at(p, 0x6008, r), 0, "reason %u", r);
    /* the fused group's third word issued at 6: the fewest 3 after its push, 1 held, 2 queued */
    cr_expect_eq(held_at(p, 0x6008, PROF_FIFO_WAIT), 2);
    t->prof[0] = NULL;
    t->profiling = false;
    rv_profile_free(p);
    tile_destroy(t);
}
