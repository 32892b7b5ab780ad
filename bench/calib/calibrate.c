/* `make calibrate`: runs the calibration kernel (bench/calib/calib.c) on a Blackhole tile and
 * prints each measured figure next to its silicon value from shared/calibration.md (sections
 * "RISC-V cores" and "RISC-V memory and push paths"), with the error and its median and worst.
 *
 * Usage: calibrate [TENSIM [KERNEL]]  (defaults build/tensim, build/kernels/calib.elf) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib.h"

/* The kernel's result slots, in its order: name and the silicon cycles per operation. */
static const struct figure {
    const char *name;
    double silicon;
} figures[] = {
    {"ALU add (dependent chain)", 1.0},
    {"independent mul", 1.0},
    {"divu (0x12345679 / 3, repeated)", 6.0},
    {"fence", 4.0},
    {"csrr 0x7C0", 4.0},
    {"local data RAM lw", 1.0},
    {"local data RAM sw", 1.0},
    {"L1 lw, one fixed address", 2.6},
    {"L1 lbu, one fixed address", 2.6},
    {"L1 lhu, one fixed address", 2.6},
    {"L1 sw", 1.0},
    {"another core's local data RAM lw", 2.5},
    {"Tensix push by sw (NOP)", 1.0},
    {"STALLWAIT push", 1.5},
    {"Tensix push by sw (SEMINIT)", 1.0},
    {"PC-buffer round trip (store, load, use)", 6.0},
    /* predictions: no silicon figure in calibration.md (silicon 0: not in the error) */
    {"L1 pointer chase (lw s3, 0(s3))", 0},
    {"L1 lw then its use, distance 0", 0},
    {"L1 lw then its use, distance 1", 0},
    {"L1 lw then its use, distance 2", 0},
    {"L1 lw then its use, distance 4", 0},
    {"L1 4 independent lw, one line", 0},
    {"L1 4 independent lw, four lines", 0},
    {"L1 sw then lw, same word (per pair)", 0},
    {"L1 sw then lw, other lines (per pair)", 0},
    {"local sw then lw, same word (per pair)", 0},
};
#define N_FIG (sizeof figures / sizeof figures[0])

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs `tensim run -q --arch=ARCH --dump=ADDR:4*WORDS:TMP PROGRAMS` and reads the WORDS
 * little-endian words it leaves. 0 on success; otherwise says why on stderr. */
static int run_and_read(const char *tensim, const char *arch, const char *programs, unsigned addr,
                        unsigned n,
                        uint32_t *words)
{
    char dump[] = "/tmp/calibrate-XXXXXX";
    int fd = mkstemp(dump);
    if (fd < 0) {
        perror("calibrate: mkstemp");
        return 1;
    }
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s run -q --arch=%s --dump=0x%X:%u:%s %s", tensim, arch, addr, 4 * n,
             dump, programs);
    int rc = system(cmd);
    unsigned char raw[4 * 64];
    FILE *f = n <= 64 ? fopen(dump, "rb") : 0;
    size_t got = f ? fread(raw, 1, 4 * n, f) : 0;
    if (f)
        fclose(f);
    unlink(dump);
    if (rc != 0 || got != 4 * n) {
        fprintf(stderr, "calibrate: '%s' failed (status %d, %zu bytes of results)\n", cmd, rc, got);
        return 1;
    }
    for (unsigned i = 0; i < n; i++)
        words[i] = raw[4 * i] | raw[4 * i + 1] << 8 | raw[4 * i + 2] << 16 |
                   (uint32_t)raw[4 * i + 3] << 24;
    return 0;
}

/* Wormhole's documented L1 figures (shared/calibration.md "WH L1 from a RISC-V core"), measured
 * by bench/calib/calib_wh.S (next to KERNEL) on a Wormhole tile. */
static int wormhole_figures(const char *tensim, const char *kernel)
{
    static const struct figure wh[] = {
        {"WH narrow L1 stores, cycles per store", 5.0},
        {"WH independent L1 loads sustained (4 per 7 cycles)", 7.0 / 4},
        {"WH dependent L1 loads (1 per 8 cycles)", 8.0},
    };
    enum { N_WH = sizeof wh / sizeof wh[0] };
    char elf[512];
    const char *slash = strrchr(kernel, '/');
    snprintf(elf, sizeof elf, "%.*scalib-wh.elf", slash ? (int)(slash - kernel + 1) : 0, kernel);
    uint32_t raw[N_WH];
    if (run_and_read(tensim, "wormhole", elf, CALIB_WH_OUT, N_WH, raw))
        return 1;
    printf("\nWormhole L1 from a RISC-V core (documented, WH:L1.md)\n\n"
           "| figure | documented | tensim | error %% |\n|---|---|---|---|\n");
    for (unsigned i = 0; i < N_WH; i++)
        printf("| %s | %.2f | %.2f | %+.0f |\n", wh[i].name, wh[i].silicon, raw[i] / 100.0,
               100.0 * (raw[i] / 100.0 - wh[i].silicon) / wh[i].silicon);
    return 0;
}

/* whole-kernel figures (issue 16 item 3): defined at the end of this file */
static int whole_kernel_figures(const char *tensim, const char *kernel);

int main(int argc, char **argv)
{
    const char *tensim = argc > 1 ? argv[1] : "build/tensim";
    const char *kernel = argc > 2 ? argv[2] : "build/kernels/calib.elf";
    uint32_t raw[N_FIG];
    if (run_and_read(tensim, "blackhole", kernel, CALIB_OUT, N_FIG, raw))
        return 1;

    double err[N_FIG];
    unsigned n_err = 0;
    printf("| figure | silicon | tensim | error %% |\n|---|---|---|---|\n");
    for (unsigned i = 0; i < N_FIG; i++) {
        const double model = raw[i] / 100.0, si = figures[i].silicon;
        if (si == 0) {
            printf("| %s (prediction) | - | %.2f | - |\n", figures[i].name, model);
            continue;
        }
        double e = 100.0 * (model - si) / si;
        printf("| %s | %.2f | %.2f | %+.0f |\n", figures[i].name, si, model, e);
        err[n_err++] = e < 0 ? -e : e;
    }
    qsort(err, n_err, sizeof err[0], cmp_double);
    const double median = n_err % 2 ? err[n_err / 2] : (err[n_err / 2 - 1] + err[n_err / 2]) / 2;
    printf("\nabsolute error over %u figures: median %.0f%%, worst %.0f%%\n", n_err, median,
           err[n_err - 1]);
    return wormhole_figures(tensim, kernel) || whole_kernel_figures(tensim, kernel);
}

/* whole-kernel figures (issue 16 item 3)
 *
 * shared/calibration.md "Whole-kernel figures (BH, measured)": pack, unpack and math kernels of
 * our own (bench/calib/pack.c, unpack.c + unpack_t1.c, math.c) time what blackhole-py timed on
 * silicon, the same way (see each kernel's header). Each runs in its own tensim run and leaves
 * its words at its CALIB_WK_* address; the rows below name them. The ELFs are looked for next
 * to the calibration kernel (build/kernels). */
static const struct wk_run {
    const char *elfs;   /* tensim run arguments: --triscN=FILE ..., FILE relative to the dir */
    unsigned addr, words;
} wk_runs[] = {
    {"--trisc2=%s/calib-pack.elf", CALIB_WK_PACK, 6},
    {"--trisc0=%s/calib-unpack-t0.elf --trisc1=%s/calib-unpack-t1.elf", CALIB_WK_UNPACK, 2},
    {"--trisc1=%s/calib-math.elf", CALIB_WK_MATH, 3},
};
#define N_WK_RUNS (sizeof wk_runs / sizeof wk_runs[0])

static const struct wk_figure {
    const char *name;
    double silicon;
    unsigned run, word, scale; /* value = word / scale */
} wk_figures[] = {
    {"pack 32x32 BF16, one pass (set-up, MOP, drain)", 116, 0, 0, 1},
    {"pack 32x32 FP32, one pass", 180, 0, 1, 1},
    {"pack 32x32 BF16, four passes", 428, 0, 2, 1},
    {"pack 32x32 FP32, four passes", 684, 0, 3, 1},
    {"pack 32x32 BF16, one pass, L1 accumulate", 116, 0, 4, 1},
    {"pack 32x32 FP32, one pass, L1 accumulate", 180, 0, 5, 1},
    {"unpack matmul row, steady (2x2 subblock, bw 4)", 37.5, 1, 0, 100},
    {"unpack matmul row, standalone", 51.3, 1, 1, 100},
    {"math tile-K step, unthrottled MOP (one-shot)", 54, 2, 0, 1},
    {"math tile-K step, throttle0 MOP (one-shot)", 49, 2, 1, 1},
    {"math MOP programming", 101, 2, 2, 100},
};
#define N_WK (sizeof wk_figures / sizeof wk_figures[0])

/* Runs one kernel set; fills words[] from its dump. Returns 0 on success. */
static int wk_run_one(const char *tensim, const char *dir, const struct wk_run *r, uint32_t *words)
{
    char elfs[512];
    snprintf(elfs, sizeof elfs, r->elfs, dir, dir);
    return run_and_read(tensim, "blackhole", elfs, r->addr, r->words, words);
}

static int whole_kernel_figures(const char *tensim, const char *kernel)
{
    char dir[512];
    const char *slash = strrchr(kernel, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - kernel) : 1, slash ? kernel : ".");
    uint32_t words[N_WK_RUNS][16];
    for (unsigned r = 0; r < N_WK_RUNS; r++)
        if (wk_run_one(tensim, dir, &wk_runs[r], words[r]))
            return 1;

    double err[N_WK];
    printf("\nWhole-kernel figures (Blackhole, cycles)\n\n");
    printf("| figure | silicon | tensim | error %% |\n|---|---|---|---|\n");
    for (unsigned i = 0; i < N_WK; i++) {
        const struct wk_figure *g = &wk_figures[i];
        const double model = words[g->run][g->word] / (double)g->scale;
        err[i] = 100.0 * (model - g->silicon) / g->silicon;
        printf("| %s | %.1f | %.1f | %+.0f |\n", g->name, g->silicon, model, err[i]);
        err[i] = err[i] < 0 ? -err[i] : err[i];
    }
    printf("| math init (not reproduced: needs blackhole-py's math._local_state) | 266.0 | - | - |\n");
    qsort(err, N_WK, sizeof err[0], cmp_double);
    const double median = N_WK % 2 ? err[N_WK / 2] : (err[N_WK / 2 - 1] + err[N_WK / 2]) / 2;
    printf("\nabsolute error over %u whole-kernel figures: median %.0f%%, worst %.0f%%\n",
           (unsigned)N_WK, median, err[N_WK - 1]);
    return 0;
}
