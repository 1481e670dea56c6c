/* rng.c: splitmix64 (see rng.h). */
#include "rng.h"

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit word of state, passes BigCrush, and is
 * fully specified by integer arithmetic, so every platform draws the same sequence. */
void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

double rng_unit(struct rng *r)
{
	/* The top 53 bits fill a double's mantissa exactly: uniform on [0, 1). */
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
