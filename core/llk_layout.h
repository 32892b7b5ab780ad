/* Where tt-llk's test harness keeps its mailboxes, BRISC command slots, runtime arguments and
 * profiler buffers. They are software conventions that change between tt-llk versions, so each
 * layout is named after the tt-llk commit it was read from (docs/tt-llk.md pins them); a run
 * description names the one its kernels were built with. */
#ifndef TENSIM_CORE_LLK_LAYOUT_H
#define TENSIM_CORE_LLK_LAYOUT_H

#include <stdint.h>

#define LLK_THREADS 3

struct llk_layout {
    const char *name;
    uint32_t mailbox[LLK_THREADS]; /* unpack, math, pack: KERNEL_COMPLETE when done */
    uint32_t kernel_complete;
    uint32_t mailbox_reset;        /* what the host writes to them before a TRISC-mode boot */
    uint32_t brisc_command[2];     /* BRISC's command slots, used alternately */
    uint32_t brisc_counter;        /* commands BRISC has handled */
    uint32_t start_triscs;         /* the command that runs device set-up and releases the TRISCs */
    uint32_t profiler_buffer[LLK_THREADS]; /* one per TRISC */
    uint32_t profiler_words;       /* words in each */
    uint32_t profiler_barrier;
};

/* The layout called `name`, or NULL. */
const struct llk_layout *llk_layout_by_name(const char *name);
/* The known names, for messages: "a, b". */
void llk_layout_names(char *buf, unsigned len);

#endif
