/* The layers of shared/design.md "Layers" (docs/architecture.md "Layers and owners"), checked on
 * the sources and the built library:
 *   1. no file of a unit includes another unit's header;
 *   2. no unit's object calls a function another unit defines, and mem/ calls none at all
 *      (symbols of build/libtensim.a, from nm);
 *   3. no file but the unit's own touches its state in the tile (`->member` of its registry row);
 *   4. no loop of object files calling each other by name, except inside one unit.
 * The units are read from units/registry.h (its headers and rows), so a new unit is checked as
 * soon as it has a row. `known` lists the crossings that remain, each with the step that removes
 * it (none today); the test also fails when one of them is gone, so the list only shrinks. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MAX_UNITS 16
#define MAX_FINDINGS 256

/* Crossings not yet removed, "where -> what", each with the step that removes it; ended by NULL.
 * None are left: a new one is a layering bug to fix, not to list. */
static const char *const known[] = {NULL};
#define NKNOWN (sizeof known / sizeof known[0] - 1)

struct unit {
    char prefix[32]; /* files units/PREFIX* or sync/PREFIX* (then '.' or '_') */
    char member[32]; /* its state in struct tile */
};

static struct unit units[MAX_UNITS];
static unsigned nunits;
static char findings[MAX_FINDINGS][160];
static unsigned nfindings;

static void finding(const char *where, const char *what)
{
    if (nfindings < MAX_FINDINGS)
        snprintf(findings[nfindings++], sizeof findings[0], "%.80s -> %.70s", where, what);
}

/* The unit headers included by units/registry.h and the rows' tile members. */
static void read_registry(void)
{
    char *src = read_whole_file("units/registry.h", NULL);
    nunits = 0;
    for (char *p = src; (p = strstr(p, "#include \"")); p++) {
        char name[64];
        if (sscanf(p, "#include \"%63[^\"]\"", name) != 1)
            continue;
        char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
        char *dot = strrchr(base, '.');
        if (dot)
            *dot = 0;
        if (!strcmp(base, "unit"))
            continue;
        cr_assert_lt(nunits, MAX_UNITS);
        snprintf(units[nunits++].prefix, sizeof units[0].prefix, "%.31s", base);
    }
    /* misc has no header: its row is its only trace */
    snprintf(units[nunits++].prefix, sizeof units[0].prefix, "misc");
    /* Rows: "X(ID, KIND, DESC, TYPE, MEMBER, ..." */
    for (char *p = strstr(src, "#define TENSIX_UNITS(X)"); p && (p = strstr(p, "    X(")); p++) {
        char desc[64], member[32];
        if (sscanf(p, "    X(%*[^,], %*[^,], %63[^,], %*[^,], %31[^,],", desc, member) != 2)
            continue;
        if (!strcmp(desc, "NULL"))
            continue;
        /* &fpu_unit_desc -> the unit whose prefix starts the descriptor's name */
        for (unsigned u = 0; u < nunits; u++)
            if (!strncmp(desc + 1, units[u].prefix, strlen(units[u].prefix)) ||
                (!strcmp(units[u].prefix, "thcfg") && !strcmp(desc, "&cfg_unit_desc")) ||
                (!strcmp(units[u].prefix, "sync_unit") && !strcmp(desc, "&sync_unit_desc")))
                snprintf(units[u].member, sizeof units[u].member, "%s", member);
    }
    free(src);
    for (unsigned u = 0; u < nunits; u++)
        cr_assert(units[u].member[0], "registry: no row found for unit %s", units[u].prefix);
}

/* The unit a file belongs to (by its name), or -1. */
static int unit_of(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (strncmp(path, "units/", 6) && strncmp(path, "sync/", 5))
        return -1;
    int best = -1;
    size_t best_len = 0;
    for (unsigned u = 0; u < nunits; u++) {
        size_t n = strlen(units[u].prefix);
        if (!strncmp(base, units[u].prefix, n) && (base[n] == '.' || base[n] == '_') && n > best_len)
            best = (int)u, best_len = n;
    }
    return best;
}

static void scan_sources(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert(d, "cannot list %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 3 || (strcmp(e->d_name + n - 2, ".c") && strcmp(e->d_name + n - 2, ".h")))
            continue;
        char path[300];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!strcmp(path, "units/registry.h") || !strcmp(path, "units/unit.c"))
            continue; /* the registry names every unit by design */
        const int own = unit_of(path);
        char *src = read_whole_file(path, NULL);
        /* 1. includes of another unit's header */
        for (char *p = src; own >= 0 && (p = strstr(p, "#include \"")); p++) {
            char name[64];
            if (sscanf(p, "#include \"%63[^\"]\"", name) != 1)
                continue;
            char full[128]; /* the header's path from the top directory */
            if (!strncmp(name, "../", 3))
                snprintf(full, sizeof full, "%s", name + 3);
            else
                snprintf(full, sizeof full, "%s/%s", dir, name);
            const int other = unit_of(full);
            if (other >= 0 && other != own)
                finding(path, name);
        }
        /* 3. another unit's state in the tile */
        for (unsigned u = 0; u < nunits; u++) {
            if ((int)u == own)
                continue;
            char pat[48];
            snprintf(pat, sizeof pat, "->%s", units[u].member);
            size_t pl = strlen(pat);
            for (char *p = src; (p = strstr(p, pat)); p += pl)
                if (p[pl] == '.' || p[pl] == ',' || p[pl] == ')' || p[pl] == ';' || p[pl] == '[') {
                    finding(path, units[u].member);
                    break;
                }
        }
        free(src);
    }
    closedir(d);
}

/* 2. symbols: "OBJ: U sym" and "OBJ: T sym" lines of nm over the library. */
struct sym {
    char obj[64], name[96];
};

static int unit_of_object(const char *obj)
{
    static const char *const dirs[] = {"units/", "sync/"};
    char path[96];
    for (unsigned k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s%s", dirs[k], obj);
        char *dot = strrchr(path, '.');
        strcpy(dot, ".c");
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
            return unit_of(path);
        }
    }
    return -1;
}

static const char *dir_of_object(const char *obj)
{
    static const char *const dirs[] = {"units/", "sync/", "mem/", "core/", "riscv/", "trace/"};
    for (unsigned k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
        char path[96];
        snprintf(path, sizeof path, "%s%s", dirs[k], obj);
        strcpy(strrchr(path, '.'), ".c");
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
            return dirs[k];
        }
    }
    return "";
}

/* 4. No loop of objects that call each other by name, except among one unit's own files: the
 * calls the registry dispatches (descriptors, unit_rows) are registration, not naming. Tarjan's
 * strongly connected components over the object graph. */
#define MAX_OBJS 96
static char objname[MAX_OBJS][64];
static unsigned nobj;
static bool edge[MAX_OBJS][MAX_OBJS];
static int tj_index[MAX_OBJS], tj_low[MAX_OBJS], tj_stack[MAX_OBJS], tj_sp, tj_next;
static bool tj_on[MAX_OBJS];

static unsigned obj_id(const char *name)
{
    for (unsigned i = 0; i < nobj; i++)
        if (!strcmp(objname[i], name))
            return i;
    cr_assert_lt(nobj, MAX_OBJS);
    snprintf(objname[nobj], sizeof objname[0], "%s", name);
    return nobj++;
}

static void strongconnect(unsigned v)
{
    tj_index[v] = tj_low[v] = tj_next++;
    tj_stack[tj_sp++] = (int)v;
    tj_on[v] = true;
    for (unsigned w = 0; w < nobj; w++) {
        if (!edge[v][w])
            continue;
        if (tj_index[w] < 0) {
            strongconnect(w);
            if (tj_low[w] < tj_low[v])
                tj_low[v] = tj_low[w];
        } else if (tj_on[w] && tj_index[w] < tj_low[v]) {
            tj_low[v] = tj_index[w];
        }
    }
    if (tj_low[v] != tj_index[v])
        return;
    /* a component: fine if it is one object or all of one unit's objects */
    int members[MAX_OBJS], n = 0;
    int w;
    do {
        w = tj_stack[--tj_sp];
        tj_on[w] = false;
        members[n++] = w;
    } while (w != (int)v);
    if (n == 1)
        return;
    const int unit = unit_of_object(objname[members[0]]);
    bool one_unit = unit >= 0;
    for (int k = 1; k < n; k++)
        one_unit &= unit_of_object(objname[members[k]]) == unit;
    if (!one_unit) {
        char list[160] = "";
        for (int k = 0; k < n; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? " " : "", objname[members[k]]);
        finding("call loop", list);
    }
}

static void check_cycles(const struct sym *def, unsigned ndef, const struct sym *und, unsigned nund)
{
    nobj = 0;
    memset(edge, 0, sizeof edge);
    for (unsigned i = 0; i < nund; i++) {
        const char *s = und[i].name;
        size_t n = strlen(s);
        if ((n > 10 && !strcmp(s + n - 10, "_unit_desc")) || !strcmp(s, "unit_rows") ||
            !strcmp(s, "unit_desc_of_kind"))
            continue;
        for (unsigned k = 0; k < ndef; k++)
            if (!strcmp(def[k].name, s) && strcmp(def[k].obj, und[i].obj))
                edge[obj_id(und[i].obj)][obj_id(def[k].obj)] = true;
    }
    for (unsigned i = 0; i < nobj; i++)
        tj_index[i] = -1, tj_on[i] = false;
    tj_sp = tj_next = 0;
    for (unsigned i = 0; i < nobj; i++)
        if (tj_index[i] < 0)
            strongconnect(i);
}

static void scan_symbols(void)
{
    const char *lib = fopen("build/libtensim.a", "r") ? "build/libtensim.a" : "build/libtensim-asan.a";
    char cmd[128];
    snprintf(cmd, sizeof cmd, "nm -A %s 2>/dev/null", lib);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run nm");
    static struct sym def[8192], und[8192];
    unsigned ndef = 0, nund = 0;
    char line[300];
    while (fgets(line, sizeof line, p)) {
        /* "lib:obj.o:0000 T name" or "lib:obj.o:         U name" */
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        char a[96], b[96], c[96], type, *name;
        int n = sscanf(c2 + 1, "%95s %95s %95s", a, b, c);
        if (n == 3 && strlen(b) == 1)
            type = b[0], name = c;
        else if (n == 2 && strlen(a) == 1)
            type = a[0], name = b;
        else
            continue;
        struct sym s;
        snprintf(s.obj, sizeof s.obj, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
        snprintf(s.name, sizeof s.name, "%s", name);
        if (type == 'U' && nund < 8192)
            und[nund++] = s;
        else if ((type == 'T' || type == 'D' || type == 'R' || type == 'B') && ndef < 8192)
            def[ndef++] = s;
    }
    pclose(p);
    cr_assert_gt(ndef, 100, "nm found no symbols in %s", lib);
    check_cycles(def, ndef, und, nund);
    for (unsigned i = 0; i < nund; i++) {
        const int user = unit_of_object(und[i].obj);
        const bool in_mem = !strcmp(dir_of_object(und[i].obj), "mem/");
        if (!strcmp(und[i].obj, "unit.o"))
            continue; /* the registry */
        for (unsigned k = 0; k < ndef; k++) {
            if (strcmp(def[k].name, und[i].name))
                continue;
            const int owner = unit_of_object(def[k].obj);
            if (owner >= 0 && ((user >= 0 && owner != user) || in_mem || !strcmp(und[i].obj, "gate.o"))) {
                char where[96];
                snprintf(where, sizeof where, "%.20s%.60s", dir_of_object(und[i].obj), und[i].obj);
                finding(where, und[i].name);
            }
        }
    }
}

Test(layers, units_call_and_include_only_what_their_layer_allows)
{
    read_registry();
    cr_assert_geq(nunits, 8, "units/registry.h lists %u units", nunits);
    nfindings = 0;
    static const char *const dirs[] = {"units", "sync", "mem", "core", "riscv", "trace"};
    for (unsigned k = 0; k < sizeof dirs / sizeof dirs[0]; k++)
        scan_sources(dirs[k]);
    scan_symbols();
    bool seen[NKNOWN + 1] = {0};
    for (unsigned i = 0; i < nfindings; i++) {
        bool listed = false;
        for (unsigned k = 0; known[k]; k++)
            if (!strcmp(findings[i], known[k]))
                listed = seen[k] = true;
        cr_expect(listed, "layer crossing: %s", findings[i]);
    }
    for (unsigned k = 0; known[k]; k++)
        cr_expect(seen[k], "known crossing %s is gone: remove it from test/test_layers.c", known[k]);
}
