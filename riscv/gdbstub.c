/* The GDB remote-serial-protocol stub (riscv/gdbstub.h). Packets as in GDB's manual, "Remote
 * Protocol": $data#checksum with +/- acknowledgements (until QStartNoAckMode), binary data
 * escaped with '}'. Host-side only: nothing here runs on the per-cycle path unless a stub is
 * attached, and then only at stops and breakpoint checks. */
#include "gdbstub.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../core/cli.h"
#include "../core/tile.h"
#include "../mem/map.h"

int gdb_parse_spec(const char *spec, unsigned *port, int *core, char *err, size_t n)
{
    char num[16];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    unsigned long long p;
    if (!len || len >= sizeof num) {
        snprintf(err, n, "--gdb wants PORT[:CORE], not '%s'", spec);
        return -1;
    }
    memcpy(num, spec, len);
    num[len] = 0;
    if (cli_parse_u64(num, &p) || p > 65535) {
        snprintf(err, n, "--gdb wants a port number 0..65535 (0: any free port), not '%s'", num);
        return -1;
    }
    *port = (unsigned)p;
    *core = CORE_TRISC0;
    if (colon) {
        static const char *const names[NUM_CORES] = {"trisc0", "trisc1", "trisc2", "brisc", "ncrisc"};
        int k = -1;
        for (int i = 0; i < NUM_CORES; i++)
            if (!strcasecmp(colon + 1, names[i])) /* any case, as --dump-state's cores */
                k = i;
        if (k < 0) {
            snprintf(err, n, "--gdb core must be trisc0, trisc1, trisc2 or brisc, not '%s'", colon + 1);
            return -1;
        }
        *core = k;
    }
    return 0;
}

/* Waits until fd can be read: 1, or -2 when a stop signal came (the flag is looked at every
 * 100 ms too, so one that lands just before the wait is not missed), -1 on an error. */
static int wait_readable(int fd, const volatile sig_atomic_t *stop)
{
    for (;;) {
        if (stop && *stop)
            return -2;
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 100);
        if (r > 0)
            return 1;
        if (r < 0 && errno != EINTR)
            return -1;
    }
}

struct gdb_stub *gdb_open(unsigned port, int core, const volatile sig_atomic_t *stop, FILE *note,
                          char *err, size_t n, bool *interrupted)
{
    *interrupted = false;
    struct gdb_stub *g = calloc(1, sizeof *g);
    if (g) {
        g->scratch = tile_mem_alloc();
        g->text = malloc(GDB_MONITOR_MAX);
    }
    if (!g || !g->scratch || !g->text) {
        snprintf(err, n, "out of memory for --gdb");
        gdb_close(g);
        return 0;
    }
    g->fd = g->listen_fd = -1;
    g->core = core;
    g->skip_instret = UINT64_MAX;
    g->stop = GDB_STOP_INITIAL;
    g->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int one = 1;
    socklen_t alen = sizeof a;
    if (g->listen_fd < 0 ||
        setsockopt(g->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        bind(g->listen_fd, (struct sockaddr *)&a, sizeof a) || listen(g->listen_fd, 1) ||
        getsockname(g->listen_fd, (struct sockaddr *)&a, &alen)) {
        snprintf(err, n, "--gdb: cannot listen on 127.0.0.1:%u: %s", port, strerror(errno));
        gdb_close(g);
        return 0;
    }
    g->port = ntohs(a.sin_port);
    fprintf(note, "tensim: gdb: waiting on 127.0.0.1:%u for %s\n", g->port, core_name(core));
    fflush(note);
    for (;;) {
        int w = wait_readable(g->listen_fd, stop);
        if (w > 0 && (g->fd = accept(g->listen_fd, 0, 0)) >= 0)
            break;
        if (w > 0 && (errno == EINTR || errno == EAGAIN || errno == ECONNABORTED))
            continue;
        *interrupted = w == -2;
        snprintf(err, n, "--gdb: no connection on 127.0.0.1:%u: %s", g->port,
                 w == -2 ? "interrupted" : strerror(errno));
        gdb_close(g);
        return 0;
    }
    setsockopt(g->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return g;
}

void gdb_close(struct gdb_stub *g)
{
    if (!g)
        return;
    if (g->fd >= 0)
        close(g->fd);
    if (g->listen_fd >= 0)
        close(g->listen_fd);
    tile_mem_free(g->scratch);
    free(g->text);
    free(g);
}

/* gdb is gone or detached: the run goes on as if it had never come. */
static void hang_up(struct gdb_stub *g)
{
    if (g->fd >= 0)
        close(g->fd);
    g->fd = -1;
    g->used = g->have = 0;
    g->nbrk = g->nwatch = 0;
    g->stepping = g->hit_next = false;
}

bool gdb_watch_hits(struct gdb_stub *g, uint32_t addr, unsigned size, bool store, bool load)
{
    for (unsigned i = 0; i < g->nwatch; i++) {
        const struct gdb_watch *w = &g->watch[i];
        bool kind = w->kind == GDB_WATCH_ACCESS || (w->kind == GDB_WATCH_WRITE && store) ||
                    (w->kind == GDB_WATCH_READ && load);
        if (kind && addr < w->addr + w->len && w->addr < addr + size) {
            g->watch_addr = addr > w->addr ? addr : w->addr;
            g->watch_kind = w->kind;
            return true;
        }
    }
    return false;
}

void gdb_unit_wrote(struct tile *t, uint32_t addr, uint32_t n)
{
    struct gdb_stub *g = t->gdb;
    if (g->stop != GDB_RUNNING || g->fd < 0 || !gdb_watch_hits(g, addr, n, true, false))
        return;
    g->stop = GDB_STOP_WATCH;
    g->unit_watch = true;
    g->stop_cycle = t->now;
    /* The coprocessor's loop looks at the limit after every cycle: it ends this one and the
     * scheduler serves gdb before any agent acts again (core/tile.c run_loop). */
    t->limit = t->now + 1;
}

/* ---- packets ---- */

/* One byte from gdb: -1 connection gone, -2 interrupted by a stop signal. */
static int get_byte(struct gdb_stub *g, const struct tile *t)
{
    if (g->have < g->used + 1) {
        for (;;) {
            int w = wait_readable(g->fd, t->stop);
            if (w < 0)
                return w;
            ssize_t r = recv(g->fd, g->rbuf, sizeof g->rbuf, 0);
            if (r > 0) {
                g->have = (unsigned)r, g->used = 0;
                break;
            }
            if (r < 0 && errno == EINTR)
                continue;
            return -1;
        }
    }
    return (unsigned char)g->rbuf[g->used++];
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The next packet's data (unescaped) in g->in; its length, or -1 / -2 as get_byte. */
static int get_packet(struct gdb_stub *g, const struct tile *t)
{
    for (;;) {
        int c;
        while ((c = get_byte(g, t)) != '$')
            if (c < 0)
                return c;
        unsigned n = 0, sum = 0;
        bool esc = false, over = false;
        while ((c = get_byte(g, t)) != '#') {
            if (c < 0)
                return c;
            sum += (unsigned)c;
            if (c == '}' && !esc) {
                esc = true;
                continue;
            }
            if (n < GDB_PACKET_MAX)
                g->in[n++] = (char)(esc ? c ^ 0x20 : c);
            else
                over = true;
            esc = false;
        }
        int h = get_byte(g, t), l = h < 0 ? h : get_byte(g, t);
        if (l < 0)
            return l;
        bool ok = !over && hexval(h) >= 0 && hexval(l) >= 0 &&
                  (unsigned)(hexval(h) << 4 | hexval(l)) == (sum & 0xFF);
        if (!g->noack && send(g->fd, ok ? "+" : "-", 1, MSG_NOSIGNAL) != 1)
            return -1;
        if (ok) {
            g->in[n] = 0;
            return (int)n;
        }
    }
}

/* Sends data[0..len) as a packet (escaped), waiting for gdb's '+' unless acks are off.
 * False: the connection is gone. */
static bool put_packet(struct gdb_stub *g, const struct tile *t, const char *data, size_t len)
{
    size_t n = 0;
    unsigned sum = 0;
    g->out[n++] = '$';
    for (size_t i = 0; i < len; i++) {
        char c = data[i];
        if (c == '$' || c == '#' || c == '}' || c == '*') {
            g->out[n++] = '}';
            sum += '}';
            c ^= 0x20;
        }
        g->out[n++] = c;
        sum += (unsigned char)c;
    }
    n += (size_t)snprintf(g->out + n, 4, "#%02x", sum & 0xFF);
    for (;;) {
        if (send(g->fd, g->out, n, MSG_NOSIGNAL) != (ssize_t)n)
            return false;
        if (g->noack)
            return true;
        int c;
        while ((c = get_byte(g, t)) != '+' && c != '-')
            if (c < 0)
                return false;
        if (c == '+')
            return true;
    }
}

static bool put_str(struct gdb_stub *g, const struct tile *t, const char *s)
{
    return put_packet(g, t, s, strlen(s));
}

static bool put_fmt(struct gdb_stub *g, const struct tile *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool put_fmt(struct gdb_stub *g, const struct tile *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return put_str(g, t, buf);
}

/* ---- registers and memory ---- */

static void put_hex32(char *p, uint32_t v) /* target byte order: little-endian */
{
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 4; i++) {
        p[2 * i] = hx[(v >> (8 * i + 4)) & 15];
        p[2 * i + 1] = hx[(v >> (8 * i)) & 15];
    }
}

static bool get_hex32(const char *p, uint32_t *v)
{
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p[2 * i]), l = hexval(p[2 * i + 1]);
        if (h < 0 || l < 0)
            return false;
        r |= (uint32_t)(h << 4 | l) << (8 * i);
    }
    *v = r;
    return true;
}

/* A hex number ending at one of `ends` (or the string's end); *p moves past it. */
static bool get_num(const char **p, uint32_t *v)
{
    uint64_t r = 0;
    const char *s = *p;
    while (hexval(*s) >= 0 && r <= 0xFFFFFFFFu)
        r = r << 4 | (uint64_t)hexval(*s++);
    if (s == *p || r > 0xFFFFFFFFu)
        return false;
    *v = (uint32_t)r;
    *p = s;
    return true;
}

/* One byte as the chosen core sees it: L1, its local data RAM, else the MMIO map, read on the
 * scratch copy of the tile so that no read changes anything. False: nothing there. */
static bool read_byte(struct gdb_stub *g, struct tile *t, uint32_t addr, uint8_t *b,
                      uint32_t *word_addr, uint32_t *word)
{
    if (addr < t->arch->l1_size) {
        *b = t->l1[addr];
        return true;
    }
    if (addr - MEM_LOCAL_BASE < t->arch->local_ram_size[g->core]) {
        *b = t->local_ram[g->core][addr - MEM_LOCAL_BASE];
        return true;
    }
    if ((addr & ~3u) == *word_addr) { /* the word of the byte before, read once per packet */
        *b = (uint8_t)(*word >> (8 * (addr & 3)));
        return true;
    }
    const struct region *r = map_find(t, g->core, addr);
    if (!r || !r->ops || !r->ops->load)
        return false;
    struct tile *s = g->scratch;
    memcpy(s, t, sizeof *s);
    s->tracer = 0;
    for (int k = 0; k < NUM_CORES; k++)
        s->prof[k] = 0;
    s->profiling = false;
    s->progress = 0;
    s->host.poll = 0;
    s->gdb = 0;
    s->out = s->errout = 0;
    s->running_agent = 1 + g->core;
    s->now = g->stop_cycle;
    memset(&s->err, 0, sizeof s->err);
    uint32_t v;
    unsigned lat;
    if (mmio_load(s, g->core, addr & ~3u, 4, &v, &lat) != MMIO_OK)
        return false;
    *b = (uint8_t)(v >> (8 * (addr & 3)));
    *word_addr = addr & ~3u;
    *word = v;
    return true;
}

/* Writes reach L1 and the core's local data RAM only (a device write would act). */
static bool write_byte(struct gdb_stub *g, struct tile *t, uint32_t addr, uint8_t b)
{
    if (addr < t->arch->l1_size) {
        t->l1[addr] = b;
        tile_code_written(t, addr, 1);
        return true;
    }
    if (addr - MEM_LOCAL_BASE < t->arch->local_ram_size[g->core]) {
        t->local_ram[g->core][addr - MEM_LOCAL_BASE] = b;
        return true;
    }
    return false;
}

/* ---- target description ---- */

static const char target_xml[] =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target version=\"1.0\">\n"
    "<architecture>riscv:rv32</architecture>\n"
    "<feature name=\"org.gnu.gdb.riscv.cpu\">\n"
    "<reg name=\"zero\" bitsize=\"32\" type=\"int\" regnum=\"0\"/>\n"
    "<reg name=\"ra\" bitsize=\"32\" type=\"code_ptr\"/>\n"
    "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"gp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"tp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"t0\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t1\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t2\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"fp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"s1\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a0\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a1\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a2\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a3\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a4\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a5\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a6\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"a7\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s2\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s3\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s4\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s5\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s6\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s7\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s8\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s9\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s10\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"s11\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t3\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t4\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t5\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"t6\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>\n"
    "</feature>\n"
    "</target>\n";

/* ---- monitor commands ---- */

/* `monitor WORDS`: the text to print, in g->text. */
static void monitor(struct gdb_stub *g, struct tile *t, const char *cmd)
{
    const size_t n = GDB_MONITOR_MAX;
    while (*cmd == ' ')
        cmd++;
    if (!strcmp(cmd, "cycle")) {
        snprintf(g->text, n, "cycle %llu\n", (unsigned long long)g->stop_cycle);
    } else if (!strncmp(cmd, "tensix", 6) && (cmd[6] == 0 || cmd[6] == ' ')) {
        FILE *f = fmemopen(g->text, n, "w");
        if (!f) {
            snprintf(g->text, n, "monitor tensix: out of memory\n");
            return;
        }
        if (g->monitor_tensix)
            g->monitor_tensix(t, cmd + 6 + (cmd[6] == ' '), f);
        else
            fprintf(f, "monitor tensix: the Tensix state view is not built yet\n");
        fclose(f);
    } else if (!strcmp(cmd, "help") || !*cmd) {
        snprintf(g->text, n,
                 "monitor cycle         the cycle the tile stopped at\n"
                 "monitor tensix [...]  the Tensix state\n"
                 "monitor help          this list\n");
    } else {
        snprintf(g->text, n, "unknown monitor command '%s' (monitor help lists them)\n", cmd);
    }
}

/* ---- serving gdb ---- */

static const char *watch_word(uint8_t kind)
{
    return kind == GDB_WATCH_READ ? "rwatch" : kind == GDB_WATCH_ACCESS ? "awatch" : "watch";
}

static bool stop_reply(struct gdb_stub *g, const struct tile *t)
{
    switch (g->stop) {
    case GDB_STOP_BREAK: return put_str(g, t, g->swbreak ? "T05swbreak:;thread:1;" : "T05thread:1;");
    case GDB_STOP_WATCH:
        return put_fmt(g, t, "T05%s:%x;thread:1;", watch_word(g->watch_kind), g->watch_addr);
    case GDB_STOP_INTERRUPT: return put_str(g, t, "T02thread:1;");
    case GDB_STOP_ERROR: return put_fmt(g, t, "T%02xthread:1;", g->signal);
    default: return put_str(g, t, "T05thread:1;");
    }
}

enum served { SERVE_ON, SERVE_RESUME, SERVE_END };

static enum served handle(struct gdb_stub *g, struct tile *t, char *p, int len)
{
    struct rv_core *c = &t->core[g->core];
    char *buf = g->out + GDB_PACKET_MAX + 8; /* the reply, built before put_packet copies it */
    const size_t bufmax = GDB_PACKET_MAX - 16;
    uint32_t a, l, v;
    const char *q = p + 1;
    switch (p[0]) {
    case '?':
        return stop_reply(g, t) ? SERVE_ON : SERVE_END;
    case 'g':
        for (int i = 0; i < 32; i++)
            put_hex32(buf + 8 * i, c->x[i]);
        put_hex32(buf + 256, c->pc);
        return put_packet(g, t, buf, 264) ? SERVE_ON : SERVE_END;
    case 'G':
        if (len < 1 + 264) {
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        }
        for (int i = 1; i <= 32; i++) {
            if (!get_hex32(q + 8 * i, &v))
                return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
            if (i < 32)
                c->x[i] = v;
            else
                c->pc = v;
        }
        return put_str(g, t, "OK") ? SERVE_ON : SERVE_END;
    case 'p':
        if (!get_num(&q, &a) || a > 32)
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        put_hex32(buf, a == 32 ? c->pc : c->x[a]);
        return put_packet(g, t, buf, 8) ? SERVE_ON : SERVE_END;
    case 'P':
        if (!get_num(&q, &a) || a > 32 || *q++ != '=' || !get_hex32(q, &v))
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        if (a == 32)
            c->pc = v;
        else if (a)
            c->x[a] = v;
        return put_str(g, t, "OK") ? SERVE_ON : SERVE_END;
    case 'm': {
        if (!get_num(&q, &a) || *q++ != ',' || !get_num(&q, &l))
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        if (l > bufmax / 2)
            l = (uint32_t)(bufmax / 2);
        uint32_t i = 0, word_addr = 1, word = 0; /* 1: no word read yet (never aligned) */
        uint8_t b;
        for (; i < l && read_byte(g, t, a + i, &b, &word_addr, &word); i++) {
            static const char hx[] = "0123456789abcdef";
            buf[2 * i] = hx[b >> 4];
            buf[2 * i + 1] = hx[b & 15];
        }
        if (!i && l)
            return put_str(g, t, "E14") ? SERVE_ON : SERVE_END;
        return put_packet(g, t, buf, 2 * i) ? SERVE_ON : SERVE_END;
    }
    case 'M':
    case 'X': {
        if (!get_num(&q, &a) || *q++ != ',' || !get_num(&q, &l) || *q++ != ':')
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        const char *data = q;
        size_t have = (size_t)(p + len - data);
        if (p[0] == 'M' ? have < 2 * (size_t)l : have < l)
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        bool ok = true;
        for (uint32_t i = 0; i < l && ok; i++) {
            uint8_t b = (uint8_t)data[i];
            if (p[0] == 'M') {
                int h = hexval(data[2 * i]), lo = hexval(data[2 * i + 1]);
                ok = h >= 0 && lo >= 0;
                b = (uint8_t)(h << 4 | lo);
            }
            ok = ok && write_byte(g, t, a + i, b);
        }
        return put_str(g, t, ok ? "OK" : "E14") ? SERVE_ON : SERVE_END;
    }
    case 'Z':
    case 'z': {
        char type = p[1];
        q = p + 2;
        if (type < '0' || type > '4' || *q++ != ',' || !get_num(&q, &a) || *q++ != ',' ||
            !get_num(&q, &l))
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        bool add = p[0] == 'Z';
        if (type <= '1') { /* software or hardware breakpoint: the same to the simulator */
            /* The cores have no compressed instructions, so no instruction starts at an address
             * with bit 1 set. gdb plants one there when its decoder takes an inline Tensix word
             * (low bits not 11) for a 2-byte compressed instruction while stepping over it: the
             * next instruction is the one after the whole word. */
            if (a & 2)
                a = (a & ~3u) + 4;
            unsigned i = 0;
            while (i < g->nbrk && g->brk[i] != a)
                i++;
            if (add && i == g->nbrk) {
                if (g->nbrk == GDB_MAX_BREAK)
                    return put_str(g, t, "E28") ? SERVE_ON : SERVE_END;
                g->brk[g->nbrk++] = a;
            } else if (!add && i < g->nbrk) {
                g->brk[i] = g->brk[--g->nbrk];
            }
            return put_str(g, t, "OK") ? SERVE_ON : SERVE_END;
        }
        uint8_t kind = (uint8_t)(type - '0');
        if (!l || a >= t->arch->l1_size || l > t->arch->l1_size - a) /* L1 only */
            return put_str(g, t, "E16") ? SERVE_ON : SERVE_END;
        unsigned i = 0;
        while (i < g->nwatch && !(g->watch[i].addr == a && g->watch[i].len == l && g->watch[i].kind == kind))
            i++;
        if (add && i == g->nwatch) {
            if (g->nwatch == GDB_MAX_WATCH)
                return put_str(g, t, "E28") ? SERVE_ON : SERVE_END;
            g->watch[g->nwatch++] = (struct gdb_watch){a, l, kind};
        } else if (!add && i < g->nwatch) {
            g->watch[i] = g->watch[--g->nwatch];
        }
        return put_str(g, t, "OK") ? SERVE_ON : SERVE_END;
    }
    case 'c':
    case 's':
        if (*q && get_num(&q, &a))
            c->pc = a;
        g->stepping = p[0] == 's';
        return SERVE_RESUME;
    case 'k':
        g->killed = true;
        return SERVE_END;
    case 'D':
        put_str(g, t, "OK");
        hang_up(g);
        return SERVE_END;
    case 'H':
    case 'T':
        return put_str(g, t, "OK") ? SERVE_ON : SERVE_END;
    case 'Q':
        if (!strcmp(p, "QStartNoAckMode")) {
            bool ok = put_str(g, t, "OK");
            g->noack = true;
            return ok ? SERVE_ON : SERVE_END;
        }
        return put_str(g, t, "") ? SERVE_ON : SERVE_END;
    case 'q':
        if (!strncmp(p, "qSupported", 10)) {
            g->swbreak = strstr(p, "swbreak+") != 0;
            return put_fmt(g, t, "PacketSize=%x;qXfer:features:read+;QStartNoAckMode+;swbreak+",
                           GDB_PACKET_MAX - 16) ? SERVE_ON : SERVE_END;
        }
        static const char xfer[] = "qXfer:features:read:target.xml:";
        if (!strncmp(p, xfer, sizeof xfer - 1)) {
            q = p + sizeof xfer - 1;
            if (!get_num(&q, &a) || *q++ != ',' || !get_num(&q, &l))
                return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
            size_t total = sizeof target_xml - 1;
            if (a >= total)
                return put_str(g, t, "l") ? SERVE_ON : SERVE_END;
            size_t k = total - a < l ? total - a : l;
            if (k > bufmax - 1)
                k = bufmax - 1;
            buf[0] = a + k < total ? 'm' : 'l';
            memcpy(buf + 1, target_xml + a, k);
            return put_packet(g, t, buf, k + 1) ? SERVE_ON : SERVE_END;
        }
        if (!strncmp(p, "qXfer:", 6))
            return put_str(g, t, "E00") ? SERVE_ON : SERVE_END;
        if (!strcmp(p, "qAttached"))
            return put_str(g, t, "1") ? SERVE_ON : SERVE_END;
        if (!strcmp(p, "qC"))
            return put_str(g, t, "QC1") ? SERVE_ON : SERVE_END;
        if (!strcmp(p, "qfThreadInfo"))
            return put_str(g, t, "m1") ? SERVE_ON : SERVE_END;
        if (!strcmp(p, "qsThreadInfo"))
            return put_str(g, t, "l") ? SERVE_ON : SERVE_END;
        if (!strncmp(p, "qSymbol", 7))
            return put_str(g, t, "OK") ? SERVE_ON : SERVE_END;
        if (!strncmp(p, "qRcmd,", 6)) {
            char cmd[256];
            size_t n = 0;
            for (q = p + 6; q[0] && q[1] && n + 1 < sizeof cmd; q += 2) {
                int h = hexval(q[0]), lo = hexval(q[1]);
                if (h < 0 || lo < 0)
                    return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
                cmd[n++] = (char)(h << 4 | lo);
            }
            cmd[n] = 0;
            monitor(g, t, cmd);
            /* Console output: O packets of hex text, as many as it takes, then OK (RSP "qRcmd"). */
            size_t tl = strlen(g->text);
            for (size_t at = 0; at < tl;) {
                size_t k = tl - at < (bufmax - 1) / 2 ? tl - at : (bufmax - 1) / 2;
                static const char hx[] = "0123456789abcdef";
                buf[0] = 'O';
                for (size_t i = 0; i < k; i++) {
                    buf[1 + 2 * i] = hx[(unsigned char)g->text[at + i] >> 4];
                    buf[2 + 2 * i] = hx[g->text[at + i] & 15];
                }
                if (!put_packet(g, t, buf, 1 + 2 * k))
                    return SERVE_END;
                at += k;
            }
            return put_str(g, t, "OK") ? SERVE_ON : SERVE_END;
        }
        return put_str(g, t, "") ? SERVE_ON : SERVE_END;
    case 'v':
        /* vCont with c and s: gdb then steps with s, which knows the length of every word the
         * core runs (an inline Tensix push included), instead of planting breakpoints at the
         * pc its own decoder guesses. One thread: the first action is ours; signals are
         * ignored, as by c and s. */
        if (!strcmp(p, "vCont?"))
            return put_str(g, t, "vCont;c;C;s;S") ? SERVE_ON : SERVE_END;
        if (!strncmp(p, "vCont;", 6)) {
            char act = p[6];
            if (act == 'c' || act == 'C' || act == 's' || act == 'S') {
                g->stepping = act == 's' || act == 'S';
                return SERVE_RESUME;
            }
            return put_str(g, t, "E01") ? SERVE_ON : SERVE_END;
        }
        if (!strncmp(p, "vKill", 5)) {
            put_str(g, t, "OK");
            g->killed = true;
            return SERVE_END;
        }
        return put_str(g, t, "") ? SERVE_ON : SERVE_END;
    default:
        return put_str(g, t, "") ? SERVE_ON : SERVE_END;
    }
}

void gdb_serve_stop(struct tile *t)
{
    struct gdb_stub *g = t->gdb;
    struct rv_core *c = &t->core[g->core];
    if (g->fd >= 0 && (g->stop == GDB_STOP_INITIAL || stop_reply(g, t))) {
        for (;;) {
            int n = get_packet(g, t);
            if (n < 0) {
                if (n == -2) /* Ctrl-C on tensim itself: the run ends as interrupted */
                    g->killed = true;
                break;
            }
            enum served s = handle(g, t, g->in, n);
            if (s == SERVE_ON)
                continue;
            if (s == SERVE_RESUME) {
                if (g->stop == GDB_STOP_ERROR) { /* nothing left to run */
                    put_fmt(g, t, "X%02x", g->signal);
                    break;
                }
                g->skip_pc = c->pc;
                g->skip_instret = c->st.instret;
                g->skip_watch = g->stop == GDB_STOP_WATCH && !g->unit_watch;
                g->stop = GDB_RUNNING;
                return;
            }
            break;
        }
    }
    hang_up(g);
    g->stop = GDB_RUNNING;
}

void gdb_poll_interrupt(struct tile *t, uint64_t w0)
{
    struct gdb_stub *g = t->gdb;
    g->intr_next = w0 + GDB_INTERRUPT_CYCLES;
    if (g->fd < 0)
        return;
    unsigned char b = 0;
    ssize_t r = 1;
    if (g->used < g->have)
        b = (unsigned char)g->rbuf[g->used++];
    else
        r = recv(g->fd, &b, 1, MSG_DONTWAIT);
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        hang_up(g); /* gdb went away: run on */
        return;
    }
    if (r == 1 && b == 0x03) {
        g->stop = GDB_STOP_INTERRUPT;
        g->stop_cycle = w0;
    }
}

void gdb_run_ended(struct tile *t)
{
    struct gdb_stub *g = t->gdb;
    if (g->fd < 0 || g->killed) {
        hang_up(g);
        return;
    }
    enum err_kind k = t->err.kind;
    if (k == ERR_NONE) {
        const struct rv_core *c = &t->core[g->core];
        put_fmt(g, t, "W%02x", c->state == CORE_HALTED ? (unsigned)c->exit_code & 0xFF : 0);
        hang_up(g);
        return;
    }
    /* GDB's signal numbers: SIGILL 4, SIGTRAP 5, SIGSEGV 11, SIGINT 2, SIGABRT 6. */
    g->signal = k == ERR_UNDEF_INSN ? 4 : k == ERR_BREAKPOINT ? 5 : k == ERR_BAD_ACCESS ? 11
              : k == ERR_INTERRUPTED ? 2 : 6;
    g->stop = GDB_STOP_ERROR;
    g->stop_cycle = t->cycles;
    gdb_serve_stop(t);
}
