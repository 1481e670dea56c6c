/* pool.h: one piece of work shared out among the processors this process may use. The work
 * takes its items itself (an atomic counter in its argument), so the calling thread and the
 * threads started do the same loop, and the caller does it all when no thread can start. */
#ifndef GS_POOL_H
#define GS_POOL_H

/* The processors the process may run on (its affinity: taskset, a cpuset), 1 to 16; or the
 * count pool_force set. */
unsigned pool_cpus(void);

/* Makes pool_cpus answer n (1 to 16; 0: the processors again), so that a test runs threads
 * even on one processor, or none on many. */
void pool_force(unsigned n);

/* Runs work(arg) on the calling thread and on up to nth - 1 threads started for it (fewer when
 * the system refuses one: the others, and the caller, take their items), and returns once
 * every one has returned. Each thread has a 1 MB stack and every signal blocked (they go to
 * the threads that wait for them). */
void pool_run(unsigned nth, void (*work)(void *arg), void *arg);

#endif
