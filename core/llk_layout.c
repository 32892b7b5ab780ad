/* tt-llk's harness layouts, one row per pinned tt-llk commit (docs/tt-llk.md). */
#include "llk_layout.h"

#include <stdio.h>
#include <string.h>

/* tenstorrent/tt-llk 36b092e8, Blackhole: tests/helpers/src/trisc.cpp and brisc.cpp (mailboxes
 * from 0x1FFB8: unpack, math, pack, two BRISC command slots, BRISC's counter; KERNEL_COMPLETE
 * 0xFF), tests/python_tests/helpers/device.py (0xA3 before a TRISC-mode boot, START_TRISCS 1),
 * tests/helpers/include/
 * profiler.h (three buffers of 0x400 words ending at 0x16E000, the barrier words before them). */
static const struct llk_layout layouts[] = {
    {
        .name = "tt-llk-36b092e8",
        .mailbox = {0x1FFB8, 0x1FFBC, 0x1FFC0},
        .kernel_complete = 0xFF,
        .mailbox_reset = 0xA3,
        .brisc_command = {0x1FFC4, 0x1FFC8},
        .brisc_counter = 0x1FFCC,
        .start_triscs = 1,
        .profiler_buffer = {0x16B000, 0x16C000, 0x16D000},
        .profiler_words = 0x400,
        .profiler_barrier = 0x16AFF4,
    },
};

const struct llk_layout *llk_layout_by_name(const char *name)
{
    for (unsigned i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (!strcmp(layouts[i].name, name))
            return &layouts[i];
    return 0;
}

void llk_layout_names(char *buf, unsigned len)
{
    unsigned used = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof layouts / sizeof layouts[0] && used < len; i++)
        used += (unsigned)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", layouts[i].name);
}
