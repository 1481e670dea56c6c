/* strpool.h: interned strings. Equal text gives one pointer, so rows compare names by
 * pointer; every string lives until strpool_free. */
#ifndef GS_STRPOOL_H
#define GS_STRPOOL_H

#include <stddef.h>

struct strpool {
	char **slots;       /* open addressing; NULL: free; each string owned */
	size_t cap, n;
	char **kept;        /* strpool_keep's copies, owned */
	size_t nkept, kept_cap;
};

/* The pooled copy of s[0..len) (never NULL unless out of memory); lives until strpool_free. */
const char *strpool_intern(struct strpool *p, const char *s, size_t len);

/* A copy of s[0..len) owned by p, not interned (a text nothing compares by pointer): lives
 * until strpool_free; NULL when out of memory. */
const char *strpool_keep(struct strpool *p, const char *s, size_t len);

/* Frees every string of the pool and zeroes it. */
void strpool_free(struct strpool *p);

#endif
