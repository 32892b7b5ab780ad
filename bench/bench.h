/* Helpers shared by the benchmarks: writing programs into L1 and host time. */
#ifndef TENSIM_BENCH_H
#define TENSIM_BENCH_H

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/tile.h"

static inline void emit(struct tile *t, uint32_t *pc, uint32_t w)
{
    memcpy(t->l1 + *pc, &w, 4);
    *pc += 4;
}

/* li rd, v (lui + addi) */
static inline void li(struct tile *t, uint32_t *pc, unsigned rd, uint32_t v)
{
    uint32_t hi = (v + 0x800) & 0xfffff000u;
    emit(t, pc, rv_encode(RV_LUI, rd, 0, 0, (int32_t)hi));
    emit(t, pc, rv_encode(RV_ADDI, rd, rd, 0, (int32_t)(v - hi)));
}

/* A Tensix instruction pushed inline (.ttinsn: rotated left by two). */
static inline void tt(struct tile *t, uint32_t *pc, uint32_t w) { emit(t, pc, (w << 2) | (w >> 30)); }

/* exit(0): a7 = 93, ecall */
static inline void exit_ecall(struct tile *t, uint32_t *pc)
{
    emit(t, pc, rv_encode(RV_ADDI, 17, 0, 0, 93));
    emit(t, pc, 0x00000073);
}

static inline double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* tile_run to the end, timed: the host seconds in *dt; an error is printed under `name`. */
static inline enum err_kind timed_run(struct tile *t, const char *name, double *dt)
{
    const double t0 = seconds();
    const enum err_kind e = tile_run(t, 0);
    *dt = seconds() - t0;
    if (e != ERR_NONE)
        printf("%s: error %s\n", name, t->err.text);
    return e;
}

/* Runs build/tensim with argv (argv[0] "tensim", NULL-terminated), its output to /dev/null, as
 * a user runs it: the whole process's wall time, or a negative value if it did not exit with
 * `status`. Started with posix_spawn, which shares the caller's memory until the exec: a fork
 * copies the caller's page tables first, and a benchmark that has just run 140 tiles is no
 * shell (measured: the same run took 7-11 ms from a 1 MiB parent, 25-31 ms from a 400 MiB
 * one). */
static inline double time_tensim_status(char *const argv[], int status)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    extern char **environ;
    double t0 = seconds();
    pid_t pid;
    const int e = posix_spawn(&pid, "build/tensim", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int st;
    if (e || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != status)
        return -1;
    return seconds() - t0;
}

/* time_tensim_status for a run that must exit 0 */
static inline double time_tensim(char *const argv[])
{
    return time_tensim_status(argv, 0);
}

/* The median of n values (sorted in place). */
static inline double median(double *v, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[n / 2];
}

#endif
