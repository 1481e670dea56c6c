/* strpool.c: interned strings. Rows repeat a handful of names (round, submitter, benchmark,
 * accelerator) on every line; pooling keeps memory proportional to the distinct text and lets
 * filters compare by pointer. A plain open-addressing table; the strings are packed in blocks
 * of 64 KB (a malloc each would cost 16 to 40 bytes more per name: 80 MB at 10^6 rows). */
#include "dataset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A hash of s[0..len) eight bytes at a time (FNV-1a's byte loop was 6.7 M of the eight
 * shipped rounds' 144 M instructions, this is 2.3 M); the finalizer spreads every input bit
 * to the low bits the table indexes by. */
static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, s + i, len - i);
		h = (h ^ w) * 0x100000001b3ull;
	}
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

#define BLOCK ((size_t)64 << 10)
#define MAX_BLOCKS ((size_t)0xffff)

/* The string a slot stands for. */
static char *slot_str(const struct strpool *p, uint32_t ref)
{
	return p->blocks[(ref >> 16) - 1] + (ref & 0xffff);
}

/* Rehashes into cap slots (a power of two). 0, or -1 when out of memory. */
static int pool_resize(struct strpool *p, size_t cap)
{
	uint32_t *slots = calloc(cap, sizeof *slots);
	uint8_t *tags = slots ? malloc(cap) : NULL;

	if (!tags) {
		free(slots);
		return -1;
	}
	for (size_t i = 0; i < p->cap; i++) {
		if (!p->slots[i])
			continue;
		const char *s = slot_str(p, p->slots[i]);
		size_t j = hash(s, strlen(s)) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = p->slots[i];
		tags[j] = p->tags[i];
	}
	free(p->slots);
	free(p->tags);
	p->slots = slots;
	p->tags = tags;
	p->cap = cap;
	return 0;
}

/* A new block of size bytes, kept for strpool_free (NULL when out of memory or out of
 * block numbers). */
static char *block_new(struct strpool *p, size_t size)
{
	if (p->nblocks >= MAX_BLOCKS)
		return NULL;
	char **b = realloc(p->blocks, (p->nblocks + 1) * sizeof *b);

	if (!b)
		return NULL;
	p->blocks = b;
	return (b[p->nblocks] = malloc(size)) ? b[p->nblocks++] : NULL;
}

/* Room for len bytes that never move, its slot reference in *ref (NULL when out of memory). */
static char *pool_alloc(struct strpool *p, size_t len, uint32_t *ref)
{
	if (len > BLOCK / 4) { /* a long string gets a block of its own */
		char *b = block_new(p, len);
		*ref = (uint32_t)p->nblocks << 16;
		return b;
	}
	if (!p->arena || p->used + len > BLOCK) {
		if (!(p->arena = block_new(p, BLOCK)))
			return NULL;
		p->arena_i = p->nblocks - 1;
		p->used = 0;
	}
	*ref = (uint32_t)(p->arena_i + 1) << 16 | (uint32_t)p->used;
	p->used += len;
	return p->arena + p->used - len;
}

uint64_t strpool_hash(const struct strpool *p, const char *s, size_t len)
{
	uint64_t h = hash(s, len);

	if (p->cap) {
		__builtin_prefetch(&p->slots[h & (p->cap - 1)]);
		__builtin_prefetch(&p->tags[h & (p->cap - 1)]);
	}
	return h;
}

const char *strpool_intern_hashed(struct strpool *p, const char *s, size_t len, uint64_t h)
{
	size_t j;
	uint32_t ref;
	char *c;

	if ((p->n + 1) * 2 > p->cap && pool_resize(p, p->cap ? p->cap * 2 : 256) < 0)
		return NULL;
	for (j = h & (p->cap - 1); (ref = p->slots[j]); j = (j + 1) & (p->cap - 1)) {
		if (p->tags[j] != (uint8_t)(h >> 56))
			continue;
		c = slot_str(p, ref);
		if (strnlen(c, len + 1) == len && memcmp(c, s, len) == 0)
			return c;
	}
	if (!(c = pool_alloc(p, len + 1, &ref)))
		return NULL;
	memcpy(c, s, len);
	c[len] = '\0';
	p->slots[j] = ref;
	p->tags[j] = (uint8_t)(h >> 56);
	p->n++;
	return c;
}

const char *strpool_keep(struct strpool *p, const char *s, size_t len)
{
	uint32_t ref;
	char *c = pool_alloc(p, len + 1, &ref);

	if (c) {
		memcpy(c, s, len);
		c[len] = '\0';
	}
	return c;
}

const char *strpool_intern(struct strpool *p, const char *s, size_t len)
{
	return strpool_intern_hashed(p, s, len, hash(s, len));
}

void strpool_reserve(struct strpool *p, size_t n)
{
	size_t cap = p->cap ? p->cap : 256;

	while ((n + 1) * 2 > cap && cap < ((size_t)1 << 30))
		cap *= 2;
	if (cap > p->cap)
		(void)pool_resize(p, cap);
}

void strpool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->slots);
	free(p->tags);
	memset(p, 0, sizeof *p);
}
