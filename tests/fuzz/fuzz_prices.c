/* Fuzz target: the prices table, then pricing a few rows by family with it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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
	if (dataset_load_prices_buffer(&ds, "fuzz_prices.csv", (const char *)data, size, &err) == 0 &&
	    dataset_load_buffer(&ds, "rows.csv", rows, sizeof rows - 1, &err) == 0) {
		dataset_classify(&ds);
		/* a price is a range of finite numbers, or none at all */
		for (size_t i = 0; i < ds.n; i++)
			if (!isnan(ds.rows[i].price_lo) &&
			    !(isfinite(ds.rows[i].price_hi) && ds.rows[i].price_lo >= 0 &&
			      ds.rows[i].price_lo <= ds.rows[i].price_hi))
				abort();
	} else if (ds.nprices != 0) {
		abort(); /* a table with an error is not used */
	}
	dataset_free(&ds);
	return 0;
}
