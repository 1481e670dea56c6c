/* strpool.c: interned strings. Rows repeat a handful of names (round, submitter, benchmark,
 * accelerator) millions of times; pooling keeps memory proportional to the distinct text and
 * lets filters compare by pointer. */
#include "dataset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (64 * 1024)

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static char *pool_alloc(struct strpool *p, size_t len)
{
	char **blocks;
	size_t size;
	char *b;

	if (p->arena && p->used + len <= p->size) {
		b = p->arena + p->used;
		p->used += len;
		return b;
	}
	size = len > BLOCK / 4 ? len : BLOCK; /* big strings get a block of their own */
	b = malloc(size);
	blocks = realloc(p->blocks, (p->nblocks + 1) * sizeof *blocks);
	if (!b || !blocks) {
		free(b);
		if (blocks)
			p->blocks = blocks;
		return NULL;
	}
	p->blocks = blocks;
	p->blocks[p->nblocks++] = b;
	if (size == BLOCK) {
		p->arena = b;
		p->size = size;
		p->used = len;
	}
	return b;
}

static int pool_grow(struct strpool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 256;
	char **slots = calloc(cap, sizeof *slots);

	if (!slots)
		return -1;
	for (size_t i = 0; i < p->cap; i++) {
		char *s = p->slots[i];
		if (!s)
			continue;
		size_t j = hash_bytes(s, strlen(s)) & (cap - 1);
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

	if ((p->n + 1) * 2 > p->cap && pool_grow(p) < 0)
		return NULL;
	j = hash_bytes(s, len) & (p->cap - 1);
	for (; p->slots[j]; j = (j + 1) & (p->cap - 1)) {
		c = p->slots[j];
		if (strncmp(c, s, len) == 0 && c[len] == '\0')
			return c;
	}
	c = pool_alloc(p, len + 1);
	if (!c)
		return NULL;
	memcpy(c, s, len);
	c[len] = '\0';
	p->slots[j] = c;
	p->n++;
	return c;
}

void strpool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->slots);
	memset(p, 0, sizeof *p);
}
