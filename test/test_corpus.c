/* The fuzzing corpus (test/corpus): inputs that once crashed tensim, hung it or made it report
 * something other than what happened, replayed on every `make test`. A case is a folder:
 *   cmd     the arguments after `tensim`, one a line; "@/" stands for the folder (a scratch copy
 *           of it, so that outputs never land in the source tree)
 *   expect  "status N", then any number of "out: TEXT" lines that stdout + stderr must contain
 *   ...     the files cmd names
 * Besides `expect`, every run must satisfy the fuzzer's oracle (test/fuzz/oracle.c). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/oracle.h"
#include "harness.h"

#define CORPUS "test/corpus"

static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *b = read_whole_file(from, &len);
    FILE *f = fopen(to, "wb");
    cr_assert(f && fwrite(b, 1, len, f) == len, "cannot copy %s", from);
    fclose(f);
    free(b);
}

static void replay(const char *name, unsigned *checked)
{
    char src[512], dir[512], path[1100];
    snprintf(src, sizeof src, CORPUS "/%s", name);
    snprintf(dir, sizeof dir, "/tmp/tensim-corpus-%d-%s", getpid(), name);
    mkdir(dir, 0777);
    DIR *d = opendir(src);
    cr_assert(d);
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            char from[1100];
            snprintf(from, sizeof from, "%s/%s", src, e->d_name);
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            copy_file(from, path);
        }
    closedir(d);

    snprintf(path, sizeof path, "%s/cmd", src);
    char *cmd = read_whole_file(path, NULL);
    char *argv[80];
    char bin[4096]; /* the case runs in its scratch folder */
    cr_assert(realpath(getenv("TENSIM_BIN") ? getenv("TENSIM_BIN") : "build/tensim", bin));
    int argc = 0;
    argv[argc++] = bin;
    for (char *line = cmd, *nl; *line && argc < 79; line = nl + 1) { /* empty lines are "" */
        nl = strchr(line, '\n');
        if (!nl)
            nl = line + strlen(line) - 1;
        else
            *nl = 0;
        argv[argc++] = case_arg(line, dir);
    }
    argv[argc] = 0;

    char outp[1100], errp[1100];
    snprintf(outp, sizeof outp, "%s/.stdout", dir);
    snprintf(errp, sizeof errp, "%s/.stderr", dir);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir)) /* a relative output path lands in the scratch folder */
            _exit(127);
        dup2(open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0666), 1);
        dup2(open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0666), 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    char *out = read_whole_file(outp, NULL), *err = read_whole_file(errp, NULL);
    size_t all_len = strlen(out) + strlen(err) + 1;
    char *all = malloc(all_len);
    snprintf(all, all_len, "%s%s", out, err);

    /* what the case must do */
    snprintf(path, sizeof path, "%s/expect", src);
    char *expect = read_whole_file(path, NULL);
    int want = -1;
    for (char *line = strtok(expect, "\n"); line; line = strtok(0, "\n")) {
        if (!strncmp(line, "status ", 7))
            want = atoi(line + 7);
        else if (!strncmp(line, "out: ", 5))
            cr_expect(strstr(all, line + 5) != NULL, "%s: missing \"%s\" in:\n%s", name, line + 5, all);
    }
    int got = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    cr_expect_eq(got, want, "%s: exit status %d, expected %d:\n%s", name, got, want, all);

    /* and what every run must do */
    char stats[1100], trace[1100], why[600];
    bool has_stats = false, has_trace = false;
    for (int i = 1; i < argc; i++) {
        has_stats |= !strncmp(argv[i], "--stats=", 8) && !strncmp(argv[i] + 8, dir, strlen(dir));
        has_trace |= !strncmp(argv[i], "--trace=", 8) && !strncmp(argv[i] + 8, dir, strlen(dir));
        if (has_stats && !strncmp(argv[i], "--stats=", 8))
            snprintf(stats, sizeof stats, "%s", argv[i] + 8);
        if (has_trace && !strncmp(argv[i], "--trace=", 8))
            snprintf(trace, sizeof trace, "%s", argv[i] + 8);
    }
    struct run_result r = {
        .status = got, .signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0, .out = out, .err = err,
        .stats_path = has_stats ? stats : 0, .trace_path = has_trace ? trace : 0};
    const char *sig = oracle_check(&r, why, sizeof why);
    cr_expect(sig == NULL, "%s: %s: %s\n%s", name, sig, why, all);

    for (int i = 1; i < argc; i++)
        free(argv[i]);
    free(cmd), free(out), free(err), free(all), free(expect);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_expect_eq(system(path), 0);
    (*checked)++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

Test(corpus, replay, .timeout = 300)
{
    DIR *d = opendir(CORPUS);
    cr_assert(d, "no " CORPUS);
    char *names[512];
    unsigned n = 0, checked = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (unsigned i = 0; i < n; i++) {
        replay(names[i], &checked);
        free(names[i]);
    }
    cr_expect_geq(checked, 10, "the corpus has %u cases", checked);
}

/* The corpus stays small enough to live in the repository. */
Test(corpus, under_five_mib)
{
    FILE *p = popen("du -sb " CORPUS, "r");
    cr_assert(p);
    unsigned long bytes = 0;
    cr_assert_eq(fscanf(p, "%lu", &bytes), 1);
    pclose(p);
    cr_expect_lt(bytes, 5ul << 20, "test/corpus holds %lu bytes", bytes);
}
