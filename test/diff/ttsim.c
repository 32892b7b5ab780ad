/* Running a differential case on Tenstorrent's functional simulator ttsim (libttsim.so, loaded
 * with dlopen; never shipped or required: `make difftest` names the libraries). ttsim keeps one
 * chip in process-wide state and ends the process on any error it detects, so every case runs in
 * a child process of its own, which hands the output back through shared memory.
 *
 * The host reaches a tile only through the chip's PCIe BAR0 TLB windows (libttsim's tile access
 * calls are for other chips); the facts used (window layouts, reset PCs, soft reset bits) are in
 * docs/numerics.md "Checking against ttsim". */
#define _GNU_SOURCE
#include "ttsim.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct lib {
    void (*init)(void);
    void (*clock)(uint32_t n);
    uint32_t (*cfg_rd32)(uint32_t bdf, uint32_t off);
    void (*rd)(uint64_t paddr, void *dst, uint32_t size);
    void (*wr)(uint64_t paddr, const void *src, uint32_t size);
};

#define PCI_ID_WH 0x401E1E52u
#define PCI_ID_BH 0xB1401E52u
#define TLB_CFG 0x1FC00000u      /* BAR0 offset of the TLB configuration registers */
#define SOFT_RESET_0 0xFFB121B0u /* BRISC 11, TRISC0..2 12..14, NCRISC 18 */
#define ALL_IN_RESET 0x47800u
#define TRISC0_PC 0x6000u /* the reset PC without an override, on both chips */
#define MAX_CLOCKS 20000000u
#define STEP 500u

/* The state of the child's one chip. */
struct chip {
    struct lib f;
    bool wh;
    uint64_t bar0, cur;
    uint32_t x, y;
};

/* Point the host's window at tile (x, y), address `base` (a multiple of the window size). WH: TLB
 * 166, 16 MiB at BAR0 + 0xB000000, one 64-bit word; BH: TLB 0, 2 MiB at BAR0, three 32-bit
 * words written one by one. */
static void window(struct chip *c, uint64_t base)
{
    uint64_t key = base | 1;
    if (c->cur == key)
        return;
    c->cur = key;
    if (c->wh) {
        uint64_t cfg = base >> 24 | (uint64_t)c->x << 12 | (uint64_t)c->y << 18;
        c->f.wr(c->bar0 + TLB_CFG + 8 * 166, &cfg, 8);
    } else {
        uint32_t w[3] = {(uint32_t)(base >> 21), (uint32_t)(base >> 53 & 0x7FF) | c->x << 11 | c->y << 17, 0};
        for (unsigned i = 0; i < 3; i++)
            c->f.wr(c->bar0 + TLB_CFG + 4 * i, &w[i], 4);
    }
}

static void xfer(struct chip *c, uint64_t addr, void *buf, uint32_t n, bool write)
{
    const unsigned shift = c->wh ? 24 : 21;
    const uint64_t win = c->bar0 + (c->wh ? 0xB000000u : 0), size = 1ull << shift;
    uint8_t *p = buf;
    while (n) {
        uint64_t base = addr & ~(size - 1), off = addr - base;
        uint32_t k = (uint32_t)(size - off < n ? size - off : n);
        window(c, base);
        if (write)
            c->f.wr(win + off, p, k);
        else
            c->f.rd(win + off, p, k);
        addr += k, p += k, n -= k;
    }
}

static void wr32(struct chip *c, uint64_t a, uint32_t v) { xfer(c, a, &v, 4, true); }

static void *sym(void *h, const char *name, char *why, size_t n)
{
    void *p = dlsym(h, name);
    if (!p)
        snprintf(why, n, "%s has no %s", "the library", name);
    return p;
}

/* The child: everything up to the output, or a reason in s->why. */
static int child(const char *lib, bool wh, const char *elf, const struct dt_inputs *in,
                 struct dt_ttsim_shared *s)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(s->why, sizeof s->why, "cannot load %s: %s", lib, dlerror());
        return 2;
    }
    struct chip c = {.wh = wh, .cur = ~0ull};
    if (!(*(void **)&c.f.init = sym(h, "libttsim_init", s->why, sizeof s->why)) ||
        !(*(void **)&c.f.clock = sym(h, "libttsim_clock", s->why, sizeof s->why)) ||
        !(*(void **)&c.f.cfg_rd32 = sym(h, "libttsim_pci_config_rd32", s->why, sizeof s->why)) ||
        !(*(void **)&c.f.rd = sym(h, "libttsim_pci_mem_rd_bytes", s->why, sizeof s->why)) ||
        !(*(void **)&c.f.wr = sym(h, "libttsim_pci_mem_wr_bytes", s->why, sizeof s->why)))
        return 2;
    c.f.init();
    uint32_t id = c.f.cfg_rd32(0, 0);
    if (id != (wh ? PCI_ID_WH : PCI_ID_BH)) {
        snprintf(s->why, sizeof s->why, "%s is not a %s library (PCI id 0x%08x)", lib,
                 wh ? "Wormhole" : "Blackhole", id);
        return 2;
    }
    c.bar0 = (uint64_t)c.f.cfg_rd32(0, 0x14) << 32 | (c.f.cfg_rd32(0, 0x10) & ~0xFu);
    c.x = 1, c.y = wh ? 1 : 2; /* the first Tensix tile, NoC 0 coordinates */

    /* the ELF: PT_LOAD segments by physical address, all in L1 */
    FILE *f = fopen(elf, "rb");
    static uint8_t buf[1 << 20];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    const Elf32_Ehdr *eh = (const Elf32_Ehdr *)buf;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_entry != TRISC0_PC ||
        eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf32_Phdr) > len) {
        snprintf(s->why, sizeof s->why, "%s: not the difftest kernel (an RV32 ELF entered at 0x%x)",
                 elf, TRISC0_PC);
        return 2;
    }
    wr32(&c, SOFT_RESET_0, ALL_IN_RESET);
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf32_Phdr *ph = (const Elf32_Phdr *)(buf + eh->e_phoff) + i;
        if (ph->p_type != PT_LOAD || !ph->p_memsz)
            continue;
        if (ph->p_offset + (uint64_t)ph->p_filesz > len || ph->p_paddr + (uint64_t)ph->p_memsz > 0x100000) {
            snprintf(s->why, sizeof s->why, "%s: a segment outside the file or L1", elf);
            return 2;
        }
        static uint8_t zero[0x10000];
        xfer(&c, ph->p_paddr, buf + ph->p_offset, ph->p_filesz, true);
        for (uint32_t a = ph->p_filesz; a < ph->p_memsz; a += sizeof zero) {
            uint32_t k = ph->p_memsz - a < sizeof zero ? ph->p_memsz - a : (uint32_t)sizeof zero;
            xfer(&c, ph->p_paddr + a, zero, k, true);
        }
    }
    for (unsigned i = 0; i < in->nload; i++)
        xfer(&c, in->load[i].addr, (void *)in->load[i].bytes, in->load[i].len, true);
    wr32(&c, SOFT_RESET_0, ALL_IN_RESET & ~0x1000u); /* TRISC0 runs */

    uint32_t mb[5] = {0};
    uint64_t clocks = 0;
    for (; clocks < MAX_CLOCKS && mb[0] != DT_DONE; clocks += STEP) {
        c.f.clock(STEP);
        xfer(&c, DT_MAILBOX, mb, sizeof mb, false);
    }
    wr32(&c, SOFT_RESET_0, ALL_IN_RESET);
    if (mb[0] != DT_DONE) {
        uint32_t stage;
        xfer(&c, DT_STATUS, &stage, 4, false);
        snprintf(s->why, sizeof s->why, "the kernel did not finish in %u clocks (stage %u)", MAX_CLOCKS, stage);
        return 3;
    }
    if (mb[4]) {
        snprintf(s->why, sizeof s->why, "the kernel returned %u", mb[4]);
        return 3;
    }
    xfer(&c, DT_OUT, s->out, in->out_len, false);
    s->ok = 1;
    return 0;
}

void dt_run_ttsim(const char *lib, bool wormhole, const char *elf, const struct dt_inputs *in,
                  struct dt_result *r)
{
    memset(r, 0, sizeof *r);
    struct dt_ttsim_shared *s = mmap(0, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int fd[2];
    if (s == MAP_FAILED || pipe(fd)) {
        snprintf(r->why, sizeof r->why, "ttsim: cannot start a child: %s", strerror(errno));
        if (s != MAP_FAILED)
            munmap(s, sizeof *s);
        return;
    }
    memset(s, 0, sizeof *s);
    fflush(0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        _exit(child(lib, wormhole, elf, in, s));
    }
    close(fd[1]);
    /* ttsim's own messages: keep the last line that says ERROR (its fatal errors), else the last */
    char text[8192], line[300] = "", err[300] = "";
    size_t used = 0;
    ssize_t k;
    while ((k = read(fd[0], text + used, sizeof text - 1 - used)) > 0 || (k < 0 && errno == EINTR)) {
        used += k > 0 ? (size_t)k : 0;
        text[used] = 0;
        char *nl;
        while ((nl = strchr(text, '\n'))) {
            *nl = 0;
            if (*text)
                snprintf(strstr(text, "ERROR") ? err : line, sizeof line, "%.299s", text);
            used -= (size_t)(nl + 1 - text);
            memmove(text, nl + 1, used + 1);
        }
        if (used == sizeof text - 1)
            used = 0;
    }
    close(fd[0]);
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        snprintf(r->why, sizeof r->why, "ttsim: cannot run a child: %s", strerror(errno));
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && s->ok) {
        r->ok = true;
        memcpy(r->out, s->out, in->out_len);
    } else if (*s->why)
        snprintf(r->why, sizeof r->why, "ttsim: %s", s->why);
    else if (*err || *line)
        snprintf(r->why, sizeof r->why, "ttsim refused the case: %s", *err ? err : line);
    else if (WIFSIGNALED(st))
        snprintf(r->why, sizeof r->why, "ttsim: killed by signal %d", WTERMSIG(st));
    else
        snprintf(r->why, sizeof r->why, "ttsim: exit status %d", WEXITSTATUS(st));
    munmap(s, sizeof *s);
}
