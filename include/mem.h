/* mem.h: memory hints shared by the core's big tables. */
#ifndef GS_MEM_H
#define GS_MEM_H

#include <stddef.h>

/* Asks for huge pages over the 2 MB-aligned part of p[0..size) when it spans at least 4 MB:
 * one page fault per 2 MB and fewer TLB misses for tables probed at random. A hint only. */
void mem_advise_huge(void *p, size_t size);

#endif
