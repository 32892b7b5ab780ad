#include "harness.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

struct tile *test_tile(enum arch_id arch)
{
    struct tile *t = tile_create(arch_get(arch));
    t->out = t->errout = 0;
    return t;
}

struct prog prog_at(struct tile *t, uint32_t base) { return (struct prog){t, base, base}; }

void emit(struct prog *p, uint32_t w)
{
    memcpy(p->t->l1 + p->pc, &w, 4);
    p->t->predecode[p->pc >> 2].op = RV_UNDECODED;
    p->pc += 4;
}

void emit_li(struct prog *p, unsigned rd, uint32_t v)
{
    uint32_t hi = (v + 0x800) & 0xfffff000u;
    int32_t lo = (int32_t)(v - hi);
    if (hi) {
        E(p, LUI, rd, 0, 0, (int32_t)hi);
        if (lo)
            E(p, ADDI, rd, rd, 0, lo);
    } else {
        E(p, ADDI, rd, 0, 0, lo);
    }
}

void emit_exit(struct prog *p)
{
    E(p, ADDI, 17, 0, 0, 93);
    emit(p, 0x00000073); /* ecall */
}

void emit_store(struct prog *p, uint32_t addr, uint32_t val)
{
    emit_li(p, 5, addr);
    emit_li(p, 6, val);
    E(p, SW, 0, 5, 6, 0);
}

enum err_kind run_core(struct prog *p, int core, uint64_t max_cycles)
{
    tile_start_core(p->t, core, p->base);
    return tile_run(p->t, max_cycles);
}

void tensix_kernel(struct tile *t, unsigned core, const uint32_t *w, unsigned n)
{
    uint32_t base = 0x6000 + 0x4000 * core;
    struct prog p = prog_at(t, base);
    for (unsigned i = 0; i < n; i++)
        emit(&p, (w[i] << 2) | (w[i] >> 30)); /* .ttinsn: the word rotated left by two */
    emit_exit(&p);
    tile_start_core(t, (int)core, base);
}

enum err_kind run_tensix(struct tile *t, const uint32_t *w, unsigned n, uint64_t max_cycles)
{
    tensix_kernel(t, 0, w, n);
    return tile_run(t, max_cycles);
}

uint64_t core_cycles(const struct rv_core *c)
{
    uint64_t n = c->st.active;
    for (int s = 0; s < STALL_COUNT; s++)
        n += c->st.stall[s];
    return n;
}

char *read_whole_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    cr_assert(buf && fread(buf, 1, (size_t)n, f) == (size_t)n, "cannot read %s", path);
    buf[n] = 0;
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

int run_tensim(const char *args, char *out, size_t n)
{
    const char *bin = getenv("TENSIM_BIN");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin ? bin : "build/tensim", args);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    size_t used = fread(out, 1, n - 1, f);
    out[used] = 0;
    int status = pclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_tensimf(char *out, size_t n, const char *fmt, ...)
{
    char args[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return run_tensim(args, out, n);
}

pid_t tensim_spawn(const char *args, int *out)
{
    const char *bin = getenv("TENSIM_BIN");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "exec %s %s", bin ? bin : "build/tensim", args);
    int fd[2];
    cr_assert(pipe(fd) == 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)0);
        _exit(127);
    }
    close(fd[1]);
    *out = fd[0];
    return pid;
}

int run_tensim_signal(const char *args, const char *ready, int sig, char *out, size_t n)
{
    int fd[1]; /* fd[0]: its output */
    pid_t pid = tensim_spawn(args, &fd[0]);
    size_t used = 0;
    bool sent = false;
    ssize_t r;
    /* A tensim that does not end within 20 s of the signal is killed: the test then fails. */
    struct pollfd pfd = {fd[0], POLLIN, 0};
    while (used + 1 < n && poll(&pfd, 1, 20000) > 0 && (r = read(fd[0], out + used, n - 1 - used)) > 0) {
        used += (size_t)r;
        out[used] = 0;
        if (!sent && strstr(out, ready)) {
            kill(pid, sig);
            sent = true;
        }
    }
    out[used] = 0;
    close(fd[0]);
    kill(pid, SIGKILL); /* a no-op for a process that has ended and not yet been reaped */
    int status;
    waitpid(pid, &status, 0);
    cr_assert(sent, "never saw \"%s\" in:\n%s", ready, out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

const char *guest(const char *name)
{
    static _Thread_local char path[256];
    snprintf(path, sizeof path, "build/%s", name);
    return path;
}

static void log_issue(void *ctx, unsigned th, uint64_t cycle, uint32_t w)
{
    struct issue_log *log = ctx;
    if (log->n < sizeof log->e / sizeof log->e[0])
        log->e[log->n++] = (struct issue_rec){th, cycle, w};
}

void issue_log_attach(struct tile *t, struct issue_log *log)
{
    log->n = 0;
    t->on_issue = log_issue;
    t->on_issue_ctx = log;
}

uint64_t issue_log_cycle(const struct issue_log *log, unsigned th, uint32_t w, unsigned nth)
{
    for (unsigned i = 0; i < log->n; i++)
        if (log->e[i].th == th && log->e[i].word == w && nth-- == 0)
            return log->e[i].cycle;
    cr_assert_fail("T%u never issued 0x%08x", th, w);
    return 0;
}

void sfpu_example_inputs(const char *in_path, const char *param_path)
{
    FILE *f = fopen(in_path, "wb");
    cr_assert(f, "cannot write %s", in_path);
    static float x[4 + 3072];
    for (unsigned i = 0; i < 3072; i++)
        x[4 + i] = 0.25f + (float)i / 512.0f;
    fwrite(x, 4, 4 + 3072, f);
    fclose(f);
    f = fopen(param_path, "wb");
    cr_assert(f, "cannot write %s", param_path);
    const uint32_t tiles = 3;
    fwrite(&tiles, 4, 1, f);
    fclose(f);
}

#define K "build/kernels/"
const char *const examples[][2] = {
    {"hello", K "hello.elf"},
    {"pipeline", "--trisc0=" K "pipeline-unpack.elf --trisc1=" K "pipeline-math.elf --trisc2=" K "pipeline-pack.elf"},
    {"tokens", "--trisc0=" K "tokens-t0.elf --trisc1=" K "tokens-t1.elf --trisc2=" K "tokens-t2.elf"},
    {"unpack", "--trisc0=" K "unpack-t0.elf --trisc1=" K "unpack-t1.elf"},
    {"eltwise", "--trisc0=" K "eltwise-t0.elf --trisc1=" K "eltwise-t1.elf --trisc2=" K "eltwise-t2.elf"},
    {"matmul", "--trisc0=" K "matmul-t0.elf --trisc1=" K "matmul-t1.elf --trisc2=" K "matmul-t2.elf"},
    {"tt-push", K "tt-push.elf"},
};
const unsigned example_count = sizeof examples / sizeof examples[0];
#undef K

void core_end_of(struct core_end *e, const struct tile *t, int k)
{
    const struct rv_core *c = &t->core[k];
    e->state = c->state;
    e->wake = c->state == CORE_RUNNING ? c->wake : 0;
    e->halt = c->halt_cycle;
    e->exit = c->exit_code;
    e->pc = c->pc;
    memcpy(e->x, c->x, sizeof c->x);
    e->st = c->st;
}
