/* Fuzz target: the MLLOG scanner, the run verdict and the JSON validator on the same bytes. */
#include <stdint.h>
#include <string.h>

#include "mllog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mllog_scan s;
	double minutes;
	char why[128];
	long line, col;

	mllog_scan((const char *)data, size, &s);
	mllog_verdict(&s, 30, &minutes, why, sizeof why, &line, &col);
	mllog_json_valid((const char *)data, size);
	return 0;
}
