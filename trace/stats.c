#include "json.h"
#include "metrics.h"
#include "regions.h"
#include "stats.h"
#include "zones.h"

#include <inttypes.h>

#include "../core/sim.h"
#include "../core/rules.h"
#include "../core/tile.h"
#include "../core/timing.h"
#include "../sync/gate.h"


void stats_report(const struct tile *t, FILE *f)
{
    fprintf(f, "tensim: %s tile, %" PRIu64 " cycles (%.3f us at %s)\n", t->arch->name, t->cycles,
            (double)t->cycles / (t->arch->id == ARCH_WORMHOLE ? 1000.0 : 1350.0),
            t->arch->id == ARCH_WORMHOLE ? "1.0 GHz" : "1.35 GHz");
    fprintf(f, "%-7s %12s %12s %6s  %s\n", "core", "instret", "cycles", "IPC", "stall cycles");
    for (int i = 0; i < NUM_CORES; i++) {
        const struct rv_core *c = &t->core[i];
        if (c->state == CORE_OFF)
            continue;
        uint64_t cyc = rv_core_cycles(c);
        fprintf(f, "%-7s %12" PRIu64 " %12" PRIu64 " %6.3f ", core_name(i), c->st.instret, cyc,
                cyc ? (double)c->st.instret / (double)cyc : 0.0);
        int any = 0;
        for (int s = 0; s < STALL_COUNT; s++) {
            if (c->st.stall[s]) {
                fprintf(f, " %s=%" PRIu64, core_stall_key(s), c->st.stall[s]);
                any = 1;
            }
        }
        fprintf(f, "%s\n", any ? "" : " none");
    }
    for (int i = 0; i < NUM_THREADS; i++) {
        const struct tensix_thread *th = &t->thread[i];
        if (!th->pushed)
            continue;
        fprintf(f, "T%d      %12" PRIu64 " issued, %" PRIu64 " empty, held:", i, th->st.issued,
                th->st.empty);
        int any = 0;
        for (int r = 1; r < GS_COUNT; r++) {
            if (!th->st.stall[r])
                continue;
            fprintf(f, " %s=%" PRIu64, gate_stall_key(r), th->st.stall[r]);
            any = 1;
        }
        fprintf(f, "%s\n", any ? "" : " none");
    }
    /* Backend units that did work, in registry order */
    for (unsigned u = 0; u < UNIT_COUNT; u++)
        if (unit_rows[u].desc && unit_rows[u].desc->report)
            unit_rows[u].desc->report(t, f);
    metrics_report(t, f);
    regions_report(t, f);
}

static const char *state_name(enum core_state s)
{
    switch (s) {
    case CORE_OFF: return "off";
    case CORE_RUNNING: return "running";
    case CORE_BLOCKED: return "blocked";
    default: return "halted";
    }
}

/* How the run ended, beyond the tile: see struct sim_outcome. */
void stats_json_error_fields(const struct sim_error *e, FILE *f)
{
    fprintf(f, "\"category\": ");
    json_str(f, err_kind_text(e->kind));
    fprintf(f, ", \"exit_code\": %d, \"where\": ", err_kind_exit_code(e->kind));
    json_str(f, e->where);
    fprintf(f, ", \"pc\": %" PRIu32 ", \"cycle\": %" PRIu64 ", \"message\": ", e->pc, e->cycle);
    json_str(f, e->text);
}

void stats_json_host_errors(const struct sim_outcome *o, FILE *f)
{
    fprintf(f, "  \"host_errors\": [");
    for (unsigned i = 0; i < o->nhost_errors; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, o->host_error[i]);
    }
    fputc(']', f);
}

static void json_outcome(const struct tile *t, const struct sim_outcome *o, FILE *f)
{
    fprintf(f, "  \"exit_status\": %d,\n  \"guest_exit\": ", o->exit_status);
    if (o->guest_core >= 0)
        fprintf(f, "{\"core\": \"%s\", \"code\": %d},\n", core_name(o->guest_core),
                t->core[o->guest_core].exit_code);
    else
        fprintf(f, "null,\n");
    stats_json_host_errors(o, f);
    fprintf(f, ",\n  \"dumps\": [");
    for (unsigned i = 0; i < o->ndumps; i++) {
        fputs(i ? ", " : "", f);
        fprintf(f, "{\"file\": ");
        json_str(f, o->dumps[i].file);
        fprintf(f, ", \"addr\": %" PRIu64 ", \"len\": %" PRIu64 ", \"written\": %s}",
                o->dumps[i].addr, o->dumps[i].len, o->dumps[i].written ? "true" : "false");
    }
    fprintf(f, "],\n");
    if (o->run_file) {
        fprintf(f, "  \"run\": {\"description\": ");
        json_str(f, o->run_file);
        fprintf(f, ", \"boot\": \"%s\", \"end\": \"%s\", \"ended_by_end\": %s},\n", o->run_boot,
                o->run_end, o->run_ended ? "true" : "false");
    }
}

void stats_json(const struct tile *t, const struct sim_outcome *o, FILE *f)
{
    fprintf(f, "{\n  \"schema\": \"tensim-stats\",\n  \"version\": 1,\n");
    fprintf(f, "  \"arch\": \"%s\",\n  \"cycles\": %" PRIu64 ",\n", t->arch->name, t->cycles);
    fprintf(f, "  \"timing\": {");
    timing_json(t->arch, f);
    fprintf(f, "},\n");
    fprintf(f, "  \"error\": ");
    if (t->err.kind == ERR_NONE) {
        fprintf(f, "null,\n");
    } else {
        fputc('{', f);
        stats_json_error_fields(&t->err, f);
        fprintf(f, "},\n");
    }
    if (o)
        json_outcome(t, o, f);
    if (o && o->zones)
        zones_json(o->zones, f);
    if (t->lint) { /* tensim run --lint only, so other runs' stats are unchanged */
        fprintf(f, "  \"lint\": ");
        lint_json(t->lint, t, f);
        fprintf(f, ",\n");
    }
    metrics_run_json(t, f);
    regions_json(t, f);
    fprintf(f, "  \"cores\": {");
    const char *sep = "";
    for (int i = 0; i < NUM_CORES; i++) {
        const struct rv_core *c = &t->core[i];
        if (c->state == CORE_OFF)
            continue;
        const struct core_stats *s = &c->st;
        uint64_t cyc = rv_core_cycles(c);
        fprintf(f, "%s\n    \"%s\": {\n", sep, core_name(i));
        fprintf(f, "      \"state\": \"%s\", \"exit_code\": %d, \"pc\": %" PRIu32 ",\n",
                state_name(c->state), c->exit_code, c->pc);
        fprintf(f, "      \"cycles\": %" PRIu64 ", \"instret\": %" PRIu64 ", \"active\": %" PRIu64
                   ", \"ipc\": %.6f,\n",
                cyc, s->instret, s->active, cyc ? (double)s->instret / (double)cyc : 0.0);
        fprintf(f, "      \"stalls\": {");
        for (int k = 0; k < STALL_COUNT; k++)
            fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", core_stall_key(k), s->stall[k]);
        fprintf(f, "},\n");
        fprintf(f,
                "      \"branches\": %" PRIu64 ", \"mispredicts\": %" PRIu64 ", \"loads\": %" PRIu64
                ", \"stores\": %" PRIu64 ", \"l0_hits\": %" PRIu64 ", \"l0_misses\": %" PRIu64
                ", \"l0_flushes\": %" PRIu64 ", \"tensix_pushes\": %" PRIu64 ",\n",
                s->branches, s->mispredicts, s->loads, s->stores, s->l0_hits, s->l0_misses,
                s->l0_flushes, s->tensix_pushes);
        fprintf(f, "      \"opcodes\": {");
        const char *osep = "";
        for (int op = 0; op < RV_OP_COUNT; op++) {
            if (!s->op_count[op])
                continue;
            fprintf(f, "%s", osep);
            json_str(f, rv_desc(op)->mnemonic);
            fprintf(f, ": %" PRIu64, s->op_count[op]);
            osep = ", ";
        }
        fprintf(f, "}\n    }");
        sep = ",";
    }
    fprintf(f, "\n  },\n  \"threads\": {");
    for (int i = 0; i < NUM_THREADS; i++) {
        const struct tensix_thread *th = &t->thread[i];
        const struct thread_stats *s = &th->st;
        fprintf(f, "%s\n    \"T%d\": {\n      \"pushed\": %" PRIu64 ", \"issued\": %" PRIu64
                   ", \"empty\": %" PRIu64 ",\n      \"held\": {",
                i ? "," : "", i, th->pushed, s->issued, s->empty);
        for (int r = 1; r < GS_COUNT; r++)
            fprintf(f, "%s\"%s\": %" PRIu64, r > 1 ? ", " : "", gate_stall_key(r), s->stall[r]);
        fprintf(f, "},\n      \"held_detail\": {");
        const char *dsep = "";
        for (int r = 1; r < GS_COUNT; r++) {
            if (!s->stall[r])
                continue;
            fprintf(f, "%s\"%s\": {", dsep, gate_stall_key(r));
            const char *isep = "";
            for (int d = 0; d < GATE_DETAIL_MAX; d++) {
                if (!s->stall_detail[r][d])
                    continue;
                fprintf(f, "%s\"%d\": %" PRIu64, isep, d, s->stall_detail[r][d]);
                isep = ", ";
            }
            fprintf(f, "}");
            dsep = ", ";
        }
        fprintf(f, "},\n      \"instructions\": {");
        const char *osep = "";
        for (int k = 0; k < TT_FORM_COUNT; k++) {
            if (!s->by_form[k])
                continue;
            fprintf(f, "%s\"%s\": %" PRIu64, osep, tt_forms[k].name, s->by_form[k]);
            osep = ", ";
        }
        fprintf(f, "}\n    }");
    }
    fprintf(f, "\n  },\n  \"units\": {");
    for (unsigned k = 0; k < UNIT_COUNT; k++) {
        const struct unit_row *row = NULL;
        for (unsigned u = 0; u < UNIT_COUNT; u++)
            if (unit_rows[u].json_rank == k)
                row = &unit_rows[u];
        uint64_t total = 0;
        for (int form = 0; form < TT_FORM_COUNT; form++)
            if (tt_forms[form].unit == row->kind)
                for (int i = 0; i < NUM_THREADS; i++)
                    total += t->thread[i].st.by_form[form];
        fprintf(f, "%s\n    \"%s\": {\"instructions\": %" PRIu64, k ? "," : "",
                tt_unit_name((enum tt_unit)row->kind), total);
        if (row->desc && row->desc->stats_json)
            row->desc->stats_json(t, f);
        fprintf(f, ", \"by_form\": {");
        const char *sep2 = "";
        for (int form = 0; form < TT_FORM_COUNT; form++) {
            if (tt_forms[form].unit != row->kind)
                continue;
            uint64_t n = 0;
            for (int i = 0; i < NUM_THREADS; i++)
                n += t->thread[i].st.by_form[form];
            if (!n)
                continue;
            fprintf(f, "%s\"%s\": %" PRIu64, sep2, tt_forms[form].name, n);
            sep2 = ", ";
        }
        fprintf(f, "}}");
    }
    fprintf(f, "\n  },\n  \"sync\": ");
    sem_stats_json(&t->sem, f);
    fprintf(f, "\n}\n");
}
