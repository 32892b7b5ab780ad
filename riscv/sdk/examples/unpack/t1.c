/* TRISC1 of the unpack example (see unpack.h): wait, read Dst back, check. */
#include <stdio.h>

#include "unpack.h"

#define DST_WINDOW ((volatile uint16_t *)0xFFBD8000u)

int main(void)
{
    /* The Dst window reads BF16 for this core (RISC_DEST_ACCESS_CTRL_SEC1_fmt 3). */
    tensim_cfg_set(RISC_DEST_ACCESS_CTRL_SEC1_fmt_RMW, 3);
    while (tensim_sem_value(DONE_SEM) == 0)
        ;
    unsigned bad = 0;
    for (unsigned i = 0; i < 2 * DATUMS; i++) {
        unsigned k = i % DATUMS;
        uint16_t want = i < DATUMS ? bf16_value(k) : bfp8_to_bf16(bfp8_datum(k), bfp8_exp(k / 16));
        uint16_t got = DST_WINDOW[i];
        if (got != want && bad++ < 4)
            printf("Dst element %u: 0x%04x, want 0x%04x\n", i, got, want);
    }
    printf("unpack: a BF16 tile and a BFP8 tile unpacked into Dst; all %u values read back through "
           "the Dst window and checked against the tiles' own values, %u differ: %s\n", 2 * DATUMS,
           bad, bad ? "FAIL" : "PASS");
    return (int)bad;
}
