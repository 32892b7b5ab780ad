/* The SDK's dataflow header (riscv/sdk/dataflow.h) on one tile: build/kernels/dataflow-node.elf
 * (test/kernels/dataflow_node.c) checks NOC_NODE_ID, the addresses and the registers it leaves
 * in the command buffers itself; here the NIU model (mem/niu.c) says what it made of each
 * request, so the header's encodings are checked against the model's decoding of the same
 * registers (both follow tt-isa-documentation BlackholeA0/NoC/MemoryMap.md). Multi-tile runs of
 * the chip examples are not tested here: they need the chip (core/chip.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "../mem/elf.h"
#include "../mem/niu.h"
#include "harness.h"

#define ELF "build/kernels/dataflow-node.elf"

Test(dataflow, node_kernel_passes_its_checks, .timeout = 60)
{
    static char out[4096];
    int rc = run_tensim("run -q --brisc=" ELF, out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "dataflow-node: ok"), "%s", out);
}

/* The same program linked for NCRISC (riscv/sdk/ncrisc.ld: from its reset pc 0x12000). */
Test(dataflow, node_kernel_runs_on_ncrisc, .timeout = 60)
{
    static char out[4096];
    int rc = run_tensim("run -q --ncrisc=build/kernels/dataflow-node-ncrisc.elf", out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "dataflow-node: ok"), "%s", out);
}

static const struct niu_request *req(struct tile *t, unsigned i)
{
    const struct niu_request *q = niu_outbox_peek(t, i);
    cr_assert(q, "request %u missing (%u in the outbox)", i, niu_outbox_count(t));
    return q;
}

Test(dataflow, the_niu_decodes_the_headers_requests, .timeout = 60)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    cr_assert_eq(elf_load_file(t, CORE_BRISC, ELF), 0, "%s", t->err.text);
    cr_assert_eq(tile_run(t, 1000000), ERR_NONE, "%s", t->err.text);
    cr_assert_eq(niu_outbox_count(t), 9);

    const struct niu_request *q = req(t, 0); /* df_write to (2, 2) */
    cr_expect_eq(q->kind, NIU_WRITE);
    cr_expect(q->noc == 0 && q->cmd_buf == 0 && q->x == 2 && q->y == 2 && q->ret_x == 1 && q->ret_y == 2);
    cr_expect(q->remote_addr == 0x30000 && q->local_addr == 0x21000 && q->len == 64);
    cr_expect_eq(q->flags, NIU_F_STATIC_VC);
    cr_expect_eq(q->vc, 1);

    q = req(t, 1); /* df_write_multicast to (2, 2)..(4, 3) */
    cr_expect_eq(q->kind, NIU_WRITE);
    cr_expect(q->x0 == 2 && q->y0 == 2 && q->x == 4 && q->y == 3, "rectangle (%u, %u)..(%u, %u)", q->x0, q->y0,
              q->x, q->y);
    cr_expect_eq(q->flags, NIU_F_BROADCAST | NIU_F_STATIC_VC | NIU_F_PATH_RESERVE);
    cr_expect_eq(q->vc, 4);
    q = req(t, 2); /* ... with the sender included */
    cr_expect_eq(q->flags, NIU_F_BROADCAST | NIU_F_STATIC_VC | NIU_F_PATH_RESERVE | NIU_F_SRC_INCLUDE);
    cr_expect(q->x0 == 1 && q->y0 == 2);

    q = req(t, 3); /* df_read from DRAM tile (0, 2) */
    cr_expect_eq(q->kind, NIU_READ);
    cr_expect(q->cmd_buf == 1 && q->x == 0 && q->y == 2 && q->ret_x == 1 && q->ret_y == 2);
    cr_expect(q->remote_addr == 0x1000 && q->local_addr == 0x22000 && q->len == 256);
    q = req(t, 4); /* 20 KiB: split by the header into 16 KiB + 4 KiB */
    cr_expect(q->len == 16384 && q->remote_addr == 0x1000 && q->local_addr == 0x22000);
    q = req(t, 5);
    cr_expect(q->len == 4096 && q->remote_addr == 0x5000 && q->local_addr == 0x26000);

    q = req(t, 6); /* df_sem_inc(+5) of (3, 3)'s 0x20104, non-posted */
    cr_expect_eq(q->kind, NIU_ATOMIC);
    cr_expect(q->cmd_buf == 3 && q->x == 3 && q->y == 3 && q->remote_addr == 0x20104);
    cr_expect(!(q->flags & NIU_F_POSTED));
    cr_expect(q->ret_x == 1 && q->ret_y == 2);
    cr_expect_eq(q->at_len_be >> 12 & 15u, 1u, "NOC_AT_INS_INCR_GET");
    cr_expect_eq(q->at_len_be >> 2 & 31u, 31u, "32-bit wrap");
    cr_expect_eq(q->at_len_be & 3u, 1u, "the word's offset in its line");
    cr_expect_eq(q->at_data, 5);

    q = req(t, 7); /* df_inline_dw_write on Blackhole: a 4-byte write, not an inline one */
    cr_expect_eq(q->kind, NIU_WRITE);
    cr_expect(!(q->flags & NIU_F_INLINE));
    cr_expect(q->len == 4 && q->remote_addr == 0x2010C && (q->local_addr & 15u) == 0xC);
    uint32_t word;
    memcpy(&word, t->l1 + q->local_addr, 4);
    cr_expect_eq(word, 0xCAFE);

    q = req(t, 8); /* on NoC 1: from (15, 9) to (14, 9), NoC 0 (2, 2) mirrored */
    cr_expect_eq(q->noc, 1);
    cr_expect(q->x == 14 && q->y == 9 && q->ret_x == 15 && q->ret_y == 9, "(%u, %u) ack to (%u, %u)", q->x, q->y,
              q->ret_x, q->ret_y);
    tile_destroy(t);
}
