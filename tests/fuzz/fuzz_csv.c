/* Fuzz target: the results CSV loader, then the classification and queries that follow it. */
#include <stdint.h>
#include <string.h>

#include "dataset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dataset ds;
	struct gs_err err;
	const char *names[16];

	memset(&ds, 0, sizeof ds);
	if (dataset_load_buffer(&ds, "fuzz.csv", (const char *)data, size, &err) == 0) {
		dataset_classify(&ds);
		size_t n = dataset_rounds(&ds, names, 16);
		for (size_t i = 0; i < n; i++)
			dataset_workloads(&ds, names[i], names + 8, 8);
	}
	dataset_free(&ds);
	return 0;
}
