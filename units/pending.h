/* Writes queued with the cycle from which they are visible (the Configuration unit's Config and
 * ThreadConfig writes, RDCFG's GPR writes): which are due, in the order they take effect. */
#ifndef TENSIM_UNITS_PENDING_H
#define TENSIM_UNITS_PENDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Positions in q[0..n) (entries of `stride` bytes that begin with their uint64_t visibility
 * cycle) of the writes visible by cycle s: by visibility cycle, then in the order they were
 * made. Returns how many. */
static inline unsigned pending_due(const void *q, size_t stride, unsigned n, uint64_t s,
                                   unsigned *order)
{
    const char *base = q;
#define AT(i) (*(const uint64_t *)(const void *)(base + (size_t)(i) * stride))
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        if (AT(i) > s)
            continue;
        unsigned k = m++;
        while (k > 0 && AT(order[k - 1]) > AT(i)) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
#undef AT
    return m;
}

/* Drops the m entries at positions order[0..m) (applied) from q[0..n), keeping the others in
 * the order they were made. Returns how many remain. */
static inline unsigned pending_remove(void *q, size_t stride, unsigned n, const unsigned *order,
                                      unsigned m)
{
    char *base = q;
    unsigned keep = 0;
    for (unsigned i = 0; i < n; i++) {
        bool gone = false;
        for (unsigned k = 0; k < m && !gone; k++)
            gone = order[k] == i;
        if (!gone) {
            if (keep != i)
                memcpy(base + (size_t)keep * stride, base + (size_t)i * stride, stride);
            keep++;
        }
    }
    return keep;
}

#endif
