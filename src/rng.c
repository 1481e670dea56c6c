/* rng.c: splitmix64 (see rng.h). */
#include "rng.h"

/* The generator itself is inline in rng.h. */
void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed;
}

double rng_unit(struct rng *r)
{
	/* The top 53 bits fill a double's mantissa exactly: uniform on [0, 1). */
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
