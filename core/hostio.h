/* Host files: reading a whole input (programs, --load data) and writing outputs (stats, traces,
 * dumps) so that every failure, including one that only shows when the file is closed (a full
 * disk), is noticed and explained. Used only before and after a run, never per cycle. */
#ifndef TENSIM_CORE_HOSTIO_H
#define TENSIM_CORE_HOSTIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The whole of `path` (a regular file, pipe or device; not a directory), at most `max` bytes.
 * Returns a malloc'd buffer (the caller frees it; never NULL on success, even when empty), or
 * NULL with the reason in why[0..n) ("is a directory", "cannot open: No such file or
 * directory", ...). */
uint8_t *host_read_file(const char *path, size_t max, size_t *len, char *why, size_t n);

/* An output file opened before the run, so that an unwritable path stops tensim before it
 * simulates anything. */
struct host_out {
    const char *path;
    FILE *f;
    int err; /* errno of the first failure, 0 while all is well */
};
/* Open `path` for writing. Returns 0, or -1 with o->err set. */
int host_out_open(struct host_out *o, const char *path);
/* Flush and close (a no-op for a file that was never opened). Returns 0, or -1 with o->err set
 * when any write, the flush or the close failed. */
int host_out_close(struct host_out *o);

#endif
