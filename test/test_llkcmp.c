/* bench/llkcmp.sh (make llkcmp, docs/testing.md): the regression check of two tensim builds on
 * run descriptions, tried on the SDK's own chip examples (tt-llk's are not on every machine):
 * the same build twice finds nothing, a build that counts cycles differently is found (exit 1,
 * a DIFF line naming the description and both cycle counts), and a search that finds no
 * description is an error (exit 2), not a silent success. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXAMPLE "build/kernels/chip/pipeline3"

static char out[16384];

/* Runs the script with `args` (stdout and stderr into out); its exit status. */
static int llkcmp(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "LLKCMP_KEEP=build/test-llkcmp-diffs LLKCMP_NICE= bash bench/llkcmp.sh %s 2>&1",
             args);
    FILE *f = popen(cmd, "r");
    cr_assert(f);
    const size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    const int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *tensim(void)
{
    const char *bin = getenv("TENSIM_BIN");
    return bin ? bin : "build/tensim";
}

Test(llkcmp, the_same_build_twice_differs_nowhere, .timeout = 120)
{
    char args[1024];
    snprintf(args, sizeof args, "%s %s " EXAMPLE, tensim(), tensim());
    cr_assert_eq(llkcmp(args), 0, "%s", out);
    cr_expect(strstr(out, "same  exit 0   cycles "), "%s", out);
    cr_expect(strstr(out, "1 run descriptions, 0 differ"), "%s", out);
}

/* A "build" whose RISC-V L1 loads take 9 cycles: every cycle count moves. */
Test(llkcmp, a_build_that_counts_differently_is_found, .timeout = 120)
{
    mkdir("build/test-llkcmp", 0755);
    const char *wrapper = "build/test-llkcmp/slower-loads";
    FILE *f = fopen(wrapper, "w");
    cr_assert(f);
    const char *bin = tensim();
    char cwd[1024];
    cr_assert(getcwd(cwd, sizeof cwd));
    fprintf(f, "#!/bin/sh\nexec %s%s%s \"$@\" --timing=rv.load_l1=9\n", bin[0] == '/' ? "" : cwd,
            bin[0] == '/' ? "" : "/", bin);
    fclose(f);
    chmod(wrapper, 0755);
    char args[1024];
    snprintf(args, sizeof args, "%s %s " EXAMPLE, tensim(), wrapper);
    cr_assert_eq(llkcmp(args), 1, "%s", out);
    cr_expect(strstr(out, "DIFF  exit 0/0 cycles "), "%s", out);
    cr_expect(strstr(out, EXAMPLE "/run.json: stats.json"), "%s", out);
    cr_expect(strstr(out, "1 run descriptions, 1 differ"), "%s", out);
}

Test(llkcmp, nothing_to_compare_is_an_error)
{
    char args[1024];
    snprintf(args, sizeof args, "%s %s build/no-such-folder", tensim(), tensim());
    cr_assert_eq(llkcmp(args), 2, "%s", out);
    cr_expect(strstr(out, "llkcmp: no run.json under build/no-such-folder"), "%s", out);
}
