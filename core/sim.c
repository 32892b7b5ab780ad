#include "sim.h"

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
