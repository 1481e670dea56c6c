/* The command line of a view: defaults left out, values read back to the same number, words
 * quoted for a shell, and wrapped pieces that still paste as one command: random views, shown,
 * pasted through sh and read by the command line's own parser, are the views they came from. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmdline.h"
#include "planner.h"

static char buf[2048];

static const char *line(const struct params *p, enum metric m, bool log_y, char *const *files, int nfiles)
{
	const struct cmdline_view v = { p, m, log_y, files, nfiles, NULL, NULL, NULL, NULL };

	cmdline_format(&v, buf, sizeof buf);
	return buf;
}

static void defaults_leave_only_round_and_workload(void **state)
{
	struct params p;

	(void)state;
	params_init(&p);
	p.round = "v4.1";
	p.workload = "bert";
	assert_string_equal(line(&p, MET_EP, false, NULL, 0), "gpuscale --round v4.1 -w bert");
}

static void each_change_is_an_option(void **state)
{
	struct params p;
	const char *fams[] = { "H100 SXM", "B200" };

	(void)state;
	params_init(&p);
	p.round = "v5.0";
	p.workload = "llama2_70b_lora";
	p.filter.families = fams;
	p.filter.nfamilies = 2;
	p.theta = 17 / 20.0; /* as t steps it: 0.85, not 0.84999999999999998 */
	p.k = 0;
	p.mode = REF_PAPER;
	p.ref_rule = RULE_FASTEST;
	p.sort = COL_T;
	p.desc = !reg_col(COL_T)->desc;
	p.collapse = false;
	p.available_only = p.all_rounds = p.pareto_cost = true;
	assert_string_equal(line(&p, MET_S, true, NULL, 0),
			    "gpuscale --round v5.0 -w llama2_70b_lora --all-rounds -f 'H100 SXM' -f B200 "
			    "--available-only --no-collapse -m paper --ref-rule fastest --theta 0.85 -k auto "
			    "--sort t --reverse --pareto-cost --y-metric s --log-y");
}

static void a_pin_is_the_reference_option(void **state)
{
	struct params p;

	(void)state;
	params_init(&p);
	p.round = "v4.1";
	p.workload = "bert";
	p.mode = REF_PINNED;
	p.pinned = "Dell/it's";
	assert_string_equal(line(&p, MET_EP, false, NULL, 0),
			    "gpuscale --round v4.1 -w bert -r 'Dell/it'\\''s'");
	/* a pin kept while the family mode shows is not the view */
	p.mode = REF_PAPER;
	assert_string_equal(line(&p, MET_EP, false, NULL, 0), "gpuscale --round v4.1 -w bert -m paper");
}

static void files_follow_and_a_dash_is_guarded(void **state)
{
	struct params p;
	char f1[] = "my runs.csv", f2[] = "-odd.csv";
	char *files[] = { f1, f2 };

	(void)state;
	params_init(&p);
	p.round = "r";
	p.workload = "w";
	assert_string_equal(line(&p, MET_EP, false, files, 2),
			    "gpuscale --round r -w w -- 'my runs.csv' -odd.csv");
	assert_string_equal(line(&p, MET_EP, false, files, 1), "gpuscale --round r -w w 'my runs.csv'");
}

static void a_cut_line_says_its_full_length(void **state)
{
	struct params p;
	char small[16];
	const struct cmdline_view v = { &p, MET_EP, false, NULL, 0, NULL, NULL, NULL, NULL };

	(void)state;
	params_init(&p);
	p.round = "v4.1";
	p.workload = "bert";
	assert_int_equal(cmdline_format(&v, small, sizeof small), strlen("gpuscale --round v4.1 -w bert"));
	assert_string_equal(small, "gpuscale --roun");
}

static void columns_and_query_are_options(void **state)
{
	struct params p;
	struct query q;
	bool want[TC_COUNT];
	struct cmdline_view v = { &p, MET_EP, false, NULL, 0, NULL, NULL, want, &q };

	(void)state;
	params_init(&p);
	p.round = "v4.1";
	p.workload = "bert";
	for (int c = 0; c < TC_COUNT; c++)
		want[c] = true;
	query_init(&q);
	q.deadline = 12.5;
	q.max_cost = 0.1 + 0.2; /* read back to the same double */
	cmdline_format(&v, buf, sizeof buf);
	assert_string_equal(buf, "gpuscale --round v4.1 -w bert --deadline 12.5 --max-cost 0.30000000000000004");
	want[TC_S] = want[TC_E] = want[TC_RANK] = false;
	q.minimize = QO_COST;
	cmdline_format(&v, buf, sizeof buf);
	assert_non_null(strstr(buf, " --columns round,submitter,family,n,t,ep,a,"));
	assert_null(strstr(buf, "system"));
	assert_non_null(strstr(buf, " --deadline 12.5 --max-cost 0.30000000000000004 --minimize cost"));
	/* the objective alone is the query */
	query_init(&q);
	for (int c = 0; c < TC_COUNT; c++)
		want[c] = c == TC_SYS;
	cmdline_format(&v, buf, sizeof buf);
	assert_string_equal(buf, "gpuscale --round v4.1 -w bert --columns system --minimize acc-hours");
}

/* The words sh reads from texts[0..n) (pieces a line), each word ended by \001 and each text's
 * words by \002, into out (the first word, gpuscale, is a function that prints its arguments):
 * one sh for them all. Returns the length read. */
static size_t sh_run(char *const *texts, size_t n, char *out, size_t outn)
{
	char path[] = "/tmp/gs-cmdline-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char cmd[64];
	size_t got;

	assert_non_null(f);
	fputs("gpuscale() { for a; do printf '%s\\001' \"$a\"; done; }\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\nprintf '\\002'\n", texts[i]);
	fclose(f);
	snprintf(cmd, sizeof cmd, "sh %s", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	got = fread(out, 1, outn - 1, p);
	out[got] = '\0';
	assert_true(got < outn - 1);
	pclose(p);
	unlink(path);
	return got;
}

/* The words sh reads from one text, as sh_run (no \002). */
static void sh_words(const char *text, char *out, size_t outn)
{
	char *t = (char *)text;
	size_t got = sh_run(&t, 1, out, outn);

	assert_true(got > 0 && out[got - 1] == '\002');
	out[got - 1] = '\0';
}

/* Each piece of text holds at most width bytes; returns the count of pieces. */
static size_t check_pieces(const char *text, int width)
{
	size_t n = 0;

	for (const char *l = text; l; n++) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len > (size_t)width)
			fail_msg("a piece of %zu bytes, wider than %d: '%.*s'", len, width, (int)len, l);
		l = nl ? nl + 1 : NULL;
	}
	return n;
}

static void wrapped_pieces_paste_back(void **state)
{
	const char *l = "gpuscale --round v5.0 -w llama2_70b_lora -f 'H100 SXM' -f 'a b c d' --theta 0.85 -k 5";
	char *text = cmdline_wrap(l, 30), got[512], want[512];
	size_t n;

	(void)state;
	assert_non_null(text);
	n = check_pieces(text, 30);
	assert_true(n > 2);
	/* between words: " \" and two blanks; a word that fits is never cut */
	assert_non_null(strstr(text, " \\\n  "));
	assert_non_null(strstr(text, "'H100 SXM'"));
	assert_non_null(strstr(text, "'a b c d'"));
	sh_words(text, got, sizeof got);
	sh_words(l, want, sizeof want); /* the line unwrapped */
	assert_string_equal(got, want);
	free(text);
}

/* A word longer than a piece is cut inside itself, its quotes closed and opened again, and sh
 * joins it back; nothing is lost however long the word or the line. */
static void a_long_word_is_cut_and_joined_back(void **state)
{
	static char word[1200], l[4096];
	char *text, got[4096], want[4096];

	(void)state;
	for (int width = 20; width <= 64; width += 11) {
		size_t at = 0;
		for (int i = 0; at < 1000; i++)
			at += (size_t)snprintf(word + at, sizeof word - at, "%s", (const char *const[]){
				"/dir", "/it's", " two", "\xc3\xa9t\xc3\xa9", "\\", "\"q\"", "''" }[i % 7]);
		/* quoted as put_word quotes it: a ' inside as '\'' */
		{
			char q[3000] = "'";
			size_t k = 1;
			for (const char *c = word; *c; c++)
				k += (size_t)snprintf(q + k, sizeof q - k, *c == '\'' ? "'\\''" : "%c", *c);
			snprintf(q + k, sizeof q - k, "'");
			snprintf(l, sizeof l, "gpuscale -w bert -f %s --theta 0.5", q);
		}
		text = cmdline_wrap(l, width);
		assert_non_null(text);
		assert_true(check_pieces(text, width) > 1000 / (size_t)width);
		/* never inside a UTF-8 character: no piece starts with a continuation byte */
		for (const char *c = strchr(text, '\n'); c; c = strchr(c + 1, '\n'))
			assert_true(((unsigned char)c[1] & 0xC0) != 0x80);
		sh_words(text, got, sizeof got);
		snprintf(want, sizeof want, "-w\001bert\001-f\001%s\001--theta\0010.5\001", word);
		if (strcmp(got, want) != 0)
			fail_msg("width %d: sh read\n%s\nnot\n%s\nfrom\n%s", width, got, want, text);
		free(text);
	}
}

static void four_thousand_files_paste_back(void **state)
{
	enum { NF = 4000 };
	static char names[NF][48], out[NF * 48 + 64];
	char *files[NF], *text;
	struct params p;
	size_t len, n = 0;

	(void)state;
	params_init(&p);
	p.round = "r";
	p.workload = "w";
	for (int i = 0; i < NF; i++) {
		snprintf(names[i], sizeof names[i], "runs/it's %04d.csv", i);
		files[i] = names[i];
	}
	const struct cmdline_view v = { &p, MET_EP, false, files, NF, NULL, NULL, NULL, NULL };
	len = cmdline_format(&v, NULL, 0);
	char *l = malloc(len + 1);
	assert_non_null(l);
	cmdline_format(&v, l, len + 1);
	text = cmdline_wrap(l, 72);
	assert_non_null(text);
	check_pieces(text, 72);
	sh_words(text, out, sizeof out);
	for (char *w = out; *w; n++) {
		char *end = strchr(w, '\001');
		assert_non_null(end);
		*end = '\0';
		if (n >= 4)
			assert_string_equal(w, names[n - 4]);
		w = end + 1;
	}
	assert_int_equal(n, 4 + NF);
	free(text);
	free(l);
}

static void quoted_names_paste_back_through_sh(void **state)
{
	static const char *const names[] = {
		"O'Brien", "it's a 'test'", "a\"b", "back\\slash", "two  spaces", "\xc3\xa9t\xc3\xa9 'x'",
		"''", "'", "x'y'z w",
	};
	enum { NN = sizeof names / sizeof names[0], NW = 6 };
	struct params p;
	char *texts[NN * NW], want[2048];
	static char out[NN * NW * 256];

	(void)state;
	for (size_t k = 0; k < NN; k++)
		for (int i = 0; i < NW; i++) {
			const char *fams[] = { names[k], "H100 SXM" };
			params_init(&p);
			p.round = "v4.1";
			p.workload = "bert";
			p.mode = REF_PINNED;
			p.pinned = names[(k + 1) % NN];
			p.filter.families = fams;
			p.filter.nfamilies = 2;
			texts[k * NW + i] = cmdline_wrap(line(&p, MET_EP, false, NULL, 0), 20 + 7 * i);
			assert_non_null(texts[k * NW + i]);
			check_pieces(texts[k * NW + i], 20 + 7 * i);
		}
	sh_run(texts, NN * NW, out, sizeof out);
	char *got = out;
	for (size_t k = 0; k < NN; k++)
		for (int i = 0; i < NW; i++) {
			char *end = strchr(got, '\002');
			assert_non_null(end);
			*end = '\0';
			snprintf(want, sizeof want, "--round\001v4.1\001-w\001bert\001-f\001%s\001-f\001H100 SXM\001-r\001%s\001",
				 names[k], names[(k + 1) % NN]);
			if (strcmp(got, want) != 0)
				fail_msg("width %d:\n%s\nsh read\n%s\nnot\n%s", 20 + 7 * i, texts[k * NW + i], got, want);
			free(texts[k * NW + i]);
			got = end + 1;
		}
}

/* ---- the round trip: random views -> shown line -> sh -> the parser -> the same view ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u; /* fixed: a failure repeats */

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)((rng_state >> 11) % n);
}

/* A random name: what a shell treats specially, UTF-8, blanks; sometimes a long path. Never
 * empty (the parser refuses an empty value), never \001 or \002 (sh_run's separators). */
static void rnd_name(char *b, size_t n)
{
	static const char *const parts[] = {
		"'", "\"", "\\", " ", "  ", "$HOME", "`x`", "!", "*", "?", "~", "#", ";", "&", "|", "(", ")",
		"<", ">", "{", "}", "\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x9a\x80", "-", "--", "=",
		"a", "B200", "H100 SXM", "/", "x.csv", "'\\''", "%", "@", ",",
	};
	size_t len = 0, parts_n = 1 + rnd(rnd(8) == 0 ? 120 : 6);

	b[0] = '\0';
	for (size_t i = 0; i < parts_n && len + 16 < n; i++)
		len += (size_t)snprintf(b + len, n - len, "%s", parts[rnd(sizeof parts / sizeof parts[0])]);
}

struct rview {
	char names[24][800];
	const char *fams[4], *vendors[3], *avail[3], *divs[3];
	char *files[5];
	struct params p;
	struct query q;
	bool want[TC_COUNT];
	struct cmdline_view v;
};

static void rnd_view(struct rview *r)
{
	struct params *p = &r->p;
	int k = 0;

	params_init(p);
	for (int i = 0; i < 24; i++)
		rnd_name(r->names[i], sizeof r->names[i]);
	p->round = rnd(4) ? r->names[k++] : NULL;
	p->workload = rnd(4) ? r->names[k++] : NULL;
	p->filter.nfamilies = rnd(5);
	for (size_t i = 0; i < p->filter.nfamilies; i++)
		r->fams[i] = r->names[k++];
	p->filter.families = r->fams;
	p->filter.nvendors = rnd(3);
	for (size_t i = 0; i < p->filter.nvendors; i++)
		r->vendors[i] = r->names[k++];
	p->filter.vendors = r->vendors;
	p->filter.navailability = rnd(3);
	for (size_t i = 0; i < p->filter.navailability; i++)
		r->avail[i] = r->names[k++];
	p->filter.availability = r->avail;
	p->filter.ndivisions = rnd(3);
	for (size_t i = 0; i < p->filter.ndivisions; i++)
		r->divs[i] = r->names[k++];
	p->filter.divisions = r->divs;
	p->available_only = rnd(2);
	p->collapse = rnd(2);
	p->all_rounds = rnd(2);
	p->mode = (enum ref_mode)rnd(REF_MODE_COUNT);
	p->pinned = p->mode == REF_PINNED ? r->names[k++] : NULL;
	p->ref_rule = (enum ref_rule)rnd(RULE_COUNT);
	p->theta = rnd(3) ? GS_THETA_MIN + (GS_THETA_MAX - GS_THETA_MIN) * rnd(1u << 30) / (double)(1u << 30) : 0.8;
	p->k = (int)rnd(MAX_K + 1);
	p->feats = (enum feat_set)rnd(FEAT_COUNT);
	p->sort = (enum col)rnd(COL_COUNT);
	p->desc = rnd(2);
	p->pareto_cost = rnd(2);
	for (int c = 0; c < TC_COUNT; c++)
		r->want[c] = rnd(4) != 0 || c == TC_SYS;
	query_init(&r->q);
	{
		double *at[] = { &r->q.deadline, &r->q.max_cost, &r->q.max_acc_hours, &r->q.max_kwh };
		for (int i = 0; i < 4; i++)
			if (rnd(3) == 0)
				*at[i] = ldexp(1 + rnd(1u << 30), -(int)rnd(40)) / 3;
	}
	r->q.minimize = (enum q_obj)rnd(QO_COUNT);
	int nfiles = (int)rnd(6);
	for (int i = 0; i < nfiles; i++)
		r->files[i] = r->names[k++];
	r->v = (struct cmdline_view){ p, (enum metric)rnd(MET_COUNT), rnd(2), nfiles ? r->files : NULL, nfiles,
				      rnd(3) ? NULL : r->names[22], rnd(3) ? NULL : r->names[23],
				      rnd(2) ? r->want : NULL, rnd(2) ? &r->q : NULL };
}

static void same_list(const char *what, const char *const *a, size_t na, const char *const *b, size_t nb)
{
	if (na != nb)
		fail_msg("%s: %zu read back, %zu given", what, na, nb);
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			fail_msg("%s %zu: '%s' read back, '%s' given", what, i, a[i], b[i]);
}

static void same_str(const char *what, const char *a, const char *b)
{
	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
		fail_msg("%s: '%s' read back, '%s' given", what, a ? a : "(none)", b ? b : "(none)");
}

static bool same_num(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* The view c parsed is r's. */
static void same_view(const struct cli *c, const struct rview *r)
{
	const struct params *x = &c->params, *y = &r->p;
	const struct query *q = r->v.query;

	same_str("round", x->round, y->round);
	same_str("workload", x->workload, y->workload);
	same_list("-f", x->filter.families, x->filter.nfamilies, y->filter.families, y->filter.nfamilies);
	same_list("--vendor", x->filter.vendors, x->filter.nvendors, y->filter.vendors, y->filter.nvendors);
	same_list("--availability", x->filter.availability, x->filter.navailability, y->filter.availability,
		  y->filter.navailability);
	same_list("--division", x->filter.divisions, x->filter.ndivisions, y->filter.divisions, y->filter.ndivisions);
	assert_int_equal(x->available_only, y->available_only);
	assert_int_equal(x->collapse, y->collapse);
	assert_int_equal(x->all_rounds, y->all_rounds);
	assert_int_equal(x->mode, y->mode);
	if (y->mode == REF_PINNED)
		same_str("-r", x->pinned, y->pinned);
	assert_int_equal(x->ref_rule, y->ref_rule);
	assert_true(x->theta == y->theta);
	assert_int_equal(x->k, y->k);
	assert_int_equal(x->feats, y->feats);
	assert_int_equal(x->sort, y->sort);
	assert_int_equal(x->desc, y->desc);
	assert_int_equal(x->pareto_cost, y->pareto_cost);
	assert_int_equal(c->ui.y_metric, r->v.y_metric);
	assert_int_equal(c->ui.log_y, r->v.log_y);
	for (int t = 0; t < TC_COUNT; t++)
		assert_int_equal(c->ui.columns ? c->ui.columns[t] : true, r->v.columns ? r->v.columns[t] : true);
	assert_int_equal(c->query_given || query_constrained(&c->query), q != NULL);
	if (q) {
		assert_true(same_num(c->query.deadline, q->deadline));
		assert_true(same_num(c->query.max_cost, q->max_cost));
		assert_true(same_num(c->query.max_acc_hours, q->max_acc_hours));
		assert_true(same_num(c->query.max_kwh, q->max_kwh));
		assert_int_equal(c->query.minimize, q->minimize);
	}
	same_str("--families", c->families_path, r->v.families_path);
	same_str("--prices", c->prices_path, r->v.prices_path);
	same_list("files", (const char *const *)c->files, (size_t)c->nfiles, (const char *const *)r->v.files,
		  (size_t)r->v.nfiles);
}

#define NVIEWS 150

static void random_views_round_trip(void **state)
{
	static struct rview r;
	static char out[1 << 22];
	char *texts[NVIEWS], *argv[256], *w = out;
	uint64_t seed = rng_state;

	(void)state;
	/* the views drawn twice from the same seed: shown, then compared with what sh and the
	 * parser read (one sh for all) */
	for (int iter = 0; iter < NVIEWS; iter++) {
		int width = 20 + (int)rnd(100);
		rnd_view(&r);
		size_t len = cmdline_format(&r.v, NULL, 0);
		char *l = malloc(len + 1);
		assert_non_null(l);
		cmdline_format(&r.v, l, len + 1);
		texts[iter] = cmdline_wrap(l, width);
		assert_non_null(texts[iter]);
		check_pieces(texts[iter], width);
		free(l);
	}
	sh_run(texts, NVIEWS, out, sizeof out);
	rng_state = seed;
	for (int iter = 0; iter < NVIEWS; iter++) {
		int argc = 0;
		(void)rnd(100);
		rnd_view(&r);
		argv[argc++] = (char *)"gpuscale";
		while (*w != '\002' && argc < 255) {
			char *end = strchr(w, '\001');
			assert_non_null(end);
			*end = '\0';
			argv[argc++] = w;
			w = end + 1;
		}
		assert_true(*w == '\002');
		w++;
		argv[argc] = NULL;
		struct cli c;
		struct gs_err err = { 0 };
		if (cli_parse(argc, argv, &c, &err) < 0)
			fail_msg("view %d: the parser refuses the shown line: %s\n%s", iter, err.msg, texts[iter]);
		same_view(&c, &r);
		free(c.sel); /* what cli_parse allocates (cli_free, in cli_load.c, also frees what loading does) */
		free(texts[iter]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_leave_only_round_and_workload),
		cmocka_unit_test(each_change_is_an_option),
		cmocka_unit_test(a_pin_is_the_reference_option),
		cmocka_unit_test(files_follow_and_a_dash_is_guarded),
		cmocka_unit_test(a_cut_line_says_its_full_length),
		cmocka_unit_test(columns_and_query_are_options),
		cmocka_unit_test(wrapped_pieces_paste_back),
		cmocka_unit_test(a_long_word_is_cut_and_joined_back),
		cmocka_unit_test(four_thousand_files_paste_back),
		cmocka_unit_test(quoted_names_paste_back_through_sh),
		cmocka_unit_test(random_views_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
