/* The command line (help, version, option forms, suggestions, strict numbers), the exit status
 * scheme (guest codes never mistaken for tensim's), output files that fail, and interrupted
 * runs. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/cli.h"
#include "harness.h"

static char out[65536];

#define EXPECT_OUT(s) cr_expect(strstr(out, s) != NULL, "missing \"%s\" in:\n%s", s, out)
#define EXPECT_NO(s) cr_expect(strstr(out, s) == NULL, "unexpected \"%s\" in:\n%s", s, out)

#define run(...) run_tensimf(out, sizeof out, __VA_ARGS__)

/* ---- help and version ---- */

Test(cli, help_everywhere)
{
    static const char *const top[] = {"--help", "-h", "help"};
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(run("%s", top[i]), 0, "%s", top[i]);
        EXPECT_OUT("Usage: tensim COMMAND [OPTION]... [FILE]\n");
        EXPECT_OUT("  run [OPTION]... [FILE]");
    }
    static const char *const cmd[] = {"run --help", "run -h", "help run", "--help run",
                                      "run --trisc0 x.elf --help"};
    for (int i = 0; i < 5; i++) {
        cr_expect_eq(run("%s", cmd[i]), 0, "%s", cmd[i]);
        EXPECT_OUT("Usage: tensim run [OPTION]... [FILE]\n");
        EXPECT_OUT("      --max-cycles=N          stop with a cycle-limit error after N cycles\n");
        EXPECT_OUT("  -q, --quiet                 no end-of-run report\n");
    }
}

Test(cli, help_exit_status_lists_every_code)
{
    cr_expect_eq(run("help exit-status"), 0);
    EXPECT_OUT("  1-98    a core exited with this code");
    EXPECT_OUT("  99      a core exited with a code outside 1..98");
    for (int k = ERR_NONE + 1; k < ERR_KIND_COUNT; k++) {
        char line[200];
        snprintf(line, sizeof line, "  %-7d %s: ", err_kind_exit_code((enum err_kind)k),
                 err_kind_text((enum err_kind)k));
        EXPECT_OUT(line);
    }
}

/* docs/user-guide.md lists every exit code with its category. */
Test(cli, user_guide_lists_every_exit_code)
{
    char *doc = read_whole_file("docs/user-guide.md", NULL);
    for (int k = ERR_NONE + 1; k < ERR_KIND_COUNT; k++) {
        char row[120];
        snprintf(row, sizeof row, "| %d | %s |", err_kind_exit_code((enum err_kind)k),
                 err_kind_text((enum err_kind)k));
        cr_expect(strstr(doc, row) != NULL, "docs/user-guide.md lacks the row \"%s\"", row);
    }
    free(doc);
}

Test(cli, version)
{
    cr_expect_eq(run("--version"), 0);
    cr_expect(!strncmp(out, "tensim 0.", 9), "%s", out);
    cr_expect(strstr(out, "(git ") != NULL, "%s", out);
    char first[256];
    memcpy(first, out, sizeof first - 1);
    first[sizeof first - 1] = 0;
    cr_expect_eq(run("version"), 0);
    cr_expect_str_eq(out, first);
    cr_expect_eq(run("version extra"), 100);
}

/* ---- option forms and mistakes ---- */

Test(cli, option_value_forms)
{
    /* --opt=value, --opt value, a unique prefix, and the operand before the options */
    cr_expect_eq(run("run -q --max-cycles=1000 %s", guest("guest/spin.elf")), 107);
    EXPECT_OUT("no end after 1000 cycles");
    cr_expect_eq(run("run -q --max-cycles 0x400 %s", guest("guest/spin.elf")), 107);
    EXPECT_OUT("no end after 1024 cycles");
    cr_expect_eq(run("run %s --max-cyc=77 --quiet", guest("guest/spin.elf")), 107);
    EXPECT_OUT("no end after 77 cycles");
    cr_expect_eq(run("run --arch=wormhole -q --trisc0=%s", guest("guest/exit7.elf")), 7);
    cr_expect_eq(run("run -q -- %s", guest("guest/exit7.elf")), 7);
}

/* Command lines that are usage errors (exit 100), and what the message says. */
static const struct { const char *args, *says; } usage_errors[] = {
    {"run --trsic0 x.elf", "tensim: usage: unknown option --trsic0 (did you mean --trisc0?)\n"
                           "Try 'tensim run --help'.\n"},
    {"run --stast=x.json x.elf", "unknown option --stast (did you mean --stats?)"},
    {"run --frobnicate x.elf", "tensim: usage: unknown option --frobnicate\nTry 'tensim run --help'.\n"},
    {"run --tri x.elf", "--tri is ambiguous: --trisc0, --trisc1, --trisc2"},
    {"run -max-cycles=5 x.elf", "unknown option -max-cycles=5 (did you mean --max-cycles?)"},
    {"run -z x.elf", "unknown option -z\n"},
    {"run --quiet=yes x.elf", "--quiet takes no value"},
    {"run x.elf --stats", "--stats needs a value (--stats=FILE)"},
    {"rnu x.elf", "unknown command 'rnu' (did you mean 'run'?)\nTry 'tensim --help'.\n"},
    {"build/guest/exit7.elf", "unknown command 'build/guest/exit7.elf' (to run a program: tensim run "
                              "build/guest/exit7.elf)"},
    {"help nothing", "unknown help topic 'nothing'"},
    {"", "tensim: usage: no command"},
    {"run -q", "tensim: usage: no program given"},
    {"run a.elf b.elf", "more than one program for TRISC0: 'b.elf'"},
    {"run --trisc1 a.elf --trisc1 b.elf", "two programs for TRISC1"},
    {"run --stats /tmp/same.json --trace /tmp/same.json a.elf", "two outputs go to /tmp/same.json"},
    {"run --timing rv.load_l1 a.elf", "--timing wants KEY=VALUE, not 'rv.load_l1'"},
    {"run --timing rv.lode_l1=9 a.elf", "--timing: no parameter 'rv.lode_l1' (--timing=list"},
    {"run --timing rv.load_l1=0 a.elf", "--timing rv.load_l1 wants a whole number from 1 to 64, not '0'"},
    {"run --timing rv.load_slots=-1 a.elf", "from 0 to 8, not '-1'"},
};

Test(cli, usage_errors)
{
    for (size_t i = 0; i < sizeof usage_errors / sizeof usage_errors[0]; i++) {
        cr_expect_eq(run("%s", usage_errors[i].args), 100, "tensim %s", usage_errors[i].args);
        EXPECT_OUT(usage_errors[i].says);
    }
}

/* Numbers are decimal or 0x hexadecimal and nothing else: strtoull would take " -1" (as
 * 2^64 - 1), "+5", "010" (as octal 8) and "5 " was left to chance. */
Test(cli, strict_numbers)
{
    static const char *const bad[] = {"' -1'", "-1", "+5", "'5 '", "' 5'", "0x", "1e3", "5k",
                                      "18446744073709551616", "0x10000000000000000", "''", "0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(run("run --max-cycles %s %s", bad[i], guest("guest/spin.elf")), 100, "%s", bad[i]);
        EXPECT_OUT("--max-cycles needs a positive number");
    }
    cr_expect_eq(run("run --load x@-4 %s", guest("guest/spin.elf")), 100);
    EXPECT_OUT("--load wants FILE@ADDR, not 'x@-4'");
    cr_expect_eq(run("run --dump ' 0:4:x' %s", guest("guest/spin.elf")), 100);
    EXPECT_OUT("--dump wants ADDR:LEN:FILE with numbers, not ' 0:4:x'");
    cr_expect_eq(run("run -q --max-cycles 010 %s", guest("guest/spin.elf")), 107);
    EXPECT_OUT("no end after 10 cycles");

    unsigned long long v;
    cr_expect_eq(cli_parse_u64("18446744073709551615", &v), 0);
    cr_expect_eq(v, ~0ull);
    cr_expect_eq(cli_parse_u64("0xFFFFffffFFFFffff", &v), 0);
    cr_expect_eq(v, ~0ull);
    cr_expect_eq(cli_parse_u64("0x1f", &v), 0);
    cr_expect_eq(v, 31);
}

Test(cli, suggestions)
{
    static const char *const names[] = {"trisc0", "trisc1", "max-cycles", "stats", "trace"};
    cr_expect_str_eq(cli_nearest("max-cylces", names, 5), "max-cycles");
    cr_expect_str_eq(cli_nearest("trace", names, 5), "trace");
    cr_expect_str_eq(cli_nearest("stat", names, 5), "stats");
    cr_expect_null(cli_nearest("dump", names, 5));
    cr_expect_null(cli_nearest("xy", names, 5));
}

/* ---- exit status ---- */

static const char *code_file(int code)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/tensim-code-%d.bin", getpid());
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(&code, 4, 1, f);
    fclose(f);
    return path;
}

Test(cli, guest_codes_never_look_like_tensim_codes)
{
    static const struct { int guest, status; } cases[] = {
        {0, 0}, {1, 1}, {7, 7}, {98, 98}, {99, 99}, {100, 99}, {101, 99}, {110, 99},
        {255, 99}, {256, 99}, {-1, 99}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *f = code_file(cases[i].guest);
        cr_expect_eq(run("run -q --load %s@0x3F000 %s", f, guest("guest/exit_code.elf")),
                     cases[i].status, "guest exit(%d)", cases[i].guest);
        char line[128];
        snprintf(line, sizeof line, "tensim: guest exit: TRISC0 cycle=");
        if (cases[i].guest) {
            EXPECT_OUT(line);
            snprintf(line, sizeof line, ": exit code %d%s\n", cases[i].guest,
                     cases[i].status == 99 && cases[i].guest != 99
                         ? " (outside 1..98: passed on as exit status 99)" : "");
            EXPECT_OUT(line);
        } else {
            cr_expect_str_eq(out, "guest\n");
        }
        unlink(f);
    }
}

Test(cli, stats_record_the_guest_exit)
{
    const char *f = code_file(300);
    cr_expect_eq(run("run -q --stats /tmp/tensim-gx.json --load %s@0x3F000 %s", f,
                     guest("guest/exit_code.elf")), 99);
    char *json = read_whole_file("/tmp/tensim-gx.json", NULL);
    cr_expect(strstr(json, "\"exit_status\": 99,\n  \"guest_exit\": {\"core\": \"TRISC0\", \"code\": 300},\n"
                           "  \"host_errors\": [],\n  \"dumps\": [],\n") != NULL, "%s", json);
    free(json);
    unlink("/tmp/tensim-gx.json");
    unlink(f);
}

/* --timing changes a parameter for one run and the stats record every parameter's value: the
 * guest's four loads each feed the next instruction, so 12 more cycles of L1 latency cost 48.
 * The default run's stats record the table's values. */
static uint64_t timed_cycles(const char *timing, const char *expect)
{
    cr_assert_eq(run("run -q --stats /tmp/tensim-timing.json %s %s", timing, guest("guest/copy_l1.elf")), 0,
                 "%s", out);
    char *json = read_whole_file("/tmp/tensim-timing.json", NULL);
    cr_assert(json);
    cr_expect(strstr(json, expect) != NULL, "missing %s in %s", expect, json);
    unsigned long long cycles = 0;
    const char *c = strstr(json, "\"cycles\": ");
    cr_assert(c && sscanf(c, "\"cycles\": %llu", &cycles) == 1);
    free(json);
    unlink("/tmp/tensim-timing.json");
    return cycles;
}

Test(cli, timing_changes_one_run_and_is_recorded)
{
    /* without the L0 data cache every load goes to L1 */
    uint64_t base = timed_cycles("--timing=rv.l0d_lines=0", "\"rv.load_l1\": 8, \"rv.load_slots\": 4");
    uint64_t slow = timed_cycles("--timing rv.load_l1=20 --timing=rv.l0d_lines=0",
                                 "\"rv.load_l1\": 20, \"rv.load_slots\": 4");
    cr_expect_eq(slow, base + 48);
    cr_expect_eq(run("run --timing rv.load_l1=9 --timing pack.latency=16 %s", guest("guest/copy_l1.elf")), 0);
    EXPECT_OUT("tensim: timing changed by --timing: rv.load_l1=9 (model 8)\n"); /* pack.latency is BH's own */
    cr_expect_eq(run("run --timing=list"), 0);
    EXPECT_OUT("rv.load_l1                  8    8   1-64   BHR:README.md");
}

/* Progress of a long run: a line rewritten in place on a terminal (here a pty from script(1),
 * with TENSIM_PROGRESS_AFTER=0 so that it shows at once: every 2^20 cycles), erased before the
 * report; nothing when standard error is not a terminal, or with -q. */
static void on_a_terminal(const char *opts, char *buf, size_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "TENSIM_PROGRESS_AFTER=0 script -qec '%s run %s --max-cycles=3000000 %s' /dev/null",
             getenv("TENSIM_BIN") ? getenv("TENSIM_BIN") : "build/tensim", opts, guest("guest/spin.elf"));
    FILE *f = popen(cmd, "r");
    cr_assert(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
    pclose(f);
}

Test(cli, progress_only_on_a_terminal)
{
    char tty[8192];
    on_a_terminal("", tty, sizeof tty);
    cr_expect(strstr(tty, "\rtensim: cycle 1048576, ") && strstr(tty, "\rtensim: cycle 2097152, "),
              "no progress lines in: %s", tty);
    const char *erase = strstr(tty, "\r\033[Ktensim: cycle limit");
    cr_expect(erase != NULL, "the progress line is not erased before the report: %s", tty);
    on_a_terminal("-q", tty, sizeof tty);
    cr_expect(strstr(tty, "\rtensim: cycle") == NULL, "progress with -q: %s", tty);
    cr_expect_eq(run("run --max-cycles=3000000 %s", guest("guest/spin.elf")), 107, "%s", out);
    EXPECT_NO("\rtensim: cycle");
}

/* --profile charges each instruction the cycles since the previous one ended, so the charges add
 * up to the core's cycles; `work` (test/guest/profile.S) is 10 divides by zero (2 cycles each) and
 * 10 returns (the first mispredicted, 5 cycles, then 1): 20 + 14 = 34 cycles, 20 instructions. */
Test(cli, profile_by_function_and_instruction)
{
    cr_assert_eq(run("run --stats=/tmp/tensim-prof.json --profile=/tmp/tensim-prof.txt %s",
                     guest("guest/profile.elf")), 0, "%s", out);
    char *prof = read_whole_file("/tmp/tensim-prof.txt", NULL);
    char *json = read_whole_file("/tmp/tensim-prof.json", NULL);
    cr_assert(prof && json);
    unsigned long long cycles = 0, instret = 0;
    const char *c = strstr(json, "\"TRISC0\"");
    cr_assert(c && (c = strstr(c, "\"cycles\": ")) && sscanf(c, "\"cycles\": %llu", &cycles) == 1);
    cr_assert((c = strstr(c, "\"instret\": ")) && sscanf(c, "\"instret\": %llu", &instret) == 1);
    char head[200];
    snprintf(head, sizeof head, "TRISC0 (%s): %llu cycles, %llu instructions\n", guest("guest/profile.elf"),
             cycles, instret);
    cr_expect(strstr(prof, head) != NULL, "want %s in:\n%s", head, prof);
    cr_expect(strstr(prof, "            34  ") && strstr(prof, "           20           14  work\n"),
              "work's line:\n%s", prof);
    cr_expect(strstr(prof, "_start+0x8 ") != NULL, "instructions named by function:\n%s", prof);
    cr_expect(strstr(prof, "TRISC1") == NULL, "cores that never ran are left out:\n%s", prof);
    free(prof);
    free(json);
    unlink("/tmp/tensim-prof.txt");
    unlink("/tmp/tensim-prof.json");
}

/* Polling loops (riscv/poll.h; the rule in docs/user-guide.md "Polling loops"), through every
 * output. test/guest/poll.S's `spin` reads the cycle counter until it reaches 200: a pass is the
 * csrr (1 + 3 serialising cycles) and the bltu, 5 cycles; the first pass starts at 141 and ends
 * at 150 (its branch, weakly not-taken at reset, mispredicted: + 4), the passes at 150, 155, ..,
 * 200 go round again (the one at 200 reads 200 and leaves): 11 x 5 + the exit's mispredict 4 =
 * 59 polling cycles, the same in the core's stalls, region 3's, the profile's loop and the
 * trace's one "polling" slice [150, 209). `count` (loads counted by a register) and `copy`
 * (stores) are not polling loops, so the rest of the core's time keeps its reasons: the two
 * loops' 2 x 2 mispredicts and spin's first one (20), and the 6 retire-queue cycles. */
Test(cli, polling_loops_in_every_output)
{
    cr_assert_eq(run("run --profile=/tmp/tensim-poll.txt --stats=/tmp/tensim-poll.json "
                     "--trace=/tmp/tensim-poll-trace.json %s",
                     guest("guest/poll.elf")),
                 0, "%s", out);
    EXPECT_OUT("TRISC0           111          212  0.524  operand=35 mispredict=20 serialise=3 "
               "retire_queue=6 polling=59\n");
    EXPECT_OUT("TRISC0 #3          1         68       68       68         24  mispredict=4 "
               "serialise=3 polling=59\n");
    char *prof = read_whole_file("/tmp/tensim-poll.txt", NULL);
    cr_assert(prof);
    const char *loops = strstr(prof, "  polling loops:\n");
    cr_assert(loops, "no polling section:\n%s", prof);
    cr_expect(strstr(loops, "            59  27.8%         12  _start+0x30..0x34\n") != NULL, "%s", loops);
    cr_expect(strstr(loops, "_start+0x8") == NULL, "the counted loop is not polling:\n%s", loops);
    cr_expect(strstr(loops, "_start+0x18") == NULL, "the copy loop is not polling:\n%s", loops);
    char *json = read_whole_file("/tmp/tensim-poll.json", NULL);
    cr_assert(json);
    const char *region = strstr(json, "\"regions\""), *core = strstr(json, "\"cores\"");
    cr_assert(region && core);
    cr_expect(strstr(region, "\"retire_queue\": 0, \"polling\": 59}") != NULL, "region 3:\n%s", json);
    cr_expect(strstr(core, "\"retire_queue\": 6, \"polling\": 59}") != NULL, "TRISC0:\n%s", json);
    char *trace = read_whole_file("/tmp/tensim-poll-trace.json", NULL);
    cr_assert(trace);
    const char *slice = strstr(trace, "\"name\":\"polling\"");
    cr_assert(slice, "no polling slice");
    const char *want = "\"name\":\"polling\",\"cat\":\"core\",\"ph\":\"X\",\"ts\":150,\"dur\":59,\"pid\":1,\"tid\":0}";
    cr_expect(strncmp(slice, want, strlen(want)) == 0, "%.120s", slice);
    cr_expect(strstr(slice + 1, "\"name\":\"polling\"") == NULL, "one stretch, one slice");
    free(trace);
    free(json);
    free(prof);
    unlink("/tmp/tensim-poll.txt");
    unlink("/tmp/tensim-poll.json");
    unlink("/tmp/tensim-poll-trace.json");
}

/* ---- outputs that cannot be written ---- */

Test(cli, unwritable_outputs_stop_before_the_run)
{
    cr_expect_eq(run("run --stats /nonexistent/s.json %s", guest("guest/exit7.elf")), 109);
    cr_expect_str_eq(out, "tensim: host error: cannot write /nonexistent/s.json: No such file or directory\n");
    cr_expect_eq(run("run --trace /tmp %s", guest("guest/exit7.elf")), 109);
    cr_expect_str_eq(out, "tensim: host error: cannot write /tmp: Is a directory\n");
    cr_expect_eq(run("run --dump 0:4:/nonexistent/d.bin %s", guest("guest/exit7.elf")), 109);
    EXPECT_OUT("cannot write /nonexistent/d.bin: No such file or directory");
}

/* A full disk shows only when the buffered output is flushed: it was exit 0 (stats, trace) and
 * a silent 109 (dump). Each now names the file and the cause. */
Test(cli, full_disk_is_a_host_error)
{
    static const char *const opt[] = {"--stats /dev/full", "--trace /dev/full", "--dump 0:4096:/dev/full"};
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(run("run -q %s build/kernels/hello.elf", opt[i]), 109, "%s", opt[i]);
        EXPECT_OUT("tensim: host error: cannot write /dev/full: No space left on device\n");
    }
    /* the cores' own output on a full disk */
    const char *bin = getenv("TENSIM_BIN");
    char cmd[512], err[64];
    snprintf(err, sizeof err, "/tmp/tensim-stdout-%d.txt", getpid());
    snprintf(cmd, sizeof cmd, "%s run -q build/kernels/hello.elf >/dev/full 2>%s", bin ? bin : "build/tensim", err);
    int status = system(cmd);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 109, "status %d", status);
    char *text = read_whole_file(err, NULL);
    cr_expect_str_eq(text, "tensim: host error: cannot write the cores' output to standard output: "
                           "No space left on device\n");
    free(text);
    unlink(err);
}

/* The first failure decides the exit status; a later host error is still reported. */
Test(cli, first_failure_wins)
{
    cr_expect_eq(run("run -q --stats /dev/full %s", guest("guest/exit7.elf")), 7);
    EXPECT_OUT("tensim: guest exit: TRISC0 cycle=");
    EXPECT_OUT("cannot write /dev/full: No space left on device");
    cr_expect_eq(run("run -q --trace /dev/full %s", guest("guest/fifo_fill.elf")), 106);
    EXPECT_OUT("tensim: deadlock: ");
    EXPECT_OUT("cannot write /dev/full: No space left on device");
    /* two host errors: the first (the trace) is recorded in the stats written after it */
    cr_expect_eq(run("run -q --trace /dev/full --stats /tmp/tensim-he.json %s", guest("guest/exit7.elf")), 7);
    char *json = read_whole_file("/tmp/tensim-he.json", NULL);
    cr_expect(strstr(json, "\"exit_status\": 7,") != NULL, "%s", json);
    cr_expect(strstr(json, "\"host_errors\": [\"cannot write /dev/full: No space left on device\"]") != NULL, "%s", json);
    free(json);
    unlink("/tmp/tensim-he.json");
}

Test(cli, load_of_a_directory)
{
    cr_expect_eq(run("run --load /tmp@0x20000 %s", guest("guest/exit7.elf")), 101);
    EXPECT_OUT("tensim: bad program file: cycle=0: --load /tmp: is a directory");
    cr_expect_eq(run("run /tmp"), 101);
    EXPECT_OUT("tensim: bad program file: TRISC0 pc=0x00000000 cycle=0: /tmp: is a directory");
    cr_expect_eq(run("run --load /nonexistent@0x20000 %s", guest("guest/exit7.elf")), 101);
    EXPECT_OUT("--load /nonexistent: cannot open: No such file or directory");
}

/* ---- dumps after errors ---- */

Test(cli, dump_after_cycle_limit_and_error)
{
    cr_expect_eq(run("run -q --max-cycles 100 --dump 0x6000:8:/tmp/tensim-d1.bin --stats "
                     "/tmp/tensim-d1.json %s", guest("guest/spin.elf")), 107);
    EXPECT_OUT("tensim: note: the --dump files hold L1 as it was when the run stopped at cycle 100\n");
    size_t len;
    char *bin = read_whole_file("/tmp/tensim-d1.bin", &len);
    cr_expect_eq(len, 8);
    uint32_t w;
    memcpy(&w, bin, 4);
    cr_expect_eq(w, 0x0000006f, "the spin loop's jal x0, 0 (got 0x%08x)", w);
    free(bin);
    char *json = read_whole_file("/tmp/tensim-d1.json", NULL);
    cr_expect(strstr(json, "\"dumps\": [{\"file\": \"/tmp/tensim-d1.bin\", \"addr\": 24576, \"len\": 8, "
                           "\"written\": true}]") != NULL, "%s", json);
    free(json);
    /* a program that fails to load: L1 as far as it got */
    cr_expect_eq(run("run -q --dump 0:4:/tmp/tensim-d1.bin Makefile"), 101);
    EXPECT_OUT("tensim: note: the --dump files hold L1 as it was when the run failed to start at cycle 0\n");
    unlink("/tmp/tensim-d1.bin");
    unlink("/tmp/tensim-d1.json");
}

/* ---- Ctrl-C and SIGTERM ---- */

static const char *with_ext(const char *base, const char *ext)
{
    static char path[96];
    snprintf(path, sizeof path, "%s.%s", base, ext);
    return path;
}

static void interrupted(int sig, const char *name)
{
    char base[64], args[512];
    snprintf(base, sizeof base, "/tmp/tensim-int-%d", getpid());
    snprintf(args, sizeof args, "run --stats %s.json --trace %s.trace --dump 0x6000:4:%s.bin %s",
             base, base, base, guest("guest/print_spin.elf"));
    cr_assert_eq(run_tensim_signal(args, "spinning\n", sig, out, sizeof out), 110, "%s", out);
    char line[128];
    snprintf(line, sizeof line, "tensim: interrupted: cycle=");
    EXPECT_OUT(line);
    snprintf(line, sizeof line, ": %s received; the run stopped at cycle ", name);
    EXPECT_OUT(line);
    EXPECT_OUT("TRISC0: running, pc=0x");
    EXPECT_OUT("tensim: blackhole tile, "); /* the report */
    EXPECT_OUT("the --dump files hold L1 as it was when the run stopped at cycle");
    char *json = read_whole_file(with_ext(base, "json"), NULL);
    cr_expect(strstr(json, "\"category\": \"interrupted\", \"exit_code\": 110") != NULL, "%s", json);
    cr_expect(strstr(json, "\"exit_status\": 110,") != NULL, "%s", json);
    /* the core's cycles add up to the run's */
    const char *c = strstr(json, "\"cycles\": "), *cc = strstr(json, "\"TRISC0\"");
    cr_assert(c && cc);
    cc = strstr(cc, "\"cycles\": ");
    cr_expect_eq(strtoull(c + 10, 0, 10), strtoull(cc + 10, 0, 10));
    size_t n = strlen(json);
    cr_expect(n > 2 && !strcmp(json + n - 2, "}\n"), "complete JSON");
    free(json);
    char *trace = read_whole_file(with_ext(base, "trace"), &n);
    cr_expect(n > 4 && !strcmp(trace + n - 4, "\n]}\n"), "complete trace");
    free(trace);
    struct stat st;
    cr_expect(stat(with_ext(base, "bin"), &st) == 0 && st.st_size == 4);
    static const char *const ext[] = {"json", "trace", "bin"};
    for (int i = 0; i < 3; i++)
        unlink(with_ext(base, ext[i]));
}

Test(cli, sigint_ends_the_run_cleanly) { interrupted(SIGINT, "SIGINT"); }
Test(cli, sigterm_ends_the_run_cleanly) { interrupted(SIGTERM, "SIGTERM"); }

/* In-process: a stop request seen mid-run ends it at one cycle boundary for every agent, with
 * every thread's and core's accounting closed there. */
static volatile sig_atomic_t stop_flag;
static unsigned issued_before_stop;
static void stop_after_tenth(void *ctx, unsigned th, uint64_t cycle, uint32_t w)
{
    (void)ctx, (void)th, (void)cycle, (void)w;
    if (++issued_before_stop == 10)
        stop_flag = SIGINT;
}

Test(cli, stop_request_in_process)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    uint32_t words[64];
    for (int i = 0; i < 64; i++)
        words[i] = 0x02000000u; /* NOP */
    for (unsigned c = 0; c < 3; c++)
        tensix_kernel(t, c, words, 64);
    stop_flag = 0;
    issued_before_stop = 0;
    t->stop = &stop_flag;
    t->on_issue = stop_after_tenth;
    cr_assert_eq(tile_run(t, 0), ERR_INTERRUPTED);
    cr_expect(strstr(t->err.text, "SIGINT received; the run stopped at cycle ") != NULL, "%s", t->err.text);
    cr_expect_eq(t->err.cycle, t->cycles);
    cr_expect_lt(t->cycles, 40, "stopped long before the 64 NOPs of each thread were done");
    for (unsigned i = 0; i < NUM_THREADS; i++) {
        const struct thread_stats *s = &t->thread[i].st;
        uint64_t sum = s->issued + s->empty;
        for (int r = 1; r < GS_COUNT; r++)
            sum += s->stall[r];
        cr_expect_eq(sum, t->cycles, "T%u accounted to the stop", i);
    }
    for (unsigned c = 0; c < 3; c++)
        cr_expect_leq(core_cycles(&t->core[c]), t->cycles);
    tile_destroy(t);
}
