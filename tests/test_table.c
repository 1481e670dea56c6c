/* test_table.c: the table's layout (names get the room, a wider table never gives the system
 * names less, no unused columns while names are cut), row names that collide, and the one
 * cut by display width (text_cut) it relies on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "dataset.h"
#include "chart.h"
#include "table.h"
#include "text.h"

static const struct table_opts print = { TABLE_PRINT, 2, -1, NULL };

static uint64_t rng = 88172645463325252u;
static unsigned next(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* For random measures and every width 1..400: the table never exceeds the width, the names
 * are cut before a kept column (N, min, E', A, the round) goes, the system column never
 * narrows as the width grows once every kept column shows, and while the names are cut no
 * column is left unused. */
static void plan_gives_names_the_room(void **state)
{
	(void)state;
	for (int round = 0; round < 300; round++) {
		struct table_view v = { 0 };
		int prev = 0, keep = 0, nkeep = 0;
		for (int c = 0; c < TC_COUNT; c++)
			v.need[c] = 1 + (int)next(c == TC_SYS || c == TC_SUB || c == TC_FAM ? 60 : 9);
		/* the narrowest table of the kept columns, the names cut */
		for (int c = 0; c < TC_COUNT; c++)
			if (c == TC_SYS || c == TC_RANK || table_cols[c]->prio >= TABLE_PRIO_KEEP) {
				keep += c == TC_SYS && v.need[c] > TABLE_NAME_CUT ? TABLE_NAME_CUT : v.need[c];
				nkeep++;
			}
		keep += 2 * (nkeep - 1);
		for (int width = 1; width <= 400; width++) {
			bool on[TC_COUNT];
			int w[TC_COUNT], total = 0, n = 0;
			int used = table_plan(&v, &print, width, on, w);
			for (int c = 0; c < TC_COUNT; c++)
				if (on[c]) {
					total += w[c];
					n++;
				}
			total += 2 * (n - 1);
			assert_true(on[TC_SYS]);
			if (width > v.need[TC_RANK] + 2)
				assert_true(on[TC_RANK]); /* rows stay countable */
			assert_int_equal(used, total);
			assert_true(total <= width);
			if (w[TC_SYS] < prev && width > keep)
				fail_msg("width %d gives the system %d columns, width %d gave %d", width, w[TC_SYS],
					 width - 1, prev);
			prev = w[TC_SYS];
			if (w[TC_SYS] < v.need[TC_SYS] && total != width)
				fail_msg("width %d: names cut to %d of %d with %d columns unused", width, w[TC_SYS],
					 v.need[TC_SYS], width - total);
			for (int c = 0; c < TC_COUNT; c++) {
				if (on[c] && c != TC_SYS && c != TC_SUB && c != TC_FAM)
					assert_int_equal(w[c], v.need[c]); /* numbers are never cut */
				/* the names are cut before a kept column goes */
				if (width >= keep && table_cols[c]->prio >= TABLE_PRIO_KEEP && !on[c])
					fail_msg("width %d (kept columns fit from %d) drops column %s", width, keep,
						 table_cols[c]->head);
			}
		}
	}
}

/* The screen's policy: numbers at the registry's widths with room for the sort arrow, the
 * sort column shown at every width that holds the kept columns, the columns not chosen never
 * shown, and the same promises as --print's (fits, kept columns, names never narrower). */
static void screen_policy_keeps_the_sort_column(void **state)
{
	(void)state;
	for (int round = 0; round < 200; round++) {
		struct table_view v = { 0 };
		bool want[TC_COUNT];
		int force = (int)next(TC_COUNT), hidden = (int)next(TC_COUNT), prev = 0, keep = 0, nkeep = 0;
		struct table_opts o = { TABLE_SCREEN, 1, force == TC_SYS ? -1 : force, want };

		for (int c = 0; c < TC_COUNT; c++) {
			v.need[c] = 1 + (int)next(c == TC_SYS || c == TC_SUB || c == TC_FAM ? 60 : 9);
			want[c] = c != hidden;
		}
		for (int c = 0; c < TC_COUNT; c++)
			if (c == TC_SYS || c == TC_RANK || c == o.force || table_cols[c]->prio >= TABLE_PRIO_KEEP) {
				int hw = (int)strlen(table_cols[c]->head) + 2, cw = table_cols[c]->w > hw ? table_cols[c]->w : hw;
				keep += c == TC_SYS ? TABLE_NAME_CUT : cw;
				nkeep++;
			}
		keep += nkeep - 1;
		for (int width = 1; width <= 300; width++) {
			bool on[TC_COUNT];
			int w[TC_COUNT];
			int used = table_plan(&v, &o, width, on, w);
			assert_true(used <= width || width < keep);
			assert_true(on[TC_SYS]);
			if (width >= keep) {
				if (o.force >= 0)
					assert_true(on[o.force]);
				if (w[TC_SYS] < prev)
					fail_msg("screen, width %d: the system %d columns, %d before", width, w[TC_SYS], prev);
				prev = w[TC_SYS];
			}
			if (hidden != TC_SYS && hidden != o.force)
				assert_false(on[hidden]);
			for (int c = 0; c < TC_COUNT; c++)
				if (on[c] && c != TC_SYS && c != TC_SUB && c != TC_FAM) {
					int hw = (int)strlen(table_cols[c]->head) + 2;
					assert_int_equal(w[c], table_cols[c]->w > hw ? table_cols[c]->w : hw);
				}
		}
	}
}

static void plan_without_limit_is_the_measure(void **state)
{
	struct table_view v = { 0 };
	bool on[TC_COUNT];
	int w[TC_COUNT], all = 0;

	(void)state;
	for (int c = 0; c < TC_COUNT; c++) {
		v.need[c] = 3 + c;
		/* the split's columns show in --print's table only when --columns names them */
		all += table_cols[c]->asked ? 0 : v.need[c] + (c ? 2 : 0);
	}
	assert_int_equal(table_plan(&v, &print, 0, on, w), all);
	for (int c = 0; c < TC_COUNT; c++) {
		assert_true(on[c] == !table_cols[c]->asked);
		if (on[c])
			assert_int_equal(w[c], v.need[c]);
	}
}

/* A long name: the distinguishing tail stays, with one cut mark. */
static void cut_keeps_the_tail(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(text_cut("8xXE9680x8H100-SXM-80GB-POWER", 22, buf, sizeof buf), 22);
	assert_string_equal(buf, "8xXE9680x8H~80GB-POWER");
	assert_int_equal(text_cut("8xXE9680x8H100-SXM-80GB", 22, buf, sizeof buf), 22);
	assert_string_equal(buf, "8xXE9680x8H~0-SXM-80GB");
	assert_int_equal(text_cut("café-1", 6, buf, sizeof buf), 6);
	assert_string_equal(buf, "café-1");
	assert_int_equal(text_cut("café-12", 6, buf, sizeof buf), 6);
	assert_string_equal(buf, "caf~12");
	/* a wide character that does not fit is not cut: its column goes unused */
	assert_int_equal(text_cut("系统-2", 4, buf, sizeof buf), 4);
	assert_string_equal(buf, "系~2");
	assert_int_equal(text_cut("系统系统", 4, buf, sizeof buf), 3);
	assert_string_equal(buf, "系~");
	assert_int_equal(text_columns("系统-2"), 6);
	assert_int_equal(text_columns("e\xcc\x81"), 1); /* e + combining acute */
	assert_int_equal(text_cut("abc", 0, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	assert_int_equal(text_cut("abcdef", 1, buf, sizeof buf), 1);
	assert_string_equal(buf, "~");
	/* what the sanitizer replaces is one '?' per byte, never a raw control */
	assert_int_equal(text_cut("a\x1b[2Jb", 10, buf, sizeof buf), 6);
	assert_string_equal(buf, "a?[2Jb");
}

/* Random byte strings, every width 0..40: the cut is valid UTF-8 (a strict decoder's view),
 * has no control byte, and takes what it says, within the width. */
static void cut_is_valid_utf8(void **state)
{
	static const char *const parts[] = { "a", "Z", "-", "é", "系", "统", "\xcc\x81", "\xff", "\xe2\x80\xae",
					     "\xc2\x85", "\x1b", "\xe7\xb3", "\xf0\x9f\x98\x80", " " };
	(void)state;
	for (int round = 0; round < 3000; round++) {
		char s[256] = "", buf[256];
		int k = (int)next(30);
		for (int i = 0; i < k; i++)
			strcat(s, parts[next(sizeof parts / sizeof parts[0])]);
		for (int w = 0; w <= 40; w++) {
			int cols = text_cut(s, w, buf, sizeof buf);
			size_t len = strlen(buf);
			assert_true(cols <= w);
			assert_int_equal(cols, text_columns(buf));
			for (size_t i = 0; i < len;) {
				const unsigned char *c = (const unsigned char *)buf + i;
				size_t l = 1;
				if (*c < 0x20 || *c == 0x7f)
					fail_msg("control byte 0x%02x in the cut of width %d", *c, w);
				if (*c >= 0x80 && (l = utf8_seq_len(c, len - i)) == 0)
					fail_msg("invalid UTF-8 at byte %zu of the cut of width %d", i, w);
				i += l;
			}
		}
	}
}

/* One system id under two submitters is shown SUBMITTER/SYSTEM; an id of one submitter is not. */
static void collided_ids_are_qualified(void **state)
{
	static const char csv[] =
		"round,submitter,system,accelerators,benchmark,minutes\n"
		"v1,alpha,box-8,8,bert,10\n"
		"v1,beta,box-8,8,bert,11\n"
		"v1,alpha,solo,16,bert,6\n";
	struct dataset ds;
	struct analysis a;
	struct params p;
	struct table_view v = { 0 };
	struct gs_err err;
	char buf[256];
	int qualified = 0;

	(void)state;
	memset(&ds, 0, sizeof ds);
	memset(&a, 0, sizeof a);
	params_init(&p);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, sizeof csv - 1, &err), 0);
	dataset_classify(&ds);
	assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
	assert_int_equal(table_measure(&v, &ds, &a), 0);
	for (size_t i = 0; i < a.n; i++) {
		const char *name = table_cell(&v, &ds, &a, i, TC_SYS, buf, sizeof buf);
		const struct row *r = &ds.rows[a.rows[i].row];
		if (strcmp(r->system, "solo") == 0) {
			assert_string_equal(name, "solo");
		} else {
			char want[64];
			snprintf(want, sizeof want, "%s/box-8", r->submitter);
			assert_string_equal(name, want);
			qualified++;
		}
	}
	assert_int_equal(qualified, 2);
	assert_int_equal(v.need[TC_SYS], (int)strlen("alpha/box-8"));
	/* no view: the plain id */
	assert_string_equal(table_cell(NULL, &ds, &a, 0, TC_SYS, buf, sizeof buf), ds.rows[a.rows[0].row].system);
	table_view_free(&v);
	analysis_free(&a);
	dataset_free(&ds);
}

/* table_names, the one detector and measure of names both the screen and --print use: the
 * widest name (SUBMITTER/SYSTEM counted for shared ids), in columns or, for a terminal without
 * UTF-8, in bytes; the round column only when the rows span rounds; kWh and cost only with a
 * value; every other column its heading's width. */
static void names_measured_once(void **state)
{
	static const char csv[] =
		"round,submitter,system,accelerators,benchmark,minutes,accelerator\n"
		"v4.1,alpha,box-8,8,bert,10,H100\n"
		"v4.1,beta,box-8,8,bert,11,H100\n"
		"v4.1,caf\xc3\xa9-team,caf\xc3\xa9-16-longer,16,bert,6,H100\n"
		"v4.0,alpha,old-8,8,bert,12,H100\n";
	struct dataset ds;
	struct analysis a;
	struct params p;
	struct table_view v = { 0 };
	struct gs_err err;

	(void)state;
	memset(&ds, 0, sizeof ds);
	memset(&a, 0, sizeof a);
	params_init(&p);
	p.round = "v4.1";
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, sizeof csv - 1, &err), 0);
	dataset_classify(&ds);
	assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
	assert_int_equal(table_names(&v, &ds, &a), 0);
	assert_int_equal(v.need[TC_SYS], (int)strlen("café-16-longer") - 1); /* beats alpha/box-8 */
	assert_int_equal(v.need[TC_SUB], (int)strlen("café-team") - 1);     /* é is one column */
	assert_int_equal(v.need[TC_ROUND], 0);
	assert_int_equal(v.need[TC_KWH], 0);
	assert_int_equal(v.need[TC_COST], 0);
	assert_int_equal(v.need[TC_N], 1);
	for (size_t i = 0; i < a.n; i++) {
		const struct row *r = &ds.rows[a.rows[i].row];
		assert_int_equal(v.qualified[a.rows[i].row], strcmp(r->system, "box-8") == 0);
	}
	/* bytes: the é takes two */
	v.bytes = true;
	assert_int_equal(table_names(&v, &ds, &a), 0);
	assert_int_equal(v.need[TC_SYS], (int)strlen("café-16-longer"));
	assert_int_equal(v.need[TC_SUB], (int)strlen("café-team"));
	/* both rounds: the round column is measured */
	p.all_rounds = true;
	v.bytes = false;
	assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
	assert_int_equal(table_names(&v, &ds, &a), 0);
	/* the round after its plot letter: "a v4.0" */
	assert_int_equal(v.need[TC_ROUND], (int)strlen("a v4.1"));
	table_view_free(&v);
	analysis_free(&a);
	dataset_free(&ds);
}

/* One meaning per letter: the table writes each row's plot letter before its family (family
 * mode) or its round (the cross-round view), the same letter chart_points gives its point, and
 * names clusters by number (1 for the first), never by a letter. */
static void letters_match_the_plot(void **state)
{
	static const char csv[] =
		"round,submitter,system,accelerators,benchmark,minutes,accelerator\n"
		"v4.1,a,h8,8,bert,10,NVIDIA H100-SXM5-80GB\n"
		"v4.1,a,h16,16,bert,6,NVIDIA H100-SXM5-80GB\n"
		"v4.1,a,b8,8,bert,4,NVIDIA B200-SXM-180GB\n"
		"v4.1,a,b64,64,bert,1,NVIDIA B200-SXM-180GB\n"
		"v4.1,a,m8,8,bert,9,AMD Instinct MI300X\n"
		"v4.0,a,h8,8,bert,11,NVIDIA H100-SXM5-80GB\n";
	static const enum ref_mode modes[] = { REF_FAMILY, REF_PAPER };
	struct dataset ds;
	struct analysis a;
	struct params p;
	struct table_view v = { 0 };
	struct gs_err err;
	char buf[128];

	(void)state;
	memset(&ds, 0, sizeof ds);
	memset(&a, 0, sizeof a);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, sizeof csv - 1, &err), 0);
	dataset_classify(&ds);
	for (int pass = 0; pass < 3; pass++) {
		struct chart_opts o = { 0 };
		struct plot_point pts[8];
		params_init(&p);
		p.round = "v4.1";
		p.mode = modes[pass == 1];
		p.all_rounds = pass == 2;
		assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
		assert_int_equal(table_measure(&v, &ds, &a), 0);
		o.metric = MET_EP;
		o.group = chart_group_of(&p);
		assert_int_equal(chart_group_of_analysis(&a), o.group);
		chart_points(&ds, &a, &o, -1, pts);
		for (size_t i = 0; i < a.n; i++) {
			const struct row *r = &ds.rows[a.rows[i].row];
			char want[64];
			/* the cluster column: a number from 1 */
			snprintf(want, sizeof want, "%d", a.rows[i].cluster + 1);
			assert_string_equal(table_cell(&v, &ds, &a, i, TC_CL, buf, sizeof buf), want);
			if (o.group == GROUP_CLUSTER) {
				/* the letters are the clusters' (the legend says a = 1): no letter in
				 * the family column */
				assert_string_equal(table_cell(&v, &ds, &a, i, TC_FAM, buf, sizeof buf), r->family);
				continue;
			}
			snprintf(want, sizeof want, "%c %s", 'a' + pts[i].cluster,
				 o.group == GROUP_FAMILY ? r->family : r->round);
			assert_string_equal(table_cell(&v, &ds, &a, i, o.group == GROUP_FAMILY ? TC_FAM : TC_ROUND,
						       buf, sizeof buf), want);
		}
	}
	table_view_free(&v);
	analysis_free(&a);
	dataset_free(&ds);
}

/* A view reused over several row sets (the explorer's), and after a row's name is swapped for
 * another, measures what a fresh view measures; a name of 300 bytes is measured whole. */
static void names_reused_matches_fresh(void **state)
{
	enum { NR = 700 };
	static char csv[NR * 400 + 200];
	static char longname[301];
	struct dataset ds;
	struct analysis a;
	struct params p;
	struct table_view kept = { 0 };
	struct gs_err err;
	size_t len;
	const char *accel[] = { "H100", "A100", "B200" };

	(void)state;
	memset(longname, 'x', 300);
	len = (size_t)snprintf(csv, sizeof csv, "round,submitter,system,accelerators,benchmark,minutes,accelerator\n");
	for (int i = 0; i < NR; i++)
		/* the first 64 rows are another round's: a whole word of the mark unshown, then the
		 * widest name of v1 bert just after it */
		len += (size_t)snprintf(csv + len, sizeof csv - len, "v%d,sub%d,%s%d%s,%d,%s,%d,%s\n",
					i < 64 ? 3 : 1 + i % 2, i % 37, i == 500 ? longname : "sys", i,
					i == 100 ? "-caf\xc3\xa9-wider" : "",
					1 << (i % 9), i % 3 ? "bert" : "resnet", 10 + i % 13, accel[i % 3]);
	memset(&ds, 0, sizeof ds);
	memset(&a, 0, sizeof a);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, len, &err), 0);
	dataset_classify(&ds);
	for (int pass = 0; pass < 12; pass++) {
		struct table_view fresh = { 0 };
		params_init(&p);
		p.round = pass % 4 < 2 ? "v1" : "v2";
		p.workload = pass % 2 ? "resnet" : "bert";
		p.all_rounds = pass >= 8;
		if (pass == 6) /* a row's name swapped for another */
			for (size_t i = 0; i < ds.n; i++)
				if (strlen(ds.rows[i].system) > 250)
					ds.rows[(i + 1) % ds.n].system = ds.rows[i].system;
		kept.bytes = fresh.bytes = pass % 5 == 4;
		assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
		assert_true(a.n > 0);
		assert_int_equal(table_names(&kept, &ds, &a), 0);
		assert_int_equal(table_names(&fresh, &ds, &a), 0);
		assert_memory_equal(kept.need, fresh.need, sizeof kept.need);
		table_view_free(&fresh);
	}
	table_view_free(&kept);
	analysis_free(&a);
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_gives_names_the_room),
		cmocka_unit_test(screen_policy_keeps_the_sort_column),
		cmocka_unit_test(plan_without_limit_is_the_measure),
		cmocka_unit_test(cut_keeps_the_tail),
		cmocka_unit_test(cut_is_valid_utf8),
		cmocka_unit_test(collided_ids_are_qualified),
		cmocka_unit_test(names_measured_once),
		cmocka_unit_test(letters_match_the_plot),
		cmocka_unit_test(names_reused_matches_fresh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
