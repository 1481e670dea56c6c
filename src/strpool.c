/* strpool.c: interned strings. Rows repeat a handful of names (round, submitter, benchmark,
 * accelerator) millions of times; pooling keeps memory proportional to the distinct text and
 * lets filters compare by pointer. Beside each slot are 32 bits of its string's hash, so that a
 * probe or a rehash reads the table alone and touches a string only when the hashes agree. */
#include "dataset.h"
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (64 * 1024)

static uint64_t mix(uint64_t h)
{
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return h;
}

/* Bytes of w outside printable ASCII (0x20..0x7e), as top bits: a byte below 0x20 borrows into
 * its own top bit, one of 0x7f or more has it set after adding 1 or already; a borrow or carry
 * only crosses from a byte already caught, so there are no false alarms. */
static inline uint64_t unplain(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull;
	return ((w - 0x20 * ones) | (w + ones) | w) & (ones << 7);
}

/* Eight bytes at a time, the length mixed in; the tail is one word of bytes already seen and
 * the rest (overlapping loads, no byte-by-byte loop and no call). With check, *plain tells
 * whether every byte is printable ASCII, from the same words. */
static inline uint64_t hash_words(const char *s, size_t len, bool check, bool *plain)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, bad = 0, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		if (check)
			bad |= unplain(w);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
	}
	if (i < len) {
		if (len >= 8) {
			memcpy(&w, s + len - 8, 8);
			if (check)
				bad |= unplain(w);
		} else if (len >= 4) {
			uint32_t a, b;
			memcpy(&a, s, 4);
			memcpy(&b, s + len - 4, 4);
			w = a | (uint64_t)b << 32;
			if (check)
				bad |= unplain(w);
		} else {
			w = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[len / 2] << 8 |
			    (uint64_t)(unsigned char)s[len - 1] << 16;
			if (check) /* the five bytes above, '@' */
				bad |= unplain(w | 0x4040404040000000ull);
		}
		h = (h ^ w) * 0x94d049bb133111ebull;
	}
	if (check)
		*plain = !bad;
	return mix(h);
}

uint64_t strpool_hash(const char *s, size_t len)
{
	return hash_words(s, len, false, NULL);
}

uint64_t strpool_hash_plain(const char *s, size_t len, bool *plain)
{
	return hash_words(s, len, true, plain);
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

/* Rehashes into a table of cap slots (a power of two above 2 n). 0, or -1. */
static int pool_resize(struct strpool *p, size_t cap)
{
	char **slots;
	uint32_t *tags;

	if (cap > ((size_t)1 << 32)) /* the tags give the positions */
		return -1;
	slots = calloc(cap, sizeof *slots);
	tags = malloc(cap * sizeof *tags);
	if (!slots || !tags) {
		free(slots);
		free(tags);
		return -1;
	}
	mem_table(slots, cap * sizeof *slots);
	mem_table(tags, cap * sizeof *tags);
	for (size_t i = 0; i < p->cap; i++) {
		if (!p->slots[i])
			continue;
		size_t j = p->tags[i] & (cap - 1);
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

static int pool_grow(struct strpool *p)
{
	return pool_resize(p, p->cap ? p->cap * 2 : 256);
}

int strpool_reserve(struct strpool *p, size_t n)
{
	size_t cap = p->cap ? p->cap : 256;

	if (n > ((size_t)1 << 31))
		return -1;
	while (cap < 2 * n)
		cap *= 2;
	return cap == p->cap ? 0 : pool_resize(p, cap);
}

void strpool_prefetch(const struct strpool *p, uint64_t h)
{
	if (p->cap) {
		size_t j = (uint32_t)h & (p->cap - 1);
		__builtin_prefetch(&p->slots[j]);
		__builtin_prefetch(&p->tags[j]);
	}
}

const char *strpool_intern_hashed(struct strpool *p, const char *s, size_t len, uint64_t h)
{
	uint32_t tag = (uint32_t)h;
	size_t j, mask;
	char *c;

	if ((p->n + 1) * 2 > p->cap && pool_grow(p) < 0)
		return NULL;
	mask = p->cap - 1;
	for (j = tag & mask; (c = p->slots[j]); j = (j + 1) & mask) {
		if (p->tags[j] == tag && strncmp(c, s, len) == 0 && c[len] == '\0')
			return c;
	}
	c = pool_alloc(p, len + 1);
	if (!c)
		return NULL;
	memcpy(c, s, len);
	c[len] = '\0';
	p->slots[j] = c;
	p->tags[j] = tag;
	p->n++;
	return c;
}

const char *strpool_intern(struct strpool *p, const char *s, size_t len)
{
	return strpool_intern_hashed(p, s, len, strpool_hash(s, len));
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
