#include "hostio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

uint8_t *host_read_file(const char *path, size_t max, size_t *len, char *why, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, n, "cannot open: %s", strerror(errno));
        return 0;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        snprintf(why, n, "is a directory");
        return 0;
    }
    /* Regular files are read in one go; pipes and devices grow the buffer as they deliver. */
    size_t cap = S_ISREG(st.st_mode) && (uint64_t)st.st_size <= max ? (size_t)st.st_size + 1 : 65536;
    size_t used = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        used += fread(buf + used, 1, cap - used, f);
        if (used < cap || used > max)
            break;
        size_t grow = cap * 2 > max + 1 ? max + 1 : cap * 2;
        uint8_t *b = grow > cap ? realloc(buf, grow) : 0;
        if (!b) {
            free(buf);
            buf = 0;
            break;
        }
        buf = b;
        cap = grow;
    }
    int read_err = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (!buf || read_err || used > max) {
        if (!buf)
            snprintf(why, n, "out of memory reading it");
        else if (read_err)
            snprintf(why, n, "cannot read: %s", strerror(read_err));
        else
            snprintf(why, n, "larger than %zu bytes", max);
        free(buf);
        return 0;
    }
    *len = used;
    return buf;
}

int host_out_open(struct host_out *o, const char *path)
{
    o->path = path;
    o->err = 0;
    o->f = fopen(path, "wb");
    if (!o->f) {
        o->err = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

int host_out_close(struct host_out *o)
{
    if (!o->f)
        return o->err ? -1 : 0;
    /* A failed write stays in the stream's buffer, so the flush fails again and its errno
     * names the cause (ENOSPC on a full disk); EIO stands in when nothing better is known. */
    int bad = ferror(o->f), e = 0;
    if (fflush(o->f)) {
        bad = 1;
        e = errno;
    }
    if (fclose(o->f)) {
        bad = 1;
        e = e ? e : errno;
    }
    o->f = 0;
    if (bad && !o->err)
        o->err = e ? e : EIO;
    return bad ? -1 : 0;
}
