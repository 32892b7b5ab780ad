/* Cycle cost of each RISC-V instruction class, from the documented rules (BHR:README.md and
 * shared/calibration.md, repeated in docs/timing-model.md). Each test spells out the cycle at
 * which every instruction issues. "exit" is addi a7 + ecall: 2 cycles. */
#include <criterion/criterion.h>

#include "harness.h"

#define BASE 0x6000u

static struct tile *t;
static struct prog p;

static void setup(void)
{
    t = test_tile(ARCH_BLACKHOLE);
    p = prog_at(t, BASE);
}
static void teardown(void) { tile_destroy(t); }

static const struct rv_core *run(void)
{
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 100000), ERR_NONE, "%s", t->err.text);
    const struct rv_core *c = &t->core[0];
    cr_assert_eq(core_cycles(c), c->halt_cycle, "active + stalls must equal the core's cycles");
    cr_assert_eq(t->cycles, c->halt_cycle);
    return c;
}

TestSuite(rv_timing, .init = setup, .fini = teardown);

/* the test's tile becomes a Wormhole one (no L0 data cache, no coalescing) */
static void use_wormhole(void)
{
    tile_destroy(t);
    t = test_tile(ARCH_WORMHOLE);
    p = prog_at(t, BASE);
}

Test(rv_timing, alu_one_per_cycle)
{
    for (int i = 0; i < 10; i++)
        E(&p, ADDI, 5, 5, 0, 1); /* dependent chain: forwarding, no stall */
    E(&p, SH2ADD, 6, 5, 5, 0);
    E(&p, CPOP, 7, 6, 0, 0);
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 14);
    cr_expect_eq(c->st.active, 14);
}

/* The L0 data cache is off by default (core/timing.def); `--timing rv.l0d_lines=4` turns on the
 * documented one, which this tile does by hand. */
Test(rv_timing, l1_load_miss_then_l0_hit)
{
    tile_destroy(t);
    struct arch with_l0 = *arch_get(ARCH_BLACKHOLE);
    with_l0.rv.l0d_lines = 4;
    t = tile_create(&with_l0);
    p = prog_at(t, BASE);
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);        /* 1: L0 miss, result at 9 */
    E(&p, LW, 8, 5, 0, 4);        /* 2: same 16-byte line, L0 hit, result at 4 */
    E(&p, ADDI, 9, 8, 0, 1);      /* 4 (waits 1) */
    E(&p, ADDI, 10, 6, 0, 1);     /* 9 (waits 4) */
    const struct rv_core *c = run(); /* exit at 10, 11 */
    cr_expect_eq(c->halt_cycle, 12);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 5);
    cr_expect_eq(c->st.l0_misses, 1);
    cr_expect_eq(c->st.l0_hits, 1);
    tile_destroy(t); /* before with_l0 goes out of scope; teardown gets a fresh tile */
    t = test_tile(ARCH_BLACKHOLE);
}

/* Without it (the default), the second load of the line goes to L1 like the first. */
Test(rv_timing, l1_loads_without_the_l0_by_default)
{
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);        /* 1: result at 9 */
    E(&p, LW, 8, 5, 0, 4);        /* 2: result at 10 */
    E(&p, ADDI, 9, 8, 0, 1);      /* 10 */
    const struct rv_core *c = run(); /* exit at 11, 12 */
    cr_expect_eq(c->halt_cycle, 13);
    cr_expect_eq(c->st.l0_hits + c->st.l0_misses, 0);
}

Test(rv_timing, l1_load_without_l0_on_wormhole)
{
    use_wormhole();
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);        /* 1: result at 9 */
    E(&p, LW, 8, 5, 0, 4);        /* 2: result at 10 (no L0 cache on WH) */
    E(&p, ADDI, 9, 8, 0, 1);      /* 10 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 13);
}

Test(rv_timing, local_ram_load_two_cycles)
{
    E(&p, LUI, 5, 0, 0, (int32_t)0xFFB00000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);                    /* 1: result at 3 */
    E(&p, ADDI, 7, 6, 0, 1);                  /* 3 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 6);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 1);
}

Test(rv_timing, mul_latency_two_issue_one)
{
    E(&p, ADDI, 5, 0, 0, 3); /* 0 */
    E(&p, MUL, 6, 5, 5, 0);  /* 1 */
    E(&p, MUL, 7, 5, 5, 0);  /* 2: independent, no stall */
    E(&p, ADD, 8, 7, 6, 0);  /* 4: x7 ready at 4 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 7);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 1);
    cr_expect_eq(c->x[8], 18);
}

static uint64_t div_cost(enum rv_op op, uint32_t a, uint32_t b)
{
    emit_li(&p, 5, a);
    emit_li(&p, 6, b);
    uint32_t before = (p.pc - BASE) / 4;
    emit(&p, rv_encode(op, 7, 5, 6, 0));
    const struct rv_core *c = run();
    return c->halt_cycle - before - 2;
}

Test(rv_timing, div_small_dividend_six_cycles) { cr_expect_eq(div_cost(RV_DIVU, 20, 3), 6); }
Test(rv_timing, div_by_zero_two_cycles) { cr_expect_eq(div_cost(RV_DIV, 12345, 0), 2); }
Test(rv_timing, div_by_one_two_cycles) { cr_expect_eq(div_cost(RV_REMU, 0xFFFFFFFF, 1), 2); }
Test(rv_timing, div_overflow_two_cycles) { cr_expect_eq(div_cost(RV_REM, 0x80000000, 0xFFFFFFFF), 2); }
Test(rv_timing, div_full_width_dividend_33_cycles) { cr_expect_eq(div_cost(RV_DIVU, 0xFFFFFFFF, 3), 33); }
Test(rv_timing, div_signed_uses_magnitude) { cr_expect_eq(div_cost(RV_DIV, (uint32_t)-1000, 7), 11); }

Test(rv_timing, branch_mispredicts_cost_five)
{
    E(&p, ADDI, 5, 0, 0, 3);                    /* 0 */
    E(&p, ADDI, 5, 5, 0, -1);                   /* 1, 7, 9 */
    emit(&p, rv_encode(RV_BNE, 0, 5, 0, -4));   /* 2 taken, mispredicted: next at 7
                                                   8 taken, predicted
                                                   10 not taken, mispredicted: next at 15 */
    const struct rv_core *c = run();            /* exit 15, 16 */
    cr_expect_eq(c->halt_cycle, 17);
    cr_expect_eq(c->st.mispredicts, 2);
    cr_expect_eq(c->st.stall[STALL_BRANCH], 8);
}

Test(rv_timing, jal_one_cycle_jalr_learns_target)
{
    E(&p, JAL, 1, 0, 0, 8);   /* 0 -> 8 */
    E(&p, ADDI, 0, 0, 0, 0);
    E(&p, ADDI, 5, 0, 0, 2);  /* 1 */
    uint32_t loop = p.pc;
    emit_li(&p, 6, loop + 16); /* 2, 3 */
    E(&p, JALR, 0, 6, 0, 0);   /* first time: unknown target, mispredict */
    E(&p, ADDI, 0, 0, 0, 0);
    E(&p, ADDI, 5, 5, 0, -1);
    emit(&p, rv_encode(RV_BNE, 0, 5, 0, (int32_t)(loop - p.pc)));
    /* pass 1: li 2,3; jalr 4 (+4 penalty) -> 9; addi 9; bne 10 taken mispredict -> 15
       pass 2: li 15,16; jalr 17 (predicted); addi 18; bne 19 not taken, ctr 2 predicts taken,
       mispredict -> 24; exit 24, 25 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 26);
    cr_expect_eq(c->st.mispredicts, 3);
}

Test(rv_timing, csr_and_fence_four_cycles)
{
    E(&p, CSRRS, 5, 0, 0, 0x7C0); /* 0-3 */
    emit(&p, 0x0ff0000f);          /* fence: 4-7 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 10);
    cr_expect_eq(c->st.stall[STALL_SERIAL], 6);
}

Test(rv_timing, store_queue_fills_after_four_uncoalesced_stores)
{
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    for (int i = 0; i < 5; i++)   /* different 16-byte lines: no coalescing, 5 cycles each */
        E(&p, SW, 0, 5, 0, 16 * i);
    /* stores issue at 1, 2, 3, 4; entries drain at 7, 12, 17, 22; the fifth waits for the
       first entry to leave: issues at 7 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 10);
    cr_expect_eq(c->st.stall[STALL_STORE_QUEUE], 2);
}

Test(rv_timing, coalesced_full_line_drains_in_one_cycle)
{
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    for (int i = 0; i < 4; i++)   /* 1..4: offsets 0,4,8,12 merge into one full 16-byte entry */
        E(&p, SW, 0, 5, 0, 4 * i);
    emit(&p, 0x0ff0000f); /* 5: fence seals and drains it: done at 6, then 4 cycles */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 12);
    cr_expect_eq(c->st.stall[STALL_STORE_QUEUE], 1);
}

Test(rv_timing, uncoalesced_store_drains_in_five)
{
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, SW, 0, 5, 0, 0);        /* 1 */
    emit(&p, 0x0ff0000f);          /* 2: seals at 2, drained at 7, then 4 cycles */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 13);
    cr_expect_eq(c->st.stall[STALL_STORE_QUEUE], 5);
}

Test(rv_timing, load_overlapping_queued_store_waits_for_drain)
{
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, SW, 0, 5, 0, 0);        /* 1 */
    E(&p, LW, 6, 5, 0, 0);        /* 2: overlaps: queue drains at 7, then 8-cycle miss: 15 */
    E(&p, ADDI, 7, 6, 0, 0);      /* 15 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 18);
}

Test(rv_timing, amo_latency_twelve)
{
    E(&p, LUI, 5, 0, 0, 0x20000);  /* 0 */
    E(&p, AMOADD, 6, 5, 0, 0);     /* 1: result at 13 */
    E(&p, ADDI, 7, 6, 0, 0);       /* 13 */
    const struct rv_core *c = run();
    cr_expect_eq(c->halt_cycle, 16);
}

/* A run that ends inside a division (here at the cycle limit): the core was charged the whole
 * division up front, and gives back the cycles past the end. */
Test(rv_timing, run_ending_inside_a_division)
{
    emit_li(&p, 10, 0x7FFFFFFF);
    E(&p, ADDI, 11, 0, 0, 3);
    E(&p, DIV, 12, 10, 11, 0); /* issues at 3, occupies EX1 until 3 + 33 */
    emit_exit(&p);
    cr_assert_eq(run_core(&p, CORE_TRISC0, 10), ERR_CYCLE_LIMIT);
    const struct rv_core *c = &t->core[0];
    cr_expect_eq(t->cycles, 10);
    cr_expect_eq(c->st.active, 4);
    cr_expect_eq(c->st.stall[STALL_DIV], 6, "cycles 4..9 of the division");
    cr_expect_eq(core_cycles(c), 10);
}

/* ---- the load path beyond the LSU (issue 16; docs/timing-model.md "RISC-V loads and L1") ---- */

/* Four loads in flight (WH:L1.md): each holds its slot until the cycle before its result, so the
 * fifth waits in EX1 for the first one's slot. Wormhole: no L0 to hit. */
Test(rv_timing, fifth_load_waits_for_a_slot)
{
    use_wormhole();
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);        /* 1: result at 9, slot free at 8 */
    E(&p, LW, 7, 5, 0, 16);       /* 2 */
    E(&p, LW, 8, 5, 0, 32);       /* 3 */
    E(&p, LW, 9, 5, 0, 48);       /* 4 */
    E(&p, LW, 10, 5, 0, 64);      /* 8 (waits 3 for a slot): result at 16 */
    E(&p, ADDI, 11, 10, 0, 1);    /* 16 (waits 7) */
    const struct rv_core *c = run(); /* exit at 17, 18 */
    cr_expect_eq(c->halt_cycle, 19);
    cr_expect_eq(c->st.stall[STALL_MEMORY], 3);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 7);
}

/* In-order retire: overwriting the destination of a load in flight does not wait, but a reader
 * of that register then waits for the load too (no forwarding while two writes are pending). */
Test(rv_timing, younger_write_does_not_wait_for_a_load)
{
    use_wormhole();
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);        /* 1: result at 9 */
    E(&p, ADDI, 6, 0, 0, 7);      /* 2: no wait */
    E(&p, LW, 6, 5, 0, 4);        /* 3: no wait, result at 11 */
    E(&p, ADDI, 7, 0, 0, 1);      /* 4 */
    E(&p, ADD, 8, 6, 7, 0);       /* 11: waits for the later load */
    const struct rv_core *c = run(); /* exit at 12, 13 */
    cr_expect_eq(c->halt_cycle, 14);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 6);
    cr_expect_eq(c->x[8], 1 + 0); /* L1 is zero: the second load's value */
}

/* A load right behind a store to the same device word waits for the store to leave the store
 * queue (BHR:MemoryOrdering.md): one cycle. A semaphore's load latency is 3. */
Test(rv_timing, load_behind_a_device_store_waits_a_cycle)
{
    E(&p, LUI, 5, 0, 0, (int32_t)0xFFE80000); /* 0 */
    E(&p, SW, 0, 5, 0, 4);                    /* 1: Manual TTSync word (the thread is idle) */
    E(&p, LW, 6, 5, 0, 4);                    /* 2: enters the LSU at 4, not 3: result at 6 */
    E(&p, ADDI, 7, 6, 0, 1);                  /* 6 */
    const struct rv_core *c = run();          /* exit at 7, 8 */
    cr_expect_eq(c->halt_cycle, 9);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 3);
}

/* Two cores on one L1 port (TRISC1 and TRISC2 share WH:L1.md's port #3): loads issued in the
 * same cycle reach the port together and the second core's waits a cycle; TRISC0's own port is
 * free. Each core: lui at 0, lw at 1 (port at 2), addi waits for the result. */
static void port_prog(unsigned core)
{
    struct prog q = prog_at(t, 0x6000 + 0x4000 * core);
    E(&q, LUI, 5, 0, 0, 0x20000);
    E(&q, LW, 6, 5, 0, (int32_t)(16 * core));
    E(&q, ADDI, 7, 6, 0, 1);
    emit_exit(&q);
    tile_start_core(t, (int)core, q.base);
}

Test(rv_timing, cores_sharing_an_l1_port_take_turns)
{
    tile_destroy(t);
    t = test_tile(ARCH_WORMHOLE);
    port_prog(0);
    port_prog(1);
    port_prog(2);
    cr_assert_eq(tile_run(t, 1000), ERR_NONE, "%s", t->err.text);
    /* TRISC0 and TRISC1 get the port at 2: result 9, addi 9, exit 10, 11, halt 12. TRISC2 gets
     * it at 3: one cycle later. */
    cr_expect_eq(t->core[0].halt_cycle, 12);
    cr_expect_eq(t->core[1].halt_cycle, 12);
    cr_expect_eq(t->core[2].halt_cycle, 13);
}

/* A narrow store's read-modify-write holds the port five cycles (WH:L1.md): TRISC2's load waits
 * behind TRISC1's store drain. Wormhole does not merge stores, so the store drains at once. */
Test(rv_timing, narrow_store_holds_the_port_five_cycles)
{
    tile_destroy(t);
    t = test_tile(ARCH_WORMHOLE);
    struct prog q = prog_at(t, 0xA000);
    E(&q, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&q, SW, 0, 5, 0, 0);        /* 1: port 1..5 */
    emit_exit(&q);                /* 2, 3 */
    tile_start_core(t, CORE_TRISC1, q.base);
    struct prog r = prog_at(t, 0xE000);
    E(&r, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&r, ADDI, 0, 0, 0, 0);      /* 1 */
    E(&r, LW, 6, 5, 0, 64);       /* 2: the port is free at 6: result at 13 */
    E(&r, ADDI, 7, 6, 0, 1);      /* 13 */
    emit_exit(&r);                /* 14, 15 */
    tile_start_core(t, CORE_TRISC2, r.base);
    cr_assert_eq(tile_run(t, 1000), ERR_NONE, "%s", t->err.text);
    cr_expect_eq(t->core[2].halt_cycle, 16);
}

/* The retire-order queue has 8 entries (BHR:MemoryOrdering.md): an instruction enters EX1 only
 * with a free one, and an entry frees the cycle after its instruction retires, in order. The load's
 * result is ready at 9, so it retires at 9 and its entry is free at 10: the eighth instruction
 * after it, due at 9, waits a cycle. */
Test(rv_timing, retire_queue_holds_the_eighth_instruction_after_a_load)
{
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);        /* 1: ready at 9, retires at 9 */
    for (int i = 0; i < 7; i++)
        E(&p, ADDI, 10 + i, 0, 0, i); /* 2..8: retire at 10..16 */
    E(&p, ADDI, 17, 0, 0, 7);     /* 10, not 9 */
    E(&p, ADDI, 18, 0, 0, 8);     /* 11: its entry (the first addi's) is free at 11 */
    const struct rv_core *c = run(); /* exit at 12, 13 */
    cr_expect_eq(c->halt_cycle, 14);
    cr_expect_eq(c->st.stall[STALL_RETIRE], 1);
}

/* Wormhole: a result queued in the Load/Store Unit behind a slow load reaches only the very next
 * instruction (as it leaves the Integer Unit); later readers wait until it leaves the unit, in
 * order after the load (WHR:README.md "Integer Unit"). Blackhole's forwarding network has no
 * such limit (BHR:README.md "Retire Unit"). */
static const struct rv_core *queued_forwarding(void)
{
    E(&p, LUI, 5, 0, 0, 0x20000); /* 0 */
    E(&p, LW, 6, 5, 0, 0);        /* 1: ready at 9, leaves the LSU at 9 */
    E(&p, ADDI, 7, 0, 0, 1);      /* 2: leaves at 10 */
    E(&p, ADDI, 8, 7, 0, 1);      /* 3: the very next: takes x7 at once */
    E(&p, ADDI, 9, 7, 0, 1);      /* WH: waits for x7 to leave, 10; BH: 4 */
    return run();
}

Test(rv_timing, wormhole_forwards_a_queued_result_only_to_the_next_instruction)
{
    use_wormhole();
    const struct rv_core *c = queued_forwarding(); /* exit at 11, 12 */
    cr_expect_eq(c->halt_cycle, 13);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 6);
    cr_expect_eq(c->x[9], 2);
}

Test(rv_timing, blackhole_forwards_queued_results_to_everyone)
{
    const struct rv_core *c = queued_forwarding(); /* exit at 5, 6 */
    cr_expect_eq(c->halt_cycle, 7);
    cr_expect_eq(c->st.stall[STALL_OPERAND], 0);
}

/* A multiply holds Wormhole's Integer Unit two cycles (WHR:README.md), Blackhole's EX1 one. */
Test(rv_timing, wormhole_mul_holds_the_integer_unit_two_cycles)
{
    use_wormhole();
    E(&p, MUL, 5, 6, 7, 0);  /* 0 */
    E(&p, ADDI, 8, 0, 0, 1); /* 2 */
    const struct rv_core *c = run(); /* exit at 3, 4 */
    cr_expect_eq(c->halt_cycle, 5);
    cr_expect_eq(c->st.stall[STALL_DIV], 1);
}
