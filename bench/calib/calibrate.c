/* `make calibrate`: runs the calibration kernel (bench/calib/calib.c) on a Blackhole tile and
 * prints each measured figure next to its silicon value from shared/calibration.md (sections
 * "RISC-V cores" and "RISC-V memory and push paths"), with the error and its median and worst.
 *
 * Usage: calibrate [TENSIM [KERNEL]]  (defaults build/tensim, build/kernels/calib.elf) */
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
};
#define N_FIG (sizeof figures / sizeof figures[0])

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *tensim = argc > 1 ? argv[1] : "build/tensim";
    const char *kernel = argc > 2 ? argv[2] : "build/kernels/calib.elf";
    char dump[] = "/tmp/calibrate-XXXXXX";
    int fd = mkstemp(dump);
    if (fd < 0) {
        perror("calibrate: mkstemp");
        return 1;
    }
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s run -q --arch=blackhole --dump=0x%X:%u:%s %s", tensim, CALIB_OUT,
             (unsigned)(4 * N_FIG), dump, kernel);
    int rc = system(cmd);
    unsigned char raw[4 * N_FIG];
    FILE *f = fopen(dump, "rb");
    size_t got = f ? fread(raw, 1, sizeof raw, f) : 0;
    if (f)
        fclose(f);
    unlink(dump);
    if (rc != 0 || got != sizeof raw) {
        fprintf(stderr, "calibrate: '%s' failed (status %d, %zu bytes of results)\n", cmd, rc, got);
        return 1;
    }

    double err[N_FIG];
    printf("| figure | silicon | tensim | error %% |\n|---|---|---|---|\n");
    for (unsigned i = 0; i < N_FIG; i++) {
        const unsigned centi = raw[4 * i] | raw[4 * i + 1] << 8 | raw[4 * i + 2] << 16 |
                               (unsigned)raw[4 * i + 3] << 24;
        const double model = centi / 100.0, si = figures[i].silicon;
        err[i] = 100.0 * (model - si) / si;
        printf("| %s | %.2f | %.2f | %+.0f |\n", figures[i].name, si, model, err[i]);
        err[i] = err[i] < 0 ? -err[i] : err[i];
    }
    qsort(err, N_FIG, sizeof err[0], cmp_double);
    const double median = N_FIG % 2 ? err[N_FIG / 2] : (err[N_FIG / 2 - 1] + err[N_FIG / 2]) / 2;
    printf("\nabsolute error over %u figures: median %.0f%%, worst %.0f%%\n", (unsigned)N_FIG,
           median, err[N_FIG - 1]);
    return 0;
}
