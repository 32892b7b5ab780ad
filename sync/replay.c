/* Replay expander (WH:REPLAY.md; BH:REPLAY.md defers to it). See replay.h for the cycle
 * rules and the undefined cases. */
#include "replay.h"

#include <stdio.h>
#include <string.h>

#include "../units/tensix_isa.h"

static void fail(struct replay_expander *r, const char *what, uint32_t word)
{
    if (r->failed)
        return;
    r->failed = true;
    snprintf(r->err, sizeof r->err, "replay expander: %s (0x%08X)", what, (unsigned)word);
}

void replay_reset(struct replay_expander *r, bool skip_nops)
{
    memset(r, 0, sizeof *r);
    r->phase = REPLAY_PHASE_PASS;
    r->skip_nops = skip_nops;
}

bool replay_busy(const struct replay_expander *r)
{
    return r->phase != REPLAY_PHASE_PASS;
}

static void push1(struct replay_expander *r, struct tt_fifo *out, uint32_t w, tt_origin o)
{
    tt_fifo_put(out, w, o); /* callers checked tt_fifo_has_room */
    unsigned op = tt_opcode(w);
    r->after_cfg_write = op == TT_OPC_WRCFG || op == TT_OPC_CFGSHIFTMASK;
}

/* With skip_nops (replay.h: a what-if, off by default), pass over the plain NOPs at buffer[index]
 * within the cycle, as the MOP expander passes over its NOP slots; back to pass-through when
 * nothing is left. A NOP right after a WRCFG or CFGSHIFTMASK stays: it is the documented way to
 * keep the next instruction off the configuration being written (BH:WRCFG.md,
 * BH:CFGSHIFTMASK.md "Instruction scheduling"), so it must take its cycle. */
static void skip_nops(struct replay_expander *r)
{
    if (!r->skip_nops)
        return;
    while (r->remaining && !r->after_cfg_write && tt_opcode(r->buf[r->index]) == TT_OPC_NOP) {
        r->index = (r->index + 1) % REPLAY_BUF_WORDS;
        r->remaining--;
        r->skipped++;
    }
    if (!r->remaining)
        r->phase = REPLAY_PHASE_PASS;
}

/* Emit buffer[index] and move on; back to pass-through after the last one. */
static void play_one(struct replay_expander *r, struct tt_fifo *out)
{
    /* the first word played carries the REPLAY's arrow, the rest its origin */
    push1(r, out, r->buf[r->index], r->origin);
    r->origin = origin_follow(r->origin);
    r->emitted++;
    r->index = (r->index + 1) % REPLAY_BUF_WORDS;
    if (--r->remaining == 0)
        r->phase = REPLAY_PHASE_PASS;
    else
        skip_nops(r);
}

static enum pipe_step record_one(struct replay_expander *r, struct tt_fifo *in,
                                 struct tt_fifo *out)
{
    if (!in->count)
        return PIPE_IDLE; /* a gap in the incoming stream just waits */
    uint32_t w = tt_fifo_peek(in, 0);
    switch (tt_opcode(w)) {
    case TT_OPC_MOP:
    case TT_OPC_MOP_CFG:
        fail(r, "MOP instruction inside a REPLAY recording (a replay expansion cannot contain "
                "MOP)", w);
        return PIPE_ERROR;
    case TT_OPC_REPLAY:
        fail(r, "REPLAY inside a REPLAY recording (nested replay is undefined)", w);
        return PIPE_ERROR;
    default:
        break;
    }
    if (r->exec && !tt_fifo_has_room(out, 1))
        return PIPE_IDLE;
    tt_origin o;
    tt_fifo_take(in, &w, &o);
    r->ingested++;
    r->buf[r->index] = w;
    r->recorded++;
    r->index = (r->index + 1) % REPLAY_BUF_WORDS;
    if (r->exec) {
        push1(r, out, w, o);
        r->emitted++;
    }
    if (--r->remaining == 0)
        r->phase = REPLAY_PHASE_PASS;
    return PIPE_PROGRESS;
}

enum pipe_step replay_step(struct replay_expander *r, struct tt_fifo *in, struct tt_fifo *out)
{
    if (r->failed)
        return PIPE_ERROR;

    if (r->phase == REPLAY_PHASE_PLAY) {
        /* Playback ingests nothing; words arriving meanwhile wait in `in`. */
        if (!tt_fifo_has_room(out, 1))
            return PIPE_IDLE;
        play_one(r, out);
        return PIPE_PROGRESS;
    }
    if (r->phase == REPLAY_PHASE_RECORD)
        return record_one(r, in, out);

    if (!in->count)
        return PIPE_IDLE;
    uint32_t w = tt_fifo_peek(in, 0);
    if (tt_opcode(w) != TT_OPC_REPLAY) {
        if (!tt_fifo_has_room(out, 1))
            return PIPE_IDLE;
        replay_pass_word(r, in, out, w);
        return PIPE_PROGRESS;
    }

    unsigned count = TT_GET_REPLAY_Count(w) ? TT_GET_REPLAY_Count(w) : 64;
    if (!TT_GET_REPLAY_Load(w)) {
        /* Playback: the REPLAY goes in and the first buffered word comes out this cycle;
         * Exec is not looked at. */
        if (!tt_fifo_has_room(out, 1))
            return PIPE_IDLE;
        tt_fifo_take(in, &w, &r->origin);
        r->ingested++;
        r->replays++;
        r->index = TT_GET_REPLAY_Index(w);
        r->remaining = count;
        r->phase = REPLAY_PHASE_PLAY;
        skip_nops(r);
        if (r->remaining) /* else only NOPs, skipped: consuming the REPLAY took the cycle */
            play_one(r, out);
        return PIPE_PROGRESS;
    }
    /* Load: this cycle only consumes the REPLAY; recording starts next cycle. */
    tt_fifo_pop(in, &w);
    r->ingested++;
    r->replays++;
    r->index = TT_GET_REPLAY_Index(w);
    r->remaining = count;
    r->exec = TT_GET_REPLAY_Exec(w);
    r->phase = REPLAY_PHASE_RECORD;
    return PIPE_PROGRESS;
}
