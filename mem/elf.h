/* ELF32 RISC-V program loading: every check a hand-written or corrupt file can fail, each with
 * an error that names the file and the problem (ERR_BAD_FILE). */
#ifndef TENSIM_MEM_ELF_H
#define TENSIM_MEM_ELF_H

#include <stddef.h>
#include <stdint.h>

struct tile;

/* Load `path` for core `core` and start it at the entry point. Returns 0 or -1 (error in tile). */
int elf_load_file(struct tile *t, int core, const char *path);
/* Same from a buffer (used by tests); `name` is used in messages. */
int elf_load_buffer(struct tile *t, int core, const char *name, const uint8_t *buf, size_t len);

#endif
