/* resample.c: the bootstrap's inner loop for rows of few runs (resample.h). At 10^5 rows
 * --print csv draws 4 * 10^8 runs and scores 10^8 resamples: this loop was half its time.
 * No terminal here. */
#include <string.h>

#include "resample.h"
#include "rng.h"

/* The 8 fields of 4 bits of x, each in a byte of its own (field i in byte i). */
static inline uint64_t nibbles_to_bytes(uint32_t x)
{
	uint64_t y = x;

	y = (y | (y << 16)) & UINT64_C(0x0000FFFF0000FFFF);
	y = (y | (y << 8)) & UINT64_C(0x00FF00FF00FF00FF);
	return (y | (y << 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
}

/* The sum of sorted positions [lo, hi) of a resample whose draws are counted in the 4-bit
 * fields of w (field v: draws of the run of rank v; k <= 15). Multiplying by 0x11..1 makes
 * field v the number of draws of rank <= v (no field carries: each is at most k <= 15), so the
 * run at sorted position pos is the one of rank #{v : field v <= pos}. The 16 fields go into
 * bytes of two words, each with its top bit set; subtracting pos + 1 from every byte (no byte
 * borrows: 0x80 + field >= pos + 1) leaves a byte's top bit set exactly when its field > pos,
 * so one subtraction, mask and byte sum per word give the rank without a branch. Stepping a
 * run at a time instead (a loop per position, while a field's end is passed) mispredicted:
 * two thirds of --print csv's time at 10^5 rows were this sum. The values are added one by
 * one in sorted order, as a sorted resample adds them. */
static inline double window_sum_packed(const double *s, size_t lo, size_t hi, uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), tops = ones * 0x80;
	uint64_t end = w * UINT64_C(0x1111111111111111);
	uint64_t a = nibbles_to_bytes((uint32_t)end) | tops, b = nibbles_to_bytes((uint32_t)(end >> 32)) | tops;
	double sum = 0;

	for (size_t pos = lo; pos < hi; pos++) {
		uint64_t p1 = (uint64_t)(pos + 1) * ones;
		uint64_t above = (((a - p1) & tops) >> 7) + (((b - p1) & tops) >> 7);
		sum += s[16 - ((above * ones) >> 56)];
	}
	return sum;
}

static void packed_plain(uint64_t seed, size_t k, const uint64_t *inc, const double *s, size_t lo,
			 size_t hi, double sf, size_t nb, double *t)
{
	struct rng g;

	rng_seed(&g, seed);
	for (size_t b = 0; b < nb; b++) {
		uint64_t w = 0;
		for (size_t j = 0; j < k; j++)
			w += inc[rng_below(&g, k)];
		t[b] = window_sum_packed(s, lo, hi, w) / (double)(hi - lo) * sf;
	}
}

static bool forced_plain;

void resample_force_plain(bool plain)
{
	forced_plain = plain;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WIDE_TARGET __attribute__((target("avx512f,avx512dq")))

/* packed_plain with lane L of a 512-bit vector doing resample 8g + L: each lane's draws are
 * the same stream positions (state seed + ((8g + L) * k + j + 1) * gamma for draw j), and its
 * score the same operations in the same order (the sum from 0.0 up, then / (hi - lo), then
 * * sf, each correctly rounded per lane), so every t[b] has the bits packed_plain gives it.
 * The tables (inc by run, s by rank) are two registers each, read by a two-register permute. */
WIDE_TARGET static void packed_wide(uint64_t seed, size_t k, const uint64_t *inc, const double *s,
				    size_t lo, size_t hi, double sf, size_t nb, double *t)
{
	const uint64_t gamma = UINT64_C(0x9E3779B97F4A7C15);
	uint64_t inc16[16] = { 0 };
	double s16[16] = { 0 };
	const __m512i ones = _mm512_set1_epi64((long long)UINT64_C(0x0101010101010101));
	const __m512i tops = _mm512_set1_epi64((long long)UINT64_C(0x8080808080808080));
	const __m512i m1 = _mm512_set1_epi64((long long)UINT64_C(0x0000FFFF0000FFFF));
	const __m512i m2 = _mm512_set1_epi64((long long)UINT64_C(0x00FF00FF00FF00FF));
	const __m512i m3 = _mm512_set1_epi64((long long)UINT64_C(0x0F0F0F0F0F0F0F0F));
	const __m512i low32 = _mm512_set1_epi64((long long)UINT64_C(0xFFFFFFFF));
	const __m512i c1 = _mm512_set1_epi64((long long)UINT64_C(0xBF58476D1CE4E5B9));
	const __m512i c2 = _mm512_set1_epi64((long long)UINT64_C(0x94D049BB133111EB));
	const __m512i fields = _mm512_set1_epi64((long long)UINT64_C(0x1111111111111111));
	const __m512i sixteen = _mm512_set1_epi64(16);
	const __m512i kv = _mm512_set1_epi64((long long)k);
	const __m512i step = _mm512_set1_epi64((long long)gamma);
	const __m512i skip = _mm512_set1_epi64((long long)(gamma * (uint64_t)(7 * k)));
	const __m512d div = _mm512_set1_pd((double)(hi - lo)), scale = _mm512_set1_pd(sf);

	memcpy(inc16, inc, k * sizeof *inc);
	memcpy(s16, s, k * sizeof *s);
	const __m512i inc_lo = _mm512_loadu_si512(inc16), inc_hi = _mm512_loadu_si512(inc16 + 8);
	const __m512d s_lo = _mm512_loadu_pd(s16), s_hi = _mm512_loadu_pd(s16 + 8);
	uint64_t st0[8];
	for (uint64_t l = 0; l < 8; l++)
		st0[l] = seed + (l * k + 1) * gamma;
	__m512i st = _mm512_loadu_si512(st0);

	for (size_t b = 0; b < nb; b += 8) {
		__m512i w = _mm512_setzero_si512();
		for (size_t j = 0; j < k; j++) {
			__m512i z = st;
			st = _mm512_add_epi64(st, step);
			z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), c1);
			z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), c2);
			z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
			__m512i d = _mm512_srli_epi64(_mm512_mul_epu32(_mm512_srli_epi64(z, 32), kv), 32);
			w = _mm512_add_epi64(w, _mm512_permutex2var_epi64(inc_lo, d, inc_hi));
		}
		st = _mm512_add_epi64(st, skip);
		__m512i end = _mm512_mullo_epi64(w, fields);
		__m512i x[2] = { _mm512_and_si512(end, low32), _mm512_srli_epi64(end, 32) };
		for (int h = 0; h < 2; h++) {
			x[h] = _mm512_and_si512(_mm512_or_si512(x[h], _mm512_slli_epi64(x[h], 16)), m1);
			x[h] = _mm512_and_si512(_mm512_or_si512(x[h], _mm512_slli_epi64(x[h], 8)), m2);
			x[h] = _mm512_and_si512(_mm512_or_si512(x[h], _mm512_slli_epi64(x[h], 4)), m3);
			x[h] = _mm512_or_si512(x[h], tops);
		}
		__m512d sum = _mm512_setzero_pd();
		for (size_t pos = lo; pos < hi; pos++) {
			__m512i p1 = _mm512_set1_epi64((long long)((uint64_t)(pos + 1) * UINT64_C(0x0101010101010101)));
			__m512i above = _mm512_add_epi64(
				_mm512_srli_epi64(_mm512_and_si512(_mm512_sub_epi64(x[0], p1), tops), 7),
				_mm512_srli_epi64(_mm512_and_si512(_mm512_sub_epi64(x[1], p1), tops), 7));
			__m512i rank = _mm512_sub_epi64(sixteen, _mm512_srli_epi64(_mm512_mullo_epi64(above, ones), 56));
			sum = _mm512_add_pd(sum, _mm512_permutex2var_pd(s_lo, rank, s_hi));
		}
		_mm512_storeu_pd(t + b, _mm512_mul_pd(_mm512_div_pd(sum, div), scale));
	}
}

bool resample_wide_ok(void)
{
	static int ok = -1; /* the same answer for every thread: a race writes the same value */

	if (ok < 0)
		ok = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
	return ok && !forced_plain;
}
#else
bool resample_wide_ok(void)
{
	return false;
}
#endif

int resample_packed(uint64_t seed, size_t k, const uint64_t *inc, const double *s, size_t lo,
		    size_t hi, double sf, size_t nb, double *t, bool wide)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (wide && nb % 8 == 0 && resample_wide_ok()) {
		packed_wide(seed, k, inc, s, lo, hi, sf, nb, t);
		return 1;
	}
#else
	(void)wide;
#endif
	packed_plain(seed, k, inc, s, lo, hi, sf, nb, t);
	return 0;
}
