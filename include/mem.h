/* mem.h: memory hints shared by the core's big tables. */
#ifndef GS_MEM_H
#define GS_MEM_H

#include <stddef.h>

/* Asks for huge pages over the 2 MB-aligned part of p[0..size) when it spans at least 4 MB:
 * one page fault per 2 MB and fewer TLB misses for tables probed at random. A hint only. */
void mem_advise_huge(void *p, size_t size);

/* Faults in p[0..size) writable without changing a byte of it, so that the page zeroing is done
 * by the caller's thread before another writes there. A hint only: 0, or -1 when the kernel
 * cannot (then nothing happened). */
int mem_populate(void *p, size_t size);

/* For a fresh hash table p[0..size), to be touched all over: huge pages from 4 MB on, below
 * that its pages faulted in at once (each would fault twice, on a probe's read and then on the
 * write). A hint only. */
void mem_table(void *p, size_t size);

#endif
