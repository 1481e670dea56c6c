/* strpool.c: see strpool.h. Rows repeat a handful of names (round, submitter, benchmark,
 * accelerator) on every line; pooling keeps memory proportional to the distinct text and lets
 * filters compare by pointer. */
#include "strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a of s[0..len). */
static size_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return (size_t)h;
}

/* s[0..len) as a malloc'd string; NULL when out of memory. */
static char *copy(const char *s, size_t len)
{
	char *c = malloc(len + 1);

	if (c) {
		memcpy(c, s, len);
		c[len] = '\0';
	}
	return c;
}

/* Rehashes into cap slots (a power of two). 0, or -1 when out of memory. */
static int grow(struct strpool *p, size_t cap)
{
	char **slots = calloc(cap, sizeof *slots);

	if (!slots)
		return -1;
	for (size_t i = 0; i < p->cap; i++) {
		if (!p->slots[i])
			continue;
		size_t j = hash(p->slots[i], strlen(p->slots[i])) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = p->slots[i];
	}
	free(p->slots);
	p->slots = slots;
	p->cap = cap;
	return 0;
}

const char *strpool_intern(struct strpool *p, const char *s, size_t len)
{
	size_t j;

	if ((p->n + 1) * 2 > p->cap && grow(p, p->cap ? p->cap * 2 : 256) < 0)
		return NULL;
	for (j = hash(s, len) & (p->cap - 1); p->slots[j]; j = (j + 1) & (p->cap - 1))
		if (strnlen(p->slots[j], len + 1) == len && memcmp(p->slots[j], s, len) == 0)
			return p->slots[j];
	if (!(p->slots[j] = copy(s, len)))
		return NULL;
	p->n++;
	return p->slots[j];
}

const char *strpool_keep(struct strpool *p, const char *s, size_t len)
{
	if (p->nkept == p->kept_cap) {
		size_t cap = p->kept_cap ? p->kept_cap * 2 : 256;
		char **v = realloc(p->kept, cap * sizeof *v);
		if (!v)
			return NULL;
		p->kept = v;
		p->kept_cap = cap;
	}
	char *c = copy(s, len);
	return c ? (p->kept[p->nkept++] = c) : NULL;
}

void strpool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->slots[i]);
	for (size_t i = 0; i < p->nkept; i++)
		free(p->kept[i]);
	free(p->slots);
	free(p->kept);
	memset(p, 0, sizeof *p);
}
