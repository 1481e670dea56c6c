/* table.c: columns and cell texts of the ranked table. */
#include "table.h"

#include <math.h>
#include <stdio.h>

#include "fmt.h"

const struct tcol_info table_cols[TC_COUNT] = {
	[TC_RANK] = { "#", 3, 90, -1, true },
	[TC_SUB] = { "submitter", 10, 40, COL_SUBMITTER, false },
	[TC_SYS] = { "system", 16, 100, COL_SYSTEM, false },
	[TC_FAM] = { "family", 9, 70, COL_FAMILY, false },
	[TC_N] = { "N", 5, 85, COL_N, true },
	[TC_MIN] = { "min", 7, 75, COL_T, true },
	[TC_S] = { "S", 6, 50, COL_S, true },
	[TC_EP] = { "E'", 6, 80, COL_EP, true },
	[TC_E] = { "E", 6, 20, COL_E, true },
	[TC_A] = { "A", 6, 45, COL_A, true },
	[TC_CL] = { "cl", 2, 60, COL_CLUSTER, false },
	[TC_MARK] = { "P", 4, 55, COL_PARETO, false },
	[TC_SPREAD] = { "spread", 6, 30, COL_SPREAD, true },
};

int table_fit(int width, int sep, const int *w, bool *on)
{
	for (;;) {
		int total = 0, ncols = 0, low = -1;
		for (int c = 0; c < TC_COUNT; c++)
			if (on[c]) {
				total += w[c];
				ncols++;
			}
		total += sep * (ncols - 1);
		if (total <= width)
			return total;
		for (int c = 0; c < TC_COUNT; c++)
			if (on[c] && c != TC_SYS && (low < 0 || table_cols[c].prio < table_cols[low].prio))
				low = c;
		if (low < 0)
			return total;
		on[low] = false;
	}
}

const char *table_cell(const struct dataset *ds, const struct analysis *a, size_t i, enum tcol c,
		       char *buf, size_t n)
{
	const struct arow *ar = &a->rows[i];
	const struct row *r = &ds->rows[ar->row];
	char *p;

	switch (c) {
	case TC_RANK: {
		/* digits from the right: this runs for every row of every frame */
		size_t v = i + 1;
		p = buf + n - 1;
		*p = '\0';
		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10) > 0 && p > buf);
		return p;
	}
	case TC_SUB: return r->submitter;
	case TC_SYS: return r->system;
	case TC_FAM: return r->family;
	case TC_N: return fmt_count(ar->N, buf, n);
	case TC_MIN: return fmt_fixed(ar->T, 2, buf, n);
	case TC_S: return fmt_sig(ar->S, 3, buf, n);
	case TC_EP: return fmt_sig(ar->Ep, 3, buf, n);
	case TC_E: return fmt_sig(ar->E, 3, buf, n);
	case TC_A: return fmt_sig(ar->A, 3, buf, n);
	case TC_CL:
		buf[0] = ar->cluster >= 0 && ar->cluster < 26 ? (char)('a' + ar->cluster) : '?';
		buf[1] = '\0';
		return buf;
	case TC_MARK:
		p = buf;
		if (ar->is_ref)
			*p++ = 'R';
		if (ar->pareto)
			*p++ = '*';
		if (a->breakeven == (long)i)
			*p++ = '>';
		/* comparison hygiene: not yet buyable, open division, carried over from an earlier
		 * round, E' against another family's reference */
		if (r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH)
			*p++ = 'v';
		if (ascii_casecmp(r->division, "open") == 0)
			*p++ = 'o';
		if (*r->carried_from)
			*p++ = 'c';
		if (ar->cross_family)
			*p++ = 'x';
		*p = '\0';
		return buf;
	case TC_SPREAD:
		if (isfinite(ar->t_lo) && isfinite(ar->t_hi) && ar->T > 0) {
			char v[32];
			snprintf(buf, n, "%s%%", fmt_fixed((ar->t_hi - ar->t_lo) / ar->T * 100.0, 1, v, sizeof v));
		} else {
			snprintf(buf, n, "-");
		}
		return buf;
	case TC_COUNT: break;
	}
	buf[0] = '\0';
	return buf;
}
