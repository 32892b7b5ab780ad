#include "elf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hostio.h"
#include "../core/tile.h"

/* ELF constants (System V gABI; RISC-V psABI for EM_RISCV and EF_RISCV_RVC). */
enum {
    EHDR_SIZE = 52, PHDR_SIZE = 32,
    ELFCLASS32 = 1, ELFCLASS64 = 2, ELFDATA2LSB = 1, ELFDATA2MSB = 2,
    ET_REL = 1, ET_EXEC = 2, ET_DYN = 3, ET_CORE = 4, EM_RISCV = 243, PT_LOAD = 1,
    EF_RISCV_RVC = 1,
};

#define BUILD_HINT "build with riscv64-unknown-elf-gcc -march=rv32im_zicsr_zba_zbb -mabi=ilp32"

static uint32_t u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static int bad(struct tile *t, int core, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad(struct tile *t, int core, const char *name, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    tile_error(t, ERR_BAD_FILE, core, 0, "%s: %s", name, why);
    return -1;
}

/* e_machine values a user is likely to hand tensim by mistake (gABI machine table). */
static const char *machine_name(unsigned m)
{
    switch (m) {
    case 0: return "no machine";
    case 2: return "SPARC";
    case 3: return "x86 (i386)";
    case 8: return "MIPS";
    case 20: return "PowerPC";
    case 21: return "PowerPC64";
    case 22: return "S/390";
    case 40: return "Arm";
    case 43: return "SPARC V9";
    case 50: return "IA-64";
    case 62: return "x86-64";
    case 183: return "AArch64";
    case 243: return "RISC-V";
    case 258: return "LoongArch";
    default: return 0;
    }
}

/* Everything before the program headers: what the file is, and why it cannot run here. */
static int check_header(struct tile *t, int core, const char *name, const uint8_t *buf, size_t len)
{
    if (len < 16 || memcmp(buf, "\177ELF", 4))
        return len < 4 || memcmp(buf, "\177ELF", 4) ? bad(t, core, name, "not an ELF file")
                                                    : bad(t, core, name, "truncated: %zu bytes, an ELF header needs 52", len);
    unsigned cls = buf[4], data = buf[5];
    if ((cls != ELFCLASS32 && cls != ELFCLASS64) || (data != ELFDATA2LSB && data != ELFDATA2MSB))
        return bad(t, core, name, "corrupt ELF identification (class %u, data encoding %u)", cls, data);
    if (len < 20)
        return bad(t, core, name, "truncated: %zu bytes, an ELF header needs 52", len);
    unsigned machine = data == ELFDATA2LSB ? u16(buf + 18) : (unsigned)(buf[18] << 8 | buf[19]);
    const char *mname = machine_name(machine);
    char mbuf[40];
    if (!mname) {
        snprintf(mbuf, sizeof mbuf, "machine %u", machine);
        mname = mbuf;
    }
    const char *bits = cls == ELFCLASS32 ? "32-bit" : "64-bit";
    const char *endian = data == ELFDATA2LSB ? "little-endian" : "big-endian";
    if (machine == EM_RISCV && cls == ELFCLASS64)
        return bad(t, core, name, "a 64-bit RISC-V (RV64) program; the cores are RV32: " BUILD_HINT);
    if (machine != EM_RISCV || data != ELFDATA2LSB || cls != ELFCLASS32)
        return bad(t, core, name,
                   "an ELF for %s (%s, %s); tensim runs 32-bit little-endian RISC-V (RV32) "
                   "programs: " BUILD_HINT,
                   mname, bits, endian);
    if (len < EHDR_SIZE)
        return bad(t, core, name, "truncated: %zu bytes, an ELF header needs 52", len);
    switch (u16(buf + 16)) {
    case ET_EXEC: break;
    case ET_REL:
        return bad(t, core, name, "a relocatable object (.o), not an executable: link it with "
                                  "one of the SDK's linker scripts (docs/user-guide.md)");
    case ET_DYN:
        return bad(t, core, name, "a shared object or position-independent executable; link a "
                                  "static executable with one of the SDK's linker scripts");
    case ET_CORE: return bad(t, core, name, "a core dump, not a program");
    default: return bad(t, core, name, "ELF type %u: expected an executable (2)", u16(buf + 16));
    }
    if (u32(buf + 36) & EF_RISCV_RVC)
        return bad(t, core, name,
                   "built with compressed instructions (EF_RISCV_RVC); the cores have no C "
                   "extension: use -march=rv32im_zicsr_zba_zbb");
    return 0;
}

/* A loadable segment with bytes in memory. */
struct seg {
    uint32_t lo, hi, off, filesz;
    unsigned index;
};

static int seg_by_lo(const void *a, const void *b)
{
    const struct seg *x = a, *y = b; /* ties by index, so messages never depend on qsort */
    return x->lo != y->lo ? (x->lo < y->lo ? -1 : 1) : (x->index < y->index ? -1 : x->index > y->index);
}

static int range_by_lo(const void *a, const void *b)
{
    const struct loaded_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The first range of t->loaded (sorted by start) that overlaps [lo, hi], or NULL. A linear
 * walk: the ranges tt-exalens's way loads may overlap each other (it only warns), so no search
 * that assumes them disjoint would be right, and there are a handful of them. */
static const struct loaded_range *loaded_overlap(const struct tile *t, uint32_t lo, uint32_t hi)
{
    for (unsigned i = 0; i < t->nloaded && t->loaded[i].lo <= hi; i++)
        if (t->loaded[i].hi >= lo)
            return &t->loaded[i];
    return 0;
}

/* Check every segment (memory, file bounds, overlaps with each other and with the programs of
 * other cores) into segs[0..*n), sorted by address. No two segments may share a byte, so the
 * copy that follows touches each byte of memory at most once, whatever the file claims. */
static int check_segments(struct tile *t, int core, const char *name, const uint8_t *buf,
                          size_t len, struct seg *segs, unsigned *n)
{
    const struct arch *arch = t->arch;
    uint32_t phoff = u32(buf + 28), phentsize = u16(buf + 42), phnum = u16(buf + 44);
    uint32_t local_size = arch->local_ram_size[core];
    if (phnum && phentsize != PHDR_SIZE)
        return bad(t, core, name, "program header entry size %u (expected 32)", phentsize);
    if (phoff > len || (uint64_t)phnum * PHDR_SIZE > len - phoff)
        return bad(t, core, name, "truncated: program header table (%u entries at offset %u) is outside the file", phnum, phoff);
    *n = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = buf + phoff + i * PHDR_SIZE;
        uint32_t off = u32(ph + 4), vaddr = u32(ph + 8), filesz = u32(ph + 16), memsz = u32(ph + 20);
        if (u32(ph) != PT_LOAD || !memsz)
            continue;
        if (filesz > memsz)
            return bad(t, core, name, "segment %u: file size %u exceeds memory size %u", i, filesz, memsz);
        if (off > len || filesz > len - off)
            return bad(t, core, name, "truncated: segment %u needs bytes %u..%llu of the file", i, off,
                       (unsigned long long)off + filesz);
        bool in_l1 = vaddr < arch->l1_size && memsz <= arch->l1_size - vaddr;
        bool in_local = vaddr - MEM_LOCAL_BASE < local_size && memsz <= local_size - (vaddr - MEM_LOCAL_BASE);
        if (!in_l1 && !in_local)
            return bad(t, core, name,
                       "segment %u (0x%08x-0x%08llx) is outside L1 (0x0-0x%x) and the %s local "
                       "data RAM (0x%08x-0x%08x)",
                       i, vaddr, (unsigned long long)vaddr + memsz - 1, arch->l1_size - 1,
                       core_name(core), MEM_LOCAL_BASE, MEM_LOCAL_BASE + local_size - 1);
        segs[(*n)++] = (struct seg){vaddr, vaddr + memsz - 1, off, filesz, i};
    }
    if (!*n)
        return bad(t, core, name, "no loadable segment");
    qsort(segs, *n, sizeof *segs, seg_by_lo);
    for (unsigned k = 1; k < *n; k++)
        if (segs[k].lo <= segs[k - 1].hi) /* disjoint so far, so k - 1 holds the highest end */
            return bad(t, core, name, "segments %u (0x%08x-0x%08x) and %u (0x%08x-0x%08x) overlap",
                       segs[k - 1].index, segs[k - 1].lo, segs[k - 1].hi, segs[k].index,
                       segs[k].lo, segs[k].hi);
    for (unsigned k = 0; k < *n; k++) {
        const struct loaded_range *o = segs[k].lo < arch->l1_size ? loaded_overlap(t, segs[k].lo, segs[k].hi) : 0;
        if (o)
            return bad(t, core, name, "segment %u (0x%08x-0x%08x) overlaps the program of %s (0x%08x-0x%08x)",
                       segs[k].index, segs[k].lo, segs[k].hi, core_name(o->core), o->lo, o->hi);
    }
    return 0;
}

/* ---- tt-exalens's way: named sections (tt-llk's test kernels) ---- */

enum { SHDR_SIZE = 40, SHT_NOBITS = 8 };

/* The sections Tenstorrent's loader (tt-exalens, used by tt-llk's test harness) writes, in its
 * order, each only if it has bytes in the file. It ignores the program headers: NOBITS sections
 * (tt-llk's .runtime_args at 0x20000, which the host writes before loading) are neither written
 * nor zeroed, and .profiler_meta (host-side data at 0x0) is never loaded. .ldm_data, the local
 * data RAM image, goes to the address of .loader_init, from where the start-up code copies it. */
static const char *const exalens_sections[] = {".init", ".text", ".ldm_data", ".gcov_info",
                                               ".thread_local"};

struct shdr {
    uint32_t name, type, flags, addr, off, size, link;
};

enum { SHF_ALLOC = 2 };

/* Section `i` of the file, after the table's bounds were checked. */
static struct shdr shdr_at(const uint8_t *buf, uint32_t shoff, unsigned i)
{
    const uint8_t *p = buf + shoff + (size_t)i * SHDR_SIZE;
    return (struct shdr){u32(p), u32(p + 4), u32(p + 8), u32(p + 12), u32(p + 16), u32(p + 20), u32(p + 24)};
}

/* The index of the section called `want`, or -1. The table and the name table are checked by
 * check_sections first. */
static int find_section(const uint8_t *buf, uint32_t shoff, unsigned shnum, const struct shdr *names,
                        const char *want)
{
    size_t n = strlen(want) + 1; /* the whole name and its NUL, inside the table */
    for (unsigned i = 0; i < shnum; i++) {
        struct shdr h = shdr_at(buf, shoff, i);
        if (h.name < names->size && names->size - h.name >= n &&
            !memcmp(buf + names->off + h.name, want, n))
            return (int)i;
    }
    return -1;
}

/* The section header table and its name table, or -1 after an error (none at all is fine: 0
 * sections). */
static int check_sections(struct tile *t, int core, const char *name, const uint8_t *buf,
                          size_t len, uint32_t *shoff, unsigned *shnum, struct shdr *names)
{
    *shoff = u32(buf + 32);
    *shnum = u16(buf + 48);
    unsigned strndx = u16(buf + 50);
    if (!*shnum)
        return 0;
    if (u16(buf + 46) != SHDR_SIZE)
        return bad(t, core, name, "section header entry size %u (expected 40)", u16(buf + 46));
    if (*shoff > len || (uint64_t)*shnum * SHDR_SIZE > len - *shoff)
        return bad(t, core, name, "truncated: section header table (%u entries at offset %u) is outside the file",
                   *shnum, *shoff);
    if (strndx >= *shnum)
        return bad(t, core, name, "section name table index %u is not a section (%u)", strndx, *shnum);
    *names = shdr_at(buf, *shoff, strndx);
    if (names->off > len || names->size > len - names->off)
        return bad(t, core, name, "truncated: the section name table is outside the file");
    return 0;
}

/* The section table and its name table, when the file has a sound one (no error raised). */
static bool section_table(const uint8_t *buf, size_t len, uint32_t *shoff, unsigned *shnum,
                          struct shdr *names)
{
    *shoff = u32(buf + 32);
    *shnum = u16(buf + 48);
    unsigned strndx = u16(buf + 50);
    if (!*shnum || u16(buf + 46) != SHDR_SIZE || *shoff > len ||
        (uint64_t)*shnum * SHDR_SIZE > len - *shoff || strndx >= *shnum)
        return false;
    *names = shdr_at(buf, *shoff, strndx);
    return names->off <= len && names->size <= len - names->off;
}

/* Does the file have tt-llk's layout (a .loader_init section)? */
static bool exalens_layout(const uint8_t *buf, size_t len)
{
    uint32_t shoff;
    unsigned shnum;
    struct shdr names;
    return section_table(buf, len, &shoff, &shnum, &names) &&
           find_section(buf, shoff, shnum, &names, ".loader_init") >= 0;
}

/* In this mode overlaps are the user's business, as they are for tt-exalens: warn and load. */
static void warn_overlaps(struct tile *t, const char *name, uint32_t lo, uint32_t hi,
                          const char *section)
{
    const struct loaded_range *o = loaded_overlap(t, lo, hi);
    if (o)
        tile_warning(t, "%s: section %s (0x%08x-0x%08x) overlaps the program of %s (0x%08x-0x%08x)",
                     name, section, lo, hi, core_name(o->core), o->lo, o->hi);
}

static int load_sections(struct tile *t, int core, const struct elf_file *f, uint32_t *start)
{
    const uint8_t *buf = f->buf;
    size_t len = f->len;
    const char *name = f->name;
    uint32_t shoff;
    unsigned shnum;
    struct shdr names;
    if (check_sections(t, core, name, buf, len, &shoff, &shnum, &names))
        return -1;
    enum { N = sizeof exalens_sections / sizeof exalens_sections[0] };
    struct write { uint32_t dst, off, size; const char *section; } w[N];
    unsigned n = 0;
    /* Check everything before writing anything. */
    for (unsigned k = 0; k < N; k++) {
        int i = find_section(buf, shoff, shnum, &names, exalens_sections[k]);
        if (i < 0)
            continue;
        struct shdr h = shdr_at(buf, shoff, (unsigned)i);
        if (h.type == SHT_NOBITS || !h.size)
            continue;
        if (h.off > len || h.size > len - h.off)
            return bad(t, core, name, "truncated: section %s needs bytes %u..%llu of the file",
                       exalens_sections[k], h.off, (unsigned long long)h.off + h.size);
        uint32_t dst = h.addr;
        if (!strcmp(exalens_sections[k], ".ldm_data")) { /* by name: BRISC's has type INIT_ARRAY */
            int li = find_section(buf, shoff, shnum, &names, ".loader_init");
            if (li < 0)
                return bad(t, core, name, "section .ldm_data has bytes but there is no .loader_init "
                                          "section to load them at");
            dst = shdr_at(buf, shoff, (unsigned)li).addr;
        }
        if (dst >= t->arch->l1_size || h.size > t->arch->l1_size - dst)
            return bad(t, core, name, "section %s (0x%08x-0x%08llx) is outside L1 (0x0-0x%x)",
                       exalens_sections[k], dst, (unsigned long long)dst + h.size - 1,
                       t->arch->l1_size - 1);
        w[n++] = (struct write){dst, h.off, h.size, exalens_sections[k]};
    }
    if (!n)
        return bad(t, core, name, "none of the sections tt-exalens loads (.init, .text, .ldm_data, "
                                  ".gcov_info, .thread_local) has bytes");
    int init = find_section(buf, shoff, shnum, &names, ".init");
    *start = init >= 0 ? shdr_at(buf, shoff, (unsigned)init).addr : u32(buf + 24);
    if (*start >= t->arch->l1_size || (*start & 3))
        return bad(t, core, name, "start address 0x%08x (.init) is not an aligned L1 address", *start);
    struct loaded_range *grown = realloc(t->loaded, (t->nloaded + n) * sizeof *t->loaded);
    if (!grown)
        return tile_error(t, ERR_HOST, core, 0, "%s: out of memory", name), -1;
    t->loaded = grown;
    for (unsigned k = 0; k < n; k++)
        warn_overlaps(t, name, w[k].dst, w[k].dst + w[k].size - 1, w[k].section);
    for (unsigned k = 0; k < n; k++) {
        l1_copy_in(t->l1, t->predecode, w[k].dst, buf + w[k].off, w[k].size);
        t->loaded[t->nloaded++] = (struct loaded_range){w[k].dst, w[k].dst + w[k].size - 1, core};
    }
    qsort(t->loaded, t->nloaded, sizeof *t->loaded, range_by_lo);
    return 0;
}

/* Program headers: every PT_LOAD segment, zero-filled past its file bytes, no overlaps. */
static int load_segments(struct tile *t, int core, const struct elf_file *f, uint32_t *start)
{
    const struct arch *arch = t->arch;
    const uint8_t *buf = f->buf;
    uint32_t entry = u32(buf + 24), phnum = u16(buf + 44);
    struct seg *segs = malloc((phnum ? phnum : 1) * sizeof *segs);
    struct loaded_range *grown = realloc(t->loaded, (t->nloaded + phnum + 1) * sizeof *t->loaded);
    if (!segs || !grown) {
        free(segs);
        tile_error(t, ERR_HOST, core, 0, "%s: out of memory", f->name);
        return -1;
    }
    t->loaded = grown;
    unsigned n = 0;
    /* Check everything before copying anything, so a bad file leaves memory untouched. */
    if (check_segments(t, core, f->name, buf, f->len, segs, &n)) {
        free(segs);
        return -1;
    }
    if (entry >= arch->l1_size || (entry & 3)) {
        free(segs);
        return bad(t, core, f->name, "entry point 0x%08x is not an aligned L1 address (cores fetch only from L1)", entry);
    }
    for (unsigned k = 0; k < n; k++) {
        const struct seg *s = &segs[k];
        uint32_t memsz = s->hi - s->lo + 1;
        bool l1 = s->lo < arch->l1_size;
        uint8_t *dst = l1 ? t->l1 + s->lo : t->local_ram[core] + (s->lo - MEM_LOCAL_BASE);
        memcpy(dst, buf + s->off, s->filesz);
        memset(dst + s->filesz, 0, memsz - s->filesz);
        if (l1) {
            tile_code_written(t, s->lo, memsz);
            t->loaded[t->nloaded++] = (struct loaded_range){s->lo, s->hi, core};
        }
    }
    qsort(t->loaded, t->nloaded, sizeof *t->loaded, range_by_lo);
    free(segs);
    *start = entry;
    return 0;
}

static const char *const loader_names[] = {[ELF_LOADER_AUTO] = "auto",
                                           [ELF_LOADER_SEGMENTS] = "segments",
                                           [ELF_LOADER_EXALENS] = "exalens"};

const char *elf_loader_name(enum elf_loader how) { return loader_names[how]; }

int elf_loader_by_name(const char *s)
{
    for (unsigned i = 0; i < sizeof loader_names / sizeof loader_names[0]; i++)
        if (!strcmp(s, loader_names[i]))
            return (int)i;
    return -1;
}

enum elf_loader elf_loader_for(const struct elf_file *f, enum elf_loader how)
{
    if (how != ELF_LOADER_AUTO)
        return how;
    return exalens_layout(f->buf, f->len) ? ELF_LOADER_EXALENS : ELF_LOADER_SEGMENTS;
}

int elf_check(struct tile *t, int core, const struct elf_file *f)
{
    return check_header(t, core, f->name, f->buf, f->len);
}

int elf_load(struct tile *t, int core, const struct elf_file *f, enum elf_loader how, uint32_t *start)
{
    if (elf_check(t, core, f))
        return -1;
    if (elf_loader_for(f, how) == ELF_LOADER_EXALENS)
        return load_sections(t, core, f, start);
    return load_segments(t, core, f, start);
}

int elf_load_buffer(struct tile *t, int core, const char *name, const uint8_t *buf, size_t len)
{
    struct elf_file f = {name, (uint8_t *)buf, len};
    uint32_t start;
    if (elf_load(t, core, &f, ELF_LOADER_AUTO, &start))
        return -1;
    elf_start(t, core, &f, ELF_LOADER_AUTO, start);
    return 0;
}

void elf_start(struct tile *t, int core, const struct elf_file *f, enum elf_loader how, uint32_t start)
{
    /* tt-exalens's way sets the TRISC reset pcs to .init after loading; the core then leaves reset
     * there, which is where it starts now. */
    if (elf_loader_for(f, how) == ELF_LOADER_EXALENS)
        tile_set_reset_pc(t, core, start);
    tile_start_core(t, core, start);
}

int elf_read(struct tile *t, int core, const char *path, struct elf_file *f)
{
    /* Programs for a 1.5 MiB L1 are small; refuse anything absurd before reading all of it. */
    enum { MAX_FILE = 64 << 20 };
    char why[200];
    *f = (struct elf_file){.name = path};
    f->buf = host_read_file(path, MAX_FILE, &f->len, why, sizeof why);
    if (!f->buf)
        return tile_error(t, ERR_BAD_FILE, core, 0, "%s: %s", path, why), -1;
    return 0;
}

void elf_free(struct elf_file *f)
{
    free(f->buf);
    f->buf = 0;
}

/* ---- host-side lookups (the run description, profiler zone names) ---- */

bool elf_find_section(const struct elf_file *f, const char *name, uint32_t *addr, uint32_t *size,
                      const uint8_t **bytes)
{
    uint32_t shoff;
    unsigned shnum;
    struct shdr names;
    if (!section_table(f->buf, f->len, &shoff, &shnum, &names))
        return false;
    int i = find_section(f->buf, shoff, shnum, &names, name);
    if (i < 0)
        return false;
    struct shdr h = shdr_at(f->buf, shoff, (unsigned)i);
    *addr = h.addr;
    *size = h.size;
    *bytes = h.type != SHT_NOBITS && h.off <= f->len && h.size <= f->len - h.off ? f->buf + h.off : 0;
    return true;
}

/* Calls fn with every symbol of every symbol table: its 16-byte entry and its name (a string that
 * ends inside the string table). Stops at the first fn that returns true; returns whether one
 * did. */
static bool each_symbol(const struct elf_file *f,
                        bool (*fn)(void *ctx, const uint8_t *sym, const char *name), void *ctx)
{
    enum { SHT_SYMTAB = 2, SYM_SIZE = 16 };
    uint32_t shoff;
    unsigned shnum;
    struct shdr names;
    if (!section_table(f->buf, f->len, &shoff, &shnum, &names))
        return false;
    for (unsigned i = 0; i < shnum; i++) {
        struct shdr sym = shdr_at(f->buf, shoff, i);
        if (sym.type != SHT_SYMTAB || sym.link >= shnum || sym.off > f->len ||
            sym.size > f->len - sym.off)
            continue;
        struct shdr str = shdr_at(f->buf, shoff, sym.link);
        if (str.off > f->len || str.size > f->len - str.off)
            continue;
        for (uint32_t k = 0; k + SYM_SIZE <= sym.size; k += SYM_SIZE) {
            const uint8_t *p = f->buf + sym.off + k;
            uint32_t at = u32(p);
            const char *name = (const char *)f->buf + str.off + at;
            if (at < str.size && memchr(name, 0, str.size - at) && fn(ctx, p, name))
                return true;
        }
    }
    return false;
}

struct find_ctx {
    const char *name;
    uint32_t value;
};

static bool is_named(void *ctx, const uint8_t *sym, const char *name)
{
    struct find_ctx *c = ctx;
    if (strcmp(name, c->name))
        return false;
    c->value = u32(sym + 4);
    return true;
}

bool elf_find_symbol(const struct elf_file *f, const char *name, uint32_t *value)
{
    struct find_ctx c = {.name = name};
    if (!each_symbol(f, is_named, &c))
        return false;
    *value = c.value;
    return true;
}

struct functions_ctx {
    struct elf_function *out;
    unsigned n, max;
};

static bool add_function(void *ctx, const uint8_t *sym, const char *name)
{
    enum { STT_FUNC = 2 };
    struct functions_ctx *c = ctx;
    if ((sym[12] & 15) == STT_FUNC)
        c->out[c->n++] = (struct elf_function){.name = name, .addr = u32(sym + 4), .size = u32(sym + 8)};
    return c->n == c->max;
}

unsigned elf_functions(const struct elf_file *f, struct elf_function *out, unsigned max)
{
    struct functions_ctx c = {.out = out, .max = max};
    if (max)
        each_symbol(f, add_function, &c);
    return c.n;
}

int elf_run_file(struct tile *t, int core, const char *path, enum elf_loader how)
{
    struct elf_file f;
    uint32_t start;
    if (elf_read(t, core, path, &f))
        return -1;
    int r = elf_load(t, core, &f, how, &start);
    if (!r)
        elf_start(t, core, &f, how, start);
    elf_free(&f);
    return r;
}

int elf_load_file(struct tile *t, int core, const char *path)
{
    struct elf_file f;
    if (elf_read(t, core, path, &f))
        return -1;
    int r = elf_load_buffer(t, core, path, f.buf, f.len);
    elf_free(&f);
    return r;
}

bool elf_initial_word(const struct elf_file *f, const char *symbol, uint32_t *value)
{
    uint32_t shoff, at;
    unsigned shnum;
    struct shdr names;
    if (!elf_find_symbol(f, symbol, &at) || !section_table(f->buf, f->len, &shoff, &shnum, &names))
        return false;
    int meta = find_section(f->buf, shoff, shnum, &names, ".profiler_meta");
    for (unsigned i = 0; i < shnum; i++) {
        struct shdr h = shdr_at(f->buf, shoff, i);
        /* only what the program has in memory: not debug data or .profiler_meta, also at 0 */
        if (!(h.flags & SHF_ALLOC) || h.type == SHT_NOBITS || i == (unsigned)meta ||
            at < h.addr || at - h.addr > h.size || h.size - (at - h.addr) < 4 || h.off > f->len ||
            h.size > f->len - h.off)
            continue;
        *value = u32(f->buf + h.off + (at - h.addr));
        return true;
    }
    return false;
}
