/* One bench worker thread per physical core (hwloc; core/bench_pin.c). */
#ifndef TENSIM_CORE_BENCH_PIN_H
#define TENSIM_CORE_BENCH_PIN_H

struct bench_pin;

/* The machine's topology, or NULL when hwloc cannot tell (then nothing is pinned). */
struct bench_pin *bench_pin_open(void);
/* Physical cores (0 for NULL). */
unsigned bench_pin_cores(const struct bench_pin *p);
/* Bind the calling thread to physical core `worker`. Returns 0, or -1 (left unbound). */
int bench_pin_thread(struct bench_pin *p, unsigned worker);
void bench_pin_close(struct bench_pin *p);

#endif
