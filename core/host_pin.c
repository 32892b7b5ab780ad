/* Pinning host worker threads (the bench's pool, the tiles' workers of sim_run), one per
 * physical core, with hwloc: two workers never share a core's caches and execution units, and a
 * worker does not wander between cores mid-run. Only the wall time depends on it; the results do
 * not. */
#include "host_pin.h"

#include <hwloc.h>
#include <stdlib.h>

struct host_pin {
    hwloc_topology_t topo;
    unsigned ncores;
};

struct host_pin *host_pin_open(void)
{
    struct host_pin *p = calloc(1, sizeof *p);
    if (!p)
        return 0;
    if (hwloc_topology_init(&p->topo)) {
        free(p);
        return 0;
    }
    int n;
    if (hwloc_topology_load(p->topo) || (n = hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_CORE)) < 1) {
        hwloc_topology_destroy(p->topo);
        free(p);
        return 0;
    }
    p->ncores = (unsigned)n;
    return p;
}

unsigned host_pin_cores(const struct host_pin *p)
{
    return p ? p->ncores : 0;
}

int host_pin_thread(struct host_pin *p, unsigned worker)
{
    if (!p || worker >= p->ncores)
        return -1;
    hwloc_obj_t core = hwloc_get_obj_by_type(p->topo, HWLOC_OBJ_CORE, worker);
    if (!core || !core->cpuset)
        return -1;
    return hwloc_set_cpubind(p->topo, core->cpuset, HWLOC_CPUBIND_THREAD) ? -1 : 0;
}

struct host_pin_saved {
    hwloc_bitmap_t set;
};

struct host_pin_saved *host_pin_save(struct host_pin *p)
{
    struct host_pin_saved *s = p ? calloc(1, sizeof *s) : NULL;
    if (!s)
        return NULL;
    s->set = hwloc_bitmap_alloc();
    if (!s->set || hwloc_get_cpubind(p->topo, s->set, HWLOC_CPUBIND_THREAD)) {
        hwloc_bitmap_free(s->set);
        free(s);
        return NULL;
    }
    return s;
}

void host_pin_restore(struct host_pin *p, struct host_pin_saved *saved)
{
    if (!saved)
        return;
    hwloc_set_cpubind(p->topo, saved->set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(saved->set);
    free(saved);
}

void host_pin_close(struct host_pin *p)
{
    if (!p)
        return;
    hwloc_topology_destroy(p->topo);
    free(p);
}
