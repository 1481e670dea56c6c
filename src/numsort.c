/* numsort.c: least significant digit first, eight bits a pass, over the keys' 64 bits; a pass
 * where every key has the same byte is skipped (the high bytes of numbers of one magnitude, the
 * bytes after a name's end). */
#include "numsort.h"

#include <math.h>
#include <string.h>

uint64_t numsort_key(double x, int dir)
{
	uint64_t b;

	if (isnan(x))
		return UINT64_MAX;
	if (x == 0)
		x = 0; /* -0 compares equal to 0 */
	memcpy(&b, &x, sizeof b);
	/* negative numbers: every bit flipped (larger magnitude first); others: above them */
	b = b >> 63 ? ~b : b | (UINT64_C(1) << 63);
	/* descending: the order turned around; no number's key reaches UINT64_MAX either way */
	return dir < 0 ? ~b : b;
}

struct numsort_item *numsort_run(struct numsort_item *it, struct numsort_item *tmp, size_t n)
{
	uint64_t diff = 0;

	if (n < 2)
		return it;
	/* the bytes where keys differ: the others need no pass, and no count to find that out */
	for (size_t i = 1; i < n; i++)
		diff |= it[i].key ^ it[0].key;
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t cnt[256] = { 0 };
		if (!((diff >> shift) & 0xff))
			continue;
		for (size_t i = 0; i < n; i++)
			cnt[(it[i].key >> shift) & 0xff]++;
		for (size_t d = 0, sum = 0; d < 256; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[cnt[(it[i].key >> shift) & 0xff]++] = it[i];
		struct numsort_item *t = it;
		it = tmp;
		tmp = t;
	}
	return it;
}
