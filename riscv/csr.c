#include "csr.h"

#include "../core/tile.h"
#include "../sync/gate.h"

static uint32_t *plain_state(struct rv_core *c, unsigned csr)
{
    switch (csr) {
    case 0x7C0:
        return &c->cfg0;
    case 0x7C1:
    case 0x7C2:
        return &c->pmacfg[csr - 0x7C1];
    case 0x7C3:
    case 0x7C4:
    case 0x7C5:
    case 0x7C6:
        return &c->scratch[csr - 0x7C3]; /* cfg1, hwa_mask, hwa_cfg, vgsrc: scratch */
    default:
        return 0;
    }
}

/* Read the 64-bit counter behind a counter CSR; writes move the counter by changing an offset
 * so that it keeps counting from the written value (cycle/instret are writable aliases on BH). */
static bool counter(struct rv_core *c, uint64_t now, unsigned csr, int64_t **offset, uint64_t *value,
                    bool *high)
{
    switch (csr) {
    case 0xB00:
    case 0xC00:
    case 0xB80:
    case 0xC80:
        *offset = &c->cycle_offset;
        *value = now + (uint64_t)c->cycle_offset;
        break;
    case 0xB02:
    case 0xC02:
    case 0xB82:
    case 0xC82:
        *offset = &c->instret_offset;
        *value = c->st.instret + (uint64_t)c->instret_offset;
        break;
    default:
        return false;
    }
    *high = (csr & 0x080) != 0;
    return true;
}

/* The read-only constants; writes are ignored. */
static bool constant(unsigned csr, uint32_t *v)
{
    switch (csr) {
    case 0x300: /* mstatus */
        *v = 0x80006600u;
        return true;
    case 0x301: /* misa */
        *v = 0x40201123u;
        return true;
    case 0xF14: /* mhartid: always zero */
        *v = 0;
        return true;
    case 0x320: /* mcountinhibit cannot stop mcycle/minstret; other counters are not built */
        *v = 0;
        return true;
    default:
        return false;
    }
}

/* tt_cfg_qstatus / tt_cfg_bstatus as core c reads them now (BHR:CSRs.md). */
static uint32_t tt_status(const struct tile *t, const struct rv_core *c, bool busy)
{
    unsigned all = 0, mine = 0;
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        unsigned b = thread_status_bits(t, i, busy);
        all |= b;
        if ((int)i == c->id)
            mine = b;
    }
    if (c->id == CORE_BRISC)
        mine = all;
    return busy ? (mine | all << 11) : (mine | all << 13);
}

bool csr_peek(const struct tile *t, const struct rv_core *c, uint64_t now, unsigned csr,
              uint32_t *v)
{
    struct rv_core *m = (struct rv_core *)c; /* the lookups below only read through it */
    uint32_t *state = plain_state(m, csr);
    int64_t *offset;
    uint64_t value;
    bool high;
    if (state)
        *v = *state;
    else if (counter(m, now, csr, &offset, &value, &high))
        *v = high ? (uint32_t)(value >> 32) : (uint32_t)value;
    else if (csr == 0xBC0 || csr == 0xBC1)
        *v = c->cfg0 & CFG0_DIS_TT_STATUS ? c->tt_status[csr == 0xBC1] : tt_status(t, c, csr == 0xBC1);
    else
        return constant(csr, v);
    return true;
}

bool csr_own(unsigned csr)
{
    uint32_t v;
    switch (csr & ~0x080u) { /* counters: the high halves too */
    case 0xB00: case 0xC00: case 0xB02: case 0xC02:
        return true;
    default:
        return (csr >= 0x7C0 && csr <= 0x7C6) /* plain_state's */ || constant(csr, &v);
    }
}

bool csr_access(struct tile *t, struct rv_core *c, uint64_t now, unsigned csr, bool write,
                uint32_t (*update)(uint32_t, uint32_t), uint32_t operand, uint32_t *old)
{
    uint32_t *state = plain_state(c, csr);
    if (state) {
        *old = *state;
        if (write)
            *state = update(*state, operand);
        return true;
    }
    int64_t *offset;
    uint64_t value;
    bool high;
    if (counter(c, now, csr, &offset, &value, &high)) {
        *old = high ? (uint32_t)(value >> 32) : (uint32_t)value;
        if (write) {
            uint32_t nv = update(*old, operand);
            uint64_t v = high ? (value & 0xFFFFFFFFu) | (uint64_t)nv << 32
                              : (value & ~(uint64_t)0xFFFFFFFFu) | nv;
            uint64_t base = (offset == &c->cycle_offset) ? now : c->st.instret;
            *offset = (int64_t)(v - base);
        }
        return true;
    }
    if (constant(csr, old))
        return true;
    switch (csr) {
    case 0x003:
    case 0x008:
    case 0x009:
    case 0x00A:
    case 0x323:
    case 0x324:
    case 0xB03:
    case 0xB04:
    case 0xB83:
    case 0xB84:
    case 0xBCA:
    case 0xC20:
    case 0xC21:
    case 0xC22:
        tile_error(t, ERR_UNIMPLEMENTED, c->id, c->pc, "unimplemented CSR 0x%03x", csr);
        return false;
    case 0xBC0:
    case 0xBC1: {
        /* tt_cfg_qstatus / tt_cfg_bstatus (BHR:CSRs.md): per-thread and OR-reduced bitmasks of
         * instruction types queued in the frontend (bstatus: or executing). cfg0.DisTTStatusReg
         * freezes them; they stay writable. sfpu_cc (qstatus bits 11, 24) is 0 until the SFPU
         * exists. */
        bool busy = csr == 0xBC1;
        uint32_t *saved = &c->tt_status[busy];
        if (!(c->cfg0 & CFG0_DIS_TT_STATUS))
            *saved = tt_status(t, c, busy);
        *old = *saved;
        if (write)
            *saved = update(*saved, operand);
        return true;
    }
    default:
        if (csr >= 0xBC2 && csr <= 0xBC9) {
            tile_error(t, ERR_UNIMPLEMENTED, c->id, c->pc,
                       "unimplemented CSR 0x%03x (NoC overlay stream status)", csr);
            return false;
        }
        tile_error(t, ERR_UNDEF_INSN, c->id, c->pc, "access to CSR 0x%03x, which %s does not have",
                   csr, core_name(c->id));
        return false;
    }
}
