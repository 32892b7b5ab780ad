#include "sim.h"

#include <stdarg.h>

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
