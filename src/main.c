/* main.c: gpuscale's entry point: parse the command line, load and check the data, then hand
 * over to the importer, the reports or the explorer. Only main decides the exit status:
 * 0 ok, 1 runtime error (out of memory, a write error), 2 usage or input error. */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "csvw.h"
#include "dataset.h"
#include "fileio.h"
#include "import.h"
#include "report.h"
#include "ui.h"

/* rc, or 1 when what was written to standard output did not all get there (a full disk,
 * /dev/full, a closed pipe): a program that says nothing of a lost report lies. */
static int stdout_status(int rc)
{
	struct gs_err err = { 0 };
	char msg[1200];

	if (fileio_stream_check(stdout, "standard output", &err) < 0) {
		fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct dataset ds;
	struct analysis a = { 0 };
	struct cli c;
	struct gs_err err = { 0 };
	char msg[1200];
	int rc;

	setlocale(LC_ALL, "");
	/* numbers are read and written in one notation whatever the user's locale */
	setlocale(LC_NUMERIC, "C");
	if (argc > 1 && strcmp(argv[1], "import") == 0)
		return stdout_status(cli_import(argc - 1, argv + 1));
	if (cli_parse(argc, argv, &c, &err) < 0) {
		fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
		fprintf(stderr, "Try 'gpuscale --help'.\n");
		cli_free(&c);
		return 2;
	}
	csvw_set_raw(c.raw);
	if (c.help || c.version) {
		if (c.help)
			cli_usage(stdout);
		else
			printf("gpuscale %s\n", GS_VERSION);
		cli_free(&c);
		return stdout_status(0);
	}
	memset(&ds, 0, sizeof ds);
	/* the names are checked by the first steps of an analysis, whose memory the reports reuse */
	rc = cli_load(&ds, &c, &err);
	if (rc < 0 || cli_check(&ds, &c, &a, &err) < 0) {
		/* under --strict the bad rows are the errors: listed first, the verdict last */
		bool strict = c.strict && ds.skipped;
		if (strict)
			cli_warnings(&ds, 20, true, stderr);
		fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
		if (!strict)
			cli_warnings(&ds, 20, false, stderr);
		analysis_free(&a);
		dataset_free(&ds);
		cli_free(&c);
		return err.kind == GS_ERR_OOM ? 1 : 2;
	}
	if (c.print) {
		struct report_opts o = {
			.width = c.width ? c.width : 80, .height = c.height,
			.table_width = c.width, .y_metric = c.ui.y_metric,
			.log_y = c.ui.log_y, .all_workloads = !c.workload_given, .columns = c.ui.columns,
			.query = &c.query, .predict_n = c.predict_n, .json = c.json,
		};
		memcpy(o.order, c.print_order, sizeof o.order);
		o.norder = c.nprint;
		cli_warnings(&ds, 20, false, stderr);
		/* the names were checked above: what fails now is memory or the output */
		rc = report_run(&ds, &c.params, &o, &a, stdout, &err) == 0 ? 0 : 1;
		if (rc)
			fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
		analysis_free(&a);
	} else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_warnings(&ds, 20, false, stderr);
		fprintf(stderr, "gpuscale: the explorer needs a terminal; use --print for scripts\n");
		rc = 2;
	} else {
		analysis_free(&a); /* the explorer keeps its own */
		c.ui.files = c.bundled ? NULL : c.files;
		c.ui.nfiles = c.bundled ? 0 : c.nfiles;
		c.ui.families_path = c.families_path;
		c.ui.prices_path = c.prices_path;
		rc = ui_run(&ds, &c.params, &c.ui, &err);
		if (rc)
			fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
		cli_warnings(&ds, 5, false, stderr);
	}
	analysis_free(&a);
	dataset_free(&ds);
	cli_free(&c);
	return rc;
}
