/* What the vector-unit tests share (test/test_sfpu_*.c): a fresh tile per test, Blackhole or
 * Wormhole B0 by suite, with a log of the instructions passing the Wait Gates, and running
 * Tensix words on thread 0. Included once per test file. */
#ifndef TENSIM_TEST_SFPU_TEST_H
#define TENSIM_TEST_SFPU_TEST_H

#include <criterion/criterion.h>

#include "harness.h"

static struct issue_log issues;
static struct tile *t;
static bool wh __attribute__((unused)); /* the suite's tile is a Wormhole B0 one */

static void setup_arch(enum arch_id arch)
{
    t = test_tile(arch);
    wh = arch == ARCH_WORMHOLE;
    issue_log_attach(t, &issues);
}
static void setup_bh(void) { setup_arch(ARCH_BLACKHOLE); }
static void setup_wh(void) { setup_arch(ARCH_WORMHOLE); }
static void teardown(void) { tile_destroy(t); }

/* LReg[r] := v in every lane */
static __attribute__((unused)) void fill(unsigned r, uint32_t v)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[r][l] = v;
}
/* A different value per register and lane, unlike every edge value and result the tests use:
 * what a lane or register that must keep its value holds beforehand. */
static __attribute__((unused)) uint32_t old(unsigned r, unsigned l)
{
    return 0xC0DE0000u | r << 8 | l;
}
static __attribute__((unused)) void fill_old(unsigned r)
{
    for (unsigned l = 0; l < 32; l++)
        t->sfpu.lreg[r][l] = old(r, l);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
/* Runs the words on thread 0; the run must end cleanly. */
#define RUN(...)                                                                                   \
    do {                                                                                           \
        const uint32_t w_[] = {__VA_ARGS__};                                                       \
        cr_assert_eq(run_tensix(t, w_, N(w_), 100000), ERR_NONE, "%s\n%s", t->err.text,             \
                     t->err.detail);                                                               \
    } while (0)
/* Runs the words expecting the run to stop with `kind`. */
#define RUN_FAILS(kind, ...)                                                                       \
    do {                                                                                           \
        const uint32_t w_[] = {__VA_ARGS__};                                                       \
        cr_assert_eq(run_tensix(t, w_, N(w_), 100000), kind, "%s", t->err.text);                   \
    } while (0)

#endif
