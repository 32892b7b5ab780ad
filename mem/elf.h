/* ELF32 RISC-V program loading: every check a hand-written or corrupt file can fail, each with
 * an error that names the file and the problem (ERR_BAD_FILE). */
#ifndef TENSIM_MEM_ELF_H
#define TENSIM_MEM_ELF_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

struct tile;

/* How a program goes into memory (docs/user-guide.md "Loading programs"). */
enum elf_loader {
    ELF_LOADER_AUTO,     /* tt-exalens's way for files with a .loader_init section, else segments */
    ELF_LOADER_SEGMENTS, /* every PT_LOAD segment, zero-filled, no two programs sharing a byte */
    ELF_LOADER_EXALENS,  /* tt-exalens's named sections, NOBITS untouched, overlaps warned about */
};
const char *elf_loader_name(enum elf_loader how);
/* The loader called `s` ("auto", "segments", "exalens"), or -1. */
int elf_loader_by_name(const char *s);

/* A program file read into memory; `name` is used in messages. */
struct elf_file {
    const char *name;
    uint8_t *buf;
    size_t len;
};
/* Read `path` (ERR_BAD_FILE in the tile if it cannot be read). Returns 0 or -1. */
int elf_read(struct tile *t, int core, const char *path, struct elf_file *f);
void elf_free(struct elf_file *f);
/* Is it a 32-bit little-endian RISC-V executable? 0 or -1 with ERR_BAD_FILE in the tile. */
int elf_check(struct tile *t, int core, const struct elf_file *f);
/* The loader `how` resolves to for this file. */
enum elf_loader elf_loader_for(const struct elf_file *f, enum elf_loader how);
/* Load for core `core` without starting it; *start is where it starts (the entry point, or
 * .init in tt-exalens's way). Returns 0 or -1 (error in tile). */
int elf_load(struct tile *t, int core, const struct elf_file *f, enum elf_loader how, uint32_t *start);
/* Start the loaded core now at `start` (in tt-exalens's way through its reset-pc register). */
void elf_start(struct tile *t, int core, const struct elf_file *f, enum elf_loader how, uint32_t start);

/* Read `path`, load it for core `core` the way `how` says and start the core (tensim run, the
 * bench). Returns 0 or -1 (error in tile). */
int elf_run_file(struct tile *t, int core, const char *path, enum elf_loader how);
/* Load `path` for core `core` (auto) and start it. Returns 0 or -1 (error in tile). */
int elf_load_file(struct tile *t, int core, const char *path);
/* Same from a buffer (used by tests); `name` is used in messages. */
int elf_load_buffer(struct tile *t, int core, const char *name, const uint8_t *buf, size_t len);

/* Host-side lookups: the section called `name` (*bytes NULL when it has none in the file), and
 * the value of the symbol called `name`. false if absent. */
bool elf_find_section(const struct elf_file *f, const char *name, uint32_t *addr, uint32_t *size,
                      const uint8_t **bytes);
bool elf_find_symbol(const struct elf_file *f, const char *name, uint32_t *value);
/* The function symbols (STT_FUNC) of the file, up to max of them, in file order; names point into
 * f's buffer. Returns how many. */
struct elf_function {
    const char *name;
    uint32_t addr, size;
};
unsigned elf_functions(const struct elf_file *f, struct elf_function *out, unsigned max);
/* The word the file gives the variable called `symbol` before the program runs. */
bool elf_initial_word(const struct elf_file *f, const char *symbol, uint32_t *value);

#endif
