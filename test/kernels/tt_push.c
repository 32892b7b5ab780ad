/* SDK check: Tensix instructions built with the generated TT_OP_* encoders, pushed both ways
 * (a store to INSTRN_BUF_BASE and an inline .ttinsn word). The test reads them back from
 * FIFO1 through tensim's disassembler. */
#include "tensim.h"
#include "tensix_ops.h"

int main(void)
{
    TT_PUSH(TT_OP_SEMINIT(1, 0, 1 << 2));  /* semaphore 2: max 1, value 0 */
    TTI_INSN(TT_OP_STALLWAIT(0x40, 0x3)); /* alias of the Blackhole form */
    TTI_INSN(TT_OP_NOP);
    return 0;
}
