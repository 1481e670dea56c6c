/* resample.c: the bootstrap's inner loops (resample.h). At 10^5 rows --print csv draws
 * 4 * 10^8 runs, scores 10^8 resamples and takes 2 * 10^5 pairs of percentiles: these loops
 * were four fifths of its time. No terminal here. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "resample.h"
#include "rng.h"
#include "select.h"

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

static atomic_bool forced_plain; /* read by the threads drawing intervals */

void resample_force_plain(bool plain)
{
	atomic_store(&forced_plain, plain);
}

static double min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		m = x[i] < m ? x[i] : m;
	return m;
}

static double max_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		m = x[i] > m ? x[i] : m;
	return m;
}

/* Percentiles 5 and 95 of x[RESAMPLE_B] (reordered) by two selections (select_kth), not a sort of
 * 1000 values: i95 among all, then i5 + 1 among the i95 below it, so that both neighbours left
 * to find lie in the 50 values beside a selected one. The plain version of boot_pct. */
static void pct_select(double *x, size_t i5, size_t i95, double *a5, double *b5, double *a95,
		       double *b95)
{
	select_kth(x, RESAMPLE_B, i95);
	*a95 = x[i95];
	*b95 = min_of(x + i95 + 1, RESAMPLE_B - i95 - 1);
	*b5 = select_kth(x, i95, i5 + 1);
	*a5 = max_of(x, i5 + 1);
}

#define PCT_BUCKETS 64

/* Where ranks r and r + 1 of the values lie given the counts of the buckets: buckets [*ba,
 * *bb], after *below values of the buckets before. */
static void pct_buckets(const unsigned *cnt, size_t r, size_t *below, unsigned *ba, unsigned *bb)
{
	size_t in = 0;
	unsigned a = 0, b;

	while (in + cnt[a] <= r)
		in += cnt[a++];
	*below = in;
	b = a;
	for (in += cnt[a]; in <= r + 1; in += cnt[++b])
		;
	*ba = a;
	*bb = b;
}

/* The order statistics r and r + 1 of the values: those of tmp[m], the values of the buckets
 * holding them, offset by the below values of the buckets before (tmp reordered). */
static void pct_pick(double *tmp, size_t m, size_t below, size_t r, double *a, double *b)
{
	*a = select_kth(tmp, m, r - below);
	*b = min_of(tmp + (r - below) + 1, m - (r - below) - 1);
}

/* The least and greatest of x[RESAMPLE_B], in four lanes (no value waits for the one
 * before), and whether a NaN is among them. Without a NaN, the least and greatest do not depend
 * on the order the values are taken in (zeros of either sign give the same buckets). */
static void range_plain(const double *x, double *lo, double *hi, bool *nan)
{
	double n0 = x[0], n1 = x[1], n2 = x[2], n3 = x[3], m0 = n0, m1 = n1, m2 = n2, m3 = n3;
	bool bad = false;

	for (size_t i = 0; i < RESAMPLE_B; i += 4) {
#define LANE(n, m, v) do { n = (v) < n ? (v) : n; m = (v) > m ? (v) : m; } while (0)
		LANE(n0, m0, x[i]);
		LANE(n1, m1, x[i + 1]);
		LANE(n2, m2, x[i + 2]);
		LANE(n3, m3, x[i + 3]);
#undef LANE
		bad |= (x[i] != x[i]) | (x[i + 1] != x[i + 1]) | (x[i + 2] != x[i + 2]) | (x[i + 3] != x[i + 3]);
	}
	n0 = n1 < n0 ? n1 : n0;
	n2 = n3 < n2 ? n3 : n2;
	m0 = m1 > m0 ? m1 : m0;
	m2 = m3 > m2 ? m3 : m2;
	*lo = n2 < n0 ? n2 : n0;
	*hi = m2 > m0 ? m2 : m0;
	*nan = bad;
}

/* The bucket of each value, (x - lo) * scale truncated, at most PCT_BUCKETS (f >= 0). */
static inline unsigned bucket_of(double v, double lo, double scale)
{
	double f = (v - lo) * scale;

	return (unsigned)(int)(f < PCT_BUCKETS ? f : PCT_BUCKETS);
}

/* Each value's bucket into bk. */
static void buckets_plain(const double *x, double lo, double scale, unsigned char *bk)
{
	for (size_t i = 0; i < RESAMPLE_B; i++)
		bk[i] = (unsigned char)bucket_of(x[i], lo, scale);
}

/* The values of buckets [ba, bb] into t in their order; how many. Each value is written and
 * the end moves past it where it belongs: no branch on the values (one mispredicted on one
 * value in twenty: half the time of the percentiles). */
static size_t gather_plain(const double *x, const unsigned char *bk, unsigned ba, unsigned bb, double *t)
{
	size_t m = 0;

	for (size_t i = 0; i < RESAMPLE_B; i++) {
		t[m] = x[i];
		m += (unsigned)bk[i] - ba <= bb - ba;
	}
	return m;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WIDE_TARGET __attribute__((target("avx512f,avx512dq")))
#define HAVE_WIDE 1

/* range_plain eight values at a time: _mm512_min_pd(v, m) is v < m ? v : m, lane by lane. */
WIDE_TARGET static void range_wide(const double *x, double *lo, double *hi, bool *nan)
{
	__m512d mn = _mm512_loadu_pd(x), mx = mn;
	__mmask8 un = _mm512_cmp_pd_mask(mn, mn, _CMP_UNORD_Q);

	for (size_t i = 8; i < RESAMPLE_B; i += 8) {
		__m512d v = _mm512_loadu_pd(x + i);
		mn = _mm512_min_pd(v, mn);
		mx = _mm512_max_pd(v, mx);
		un |= _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q);
	}
	double a[8], b[8];
	_mm512_storeu_pd(a, mn);
	_mm512_storeu_pd(b, mx);
	*lo = a[0];
	*hi = b[0];
	for (int l = 1; l < 8; l++) {
		*lo = a[l] < *lo ? a[l] : *lo;
		*hi = b[l] > *hi ? b[l] : *hi;
	}
	*nan = un != 0;
}

/* buckets_plain eight values at a time: the same subtraction, product and least (each
 * correctly rounded per lane), truncated, as bytes. */
WIDE_TARGET static void buckets_wide(const double *x, double lo, double scale, unsigned char *bk)
{
	const __m512d l = _mm512_set1_pd(lo), sc = _mm512_set1_pd(scale), top = _mm512_set1_pd(PCT_BUCKETS);

	for (size_t i = 0; i < RESAMPLE_B; i += 8) {
		__m512d f = _mm512_mul_pd(_mm512_sub_pd(_mm512_loadu_pd(x + i), l), sc);
		__m512i b = _mm512_cvttpd_epi64(_mm512_min_pd(f, top));
		_mm_storel_epi64((__m128i *)(void *)(bk + i), _mm512_cvtepi64_epi8(b));
	}
}

/* gather_plain eight values at a time, by a compressing store. */
WIDE_TARGET static size_t gather_wide(const double *x, const unsigned char *bk, unsigned ba, unsigned bb,
				      double *t)
{
	const __m512i a = _mm512_set1_epi64(ba), span = _mm512_set1_epi64(bb - ba);
	size_t m = 0;

	for (size_t i = 0; i < RESAMPLE_B; i += 8) {
		__m512i b = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(bk + i)));
		__mmask8 in = _mm512_cmple_epu64_mask(_mm512_sub_epi64(b, a), span);
		_mm512_mask_compressstoreu_pd(t + m, in, _mm512_loadu_pd(x + i));
		m += (size_t)__builtin_popcount(in);
	}
	return m;
}
#endif

#ifdef HAVE_WIDE
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
	static atomic_int ok = -1; /* asked by every thread: each that finds it unset sets it the same */

	if (atomic_load(&ok) < 0)
		atomic_store(&ok, __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"));
	return atomic_load(&ok) && !atomic_load(&forced_plain);
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
#ifdef HAVE_WIDE
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

/* Percentiles 5 and 95 of x[RESAMPLE_B] (reordered): linear interpolation between closest ranks
 * (numpy's default), so an independent computation can match them exactly. The four order
 * statistics come from 64 buckets of equal width over [min, max]: (x - min) * (64 / width) is
 * monotone in x (each operation rounds monotonically), so a bucket holds exactly the values of
 * its ranks, and a selection runs over the few values of the buckets that hold i5, i5 + 1, i95
 * and i95 + 1 instead of over all (quickselect's branches mispredict on resampled values: the
 * two selections were a third of --print csv's time at 10^5 rows). Values that do not spread
 * (every one equal, a width that does not scale, a NaN or an infinity among them) go to
 * pct_select. The counts go in four tables, so that an increment does not wait for the one
 * before. The passes over the values run eight at a time where the processor can
 * (resample_wide_ok), to the same values. */
void resample_pct(double *x, double *p5, double *p95, bool wide)
{
	double h95 = (RESAMPLE_B - 1) * 0.95, h5 = (RESAMPLE_B - 1) * 0.05;
	size_t i95 = (size_t)floor(h95), i5 = (size_t)floor(h5);
	double a5, b5, a95, b95, lo, hi;
	bool nan;

#ifdef HAVE_WIDE
	wide = wide && resample_wide_ok();
	if (wide)
		range_wide(x, &lo, &hi, &nan);
	else
#else
	(void)wide;
#endif
		range_plain(x, &lo, &hi, &nan);
	double scale = PCT_BUCKETS / (hi - lo);

	if (!nan && hi > lo && isfinite(scale) && isfinite(lo) && isfinite(hi)) {
		unsigned char bk[RESAMPLE_B];
		unsigned cnt4[4][PCT_BUCKETS + 2] = { { 0 } }, cnt[PCT_BUCKETS + 2];
		double t5[RESAMPLE_B], t95[RESAMPLE_B];
		size_t below5, below95, m5, m95;
		unsigned ba5, bb5, ba95, bb95;
#ifdef HAVE_WIDE
		if (wide)
			buckets_wide(x, lo, scale, bk);
		else
#endif
			buckets_plain(x, lo, scale, bk);
		for (size_t i = 0; i < RESAMPLE_B; i++)
			cnt4[i & 3][bk[i]]++;
		for (size_t b = 0; b < PCT_BUCKETS + 2; b++)
			cnt[b] = cnt4[0][b] + cnt4[1][b] + cnt4[2][b] + cnt4[3][b];
		pct_buckets(cnt, i5, &below5, &ba5, &bb5);
		pct_buckets(cnt, i95, &below95, &ba95, &bb95);
#ifdef HAVE_WIDE
		if (wide) {
			m5 = gather_wide(x, bk, ba5, bb5, t5);
			m95 = gather_wide(x, bk, ba95, bb95, t95);
		} else
#endif
		{
			m5 = gather_plain(x, bk, ba5, bb5, t5);
			m95 = gather_plain(x, bk, ba95, bb95, t95);
		}
		pct_pick(t5, m5, below5, i5, &a5, &b5);
		pct_pick(t95, m95, below95, i95, &a95, &b95);
	} else {
		pct_select(x, i5, i95, &a5, &b5, &a95, &b95);
	}
	*p95 = a95 + (h95 - (double)i95) * (b95 - a95);
	*p5 = a5 + (h5 - (double)i5) * (b5 - a5);
}
