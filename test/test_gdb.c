/* The gdb stub (riscv/gdbstub.c, tensim run --gdb): tensim is driven over its socket with
 * scripted remote-protocol packets, and every stop is checked against cycles measured on a run
 * without the stub (the library's tile_run_until, one cycle at a time). */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../mem/elf.h"
#include "../riscv/gdbstub.h"
#include "harness.h"

#define PROG "guest/gdb_target.elf" /* test/guest/gdb_target.S */
/* How long the tests wait for tensim (a reply, its end) before they fail: no test has a
 * Criterion timeout (docs/testing.md), so a stub that never answers must not hang the suite. */
#define WAIT_MS 30000

/* The cycle at which TRISC0 issues its nth instruction (0-based, in execution order) on a run
 * without the stub: the first horizon whose run has retired it, less one. */
static uint64_t issue_cycle(uint64_t nth)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    cr_assert_eq(elf_run_file(t, CORE_TRISC0, guest(PROG), ELF_LOADER_AUTO), 0);
    uint64_t h = 1;
    while (t->core[CORE_TRISC0].st.instret <= nth) {
        cr_assert(tile_run_until(t, h), "the program ended before instruction %llu",
                  (unsigned long long)nth);
        h++;
    }
    tile_destroy(t);
    return h - 2; /* the last tile_run_until(h - 1) retired it: it issued at h - 2 */
}

/* ---- a tensim process with a gdb connection ---- */

struct session {
    pid_t pid;
    int out; /* tensim's stdout and stderr */
    int sock;
    unsigned port;
    char log[8192]; /* its output, once it has ended */
};

/* Reads tensim's output up to and including the first '\n' into line. */
static void read_line(int fd, char *line, size_t n)
{
    size_t i = 0;
    while (i + 1 < n) {
        char c;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, WAIT_MS) != 1 || read(fd, &c, 1) != 1)
            break;
        line[i++] = c;
        if (c == '\n')
            break;
    }
    line[i] = 0;
}

/* tensim run --gdb 0{core} args program, connected to; `who` the core the stub names. */
static void start_on(struct session *s, const char *core, const char *args, const char *program,
                     const char *who)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "run --gdb 0%s %s %s", core, args, program);
    s->pid = tensim_spawn(cmd, &s->out);
    char line[256];
    read_line(s->out, line, sizeof line);
    char name[16];
    cr_assert_eq(sscanf(line, "tensim: gdb: waiting on 127.0.0.1:%u for %15s\n", &s->port, name), 2,
                 "first line: %s", line);
    cr_assert_str_eq(name, who);
    s->sock = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    cr_assert(connect(s->sock, (struct sockaddr *)&a, sizeof a) == 0);
    struct timeval tv = {WAIT_MS / 1000, 0};
    setsockopt(s->sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

static void start(struct session *s, const char *args)
{
    start_on(s, "", args, guest(PROG), "TRISC0");
}

/* Receives one packet (NUL-terminated, in reply) and acks it. */
static const char *recv_packet(struct session *s, const char *what, char *reply, size_t n)
{
    char c;
    do
        cr_assert(recv(s->sock, &c, 1, 0) == 1, "no reply to %s", what);
    while (c != '$');
    size_t i = 0;
    unsigned got = 0;
    for (;;) {
        cr_assert(recv(s->sock, &c, 1, 0) == 1);
        if (c == '#')
            break;
        got += (unsigned char)c;
        cr_assert(i + 1 < n);
        reply[i++] = c;
    }
    reply[i] = 0;
    char cs[3] = {0};
    cr_assert(recv(s->sock, cs, 2, MSG_WAITALL) == 2);
    cr_assert_eq(strtoul(cs, 0, 16), got & 0xFF, "bad checksum on the reply to %s", what);
    cr_assert(send(s->sock, "+", 1, MSG_NOSIGNAL) == 1);
    return reply;
}

/* Sends one packet and returns gdb's view of the reply (NUL-terminated, in reply). With
 * reply NULL, expects none (k). */
static const char *packet(struct session *s, const char *data, char *reply, size_t n)
{
    char buf[4200];
    unsigned sum = 0;
    for (const char *p = data; *p; p++)
        sum += (unsigned char)*p;
    int len = snprintf(buf, sizeof buf, "$%s#%02x", data, sum & 0xFF);
    cr_assert(send(s->sock, buf, (size_t)len, MSG_NOSIGNAL) == len);
    char c;
    cr_assert(recv(s->sock, &c, 1, 0) == 1);
    cr_assert_eq(c, '+', "no ack for %s", data);
    if (!reply)
        return 0;
    return recv_packet(s, data, reply, n);
}

/* Checks that `data` gets exactly `want`. */
static void expect(struct session *s, const char *data, const char *want)
{
    char r[4200];
    packet(s, data, r, sizeof r);
    cr_assert_str_eq(r, want, "%s -> %s, expected %s", data, r, want);
}

/* `monitor CMD`: its text, decoded from the O packets of the reply (RSP qRcmd: console output,
 * then OK). */
static const char *monitor(struct session *s, const char *cmd, char *text, size_t n)
{
    static char r[2 * GDB_PACKET_MAX];
    char data[300] = "qRcmd,";
    for (size_t i = 0; cmd[i]; i++)
        snprintf(data + 6 + 2 * i, 3, "%02x", (unsigned char)cmd[i]);
    packet(s, data, r, sizeof r);
    size_t i = 0;
    while (r[0] == 'O' && strcmp(r, "OK")) { /* console output until the final OK */
        for (size_t k = 1; r[k] && r[k + 1]; k += 2) {
            unsigned b;
            cr_assert_eq(sscanf(r + k, "%2x", &b), 1, "monitor %s -> %s", cmd, r);
            if (i + 1 < n)
                text[i++] = (char)b;
        }
        recv_packet(s, data, r, sizeof r);
    }
    cr_assert_str_eq(r, "OK", "monitor %s ends with %s", cmd, r);
    text[i] = 0;
    return text;
}

/* `monitor cycle` as a number. */
static uint64_t monitor_cycle(struct session *s)
{
    char text[128];
    unsigned long long c;
    monitor(s, "cycle", text, sizeof text);
    cr_assert_eq(sscanf(text, "cycle %llu\n", &c), 1, "monitor cycle printed '%s'", text);
    return c;
}

/* Waits for tensim to end: its exit status, its output in s->log. */
static int finish(struct session *s)
{
    close(s->sock);
    size_t used = 0;
    ssize_t r = 0;
    int ready;
    struct pollfd p = {s->out, POLLIN, 0};
    while ((ready = poll(&p, 1, WAIT_MS)) == 1 &&
           (r = read(s->out, s->log + used, sizeof s->log - 1 - used)) > 0)
        used += (size_t)r;
    s->log[used] = 0;
    close(s->out);
    if (ready != 1) /* it never ended: the test fails below with the signal */
        kill(s->pid, SIGKILL);
    int st;
    cr_assert(waitpid(s->pid, &st, 0) == s->pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

/* A register of the 'g' reply (8 hex digits, little-endian). */
static uint32_t g_reg(const char *g, unsigned i)
{
    uint32_t v = 0;
    for (int b = 3; b >= 0; b--) {
        unsigned x;
        cr_assert_eq(sscanf(g + 8 * i + 2 * b, "%2x", &x), 1);
        v = v << 8 | x;
    }
    return v;
}

/* ---- tests ---- */

Test(gdb, breakpoint_step_registers_memory_cycle_exact)
{
    /* Program order (test/guest/gdb_target.S): 0x6000, 0x6004, 0x6008, then the loop 0x600c..
     * 0x601c three times. The sw at 0x6010 is instruction 4 the first time round, 9 the second. */
    const uint64_t sw_first = issue_cycle(4), lw_first = issue_cycle(5), sw_second = issue_cycle(9),
                   lw_second = issue_cycle(10);
    struct session s;
    start(&s, "-q");
    expect(&s, "qSupported:multiprocess+;swbreak+;hwbreak+", "PacketSize=3ff0;qXfer:features:read+;QStartNoAckMode+;swbreak+");
    expect(&s, "?", "T05thread:1;");
    expect(&s, "p20", "00600000");
    cr_assert_eq(monitor_cycle(&s), 0);
    char r[4200];
    packet(&s, "qXfer:features:read:target.xml:0,3fff", r, sizeof r);
    cr_assert(r[0] == 'l' && strstr(r, "<architecture>riscv:rv32</architecture>") &&
              strstr(r, "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>"), "%s", r);

    /* Breakpoint: stops before the sw issues, at the cycle it issues without the stub. */
    expect(&s, "Z0,6010,4", "OK");
    expect(&s, "c", "T05swbreak:;thread:1;");
    cr_assert_eq(monitor_cycle(&s), sw_first);
    packet(&s, "g", r, sizeof r);
    cr_assert_eq(strlen(r), 33 * 8);
    cr_assert_eq(g_reg(r, 5), 0x30000); /* t0 */
    cr_assert_eq(g_reg(r, 6), 0x126);   /* t1 = 0x123 + 3 */
    cr_assert_eq(g_reg(r, 7), 3);       /* t2 */
    cr_assert_eq(g_reg(r, 32), 0x6010); /* pc */
    expect(&s, "m30010,4", "00000000"); /* not stored yet */
    expect(&s, "m6010,4", "23a86200"); /* sw t1, 16(t0) */
    /* MMIO through the map: SOFT_RESET_0 with TRISC1, TRISC2 and BRISC still in reset, and the
     * wall clock at the stopped cycle; reading changes nothing, so twice gives the same. */
    expect(&s, "mffb121b0,4", "00680400"); /* little-endian: 0x46800, NCRISC (bit 18) held too */
    char clock[16];
    snprintf(clock, sizeof clock, "%02x000000", (unsigned)sw_first);
    expect(&s, "mffb121f0,4", clock);
    expect(&s, "mffb121f0,4", clock);

    /* Single step: the sw issues, the stop is before the lw, at its cycle. */
    expect(&s, "s", "T05thread:1;");
    expect(&s, "p20", "14600000");
    cr_assert_eq(monitor_cycle(&s), lw_first);
    expect(&s, "m30010,4", "26010000");

    /* Watchpoint on the stored word: reported before the second time round's sw issues (as
     * RISC-V triggers are, and as gdb expects), with the address; gdb then removes it and
     * steps, which stops right after the store. The breakpoint at the sw is gone. */
    expect(&s, "z0,6010,4", "OK");
    expect(&s, "Z2,30010,4", "OK");
    expect(&s, "Z2,7fffffff,4", "E16"); /* L1 only */
    expect(&s, "c", "T05watch:30010;thread:1;");
    cr_assert_eq(monitor_cycle(&s), sw_second);
    expect(&s, "p20", "10600000");
    expect(&s, "m30010,4", "26010000");
    expect(&s, "z2,30010,4", "OK");
    expect(&s, "s", "T05thread:1;");
    expect(&s, "p20", "14600000");
    expect(&s, "m30010,4", "28010000"); /* 0x126 + 2 */
    cr_assert_eq(monitor_cycle(&s), lw_second);

    /* Writes: a register and a word of L1. */
    expect(&s, "P7=01000000", "OK"); /* t2 = 1: the loop ends after this round */
    expect(&s, "M30020,4:78563412", "OK");
    expect(&s, "m30020,4", "78563412");

    /* Local data RAM: break after the sw to 0xffb00008. */
    expect(&s, "Z0,6028,4", "OK");
    expect(&s, "c", "T05swbreak:;thread:1;");
    expect(&s, "mffb00008,4", "28010000");
    expect(&s, "mffb00008,4", "28010000");
    /* A device read changes nothing: the word in TRISC0's own mailbox stays for its lw, and
     * reading the empty mailbox (which would block the core) is an error. */
    expect(&s, "Z0,6038,4", "OK");
    expect(&s, "c", "T05swbreak:;thread:1;");
    expect(&s, "mffec1004,4", "01000000"); /* not empty */
    expect(&s, "mffec1000,4", "55000000");
    expect(&s, "mffec1000,4", "55000000");
    expect(&s, "s", "T05thread:1;");
    expect(&s, "pb", "55000000"); /* a1 */
    expect(&s, "mffec1004,4", "00000000");
    expect(&s, "mffec1000,4", "E14");
    expect(&s, "Mffec1000,4:01000000", "E14"); /* a device write would act: refused */
    char text[512];
    cr_assert_str_eq(monitor(&s, "foo", text, sizeof text),
                     "unknown monitor command 'foo' (monitor help lists them)\n");
    /* monitor tensix: the state dump's text view of the stopped tile (trace/state.h), WHAT as
     * --dump-state's; a whole dump spans many O packets. */
    cr_assert(strstr(monitor(&s, "tensix rv", text, sizeof text), "  TRISC0: running, pc 0x0000603c\n"), "%s", text); /* after the step */
    cr_assert_str_eq(monitor(&s, "tensix bogus", text, sizeof text),
                     "monitor tensix: unknown WHAT 'bogus' (dst, srca, srcb, lregs, gprs, cfg, sem, pipe, rv or all)\n");
    expect(&s, "c", "W00");
    cr_assert_eq(finish(&s), 0, "%s", s.log);
}

/* Stops change nothing: a run stopped at breakpoints, steps and a watchpoint writes the same
 * statistics, byte for byte, as one without the stub. */
Test(gdb, stops_leave_the_stats_unchanged)
{
    char out[8192];
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q --stats build/gdb_plain.json %s", guest(PROG)), 0, "%s", out);
    struct session s;
    start(&s, "-q --stats build/gdb_stopped.json");
    expect(&s, "Z0,6018,4", "OK");
    expect(&s, "Z0,6008,4", "OK");
    expect(&s, "c", "T05thread:1;");
    expect(&s, "p20", "08600000");
    expect(&s, "s", "T05thread:1;");
    expect(&s, "s", "T05thread:1;");
    expect(&s, "c", "T05thread:1;");
    expect(&s, "p20", "18600000");
    expect(&s, "z0,6018,4", "OK");
    expect(&s, "Z3,30010,4", "OK"); /* a read watchpoint: the lw */
    expect(&s, "c", "T05rwatch:30010;thread:1;");
    expect(&s, "p20", "14600000");
    expect(&s, "c", "T05rwatch:30010;thread:1;"); /* the next time round */
    expect(&s, "p20", "14600000");
    expect(&s, "D", "OK"); /* detach: the run goes on to its end */
    cr_assert_eq(finish(&s), 0, "%s", s.log);
    size_t n1, n2;
    char *a = read_whole_file("build/gdb_plain.json", &n1), *b = read_whole_file("build/gdb_stopped.json", &n2);
    cr_assert(n1 == n2 && !memcmp(a, b, n1), "the stats differ");
    free(a);
    free(b);
}

/* k ends the run as an interrupted one (exit 110), with the report; no reply is sent. */
Test(gdb, kill_ends_the_run)
{
    struct session s;
    start(&s, "");
    expect(&s, "Z0,6014,4", "OK");
    expect(&s, "c", "T05thread:1;");
    packet(&s, "k", 0, 0);
    cr_assert_eq(finish(&s), 110, "%s", s.log);
    cr_assert(strstr(s.log, "tensim: interrupted: cycle="), "%s", s.log);
    cr_assert(strstr(s.log, "gdb killed the run; it stopped at cycle"), "%s", s.log);
    cr_assert(strstr(s.log, "TRISC0"), "the report: %s", s.log);
}

/* gdb going away while the tile is stopped is a detach: the run finishes. */
Test(gdb, lost_connection_runs_on)
{
    struct session s;
    start(&s, "-q");
    expect(&s, "Z0,6014,4", "OK");
    expect(&s, "c", "T05thread:1;");
    cr_assert_eq(finish(&s), 0, "%s", s.log);
}

/* A run that ends in an error stops with a signal gdb can look at (ebreak: SIGTRAP), then
 * reports the end (X: terminated by it). */
Test(gdb, error_is_a_stop_then_the_end)
{
    struct session s;
    start(&s, "-q");
    expect(&s, "M6028,4:73001000", "OK"); /* ebreak where the addi stood */
    expect(&s, "c", "T05thread:1;");
    expect(&s, "p20", "28600000");
    expect(&s, "c", "X05");
    cr_assert_eq(finish(&s), 108, "%s", s.log);
}

Test(gdb, bad_values_are_usage_errors)
{
    static const char *const bad[] = {"", "x", "65536", "-1", "1234:", "1234:trisc3", "1234:TRISC",
                                      ":trisc0", "12 34"};
    char out[2048], args[256];
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "run --gdb '%s' %s", bad[i], guest(PROG));
        cr_assert_eq(run_tensim(args, out, sizeof out), 100, "--gdb '%s': %s", bad[i], out);
        cr_assert(strstr(out, "tensim: usage: --gdb"), "--gdb '%s': %s", bad[i], out);
    }
}

Test(gdb, port_in_use_is_a_host_error)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    cr_assert(bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, 1) == 0 &&
              getsockname(fd, (struct sockaddr *)&a, &len) == 0);
    char out[2048];
    unsigned port = ntohs(a.sin_port);
    cr_assert_eq(run_tensimf(out, sizeof out, "run -q --gdb %u %s", port, guest(PROG)), 109, "%s", out);
    char want[128];
    snprintf(want, sizeof want, "tensim: host error: cycle=0: --gdb: cannot listen on 127.0.0.1:%u: "
             "Address already in use\n", port);
    cr_assert_str_eq(out, want);
    close(fd);
}

/* Ctrl-C from gdb (the 0x03 byte) stops a running tile between two agents' steps. */
Test(gdb, interrupt_stops_a_running_tile)
{
    struct session s;
    start_on(&s, "", "-q", guest("guest/spin.elf"), "TRISC0");
    expect(&s, "?", "T05thread:1;");
    cr_assert(send(s.sock, "$c#63", 5, MSG_NOSIGNAL) == 5);
    char c;
    cr_assert(recv(s.sock, &c, 1, 0) == 1 && c == '+');
    usleep(100 * 1000);
    cr_assert(send(s.sock, "\x03", 1, MSG_NOSIGNAL) == 1);
    char r[64];
    size_t i = 0;
    do
        cr_assert(recv(s.sock, &c, 1, 0) == 1);
    while (c != '$');
    while (recv(s.sock, &c, 1, 0) == 1 && c != '#' && i + 1 < sizeof r)
        r[i++] = c;
    r[i] = 0;
    cr_assert_str_eq(r, "T02thread:1;");
    char cs[2];
    cr_assert(recv(s.sock, cs, 2, MSG_WAITALL) == 2 && send(s.sock, "+", 1, MSG_NOSIGNAL) == 1);
    expect(&s, "p20", "00600000"); /* j . */
    cr_assert_gt(monitor_cycle(&s), 0);
    packet(&s, "k", 0, 0);
    cr_assert_eq(finish(&s), 110, "%s", s.log);
}

/* The stub serves the core named: TRISC1, with no program, is off at its reset pc, and the run
 * ends normally without it. */
Test(gdb, other_core)
{
    struct session s;
    /* the core in any case, as the report and --dump-state name it */
    start_on(&s, ":TRISC1", "-q", guest(PROG), "TRISC1");
    expect(&s, "p20", "00a00000");
    expect(&s, "Z0,a000,4", "OK");
    expect(&s, "c", "W00");
    cr_assert_eq(finish(&s), 0, "%s", s.log);
}

/* A breakpoint and a watchpoint on the same store: continuing from the breakpoint stops again
 * before the store, for the watchpoint (the access is still to come); continuing from that
 * stop stores without stopping again. */
Test(gdb, a_watched_store_at_a_breakpoint_still_stops)
{
    struct session s;
    start(&s, "-q");
    expect(&s, "Z0,6010,4", "OK");
    expect(&s, "Z2,30010,4", "OK");
    expect(&s, "c", "T05thread:1;");
    expect(&s, "p20", "10600000");
    const uint64_t at = monitor_cycle(&s);
    expect(&s, "z0,6010,4", "OK");
    expect(&s, "c", "T05watch:30010;thread:1;");
    expect(&s, "p20", "10600000");
    cr_assert_eq(monitor_cycle(&s), at);
    expect(&s, "m30010,4", "00000000"); /* before the access */
    expect(&s, "s", "T05thread:1;");
    expect(&s, "p20", "14600000");
    expect(&s, "m30010,4", "26010000"); /* 0x126 */
    expect(&s, "z2,30010,4", "OK");
    expect(&s, "c", "W00");
    cr_assert_eq(finish(&s), 0, "%s", s.log);
}

/* Stepping over an inline Tensix word that a Blackhole TRISC fused with the words after it
 * (test/guest/state_fused.S: four .ttinsn NOPs at 0x6000..0x600c, issued at cycle 0 as one
 * group): gdb plants its step breakpoint at pc + 2, which the stub takes as 0x6004, a word that
 * never issues on its own. The tile stops before the instruction after the group (0x6010, cycle
 * 1) instead of running away; so does a breakpoint on the group's last word. */
Test(gdb, a_breakpoint_inside_a_fused_group_stops_after_it)
{
    struct session s;
    start_on(&s, "", "-q", guest("guest/state_fused.elf"), "TRISC0");
    expect(&s, "p20", "00600000");
    expect(&s, "Z0,6002,2", "OK");
    expect(&s, "c", "T05thread:1;");
    expect(&s, "p20", "10600000");
    cr_assert_eq(monitor_cycle(&s), 1);
    expect(&s, "z0,6002,2", "OK");
    expect(&s, "c", "W00");
    cr_assert_eq(finish(&s), 0, "%s", s.log);

    start_on(&s, "", "-q", guest("guest/state_fused.elf"), "TRISC0");
    expect(&s, "Z0,600c,4", "OK");
    expect(&s, "c", "T05thread:1;");
    expect(&s, "p20", "10600000");
    expect(&s, "c", "W00");
    cr_assert_eq(finish(&s), 0, "%s", s.log);
}

/* Ctrl-C while tensim waits for gdb ends it as an interrupted run. */
Test(gdb, interrupted_while_waiting)
{
    char out[4096], args[512];
    snprintf(args, sizeof args, "run -q --gdb 0 %s", guest(PROG));
    cr_assert_eq(run_tensim_signal(args, "tensim: gdb: waiting on", SIGINT, out, sizeof out), 110, "%s", out);
    cr_assert(strstr(out, "tensim: interrupted: cycle=0: --gdb: no connection on 127.0.0.1:"), "%s", out);
}

/* The same with the three cores and the coprocessor at work (the matmul example): stepping
 * TRISC1 (math) through its first instructions and continuing leaves every cycle in place. */
Test(gdb, stepping_a_kernel_leaves_the_stats_unchanged)
{
#define MM_ARGS "--trisc0=build/kernels/matmul-t0.elf --trisc1=build/kernels/matmul-t1.elf " \
                "--trisc2=build/kernels/matmul-t2.elf -q --stats build/gdb_mm_"
    char out[8192];
    cr_assert_eq(run_tensim("run " MM_ARGS "plain.json", out, sizeof out), 0, "%s", out);
    struct session s;
    /* the last operand is the program the stub's session names: none here (all are options) */
    start_on(&s, ":trisc1", MM_ARGS "stopped.json", "", "TRISC1");
    expect(&s, "p20", "00a00000");
    for (int i = 0; i < 30; i++)
        expect(&s, "s", "T05thread:1;");
    uint64_t at = monitor_cycle(&s);
    cr_assert_gt(at, 30);
    /* The whole Tensix state, more than one packet holds: it comes in several O packets, whole
     * and in order. */
    static char all[1 << 21];
    size_t len = strlen(monitor(&s, "tensix", all, sizeof all));
    cr_assert_gt(len, (GDB_PACKET_MAX - 16) / 2, "%zu bytes", len);
    char head[80];
    snprintf(head, sizeof head, "==== dump 1 (monitor tensix): gdb stop, cycle %llu, blackhole ====\n",
             (unsigned long long)at);
    cr_assert(!strncmp(all, head, strlen(head)), "%.200s", all);
    const char *sem = strstr(all, "Semaphores (value/max)"), *rv = strstr(all, "RISC-V cores\n");
    cr_assert(sem && rv && sem < rv && strstr(rv, "  TRISC1: "), "the whole dump, in order");
    expect(&s, "c", "W00");
    cr_assert_eq(finish(&s), 0, "%s", s.log);
    size_t n1, n2;
    char *a = read_whole_file("build/gdb_mm_plain.json", &n1), *b = read_whole_file("build/gdb_mm_stopped.json", &n2);
    cr_assert(n1 == n2 && !memcmp(a, b, n1), "the stats differ");
    free(a);
    free(b);
}

/* The eltwise example's first L1 write to its output (0x40000, a tile the packer writes), found
 * without the stub: the tile run one cycle at a time until the word changes. Returns the cycle
 * the write happened in. */
static uint64_t first_output_write(void)
{
    struct tile *t = test_tile(ARCH_BLACKHOLE);
    static const char *const elf[3] = {"build/kernels/eltwise-t0.elf", "build/kernels/eltwise-t1.elf",
                                       "build/kernels/eltwise-t2.elf"};
    for (int k = 0; k < 3; k++)
        cr_assert_eq(elf_run_file(t, k, elf[k], ELF_LOADER_AUTO), 0);
    uint64_t h = 1;
    while (!le_get(t->l1 + 0x40000, 4)) {
        cr_assert(tile_run_until(t, h), "the run ended before writing its output");
        h++;
    }
    tile_destroy(t);
    return h - 2; /* tile_run_until(h - 1) ran cycles below h - 1: the write was in cycle h - 2 */
}

static uint32_t hex_word(const char *le)
{
    unsigned b[4];
    cr_assert_eq(sscanf(le, "%2x%2x%2x%2x", &b[0], &b[1], &b[2], &b[3]), 4, "%s", le);
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* A watchpoint on L1 sees the Tensix units' writes too: the packer's first write of the output
 * tile stops the tile at the end of that cycle, reported as an access watchpoint. From there gdb
 * steps over the core's instruction, which may be an inline Tensix word (low bits not 11): its
 * decoder takes it for a 2-byte compressed instruction and plants a breakpoint at pc + 2, which
 * the stub moves to pc + 4 (no instruction starts at bit 1). vCont c and s work as c and s. */
Test(gdb, a_unit_write_stops_at_a_watchpoint)
{
    const uint64_t wrote = first_output_write();
    struct session s;
    start_on(&s, ":trisc2", "-q --trisc0=build/kernels/eltwise-t0.elf --trisc1=build/kernels/eltwise-t1.elf",
             "--trisc2=build/kernels/eltwise-t2.elf", "TRISC2");
    expect(&s, "vCont?", "vCont;c;C;s;S");
    expect(&s, "Z4,40000,4", "OK");
    expect(&s, "vCont;c", "T05awatch:40000;thread:1;");
    cr_assert_eq(monitor_cycle(&s), wrote);
    char r[4200];
    cr_assert_neq(hex_word(packet(&s, "m40000,4", r, sizeof r)), 0, "the write has happened");
    expect(&s, "z4,40000,4", "OK");
    uint32_t pc = hex_word(packet(&s, "p20", r, sizeof r));
    char cmd[64];
    snprintf(cmd, sizeof cmd, "m%x,4", pc);
    uint32_t word = hex_word(packet(&s, cmd, r, sizeof r));
    cr_assert_neq(word & 3, 3, "TRISC2 stands at a Tensix push (0x%08x at 0x%x)", word, pc);
    snprintf(cmd, sizeof cmd, "Z0,%x,2", pc + 2);
    expect(&s, cmd, "OK");
    expect(&s, "vCont;c:1", "T05thread:1;"); /* no swbreak: this gdb did not announce it */
    char want[16];
    snprintf(want, sizeof want, "%02x%02x%02x%02x", (pc + 4) & 0xFF, (pc + 4) >> 8 & 0xFF, (pc + 4) >> 16 & 0xFF,
             (pc + 4) >> 24);
    expect(&s, "p20", want);
    snprintf(cmd, sizeof cmd, "z0,%x,2", pc + 2);
    expect(&s, cmd, "OK");
    expect(&s, "vCont;s:1", "T05thread:1;");
    expect(&s, "vCont;c", "W00");
    cr_assert_eq(finish(&s), 0, "%s", s.log);
}
