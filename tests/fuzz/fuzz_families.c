/* Fuzz target: the families table, then classifying a few accelerator names with it. */
#include <stdint.h>
#include <string.h>

#include "dataset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char rows[] = "system,benchmark,accelerators,minutes,accelerator\n"
				   "a,bert,8,1,NVIDIA H100-SXM5-80GB\nb,bert,8,2,TPU-v5p\nc,bert,4,3,\n";
	struct dataset ds;
	struct gs_err err;

	memset(&ds, 0, sizeof ds);
	if (dataset_load_families_buffer(&ds, "fuzz_families.csv", (const char *)data, size, &err) == 0 &&
	    dataset_load_buffer(&ds, "rows.csv", rows, sizeof rows - 1, &err) == 0)
		dataset_classify(&ds);
	dataset_free(&ds);
	return 0;
}
