/* One host worker thread per physical core (hwloc; core/host_pin.c). */
#ifndef TENSIM_CORE_HOST_PIN_H
#define TENSIM_CORE_HOST_PIN_H

struct host_pin;
struct host_pin_saved;

/* The machine's topology, or NULL when hwloc cannot tell (then nothing is pinned). */
struct host_pin *host_pin_open(void);
/* Physical cores (0 for NULL). */
unsigned host_pin_cores(const struct host_pin *p);
/* Bind the calling thread to physical core `worker`. Returns 0, or -1 (left unbound). */
int host_pin_thread(struct host_pin *p, unsigned worker);
/* The calling thread's binding now, for host_pin_restore (NULL when hwloc cannot tell). */
struct host_pin_saved *host_pin_save(struct host_pin *p);
/* Puts back the calling thread's binding saved by host_pin_save, and frees `saved`. */
void host_pin_restore(struct host_pin *p, struct host_pin_saved *saved);
void host_pin_close(struct host_pin *p);

#endif
