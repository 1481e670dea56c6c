/* olympic.c: the olympic average's window, shared by the importer (which scores) and the
 * explorer's detail view (which shows what was dropped), so the two cannot disagree. */
#include "olympic.h"
#include "bench_reg.h"

size_t olympic_limit(const char *benchmark)
{
	return bench_reg_drop(benchmark);
}

int olympic_window(size_t ok, size_t failed, size_t m, size_t *lo, size_t *hi)
{
	*lo = *hi = 0;
	if (failed > m)
		return 1;
	*lo = m < ok ? m : ok;
	*hi = ok >= m - failed ? ok - (m - failed) : 0;
	if (*hi <= *lo) {
		*hi = *lo;
		return 2;
	}
	return 0;
}
