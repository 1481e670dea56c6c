/* Results CSV loader, families and dataset queries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"

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
	assert_int_equal(ds.n, 1);
	assert_int_equal(ds.rows[0].accelerators, 8);
	assert_int_equal(ds.warn.total, 5);
	assert_true(warned("t.csv:4:8: accelerators: '2.5'"));
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

/* The lists kept by dataset_classify give what scanning the rows gives, and are not used once
 * more rows are loaded. */
static void names_kept_match_scan(void **state)
{
	static const char *const rounds[] = { "v3.1", "v4.0", "v4.1", "v5.0", "vX" };
	static const char *const benches[] = { "bert", "ssd", "gpt3", "zeta", "alpha", "resnet", "unet3d",
						"gnn", "dlrm_dcnv2", "flux1", "llama31_8b", "omega" };
	char *text = malloc(200000), *p;
	uint64_t x = 2463534242ull;
	const char *a[64], *b[64], *c[64];
	const char *seen[4][7][64]; /* [max][round or rounds][i]: what the scan gave */
	size_t nseen[4][7];

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		p = text + sprintf(text, "round,system,benchmark,accelerators,minutes\n");
		for (int i = 0; i < 3000; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* runs of the same pair now and then, as sorted results have */
			int r = (int)(x % 5), bn = (int)(x / 5 % 12);
			if (pass == 1 && r == 4)
				r = 3; /* the second file has no vX */
			p += sprintf(p, "%s,s%d_%d,%s,8,1\n", rounds[r], pass, i, benches[bn]);
		}
		assert_int_equal(dataset_load_buffer(&ds, "t.csv", text, (size_t)(p - text), &err), 0);
		for (int classified = 0; classified < 2; classified++) {
			for (size_t max = 1, mi = 0; max <= 64; max *= 4, mi++) {
				size_t n = dataset_rounds(&ds, a, max);
				assert_int_equal(n, ref_names(NULL, c, max));
				for (size_t i = 0; i < n; i++)
					assert_string_equal(a[i], c[i]);
				if (!classified) {
					nseen[mi][6] = n;
					memcpy(seen[mi][6], a, n * sizeof *a);
				} else { /* the kept lists: the same pointers in the same order */
					assert_int_equal(n, nseen[mi][6]);
					assert_memory_equal(a, seen[mi][6], n * sizeof *a);
				}
				for (size_t r = 0; r < 6; r++) {
					const char *round = r < 5 ? rounds[r] : "v9.9";
					size_t m = dataset_workloads(&ds, round, b, max);
					size_t want = ref_names(round, c, 64);
					if (!classified) {
						nseen[mi][r] = m;
						memcpy(seen[mi][r], b, m * sizeof *b);
					} else {
						assert_int_equal(m, nseen[mi][r]);
						assert_memory_equal(b, seen[mi][r], m * sizeof *b);
					}
					assert_int_equal(m, want < max ? want : max);
					for (size_t i = 0; i < m; i++) { /* the same names, in display order */
						size_t j;
						for (j = 0; j < want && strcmp(b[i], c[j]) != 0; j++)
							;
						assert_true(j < want);
						if (i)
							assert_true(name_find(b, i, b[i], false) == i);
					}
				}
			}
			if (!classified)
				dataset_classify(&ds);
			else
				assert_true(ds.names != NULL && ds.names_rows == ds.n);
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


/* ------------------------------------------------------------------ fast path vs libcsv */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static bool same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "(null)", b ? b : "(null)") == 0;
}

/* Everything observable of two loads of text must agree: the result, the error, every row
 * field, the runs, and the warnings word for word. Frees both. */
static void loads_agree(const char *text, size_t len, struct dataset *pa, int ra, const struct gs_err *pea,
			struct dataset *pb, int rb, const struct gs_err *peb)
{
	struct dataset a = *pa, b = *pb;
	struct gs_err ea = *pea, eb = *peb;

	if (ra != rb || strcmp(ea.msg, eb.msg) || strcmp(ea.file, eb.file) || ea.line != eb.line || ea.col != eb.col ||
	    a.n != b.n || a.nruns != b.nruns || a.warn.total != b.warn.total || a.warn.n != b.warn.n)
		fail_msg("loaders differ on [%.*s]: rc %d/%d, err '%s' %ld:%ld / '%s' %ld:%ld, rows %zu/%zu, "
			 "warnings %zu/%zu", (int)(len > 300 ? 300 : len), text, ra, rb, ea.msg, ea.line,
			 ea.col, eb.msg, eb.line, eb.col, a.n, b.n, a.warn.total, b.warn.total);
	for (size_t i = 0; i < a.n; i++) {
		const struct row *x = &a.rows[i], *y = &b.rows[i];
		bool same = same_text(x->round, y->round) && same_text(x->submitter, y->submitter) &&
			    same_text(x->system, y->system) && same_text(x->system_name, y->system_name) &&
			    same_text(x->division, y->division) && same_text(x->availability, y->availability) &&
			    same_text(x->accelerator, y->accelerator) && same_text(x->framework, y->framework) &&
			    same_text(x->benchmark, y->benchmark) && x->nodes == y->nodes &&
			    x->per_node == y->per_node && x->accelerators == y->accelerators &&
			    memcmp(&x->minutes, &y->minutes, sizeof x->minutes) == 0 &&
			    x->runs_scored == y->runs_scored && x->runs_failed == y->runs_failed &&
			    memcmp(&x->scaling_factor, &y->scaling_factor, sizeof x->scaling_factor) == 0 &&
			    x->run_off == y->run_off && x->run_n == y->run_n && x->line == y->line &&
			    same_text(x->file, y->file);
		if (!same)
			fail_msg("row %zu differs on [%.*s]: system '%s' / '%s'", i, (int)(len > 300 ? 300 : len),
				 text, x->system, y->system);
	}
	assert_memory_equal(a.runs ? (void *)a.runs : (void *)"", b.runs ? (void *)b.runs : (void *)"",
			    a.nruns * sizeof(double));
	for (size_t i = 0; i < a.warn.n; i++)
		if (strcmp(a.warn.items[i], b.warn.items[i]))
			fail_msg("warning %zu differs on [%.*s]: '%s' / '%s'", i, (int)(len > 300 ? 300 : len),
				 text, a.warn.items[i], b.warn.items[i]);
	dataset_free(pa);
	dataset_free(pb);
}

/* Loads text with the fast path and with libcsv alone: they must agree. */
static void both_loaders_agree(const char *text, size_t len)
{
	struct dataset a, b;
	struct gs_err ea, eb;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&ea, 0, sizeof ea);
	memset(&eb, 0, sizeof eb);
	int ra = dataset_load_buffer(&a, "t.csv", text, len, &ea);
	int rb = dataset_load_buffer_reference(&b, "t.csv", text, len, &eb);
	loads_agree(text, len, &a, ra, &ea, &b, rb, &eb);
}

/* Loads text in one pass and in parallel chunks of the given size, after the rows of pre (a
 * file loaded before, for duplicates across files; NULL: none): they must agree. */
static void parallel_agrees(const char *pre, const char *text, size_t len, size_t chunk)
{
	struct dataset a, b;
	struct gs_err ea, eb;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&ea, 0, sizeof ea);
	memset(&eb, 0, sizeof eb);
	if (pre) {
		assert_int_equal(dataset_load_buffer(&a, "pre.csv", pre, strlen(pre), &ea), 0);
		assert_int_equal(dataset_load_buffer(&b, "pre.csv", pre, strlen(pre), &eb), 0);
	}
	int ra = dataset_load_buffer(&a, "t.csv", text, len, &ea);
	int rb = dataset_load_buffer_parallel(&b, "t.csv", text, len, chunk, &eb);
	loads_agree(text, len, &a, ra, &ea, &b, rb, &eb);
}

static void fast_path_matches_libcsv(void **state)
{
	(void)state;
	static const char *const cases[] = {
		"system,benchmark,accelerators,minutes\na,bert,8,1\n",
		" system , benchmark ,\taccelerators\t, minutes \r\n  a b  ,bert , 8 ,\t1.5 \r\n",
		"system,benchmark,accelerators,minutes\n\n   \n\t\n\r\n \r\nb,bert,2,3\n",
		"system,benchmark,accelerators,minutes\ra,bert,8,1\rb,bert,2,1\r",
		"system,benchmark,accelerators,minutes\na,bert,8,1\r\rb,bert,2,1\n",
		"system,benchmark,accelerators,minutes\na,bert,8,1 \r\n",
		"system,benchmark,accelerators,minutes\na,bert,8,1",
		"system,benchmark,accelerators,minutes\na,bert,8,1\n  ",
		"system,benchmark,accelerators,minutes\na,bert,8,1\n  x",
		"system,benchmark,accelerators,minutes\na,bert,8,1\n,,,\n , , , \n,\n",
		"system,benchmark,accelerators,minutes\n\"a\nb\",bert,8,1\nc,bert,8,abc\n",
		"system,benchmark,accelerators,minutes\n\" a \",bert,\" 8 \",\"1 \"\n",
		"system,benchmark,accelerators,minutes\na,bert,8,\"1\n",
		"system,benchmark,accelerators,minutes\na,bert,8,1 \"x\"\n",
		"system,benchmark,accelerators,minutes\n\"a\" x,bert,8,1\n",
		/* quoted fields the fast path takes, and their near misses that libcsv takes */
		"system,benchmark,accelerators,minutes\n\"a,b\",\"bert\",\"8\",\"1.5\"\n\"\",bert,8,1\n",
		"system,benchmark,accelerators,minutes\nx,bert,8,\"1\"\n\"\"\n\" \"\n\"\",\"\",\"\",\"\"\n",
		"system,benchmark,accelerators,minutes\n\"a\"\"b\",bert,8,1\n\"a\" ,bert,8,1\n \"a\",bert,8,1\n",
		"system,benchmark,accelerators,minutes\n\"a\"b,bert,8,1\nx\"a\",bert,8,1\n\"a\",bert,8,\"1\r\"\n",
		"system,benchmark,accelerators,minutes\n\"a,bert,8,1\nb\",bert,8,1\n\"0123456789abcdef,x\",bert,8,1\n",
		"\"system\",\"benchmark\",\"accelerators\",\"minutes\"\n\" a b \",bert,8,\" 2 \"\n",
		"system,benchmark,accelerators,minutes,\na,bert,8,1,\nb,bert,8,1\n",
		"\xef\xbb\xbfsystem,benchmark,accelerators,minutes\na,bert,8,1\n",
		"system,benchmark,accelerators,minutes\na\x01\x7f\xc3\xa1\xff,bert,8,1\na\x01\x7f\xc3\xa1\xff,bert,8,2\n",
		"round,system,benchmark,accelerators,minutes,run_minutes,nodes,runs_scored,scaling_factor\n"
		"v1,a,bert,8,1,1;2; 3 ;;4,2,3,1.5\nv1,b,bert,8,1,\" 1;2\",x,-1,0\nv1,e,bert,8,1,\"\",1.0,2.5,abc\n"
		"v1,a,bert,8,2,,,,\nv1, a ,bert,8,2,,,,\n,a,bert,8,2,,,,\nt,a,bert,8,2,,,,\nv1,g,bert,8,1,1;x,,,\n",
		"system,benchmark,accelerators,minutes\na,bert,08,1e2\nb,bert,8.000,.5\nc,bert,1e3,5.\n"
		"d,bert,+3,+3\ne,bert,-0,-0\nf,bert,8,00012.500\ng,bert,8,1.2.3\nh,bert,8,0x10\n"
		"i,bert,8,1234567890123456789\nj,bert,8,0.000000000000000000000000123\nk,bert,8, 2 \n",
		"system,benchmark,accelerators,minutes,minutes\nx,bert,1,2,3\n",
		"system,benchmark,minutes\nx,bert,1\n",
		"",
		"\n\n",
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		both_loaders_agree(cases[i], strlen(cases[i]));

	/* random text over an alphabet that stresses the splitter: separators, blanks, CR, quotes,
	 * control bytes, UTF-8, numbers */
	static const char *const tok[] = {
		",", ",", ",", " ", "\t", "\r", "\n", "\n", "\r\n", "\"", "a", "sys", "bert", "8", "16",
		"1.5", "-2", "0", ".", "1e3", ";", "\x01", "\xc3\xa1", "\xff", "v4.1", "x y", "",
		"\"a,b\"", "\" x \"", "\"\"", "\"8\"", ",\"sys, 1\",",
	};
	static const char *const head[] = {
		"system,benchmark,accelerators,minutes\n",
		"round,system,benchmark,accelerators,minutes,run_minutes,nodes,scaling_factor\n",
		"minutes , system,\tbenchmark,accelerators,submitter\r\n",
	};
	char buf[2048];
	for (int iter = 0; iter < 20000; iter++) {
		size_t n = (size_t)snprintf(buf, sizeof buf, "%s", head[rnd(3)]);
		unsigned ntok = rnd(120);
		for (unsigned k = 0; k < ntok && n + 16 < sizeof buf; k++) {
			/* mostly well-formed rows, so that the rows themselves get compared */
			if (rnd(4) == 0)
				n += (size_t)snprintf(buf + n, sizeof buf - n, "s%u,bert,%u,%u.%u\n", rnd(50),
						      1 + rnd(64), rnd(100), rnd(1000));
			else
				n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", tok[rnd(sizeof tok / sizeof tok[0])]);
		}
		both_loaders_agree(buf, n);
	}
}

/* The parallel loader (big files) against one pass: chunks of every size down to a byte, cut
 * inside quoted fields, CRLF pairs and blank lines, on the fast path's cases and random text. */
static void parallel_matches_one_pass(void **state)
{
	(void)state;
	static const char *const cases[] = {
		"system,benchmark,accelerators,minutes\na,bert,8,1\nb,bert,8,2\na,bert,8,3\n",
		"system,benchmark,accelerators,minutes\n\"a\nb\nc\",bert,8,1\nc,bert,8,abc\n\"d\r\ne\",bert,8,1\n",
		"system,benchmark,accelerators,minutes\na,bert,8,1\nb,bert,8,1\n\"c,bert,8,1\nd,bert,8,1\n",
		"system,benchmark,accelerators,minutes\na,bert,8,1\nb,bert,8,1\nc,bert,8,1 \"x\"\nd,bert,8,1\n",
		"system,benchmark,accelerators,minutes\r\na,bert,8,1\r\nb,bert,8,1\r\n\r\nc,bert,8,1",
		"system,benchmark,accelerators,minutes\na,bert,8,1\nb,bert,8,\"1\"",
		"system,benchmark,accelerators,minutes\na,bert,8,1\nb,bert,8,\"1",
		"system,benchmark,accelerators,minutes\n",
		"system,benchmark,accelerators,minutes",
		"\n\nsystem,benchmark,accelerators,minutes\n\n\na,bert,8,1\n\n",
		"\"sys\ntem\",benchmark,accelerators,minutes\na,bert,8,1\n",
		"system,benchmark,accelerators,minutes,minutes\nx,bert,1,2,3\n",
		"system,benchmark,minutes\nx,bert,1\n",
		"\xef\xbb\xbfsystem,benchmark,accelerators,minutes\na,bert,8,1\n",
		"round,system,benchmark,accelerators,minutes,run_minutes,nodes,runs_scored,scaling_factor\n"
		"v1,a,bert,8,1,1;2; 3 ;;4,2,3,1.5\nv1,b,bert,8,1,\" 1;2\",x,-1,0\nv1,e,bert,8,1,\"\",1.0,2.5,abc\n"
		"v1,a,bert,8,2,,,,\nv1, a ,bert,8,2,,,,\n,a,bert,8,2,,,,\nt,a,bert,8,2,,,,\nv1,g,bert,8,1,1;x,,,\n"
		"v1,\xc3\xa1\x01,bert,8,1,,,,\nv1,\xc3\xa1\x01,bert,8,1,,,,\nv1,\"\xc3\xa1\x01\",bert,8,1,,,,\n",
		"round,system,benchmark,accelerators,minutes\n,a,bert,8,1\n,a,bert,8,1\nt,a,bert,8,1\nv,a,bert,8,1\n"
		"v,a,bert,8,1\n,b,bert,8,1\n",
		"",
	};
	static const size_t chunks[] = { 1, 2, 3, 5, 8, 13, 40, 100, 1 << 20 };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
			parallel_agrees(NULL, cases[i], strlen(cases[i]), chunks[c]);
			parallel_agrees("system,benchmark,accelerators,minutes\na,bert,8,1\n", cases[i],
					strlen(cases[i]), chunks[c]);
		}

	/* random text: well-formed rows with repeated names (duplicates), bad numbers, quoted
	 * fields with commas, newlines and CRLF, blank lines, stray quotes, control bytes */
	static const char *const tok[] = {
		",", ",", " ", "\t", "\r", "\n", "\n", "\r\n", "\"", "\"a,\nb\"", "\"x\r\ny\"", "\"\"",
		"a", "sys", "bert", "8", "1.5", "-2", "x", ";", "\x01", "\xc3\xa1", "\xff", "v4.1",
	};
	static const char *const head[] = {
		"system,benchmark,accelerators,minutes\n",
		"round,system,benchmark,accelerators,minutes,run_minutes,nodes,scaling_factor\r\n",
		"minutes , system,\tbenchmark,accelerators,submitter,framework\n",
	};
	static char buf[16384];
	for (int iter = 0; iter < 3000; iter++) {
		unsigned h = rnd(3);
		size_t n = (size_t)snprintf(buf, sizeof buf, "%s%s", rnd(8) ? "" : "\xef\xbb\xbf", head[h]);
		unsigned nrows = rnd(200), bad = rnd(4);
		for (unsigned k = 0; k < nrows && n + 200 < sizeof buf; k++) {
			unsigned what = rnd(10);
			if (bad && what == 0) {
				n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", tok[rnd(sizeof tok / sizeof tok[0])]);
				continue;
			}
			const char *q = what == 1 ? "\"" : "";
			const char *nl = what == 2 ? "\r\n" : "\n";
			if (h == 0)
				n += (size_t)snprintf(buf + n, sizeof buf - n, "%ss%u%s,bert,%u,%u.%u%s", q, rnd(60),
						      q, rnd(64), rnd(100), rnd(1000), nl);
			else if (h == 1)
				n += (size_t)snprintf(buf + n, sizeof buf - n, "v%u,s%u,%s,%u,%u.%u,%s%u;%u.5%s,%u,%s%s",
						      rnd(3), rnd(60), rnd(2) ? "bert" : "ssd", 1 + rnd(64), rnd(100),
						      rnd(1000), q, rnd(9), rnd(9), q, rnd(3), rnd(3) ? "1" : "x", nl);
			else
				n += (size_t)snprintf(buf + n, sizeof buf - n, "%u.%u, s%u ,bert,%u,Sub%u,%s%s%s",
						      rnd(10), rnd(100), rnd(60), 1 + rnd(64), rnd(3),
						      what == 3 ? "\"Py, \nTorch\"" : "PyTorch", what == 4 ? "\r" : "", nl);
		}
		size_t chunk = 1 + rnd(rnd(2) ? 64 : 2048);
		parallel_agrees(rnd(4) ? NULL : "system,benchmark,accelerators,minutes\ns1,bert,8,1\ns2,bert,8,1\n",
				buf, n, chunk);
	}
}

/* ------------------------------------------------------------------ decimals vs strtod */

/* The parser as it was before the fast path: trim, C notation only, strtod. */
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

/* The pool's hash sees the bytes of the text and its length, nothing around it, wherever the
 * text lies; the plain flag is printable ASCII, byte by byte. */
static void pool_hash_and_plain(void **state)
{
	(void)state;
	static const unsigned char mix[] = { 'a', 'Z', '0', ' ', '~', ',', 0x00, 0x09, 0x1f, 0x7f, 0x80, 0xc3, 0xff };
	unsigned char a[64], b[64];
	uint64_t x = 88172645463325252ull;
	size_t collisions = 0, plains = 0, total = 0;
	uint64_t prev[41] = { 0 };
	unsigned char prev_text[41][40];

	for (int iter = 0; iter < 20000; iter++) {
		size_t len = (size_t)(iter % 41), off = (size_t)(iter / 41 % 8);
		bool want = true;
		for (size_t i = 0; i < sizeof a; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			a[i] = (unsigned char)x; /* garbage around the text, different in a and b */
			b[i] = (unsigned char)(x >> 8);
		}
		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* mostly printable text, now and then one byte that is not */
			unsigned char c = x % 16 ? mix[x / 16 % 6] : mix[x / 16 % (sizeof mix)];
			a[off + i] = b[7 - off + i] = c;
			if (c < 0x20 || c >= 0x7f)
				want = false;
		}
		bool plain_a = !want, plain_b = !want;
		uint64_t ha = strpool_hash_plain((const char *)a + off, len, &plain_a);
		uint64_t hb = strpool_hash_plain((const char *)b + 7 - off, len, &plain_b);
		assert_true(plain_a == want && plain_b == want);
		assert_true(ha == hb);
		assert_true(ha == strpool_hash((const char *)a + off, len));
		plains += want;
		/* against the last text of the same length: a different text, a different hash */
		if (iter >= 41 && ha == prev[len] && memcmp(prev_text[len], a + off, len) != 0)
			collisions++;
		prev[len] = ha;
		memcpy(prev_text[len], a + off, len);
		total++;
	}
	assert_true(plains > total / 10 && plains < total);
	assert_int_equal(collisions, 0);
	/* one byte changed anywhere changes the hash; so does the length */
	char t[40];
	memset(t, 'q', sizeof t);
	for (size_t len = 1; len <= sizeof t; len++) {
		uint64_t h = strpool_hash(t, len);
		assert_true(h != strpool_hash(t, len - 1));
		for (size_t i = 0; i < len; i++) {
			t[i] = 'r';
			assert_true(strpool_hash(t, len) != h);
			t[i] = 'q';
		}
	}
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
		cmocka_unit_test_setup_teardown(same_system_other_submitter_is_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicates_across_files, setup, teardown),
		cmocka_unit_test_setup_teardown(control_characters_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(nul_byte_in_field, setup, teardown),
		cmocka_unit_test_setup_teardown(utf8_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(unbalanced_quote_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(stray_quote_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_run_minutes_warn, setup, teardown),
		cmocka_unit_test_setup_teardown(families_first_match_case_insensitive, setup, teardown),
		cmocka_unit_test_setup_teardown(families_bad_header, setup, teardown),
		cmocka_unit_test_setup_teardown(rounds_and_workload_order, setup, teardown),
		cmocka_unit_test_setup_teardown(names_kept_match_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(names_found_exact_first, setup, teardown),
		cmocka_unit_test_setup_teardown(long_field_and_line, setup, teardown),
		cmocka_unit_test_setup_teardown(sanitize_helper, setup, teardown),
		cmocka_unit_test_setup_teardown(fast_path_matches_libcsv, setup, teardown),
		cmocka_unit_test_setup_teardown(parallel_matches_one_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(decimal_parser_matches_strtod, setup, teardown),
		cmocka_unit_test_setup_teardown(integer_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(run_lists, setup, teardown),
		cmocka_unit_test_setup_teardown(pool_hash_and_plain, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
