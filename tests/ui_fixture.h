/* ui_fixture.h: the results CSV a test of the explorer's state builds in memory, row by row
 * (test_ui_state.c). */
#ifndef GS_TEST_UI_FIXTURE_H
#define GS_TEST_UI_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"
#include "ui_app.h"

#define HEADER "round,submitter,system,system_name,division,availability,accelerator,nodes," \
	       "accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored," \
	       "runs_failed,scaling_factor,run_minutes\n"

struct fx {
	struct dataset ds;
	struct app *app;
	char *csv;
	size_t len, cap;
};

static void add(struct fx *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!f->csv) { /* no pointer arithmetic on NULL, even by 0 */
		f->cap = 4096;
		f->len = 0;
		f->csv = malloc(f->cap);
		assert_non_null(f->csv);
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(f->csv + f->len, f->cap - f->len, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if (f->len + (size_t)n < f->cap)
			break;
		f->cap = f->cap * 2 + (size_t)n + 1;
		f->csv = realloc(f->csv, f->cap);
		assert_non_null(f->csv);
	}
	f->len += (size_t)n;
}

#endif
