/* The command line of a view: defaults left out, values read back to the same number, words
 * quoted for a shell, and wrapped pieces that still paste as one command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"

static char buf[2048];

static const char *line(const struct params *p, enum metric m, bool log_y, char *const *files, int nfiles)
{
	const struct cmdline_view v = { p, m, log_y, files, nfiles, NULL, NULL };

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
	const struct cmdline_view v = { &p, MET_EP, false, NULL, 0, NULL, NULL };

	(void)state;
	params_init(&p);
	p.round = "v4.1";
	p.workload = "bert";
	assert_int_equal(cmdline_format(&v, small, sizeof small), strlen("gpuscale --round v4.1 -w bert"));
	assert_string_equal(small, "gpuscale --roun");
}

static void wrapped_pieces_paste_back(void **state)
{
	const char *l = "gpuscale --round v5.0 -w llama2_70b_lora -f 'H100 SXM' -f 'a b c d' --theta 0.85 -k 5";
	char lines[8][64], joined[256] = "";
	size_t n = cmdline_wrap(l, 30, lines[0], sizeof lines[0], 8);

	(void)state;
	assert_true(n > 2);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(lines[i]);
		const char *s = lines[i] + (i ? 2 : 0);
		assert_true(len <= 30 || strchr(lines[i] + 2, ' ') == strrchr(lines[i], ' '));
		if (i)
			assert_memory_equal(lines[i], "  ", 2);
		if (i + 1 < n)
			assert_string_equal(lines[i] + len - 2, " \\");
		strncat(joined, s, (size_t)(len - (i + 1 < n ? 2 : 0) - (i ? 2 : 0)));
		if (i + 1 < n)
			strcat(joined, " ");
	}
	assert_string_equal(joined, l);
	for (size_t i = 0; i < n; i++)
		assert_null(strstr(lines[i], "'H100 \\")); /* a quoted word is never cut */
}

/* The words sh reads from the wrapped pieces of a line, one a line, into out (the first word,
 * gpuscale, is a function that prints its arguments). */
static void sh_words(char (*lines)[96], size_t n, char *out, size_t outn)
{
	char path[] = "/tmp/gs-cmdline-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char cmd[64];
	size_t got;

	assert_non_null(f);
	fputs("gpuscale() { for a; do printf '%s\\n' \"$a\"; done; }\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	fclose(f);
	snprintf(cmd, sizeof cmd, "sh %s", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	got = fread(out, 1, outn - 1, p);
	out[got] = '\0';
	pclose(p);
	unlink(path);
}

static void quoted_names_paste_back_through_sh(void **state)
{
	static const char *const names[] = {
		"O'Brien", "it's a 'test'", "a\"b", "back\\slash", "two  spaces", "\xc3\xa9t\xc3\xa9 'x'",
		"''", "'", "x'y'z w",
	};
	struct params p;
	char lines[16][96], out[2048], want[2048];

	(void)state;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		for (int width = 20; width <= 60; width += 7) {
			const char *fams[] = { names[k], "H100 SXM" };
			params_init(&p);
			p.round = "v4.1";
			p.workload = "bert";
			p.mode = REF_PINNED;
			p.pinned = names[(k + 1) % (sizeof names / sizeof names[0])];
			p.filter.families = fams;
			p.filter.nfamilies = 2;
			const char *l = line(&p, MET_EP, false, NULL, 0);
			size_t n = cmdline_wrap(l, width, lines[0], sizeof lines[0], 16);
			sh_words(lines, n, out, sizeof out);
			snprintf(want, sizeof want, "--round\nv4.1\n-w\nbert\n-f\n%s\n-f\nH100 SXM\n-r\n%s\n",
				 names[k], p.pinned);
			if (strcmp(out, want) != 0)
				fail_msg("width %d, %s: sh read\n%s\nnot\n%s", width, l, out, want);
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
		cmocka_unit_test(wrapped_pieces_paste_back),
		cmocka_unit_test(quoted_names_paste_back_through_sh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
