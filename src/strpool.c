/* strpool.c: interned strings. Rows repeat a handful of names (round, submitter, benchmark,
 * accelerator) on every line; pooling keeps memory proportional to the distinct text and lets
 * filters compare by pointer. A plain open-addressing table of malloc'd strings. */
#include "dataset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over s[0..len). */
static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Rehashes into cap slots (a power of two). 0, or -1 when out of memory. */
static int pool_resize(struct strpool *p, size_t cap)
{
	char **slots = calloc(cap, sizeof *slots);

	if (!slots)
		return -1;
	for (size_t i = 0; i < p->cap; i++) {
		char *s = p->slots[i];
		if (!s)
			continue;
		size_t j = hash(s, strlen(s)) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = s;
	}
	free(p->slots);
	p->slots = slots;
	p->cap = cap;
	return 0;
}

const char *strpool_intern(struct strpool *p, const char *s, size_t len)
{
	size_t j;
	char *c;

	if ((p->n + 1) * 2 > p->cap && pool_resize(p, p->cap ? p->cap * 2 : 256) < 0)
		return NULL;
	for (j = hash(s, len) & (p->cap - 1); (c = p->slots[j]); j = (j + 1) & (p->cap - 1))
		if (strnlen(c, len + 1) == len && memcmp(c, s, len) == 0)
			return c;
	if (!(c = malloc(len + 1)))
		return NULL;
	memcpy(c, s, len);
	c[len] = '\0';
	p->slots[j] = c;
	p->n++;
	return c;
}

void strpool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->slots[i]);
	free(p->slots);
	memset(p, 0, sizeof *p);
}
