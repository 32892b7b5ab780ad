/* The polling-loop rule (riscv/poll.h, docs/user-guide.md "Polling loops"). */
#include "poll.h"

#include "../core/tile.h"
#include "../mem/l1.h"

/* Does the CSR instruction write its CSR? csrrw/csrrwi always; the set and clear forms unless
 * their source (register or 5-bit immediate, both in rs1) is 0 (RISC-V privileged spec 2.1). */
static bool csr_writes(const struct rv_insn *in)
{
    return in->op == RV_CSRRW || in->op == RV_CSRRWI || in->rs1 != 0;
}

bool rv_poll_loop(const uint8_t *l1, uint32_t l1_size, uint32_t branch, uint32_t *target)
{
    if (branch >= l1_size || (branch & 3))
        return false;
    struct rv_insn b = rv_decode(le_get(l1 + branch, 4));
    if (rv_desc((enum rv_op)b.op)->cls != RVC_BRANCH || b.imm >= 0 ||
        (uint32_t)-b.imm > 4 * (POLL_MAX_BODY - 1))
        return false;
    const uint32_t from = branch + (uint32_t)b.imm;
    /* One pass in program order: which registers hold a value read in this pass round the loop
     * (a load's or a CSR's, or anything computed from one), which registers the loop writes,
     * which it uses as load addresses. */
    uint32_t read_value = 0, written = 0, bases = 0;
    bool reads = false, tests = false;
    for (uint32_t pc = from; pc <= branch; pc += 4) {
        struct rv_insn in = rv_decode(le_get(l1 + pc, 4));
        const uint32_t src = (1u << in.rs1 | 1u << in.rs2) & ~1u, dst = (1u << in.rd) & ~1u;
        bool from_read = false;
        switch (rv_desc((enum rv_op)in.op)->cls) {
        case RVC_LOAD:
            reads = from_read = true;
            bases |= (1u << in.rs1) & ~1u;
            break;
        case RVC_CSR:
            if (csr_writes(&in))
                return false;
            reads = from_read = true;
            break;
        case RVC_BRANCH:
            tests |= (src & read_value) != 0;
            break;
        case RVC_JAL:
        case RVC_JALR:
            if (in.rd) /* a call: what the callee does is not in the loop */
                return false;
            break;
        case RVC_ALU:
        case RVC_MUL:
        case RVC_DIV:
            from_read = (src & read_value) != 0;
            break;
        case RVC_FENCE: /* tensim_l1_poll's fence before its load */
            break;
        case RVC_STORE:
        case RVC_TTINSN:
        case RVC_AMO:
        case RVC_SYSTEM: /* ecall, ebreak, illegal words */
        case RVC_COUNT:
            return false;
        }
        written |= dst;
        read_value = from_read ? read_value | dst : read_value & ~dst;
    }
    /* Reads the same places each time round (no load address moves: not a walk over a buffer),
     * and some branch tests what was read (not a loop counted by a register of its own). */
    if (!reads || !tests || (bases & written))
        return false;
    *target = from;
    return true;
}

_Static_assert(RV_BGEU - RV_BEQ == 5, "the six conditional branches in a row (rv32.def)");

struct rv_insn *rv_predecode(struct tile *t, uint32_t pc)
{
    struct rv_insn *slot = &t->predecode[pc >> 2];
    *slot = rv_decode(le_get(t->l1 + pc, 4));
    uint32_t from;
    if (slot->op >= RV_BEQ && slot->op <= RV_BGEU && slot->imm < 0 &&
        rv_poll_loop(t->l1, t->arch->l1_size, pc, &from)) {
        for (uint32_t q = from; q < pc; q += 4) {
            struct rv_insn *p = &t->predecode[q >> 2];
            if (p->op == RV_UNDECODED)
                *p = rv_decode(le_get(t->l1 + q, 4));
            p->op |= RV_POLL_MARK;
        }
        slot->op |= RV_POLL_MARK;
        slot->imm |= RV_POLL_CLOSING;
    }
    return slot;
}
