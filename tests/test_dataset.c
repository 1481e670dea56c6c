/* Results CSV loader, families and dataset queries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glob.h>
#include <jansson.h>

#include "dataset.h"
#include "text.h"

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct dataset ds;
static struct gs_err err;

static int setup(void **state)
{
	(void)state;
	memset(&ds, 0, sizeof ds);
	memset(&err, 0, sizeof err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dataset_free(&ds);
	return 0;
}

static int load(const char *text)
{
	return dataset_load_buffer(&ds, "t.csv", text, strlen(text), &err);
}

/* True when some kept warning contains s. */
static bool warned(const char *s)
{
	for (size_t i = 0; i < ds.warn.n; i++)
		if (strstr(ds.warn.items[i], s))
			return true;
	return false;
}

static void columns_in_any_order(void **state)
{
	(void)state;
	assert_int_equal(load("minutes,benchmark,extra,accelerators,system\n"
			      "12.5,bert,zz,8,sysA\n3.25,bert,,16,sysB\n"), 0);
	assert_int_equal(ds.n, 2);
	assert_string_equal(ds.rows[0].system, "sysA");
	assert_true(ds.rows[0].minutes == 12.5);
	assert_int_equal(ds.rows[1].accelerators, 16);
	/* optional columns absent: defaults */
	assert_string_equal(ds.rows[0].submitter, "");
	assert_int_equal(ds.rows[0].runs_scored, -1);
	assert_true(ds.rows[0].scaling_factor == 1.0);
	/* no round column: the file name */
	assert_string_equal(ds.rows[0].round, "t");
	assert_int_equal(ds.warn.total, 0);
}

static void full_row_and_runs(void **state)
{
	(void)state;
	assert_int_equal(load("round,submitter,system,system_name,division,availability,accelerator,"
			      "nodes,accelerators_per_node,accelerators,framework,benchmark,minutes,"
			      "runs_scored,runs_failed,scaling_factor,run_minutes\n"
			      "v4.1,Krai,7920T,\"Dell, Precision\",closed,available,NVIDIA RTX A5000,1,2,2,"
			      "PyTorch,bert,366.190000,10,0,1.0188,370.1;360.5;365.0\n"), 0);
	assert_int_equal(ds.n, 1);
	const struct row *r = &ds.rows[0];
	assert_string_equal(r->system_name, "Dell, Precision");
	assert_int_equal(r->nodes, 1);
	assert_int_equal(r->per_node, 2);
	assert_int_equal(r->runs_scored, 10);
	assert_int_equal(r->runs_failed, 0);
	assert_true(r->scaling_factor == 1.0188);
	assert_int_equal(r->run_n, 3);
	/* runs come back ascending whatever the file's order */
	assert_true(ds.runs[r->run_off] == 360.5);
	assert_true(ds.runs[r->run_off + 2] == 370.1);
	assert_int_equal(r->line, 2);
}

static void bom_crlf_quotes(void **state)
{
	(void)state;
	assert_int_equal(load("\xef\xbb\xbfsystem,benchmark,accelerators,minutes\r\n"
			      "\"a \"\"quoted\"\" sys\",bert,8,1.5\r\n"
			      "b,bert,4,2\r\n"), 0);
	assert_int_equal(ds.n, 2);
	assert_string_equal(ds.rows[0].system, "a \"quoted\" sys");
	assert_int_equal(ds.rows[1].line, 3);
}

static void missing_required_column(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,minutes\nx,bert,1\n"), -1);
	assert_non_null(strstr(err.msg, "accelerators"));
	assert_string_equal(err.file, "t.csv");
}

static void duplicated_column(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes,minutes\nx,bert,1,2,3\n"), -1);
	assert_non_null(strstr(err.msg, "twice"));
	assert_int_equal(err.line, 1);
	assert_int_equal(err.col, 39);
}

static void empty_file(void **state)
{
	(void)state;
	assert_int_equal(load(""), -1);
	assert_non_null(strstr(err.msg, "empty"));
}

static void bad_minutes_skipped_with_location(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes\n"
			      "a,bert,8,abc\nb,bert,8,0\nc,bert,8,-3\nd,bert,8,nan\ne,bert,8,inf\n"
			      "f,bert,8,1e400\ng,bert,8,2.5\n"), 0);
	assert_int_equal(ds.n, 1);
	assert_string_equal(ds.rows[0].system, "g");
	assert_int_equal(ds.warn.total, 6);
	/* file:line:column of the minutes field */
	assert_true(warned("t.csv:2:10: minutes: 'abc'"));
	assert_true(warned("t.csv:7:10: minutes: '1e400'"));
}

static void bad_accelerators_skipped(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes\n"
			      "a,bert,0,1\nb,bert,-8,1\nc,bert,2.5,1\nd,bert,9223372036854775808,1\n"
			      "e,bert,x,1\nf,bert,8.0,1\n"), 0);
	/* 0: a CPU-only system, loaded (views leave it out) */
	assert_int_equal(ds.n, 2);
	assert_int_equal(ds.rows[0].accelerators, 0);
	assert_int_equal(ds.rows[1].accelerators, 8);
	assert_int_equal(ds.warn.total, 4);
	assert_true(warned("t.csv:4:8: accelerators: '2.5'"));
	assert_true(warned("t.csv:3:8: accelerators: '-8' is not a whole number in 0..1000000000"));
}

static void wrong_field_count_and_empty_required(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes\n"
			      "a,bert,8\nb,bert,8,1,extra\n,bert,8,1\nd,bert,8,1\n"), 0);
	assert_int_equal(ds.n, 1);
	assert_true(warned("t.csv:2: row has 3 fields, the header has 4"));
	assert_true(warned("t.csv:4:1: system is empty"));
}

static void duplicate_keeps_first(void **state)
{
	(void)state;
	assert_int_equal(load("round,system,benchmark,accelerators,minutes\n"
			      "v1,a,bert,8,1\nv1,a,bert,8,2\nv2,a,bert,8,3\n"), 0);
	assert_int_equal(ds.n, 2);
	assert_true(ds.rows[0].minutes == 1);
	assert_true(warned("t.csv:3: duplicate of t.csv:2"));
}

/* A duplicate's runs are given back whether the next record is a row, a skipped row or the
 * end: the rows kept have their own runs, and no more runs are held than theirs. */
static void duplicate_gives_back_its_runs(void **state)
{
	(void)state;
	assert_int_equal(load("round,system,benchmark,accelerators,minutes,run_minutes\n"
			      "v1,a,bert,8,1,1;2;3\nv1,a,bert,8,2,4;5\nv1,b,bert,8,3,6;7;8\n"
			      "v1,b,bert,8,3,9\nv1,c,bert,x,3,10\nv1,d,bert,8,4,11;12\nv1,d,bert,8,4,13"), 0);
	assert_int_equal(ds.n, 3);
	assert_int_equal(ds.nruns, 8);
	static const double want[] = { 1, 2, 3, 6, 7, 8, 11, 12 };
	for (size_t i = 0; i < 8; i++)
		assert_true(ds.runs[i] == want[i]);
	assert_int_equal(ds.rows[1].run_off, 3);
	assert_int_equal(ds.rows[2].run_off, 6);
	assert_int_equal(ds.rows[2].line, 7);
	assert_true(warned("t.csv:3: 3 rows repeat an earlier row"));
	assert_true(warned("from this one: duplicate of t.csv:2"));
	assert_true(warned("t.csv:6:11: accelerators"));
}

/* The lists of rounds and workloads give the same texts in the same order before
 * dataset_classify, after it, and after a load that adds rows: rounds and workloads
 * interleaved, repeated, and asked for by text. */
static void lists_before_and_after_classify(void **state)
{
	static const char *const rounds[] = { "v2.0", "v1.1", "v3.0", "v1.1" };
	static const char *const benches[] = { "bert", "resnet", "ssd", "gpt3", "zzz", "dlrm" };
	char text[8192];
	size_t at = 0;

	(void)state;
	at += (size_t)snprintf(text + at, sizeof text - at, "round,system,benchmark,accelerators,minutes\n");
	for (int i = 0; i < 60; i++)
		at += (size_t)snprintf(text + at, sizeof text - at, "%s,s%d,%s,8,%d\n", rounds[(i * 7) % 4], i,
				       benches[(i * 5 + i / 9) % 6], i + 1);
	assert_int_equal(load(text), 0);
	for (int pass = 0; pass < 3; pass++) {
		const char **rl, **want_r;
		size_t nr, nwant_r;
		/* pass 0: as loaded; 1: classified; 2: after another load */
		if (pass == 1)
			assert_int_equal(dataset_classify(&ds), 0);
		if (pass == 2)
			assert_int_equal(dataset_load_buffer(&ds, "u.csv", "round,system,benchmark,accelerators,minutes\nv0.7,x,new,8,1\nv1.1,y,new,8,1\n",
							     strlen("round,system,benchmark,accelerators,minutes\nv0.7,x,new,8,1\nv1.1,y,new,8,1\n"), &err), 0);
		assert_int_equal(dataset_round_list(&ds, &rl, &nr), 0);
		assert_int_equal(nr, pass == 2 ? 4 : 3);
		static const char *const r01[] = { "v1.1", "v2.0", "v3.0" }, *const r2[] = { "v0.7", "v1.1", "v2.0", "v3.0" };
		want_r = (const char **)(pass == 2 ? r2 : r01);
		nwant_r = pass == 2 ? 4 : 3;
		for (size_t i = 0; i < nwant_r; i++) {
			assert_string_equal(rl[i], want_r[i]);
			const char **wl, **wt;
			size_t nw, nt;
			char copy[16];
			snprintf(copy, sizeof copy, "%s", rl[i]); /* by text, not by pointer */
			assert_int_equal(dataset_workload_list(&ds, rl[i], &wl, &nw), 0);
			assert_int_equal(dataset_workload_list(&ds, copy, &wt, &nt), 0);
			assert_int_equal(nw, nt);
			/* against a count from the rows themselves */
			size_t count = 0;
			for (size_t q = 0; q < ds.n; q++) {
				bool first = strcmp(ds.rows[q].round, rl[i]) == 0;
				for (size_t e = 0; e < q && first; e++)
					first = !(strcmp(ds.rows[e].round, rl[i]) == 0 && ds.rows[e].benchmark == ds.rows[q].benchmark);
				count += first;
			}
			assert_int_equal(nw, count);
			for (size_t j = 0; j < nw; j++) {
				assert_ptr_equal(wl[j], wt[j]);
				if (j)
					assert_true(wl[j - 1] != wl[j]);
			}
			free(wt);
			free(wl);
		}
		free(rl);
	}
}

/* Many distinct (round, benchmark) pairs: the lists miss none. */
static void lists_of_many_pairs(void **state)
{
	enum { NR = 41, NB = 101 };
	size_t cap = (size_t)NR * NB * 40 + 100, at = 0;
	char *text = malloc(cap);

	(void)state;
	assert_non_null(text);
	at += (size_t)snprintf(text + at, cap - at, "round,system,benchmark,accelerators,minutes\n");
	for (int b = 0; b < NB; b++)
		for (int r = 0; r < NR; r++)
			at += (size_t)snprintf(text + at, cap - at, "v%d.0,s,w%03d,8,1\n", r + 1, b);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", text, at, &err), 0);
	assert_int_equal(ds.n, (size_t)NR * NB);
	assert_int_equal(dataset_classify(&ds), 0);
	const char **rl, **wl;
	size_t nr, nw;
	assert_int_equal(dataset_round_list(&ds, &rl, &nr), 0);
	assert_int_equal(nr, NR);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(dataset_workload_list(&ds, rl[i], &wl, &nw), 0);
		assert_int_equal(nw, NB);
		free(wl);
	}
	free(rl);
	free(text);
}

/* A system's name is kept as read (trimmed, unguarded, sanitized like every text), not
 * interned: equal names far apart are equal texts, while the texts compared by pointer (the
 * system id, the round, the submitter) stay one pointer each. */
static void system_names_kept_not_interned(void **state)
{
	char text[4096];
	size_t at = 0;

	(void)state;
	at += (size_t)snprintf(text + at, sizeof text - at, "round,submitter,system,system_name,benchmark,accelerators,minutes\n");
	for (int i = 0; i < 40; i++)
		at += (size_t)snprintf(text + at, sizeof text - at, "v1,Sub,sys%d,%s,bert,8,%d\n", i % 20,
				       i % 20 == 3 ? " '=Big \x01" "box " : i % 2 ? "Alpha box" : "Beta box", i + 1);
	/* rows 20..39 repeat 0..19's system ids under another round: all kept */
	for (char *p = text; (p = strstr(p, "v1,Sub,sys")); p++) {
		static int k;
		if (k++ >= 20)
			p[1] = '2';
	}
	assert_int_equal(load(text), 0);
	assert_int_equal(ds.n, 40);
	for (size_t i = 0; i < ds.n; i++) {
		const struct row *r = &ds.rows[i];
		assert_string_equal(r->system_name, i % 20 == 3 ? "=Big ?box" : i % 2 ? "Alpha box" : "Beta box");
		if (i >= 20) {
			assert_ptr_equal(r->system, ds.rows[i - 20].system);
			assert_ptr_equal(r->submitter, ds.rows[0].submitter);
		}
	}
}

/* Each row gets its family's prices, families matched case-insensitively, whatever order the
 * families come in (remembered per family), and none for a family the table lacks. */
static void prices_follow_families_taking_turns(void **state)
{
	static const char prices[] = "family,usd_per_hour_low,usd_per_hour_high,source,date\n"
				     "H100,2,3,x,2025-01-01\na100,1,1.5,x,2025-01-01\n";
	static const char *const acc[] = { "H100", "A100", "MI300X", "A100", "H100", "H100" };
	char text[4096];
	size_t at = 0;

	(void)state;
	assert_int_equal(dataset_load_prices_buffer(&ds, "p.csv", prices, strlen(prices), &err), 0);
	at += (size_t)snprintf(text + at, sizeof text - at, "round,system,accelerator,benchmark,accelerators,minutes\n");
	for (int i = 0; i < 90; i++)
		at += (size_t)snprintf(text + at, sizeof text - at, "v1,s%d,%s,bert,8,%d\n", i, acc[(i * 5) % 6], i + 1);
	assert_int_equal(load(text), 0);
	assert_int_equal(dataset_classify(&ds), 0);
	for (int i = 0; i < 90; i++) {
		const struct row *r = &ds.rows[i];
		const char *a = acc[(i * 5) % 6];
		if (strcmp(a, "MI300X") == 0) {
			assert_true(isnan(r->price_lo) && isnan(r->price_hi));
		} else {
			assert_true(r->price_lo == (a[0] == 'H' ? 2 : 1));
			assert_true(r->price_hi == (a[0] == 'H' ? 3 : 1.5));
		}
	}
}

static void same_system_other_submitter_is_kept(void **state)
{
	(void)state;
	assert_int_equal(load("round,submitter,system,benchmark,accelerators,minutes\n"
			      "v1,smc,a,bert,8,1\nv1,smc-ac-power,a,bert,8,2\nv1,smc,a,bert,8,3\n"), 0);
	assert_int_equal(ds.n, 2);
	assert_true(warned("t.csv:4: duplicate of t.csv:2 (round v1, submitter smc, system a"));
	assert_int_equal(dataset_find(&ds, "v1", "bert", "a"), -2);
	assert_int_equal(dataset_find(&ds, "v1", "bert", "smc-ac-power/a"), 1);
	assert_int_equal(dataset_find(&ds, "v1", "bert", "smc/a"), 0);
	assert_int_equal(dataset_find(&ds, "v1", "bert", "nope/a"), -1);
	assert_true(row_named(&ds.rows[1], "a"));
	assert_false(row_named(&ds.rows[1], "smc/a"));
}

static void duplicates_across_files(void **state)
{
	(void)state;
	assert_int_equal(load("round,system,benchmark,accelerators,minutes\nv1,a,bert,8,1\n"), 0);
	assert_int_equal(dataset_load_buffer(&ds, "u.csv", "round,system,benchmark,accelerators,minutes\nv1,a,bert,8,5\n",
					     58, &err), 0);
	assert_int_equal(ds.n, 1);
	assert_true(warned("u.csv:2: duplicate of t.csv:2"));
}

/* A load after dataset_classify finds a row repeating one loaded before it. */
static void duplicates_after_classify(void **state)
{
	static const char csv[] = "round,system,benchmark,accelerators,minutes\nv1,a,bert,8,1\nv1,b,bert,16,1\n";

	(void)state;
	assert_int_equal(load(csv), 0);
	assert_int_equal(dataset_classify(&ds), 0);
	assert_int_equal(dataset_load_buffer(&ds, "u.csv", "round,system,benchmark,accelerators,minutes\nv1,b,bert,16,5\nv1,c,bert,32,1\n",
					     74, &err), 0);
	assert_int_equal(ds.n, 3);
	assert_true(warned("u.csv:2: duplicate of t.csv:3"));
}

/* Rows that repeat the row before's field text, or differ from it only in what trimming,
 * the formula guard or the sanitizer remove, or repeat a benchmark in another round, load as
 * each row alone loads; runs written ascending or not come out ascending. */
static void rows_as_if_alone(void **state)
{
	static const char head[] = "round,submitter,system,availability,division,benchmark,accelerators,minutes,run_minutes\n";
	static const char *const rows[] = {
		"v1.0,Sub,a,available,closed,ssd,8,5,4;5;6\n",
		"v2.0,Sub,b,available,closed,ssd,8,5,6;5;4\n",
		"v2.0, Sub ,c,Available on-premise,Closed,ssd,8,5,1;1;2\n",
		"v2.0,'=Sub,d,available ,closed,ssd,8,5,3;2;2\n",
		"v2.0,'=Sub,e,preview,open,ssd,8,5,2\n",
		"v2.0,S\x01ub,f,preview,open,ssd,8,5,\n",
		"v2.0,S\x01ub,g,research,other,bert,8,5,7;7;7\n",
		"v1.0,S\x01ub,h,research,other,ssd,8,5,9;8\n",
	};
	enum { NR = sizeof rows / sizeof rows[0] };
	char all[2048];
	size_t at = 0;

	(void)state;
	at += (size_t)snprintf(all + at, sizeof all - at, "%s", head);
	for (size_t i = 0; i < NR; i++)
		at += (size_t)snprintf(all + at, sizeof all - at, "%s", rows[i]);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", all, at, &err), 0);
	assert_int_equal(ds.n, NR);
	for (size_t i = 0; i < NR; i++) {
		struct dataset one = { 0 };
		struct gs_err e = { 0 };
		char text[512];
		int len = snprintf(text, sizeof text, "%s%s", head, rows[i]);
		assert_int_equal(dataset_load_buffer(&one, "t.csv", text, (size_t)len, &e), 0);
		assert_int_equal(one.n, 1);
		const struct row *x = &ds.rows[i], *y = &one.rows[0];
		assert_string_equal(x->round, y->round);
		assert_string_equal(x->submitter, y->submitter);
		assert_string_equal(x->system, y->system);
		assert_string_equal(x->availability, y->availability);
		assert_string_equal(x->division, y->division);
		assert_string_equal(x->benchmark, y->benchmark);
		assert_string_equal(row_extra(x)->benchmark_published, row_extra(y)->benchmark_published);
		assert_int_equal(x->avail, y->avail);
		assert_int_equal(x->div, y->div);
		assert_int_equal(x->run_n, y->run_n);
		for (unsigned k = 0; k < x->run_n; k++) {
			assert_true(ds.runs[x->run_off + k] == one.runs[y->run_off + k]);
			if (k)
				assert_true(ds.runs[x->run_off + k - 1] <= ds.runs[x->run_off + k]);
		}
		dataset_free(&one);
	}
	/* equal text is one pooled string, however the field was written */
	assert_ptr_equal(ds.rows[0].submitter, ds.rows[2].submitter);
	assert_ptr_equal(ds.rows[3].submitter, ds.rows[4].submitter);
	assert_string_equal(ds.rows[3].submitter, "=Sub");
	assert_string_equal(ds.rows[5].submitter, "S?ub");
	assert_string_equal(ds.rows[0].benchmark, "ssd");
	assert_string_equal(ds.rows[1].benchmark, "retinanet");
	assert_string_equal(ds.rows[7].benchmark, "ssd");
	assert_int_equal(ds.rows[2].avail, AVAIL_ONPREM);
	assert_int_equal(ds.rows[4].avail, AVAIL_PREVIEW);
	assert_int_equal(ds.rows[6].avail, AVAIL_RESEARCH);
	assert_int_equal(ds.rows[4].div, DIV_OPEN);
	assert_int_equal(ds.rows[6].div, DIV_OTHER);
}

/* A row skipped for a bad number after its texts were made ready leaves nothing a later row
 * takes for its own: 600 rows, every third skipped, each skipped row the first with its
 * submitter and the next row the second (the text the skipped row left in the recent texts,
 * over a text pooled before), each kept row with the texts it was written with. */
static void skipped_rows_leave_no_text(void **state)
{
	static const char head[] = "round,submitter,system,framework,benchmark,accelerators,minutes\n";
	enum { NR = 600 };
	size_t cap = NR * 80 + sizeof head, at = 0, kept = 0;
	char *all = malloc(cap);

	(void)state;
	assert_non_null(all);
	at += (size_t)snprintf(all + at, cap - at, "%s", head);
	for (int i = 0; i < NR; i++)
		at += (size_t)snprintf(all + at, cap - at, "v1, Sub%d ,sys%d,fw%d,bert,8,%s\n", (i + 2) / 3 % 40, i,
				       (i * 13) % 40, i % 3 == 1 ? "x" : "5");
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", all, at, &err), 0);
	assert_int_equal(ds.skipped, NR / 3);
	for (int i = 0; i < NR; i++) {
		char sub[16], sys[16], fw[16];
		if (i % 3 == 1)
			continue;
		snprintf(sub, sizeof sub, "Sub%d", (i + 2) / 3 % 40);
		snprintf(sys, sizeof sys, "sys%d", i);
		snprintf(fw, sizeof fw, "fw%d", (i * 13) % 40);
		const struct row *r = &ds.rows[kept++];
		assert_string_equal(r->submitter, sub);
		assert_string_equal(r->system, sys);
		assert_string_equal(r->framework, fw);
	}
	assert_int_equal(ds.n, kept);
	free(all);
}

/* With long strings between short ones and the table grown many times, every text gets back
 * the pointer it had, and equal text is one string. */
static void strpool_keeps_pointers(void **state)
{
	enum { NS = 30000 };
	static char big[3][40000];
	static const char *had[NS];
	struct strpool p = { 0 };
	const char *bigs[3];
	char buf[48];
	(void)state;

	for (size_t i = 0; i < NS; i++) {
		int len = snprintf(buf, sizeof buf, "name %zu of the pool", i * 7919);
		assert_non_null(had[i] = strpool_intern(&p, buf, (size_t)len));
		if (i % 10000 == 5000) {
			size_t k = i / 10000;
			memset(big[k], 'a' + (int)k, sizeof big[k] - 1);
			assert_non_null(bigs[k] = strpool_intern(&p, big[k], sizeof big[k] - 1));
		}
	}
	size_t n = p.n;
	const char *empty = strpool_intern(&p, "", 0);
	for (size_t i = NS; i-- > 0;) {
		int len = snprintf(buf, sizeof buf, "name %zu of the pool", i * 7919);
		const char *again = strpool_intern(&p, buf, (size_t)len);
		assert_ptr_equal(again, had[i]);
		assert_string_equal(again, buf);
	}
	for (size_t k = 0; k < 3; k++)
		assert_ptr_equal(strpool_intern(&p, big[k], sizeof big[k] - 1), bigs[k]);
	assert_ptr_equal(strpool_intern(&p, "", 0), empty);
	assert_int_equal(p.n, n + 1);
	strpool_free(&p);
}

/* A count read as digits is the count the number gives (strtod, then whole): leading zeros,
 * 15 and 16 digits, a sign, a decimal point, an exponent. */
static void counts_as_numbers(void **state)
{
	static const char *const counts[] = {
		"8", "0", "08", "000000000000016", "123456789012345", "1234567890123456",
		"999999999999999", "8.0", "+8", "1e3", "12.50", "0x10", "7a",
	};
	enum { NC = sizeof counts / sizeof counts[0] };
	char csv[2048];
	size_t at = 0;

	(void)state;
	at += (size_t)snprintf(csv, sizeof csv, "system,benchmark,accelerators,minutes,nodes\n");
	for (size_t i = 0; i < NC; i++)
		at += (size_t)snprintf(csv + at, sizeof csv - at, "s%zu,bert,8,5,%s\n", i, counts[i]);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, at, &err), 0);
	assert_int_equal(ds.n, NC);
	for (size_t i = 0; i < NC; i++) {
		char *end;
		double v = strtod(counts[i], &end);
		bool whole = *end == '\0' && strchr(counts[i], 'x') == NULL && v == floor(v) && v <= 9e15;
		long long want = whole ? (long long)v : 0; /* not a count: warned, 0 */
		if (ds.rows[i].nodes != want)
			fail_msg("nodes '%s' read as %lld, not %lld", counts[i], ds.rows[i].nodes, want);
	}
}

/* A file given twice: one warning with the count, not one a row. */
static void duplicates_counted_once(void **state)
{
	static const char csv[] = "round,system,benchmark,accelerators,minutes\nv1,a,bert,8,1\nv1,b,bert,16,1\nv1,c,bert,32,1\n";

	(void)state;
	assert_int_equal(load(csv), 0);
	assert_int_equal(dataset_load_buffer(&ds, "u.csv", csv, sizeof csv - 1, &err), 0);
	assert_int_equal(ds.n, 3);
	assert_int_equal(ds.warn.total, 1);
	assert_true(warned("u.csv:2: 3 rows repeat an earlier row"));
	assert_true(warned("duplicate of t.csv:2 (round v1"));
}

static void control_characters_replaced(void **state)
{
	(void)state;
	static const char text[] = "system,benchmark,accelerators,minutes,submitter\n"
				   "\x1b[2Jevil\x07,bert,8,1,\"a\x1b]52;c;Zm9v\x07\"\n"
				   "ok\xff\xfe,bert,4,1,\xc2\x9b" "31m\n";
	assert_int_equal(load(text), 0);
	assert_int_equal(ds.n, 2);
	assert_string_equal(ds.rows[0].system, "?[2Jevil?");
	assert_string_equal(ds.rows[0].submitter, "a?]52;c;Zm9v?");
	assert_string_equal(ds.rows[1].system, "ok??");
	assert_string_equal(ds.rows[1].submitter, "??31m"); /* C1 CSI as UTF-8 */
}

static void nul_byte_in_field(void **state)
{
	(void)state;
	static const char text[] = "system,benchmark,accelerators,minutes\na\0b,bert,8,1\n";
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", text, sizeof text - 1, &err), 0);
	assert_int_equal(ds.n, 1);
	assert_string_equal(ds.rows[0].system, "a?b");
}

static void utf8_kept(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes\nm\xc3\xa1quina,bert,8,1\n"), 0);
	assert_string_equal(ds.rows[0].system, "m\xc3\xa1quina");
}

static void unbalanced_quote_is_an_error(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes\n\"a,bert,8,1\nb,bert,8,1\n"), -1);
	assert_non_null(strstr(err.msg, "unterminated"));
	assert_int_equal(err.line, 2);
}

static void stray_quote_is_an_error(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes\nb,be\"rt,8,1\n"), -1);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 5);
}

static void bad_run_minutes_warn(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes,run_minutes\na,bert,8,1,1.0;x;2\n"), 0);
	assert_int_equal(ds.n, 1);
	assert_int_equal(ds.rows[0].run_n, 0);
	assert_true(warned("run_minutes: 'x'"));
}

static void families_first_match_case_insensitive(void **state)
{
	(void)state;
	FILE *f = fopen("test_families.tmp", "w");
	assert_non_null(f);
	fputs("pattern,vendor,family\nGB200,NVIDIA,GB200\nb200,NVIDIA,B200\nH100-SXM,NVIDIA,H100 SXM\n", f);
	fclose(f);
	assert_int_equal(dataset_load_families(&ds, "test_families.tmp", &err), 0);
	remove("test_families.tmp");
	assert_int_equal(ds.nrules, 3);
	assert_int_equal(load("system,benchmark,accelerators,minutes,accelerator\n"
			      "a,bert,8,1,NVIDIA GB200\nb,bert,8,1,NVIDIA B200-SXM-180GB\n"
			      "c,bert,8,1,NVIDIA h100-sxm5-80gb\nd,bert,8,1,Mystery X\n"), 0);
	dataset_classify(&ds);
	assert_string_equal(ds.rows[0].family, "GB200");
	assert_string_equal(ds.rows[1].family, "B200");
	assert_string_equal(ds.rows[2].family, "H100 SXM");
	assert_string_equal(ds.rows[2].vendor, "NVIDIA");
	assert_string_equal(ds.rows[3].family, "Mystery X");
	assert_int_equal(ds.unmatched, 1);
}

static void families_bad_header(void **state)
{
	(void)state;
	FILE *f = fopen("test_families2.tmp", "w");
	assert_non_null(f);
	fputs("a,b\n", f);
	fclose(f);
	assert_int_equal(dataset_load_families(&ds, "test_families2.tmp", &err), -1);
	remove("test_families2.tmp");
	assert_non_null(strstr(err.msg, "pattern,vendor,family"));
}

static void rounds_and_workload_order(void **state)
{
	(void)state;
	const char *out[8];
	assert_int_equal(load("round,system,benchmark,accelerators,minutes\n"
			      "v4.1,a,zeta,8,1\nv4.1,a,stable_diffusion,8,1\nv4.0,a,bert,8,1\n"
			      "v4.1,a,bert,8,1\nv4.1,a,alpha,8,1\n"), 0);
	assert_int_equal(dataset_rounds(&ds, out, 8), 2);
	assert_string_equal(out[0], "v4.1");
	assert_int_equal(dataset_workloads(&ds, "v4.1", out, 8), 4);
	assert_string_equal(out[0], "bert");
	assert_string_equal(out[1], "stable_diffusion");
	assert_string_equal(out[2], "alpha");
	assert_string_equal(out[3], "zeta");
	assert_string_equal(workload_label("llama2_70b_lora"), "Llama2-LoRA");
	assert_int_equal(dataset_find(&ds, "v4.0", "bert", "a"), 2);
	assert_int_equal(dataset_find(&ds, "v4.0", "zeta", "a"), -1);
}

/* The rounds and workloads of a round, from rows scanned one by one here. */
static size_t ref_names(const char *round, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < ds.n; i++) {
		const char *v = round ? ds.rows[i].benchmark : ds.rows[i].round;
		size_t j;
		if (round && strcmp(ds.rows[i].round, round) != 0)
			continue;
		for (j = 0; j < n && strcmp(out[j], v) != 0; j++)
			;
		if (j == n && n < max)
			out[n++] = v;
	}
	return n;
}

/* The rounds and the workloads of each round are what scanning the rows gives, loaded from
 * two files and before and after classifying. */
static void names_match_scan(void **state)
{
	static const char *const rounds[] = { "v3.1", "v4.0", "v4.1", "v5.0", "vX" };
	static const char *const benches[] = { "bert", "ssd", "gpt3", "zeta", "alpha", "resnet", "unet3d",
						"gnn", "dlrm_dcnv2", "flux1", "llama31_8b", "omega" };
	char *text = malloc(200000), *p;
	uint64_t x = 2463534242ull;
	const char *a[64], *b[64], *c[64];

	(void)state;
	for (int pass = 0; pass < 4; pass++) {
		if (pass % 2 == 0) {
			p = text + sprintf(text, "round,system,benchmark,accelerators,minutes\n");
			for (int i = 0; i < 3000; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				int r = (int)(x % 5), bn = (int)(x / 5 % 12);
				if (pass == 2 && r == 4)
					r = 3; /* the second file has no vX */
				p += sprintf(p, "%s,s%d_%d,%s,8,1\n", rounds[r], pass, i, benches[bn]);
			}
			assert_int_equal(dataset_load_buffer(&ds, "t.csv", text, (size_t)(p - text), &err), 0);
		} else {
			dataset_classify(&ds);
		}
		for (size_t max = 1; max <= 64; max *= 4) {
			size_t n = dataset_rounds(&ds, a, max);
			assert_int_equal(n, ref_names(NULL, c, max));
			for (size_t i = 0; i < n; i++)
				assert_string_equal(a[i], c[i]);
			for (size_t r = 0; r < 6; r++) {
				const char *round = r < 5 ? rounds[r] : "v9.9";
				size_t m = dataset_workloads(&ds, round, b, max);
				size_t want = ref_names(round, c, 64);
				assert_int_equal(m, want < max ? want : max);
				for (size_t i = 0; i < m; i++) { /* the same names, in display order */
					size_t j;
					for (j = 0; j < want && strcmp(b[i], c[j]) != 0; j++)
						;
					assert_true(j < want);
					if (i)
						assert_true(workload_rank(b[i - 1]) < workload_rank(b[i]) ||
							    (workload_rank(b[i - 1]) == workload_rank(b[i]) &&
							     strcmp(b[i - 1], b[i]) < 0));
				}
			}
		}
	}
	free(text);
}

static void names_found_exact_first(void **state)
{
	static const char *const list[] = { "v4.1", "V4.1", "bert", "llama2_70b_lora" };

	(void)state;
	assert_int_equal(name_find(list, 4, "V4.1", false), 1);
	assert_int_equal(name_find(list, 4, "v4.1", false), 0);
	assert_int_equal(name_find(list, 4, "BERT", false), 2);
	assert_int_equal(name_find(list, 4, "Llama2-LoRA", false), 4);
	assert_int_equal(name_find(list, 4, "Llama2-LoRA", true), 3);
	assert_int_equal(name_find(list, 4, "bert@", false), 4);
	assert_int_equal(name_find(list, 4, NULL, true), 4);
}

static void long_field_and_line(void **state)
{
	(void)state;
	size_t big = 1 << 20;
	char *text = malloc(big + 200);
	assert_non_null(text);
	int k = sprintf(text, "system,benchmark,accelerators,minutes\n");
	memset(text + k, 'x', big);
	sprintf(text + k + big, ",bert,8,1\n");
	assert_int_equal(load(text), 0);
	free(text);
	assert_int_equal(ds.n, 1);
	assert_int_equal(strlen(ds.rows[0].system), big);
}

static void sanitize_helper(void **state)
{
	(void)state;
	char buf[8];
	assert_string_equal(text_sanitize("a\x1b" "bc", buf, sizeof buf), "a?bc");
	/* never cuts a UTF-8 sequence */
	assert_string_equal(text_sanitize("abcdef\xc3\xa1", buf, sizeof buf), "abcdef");
}


/* ------------------------------------------------------------------ random inputs */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* ------------------------------------------------------------------ decimals vs strtod */

/* The parser by its definition: trim, C notation only, strtod. */
static int parse_reference(const char *s, size_t len, double *out)
{
	char buf[512], *end;
	double v;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789.eE+-", buf[i]))
			return -1;
	errno = 0;
	v = strtod(buf, &end);
	if (end != buf + len || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static void check_decimal(const char *s)
{
	double a = 0, b = 0;
	int ra = dataset_parse_double(s, strlen(s), &a);
	int rb = parse_reference(s, strlen(s), &b);

	if (ra != rb || (ra == 0 && memcmp(&a, &b, sizeof a) != 0))
		fail_msg("'%s': %d %.17g, strtod: %d %.17g", s, ra, a, rb, b);
}

static void decimal_parser_matches_strtod(void **state)
{
	(void)state;
	static const char *const fixed[] = {
		"0", "-0", "+0", "0.0", "-0.0", ".5", "5.", ".", "-", "+", "", " ", "1.5 ", "\t2", "007",
		"1.2.3", "--1", "+-1", "1e5", "1E-5", "0x10", "nan", "inf", "1e400", "9007199254740992",
		"9007199254740993", "900719925474099.3", "0.1", "0.3", "2.675", "1.0000000000000000001",
		"123456789012345678", "1234567890123456789", "12345678901234567890", "0.000000000000000000001",
		"0.0000000000000000000001", "0.00000000000000000000001", "99999999999999999999", "1 2",
		"000000000000000000000000000000000000000000000000000000000000000000000001",
		"4.35", "0.550531", "17.976931348623157", "1.7976931348623157e308", "5e-324", "-.0", "0.",
		"0.1000000000000000000000000000000000000000000000000000000000000000000000000001",
		"  12.50000000000000000000000000000000000000000000000000000000000000000000000000000  ",
	};
	char buf[64];
	double v = 0;

	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		check_decimal(fixed[i]);
	/* a long number is a number: many digits are no reason to refuse it */
	assert_int_equal(dataset_parse_double(fixed[sizeof fixed / sizeof fixed[0] - 2],
					      strlen(fixed[sizeof fixed / sizeof fixed[0] - 2]), &v), 0);
	assert_true(v == 0.1);
	assert_int_equal(dataset_parse_double(fixed[sizeof fixed / sizeof fixed[0] - 1],
					      strlen(fixed[sizeof fixed / sizeof fixed[0] - 1]), &v), 0);
	assert_true(v == 12.5);
	for (int i = 0; i < 300000; i++) {
		size_t n = 0;
		unsigned sign = rnd(8), nint = rnd(12), nfrac = rnd(14);
		if (sign == 0)
			buf[n++] = '-';
		else if (sign == 1)
			buf[n++] = '+';
		if (rnd(6) == 0)
			buf[n++] = '0';
		for (unsigned k = 0; k < nint; k++)
			buf[n++] = (char)('0' + (k == 0 ? 1 + rnd(9) : rnd(10)));
		if (rnd(5))
			buf[n++] = '.';
		for (unsigned k = 0; k < nfrac; k++)
			buf[n++] = (char)('0' + rnd(10));
		if (rnd(20) == 0)
			n += (size_t)sprintf(buf + n, "e%d", (int)rnd(40) - 20);
		buf[n] = '\0';
		check_decimal(buf);
	}
}

/* run_minutes of one row against the rule written out independently: split on ';', skip empty
 * elements, each a positive finite number by strtod (blanks around it allowed, no nan, inf or
 * hex); one bad element keeps none, with a warning. */
static void check_runs(const char *list)
{
	char text[512], el[128];
	double want[64];
	size_t nwant = 0;
	bool bad = false;
	struct dataset d;
	struct gs_err e;

	for (const char *p = list;; p++) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		if (len) {
			memcpy(el, p, len);
			el[len] = '\0';
			char *b = el, *end;
			while (*b == ' ' || *b == '\t')
				b++;
			size_t bl = strlen(b);
			while (bl && (b[bl - 1] == ' ' || b[bl - 1] == '\t'))
				b[--bl] = '\0';
			errno = 0;
			double x = bl && strspn(b, "0123456789.eE+-") == bl ? strtod(b, &end) : 0;
			if (!bl || strspn(b, "0123456789.eE+-") != bl || *end || errno == ERANGE || !isfinite(x) ||
			    !(x > 0))
				bad = true;
			else
				want[nwant++] = x;
		}
		if (!semi)
			break;
		p = semi;
	}
	if (bad)
		nwant = 0;
	for (size_t i = 1; i < nwant; i++) /* ascending */
		for (size_t j = i; j > 0 && want[j - 1] > want[j]; j--) {
			double t = want[j];
			want[j] = want[j - 1];
			want[j - 1] = t;
		}
	snprintf(text, sizeof text, "system,benchmark,accelerators,minutes,run_minutes\na,bert,8,1,\"%s\"\n", list);
	memset(&d, 0, sizeof d);
	memset(&e, 0, sizeof e);
	assert_int_equal(dataset_load_buffer(&d, "t.csv", text, strlen(text), &e), 0);
	assert_int_equal(d.n, 1);
	if (d.rows[0].run_n != nwant || (d.warn.n > 0) != bad)
		fail_msg("run list '%s': %u runs, %zu warnings; want %zu runs, %s", list, d.rows[0].run_n,
			 d.warn.n, nwant, bad ? "a warning" : "none");
	for (size_t i = 0; i < nwant; i++)
		if (d.runs[d.rows[0].run_off + i] != want[i])
			fail_msg("run list '%s': run %zu is %.17g, want %.17g", list, i,
				 d.runs[d.rows[0].run_off + i], want[i]);
	dataset_free(&d);
}

static void run_lists(void **state)
{
	(void)state;
	static const char *const fixed[] = {
		"", ";", ";;", "1", "1;2", "2;1", ";1;;2;", "0.5487;0.5505;0.5893", "1.;.5", ".", "1;.",
		"0", "1;0", "0.0;1", "-1;2", "+1;2", " 1;2", "1 ;2", "1; 2", "1e3;2", "1E-2", "0x10", "nan",
		"inf;1", "1..2", "1.2.3", "00012.500", "9007199254740992", "9007199254740993;1",
		"1234567890123456789", "12345678901234567890", "0.000000000000000000001", "1;2;3;4;5;6;7;8;9;"
		"10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35",
		"4.35;2.675;0.1;0.3", "1;x", "x", "1;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;2",
	};
	char buf[400];

	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		check_runs(fixed[i]);
	static const char *const tok[] = { "0", "1", "5", "9", ".", ";", ";", ";", "00", "e", "-", " " };
	for (int i = 0; i < 20000; i++) {
		size_t n = 0, ntok = rnd(40);
		for (size_t k = 0; k < ntok; k++)
			n += (size_t)sprintf(buf + n, "%s", rnd(3) ? tok[rnd(4)] : tok[rnd(sizeof tok / sizeof tok[0])]);
		buf[n] = '\0';
		check_runs(buf);
	}
}

static void integer_columns(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes,nodes\n"
			      "a,bert,007,1,-0\nb,bert,123456789012345,1,1.0\nc,bert,8,1,999999999999999\n"
			      "d,bert,8,1,1000000000000000\ne,bert,8,1,+5\nf,bert,8,1,-\ng,bert,8,1,-3\n"), 0);
	/* b: 123456789012345 accelerators is out of range; bad nodes only warn */
	assert_int_equal(ds.n, 6);
	assert_int_equal(ds.rows[0].accelerators, 7);
	assert_int_equal(ds.rows[0].nodes, 0);
	assert_string_equal(ds.rows[1].system, "c");
	assert_int_equal(ds.rows[1].nodes, 999999999999999LL);
	assert_int_equal(ds.rows[2].nodes, 1000000000000000LL);
	assert_int_equal(ds.rows[3].nodes, 5);
	assert_int_equal(ds.rows[4].nodes, 0);
	assert_int_equal(ds.warn.total, 3);
	assert_true(warned("t.csv:7:12: nodes: '-' is not a valid count"));
	assert_true(warned("t.csv:8:12: nodes: '-3' is not a valid count"));
}

/* The optional columns of a results CSV: read by name, blank when absent, energy checked. */
static void optional_columns(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes,benchmark_published,source,run_files,"
			      "failed_files,energy_j,power_measurement\n"
			      "a,retinanet,8,1,ssd,NVIDIA/results/x/ssd,result_0.txt;result_1.txt,result_2.txt,"
			      "11769962,DC\n"
			      "b,bert,8,1,,,,,,\n"
			      "c,bert,8,1,,,,,-1,\n"
			      "d,bert,8,1,,,,,nan,\n"
			      "e,bert,8,1,,,,,0,AC\n"), 0);
	assert_int_equal(ds.n, 5);
	const struct row *r = &ds.rows[0];
	assert_string_equal(row_extra(r)->benchmark_published, "ssd");
	assert_string_equal(row_extra(r)->source, "NVIDIA/results/x/ssd");
	assert_string_equal(row_extra(r)->run_files, "result_0.txt;result_1.txt");
	assert_string_equal(row_extra(r)->failed_files, "result_2.txt");
	assert_true(r->energy_j == 11769962.0);
	assert_string_equal(row_extra(r)->power_measurement, "DC");
	assert_true(isnan(ds.rows[1].energy_j));
	assert_string_equal(row_extra(&ds.rows[1])->source, "");
	assert_true(isnan(ds.rows[2].energy_j));
	assert_true(isnan(ds.rows[3].energy_j));
	assert_true(ds.rows[4].energy_j == 0.0);
	assert_int_equal(ds.warn.total, 2);
	assert_true(warned("t.csv:4:"));
	assert_true(warned("energy_j: '-1' is not a finite number >= 0; ignored"));
	assert_true(warned("t.csv:5:"));
	/* the agreed defaults of the fields later passes fill */
	assert_int_equal(r->dup_of, -1);
	assert_string_equal(r->collapsed_from, "");
	assert_string_equal(r->carried_from, "");
	assert_true(isnan(r->price_lo) && isnan(r->price_hi));
	/* rows with the same texts of these columns share one record, others have their own */
	assert_ptr_equal(ds.rows[1].x, ds.rows[2].x);
	assert_ptr_equal(ds.rows[1].x, ds.rows[3].x);
	assert_ptr_not_equal(ds.rows[0].x, ds.rows[1].x);
	assert_ptr_not_equal(ds.rows[4].x, ds.rows[1].x);
	assert_string_equal(row_extra(&ds.rows[4])->power_measurement, "AC");
	assert_string_equal(row_extra(&ds.rows[4])->run_files, "");
}

/* The import's texts of many rows: each distinct set one record, every row reading back its
 * own, across the set's growth (the records never move). */
static void extra_records_shared(void **state)
{
	enum { N = 3000 };
	size_t cap = 64 + N * 48, len = 0;
	char *csv = malloc(cap);
	(void)state;

	assert_non_null(csv);
	len += (size_t)snprintf(csv + len, cap - len, "system,benchmark,accelerators,minutes,source,run_files\n");
	for (int i = 0; i < N; i++)
		len += (size_t)snprintf(csv + len, cap - len, "s%d,bert,8,1,d%d,r%d.txt\n", i, i % 700, i % 3);
	assert_int_equal(load(csv), 0);
	free(csv);
	assert_int_equal(ds.n, N);
	assert_int_equal(ds.xn, 700 * 3 < N ? 700 * 3 : N); /* (i % 700, i % 3): 2100 pairs */
	for (int i = 0; i < N; i++) {
		char want[32];
		snprintf(want, sizeof want, "d%d", i % 700);
		assert_string_equal(row_extra(&ds.rows[i])->source, want);
		snprintf(want, sizeof want, "r%d.txt", i % 3);
		assert_string_equal(row_extra(&ds.rows[i])->run_files, want);
		if (i >= 2100)
			assert_ptr_equal(ds.rows[i].x, ds.rows[i - 2100].x);
	}
	/* a row built by hand, without a record, reads every text as empty */
	struct row bare = { 0 };
	assert_string_equal(row_extra(&bare)->source, "");
	assert_string_equal(row_extra(&bare)->carried_read, "");
}

/* Columns of warnings: the energy column's byte column in its line. */
static void energy_warning_column(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes,energy_j\nabc,bert,8,1,x1\n"), 0);
	assert_true(warned("t.csv:2:14: energy_j: 'x1'"));
}

/* File names in messages go through the sanitizer: an escape in a name reaches no terminal. */
static void file_names_sanitized(void **state)
{
	(void)state;
	assert_int_equal(dataset_load_csv(&ds, "/nonexistent/\x1b]0;PWNED\x07\xe2\x80\xae.csv", &err), -1);
	assert_null(strchr(err.file, '\x1b'));
	assert_null(strstr(err.file, "\xe2\x80\xae"));
	assert_non_null(strstr(err.file, "?]0;PWNED????.csv"));
	assert_int_equal(dataset_load_buffer(&ds, "a\x1b[2J.csv", "system,benchmark,accelerators,minutes\nx,bert,-1,1\n",
					     49, &err), 0);
	assert_true(warned("a?[2J.csv:2:8: accelerators"));
}

/* Family patterns match under ASCII folding only, whatever the locale. */
static void families_ascii_folding(void **state)
{
	(void)state;
	static const char fam[] = "pattern,vendor,family\nGAUDI,Intel,Gaudi\n";
	assert_int_equal(dataset_load_families_buffer(&ds, "f.csv", fam, sizeof fam - 1, &err), 0);
	assert_int_equal(load("system,benchmark,accelerators,minutes,accelerator\n"
			      "a,bert,8,1,Intel gaudi2\nb,bert,8,1,Intel G\xc3\x81UDI\n"), 0);
	dataset_classify(&ds);
	assert_string_equal(ds.rows[0].family, "Gaudi");
	assert_string_equal(ds.rows[1].family, "Intel G\xc3\x81UDI");
	assert_non_null(ascii_casestr("NVIDIA H100-SXM5", "h100-sxm"));
	assert_null(ascii_casestr("H10", "h100"));
	assert_string_equal(ascii_casestr("abc", ""), "abc");
}

static void row_names(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(text_row_name("smc", "a", true, buf, sizeof buf), "smc/a");
	assert_string_equal(text_row_name("smc", "a", false, buf, sizeof buf), "a");
	assert_string_equal(text_row_name("", "a", true, buf, sizeof buf), "a");
	/* cut at a character boundary */
	assert_string_equal(text_row_name("abcdefghijklm", "\xc3\xa1x", true, buf, sizeof buf), "abcdefghijklm/");
	assert_string_equal(text_row_name("abcdefghijkl", "\xc3\xa1x", true, buf, sizeof buf), "abcdefghijkl/\xc3\xa1");
}

/* A results file cut short (and written again) by another program while it loads is only a
 * shorter input: every load returns, none is killed by SIGBUS (as a mapped file was). */
static void file_truncated_while_loading(void **state)
{
	const char *path = "test_truncated.tmp";
	size_t cap = 8 << 20, len;
	char *text = malloc(cap);
	int loads = 0;

	(void)state;
	assert_non_null(text);
	len = (size_t)sprintf(text, "round,system,benchmark,accelerators,minutes,run_minutes\n");
	for (int i = 0; len + 100 < cap; i++)
		len += (size_t)sprintf(text + len, "v1,system%07d,bert,8,12.5,12.1;12.5;12.9;13.0;13.3\n", i);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* cut the file to a random length and write it whole again, many times */
		int fd = open(path, O_WRONLY);
		for (int k = 0; fd >= 0 && k < 400; k++) {
			if (ftruncate(fd, (off_t)(rnd(4) ? rnd((unsigned)len) : 0)) < 0 ||
			    pwrite(fd, text, len, 0) != (ssize_t)len)
				_exit(1);
		}
		_exit(0);
	}
	int status = 0;
	while (waitpid(pid, &status, WNOHANG) == 0 || loads < 3) {
		struct dataset d;
		struct gs_err e;
		memset(&d, 0, sizeof d);
		int rc = dataset_load_csv(&d, path, &e);
		assert_true(rc == 0 || rc == -1);
		assert_true(d.n <= len / 40);
		dataset_free(&d);
		loads++;
	}
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	remove(path);
	free(text);
}

/* No fixed limit: 40 rounds, 80 workloads and 200 families all come back from the queries,
 * rounds in version order (v1.0 < v2.0 < ... < v10.0 < ... < v40.0). */
static void lists_have_no_limit(void **state)
{
	size_t cap = 1 << 20, len = 0, n, total = 0;
	char *fam = malloc(cap), *text = malloc(cap), name[32];
	const char **v;

	(void)state;
	len = (size_t)sprintf(fam, "pattern,vendor,family\n");
	for (int f = 0; f < 200; f++)
		len += (size_t)sprintf(fam + len, "acc%03d,V,Fam %03d\n", f, f);
	assert_int_equal(dataset_load_families_buffer(&ds, "f.csv", fam, len, &err), 0);
	len = (size_t)sprintf(text, "round,system,benchmark,accelerators,minutes,accelerator\n");
	for (int i = 0; i < 1600; i++) /* round i % 40, workload i % 80, family i % 200 */
		len += (size_t)sprintf(text + len, "v%d.0,s%d,w%02d,8,1,X acc%03d\n", 40 - i % 40, i, i % 80, i % 200);
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", text, len, &err), 0);
	dataset_classify(&ds);
	assert_int_equal(dataset_round_list(&ds, &v, &n), 0);
	assert_int_equal(n, 40);
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof name, "v%zu.0", i + 1);
		assert_string_equal(v[i], name);
		const char **w;
		size_t nw;
		assert_int_equal(dataset_workload_list(&ds, v[i], &w, &nw), 0);
		total += nw;
		free(w);
	}
	free(v);
	assert_int_equal(total, 80); /* round k holds workloads k and k + 40 */
	assert_int_equal(dataset_workload_list(&ds, "v40.0", &v, &n), 0);
	assert_int_equal(n, 2);
	free(v);
	assert_int_equal(dataset_family_list(&ds, NULL, NULL, &v, &n), 0);
	assert_int_equal(n, 200);
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof name, "Fam %03zu", i);
		assert_string_equal(v[i], name);
	}
	free(v);
	/* every workload in some round */
	size_t seen = 0;
	for (int k = 0; k < 80; k++) {
		snprintf(name, sizeof name, "w%02d", k);
		for (int r = 1; r <= 40; r++) {
			char round[16];
			snprintf(round, sizeof round, "v%d.0", r);
			assert_int_equal(dataset_workload_list(&ds, round, &v, &n), 0);
			bool in = name_find(v, n, name, false) < n;
			free(v);
			if (in) {
				seen++;
				break;
			}
		}
	}
	assert_int_equal(seen, 80);
	assert_true(text_version_cmp("v4.0", "v4.1") < 0 && text_version_cmp("v4.1", "v5.0") < 0 &&
		    text_version_cmp("v5.1", "v10.0") < 0 && text_version_cmp("v10.0", "v9.9") > 0 &&
		    text_version_cmp("v04.1", "v4.1") != 0);
	free(fam);
	free(text);
}

/* ------------------------------------------------------------------ the shipped rounds */

/* path under the source tree (GS_TOP, else the current folder) into buf. */
static const char *top_path(const char *rel, char *buf, size_t n)
{
	const char *top = getenv("GS_TOP");
	snprintf(buf, n, "%s/%s", top && *top ? top : ".", rel);
	return buf;
}

/* The whole of a file, NUL-terminated (NULL when it cannot be read). */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 4096 + 1 > cap && !(b = realloc(b, cap = cap * 2 + 8192)))
			break;
		size_t got = fread(b + *len, 1, 4096, f);
		*len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	if (b)
		b[*len] = '\0';
	return b;
}

/* The duplicate groups as text, one line per standing row: round, benchmark, system, who it
 * stands for; sorted, so that two loads compare whatever their row order. */
static char *groups_text(const struct dataset *d, size_t *nrows, size_t *redundant)
{
	char **lines = calloc(d->n + 1, sizeof *lines), *out;
	size_t k = 0, len = 0;

	*nrows = *redundant = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct row *r = &d->rows[i];
		if (r->dup_of >= 0) {
			(*redundant)++;
			(*nrows)++;
			assert_true(d->rows[r->dup_of].dup_of == -1);
			assert_non_null(strstr(d->rows[r->dup_of].collapsed_from, r->submitter));
			continue;
		}
		if (!*r->collapsed_from)
			continue;
		(*nrows)++;
		lines[k] = malloc(1024);
		len += (size_t)snprintf(lines[k], 1024, "%s %s %s %s %s\n", r->round, r->benchmark, r->system,
					r->submitter, r->collapsed_from);
		k++;
	}
	qsort(lines, k, sizeof *lines, line_cmp);
	out = calloc(len + 1, 1);
	for (size_t i = 0; i < k; i++) {
		strcat(out, lines[i]);
		free(lines[i]);
	}
	free(lines);
	return out;
}

/* v4.0: smc, smc-ac-power and smc-dc-power submitted the same runs: 12 groups of 30 rows, 18
 * redundant, standing rows chosen by submitter name: shuffled input gives the same groups. */
static void v40_duplicate_groups(void **state)
{
	char path[4096];
	size_t len, nrows, red, nrows2, red2;
	char *text = slurp(top_path("data/mlperf_training_v4.0.csv", path, sizeof path), &len);

	(void)state;
	if (!text)
		skip();
	assert_int_equal(dataset_load_buffer(&ds, "v4.0.csv", text, len, &err), 0);
	assert_int_equal(dataset_classify(&ds), 0);
	char *a = groups_text(&ds, &nrows, &red);
	assert_int_equal(nrows, 30);
	assert_int_equal(red, 18);
	size_t groups = 0;
	for (const char *p = a; (p = strchr(p, '\n')); p++)
		groups++;
	assert_int_equal(groups, 12);
	assert_non_null(strstr(a, " smc smc;smc-ac-power;smc-dc-power\n"));
	/* the rows in reverse and in a shuffled order */
	char *body = strchr(text, '\n'), **lines = malloc(4096 * sizeof *lines);
	size_t n = 0;
	*body++ = '\0'; /* text is the header now */
	for (char *p = body; *p; n++) {
		lines[n] = p;
		p = strchr(p, '\n');
		*p++ = '\0';
	}
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = n - 1; i > 0; i--) { /* reversed first, then shuffled (Fisher-Yates) */
			size_t j = pass == 0 ? n - 1 - i : rnd((unsigned)i + 1);
			if (pass == 0 && j >= i)
				break;
			char *t = lines[i];
			lines[i] = lines[j];
			lines[j] = t;
		}
		char *shuf = malloc(len + 2), *q = shuf;
		q += sprintf(q, "%s\n", text);
		for (size_t i = 0; i < n; i++)
			q += sprintf(q, "%s\n", lines[i]);
		struct dataset d;
		struct gs_err e;
		memset(&d, 0, sizeof d);
		assert_int_equal(dataset_load_buffer(&d, "v4.0.csv", shuf, (size_t)(q - shuf), &e), 0);
		assert_int_equal(dataset_classify(&d), 0);
		char *b = groups_text(&d, &nrows2, &red2);
		assert_string_equal(a, b);
		free(b);
		free(shuf);
		dataset_free(&d);
	}
	free(lines);
	free(a);
	free(text);
}

/* Whether rows a and b of ds have one non-empty run list (the same minutes, in order). */
static bool runs_equal(const struct dataset *d, const struct row *a, const struct row *b)
{
	if (a->run_n == 0 || a->run_n != b->run_n)
		return false;
	for (unsigned k = 0; k < a->run_n; k++)
		if (d->runs[a->run_off + k] != d->runs[b->run_off + k])
			return false;
	return true;
}

/* Duplicates and carried-over rows of random tables against the rules written out pairwise:
 * a duplicate group is the rows of one round, benchmark and system id with one run list, the
 * standing row the first by (energy scored first, submitter by name, file order) and
 * collapsed_from its group's submitters in that order; a row of a later round than the
 * earliest with its benchmark, accelerators and run list (the first in file order of equal
 * versions) is carried over from it, and rows sharing those name the first of them in file
 * order as their class. */
static void duplicates_and_carried_pairwise(void **state)
{
	static const char *rounds[] = { "v4.1", "v3.1", "v4.0", "v5.0", "v4.00" };
	static const char *runs[] = { "", "1;2;3", "3;2;1", "1;2;3.5", "2;2;2", "1.5;2.5;3.5;4.5", "2;1;3", "0.5;1;1.5" };
	static const char *subs[] = { "Dell", "smc", "smc-dc", "Lenovo", "ASUS" };
	(void)state;
	for (int trial = 0; trial < 40; trial++) {
		char *text = malloc(1 << 20), *q = text;
		q += sprintf(q, "round,submitter,system,benchmark,accelerators,minutes,run_minutes,energy_j\n");
		size_t nrows = 60 + rnd(200);
		for (size_t i = 0; i < nrows; i++) {
			/* unique (round, submitter, system, benchmark): the row number in the system id
			 * would make every id distinct, so ids repeat through a small set instead, and the
			 * submitter carries the row number apart from a few names */
			unsigned sys = rnd(4);
			q += sprintf(q, "%s,%s%s%zu,sys%u,%s,%d,%u,\"%s\",%s\n", rounds[rnd(5)], subs[rnd(5)],
				     rnd(3) ? "-" : "~", i, sys, rnd(4) ? "bert" : "ssd", rnd(4) ? 8 : 16,
				     1 + rnd(9), runs[rnd(8)], rnd(3) ? "" : "1000");
		}
		struct dataset d;
		struct gs_err e;
		memset(&d, 0, sizeof d);
		if (trial % 2) {
			assert_int_equal(dataset_load_buffer(&d, "r.csv", text, (size_t)(q - text), &e), 0);
		} else { /* two files, classified after each, as a load of several files is */
			char *mid = text + (q - text) / 2, *head_end = strchr(text, '\n') + 1;
			while (*mid != '\n')
				mid++;
			mid++;
			size_t hl = (size_t)(head_end - text), second = (size_t)(q - mid);
			char *b2 = malloc(hl + second);
			memcpy(b2, text, hl);
			memcpy(b2 + hl, mid, second);
			assert_int_equal(dataset_load_buffer(&d, "r1.csv", text, (size_t)(mid - text), &e), 0);
			assert_int_equal(dataset_classify(&d), 0);
			assert_int_equal(dataset_load_buffer(&d, "r2.csv", b2, hl + second, &e), 0);
			free(b2);
		}
		assert_int_equal(dataset_classify(&d), 0);
		if (trial % 4 == 1) /* again: the same marks */
			assert_int_equal(dataset_classify(&d), 0);
		assert_int_equal(d.n, nrows);
		for (size_t i = 0; i < d.n; i++) {
			const struct row *r = &d.rows[i];
			/* the duplicate group of r, and its standing row */
			size_t stand = i, members = 0;
			for (size_t j = 0; j < d.n; j++) {
				const struct row *o = &d.rows[j];
				if (!(runs_equal(&d, r, o) && o->round == r->round && o->benchmark == r->benchmark &&
				      o->system == r->system))
					continue;
				members++;
				const struct row *s = &d.rows[stand];
				int c = isnan(o->energy_j) != isnan(s->energy_j) ? (isnan(o->energy_j) ? 1 : -1)
									       : strcmp(o->submitter, s->submitter);
				if (c < 0 || (c == 0 && j < stand))
					stand = j;
			}
			if (members < 2) {
				assert_int_equal(r->dup_of, -1);
				assert_string_equal(r->collapsed_from, "");
			} else if (stand != i) {
				assert_int_equal(r->dup_of, (long)stand);
				assert_string_equal(r->collapsed_from, "");
				assert_non_null(strstr(d.rows[stand].collapsed_from, r->submitter));
			} else {
				assert_int_equal(r->dup_of, -1);
				/* every member named once, as many as there are */
				size_t names = 1;
				for (const char *p = r->collapsed_from; (p = strchr(p, ';')); p++)
					names++;
				assert_int_equal(names, members);
				assert_true(strncmp(r->collapsed_from, r->submitter, strlen(r->submitter)) == 0);
			}
			/* carried over: the earliest round with r's benchmark, accelerators and run list;
			 * its class: the first row of them in file order, when there are two */
			const char *first = NULL;
			size_t class_first = d.n, class_n = 0;
			for (size_t j = 0; j < d.n; j++) {
				const struct row *o = &d.rows[j];
				if (!(runs_equal(&d, r, o) && o->benchmark == r->benchmark &&
				      o->accelerators == r->accelerators))
					continue;
				if (!first || text_version_cmp(o->round, first) < 0)
					first = o->round;
				if (class_n++ == 0)
					class_first = j;
			}
			if (first && text_version_cmp(r->round, first) > 0)
				assert_ptr_equal(r->carried_from, first);
			else
				assert_string_equal(r->carried_from, "");
			if (r->run_n && class_n > 1)
				assert_int_equal(r->runs_class, class_first + 1);
			else
				assert_int_equal(r->runs_class, 0);
		}
		/* collapsed_from lists the group in order: energy scored first, then by name */
		for (size_t i = 0; i < d.n; i++) {
			const struct row *r = &d.rows[i];
			if (!*r->collapsed_from)
				continue;
			char want[4096] = "";
			const struct row *prev = NULL;
			for (;;) { /* the next member after prev in (energy, submitter, row) order */
				const struct row *best = NULL;
				for (size_t j = 0; j < d.n; j++) {
					const struct row *o = &d.rows[j];
					if (!(o == r || o->dup_of == (long)i))
						continue;
					#define BEFORE(x, y) (isnan((x)->energy_j) != isnan((y)->energy_j) ? !isnan((x)->energy_j) : \
						strcmp((x)->submitter, (y)->submitter) != 0 ? strcmp((x)->submitter, (y)->submitter) < 0 : (x) < (y))
					if (prev && !BEFORE(prev, o))
						continue;
					if (!best || BEFORE(o, best))
						best = o;
					#undef BEFORE
				}
				if (!best)
					break;
				snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", *want ? ";" : "", best->submitter);
				prev = best;
			}
			assert_string_equal(r->collapsed_from, want);
		}
		dataset_free(&d);
		free(text);
	}
}

/* 15 v4.1 rows repeat a v4.0 row's run list exactly: carried over from v4.0, whichever file
 * loads first; v4.0 rows carry nothing. */
static void v41_carried_from_v40(void **state)
{
	char p40[4096], p41[4096];

	(void)state;
	top_path("data/mlperf_training_v4.0.csv", p40, sizeof p40);
	top_path("data/mlperf_training_v4.1.csv", p41, sizeof p41);
	for (int order = 0; order < 2; order++) {
		struct dataset d;
		struct gs_err e;
		size_t carried = 0;
		memset(&d, 0, sizeof d);
		if (dataset_load_csv(&d, order ? p41 : p40, &e) < 0 || dataset_load_csv(&d, order ? p40 : p41, &e) < 0) {
			dataset_free(&d);
			skip();
		}
		assert_int_equal(dataset_classify(&d), 0);
		for (size_t i = 0; i < d.n; i++) {
			if (!*d.rows[i].carried_from)
				continue;
			assert_string_equal(d.rows[i].round, "v4.1");
			assert_string_equal(d.rows[i].carried_from, "v4.0");
			carried++;
		}
		assert_int_equal(carried, 15);
		dataset_free(&d);
	}
}

/* Rows without runs never group; a changed run or accelerator count breaks a group. */
static void groups_need_identical_runs(void **state)
{
	(void)state;
	assert_int_equal(load("round,submitter,system,benchmark,accelerators,minutes,run_minutes\n"
			      "v1,b,s,bert,8,1,1;2;3\nv1,a,s,bert,8,1,3;2;1\nv1,c,s,bert,8,1,1;2;3.0001\n"
			      "v1,d,t,bert,8,1,\nv1,e,t,bert,8,1,\nv2,a,s,bert,8,1,1;2;3\n"
			      "v2,a,u,bert,16,1,1;2;3.0001\n"), 0);
	assert_int_equal(dataset_classify(&ds), 0);
	assert_int_equal(ds.rows[0].dup_of, 1); /* b stands behind a */
	assert_string_equal(ds.rows[1].collapsed_from, "a;b");
	assert_int_equal(ds.rows[2].dup_of, -1);
	assert_int_equal(ds.rows[3].dup_of, -1);
	assert_int_equal(ds.rows[4].dup_of, -1);
	assert_string_equal(ds.rows[3].collapsed_from, "");
	assert_string_equal(ds.rows[5].carried_from, "v1");
	assert_string_equal(ds.rows[2].carried_from, "");
	/* the same runs on other accelerators are another measurement */
	assert_string_equal(ds.rows[6].carried_from, "");
	assert_int_equal(ds.rows[6].runs_class, 0);
	assert_int_equal(ds.rows[5].runs_class, 1); /* with rows 0 and 1 */
}

/* Every availability and division spelling of the shipped rounds maps to a class: the results
 * CSVs in data/ and the systems JSON of the raw trees (v4.0 to v5.1) when present. */
static void availability_map_covers_published(void **state)
{
	char pat[4096];
	glob_t g;
	size_t checked = 0;

	(void)state;
	if (glob(top_path("data/mlperf_training_*.csv", pat, sizeof pat), 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			assert_int_equal(dataset_load_csv(&ds, g.gl_pathv[i], &err), 0);
		globfree(&g);
	}
	assert_true(ds.n > 0);
	for (size_t i = 0; i < ds.n; i++) {
		if (ds.rows[i].avail == AVAIL_OTHER || ds.rows[i].div == DIV_OTHER)
			fail_msg("%s:%ld: availability '%s', division '%s' map to nothing", ds.rows[i].file,
				 ds.rows[i].line, ds.rows[i].availability, ds.rows[i].division);
		checked++;
	}
	if (glob(top_path("../shared/mlperf/training_results_*/*/systems/*.json", pat, sizeof pat), 0, NULL, &g) != 0)
		return; /* no raw trees here: the CSVs were checked */
	for (size_t i = 0; i < g.gl_pathc; i++) {
		json_t *j = json_load_file(g.gl_pathv[i], 0, NULL);
		const char *st = json_string_value(json_object_get(j, "status"));
		const char *dv = json_string_value(json_object_get(j, "division"));
		if (st && dataset_avail(st) == AVAIL_OTHER)
			fail_msg("%s: status '%s' maps to nothing", g.gl_pathv[i], st);
		if (dv && dataset_division(dv) == DIV_OTHER)
			fail_msg("%s: division '%s' maps to nothing", g.gl_pathv[i], dv);
		checked += st != NULL;
		json_decref(j);
	}
	globfree(&g);
	assert_true(checked > 300);
	/* the spellings older trees use, and the classes */
	assert_int_equal(dataset_avail("onprem"), AVAIL_ONPREM);
	assert_int_equal(dataset_avail("Cloud"), AVAIL_CLOUD);
	assert_int_equal(dataset_avail("available"), AVAIL_ONPREM);
	assert_int_equal(dataset_avail("Preview"), AVAIL_PREVIEW);
	assert_int_equal(dataset_avail("research"), AVAIL_RESEARCH);
	assert_int_equal(dataset_avail("rdi"), AVAIL_RESEARCH);
	assert_string_equal(avail_name(AVAIL_CLOUD), "Available cloud");
}

/* An availability or division that maps to nothing keeps its text: one warning in all, at the
 * first such row. */
static void unmapped_availability_one_warning(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes,availability,division\n"
			      "a,bert,8,1,onprem,closed\nb,bert,8,1,soon,closed\nc,bert,8,1,later,open\n"
			      "d,bert,8,1,cloud,semi\n"), 0);
	assert_int_equal(dataset_classify(&ds), 0);
	assert_int_equal(ds.warn.total, 1);
	assert_true(warned("t.csv:3: 3 rows with an availability or division that maps to nothing (first: 'soon'"));
	assert_string_equal(row_avail(&ds.rows[1]), "soon");
	assert_string_equal(row_avail(&ds.rows[0]), "Available on-premise");
	assert_int_equal(ds.rows[2].div, DIV_OPEN);
	assert_int_equal(ds.rows[3].div, DIV_OTHER);
	assert_string_equal(ds.rows[3].division, "semi");
}

/* The shipped prices: every family spelled as data/families.csv spells it, and the rows of
 * v4.1 priced by their family (none for families without a public price). */
static void shipped_prices(void **state)
{
	char fam[4096], pr[4096], v41[4096];
	size_t priced = 0, unpriced = 0;

	(void)state;
	if (dataset_load_families(&ds, top_path("data/families.csv", fam, sizeof fam), &err) < 0)
		skip();
	assert_int_equal(dataset_load_prices(&ds, top_path("data/prices.csv", pr, sizeof pr), &err), 0);
	assert_true(ds.nprices >= 10);
	for (size_t i = 0; i < ds.nprices; i++) {
		size_t k = 0;
		while (k < ds.nrules && strcmp(ds.rules[k].family, ds.prices[i].family) != 0)
			k++;
		if (k == ds.nrules)
			fail_msg("prices.csv:%ld: family '%s' is not a family of families.csv", ds.prices[i].line,
				 ds.prices[i].family);
	}
	assert_int_equal(dataset_load_csv(&ds, top_path("data/mlperf_training_v4.1.csv", v41, sizeof v41), &err), 0);
	assert_int_equal(dataset_classify(&ds), 0);
	for (size_t i = 0; i < ds.n; i++) {
		const struct row *r = &ds.rows[i];
		if (strcmp(r->family, "H100 SXM") == 0) {
			assert_true(r->price_lo == 1.99 && r->price_hi == 5.00);
			priced++;
		} else if (strncmp(r->family, "TPU", 3) == 0 || strncmp(r->family, "Gaudi", 5) == 0) {
			assert_true(isnan(r->price_lo) && isnan(r->price_hi));
			unpriced++;
		}
	}
	assert_true(priced > 10 && unpriced > 0);
}

/* A prices table in any column order, quoted sources with commas, CRLF; families matched under
 * ASCII folding; a table with an error leaves no price behind. */
static void prices_table(void **state)
{
	static const char good[] = "date,source,usd_per_hour_high,usd_per_hour_low,family\r\n"
				   "2026,\"a, \"\"b\"\"\",5,1.5,h100 sxm\r\n2026,,0,0,Free\r\n";
	static const char bad[] = "family,usd_per_hour_low,usd_per_hour_high,source,date\n"
				  "B200,1,2,s,d\nB300,3,2,s,d\n";

	(void)state;
	assert_int_equal(dataset_load_prices_buffer(&ds, "p.csv", good, sizeof good - 1, &err), 0);
	assert_int_equal(ds.nprices, 2);
	assert_string_equal(ds.prices[0].source, "a, \"b\"");
	assert_int_equal(dataset_load_prices_buffer(&ds, "q.csv", bad, sizeof bad - 1, &err), -1);
	assert_int_equal(ds.nprices, 2);
	assert_string_equal(err.file, "q.csv");
	assert_int_equal(err.line, 3);
	assert_int_equal(err.col, 8);
	assert_int_equal(load("system,benchmark,accelerators,minutes,accelerator\n"
			      "a,bert,8,1,H100 SXM\nb,bert,8,1,Free\nc,bert,8,1,Other\n"), 0);
	assert_int_equal(dataset_classify(&ds), 0);
	assert_true(ds.rows[0].price_lo == 1.5 && ds.rows[0].price_hi == 5);
	assert_true(ds.rows[1].price_lo == 0 && ds.rows[1].price_hi == 0);
	assert_true(isnan(ds.rows[2].price_lo));
}

/* Minutes and runs the arithmetic cannot carry (60/T not finite) and energy below the normal
 * doubles are refused at load with their file:line:column, so that no analysis meets them. */
static void tiny_numbers_refused(void **state)
{
	(void)state;
	assert_int_equal(load("system,benchmark,accelerators,minutes,run_minutes,energy_j\n"
			      "a,bert,8,1e-307,,\n"
			      "b,bert,8,2.5,1e-310;2.5,\n"
			      "c,bert,8,2.5,,1e-320\n"
			      "d,bert,8,3e-306,3e-306,0\n"), 0);
	assert_int_equal(ds.n, 3);
	assert_string_equal(ds.rows[0].system, "b");
	assert_true(warned("t.csv:2:10: minutes: '1e-307' is too small to compute with"));
	assert_int_equal(ds.rows[0].run_n, 0);
	assert_true(warned("t.csv:3:14: run_minutes: '1e-310'"));
	assert_true(isnan(ds.rows[1].energy_j));
	assert_true(warned("t.csv:4:15: energy_j: '1e-320'"));
	/* the smallest that are carried load */
	assert_true(ds.rows[2].minutes == 3e-306);
	assert_int_equal(ds.rows[2].run_n, 1);
	assert_true(ds.rows[2].energy_j == 0);
	for (size_t i = 0; i < ds.n; i++)
		assert_true(dataset_minutes_ok(ds.rows[i].minutes));
	assert_false(dataset_minutes_ok(1e-307));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(columns_in_any_order, setup, teardown),
		cmocka_unit_test_setup_teardown(full_row_and_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(bom_crlf_quotes, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_required_column, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicated_column, setup, teardown),
		cmocka_unit_test_setup_teardown(empty_file, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_minutes_skipped_with_location, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_accelerators_skipped, setup, teardown),
		cmocka_unit_test_setup_teardown(wrong_field_count_and_empty_required, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicate_keeps_first, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicate_gives_back_its_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(lists_before_and_after_classify, setup, teardown),
		cmocka_unit_test_setup_teardown(lists_of_many_pairs, setup, teardown),
		cmocka_unit_test_setup_teardown(system_names_kept_not_interned, setup, teardown),
		cmocka_unit_test_setup_teardown(prices_follow_families_taking_turns, setup, teardown),
		cmocka_unit_test_setup_teardown(same_system_other_submitter_is_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicates_across_files, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicates_after_classify, setup, teardown),
		cmocka_unit_test_setup_teardown(rows_as_if_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(skipped_rows_leave_no_text, setup, teardown),
		cmocka_unit_test(strpool_keeps_pointers),
		cmocka_unit_test_setup_teardown(counts_as_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicates_counted_once, setup, teardown),
		cmocka_unit_test_setup_teardown(control_characters_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(nul_byte_in_field, setup, teardown),
		cmocka_unit_test_setup_teardown(utf8_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(unbalanced_quote_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(stray_quote_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_run_minutes_warn, setup, teardown),
		cmocka_unit_test_setup_teardown(families_first_match_case_insensitive, setup, teardown),
		cmocka_unit_test_setup_teardown(families_bad_header, setup, teardown),
		cmocka_unit_test_setup_teardown(rounds_and_workload_order, setup, teardown),
		cmocka_unit_test_setup_teardown(names_match_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(names_found_exact_first, setup, teardown),
		cmocka_unit_test_setup_teardown(long_field_and_line, setup, teardown),
		cmocka_unit_test_setup_teardown(sanitize_helper, setup, teardown),
		cmocka_unit_test_setup_teardown(decimal_parser_matches_strtod, setup, teardown),
		cmocka_unit_test_setup_teardown(integer_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(run_lists, setup, teardown),
		cmocka_unit_test_setup_teardown(extra_records_shared, setup, teardown),
		cmocka_unit_test_setup_teardown(optional_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(energy_warning_column, setup, teardown),
		cmocka_unit_test_setup_teardown(file_names_sanitized, setup, teardown),
		cmocka_unit_test_setup_teardown(families_ascii_folding, setup, teardown),
		cmocka_unit_test_setup_teardown(row_names, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_prices, setup, teardown),
		cmocka_unit_test_setup_teardown(prices_table, setup, teardown),
		cmocka_unit_test_setup_teardown(v40_duplicate_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(v41_carried_from_v40, setup, teardown),
		cmocka_unit_test(duplicates_and_carried_pairwise),
		cmocka_unit_test_setup_teardown(groups_need_identical_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(availability_map_covers_published, setup, teardown),
		cmocka_unit_test_setup_teardown(unmapped_availability_one_warning, setup, teardown),
		cmocka_unit_test_setup_teardown(lists_have_no_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(file_truncated_while_loading, setup, teardown),
		cmocka_unit_test_setup_teardown(tiny_numbers_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
