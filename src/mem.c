/* mem.c: memory hints. */
#include "mem.h"

#include <stdint.h>
#include <sys/mman.h>

void mem_advise_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t e = ((uintptr_t)p + size) & ~(huge - 1);

	if (size >= 2 * huge && e > a)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

int mem_populate(void *p, size_t size)
{
#ifdef MADV_POPULATE_WRITE
	const uintptr_t page = 4096;
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t e = ((uintptr_t)p + size) & ~(page - 1);

	if (e <= a)
		return 0;
	return madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)size;
	return -1;
#endif
}

void mem_table(void *p, size_t size)
{
	if (size >= ((size_t)4 << 20))
		mem_advise_huge(p, size);
	else
		mem_populate(p, size);
}
