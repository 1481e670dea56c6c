/* Fuzz target: the systems JSON reader (<Submitter>/systems/<system>.json), as the importer
 * calls it, with its warnings collected and every result freed. */
#include <stdint.h>
#include <string.h>

#include "import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_system sys;
	struct gs_warn w = {0};
	struct gs_err err;

	if (import_system_parse((const char *)data, size, "fuzz.json", &sys, &w, &err) == 0 && sys.usable &&
	    (sys.nodes <= 0 || sys.per_node < 0 || sys.accelerators != sys.nodes * sys.per_node ||
	     !sys.system_name || !sys.framework))
		__builtin_trap(); /* a usable system always has valid counts (accelerators = nodes x per
				   * node, 0 for a CPU-only one) and text fields */
	import_system_free(&sys);
	warn_free(&w);
	return 0;
}
