/* test_pool.c: pool_run shares one piece of work among threads: every item taken once, the
 * caller working too, the threads started with every signal blocked and the caller's mask
 * left as it was; pool_cpus and pool_force. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pool.h"

enum { NITEMS = 20000 };

struct work {
	atomic_size_t next;
	atomic_uint taken[NITEMS];
	atomic_uint by_caller;             /* items the calling thread took */
	atomic_uint blocked_bad;           /* a thread not the caller with SIGINT not blocked */
	pthread_t caller;
};

static void work_run(void *arg)
{
	struct work *w = arg;
	bool caller = pthread_equal(pthread_self(), w->caller);
	sigset_t now;

	if (!caller && (pthread_sigmask(SIG_SETMASK, NULL, &now) != 0 || !sigismember(&now, SIGINT) ||
			!sigismember(&now, SIGTERM)))
		atomic_fetch_add(&w->blocked_bad, 1);
	for (;;) {
		size_t i = atomic_fetch_add(&w->next, 1);
		if (i >= NITEMS)
			break;
		atomic_fetch_add(&w->taken[i], 1);
		if (caller)
			atomic_fetch_add(&w->by_caller, 1);
	}
}

static void test_every_item_once(void **state)
{
	static struct work w;
	sigset_t before, after;
	(void)state;

	for (unsigned nth = 1; nth <= 4; nth++) {
		memset(&w, 0, sizeof w);
		w.caller = pthread_self();
		assert_int_equal(pthread_sigmask(SIG_SETMASK, NULL, &before), 0);
		pool_run(nth, work_run, &w);
		assert_int_equal(pthread_sigmask(SIG_SETMASK, NULL, &after), 0);
		for (size_t i = 0; i < NITEMS; i++)
			assert_int_equal(atomic_load(&w.taken[i]), 1);
		assert_int_equal(atomic_load(&w.blocked_bad), 0);
		/* the caller's own mask is as it was: SIGINT still deliverable to it */
		assert_int_equal(sigismember(&before, SIGINT), sigismember(&after, SIGINT));
		if (nth == 1)
			assert_int_equal(atomic_load(&w.by_caller), NITEMS);
	}
}

static void test_cpus_and_force(void **state)
{
	(void)state;
	unsigned n = pool_cpus();
	assert_true(n >= 1 && n <= 16);
	pool_force(3);
	assert_int_equal(pool_cpus(), 3);
	pool_force(99);
	assert_int_equal(pool_cpus(), 16);
	pool_force(0);
	assert_int_equal(pool_cpus(), n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_item_once),
		cmocka_unit_test(test_cpus_and_force),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
