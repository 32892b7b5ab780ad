#include "sim.h"

#include <stdarg.h>

struct tile *sim_add_tile(struct sim *s, const struct arch *arch)
{
    if (s->ntiles == SIM_MAX_TILES)
        return NULL;
    struct tile *t = tile_create(arch);
    if (t)
        s->tile[s->ntiles++] = t;
    return t;
}

void sim_destroy(struct sim *s)
{
    for (unsigned i = 0; i < s->ntiles; i++)
        tile_destroy(s->tile[i]);
    s->ntiles = 0;
}

enum err_kind sim_run(struct sim *s, uint64_t window)
{
    const uint64_t end = s->max_cycles ? s->max_cycles : CYCLE_NEVER;
    bool running[SIM_MAX_TILES];
    unsigned left = s->ntiles;
    for (unsigned i = 0; i < s->ntiles; i++)
        running[i] = true;
    for (uint64_t h = 0; left && h < end;) {
        h = end - h > window ? h + window : end;
        for (unsigned i = 0; i < s->ntiles; i++)
            if (running[i] && !tile_run_until(s->tile[i], h)) {
                running[i] = false;
                left--;
            }
    }
    enum err_kind first = ERR_NONE;
    for (unsigned i = 0; i < s->ntiles; i++) {
        /* A tile still running has reached max_cycles: tile_run stops it there as it would
         * alone (cycle limit, or the end of a run whose agents all wake later). */
        enum err_kind k = running[i] ? tile_run(s->tile[i], s->max_cycles) : tile_finish(s->tile[i]);
        if (first == ERR_NONE)
            first = k;
    }
    return first;
}

void sim_outcome_init(struct sim_outcome *o, const struct tile *t)
{
    *o = (struct sim_outcome){.guest_core = -1};
    if (t->err.kind != ERR_NONE) {
        o->exit_status = err_kind_exit_code(t->err.kind);
        return;
    }
    for (int k = 0; k < NUM_CORES; k++)
        if (t->core[k].state == CORE_HALTED && t->core[k].exit_code) {
            o->guest_core = k;
            o->exit_status = guest_exit_status(t->core[k].exit_code);
            return;
        }
}

void sim_host_error(struct sim_outcome *o, const char *fmt, ...)
{
    char msg[sizeof o->host_error[0]];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "tensim: %s: %s\n", err_kind_text(ERR_HOST), msg);
    if (o->nhost_errors < SIM_MAX_HOST_ERRORS)
        snprintf(o->host_error[o->nhost_errors++], sizeof o->host_error[0], "%s", msg);
    if (!o->exit_status)
        o->exit_status = err_kind_exit_code(ERR_HOST);
}

void sim_print_error(const struct sim_error *e, FILE *f)
{
    if (e->core >= 0)
        fprintf(f, "tensim: %s: %s pc=0x%08x cycle=%llu: %s\n", err_kind_text(e->kind), e->where,
                e->pc, (unsigned long long)e->cycle, e->text);
    else
        fprintf(f, "tensim: %s: cycle=%llu: %s\n", err_kind_text(e->kind),
                (unsigned long long)e->cycle, e->text);
    if (e->detail[0])
        fputs(e->detail, f);
}

void sim_print_guest_exits(const struct tile *t, FILE *f)
{
    for (int k = 0; k < NUM_CORES; k++) {
        const struct rv_core *c = &t->core[k];
        if (c->state == CORE_HALTED && c->exit_code)
            fprintf(f, "tensim: guest exit: %s cycle=%llu: exit code %d%s\n", core_name(k),
                    (unsigned long long)c->halt_cycle, c->exit_code,
                    guest_exit_status(c->exit_code) != c->exit_code
                        ? " (outside 1..98: passed on as exit status 99)" : "");
    }
}
