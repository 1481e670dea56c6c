/* rng.h: the one deterministic generator (splitmix64): the same sequence on every machine
 * and libc, for k-means seeding and the bootstrap. */
#ifndef GS_RNG_H
#define GS_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;
};

/* Starts r at seed. */
void rng_seed(struct rng *r, uint64_t seed);

/* The next 64 bits. */
uint64_t rng_next(struct rng *r);

/* Uniform double in [0, 1). */
double rng_unit(struct rng *r);

#endif
