/* rng.h: the one deterministic generator (splitmix64): the same sequence on every machine
 * and libc, for k-means seeding and the bootstrap. */
#ifndef GS_RNG_H
#define GS_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s;
};

/* Starts r at seed. */
void rng_seed(struct rng *r, uint64_t seed);

/* The next 64 bits: splitmix64 (Steele, Lea, Flood 2014), one 64-bit word of state, passes
 * BigCrush, fully specified by integer arithmetic, so every platform draws the same sequence.
 * Inline: the bootstrap draws about a million for a summary, and the call was 2 M of the 13 M
 * instructions they cost. */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* The next draw uniform on [0, k), k < 2^32: the high 32 bits scaled (no modulo bias worth
 * the name). */
static inline size_t rng_below(struct rng *r, size_t k)
{
	return (size_t)(((rng_next(r) >> 32) * (uint64_t)k) >> 32);
}

/* Uniform double in [0, 1). */
double rng_unit(struct rng *r);

#endif
