/* pool.c: see pool.h. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#define POOL_MAX 16
#define POOL_STACK (1024 * 1024) /* the work keeps its buffers on the heap; under ulimit -v
				  * the default 8 MB a thread would cost more than the work */

static unsigned forced;

void pool_force(unsigned n)
{
	forced = n > POOL_MAX ? POOL_MAX : n;
}

unsigned pool_cpus(void)
{
	cpu_set_t set;
	long n = 0;

	if (forced)
		return forced;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > POOL_MAX)
		n = POOL_MAX;
	return (unsigned)n;
}

struct pool_call {
	void (*work)(void *);
	void *arg;
};

static void *pool_thread(void *p)
{
	const struct pool_call *c = p;

	c->work(c->arg);
	return NULL;
}

void pool_run(unsigned nth, void (*work)(void *arg), void *arg)
{
	struct pool_call call = { work, arg };
	pthread_t th[POOL_MAX];
	pthread_attr_t attr;
	unsigned started = 0;
	int have_attr = pthread_attr_init(&attr) == 0;

	sigset_t all, old;
	int masked;

	if (have_attr)
		pthread_attr_setstacksize(&attr, POOL_STACK);
	/* the threads start with every signal blocked: a signal the program handles (a resize, a
	 * hangup, a fatal one that removes a temporary) goes to the thread that waits for it */
	sigfillset(&all);
	masked = nth > 1 && pthread_sigmask(SIG_SETMASK, &all, &old) == 0;
	for (unsigned k = 1; k < nth && k < POOL_MAX; k++) {
		if (pthread_create(&th[started], have_attr ? &attr : NULL, pool_thread, &call) != 0)
			break;
		started++;
	}
	if (masked)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (have_attr)
		pthread_attr_destroy(&attr);
	work(arg);
	for (unsigned k = 0; k < started; k++)
		pthread_join(th[k], NULL);
}
