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
